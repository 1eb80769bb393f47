//! Decomposition solutions (Abramson & Yung §3, Theorem 1, *Divide and Conquer under Global
//! Constraints*, 1989).
//!
//! For `n = a·b` with `a` and `b` coprime to 6, the board is cut into an `a × a` grid of `b × b` tiles.
//! The tiles an `a`-superqueens solution picks each hold the same `b`-superqueens solution; here both
//! are knight-walks. In the paper's coordinates, row `i_N = b·i_A + i_B` holds its queen in column
//! `j_N = b·P_A(i_A) + P_B(i_B)`. A wrapped diagonal of the big board alternately crosses tiles ruled
//! out by the `a`-solution and tile diagonals ruled out by the `b`-solution, so the result is itself a
//! toroidal solution. Because the `a`-knight-walk has a queen in its top-left corner and the
//! `b`-knight-walk is used, it is also the paper's *D-solution* (§4), the base of [`super::general`].

use super::knight_walk::knight_walk_column;
use super::{
    ConstructError, Construction, Method, Recipe, build, check_size, coprime_to_6, smallest_factor,
};

/// The decomposition solution on `n = a·b` with `a` the smallest factor of `n` that is at least 5 and
/// `b = n / a ≥ a`: for composite `n` coprime to 6 (25, 35, 49, 55, …). A prime `n` has only the
/// trivial decomposition, which is the knight-walk, and is refused with a message naming it.
pub fn decomposition(n: usize) -> Result<Construction, ConstructError> {
    // The size check comes first, so that factoring takes at most √(2^30) = 2^15 trial divisions.
    check_size(n, Method::Decomposition.name())?;
    let a =
        smallest_factor(n).ok_or_else(|| ConstructError::out_of_scope(Method::Decomposition, n))?;
    decomposition_of(a, n / a)
}

/// The decomposition solution on `a·b` for any `a, b ≥ 1` coprime to 6: `a`-knight-walk tiles, each
/// filled with the `b`-knight-walk. `b = 1` gives the `a`-knight-walk itself, `a = 1` the
/// `b`-knight-walk.
///
/// ```
/// use nqueens_model::construct::{decomposition_of, verify_torus};
///
/// let board = decomposition_of(7, 5).unwrap();
/// assert_eq!(board.placement.len(), 35);
/// verify_torus(&board.placement).unwrap();
/// assert!(decomposition_of(3, 5).is_err());
/// ```
pub fn decomposition_of(a: usize, b: usize) -> Result<Construction, ConstructError> {
    for (name, factor) in [("a", a), ("b", b)] {
        if factor == 0 || !coprime_to_6(factor) {
            return Err(ConstructError::InvalidParameters(format!(
                "a decomposition {a}·{b} needs both factors to have superqueens solutions, that is \
                 to be coprime to 6, but {name} = {factor}"
            )));
        }
    }
    let n = a.saturating_mul(b);
    check_size(n, Method::Decomposition.name())?;
    Ok(Construction {
        placement: build(n, Method::Decomposition.name(), |row| {
            decomposition_column(a, b, row)
        })?,
        recipe: Recipe::Decomposition { a, b },
    })
}

/// Row `row`'s column in the decomposition `a·b` (knight-walks for both factors). The product stays
/// below `a·b`, a board size that passed `check_size`.
#[inline]
pub(crate) fn decomposition_column(a: usize, b: usize, row: usize) -> u32 {
    let (tile_row, row_in_tile) = (row / b, row % b);
    (b as u64 * u64::from(knight_walk_column(a, tile_row))
        + u64::from(knight_walk_column(b, row_in_tile))) as u32
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::verify;

    #[test]
    fn the_papers_figure_1_board_is_a_solution() {
        // Fig. 1: N = 35, A = 7, B = 5.
        let board = decomposition(35).unwrap();
        assert_eq!(board.recipe, Recipe::Decomposition { a: 5, b: 7 });
        assert_eq!(verify(&board.placement), Ok(()));
        assert_eq!(verify(&decomposition_of(7, 5).unwrap().placement), Ok(()));
    }

    #[test]
    fn primes_and_multiples_of_2_or_3_are_refused() {
        for n in [5, 7, 23, 30, 45] {
            assert!(
                matches!(
                    decomposition(n).unwrap_err(),
                    ConstructError::OutOfScope { .. }
                ),
                "{n}"
            );
        }
        assert!(matches!(
            decomposition_of(usize::MAX, usize::MAX).unwrap_err(),
            ConstructError::InvalidParameters(_) | ConstructError::TooLarge { .. }
        ));
    }
}
