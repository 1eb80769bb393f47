//! Comparisons and linear sums (over integers, and over Booleans as 0/1).

use csp_core::constraints::{Comparison, Relation};

use super::{Arg, Poster, Reif, Suffix, Val, compare, reif_of, tied};
use crate::Elem;
use crate::error::Error;

/// `Σ aᵢxᵢ rel c` as the engine's relation and right-hand side (`<` becomes `≤ c − 1`).
fn relation_of(rel: Comparison, rhs: i64) -> (Relation, i64) {
    match rel {
        Comparison::Equal => (Relation::Equal, rhs),
        Comparison::NotEqual => (Relation::NotEqual, rhs),
        Comparison::LessOrEqual => (Relation::LessOrEqual, rhs),
        Comparison::Less => (Relation::LessOrEqual, rhs.saturating_sub(1)),
        Comparison::GreaterOrEqual | Comparison::Greater => {
            unreachable!("FlatZinc's linear builtins relate by =, ≠, ≤ and < only")
        }
    }
}

/// The trailing Boolean's value, for the checkers of `_reif` and `_imp` forms.
fn trailing(suffix: Suffix, values: &[Val<'_>]) -> Option<i64> {
    if suffix == Suffix::Plain {
        None
    } else {
        values.last().and_then(Val::int)
    }
}

/// `int_eq(a, b)`, `int_le(a, b)`, …, and their `_reif` and `_imp` forms: a `Compare`, or a
/// `ReifiedCompare` tied to the trailing Boolean.
pub fn int_cmp(
    p: &mut Poster<'_>,
    args: &[Arg],
    rel: Comparison,
    suffix: Suffix,
) -> Result<(), Error> {
    let (a, b) = (p.elem(&args[0])?, p.elem(&args[1])?);
    let reif = reif_of(suffix, p, args)?;
    p.compare(a, rel, b, 0, reif)
}

pub fn int_cmp_holds(v: &[Val<'_>], rel: Comparison, suffix: Suffix) -> bool {
    match (v[0].int(), v[1].int()) {
        (Some(a), Some(b)) => tied(
            suffix,
            compare(rel, i128::from(a), i128::from(b)),
            trailing(suffix, v),
        ),
        _ => false,
    }
}

/// `int_lin_eq(as, xs, c)` and the rest: `Σ asᵢ·xsᵢ rel c`.
pub fn int_lin(
    p: &mut Poster<'_>,
    args: &[Arg],
    rel: Comparison,
    suffix: Suffix,
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
    let reif = reif_of(suffix, p, args)?;
    let terms: Vec<(i64, Elem)> = coefficients.into_iter().zip(vars.iter().copied()).collect();
    let (relation, rhs) = relation_of(rel, c);
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

pub fn int_lin_holds(v: &[Val<'_>], rel: Comparison, suffix: Suffix) -> bool {
    match (v[0].array(), v[1].array(), v[2].int()) {
        (Some(a), Some(x), Some(c)) => dot(a, x).is_some_and(|sum| {
            tied(
                suffix,
                compare(rel, sum, i128::from(c)),
                trailing(suffix, v),
            )
        }),
        _ => false,
    }
}

/// `bool_lin_eq(as, bs, c)`, `bool_lin_le(as, bs, c)`: `Σ asᵢ·bsᵢ rel c`, where `c` may be a variable.
pub fn bool_lin(p: &mut Poster<'_>, args: &[Arg], rel: Comparison) -> Result<(), Error> {
    let coefficients = p.ints(&args[0])?;
    let vars = p.elems(&args[1])?;
    if coefficients.len() != vars.len() {
        return Err(p.invalid("coefficients and variables differ in number"));
    }
    let c = p.elem(&args[2])?;
    let mut terms: Vec<(i64, Elem)> = coefficients.into_iter().zip(vars.iter().copied()).collect();
    terms.push((-1, c));
    let (relation, rhs) = relation_of(rel, 0);
    p.linear(&terms, relation, rhs, Reif::Plain)
}

pub fn bool_lin_holds(v: &[Val<'_>], rel: Comparison) -> bool {
    match (v[0].array(), v[1].array(), v[2].int()) {
        (Some(a), Some(x), Some(c)) => {
            dot(a, x).is_some_and(|sum| compare(rel, sum, i128::from(c)))
        }
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strict_comparisons_become_non_strict_ones() {
        assert_eq!(relation_of(Comparison::Less, 5), (Relation::LessOrEqual, 4));
        assert_eq!(
            relation_of(Comparison::LessOrEqual, 5),
            (Relation::LessOrEqual, 5)
        );
    }
}
