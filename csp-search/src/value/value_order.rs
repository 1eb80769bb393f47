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
}

impl<T: ValueOrder + ?Sized> ValueOrder for &mut T {
    fn order(&mut self, var: VarId, ctx: &SelectCtx<'_>, values: &mut [i32]) {
        (**self).order(var, ctx, values)
    }

    fn reproducible(&self) -> bool {
        (**self).reproducible()
    }
}

impl<T: ValueOrder + ?Sized> ValueOrder for Box<T> {
    fn order(&mut self, var: VarId, ctx: &SelectCtx<'_>, values: &mut [i32]) {
        (**self).order(var, ctx, values)
    }

    fn reproducible(&self) -> bool {
        (**self).reproducible()
    }
}
