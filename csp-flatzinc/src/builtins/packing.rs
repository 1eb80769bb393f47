//! Packing globals: `fzn_diffn` and `fzn_diffn_nonstrict` (rectangles that may not overlap), and
//! `fzn_bin_packing`, `csp_bin_packing_capa` and `csp_bin_packing_load` (items into bins), which the
//! solver library declares native.

use csp_core::constraints::{BinPacking, Diffn};

use super::{Arg, Poster, Val};
use crate::error::Error;

/// `fzn_diffn(x, y, dx, dy)` (`STRICT`) and `fzn_diffn_nonstrict`: a `Diffn`.
pub fn diffn<const STRICT: bool>(p: &mut Poster<'_>, args: &[Arg]) -> Result<(), Error> {
    let arrays: Vec<_> = args[..4]
        .iter()
        .map(|arg| p.elems(arg).map(<[_]>::to_vec))
        .collect::<Result<_, _>>()?;
    if arrays.iter().any(|a| a.len() != arrays[0].len()) {
        return Err(p.invalid("diffn's arrays differ in length"));
    }
    if arrays[0].len() < 2 {
        return Ok(());
    }
    let mut vars = Vec::with_capacity(4);
    for array in &arrays {
        vars.push(p.vars(array)?);
    }
    let [x, y, dx, dy]: [Vec<_>; 4] = vars.try_into().expect("four arrays");
    let rectangles = Diffn::new(x, y, dx, dy, STRICT).map_err(|e| p.invalid(e.to_string()))?;
    p.post(rectangles)
}

