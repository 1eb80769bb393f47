//! Lowering: an expression tree ([`Node`]) becomes FlatZinc constraints of the engine's builtin
//! table ([`Fzn`]), with an auxiliary variable for every nested integer or Boolean subexpression,
//! as MiniZinc flattens a model. The same table compiles MiniZinc's models, so every constraint
//! reached from Python is one the MiniZinc tests already check; and each solution is verified
//! against these FlatZinc constraints before Python sees it.

use std::sync::Arc;

use csp_flatzinc::ast::{self, Ranges};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;

use crate::expr::{Bounds, Cmp, Global, I32, Node, bounds};

/// The values a variable of the lowered model may take.
#[derive(Debug, Clone)]
pub(crate) enum Dom {
    /// A Boolean.
    Bool,
    /// An integer in these ranges.
    Ranges(Ranges),
    /// Any integer the engine holds (an auxiliary whose bounds do not fit 32 bits).
    Any,
}

/// One argument of a FlatZinc constraint.
#[derive(Debug, Clone)]
pub(crate) enum Arg {
    Int(i64),
    Bool(bool),
    Var(u32),
    Array(Vec<Arg>),
    Set(Ranges),
}

/// An integer or a Boolean of the lowered model: a constant or a variable.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Elem {
    Const(i64),
    Var(u32),
}

impl Elem {
    fn int_arg(self) -> Arg {
        match self {
            Elem::Const(c) => Arg::Int(c),
            Elem::Var(v) => Arg::Var(v),
        }
    }

    fn bool_arg(self) -> Arg {
        match self {
            Elem::Const(c) => Arg::Bool(c != 0),
            Elem::Var(v) => Arg::Var(v),
        }
    }
}

/// A FlatZinc model being built: variables (the user's first, in their order of declaration, then
/// the auxiliaries) and constraints.
#[derive(Debug, Default)]
pub(crate) struct Fzn {
    pub(crate) vars: Vec<Dom>,
    /// Whether each variable is the user's (printed in solutions) or an auxiliary.
    pub(crate) user: Vec<bool>,
    pub(crate) items: Vec<(&'static str, Vec<Arg>)>,
    /// Each Boolean variable's 0/1 integer, once made ...
    bool2int: hashbrown::HashMap<u32, u32>,
    /// ... and the Booleans in the order their integers were made, to undo a failed lowering.
    bool2int_made: Vec<u32>,
}

/// Where a model stood before a lowering, to go back to if the lowering fails.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Mark {
    vars: usize,
    items: usize,
    bool2int: usize,
}

impl Fzn {
    /// Where the model stands now.
    pub(crate) fn mark(&self) -> Mark {
        Mark {
            vars: self.vars.len(),
            items: self.items.len(),
            bool2int: self.bool2int_made.len(),
        }
    }

    /// Forgets everything added since `mark`: what a lowering that failed half way had added.
    pub(crate) fn rollback(&mut self, mark: Mark) {
        self.vars.truncate(mark.vars);
        self.user.truncate(mark.vars);
        self.items.truncate(mark.items);
        for b in self.bool2int_made.drain(mark.bool2int..) {
            self.bool2int.remove(&b);
        }
    }
}

/// Lowers expressions into an [`Fzn`] for the model `model`.
pub(crate) struct Lowerer<'f> {
    pub(crate) fzn: &'f mut Fzn,
    pub(crate) model: u64,
}

/// A linear sum over variables: terms and a constant.
type Linear = (Vec<(i64, u32)>, i64);

fn value_error(what: impl Into<String>) -> PyErr {
    PyValueError::new_err(what.into())
}

