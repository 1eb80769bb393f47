//! `csp queens merge FILES…`: the shard results of a count made with `--shard i/k`, added up.

use std::io::Write;
use std::path::PathBuf;

use clap::Args;
use nqueens_count::{MergedCount, ShardResult, merge};
use serde::Serialize;

use super::count::answer_line;
use crate::cli::report::write_json;
use csp::app::{CliError, Exit};

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

/// Reads the shard results, merges them (refusing missing, repeated, unfinished and mismatched
/// shards) and reports the count.
pub fn run(args: MergeArgs, out: &mut impl Write) -> Result<Exit, CliError> {
    let shards = args
        .files
        .iter()
        .map(|path| ShardResult::read(path))
        .collect::<Result<Vec<_>, _>>()
        .map_err(CliError::usage)?;
    let merged = merge(&shards).map_err(CliError::usage)?;
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
