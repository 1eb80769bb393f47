//! The search options of `csp sudoku` and `csp color`, and what their reports share.
//!
//! The same choices as `csp queens` offers (SearchArgs), without the queens encoding, and with a
//! different rule for defaults: each problem starts from its own best configuration
//! (`csp_problems::sudoku::default_config`, `csp_problems::coloring::default_config`), and an option
//! given replaces just that choice.

use std::io::Read;

use clap::Args;
use csp_search::{
    Limit, Outcome, Propagation, Restarts, SearchConfig, Statistics, TiePolicy, ValueOrderKind,
    VariableOrderKind,
};
use serde::Serialize;

use super::CliError;
use super::args::{
    LimitArgs, OrderArg, PropagationArg, RestartsArg, TiesArg, ValuesArg, parse_count,
};

/// The restart base when `--restarts luby` is asked of a problem whose default has none.
const DEFAULT_RESTART_BASE: u64 = 100;

/// Search options shared by `csp sudoku` and `csp color`.
#[derive(Debug, Args)]
pub struct ProblemSearchArgs {
    /// Variable ordering: lex (model order), min (fewest choices first) or dom-wdeg (fewest choices
    /// per weighted degree; constraints gain weight each time they fail). [default: the problem's]
    #[arg(long, value_enum)]
    pub order: Option<OrderArg>,
    /// How min and dom-wdeg break ties. [default: low]
    #[arg(long, value_enum)]
    pub ties: Option<TiesArg>,
    /// Value ordering. [default: asc]
    #[arg(long, value_enum)]
    pub values: Option<ValuesArg>,
    /// Propagation: check-past, fc (forward checking) or mac (maintain arc consistency).
    /// [default: mac]
    #[arg(long, value_enum)]
    pub propagation: Option<PropagationArg>,
    /// Restarts: luby (start again from the root on a Luby schedule while nothing is found; the
    /// search stays complete) or none. [default: the problem's]
    #[arg(long, value_enum)]
    pub restarts: Option<RestartsArg>,
    /// The node budget of a Luby run of length 1, when restarts are on. [default: 100]
    #[arg(long, value_name = "NODES", value_parser = clap::value_parser!(u64).range(1..), allow_negative_numbers = true)]
    pub restart_base: Option<u64>,
    /// Seed for every random choice (--ties random, --values random); same seed, same run.
    #[arg(long, default_value_t = 0, value_parser = parse_count, allow_negative_numbers = true)]
    pub seed: u64,
    /// When to give up.
    #[command(flatten)]
    pub limits: LimitArgs,
    /// Print JSON instead of text.
    #[arg(long)]
    pub json: bool,
    /// No progress bar (one is drawn on stderr for searches over 0.3 s when stderr is a terminal).
    #[arg(long)]
    pub no_progress: bool,
}

impl ProblemSearchArgs {
    /// The problem's default configuration with every option given put in, and the limits.
    pub fn config(&self, default: SearchConfig) -> SearchConfig {
        let mut config = default;
        if let Some(order) = self.order {
            config.variable_order = order.into();
        }
        if let Some(ties) = self.ties {
            config.ties = ties.into();
        }
        if let Some(values) = self.values {
            config.value_order = values.into();
        }
        if let Some(propagation) = self.propagation {
            config.propagation = propagation.into();
        }
        match self.restarts {
            Some(RestartsArg::None) => config.restarts = None,
            Some(RestartsArg::Luby) if config.restarts.is_none() => {
                config.restarts = Some(Restarts {
                    base_nodes: DEFAULT_RESTART_BASE,
                });
            }
            _ => {}
        }
        if let (Some(base_nodes), Some(restarts)) = (self.restart_base, config.restarts.as_mut()) {
            restarts.base_nodes = base_nodes;
        }
        config.limits = self.limits.limits();
        config.seed = self.seed;
        config
    }
}

/// One line naming a configuration, e.g. "dom/wdeg (ties low), values asc, MAC, Luby restarts (base
/// 100), seed 0".
pub fn describe(config: &SearchConfig) -> String {
    let names = ConfigReport::of(config);
    let order = match config.variable_order {
        VariableOrderKind::Lexicographic => "LEX".to_owned(),
        VariableOrderKind::FewestChoices => format!("MIN (ties {})", names.ties),
        VariableOrderKind::DomWdeg => format!("dom/wdeg (ties {})", names.ties),
    };
    let propagation = match config.propagation {
        Propagation::CheckPast => "check-past",
        Propagation::ForwardChecking => "forward checking",
        Propagation::Mac => "MAC",
    };
    let restarts = match config.restarts {
        Some(restarts) => format!(", Luby restarts (base {})", restarts.base_nodes),
        None => String::new(),
    };
    format!(
        "{order}, values {}, {propagation}{restarts}, seed {}",
        names.values, config.seed
    )
}

