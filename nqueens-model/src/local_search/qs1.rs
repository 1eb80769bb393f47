//! Sosič & Gu's QS1 (*3,000,000 Queens in Less Than One Minute*, 1991, §2).

use std::sync::atomic::AtomicBool;

use csp_core::rng_for;

use super::diagonals::{DenseCounts, DiagonalCounts, try_swap};
use super::{Halt, Limits, LocalError, LocalMethod, RunReport, Stats, Watch, run_method, shuffle};

/// QS1's counts, in the order of [`RunReport::stats`].
#[derive(Debug, Default)]
struct Qs1Stats {
    swaps: u64,
    restarts: u64,
    initial_collisions: u64,
    pair_tests: u64,
    sweeps: u64,
}

impl Stats for Qs1Stats {
    fn to_vec(&self) -> Vec<(&'static str, u64)> {
        vec![
            ("swaps", self.swaps),
            ("restarts", self.restarts),
            ("initial_collisions", self.initial_collisions),
            ("pair_tests", self.pair_tests),
            ("sweeps", self.sweeps),
        ]
    }
}

/// Sosič & Gu's QS1: a random permutation, then swaps of pairs of queens that reduce the diagonal
/// collisions until there are none; a new random permutation when a sweep finds no such swap.
///
/// Following §2 of *3,000,000 Queens in Less Than One Minute* (1991) (and the procedure of their
/// 1990 paper it summarises): the queens start as a uniformly random permutation, so rows and
/// columns never clash. A sweep visits every pair of rows `i < j` in order and, when the queen of
/// `i` or of `j` is attacked, tests the swap of their columns, performing it if the collisions (see
/// `diagonals.rs`: `k − 1` on a diagonal with `k` queens) decrease. Sweeps repeat until no
/// collision is left. A sweep that performs no swap means the permutation is a local minimum; the
/// run then restarts from a fresh random permutation ("restart if stuck"). The run ends at the
/// first permutation without collisions.
///
/// A step (for [`Limits::max_steps`]) is one tested pair, or one fresh permutation. Pairs in which
/// neither queen is attacked are skipped without a test: no swap of two unattacked queens can reduce
/// the collisions, so skipping them changes nothing but the time.
///
/// Stats, in order: `swaps` (performed), `restarts` (fresh permutations after the first),
/// `initial_collisions` (of the last permutation), `pair_tests` (swaps tested), `sweeps` (over all
/// permutations).
///
/// Memory: about 20 bytes a queen ([`LocalMethod::required_bytes`]).
pub fn qs1(
    n: usize,
    seed: u64,
    limits: &Limits,
    stop: &AtomicBool,
) -> Result<RunReport, LocalError> {
    run_method(LocalMethod::Qs1, n, seed, limits, stop, |watch, stats| {
        search(n, seed, watch, stats)
    })
}

/// Whether a sweep ended with a solution or stuck.
enum Sweep {
    Solved,
    Swapped,
    Stuck,
}

fn search(
    n: usize,
    seed: u64,
    watch: &mut Watch<'_>,
    stats: &mut Qs1Stats,
) -> Result<Vec<u32>, Halt> {
    let mut rng = rng_for(seed, super::streams::QS1);
    let mut placement: Vec<u32> = vec![0; n];
    let mut counts = DenseCounts::new(n);
    for attempt in 0_u64.. {
        watch.step()?;
        if attempt > 0 {
            stats.restarts += 1;
        }
        // A fresh uniformly random permutation, as the paper starts from.
        for (column, slot) in (0_u32..).zip(placement.iter_mut()) {
            *slot = column;
        }
        shuffle(&mut rng, &mut placement);
        counts.clear();
        for (row, &column) in placement.iter().enumerate() {
            counts.add(row, column);
        }
        watch.work(n as u64)?;
        stats.initial_collisions = counts.collisions();
        loop {
            if counts.collisions() == 0 {
                return Ok(placement);
            }
            stats.sweeps += 1;
            match sweep(&mut counts, &mut placement, watch, stats)? {
                Sweep::Solved => return Ok(placement),
                Sweep::Swapped => {}
                Sweep::Stuck => break,
            }
        }
    }
    // `0_u64..` does not end before a run is stopped or limited; this keeps the function total.
    Err(Halt::LimitReached)
}

/// One pass over all pairs `i < j`, testing those with an attacked queen.
fn sweep(
    counts: &mut DenseCounts,
    placement: &mut [u32],
    watch: &mut Watch<'_>,
    stats: &mut Qs1Stats,
) -> Result<Sweep, Halt> {
    let n = placement.len();
    let mut swapped = false;
    for first in 0..n {
        // Looking at each later row is a unit of work even when no pair is tested.
        watch.work((n - first) as u64)?;
        for second in first + 1..n {
            if !counts.is_attacked(first, placement[first])
                && !counts.is_attacked(second, placement[second])
            {
                continue;
            }
            watch.step()?;
            stats.pair_tests += 1;
            if try_swap(counts, placement, first, second) {
                stats.swaps += 1;
                swapped = true;
                if counts.collisions() == 0 {
                    return Ok(Sweep::Solved);
                }
            }
        }
    }
    Ok(if swapped {
        Sweep::Swapped
    } else {
        Sweep::Stuck
    })
}
