//! Global constraints and sets: all-different, table, membership of a constant set, circuit,
//! inverse, among and global cardinality, lexicographic order.

use csp_core::constraints::{
    AllDifferent, Among, Circuit, Comparison, GlobalCardinality, Inverse, LexLess, Relation, SetIn,
};

use super::{Arg, Poster, Reif, Suffix, Val, reif_of, tied};
use crate::Elem;
use crate::ast::ranges_contain;
use crate::error::Error;

/// `fzn_all_different_int(xs)`: `AllDifferent`, constants as fixed variables; the same variable or
/// constant twice makes it unsatisfiable.
pub fn all_different(p: &mut Poster<'_>, args: &[Arg]) -> Result<(), Error> {
    let items = p.elems(&args[0])?.to_vec();
    let vars = p.vars(&items)?;
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
        return Err(p.invalid(format!(
            "a table of {} values is not made of rows of {}",
            tuples.len(),
            items.len()
        )));
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
pub fn set_in(p: &mut Poster<'_>, args: &[Arg], suffix: Suffix) -> Result<(), Error> {
    let x = p.elem(&args[0])?;
    let set = p.set(&args[1])?.clone();
    let reif = reif_of(suffix, p, args)?;
    match x {
        Elem::Const(value) => p.post_truth(ranges_contain(&set, value), reif),
        Elem::Var(var) => p.reified(reif, Box::new(super::set_in_constraint(var, &set))),
    }
}

pub fn set_in_holds(v: &[Val<'_>], suffix: Suffix) -> bool {
    match (v[0].int(), v[1].set()) {
        (Some(x), Some(set)) => {
            let holds = set.iter().any(|&(lo, hi)| lo <= x && x <= hi);
            tied(suffix, holds, v.get(2).and_then(Val::int))
        }
        _ => false,
    }
}

/// `csp_circuit(x, first)`: the successors `x` form one circuit, node `i` (counted from `first`, the
/// first index of MiniZinc's array) being followed by node `x[i]`; a `Circuit`.
pub fn circuit(p: &mut Poster<'_>, args: &[Arg]) -> Result<(), Error> {
    let items = p.elems(&args[0])?.to_vec();
    let first = p.int(&args[1])?;
    let first = p.int32(first)?;
    if items.is_empty() {
        return Ok(());
    }
    let succ = p.vars(&items)?;
    p.post(Circuit::new(succ, first))
}

/// MiniZinc's `fzn_circuit`: every successor names a node other than its own, and following them
/// from the first node visits every node once before coming back.
pub fn circuit_holds(v: &[Val<'_>]) -> bool {
    let (Some(x), Some(first)) = (v[0].array(), v[1].int()) else {
        return false;
    };
    let n = x.len();
    let node = |value: i64| {
        value
            .checked_sub(first)
            .and_then(|k| usize::try_from(k).ok())
            .filter(|&k| k < n)
    };
    let mut visited = vec![false; n];
    let mut at = 0;
    for _ in 0..n {
        match node(x[at]) {
            Some(next) if next != at && !visited[next] => {
                visited[next] = true;
                at = next;
            }
            _ => return false,
        }
    }
    at == 0 && visited.iter().all(|&seen| seen)
}

/// `csp_inverse(f, f_first, invf, invf_first)`: `f[i] = j ⟺ invf[j] = i`, each array indexed from its
/// own first index; an `Inverse`.
pub fn inverse(p: &mut Poster<'_>, args: &[Arg]) -> Result<(), Error> {
    let f = p.elems(&args[0])?.to_vec();
    let f_first = p.int(&args[1])?;
    let g = p.elems(&args[2])?.to_vec();
    let g_first = p.int(&args[3])?;
    let (f_first, g_first) = (p.int32(f_first)?, p.int32(g_first)?);
    let (f, g) = (p.vars(&f)?, p.vars(&g)?);
    p.post(Inverse::new(f, f_first, g, g_first))
}

/// MiniZinc's `fzn_inverse`: every `f[i]` is an index of `invf` with `invf[f[i]] = i`, and every
/// `invf[j]` an index of `f` with `f[invf[j]] = j`.
pub fn inverse_holds(v: &[Val<'_>]) -> bool {
    let (Some(f), Some(f_first), Some(g), Some(g_first)) =
        (v[0].array(), v[1].int(), v[2].array(), v[3].int())
    else {
        return false;
    };
    let channel = |from: &[i64], from_first: i64, to: &[i64], to_first: i64| {
        from.iter().enumerate().all(|(k, &value)| {
            value
                .checked_sub(to_first)
                .and_then(|j| usize::try_from(j).ok())
                .and_then(|j| to.get(j))
                .is_some_and(|&back| i128::from(back) == i128::from(from_first) + k as i128)
        })
    };
    channel(f, f_first, g, g_first) && channel(g, g_first, f, f_first)
}

/// The most values of a set `fzn_among` lists (those within the variables' declared bounds).
const MAX_AMONG_VALUES: i64 = 1 << 24;

/// `fzn_among(n, x, v)`: `n` of the `x` take a value of `v`; an `Among` over the values of `v` the
/// variables can take.
pub fn among(p: &mut Poster<'_>, args: &[Arg]) -> Result<(), Error> {
    let n = p.elem(&args[0])?;
    let items = p.elems(&args[1])?.to_vec();
    let set = p.set(&args[2])?.clone();
    if items.is_empty() {
        return p.compare(n, Comparison::Equal, Elem::Const(0), 0, Reif::Plain);
    }
    let (lo, hi) = items.iter().fold((i64::MAX, i64::MIN), |(lo, hi), &x| {
        let (a, b) = p.bounds_of(x);
        (lo.min(a), hi.max(b))
    });
    let mut values = Vec::new();
    for &(a, b) in &set {
        let (a, b) = (a.max(lo), b.min(hi));
        if a > b {
            continue;
        }
        if b - a >= MAX_AMONG_VALUES - values.len() as i64 {
            return Err(p.invalid(format!("among over more than {MAX_AMONG_VALUES} values")));
        }
        // Within the variables' bounds, which are 32-bit.
        values.extend((a..=b).map(|value| value as i32));
    }
    let xs = p.vars(&items)?;
    let n = p.var(n)?;
    p.post(Among::new(xs, values, n))
}

/// MiniZinc's `fzn_among`: `n` is the number of `x` in `v`.
pub fn among_holds(v: &[Val<'_>]) -> bool {
    match (v[0].int(), v[1].array(), v[2].set()) {
        (Some(n), Some(x), Some(set)) => {
            let inside = x
                .iter()
                .filter(|&&value| ranges_contain(set, value))
                .count();
            i64::try_from(inside).is_ok_and(|inside| inside == n)
        }
        _ => false,
    }
}

/// `fzn_global_cardinality(x, cover, counts)` (`CLOSED` false) and `fzn_global_cardinality_closed`:
/// a `GlobalCardinality`. A cover naming a value twice, which it refuses, is one `Among` per entry,
/// the counts' sum at most `|x|` as MiniZinc's definition says, and for the closed form every `x` in
/// the cover.
pub fn global_cardinality<const CLOSED: bool>(
    p: &mut Poster<'_>,
    args: &[Arg],
) -> Result<(), Error> {
    let items = p.elems(&args[0])?.to_vec();
    let cover = p.int32s(&args[1])?;
    let counts = p.elems(&args[2])?.to_vec();
    if cover.len() != counts.len() {
        return Err(p.invalid(format!(
            "{} cover values for {} counts",
            cover.len(),
            counts.len()
        )));
    }
    let xs = p.vars(&items)?;
    let count_vars = p.vars(&counts)?;
    let mut sorted = cover.clone();
    sorted.sort_unstable();
    if sorted.windows(2).all(|w| w[0] != w[1]) {
        let gcc = GlobalCardinality::new(xs, cover, count_vars, CLOSED)
            .map_err(|e| p.invalid(e.to_string()))?;
        return p.post(gcc);
    }
    for (&value, &count) in cover.iter().zip(&count_vars) {
        p.post(Among::count(xs.clone(), value, count))?;
    }
    let terms: Vec<(i64, Elem)> = counts.iter().map(|&c| (1, c)).collect();
    p.linear(&terms, Relation::LessOrEqual, xs.len() as i64, Reif::Plain)?;
    if CLOSED {
        for &x in &xs {
            p.post(SetIn::new(x, cover.iter().copied()))?;
        }
    }
    Ok(())
}

/// MiniZinc's `fzn_global_cardinality`: `counts[i]` of the `x` take `cover[i]`, and the counts add
/// up to at most `|x|`; closed, every `x` takes a value of the cover.
pub fn global_cardinality_holds<const CLOSED: bool>(v: &[Val<'_>]) -> bool {
    let (Some(x), Some(cover), Some(counts)) = (v[0].array(), v[1].array(), v[2].array()) else {
        return false;
    };
    let counted = cover.len() == counts.len()
        && cover.iter().zip(counts).all(|(&value, &count)| {
            i64::try_from(x.iter().filter(|&&xi| xi == value).count()).is_ok_and(|c| c == count)
        });
    let total: i128 = counts.iter().map(|&c| i128::from(c)).sum();
    counted && total <= x.len() as i128 && (!CLOSED || x.iter().all(|xi| cover.contains(xi)))
}

/// `fzn_lex_less_int(x, y)` (`STRICT`) and `fzn_lex_lesseq_int`, and their Boolean twins: a
/// `LexLess`.
pub fn lex<const STRICT: bool>(p: &mut Poster<'_>, args: &[Arg]) -> Result<(), Error> {
    let x = p.elems(&args[0])?.to_vec();
    let y = p.elems(&args[1])?.to_vec();
    let (x, y) = (p.vars(&x)?, p.vars(&y)?);
    p.post(if STRICT {
        LexLess::less(x, y)
    } else {
        LexLess::less_or_equal(x, y)
    })
}

/// MiniZinc's definition: at the first position where the arrays differ `x` is smaller; with no such
/// position within the shorter length, `x` is no longer than `y` (strictly shorter for `<`).
pub fn lex_holds<const STRICT: bool>(v: &[Val<'_>]) -> bool {
    let (Some(x), Some(y)) = (v[0].array(), v[1].array()) else {
        return false;
    };
    match x.iter().zip(y).find(|(a, b)| a != b) {
        Some((a, b)) => a < b,
        None if STRICT => x.len() < y.len(),
        None => x.len() <= y.len(),
    }
}
