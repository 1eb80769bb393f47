//! Resource-constrained project scheduling (RCPSP): jobs with durations and precedences, each
//! needing amounts of renewable resources of limited capacity; minimise the time the last job ends.
//!
//! The instance is j301_1 from PSPLIB (Kolisch & Sprecher, *PSPLIB — A project scheduling problem
//! library*, European Journal of Operational Research 96, 1997): 30 jobs between a dummy source and
//! sink, four resources. Its published optimal makespan is 43. The model is one `cumulative` per
//! resource, a linear inequality per precedence, and the makespan after every job, as in
//! `benches/data/rcpsp/rcpsp.mzn` (which runs the same instance on Gecode: `cargo bench --bench
//! cumulative`). Search is by decisions on the starts, smallest start first.
//!
//! ```sh
//! cargo run --release --example rcpsp
//! ```

use std::time::Instant;

use csp::core::constraints::{Cumulative, Linear, Relation};
use csp::core::{Model, ModelBuilder, ModelError, VarId};
use csp::search::{
    IntSearch, Outcome, SearchConfig, SearchResult, ValueSelection, VariableSelection, solve,
};

include!("data/rcpsp_j301_1.rs");

/// Searches j301_1 to optimality; returns the result and the starts of its best schedule.
fn solve_rcpsp() -> Result<(SearchResult, Vec<i32>), ModelError> {
    let (model, starts, _) = rcpsp()?;
    let config = SearchConfig::decisions(vec![IntSearch::new(
        starts.clone(),
        VariableSelection::Smallest,
        ValueSelection::Min,
    )]);
    let result = solve(&model, &config, ());
    let schedule = match &result.solution {
        Some(values) => starts.iter().map(|v| values[v.index()]).collect(),
        None => Vec::new(),
    };
    Ok((result, schedule))
}

fn main() -> Result<(), ModelError> {
    let started = Instant::now();
    let (result, schedule) = solve_rcpsp()?;
    let elapsed = started.elapsed();
    let Some(makespan) = result.objective else {
        println!("no schedule found ({:?})", result.outcome);
        return Ok(());
    };
    assert!(is_schedule(&schedule, makespan), "checked by definition");
    println!("starts: {schedule:?}");
    println!(
        "makespan {makespan} ({}; published optimum {OPTIMUM}): {} nodes, {} failures, {:.3} s",
        if result.outcome == Outcome::Optimal {
            "optimal"
        } else {
            "not proven"
        },
        result.stats.nodes,
        result.stats.dead_ends,
        elapsed.as_secs_f64()
    );
    Ok(())
}

#[test]
fn j301_1_is_proven_optimal_at_its_published_makespan() {
    let (result, schedule) = solve_rcpsp().unwrap();
    assert_eq!(result.outcome, Outcome::Optimal);
    assert_eq!(result.objective, Some(OPTIMUM));
    assert!(is_schedule(&schedule, OPTIMUM));
}
