//! The 64-bit Fowler–Noll–Vo hash, FNV-1a: the plan's digest and the checkpoints' checksum.
//!
//! Each step is `hash = (hash ^ byte) · prime`, a bijection of the state for a given byte, so two
//! inputs that differ in a single byte always hash differently: an accidental edit of a checkpoint is
//! always caught, and several edits escape only with odds of about 2⁻⁶⁴. (It is no defence against
//! a deliberate forgery, which can recompute it.) Stable across machines and versions of Rust.

/// The 64-bit Fowler–Noll–Vo hash, FNV-1a.
pub(crate) struct Fnv(u64);

impl Fnv {
    /// The hash of nothing (FNV's offset basis).
    pub(crate) fn new() -> Self {
        Fnv(0xcbf2_9ce4_8422_2325)
    }

    /// Folds `bytes` in.
    pub(crate) fn bytes(&mut self, bytes: &[u8]) {
        for &byte in bytes {
            self.0 ^= u64::from(byte);
            self.0 = self.0.wrapping_mul(0x0000_0100_0000_01b3);
        }
    }

    /// The hash so far.
    pub(crate) fn finish(&self) -> u64 {
        self.0
    }
}
