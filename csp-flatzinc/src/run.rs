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
use std::ops::ControlFlow;
use std::time::Instant;

use csp_core::{Model, Objective, Store};
use csp_search::portfolio::{PortfolioConfig, run_portfolio};
use csp_search::{Outcome, SearchObserver, SearchResult};

pub use crate::options::{Learns, RunOptions, parse_profile, profile_name};
use crate::plan::{Searches, plan};
use crate::{Compiled, VerifyError};

/// The separator the specification prints after every solution.
pub const SOLUTION_END: &str = "----------\n";

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

    /// A verified solution's values, one per variable of the compiled model (by index), before
    /// its text: a caller that keeps values rather than text (the Python package) reads them here.
    /// Returning `false` ends the run after this solution. The default keeps nothing.
    fn values(&mut self, values: &[i32]) -> bool {
        let _ = values;
        true
    }

    /// Whether the printer reads the solutions' text; one that does not spares the run formatting
    /// it. Default: it does.
    fn wants_text(&self) -> bool {
        true
    }
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
    let plan = plan(compiled, options);
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
    let learning = match &plan.searches {
        Searches::One(one) => one.learns(),
        Searches::Portfolio(portfolio) => portfolio
            .workers
            .iter()
            .any(|worker| worker.config.conflicts.learns()),
    };
    let result = match &plan.searches {
        Searches::Portfolio(portfolio) => {
            run_portfolio_collecting(model, portfolio, &mut collector)?
        }
        Searches::One(one) => {
            let mut search = one.build(model);
            let past_deadline = || options.deadline.is_some_and(|d| Instant::now() >= d);
            let mut timed_out = options.deadline.is_some_and(|d| d <= Instant::now());
            while !timed_out {
                let Some(values) = search.next(observer) else {
                    break;
                };
                if !collector.accept(values)? {
                    break;
                }
                timed_out = past_deadline();
            }
            let mut result = search.result();
            result.outcome = search.outcome().unwrap_or(Outcome::Stopped);
            result
        }
    };
    let learned = learning.then_some(Learned {
        clauses: result.stats.learned_clauses,
        literals: result.stats.learned_literals,
        fallbacks: result.stats.explanation_fallbacks,
    });
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

/// What a learning run reports of its clauses in the statistics.
struct Learned {
    /// Clauses learned from failures.
    clauses: u64,
    /// Their literals in all, for the mean length.
    literals: u64,
    /// Explanations that fell back on a scope's domains
    /// ([`csp_search::Statistics::explanation_fallbacks`]).
    fallbacks: u64,
}

/// The `%%%mzn-stat:` lines, closed by `%%%mzn-stat-end`.
fn statistics(
    out: &mut String,
    compiled: &Compiled,
    options: &RunOptions,
    found: u64,
    result: &SearchResult,
    learned: Option<Learned>,
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
    if let Some(learned) = learned {
        stat("learnedClauses", &learned.clauses);
        let mean = learned.literals as f64 / learned.clauses.max(1) as f64;
        stat("learnedLiteralsMean", &format_args!("{mean:.1}"));
        stat("explanationFallbacks", &learned.fallbacks);
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
        let go_on = self.printer.values(values);
        if self.printer.wants_text() {
            let mut text = self.compiled.output().format(values);
            text.push_str(SOLUTION_END);
            if self.print_each {
                self.printer.solution(&text)?;
            } else {
                self.printer.best_so_far(&text)?;
                self.best = Some(text);
            }
        }
        Ok(go_on && self.wanted.is_none_or(|w| self.found < w))
    }
}

/// `-p N`: the searches on threads, sharing the bound, each solution collected on this thread.
fn run_portfolio_collecting<P: Printer + ?Sized>(
    model: &Model,
    portfolio: &PortfolioConfig,
    collector: &mut Collector<'_, P>,
) -> Result<SearchResult, RunError> {
    let started = Instant::now();
    let mut error = None;
    let mut best: Option<Vec<i32>> = None;
    let result = run_portfolio(model, portfolio, |values, _| {
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
