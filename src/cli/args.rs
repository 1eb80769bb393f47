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
    /// Sudoku: solve every puzzle of a file (81-character lines), or count each one's solutions.
    Sudoku(super::sudoku::SudokuArgs),
    /// Graph colouring of a DIMACS .col file: a k-colouring or a proof that none exists, or the
    /// chromatic number.
    Color(super::color::ColorArgs),
}

/// The `csp queens` commands.
#[derive(Debug, Subcommand)]
pub enum QueensCommand {
    /// Find one solution, by local search or construction (--method), or by the search engine
    /// (also --solutions K or --all).
    Solve(SolveArgs),
    /// Count every solution: by the fast bitboard counter, or by the engine when search options are
    /// given.
    Count(CountArgs),
    /// Print the search's events, one line each (the format csp_search::TraceRecorder documents).
    Trace(TraceArgs),
    /// Estimate the full tree's size and solution count: online from a terse search (Stone & Stone),
    /// or from random probes (Knuth) with --probes.
    Estimate(EstimateArgs),
    /// Check a stored placement (one 0-based column per line, or --format u32le) in O(n) and name the
    /// first attacking pair: exit 0 when it is a solution, 1 when it is not, 2 when the file is
    /// malformed.
    Verify(VerifyArgs),
    /// Compare LEX and MIN over a range of boards: Stone & Stone's Table 2 (backtracks per solution)
    /// and Table 1 (estimated vs actual tree sizes).
    Compare(CompareArgs),
    /// Add up the shard results of a count made with --shard i/k (its --checkpoint files).
    Merge(super::count::MergeArgs),
}

/// `csp queens compare`.
#[derive(Debug, Args)]
pub struct CompareArgs {
    /// The boards: N, A..B (inclusive), A-B, or a list such as 7,9,11.
    pub range: String,
    /// The orderings to compare. LEX runs check-past and MIN forward checking, as in the paper, unless
    /// --propagation says otherwise.
    #[arg(long, value_enum, value_delimiter = ',', default_values_t = [OrderArg::Lex, OrderArg::Min])]
    pub orders: Vec<OrderArg>,
    /// One propagation level for every ordering.
    #[arg(long, value_enum)]
    pub propagation: Option<PropagationArg>,
    /// The numbers of solutions after which each terse search stops.
    #[arg(long, value_delimiter = ',', default_values_t = [1, 10], value_parser = clap::value_parser!(u64).range(1..))]
    pub solutions: Vec<u64>,
    /// Break MIN's ties at random (the paper's tie-breaking is unspecified), averaging over --seeds.
    #[arg(long)]
    pub ties_random: bool,
    /// With --ties-random, average over seeds 0..K.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..1000))]
    pub seeds: u64,
    /// The node budget of each search; a cell over it says so.
    #[arg(long, value_name = "NODES", default_value_t = 10_000_000, value_parser = clap::value_parser!(u64).range(1..))]
    pub budget: u64,
    /// Output format.
    #[arg(long, value_enum, default_value_t = CompareFormat::Table)]
    pub format: CompareFormat,
    /// Also write SVG figures to this directory: backtracks per solution vs N (Figs 5, 7, 8),
    /// branching factor and backtracks by depth for the largest N (Figs 1, 3), and the estimated full
    /// tree vs N (Fig 10).
    #[arg(long, value_name = "DIR")]
    pub plot: Option<std::path::PathBuf>,
}

/// `--format` of `compare`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum CompareFormat {
    /// Aligned text tables.
    Table,
    /// One CSV row per cell.
    Csv,
    /// One JSON array of cells.
    Json,
}

/// `csp queens estimate`.
#[derive(Debug, Args)]
pub struct EstimateArgs {
    /// The board size n.
    #[arg(value_parser = parse_board_size, allow_negative_numbers = true)]
    pub n: usize,
    /// Stop the search after this many solutions, then report Stone & Stone's online estimate.
    #[arg(
        long,
        value_name = "K",
        default_value_t = 1,
        value_parser = clap::value_parser!(u64).range(1..),
        conflicts_with = "probes",
        allow_negative_numbers = true
    )]
    pub solutions: u64,
    /// Instead, make this many of Knuth's random probes (seeded by --seed).
    #[arg(
        long,
        value_name = "P",
        value_parser = clap::value_parser!(u64).range(1..),
        allow_negative_numbers = true
    )]
    pub probes: Option<u64>,
    /// The search options.
    #[command(flatten)]
    pub search: SearchArgs,
}

