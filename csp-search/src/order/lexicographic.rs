use csp_core::VarId;

use super::select::{SelectCtx, VariableOrder};

/// The first unassigned variable in model order: Stone & Stone's LEX, Dijkstra's row by row.
#[derive(Debug, Clone, Copy, Default)]
pub struct Lexicographic;

impl VariableOrder for Lexicographic {
    #[inline]
    fn select(&mut self, ctx: &SelectCtx<'_>) -> Option<VarId> {
        ctx.unassigned().next()
    }
}

#[cfg(test)]
mod tests {
    use csp_core::{ModelBuilder, Store};

    use super::*;
    use crate::Propagation;

    #[test]
    fn lexicographic_picks_the_first_unassigned_variable() {
        let mut builder = ModelBuilder::new();
        let vars: Vec<_> = (0..4)
            .map(|i| builder.int_var(format!("v{i}"), 0..=3).unwrap())
            .collect();
        let model = builder.build();
        let mut store = Store::new(&model);
        store.assign(&model, vars[0], 1);
        store.assign(&model, vars[2], 1);
        let ctx = SelectCtx::new(&model, &store, Propagation::CheckPast);
        assert_eq!(Lexicographic.select(&ctx), Some(vars[1]));
        store.assign(&model, vars[1], 1);
        store.assign(&model, vars[3], 1);
        let ctx = SelectCtx::new(&model, &store, Propagation::CheckPast);
        assert_eq!(Lexicographic.select(&ctx), None);
    }
}
