//! Rolfe's two Las Vegas algorithms (*Las Vegas Does N-Queens*, 2006).

use std::sync::atomic::AtomicBool;

use csp_core::rng_for;

use super::diagonals::{BitSet, down_diagonal, up_diagonal};
use super::{
    Halt, Limits, LocalError, LocalMethod, RunReport, Stats, Watch, below, run_method, shuffle,
};

/// Algorithm One's counts, in the order of [`RunReport::stats`].
#[derive(Debug, Default)]
struct LasVegas1Stats {
    permutation_vectors: u64,
    swaps: u64,
}

impl Stats for LasVegas1Stats {
    fn to_vec(&self) -> Vec<(&'static str, u64)> {
        vec![
            ("permutation_vectors", self.permutation_vectors),
            ("swaps", self.swaps),
        ]
    }
}

/// Rolfe's Algorithm One: shuffle the permutation vector, then walk down the rows swapping later
/// queens into a row until its queen is on no diagonal in use; start over with a new shuffle when a row
/// runs out of later queens.
///
/// The pseudocode of *Las Vegas Does N-Queens* (2006), followed line by line:
///
/// ```text
/// repeat
///    set valid to true
///    shuffle the current permutation vector
///    set the two diagonal vectors to all false
///    mark the row 0 queen in the two diagonal vectors
///    for row = 1 to n-1
///       set test = row+1
///       while this queen is on an in-use diagonal
///          if test = n
///             set valid to false
///             break out of the while loop
///          else
///             swap positions row and test
///             increment test
///          end if/else
///       end while
///       if not valid
///          break out of the for loop
///       mark this row's queen in the diagonal vectors
///    end for
/// loop until valid
/// ```
///
/// Choices where the text leaves room: the vector starts as the identity `0, 1, …, n − 1` before the
/// first shuffle, and each later shuffle starts from the vector the previous attempt left ("shuffle the
/// *current* permutation vector"); the shuffle is Durstenfeld's Fisher–Yates. The two diagonal vectors
/// are Wirth's flags, one byte per diagonal. The OCR reads cleanly here; "for row = 1 to n-1" is taken as
/// inclusive of `n − 1`, as the "if test = n" bound implies. The while loop's swaps are carried out as one
/// rotation (see the comment in the code); a unit test of this file runs the literal swaps on the same
/// random numbers and gets the same vectors and counts.
///
/// A step (for [`Limits::max_steps`]) is one permutation vector. Stats, in order:
/// `permutation_vectors` (shuffles, Rolfe's "Permutation Vectors Used"; 9,490 to 175,805 in his four
/// runs at `n` = 1000) and `swaps`.
pub fn las_vegas1(
    n: usize,
    seed: u64,
    limits: &Limits,
    stop: &AtomicBool,
) -> Result<RunReport, LocalError> {
    run_method(
        LocalMethod::LasVegas1,
        n,
        seed,
        limits,
        stop,
        |watch, stats| algorithm_one(n, seed, watch, stats),
    )
}

