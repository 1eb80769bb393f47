//! `csp queens count`: every solution counted, by the fast counter (`nqueens_count`) or, when
//! a search option asks for it, by the engine.
//!
//! Both print the same core fields (`outcome`, `solution_count`, `solutions`) in `--json`, so scripts
//! read either.

use std::io::Write;
use std::num::NonZeroUsize;
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};
use std::str::FromStr;
use std::time::Duration;

use clap::Args;
use csp_search::Outcome;
use nqueens_count::{Answer, CountKind, CountOptions, CountProgress, CountReport, Shard, count};
use serde::Serialize;

use super::engine::{QueensSearch, limit_word, search, start_json};
use crate::cli::options::{parse_board_size, parse_interval};
use crate::cli::report::write_json;
use csp::app::SubproblemBar;
use csp::app::{CliError, Exit};

/// `csp queens count`.
#[derive(Debug, Args)]
pub struct CountArgs {
    /// The board size n.
    #[arg(value_parser = parse_board_size, allow_negative_numbers = true)]
    pub n: usize,
    /// The fast counter's options.
    #[command(flatten)]
    pub fast: FastCountArgs,
    /// The search options: any of them (other than --json and --no-progress) runs the engine instead.
    #[command(flatten)]
    pub search: QueensSearch,
}

/// The options of `csp queens count` that belong to the fast counter.
#[derive(Debug, Args)]
pub struct FastCountArgs {
    /// Count the nodes of the full LEX backtrack tree instead, root included (Stone & Stone's tree
    /// size; its leaves are the solutions).
    #[arg(long, conflicts_with_all = ["unique", "torus"])]
    pub nodes: bool,
    /// Answer with the number of essentially distinct solutions, up to rotation and reflection (OEIS
    /// A002562). The default count reports it too.
    #[arg(long, conflicts_with = "torus")]
    pub unique: bool,
    /// Count the solutions on a torus, where diagonals wrap around the edges (OEIS A051906).
    #[arg(long)]
    pub torus: bool,
    /// Threads to count on. [default: every core]
    #[arg(long, value_name = "T", value_parser = clap::value_parser!(u32).range(1..=4096))]
    pub threads: Option<u32>,
    /// Resume from FILE if it exists, and record finished subproblems in it as the count runs (written
    /// to FILE.tmp, then renamed). A finished shard's file is what `csp queens merge` reads.
    #[arg(long, value_name = "FILE")]
    pub checkpoint: Option<PathBuf>,
    /// Seconds between checkpoint writes while counting (0: after every subproblem). [default: 1]
    #[arg(long, value_name = "SECONDS", value_parser = parse_interval, requires = "checkpoint")]
    pub checkpoint_interval: Option<Duration>,
    /// Count only shard i of k: the subproblems numbered i modulo k, the same on every machine. Add
    /// the k results up with `csp queens merge`.
    #[arg(long, value_name = "i/k", value_parser = Shard::from_str, allow_hyphen_values = true)]
    pub shard: Option<Shard>,
}

impl FastCountArgs {
    /// Whether any option that only the fast counter understands was given.
    fn any(&self) -> bool {
        self.nodes
            || self.unique
            || self.torus
            || self.threads.is_some()
            || self.checkpoint.is_some()
            || self.shard.is_some()
    }

    /// What the library counts.
    fn kind(&self) -> CountKind {
        if self.nodes {
            CountKind::Nodes
        } else if self.torus {
            CountKind::Torus
        } else {
            CountKind::Solutions
        }
    }

    /// What the answer line leads with: `unique`, or what is counted.
    fn asked(&self) -> &'static str {
        if self.unique {
            "unique"
        } else {
            self.kind().name()
        }
    }
}

