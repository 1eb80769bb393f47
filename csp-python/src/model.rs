//! `Model`: variables and constraints added from Python, lowered as they come ([`crate::lower`]),
//! and solved through the FlatZinc run protocol of `fzn-csp` ([`csp_flatzinc::run`]): the same
//! plan (learning, neighbourhoods, portfolios), the same verification of every solution.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

use csp_core::Literal;
use csp_flatzinc::assume::Assumed;
use csp_flatzinc::run::{Learns, RunOptions};
use csp_flatzinc::{Compiled, compile_parsed};
use csp_search::StopFlag;
use pyo3::exceptions::{PyRuntimeError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};

use crate::expr::{Expr, Node, VarInfo, node_of};
use crate::interrupt::interruptible;
use crate::lower::{Dom, Elem, Fzn, Lowerer, flatzinc, index_of_name, names};
use crate::solution::{Solution, SolveResult};

/// Each model's identity, so that a variable of one is refused by another.
static NEXT_MODEL: AtomicU64 = AtomicU64::new(1);

/// A constraint model: variables, constraints and an objective, solved by the engine.
#[pyclass(module = "rcsp")]
pub(crate) struct Model {
    id: u64,
    fzn: Fzn,
    /// The user's variables, in order of declaration.
    vars: Vec<Arc<VarInfo>>,
    /// The objective: whether it is minimised, and its lowered form.
    objective: Option<(bool, Elem, Arc<Node>)>,
    /// Constraints added, as the user wrote them.
    constraints: usize,
    /// The compiled model of the last solve, while no constraint was added since.
    compiled: Option<Arc<Compiled>>,
    names: hashbrown::HashSet<String>,
}

impl Model {
    fn declare(&mut self, name: Option<String>, dom: Dom, boolean: bool) -> PyResult<Expr> {
        let index = u32::try_from(self.fzn.vars.len())
            .map_err(|_| PyValueError::new_err("too many variables"))?;
        let name = name.unwrap_or_else(|| format!("_v{index}"));
        if !self.names.insert(name.clone()) {
            return Err(PyValueError::new_err(format!(
                "a variable named `{name}` is already declared"
            )));
        }
        let (lb, ub) = match &dom {
            Dom::Bool => (0, 1),
            Dom::Ranges(r) => (r[0].0, r[r.len() - 1].1),
            Dom::Any => (i64::from(i32::MIN), i64::from(i32::MAX)),
        };
        self.fzn.vars.push(dom);
        self.fzn.user.push(true);
        let info = Arc::new(VarInfo {
            model: self.id,
            index,
            name,
            boolean,
            lb,
            ub,
        });
        self.vars.push(Arc::clone(&info));
        self.compiled = None;
        Ok(Expr::leaf(Arc::new(Node::Var(info))))
    }

