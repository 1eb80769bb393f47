//! Constructive N-queens solvers: a placement computed in O(n), without search.
//!
//! | function | method | scope | source |
//! | --- | --- | --- | --- |
//! | [`explicit`], [`ExplicitColumns`] | `explicit` | n = 1, n ≥ 4 | Hoffman–Loessi–Moore / Bernhardsson, cited in `001_72eb79f80c97b6c5.txt` |
//! | [`knight_walk`], [`regular`] | `knight-walk` | n coprime to 6 | Abramson & Yung §2, `000_47d4c6e46d351ed7.txt` |
//! | [`decomposition`], [`decomposition_of`] | `decomposition` | n = a·b coprime to 6, a, b ≥ 5 | Abramson & Yung §3, Theorem 1 |
//! | [`general`], [`general_scheme`] | (part of `abramson-yung`) | n ≡ 2, 3 (mod 6) | Abramson & Yung §4, Lemmas 1–5 |
//! | [`table`] | (part of `abramson-yung`) | 8, 9, 14, 15, 26, 27, 38, 39 | Abramson & Yung §4, found by the engine |
//! | [`abramson_yung`] | `abramson-yung` | n = 1, n ≥ 4 | Abramson & Yung, Theorem 2 and the table |
//! | [`yaglom`] | `yaglom` | n = 1, n ≥ 4 | Abramson & Yung, appendix |
//! | [`odd_trick`] | `odd-trick` | even n ≥ 4 | Stone & Stone §3, `003_f841a52dc4215f9c.txt` |
//! | [`torus`], [`verify_torus`], [`torus_model`] | `--torus` | n coprime to 6 | Pólya; Abramson & Yung §2 |
//!
//! Every construction returns a [`Construction`]: the placement (`placement[row] = column`, 0-based)
//! and the [`Recipe`] that built it. An `n` outside a construction's scope is refused with a
//! [`ConstructError`] naming the [`Method`]s that do cover it; an `n` whose placement would not fit
//! [`crate::MEMORY_BUDGET_BYTES`] is refused before anything is allocated. [`remove_corner`] and
//! [`add_corner`] are the two board edits the papers build on.
//!
//! Every placement these functions return has passed [`crate::verify`] in the tests for every `n` in
//! scope up to 5,000; none is verified again at run time, so that `n = 10⁹` costs only its
//! construction.
//!
//! ```
//! use nqueens_model::construct::{Recipe, abramson_yung, knight_walk};
//!
//! # fn main() -> Result<(), nqueens_model::construct::ConstructError> {
//! let walk = knight_walk(5)?;
//! assert_eq!(walk.placement, [0, 2, 4, 1, 3]);
//! nqueens_model::verify(&walk.placement).unwrap();
//!
//! // 21 = (5 − 1)·5 + 1: Abramson & Yung's general scheme with A = 5 (Lemma 5).
//! let built = abramson_yung(21)?;
//! assert_eq!(built.recipe, Recipe::General { a: 5, b: 5, c: 1 });
//! nqueens_model::verify(&built.placement).unwrap();
//!
//! assert_eq!(
//!     knight_walk(8).unwrap_err().to_string(),
//!     "knight-walk does not cover n = 8 (it needs n coprime to 6); \
//!      n = 8 is covered by explicit, abramson-yung, yaglom, odd-trick"
//! );
//! # Ok(())
//! # }
//! ```

mod abramson_yung;
mod corner;
mod decomposition;
mod explicit;
mod general;
mod knight_walk;
mod odd_trick;
mod table;
mod torus;
mod yaglom;

use std::fmt;

use rayon::prelude::*;
use thiserror::Error;

use crate::{MEMORY_BUDGET_BYTES, QueensError};

pub use abramson_yung::abramson_yung;
pub use corner::{add_corner, remove_corner};
pub use decomposition::{decomposition, decomposition_of};
pub use explicit::{ExplicitColumns, ExplicitRule, MAX_STREAM_N, explicit, explicit_column};
pub use general::{general, general_scheme, lemma5_triple};
pub use knight_walk::{knight_walk, regular};
pub use odd_trick::{LexRun, OddTrick, OddTrickResult, odd_trick};
pub use table::{TABLE_SIZES, table};
pub use torus::{
    TorusLine, TorusVerifyError, estimated_torus_model_bytes, max_torus_model_n, torus,
    torus_model, verify_torus,
};
pub use yaglom::yaglom;

