//! The backtracking engine: an explicit stack of frames, so that depth is bounded by memory rather
//! than by the thread's stack, and so that a search can stop at a solution and resume later.

use std::ops::ControlFlow;
use std::time::{Duration, Instant};

use csp_core::{Checkpoint, Model, Store, VarId};

use crate::order::BuiltinVariableOrder;
use crate::value::BuiltinValueOrder;
use crate::{
    Limits, Propagation, Restarts, SearchConfig, SearchEvent, SearchObserver, SelectCtx,
    Statistics, ValueOrder, VariableOrder,
};

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
}

/// How a search ended. "No solution" is not an error: it is [`Outcome::Exhausted`] with no solution
/// found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Outcome {
    /// The requested number of solutions was found; the rest of the tree was not explored.
    Solved,
    /// The whole tree was explored: every solution was reported (perhaps none).
    Exhausted,
    /// A node, backtrack or time limit stopped the search first.
    LimitReached(Limit),
    /// An observer returned [`ControlFlow::Break`].
    Stopped,
}

/// The result of [`solve`] or [`Search::run`].
#[derive(Debug, Clone, PartialEq)]
pub struct SearchResult {
    /// How the search ended.
    pub outcome: Outcome,
    /// What it did.
    pub stats: Statistics,
    /// Wall-clock time spent searching.
    pub elapsed: Duration,
}

/// Runs a search as `config` says, streaming every event (solutions included) to `observer`.
///
/// Solutions are never stored: an observer that wants them copies them from
/// [`SearchEvent::Solution`].
pub fn solve<O: SearchObserver>(
    model: &Model,
    config: &SearchConfig,
    mut observer: O,
) -> SearchResult {
    let mut search = Search::new(model, config);
    let outcome = search.run(&mut observer);
    SearchResult {
        outcome,
        stats: search.stats().clone(),
        elapsed: search.elapsed(),
    }
}

/// One node on the path from the root: the variable it branches on and where its choices are.
#[derive(Debug, Clone, Copy)]
struct Frame {
    var: VarId,
    /// The node's level (1 at the root).
    level: u32,
    /// Its choices are `candidates[start..start + len]`, in the order they are tried.
    start: usize,
    len: usize,
    /// The index of the next choice to try.
    next: usize,
    /// The value assigned to `var` now, and the trail position before that assignment.
    value: i32,
    checkpoint: Checkpoint,
}

/// Where a paused search stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum State {
    /// Nothing done yet.
    Fresh,
    /// Paused at a solution, whose last assignment is still in place.
    AtSolution,
    /// Between nodes.
    Running,
    /// Over: every later call reports this outcome again.
    Done(Outcome),
}

/// A backtracking search over one model, with its orderings, propagation level, limits and statistics.
///
/// [`Search::next_solution`] walks the tree to the next solution and pauses there;
/// [`Search::run`] goes on to the configured number of solutions or to the end of the tree.
pub struct Search<'m, V = BuiltinVariableOrder, W = BuiltinValueOrder> {
    model: &'m Model,
    store: Store,
    propagation: Propagation,
    variable_order: V,
    value_order: W,
    solution_limit: Option<u64>,
    limits: Limits,
    restarts: Option<Restarts>,
    /// The node count at which the current run restarts (while no solution is found).
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
}

impl<'m> Search<'m> {
    /// A search with the built-in orderings `config` names.
    pub fn new(model: &'m Model, config: &SearchConfig) -> Self {
        let mut search = Search::with_orders(
            model,
            config.propagation,
            BuiltinVariableOrder::from_config(config),
            BuiltinValueOrder::from_config(config),
        );
        search.solution_limit = config.solution_limit;
        search.limits = config.limits;
        search.set_restarts(config.restarts);
        search
    }
}