    fn lowerer(&mut self) -> Lowerer<'_> {
        self.compiled = None;
        Lowerer {
            fzn: &mut self.fzn,
            model: self.id,
        }
    }

    /// Lowers `node` as a constraint, leaving the model as it was if that fails.
    fn add_node(&mut self, node: &Arc<Node>) -> PyResult<()> {
        let before = self.fzn.mark();
        let result = self.lowerer().constrain(node);
        if result.is_err() {
            self.fzn.rollback(before);
        } else {
            self.constraints += 1;
        }
        result
    }

    /// Adds `obj`: a constraint, or a (nested) list of them.
    fn add_any(&mut self, obj: &Bound<'_, PyAny>) -> PyResult<()> {
        if obj.is_instance_of::<pyo3::types::PyString>() {
            return Err(PyTypeError::new_err(
                "a model takes constraints, or lists of them, not a string",
            ));
        }
        if obj.cast::<Expr>().is_ok() || obj.extract::<i64>().is_ok() {
            let node = node_of(obj)?;
            return self.add_node(&node);
        }
        let items = obj.try_iter().map_err(|_| {
            PyTypeError::new_err(format!(
                "a model takes constraints, or lists of them, not {}",
                obj.get_type()
                    .name()
                    .map(|n| n.to_string())
                    .unwrap_or_default()
            ))
        })?;
        for item in items {
            self.add_any(&item?)?;
        }
        Ok(())
    }

    fn set_objective(&mut self, expr: &Bound<'_, PyAny>, minimise: bool) -> PyResult<()> {
        let node = node_of(expr)?;
        let before = self.fzn.mark();
        match self.lowerer().int(&node) {
            Ok(elem) => {
                self.objective = Some((minimise, elem, node));
                Ok(())
            }
            Err(e) => {
                self.fzn.rollback(before);
                Err(e)
            }
        }
    }

    /// The compiled model, compiling it if a constraint was added since the last solve.
    fn compiled(&mut self, py: Python<'_>) -> PyResult<Arc<Compiled>> {
        if let Some(compiled) = &self.compiled {
            return Ok(Arc::clone(compiled));
        }
        let (compiled, ()) = self.compiled_around(py, true, |_| Ok(()))?;
        let compiled = Arc::new(compiled);
        self.compiled = Some(Arc::clone(&compiled));
        Ok(compiled)
    }

    /// The model compiled with what `lower` adds for this one compilation (assumptions), with
    /// its objective if `objective`; then what `lower` added is taken out again, so that the model
    /// and its compiled cache are left as they were. Returns what `lower` returned too.
    fn compiled_around<T>(
        &mut self,
        py: Python<'_>,
        objective: bool,
        lower: impl FnOnce(&mut Self) -> PyResult<T>,
    ) -> PyResult<(Compiled, T)> {
        let cached = self.compiled.take();
        let before = self.fzn.mark();
        let compiled = lower(self).and_then(|lowered| {
            let fzn = &self.fzn;
            let goal = self
                .objective
                .as_ref()
                .filter(|_| objective)
                .map(|&(min, elem, _)| (min, elem));
            py.detach(|| compile_parsed(&flatzinc(fzn, &names(fzn.vars.len()), goal)))
                .map(|compiled| (compiled, lowered))
                .map_err(|e| PyValueError::new_err(format!("the model cannot be built: {e}")))
        });
        self.fzn.rollback(before);
        self.compiled = cached;
        compiled
    }

    /// The model compiled with `extra` constraints for one run only, and without its objective
    /// unless `objective` ([`Model::compiled_around`]); the cached compilation when there is
    /// nothing to add.
    fn compiled_with(
        &mut self,
        py: Python<'_>,
        extra: &[Arc<Node>],
        objective: bool,
    ) -> PyResult<Arc<Compiled>> {
        if extra.is_empty() && (objective || self.objective.is_none()) {
            return self.compiled(py);
        }
        let (compiled, ()) = self.compiled_around(py, objective, |model| {
            extra
                .iter()
                .try_for_each(|node| model.lowerer().constrain(node))
        })?;
        Ok(Arc::new(compiled))
    }

    /// One learning search of the model, without its objective, under the assumptions
    /// `nodes[k]` for each `k` of `chosen` ([`csp_flatzinc::assume::assume`]); a core names
    /// positions in `nodes`. The model is left as it was.
    fn assumed(
        &mut self,
        py: Python<'_>,
        nodes: &[Arc<Node>],
        chosen: &[usize],
        deadline: Option<Instant>,
    ) -> PyResult<Assumed> {
        // Each assumption as a Boolean of the model, output so that the compiled model names it;
        // the model's own variables marked for it are unmarked again afterwards.
        let mut marked = Vec::new();
        let compiled = self.compiled_around(py, false, |model| {
            chosen
                .iter()
                .map(|&k| {
                    let elem = model.lowerer().boolean(&nodes[k])?;
                    if let Elem::Var(v) = elem
                        && !model.fzn.user[v as usize]
                    {
                        model.fzn.user[v as usize] = true;
                        marked.push(v as usize);
                    }
                    Ok(elem)
                })
                .collect::<PyResult<Vec<Elem>>>()
                .map(|elems| (elems, model.fzn.vars.len()))
        });
        for &v in &marked {
            if let Some(user) = self.fzn.user.get_mut(v) {
                *user = false;
            }
        }
        let (compiled, (elems, vars)) = compiled?;
        let by_index = output_elems(&compiled, vars);
        let engine = elems
            .iter()
            .map(|elem| match *elem {
                Elem::Const(c) => Ok(csp_flatzinc::Elem::Const(c)),
                Elem::Var(v) => by_index[v as usize].ok_or_else(|| {
                    PyRuntimeError::new_err("internal error: an assumption was lost")
                }),
            })
            .collect::<PyResult<Vec<_>>>()?;
        // An assumption the lowering found false is a core by itself; one found true is no
        // part of any core.
        if let Some(k) = engine
            .iter()
            .position(|e| *e == csp_flatzinc::Elem::Const(0))
        {
            return Ok(Assumed::Core(vec![chosen[k]]));
        }
        let (literals, positions): (Vec<Literal>, Vec<usize>) = engine
            .iter()
            .zip(chosen)
            .filter_map(|(elem, &k)| match *elem {
                csp_flatzinc::Elem::Var(v) => Some((Literal::eq(v, 1), k)),
                csp_flatzinc::Elem::Const(_) => None,
            })
            .unzip();
        let stop = StopFlag::new();
        let options = RunOptions {
            deadline,
            stop: Some(stop.clone()),
            ..RunOptions::default()
        };
        let found = interruptible(
            py,
            || stop.stop(),
            || csp_flatzinc::assume::assume(&compiled, &literals, &options),
        )?
        .map_err(|e| PyRuntimeError::new_err(e.to_string()))?;
        Ok(match found {
            Assumed::Core(core) => Assumed::Core(core.into_iter().map(|i| positions[i]).collect()),
            other => other,
        })
    }

    /// Where each user variable's value is found in a solution of `compiled`.
    fn value_map(&self, compiled: &Compiled) -> Vec<csp_flatzinc::Elem> {
        let by_index = output_elems(compiled, self.fzn.vars.len());
        self.vars
            .iter()
            .map(|v| by_index[v.index as usize].expect("every user variable is output"))
            .collect()
    }
}

