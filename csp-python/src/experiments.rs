//! The N-queens experiments people run in notebooks, as plain Python data: Stone & Stone's online
//! estimate and Knuth's probes of the full tree, the heuristic comparison of their Tables 1 and 2
//! and the profiles by depth of their Figures 1 and 3 as lists of records (ready for
//! `pandas.DataFrame`), and search traces as records or in the engine's stable text format.
//!
//! The strategy keywords (`order`, `ties`, `values`, `propagation`, `restarts`, `restart_base`,
//! `seed`) take the command line's names and meaning ([`csp_search::SearchChoices`] over
//! [`nqueens_model::search_defaults`]), so a notebook reproduces `csp queens …` exactly.

use std::ops::ControlFlow;
use std::time::{Duration, Instant};

use clap::ValueEnum;
use csp_search::{
    Decision, Limits, Propagation, SearchChoices, SearchConfig, SearchEvent, SearchObserver,
    Statistics, StopFlag, TiePolicy, TraceRecorder, TreeSizeEstimator, ValueOrderKind,
    VariableOrderKind, knuth_probes, solve,
};
use nqueens_model::Encoding;
use nqueens_model::experiment::{self, Experiment, stone_tables, terse_profile};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyString};

use crate::interrupt::interruptible;

/// The names a value enum of the libraries takes (its command-line names).
fn names<E: ValueEnum>() -> Vec<String> {
    E::value_variants()
        .iter()
        .filter_map(|v| v.to_possible_value())
        .map(|v| v.get_name().to_owned())
        .collect()
}

/// The command-line name of `value`.
fn name_of<E: ValueEnum>(value: E) -> String {
    value
        .to_possible_value()
        .map_or_else(String::new, |v| v.get_name().to_owned())
}

/// `text` as a value of `E`, or a `ValueError` naming the keyword and every accepted name.
fn parse<E: ValueEnum>(keyword: &str, text: &str) -> PyResult<E> {
    E::from_str(text, false).map_err(|_| {
        PyValueError::new_err(format!(
            "unknown {keyword} `{text}`: expected one of {}",
            names::<E>().join(", ")
        ))
    })
}

/// The strategy keywords every engine experiment takes, as Python passed them.
struct StrategyArgs<'a> {
    order: Option<&'a str>,
    ties: Option<&'a str>,
    values: Option<&'a str>,
    propagation: Option<&'a str>,
    restarts: Option<&'a str>,
    restart_base: Option<u64>,
    seed: u64,
}

impl StrategyArgs<'_> {
    /// The engine configuration for an `n`-queens board: the command line's rule, the fast preset
    /// until a strategy is chosen and then Stone & Stone's MIN with the choices put in.
    fn config(&self, n: usize) -> PyResult<SearchConfig> {
        let restarts = match self.restarts {
            None => None,
            Some("luby") => Some(true),
            Some("none") => Some(false),
            Some(other) => {
                return Err(PyValueError::new_err(format!(
                    "unknown restarts `{other}`: expected one of luby, none"
                )));
            }
        };
        if self.restart_base == Some(0) {
            return Err(PyValueError::new_err("restart_base must be at least 1"));
        }
        let choices = SearchChoices {
            order: self.order.map(|t| parse("order", t)).transpose()?,
            ties: self.ties.map(|t| parse("ties", t)).transpose()?,
            values: self.values.map(|t| parse("values", t)).transpose()?,
            propagation: self
                .propagation
                .map(|t| parse("propagation", t))
                .transpose()?,
            restarts,
            restart_base: self.restart_base,
            seed: self.seed,
        };
        Ok(choices.config(nqueens_model::search_defaults(n)))
    }
}

/// The board's model in `encoding`, or a `ValueError` (an unknown encoding, a board too large).
fn board(n: usize, encoding: &str) -> PyResult<csp_core::Model> {
    let encoding: Encoding = encoding
        .parse()
        .map_err(|e: nqueens_model::ParseNameError| PyValueError::new_err(e.to_string()))?;
    nqueens_model::model(n, encoding).map_err(|e| PyValueError::new_err(e.to_string()))
}

