//! Globals over one array that the solver library declares native: `fzn_nvalue`, `fzn_member_*`,
//! `fzn_alldifferent_except(_0)`, `fzn_increasing_*`/`fzn_decreasing_*`, `fzn_value_precede_int`,
//! `csp_maximum_arg`/`csp_minimum_arg` (arg_max and arg_min, given the array's first index) and
//! `csp_subcircuit` (given the first node's number).

use csp_core::constraints::{
    AllDifferentExcept, ArgExtremum, Increasing, Member, NValue, Subcircuit, ValuePrecede,
};

use super::{Arg, Poster, Val};
use crate::Elem;
use crate::ast::ranges_contain;
use crate::error::Error;

/// `fzn_nvalue(n, x)`: an `NValue`.
pub fn nvalue(p: &mut Poster<'_>, args: &[Arg]) -> Result<(), Error> {
    let n = p.elem(&args[0])?;
    let items = p.elems(&args[1])?.to_vec();
    let n = p.var(n)?;
    let xs = p.vars(&items)?;
    p.post(NValue::new(n, xs))
}

/// MiniZinc's `fzn_nvalue`: `n` is the number of distinct values in `x`.
pub fn nvalue_holds(v: &[Val<'_>]) -> bool {
    let (Some(n), Some(x)) = (v[0].int(), v[1].array()) else {
        return false;
    };
    let mut distinct = x.to_vec();
    distinct.sort_unstable();
    distinct.dedup();
    i64::try_from(distinct.len()).is_ok_and(|d| d == n)
}

/// `fzn_member_int(x, y)` and `fzn_member_bool(x, y)`: a `Member`.
pub fn member(p: &mut Poster<'_>, args: &[Arg]) -> Result<(), Error> {
    let items = p.elems(&args[0])?.to_vec();
    let y = p.elem(&args[1])?;
    if items.is_empty() {
        return p.post_false();
    }
    let xs = p.vars(&items)?;
    let y = p.var(y)?;
    p.post(Member::new(xs, y))
}

/// MiniZinc's `fzn_member_int`: some `x[i]` equals `y`.
pub fn member_holds(v: &[Val<'_>]) -> bool {
    match (v[0].array(), v[1].int()) {
        (Some(x), Some(y)) => x.contains(&y),
        _ => false,
    }
}

/// `fzn_alldifferent_except(x, S)` (`ZERO` false) and `fzn_alldifferent_except_0(x)`: an
/// `AllDifferentExcept`, the exceptions cut to 32 bits (no variable takes a value beyond them).
pub fn all_different_except<const ZERO: bool>(
    p: &mut Poster<'_>,
    args: &[Arg],
) -> Result<(), Error> {
    let items = p.elems(&args[0])?.to_vec();
    let except: Vec<(i32, i32)> = if ZERO {
        vec![(0, 0)]
    } else {
        let (lowest, highest) = (i64::from(i32::MIN), i64::from(i32::MAX));
        p.set(&args[1])?
            .iter()
            .filter(|&&(lo, hi)| lo <= hi && lo <= highest && hi >= lowest)
            .map(|&(lo, hi)| (lo.max(lowest) as i32, hi.min(highest) as i32))
            .collect()
    };
    let xs = p.vars(&items)?;
    p.post(AllDifferentExcept::new(xs, except))
}

/// MiniZinc's `fzn_alldifferent_except`: any two `x` differ unless both are in `S` (`{0}` for
/// `fzn_alldifferent_except_0`).
pub fn all_different_except_holds<const ZERO: bool>(v: &[Val<'_>]) -> bool {
    let Some(x) = v[0].array() else {
        return false;
    };
    let exempt = |value: i64| {
        if ZERO {
            value == 0
        } else {
            v[1].set().is_some_and(|s| ranges_contain(s, value))
        }
    };
    let mut taken: Vec<i64> = x.iter().copied().filter(|&value| !exempt(value)).collect();
    let all = taken.len();
    taken.sort_unstable();
    taken.dedup();
    taken.len() == all && (ZERO || v[1].set().is_some())
}

/// `fzn_increasing_int(x)` and `_bool` (`DECREASING` false), and `fzn_decreasing_*`: an
/// `Increasing`.
pub fn increasing<const DECREASING: bool>(p: &mut Poster<'_>, args: &[Arg]) -> Result<(), Error> {
    let items = p.elems(&args[0])?.to_vec();
    if items.len() < 2 {
        return Ok(());
    }
    let xs = p.vars(&items)?;
    p.post(if DECREASING {
        Increasing::decreasing(xs)
    } else {
        Increasing::new(xs)
    })
}

/// MiniZinc's `fzn_increasing_int`: every element is at most the next (at least, decreasing).
pub fn increasing_holds<const DECREASING: bool>(v: &[Val<'_>]) -> bool {
    v[0].array().is_some_and(|x| {
        x.windows(2).all(|w| {
            if DECREASING {
                w[0] >= w[1]
            } else {
                w[0] <= w[1]
            }
        })
    })
}

/// `fzn_value_precede_int(s, t, x)`: a `ValuePrecede`.
pub fn value_precede(p: &mut Poster<'_>, args: &[Arg]) -> Result<(), Error> {
    let s = p.int(&args[0])?;
    let t = p.int(&args[1])?;
    let items = p.elems(&args[2])?.to_vec();
    let xs = p.vars(&items)?;
    // A value beyond 32 bits is taken by no variable: s never occurs, so neither may t; and t
    // never occurs, which needs nothing.
    match (i32::try_from(s), i32::try_from(t)) {
        (_, Err(_)) => Ok(()),
        (Ok(s), Ok(t)) => p.post(ValuePrecede::new(s, t, xs)),
        (Err(_), Ok(t)) => {
            for x in xs {
                p.post(csp_core::constraints::SetIn::new(x, [t]).negated())?;
            }
            Ok(())
        }
    }
}

/// MiniZinc's `fzn_value_precede_int`: every `x[i] = t` has some `x[j] = s` with `j < i`.
pub fn value_precede_holds(v: &[Val<'_>]) -> bool {
    let (Some(s), Some(t), Some(x)) = (v[0].int(), v[1].int(), v[2].array()) else {
        return false;
    };
    x.iter()
        .enumerate()
        .all(|(i, &value)| value != t || x[..i].contains(&s))
}

/// `csp_maximum_arg(x, first, z)` (`MINIMUM` false) and `csp_minimum_arg`: an `ArgExtremum`, the
/// positions of `x` numbered from `first` (MiniZinc's index set; FlatZinc's arrays start at 1).
pub fn arg_extremum<const MINIMUM: bool>(p: &mut Poster<'_>, args: &[Arg]) -> Result<(), Error> {
    let items = p.elems(&args[0])?.to_vec();
    let first = p.int(&args[1])?;
    let first = p.int32(first)?;
    let z = p.elem(&args[2])?;
    if items.is_empty() {
        return p.post_false();
    }
    let xs = p.vars(&items)?;
    let z = p.var(z)?;
    p.post(ArgExtremum::new(xs, z, first, MINIMUM))
}

/// MiniZinc's `fzn_maximum_arg_int` (`fzn_minimum_arg_int`): `z` is the index (from `first`) of the
/// first greatest (least) element of the non-empty `x`.
pub fn arg_extremum_holds<const MINIMUM: bool>(v: &[Val<'_>]) -> bool {
    let (Some(x), Some(first), Some(z)) = (v[0].array(), v[1].int(), v[2].int()) else {
        return false;
    };
    let best = if MINIMUM {
        x.iter().min()
    } else {
        x.iter().max()
    };
    best.and_then(|best| x.iter().position(|value| value == best))
        .is_some_and(|k| i128::from(first) + k as i128 == i128::from(z))
}

/// `csp_subcircuit(x, first)`: a `Subcircuit`, nodes numbered from `first` (MiniZinc's index set).
pub fn subcircuit(p: &mut Poster<'_>, args: &[Arg]) -> Result<(), Error> {
    let items = p.elems(&args[0])?.to_vec();
    let first = p.int(&args[1])?;
    let first = p.int32(first)?;
    if items.is_empty() {
        return Ok(());
    }
    if items.len() == 1 {
        // One node can only be out.
        return p.compare(
            items[0],
            csp_core::constraints::Comparison::Equal,
            Elem::Const(i64::from(first)),
            0,
            super::Reif::Plain,
        );
    }
    let succ = p.vars(&items)?;
    p.post(Subcircuit::new(succ, first))
}

/// MiniZinc's `fzn_subcircuit`: every `x[i]` names a node; they are all different; and the nodes
/// that are not their own successor form one circuit (or none).
pub fn subcircuit_holds(v: &[Val<'_>]) -> bool {
    let (Some(x), Some(first)) = (v[0].array(), v[1].int()) else {
        return false;
    };
    let n = x.len();
    let succ: Option<Vec<usize>> = x
        .iter()
        .map(|&value| {
            value
                .checked_sub(first)
                .and_then(|k| usize::try_from(k).ok())
                .filter(|&k| k < n)
        })
        .collect();
    let Some(succ) = succ else {
        return false;
    };
    let mut sorted = succ.clone();
    sorted.sort_unstable();
    sorted.dedup();
    if sorted.len() != n {
        return false;
    }
    // Follow the circuit from its first node: it must hold every node that is not its own
    // successor.
    let inside = (0..n).filter(|&i| succ[i] != i).count();
    let Some(start) = (0..n).find(|&i| succ[i] != i) else {
        return true;
    };
    let mut length = 1;
    let mut at = succ[start];
    while at != start {
        length += 1;
        at = succ[at];
    }
    length == inside
}
