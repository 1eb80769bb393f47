//! Integer functions: `int_times`, `int_div`, `int_mod`, `int_min`, `int_max`, `int_pow`, `int_abs`,
//! and the maximum or minimum of an array, on this crate's temporary [`Arith`].

use super::{Arg, Poster, Val};
use crate::Elem;
use crate::constraints::{Arith, ArithOp};
use crate::error::Error;

pub const TIMES: u8 = 0;
pub const DIV: u8 = 1;
pub const MOD: u8 = 2;
pub const MIN: u8 = 3;
pub const MAX: u8 = 4;
pub const POW: u8 = 5;

fn op_of<const OP: u8>() -> ArithOp {
    match OP {
        TIMES => ArithOp::Times,
        DIV => ArithOp::Div,
        MOD => ArithOp::Mod,
        MIN => ArithOp::Min,
        MAX => ArithOp::Max,
        _ => ArithOp::Pow,
    }
}

/// `int_times(x, y, z)` and the others: `z = OP(x, y)`.
pub fn arith<const OP: u8>(p: &mut Poster<'_>, args: &[Arg]) -> Result<(), Error> {
    let (x, y, z) = (p.elem(&args[0])?, p.elem(&args[1])?, p.elem(&args[2])?);
    p.post(Arith::new(op_of::<OP>(), x, y, z))
}

/// The FlatZinc definitions, written out again rather than taken from [`ArithOp::apply`], so that
/// the check does not share the constraint's code.
pub fn arith_holds<const OP: u8>(v: &[Val<'_>]) -> bool {
    let (Some(x), Some(y), Some(z)) = (v[0].int(), v[1].int(), v[2].int()) else {
        return false;
    };
    let (x, y, z) = (i128::from(x), i128::from(y), i128::from(z));
    match OP {
        TIMES => x * y == z,
        // Truncating division: the quotient rounds towards zero, the remainder takes x's sign.
        DIV => {
            let remainder = x - z * y;
            y != 0
                && remainder.abs() < y.abs()
                && (remainder == 0 || remainder.signum() == x.signum())
        }
        MOD => {
            y != 0 && z.abs() < y.abs() && (z == 0 || z.signum() == x.signum()) && (x - z) % y == 0
        }
        MIN => z == x.min(y),
        MAX => z == x.max(y),
        _ => {
            if y < 0 {
                (x == 1 && z == 1) || (x == -1 && z == if y % 2 == 0 { 1 } else { -1 })
            } else {
                let mut power: i128 = 1;
                for _ in 0..y {
                    power = match power.checked_mul(x) {
                        Some(p) if p.abs() <= i128::from(i64::MAX) => p,
                        _ => return false,
                    };
                }
                power == z
            }
        }
    }
}

/// `int_abs(x, z)`: `z = |x|`.
pub fn int_abs(p: &mut Poster<'_>, args: &[Arg]) -> Result<(), Error> {
    let (x, z) = (p.elem(&args[0])?, p.elem(&args[1])?);
    p.post(Arith::new(ArithOp::Abs, x, Elem::Const(0), z))
}

pub fn int_abs_holds(v: &[Val<'_>]) -> bool {
    match (v[0].int(), v[1].int()) {
        (Some(x), Some(z)) => i128::from(x).abs() == i128::from(z),
        _ => false,
    }
}

/// `array_int_maximum(m, xs)` (`OP` = `MAX`) or `array_int_minimum`: a chain of binary maxima through
/// new variables, `m = max(x₁, max(x₂, …))`.
pub fn extremum<const OP: u8>(p: &mut Poster<'_>, args: &[Arg]) -> Result<(), Error> {
    let m = p.elem(&args[0])?;
    let items = p.elems(&args[1])?.to_vec();
    let Some((&last, rest)) = items.split_last() else {
        return p.post_false();
    };
    let mut acc = last;
    for (i, &x) in rest.iter().enumerate().rev() {
        let target = if i == 0 {
            m
        } else {
            let (a, b) = (p.bounds_of(x), p.bounds_of(acc));
            Elem::Var(p.aux_var(a.0.min(b.0), a.1.max(b.1))?)
        };
        p.post(Arith::new(op_of::<OP>(), x, acc, target))?;
        acc = target;
    }
    if rest.is_empty() {
        return super::linear::int_cmp::<{ super::EQ }, { super::PLAIN }>(
            p,
            &[Arg::Elem(m), Arg::Elem(last)],
        );
    }
    Ok(())
}

pub fn extremum_holds<const OP: u8>(v: &[Val<'_>]) -> bool {
    match (v[0].int(), v[1].array()) {
        (Some(m), Some(items)) => {
            let best = if OP == MAX {
                items.iter().max()
            } else {
                items.iter().min()
            };
            best == Some(&m)
        }
        _ => false,
    }
}
