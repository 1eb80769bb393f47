//! Differential testing of the FlatZinc front end and the engine: random small FlatZinc models, each
//! solved for every solution (or for its optimum, with every improving solution, with and without
//! large-neighbourhood search, with learning from failure, neighbourhoods included, and with a
//! learning search in turn with one that does not) through
//! the library's run protocol, then again on two threads (a split tree, or a portfolio with a
//! learning worker), and every tenth also through the `fzn-csp` binary, against a brute-force
//! enumeration of the model's meaning. The meaning of each constraint is written here again from the
//! FlatZinc specification and shares no code with the solver or with its builtin table's checkers.
//!
//! Each run compares a few hundred models (fixed seeds, so a failure names its seed and model and
//! reproduces). More by hand: `CSP_DIFFERENTIAL_MODELS=20000 cargo test --release --test
//! fzn_differential`, and `CSP_DIFFERENTIAL_SEED=S` to start from another seed.

use std::collections::BTreeSet;
use std::fmt::Write as _;
use std::process::Command;

use csp::flatzinc::run::{Learns, RunOptions, Status, run};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Models compared in a test run unless `CSP_DIFFERENTIAL_MODELS` says otherwise.
const DEFAULT_MODELS: u64 = 300;

/// Every how many models one also goes through the binary.
const BINARY_EVERY: u64 = 10;

/// A declared variable.
#[derive(Debug, Clone)]
struct Var {
    name: String,
    /// Its values, ascending.
    values: Vec<i64>,
    boolean: bool,
}

/// An argument: a variable (by index), an integer constant or a Boolean one.
#[derive(Debug, Clone, Copy)]
enum Term {
    Var(usize),
    Const(i64),
    Bool(bool),
}

impl Term {
    fn value(self, assignment: &[i64]) -> i64 {
        match self {
            Term::Var(i) => assignment[i],
            Term::Const(c) => c,
            Term::Bool(b) => i64::from(b),
        }
    }
}

/// The relation of a comparison or a linear constraint.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Rel {
    Eq,
    Ne,
    Le,
    Lt,
}

impl Rel {
    fn name(self) -> &'static str {
        match self {
            Rel::Eq => "eq",
            Rel::Ne => "ne",
            Rel::Le => "le",
            Rel::Lt => "lt",
        }
    }

    fn holds(self, a: i128, b: i128) -> bool {
        match self {
            Rel::Eq => a == b,
            Rel::Ne => a != b,
            Rel::Le => a <= b,
            Rel::Lt => a < b,
        }
    }
}

/// How a constraint is tied to a trailing Boolean.
#[derive(Debug, Clone, Copy)]
enum Tie {
    Plain,
    Reif(Term),
    Imp(Term),
}

impl Tie {
    fn suffix(self) -> &'static str {
        match self {
            Tie::Plain => "",
            Tie::Reif(_) => "_reif",
            Tie::Imp(_) => "_imp",
        }
    }

    fn holds(self, inner: bool, assignment: &[i64]) -> bool {
        match self {
            Tie::Plain => inner,
            Tie::Reif(r) => (r.value(assignment) == 1) == inner,
            Tie::Imp(r) => r.value(assignment) == 0 || inner,
        }
    }
}

