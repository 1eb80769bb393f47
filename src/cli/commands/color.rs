//! `csp color FILE|- (--colors K | --min)`: a k-colouring of a DIMACS graph or a proof that none
//! exists, or the chromatic number.

use std::io::Write;
use std::time::Instant;

use clap::Args;
use csp_problems::coloring::{self, Attempt, Status};
use csp_problems::dimacs::{self, Graph};
use csp_search::{Outcome, SearchConfig, SearchObserver};
use serde::Serialize;

use crate::cli::input::open_input;
use crate::cli::options::SearchOptions;
use crate::cli::report::{ConfigReport, StatsReport, describe, write_json};
use csp::app::Progress;
use csp::app::{CliError, Exit};
use csp_search::SearchDefaults;

/// `csp color`.
#[derive(Debug, Args)]
pub struct ColorArgs {
    /// The graph in DIMACS .col format ('p edge V E', then 'e U V' lines, vertices from 1; 'c'
    /// comments). '-' reads standard input.
    #[arg(value_name = "FILE")]
    pub file: String,
    /// Find a colouring with at most K colours, or prove that none exists.
    #[arg(
        long,
        value_name = "K",
        required_unless_present = "min",
        conflicts_with = "min",
        value_parser = clap::value_parser!(u32),
        allow_negative_numbers = true
    )]
    pub colors: Option<u32>,
    /// Find the chromatic number: colour, then try one colour fewer, until a proof that fewer fail.
    #[arg(long)]
    pub min: bool,
    /// With --colors: search on this many threads, the search's tree split into subproblems that
    /// the threads take in turn (the first colouring found, or every subproblem exhausted, ends
    /// it). No progress bar then; --node-limit and --backtrack-limit apply to each subproblem.
    #[arg(
        long,
        value_name = "N",
        default_value_t = 1,
        value_parser = clap::value_parser!(u32).range(1..=1024),
        conflicts_with = "min"
    )]
    pub threads: u32,
    /// The search options.
    #[command(flatten)]
    pub search: SearchOptions,
}

/// Runs `csp color`: colours the graph, checks the colouring, then reports.
pub fn run(args: ColorArgs, out: &mut impl Write) -> Result<Exit, CliError> {
    let started = Instant::now();
    let budget = args.search.limits.budget();
    let graph = dimacs::parse_reader(open_input(&args.file)?).map_err(CliError::usage)?;
    let mut config = args
        .search
        .config(SearchDefaults::of(coloring::default_config()));
    // What is left of the limits once the graph is read: --min shares it among its attempts.
    config.limits = budget.search_limits();
    let report = color(&graph, &args, &config)?;
    let elapsed_ms = started.elapsed().as_secs_f64() * 1e3;
    if args.search.json {
        write_json(out, &ColorReport::new(&graph, &report, elapsed_ms, &config))?;
    } else {
        report.write(out, &graph, args.min, elapsed_ms, &config)?;
    }
    Ok(report.exit)
}

/// What `csp color` found, checked; the fields mean what [`ColorReport`]'s do.
struct Colored {
    clique: usize,
    colors: Option<usize>,
    coloring: Option<Vec<u32>>,
    optimal: Option<bool>,
    attempts: Vec<Attempt>,
    exit: Exit,
}

/// Colours `graph` as `args` ask (one k, or down to the chromatic number), then checks the colouring
/// edge by edge, independently of the engine.
fn color(graph: &Graph, args: &ColorArgs, config: &SearchConfig) -> Result<Colored, CliError> {
    let clique = coloring::greedy_clique(graph).len();
    let no_progress = args.search.no_progress;
    let report = if args.min {
        let result = with_progress(no_progress, |observer| {
            coloring::chromatic_number(graph, config, observer)
        })
        .map_err(CliError::usage)?;
        let (colors, coloring) = result.best.unzip();
        Colored {
            clique,
            colors,
            coloring,
            optimal: Some(result.optimal),
            attempts: result.attempts,
            exit: if result.optimal {
                Exit::Answered
            } else {
                Exit::LimitReached
            },
        }
    } else {
        let k = args.colors.unwrap_or(0) as usize;
        let attempt = if args.threads > 1 {
            coloring::color_on_threads(graph, k, config, args.threads as usize)
        } else {
            with_progress(no_progress, |observer| {
                coloring::color(graph, k, config, observer)
            })
        }
        .map_err(CliError::usage)?;
        Colored {
            clique,
            colors: Some(k),
            coloring: attempt.coloring.clone(),
            optimal: None,
            exit: match attempt.status {
                Status::Colored => Exit::Answered,
                Status::NoColoring | Status::CliqueTooLarge { .. } => Exit::NoSolution,
                Status::Unknown(_) | Status::BudgetSpent { .. } => Exit::LimitReached,
            },
            attempts: vec![attempt],
        }
    };
    if let (Some(colors), Some(coloring)) = (report.colors, &report.coloring) {
        coloring::check(graph, coloring, colors).map_err(|e| {
            CliError::Internal(format!("the search returned a wrong colouring ({e})"))
        })?;
    }
    Ok(report)
}

/// Runs `search` with a progress bar on stderr unless it is switched off or not a terminal.
fn with_progress<T>(disabled: bool, search: impl FnOnce(&mut dyn SearchObserver) -> T) -> T {
    match Progress::for_stderr(disabled) {
        Some(mut progress) => search(&mut progress),
        None => search(&mut ()),
    }
}

/// The statistics of an attempt that searched (none for one the clique settled).
fn attempt_stats(attempt: &Attempt) -> Option<(StatsReport, f64)> {
    let result = attempt.result.as_ref()?;
    Some((
        StatsReport::of(&result.stats),
        result.elapsed.as_secs_f64() * 1e3,
    ))
}

