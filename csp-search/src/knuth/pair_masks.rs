//! Knuth's probes on bit masks, for check-past search over constraints whose check decomposes into
//! pairs ([`csp_core::Propagator::check_is_pairwise`]).
//!
//! A probe under check-past spends nearly all its time asking which values of the next variable are
//! consistent with the assignment. When every constraint's check decomposes into pairs, the answer is
//! the intersection of one mask per assigned variable. Each mask is worked out once, from the
//! constraints' own checks, so a probe's step is a few word-wide ANDs instead of a filter over the values.
//! The probes draw the same random numbers and visit the same nodes as the general probe, so the
//! estimates agree bit for bit (the tests hold them to it).

use csp_core::{Model, Store, VarId};
use rand::RngExt;

use super::sampling::{ProbeEstimate, ProbeRng, ProbeSeeds, Sums, estimate};
use crate::{Propagation, SearchConfig, StopFlag, TiePolicy, VariableOrderKind};

/// The largest table of masks worth building, in 64-bit words (32 MiB).
const MAX_WORDS: usize = 1 << 22;

/// How a probe picks the next variable: the orderings whose choice the masks reproduce exactly.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Order {
    /// LEX: the first unassigned variable.
    Lexicographic,
    /// MIN with ties to the lowest index.
    FewestChoices,
}

/// Every variable's root values, and for each variable–value pair the values of every variable
/// consistent with it, as masks over those root values.
#[derive(Debug)]
pub(super) struct PairMasks {
    order: Order,
    /// Number of variables.
    pub(super) vars: usize,
    /// Variable `x`'s root values, ascending, are `values[starts[x]..starts[x + 1]]`; bit `i` of a
    /// mask for `x` stands for the `i`-th of them.
    values: Vec<i32>,
    starts: Vec<usize>,
    /// Each variable's values consistent with the empty assignment (one word per variable).
    root: Vec<u64>,
    /// For variable `x` assigned its `i`-th root value, the masks of every variable's values consistent
    /// with it: `vars` words starting at `(starts[x] + i) × vars`.
    rows: Vec<u64>,
}

impl PairMasks {
    /// The masks for `model`, or `None` when they do not apply or would cost more than they save:
    /// propagation other than check-past, an ordering other than LEX or MIN with lowest-index ties, a
    /// constraint whose check does not decompose into pairs, a domain of more than 64 values, or a
    /// table larger than the probes' own work (the table filters every value against every variable–value
    /// pair once; `probes` probes filter about as many values each as the variables have in all).
    pub(super) fn build(model: &Model, config: &SearchConfig, probes: u64) -> Option<Self> {
        if config.propagation != Propagation::CheckPast {
            return None;
        }
        let order = match (config.variable_order, config.ties) {
            (VariableOrderKind::Lexicographic, _) => Order::Lexicographic,
            (VariableOrderKind::FewestChoices, TiePolicy::LowestIndex) => Order::FewestChoices,
            _ => return None,
        };
        if !model
            .constraint_ids()
            .all(|id| model.constraint(id).check_is_pairwise())
        {
            return None;
        }
        let vars = model.num_vars();
        let mut store = Store::new(model);
        if model.vars().any(|v| store.domain(v).size() > 64) {
            return None;
        }
        let mut values = Vec::new();
        let mut starts = Vec::with_capacity(vars + 1);
        for v in model.vars() {
            starts.push(values.len());
            store.domain(v).append_values(&mut values);
        }
        starts.push(values.len());
        let total = values.len();
        if total.saturating_mul(vars) > MAX_WORDS || total as u64 > probes.saturating_mul(4) {
            return None;
        }

        let mut masks = PairMasks {
            order,
            vars,
            values,
            starts,
            root: vec![0; vars],
            rows: vec![0; total * vars],
        };
        let mut consistent = Vec::new();
        for y in model.vars() {
            masks.root[y.index()] =
                masks.consistent_mask(model, &store, y.index(), &mut consistent);
        }
        let empty = store.checkpoint();
        for x in model.vars() {
            for i in masks.starts[x.index()]..masks.starts[x.index() + 1] {
                store.assign(model, x, masks.values[i]);
                // A LEX probe assigns the variables in order, so it reads only later ones' masks.
                let first = match order {
                    Order::Lexicographic => x.index() + 1,
                    Order::FewestChoices => 0,
                };
                for y in model.vars().skip(first).filter(|&y| y != x) {
                    masks.rows[i * vars + y.index()] =
                        masks.consistent_mask(model, &store, y.index(), &mut consistent);
                }
                store.undo_to(model, empty);
            }
        }
        Some(masks)
    }

