//! Job-shop scheduling: each job is a chain of tasks, each task needs one machine for a fixed time, a
//! machine runs one task at a time; minimise the time the last task ends (the makespan).
//!
//! The model follows the MiniZinc benchmark's (`shared/instances/minizinc-bench/jobshop/jobshop.mzn`)
//! as MiniZinc flattens it: each pair of tasks on one machine gets two Booleans, each reifying one
//! order (`b₁ ↔ sₐ + dₐ ≤ s_b`, `b₂ ↔ s_b + d_b ≤ sₐ`), and a clause `b₁ ∨ b₂`.

use csp_core::constraints::{Linear, Reified, Relation};
use csp_core::{Model, ModelBuilder, ModelError, VarId};

/// A task: the machine it needs and for how long.
pub type Task = (usize, i32);

/// Fisher and Thompson's 6×6 instance (ft06, also mt06, 1963): for each job, its tasks in order.
pub const FT06: [[Task; 6]; 6] = [
    [(2, 1), (0, 3), (1, 6), (3, 7), (5, 3), (4, 6)],
    [(1, 8), (2, 5), (4, 10), (5, 10), (0, 10), (3, 4)],
    [(2, 5), (3, 4), (5, 8), (0, 9), (1, 1), (4, 7)],
    [(1, 5), (0, 5), (2, 5), (3, 3), (4, 8), (5, 9)],
    [(2, 9), (1, 3), (4, 5), (5, 4), (0, 3), (3, 1)],
    [(1, 3), (3, 3), (5, 9), (0, 10), (4, 4), (2, 1)],
];

/// ft06's optimal makespan, as OR-Library's `jobshop1.txt` publishes it: a value to test against.
pub const FT06_OPTIMUM: i32 = 55;

/// ft06 as a list of jobs.
pub fn ft06() -> Vec<Vec<Task>> {
    FT06.iter().map(|job| job.to_vec()).collect()
}

/// The model of `jobs`: the start of every task, by job and task, and the makespan it minimises.
pub fn model(jobs: &[Vec<Task>]) -> Result<(Model, Vec<Vec<VarId>>, VarId), ModelError> {
    if jobs.iter().flatten().any(|&(_, duration)| duration < 0) {
        return Err(ModelError::InvalidConstraint {
            constraint: "job shop".to_owned(),
            reason: "a task has a negative duration".to_owned(),
        });
    }
    let horizon = jobs
        .iter()
        .flatten()
        .try_fold(0i32, |sum, task| sum.checked_add(task.1))
        .ok_or_else(|| ModelError::InvalidConstraint {
            constraint: "job shop".to_owned(),
            reason: "the durations add up beyond i32".to_owned(),
        })?;
    let longest_job: i32 = jobs
        .iter()
        .map(|job| job.iter().map(|t| t.1).sum())
        .max()
        .unwrap_or(0);
    let mut builder = ModelBuilder::new();
    let starts: Vec<Vec<VarId>> = jobs
        .iter()
        .enumerate()
        .map(|(j, job)| {
            (0..job.len())
                .map(|k| builder.int_var(format!("s{j}_{k}"), 0..=horizon))
                .collect()
        })
        .collect::<Result<_, _>>()?;
    let makespan = builder.int_var("makespan", longest_job..=horizon)?;
    // start[a] + duration[a] <= start[b], as a linear constraint.
    let before = |a: VarId, duration: i32, b: VarId| {
        Linear::new(vec![(1, a), (-1, b)], Relation::LessOrEqual, -duration)
    };
    for (j, job) in jobs.iter().enumerate() {
        for k in 0..job.len() {
            let next = starts[j].get(k + 1).copied().unwrap_or(makespan);
            builder.post(before(starts[j][k], job[k].1, next))?;
        }
    }
    // Two tasks on one machine do not overlap: one of the two orders holds.
    for (a_job, job_a) in jobs.iter().enumerate() {
        for (b_job, job_b) in jobs.iter().enumerate().skip(a_job + 1) {
            for (a_task, &(machine_a, duration_a)) in job_a.iter().enumerate() {
                for (b_task, &(machine_b, duration_b)) in job_b.iter().enumerate() {
                    if machine_a != machine_b {
                        continue;
                    }
                    let (a, b) = (starts[a_job][a_task], starts[b_job][b_task]);
                    let a_first =
                        builder.bool_var(format!("o{a_job}_{a_task}_{b_job}_{b_task}"))?;
                    let b_first =
                        builder.bool_var(format!("o{b_job}_{b_task}_{a_job}_{a_task}"))?;
                    builder.post(Reified::equivalent(a_first, before(a, duration_a, b)))?;
                    builder.post(Reified::equivalent(b_first, before(b, duration_b, a)))?;
                    // a_first ∨ b_first
                    builder.post(Linear::new(
                        vec![(-1, a_first), (-1, b_first)],
                        Relation::LessOrEqual,
                        -1,
                    ))?;
                }
            }
        }
    }
    builder.minimize(makespan)?;
    Ok((builder.build(), starts, makespan))
}

/// Whether `starts` (by job and task) is a schedule of `jobs` ending at `makespan`, by definition and
/// independently of the model: each job's tasks in order, no two tasks overlapping on a machine, and
/// the makespan the end of the last task.
pub fn is_schedule(jobs: &[Vec<Task>], starts: &[Vec<i32>], makespan: i32) -> bool {
    if starts.len() != jobs.len() || jobs.iter().zip(starts).any(|(j, s)| j.len() != s.len()) {
        return false;
    }
    let mut tasks: Vec<(usize, i64, i64)> = Vec::new();
    for (job, job_starts) in jobs.iter().zip(starts) {
        for (k, (&(machine, duration), &start)) in job.iter().zip(job_starts).enumerate() {
            let previous_end =
                (k > 0).then(|| i64::from(job_starts[k - 1]) + i64::from(job[k - 1].1));
            if start < 0 || previous_end.is_some_and(|end| end > i64::from(start)) {
                return false;
            }
            tasks.push((
                machine,
                i64::from(start),
                i64::from(start) + i64::from(duration),
            ));
        }
    }
    let ends_by = tasks.iter().map(|t| t.2).max().unwrap_or(0) == i64::from(makespan);
    let no_overlap = tasks.iter().enumerate().all(|(i, a)| {
        tasks[i + 1..]
            .iter()
            .all(|b| a.0 != b.0 || a.2 <= b.1 || b.2 <= a.1)
    });
    ends_by && no_overlap
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_checker_refuses_overlaps_and_wrong_orders() {
        let jobs = vec![vec![(0, 3), (1, 2)], vec![(0, 2)]];
        assert!(is_schedule(&jobs, &[vec![0, 3], vec![3]], 5));
        assert!(
            !is_schedule(&jobs, &[vec![0, 3], vec![2]], 5),
            "machine 0 overlaps"
        );
        assert!(
            !is_schedule(&jobs, &[vec![0, 2], vec![3]], 5),
            "job 0 out of order"
        );
        assert!(
            !is_schedule(&jobs, &[vec![0, 3], vec![3]], 6),
            "wrong makespan"
        );
    }
}
