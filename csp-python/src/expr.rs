//! Expressions as Python builds them: a tree of [`Node`]s behind the `Expr` class, made by the
//! operators (`x + 2 * y <= z`, `a & ~b`) and the global functions. Nothing is checked or lowered
//! here beyond the operands' types: [`crate::lower`] turns a tree into the engine's constraints
//! when it is added to a model.

use std::sync::Arc;

use pyo3::basic::CompareOp;
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;

/// A variable of a model, as its expressions hold it.
#[derive(Debug)]
pub(crate) struct VarInfo {
    /// The model it belongs to (see [`crate::model::Model`]).
    pub(crate) model: u64,
    /// Its index among the model's variables.
    pub(crate) index: u32,
    /// Its name, as given or made up.
    pub(crate) name: String,
    /// Whether it is a Boolean (0 or 1, `True` or `False` in solutions).
    pub(crate) boolean: bool,
    /// The bounds of its domain.
    pub(crate) lb: i64,
    /// See [`VarInfo::lb`].
    pub(crate) ub: i64,
}

/// How two integer expressions compare.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Cmp {
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
}

impl Cmp {
    /// The comparison that holds exactly when this one does not.
    pub(crate) fn negated(self) -> Cmp {
        match self {
            Cmp::Eq => Cmp::Ne,
            Cmp::Ne => Cmp::Eq,
            Cmp::Lt => Cmp::Ge,
            Cmp::Le => Cmp::Gt,
            Cmp::Gt => Cmp::Le,
            Cmp::Ge => Cmp::Lt,
        }
    }

    fn symbol(self) -> &'static str {
        match self {
            Cmp::Eq => "==",
            Cmp::Ne => "!=",
            Cmp::Lt => "<",
            Cmp::Le => "<=",
            Cmp::Gt => ">",
            Cmp::Ge => ">=",
        }
    }
}

/// A node of an expression tree.
#[derive(Debug)]
pub(crate) enum Node {
    /// An integer constant; `boolean` for Python's `True` and `False`.
    Const { value: i64, boolean: bool },
    /// A variable.
    Var(Arc<VarInfo>),
    /// `Σ aᵢ·eᵢ + c`.
    Sum(Vec<(i64, Arc<Node>)>, i64),
    /// `a * b`.
    Mul(Arc<Node>, Arc<Node>),
    /// `a // b`, rounding towards zero as MiniZinc and CPMpy do.
    Div(Arc<Node>, Arc<Node>),
    /// `a % b`, with the sign of `a`.
    Mod(Arc<Node>, Arc<Node>),
    /// `a ** b`.
    Pow(Arc<Node>, Arc<Node>),
    /// `abs(a)`.
    Abs(Arc<Node>),
    /// The least of the expressions.
    Min(Vec<Arc<Node>>),
    /// The greatest of the expressions.
    Max(Vec<Arc<Node>>),
    /// `array[index]`, indexed from 0.
    Element(Vec<Arc<Node>>, Arc<Node>),
    /// How many of the expressions equal the value.
    Count(Vec<Arc<Node>>, Arc<Node>),
    /// How many of the expressions take a value in the set.
    Among(Vec<Arc<Node>>, Vec<i64>),
    /// How many distinct values the expressions take.
    NValue(Vec<Arc<Node>>),
    /// A comparison: a Boolean.
    Compare(Cmp, Arc<Node>, Arc<Node>),
    /// All hold.
    And(Vec<Arc<Node>>),
    /// At least one holds.
    Or(Vec<Arc<Node>>),
    /// It does not hold.
    Not(Arc<Node>),
    /// An odd number hold.
    Xor(Vec<Arc<Node>>),
    /// If the first holds, the second does.
    Implies(Arc<Node>, Arc<Node>),
    /// A global constraint: a Boolean that can only be posted, not reified.
    Global(Global),
}