/// MiniZinc's `fzn_diffn`: no two rectangles overlap (`x[i] + dx[i] ≤ x[j]`, or one of the three
/// other separations); `fzn_diffn_nonstrict` exempts a pair with a zero size.
pub fn diffn_holds<const STRICT: bool>(v: &[Val<'_>]) -> bool {
    let (Some(x), Some(y), Some(dx), Some(dy)) =
        (v[0].array(), v[1].array(), v[2].array(), v[3].array())
    else {
        return false;
    };
    let n = x.len();
    if y.len() != n || dx.len() != n || dy.len() != n {
        return false;
    }
    let apart = |i: usize, j: usize| {
        let (x, y, dx, dy) = (
            |k: usize| i128::from(x[k]),
            |k: usize| i128::from(y[k]),
            |k: usize| i128::from(dx[k]),
            |k: usize| i128::from(dy[k]),
        );
        (!STRICT && [dx(i), dx(j), dy(i), dy(j)].contains(&0))
            || x(i) + dx(i) <= x(j)
            || y(i) + dy(i) <= y(j)
            || x(j) + dx(j) <= x(i)
            || y(j) + dy(j) <= y(i)
    };
    (0..n).all(|i| (i + 1..n).all(|j| apart(i, j)))
}

/// The most bins `fzn_bin_packing` lists (between the items' least and largest declared bin).
const MAX_BINS: i64 = 1 << 20;

/// The items' bins, weights (32-bit checked by their sum staying within 64 bits), and whether a
/// weight is negative (which MiniZinc's assertion rules out; the model then has no solution).
fn items(
    p: &mut Poster<'_>,
    bins: &Arg,
    weights: &Arg,
) -> Result<(Vec<csp_core::VarId>, Vec<i64>), Error> {
    let bins = p.elems(bins)?.to_vec();
    let weights = p.ints(weights)?;
    if weights.len() != bins.len() {
        return Err(p.invalid("bin packing's bins and weights differ in length"));
    }
    if weights
        .iter()
        .try_fold(0i64, |sum, &w| sum.checked_add(w.abs()))
        .is_none()
    {
        return Err(p.invalid("bin packing's weights add up beyond 64 bits"));
    }
    Ok((p.vars(&bins)?, weights))
}

/// `fzn_bin_packing(c, bin, w)`: every bin holds at most `c`; a `BinPacking` with capacity `c` for
/// each bin between the items' least and largest declared bin (no item can go elsewhere).
pub fn bin_packing(p: &mut Poster<'_>, args: &[Arg]) -> Result<(), Error> {
    let capacity = p.int(&args[0])?;
    let elems = p.elems(&args[1])?.to_vec();
    let (bins, weights) = items(p, &args[1], &args[2])?;
    if bins.is_empty() {
        return Ok(());
    }
    if weights.iter().any(|&w| w < 0) {
        return p.post_false();
    }
    let (lo, hi) = elems.iter().fold((i64::MAX, i64::MIN), |(lo, hi), &e| {
        let (a, b) = p.bounds_of(e);
        (lo.min(a), hi.max(b))
    });
    if hi - lo >= MAX_BINS {
        return Err(p.invalid(format!("bin packing over more than {MAX_BINS} bins")));
    }
    let first = p.int32(lo)?;
    let capacities = vec![capacity; (hi - lo + 1) as usize];
    let packing = BinPacking::with_capacities(capacities, first, bins, weights)
        .map_err(|e| p.invalid(e.to_string()))?;
    p.post(packing)
}

/// MiniZinc's `fzn_bin_packing`: the items put into each bin weigh at most `c` together.
pub fn bin_packing_holds(v: &[Val<'_>]) -> bool {
    let (Some(c), Some(bin), Some(w)) = (v[0].int(), v[1].array(), v[2].array()) else {
        return false;
    };
    if w.len() != bin.len() || w.iter().any(|&x| x < 0) {
        return false;
    }
    bin.iter().all(|&b| {
        let load: i128 = (0..bin.len())
            .filter(|&i| bin[i] == b)
            .map(|i| i128::from(w[i]))
            .sum();
        load <= i128::from(c)
    })
}

/// `csp_bin_packing_capa(c, first, bin, w)`: bin `first + k` holds at most `c[k]`, and every item
/// goes into one of them; a `BinPacking`.
pub fn bin_packing_capa(p: &mut Poster<'_>, args: &[Arg]) -> Result<(), Error> {
    let capacities = p.ints(&args[0])?;
    let first = p.int(&args[1])?;
    let first = p.int32(first)?;
    let (bins, weights) = items(p, &args[2], &args[3])?;
    if weights.iter().any(|&w| w < 0) {
        return p.post_false();
    }
    if bins.is_empty() {
        return Ok(());
    }
    let packing = BinPacking::with_capacities(capacities, first, bins, weights)
        .map_err(|e| p.invalid(e.to_string()))?;
    p.post(packing)
}

/// The bin `value` names among `m` bins numbered from `first`.
fn bin_index(value: i64, first: i64, m: usize) -> Option<usize> {
    value
        .checked_sub(first)
        .and_then(|k| usize::try_from(k).ok())
        .filter(|&k| k < m)
}

/// MiniZinc's `fzn_bin_packing_capa`: every item's bin is one of `c`'s, and the items in bin `b`
/// weigh at most `c[b]` together.
pub fn bin_packing_capa_holds(v: &[Val<'_>]) -> bool {
    let (Some(c), Some(first), Some(bin), Some(w)) =
        (v[0].array(), v[1].int(), v[2].array(), v[3].array())
    else {
        return false;
    };
    if w.len() != bin.len() || w.iter().any(|&x| x < 0) {
        return false;
    }
    let mut loads = vec![0i128; c.len()];
    for (&b, &weight) in bin.iter().zip(w) {
        match bin_index(b, first, c.len()) {
            Some(k) => loads[k] += i128::from(weight),
            None => return false,
        }
    }
    loads
        .iter()
        .zip(c)
        .all(|(&load, &cap)| load <= i128::from(cap))
}

/// `csp_bin_packing_load(load, first, bin, w)`: bin `first + k` holds items weighing `load[k]`
/// together, and every item goes into one of them; a `BinPacking`.
pub fn bin_packing_load(p: &mut Poster<'_>, args: &[Arg]) -> Result<(), Error> {
    let loads = p.elems(&args[0])?.to_vec();
    let first = p.int(&args[1])?;
    let first = p.int32(first)?;
    let (bins, weights) = items(p, &args[2], &args[3])?;
    if weights.iter().any(|&w| w < 0) {
        return p.post_false();
    }
    let loads = p.vars(&loads)?;
    let packing = BinPacking::with_loads(loads, first, bins, weights)
        .map_err(|e| p.invalid(e.to_string()))?;
    p.post(packing)
}

/// MiniZinc's `fzn_bin_packing_load`: the loads add up to the total weight, every item's bin is
/// one of `load`'s, and `load[b]` is the weight of the items in bin `b`.
pub fn bin_packing_load_holds(v: &[Val<'_>]) -> bool {
    let (Some(load), Some(first), Some(bin), Some(w)) =
        (v[0].array(), v[1].int(), v[2].array(), v[3].array())
    else {
        return false;
    };
    if w.len() != bin.len() || w.iter().any(|&x| x < 0) {
        return false;
    }
    let mut sums = vec![0i128; load.len()];
    for (&b, &weight) in bin.iter().zip(w) {
        match bin_index(b, first, load.len()) {
            Some(k) => sums[k] += i128::from(weight),
            None => return false,
        }
    }
    let total: i128 = w.iter().map(|&x| i128::from(x)).sum();
    load.iter().map(|&l| i128::from(l)).sum::<i128>() == total
        && sums.iter().zip(load).all(|(&sum, &l)| sum == i128::from(l))
}
