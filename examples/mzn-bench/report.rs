//! What the runner prints and writes: the per-instance table, the totals, the pairwise comparison,
//! the cactus plot and `results.json`.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::Path;

use plotters::prelude::*;
use serde_json::json;

use crate::instances::Instance;
use crate::run::{Run, Status};
use crate::score::{self, Answer, TIME_FLOOR};
use crate::solvers::{Kind, Solver};

/// One instance's results: a run, an answer and a score for each solver, in the solvers' order.
#[derive(Debug, Clone)]
pub struct Row {
    /// The instance.
    pub instance: Instance,
    /// What each solver did.
    pub runs: Vec<Run>,
    /// What the score compares of each run.
    pub answers: Vec<Answer>,
    /// Each solver's score on this instance, against all the others.
    pub scores: Vec<f64>,
}

impl Row {
    /// Judges and scores an instance's runs.
    pub fn new(instance: Instance, runs: Vec<Run>, timeout: u64) -> Row {
        let answers: Vec<Answer> = runs
            .iter()
            .map(|run| Answer::of(run, &instance.expected, timeout as f64))
            .collect();
        let scores = score::totals(&answers, instance.expected.minimize());
        Row {
            instance,
            runs,
            answers,
            scores,
        }
    }

    fn status(&self, solver: usize) -> Status {
        self.runs[solver].status(&self.instance.expected)
    }
}

/// The width of one solver's cell: status, objective, seconds.
const CELL: usize = 22;

/// The legend printed above the table.
pub const LEGEND: &str = "\
each cell: status, objective (optimisation problems), seconds (the solver's solveTime, else the
wall time of the whole call). optimal = optimum proven, all = every solution counted,
unsat = proven unsatisfiable, sat = a solution, found = solutions without proof, unknown = nothing
by the limit, error = the run failed, WRONG = an answer that contradicts the known one or a
solution the model refuses.";

/// The table's header line.
pub fn header(solvers: &[Solver], name_width: usize) -> String {
    let mut line = format!(
        "{:<name_width$} {:>8} {:>9}",
        "instance", "tier", "expected"
    );
    for solver in solvers {
        let _ = write!(line, " | {:<CELL$}", solver.name);
    }
    line
}

/// One solver's cell.
fn cell(row: &Row, solver: usize) -> String {
    let run = &row.runs[solver];
    let status = row.status(solver);
    let objective = match (row.instance.expected.minimize(), run.objective()) {
        (Some(_), Some(o)) => o.to_string(),
        (Some(_), None) => "-".to_owned(),
        (None, _) => String::new(),
    };
    let seconds = if status == Status::Error {
        String::new()
    } else {
        format!("{:.2}", run.seconds())
    };
    format!("{:<7} {objective:>7} {seconds:>6}", status.label())
}

/// One instance's line of the table, then a line for each problem of a run: a wrong answer (loud),
/// a failure, a solution the cross-check could not judge.
pub fn row(row: &Row, solvers: &[Solver], name_width: usize, timeout: u64) -> String {
    let instance = &row.instance;
    let mut text = format!(
        "{:<name_width$} {:>8} {:>9}",
        instance.name,
        instance.tier,
        instance.expected.show()
    );
    for i in 0..solvers.len() {
        let _ = write!(text, " | {:<CELL$}", cell(row, i));
    }
    for (solver, run) in solvers.iter().zip(&row.runs) {
        for reason in &run.wrong {
            let _ = write!(
                text,
                "\n    !!! WRONG ANSWER from {} on {}: {reason}",
                solver.name, instance.name
            );
        }
        if let Some(error) = &run.error {
            let _ = write!(text, "\n    error: {}: {error}", solver.name);
        }
        for note in &run.unchecked {
            let _ = write!(text, "\n    unchecked: {}: {note}", solver.name);
        }
        // The Huub wrapper takes its compilation out of the limit it gives Huub.
        if solver.kind == Kind::Huub
            && let Some(flat) = run.flat_time
            && flat >= timeout as f64 / 4.0
        {
            let _ = write!(
                text,
                "\n    note: {}: compilation took {flat:.1} s of its {timeout} s",
                solver.name
            );
        }
    }
    text
}

/// Each solver's counts over the whole run.
#[derive(Debug, Clone, Default)]
struct Totals {
    answered: usize,
    proven: usize,
    wrong: usize,
    errors: usize,
    unchecked: usize,
    score: f64,
}