/// A global constraint of the engine's catalogue, with its arguments as FlatZinc states them
/// (arrays indexed from 0, as Python's are).
#[derive(Debug)]
pub(crate) enum Global {
    AllDifferent(Vec<Arc<Node>>),
    AllDifferentExcept0(Vec<Arc<Node>>),
    AllEqual(Vec<Arc<Node>>),
    Table(Vec<Arc<Node>>, Vec<Vec<i64>>),
    /// The variables, then the automaton: states `1..=states`, symbols `1..=symbols`,
    /// `transitions[(q - 1) * symbols + (s - 1)]` the next state (0: none), start, accepting.
    Regular {
        vars: Vec<Arc<Node>>,
        states: i64,
        symbols: i64,
        transitions: Vec<i64>,
        start: i64,
        accepting: Vec<i64>,
    },
    Circuit(Vec<Arc<Node>>),
    Subcircuit(Vec<Arc<Node>>),
    Inverse(Vec<Arc<Node>>, Vec<Arc<Node>>),
    Cumulative {
        starts: Vec<Arc<Node>>,
        durations: Vec<Arc<Node>>,
        demands: Vec<Arc<Node>>,
        capacity: Arc<Node>,
    },
    Disjunctive {
        starts: Vec<Arc<Node>>,
        durations: Vec<Arc<Node>>,
    },
    Diffn {
        x: Vec<Arc<Node>>,
        y: Vec<Arc<Node>>,
        dx: Vec<Arc<Node>>,
        dy: Vec<Arc<Node>>,
    },
    Cardinality {
        vars: Vec<Arc<Node>>,
        values: Vec<i64>,
        counts: Vec<Arc<Node>>,
        closed: bool,
    },
    Lex {
        a: Vec<Arc<Node>>,
        b: Vec<Arc<Node>>,
        strict: bool,
    },
    Increasing(Vec<Arc<Node>>),
    Decreasing(Vec<Arc<Node>>),
    BinPacking {
        loads: Vec<Arc<Node>>,
        bins: Vec<Arc<Node>>,
        weights: Vec<i64>,
    },
    ValuePrecede {
        s: i64,
        t: i64,
        vars: Vec<Arc<Node>>,
    },
    Member(Vec<Arc<Node>>, Arc<Node>),
}

impl Global {
    /// The constraint's name in Python.
    pub(crate) fn name(&self) -> &'static str {
        match self {
            Global::AllDifferent(_) => "all_different",
            Global::AllDifferentExcept0(_) => "all_different_except_0",
            Global::AllEqual(_) => "all_equal",
            Global::Table(..) => "table",
            Global::Regular { .. } => "regular",
            Global::Circuit(_) => "circuit",
            Global::Subcircuit(_) => "subcircuit",
            Global::Inverse(..) => "inverse",
            Global::Cumulative { .. } => "cumulative",
            Global::Disjunctive { .. } => "disjunctive",
            Global::Diffn { .. } => "diffn",
            Global::Cardinality { .. } => "global_cardinality",
            Global::Lex { strict: true, .. } => "lex_less",
            Global::Lex { strict: false, .. } => "lex_lesseq",
            Global::Increasing(_) => "increasing",
            Global::Decreasing(_) => "decreasing",
            Global::BinPacking { .. } => "bin_packing_load",
            Global::ValuePrecede { .. } => "value_precede",
            Global::Member(..) => "member",
        }
    }
}

impl Node {
    /// Whether the node is a Boolean: a Boolean variable or constant, a comparison, a logical
    /// operator or a global constraint.
    pub(crate) fn is_bool(&self) -> bool {
        match self {
            Node::Const { boolean, .. } => *boolean,
            Node::Var(var) => var.boolean,
            Node::Compare(..)
            | Node::And(_)
            | Node::Or(_)
            | Node::Not(_)
            | Node::Xor(_)
            | Node::Implies(..)
            | Node::Global(_) => true,
            _ => false,
        }
    }

    /// The constant, if the node is one.
    pub(crate) fn constant(&self) -> Option<i64> {
        match self {
            Node::Const { value, .. } => Some(*value),
            _ => None,
        }
    }

    fn int(value: i64) -> Arc<Node> {
        Arc::new(Node::Const {
            value,
            boolean: false,
        })
    }

    /// The node as `Σ aᵢ·eᵢ + c` (a copy of a sum's terms, or the node alone).
    fn as_sum(self: &Arc<Node>) -> (Vec<(i64, Arc<Node>)>, i64) {
        match &**self {
            Node::Sum(terms, c) => (terms.clone(), *c),
            Node::Const {
                value,
                boolean: false,
            } => (Vec::new(), *value),
            _ => (vec![(1, Arc::clone(self))], 0),
        }
    }