/// Puts the resolved strategy of `config` into `dict`, by the command line's names.
fn describe(dict: &Bound<'_, PyDict>, config: &SearchConfig) -> PyResult<()> {
    dict.set_item("order", name_of(config.variable_order))?;
    dict.set_item("ties", name_of(config.ties))?;
    dict.set_item("values", name_of(config.value_order))?;
    dict.set_item("propagation", name_of(config.propagation))?;
    dict.set_item("restart_base", config.restarts.map(|r| r.base_nodes))?;
    dict.set_item("seed", config.seed)?;
    Ok(())
}

/// A finite estimate, or `None` (an estimate beyond a double's range is never `inf`).
fn finite(x: f64) -> Option<f64> {
    x.is_finite().then_some(x)
}

/// Estimates the size of the whole search tree of `n` queens and its number of solutions, as
/// `csp queens estimate` does: online by Stone & Stone's method from a search stopped after
/// `solutions` solutions, or from `probes` random probes (Knuth 1975). Returns a dict:
/// `n`, `method` (`"online"` or `"probes"`), `outcome` (`"estimated"` or `"limit"`), `limit`,
/// `estimated_tree_size`, `estimated_solutions` (`None` beyond a double's range, with
/// `estimate_overflows`), `nodes_visited` and `solutions_found` (online), `probes`, `std_error`
/// and `solutions_std_error` (probes), the strategy that ran, and `seconds`.
#[pyfunction]
#[pyo3(signature = (
    n, solutions=1, probes=None, *, order=None, ties=None, values=None, propagation=None,
    restarts=None, restart_base=None, seed=0, encoding="counters", time_limit=None, node_limit=None
))]
#[allow(clippy::too_many_arguments)]
fn queens_estimate<'py>(
    py: Python<'py>,
    n: usize,
    solutions: u64,
    probes: Option<u64>,
    order: Option<&str>,
    ties: Option<&str>,
    values: Option<&str>,
    propagation: Option<&str>,
    restarts: Option<&str>,
    restart_base: Option<u64>,
    seed: u64,
    encoding: &str,
    time_limit: Option<f64>,
    node_limit: Option<u64>,
) -> PyResult<Bound<'py, PyDict>> {
    let started = Instant::now();
    if solutions == 0 {
        return Err(PyValueError::new_err("solutions must be at least 1"));
    }
    if probes == Some(0) {
        return Err(PyValueError::new_err("probes must be at least 1"));
    }
    if probes.is_some() && node_limit.is_some() {
        return Err(PyValueError::new_err(
            "probes count no nodes: bound them with time_limit, or fewer probes",
        ));
    }
    let strategy = StrategyArgs {
        order,
        ties,
        values,
        propagation,
        restarts,
        restart_base,
        seed,
    };
    let mut config = strategy.config(n)?;
    let model = board(n, encoding)?;
    let time = crate::interrupt::time_limit(time_limit)?;
    config.solution_limit = Some(solutions);
    config.limits = Limits {
        nodes: node_limit,
        time,
        ..Limits::default()
    };
    let stop = StopFlag::new();
    config.stop = Some(stop.clone());
    let dict = PyDict::new(py);
    dict.set_item("n", n)?;
    match probes {
        Some(probes) => {
            // Probes keep no clock: a timer raises the stop flag when the time is up.
            let estimate = interruptible(
                py,
                || stop.stop(),
                || with_timer(time, &stop, || knuth_probes(&model, &config, probes)),
            )?;
            let (done, timed_out) = estimate;
            let overflows = !done.tree_size.is_finite() || !done.solutions.is_finite();
            let meaningful = |x: f64| (x.is_finite() && !overflows).then_some(x);
            dict.set_item("method", "probes")?;
            dict.set_item(
                "outcome",
                if timed_out && done.probes < probes {
                    "limit"
                } else {
                    "estimated"
                },
            )?;
            dict.set_item(
                "limit",
                (timed_out && done.probes < probes).then_some("time"),
            )?;
            // No probe made, no estimate.
            let made = done.probes > 0;
            dict.set_item(
                "estimated_tree_size",
                made.then(|| finite(done.tree_size)).flatten(),
            )?;
            dict.set_item(
                "estimated_solutions",
                made.then(|| finite(done.solutions)).flatten(),
            )?;
            dict.set_item("estimate_overflows", overflows)?;
            dict.set_item("nodes_visited", None::<u64>)?;
            dict.set_item("solutions_found", None::<u64>)?;
            dict.set_item("probes", done.probes)?;
            dict.set_item("std_error", meaningful(done.tree_size_std_error))?;
            dict.set_item("solutions_std_error", meaningful(done.solutions_std_error))?;
        }
        None => {
            let mut estimator = TreeSizeEstimator::new();
            let result = interruptible(
                py,
                || stop.stop(),
                || solve(&model, &config, &mut estimator),
            )?;
            let (size, found) = (
                estimator.estimated_tree_size(),
                estimator.estimated_solutions(),
            );
            let limit = result.outcome.limit().map(|limit| limit.name());
            dict.set_item("method", "online")?;
            dict.set_item(
                "outcome",
                if limit.is_some() {
                    "limit"
                } else {
                    "estimated"
                },
            )?;
            dict.set_item("limit", limit)?;
            dict.set_item("estimated_tree_size", finite(size))?;
            dict.set_item("estimated_solutions", finite(found))?;
            dict.set_item(
                "estimate_overflows",
                !size.is_finite() || !found.is_finite(),
            )?;
            dict.set_item("nodes_visited", result.stats.tree_nodes())?;
            dict.set_item("solutions_found", result.stats.solutions)?;
            dict.set_item("probes", None::<u64>)?;
            dict.set_item("std_error", None::<f64>)?;
            dict.set_item("solutions_std_error", None::<f64>)?;
        }
    }
    describe(&dict, &config)?;
    dict.set_item("encoding", encoding)?;
    dict.set_item("seconds", started.elapsed().as_secs_f64())?;
    Ok(dict)
}

