//! What is counted ([`CountKind`]), what subproblems add up to ([`Tally`]), the answers that gives
//! ([`Answer`]), and the totals no count can have.

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::error::CountError;

/// What a set of subproblems added up to. Each field is a sum over them; weights (mirror images,
/// constellation classes, translations) are already applied.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct Tally {
    /// Solutions (on the torus, toroidal ones).
    pub solutions: u128,
    /// Solutions left unchanged by a symmetry other than the identity, summed over the seven
    /// ([`CountKind::Solutions`] only): with `solutions`, Burnside's lemma gives the unique count.
    pub symmetric: u128,
    /// Nodes of the full LEX tree, root included ([`CountKind::Nodes`] only).
    pub nodes: u128,
    /// Queens the fast enumerator placed: its work, not a property of the board.
    pub visited: u128,
}

impl Tally {
    /// The field-by-field sum, or `None` on overflow (possible only with a corrupted file: no count of a
    /// board up to [`MAX_COUNT_N`](crate::MAX_COUNT_N) comes near `u128::MAX`).
    pub fn checked_add(self, other: Tally) -> Option<Tally> {
        Some(Tally {
            solutions: self.solutions.checked_add(other.solutions)?,
            symmetric: self.symmetric.checked_add(other.symmetric)?,
            nodes: self.nodes.checked_add(other.nodes)?,
            visited: self.visited.checked_add(other.visited)?,
        })
    }
}

/// The answers a tally gives.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub struct Answer {
    /// Solutions: all of them (A000170), or on the torus (A051906), or, for a shard or an unfinished
    /// run, those in its finished subproblems.
    pub solutions: u128,
    /// The essentially distinct solutions (A002562): counting [`CountKind::Solutions`], once the whole
    /// count is in.
    pub unique: Option<u128>,
    /// The nodes of the full LEX tree, root included: counting [`CountKind::Nodes`] (a partial sum for
    /// a shard or an unfinished run).
    pub nodes: Option<u128>,
}

impl Answer {
    /// The answers of a tally covering only part of a count.
    pub(crate) fn partial(kind: CountKind, tally: Tally) -> Self {
        Answer {
            solutions: tally.solutions,
            unique: None,
            nodes: (kind == CountKind::Nodes).then_some(tally.nodes),
        }
    }

    /// The answers of a tally covering every subproblem of a count.
    pub(crate) fn complete(kind: CountKind, tally: Tally) -> Result<Self, CountError> {
        impossible_totals(kind, &tally, true)
            .map_err(|reason| CountError::Impossible { reason })?;
        let mut answer = Answer::partial(kind, tally);
        if kind == CountKind::Solutions {
            // Burnside's lemma: the number of classes is the average number of solutions the eight
            // symmetries fix, the identity fixing all of them.
            let fixed = tally
                .solutions
                .checked_add(tally.symmetric)
                .ok_or(CountError::Overflow)?;
            if fixed % 8 != 0 {
                return Err(CountError::Inconsistent {
                    solutions: tally.solutions,
                    symmetric: tally.symmetric,
                });
            }
            answer.unique = Some(fixed / 8);
        }
        Ok(answer)
    }
}

/// What [`count`](crate::count) counts.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CountKind {
    /// The solutions (OEIS A000170) and, from the same run, the essentially distinct ones (A002562).
    #[default]
    Solutions,
    /// The nodes of the full LEX backtrack tree, root included (and its leaves, the solutions).
    Nodes,
    /// The solutions on the toroidal board, where diagonals wrap around (A051906).
    Torus,
}

impl CountKind {
    /// The name used in files and output: `solutions`, `nodes` or `torus`.
    pub fn name(self) -> &'static str {
        match self {
            CountKind::Solutions => "solutions",
            CountKind::Nodes => "nodes",
            CountKind::Torus => "torus",
        }
    }
}

impl fmt::Display for CountKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Why totals are impossible, if they are: more essentially distinct solutions than solutions
/// (checkable once `complete`: the seven symmetries other than the identity fix at most every
/// solution each), or fewer LEX tree nodes than solutions (every solution is a leaf of the tree).
pub(crate) fn impossible_totals(
    kind: CountKind,
    tally: &Tally,
    complete: bool,
) -> Result<(), String> {
    if kind == CountKind::Solutions
        && complete
        && tally.symmetric > tally.solutions.saturating_mul(7)
    {
        return Err(format!(
            "its {} symmetric solutions would make more essentially distinct solutions than its {} solutions",
            tally.symmetric, tally.solutions
        ));
    }
    if kind == CountKind::Nodes && tally.nodes < tally.solutions {
        return Err(format!(
            "its tree of {} nodes cannot hold its {} solutions",
            tally.nodes, tally.solutions
        ));
    }
    Ok(())
}
