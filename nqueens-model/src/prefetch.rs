//! [`prefetch`]: asking for a cache line ahead of its use, where a hot loop over a random placement
//! (QS4's initialisation) knows its next addresses long before it reads them; and
//! [`advise_huge_pages`]: asking for huge pages under such a placement, so that its reads do not also
//! miss the TLB.
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

/// Asks the kernel to back `slice` with huge pages (2 MiB) where it covers whole ones; call it before
/// the memory is first written, while none of its pages is mapped yet.
///
/// QS4 reads its 40 MB placement at random, so with 4 KiB pages nearly every read also misses the
/// TLB and walks the page tables; with huge pages the placement needs twenty entries. Measured at 10⁷
/// queens on the project's machine: the search 1 % to 9 % faster over two runs of eleven interleaved
/// pairs, the whole `csp queens solve` 4 % to 10 %. Linux backs the memory with huge pages only on
/// request (`transparent_hugepage` set to `madvise`, as there) or always; elsewhere this does nothing.
pub(crate) fn advise_huge_pages<T>(slice: &mut [T]) {
    #[cfg(target_os = "linux")]
    {
        const HUGE_PAGE: usize = 2 << 20;
        let start = slice.as_mut_ptr().cast::<u8>();
        let address = start as usize;
        let bytes = std::mem::size_of_val(slice);
        let skip = address.next_multiple_of(HUGE_PAGE) - address;
        let whole = bytes.saturating_sub(skip) / HUGE_PAGE * HUGE_PAGE;
        if whole > 0 {
            #[allow(unsafe_code)]
            // SAFETY: the range `skip..skip + whole` lies inside `slice`, which this function borrows
            // mutably, and `MADV_HUGEPAGE` changes only how the kernel backs those pages, never what
            // they hold; a failure (an unsupported kernel, say) is harmless and is ignored.
            unsafe {
                libc::madvise(
                    start.add(skip).cast::<libc::c_void>(),
                    whole,
                    libc::MADV_HUGEPAGE,
                );
            }
        }
    }
}
