//! The independent checker every solver's answers are tested with.

use std::fmt;

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
/// occupied columns and diagonals), so it checks boards of a billion rows. From 2²⁰ rows on, the two
/// halves of the placement are checked on two threads, each with its own sets, which then must not
/// share a line (twice the memory, 10n bits, for half the time); a clash found only that way sends
/// the first half's sets on through the second half, so the report is still the first bad row. Only
/// when it finds an attack does it scan the earlier rows again, once, to name the attacker.
pub fn verify(placement: &[u32]) -> Result<(), VerifyError> {
    let n = placement.len();
    let first_bad = if n >= PARALLEL_VERIFY_ROWS {
        first_bad_row_by_halves(placement)
    } else {
        OccupiedLines::new(n).check(0, placement)
    };
    let Some(row) = first_bad else {
        return Ok(());
    };
    let column = placement[row];
    if column as usize >= n {
        Err(VerifyError::ColumnOutOfRange { row, column, n })
    } else {
        Err(first_attacker(placement, row))
    }
}

/// The rows from which [`verify`] checks the two halves of a placement on two threads.
const PARALLEL_VERIFY_ROWS: usize = 1 << 20;

/// [`verify`]'s first bad row, found by checking the two halves at once.
///
/// A row of the first half is bad exactly when it is bad within the first half, so the first half's
/// own first bad row is the answer if there is one. Otherwise the placement is a solution exactly when
/// the second half has no bad row of its own and the two halves occupy disjoint lines; if not, the
/// first half's sets, carried on through the second half, find the first bad row there.
fn first_bad_row_by_halves(placement: &[u32]) -> Option<usize> {
    let n = placement.len();
    let middle = n / 2;
    let (head, tail) = placement.split_at(middle);
    let ((mut head_lines, head_bad), (mut tail_lines, tail_bad)) = rayon::join(
        || {
            let mut lines = OccupiedLines::new(n);
            let bad = lines.check(0, head);
            (lines, bad)
        },
        || {
            let mut lines = OccupiedLines::new(n);
            let bad = lines.check(middle, tail);
            (lines, bad)
        },
    );
    if head_bad.is_some() {
        return head_bad;
    }
    if tail_bad.is_none() && !head_lines.shares_a_line_with(&mut tail_lines) {
        return None;
    }
    drop(tail_lines);
    head_lines.check(middle, tail)
}

/// The columns, up-diagonals and down-diagonals occupied so far on an `n × n` board, one bit each
/// (5n − 2 bits in all), checked and filled a run of rows at a time: [`verify`] gives it a whole
/// placement or half of one, the streaming verifier (`crate::stream`) a megabyte at a time.
pub(crate) struct OccupiedLines {
    n: usize,
    columns: LineBits,
    ups: LineBits,
    downs: LineBits,
}

impl OccupiedLines {
    /// No line occupied, on a board of `n` rows.
    pub(crate) fn new(n: usize) -> Self {
        let diagonals = (2 * n).saturating_sub(1);
        OccupiedLines {
            n,
            columns: LineBits::new(n),
            ups: LineBits::new(diagonals),
            downs: LineBits::new(diagonals),
        }
    }

    /// Checks the rows `first_row, first_row + 1, …` whose columns are `columns`, occupying their
    /// lines, and returns the first whose queen is off the board or stands on a line already occupied.
    /// The rows must lie on the board; after a bad row the sets must not be used again.
    pub(crate) fn check(&mut self, first_row: usize, columns: &[u32]) -> Option<usize> {
        let n = self.n;
        for (row, &column) in (first_row..).zip(columns) {
            if column as usize >= n {
                return Some(row);
            }
            let (column_line, up_line, down_line) = line_indices(n, row, column);
            // All three are tested, not only up to the first clash: the check stops at the row anyway.
            let column_free = self.columns.test_and_set(column_line);
            let up_free = self.ups.test_and_set(up_line);
            let down_free = self.downs.test_and_set(down_line);
            if !(column_free & up_free & down_free) {
                return Some(row);
            }
        }
        None
    }

    /// Whether a line is occupied in both `self` and `other`.
    fn shares_a_line_with(&mut self, other: &mut Self) -> bool {
        [
            (&mut self.columns, &mut other.columns),
            (&mut self.ups, &mut other.ups),
            (&mut self.downs, &mut other.downs),
        ]
        .into_iter()
        .any(|(mine, theirs)| {
            mine.write_back();
            theirs.write_back();
            mine.words
                .iter()
                .zip(&theirs.words)
                .any(|(a, b)| a & b != 0)
        })
    }
}

/// One bit per line of one kind, set once a queen stands on it.
///
/// The word last touched is kept apart, in a register, and written back only when a line in another
/// word comes up. Consecutive rows of the constructed boards fall on neighbouring lines, so without
/// this every row would load the word the previous row had just stored and wait for it: keeping it
/// made [`verify`] a third faster on the explicit board of 10⁹ rows.
struct LineBits {
    words: Vec<u64>,
    /// The index of the word held in `word`; `words[current]` is stale until it is written back.
    current: usize,
    word: u64,
}

impl LineBits {
    /// No line occupied, among `lines` lines.
    fn new(lines: usize) -> Self {
        LineBits {
            // At least one word, so that `current = 0` always names a word.
            words: vec![0; lines.div_ceil(64).max(1)],
            current: 0,
            word: 0,
        }
    }

