//! `csp queens solve` and `csp queens count` on the search engine.

use std::io::Write;
use std::ops::ControlFlow;
use std::time::Instant;

use csp_search::{
    FnObserver, Outcome, SearchEvent, TraceRecorder, TreeSizeEstimator, knuth_probes, solve,
};
use nqueens_model::{model, render, verify};

use super::args::{CountArgs, EstimateArgs, QueensCommand, SearchArgs, SolveArgs, TraceArgs};
use super::method::{self, MAX_DRAWN_BOARD, Resolved};
use super::output::{Report, describe_config, write_stats};
use super::progress::Progress;
use super::{CliError, Exit};

/// Runs one `csp queens` command, writing its answer to `out`.
pub fn run(command: QueensCommand, out: &mut impl Write) -> Result<Exit, CliError> {
    match command {
        QueensCommand::Solve(args) => run_solve(args, out),
        QueensCommand::Count(args) => match super::count::engine_requested(&args)? {
            true => run_count(args, out),
            false => super::count::run(args, out),
        },
        QueensCommand::Trace(args) => run_trace(args, out),
        QueensCommand::Estimate(args) => run_estimate(args, out),
        QueensCommand::Compare(args) => super::compare::run(args, out),
        QueensCommand::Merge(args) => super::count::run_merge(args, out),
        QueensCommand::Verify(args) => method::run_verify(&args, out),
    }
}

/// The `--json` object of `csp queens estimate`.
#[derive(Debug, serde::Serialize)]
struct EstimateReport {
    n: usize,
    method: &'static str,
    estimated_tree_size: f64,
    estimated_solutions: f64,
    /// Nodes the online method's search visited, root included (probes do not report it).
    #[serde(skip_serializing_if = "Option::is_none")]
    nodes_visited: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    solutions_found: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    probes: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    std_error: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    solutions_std_error: Option<f64>,
    elapsed_ms: f64,
}

fn run_estimate(args: EstimateArgs, out: &mut impl Write) -> Result<Exit, CliError> {
    let started = Instant::now();
    let model =
        model(args.n, args.search.encoding()).map_err(|e| CliError::Usage(e.to_string()))?;
    let config = args.search.config(args.n, Some(args.solutions));
    let report = match args.probes {
        Some(probes) => {
            let estimate = knuth_probes(&model, &config, probes);
            EstimateReport {
                n: args.n,
                method: "probes",
                estimated_tree_size: estimate.tree_size,
                estimated_solutions: estimate.solutions,
                nodes_visited: None,
                solutions_found: None,
                probes: Some(probes),
                std_error: Some(estimate.tree_size_std_error),
                solutions_std_error: Some(estimate.solutions_std_error),
                elapsed_ms: started.elapsed().as_secs_f64() * 1e3,
            }
        }
        None => {
            let mut estimator = TreeSizeEstimator::new();
            let result = solve(&model, &config, &mut estimator);
            EstimateReport {
                n: args.n,
                method: "online",
                estimated_tree_size: estimator.estimated_tree_size(),
                estimated_solutions: estimator.estimated_solutions(),
                nodes_visited: Some(result.stats.tree_nodes()),
                solutions_found: Some(result.stats.solutions),
                probes: None,
                std_error: None,
                solutions_std_error: None,
                elapsed_ms: started.elapsed().as_secs_f64() * 1e3,
            }
        }
    };
    if args.search.json {
        serde_json::to_writer(&mut *out, &report).map_err(std::io::Error::from)?;
        writeln!(out)?;
    } else {
        writeln!(
            out,
            "{}-queens: estimated tree size {:.4e} nodes, estimated solutions {:.4e}",
            args.n, report.estimated_tree_size, report.estimated_solutions
        )?;
        match (report.probes, report.nodes_visited) {
            (Some(probes), _) => writeln!(
                out,
                "from {probes} Knuth probes: standard errors {:.3e} (size), {:.3e} (solutions)",
                report.std_error.unwrap_or(0.0),
                report.solutions_std_error.unwrap_or(0.0)
            )?,
            (None, Some(nodes)) => writeln!(
                out,
                "online (Stone & Stone) after {} solution(s) and {nodes} nodes visited",
                report.solutions_found.unwrap_or(0)
            )?,
            (None, None) => {}
        }
        writeln!(
            out,
            "{}-queens: {}",
            args.n,
            describe_config(&args.search, &config)
        )?;
        writeln!(out, "elapsed {:.3} ms", report.elapsed_ms)?;
    }
    Ok(Exit::Answered)
}

fn run_trace(args: TraceArgs, out: &mut impl Write) -> Result<Exit, CliError> {
    let solve_args = &args.solve;
    let model = model(solve_args.n, solve_args.search.encoding())
        .map_err(|e| CliError::Usage(e.to_string()))?;
    let config = solve_args
        .search
        .config(solve_args.n, solve_args.solution_limit());
    let mut recorder = TraceRecorder::new(&model, Some(args.limit));
    let result = solve(&model, &config, &mut recorder);
    out.write_all(recorder.text().as_bytes())?;
    Ok(Exit::of(result.outcome, result.stats.solutions))
}

