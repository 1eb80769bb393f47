//! The backtracking engine: an explicit stack of frames, so that depth is bounded by memory rather
//! than by the thread's stack, and so that a search can stop at a solution and resume later.
//!
//! One search serves every strategy: value enumeration (Stone & Stone's LEX and MIN) and binary
//! decisions, check-past, forward checking and MAC, restarts, branch and bound, and at a failure
//! either chronological backtracking or learning from it ([`crate::Conflicts`]). The learner is a
//! component of the search, not a second engine: its decision levels are the search's frames, its
//! backjumps pop them, and every event, limit and statistic is the search's own. This file holds
//! the search's state and its public interface; `walk.rs` the depth-first walk, `bnb.rs` branch
//! and bound and restarts, `memory.rs` the bounds on the path's memory, and `conflict.rs` what
//! the walk does at a failure under learning.

use std::time::{Duration, Instant};

use csp_core::{Model, Objective, Store, VarId};

use super::frame::{Frame, State};
use super::outcome::{Outcome, SearchResult};
use crate::bound::SharedBound;
use crate::branch::{Brancher, BuiltinBrancher, Decision, Enumerate};
use crate::learn::Learner;
use crate::{
    Conflicts, Limits, Propagation, Restarts, SearchConfig, SearchObserver, Statistics, Strategy,
    ValueOrder, VariableOrder,
};

/// The most bytes of trail a search keeps. On a deeper path the oldest entries are forgotten, and
/// undoing past them means returning to the root and redoing the path's decisions (recomputation);
/// so memory stays bounded (a 10,000-queens descent under forward checking records about 60 million
/// removals) while backtracking near the bottom of the path, where nearly all of it happens, still
/// undoes by trail. A constant, so that a run is the same on every machine.
pub(super) const TRAIL_BUDGET_BYTES: usize = 32 << 20;

/// The most candidate values a search keeps stacked for the nodes of its path. On a deeper path (the
/// first levels of a 10,000-queens descent list thousands of columns each) the oldest nodes' lists are
/// dropped and listed again on the way back up, when the brancher can reproduce them
/// ([`Brancher::can_relist`]).
pub(super) const CANDIDATE_BUDGET: usize = 4 << 20;

/// Under restarts the root's state is kept when the trail of a full path could hold this many times
/// the bytes of the copy ([`Store::snapshot_bytes`]): a restart then copies the root back rather than
/// undoing the path (an n-queens board: a path's trail up to n² removals of 8 bytes, the copy n²/8
/// bytes of bits).
pub(super) const RESTART_SNAPSHOT_RATIO: u64 = 4;

/// Branch and bound restarts from the root after a solution whose path is deeper than this many
/// decisions per variable (and at least [`DEEP_PATH_MIN`]): the path has grown by walking through
/// solutions one value at a time (maximising `x` over `0..10^8` by `indomain_min`), and each
/// solution would otherwise keep its node on the path, so memory would grow with the number of
/// solutions. A search by value enumeration is never this deep; neither is a tree that is not
/// walking, so no other search changes.
pub(super) const DEEP_PATH_PER_VAR: usize = 4;

/// See [`DEEP_PATH_PER_VAR`].
pub(super) const DEEP_PATH_MIN: usize = 1024;

/// The trail entries of committed decisions below which their child's trail is not compacted: a
/// compaction walks them all, so it waits until there are enough to be worth it.
pub(super) const COMPACT_MIN_ENTRIES: usize = 4096;

/// The clock is read for the time limit every `CLOCK_WORK / number of variables` nodes (at least every
/// node, at most every 1,024): a node's cost grows with the model, and a fixed interval let a
/// 4,000-queens search overshoot a 1 ms limit by 200 ms.
pub(super) const CLOCK_WORK: u64 = 1 << 14;

