//! Timings of the local-search solvers (`nqueens_model::local_search`): median, minimum and maximum over seeds,
//! the methods' own counts, and the process's peak memory.
//!
//! ```text
//! cargo bench -p nqueens-model --bench local_solvers                 # the short default set
//! cargo bench -p nqueens-model --bench local_solvers -- qs4:1e7 qs4:1e8:5
//! cargo bench -p nqueens-model --bench local_solvers -- table2 lv1-distribution lv2-trials
//! ```
//!
//! A case is `METHOD:N[:SEEDS]` (METHOD one of qs1, qs4, min-conflicts, las-vegas1, las-vegas2; N like 1000 or 1e6;
//! SEEDS 5 unless given; seeds are 1, 2, …), or one of the reports:
//! - `table2`: QS4 at Sosič & Gu's Table 2 sizes, 10 to 3×10⁶, ten seeds each as in the paper;
//! - `lv1-distribution`: Las Vegas One at n = 1000 over 100 seeds, the quartiles of permutation vectors
//!   (two seeds at a time, one per core: the counts do not depend on timing, and it halves the wait);
//! - `lv2-trials`: Las Vegas Two at n = 1000 over 10 seeds, the trials.
//!
//! With `LOCAL_BENCH_PER_SEED=1` in the environment every run is printed too (seed, time, counts).
//!
//! Peak memory is the process's high-water mark (VmHWM in /proc/self/status), so it belongs to the
//! largest case run so far: run a large case alone to measure it, e.g. `-- qs4:1e8:5` for QS4's bytes per
//! queen at 10⁸. Every solution is checked with `nqueens_model::verify`, outside the timing.

use std::sync::atomic::AtomicBool;
use std::time::Duration;

use nqueens_model::local_search::{Limits, LocalMethod, LocalOutcome, RunReport};
use nqueens_model::verify;
use rayon::prelude::*;

mod clock;

use clock::{Clock, peak_resident_bytes};

/// The cases run when none is named: one per performance target of the issue, at its size.
const DEFAULT_CASES: [&str; 5] = [
    "qs4:1e6",
    "qs1:1e5",
    "min-conflicts:1e5",
    "las-vegas1:1000",
    "las-vegas2:300",
];

/// Sosič & Gu's Table 2 sizes and their average times on an IBM RS 6000/530, in seconds.
const TABLE_2: [(usize, f64); 8] = [
    (10, 0.0),
    (100, 0.0),
    (1_000, 0.0),
    (10_000, 0.1),
    (100_000, 1.1),
    (1_000_000, 17.0),
    (2_000_000, 35.8),
    (3_000_000, 54.7),
];

fn main() {
    // Cargo passes `--bench` (and libtest-style flags) to a harness-free bench; only bare words are cases.
    let mut cases: Vec<String> = std::env::args()
        .skip(1)
        .filter(|arg| !arg.starts_with('-'))
        .collect();
    if cases.is_empty() {
        cases = DEFAULT_CASES.iter().map(|case| case.to_string()).collect();
    }
    for case in &cases {
        match case.as_str() {
            "table2" => table2(),
            "lv1-distribution" => lv1_distribution(),
            "lv2-trials" => lv2_trials(),
            spec => match parse_case(spec) {
                Some((method, n, seeds)) => {
                    let runs = run_seeds(method, n, seeds);
                    print_summary(method, n, &runs);
                }
                None => {
                    eprintln!(
                        "unknown case {spec:?}: expected METHOD:N[:SEEDS], table2, lv1-distribution or lv2-trials"
                    );
                    std::process::exit(2);
                }
            },
        }
    }
}

/// `METHOD:N[:SEEDS]`.
fn parse_case(spec: &str) -> Option<(LocalMethod, usize, u64)> {
    let mut parts = spec.split(':');
    let method = parts.next()?.parse().ok()?;
    let n = parse_size(parts.next()?)?;
    let seeds = match parts.next() {
        Some(seeds) => seeds.parse().ok()?,
        None => 5,
    };
    parts.next().is_none().then_some((method, n, seeds))
}

/// `1000`, `1e6` or `3e6`.
fn parse_size(text: &str) -> Option<usize> {
    match text.split_once('e') {
        Some((mantissa, exponent)) => {
            let mantissa: usize = mantissa.parse().ok()?;
            mantissa.checked_mul(10_usize.checked_pow(exponent.parse().ok()?)?)
        }
        None => text.parse().ok(),
    }
}

