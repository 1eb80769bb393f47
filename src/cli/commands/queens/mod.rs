//! The `csp queens` commands, one file each; `engine` holds what those that run the search engine
//! share.

mod compare;
mod count;
mod engine;
mod estimate;
mod merge;
mod solve;
mod trace;
mod verify;

use std::io::Write;

use clap::Subcommand;

use csp::app::{CliError, Exit};

/// The `csp queens` commands.
#[derive(Debug, Subcommand)]
pub enum QueensCommand {
    /// Find one solution, by local search or construction (--method), or by the search engine
    /// (also --solutions K or --all).
    Solve(solve::SolveArgs),
    /// Count every solution: by the fast bitboard counter, or by the engine when search options are
    /// given.
    Count(count::CountArgs),
    /// Print the search's events, one line each (the format csp_search::TraceRecorder documents).
    Trace(trace::TraceArgs),
    /// Estimate the full tree's size and solution count: online from a terse search (Stone & Stone),
    /// or from random probes (Knuth) with --probes.
    Estimate(estimate::EstimateArgs),
    /// Check a stored placement (one 0-based column per line, or --format u32le) in O(n) and name the
    /// first attacking pair: exit 0 when it is a solution, 1 when it is not, 2 when the file is
    /// malformed.
    Verify(verify::VerifyArgs),
    /// Compare LEX and MIN over a range of boards: Stone & Stone's Table 2 (backtracks per solution)
    /// and Table 1 (estimated vs actual tree sizes).
    Compare(compare::CompareArgs),
    /// Add up the shard results of a count made with --shard i/k (its --checkpoint files).
    Merge(merge::MergeArgs),
}

/// Runs one `csp queens` command, writing its answer to `out`.
pub fn run(command: QueensCommand, out: &mut impl Write) -> Result<Exit, CliError> {
    match command {
        QueensCommand::Solve(args) => solve::run(args, out),
        QueensCommand::Count(args) => count::run(args, out),
        QueensCommand::Trace(args) => trace::run(args, out),
        QueensCommand::Estimate(args) => estimate::run(args, out),
        QueensCommand::Verify(args) => verify::run(&args, out),
        QueensCommand::Compare(args) => compare::run(args, out),
        QueensCommand::Merge(args) => merge::run(args, out),
    }
}
