//! Scheduling with variable durations, requirements and capacity, and optional tasks, against brute
//! force: `VarCumulative` and `VarDisjunctive` (plain and strict) are held to soundness,
//! checker-completeness and the time-tabling fixpoint over the least durations and requirements;
//! edge-finding is pinned on instances where time-tabling alone moves nothing. See `support/mod.rs`
//! for the rest.

mod support;

use csp_core::constraints::{Task, VarCumulative, VarDisjunctive};
use csp_core::{ModelBuilder, Store, VarId};
use proptest::prelude::*;
use support::{Case, Level, check, config, domain_strategy, var, walk_strategy};

const REGRESSIONS: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/proptest-regressions/var_scheduling.txt"
);

/// Where a task's variables are in a case: start, duration, requirement (cumulative only) and
/// presence (optional tasks only).
#[derive(Debug, Clone, Copy)]
struct Layout {
    start: usize,
    duration: usize,
    height: Option<usize>,
    presence: Option<usize>,
}

/// Lays out `n` tasks, each with a requirement when `heights`, and a presence when its flag in
/// `optional` is set; returns the layouts and the number of variables used.
fn layout(n: usize, heights: bool, optional: &[bool]) -> (Vec<Layout>, usize) {
    let mut next = 0;
    let mut take = || {
        next += 1;
        next - 1
    };
    let tasks = (0..n)
        .map(|i| Layout {
            start: take(),
            duration: take(),
            height: heights.then(&mut take),
            presence: optional[i].then(&mut take),
        })
        .collect();
    (tasks, next)
}

fn tasks_of(layout: &[Layout]) -> Vec<Task> {
    layout
        .iter()
        .map(|t| match t.presence {
            Some(p) => Task::optional(var(t.start), var(t.duration), var(p)),
            None => Task::new(var(t.start), var(t.duration)),
        })
        .collect()
}

/// A task's values in an assignment: start, duration, requirement (1 without), present.
fn task_values(t: &Layout, values: &[i32]) -> (i64, i64, i64, Option<bool>) {
    let present = match t.presence {
        None => Some(true),
        Some(p) => match values[p] {
            0 => Some(false),
            1 => Some(true),
            _ => None,
        },
    };
    (
        i64::from(values[t.start]),
        i64::from(values[t.duration]),
        t.height.map_or(1, |h| i64::from(values[h])),
        present,
    )
}

/// MiniZinc's `cumulative` over the time points: durations and requirements not negative,
/// presences 0 or 1, a capacity not negative when there is a task, and at every time the running
/// tasks fit.
fn cumulative_oracle(tasks: &[Layout], capacity: usize, values: &[i32]) -> bool {
    let all: Vec<_> = tasks.iter().map(|t| task_values(t, values)).collect();
    if all
        .iter()
        .any(|&(_, d, r, present)| d < 0 || r < 0 || present.is_none())
    {
        return false;
    }
    let b = i64::from(values[capacity]);
    if !tasks.is_empty() && b < 0 {
        return false;
    }
    (0..10).all(|t| {
        all.iter()
            .filter(|&&(s, d, _, present)| present == Some(true) && s <= t && t < s + d)
            .map(|&(_, _, r, _)| r)
            .sum::<i64>()
            <= b
    })
}

/// MiniZinc's `disjunctive` (zero-duration tasks anywhere) or `disjunctive_strict`, over pairs.
fn disjunctive_oracle(tasks: &[Layout], strict: bool, values: &[i32]) -> bool {
    let all: Vec<_> = tasks.iter().map(|t| task_values(t, values)).collect();
    if all
        .iter()
        .any(|&(_, d, _, present)| d < 0 || present.is_none())
    {
        return false;
    }
    let running: Vec<(i64, i64)> = all
        .iter()
        .filter(|t| t.3 == Some(true))
        .map(|&(s, d, _, _)| (s, d))
        .collect();
    running.iter().enumerate().all(|(k, &(si, di))| {
        running[k + 1..]
            .iter()
            .all(|&(sj, dj)| (!strict && (di == 0 || dj == 0)) || si + di <= sj || sj + dj <= si)
    })
}

