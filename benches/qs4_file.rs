//! QS4 to a file: the library's QS4 with the CLI's writer against a plain implementation of the same
//! algorithm, kept here as the baseline and timed in the same run.
//!
//! `cargo bench --bench qs4_file` places 10⁷ queens with seed 0 and writes them as text (one column a
//! line), both ways, three runs each, interleaved so that a slow patch of a shared machine hurts both
//! alike, and prints the medians (wall clock and the process's time on the processors) and the ratio.
//! `QS4_FILE_N` and `QS4_FILE_SEED` change the board and the seed.
//!
//! The baseline is Sosič & Gu's QS4 written the plain way: the placement and one `u32` counter per
//! diagonal in flat vectors, a uniform draw per candidate, the file through a `BufWriter` and
//! `writeln!`. It draws the same random words in the same order as the library (the same generator and
//! stream, the same bounded draw), so it must build the same placement: the two files are compared
//! byte for byte, and one of them is checked with `nqueens_model::stream::verify_stream`, so neither
//! side can post a time for a wrong answer.
//!
//! Ours is what `csp queens solve N --method qs4 --output FILE` does: the search, the independent
//! `nqueens_model::verify` of the placement, and the file written through the CLI's atomic file.
//!
//! Without `--bench` on the command line (as under `cargo test --benches`) it runs a smoke check at
//! n = 10⁴, seeds 0 to 4, instead.

