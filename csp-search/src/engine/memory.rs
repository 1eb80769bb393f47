//! The bounds on a search path's memory: the trail beyond its budget forgotten (and the path
//! recomputed from the root when search goes back past it), and the candidate lists of old nodes
//! dropped and listed again on the way back.

use super::frame::{DROPPED, Kind};
use super::search::Search;
use crate::SelectCtx;
use crate::branch::Brancher;

impl<B: Brancher> Search<'_, B> {
    /// Keeps the path's memory within its budgets ([`Search::set_memory_budget`]).
    #[inline]
    pub(super) fn bound_memory(&mut self) {
        if self.learner.is_some() {
            // A learning search's change log is never forgotten, nor its path recomputed: its
            // reasons and levels rest on every entry. Its paths are short, a decision each.
            return;
        }
        if self.store.trail_bytes_since(self.store.trail_floor()) > self.trail_budget {
            self.bound_trail();
        }
        if self.candidates.len() > self.candidate_budget {
            self.bound_candidates();
        }
    }

    /// Keeps the trail within its budget ([`Search::set_memory_budget`]): forgets its oldest entries, keeping about half the
    /// budget. The root state is kept for [`Search::recompute`]: at the start when the domains were
    /// large enough to overflow the budget (see [`Search::start`]), otherwise the first time, by undoing
    /// to the root through the trail (nothing is forgotten yet) and redoing the path. Branch and bound keeps its
    /// whole trail: its nodes are propagated under the bound of their time, which a redo from the root
    /// could not reproduce.
    #[cold]
    fn bound_trail(&mut self) {
        let top = self.frames.len() - 1;
        if top == 0 || self.optimising() {
            return;
        }
        // A redo from the root replays the frames' decisions only, not the last alternatives
        // committed beside them: the trail is forgotten below the lowest such frame at most.
        let committed = self.lowest_commit != u32::MAX;
        if !self.store.has_root_snapshot() {
            if committed {
                return;
            }
            self.store.undo_to(self.model, self.frames[0].checkpoint);
            self.store.snapshot_root();
            self.replay(top);
        }
        let keep = self.trail_budget / 2;
        let mut cut = if committed {
            top.min(self.lowest_commit as usize - 1)
        } else {
            top
        };
        while cut > 0
            && self
                .store
                .trail_bytes_since(self.frames[cut - 1].checkpoint)
                <= keep
        {
            cut -= 1;
        }
        self.store.forget_trail_before(self.frames[cut].checkpoint);
    }

    /// Keeps the candidate stack within its budget ([`Search::set_memory_budget`]): drops the lists of the oldest frames,
    /// keeping about half the budget, if the brancher can list them again.
    #[cold]
    fn bound_candidates(&mut self) {
        if !self.brancher.can_relist() {
            return;
        }
        let keep = self.candidate_budget / 2;
        let total = self.candidates.len();
        let Some(first_kept) = self
            .frames
            .iter()
            .position(|f| f.start != DROPPED && total - f.start <= keep)
        else {
            return;
        };
        let cut = self.frames[first_kept].start;
        self.candidates.drain(..cut);
        for (i, frame) in self.frames.iter_mut().enumerate() {
            if i < first_kept {
                frame.start = DROPPED;
            } else if frame.start != DROPPED {
                // A frame given its first value alone has no list to move.
                frame.start -= cut;
            }
        }
    }

    /// Lists again the choices of the top frame, whose list was dropped; the store is in its state.
    #[cold]
    pub(super) fn relist_top(&mut self) {
        let start = self.candidates.len();
        let top = self.frames.len() - 1;
        let var = self.frames[top].var;
        let ctx = SelectCtx {
            model: self.model,
            store: &self.store,
            propagation: self.propagation,
        };
        self.brancher.relist(var, &ctx, &mut self.candidates);
        debug_assert_eq!(
            self.candidates.len() - start,
            self.frames[top].len as usize,
            "the choices listed again are the same"
        );
        debug_assert!(
            !self.frames[top].first_only || self.candidates[start] == self.frames[top].value,
            "the value tried first heads the list"
        );
        self.frames[top].start = start;
        self.frames[top].first_only = false;
    }

    /// Brings the store to the state of frame `index` (before its child in place) from the root, when
    /// the trail back to it was forgotten: resets to the root and redoes the decisions of the frames
    /// below.
    #[cold]
    pub(super) fn recompute(&mut self, index: usize) {
        self.store.reset_to_root(self.model);
        self.replay(index);
    }

    /// Redoes the decisions of `frames[..count]` (each with its propagation), which all succeeded when
    /// they were first made and, from the same state, succeed again and record the same trail.
    pub(super) fn replay(&mut self, count: usize) {
        for i in 0..count {
            let frame = self.frames[i];
            let decision = frame.current();
            let redone = self
                .apply(decision, frame.kind != Kind::Values)
                .and_then(|()| self.propagate_after(decision, frame.kind != Kind::Values));
            debug_assert!(redone.is_ok(), "a decision that succeeded succeeds again");
            debug_assert_eq!(
                self.store.checkpoint(),
                self.frames[i + 1].checkpoint,
                "the redone path records the same trail"
            );
        }
    }
}