fn algorithm_one(
    n: usize,
    seed: u64,
    watch: &mut Watch<'_>,
    stats: &mut LasVegas1Stats,
) -> Result<Vec<u32>, Halt> {
    let mut rng = rng_for(seed, super::streams::LAS_VEGAS1);
    let mut vector: Vec<u32> = (0..n as u32).collect();
    // Wirth's two diagonal vectors, a byte per diagonal: testing a queen is then two loads and an
    // `or`, which is what the inner loop does thousands of times per vector.
    let mut up = vec![false; 2 * n - 1];
    let mut down = vec![false; 2 * n - 1];
    loop {
        watch.step()?;
        stats.permutation_vectors += 1;
        shuffle(&mut rng, &mut vector);
        up.fill(false);
        down.fill(false);
        up[up_diagonal(0, vector[0])] = true;
        down[down_diagonal(n, 0, vector[0])] = true;
        let mut valid = true;
        for row in 1..n {
            // Large boards take long per vector, so the stop flag is watched within one too.
            watch.work(1)?;
            // Rolfe's while loop tests the queens of positions row, row + 1, …, n − 1 in turn (each
            // swap brings the next one into the row) and stops at the first on no diagonal in use.
            // Its swaps leave the first fitting queen in the row and shift the ones it passed over one
            // position later: a rotation by one of vector[row..=fit]. Finding `fit` first and rotating
            // once does exactly that, without a data-dependent branch per tested queen.
            match first_fit(&vector, row, &up, &down) {
                Some(fit) => {
                    vector[row..=fit].rotate_right(1);
                    stats.swaps += (fit - row) as u64;
                    up[up_diagonal(row, vector[row])] = true;
                    down[down_diagonal(n, row, vector[row])] = true;
                }
                None => {
                    // Rolfe's loop swapped through test = n − 1 before finding test = n, so the
                    // vector the next shuffle starts from is rotated the same way.
                    vector[row..].rotate_right(1);
                    stats.swaps += (n - 1 - row) as u64;
                    valid = false;
                    break;
                }
            }
        }
        if valid {
            return Ok(vector);
        }
        // The shuffle was a unit of work per row as well.
        watch.work(n as u64)?;
    }
}

/// The first position at or after `row` whose queen, moved to `row`, would be on no diagonal in use.
///
/// The queen already in the row is tested alone, since in the early rows it nearly always fits. Later
/// positions are tested eight at a time into a bit mask, so a run of attacked queens costs one branch
/// per eight instead of a mispredicted branch for each.
#[inline]
fn first_fit(vector: &[u32], row: usize, up: &[bool], down: &[bool]) -> Option<usize> {
    const CHUNK: usize = 8;
    let n = vector.len();
    // Row `row` meets up-diagonal row + c and down-diagonal c + (n − 1 − row): the row's slices of the
    // two vectors, indexed by column.
    let (up, down) = (&up[row..], &down[n - 1 - row..]);
    let fits = |column: u32| !(up[column as usize] | down[column as usize]);
    if fits(vector[row]) {
        return Some(row);
    }
    let mut start = row + 1;
    while start < n {
        let end = (start + CHUNK).min(n);
        let mut mask = 0_u32;
        for (offset, &column) in vector[start..end].iter().enumerate() {
            mask |= u32::from(fits(column)) << offset;
        }
        if mask != 0 {
            return Some(start + mask.trailing_zeros() as usize);
        }
        start = end;
    }
    None
}

/// Algorithm Two's counts, in the order of [`RunReport::stats`].
#[derive(Debug, Default)]
struct LasVegas2Stats {
    trials: u64,
}

impl Stats for LasVegas2Stats {
    fn to_vec(&self) -> Vec<(&'static str, u64)> {
        vec![("trials", self.trials)]
    }
}

/// Rolfe's Algorithm Two (GridSearch): from the top row down, put each queen on a uniformly random cell
/// of its row that no queen above attacks; start a new trial when a row has no such cell.
///
/// The pseudocode of *Las Vegas Does N-Queens* (2006):
///
/// ```text
/// repeat
///    set valid to true
///    boolean matrix blocked[n][n] set to all false
///    for row = 0 to n–1
///       randomly select col as an unblocked cell
///       if there is NO unblocked cell
///          set valid to false and break from for loop
///       save col as part of the solution vector
///       for all rows below the current row
///          mark as blocked the col cell
///          also diagonal cells blocked by [row][col]
///       end for
///    end for
/// loop until valid
/// ```
///
/// The matrix is kept implicitly, and the random choices are exactly the matrix's: cell `[r][c]` ends up
/// blocked precisely when a queen placed above `r` shares its column, its up-diagonal or its
/// down-diagonal, so three bit sets (columns, up- and down-diagonals in use, Wirth's vectors again) say
/// the same as `blocked[r][c]` for every row not yet placed. This takes O(n) bits instead of n² booleans
/// and reads a row's unblocked cells 64 at a time. "Randomly select col as an unblocked cell" is a
/// uniform choice among the row's unblocked cells: the `k`-th in column order for a uniform `k`.
/// (A unit test of this file runs a literal `blocked[n][n]` version on the same random numbers and gets
/// the same placements and trial counts.)
///
/// A step (for [`Limits::max_steps`]) is one trial. Stats: `trials` (Rolfe's "Trials Required"; 1,323
/// to 49,466 in his four runs at `n` = 1000).
pub fn las_vegas2(
    n: usize,
    seed: u64,
    limits: &Limits,
    stop: &AtomicBool,
) -> Result<RunReport, LocalError> {
    run_method(
        LocalMethod::LasVegas2,
        n,
        seed,
        limits,
        stop,
        |watch, stats| algorithm_two(n, seed, watch, stats),
    )
}