    /// The mask of variable `y`'s root values that pass Dijkstra's test against `store`'s assignment.
    /// Check-past never narrows a domain, so `y`'s choices are its root values filtered by the
    /// store's own test: the general probe's filter, without its pass over the domain's bits.
    fn consistent_mask(
        &self,
        model: &Model,
        store: &Store,
        y: usize,
        buffer: &mut Vec<i32>,
    ) -> u64 {
        let roots = &self.values[self.starts[y]..self.starts[y + 1]];
        buffer.clear();
        buffer.extend_from_slice(roots);
        let kept = store.retain_consistent(model, VarId::from_index(y), buffer);
        // The filter keeps the values' order, so the kept values are a subsequence of the roots: one
        // merge finds their bits.
        let mut mask = 0u64;
        let mut i = 0;
        for &value in &buffer[..kept] {
            while roots[i] != value {
                i += 1;
            }
            mask |= 1 << i;
        }
        mask
    }

    /// Runs `probes` probes, seeded as the general estimator seeds them, and averages them in
    /// probe order: the same estimate as the general estimator's, bit for bit.
    pub(super) fn estimate(
        &self,
        seed: u64,
        probes: u64,
        stop: Option<&StopFlag>,
    ) -> ProbeEstimate {
        if self.vars > 64 {
            let mut current = vec![0; self.vars];
            let mut free = Vec::with_capacity(self.vars);
            return estimate(seed, probes, stop, |rng| {
                self.probe(rng, &mut current, &mut free)
            });
        }
        // Each variable's mask takes the narrowest field that holds every domain, packed into 64-bit
        // words: 16 queens' masks fill four words, and one probe step intersects four words.
        let widest = (0..self.vars)
            .map(|v| self.starts[v + 1] - self.starts[v])
            .max()
            .unwrap_or(0);
        match widest {
            0..=16 => self.estimate_in_fields::<16>(seed, probes, stop),
            17..=32 => self.estimate_in_fields::<32>(seed, probes, stop),
            _ => self.estimate_in_fields::<64>(seed, probes, stop),
        }
    }

    /// [`PairMasks::estimate`] with `BITS`-bit fields, in rows of a power of two of words.
    fn estimate_in_fields<const BITS: usize>(
        &self,
        seed: u64,
        probes: u64,
        stop: Option<&StopFlag>,
    ) -> ProbeEstimate {
        let words = (self.vars * BITS).div_ceil(64).max(1).next_power_of_two();
        match words {
            1 => self.estimate_in_lanes::<BITS, 1>(seed, probes, stop),
            2 => self.estimate_in_lanes::<BITS, 2>(seed, probes, stop),
            4 => self.estimate_in_lanes::<BITS, 4>(seed, probes, stop),
            8 => self.estimate_in_lanes::<BITS, 8>(seed, probes, stop),
            16 => self.estimate_in_lanes::<BITS, 16>(seed, probes, stop),
            32 => self.estimate_in_lanes::<BITS, 32>(seed, probes, stop),
            64 => self.estimate_in_lanes::<BITS, 64>(seed, probes, stop),
            words => {
                unreachable!("64 variables of at most 64 bits fill at most 64 words, not {words}")
            }
        }
    }

    /// Packs one row of masks (one word per variable) into `WORDS` words of `BITS`-bit fields.
    fn pack<const BITS: usize, const WORDS: usize>(&self, masks: &[u64]) -> [u64; WORDS] {
        let mut packed = [0; WORDS];
        for (var, &mask) in masks.iter().enumerate() {
            packed[var * BITS / 64] |= mask << (var * BITS % 64);
        }
        packed
    }

