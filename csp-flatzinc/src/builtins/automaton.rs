//! Regular languages: `fzn_regular` and `fzn_cost_regular`, which the solver library declares
//! native (a deterministic finite automaton reads the sequence).

use csp_core::constraints::{Automaton, CostRegular, Regular};

use super::{Arg, Poster, Val};
use crate::ast::ranges_contain;
use crate::error::Error;

/// The most transitions (`Q · S`) an automaton may have.
const MAX_TRANSITIONS: i64 = 1 << 24;

/// The automaton of arguments `Q, S, d, q0, F`: MiniZinc asserts the states and symbols positive,
/// `d`'s entries in `0..=Q` and `q0`, `F` within `1..=Q`.
fn automaton(p: &mut Poster<'_>, args: &[Arg]) -> Result<Automaton, Error> {
    let states = p.int(&args[0])?;
    let symbols = p.int(&args[1])?;
    if states < 1 || symbols < 1 || states.saturating_mul(symbols) > MAX_TRANSITIONS {
        return Err(p.invalid(format!(
            "an automaton of {states} states and {symbols} symbols (at most {MAX_TRANSITIONS} transitions)"
        )));
    }
    let transitions = p.int32s(&args[2])?;
    let start = p.int(&args[3])?;
    let start = p.int32(start)?;
    let accepting: Vec<i32> = p
        .set(&args[4])?
        .iter()
        .flat_map(|&(lo, hi)| lo.max(1)..=hi.min(states))
        .map(|q| q as i32)
        .collect();
    if p.set(&args[4])?
        .iter()
        .any(|&(lo, hi)| lo <= hi && (lo < 1 || hi > states))
    {
        return Err(p.invalid("an accepting state is outside 1..Q"));
    }
    Automaton::new(
        states as usize,
        symbols as usize,
        transitions,
        start,
        accepting,
    )
    .map_err(|e| p.invalid(e.to_string()))
}

/// `fzn_regular(x, Q, S, d, q0, F)`: a `Regular`.
pub fn regular(p: &mut Poster<'_>, args: &[Arg]) -> Result<(), Error> {
    let items = p.elems(&args[0])?.to_vec();
    let automaton = automaton(p, &args[1..6])?;
    let xs = p.vars(&items)?;
    p.post(Regular::new(xs, automaton))
}

/// The state after reading `x` from `q0` with transition table `d` (`S` symbols a row), and the
/// transitions taken; `None` when a value is outside `1..=S` or the failing state 0 is reached.
fn run(x: &[i64], symbols: i64, d: &[i64], q0: i64) -> Option<(i64, Vec<usize>)> {
    let mut state = q0;
    let mut taken = Vec::with_capacity(x.len());
    for &value in x {
        if !(1..=symbols).contains(&value) || state < 1 {
            return None;
        }
        let k = usize::try_from((state - 1) * symbols + value - 1).ok()?;
        taken.push(k);
        state = *d.get(k)?;
        if state == 0 {
            return None;
        }
    }
    Some((state, taken))
}

/// MiniZinc's `fzn_regular`: every `x[i]` in `1..S`, and the states from `q0` through `d` never
/// reach 0 and end in `F`.
pub fn regular_holds(v: &[Val<'_>]) -> bool {
    let (Some(x), Some(symbols), Some(d), Some(q0), Some(f)) = (
        v[0].array(),
        v[2].int(),
        v[3].array(),
        v[4].int(),
        v[5].set(),
    ) else {
        return false;
    };
    run(x, symbols, d, q0).is_some_and(|(state, _)| ranges_contain(f, state))
}

/// `fzn_cost_regular(x, Q, S, d, q0, F, c, C)`: a `CostRegular`.
pub fn cost_regular(p: &mut Poster<'_>, args: &[Arg]) -> Result<(), Error> {
    let items = p.elems(&args[0])?.to_vec();
    let automaton = automaton(p, &args[1..6])?;
    let costs = p.ints(&args[6])?;
    let total = p.elem(&args[7])?;
    let xs = p.vars(&items)?;
    let total = p.var(total)?;
    let constraint =
        CostRegular::new(xs, automaton, costs, total).map_err(|e| p.invalid(e.to_string()))?;
    p.post(constraint)
}

/// MiniZinc's `fzn_cost_regular`: `x` is accepted as by `fzn_regular`, and `C` is the sum of the
/// costs `c[q, v]` of the transitions taken.
pub fn cost_regular_holds(v: &[Val<'_>]) -> bool {
    let (Some(x), Some(symbols), Some(d), Some(q0), Some(f), Some(c), Some(total)) = (
        v[0].array(),
        v[2].int(),
        v[3].array(),
        v[4].int(),
        v[5].set(),
        v[6].array(),
        v[7].int(),
    ) else {
        return false;
    };
    run(x, symbols, d, q0).is_some_and(|(state, taken)| {
        ranges_contain(f, state)
            && taken
                .iter()
                .map(|&k| c.get(k).map(|&cost| i128::from(cost)))
                .sum::<Option<i128>>()
                == Some(i128::from(total))
    })
}