fn totals(rows: &[Row], solvers: usize) -> Vec<Totals> {
    let mut out = vec![Totals::default(); solvers];
    for row in rows {
        for (i, totals) in out.iter_mut().enumerate() {
            let status = row.status(i);
            totals.answered += usize::from(status.proven() || status == Status::Found);
            totals.proven += usize::from(status.proven());
            totals.wrong += usize::from(status == Status::Wrong);
            totals.errors += usize::from(row.runs[i].error.is_some());
            totals.unchecked += usize::from(!row.runs[i].unchecked.is_empty());
            totals.score += row.scores[i];
        }
    }
    out
}

/// The number of wrong answers over the whole run.
pub fn wrong_answers(rows: &[Row]) -> usize {
    rows.iter()
        .map(|row| row.runs.iter().filter(|r| !r.wrong.is_empty()).count())
        .sum()
}

/// A time ratio as the pairwise table shows it, with the number of instances behind it.
fn ratio(ratios: &mut [f64]) -> String {
    match score::median(ratios) {
        Some(m) => format!("{m:.2}x ({})", ratios.len()),
        None => "- (0)".to_owned(),
    }
}

/// The totals, the proven counts by tier, and each pair of solvers against each other.
pub fn summary(rows: &[Row], solvers: &[Solver]) -> String {
    let mut text = String::new();
    let width = solvers
        .iter()
        .map(|s| s.name.len())
        .max()
        .unwrap_or(0)
        .max(6);
    let most = rows.len() as f64 * (solvers.len().saturating_sub(1)) as f64;
    let _ = writeln!(
        text,
        "{:<width$} {:>9} {:>8} {:>6} {:>7} {:>10} {:>9}   (score: MiniZinc Challenge, of {most:.0})",
        "solver", "answered", "proven", "wrong", "errors", "unchecked", "score"
    );
    for (solver, t) in solvers.iter().zip(totals(rows, solvers.len())) {
        let _ = writeln!(
            text,
            "{:<width$} {:>9} {:>8} {:>6} {:>7} {:>10} {:>9.2}",
            solver.name, t.answered, t.proven, t.wrong, t.errors, t.unchecked, t.score
        );
    }

    // Proven counts by tier.
    let mut tiers: BTreeMap<&str, (usize, Vec<usize>)> = BTreeMap::new();
    for row in rows {
        let entry = tiers
            .entry(row.instance.tier.as_str())
            .or_insert_with(|| (0, vec![0; solvers.len()]));
        entry.0 += 1;
        for (i, proven) in entry.1.iter_mut().enumerate() {
            *proven += usize::from(row.status(i).proven());
        }
    }
    let _ = write!(text, "\nproven by tier {:>9}", "instances");
    for solver in solvers {
        let _ = write!(text, " {:>width$}", solver.name);
    }
    for (tier, (n, proven)) in &tiers {
        let _ = write!(text, "\n{tier:<14} {n:>9}");
        for p in proven {
            let _ = write!(text, " {p:>width$}");
        }
    }
    text.push('\n');

    // Each pair: the score of each against the other alone, and the time ratio where both prove.
    if solvers.len() > 1 {
        let pair_width = 2 * width + 4;
        let _ = writeln!(
            text,
            "\n{:<pair_width$} {:>8} {:>8} {:>12}   {:<22} median t_B/t_A where either takes >= 1 s",
            "A vs B", "A score", "B score", "both proven", "median t_B/t_A",
        );
        for a in 0..solvers.len() {
            for b in a + 1..solvers.len() {
                let (mut score_a, mut score_b) = (0.0, 0.0);
                let (mut all, mut long) = (Vec::new(), Vec::new());
                for row in rows {
                    let minimize = row.instance.expected.minimize();
                    let (x, y) = (&row.answers[a], &row.answers[b]);
                    score_a += score::against(x, y, minimize);
                    score_b += score::against(y, x, minimize);
                    if x.rank == 2 && y.rank == 2 {
                        let ratio = y.time.max(TIME_FLOOR) / x.time.max(TIME_FLOOR);
                        all.push(ratio);
                        if x.time.max(y.time) >= 1.0 {
                            long.push(ratio);
                        }
                    }
                }
                let pair = format!("{} vs {}", solvers[a].name, solvers[b].name);
                let _ = writeln!(
                    text,
                    "{pair:<pair_width$} {score_a:>8.2} {score_b:>8.2} {:>12}   {:<22} {}",
                    all.len(),
                    ratio(&mut all),
                    ratio(&mut long)
                );
            }
        }
        let _ = writeln!(
            text,
            "(t_B/t_A above 1: A is faster; list the configuration whose speed-up you want first)"
        );
    }
    text
}

