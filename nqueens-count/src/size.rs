//! The largest board the fast counter takes, and the check that refuses a larger one.

use crate::bitboard::MAX_N;
use crate::error::CountError;

/// The largest board the fast counter takes: one bit per column in a 32-bit word. Every count it can
/// make fits its `u128` tallies (they are below the 32-queens permutation tree's 7·10³⁵ nodes).
pub const MAX_COUNT_N: usize = MAX_N;

/// Refuses a board the counter cannot take, before anything is allocated for it.
pub(crate) fn check_size(n: usize) -> Result<(), CountError> {
    if n == 0 {
        return Err(CountError::ZeroSize);
    }
    if n > MAX_COUNT_N {
        return Err(CountError::TooLarge {
            n,
            max: MAX_COUNT_N,
        });
    }
    Ok(())
}
