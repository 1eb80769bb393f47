//! What the orderings' unit tests share.

use csp_core::{ModelBuilder, Store};

use super::select::{SelectCtx, VariableOrder};
use crate::Propagation;

/// Over four variables that always tie, the ordering `make(seed)` builds (with random ties)
/// picks the same 32 variables for the same seed, and picks every one of them at some point.
pub(crate) fn assert_random_ties_are_seeded_and_reach_every_variable<O: VariableOrder>(
    make: impl Fn(u64) -> O,
) {
    let mut builder = ModelBuilder::new();
    for i in 0..4 {
        builder.int_var(format!("v{i}"), 0..=3).unwrap();
    }
    let model = builder.build();
    let store = Store::new(&model);
    let ctx = SelectCtx::new(&model, &store, Propagation::ForwardChecking);
    let picks = |seed| {
        let mut order = make(seed);
        (0..32)
            .map(|_| order.select(&ctx).unwrap().index())
            .collect::<Vec<_>>()
    };
    assert_eq!(picks(7), picks(7), "the same seed gives the same picks");
    let mut seen = picks(7);
    seen.sort_unstable();
    seen.dedup();
    assert_eq!(seen, vec![0, 1, 2, 3]);
}