/// Time-tabling's fixpoint, restated over time points: the compulsory parts of the tasks that surely
/// run (over least durations and requirements) fit within the largest capacity, and each such task
/// fits at its earliest and at its latest start beside the others' compulsory parts.
fn time_table_holds(
    domains: &[Vec<i32>],
    tasks: &[Layout],
    capacity: Option<usize>,
) -> Result<(), String> {
    let lo = |k: usize| i64::from(domains[k][0]);
    let hi = |k: usize| i64::from(domains[k][domains[k].len() - 1]);
    let cap = capacity.map_or(1, hi);
    let sure: Vec<(i64, i64, i64, i64)> = tasks
        .iter()
        .filter(|t| t.presence.is_none_or(|p| lo(p) == 1))
        .map(|t| {
            let height = t.height.map_or(1, lo);
            (lo(t.start), hi(t.start), lo(t.duration), height)
        })
        .filter(|&(_, _, d, r)| d > 0 && r > 0)
        .collect();
    let compulsory = |k: usize, t: i64| {
        let (est, lst, d, r) = sure[k];
        if lst <= t && t < est + d { r } else { 0 }
    };
    let profile = |t: i64| (0..sure.len()).map(|k| compulsory(k, t)).sum::<i64>();
    for t in -2..12 {
        if profile(t) > cap {
            return Err(format!("the compulsory parts exceed the capacity at {t}"));
        }
    }
    for (k, &(est, lst, d, r)) in sure.iter().enumerate() {
        for s in [est, lst] {
            for t in s..s + d {
                if profile(t) - compulsory(k, t) + r > cap {
                    return Err(format!("task {k} does not fit at {s} (time {t})"));
                }
            }
        }
    }
    Ok(())
}

/// Tasks with small windows and data: start, duration, requirement, optional or not.
fn cumulative_strategy() -> impl Strategy<Value = (Vec<Vec<i32>>, Vec<Layout>, usize)> {
    (1usize..=3, prop::collection::vec(any::<bool>(), 3)).prop_flat_map(|(n, optional)| {
        let optional: Vec<bool> = optional[..n].to_vec();
        let (tasks, vars) = layout(n, true, &optional);
        let mut domains: Vec<BoxedStrategy<Vec<i32>>> = Vec::with_capacity(vars + 1);
        for t in &tasks {
            domains.push(domain_strategy(0, 5, 3));
            domains.push(domain_strategy(-1, 3, 2));
            domains.push(domain_strategy(0, 2, 2));
            if t.presence.is_some() {
                domains.push(domain_strategy(0, 1, 2));
            }
        }
        domains.push(domain_strategy(-1, 3, 2));
        (domains, Just(tasks), Just(vars))
    })
}

fn disjunctive_strategy() -> impl Strategy<Value = (Vec<Vec<i32>>, Vec<Layout>)> {
    (1usize..=4, prop::collection::vec(any::<bool>(), 4)).prop_flat_map(|(n, optional)| {
        let optional: Vec<bool> = optional[..n].iter().map(|&o| o && n < 4).collect();
        let (tasks, _) = layout(n, false, &optional);
        let mut domains: Vec<BoxedStrategy<Vec<i32>>> = Vec::new();
        for t in &tasks {
            domains.push(domain_strategy(0, 6, 3));
            domains.push(domain_strategy(-1, 3, 2));
            if t.presence.is_some() {
                domains.push(domain_strategy(0, 1, 2));
            }
        }
        (domains, Just(tasks))
    })
}

proptest! {
    #![proptest_config(config(REGRESSIONS, 2048))]

    /// Cumulative with variable durations, requirements and capacity, some tasks optional, reaches
    /// the time-tabling fixpoint soundly and accepts exactly the schedules within capacity.
    #[test]
    fn var_cumulative_reaches_the_time_table_fixpoint(
        (domains, tasks, capacity) in cumulative_strategy(),
        walk in walk_strategy(),
    ) {
        let oracle = |t: &[i32]| cumulative_oracle(&tasks, capacity, t);
        let property = |d: &[Vec<i32>]| time_table_holds(d, &tasks, Some(capacity));
        let heights: Vec<VarId> = tasks.iter().map(|t| var(t.height.unwrap())).collect();
        check(
            &Case {
                domains,
                build: &|| Box::new(VarCumulative::new(tasks_of(&tasks), heights.clone(), var(capacity)).unwrap()),
                oracle: &oracle,
                level: Level::Sound,
                property: Some(&property),
            },
            &walk,
        )?;
    }

    /// Disjunctive, plain and strict, with variable durations and optional tasks: sound,
    /// checker-complete, at the time-tabling fixpoint.
    #[test]
    fn var_disjunctive_reaches_the_time_table_fixpoint(
        (domains, tasks) in disjunctive_strategy(),
        strict in any::<bool>(),
        walk in walk_strategy(),
    ) {
        let oracle = |t: &[i32]| disjunctive_oracle(&tasks, strict, t);
        let property = |d: &[Vec<i32>]| time_table_holds(d, &tasks, None);
        check(
            &Case {
                domains,
                build: &|| Box::new(VarDisjunctive::new(tasks_of(&tasks), strict).unwrap()),
                oracle: &oracle,
                level: Level::Sound,
                property: Some(&property),
            },
            &walk,
        )?;
    }

    /// A variable may play several parts (a start that is also another task's duration, one
    /// variable for two starts): still sound and checker-complete.
    #[test]
    fn var_cumulative_with_shared_variables_is_sound(
        domains in prop::collection::vec(domain_strategy(0, 3, 3), 4),
        picks in prop::collection::vec(0usize..4, 7),
        walk in walk_strategy(),
    ) {
        let v = |k: usize| picks[k];
        let tasks = vec![
            Layout { start: v(0), duration: v(1), height: Some(v(2)), presence: None },
            Layout { start: v(3), duration: v(4), height: Some(v(5)), presence: None },
        ];
        let capacity = v(6);
        let oracle = |t: &[i32]| cumulative_oracle(&tasks, capacity, t);
        let heights: Vec<VarId> = tasks.iter().map(|t| var(t.height.unwrap())).collect();
        check(
            &Case {
                domains,
                build: &|| Box::new(VarCumulative::new(tasks_of(&tasks), heights.clone(), var(capacity)).unwrap()),
                oracle: &oracle,
                level: Level::Sound,
                property: None,
            },
            &walk,
        )?;
    }
}

