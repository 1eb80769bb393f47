//! The diagonal bookkeeping behind every local-search move: which diagonals are in use, and how many
//! collisions the board has.
//!
//! A queen at (`row`, `column`) of an `n × n` board stands on the up-diagonal `row + column` and on the
//! down-diagonal `column + (n − 1) − row`, each numbered `0..2n − 1`. The down-diagonals are numbered so
//! that they increase with the column, like the up-diagonals; Las Vegas Two reads a row's free squares a
//! word at a time thanks to it.
//!
//! Collisions are counted as Sosič & Gu count them (*3,000,000 Queens in Less Than One Minute*,
//! 1991, §3: a random permutation "generates approximately n × 0.53 collisions"): a diagonal
//! holding `k ≥ 1` queens has `k − 1` collisions. (Under that count a random permutation has
//! `n(1 − 2/e) ≈ 0.528 n` collisions, which is their figure; counting attacking pairs instead would
//! give more.)

use hashbrown::HashMap;

use crate::prefetch::{advise_huge_pages, prefetch};

/// The up-diagonal of a square, in `0..2n − 1`.
#[inline]
pub(super) fn up_diagonal(row: usize, column: u32) -> usize {
    row + column as usize
}

/// The down-diagonal of a square, in `0..2n − 1`, increasing with the column.
#[inline]
pub(super) fn down_diagonal(n: usize, row: usize, column: u32) -> usize {
    column as usize + (n - 1 - row)
}

/// A fixed-size set of small integers, one bit each, with a spare zero word at the end so that
/// [`BitSet::window`] may read 64 bits starting at any element.
#[derive(Debug, Clone)]
pub(super) struct BitSet {
    words: Vec<u64>,
}

impl BitSet {
    /// The empty set over `0..len`.
    pub(super) fn new(len: usize) -> Self {
        BitSet {
            words: vec![0; len.div_ceil(64) + 1],
        }
    }

    /// Whether `index` is in the set.
    #[inline]
    pub(super) fn contains(&self, index: usize) -> bool {
        self.words[index / 64] >> (index % 64) & 1 != 0
    }

    /// Adds `index`.
    #[inline]
    pub(super) fn insert(&mut self, index: usize) {
        self.words[index / 64] |= 1 << (index % 64);
    }

    /// Removes `index`.
    #[inline]
    pub(super) fn remove(&mut self, index: usize) {
        self.words[index / 64] &= !(1 << (index % 64));
    }

    /// Empties the set.
    pub(super) fn clear(&mut self) {
        self.words.fill(0);
    }

    /// The 64 elements `start..start + 64` as a word, element `start` in the lowest bit. `start` must
    /// be at most the set's length: the spare word supplies the zeros beyond the end.
    #[inline]
    pub(super) fn window(&self, start: usize) -> u64 {
        let (word, shift) = (start / 64, start % 64);
        let low = self.words[word] >> shift;
        if shift == 0 {
            low
        } else {
            low | self.words[word + 1] << (64 - shift)
        }
    }

    /// The whole word `word` (elements `64·word..64·word + 64`).
    #[inline]
    pub(super) fn word(&self, word: usize) -> u64 {
        self.words[word]
    }
}

/// The counts a swap search needs: which queens are attacked and how many collisions the board has.
/// Implemented densely for QS1 and sparsely for QS4; [`try_swap`] works on either.
pub(super) trait DiagonalCounts {
    /// Puts a queen on the square's two diagonals.
    fn add(&mut self, row: usize, column: u32);
    /// Takes a queen off the square's two diagonals; it must be on them.
    fn remove(&mut self, row: usize, column: u32);
    /// Whether a queen on this square shares a diagonal with another queen.
    fn is_attacked(&self, row: usize, column: u32) -> bool;
    /// The collisions on the board: the sum over diagonals of (queens − 1) for each occupied one.
    fn collisions(&self) -> u64;
}

