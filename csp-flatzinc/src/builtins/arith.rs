//! Integer functions: `int_times`, `int_div`, `int_mod`, `int_min`, `int_max`, `int_pow`, `int_abs`,
//! and the maximum or minimum of an array, on the catalogue's `Arithmetic` and `Extremum`.

use csp_core::constraints::{Arithmetic, Extremum};

use super::{Arg, Poster, Val};
use crate::error::Error;

/// The function of an `int_times`, `int_div`, `int_mod`, `int_min`, `int_max` or `int_pow` (and, with
/// `Min` or `Max`, of an array's minimum or maximum).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ArithOp {
    /// `x · y`.
    Times,
    /// `x div y`, truncating.
    Div,
    /// `x mod y`, with `x`'s sign.
    Mod,
    /// The smaller.
    Min,
    /// The larger.
    Max,
    /// `x ^ y`.
    Pow,
}

/// `int_times(x, y, z)` and the others: `z = op(x, y)`, an `Arithmetic` (an `Extremum` of two for
/// the minimum and maximum); constants become fixed variables.
pub fn arith(p: &mut Poster<'_>, args: &[Arg], op: ArithOp) -> Result<(), Error> {
    let (x, y, z) = (p.elem(&args[0])?, p.elem(&args[1])?, p.elem(&args[2])?);
    let (x, y, z) = (p.var(x)?, p.var(y)?, p.var(z)?);
    match op {
        ArithOp::Times => p.post(Arithmetic::times(x, y, z)),
        ArithOp::Div => p.post(Arithmetic::div(x, y, z)),
        ArithOp::Mod => p.post(Arithmetic::modulo(x, y, z)),
        ArithOp::Pow => p.post(Arithmetic::pow(x, y, z)),
        ArithOp::Min | ArithOp::Max => {
            let extremum = if op == ArithOp::Min {
                Extremum::minimum(z, vec![x, y])
            } else {
                Extremum::maximum(z, vec![x, y])
            };
            p.post(extremum.map_err(|e| p.invalid(e.to_string()))?)
        }
    }
}

/// The FlatZinc definitions, written out again rather than taken from the engine's constraints, so
/// that the check does not share their code.
pub fn arith_holds(v: &[Val<'_>], op: ArithOp) -> bool {
    let (Some(x), Some(y), Some(z)) = (v[0].int(), v[1].int(), v[2].int()) else {
        return false;
    };
    let (x, y, z) = (i128::from(x), i128::from(y), i128::from(z));
    match op {
        ArithOp::Times => x * y == z,
        // Truncating division: the quotient rounds towards zero, the remainder takes x's sign.
        ArithOp::Div => {
            let remainder = x - z * y;
            y != 0
                && remainder.abs() < y.abs()
                && (remainder == 0 || remainder.signum() == x.signum())
        }
        ArithOp::Mod => {
            y != 0 && z.abs() < y.abs() && (z == 0 || z.signum() == x.signum()) && (x - z) % y == 0
        }
        ArithOp::Min => z == x.min(y),
        ArithOp::Max => z == x.max(y),
        // x^y; for y < 0, 1 div x^|y|: 1 for x = 1, ±1 for x = −1 by the parity of y, 0 for
        // |x| ≥ 2, and no value for x = 0. (MiniZinc 2.6.4's evaluator of constants gives 0 for
        // x = −1 as well; the catalogue's `Arithmetic` follows the arithmetic, and so does this.)
        ArithOp::Pow => match x {
            0 if y < 0 => false,
            0 => z == i128::from(y == 0),
            1 => z == 1,
            -1 => z == if y % 2 == 0 { 1 } else { -1 },
            _ if y < 0 => z == 0,
            _ => {
                // |x| ≥ 2 overflows 64 bits within 64 factors, and z cannot then match.
                let mut power: i128 = 1;
                for _ in 0..y {
                    power = match power.checked_mul(x) {
                        Some(p) if p.abs() <= i128::from(i64::MAX) => p,
                        _ => return false,
                    };
                }
                power == z
            }
        },
    }
}

/// `int_abs(x, z)`: `z = |x|`, an `Arithmetic`.
pub fn int_abs(p: &mut Poster<'_>, args: &[Arg]) -> Result<(), Error> {
    let (x, z) = (p.elem(&args[0])?, p.elem(&args[1])?);
    let (x, z) = (p.var(x)?, p.var(z)?);
    p.post(Arithmetic::abs(x, z))
}

pub fn int_abs_holds(v: &[Val<'_>]) -> bool {
    match (v[0].int(), v[1].int()) {
        (Some(x), Some(z)) => i128::from(x).abs() == i128::from(z),
        _ => false,
    }
}

/// `array_int_maximum(m, xs)` (`op` = [`ArithOp::Max`]) or `array_int_minimum`: one `Extremum` over the array;
/// an empty array has no maximum, so nothing satisfies it.
pub fn extremum(p: &mut Poster<'_>, args: &[Arg], op: ArithOp) -> Result<(), Error> {
    let m = p.elem(&args[0])?;
    let items = p.elems(&args[1])?.to_vec();
    if items.is_empty() {
        return p.post_false();
    }
    let m = p.var(m)?;
    let xs = p.vars(&items)?;
    let extremum = if op == ArithOp::Max {
        Extremum::maximum(m, xs)
    } else {
        Extremum::minimum(m, xs)
    };
    p.post(extremum.map_err(|e| p.invalid(e.to_string()))?)
}

pub fn extremum_holds(v: &[Val<'_>], op: ArithOp) -> bool {
    match (v[0].int(), v[1].array()) {
        (Some(m), Some(items)) => {
            let best = if op == ArithOp::Max {
                items.iter().max()
            } else {
                items.iter().min()
            };
            best == Some(&m)
        }
        _ => false,
    }
}
