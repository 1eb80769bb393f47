//! The command line: FlatZinc's standard options, as MiniZinc passes them (`stdFlags` in
//! `minizinc/csp.msc`), and this solver's own.

use std::path::PathBuf;

use clap::Parser;

/// Solves a FlatZinc model with the csp engine, printing solutions as the FlatZinc specification
/// says.
#[derive(Debug, Parser)]
#[command(name = "fzn-csp", version)]
pub struct Args {
    /// The FlatZinc model.
    pub file: PathBuf,
    /// All solutions (satisfaction), or every improving solution (optimisation).
    #[arg(short = 'a', long = "all-solutions")]
    pub all: bool,
    /// Stop after N solutions (under optimisation, N improving ones).
    #[arg(short = 'n', long = "num-solutions", value_name = "N")]
    pub solutions: Option<u64>,
    /// Print every improving solution of an optimisation.
    #[arg(short = 'i', long = "intermediate")]
    pub intermediate: bool,
    /// Free search: ignore the model's search annotations (dom/wdeg with restarts).
    #[arg(short = 'f', long = "free-search")]
    pub free: bool,
    /// Print statistics as `%%%mzn-stat:` lines.
    #[arg(short = 's', long = "statistics")]
    pub statistics: bool,
    /// Stop after this many milliseconds, counted from the start (reading and compiling included).
    #[arg(short = 't', long = "time-limit", value_name = "MS")]
    pub time_limit: Option<u64>,
    /// The seed of every random choice (`indomain_random`, dom/wdeg ties).
    #[arg(
        short = 'r',
        long = "random-seed",
        value_name = "SEED",
        default_value_t = 0
    )]
    pub seed: u64,
    /// Threads: only 1 is supported; a larger number runs one search, with a warning.
    #[arg(short = 'p', long = "parallel", value_name = "N", default_value_t = 1)]
    pub threads: usize,
    /// Say on stderr what was built and how the search went.
    #[arg(short = 'v', long = "verbose")]
    pub verbose: bool,
    /// Show the share of the estimated search tree explored and an ETA on stderr (by default only
    /// when stderr is a terminal).
    #[arg(long, conflicts_with = "no_progress")]
    pub progress: bool,
    /// Never show progress.
    #[arg(long)]
    pub no_progress: bool,
}
