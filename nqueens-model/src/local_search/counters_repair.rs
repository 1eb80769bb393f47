//! Minton et al.'s min-conflicts through the generic engine: `csp-local` on the counters model.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use csp_local::{LocalConfig, min_conflicts as repair};

use super::{Limits, LocalError, LocalMethod, LocalOutcome, RunReport, trivial_outcome};
use crate::local_search_model;

/// Min-conflicts repair from `csp-local` on the [`crate::Encoding::Counters`] model of an `n`-queens
/// board ([`local_search_model`]): a greedy start, then steps that move a random conflicted queen to
/// the column of her row with the fewest attackers. Nothing here is queens-specific beyond building
/// the model; the counters make each evaluation O(1).
///
/// A try restarts from a new greedy start after `20·n + 1000` steps, because plain min-conflicts can
/// cycle on small boards with few solutions (6-queens has four).
///
/// A step (for [`Limits::max_steps`]) is one repair step; `Some(0)` ends the run before the model is
/// built. The time limit counts from the call, the model's construction included, and the greedy
/// start looks at the clock as it goes. Stats, in order: `steps`, `moves` (steps that
/// changed a column), `restarts`, `initial_conflicts` (twice the attacking pairs the first start left),
/// `random_walks` (always 0 here: no noise).
///
/// Memory: [`crate::LOCAL_SEARCH_BYTES_PER_ROW`] bytes a queen ([`LocalMethod::required_bytes`]).
pub fn min_conflicts(
    n: usize,
    seed: u64,
    limits: &Limits,
    stop: &AtomicBool,
) -> Result<RunReport, LocalError> {
    LocalMethod::MinConflicts.check(n, 1)?;
    let stats = |steps, moves, restarts, initial, walks| {
        vec![
            ("steps", steps),
            ("moves", moves),
            ("restarts", restarts),
            ("initial_conflicts", initial),
            ("random_walks", walks),
        ]
    };
    if let Some(outcome) = trivial_outcome(n) {
        return Ok(RunReport {
            outcome,
            seed,
            stats: stats(0, 0, 0, 0, 0),
        });
    }
    // The limits count from here, the model's construction included: at n = 4·10⁶ building it
    // takes seconds, and a 1 s limit must not wait for it and then for the greedy start.
    let started = Instant::now();
    let halted = |outcome| {
        Ok(RunReport {
            outcome,
            seed,
            stats: stats(0, 0, 0, 0, 0),
        })
    };
    if limits.max_steps == Some(0) || stop.load(Ordering::Relaxed) {
        let outcome = if limits.max_steps == Some(0) {
            LocalOutcome::LimitReached
        } else {
            LocalOutcome::Stopped
        };
        return halted(outcome);
    }
    // `check` applied the same budget `local_search_model` does, so this cannot fail for size.
    let model = local_search_model(n).map_err(|error| LocalError::Model(error.to_string()))?;
    let remaining = limits
        .time_limit
        .map(|limit| limit.saturating_sub(started.elapsed()));
    if remaining == Some(Duration::ZERO) {
        return halted(LocalOutcome::LimitReached);
    }
    let mut config = LocalConfig::default()
        .with_seed(seed)
        .with_restart_after(20 * n as u64 + 1000);
    config.max_steps = limits.max_steps;
    config.time_limit = remaining;
    let result = repair(&model, &config, Some(stop))
        .map_err(|error| LocalError::Model(error.to_string()))?;
    let outcome = match result.outcome {
        csp_local::LocalOutcome::Solved => {
            // The domains are 0..n, so every value is a column.
            LocalOutcome::Solved(result.assignment.iter().map(|&c| c as u32).collect())
        }
        csp_local::LocalOutcome::Stopped => LocalOutcome::Stopped,
        _ => LocalOutcome::LimitReached,
    };
    let s = &result.stats;
    Ok(RunReport {
        outcome,
        seed,
        stats: stats(
            s.steps,
            s.moves,
            s.restarts,
            s.initial_conflicts,
            s.random_walks,
        ),
    })
}
