//! The sizes of the rows of kept lines (see [`crate::lines`]), bit-sliced 64 rows to a block: plane
//! `p` of a block holds bit `p` of the size of each of its 64 rows, one row a bit, complemented
//! (`!size`, so that taking squares, the common move, adds to what is held, and an adder's carry
//! costs one operation a plane where a subtractor's borrow costs two). A placement takes
//! up to three squares from every unassigned row, so one row at a time a descent of `n` queens
//! writes `n²/2` sizes; sliced, a block of 64 rows takes its counts as two words (a carry-save
//! count) and moves all 64 sizes with a handful of word operations.
//!
//! Each block also keeps a lower bound on the smallest size among its unassigned rows, so that
//! the fewest-choices rule (Stone & Stone's MIN) finds the smallest row by reading exactly only
//! the blocks whose bound reaches the best size found, not all `n` sizes: a placement lowers a
//! block's bound by at most the most squares it takes from one of its rows (three), and finding a
//! block's exact minimum raises it again.

use std::cell::Cell;

use wide::u64x4;

/// How many planes [`RowSizes::move_squares`] carries through before it looks whether any carry is
/// left (see there).
const EAGER_PLANES: usize = 10;

/// How many blocks keep their planes interleaved (see [`RowSizes::index`]): a sweep moves a
/// group's sizes with each plane's `GROUP` words at once, as one vector operation where the target
/// has registers that wide: two of 128 bits on the portable x86-64 target, one of 256 where the
/// crate is compiled for AVX2 (`-C target-cpu=native` on such a processor: the search of 10⁵
/// queens 1.25× faster). `wide` chooses at compile time, so a clone chosen at run time
/// (`multiversion`) still compiles to 128-bit operations, and plain `[u64; 4]` lanes compiled for
/// AVX2 were slower than these.
pub(crate) const GROUP: usize = 4;

/// A word of each block of a group, moved as one vector.
pub(crate) type GroupWords = u64x4;

/// The `GROUP` words from `words[at..]` as one vector.
#[inline(always)]
pub(crate) fn load_group(words: &[u64], at: usize) -> GroupWords {
    let words: [u64; GROUP] = words[at..at + GROUP]
        .try_into()
        .expect("a slice of GROUP words");
    GroupWords::from(words)
}

/// The sizes of `rows` rows, bit-sliced by blocks of 64 rows (see the module's documentation).
#[derive(Debug, Clone, Default)]
pub(crate) struct RowSizes {
    /// How many bit planes a block has: enough for the largest size, `columns`.
    bits: usize,
    /// The size every row has at the root.
    columns: u32,
    /// Block `b`'s planes are `planes[b * bits..(b + 1) * bits]`, least significant first, each
    /// bit the complement of a size's.
    planes: Vec<u64>,
    /// For each block, at most the smallest size among its unassigned rows (`u32::MAX` when the
    /// block was last found to have none). Cells, because finding the minimum (a read of the store)
    /// tightens them.
    low: Vec<Cell<u32>>,
}

/// The smallest size among the rows of a block's `candidates` (bit `i` for the block's row `i`),
/// its `bits` planes being `plane(p)`, and which of them have it. `candidates` must not be empty.
#[inline(always)]
fn minimum_of(plane: impl Fn(usize) -> u64, bits: usize, candidates: u64) -> (u32, u64) {
    let (mut most, mut tied) = (0, candidates);
    // The largest complement, from the most significant plane down: where some candidate has a
    // one, only those with a one stay and the largest has it too.
    // Without a branch: whether a plane narrows the candidates is a coin toss the predictor
    // cannot learn.
    for p in (0..bits).rev() {
        let ones = tied & plane(p);
        let narrows = ones != 0;
        tied = if narrows { ones } else { tied };
        most |= u32::from(narrows) << p;
    }
    (most ^ low_bits(bits), tied)
}

/// The lowest `bits` bits set: the complement of a size of `bits` bits is `size ^ low_bits(bits)`.
#[inline(always)]
fn low_bits(bits: usize) -> u32 {
    if bits >= 32 { !0 } else { (1 << bits) - 1 }
}

impl RowSizes {
    /// `rows` rows of `columns` squares each, every square free.
    pub(crate) fn new(rows: usize, columns: usize) -> Self {
        let columns = u32::try_from(columns).expect("a rule's columns fit in u32");
        let bits = (u32::BITS - columns.leading_zeros()).max(1) as usize;
        let blocks = rows.div_ceil(64);
        let mut sizes = RowSizes {
            bits,
            columns,
            planes: vec![0; blocks.div_ceil(GROUP) * bits * GROUP],
            low: vec![Cell::new(columns); blocks],
        };
        sizes.clear();
        sizes
    }

    /// Every row back to its root size, `columns`.
    pub(crate) fn clear(&mut self) {
        let (bits, columns) = (self.bits, self.columns);
        for (i, plane) in self.planes.iter_mut().enumerate() {
            let p = i / GROUP % bits;
            *plane = if columns >> p & 1 == 1 { 0 } else { !0 };
        }
        for low in &self.low {
            low.set(columns);
        }
    }

