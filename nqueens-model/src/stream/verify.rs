//! Checking a stored or streamed placement in O(n) time and about 5n bits.

use std::io::{Read, Seek, SeekFrom};

use super::read::{TextRows, U32LeRows, count_text_rows};
use super::{BUFFER_BYTES, Format, MAX_VERIFY_N, Position, StreamError};
use crate::VerifyError;
use crate::verify::{OccupiedLines, attack_between};

/// Checks the placement stored in `reader` in `format`, as [`crate::verify`] checks one in memory,
/// and returns its number of rows.
///
/// Time is O(n) and memory about 5n bits (the occupied columns and diagonals), plus a megabyte of
/// buffer. The number of rows is learnt first: from the length for `u32le`, from a pass counting
/// newlines for text. If a row is attacked, the placement is read once more up to that row to name its
/// earliest attacker, which is why the reader must be [`Seek`]. Malformed input is reported with its
/// line or byte offset: a line that is not a decimal number, a `u32le` length that is not a multiple
/// of 4, and (as [`VerifyError::ColumnOutOfRange`]) a column not below n. An empty placement is
/// [`StreamError::Empty`]: a file with no rows is no board.
pub fn verify_stream<R: Read + Seek>(mut reader: R, format: Format) -> Result<usize, StreamError> {
    let n = match format {
        Format::Text => count_text_rows(&mut reader)?,
        Format::U32Le => {
            let bytes = reader.seek(SeekFrom::End(0))?;
            if bytes % 4 != 0 {
                return Err(StreamError::BadLength { bytes });
            }
            bytes / 4
        }
    };
    let n = usize::try_from(n)
        .ok()
        .filter(|&n| n <= MAX_VERIFY_N)
        .ok_or(StreamError::TooLarge {
            n,
            max: MAX_VERIFY_N,
        })?;
    if n == 0 {
        return Err(StreamError::Empty);
    }
    reader.seek(SeekFrom::Start(0))?;
    // One monomorphic loop per format: a boxed iterator would cost a dynamic call per row.
    let scan = match format {
        Format::Text => TextRows::new(&mut reader).check(n)?,
        Format::U32Le => U32LeRows::new(&mut reader).check(n)?,
    };
    let Scan::Bad {
        row,
        column,
        off_board,
    } = scan
    else {
        return Ok(n);
    };
    let error = if off_board {
        VerifyError::ColumnOutOfRange { row, column, n }
    } else {
        reader.seek(SeekFrom::Start(0))?;
        match format {
            Format::Text => TextRows::new(&mut reader).name_attacker(row, column)?,
            Format::U32Le => U32LeRows::new(&mut reader).name_attacker(row, column)?,
        }
    };
    Err(StreamError::Invalid {
        error,
        position: Position::of_row(format, row),
    })
}

/// Checks a placement given as an iterator of columns, without storing it: O(n) time, about 5n bits.
/// The iterator is cloned and run again up to the first attacked row, if there is one, to name the
/// attacker, so it must yield the same columns each time (as [`crate::construct::ExplicitColumns`]
/// does). Errors carry the row's would-be text line as their position.
pub fn verify_columns<I>(columns: I) -> Result<(), StreamError>
where
    I: ExactSizeIterator<Item = u32> + Clone,
{
    let n = columns.len();
    if n > MAX_VERIFY_N {
        return Err(StreamError::TooLarge {
            n: n as u64,
            max: MAX_VERIFY_N,
        });
    }
    let (row, column, off_board) = match scan(n, &mut IteratorRows(columns.clone())) {
        Scan::Clean { rows } if rows == n => return Ok(()),
        Scan::Clean { rows } => {
            return Err(StreamError::LengthMismatch {
                expected: n as u64,
                found: rows as u64,
            });
        }
        Scan::Bad {
            row,
            column,
            off_board,
        } => (row, column, off_board),
    };
    let error = if off_board {
        VerifyError::ColumnOutOfRange { row, column, n }
    } else {
        first_attacker(row, column, columns).ok_or(StreamError::LengthMismatch {
            expected: row as u64,
            found: 0,
        })?
    };
    Err(StreamError::Invalid {
        error,
        position: Position::of_row(Format::Text, row),
    })
}

/// What a first pass over the rows found.
pub(super) enum Scan {
    /// No bad row among the rows read.
    Clean {
        /// How many rows there were, up to n + 1: reading stops one row past n.
        rows: usize,
    },
    /// The first row whose queen is off the board or attacked by an earlier row.
    Bad {
        /// The row.
        row: usize,
        /// Its column.
        column: u32,
        /// Whether the column is off the board (otherwise an earlier queen attacks it).
        off_board: bool,
    },
}