/// A FlatZinc constraint and its meaning.
#[derive(Debug, Clone)]
enum Con {
    Compare(Rel, Term, Term, Tie),
    Linear(Rel, Vec<i64>, Vec<Term>, i64, Tie),
    Function(&'static str, Term, Term, Term),
    Abs(Term, Term),
    Element(Term, Vec<Term>, Term, bool),
    Extremum(bool, Term, Vec<Term>),
    Clause(Vec<Term>, Vec<Term>),
    BoolArray(bool, Vec<Term>, Term),
    BoolXor(Term, Term, Term),
    Bool2Int(Term, Term),
    SetIn(Term, Vec<i64>, Tie),
    AllDifferent(Vec<Term>),
    Table(Vec<Term>, Vec<Vec<i64>>),
    Among(Term, Vec<Term>, Vec<i64>),
    Cardinality(Vec<Term>, Vec<i64>, Vec<Term>, bool),
    Lex(Vec<Term>, Vec<Term>, bool),
    Disjunctive(Vec<Term>, Vec<i64>),
    Cumulative(Vec<Term>, Vec<i64>, Vec<i64>, i64),
    /// `bool_lin_le` (true) or `bool_lin_eq`: coefficients, Booleans, right-hand side.
    BoolLinear(bool, Vec<i64>, Vec<Term>, Term),
}

/// The 1-based index of an array element, if `i` is one.
fn index(i: i64, len: usize) -> Option<usize> {
    usize::try_from(i - 1).ok().filter(|&k| k < len)
}

/// FlatZinc's `int_pow`: `x^y`, and for `y < 0`, `1 div x^(-y)` (no value for `x = 0`).
fn pow(x: i128, y: i128) -> Option<i128> {
    if y < 0 {
        return match x {
            0 => None,
            1 => Some(1),
            -1 => Some(if y % 2 == 0 { 1 } else { -1 }),
            _ => Some(0),
        };
    }
    match x {
        0 => Some(i128::from(y == 0)),
        1 => Some(1),
        -1 => Some(if y % 2 == 0 { 1 } else { -1 }),
        // |x| ≥ 2 leaves 128 bits within 128 factors: no result of that size is a solution.
        _ => {
            let mut result: i128 = 1;
            for _ in 0..y {
                result = result.checked_mul(x)?;
            }
            Some(result)
        }
    }
}

impl Con {
    fn holds(&self, a: &[i64]) -> bool {
        let v = |t: &Term| i128::from(t.value(a));
        let vs = |ts: &[Term]| ts.iter().map(|t| t.value(a)).collect::<Vec<i64>>();
        match self {
            Con::Compare(rel, x, y, tie) => tie.holds(rel.holds(v(x), v(y)), a),
            Con::Linear(rel, coefficients, xs, c, tie) => {
                let sum: i128 = coefficients
                    .iter()
                    .zip(xs)
                    .map(|(&k, x)| i128::from(k) * v(x))
                    .sum();
                tie.holds(rel.holds(sum, i128::from(*c)), a)
            }
            Con::Function(name, x, y, z) => {
                let (x, y, z) = (v(x), v(y), v(z));
                match *name {
                    "int_times" => x * y == z,
                    // Truncating division, and the remainder with the dividend's sign.
                    "int_div" => y != 0 && x / y == z,
                    "int_mod" => y != 0 && x % y == z,
                    "int_min" => x.min(y) == z,
                    "int_max" => x.max(y) == z,
                    "int_pow" => pow(x, y) == Some(z),
                    other => unreachable!("{other}"),
                }
            }
            Con::Abs(x, z) => v(x).abs() == v(z),
            Con::Element(i, xs, z, _) => {
                index(i.value(a), xs.len()).is_some_and(|k| v(&xs[k]) == v(z))
            }
            Con::Extremum(max, m, xs) => {
                let values = vs(xs);
                let best = if *max {
                    values.iter().max()
                } else {
                    values.iter().min()
                };
                best == Some(&m.value(a))
            }
            Con::Clause(pos, neg) => {
                pos.iter().any(|t| t.value(a) == 1) || neg.iter().any(|t| t.value(a) == 0)
            }
            Con::BoolArray(and, bs, r) => {
                let value = if *and {
                    bs.iter().all(|t| t.value(a) == 1)
                } else {
                    bs.iter().any(|t| t.value(a) == 1)
                };
                value == (r.value(a) == 1)
            }
            Con::BoolXor(x, y, r) => ((v(x) == 1) != (v(y) == 1)) == (v(r) == 1),
            Con::Bool2Int(b, x) => v(b) == v(x),
            Con::SetIn(x, set, tie) => tie.holds(set.contains(&x.value(a)), a),
            Con::AllDifferent(xs) => {
                let values = vs(xs);
                values.iter().collect::<BTreeSet<_>>().len() == values.len()
            }
            Con::Table(xs, rows) => rows.contains(&vs(xs)),
            Con::Among(n, xs, set) => {
                vs(xs).iter().filter(|x| set.contains(x)).count() as i64 == n.value(a)
            }
            Con::Cardinality(xs, cover, counts, closed) => {
                let values = vs(xs);
                cover
                    .iter()
                    .zip(counts)
                    .all(|(c, n)| values.iter().filter(|&x| x == c).count() as i64 == n.value(a))
                    && (!closed || values.iter().all(|x| cover.contains(x)))
            }
            Con::Lex(xs, ys, strict) => {
                let (x, y) = (vs(xs), vs(ys));
                if *strict { x < y } else { x <= y }
            }
            Con::Disjunctive(s, d) => {
                let s = vs(s);
                (0..s.len()).all(|i| {
                    (i + 1..s.len()).all(|j| {
                        d[i] == 0 || d[j] == 0 || s[i] + d[i] <= s[j] || s[j] + d[j] <= s[i]
                    })
                })
            }
            Con::Cumulative(s, d, r, b) => {
                let s = vs(s);
                s.iter().all(|&t| {
                    let load: i64 = (0..s.len())
                        .filter(|&i| s[i] <= t && t < s[i] + d[i])
                        .map(|i| r[i])
                        .sum();
                    load <= *b
                })
            }
            Con::BoolLinear(le, coefficients, bs, c) => {
                let sum: i128 = coefficients
                    .iter()
                    .zip(bs)
                    .map(|(&k, b)| i128::from(k) * v(b))
                    .sum();
                if *le { sum <= v(c) } else { sum == v(c) }
            }
        }
    }

