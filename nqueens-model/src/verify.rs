//! The independent checker every solver's answers are tested with.

use std::fmt;

use fixedbitset::FixedBitSet;
use thiserror::Error;

/// The line two attacking queens share. Rows are numbered from the top and columns from the left, as
/// [`crate::render`] draws the board.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum AttackKind {
    /// The same column.
    SameColumn,
    /// The same up-diagonal, rising to the right: `row + column` is the same.
    SameUpDiagonal,
    /// The same down-diagonal, falling to the right: `row − column` is the same.
    SameDownDiagonal,
}

impl fmt::Display for AttackKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            AttackKind::SameColumn => "column",
            AttackKind::SameUpDiagonal => "up-diagonal",
            AttackKind::SameDownDiagonal => "down-diagonal",
        })
    }
}

/// Why [`verify`] rejected a placement.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum VerifyError {
    /// A queen stands outside the board: its column is not below the number of rows.
    #[error("the queen in row {row} is in column {column}, outside the board's columns 0..{n}")]
    ColumnOutOfRange {
        /// The queen's row.
        row: usize,
        /// Its column.
        column: u32,
        /// The board's size (the placement's length).
        n: usize,
    },
    /// Two queens attack each other.
    #[error("{}", attack_message(*.first_row, *.first_column, *.second_row, *.second_column, *.kind))]
    Attack {
        /// The earlier row of the pair.
        first_row: usize,
        /// The later row of the pair.
        second_row: usize,
        /// The column of the queen in `first_row`.
        first_column: u32,
        /// The column of the queen in `second_row`.
        second_column: u32,
        /// The line they share.
        kind: AttackKind,
    },
}

/// The one-line message of [`VerifyError::Attack`].
fn attack_message(
    first_row: usize,
    first_column: u32,
    second_row: usize,
    second_column: u32,
    kind: AttackKind,
) -> String {
    let rows = format!("queens in rows {first_row} and {second_row}");
    match kind {
        AttackKind::SameColumn => format!("{rows} share column {first_column}"),
        AttackKind::SameUpDiagonal => {
            format!("{rows} (columns {first_column} and {second_column}) share an up-diagonal")
        }
        AttackKind::SameDownDiagonal => {
            format!("{rows} (columns {first_column} and {second_column}) share a down-diagonal")
        }
    }
}

/// Checks that `placement` (`placement[row] = column`) places `n = placement.len()` queens on an `n × n`
/// board, none attacking another.
///
/// Rows are scanned in increasing order, and the first row whose queen is off the board or attacked by
/// a queen in an earlier row is reported: [`VerifyError::ColumnOutOfRange`], or
/// [`VerifyError::Attack`] naming the earliest row that attacks it. The empty placement is valid: the
/// board with `n = 0` has exactly one placement, with no queens.
///
/// The checker is independent of the engine and takes O(n) time and O(n) bits of memory (sets of the
/// occupied columns and diagonals), so it checks boards of a billion rows. Only when it finds an attack
/// does it scan the earlier rows again, once, to name the attacker.
pub fn verify(placement: &[u32]) -> Result<(), VerifyError> {
    let n = placement.len();
    if n == 0 {
        return Ok(());
    }
    let lines = 2 * n - 1;
    let mut columns = FixedBitSet::with_capacity(n);
    let mut up_diagonals = FixedBitSet::with_capacity(lines);
    let mut down_diagonals = FixedBitSet::with_capacity(lines);
    for (row, &column) in placement.iter().enumerate() {
        if column as usize >= n {
            return Err(VerifyError::ColumnOutOfRange { row, column, n });
        }
        let (column_line, up_line, down_line) = line_indices(n, row, column);
        if columns.contains(column_line)
            || up_diagonals.contains(up_line)
            || down_diagonals.contains(down_line)
        {
            return Err(first_attacker(placement, row));
        }
        columns.insert(column_line);
        up_diagonals.insert(up_line);
        down_diagonals.insert(down_line);
    }
    Ok(())
}

/// The column, up-diagonal (`row + column`) and down-diagonal (`row − column + n − 1`) through a square
/// of the board, as indices into sets of `n`, `2n − 1` and `2n − 1` lines. The sums are taken in `u64`
/// so that boards beyond `2^31` rows stay correct on every target.
fn line_indices(n: usize, row: usize, column: u32) -> (usize, usize, usize) {
    let (n, row, column) = (n as u64, row as u64, u64::from(column));
    let up = row + column;
    // The column is below n, so adding n − 1 first keeps the difference non-negative.
    let down = row + (n - 1) - column;
    (column as usize, up as usize, down as usize)
}

