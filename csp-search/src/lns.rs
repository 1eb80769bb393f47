//! Large-neighbourhood search around branch and bound (Shaw 1998, *Using constraint programming and
//! local search methods to solve vehicle routing problems*): from the best solution so far, fix a
//! share of the decision variables to their values, search the rest for a better solution under a
//! node budget, and go on from whatever it finds; the share adapts, growing the free part after a
//! neighbourhood is searched through in vain and shrinking it after one runs out of budget.
//!
//! Neighbourhoods are random, or propagation-guided (Perron, Shaw & Furnon 2004, *Propagation
//! guided large neighborhood search*): variables are fixed one at a time, each propagated, and the
//! next is the one whose domain the fixings so far reduced most (a random one when none was
//! reduced), so that the variables left free are the ones tied to each other.
//!
//! It alternates, node for node, with the complete branch and bound, which it pauses and resumes
//! and never restarts, and which shares the bound: every solution a neighbourhood finds prunes the
//! complete tree at once. When the complete search exhausts its tree, the best solution is proven
//! optimal, as without neighbourhoods. Every choice comes from the seed, so a run is reproducible.

use std::ops::ControlFlow;
use std::time::{Duration, Instant};

use csp_core::{Checkpoint, Model, Objective, Store, VarId};
use fixedbitset::FixedBitSet;
use rand::RngExt;

use crate::bound::SharedBound;
use crate::branch::BuiltinBrancher;
use crate::split::SubproblemPool;
use crate::{
    Limit, Limits, Outcome, Rng, Search, SearchConfig, SearchEvent, SearchObserver, SearchResult,
    Solutions, Statistics, ValueSelection, rng_for,
};

/// The random stream neighbourhoods draw from (see [`rng_for`]).
const LNS_STREAM: u64 = 7;

/// How the variables a neighbourhood fixes are chosen.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Neighbourhood {
    /// Variables at random.
    Random,
    /// Perron, Shaw & Furnon's propagation-guided choice.
    PropagationGuided,
    /// A rectangle of one of the model's grids ([`LnsConfig::grids`]) left free, the rest fixed:
    /// the structure the model names (a region of a board, a window of a schedule).
    Window,
    /// Each in turn, the window only when the model names grids (the default: none wins
    /// everywhere).
    #[default]
    Alternating,
}

/// Variables laid out in rows and columns, as a model names them (a board, a schedule of jobs by
/// machines; one row for a sequence), for [`Neighbourhood::Window`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Grid {
    /// The cells, row by row: a variable, or `None` for a constant (a board's border).
    pub cells: Vec<Option<VarId>>,
    /// How many columns a row has.
    pub columns: usize,
}

/// How large-neighbourhood search runs.
#[derive(Debug, Clone, PartialEq)]
pub struct LnsConfig {
    /// The variables a neighbourhood fixes or leaves free: the model's decision variables (the
    /// others follow from them by propagation). Empty: every variable.
    pub vars: Vec<VarId>,
    /// How neighbourhoods are chosen.
    pub neighbourhood: Neighbourhood,
    /// The nodes one neighbourhood may search.
    pub nodes: u64,
    /// The nodes of complete search between two phases of neighbourhoods. A phase of
    /// neighbourhoods takes as many nodes while neighbourhoods improve the best solution; after a
    /// phase that does not, the next takes half as many, down to a sixteenth (in effect one
    /// neighbourhood, of at most [`LnsConfig::nodes`]), so that a model where neighbourhoods do
    /// not help leaves nearly all its time to the complete search.
    pub slice: u64,
    /// The share of the variables a first neighbourhood leaves free.
    pub initial_free: f64,
    /// Grids of the decision variables, for windows.
    pub grids: Vec<Grid>,
}

impl Default for LnsConfig {
    fn default() -> Self {
        LnsConfig {
            vars: Vec::new(),
            neighbourhood: Neighbourhood::default(),
            nodes: 2_000,
            slice: 10_000,
            initial_free: 0.2,
            grids: Vec::new(),
        }
    }
}

