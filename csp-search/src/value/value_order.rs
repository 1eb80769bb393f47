//! The trait every value ordering implements.

use csp_core::VarId;

use crate::SelectCtx;

/// Orders the choices of a node. `values` arrive ascending and are reordered in place: no allocation.
pub trait ValueOrder {
    /// Reorders `values`, the choices of `var` at the node `ctx` describes.
    fn order(&mut self, var: VarId, ctx: &SelectCtx<'_>, values: &mut [i32]);

    /// Whether [`order`](ValueOrder::order) gives the same order whenever it is given the same
    /// values for the same variable (no randomness, no state). Search may then drop the choices of
    /// nodes far up a deep path and list them again when it returns there, so that its memory does
    /// not grow with the sum of the path's branching factors. Default: `false`, always safe.
    fn reproducible(&self) -> bool {
        false
    }

    /// The value [`order`](ValueOrder::order) would put first among `var`'s domain values at the
    /// node `ctx` describes, when the ordering can tell without listing them all; `None`, the
    /// default, when it cannot. Search asks only a [reproducible](ValueOrder::reproducible)
    /// ordering, and only where a node's choices are its domain values (forward checking and MAC),
    /// with at least two of them: it tries the first child at once and lists the rest if it comes
    /// back ([`Brancher::branch_first`](crate::Brancher::branch_first)).
    fn first(&mut self, var: VarId, ctx: &SelectCtx<'_>) -> Option<i32> {
        let _ = (var, ctx);
        None
    }
}

impl<T: ValueOrder + ?Sized> ValueOrder for &mut T {
    fn order(&mut self, var: VarId, ctx: &SelectCtx<'_>, values: &mut [i32]) {
        (**self).order(var, ctx, values)
    }

    fn reproducible(&self) -> bool {
        (**self).reproducible()
    }

    fn first(&mut self, var: VarId, ctx: &SelectCtx<'_>) -> Option<i32> {
        (**self).first(var, ctx)
    }
}

impl<T: ValueOrder + ?Sized> ValueOrder for Box<T> {
    fn order(&mut self, var: VarId, ctx: &SelectCtx<'_>, values: &mut [i32]) {
        (**self).order(var, ctx, values)
    }

    fn reproducible(&self) -> bool {
        (**self).reproducible()
    }

    fn first(&mut self, var: VarId, ctx: &SelectCtx<'_>) -> Option<i32> {
        (**self).first(var, ctx)
    }
}
