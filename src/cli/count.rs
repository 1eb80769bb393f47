//! `csp queens count` on the fast counter (`nqueens_model::count`), and `csp queens merge`.
//!
//! `count` takes the fast counter unless a search option asks for the engine (see
//! [`engine_requested`]); both print the same core fields (`outcome`, `solution_count`, `solutions`) in
//! `--json`, so scripts read either.

use std::io::Write;
use std::num::NonZeroUsize;
use std::ops::ControlFlow;
use std::path::PathBuf;
use std::time::Duration;

use clap::Args;
use nqueens_model::Encoding;
use nqueens_model::count::{
    Answer, CountError, CountKind, CountOptions, CountProgress, CountReport, MergedCount, Shard,
    ShardResult, count, merge,
};
use serde::Serialize;

use super::args::CountArgs;
use super::progress::SubproblemBar;
use super::{CliError, Exit};

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
    #[arg(long, value_name = "i/k", value_parser = parse_shard)]
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

    /// What the answer line leads with.
    fn asked(&self) -> &'static str {
        if self.unique {
            "unique"
        } else {
            self.kind().name()
        }
    }
}

/// `csp queens merge`.
#[derive(Debug, Args)]
pub struct MergeArgs {
    /// The shard results: the finished `--checkpoint` files of `csp queens count N --shard i/k`, one
    /// per shard i = 0..k−1.
    #[arg(required = true, value_name = "FILES")]
    pub files: Vec<PathBuf>,
    /// Print one JSON object instead of text.
    #[arg(long)]
    pub json: bool,
}

/// Whether `count` runs on the engine: when any search option other than its default was given
/// (ordering, ties, values, propagation, restarts, a limit, a seed, the pairwise encoding). Mixing
/// those with the fast counter's own options is refused.
pub fn engine_requested(args: &CountArgs) -> Result<bool, CliError> {
    let search = &args.search;
    let engine = !search.is_preset()
        || search.restart_base.is_some()
        || search.limits.limits_search()
        || search.limits.time_limit.is_some()
        || search.seed != 0
        || search.encoding() != Encoding::Counters;
    if engine && args.fast.any() {
        return Err(CliError::Usage(
            "--nodes, --unique, --torus, --threads, --checkpoint and --shard belong to the fast counter; \
             search options (--order, --propagation, limits, …) run the engine instead: give one or the other"
                .to_owned(),
        ));
    }
    Ok(engine)
}

/// `csp queens count N` on the fast counter.
pub fn run(args: CountArgs, out: &mut impl Write) -> Result<Exit, CliError> {
    let fast = &args.fast;
    let bar = SubproblemBar::for_stderr(args.search.no_progress);
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
    let report = count(args.n, &options).map_err(usage);
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
    if args.search.json {
        write_json(out, &FastReport::new(args.n, fast, &report))?;
    } else {
        write_count_text(out, args.n, fast, &report)?;
    }
    Ok(exit)
}

/// `csp queens merge FILES…`.
pub fn run_merge(args: MergeArgs, out: &mut impl Write) -> Result<Exit, CliError> {
    let shards = args
        .files
        .iter()
        .map(|path| ShardResult::read(path))
        .collect::<Result<Vec<_>, _>>()
        .map_err(usage)?;
    let merged = merge(&shards).map_err(usage)?;
    if args.json {
        write_json(out, &MergeReport::new(&merged))?;
    } else {
        writeln!(
            out,
            "{}",
            answer_line(merged.n, merged.count, "", &merged.answer)
        )?;
        writeln!(
            out,
            "merged {} shards of {} subproblems ({} nodes visited in all)",
            merged.shards, merged.subproblems, merged.tally.visited
        )?;
    }
    Ok(if merged.answer.solutions == 0 {
        Exit::NoSolution
    } else {
        Exit::Answered
    })
}

fn usage(error: CountError) -> CliError {
    CliError::Usage(error.to_string())
}

/// The line that answers the question: "8-queens: 92 solutions, 12 essentially distinct (…)".
fn answer_line(n: usize, kind: CountKind, asked: &str, answer: &Answer) -> String {
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

fn write_count_text(
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
            _ => format!("{} solutions", report.answer.solutions),
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

fn write_json(out: &mut impl Write, report: &impl Serialize) -> std::io::Result<()> {
    serde_json::to_writer(&mut *out, report)?;
    writeln!(out)
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
    checkpoint: Option<&'a std::path::Path>,
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

/// The `--json` object of `csp queens merge`.
#[derive(Debug, Serialize)]
struct MergeReport {
    command: &'static str,
    n: usize,
    count: &'static str,
    shards: usize,
    subproblems: usize,
    solution_count: u128,
    unique_count: Option<u128>,
    node_count: Option<u128>,
    visited: u128,
}

impl MergeReport {
    fn new(merged: &MergedCount) -> Self {
        MergeReport {
            command: "merge",
            n: merged.n,
            count: merged.count.name(),
            shards: merged.shards,
            subproblems: merged.subproblems,
            solution_count: merged.answer.solutions,
            unique_count: merged.answer.unique,
            node_count: merged.answer.nodes,
            visited: merged.tally.visited,
        }
    }
}

/// `--shard i/k`.
fn parse_shard(text: &str) -> Result<Shard, String> {
    text.parse().map_err(|error: CountError| error.to_string())
}

/// `--checkpoint-interval SECONDS`: a finite number of seconds, 0 or more.
fn parse_interval(text: &str) -> Result<Duration, String> {
    let seconds: f64 = text
        .trim()
        .parse()
        .map_err(|_| "expected a number of seconds such as 2.5".to_owned())?;
    if !seconds.is_finite() || !(0.0..=1e9).contains(&seconds) {
        return Err("the checkpoint interval must be 0 or more seconds".to_owned());
    }
    Ok(Duration::from_secs_f64(seconds))
}
