//! A sweep of the CLI's fast preset — MIN with forward checking, random ties, middle-out values and Luby
//! restarts — over every board from n = 4 to n = 1000, on the counters encoding, and a comparison with
//! plain (restart-free) value orderings on large boards.
//!
//! Run it with `cargo bench --bench min_fc_sweep`; shorten it with `cargo bench --bench min_fc_sweep --
//! --quick` (or `SWEEP_QUICK=1`). Every solve is timed from model build to first solution, both
//! included, as that is what a user who asks for one placement waits for; every solution is checked
//! with [`verify`], outside the clock.
//!
//! Settings, from the environment:
//! - `SWEEP_SEEDS`: seeds `0..S` for every board (default 5; 2 with `--quick`);
//! - `SWEEP_MIN_N`, `SWEEP_MAX_N`: the smallest and largest boards of the sweep (default 4 and 1000;
//!   1000 becomes 200 with `--quick`);
//! - `SWEEP_LARGE`: comma-separated large boards, timed on their own and added to the value-ordering
//!   table beside n = 1000 (default `10000`; none with `--quick`; empty for none);
//! - `SWEEP_NODES_PER_ROW`: the factor of the sweep's node limit (see [`SWEEP_NODES_PER_ROW`]).
//!
//! Every search has a node limit and a time limit, so that an ordering that backtracks heavily is
//! reported as "limit" instead of hanging the run. Without `--bench` on the command line (as under
//! `cargo test --benches`) it runs a smoke check on small boards instead.

use std::time::{Duration, Instant};

use csp::nqueens::{Encoding, model, verify};
use csp::search::{
    Limit, Limits, Outcome, Restarts, Search, SearchConfig, TiePolicy, ValueOrderKind,
    VariableOrderKind,
};

/// Above this a solve counts as slow in the summary.
const SLOW: Duration = Duration::from_millis(10);

/// The time limit of every search: a guard against a run that would take minutes.
const TIME_LIMIT: Duration = Duration::from_secs(10);

/// The sweep's default node limit is `SWEEP_NODES_PER_ROW · n + SWEEP_NODES_FLOOR` (the environment
/// variable of the same name overrides the factor): far above what MIN with forward checking usually
/// needs (about n), so reaching it is itself a finding.
const SWEEP_NODES_PER_ROW: u64 = 100;

/// See [`SWEEP_NODES_PER_ROW`]; the floor leaves small boards room to backtrack.
const SWEEP_NODES_FLOOR: u64 = 10_000;

/// The value-ordering table's node limit is this many nodes per row: ascending values with random ties
/// can backtrack for a very long time on large boards.
const VALUE_TABLE_NODES_PER_ROW: u64 = 50;

/// How many of the slowest and most-backtracking runs the summary lists.
const LISTED_RUNS: usize = 5;

/// How many of the runs stopped by a limit the summary lists.
const LISTED_LIMITED: usize = 10;

/// The sweep's summary by board size groups the boards `1..=100`, `101..=200`, and so on.
const BAND_WIDTH: usize = 100;

/// The variants compared, with the names the table prints: value ordering, and whether Luby restarts
/// are on. The last is the CLI's fast preset, the configuration of the sweep.
const VALUE_ORDERS: [(ValueOrderKind, bool, &str); 4] = [
    (ValueOrderKind::Random, false, "random"),
    (ValueOrderKind::MiddleOut, false, "middle-out"),
    (ValueOrderKind::Ascending, false, "ascending"),
    (ValueOrderKind::MiddleOut, true, "preset"),
];

/// The preset's restart schedule for an n-queens board, as the CLI sets it.
fn preset_restarts(n: usize) -> Restarts {
    SearchConfig::fast_preset(n)
        .restarts
        .expect("the fast preset restarts")
}

