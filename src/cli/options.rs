//! The flag groups that several commands share, and the parsers of their values.
//!
//! The enum-valued options are the libraries' own enums (`csp_search::VariableOrderKind` and the rest,
//! built with their `clap` feature), so their names are written once, where the enums are.

use std::time::Duration;

use clap::{Args, ValueEnum};

use csp::app::Budget;
use csp_search::{
    Limits, Propagation, SearchChoices, SearchConfig, SearchDefaults, TiePolicy, ValueOrderKind,
    VariableOrderKind,
};

/// The search options of every command that runs the engine (`csp queens solve|count|trace|estimate`,
/// `csp sudoku`, `csp color`). Each problem starts from its own [`SearchDefaults`], and an option given
/// replaces just that choice.
#[derive(Debug, Args)]
pub struct SearchOptions {
    /// Variable ordering: lex (model order: row by row on queens, Stone & Stone's LEX), min (fewest
    /// choices first, their MIN) or dom-wdeg (fewest choices per weighted degree). [default: the
    /// problem's]
    ///
    /// Each problem starts from its own search and an option replaces just that choice: sudoku MIN with
    /// MAC, color dom/wdeg with MAC. Queens uses the fast preset (MIN, random ties, middle values,
    /// forward checking, Luby restarts) while none of --order, --ties, --values, --propagation and
    /// --restarts is given; once one is, the rest take the papers' meanings (MIN, low ties, ascending
    /// values, forward checking, no restarts), so `--order lex --propagation check-past` is exactly
    /// Stone & Stone's LEX.
    #[arg(long, value_enum)]
    pub order: Option<VariableOrderKind>,
    /// How min and dom-wdeg break ties between variables with equally few choices. [default: low]
    ///
    /// On N-queens `degree` behaves as `low`: every row constrains every other, so all unplaced rows
    /// always have the same degree.
    #[arg(long, value_enum)]
    pub ties: Option<TiePolicy>,
    /// Value ordering: the order in which a variable's values are tried. [default: asc]
    #[arg(long, value_enum)]
    pub values: Option<ValueOrderKind>,
    /// Propagation: check-past (Dijkstra's test against assigned variables only), fc (forward
    /// checking) or mac (maintaining arc consistency). [default: fc for queens, mac otherwise]
    #[arg(long, value_enum)]
    pub propagation: Option<Propagation>,
    /// Restarts: luby (start again from the root on a Luby schedule while nothing is found; cuts the
    /// heavy tail of randomised orderings and keeps the search complete) or none. [default: none]
    #[arg(long, value_enum)]
    pub restarts: Option<RestartsOption>,
    /// The node budget of a Luby run of length 1, when restarts are on. [default: 4n + 100 for
    /// queens, 100 otherwise]
    #[arg(long, value_name = "NODES", value_parser = clap::value_parser!(u64).range(1..), allow_negative_numbers = true)]
    pub restart_base: Option<u64>,
    /// Seed for every random choice (--ties random, --values random); same seed, same run.
    #[arg(long, default_value_t = 0, value_parser = parse_count, allow_negative_numbers = true)]
    pub seed: u64,
    /// When to give up.
    #[command(flatten)]
    pub limits: LimitOptions,
    /// Print JSON instead of text.
    #[arg(long)]
    pub json: bool,
    /// No progress bar (one is drawn on stderr for searches over 0.3 s when stderr is a terminal).
    #[arg(long)]
    pub no_progress: bool,
}

/// `--restarts`: the command line's switch for [`SearchConfig::restarts`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum RestartsOption {
    /// Never restart.
    None,
    /// Restart on the Luby schedule.
    Luby,
}

impl SearchOptions {
    /// The strategy choices the options make.
    pub fn choices(&self) -> SearchChoices {
        SearchChoices {
            order: self.order,
            ties: self.ties,
            values: self.values,
            propagation: self.propagation,
            restarts: self.restarts.map(|r| r == RestartsOption::Luby),
            restart_base: self.restart_base,
            seed: self.seed,
        }
    }

    /// Whether none of --order, --ties, --values, --propagation and --restarts was given, so that the
    /// problem's preset applies.
    pub fn is_preset(&self) -> bool {
        self.choices().is_preset()
    }

    /// The engine configuration: `defaults`' preset or chosen configuration with every option given
    /// put in ([`SearchChoices::config`]), and the limits.
    pub fn config(&self, defaults: SearchDefaults) -> SearchConfig {
        let mut config = self.choices().config(defaults);
        config.limits = self.limits.limits();
        config
    }
}

/// The search limits every search command takes.
#[derive(Debug, Args)]
pub struct LimitOptions {
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

impl LimitOptions {
    /// The limits, counted from now: what every method of the command is given (see [`Budget`]).
    pub fn budget(&self) -> Budget {
        Budget::start(self.limits())
    }

    /// The engine's limits, as given (a [`Budget`] counts the time from the command's start).
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

/// A board size: a whole number of at least 1. (The upper limit depends on what is done with the
/// board and is checked before anything large is allocated.)
pub fn parse_board_size(text: &str) -> Result<usize, String> {
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
pub fn parse_count(text: &str) -> Result<u64, String> {
    text.trim()
        .parse()
        .map_err(|_| "expected a whole number from 0 to 18446744073709551615".to_owned())
}

/// A positive, finite number of seconds, at most [`MAX_SECONDS`].
pub fn parse_seconds(text: &str) -> Result<Duration, String> {
    parse_duration(text, false, "the time limit")
}

/// A finite number of seconds, 0 or more, at most [`MAX_SECONDS`].
pub fn parse_interval(text: &str) -> Result<Duration, String> {
    parse_duration(text, true, "the checkpoint interval")
}

/// The longest duration a time option takes: 10⁹ seconds, about 31 years. Longer ones cannot be
/// meant, and refusing them keeps every deadline representable on any platform's clock.
pub const MAX_SECONDS: f64 = 1e9;

/// More than 0 seconds (or 0 too, with `zero_allowed`) and at most [`MAX_SECONDS`]; the message
/// names `what` and the bound that was broken.
fn parse_duration(text: &str, zero_allowed: bool, what: &str) -> Result<Duration, String> {
    let seconds: f64 = text
        .trim()
        .parse()
        .map_err(|_| format!("{what} must be a number of seconds such as 2.5"))?;
    if seconds.is_nan() {
        return Err(format!("{what} must be a number of seconds such as 2.5"));
    }
    if seconds > MAX_SECONDS {
        return Err(format!(
            "{what} must be at most 1e9 seconds (about 31 years)"
        ));
    }
    if zero_allowed && seconds < 0.0 {
        return Err(format!("{what} must be 0 or more seconds"));
    }
    if !zero_allowed && seconds <= 0.0 {
        return Err(format!("{what} must be more than 0 seconds"));
    }
    Ok(Duration::from_secs_f64(seconds))
}
