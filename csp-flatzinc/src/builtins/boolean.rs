//! Boolean builtins on the catalogue's Boolean constraints: comparisons of two Booleans (and
//! `bool2int`) as a `Compare`, clauses as a `Clause` with watched literals, reified conjunctions and
//! disjunctions as a `BoolAnd`, exclusive or and equivalence as a `Parity`; the half-reified forms as
//! the clauses of their definition. Constant arguments are folded before anything is posted.

use csp_core::constraints::{BoolAnd, Clause, Comparison, Parity, SignedBool};

use super::{Arg, Poster, Reif, Suffix, Val, compare, tied};
use crate::Elem;
use crate::error::Error;

/// The Boolean operator of a `bool_and`, `bool_or`, `bool_xor`, `bool_eq`, `bool_le` or `bool_lt`
/// with a trailing Boolean (reified or half-reified).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BoolOp {
    /// `a ∧ b`.
    And,
    /// `a ∨ b`.
    Or,
    /// `a ⊕ b`.
    Xor,
    /// `a = b`.
    Eq,
    /// `a ≤ b`, that is `a → b`.
    Le,
    /// `a < b`, that is `¬a ∧ b`.
    Lt,
}

/// A Boolean argument (a variable or a constant) or its negation.
#[derive(Debug, Clone, Copy)]
struct Lit {
    elem: Elem,
    positive: bool,
}

impl Lit {
    fn negated(self) -> Self {
        Lit {
            elem: self.elem,
            positive: !self.positive,
        }
    }
}

/// The literal `elem` (or its negation when `positive` is false); a constant must be 0 or 1.
fn lit(p: &Poster<'_>, elem: Elem, positive: bool) -> Result<Lit, Error> {
    if let Elem::Const(c) = elem
        && !(0..=1).contains(&c)
    {
        return Err(p.invalid(format!("expected a Boolean, found {c}")));
    }
    Ok(Lit { elem, positive })
}

/// The literals over argument `arg` (an array), each positive or each negated.
fn lits(p: &Poster<'_>, arg: &Arg, positive: bool) -> Result<Vec<Lit>, Error> {
    p.elems(arg)?
        .iter()
        .map(|&elem| lit(p, elem, positive))
        .collect()
}

/// A literal's truth when its argument is a constant; the engine's literal otherwise.
fn resolve(l: Lit) -> Result<SignedBool, bool> {
    match l.elem {
        Elem::Const(c) => Err((c == 1) == l.positive),
        Elem::Var(var) => Ok(SignedBool {
            var,
            positive: l.positive,
        }),
    }
}

/// Posts `l₁ ∨ … ∨ lₙ`: nothing when a constant literal is true, the constant ones left out, and a
/// unit clause as the variable fixed.
fn clause(p: &mut Poster<'_>, literals: &[Lit]) -> Result<(), Error> {
    let mut open = Vec::with_capacity(literals.len());
    for &l in literals {
        match resolve(l) {
            Err(true) => return Ok(()),
            Err(false) => {}
            Ok(literal) => open.push(literal),
        }
    }
    match open[..] {
        [] => p.post_false(),
        [only] => hold(p, only),
        _ => p.post(Clause::from_literals(open)),
    }
}

/// Posts the literal true: its variable fixed to 1, or to 0 when negated.
fn hold(p: &mut Poster<'_>, literal: SignedBool) -> Result<(), Error> {
    p.compare(
        Elem::Var(literal.var),
        Comparison::Equal,
        Elem::Const(i64::from(literal.positive)),
        0,
        Reif::Plain,
    )
}

/// Posts `r ↔ l₁ ∧ … ∧ lₙ` as a `BoolAnd`, constants folded: a false conjunct makes `r` false, true
/// ones are left out, and a constant `r` leaves the conjunction or the clause of its negation.
fn and_reif(p: &mut Poster<'_>, r: Lit, conjuncts: &[Lit]) -> Result<(), Error> {
    let mut open = Vec::with_capacity(conjuncts.len());
    for &l in conjuncts {
        match resolve(l) {
            Err(true) => {}
            Err(false) => return clause(p, &[r.negated()]),
            Ok(literal) => open.push(literal),
        }
    }
    if open.is_empty() {
        return clause(p, &[r]);
    }
    match resolve(r) {
        Err(true) => open.into_iter().try_for_each(|literal| hold(p, literal)),
        Err(false) => p.post(Clause::from_literals(
            open.into_iter().map(SignedBool::negated),
        )),
        Ok(r) => p.post(BoolAnd::new(r, open)),
    }
}