/// What to run, from the command line and the environment.
#[derive(Debug)]
struct Settings {
    /// What the run is called in the header.
    mode: &'static str,
    /// The sweep covers `min_n..=max_n`.
    min_n: usize,
    /// See `min_n`.
    max_n: usize,
    /// Every board is solved with the seeds `0..seeds`.
    seeds: u64,
    /// Large boards, timed on their own.
    large: Vec<usize>,
    /// The boards of the value-ordering table.
    value_table: Vec<usize>,
    /// The sweep's node limit per row; see [`SWEEP_NODES_PER_ROW`].
    nodes_per_row: u64,
}

impl Settings {
    /// Reads the mode from the arguments and the overrides from the environment.
    fn from_env() -> Settings {
        let args: Vec<String> = std::env::args().collect();
        // `cargo bench` passes `--bench`; `cargo test --benches` does not.
        let benchmarking = args.iter().any(|arg| arg == "--bench");
        let quick = args.iter().any(|arg| arg == "--quick")
            || std::env::var("SWEEP_QUICK").is_ok_and(|value| !value.is_empty() && value != "0");
        let (mode, max_n, seeds, large, value_table) = if !benchmarking {
            ("smoke (no --bench)", 30, 1, vec![], vec![50])
        } else if quick {
            ("quick", 200, 2, vec![], vec![1000])
        } else {
            ("full", 1000, 5, vec![10_000], vec![1000])
        };
        let min_n = env_number("SWEEP_MIN_N").map_or(4, |min| min as usize);
        assert!(
            min_n >= 4,
            "SWEEP_MIN_N must be at least 4: smaller boards have no solution but n = 1"
        );
        let max_n = env_number("SWEEP_MAX_N").map_or(max_n, |max| max as usize);
        let seeds = env_number("SWEEP_SEEDS").unwrap_or(seeds);
        let large = match std::env::var("SWEEP_LARGE") {
            Ok(list) => list
                .split(',')
                .map(str::trim)
                .filter(|item| !item.is_empty())
                .map(|item| {
                    item.replace('_', "")
                        .parse()
                        .unwrap_or_else(|_| panic!("SWEEP_LARGE: `{item}` is not a board size"))
                })
                .collect(),
            Err(_) => large,
        };
        let mut value_table = value_table;
        value_table.extend(&large);
        assert!(seeds > 0, "SWEEP_SEEDS must be at least 1");
        Settings {
            mode,
            min_n,
            max_n,
            seeds,
            large,
            value_table,
            nodes_per_row: env_number("SWEEP_NODES_PER_ROW").unwrap_or(SWEEP_NODES_PER_ROW),
        }
    }

    /// The node limit of a sweep search on an n-row board.
    fn node_limit(&self, n: usize) -> u64 {
        self.nodes_per_row
            .saturating_mul(n as u64)
            .saturating_add(SWEEP_NODES_FLOOR)
    }
}

/// A number from the environment, if the variable is set.
fn env_number(name: &str) -> Option<u64> {
    let value = std::env::var(name).ok()?;
    Some(
        value
            .trim()
            .replace('_', "")
            .parse()
            .unwrap_or_else(|_| panic!("{name}: `{value}` is not a number")),
    )
}

/// One timed solve.
#[derive(Debug, Clone, Copy)]
struct Run {
    n: usize,
    seed: u64,
    /// Model build plus search, to the first solution or the limit.
    time: Duration,
    /// The model build alone (included in `time`).
    build: Duration,
    nodes: u64,
    backtracks: u64,
    /// The limit that stopped the search, if one did.
    limit: Option<Limit>,
}

impl Run {
    /// The time, as the summary prints it: milliseconds, or "limit".
    fn time_cell(&self) -> String {
        match self.limit {
            None => format!("{:.3}", millis(self.time)),
            Some(_) => "limit".to_owned(),
        }
    }
}

