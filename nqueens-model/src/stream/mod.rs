//! Placements too large to hold: written to any [`Write`] as they are produced, and verified from any
//! [`Read`] + [`Seek`] in O(n) time with about 5n bits of memory.
//!
//! Two formats ([`Format`]): `text`, one 0-based column per line in decimal, each line ending in `\n`;
//! and `u32le`, four little-endian bytes per row and nothing else. A billion rows take about 9.9 GB as
//! text and 4 GB as `u32le`.
//!
//! ```
//! use std::io::Cursor;
//! use nqueens_model::stream::{Format, verify_stream, write_placement};
//!
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! let mut file = Vec::new();
//! write_placement(&mut file, [1, 3, 0, 2], Format::Text)?;
//! assert_eq!(file, b"1\n3\n0\n2\n");
//! assert_eq!(verify_stream(Cursor::new(&file), Format::Text)?, 4);
//!
//! let error = verify_stream(Cursor::new(b"1\n3\n2\n0\n"), Format::Text).unwrap_err();
//! assert_eq!(
//!     error.to_string(),
//!     "queens in rows 1 and 2 (columns 3 and 2) share an up-diagonal (line 3)"
//! );
//! # Ok(())
//! # }
//! ```

use std::fmt;
use std::io::{self, BufRead, BufReader, Read, Seek, SeekFrom, Write};

use thiserror::Error;

use crate::VerifyError;
use crate::verify::{OccupiedLines, attack_between};

/// The largest placement [`verify_stream`] and [`verify_columns`] check: every row and column must fit
/// a `u32`. Its line sets then take at most 5 · 2³² bits, 2.7 GB, within the 4 GiB budget.
pub const MAX_VERIFY_N: usize = u32::MAX as usize;

/// Bytes the writer gathers before each write, and the readers' buffer size: large enough that
/// system calls cost nothing next to formatting.
const BUFFER_BYTES: usize = 1 << 20;

/// How a placement is stored.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Format {
    /// One 0-based column per line, in decimal, each line ending in `\n` (a final line without it, and
    /// a `\r` before it, are accepted when reading).
    #[default]
    Text,
    /// Four bytes per row, the column as a little-endian `u32`.
    U32Le,
}

named_enum!(Format, "format", [Text => "text", U32Le => "u32le"]);

/// Where in a stored placement something was found.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Position {
    /// A line of a text placement, from 1 (row `line − 1`).
    Line(u64),
    /// A byte offset into a `u32le` placement (row `offset / 4`).
    ByteOffset(u64),
}

impl Position {
    /// Where row `row` starts in `format`.
    fn of_row(format: Format, row: usize) -> Self {
        match format {
            Format::Text => Position::Line(row as u64 + 1),
            Format::U32Le => Position::ByteOffset(4 * row as u64),
        }
    }
}

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Position::Line(line) => write!(f, "line {line}"),
            Position::ByteOffset(offset) => write!(f, "byte offset {offset}"),
        }
    }
}

/// Why [`verify_stream`] or [`verify_columns`] rejected a placement.
#[derive(Debug, Error)]
#[non_exhaustive]
pub enum StreamError {
    /// Reading failed.
    #[error("cannot read the placement: {0}")]
    Io(#[from] io::Error),
    /// A line of a text placement is not a column number.
    #[error("line {line}: {reason}")]
    MalformedLine {
        /// The line, from 1.
        line: u64,
        /// What is wrong with it.
        reason: String,
    },
    /// A `u32le` placement whose length is not a whole number of rows.
    #[error(
        "a u32le placement is 4 bytes per row, but this one has {bytes} bytes: the row at byte offset {} is incomplete",
        bytes - bytes % 4
    )]
    BadLength {
        /// The placement's length in bytes.
        bytes: u64,
    },
    /// More rows than a column can number.
    #[error("the placement has {n} rows; at most {max} can be verified")]
    TooLarge {
        /// The number of rows.
        n: u64,
        /// [`MAX_VERIFY_N`].
        max: usize,
    },
    /// A different number of columns than announced ([`verify_columns`], or a text file that changed
    /// between the two passes of [`verify_stream`]).
    #[error("expected {expected} rows, found {found}")]
    LengthMismatch {
        /// The rows announced.
        expected: u64,
        /// The rows found.
        found: u64,
    },
    /// The placement is not a solution: the first row off the board or attacked, as
    /// [`crate::verify`] reports it, and where that row is stored.
    #[error("{error} ({position})")]
    Invalid {
        /// What [`crate::verify`] reports for the same placement.
        error: VerifyError,
        /// Where the row named second is stored.
        position: Position,
    },
}

