//! Element: `z = as[i]`, indices from 1.

use super::{Arg, EQ, PLAIN, Poster, Val};
use crate::Elem;
use crate::constraints::VarElement;
use crate::error::Error;

/// `array_int_element(i, as, z)` and `array_bool_element`, over a constant array: a table of the
/// pairs `(k, as[k])`, which the engine keeps arc consistent.
pub fn array_element(p: &mut Poster<'_>, args: &[Arg]) -> Result<(), Error> {
    let index = p.elem(&args[0])?;
    let values = p.ints(&args[1])?;
    let z = p.elem(&args[2])?;
    let mut tuples = Vec::with_capacity(2 * values.len());
    for (k, &value) in values.iter().enumerate() {
        tuples.extend_from_slice(&[k as i64 + 1, value]);
    }
    p.table(&[index, z], &tuples)
}

/// `array_var_int_element(i, xs, z)` and `array_var_bool_element`: an equality once the index is a
/// constant, and otherwise this crate's temporary [`VarElement`].
pub fn array_var_element(p: &mut Poster<'_>, args: &[Arg]) -> Result<(), Error> {
    let index = p.elem(&args[0])?;
    let items = p.elems(&args[1])?.to_vec();
    let z = p.elem(&args[2])?;
    match index {
        Elem::Const(i) => match usize::try_from(i - 1).ok().and_then(|k| items.get(k)) {
            Some(&x) => super::linear::int_cmp::<EQ, PLAIN>(p, &[Arg::Elem(x), Arg::Elem(z)]),
            None => p.post_false(),
        },
        Elem::Var(_) => p.post(VarElement::new(index, &items, z, 1)),
    }
}

pub fn array_element_holds(v: &[Val<'_>]) -> bool {
    match (v[0].int(), v[1].array(), v[2].int()) {
        (Some(i), Some(items), Some(z)) => usize::try_from(i - 1)
            .ok()
            .and_then(|k| items.get(k))
            .is_some_and(|&x| x == z),
        _ => false,
    }
}
