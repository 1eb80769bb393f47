//! The FlatZinc run protocol as a library call: search a compiled model as FlatZinc's standard
//! options ask (`-a`, `-n`, `-i`, `-f`, `-s`, `-r`, `-t`), check every solution, and print what the
//! FlatZinc specification prints: each solution followed by `----------`, then the status line
//! (`==========`, `=====UNSATISFIABLE=====`, `=====UNKNOWN=====`) and, with statistics, the
//! `%%%mzn-stat:` lines.
//!
//! `fzn-csp` is this call behind a command line; a Rust program can make the same run and print to
//! any [`Printer`], or to anything that implements [`std::io::Write`].
//!
//! ```
//! use csp_flatzinc::run::{RunOptions, run};
//!
//! let compiled = csp_flatzinc::compile(
//!     "var 1..3: x :: output_var;\nconstraint int_ne(x, 2);\nsolve satisfy;\n",
//! )?;
//! let options = RunOptions {
//!     all_solutions: true,
//!     ..RunOptions::default()
//! };
//! let mut out = Vec::new();
//! let summary = run(&compiled, &options, &mut out, &mut ()).unwrap();
//! assert_eq!(summary.solutions, 2);
//! assert_eq!(
//!     String::from_utf8(out).unwrap(),
//!     "x = 1;\n----------\nx = 3;\n----------\n==========\n"
//! );
//! # Ok::<(), csp_flatzinc::Error>(())
//! ```

use std::fmt::Write as _;
use std::io;
use std::time::{Duration, Instant};

use csp_core::{Model, Objective, Store};
use std::ops::ControlFlow;

use csp_search::portfolio::{PortfolioConfig, Worker, run_portfolio};
use csp_search::{
    Interleaved, Learning, LnsConfig, LnsSearch, Outcome, Search, SearchConfig, SearchObserver,
    SearchResult,
};

use crate::{Compiled, VerifyError};

/// The separator the specification prints after every solution.
pub const SOLUTION_END: &str = "----------\n";

/// What a run is asked for: FlatZinc's standard options.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RunOptions {
    /// `-a`: every solution of a satisfaction problem, every improving one of an optimisation.
    pub all_solutions: bool,
    /// `-n N`: stop after this many solutions (under optimisation, this many improving ones).
    pub solutions: Option<u64>,
    /// `-i`: print every improving solution of an optimisation, not only the last.
    pub intermediate: bool,
    /// `-f`: ignore the model's search annotations (free search: dom/wdeg with restarts).
    pub free_search: bool,
    /// `-s`: print statistics as `%%%mzn-stat:` lines.
    pub statistics: bool,
    /// `-r`: the seed of every random choice.
    pub seed: u64,
    /// Large-neighbourhood search alongside branch and bound, for an optimisation
    /// ([`csp_search::LnsSearch`]; a satisfaction problem ignores it).
    pub lns: bool,
    /// `-p N`: searches run at once, a portfolio ([`csp_search::portfolio`]); 0 and 1 run one.
    /// An enumeration of all solutions, or of `-n` of them, runs one.
    pub threads: usize,
    /// Whether the portfolio's result must not depend on thread timing (its workers meet every
    /// few thousand nodes to exchange bounds).
    pub deterministic: bool,
    /// With `-p N`: whether the workers search one tree split into subproblems
    /// ([`csp_search::split`]) rather than a portfolio of different searches; `None` chooses by
    /// the problem (see [`RunOptions::splits`]).
    pub split: Option<bool>,
    /// Learning from failure ([`csp_search::Conflicts::Learn`]): one search, whatever `threads` and
    /// `lns` say. It follows the model's search annotations, pruned by what it learns and
    /// without restarts; with `free_search` it alternates them with activity-based search at
    /// each restart (Chuffed's free search); with no annotation it is activity-based.
    pub learning: bool,
    /// For the first solution of a satisfaction problem with search annotations, searched by one
    /// thread without learning: the annotated search and free search in turn, a slice of nodes
    /// each ([`csp_search::Interleaved`]). Off here (the annotations alone, as a library caller
    /// asks); `fzn-csp` turns it on unless told `--interleave off`.
    pub interleave: bool,
    /// When the run must end (`-t`, counted from the start of the whole run, reading included).
    pub deadline: Option<Instant>,
    /// Time spent reading and compiling the model, reported as `initTime`.
    pub init_time: Duration,
}