/// Runs `work`, raising `stop` once `time` has passed; returns its result and whether the timer
/// raised the flag.
fn with_timer<T>(time: Option<Duration>, stop: &StopFlag, work: impl FnOnce() -> T) -> (T, bool) {
    let Some(time) = time else {
        return (work(), false);
    };
    let (done, finished) = std::sync::mpsc::channel::<()>();
    std::thread::scope(|scope| {
        let timer = scope.spawn(move || {
            let timed_out = finished.recv_timeout(time).is_err();
            if timed_out {
                stop.stop();
            }
            timed_out
        });
        let result = work();
        // The timer waits on this channel; a failed send means it has already fired.
        let _ = done.send(());
        let timed_out = timer.join().unwrap_or(false);
        (result, timed_out)
    })
}

/// Stone & Stone's comparison of orderings (*Efficient Search Techniques — An Empirical Study of
/// the N-Queens Problem*, 1987) over the boards `sizes`: for each board, ordering and number of
/// `solutions` after which a terse search stops, and for the whole tree, one record with `n`,
/// `order`, `propagation`, `solutions` (`None`: the whole tree), `within_budget`, `no_solution`,
/// `backtracks_per_solution` (their Table 2), `estimated_tree_size` (the online estimate, their
/// Table 1) and `actual_tree_size` (root included). LEX runs check-past and MIN forward checking,
/// as in the paper, unless `propagation` says otherwise; `ties_random` averages MIN's random ties
/// over seeds `0..seeds`; each search stops at `budget` nodes. The same cells as
/// `csp queens compare --format json`.
#[pyfunction]
#[pyo3(signature = (
    sizes, *, orders=vec!["lex".to_owned(), "min".to_owned()], propagation=None,
    solutions=vec![1, 10], ties_random=false, seeds=1, budget=10_000_000
))]
#[allow(clippy::too_many_arguments)]
fn queens_compare<'py>(
    py: Python<'py>,
    sizes: Vec<usize>,
    orders: Vec<String>,
    propagation: Option<&str>,
    solutions: Vec<u64>,
    ties_random: bool,
    seeds: u64,
    budget: u64,
) -> PyResult<Bound<'py, PyList>> {
    if sizes.is_empty() || orders.is_empty() {
        return Err(PyValueError::new_err(
            "sizes and orders must each name at least one",
        ));
    }
    if let Some(&n) = sizes.iter().find(|&&n| n == 0) {
        return Err(PyValueError::new_err(format!(
            "board sizes start at 1, not {n}"
        )));
    }
    if solutions.contains(&0) || seeds == 0 || budget == 0 {
        return Err(PyValueError::new_err(
            "solutions, seeds and budget must each be at least 1",
        ));
    }
    let stop = StopFlag::new();
    let experiment = Experiment {
        sizes,
        orders: orders
            .iter()
            .map(|o| parse::<VariableOrderKind>("order", o))
            .collect::<PyResult<_>>()?,
        propagation: propagation.map(|p| parse("propagation", p)).transpose()?,
        solutions,
        ties_random,
        seeds,
        budget,
        stop: Some(stop.clone()),
    };
    let cells = interruptible(py, || stop.stop(), || stone_tables(&experiment))?
        .map_err(|e| PyValueError::new_err(e.to_string()))?;
    let records = PyList::empty(py);
    for cell in cells {
        records.append(cell_record(py, &cell)?)?;
    }
    Ok(records)
}

