//! Scheduling globals with constant durations and requirements: `csp_cumulative` and
//! `csp_disjunctive`, which the solver library's `fzn_cumulative`, `fzn_disjunctive` and
//! `fzn_disjunctive_strict` call once the durations (and requirements and capacity) are fixed; and
//! their general forms, with variable data or optional tasks (`csp_cumulative_var`,
//! `csp_cumulative_opt`, `csp_disjunctive_var`, `csp_disjunctive_strict_var`, `csp_disjunctive_opt`,
//! `csp_disjunctive_strict_opt`), which it calls otherwise.

use csp_core::constraints::{Cumulative, Disjunctive, Task, VarCumulative, VarDisjunctive};

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

/// The tasks of a scheduling builtin with variable data: starts, durations and, for optional tasks,
/// presences (all as variables, constants fixed). Fails on arrays of different lengths.
fn tasks(
    p: &mut Poster<'_>,
    starts: &Arg,
    durations: &Arg,
    presences: Option<&Arg>,
) -> Result<Vec<Task>, Error> {
    let starts = p.elems(starts)?.to_vec();
    let durations = p.elems(durations)?.to_vec();
    let presences = match presences {
        Some(arg) => Some(p.elems(arg)?.to_vec()),
        None => None,
    };
    if durations.len() != starts.len()
        || presences.as_ref().is_some_and(|o| o.len() != starts.len())
    {
        return Err(p.invalid("a scheduling constraint's arrays differ in length"));
    }
    let (starts, durations) = (p.vars(&starts)?, p.vars(&durations)?);
    let presences = match presences {
        Some(o) => Some(p.vars(&o)?),
        None => None,
    };
    Ok((0..starts.len())
        .map(|i| match &presences {
            Some(o) => Task::optional(starts[i], durations[i], o[i]),
            None => Task::new(starts[i], durations[i]),
        })
        .collect())
}

/// `csp_cumulative_var(s, d, r, b)` and, with `OPTIONAL`, `csp_cumulative_opt(s, o, d, r, b)` (task
/// `i` runs when `o[i]`): a `VarCumulative`, which the solver library posts for `cumulative` when
/// its data are not all fixed, and for `cumulative` over optional starts.
pub fn cumulative_var<const OPTIONAL: bool>(p: &mut Poster<'_>, args: &[Arg]) -> Result<(), Error> {
    let (presences, rest) = if OPTIONAL {
        (Some(&args[1]), &args[2..])
    } else {
        (None, &args[1..])
    };
    let tasks = tasks(p, &args[0], &rest[0], presences)?;
    let heights = p.elems(&rest[1])?.to_vec();
    if heights.len() != tasks.len() {
        return Err(p.invalid("cumulative's arrays differ in length"));
    }
    if tasks.is_empty() {
        return Ok(());
    }
    let heights = p.vars(&heights)?;
    let capacity = p.elem(&rest[2])?;
    let capacity = p.var(capacity)?;
    let resource =
        VarCumulative::new(tasks, heights, capacity).map_err(|e| p.invalid(e.to_string()))?;
    p.post(resource)
}

/// Whether task `i` runs: its presence (if any) is 1.
fn runs(presences: Option<&[i64]>, i: usize) -> bool {
    presences.is_none_or(|o| o[i] == 1)
}

/// MiniZinc's `fzn_cumulative` (and `fzn_cumulative_opt` over the tasks whose start occurs), with
/// durations and requirements not negative: with a task, `b ≥ 0`; and at the start of every
/// running task that takes something, the requirements of the running tasks there add up to at most
/// `b` (the load peaks at some such start).
pub fn cumulative_var_holds<const OPTIONAL: bool>(v: &[Val<'_>]) -> bool {
    let (presences, rest) = if OPTIONAL {
        (v[1].array(), &v[2..])
    } else {
        (None, &v[1..])
    };
    let (Some(s), Some(d), Some(r), Some(b)) = (
        v[0].array(),
        rest[0].array(),
        rest[1].array(),
        rest[2].int(),
    ) else {
        return false;
    };
    if OPTIONAL
        && presences.is_none_or(|o| o.len() != s.len() || o.iter().any(|&x| x != 0 && x != 1))
    {
        return false;
    }
    if d.len() != s.len() || r.len() != s.len() || d.iter().chain(r).any(|&x| x < 0) {
        return false;
    }
    if s.is_empty() {
        return true;
    }
    let active: Vec<usize> = (0..s.len())
        .filter(|&i| runs(presences, i) && d[i] > 0 && r[i] > 0)
        .collect();
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

/// `csp_disjunctive_var(s, d)` (`STRICT` false) and `csp_disjunctive_strict_var(s, d)`, and with
/// `OPTIONAL` their forms `csp_disjunctive_opt(s, o, d)` and `csp_disjunctive_strict_opt(s, o, d)`:
/// a `VarDisjunctive`, which the solver library posts when the durations are not all fixed (or the
/// strict form has a zero duration), and over optional starts.
pub fn disjunctive_var<const STRICT: bool, const OPTIONAL: bool>(
    p: &mut Poster<'_>,
    args: &[Arg],
) -> Result<(), Error> {
    let tasks = if OPTIONAL {
        tasks(p, &args[0], &args[2], Some(&args[1]))?
    } else {
        tasks(p, &args[0], &args[1], None)?
    };
    if tasks.is_empty() {
        return Ok(());
    }
    let unary = VarDisjunctive::new(tasks, STRICT).map_err(|e| p.invalid(e.to_string()))?;
    p.post(unary)
}

/// MiniZinc's `fzn_disjunctive` and `fzn_disjunctive_strict` (and their `_opt` forms over the tasks
/// whose start occurs): every duration non-negative, and every two running tasks one after the
/// other; the plain form exempts a task of zero duration.
pub fn disjunctive_var_holds<const STRICT: bool, const OPTIONAL: bool>(v: &[Val<'_>]) -> bool {
    let (s, presences, d) = if OPTIONAL {
        (v[0].array(), v[1].array(), v[2].array())
    } else {
        (v[0].array(), None, v[1].array())
    };
    let (Some(s), Some(d)) = (s, d) else {
        return false;
    };
    if OPTIONAL
        && presences.is_none_or(|o| o.len() != s.len() || o.iter().any(|&x| x != 0 && x != 1))
    {
        return false;
    }
    if d.len() != s.len() || d.iter().any(|&x| x < 0) {
        return false;
    }
    let end = |i: usize| i128::from(s[i]) + i128::from(d[i]);
    let running: Vec<usize> = (0..s.len()).filter(|&i| runs(presences, i)).collect();
    running.iter().enumerate().all(|(k, &i)| {
        running[k + 1..].iter().all(|&j| {
            (!STRICT && (d[i] == 0 || d[j] == 0))
                || end(i) <= i128::from(s[j])
                || end(j) <= i128::from(s[i])
        })
    })
}