impl RunOptions {
    /// Whether `-p N` splits the tree of a problem with (`optimising`) or without an objective:
    /// as asked, else for satisfaction problems only, and never in the deterministic mode. Measured
    /// at 20 s on the slow instances of `data/minizinc-bench` with `-p 2`: a split tree proves and
    /// answers satisfaction problems in about half the time (market_split u4-01 8.3 s to 4.4 s,
    /// search_stress 08_04 5.6 s to 2.9 s, CostasArray 15 6.6 s to 3.6 s), where the portfolio
    /// barely beats one search. Under an objective a split tree, each worker's neighbourhoods
    /// alternating with its subproblems, proves some optima sooner than the portfolio (golomb 10
    /// 1.6 s against 2.8 s, mknap2-20 2.1 s against 4.6 s), but the portfolio's free-search worker
    /// proves template_design catfood_3 in about a second, which no split search does in 20 s,
    /// and on models without a search annotation (jobshop la01: 1.5 s against 5.8 s) free search's
    /// learned weights and restarts start anew in every subproblem.
    pub fn splits(&self, optimising: bool) -> bool {
        !self.deterministic && self.split.unwrap_or(!optimising)
    }
}

/// Where a run's output goes. Each call carries whole lines, so that a printer shared with another
/// thread (a watchdog that ends the run at its time limit) never splits a solution.
pub trait Printer {
    /// A solution to print now, its `----------` line included.
    fn solution(&mut self, text: &str) -> io::Result<()>;

    /// The best solution of an optimisation so far, which the specification prints only at the end
    /// (without `-a` or `-i`). A printer that may have to end the run early keeps it, to print it
    /// then; the default ignores it, as [`run`] prints it at the end through
    /// [`Printer::solution`].
    fn best_so_far(&mut self, _text: &str) -> io::Result<()> {
        Ok(())
    }

    /// The end of the run: the status line, if any, and the statistics.
    fn end(&mut self, text: &str) -> io::Result<()>;
}

impl<W: io::Write> Printer for W {
    fn solution(&mut self, text: &str) -> io::Result<()> {
        self.write_all(text.as_bytes())?;
        self.flush()
    }

    fn end(&mut self, text: &str) -> io::Result<()> {
        self.write_all(text.as_bytes())?;
        self.flush()
    }
}

/// How a run ended, as its status line says.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status {
    /// `==========`: every solution was printed, or the last one is optimal.
    Complete,
    /// Solutions were printed, and the search stopped before it was complete (a limit, `-n`, or a
    /// satisfaction problem's first solution): no status line.
    Solved,
    /// `=====UNSATISFIABLE=====`: the whole tree holds no solution.
    Unsatisfiable,
    /// `=====UNKNOWN=====`: a limit stopped the search before any solution.
    Unknown,
}

impl Status {
    /// The status line the specification prints, if any.
    pub fn line(self) -> Option<&'static str> {
        match self {
            Status::Complete => Some("=========="),
            Status::Solved => None,
            Status::Unsatisfiable => Some("=====UNSATISFIABLE====="),
            Status::Unknown => Some("=====UNKNOWN====="),
        }
    }
}

/// What a run did.
#[derive(Debug, Clone, PartialEq)]
pub struct RunSummary {
    /// Solutions found (under optimisation, improving ones), each checked.
    pub solutions: u64,
    /// How it ended.
    pub status: Status,
    /// The search's own result: outcome, statistics, the last solution.
    pub result: SearchResult,
}

/// Why a run failed.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum RunError {
    /// A solution failed verification: a bug, never the model's fault.
    #[error("internal error, a solution failed verification: {0}")]
    Verify(VerifyError),
    /// The output could not be written.
    #[error("cannot write the output: {0}")]
    Write(#[from] io::Error),
}

