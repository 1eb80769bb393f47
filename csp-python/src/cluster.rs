//! The native half of `rcsp.cluster`, the counts and searches a Dask cluster runs: one shard of an
//! N-queens count returned as the text of the counter's own shard-result file, those texts checked
//! and merged by the counter's merge, and one FlatZinc model split into subproblems by the engine's
//! own brancher and searched one subproblem at a time, under a bound the caller gives.
//!
//! This is embarrassingly parallel search (Malapert, Régin & Rezgui, *Embarrassingly Parallel
//! Search in Constraint Programming*, JAIR 57, 2016): the tree is split into many more subproblems
//! than workers, each searched with no communication but the bound handed to it when it starts.
//! Everything that crosses between machines is plain data (text, integers, tuples), so that Dask
//! can ship it, and a task that runs twice gives the same answer twice.

use std::hash::{DefaultHasher, Hash, Hasher};
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use csp_core::{Objective, VarId};
use csp_flatzinc::Compiled;
use csp_flatzinc::output::OutputKind;
use csp_search::split::split_tree;
use csp_search::{Decision, Outcome, Search, SharedBound, Solutions, StopFlag};
use nqueens_count::{CountOptions, Shard, ShardResult, merge};
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};

use crate::interrupt::interruptible;
use crate::queens::count_kind;

/// How many subproblems the count of `kind` on the n × n board is split into: the most shards
/// that each get one. Refuses a board the counter cannot take.
#[pyfunction]
#[pyo3(signature = (n, kind="solutions"))]
fn queens_subproblems(n: usize, kind: &str) -> PyResult<usize> {
    nqueens_count::subproblems(n, count_kind(kind)?)
        .map_err(|e| PyValueError::new_err(e.to_string()))
}

/// Counts shard `index` of `of` of the count of `kind` on the n × n board, on `threads` threads,
/// stopping at `time_limit` seconds. Returns a dict: `complete` (whether every subproblem of the
/// shard was counted), `result` (the shard's result as the text of the counter's shard-result
/// file, signed; only complete results are worth keeping), `solutions` (so far), `seconds`.
#[pyfunction]
#[pyo3(signature = (n, index, of, kind="solutions", threads=1, time_limit=None))]
fn queens_count_shard<'py>(
    py: Python<'py>,
    n: usize,
    index: usize,
    of: usize,
    kind: &str,
    threads: usize,
    time_limit: Option<f64>,
) -> PyResult<Bound<'py, PyDict>> {
    let kind = count_kind(kind)?;
    let shard = Shard::new(index, of).map_err(|e| PyValueError::new_err(e.to_string()))?;
    let threads = std::num::NonZeroUsize::new(threads)
        .ok_or_else(|| PyValueError::new_err("threads must be at least 1"))?;
    let limit = crate::interrupt::time_limit(time_limit)?;
    let cancel = AtomicBool::new(false);
    let report = interruptible(
        py,
        || cancel.store(true, Ordering::Relaxed),
        || {
            let options = CountOptions {
                kind,
                threads: Some(threads),
                shard,
                cancel: Some(&cancel),
                ..CountOptions::default()
            };
            // The counter has no time limit of its own: a watcher raises its cancel flag at the
            // limit, and the shard comes back incomplete (subproblems already started finish).
            let done = AtomicBool::new(false);
            let (done, cancel) = (&done, &cancel);
            std::thread::scope(|scope| {
                if let Some(limit) = limit {
                    scope.spawn(move || {
                        let started = Instant::now();
                        while !done.load(Ordering::Relaxed) {
                            if started.elapsed() >= limit {
                                cancel.store(true, Ordering::Relaxed);
                                return;
                            }
                            std::thread::sleep(Duration::from_millis(10));
                        }
                    });
                }
                let report = nqueens_count::count(n, &options);
                done.store(true, Ordering::Relaxed);
                report
            })
        },
    )?
    .map_err(|e| PyValueError::new_err(e.to_string()))?;
    let text = report
        .result
        .to_json()
        .map_err(|e| PyRuntimeError::new_err(e.to_string()))?;
    let dict = PyDict::new(py);
    dict.set_item("complete", report.complete)?;
    dict.set_item("result", text)?;
    dict.set_item("solutions", report.answer.solutions)?;
    dict.set_item("seconds", report.elapsed.as_secs_f64())?;
    Ok(dict)
}

