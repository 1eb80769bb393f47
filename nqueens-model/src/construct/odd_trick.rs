//! Stone & Stone's "odd" solution (*Efficient Search Techniques*, 1987, §3, "An odd solution to
//! the N-Queens Problem").
//!
//! For even `n` below 30, the first lexicographic solution of `n + 1` takes "anywhere from 2 to 70 times
//! fewer backtracks" than that of `n`, except at 26. LEX tries row 0's column 0 first and searches that
//! whole subtree before column 1, so "if there is a solution with a queen in the corner, then the first
//! solution found by lexicographic search has a queen in the corner"; removing that queen with her row
//! and column leaves an `n`-solution. In the paper's words, solving `n + 1` is solving `n` with the
//! main diagonal forbidden, and for even `n` that region is rich in solutions.
//!
//! **When the first `(n + 1)`-solution has no corner queen**, the paper's statement read backwards says
//! that no `(n + 1)`-solution has its queen at row 0, column 0, which is to say that no `n`-solution
//! leaves its main diagonal empty. The trick then has nothing to give: [`odd_trick`] reports
//! [`OddTrickResult::NoCornerQueen`] and does not fall back to anything itself; the direct LEX run it
//! made for comparison holds the `n`-solution. For even `n ≥ 4` this cannot happen: the Yagloms'
//! boards ([`super::yaglom`]) are `n`-solutions with an empty main diagonal for every such `n`.

use std::ops::ControlFlow;
use std::time::{Duration, Instant};

use csp_search::{FnObserver, Limits, Outcome, SearchConfig, SearchEvent, solve};

use super::{ConstructError, Construction, Method, Recipe, remove_corner};
use crate::{Encoding, model};

/// One LEX search (Stone & Stone's LEX: [`SearchConfig::lex`], check-past, on the counters model) for
/// the first solution.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LexRun {
    /// The board searched.
    pub n: usize,
    /// How the search ended: [`Outcome::Solved`] unless a limit stopped it.
    pub outcome: Outcome,
    /// Assignments undone before the first solution: Stone & Stone's Table 2 figure.
    pub backtracks: u64,
    /// Assignments made.
    pub nodes: u64,
    /// The first solution, if the search found one.
    pub solution: Option<Vec<u32>>,
    /// Wall-clock time of the search.
    pub elapsed: Duration,
}

/// What the odd trick made of the first `(n + 1)`-solution.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum OddTrickResult {
    /// It had its queen in the top-left corner; removing her row and column left this `n`-solution.
    Corner(Vec<u32>),
    /// It had no corner queen, which proves no `n`-solution has an empty main diagonal (see the module
    /// documentation). Never the case for even `n ≥ 4`.
    NoCornerQueen,
    /// A limit stopped the `(n + 1)` search before its first solution.
    Unfinished,
}

/// Both searches of the odd trick on an even `n`: LEX on `n + 1` and, for comparison, LEX on `n`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OddTrick {
    /// The (even) board asked for.
    pub n: usize,
    /// LEX on `n + 1`.
    pub via_odd: LexRun,
    /// LEX on `n` directly.
    pub direct: LexRun,
    /// What the `(n + 1)`-solution gave.
    pub result: OddTrickResult,
}

impl OddTrick {
    /// The trick's `n`-solution, when the first `(n + 1)`-solution had a corner queen.
    pub fn placement(&self) -> Option<&[u32]> {
        match &self.result {
            OddTrickResult::Corner(placement) => Some(placement),
            OddTrickResult::NoCornerQueen | OddTrickResult::Unfinished => None,
        }
    }

    /// The trick's solution as a [`Construction`]: corner removal from LEX's first `(n + 1)`-solution.
    pub fn construction(&self) -> Option<Construction> {
        self.placement().map(|placement| Construction {
            placement: placement.to_vec(),
            recipe: Recipe::CornerRemoval(Box::new(Recipe::LexSearch { n: self.n + 1 })),
        })
    }

    /// How many times more backtracks direct LEX made than LEX on `n + 1`: the paper's "2 to 70 times
    /// fewer". `None` unless both searches found their solution; infinite if `n + 1` needed none.
    pub fn speedup(&self) -> Option<f64> {
        (self.via_odd.solution.is_some() && self.direct.solution.is_some())
            .then(|| self.direct.backtracks as f64 / self.via_odd.backtracks as f64)
    }
}

