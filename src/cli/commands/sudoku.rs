//! `csp sudoku FILE|-`: every puzzle of a file, solved (or settled unique or not, with --all) and
//! checked.

use std::io::Write;
use std::time::Instant;

use clap::Args;
use csp_problems::sudoku::{self, Answer, Grid, Puzzle};
use csp_search::{Outcome, SearchConfig};
use serde::Serialize;

use crate::cli::error::{CliError, Exit};
use crate::cli::input::read_input;
use crate::cli::options::{Defaults, SearchOptions};
use crate::cli::progress::Progress;
use crate::cli::report::{ConfigReport, StatsReport, describe, write_json};

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
    pub search: SearchOptions,
}

/// Runs `csp sudoku`: each puzzle is solved, checked and reported as soon as it is done, then the
/// summary follows.
pub fn run(args: SudokuArgs, out: &mut impl Write) -> Result<Exit, CliError> {
    let text = read_input(&args.file)?;
    let puzzles = sudoku::parse_puzzles(&text).map_err(CliError::usage)?;
    let mut config = args.search.config(Defaults::of(sudoku::default_config()));
    // A second solution settles uniqueness; the search goes no further.
    config.solution_limit = Some(if args.all { 2 } else { 1 });
    let mut summary = Summary::default();
    for puzzle in &puzzles {
        let solved = solve(puzzle, &config, args.search.no_progress)?;
        summary.add(&solved, args.all);
        if args.search.json {
            write_json(out, &PuzzleReport::new(&solved, args.all, &config))?;
        } else {
            write_puzzle(out, &solved, args.all)?;
            if puzzles.len() == 1
                && let Some(solution) = solved.answer.first
            {
                write!(out, "{}", solution.render())?;
            }
        }
    }
    if !args.search.json {
        summary.write(out, puzzles.len(), args.all, &config)?;
    }
    Ok(summary.exit())
}

/// One puzzle, searched and checked.
struct Solved<'a> {
    puzzle: &'a Puzzle,
    answer: Answer,
    stats: StatsReport,
    elapsed_ms: f64,
}

impl Solved<'_> {
    /// With --all: decided once the tree is exhausted or a second solution turned up.
    fn decided(&self) -> bool {
        self.answer.result.outcome == Outcome::Exhausted || self.answer.solutions() > 1
    }
}

/// Searches one puzzle and checks every solution against the givens and the rules.
fn solve<'a>(
    puzzle: &'a Puzzle,
    config: &SearchConfig,
    no_progress: bool,
) -> Result<Solved<'a>, CliError> {
    let started = Instant::now();
    let answer = match Progress::for_stderr(no_progress) {
        Some(mut progress) => sudoku::solve(&puzzle.grid, config, &mut progress),
        None => sudoku::solve(&puzzle.grid, config, ()),
    }
    .map_err(|e| CliError::Internal(format!("line {}: {e}", puzzle.line)))?;
    let elapsed_ms = started.elapsed().as_secs_f64() * 1e3;
    // Every answer is checked against the givens and the rules before it is shown.
    for solution in answer.first.iter().chain(&answer.second) {
        sudoku::check(&puzzle.grid, solution).map_err(|e| {
            CliError::Internal(format!(
                "line {}: the search returned a wrong solution ({e})",
                puzzle.line
            ))
        })?;
    }
    Ok(Solved {
        puzzle,
        stats: StatsReport::of(&answer.result.stats),
        answer,
        elapsed_ms,
    })
}

/// What the puzzles added up to.
#[derive(Debug, Default)]
struct Summary {
    solved: usize,
    unsolvable: usize,
    unfinished: usize,
    not_unique: usize,
    times: Vec<f64>,
    total: StatsReport,
}

impl Summary {
    fn add(&mut self, solved: &Solved<'_>, all: bool) {
        self.times.push(solved.elapsed_ms);
        self.total.add(&solved.stats);
        let answer = &solved.answer;
        match (answer.first.is_some(), answer.result.outcome) {
            (true, _) => self.solved += 1,
            (false, Outcome::Exhausted) => self.unsolvable += 1,
            (false, _) => self.unfinished += 1,
        }
        if all && answer.solutions() > 1 {
            self.not_unique += 1;
        }
        // A limit before the second solution or the end leaves the question --all asks open.
        if all && answer.first.is_some() && !solved.decided() {
            self.unfinished += 1;
        }
    }

    fn exit(&self) -> Exit {
        if self.unfinished > 0 {
            Exit::LimitReached
        } else if self.unsolvable > 0 {
            Exit::NoSolution
        } else {
            Exit::Answered
        }
    }

    fn write(
        &mut self,
        out: &mut impl Write,
        puzzles: usize,
        all: bool,
        config: &SearchConfig,
    ) -> std::io::Result<()> {
        self.times.sort_by(f64::total_cmp);
        let median = self.times.get(self.times.len() / 2).copied().unwrap_or(0.0);
        let max = self.times.last().copied().unwrap_or(0.0);
        let mut summary = format!(
            "{puzzles} puzzle(s): {} solved, {} without solution, {} unfinished",
            self.solved, self.unsolvable, self.unfinished
        );
        if all {
            summary.push_str(&format!(", {} not unique", self.not_unique));
        }
        writeln!(out, "{summary}")?;
        writeln!(
            out,
            "{}; time per puzzle median {median:.3} ms, max {max:.3} ms",
            self.total.text()
        )?;
        writeln!(out, "search: {}, seed {}", describe(config), config.seed)
    }
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

impl PuzzleReport {
    fn new(solved: &Solved<'_>, all: bool, config: &SearchConfig) -> Self {
        let answer = &solved.answer;
        let outcome = answer.result.outcome;
        PuzzleReport {
            line: solved.puzzle.line,
            puzzle: solved.puzzle.grid.to_line(),
            solution: answer.first.map(|g| g.to_line()),
            solution_count: all.then(|| answer.solutions()),
            unique: (all && solved.decided()).then(|| answer.solutions() == 1),
            second_solution: answer.second.map(|g| g.to_line()),
            outcome: outcome.name(),
            limit: outcome.limit().map(|limit| limit.name()),
            stats: solved.stats.clone(),
            elapsed_ms: solved.elapsed_ms,
            config: ConfigReport::of(config),
        }
    }
}

/// One puzzle's line of text: its solution or what became of it, and its statistics.
fn write_puzzle(out: &mut impl Write, solved: &Solved<'_>, all: bool) -> std::io::Result<()> {
    let answer = &solved.answer;
    let verdict = match (answer.first, answer.result.outcome) {
        (None, Outcome::Exhausted) => "no solution (proven)".to_owned(),
        (None, Outcome::LimitReached(limit)) => {
            format!("{} limit reached before a solution", limit.name())
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
                    limit.name()
                ),
                (true, _, None) => format!("{first} (stopped before uniqueness was settled)"),
            }
        }
    };
    writeln!(
        out,
        "line {}: {verdict}; {}, {:.3} ms",
        solved.puzzle.line,
        solved.stats.text(),
        solved.elapsed_ms
    )
}