/// The engine's element of each variable of a model `compiled` from [`flatzinc`] with `count`
/// variables, indexed as the model's, `None` for those not output. The output items' names are
/// [`names`]' `X<index>`, so each gives its index without a map of the names.
fn output_elems(compiled: &Compiled, count: usize) -> Vec<Option<csp_flatzinc::Elem>> {
    let mut by_index = vec![None; count];
    for item in &compiled.output().items {
        if let csp_flatzinc::output::OutputKind::Scalar(elem) = &item.kind
            && let Some(index) = index_of_name(&item.name)
            && index < count
        {
            by_index[index] = Some(*elem);
        }
    }
    by_index
}

/// What a run collects from the search: the values of each solution, the callback's answer.
struct Collect<'a> {
    map: &'a [csp_flatzinc::Elem],
    /// Positions of the user variables among the model's variables (their `VarInfo::index`).
    slots: Vec<u32>,
    width: usize,
    keep_all: bool,
    all: Vec<Arc<Vec<Option<i64>>>>,
    last: Option<Arc<Vec<Option<i64>>>>,
    callback: Option<Py<PyAny>>,
    model: u64,
    error: Option<PyErr>,
}

impl csp_flatzinc::run::Printer for Collect<'_> {
    fn solution(&mut self, _text: &str) -> std::io::Result<()> {
        Ok(())
    }

    fn end(&mut self, _text: &str) -> std::io::Result<()> {
        Ok(())
    }

    fn wants_text(&self) -> bool {
        false
    }

    fn values(&mut self, values: &[i32]) -> bool {
        let mut user = vec![None; self.width];
        for (&slot, elem) in self.slots.iter().zip(self.map) {
            user[slot as usize] = Some(match *elem {
                csp_flatzinc::Elem::Const(c) => c,
                csp_flatzinc::Elem::Var(v) => i64::from(values[v.index()]),
            });
        }
        let user = Arc::new(user);
        if self.keep_all {
            self.all.push(Arc::clone(&user));
        }
        self.last = Some(Arc::clone(&user));
        if let Some(callback) = &self.callback {
            let model = self.model;
            let outcome = Python::attach(|py| -> PyResult<bool> {
                let solution = Solution::new(model, user);
                let answer = callback.call1(py, (solution,))?;
                // A callback that returns False stops the search; None or anything else goes on.
                Ok(!answer.bind(py).is(pyo3::types::PyBool::new(py, false)))
            });
            match outcome {
                Ok(go_on) => return go_on,
                Err(e) => {
                    self.error = Some(e);
                    return false;
                }
            }
        }
        true
    }
}

