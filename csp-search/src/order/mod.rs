//! Variable orderings: which unassigned variable the next node branches on.
//!
//! A [`VariableOrder`] sees the search through a read-only [`SelectCtx`]; it takes `&mut self` so it
//! can keep its own state (a random generator, scratch space) between calls.

mod dom_wdeg;
mod fewest_choices;
mod lexicographic;
mod select;
#[cfg(test)]
pub(crate) mod test_support;

pub use dom_wdeg::DomWdeg;
pub(crate) use dom_wdeg::compare as compare_dom_wdeg;
pub use fewest_choices::FewestChoices;
pub use lexicographic::Lexicographic;
pub use select::{SelectCtx, VariableOrder};

use csp_core::{ConstraintId, VarId};

use crate::{SearchConfig, TiePolicy, VariableOrderKind};

/// The built-in orderings behind one type, as a [`SearchConfig`] names them.
#[derive(Debug, Clone)]
// The random variants carry their generator inline; one value exists per search, so boxing
// would buy nothing.
#[allow(clippy::large_enum_variant)]
pub enum BuiltinVariableOrder {
    /// See [`Lexicographic`].
    Lexicographic(Lexicographic),
    /// See [`FewestChoices`].
    FewestChoices(FewestChoices),
    /// See [`DomWdeg`].
    DomWdeg(DomWdeg),
}

impl BuiltinVariableOrder {
    /// The ordering `config` asks for, seeded from `config.seed`.
    pub fn from_config(config: &SearchConfig) -> Self {
        match config.variable_order {
            VariableOrderKind::Lexicographic => Self::Lexicographic(Lexicographic),
            VariableOrderKind::FewestChoices => {
                Self::FewestChoices(FewestChoices::new(config.ties, config.seed))
            }
            VariableOrderKind::DomWdeg => Self::DomWdeg(DomWdeg::new(config.ties, config.seed)),
        }
    }
}

impl VariableOrder for BuiltinVariableOrder {
    #[inline]
    fn select(&mut self, ctx: &SelectCtx<'_>) -> Option<VarId> {
        match self {
            Self::Lexicographic(order) => order.select(ctx),
            Self::FewestChoices(order) => order.select(ctx),
            Self::DomWdeg(order) => order.select(ctx),
        }
    }

    #[inline]
    fn on_wipeout(&mut self, constraint: ConstraintId, ctx: &SelectCtx<'_>) {
        match self {
            Self::Lexicographic(order) => order.on_wipeout(constraint, ctx),
            Self::FewestChoices(order) => order.on_wipeout(constraint, ctx),
            Self::DomWdeg(order) => order.on_wipeout(constraint, ctx),
        }
    }
}

impl Default for BuiltinVariableOrder {
    fn default() -> Self {
        Self::FewestChoices(FewestChoices::new(TiePolicy::LowestIndex, 0))
    }
}
