//! [`Format`]: how a placement is stored; [`Position`]: where in it something was found.

use std::fmt;

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
    pub(super) fn of_row(format: Format, row: usize) -> Self {
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
