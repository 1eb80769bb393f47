//! `csp queens solve --method qs1|qs4|min-conflicts|las-vegas1|las-vegas2`: a seeded local search of
//! `nqueens_model::local_search`, raced over threads, its answer verified.

use std::io::Write;
use std::time::Instant;

use nqueens_model::local_search::{
    Limits, LocalError, LocalMethod, LocalOutcome, RunReport, solve,
};
use nqueens_model::verify;

use super::args::SolveArgs;
use super::output::{MethodReport, verify_file, write_uncommitted};
use csp::app::{CliError, Exit};

/// Runs the local search, verifies and writes its answer, and reports it.
pub fn run(
    args: &SolveArgs,
    method: LocalMethod,
    chosen_by_auto: bool,
    out: &mut impl Write,
) -> Result<Exit, CliError> {
    let (n, seed, threads) = (
        args.request.n,
        args.request.search.options.seed,
        usize::from(args.threads),
    );
    let budget = args.request.search.options.limits.budget();
    let limits = Limits {
        max_steps: args.max_steps,
        time_limit: budget.remaining(),
    };
    let started = Instant::now();
    // Every method looks at the clock as it searches; building the model of a huge board does not,
    // so the run is abandoned if it overruns the time limit.
    let run = match budget.run(move || solve(method, n, seed, threads, &limits)) {
        Some(run) => run.map_err(local_error)?,
        None => RunReport {
            outcome: LocalOutcome::LimitReached,
            seed,
            stats: Vec::new(),
        },
    };
    let elapsed_seconds = started.elapsed().as_secs_f64();
    let (exit, placement) = match &run.outcome {
        LocalOutcome::Solved(placement) => {
            // Every answer is checked by the independent verifier before it is shown. The file is
            // written meanwhile (both only read the placement) but published only once the
            // placement is verified: at 10⁷ queens each takes about a fifth of a second.
            let (verified, written) = rayon::join(
                || verify(placement),
                || {
                    args.output
                        .as_ref()
                        .map(|path| write_uncommitted(path, placement.iter().copied(), args.format))
                },
            );
            verified.map_err(|error| {
                CliError::Internal(format!("{method} returned an invalid placement ({error})"))
            })?;
            if let (Some(path), Some(file)) = (&args.output, written) {
                file?.commit()?;
                if args.verify {
                    verify_file(path, args.format, args.request.n)?;
                }
            }
            (Exit::Answered, Some(placement.as_slice()))
        }
        LocalOutcome::NoSolution => (Exit::NoSolution, None),
        LocalOutcome::LimitReached | LocalOutcome::Stopped => (Exit::LimitReached, None),
    };
    let report = MethodReport {
        elapsed_seconds,
        outcome: match run.outcome {
            LocalOutcome::Solved(_) => "solved",
            LocalOutcome::NoSolution => "no_solution",
            LocalOutcome::LimitReached => "limit_reached",
            LocalOutcome::Stopped => "stopped",
        },
        seed: Some(seed),
        stats: run.stats.clone(),
        threads: Some(threads),
        winning_seed: Some(run.seed),
        ..MethodReport::new(n, method.name(), chosen_by_auto, placement)
    };
    let unsolved = match run.outcome {
        LocalOutcome::NoSolution => format!("no solution exists for n = {n}"),
        LocalOutcome::Solved(_) | LocalOutcome::LimitReached | LocalOutcome::Stopped => {
            format!("{method} reached its step or time limit before a solution")
        }
    };
    let winner = if threads > 1 {
        format!(" ({threads} threads; seed {} won)", run.seed)
    } else {
        String::new()
    };
    let written = args.output.as_ref().map_or(String::new(), |path| {
        format!("; written to {}", path.display())
    });
    report.write(
        out,
        args,
        Some(unsolved),
        &format!(", seed {seed}{winner}"),
        written,
    )?;
    Ok(exit)
}

/// Bad requests (too large, no threads) are the user's; anything else is a bug.
fn local_error(error: LocalError) -> CliError {
    match error {
        LocalError::ZeroSize | LocalError::TooLarge { .. } | LocalError::NoThreads => {
            CliError::usage(error)
        }
        other => CliError::Internal(other.to_string()),
    }
}