/// Counts on the engine when any search option other than its default was given (ordering, ties,
/// values, propagation, restarts, a limit, a seed, the pairwise encoding), on the fast counter
/// otherwise. Mixing those with the fast counter's own options is refused.
pub fn run(args: CountArgs, out: &mut impl Write) -> Result<Exit, CliError> {
    let options = &args.search.options;
    let engine =
        args.search.asks_for_engine() || options.limits.time_limit.is_some() || options.seed != 0;
    match (engine, args.fast.any()) {
        (true, true) => Err(CliError::Usage(
            "--nodes, --unique, --torus, --threads, --checkpoint and --shard belong to the fast counter; \
             search options (--order, --propagation, limits, …) run the engine instead: give one or the other"
                .to_owned(),
        )),
        (true, false) => run_engine(&args, out),
        (false, _) => run_fast(&args, out),
    }
}

/// `count` on the engine: a full search that stores no solution.
fn run_engine(args: &CountArgs, out: &mut impl Write) -> Result<Exit, CliError> {
    let budget = args.search.options.limits.budget();
    let run = search(args.n, &args.search, None, None, &budget)?;
    let count = run.result.stats.solutions;
    if args.search.options.json {
        // Counting stores no solution: the array stays empty.
        start_json(out)?;
        run.write_json(out, "count", args.n, &args.search)?;
    } else {
        match run.result.outcome {
            Outcome::Exhausted => writeln!(out, "{}-queens has {count} solution(s)", args.n)?,
            Outcome::LimitReached(limit) => writeln!(
                out,
                "{} limit reached: counted {count} solution(s) so far; the count is incomplete",
                limit_word(limit)
            )?,
            _ => writeln!(out, "stopped after {count} solution(s)")?,
        }
        run.write_summary(out, args.n, &args.search)?;
    }
    Ok(Exit::of(run.result.outcome, count))
}

/// `count` on the fast counter, with a bar of subproblems finished.
fn run_fast(args: &CountArgs, out: &mut impl Write) -> Result<Exit, CliError> {
    let fast = &args.fast;
    let bar = SubproblemBar::for_stderr(args.search.options.no_progress);
    let on_progress = |progress: &CountProgress| {
        if let Some(bar) = &bar {
            bar.update(progress.finished, progress.total);
        }
        ControlFlow::Continue(())
    };
    let defaults = CountOptions::default();
    let options = CountOptions {
        kind: fast.kind(),
        threads: fast.threads.and_then(|t| NonZeroUsize::new(t as usize)),
        shard: fast.shard.unwrap_or(Shard::WHOLE),
        checkpoint: fast.checkpoint.clone(),
        checkpoint_interval: fast
            .checkpoint_interval
            .unwrap_or(defaults.checkpoint_interval),
        progress: Some(&on_progress),
        ..defaults
    };
    let report = count(args.n, &options).map_err(CliError::usage);
    drop(options);
    // The answer follows on stdout; clear the bar first.
    drop(bar);
    let report = report?;
    let exit = if !report.complete {
        Exit::LimitReached
    } else if report.result.shard.is_whole() && report.answer.solutions == 0 {
        Exit::NoSolution
    } else {
        Exit::Answered
    };
    if args.search.options.json {
        write_json(out, &FastReport::new(args.n, fast, &report))?;
    } else {
        write_fast_text(out, args.n, fast, &report)?;
    }
    Ok(exit)
}

/// The line that answers the question: "8-queens: 92 solutions, 12 essentially distinct (…)".
pub fn answer_line(n: usize, kind: CountKind, asked: &str, answer: &Answer) -> String {
    let solutions = answer.solutions;
    match (kind, answer.unique, answer.nodes) {
        (CountKind::Torus, ..) => format!("{n}-queens on a torus: {solutions} solutions"),
        (CountKind::Nodes, _, Some(nodes)) => format!(
            "{n}-queens: the full LEX backtrack tree has {nodes} nodes, root included; {solutions} solutions"
        ),
        (_, Some(unique), _) if asked == "unique" => {
            format!("{n}-queens: {unique} essentially distinct solutions ({solutions} in all)")
        }
        (_, Some(unique), _) => format!(
            "{n}-queens: {solutions} solutions, {unique} essentially distinct (up to rotation and reflection)"
        ),
        _ => format!("{n}-queens: {solutions} solutions"),
    }
}

