//! `csp queens solve --method …`: choosing a method, and running the ones that bypass the search
//! engine (the local searches of `nqueens_model::local`).

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::Path;
use std::time::Instant;

use nqueens_model::local::{Limits, LocalError, LocalMethod, LocalOutcome, RunReport, solve};
use nqueens_model::{render, verify};
use serde_json::{Map, Value, json};

use super::args::{MethodArg, SolveArgs};
use super::{CliError, Exit};

/// Boards up to this size are drawn; up to [`MAX_PRINTED_PLACEMENT`] the columns are printed on one line.
const MAX_DRAWN_BOARD: usize = 32;

/// Larger solutions are summarised, not printed (`--output FILE` writes them).
const MAX_PRINTED_PLACEMENT: usize = 1000;

/// JSON carries the solution up to this size; beyond it `solution` is null (`--output FILE` writes it).
const MAX_JSON_PLACEMENT: usize = 100_000;

/// The method a `solve` request runs, once `auto` is resolved.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Resolved {
    /// The backtracking engine.
    Search,
    /// A local search of `nqueens_model::local`.
    Local(LocalMethod),
}

/// Resolves `--method`, refusing search options given to a method that does not search. Returns the
/// method and whether `auto` chose it.
pub fn resolve(args: &SolveArgs) -> Result<(Resolved, bool), CliError> {
    let local = |method| Ok((Resolved::Local(method), false));
    match args.method {
        MethodArg::Auto if args.asks_for_search() || args.n < 4 => Ok((Resolved::Search, true)),
        // QS4 is linear in n and solves 10^6 queens in a fraction of a second.
        MethodArg::Auto => Ok((Resolved::Local(LocalMethod::Qs4), true)),
        MethodArg::Search => Ok((Resolved::Search, false)),
        chosen if args.asks_for_search() => Err(CliError::Usage(format!(
            "--method {} finds one solution without the search engine; search options, --solutions and --all need --method search",
            method_name(chosen)
        ))),
        MethodArg::Qs1 => local(LocalMethod::Qs1),
        MethodArg::Qs4 => local(LocalMethod::Qs4),
        MethodArg::MinConflicts => local(LocalMethod::MinConflicts),
        MethodArg::LasVegas1 => local(LocalMethod::LasVegas1),
        MethodArg::LasVegas2 => local(LocalMethod::LasVegas2),
    }
}

fn method_name(method: MethodArg) -> &'static str {
    match method {
        MethodArg::Auto => "auto",
        MethodArg::Search => "search",
        MethodArg::Qs1 => LocalMethod::Qs1.name(),
        MethodArg::Qs4 => LocalMethod::Qs4.name(),
        MethodArg::MinConflicts => LocalMethod::MinConflicts.name(),
        MethodArg::LasVegas1 => LocalMethod::LasVegas1.name(),
        MethodArg::LasVegas2 => LocalMethod::LasVegas2.name(),
    }
}

/// Refuses the options that only a local search uses when the engine will run.
pub fn check_search_options(args: &SolveArgs) -> Result<(), CliError> {
    if args.threads > 1 || args.max_steps.is_some() {
        return Err(CliError::Usage(
            "--threads and --max-steps apply to the local-search methods (qs1, qs4, min-conflicts, las-vegas1, las-vegas2), not to --method search".to_owned(),
        ));
    }
    Ok(())
}