    /// `a·x + b·y`, kept flat so that long sums stay one node.
    fn linear(a: i64, x: &Arc<Node>, b: i64, y: &Arc<Node>) -> PyResult<Arc<Node>> {
        let (mut terms, c) = x.as_sum();
        let scale = |terms: &mut Vec<(i64, Arc<Node>)>, k: i64| -> PyResult<()> {
            for (coef, _) in terms.iter_mut() {
                *coef = coef.checked_mul(k).ok_or_else(overflow)?;
            }
            Ok(())
        };
        scale(&mut terms, a)?;
        let c = c.checked_mul(a).ok_or_else(overflow)?;
        let (mut more, d) = y.as_sum();
        scale(&mut more, b)?;
        let d = d.checked_mul(b).ok_or_else(overflow)?;
        terms.extend(more);
        let c = c.checked_add(d).ok_or_else(overflow)?;
        Ok(if terms.is_empty() {
            Node::int(c)
        } else {
            Arc::new(Node::Sum(terms, c))
        })
    }

    /// How the node reads in an error message.
    pub(crate) fn describe(&self) -> String {
        let list = |xs: &[Arc<Node>]| {
            xs.iter()
                .map(|x| x.describe())
                .collect::<Vec<_>>()
                .join(", ")
        };
        match self {
            Node::Const { value, boolean } => match (boolean, value) {
                (true, 0) => "False".to_owned(),
                (true, _) => "True".to_owned(),
                _ => value.to_string(),
            },
            Node::Var(var) => var.name.clone(),
            Node::Sum(terms, c) => {
                let mut text = terms
                    .iter()
                    .map(|(a, x)| match a {
                        1 => x.describe(),
                        _ => format!("{a}*{}", x.describe()),
                    })
                    .collect::<Vec<_>>()
                    .join(" + ");
                if *c != 0 {
                    text.push_str(&format!(" + {c}"));
                }
                format!("({text})")
            }
            Node::Mul(a, b) => format!("({} * {})", a.describe(), b.describe()),
            Node::Div(a, b) => format!("({} // {})", a.describe(), b.describe()),
            Node::Mod(a, b) => format!("({} % {})", a.describe(), b.describe()),
            Node::Pow(a, b) => format!("({} ** {})", a.describe(), b.describe()),
            Node::Abs(a) => format!("abs({})", a.describe()),
            Node::Min(xs) => format!("min({})", list(xs)),
            Node::Max(xs) => format!("max({})", list(xs)),
            Node::Element(xs, i) => format!("[{}][{}]", list(xs), i.describe()),
            Node::Count(xs, v) => format!("count([{}], {})", list(xs), v.describe()),
            Node::Among(xs, vs) => format!("among([{}], {vs:?})", list(xs)),
            Node::NValue(xs) => format!("nvalue([{}])", list(xs)),
            Node::Compare(op, a, b) => {
                format!("{} {} {}", a.describe(), op.symbol(), b.describe())
            }
            Node::And(xs) => format!("and({})", list(xs)),
            Node::Or(xs) => format!("or({})", list(xs)),
            Node::Not(a) => format!("~({})", a.describe()),
            Node::Xor(xs) => format!("xor({})", list(xs)),
            Node::Implies(a, b) => format!("({}).implies({})", a.describe(), b.describe()),
            Node::Global(g) => format!("{}(…)", g.name()),
        }
    }
}

/// The bounds of an integer, saturated to 64 bits.
pub(crate) type Bounds = (i64, i64);

pub(crate) const I32: Bounds = (i32::MIN as i64, i32::MAX as i64);

fn sat(x: i128) -> i64 {
    x.clamp(i128::from(i64::MIN), i128::from(i64::MAX)) as i64
}