/// Builds the n-queens model (counters) and searches it with MIN, forward checking and random ties,
/// to the first solution, which is verified.
///
/// # Panics
///
/// If the search ends without a solution and without reaching a limit (every board with n >= 4 has
/// solutions), or if the solution fails [`verify`].
fn solve_once(
    n: usize,
    seed: u64,
    value_order: ValueOrderKind,
    restarts: bool,
    node_limit: u64,
) -> Run {
    let config = SearchConfig {
        variable_order: VariableOrderKind::FewestChoices,
        ties: TiePolicy::Random,
        value_order,
        restarts: restarts.then(|| preset_restarts(n)),
        seed,
        limits: Limits {
            nodes: Some(node_limit),
            time: Some(TIME_LIMIT),
            ..Limits::default()
        },
        ..SearchConfig::min()
    };
    let started = Instant::now();
    let model = model(n, Encoding::Counters).expect("the sweep's sizes are valid boards");
    let build = started.elapsed();
    let mut search = Search::new(&model, &config);
    let found = search.next_solution(&mut ()).map(|values| {
        // Stop the clock before copying the solution out for verification.
        let time = started.elapsed();
        let placement: Vec<u32> = values
            .iter()
            .map(|&column| u32::try_from(column).expect("columns are non-negative"))
            .collect();
        (time, placement)
    });
    let (time, limit) = match found {
        Some((time, placement)) => {
            if let Err(error) = verify(&placement) {
                panic!("n = {n}, seed = {seed}, {value_order:?}: invalid solution: {error}");
            }
            (time, None)
        }
        None => match search.outcome() {
            Some(Outcome::LimitReached(limit)) => (started.elapsed(), Some(limit)),
            other => panic!("n = {n}, seed = {seed}, {value_order:?}: no solution ({other:?})"),
        },
    };
    Run {
        n,
        seed,
        time,
        build,
        nodes: search.stats().nodes,
        backtracks: search.stats().backtracks,
        limit,
    }
}

/// A duration in milliseconds.
fn millis(time: Duration) -> f64 {
    time.as_secs_f64() * 1e3
}

/// The lower median of a non-empty sorted slice.
fn median<T: Copy>(sorted: &[T]) -> T {
    sorted[(sorted.len() - 1) / 2]
}

/// The nearest-rank 99th percentile of a non-empty sorted slice.
fn p99<T: Copy>(sorted: &[T]) -> T {
    sorted[(sorted.len() * 99).div_ceil(100) - 1]
}

/// The summary line of one per-n statistic over all boards: median, p99, max and where the max is.
fn print_aggregate(label: &str, per_n: &[Run]) {
    let mut times: Vec<Duration> = per_n.iter().map(|run| run.time).collect();
    times.sort_unstable();
    let worst = per_n
        .iter()
        .max_by_key(|run| (run.limit.is_some(), run.time))
        .expect("the sweep has at least one board");
    println!(
        "{label:<26} {:>9.3} {:>9.3} {:>9.3}   n = {}, seed {}{}",
        millis(median(&times)),
        millis(p99(&times)),
        millis(worst.time),
        worst.n,
        worst.seed,
        if worst.limit.is_some() {
            " (stopped by a limit)"
        } else {
            ""
        },
    );
}

/// Prints runs as a small table, one per line.
fn print_runs(title: &str, runs: &[Run]) {
    println!("{title}");
    println!(
        "  {:>6} {:>5} {:>10} {:>9} {:>10}",
        "n", "seed", "ms", "nodes", "backtracks"
    );
    for run in runs {
        println!(
            "  {:>6} {:>5} {:>10} {:>9} {:>10}",
            run.n,
            run.seed,
            run.time_cell(),
            run.nodes,
            run.backtracks
        );
    }
}

/// The fast preset on board `n` with every seed of the settings, each capped by the sweep's limits.
fn preset_runs(n: usize, settings: &Settings) -> Vec<Run> {
    (0..settings.seeds)
        .map(|seed| {
            solve_once(
                n,
                seed,
                ValueOrderKind::MiddleOut,
                true,
                settings.node_limit(n),
            )
        })
        .collect()
}