    /// [`PairMasks::estimate`] on packed rows of `WORDS` words, running [`LANES`] probes side by
    /// side.
    ///
    /// A probe's steps form one chain (the mask gives the choices, the random pick the row, the row
    /// the next mask), so a single probe leaves the processor waiting most of the time; independent
    /// probes fill it. Each probe has its own generator, and the lanes take probes in order, so
    /// probe `i` is seeded by the `i`-th seed and its estimate is stored at `i`: batches are added
    /// in probe order once all their probes are done.
    fn estimate_in_lanes<const BITS: usize, const WORDS: usize>(
        &self,
        seed: u64,
        probes: u64,
        stop: Option<&StopFlag>,
    ) -> ProbeEstimate {
        let root = self.pack::<BITS, WORDS>(&self.root);
        let rows: Vec<[u64; WORDS]> = if self.vars == 0 {
            Vec::new()
        } else {
            self.rows
                .chunks_exact(self.vars)
                .map(|row| self.pack::<BITS, WORDS>(row))
                .collect()
        };
        let mut seeds = ProbeSeeds::new(seed);
        let mut sums = Sums::default();
        let mut results = vec![(0.0, 0.0); BATCH.min(probes as usize)];
        let mut lanes: [Lane<WORDS>; LANES] = std::array::from_fn(|_| Lane::idle());
        let mut done = 0u64;
        // A raised stop flag ends the probes at the end of a batch.
        while done < probes && !stop.is_some_and(StopFlag::is_stopped) {
            let count = (probes - done).min(BATCH as u64) as usize;
            let mut next = 0;
            for lane in &mut lanes {
                if next < count {
                    lane.start(&root, self.vars, next, seeds.next_probe());
                    next += 1;
                }
            }
            let mut running = lanes.iter().filter(|lane| lane.running).count();
            while running > 0 {
                for lane in &mut lanes {
                    if !lane.running {
                        continue;
                    }
                    if let Some(result) = self.step::<BITS, WORDS>(lane, &rows) {
                        results[lane.probe] = result;
                        if next < count {
                            lane.start(&root, self.vars, next, seeds.next_probe());
                            next += 1;
                        } else {
                            lane.running = false;
                            running -= 1;
                        }
                    }
                }
            }
            for &result in &results[..count] {
                sums.add(result);
            }
            done += count as u64;
        }
        sums.estimate(done)
    }

    /// One node of a lane's probe: the probe's estimates if it ends here, or `None` after going
    /// down to a random child.
    #[inline(always)]
    fn step<const BITS: usize, const WORDS: usize>(
        &self,
        lane: &mut Lane<WORDS>,
        rows: &[[u64; WORDS]],
    ) -> Option<(f64, f64)> {
        if lane.level == self.vars {
            return Some((lane.size, lane.weight));
        }
        let var = match self.order {
            Order::Lexicographic => lane.level,
            Order::FewestChoices => {
                // The unassigned variables in index order; only a strictly smaller count replaces
                // the best, so ties go to the lowest index.
                let (mut best, mut fewest) = (0, u32::MAX);
                let mut free = lane.free;
                while free != 0 {
                    let v = free.trailing_zeros() as usize;
                    free &= free - 1;
                    let choices = lane.field::<BITS>(v).count_ones();
                    if choices < fewest {
                        (best, fewest) = (v, choices);
                    }
                }
                lane.free &= !(1 << best);
                best
            }
        };
        lane.level += 1;
        let mask = lane.field::<BITS>(var);
        let Some(row) = self.descend(var, mask, &mut lane.rng, &mut lane.weight, &mut lane.size)
        else {
            return Some((lane.size, 0.0));
        };
        for (word, &allowed) in lane.current.iter_mut().zip(&rows[row]) {
            *word &= allowed;
        }
        None
    }