impl Lowerer<'_> {
    fn new_var(&mut self, dom: Dom) -> u32 {
        self.fzn.vars.push(dom);
        self.fzn.user.push(false);
        u32::try_from(self.fzn.vars.len() - 1).expect("fewer than 2^32 variables")
    }

    fn aux_int(&mut self, (lo, hi): Bounds) -> u32 {
        let dom = if lo >= I32.0 && hi <= I32.1 && lo <= hi {
            Dom::Ranges(vec![(lo, hi)])
        } else {
            Dom::Any
        };
        self.new_var(dom)
    }

    fn post(&mut self, name: &'static str, args: Vec<Arg>) {
        self.fzn.items.push((name, args));
    }

    fn check_var(&self, var: &crate::expr::VarInfo) -> PyResult<u32> {
        if var.model != self.model {
            return Err(value_error(format!(
                "variable `{}` belongs to another model",
                var.name
            )));
        }
        Ok(var.index)
    }

    /// A Boolean variable's 0/1 integer.
    fn int_of_bool(&mut self, b: u32) -> u32 {
        if let Some(&i) = self.fzn.bool2int.get(&b) {
            return i;
        }
        let i = self.new_var(Dom::Ranges(vec![(0, 1)]));
        self.post("bool2int", vec![Arg::Var(b), Arg::Var(i)]);
        self.fzn.bool2int.insert(b, i);
        self.fzn.bool2int_made.push(b);
        i
    }

    /// `node` as a linear sum over integer variables.
    fn linear(&mut self, node: &Arc<Node>, scale: i64, out: &mut Linear) -> PyResult<()> {
        let mul = |a: i64, b: i64| {
            a.checked_mul(b)
                .ok_or_else(|| value_error("a coefficient overflows 64 bits"))
        };
        match &**node {
            Node::Const { value, .. } => {
                out.1 = out
                    .1
                    .checked_add(mul(*value, scale)?)
                    .ok_or_else(|| value_error("a constant overflows 64 bits"))?;
            }
            Node::Sum(terms, c) => {
                for (a, x) in terms {
                    self.linear(x, mul(*a, scale)?, out)?;
                }
                out.1 = out
                    .1
                    .checked_add(mul(*c, scale)?)
                    .ok_or_else(|| value_error("a constant overflows 64 bits"))?;
            }
            _ => match self.int(node)? {
                Elem::Const(c) => {
                    out.1 = out
                        .1
                        .checked_add(mul(c, scale)?)
                        .ok_or_else(|| value_error("a constant overflows 64 bits"))?;
                }
                Elem::Var(v) => out.0.push((scale, v)),
            },
        }
        Ok(())
    }

    /// `a - b` as a merged linear sum: terms over distinct variables, none with coefficient 0.
    fn difference(&mut self, a: &Arc<Node>, b: &Arc<Node>) -> PyResult<Linear> {
        let mut lin = (Vec::new(), 0);
        self.linear(a, 1, &mut lin)?;
        self.linear(b, -1, &mut lin)?;
        let mut merged: Vec<(i64, u32)> = Vec::with_capacity(lin.0.len());
        let mut at = hashbrown::HashMap::new();
        for (a, v) in lin.0 {
            match at.get(&v) {
                Some(&k) => {
                    let (c, _): &mut (i64, u32) = &mut merged[k];
                    *c = c
                        .checked_add(a)
                        .ok_or_else(|| value_error("a coefficient overflows 64 bits"))?;
                }
                None => {
                    at.insert(v, merged.len());
                    merged.push((a, v));
                }
            }
        }
        merged.retain(|&(a, _)| a != 0);
        Ok((merged, lin.1))
    }

    /// The integer `node` stands for: a constant, or a variable (made for a subexpression).
    pub(crate) fn int(&mut self, node: &Arc<Node>) -> PyResult<Elem> {
        Ok(match &**node {
            Node::Const { value, .. } => Elem::Const(*value),
            Node::Var(var) => {
                let v = self.check_var(var)?;
                if var.boolean {
                    Elem::Var(self.int_of_bool(v))
                } else {
                    Elem::Var(v)
                }
            }
            Node::Sum(..) => {
                let mut lin = (Vec::new(), 0);
                self.linear(node, 1, &mut lin)?;
                match lin.0.as_slice() {
                    [] => Elem::Const(lin.1),
                    [(1, v)] if lin.1 == 0 => Elem::Var(*v),
                    _ => {
                        let aux = self.aux_int(bounds(node)?);
                        let (mut coefs, mut vars): (Vec<Arg>, Vec<Arg>) = lin
                            .0
                            .iter()
                            .map(|&(a, v)| (Arg::Int(a), Arg::Var(v)))
                            .unzip();
                        coefs.push(Arg::Int(-1));
                        vars.push(Arg::Var(aux));
                        let rhs = lin
                            .1
                            .checked_neg()
                            .ok_or_else(|| value_error("a constant overflows 64 bits"))?;
                        self.post(
                            "int_lin_eq",
                            vec![Arg::Array(coefs), Arg::Array(vars), Arg::Int(rhs)],
                        );
                        Elem::Var(aux)
                    }
                }
            }
            Node::Mul(a, b) => {
                let (x, y) = (self.int(a)?, self.int(b)?);
                self.function("int_times", &[x, y], bounds(node)?)
            }
            Node::Div(a, b) => {
                let (x, y) = (self.int(a)?, self.int(b)?);
                self.function("int_div", &[x, y], bounds(node)?)
            }
            Node::Mod(a, b) => {
                let (x, y) = (self.int(a)?, self.int(b)?);
                self.function("int_mod", &[x, y], bounds(node)?)
            }
            Node::Pow(a, b) => {
                let (x, y) = (self.int(a)?, self.int(b)?);
                self.function("int_pow", &[x, y], bounds(node)?)
            }
            Node::Abs(a) => {
                let x = self.int(a)?;
                self.function("int_abs", &[x], bounds(node)?)
            }
            Node::Min(xs) | Node::Max(xs) => {
                if xs.is_empty() {
                    return Err(value_error("min and max of no expression are undefined"));
                }
                let elems = self.ints(xs)?;
                let aux = self.aux_int(bounds(node)?);
                let name = if matches!(&**node, Node::Min(_)) {
                    "array_int_minimum"
                } else {
                    "array_int_maximum"
                };
                self.post(name, vec![Arg::Var(aux), array(&elems)]);
                Elem::Var(aux)
            }
            Node::Element(xs, index) => {
                if xs.is_empty() {
                    return Err(value_error("element of an empty array"));
                }
                // FlatZinc indexes arrays from 1, Python from 0.
                let shifted = Arc::new(Node::Sum(vec![(1, Arc::clone(index))], 1));
                let i = self.int(&shifted)?;
                let elems = self.ints(xs)?;
                let aux = self.aux_int(bounds(node)?);
                let name = if elems.iter().all(|e| matches!(e, Elem::Const(_))) {
                    "array_int_element"
                } else {
                    "array_var_int_element"
                };
                self.post(name, vec![i.int_arg(), array(&elems), Arg::Var(aux)]);
                Elem::Var(aux)
            }
            Node::Count(xs, value) => {
                if let Some(v) = value.constant() {
                    return self.int(&Arc::new(Node::Among(xs.clone(), vec![v])));
                }
                // Σ (xᵢ = v), as MiniZinc's count_eq decomposes a variable value.
                let terms = xs
                    .iter()
                    .map(|x| {
                        (
                            1,
                            Arc::new(Node::Compare(Cmp::Eq, Arc::clone(x), Arc::clone(value))),
                        )
                    })
                    .collect();
                return self.int(&Arc::new(Node::Sum(terms, 0)));
            }
            Node::Among(xs, values) => {
                let elems = self.ints(xs)?;
                let aux = self.aux_int(bounds(node)?);
                let set = csp_flatzinc::ast::ranges_from_values(values.clone());
                self.post(
                    "fzn_among",
                    vec![Arg::Var(aux), array(&elems), Arg::Set(set)],
                );
                Elem::Var(aux)
            }
            Node::NValue(xs) => {
                let elems = self.ints(xs)?;
                let aux = self.aux_int(bounds(node)?);
                self.post("fzn_nvalue", vec![Arg::Var(aux), array(&elems)]);
                Elem::Var(aux)
            }
            _ => match self.boolean(node)? {
                Elem::Const(c) => Elem::Const(c),
                Elem::Var(b) => Elem::Var(self.int_of_bool(b)),
            },
        })
    }

    fn ints(&mut self, xs: &[Arc<Node>]) -> PyResult<Vec<Elem>> {
        xs.iter().map(|x| self.int(x)).collect()
    }

    /// `name(args..., aux)` for a functional builtin, the result in a new variable.
    fn function(&mut self, name: &'static str, args: &[Elem], range: Bounds) -> Elem {
        let aux = self.aux_int(range);
        let mut all: Vec<Arg> = args.iter().map(|e| e.int_arg()).collect();
        all.push(Arg::Var(aux));
        self.post(name, all);
        Elem::Var(aux)
    }

    /// A linear comparison `lin ⋈ 0` as a FlatZinc builtin's name and arguments: `int_lin_eq`,
    /// `_ne` or `_le` with the suffix given, or its constant truth.
    fn comparison(
        &mut self,
        op: Cmp,
        a: &Arc<Node>,
        b: &Arc<Node>,
        suffix: Suffix,
    ) -> PyResult<Result<(&'static str, Vec<Arg>), bool>> {
        let (op, lhs, rhs) = match op {
            Cmp::Gt | Cmp::Ge => (if op == Cmp::Gt { Cmp::Lt } else { Cmp::Le }, b, a),
            _ => (op, a, b),
        };
        let (terms, c) = self.difference(lhs, rhs)?;
        // Σ aᵢxᵢ + c ⋈ 0, that is Σ aᵢxᵢ ⋈ −c; `<` is `≤ −c − 1`.
        let rhs = c
            .checked_neg()
            .ok_or_else(|| value_error("a constant overflows 64 bits"))?;
        let (op, rhs) = match op {
            Cmp::Lt => (
                Cmp::Le,
                rhs.checked_sub(1)
                    .ok_or_else(|| value_error("a constant overflows 64 bits"))?,
            ),
            _ => (op, rhs),
        };
        if terms.is_empty() {
            return Ok(Err(match op {
                Cmp::Eq => rhs == 0,
                Cmp::Ne => rhs != 0,
                _ => 0 <= rhs,
            }));
        }
        let name = match (op, suffix) {
            (Cmp::Eq, Suffix::None) => "int_lin_eq",
            (Cmp::Eq, Suffix::Reif) => "int_lin_eq_reif",
            (Cmp::Eq, Suffix::Imp) => "int_lin_eq_imp",
            (Cmp::Ne, Suffix::None) => "int_lin_ne",
            (Cmp::Ne, Suffix::Reif) => "int_lin_ne_reif",
            (Cmp::Ne, Suffix::Imp) => "int_lin_ne_imp",
            (_, Suffix::None) => "int_lin_le",
            (_, Suffix::Reif) => "int_lin_le_reif",
            (_, Suffix::Imp) => "int_lin_le_imp",
        };
        let (coefs, vars): (Vec<Arg>, Vec<Arg>) = terms
            .iter()
            .map(|&(a, v)| (Arg::Int(a), Arg::Var(v)))
            .unzip();
        Ok(Ok((
            name,
            vec![Arg::Array(coefs), Arg::Array(vars), Arg::Int(rhs)],
        )))
    }

    /// The Boolean `node` stands for: a constant (0 or 1), or a Boolean variable (made for a
    /// subexpression, tied to it by a reified constraint).
    pub(crate) fn boolean(&mut self, node: &Arc<Node>) -> PyResult<Elem> {
        Ok(match &**node {
            Node::Const { value, .. } => Elem::Const(i64::from(*value != 0)),
            Node::Var(var) => {
                let v = self.check_var(var)?;
                if !var.boolean {
                    return Err(PyTypeError::new_err(format!(
                        "`{}` is an integer variable, used where a Boolean is needed",
                        var.name
                    )));
                }
                Elem::Var(v)
            }
            Node::Compare(op, a, b) => match self.comparison(*op, a, b, Suffix::Reif)? {
                Err(truth) => Elem::Const(i64::from(truth)),
                Ok((name, mut args)) => {
                    let r = self.new_var(Dom::Bool);
                    args.push(Arg::Var(r));
                    self.post(name, args);
                    Elem::Var(r)
                }
            },
            Node::And(xs) | Node::Or(xs) => {
                let and = matches!(&**node, Node::And(_));
                let mut lits = Vec::with_capacity(xs.len());
                for x in xs {
                    match self.boolean(x)? {
                        // A false conjunct decides a conjunction; a true disjunct, a disjunction.
                        Elem::Const(c) if (c != 0) != and => return Ok(Elem::Const(c)),
                        Elem::Const(_) => {}
                        lit => lits.push(lit),
                    }
                }
                match lits.as_slice() {
                    [] => Elem::Const(i64::from(and)),
                    [one] => *one,
                    _ => {
                        let r = self.new_var(Dom::Bool);
                        let name = if and {
                            "array_bool_and"
                        } else {
                            "array_bool_or"
                        };
                        self.post(name, vec![bool_array(&lits), Arg::Var(r)]);
                        Elem::Var(r)
                    }
                }
            }
            Node::Not(a) => match self.boolean(a)? {
                Elem::Const(c) => Elem::Const(i64::from(c == 0)),
                lit => {
                    let r = self.new_var(Dom::Bool);
                    self.post("bool_not", vec![lit.bool_arg(), Arg::Var(r)]);
                    Elem::Var(r)
                }
            },
            Node::Xor(xs) => {
                let mut acc = Elem::Const(0);
                for x in xs {
                    let lit = self.boolean(x)?;
                    acc = match (acc, lit) {
                        (Elem::Const(a), Elem::Const(b)) => {
                            Elem::Const((a != 0) as i64 ^ (b != 0) as i64)
                        }
                        (Elem::Const(0), other) | (other, Elem::Const(0)) => other,
                        (a, b) => {
                            let r = self.new_var(Dom::Bool);
                            self.post("bool_xor", vec![a.bool_arg(), b.bool_arg(), Arg::Var(r)]);
                            Elem::Var(r)
                        }
                    };
                }
                acc
            }
            Node::Implies(a, b) => {
                let (x, y) = (self.boolean(a)?, self.boolean(b)?);
                match (x, y) {
                    (Elem::Const(0), _) | (_, Elem::Const(1)) => Elem::Const(1),
                    (Elem::Const(_), y) => y,
                    (x, y) => {
                        let r = self.new_var(Dom::Bool);
                        self.post(
                            "bool_le_reif",
                            vec![x.bool_arg(), y.bool_arg(), Arg::Var(r)],
                        );
                        Elem::Var(r)
                    }
                }
            }
            Node::Global(g) => {
                return Err(PyTypeError::new_err(format!(
                    "{} cannot be used inside another expression (negated, reified, or in a \
                     disjunction): post it on its own, or write its decomposition",
                    g.name()
                )));
            }
            _ => {
                return Err(PyTypeError::new_err(format!(
                    "`{}` is an integer expression, used where a Boolean is needed",
                    node.describe()
                )));
            }
        })
    }

    /// Posts `node`, which must hold.
    pub(crate) fn constrain(&mut self, node: &Arc<Node>) -> PyResult<()> {
        match &**node {
            Node::Const { value, .. } => {
                if *value == 0 {
                    self.post_false();
                }
            }
            Node::Var(_) => {
                let b = self.boolean(node)?;
                self.post("bool_eq", vec![b.bool_arg(), Arg::Bool(true)]);
            }
            Node::Compare(op, a, b) => match self.comparison(*op, a, b, Suffix::None)? {
                Err(true) => {}
                Err(false) => self.post_false(),
                Ok((name, args)) => self.post(name, args),
            },
            Node::And(xs) => {
                for x in xs {
                    self.constrain(x)?;
                }
            }
            Node::Or(xs) => self.clause(xs, None)?,
            Node::Not(a) => self.constrain_not(a)?,
            Node::Xor(xs) => {
                let lits = xs
                    .iter()
                    .map(|x| self.boolean(x))
                    .collect::<PyResult<Vec<_>>>()?;
                self.post("array_bool_xor", vec![bool_array(&lits)]);
            }
            Node::Implies(a, b) => match self.boolean(a)? {
                Elem::Const(0) => {}
                Elem::Const(_) => self.constrain(b)?,
                Elem::Var(c) => self.implied(c, b)?,
            },
            Node::Global(g) => self.global(g)?,
            _ => {
                return Err(PyTypeError::new_err(format!(
                    "`{}` is an integer expression, not a constraint",
                    node.describe()
                )));
            }
        }
        Ok(())
    }

    fn post_false(&mut self) {
        self.post(
            "bool_clause",
            vec![Arg::Array(Vec::new()), Arg::Array(Vec::new())],
        );
    }

    /// `∨ xs`, and `¬premise` beside them when given.
    fn clause(&mut self, xs: &[Arc<Node>], premise: Option<u32>) -> PyResult<()> {
        let (mut pos, mut neg) = (Vec::new(), Vec::new());
        if let Some(p) = premise {
            neg.push(Elem::Var(p));
        }
        for x in xs {
            let (lit, positive) = match &**x {
                Node::Not(inner) => (self.boolean(inner)?, false),
                _ => (self.boolean(x)?, true),
            };
            match lit {
                Elem::Const(c) if (c != 0) == positive => return Ok(()),
                Elem::Const(_) => {}
                lit if positive => pos.push(lit),
                lit => neg.push(lit),
            }
        }
        self.post("bool_clause", vec![bool_array(&pos), bool_array(&neg)]);
        Ok(())
    }

    /// Posts that `node` does not hold.
    fn constrain_not(&mut self, node: &Arc<Node>) -> PyResult<()> {
        match &**node {
            Node::Const { value, .. } => {
                if *value != 0 {
                    self.post_false();
                }
                Ok(())
            }
            Node::Var(_) => {
                let b = self.boolean(node)?;
                self.post("bool_eq", vec![b.bool_arg(), Arg::Bool(false)]);
                Ok(())
            }
            Node::Compare(op, a, b) => {
                let flipped = Arc::new(Node::Compare(op.negated(), Arc::clone(a), Arc::clone(b)));
                self.constrain(&flipped)
            }
            Node::Not(a) => self.constrain(a),
            Node::And(xs) => {
                let negated: Vec<Arc<Node>> = xs
                    .iter()
                    .map(|x| Arc::new(Node::Not(Arc::clone(x))))
                    .collect();
                self.clause(&negated, None)
            }
            Node::Or(xs) => {
                for x in xs {
                    self.constrain_not(x)?;
                }
                Ok(())
            }
            Node::Implies(a, b) => {
                self.constrain(a)?;
                self.constrain_not(b)
            }
            _ => {
                let b = self.boolean(node)?;
                self.post("bool_eq", vec![b.bool_arg(), Arg::Bool(false)]);
                Ok(())
            }
        }
    }

    /// Posts `premise → node` (half-reification).
    fn implied(&mut self, premise: u32, node: &Arc<Node>) -> PyResult<()> {
        match &**node {
            Node::Compare(op, a, b) => match self.comparison(*op, a, b, Suffix::Imp)? {
                Err(true) => Ok(()),
                Err(false) => {
                    self.post("bool_eq", vec![Arg::Var(premise), Arg::Bool(false)]);
                    Ok(())
                }
                Ok((name, mut args)) => {
                    args.push(Arg::Var(premise));
                    self.post(name, args);
                    Ok(())
                }
            },
            Node::Or(xs) => self.clause(xs, Some(premise)),
            Node::And(xs) => {
                for x in xs {
                    self.implied(premise, x)?;
                }
                Ok(())
            }
            _ => self.clause(std::slice::from_ref(node), Some(premise)),
        }
    }

    /// Posts a global constraint.
    fn global(&mut self, g: &Global) -> PyResult<()> {
        match g {
            Global::AllDifferent(xs) => {
                let e = self.ints(xs)?;
                self.post("fzn_all_different_int", vec![array(&e)]);
            }
            Global::AllDifferentExcept0(xs) => {
                let e = self.ints(xs)?;
                self.post("fzn_alldifferent_except_0", vec![array(&e)]);
            }
            Global::AllEqual(xs) => {
                let e = self.ints(xs)?;
                for w in e.windows(2) {
                    self.post("int_eq", vec![w[0].int_arg(), w[1].int_arg()]);
                }
            }
            Global::Table(xs, tuples) => {
                if let Some(bad) = tuples.iter().find(|t| t.len() != xs.len()) {
                    return Err(value_error(format!(
                        "table: a tuple of {} values for {} variables",
                        bad.len(),
                        xs.len()
                    )));
                }
                let e = self.ints(xs)?;
                let flat: Vec<Arg> = tuples.iter().flatten().map(|&v| Arg::Int(v)).collect();
                self.post("fzn_table_int", vec![array(&e), Arg::Array(flat)]);
            }
            Global::Regular {
                vars,
                states,
                symbols,
                transitions,
                start,
                accepting,
            } => {
                let e = self.ints(vars)?;
                let d = transitions.iter().map(|&v| Arg::Int(v)).collect();
                self.post(
                    "fzn_regular",
                    vec![
                        array(&e),
                        Arg::Int(*states),
                        Arg::Int(*symbols),
                        Arg::Array(d),
                        Arg::Int(*start),
                        Arg::Set(csp_flatzinc::ast::ranges_from_values(accepting.clone())),
                    ],
                );
            }
            Global::Circuit(xs) | Global::Subcircuit(xs) => {
                let e = self.ints(xs)?;
                if !e.is_empty() {
                    let name = if matches!(g, Global::Circuit(_)) {
                        "csp_circuit"
                    } else {
                        "csp_subcircuit"
                    };
                    self.post(name, vec![array(&e), Arg::Int(0)]);
                }
            }
            Global::Inverse(f, inv) => {
                let (f, inv) = (self.ints(f)?, self.ints(inv)?);
                self.post(
                    "csp_inverse",
                    vec![array(&f), Arg::Int(0), array(&inv), Arg::Int(0)],
                );
                self.post("fzn_all_different_int", vec![array(&f)]);
                self.post("fzn_all_different_int", vec![array(&inv)]);
            }
            Global::Cumulative {
                starts,
                durations,
                demands,
                capacity,
            } => {
                same_length(
                    "cumulative",
                    &[starts.len(), durations.len(), demands.len()],
                )?;
                let s = self.ints(starts)?;
                let d = self.ints(durations)?;
                let r = self.ints(demands)?;
                let b = self.int(capacity)?;
                let fixed = |xs: &[Elem]| xs.iter().all(|x| matches!(x, Elem::Const(c) if *c >= 0));
                if fixed(&d) && fixed(&r) && fixed(&[b]) {
                    self.post(
                        "csp_cumulative",
                        vec![array(&s), array(&d), array(&r), b.int_arg()],
                    );
                } else {
                    self.post(
                        "csp_cumulative_var",
                        vec![array(&s), array(&d), array(&r), b.int_arg()],
                    );
                }
            }
            Global::Disjunctive { starts, durations } => {
                same_length("disjunctive", &[starts.len(), durations.len()])?;
                let s = self.ints(starts)?;
                let d = self.ints(durations)?;
                let fixed = d.iter().all(|x| matches!(x, Elem::Const(c) if *c >= 0));
                let name = if fixed {
                    "csp_disjunctive"
                } else {
                    "csp_disjunctive_var"
                };
                self.post(name, vec![array(&s), array(&d)]);
            }
            Global::Diffn { x, y, dx, dy } => {
                same_length("diffn", &[x.len(), y.len(), dx.len(), dy.len()])?;
                let args = [x, y, dx, dy]
                    .into_iter()
                    .map(|xs| self.ints(xs).map(|e| array(&e)))
                    .collect::<PyResult<Vec<_>>>()?;
                self.post("fzn_diffn", args);
            }
            Global::Cardinality {
                vars,
                values,
                counts,
                closed,
            } => {
                same_length("global_cardinality", &[values.len(), counts.len()])?;
                let e = self.ints(vars)?;
                let c = self.ints(counts)?;
                let cover = values.iter().map(|&v| Arg::Int(v)).collect();
                let name = if *closed {
                    "fzn_global_cardinality_closed"
                } else {
                    "fzn_global_cardinality"
                };
                self.post(name, vec![array(&e), Arg::Array(cover), array(&c)]);
            }
            Global::Lex { a, b, strict } => {
                let (x, y) = (self.ints(a)?, self.ints(b)?);
                let name = if *strict {
                    "fzn_lex_less_int"
                } else {
                    "fzn_lex_lesseq_int"
                };
                self.post(name, vec![array(&x), array(&y)]);
            }
            Global::Increasing(xs) => {
                let e = self.ints(xs)?;
                self.post("fzn_increasing_int", vec![array(&e)]);
            }
            Global::Decreasing(xs) => {
                let e = self.ints(xs)?;
                self.post("fzn_decreasing_int", vec![array(&e)]);
            }
            Global::BinPacking {
                loads,
                bins,
                weights,
            } => {
                same_length("bin_packing_load", &[bins.len(), weights.len()])?;
                if let Some(w) = weights.iter().find(|&&w| w < 0) {
                    return Err(value_error(format!(
                        "bin_packing_load: the weight {w} is negative"
                    )));
                }
                let l = self.ints(loads)?;
                let b = self.ints(bins)?;
                let w = weights.iter().map(|&v| Arg::Int(v)).collect();
                if l.is_empty() {
                    if !b.is_empty() {
                        self.post_false();
                    }
                } else {
                    self.post(
                        "csp_bin_packing_load",
                        vec![array(&l), Arg::Int(0), array(&b), Arg::Array(w)],
                    );
                }
            }
            Global::ValuePrecede { s, t, vars } => {
                let e = self.ints(vars)?;
                self.post(
                    "fzn_value_precede_int",
                    vec![Arg::Int(*s), Arg::Int(*t), array(&e)],
                );
            }
            Global::Member(xs, y) => {
                let e = self.ints(xs)?;
                let y = self.int(y)?;
                self.post("fzn_member_int", vec![array(&e), y.int_arg()]);
            }
        }
        Ok(())
    }
}

