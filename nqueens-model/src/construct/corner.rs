//! The two board edits the constructions build on: taking away a corner queen with her row and
//! column (Abramson & Yung §2, "corner removal", *Divide and Conquer under Global Constraints*,
//! 1989), and adding one to a board whose main diagonal is empty (the Yagloms' odd boards,
//! appendix; Bernhardsson's rule 3; Stone & Stone's odd-solution trick in reverse).
//!
//! Both work because the rows and columns removed or added lie on the board's edge: the remaining
//! queens keep their relative positions, so two of them share a diagonal on one board exactly when they
//! do on the other. Both edit the placement in place, so that a board of 2³⁰ rows is never held twice.

use super::{ConstructError, Corner, check_size};

/// The `(n − 1)`-queens placement left when the queen in the top-left corner is removed with row 0 and
/// column 0: `P'(i) = P(i + 1) − 1`.
///
/// Refuses an empty placement, one whose row 0 is not in column 0 ([`ConstructError::NoCornerQueen`]),
/// and one with a second queen in column 0. The rest of the placement is not checked: a valid
/// placement gives a valid one.
///
/// ```
/// use nqueens_model::construct::remove_corner;
///
/// assert_eq!(remove_corner(vec![0, 2, 4, 1, 3]).unwrap(), [1, 3, 0, 2]);
/// ```
pub fn remove_corner(mut placement: Vec<u32>) -> Result<Vec<u32>, ConstructError> {
    let Some(&first) = placement.first() else {
        return Err(ConstructError::ZeroSize);
    };
    if first != 0 {
        return Err(ConstructError::NoCornerQueen { column: first });
    }
    placement.copy_within(1.., 0);
    placement.pop();
    for (row, column) in placement.iter_mut().enumerate() {
        *column = column.checked_sub(1).ok_or_else(|| {
            ConstructError::InvalidParameters(format!(
                "corner removal needs a placement: rows 0 and {} share column 0",
                row + 1
            ))
        })?;
    }
    Ok(placement)
}

/// The `(n + 1)`-queens placement made by adding a row and a column at `corner` with a queen where
/// they cross. The main diagonal (`row = column`, through both corners) must be empty
/// ([`ConstructError::QueenOnMainDiagonal`] otherwise), and every column must lie on the board.
///
/// ```
/// use nqueens_model::construct::{Corner, add_corner};
///
/// assert_eq!(add_corner(vec![1, 3, 0, 2], Corner::TopLeft).unwrap(), [0, 2, 4, 1, 3]);
/// assert_eq!(add_corner(vec![1, 3, 0, 2], Corner::BottomRight).unwrap(), [1, 3, 0, 2, 4]);
/// ```
pub fn add_corner(mut placement: Vec<u32>, corner: Corner) -> Result<Vec<u32>, ConstructError> {
    let n = placement.len();
    check_size(n + 1, "corner addition")?;
    for (row, &column) in placement.iter().enumerate() {
        if column as usize == row {
            return Err(ConstructError::QueenOnMainDiagonal { row });
        }
        if column as usize >= n {
            return Err(ConstructError::InvalidParameters(format!(
                "corner addition needs a placement: row {row}'s column {column} is off the board"
            )));
        }
    }
    // Exactly one more element: without `reserve_exact` the vector could double its capacity.
    placement.reserve_exact(1);
    // `check_size` keeps n + 1 within 2^30, so every column + 1 and n fit in u32.
    match corner {
        Corner::TopLeft => {
            for column in &mut placement {
                *column += 1;
            }
            placement.insert(0, 0);
        }
        Corner::BottomRight => placement.push(n as u32),
    }
    Ok(placement)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::verify;

    #[test]
    fn removing_and_adding_the_corner_undo_each_other() {
        let walk: Vec<u32> = (0..11).map(|i| 2 * i % 11).collect();
        assert_eq!(verify(&walk), Ok(()));
        let smaller = remove_corner(walk.clone()).unwrap();
        assert_eq!(verify(&smaller), Ok(()));
        assert_eq!(add_corner(smaller, Corner::TopLeft).unwrap(), walk);
    }

    #[test]
    fn edits_refuse_placements_that_do_not_fit() {
        assert_eq!(remove_corner(vec![]), Err(ConstructError::ZeroSize));
        assert_eq!(
            remove_corner(vec![1, 3, 0, 2]),
            Err(ConstructError::NoCornerQueen { column: 1 })
        );
        assert!(matches!(
            remove_corner(vec![0, 0]),
            Err(ConstructError::InvalidParameters(_))
        ));
        assert_eq!(
            add_corner(vec![0, 2, 4, 1, 3], Corner::TopLeft),
            Err(ConstructError::QueenOnMainDiagonal { row: 0 })
        );
        assert!(matches!(
            add_corner(vec![u32::MAX], Corner::TopLeft),
            Err(ConstructError::InvalidParameters(_))
        ));
        assert_eq!(add_corner(vec![], Corner::TopLeft), Ok(vec![0]));
    }
}