/// Reads one shard result from its text with every check the counter makes of a file (format,
/// checksum, counts that add up); `origin` names where it came from in an error. Returns a dict:
/// `n`, `kind`, `index`, `of`, `subproblems`, `plan`, `complete`, `solutions`.
#[pyfunction]
#[pyo3(signature = (text, origin="a shard result"))]
fn queens_shard_info<'py>(
    py: Python<'py>,
    text: &str,
    origin: &str,
) -> PyResult<Bound<'py, PyDict>> {
    let result = ShardResult::from_json(text, Path::new(origin))
        .map_err(|e| PyValueError::new_err(e.to_string()))?;
    let dict = PyDict::new(py);
    dict.set_item("n", result.n)?;
    dict.set_item("kind", result.count.name())?;
    dict.set_item("index", result.shard.index)?;
    dict.set_item("of", result.shard.of)?;
    dict.set_item("subproblems", result.subproblems)?;
    dict.set_item("plan", &result.plan)?;
    dict.set_item("complete", result.is_complete())?;
    dict.set_item("solutions", result.tally.solutions)?;
    Ok(dict)
}

/// Merges the shard results `texts` (each the text of a shard-result file, every shard of one
/// count once) with the counter's merge, which refuses a missing, duplicated, unfinished or
/// mismatched shard. Returns a dict: `n`, `kind`, `shards`, `subproblems`, `solutions`, `unique`
/// (essentially distinct solutions, for `kind="solutions"`), `nodes` (for `kind="nodes"`).
#[pyfunction]
fn queens_merge_shards<'py>(py: Python<'py>, texts: Vec<String>) -> PyResult<Bound<'py, PyDict>> {
    let results = texts
        .iter()
        .enumerate()
        .map(|(i, text)| ShardResult::from_json(text, Path::new(&format!("shard result #{i}"))))
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| PyValueError::new_err(e.to_string()))?;
    let merged = merge(&results).map_err(|e| PyValueError::new_err(e.to_string()))?;
    let dict = PyDict::new(py);
    dict.set_item("n", merged.n)?;
    dict.set_item("kind", merged.count.name())?;
    dict.set_item("shards", merged.shards)?;
    dict.set_item("subproblems", merged.subproblems)?;
    dict.set_item("solutions", merged.answer.solutions)?;
    dict.set_item("unique", merged.answer.unique)?;
    dict.set_item("nodes", merged.answer.nodes)?;
    Ok(dict)
}

/// A decision as it crosses to Python: `("=", var, value)`, `("!=", var, value)`,
/// `("<=", var, bound)` or `(">=", var, bound)`, the variable by its index in the compiled model.
type DecisionTuple = (&'static str, usize, i32);

fn decision_tuple(decision: Decision) -> DecisionTuple {
    match decision {
        Decision::Assign(var, value) => ("=", var.index(), value),
        Decision::Exclude(var, value) => ("!=", var.index(), value),
        Decision::AtMost(var, bound) => ("<=", var.index(), bound),
        Decision::AtLeast(var, bound) => (">=", var.index(), bound),
    }
}

/// A FlatZinc model compiled once and kept: what a cluster worker caches, so that each of the many
/// subproblems it searches costs only its search. `FlatZincModel(text)` compiles `text`, and refuses
/// a model that does not compile with the compiler's message.
#[pyclass(frozen, module = "rcsp")]
pub(crate) struct FlatZincModel {
    compiled: Arc<Compiled>,
    fingerprint: String,
}

impl FlatZincModel {
    /// The decisions `decisions` (as [`decision_tuple`] writes them) on this model, checked.
    fn decisions(&self, decisions: Vec<(String, usize, i64)>) -> PyResult<Vec<Decision>> {
        let vars = self.compiled.model().num_vars();
        decisions
            .into_iter()
            .map(|(op, var, value)| {
                if var >= vars {
                    return Err(PyValueError::new_err(format!(
                        "decision ({op:?}, {var}, {value}): the model has {vars} variables"
                    )));
                }
                let var = VarId::from_index(var);
                let value = i32::try_from(value).map_err(|_| {
                    PyValueError::new_err(format!(
                        "decision ({op:?}, {}, {value}): the value does not fit 32 bits",
                        var.index()
                    ))
                })?;
                match op.as_str() {
                    "=" => Ok(Decision::Assign(var, value)),
                    "!=" => Ok(Decision::Exclude(var, value)),
                    "<=" => Ok(Decision::AtMost(var, value)),
                    ">=" => Ok(Decision::AtLeast(var, value)),
                    other => Err(PyValueError::new_err(format!(
                        "unknown decision {other:?}: =, !=, <= or >="
                    ))),
                }
            })
            .collect()
    }

    /// The printed items of a solution: each output variable's value (a Boolean as `bool`), each
    /// output array as a flat list.
    fn assignment<'py>(&self, py: Python<'py>, values: &[i32]) -> PyResult<Bound<'py, PyDict>> {
        let dict = PyDict::new(py);
        for item in &self.compiled.output().items {
            let value = |elem: &csp_flatzinc::Elem| -> i64 {
                match *elem {
                    csp_flatzinc::Elem::Const(c) => c,
                    csp_flatzinc::Elem::Var(var) => i64::from(values[var.index()]),
                }
            };
            let show = |v: i64| -> PyResult<Py<PyAny>> {
                Ok(if item.boolean {
                    pyo3::types::PyBool::new(py, v != 0)
                        .to_owned()
                        .into_any()
                        .unbind()
                } else {
                    v.into_pyobject(py)?.into_any().unbind()
                })
            };
            match &item.kind {
                OutputKind::Scalar(elem) => dict.set_item(&item.name, show(value(elem))?)?,
                OutputKind::Array { elems, .. } => {
                    let list = PyList::new(
                        py,
                        elems
                            .iter()
                            .map(|e| show(value(e)))
                            .collect::<PyResult<Vec<_>>>()?,
                    )?;
                    dict.set_item(&item.name, list)?;
                }
            }
        }
        Ok(dict)
    }
}

