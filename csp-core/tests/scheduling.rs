//! Scheduling constraints against brute force: `cumulative` and `disjunctive` with constant
//! durations and requirements (zero ones included), held to soundness, checker-completeness and
//! the time-tabling fixpoint (and, for `disjunctive`, bounds(Z) consistency of every pair). See
//! `support/mod.rs` for the rest.

mod support;

use csp_core::constraints::{Cumulative, Disjunctive};
use proptest::prelude::*;
use support::{Case, Level, check, config, domain_strategy, var, walk_strategy};

const REGRESSIONS: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/proptest-regressions/scheduling.txt"
);

/// The load at time `t` of tasks starting at `starts`, from the definition.
fn load(t: i64, starts: &[i64], durations: &[i64], heights: &[i64]) -> i64 {
    (0..starts.len())
        .filter(|&i| starts[i] <= t && t < starts[i] + durations[i])
        .map(|i| heights[i])
        .sum()
}

/// Time-tabling's fixpoint, restated over every time point: the compulsory parts fit, and each task
/// fits at its earliest and at its latest start beside the others' compulsory parts.
fn time_table_holds(
    domains: &[Vec<i32>],
    durations: &[i64],
    heights: &[i64],
    capacity: i64,
) -> Result<(), String> {
    let n = durations.len();
    let est = |i: usize| i64::from(domains[i][0]);
    let lst = |i: usize| i64::from(domains[i][domains[i].len() - 1]);
    let compulsory = |i: usize, t: i64| {
        if durations[i] > 0 && lst(i) <= t && t < est(i) + durations[i] {
            heights[i]
        } else {
            0
        }
    };
    let horizon = (0..n).map(|i| lst(i) + durations[i]).max().unwrap_or(0);
    let from = (0..n).map(est).min().unwrap_or(0);
    let profile = |t: i64| (0..n).map(|i| compulsory(i, t)).sum::<i64>();
    for t in from..horizon {
        if profile(t) > capacity {
            return Err(format!("the compulsory parts exceed the capacity at {t}"));
        }
    }
    for i in (0..n).filter(|&i| durations[i] > 0 && heights[i] > 0) {
        for s in [est(i), lst(i)] {
            for t in s..s + durations[i] {
                if profile(t) - compulsory(i, t) + heights[i] > capacity {
                    return Err(format!("task {i} does not fit at {s} (time {t})"));
                }
            }
        }
    }
    Ok(())
}

fn task_strategy(max_tasks: usize) -> impl Strategy<Value = (Vec<Vec<i32>>, Vec<i64>, Vec<i64>)> {
    (1..=max_tasks).prop_flat_map(|n| {
        (
            prop::collection::vec(domain_strategy(0, 7, 5), n),
            prop::collection::vec(0i64..=3, n),
            prop::collection::vec(0i64..=3, n),
        )
    })
}