/// The configuration in a JSON report, by the command-line names of its choices.
#[derive(Debug, Serialize)]
pub struct ConfigReport {
    order: &'static str,
    ties: &'static str,
    values: &'static str,
    propagation: &'static str,
    restarts: &'static str,
    restart_base: Option<u64>,
    seed: u64,
}

impl ConfigReport {
    /// The names of `config`'s choices.
    pub fn of(config: &SearchConfig) -> Self {
        ConfigReport {
            order: match config.variable_order {
                VariableOrderKind::Lexicographic => "lex",
                VariableOrderKind::FewestChoices => "min",
                VariableOrderKind::DomWdeg => "dom-wdeg",
            },
            ties: match config.ties {
                TiePolicy::LowestIndex => "low",
                TiePolicy::Random => "random",
                TiePolicy::MaxDegree => "degree",
            },
            values: match config.value_order {
                ValueOrderKind::Ascending => "asc",
                ValueOrderKind::Descending => "desc",
                ValueOrderKind::Random => "random",
                ValueOrderKind::MiddleOut => "middle",
            },
            propagation: match config.propagation {
                Propagation::CheckPast => "check-past",
                Propagation::ForwardChecking => "fc",
                Propagation::Mac => "mac",
            },
            restarts: if config.restarts.is_some() {
                "luby"
            } else {
                "none"
            },
            restart_base: config.restarts.map(|r| r.base_nodes),
            seed: config.seed,
        }
    }
}

/// A search's statistics in a JSON report.
#[derive(Debug, Clone, Default, Serialize)]
pub struct StatsReport {
    /// Assignments made.
    pub nodes: u64,
    /// Assignments undone.
    pub backtracks: u64,
    /// Nodes that could not be extended.
    pub dead_ends: u64,
    /// Restarts from the root.
    pub restarts: u64,
    /// The most variables assigned at once.
    pub max_depth: u32,
}

impl StatsReport {
    /// The report of `stats`.
    pub fn of(stats: &Statistics) -> Self {
        StatsReport {
            nodes: stats.nodes,
            backtracks: stats.backtracks,
            dead_ends: stats.dead_ends,
            restarts: stats.restarts,
            max_depth: stats.max_depth,
        }
    }

    /// Adds another search's counts (the depth is the larger one).
    pub fn add(&mut self, other: &StatsReport) {
        self.nodes += other.nodes;
        self.backtracks += other.backtracks;
        self.dead_ends += other.dead_ends;
        self.restarts += other.restarts;
        self.max_depth = self.max_depth.max(other.max_depth);
    }

    /// The counts as text: "nodes 62, backtracks 0, dead ends 0, restarts 0".
    pub fn text(&self) -> String {
        format!(
            "nodes {}, backtracks {}, dead ends {}, restarts {}",
            self.nodes, self.backtracks, self.dead_ends, self.restarts
        )
    }
}

/// An outcome's name in JSON ("solved", "exhausted", "limit", "stopped") and the limit's name.
pub fn outcome_names(outcome: Outcome) -> (&'static str, Option<&'static str>) {
    match outcome {
        Outcome::Solved => ("solved", None),
        Outcome::Exhausted => ("exhausted", None),
        Outcome::LimitReached(limit) => ("limit", Some(limit_name(limit))),
        _ => ("stopped", None),
    }
}

/// A limit's name: "nodes", "backtracks" or "time".
pub fn limit_name(limit: Limit) -> &'static str {
    match limit {
        Limit::Nodes => "nodes",
        Limit::Backtracks => "backtracks",
        Limit::Time => "time",
        Limit::Solutions => "solutions",
    }
}

/// The text of `path`, or of standard input for `-`. Unreadable files and text that is not UTF-8
/// are bad input; the latter names its line.
pub fn read_input(path: &str) -> Result<String, CliError> {
    let mut bytes = Vec::new();
    let read = if path == "-" {
        std::io::stdin().lock().read_to_end(&mut bytes)
    } else {
        std::fs::File::open(path).and_then(|mut file| file.read_to_end(&mut bytes))
    };
    let name = if path == "-" { "standard input" } else { path };
    read.map_err(|error| CliError::Usage(format!("cannot read {name}: {error}")))?;
    String::from_utf8(bytes).map_err(|error| {
        let valid = &error.as_bytes()[..error.utf8_error().valid_up_to()];
        let line = valid.iter().filter(|&&b| b == b'\n').count() + 1;
        CliError::Usage(format!("{name}: line {line}: not valid UTF-8 text"))
    })
}
