//! Reading the rows of a stored placement: text lines or little-endian words, a megabyte at a time.

use std::io::{self, BufRead, BufReader, Read};

use super::error::StreamError;
use super::rows::RowSource;
use super::sizes::{BUFFER_BYTES, MAX_ROW_BYTES, MAX_VERIFY_N};

/// The number of rows of a text placement: its newlines, plus one for a last line without one.
///
/// The pass is bounded whatever the input: a line longer than any column needs ends it with an
/// error naming the line (so `/dev/zero`, one endless line, is refused at once), and so does a row
/// count above [`MAX_VERIFY_N`].
pub(super) fn count_text_rows<R: Read>(reader: &mut R) -> Result<u64, StreamError> {
    let mut buffer = vec![0_u8; BUFFER_BYTES];
    let (mut newlines, mut last) = (0_u64, b'\n');
    // Bytes since the last newline: the length so far of the line being read.
    let mut line_length = 0_u64;
    loop {
        let read = match reader.read(&mut buffer) {
            Ok(0) => break,
            Ok(read) => read,
            Err(error) if error.kind() == io::ErrorKind::Interrupted => continue,
            Err(error) => return Err(error.into()),
        };
        // Counted in blocks of 255 bytes with a byte-wide sum, which the compiler vectorises;
        // `filter().count()` went a byte at a time.
        for block in buffer[..read].chunks(255) {
            let in_block: u8 = block.iter().map(|&byte| u8::from(byte == b'\n')).sum();
            if in_block == 0 {
                line_length += block.len() as u64;
            } else {
                newlines += u64::from(in_block);
                let after_last = block
                    .iter()
                    .rev()
                    .take_while(|&&byte| byte != b'\n')
                    .count();
                line_length = after_last as u64;
            }
            if line_length > MAX_PARTIAL_LINE {
                return Err(StreamError::MalformedLine {
                    line: newlines + 1,
                    reason: format!(
                        "the line is longer than {MAX_PARTIAL_LINE} bytes, expected a column number"
                    ),
                });
            }
        }
        if newlines > MAX_VERIFY_N as u64 {
            return Err(StreamError::TooLarge {
                n: newlines,
                max: MAX_VERIFY_N,
            });
        }
        last = buffer[read - 1];
    }
    Ok(newlines + u64::from(last != b'\n'))
}

/// The columns of a text placement, one per line.
pub(super) struct TextRows<R> {
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
    pub(super) fn new(reader: R) -> Self {
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
pub(super) struct U32LeRows<R> {
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
    pub(super) fn new(reader: R) -> Self {
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