/// `csp queens trace`: what `solve` takes, and an event limit.
#[derive(Debug, Args)]
pub struct TraceArgs {
    /// The board, the solutions wanted and the search options, as for `solve`.
    #[command(flatten)]
    pub solve: SolveArgs,
    /// Stop the search after this many events.
    #[arg(
        long,
        value_name = "EVENTS",
        default_value_t = 1_000_000,
        value_parser = clap::value_parser!(u64).range(1..),
        allow_negative_numbers = true
    )]
    pub limit: u64,
}

/// `csp queens verify`.
#[derive(Debug, Args)]
pub struct VerifyArgs {
    /// The placement file.
    pub file: std::path::PathBuf,
    /// Its format: text or u32le.
    #[arg(long, value_name = "FORMAT", default_value = "text", value_parser = parse_format)]
    pub format: nqueens_model::stream::Format,
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
    /// How to find the solution. [default: auto]
    ///
    /// auto picks the fastest correct method for the request and says which: the search engine when
    /// any search option, --solutions or --all is given, or n is 2 or 3; otherwise the O(n) explicit
    /// construction (with --torus, the knight-walk). search is the backtracking engine (the options
    /// below). explicit, knight-walk, decomposition, abramson-yung, yaglom and odd-trick are
    /// constructions (Hoffman–Loessi–Moore, Abramson & Yung, the Yagloms, Stone & Stone); qs1, qs4
    /// (Sosič & Gu), min-conflicts (csp-local on the counters model), las-vegas1 and las-vegas2
    /// (Rolfe) are seeded local searches.
    #[arg(long, value_enum, default_value_t = MethodArg::Auto, hide_default_value = true)]
    pub method: MethodArg,
    /// Local-search methods: run T seeds at once (seed, seed + 1, …); the first solution wins and the
    /// other runs stop.
    #[arg(long, value_name = "T", default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=1024), allow_negative_numbers = true)]
    pub threads: u16,
    /// Local-search methods: give up after this many steps (what a step is depends on the method).
    #[arg(long, value_name = "M", value_parser = parse_count, allow_negative_numbers = true)]
    pub max_steps: Option<u64>,
    /// Write the solution to FILE (row 0 first): one 0-based column per line, or with --format u32le
    /// four little-endian bytes a row. The explicit construction streams it with bounded memory.
    #[arg(long, value_name = "FILE")]
    pub output: Option<std::path::PathBuf>,
    /// The format of --output: text or u32le.
    #[arg(long, value_name = "FORMAT", default_value = "text", value_parser = parse_format)]
    pub format: nqueens_model::stream::Format,
    /// With --output, read the written file back and check it (O(n)); the printed verdict then covers
    /// the file itself.
    #[arg(long)]
    pub verify: bool,
    /// Toroidal queens: diagonals wrap around the board's edges (a solution exists exactly when n is
    /// coprime to 6). Constructed by the knight-walk.
    #[arg(long)]
    pub torus: bool,
    /// The search options.
    #[command(flatten)]
    pub search: SearchArgs,
}

/// `--method`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum MethodArg {
    /// The fastest correct method for the request.
    Auto,
    /// The backtracking search engine.
    Search,
    /// Sosič & Gu's QS1: random permutation, collision-reducing swaps.
    Qs1,
    /// Sosič & Gu's QS4: conflict-free start for n − c queens, then swaps.
    Qs4,
    /// Min-conflicts (csp-local) on the counters model.
    MinConflicts,
    /// Rolfe's Las Vegas Algorithm One.
    #[value(name = "las-vegas1")]
    LasVegas1,
    /// Rolfe's Las Vegas Algorithm Two.
    #[value(name = "las-vegas2")]
    LasVegas2,
    /// The O(n) Hoffman–Loessi–Moore / Bernhardsson construction.
    Explicit,
    /// Abramson & Yung's knight-walk, 2i mod n (n coprime to 6).
    KnightWalk,
    /// Abramson & Yung's decomposition n = a·b.
    Decomposition,
    /// Abramson & Yung's constructions for every n ≥ 4 (Theorem 2).
    AbramsonYung,
    /// The Yagloms' construction.
    Yaglom,
    /// Stone & Stone's odd trick: LEX on n + 1, then the corner queen removed (even n).
    OddTrick,
}

fn parse_format(text: &str) -> Result<nqueens_model::stream::Format, String> {
    text.parse()
        .map_err(|error: nqueens_model::stream::ParseFormatError| error.to_string())
}

