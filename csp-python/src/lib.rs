//! The `rcsp` Python package's native module, `rcsp._native`: the modelling API (`Model`, `Expr`
//! and the global functions below), lowered to the engine in Rust (module `lower`), FlatZinc
//! solved from Python, and the N-queens experiments (module `queens`).
//!
//! PyO3's macros expand to `unsafe` blocks of their own; this crate writes none.
#![allow(unsafe_code)]

use std::sync::Arc;

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

mod cluster;
mod experiments;
mod expr;
mod flatzinc;
mod interrupt;
mod iterate;
mod lower;
mod model;
mod queens;
mod solution;

use expr::{Expr, Global, Node, nodes_of};

/// The operands of a function, gathered with the depth of the deepest.
#[derive(Default)]
struct Depth(std::cell::Cell<u32>);

impl Depth {
    fn list(&self, xs: &Bound<'_, PyAny>) -> PyResult<Vec<Arc<Node>>> {
        let (nodes, depth) = nodes_of(xs)?;
        self.0.set(self.0.get().max(depth));
        Ok(nodes)
    }

    fn one(&self, x: &Bound<'_, PyAny>) -> PyResult<Arc<Node>> {
        let (node, depth) = expr::operand(x)?;
        self.0.set(self.0.get().max(depth));
        Ok(node)
    }

    fn global(&self, g: Global) -> PyResult<Expr> {
        Expr::node(Arc::new(Node::Global(g)), self.0.get())
    }

    fn function(&self, node: Node) -> PyResult<Expr> {
        Expr::node(Arc::new(node), self.0.get())
    }
}

/// The sum of the expressions (faster than Python's `sum` on long lists).
#[pyfunction(name = "sum")]
fn sum_of(xs: &Bound<'_, PyAny>) -> PyResult<Expr> {
    let d = Depth::default();
    let terms = d.list(xs)?.into_iter().map(|x| (1, x)).collect();
    d.function(Node::Sum(terms, 0))
}

/// `Σ coefficients[i] · xs[i]`.
#[pyfunction]
fn linear(coefficients: Vec<i64>, xs: &Bound<'_, PyAny>) -> PyResult<Expr> {
    let d = Depth::default();
    let xs = d.list(xs)?;
    if coefficients.len() != xs.len() {
        return Err(PyValueError::new_err(format!(
            "linear: {} coefficients for {} expressions",
            coefficients.len(),
            xs.len()
        )));
    }
    d.function(Node::Sum(coefficients.into_iter().zip(xs).collect(), 0))
}

/// The least of the expressions.
#[pyfunction]
fn minimum(xs: &Bound<'_, PyAny>) -> PyResult<Expr> {
    let d = Depth::default();
    d.function(Node::Min(d.list(xs)?))
}

/// The greatest of the expressions.
#[pyfunction]
fn maximum(xs: &Bound<'_, PyAny>) -> PyResult<Expr> {
    let d = Depth::default();
    d.function(Node::Max(d.list(xs)?))
}

/// `array[index]`, with `index` an expression (indexed from 0).
#[pyfunction]
fn element(array: &Bound<'_, PyAny>, index: &Bound<'_, PyAny>) -> PyResult<Expr> {
    let d = Depth::default();
    d.function(Node::Element(d.list(array)?, d.one(index)?))
}

/// How many of `xs` equal `value`.
#[pyfunction]
fn count(xs: &Bound<'_, PyAny>, value: &Bound<'_, PyAny>) -> PyResult<Expr> {
    let d = Depth::default();
    d.function(Node::Count(d.list(xs)?, d.one(value)?))
}

/// How many of `xs` take one of `values`.
#[pyfunction]
fn among(xs: &Bound<'_, PyAny>, values: Vec<i64>) -> PyResult<Expr> {
    let d = Depth::default();
    d.function(Node::Among(d.list(xs)?, values))
}

/// How many distinct values `xs` take.
#[pyfunction]
fn nvalue(xs: &Bound<'_, PyAny>) -> PyResult<Expr> {
    let d = Depth::default();
    d.function(Node::NValue(d.list(xs)?))
}

