//! `csp queens solve`: one solution (or K, or all) by the method `--method` picks: the search
//! engine here, a local search ([`local_search`]) or a construction ([`construct`]).

mod args;
mod construct;
mod local_search;
mod output;

use std::io::Write;
use std::ops::ControlFlow;

use csp_search::Outcome;
use nqueens_model::construct::Method as ConstructMethod;
use nqueens_model::local_search::LocalMethod;
use nqueens_model::verify;

use self::args::Method;
pub use self::args::{Request, SolveArgs};
use self::output::{verify_file, write_placement_file};
use super::engine::{
    limit_word, search, search_on_threads, start_json, write_board, write_json_solution,
};
use csp::app::{CliError, Exit};

/// The method a `solve` request runs, once `auto` is resolved.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Resolved {
    /// The backtracking engine.
    Search,
    /// A local search of `nqueens_model::local_search`.
    Local(LocalMethod),
    /// A construction of `nqueens_model::construct`.
    Construct(ConstructMethod),
    /// A toroidal solution, by the knight-walk.
    Torus,
}

/// Runs `csp queens solve` by the method it resolves to.
pub fn run(args: SolveArgs, out: &mut impl Write) -> Result<Exit, CliError> {
    if args.output.is_some() && args.request.solution_limit() != Some(1) {
        // The file formats hold one placement; writing the first of several would silently drop
        // the rest.
        return Err(CliError::Usage(
            "--output writes one placement, but --solutions K or --all asks for several: use --json, which streams every solution, or --solutions 1".to_owned(),
        ));
    }
    let (method, chosen_by_auto) = resolve(&args)?;
    if !matches!(method, Resolved::Local(_)) && args.max_steps.is_some() {
        return Err(CliError::Usage(
            "--max-steps applies to the local-search methods (qs1, qs4, min-conflicts, las-vegas1, las-vegas2) only".to_owned(),
        ));
    }
    if args.threads > 1 {
        match method {
            Resolved::Local(_) => {}
            Resolved::Search if args.request.solution_limit() == Some(1) => {}
            Resolved::Search => {
                return Err(CliError::Usage(
                    "--threads races searches for one solution: --solutions K and --all enumerate one tree, on one thread".to_owned(),
                ));
            }
            Resolved::Construct(_) | Resolved::Torus => {
                return Err(CliError::Usage(
                    "--threads applies to the local-search methods and to --method search; a construction is one O(n) pass".to_owned(),
                ));
            }
        }
    }
    match method {
        Resolved::Search => run_search(&args, out),
        Resolved::Local(method) => local_search::run(&args, method, chosen_by_auto, out),
        Resolved::Construct(method) => construct::run(&args, Some(method), chosen_by_auto, out),
        Resolved::Torus => construct::run(&args, None, chosen_by_auto, out),
    }
}

/// Resolves `--method`, refusing search options given to a method that does not search. Returns the
/// method and whether `auto` chose it.
fn resolve(args: &SolveArgs) -> Result<(Resolved, bool), CliError> {
    if args.torus {
        return match args.method {
            Method::Auto | Method::Construct(ConstructMethod::KnightWalk)
                if !args.asks_for_search() =>
            {
                Ok((Resolved::Torus, args.method == Method::Auto))
            }
            _ => Err(CliError::Usage(
                "--torus is answered by the knight-walk construction: use it with --method auto or knight-walk and no search options".to_owned(),
            )),
        };
    }
    match args.method {
        Method::Auto if args.asks_for_search() || (2..=3).contains(&args.request.n) => {
            Ok((Resolved::Search, true))
        }
        // The explicit construction is O(n) with a small constant, and covers every n but 2 and 3.
        Method::Auto => Ok((Resolved::Construct(ConstructMethod::Explicit), true)),
        Method::Search => Ok((Resolved::Search, false)),
        chosen if args.asks_for_search() => Err(CliError::Usage(format!(
            "--method {} finds one solution without the search engine; search options, --solutions and --all need --method search",
            crate::cli::report::name(chosen)
        ))),
        Method::Local(method) => Ok((Resolved::Local(method), false)),
        Method::Construct(method) => Ok((Resolved::Construct(method), false)),
    }
}

/// `solve` on the search engine: every solution is verified, then printed (or gathered for JSON);
/// the first one is written to `--output`.
fn run_search(args: &SolveArgs, out: &mut impl Write) -> Result<Exit, CliError> {
    let budget = args.request.search.options.limits.budget();
    let json = args.request.search.options.json;
    if json {
        start_json(out)?;
    }
    let mut write_error = None;
    let mut invalid = None;
    let mut first = None;
    let mut on_solution = |index: u64, placement: &[u32]| {
        // Every answer is checked by the independent verifier before it is shown.
        if let Err(error) = verify(placement) {
            invalid = Some(error.to_string());
            return ControlFlow::Break(());
        }
        if index == 1 && args.output.is_some() {
            first = Some(placement.to_vec());
        }
        let written = if json {
            write_json_solution(out, index, placement)
        } else {
            writeln!(out, "solution {index}:")
                .and_then(|()| write_board(out, placement, usize::MAX))
        };
        if let Err(error) = written {
            write_error = Some(error);
            return ControlFlow::Break(());
        }
        ControlFlow::Continue(())
    };
    let run = if args.threads > 1 {
        search_on_threads(
            args.request.n,
            &args.request.search,
            usize::from(args.threads),
            &mut on_solution,
            &budget,
        )?
    } else {
        search(
            args.request.n,
            &args.request.search,
            args.request.solution_limit(),
            Some(&mut on_solution),
            &budget,
        )?
    };
    if let Some(error) = write_error {
        return Err(error.into());
    }
    if let Some(error) = invalid {
        return Err(CliError::Internal(format!(
            "the search returned an invalid placement ({error})"
        )));
    }
    if let (Some(path), Some(placement)) = (&args.output, &first) {
        write_placement_file(path, placement.iter().copied(), args.format)?;
        if args.verify {
            verify_file(path, args.format, args.request.n)?;
        }
    }
    let found = run.result.stats.solutions;
    if json {
        run.write_json(out, "solve", args.request.n, &args.request.search)?;
    } else {
        let answer = match (run.result.outcome, found) {
            (Outcome::Exhausted, 0) => format!("no solution exists for n = {}", args.request.n),
            (Outcome::Exhausted, _) => format!("{found} solution(s); the search is complete"),
            (Outcome::LimitReached(limit), 0) => {
                format!("{} limit reached before any solution", limit_word(limit))
            }
            (Outcome::LimitReached(limit), _) => {
                format!("{found} solution(s) before the {} limit", limit_word(limit))
            }
            _ => format!("{found} solution(s)"),
        };
        writeln!(out, "{answer}")?;
        run.write_summary(out, args.request.n, &args.request.search)?;
    }
    Ok(Exit::of(run.result.outcome, found))
}