/// A placement and how it was built.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Construction {
    /// `placement[row] = column`, rows and columns from 0.
    pub placement: Vec<u32>,
    /// The construction that produced it.
    pub recipe: Recipe,
}

/// How a [`Construction`] was built. Recipes nest: a corner removal names the recipe of the larger
/// board it started from.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Recipe {
    /// The knight-walk `P(i) = 2i mod n`, for `n` coprime to 6 (Abramson & Yung §2).
    KnightWalk {
        /// The board size.
        n: usize,
    },
    /// Chandra's regular solution `P(i) = a·i + b mod n` (Abramson & Yung §2).
    Regular {
        /// The board size.
        n: usize,
        /// The slope, reduced mod n.
        a: usize,
        /// The offset, reduced mod n.
        b: usize,
    },
    /// A decomposition solution on `n = a·b`: the `a`-knight-walk's tiles of an `a × a` grid of
    /// `b × b` tiles, each filled with the `b`-knight-walk (Abramson & Yung §3, Theorem 1). With both
    /// knight-walks it is also a D-solution (§4).
    Decomposition {
        /// The grid's size: tiles per side.
        a: usize,
        /// The tile's size.
        b: usize,
    },
    /// The general solution on `n = (a − 1)·b + c`: the D-solution on `a·b` with its top-left `b`-tile
    /// replaced by the `c`-knight-walk (Abramson & Yung §4, Lemma 3).
    General {
        /// Tiles per side of the D-solution.
        a: usize,
        /// The tile size of the D-solution.
        b: usize,
        /// The size of the knight-walk in the corner.
        c: usize,
    },
    /// One of the eight table entries of Abramson & Yung §4, found by the engine's own search.
    Table {
        /// The board size.
        n: usize,
    },
    /// The first solution of the engine's LEX search (Stone & Stone's LEX), as the odd trick uses it.
    LexSearch {
        /// The board size.
        n: usize,
    },
    /// Hoffman, Loessi & Moore's construction as Bernhardsson states it, for an even board.
    Explicit {
        /// The (even) board size.
        n: usize,
        /// Which of the two even rules.
        rule: ExplicitRule,
    },
    /// The Yagloms' diagonal pattern for `n = 6m + 2` (Abramson & Yung, appendix).
    YaglomDiagonal {
        /// The board size.
        n: usize,
    },
    /// The recipe's board with its top row and left column removed, taking the corner queen with them.
    CornerRemoval(Box<Recipe>),
    /// The recipe's board with a row and a column added at the named corner, and a queen where they
    /// cross. It needs the main diagonal (`row = column`), which runs through both corners, empty.
    CornerAdded(Corner, Box<Recipe>),
}

/// A corner on the main diagonal, where [`add_corner`] puts its queen.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Corner {
    /// Row 0, column 0: the new row goes above the board and the new column to its left.
    TopLeft,
    /// Row n, column n of the larger board: the new row goes below and the new column to the right.
    BottomRight,
}

impl fmt::Display for Corner {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Corner::TopLeft => "top-left",
            Corner::BottomRight => "bottom-right",
        })
    }
}

impl Recipe {
    /// The size of the board the recipe builds.
    pub fn n(&self) -> usize {
        match self {
            Recipe::KnightWalk { n }
            | Recipe::Regular { n, .. }
            | Recipe::Table { n }
            | Recipe::LexSearch { n }
            | Recipe::Explicit { n, .. }
            | Recipe::YaglomDiagonal { n } => *n,
            // Saturating, so that a recipe made up by hand cannot make this panic.
            Recipe::Decomposition { a, b } => a.saturating_mul(*b),
            Recipe::General { a, b, c } => {
                a.saturating_sub(1).saturating_mul(*b).saturating_add(*c)
            }
            Recipe::CornerRemoval(inner) => inner.n().saturating_sub(1),
            Recipe::CornerAdded(_, inner) => inner.n().saturating_add(1),
        }
    }
}

