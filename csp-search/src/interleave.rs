//! Two searches of one model taking turns on one thread, each paused after a slice of nodes and
//! resumed where it stopped: a portfolio of two without threads, as large-neighbourhood search
//! alternates with branch and bound ([`crate::LnsSearch`]). Under an objective they share the
//! bound, so that each solution either finds prunes both, and either exhausting its tree proves
//! the best solution optimal; without one, the first solution either finds is the answer, and
//! either exhausting its tree proves there is none.
//!
//! Two uses. The model's own search (a FlatZinc model's annotations) and free search (dom/wdeg
//! with restarts), for a satisfaction problem's first solution: an annotation such as
//! `input_order, indomain_min` can leave a satisfiable model without a solution for minutes where
//! free search finds one in seconds (CostasArray 17: 20 s free, not in 60 s annotated), while on
//! others the annotated search is the fast one (black-hole 9: 5.7 s, free search not in 20 s).
//! And a search that learns beside one that does not, each winning where the other loses (see
//! `csp_flatzinc::plan`). Turns bound the loss at a fixed share of the better search's speed (see
//! [`TURN_NODES`] and [`LEARNING_NODE_COST`] for the shares). The turns are counted in nodes, not
//! time, so that a run is reproducible.

use std::time::{Duration, Instant};

use csp_core::{Model, VarId};

use crate::{
    Limit, Limits, Outcome, Search, SearchConfig, SearchObserver, SearchResult, SharedBound,
    Solutions, Statistics,
};

/// Nodes the first search makes in its turn: short enough that the other never waits long, long
/// enough that a turn is not dominated by resuming. The second search's turn is half as long.
///
/// Two to one, because the first search is the model's own (its author's advice) and its nodes
/// are the cheaper: free search chooses among every variable by weighted degree and restarts.
/// Measured at equal turns, the annotated search's unsatisfiable instances took 2 to 3 times
/// as long as alone (search_stress 08_04 5.6 s against 2.1 s, bibd 19_03_01 2.4 s against 0.8 s).
pub const TURN_NODES: u64 = 10_000;

/// How many nodes of a search without learning one node of a learning search costs, roughly, for
/// the turns of [`Interleaved::new`]: a learning search's turn is this many times shorter, so that
/// the two get comparable time. Measured on the public suite (`fzn-csp -s`, seconds per node
/// against seconds per conflict): golomb 10, 13 µs against 112 µs; mknap2-20, 2.5 µs against
/// 25 µs; black-hole 9, 30 µs against 490 µs.
pub const LEARNING_NODE_COST: u64 = 10;

/// Two searches in turn (see the module's documentation).
pub struct Interleaved<'m> {
    searches: [Box<dyn Solutions + 'm>; 2],
    /// Each search's turn, in nodes.
    turns: [u64; 2],
    /// Whose turn it is: 0 the first search, 1 the second.
    turn: usize,
    /// The model's objective, if it has one: solutions go on after the first.
    objective: Option<VarId>,
    limits: Limits,
    started: Instant,
    outcome: Option<Outcome>,
    /// The last solution reported (under an objective, the best).
    solution: Option<Vec<i32>>,
}

impl<'m> Interleaved<'m> {
    /// `first` and `second` in turn over `model`, `first` starting; the run's limits are
    /// `first`'s. `first`'s turn is [`TURN_NODES`], `second`'s half that; a learning search's
    /// turn is [`LEARNING_NODE_COST`] times shorter.
    pub fn new(model: &'m Model, first: &SearchConfig, second: &SearchConfig) -> Self {
        Self::with_turn(model, first, second, TURN_NODES)
    }

    /// Like [`Interleaved::new`], the first search's turn `turn` nodes long (the second's half
    /// that, and at least one).
    pub fn with_turn(
        model: &'m Model,
        first: &SearchConfig,
        second: &SearchConfig,
        turn: u64,
    ) -> Self {
        let turns = [turn, turn / 2].map(|t| t.max(1));
        let cost = |config: &SearchConfig, turn: u64| {
            if config.conflicts.learns() {
                (turn / LEARNING_NODE_COST).max(1)
            } else {
                turn
            }
        };
        Self::of(
            model,
            [
                Box::new(Search::new(model, first)),
                Box::new(Search::new(model, second)),
            ],
            [cost(first, turns[0]), cost(second, turns[1])],
            first.limits,
        )
    }

