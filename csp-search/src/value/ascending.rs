use csp_core::VarId;

use super::value_order::ValueOrder;
use crate::SelectCtx;

/// Smallest value first: the order in which the choices arrive, so nothing to do.
#[derive(Debug, Clone, Copy, Default)]
pub struct Ascending;

impl ValueOrder for Ascending {
    #[inline]
    fn order(&mut self, _var: VarId, _ctx: &SelectCtx<'_>, _values: &mut [i32]) {}

    fn reproducible(&self) -> bool {
        true
    }

    fn first(&mut self, var: VarId, ctx: &SelectCtx<'_>) -> Option<i32> {
        Some(ctx.domain(var).lb())
    }
}
