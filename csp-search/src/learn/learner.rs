//! The learner: what a learning search keeps beside the one search's path (its clauses, its
//! decision levels on the store's change log, the activities it branches by and the scratch space
//! of conflict analysis), and the hooks the search calls at a decision, at a failure, at an undo,
//! at a restart and at a solution.

use csp_core::Domains;
use std::collections::VecDeque;

use csp_core::{Literal, LiteralRelation, Model, PropagationFailure, Store};

use super::activity::Activity;
use super::clauses::ClauseDb;
use super::scratch::Minimise;
use crate::config::luby;
use crate::{Decision, Learning, LearningRestarts};

/// How many of the latest conflicts Glucose's restarts average over.
const LBD_WINDOW: usize = 50;

/// A reason not computed yet ([`Learner::reason_of`]).
pub(super) const NOT_CACHED: u32 = u32::MAX;

/// The fewest words of cached reasons that are ever dropped at once.
const REASON_CACHE_WORDS: usize = 1 << 20;

/// What failed under learning.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Conflict {
    /// A constraint's propagator.
    Constraint(csp_core::ConstraintId),
    /// A clause with every literal false.
    Clause(u32),
}

/// Learning from failure beside a search (see the module documentation of [`super`]).
#[derive(Debug)]
pub(crate) struct Learner {
    pub(super) clauses: ClauseDb,
    /// Where each decision level's entries start on the store's change log: level `k` (from 1)
    /// starts at `levels[k - 1]`, the log position before its decision.
    pub(super) levels: Vec<usize>,
    pub(super) activity: Activity,
    /// Scratch for conflict analysis: which log entries are in the clause being built.
    pub(super) seen: Vec<bool>,
    /// Scratch for clause minimisation.
    pub(super) minimise: Minimise,
    /// The reasons of log entries computed so far, by entry: where each lies in `reason_data`,
    /// or [`NOT_CACHED`]. One array for them all, so that caching a reason allocates nothing.
    pub(super) reason_of: Vec<(u32, u32)>,
    pub(super) reason_data: Vec<u32>,
    /// Scratch for a constraint's explanation, kept so that each explanation does not allocate
    /// its own.
    pub(super) explanation: Vec<Literal>,
    /// Scratch for counting the decision levels a clause spans: a stamp per level.
    pub(super) level_marks: Vec<u32>,
    pub(super) level_stamp: u32,
    /// The decision level of each log entry up to some point: clause minimisation asks for the
    /// levels of many entries, each a binary search otherwise.
    pub(super) entry_levels: Vec<u32>,
    /// How many changes and failures were explained by the domains of a constraint's whole scope,
    /// because the constraint gave no explanation of its own: the count that says where learning
    /// is weakest (a cell, as reasons are computed behind shared references).
    pub(super) fallbacks: std::cell::Cell<u64>,
    /// Conflicts since the last restart, and the number of the current restart run (from 1).
    conflicts_since_restart: u64,
    restart_run: u64,
    restarts: LearningRestarts,
    /// For Glucose's restarts: the literal block distances of the latest conflicts (at most
    /// [`LBD_WINDOW`]) and their sum, and the sum and count over all conflicts.
    recent_lbd: VecDeque<u32>,
    recent_sum: u64,
    total_lbd: u64,
    total_conflicts: u64,
    /// Whether the search follows annotated decisions (a brancher's) before activity.
    annotated: bool,
    /// Whether restarts alternate between the annotated decisions and activity.
    alternate: bool,
    /// How strongly the propagators propagate while it learns.
    profile: csp_core::PropagationProfile,
    /// Whether the current restart run follows the annotated decisions.
    annotated_turn: bool,
    /// In tests, the model's solutions not found yet: no clause may exclude one.
    #[cfg(test)]
    pub(super) oracle: Vec<Vec<i32>>,
}

impl Learner {
    /// How many explanations so far fell back on the domains of a constraint's scope.
    pub(crate) fn fallbacks(&self) -> u64 {
        self.fallbacks.get()
    }

