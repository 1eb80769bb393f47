//! What the N-queens commands that run the search engine share: the options, the run itself, and
//! its report.

use std::io::Write;
use std::ops::ControlFlow;
use std::time::Instant;

use clap::Args;
use csp_core::Model;
use csp_search::portfolio::{PortfolioConfig, Worker, run_portfolio};
use csp_search::{FnObserver, Limit, SearchConfig, SearchEvent, SearchResult, Statistics, solve};
use nqueens_model::{Encoding, StoreLayout, render, search_model};
use serde::Serialize;

use crate::cli::options::SearchOptions;
use crate::cli::report::{ConfigReport, StatsReport, describe};
use csp::app::Budget;
use csp::app::CliError;
use csp::app::Progress;

/// Boards up to this size are drawn; larger ones are printed as their columns.
pub const MAX_DRAWN_BOARD: usize = 32;

/// The search options of the N-queens commands: the shared ones and the encoding.
#[derive(Debug, Args)]
pub struct QueensSearch {
    /// Model encoding: pairwise (generic ≠ constraints only) or counters (one global constraint with
    /// column and diagonal counters). Both give the same search tree.
    #[arg(long, value_enum, default_value_t = Encoding::Counters)]
    pub encoding: Encoding,
    /// The search options.
    #[command(flatten)]
    pub options: SearchOptions,
}

impl QueensSearch {
    /// The engine configuration for an n-queens board, stopping after `solution_limit` solutions.
    ///
    /// With none of the strategy options it is [`SearchConfig::fast_preset`]; once any is given, the
    /// rest take the papers' meanings (Stone & Stone's MIN: low ties, ascending values, forward
    /// checking, no restarts).
    pub fn config(&self, n: usize, solution_limit: Option<u64>) -> SearchConfig {
        let mut config = self.options.config(nqueens_model::search_defaults(n));
        config.solution_limit = solution_limit;
        config
    }

    /// Whether a node or backtrack limit, a restart base or an encoding other than the counters asks
    /// for the engine, beyond the strategy options ([`SearchOptions::is_preset`]).
    pub fn asks_for_engine(&self) -> bool {
        let options = &self.options;
        !options.is_preset()
            || options.restart_base.is_some()
            || options.limits.limits_search()
            || self.encoding != Encoding::Counters
    }

    /// One line naming the configuration that ran, e.g. "MIN (ties random), values middle, forward
    /// checking, Luby restarts (base 132), counters encoding, seed 0 [fast preset; …]".
    pub fn describe(&self, config: &SearchConfig) -> String {
        let preset = if self.options.is_preset() {
            " [fast preset; any of --order/--ties/--values/--propagation/--restarts chooses your own]"
        } else {
            ""
        };
        format!(
            "{}, {} encoding, seed {}{preset}",
            describe(config),
            self.encoding,
            config.seed
        )
    }
}

/// A finished search, the configuration it ran with, and how long its parts took.
pub struct Run {
    /// The engine's result.
    pub result: SearchResult,
    /// The configuration.
    pub config: SearchConfig,
    /// Time to build the model, in seconds.
    pub build_seconds: f64,
    /// How many searches raced ([`search_on_threads`]); 1 for one search.
    pub threads: usize,
    /// The seed of the search whose solution was reported, when several raced.
    pub winning_seed: Option<u64>,
}

/// What receives each solution: its number (from 1) and its placement; `Break` stops the search.
pub type SolutionSink<'a> = dyn FnMut(u64, &[u32]) -> ControlFlow<()> + 'a;

/// The board's model, the seconds it took to build, and the search's configuration under what is
/// left of the command's limits once the model is built.
fn prepare(
    n: usize,
    search: &QueensSearch,
    solution_limit: Option<u64>,
    budget: &Budget,
) -> Result<(Model, f64, SearchConfig), CliError> {
    let mut config = search.config(n, solution_limit);
    // The size is checked against the memory of the store this configuration gets: a bit per line
    // when the store keeps the counters' lines, a trailed removal per square otherwise.
    let layout = StoreLayout::for_search(search.encoding, &config);
    let started = Instant::now();
    let model = search_model(n, search.encoding, layout).map_err(CliError::usage)?;
    let build_seconds = started.elapsed().as_secs_f64();
    config.limits = budget.search_limits();
    Ok((model, build_seconds, config))
}