    fn fzn(&self, vars: &[Var]) -> String {
        let t = |t: &Term| match *t {
            Term::Var(i) => vars[i].name.clone(),
            Term::Const(c) => c.to_string(),
            Term::Bool(b) => b.to_string(),
        };
        let ts = |ts: &[Term]| format!("[{}]", ts.iter().map(t).collect::<Vec<_>>().join(", "));
        let ints = |cs: &[i64]| {
            format!(
                "[{}]",
                cs.iter().map(i64::to_string).collect::<Vec<_>>().join(", ")
            )
        };
        let set = |cs: &[i64]| {
            format!(
                "{{{}}}",
                cs.iter().map(i64::to_string).collect::<Vec<_>>().join(", ")
            )
        };
        let tail = |tie: &Tie| match tie {
            Tie::Plain => String::new(),
            Tie::Reif(r) | Tie::Imp(r) => format!(", {}", t(r)),
        };
        match self {
            Con::Compare(rel, x, y, tie) => format!(
                "int_{}{}({}, {}{})",
                rel.name(),
                tie.suffix(),
                t(x),
                t(y),
                tail(tie)
            ),
            Con::Linear(rel, coefficients, xs, c, tie) => format!(
                "int_lin_{}{}({}, {}, {c}{})",
                rel.name(),
                tie.suffix(),
                ints(coefficients),
                ts(xs),
                tail(tie)
            ),
            Con::Function(name, x, y, z) => format!("{name}({}, {}, {})", t(x), t(y), t(z)),
            Con::Abs(x, z) => format!("int_abs({}, {})", t(x), t(z)),
            Con::Element(i, xs, z, variable) => {
                let array = if *variable {
                    ts(xs)
                } else {
                    let constants: Vec<i64> = xs
                        .iter()
                        .map(|x| match x {
                            Term::Const(c) => *c,
                            _ => unreachable!("a constant array"),
                        })
                        .collect();
                    ints(&constants)
                };
                let name = if *variable {
                    "array_var_int_element"
                } else {
                    "array_int_element"
                };
                format!("{name}({}, {array}, {})", t(i), t(z))
            }
            Con::Extremum(max, m, xs) => format!(
                "array_int_{}({}, {})",
                if *max { "maximum" } else { "minimum" },
                t(m),
                ts(xs)
            ),
            Con::Clause(pos, neg) => format!("bool_clause({}, {})", ts(pos), ts(neg)),
            Con::BoolArray(and, bs, r) => format!(
                "array_bool_{}({}, {})",
                if *and { "and" } else { "or" },
                ts(bs),
                t(r)
            ),
            Con::BoolXor(x, y, r) => format!("bool_xor({}, {}, {})", t(x), t(y), t(r)),
            Con::Bool2Int(b, x) => format!("bool2int({}, {})", t(b), t(x)),
            Con::SetIn(x, values, tie) => format!(
                "set_in{}({}, {}{})",
                tie.suffix(),
                t(x),
                set(values),
                tail(tie)
            ),
            Con::AllDifferent(xs) => format!("fzn_all_different_int({})", ts(xs)),
            Con::Table(xs, rows) => {
                let flat: Vec<i64> = rows.iter().flatten().copied().collect();
                format!("fzn_table_int({}, {})", ts(xs), ints(&flat))
            }
            Con::Among(n, xs, values) => {
                format!("fzn_among({}, {}, {})", t(n), ts(xs), set(values))
            }
            Con::Cardinality(xs, cover, counts, closed) => format!(
                "fzn_global_cardinality{}({}, {}, {})",
                if *closed { "_closed" } else { "" },
                ts(xs),
                ints(cover),
                ts(counts)
            ),
            Con::Lex(xs, ys, strict) => format!(
                "fzn_lex_less{}_int({}, {})",
                if *strict { "" } else { "eq" },
                ts(xs),
                ts(ys)
            ),
            Con::Disjunctive(s, d) => format!("csp_disjunctive({}, {})", ts(s), ints(d)),
            Con::Cumulative(s, d, r, b) => {
                format!("csp_cumulative({}, {}, {}, {b})", ts(s), ints(d), ints(r))
            }
            Con::BoolLinear(le, coefficients, bs, c) => format!(
                "bool_lin_{}({}, {}, {})",
                if *le { "le" } else { "eq" },
                ints(coefficients),
                ts(bs),
                t(c)
            ),
        }
    }
}

/// A model: variables, constraints, what is asked, and an optional search annotation.
#[derive(Debug, Clone)]
struct Model {
    vars: Vec<Var>,
    cons: Vec<Con>,
    /// `None`: satisfy; `Some((var, maximise))`.
    goal: Option<(usize, bool)>,
    search: Option<String>,
}

impl Model {
    fn fzn(&self) -> String {
        let mut text = String::new();
        for var in &self.vars {
            let domain = if var.boolean {
                "bool".to_owned()
            } else if var.values.windows(2).all(|w| w[1] == w[0] + 1) {
                format!("{}..{}", var.values[0], var.values[var.values.len() - 1])
            } else {
                format!(
                    "{{{}}}",
                    var.values
                        .iter()
                        .map(i64::to_string)
                        .collect::<Vec<_>>()
                        .join(", ")
                )
            };
            let _ = writeln!(text, "var {domain}: {} :: output_var;", var.name);
        }
        for con in &self.cons {
            let _ = writeln!(text, "constraint {};", con.fzn(&self.vars));
        }
        let search = self
            .search
            .as_ref()
            .map_or(String::new(), |s| format!(":: {s} "));
        let goal = match self.goal {
            None => "satisfy".to_owned(),
            Some((var, true)) => format!("maximize {}", self.vars[var].name),
            Some((var, false)) => format!("minimize {}", self.vars[var].name),
        };
        let _ = writeln!(text, "solve {search}{goal};");
        text
    }

