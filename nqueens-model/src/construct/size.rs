//! The size check every construction makes before it allocates, and the parallel builder of a
//! placement.

use rayon::prelude::*;

use super::{ConstructError, explicit};
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

/// Refuses `n = 0` and any `n` whose placement would not fit the memory budget, before allocating.
pub(crate) fn check_size(n: usize, construction: &'static str) -> Result<(), ConstructError> {
    if n == 0 {
        return Err(ConstructError::ZeroSize);
    }
    if n > MAX_CONSTRUCT_N {
        return Err(ConstructError::TooLarge {
            construction,
            n,
            max: MAX_CONSTRUCT_N,
            bytes: (n as u64).saturating_mul(CONSTRUCT_BYTES_PER_ROW),
        });
    }
    Ok(())
}

/// The placement `column(0), column(1), …, column(n − 1)`, after [`check_size`]. Collecting a mapped
/// range allocates once, at the exact size; from [`explicit::PARALLEL_ROWS`] rows on, every core
/// fills its share, which also spreads the kernel's work of mapping fresh pages.
pub(crate) fn build(
    n: usize,
    construction: &'static str,
    column: impl Fn(usize) -> u32 + Send + Sync,
) -> Result<Vec<u32>, ConstructError> {
    check_size(n, construction)?;
    Ok(if n >= explicit::PARALLEL_ROWS {
        (0..n).into_par_iter().map(column).collect()
    } else {
        (0..n).map(column).collect()
    })
}