fn write_fast_text(
    out: &mut impl Write,
    n: usize,
    fast: &FastCountArgs,
    report: &CountReport,
) -> std::io::Result<()> {
    let result = &report.result;
    let (finished, total) = (result.finished_count(), result.shard_size());
    if !report.complete {
        writeln!(
            out,
            "stopped after {finished} of {total} subproblems: {} solutions so far; the count is incomplete (resume it with --checkpoint)",
            report.answer.solutions
        )?;
    } else if !result.shard.is_whole() {
        let part = match result.count {
            CountKind::Nodes => format!(
                "{} LEX tree nodes and {} solutions",
                report.answer.nodes.unwrap_or(0),
                report.answer.solutions
            ),
            CountKind::Solutions | CountKind::Torus => {
                format!("{} solutions", report.answer.solutions)
            }
        };
        writeln!(
            out,
            "shard {} of the {n}-queens {} count: {part} in its {total} of {} subproblems (one part: `csp queens merge` the {} shard files for the answer)",
            result.shard, result.count, result.subproblems, result.shard.of
        )?;
    } else if report.answer.solutions == 0 && result.count != CountKind::Nodes {
        writeln!(out, "no solution exists for n = {n}")?;
    } else {
        writeln!(
            out,
            "{}",
            answer_line(n, result.count, fast.asked(), &report.answer)
        )?;
    }
    let resumed = if report.resumed > 0 {
        format!(", {} resumed from the checkpoint", report.resumed)
    } else {
        String::new()
    };
    writeln!(
        out,
        "fast bitboard counter: {total} subproblems{resumed}, {} thread(s)",
        report.threads
    )?;
    writeln!(
        out,
        "elapsed {:.3} s, {} nodes visited ({:.3e} nodes/s)",
        report.elapsed.as_secs_f64(),
        report.visited,
        report.nodes_per_second()
    )
}

/// The `--json` object of a fast count. `outcome`, `solution_count` and the (empty) `solutions` are
/// the engine count's fields, with the same meanings.
#[derive(Debug, Serialize)]
struct FastReport<'a> {
    command: &'static str,
    method: &'static str,
    n: usize,
    /// What was asked: `solutions`, `unique`, `nodes` or `torus`.
    count: &'static str,
    /// `exhausted` when every subproblem of the shard is counted, `stopped` otherwise.
    outcome: &'static str,
    /// The number asked for; absent for a shard's unique count (it needs every shard).
    answer: Option<u128>,
    solution_count: u128,
    unique_count: Option<u128>,
    node_count: Option<u128>,
    /// Counting stores no solutions.
    solutions: [u32; 0],
    shard: Shard,
    subproblems: SubproblemsReport,
    checkpoint: Option<&'a Path>,
    threads: usize,
    elapsed_ms: f64,
    /// Nodes (queens placed) visited by this run.
    visited: u128,
    nodes_per_second: f64,
}

#[derive(Debug, Serialize)]
struct SubproblemsReport {
    /// In this shard.
    total: usize,
    finished: usize,
    /// Taken from the checkpoint.
    resumed: usize,
    /// In the whole count.
    all_shards: usize,
}

impl<'a> FastReport<'a> {
    fn new(n: usize, fast: &'a FastCountArgs, report: &CountReport) -> Self {
        let answer = &report.answer;
        let asked = fast.asked();
        FastReport {
            command: "count",
            method: "fast",
            n,
            count: asked,
            outcome: if report.complete {
                "exhausted"
            } else {
                "stopped"
            },
            answer: match asked {
                "unique" => answer.unique,
                "nodes" => answer.nodes,
                _ => Some(answer.solutions),
            },
            solution_count: answer.solutions,
            unique_count: answer.unique,
            node_count: answer.nodes,
            solutions: [],
            shard: report.result.shard,
            subproblems: SubproblemsReport {
                total: report.result.shard_size(),
                finished: report.result.finished_count(),
                resumed: report.resumed,
                all_shards: report.result.subproblems,
            },
            checkpoint: fast.checkpoint.as_deref(),
            threads: report.threads,
            elapsed_ms: report.elapsed.as_secs_f64() * 1e3,
            visited: report.visited,
            nodes_per_second: report.nodes_per_second(),
        }
    }
}