    /// Every solution, as values of every variable, by enumeration.
    fn solutions(&self) -> Vec<Vec<i64>> {
        let mut out = Vec::new();
        let mut current = vec![0i64; self.vars.len()];
        self.enumerate(0, &mut current, &mut out);
        out
    }

    fn enumerate(&self, i: usize, current: &mut [i64], out: &mut Vec<Vec<i64>>) {
        if i == self.vars.len() {
            if self.cons.iter().all(|c| c.holds(current)) {
                out.push(current.to_vec());
            }
            return;
        }
        for &value in &self.vars[i].values {
            current[i] = value;
            self.enumerate(i + 1, current, out);
        }
    }
}

/// The generator: small domains, a few constraints of every kind the front end has natively.
struct Generator {
    rng: ChaCha8Rng,
}

impl Generator {
    fn chance(&mut self, percent: u32) -> bool {
        self.rng.random_range(0..100) < percent
    }

    fn domain(&mut self) -> Vec<i64> {
        // Most domains are small sets around zero; some sit at the ends of the 32-bit range, where
        // arithmetic overflows if it is not careful.
        let base: i64 = match self.rng.random_range(0..10) {
            0 => i64::from(i32::MIN),
            1 => i64::from(i32::MAX) - 4,
            _ => -3,
        };
        let span = if base == -3 { 7 } else { 5 };
        let mut values: Vec<i64> = (0..span)
            .filter(|_| self.chance(55))
            .map(|k| base + k)
            .collect();
        if values.is_empty() {
            values.push(base + self.rng.random_range(0..span));
        }
        values
    }

