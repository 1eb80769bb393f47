//! `csp sudoku FILE|-`: every puzzle of a file, solved (or settled unique or not, with --all) and
//! checked.

use std::collections::BTreeMap;
use std::io::Write;
use std::time::Instant;

use clap::Args;
use csp_problems::sudoku::{self, Answer, Grid, Puzzle};
use csp_search::{Outcome, SearchConfig};
use rayon::prelude::*;
use serde::Serialize;

use crate::cli::input::open_input;
use crate::cli::options::SearchOptions;
use crate::cli::report::{ConfigReport, StatsReport, describe, write_json};
use csp::app::Progress;
use csp::app::{CliError, Exit};
use csp_search::SearchDefaults;

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
    /// Solve this many puzzles at once, each on a thread of its own. Every puzzle's search,
    /// statistics and report are exactly those of one thread, and the reports keep the input's
    /// order; only the times differ. There is no progress bar with more than one.
    #[arg(
        long,
        value_name = "N",
        default_value_t = 1,
        value_parser = clap::value_parser!(u32).range(1..=1024)
    )]
    pub threads: u32,
    /// The search options.
    #[command(flatten)]
    pub search: SearchOptions,
}

/// Runs `csp sudoku`: the puzzles are read as they arrive, and each is solved, checked and
/// reported (and flushed, so that a pipe sees it) in the input's order; then the summary follows.
/// Memory stays bounded however many puzzles come: a line (a batch of lines with `--threads`),
/// one search per thread, and the summary's counts.
pub fn run(args: SudokuArgs, out: &mut impl Write) -> Result<Exit, CliError> {
    let reader = open_input(&args.file)?;
    let mut config = args
        .search
        .config(SearchDefaults::of(sudoku::default_config()));
    // A second solution settles uniqueness; the search goes no further.
    config.solution_limit = Some(if args.all { 2 } else { 1 });
    // The limits are each puzzle's: one puzzle that exhausts them leaves the next its own.
    config.limits = args.search.limits.budget().search_limits();
    let mut summary = Summary::default();
    // One puzzle is held back a step, so that a lone puzzle's grid can be drawn: it is known to be
    // alone only once the input ends.
    let mut previous: Option<Solved> = None;
    let limits = &args.search.limits;
    let each = |puzzle: Puzzle, no_progress: bool| {
        let mut config = config.clone();
        config.limits = limits.budget().search_limits();
        solve(puzzle, &config, no_progress)
    };
    let puzzles = sudoku::puzzles(reader).map(|puzzle| puzzle.map_err(CliError::usage));
    let solved: Box<dyn Iterator<Item = Result<Solved, CliError>>> = if args.threads > 1 {
        Box::new(solve_in_parallel(
            puzzles,
            args.threads as usize,
            |puzzle| each(puzzle, true),
        )?)
    } else {
        Box::new(puzzles.map(|puzzle| each(puzzle?, args.search.no_progress)))
    };
    for solved in solved {
        let solved = match solved {
            Ok(solved) => solved,
            Err(error) => {
                // What was answered before the bad line is shown before the error.
                if let Some(solved) = previous.take() {
                    report(out, &solved, &args, &config, false)?;
                }
                return Err(error);
            }
        };
        if let Some(solved) = previous.take() {
            report(out, &solved, &args, &config, false)?;
        }
        summary.add(&solved, args.all);
        if args.search.json || summary.puzzles() > 1 {
            report(out, &solved, &args, &config, false)?;
        } else {
            previous = Some(solved);
        }
    }
    if let Some(solved) = previous.take() {
        report(out, &solved, &args, &config, summary.puzzles() == 1)?;
    }
    if !args.search.json {
        summary.write(out, args.all, &config)?;
    }
    Ok(summary.exit())
}

/// Puzzles a thread takes in one batch: enough that a slow puzzle is balanced by quick ones on the
/// other threads, few enough that the first reports come at once.
const BATCH_PER_THREAD: usize = 16;

