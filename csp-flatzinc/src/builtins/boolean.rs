//! Binary Boolean operations tied to a third Boolean (`bool_and(a, b, r)`: `r ↔ a ∧ b`), each posted
//! as a table of the allowed `(a, b, r)` triples, which the engine keeps arc consistent.

use super::{Arg, Poster, Val, tied};
use crate::error::Error;

pub const AND: u8 = 0;
pub const OR: u8 = 1;
pub const XOR: u8 = 2;
/// `a = b`, `a ≤ b`, `a < b` on Booleans.
pub const BEQ: u8 = 3;
pub const BLE: u8 = 4;
pub const BLT: u8 = 5;

fn apply<const OP: u8>(a: i64, b: i64) -> bool {
    match OP {
        AND => a == 1 && b == 1,
        OR => a == 1 || b == 1,
        XOR => a != b,
        BEQ => a == b,
        BLE => a <= b,
        _ => a < b,
    }
}

/// `r ↔ a OP b` (`MODE` = `REIF`) or `r → a OP b` (`IMP`).
pub fn bool_op<const OP: u8, const MODE: u8>(
    p: &mut Poster<'_>,
    args: &[Arg],
) -> Result<(), Error> {
    let (a, b, r) = (p.elem(&args[0])?, p.elem(&args[1])?, p.elem(&args[2])?);
    let mut tuples = Vec::with_capacity(12);
    for x in 0..=1 {
        for y in 0..=1 {
            for z in 0..=1 {
                if tied::<MODE>(apply::<OP>(x, y), Some(z)) {
                    tuples.extend_from_slice(&[x, y, z]);
                }
            }
        }
    }
    p.table(&[a, b, r], &tuples)
}

pub fn bool_op_holds<const OP: u8, const MODE: u8>(v: &[Val<'_>]) -> bool {
    let boolean = |x: Option<i64>| x.filter(|x| (0..=1).contains(x));
    match (boolean(v[0].int()), boolean(v[1].int()), v[2].int()) {
        (Some(a), Some(b), r) => tied::<MODE>(apply::<OP>(a, b), r),
        _ => false,
    }
}
