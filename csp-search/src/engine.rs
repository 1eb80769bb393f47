//! The backtracking engine: an explicit stack of frames, so that depth is bounded by memory rather
//! than by the thread's stack, and so that a search can stop at a solution and resume later.

use std::ops::ControlFlow;
use std::time::{Duration, Instant};

use csp_core::{Checkpoint, ConstraintId, Model, Objective, Store, VarId};

use crate::bound::SharedBound;
use crate::branch::{Branch, Brancher, BuiltinBrancher, Decision, Enumerate};
use crate::{
    Limits, Propagation, Restarts, SearchConfig, SearchEvent, SearchObserver, SelectCtx,
    Statistics, Strategy, ValueOrder, VariableOrder,
};

/// The most bytes of trail a search keeps. On a deeper path the oldest entries are forgotten, and
/// undoing past them means returning to the root and redoing the path's decisions (recomputation);
/// so memory stays bounded (a 10,000-queens descent under forward checking records about 60 million
/// removals) while backtracking near the bottom of the path, where nearly all of it happens, still
/// undoes by trail. A constant, so that a run is the same on every machine.
const TRAIL_BUDGET_BYTES: usize = 32 << 20;

/// The most candidate values a search keeps stacked for the nodes of its path. On a deeper path (the
/// first levels of a 10,000-queens descent list thousands of columns each) the oldest nodes' lists are
/// dropped and listed again on the way back up, when the brancher can reproduce them
/// ([`Brancher::can_relist`]).
const CANDIDATE_BUDGET: usize = 4 << 20;

/// The position of a frame whose choices were dropped from the candidate stack.
const DROPPED: usize = usize::MAX;

/// Under restarts the root's state is kept when the trail of a full path could hold this many times
/// the bytes of the copy ([`Store::snapshot_bytes`]): a restart then copies the root back rather than
/// undoing the path (an n-queens board: a path's trail up to n² removals of 8 bytes, the copy n²/8
/// bytes of bits).
const RESTART_SNAPSHOT_RATIO: u64 = 4;

/// Branch and bound restarts from the root after a solution whose path is deeper than this many
/// decisions per variable (and at least [`DEEP_PATH_MIN`]): the path has grown by walking through
/// solutions one value at a time (maximising `x` over `0..10^8` by `indomain_min`), and each
/// solution would otherwise keep its node on the path, so memory would grow with the number of
/// solutions. A search by value enumeration is never this deep; neither is a tree that is not
/// walking, so no other search changes.
const DEEP_PATH_PER_VAR: usize = 4;

/// See [`DEEP_PATH_PER_VAR`].
const DEEP_PATH_MIN: usize = 1024;

/// The trail entries of committed decisions below which their child's trail is not compacted: a
/// compaction walks them all, so it waits until there are enough to be worth it.
const COMPACT_MIN_ENTRIES: usize = 4096;

/// The clock is read for the time limit every `CLOCK_WORK / number of variables` nodes (at least every
/// node, at most every 1,024): a node's cost grows with the model, and a fixed interval let a
/// 4,000-queens search overshoot a 1 ms limit by 200 ms.
const CLOCK_WORK: u64 = 1 << 14;

/// Which limit stopped a search.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Limit {
    /// [`Limits::nodes`].
    Nodes,
    /// [`Limits::backtracks`].
    Backtracks,
    /// [`Limits::time`].
    Time,
    /// [`Limits::solutions`].
    Solutions,
}

/// How a search ended. "No solution" is not an error: it is [`Outcome::Exhausted`] with no solution
/// found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Outcome {
    /// The requested number of solutions was found; the rest of the tree was not explored.
    Solved,
    /// Optimisation explored the whole tree after finding a solution: the last solution is optimal.
    Optimal,
    /// The whole tree was explored: every solution was reported (perhaps none). Under optimisation it
    /// means no solution exists.
    Exhausted,
    /// A node, backtrack, time or solution limit stopped the search first.
    LimitReached(Limit),
    /// An observer returned [`ControlFlow::Break`].
    Stopped,
}