    /// The choice at a node where `var` is chosen with consistent values `mask`: `None` at a dead
    /// end; otherwise the weight and the tree-size estimate are brought up to date and the result is
    /// the row of the value picked, uniformly at random, as the general probe picks it.
    #[inline(always)]
    fn descend(
        &self,
        var: usize,
        mask: u64,
        rng: &mut ProbeRng,
        weight: &mut f64,
        size: &mut f64,
    ) -> Option<usize> {
        let running = running_counts(mask);
        let choices = (running >> 56) as usize;
        if choices == 0 {
            return None;
        }
        *weight *= choices as f64;
        *size += *weight;
        // The general probe picks the `pick`-th consistent value in ascending order: here the
        // `pick`-th set bit.
        let pick = rng.random_range(0..choices);
        Some(self.starts[var] + select(mask, running, pick as u32) as usize)
    }

    /// One probe, for models of more than 64 variables: its tree-size and solution estimates.
    /// `current` holds every variable's consistent values as the probe goes down; `free`, under
    /// MIN, the unassigned variables.
    fn probe(&self, rng: &mut ProbeRng, current: &mut [u64], free: &mut Vec<usize>) -> (f64, f64) {
        current.copy_from_slice(&self.root);
        free.clear();
        free.extend(0..self.vars);
        let (mut weight, mut size) = (1.0f64, 1.0f64);
        for level in 0..self.vars {
            let var = match self.order {
                Order::Lexicographic => level,
                Order::FewestChoices => {
                    let (slot, _) = free
                        .iter()
                        .enumerate()
                        .min_by_key(|&(_, &v)| (current[v].count_ones(), v))
                        .expect("fewer variables are assigned than there are");
                    free.swap_remove(slot)
                }
            };
            let Some(row) = self.descend(var, current[var], rng, &mut weight, &mut size) else {
                return (size, 0.0);
            };
            let row = &self.rows[row * self.vars..][..self.vars];
            for (word, &allowed) in current.iter_mut().zip(row) {
                *word &= allowed;
            }
        }
        (size, weight)
    }
}

/// How many probes [`PairMasks::estimate`] runs side by side.
const LANES: usize = 8;

/// How many probes' estimates are kept before they are added, in probe order.
const BATCH: usize = 1024;

/// One probe in progress, its masks packed into `WORDS` words.
#[derive(Debug)]
struct Lane<const WORDS: usize> {
    /// Every variable's values consistent with the probe's assignment, in fields.
    current: [u64; WORDS],
    /// Under MIN, the unassigned variables as bits (the lanes serve at most 64 variables).
    free: u64,
    /// How many variables are assigned.
    level: usize,
    weight: f64,
    size: f64,
    rng: ProbeRng,
    /// The probe's index in its batch.
    probe: usize,
    running: bool,
}

impl<const WORDS: usize> Lane<WORDS> {
    /// A lane with no probe; its generator is replaced when a probe starts.
    fn idle() -> Self {
        Lane {
            current: [0; WORDS],
            free: 0,
            level: 0,
            weight: 1.0,
            size: 1.0,
            rng: ProbeRng::new(0, 0),
            probe: 0,
            running: false,
        }
    }

    /// Starts probe `probe` of the batch at the root (`root`, over `vars` variables), with its
    /// generator.
    fn start(&mut self, root: &[u64; WORDS], vars: usize, probe: usize, rng: ProbeRng) {
        self.current = *root;
        // All `vars` low bits (none for a model without variables).
        self.free = u64::MAX.checked_shr(64 - vars as u32).unwrap_or(0);
        self.level = 0;
        self.weight = 1.0;
        self.size = 1.0;
        self.rng = rng;
        self.probe = probe;
        self.running = true;
    }

    /// Variable `var`'s mask, from its `BITS`-bit field.
    #[inline(always)]
    fn field<const BITS: usize>(&self, var: usize) -> u64 {
        let word = self.current[var * BITS / 64] >> (var * BITS % 64);
        if BITS == 64 {
            word
        } else {
            word & ((1 << BITS) - 1)
        }
    }
}

/// A repeated-byte constant: 1 in every byte.
const ONES: u64 = 0x0101_0101_0101_0101;