    /// A learner for `model` as `learning` says, activity ties broken by `seed`; `annotated` when
    /// the search has annotated decisions to follow.
    pub(crate) fn new(model: &Model, learning: &Learning, seed: u64, annotated: bool) -> Self {
        Learner {
            clauses: ClauseDb::new(model),
            levels: Vec::new(),
            activity: Activity::new(model, seed, &learning.first),
            seen: Vec::new(),
            minimise: Minimise::default(),
            reason_of: Vec::new(),
            reason_data: Vec::new(),
            explanation: Vec::new(),
            entry_levels: Vec::new(),
            fallbacks: std::cell::Cell::new(0),
            level_marks: Vec::new(),
            level_stamp: 0,
            conflicts_since_restart: 0,
            restart_run: 1,
            restarts: learning.restarts,
            recent_lbd: VecDeque::with_capacity(LBD_WINDOW),
            recent_sum: 0,
            total_lbd: 0,
            total_conflicts: 0,
            annotated,
            alternate: learning.alternate,
            profile: learning.profile,
            annotated_turn: annotated,
            #[cfg(test)]
            oracle: Vec::new(),
        }
    }

    /// Before the root is propagated: every change from now on is logged with its cause, under
    /// the learning's propagation profile.
    pub(crate) fn start(&mut self, store: &mut Store) {
        store.enable_change_log();
        store.set_profile(self.profile);
        self.clauses.start(store);
    }

    /// Propagation to a fixpoint of the constraints and the clauses together, the clauses first
    /// (before every propagator's revision, as a propagator of the highest priority).
    pub(crate) fn propagate(&mut self, model: &Model, store: &mut Store) -> Result<(), Conflict> {
        let clauses = &mut self.clauses;
        store
            .propagate_with(model, |store| clauses.propagate(store))
            .map_err(|failure| match failure {
                PropagationFailure::Constraint(c) => Conflict::Constraint(c),
                PropagationFailure::First(id) => Conflict::Clause(id),
            })
    }

    /// A decision is about to be made: a new level starts at the log's end.
    pub(crate) fn new_level(&mut self, store: &Store) {
        self.levels.push(store.change_log().len());
    }

    /// How many decision levels are open.
    pub(crate) fn depth(&self) -> usize {
        self.levels.len()
    }

    /// The search undid every decision above `level`; the store's log is cut back with them.
    #[inline(never)]
    pub(crate) fn backjump(&mut self, level: usize, store: &Store) {
        self.levels.truncate(level);
        self.activity.backjump(level);
        let len = store.change_log().len();
        self.clauses.backjump(len);
        self.reason_of.truncate(len);
        // The cache of the entries undone stays in `reason_data` (reasons are stored in the order
        // they are asked for, not by entry); once it outgrows the log many times, it is dropped
        // whole and the reasons still needed are computed again.
        if self.reason_data.len() > REASON_CACHE_WORDS.max(16 * len) {
            self.reason_data.clear();
            self.reason_of.clear();
        }
        self.entry_levels.truncate(len);
    }

    /// Whether the annotated decisions, rather than activity, decide now.
    pub(crate) fn annotated_turn(&self) -> bool {
        self.annotated_turn
    }

    /// The activity-based decision (see [`super::activity`]), or `None` when every variable is
    /// fixed.
    pub(crate) fn decide(&mut self, store: &Store) -> Option<Decision> {
        self.activity.decide(store, self.levels.len())
    }

    /// Whether the current restart run has had its conflicts. Following annotated decisions
    /// without alternating, the search never restarts: it explores their tree once.
    pub(crate) fn restart_due(&self) -> bool {
        if self.annotated && !self.alternate {
            return false;
        }
        match self.restarts {
            LearningRestarts::Never => false,
            LearningRestarts::Luby { base } => {
                self.conflicts_since_restart >= base.max(1).saturating_mul(luby(self.restart_run))
            }
            LearningRestarts::Glucose => {
                self.recent_lbd.len() == LBD_WINDOW
                    && 5 * self.recent_sum * self.total_conflicts
                        > 4 * self.total_lbd * LBD_WINDOW as u64
            }
        }
    }

    /// A restart happened: the next run begins, with the other way of deciding if they alternate.
    pub(crate) fn on_restart(&mut self) {
        self.conflicts_since_restart = 0;
        self.recent_lbd.clear();
        self.recent_sum = 0;
        self.restart_run += 1;
        if self.annotated && self.alternate {
            self.annotated_turn = !self.annotated_turn;
        }
    }

