//! Knuth's random-probe estimator of a backtrack tree (Knuth 1975, "Estimating the efficiency of
//! backtrack programs", as Stone & Stone describe it in `../shared/seeds/003_f841a52dc4215f9c.txt` §4).

use csp_core::{Model, Store};
use rand::RngExt;

use crate::order::{BuiltinVariableOrder, SelectCtx, VariableOrder};
use crate::{Propagation, Rng, SearchConfig, rng_for};

/// The random stream the probes' child choices draw from (see [`rng_for`]).
const PROBE_STREAM: u64 = 3;

/// The result of [`knuth_probes`]: the mean of the probes' estimates and its standard error.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ProbeEstimate {
    /// How many probes were made.
    pub probes: u64,
    /// The estimated number of nodes of the full tree, root included.
    pub tree_size: f64,
    /// The standard error of `tree_size` (the probes' standard deviation over √probes).
    pub tree_size_std_error: f64,
    /// The estimated number of solutions.
    pub solutions: f64,
    /// The standard error of `solutions`.
    pub solutions_std_error: f64,
}

/// Estimates the size of the tree a search with `config`'s variable ordering and propagation would
/// explore, and its number of solutions, from `probes` random root-to-leaf paths (Knuth 1975).
///
/// A probe starts at the root with weight 1. At each node it counts the choices `c` exactly as the
/// search would (under check-past, the values consistent with the assignment; under forward
/// checking and MAC, the domain), multiplies the weight by `c`, adds the weight to its tree-size estimate, and
/// goes down to one of the `c` children chosen uniformly at random. It stops at a node with no
/// choices, at a child whose propagation fails (a node of the tree, already counted), or at a solution,
/// which adds the weight to its solution estimate. Each probe's estimate is unbiased; their mean
/// converges to the true size.
///
/// The value ordering does not matter (every child is equally likely); `config.seed` drives both the
/// ordering's own randomness and the probes' choices, so the same seed gives the same estimate.
pub fn knuth_probes(model: &Model, config: &SearchConfig, probes: u64) -> ProbeEstimate {
    let mut store = Store::new(model);
    let mut order = BuiltinVariableOrder::from_config(config);
    // Under MAC the search's root is the arc-consistent one; if that fails, the tree is the root alone.
    if config.propagation == Propagation::Mac
        && let Err(constraint) = store.establish_arc_consistency(model)
    {
        let ctx = SelectCtx::new(model, &store, config.propagation);
        order.on_wipeout(constraint, &ctx);
        return ProbeEstimate {
            probes,
            tree_size: 1.0,
            tree_size_std_error: 0.0,
            solutions: 0.0,
            solutions_std_error: 0.0,
        };
    }
    let root = store.checkpoint();
    let mut rng: Rng = rng_for(config.seed, PROBE_STREAM);
    let mut candidates: Vec<i32> = Vec::new();
    let (mut size_sum, mut size_squares) = (0.0f64, 0.0f64);
    let (mut solution_sum, mut solution_squares) = (0.0f64, 0.0f64);
    for _ in 0..probes {
        let (size, solutions) = probe(
            model,
            config.propagation,
            &mut store,
            &mut order,
            &mut rng,
            &mut candidates,
        );
        store.undo_to(model, root);
        size_sum += size;
        size_squares += size * size;
        solution_sum += solutions;
        solution_squares += solutions * solutions;
    }
    let (tree_size, tree_size_std_error) = mean_and_error(size_sum, size_squares, probes);
    let (solutions, solutions_std_error) = mean_and_error(solution_sum, solution_squares, probes);
    ProbeEstimate {
        probes,
        tree_size,
        tree_size_std_error,
        solutions,
        solutions_std_error,
    }
}

/// One probe from the root of `store` (nothing assigned): its tree-size and solution estimates.
fn probe(
    model: &Model,
    propagation: Propagation,
    store: &mut Store,
    order: &mut BuiltinVariableOrder,
    rng: &mut Rng,
    candidates: &mut Vec<i32>,
) -> (f64, f64) {
    let (mut weight, mut size) = (1.0f64, 1.0f64);
    loop {
        if store.num_assigned() == model.num_vars() {
            return (size, weight);
        }
        let ctx = SelectCtx::new(model, store, propagation);
        let var = order
            .select(&ctx)
            .expect("an incomplete assignment has an unassigned variable");
        candidates.clear();
        if ctx.append_choices(var, candidates) == 0 {
            return (size, 0.0);
        }
        weight *= candidates.len() as f64;
        size += weight;
        let value = candidates[rng.random_range(0..candidates.len())];
        store.assign(model, var, value);
        if let Err(constraint) = crate::engine::propagate(model, store, propagation, var) {
            let ctx = SelectCtx::new(model, store, propagation);
            order.on_wipeout(constraint, &ctx);
            return (size, 0.0);
        }
    }
}

/// The mean of `probes` samples and its standard error, from their sum and sum of squares.
fn mean_and_error(sum: f64, squares: f64, probes: u64) -> (f64, f64) {
    if probes == 0 {
        return (0.0, 0.0);
    }
    let count = probes as f64;
    let mean = sum / count;
    if probes < 2 {
        return (mean, 0.0);
    }
    let variance = ((squares - count * mean * mean) / (count - 1.0)).max(0.0);
    (mean, (variance / count).sqrt())
}