impl SolveArgs {
    /// Whether the request can only be met by the search engine: a search option, a number of
    /// solutions, or an explicitly chosen encoding.
    pub fn asks_for_search(&self) -> bool {
        let search = &self.search;
        !search.is_preset()
            || self.all
            || self.solutions.is_some()
            || search.restart_base.is_some()
            || search.limits.limits_search()
            || search.encoding != EncodingArg::Counters
    }

    /// How many solutions to stop after: `--solutions K`, all with `--all`, else 1.
    pub fn solution_limit(&self) -> Option<u64> {
        if self.all {
            None
        } else {
            Some(self.solutions.unwrap_or(1))
        }
    }
}

/// `csp queens count`.
#[derive(Debug, Args)]
pub struct CountArgs {
    /// The board size n.
    #[arg(value_parser = parse_board_size, allow_negative_numbers = true)]
    pub n: usize,
    /// The fast counter's options.
    #[command(flatten)]
    pub fast: super::count::FastCountArgs,
    /// The search options: any of them (other than --json and --no-progress) runs the engine instead.
    #[command(flatten)]
    pub search: SearchArgs,
}

/// Options shared by every search command.
#[derive(Debug, Args)]
pub struct SearchArgs {
    /// Variable ordering: lex (row by row, Stone & Stone's LEX) or min (fewest choices first, MIN).
    /// [default: min]
    ///
    /// Give no ordering or propagation option at all to get the fast preset: min, random ties,
    /// middle values, forward checking.
    #[arg(long, value_enum)]
    pub order: Option<OrderArg>,
    /// How min breaks ties between rows with equally few choices. [default: low, as in the paper]
    ///
    /// On N-queens `degree` behaves as `low`: every row constrains every other, so all unplaced rows
    /// always have the same degree. Ties matter only with --order min.
    #[arg(long, value_enum)]
    pub ties: Option<TiesArg>,
    /// Value ordering: the order in which a row's columns are tried. [default: asc, as in the papers]
    #[arg(long, value_enum)]
    pub values: Option<ValuesArg>,
    /// Propagation: check-past (Dijkstra: test a column against placed queens only) or fc (forward
    /// checking: prune the attacked squares of every unplaced row after each placement). [default: fc]
    #[arg(long, value_enum)]
    pub propagation: Option<PropagationArg>,
    /// Restarts: luby (start again from the root on a Luby schedule while no solution is found; cuts
    /// the heavy tail of randomised orderings and keeps the search complete) or none. [default: none]
    #[arg(long, value_enum)]
    pub restarts: Option<RestartsArg>,
    /// The node budget of a Luby run of length 1, when restarts are on. [default: 4n + 100]
    #[arg(long, value_name = "NODES", value_parser = clap::value_parser!(u64).range(1..), allow_negative_numbers = true)]
    pub restart_base: Option<u64>,
    /// Model encoding: pairwise (generic ≠ constraints only) or counters (one global constraint with
    /// column and diagonal counters). Both give the same search tree.
    #[arg(long, value_enum, default_value_t = EncodingArg::Counters)]
    pub encoding: EncodingArg,
    /// Seed for every random choice (--ties random, --values random); same seed, same run.
    #[arg(long, default_value_t = 0, value_parser = parse_count, allow_negative_numbers = true)]
    pub seed: u64,
    /// When to give up.
    #[command(flatten)]
    pub limits: LimitArgs,
    /// Print one JSON object instead of text.
    #[arg(long)]
    pub json: bool,
    /// No progress bar (one is drawn on stderr for searches over 0.3 s when stderr is a terminal).
    #[arg(long)]
    pub no_progress: bool,
}

/// The search limits every search command takes.
#[derive(Debug, Args)]
pub struct LimitArgs {
    /// Give up a search after this many nodes (placements, for queens).
    #[arg(long, value_name = "NODES", value_parser = parse_count, allow_negative_numbers = true)]
    pub node_limit: Option<u64>,
    /// Give up a search after this many backtracks.
    #[arg(long, value_name = "BACKTRACKS", value_parser = parse_count, allow_negative_numbers = true)]
    pub backtrack_limit: Option<u64>,
    /// Give up a search after this many seconds (decimals allowed).
    #[arg(long, value_name = "SECONDS", value_parser = parse_seconds, allow_negative_numbers = true)]
    pub time_limit: Option<Duration>,
}

impl LimitArgs {
    /// The engine's limits.
    pub fn limits(&self) -> Limits {
        Limits {
            nodes: self.node_limit,
            backtracks: self.backtrack_limit,
            time: self.time_limit,
            solutions: None,
        }
    }

    /// Whether a node or backtrack limit is given: limits only the engine has.
    pub fn limits_search(&self) -> bool {
        self.node_limit.is_some() || self.backtrack_limit.is_some()
    }
}