/// Runs a local-search method and reports its answer, verified.
pub fn run_local(
    args: &SolveArgs,
    method: LocalMethod,
    chosen_by_auto: bool,
    out: &mut impl Write,
) -> Result<Exit, CliError> {
    let n = args.n;
    let threads = usize::from(args.threads);
    let limits = Limits {
        max_steps: args.max_steps,
        time_limit: args.search.time_limit,
    };
    let started = Instant::now();
    let report = solve(method, n, args.search.seed, threads, &limits).map_err(local_error)?;
    let elapsed = started.elapsed().as_secs_f64();
    let (exit, placement) = match &report.outcome {
        LocalOutcome::Solved(placement) => {
            // Every answer is checked by the independent verifier before it is shown.
            verify(placement).map_err(|error| {
                CliError::Internal(format!("{method} returned an invalid placement ({error})"))
            })?;
            (Exit::Answered, Some(placement.as_slice()))
        }
        LocalOutcome::NoSolution => (Exit::NoSolution, None),
        LocalOutcome::LimitReached | LocalOutcome::Stopped => (Exit::LimitReached, None),
    };
    if let (Some(path), Some(placement)) = (&args.output, placement) {
        write_placement_file(path, placement)?;
    }
    let chosen = if chosen_by_auto {
        " (chosen by auto)"
    } else {
        ""
    };
    if args.search.json {
        let solution = placement
            .filter(|p| p.len() <= MAX_JSON_PLACEMENT)
            .map_or(Value::Null, |p| json!(p));
        let stats: Map<String, Value> = report
            .stats
            .iter()
            .map(|&(name, value)| (name.to_owned(), json!(value)))
            .collect();
        let object = json!({
            "command": "solve",
            "n": n,
            "method": method.name(),
            "chosen_by_auto": chosen_by_auto,
            "seed": args.search.seed,
            "winning_seed": report.seed,
            "threads": threads,
            "outcome": outcome_name(&report.outcome),
            "verified": placement.is_some(),
            "elapsed_seconds": elapsed,
            "stats": stats,
            "solution": solution,
        });
        writeln!(out, "{object}")?;
        return Ok(exit);
    }
    match placement {
        Some(placement) if n <= MAX_DRAWN_BOARD => write!(out, "{}", render(placement))?,
        Some(placement) if n <= MAX_PRINTED_PLACEMENT => {
            let columns: Vec<String> = placement.iter().map(u32::to_string).collect();
            writeln!(out, "{}", columns.join(" "))?;
        }
        Some(_) => {}
        None => writeln!(out, "{}", describe_unsolved(&report, n, method))?,
    }
    writeln!(
        out,
        "{n}-queens: {method}{chosen}, seed {}{}",
        args.search.seed,
        winner_note(&report, threads)
    )?;
    writeln!(out, "{}", describe_stats(&report))?;
    if placement.is_some() {
        let written = args.output.as_ref().map_or(String::new(), |path| {
            format!("; written to {}", path.display())
        });
        writeln!(out, "verified: no two queens attack each other{written}")?;
    }
    writeln!(out, "elapsed {:.3} ms", elapsed * 1e3)?;
    Ok(exit)
}

/// Bad requests (too large, no threads) are the user's; anything else is a bug.
fn local_error(error: LocalError) -> CliError {
    match error {
        LocalError::ZeroSize | LocalError::TooLarge { .. } | LocalError::NoThreads => {
            CliError::Usage(error.to_string())
        }
        other => CliError::Internal(other.to_string()),
    }
}

fn outcome_name(outcome: &LocalOutcome) -> &'static str {
    match outcome {
        LocalOutcome::Solved(_) => "solved",
        LocalOutcome::NoSolution => "no_solution",
        LocalOutcome::LimitReached => "limit_reached",
        LocalOutcome::Stopped => "stopped",
    }
}

fn describe_unsolved(report: &RunReport, n: usize, method: LocalMethod) -> String {
    match report.outcome {
        LocalOutcome::NoSolution => format!("no solution exists for n = {n}"),
        _ => format!("{method} reached its step or time limit before a solution"),
    }
}

fn winner_note(report: &RunReport, threads: usize) -> String {
    if threads > 1 {
        format!(" ({threads} threads; seed {} won)", report.seed)
    } else {
        String::new()
    }
}

fn describe_stats(report: &RunReport) -> String {
    let counts: Vec<String> = report
        .stats
        .iter()
        .map(|(name, value)| format!("{} {value}", name.replace('_', " ")))
        .collect();
    counts.join(", ")
}

/// Writes the placement to `path`, one 0-based column per line.
pub fn write_placement_file(path: &Path, placement: &[u32]) -> Result<(), CliError> {
    let file = File::create(path)
        .map_err(|error| CliError::Usage(format!("cannot create {}: {error}", path.display())))?;
    let mut writer = BufWriter::new(file);
    for column in placement {
        writeln!(writer, "{column}")?;
    }
    writer.flush()?;
    Ok(())
}
