//! What a solve gives back: a `Solution` (the values of the model's variables, and of any expression
//! over them) and a `SolveResult` (the status, the objective, the last solution and the statistics).

use std::sync::Arc;
use std::time::Duration;

use csp_flatzinc::run::{RunSummary, Status};
use pyo3::exceptions::{PyKeyError, PyTypeError, PyValueError, PyZeroDivisionError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyList};

use crate::expr::{Cmp, Expr, Global, Node};

/// The values of one solution: index it with a variable, an expression over the variables, or a
/// (nested) list of them.
#[pyclass(frozen, module = "rcsp")]
pub(crate) struct Solution {
    model: u64,
    /// Each variable's value by its index; auxiliaries have none.
    values: Arc<Vec<Option<i64>>>,
}

impl Solution {
    pub(crate) fn new(model: u64, values: Arc<Vec<Option<i64>>>) -> Solution {
        Solution { model, values }
    }

    /// The value of `node`.
    fn eval(&self, node: &Node) -> PyResult<i64> {
        let list =
            |xs: &[Arc<Node>]| -> PyResult<Vec<i64>> { xs.iter().map(|x| self.eval(x)).collect() };
        let truth = |b: bool| Ok(i64::from(b));
        match node {
            Node::Const { value, .. } => Ok(*value),
            Node::Var(var) => {
                if var.model != self.model {
                    return Err(PyKeyError::new_err(format!(
                        "`{}` is a variable of another model",
                        var.name
                    )));
                }
                self.values
                    .get(var.index as usize)
                    .copied()
                    .flatten()
                    .ok_or_else(|| PyKeyError::new_err(var.name.clone()))
            }
            Node::Sum(terms, c) => {
                let mut total = i128::from(*c);
                for (a, x) in terms {
                    total += i128::from(*a) * i128::from(self.eval(x)?);
                }
                i64::try_from(total).map_err(|_| PyValueError::new_err("the sum overflows 64 bits"))
            }
            Node::Mul(a, b) => self
                .eval(a)?
                .checked_mul(self.eval(b)?)
                .ok_or_else(|| PyValueError::new_err("the product overflows 64 bits")),
            Node::Div(a, b) | Node::Mod(a, b) => {
                let (x, y) = (self.eval(a)?, self.eval(b)?);
                if y == 0 {
                    return Err(PyZeroDivisionError::new_err("division by zero"));
                }
                // Rust's `/` and `%` truncate towards zero, as MiniZinc's div and mod do.
                Ok(if matches!(node, Node::Div(..)) {
                    x / y
                } else {
                    x % y
                })
            }
            Node::Pow(a, b) => {
                let (x, y) = (self.eval(a)?, self.eval(b)?);
                let y =
                    u32::try_from(y).map_err(|_| PyValueError::new_err("a negative exponent"))?;
                x.checked_pow(y)
                    .ok_or_else(|| PyValueError::new_err("the power overflows 64 bits"))
            }
            Node::Abs(a) => Ok(self.eval(a)?.abs()),
            Node::Min(xs) => list(xs)?.into_iter().min().ok_or_else(empty),
            Node::Max(xs) => list(xs)?.into_iter().max().ok_or_else(empty),
            Node::Element(xs, i) => {
                let i = self.eval(i)?;
                let x = usize::try_from(i)
                    .ok()
                    .and_then(|i| xs.get(i))
                    .ok_or_else(|| PyValueError::new_err(format!("index {i} is out of range")))?;
                self.eval(x)
            }
            Node::Count(xs, v) => {
                let v = self.eval(v)?;
                Ok(list(xs)?.into_iter().filter(|&x| x == v).count() as i64)
            }
            Node::Among(xs, vs) => {
                Ok(list(xs)?.into_iter().filter(|x| vs.contains(x)).count() as i64)
            }
            Node::NValue(xs) => {
                let mut values = list(xs)?;
                values.sort_unstable();
                values.dedup();
                Ok(values.len() as i64)
            }
            Node::Compare(op, a, b) => {
                let (x, y) = (self.eval(a)?, self.eval(b)?);
                truth(match op {
                    Cmp::Eq => x == y,
                    Cmp::Ne => x != y,
                    Cmp::Lt => x < y,
                    Cmp::Le => x <= y,
                    Cmp::Gt => x > y,
                    Cmp::Ge => x >= y,
                })
            }
            Node::And(xs) => truth(list(xs)?.iter().all(|&x| x != 0)),
            Node::Or(xs) => truth(list(xs)?.iter().any(|&x| x != 0)),
            Node::Not(a) => truth(self.eval(a)? == 0),
            Node::Xor(xs) => truth(list(xs)?.iter().filter(|&&x| x != 0).count() % 2 == 1),
            Node::Implies(a, b) => truth(self.eval(a)? == 0 || self.eval(b)? != 0),
            Node::Global(g) => self.global(g).map(i64::from),
        }
    }

