//! Value orderings: in which order a node tries its variable's values.

mod ascending;
mod descending;
mod middle_out;
mod random;

pub use ascending::Ascending;
pub use descending::Descending;
pub use middle_out::MiddleOut;
pub use random::RandomValues;

use csp_core::VarId;

use crate::{SearchConfig, SelectCtx, ValueOrderKind};

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

/// The built-in value orderings behind one type, as a [`SearchConfig`] names them.
#[derive(Debug, Clone, Default)]
// The random variants carry their generator inline; one value exists per search, so boxing
// would buy nothing.
#[allow(clippy::large_enum_variant)]
pub enum BuiltinValueOrder {
    /// See [`Ascending`].
    #[default]
    Ascending,
    /// See [`Descending`].
    Descending,
    /// See [`RandomValues`].
    Random(RandomValues),
    /// See [`MiddleOut`].
    MiddleOut(MiddleOut),
}

impl BuiltinValueOrder {
    /// The ordering `config` asks for, seeded from `config.seed`.
    pub fn from_config(config: &SearchConfig) -> Self {
        match config.value_order {
            ValueOrderKind::Ascending => Self::Ascending,
            ValueOrderKind::Descending => Self::Descending,
            ValueOrderKind::Random => Self::Random(RandomValues::new(config.seed)),
            ValueOrderKind::MiddleOut => Self::MiddleOut(MiddleOut::default()),
        }
    }
}

impl ValueOrder for BuiltinValueOrder {
    #[inline]
    fn order(&mut self, var: VarId, ctx: &SelectCtx<'_>, values: &mut [i32]) {
        match self {
            Self::Ascending => Ascending.order(var, ctx, values),
            Self::Descending => Descending.order(var, ctx, values),
            Self::Random(order) => order.order(var, ctx, values),
            Self::MiddleOut(order) => order.order(var, ctx, values),
        }
    }

    fn reproducible(&self) -> bool {
        !matches!(self, Self::Random(_))
    }
}