/// Draws the cactus plot: for each solver, the k-th fastest proven instance's time against k.
pub fn cactus(path: &Path, rows: &[Row], solvers: &[Solver], timeout: u64) -> Result<(), String> {
    let series: Vec<(&str, Vec<f64>)> = solvers
        .iter()
        .enumerate()
        .map(|(i, solver)| {
            let mut times: Vec<f64> = rows
                .iter()
                .filter(|row| row.status(i).proven())
                .map(|row| row.runs[i].seconds())
                .collect();
            times.sort_by(f64::total_cmp);
            (solver.name.as_str(), times)
        })
        .collect();
    // Some solvers overrun their limit (Chuffed in WebAssembly checks it rarely), so the axis
    // reaches the slowest proof too.
    let slowest = series
        .iter()
        .filter_map(|(_, t)| t.last().copied())
        .fold(0.0, f64::max);
    let top = (timeout.max(1) as f64).max(slowest) * 2.0;
    let draw = || -> Result<(), Box<dyn std::error::Error>> {
        let root = SVGBackend::new(path, (800, 520)).into_drawing_area();
        root.fill(&WHITE)?;
        let most = series
            .iter()
            .map(|(_, t)| t.len())
            .max()
            .unwrap_or(0)
            .max(1);
        let mut chart = ChartBuilder::on(&root)
            .caption("Instances proven against time", ("sans-serif", 20))
            .margin(12)
            .x_label_area_size(45)
            .y_label_area_size(80)
            .build_cartesian_2d(0f64..(most as f64 + 1.0), (1e-4f64..top).log_scale())?;
        chart
            .configure_mesh()
            .x_desc("instances proven")
            .y_desc("time (s), each solver's solveTime")
            .y_label_formatter(&|v| format!("{v:.0e}"))
            .draw()?;
        let colours = [
            RGBColor(214, 39, 40),
            RGBColor(31, 119, 180),
            RGBColor(44, 160, 44),
            RGBColor(255, 127, 14),
            RGBColor(148, 103, 189),
            RGBColor(140, 86, 75),
            RGBColor(227, 119, 194),
            RGBColor(127, 127, 127),
        ];
        for (i, (label, times)) in series.iter().enumerate() {
            let colour = colours[i % colours.len()];
            let points: Vec<(f64, f64)> = times
                .iter()
                .enumerate()
                .map(|(k, &t)| ((k + 1) as f64, t.max(1e-4)))
                .collect();
            chart
                .draw_series(LineSeries::new(points.clone(), colour.stroke_width(2)))?
                .label(*label)
                .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], colour));
            chart.draw_series(points.iter().map(|&p| Circle::new(p, 3, colour.filled())))?;
        }
        chart
            .configure_series_labels()
            .position(SeriesLabelPosition::UpperLeft)
            .background_style(WHITE.mix(0.8))
            .border_style(BLACK)
            .draw()?;
        root.present()?;
        Ok(())
    };
    draw().map_err(|e| format!("{}: {e}", path.display()))
}

/// Everything of the run as JSON, for the record: the limit, the solvers (and those skipped, with
/// why), and each instance's runs.
pub fn json(
    rows: &[Row],
    solvers: &[Solver],
    skipped: &[(Solver, String)],
    timeout: u64,
) -> serde_json::Value {
    let unix_time = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let describe = |s: &Solver| json!({"name": s.name, "program": s.kind.name(), "flags": s.flags});
    json!({
        "timeout_seconds": timeout,
        "unix_time": unix_time,
        "solvers": solvers.iter().map(describe).collect::<Vec<_>>(),
        "skipped": skipped
            .iter()
            .map(|(s, why)| json!({"solver": describe(s), "why": why}))
            .collect::<Vec<_>>(),
        "instances": rows.iter().map(|row| json!({
            "name": row.instance.name,
            "tier": row.instance.tier,
            "expected": row.instance.expected.show(),
            "runs": solvers.iter().enumerate().map(|(i, solver)| {
                let run = &row.runs[i];
                json!({
                    "solver": solver.name,
                    "status": row.status(i).label(),
                    "objective": run.objective(),
                    "seconds": run.seconds(),
                    "solve_time": run.solve_time,
                    "wall_seconds": run.wall,
                    "flat_time": run.flat_time,
                    "nodes": run.nodes,
                    "solutions": run.solutions.len(),
                    "accepted_by_cross_check": run.accepted,
                    "score": row.scores[i],
                    "error": run.error,
                    "wrong": run.wrong,
                    "unchecked": run.unchecked,
                })
            }).collect::<Vec<_>>(),
        })).collect::<Vec<_>>(),
    })
}
