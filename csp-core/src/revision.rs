//! What a revision reports and when it runs: the [`Wipeout`] that ends a failed one, the
//! [`Priority`] that orders the propagation queue, and the [`PropagationFailure`] of a propagation
//! that runs other reasoning before the constraints. A leaf module shared by the store, the contexts
//! and the constraints.

/// A constraint could not be satisfied under the current domains: a domain was wiped out, or the
/// fixed variables already violate it. Search answers it by backtracking.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Wipeout;

/// When a woken constraint runs, relative to the others waiting: the propagation queue runs every
/// waiting constraint of a higher priority before any of a lower one, so cheap reasoning reaches its
/// fixpoint before expensive reasoning looks at the result (the "cheap first" rule of Gecode and
/// Pumpkin). Within one priority constraints run in the order they were woken.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub enum Priority {
    /// Constant or near-constant work a run: binary relations, reification glue, clauses.
    High,
    /// Work linear in the scope: sums, tables, element. The default.
    #[default]
    Medium,
    /// Super-linear work: matchings (Régin's all-different), edge-finding, cumulative profiles.
    Low,
}

impl Priority {
    /// The number of priorities, for queues indexed by [`Priority::index`].
    pub const COUNT: usize = 3;

    /// `0` for [`Priority::High`] up to `COUNT - 1` for [`Priority::Low`].
    #[inline]
    pub fn index(self) -> usize {
        self as usize
    }
}

/// Why [`crate::Store::propagate_with`] failed: a constraint's revision, or the reasoning run before
/// the constraints (a learning search's clauses), with what that reasoning reported.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PropagationFailure<E> {
    /// The constraint failed.
    Constraint(crate::ConstraintId),
    /// The reasoning run first failed.
    First(E),
}
