//! Sosič & Gu's QS4 (*3,000,000 Queens in Less Than One Minute*, 1991, §3 and Table 2).

use std::sync::atomic::AtomicBool;

use csp_core::rng_for;

use super::diagonals::{DiagonalCounts, SparseCounts, try_swap};
use super::lookahead::{AHEAD, Lookahead, scale};
use super::{Halt, Limits, LocalError, LocalMethod, RunReport, Stats, Watch, below, run_method};
use crate::prefetch::{advise_huge_pages, prefetch};

/// Table 2 of Sosič & Gu: the board sizes they ran and the number `c` of queens placed without regard
/// to conflicts at each.
const TABLE_2: [(usize, usize); 8] = [
    (10, 8),
    (100, 30),
    (1_000, 50),
    (10_000, 50),
    (100_000, 80),
    (1_000_000, 100),
    (2_000_000, 100),
    (3_000_000, 100),
];

/// Below this many rows the second queen of a swap is chosen systematically too: "If n is less than
/// 1000, then the second queen is also chosen systematically" (§3).
const SYSTEMATIC_BELOW: usize = 1000;

/// With a random second queen, the search gives up on an initial placement (restarts) after this many
/// consecutive sweeps without a swap, i.e. when every conflicting queen has failed with this many random
/// partners in a row (fewer when `n` is smaller). A conflicting queen on a large board finds an improving
/// partner with probability around 1/16 per try, so an unlucky give-up has odds below `e^-4000`; the cap
/// only matters for a true local minimum, which large boards practically never reach.
const RANDOM_PARTNERS_BEFORE_RESTART: usize = 1 << 16;

/// How many draws ahead the initialisation fetches a candidate's pool entry: far enough for a miss
/// to be served before the draw. Measured at 10⁷ queens on the project's machine, 16 to 32 draws
/// ahead all did about as well (0.81–0.85 s of processor time for the whole run, against 1.1–1.3 s
/// without fetching ahead); 8 did worse, and 48 or more worse still, as the lines fetched start to be
/// evicted before they are used.
const FAR_DRAW: usize = 20;

/// How many draws ahead it fetches a candidate's diagonal bits, reading its column from the pool entry
/// fetched [`FAR_DRAW`] draws before (by then nearly always in the cache). The diagonal sets are
/// smaller than the pool and mostly served from the outer caches, so a short distance suffices: 4 to 8
/// did best.
const NEAR_DRAW: usize = 6;

// Both words must already be drawn into the look-ahead, the nearer one after the farther.
const _: () = assert!(NEAR_DRAW < FAR_DRAW && FAR_DRAW < AHEAD);

/// The number of past draws whose placed rows estimate the rate at which draws succeed (a power of
/// two, so that the division is a shift).
const RATE_WINDOW: usize = 64;

/// The row a draw `ahead` draws from now will most likely be made at, from the current `row` and the
/// rows placed over the last [`RATE_WINDOW`] draws; below `n` always, so that it names a slot.
///
/// A draw's slot is `row + ⌊word · (n − row) / 2^32⌋`, which moves with the row by up to one slot a
/// row, so the prediction decides whether a prefetch fetches the line or the column the draw will
/// read. Predicting the current row (no success before the draw) is exact for a near draw only about
/// two times in five at 10⁷ queens, and the far draw's line is wrong one time in five; predicting from
/// the recent rate of success makes them about three in five and one in twenty (simulated on 10⁶
/// queens).
#[inline]
fn predicted_row(row: usize, placed_recently: usize, ahead: usize, n: usize) -> usize {
    (row + (ahead * placed_recently + RATE_WINDOW / 2) / RATE_WINDOW).min(n - 1)
}

/// The number `c` of queens QS4 places at random, after `n − c` placed without conflict: Table 2's
/// value for the largest of its sizes not above `n`, never more than `n`.
///
/// That reproduces the table exactly at its sizes (8, 30, 50, 50, 80, 100, 100, 100 for `n` = 10, 10²,
/// 10³, 10⁴, 10⁵, 10⁶, 2×10⁶, 3×10⁶) and extends it as a step function in between: `min(n, 8)` below 10,
/// and 100 from 10⁶ on, as the paper suggests ("c does not increase with increasing n … c could be set to
/// 100 for all values of n"). A step rule needs no floating point, so `c` is the same on every platform.
pub fn conflicting_queens(n: usize) -> usize {
    let c = TABLE_2
        .iter()
        .rev()
        .find(|&&(size, _)| size <= n)
        .map_or(TABLE_2[0].1, |&(_, c)| c);
    c.min(n)
}