    /// Where plane `p` of block `block` lies: blocks are kept [`GROUP`] to a group, the group's
    /// planes interleaved (plane 0 of each, then plane 1 of each, …), so that a sweep moves a
    /// group's sizes with each run of `GROUP` words ([`RowSizes::move_group`]).
    #[inline(always)]
    fn index(&self, block: usize, p: usize) -> usize {
        ((block / GROUP) * self.bits + p) * GROUP + block % GROUP
    }

    /// Row `row`'s size.
    #[inline]
    pub(crate) fn get(&self, row: usize) -> u64 {
        let (block, lane) = (row / 64, row % 64);
        let complement = (0..self.bits).fold(0, |bits, p| {
            bits | (self.planes[self.index(block, p)] >> lane & 1) << p
        });
        complement ^ u64::from(low_bits(self.bits))
    }

    /// Takes (`TAKE`) or puts back one square from each row of `ones` and two more from each row
    /// of `twos` in block `block` (bit `i` for its row `i`); answers whether taking left one of those
    /// rows empty. A row never loses more squares than it has.
    #[inline]
    pub(crate) fn move_squares<const TAKE: bool>(
        &mut self,
        block: usize,
        ones: u64,
        twos: u64,
    ) -> bool {
        let (mut group_ones, mut group_twos) = ([0; GROUP], [0; GROUP]);
        group_ones[block % GROUP] = ones;
        group_twos[block % GROUP] = twos;
        self.move_group::<TAKE>(
            block / GROUP,
            GroupWords::from(group_ones),
            GroupWords::from(group_twos),
        )
    }

    /// [`RowSizes::move_squares`] for the [`GROUP`] blocks of group `group` at once (lane `i` for
    /// block `GROUP · group + i`): each plane's words move as one vector.
    #[inline(always)]
    pub(crate) fn move_group<const TAKE: bool>(
        &mut self,
        group: usize,
        ones: GroupWords,
        twos: GroupWords,
    ) -> bool {
        let zero = GroupWords::ZERO;
        if (ones | twos) == zero {
            return false;
        }
        let bits = self.bits;
        let planes = &mut self.planes[group * bits * GROUP..(group + 1) * bits * GROUP];
        let (ones_words, twos_words) = (ones.to_array(), twos.to_array());
        if TAKE {
            for lane in 0..GROUP {
                if let Some(low) = self.low.get(group * GROUP + lane) {
                    // A row of the block loses at most this many squares, so its smallest size
                    // at most this (a bound, without a branch: three where one row loses one and
                    // another two).
                    let most =
                        u32::from(ones_words[lane] != 0) + 2 * u32::from(twos_words[lane] != 0);
                    low.set(low.get().saturating_sub(most));
                }
            }
        }
        let store = |planes: &mut [u64], p: usize, words: GroupWords| {
            planes[p * GROUP..(p + 1) * GROUP].copy_from_slice(&words.to_array());
        };
        // Taking, a carry comes from a plane's bit that was set (the complements grow); putting
        // back, a borrow from one that was clear.
        let from = |old: GroupWords| if TAKE { old } else { !old };
        // A ripple adder (taking: the complements grow) or subtractor of 64 lanes: the count's two
        // bits into planes 0 and 1, then the carries (borrows) on through the higher planes.
        let old = load_group(planes, 0);
        store(planes, 0, old ^ ones);
        let mut carry = from(old) & ones;
        if bits > 1 {
            let old = load_group(planes, GROUP);
            store(planes, 1, old ^ twos ^ carry);
            carry = (from(old) & (twos | carry)) | (twos & carry);
        } else {
            carry |= twos;
        }
        // Through the next planes whatever the carries, then on only while one is left: a count
        // of three moves a size's bit `p` about once in `2^p / 3` placements, so past the first ten
        // planes a block's carries have nearly always died out, and a loop that stopped as soon as
        // they did was mispredicted at every block.
        let ripple = |planes: &mut [u64], planes_range: std::ops::Range<usize>, mut carry| {
            for p in planes_range {
                let old = load_group(planes, p * GROUP);
                store(planes, p, old ^ carry);
                carry &= from(old);
            }
            carry
        };
        let eager = EAGER_PLANES.min(bits);
        carry = if eager == EAGER_PLANES {
            // A fixed number of planes: unrolled.
            ripple(planes, 2..EAGER_PLANES, carry)
        } else {
            ripple(planes, bits.min(2)..eager, carry)
        };
        if carry != zero {
            carry = ripple(planes, eager..bits, carry);
        }
        debug_assert!(carry == zero, "a row's size stays within 0..=columns");
        // Only a row that was that small can have emptied: its complement is all ones.
        let moved = (ones | twos).to_array();
        TAKE && (0..GROUP).any(|lane| {
            self.low
                .get(group * GROUP + lane)
                .is_some_and(|low| low.get() == 0)
                && {
                    let all = (0..bits).fold(!0, |all, p| all & planes[GROUP * p + lane]);
                    moved[lane] & all != 0
                }
        })
    }

