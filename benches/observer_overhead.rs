//! What observing a search costs: the same full search with the statistics the engine always keeps,
//! then also with Stone & Stone's online estimator, then with the estimator and a trace recorder.
//!
//! `cargo bench --bench observer_overhead` runs the full 12-queens search twice, once under LEX
//! (check-past; 856,189 nodes) and once under MIN with forward checking, five times for each observer.
//! The runs are interleaved, so that a slow patch of a shared machine hurts every observer alike. It
//! prints the medians and each observer's overhead against statistics alone, measured in the same run.
//! The observability issue asks for at most 15 % for the estimator.
//!
//! Without `--bench` on the command line (as under `cargo test --benches`) it runs a smoke check at
//! n = 8 instead.
//!
//! On a noisy machine instruction counts are the steady comparison:
//! `OBSERVER_OVERHEAD_N=11 OBSERVER_OVERHEAD_ONLY=lex/1 valgrind --tool=callgrind <bench binary>` runs
//! one search (here LEX with the estimator, observer set 1; `min/0` is MIN with statistics only),
//! once, and callgrind's total for it, against the same for set 0, is the overhead.
//!
//! Every run is checked: the solution count against OEIS A000170, the completed estimator against the
//! exact tree, and the trace's line count against its events. A broken observer cannot post a time.

use std::time::{Duration, Instant};

use csp::nqueens::{Encoding, model};
use csp::search::{
    Outcome, SearchConfig, SearchResult, Statistics, TraceRecorder, TreeSizeEstimator, solve,
};

/// OEIS A000170 for the benchmark sizes, indexed by n.
const A000170: [u64; 13] = [0, 1, 0, 0, 2, 10, 4, 40, 92, 352, 724, 2680, 14200];

/// The observers compared, in the order they are printed.
const OBSERVERS: [&str; 3] = ["statistics only", "+ estimator", "+ estimator + trace"];

/// Runs the full search of `n` queens under `config` with observer set `which` (an index into
/// [`OBSERVERS`]), checks its results, and returns its time. Only `solve` is timed.
fn run(n: usize, config: &SearchConfig, which: usize) -> Duration {
    let model = model(n, Encoding::Counters).expect("a valid size");
    let config = config.clone().all_solutions();
    let start = Instant::now();
    match which {
        0 => {
            finish(solve(&model, &config, ()), n);
            start.elapsed()
        }
        1 => {
            let mut estimator = TreeSizeEstimator::new();
            let stats = finish(solve(&model, &config, &mut estimator), n);
            let elapsed = start.elapsed();
            check_estimator(&estimator, &stats, n);
            elapsed
        }
        _ => {
            let mut observers = (TreeSizeEstimator::new(), TraceRecorder::new(&model, None));
            let stats = finish(solve(&model, &config, &mut observers), n);
            let elapsed = start.elapsed();
            let (estimator, trace) = &observers;
            check_estimator(estimator, &stats, n);
            assert_eq!(trace.text().lines().count() as u64, trace.events());
            assert!(
                trace.events() > stats.nodes,
                "every node is at least one event"
            );
            elapsed
        }
    }
}

/// The statistics of a search of `n` queens that must have run to the end and found every solution.
fn finish(result: SearchResult, n: usize) -> Statistics {
    assert_eq!(result.outcome, Outcome::Exhausted);
    assert_eq!(result.stats.solutions, A000170[n], "{n} queens");
    result.stats
}

/// A completed search makes the estimator exact (Stone & Stone §4), up to floating-point rounding
/// of the reweighting fractions.
fn check_estimator(estimator: &TreeSizeEstimator, stats: &Statistics, n: usize) {
    let exactly = |estimate: f64, count: u64| {
        (estimate - count as f64).abs() <= 1e-9 * (count as f64).max(1.0)
    };
    assert!(exactly(estimator.estimated_tree_size(), stats.tree_nodes()));
    assert!(exactly(estimator.estimated_solutions(), A000170[n]));
}

fn median(mut times: Vec<Duration>) -> Duration {
    times.sort();
    times[times.len() / 2]
}

fn main() {
    // `cargo bench` passes `--bench`; `cargo test --benches` does not, and gets a quick smoke check.
    let benchmarking = std::env::args().any(|arg| arg == "--bench");
    let (n, runs) = if benchmarking { (12, 5) } else { (8, 1) };
    let (n, runs) = match std::env::var("OBSERVER_OVERHEAD_N") {
        Ok(n) => (n.parse().expect("OBSERVER_OVERHEAD_N is a board size"), 1),
        Err(_) => (n, runs),
    };
    let min_fc = SearchConfig::min();
    let configs = [
        ("LEX, check-past", SearchConfig::lex()),
        ("MIN, forward checking", min_fc),
    ];

    println!("full {n}-queens search; medians of {runs} interleaved run(s)");
    println!(
        "{:<24} {:<22} {:>10} {:>10}",
        "search", "observers", "ms", "overhead"
    );
    if let Ok(only) = std::env::var("OBSERVER_OVERHEAD_ONLY") {
        let (search, which) = only
            .split_once('/')
            .expect("OBSERVER_OVERHEAD_ONLY is lex/K or min/K");
        let config = if search == "lex" {
            &configs[0].1
        } else {
            &configs[1].1
        };
        let which: usize = which.parse().expect("an observer set 0, 1 or 2");
        let time = run(n, config, which);
        println!(
            "{search}, {}: {:.1} ms",
            OBSERVERS[which],
            time.as_secs_f64() * 1e3
        );
        return;
    }
    for (name, config) in &configs {
        let mut times = vec![Vec::new(); OBSERVERS.len()];
        for _ in 0..runs {
            for (which, observer_times) in times.iter_mut().enumerate() {
                observer_times.push(run(n, config, which));
            }
        }
        let medians: Vec<Duration> = times.into_iter().map(median).collect();
        let base = medians[0].as_secs_f64();
        for (which, time) in medians.iter().enumerate() {
            let overhead = (time.as_secs_f64() / base - 1.0) * 100.0;
            println!(
                "{:<24} {:<22} {:>10.1} {:>9.1}%",
                name,
                OBSERVERS[which],
                time.as_secs_f64() * 1e3,
                overhead
            );
        }
    }
}