/// The attack on the queen of `row` by the earliest earlier row, which [`verify`] knows exists.
fn first_attacker(placement: &[u32], row: usize) -> VerifyError {
    let column = placement[row];
    let (row_64, column_64) = (row as u64, u64::from(column));
    let (first_row, kind) = placement[..row]
        .iter()
        .enumerate()
        .find_map(|(earlier, &earlier_column)| {
            let (earlier_64, earlier_column_64) = (earlier as u64, u64::from(earlier_column));
            if earlier_column == column {
                Some((earlier, AttackKind::SameColumn))
            } else if earlier_64 + earlier_column_64 == row_64 + column_64 {
                Some((earlier, AttackKind::SameUpDiagonal))
            } else if earlier_64 + column_64 == row_64 + earlier_column_64 {
                // earlier − earlier_column == row − column, rearranged to stay unsigned.
                Some((earlier, AttackKind::SameDownDiagonal))
            } else {
                None
            }
        })
        .expect("verify saw an occupied line, so an earlier queen stands on it");
    VerifyError::Attack {
        first_row,
        second_row: row,
        first_column: placement[first_row],
        second_column: column,
        kind,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accepts_the_four_and_eight_queens_solutions() {
        assert_eq!(verify(&[1, 3, 0, 2]), Ok(()));
        assert_eq!(verify(&[2, 0, 3, 1]), Ok(()));
        assert_eq!(verify(&[0, 4, 7, 5, 2, 6, 1, 3]), Ok(()));
    }

    #[test]
    fn accepts_the_empty_placement_and_one_queen() {
        assert_eq!(verify(&[]), Ok(()));
        assert_eq!(verify(&[0]), Ok(()));
    }

    #[test]
    fn reports_a_shared_column_with_both_rows() {
        let error = verify(&[1, 3, 0, 3]).unwrap_err();
        assert_eq!(
            error,
            VerifyError::Attack {
                first_row: 1,
                second_row: 3,
                first_column: 3,
                second_column: 3,
                kind: AttackKind::SameColumn,
            }
        );
        assert_eq!(error.to_string(), "queens in rows 1 and 3 share column 3");
    }

    #[test]
    fn reports_a_shared_up_diagonal() {
        // Rows 0 and 1 in columns 1 and 0: row + column is 1 for both.
        let error = verify(&[1, 0]).unwrap_err();
        assert_eq!(
            error,
            VerifyError::Attack {
                first_row: 0,
                second_row: 1,
                first_column: 1,
                second_column: 0,
                kind: AttackKind::SameUpDiagonal,
            }
        );
        assert_eq!(
            error.to_string(),
            "queens in rows 0 and 1 (columns 1 and 0) share an up-diagonal"
        );
    }

    #[test]
    fn reports_a_shared_down_diagonal() {
        // Rows 1 and 3 in columns 3 and 5: row − column is −2 for both; row 2 attacks neither.
        let error = verify(&[0, 3, 1, 5, 2, 4]).unwrap_err();
        assert_eq!(
            error,
            VerifyError::Attack {
                first_row: 1,
                second_row: 3,
                first_column: 3,
                second_column: 5,
                kind: AttackKind::SameDownDiagonal,
            }
        );
        assert_eq!(
            error.to_string(),
            "queens in rows 1 and 3 (columns 3 and 5) share a down-diagonal"
        );
    }

    #[test]
    fn reports_the_earliest_attacker_of_the_first_attacked_row() {
        // Row 3 (column 3) is attacked by row 1 on its column and by row 0 on its down-diagonal; row 0
        // comes first. Row 2 attacks nobody before it.
        let error = verify(&[0, 3, 5, 3, 1, 1]).unwrap_err();
        assert_eq!(
            error,
            VerifyError::Attack {
                first_row: 0,
                second_row: 3,
                first_column: 0,
                second_column: 3,
                kind: AttackKind::SameDownDiagonal,
            }
        );
    }

    #[test]
    fn reports_a_column_off_the_board() {
        let error = verify(&[1, 3, 4, 2]).unwrap_err();
        assert_eq!(
            error,
            VerifyError::ColumnOutOfRange {
                row: 2,
                column: 4,
                n: 4
            }
        );
        assert_eq!(
            error.to_string(),
            "the queen in row 2 is in column 4, outside the board's columns 0..4"
        );
        assert_eq!(
            verify(&[u32::MAX]),
            Err(VerifyError::ColumnOutOfRange {
                row: 0,
                column: u32::MAX,
                n: 1
            })
        );
    }

    #[test]
    fn an_attack_in_an_earlier_row_is_reported_before_a_later_column_off_the_board() {
        assert!(matches!(
            verify(&[0, 0, 9]),
            Err(VerifyError::Attack { second_row: 1, .. })
        ));
        assert!(matches!(
            verify(&[0, 9, 0]),
            Err(VerifyError::ColumnOutOfRange { row: 1, .. })
        ));
    }

    #[test]
    #[cfg(target_pointer_width = "64")]
    fn diagonal_indices_stay_exact_beyond_thirty_two_bits() {
        // A board of 5·10^9 rows is never allocated here; the index arithmetic is what could overflow.
        let n = 5_000_000_000_usize;
        let row = n - 1;
        let column = u32::MAX;
        let (c, up, down) = line_indices(n, row, column);
        assert_eq!(c, u32::MAX as usize);
        assert_eq!(up as u64, (n as u64 - 1) + u64::from(u32::MAX));
        assert_eq!(
            down as u64,
            (n as u64 - 1) + (n as u64 - 1) - u64::from(u32::MAX)
        );
    }
}
