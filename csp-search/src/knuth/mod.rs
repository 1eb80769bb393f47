//! Knuth's random-probe estimator of a backtrack tree (Knuth 1975, "Estimating the efficiency of
//! backtrack programs", as Stone & Stone describe it in *Efficient Search Techniques* (1987) §4).

use csp_core::{Model, Store};
use rand::RngExt;

use crate::order::{BuiltinVariableOrder, SelectCtx, VariableOrder};
use crate::{Propagation, SearchConfig};

mod pair_masks;
mod sampling;

use pair_masks::PairMasks;
pub use sampling::ProbeEstimate;
use sampling::{ProbeRng, estimate};

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
/// ordering's own randomness and the probes' choices, so the same seed gives the same estimate. Each
/// probe draws its choices from its own generator, seeded by the probe's word of the seed's probe
/// stream, so the estimate does not depend on the order the probes run in.
///
/// Under check-past, with LEX or with MIN breaking ties by index, and when every constraint's check
/// decomposes into pairs ([`csp_core::Propagator::check_is_pairwise`]), the probes run on bit masks
/// of the consistent values (domains of at most 64 values). They make the same choices and give the
/// same estimate, bit for bit, several times faster.
///
/// A raised [`SearchConfig::stop`] ends the probes early (after the current probe, or batch of
/// probes on bit masks); the estimate then averages the probes made ([`ProbeEstimate::probes`]).
pub fn knuth_probes(model: &Model, config: &SearchConfig, probes: u64) -> ProbeEstimate {
    // Under check-past with pairwise checks the probes run on bit masks: the same nodes and the same
    // random numbers, far less work per node.
    if let Some(masks) = PairMasks::build(model, config, probes) {
        return masks.estimate(config.seed, probes, config.stop.as_ref());
    }
    knuth_probes_on_store(model, config, probes)
}

/// [`knuth_probes`] without its bit-mask shortcut: every probe assigns and undoes on a [`Store`].
/// The estimates are the same bit for bit; tests compare the two.
#[doc(hidden)]
pub fn knuth_probes_on_store(model: &Model, config: &SearchConfig, probes: u64) -> ProbeEstimate {
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
    let mut candidates: Vec<i32> = Vec::new();
    estimate(config.seed, probes, config.stop.as_ref(), |rng| {
        let estimates = probe(
            model,
            config.propagation,
            &mut store,
            &mut order,
            rng,
            &mut candidates,
        );
        store.undo_to(model, root);
        estimates
    })
}

