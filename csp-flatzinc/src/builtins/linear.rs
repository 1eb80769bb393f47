//! Comparisons, linear sums, and the Boolean constraints that are linear sums over 0/1 literals.

use csp_core::constraints::Relation;

use super::{Arg, EQ, LE, NE, PLAIN, Poster, REIF, Reif, Val, compare, reif_of, tied};
use crate::Elem;
use crate::error::Error;

/// `Σ aᵢxᵢ REL c` as the engine's relation and right-hand side (`<` becomes `≤ c − 1`).
fn relation_of<const REL: u8>(rhs: i64) -> (Relation, i64) {
    match REL {
        EQ => (Relation::Equal, rhs),
        NE => (Relation::NotEqual, rhs),
        LE => (Relation::LessOrEqual, rhs),
        _ => (Relation::LessOrEqual, rhs.saturating_sub(1)),
    }
}

/// The trailing Boolean's value, for the checkers of `_reif` and `_imp` forms.
fn trailing<const MODE: u8>(values: &[Val<'_>]) -> Option<i64> {
    if MODE == PLAIN {
        None
    } else {
        values.last().and_then(Val::int)
    }
}

/// `int_eq(a, b)`, `int_le(a, b)`, …, and their `_reif` and `_imp` forms: `a − b REL 0`.
pub fn int_cmp<const REL: u8, const MODE: u8>(
    p: &mut Poster<'_>,
    args: &[Arg],
) -> Result<(), Error> {
    let (a, b) = (p.elem(&args[0])?, p.elem(&args[1])?);
    let reif = reif_of::<MODE>(p, args)?;
    let (relation, rhs) = relation_of::<REL>(0);
    p.linear(&[(1, a), (-1, b)], relation, rhs, reif)
}

pub fn int_cmp_holds<const REL: u8, const MODE: u8>(v: &[Val<'_>]) -> bool {
    match (v[0].int(), v[1].int()) {
        (Some(a), Some(b)) => tied::<MODE>(
            compare::<REL>(i128::from(a), i128::from(b)),
            trailing::<MODE>(v),
        ),
        _ => false,
    }
}

/// `int_lin_eq(as, xs, c)` and the rest: `Σ asᵢ·xsᵢ REL c`.
pub fn int_lin<const REL: u8, const MODE: u8>(
    p: &mut Poster<'_>,
    args: &[Arg],
) -> Result<(), Error> {
    let coefficients = p.ints(&args[0])?;
    let vars = p.elems(&args[1])?;
    if coefficients.len() != vars.len() {
        return Err(Error::invalid(
            p.line,
            format!(
                "{} coefficients for {} variables",
                coefficients.len(),
                vars.len()
            ),
        ));
    }
    let c = p.int(&args[2])?;
    let reif = reif_of::<MODE>(p, args)?;
    let terms: Vec<(i64, Elem)> = coefficients.into_iter().zip(vars.iter().copied()).collect();
    let (relation, rhs) = relation_of::<REL>(c);
    p.linear(&terms, relation, rhs, reif)
}

/// `Σ aᵢ·xᵢ`, or `None` when the arrays do not match.
fn dot(coefficients: &[i64], values: &[i64]) -> Option<i128> {
    (coefficients.len() == values.len()).then(|| {
        coefficients
            .iter()
            .zip(values)
            .map(|(&a, &x)| i128::from(a) * i128::from(x))
            .sum()
    })
}

pub fn int_lin_holds<const REL: u8, const MODE: u8>(v: &[Val<'_>]) -> bool {
    match (v[0].array(), v[1].array(), v[2].int()) {
        (Some(a), Some(x), Some(c)) => dot(a, x).is_some_and(|sum| {
            tied::<MODE>(compare::<REL>(sum, i128::from(c)), trailing::<MODE>(v))
        }),
        _ => false,
    }
}

/// `bool_lin_eq(as, bs, c)`, `bool_lin_le(as, bs, c)`: `Σ asᵢ·bsᵢ REL c`, where `c` may be a variable.
pub fn bool_lin<const REL: u8>(p: &mut Poster<'_>, args: &[Arg]) -> Result<(), Error> {
    let coefficients = p.ints(&args[0])?;
    let vars = p.elems(&args[1])?;
    if coefficients.len() != vars.len() {
        return Err(Error::invalid(
            p.line,
            "coefficients and variables differ in number",
        ));
    }
    let c = p.elem(&args[2])?;
    let mut terms: Vec<(i64, Elem)> = coefficients.into_iter().zip(vars.iter().copied()).collect();
    terms.push((-1, c));
    let (relation, rhs) = relation_of::<REL>(0);
    p.linear(&terms, relation, rhs, Reif::Plain)
}

pub fn bool_lin_holds<const REL: u8>(v: &[Val<'_>]) -> bool {
    match (v[0].array(), v[1].array(), v[2].int()) {
        (Some(a), Some(x), Some(c)) => {
            dot(a, x).is_some_and(|sum| compare::<REL>(sum, i128::from(c)))
        }
        _ => false,
    }
}

/// Two Booleans compared as 0/1: `bool2int` and `bool_eq` (=), `bool_le` (≤), `bool_lt` (<),
/// `bool_not` and the two-argument `bool_xor` (≠, posted as `a + b = 1`).
pub fn bool_cmp<const REL: u8>(p: &mut Poster<'_>, args: &[Arg]) -> Result<(), Error> {
    let (a, b) = (p.elem(&args[0])?, p.elem(&args[1])?);
    if REL == NE {
        return p.linear(&[(1, a), (1, b)], Relation::Equal, 1, Reif::Plain);
    }
    int_cmp::<REL, PLAIN>(p, args)
}

pub fn bool_cmp_holds<const REL: u8>(v: &[Val<'_>]) -> bool {
    let boolean = |x: Option<i64>| x.filter(|x| (0..=1).contains(x));
    // bool2int's second argument is an integer, equal to the first as 0/1.
    match (boolean(v[0].int()), v[1].int()) {
        (Some(a), Some(b)) => compare::<REL>(i128::from(a), i128::from(b)),
        _ => false,
    }
}

/// `bool_clause(as, bs)`: some `asᵢ` true or some `bsᵢ` false, as
/// `Σ asᵢ + Σ (1 − bsᵢ) ≥ 1`, that is `−Σ asᵢ + Σ bsᵢ ≤ |bs| − 1`; with `_reif`/`_imp`, tied to `r`.
pub fn bool_clause<const MODE: u8>(p: &mut Poster<'_>, args: &[Arg]) -> Result<(), Error> {
    let positive = p.elems(&args[0])?;
    let negative = p.elems(&args[1])?;
    let mut terms: Vec<(i64, Elem)> = Vec::with_capacity(positive.len() + negative.len());
    terms.extend(positive.iter().map(|&a| (-1, a)));
    terms.extend(negative.iter().map(|&b| (1, b)));
    let rhs = negative.len() as i64 - 1;
    let reif = reif_of::<MODE>(p, args)?;
    p.linear(&terms, Relation::LessOrEqual, rhs, reif)
}

pub fn bool_clause_holds<const MODE: u8>(v: &[Val<'_>]) -> bool {
    match (v[0].array(), v[1].array()) {
        (Some(a), Some(b)) => tied::<MODE>(a.contains(&1) || b.contains(&0), trailing::<MODE>(v)),
        _ => false,
    }
}

/// `array_bool_and(as, r)`: `r ↔ Σ asᵢ = |as|`.
pub fn array_bool_and(p: &mut Poster<'_>, args: &[Arg]) -> Result<(), Error> {
    let items = p.elems(&args[0])?;
    let r = p.elem(&args[1])?;
    let terms: Vec<(i64, Elem)> = items.iter().map(|&a| (1, a)).collect();
    p.linear(&terms, Relation::Equal, items.len() as i64, Reif::Equiv(r))
}

pub fn array_bool_and_holds(v: &[Val<'_>]) -> bool {
    match (v[0].array(), v[1].int()) {
        (Some(a), r) => tied::<REIF>(a.iter().all(|&x| x == 1), r),
        _ => false,
    }
}

/// `array_bool_or(as, r)`: `r ↔ Σ asᵢ ≥ 1`, that is `−Σ asᵢ ≤ −1`.
pub fn array_bool_or(p: &mut Poster<'_>, args: &[Arg]) -> Result<(), Error> {
    let items = p.elems(&args[0])?;
    let r = p.elem(&args[1])?;
    let terms: Vec<(i64, Elem)> = items.iter().map(|&a| (-1, a)).collect();
    p.linear(&terms, Relation::LessOrEqual, -1, Reif::Equiv(r))
}

pub fn array_bool_or_holds(v: &[Val<'_>]) -> bool {
    match (v[0].array(), v[1].int()) {
        (Some(a), r) => tied::<REIF>(a.contains(&1), r),
        _ => false,
    }
}

/// `array_bool_xor(as)`: an odd number of `as` true, as `Σ asᵢ − 2k = 1` with a new `k`.
pub fn array_bool_xor(p: &mut Poster<'_>, args: &[Arg]) -> Result<(), Error> {
    let items = p.elems(&args[0])?;
    let half = p.aux_var(0, items.len() as i64 / 2)?;
    let mut terms: Vec<(i64, Elem)> = items.iter().map(|&a| (1, a)).collect();
    terms.push((-2, Elem::Var(half)));
    p.linear(&terms, Relation::Equal, 1, Reif::Plain)
}

pub fn array_bool_xor_holds(v: &[Val<'_>]) -> bool {
    v[0].array()
        .is_some_and(|a| a.iter().filter(|&&x| x == 1).count() % 2 == 1)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::builtins::LT;

    #[test]
    fn strict_comparisons_become_non_strict_ones() {
        assert_eq!(relation_of::<LT>(5), (Relation::LessOrEqual, 4));
        assert_eq!(relation_of::<LE>(5), (Relation::LessOrEqual, 5));
    }
}