/// One timed run per seed `1..=seeds`, each solution verified outside the timing.
fn run_seeds(method: LocalMethod, n: usize, seeds: u64) -> Vec<(Duration, RunReport)> {
    run_seeds_from(method, n, 1..=seeds)
}

/// One timed run per seed of `seeds`, each solution verified outside the timing.
fn run_seeds_from(
    method: LocalMethod,
    n: usize,
    seeds: std::ops::RangeInclusive<u64>,
) -> Vec<(Duration, RunReport)> {
    // The on-CPU times recorded below belong to these runs only.
    CPU_TIMES.with(|times| times.borrow_mut().clear());
    seeds
        .map(|seed| {
            let stop = AtomicBool::new(false);
            let clock = Clock::thread();
            let report = method
                .run(n, seed, &Limits::default(), &stop)
                .unwrap_or_else(|error| panic!("{method} n = {n}: {error}"));
            let (elapsed, cpu) = (clock.wall(), clock.cpu());
            CPU_TIMES.with(|times| times.borrow_mut().push(cpu));
            if std::env::var_os("LOCAL_BENCH_PER_SEED").is_some() {
                let stats: Vec<String> = report
                    .stats
                    .iter()
                    .map(|(name, value)| format!("{name} {value}"))
                    .collect();
                println!(
                    "  {method} n = {n} seed {seed}: {:.4} s (on a CPU {}); {}",
                    elapsed.as_secs_f64(),
                    cpu.map_or_else(
                        || "?".to_owned(),
                        |cpu| format!("{:.4} s", cpu.as_secs_f64())
                    ),
                    stats.join(", ")
                );
            }
            match &report.outcome {
                LocalOutcome::Solved(placement) => {
                    if let Err(error) = verify(placement) {
                        panic!("{method} n = {n} seed {seed}: wrong answer: {error}");
                    }
                }
                other => panic!("{method} n = {n} seed {seed}: {other:?}"),
            }
            // Keep the counts but not the placement: five placements of 10^8 queens would otherwise
            // dominate the peak memory this bench reports.
            let report = RunReport {
                outcome: LocalOutcome::Solved(Vec::new()),
                ..report
            };
            (elapsed, report)
        })
        .collect()
}