/// Swaps the columns of the queens in rows `first` and `second` if that reduces the collisions, and
/// says whether it did (Sosič & Gu's step, §2 and §3 of *3,000,000 Queens in Less Than One Minute*,
/// 1991).
///
/// The swap is made on the counters and undone if it does not help. Doing it literally rather than
/// computing the difference by formula keeps the count exact when the squares share diagonals, which a
/// formula must treat case by case.
#[inline]
pub(super) fn try_swap<D: DiagonalCounts>(
    counts: &mut D,
    placement: &mut [u32],
    first: usize,
    second: usize,
) -> bool {
    let (first_column, second_column) = (placement[first], placement[second]);
    let before = counts.collisions();
    counts.remove(first, first_column);
    counts.remove(second, second_column);
    counts.add(first, second_column);
    counts.add(second, first_column);
    if counts.collisions() < before {
        placement.swap(first, second);
        true
    } else {
        counts.remove(first, second_column);
        counts.remove(second, first_column);
        counts.add(first, first_column);
        counts.add(second, second_column);
        false
    }
}

/// Queens per diagonal in plain `u32` counters: 16 bytes a row, and an attacked test that is two loads.
/// QS1 tests "is either queen attacked" for nearly every pair of rows, so it wants the fastest test.
/// A diagonal holds at most `n < 2^30` queens, so the counters cannot overflow.
#[derive(Debug, Clone)]
pub(super) struct DenseCounts {
    n: usize,
    up: Vec<u32>,
    down: Vec<u32>,
    collisions: u64,
}

impl DenseCounts {
    /// No queens on an `n × n` board.
    pub(super) fn new(n: usize) -> Self {
        DenseCounts {
            n,
            up: vec![0; 2 * n - 1],
            down: vec![0; 2 * n - 1],
            collisions: 0,
        }
    }

    /// Takes every queen off.
    pub(super) fn clear(&mut self) {
        self.up.fill(0);
        self.down.fill(0);
        self.collisions = 0;
    }
}

impl DiagonalCounts for DenseCounts {
    #[inline]
    fn add(&mut self, row: usize, column: u32) {
        for count in [
            &mut self.up[up_diagonal(row, column)],
            &mut self.down[down_diagonal(self.n, row, column)],
        ] {
            self.collisions += u64::from(*count > 0);
            *count += 1;
        }
    }

    #[inline]
    fn remove(&mut self, row: usize, column: u32) {
        for count in [
            &mut self.up[up_diagonal(row, column)],
            &mut self.down[down_diagonal(self.n, row, column)],
        ] {
            *count -= 1;
            self.collisions -= u64::from(*count > 0);
        }
    }

    #[inline]
    fn is_attacked(&self, row: usize, column: u32) -> bool {
        self.up[up_diagonal(row, column)] > 1 || self.down[down_diagonal(self.n, row, column)] > 1
    }

    #[inline]
    fn collisions(&self) -> u64 {
        self.collisions
    }
}

/// Queens per diagonal as one bit ("in use") plus, for the few diagonals with more than one queen, the
/// extra queens in a map: 0.5 bytes a row, which is what lets QS4 hold 10^8 queens in 4.5 bytes each.
///
/// The map's entries sum to the collision count (a diagonal with `k` queens has `k − 1` extra ones), so
/// it never holds more entries than the board has collisions. QS4 starts from at most a few hundred
/// collisions and only accepts swaps that reduce them, so the map stays tiny whatever `n` is, and no
/// counter of fixed width can overflow.
#[derive(Debug, Clone)]
pub(super) struct SparseCounts {
    n: usize,
    up: BitSet,
    down: BitSet,
    up_extra: HashMap<u32, u32>,
    down_extra: HashMap<u32, u32>,
    collisions: u64,
}