/// The smallest and largest share of the variables a neighbourhood leaves free.
const FREE_RANGE: (f64, f64) = (0.02, 0.9);

/// The least share of a slice a phase of neighbourhoods gets, as a power of two: a sixteenth,
/// which in effect is one neighbourhood. Neighbourhoods that have stopped improving then take at
/// most a sixth of the nodes (one neighbourhood of 2,000 to a slice of 10,000) rather than a
/// fifth or more (two), and the proof gets the rest: still_life 8×8, whose optimum they find
/// early, is proven in 4.4 M nodes rather than 5.0 M (19.8 s rather than 22.3 s). A phase that
/// improves the best solution gives them their whole share back at once.
const MAX_HALVINGS: u32 = 4;

/// Which search runs now.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Phase {
    /// The complete search, until it has made this many nodes.
    Complete { until: u64 },
    /// Neighbourhoods, until they have made this many nodes in all.
    Neighbourhoods { until: u64 },
}

/// Branch and bound with large-neighbourhood search: a search with [`Search`]'s interface,
/// [`LnsSearch::next_solution`] giving each improving solution.
pub struct LnsSearch<'m> {
    model: &'m Model,
    config: SearchConfig,
    lns: LnsConfig,
    vars: Vec<VarId>,
    bound: SharedBound,
    /// The complete search: of the whole tree, or of the subproblem taken last from `pool`.
    complete: Search<'m>,
    /// The split tree whose subproblems the complete search takes in turn, if any
    /// ([`LnsSearch::search_subproblems`]).
    pool: Option<&'m SubproblemPool>,
    /// The statistics and propagations of the subproblems searched to their end.
    finished: Statistics,
    finished_propagations: u64,
    /// Whether the complete search has nothing left to search while the run goes on: every
    /// subproblem is taken, and the others are still being searched elsewhere.
    complete_over: bool,
    /// The neighbourhood being searched.
    sub: Option<Search<'m>>,
    /// The root, propagated, on which neighbourhoods are chosen; `None` until the first one.
    scratch: Option<(Store, Checkpoint)>,
    rng: Rng,
    /// The share of `vars` the next neighbourhood leaves free.
    free: f64,
    phase: Phase,
    /// The best solution so far.
    incumbent: Vec<i32>,
    best: Option<i64>,
    /// The version of the shared bound's solution last looked at ([`LnsSearch::adopt_shared`]).
    seen: u64,
    /// Whether the neighbourhood being searched improved the incumbent.
    improved: bool,
    /// Whether the current phase of neighbourhoods improved it.
    phase_improved: bool,
    /// How many times the next phase of neighbourhoods is halved.
    halvings: u32,
    /// The finished neighbourhoods' statistics and propagations, summed.
    done: Statistics,
    done_propagations: u64,
    neighbourhoods: u64,
    outcome: Option<Outcome>,
    started: Instant,
    /// Scratch space of the propagation-guided choice.
    scores: Vec<f64>,
    sizes: Vec<u64>,
    member: FixedBitSet,
    changed: Vec<VarId>,
}

impl<'m> LnsSearch<'m> {
    /// Branch and bound on `model` (which must have an objective) as `config` says, with
    /// neighbourhoods as `lns` says. `config`'s limits hold for the whole run.
    pub fn new(model: &'m Model, config: &SearchConfig, lns: LnsConfig) -> Self {
        let bound = SharedBound::new(model.objective())
            .expect("large-neighbourhood search needs an objective");
        let mut complete = Search::new(model, config);
        complete.share_bound(bound.clone());
        let vars = if lns.vars.is_empty() {
            model.vars().collect()
        } else {
            lns.vars.clone()
        };
        let mut member = FixedBitSet::with_capacity(model.num_vars());
        for var in &vars {
            member.insert(var.index());
        }
        LnsSearch {
            model,
            config: config.clone(),
            free: lns.initial_free.clamp(FREE_RANGE.0, FREE_RANGE.1),
            phase: Phase::Complete { until: lns.slice },
            lns,
            vars,
            bound,
            complete,
            pool: None,
            finished: Statistics::default(),
            finished_propagations: 0,
            complete_over: false,
            sub: None,
            scratch: None,
            rng: rng_for(config.seed, LNS_STREAM),
            incumbent: Vec::new(),
            best: None,
            seen: 0,
            improved: false,
            phase_improved: false,
            halvings: 0,
            done: Statistics::default(),
            done_propagations: 0,
            neighbourhoods: 0,
            outcome: None,
            started: Instant::now(),
            scores: vec![0.0; model.num_vars()],
            sizes: vec![0; model.num_vars()],
            member,
            changed: Vec::new(),
        }
    }