    /// Any two searches of `model` in turn, `turns[i]` nodes each (at least one), under the run's
    /// `limits` (nodes in all, and time); under an objective they share one bound.
    pub fn of(
        model: &'m Model,
        mut searches: [Box<dyn Solutions + 'm>; 2],
        turns: [u64; 2],
        limits: Limits,
    ) -> Self {
        if let Some(bound) = SharedBound::new(model.objective()) {
            for search in &mut searches {
                search.share_bound(bound.clone());
            }
        }
        Interleaved {
            searches,
            turns: turns.map(|t| t.max(1)),
            turn: 0,
            objective: model.objective().var(),
            limits,
            started: Instant::now(),
            outcome: None,
            solution: None,
        }
    }

    /// The next solution: a satisfaction problem's first, or `None` when there is none (the
    /// outcome is then [`Outcome::Exhausted`]) or a limit stopped both searches; under an
    /// objective, the next better one, until one search's tree is exhausted under the shared
    /// bound (the outcome is then [`Outcome::Optimal`]). A satisfaction problem's second call
    /// returns `None`: the two searches would repeat each other's solutions.
    pub fn next_solution<O: SearchObserver>(&mut self, observer: &mut O) -> Option<&[i32]> {
        while self.outcome.is_none() {
            let nodes = self.nodes();
            if self.limits.nodes.is_some_and(|max| nodes >= max) {
                self.outcome = Some(Outcome::LimitReached(Limit::Nodes));
                break;
            }
            let left = self
                .limits
                .time
                .map(|limit| limit.saturating_sub(self.started.elapsed()));
            if left == Some(Duration::ZERO) {
                self.outcome = Some(Outcome::LimitReached(Limit::Time));
                break;
            }
            let turn =
                self.turns[self.turn].min(self.limits.nodes.map_or(u64::MAX, |max| max - nodes));
            let search = &mut self.searches[self.turn];
            search.set_budget(Some(turn), left);
            search.resume();
            if let Some(values) = search.next(observer) {
                self.solution = Some(values.to_vec());
                if self.objective.is_none() {
                    self.outcome = Some(Outcome::Solved);
                }
                return self.solution.as_deref();
            }
            match search.outcome() {
                Some(Outcome::LimitReached(Limit::Nodes)) => self.turn = 1 - self.turn,
                Some(Outcome::Exhausted | Outcome::Optimal) => {
                    // A tree exhausted under the shared bound: nothing beats the best solution,
                    // whichever search found it.
                    self.outcome = Some(if self.solution.is_some() {
                        Outcome::Optimal
                    } else {
                        Outcome::Exhausted
                    });
                }
                Some(outcome) => self.outcome = Some(outcome),
                None => unreachable!("a search that gave no solution is over"),
            }
        }
        None
    }

    /// Nodes made so far by the first search and by the second.
    pub fn nodes_each(&self) -> (u64, u64) {
        (self.searches[0].nodes(), self.searches[1].nodes())
    }

    /// Nodes made so far by both searches.
    pub fn nodes(&self) -> u64 {
        self.searches.iter().map(|s| s.nodes()).sum()
    }

    /// The outcome, once the search is over.
    pub fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }

    /// Both searches' statistics added up, and the best solution if one was found.
    pub fn result(&self) -> SearchResult {
        let mut stats = Statistics::default();
        let mut propagations = 0;
        for search in &self.searches {
            let result = search.result();
            stats.absorb(&result.stats);
            stats.restarts += result.stats.restarts;
            propagations += result.propagations;
        }
        let objective = self
            .objective
            .zip(self.solution.as_ref())
            .map(|(var, values)| values[var.index()]);
        SearchResult {
            outcome: self.outcome.unwrap_or(Outcome::Stopped),
            stats,
            elapsed: self.started.elapsed(),
            solution: self.solution.clone(),
            objective,
            propagations,
        }
    }

    /// Gives the run more nodes or time (from now), as [`Solutions::set_budget`] does.
    pub fn set_budget(&mut self, nodes: Option<u64>, time: Option<Duration>) {
        self.limits.nodes = nodes.map(|more| self.nodes().saturating_add(more));
        self.limits.time = time.map(|more| self.started.elapsed() + more);
    }

    /// Lets a run that a node or time limit stopped go on.
    pub fn resume(&mut self) -> bool {
        match self.outcome {
            Some(Outcome::LimitReached(Limit::Nodes | Limit::Time)) => {
                self.outcome = None;
                true
            }
            _ => false,
        }
    }

    /// Shares both searches' bound with other searches too.
    pub fn share_bound(&mut self, bound: SharedBound) {
        for search in &mut self.searches {
            search.share_bound(bound.clone());
        }
    }
}

impl std::fmt::Debug for Interleaved<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Interleaved")
            .field("turns", &self.turns)
            .field("turn", &self.turn)
            .field("outcome", &self.outcome)
            .finish_non_exhaustive()
    }
}

impl Solutions for Interleaved<'_> {
    fn next(&mut self, mut observer: &mut dyn SearchObserver) -> Option<&[i32]> {
        self.next_solution(&mut observer)
    }

    fn outcome(&self) -> Option<Outcome> {
        Interleaved::outcome(self)
    }

    fn result(&self) -> SearchResult {
        Interleaved::result(self)
    }

    fn nodes(&self) -> u64 {
        Interleaved::nodes(self)
    }

    fn set_budget(&mut self, nodes: Option<u64>, time: Option<Duration>) {
        Interleaved::set_budget(self, nodes, time);
    }

    fn resume(&mut self) -> bool {
        Interleaved::resume(self)
    }

    fn share_bound(&mut self, bound: SharedBound) {
        Interleaved::share_bound(self, bound);
    }
}