/// All of the Booleans hold.
#[pyfunction]
fn all_of(xs: &Bound<'_, PyAny>) -> PyResult<Expr> {
    let d = Depth::default();
    d.function(Node::And(booleans(&d, xs, "all_of")?))
}

/// At least one of the Booleans holds.
#[pyfunction]
fn any_of(xs: &Bound<'_, PyAny>) -> PyResult<Expr> {
    let d = Depth::default();
    d.function(Node::Or(booleans(&d, xs, "any_of")?))
}

/// An odd number of the Booleans hold.
#[pyfunction]
fn xor(xs: &Bound<'_, PyAny>) -> PyResult<Expr> {
    let d = Depth::default();
    d.function(Node::Xor(booleans(&d, xs, "xor")?))
}

/// If `a` holds, `b` does.
#[pyfunction]
fn implies(a: &Bound<'_, PyAny>, b: &Bound<'_, PyAny>) -> PyResult<Expr> {
    let d = Depth::default();
    let (a, b) = (d.one(a)?, d.one(b)?);
    for x in [&a, &b] {
        if !x.is_bool() {
            return Err(pyo3::exceptions::PyTypeError::new_err(format!(
                "implies takes Booleans, not {}",
                x.describe()
            )));
        }
    }
    d.function(Node::Implies(a, b))
}

fn booleans(d: &Depth, xs: &Bound<'_, PyAny>, name: &str) -> PyResult<Vec<Arc<Node>>> {
    let xs = d.list(xs)?;
    if let Some(x) = xs.iter().find(|x| !x.is_bool()) {
        return Err(pyo3::exceptions::PyTypeError::new_err(format!(
            "{name} takes Booleans, not {}",
            x.describe()
        )));
    }
    Ok(xs)
}

/// The expressions take pairwise different values.
#[pyfunction]
fn all_different(xs: &Bound<'_, PyAny>) -> PyResult<Expr> {
    let d = Depth::default();
    d.global(Global::AllDifferent(d.list(xs)?))
}

/// The expressions other than 0 take pairwise different values.
#[pyfunction]
fn all_different_except_0(xs: &Bound<'_, PyAny>) -> PyResult<Expr> {
    let d = Depth::default();
    d.global(Global::AllDifferentExcept0(d.list(xs)?))
}

/// The expressions all take one value.
#[pyfunction]
fn all_equal(xs: &Bound<'_, PyAny>) -> PyResult<Expr> {
    let d = Depth::default();
    d.global(Global::AllEqual(d.list(xs)?))
}

/// `xs` take the values of one of `tuples`.
#[pyfunction]
fn table(xs: &Bound<'_, PyAny>, tuples: Vec<Vec<i64>>) -> PyResult<Expr> {
    let d = Depth::default();
    d.global(Global::Table(d.list(xs)?, tuples))
}

/// `xs`, read as a word, is accepted by the automaton with `transitions[(q, s)] = q'` (states any
/// ints, symbols the values 1, 2, …), from `start`, ending in one of `accepting`.
#[pyfunction]
fn regular(
    xs: &Bound<'_, PyAny>,
    transitions: std::collections::BTreeMap<(i64, i64), i64>,
    start: i64,
    accepting: Vec<i64>,
) -> PyResult<Expr> {
    let d = Depth::default();
    // FlatZinc numbers states 1..=Q: the states are renumbered in order.
    let xs = d.list(xs)?;
    let mut states: Vec<i64> = transitions
        .iter()
        .flat_map(|(&(q, _), &r)| [q, r])
        .chain([start])
        .chain(accepting.iter().copied())
        .collect();
    states.sort_unstable();
    states.dedup();
    // Symbols are the variables' values, 1 to S.
    let symbols = transitions
        .keys()
        .map(|&(_, s)| s)
        .max()
        .unwrap_or(1)
        .max(1);
    if let Some(&(_, s)) = transitions.keys().find(|&&(_, s)| s < 1) {
        return Err(PyValueError::new_err(format!(
            "regular: the symbols (the variables' values) are 1, 2, …; {s} is not one"
        )));
    }
    let state = |q: i64| states.binary_search(&q).expect("collected") as i64 + 1;
    let mut table = vec![0; states.len() * symbols as usize];
    for (&(q, s), &r) in &transitions {
        table[(state(q) - 1) as usize * symbols as usize + (s - 1) as usize] = state(r);
    }
    d.global(Global::Regular {
        vars: xs,
        states: states.len() as i64,
        symbols,
        transitions: table,
        start: state(start),
        accepting: accepting.iter().map(|&q| state(q)).collect(),
    })
}