/// The result of [`solve`] or of a [`Search`] run ([`Search::result`]).
#[derive(Debug, Clone, PartialEq)]
pub struct SearchResult {
    /// How the search ended.
    pub outcome: Outcome,
    /// What it did.
    pub stats: Statistics,
    /// Wall-clock time spent searching.
    pub elapsed: Duration,
    /// The last solution found (under optimisation, the best), indexed by [`VarId::index`].
    pub solution: Option<Vec<i32>>,
    /// The objective's value in [`SearchResult::solution`], if the model has an objective and a
    /// solution was found. Proven optimal when the outcome is [`Outcome::Optimal`].
    pub objective: Option<i32>,
    /// How many times a constraint's propagator ran (FlatZinc's `propagations`).
    pub propagations: u64,
}

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

/// How a node branches: by value enumeration, or by a binary decision of one of four kinds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Values,
    Assign,
    Exclude,
    AtMost,
    AtLeast,
}

/// One node on the path from the root: how it branches and which child is in place. Kept small (it is
/// copied at every node of the hot loop): a binary node's decision is stored as its kind and value.
#[derive(Debug, Clone, Copy)]
struct Frame {
    var: VarId,
    /// The node's level (1 at the root).
    level: u32,
    /// Value enumeration: the choices are `candidates[start..start + len]`, in the order they are
    /// tried. A binary node has `len` 2 (or 1 when its decision has no negation).
    start: usize,
    len: u32,
    /// The index of the next child to try.
    next: u32,
    /// Value enumeration: the value of the child in place. A binary node: its first decision's value.
    value: i32,
    kind: Kind,
    /// Value enumeration: the brancher gave the first value alone ([`Brancher::branch_first`]),
    /// which is in `value`; the list is made ([`Search::relist_top`]) when search comes back for
    /// the second. `start` is [`DROPPED`] until then.
    first_only: bool,
    /// The trail position before the child in place.
    checkpoint: Checkpoint,
}

impl Frame {
    /// A binary node's first decision.
    #[inline]
    fn first(&self) -> Decision {
        match self.kind {
            Kind::Values | Kind::Assign => Decision::Assign(self.var, self.value),
            Kind::Exclude => Decision::Exclude(self.var, self.value),
            Kind::AtMost => Decision::AtMost(self.var, self.value),
            Kind::AtLeast => Decision::AtLeast(self.var, self.value),
        }
    }