/// Runs a search as `config` says, streaming every event (solutions included) to `observer`.
///
/// For a model with an objective ([`csp_core::ModelBuilder::minimize`]) this is branch and bound:
/// each solution is better than the last, and the search ends [`Outcome::Optimal`] once no better one
/// exists, or with a limit's outcome and the best so far.
pub fn solve<O: SearchObserver>(
    model: &Model,
    config: &SearchConfig,
    mut observer: O,
) -> SearchResult {
    let mut search = Search::new(model, config);
    search.run(&mut observer);
    search.result()
}

/// A backtracking search over one model, with its brancher, propagation level, limits and statistics.
///
/// [`Search::next_solution`] walks the tree to the next solution and pauses there;
/// [`Search::run`] goes on to the configured number of solutions, the end of the tree or, under
/// optimisation, the proven optimum.
pub struct Search<'m, B = BuiltinBrancher> {
    pub(super) model: &'m Model,
    pub(super) store: Store,
    pub(super) propagation: Propagation,
    pub(super) brancher: B,
    pub(super) solution_limit: Option<u64>,
    pub(super) limits: Limits,
    pub(super) restarts: Option<Restarts>,
    /// The node count at which the current run restarts.
    pub(super) restart_at: u64,
    pub(super) frames: Vec<Frame>,
    /// The choices of every frame on the path, stacked.
    pub(super) candidates: Vec<i32>,
    pub(super) stats: Statistics,
    pub(super) state: State,
    /// When the current call into the search began (for the time limit).
    pub(super) call_started: Instant,
    /// How many nodes pass between readings of the clock.
    pub(super) clock_interval: u64,
    /// Time spent in earlier calls.
    pub(super) elapsed: Duration,
    pub(super) objective: Objective,
    /// The objective's value in the best solution so far: every later node must beat it.
    pub(super) best: Option<i32>,
    /// The best objective value any search sharing it has found ([`Search::share_bound`]): every
    /// node must beat it too.
    pub(super) shared: Option<SharedBound>,
    /// Whether nodes are propagated under a bound: a solution was found, or a bound is shared.
    pub(super) bounding: bool,
    /// Restrictions of the root made before the search starts ([`Search::restrict_root`],
    /// [`Search::assume`]).
    pub(super) root_decisions: Vec<Decision>,
    /// The last solution, kept in one buffer (no allocation after the first).
    pub(super) solution: Vec<i32>,
    /// The most trail bytes and stacked candidate values kept (see [`Search::set_memory_budget`]).
    pub(super) trail_budget: usize,
    pub(super) candidate_budget: usize,
    /// The lowest level whose frame's child in place carries committed last alternatives (see
    /// `Search::commit_last`), or `u32::MAX`: the trail below it can be forgotten, not above.
    pub(super) lowest_commit: u32,
    /// The size, in trail entries, past which the child holding committed decisions has its trail
    /// compacted next ([`Store::compact_trail_since`]).
    pub(super) compact_at: usize,
    /// Learning from failure, when the configuration asks for it ([`Conflicts::Learn`]): what
    /// the search does at a failure, beside its path. `None`: chronological backtracking.
    pub(super) learner: Option<Box<Learner>>,
    /// Under learning, the bound the root was propagated under: the objective's bound is a fact
    /// at the root there, not a restriction made again at every node, and a better bound (a
    /// solution, or another search's through [`Search::share_bound`]) sends the search back to
    /// the root to tighten it.
    pub(super) root_bound: Option<i64>,
}

impl<'m> Search<'m> {
    /// A search with the built-in brancher `config` names.
    pub fn new(model: &'m Model, config: &SearchConfig) -> Self {
        Search::configured(model, config, BuiltinBrancher::from_config(model, config))
    }
}