/// One cell of the comparison as a dict.
fn cell_record<'py>(py: Python<'py>, cell: &experiment::Cell) -> PyResult<Bound<'py, PyDict>> {
    let record = PyDict::new(py);
    record.set_item("n", cell.n)?;
    record.set_item("order", name_of(cell.order))?;
    record.set_item("propagation", name_of(cell.propagation))?;
    record.set_item("solutions", cell.solutions)?;
    record.set_item("within_budget", cell.within_budget)?;
    record.set_item("no_solution", cell.no_solution)?;
    record.set_item("backtracks_per_solution", cell.backtracks_per_solution)?;
    record.set_item("estimated_tree_size", cell.estimated_tree_size)?;
    record.set_item("actual_tree_size", cell.actual_tree_size)?;
    Ok(record)
}

/// The profile by depth of one terse search of `n` queens (stopped at its first solution, seed 0)
/// under `order`, as in Stone & Stone's Figures 1 (the average branching factor) and 3 (the
/// backtracks): one record per level with `level` (the root is 1), `depth` (queens placed),
/// `nodes`, `expanded`, `choices`, `avg_choices` and `backtracks`. Propagation and ties as in
/// [`queens_compare`].
#[pyfunction]
#[pyo3(signature = (n, order="min", *, propagation=None, ties_random=false, budget=10_000_000))]
fn queens_profile<'py>(
    py: Python<'py>,
    n: usize,
    order: &str,
    propagation: Option<&str>,
    ties_random: bool,
    budget: u64,
) -> PyResult<Bound<'py, PyList>> {
    if budget == 0 {
        return Err(PyValueError::new_err("budget must be at least 1"));
    }
    let order: VariableOrderKind = parse("order", order)?;
    let stop = StopFlag::new();
    let experiment = Experiment {
        sizes: vec![n],
        orders: vec![order],
        propagation: propagation.map(|p| parse("propagation", p)).transpose()?,
        ties_random,
        budget,
        stop: Some(stop.clone()),
        ..Experiment::default()
    };
    let stats: Statistics =
        interruptible(py, || stop.stop(), || terse_profile(&experiment, n, order))?
            .map_err(|e| PyValueError::new_err(e.to_string()))?;
    let records = PyList::empty(py);
    for (i, level) in stats.per_level.iter().enumerate() {
        let record = PyDict::new(py);
        record.set_item("level", i + 1)?;
        record.set_item("depth", i)?;
        record.set_item("nodes", level.nodes)?;
        record.set_item("expanded", level.expanded)?;
        record.set_item("choices", level.choices)?;
        record.set_item("avg_choices", level.avg_choices())?;
        record.set_item("backtracks", level.backtracks)?;
        records.append(record)?;
    }
    Ok(records)
}