    fn model(&mut self) -> Model {
        let ints = self.rng.random_range(1..=4);
        let bools = self.rng.random_range(0..=3);
        let mut vars = Vec::new();
        for i in 0..ints {
            let values = self.domain();
            vars.push(Var {
                name: format!("x{i}"),
                values,
                boolean: false,
            });
        }
        for i in 0..bools {
            vars.push(Var {
                name: format!("b{i}"),
                values: vec![0, 1],
                boolean: true,
            });
        }
        let mut model = Model {
            vars,
            cons: Vec::new(),
            goal: None,
            search: None,
        };
        let count = self.rng.random_range(1..=3);
        for _ in 0..count {
            let con = self.constraint(ints, bools);
            model.cons.push(con);
        }
        if self.chance(30) {
            model.goal = Some((self.rng.random_range(0..ints), self.chance(50)));
        }
        if self.chance(50) {
            model.search = Some(self.search(ints));
        }
        model
    }

    /// An integer term: a variable, or now and then a small constant.
    fn int(&mut self, ints: usize) -> Term {
        if self.chance(15) {
            Term::Const(self.rng.random_range(-3..=3))
        } else {
            Term::Var(self.rng.random_range(0..ints))
        }
    }

    fn int_vars(&mut self, ints: usize, len: usize) -> Vec<Term> {
        (0..len).map(|_| self.int(ints)).collect()
    }

    /// A Boolean term: a variable when there is one, else (or now and then) a constant.
    fn boolean(&mut self, ints: usize, bools: usize) -> Term {
        if bools > 0 && self.chance(85) {
            Term::Var(ints + self.rng.random_range(0..bools))
        } else {
            Term::Bool(self.chance(50))
        }
    }

    fn small(&mut self) -> i64 {
        self.rng.random_range(-3..=3)
    }

    fn set(&mut self) -> Vec<i64> {
        let mut values: Vec<i64> = (-3..=3).filter(|_| self.chance(40)).collect();
        values.dedup();
        values
    }

    fn tie(&mut self, ints: usize, bools: usize) -> Tie {
        match self.rng.random_range(0..3) {
            0 => Tie::Plain,
            1 => Tie::Reif(self.boolean(ints, bools)),
            _ => Tie::Imp(self.boolean(ints, bools)),
        }
    }

    fn booleans(&mut self, ints: usize, bools: usize, len: usize) -> Vec<Term> {
        (0..len).map(|_| self.boolean(ints, bools)).collect()
    }