    /// Shares the bound with other searches too (a portfolio's other workers): the complete search
    /// and every neighbourhood then use `bound` rather than one of their own.
    pub fn share_bound(&mut self, bound: SharedBound) {
        if let Some(best) = self.best {
            bound.offer_solution(best, &self.incumbent);
        } else if let Some(best) = self.bound.get() {
            bound.offer(best);
        }
        self.seen = 0;
        self.bound = bound.clone();
        self.complete.share_bound(bound);
    }

    /// Makes the complete search that of the subproblems of a split tree ([`crate::split`]),
    /// taken from `pool` one after another, shared with other searches (a portfolio's splitting
    /// workers): the neighbourhoods alternate with them as with a tree of the search's own. The
    /// search proves optimality when it finishes the last subproblem of the pool to be finished;
    /// once every subproblem is taken it goes on with neighbourhoods alone, until it is stopped.
    /// Call it before the first solution is asked for.
    pub fn search_subproblems(&mut self, pool: &'m SubproblemPool) {
        self.pool = Some(pool);
        self.take_subproblem();
    }

    /// Replaces the complete search with one of the next subproblem of the pool, or records that
    /// none is left.
    fn take_subproblem(&mut self) {
        let Some(pool) = self.pool else { return };
        match pool.take_search(self.model, &self.config, Some(&self.bound)) {
            Some(search) => {
                let old = std::mem::replace(&mut self.complete, search);
                let result = old.result();
                self.finished.absorb(&result.stats);
                self.finished_propagations += result.propagations;
            }
            None => self.complete_over = true,
        }
    }

    /// Lets the run make at most `nodes` more nodes (the complete search's and the
    /// neighbourhoods' together) and spend at most `time` more (from now; `None`: no limit), in
    /// place of the node and time limits it had: a caller that runs it in slices
    /// ([`crate::Interleaved`]) gives it one at a time.
    pub fn set_budget(&mut self, nodes: Option<u64>, time: Option<Duration>) {
        let (complete, neighbourhoods) = self.nodes();
        self.config.limits.nodes =
            nodes.map(|more| (complete + neighbourhoods).saturating_add(more));
        self.config.limits.time = time.map(|more| self.started.elapsed() + more);
    }

    /// Lets a run that a node or time limit stopped go on; whether it can.
    pub fn resume(&mut self) -> bool {
        match self.outcome {
            Some(Outcome::LimitReached(Limit::Nodes | Limit::Time)) => {
                self.outcome = None;
                true
            }
            _ => false,
        }
    }

    /// How many neighbourhoods were searched.
    pub fn neighbourhoods(&self) -> u64 {
        self.neighbourhoods
    }

