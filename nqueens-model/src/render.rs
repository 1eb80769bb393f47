//! A text picture of a placement.

/// Draws a placement (`placement[row] = column`) as text: one line per row from row 0 down, one
/// character per column from column 0 rightwards, `Q` for a queen and `.` for an empty square,
/// separated by single spaces, and every line ending in `'\n'`.
///
/// A queen whose column lies off the board leaves her row empty ([`crate::verify`] reports it). The
/// empty placement draws as the empty string.
///
/// ```
/// assert_eq!(
///     nqueens_model::render(&[1, 3, 0, 2]),
///     ". Q . .\n. . . Q\nQ . . .\n. . Q .\n"
/// );
/// ```
pub fn render(placement: &[u32]) -> String {
    let n = placement.len();
    // Each square takes two bytes: its mark, then a space or the line's newline.
    let mut board = String::with_capacity(2 * n * n);
    for &queen_column in placement {
        for column in 0..n {
            board.push(if queen_column as usize == column {
                'Q'
            } else {
                '.'
            });
            board.push(if column + 1 == n { '\n' } else { ' ' });
        }
    }
    board
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn four_queens_board_is_drawn_row_by_row() {
        assert_eq!(
            render(&[1, 3, 0, 2]),
            ". Q . .\n. . . Q\nQ . . .\n. . Q .\n"
        );
    }

    #[test]
    fn one_queen_and_no_queens() {
        assert_eq!(render(&[0]), "Q\n");
        assert_eq!(render(&[]), "");
    }

    #[test]
    fn a_queen_off_the_board_leaves_her_row_empty() {
        assert_eq!(render(&[0, 7]), "Q .\n. .\n");
    }
}
