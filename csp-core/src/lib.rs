//! # csp-core
//!
//! The model half of the `csp` framework: integer variables with finite domains, constraints, and a
//! [`Store`] that holds the state of a model being solved (domains, the partial assignment and each
//! constraint's incremental counters) with a trail for undo.
//!
//! This crate knows nothing of search strategies or of N-queens: `csp-search` drives a [`Store`] through
//! the [`Constraint`] trait, and `csp-local` uses the same constraints' conflict counts.
//!
//! ```
//! use csp_core::{ModelBuilder, constraints::{AllDifferent, Linear, Relation}};
//!
//! # fn main() -> Result<(), csp_core::ModelError> {
//! let mut builder = ModelBuilder::new();
//! let x = builder.int_var("x", 1..=3)?;
//! let y = builder.int_var("y", 1..=3)?;
//! builder.post(AllDifferent::new(vec![x, y]))?;
//! builder.post(Linear::new(vec![(1, x), (1, y)], Relation::Equal, 4))?;
//! let model = builder.build();
//! assert_eq!(model.num_vars(), 2);
//! # Ok(())
//! # }
//! ```

mod constraint;
pub mod constraints;
mod domain;
mod error;
mod event;
mod ids;
mod lines;
mod literal;
mod memory;
mod model;
mod post;
mod revision;
mod rng;
mod row_sizes;
mod state;
mod store;

pub use constraint::{
    Constraint, GENERIC_REVISE_BUDGET, LocalCtx, LocalState, Post, PostCtx, Propagator,
    checker_check, checker_conflicts, checker_entailment, checker_forward_check, generic_revise,
};
pub use domain::{BITSET_MAX_SPAN, Domain, DomainView, Values};
pub use error::ModelError;
pub use event::EventSet;
pub use ids::{ConstraintId, VarId};
pub use lines::{LineRule, MAX_LINE_FAMILIES};
pub use memory::ModelSize;
pub use model::{MAX_VARIABLES, Model, ModelBuilder, Objective, Watch};
pub use post::{Constructor, Posted};
pub use revision::{Priority, PropagationFailure, Wipeout};

pub use literal::{Cause, Literal, LiteralRelation, LogEntry};
pub use rng::{Rng, rng_for};
pub use state::{Slot, Slots, StateValue};
pub use store::change_log::{ExplainCtx, explain_by_bounds};
pub use store::context::{CheckCtx, Domains, PropagationCtx};
pub use store::{Checkpoint, PropagationProfile, Store};