fn algorithm_two(
    n: usize,
    seed: u64,
    watch: &mut Watch<'_>,
    stats: &mut LasVegas2Stats,
) -> Result<Vec<u32>, Halt> {
    let mut rng = rng_for(seed, super::streams::LAS_VEGAS2);
    let mut solution: Vec<u32> = vec![0; n];
    let mut columns = BitSet::new(n);
    let mut up = BitSet::new(2 * n - 1);
    let mut down = BitSet::new(2 * n - 1);
    let words = n.div_ceil(64);
    // The unblocked cells of the current row, 64 columns a word.
    let mut unblocked: Vec<u64> = vec![0; words];
    // Columns past n in the last word are never cells.
    let last_word_mask = match n % 64 {
        0 => u64::MAX,
        bits => (1_u64 << bits) - 1,
    };
    loop {
        watch.step()?;
        stats.trials += 1;
        let mut valid = true;
        columns.clear();
        up.clear();
        down.clear();
        for (row, placed) in solution.iter_mut().enumerate() {
            // Row `row` meets up-diagonals row + c and down-diagonals c + (n − 1 − row) as c increases,
            // so its blocked cells are windows of the two diagonal sets.
            let mut count = 0_u32;
            for (word, slot) in unblocked.iter_mut().enumerate() {
                let first_column = 64 * word;
                let blocked = columns.word(word)
                    | up.window(row + first_column)
                    | down.window(n - 1 - row + first_column);
                let mut free = !blocked;
                if word + 1 == words {
                    free &= last_word_mask;
                }
                *slot = free;
                count += free.count_ones();
            }
            watch.work(words as u64)?;
            if count == 0 {
                valid = false;
                break;
            }
            let column = nth_set_bit(&unblocked, below(&mut rng, count));
            *placed = column;
            columns.insert(column as usize);
            up.insert(up_diagonal(row, column));
            down.insert(down_diagonal(n, row, column));
        }
        if valid {
            return Ok(solution);
        }
    }
}

