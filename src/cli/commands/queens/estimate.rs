//! `csp queens estimate`: the full tree's size and solution count, estimated online from a terse
//! search (Stone & Stone) or from random probes (Knuth).

use std::io::Write;
use std::time::Instant;

use clap::Args;
use csp_search::{Limit, TreeSizeEstimator, knuth_probes, solve};
use nqueens_model::model;
use serde::Serialize;

use super::engine::QueensSearch;
use crate::cli::options::parse_board_size;
use crate::cli::report::write_json;
use csp::app::{CliError, Exit};

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

/// The estimate and how it was made; also the `--json` object. An estimate too large for a double
/// (every probe of a huge board multiplies thousands of branching factors) is `null`, with
/// `estimate_overflows` set, never `inf`.
#[derive(Debug, Default, Serialize)]
struct EstimateReport {
    n: usize,
    method: &'static str,
    /// `estimated` or `limit` (with `limit`, which one: the estimate then covers the search or the
    /// probes made before it).
    outcome: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    limit: Option<&'static str>,
    estimated_tree_size: Option<f64>,
    estimated_solutions: Option<f64>,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    estimate_overflows: bool,
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

impl EstimateReport {
    /// Sets the two estimates, `None` where one is not a finite number.
    fn set_estimates(&mut self, tree_size: f64, solutions: f64) {
        let finite = |x: f64| x.is_finite().then_some(x);
        self.estimated_tree_size = finite(tree_size);
        self.estimated_solutions = finite(solutions);
        self.estimate_overflows = !tree_size.is_finite() || !solutions.is_finite();
    }

    /// Sets the standard errors, `None` where one is not a finite number or the estimate overflows
    /// (the spread of infinite values means nothing).
    fn set_std_errors(&mut self, tree_size: f64, solutions: f64) {
        let meaningful = |x: f64| (x.is_finite() && !self.estimate_overflows).then_some(x);
        self.std_error = meaningful(tree_size);
        self.solutions_std_error = meaningful(solutions);
    }
}

/// Estimates, then reports the estimate as text or JSON. The limits apply to both methods: the online
/// search stops at them (its estimate then covers what it searched, exit 3), and probes, which count
/// no nodes, take the time limit only (the node and backtrack limits are refused with them).
pub fn run(args: EstimateArgs, out: &mut impl Write) -> Result<Exit, CliError> {
    let started = Instant::now();
    let limits = &args.search.options.limits;
    if args.probes.is_some() && limits.limits_search() {
        return Err(CliError::Usage(
            "--probes counts no nodes or backtracks: bound it with --time-limit, or fewer --probes"
                .to_owned(),
        ));
    }
    let budget = limits.budget();
    let model = model(args.n, args.search.encoding).map_err(CliError::usage)?;
    let mut config = args.search.config(args.n, Some(args.solutions));
    config.limits = budget.search_limits();
    let mut report = match args.probes {
        Some(probes) => {
            let config = config.clone();
            // A probe of a huge board cannot be stopped part-way: the probes run where the time
            // limit can abandon them.
            let estimate = budget.run(move || knuth_probes(&model, &config, probes));
            let mut report = EstimateReport {
                method: "probes",
                probes: Some(probes),
                ..EstimateReport::default()
            };
            match estimate {
                Some(estimate) => {
                    report.outcome = "estimated";
                    report.set_estimates(estimate.tree_size, estimate.solutions);
                    report
                        .set_std_errors(estimate.tree_size_std_error, estimate.solutions_std_error);
                }
                None => {
                    report.outcome = "limit";
                    report.limit = Some(Limit::Time.name());
                }
            }
            report
        }
        None => {
            let mut estimator = TreeSizeEstimator::new();
            let result = solve(&model, &config, &mut estimator);
            let mut report = EstimateReport {
                method: "online",
                outcome: "estimated",
                nodes_visited: Some(result.stats.tree_nodes()),
                solutions_found: Some(result.stats.solutions),
                ..EstimateReport::default()
            };
            report.set_estimates(
                estimator.estimated_tree_size(),
                estimator.estimated_solutions(),
            );
            if let Some(limit) = result.outcome.limit() {
                report.outcome = "limit";
                report.limit = Some(limit.name());
            }
            report
        }
    };
    report.n = args.n;
    report.elapsed_ms = started.elapsed().as_secs_f64() * 1e3;
    let exit = if report.limit.is_some() {
        Exit::LimitReached
    } else {
        Exit::Answered
    };
    if args.search.options.json {
        write_json(out, &report)?;
        return Ok(exit);
    }
    let number = |x: Option<f64>| {
        x.map_or(
            "beyond the range of a double (over 1.8e308)".to_owned(),
            |x| format!("{x:.4e}"),
        )
    };
    match (report.outcome, report.limit) {
        ("limit", Some(limit)) if report.probes.is_some() => writeln!(
            out,
            "{}-queens: the {} limit came before the {} probes were made; no estimate",
            args.n,
            limit.trim_end_matches('s'),
            report.probes.unwrap_or(0)
        )?,
        _ => writeln!(
            out,
            "{}-queens: estimated tree size {} nodes, estimated solutions {}",
            args.n,
            number(report.estimated_tree_size),
            number(report.estimated_solutions)
        )?,
    }
    match (report.probes, report.nodes_visited) {
        (Some(probes), _) if report.limit.is_none() => writeln!(
            out,
            "from {probes} Knuth probes: standard errors {} (size), {} (solutions)",
            number(report.std_error),
            number(report.solutions_std_error)
        )?,
        (None, Some(nodes)) => writeln!(
            out,
            "online (Stone & Stone) after {} solution(s) and {nodes} nodes visited{}",
            report.solutions_found.unwrap_or(0),
            report.limit.map_or(String::new(), |limit| format!(
                ", when the {} limit stopped the search",
                limit.trim_end_matches('s')
            ))
        )?,
        _ => {}
    }
    writeln!(out, "{}-queens: {}", args.n, args.search.describe(&config))?;
    writeln!(out, "elapsed {:.3} ms", report.elapsed_ms)?;
    Ok(exit)
}