/// Writes `columns` (`placement[row] = column`) to `writer` in `format`, gathering a megabyte at a
/// time, and returns the number of rows written. Memory stays bounded whatever the number of rows, so
/// a streamed construction ([`crate::construct::ExplicitColumns`]) can write a billion rows.
pub fn write_placement<W: Write>(
    mut writer: W,
    columns: impl IntoIterator<Item = u32>,
    format: Format,
) -> io::Result<u64> {
    let mut buffer = vec![0_u8; BUFFER_BYTES];
    let mut columns = columns.into_iter();
    let mut rows = 0_u64;
    // One loop per format, so that the hot loop does not ask which format it writes at every row.
    match format {
        Format::Text => loop {
            let mut used = 0;
            let mut ended = false;
            // Fill the buffer while it has room for a row of the greatest width.
            while let Some(slot) = buffer[used..].first_chunk_mut::<MAX_ROW_BYTES>() {
                let Some(column) = columns.next() else {
                    ended = true;
                    break;
                };
                used += put_decimal_line(slot, column);
                rows += 1;
            }
            writer.write_all(&buffer[..used])?;
            if ended {
                break;
            }
        },
        Format::U32Le => loop {
            let mut used = 0;
            // `zip` asks the buffer for a slot first, so no column is taken that has no room.
            for (slot, column) in buffer.chunks_exact_mut(4).zip(&mut columns) {
                slot.copy_from_slice(&column.to_le_bytes());
                used += 4;
            }
            writer.write_all(&buffer[..used])?;
            rows += (used / 4) as u64;
            if used < buffer.len() {
                break;
            }
        },
    }
    writer.flush()?;
    Ok(rows)
}

/// The longest row in any format: ten digits and a newline.
const MAX_ROW_BYTES: usize = 11;

/// The two-digit strings "00" to "99", so that a column is formatted two digits per division.
const DIGIT_PAIRS: &[u8; 200] = b"\
    0001020304050607080910111213141516171819\
    2021222324252627282930313233343536373839\
    4041424344454647484950515253545556575859\
    6061626364656667686970717273747576777879\
    8081828384858687888990919293949596979899";

/// Writes `value` in decimal and a newline at the start of `out`, and returns the bytes written:
/// `core::fmt` would cost several times as much per row.
///
/// All ten digits are formed, zero-padded, from three independent groups (so the divisions do not wait
/// on each other), then an 11-byte window starting at the first significant digit is copied: a copy of
/// fixed length, whatever the number of digits. The bytes after the newline are scratch, overwritten by
/// the next row.
#[inline]
fn put_decimal_line(out: &mut [u8; MAX_ROW_BYTES], value: u32) -> usize {
    let digits = value.checked_ilog10().unwrap_or(0) as usize + 1;
    let pair = |two_digits: u32| {
        let index = two_digits as usize * 2;
        [DIGIT_PAIRS[index], DIGIT_PAIRS[index + 1]]
    };
    let (high, low) = (value / 100_000_000, value % 100_000_000);
    let (middle, last) = (low / 10_000, low % 10_000);
    // Ten digits, the newline, and scratch so that any 11-byte window fits.
    let mut all = [b'\n'; 2 * MAX_ROW_BYTES];
    all[0..2].copy_from_slice(&pair(high));
    all[2..4].copy_from_slice(&pair(middle / 100));
    all[4..6].copy_from_slice(&pair(middle % 100));
    all[6..8].copy_from_slice(&pair(last / 100));
    all[8..10].copy_from_slice(&pair(last % 100));
    let start = 10 - digits;
    out.copy_from_slice(&all[start..start + MAX_ROW_BYTES]);
    digits + 1
}

