//! How large a board a construction builds: the memory a row takes, the largest board, and the
//! size from which a board is filled on all cores. (The check and the builder are in `build.rs`.)

use crate::MEMORY_BUDGET_BYTES;

/// The most memory a board built in memory takes at its peak, per row: the placement (4 bytes a row)
/// and, while it is checked (every answer is, by `verify`), the verifier's bits for the occupied
/// columns and diagonals (5 bits a row), rounded up to a whole byte. Measured peaks are 4.6 to 4.85
/// bytes a row at n = 2·10⁷ for every construction (none holds a board twice).
pub const CONSTRUCT_BYTES_PER_ROW: u64 = 5;

/// The largest board a construction builds in memory: the last `n` whose peak,
/// [`CONSTRUCT_BYTES_PER_ROW`] bytes a row, fits [`MEMORY_BUDGET_BYTES`] (4 GiB): 858,993,459 rows.
/// [`ExplicitColumns`](super::ExplicitColumns) streams larger boards, up to
/// [`MAX_STREAM_N`](super::MAX_STREAM_N), without holding them.
pub const MAX_CONSTRUCT_N: usize = (MEMORY_BUDGET_BYTES / CONSTRUCT_BYTES_PER_ROW) as usize;

/// Rows from which the explicit construction and `build` fill a placement on all cores: below
/// it, handing work to other threads costs more than it saves.
pub(crate) const PARALLEL_ROWS: usize = 1 << 20;
