//! `csp queens solve --method explicit|knight-walk|…` and `--torus`: a construction of
//! `nqueens_model::construct`, verified, written and reported.

use std::io::Write;
use std::time::Instant;

use nqueens_model::construct::{
    ConstructError, Construction, ExplicitColumns, Method, abramson_yung, decomposition,
    knight_walk, odd_trick, torus, verify_torus, yaglom,
};
use nqueens_model::stream::verify_columns;
use nqueens_model::verify;

use super::args::SolveArgs;
use super::output::{MAX_JSON_PLACEMENT, MethodReport, verify_file, write_placement_file};
use crate::cli::error::{CliError, Exit};

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

/// Runs `method` (the knight-walk on the torus for `None`) on an n-queens board, verifies and writes
/// its placement, and reports it.
pub fn run(
    args: &SolveArgs,
    method: Option<Method>,
    chosen_by_auto: bool,
    out: &mut impl Write,
) -> Result<Exit, CliError> {
    let started = Instant::now();
    let built = match build(args, method)? {
        Ok(built) => built,
        Err(does_not_apply) => {
            writeln!(out, "{does_not_apply}")?;
            return Ok(Exit::LimitReached);
        }
    };
    if let Some(placement) = &built.placement {
        // Every answer is checked by the independent verifier before it is shown.
        verify(placement).map_err(|error| {
            CliError::Internal(format!(
                "{} returned an invalid placement ({error})",
                built.name
            ))
        })?;
        if let (Some(path), false) = (&args.output, built.written) {
            write_placement_file(path, placement.iter().copied(), args.format)?;
        }
    }
    if let (Some(path), true) = (&args.output, args.verify) {
        verify_file(path, args.format, args.request.n)?;
    }
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

/// Builds the placement, or says why the method does not apply to `n` (the odd trick, when the
/// first LEX solution of n + 1 has no corner queen).
fn build(args: &SolveArgs, method: Option<Method>) -> Result<Result<Built, String>, CliError> {
    let n = args.request.n;
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
            if let Some(path) = &args.output {
                write_placement_file(path, columns.clone(), args.format)?;
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
            let trick = odd_trick(n, csp_search::Limits::default()).map_err(usage)?;
            let Some(placement) = trick.placement() else {
                return Ok(Err(format!(
                    "the odd trick does not apply to n = {n}: the first LEX solution of n + 1 = {} has no corner queen (direct LEX: {} backtracks)",
                    n + 1,
                    trick.direct.backtracks
                )));
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
