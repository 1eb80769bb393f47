//! Checking a stored or streamed placement in O(n) time and about 5n bits.

use std::io::{Read, Seek, SeekFrom};

use super::error::StreamError;
use super::format::{Format, Position};
use super::read::{TextRows, U32LeRows, count_text_rows};
use super::rows::{RowSource, Scan, first_attacker, scan};
use super::sizes::MAX_VERIFY_N;
use crate::VerifyError;

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

/// The columns of an iterator, as [`verify_columns`] reads them.
struct IteratorRows<I>(I);

impl<I: Iterator<Item = u32>> Iterator for IteratorRows<I> {
    type Item = u32;

    fn next(&mut self) -> Option<u32> {
        self.0.next()
    }
}

impl<I: Iterator<Item = u32>> RowSource for IteratorRows<I> {}