impl<'m, V: VariableOrder, W: ValueOrder> Search<'m, V, W> {
    /// A search with your own orderings. It stops at the first solution unless
    /// [`Search::set_solution_limit`] says otherwise, and has no limits.
    pub fn with_orders(
        model: &'m Model,
        propagation: Propagation,
        variable_order: V,
        value_order: W,
    ) -> Self {
        Search {
            model,
            store: Store::new(model),
            propagation,
            variable_order,
            value_order,
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
        }
    }

    /// Stop [`Search::run`] after this many solutions in all (`None`: explore the whole tree).
    pub fn set_solution_limit(&mut self, limit: Option<u64>) {
        self.solution_limit = limit;
    }

    /// Replace the node, backtrack and time limits.
    pub fn set_limits(&mut self, limits: Limits) {
        self.limits = limits;
    }

    /// Restart from the root on a Luby schedule while no solution is found (`None`: never). Set it
    /// before the search starts.
    pub fn set_restarts(&mut self, restarts: Option<Restarts>) {
        self.restarts = restarts;
        self.restart_at = self.next_restart_budget();
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

    /// Abandons the current run: undoes the whole path (one `Undo` per assignment, deepest first),
    /// reports the restart, and expands the root again.
    fn restart<O: SearchObserver>(&mut self, observer: &mut O) -> Result<(), Outcome> {
        // The deepest frame has no assignment of its own in place; every frame above it has one.
        let top = self.frames.pop().expect("a running search has a frame");
        self.candidates.truncate(top.start);
        while let Some(frame) = self.frames.pop() {
            self.candidates.truncate(frame.start);
            // These undos are backtracks like any other, so the backtrack limit applies to them too.
            self.undo(&frame, observer)?;
        }
        let count = self.stats.restarts + 1;
        emit(&mut self.stats, observer, &SearchEvent::Restart { count })?;
        self.restart_at = self.next_restart_budget();
        if !self.expand(observer)? {
            return Err(Outcome::Exhausted);
        }
        Ok(())
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

    /// Runs until the solution limit, the end of the tree, a limit, or an observer's stop.
    pub fn run<O: SearchObserver>(&mut self, observer: &mut O) -> Outcome {
        loop {
            if self.next_solution(observer).is_none() {
                return self
                    .outcome()
                    .expect("a search that found no more solutions is over");
            }
            if self
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
                match self.frames.last().copied() {
                    Some(frame) => match self.undo(&frame, observer) {
                        Ok(()) => self.descend(observer),
                        Err(outcome) => Err(outcome),
                    },
                    // A model without variables has one solution, the empty assignment, and no path.
                    None => Err(Outcome::Exhausted),
                }
            }
            State::Running => self.descend(observer),
        };
        self.elapsed += self.call_started.elapsed();
        match step {
            Ok(()) => {
                self.state = State::AtSolution;
                Some(self.store.values())
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

    /// Expands the root. `Ok` means a solution was reached (a model with no variables has one: the
    /// empty assignment).
    fn start<O: SearchObserver>(&mut self, observer: &mut O) -> Result<(), Outcome> {
        self.state = State::Running;
        if self.model.num_vars() == 0 {
            let event = SearchEvent::Solution {
                level: 1,
                values: self.store.values(),
            };
            emit(&mut self.stats, observer, &event)?;
            return Ok(());
        }
        if self.propagation == Propagation::Mac
            && let Err(constraint) = self.store.establish_arc_consistency(self.model)
        {
            // Arc consistency at the root already proves that there is no solution.
            let ctx = SelectCtx {
                model: self.model,
                store: &self.store,
                propagation: self.propagation,
            };
            self.variable_order.on_wipeout(constraint, &ctx);
            emit(
                &mut self.stats,
                observer,
                &SearchEvent::DeadEnd { level: 1 },
            )?;
            return Err(Outcome::Exhausted);
        }
        if !self.expand(observer)? {
            // The root itself is a dead end.
            return Err(Outcome::Exhausted);
        }
        self.descend(observer)
    }

    /// Chooses the next node's variable and stacks its choices. Returns whether the node has any.
    fn expand<O: SearchObserver>(&mut self, observer: &mut O) -> Result<bool, Outcome> {
        let ctx = SelectCtx {
            model: self.model,
            store: &self.store,
            propagation: self.propagation,
        };
        let level = ctx.level();
        let var = self
            .variable_order
            .select(&ctx)
            .expect("an incomplete assignment has an unassigned variable");
        debug_assert!(
            !self.store.is_assigned(var),
            "the ordering chose an assigned variable"
        );
        let start = self.candidates.len();
        let len = ctx.append_choices(var, &mut self.candidates);
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
            return Ok(false);
        }
        self.value_order
            .order(var, &ctx, &mut self.candidates[start..]);
        self.frames.push(Frame {
            var,
            level,
            start,
            len,
            next: 0,
            value: 0,
            checkpoint: self.store.checkpoint(),
        });
        Ok(true)
    }

    /// The depth-first loop: tries the next choice of the deepest frame, going down on success and up
    /// when a frame runs out. Returns `Ok` at a solution.
    fn descend<O: SearchObserver>(&mut self, observer: &mut O) -> Result<(), Outcome> {
        loop {
            let Some(frame) = self.frames.last_mut() else {
                return Err(Outcome::Exhausted);
            };
            if frame.next == frame.len {
                // This node is finished: drop it and undo the assignment that created it.
                let start = frame.start;
                self.frames.pop();
                self.candidates.truncate(start);
                match self.frames.last() {
                    Some(&parent) => self.undo(&parent, observer)?,
                    None => return Err(Outcome::Exhausted),
                }
                continue;
            }
            if self.limits.nodes.is_some_and(|max| self.stats.nodes >= max) {
                return Err(Outcome::LimitReached(Limit::Nodes));
            }
            if self.stats.nodes >= self.restart_at && self.stats.solutions == 0 {
                self.restart(observer)?;
                continue;
            }
            if self.stats.nodes.is_multiple_of(self.clock_interval)
                && let Some(max) = self.limits.time
                && self.elapsed + self.call_started.elapsed() >= max
            {
                return Err(Outcome::LimitReached(Limit::Time));
            }
            let value = self.candidates[frame.start + frame.next];
            frame.next += 1;
            frame.value = value;
            frame.checkpoint = self.store.checkpoint();
            let frame = *frame;
            let level = frame.level + 1;
            self.store.assign(self.model, frame.var, value);
            emit(
                &mut self.stats,
                observer,
                &SearchEvent::Assign {
                    level,
                    var: frame.var,
                    value,
                },
            )?;
            if let Err(constraint) =
                propagate(self.model, &mut self.store, self.propagation, frame.var)
            {
                let ctx = SelectCtx {
                    model: self.model,
                    store: &self.store,
                    propagation: self.propagation,
                };
                self.variable_order.on_wipeout(constraint, &ctx);
                emit(&mut self.stats, observer, &SearchEvent::DeadEnd { level })?;
                self.undo(&frame, observer)?;
                continue;
            }
            if self.store.num_assigned() == self.model.num_vars() {
                let event = SearchEvent::Solution {
                    level,
                    values: self.store.values(),
                };
                emit(&mut self.stats, observer, &event)?;
                return Ok(());
            }
            if !self.expand(observer)? {
                self.undo(&frame, observer)?;
            }
        }
    }

    /// Undoes the current assignment of `frame` (a backtrack), unless the backtrack limit forbids it.
    fn undo<O: SearchObserver>(&mut self, frame: &Frame, observer: &mut O) -> Result<(), Outcome> {
        // Checked before undoing, so that a limit of k allows exactly k backtracks (0 allows none).
        if self
            .limits
            .backtracks
            .is_some_and(|max| self.stats.backtracks >= max)
        {
            return Err(Outcome::LimitReached(Limit::Backtracks));
        }
        self.store.undo_to(self.model, frame.checkpoint);
        emit(
            &mut self.stats,
            observer,
            &SearchEvent::Undo {
                level: frame.level + 1,
                var: frame.var,
                value: frame.value,
            },
        )
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
