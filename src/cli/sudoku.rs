//! `csp sudoku FILE|-`: every puzzle of a file, solved (or counted, with --all) and checked.

use std::io::Write;
use std::time::Instant;

use clap::Args;
use csp_problems::sudoku::{self, Answer, Grid};
use csp_search::Outcome;
use serde::Serialize;

use super::problem_search::{
    ConfigReport, ProblemSearchArgs, StatsReport, describe, limit_name, outcome_names, read_input,
};
use super::progress::Progress;
use super::{CliError, Exit};

/// `csp sudoku`.
#[derive(Debug, Args)]
pub struct SudokuArgs {
    /// The puzzles, one per line: 81 characters row by row, a digit 1-9 for a given, '.' or '0' for a
    /// blank; text after the 81 characters and a space is ignored, as are blank lines and '#'
    /// comments. '-' reads standard input.
    #[arg(value_name = "FILE")]
    pub file: String,
    /// Prove each puzzle unique or not: go on past the first solution, to a second one or to the end
    /// of the search. (Counting every solution is no option for a puzzle with millions, such as
    /// Norvig's "hard1".)
    #[arg(long)]
    pub all: bool,
    /// The search options.
    #[command(flatten)]
    pub search: ProblemSearchArgs,
}

/// One puzzle's `--json` line.
#[derive(Debug, Serialize)]
struct PuzzleReport {
    line: usize,
    puzzle: String,
    /// The (first) solution, or null.
    solution: Option<String>,
    /// With --all, the solutions found: 0 or 1 once the search is complete, 2 when a second one
    /// proves the puzzle not unique (the search stops there).
    #[serde(skip_serializing_if = "Option::is_none")]
    solution_count: Option<u64>,
    /// With --all, once decided: whether the puzzle has exactly one solution.
    #[serde(skip_serializing_if = "Option::is_none")]
    unique: Option<bool>,
    /// With --all, a second solution when there is one.
    #[serde(skip_serializing_if = "Option::is_none")]
    second_solution: Option<String>,
    outcome: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    limit: Option<&'static str>,
    stats: StatsReport,
    elapsed_ms: f64,
    config: ConfigReport,
}

/// Runs `csp sudoku`.
pub fn run(args: SudokuArgs, out: &mut impl Write) -> Result<Exit, CliError> {
    let text = read_input(&args.file)?;
    let puzzles = sudoku::parse_puzzles(&text).map_err(|e| CliError::Usage(e.to_string()))?;
    let mut config = args.search.config(sudoku::default_config());
    // A second solution settles uniqueness; the search goes no further.
    config.solution_limit = Some(if args.all { 2 } else { 1 });
    let (mut solved, mut unsolvable, mut unfinished, mut not_unique) = (0, 0, 0, 0);
    let mut times = Vec::with_capacity(puzzles.len());
    let mut total = StatsReport::default();
    for puzzle in &puzzles {
        let started = Instant::now();
        let answer = match Progress::for_stderr(args.search.no_progress) {
            Some(mut progress) => sudoku::solve(&puzzle.grid, &config, &mut progress),
            None => sudoku::solve(&puzzle.grid, &config, ()),
        }
        .map_err(|e| CliError::Internal(format!("line {}: {e}", puzzle.line)))?;
        let elapsed_ms = started.elapsed().as_secs_f64() * 1e3;
        times.push(elapsed_ms);
        // Every answer is checked against the givens and the rules before it is shown.
        for solution in answer.first.iter().chain(&answer.second) {
            sudoku::check(&puzzle.grid, solution).map_err(|e| {
                CliError::Internal(format!(
                    "line {}: the search returned a wrong solution ({e})",
                    puzzle.line
                ))
            })?;
        }
        let complete = answer.result.outcome == Outcome::Exhausted;
        // With --all: decided once the tree is exhausted or a second solution turned up.
        let decided = complete || answer.solutions() > 1;
        let stats = StatsReport::of(&answer.result.stats);
        total.add(&stats);
        match (answer.first.is_some(), answer.result.outcome) {
            (true, _) => solved += 1,
            (false, Outcome::Exhausted) => unsolvable += 1,
            (false, _) => unfinished += 1,
        }
        if args.all && answer.solutions() > 1 {
            not_unique += 1;
        }
        // A limit before the second solution or the end leaves the question --all asks open.
        if args.all && answer.first.is_some() && !decided {
            unfinished += 1;
        }
        if args.search.json {
            let (outcome, limit) = outcome_names(answer.result.outcome);
            let report = PuzzleReport {
                line: puzzle.line,
                puzzle: puzzle.grid.to_line(),
                solution: answer.first.map(|g| g.to_line()),
                solution_count: args.all.then(|| answer.solutions()),
                unique: (args.all && decided).then(|| answer.solutions() == 1),
                second_solution: answer.second.map(|g| g.to_line()),
                outcome,
                limit,
                stats,
                elapsed_ms,
                config: ConfigReport::of(&config),
            };
            serde_json::to_writer(&mut *out, &report).map_err(std::io::Error::from)?;
            writeln!(out)?;
        } else {
            write_puzzle(out, puzzle.line, &answer, args.all, &stats, elapsed_ms)?;
            if puzzles.len() == 1
                && let Some(solution) = answer.first
            {
                write!(out, "{}", solution.render())?;
            }
        }
    }
    if !args.search.json {
        times.sort_by(f64::total_cmp);
        let median = times.get(times.len() / 2).copied().unwrap_or(0.0);
        let max = times.last().copied().unwrap_or(0.0);
        let mut summary = format!(
            "{} puzzle(s): {solved} solved, {unsolvable} without solution, {unfinished} unfinished",
            puzzles.len()
        );
        if args.all {
            summary.push_str(&format!(", {not_unique} not unique"));
        }
        writeln!(out, "{summary}")?;
        writeln!(
            out,
            "{}; time per puzzle median {median:.3} ms, max {max:.3} ms",
            total.text()
        )?;
        writeln!(out, "search: {}", describe(&config))?;
    }
    Ok(if unfinished > 0 {
        Exit::LimitReached
    } else if unsolvable > 0 {
        Exit::NoSolution
    } else {
        Exit::Answered
    })
}

/// One puzzle's line of text: its solution or what became of it, and its statistics.
fn write_puzzle(
    out: &mut impl Write,
    line: usize,
    answer: &Answer,
    all: bool,
    stats: &StatsReport,
    elapsed_ms: f64,
) -> std::io::Result<()> {
    let verdict = match (answer.first, answer.result.outcome) {
        (None, Outcome::Exhausted) => "no solution (proven)".to_owned(),
        (None, Outcome::LimitReached(limit)) => {
            format!("{} limit reached before a solution", limit_name(limit))
        }
        (None, _) => "stopped before a solution".to_owned(),
        (Some(first), outcome) => {
            let first = Grid::to_line(&first);
            match (all, outcome, answer.second) {
                (false, _, _) => first,
                (true, _, Some(second)) => {
                    format!("{first} (not unique: another solution is {second})")
                }
                (true, Outcome::Exhausted, None) => format!("{first} (unique)"),
                (true, Outcome::LimitReached(limit), None) => format!(
                    "{first} (the {} limit came before uniqueness was settled)",
                    limit_name(limit)
                ),
                (true, _, None) => format!("{first} (stopped before uniqueness was settled)"),
            }
        }
    };
    writeln!(
        out,
        "line {line}: {verdict}; {}, {elapsed_ms:.3} ms",
        stats.text()
    )
}
