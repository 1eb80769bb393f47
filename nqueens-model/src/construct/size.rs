//! The size check every construction makes before it allocates, and the parallel builder of a
//! placement.

use rayon::prelude::*;

use super::{ConstructError, explicit};
use crate::MEMORY_BUDGET_BYTES;

/// The largest board a construction builds in memory: a placement of `n` columns takes `4n` bytes,
/// and [`MEMORY_BUDGET_BYTES`] (4 GiB) allows 2³⁰ = 1,073,741,824 of them. [`ExplicitColumns`](super::ExplicitColumns) streams
/// larger boards, up to [`MAX_STREAM_N`](super::MAX_STREAM_N), without holding them.
pub const MAX_CONSTRUCT_N: usize = (MEMORY_BUDGET_BYTES / 4) as usize;

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
            bytes: (n as u64).saturating_mul(4),
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
