//! Node throughput of the full LEX count (Dijkstra's program: model order, ascending values,
//! check-past, every solution) at n = 12 and 13, for both encodings, with the ratio
//! counters / pairwise as a baseline measured in the same run.
//!
//! Run it with `cargo bench --bench lex_throughput`. Each configuration is timed three times and the
//! median is reported; the runs of the two encodings are interleaved so that a slow patch of a shared
//! machine hurts both alike rather than skewing the ratio.
//!
//! Without `--bench` on the command line (as under `cargo test --benches`) it runs a smoke check at
//! n = 8 and 9 instead, so that a test run does not spend a minute here.

use std::time::{Duration, Instant};

use csp::nqueens::{Encoding, model};
use csp::search::{Outcome, SearchConfig, solve};

/// OEIS A000170: the number of ways to place n nonattacking queens, indexed by n (index 0 unused).
const A000170: [u64; 14] = [0, 1, 0, 0, 2, 10, 4, 40, 92, 352, 724, 2680, 14200, 73712];

/// Assignments made by the full LEX count (the tree size minus the root), indexed by n; Stone &
/// Stone, Table 1 (856,189 nodes at n = 12: the paper's 853,189 is a misprint).
const LEX_NODES: [u64; 14] = [
    0, 1, 2, 5, 16, 53, 152, 551, 2056, 8393, 35538, 166925, 856188, 4674889,
];

/// The encodings, in the order the table lists them; the first is the numerator of the ratio.
const ENCODINGS: [Encoding; 2] = [Encoding::Counters, Encoding::Pairwise];

/// How many times each configuration is timed; the median is reported.
const RUNS: usize = 3;

/// Counts every solution of the n-queens board with LEX, checks the count and the tree size against the
/// published figures, and returns the search time (the model is built before the clock starts).
fn timed_lex_count(n: usize, encoding: Encoding) -> Duration {
    let model = model(n, encoding).expect("the benchmark sizes are valid boards");
    let config = SearchConfig::lex().all_solutions();
    let started = Instant::now();
    let result = solve(&model, &config, ());
    let elapsed = started.elapsed();
    // A broken engine must not report a fast number: the tree must be the published one.
    assert_eq!(result.outcome, Outcome::Exhausted, "n = {n}, {encoding}");
    assert_eq!(result.stats.solutions, A000170[n], "n = {n}, {encoding}");
    assert_eq!(result.stats.nodes, LEX_NODES[n], "n = {n}, {encoding}");
    elapsed
}

/// The median of a non-empty list of durations.
fn median(mut times: Vec<Duration>) -> Duration {
    times.sort_unstable();
    times[times.len() / 2]
}

/// Formats a rate with thousands separators, as whole units per second.
fn per_second(count: u64, time: Duration) -> String {
    group_thousands((count as f64 / time.as_secs_f64()).round() as u64)
}

/// `1234567` as `1,234,567`.
fn group_thousands(value: u64) -> String {
    let digits = value.to_string();
    let mut grouped = String::with_capacity(digits.len() + digits.len() / 3);
    for (index, digit) in digits.chars().enumerate() {
        if index > 0 && (digits.len() - index).is_multiple_of(3) {
            grouped.push(',');
        }
        grouped.push(digit);
    }
    grouped
}

fn main() {
    // `cargo bench` passes `--bench`; `cargo test --benches` does not, and gets a quick smoke check.
    let benchmarking = std::env::args().any(|arg| arg == "--bench");
    let (sizes, runs) = if benchmarking {
        (vec![12, 13], RUNS)
    } else {
        (vec![8, 9], 1)
    };

    println!("LEX full count (check-past, all solutions): median of {runs} run(s), search only");
    println!(
        "{:>3}  {:<9}  {:>10}  {:>10}  {:>12}",
        "n", "encoding", "nodes", "median", "nodes/s"
    );
    for n in sizes {
        let mut times: [Vec<Duration>; ENCODINGS.len()] = Default::default();
        for _ in 0..runs {
            for (encoding_times, &encoding) in times.iter_mut().zip(&ENCODINGS) {
                encoding_times.push(timed_lex_count(n, encoding));
            }
        }
        let medians = times.map(median);
        for (&encoding, &time) in ENCODINGS.iter().zip(&medians) {
            println!(
                "{:>3}  {:<9}  {:>10}  {:>8.1}ms  {:>12}",
                n,
                encoding.name(),
                group_thousands(LEX_NODES[n]),
                time.as_secs_f64() * 1e3,
                per_second(LEX_NODES[n], time),
            );
        }
        // Both encodings walk the same tree, so the ratio of their rates is the ratio of their times.
        let ratio = medians[1].as_secs_f64() / medians[0].as_secs_f64();
        println!("{n:>3}  counters/pairwise throughput ratio: {ratio:.2}x");
    }
}