/// The sweep over `min_n..=max_n`: per board, the median and the slowest of its seeds, then the summary.
fn sweep(settings: &Settings) {
    let sizes = settings.min_n..=settings.max_n;
    let started = Instant::now();
    let mut all_runs = Vec::new();
    let mut medians = Vec::new();
    let mut maxima = Vec::new();
    for n in sizes.clone() {
        let mut runs: Vec<Run> = preset_runs(n, settings);
        // A run stopped by a limit sorts after every solved run: its time is a lower bound.
        runs.sort_by_key(|run| (run.limit.is_some(), run.time));
        medians.push(median(&runs));
        maxima.push(*runs.last().expect("at least one seed"));
        all_runs.extend(runs);
    }
    let wall = started.elapsed();

    println!(
        "fast preset: MIN + forward checking, random ties, middle-out values, Luby restarts (base 4n + 100), counters encoding; time = model build + search"
    );
    println!(
        "boards n = {}..={} ({} board{}) x seeds 0..{} = {} solves, every solution verified",
        sizes.start(),
        sizes.end(),
        medians.len(),
        if medians.len() == 1 { "" } else { "s" },
        settings.seeds,
        all_runs.len(),
    );
    if medians.is_empty() {
        return;
    }
    println!(
        "{:<26} {:>9} {:>9} {:>9}   max at",
        "per-n time over seeds, ms", "median", "p99", "max"
    );
    print_aggregate("  median over seeds", &medians);
    print_aggregate("  max over seeds", &maxima);
    let slow_max = maxima.iter().filter(|run| run.time > SLOW).count();
    let slow_median = medians.iter().filter(|run| run.time > SLOW).count();
    println!(
        "boards over {} ms: {slow_max} (by max over seeds), {slow_median} (by median)",
        SLOW.as_millis()
    );
    let total: Duration = all_runs.iter().map(|run| run.time).sum();
    println!(
        "total: {:.3} s in solves ({:.3} s wall, verification included)",
        total.as_secs_f64(),
        wall.as_secs_f64()
    );
    let limited: Vec<Run> = all_runs
        .iter()
        .filter(|run| run.limit.is_some())
        .copied()
        .collect();
    let backtracked = all_runs.iter().filter(|run| run.backtracks > 0).count();
    println!(
        "runs that backtracked: {backtracked} of {}; runs stopped by a limit ({} nodes per row + {}, {} s): {}",
        all_runs.len(),
        settings.nodes_per_row,
        SWEEP_NODES_FLOOR,
        TIME_LIMIT.as_secs(),
        limited.len(),
    );
    if !limited.is_empty() {
        // The runs are in board order, so the first listed are the smallest boards, the cheapest to
        // reproduce.
        let shown = &limited[..limited.len().min(LISTED_LIMITED)];
        print_runs(
            &format!(
                "runs stopped by a limit (the first {} of {}):",
                shown.len(),
                limited.len()
            ),
            shown,
        );
    }
    print_bands(&all_runs);
    // Runs stopped by a limit are listed above; these lists show what the solved runs cost.
    let solved: Vec<Run> = all_runs
        .iter()
        .filter(|run| run.limit.is_none())
        .copied()
        .collect();
    let mut by_time = solved.clone();
    by_time.sort_by_key(|run| std::cmp::Reverse(run.time));
    by_time.truncate(LISTED_RUNS);
    print_runs("slowest solved runs:", &by_time);
    let mut by_backtracks = solved;
    by_backtracks.sort_by_key(|run| std::cmp::Reverse(run.backtracks));
    by_backtracks.truncate(LISTED_RUNS);
    print_runs("solved runs with the most backtracks:", &by_backtracks);
}

/// The sweep by bands of [`BAND_WIDTH`] boards: how often a run backtracks or is stopped by a limit,
/// and what a run costs, as the boards grow.
fn print_bands(runs: &[Run]) {
    println!("by board size (limit runs count at the time they were stopped):");
    println!(
        "  {:>11} {:>6} {:>11} {:>7} {:>10} {:>10}",
        "n", "runs", "backtracked", "limit", "median ms", "max ms"
    );
    for band in runs.chunk_by(|a, b| (a.n - 1) / BAND_WIDTH == (b.n - 1) / BAND_WIDTH) {
        let mut times: Vec<Duration> = band.iter().map(|run| run.time).collect();
        times.sort_unstable();
        let first = band.first().expect("chunks are not empty").n;
        let last = band.last().expect("chunks are not empty").n;
        println!(
            "  {:>11} {:>6} {:>11} {:>7} {:>10.3} {:>10.3}",
            format!("{first}..={last}"),
            band.len(),
            band.iter().filter(|run| run.backtracks > 0).count(),
            band.iter().filter(|run| run.limit.is_some()).count(),
            millis(median(&times)),
            millis(*times.last().expect("chunks are not empty")),
        );
    }
}