    /// The outcome, once the search is over.
    pub fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }

    /// The statistics of the complete search and of every neighbourhood, summed.
    pub fn stats(&self) -> Statistics {
        let mut stats = self.complete.stats().clone();
        stats.absorb(&self.finished);
        stats.absorb(&self.done);
        if let Some(sub) = &self.sub {
            stats.absorb(sub.stats());
        }
        stats.restarts += self.neighbourhoods;
        stats
    }

    /// The result so far: the outcome (`Stopped` while running), the summed statistics, and the
    /// best solution.
    pub fn result(&self) -> SearchResult {
        let propagations = self.complete.result().propagations
            + self.finished_propagations
            + self.done_propagations
            + self.sub.as_ref().map_or(0, |s| s.result().propagations);
        SearchResult {
            outcome: self.outcome.unwrap_or(Outcome::Stopped),
            stats: self.stats(),
            elapsed: self.started.elapsed(),
            solution: (!self.incumbent.is_empty()).then(|| self.incumbent.clone()),
            objective: self.best.map(|b| b as i32),
            propagations,
        }
    }

    /// The nodes made so far, by the complete search (over every subproblem) and by
    /// neighbourhoods.
    fn nodes(&self) -> (u64, u64) {
        let sub = self.sub.as_ref().map_or(0, |s| s.stats().nodes);
        (
            self.finished.nodes + self.complete.stats().nodes,
            self.done.nodes + sub,
        )
    }

    /// The time left of the run's time limit.
    fn time_left(&self) -> Option<Duration> {
        self.config
            .limits
            .time
            .map(|limit| limit.saturating_sub(self.started.elapsed()))
    }

    /// Walks on to the next improving solution and returns it, or `None` when the search is over
    /// (see [`LnsSearch::outcome`]).
    pub fn next_solution<O: SearchObserver>(&mut self, observer: &mut O) -> Option<&[i32]> {
        loop {
            if self.outcome.is_some() {
                return None;
            }
            let (complete_nodes, lns_nodes) = self.nodes();
            if self
                .config
                .limits
                .nodes
                .is_some_and(|max| complete_nodes + lns_nodes >= max)
            {
                self.outcome = Some(Outcome::LimitReached(Limit::Nodes));
                return None;
            }
            if self.time_left() == Some(Duration::ZERO) {
                self.outcome = Some(Outcome::LimitReached(Limit::Time));
                return None;
            }
            if self.config.stopped() {
                self.outcome = Some(Outcome::Stopped);
                return None;
            }
            self.adopt_shared();
            match self.phase {
                Phase::Complete { .. } if self.complete_over => {
                    // Every subproblem is taken: neighbourhoods alone, if there is an incumbent
                    // to start from; otherwise nothing is left for this search to do.
                    if self.best.is_none() {
                        self.outcome = Some(Outcome::Stopped);
                        return None;
                    }
                    self.phase_improved = false;
                    self.phase = Phase::Neighbourhoods {
                        until: lns_nodes + (self.lns.slice >> self.halvings).max(1),
                    };
                }
                Phase::Complete { until } => {
                    let overall = self.config.limits.nodes.map(|max| max - lns_nodes);
                    // The current search counts its own nodes, not those of the subproblems
                    // finished before it.
                    let before = self.finished.nodes;
                    // The complete search measures its own time, which leaves out the
                    // neighbourhoods': its limit is what it has used plus what the run has left.
                    let elapsed = self.complete.elapsed();
                    self.complete.set_limits(Limits {
                        nodes: Some(
                            overall
                                .map_or(until, |o| o.min(until))
                                .saturating_sub(before),
                        ),
                        time: self.time_left().map(|left| elapsed + left),
                        ..Limits::default()
                    });
                    self.complete.resume();
                    if let Some(values) = self.complete.next_solution(observer) {
                        let objective = self.model.objective().var().map(|v| values[v.index()]);
                        self.incumbent.clear();
                        self.incumbent.extend_from_slice(values);
                        self.best = objective.map(i64::from);
                        return Some(&self.incumbent);
                    }
                    match self.complete.outcome() {
                        Some(Outcome::LimitReached(Limit::Nodes))
                            if complete_nodes < self.config.limits.nodes.unwrap_or(u64::MAX) =>
                        {
                            // The slice is spent: neighbourhoods, once there is a solution to
                            // start from.
                            let (nodes, _) = self.nodes();
                            self.phase = if self.best.is_some() {
                                self.phase_improved = false;
                                Phase::Neighbourhoods {
                                    until: lns_nodes + (self.lns.slice >> self.halvings).max(1),
                                }
                            } else {
                                Phase::Complete {
                                    until: nodes + self.lns.slice,
                                }
                            };
                        }
                        Some(Outcome::Optimal | Outcome::Exhausted) => {
                            // The whole tree is exhausted under the shared bound when this was
                            // it, or the last of its subproblems to be finished: then nothing
                            // beats the best solution, whoever found it. Otherwise the next
                            // subproblem.
                            if self.pool.is_none_or(SubproblemPool::finish) {
                                self.outcome = Some(if self.best.is_some() {
                                    Outcome::Optimal
                                } else {
                                    Outcome::Exhausted
                                });
                            } else {
                                self.take_subproblem();
                            }
                        }
                        Some(outcome) => self.outcome = Some(outcome),
                        None => unreachable!("a search that gave no solution is over"),
                    }
                }
                Phase::Neighbourhoods { until } => {
                    if self.sub.is_none() {
                        let (complete_nodes, _) = self.nodes();
                        if lns_nodes >= until {
                            self.halvings = if self.phase_improved {
                                0
                            } else {
                                (self.halvings + 1).min(MAX_HALVINGS)
                            };
                            self.phase = Phase::Complete {
                                until: complete_nodes + self.lns.slice,
                            };
                            continue;
                        }
                        if !self.start_neighbourhood(observer) {
                            continue;
                        }
                    }
                    let sub = self
                        .sub
                        .as_mut()
                        .expect("a neighbourhood is being searched");
                    if let Some(values) = sub.next_solution(observer) {
                        let objective = self.model.objective().var().map(|v| values[v.index()]);
                        self.incumbent.clear();
                        self.incumbent.extend_from_slice(values);
                        self.best = objective.map(i64::from);
                        self.improved = true;
                        self.phase_improved = true;
                        return Some(&self.incumbent);
                    }
                    self.finish_neighbourhood();
                }
            }
        }
    }

    /// Takes the best solution of the searches sharing the bound as the incumbent when another
    /// search found it: the neighbourhoods are then cut around the best solution, whoever found
    /// it. Without this, a search beside another (a portfolio's worker, a turn of
    /// [`crate::Interleaved`]) whose partner finds the solutions has no incumbent, or a worse one,
    /// and cannot search neighbourhoods at all (template_design catfood_3 went unproven in 20 s
    /// beside a learning search, where either alone proves it in 3 s). Alone, the kept solution is
    /// always this search's own, so nothing changes.
    fn adopt_shared(&mut self) {
        let version = self.bound.version();
        if version == self.seen {
            return;
        }
        self.seen = version;
        if let Some((value, values)) = self.bound.solution()
            && self.best.is_none_or(|best| self.bound.better(value, best))
        {
            self.incumbent.clear();
            self.incumbent.extend_from_slice(&values);
            self.best = Some(value);
        }
    }

    /// Chooses the next neighbourhood and prepares its search; returns whether there is one to
    /// search (false when the run is over, or the neighbourhood failed already at its root).
    fn start_neighbourhood<O: SearchObserver>(&mut self, observer: &mut O) -> bool {
        self.neighbourhoods += 1;
        let event = SearchEvent::Restart {
            count: self.complete.stats().restarts + self.neighbourhoods,
        };
        if let ControlFlow::Break(()) = observer.on_event(&event) {
            self.outcome = Some(Outcome::Stopped);
            return false;
        }
        let kinds: &[Neighbourhood] = match self.lns.neighbourhood {
            Neighbourhood::Alternating if self.lns.grids.is_empty() => {
                &[Neighbourhood::Random, Neighbourhood::PropagationGuided]
            }
            Neighbourhood::Alternating => &[
                Neighbourhood::Random,
                Neighbourhood::PropagationGuided,
                Neighbourhood::Window,
            ],
            Neighbourhood::Window if self.lns.grids.is_empty() => &[Neighbourhood::Random],
            ref kind => std::slice::from_ref(kind),
        };
        let kind = kinds[(self.neighbourhoods % kinds.len() as u64) as usize];
        let Some(fixings) = self.choose(kind) else {
            // The root fails under the bound: nothing beats the best solution.
            self.outcome = Some(Outcome::Optimal);
            return false;
        };
        let mut config = self.config.clone();
        config.restarts = None;
        config.seed = self.config.seed.wrapping_add(self.neighbourhoods);
        config.limits = Limits {
            nodes: Some(self.lns.nodes),
            time: self.time_left(),
            ..Limits::default()
        };
        // The neighbourhood's free variables take random values, annotated or not: each
        // neighbourhood then looks somewhere else (indomain_min kept every one at the same corner
        // of its space: still life 8 × 8, which names no variable, stayed at 35 of 36 in 20 s,
        // and template_design catfood_3, which names them all, at 409 of 408).
        let brancher = match BuiltinBrancher::from_config(self.model, &config) {
            BuiltinBrancher::Decisions(decisions) => {
                BuiltinBrancher::Decisions(decisions.with_values(ValueSelection::Random))
            }
            enumerate => enumerate,
        };
        let mut sub = Search::configured(self.model, &config, brancher);
        sub.share_bound(self.bound.clone());
        sub.restrict_root(&fixings);
        self.sub = Some(sub);
        self.improved = false;
        true
    }

    /// Adds the finished neighbourhood to the totals and adapts the share left free: larger after
    /// a neighbourhood searched through without improvement (it was too small), smaller after one
    /// that ran out of nodes without improvement (too large).
    fn finish_neighbourhood(&mut self) {
        let sub = self.sub.take().expect("a neighbourhood was being searched");
        let result = sub.result();
        self.done.absorb(&result.stats);
        self.done_propagations += result.propagations;
        match result.outcome {
            Outcome::LimitReached(Limit::Time) => {
                self.outcome = Some(Outcome::LimitReached(Limit::Time));
            }
            Outcome::Stopped => self.outcome = Some(Outcome::Stopped),
            _ if self.improved => {}
            Outcome::LimitReached(_) => self.free = (self.free * 0.95).max(FREE_RANGE.0),
            _ => self.free = (self.free * 1.1).min(FREE_RANGE.1),
        }
    }

    /// The fixings of the next neighbourhood, chosen on the root propagated under the bound; `None`
    /// when that root fails (the bound cannot be beaten).
    fn choose(&mut self, kind: Neighbourhood) -> Option<Vec<(VarId, i32)>> {
        let guided = kind == Neighbourhood::PropagationGuided;
        let model = self.model;
        if self.scratch.is_none() {
            let mut store = Store::new(model);
            store.set_tracking(true);
            store.establish_arc_consistency(model).ok()?;
            let root = store.checkpoint();
            self.scratch = Some((store, root));
        }
        let (store, root) = self.scratch.as_mut().expect("built above");
        store.undo_to(model, *root);
        if let (Some(best), Some(objective)) = (self.bound.get(), model.objective().var()) {
            let bounded = match model.objective() {
                Objective::Maximize(_) => store.set_bounds(objective, best + 1, i64::MAX),
                _ => store.set_bounds(objective, i64::MIN, best - 1),
            };
            bounded.ok()?;
            store.propagate(model).ok()?;
        }
        let free_target = ((self.free * self.vars.len() as f64).ceil() as usize).max(1);
        let mut free = 0;
        for &var in &self.vars {
            let size = store.size(var);
            self.sizes[var.index()] = size;
            self.scores[var.index()] = 0.0;
            free += usize::from(size > 1);
        }
        let mut order = self.vars.clone();
        // Fisher–Yates, so that every order is equally likely from the seed.
        for i in (1..order.len()).rev() {
            let j = self.rng.random_range(0..=i);
            order.swap(i, j);
        }
        if kind == Neighbourhood::Window {
            // The window's variables are never fixed: the others are, in the random order.
            let mut inside = FixedBitSet::with_capacity(model.num_vars());
            for var in window(&self.lns.grids, free_target, &mut self.rng) {
                inside.insert(var.index());
            }
            order.retain(|var| !inside.contains(var.index()));
        }
        let mut fixings = Vec::new();
        let mut candidates: Vec<VarId> = Vec::new();
        let mut next_random = 0;
        while free > free_target {
            // The next variable to fix: the one the fixings so far reduced most, or the next in
            // the random order.
            let var = if guided && !candidates.is_empty() {
                let scores = &self.scores;
                let best = (0..candidates.len())
                    .max_by(|&a, &b| {
                        scores[candidates[a].index()].total_cmp(&scores[candidates[b].index()])
                    })
                    .expect("not empty");
                candidates.swap_remove(best)
            } else {
                let Some(&var) = order.get(next_random) else {
                    break;
                };
                next_random += 1;
                var
            };
            let value = self.incumbent[var.index()];
            let domain = store.domain(var);
            if domain.is_fixed() || !domain.contains(value) {
                continue;
            }
            let before = store.checkpoint();
            let fixed = store
                .set_bounds(var, i64::from(value), i64::from(value))
                .is_ok()
                && store.propagate(model).is_ok();
            if !fixed {
                // The incumbent's value fails here under the bound: leave the variable free.
                store.undo_to(model, before);
                continue;
            }
            fixings.push((var, value));
            self.changed.clear();
            store.changed_vars_since(before, &mut self.changed);
            for &other in &self.changed {
                let i = other.index();
                if !self.member.contains(i) {
                    continue;
                }
                let size = store.size(other);
                if size == self.sizes[i] {
                    continue;
                }
                if size == 1 {
                    free -= usize::from(self.sizes[i] > 1);
                } else if guided && other != var {
                    // Perron, Shaw & Furnon: the reduction, as the log of the ratio of sizes.
                    if self.scores[i] == 0.0 {
                        candidates.push(other);
                    }
                    self.scores[i] += (self.sizes[i] as f64 / size as f64).ln();
                }
                self.sizes[i] = size;
            }
            candidates.retain(|v| store.size(*v) > 1);
        }
        Some(fixings)
    }
}

