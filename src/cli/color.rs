//! `csp color FILE|- (--colors K | --min)`: a k-colouring of a DIMACS graph or a proof that none
//! exists, or the chromatic number.

use std::io::Write;
use std::time::Instant;

use clap::Args;
use csp_problems::coloring::{self, Attempt, Status};
use csp_problems::dimacs;
use csp_search::Outcome;
use serde::Serialize;

use super::problem_search::{
    ConfigReport, ProblemSearchArgs, StatsReport, describe, limit_name, outcome_names, read_input,
};
use super::progress::Progress;
use super::{CliError, Exit};

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
    /// The search options.
    #[command(flatten)]
    pub search: ProblemSearchArgs,
}

/// One attempt in the `--json` report.
#[derive(Debug, Serialize)]
struct AttemptReport {
    colors: usize,
    /// "colored", "no_coloring" (proven by search), "clique" (proven by the clique) or "unknown".
    status: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    outcome: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    limit: Option<&'static str>,
    stats: StatsReport,
    search_ms: f64,
}

/// The `--json` object.
#[derive(Debug, Serialize)]
struct ColorReport {
    vertices: usize,
    edges: usize,
    /// The size of the clique found (a lower bound on the chromatic number).
    clique: usize,
    /// With --colors, K; with --min, the colours of the best colouring found (null if none).
    colors: Option<usize>,
    /// The colour of each vertex in file order, 0-based, or null.
    coloring: Option<Vec<u32>>,
    /// With --min: whether `colors` is proven to be the chromatic number.
    #[serde(skip_serializing_if = "Option::is_none")]
    optimal: Option<bool>,
    attempts: Vec<AttemptReport>,
    stats: StatsReport,
    elapsed_ms: f64,
    config: ConfigReport,
}

/// Runs `csp color`.
pub fn run(args: ColorArgs, out: &mut impl Write) -> Result<Exit, CliError> {
    let started = Instant::now();
    let text = read_input(&args.file)?;
    let graph = dimacs::parse(&text).map_err(|e| CliError::Usage(e.to_string()))?;
    let config = args.search.config(coloring::default_config());
    let clique = coloring::greedy_clique(&graph).len();
    let model_error = |e: csp_core::ModelError| CliError::Usage(e.to_string());
    let (colors, coloring, optimal, attempts, exit) = if args.min {
        let result = with_progress(args.search.no_progress, |observer| {
            coloring::chromatic_number(&graph, &config, observer)
        })
        .map_err(model_error)?;
        let exit = if result.optimal {
            Exit::Answered
        } else {
            Exit::LimitReached
        };
        let (colors, coloring) = result.best.unzip();
        (
            colors,
            coloring,
            Some(result.optimal),
            result.attempts,
            exit,
        )
    } else {
        let k = args.colors.unwrap_or(0) as usize;
        let attempt = with_progress(args.search.no_progress, |observer| {
            coloring::color(&graph, k, &config, observer)
        })
        .map_err(model_error)?;
        let exit = match attempt.status {
            Status::Colored => Exit::Answered,
            Status::NoColoring | Status::CliqueTooLarge { .. } => Exit::NoSolution,
            Status::Unknown(_) => Exit::LimitReached,
        };
        let coloring = attempt.coloring.clone();
        (Some(k), coloring, None, vec![attempt], exit)
    };
    // Every colouring is checked edge by edge, independently of the engine, before it is shown.
    if let (Some(colors), Some(coloring)) = (colors, &coloring) {
        coloring::check(&graph, coloring, colors).map_err(|e| {
            CliError::Internal(format!("the search returned a wrong colouring ({e})"))
        })?;
    }
    let mut total = StatsReport::default();
    for attempt in &attempts {
        if let Some(result) = &attempt.result {
            total.add(&StatsReport::of(&result.stats));
        }
    }
    let elapsed_ms = started.elapsed().as_secs_f64() * 1e3;
    if args.search.json {
        let report = ColorReport {
            vertices: graph.vertices(),
            edges: graph.edges().len(),
            clique,
            colors,
            coloring,
            optimal,
            attempts: attempts.iter().map(attempt_report).collect(),
            stats: total,
            elapsed_ms,
            config: ConfigReport::of(&config),
        };
        serde_json::to_writer(&mut *out, &report).map_err(std::io::Error::from)?;
        writeln!(out)?;
        return Ok(exit);
    }
    writeln!(
        out,
        "{} vertices, {} edges, largest degree {}, a clique of {clique} found",
        graph.vertices(),
        graph.edges().len(),
        graph.max_degree()
    )?;
    for attempt in &attempts {
        writeln!(out, "  {}", attempt_text(attempt))?;
    }
    let verdict = match (args.min, colors, &coloring, optimal) {
        (true, Some(colors), Some(_), Some(true)) => {
            format!("chromatic number {colors} (proven)")
        }
        (true, Some(colors), Some(_), _) => format!(
            "{colors} colours suffice; a limit stopped the search before fewer were ruled out"
        ),
        (true, _, _, _) => "a limit stopped the search before any colouring".to_owned(),
        (false, Some(colors), Some(_), _) => format!("a colouring with at most {colors} colours"),
        (false, Some(colors), None, _) if exit == Exit::NoSolution => {
            format!("no colouring with {colors} colours exists (proven)")
        }
        (false, _, _, _) => "a limit stopped the search before an answer".to_owned(),
    };
    writeln!(out, "{verdict}")?;
    if let Some(coloring) = &coloring {
        let colors: Vec<String> = coloring.iter().map(u32::to_string).collect();
        writeln!(out, "colouring (vertex 1 first): {}", colors.join(" "))?;
    }
    writeln!(out, "{}; elapsed {elapsed_ms:.3} ms", total.text())?;
    writeln!(out, "search: {}", describe(&config))?;
    Ok(exit)
}