#[pymethods]
impl Model {
    #[new]
    fn new() -> Self {
        Model {
            id: NEXT_MODEL.fetch_add(1, Ordering::Relaxed),
            fzn: Fzn::default(),
            vars: Vec::new(),
            objective: None,
            constraints: 0,
            compiled: None,
            names: hashbrown::HashSet::new(),
        }
    }

    /// An integer variable with values `lb..=ub`.
    #[pyo3(signature = (lb, ub, name=None))]
    fn int_var(&mut self, lb: i64, ub: i64, name: Option<String>) -> PyResult<Expr> {
        check_bounds(lb, ub, name.as_deref())?;
        self.declare(name, Dom::Ranges(vec![(lb, ub)]), false)
    }

    /// An integer variable whose values are `values` (any iterable of ints).
    #[pyo3(signature = (values, name=None))]
    fn int_var_in(&mut self, values: Vec<i64>, name: Option<String>) -> PyResult<Expr> {
        if values.is_empty() {
            return Err(PyValueError::new_err(format!(
                "the domain of `{}` is empty",
                name.as_deref().unwrap_or("a variable")
            )));
        }
        let ranges = csp_flatzinc::ast::ranges_from_values(values);
        check_bounds(ranges[0].0, ranges[ranges.len() - 1].1, name.as_deref())?;
        self.declare(name, Dom::Ranges(ranges), false)
    }

    /// A Boolean variable (0 or 1; `True` or `False` in solutions).
    #[pyo3(signature = (name=None))]
    fn bool_var(&mut self, name: Option<String>) -> PyResult<Expr> {
        self.declare(name, Dom::Bool, true)
    }

    /// `n` integer variables with values `lb..=ub`, named `name[0]`, `name[1]`, …
    #[pyo3(signature = (n, lb, ub, name="x"))]
    fn int_vars(&mut self, n: usize, lb: i64, ub: i64, name: &str) -> PyResult<Vec<Expr>> {
        check_bounds(lb, ub, Some(name))?;
        (0..n)
            .map(|i| {
                self.declare(
                    Some(format!("{name}[{i}]")),
                    Dom::Ranges(vec![(lb, ub)]),
                    false,
                )
            })
            .collect()
    }

    /// `n` Boolean variables named `name[0]`, `name[1]`, …
    #[pyo3(signature = (n, name="b"))]
    fn bool_vars(&mut self, n: usize, name: &str) -> PyResult<Vec<Expr>> {
        (0..n)
            .map(|i| self.declare(Some(format!("{name}[{i}]")), Dom::Bool, true))
            .collect()
    }