impl<'m, B: Brancher> Search<'m, B> {
    /// A search as `config` says (propagation, limits, restarts), branching with `brancher` rather
    /// than the one `config` names.
    ///
    /// Under learning ([`Conflicts::Learn`]) the search propagates to a fixpoint and branches by
    /// binary decisions (a value node's first value, then its negation by what is learned), and
    /// restarts by the learner's schedule of conflicts rather than by `config.restarts`.
    pub fn configured(model: &'m Model, config: &SearchConfig, brancher: B) -> Self {
        let propagation = match (&config.strategy, &config.conflicts) {
            (Strategy::Enumerate, Conflicts::Backtrack) => config.propagation,
            _ => Propagation::Mac,
        };
        let mut search = Search::with_brancher(model, propagation, brancher);
        search.solution_limit = config.solution_limit;
        search.limits = config.limits;
        match &config.conflicts {
            Conflicts::Backtrack => search.set_restarts(config.restarts),
            Conflicts::Learn(learning) => {
                // Free search names no variable: activity decides everything. Otherwise the
                // brancher decides first (the annotations, or value enumeration's orderings).
                let annotated = !matches!(&config.strategy, Strategy::Decisions(searches)
                    if searches.iter().all(|search| search.vars.is_empty()));
                search.learner = Some(Box::new(Learner::new(
                    model,
                    learning,
                    config.seed,
                    annotated,
                )));
            }
        }
        search
    }
}

impl<'m, V: VariableOrder, W: ValueOrder> Search<'m, Enumerate<V, W>> {
    /// Value enumeration with your own orderings. It stops at the first solution unless
    /// [`Search::set_solution_limit`] says otherwise, and has no limits.
    pub fn with_orders(
        model: &'m Model,
        propagation: Propagation,
        variable_order: V,
        value_order: W,
    ) -> Self {
        Search::with_brancher(
            model,
            propagation,
            Enumerate::new(variable_order, value_order),
        )
    }
}

impl<'m, B: Brancher> Search<'m, B> {
    /// A search with your own brancher. It stops at the first solution unless
    /// [`Search::set_solution_limit`] says otherwise, and has no limits.
    pub fn with_brancher(model: &'m Model, propagation: Propagation, brancher: B) -> Self {
        let mut store = Store::new(model);
        store.set_tracking(propagation == Propagation::Mac);
        Search {
            model,
            store,
            propagation,
            brancher,
            solution_limit: Some(1),
            limits: Limits::default(),
            restarts: None,
            restart_at: u64::MAX,
            frames: Vec::new(),
            candidates: Vec::new(),
            stats: Statistics::default(),
            state: State::Fresh,
            call_started: Instant::now(),
            clock_interval: (CLOCK_WORK / model.num_vars().max(1) as u64).clamp(1, 1024),
            elapsed: Duration::ZERO,
            objective: model.objective(),
            best: None,
            shared: None,
            bounding: false,
            root_decisions: Vec::new(),
            solution: Vec::new(),
            trail_budget: TRAIL_BUDGET_BYTES,
            candidate_budget: CANDIDATE_BUDGET,
            lowest_commit: u32::MAX,
            compact_at: COMPACT_MIN_ENTRIES,
            learner: None,
            root_bound: None,
        }
    }

    /// Stop [`Search::run`] after this many solutions in all (`None`: explore the whole tree). Ignored
    /// under optimisation, which runs to the optimum; see [`Limits::solutions`].
    pub fn set_solution_limit(&mut self, limit: Option<u64>) {
        self.solution_limit = limit;
    }

    /// Replace the node, backtrack, time and solution limits.
    pub fn set_limits(&mut self, limits: Limits) {
        self.limits = limits;
    }

    /// Restart from the root on a Luby schedule (`None`: never). Set it before the search starts.
    pub fn set_restarts(&mut self, restarts: Option<Restarts>) {
        self.restarts = restarts;
        self.restart_at = self.next_restart_budget();
    }

    /// Bounds the memory of the search's path: at most `trail_bytes` of trail (beyond that the oldest
    /// entries are forgotten, and undoing past them redoes the path from the root) and at most
    /// `candidates` stacked candidate values (beyond that the oldest nodes' lists are dropped and listed
    /// again on the way back, when the brancher can). The defaults, 32 MiB and 4 Mi values, keep a
    /// 10,000-queens descent under 100 MB. Neither changes the search, only its memory and time; branch
    /// and bound keeps its whole trail.
    pub fn set_memory_budget(&mut self, trail_bytes: usize, candidates: usize) {
        self.trail_budget = trail_bytes.max(1);
        self.candidate_budget = candidates.max(1);
    }

