//! [`LocalMethod`]: the solvers by name, and the memory each needs. (Running one by name is in
//! `race.rs`, refusing a board in `error.rs`, so that the solvers, which name themselves, and this
//! table import one way.)

use crate::MEMORY_BUDGET_BYTES;

/// The solvers of this module, for callers that choose one at run time (the CLI's `--method`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum LocalMethod {
    /// [`qs1`](super::qs1).
    Qs1,
    /// [`qs4`](super::qs4).
    Qs4,
    /// [`las_vegas1`](super::las_vegas1).
    LasVegas1,
    /// [`las_vegas2`](super::las_vegas2).
    LasVegas2,
    /// [`min_conflicts`](super::min_conflicts): `csp-local` on the counters model.
    MinConflicts,
}

impl LocalMethod {
    /// The most memory, in bytes, one run on an `n`-queens board can take, saturating at `u64::MAX`.
    ///
    /// Every method holds the placement (4 bytes a row) and a few sets indexed by line; the estimate
    /// adds [`FIXED_BYTES`] for everything whose size does not grow with `n` (QS4's short list of
    /// conflicting queens, the generator, the report). Per queen, for large `n`:
    /// - QS1: the placement and a `u32` counter for each of the `2·(2n − 1)` diagonals: 20 bytes;
    /// - QS4: the placement and one bit per diagonal (its counts above one live in a small map whose
    ///   size is bounded by the initial collisions, see `qs4.rs`): 4.5 bytes;
    /// - Las Vegas One: the placement and a byte per diagonal: 8 bytes;
    /// - Las Vegas Two: the placement, a bit per column and per diagonal, and a scratch row of bits:
    ///   about 4.8 bytes;
    /// - min-conflicts: the counters model and one run over it, [`crate::LOCAL_SEARCH_BYTES_PER_ROW`].
    pub const fn required_bytes(self, n: usize) -> u64 {
        // u128 keeps every product exact for any usize n; the result saturates below.
        let n = n as u128;
        let placement = 4 * n;
        let diagonal_bits = 2 * bitset_bytes(2 * n);
        let total = match self {
            LocalMethod::Qs1 => placement + 2 * 4 * (2 * n),
            LocalMethod::Qs4 => placement + diagonal_bits,
            LocalMethod::LasVegas1 => placement + 2 * (2 * n),
            LocalMethod::LasVegas2 => placement + diagonal_bits + 2 * bitset_bytes(n),
            LocalMethod::MinConflicts => n * crate::LOCAL_SEARCH_BYTES_PER_ROW as u128,
        } + FIXED_BYTES as u128;
        if total > u64::MAX as u128 {
            u64::MAX
        } else {
            total as u64
        }
    }

    /// The largest board one run of the method accepts: the last `n` whose
    /// [`required_bytes`](Self::required_bytes) fits [`MEMORY_BUDGET_BYTES`]. Because every method
    /// needs at least 4 bytes a row, it is below `2^30`, so rows, columns and diagonals fit in `u32`.
    pub const fn max_n(self) -> usize {
        // A binary search: the estimate grows with n, and 2^30 rows already need 4 GiB.
        let (mut within, mut beyond) = (1_usize, 1_usize << 30);
        while beyond - within > 1 {
            let middle = within + (beyond - within) / 2;
            if self.required_bytes(middle) <= MEMORY_BUDGET_BYTES {
                within = middle;
            } else {
                beyond = middle;
            }
        }
        within
    }
}

named_enum!(
    LocalMethod,
    "local-search method",
    [
        Qs1 => "qs1",
        Qs4 => "qs4",
        MinConflicts => "min-conflicts",
        LasVegas1 => "las-vegas1",
        LasVegas2 => "las-vegas2",
    ]
);

/// Bytes counted once per run whatever `n` is: QS4's list of conflicting queens and its map of
/// diagonal counts above one (both bounded by a constant, see `qs4.rs`), the generator, the report and
/// the allocator's overhead, rounded up generously.
pub const FIXED_BYTES: u64 = 1 << 20;

/// Bytes of a bit set over `bits` elements: whole 64-bit words, plus the spare word that lets
/// [`diagonals::BitSet::window`] read past the last one.
const fn bitset_bytes(bits: u128) -> u128 {
    (bits.div_ceil(64) + 1) * 8
}
