//! The size check every construction makes before it allocates, and the parallel builder of a
//! placement.

use rayon::prelude::*;

use super::error::ConstructError;
use super::size::{CONSTRUCT_BYTES_PER_ROW, MAX_CONSTRUCT_N, PARALLEL_ROWS};

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
/// range allocates once, at the exact size; from [`PARALLEL_ROWS`] rows on, every core
/// fills its share, which also spreads the kernel's work of mapping fresh pages.
pub(crate) fn build(
    n: usize,
    construction: &'static str,
    column: impl Fn(usize) -> u32 + Send + Sync,
) -> Result<Vec<u32>, ConstructError> {
    check_size(n, construction)?;
    Ok(if n >= PARALLEL_ROWS {
        (0..n).into_par_iter().map(column).collect()
    } else {
        (0..n).map(column).collect()
    })
}