/// Checks the placement stored in `reader` in `format`, as [`crate::verify`] checks one in memory,
/// and returns its number of rows.
///
/// Time is O(n) and memory about 5n bits (the occupied columns and diagonals), plus a megabyte of
/// buffer. The number of rows is learnt first: from the length for `u32le`, from a pass counting
/// newlines for text. If a row is attacked, the placement is read once more up to that row to name its
/// earliest attacker, which is why the reader must be [`Seek`]. Malformed input is reported with its
/// line or byte offset: a line that is not a decimal number, a `u32le` length that is not a multiple
/// of 4, and (as [`VerifyError::ColumnOutOfRange`]) a column not below n. The empty placement is valid,
/// with 0 rows.
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
enum Scan {
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
trait RowSource: Iterator<Item = u32> + Sized {
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

/// The number of rows of a text placement: its newlines, plus one for a last line without one.
fn count_text_rows<R: Read>(reader: &mut R) -> Result<u64, StreamError> {
    let mut buffer = vec![0_u8; BUFFER_BYTES];
    let (mut newlines, mut last) = (0_u64, b'\n');
    loop {
        let read = match reader.read(&mut buffer) {
            Ok(0) => break,
            Ok(read) => read,
            Err(error) if error.kind() == io::ErrorKind::Interrupted => continue,
            Err(error) => return Err(error.into()),
        };
        // Counted in blocks of 255 bytes with a byte-wide sum, which the compiler vectorises;
        // `filter().count()` went a byte at a time.
        newlines += buffer[..read]
            .chunks(255)
            .map(|block| {
                let in_block: u8 = block.iter().map(|&byte| u8::from(byte == b'\n')).sum();
                u64::from(in_block)
            })
            .sum::<u64>();
        last = buffer[read - 1];
    }
    Ok(newlines + u64::from(last != b'\n'))
}

/// The columns of a text placement, one per line.
struct TextRows<R> {
    reader: BufReader<R>,
    /// The lines read so far.
    line: u64,
    /// A line that crosses the end of the reader's buffer, gathered here.
    partial: Vec<u8>,
    /// The error that ended the rows, if one did.
    error: Option<StreamError>,
}

/// The longest line gathered across a buffer boundary: far more than any column needs (ten digits
/// and `\r\n`), and small enough that a file without newlines cannot fill memory.
const MAX_PARTIAL_LINE: u64 = 64;

impl<R: Read> TextRows<R> {
    /// The rows from the reader's position, which is the start of line 1.
    fn new(reader: R) -> Self {
        TextRows {
            reader: BufReader::with_capacity(BUFFER_BYTES, reader),
            line: 0,
            partial: Vec::with_capacity(MAX_PARTIAL_LINE as usize),
            error: None,
        }
    }

    /// The next line's column, or `None` at the end.
    fn next_row(&mut self) -> Result<Option<u32>, StreamError> {
        let line = self.line + 1;
        let buffer = self.reader.fill_buf()?;
        // The common case: one to ten digits and a newline, all in the buffer, read in one pass.
        // Anything else (a `\r`, a stray byte, an empty or overlong line, a line cut by the buffer's
        // end) goes the careful way below, which also words the error.
        let mut value = 0_u64;
        for (index, &byte) in buffer.iter().enumerate().take(MAX_ROW_BYTES) {
            if byte == b'\n' {
                if index > 0 && value <= u64::from(u32::MAX) {
                    self.reader.consume(index + 1);
                    self.line = line;
                    // Checked against u32::MAX just above.
                    return Ok(Some(value as u32));
                }
                break;
            }
            let digit = byte.wrapping_sub(b'0');
            if digit > 9 {
                break;
            }
            value = value * 10 + u64::from(digit);
        }
        if let Some(end) = buffer.iter().position(|&byte| byte == b'\n') {
            let column = parse_line(&buffer[..end], line)?;
            self.reader.consume(end + 1);
            self.line = line;
            return Ok(Some(column));
        }
        // The line crosses the buffer's end, or is the last one and has no newline.
        self.partial.clear();
        let read = (&mut self.reader)
            .take(MAX_PARTIAL_LINE)
            .read_until(b'\n', &mut self.partial)?;
        if read == 0 {
            return Ok(None);
        }
        self.line = line;
        match self.partial.split_last() {
            Some((b'\n', content)) => parse_line(content, line).map(Some),
            _ if read as u64 == MAX_PARTIAL_LINE => Err(StreamError::MalformedLine {
                line,
                reason: format!(
                    "the line is longer than {MAX_PARTIAL_LINE} bytes, expected a column number"
                ),
            }),
            _ => parse_line(&self.partial, line).map(Some),
        }
    }
}

impl<R: Read> Iterator for TextRows<R> {
    type Item = u32;

