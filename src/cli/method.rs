//! `csp queens solve --method …`: choosing a method, and running the ones that bypass the search
//! engine (the constructions of `nqueens_model::construct` and the local searches of
//! `nqueens_model::local`).

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::Path;
use std::time::Instant;

use nqueens_model::construct::{
    Construction, ExplicitColumns, Method as ConstructMethod, abramson_yung, decomposition,
    explicit, knight_walk, odd_trick, torus, verify_torus, yaglom,
};
use nqueens_model::local::{Limits, LocalError, LocalMethod, LocalOutcome, RunReport, solve};
use nqueens_model::stream::{Format, StreamError, verify_columns, verify_stream, write_placement};
use nqueens_model::{render, verify};
use serde_json::{Map, Value, json};

use super::args::{MethodArg, SolveArgs, VerifyArgs};
use super::{CliError, Exit};

/// Boards up to this size are drawn; up to [`MAX_PRINTED_PLACEMENT`] the columns are printed on one line.
pub(super) const MAX_DRAWN_BOARD: usize = 32;

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
    /// A construction of `nqueens_model::construct`.
    Construct(ConstructMethod),
    /// A toroidal solution, by the knight-walk.
    Torus,
}

/// Resolves `--method`, refusing search options given to a method that does not search. Returns the
/// method and whether `auto` chose it.
pub fn resolve(args: &SolveArgs) -> Result<(Resolved, bool), CliError> {
    let local = |method| Ok((Resolved::Local(method), false));
    let construct = |method| Ok((Resolved::Construct(method), false));
    if args.torus {
        return match args.method {
            MethodArg::Auto | MethodArg::KnightWalk if !args.asks_for_search() => {
                Ok((Resolved::Torus, args.method == MethodArg::Auto))
            }
            _ => Err(CliError::Usage(
                "--torus is answered by the knight-walk construction: use it with --method auto or knight-walk and no search options".to_owned(),
            )),
        };
    }
    match args.method {
        MethodArg::Auto if args.asks_for_search() || (2..=3).contains(&args.n) => {
            Ok((Resolved::Search, true))
        }
        // The explicit construction is O(n) with a small constant, and covers every n but 2 and 3.
        MethodArg::Auto => Ok((Resolved::Construct(ConstructMethod::Explicit), true)),
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
        MethodArg::Explicit => construct(ConstructMethod::Explicit),
        MethodArg::KnightWalk => construct(ConstructMethod::KnightWalk),
        MethodArg::Decomposition => construct(ConstructMethod::Decomposition),
        MethodArg::AbramsonYung => construct(ConstructMethod::AbramsonYung),
        MethodArg::Yaglom => construct(ConstructMethod::Yaglom),
        MethodArg::OddTrick => construct(ConstructMethod::OddTrick),
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
        MethodArg::Explicit => ConstructMethod::Explicit.name(),
        MethodArg::KnightWalk => ConstructMethod::KnightWalk.name(),
        MethodArg::Decomposition => ConstructMethod::Decomposition.name(),
        MethodArg::AbramsonYung => ConstructMethod::AbramsonYung.name(),
        MethodArg::Yaglom => ConstructMethod::Yaglom.name(),
        MethodArg::OddTrick => ConstructMethod::OddTrick.name(),
    }
}