fn run_solve(args: SolveArgs, out: &mut impl Write) -> Result<Exit, CliError> {
    let (method, chosen_by_auto) = method::resolve(&args)?;
    match method {
        Resolved::Local(local) => method::run_local(&args, local, chosen_by_auto, out),
        Resolved::Search => {
            method::check_local_only_options(&args)?;
            run_search_solve(args, out)
        }
        construct => {
            method::check_local_only_options(&args)?;
            method::run_construct(&args, construct, chosen_by_auto, out)
        }
    }
}

/// `solve` on the search engine.
fn run_search_solve(args: SolveArgs, out: &mut impl Write) -> Result<Exit, CliError> {
    let solution_limit = args.solution_limit();
    let json = args.search.json;
    let mut solutions: Vec<Vec<u32>> = Vec::new();
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
        if json {
            solutions.push(placement.to_vec());
        } else if let Err(error) = write_solution(out, args.n, index, placement) {
            write_error = Some(error);
            return ControlFlow::Break(());
        }
        ControlFlow::Continue(())
    };
    let run = search(args.n, &args.search, solution_limit, Some(&mut on_solution))?;
    if let Some(error) = write_error {
        return Err(error.into());
    }
    if let Some(error) = invalid {
        return Err(CliError::Internal(format!(
            "the search returned an invalid placement ({error})"
        )));
    }
    if let (Some(path), Some(placement)) = (&args.output, &first) {
        method::write_placement_file(path, placement.iter().copied(), args.format)?;
    }
    let found = run.result.stats.solutions;
    let exit = Exit::of(run.result.outcome, found);
    if json {
        Report::new("solve", args.n, &args.search, &run, solutions).write(out)?;
    } else {
        let answer = match (run.result.outcome, found) {
            (Outcome::Exhausted, 0) => format!("no solution exists for n = {}", args.n),
            (Outcome::Exhausted, _) => format!("{found} solution(s); the search is complete"),
            (Outcome::LimitReached(limit), 0) => {
                format!("{} limit reached before any solution", limit_name(limit))
            }
            (Outcome::LimitReached(limit), _) => {
                format!("{found} solution(s) before the {} limit", limit_name(limit))
            }
            _ => format!("{found} solution(s)"),
        };
        writeln!(out, "{answer}")?;
        write_summary(out, args.n, &args.search, &run)?;
    }
    Ok(exit)
}

fn run_count(args: CountArgs, out: &mut impl Write) -> Result<Exit, CliError> {
    let run = search(args.n, &args.search, None, None)?;
    let count = run.result.stats.solutions;
    let exit = Exit::of(run.result.outcome, count);
    if args.search.json {
        Report::new("count", args.n, &args.search, &run, Vec::new()).write(out)?;
    } else {
        match run.result.outcome {
            Outcome::Exhausted => writeln!(out, "{}-queens has {count} solution(s)", args.n)?,
            Outcome::LimitReached(limit) => writeln!(
                out,
                "{} limit reached: counted {count} solution(s) so far; the count is incomplete",
                limit_name(limit)
            )?,
            _ => writeln!(out, "stopped after {count} solution(s)")?,
        }
        write_summary(out, args.n, &args.search, &run)?;
    }
    Ok(exit)
}

/// A finished search, the configuration it ran with, and how long its parts took.
pub struct Run {
    /// The engine's result.
    pub result: csp_search::SearchResult,
    /// The configuration.
    pub config: csp_search::SearchConfig,
    /// Time to build the model, in seconds.
    pub build_seconds: f64,
}

/// What receives each solution: its number (from 1) and its placement; `Break` stops the search.
type SolutionSink<'a> = dyn FnMut(u64, &[u32]) -> ControlFlow<()> + 'a;

/// Builds the model and runs the search, handing each solution (as a placement) to `on_solution` if
/// there is one; counting passes none and copies nothing.
fn search(
    n: usize,
    options: &SearchArgs,
    solution_limit: Option<u64>,
    mut on_solution: Option<&mut SolutionSink<'_>>,
) -> Result<Run, CliError> {
    let started = Instant::now();
    let model = model(n, options.encoding()).map_err(|e| CliError::Usage(e.to_string()))?;
    let build_seconds = started.elapsed().as_secs_f64();
    let config = options.config(n, solution_limit);
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
    let result = match Progress::for_stderr(options.no_progress) {
        Some(mut progress) => solve(&model, &config, (observer, &mut progress)),
        None => solve(&model, &config, observer),
    };
    Ok(Run {
        result,
        config,
        build_seconds,
    })
}

fn write_solution(
    out: &mut impl Write,
    n: usize,
    index: u64,
    placement: &[u32],
) -> std::io::Result<()> {
    writeln!(out, "solution {index}:")?;
    if n <= MAX_DRAWN_BOARD {
        write!(out, "{}", render(placement))?;
    } else {
        let columns: Vec<String> = placement.iter().map(u32::to_string).collect();
        writeln!(out, "{}", columns.join(" "))?;
    }
    Ok(())
}

fn write_summary(
    out: &mut impl Write,
    n: usize,
    options: &SearchArgs,
    run: &Run,
) -> std::io::Result<()> {
    writeln!(out, "{n}-queens: {}", describe_config(options, &run.config))?;
    write_stats(out, run)
}

fn limit_name(limit: csp_search::Limit) -> &'static str {
    match limit {
        csp_search::Limit::Nodes => "node",
        csp_search::Limit::Backtracks => "backtrack",
        csp_search::Limit::Time => "time",
        csp_search::Limit::Solutions => "solution",
    }
}