/// One search event, owned, as the trace keeps it until Python takes it.
enum Event {
    Enter { level: u32, var: u32, choices: u32 },
    Assign { level: u32, var: u32, value: i32 },
    Undo { level: u32, var: u32, value: i32 },
    Decide { level: u32, decision: Decision },
    Retract { level: u32, decision: Decision },
    DeadEnd { level: u32 },
    Restart { count: u64 },
    Solution { level: u32, values: Vec<i32> },
    Stopped { events: u64 },
}

/// Keeps every event of a search, up to a limit, then stops it (as [`TraceRecorder`] does).
struct EventLog {
    events: Vec<Event>,
    limit: u64,
}

impl SearchObserver for EventLog {
    fn on_event(&mut self, event: &SearchEvent<'_>) -> ControlFlow<()> {
        let recorded = self.events.len() as u64;
        if recorded >= self.limit {
            self.events.push(Event::Stopped { events: recorded });
            return ControlFlow::Break(());
        }
        let var = |v: csp_core::VarId| v.index() as u32;
        self.events.push(match *event {
            SearchEvent::Enter {
                level,
                var: v,
                choices,
            } => Event::Enter {
                level,
                var: var(v),
                choices,
            },
            SearchEvent::Assign {
                level,
                var: v,
                value,
            } => Event::Assign {
                level,
                var: var(v),
                value,
            },
            SearchEvent::Undo {
                level,
                var: v,
                value,
            } => Event::Undo {
                level,
                var: var(v),
                value,
            },
            SearchEvent::Decide { level, decision } => Event::Decide { level, decision },
            SearchEvent::Retract { level, decision } => Event::Retract { level, decision },
            SearchEvent::DeadEnd { level } => Event::DeadEnd { level },
            SearchEvent::Restart { count } => Event::Restart { count },
            SearchEvent::Solution { level, values, .. } => Event::Solution {
                level,
                values: values.to_vec(),
            },
        });
        ControlFlow::Continue(())
    }
}

/// The relation and value of a decision, as the trace's text writes them.
fn relation(decision: Decision) -> (&'static str, i32) {
    match decision {
        Decision::Assign(_, v) => ("=", v),
        Decision::Exclude(_, v) => ("!=", v),
        Decision::AtMost(_, v) => ("<=", v),
        Decision::AtLeast(_, v) => (">=", v),
    }
}