thread_local! {
    /// The on-CPU time of every run of this thread, in order; [`print_summary`] takes them.
    static CPU_TIMES: std::cell::RefCell<Vec<Option<Duration>>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// The median on-CPU time of the runs recorded since the last call, if every run has one.
fn take_cpu_median() -> Option<f64> {
    let times: Option<Vec<Duration>> = CPU_TIMES.with(|times| times.take().into_iter().collect());
    let mut seconds: Vec<f64> = times?.iter().map(Duration::as_secs_f64).collect();
    if seconds.is_empty() {
        return None;
    }
    seconds.sort_by(f64::total_cmp);
    Some(median(&seconds))
}

/// The median of a sorted slice (the mean of the middle two for an even length).
fn median(sorted: &[f64]) -> f64 {
    let middle = sorted.len() / 2;
    if sorted.len() % 2 == 1 {
        sorted[middle]
    } else {
        (sorted[middle - 1] + sorted[middle]) / 2.0
    }
}

/// The value at quantile `q` of a sorted slice, by the nearest rank.
fn quantile(sorted: &[f64], q: f64) -> f64 {
    let rank = (q * sorted.len() as f64).ceil() as usize;
    sorted[rank.clamp(1, sorted.len()) - 1]
}

fn sorted_seconds(runs: &[(Duration, RunReport)]) -> Vec<f64> {
    let mut seconds: Vec<f64> = runs.iter().map(|(time, _)| time.as_secs_f64()).collect();
    seconds.sort_by(f64::total_cmp);
    seconds
}

fn sorted_stat(runs: &[(Duration, RunReport)], name: &str) -> Vec<f64> {
    let mut values: Vec<f64> = runs
        .iter()
        .filter_map(|(_, report)| report.stat(name))
        .map(|value| value as f64)
        .collect();
    values.sort_by(f64::total_cmp);
    values
}

fn print_summary(method: LocalMethod, n: usize, runs: &[(Duration, RunReport)]) {
    let seconds = sorted_seconds(runs);
    let stats: Vec<String> = runs[0]
        .1
        .stats
        .iter()
        .map(|&(name, _)| format!("{name} {}", median(&sorted_stat(runs, name))))
        .collect();
    let peak = peak_resident_bytes().map_or_else(
        || "peak memory unknown".to_owned(),
        |bytes| {
            format!(
                "process peak {:.1} MiB = {:.2} bytes/queen",
                bytes as f64 / f64::from(1 << 20),
                bytes as f64 / n as f64
            )
        },
    );
    let cpu = take_cpu_median().map_or_else(String::new, |cpu| format!(", on a CPU {cpu:.4} s"));
    println!(
        "{method:>10} n = {n:>11}: {} seeds, median {:.4} s (min {:.4}, max {:.4}{cpu}); medians: {}; {peak}",
        runs.len(),
        median(&seconds),
        seconds[0],
        seconds[seconds.len() - 1],
        stats.join(", "),
    );
}

/// QS4 at the sizes of Sosič & Gu's Table 2, ten seeds each as in the paper, beside their times.
fn table2() {
    println!(
        "QS4 at Sosič & Gu's Table 2 sizes (10 seeds each; their column: IBM RS 6000/530, average of 10)"
    );
    println!(
        "{:>10} {:>4} {:>12} {:>12} {:>12} {:>12} {:>14} {:>12}",
        "n", "c", "median s", "min s", "max s", "on-CPU s", "median ns/queen", "theirs s"
    );
    for (n, theirs) in TABLE_2 {
        let runs = run_seeds(LocalMethod::Qs4, n, 10);
        let seconds = sorted_seconds(&runs);
        let cpu = take_cpu_median().unwrap_or(f64::NAN);
        let c = runs[0].1.stat("conflicting_queens").unwrap_or(0);
        println!(
            "{n:>10} {c:>4} {:>12.6} {:>12.6} {:>12.6} {cpu:>12.6} {:>14.1} {theirs:>12.1}",
            median(&seconds),
            seconds[0],
            seconds[seconds.len() - 1],
            median(&seconds) * 1e9 / n as f64,
        );
    }
}

/// Las Vegas One at n = 1000 over 100 seeds: the distribution of permutation vectors beside Rolfe's four
/// runs.
fn lv1_distribution() {
    let mut runs: Vec<(u64, Duration, RunReport)> = (1..=100_u64)
        .into_par_iter()
        .map(|seed| {
            let mut run = run_seeds_from(LocalMethod::LasVegas1, 1000, seed..=seed);
            let (time, report) = run.remove(0);
            (seed, time, report)
        })
        .collect();
    runs.sort_by_key(|(seed, _, _)| *seed);
    let runs: Vec<(Duration, RunReport)> = runs
        .into_iter()
        .map(|(_, time, report)| (time, report))
        .collect();
    let vectors = sorted_stat(&runs, "permutation_vectors");
    let seconds = sorted_seconds(&runs);
    println!(
        "las-vegas1 n = 1000, seeds 1-100: permutation vectors min {} / Q1 {} / median {} / Q3 {} / max {} (mean {:.0}); time per run (two at once) median {:.3} s, max {:.3} s",
        vectors[0],
        quantile(&vectors, 0.25),
        median(&vectors),
        quantile(&vectors, 0.75),
        vectors[vectors.len() - 1],
        vectors.iter().sum::<f64>() / vectors.len() as f64,
        median(&seconds),
        seconds[seconds.len() - 1],
    );
    println!("  Rolfe's four runs: 55,518; 175,805; 9,490; 138,681");
}

/// Las Vegas Two at n = 1000 over 10 seeds: trials beside Rolfe's four runs.
fn lv2_trials() {
    let runs = run_seeds(LocalMethod::LasVegas2, 1000, 10);
    let trials: Vec<String> = runs
        .iter()
        .map(|(_, report)| report.stat("trials").unwrap_or(0).to_string())
        .collect();
    let sorted = sorted_stat(&runs, "trials");
    let seconds = sorted_seconds(&runs);
    let cpu = take_cpu_median().map_or_else(String::new, |cpu| format!(", on a CPU {cpu:.3} s"));
    println!(
        "las-vegas2 n = 1000, seeds 1-10: trials {} (median {}); time median {:.3} s, max {:.3} s{cpu}",
        trials.join(", "),
        median(&sorted),
        median(&seconds),
        seconds[seconds.len() - 1],
    );
    println!("  Rolfe's four runs: 1,323; 14,025; 49,466; 18,574");
}
