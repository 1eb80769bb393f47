//! `csp queens solve --method explicit|knight-walk|…` and `--torus`: a construction of
//! `nqueens_model::construct`, verified, written and reported.

use std::io::Write;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use nqueens_model::construct::{
    ConstructError, Construction, ExplicitColumns, Method, OddTrickResult, abramson_yung,
    decomposition, knight_walk, odd_trick, torus, verify_torus, yaglom,
};
use nqueens_model::stream::{Format, verify_columns};
use nqueens_model::verify;

use super::args::SolveArgs;
use super::output::{MAX_JSON_PLACEMENT, MethodReport, verify_file, write_placement_file};
use csp::app::{CliError, Exit};

/// What a construction produced.
struct Built {
    /// The method's name in the report.
    name: &'static str,
    /// The placement, when it is held in memory (every construction but a large streamed explicit).
    placement: Option<Vec<u32>>,
    /// How it was built, in words.
    recipe: String,
    /// The counts to report (`odd-trick`'s backtracks).
    stats: Vec<(&'static str, u64)>,
    /// Whether the placement is already in `--output` (the explicit construction streams it there).
    written: bool,
}

/// What a construction is asked for, owned, so that it can run on the thread a time limit may
/// abandon.
struct Job {
    n: usize,
    /// The construction, or the knight-walk on the torus for `None`.
    method: Option<Method>,
    output: Option<PathBuf>,
    format: Format,
    verify: bool,
    /// What is left of the time limit (the odd trick's searches look at it).
    time: Option<Duration>,
}

/// Runs `method` (the knight-walk on the torus for `None`) on an n-queens board, verifies and writes
/// its placement, and reports it. The work runs within the time limit: the odd
/// trick's searches stop at it by themselves, and an O(n) construction of a huge board that overruns
/// it is abandoned, its unfinished file removed (`csp::app::Budget::run`).
pub fn run(
    args: &SolveArgs,
    method: Option<Method>,
    chosen_by_auto: bool,
    out: &mut impl Write,
) -> Result<Exit, CliError> {
    let started = Instant::now();
    let budget = args.request.search.options.limits.budget();
    let job = Job {
        n: args.request.n,
        method,
        output: args.output.clone(),
        format: args.format,
        verify: args.verify,
        time: budget.remaining(),
    };
    let name = method.map_or("knight-walk --torus", Method::name);
    let unfinished = || MethodReport {
        elapsed_seconds: started.elapsed().as_secs_f64(),
        outcome: "limit_reached",
        ..MethodReport::new(args.request.n, name, chosen_by_auto, None)
    };
    let (report, message) = match budget.run(move || produce(job)) {
        Some(Ok(Ok(built))) => return report_built(out, args, chosen_by_auto, started, built),
        Some(Ok(Err(not_answered))) => (unfinished(), not_answered),
        Some(Err(error)) => return Err(error),
        None => (
            unfinished(),
            format!("the time limit came before {name} had built, checked and written its board"),
        ),
    };
    report.write(out, args, Some(message), "", String::new())?;
    Ok(Exit::LimitReached)
}

/// Reports a construction's board.
fn report_built(
    out: &mut impl Write,
    args: &SolveArgs,
    chosen_by_auto: bool,
    started: Instant,
    built: Built,
) -> Result<Exit, CliError> {
    let report = MethodReport {
        elapsed_seconds: started.elapsed().as_secs_f64(),
        recipe: Some(built.recipe.clone()),
        stats: built.stats,
        verified: true,
        ..MethodReport::new(
            args.request.n,
            built.name,
            chosen_by_auto,
            built.placement.as_deref(),
        )
    };
    let written = match (&args.output, args.verify) {
        (Some(path), true) => format!("; written to {} and read back", path.display()),
        (Some(path), false) => format!("; written to {}", path.display()),
        (None, _) => String::new(),
    };
    report.write(out, args, None, &format!(": {}", built.recipe), written)?;
    Ok(Exit::Answered)
}

/// Builds the placement, checks it, writes it to the output file and reads that back (with
/// `--verify`); or says why there is no placement (the odd trick, when its search was stopped or the
/// first LEX solution of n + 1 has no corner queen).
fn produce(job: Job) -> Result<Result<Built, String>, CliError> {
    let built = match build(&job)? {
        Ok(built) => built,
        Err(not_answered) => return Ok(Err(not_answered)),
    };
    if let Some(placement) = &built.placement {
        // Every answer is checked by the independent verifier before it is shown.
        verify(placement).map_err(|error| {
            CliError::Internal(format!(
                "{} returned an invalid placement ({error})",
                built.name
            ))
        })?;
        if let (Some(path), false) = (&job.output, built.written) {
            write_placement_file(path, placement.iter().copied(), job.format)?;
        }
    }
    if let (Some(path), true) = (&job.output, job.verify) {
        verify_file(path, job.format, job.n)?;
    }
    Ok(Ok(built))
}

/// Builds the placement, or says why the method does not apply to `n` (the odd trick, when the
/// first LEX solution of n + 1 has no corner queen).
fn build(job: &Job) -> Result<Result<Built, String>, CliError> {
    let (n, method) = (job.n, job.method);
    let usage = |error: ConstructError| CliError::usage(error);
    let held = |name, construction: Result<Construction, ConstructError>| {
        let Construction { placement, recipe } = construction.map_err(usage)?;
        Ok(Ok(Built {
            name,
            placement: Some(placement),
            recipe: recipe.to_string(),
            stats: vec![],
            written: false,
        }))
    };
    let Some(method) = method else {
        let Construction { placement, recipe } = torus(n).map_err(usage)?;
        verify_torus(&placement).map_err(|error| {
            CliError::Internal(format!("the knight-walk is not toroidal ({error})"))
        })?;
        return held(
            "knight-walk --torus",
            Ok(Construction { placement, recipe }),
        );
    };
    match method {
        Method::Explicit => {
            // Streamed: the columns are computed row by row, never held, so a billion rows need no
            // more memory than the verifier's bits.
            let columns = ExplicitColumns::new(n).map_err(usage)?;
            let recipe = format!("explicit ({:?})", columns.rule());
            let placement = (n <= MAX_JSON_PLACEMENT).then(|| columns.clone().collect());
            if let Some(path) = &job.output {
                write_placement_file(path, columns.clone(), job.format)?;
            }
            verify_columns(columns).map_err(|error| {
                CliError::Internal(format!("explicit returned an invalid placement ({error})"))
            })?;
            Ok(Ok(Built {
                name: method.name(),
                placement,
                recipe,
                stats: vec![],
                written: true,
            }))
        }
        Method::OddTrick => {
            let limits = csp_search::Limits {
                time: job.time,
                ..csp_search::Limits::default()
            };
            let trick = odd_trick(n, limits).map_err(usage)?;
            let placement = match &trick.result {
                OddTrickResult::Corner(placement) => placement,
                OddTrickResult::Unfinished => {
                    return Ok(Err(format!(
                        "the time limit came before LEX on n + 1 = {} found its first solution",
                        n + 1
                    )));
                }
                OddTrickResult::NoCornerQueen => {
                    return Ok(Err(format!(
                        "the odd trick does not apply to n = {n}: the first LEX solution of n + 1 = {} has no corner queen (direct LEX: {} backtracks)",
                        n + 1,
                        trick.direct.backtracks
                    )));
                }
            };
            Ok(Ok(Built {
                name: method.name(),
                placement: Some(placement.to_vec()),
                recipe: format!("corner removed from the first LEX solution of {}", n + 1),
                stats: vec![
                    ("backtracks_via_n_plus_1", trick.via_odd.backtracks),
                    ("backtracks_direct", trick.direct.backtracks),
                ],
                written: false,
            }))
        }
        Method::KnightWalk => held(method.name(), knight_walk(n)),
        Method::Decomposition => held(method.name(), decomposition(n)),
        Method::AbramsonYung => held(method.name(), abramson_yung(n)),
        Method::Yaglom => held(method.name(), yaglom(n)),
    }
}