    /// Row `row`, just unassigned with its size as it was when assigned, counts for its block's
    /// bound again.
    #[inline]
    pub(crate) fn readmit(&self, row: usize) {
        let low = &self.low[row / 64];
        low.set(low.get().min(self.get(row) as u32));
    }

    /// The smallest size among rows `unassigned(block)` (bit `i` for the block's row `i`), over every
    /// block, and the rows that have it, handed to `tied` as `(block, rows, first)` in block order,
    /// `first` when the rows before were larger after all (the caller starts again). `None` when
    /// no row is unassigned.
    pub(crate) fn fewest(
        &self,
        unassigned: impl Fn(usize) -> u64,
        mut tied: impl FnMut(usize, u64, bool),
    ) -> Option<u32> {
        // A first guess: the block of the smallest bound, read exactly, so that the pass below
        // skips every block whose bound lies above what is already found.
        // Two plain passes (the least bound, then where it is) rather than one comparing pairs:
        // the first compiles to a loop without branches.
        let least = self.low.iter().map(Cell::get).min()?;
        let start = self.low.iter().position(|low| low.get() == least)?;
        let mut best = u32::MAX;
        if let Some((min, _)) = self.exact(start, unassigned(start)) {
            best = min;
        }
        for (block, low) in self.low.iter().enumerate() {
            if low.get() > best {
                continue;
            }
            let Some((min, rows)) = self.exact(block, unassigned(block)) else {
                continue;
            };
            if min <= best {
                tied(block, rows, min < best);
                best = min;
            }
        }
        (best != u32::MAX).then_some(best)
    }

    /// Block `block`'s smallest size among `rows` and the rows that have it, now its bound; `None`
    /// (and a bound no size reaches) when `rows` is empty.
    #[inline]
    fn exact(&self, block: usize, rows: u64) -> Option<(u32, u64)> {
        if rows == 0 {
            self.low[block].set(u32::MAX);
            return None;
        }
        let (min, tied) = minimum_of(|p| self.planes[self.index(block, p)], self.bits, rows);
        self.low[block].set(min);
        Some((min, tied))
    }
}

#[cfg(test)]
mod tests {
    use rand::RngExt;

    use super::*;
    use crate::rng_for;

    /// Random takes and returns against plain sizes; the minimum and its rows against a scan.
    #[test]
    fn sliced_sizes_move_and_find_the_minimum_as_plain_ones() {
        let mut rng = rng_for(11, 0);
        for &(rows, columns) in &[
            (1, 1),
            (5, 3),
            (64, 64),
            (130, 100),
            (200, 7),
            (70, 1 << 20),
        ] {
            let mut sliced = RowSizes::new(rows, columns);
            let mut plain = vec![columns as u64; rows];
            let mut history: Vec<(usize, u64, u64)> = Vec::new();
            for _ in 0..2000 {
                let unassigned = |block: usize| {
                    let live = (rows - block * 64).min(64);
                    if live == 64 { !0 } else { (1u64 << live) - 1 }
                };
                if rng.random_range(0..3) == 0
                    && let Some((block, ones, twos)) = history.pop()
                {
                    sliced.move_squares::<false>(block, ones, twos);
                    for lane in 0..64 {
                        let count = (ones >> lane & 1) + 2 * (twos >> lane & 1);
                        if count > 0 {
                            plain[block * 64 + lane] += count;
                            sliced.readmit(block * 64 + lane);
                        }
                    }
                } else {
                    let block = rng.random_range(0..rows.div_ceil(64));
                    let (mut ones, mut twos) = (0, 0);
                    for lane in 0..(rows - block * 64).min(64) {
                        let room = plain[block * 64 + lane].min(3);
                        let count = rng.random_range(0..=room);
                        ones |= (count & 1) << lane;
                        twos |= (count >> 1) << lane;
                    }
                    let emptied = (0..64).any(|lane| {
                        let count = (ones >> lane & 1) + 2 * (twos >> lane & 1);
                        count > 0 && plain[block * 64 + lane] == count
                    });
                    assert_eq!(sliced.move_squares::<true>(block, ones, twos), emptied);
                    for lane in 0..(rows - block * 64).min(64) {
                        plain[block * 64 + lane] -= (ones >> lane & 1) + 2 * (twos >> lane & 1);
                    }
                    history.push((block, ones, twos));
                }
                for (row, &size) in plain.iter().enumerate() {
                    assert_eq!(sliced.get(row), size, "row {row} of {rows}×{columns}");
                }
                let mut tied = Vec::new();
                let found = sliced.fewest(unassigned, |b, m, first| {
                    if first {
                        tied.clear();
                    }
                    tied.push((b, m));
                });
                let min = *plain.iter().min().unwrap();
                assert_eq!(found, Some(min as u32));
                let rows_tied: Vec<usize> = tied
                    .iter()
                    .flat_map(|&(b, m)| {
                        (0..64)
                            .filter(move |l| m >> l & 1 == 1)
                            .map(move |l| b * 64 + l)
                    })
                    .collect();
                let expected: Vec<usize> = (0..rows).filter(|&r| plain[r] == min).collect();
                assert_eq!(rows_tied, expected);
            }
        }
    }
}
