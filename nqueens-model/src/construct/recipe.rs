//! What a construction returns: the placement and the [`Recipe`] that built it, with its parts
//! ([`Corner`], [`ExplicitRule`]).

use std::fmt;

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

/// A corner on the main diagonal, where [`add_corner`](super::add_corner) puts its queen.
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

/// Which of Bernhardsson's even rules built a board.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ExplicitRule {
    /// Rule 1, for `n mod 6 ∈ {0, 4}`: the even columns, then the odd ones.
    NotTwoModSix,
    /// Rule 2, for `n mod 6 = 2` (it also holds for 4): two interleaved runs that wrap around.
    TwoModSix,
}

impl fmt::Display for ExplicitRule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            ExplicitRule::NotTwoModSix => "rule 1 (n mod 6 ≠ 2)",
            ExplicitRule::TwoModSix => "rule 2 (n mod 6 = 2)",
        })
    }
}