    /// A solution was found: its values become the saved phases, so that search returns near it.
    pub(crate) fn on_solution(&mut self, values: &[i32]) {
        self.activity.save_solution(values);
        #[cfg(test)]
        self.oracle.retain(|solution| solution != values);
    }

    /// The clause that excludes a satisfaction problem's solution reached by `decisions` (oldest
    /// first): the decisions, negated, newest first, but those that can never hold (an assumption
    /// the initial domains made true already), with the level the search must jump back to for
    /// it to assert its first literal: the newest level among the others, or the root. `None` when
    /// it has no literal left: no other solution exists.
    ///
    /// A decision that held already when it was made (value enumeration assigns a variable that
    /// propagation fixed) is left out too: the decisions before it imply it, so the clause
    /// without it excludes the same solutions, and with it the clause's first literal would be
    /// false at the level it is asserted at, so that no literal is asserted and the search finds
    /// the same solution again.
    pub(crate) fn blocking_clause(
        &mut self,
        store: &Store,
        decisions: &[Decision],
    ) -> Option<(Vec<Literal>, usize)> {
        let mut literals = Vec::with_capacity(decisions.len());
        let mut jump = None;
        for (level, &decision) in decisions.iter().enumerate().rev() {
            let literal = literal_of(decision).negate();
            if self.clauses.constant(literal) == Some(false) {
                continue;
            }
            if let Some(&start) = self.levels.get(level)
                && held_before(store, literal.negate(), start)
            {
                continue;
            }
            if !literals.is_empty() && jump.is_none() {
                jump = Some(level + 1);
            }
            literals.push(literal);
        }
        if literals.is_empty() {
            return None;
        }
        Some((literals, jump.unwrap_or(0)))
    }

    /// Adds a clause [`Learner::blocking_clause`] made, once the search has jumped back, and
    /// asserts its first literal. It is kept for good: no other solution falsifies it, but the
    /// constraints do not imply it.
    pub(crate) fn block(&mut self, store: &mut Store, literals: Vec<Literal>) {
        #[cfg(test)]
        self.check_against_oracle(&literals);
        self.clauses.add(store, &literals, None);
    }

    /// Counts the literal block distance of a clause learned, for Glucose's restarts.
    pub(super) fn note_lbd(&mut self, lbd: u32) {
        if self.recent_lbd.len() == LBD_WINDOW {
            self.recent_sum -= u64::from(self.recent_lbd.pop_front().expect("a full window"));
        }
        self.recent_lbd.push_back(lbd);
        self.recent_sum += u64::from(lbd);
        self.total_lbd += u64::from(lbd);
        self.total_conflicts += 1;
    }

    /// Counts a conflict learned from, ages the activities and keeps the database in bounds.
    pub(crate) fn after_conflict(&mut self, store: &Store) {
        let root_end = self.root_end(store);
        self.clauses.after_conflict(store.change_log(), root_end);
        self.activity.decay();
        self.conflicts_since_restart += 1;
    }

    /// In tests: a clause about to be added excludes no solution that is still to be found.
    #[cfg(test)]
    pub(super) fn check_against_oracle(&self, literals: &[Literal]) {
        for solution in &self.oracle {
            assert!(
                literals
                    .iter()
                    .any(|l| l.holds_for(solution[l.var.index()])),
                "the clause {literals:?} excludes the solution {solution:?}"
            );
        }
    }
}

/// The literal a decision makes true.
fn literal_of(decision: Decision) -> Literal {
    match decision {
        Decision::Assign(var, v) => Literal::eq(var, v),
        Decision::Exclude(var, v) => Literal::ne(var, v),
        Decision::AtMost(var, v) => Literal::le(var, v),
        Decision::AtLeast(var, v) => Literal::ge(var, v),
    }
}

/// Whether `literal` held just before log entry `before`: every value its variable had then
/// satisfies it.
fn held_before(store: &Store, literal: Literal, before: usize) -> bool {
    let ctx = csp_core::ExplainCtx::new(store, before);
    let (lo, hi) = ctx.bounds(literal.var);
    match literal.relation {
        LiteralRelation::Eq => lo == literal.value && hi == literal.value,
        LiteralRelation::Ne => !ctx.contains(literal.var, literal.value),
        LiteralRelation::Le => hi <= literal.value,
        LiteralRelation::Ge => lo >= literal.value,
    }
}