    /// One constraint.
    fn constraint(&mut self, ints: usize, bools: usize) -> Con {
        let rels = [Rel::Eq, Rel::Ne, Rel::Le, Rel::Lt];
        match self.rng.random_range(0..20) {
            0 => {
                let rel = rels[self.rng.random_range(0..4)];
                let (x, y) = (self.int(ints), self.int(ints));
                let tie = self.tie(ints, bools);
                Con::Compare(rel, x, y, tie)
            }
            1 => {
                let rel = rels[self.rng.random_range(0..3)];
                let len = self.rng.random_range(1..=3);
                let coefficients = (0..len).map(|_| self.small()).collect();
                let xs = self.int_vars(ints, len);
                let c = self.small();
                let tie = self.tie(ints, bools);
                Con::Linear(rel, coefficients, xs, c, tie)
            }
            2 | 3 => {
                let names = [
                    "int_times",
                    "int_div",
                    "int_mod",
                    "int_min",
                    "int_max",
                    "int_pow",
                ];
                let name = names[self.rng.random_range(0..names.len())];
                Con::Function(name, self.int(ints), self.int(ints), self.int(ints))
            }
            4 => Con::Abs(self.int(ints), self.int(ints)),
            5 => {
                let len = self.rng.random_range(1..=4);
                let variable = self.chance(50);
                let xs = if variable {
                    self.int_vars(ints, len)
                } else {
                    (0..len).map(|_| Term::Const(self.small())).collect()
                };
                Con::Element(self.int(ints), xs, self.int(ints), variable)
            }
            6 => {
                let len = self.rng.random_range(1..=3);
                let xs = self.int_vars(ints, len);
                Con::Extremum(self.chance(50), self.int(ints), xs)
            }
            7 => {
                let (p, q) = (self.rng.random_range(0..=2), self.rng.random_range(0..=2));
                Con::Clause(self.booleans(ints, bools, p), self.booleans(ints, bools, q))
            }
            8 => {
                let len = self.rng.random_range(0..=3);
                let bs = self.booleans(ints, bools, len);
                Con::BoolArray(self.chance(50), bs, self.boolean(ints, bools))
            }
            9 => {
                let (x, y) = (self.boolean(ints, bools), self.boolean(ints, bools));
                Con::BoolXor(x, y, self.boolean(ints, bools))
            }
            10 => Con::Bool2Int(self.boolean(ints, bools), self.int(ints)),
            11 => {
                let x = self.int(ints);
                let set = self.set();
                let tie = self.tie(ints, bools);
                Con::SetIn(x, set, tie)
            }
            12 => {
                let len = self.rng.random_range(1..=4);
                Con::AllDifferent(self.int_vars(ints, len))
            }
            13 => {
                let len = self.rng.random_range(1..=3);
                let xs = self.int_vars(ints, len);
                let rows = self.rng.random_range(0..=5);
                let rows = (0..rows)
                    .map(|_| (0..len).map(|_| self.small()).collect())
                    .collect();
                Con::Table(xs, rows)
            }
            14 => {
                let len = self.rng.random_range(0..=3);
                let xs = self.int_vars(ints, len);
                let set = self.set();
                Con::Among(self.int(ints), xs, set)
            }
            15 => {
                let len = self.rng.random_range(1..=3);
                let xs = self.int_vars(ints, len);
                let mut cover: Vec<i64> = (-2..=2).filter(|_| self.chance(50)).collect();
                cover.dedup();
                let counts = self.int_vars(ints, cover.len());
                Con::Cardinality(xs, cover, counts, self.chance(50))
            }
            16 => {
                let len = self.rng.random_range(1..=2);
                let (xs, ys) = (self.int_vars(ints, len), self.int_vars(ints, len));
                Con::Lex(xs, ys, self.chance(50))
            }
            17 => {
                let len = self.rng.random_range(1..=3);
                let s = self.int_vars(ints, len);
                let d = (0..len).map(|_| self.rng.random_range(0..=3)).collect();
                Con::Disjunctive(s, d)
            }
            18 => {
                // Mostly unit coefficients: the sums of Booleans that `BoolSum` propagates.
                let len = self.rng.random_range(1..=4);
                let coefficients = (0..len)
                    .map(|_| match self.rng.random_range(0..10) {
                        0..=4 => 1,
                        5..=7 => -1,
                        _ => self.small(),
                    })
                    .collect();
                let bs = self.booleans(ints, bools, len);
                let le = self.chance(40);
                let c = if le {
                    Term::Const(self.small())
                } else {
                    self.int(ints)
                };
                Con::BoolLinear(le, coefficients, bs, c)
            }
            _ => {
                let len = self.rng.random_range(1..=3);
                let s = self.int_vars(ints, len);
                let d = (0..len).map(|_| self.rng.random_range(0..=3)).collect();
                let r = (0..len).map(|_| self.rng.random_range(0..=2)).collect();
                Con::Cumulative(s, d, r, self.rng.random_range(0..=3))
            }
        }
    }

