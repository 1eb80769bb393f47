//! Scheduling globals with constant durations and requirements: `csp_cumulative` and
//! `csp_disjunctive`, which the solver library's `fzn_cumulative`, `fzn_disjunctive` and
//! `fzn_disjunctive_strict` call once the durations (and requirements and capacity) are fixed.

use csp_core::constraints::{Cumulative, Disjunctive};

use super::{Arg, Poster, Val};
use crate::error::Error;

/// `csp_cumulative(s, d, r, b)`: a `Cumulative`. A negative duration or requirement, which MiniZinc
/// forbids, makes it unsatisfiable, and so does a negative capacity once there is a task.
pub fn cumulative(p: &mut Poster<'_>, args: &[Arg]) -> Result<(), Error> {
    let starts = p.elems(&args[0])?.to_vec();
    let durations = p.int32s(&args[1])?;
    let heights = p.int32s(&args[2])?;
    let capacity = p.int(&args[3])?;
    if durations.len() != starts.len() || heights.len() != starts.len() {
        return Err(p.invalid("cumulative's three arrays differ in length"));
    }
    if starts.is_empty() {
        return Ok(());
    }
    if capacity < 0 || durations.iter().chain(&heights).any(|&v| v < 0) {
        return p.post_false();
    }
    let capacity = i32::try_from(capacity).unwrap_or(i32::MAX);
    let starts = p.vars(&starts)?;
    let resource = Cumulative::new(starts, durations, heights, capacity)
        .map_err(|e| p.invalid(e.to_string()))?;
    p.post(resource)
}

/// MiniZinc's `fzn_cumulative` with the durations and requirements non-negative: at the start of
/// every task that takes something (positive duration and requirement), the requirements of the
/// tasks running then (`sᵢ ≤ t < sᵢ + dᵢ`) add up to at most `b`, which is where the load peaks; and
/// `b ≥ 0` unless there are no tasks.
pub fn cumulative_holds(v: &[Val<'_>]) -> bool {
    let (Some(s), Some(d), Some(r), Some(b)) =
        (v[0].array(), v[1].array(), v[2].array(), v[3].int())
    else {
        return false;
    };
    if d.len() != s.len() || r.len() != s.len() || d.iter().chain(r).any(|&x| x < 0) {
        return false;
    }
    if s.is_empty() {
        return true;
    }
    let active: Vec<usize> = (0..s.len()).filter(|&i| d[i] > 0 && r[i] > 0).collect();
    b >= 0
        && active.iter().all(|&j| {
            let t = i128::from(s[j]);
            let load: i128 = active
                .iter()
                .filter(|&&i| i128::from(s[i]) <= t && t < i128::from(s[i]) + i128::from(d[i]))
                .map(|&i| i128::from(r[i]))
                .sum();
            load <= i128::from(b)
        })
}

/// `csp_disjunctive(s, d)`: a `Disjunctive`; a negative duration makes it unsatisfiable.
pub fn disjunctive(p: &mut Poster<'_>, args: &[Arg]) -> Result<(), Error> {
    let starts = p.elems(&args[0])?.to_vec();
    let durations = p.int32s(&args[1])?;
    if durations.len() != starts.len() {
        return Err(p.invalid("disjunctive's two arrays differ in length"));
    }
    if durations.iter().any(|&v| v < 0) {
        return p.post_false();
    }
    if starts.is_empty() {
        return Ok(());
    }
    let starts = p.vars(&starts)?;
    let unary = Disjunctive::new(starts, durations).map_err(|e| p.invalid(e.to_string()))?;
    p.post(unary)
}

/// MiniZinc's `fzn_disjunctive`: every duration non-negative, and every two tasks of positive
/// duration one after the other.
pub fn disjunctive_holds(v: &[Val<'_>]) -> bool {
    let (Some(s), Some(d)) = (v[0].array(), v[1].array()) else {
        return false;
    };
    if d.len() != s.len() || d.iter().any(|&x| x < 0) {
        return false;
    }
    let end = |i: usize| i128::from(s[i]) + i128::from(d[i]);
    (0..s.len()).all(|i| {
        (i + 1..s.len()).all(|j| {
            d[i] == 0 || d[j] == 0 || end(i) <= i128::from(s[j]) || end(j) <= i128::from(s[i])
        })
    })
}
