//! Element: `z = as[i]`, indices from 1.

use csp_core::constraints::{Comparison, Element, VarElement};

use super::{Arg, Poster, Reif, Val};
use crate::Elem;
use crate::error::Error;

/// `array_int_element(i, as, z)` and `array_bool_element`, over a constant array: an `Element`
/// (domain consistent on the index and the result); a constant index is the equality with its
/// element. An array with a value beyond the engine's 32 bits, which no variable can take, is a
/// table of the pairs `(k, as[k])`, which leaves such pairs out.
pub fn array_element(p: &mut Poster<'_>, args: &[Arg]) -> Result<(), Error> {
    let index = p.elem(&args[0])?;
    let values = p.ints(&args[1])?;
    let z = p.elem(&args[2])?;
    if let Elem::Const(i) = index {
        return match i
            .checked_sub(1)
            .and_then(|k| usize::try_from(k).ok())
            .and_then(|k| values.get(k))
        {
            Some(&value) => p.compare(z, Comparison::Equal, Elem::Const(value), 0, Reif::Plain),
            None => p.post_false(),
        };
    }
    let small: Option<Vec<i32>> = values.iter().map(|&v| i32::try_from(v).ok()).collect();
    match small {
        Some(array) if !array.is_empty() => {
            let (index, z) = (p.var(index)?, p.var(z)?);
            let element = Element::new(index, array, z, 1).map_err(|e| p.invalid(e.to_string()))?;
            p.post(element)
        }
        _ => {
            let mut tuples = Vec::with_capacity(2 * values.len());
            for (k, &value) in values.iter().enumerate() {
                tuples.extend_from_slice(&[k as i64 + 1, value]);
            }
            p.table(&[index, z], &tuples)
        }
    }
}

/// `array_var_int_element(i, xs, z)` and `array_var_bool_element`: a `VarElement` (domain
/// consistent), or the equality with the element a constant index names.
pub fn array_var_element(p: &mut Poster<'_>, args: &[Arg]) -> Result<(), Error> {
    let index = p.elem(&args[0])?;
    let items = p.elems(&args[1])?.to_vec();
    let z = p.elem(&args[2])?;
    match index {
        Elem::Const(i) => match i
            .checked_sub(1)
            .and_then(|k| usize::try_from(k).ok())
            .and_then(|k| items.get(k))
        {
            Some(&x) => p.compare(x, Comparison::Equal, z, 0, Reif::Plain),
            None => p.post_false(),
        },
        Elem::Var(index) if !items.is_empty() => {
            let array = p.vars(&items)?;
            let z = p.var(z)?;
            let element =
                VarElement::new(index, array, z, 1).map_err(|e| p.invalid(e.to_string()))?;
            p.post(element)
        }
        Elem::Var(_) => p.post_false(),
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