    fn next(&mut self) -> Option<u32> {
        if self.error.is_some() {
            return None;
        }
        self.next_row().unwrap_or_else(|error| {
            self.error = Some(error);
            None
        })
    }
}

impl<R: Read> RowSource for TextRows<R> {
    fn take_error(&mut self) -> Option<StreamError> {
        self.error.take()
    }
}

/// The column on one line (without its newline): decimal digits, optionally followed by `\r`.
fn parse_line(bytes: &[u8], line: u64) -> Result<u32, StreamError> {
    let malformed = |reason: String| StreamError::MalformedLine { line, reason };
    let digits = bytes.strip_suffix(b"\r").unwrap_or(bytes);
    if digits.is_empty() {
        return Err(malformed(
            "the line is empty, expected a column number".to_owned(),
        ));
    }
    let mut value = 0_u32;
    for &byte in digits {
        let digit = byte.wrapping_sub(b'0');
        if digit > 9 {
            return Err(malformed(if byte == b'\r' {
                "a carriage return in the middle of the line".to_owned()
            } else {
                format!(
                    "unexpected {}, expected a column number (decimal digits only)",
                    describe_byte(byte)
                )
            }));
        }
        value = value
            .checked_mul(10)
            .and_then(|value| value.checked_add(u32::from(digit)))
            .ok_or_else(|| {
                malformed(format!(
                    "the number is larger than any column ({} at most)",
                    u32::MAX
                ))
            })?;
    }
    Ok(value)
}

/// A byte as a message shows it: printable ASCII quoted, anything else in hex.
fn describe_byte(byte: u8) -> String {
    if byte.is_ascii_graphic() || byte == b' ' {
        format!("`{}`", byte as char)
    } else {
        format!("byte 0x{byte:02x}")
    }
}

/// The columns of a `u32le` placement, four bytes each, decoded a megabyte at a time so that
/// `next` is a load and an increment.
struct U32LeRows<R> {
    reader: R,
    /// Raw bytes; the first `carried` of them are the start of a row that the last read cut short.
    bytes: Vec<u8>,
    carried: usize,
    /// The decoded columns of the last read, and the next one to yield.
    columns: Vec<u32>,
    next: usize,
    /// The error that ended the rows, if one did.
    error: Option<StreamError>,
}

impl<R: Read> U32LeRows<R> {
    /// The rows from the reader's position, which is the start of row 0.
    fn new(reader: R) -> Self {
        U32LeRows {
            reader,
            bytes: vec![0; BUFFER_BYTES],
            carried: 0,
            columns: Vec::with_capacity(BUFFER_BYTES / 4),
            next: 0,
            error: None,
        }
    }

