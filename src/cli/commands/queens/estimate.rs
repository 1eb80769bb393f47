//! `csp queens estimate`: the full tree's size and solution count, estimated online from a terse
//! search (Stone & Stone) or from random probes (Knuth).

use std::io::Write;
use std::time::Instant;

use clap::Args;
use csp_search::{TreeSizeEstimator, knuth_probes, solve};
use nqueens_model::model;
use serde::Serialize;

use super::engine::QueensSearch;
use crate::cli::error::{CliError, Exit};
use crate::cli::options::parse_board_size;
use crate::cli::report::write_json;

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
    pub search: QueensSearch,
}

/// The estimate and how it was made; also the `--json` object.
#[derive(Debug, Default, Serialize)]
struct EstimateReport {
    n: usize,
    method: &'static str,
    estimated_tree_size: f64,
    estimated_solutions: f64,
    /// Nodes the online method's search visited, root included (probes do not report it).
    #[serde(skip_serializing_if = "Option::is_none")]
    nodes_visited: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    solutions_found: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    probes: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    std_error: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    solutions_std_error: Option<f64>,
    elapsed_ms: f64,
}

/// Estimates, then reports the estimate as text or JSON.
pub fn run(args: EstimateArgs, out: &mut impl Write) -> Result<Exit, CliError> {
    let started = Instant::now();
    let model = model(args.n, args.search.encoding).map_err(CliError::usage)?;
    let config = args.search.config(args.n, Some(args.solutions));
    let mut report = match args.probes {
        Some(probes) => {
            let estimate = knuth_probes(&model, &config, probes);
            EstimateReport {
                method: "probes",
                estimated_tree_size: estimate.tree_size,
                estimated_solutions: estimate.solutions,
                probes: Some(probes),
                std_error: Some(estimate.tree_size_std_error),
                solutions_std_error: Some(estimate.solutions_std_error),
                ..EstimateReport::default()
            }
        }
        None => {
            let mut estimator = TreeSizeEstimator::new();
            let result = solve(&model, &config, &mut estimator);
            EstimateReport {
                method: "online",
                estimated_tree_size: estimator.estimated_tree_size(),
                estimated_solutions: estimator.estimated_solutions(),
                nodes_visited: Some(result.stats.tree_nodes()),
                solutions_found: Some(result.stats.solutions),
                ..EstimateReport::default()
            }
        }
    };
    report.n = args.n;
    report.elapsed_ms = started.elapsed().as_secs_f64() * 1e3;
    if args.search.options.json {
        write_json(out, &report)?;
        return Ok(Exit::Answered);
    }
    writeln!(
        out,
        "{}-queens: estimated tree size {:.4e} nodes, estimated solutions {:.4e}",
        args.n, report.estimated_tree_size, report.estimated_solutions
    )?;
    match (report.probes, report.nodes_visited) {
        (Some(probes), _) => writeln!(
            out,
            "from {probes} Knuth probes: standard errors {:.3e} (size), {:.3e} (solutions)",
            report.std_error.unwrap_or(0.0),
            report.solutions_std_error.unwrap_or(0.0)
        )?,
        (None, Some(nodes)) => writeln!(
            out,
            "online (Stone & Stone) after {} solution(s) and {nodes} nodes visited",
            report.solutions_found.unwrap_or(0)
        )?,
        (None, None) => {}
    }
    writeln!(out, "{}-queens: {}", args.n, args.search.describe(&config))?;
    writeln!(out, "elapsed {:.3} ms", report.elapsed_ms)?;
    Ok(Exit::Answered)
}