/// Runs `search` with a progress bar on stderr unless it is switched off or not a terminal.
fn with_progress<T>(
    disabled: bool,
    search: impl FnOnce(&mut dyn csp_search::SearchObserver) -> T,
) -> T {
    match Progress::for_stderr(disabled) {
        Some(mut progress) => search(&mut progress),
        None => search(&mut ()),
    }
}

fn attempt_report(attempt: &Attempt) -> AttemptReport {
    let (outcome, limit) = match &attempt.result {
        Some(result) => {
            let (outcome, limit) = outcome_names(result.outcome);
            (Some(outcome), limit)
        }
        None => (None, None),
    };
    AttemptReport {
        colors: attempt.colors,
        status: match attempt.status {
            Status::Colored => "colored",
            Status::NoColoring => "no_coloring",
            Status::CliqueTooLarge { .. } => "clique",
            Status::Unknown(_) => "unknown",
        },
        outcome,
        limit,
        stats: attempt
            .result
            .as_ref()
            .map(|r| StatsReport::of(&r.stats))
            .unwrap_or_default(),
        search_ms: attempt
            .result
            .as_ref()
            .map_or(0.0, |r| r.elapsed.as_secs_f64() * 1e3),
    }
}

fn attempt_text(attempt: &Attempt) -> String {
    let k = attempt.colors;
    let searched = |what: String| match &attempt.result {
        Some(result) => format!(
            "{what} ({}, {:.3} ms)",
            StatsReport::of(&result.stats).text(),
            result.elapsed.as_secs_f64() * 1e3
        ),
        None => what,
    };
    match attempt.status {
        Status::Colored => searched(format!("{k} colours: coloured")),
        Status::NoColoring => searched(format!("{k} colours: none exists (proven by search)")),
        Status::CliqueTooLarge { clique } => {
            format!("{k} colours: none exists (a clique of {clique} vertices)")
        }
        Status::Unknown(outcome) => searched(format!(
            "{k} colours: unknown ({})",
            match outcome {
                Outcome::LimitReached(limit) => format!("{} limit", limit_name(limit)),
                _ => "stopped".to_owned(),
            }
        )),
    }
}