    /// Shares branch and bound's bound with other searches of the same model (the workers of a
    /// portfolio, or the neighbourhoods of large-neighbourhood search): every solution found here
    /// is offered to `bound`, and every node is propagated under the best value in it, whoever
    /// found it. A search that then exhausts its tree has proven that nothing beats that value.
    /// Ignored without an objective.
    pub fn share_bound(&mut self, bound: SharedBound) {
        if self.optimising() {
            self.shared = Some(bound);
            self.bounding = true;
        }
    }

    /// Fixes variables to values at the root, before anything is propagated (a neighbourhood of
    /// large-neighbourhood search). Call it before the search starts; a value outside its
    /// variable's domain leaves the root without solutions.
    pub fn restrict_root(&mut self, fixings: &[(VarId, i32)]) {
        debug_assert!(
            self.state == State::Fresh,
            "the root is restricted before the search starts"
        );
        self.root_decisions.extend(
            fixings
                .iter()
                .map(|&(var, value)| Decision::Assign(var, value)),
        );
    }

    /// Restricts the root by `decisions` before anything is propagated, so that the search covers
    /// the subtree under them (a subproblem of a split tree, see [`crate::split`]). Call it before
    /// the search starts; contradictory decisions leave the root without solutions.
    pub fn assume(&mut self, decisions: &[Decision]) {
        debug_assert!(
            self.state == State::Fresh,
            "the root is restricted before the search starts"
        );
        self.root_decisions.extend_from_slice(decisions);
    }

    /// Lets a search that a node or time limit stopped go on, from the node where it stopped,
    /// under the limits set since ([`Search::set_limits`]). Returns whether it can: a search that
    /// ended otherwise (its tree exhausted, a solution limit, a backtrack limit or an observer's
    /// stop, which may leave a node half undone) stays over.
    pub fn resume(&mut self) -> bool {
        match self.state {
            State::Done(Outcome::LimitReached(crate::Limit::Nodes | crate::Limit::Time)) => {
                self.state = State::Running;
                true
            }
            _ => false,
        }
    }

    /// The statistics so far.
    pub fn stats(&self) -> &Statistics {
        &self.stats
    }

    /// Time spent searching so far.
    pub fn elapsed(&self) -> Duration {
        self.elapsed
    }

    /// The outcome, once the search is over.
    pub fn outcome(&self) -> Option<Outcome> {
        match self.state {
            State::Done(outcome) => Some(outcome),
            _ => None,
        }
    }

    /// The objective's value in the best solution so far (optimisation only).
    pub fn best_objective(&self) -> Option<i32> {
        self.best
    }

    /// The search's result so far: its outcome (`Stopped` if it is not over), statistics, and the last
    /// solution found.
    pub fn result(&self) -> SearchResult {
        SearchResult {
            outcome: self.outcome().unwrap_or(Outcome::Stopped),
            stats: self.stats.clone(),
            elapsed: self.elapsed,
            solution: (self.stats.solutions > 0).then(|| self.solution.clone()),
            objective: self.best,
            propagations: self.store.propagations(),
        }
    }

    /// Whether the model asks for an optimum (and so the search is branch and bound).
    pub(super) fn optimising(&self) -> bool {
        self.objective != Objective::Satisfy
    }

    /// Ends the search with `outcome`.
    pub(super) fn finish(&mut self, outcome: Outcome) {
        self.state = State::Done(outcome);
    }

    /// How the search ends when the tree is exhausted: optimal if optimisation found a solution.
    pub(super) fn exhausted(&self) -> Outcome {
        if self.optimising() && self.best.is_some() {
            Outcome::Optimal
        } else {
            Outcome::Exhausted
        }
    }

    /// The learner, in the crate's tests (which give it the model's solutions to check every
    /// clause against).
    #[cfg(test)]
    pub(crate) fn learner_mut(&mut self) -> Option<&mut Learner> {
        self.learner.as_deref_mut()
    }
}