/// Searches `compiled` as `options` ask, printing to `printer` as the FlatZinc specification says,
/// with `observer` watching the search (a progress display, a trace; `&mut ()` for none). Every
/// solution is checked ([`Compiled::verify`]) before it is printed.
pub fn run<P: Printer + ?Sized, O: SearchObserver>(
    compiled: &Compiled,
    options: &RunOptions,
    printer: &mut P,
    observer: &mut O,
) -> Result<RunSummary, RunError> {
    let model = compiled.model();
    let optimising = model.objective() != Objective::Satisfy;
    let mut config = compiled.search_config(options.free_search);
    config.seed = options.seed;
    let time_left = options
        .deadline
        .map(|deadline| deadline.saturating_duration_since(Instant::now()));
    config.limits.time = time_left;
    // How many solutions to stop after: under optimisation only `-n` stops early; under satisfaction
    // one, or `-n`, or with `-a` all (or `-n`).
    let wanted = match (optimising, options.all_solutions) {
        (true, _) | (false, true) => options.solutions,
        (false, false) => Some(options.solutions.unwrap_or(1)),
    };
    // The specification prints only the final solution of an optimisation unless asked for more.
    let print_each = !optimising || options.all_solutions || options.intermediate;
    let mut collector = Collector {
        compiled,
        printer,
        print_each,
        wanted,
        found: 0,
        best: None,
    };
    // A portfolio answers an optimisation, or a satisfaction problem's first solution; an
    // enumeration of every solution is one search's work.
    let (result, learned) =
        if options.threads > 1 && !options.learning && (optimising || wanted == Some(1)) {
            (portfolio(compiled, options, &config, &mut collector)?, None)
        } else {
            let mut search = if options.learning {
                // As Chuffed does: the model's search, pruned by what is learned, or under `-f` that
                // search and activity in turn, restart by restart.
                let config = SearchConfig {
                    seed: config.seed,
                    limits: config.limits,
                    ..compiled.search_config(false)
                }
                .learning(Learning {
                    alternate: options.free_search,
                    first: compiled.decision_vars().to_vec(),
                    ..Learning::default()
                });
                Engine::Tree(Box::new(Search::new(model, &config)))
            } else if options.interleave
                && !optimising
                && wanted == Some(1)
                && !options.free_search
                && !compiled.searches().is_empty()
            {
                let free = SearchConfig {
                    seed: config.seed,
                    limits: config.limits,
                    ..compiled.search_config(true)
                };
                Engine::Interleaved(Box::new(Interleaved::new(model, &config, &free)))
            } else if optimising && options.lns {
                Engine::Lns(Box::new(LnsSearch::new(
                    model,
                    &config,
                    lns_config(compiled),
                )))
            } else {
                Engine::Tree(Box::new(Search::new(model, &config)))
            };
            let past_deadline = || options.deadline.is_some_and(|d| Instant::now() >= d);
            let mut timed_out = time_left == Some(Duration::ZERO);
            while !timed_out {
                let Some(values) = search.next_solution(observer) else {
                    break;
                };
                if !collector.accept(values)? {
                    break;
                }
                timed_out = past_deadline();
            }
            let result = search.result_with_outcome();
            let learned = options
                .learning
                .then_some((result.stats.learned_clauses, result.stats.learned_literals));
            (result, learned)
        };
    let found = collector.found;
    if let Some(text) = &collector.best {
        collector.printer.solution(text)?;
    }
    let outcome = (result.outcome != Outcome::Stopped).then_some(result.outcome);
    let status = match (found, outcome) {
        (0, Some(Outcome::Exhausted)) => Status::Unsatisfiable,
        (0, _) => Status::Unknown,
        (_, Some(Outcome::Optimal)) => Status::Complete,
        (_, Some(Outcome::Exhausted)) if !optimising => Status::Complete,
        _ => Status::Solved,
    };
    let printer = collector.printer;
    let mut end = String::new();
    if let Some(line) = status.line() {
        end.push_str(line);
        end.push('\n');
    }
    if options.statistics {
        statistics(&mut end, compiled, options, found, &result, learned);
    }
    printer.end(&end)?;
    Ok(RunSummary {
        solutions: found,
        status,
        result,
    })
}

