//! Job-shop scheduling: Fisher and Thompson's 6×6 instance (ft06, 1963), whose optimal makespan is 55
//! (OR-Library `jobshop1.txt`). The model (`csp::problems::jobshop`) is the MiniZinc benchmark's as
//! MiniZinc flattens it: two reified orders and a clause for each pair of tasks on one machine. Search
//! is free search (dom/wdeg with restarts), by branch and bound on the makespan.
//!
//! ```sh
//! cargo run --release --example jobshop
//! ```

use std::time::Instant;

use csp::core::ModelError;
use csp::problems::jobshop::{self, FT06_OPTIMUM};
use csp::search::{Outcome, SearchConfig, SearchResult, solve};

/// Solves ft06 to optimality; returns the result with the starts by job and task.
fn solve_ft06() -> Result<(SearchResult, Vec<Vec<i32>>), ModelError> {
    let (model, starts, _) = jobshop::model(&jobshop::ft06())?;
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
    let Some(makespan) = result.objective else {
        println!("no schedule found ({:?})", result.outcome);
        return Ok(());
    };
    assert!(
        jobshop::is_schedule(&jobshop::ft06(), &schedule, makespan),
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
    assert!(jobshop::is_schedule(
        &jobshop::ft06(),
        &schedule,
        FT06_OPTIMUM
    ));
}
