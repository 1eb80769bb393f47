//! `csp queens trace`: the search's events, one line each (the format `csp_search::TraceRecorder`
//! documents).

use std::io::Write;

use clap::Args;
use csp_search::{TraceRecorder, solve};
use nqueens_model::model;

use super::solve::Request;
use csp::app::{CliError, Exit};

/// `csp queens trace`: the board, the solutions wanted and the search options, as for `solve`, and an
/// event limit. Only what a search uses: `solve`'s methods, files and threads are not offered, so
/// clap refuses them rather than the trace ignoring them.
#[derive(Debug, Args)]
pub struct TraceArgs {
    /// The board, the solutions wanted and the search options, as for `solve`.
    #[command(flatten)]
    pub request: Request,
    /// Stop the search after this many events.
    #[arg(
        long,
        value_name = "EVENTS",
        default_value_t = 1_000_000,
        value_parser = clap::value_parser!(u64).range(1..),
        allow_negative_numbers = true
    )]
    pub limit: u64,
}

/// Runs the search with a trace recorder and prints what it recorded.
pub fn run(args: TraceArgs, out: &mut impl Write) -> Result<Exit, CliError> {
    let budget = args.request.search.options.limits.budget();
    let request = &args.request;
    let model = model(request.n, request.search.encoding).map_err(CliError::usage)?;
    let mut config = request.search.config(request.n, request.solution_limit());
    config.limits = budget.search_limits();
    let mut recorder = TraceRecorder::new(&model, Some(args.limit));
    let result = solve(&model, &config, &mut recorder);
    out.write_all(recorder.text().as_bytes())?;
    Ok(Exit::of(result.outcome, result.stats.solutions))
}