/// The `%%%mzn-stat:` lines, closed by `%%%mzn-stat-end`.
fn statistics(
    out: &mut String,
    compiled: &Compiled,
    options: &RunOptions,
    found: u64,
    result: &SearchResult,
    learned: Option<(u64, u64)>,
) {
    let model = compiled.model();
    let mut stat = |name: &str, value: &dyn std::fmt::Display| {
        let _ = writeln!(out, "%%%mzn-stat: {name}={value}");
    };
    stat(
        "initTime",
        &format_args!("{:.6}", options.init_time.as_secs_f64()),
    );
    stat(
        "solveTime",
        &format_args!("{:.6}", result.elapsed.as_secs_f64()),
    );
    stat("solutions", &found);
    stat("variables", &model.num_vars());
    stat("propagators", &model.num_constraints());
    stat("propagations", &result.propagations);
    stat("nodes", &result.stats.nodes);
    stat("failures", &result.stats.dead_ends);
    stat("restarts", &result.stats.restarts);
    stat("peakDepth", &result.stats.max_depth);
    // Under learning, how many clauses it learned and their mean length: what tells strong
    // explanations from weak ones when comparing runs.
    if let Some((clauses, literals)) = learned {
        stat("learnedClauses", &clauses);
        let mean = literals as f64 / clauses.max(1) as f64;
        stat("learnedLiteralsMean", &format_args!("{mean:.1}"));
    }
    if model.objective() != Objective::Satisfy {
        let objective = result
            .solution
            .as_deref()
            .and_then(|values| compiled.objective_value(values));
        if let Some(objective) = objective {
            stat("objective", &objective);
        }
        let bound = match objective {
            Some(objective) if result.outcome == Outcome::Optimal => Some(objective),
            _ => root_bound(model),
        };
        if let Some(bound) = bound {
            stat("objectiveBound", &bound);
        }
    }
    out.push_str("%%%mzn-stat-end\n");
}

/// The objective's bound after propagation at the root (its smallest possible value when
/// minimising, its largest when maximising), or `None` without an objective or when the root fails.
pub fn root_bound(model: &Model) -> Option<i64> {
    let objective = model.objective();
    let var = objective.var()?;
    let mut store = Store::new(model);
    store.establish_arc_consistency(model).ok()?;
    let domain = store.domain(var);
    Some(i64::from(match objective {
        Objective::Maximize(_) => domain.ub(),
        _ => domain.lb(),
    }))
}

/// The large-neighbourhood search of a compiled model: its decision variables, and its output
/// arrays as grids.
fn lns_config(compiled: &Compiled) -> LnsConfig {
    LnsConfig {
        vars: compiled.decision_vars().to_vec(),
        grids: compiled.grids(),
        ..LnsConfig::default()
    }
}

/// What a run does with each solution: checks it, prints it (or holds the best back), and counts
/// it against `-n`.
struct Collector<'a, P: ?Sized> {
    compiled: &'a Compiled,
    printer: &'a mut P,
    print_each: bool,
    wanted: Option<u64>,
    found: u64,
    best: Option<String>,
}

impl<P: Printer + ?Sized> Collector<'_, P> {
    /// Takes a solution; returns whether the run should go on.
    fn accept(&mut self, values: &[i32]) -> Result<bool, RunError> {
        self.compiled.verify(values).map_err(RunError::Verify)?;
        self.found += 1;
        let mut text = self.compiled.output().format(values);
        text.push_str(SOLUTION_END);
        if self.print_each {
            self.printer.solution(&text)?;
        } else {
            self.printer.best_so_far(&text)?;
            self.best = Some(text);
        }
        Ok(self.wanted.is_none_or(|w| self.found < w))
    }
}

