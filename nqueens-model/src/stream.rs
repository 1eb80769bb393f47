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
use std::str::FromStr;

use thiserror::Error;

use crate::verify::{OccupiedLines, attack_between};
use crate::{AttackKind, VerifyError};

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

impl Format {
    /// Every format, in the order messages list them.
    pub const ALL: [Format; 2] = [Format::Text, Format::U32Le];

    /// The name [`Display`](fmt::Display) prints and [`FromStr`] reads.
    pub const fn name(self) -> &'static str {
        match self {
            Format::Text => "text",
            Format::U32Le => "u32le",
        }
    }
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A string that names no [`Format`].
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("unknown format `{input}`; expected one of: text, u32le")]
pub struct ParseFormatError {
    /// The string that was given.
    pub input: String,
}

impl FromStr for Format {
    type Err = ParseFormatError;

    /// Reads a format's [`name`](Format::name).
    fn from_str(input: &str) -> Result<Self, Self::Err> {
        Format::ALL
            .into_iter()
            .find(|format| format.name() == input)
            .ok_or_else(|| ParseFormatError {
                input: input.to_owned(),
            })
    }
}

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
    // One loop per format, so that the hot loop does not ask which format it writes at every row.
    let rows = match format {
        Format::Text => fill_and_write(&mut writer, &mut buffer, columns, put_decimal_line)?,
        Format::U32Le => fill_and_write(&mut writer, &mut buffer, columns, |out, column| {
            out[..4].copy_from_slice(&column.to_le_bytes());
            4
        })?,
    };
    writer.flush()?;
    Ok(rows)
}

/// The longest row in any format: ten digits and a newline.
const MAX_ROW_BYTES: usize = 11;

/// Encodes every column with `put` (which writes one row at the start of an 11-byte slot and returns
/// its length) into `buffer`, writing the buffer out whenever it could not take another row.
fn fill_and_write<W: Write>(
    writer: &mut W,
    buffer: &mut [u8],
    columns: impl IntoIterator<Item = u32>,
    put: impl Fn(&mut [u8; MAX_ROW_BYTES], u32) -> usize,
) -> io::Result<u64> {
    let mut rows = 0_u64;
    let mut used = 0;
    for column in columns {
        if used + MAX_ROW_BYTES > buffer.len() {
            writer.write_all(&buffer[..used])?;
            used = 0;
        }
        // The buffer holds at least one slot after the flush above, so the slot always exists.
        if let Some(slot) = buffer
            .get_mut(used..used + MAX_ROW_BYTES)
            .and_then(|slot| <&mut [u8; MAX_ROW_BYTES]>::try_from(slot).ok())
        {
            used += put(slot, column);
        }
        rows += 1;
    }
    writer.write_all(&buffer[..used])?;
    Ok(rows)
}

/// The two-digit strings "00" to "99", so that a column is formatted two digits per division.
const DIGIT_PAIRS: &[u8; 200] = b"\
    0001020304050607080910111213141516171819\
    2021222324252627282930313233343536373839\
    4041424344454647484950515253545556575859\
    6061626364656667686970717273747576777879\
    8081828384858687888990919293949596979899";