    /// Stores the word kept apart, so that `words` is complete.
    fn write_back(&mut self) {
        self.words[self.current] = self.word;
    }

    /// Marks `line` occupied, and returns whether it was free before.
    #[inline]
    fn test_and_set(&mut self, line: usize) -> bool {
        let (index, mask) = (line / 64, 1_u64 << (line % 64));
        if index != self.current {
            self.words[self.current] = self.word;
            self.current = index;
            self.word = self.words[index];
        }
        let free = self.word & mask == 0;
        self.word |= mask;
        free
    }
}

/// The column, up-diagonal (`row + column`) and down-diagonal (`row − column + n − 1`) through a square
/// of the board, as indices into sets of `n`, `2n − 1` and `2n − 1` lines. The sums are taken in `u64`
/// so that boards beyond `2^31` rows stay correct on every target.
pub(crate) fn line_indices(n: usize, row: usize, column: u32) -> (usize, usize, usize) {
    let (n, row, column) = (n as u64, row as u64, u64::from(column));
    let up = row + column;
    // The column is below n, so adding n − 1 first keeps the difference non-negative.
    let down = row + (n - 1) - column;
    (column as usize, up as usize, down as usize)
}

/// The attack on the queen of `row` by the earliest earlier row, which [`verify`] knows exists.
fn first_attacker(placement: &[u32], row: usize) -> VerifyError {
    let column = placement[row];
    let (first_row, kind) = placement[..row]
        .iter()
        .enumerate()
        .find_map(|(earlier, &earlier_column)| {
            attack_between(earlier, earlier_column, row, column).map(|kind| (earlier, kind))
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

/// The line the queens at `(earlier, earlier_column)` and `(row, column)` share, if any, checked in the
/// order [`verify`] reports them: column, up-diagonal, down-diagonal. The streaming verifier
/// (`crate::stream`) names attackers with it too, so both report the same pair.
pub(crate) fn attack_between(
    earlier: usize,
    earlier_column: u32,
    row: usize,
    column: u32,
) -> Option<AttackKind> {
    let (earlier_64, earlier_column_64) = (earlier as u64, u64::from(earlier_column));
    let (row_64, column_64) = (row as u64, u64::from(column));
    if earlier_column == column {
        Some(AttackKind::SameColumn)
    } else if earlier_64 + earlier_column_64 == row_64 + column_64 {
        Some(AttackKind::SameUpDiagonal)
    } else if earlier_64 + column_64 == row_64 + earlier_column_64 {
        // earlier − earlier_column == row − column, rearranged to stay unsigned.
        Some(AttackKind::SameDownDiagonal)
    } else {
        None
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

    /// What `verify` reports, computed on one thread, in runs of a thousand rows.
    fn verify_on_one_thread(placement: &[u32]) -> Result<(), VerifyError> {
        let n = placement.len();
        let mut lines = OccupiedLines::new(n);
        let first_bad = placement
            .chunks(1000)
            .enumerate()
            .find_map(|(index, run)| lines.check(1000 * index, run));
        match first_bad {
            None => Ok(()),
            Some(row) if placement[row] as usize >= n => Err(VerifyError::ColumnOutOfRange {
                row,
                column: placement[row],
                n,
            }),
            Some(row) => Err(first_attacker(placement, row)),
        }
    }

    #[test]
    fn halves_on_two_threads_report_what_one_thread_reports() {
        // The odd columns then the even ones (Hoffman–Loessi–Moore's rule for n mod 6 = 4): a solution
        // of 2^20 + 6 rows, far above the size where verify splits its work.
        let n = (1 << 20) + 6;
        assert_eq!(n % 6, 4);
        let half = (n / 2) as u32;
        let solution: Vec<u32> = (0..half)
            .map(|r| 2 * r + 1)
            .chain((0..half).map(|k| 2 * k))
            .collect();
        assert_eq!(verify(&solution), Ok(()));
        let last = n - 1;
        let edits: [(usize, u32); 7] = [
            (700_000, n as u32),        // off the board
            (900_000, solution[12]),    // shares a column with row 12
            (last, solution[last] + 1), // takes column n − 1, row half − 1's
            (3, solution[2] + 1),       // next to row 2: a down-diagonal
            (1, solution[0] - 1),       // next to row 0: an up-diagonal
            (600_000, u32::MAX),
            (800_000, solution[799_999] + 1), // next to row 799,999 in the second half
        ];
        for (row, column) in edits {
            let mut placement = solution.clone();
            placement[row] = column;
            let expected = verify_on_one_thread(&placement);
            assert!(expected.is_err(), "row {row}");
            assert_eq!(verify(&placement), expected, "row {row}");
        }
        // Two edits: the earlier bad row is reported, whichever thread finds it.
        let mut placement = solution.clone();
        placement[800_000] = solution[5]; // a column clash, found by the first thread
        placement[400_000] = placement[399_999] + 1; // a down-diagonal clash, found by the second
        assert_eq!(verify(&placement), verify_on_one_thread(&placement));
        assert!(matches!(
            verify(&placement),
            Err(VerifyError::Attack {
                second_row: 400_000,
                ..
            })
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