    /// Reads and decodes the next megabyte; `false` at the end or on an error.
    fn refill(&mut self) -> bool {
        let mut filled = self.carried;
        while filled < self.bytes.len() {
            match self.reader.read(&mut self.bytes[filled..]) {
                Ok(0) => break,
                Ok(read) => filled += read,
                Err(error) if error.kind() == io::ErrorKind::Interrupted => {}
                Err(error) => {
                    self.error = Some(error.into());
                    return false;
                }
            }
        }
        let (rows, rest) = self.bytes[..filled].as_chunks::<4>();
        self.columns.clear();
        self.columns
            .extend(rows.iter().map(|&row| u32::from_le_bytes(row)));
        self.next = 0;
        // A row cut short by the read moves to the front, to be completed by the next one. At the
        // end of the input it is dropped: the length was checked to be a multiple of 4, so only a
        // file that changed meanwhile ends that way, and the row count then tells.
        let rest = rest.len();
        self.bytes.copy_within(filled - rest..filled, 0);
        self.carried = rest;
        !self.columns.is_empty()
    }
}

impl<R: Read> Iterator for U32LeRows<R> {
    type Item = u32;

    #[inline]
    fn next(&mut self) -> Option<u32> {
        if self.next == self.columns.len() && (self.error.is_some() || !self.refill()) {
            return None;
        }
        let column = self.columns.get(self.next).copied();
        self.next += 1;
        column
    }
}

impl<R: Read> RowSource for U32LeRows<R> {
    /// Copies decoded columns a buffer at a time instead of one `next` per row.
    fn fill_run(&mut self, run: &mut Vec<u32>, max: usize) {
        run.clear();
        while run.len() < max {
            if self.next == self.columns.len() && (self.error.is_some() || !self.refill()) {
                break;
            }
            let take = (self.columns.len() - self.next).min(max - run.len());
            run.extend_from_slice(&self.columns[self.next..self.next + take]);
            self.next += take;
        }
    }