    /// The decision of the child in place (the last one tried).
    #[inline]
    fn current(&self) -> Decision {
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
enum State {
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
enum Expanded {
    /// A frame was pushed: the node has children to try.
    Branched,
    /// The node has no children.
    DeadEnd,
    /// The node is a solution (reported already).
    Solution,
}

/// Why a decision's propagation failed.
#[derive(Debug, Clone, Copy)]
enum Failure {
    /// A constraint emptied a domain or found its variables inconsistent.
    Constraint(ConstraintId),
    /// The decision itself, or the objective's bound, left a domain empty (or, under check-past, an
    /// assignment failed Dijkstra's test).
    Domain,
}

/// A backtracking search over one model, with its brancher, propagation level, limits and statistics.
///
/// [`Search::next_solution`] walks the tree to the next solution and pauses there;
/// [`Search::run`] goes on to the configured number of solutions, the end of the tree or, under
/// optimisation, the proven optimum.
pub struct Search<'m, B = BuiltinBrancher> {
    model: &'m Model,
    store: Store,
    propagation: Propagation,
    brancher: B,
    solution_limit: Option<u64>,
    limits: Limits,
    restarts: Option<Restarts>,
    /// The node count at which the current run restarts.
    restart_at: u64,
    frames: Vec<Frame>,
    /// The choices of every frame on the path, stacked.
    candidates: Vec<i32>,
    stats: Statistics,
    state: State,
    /// When the current call into the search began (for the time limit).
    call_started: Instant,
    /// How many nodes pass between readings of the clock.
    clock_interval: u64,
    /// Time spent in earlier calls.
    elapsed: Duration,
    objective: Objective,
    /// The objective's value in the best solution so far: every later node must beat it.
    best: Option<i32>,
    /// The best objective value any search sharing it has found ([`Search::share_bound`]): every
    /// node must beat it too.
    shared: Option<SharedBound>,
    /// Whether nodes are propagated under a bound: a solution was found, or a bound is shared.
    bounding: bool,
    /// Restrictions of the root made before the search starts ([`Search::restrict_root`],
    /// [`Search::assume`]).
    root_decisions: Vec<Decision>,
    /// The last solution, kept in one buffer (no allocation after the first).
    solution: Vec<i32>,
    /// The most trail bytes and stacked candidate values kept (see [`Search::set_memory_budget`]).
    trail_budget: usize,
    candidate_budget: usize,
    /// The lowest level whose frame's child in place carries committed last alternatives (see
    /// [`Search::commit_last`]), or `u32::MAX`: the trail below it can be forgotten, not above.
    lowest_commit: u32,
    /// The size, in trail entries, past which the child holding committed decisions has its trail
    /// compacted next ([`Store::compact_trail_since`]).
    compact_at: usize,
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
    pub fn configured(model: &'m Model, config: &SearchConfig, brancher: B) -> Self {
        let propagation = match config.strategy {
            Strategy::Enumerate => config.propagation,
            Strategy::Decisions(_) => Propagation::Mac,
        };
        let mut search = Search::with_brancher(model, propagation, brancher);
        search.solution_limit = config.solution_limit;
        search.limits = config.limits;
        search.set_restarts(config.restarts);
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

    /// Whether the model asks for an optimum (and so the search is branch and bound).
    fn optimising(&self) -> bool {
        self.objective != Objective::Satisfy
    }

    /// The node count at which the run that starts now should end.
    fn next_restart_budget(&self) -> u64 {
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

    /// Abandons the current run: undoes the whole path (one `Undo` per decision, deepest first),
    /// reports the restart, and expands the root again. Returns whether the root is a solution.
    fn restart<O: SearchObserver>(&mut self, observer: &mut O) -> Result<bool, Outcome> {
        self.unwind_to_root(observer)?;
        self.restart_at = self.next_restart_budget();
        // Restarts happen only before the first solution, so the root needs no new bound: its state,
        // propagated when the search started, is back.
        debug_assert!(self.best.is_none());
        match self.expand(observer)? {
            Expanded::Branched => Ok(false),
            Expanded::DeadEnd => Err(self.exhausted()),
            Expanded::Solution => Ok(true),
        }
    }

    /// Undoes the whole path (one `Undo` per decision, deepest first) and reports a restart.
    fn unwind_to_root<O: SearchObserver>(&mut self, observer: &mut O) -> Result<(), Outcome> {
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
    fn path_too_deep(&self) -> bool {
        self.optimising()
            && self.frames.len() > (DEEP_PATH_PER_VAR * self.model.num_vars()).max(DEEP_PATH_MIN)
    }

    /// Branch and bound from the root after a solution on a deep path: undoes the path, propagates
    /// the root under the new bound, and walks on from there. The rest of the tree under the old
    /// path holds nothing the new bound allows that the root's tree does not, so the search stays
    /// complete and its last run still proves the optimum.
    fn restart_with_bound<O: SearchObserver>(&mut self, observer: &mut O) -> Result<(), Outcome> {
        self.unwind_to_root(observer)?;
        let propagated = self.apply_bound().and_then(|()| match self.propagation {
            Propagation::Mac => self
                .store
                .propagate(self.model)
                .map_err(Failure::Constraint),
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
                if self.frames.is_empty() {
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

    fn finish(&mut self, outcome: Outcome) {
        self.state = State::Done(outcome);
    }

    /// How the search ends when the tree is exhausted: optimal if optimisation found a solution.
    fn exhausted(&self) -> Outcome {
        if self.optimising() && self.best.is_some() {
            Outcome::Optimal
        } else {
            Outcome::Exhausted
        }
    }

    /// Propagates the root and expands it. `Ok` means a solution was reached at the root.
    fn start<O: SearchObserver>(&mut self, observer: &mut O) -> Result<(), Outcome> {
        self.state = State::Running;
        let restricted = self.restrict_at_root();
        let propagated = restricted.and_then(|()| match self.propagation {
            Propagation::Mac => self
                .store
                .establish_arc_consistency(self.model)
                .map_err(Failure::Constraint),
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
        if self.propagation == Propagation::ForwardChecking && self.brancher.enumerates_values() {
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

    /// The root's fixings and the shared bound, before the root is propagated.
    fn restrict_at_root(&mut self) -> Result<(), Failure> {
        for i in 0..self.root_decisions.len() {
            self.root_decisions[i]
                .restrict(&mut self.store)
                .map_err(|_| Failure::Domain)?;
        }
        self.apply_bound()
    }

    /// Asks the brancher how the current node branches: stacks its children, or reports the solution
    /// it is.
    fn expand<O: SearchObserver>(&mut self, observer: &mut O) -> Result<Expanded, Outcome> {
        let level = self.frames.len() as u32 + 1;
        let start = self.candidates.len();
        let ctx = SelectCtx {
            model: self.model,
            store: &self.store,
            propagation: self.propagation,
        };
        let Some((branch, first_of)) = self.brancher.branch_first(&ctx, &mut self.candidates)
        else {
            self.report_solution(level, observer)?;
            return Ok(Expanded::Solution);
        };
        let mut first_only = false;
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
                let len = if decision.negation().is_some() { 2 } else { 1 };
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
                choices: len as u32,
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
                shared.offer(i64::from(value));
            }
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
    fn descend<O: SearchObserver>(&mut self, observer: &mut O) -> Result<(), Outcome> {
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
            if self.stats.nodes >= self.restart_at && self.stats.solutions == 0 {
                if self.restart(observer)? {
                    return Ok(());
                }
                continue;
            }
            if self.stats.nodes.is_multiple_of(self.clock_interval)
                && let Some(max) = self.limits.time
                && self.elapsed + self.call_started.elapsed() >= max
            {
                return Err(Outcome::LimitReached(crate::Limit::Time));
            }
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
    /// [`DEEP_PATH_PER_VAR`]) and whose trail is never forgotten.
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
    fn apply(&mut self, decision: Decision, binary: bool) -> Result<(), Failure> {
        let changed = match decision {
            Decision::Assign(var, value) => {
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
    fn propagate_after(&mut self, decision: Decision, binary: bool) -> Result<(), Failure> {
        if self.bounding {
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
            (Propagation::Mac, _) => self
                .store
                .propagate(self.model)
                .map_err(Failure::Constraint),
        }
    }

    /// Branch and bound: the objective must beat the best solution so far.
    fn apply_bound(&mut self) -> Result<(), Failure> {
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
    fn bound(&self) -> Option<i64> {
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

    /// Tells the brancher which constraint failed, if one did.
    fn report_failure(&mut self, failure: Failure) {
        if let Failure::Constraint(constraint) = failure {
            let ctx = SelectCtx {
                model: self.model,
                store: &self.store,
                propagation: self.propagation,
            };
            self.brancher.on_wipeout(constraint, &ctx);
        }
    }

    /// Keeps the path's memory within its budgets ([`Search::set_memory_budget`]).
    #[inline]
    fn bound_memory(&mut self) {
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
    fn relist_top(&mut self) {
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
    fn recompute(&mut self, index: usize) {
        self.store.reset_to_root(self.model);
        self.replay(index);
    }

    /// Redoes the decisions of `frames[..count]` (each with its propagation), which all succeeded when
    /// they were first made and, from the same state, succeed again and record the same trail.
    fn replay(&mut self, count: usize) {
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

    /// Undoes the child of `frame` in place (a backtrack), unless the backtrack limit forbids it.
    /// `frame` is the top of the path, or was just popped from it (a restart, which returns to the
    /// root anyway).
    #[inline(always)]
    fn undo<O: SearchObserver>(&mut self, frame: &Frame, observer: &mut O) -> Result<(), Outcome> {
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
        if self.lowest_commit >= frame.level {
            // The child undone held every committed decision at or above its level.
            self.lowest_commit = u32::MAX;
            self.compact_at = COMPACT_MIN_ENTRIES;
        }
        emit(&mut self.stats, observer, &undo_event(frame))
    }
}

/// The event that reports undoing `frame`'s child in place: an assignment's `Undo`, another
/// decision's `Retract`, one level below the frame's child.
fn undo_event(frame: &Frame) -> SearchEvent<'static> {
    let level = frame.level + 1;
    match frame.current() {
        Decision::Assign(var, value) => SearchEvent::Undo { level, var, value },
        decision => SearchEvent::Retract { level, decision },
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

/// Feeds an event to the search's own statistics, then to the caller's observer.
#[inline]
fn emit<O: SearchObserver>(
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
