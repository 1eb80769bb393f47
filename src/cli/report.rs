//! What the reports of every command share: the configuration and statistics of a search, in words
//! and as JSON.

use std::io::{self, Write};

use clap::ValueEnum;
use csp_search::{Propagation, SearchConfig, Statistics, VariableOrderKind};
use serde::Serialize;

/// One line naming what a configuration searches with, without its seed, e.g. "dom/wdeg (ties low),
/// values asc, MAC, Luby restarts (base 100)".
pub fn describe(config: &SearchConfig) -> String {
    let ties = name(config.ties);
    let order = match config.variable_order {
        VariableOrderKind::Lexicographic => "LEX".to_owned(),
        VariableOrderKind::FewestChoices => format!("MIN (ties {ties})"),
        VariableOrderKind::DomWdeg => format!("dom/wdeg (ties {ties})"),
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
        "{order}, values {}, {propagation}{restarts}",
        name(config.value_order)
    )
}

/// An option's value as the command line spells it.
pub fn name(value: impl ValueEnum) -> String {
    value
        .to_possible_value()
        .map_or_else(String::new, |value| value.get_name().to_owned())
}

/// The configuration in a JSON report, by the command-line names of its choices.
#[derive(Debug, Serialize)]
pub struct ConfigReport {
    /// `--order`.
    pub order: String,
    /// `--ties`.
    pub ties: String,
    /// `--values`.
    pub values: String,
    /// `--propagation`.
    pub propagation: String,
    /// The N-queens encoding; absent for other problems.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub encoding: Option<String>,
    /// `--restarts`.
    pub restarts: &'static str,
    /// The base of the Luby restarts, if they are on.
    pub restart_base: Option<u64>,
    /// `--seed`.
    pub seed: u64,
    /// Whether the fast preset ran (N-queens only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub preset: Option<bool>,
    /// `--threads`: searches racing with consecutive seeds from `seed` (N-queens, when over one).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub threads: Option<usize>,
}

impl ConfigReport {
    /// The names of `config`'s choices.
    pub fn of(config: &SearchConfig) -> Self {
        ConfigReport {
            order: name(config.variable_order),
            ties: name(config.ties),
            values: name(config.value_order),
            propagation: name(config.propagation),
            encoding: None,
            restarts: if config.restarts.is_some() {
                "luby"
            } else {
                "none"
            },
            restart_base: config.restarts.map(|r| r.base_nodes),
            seed: config.seed,
            preset: None,
            threads: None,
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

/// Writes `report` as one line of JSON.
pub fn write_json(out: &mut impl Write, report: &impl Serialize) -> io::Result<()> {
    serde_json::to_writer(&mut *out, report)?;
    writeln!(out)
}
