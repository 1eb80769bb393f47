//! Comparisons and linear sums (over integers, and over Booleans as 0/1).

use csp_core::constraints::{Comparison, Relation};

use super::{Arg, EQ, LE, NE, PLAIN, Poster, Reif, Val, compare, reif_of, tied};
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

/// The engine's comparison for `REL`.
fn comparison_of<const REL: u8>() -> Comparison {
    match REL {
        EQ => Comparison::Equal,
        NE => Comparison::NotEqual,
        LE => Comparison::LessOrEqual,
        _ => Comparison::Less,
    }
}

/// `int_eq(a, b)`, `int_le(a, b)`, …, and their `_reif` and `_imp` forms: a `Compare`, or a
/// `ReifiedCompare` tied to the trailing Boolean.
pub fn int_cmp<const REL: u8, const MODE: u8>(
    p: &mut Poster<'_>,
    args: &[Arg],
) -> Result<(), Error> {
    let (a, b) = (p.elem(&args[0])?, p.elem(&args[1])?);
    let reif = reif_of::<MODE>(p, args)?;
    p.compare(a, comparison_of::<REL>(), b, 0, reif)
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
        return Err(p.invalid(format!(
            "{} coefficients for {} variables",
            coefficients.len(),
            vars.len()
        )));
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
        return Err(p.invalid("coefficients and variables differ in number"));
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