    /// Whether a global constraint holds, by its definition.
    fn global(&self, g: &Global) -> PyResult<bool> {
        let list =
            |xs: &[Arc<Node>]| -> PyResult<Vec<i64>> { xs.iter().map(|x| self.eval(x)).collect() };
        let distinct = |xs: &[i64]| {
            let mut sorted = xs.to_vec();
            sorted.sort_unstable();
            sorted.windows(2).all(|w| w[0] != w[1])
        };
        Ok(match g {
            Global::AllDifferent(xs) => distinct(&list(xs)?),
            Global::AllDifferentExcept0(xs) => {
                let v: Vec<i64> = list(xs)?.into_iter().filter(|&x| x != 0).collect();
                distinct(&v)
            }
            Global::AllEqual(xs) => list(xs)?.windows(2).all(|w| w[0] == w[1]),
            Global::Table(xs, tuples) => {
                let v = list(xs)?;
                tuples.contains(&v)
            }
            Global::Increasing(xs) => list(xs)?.windows(2).all(|w| w[0] <= w[1]),
            Global::Decreasing(xs) => list(xs)?.windows(2).all(|w| w[0] >= w[1]),
            Global::Lex { a, b, strict } => {
                let (x, y) = (list(a)?, list(b)?);
                if *strict { x < y } else { x <= y }
            }
            Global::Member(xs, y) => list(xs)?.contains(&self.eval(y)?),
            Global::Circuit(xs) | Global::Subcircuit(xs) => {
                let succ = list(xs)?;
                circuit_holds(&succ, matches!(g, Global::Subcircuit(_)))
            }
            Global::Inverse(f, inv) => {
                let (f, inv) = (list(f)?, list(inv)?);
                f.iter().enumerate().all(|(i, &j)| {
                    usize::try_from(j)
                        .ok()
                        .and_then(|j| inv.get(j))
                        .is_some_and(|&k| k == i as i64)
                }) && inv.iter().enumerate().all(|(j, &i)| {
                    usize::try_from(i)
                        .ok()
                        .and_then(|i| f.get(i))
                        .is_some_and(|&k| k == j as i64)
                })
            }
            Global::Cardinality {
                vars,
                values,
                counts,
                closed,
            } => {
                let (v, c) = (list(vars)?, list(counts)?);
                values
                    .iter()
                    .zip(&c)
                    .all(|(value, &count)| v.iter().filter(|&x| x == value).count() as i64 == count)
                    && (!closed || v.iter().all(|x| values.contains(x)))
            }
            other => {
                return Err(PyTypeError::new_err(format!(
                    "the value of {} is not evaluated here: read its variables' values",
                    other.name()
                )));
            }
        })
    }

    /// The Python value of `obj` in this solution: an int, a bool (for a Boolean), or a list.
    fn value_of(&self, py: Python<'_>, obj: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
        if let Ok(expr) = obj.cast::<Expr>() {
            let node = &expr.get().node;
            let v = self.eval(node)?;
            return Ok(if node.is_bool() {
                PyBool::new(py, v != 0).to_owned().into_any().unbind()
            } else {
                v.into_pyobject(py)?.into_any().unbind()
            });
        }
        if let Ok(items) = obj.try_iter() {
            let values = items
                .map(|item| self.value_of(py, &item?))
                .collect::<PyResult<Vec<_>>>()?;
            return Ok(PyList::new(py, values)?.into_any().unbind());
        }
        // Constants stand for themselves, as in CPMpy's `value()`.
        Ok(obj.clone().unbind())
    }
}

/// The Python name of how a run ended.
pub(crate) fn status_name(status: Status) -> &'static str {
    match status {
        Status::Complete => "OPTIMAL",
        Status::Solved => "FEASIBLE",
        Status::Unsatisfiable => "UNSATISFIABLE",
        Status::Unknown => "UNKNOWN",
    }
}

fn empty() -> PyErr {
    PyValueError::new_err("min and max of nothing are undefined")
}

/// Whether successors `succ` (indexed from 0) form one circuit through every node or, for a
/// subcircuit, through the nodes that are not their own successor.
fn circuit_holds(succ: &[i64], sub: bool) -> bool {
    let n = succ.len();
    if succ.iter().any(|&s| s < 0 || s as usize >= n) {
        return false;
    }
    let on: Vec<usize> = (0..n).filter(|&i| !sub || succ[i] as usize != i).collect();
    let Some(&first) = on.first() else {
        return true;
    };
    let mut seen = vec![false; n];
    let mut node = first;
    for _ in 0..on.len() {
        if seen[node] {
            return false;
        }
        seen[node] = true;
        node = succ[node] as usize;
    }
    node == first && on.iter().all(|&i| seen[i])
}

#[pymethods]
impl Solution {
    fn __getitem__(&self, py: Python<'_>, key: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
        self.value_of(py, key)
    }