impl fmt::Display for Recipe {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Recipe::KnightWalk { n } => write!(f, "knight-walk P(i) = 2i mod {n}"),
            Recipe::Regular { n, a, b } => {
                write!(f, "regular solution P(i) = {a}i + {b} mod {n}")
            }
            Recipe::Decomposition { a, b } => write!(
                f,
                "decomposition {a}·{b}: the {a}-knight-walk's tiles filled with the {b}-knight-walk"
            ),
            Recipe::General { a, b, c } => write!(
                f,
                "general scheme ({a} − 1)·{b} + {c}: the D-solution on {a}·{b} with its top-left \
                 {b}-tile replaced by the {c}-knight-walk"
            ),
            Recipe::Table { n } => {
                write!(f, "table entry for n = {n}, found by the engine's search")
            }
            Recipe::LexSearch { n } => {
                write!(f, "the first solution of LEX search on n = {n}")
            }
            Recipe::Explicit { n, rule } => {
                write!(f, "Hoffman–Loessi–Moore / Bernhardsson for n = {n}, {rule}")
            }
            Recipe::YaglomDiagonal { n } => {
                write!(f, "the Yagloms' diagonal pattern for n = {n} = 6m + 2")
            }
            Recipe::CornerRemoval(inner) => {
                write!(f, "corner removal from n = {}: {inner}", inner.n())
            }
            Recipe::CornerAdded(corner, inner) => {
                write!(f, "{corner} corner queen added to {inner}")
            }
        }
    }
}

/// The constructive methods, by the names the command line knows them by. Error messages list the
/// methods that cover a refused `n` ([`Method::covering`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Method {
    /// [`explicit`].
    Explicit,
    /// [`knight_walk`].
    KnightWalk,
    /// [`decomposition`].
    Decomposition,
    /// [`abramson_yung`].
    AbramsonYung,
    /// [`yaglom`].
    Yaglom,
    /// [`odd_trick`].
    OddTrick,
}

impl Method {
    /// The method's scope, in words, as messages give it.
    pub const fn scope(self) -> &'static str {
        match self {
            Method::Explicit | Method::AbramsonYung | Method::Yaglom => "n = 1 or n ≥ 4",
            Method::KnightWalk => "n coprime to 6",
            Method::Decomposition => "n = a·b coprime to 6 with a, b ≥ 5",
            Method::OddTrick => "an even n ≥ 4",
        }
    }

    /// Whether `n` lies in the method's scope. Memory limits are not considered: an `n` in scope may
    /// still be refused as too large. The one exception is decomposition, whose scope takes factoring
    /// `n`: above [`MAX_CONSTRUCT_N`], where it could not build the board anyway, it is not asked, so
    /// that no question about a huge `n` costs seconds of trial division.
    pub fn covers(self, n: usize) -> bool {
        match self {
            Method::Explicit | Method::AbramsonYung | Method::Yaglom => n == 1 || n >= 4,
            Method::KnightWalk => coprime_to_6(n),
            Method::Decomposition => n <= MAX_CONSTRUCT_N && smallest_factor(n).is_some(),
            Method::OddTrick => n >= 4 && n.is_multiple_of(2),
        }
    }

    /// The methods whose scope holds `n`, in [`Method::ALL`]'s order.
    pub fn covering(n: usize) -> Vec<Method> {
        Method::ALL
            .into_iter()
            .filter(|method| method.covers(n))
            .collect()
    }
}

named_enum!(
    Method,
    "method",
    [
        Explicit => "explicit",
        KnightWalk => "knight-walk",
        Decomposition => "decomposition",
        AbramsonYung => "abramson-yung",
        Yaglom => "yaglom",
        OddTrick => "odd-trick",
    ]
);

/// The largest board a construction builds in memory: a placement of `n` columns takes `4n` bytes,
/// and [`MEMORY_BUDGET_BYTES`] (4 GiB) allows 2³⁰ = 1,073,741,824 of them. [`ExplicitColumns`] streams
/// larger boards, up to [`MAX_STREAM_N`], without holding them.
pub const MAX_CONSTRUCT_N: usize = (MEMORY_BUDGET_BYTES / 4) as usize;