/// Refuses the options that only a local search uses when the engine will run.
pub fn check_local_only_options(args: &SolveArgs) -> Result<(), CliError> {
    if args.threads > 1 || args.max_steps.is_some() {
        return Err(CliError::Usage(
            "--threads and --max-steps apply to the local-search methods (qs1, qs4, min-conflicts, las-vegas1, las-vegas2) only".to_owned(),
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
        time_limit: args.search.limits.time_limit,
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
        write_placement_file(path, placement.iter().copied(), args.format)?;
        if args.verify {
            verify_file(path, args.format)?;
        }
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
        Some(placement) => write_board(out, placement)?,
        None => writeln!(out, "{}", describe_unsolved(&report, n, method))?,
    }
    writeln!(
        out,
        "{n}-queens: {method}{chosen}, seed {}{}",
        args.search.seed,
        winner_note(&report, threads)
    )?;
    writeln!(out, "{}", describe_counts(&report.stats))?;
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

/// A method's counts as text: `swaps 17, restarts 3, …`.
fn describe_counts(stats: &[(&'static str, u64)]) -> String {
    let counts: Vec<String> = stats
        .iter()
        .map(|(name, value)| format!("{} {value}", name.replace('_', " ")))
        .collect();
    counts.join(", ")
}

/// A solution as the text output shows it: drawn up to [`MAX_DRAWN_BOARD`], its columns on one line
/// up to [`MAX_PRINTED_PLACEMENT`], nothing beyond (the summary and `--output FILE` cover it).
fn write_board(out: &mut impl Write, placement: &[u32]) -> std::io::Result<()> {
    let n = placement.len();
    if n <= MAX_DRAWN_BOARD {
        write!(out, "{}", render(placement))?;
    } else if n <= MAX_PRINTED_PLACEMENT {
        let columns: Vec<String> = placement.iter().map(u32::to_string).collect();
        writeln!(out, "{}", columns.join(" "))?;
    }
    Ok(())
}

/// Writes the placement to `path` in `format` (buffered, bounded memory).
pub fn write_placement_file(
    path: &Path,
    columns: impl IntoIterator<Item = u32>,
    format: Format,
) -> Result<(), CliError> {
    let file = File::create(path)
        .map_err(|error| CliError::Usage(format!("cannot create {}: {error}", path.display())))?;
    let mut writer = BufWriter::new(file);
    write_placement(&mut writer, columns, format)?;
    writer.flush()?;
    Ok(())
}

/// `--verify`: reads the written file back and checks it.
fn verify_file(path: &Path, format: Format) -> Result<(), CliError> {
    let file = File::open(path)
        .map_err(|error| CliError::Usage(format!("cannot read {}: {error}", path.display())))?;
    verify_stream(std::io::BufReader::new(file), format).map_err(|error| {
        CliError::Internal(format!(
            "the written file {} fails: {error}",
            path.display()
        ))
    })?;
    Ok(())
}

/// What a construction run produced, for the shared report.
struct Built {
    /// The placement, when it was held in memory (every construction but streamed explicit).
    placement: Option<Vec<u32>>,
    /// How it was built, in words.
    recipe: String,
    /// The counts to report (`odd-trick`'s backtracks).
    stats: Vec<(&'static str, u64)>,
}

/// Runs a construction (or `--torus`) and reports its answer, verified.
pub fn run_construct(
    args: &SolveArgs,
    resolved: Resolved,
    chosen_by_auto: bool,
    out: &mut impl Write,
) -> Result<Exit, CliError> {
    let n = args.n;
    let started = Instant::now();
    let usage =
        |error: nqueens_model::construct::ConstructError| CliError::Usage(error.to_string());
    let (name, built) = match resolved {
        Resolved::Torus => {
            let Construction { placement, recipe } = torus(n).map_err(usage)?;
            verify_torus(&placement).map_err(|error| {
                CliError::Internal(format!("the knight-walk is not toroidal ({error})"))
            })?;
            let built = Built {
                placement: Some(placement),
                recipe: recipe.to_string(),
                stats: vec![],
            };
            ("knight-walk --torus", built)
        }
        Resolved::Construct(ConstructMethod::Explicit) => {
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
            (
                "explicit",
                Built {
                    placement,
                    recipe,
                    stats: vec![],
                },
            )
        }
        Resolved::Construct(ConstructMethod::OddTrick) => {
            let trick = odd_trick(n, csp_search::Limits::default()).map_err(usage)?;
            let stats = vec![
                ("backtracks_via_n_plus_1", trick.via_odd.backtracks),
                ("backtracks_direct", trick.direct.backtracks),
            ];
            let placement = trick.placement().map(<[u32]>::to_vec);
            if placement.is_none() {
                writeln!(
                    out,
                    "the odd trick does not apply to n = {n}: the first LEX solution of n + 1 = {} has no corner queen (direct LEX: {} backtracks)",
                    n + 1,
                    trick.direct.backtracks
                )?;
                return Ok(Exit::LimitReached);
            }
            let recipe = format!("corner removed from the first LEX solution of {}", n + 1);
            (
                "odd-trick",
                Built {
                    placement,
                    recipe,
                    stats,
                },
            )
        }
        Resolved::Construct(method) => {
            let build = match method {
                ConstructMethod::KnightWalk => knight_walk,
                ConstructMethod::Decomposition => decomposition,
                ConstructMethod::AbramsonYung => abramson_yung,
                ConstructMethod::Yaglom => yaglom,
                _ => explicit,
            };
            let Construction { placement, recipe } = build(n).map_err(usage)?;
            (
                method.name(),
                Built {
                    placement: Some(placement),
                    recipe: recipe.to_string(),
                    stats: vec![],
                },
            )
        }
        Resolved::Search | Resolved::Local(_) => {
            return Err(CliError::Internal("not a construction".to_owned()));
        }
    };
    if let Some(placement) = &built.placement {
        // Every answer is checked by the independent verifier before it is shown.
        verify(placement).map_err(|error| {
            CliError::Internal(format!("{name} returned an invalid placement ({error})"))
        })?;
        if let (Some(path), false) = (&args.output, name == "explicit") {
            write_placement_file(path, placement.iter().copied(), args.format)?;
        }
    }
    if let (Some(path), true) = (&args.output, args.verify) {
        verify_file(path, args.format)?;
    }
    let elapsed = started.elapsed().as_secs_f64();
    let chosen = if chosen_by_auto {
        " (chosen by auto)"
    } else {
        ""
    };
    let shown = built.placement.as_deref();
    if args.search.json {
        let stats: Map<String, Value> = built
            .stats
            .iter()
            .map(|&(stat, value)| (stat.to_owned(), json!(value)))
            .collect();
        let object = json!({
            "command": "solve",
            "n": n,
            "method": name,
            "chosen_by_auto": chosen_by_auto,
            "recipe": built.recipe,
            "outcome": "solved",
            "verified": true,
            "elapsed_seconds": elapsed,
            "stats": stats,
            "solution": shown.filter(|p| p.len() <= MAX_JSON_PLACEMENT),
        });
        writeln!(out, "{object}")?;
        return Ok(Exit::Answered);
    }
    if let Some(placement) = shown {
        write_board(out, placement)?;
    }
    writeln!(out, "{n}-queens: {name}{chosen}: {}", built.recipe)?;
    if !built.stats.is_empty() {
        writeln!(out, "{}", describe_counts(&built.stats))?;
    }
    let written = match (&args.output, args.verify) {
        (Some(path), true) => format!("; written to {} and read back", path.display()),
        (Some(path), false) => format!("; written to {}", path.display()),
        (None, _) => String::new(),
    };
    writeln!(out, "verified: no two queens attack each other{written}")?;
    writeln!(out, "elapsed {:.3} ms", elapsed * 1e3)?;
    Ok(Exit::Answered)
}

/// `csp queens verify FILE`: a solution exits 0, a placement with an attack 1 (naming the first
/// attacking pair and where it is stored), a malformed or unreadable file 2.
pub fn run_verify(args: &VerifyArgs, out: &mut impl Write) -> Result<Exit, CliError> {
    let path = &args.file;
    let file = File::open(path)
        .map_err(|error| CliError::Usage(format!("cannot read {}: {error}", path.display())))?;
    let started = Instant::now();
    match verify_stream(std::io::BufReader::new(file), args.format) {
        Ok(n) => {
            writeln!(
                out,
                "{}: a solution: {n} queens, no two attack each other (checked in {:.3} ms)",
                path.display(),
                started.elapsed().as_secs_f64() * 1e3
            )?;
            Ok(Exit::Answered)
        }
        Err(StreamError::Invalid { error, position }) => {
            writeln!(
                out,
                "{}: not a solution: {error} ({position})",
                path.display()
            )?;
            Ok(Exit::NoSolution)
        }
        Err(error) => Err(CliError::Usage(format!("{}: {error}", path.display()))),
    }
}