/// Which form of a comparison builtin: plain, reified (`_reif`) or half-reified (`_imp`).
#[derive(Debug, Clone, Copy)]
enum Suffix {
    None,
    Reif,
    Imp,
}

fn same_length(name: &str, lengths: &[usize]) -> PyResult<()> {
    if lengths.windows(2).all(|w| w[0] == w[1]) {
        Ok(())
    } else {
        Err(value_error(format!(
            "{name}: its arrays must have the same length, not {lengths:?}"
        )))
    }
}

fn array(elems: &[Elem]) -> Arg {
    Arg::Array(elems.iter().map(|e| e.int_arg()).collect())
}

fn bool_array(elems: &[Elem]) -> Arg {
    Arg::Array(elems.iter().map(|e| e.bool_arg()).collect())
}

/// The names the FlatZinc model gives the variables: `X0`, `X1`, …
pub(crate) fn names(count: usize) -> Vec<String> {
    (0..count).map(|i| format!("X{i}")).collect()
}

/// The index a name of [`names`] gives, if it is one.
pub(crate) fn index_of_name(name: &str) -> Option<usize> {
    let digits = name.strip_prefix('X')?;
    // `X01` is no name of ours: only the canonical digits map back.
    (!digits.starts_with('0') || digits == "0")
        .then(|| digits.parse().ok())
        .flatten()
}

