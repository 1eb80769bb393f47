//! Two searches of one model taking turns, for its first solution: the model's own search (a
//! FlatZinc model's annotations) and free search (dom/wdeg with restarts), each paused after a
//! slice of nodes and resumed where it stopped, until either finds a solution or exhausts its
//! tree. A portfolio of two on one thread, as large-neighbourhood search alternates with branch
//! and bound ([`crate::LnsSearch`]).
//!
//! An annotation such as `input_order, indomain_min` can leave a satisfiable model without a
//! solution for minutes where free search finds one in seconds (CostasArray 17: 20 s free, not in
//! 60 s annotated), while on others the annotated search is the fast one (black-hole 9: 5.7 s,
//! free search not in 20 s). Turns bound the loss at a fixed share of the better search's speed
//! (see [`TURN_NODES`] for the shares). Either search exhausting its tree proves that there is no
//! solution. The turns are counted in nodes, not time, so that a run is reproducible.

use std::time::{Duration, Instant};

use csp_core::Model;

use crate::{
    Limit, Limits, Outcome, Search, SearchConfig, SearchObserver, SearchResult, Statistics,
};

/// Nodes the first search makes in its turn: short enough that the other never waits long, long
/// enough that a turn is not dominated by resuming. The second search's turn is half as long.
///
/// Two to one, because the first search is the model's own (its author's advice) and its nodes
/// are the cheaper: free search chooses among every variable by weighted degree and restarts.
/// Measured at equal turns, the annotated search's unsatisfiable instances took 2 to 3 times
/// as long as alone (search_stress 08_04 5.6 s against 2.1 s, bibd 19_03_01 2.4 s against 0.8 s).
pub const TURN_NODES: u64 = 10_000;

/// The model's search and free search in turn (see the module's documentation).
pub struct Interleaved<'m> {
    searches: [Search<'m>; 2],
    /// Whose turn it is: 0 the first search, 1 the second.
    turn: usize,
    /// The first search's turn, in nodes.
    turn_nodes: u64,
    limits: Limits,
    started: Instant,
    outcome: Option<Outcome>,
    solution: Option<Vec<i32>>,
}

impl<'m> Interleaved<'m> {
    /// `first` and `second` in turn over `model`, `first` starting; the run's limits are
    /// `first`'s. For a model without an objective: under one each search would prune by its own
    /// bound only.
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
        Interleaved {
            turn_nodes: turn.max(1),
            searches: [Search::new(model, first), Search::new(model, second)],
            turn: 0,
            limits: first.limits,
            started: Instant::now(),
            outcome: None,
            solution: None,
        }
    }

    /// The first solution, or `None` when there is none (the outcome is then
    /// [`Outcome::Exhausted`]) or a limit stopped both searches. A second call returns `None`: the
    /// two searches would repeat each other's solutions.
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
            let turn = (self.turn_nodes >> self.turn)
                .max(1)
                .min(self.limits.nodes.map_or(u64::MAX, |max| max - nodes));
            let search = &mut self.searches[self.turn];
            // Each search measures its own time and nodes, which leave out the other's turns.
            let (own, elapsed) = (search.stats().nodes, search.elapsed());
            search.set_limits(Limits {
                nodes: Some(own + turn),
                time: left.map(|left| elapsed + left),
                ..Limits::default()
            });
            search.resume();
            if let Some(values) = search.next_solution(observer) {
                self.solution = Some(values.to_vec());
                self.outcome = Some(Outcome::Solved);
                return self.solution.as_deref();
            }
            match search.outcome() {
                Some(Outcome::LimitReached(Limit::Nodes)) => self.turn = 1 - self.turn,
                Some(outcome) => self.outcome = Some(outcome),
                None => unreachable!("a search that gave no solution is over"),
            }
        }
        None
    }

    /// Nodes made so far by the first search and by the second.
    pub fn nodes_each(&self) -> (u64, u64) {
        (
            self.searches[0].stats().nodes,
            self.searches[1].stats().nodes,
        )
    }

    /// Nodes made so far by both searches.
    fn nodes(&self) -> u64 {
        self.searches.iter().map(|s| s.stats().nodes).sum()
    }

    /// The outcome, once the search is over.
    pub fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }

    /// Both searches' statistics added up, and the solution if one was found.
    pub fn result(&self) -> SearchResult {
        let mut stats = Statistics::default();
        let mut propagations = 0;
        for search in &self.searches {
            stats.absorb(search.stats());
            propagations += search.result().propagations;
        }
        SearchResult {
            outcome: self.outcome.unwrap_or(Outcome::Stopped),
            stats,
            elapsed: self.started.elapsed(),
            solution: self.solution.clone(),
            objective: None,
            propagations,
        }
    }
}
