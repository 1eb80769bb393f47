//! The depth-first walk: starting at the root, expanding a node (asking the brancher how it
//! branches), trying its children one after another, and reporting solutions.

use std::time::Instant;

use super::frame::{DROPPED, Expanded, Failure, Frame, Kind, State, emit, undo_event};
use super::outcome::Outcome;
use super::search::{COMPACT_MIN_ENTRIES, RESTART_SNAPSHOT_RATIO, Search};
use crate::branch::{Branch, Brancher, Decision};
use crate::learn::Conflict;
use crate::{Propagation, SearchEvent, SearchObserver, SelectCtx, StopFlag};

impl<B: Brancher> Search<'_, B> {
    /// Runs until the solution limit, the end of the tree (under optimisation, the proven optimum), a
    /// limit, or an observer's stop.
    pub fn run<O: SearchObserver>(&mut self, observer: &mut O) -> Outcome {
        loop {
            if self.next_solution(observer).is_none() {
                return self
                    .outcome()
                    .expect("a search that found no more solutions is over");
            }
            if self
                .limits
                .solutions
                .is_some_and(|limit| self.stats.solutions >= limit)
            {
                let outcome = Outcome::LimitReached(crate::Limit::Solutions);
                self.finish(outcome);
                return outcome;
            }
            if !self.optimising()
                && self
                    .solution_limit
                    .is_some_and(|limit| self.stats.solutions >= limit)
            {
                self.finish(Outcome::Solved);
                return Outcome::Solved;
            }
        }
    }

    /// Walks on to the next solution and returns it (`values[i]` for variable `i`), or `None` when the
    /// search is over (see [`Search::outcome`]). Ignores the solution limit.
    pub fn next_solution<O: SearchObserver>(&mut self, observer: &mut O) -> Option<&[i32]> {
        self.call_started = Instant::now();
        let step = match self.state {
            State::Done(_) => return None,
            State::Fresh => self.start(observer),
            State::AtSolution => {
                self.state = State::Running;
                if self.learner.is_some() {
                    self.after_learning_solution(observer)
                } else if self.frames.is_empty() {
                    // A solution at the root (every variable fixed before any decision, or a model
                    // without variables) is the only one.
                    Err(self.exhausted())
                } else if self.path_too_deep() {
                    self.restart_with_bound(observer)
                } else {
                    let frame = *self.frames.last().expect("checked above");
                    match self.undo(&frame, observer) {
                        Ok(()) => self.descend(observer),
                        Err(outcome) => Err(outcome),
                    }
                }
            }
            State::Running => self.descend(observer),
        };
        self.elapsed += self.call_started.elapsed();
        match step {
            Ok(()) => {
                self.state = State::AtSolution;
                Some(&self.solution)
            }
            Err(outcome) => {
                self.finish(outcome);
                None
            }
        }
    }

    /// Propagates the root and expands it. `Ok` means a solution was reached at the root.
    fn start<O: SearchObserver>(&mut self, observer: &mut O) -> Result<(), Outcome> {
        self.state = State::Running;
        if let Some(learner) = &mut self.learner {
            learner.start(&mut self.store);
        }
        let restricted = self.restrict_at_root();
        let propagated = restricted.and_then(|()| match self.propagation {
            Propagation::Mac => self
                .store
                .establish_arc_consistency(self.model)
                .map_err(Failure::Constraint)
                .and_then(|()| self.fixpoint()),
            _ => Ok(()),
        });
        if let Err(failure) = propagated {
            // Propagation at the root already proves that there is no solution (or none that the
            // root's restrictions and the shared bound allow).
            self.report_failure(failure);
            emit(
                &mut self.stats,
                observer,
                &SearchEvent::DeadEnd { level: 1 },
            )?;
            return Err(Outcome::Exhausted);
        }
        if self.learner.is_some() {
            // A learning search's log is never forgotten, and its root is never copied back.
            return match self.expand(observer)? {
                Expanded::Branched => self.descend(observer),
                Expanded::DeadEnd => Err(Outcome::Exhausted),
                Expanded::Solution => Ok(()),
            };
        }
        if super::search::store_may_keep_lines(self.propagation, &self.brancher) {
            // A rows-and-lines constraint (N-queens' counters) forward checks in the store, with
            // a bit per occupied line instead of a trailed removal per value: the same search, cheaper.
            self.store.keep_lines(self.model);
        }
        let trail_bound = self.store.removal_trail_bound();
        if !self.optimising()
            && !self.store.has_root_snapshot()
            && (trail_bound > self.trail_budget as u64
                || (self.restarts.is_some()
                    && trail_bound > RESTART_SNAPSHOT_RATIO * self.store.snapshot_bytes() as u64))
        {
            // The path may outgrow the trail's budget, and forgetting needs the root state: kept now
            // it is a copy, where keeping it later means undoing the path to the root and redoing it.
            // Under restarts it is also kept when a deep path's trail could be many times the copy:
            // each restart then copies the root back instead of undoing the path value by value
            // (`unwind_to_root`).
            self.store.snapshot_root();
        }
        match self.expand(observer)? {
            Expanded::Branched => self.descend(observer),
            // The root itself is a dead end.
            Expanded::DeadEnd => Err(Outcome::Exhausted),
            Expanded::Solution => Ok(()),
        }
    }

    /// The root's fixings and the shared bound, before the root is propagated (under learning,
    /// the bound is assumed instead, see `Search::bound_assumption`).
    fn restrict_at_root(&mut self) -> Result<(), Failure> {
        for i in 0..self.root_decisions.len() {
            self.root_decisions[i]
                .restrict(&mut self.store)
                .map_err(|_| Failure::Domain)?;
        }
        if self.learner.is_some() {
            self.bound_assumption = self.bound();
            return Ok(());
        }
        self.apply_bound()
    }

    /// Asks the brancher how the current node branches: stacks its children, or reports the solution
    /// it is.
    pub(super) fn expand<O: SearchObserver>(
        &mut self,
        observer: &mut O,
    ) -> Result<Expanded, Outcome> {
        let level = self.frames.len() as u32 + 1;
        let start = self.candidates.len();
        let branched = if self.learner.is_some() {
            self.learning_branch()?
                .map(|decision| (Branch::Binary(decision), None))
        } else {
            let ctx = SelectCtx {
                model: self.model,
                store: &self.store,
                propagation: self.propagation,
            };
            self.brancher.branch_first(&ctx, &mut self.candidates)
        };
        let Some((branch, first_of)) = branched else {
            self.report_solution(level, observer)?;
            return Ok(Expanded::Solution);
        };
        let mut first_only = false;
        // The node's branching factor: a binary node's children are its decision and the
        // negation, which under learning follows from what is learned below the first.
        let mut choices = None;
        let (var, len, kind, value) = match branch {
            Branch::Values(var) => {
                debug_assert!(
                    !self.store.is_assigned(var),
                    "the brancher chose an assigned variable"
                );
                match first_of {
                    Some(len) => {
                        debug_assert!(self.brancher.can_relist() && len > 0);
                        // The first value alone: kept in the frame, not on the candidate stack.
                        let first = self.candidates.pop().expect("the first value");
                        debug_assert_eq!(self.candidates.len(), start);
                        first_only = true;
                        (var, len as usize, Kind::Values, first)
                    }
                    None => (var, self.candidates.len() - start, Kind::Values, 0),
                }
            }
            Branch::Binary(decision) => {
                self.candidates.truncate(start);
                let children: u32 = if decision.negation().is_some() { 2 } else { 1 };
                choices = Some(children);
                let len = if self.learner.is_some() {
                    1
                } else {
                    children as usize
                };
                let (kind, var, value) = match decision {
                    Decision::Assign(var, value) => (Kind::Assign, var, value),
                    Decision::Exclude(var, value) => (Kind::Exclude, var, value),
                    Decision::AtMost(var, value) => (Kind::AtMost, var, value),
                    Decision::AtLeast(var, value) => (Kind::AtLeast, var, value),
                };
                (var, len, kind, value)
            }
        };
        emit(
            &mut self.stats,
            observer,
            &SearchEvent::Enter {
                level,
                var,
                choices: choices.unwrap_or(len as u32),
            },
        )?;
        if len == 0 {
            emit(&mut self.stats, observer, &SearchEvent::DeadEnd { level })?;
            return Ok(Expanded::DeadEnd);
        }
        self.frames.push(Frame {
            var,
            level,
            start: if first_only { DROPPED } else { start },
            len: len as u32,
            next: 0,
            value,
            kind,
            first_only,
            checkpoint: self.store.checkpoint(),
        });
        // Looked at every sixteenth node: a path grows by a node at a time, and the check would be a
        // few percent of a LEX node.
        if self.stats.nodes.is_multiple_of(16) {
            self.bound_memory();
        }
        Ok(Expanded::Branched)
    }

    /// Reports the solution at the current node, keeps it, and tightens the objective's bound.
    fn report_solution<O: SearchObserver>(
        &mut self,
        level: u32,
        observer: &mut O,
    ) -> Result<(), Outcome> {
        if self.store.num_assigned() < self.model.num_vars() {
            // Search by decisions ends with every variable fixed, not assigned.
            debug_assert!(
                self.store.all_fixed(),
                "the brancher ended with a variable unfixed"
            );
            self.store.record_fixed_values();
            // The solution buffer doubles as the checker's scratch space here: it is refilled below.
            debug_assert_eq!(
                self.model
                    .violated_constraint(self.store.values(), &mut self.solution),
                None,
                "propagation accepted a non-solution: a propagator is not checker-complete"
            );
        }
        let values = self.store.values();
        let objective = self.objective.var().map(|var| values[var.index()]);
        if let Some(value) = objective {
            self.best = objective;
            self.bounding = true;
            if let Some(shared) = &self.shared {
                shared.offer_solution(i64::from(value), values);
            }
        }
        if let Some(learner) = &mut self.learner {
            learner.on_solution(values);
        }
        self.solution.clear();
        self.solution.extend_from_slice(values);
        let event = SearchEvent::Solution {
            level,
            values,
            objective,
        };
        emit(&mut self.stats, observer, &event)
    }

    /// The depth-first loop: tries the next child of the deepest frame, going down on success and up
    /// when a frame runs out. Returns `Ok` at a solution.
    pub(super) fn descend<O: SearchObserver>(&mut self, observer: &mut O) -> Result<(), Outcome> {
        loop {
            let Some(frame) = self.frames.last_mut() else {
                return Err(self.exhausted());
            };
            if frame.next == frame.len {
                // This node is finished: drop it and undo the decision that created it.
                let start = frame.start;
                self.frames.pop();
                self.candidates.truncate(start);
                match self.frames.last() {
                    Some(&parent) => self.undo(&parent, observer)?,
                    None => return Err(self.exhausted()),
                }
                continue;
            }
            if self.limits.nodes.is_some_and(|max| self.stats.nodes >= max) {
                return Err(Outcome::LimitReached(crate::Limit::Nodes));
            }
            if self.stats.nodes >= self.restart_at {
                match self.at_restart_point(observer)? {
                    Some(true) => return Ok(()),
                    Some(false) => continue,
                    None => {}
                }
            }
            if self.stats.nodes.is_multiple_of(self.clock_interval) {
                if self.stop.as_ref().is_some_and(StopFlag::is_stopped) {
                    return Err(Outcome::Stopped);
                }
                if let Some(max) = self.limits.time
                    && self.elapsed + self.call_started.elapsed() >= max
                {
                    return Err(Outcome::LimitReached(crate::Limit::Time));
                }
            }
            let frame = self.frames.last_mut().expect("the top frame");
            // A frame given its first value alone has it in place already.
            if frame.kind == Kind::Values && !(frame.first_only && frame.next == 0) {
                if frame.start == DROPPED {
                    self.relist_top();
                }
                let frame = self.frames.last_mut().expect("the top frame");
                frame.value = self.candidates[frame.start + frame.next as usize];
            }
            let frame = self.frames.last_mut().expect("the top frame");
            frame.next += 1;
            frame.checkpoint = self.store.checkpoint();
            let frame = *frame;
            if frame.kind != Kind::Values
                && frame.next == frame.len
                && self.frames.len() > 1
                && !self.optimising()
                && self.learner.is_none()
            {
                match self.commit_last(frame, observer)? {
                    Expanded::Branched => continue,
                    Expanded::DeadEnd => {
                        let parent = *self.frames.last().expect("a frame below the committed one");
                        self.undo(&parent, observer)?;
                        continue;
                    }
                    Expanded::Solution => return Ok(()),
                }
            }
            let decision = frame.current();
            let level = frame.level + 1;
            // Value enumeration never learns (a learning search's nodes are binary).
            if frame.kind != Kind::Values
                && let Some(learner) = &mut self.learner
            {
                learner.new_level(&self.store);
            }
            let applied = self.apply(decision, frame.kind != Kind::Values);
            let event = match decision {
                Decision::Assign(var, value) => SearchEvent::Assign { level, var, value },
                _ => SearchEvent::Decide { level, decision },
            };
            emit(&mut self.stats, observer, &event)?;
            if let Err(failure) =
                applied.and_then(|()| self.propagate_after(decision, frame.kind != Kind::Values))
            {
                self.report_failure(failure);
                emit(&mut self.stats, observer, &SearchEvent::DeadEnd { level })?;
                if self.learner.is_some() {
                    match self.learn(failure, observer)? {
                        Expanded::Solution => return Ok(()),
                        Expanded::Branched | Expanded::DeadEnd => continue,
                    }
                }
                self.undo(&frame, observer)?;
                continue;
            }
            match self.expand(observer)? {
                Expanded::Branched => {}
                Expanded::DeadEnd => self.undo(&frame, observer)?,
                Expanded::Solution => return Ok(()),
            }
        }
    }

    /// Takes the last alternative of a binary node in place of the node (Gecode's last-alternative
    /// optimisation): `frame`, whose last child this is, leaves the path, and the decision joins the
    /// child in place of the frame below, so that backtracking goes straight to the nearest node with
    /// an alternative left. The node is made and reported as any other (a `Decide` at `frame`'s
    /// level plus one), and the node it leads to is expanded at `frame`'s level, in its place: the
    /// path and the statistics' levels count open choices, so a walk through a long run of negated
    /// decisions (every value of a wide domain, one solution each) keeps a short path instead of
    /// one frame per value. Nothing is retracted on the way back: the undo of the frame below takes
    /// the committed decision with it. Value enumeration never commits, nor does the bottom frame,
    /// so that a restart still finds the root as it was, nor branch and bound, whose path length
    /// after a solution decides whether it goes on from the root under the new bound (see
    /// `DEEP_PATH_PER_VAR`) and whose trail is never forgotten.
    fn commit_last<O: SearchObserver>(
        &mut self,
        frame: Frame,
        observer: &mut O,
    ) -> Result<Expanded, Outcome> {
        self.frames.pop();
        self.candidates.truncate(frame.start);
        let parent_level = frame.level - 1;
        self.lowest_commit = self.lowest_commit.min(parent_level);
        self.stats.committed += 1;
        let decision = frame.current();
        let level = frame.level + 1;
        let applied = self.apply(decision, true);
        let event = match decision {
            Decision::Assign(var, value) => SearchEvent::Assign { level, var, value },
            _ => SearchEvent::Decide { level, decision },
        };
        emit(&mut self.stats, observer, &event)?;
        if let Err(failure) = applied.and_then(|()| self.propagate_after(decision, true)) {
            self.report_failure(failure);
            emit(&mut self.stats, observer, &SearchEvent::DeadEnd { level })?;
            return Ok(Expanded::DeadEnd);
        }
        // The committed decisions pile up in one child with no checkpoint between them: their
        // trail is compacted whenever it has doubled, so that it stays the size of the model.
        let since = self.frames.last().expect("a frame below").checkpoint;
        let entries = self.store.checkpoint().entries() - since.entries();
        if entries > self.compact_at {
            self.store.compact_trail_since(since);
            let kept = self.store.checkpoint().entries() - since.entries();
            self.compact_at = (2 * kept).max(COMPACT_MIN_ENTRIES);
        }
        self.expand(observer)
    }

    /// Makes the decision in the store. Under check-past a binary node's assignment must pass
    /// Dijkstra's test (value enumeration filtered its choices already).
    #[inline(always)]
    pub(super) fn apply(&mut self, decision: Decision, binary: bool) -> Result<(), Failure> {
        let changed = match decision {
            Decision::Assign(var, value) => {
                if binary && self.store.is_assigned(var) {
                    // An assumption that an earlier one made true already.
                    return if self.store.value(var) == Some(value) {
                        Ok(())
                    } else {
                        Err(Failure::Domain)
                    };
                }
                if binary
                    && (!self.store.domain(var).contains(value)
                        || (self.propagation == Propagation::CheckPast
                            && !self.store.is_consistent(self.model, var, value)))
                {
                    return Err(Failure::Domain);
                }
                self.store.assign(self.model, var, value);
                return Ok(());
            }
            // A bound excluded is a bound change: one trail entry that compacts with the next
            // (see `commit_last`), where a removal stays one entry per value excluded.
            Decision::Exclude(var, value) if Some(value) == self.store.domain(var).min() => {
                self.store.set_bounds(var, i64::from(value) + 1, i64::MAX)
            }
            Decision::Exclude(var, value) if Some(value) == self.store.domain(var).max() => {
                self.store.set_bounds(var, i64::MIN, i64::from(value) - 1)
            }
            Decision::Exclude(var, value) => self.store.remove_value(var, value),
            Decision::AtMost(var, bound) => self.store.set_bounds(var, i64::MIN, i64::from(bound)),
            Decision::AtLeast(var, bound) => self.store.set_bounds(var, i64::from(bound), i64::MAX),
        };
        changed.map(drop).map_err(|_| Failure::Domain)
    }

    /// The propagation that follows a decision: none under check-past (its test runs when choices are
    /// counted); forward checking of an assignment; under MAC, forward checking of an assignment made
    /// by value enumeration and then the fixpoint of every woken constraint. Under optimisation the
    /// objective's bound comes first.
    ///
    /// A `binary` node's assignment (search by decisions) goes straight to the fixpoint: every
    /// revision prunes at least what forward checking would, so the forward-checking pass would only
    /// repeat work (a scan of every tuple of a table, every term of a sum). Value enumeration keeps
    /// it, so that MAC means what the Stone & Stone experiments measured.
    #[inline(always)]
    pub(super) fn propagate_after(
        &mut self,
        decision: Decision,
        binary: bool,
    ) -> Result<(), Failure> {
        // Under learning the bound is an assumption (see `Search::bound_assumption`): made at a
        // node, it would be a second decision of the node's level, which analysis cannot trace.
        if self.bounding && self.learner.is_none() {
            self.apply_bound()?;
        }
        match (self.propagation, decision) {
            (Propagation::CheckPast, _) => Ok(()),
            (Propagation::ForwardChecking, Decision::Assign(var, _)) => self
                .store
                .forward_check(self.model, var)
                .map_err(Failure::Constraint),
            (Propagation::ForwardChecking, _) => Ok(()),
            (Propagation::Mac, Decision::Assign(var, _)) if !binary => self
                .store
                .maintain_arc_consistency(self.model, var)
                .map_err(Failure::Constraint),
            (Propagation::Mac, _) => self.fixpoint(),
        }
    }

    /// Propagation to a fixpoint: of the constraints, and under learning of the learned clauses
    /// with them.
    #[inline]
    pub(super) fn fixpoint(&mut self) -> Result<(), Failure> {
        match &mut self.learner {
            None => self
                .store
                .propagate(self.model)
                .map_err(Failure::Constraint),
            Some(learner) => learner
                .propagate(self.model, &mut self.store)
                .map_err(|conflict| match conflict {
                    Conflict::Constraint(c) => Failure::Constraint(c),
                    Conflict::Clause(id) => Failure::Clause(id),
                }),
        }
    }

    /// Tells the brancher which constraint failed, if one did.
    pub(super) fn report_failure(&mut self, failure: Failure) {
        if let Failure::Constraint(constraint) = failure {
            let ctx = SelectCtx {
                model: self.model,
                store: &self.store,
                propagation: self.propagation,
            };
            self.brancher.on_wipeout(constraint, &ctx);
        }
    }

    /// Undoes the child of `frame` in place (a backtrack), unless the backtrack limit forbids it.
    /// `frame` is the top of the path, or was just popped from it (a restart, which returns to the
    /// root anyway).
    #[inline(always)]
    pub(super) fn undo<O: SearchObserver>(
        &mut self,
        frame: &Frame,
        observer: &mut O,
    ) -> Result<(), Outcome> {
        // Checked before undoing, so that a limit of k allows exactly k backtracks (0 allows none).
        if self
            .limits
            .backtracks
            .is_some_and(|max| self.stats.backtracks >= max)
        {
            return Err(Outcome::LimitReached(crate::Limit::Backtracks));
        }
        if self.store.is_forgotten(frame.checkpoint) {
            match self.frames.iter().rposition(|f| f.level == frame.level) {
                Some(index) => self.recompute(index),
                // Popped: a restart, bound for the root.
                None => self.store.reset_to_root(self.model),
            }
        } else {
            self.store.undo_to(self.model, frame.checkpoint);
        }
        if frame.kind != Kind::Values
            && let Some(learner) = &mut self.learner
        {
            learner.backjump(frame.level as usize - 1, &self.store);
        }
        if self.lowest_commit >= frame.level {
            // The child undone held every committed decision at or above its level.
            self.lowest_commit = u32::MAX;
            self.compact_at = COMPACT_MIN_ENTRIES;
        }
        emit(&mut self.stats, observer, &undo_event(frame))
    }
}
