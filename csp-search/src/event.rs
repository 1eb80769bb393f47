use std::ops::ControlFlow;

use csp_core::VarId;

use crate::Decision;

/// One step of a backtracking search, in the order it happens. Levels follow Stone & Stone: the root
/// is level 1 and a node with `k` variables assigned is level `k + 1`.
///
/// For every search the stream reads as a depth-first walk: `Enter` a node and choose its variable,
/// then for each child `Assign` a value (or `Decide` another restriction: `x ≠ v`, `x ≤ m`, `x ≥ m`)
/// creating a child one level down, … then `Undo` (or `Retract`) it. A node with no way forward
/// reports `DeadEnd` before its assignment is undone; a complete assignment reports `Solution`.
///
/// Value enumeration (Stone & Stone's LEX and MIN) only ever assigns; search by decisions assigns for
/// `x = v` and decides the rest.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SearchEvent<'a> {
    /// The node at `level` branches on `var`, which has `choices` values to try.
    Enter {
        /// The node's level.
        level: u32,
        /// The variable chosen.
        var: VarId,
        /// How many values will be tried (its branching factor).
        choices: u32,
    },
    /// `var = value` was assigned, creating a node at `level`.
    Assign {
        /// The new node's level.
        level: u32,
        /// The variable.
        var: VarId,
        /// The value.
        value: i32,
    },
    /// A decision other than an assignment (`x ≠ v`, `x ≤ m`, `x ≥ m`) was made, creating a node at
    /// `level`. It counts as a node, like [`SearchEvent::Assign`].
    Decide {
        /// The new node's level.
        level: u32,
        /// The decision.
        decision: Decision,
    },
    /// The node at `level`, made by `decision`, was left and its decision undone: a backtrack, like
    /// [`SearchEvent::Undo`].
    Retract {
        /// The level of the node undone.
        level: u32,
        /// The decision it was made by.
        decision: Decision,
    },
    /// The node at `level`, made by `var = value`, was left and its assignment undone (a backtrack).
    Undo {
        /// The level of the node undone.
        level: u32,
        /// The variable.
        var: VarId,
        /// The value it had.
        value: i32,
    },
    /// The node at `level` cannot be extended: propagation emptied a domain or its variable has no
    /// choices.
    DeadEnd {
        /// The node's level.
        level: u32,
    },
    /// The search went back to the root to start a new run (see [`crate::Restarts`]). The `Undo` events
    /// of the abandoned path come first.
    Restart {
        /// How many restarts there have been, this one included.
        count: u64,
    },
    /// Every variable is assigned (or, in search by decisions, fixed): `values[i]` is the value of
    /// variable `i`. Under optimisation every solution is better than the one before.
    Solution {
        /// The level of the solution node (number of variables + 1 under value enumeration).
        level: u32,
        /// The solution, indexed by [`VarId::index`].
        values: &'a [i32],
        /// The objective's value, if the model has one.
        objective: Option<i32>,
    },
}

/// Watches a search. Returning [`ControlFlow::Break`] stops the search at once, with
/// [`crate::Outcome::Stopped`].
///
/// Observers compose: `()` ignores everything, `&mut O` and `Box<O>` forward, and a tuple `(A, B)`
/// feeds both (in order; either may stop the search).
pub trait SearchObserver {
    /// Called for every event.
    fn on_event(&mut self, event: &SearchEvent<'_>) -> ControlFlow<()>;
}

impl SearchObserver for () {
    #[inline]
    fn on_event(&mut self, _event: &SearchEvent<'_>) -> ControlFlow<()> {
        ControlFlow::Continue(())
    }
}

impl<O: SearchObserver + ?Sized> SearchObserver for &mut O {
    // The forwarding impls are always inlined: each of the engine's emit sites knows its event's
    // kind, and only through inlined forwarding can an inlined observer's match fold away.
    #[inline(always)]
    fn on_event(&mut self, event: &SearchEvent<'_>) -> ControlFlow<()> {
        (**self).on_event(event)
    }
}

impl<O: SearchObserver + ?Sized> SearchObserver for Box<O> {
    #[inline(always)]
    fn on_event(&mut self, event: &SearchEvent<'_>) -> ControlFlow<()> {
        (**self).on_event(event)
    }
}

impl<A: SearchObserver, B: SearchObserver> SearchObserver for (A, B) {
    #[inline(always)]
    fn on_event(&mut self, event: &SearchEvent<'_>) -> ControlFlow<()> {
        self.0.on_event(event)?;
        self.1.on_event(event)
    }
}

impl<A: SearchObserver, B: SearchObserver, C: SearchObserver> SearchObserver for (A, B, C) {
    #[inline(always)]
    fn on_event(&mut self, event: &SearchEvent<'_>) -> ControlFlow<()> {
        self.0.on_event(event)?;
        self.1.on_event(event)?;
        self.2.on_event(event)
    }
}

/// An observer made from a closure.
///
/// ```
/// # use std::ops::ControlFlow;
/// # use csp_search::{FnObserver, SearchEvent};
/// let mut solutions = 0;
/// let observer = FnObserver(|event: &SearchEvent<'_>| -> ControlFlow<()> {
///     if let SearchEvent::Solution { .. } = event {
///         solutions += 1;
///     }
///     ControlFlow::Continue(())
/// });
/// # drop(observer);
/// ```
pub struct FnObserver<F>(pub F);

impl<F: FnMut(&SearchEvent<'_>) -> ControlFlow<()>> SearchObserver for FnObserver<F> {
    #[inline]
    fn on_event(&mut self, event: &SearchEvent<'_>) -> ControlFlow<()> {
        (self.0)(event)
    }
}