impl Colored {
    /// Every attempt's statistics added up.
    fn total(&self) -> StatsReport {
        let mut total = StatsReport::default();
        for (stats, _) in self.attempts.iter().filter_map(attempt_stats) {
            total.add(&stats);
        }
        total
    }

    fn write(
        &self,
        out: &mut impl Write,
        graph: &Graph,
        min: bool,
        elapsed_ms: f64,
        config: &SearchConfig,
    ) -> std::io::Result<()> {
        writeln!(
            out,
            "{} vertices, {} edges, largest degree {}, a clique of {} found",
            graph.vertices(),
            graph.edges().len(),
            graph.max_degree(),
            self.clique
        )?;
        for attempt in &self.attempts {
            writeln!(out, "  {}", attempt_text(attempt))?;
        }
        let verdict = match (min, self.colors, &self.coloring, self.optimal) {
            (true, Some(colors), Some(_), Some(true)) => {
                format!("chromatic number {colors} (proven)")
            }
            (true, Some(colors), Some(_), _) => format!(
                "{colors} colours suffice; a limit stopped the search before fewer were ruled out"
            ),
            (true, _, _, _) => "a limit stopped the search before any colouring".to_owned(),
            (false, Some(colors), Some(_), _) => {
                format!("a colouring with at most {colors} colours")
            }
            (false, Some(colors), None, _) if self.exit == Exit::NoSolution => {
                format!("no colouring with {colors} colours exists (proven)")
            }
            (false, _, _, _) => "a limit stopped the search before an answer".to_owned(),
        };
        writeln!(out, "{verdict}")?;
        if let Some(coloring) = &self.coloring {
            let colors: Vec<String> = coloring.iter().map(u32::to_string).collect();
            writeln!(out, "colouring (vertex 1 first): {}", colors.join(" "))?;
        }
        writeln!(out, "{}; elapsed {elapsed_ms:.3} ms", self.total().text())?;
        writeln!(out, "search: {}, seed {}", describe(config), config.seed)
    }
}

/// One attempt's line of text.
fn attempt_text(attempt: &Attempt) -> String {
    let k = attempt.colors;
    let searched = |what: String| match attempt_stats(attempt) {
        Some((stats, ms)) => format!("{what} ({}, {ms:.3} ms)", stats.text()),
        None => what,
    };
    match attempt.status {
        Status::Colored => searched(format!("{k} colours: coloured")),
        Status::NoColoring => searched(format!("{k} colours: none exists (proven by search)")),
        Status::CliqueTooLarge { clique } => {
            format!("{k} colours: none exists (a clique of {clique} vertices)")
        }
        Status::BudgetSpent { nodes } => searched(format!(
            "{k} colours: not settled within a budget of {nodes} nodes (asked again with a larger one)"
        )),
        Status::Unknown(outcome) => searched(format!(
            "{k} colours: unknown ({})",
            match outcome {
                Outcome::LimitReached(limit) => format!("{} limit", limit.name()),
                _ => "stopped".to_owned(),
            }
        )),
    }
}

/// The `--json` object.
#[derive(Debug, Serialize)]
struct ColorReport<'a> {
    vertices: usize,
    edges: usize,
    /// The size of the clique found (a lower bound on the chromatic number).
    clique: usize,
    /// With --colors, K; with --min, the colours of the best colouring found (null if none).
    colors: Option<usize>,
    /// The colour of each vertex in file order, 0-based, or null.
    coloring: Option<&'a [u32]>,
    /// With --min: whether `colors` is proven to be the chromatic number.
    #[serde(skip_serializing_if = "Option::is_none")]
    optimal: Option<bool>,
    attempts: Vec<AttemptReport>,
    stats: StatsReport,
    elapsed_ms: f64,
    config: ConfigReport,
}

/// One attempt in the `--json` report.
#[derive(Debug, Serialize)]
struct AttemptReport {
    colors: usize,
    /// "colored", "no_coloring" (proven by search), "clique" (proven by the clique), "budget" (with
    /// --min: not settled within the attempt's node budget, asked again later) or "unknown" (a
    /// limit).
    status: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    outcome: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    limit: Option<&'static str>,
    stats: StatsReport,
    search_ms: f64,
}

impl<'a> ColorReport<'a> {
    fn new(graph: &Graph, colored: &'a Colored, elapsed_ms: f64, config: &SearchConfig) -> Self {
        ColorReport {
            vertices: graph.vertices(),
            edges: graph.edges().len(),
            clique: colored.clique,
            colors: colored.colors,
            coloring: colored.coloring.as_deref(),
            optimal: colored.optimal,
            attempts: colored.attempts.iter().map(AttemptReport::new).collect(),
            stats: colored.total(),
            elapsed_ms,
            config: ConfigReport::of(config),
        }
    }
}

impl AttemptReport {
    fn new(attempt: &Attempt) -> Self {
        let outcome = attempt.result.as_ref().map(|result| result.outcome);
        let (stats, search_ms) = attempt_stats(attempt).unwrap_or_default();
        AttemptReport {
            colors: attempt.colors,
            status: match attempt.status {
                Status::Colored => "colored",
                Status::NoColoring => "no_coloring",
                Status::CliqueTooLarge { .. } => "clique",
                Status::Unknown(_) => "unknown",
                Status::BudgetSpent { .. } => "budget",
            },
            outcome: outcome.map(Outcome::name),
            limit: outcome.and_then(Outcome::limit).map(|limit| limit.name()),
            stats,
            search_ms,
        }
    }
}