/// Builds the model and runs the search, handing each solution (as a placement) to `on_solution` if
/// there is one; counting passes none and copies nothing.
pub fn search(
    n: usize,
    search: &QueensSearch,
    solution_limit: Option<u64>,
    mut on_solution: Option<&mut SolutionSink<'_>>,
    budget: &Budget,
) -> Result<Run, CliError> {
    let (model, build_seconds, config) = prepare(n, search, solution_limit, budget)?;
    let mut placement = Vec::with_capacity(n);
    let mut index = 0;
    let observer = FnObserver(|event: &SearchEvent<'_>| {
        if let (SearchEvent::Solution { values, .. }, Some(on_solution)) = (event, &mut on_solution)
        {
            index += 1;
            placement.clear();
            placement.extend(values.iter().map(|&v| v as u32));
            return on_solution(index, &placement);
        }
        ControlFlow::Continue(())
    });
    // The estimate behind the bar fits full searches; a bar is drawn only for searches that run long.
    let result = match Progress::for_stderr(search.options.no_progress) {
        Some(mut progress) => solve(&model, &config, (observer, &mut progress)),
        None => solve(&model, &config, observer),
    };
    Ok(Run {
        result,
        config,
        build_seconds,
        threads: 1,
        winning_seed: None,
    })
}

/// Nodes each worker of [`search_on_threads`] makes between two meetings of the deterministic
/// portfolio: a few milliseconds on any board, so that the first worker to find a solution ends the
/// run soon after, however long the others would take.
const THREAD_EPOCH: u64 = 1_000;

/// [`search`] for one solution on `threads` threads: the same search with the seeds `seed`,
/// `seed + 1`, … at once ([`csp_search::portfolio`]), the first solution ending them all. Its seed
/// decides a randomised search's luck, so the race cuts the long runs of unlucky seeds. The
/// portfolio runs in its deterministic mode (the workers meet every [`THREAD_EPOCH`] nodes, and a
/// solution found between two meetings is reported at the second, the lowest worker's first), so
/// that the same seed and thread count print the same solution whatever the timing. The
/// statistics are every worker's, summed; a node or backtrack limit holds for each worker.
pub fn search_on_threads(
    n: usize,
    search: &QueensSearch,
    threads: usize,
    on_solution: &mut SolutionSink<'_>,
    budget: &Budget,
) -> Result<Run, CliError> {
    let (model, build_seconds, config) = prepare(n, search, Some(1), budget)?;
    let workers = (0..threads)
        .map(|i| Worker {
            config: SearchConfig {
                seed: config.seed.wrapping_add(i as u64),
                ..config.clone()
            },
            lns: None,
            split: false,
        })
        .collect();
    let portfolio = PortfolioConfig {
        workers,
        deterministic: true,
        epoch: THREAD_EPOCH,
        time: config.limits.time,
        enumerate: false,
    };
    let mut solution = None;
    let mut placement = Vec::with_capacity(n);
    let searched = Instant::now();
    let result = run_portfolio(&model, &portfolio, |values, _| {
        placement.clear();
        placement.extend(values.iter().map(|&v| v as u32));
        solution = Some(values.to_vec());
        // The portfolio reports one solution of a satisfaction problem, then stops.
        on_solution(1, &placement)
    });
    let winning_seed = result
        .finder
        .map(|worker| config.seed.wrapping_add(worker as u64));
    let mut stats = result.stats;
    // Workers that found a solution between the same two meetings each counted theirs; one is
    // the answer.
    stats.solutions = u64::from(solution.is_some());
    Ok(Run {
        result: SearchResult {
            outcome: result.outcome,
            stats,
            elapsed: searched.elapsed(),
            solution,
            objective: None,
            propagations: result.propagations,
        },
        config,
        build_seconds,
        threads,
        winning_seed,
    })
}

impl Run {
    /// The configuration line, the statistics, elapsed time and throughput, as text.
    pub fn write_summary(
        &self,
        out: &mut impl Write,
        n: usize,
        search: &QueensSearch,
    ) -> std::io::Result<()> {
        let threads = match self.threads {
            1 => String::new(),
            t => format!(
                "; {t} threads racing seeds {} to {}{}",
                self.config.seed,
                self.config.seed.wrapping_add(t as u64 - 1),
                self.winning_seed
                    .map_or(String::new(), |seed| format!(", seed {seed} won"))
            ),
        };
        writeln!(
            out,
            "{n}-queens: {}{threads}",
            search.describe(&self.config)
        )?;
        let stats = &self.result.stats;
        let seconds = self.result.elapsed.as_secs_f64();
        writeln!(
            out,
            "nodes {}, backtracks {}, dead ends {}, restarts {}, max depth {}",
            stats.nodes, stats.backtracks, stats.dead_ends, stats.restarts, stats.max_depth
        )?;
        let rate = if seconds > 0.0 {
            format!(", {:.3e} nodes/s", stats.nodes as f64 / seconds)
        } else {
            String::new()
        };
        writeln!(
            out,
            "elapsed {:.3} ms (search {:.3} ms{rate}; model built in {:.3} ms)",
            (seconds + self.build_seconds) * 1e3,
            seconds * 1e3,
            self.build_seconds * 1e3
        )
    }

