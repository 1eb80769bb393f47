use csp_core::VarId;

use super::ValueOrder;
use crate::SelectCtx;

/// Values nearest the middle of the variable's initial span first, the smaller of two equally near
/// values first. For 8 queens a row is tried in columns 3, 4, 2, 5, 1, 6, 0, 7 — Stone & Stone observe
/// (Fig. 6) that solutions are densest with queens near the centre.
#[derive(Debug, Clone, Copy, Default)]
pub struct MiddleOut;

impl ValueOrder for MiddleOut {
    fn order(&mut self, var: VarId, ctx: &SelectCtx<'_>, values: &mut [i32]) {
        let initial = ctx.model().initial_domain(var);
        // Twice the midpoint, to stay in integers.
        let twice_middle = i64::from(initial.span_lo()) + i64::from(initial.span_hi());
        values.sort_unstable_by_key(|&v| ((2 * i64::from(v) - twice_middle).abs(), v));
    }
}

#[cfg(test)]
mod tests {
    use csp_core::{ModelBuilder, Store};

    use super::*;
    use crate::Propagation;

    #[test]
    fn middle_out_orders_eight_columns_from_the_centre() {
        let mut builder = ModelBuilder::new();
        let q = builder.int_var("q", 0..=7).unwrap();
        let model = builder.build();
        let store = Store::new(&model);
        let ctx = SelectCtx::new(&model, &store, Propagation::ForwardChecking);
        let mut values: Vec<i32> = (0..8).collect();
        MiddleOut.order(q, &ctx, &mut values);
        assert_eq!(values, vec![3, 4, 2, 5, 1, 6, 0, 7]);
    }
}
