//! Branch and bound and restarts: the objective's bound, the return to the root that a restart,
//! a deep path after a solution, or (under learning) a better bound makes.

use csp_core::Objective;

use super::frame::{Expanded, Failure, emit, undo_event};
use super::outcome::Outcome;
use super::search::{COMPACT_MIN_ENTRIES, DEEP_PATH_MIN, DEEP_PATH_PER_VAR, Search};
use crate::bound::SharedBound;
use crate::branch::Brancher;
use crate::{Propagation, SearchEvent, SearchObserver};

impl<B: Brancher> Search<'_, B> {
    /// The node count at which the run that starts now should end.
    pub(super) fn next_restart_budget(&self) -> u64 {
        match self.restarts {
            Some(restarts) => self.stats.nodes.saturating_add(
                restarts
                    .base_nodes
                    .max(1)
                    .saturating_mul(crate::luby(self.stats.restarts + 1)),
            ),
            None => u64::MAX,
        }
    }

    /// The walk has made the nodes of `restart_at`: a restart is due, or under learning (whose
    /// `restart_at` is 0, so that the walk keeps one test of a count on its way) a new bound may
    /// wait to be assumed or the learner's schedule of conflicts may call a restart. `Some(true)`
    /// when the search is at a solution, `Some(false)` when it went back to the root or the
    /// assumptions (the walk starts its loop again), `None` when nothing happened. Restarts
    /// without learning end with the first solution (see [`crate::Restarts`]).
    #[inline(never)]
    pub(super) fn at_restart_point<O: SearchObserver>(
        &mut self,
        observer: &mut O,
    ) -> Result<Option<bool>, Outcome> {
        if let Some(learner) = &self.learner {
            if self.bound() != self.bound_assumption {
                // Another search found a better solution: its bound is assumed first.
                let expanded = self.assume_new_bound(observer)?;
                return Ok(Some(matches!(expanded, Expanded::Solution)));
            }
            if learner.restart_due() && self.frames.len() > 1 {
                return self.restart(observer).map(Some);
            }
            return Ok(None);
        }
        if self.stats.solutions > 0 {
            self.restart_at = u64::MAX;
            return Ok(None);
        }
        self.restart(observer).map(Some)
    }

    /// Abandons the current run: undoes the whole path (one `Undo` per decision, deepest first),
    /// reports the restart, and expands the root again. Returns whether the root is a solution.
    pub(super) fn restart<O: SearchObserver>(&mut self, observer: &mut O) -> Result<bool, Outcome> {
        self.unwind_to_root(observer)?;
        self.restart_at = self.next_restart_budget();
        if let Some(learner) = &mut self.learner {
            learner.on_restart();
            self.restart_at = 0;
        }
        // Without learning, restarts happen only before the first solution, so the root needs no
        // new bound: its state, propagated when the search started, is back. Under learning the
        // bound is assumed again after the restart (see `Search::bound_assumption`).
        debug_assert!(self.best.is_none() || self.learner.is_some());
        match self.expand(observer)? {
            Expanded::Branched => Ok(false),
            Expanded::DeadEnd => Err(self.exhausted()),
            Expanded::Solution => Ok(true),
        }
    }

    /// Undoes the whole path (one `Undo` per decision, deepest first) and reports a restart.
    pub(super) fn unwind_to_root<O: SearchObserver>(
        &mut self,
        observer: &mut O,
    ) -> Result<(), Outcome> {
        // The deepest frame has no child of its own in place; every frame above it has one.
        let top = self.frames.pop().expect("a running search has a frame");
        self.candidates.truncate(top.start);
        let undos = self.frames.len() as u64;
        if self.store.has_root_snapshot()
            && self
                .limits
                .backtracks
                .is_none_or(|max| self.stats.backtracks + undos <= max)
        {
            // The root's state is kept (it is the state of the bottom frame's checkpoint, see
            // `bound_trail` and `start`): the undos are reported as ever, deepest first, and the
            // store returns to the root in one copy instead of undoing the path value by value.
            // No backtrack limit can stop the walk part way, and an observer that stops it finds
            // the store at the root, with no frame left.
            let mut reported = Ok(());
            while let Some(frame) = self.frames.pop() {
                if reported.is_ok() {
                    reported = emit(&mut self.stats, observer, &undo_event(&frame));
                }
            }
            self.store.reset_to_root(self.model);
            self.lowest_commit = u32::MAX;
            self.compact_at = COMPACT_MIN_ENTRIES;
            reported?;
            self.candidates.clear();
            let count = self.stats.restarts + 1;
            return emit(&mut self.stats, observer, &SearchEvent::Restart { count });
        }
        while let Some(frame) = self.frames.pop() {
            self.candidates.truncate(frame.start);
            // These undos are backtracks like any other, so the backtrack limit applies to them too.
            self.undo(&frame, observer)?;
        }
        self.candidates.clear();
        let count = self.stats.restarts + 1;
        emit(&mut self.stats, observer, &SearchEvent::Restart { count })
    }

    /// Whether branch and bound, paused at a solution, should go on from the root rather than from
    /// the solution's path (see [`DEEP_PATH_PER_VAR`]).
    pub(super) fn path_too_deep(&self) -> bool {
        self.optimising()
            && self.frames.len() > (DEEP_PATH_PER_VAR * self.model.num_vars()).max(DEEP_PATH_MIN)
    }

    /// Branch and bound from the root after a solution on a deep path: undoes the path, propagates
    /// the root under the new bound, and walks on from there. The rest of the tree under the old
    /// path holds nothing the new bound allows that the root's tree does not, so the search stays
    /// complete and its last run still proves the optimum.
    pub(super) fn restart_with_bound<O: SearchObserver>(
        &mut self,
        observer: &mut O,
    ) -> Result<(), Outcome> {
        self.unwind_to_root(observer)?;
        self.descend_from_root_under_bound(observer)
    }

    /// Propagates the root under the current bound and walks on from it: the second half of
    /// [`Search::restart_with_bound`], the path already undone. Under learning the bound is a fact
    /// at the root from then on.
    pub(super) fn descend_from_root_under_bound<O: SearchObserver>(
        &mut self,
        observer: &mut O,
    ) -> Result<(), Outcome> {
        let propagated = self.apply_bound().and_then(|()| match self.propagation {
            Propagation::Mac => self.fixpoint(),
            _ => Ok(()),
        });
        if let Err(failure) = propagated {
            // Nothing better exists: the last solution is optimal.
            self.report_failure(failure);
            emit(
                &mut self.stats,
                observer,
                &SearchEvent::DeadEnd { level: 1 },
            )?;
            return Err(self.exhausted());
        }
        match self.expand(observer)? {
            Expanded::Branched => self.descend(observer),
            Expanded::DeadEnd => Err(self.exhausted()),
            Expanded::Solution => Ok(()),
        }
    }

    /// Branch and bound: the objective must beat the best solution so far.
    pub(super) fn apply_bound(&mut self) -> Result<(), Failure> {
        let Some(best) = self.bound() else {
            return Ok(());
        };
        let result = match self.objective {
            Objective::Satisfy => return Ok(()),
            Objective::Minimize(var) => self.store.set_bounds(var, i64::MIN, best - 1),
            Objective::Maximize(var) => self.store.set_bounds(var, best + 1, i64::MAX),
        };
        result.map(drop).map_err(|_| Failure::Domain)
    }

    /// The objective value every node must beat: the best of this search's and the shared one.
    pub(super) fn bound(&self) -> Option<i64> {
        let own = self.best.map(i64::from);
        let shared = self.shared.as_ref().and_then(SharedBound::get);
        match (own, shared) {
            (Some(a), Some(b)) => Some(match self.objective {
                Objective::Maximize(_) => a.max(b),
                _ => a.min(b),
            }),
            (a, b) => a.or(b),
        }
    }
}
