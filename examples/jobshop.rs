//! Job-shop scheduling: each job is a chain of tasks, each task needs one machine for a fixed time,
//! a machine runs one task at a time; minimise the time the last task ends (the makespan).
//!
//! The instance is Fisher and Thompson's 6×6 (ft06, also mt06, 1963), whose optimal makespan is 55
//! (OR-Library `jobshop1.txt`). The model follows the MiniZinc benchmark's
//! (`shared/instances/minizinc-bench/jobshop/jobshop.mzn`) as MiniZinc flattens it: each pair of tasks
//! on one machine gets two Booleans, each reifying one order (`b₁ ↔ sₐ + dₐ ≤ s_b`,
//! `b₂ ↔ s_b + d_b ≤ sₐ`), and a clause `b₁ ∨ b₂`. Search is free search (dom/wdeg with restarts),
//! by branch and bound on the makespan.
//!
//! ```sh
//! cargo run --release --example jobshop
//! ```

use std::time::Instant;

use csp::core::constraints::{Linear, Reified, Relation};
use csp::core::{Model, ModelBuilder, ModelError, VarId};
use csp::search::{Outcome, SearchConfig, SearchResult, solve};

/// ft06: for each job, its tasks in order as (machine, duration).
const FT06: [[(usize, i32); 6]; 6] = [
    [(2, 1), (0, 3), (1, 6), (3, 7), (5, 3), (4, 6)],
    [(1, 8), (2, 5), (4, 10), (5, 10), (0, 10), (3, 4)],
    [(2, 5), (3, 4), (5, 8), (0, 9), (1, 1), (4, 7)],
    [(1, 5), (0, 5), (2, 5), (3, 3), (4, 8), (5, 9)],
    [(2, 9), (1, 3), (4, 5), (5, 4), (0, 3), (3, 1)],
    [(1, 3), (3, 3), (5, 9), (0, 10), (4, 4), (2, 1)],
];

/// The optimal makespan of ft06.
const FT06_OPTIMUM: i32 = 55;

/// The model of `jobs` (each a list of (machine, duration)): the start of every task, by job and task,
/// and the makespan it minimises.
fn jobshop(jobs: &[&[(usize, i32)]]) -> Result<(Model, Vec<Vec<VarId>>, VarId), ModelError> {
    let horizon: i32 = jobs.iter().flat_map(|job| job.iter().map(|t| t.1)).sum();
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
                    builder.post(Reified::equivalent(a_first, before(a, duration_a, b))?)?;
                    builder.post(Reified::equivalent(b_first, before(b, duration_b, a))?)?;
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

/// Checks a schedule by its definition, independently of the model: each job's tasks in order, no two
/// tasks overlapping on a machine, and the makespan the end of the last task.
fn is_schedule(jobs: &[&[(usize, i32)]], starts: &[Vec<i32>], makespan: i32) -> bool {
    let mut tasks: Vec<(usize, i32, i32)> = Vec::new();
    for (job, job_starts) in jobs.iter().zip(starts) {
        for (k, (&(machine, duration), &start)) in job.iter().zip(job_starts).enumerate() {
            if start < 0 || (k > 0 && job_starts[k - 1] + job[k - 1].1 > start) {
                return false;
            }
            tasks.push((machine, start, start + duration));
        }
    }
    let ends_by = tasks.iter().map(|t| t.2).max().unwrap_or(0) == makespan;
    let no_overlap = tasks.iter().enumerate().all(|(i, a)| {
        tasks[i + 1..]
            .iter()
            .all(|b| a.0 != b.0 || a.2 <= b.1 || b.2 <= a.1)
    });
    ends_by && no_overlap
}

/// Solves ft06 to optimality; returns the result with the starts by job and task.
fn solve_ft06() -> Result<(SearchResult, Vec<Vec<i32>>), ModelError> {
    let jobs: Vec<&[(usize, i32)]> = FT06.iter().map(|job| &job[..]).collect();
    let (model, starts, _) = jobshop(&jobs)?;
    let result = solve(&model, &SearchConfig::free(), ());
    let schedule = match &result.solution {
        Some(values) => starts
            .iter()
            .map(|job| job.iter().map(|v| values[v.index()]).collect())
            .collect(),
        None => Vec::new(),
    };
    Ok((result, schedule))
}

fn main() -> Result<(), ModelError> {
    let started = Instant::now();
    let (result, schedule) = solve_ft06()?;
    let elapsed = started.elapsed();
    let jobs: Vec<&[(usize, i32)]> = FT06.iter().map(|job| &job[..]).collect();
    let Some(makespan) = result.objective else {
        println!("no schedule found ({:?})", result.outcome);
        return Ok(());
    };
    assert!(
        is_schedule(&jobs, &schedule, makespan),
        "checked by definition"
    );
    for (j, job) in schedule.iter().enumerate() {
        println!("job {j}: starts {job:?}");
    }
    println!(
        "makespan {makespan} ({}; known optimum {FT06_OPTIMUM}): {} nodes, {} failures, {} restarts, \
         {:.3} s",
        if result.outcome == Outcome::Optimal {
            "optimal"
        } else {
            "not proven"
        },
        result.stats.nodes,
        result.stats.dead_ends,
        result.stats.restarts,
        elapsed.as_secs_f64()
    );
    Ok(())
}

#[test]
fn ft06_is_proven_optimal_at_55() {
    let (result, schedule) = solve_ft06().unwrap();
    assert_eq!(result.outcome, Outcome::Optimal);
    assert_eq!(result.objective, Some(FT06_OPTIMUM));
    let jobs: Vec<&[(usize, i32)]> = FT06.iter().map(|job| &job[..]).collect();
    assert!(is_schedule(&jobs, &schedule, FT06_OPTIMUM));
}
