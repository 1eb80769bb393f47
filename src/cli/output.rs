//! Text and JSON reports.

use std::io::Write;

use csp_search::{
    Limit, Outcome, Propagation, SearchConfig, TiePolicy, ValueOrderKind, VariableOrderKind,
};
use serde::Serialize;

use super::args::SearchArgs;
use super::queens::Run;

/// One line naming the search configuration that ran, e.g. "MIN (ties random), values middle, forward
/// checking, Luby restarts, counters encoding, seed 0".
pub fn describe_config(options: &SearchArgs, config: &SearchConfig) -> String {
    let names = Names::of(config);
    let order = match config.variable_order {
        VariableOrderKind::Lexicographic => "LEX".to_owned(),
        VariableOrderKind::DomWdeg => format!("dom/wdeg (ties {})", names.ties),
        _ => format!("MIN (ties {})", names.ties),
    };
    let propagation = match config.propagation {
        Propagation::CheckPast => "check-past",
        Propagation::Mac => "MAC",
        _ => "forward checking",
    };
    let restarts = match config.restarts {
        Some(restarts) => format!(", Luby restarts (base {})", restarts.base_nodes),
        None => String::new(),
    };
    let preset = if options.is_preset() {
        " [fast preset; any of --order/--ties/--values/--propagation/--restarts chooses your own]"
    } else {
        ""
    };
    format!(
        "{order}, values {}, {propagation}{restarts}, {} encoding, seed {}{preset}",
        names.values,
        options.encoding(),
        config.seed
    )
}

/// The command-line names of a configuration's choices, shared by the text and JSON reports.
struct Names {
    order: &'static str,
    ties: &'static str,
    values: &'static str,
    propagation: &'static str,
}

impl Names {
    fn of(config: &SearchConfig) -> Self {
        Names {
            order: match config.variable_order {
                VariableOrderKind::Lexicographic => "lex",
                VariableOrderKind::DomWdeg => "dom-wdeg",
                _ => "min",
            },
            ties: match config.ties {
                TiePolicy::Random => "random",
                TiePolicy::MaxDegree => "degree",
                _ => "low",
            },
            values: match config.value_order {
                ValueOrderKind::Descending => "desc",
                ValueOrderKind::Random => "random",
                ValueOrderKind::MiddleOut => "middle",
                _ => "asc",
            },
            propagation: match config.propagation {
                Propagation::CheckPast => "check-past",
                Propagation::Mac => "mac",
                _ => "fc",
            },
        }
    }
}

/// Statistics, elapsed time and throughput, as text.
pub fn write_stats(out: &mut impl Write, run: &Run) -> std::io::Result<()> {
    let stats = &run.result.stats;
    let seconds = run.result.elapsed.as_secs_f64();
    writeln!(
        out,
        "nodes {}, backtracks {}, dead ends {}, restarts {}, max depth {}",
        stats.nodes, stats.backtracks, stats.dead_ends, stats.restarts, stats.max_depth
    )?;
    let rate = if seconds > 0.0 {
        format!(", {:.3e} nodes/s", stats.nodes as f64 / seconds)
    } else {
        String::new()
    };
    writeln!(
        out,
        "elapsed {:.3} ms (search {:.3} ms{rate}; model built in {:.3} ms)",
        (seconds + run.build_seconds) * 1e3,
        seconds * 1e3,
        run.build_seconds * 1e3
    )
}

/// The `--json` object.
#[derive(Debug, Serialize)]
pub struct Report<'a> {
    command: &'a str,
    n: usize,
    outcome: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    limit: Option<&'a str>,
    solutions: Vec<Vec<u32>>,
    solution_count: u64,
    stats: StatsReport,
    elapsed_ms: f64,
    search_ms: f64,
    config: ConfigReport,
}

#[derive(Debug, Serialize)]
struct StatsReport {
    nodes: u64,
    backtracks: u64,
    dead_ends: u64,
    restarts: u64,
    max_depth: u32,
    nodes_per_second: Option<f64>,
    per_level: Vec<LevelReport>,
}

#[derive(Debug, Serialize)]
struct LevelReport {
    level: usize,
    nodes: u64,
    backtracks: u64,
    avg_choices: f64,
}

#[derive(Debug, Serialize)]
struct ConfigReport {
    order: &'static str,
    ties: &'static str,
    values: &'static str,
    propagation: &'static str,
    encoding: String,
    restarts: &'static str,
    restart_base: Option<u64>,
    seed: u64,
    preset: bool,
}

impl<'a> Report<'a> {
    /// The report of `run`, a `command` on an n-queens board.
    pub fn new(
        command: &'a str,
        n: usize,
        options: &SearchArgs,
        run: &Run,
        solutions: Vec<Vec<u32>>,
    ) -> Self {
        let stats = &run.result.stats;
        let names = Names::of(&run.config);
        let seconds = run.result.elapsed.as_secs_f64();
        let (outcome, limit) = match run.result.outcome {
            Outcome::Solved => ("solved", None),
            Outcome::Exhausted => ("exhausted", None),
            Outcome::LimitReached(limit) => (
                "limit",
                Some(match limit {
                    Limit::Nodes => "nodes",
                    Limit::Backtracks => "backtracks",
                    Limit::Time => "time",
                    Limit::Solutions => "solutions",
                }),
            ),
            _ => ("stopped", None),
        };
        Report {
            command,
            n,
            outcome,
            limit,
            solutions,
            solution_count: stats.solutions,
            stats: StatsReport {
                nodes: stats.nodes,
                backtracks: stats.backtracks,
                dead_ends: stats.dead_ends,
                restarts: stats.restarts,
                max_depth: stats.max_depth,
                nodes_per_second: (seconds > 0.0).then(|| stats.nodes as f64 / seconds),
                per_level: stats
                    .per_level
                    .iter()
                    .enumerate()
                    .map(|(i, level)| LevelReport {
                        level: i + 1,
                        nodes: level.nodes,
                        backtracks: level.backtracks,
                        avg_choices: level.avg_choices(),
                    })
                    .collect(),
            },
            elapsed_ms: (seconds + run.build_seconds) * 1e3,
            search_ms: seconds * 1e3,
            config: ConfigReport {
                order: names.order,
                ties: names.ties,
                values: names.values,
                propagation: names.propagation,
                encoding: options.encoding().to_string(),
                restarts: if run.config.restarts.is_some() {
                    "luby"
                } else {
                    "none"
                },
                restart_base: run.config.restarts.map(|r| r.base_nodes),
                seed: run.config.seed,
                preset: options.is_preset(),
            },
        }
    }

    /// Writes the report as one line of JSON.
    pub fn write(&self, out: &mut impl Write) -> std::io::Result<()> {
        serde_json::to_writer(&mut *out, self)?;
        writeln!(out)
    }
}