    /// Ends the `--json` object of `command` (`solve` or `count`) on an n-queens board that
    /// [`start_json`] began and [`write_json_solution`] streamed the solutions of: closes the
    /// `solutions` array and writes the other fields.
    pub fn write_json(
        &self,
        out: &mut impl Write,
        command: &str,
        n: usize,
        search: &QueensSearch,
    ) -> std::io::Result<()> {
        let stats = &self.result.stats;
        let seconds = self.result.elapsed.as_secs_f64();
        let outcome = self.result.outcome;
        let report = SearchReport {
            command,
            n,
            outcome: outcome.name(),
            limit: outcome.limit().map(Limit::name),
            solution_count: stats.solutions,
            stats: SearchStatsReport::new(stats, seconds),
            elapsed_ms: (seconds + self.build_seconds) * 1e3,
            search_ms: seconds * 1e3,
            config: ConfigReport {
                encoding: Some(search.encoding.to_string()),
                preset: Some(search.options.is_preset()),
                threads: (self.threads > 1).then_some(self.threads),
                ..ConfigReport::of(&self.config)
            },
            winning_seed: self.winning_seed,
        };
        // The report's own object, without its opening brace, continues the one `start_json` opened.
        let rest = serde_json::to_string(&report)?;
        write!(out, "],")?;
        out.write_all(&rest.as_bytes()[1..])?;
        writeln!(out)
    }
}

/// Begins a search's `--json` object with its `solutions` array, so that the solutions are written
/// as they are found ([`write_json_solution`]) rather than held: `solve 17 --all --json` would
/// otherwise hold 95 million solutions, about 10 GB, before printing any.
pub fn start_json(out: &mut impl Write) -> std::io::Result<()> {
    write!(out, "{{\"solutions\":[")
}

/// Writes the solution numbered `index` (from 1) into the array [`start_json`] opened.
pub fn write_json_solution(
    out: &mut impl Write,
    index: u64,
    placement: &[u32],
) -> std::io::Result<()> {
    if index > 1 {
        out.write_all(b",")?;
    }
    serde_json::to_writer(&mut *out, placement)?;
    Ok(())
}

/// A limit as the text reports name it ("node limit reached"): the singular of [`Limit::name`].
pub fn limit_word(limit: Limit) -> &'static str {
    limit.name().trim_end_matches('s')
}

/// Writes a placement as text: drawn up to [`MAX_DRAWN_BOARD`], its columns on one line up to
/// `max_listed` queens, nothing beyond (a summary and `--output FILE` cover it).
pub fn write_board(
    out: &mut impl Write,
    placement: &[u32],
    max_listed: usize,
) -> std::io::Result<()> {
    let n = placement.len();
    if n <= MAX_DRAWN_BOARD {
        write!(out, "{}", render(placement))?;
    } else if n <= max_listed {
        let columns: Vec<String> = placement.iter().map(u32::to_string).collect();
        writeln!(out, "{}", columns.join(" "))?;
    }
    Ok(())
}

/// The `--json` object of a search.
#[derive(Debug, Serialize)]
struct SearchReport<'a> {
    command: &'a str,
    n: usize,
    outcome: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    limit: Option<&'static str>,
    solution_count: u64,
    stats: SearchStatsReport,
    elapsed_ms: f64,
    search_ms: f64,
    config: ConfigReport,
    /// The seed of the search whose solution was reported, when several raced.
    #[serde(skip_serializing_if = "Option::is_none")]
    winning_seed: Option<u64>,
}

/// The statistics of a search, with its throughput and levels.
#[derive(Debug, Serialize)]
struct SearchStatsReport {
    #[serde(flatten)]
    counts: StatsReport,
    nodes_per_second: Option<f64>,
    per_level: Vec<LevelReport>,
}

#[derive(Debug, Serialize)]
struct LevelReport {
    level: usize,
    nodes: u64,
    backtracks: u64,
    avg_choices: f64,
}

impl SearchStatsReport {
    fn new(stats: &Statistics, seconds: f64) -> Self {
        SearchStatsReport {
            counts: StatsReport::of(stats),
            nodes_per_second: (seconds > 0.0).then(|| stats.nodes as f64 / seconds),
            per_level: stats
                .per_level
                .iter()
                .enumerate()
                .map(|(i, level)| LevelReport {
                    level: i + 1,
                    nodes: level.nodes,
                    backtracks: level.backtracks,
                    avg_choices: level.avg_choices(),
                })
                .collect(),
        }
    }
}