/// The smallest and largest value `node` can take, from its variables' declared bounds.
pub(crate) fn bounds(node: &Node) -> PyResult<Bounds> {
    let corners = |a: Bounds, b: Bounds, f: fn(i128, i128) -> i128| {
        let values = [
            f(a.0.into(), b.0.into()),
            f(a.0.into(), b.1.into()),
            f(a.1.into(), b.0.into()),
            f(a.1.into(), b.1.into()),
        ];
        (
            sat(*values.iter().min().expect("four")),
            sat(*values.iter().max().expect("four")),
        )
    };
    Ok(match node {
        Node::Const { value, .. } => (*value, *value),
        Node::Var(var) => (var.lb, var.ub),
        Node::Sum(terms, c) => {
            let (mut lo, mut hi) = (i128::from(*c), i128::from(*c));
            for (a, x) in terms {
                let (xl, xh) = bounds(x)?;
                let (p, q) = (
                    i128::from(*a) * i128::from(xl),
                    i128::from(*a) * i128::from(xh),
                );
                lo += p.min(q);
                hi += p.max(q);
            }
            (sat(lo), sat(hi))
        }
        Node::Mul(a, b) => corners(bounds(a)?, bounds(b)?, |x, y| x * y),
        Node::Div(a, _) | Node::Mod(a, _) => {
            let (lo, hi) = bounds(a)?;
            let m = lo.unsigned_abs().max(hi.unsigned_abs());
            let m = i64::try_from(m).unwrap_or(i64::MAX);
            match node {
                Node::Mod(_, b) => {
                    let (bl, bh) = bounds(b)?;
                    let k = bl.unsigned_abs().max(bh.unsigned_abs()).saturating_sub(1);
                    let k = i64::try_from(k).unwrap_or(i64::MAX).min(m);
                    (if lo < 0 { -k } else { 0 }, if hi > 0 { k } else { 0 })
                }
                _ => (-m, m),
            }
        }
        Node::Pow(a, b) => {
            let (al, ah) = bounds(a)?;
            let (_, bh) = bounds(b)?;
            let m = i128::from(al.unsigned_abs().max(ah.unsigned_abs()) as i64);
            let e = u32::try_from(bh.clamp(0, 64)).expect("clamped");
            let big = m.checked_pow(e).unwrap_or(i128::MAX);
            (sat(-big).min(0).min(al), sat(big).max(1))
        }
        Node::Abs(a) => {
            let (lo, hi) = bounds(a)?;
            let m = sat(i128::from(lo).abs().max(i128::from(hi).abs()));
            (
                if lo <= 0 && hi >= 0 {
                    0
                } else {
                    lo.abs().min(hi.abs())
                },
                m,
            )
        }
        Node::Min(xs) | Node::Max(xs) | Node::Element(xs, _) => {
            let all: Vec<Bounds> = xs.iter().map(|x| bounds(x)).collect::<PyResult<_>>()?;
            let lo = all.iter().map(|b| b.0);
            let hi = all.iter().map(|b| b.1);
            match node {
                Node::Min(_) => (lo.min().unwrap_or(0), hi.min().unwrap_or(0)),
                Node::Max(_) => (lo.max().unwrap_or(0), hi.max().unwrap_or(0)),
                _ => (lo.min().unwrap_or(0), hi.max().unwrap_or(0)),
            }
        }
        Node::Count(xs, _) | Node::Among(xs, _) => (0, xs.len() as i64),
        Node::NValue(xs) => (i64::from(!xs.is_empty()), xs.len() as i64),
        _ => (0, 1),
    })
}

fn overflow() -> PyErr {
    PyValueError::new_err("a coefficient or constant overflows 64 bits")
}

/// An expression of a model: a variable, an integer expression or a constraint. Built with Python's
/// operators and this package's functions, and lowered to the engine when added to a model.
#[pyclass(frozen, module = "rcsp", name = "Expr")]
pub(crate) struct Expr {
    pub(crate) node: Arc<Node>,
    /// How deeply the tree nests: lowering, evaluating and dropping a tree recurse along it, so
    /// a tree deeper than [`MAX_DEPTH`] is refused when it is built, never met on the stack.
    pub(crate) depth: u32,
}

/// The deepest expression tree accepted: far deeper than a model written by hand, and far
/// shallower than what would exhaust a thread's stack. Long sums, conjunctions and disjunctions
/// stay flat (`a + b + c` is one sum), so they never come near it.
pub(crate) const MAX_DEPTH: u32 = 2000;

impl Expr {
    /// A leaf: a variable or a constant.
    pub(crate) fn leaf(node: Arc<Node>) -> Expr {
        Expr { node, depth: 0 }
    }