impl SparseCounts {
    /// No queens on an `n × n` board.
    pub(super) fn new(n: usize) -> Self {
        let (mut up, mut down) = (BitSet::new(2 * n - 1), BitSet::new(2 * n - 1));
        // QS4 tests two bits at random places for each candidate square (see `prefetch.rs`).
        advise_huge_pages(&mut up.words);
        advise_huge_pages(&mut down.words);
        SparseCounts {
            n,
            up,
            down,
            up_extra: HashMap::new(),
            down_extra: HashMap::new(),
            collisions: 0,
        }
    }

    /// Takes every queen off.
    pub(super) fn clear(&mut self) {
        self.up.clear();
        self.down.clear();
        self.up_extra.clear();
        self.down_extra.clear();
        self.collisions = 0;
    }

    /// Whether both diagonals of the square are empty: a queen put there would attack nobody.
    #[inline]
    pub(super) fn is_free(&self, row: usize, column: u32) -> bool {
        // `|` rather than `||`: both loads are issued at once, which matters when they miss the cache.
        !(self.up.contains(up_diagonal(row, column))
            | self.down.contains(down_diagonal(self.n, row, column)))
    }

    /// Puts a queen on a square that [`SparseCounts::is_free`] has just found free: both diagonals
    /// only need their bit set, and no collision is added. QS4's initialisation places ten million
    /// queens this way at 10⁷ rows; going through [`DiagonalCounts::add`] instead, which tests each
    /// bit again and was compiled as an out-of-line call per diagonal, made its search about 8 %
    /// slower.
    #[inline]
    pub(super) fn add_free(&mut self, row: usize, column: u32) {
        debug_assert!(self.is_free(row, column));
        self.up.insert(up_diagonal(row, column));
        self.down.insert(down_diagonal(self.n, row, column));
    }

    /// Asks for the cache lines of the square's two diagonal bits, without waiting for them.
    #[inline]
    pub(super) fn prefetch(&self, row: usize, column: u32) {
        prefetch(&self.up.words, up_diagonal(row, column) / 64);
        prefetch(&self.down.words, down_diagonal(self.n, row, column) / 64);
    }

    /// Adds a queen to one diagonal of one family.
    #[inline]
    fn add_to(in_use: &mut BitSet, extra: &mut HashMap<u32, u32>, diagonal: usize) -> u64 {
        if in_use.contains(diagonal) {
            // Diagonals number below 2^31 (n < 2^30), so the key fits.
            *extra.entry(diagonal as u32).or_insert(0) += 1;
            1
        } else {
            in_use.insert(diagonal);
            0
        }
    }

    /// Takes a queen off one diagonal of one family; returns the collisions removed.
    #[inline]
    fn remove_from(in_use: &mut BitSet, extra: &mut HashMap<u32, u32>, diagonal: usize) -> u64 {
        let key = diagonal as u32;
        match extra.get_mut(&key) {
            Some(count) if *count > 1 => {
                *count -= 1;
                1
            }
            Some(_) => {
                extra.remove(&key);
                1
            }
            None => {
                in_use.remove(diagonal);
                0
            }
        }
    }
}

impl DiagonalCounts for SparseCounts {
    #[inline]
    fn add(&mut self, row: usize, column: u32) {
        self.collisions += Self::add_to(&mut self.up, &mut self.up_extra, up_diagonal(row, column));
        self.collisions += Self::add_to(
            &mut self.down,
            &mut self.down_extra,
            down_diagonal(self.n, row, column),
        );
    }

    #[inline]
    fn remove(&mut self, row: usize, column: u32) {
        self.collisions -=
            Self::remove_from(&mut self.up, &mut self.up_extra, up_diagonal(row, column));
        self.collisions -= Self::remove_from(
            &mut self.down,
            &mut self.down_extra,
            down_diagonal(self.n, row, column),
        );
    }

    #[inline]
    fn is_attacked(&self, row: usize, column: u32) -> bool {
        self.up_extra
            .contains_key(&(up_diagonal(row, column) as u32))
            || self
                .down_extra
                .contains_key(&(down_diagonal(self.n, row, column) as u32))
    }