    fn take_error(&mut self) -> Option<StreamError> {
        self.error.take()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Cursor;

    #[test]
    fn decimal_lines_match_display() {
        let mut values = vec![
            0,
            7,
            9,
            10,
            99,
            100,
            101,
            999,
            1000,
            65_535,
            1_000_000,
            u32::MAX,
        ];
        values.extend((0..32).map(|power| 1_u32 << power));
        values.extend((1..=9).map(|digits| 10_u32.pow(digits) - 1));
        let mut written = Vec::new();
        write_placement(&mut written, values.iter().copied(), Format::Text).unwrap();
        let expected: String = values.iter().map(|value| format!("{value}\n")).collect();
        assert_eq!(String::from_utf8(written).unwrap(), expected);
    }

    #[test]
    fn rows_crossing_the_buffer_boundary_are_written_and_read_whole() {
        // Enough rows of mixed widths that many straddle the 1 MiB buffer's end.
        let columns: Vec<u32> = (0..400_000_u32)
            .map(|i| i.wrapping_mul(2_654_435_761))
            .collect();
        for format in Format::ALL {
            let mut file = Vec::new();
            write_placement(&mut file, columns.iter().copied(), format).unwrap();
            let read: Vec<u32> = match format {
                Format::Text => TextRows::new(Cursor::new(file)).collect(),
                Format::U32Le => U32LeRows::new(Cursor::new(file)).collect(),
            };
            assert_eq!(read, columns, "{format}");
        }
    }

    /// A reader that hands out at most 3 bytes a call, so that rows straddle every read.
    struct Trickle(Cursor<Vec<u8>>);

    impl Read for Trickle {
        fn read(&mut self, buffer: &mut [u8]) -> io::Result<usize> {
            let len = buffer.len().min(3);
            self.0.read(&mut buffer[..len])
        }
    }

    impl Seek for Trickle {
        fn seek(&mut self, position: SeekFrom) -> io::Result<u64> {
            self.0.seek(position)
        }
    }

    #[test]
    fn short_reads_split_rows_anywhere() {
        let columns = [1_u32, 3, 0, 2, 70_000, 5, 4_000_000_000];
        for format in Format::ALL {
            let mut file = Vec::new();
            write_placement(&mut file, columns, format).unwrap();
            let read: Vec<u32> = match format {
                Format::Text => TextRows::new(Trickle(Cursor::new(file.clone()))).collect(),
                Format::U32Le => U32LeRows::new(Trickle(Cursor::new(file.clone()))).collect(),
            };
            assert_eq!(read, columns, "{format}");
            let error = verify_stream(Trickle(Cursor::new(file)), format).unwrap_err();
            assert!(
                matches!(
                    error,
                    StreamError::Invalid {
                        error: VerifyError::ColumnOutOfRange { row: 4, .. },
                        ..
                    }
                ),
                "{error}"
            );
        }
    }

    /// The explicit board's columns for rule 1 (n mod 6 = 0 or 4): the odd columns, then the even ones.
    fn solution(n: usize) -> Vec<u32> {
        assert!(matches!(n % 6, 0 | 4));
        let half = (n / 2) as u32;
        (0..half)
            .map(|r| 2 * r + 1)
            .chain((0..half).map(|k| 2 * k))
            .collect()
    }

    #[test]
    fn problems_in_later_runs_are_found_in_row_order() {
        // 700,000 rows: three runs, so that checking one run overlaps reading the next.
        let n = 699_996;
        let good = solution(n);
        let text = |placement: &[u32]| {
            let mut file = Vec::new();
            write_placement(&mut file, placement.iter().copied(), Format::Text).unwrap();
            file
        };
        assert_eq!(
            verify_stream(Cursor::new(text(&good)), Format::Text).unwrap(),
            n
        );
        // A clash in the third run.
        let mut clash = good.clone();
        clash[600_000] = clash[17];
        let error = verify_stream(Cursor::new(text(&clash)), Format::Text);
        assert!(matches!(
            error,
            Err(StreamError::Invalid {
                error: VerifyError::Attack {
                    first_row: 17,
                    second_row: 600_000,
                    ..
                },
                position: Position::Line(600_001),
            })
        ));
        // A malformed line in the second run, then a clash after it: the line is reported.
        let mut file = text(&clash);
        let line_start = file
            .iter()
            .enumerate()
            .filter(|&(_, &byte)| byte == b'\n')
            .nth(299_999)
            .unwrap()
            .0
            + 1;
        file[line_start] = b'x';
        assert!(matches!(
            verify_stream(Cursor::new(file.clone()), Format::Text),
            Err(StreamError::MalformedLine { line: 300_001, .. })
        ));
        // A clash in the first run comes before the malformed line read ahead.
        let mut early = clash.clone();
        early[1000] = early[999] + 1;
        let mut file = text(&early);
        file[line_start] = b'x';
        assert!(matches!(
            verify_stream(Cursor::new(file), Format::Text),
            Err(StreamError::Invalid {
                error: VerifyError::Attack {
                    second_row: 1000,
                    ..
                },
                ..
            })
        ));
    }

    #[test]
    fn a_long_line_without_newline_is_refused_without_reading_it_all() {
        let error = verify_stream(Cursor::new(vec![b'7'; 3 << 20]), Format::Text).unwrap_err();
        assert!(
            matches!(error, StreamError::MalformedLine { line: 1, .. }),
            "{error}"
        );
    }

    #[test]
    fn formats_parse_back_from_their_names() {
        for format in Format::ALL {
            assert_eq!(format.to_string().parse::<Format>(), Ok(format));
        }
        assert!("U32LE".parse::<Format>().is_err());
    }

    #[test]
    fn text_accepts_a_last_line_without_newline_and_crlf() {
        assert_eq!(
            verify_stream(Cursor::new(b"1\n3\n0\n2"), Format::Text).unwrap(),
            4
        );
        assert_eq!(
            verify_stream(Cursor::new(b"1\r\n3\r\n0\r\n2\r\n"), Format::Text).unwrap(),
            4
        );
        assert_eq!(verify_stream(Cursor::new(b""), Format::Text).unwrap(), 0);
    }

    #[test]
    fn columns_iterator_is_checked_like_a_slice() {
        assert!(verify_columns([1_u32, 3, 0, 2].into_iter()).is_ok());
        let error = verify_columns([1_u32, 3, 0, 3].into_iter()).unwrap_err();
        assert!(matches!(
            error,
            StreamError::Invalid {
                error: VerifyError::Attack {
                    first_row: 1,
                    second_row: 3,
                    ..
                },
                position: Position::Line(4),
            }
        ));
    }
}