/// The position of the `k`-th set bit (from 0, lowest first) of a bit string stored in words; `k` must
/// be below the number of set bits.
fn nth_set_bit(words: &[u64], mut k: u32) -> u32 {
    for (index, &word) in words.iter().enumerate() {
        let ones = word.count_ones();
        if k < ones {
            let mut word = word;
            for _ in 0..k {
                // Clear the lowest set bit k times; the next lowest is the one sought.
                word &= word - 1;
            }
            return 64 * index as u32 + word.trailing_zeros();
        }
        k -= ones;
    }
    // The caller draws k below the number of set bits, so the loop always returns.
    debug_assert!(false, "nth_set_bit called with k beyond the set bits");
    0
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::AtomicBool;

    use super::*;
    use crate::local_search::LocalOutcome;

    /// Algorithm One with the pseudocode's swaps, one at a time, on the same random numbers.
    fn literal_algorithm_one(n: usize, seed: u64) -> (Vec<u32>, u64, u64) {
        let mut rng = rng_for(seed, super::super::streams::LAS_VEGAS1);
        let mut vector: Vec<u32> = (0..n as u32).collect();
        let (mut vectors, mut swaps) = (0, 0);
        let on_used_diagonal = |up: &[bool], down: &[bool], row: usize, column: u32| {
            up[up_diagonal(row, column)] || down[down_diagonal(n, row, column)]
        };
        loop {
            vectors += 1;
            let mut valid = true;
            shuffle(&mut rng, &mut vector);
            let mut up = vec![false; 2 * n - 1];
            let mut down = vec![false; 2 * n - 1];
            up[up_diagonal(0, vector[0])] = true;
            down[down_diagonal(n, 0, vector[0])] = true;
            for row in 1..n {
                let mut test = row + 1;
                while on_used_diagonal(&up, &down, row, vector[row]) {
                    if test == n {
                        valid = false;
                        break;
                    } else {
                        vector.swap(row, test);
                        swaps += 1;
                        test += 1;
                    }
                }
                if !valid {
                    break;
                }
                up[up_diagonal(row, vector[row])] = true;
                down[down_diagonal(n, row, vector[row])] = true;
            }
            if valid {
                return (vector, vectors, swaps);
            }
        }
    }

    /// Algorithm Two with the pseudocode's `blocked[n][n]` matrix, on the same random numbers.
    fn literal_algorithm_two(n: usize, seed: u64) -> (Vec<u32>, u64) {
        let mut rng = rng_for(seed, super::super::streams::LAS_VEGAS2);
        let mut trials = 0;
        loop {
            trials += 1;
            let mut valid = true;
            let mut blocked = vec![vec![false; n]; n];
            let mut solution = vec![0_u32; n];
            for row in 0..n {
                let unblocked: Vec<usize> = (0..n).filter(|&col| !blocked[row][col]).collect();
                if unblocked.is_empty() {
                    valid = false;
                    break;
                }
                let col = unblocked[below(&mut rng, unblocked.len() as u32) as usize];
                solution[row] = col as u32;
                for (below_row, cells) in blocked.iter_mut().enumerate().skip(row + 1) {
                    let distance = below_row - row;
                    cells[col] = true;
                    if col >= distance {
                        cells[col - distance] = true;
                    }
                    if col + distance < n {
                        cells[col + distance] = true;
                    }
                }
            }
            if valid {
                return (solution, trials);
            }
        }
    }

    fn solved(report: &RunReport) -> Vec<u32> {
        match &report.outcome {
            LocalOutcome::Solved(placement) => placement.clone(),
            other => panic!("expected a solution, got {other:?}"),
        }
    }

    #[test]
    fn algorithm_one_is_the_literal_pseudocode() {
        let stop = AtomicBool::new(false);
        for n in [4, 5, 8, 13, 30, 64, 65, 100] {
            for seed in 0..4 {
                let report = las_vegas1(n, seed, &Limits::default(), &stop).unwrap();
                let (vector, vectors, swaps) = literal_algorithm_one(n, seed);
                assert_eq!(solved(&report), vector, "n = {n}, seed {seed}");
                assert_eq!(report.stat("permutation_vectors"), Some(vectors));
                assert_eq!(report.stat("swaps"), Some(swaps));
            }
        }
    }

    #[test]
    fn algorithm_two_is_the_literal_pseudocode() {
        let stop = AtomicBool::new(false);
        for n in [4, 5, 8, 13, 30, 63, 64, 65, 100, 130] {
            for seed in 0..4 {
                let report = las_vegas2(n, seed, &Limits::default(), &stop).unwrap();
                let (solution, trials) = literal_algorithm_two(n, seed);
                assert_eq!(solved(&report), solution, "n = {n}, seed {seed}");
                assert_eq!(report.stat("trials"), Some(trials));
            }
        }
    }

    #[test]
    fn nth_set_bit_counts_across_words() {
        let words = [0b1010_u64, 0, 1 << 63 | 1];
        let positions: Vec<u32> = (0..4).map(|k| nth_set_bit(&words, k)).collect();
        assert_eq!(positions, [1, 3, 128, 191]);
    }
}
