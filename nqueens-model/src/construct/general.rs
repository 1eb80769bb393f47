//! Abramson & Yung's general solution (§4, Lemmas 1–5, *Divide and Conquer under Global
//! Constraints*, 1989).
//!
//! Start from the D-solution on `a·b` (the decomposition whose `a`-knight-walk has its queen in the
//! top-left tile, filled with the `b`-knight-walk; see [`super::decomposition_of`]). Its top-left tile
//! is the only one in the top `b` rows and left `b` columns, so removing them leaves a solution on
//! `(a − 1)·b` (Lemma 1). Put back `c ≤ b` rows and columns with the `c`-knight-walk in the new corner
//! tile: that tile is the lower-right sub-board of order `c` of the removed `b`-tile, and the
//! `c`-knight-walk there occupies no diagonal the `b`-knight-walk did not (Lemma 2). The board of
//! `n = (a − 1)·b + c` is a solution (Lemma 3). In the paper's words: "a D-solution for A·B, with its
//! top-left B-tile replaced by a C-knight-walk".
//!
//! Lemma 5 finds such a triple with `a = 5` for every odd `n` divisible by 3 except 3, 9, 15, 27 and 39:
//! `b` is the largest number coprime to 6 with `4b < n`, and it works when `n < 5b`, giving
//! `c = n − 4b`, which Lemma 4 shows is odd, not divisible by 3 and below `b`. The general solution has
//! the `c`-knight-walk's queen in its top-left corner, so corner removal (§2) gives `n − 1`: every
//! `n ≡ 2 (mod 6)` except 2, 8, 14, 26 and 38.
//!
//! The paper proves Lemma 2 for the top-left-to-bottom-right diagonals only ("does not add new
//! diagonals to OLR(B)") and leaves the other direction to symmetry; the tests check every board this
//! module builds up to 5,000, and every triple with `a ≤ 13`, `b < 60`, with the independent verifier.

use super::decomposition::decomposition_column;
use super::knight_walk::knight_walk_column;
use super::{ConstructError, Construction, Recipe, build, coprime_to_6};

/// How messages name the general scheme.
const GENERAL: &str = "the general scheme";

/// The general scheme's scope, as messages give it.
const GENERAL_SCOPE: &str = "n ≡ 2 or 3 (mod 6), other than 2, 3, 8, 9, 14, 15, 26, 27, 38 and 39";

/// Lemma 5's triple `(a, b, c) = (5, b, n − 4b)` for an odd `n` divisible by 3: `b` is the largest
/// number coprime to 6 with `4b < n`, and the triple exists when `n < 5b`. `None` for every other `n`,
/// and for the exceptions 3, 9, 15, 27 and 39.
///
/// ```
/// use nqueens_model::construct::lemma5_triple;
///
/// assert_eq!(lemma5_triple(21), Some((5, 5, 1)));
/// assert_eq!(lemma5_triple(33), Some((5, 7, 5)));
/// assert_eq!(lemma5_triple(39), None);
/// ```
pub fn lemma5_triple(n: usize) -> Option<(usize, usize, usize)> {
    if n % 6 != 3 || n < 5 {
        return None;
    }
    // 4b < n means b ≤ (n − 1) / 4; at most two steps down reach a number coprime to 6.
    let mut b = (n - 1) / 4;
    while b > 0 && !coprime_to_6(b) {
        b -= 1;
    }
    (b > 0 && n < 5 * b).then_some((5, b, n - 4 * b))
}

/// The general solution on `n = (a − 1)·b + c` (Lemma 3) for any `a, b, c ≥ 1` coprime to 6 with
/// `c ≤ b`: the D-solution on `a·b` with its top-left `b`-tile replaced by the `c`-knight-walk. `c = b`
/// gives the D-solution itself, and `b = c = 1` the `a`-knight-walk, as the paper remarks.
///
/// ```
/// use nqueens_model::construct::general_scheme;
///
/// let board = general_scheme(5, 7, 5).unwrap();
/// assert_eq!(board.placement.len(), 33);
/// nqueens_model::verify(&board.placement).unwrap();
/// assert!(general_scheme(5, 5, 7).is_err(), "c must not exceed b");
/// ```
pub fn general_scheme(a: usize, b: usize, c: usize) -> Result<Construction, ConstructError> {
    for (name, value) in [("a", a), ("b", b), ("c", c)] {
        if value == 0 || !coprime_to_6(value) {
            return Err(ConstructError::InvalidParameters(format!(
                "the general scheme ({a} − 1)·{b} + {c} needs a, b and c coprime to 6, but \
                 {name} = {value}"
            )));
        }
    }
    if c > b {
        return Err(ConstructError::InvalidParameters(format!(
            "the general scheme ({a} − 1)·{b} + {c} needs c ≤ b"
        )));
    }
    let n = (a - 1)
        .checked_mul(b)
        .and_then(|rows| rows.checked_add(c))
        .unwrap_or(usize::MAX);
    Ok(Construction {
        placement: build(n, GENERAL, |row| general_column(a, b, c, row))?,
        recipe: Recipe::General { a, b, c },
    })
}

