use csp_core::VarId;

use super::value_order::ValueOrder;
use crate::SelectCtx;

/// Largest value first.
#[derive(Debug, Clone, Copy, Default)]
pub struct Descending;

impl ValueOrder for Descending {
    #[inline]
    fn order(&mut self, _var: VarId, _ctx: &SelectCtx<'_>, values: &mut [i32]) {
        values.reverse();
    }

    fn reproducible(&self) -> bool {
        true
    }

    fn first(&mut self, var: VarId, ctx: &SelectCtx<'_>) -> Option<i32> {
        Some(ctx.domain(var).ub())
    }
}