/// Posts "an odd number of `elems` are true" (or an even number when `odd` is false) as a `Parity`,
/// constants folded into the parity.
fn parity(p: &mut Poster<'_>, elems: &[Elem], mut odd: bool) -> Result<(), Error> {
    let mut vars = Vec::with_capacity(elems.len());
    for &elem in elems {
        match lit(p, elem, true)?.elem {
            Elem::Const(c) => odd ^= c == 1,
            Elem::Var(var) => vars.push(var),
        }
    }
    // A variable named twice cancels out; with none left the parity is settled.
    let mut sorted = vars.clone();
    sorted.sort_unstable();
    let any_odd_count = sorted.chunk_by(|a, b| a == b).any(|run| run.len() % 2 == 1);
    if !any_odd_count {
        return p.post_truth(!odd, Reif::Plain);
    }
    p.post(Parity::new(&vars, odd))
}

/// Two Booleans compared as 0/1, as a `Compare`: `bool2int` and `bool_eq` (=), `bool_le` (≤),
/// `bool_lt` (<), `bool_not` and the two-argument `bool_xor` (≠).
pub fn bool_cmp(p: &mut Poster<'_>, args: &[Arg], rel: Comparison) -> Result<(), Error> {
    let (a, b) = (p.elem(&args[0])?, p.elem(&args[1])?);
    p.compare(a, rel, b, 0, Reif::Plain)
}