use std::fs::File;
use std::io::{BufReader, BufWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use csp::app::AtomicFile;
use nqueens_model::local_search::{Limits, LocalOutcome, conflicting_queens, qs4};
use nqueens_model::stream::{Format, verify_stream, write_placement};
use nqueens_model::verify;
use rand::Rng as _;

/// The random stream QS4 draws from (`local_search::frame::streams::QS4` in `nqueens-model`): the
/// baseline must read the same words to build the same placement.
const QS4_STREAM: u64 = 104;

/// How many times each side is timed; the median is reported.
const RUNS: usize = 3;

/// A uniform draw from `0..bound` by Lemire's multiply-and-reject method, as the library draws.
fn below(rng: &mut csp::core::Rng, bound: u32) -> u32 {
    let mut product = u64::from(rng.next_u32()) * u64::from(bound);
    if (product as u32) < bound {
        let threshold = bound.wrapping_neg() % bound;
        while (product as u32) < threshold {
            product = u64::from(rng.next_u32()) * u64::from(bound);
        }
    }
    (product >> 32) as u32
}

/// Queens per diagonal, and the collisions (a diagonal with `k ≥ 1` queens has `k − 1`).
struct Diagonals {
    n: usize,
    up: Vec<u32>,
    down: Vec<u32>,
    collisions: u64,
}

impl Diagonals {
    fn add(&mut self, row: usize, column: u32) {
        let (up, down) = (row + column as usize, column as usize + self.n - 1 - row);
        self.collisions += u64::from(self.up[up] > 0) + u64::from(self.down[down] > 0);
        self.up[up] += 1;
        self.down[down] += 1;
    }

    fn remove(&mut self, row: usize, column: u32) {
        let (up, down) = (row + column as usize, column as usize + self.n - 1 - row);
        self.up[up] -= 1;
        self.down[down] -= 1;
        self.collisions -= u64::from(self.up[up] > 0) + u64::from(self.down[down] > 0);
    }

    fn attacked(&self, row: usize, column: u32) -> bool {
        self.up[row + column as usize] > 1 || self.down[column as usize + self.n - 1 - row] > 1
    }

    /// Swaps the queens of two rows if that reduces the collisions; says whether it did.
    fn try_swap(&mut self, queens: &mut [u32], first: usize, second: usize) -> bool {
        let (a, b) = (queens[first], queens[second]);
        let before = self.collisions;
        self.remove(first, a);
        self.remove(second, b);
        self.add(first, b);
        self.add(second, a);
        if self.collisions < before {
            queens.swap(first, second);
            return true;
        }
        self.remove(first, b);
        self.remove(second, a);
        self.add(first, a);
        self.add(second, b);
        false
    }
}

/// The baseline QS4 (§3 of Sosič & Gu, *3,000,000 Queens in Less Than One Minute*, 1991), with the
/// library's choices where the paper leaves them open: a row gets as many draws as it has free columns,
/// a placement with more than `4c + 64` random queens is redrawn, and a board of 1000 rows or more
/// restarts after `min(n, 2^16)` sweeps without a swap.
fn baseline(n: usize, seed: u64) -> Vec<u32> {
    let mut rng = csp::core::rng_for(seed, QS4_STREAM);
    let c = conflicting_queens(n);
    let mut queens = vec![0_u32; n];
    let mut diagonals = Diagonals {
        n,
        up: vec![0; 2 * n - 1],
        down: vec![0; 2 * n - 1],
        collisions: 0,
    };
    loop {
        // Rows `0..row` are placed; `queens[row..]` holds the free columns.
        for (column, queen) in queens.iter_mut().enumerate() {
            *queen = column as u32;
        }
        diagonals.up.fill(0);
        diagonals.down.fill(0);
        diagonals.collisions = 0;
        let mut row = 0;
        'rows: while row < n - c {
            let free = (n - row) as u32;
            for _ in 0..free {
                let position = row + below(&mut rng, free) as usize;
                let column = queens[position];
                if diagonals.up[row + column as usize] == 0
                    && diagonals.down[column as usize + n - 1 - row] == 0
                {
                    queens.swap(row, position);
                    diagonals.add(row, column);
                    row += 1;
                    continue 'rows;
                }
            }
            break;
        }
        let first_random = row;
        for row in first_random..n {
            let position = row + below(&mut rng, (n - row) as u32) as usize;
            queens.swap(row, position);
            diagonals.add(row, queens[row]);
        }
        if n - first_random > 4 * c + 64 {
            continue;
        }
        let mut listed: Vec<u32> = (first_random as u32..n as u32).collect();
        let patience = n.min(1 << 16);
        let mut idle_sweeps = 0;
        let solved = loop {
            if diagonals.collisions == 0 {
                break true;
            }
            let mut swapped = false;
            let mut index = 0;
            while index < listed.len() {
                let first = listed[index] as usize;
                index += 1;
                if n < 1000 {
                    for second in 0..n {
                        if !diagonals.attacked(first, queens[first]) {
                            break;
                        }
                        if second != first && diagonals.try_swap(&mut queens, first, second) {
                            swapped = true;
                            if diagonals.collisions == 0 {
                                return queens;
                            }
                            if diagonals.attacked(second, queens[second]) {
                                listed.push(second as u32);
                            }
                        }
                    }
                } else if diagonals.attacked(first, queens[first]) {
                    let mut second = below(&mut rng, (n - 1) as u32) as usize;
                    if second >= first {
                        second += 1;
                    }
                    if diagonals.try_swap(&mut queens, first, second) {
                        swapped = true;
                        if diagonals.collisions == 0 {
                            return queens;
                        }
                        if diagonals.attacked(second, queens[second]) {
                            listed.push(second as u32);
                        }
                    }
                }
            }
            if swapped {
                idle_sweeps = 0;
            } else if n < 1000 {
                break false;
            } else {
                idle_sweeps += 1;
                if idle_sweeps >= patience {
                    break false;
                }
            }
            listed.retain(|&row| diagonals.attacked(row as usize, queens[row as usize]));
            listed.sort_unstable();
            listed.dedup();
        };
        if solved {
            return queens;
        }
    }
}

/// The baseline's file: one column a line, through `writeln!`.
fn write_baseline(path: &Path, queens: &[u32]) {
    let mut file = BufWriter::new(File::create(path).expect("the baseline's file opens"));
    for column in queens {
        writeln!(file, "{column}").expect("the baseline's file is written");
    }
    file.flush().expect("the baseline's file is written");
}

/// Ours, as `csp queens solve N --method qs4 --output FILE` runs it: search, verify, write.
fn ours(n: usize, seed: u64, path: &Path) {
    let report =
        qs4(n, seed, &Limits::default(), &AtomicBool::new(false)).expect("a valid board size");
    let LocalOutcome::Solved(queens) = report.outcome else {
        panic!("QS4 solves n = {n} with seed {seed}");
    };
    verify(&queens).expect("QS4's placement is a solution");
    let mut file = AtomicFile::create(path).expect("our file opens");
    write_placement(&mut file, queens.iter().copied(), Format::Text).expect("our file is written");
    file.commit().expect("our file is committed");
}

/// The time a closure took on the wall clock and on the processors (the process's user and system
/// time, every thread's: ours verifies on two threads).
fn timed(run: impl FnOnce()) -> (Duration, Duration) {
    let (wall, cpu) = (Instant::now(), process_cpu());
    run();
    (wall.elapsed(), process_cpu().saturating_sub(cpu))
}

