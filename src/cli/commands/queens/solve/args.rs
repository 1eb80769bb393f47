//! The arguments of `csp queens solve`.

use std::path::PathBuf;
use std::sync::LazyLock;

use clap::builder::PossibleValue;
use clap::{Args, ValueEnum};
use nqueens_model::construct::Method as ConstructMethod;
use nqueens_model::local_search::LocalMethod;
use nqueens_model::stream::Format;

use crate::cli::commands::queens::engine::QueensSearch;
use crate::cli::options::{parse_board_size, parse_count};

/// What `csp queens solve` and `csp queens trace` both take: the board, how many solutions, and the
/// search options.
#[derive(Debug, Args)]
pub struct Request {
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
    pub search: QueensSearch,
}

impl Request {
    /// How many solutions to stop after: `--solutions K`, all with `--all`, else 1.
    pub fn solution_limit(&self) -> Option<u64> {
        if self.all {
            None
        } else {
            Some(self.solutions.unwrap_or(1))
        }
    }
}

/// `csp queens solve`.
#[derive(Debug, Args)]
pub struct SolveArgs {
    /// The board, the solutions wanted and the search options.
    #[command(flatten)]
    pub request: Request,
    /// How to find the solution. [default: auto]
    ///
    /// auto picks the fastest correct method for the request and says which: the search engine when
    /// any search option, --solutions or --all is given, or n is 2 or 3; otherwise the O(n) explicit
    /// construction (with --torus, the knight-walk). search is the backtracking engine (the options
    /// below). explicit, knight-walk, decomposition, abramson-yung, yaglom and odd-trick are
    /// constructions (Hoffman–Loessi–Moore, Abramson & Yung, the Yagloms, Stone & Stone); qs1, qs4
    /// (Sosič & Gu), min-conflicts (csp-local on the counters model), las-vegas1 and las-vegas2
    /// (Rolfe) are seeded local searches.
    #[arg(long, value_enum, default_value_t = Method::Auto, hide_default_value = true)]
    pub method: Method,
    /// Run T seeds at once (seed, seed + 1, …); the first solution wins and the other runs stop.
    /// For the local-search methods, and for `--method search` when it looks for one solution (the
    /// searches race in the portfolio's deterministic mode, so the same seed and T print the same
    /// solution every time).
    #[arg(long, value_name = "T", default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=1024), allow_negative_numbers = true)]
    pub threads: u16,
    /// Local-search methods: give up after this many steps (what a step is depends on the method).
    #[arg(long, value_name = "M", value_parser = parse_count, allow_negative_numbers = true)]
    pub max_steps: Option<u64>,
    /// Write the solution to FILE (row 0 first): one 0-based column per line, or with --format u32le
    /// four little-endian bytes a row. The explicit construction streams it with bounded memory.
    #[arg(long, value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// The format of --output.
    #[arg(long, value_name = "FORMAT", value_enum, default_value_t = Format::Text)]
    pub format: Format,
    /// With --output, read the written file back and check it (O(n)); the printed verdict then covers
    /// the file itself.
    #[arg(long, requires = "output")]
    pub verify: bool,
    /// Toroidal queens: diagonals wrap around the board's edges (a solution exists exactly when n is
    /// coprime to 6). Constructed by the knight-walk.
    #[arg(long)]
    pub torus: bool,
}

impl SolveArgs {
    /// Whether the request can only be met by the search engine: a search option, a number of
    /// solutions, or an explicitly chosen encoding.
    pub fn asks_for_search(&self) -> bool {
        let request = &self.request;
        request.search.asks_for_engine() || request.all || request.solutions.is_some()
    }
}

/// `--method`: `auto`, `search`, or a local search or construction by the library's own name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Method {
    /// The fastest correct method for the request.
    Auto,
    /// The backtracking search engine.
    Search,
    /// A local search of `nqueens_model::local_search`.
    Local(LocalMethod),
    /// A construction of `nqueens_model::construct`.
    Construct(ConstructMethod),
}

impl ValueEnum for Method {
    fn value_variants<'a>() -> &'a [Self] {
        // Built from the libraries' lists, so that a method they add is offered here at once.
        static ALL: LazyLock<Vec<Method>> = LazyLock::new(|| {
            [Method::Auto, Method::Search]
                .into_iter()
                .chain(LocalMethod::ALL.map(Method::Local))
                .chain(ConstructMethod::ALL.map(Method::Construct))
                .collect()
        });
        &ALL
    }

    fn to_possible_value(&self) -> Option<PossibleValue> {
        Some(PossibleValue::new(match self {
            Method::Auto => "auto",
            Method::Search => "search",
            Method::Local(method) => method.name(),
            Method::Construct(method) => method.name(),
        }))
    }
}