    /// A node whose deepest operand nests `below` deep.
    pub(crate) fn node(node: Arc<Node>, below: u32) -> PyResult<Expr> {
        let depth = below + 1;
        if depth > MAX_DEPTH {
            return Err(pyo3::exceptions::PyRecursionError::new_err(format!(
                "the expression nests more than {MAX_DEPTH} levels deep: build long sums, \
                 conjunctions and disjunctions with rcsp.sum, rcsp.all_of and rcsp.any_of"
            )));
        }
        Ok(Expr { node, depth })
    }

    /// A flattened sum, conjunction or disjunction of `operands` (each with its depth): an
    /// operand of the same kind was merged into it and brings its terms, one level less deep
    /// than itself; any other operand became a term.
    fn flat(node: Arc<Node>, operands: &[(&Arc<Node>, u32)]) -> PyResult<Expr> {
        let kind = std::mem::discriminant(&*node);
        let below = operands
            .iter()
            .map(|&(operand, depth)| {
                if std::mem::discriminant(&**operand) == kind {
                    depth.saturating_sub(1)
                } else {
                    depth
                }
            })
            .max()
            .unwrap_or(0);
        Expr::node(node, below)
    }
}

/// The node of a Python operand: an `Expr`, a Python `bool` or an `int` (NumPy's integers too).
pub(crate) fn node_of(obj: &Bound<'_, PyAny>) -> PyResult<Arc<Node>> {
    operand(obj).map(|(node, _)| node)
}

/// An operand's node and depth.
pub(crate) fn operand(obj: &Bound<'_, PyAny>) -> PyResult<(Arc<Node>, u32)> {
    if let Ok(expr) = obj.cast::<Expr>() {
        let expr = expr.get();
        return Ok((Arc::clone(&expr.node), expr.depth));
    }
    if let Ok(b) = obj.extract::<bool>() {
        // Python's bool (and NumPy's) before int: True is an int in Python, but a Boolean here.
        if obj.is_instance_of::<pyo3::types::PyBool>()
            || obj.get_type().name()?.to_str()? == "bool_"
        {
            return Ok((
                Arc::new(Node::Const {
                    value: i64::from(b),
                    boolean: true,
                }),
                0,
            ));
        }
    }
    if obj.is_instance_of::<pyo3::types::PyString>() {
        return Err(PyTypeError::new_err(
            "expected an expression, an int or a bool, not a string",
        ));
    }
    match obj.extract::<i64>() {
        Ok(value) => Ok((Node::int(value), 0)),
        Err(_) => Err(PyTypeError::new_err(format!(
            "expected an expression, an int or a bool, not {}",
            obj.get_type().name()?
        ))),
    }
}

/// The nodes of a Python iterable of operands, and the deepest one's depth.
pub(crate) fn nodes_of(obj: &Bound<'_, PyAny>) -> PyResult<(Vec<Arc<Node>>, u32)> {
    if obj.cast::<Expr>().is_ok() || obj.is_instance_of::<pyo3::types::PyString>() {
        return Err(PyTypeError::new_err(format!(
            "expected a list of expressions, not {}",
            obj.get_type()
                .name()
                .map(|n| n.to_string())
                .unwrap_or_default()
        )));
    }
    let mut depth = 0;
    let nodes = obj
        .try_iter()
        .map_err(|_| {
            PyTypeError::new_err(format!(
                "expected a list of expressions, not {}",
                obj.get_type()
                    .name()
                    .map(|n| n.to_string())
                    .unwrap_or_default()
            ))
        })?
        .map(|item| {
            let (node, d) = operand(&item?)?;
            depth = depth.max(d);
            Ok(node)
        })
        .collect::<PyResult<Vec<_>>>()?;
    Ok((nodes, depth))
}

/// `node`, if it is a Boolean.
fn require_bool(node: Arc<Node>, op: &str) -> PyResult<Arc<Node>> {
    if node.is_bool() {
        Ok(node)
    } else {
        Err(PyTypeError::new_err(format!(
            "`{op}` takes Booleans (constraints, Boolean variables, True, False), not {}",
            node.describe()
        )))
    }
}