/// The FlatZinc model of `fzn`, borrowing `names` (see [`names`]); the user's variables are
/// marked for output, and `objective` (minimised when `minimise`) is the solve goal.
pub(crate) fn flatzinc<'a>(
    fzn: &Fzn,
    names: &'a [String],
    objective: Option<(bool, Elem)>,
) -> ast::FlatZinc<'a> {
    let to_expr = |arg: &Arg| -> ast::Expr<'a> { to_ast(arg, names) };
    let decls = fzn
        .vars
        .iter()
        .zip(&fzn.user)
        .enumerate()
        .map(|(i, (dom, &user))| ast::Decl {
            pos: ast::Pos::default(),
            ty: ast::TypeInst {
                array: None,
                var: true,
                domain: match dom {
                    Dom::Bool => ast::Domain::Bool,
                    Dom::Ranges(r) => ast::Domain::IntSet(r.clone()),
                    Dom::Any => ast::Domain::Int,
                },
            },
            name: &names[i],
            annotations: if user {
                vec![ast::Expr::Ident("output_var")]
            } else {
                vec![ast::Expr::Ident("var_is_introduced")]
            },
            value: None,
        })
        .collect();
    let constraints = fzn
        .items
        .iter()
        .map(|(name, args)| ast::ConstraintItem {
            pos: ast::Pos::default(),
            name,
            args: args.iter().map(to_expr).collect(),
            annotations: Vec::new(),
        })
        .collect();
    let goal = match objective {
        None => ast::Goal::Satisfy,
        Some((minimise, e)) => {
            let e = to_expr(&e.int_arg());
            if minimise {
                ast::Goal::Minimize(e)
            } else {
                ast::Goal::Maximize(e)
            }
        }
    };
    ast::FlatZinc {
        decls,
        constraints,
        solve: ast::SolveItem {
            pos: ast::Pos::default(),
            annotations: Vec::new(),
            goal,
        },
    }
}

