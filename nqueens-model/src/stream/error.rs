//! [`StreamError`]: why a stored placement was rejected.

use std::io;

use thiserror::Error;

use super::Position;
use crate::VerifyError;

/// Why [`verify_stream`](super::verify_stream) or [`verify_columns`](super::verify_columns) rejected a placement.
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
    /// The placement has no rows: an empty file is no board, and reporting it as a solution of 0
    /// queens would let a failed write pass for a good one.
    #[error("the placement is empty (0 rows): no board to check")]
    Empty,
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
        /// [`MAX_VERIFY_N`](super::MAX_VERIFY_N).
        max: usize,
    },
    /// A different number of columns than announced ([`verify_columns`](super::verify_columns), or a text file that changed
    /// between the two passes of [`verify_stream`](super::verify_stream)).
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