    /// Adds a constraint, or a (nested) list of constraints. A constraint that cannot be posted
    /// raises, naming it, and leaves the model as it was.
    fn add<'py>(
        mut slf: PyRefMut<'py, Self>,
        constraint: &Bound<'py, PyAny>,
    ) -> PyResult<PyRefMut<'py, Self>> {
        slf.add_any(constraint)?;
        Ok(slf)
    }

    fn __iadd__(&mut self, constraint: &Bound<'_, PyAny>) -> PyResult<()> {
        self.add_any(constraint)
    }

    /// Asks for a solution with the smallest value of `expr`.
    fn minimize(&mut self, expr: &Bound<'_, PyAny>) -> PyResult<()> {
        self.set_objective(expr, true)
    }

    /// Asks for a solution with the largest value of `expr`.
    fn maximize(&mut self, expr: &Bound<'_, PyAny>) -> PyResult<()> {
        self.set_objective(expr, false)
    }

    /// Forgets the objective: any solution will do.
    fn satisfy(&mut self) {
        self.objective = None;
        self.compiled = None;
    }

    /// Whether an objective is set.
    #[getter]
    fn has_objective(&self) -> bool {
        self.objective.is_some()
    }

    /// The user's variables, in order of declaration.
    #[getter]
    fn variables(&self) -> Vec<Expr> {
        self.vars
            .iter()
            .map(|v| Expr::leaf(Arc::new(Node::Var(Arc::clone(v)))))
            .collect()
    }

    /// How many constraints were added (as written, before lowering).
    #[getter]
    fn num_constraints(&self) -> usize {
        self.constraints
    }

    /// The lowered model's size: variables (the user's and auxiliaries) and FlatZinc constraints.
    fn lowered_size(&self) -> (usize, usize) {
        (self.fzn.vars.len(), self.fzn.items.len())
    }

    /// Solves the model.
    ///
    /// - `time_limit`: seconds (a float); `None` searches until done.
    /// - `threads`: searches at once (a portfolio, or one tree split between them).
    /// - `seed`: every random choice; the same seed gives the same run on one thread.
    /// - `all_solutions`: every solution of a satisfaction problem (every improving one under an
    ///   objective), each passed to `on_solution` and kept in the result's `solutions`.
    /// - `solution_limit`: stop after this many.
    /// - `on_solution`: called with each `Solution` as it is found; returning `False` stops the
    ///   search, and an exception it raises is raised by `solve` once the search stops.
    /// - `learning` (`"off"`, `"on"`, `"mix"`), `lns`, `free_search`: as `fzn-csp`'s options.
    /// - `assumptions`: Boolean expressions that must hold in this solve only (the model is left
    ///   as it was); when they cannot, `Model.core` names a set of them that cannot.
    ///
    /// The GIL is released while the engine searches; Ctrl-C stops it and raises
    /// `KeyboardInterrupt`.
    #[allow(clippy::too_many_arguments)]
    #[pyo3(signature = (time_limit=None, threads=1, seed=0, *, all_solutions=false, solution_limit=None, on_solution=None, learning=None, lns=None, free_search=false, assumptions=None))]
    fn solve(
        &mut self,
        py: Python<'_>,
        time_limit: Option<f64>,
        threads: usize,
        seed: u64,
        all_solutions: bool,
        solution_limit: Option<u64>,
        on_solution: Option<Py<PyAny>>,
        learning: Option<&str>,
        lns: Option<bool>,
        free_search: bool,
        assumptions: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<SolveResult> {
        let started = Instant::now();
        let assumed = assumption_nodes(assumptions)?;
        if let Some(callback) = &on_solution
            && !callback.bind(py).is_callable()
        {
            return Err(PyTypeError::new_err("on_solution must be callable"));
        }
        let options = run_options(
            time_limit,
            threads,
            seed,
            all_solutions,
            solution_limit,
            learning,
            lns,
            free_search,
            started,
        )?;
        let compiled = self.compiled_with(py, &assumed, true)?;
        let init_time = started.elapsed();
        let map = self.value_map(&compiled);
        let stop = StopFlag::new();
        let options = RunOptions {
            init_time,
            stop: Some(stop.clone()),
            ..options
        };
        let mut collect = Collect {
            map: &map,
            slots: self.vars.iter().map(|v| v.index).collect(),
            width: self.fzn.vars.len(),
            keep_all: all_solutions,
            all: Vec::new(),
            last: None,
            callback: on_solution,
            model: self.id,
            error: None,
        };
        let summary = interruptible(
            py,
            || stop.stop(),
            || csp_flatzinc::run::run(&compiled, &options, &mut collect, &mut ()),
        )?;
        if let Some(error) = collect.error.take() {
            return Err(error);
        }
        let summary = summary.map_err(|e| PyRuntimeError::new_err(e.to_string()))?;
        let objective = self.objective.as_ref().map(|(_, _, node)| Arc::clone(node));
        Ok(SolveResult::new(
            self.id,
            &summary,
            collect.last,
            collect.all,
            objective,
            started.elapsed(),
            crate::solution::status_name(summary.status),
        ))
    }

    /// A core of `assumptions` (Boolean expressions): a subset of them that the model cannot
    /// satisfy together, as a list of the expressions given (empty when the model itself has no
    /// solution), or `None` when the model satisfies them all. The objective plays no part.
    ///
    /// The core is the engine's: one learning search with the assumptions as its first
    /// decisions, and the assumptions its final conflict rests on (MiniSat's `analyzeFinal`).
    /// It need not be minimal; with `minimal=True` each of its expressions is then dropped in
    /// turn and kept only if the rest become satisfiable (deletion-based extraction, one search
    /// each, every core found replacing the set), so that dropping any one leaves a satisfiable
    /// set, unless `time_limit` ends the minimising first. Raises `TimeoutError` if `time_limit`
    /// ends the first search, which decides whether there is a core at all.
    #[pyo3(signature = (assumptions, time_limit=None, *, minimal=false))]
    fn core<'py>(
        &mut self,
        py: Python<'py>,
        assumptions: &Bound<'py, PyAny>,
        time_limit: Option<f64>,
        minimal: bool,
    ) -> PyResult<Option<Bound<'py, PyList>>> {
        let started = Instant::now();
        let deadline = crate::interrupt::time_limit(time_limit)?.map(|t| started + t);
        let items: Vec<Bound<'py, PyAny>> = assumption_items(assumptions)?;
        let nodes: Vec<Arc<Node>> = items.iter().map(node_of).collect::<PyResult<_>>()?;
        let all: Vec<usize> = (0..nodes.len()).collect();
        let mut kept = match self.assumed(py, &nodes, &all, deadline)? {
            Assumed::Satisfiable(_) => return Ok(None),
            Assumed::Core(core) => core,
            Assumed::Unknown => {
                return Err(pyo3::exceptions::PyTimeoutError::new_err(
                    "the time limit came before the assumptions were found satisfiable or not",
                ));
            }
        };
        if minimal {
            // `kept` is always a core; each expression left in it is tried once.
            let mut i = 0;
            while i < kept.len() {
                let without: Vec<usize> = kept.iter().copied().filter(|&k| k != kept[i]).collect();
                match self.assumed(py, &nodes, &without, deadline)? {
                    Assumed::Core(core) => {
                        // The expressions before `i` were each needed by a larger set, so
                        // by this subset too: they are all in its core, and stay first.
                        kept = core;
                    }
                    Assumed::Satisfiable(_) => i += 1,
                    // Out of time: what is kept is a core, if not a minimal one.
                    Assumed::Unknown => break,
                }
            }
        }
        Ok(Some(PyList::new(py, kept.iter().map(|&k| &items[k]))?))
    }

    /// The solutions one at a time, as a loop asks for them (under an objective, the improving
    /// ones): the search runs on a thread of its own and waits between solutions; breaking out of
    /// the loop stops it. Takes `solve`'s options but `all_solutions` and `on_solution`.
    #[allow(clippy::too_many_arguments)]
    #[pyo3(signature = (time_limit=None, threads=1, seed=0, *, solution_limit=None, learning=None, lns=None, free_search=false))]
    fn iter_solutions(
        &mut self,
        py: Python<'_>,
        time_limit: Option<f64>,
        threads: usize,
        seed: u64,
        solution_limit: Option<u64>,
        learning: Option<&str>,
        lns: Option<bool>,
        free_search: bool,
    ) -> PyResult<crate::iterate::SolutionIterator> {
        let started = Instant::now();
        let options = run_options(
            time_limit,
            threads,
            seed,
            true,
            solution_limit,
            learning,
            lns,
            free_search,
            started,
        )?;
        let compiled = self.compiled(py)?;
        let map = self.value_map(&compiled);
        let stop = StopFlag::new();
        let options = RunOptions {
            init_time: started.elapsed(),
            stop: Some(stop.clone()),
            ..options
        };
        Ok(crate::iterate::SolutionIterator::start(
            self.id,
            compiled,
            options,
            map,
            self.vars.iter().map(|v| v.index).collect(),
            self.fzn.vars.len(),
            stop,
        ))
    }

    /// The lowered model as FlatZinc text: what the engine solves, to read, or to run with
    /// `fzn-csp` or another FlatZinc solver. The user's variables are `X0`, `X1`, … in order of
    /// declaration, marked for output.
    fn to_flatzinc(&self) -> String {
        let objective = self.objective.as_ref().map(|&(min, elem, _)| (min, elem));
        crate::lower::flatzinc_text(&self.fzn, objective)
    }

    fn __repr__(&self) -> String {
        format!(
            "Model({} variables, {} constraints{})",
            self.vars.len(),
            self.constraints,
            match &self.objective {
                Some((true, ..)) => ", minimising",
                Some((false, ..)) => ", maximising",
                None => "",
            }
        )
    }

    /// A dictionary of the model's size, for display.
    fn size<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let dict = PyDict::new(py);
        dict.set_item("variables", self.vars.len())?;
        dict.set_item("constraints", self.constraints)?;
        dict.set_item("lowered_variables", self.fzn.vars.len())?;
        dict.set_item("lowered_constraints", self.fzn.items.len())?;
        Ok(dict)
    }

    /// The list of variables as a Python list (for `len` and iteration).
    fn variable_names<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        PyList::new(py, self.vars.iter().map(|v| v.name.clone()))
    }
}