/// `a ⋆ b` for a binary operator that makes a node of its own.
fn binary(
    (a, da): (Arc<Node>, u32),
    (b, db): (Arc<Node>, u32),
    make: fn(Arc<Node>, Arc<Node>) -> Node,
) -> PyResult<Expr> {
    Expr::node(Arc::new(make(a, b)), da.max(db))
}

/// `x·a + y·b`, flattened.
fn linear(x: i64, (a, da): (Arc<Node>, u32), y: i64, (b, db): (Arc<Node>, u32)) -> PyResult<Expr> {
    let node = Node::linear(x, &a, y, &b)?;
    Expr::flat(node, &[(&a, da), (&b, db)])
}

/// `a ∧ b` or `a ∨ b` of two Booleans, flattened into one conjunction or disjunction.
fn junction(
    and: bool,
    (a, da): (Arc<Node>, u32),
    (b, db): (Arc<Node>, u32),
    op: &str,
) -> PyResult<Expr> {
    let (a, b) = (require_bool(a, op)?, require_bool(b, op)?);
    let mut terms = Vec::new();
    for x in [&a, &b] {
        match (&**x, and) {
            (Node::And(xs), true) | (Node::Or(xs), false) => terms.extend(xs.iter().cloned()),
            _ => terms.push(Arc::clone(x)),
        }
    }
    let node = Arc::new(if and {
        Node::And(terms)
    } else {
        Node::Or(terms)
    });
    Expr::flat(node, &[(&a, da), (&b, db)])
}

impl Expr {
    fn me(&self) -> (Arc<Node>, u32) {
        (Arc::clone(&self.node), self.depth)
    }
}

fn zero() -> (Arc<Node>, u32) {
    (Node::int(0), 0)
}

#[pymethods]
impl Expr {
    fn __add__(&self, other: &Bound<'_, PyAny>) -> PyResult<Expr> {
        linear(1, self.me(), 1, operand(other)?)
    }

    fn __radd__(&self, other: &Bound<'_, PyAny>) -> PyResult<Expr> {
        linear(1, operand(other)?, 1, self.me())
    }

    fn __sub__(&self, other: &Bound<'_, PyAny>) -> PyResult<Expr> {
        linear(1, self.me(), -1, operand(other)?)
    }

    fn __rsub__(&self, other: &Bound<'_, PyAny>) -> PyResult<Expr> {
        linear(1, operand(other)?, -1, self.me())
    }

    fn __neg__(&self) -> PyResult<Expr> {
        linear(-1, self.me(), 0, zero())
    }

    fn __pos__(&self) -> Expr {
        Expr {
            node: Arc::clone(&self.node),
            depth: self.depth,
        }
    }

    fn __mul__(&self, other: &Bound<'_, PyAny>) -> PyResult<Expr> {
        let other = operand(other)?;
        match (self.node.constant(), other.0.constant()) {
            (_, Some(k)) => linear(k, self.me(), 0, zero()),
            (Some(k), _) => linear(k, other, 0, zero()),
            _ => binary(self.me(), other, Node::Mul),
        }
    }

    fn __rmul__(&self, other: &Bound<'_, PyAny>) -> PyResult<Expr> {
        self.__mul__(other)
    }

    fn __floordiv__(&self, other: &Bound<'_, PyAny>) -> PyResult<Expr> {
        binary(self.me(), operand(other)?, Node::Div)
    }

    fn __rfloordiv__(&self, other: &Bound<'_, PyAny>) -> PyResult<Expr> {
        binary(operand(other)?, self.me(), Node::Div)
    }

    fn __mod__(&self, other: &Bound<'_, PyAny>) -> PyResult<Expr> {
        binary(self.me(), operand(other)?, Node::Mod)
    }

    fn __rmod__(&self, other: &Bound<'_, PyAny>) -> PyResult<Expr> {
        binary(operand(other)?, self.me(), Node::Mod)
    }

