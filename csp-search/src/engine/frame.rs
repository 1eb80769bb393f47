//! The path's frames, the small types the search's walk passes between its steps, and the
//! helpers its steps share.

use std::ops::ControlFlow;

use csp_core::{Checkpoint, ConstraintId, Model, Store, VarId};

use super::outcome::Outcome;
use crate::branch::Decision;
use crate::{Propagation, SearchEvent, SearchObserver, Statistics};

/// The position of a frame whose choices were dropped from the candidate stack.
pub(super) const DROPPED: usize = usize::MAX;

/// How a node branches: by value enumeration, or by a binary decision of one of four kinds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Kind {
    Values,
    Assign,
    Exclude,
    AtMost,
    AtLeast,
}

/// One node on the path from the root: how it branches and which child is in place. Kept small (it is
/// copied at every node of the hot loop): a binary node's decision is stored as its kind and value.
#[derive(Debug, Clone, Copy)]
pub(super) struct Frame {
    pub(super) var: VarId,
    /// The node's level (1 at the root).
    pub(super) level: u32,
    /// Value enumeration: the choices are `candidates[start..start + len]`, in the order they are
    /// tried. A binary node has `len` 2, or 1 when its decision has no negation or the search
    /// learns (the negation then follows from the clause learned at a failure below it).
    pub(super) start: usize,
    pub(super) len: u32,
    /// The index of the next child to try.
    pub(super) next: u32,
    /// Value enumeration: the value of the child in place. A binary node: its first decision's value.
    pub(super) value: i32,
    pub(super) kind: Kind,
    /// Value enumeration: the brancher gave the first value alone ([`crate::Brancher::branch_first`]),
    /// which is in `value`; the list is made (`Search::relist_top`) when search comes back for
    /// the second. `start` is [`DROPPED`] until then.
    pub(super) first_only: bool,
    /// The trail position before the child in place.
    pub(super) checkpoint: Checkpoint,
}

impl Frame {
    /// A binary node's first decision.
    #[inline]
    pub(super) fn first(&self) -> Decision {
        match self.kind {
            Kind::Values | Kind::Assign => Decision::Assign(self.var, self.value),
            Kind::Exclude => Decision::Exclude(self.var, self.value),
            Kind::AtMost => Decision::AtMost(self.var, self.value),
            Kind::AtLeast => Decision::AtLeast(self.var, self.value),
        }
    }

    /// The decision of the child in place (the last one tried).
    #[inline]
    pub(super) fn current(&self) -> Decision {
        match self.kind {
            Kind::Values => Decision::Assign(self.var, self.value),
            _ if self.next <= 1 => self.first(),
            _ => self
                .first()
                .negation()
                .expect("a binary frame of two children has a negation"),
        }
    }
}

/// Where a paused search stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum State {
    /// Nothing done yet.
    Fresh,
    /// Paused at a solution, whose last decision is still in place.
    AtSolution,
    /// Between nodes.
    Running,
    /// Over: every later call reports this outcome again.
    Done(Outcome),
}

/// What expanding a node found.
pub(super) enum Expanded {
    /// A frame was pushed: the node has children to try.
    Branched,
    /// The node has no children.
    DeadEnd,
    /// The node is a solution (reported already).
    Solution,
}

/// Why a decision's propagation failed.
#[derive(Debug, Clone, Copy)]
pub(super) enum Failure {
    /// A constraint emptied a domain or found its variables inconsistent.
    Constraint(ConstraintId),
    /// The decision itself, or the objective's bound, left a domain empty (or, under check-past, an
    /// assignment failed Dijkstra's test).
    Domain,
    /// Under learning, a learned clause with every literal false.
    Clause(u32),
}

/// The event that reports undoing `frame`'s child in place: an assignment's `Undo`, another
/// decision's `Retract`, one level below the frame's child.
#[inline]
pub(super) fn undo_event(frame: &Frame) -> SearchEvent<'static> {
    let level = frame.level + 1;
    match frame.current() {
        Decision::Assign(var, value) => SearchEvent::Undo { level, var, value },
        decision => SearchEvent::Retract { level, decision },
    }
}

/// Feeds an event to the search's own statistics, then to the caller's observer. Always inlined,
/// so that each emit site keeps only its own event's arm of the statistics (a LEX node makes
/// three events); out of line, it cost 3 % of a LEX count's instructions.
#[inline(always)]
pub(super) fn emit<O: SearchObserver>(
    stats: &mut Statistics,
    observer: &mut O,
    event: &SearchEvent<'_>,
) -> Result<(), Outcome> {
    let _ = stats.on_event(event);
    match observer.on_event(event) {
        ControlFlow::Continue(()) => Ok(()),
        ControlFlow::Break(()) => Err(Outcome::Stopped),
    }
}

/// The propagation that follows `var`'s assignment at the given level; the error names the constraint
/// that failed. Check-past does none: its test runs when choices are counted.
#[inline]
pub(crate) fn propagate(
    model: &Model,
    store: &mut Store,
    propagation: Propagation,
    var: VarId,
) -> Result<(), csp_core::ConstraintId> {
    match propagation {
        Propagation::CheckPast => Ok(()),
        Propagation::ForwardChecking => store.forward_check(model, var),
        Propagation::Mac => store.maintain_arc_consistency(model, var),
    }
}
