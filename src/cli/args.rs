//! The command line, declared with clap's derive API.

use std::time::Duration;

use clap::{Args, Parser, Subcommand, ValueEnum};
use csp_search::{Limits, Propagation, SearchConfig, TiePolicy, ValueOrderKind, VariableOrderKind};
use nqueens_model::Encoding;

/// A constraint-satisfaction toolkit; N-queens is its flagship model.
#[derive(Debug, Parser)]
#[command(name = "csp", version, about, propagate_version = true)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// The top-level commands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// The N-queens problem: place n queens on an n×n board so that none attacks another.
    Queens {
        /// What to do with it.
        #[command(subcommand)]
        command: QueensCommand,
    },
}

/// The `csp queens` commands.
#[derive(Debug, Subcommand)]
pub enum QueensCommand {
    /// Find one solution (or --solutions K, or --all) by backtracking search.
    Solve(SolveArgs),
    /// Count every solution by exhaustive backtracking search.
    Count(CountArgs),
}

/// `csp queens solve`.
#[derive(Debug, Args)]
pub struct SolveArgs {
    /// The board size n (queens and rows and columns).
    #[arg(value_parser = parse_board_size, allow_negative_numbers = true)]
    pub n: usize,
    /// Stop after this many solutions.
    #[arg(
        long,
        value_name = "K",
        value_parser = clap::value_parser!(u64).range(1..),
        conflicts_with = "all",
        allow_negative_numbers = true
    )]
    pub solutions: Option<u64>,
    /// Find every solution.
    #[arg(long)]
    pub all: bool,
    /// The search options.
    #[command(flatten)]
    pub search: SearchArgs,
}

/// `csp queens count`.
#[derive(Debug, Args)]
pub struct CountArgs {
    /// The board size n.
    #[arg(value_parser = parse_board_size, allow_negative_numbers = true)]
    pub n: usize,
    /// The search options.
    #[command(flatten)]
    pub search: SearchArgs,
}

/// Options shared by every search command.
#[derive(Debug, Args)]
pub struct SearchArgs {
    /// Variable ordering: lex (row by row, Stone & Stone's LEX) or min (fewest choices first, MIN).
    #[arg(long, value_enum, default_value_t = OrderArg::Min)]
    pub order: OrderArg,
    /// How min breaks ties between rows with equally few choices.
    #[arg(long, value_enum, default_value_t = TiesArg::Low)]
    pub ties: TiesArg,
    /// Value ordering: the order in which a row's columns are tried.
    #[arg(long, value_enum, default_value_t = ValuesArg::Asc)]
    pub values: ValuesArg,
    /// Propagation: check-past (Dijkstra: test a column against placed queens only) or fc (forward
    /// checking: prune the attacked squares of every unplaced row after each placement).
    #[arg(long, value_enum, default_value_t = PropagationArg::Fc)]
    pub propagation: PropagationArg,
    /// Model encoding: pairwise (generic ≠ constraints only) or counters (one global constraint with
    /// column and diagonal counters). Both give the same search tree.
    #[arg(long, value_enum, default_value_t = EncodingArg::Counters)]
    pub encoding: EncodingArg,
    /// Seed for every random choice (--ties random, --values random); same seed, same run.
    #[arg(long, default_value_t = 0, allow_negative_numbers = true)]
    pub seed: u64,
    /// Give up after this many nodes (placements).
    #[arg(long, value_name = "NODES", allow_negative_numbers = true)]
    pub node_limit: Option<u64>,
    /// Give up after this many backtracks.
    #[arg(long, value_name = "BACKTRACKS", allow_negative_numbers = true)]
    pub backtrack_limit: Option<u64>,
    /// Give up after this many seconds (decimals allowed).
    #[arg(long, value_name = "SECONDS", value_parser = parse_seconds, allow_negative_numbers = true)]
    pub time_limit: Option<Duration>,
    /// Print one JSON object instead of text.
    #[arg(long)]
    pub json: bool,
}

/// `--order`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum OrderArg {
    /// Row by row.
    Lex,
    /// Fewest choices first.
    Min,
}

/// `--ties`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum TiesArg {
    /// The lowest row.
    Low,
    /// A random row (seeded).
    Random,
    /// The row sharing constraints with the most unplaced rows.
    Degree,
}

/// `--values`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ValuesArg {
    /// Column 0 first.
    Asc,
    /// The last column first.
    Desc,
    /// A random order at every node (seeded).
    Random,
    /// Centre columns first.
    Middle,
}

/// `--propagation`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum PropagationArg {
    /// Test against placed queens only.
    CheckPast,
    /// Forward checking.
    Fc,
}

/// `--encoding`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum EncodingArg {
    /// Generic pairwise constraints.
    Pairwise,
    /// The counters global constraint.
    Counters,
}

impl SearchArgs {
    /// The engine configuration these options describe, stopping after `solution_limit` solutions.
    pub fn config(&self, solution_limit: Option<u64>) -> SearchConfig {
        SearchConfig {
            variable_order: match self.order {
                OrderArg::Lex => VariableOrderKind::Lexicographic,
                OrderArg::Min => VariableOrderKind::FewestChoices,
            },
            ties: match self.ties {
                TiesArg::Low => TiePolicy::LowestIndex,
                TiesArg::Random => TiePolicy::Random,
                TiesArg::Degree => TiePolicy::MaxDegree,
            },
            value_order: match self.values {
                ValuesArg::Asc => ValueOrderKind::Ascending,
                ValuesArg::Desc => ValueOrderKind::Descending,
                ValuesArg::Random => ValueOrderKind::Random,
                ValuesArg::Middle => ValueOrderKind::MiddleOut,
            },
            propagation: match self.propagation {
                PropagationArg::CheckPast => Propagation::CheckPast,
                PropagationArg::Fc => Propagation::ForwardChecking,
            },
            solution_limit,
            limits: Limits {
                nodes: self.node_limit,
                backtracks: self.backtrack_limit,
                time: self.time_limit,
            },
            seed: self.seed,
        }
    }

    /// The model encoding.
    pub fn encoding(&self) -> Encoding {
        match self.encoding {
            EncodingArg::Pairwise => Encoding::Pairwise,
            EncodingArg::Counters => Encoding::Counters,
        }
    }
}

/// A board size: a whole number of at least 1. (The upper limit depends on the encoding and is
/// checked when the model is built, before anything large is allocated.)
fn parse_board_size(text: &str) -> Result<usize, String> {
    let n: i128 = text
        .trim()
        .parse()
        .map_err(|_| "the board size must be a whole number such as 8".to_owned())?;
    if n < 1 {
        return Err("the board size must be at least 1".to_owned());
    }
    usize::try_from(n).map_err(|_| "the board size is far too large".to_owned())
}

/// A positive, finite number of seconds.
fn parse_seconds(text: &str) -> Result<Duration, String> {
    let seconds: f64 = text
        .trim()
        .parse()
        .map_err(|_| "expected a number of seconds such as 2.5".to_owned())?;
    if !seconds.is_finite() || seconds <= 0.0 || seconds > 1e9 {
        return Err("the time limit must be a positive number of seconds".to_owned());
    }
    Ok(Duration::from_secs_f64(seconds))
}
