//! The Yagloms' construction, as the appendix of Abramson & Yung gives it
//! (*Divide and Conquer under Global Constraints*, 1989, "Appendix: the Yagloms' solution").
//!
//! The Yagloms build one solution for every even board with no queen on the main diagonal, and solve an
//! odd board by adding a row, a column and a corner queen to the even board below it:
//!
//! - `n = 6m` or `n = 6m + 4`: "basically the knight-walk …, more accurately, the knight-walk minus the
//!   queen in the upper left-hand corner" (Fig. 3a), that is the `(n + 1)`-knight-walk with its corner
//!   removed. Its main diagonal is empty: `2i ≡ i (mod n + 1)` only for `i = 0`.
//! - `n = 6m + 2`: proceeding rightward from the leftmost column, the queens stand on the diagonals
//!   `2n−4, n+1, n+2, …, 3n/2−3, n/2+2, 3n/2−1, n/2+1, 3n/2−2, n/2+3, n/2+4, …, n−1, 4` (Fig. 3b).
//! - odd `n`: the even board `n − 1` plus a corner queen.
//!
//! **OCR reading.** Fig. 3b, which shows the diagonal numbering, did not survive the OCR. The list fixes
//! it: consecutive numbers in consecutive columns (`n+1, n+2, …`) must land on different rows, which
//! rules out numbering the up-diagonals (a step right along one would keep the row) and numbering the
//! down-diagonals towards the top-right. So the diagonals are the down-diagonals numbered
//! `d = row − column + n` (rows from the top and columns from the left, both from 1), from `1` in the
//! top-right corner to `2n − 1` in the bottom-left, the main diagonal being `d = n`; the offset `n` is
//! the only one that keeps every row of the list on the board. Column `c` then holds its queen in row
//! `d + c − n`. This reading gives a solution for every `n = 6m + 2` up to 5,000 (the tests) and its
//! main diagonal is empty, as the appendix says it must be (the list never names `n`). The appendix
//! does not say which corner the odd boards' queen goes in; the top-left is used, so that for
//! `n ≡ 1, 5 (mod 6)` the Yagloms' board is the knight-walk itself.

use super::knight_walk::knight_walk_minus_corner;
use super::{ConstructError, Construction, Corner, Method, Recipe, add_corner, check_size};

/// The Yagloms' solution for `n = 1` or `n ≥ 4`.
///
/// ```
/// use nqueens_model::construct::{Recipe, yaglom};
///
/// let board = yaglom(14).unwrap();
/// assert_eq!(board.recipe, Recipe::YaglomDiagonal { n: 14 });
/// assert_eq!(board.placement, [5, 7, 1, 13, 2, 9, 3, 10, 4, 11, 0, 12, 6, 8]);
/// nqueens_model::verify(&board.placement).unwrap();
/// ```
pub fn yaglom(n: usize) -> Result<Construction, ConstructError> {
    if n == 0 {
        return Err(ConstructError::ZeroSize);
    }
    if !Method::Yaglom.covers(n) {
        return Err(ConstructError::out_of_scope(Method::Yaglom, n));
    }
    check_size(n, Method::Yaglom.name())?;
    if n.is_multiple_of(2) {
        return even(n);
    }
    // n − 1 is even and, n being 1 or at least 5, either 0 (the empty board) or at least 4.
    let smaller = even(n - 1)?;
    Ok(Construction {
        placement: add_corner(smaller.placement, Corner::TopLeft)?,
        recipe: Recipe::CornerAdded(Corner::TopLeft, Box::new(smaller.recipe)),
    })
}

/// The Yagloms' board for an even `n` (0 or at least 4), with its main diagonal empty.
fn even(n: usize) -> Result<Construction, ConstructError> {
    if n % 6 == 2 {
        Ok(Construction {
            placement: diagonal_pattern(n),
            recipe: Recipe::YaglomDiagonal { n },
        })
    } else {
        // n = 0 is the board under n = 1: the 1-knight-walk minus its only queen.
        let placement = if n == 0 {
            Vec::new()
        } else {
            knight_walk_minus_corner(n, Method::Yaglom.name())?
        };
        Ok(Construction {
            placement,
            recipe: Recipe::CornerRemoval(Box::new(Recipe::KnightWalk { n: n + 1 })),
        })
    }
}

/// The diagonal pattern for `n = 6m + 2 ≥ 8`, after the size check: the diagonal of each column from
/// the appendix's list, turned into the row `d + c − n` (1-based), and stored by row.
fn diagonal_pattern(n: usize) -> Vec<u32> {
    let half = n / 2;
    let mut placement = vec![0_u32; n];
    for column in 1..=n {
        let diagonal = match column {
            1 => 2 * n - 4,
            // n+1, n+2, …, 3n/2−3 in columns 2, …, n/2−2.
            c if c <= half - 2 => n + c - 1,
            c if c == half - 1 => half + 2,
            c if c == half => 3 * half - 1,
            c if c == half + 1 => half + 1,
            c if c == half + 2 => 3 * half - 2,
            // n/2+3, …, n−1 in columns n/2+3, …, n−1: the diagonal is the column's own number.
            c if c < n => c,
            _ => 4,
        };
        let row = diagonal + column - n;
        // Rows and columns are 1-based in the appendix; the placement is 0-based. Both are below
        // n ≤ 2^30 after the size check.
        placement[row - 1] = (column - 1) as u32;
    }
    placement
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::construct::knight_walk;
    use crate::verify;

    #[test]
    fn diagonal_pattern_of_14_is_figure_3b() {
        // Fig. 3b's board, N = 14, from the list 24, 15, 16, 17, 18, 9, 20, 8, 19, 10, 11, 12, 13, 4.
        let diagonals = [24, 15, 16, 17, 18, 9, 20, 8, 19, 10, 11, 12, 13, 4];
        let placement = yaglom(14).unwrap().placement;
        for (column, &diagonal) in (1..).zip(&diagonals) {
            let row = diagonal + column - 14;
            assert_eq!(placement[row - 1] as usize, column - 1);
        }
        assert_eq!(verify(&placement), Ok(()));
    }

    #[test]
    fn odd_boards_coprime_to_6_are_the_knight_walk() {
        for n in [1, 5, 7, 11, 13, 25, 101] {
            assert_eq!(
                yaglom(n).unwrap().placement,
                knight_walk(n).unwrap().placement
            );
        }
    }

    #[test]
    fn even_boards_leave_the_main_diagonal_empty() {
        for n in (4..=600).step_by(2) {
            let placement = yaglom(n).unwrap().placement;
            assert!(
                placement
                    .iter()
                    .enumerate()
                    .all(|(row, &column)| row != column as usize),
                "n = {n}"
            );
        }
    }
}
