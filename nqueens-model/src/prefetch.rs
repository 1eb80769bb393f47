//! [`prefetch`]: asking for a cache line ahead of its use, where a hot loop over a random placement
//! (QS4's initialisation) knows its next addresses long before it reads them.
//!
//! The verifier does not use it: on a random board of 10⁷ rows its three lines a row are misses that
//! prefetching did not make measurably cheaper (the memory system was already as busy as it gets),
//! while on the explicit construction's board of 10⁸ rows, whose lines are in the cache anyway, it made
//! the whole `csp queens solve` take 40 % more processor time.

/// Asks for the cache line holding `slice[index]`, without waiting for it; does nothing if `index` is
/// out of bounds or the target has no prefetch instruction.
#[inline(always)]
pub(crate) fn prefetch<T>(slice: &[T], index: usize) {
    if index >= slice.len() {
        return;
    }
    #[cfg(target_arch = "x86_64")]
    #[allow(unsafe_code)]
    // SAFETY: a prefetch is a hint: it never faults and returns nothing, and the address is inside
    // `slice` anyway. The intrinsic is `unsafe` only for carrying `#[target_feature(enable = "sse")]`,
    // and SSE is part of every x86-64 processor.
    unsafe {
        use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
        _mm_prefetch::<_MM_HINT_T0>(slice.as_ptr().add(index).cast());
    }
}