/// Rows checked per run: a megabyte of columns.
const RUN_ROWS: usize = BUFFER_BYTES / 4;

/// Checks the first `n` rows in order, as [`crate::verify`] does, a run at a time, and counts the
/// rows (reading one row past `n` at most, to tell a longer placement).
///
/// Reading overlaps checking: while another thread checks one run, this one reads the next (the reader
/// never leaves this thread, so it need not be [`Send`]). A run read ahead past a bad row is simply
/// not checked.
fn scan(n: usize, source: &mut impl RowSource) -> Scan {
    // The same sets of occupied columns and diagonals as `verify` keeps: 5n − 2 bits.
    let mut lines = OccupiedLines::new(n);
    let mut current = Vec::with_capacity(RUN_ROWS.min(n));
    let mut next = Vec::with_capacity(RUN_ROWS.min(n));
    source.fill_run(&mut current, RUN_ROWS.min(n));
    let mut done = 0;
    while !current.is_empty() {
        let after = done + current.len();
        let mut bad = None;
        rayon::in_place_scope(|scope| {
            scope.spawn(|_| bad = lines.check(done, &current));
            source.fill_run(&mut next, RUN_ROWS.min(n - after));
        });
        if let Some(row) = bad {
            let column = current[row - done];
            return Scan::Bad {
                row,
                column,
                off_board: column as usize >= n,
            };
        }
        done = after;
        std::mem::swap(&mut current, &mut next);
    }
    let beyond = usize::from(done == n && source.next().is_some());
    Scan::Clean {
        rows: done + beyond,
    }
}

/// The attack on `row` (in `column`) by the earliest earlier row, read again from `rows`; `None` if
/// there is none, which can only mean the rows changed since the first pass.
fn first_attacker(row: usize, column: u32, rows: impl Iterator<Item = u32>) -> Option<VerifyError> {
    rows.take(row)
        .enumerate()
        .find_map(|(earlier, earlier_column)| {
            attack_between(earlier, earlier_column, row, column).map(|kind| VerifyError::Attack {
                first_row: earlier,
                second_row: row,
                first_column: earlier_column,
                second_column: column,
                kind,
            })
        })
}

/// Rows to check: an iterator of plain columns (so that the hot loops move four bytes a row) that
/// also fills whole runs, with the first reading error kept aside and reported once a pass is over.
pub(super) trait RowSource: Iterator<Item = u32> + Sized {
    /// Replaces the contents of `run` with the next rows, at most `max` of them; fewer only at the end
    /// of the rows.
    fn fill_run(&mut self, run: &mut Vec<u32>, max: usize) {
        run.clear();
        run.extend(self.by_ref().take(max));
    }

    /// The error that ended the rows early, if one did.
    fn take_error(&mut self) -> Option<StreamError> {
        None
    }

    /// [`scan`] over the rows, with a reading error reported as such and a count of rows other than
    /// `n` as a mismatch.
    fn check(mut self, n: usize) -> Result<Scan, StreamError> {
        let found = scan(n, &mut self);
        // A bad row comes before any error, which the reading ahead may have met further on.
        if matches!(found, Scan::Bad { .. }) {
            return Ok(found);
        }
        if let Some(error) = self.take_error() {
            return Err(error);
        }
        match found {
            Scan::Clean { rows } if rows != n => Err(StreamError::LengthMismatch {
                expected: n as u64,
                found: rows as u64,
            }),
            found => Ok(found),
        }
    }

    /// [`first_attacker`] over the rows, read again.
    fn name_attacker(mut self, row: usize, column: u32) -> Result<VerifyError, StreamError> {
        let attack = first_attacker(row, column, &mut self);
        if let Some(error) = self.take_error() {
            return Err(error);
        }
        // The first pass saw an occupied line, so the second finds its queen unless the input changed
        // between the passes.
        attack.ok_or(StreamError::LengthMismatch {
            expected: row as u64,
            found: 0,
        })
    }
}

/// The columns of an iterator, as [`verify_columns`] reads them.
struct IteratorRows<I>(I);

impl<I: Iterator<Item = u32>> Iterator for IteratorRows<I> {
    type Item = u32;

    fn next(&mut self) -> Option<u32> {
        self.0.next()
    }
}

impl<I: Iterator<Item = u32>> RowSource for IteratorRows<I> {}