    #[inline]
    fn collisions(&self) -> u64 {
        self.collisions
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Collisions counted from scratch: per diagonal, queens − 1 when occupied.
    fn naive_collisions(placement: &[u32]) -> u64 {
        let n = placement.len();
        let mut up = vec![0_u64; 2 * n - 1];
        let mut down = vec![0_u64; 2 * n - 1];
        for (row, &column) in placement.iter().enumerate() {
            up[up_diagonal(row, column)] += 1;
            down[down_diagonal(n, row, column)] += 1;
        }
        up.iter()
            .chain(&down)
            .map(|&count| count.saturating_sub(1))
            .sum()
    }

    /// Whether the queen of `row` shares a diagonal with another, from scratch.
    fn naive_attacked(placement: &[u32], row: usize) -> bool {
        let n = placement.len();
        let column = placement[row];
        placement.iter().enumerate().any(|(other, &other_column)| {
            other != row
                && (up_diagonal(other, other_column) == up_diagonal(row, column)
                    || down_diagonal(n, other, other_column) == down_diagonal(n, row, column))
        })
    }

    /// Every swap of every pair on a few boards, checked against the naive counts, for both kinds of
    /// counters.
    fn check_swaps<D: DiagonalCounts>(make: impl Fn(usize) -> D) {
        for placement in [
            vec![0, 1, 2, 3, 4, 5, 6],
            vec![6, 5, 4, 3, 2, 1, 0],
            vec![1, 3, 5, 0, 2, 4, 6],
            vec![3, 0, 4, 1, 5, 2, 6],
        ] {
            let n = placement.len();
            for first in 0..n {
                for second in 0..n {
                    if first == second {
                        continue;
                    }
                    let mut placement = placement.clone();
                    let mut counts = make(n);
                    for (row, &column) in placement.iter().enumerate() {
                        counts.add(row, column);
                    }
                    assert_eq!(counts.collisions(), naive_collisions(&placement));
                    let before = placement.clone();
                    let swapped = try_swap(&mut counts, &mut placement, first, second);
                    let mut exchanged = before.clone();
                    exchanged.swap(first, second);
                    assert_eq!(
                        swapped,
                        naive_collisions(&exchanged) < naive_collisions(&before)
                    );
                    assert_eq!(placement, if swapped { exchanged } else { before });
                    assert_eq!(counts.collisions(), naive_collisions(&placement));
                    for row in 0..n {
                        assert_eq!(
                            counts.is_attacked(row, placement[row]),
                            naive_attacked(&placement, row),
                            "{placement:?} row {row}"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn dense_counts_agree_with_a_naive_count_under_every_swap() {
        check_swaps(DenseCounts::new);
    }

    #[test]
    fn sparse_counts_agree_with_a_naive_count_under_every_swap() {
        check_swaps(SparseCounts::new);
    }

    #[test]
    fn a_random_permutation_has_about_0_53_n_collisions() {
        // Sosič & Gu §3: "a random permutation of n integers generates approximately n × 0.53
        // collisions on the diagonal lines".
        let n = 100_000;
        let mut rng = csp_core::rng_for(1, 0);
        let mut placement: Vec<u32> = (0..n as u32).collect();
        super::super::shuffle(&mut rng, &mut placement);
        let ratio = naive_collisions(&placement) as f64 / n as f64;
        assert!((0.52..0.54).contains(&ratio), "{ratio}");
    }

    #[test]
    fn windows_read_any_64_bits() {
        let mut set = BitSet::new(200);
        for index in [0, 5, 63, 64, 127, 130, 199] {
            set.insert(index);
        }
        for start in 0..=200 {
            let expected = (0..64)
                .filter(|offset| start + offset < 200 && set.contains(start + offset))
                .fold(0_u64, |word, offset| word | 1 << offset);
            assert_eq!(set.window(start), expected, "start {start}");
        }
        set.remove(5);
        assert!(!set.contains(5));
        assert_eq!(set.word(0), 1 | 1 << 63);
    }
}