/// A rectangle of about `area` variables of one of the grids (chosen in proportion to their
/// sizes), placed at random.
fn window(grids: &[Grid], area: usize, rng: &mut Rng) -> Vec<VarId> {
    let total: usize = grids.iter().map(|g| g.cells.len()).sum();
    if total == 0 {
        return Vec::new();
    }
    let mut pick = rng.random_range(0..total);
    let grid = grids
        .iter()
        .find(|g| {
            let inside = pick < g.cells.len();
            pick = pick.saturating_sub(g.cells.len());
            inside
        })
        .expect("pick is below the total");
    let columns = grid.columns.max(1);
    let rows = grid.cells.len().div_ceil(columns);
    // A square where the grid allows, a strip of whole rows or a segment of one row otherwise.
    let side = (area as f64).sqrt().ceil() as usize;
    let width = side.clamp(1, columns);
    let height = area.div_ceil(width).clamp(1, rows);
    let top = rng.random_range(0..=rows - height);
    let left = rng.random_range(0..=columns - width);
    let mut out = Vec::with_capacity(width * height);
    for row in top..top + height {
        for column in left..left + width {
            if let Some(&Some(var)) = grid.cells.get(row * columns + column) {
                out.push(var);
            }
        }
    }
    out
}

impl std::fmt::Debug for LnsSearch<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LnsSearch")
            .field("lns", &self.lns)
            .field("free", &self.free)
            .field("phase", &self.phase)
            .field("best", &self.best)
            .field("neighbourhoods", &self.neighbourhoods)
            .field("outcome", &self.outcome)
            .finish_non_exhaustive()
    }
}

impl Solutions for LnsSearch<'_> {
    fn next(&mut self, mut observer: &mut dyn SearchObserver) -> Option<&[i32]> {
        self.next_solution(&mut observer)
    }

    fn outcome(&self) -> Option<Outcome> {
        LnsSearch::outcome(self)
    }

    fn result(&self) -> SearchResult {
        LnsSearch::result(self)
    }

    fn nodes(&self) -> u64 {
        self.stats().nodes
    }

    fn set_budget(&mut self, nodes: Option<u64>, time: Option<Duration>) {
        LnsSearch::set_budget(self, nodes, time);
    }

    fn resume(&mut self) -> bool {
        LnsSearch::resume(self)
    }

    fn share_bound(&mut self, bound: SharedBound) {
        LnsSearch::share_bound(self, bound);
    }
}