/// Why a construction refused to build a board.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum ConstructError {
    /// A board needs at least one row.
    #[error("n must be at least 1")]
    ZeroSize,
    /// `n` lies outside the construction's scope. The message names the [`Method`]s that cover it
    /// (none for n = 2 and n = 3, which have no solution).
    #[error("{}", out_of_scope_message(construction, needs, *n))]
    OutOfScope {
        /// The construction that refused, as messages name it (a [`Method::name`] where it is one).
        construction: &'static str,
        /// Its scope, in words.
        needs: &'static str,
        /// The size that was asked for.
        n: usize,
    },
    /// Pólya: the toroidal board has a solution exactly when `n` is coprime to 6.
    #[error("no toroidal solution for n = {n}: n must be coprime to 6 (Pólya)")]
    NoToroidalSolution {
        /// The size that was asked for.
        n: usize,
    },
    /// The parameters given to a parametrised construction ([`regular`], [`decomposition_of`],
    /// [`general_scheme`]) do not satisfy its conditions.
    #[error("{0}")]
    InvalidParameters(String),
    /// [`remove_corner`] needs a queen in the top-left corner.
    #[error(
        "corner removal needs a queen in the top-left corner, but row 0 has its queen in column {column}"
    )]
    NoCornerQueen {
        /// The column of row 0's queen.
        column: u32,
    },
    /// [`add_corner`] needs the main diagonal (`row = column`) empty.
    #[error("a corner queen cannot be added: the queen in row {row} stands on the main diagonal")]
    QueenOnMainDiagonal {
        /// The first row whose queen stands on the main diagonal.
        row: usize,
    },
    /// The placement would not fit the memory budget; see [`MAX_CONSTRUCT_N`].
    #[error(
        "n = {n} is too large for {construction}: the maximum is {max} (the placement alone needs {} MiB, the budget is 4 GiB)",
        bytes >> 20
    )]
    TooLarge {
        /// The construction that refused.
        construction: &'static str,
        /// The size that was asked for.
        n: usize,
        /// The largest size it accepts.
        max: usize,
        /// The bytes the placement would need.
        bytes: u64,
    },
    /// The engine refused to build a model ([`crate::model`]'s own limits).
    #[error(transparent)]
    Queens(#[from] QueensError),
    /// The engine's search for a table entry or the odd trick ended without the solution it must
    /// find. Every search here is complete and unlimited unless the caller set limits, so this names
    /// a bug; it is reported rather than panicking.
    #[error("the engine's search for n = {n} found no solution ({outcome:?})")]
    SearchFailed {
        /// The board searched.
        n: usize,
        /// How the search ended.
        outcome: csp_search::Outcome,
    },
}

/// The message of [`ConstructError::OutOfScope`]: what refused, why, and which methods cover `n`.
fn out_of_scope_message(construction: &str, needs: &str, n: usize) -> String {
    let others: Vec<&str> = Method::covering(n)
        .into_iter()
        .map(Method::name)
        .filter(|&name| name != construction)
        .collect();
    let head = format!("{construction} does not cover n = {n} (it needs {needs})");
    if others.is_empty() {
        if n == 2 || n == 3 {
            format!("{head}; no placement of {n} queens exists")
        } else {
            format!("{head}; no other method covers it")
        }
    } else {
        format!("{head}; n = {n} is covered by {}", others.join(", "))
    }
}

impl ConstructError {
    /// The error for a [`Method`] asked for an `n` outside its scope.
    pub(crate) fn out_of_scope(method: Method, n: usize) -> Self {
        ConstructError::OutOfScope {
            construction: method.name(),
            needs: method.scope(),
            n,
        }
    }
}

/// Refuses `n = 0` and any `n` whose placement would not fit the memory budget, before allocating.
pub(crate) fn check_size(n: usize, construction: &'static str) -> Result<(), ConstructError> {
    if n == 0 {
        return Err(ConstructError::ZeroSize);
    }
    if n > MAX_CONSTRUCT_N {
        return Err(ConstructError::TooLarge {
            construction,
            n,
            max: MAX_CONSTRUCT_N,
            bytes: (n as u64).saturating_mul(4),
        });
    }
    Ok(())
}

/// The placement `column(0), column(1), …, column(n − 1)`, after [`check_size`]. Collecting a mapped
/// range allocates once, at the exact size; from [`explicit::PARALLEL_ROWS`] rows on, every core
/// fills its share, which also spreads the kernel's work of mapping fresh pages.
pub(crate) fn build(
    n: usize,
    construction: &'static str,
    column: impl Fn(usize) -> u32 + Send + Sync,
) -> Result<Vec<u32>, ConstructError> {
    check_size(n, construction)?;
    Ok(if n >= explicit::PARALLEL_ROWS {
        (0..n).into_par_iter().map(column).collect()
    } else {
        (0..n).map(column).collect()
    })
}