/// The process's user and system time so far, from `/proc/self/stat` (fields 14 and 15, in clock
/// ticks of 10 ms, Linux's `USER_HZ`); zero where that file is missing.
fn process_cpu() -> Duration {
    let ticks = std::fs::read_to_string("/proc/self/stat")
        .ok()
        .and_then(|text| {
            // The command name (field 2) is in parentheses and may hold spaces: count after it.
            let fields: Vec<&str> = text.rsplit_once(')')?.1.split_whitespace().collect();
            Some(fields.get(11)?.parse::<u64>().ok()? + fields.get(12)?.parse::<u64>().ok()?)
        });
    ticks.map_or(Duration::ZERO, |ticks| Duration::from_millis(10 * ticks))
}

fn median(mut times: Vec<Duration>) -> Duration {
    times.sort_unstable();
    times[times.len() / 2]
}

/// Both files must be the same bytes, and that placement a solution of `n` rows.
fn check_files(ours: &Path, baseline: &Path, n: usize) {
    let (mine, theirs) = (
        std::fs::read(ours).expect("our file reads back"),
        std::fs::read(baseline).expect("the baseline's file reads back"),
    );
    assert!(
        mine == theirs,
        "the two files differ ({} and {} bytes)",
        mine.len(),
        theirs.len()
    );
    let file = File::open(ours).expect("our file reads back");
    let rows = verify_stream(BufReader::new(file), Format::Text).expect("the file is a solution");
    assert_eq!(rows, n);
}

fn scratch(name: &str) -> PathBuf {
    std::env::temp_dir().join(format!("csp-qs4-file-{}-{name}.txt", std::process::id()))
}

fn main() {
    // `cargo bench` passes `--bench`; `cargo test --benches` does not, and gets a quick smoke check.
    let benchmarking = std::env::args().any(|arg| arg == "--bench");
    let (ours_path, baseline_path) = (scratch("ours"), scratch("baseline"));
    if !benchmarking {
        for seed in 0..5 {
            ours(10_000, seed, &ours_path);
            write_baseline(&baseline_path, &baseline(10_000, seed));
            check_files(&ours_path, &baseline_path, 10_000);
        }
        for path in [&ours_path, &baseline_path] {
            std::fs::remove_file(path).expect("the scratch file is removed");
        }
        println!(
            "qs4_file smoke check: both sides wrote the same verified file for n = 10^4, seeds 0-4"
        );
        return;
    }
    let variable = |name: &str, default: u64| {
        std::env::var(name)
            .ok()
            .map_or(default, |text| text.parse().expect("a whole number"))
    };
    let n = variable("QS4_FILE_N", 10_000_000) as usize;
    let seed = variable("QS4_FILE_SEED", 0);

    let (mut ours_times, mut baseline_times) = (Vec::new(), Vec::new());
    for _ in 0..RUNS {
        ours_times.push(timed(|| ours(n, seed, &ours_path)));
        baseline_times.push(timed(|| {
            write_baseline(&baseline_path, &baseline(n, seed));
        }));
    }
    check_files(&ours_path, &baseline_path, n);
    for path in [&ours_path, &baseline_path] {
        std::fs::remove_file(path).expect("the scratch file is removed");
    }

    println!("QS4 to a text file, n = {n}, seed {seed}; medians of {RUNS} runs");
    println!("{:<40} {:>12} {:>12}", "", "wall s", "on a CPU s");
    let mut medians = Vec::new();
    for (what, times) in [
        ("ours (search, verify, atomic write)", ours_times),
        ("baseline (plain QS4, writeln!)", baseline_times),
    ] {
        let wall = median(times.iter().map(|&(wall, _)| wall).collect());
        let cpu = median(times.iter().map(|&(_, cpu)| cpu).collect());
        println!(
            "{what:<40} {:>12.3} {:>12.3}",
            wall.as_secs_f64(),
            cpu.as_secs_f64()
        );
        medians.push((wall, cpu));
    }
    let ratio = |pick: fn(&(Duration, Duration)) -> Duration| {
        pick(&medians[1]).as_secs_f64() / pick(&medians[0]).as_secs_f64()
    };
    println!(
        "ours is {:.2}x the baseline's speed on the wall clock, {:.2}x on a CPU; the files are identical and verified",
        ratio(|times| times.0),
        ratio(|times| times.1)
    );
}