proptest! {
    #![proptest_config(config(REGRESSIONS, 512))]

    /// Cumulative reaches the time-tabling fixpoint soundly.
    #[test]
    fn cumulative_reaches_the_time_table_fixpoint(
        (domains, durations, heights) in task_strategy(4),
        capacity in 0i64..=4,
        walk in walk_strategy(),
    ) {
        let n = domains.len();
        let oracle = |t: &[i32]| {
            let starts: Vec<i64> = t.iter().map(|&s| i64::from(s)).collect();
            starts.iter().all(|&s| load(s, &starts, &durations, &heights) <= capacity)
        };
        let property = |d: &[Vec<i32>]| time_table_holds(d, &durations, &heights, capacity);
        let to_i32 = |v: &[i64]| v.iter().map(|&x| x as i32).collect::<Vec<_>>();
        check(
            &Case {
                domains,
                build: &|| Box::new(Cumulative::new((0..n).map(var).collect(), to_i32(&durations), to_i32(&heights), capacity as i32).unwrap()),
                oracle: &oracle,
                level: Level::Sound,
                property: Some(&property),
            },
            &walk,
        )?;
    }

    /// Disjunctive reaches the time-tabling fixpoint with unit requirements, and every pair of tasks
    /// of positive duration is bounds(Z) consistent.
    #[test]
    fn disjunctive_is_pairwise_bounds_consistent(
        (domains, durations, _) in task_strategy(4),
        walk in walk_strategy(),
    ) {
        let n = domains.len();
        let ones = vec![1i64; n];
        let oracle = |t: &[i32]| {
            (0..n).all(|i| (i + 1..n).all(|j| {
                let (si, sj) = (i64::from(t[i]), i64::from(t[j]));
                durations[i] == 0 || durations[j] == 0 || si + durations[i] <= sj || sj + durations[j] <= si
            }))
        };
        let property = |d: &[Vec<i32>]| -> Result<(), String> {
            time_table_holds(d, &durations, &ones, 1)?;
            for i in (0..n).filter(|&i| durations[i] > 0) {
                for j in (0..n).filter(|&j| j != i && durations[j] > 0) {
                    let (di, dj) = (i64::from(durations[i] as i32), durations[j]);
                    let (lo_j, hi_j) = (i64::from(d[j][0]), i64::from(d[j][d[j].len() - 1]));
                    for b in [d[i][0], d[i][d[i].len() - 1]] {
                        let b = i64::from(b);
                        let supported = (lo_j..=hi_j).any(|s| b + di <= s || s + dj <= b);
                        if !supported {
                            return Err(format!("bound {b} of task {i} has no support beside task {j}"));
                        }
                    }
                }
            }
            Ok(())
        };
        let to_i32 = |v: &[i64]| v.iter().map(|&x| x as i32).collect::<Vec<_>>();
        check(
            &Case {
                domains,
                build: &|| Box::new(Disjunctive::new((0..n).map(var).collect(), to_i32(&durations)).unwrap()),
                oracle: &oracle,
                level: Level::Sound,
                property: Some(&property),
            },
            &walk,
        )?;
    }
}

#[test]
fn cumulative_refuses_negative_data_and_mismatched_arrays() {
    assert!(Cumulative::new(vec![var(0)], vec![-1], vec![1], 1).is_err());
    assert!(Cumulative::new(vec![var(0)], vec![1], vec![-1], 1).is_err());
    assert!(Cumulative::new(vec![var(0)], vec![1, 2], vec![1], 1).is_err());
    assert!(Disjunctive::new(vec![var(0)], vec![]).is_err());
}

proptest! {
    #![proptest_config(config(REGRESSIONS, 128))]

    /// On six tasks with wider windows, where detectable precedences, edge-finding and overload
    /// checking find what time-tabling does not, every change and failure is still explained (the
    /// catalogue checks each explanation), on a unary resource and on a cumulative one whose
    /// tall tasks run one at a time.
    #[test]
    fn six_tasks_explain_edge_finding(
        domains in prop::collection::vec(domain_strategy(0, 9, 4), 6),
        durations in prop::collection::vec(1i64..=3, 6),
        heights in prop::collection::vec(1i64..=3, 6),
        unary in any::<bool>(),
        walk in walk_strategy(),
    ) {
        let n = domains.len();
        let (heights, capacity) = if unary { (vec![1; n], 1) } else { (heights, 3) };
        let oracle = |t: &[i32]| {
            let starts: Vec<i64> = t.iter().map(|&s| i64::from(s)).collect();
            starts.iter().all(|&s| load(s, &starts, &durations, &heights) <= capacity)
        };
        let to_i32 = |v: &[i64]| v.iter().map(|&x| x as i32).collect::<Vec<_>>();
        let build = || -> Box<dyn csp_core::Post> {
            if unary {
                Box::new(Disjunctive::new((0..n).map(var).collect(), to_i32(&durations)).unwrap())
            } else {
                Box::new(Cumulative::new((0..n).map(var).collect(), to_i32(&durations), to_i32(&heights), capacity as i32).unwrap())
            }
        };
        check(
            &Case {
                domains,
                build: &build,
                oracle: &oracle,
                level: Level::Sound,
                property: None,
            },
            &walk,
        )?;
    }
}