/// The large boards, with the same configuration as the sweep.
fn large_boards(settings: &Settings) {
    if settings.large.is_empty() {
        return;
    }
    println!();
    println!(
        "large boards (same configuration), seeds 0..{}",
        settings.seeds
    );
    println!(
        "  {:>6} {:>10} {:>10} {:>12} {:>12} {:>14}",
        "n", "median ms", "max ms", "median nodes", "median bt", "median build ms"
    );
    for &n in &settings.large {
        let runs: Vec<Run> = preset_runs(n, settings);
        let mut builds: Vec<Duration> = runs.iter().map(|run| run.build).collect();
        builds.sort_unstable();
        // The build time shows how much of a large board's time is not search.
        println!(
            "{} {:>14.3}",
            summary_row(n, None, &runs),
            millis(median(&builds))
        );
    }
}

/// Random, middle-out and ascending values (random ties throughout) on the value table's boards.
fn value_orderings(settings: &Settings) {
    if settings.value_table.is_empty() {
        return;
    }
    println!();
    println!(
        "value orderings (MIN + FC, random ties), seeds 0..{}, node limit {} x n, time limit {} s",
        settings.seeds,
        VALUE_TABLE_NODES_PER_ROW,
        TIME_LIMIT.as_secs()
    );
    println!(
        "  {:>6} {:<11} {:>6} {:>10} {:>10} {:>12} {:>12}",
        "n", "values", "solved", "median ms", "max ms", "median nodes", "median bt"
    );
    for &n in &settings.value_table {
        for (value_order, restarts, name) in VALUE_ORDERS {
            let node_limit = VALUE_TABLE_NODES_PER_ROW * n as u64;
            let runs: Vec<Run> = (0..settings.seeds)
                .map(|seed| solve_once(n, seed, value_order, restarts, node_limit))
                .collect();
            println!("{}", summary_row(n, Some(name), &runs));
        }
    }
}

/// One row over the seeds of a board: how many solved (with the value ordering's name, if given), the
/// median and max time ("limit" where the median or slowest run hit a limit), the median nodes and
/// backtracks.
fn summary_row(n: usize, values: Option<&str>, runs: &[Run]) -> String {
    let mut by_time = runs.to_vec();
    // A run stopped by a limit sorts after every solved run.
    by_time.sort_by_key(|run| (run.limit.is_some(), run.time));
    let mut nodes: Vec<u64> = runs.iter().map(|run| run.nodes).collect();
    nodes.sort_unstable();
    let mut backtracks: Vec<u64> = runs.iter().map(|run| run.backtracks).collect();
    backtracks.sort_unstable();
    let solved = runs.iter().filter(|run| run.limit.is_none()).count();
    let slowest = by_time.last().expect("at least one seed");
    let label = values.map_or(String::new(), |name| format!(" {name:<11}"));
    let solved_cell = if values.is_some() {
        format!(" {:>6}", format!("{solved}/{}", runs.len()))
    } else {
        String::new()
    };
    format!(
        "  {n:>6}{label}{solved_cell} {:>10} {:>10} {:>12} {:>12}",
        median(&by_time).time_cell(),
        slowest.time_cell(),
        median(&nodes),
        median(&backtracks),
    )
}

fn main() {
    let started = Instant::now();
    let settings = Settings::from_env();
    println!("min_fc_sweep: {} run", settings.mode);
    sweep(&settings);
    large_boards(&settings);
    value_orderings(&settings);
    println!();
    println!(
        "min_fc_sweep finished in {:.1} s",
        started.elapsed().as_secs_f64()
    );
}