/// `--order`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum OrderArg {
    /// Row by row.
    Lex,
    /// Fewest choices first.
    Min,
    /// Fewest choices per weighted degree (dom/wdeg): constraints gain weight when they fail.
    DomWdeg,
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

/// `--restarts`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum RestartsArg {
    /// Never restart.
    None,
    /// Restart on the Luby schedule.
    Luby,
}

/// `--propagation`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum PropagationArg {
    /// Test against placed queens only.
    CheckPast,
    /// Forward checking.
    Fc,
    /// Maintaining arc consistency.
    Mac,
}

impl From<OrderArg> for VariableOrderKind {
    fn from(order: OrderArg) -> Self {
        match order {
            OrderArg::Lex => VariableOrderKind::Lexicographic,
            OrderArg::Min => VariableOrderKind::FewestChoices,
            OrderArg::DomWdeg => VariableOrderKind::DomWdeg,
        }
    }
}

impl From<TiesArg> for TiePolicy {
    fn from(ties: TiesArg) -> Self {
        match ties {
            TiesArg::Low => TiePolicy::LowestIndex,
            TiesArg::Random => TiePolicy::Random,
            TiesArg::Degree => TiePolicy::MaxDegree,
        }
    }
}

impl From<ValuesArg> for ValueOrderKind {
    fn from(values: ValuesArg) -> Self {
        match values {
            ValuesArg::Asc => ValueOrderKind::Ascending,
            ValuesArg::Desc => ValueOrderKind::Descending,
            ValuesArg::Random => ValueOrderKind::Random,
            ValuesArg::Middle => ValueOrderKind::MiddleOut,
        }
    }
}

impl From<PropagationArg> for Propagation {
    fn from(propagation: PropagationArg) -> Self {
        match propagation {
            PropagationArg::CheckPast => Propagation::CheckPast,
            PropagationArg::Fc => Propagation::ForwardChecking,
            PropagationArg::Mac => Propagation::Mac,
        }
    }
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
    /// Whether none of --order, --ties, --values, --propagation and --restarts was given, so that the
    /// fast preset applies.
    pub fn is_preset(&self) -> bool {
        self.order.is_none()
            && self.ties.is_none()
            && self.values.is_none()
            && self.propagation.is_none()
            && self.restarts.is_none()
    }

    /// The engine configuration these options describe for an n-queens board, stopping after
    /// `solution_limit` solutions.
    ///
    /// With none of the strategy options it is [`SearchConfig::fast_preset`]; once any is given, the
    /// rest take the papers' meanings (MIN breaks ties low, values ascend, forward checking, no
    /// restarts), so `--order lex --propagation check-past` is exactly Stone & Stone's LEX.
    pub fn config(&self, n: usize, solution_limit: Option<u64>) -> SearchConfig {
        let preset = SearchConfig::fast_preset(n);
        let mut config = if self.is_preset() {
            preset
        } else {
            SearchConfig {
                variable_order: self.order.unwrap_or(OrderArg::Min).into(),
                ties: self.ties.unwrap_or(TiesArg::Low).into(),
                value_order: self.values.unwrap_or(ValuesArg::Asc).into(),
                propagation: self.propagation.unwrap_or(PropagationArg::Fc).into(),
                restarts: match self.restarts.unwrap_or(RestartsArg::None) {
                    RestartsArg::None => None,
                    RestartsArg::Luby => preset.restarts,
                },
                ..SearchConfig::default()
            }
        };
        if let (Some(base_nodes), Some(restarts)) = (self.restart_base, config.restarts.as_mut()) {
            restarts.base_nodes = base_nodes;
        }
        config.solution_limit = solution_limit;
        config.limits = self.limits.limits();
        config.seed = self.seed;
        config
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

/// A count (or seed): a whole number from 0 to 2⁶⁴ − 1.
pub(super) fn parse_count(text: &str) -> Result<u64, String> {
    text.trim()
        .parse()
        .map_err(|_| "expected a whole number from 0 to 18446744073709551615".to_owned())
}

/// A positive, finite number of seconds.
pub(super) fn parse_seconds(text: &str) -> Result<Duration, String> {
    let seconds: f64 = text
        .trim()
        .parse()
        .map_err(|_| "expected a number of seconds such as 2.5".to_owned())?;
    if !seconds.is_finite() || seconds <= 0.0 || seconds > 1e9 {
        return Err("the time limit must be a positive number of seconds".to_owned());
    }
    Ok(Duration::from_secs_f64(seconds))
}
