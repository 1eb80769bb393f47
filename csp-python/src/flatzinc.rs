//! FlatZinc from Python: a `.fzn` file (or its text) solved as `fzn-csp` solves it, the output as
//! the FlatZinc specification prints it.

use std::time::Instant;

use csp_flatzinc::run::{Learns, RunOptions, Status};
use csp_search::StopFlag;
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyDict;

/// Solves a FlatZinc model given as text (`text=`) or read from `path`, with `fzn-csp`'s options.
/// Returns a dict: `status` (`"OPTIMAL"`, `"FEASIBLE"`, `"UNSATISFIABLE"` or `"UNKNOWN"`),
/// `output` (each solution as FlatZinc prints it, with its `----------` line), `solutions`,
/// `nodes`, `seconds`.
#[pyfunction]
#[pyo3(signature = (path=None, *, text=None, time_limit=None, threads=1, seed=0, all_solutions=false, free_search=false, learning=None))]
#[allow(clippy::too_many_arguments)]
fn solve_flatzinc<'py>(
    py: Python<'py>,
    path: Option<std::path::PathBuf>,
    text: Option<String>,
    time_limit: Option<f64>,
    threads: usize,
    seed: u64,
    all_solutions: bool,
    free_search: bool,
    learning: Option<&str>,
) -> PyResult<Bound<'py, PyDict>> {
    let started = Instant::now();
    let text = match (path, text) {
        (Some(path), None) => std::fs::read_to_string(&path)
            .map_err(|e| PyValueError::new_err(format!("cannot read {}: {e}", path.display())))?,
        (None, Some(text)) => text,
        _ => return Err(PyValueError::new_err("give a path or text=, not both")),
    };
    let time_limit = crate::interrupt::time_limit(time_limit)?;
    let learning = learning
        .map(|l| l.parse::<Learns>().map_err(PyValueError::new_err))
        .transpose()?;
    let compiled = py
        .detach(|| csp_flatzinc::compile(&text))
        .map_err(|e| PyValueError::new_err(e.to_string()))?;
    let stop = StopFlag::new();
    let options = RunOptions {
        all_solutions,
        seed,
        threads: threads.max(1),
        free_search,
        learning,
        deadline: time_limit.map(|t| started + t),
        init_time: started.elapsed(),
        stop: Some(stop.clone()),
        ..RunOptions::default()
    };
    let mut out = Vec::new();
    let summary = crate::interrupt::interruptible(
        py,
        || stop.stop(),
        || csp_flatzinc::run::run(&compiled, &options, &mut out, &mut ()),
    )?
    .map_err(|e| PyRuntimeError::new_err(e.to_string()))?;
    let dict = PyDict::new(py);
    dict.set_item(
        "status",
        match summary.status {
            Status::Complete => "OPTIMAL",
            Status::Solved => "FEASIBLE",
            Status::Unsatisfiable => "UNSATISFIABLE",
            Status::Unknown => "UNKNOWN",
        },
    )?;
    dict.set_item("output", String::from_utf8_lossy(&out).into_owned())?;
    dict.set_item("solutions", summary.solutions)?;
    dict.set_item("nodes", summary.result.stats.nodes)?;
    dict.set_item("seconds", started.elapsed().as_secs_f64())?;
    Ok(dict)
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(solve_flatzinc, m)?)?;
    Ok(())
}