/// The search's events on `n` queens as records, one dict per event in the order they happened:
/// `event` (`"enter"`, `"assign"`, `"undo"`, `"decide"`, `"retract"`, `"deadend"`, `"restart"`,
/// `"solution"`, and `"stopped"` when `limit` events ended the search), `level` (the root is 1),
/// and by kind `var` (the variable's name, `q<row>`) with `row`, `choices`, `value`, `relation`
/// (decisions), `count` (restarts), `values` (a solution's columns by row) or `events`. With
/// `text=True`, the trace in the engine's stable text format instead (`csp queens trace`'s
/// output, the format of the committed snapshots). The search stops after `solutions` solutions
/// (`None`: all); the strategy keywords are as for [`queens_estimate`].
#[pyfunction]
#[pyo3(signature = (
    n, solutions=Some(1), *, limit=1_000_000, order=None, ties=None, values=None, propagation=None,
    restarts=None, restart_base=None, seed=0, encoding="counters", text=false
))]
#[allow(clippy::too_many_arguments)]
fn queens_trace<'py>(
    py: Python<'py>,
    n: usize,
    solutions: Option<u64>,
    limit: u64,
    order: Option<&str>,
    ties: Option<&str>,
    values: Option<&str>,
    propagation: Option<&str>,
    restarts: Option<&str>,
    restart_base: Option<u64>,
    seed: u64,
    encoding: &str,
    text: bool,
) -> PyResult<Bound<'py, PyAny>> {
    if solutions == Some(0) || limit == 0 {
        return Err(PyValueError::new_err(
            "solutions and limit must each be at least 1",
        ));
    }
    let strategy = StrategyArgs {
        order,
        ties,
        values,
        propagation,
        restarts,
        restart_base,
        seed,
    };
    let mut config = strategy.config(n)?;
    config.solution_limit = solutions;
    let model = board(n, encoding)?;
    let stop = StopFlag::new();
    config.stop = Some(stop.clone());
    if text {
        let mut recorder = TraceRecorder::new(&model, Some(limit));
        interruptible(py, || stop.stop(), || solve(&model, &config, &mut recorder))?;
        return Ok(PyString::new(py, recorder.text()).into_any());
    }
    let mut log = EventLog {
        events: Vec::new(),
        limit,
    };
    interruptible(py, || stop.stop(), || solve(&model, &config, &mut log))?;
    // One Python string per variable, shared by every record that names it.
    let names: Vec<Bound<'py, PyString>> = model
        .vars()
        .map(|v| PyString::new(py, model.name(v)))
        .collect();
    let records = PyList::empty(py);
    for event in log.events {
        let record = PyDict::new(py);
        let set_var = |record: &Bound<'py, PyDict>, var: u32| -> PyResult<()> {
            record.set_item("var", &names[var as usize])?;
            record.set_item("row", var)
        };
        match event {
            Event::Enter {
                level,
                var,
                choices,
            } => {
                record.set_item("event", "enter")?;
                record.set_item("level", level)?;
                set_var(&record, var)?;
                record.set_item("choices", choices)?;
            }
            Event::Assign { level, var, value } | Event::Undo { level, var, value } => {
                let kind = if matches!(event, Event::Assign { .. }) {
                    "assign"
                } else {
                    "undo"
                };
                record.set_item("event", kind)?;
                record.set_item("level", level)?;
                set_var(&record, var)?;
                record.set_item("value", value)?;
            }
            Event::Decide { level, decision } | Event::Retract { level, decision } => {
                let kind = if matches!(event, Event::Decide { .. }) {
                    "decide"
                } else {
                    "retract"
                };
                let (relation, value) = relation(decision);
                record.set_item("event", kind)?;
                record.set_item("level", level)?;
                set_var(&record, decision.var().index() as u32)?;
                record.set_item("relation", relation)?;
                record.set_item("value", value)?;
            }
            Event::DeadEnd { level } => {
                record.set_item("event", "deadend")?;
                record.set_item("level", level)?;
            }
            Event::Restart { count } => {
                record.set_item("event", "restart")?;
                record.set_item("level", 1)?;
                record.set_item("count", count)?;
            }
            Event::Solution { level, values } => {
                record.set_item("event", "solution")?;
                record.set_item("level", level)?;
                record.set_item("values", values)?;
            }
            Event::Stopped { events } => {
                record.set_item("event", "stopped")?;
                record.set_item("events", events)?;
            }
        }
        records.append(record)?;
    }
    Ok(records.into_any())
}

/// The names each strategy keyword accepts: `order`, `ties`, `values`, `propagation`,
/// `restarts` and `encoding`, each a list of names (the command line's).
#[pyfunction]
fn search_options(py: Python<'_>) -> PyResult<Bound<'_, PyDict>> {
    let dict = PyDict::new(py);
    dict.set_item("order", names::<VariableOrderKind>())?;
    dict.set_item("ties", names::<TiePolicy>())?;
    dict.set_item("values", names::<ValueOrderKind>())?;
    dict.set_item("propagation", names::<Propagation>())?;
    dict.set_item("restarts", vec!["luby", "none"])?;
    dict.set_item("encoding", vec!["pairwise", "counters"])?;
    Ok(dict)
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(queens_estimate, m)?)?;
    m.add_function(wrap_pyfunction!(queens_compare, m)?)?;
    m.add_function(wrap_pyfunction!(queens_profile, m)?)?;
    m.add_function(wrap_pyfunction!(queens_trace, m)?)?;
    m.add_function(wrap_pyfunction!(search_options, m)?)?;
    Ok(())
}