/// The expressions of an `assumptions` argument: any iterable of Boolean expressions (a list, a
/// tuple, a set), not a string.
fn assumption_items<'py>(obj: &Bound<'py, PyAny>) -> PyResult<Vec<Bound<'py, PyAny>>> {
    if obj.is_instance_of::<pyo3::types::PyString>() || obj.cast::<Expr>().is_ok() {
        return Err(PyTypeError::new_err(
            "assumptions must be a list (or other iterable) of Boolean expressions",
        ));
    }
    obj.try_iter()
        .map_err(|_| {
            PyTypeError::new_err(
                "assumptions must be a list (or other iterable) of Boolean expressions",
            )
        })?
        .collect()
}

/// The lowered nodes of an optional `assumptions` argument.
fn assumption_nodes(obj: Option<&Bound<'_, PyAny>>) -> PyResult<Vec<Arc<Node>>> {
    match obj {
        None => Ok(Vec::new()),
        Some(obj) => assumption_items(obj)?.iter().map(node_of).collect(),
    }
}

/// The run options of a solve, checked: a clear exception for each bad one.
#[allow(clippy::too_many_arguments)]
fn run_options(
    time_limit: Option<f64>,
    threads: usize,
    seed: u64,
    all_solutions: bool,
    solution_limit: Option<u64>,
    learning: Option<&str>,
    lns: Option<bool>,
    free_search: bool,
    started: Instant,
) -> PyResult<RunOptions> {
    let time_limit = crate::interrupt::time_limit(time_limit)?;
    if threads == 0 {
        return Err(PyValueError::new_err("threads must be at least 1"));
    }
    if solution_limit == Some(0) {
        return Err(PyValueError::new_err("solution_limit must be at least 1"));
    }
    let learning = learning
        .map(|l| l.parse::<Learns>().map_err(PyValueError::new_err))
        .transpose()?;
    Ok(RunOptions {
        all_solutions,
        solutions: solution_limit,
        seed,
        threads,
        learning,
        lns,
        free_search,
        deadline: time_limit.map(|t| started + t),
        ..RunOptions::default()
    })
}

fn check_bounds(lb: i64, ub: i64, name: Option<&str>) -> PyResult<()> {
    let name = name.unwrap_or("a variable");
    if lb > ub {
        return Err(PyValueError::new_err(format!(
            "the domain of `{name}` is empty ({lb}..{ub})"
        )));
    }
    if lb < i64::from(i32::MIN) || ub > i64::from(i32::MAX) {
        return Err(PyValueError::new_err(format!(
            "the domain of `{name}` ({lb}..{ub}) does not fit the engine's 32-bit integers"
        )));
    }
    Ok(())
}
