//! The command line: FlatZinc's standard options, as MiniZinc passes them (`stdFlags` in
//! `minizinc/csp.msc`), and this solver's own.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use clap::Parser;
use csp::app::{Budget, at_least_one, milliseconds, on_off};
use csp::flatzinc::run::{Learns, RunOptions};
use csp::flatzinc::solver::SolverRun;

/// Solves a FlatZinc model with the csp engine, printing solutions as the FlatZinc specification
/// says.
#[derive(Debug, Parser)]
#[command(name = "fzn-csp", version)]
pub struct Args {
    /// The FlatZinc model (`-` or `/dev/stdin` for standard input).
    #[arg(value_name = "FILE")]
    pub file: PathBuf,
    /// All solutions (satisfaction), or every improving solution (optimisation).
    #[arg(short = 'a', long = "all-solutions")]
    pub all: bool,
    /// Stop after N solutions (under optimisation, N improving ones); at least 1.
    #[arg(short = 'n', long = "num-solutions", value_name = "N", value_parser = at_least_one)]
    pub solutions: Option<u64>,
    /// Print every improving solution of an optimisation.
    #[arg(short = 'i', long = "intermediate")]
    pub intermediate: bool,
    /// Free search: ignore the model's search annotations (dom/wdeg with restarts; with
    /// --learning on, activity-based search).
    #[arg(short = 'f', long = "free-search")]
    pub free: bool,
    /// Print statistics as `%%%mzn-stat:` lines.
    #[arg(short = 's', long = "statistics")]
    pub statistics: bool,
    /// Stop after this many milliseconds, counted from the start (reading and compiling included).
    #[arg(short = 't', long = "time-limit", value_name = "MS",
          allow_negative_numbers = true, value_parser = milliseconds)]
    pub time_limit: Option<u64>,
    /// The seed of every random choice (`indomain_random`, dom/wdeg ties).
    #[arg(
        short = 'r',
        long = "random-seed",
        value_name = "SEED",
        default_value_t = 0
    )]
    pub seed: u64,
    /// Searches at once, sharing the bound: a portfolio of different searches, or one tree split
    /// into subproblems (an enumeration always).
    #[arg(short = 'p', long = "parallel", value_name = "N", default_value_t = 1,
          value_parser = at_least_one)]
    pub threads: u64,
    /// A portfolio whose result does not depend on thread timing: its searches exchange bounds
    /// only every 10,000 nodes.
    #[arg(long)]
    pub deterministic: bool,
    /// With -p N: the workers search one tree split into subproblems (embarrassingly parallel
    /// search) instead of a portfolio of different searches. Default: on for satisfaction
    /// problems (always for an enumeration), off under an objective (where the portfolio finds
    /// better solutions).
    #[arg(long, value_name = "on|off", value_parser = on_off)]
    pub split: Option<bool>,
    /// Large-neighbourhood search beside branch and bound, for optimisation problems. Default: on.
    #[arg(long, value_name = "on|off", value_parser = on_off)]
    pub lns: Option<bool>,
    /// Learning from failure (conflict analysis, learned clauses, backjumping): off, on in every
    /// search (with neighbourhoods, and in every worker of -p N), or mix: a learning search
    /// beside one that does not, in turn on one thread (with -p N, the second worker learns). A
    /// learning search alternates the model's search annotations with activity-based search at
    /// each restart (with -f or without annotations: activity alone).
    #[arg(long, value_name = "off|on|mix", value_parser = learns)]
    pub learning: Option<Learns>,
    /// Under learning, how strongly the propagators that offer a choice propagate: strongest
    /// (each at its own strength) or short-reasons (bounds reasoning where it gives shorter
    /// explanations). Searches that do not learn always run the strongest.
    #[arg(long, value_name = "strongest|short-reasons", value_parser = csp_flatzinc::run::parse_profile)]
    pub learning_profile: Option<csp_core::PropagationProfile>,
    /// For the first solution of a satisfaction problem: the model's annotated search and free
    /// search (dom/wdeg with restarts) in turn, 10,000 nodes each, until either finds a solution
    /// or proves there is none. Off: the annotations alone. Default: on; it does not apply with
    /// -f, -a, -n over 1, -p N or --learning on.
    #[arg(long, value_name = "on|off", value_parser = on_off)]
    pub interleave: Option<bool>,
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

impl Args {
    /// The run these arguments ask for, its time limit counted from `started`.
    pub fn solver_run(&self, started: Instant) -> SolverRun {
        let budget = Budget::time_limit(started, self.time_limit.map(Duration::from_millis));
        SolverRun {
            program: "fzn-csp",
            path: self.file.clone(),
            options: self.run_options(budget),
            started,
            verbose: self.verbose,
        }
    }

    /// The options of the library's protocol, with the deadline of `budget`.
    fn run_options(&self, budget: Budget) -> RunOptions {
        RunOptions {
            all_solutions: self.all,
            solutions: self.solutions,
            intermediate: self.intermediate,
            free_search: self.free,
            statistics: self.statistics,
            seed: self.seed,
            lns: self.lns,
            threads: usize::try_from(self.threads).unwrap_or(usize::MAX),
            deterministic: self.deterministic,
            split: self.split,
            learning: self.learning,
            learning_profile: self.learning_profile,
            interleave: self.interleave,
            deadline: budget.deadline(),
            ..RunOptions::default()
        }
    }
}

/// `--learning`'s value.
fn learns(text: &str) -> Result<Learns, String> {
    text.parse()
}