fn to_ast<'a>(arg: &Arg, names: &'a [String]) -> ast::Expr<'a> {
    match arg {
        Arg::Int(v) => ast::Expr::Int(*v),
        Arg::Bool(b) => ast::Expr::Bool(*b),
        Arg::Var(v) => ast::Expr::Ident(&names[*v as usize]),
        Arg::Array(xs) => ast::Expr::Array(xs.iter().map(|x| to_ast(x, names)).collect()),
        Arg::Set(r) => ast::Expr::Set(r.clone()),
    }
}

/// The FlatZinc text of `fzn` (see [`flatzinc`]), as `fzn-csp` and MiniZinc's other solvers read it.
pub(crate) fn flatzinc_text(fzn: &Fzn, objective: Option<(bool, Elem)>) -> String {
    use std::fmt::Write as _;
    let names = names(fzn.vars.len());
    let mut text = String::new();
    for (i, (dom, &user)) in fzn.vars.iter().zip(&fzn.user).enumerate() {
        let domain = match dom {
            Dom::Bool => "bool".to_owned(),
            Dom::Any => "int".to_owned(),
            Dom::Ranges(r) => ranges_text(r),
        };
        let annotation = if user {
            "output_var"
        } else {
            "var_is_introduced"
        };
        let _ = writeln!(text, "var {domain}: {} :: {annotation};", names[i]);
    }
    for (name, args) in &fzn.items {
        let args: Vec<String> = args.iter().map(|a| arg_text(a, &names)).collect();
        let _ = writeln!(text, "constraint {name}({});", args.join(", "));
    }
    match objective {
        None => text.push_str("solve satisfy;\n"),
        Some((minimise, e)) => {
            let goal = if minimise { "minimize" } else { "maximize" };
            let _ = writeln!(text, "solve {goal} {};", arg_text(&e.int_arg(), &names));
        }
    }
    text
}

fn ranges_text(ranges: &Ranges) -> String {
    match ranges.as_slice() {
        [(lo, hi)] => format!("{lo}..{hi}"),
        _ => {
            let values: Vec<String> = ranges
                .iter()
                .flat_map(|&(lo, hi)| lo..=hi)
                .map(|v| v.to_string())
                .collect();
            format!("{{{}}}", values.join(", "))
        }
    }
}

fn arg_text(arg: &Arg, names: &[String]) -> String {
    match arg {
        Arg::Int(v) => v.to_string(),
        Arg::Bool(b) => b.to_string(),
        Arg::Var(v) => names[*v as usize].clone(),
        Arg::Array(xs) => {
            let items: Vec<String> = xs.iter().map(|x| arg_text(x, names)).collect();
            format!("[{}]", items.join(", "))
        }
        Arg::Set(r) => ranges_text(r),
    }
}