/// `-p N`: the portfolio's workers, each a different search (see [`workers`]), sharing the bound.
fn portfolio<P: Printer + ?Sized>(
    compiled: &Compiled,
    options: &RunOptions,
    config: &SearchConfig,
    collector: &mut Collector<'_, P>,
) -> Result<SearchResult, RunError> {
    let model = compiled.model();
    let started = Instant::now();
    let portfolio = PortfolioConfig {
        workers: workers(compiled, options, config),
        deterministic: options.deterministic,
        epoch: DETERMINISTIC_EPOCH,
        time: config.limits.time,
    };
    let mut error = None;
    let mut best: Option<Vec<i32>> = None;
    let result = run_portfolio(model, &portfolio, |values, _| {
        best = Some(values.to_vec());
        match collector.accept(values) {
            Ok(true) => ControlFlow::Continue(()),
            Ok(false) => ControlFlow::Break(()),
            Err(e) => {
                error = Some(e);
                ControlFlow::Break(())
            }
        }
    });
    if let Some(error) = error {
        return Err(error);
    }
    let objective = model
        .objective()
        .var()
        .and_then(|var| best.as_ref().map(|values| values[var.index()]));
    Ok(SearchResult {
        outcome: result.outcome,
        stats: result.stats,
        elapsed: started.elapsed(),
        solution: best,
        objective,
        propagations: result.propagations,
    })
}

/// Nodes between two meetings of a deterministic portfolio.
const DETERMINISTIC_EPOCH: u64 = 10_000;

/// The portfolio's workers: the model's own search first (with large-neighbourhood search as
/// `options` say), then free search with neighbourhoods, then the model's search without them,
/// then free and annotated searches in turn, each with a seed of its own, so that no two search
/// the same tree.
fn workers(compiled: &Compiled, options: &RunOptions, config: &SearchConfig) -> Vec<Worker> {
    let optimising = compiled.model().objective() != Objective::Satisfy;
    let annotated = config.clone();
    let split = options.splits(optimising);
    let free = SearchConfig {
        seed: config.seed,
        limits: config.limits,
        ..compiled.search_config(true)
    };
    (0..options.threads.max(1))
        .map(|i| {
            let (base, lns) = match i {
                // A split tree's subproblems are searched the same way by every worker, so that
                // none holds the last subproblem long after the others are done; under an
                // objective each worker's neighbourhoods alternate with its subproblems.
                _ if split => (&annotated, options.lns),
                0 => (&annotated, options.lns),
                1 => (&free, true),
                2 => (&annotated, false),
                _ if i % 2 == 1 => (&free, true),
                _ => (&annotated, true),
            };
            let mut config = base.clone();
            config.seed = base.seed.wrapping_add(i as u64);
            Worker {
                config,
                lns: (optimising && lns).then(|| lns_config(compiled)),
                split,
            }
        })
        .collect()
}

/// The search a run makes: the tree alone, or with large-neighbourhood search.
enum Engine<'m> {
    Tree(Box<Search<'m>>),
    Lns(Box<LnsSearch<'m>>),
    Interleaved(Box<Interleaved<'m>>),
}

impl Engine<'_> {
    fn next_solution<O: SearchObserver>(&mut self, observer: &mut O) -> Option<&[i32]> {
        match self {
            Engine::Tree(search) => search.next_solution(observer),
            Engine::Lns(search) => search.next_solution(observer),
            Engine::Interleaved(search) => search.next_solution(observer),
        }
    }

    fn outcome(&self) -> Option<Outcome> {
        match self {
            Engine::Tree(search) => search.outcome(),
            Engine::Lns(search) => search.outcome(),
            Engine::Interleaved(search) => search.outcome(),
        }
    }

    /// The result, its outcome `Stopped` while the search is not over.
    fn result_with_outcome(&self) -> SearchResult {
        let mut result = match self {
            Engine::Tree(search) => search.result(),
            Engine::Lns(search) => search.result(),
            Engine::Interleaved(search) => search.result(),
        };
        result.outcome = self.outcome().unwrap_or(Outcome::Stopped);
        result
    }
}
