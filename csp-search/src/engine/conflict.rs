//! What the walk does at a failure under learning ([`crate::Conflicts::Learn`]), and the other
//! steps where a learning search differs from a backtracking one: how a node's decision is made,
//! how the path is cut back (a backjump), and how the search goes on after a solution.
//!
//! Chronological backtracking undoes the failed child and tries the next. A learning search instead
//! asks the learner for the clause the failure teaches and the level where it asserts, pops the
//! path back to that level (the frames are the decision levels), adds the clause, and expands a
//! new node there once the clause's literal is propagated. A frame therefore has one child: its
//! decision's negation, the second child of a binary node, follows from a clause learned below
//! it. Every event is the search's own: a `DeadEnd` for each failure, an `Undo` or `Retract` for
//! each decision a backjump takes back, deepest first.

use super::frame::{Expanded, Failure, Frame, emit, undo_event};
use super::outcome::Outcome;
use super::search::{Search, decision_of};
use crate::branch::{Branch, Brancher, Decision};
use crate::learn::Conflict;
use crate::{SearchEvent, SearchObserver, SelectCtx};
use csp_core::{Literal, Objective};

impl<B: Brancher> Search<'_, B> {
    /// The decision of a new node under learning: the next assumption while any is left, then
    /// the brancher's (search annotations, or value enumeration's first value) while it is their
    /// turn and they have one, else the learner's activity-based one; `None` when every variable
    /// is fixed (a solution). An assumption that is false ends the search: no solution is left
    /// under the assumptions, and the core names those it rests on.
    // Each step here is out of line: the walk of a search without learning, Stone & Stone's LEX
    // among them, keeps only a test of the learner where it calls one.
    #[inline(never)]
    pub(super) fn learning_branch(&mut self) -> Result<Option<Decision>, Outcome> {
        let depth = self.frames.len();
        let Some(assumption) = self.assumption(depth)? else {
            return Ok(self.learning_decision());
        };
        if assumption.status(&self.store) != Some(false) {
            // Already true, it makes a level without a change (MiniSat's dummy level).
            return Ok(Some(decision_of(assumption)));
        }
        let learner = self.learner.as_deref_mut().expect("a learning search");
        let levels = learner.assumption_core(self.model, &self.store, assumption);
        // The caller's assumptions among them, the objective's bound left out: no solution under
        // them beats the bound (an optimum, once there is a solution).
        let mut core: Vec<Literal> = levels
            .into_iter()
            .chain(std::iter::once(depth + 1))
            .filter_map(|level| self.assumptions.get(level - 1).copied())
            .collect();
        core.dedup();
        self.core = Some(core);
        Err(self.exhausted())
    }

    /// The assumption of level `depth + 1`: the caller's, then the objective's bound once there
    /// is one; `None` past them. Nothing can beat a bound at the end of the objective's range:
    /// the search is over.
    fn assumption(&mut self, depth: usize) -> Result<Option<Literal>, Outcome> {
        if let Some(&assumption) = self.assumptions.get(depth) {
            return Ok(Some(assumption));
        }
        if depth > self.assumptions.len() {
            return Ok(None);
        }
        let Some(bound) = self.bound_assumption else {
            return Ok(None);
        };
        let beats = match self.objective {
            Objective::Minimize(var) => i32::try_from(bound - 1).ok().map(|b| Literal::le(var, b)),
            Objective::Maximize(var) => i32::try_from(bound + 1).ok().map(|b| Literal::ge(var, b)),
            Objective::Satisfy => return Ok(None),
        };
        match beats {
            Some(literal) => Ok(Some(literal)),
            None => {
                self.core = Some(self.assumptions.clone());
                Err(self.exhausted())
            }
        }
    }

    /// Under learning, a better bound than the one assumed (this search's solution, or another's
    /// through the shared bound): the search goes back to the caller's assumptions, reported as
    /// a restart, and assumes the new bound next. Called at the top of the walk (the deepest
    /// frame has no child in place) or at a solution (every frame has one).
    #[inline(never)]
    pub(super) fn assume_new_bound<O: SearchObserver>(
        &mut self,
        observer: &mut O,
    ) -> Result<Expanded, Outcome> {
        if self.frames.last().is_some_and(|top| top.next == 0) {
            // A node expanded but not yet tried: it has no child to undo.
            self.frames.pop();
        }
        self.backjump(self.assumptions.len(), observer)?;
        self.bound_assumption = self.bound();
        let count = self.stats.restarts + 1;
        emit(&mut self.stats, observer, &SearchEvent::Restart { count })?;
        self.expand(observer)
    }

    /// [`Search::learning_branch`] once the assumptions are made.
    fn learning_decision(&mut self) -> Option<Decision> {
        let learner = self.learner.as_deref_mut().expect("a learning search");
        if learner.annotated_turn() {
            let start = self.candidates.len();
            let ctx = SelectCtx {
                model: self.model,
                store: &self.store,
                propagation: self.propagation,
            };
            let branch = self.brancher.branch(&ctx, &mut self.candidates);
            let first = self.candidates.get(start).copied();
            self.candidates.truncate(start);
            match branch {
                Some(Branch::Binary(decision)) => return Some(decision),
                // A value node's first value is its decision; the others follow by learning.
                Some(Branch::Values(var)) if first.is_some() => {
                    return first.map(|value| Decision::Assign(var, value));
                }
                _ => {}
            }
        }
        learner.decide(&self.store)
    }

    /// Learns from `failure`, the failure of the newest decision's propagation (reported and
    /// counted already), and goes on: the path is cut back to where the clause learned asserts,
    /// the clause added and propagated, and, if that fails too, learned from again, until a new
    /// node is expanded ([`Expanded::Branched`], or a solution) or the failure holds at the root
    /// (the tree is exhausted).
    #[inline(never)]
    pub(super) fn learn<O: SearchObserver>(
        &mut self,
        mut failure: Failure,
        observer: &mut O,
    ) -> Result<Expanded, Outcome> {
        loop {
            let conflict = match failure {
                Failure::Constraint(c) => Conflict::Constraint(c),
                Failure::Clause(id) => Conflict::Clause(id),
                Failure::Domain => {
                    // A decision is made on an open variable, and the bound only at the root: a
                    // domain cannot fail by itself below it. Stopping is safe; going on is not.
                    debug_assert!(false, "a domain failed below the root under learning");
                    return Err(Outcome::Stopped);
                }
            };
            let learner = self.learner.as_deref_mut().expect("a learning search");
            debug_assert_eq!(learner.depth(), self.frames.len());
            let (entries, highest) =
                learner.conflict_entries(self.model, &mut self.store, conflict);
            if highest == 0 {
                // The failure holds whatever is assumed.
                self.core = Some(Vec::new());
                return Err(self.exhausted());
            }
            // The failure may rest on lower levels only (a propagator that saw it late): it is
            // analysed at the highest level it involves.
            self.backjump(highest, observer)?;
            let learner = self.learner.as_deref_mut().expect("a learning search");
            let (literals, jump, lbd) = learner.analyse(self.model, &self.store, entries);
            self.stats.learned_clauses += 1;
            self.stats.learned_literals += literals.len() as u64;
            self.backjump(jump, observer)?;
            let learner = self.learner.as_deref_mut().expect("a learning search");
            learner.learn(&mut self.store, literals, lbd);
            learner.after_conflict(&self.store);
            self.stats.explanation_fallbacks = learner.fallbacks();
            match self.fixpoint() {
                Ok(()) => return self.expand(observer),
                Err(next) => {
                    self.report_failure(next);
                    let level = self.frames.len() as u32 + 1;
                    emit(&mut self.stats, observer, &SearchEvent::DeadEnd { level })?;
                    failure = next;
                }
            }
        }
    }

    /// Takes back every decision above `level` (the number of decisions kept), newest first, each
    /// reported as an `Undo` or `Retract` and counted as a backtrack; every frame has its child in
    /// place (at a failure or a solution). Refused, with nothing undone, if the backtrack limit
    /// does not allow them all.
    #[inline(never)]
    pub(super) fn backjump<O: SearchObserver>(
        &mut self,
        level: usize,
        observer: &mut O,
    ) -> Result<(), Outcome> {
        let depth = self.frames.len();
        if level >= depth {
            return Ok(());
        }
        if self
            .limits
            .backtracks
            .is_some_and(|max| self.stats.backtracks + (depth - level) as u64 > max)
        {
            return Err(Outcome::LimitReached(crate::Limit::Backtracks));
        }
        let checkpoint = self.frames[level].checkpoint;
        let mut reported = Ok(());
        for frame in self.frames[level..].iter().rev() {
            if reported.is_ok() {
                reported = emit(&mut self.stats, observer, &undo_event(frame));
            }
        }
        self.store.undo_to(self.model, checkpoint);
        self.frames.truncate(level);
        // Binary nodes stack no candidates.
        self.candidates.clear();
        if let Some(learner) = &mut self.learner {
            learner.backjump(level, &self.store);
        }
        reported
    }

    /// Goes on from a solution under learning. Under an objective, back to the root, where the
    /// better bound becomes a fact. Otherwise the solution is excluded by a clause (its decisions,
    /// negated), and search goes on below the newest decision, whose negation the clause asserts.
    #[inline(never)]
    pub(super) fn after_learning_solution<O: SearchObserver>(
        &mut self,
        observer: &mut O,
    ) -> Result<(), Outcome> {
        if self.optimising() {
            return match self.assume_new_bound(observer)? {
                Expanded::Solution => Ok(()),
                Expanded::Branched | Expanded::DeadEnd => self.descend(observer),
            };
        }
        let depth = self.frames.len();
        if depth == 0 {
            // A solution at the root is the only one.
            return Err(self.exhausted());
        }
        if depth <= self.assumptions.len() {
            // The assumptions alone made the solution: under them there is no other.
            self.core = Some(self.assumptions[..depth].to_vec());
            return Err(self.exhausted());
        }
        let decisions: Vec<Decision> = self.frames.iter().map(Frame::current).collect();
        let learner = self.learner.as_deref_mut().expect("a learning search");
        let Some((literals, jump)) = learner.blocking_clause(&self.store, &decisions) else {
            return Err(self.exhausted());
        };
        self.backjump(jump, observer)?;
        let learner = self.learner.as_deref_mut().expect("a learning search");
        learner.block(&mut self.store, literals);
        let expanded = match self.fixpoint() {
            Ok(()) => self.expand(observer)?,
            Err(failure) => {
                self.report_failure(failure);
                let level = self.frames.len() as u32 + 1;
                emit(&mut self.stats, observer, &SearchEvent::DeadEnd { level })?;
                self.learn(failure, observer)?
            }
        };
        match expanded {
            Expanded::Solution => Ok(()),
            Expanded::Branched | Expanded::DeadEnd => self.descend(observer),
        }
    }
}