/// The initial placement is redrawn (counted as a restart) when its conflict-free phase ended early and
/// left more than this many queens placed at random. It bounds the collisions QS4 starts from (each
/// randomly placed queen adds at most two) and with them the size of the sparse counters' map and of
/// the list of conflicting queens, so the memory estimate holds for every run. The conflict-free phase
/// practically always reaches its planned `n − c` rows, so this rarely fires.
fn max_random_queens(c: usize) -> usize {
    4 * c + 64
}

/// QS4's counts, in the order of [`RunReport::stats`].
#[derive(Debug, Default)]
struct Qs4Stats {
    swaps: u64,
    restarts: u64,
    initial_collisions: u64,
    conflicting_queens: u64,
    random_queens: u64,
    placement_tries: u64,
    swap_attempts: u64,
}

impl Stats for Qs4Stats {
    fn to_vec(&self) -> Vec<(&'static str, u64)> {
        vec![
            ("swaps", self.swaps),
            ("restarts", self.restarts),
            ("initial_collisions", self.initial_collisions),
            ("conflicting_queens", self.conflicting_queens),
            ("random_queens", self.random_queens),
            ("placement_tries", self.placement_tries),
            ("swap_attempts", self.swap_attempts),
        ]
    }
}

/// Sosič & Gu's QS4: an initial permutation with `n − c` queens placed free of conflicts and `c` at
/// random, then QS1's swaps with the first queen taken from the conflicting ones.
///
/// Following §3 of *3,000,000 Queens in Less Than One Minute* (1991):
/// - **Initialisation.** Queens are placed on successive rows. For each of the first `n − c` rows the
///   column "is randomly generated from columns that are not occupied until a conflict free place is
///   found": a uniform draw from the unoccupied columns, repeated until both diagonals are free. The
///   unoccupied columns are kept as the tail of the placement itself (the tail of a Fisher–Yates
///   shuffle), so a draw costs one read. The paper leaves the search unbounded ("if this number is too
///   large the initialization either takes too long or does not terminate"); here a row gets as many
///   draws as it has unoccupied columns, and if all fail the conflict-free phase ends early and the
///   rest of the rows are placed at random (counted in `random_queens`). The last `c` rows take random
///   unoccupied columns "regardless of conflicts". `c` is [`conflicting_queens`] (Table 2).
/// - **Search.** "The first queen is systematically chosen from the c queens with a conflict, the second
///   queen is chosen completely at random. If n is less than 1000, then the second queen is also chosen
///   systematically. If the swap … reduces the number of conflicts, the swap is performed." The first
///   queens are the randomly placed rows; a row that a swap leaves attacked joins them, which keeps every
///   collision on a diagonal that holds one of them, so the search never overlooks a collision. With a
///   random partner, each sweep gives every attacked listed queen one partner; with systematic partners
///   each attacked queen tries every row in order.
/// - **Restarts.** The paper does not say what happens at a local minimum. Here a fresh initialisation
///   starts when a systematic sweep performs no swap, or when
///   `min(n, 2^16)` random sweeps in a row perform none.
///
/// A step (for [`Limits::max_steps`]) is one swap attempt, or one initialisation. The placement tries of
/// an initialisation are bounded (see above) and are not steps, but they count as work for the stop flag
/// and the time limit.
///
/// Stats, in order: `swaps` (performed), `restarts` (initialisations after the first),
/// `initial_collisions` (after the last initialisation), `conflicting_queens` (`c`), `random_queens`
/// (rows placed regardless of conflicts in the last initialisation: `c`, or more if its conflict-free
/// phase ended early), `placement_tries` (candidate columns examined for conflict-free rows, over all
/// initialisations; Sosič & Gu report about three per queen), `swap_attempts`.
///
/// Memory: about 4.5 bytes a queen: the placement and one bit per diagonal, with the few diagonals that
/// hold more than one queen counted in a small map (`diagonals.rs`).
pub fn qs4(
    n: usize,
    seed: u64,
    limits: &Limits,
    stop: &AtomicBool,
) -> Result<RunReport, LocalError> {
    run_method(LocalMethod::Qs4, n, seed, limits, stop, |watch, stats| {
        search(n, seed, watch, stats)
    })
}

