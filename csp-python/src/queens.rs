//! The flagship from Python: N-queens solved by any of the library's methods and counted exactly,
//! each answer checked by the independent verifier, with the GIL released and Ctrl-C honoured.

use std::num::NonZeroUsize;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use nqueens_count::{CountKind, CountOptions, Shard};
use nqueens_model::construct::{self, ExplicitColumns};
use nqueens_model::local_search::{self, LocalMethod};
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::interrupt::{interruptible, relay};

/// One solution of `n` queens, `placement[row] = column` (from 0), by `method`: `"auto"` or
/// `"explicit"` (the explicit construction, instant for any size), `"search"` (the engine's
/// fast preset: MIN with forward checking), a local search (`"qs1"`, `"qs4"`, `"las-vegas1"`,
/// `"las-vegas2"`, `"min-conflicts"`, with `seed`, `threads` and `time_limit`), or another
/// construction by name (`"knight-walk"`, `"abramson-yung"`, `"decomposition"`, `"yaglom"`).
/// Returns a dict: `placement` (a list, or `None` when no solution exists), `method`, `seconds`.
#[pyfunction]
#[pyo3(signature = (n, method="auto", seed=0, threads=1, time_limit=None))]
fn queens_solve<'py>(
    py: Python<'py>,
    n: usize,
    method: &str,
    seed: u64,
    threads: usize,
    time_limit: Option<f64>,
) -> PyResult<Bound<'py, PyDict>> {
    let started = Instant::now();
    let cancel = AtomicBool::new(false);
    let time_limit = crate::interrupt::time_limit(time_limit)?;
    let placement: Option<Vec<u32>> = match method {
        "auto" | "explicit" => {
            if n == 2 || n == 3 {
                None
            } else {
                let columns =
                    ExplicitColumns::new(n).map_err(|e| PyValueError::new_err(e.to_string()))?;
                Some(py.detach(|| columns.collect()))
            }
        }
        "search" => {
            let model = nqueens_model::model(n, nqueens_model::Encoding::Counters)
                .map_err(|e| PyValueError::new_err(e.to_string()))?;
            let mut config = csp_search::SearchConfig::fast_preset(n);
            config.limits.time = time_limit;
            let stop = csp_search::StopFlag::new();
            config.stop = Some(stop.clone());
            let result = interruptible(
                py,
                || stop.stop(),
                || csp_search::solve(&model, &config, ()),
            )?;
            match result.outcome {
                csp_search::Outcome::Solved => result
                    .solution
                    .map(|values| values.iter().map(|&v| v as u32).collect()),
                csp_search::Outcome::Exhausted => None,
                other => {
                    return Err(PyRuntimeError::new_err(format!(
                        "the search ended without an answer: {other:?}"
                    )));
                }
            }
        }
        name => {
            if let Some(local) = LocalMethod::ALL.into_iter().find(|m| m.name() == name) {
                let limits = local_search::Limits {
                    max_steps: None,
                    time_limit,
                };
                local
                    .check(n, threads.max(1))
                    .map_err(|e| PyValueError::new_err(e.to_string()))?;
                let report = interruptible(
                    py,
                    || cancel.store(true, Ordering::Relaxed),
                    || {
                        local_search::race(threads.max(1), seed, |thread_seed, stop| {
                            relay(&cancel, stop, || local.run(n, thread_seed, &limits, stop))
                        })
                    },
                )?
                .map_err(|e| PyValueError::new_err(e.to_string()))?;
                match report.outcome {
                    local_search::LocalOutcome::Solved(p) => Some(p),
                    local_search::LocalOutcome::NoSolution => None,
                    other => {
                        return Err(PyRuntimeError::new_err(format!(
                            "{name} ended without an answer: {other:?}"
                        )));
                    }
                }
            } else {
                let built = match name {
                    "knight-walk" => construct::knight_walk(n),
                    "abramson-yung" => construct::abramson_yung(n),
                    "decomposition" => construct::decomposition(n),
                    "yaglom" => construct::yaglom(n),
                    _ => {
                        let locals: Vec<&str> = LocalMethod::ALL.iter().map(|m| m.name()).collect();
                        return Err(PyValueError::new_err(format!(
                            "unknown method `{name}`: auto, explicit, search, {}, knight-walk, \
                             abramson-yung, decomposition or yaglom",
                            locals.join(", ")
                        )));
                    }
                };
                Some(
                    built
                        .map_err(|e| PyValueError::new_err(e.to_string()))?
                        .placement,
                )
            }
        }
    };
    // Every answer is checked by the independent verifier before Python sees it.
    if let Some(p) = &placement {
        nqueens_model::verify(p).map_err(|e| {
            PyRuntimeError::new_err(format!(
                "internal error: {method} gave an invalid placement: {e}"
            ))
        })?;
        if p.len() != n {
            return Err(PyRuntimeError::new_err(format!(
                "internal error: {method} placed {} queens, not {n}",
                p.len()
            )));
        }
    }
    let dict = PyDict::new(py);
    dict.set_item("placement", placement)?;
    dict.set_item("method", method)?;
    dict.set_item("seconds", started.elapsed().as_secs_f64())?;
    Ok(dict)
}