/// The greatest common divisor.
pub(crate) const fn gcd(mut a: usize, mut b: usize) -> usize {
    while b != 0 {
        let remainder = a % b;
        a = b;
        b = remainder;
    }
    a
}

/// Whether `n` is divisible by neither 2 nor 3: the knight-walk's and Pólya's condition.
pub(crate) const fn coprime_to_6(n: usize) -> bool {
    gcd(n, 6) == 1
}

/// The smallest factor `a ≥ 5` of an `n` coprime to 6 with `n / a ≥ 5` too, if `n` has one: the
/// grid size [`decomposition`] uses. Trial division up to `√n` is O(√n), far below the O(n) of
/// building the placement.
pub(crate) fn smallest_factor(n: usize) -> Option<usize> {
    if !coprime_to_6(n) {
        return None;
    }
    let mut candidate = 5_usize;
    while candidate
        .checked_mul(candidate)
        .is_some_and(|square| square <= n)
    {
        if n.is_multiple_of(candidate) {
            return Some(candidate);
        }
        candidate += 2;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_method_parses_back_from_its_name() {
        for method in Method::ALL {
            assert_eq!(method.to_string().parse::<Method>(), Ok(method));
        }
        let error = "Explicit".parse::<Method>().unwrap_err();
        for method in Method::ALL {
            assert!(error.to_string().contains(method.name()));
        }
    }

    #[test]
    fn smallest_factor_finds_the_grid_of_a_composite_coprime_to_6() {
        assert_eq!(smallest_factor(25), Some(5));
        assert_eq!(smallest_factor(35), Some(5));
        assert_eq!(smallest_factor(49), Some(7));
        assert_eq!(smallest_factor(77), Some(7));
        for prime_or_bad in [1, 5, 7, 11, 13, 15, 20, 23, 30] {
            assert_eq!(smallest_factor(prime_or_bad), None, "{prime_or_bad}");
        }
    }

    #[test]
    fn out_of_scope_message_names_the_covering_methods_but_not_the_refusing_one() {
        let error = ConstructError::out_of_scope(Method::Decomposition, 21);
        assert_eq!(
            error.to_string(),
            "decomposition does not cover n = 21 (it needs n = a·b coprime to 6 with a, b ≥ 5); \
             n = 21 is covered by explicit, abramson-yung, yaglom"
        );
        assert_eq!(
            ConstructError::out_of_scope(Method::Explicit, 3).to_string(),
            "explicit does not cover n = 3 (it needs n = 1 or n ≥ 4); no placement of 3 queens exists"
        );
    }

    #[test]
    fn questions_about_huge_n_are_answered_at_once() {
        // 2^61 − 1 is prime: trial division to its square root would take minutes.
        let huge_prime = (1_usize << 61) - 1;
        assert!(!Method::Decomposition.covers(huge_prime));
        assert!(matches!(
            decomposition(huge_prime),
            Err(ConstructError::TooLarge { .. })
        ));
        let message = ConstructError::out_of_scope(Method::OddTrick, huge_prime).to_string();
        assert!(
            message.contains("explicit, knight-walk, abramson-yung, yaglom"),
            "{message}"
        );
    }

    #[test]
    fn recipe_sizes_saturate_instead_of_panicking() {
        let odd = Recipe::CornerRemoval(Box::new(Recipe::KnightWalk { n: 0 }));
        assert_eq!(odd.n(), 0);
        assert_eq!(Recipe::General { a: 0, b: 5, c: 1 }.n(), 1);
        assert_eq!(
            Recipe::Decomposition {
                a: usize::MAX,
                b: 7
            }
            .n(),
            usize::MAX
        );
    }

    #[test]
    fn too_large_is_refused_before_allocating() {
        let error = check_size(usize::MAX, "explicit").unwrap_err();
        assert!(matches!(error, ConstructError::TooLarge { max, .. } if max == 1 << 30));
        assert_eq!(check_size(0, "explicit"), Err(ConstructError::ZeroSize));
        assert_eq!(check_size(MAX_CONSTRUCT_N, "explicit"), Ok(()));
    }
}