/// Stone & Stone's odd trick for an even `n ≥ 4`: LEX on `n + 1`, and the corner queen's row and column
/// dropped when its first solution has one; plus direct LEX on `n`, for its backtracks. The node and
/// backtrack `limits` apply to each search on its own, the time limit to the two together (LEX grows
/// exponentially: Stone & Stone stopped at 29, and at n = 40 it may not end in any reasonable time).
///
/// ```
/// use csp_search::Limits;
/// use nqueens_model::construct::odd_trick;
///
/// let trick = odd_trick(8, Limits::default()).unwrap();
/// assert_eq!(trick.via_odd.backtracks, 32, "LEX on 9: Stone & Stone's Table 2");
/// assert_eq!(trick.direct.backtracks, 105, "LEX on 8");
/// assert_eq!(trick.via_odd.solution.as_deref(), Some(&[0, 2, 5, 7, 1, 3, 8, 6, 4][..]));
/// assert_eq!(trick.placement(), Some(&[1, 4, 6, 0, 2, 7, 5, 3][..]));
/// ```
pub fn odd_trick(n: usize, limits: Limits) -> Result<OddTrick, ConstructError> {
    if n == 0 {
        return Err(ConstructError::ZeroSize);
    }
    if !Method::OddTrick.covers(n) {
        return Err(ConstructError::out_of_scope(Method::OddTrick, n));
    }
    let search_max = crate::max_n(Encoding::Counters);
    if n >= search_max {
        return Err(ConstructError::SearchTooLarge {
            construction: Method::OddTrick.name(),
            n,
            search_max,
            max: search_max - 1,
        });
    }
    let started = Instant::now();
    let via_odd = lex_first(n + 1, limits)?;
    // The time limit is the whole trick's: the comparison run gets what the first search left.
    let direct_limits = Limits {
        time: limits
            .time
            .map(|time| time.saturating_sub(started.elapsed())),
        ..limits
    };
    let direct = lex_first(n, direct_limits)?;
    let result = match &via_odd.solution {
        None => OddTrickResult::Unfinished,
        Some(larger) if larger.first() == Some(&0) => {
            OddTrickResult::Corner(remove_corner(larger.clone())?)
        }
        Some(_) => OddTrickResult::NoCornerQueen,
    };
    Ok(OddTrick {
        n,
        via_odd,
        direct,
        result,
    })
}

/// LEX's first solution on `n` queens, with its statistics.
fn lex_first(n: usize, limits: Limits) -> Result<LexRun, ConstructError> {
    let model = model(n, Encoding::Counters)?;
    let config = SearchConfig {
        limits,
        ..SearchConfig::lex()
    };
    let mut solution = None;
    let result = solve(
        &model,
        &config,
        FnObserver(|event: &SearchEvent<'_>| {
            if let SearchEvent::Solution { values, .. } = event {
                // Columns of a model built by `model` lie in 0..n, so they are non-negative.
                solution = Some(values.iter().map(|&v| v as u32).collect::<Vec<u32>>());
            }
            ControlFlow::Continue(())
        }),
    );
    if result.outcome == Outcome::Exhausted && solution.is_none() {
        // Every board searched here (n ≥ 4) has a solution, so an exhausted tree names a bug.
        return Err(ConstructError::SearchFailed {
            n,
            outcome: result.outcome,
        });
    }
    Ok(LexRun {
        n,
        outcome: result.outcome,
        backtracks: result.stats.backtracks,
        nodes: result.stats.nodes,
        solution,
        elapsed: result.elapsed,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::verify;

    #[test]
    fn odd_n_and_small_n_are_refused() {
        for n in [1, 2, 3, 7, 9] {
            assert!(
                matches!(
                    odd_trick(n, Limits::default()),
                    Err(ConstructError::OutOfScope { .. })
                ),
                "{n}"
            );
        }
        assert_eq!(
            odd_trick(0, Limits::default()).unwrap_err(),
            ConstructError::ZeroSize
        );
    }

    #[test]
    fn a_limit_leaves_the_trick_unfinished() {
        let limits = Limits {
            backtracks: Some(1),
            ..Limits::default()
        };
        let trick = odd_trick(12, limits).unwrap();
        assert_eq!(trick.result, OddTrickResult::Unfinished);
        assert_eq!(trick.placement(), None);
        assert_eq!(trick.speedup(), None);
    }

    #[test]
    fn the_trick_gives_a_solution_for_even_n_to_16() {
        for n in (4..=16).step_by(2) {
            let trick = odd_trick(n, Limits::default()).unwrap();
            let placement = trick.placement().unwrap();
            assert_eq!(placement.len(), n);
            assert_eq!(verify(placement), Ok(()), "n = {n}");
            assert_eq!(verify(trick.direct.solution.as_ref().unwrap()), Ok(()));
        }
    }
}