/// The running bit counts of `word`'s bytes: byte `i` of the result holds the number of set bits in
/// bytes `0..=i`, so the top byte is the population count. [`select`] reads the rest.
#[inline]
fn running_counts(word: u64) -> u64 {
    let mut counts = word - ((word >> 1) & 0x5555_5555_5555_5555);
    counts = (counts & 0x3333_3333_3333_3333) + ((counts >> 2) & 0x3333_3333_3333_3333);
    counts = (counts + (counts >> 4)) & 0x0F0F_0F0F_0F0F_0F0F;
    counts.wrapping_mul(ONES)
}

/// The position of the `rank`-th set bit of `word`, counting from 0 at the lowest, given `word`'s
/// [`running_counts`]; `rank` must be less than the number of set bits.
///
/// Broadword selection (Vigna, "Broadword implementation of rank/select queries", 2008): the running
/// counts locate the byte, and a table the bit within it. The probe picks a random rank, so a loop
/// clearing the lowest bit `rank` times mispredicted its exit at nearly every node; this has no branch.
#[inline]
fn select(word: u64, running: u64, rank: u32) -> u32 {
    const HIGHS: u64 = 0x8080_8080_8080_8080;
    debug_assert_eq!(running, running_counts(word));
    debug_assert!(rank < word.count_ones());
    // A byte's high bit survives when its running count is at most `rank` (both are below 128, so no
    // byte borrows from the next); those bytes all come before the one holding the bit.
    let at_most = (((u64::from(rank) * ONES) | HIGHS) - running) & HIGHS;
    let shift = (((at_most >> 7).wrapping_mul(ONES) >> 56) * 8) as u32;
    let before = ((running << 8) >> shift) as u32 & 0xFF;
    let byte = (word >> shift) as usize & 0xFF;
    shift + u32::from(SELECT_IN_BYTE[byte * 8 + (rank - before) as usize])
}

/// `SELECT_IN_BYTE[b × 8 + r]`: the position of the `r`-th set bit of the byte `b`.
static SELECT_IN_BYTE: [u8; 2048] = {
    let mut table = [0u8; 2048];
    let mut byte = 0;
    while byte < 256 {
        let (mut bit, mut rank) = (0, 0);
        while bit < 8 {
            if byte >> bit & 1 == 1 {
                table[byte * 8 + rank] = bit as u8;
                rank += 1;
            }
            bit += 1;
        }
        byte += 1;
    }
    table
};

#[cfg(test)]
mod tests {
    use rand::{RngExt, SeedableRng};

    use super::*;

    /// The `rank`-th set bit, the slow way.
    fn select_by_clearing(word: u64, rank: u32) -> u32 {
        let mut remaining = word;
        for _ in 0..rank {
            remaining &= remaining - 1;
        }
        remaining.trailing_zeros()
    }

    #[test]
    fn running_counts_end_in_the_population_count() {
        let mut rng = crate::Rng::seed_from_u64(5);
        for word in [0, 1, u64::MAX, 1 << 63, 0x8000_0000_0000_0001] {
            assert_eq!(running_counts(word) >> 56, u64::from(word.count_ones()));
        }
        for _ in 0..10_000 {
            let word: u64 = rng.random();
            assert_eq!(running_counts(word) >> 56, u64::from(word.count_ones()));
        }
    }

    #[test]
    fn select_finds_every_rank_of_every_byte_and_of_random_words() {
        let mut words: Vec<u64> = vec![u64::MAX, 1 << 63, 0x8000_0000_0000_0001];
        // Every byte value in every byte position, so the table and the byte search both see all.
        for byte in 1..=255u64 {
            for position in 0..8 {
                words.push(byte << (8 * position));
            }
        }
        let mut rng = crate::Rng::seed_from_u64(9);
        // Random words of every density: sparse, dense and even.
        for _ in 0..3000 {
            let (a, b, c): (u64, u64, u64) = (rng.random(), rng.random(), rng.random());
            words.extend([a & b & c, a | b, a]);
        }
        for word in words.into_iter().filter(|&w| w != 0) {
            let running = running_counts(word);
            for rank in 0..word.count_ones() {
                assert_eq!(
                    select(word, running, rank),
                    select_by_clearing(word, rank),
                    "word {word:#x}, rank {rank}"
                );
            }
        }
    }
}