/// Writes `value` in decimal and a newline at the start of `out`, and returns the bytes written:
/// `core::fmt` would cost several times as much per row.
#[inline]
fn put_decimal_line(out: &mut [u8; MAX_ROW_BYTES], value: u32) -> usize {
    let digits = value.checked_ilog10().unwrap_or(0) as usize + 1;
    out[digits] = b'\n';
    let (mut value, mut end) = (value, digits);
    while value >= 100 {
        let pair = (value % 100) as usize * 2;
        value /= 100;
        out[end - 2..end].copy_from_slice(&DIGIT_PAIRS[pair..pair + 2]);
        end -= 2;
    }
    if value >= 10 {
        let pair = value as usize * 2;
        out[end - 2..end].copy_from_slice(&DIGIT_PAIRS[pair..pair + 2]);
    } else {
        out[end - 1] = b'0' + value as u8;
    }
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
    let buffered = BufReader::with_capacity(BUFFER_BYTES, &mut reader);
    // One monomorphic loop per format: a boxed iterator would cost a dynamic call per row.
    let found = match format {
        Format::Text => first_bad_row(n, TextRows::new(buffered))?,
        Format::U32Le => first_bad_row(n, U32LeRows { reader: buffered })?,
    };
    let Some((row, column, out_of_range)) = found else {
        return Ok(n);
    };
    let error = if out_of_range {
        VerifyError::ColumnOutOfRange { row, column, n }
    } else {
        reader.seek(SeekFrom::Start(0))?;
        let buffered = BufReader::with_capacity(BUFFER_BYTES, &mut reader);
        match format {
            Format::Text => name_attacker(row, column, TextRows::new(buffered))?,
            Format::U32Le => name_attacker(row, column, U32LeRows { reader: buffered })?,
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
    let found = first_bad_row(n, columns.clone().map(Ok))?;
    let Some((row, column, out_of_range)) = found else {
        return Ok(());
    };
    let error = if out_of_range {
        VerifyError::ColumnOutOfRange { row, column, n }
    } else {
        name_attacker(row, column, columns.map(Ok))?
    };
    Err(StreamError::Invalid {
        error,
        position: Position::of_row(Format::Text, row),
    })
}

/// The first row whose column is off the board (`true`) or attacked by an earlier row (`false`),
/// with its column; `None` if the `n` rows form a solution.
fn first_bad_row(
    n: usize,
    rows: impl Iterator<Item = Result<u32, StreamError>>,
) -> Result<Option<(usize, u32, bool)>, StreamError> {
    // The same sets of occupied columns and diagonals as `verify` keeps: 5n − 2 bits.
    let mut lines = OccupiedLines::new(n);
    let mut found_rows = 0_usize;
    for (row, column) in rows.enumerate() {
        let column = column?;
        found_rows = row + 1;
        if row >= n {
            break;
        }
        if column as usize >= n {
            return Ok(Some((row, column, true)));
        }
        if !lines.occupy(row, column) {
            return Ok(Some((row, column, false)));
        }
    }
    if found_rows != n {
        return Err(StreamError::LengthMismatch {
            expected: n as u64,
            found: found_rows as u64,
        });
    }
    Ok(None)
}

/// The attack on `row` (in `column`) by the earliest earlier row, read again from `rows`.
fn name_attacker(
    row: usize,
    column: u32,
    rows: impl Iterator<Item = Result<u32, StreamError>>,
) -> Result<VerifyError, StreamError> {
    for (earlier, earlier_column) in rows.take(row).enumerate() {
        let earlier_column = earlier_column?;
        if let Some(kind) = attack_between(earlier, earlier_column, row, column) {
            return Ok(attack(earlier, earlier_column, row, column, kind));
        }
    }
    // The first pass saw an occupied line, so the second finds its queen unless the input changed
    // between the passes.
    Err(StreamError::LengthMismatch {
        expected: row as u64,
        found: 0,
    })
}

/// A [`VerifyError::Attack`].
fn attack(
    first_row: usize,
    first_column: u32,
    row: usize,
    column: u32,
    kind: AttackKind,
) -> VerifyError {
    VerifyError::Attack {
        first_row,
        second_row: row,
        first_column,
        second_column: column,
        kind,
    }
}

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
        newlines += buffer[..read].iter().filter(|&&byte| byte == b'\n').count() as u64;
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
}

/// The longest line gathered across a buffer boundary: far more than any column needs (ten digits
/// and `\r\n`), and small enough that a file without newlines cannot fill memory.
const MAX_PARTIAL_LINE: u64 = 64;

impl<R: Read> TextRows<R> {
    /// The rows from the reader's position, which is the start of line 1.
    fn new(reader: BufReader<R>) -> Self {
        TextRows {
            reader,
            line: 0,
            partial: Vec::with_capacity(MAX_PARTIAL_LINE as usize),
        }
    }

    /// The next line's column, or `None` at the end.
    fn next_row(&mut self) -> Result<Option<u32>, StreamError> {
        let line = self.line + 1;
        let buffer = self.reader.fill_buf()?;
        // The common case: the whole line, newline included, is in the buffer.
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

impl<R: Read> Iterator for TextRows<R> {
    type Item = Result<u32, StreamError>;

    fn next(&mut self) -> Option<Self::Item> {
        self.next_row().transpose()
    }
}

/// The columns of a `u32le` placement, four bytes each.
struct U32LeRows<R> {
    reader: BufReader<R>,
}

impl<R: Read> Iterator for U32LeRows<R> {
    type Item = Result<u32, StreamError>;

    fn next(&mut self) -> Option<Self::Item> {
        let mut bytes = [0_u8; 4];
        match self.reader.read_exact(&mut bytes) {
            Ok(()) => Some(Ok(u32::from_le_bytes(bytes))),
            // The length was checked to be a multiple of 4, so the end falls between rows.
            Err(error) if error.kind() == io::ErrorKind::UnexpectedEof => None,
            Err(error) => Some(Err(error.into())),
        }
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
            let mut reader = Cursor::new(file);
            let buffered = BufReader::with_capacity(BUFFER_BYTES, &mut reader);
            let read: Vec<u32> = match format {
                Format::Text => TextRows::new(buffered).map(Result::unwrap).collect(),
                Format::U32Le => U32LeRows { reader: buffered }.map(Result::unwrap).collect(),
            };
            assert_eq!(read, columns, "{format}");
        }
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
