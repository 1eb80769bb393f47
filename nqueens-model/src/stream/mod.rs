//! Placements too large to hold: written to any [`Write`](std::io::Write) as they are produced, and verified from any
//! [`Read`](std::io::Read) + [`Seek`](std::io::Seek) in O(n) time with about 5n bits of memory.
//!
//! Two formats ([`Format`]): `text`, one 0-based column per line in decimal, each line ending in `\n`;
//! and `u32le`, four little-endian bytes per row and nothing else. A billion rows take about 9.9 GB as
//! text and 4 GB as `u32le`.
//!
//! This file is the table: it declares the modules and re-exports, and defines nothing they use.
//! `sizes` (the bounds and buffer sizes), `format` and `error` are leaves; `rows` checks rows from
//! any source; `read` is the sources reading a file; `verify` and `write` are the entry points.
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

mod error;
mod format;
mod read;
mod rows;
mod sizes;
mod verify;
mod write;

#[cfg(test)]
mod tests;

pub use error::StreamError;
pub use format::{Format, Position};
pub use sizes::MAX_VERIFY_N;
pub use verify::{verify_columns, verify_stream};
pub use write::write_placement;
