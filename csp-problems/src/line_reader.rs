//! Reading text a line at a time with bounded memory: the one reader behind the Sudoku and DIMACS
//! parsers.
//!
//! A line longer than its cap is an error naming the line, found after reading at most the cap (so
//! an endless line, such as `/dev/zero`, is refused at once); text that is not UTF-8 is an error
//! naming its line; and nothing before the current line is kept. So a reader's memory is its
//! buffer and one line, whatever it is given, and an endless input is processed as it arrives.

use std::io::{self, BufRead};

use thiserror::Error;

/// The longest line the parsers take: far more than a puzzle with its note, or any DIMACS line.
pub const MAX_LINE_BYTES: usize = 64 << 10;

/// Why a line could not be read.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum ReadError {
    /// Reading failed (the system's message: errors that compare and clone are what the parsers'
    /// errors need).
    #[error("cannot read the input: {0}")]
    Io(String),
    /// A line longer than the cap.
    #[error("line {line}: longer than {max} bytes")]
    TooLong {
        /// The line, from 1.
        line: usize,
        /// The cap.
        max: usize,
    },
    /// A line that is not UTF-8 text.
    #[error("line {line}: not valid UTF-8 text")]
    NotUtf8 {
        /// The line, from 1.
        line: usize,
    },
}

impl From<io::Error> for ReadError {
    fn from(error: io::Error) -> Self {
        ReadError::Io(error.to_string())
    }
}

impl ReadError {
    /// The line the error is on, if it is on one.
    pub fn line(&self) -> Option<usize> {
        match self {
            ReadError::Io(_) => None,
            ReadError::TooLong { line, .. } | ReadError::NotUtf8 { line } => Some(*line),
        }
    }
}

/// The lines of a reader, numbered from 1, each without its `\n` (or `\r\n`), each at most `max`
/// bytes. A byte-order mark at the start is skipped.
#[derive(Debug)]
pub struct LineReader<R> {
    reader: R,
    max: usize,
    line: usize,
    buffer: Vec<u8>,
    done: bool,
}

impl<R: BufRead> LineReader<R> {
    /// The lines of `reader`, at most `max` bytes each.
    pub fn new(reader: R, max: usize) -> Self {
        LineReader {
            reader,
            max,
            line: 0,
            buffer: Vec::new(),
            done: false,
        }
    }

    /// The next line and its number, `None` at the end. After an error the lines end.
    pub fn next_line(&mut self) -> Option<Result<(usize, &str), ReadError>> {
        if self.done {
            return None;
        }
        match self.read_line() {
            Ok(true) => {
                let text = std::str::from_utf8(&self.buffer).map_err(|_| {
                    self.done = true;
                    ReadError::NotUtf8 { line: self.line }
                });
                Some(text.map(|text| (self.line, text)))
            }
            Ok(false) => {
                self.done = true;
                None
            }
            Err(error) => {
                self.done = true;
                Some(Err(error))
            }
        }
    }

    /// Reads the next line into the buffer; `false` at the end of the input.
    fn read_line(&mut self) -> Result<bool, ReadError> {
        self.buffer.clear();
        // One byte more than the cap, to tell a line of exactly `max` bytes and its newline from a
        // longer one.
        let limit = self.max as u64 + 2;
        let read = io::Read::take(&mut self.reader, limit).read_until(b'\n', &mut self.buffer)?;
        if read == 0 {
            return Ok(false);
        }
        self.line += 1;
        if self.buffer.last() == Some(&b'\n') {
            self.buffer.pop();
            if self.buffer.last() == Some(&b'\r') {
                self.buffer.pop();
            }
        }
        if self.buffer.len() > self.max {
            return Err(ReadError::TooLong {
                line: self.line,
                max: self.max,
            });
        }
        if self.line == 1 && self.buffer.starts_with("\u{feff}".as_bytes()) {
            self.buffer.drain(..3);
        }
        Ok(true)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn all(text: &[u8], max: usize) -> Vec<Result<(usize, String), String>> {
        let mut lines = LineReader::new(text, max);
        let mut out = Vec::new();
        while let Some(line) = lines.next_line() {
            out.push(
                line.map(|(n, text)| (n, text.to_owned()))
                    .map_err(|e| e.to_string()),
            );
        }
        out
    }

    #[test]
    fn lines_are_numbered_and_cut_at_newlines() {
        assert_eq!(
            all(b"\xef\xbb\xbfa\r\nbb\n\nc", 8),
            vec![
                Ok((1, "a".to_owned())),
                Ok((2, "bb".to_owned())),
                Ok((3, String::new())),
                Ok((4, "c".to_owned())),
            ]
        );
    }

    #[test]
    fn a_long_line_and_bad_utf8_name_their_line_and_end_the_lines() {
        assert_eq!(
            all(b"1234\n12345\nx\n", 4)[1],
            Err("line 2: longer than 4 bytes".to_owned())
        );
        assert_eq!(all(b"1234\n12345\nx\n", 4).len(), 2);
        assert_eq!(
            all(b"ok\n\xff\n", 4)[1],
            Err("line 2: not valid UTF-8 text".to_owned())
        );
    }

    #[test]
    fn an_endless_line_is_refused_after_the_cap() {
        let endless = io::repeat(b'0');
        let mut lines = LineReader::new(io::BufReader::new(endless), 100);
        assert!(matches!(
            lines.next_line(),
            Some(Err(ReadError::TooLong { line: 1, max: 100 }))
        ));
        assert!(lines.next_line().is_none());
    }
}