pub fn bool_cmp_holds(v: &[Val<'_>], rel: Comparison) -> bool {
    let boolean = |x: Option<i64>| x.filter(|x| (0..=1).contains(x));
    // bool2int's second argument is an integer, equal to the first as 0/1.
    match (boolean(v[0].int()), v[1].int()) {
        (Some(a), Some(b)) => compare(rel, i128::from(a), i128::from(b)),
        _ => false,
    }
}

/// `bool_clause(as, bs)`: some `asᵢ` true or some `bsᵢ` false, a `Clause`; `bool_clause_imp(as, bs,
/// r)` is the clause with `¬r` added, and `bool_clause_reif` is `¬r ↔ ∧ ¬asᵢ ∧ bsᵢ`, a `BoolAnd`.
pub fn bool_clause(p: &mut Poster<'_>, args: &[Arg], suffix: Suffix) -> Result<(), Error> {
    let mut literals = lits(p, &args[0], true)?;
    literals.extend(lits(p, &args[1], false)?);
    match suffix {
        Suffix::Plain => clause(p, &literals),
        Suffix::Implied => {
            literals.push(lit(p, p.elem(&args[2])?, false)?);
            clause(p, &literals)
        }
        Suffix::Reified => {
            let not_r = lit(p, p.elem(&args[2])?, false)?;
            let negated: Vec<Lit> = literals.iter().map(|l| l.negated()).collect();
            and_reif(p, not_r, &negated)
        }
    }
}

pub fn bool_clause_holds(v: &[Val<'_>], suffix: Suffix) -> bool {
    let r = if suffix == Suffix::Plain {
        None
    } else {
        v[2].int()
    };
    match (v[0].array(), v[1].array()) {
        (Some(a), Some(b)) => tied(suffix, a.contains(&1) || b.contains(&0), r),
        _ => false,
    }
}

/// `array_bool_and(as, r)`: `r ↔ ∧ asᵢ`, a `BoolAnd`.
pub fn array_bool_and(p: &mut Poster<'_>, args: &[Arg]) -> Result<(), Error> {
    let inputs = lits(p, &args[0], true)?;
    let r = lit(p, p.elem(&args[1])?, true)?;
    and_reif(p, r, &inputs)
}

pub fn array_bool_and_holds(v: &[Val<'_>]) -> bool {
    match (v[0].array(), v[1].int()) {
        (Some(a), r) => tied(Suffix::Reified, a.iter().all(|&x| x == 1), r),
        _ => false,
    }
}

/// `array_bool_or(as, r)`: `r ↔ ∨ asᵢ`, that is `¬r ↔ ∧ ¬asᵢ`, a `BoolAnd`.
pub fn array_bool_or(p: &mut Poster<'_>, args: &[Arg]) -> Result<(), Error> {
    let negated_inputs = lits(p, &args[0], false)?;
    let not_r = lit(p, p.elem(&args[1])?, false)?;
    and_reif(p, not_r, &negated_inputs)
}

pub fn array_bool_or_holds(v: &[Val<'_>]) -> bool {
    match (v[0].array(), v[1].int()) {
        (Some(a), r) => tied(Suffix::Reified, a.contains(&1), r),
        _ => false,
    }
}

/// `array_bool_xor(as)`: an odd number of `as` true, a `Parity`.
pub fn array_bool_xor(p: &mut Poster<'_>, args: &[Arg]) -> Result<(), Error> {
    let items = p.elems(&args[0])?.to_vec();
    parity(p, &items, true)
}

pub fn array_bool_xor_holds(v: &[Val<'_>]) -> bool {
    v[0].array()
        .is_some_and(|a| a.iter().filter(|&&x| x == 1).count() % 2 == 1)
}

fn apply(op: BoolOp, a: i64, b: i64) -> bool {
    match op {
        BoolOp::And => a == 1 && b == 1,
        BoolOp::Or => a == 1 || b == 1,
        BoolOp::Xor => a != b,
        BoolOp::Eq => a == b,
        BoolOp::Le => a <= b,
        BoolOp::Lt => a < b,
    }
}

/// `r ↔ a op b` ([`Suffix::Reified`]): a `BoolAnd` for and, or, `≤` and `<` (by De Morgan where
/// needed), a `Parity` for xor and equality. `r → a op b` ([`Suffix::Implied`]): the clauses of
/// `a op b`, each with `¬r`.
pub fn bool_op(p: &mut Poster<'_>, args: &[Arg], op: BoolOp, suffix: Suffix) -> Result<(), Error> {
    let (a, b, r) = (
        lit(p, p.elem(&args[0])?, true)?,
        lit(p, p.elem(&args[1])?, true)?,
        lit(p, p.elem(&args[2])?, true)?,
    );
    let (not_a, not_b, not_r) = (a.negated(), b.negated(), r.negated());
    if suffix == Suffix::Reified {
        return match op {
            BoolOp::And => and_reif(p, r, &[a, b]),
            BoolOp::Or => and_reif(p, not_r, &[not_a, not_b]),
            // r = a ⊕ b: a ⊕ b ⊕ r is even; r = (a = b): it is odd.
            BoolOp::Xor => parity(p, &[a.elem, b.elem, r.elem], false),
            BoolOp::Eq => parity(p, &[a.elem, b.elem, r.elem], true),
            // r ↔ ¬a ∨ b, that is ¬r ↔ a ∧ ¬b.
            BoolOp::Le => and_reif(p, not_r, &[a, not_b]),
            BoolOp::Lt => and_reif(p, r, &[not_a, b]),
        };
    }
    let clauses: &[&[Lit]] = match op {
        BoolOp::And => &[&[not_r, a], &[not_r, b]],
        BoolOp::Or => &[&[not_r, a, b]],
        BoolOp::Xor => &[&[not_r, a, b], &[not_r, not_a, not_b]],
        BoolOp::Eq => &[&[not_r, not_a, b], &[not_r, a, not_b]],
        BoolOp::Le => &[&[not_r, not_a, b]],
        BoolOp::Lt => &[&[not_r, not_a], &[not_r, b]],
    };
    for literals in clauses {
        clause(p, literals)?;
    }
    Ok(())
}

pub fn bool_op_holds(v: &[Val<'_>], op: BoolOp, suffix: Suffix) -> bool {
    let boolean = |x: Option<i64>| x.filter(|x| (0..=1).contains(x));
    match (boolean(v[0].int()), boolean(v[1].int()), v[2].int()) {
        (Some(a), Some(b), r) => tied(suffix, apply(op, a, b), r),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_constant_literal_is_true_when_its_sign_matches() {
        let yes = Lit {
            elem: Elem::Const(1),
            positive: true,
        };
        assert_eq!(resolve(yes), Err(true));
        assert_eq!(resolve(yes.negated()), Err(false));
        let no = Lit {
            elem: Elem::Const(0),
            positive: true,
        };
        assert_eq!(resolve(no), Err(false));
        assert_eq!(resolve(no.negated()), Err(true));
    }
}