/// Row `row`'s column in the general solution `(a − 1)·b + c`, for a triple [`general_scheme`]
/// accepts and a board that passed the size check (so every value fits a u32).
#[inline]
pub(crate) fn general_column(a: usize, b: usize, c: usize, row: usize) -> u32 {
    if row < c {
        knight_walk_column(c, row)
    } else {
        // Row `row` of the new board is row `row − c + b` of the D-solution; its tile row is at least
        // 1, so its column is at least b (only tile row 0 uses tile column 0).
        let column = decomposition_column(a, b, row - c + b);
        column - b as u32 + c as u32
    }
}

/// The general scheme for `n`: Lemma 5's triple for an odd `n` divisible by 3, and corner removal from
/// the general solution on `n + 1` for `n ≡ 2 (mod 6)`. Other `n` are refused naming the methods that
/// cover them: the knight-walk and its corner removal cover `n ≡ 0, 1, 4, 5 (mod 6)`, and the ten
/// exceptions of Theorem 2 need the table ([`super::table`]).
pub fn general(n: usize) -> Result<Construction, ConstructError> {
    if n == 0 {
        return Err(ConstructError::ZeroSize);
    }
    let out_of_scope = || ConstructError::OutOfScope {
        construction: GENERAL,
        needs: GENERAL_SCOPE,
        n,
    };
    match n % 6 {
        3 => {
            let (a, b, c) = lemma5_triple(n).ok_or_else(out_of_scope)?;
            general_scheme(a, b, c)
        }
        2 => {
            let (a, b, c) = lemma5_triple(n + 1).ok_or_else(out_of_scope)?;
            // Corner removal computed row by row, `P'(i) = P(i + 1) − 1`, instead of building the
            // larger board and editing it: the memory stays at n columns. Only row 0 of the larger
            // board (the c-knight-walk's corner) is in column 0, so the subtraction never wraps.
            let placement = build(n, GENERAL, |row| general_column(a, b, c, row + 1) - 1)?;
            Ok(Construction {
                placement,
                recipe: Recipe::CornerRemoval(Box::new(Recipe::General { a, b, c })),
            })
        }
        _ => Err(out_of_scope()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::verify;

    #[test]
    fn lemma5_leaves_out_exactly_the_papers_exceptions() {
        let missing: Vec<usize> = (3..=10_000)
            .step_by(6)
            .filter(|&n| lemma5_triple(n).is_none())
            .collect();
        assert_eq!(missing, [3, 9, 15, 27, 39]);
        for n in (21..=10_000).step_by(6) {
            if let Some((a, b, c)) = lemma5_triple(n) {
                assert_eq!((a - 1) * b + c, n);
                assert!(c < b && coprime_to_6(b) && coprime_to_6(c), "n = {n}");
            }
        }
    }

    #[test]
    fn every_small_triple_gives_a_solution() {
        // Lemma 3 for every a, b, c coprime to 6 with a ≤ 13, c ≤ b < 60: not only Lemma 5's a = 5.
        for a in [1, 5, 7, 11, 13] {
            for b in (1..60).filter(|&b| coprime_to_6(b)) {
                for c in (1..=b).filter(|&c| coprime_to_6(c)) {
                    let board = general_scheme(a, b, c).unwrap();
                    assert_eq!(board.placement.len(), (a - 1) * b + c);
                    assert_eq!(verify(&board.placement), Ok(()), "({a} − 1)·{b} + {c}");
                }
            }
        }
    }

    #[test]
    fn row_by_row_corner_removal_matches_the_board_edit() {
        for n in (20..=500).step_by(6) {
            let Some((a, b, c)) = lemma5_triple(n + 1) else {
                assert!(
                    [26, 38].contains(&n),
                    "27 and 39 are the exceptions from 21 on"
                );
                continue;
            };
            let larger = general_scheme(a, b, c).unwrap().placement;
            let removed = crate::construct::remove_corner(larger).unwrap();
            assert_eq!(general(n).unwrap().placement, removed, "n = {n}");
        }
    }

    #[test]
    fn exceptions_and_other_residues_are_refused() {
        for n in [2, 3, 8, 9, 14, 15, 26, 27, 38, 39, 4, 5, 6, 7] {
            assert!(
                matches!(general(n), Err(ConstructError::OutOfScope { .. })),
                "{n}"
            );
        }
        assert!(general(0).is_err());
        assert!(matches!(
            general_scheme(5, 6, 1),
            Err(ConstructError::InvalidParameters(_))
        ));
        assert!(matches!(
            general_scheme(usize::MAX, usize::MAX, 1),
            Err(ConstructError::InvalidParameters(_) | ConstructError::TooLarge { .. })
        ));
    }
}
