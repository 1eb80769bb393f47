//! Global constraints and sets: all-different, table, membership of a constant set.

use super::{Arg, Poster, Val, reif_of, tied};
use crate::Elem;
use crate::ast::ranges_contain;
use crate::error::Error;
use csp_core::constraints::AllDifferent;

/// `fzn_all_different_int(xs)`: `AllDifferent`, constants as fixed variables; the same variable or
/// constant twice makes it unsatisfiable.
pub fn all_different(p: &mut Poster<'_>, args: &[Arg]) -> Result<(), Error> {
    let items = p.elems(&args[0])?.to_vec();
    let mut vars = Vec::with_capacity(items.len());
    for item in items {
        vars.push(p.var(item)?);
    }
    let mut sorted = vars.clone();
    sorted.sort_unstable();
    if sorted.windows(2).any(|w| w[0] == w[1]) {
        return p.post_false();
    }
    p.post(AllDifferent::new(vars))
}

pub fn all_different_holds(v: &[Val<'_>]) -> bool {
    v[0].array().is_some_and(|items| {
        let mut sorted = items.to_vec();
        sorted.sort_unstable();
        sorted.windows(2).all(|w| w[0] != w[1])
    })
}

/// `fzn_table_int(xs, t)`: the rows of `t` (flattened, `|xs|` values a row) are the allowed tuples.
pub fn table(p: &mut Poster<'_>, args: &[Arg]) -> Result<(), Error> {
    let items = p.elems(&args[0])?.to_vec();
    let tuples = p.ints(&args[1])?;
    if !items.is_empty() && tuples.len() % items.len() != 0 {
        return Err(Error::invalid(
            p.line,
            format!(
                "a table of {} values is not made of rows of {}",
                tuples.len(),
                items.len()
            ),
        ));
    }
    p.table(&items, &tuples)
}

pub fn table_holds(v: &[Val<'_>]) -> bool {
    match (v[0].array(), v[1].array()) {
        (Some(items), Some(tuples)) if !items.is_empty() => {
            tuples.chunks_exact(items.len()).any(|row| row == items)
        }
        (Some(_), Some(_)) => true,
        _ => false,
    }
}

/// `set_in(x, S)` and its `_reif`/`_imp` forms: a `SetIn` (domain consistent), reified by
/// `Reified` through its entailment and negation.
pub fn set_in<const MODE: u8>(p: &mut Poster<'_>, args: &[Arg]) -> Result<(), Error> {
    let x = p.elem(&args[0])?;
    let set = p.set(&args[1])?.clone();
    let reif = reif_of::<MODE>(p, args)?;
    match x {
        Elem::Const(value) => p.post_truth(ranges_contain(&set, value), reif),
        Elem::Var(var) => p.reified(reif, Box::new(super::set_in_constraint(var, &set))),
    }
}

pub fn set_in_holds<const MODE: u8>(v: &[Val<'_>]) -> bool {
    match (v[0].int(), v[1].set()) {
        (Some(x), Some(set)) => {
            let holds = set.iter().any(|&(lo, hi)| lo <= x && x <= hi);
            tied::<MODE>(holds, v.get(2).and_then(Val::int))
        }
        _ => false,
    }
}