/// `--threads`: the puzzles solved a batch at a time on a pool of `threads` threads (rayon's work
/// stealing, since one hard puzzle may take as long as thousands of easy ones), yielded in the
/// input's order. A bad line ends the stream after the puzzles before it.
fn solve_in_parallel<'a>(
    mut puzzles: impl Iterator<Item = Result<Puzzle, CliError>> + 'a,
    threads: usize,
    solve: impl Fn(Puzzle) -> Result<Solved, CliError> + Sync + 'a,
) -> Result<impl Iterator<Item = Result<Solved, CliError>> + 'a, CliError> {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| CliError::Internal(format!("cannot start {threads} threads: {e}")))?;
    let mut ended = false;
    let batches = std::iter::from_fn(move || {
        if ended {
            return None;
        }
        let mut batch = Vec::with_capacity(threads * BATCH_PER_THREAD);
        let mut failure = None;
        for puzzle in puzzles.by_ref().take(threads * BATCH_PER_THREAD) {
            match puzzle {
                Ok(puzzle) => batch.push(puzzle),
                Err(error) => {
                    failure = Some(error);
                    break;
                }
            }
        }
        ended = failure.is_some() || batch.len() < threads * BATCH_PER_THREAD;
        if batch.is_empty() && failure.is_none() {
            return None;
        }
        let mut solved: Vec<Result<Solved, CliError>> =
            pool.install(|| batch.into_par_iter().map(&solve).collect());
        solved.extend(failure.map(Err));
        Some(solved)
    });
    Ok(batches.flatten())
}

/// Writes one puzzle's report, and its grid when `draw`, then flushes it.
fn report(
    out: &mut impl Write,
    solved: &Solved,
    args: &SudokuArgs,
    config: &SearchConfig,
    draw: bool,
) -> Result<(), CliError> {
    if args.search.json {
        write_json(out, &PuzzleReport::new(solved, args.all, config))?;
    } else {
        write_puzzle(out, solved, args.all)?;
        if draw && let Some(solution) = solved.answer.first {
            write!(out, "{}", solution.render())?;
        }
    }
    out.flush()?;
    Ok(())
}

/// One puzzle, searched and checked.
struct Solved {
    puzzle: Puzzle,
    answer: Answer,
    stats: StatsReport,
    elapsed_ms: f64,
}

impl Solved {
    /// With --all: decided once the tree is exhausted or a second solution turned up.
    fn decided(&self) -> bool {
        self.answer.result.outcome == Outcome::Exhausted || self.answer.solutions() > 1
    }
}

/// Searches one puzzle and checks every solution against the givens and the rules.
fn solve(puzzle: Puzzle, config: &SearchConfig, no_progress: bool) -> Result<Solved, CliError> {
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

/// What the puzzles added up to, in constant memory.
#[derive(Debug, Default)]
struct Summary {
    solved: usize,
    unsolvable: usize,
    unfinished: usize,
    not_unique: usize,
    times: Times,
    total: StatsReport,
}

/// Per-puzzle times as a histogram of buckets 0.1 % wide, so that the median of an endless stream of
/// puzzles needs no list of them all: at most one entry per bucket that occurs (about 35,000 from a
/// nanosecond to a week), and the median is exact to 0.1 %.
#[derive(Debug, Default)]
struct Times {
    buckets: BTreeMap<i32, u64>,
    count: u64,
    max: f64,
}

impl Times {
    /// The ratio of one bucket's edges.
    const WIDTH: f64 = 1.001;

    fn add(&mut self, ms: f64) {
        // Times below a nanosecond share the lowest bucket.
        let bucket = (ms.max(1e-6).ln() / Self::WIDTH.ln()).floor() as i32;
        *self.buckets.entry(bucket).or_default() += 1;
        self.count += 1;
        self.max = self.max.max(ms);
    }

    /// The upper median (the time of puzzle `count / 2` in order from the fastest, from 0), as the
    /// middle of its bucket; 0 with no puzzles.
    fn median(&self) -> f64 {
        let mut before = 0;
        for (&bucket, &count) in &self.buckets {
            before += count;
            if before > self.count / 2 {
                return Self::WIDTH.powf(f64::from(bucket) + 0.5);
            }
        }
        0.0
    }
}

impl Summary {
    fn add(&mut self, solved: &Solved, all: bool) {
        self.times.add(solved.elapsed_ms);
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

    /// How many puzzles were added.
    fn puzzles(&self) -> u64 {
        self.times.count
    }

    fn write(&self, out: &mut impl Write, all: bool, config: &SearchConfig) -> std::io::Result<()> {
        let (puzzles, median, max) = (self.puzzles(), self.times.median(), self.times.max);
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
    fn new(solved: &Solved, all: bool, config: &SearchConfig) -> Self {
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
fn write_puzzle(out: &mut impl Write, solved: &Solved, all: bool) -> std::io::Result<()> {
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