/// The exact number of solutions of `n` queens (OEIS A000170), with the essentially distinct ones
/// (A002562) when the whole count is run; `kind="nodes"` counts the LEX tree's nodes instead, and
/// `kind="torus"` the toroidal board's solutions. `shard=(i, k)` counts part `i` of `k`, and
/// `checkpoint` a file to resume from. Returns a dict: `solutions`, `unique`, `nodes`,
/// `complete`, `seconds`, `threads`.
#[pyfunction]
#[pyo3(signature = (n, kind="solutions", threads=None, shard=None, checkpoint=None))]
fn queens_count<'py>(
    py: Python<'py>,
    n: usize,
    kind: &str,
    threads: Option<usize>,
    shard: Option<(usize, usize)>,
    checkpoint: Option<std::path::PathBuf>,
) -> PyResult<Bound<'py, PyDict>> {
    let kind = count_kind(kind)?;
    let threads = threads
        .map(|t| {
            NonZeroUsize::new(t).ok_or_else(|| PyValueError::new_err("threads must be at least 1"))
        })
        .transpose()?;
    let shard = match shard {
        Some((index, of)) => {
            Shard::new(index, of).map_err(|e| PyValueError::new_err(e.to_string()))?
        }
        None => Shard::WHOLE,
    };
    let cancel = AtomicBool::new(false);
    let report = interruptible(
        py,
        || cancel.store(true, Ordering::Relaxed),
        || {
            let options = CountOptions {
                kind,
                threads,
                shard,
                checkpoint,
                cancel: Some(&cancel),
                ..CountOptions::default()
            };
            nqueens_count::count(n, &options)
        },
    )?
    .map_err(|e| PyValueError::new_err(e.to_string()))?;
    let dict = PyDict::new(py);
    dict.set_item("n", n)?;
    dict.set_item("solutions", report.answer.solutions)?;
    dict.set_item("unique", report.answer.unique)?;
    dict.set_item("nodes", report.answer.nodes)?;
    dict.set_item("complete", report.complete)?;
    dict.set_item("seconds", report.elapsed.as_secs_f64())?;
    dict.set_item("threads", report.threads)?;
    Ok(dict)
}

/// `kind` as the counter names it.
pub(crate) fn count_kind(kind: &str) -> PyResult<CountKind> {
    match kind {
        "solutions" => Ok(CountKind::Solutions),
        "nodes" => Ok(CountKind::Nodes),
        "torus" => Ok(CountKind::Torus),
        other => Err(PyValueError::new_err(format!(
            "unknown kind `{other}`: solutions, nodes or torus"
        ))),
    }
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(queens_solve, m)?)?;
    m.add_function(wrap_pyfunction!(queens_count, m)?)?;
    Ok(())
}