/// A digest of what a compiled model's decisions refer to (its variables' names and domains, its
/// constraints' number), so that a worker can refuse decisions made on a model compiled
/// differently. The standard library's `DefaultHasher::new` hashes alike in every process.
fn fingerprint(compiled: &Compiled) -> String {
    let model = compiled.model();
    let mut hash = DefaultHasher::new();
    model.num_vars().hash(&mut hash);
    model.num_constraints().hash(&mut hash);
    for var in model.vars() {
        model.name(var).hash(&mut hash);
        let domain = model.initial_domain(var);
        (domain.min(), domain.max(), domain.size()).hash(&mut hash);
    }
    format!("{:016x}", hash.finish())
}

#[pymethods]
impl FlatZincModel {
    #[new]
    fn new(py: Python<'_>, text: &str) -> PyResult<Self> {
        let compiled = py.detach(|| csp_flatzinc::compile(text)).map_err(|e| {
            PyValueError::new_err(format!("the FlatZinc model does not compile: {e}"))
        })?;
        let fingerprint = fingerprint(&compiled);
        Ok(FlatZincModel {
            compiled: Arc::new(compiled),
            fingerprint,
        })
    }

    /// `"minimize"`, `"maximize"` or `None` (a satisfaction problem).
    #[getter]
    fn objective(&self) -> Option<&'static str> {
        match self.compiled.model().objective() {
            Objective::Satisfy => None,
            Objective::Minimize(_) => Some("minimize"),
            Objective::Maximize(_) => Some("maximize"),
        }
    }

    /// A digest of the compiled model's variables and constraints: equal on every machine that
    /// compiled the same text the same way, so that decisions made on one apply on another.
    #[getter]
    fn fingerprint(&self) -> &str {
        &self.fingerprint
    }

    /// How many variables the compiled model has (what decisions index).
    #[getter]
    fn num_vars(&self) -> usize {
        self.compiled.model().num_vars()
    }

    /// About `target` subproblems of the model's search tree, split by the engine's own brancher
    /// (`csp_search::split_tree`, the model's search annotations, or free search with
    /// `free_search`), in the tree's left-to-right order: each a list of decisions
    /// (`("=", var, value)`, `("!=", …)`, `("<=", …)`, `(">=", …)`). They partition the tree:
    /// every solution lies in exactly one.
    #[pyo3(signature = (target, free_search=false))]
    fn split(&self, py: Python<'_>, target: usize, free_search: bool) -> Vec<Vec<DecisionTuple>> {
        let compiled = &self.compiled;
        py.detach(|| {
            let config = compiled.search_config(free_search);
            split_tree(compiled.model(), &config, target.max(1))
        })
        .into_iter()
        .map(|path| path.into_iter().map(decision_tuple).collect())
        .collect()
    }

    /// Searches the subproblem under `decisions` (all of the tree when empty) by the same search
    /// [`Self::split`] splits with, without learning (so that the subproblems' searches are the
    /// pieces of one tree). `mode`: `"all"` counts every solution (`keep_solutions` keeps them),
    /// `"first"` stops at the first, `"best"` finds the subtree's best solution strictly better
    /// than `bound` (branch and bound; a model with an objective only). Stops at `time_limit`
    /// seconds. Every solution is checked by the compiler's verifier. Returns a dict: `complete`
    /// (the subtree was searched through, so what it holds is known), `solutions` (found),
    /// `objective` and `solution` (the best, or the first, as `{name: value}` of the printed
    /// items), `output` (that solution as FlatZinc prints it), `all` (with `keep_solutions`),
    /// `nodes`, `seconds`.
    #[pyo3(signature = (decisions, *, mode="all", bound=None, time_limit=None, free_search=false, keep_solutions=false))]
    #[allow(clippy::too_many_arguments)]
    fn solve_subproblem<'py>(
        &self,
        py: Python<'py>,
        decisions: Vec<(String, usize, i64)>,
        mode: &str,
        bound: Option<i64>,
        time_limit: Option<f64>,
        free_search: bool,
        keep_solutions: bool,
    ) -> PyResult<Bound<'py, PyDict>> {
        let started = Instant::now();
        let decisions = self.decisions(decisions)?;
        let compiled = &self.compiled;
        let model = compiled.model();
        let optimising = model.objective() != Objective::Satisfy;
        let first = match mode {
            "all" | "first" if optimising => {
                return Err(PyValueError::new_err(format!(
                    "mode {mode:?} is for a model without an objective; this one has one: use \"best\""
                )));
            }
            "best" if !optimising => {
                return Err(PyValueError::new_err(
                    "mode \"best\" needs an objective; this model has none: use \"all\" or \"first\"",
                ));
            }
            "all" | "best" => false,
            "first" => true,
            other => {
                return Err(PyValueError::new_err(format!(
                    "unknown mode {other:?}: all, first or best"
                )));
            }
        };
        if bound.is_some() && !optimising {
            return Err(PyValueError::new_err(
                "a bound needs an objective; this model has none",
            ));
        }
        let limit = crate::interrupt::time_limit(time_limit)?;
        let stop = StopFlag::new();
        let mut config = compiled.search_config(free_search);
        config.limits.time = limit;
        config.stop = Some(stop.clone());
        let outcome = interruptible(
            py,
            || stop.stop(),
            || {
                let mut search = Search::new(model, &config);
                search.assume(&decisions);
                if let (Some(value), Some(shared)) = (bound, SharedBound::new(model.objective())) {
                    // The bound the caller knows: only strictly better solutions are searched for,
                    // and a subtree with none is exhausted at once where propagation shows it.
                    shared.offer(value);
                    search.share_bound(shared);
                }
                let mut found = 0_u64;
                let mut last: Option<Vec<i32>> = None;
                let mut all = Vec::new();
                let mut invalid = None;
                while let Some(values) = search.next(&mut ()) {
                    if let Err(e) = compiled.verify(values) {
                        invalid = Some(e.to_string());
                        break;
                    }
                    found += 1;
                    if keep_solutions {
                        all.push(values.to_vec());
                    }
                    last = Some(values.to_vec());
                    if first {
                        break;
                    }
                }
                let outcome = search.outcome();
                let nodes = search.stats().nodes;
                (found, last, all, invalid, outcome, nodes)
            },
        )?;
        let (found, last, all, invalid, outcome, nodes) = outcome;
        if let Some(e) = invalid {
            return Err(PyRuntimeError::new_err(format!(
                "internal error, a solution failed verification: {e}"
            )));
        }
        // A first solution ends the subproblem's search with what was asked; otherwise only a
        // search that ran out of tree knows everything its subtree holds.
        let complete =
            (first && found > 0) || matches!(outcome, Some(Outcome::Exhausted | Outcome::Optimal));
        let dict = PyDict::new(py);
        dict.set_item("complete", complete)?;
        dict.set_item("solutions", found)?;
        dict.set_item(
            "objective",
            last.as_deref().and_then(|v| compiled.objective_value(v)),
        )?;
        match &last {
            Some(values) => {
                dict.set_item("solution", self.assignment(py, values)?)?;
                dict.set_item("output", compiled.output().format(values))?;
            }
            None => {
                dict.set_item("solution", py.None())?;
                dict.set_item("output", py.None())?;
            }
        }
        if keep_solutions {
            let list = PyList::empty(py);
            for values in &all {
                list.append(self.assignment(py, values)?)?;
            }
            dict.set_item("all", list)?;
        }
        dict.set_item("nodes", nodes)?;
        dict.set_item("seconds", started.elapsed().as_secs_f64())?;
        Ok(dict)
    }
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<FlatZincModel>()?;
    m.add_function(wrap_pyfunction!(queens_subproblems, m)?)?;
    m.add_function(wrap_pyfunction!(queens_count_shard, m)?)?;
    m.add_function(wrap_pyfunction!(queens_shard_info, m)?)?;
    m.add_function(wrap_pyfunction!(queens_merge_shards, m)?)?;
    Ok(())
}