/// How the search from one initial placement ended.
enum Repair {
    Solved,
    Stuck,
}

fn search(
    n: usize,
    seed: u64,
    watch: &mut Watch<'_>,
    stats: &mut Qs4Stats,
) -> Result<Vec<u32>, Halt> {
    // Every draw goes through the look-ahead, so the words are consumed in the generator's order.
    let mut rng = Lookahead::new(rng_for(seed, super::streams::QS4));
    let c = conflicting_queens(n);
    stats.conflicting_queens = c as u64;
    let mut placement: Vec<u32> = vec![0; n];
    // Every candidate reads the placement at random (see `prefetch.rs`); `initialise` writes it first.
    advise_huge_pages(&mut placement);
    let mut counts = SparseCounts::new(n);
    let mut listed: Vec<u32> = Vec::new();
    for attempt in 0_u64.. {
        watch.step()?;
        if attempt > 0 {
            stats.restarts += 1;
        }
        let first_random = initialise(&mut placement, &mut counts, c, &mut rng, watch, stats)?;
        let random_queens = n - first_random;
        stats.random_queens = random_queens as u64;
        stats.initial_collisions = counts.collisions();
        if random_queens > max_random_queens(c) {
            continue;
        }
        listed.clear();
        listed.extend(first_random as u32..n as u32);
        let repair = if n < SYSTEMATIC_BELOW {
            repair_systematic(&mut counts, &mut placement, &mut listed, watch, stats)?
        } else {
            repair_random(
                &mut counts,
                &mut placement,
                &mut listed,
                &mut rng,
                watch,
                stats,
            )?
        };
        match repair {
            Repair::Solved => return Ok(placement),
            Repair::Stuck => {}
        }
    }
    // `0_u64..` does not end before a run is stopped or limited; this keeps the function total.
    Err(Halt::LimitReached)
}

/// Builds the initial permutation and returns the first row placed regardless of conflicts.
///
/// The placement starts as the identity and works as a Fisher–Yates shuffle: rows `0..row` are placed,
/// and `placement[row..]` holds the unoccupied columns, from which a draw takes a uniform position.
fn initialise(
    placement: &mut [u32],
    counts: &mut SparseCounts,
    c: usize,
    rng: &mut Lookahead,
    watch: &mut Watch<'_>,
    stats: &mut Qs4Stats,
) -> Result<usize, Halt> {
    let n = placement.len();
    for (column, slot) in (0_u32..).zip(placement.iter_mut()) {
        *slot = column;
    }
    counts.clear();
    // The row at each of the last `RATE_WINDOW` draws, by draw number modulo the window: the rows
    // placed over that window give the recent rate of success, from which the prefetches predict the
    // row a coming draw will be made at.
    let mut recent_rows = [0_usize; RATE_WINDOW];
    let mut draws = 0_usize;
    let mut row = 0;
    'rows: while row < n - c {
        // Rows are below 2^30 (see `LocalMethod::max_n`), so the count of unoccupied columns fits.
        let unoccupied = (n - row) as u32;
        for _ in 0..unoccupied {
            stats.placement_tries += 1;
            watch.work(1)?;
            let slot = &mut recent_rows[draws % RATE_WINDOW];
            let placed_recently = row - *slot;
            *slot = row;
            draws += 1;
            // Fetch ahead for the coming draws: the pool's line for the farthest word read, and the
            // diagonal bits for a nearer one, whose pool line has had time to arrive. Each is made at
            // the row predicted for it (see `predicted_row`): a draw's slot moves with its row, so a
            // guess of the current row would fetch the wrong line for a far draw one time in five,
            // and the wrong column's diagonals for a near one more often than not.
            let far_row = predicted_row(row, placed_recently, FAR_DRAW, n);
            prefetch(
                placement,
                far_row + scale(rng.peek(FAR_DRAW), (n - far_row) as u32),
            );
            let near_row = predicted_row(row, placed_recently, NEAR_DRAW, n);
            let near_column =
                placement[near_row + scale(rng.peek(NEAR_DRAW), (n - near_row) as u32)];
            counts.prefetch(near_row, near_column);
            let position = row + below(rng, unoccupied) as usize;
            let column = placement[position];
            if counts.is_free(row, column) {
                placement.swap(row, position);
                counts.add_free(row, column);
                row += 1;
                continue 'rows;
            }
        }
        // Every draw hit an attacked square: end the conflict-free phase here.
        break;
    }
    let first_random = row;
    for row in first_random..n {
        let position = row + below(rng, (n - row) as u32) as usize;
        placement.swap(row, position);
        counts.add(row, placement[row]);
    }
    watch.work((n - first_random) as u64)?;
    Ok(first_random)
}

