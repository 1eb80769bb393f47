//! Value orderings: in which order a node tries its variable's values.

mod ascending;
mod descending;
mod middle_out;
mod random;
mod value_order;

pub use ascending::Ascending;
pub use descending::Descending;
pub use middle_out::MiddleOut;
pub use random::RandomValues;
pub use value_order::ValueOrder;

use csp_core::VarId;

use crate::{SearchConfig, SelectCtx, ValueOrderKind};

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

    #[inline]
    fn first(&mut self, var: VarId, ctx: &SelectCtx<'_>) -> Option<i32> {
        match self {
            Self::Ascending => Ascending.first(var, ctx),
            Self::Descending => Descending.first(var, ctx),
            Self::Random(_) => None,
            Self::MiddleOut(order) => order.first(var, ctx),
        }
    }
}
