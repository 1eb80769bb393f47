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

use csp_core::{Literal, LiteralRelation, Model, Objective, Store, VarId};

use super::frame::{Frame, State};
use super::outcome::{Outcome, SearchResult};
use crate::bound::SharedBound;
use crate::branch::{Brancher, BuiltinBrancher, Decision, Enumerate};
use crate::learn::Learner;
use crate::{
    Conflicts, Limits, Propagation, Restarts, SearchConfig, SearchObserver, Solutions, Statistics,
    StopFlag, Strategy, ValueOrder, VariableOrder,
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
    /// Read with the clock: when raised, the search stops.
    pub(super) stop: Option<StopFlag>,
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
    /// Under learning, the objective's bound the search assumes, once there is one: the last of
    /// its assumptions (see [`Search::set_assumptions`]), made after the caller's, rather than a
    /// restriction made again at every node or a fact at the root, so that every clause learned
    /// holds whatever the bound (those that rest on it name it). A better bound (a solution, or
    /// another search's through [`Search::share_bound`]) sends the search back to the
    /// assumptions to replace it.
    pub(super) bound_assumption: Option<i64>,
    /// Literals the search assumes ([`Search::set_assumptions`]): under learning, its first
    /// decisions, one level each.
    pub(super) assumptions: Vec<Literal>,
    /// Under learning, once the search found no solution under its assumptions: the assumptions
    /// that conflict ([`Search::core`]).
    pub(super) core: Option<Vec<Literal>>,
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
        search.stop = config.stop.clone();
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
                // Every node is a point where the learner may restart (see
                // `Search::at_restart_point`).
                search.restart_at = 0;
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
        // Where the store may keep a rows-and-lines constraint, the rows' bit sets, which it then
        // never reads, are not allocated (n² bits for n ≤ 65,536 columns).
        let mut store = if store_may_keep_lines(propagation, &brancher) {
            Store::new_for_kept_lines(model)
        } else {
            Store::new(model)
        };
        store.set_tracking(propagation == Propagation::Mac);
        Search {
            model,
            store,
            propagation,
            brancher,
            solution_limit: Some(1),
            limits: Limits::default(),
            stop: None,
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
            bound_assumption: None,
            assumptions: Vec::new(),
            core: None,
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

    /// The node, backtrack, time and solution limits.
    pub fn limits(&self) -> Limits {
        self.limits
    }

    /// Restart from the root on a Luby schedule (`None`: never). Set it before the search starts.
    pub fn set_restarts(&mut self, restarts: Option<Restarts>) {
        self.restarts = restarts;
        // A learning search restarts by its learner's schedule, looked at every node.
        self.restart_at = if self.learner.is_some() {
            0
        } else {
            self.next_restart_budget()
        };
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

    /// Solves under `assumptions`: literals (a Boolean's `b = 1`, `x ≤ v`, `x = v`, …) that
    /// every solution must satisfy. Under learning they are the search's first decisions, one
    /// level each, as in MiniSat (Eén & Sörensson 2003): when one is false after the others and
    /// what was learned, the search is over with no solution ([`Outcome::Exhausted`], or
    /// [`Outcome::Optimal`] after an improving solution), and [`Search::core`] names the
    /// assumptions that together leave none, found by tracing the false one's reasons back to the
    /// assumptions they rest on. What is learned under assumptions holds without them. Without
    /// learning they restrict the root, and a core, if the tree holds no solution, is every
    /// assumption. Call it before the search starts.
    ///
    /// ```
    /// use csp_core::{Literal, ModelBuilder, constraints::{Linear, Relation}};
    /// use csp_search::{Learning, Outcome, Search, SearchConfig};
    ///
    /// // a + b + c ≤ 1, with a and c assumed true and b assumed false.
    /// let mut builder = ModelBuilder::new();
    /// let [a, b, c] = ["a", "b", "c"].map(|name| builder.bool_var(name).unwrap());
    /// builder.post(Linear::new(vec![(1, a), (1, b), (1, c)], Relation::LessOrEqual, 1)).unwrap();
    /// let model = builder.build();
    /// let config = SearchConfig::free().learning(Learning::default());
    /// let mut search = Search::new(&model, &config);
    /// search.set_assumptions(&[Literal::eq(a, 1), Literal::eq(b, 0), Literal::eq(c, 1)]);
    /// assert!(search.next_solution(&mut ()).is_none());
    /// assert_eq!(search.outcome(), Some(Outcome::Exhausted));
    /// // b = 0 plays no part.
    /// assert_eq!(search.core(), Some(&[Literal::eq(a, 1), Literal::eq(c, 1)][..]));
    /// ```
    pub fn set_assumptions(&mut self, assumptions: &[Literal]) {
        debug_assert!(
            self.state == State::Fresh,
            "assumptions are set before the search starts"
        );
        self.assumptions = assumptions.to_vec();
        if self.learner.is_none() {
            self.root_decisions
                .extend(assumptions.iter().map(|&literal| decision_of(literal)));
        }
    }

    /// The assumptions that leave no solution, once the search has found none under them
    /// ([`Search::set_assumptions`]): a subset of them, in their order; empty when the model has
    /// no solution at all (under an objective, none better than the last), `None` before the
    /// search is over or when it ended otherwise.
    pub fn core(&self) -> Option<&[Literal]> {
        self.core.as_deref()
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

    /// Ends the search with `outcome`. A search that ends with no solution left under its
    /// assumptions has a core: without learning, all of them; under learning, the ones a false
    /// assumption rested on, or none when the failure held at the root (set where it was found).
    pub(super) fn finish(&mut self, outcome: Outcome) {
        self.state = State::Done(outcome);
        if self.core.is_none() && matches!(outcome, Outcome::Exhausted | Outcome::Optimal) {
            self.core = Some(if self.learner.is_some() {
                Vec::new()
            } else {
                self.assumptions.clone()
            });
        }
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

/// The decision that makes `literal` true.
pub(super) fn decision_of(literal: Literal) -> Decision {
    let (var, value) = (literal.var, literal.value);
    match literal.relation {
        LiteralRelation::Eq => Decision::Assign(var, value),
        LiteralRelation::Ne => Decision::Exclude(var, value),
        LiteralRelation::Le => Decision::AtMost(var, value),
        LiteralRelation::Ge => Decision::AtLeast(var, value),
    }
}

impl<B: Brancher> Solutions for Search<'_, B> {
    fn next(&mut self, mut observer: &mut dyn SearchObserver) -> Option<&[i32]> {
        // `&mut dyn SearchObserver` is itself an observer, and sized.
        self.next_solution(&mut observer)
    }

    fn outcome(&self) -> Option<Outcome> {
        Search::outcome(self)
    }

    fn result(&self) -> SearchResult {
        Search::result(self)
    }

    fn nodes(&self) -> u64 {
        self.stats().nodes
    }

    fn set_budget(&mut self, nodes: Option<u64>, time: Option<Duration>) {
        // The search counts its own nodes and its own time (its calls'), not the run's.
        let limits = Limits {
            nodes: nodes.map(|more| self.stats().nodes.saturating_add(more)),
            time: time.map(|more| self.elapsed() + more),
            ..self.limits()
        };
        self.set_limits(limits);
    }

    fn resume(&mut self) -> bool {
        Search::resume(self)
    }

    fn share_bound(&mut self, bound: SharedBound) {
        Search::share_bound(self, bound);
    }
}

/// Whether a search under `propagation` with `brancher` lets its store keep a rows-and-lines
/// constraint ([`Store::keep_lines`]): forward checking over value enumeration, where search
/// changes the rows only by assigning them. A learning search never does (it records events), and
/// checks that itself.
pub(crate) fn store_may_keep_lines<B: Brancher>(propagation: Propagation, brancher: &B) -> bool {
    propagation == Propagation::ForwardChecking && brancher.enumerates_values()
}