/// Keeps only the listed rows whose queens are attacked, once each.
fn prune(listed: &mut Vec<u32>, counts: &SparseCounts, placement: &[u32]) {
    listed.retain(|&row| counts.is_attacked(row as usize, placement[row as usize]));
    listed.sort_unstable();
    listed.dedup();
}

/// Swaps with both queens chosen systematically (boards below 1000 rows): each attacked listed queen
/// tries every other row in order.
fn repair_systematic(
    counts: &mut SparseCounts,
    placement: &mut [u32],
    listed: &mut Vec<u32>,
    watch: &mut Watch<'_>,
    stats: &mut Qs4Stats,
) -> Result<Repair, Halt> {
    let n = placement.len();
    loop {
        if counts.collisions() == 0 {
            return Ok(Repair::Solved);
        }
        let mut swapped = false;
        // The list may grow during the sweep; rows appended are visited in the same sweep.
        let mut index = 0;
        while let Some(&first) = listed.get(index) {
            index += 1;
            let first = first as usize;
            for second in 0..n {
                if !counts.is_attacked(first, placement[first]) {
                    break;
                }
                if second == first {
                    continue;
                }
                watch.step()?;
                stats.swap_attempts += 1;
                if try_swap(counts, placement, first, second) {
                    stats.swaps += 1;
                    swapped = true;
                    if counts.collisions() == 0 {
                        return Ok(Repair::Solved);
                    }
                    if counts.is_attacked(second, placement[second]) {
                        listed.push(second as u32);
                    }
                }
            }
        }
        if !swapped {
            return Ok(Repair::Stuck);
        }
        prune(listed, counts, placement);
    }
}

/// Swaps with the first queen chosen systematically and the second at random (boards of 1000 rows and
/// more): each sweep gives every attacked listed queen one uniformly random partner.
fn repair_random(
    counts: &mut SparseCounts,
    placement: &mut [u32],
    listed: &mut Vec<u32>,
    rng: &mut Lookahead,
    watch: &mut Watch<'_>,
    stats: &mut Qs4Stats,
) -> Result<Repair, Halt> {
    let n = placement.len();
    let patience = n.min(RANDOM_PARTNERS_BEFORE_RESTART);
    let mut idle_sweeps = 0;
    loop {
        if counts.collisions() == 0 {
            return Ok(Repair::Solved);
        }
        let mut swapped = false;
        let mut index = 0;
        while let Some(&first) = listed.get(index) {
            index += 1;
            let first = first as usize;
            if !counts.is_attacked(first, placement[first]) {
                continue;
            }
            watch.step()?;
            stats.swap_attempts += 1;
            // A uniform row other than `first`: draw from n − 1 rows and skip over `first`.
            let mut second = below(rng, (n - 1) as u32) as usize;
            if second >= first {
                second += 1;
            }
            if try_swap(counts, placement, first, second) {
                stats.swaps += 1;
                swapped = true;
                if counts.collisions() == 0 {
                    return Ok(Repair::Solved);
                }
                if counts.is_attacked(second, placement[second]) {
                    listed.push(second as u32);
                }
            }
        }
        if swapped {
            idle_sweeps = 0;
        } else {
            idle_sweeps += 1;
            if idle_sweeps >= patience {
                return Ok(Repair::Stuck);
            }
        }
        prune(listed, counts, placement);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn c_matches_table_2_at_its_sizes() {
        for (n, c) in TABLE_2 {
            assert_eq!(conflicting_queens(n), c, "n = {n}");
        }
    }

    #[test]
    fn c_is_a_step_function_between_the_sizes_and_at_most_n() {
        assert_eq!(conflicting_queens(1), 1);
        assert_eq!(conflicting_queens(4), 4);
        assert_eq!(conflicting_queens(9), 8);
        assert_eq!(conflicting_queens(99), 8);
        assert_eq!(conflicting_queens(999), 30);
        assert_eq!(conflicting_queens(99_999), 50);
        assert_eq!(conflicting_queens(500_000), 80);
        assert_eq!(conflicting_queens(100_000_000), 100);
        assert_eq!(conflicting_queens(usize::MAX), 100);
    }
}