/// The successors `succ` (indexed from 0) form one circuit through every node.
#[pyfunction]
fn circuit(succ: &Bound<'_, PyAny>) -> PyResult<Expr> {
    let d = Depth::default();
    d.global(Global::Circuit(d.list(succ)?))
}

/// The successors form one circuit through the nodes that are not their own successor.
#[pyfunction]
fn subcircuit(succ: &Bound<'_, PyAny>) -> PyResult<Expr> {
    let d = Depth::default();
    d.global(Global::Subcircuit(d.list(succ)?))
}

/// `f[i] = j` exactly when `inverse[j] = i` (indexed from 0).
#[pyfunction]
fn inverse(f: &Bound<'_, PyAny>, inverse: &Bound<'_, PyAny>) -> PyResult<Expr> {
    let d = Depth::default();
    d.global(Global::Inverse(d.list(f)?, d.list(inverse)?))
}

/// Tasks (start, duration, demand) never use more than `capacity` at once.
#[pyfunction]
fn cumulative(
    starts: &Bound<'_, PyAny>,
    durations: &Bound<'_, PyAny>,
    demands: &Bound<'_, PyAny>,
    capacity: &Bound<'_, PyAny>,
) -> PyResult<Expr> {
    let d = Depth::default();
    d.global(Global::Cumulative {
        starts: d.list(starts)?,
        durations: d.list(durations)?,
        demands: d.list(demands)?,
        capacity: d.one(capacity)?,
    })
}

/// Tasks (start, duration) never overlap.
#[pyfunction]
fn disjunctive(starts: &Bound<'_, PyAny>, durations: &Bound<'_, PyAny>) -> PyResult<Expr> {
    let d = Depth::default();
    d.global(Global::Disjunctive {
        starts: d.list(starts)?,
        durations: d.list(durations)?,
    })
}

/// Rectangles (x, y, dx, dy) never overlap.
#[pyfunction]
fn diffn(
    x: &Bound<'_, PyAny>,
    y: &Bound<'_, PyAny>,
    dx: &Bound<'_, PyAny>,
    dy: &Bound<'_, PyAny>,
) -> PyResult<Expr> {
    let d = Depth::default();
    d.global(Global::Diffn {
        x: d.list(x)?,
        y: d.list(y)?,
        dx: d.list(dx)?,
        dy: d.list(dy)?,
    })
}

/// `counts[i]` of `xs` take `values[i]`; with `closed`, `xs` take no other value.
#[pyfunction]
#[pyo3(signature = (xs, values, counts, closed=false))]
fn global_cardinality(
    xs: &Bound<'_, PyAny>,
    values: Vec<i64>,
    counts: &Bound<'_, PyAny>,
    closed: bool,
) -> PyResult<Expr> {
    let d = Depth::default();
    d.global(Global::Cardinality {
        vars: d.list(xs)?,
        values,
        counts: d.list(counts)?,
        closed,
    })
}

/// `a` comes strictly before `b` in lexicographic order.
#[pyfunction]
fn lex_less(a: &Bound<'_, PyAny>, b: &Bound<'_, PyAny>) -> PyResult<Expr> {
    let d = Depth::default();
    d.global(Global::Lex {
        a: d.list(a)?,
        b: d.list(b)?,
        strict: true,
    })
}

/// `a` comes before `b` in lexicographic order, or equals it.
#[pyfunction]
fn lex_lesseq(a: &Bound<'_, PyAny>, b: &Bound<'_, PyAny>) -> PyResult<Expr> {
    let d = Depth::default();
    d.global(Global::Lex {
        a: d.list(a)?,
        b: d.list(b)?,
        strict: false,
    })
}

/// `xs` never decrease.
#[pyfunction]
fn increasing(xs: &Bound<'_, PyAny>) -> PyResult<Expr> {
    let d = Depth::default();
    d.global(Global::Increasing(d.list(xs)?))
}

