//! Text and JSON reports.

use std::io::Write;

use csp_search::{Limit, Outcome};
use serde::Serialize;

use super::args::{
    EncodingArg, OrderArg, PropagationArg, RestartsArg, SearchArgs, TiesArg, ValuesArg,
};
use super::queens::Run;

/// One line naming the search configuration, e.g. "MIN (ties low), values asc, forward checking,
/// counters encoding, seed 0".
pub fn describe_config(options: &SearchArgs) -> String {
    let strategy = options.strategy();
    let order = match strategy.order {
        OrderArg::Lex => "LEX".to_owned(),
        OrderArg::Min => format!("MIN (ties {})", ties_name(strategy.ties)),
    };
    let preset = if strategy.preset {
        " [fast preset; any of --order/--ties/--values/--propagation chooses your own]"
    } else {
        ""
    };
    let restarts = match strategy.restarts {
        RestartsArg::None => "",
        RestartsArg::Luby => ", Luby restarts",
    };
    format!(
        "{order}, values {}, {}{restarts}, {} encoding, seed {}{preset}",
        values_name(strategy.values),
        match strategy.propagation {
            PropagationArg::CheckPast => "check-past",
            PropagationArg::Fc => "forward checking",
        },
        encoding_name(options.encoding),
        options.seed
    )
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
    config: ConfigReport<'a>,
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
struct ConfigReport<'a> {
    order: &'a str,
    ties: &'a str,
    values: &'a str,
    propagation: &'a str,
    encoding: &'a str,
    restarts: &'a str,
    seed: u64,
    preset: bool,
}

impl<'a> Report<'a> {
    /// The report of `run`, a `command` on an n-queens board.
    pub fn new(
        command: &'a str,
        n: usize,
        options: &'a SearchArgs,
        run: &Run,
        solutions: Vec<Vec<u32>>,
    ) -> Self {
        let stats = &run.result.stats;
        let strategy = options.strategy();
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
                order: match strategy.order {
                    OrderArg::Lex => "lex",
                    OrderArg::Min => "min",
                },
                ties: ties_name(strategy.ties),
                values: values_name(strategy.values),
                propagation: match strategy.propagation {
                    PropagationArg::CheckPast => "check-past",
                    PropagationArg::Fc => "fc",
                },
                encoding: encoding_name(options.encoding),
                restarts: match strategy.restarts {
                    RestartsArg::None => "none",
                    RestartsArg::Luby => "luby",
                },
                seed: options.seed,
                preset: strategy.preset,
            },
        }
    }

    /// Writes the report as one line of JSON.
    pub fn write(&self, out: &mut impl Write) -> std::io::Result<()> {
        serde_json::to_writer(&mut *out, self)?;
        writeln!(out)
    }
}

fn ties_name(ties: TiesArg) -> &'static str {
    match ties {
        TiesArg::Low => "low",
        TiesArg::Random => "random",
        TiesArg::Degree => "degree",
    }
}

fn values_name(values: ValuesArg) -> &'static str {
    match values {
        ValuesArg::Asc => "asc",
        ValuesArg::Desc => "desc",
        ValuesArg::Random => "random",
        ValuesArg::Middle => "middle",
    }
}

fn encoding_name(encoding: EncodingArg) -> &'static str {
    match encoding {
        EncodingArg::Pairwise => "pairwise",
        EncodingArg::Counters => "counters",
    }
}