    fn search(&mut self, ints: usize) -> String {
        let variables = [
            "input_order",
            "first_fail",
            "anti_first_fail",
            "smallest",
            "largest",
            "occurrence",
            "most_constrained",
            "max_regret",
            "dom_w_deg",
        ];
        let values = [
            "indomain_min",
            "indomain_max",
            "indomain_median",
            "indomain_middle",
            "indomain_random",
            "indomain_split",
            "indomain_reverse_split",
            "indomain_interval",
            "outdomain_min",
            "outdomain_max",
            "outdomain_median",
        ];
        let vars: Vec<String> = (0..ints)
            .filter(|_| self.chance(60))
            .map(|i| format!("x{i}"))
            .collect();
        format!(
            "int_search([{}], {}, {}, complete)",
            vars.join(", "),
            variables[self.rng.random_range(0..variables.len())],
            values[self.rng.random_range(0..values.len())]
        )
    }
}

/// What a run printed: each solution's values by variable name, and the status line.
#[derive(Debug, Default)]
struct Printed {
    solutions: Vec<Vec<i64>>,
    complete: bool,
    unsatisfiable: bool,
}

fn read_output(text: &str, vars: &[Var]) -> Printed {
    let mut printed = Printed::default();
    let mut current = vec![None; vars.len()];
    for line in text.lines() {
        match line {
            "----------" => {
                let values = current
                    .iter()
                    .enumerate()
                    .map(|(i, v)| v.unwrap_or_else(|| panic!("{} was not printed", vars[i].name)))
                    .collect();
                printed.solutions.push(values);
                current = vec![None; vars.len()];
            }
            "==========" => printed.complete = true,
            "=====UNSATISFIABLE=====" => printed.unsatisfiable = true,
            _ => {
                let (name, value) = line
                    .trim_end_matches(';')
                    .split_once(" = ")
                    .unwrap_or_else(|| panic!("unexpected line `{line}`"));
                let i = vars
                    .iter()
                    .position(|v| v.name == name)
                    .unwrap_or_else(|| panic!("unknown name `{name}`"));
                current[i] = Some(match value {
                    "true" => 1,
                    "false" => 0,
                    number => number.parse().unwrap(),
                });
            }
        }
    }
    printed
}

/// How one model is solved: free search or its annotations, neighbourhoods, learning (`None`: as
/// the run decides by default), and threads.
#[derive(Debug, Clone, Copy)]
struct Setting {
    free: bool,
    lns: bool,
    learning: Option<Learns>,
    threads: usize,
}

/// Solves one model through the library (and, when `binary`, through `fzn-csp` too, which must
/// print the same; one thread only, as threads print in the order they find) and checks the
/// answer against enumeration.
fn check(seed: u64, model: &Model, setting: Setting, binary: bool) {
    let Setting {
        free,
        lns,
        learning,
        threads,
    } = setting;
    let text = model.fzn();
    let context = || format!("seed {seed}, {setting:?}:\n{text}");
    let compiled = match csp::flatzinc::compile(&text) {
        Ok(compiled) => compiled,
        Err(error) => panic!("{error} — {}", context()),
    };
    let options = RunOptions {
        all_solutions: true,
        free_search: free,
        seed,
        lns: Some(lns),
        learning,
        threads,
        ..RunOptions::default()
    };
    let mut out = Vec::new();
    let summary = run(&compiled, &options, &mut out, &mut ())
        .unwrap_or_else(|e| panic!("{e} — {}", context()));
    let output = String::from_utf8(out).unwrap();
    let printed = read_output(&output, &model.vars);
    let truth = model.solutions();
    for solution in &printed.solutions {
        assert!(
            truth.contains(solution),
            "printed a non-solution {solution:?} — {}",
            context()
        );
    }
    match model.goal {
        None => {
            let found: BTreeSet<_> = printed.solutions.iter().cloned().collect();
            let expected: BTreeSet<_> = truth.iter().cloned().collect();
            assert_eq!(
                found.len(),
                printed.solutions.len(),
                "a solution twice — {}",
                context()
            );
            assert_eq!(found, expected, "solution sets differ — {}", context());
            if truth.is_empty() {
                assert!(printed.unsatisfiable, "not unsatisfiable — {}", context());
            } else {
                assert!(printed.complete, "not complete — {}", context());
            }
        }
        Some((var, maximise)) => {
            let best = truth
                .iter()
                .map(|s| s[var])
                .reduce(|a, b| if maximise { a.max(b) } else { a.min(b) });
            match best {
                None => assert!(printed.unsatisfiable, "not unsatisfiable — {}", context()),
                Some(best) => {
                    let last = printed
                        .solutions
                        .last()
                        .unwrap_or_else(|| panic!("no solution — {}", context()));
                    assert_eq!(last[var], best, "not the optimum — {}", context());
                    assert!(printed.complete, "optimum not proven — {}", context());
                    assert_eq!(summary.status, Status::Complete);
                    // Each improving solution is better than the one before.
                    for pair in printed.solutions.windows(2) {
                        let better = if maximise {
                            pair[1][var] > pair[0][var]
                        } else {
                            pair[1][var] < pair[0][var]
                        };
                        assert!(better, "not improving — {}", context());
                    }
                }
            }
        }
    }
    if binary && threads == 1 {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("model.fzn");
        std::fs::write(&path, &text).unwrap();
        let mut command = Command::new(env!("CARGO_BIN_EXE_fzn-csp"));
        command
            .arg("-a")
            .arg("-r")
            .arg(seed.to_string())
            .arg("--lns")
            .arg(if lns { "on" } else { "off" })
            .arg(&path);
        if let Some(learning) = learning {
            command.arg("--learning").arg(learning.name());
        }
        if free {
            command.arg("-f");
        }
        let result = command.output().unwrap();
        assert!(result.status.success(), "fzn-csp failed — {}", context());
        assert_eq!(
            String::from_utf8(result.stdout).unwrap(),
            output,
            "fzn-csp and the library printed differently — {}",
            context()
        );
    }
}

/// Solves a satisfaction model for one solution with the annotated search and free search in
/// turn (turns far longer than these models' trees, so mostly the annotated search answers; the
/// turns themselves are tested in `csp-search`): a solution that is one, or unsatisfiable exactly
/// when enumeration finds none.
fn check_first(seed: u64, model: &Model) {
    let text = model.fzn();
    let compiled = csp::flatzinc::compile(&text).unwrap();
    let options = RunOptions {
        seed,
        interleave: Some(true),
        ..RunOptions::default()
    };
    let mut out = Vec::new();
    run(&compiled, &options, &mut out, &mut ()).unwrap();
    let printed = read_output(&String::from_utf8(out).unwrap(), &model.vars);
    let truth = model.solutions();
    let context = || format!("seed {seed}, first solution, interleaved:\n{text}");
    assert_eq!(printed.unsatisfiable, truth.is_empty(), "{}", context());
    assert_eq!(
        printed.solutions.len(),
        usize::from(!truth.is_empty()),
        "{}",
        context()
    );
    for solution in &printed.solutions {
        assert!(
            truth.contains(solution),
            "printed a non-solution — {}",
            context()
        );
    }
}

fn setting(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

#[test]
fn random_models_agree_with_enumeration() {
    let models = setting("CSP_DIFFERENTIAL_MODELS", DEFAULT_MODELS);
    let first = setting("CSP_DIFFERENTIAL_SEED", 0);
    let mut optimisations = 0;
    for seed in first..first + models {
        let mut generator = Generator {
            rng: ChaCha8Rng::seed_from_u64(seed),
        };
        let model = generator.model();
        let free = generator.chance(20);
        let lns = generator.chance(50);
        optimisations += u64::from(model.goal.is_some());
        let binary = seed % BINARY_EVERY == 0;
        let setting = |learning, threads| Setting {
            free,
            lns,
            learning,
            threads,
        };
        check(seed, &model, setting(Some(Learns::Off), 1), binary);
        check(seed, &model, setting(Some(Learns::On), 1), binary);
        // A learning search beside one that does not, in turn, sharing the bound.
        check(seed, &model, setting(Some(Learns::Mix), 1), binary);
        // Two threads: a split tree for an enumeration, and under an objective a portfolio (or a
        // split tree, for a satisfaction problem) whose second worker learns.
        check(seed, &model, setting(None, 2), false);
        if model.goal.is_none() {
            check_first(seed, &model);
        }
    }
    // The generator covers both kinds of problem.
    assert!(optimisations > 0 && optimisations < models);
}