    fn __pow__(
        &self,
        other: &Bound<'_, PyAny>,
        modulo: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Expr> {
        if modulo.is_some() {
            return Err(PyTypeError::new_err(
                "pow() with a modulus is not supported",
            ));
        }
        binary(self.me(), operand(other)?, Node::Pow)
    }

    fn __rpow__(
        &self,
        other: &Bound<'_, PyAny>,
        modulo: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Expr> {
        if modulo.is_some() {
            return Err(PyTypeError::new_err(
                "pow() with a modulus is not supported",
            ));
        }
        binary(operand(other)?, self.me(), Node::Pow)
    }

    fn __abs__(&self) -> PyResult<Expr> {
        Expr::node(Arc::new(Node::Abs(Arc::clone(&self.node))), self.depth)
    }

    fn __richcmp__(&self, other: &Bound<'_, PyAny>, op: CompareOp) -> PyResult<Expr> {
        let cmp = match op {
            CompareOp::Eq => Cmp::Eq,
            CompareOp::Ne => Cmp::Ne,
            CompareOp::Lt => Cmp::Lt,
            CompareOp::Le => Cmp::Le,
            CompareOp::Gt => Cmp::Gt,
            CompareOp::Ge => Cmp::Ge,
        };
        let (other, depth) = operand(other)?;
        Expr::node(
            Arc::new(Node::Compare(cmp, Arc::clone(&self.node), other)),
            self.depth.max(depth),
        )
    }

    fn __and__(&self, other: &Bound<'_, PyAny>) -> PyResult<Expr> {
        junction(true, self.me(), operand(other)?, "&")
    }

    fn __rand__(&self, other: &Bound<'_, PyAny>) -> PyResult<Expr> {
        junction(true, operand(other)?, self.me(), "&")
    }

    fn __or__(&self, other: &Bound<'_, PyAny>) -> PyResult<Expr> {
        junction(false, self.me(), operand(other)?, "|")
    }

    fn __ror__(&self, other: &Bound<'_, PyAny>) -> PyResult<Expr> {
        junction(false, operand(other)?, self.me(), "|")
    }

    fn __xor__(&self, other: &Bound<'_, PyAny>) -> PyResult<Expr> {
        let a = require_bool(Arc::clone(&self.node), "^")?;
        let (b, depth) = operand(other)?;
        let b = require_bool(b, "^")?;
        Expr::node(Arc::new(Node::Xor(vec![a, b])), self.depth.max(depth))
    }

    fn __rxor__(&self, other: &Bound<'_, PyAny>) -> PyResult<Expr> {
        self.__xor__(other)
    }

    fn __invert__(&self) -> PyResult<Expr> {
        let a = require_bool(Arc::clone(&self.node), "~")?;
        Expr::node(Arc::new(Node::Not(a)), self.depth)
    }

    /// `self → other`: if this Boolean holds, `other` does.
    fn implies(&self, other: &Bound<'_, PyAny>) -> PyResult<Expr> {
        let a = require_bool(Arc::clone(&self.node), "implies")?;
        let (b, depth) = operand(other)?;
        let b = require_bool(b, "implies")?;
        Expr::node(Arc::new(Node::Implies(a, b)), self.depth.max(depth))
    }

    /// A constraint has no truth value until it is solved: `if x == 3:` is almost always a
    /// mistake, so it is refused.
    fn __bool__(&self) -> PyResult<bool> {
        Err(PyTypeError::new_err(format!(
            "`{}` is a constraint, not a truth value: add it to a model (model += …), or read a \
             solution's value of it",
            self.node.describe()
        )))
    }

    /// Identity: expressions are kept in sets and dictionaries by identity, as `==` builds a
    /// constraint.
    fn __hash__(slf: &Bound<'_, Self>) -> isize {
        slf.as_ptr() as isize
    }

    fn __repr__(&self) -> String {
        self.node.describe()
    }

    /// The variable's name (a variable only).
    #[getter]
    fn name(&self) -> PyResult<String> {
        match &*self.node {
            Node::Var(var) => Ok(var.name.clone()),
            _ => Err(PyTypeError::new_err("only a variable has a name")),
        }
    }

    /// The smallest value the expression can take, by its variables' bounds.
    #[getter]
    fn lb(&self) -> PyResult<i64> {
        bounds(&self.node).map(|(lo, _)| lo)
    }

    /// The largest value the expression can take, by its variables' bounds.
    #[getter]
    fn ub(&self) -> PyResult<i64> {
        bounds(&self.node).map(|(_, hi)| hi)
    }

    /// Whether the expression is a Boolean (a constraint, or a Boolean variable).
    #[getter]
    fn is_bool(&self) -> bool {
        self.node.is_bool()
    }
}