    /// The value of a variable, an expression, or a (nested) list of them.
    fn value(&self, py: Python<'_>, key: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
        self.value_of(py, key)
    }

    fn __repr__(&self) -> String {
        let shown: Vec<String> = self
            .values
            .iter()
            .flatten()
            .take(10)
            .map(|v| v.to_string())
            .collect();
        format!(
            "Solution([{}{}])",
            shown.join(", "),
            if self.values.iter().flatten().count() > 10 {
                ", …"
            } else {
                ""
            }
        )
    }
}

/// What a solve found: `status` (`"OPTIMAL"`: the optimum is proven, or every solution was found;
/// `"FEASIBLE"`: a solution, not proven best; `"UNSATISFIABLE"`; `"UNKNOWN"`: a limit came first),
/// the best `objective`, the last `solution` (under an objective the best), `solutions` (with
/// `all_solutions`), and `statistics`.
#[pyclass(frozen, module = "rcsp")]
pub(crate) struct SolveResult {
    status: &'static str,
    solution: Option<Py<Solution>>,
    solutions: Vec<Py<Solution>>,
    objective: Option<i64>,
    solve_time: f64,
    stats: Vec<(&'static str, f64)>,
}

impl SolveResult {
    pub(crate) fn new(
        model: u64,
        summary: &RunSummary,
        last: Option<Arc<Vec<Option<i64>>>>,
        all: Vec<Arc<Vec<Option<i64>>>>,
        objective: Option<Arc<Node>>,
        elapsed: Duration,
        status: &'static str,
    ) -> SolveResult {
        Python::attach(|py| {
            let make = |values: Arc<Vec<Option<i64>>>| {
                Py::new(py, Solution::new(model, values)).expect("a solution object")
            };
            let solution = last.map(make);
            let objective_value = match (&solution, objective) {
                (Some(s), Some(node)) => s.get().eval(&node).ok(),
                _ => None,
            };
            let stats = &summary.result.stats;
            SolveResult {
                status,
                solutions: all.into_iter().map(make).collect(),
                solution,
                objective: objective_value,
                solve_time: elapsed.as_secs_f64(),
                stats: vec![
                    ("solutions", summary.solutions as f64),
                    ("nodes", stats.nodes as f64),
                    ("failures", stats.dead_ends as f64),
                    ("restarts", stats.restarts as f64),
                    ("propagations", summary.result.propagations as f64),
                    ("peak_depth", f64::from(stats.max_depth)),
                    ("learned_clauses", stats.learned_clauses as f64),
                    ("search_time", summary.result.elapsed.as_secs_f64()),
                ],
            }
        })
    }
}

#[pymethods]
impl SolveResult {
    /// `"OPTIMAL"`, `"FEASIBLE"`, `"UNSATISFIABLE"` or `"UNKNOWN"`.
    #[getter]
    fn status(&self) -> &'static str {
        self.status
    }

    /// The objective's value in the best solution found, if any.
    #[getter]
    fn objective(&self) -> Option<i64> {
        self.objective
    }

    /// The last solution found (under an objective, the best), if any.
    #[getter]
    fn solution(&self, py: Python<'_>) -> Option<Py<Solution>> {
        self.solution.as_ref().map(|s| s.clone_ref(py))
    }

    /// Every solution found, with `all_solutions=True`.
    #[getter]
    fn solutions(&self, py: Python<'_>) -> Vec<Py<Solution>> {
        self.solutions.iter().map(|s| s.clone_ref(py)).collect()
    }

    /// Wall-clock seconds of the whole solve, lowering and compiling included.
    #[getter]
    fn solve_time(&self) -> f64 {
        self.solve_time
    }

    /// The search's statistics: solutions, nodes, failures, restarts, propagations, peak depth,
    /// learned clauses, search time (seconds).
    #[getter]
    fn statistics<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let dict = PyDict::new(py);
        for &(name, value) in &self.stats {
            if name == "search_time" {
                dict.set_item(name, value)?;
            } else {
                dict.set_item(name, value as u64)?;
            }
        }
        Ok(dict)
    }

    /// Whether a solution was found.
    fn __bool__(&self) -> bool {
        self.solution.is_some()
    }

    /// The value of a variable, an expression or a list of them in the solution found.
    fn __getitem__(&self, py: Python<'_>, key: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
        match &self.solution {
            Some(s) => s.get().value_of(py, key),
            None => Err(PyKeyError::new_err(format!(
                "no solution to read (the status is {})",
                self.status
            ))),
        }
    }

    /// See `__getitem__`.
    fn value(&self, py: Python<'_>, key: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
        self.__getitem__(py, key)
    }

    fn __repr__(&self) -> String {
        match self.objective {
            Some(o) => format!("SolveResult({}, objective={o})", self.status),
            None => format!("SolveResult({})", self.status),
        }
    }
}