/// One probe from the root of `store` (nothing assigned): its tree-size and solution estimates.
fn probe(
    model: &Model,
    propagation: Propagation,
    store: &mut Store,
    order: &mut BuiltinVariableOrder,
    rng: &mut ProbeRng,
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

#[cfg(test)]
mod tests {
    use csp_core::constraints::{AllDifferent, Linear, NotEqual, Predicate, Relation};
    use csp_core::{ModelBuilder, VarId};

    use super::*;
    use crate::{TiePolicy, VariableOrderKind};

    /// `n` queens from binary predicates, with columns `1..=n` so that bit 0 of a mask is not value 0.
    fn queens(n: usize) -> Model {
        let mut builder = ModelBuilder::new();
        let rows: Vec<VarId> = (0..n)
            .map(|r| builder.int_var(format!("q{r}"), 1..=n as i32).unwrap())
            .collect();
        for i in 0..n {
            for j in i + 1..n {
                let distance = (j - i) as i32;
                builder
                    .post(Predicate::new(
                        "no attack",
                        rows[i],
                        rows[j],
                        move |a, b| a != b && (a - b).abs() != distance,
                    ))
                    .unwrap();
            }
        }
        builder.build()
    }

    /// LEX and MIN with lowest-index ties, under check-past: the configurations the masks serve.
    fn configs(seed: u64) -> [SearchConfig; 2] {
        let lex = SearchConfig {
            seed,
            ..SearchConfig::lex()
        };
        let min = SearchConfig {
            variable_order: VariableOrderKind::FewestChoices,
            ties: TiePolicy::LowestIndex,
            ..lex.clone()
        };
        [lex, min]
    }

    /// Knuth's probes on masks and on the store agree exactly; returns the estimate.
    fn assert_same_probes(model: &Model, config: &SearchConfig, probes: u64) -> ProbeEstimate {
        let masks = knuth_probes(model, config, probes);
        let store = knuth_probes_on_store(model, config, probes);
        assert_eq!(masks, store, "{config:?}");
        assert_eq!(masks.tree_size.to_bits(), store.tree_size.to_bits());
        masks
    }

    #[test]
    fn masks_serve_check_past_lex_and_min_over_pairwise_checks_only() {
        let model = queens(8);
        for config in configs(1) {
            assert!(
                PairMasks::build(&model, &config, 1000).is_some(),
                "{config:?}"
            );
            // A handful of probes is cheaper on the store than building the masks.
            assert!(PairMasks::build(&model, &config, 4).is_none());
            for propagation in [Propagation::ForwardChecking, Propagation::Mac] {
                let other = SearchConfig {
                    propagation,
                    ..config.clone()
                };
                assert!(PairMasks::build(&model, &other, 1000).is_none());
            }
        }
        let [_, min] = configs(1);
        for ties in [TiePolicy::Random, TiePolicy::MaxDegree] {
            let other = SearchConfig {
                ties,
                ..min.clone()
            };
            assert!(PairMasks::build(&model, &other, 1000).is_none());
        }
        let dom_wdeg = SearchConfig {
            variable_order: VariableOrderKind::DomWdeg,
            ..min
        };
        assert!(PairMasks::build(&model, &dom_wdeg, 1000).is_none());

        // A sum over two variables decomposes into pairs; one over three does not.
        let sums = |arity: usize| {
            let mut builder = ModelBuilder::new();
            let terms: Vec<(i32, VarId)> = (0..3)
                .map(|i| (1, builder.int_var(format!("v{i}"), 0..=3).unwrap()))
                .take(arity)
                .collect();
            builder
                .post(Linear::new(terms, Relation::LessOrEqual, 4))
                .unwrap();
            builder.build()
        };
        assert!(PairMasks::build(&sums(2), &configs(1)[0], 1000).is_some());
        assert!(PairMasks::build(&sums(3), &configs(1)[0], 1000).is_none());

        // A domain of 65 values does not fit a mask.
        let mut builder = ModelBuilder::new();
        let x = builder.int_var("x", 0..=64).unwrap();
        let y = builder.int_var("y", 0..=63).unwrap();
        builder.post(NotEqual::new(x, y)).unwrap();
        assert!(PairMasks::build(&builder.build(), &configs(1)[0], 10_000).is_none());
    }

    #[test]
    fn a_raised_stop_flag_ends_the_probes_on_masks_and_on_the_store() {
        let model = queens(8);
        for config in configs(0) {
            let stop = crate::StopFlag::new();
            stop.stop();
            let stopped = SearchConfig {
                stop: Some(stop),
                ..config.clone()
            };
            // Raised before the first probe: none is made, on either path.
            assert!(PairMasks::build(&model, &stopped, 2500).is_some());
            assert_eq!(knuth_probes(&model, &stopped, 2500).probes, 0);
            assert_eq!(knuth_probes_on_store(&model, &stopped, 2500).probes, 0);
            // A flag never raised changes nothing.
            let unraised = SearchConfig {
                stop: Some(crate::StopFlag::new()),
                ..config.clone()
            };
            assert_eq!(
                knuth_probes(&model, &unraised, 2500),
                knuth_probes(&model, &config, 2500)
            );
        }
    }

    #[test]
    fn probes_on_masks_match_probes_on_the_store_bit_for_bit() {
        for n in 0..=10 {
            let model = queens(n);
            for seed in 0..3 {
                for config in configs(seed) {
                    // 2,500 probes cross two batches of the lanes and end inside a third.
                    assert_same_probes(&model, &config, 2500);
                }
            }
        }
    }

    #[test]
    fn every_packing_of_the_masks_and_wide_models_agree_with_the_store() {
        // Domains of holes and negative values: an all-different over the first eight variables and
        // a chain of offsets, so that probes reach solutions as well as dead ends. The sizes cover
        // every field width of the lanes (about 10 values: 16-bit fields; 20: 32-bit; 40: 64-bit),
        // exactly 64 variables (every bit of the lanes' free set), and 70 (one probe at a time).
        for (vars, top) in [(64, 12), (70, 12), (30, 27), (12, 57), (1, 57)] {
            let mut builder = ModelBuilder::new();
            let v: Vec<VarId> = (0..vars)
                .map(|i| {
                    let values = (-3..top).filter(move |x| (x + i as i32) % 3 != 0);
                    builder
                        .int_var_with_values(format!("v{i}"), values)
                        .unwrap()
                })
                .collect();
            builder
                .post(AllDifferent::new(v[..8.min(vars)].to_vec()))
                .unwrap();
            for pair in v.windows(2) {
                builder
                    .post(NotEqual::with_offsets(pair[0], 1, pair[1], 0))
                    .unwrap();
            }
            let model = builder.build();
            for config in configs(7) {
                let masks = PairMasks::build(&model, &config, 1000).expect("pairwise");
                assert_eq!(masks.vars, vars);
                let estimate = assert_same_probes(&model, &config, 300);
                assert!(estimate.solutions > 0.0, "some probes reach a solution");
            }
        }
    }
}