/// `xs` never increase.
#[pyfunction]
fn decreasing(xs: &Bound<'_, PyAny>) -> PyResult<Expr> {
    let d = Depth::default();
    d.global(Global::Decreasing(d.list(xs)?))
}

/// Item `i`, of weight `weights[i]`, goes in bin `bins[i]` (indexed from 0); `loads[b]` is the
/// total weight in bin `b`.
#[pyfunction]
fn bin_packing_load(
    loads: &Bound<'_, PyAny>,
    bins: &Bound<'_, PyAny>,
    weights: Vec<i64>,
) -> PyResult<Expr> {
    let d = Depth::default();
    d.global(Global::BinPacking {
        loads: d.list(loads)?,
        bins: d.list(bins)?,
        weights,
    })
}

/// Value `s` comes before the first `t` in `xs`, if `t` appears.
#[pyfunction]
fn value_precede(s: i64, t: i64, xs: &Bound<'_, PyAny>) -> PyResult<Expr> {
    let d = Depth::default();
    d.global(Global::ValuePrecede {
        s,
        t,
        vars: d.list(xs)?,
    })
}

/// `y` equals one of `xs`.
#[pyfunction]
fn member(xs: &Bound<'_, PyAny>, y: &Bound<'_, PyAny>) -> PyResult<Expr> {
    let d = Depth::default();
    d.global(Global::Member(d.list(xs)?, d.one(y)?))
}

/// The native module.
#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<model::Model>()?;
    m.add_class::<Expr>()?;
    m.add_class::<solution::Solution>()?;
    m.add_class::<solution::SolveResult>()?;
    m.add_class::<iterate::SolutionIterator>()?;
    m.add_function(wrap_pyfunction!(sum_of, m)?)?;
    m.add_function(wrap_pyfunction!(linear, m)?)?;
    m.add_function(wrap_pyfunction!(minimum, m)?)?;
    m.add_function(wrap_pyfunction!(maximum, m)?)?;
    m.add_function(wrap_pyfunction!(element, m)?)?;
    m.add_function(wrap_pyfunction!(count, m)?)?;
    m.add_function(wrap_pyfunction!(among, m)?)?;
    m.add_function(wrap_pyfunction!(nvalue, m)?)?;
    m.add_function(wrap_pyfunction!(all_of, m)?)?;
    m.add_function(wrap_pyfunction!(any_of, m)?)?;
    m.add_function(wrap_pyfunction!(xor, m)?)?;
    m.add_function(wrap_pyfunction!(implies, m)?)?;
    m.add_function(wrap_pyfunction!(all_different, m)?)?;
    m.add_function(wrap_pyfunction!(all_different_except_0, m)?)?;
    m.add_function(wrap_pyfunction!(all_equal, m)?)?;
    m.add_function(wrap_pyfunction!(table, m)?)?;
    m.add_function(wrap_pyfunction!(regular, m)?)?;
    m.add_function(wrap_pyfunction!(circuit, m)?)?;
    m.add_function(wrap_pyfunction!(subcircuit, m)?)?;
    m.add_function(wrap_pyfunction!(inverse, m)?)?;
    m.add_function(wrap_pyfunction!(cumulative, m)?)?;
    m.add_function(wrap_pyfunction!(disjunctive, m)?)?;
    m.add_function(wrap_pyfunction!(diffn, m)?)?;
    m.add_function(wrap_pyfunction!(global_cardinality, m)?)?;
    m.add_function(wrap_pyfunction!(lex_less, m)?)?;
    m.add_function(wrap_pyfunction!(lex_lesseq, m)?)?;
    m.add_function(wrap_pyfunction!(increasing, m)?)?;
    m.add_function(wrap_pyfunction!(decreasing, m)?)?;
    m.add_function(wrap_pyfunction!(bin_packing_load, m)?)?;
    m.add_function(wrap_pyfunction!(value_precede, m)?)?;
    m.add_function(wrap_pyfunction!(member, m)?)?;
    cluster::register(m)?;
    flatzinc::register(m)?;
    queens::register(m)?;
    experiments::register(m)?;
    Ok(())
}