/// A model of tasks with the given start windows and fixed durations on a unary resource, and the
/// least start of each after propagation.
fn unary_starts(windows: &[(i32, i32, i32)], strict: bool) -> Option<Vec<i32>> {
    let mut model = ModelBuilder::new();
    let mut tasks = Vec::new();
    for (i, &(lo, hi, d)) in windows.iter().enumerate() {
        let s = model.int_var(format!("s{i}"), lo..=hi).unwrap();
        let d = model.int_var(format!("d{i}"), d..=d).unwrap();
        tasks.push(Task::new(s, d));
    }
    model
        .post(VarDisjunctive::new(tasks, strict).unwrap())
        .unwrap();
    let model = model.build();
    let mut store = Store::new(&model);
    store.establish_arc_consistency(&model).ok()?;
    Some(
        (0..windows.len())
            .map(|i| store.domain(var(2 * i)).lb())
            .collect(),
    )
}

#[test]
fn edge_finding_pushes_a_task_past_a_set_that_must_precede_it() {
    // A and B must both run in [0, 10) (8 units); C, 3 long, cannot end by 10 beside them, so it
    // goes after both, from 8. No compulsory part exists, so time-tabling alone moves nothing, and
    // every pair alone could go either way.
    assert_eq!(
        unary_starts(&[(0, 6, 4), (0, 6, 4), (0, 17, 3)], false),
        Some(vec![0, 0, 8])
    );
}

#[test]
fn overload_checking_fails_three_tasks_in_too_small_a_window() {
    // 4 + 4 + 3 = 11 units of work in [0, 10).
    assert_eq!(unary_starts(&[(0, 6, 4), (0, 6, 4), (0, 7, 3)], true), None);
}

#[test]
fn cumulative_edge_finding_pushes_past_an_energy_overload() {
    // Capacity 2. A and B (2 long, requirement 2 each) fill [0, 4) completely; C (requirement 1,
    // 2 long, window [0, 10)) cannot run before 4. No compulsory part exists.
    let mut model = ModelBuilder::new();
    let mut tasks = Vec::new();
    let mut heights = Vec::new();
    for (i, &(hi, d, r)) in [(2, 2, 2), (2, 2, 2), (8, 2, 1)].iter().enumerate() {
        let s = model.int_var(format!("s{i}"), 0..=hi).unwrap();
        let d = model.int_var(format!("d{i}"), d..=d).unwrap();
        heights.push(model.int_var(format!("r{i}"), r..=r).unwrap());
        tasks.push(Task::new(s, d));
    }
    let capacity = model.int_var("b", 2..=2).unwrap();
    model
        .post(VarCumulative::new(tasks, heights, capacity).unwrap())
        .unwrap();
    let model = model.build();
    let mut store = Store::new(&model);
    assert!(store.establish_arc_consistency(&model).is_ok());
    assert_eq!(store.domain(var(6)).lb(), 4);
}

#[test]
fn constructors_refuse_mismatched_arrays() {
    let task = Task::new(var(0), var(1));
    assert!(VarCumulative::new(vec![task], vec![], var(2)).is_err());
    assert!(VarCumulative::new(vec![task], vec![var(2)], var(3)).is_ok());
}
