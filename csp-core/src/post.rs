//! Posting a constraint with state. What [`crate::ModelBuilder::post`] takes is a
//! [`crate::Post`], and the context a constraint lays out its trailed state in a
//! [`crate::PostCtx`] (both beside [`Propagator`], which names them). A constraint without state is
//! posted as it is: every [`Propagator`] is a `Post`. A constraint with state is built by a
//! [`Constructor`], which lays out its slots in the context when it is posted, so the store learns
//! the state's size from the context and no constraint reports it. This follows the constructors
//! of the learning solvers Pumpkin and Huub, which return the propagator with its registration.
//! [`Posted`] is a constraint built on its own, to inspect before deciding how to post it.

use std::fmt;

use crate::{ModelError, Post, PostCtx, Propagator, Slots};

/// A constraint with trailed state, waiting to be posted: the constructors of the stateful built-ins
/// return one ([`crate::constraints::Linear::new`], say), and a constraint of one's own with state
/// is built the same way:
///
/// ```
/// use csp_core::{
///     Constraint, Domains, ModelBuilder, PostCtx, Constructor, PropagationCtx, Propagator, Slot, Store,
///     VarId, Wipeout,
/// };
///
/// /// `x` has been raised at least once: a flag kept in the trailed state.
/// #[derive(Debug)]
/// struct Raised {
///     scope: [VarId; 1],
///     seen: Slot<bool>,
/// }
///
/// impl Raised {
///     fn new(x: VarId) -> Constructor<Raised> {
///         Constructor::new(move |ctx: &mut PostCtx| Ok(Raised { scope: [x], seen: ctx.slot() }))
///     }
/// }
///
/// impl Constraint for Raised {
///     fn scope(&self) -> &[VarId] {
///         &self.scope
///     }
///
///     fn is_satisfied(&self, _values: &[i32]) -> bool {
///         true
///     }
/// }
///
/// impl Propagator for Raised {
///     fn revise(&self, ctx: &mut PropagationCtx<'_>) -> Result<(), Wipeout> {
///         if ctx.lb(self.scope[0]) > 0 {
///             ctx.set(self.seen, true);
///         }
///         Ok(())
///     }
/// }
///
/// let mut builder = ModelBuilder::new();
/// let x = builder.int_var("x", 0..=3)?;
/// builder.post(Raised::new(x))?;
/// let model = builder.build();
/// assert_eq!(model.num_cells(), 1 + model.num_constraints());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct Constructor<P> {
    build: Build<P>,
}

/// What a [`Constructor`] runs when it is posted.
type Build<P> = Box<dyn FnOnce(&mut PostCtx) -> Result<P, ModelError> + Send>;

impl<P> Constructor<P> {
    /// A constraint that `build` makes when it is posted, laying out its state in the context.
    pub fn new(build: impl FnOnce(&mut PostCtx) -> Result<P, ModelError> + Send + 'static) -> Self {
        Constructor {
            build: Box::new(build),
        }
    }

    /// Builds the constraint in `ctx`, for a wrapper that runs it itself (see [`PostCtx::nested`]).
    pub fn build(self, ctx: &mut PostCtx) -> Result<P, ModelError> {
        (self.build)(ctx)
    }
}

impl<P> fmt::Debug for Constructor<P> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Constructor<{}>", std::any::type_name::<P>())
    }
}

impl<P: Propagator + 'static> Post for Constructor<P> {
    fn post(self: Box<Self>, ctx: &mut PostCtx) -> Result<Box<dyn Propagator>, ModelError> {
        Ok(Box::new(self.build(ctx)?))
    }
}

/// A constraint already posted in a context of its own: its propagator, to inspect (its scope, its
/// checker, its negation) before deciding how to post it, and the size of its state. Posting it
/// then lays out that state again, in the same place: a `Posted` must be posted into a fresh
/// context, as [`crate::ModelBuilder::post`] and [`PostCtx::nested`] give, and posting refuses
/// any other.
#[derive(Debug)]
pub struct Posted {
    propagator: Box<dyn Propagator>,
    cells: usize,
}

impl Posted {
    /// Builds `constraint` in a context of its own.
    pub fn new(constraint: impl Post + 'static) -> Result<Self, ModelError> {
        Self::new_boxed(Box::new(constraint))
    }

    /// Builds a boxed constraint in a context of its own.
    pub fn new_boxed(constraint: Box<dyn Post>) -> Result<Self, ModelError> {
        let mut ctx = PostCtx::new();
        let propagator = constraint.post(&mut ctx)?;
        Ok(Posted {
            propagator,
            cells: ctx.cells(),
        })
    }

    /// The propagator the engine will run.
    pub fn propagator(&self) -> &dyn Propagator {
        self.propagator.as_ref()
    }
}

impl Post for Posted {
    fn post(self: Box<Self>, ctx: &mut PostCtx) -> Result<Box<dyn Propagator>, ModelError> {
        if ctx.cells() != 0 {
            return Err(ModelError::InvalidConstraint {
                constraint: format!("{:?}", self.propagator),
                reason: "a constraint built on its own must be posted in a fresh context"
                    .to_owned(),
            });
        }
        let _: Slots<i64> = ctx.slots(self.cells);
        Ok(self.propagator)
    }
}
