//! The min-conflicts repair loop.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use csp_core::{Domain, LocalCtx, LocalState, Model, Rng, Store, VarId, rng_for};
use rand::RngExt;

use crate::{LocalConfig, LocalStats, Neighbourhood, Start};

/// The random stream of the start (see [`rng_for`]); the repair steps draw from their own stream, so
/// changing how the start samples does not shift the steps' choices.
const START_STREAM: u64 = 11;
/// The random stream of the repair steps.
const STEP_STREAM: u64 = 12;

/// Uniform draws of a variable tried before a full scan for a conflicted one. While many variables are
/// conflicted a draw almost always finds one; when few are, the scan (which a step's value scan
/// matches in cost) finds them all and proves a solution when there are none.
const CONFLICTED_DRAWS: u32 = 32;

/// Values the greedy start's scan hands the constraints at once.
const SCAN_WINDOW: usize = 64;

/// How often, in steps, the clock is read for the time limit.
const CLOCK_EVERY: u64 = 64;

/// Why [`min_conflicts`] could not run.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum LocalError {
    /// [`Start::Permutation`] needs every variable to share one domain of exactly as many values as
    /// there are variables.
    #[error(
        "a permutation start needs every variable to share one domain of {num_vars} values, but {reason}"
    )]
    NotAPermutation {
        /// The number of variables of the model.
        num_vars: usize,
        /// What differs.
        reason: String,
    },
}

/// Which limit ended an unsolved run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum LocalLimit {
    /// [`LocalConfig::max_steps`] steps were taken.
    Steps,
    /// [`LocalConfig::time_limit`] passed.
    Time,
}

/// How a run ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum LocalOutcome {
    /// Every constraint is satisfied: [`LocalResult::assignment`] is a solution.
    Solved,
    /// A limit was reached first; [`LocalResult::assignment`] is the best assignment measured (each
    /// variable's smallest value if the limit came before the first start was complete: a time
    /// limit during a greedy start, or no step allowed at all).
    LimitReached(LocalLimit),
    /// The caller's stop flag was raised (another thread's run won, say).
    Stopped,
}

/// The result of [`min_conflicts`].
#[derive(Debug, Clone, PartialEq)]
pub struct LocalResult {
    /// How the run ended.
    pub outcome: LocalOutcome,
    /// The solution, or else the assignment with the fewest total conflicts among those measured (at
    /// every start, at steps 1, 2, 4, 8, … and at the end), indexed by [`VarId::index`].
    pub assignment: Vec<i32>,
    /// The total conflicts of `assignment` (0 for a solution); see [`total_conflicts`].
    pub conflicts: u64,
    /// What the run counted.
    pub stats: LocalStats,
    /// Wall-clock time of the run.
    pub elapsed: Duration,
}

/// The sum over all variables of each one's conflicts under `values` (a complete assignment indexed
/// by [`VarId::index`]): zero exactly when every constraint is satisfied. For N-queens' counters this
/// is twice the number of attacking pairs.
pub fn total_conflicts(model: &Model, values: &[i32]) -> u64 {
    let mut state = State::new(model, values.to_vec());
    state.reset_cells();
    state.total(&mut Scratch::default())
}

/// Runs min-conflicts on `model` with `config`; `stop`, when given, is polled every step and ends the
/// run with [`LocalOutcome::Stopped`] once raised.
///
/// Each step picks a conflicted variable uniformly at random (by rejection sampling, with a full scan
/// when draws keep missing) and, under [`Neighbourhood::Change`], gives it the value of its domain with
/// the fewest conflicts, the current value included and ties broken at random; under
/// [`Neighbourhood::Swap`], the swap with a partner that lowers the two variables' conflicts most. With
/// probability [`LocalConfig::noise`] the step is a random walk instead. A value a variable just left is
/// tabu for [`LocalConfig::tabu_tenure`] steps unless taking it leaves the variable conflict-free.
///
/// The run is reproducible: the same model, configuration and seed give the same assignment and
/// statistics on any machine (only a time limit or the stop flag, which depend on the clock and on
/// other threads, can end it at a different step).
pub fn min_conflicts(
    model: &Model,
    config: &LocalConfig,
    stop: Option<&AtomicBool>,
) -> Result<LocalResult, LocalError> {
    if config.start == Start::Permutation {
        check_permutation(model)?;
    }
    let started = Instant::now();
    let mut run = Run::new(model, config, started);
    let outcome = run.solve(stop);
    let state = &run.state;
    let (assignment, conflicts) = match outcome {
        LocalOutcome::Solved => (state.values.clone(), 0),
        _ => {
            if run.best.is_empty() {
                // The run ended before its first start was complete: the assignment measured is
                // each variable's smallest value, a complete assignment within the domains.
                for var in model.vars() {
                    // A built model has no empty domain, so the fallback is never taken.
                    run.state.values[var.index()] = model.initial_domain(var).min().unwrap_or(0);
                }
                run.state.reset_cells();
            }
            run.measure();
            (run.best.clone(), run.stats.best_conflicts)
        }
    };
    Ok(LocalResult {
        outcome,
        assignment,
        conflicts,
        stats: run.stats,
        elapsed: started.elapsed(),
    })
}

/// Whether the model suits [`Start::Permutation`].
fn check_permutation(model: &Model) -> Result<(), LocalError> {
    let num_vars = model.num_vars();
    let refuse = |reason: String| Err(LocalError::NotAPermutation { num_vars, reason });
    let Some(first) = model.vars().next() else {
        return Ok(());
    };
    let shared = model.initial_domain(first);
    if shared.size() as usize != num_vars {
        return refuse(format!(
            "{} has {} values",
            model.name(first),
            shared.size()
        ));
    }
    match model
        .vars()
        .find(|&var| model.initial_domain(var) != shared)
    {
        Some(var) => refuse(format!(
            "{} and {} have different domains",
            model.name(first),
            model.name(var)
        )),
        None => Ok(()),
    }
}

/// A complete assignment with every constraint's local-search cells kept current.
struct State<'m> {
    model: &'m Model,
    values: Vec<i32>,
    cells: Vec<i64>,
}

impl<'m> State<'m> {
    fn new(model: &'m Model, values: Vec<i32>) -> Self {
        State {
            model,
            values,
            cells: vec![0; model.num_cells()],
        }
    }

    /// Rebuilds every constraint's cells from the assignment.
    fn reset_cells(&mut self) {
        for id in self.model.constraint_ids() {
            let range = self.model.cell_range(id);
            self.model
                .constraint(id)
                .reset_local(&self.values, &mut LocalState::new(&mut self.cells[range]));
        }
    }

    /// The conflicts `var` would have with `value`, every other variable keeping its value.
    #[inline]
    fn conflicts(&self, var: VarId, value: i32) -> u64 {
        self.model
            .constraints_of(var)
            .iter()
            .map(|&id| {
                let ctx = LocalCtx::new(&self.values, &self.cells[self.model.cell_range(id)]);
                u64::from(self.model.constraint(id).conflicts(var, value, &ctx))
            })
            .sum()
    }

    /// The conflicts of `var` at its current value.
    #[inline]
    fn current_conflicts(&self, var: VarId) -> u64 {
        self.conflicts(var, self.values[var.index()])
    }

    /// Moves `var` to `value`, telling its constraints.
    #[inline]
    fn set(&mut self, var: VarId, value: i32) {
        let old = std::mem::replace(&mut self.values[var.index()], value);
        if old == value {
            return;
        }
        for &id in self.model.constraints_of(var) {
            let range = self.model.cell_range(id);
            self.model.constraint(id).moved(
                var,
                old,
                value,
                &mut LocalState::new(&mut self.cells[range]),
            );
        }
    }

    /// Every variable's conflicts at its current value, by variable index, into `out`; one batch call
    /// per constraint. `scratch` is a reused buffer.
    fn all_conflicts(&self, out: &mut Vec<u32>, scratch: &mut Vec<u32>) {
        out.clear();
        out.resize(self.values.len(), 0);
        for id in self.model.constraint_ids() {
            let constraint = self.model.constraint(id);
            let scope = constraint.scope();
            scratch.clear();
            scratch.resize(scope.len(), 0);
            let ctx = LocalCtx::new(&self.values, &self.cells[self.model.cell_range(id)]);
            constraint.add_scope_conflicts(&ctx, scratch);
            for (&var, &conflicts) in scope.iter().zip(scratch.iter()) {
                out[var.index()] += conflicts;
            }
        }
    }

    /// The conflicts `var` would have with each of `values`, into `out`; one batch call per constraint.
    fn value_conflicts(&self, var: VarId, values: &[i32], out: &mut Vec<u32>) {
        out.clear();
        out.resize(values.len(), 0);
        for &id in self.model.constraints_of(var) {
            let ctx = LocalCtx::new(&self.values, &self.cells[self.model.cell_range(id)]);
            self.model
                .constraint(id)
                .add_conflicts(var, values, &ctx, out);
        }
    }

    /// The sum of every variable's conflicts.
    fn total(&self, scratch: &mut Scratch) -> u64 {
        self.all_conflicts(&mut scratch.per_var, &mut scratch.per_scope);
        scratch.per_var.iter().map(|&c| u64::from(c)).sum()
    }
}

/// Reused buffers, so that steps do not allocate.
#[derive(Default)]
struct Scratch {
    /// Conflicts per variable.
    per_var: Vec<u32>,
    /// Conflicts per scope position of one constraint.
    per_scope: Vec<u32>,
    /// A domain's values, and their conflicts.
    values: Vec<i32>,
    value_conflicts: Vec<u32>,
}

/// One run's state beyond the assignment: configuration, randomness, tabu list, statistics and the best
/// assignment measured.
struct Run<'m, 'c> {
    config: &'c LocalConfig,
    state: State<'m>,
    start_rng: Rng,
    step_rng: Rng,
    /// The value each variable last left, and the step until which it may not return to it.
    tabu: Vec<(i32, u64)>,
    stats: LocalStats,
    best: Vec<i32>,
    /// The step at which the conflict history next records the total.
    next_record: u64,
    /// Reused buffers: conflicted variables found by a scan, tied best moves, batch results.
    conflicted: Vec<VarId>,
    ties: Vec<i32>,
    scratch: Scratch,
    partner_ties: Vec<VarId>,
    started: Instant,
}

impl<'m, 'c> Run<'m, 'c> {
    fn new(model: &'m Model, config: &'c LocalConfig, started: Instant) -> Self {
        Run {
            config,
            state: State::new(model, vec![0; model.num_vars()]),
            start_rng: rng_for(config.seed, START_STREAM),
            step_rng: rng_for(config.seed, STEP_STREAM),
            tabu: Vec::new(),
            stats: LocalStats {
                best_conflicts: u64::MAX,
                ..LocalStats::default()
            },
            best: Vec::new(),
            next_record: 1,
            conflicted: Vec::new(),
            ties: Vec::new(),
            scratch: Scratch::default(),
            partner_ties: Vec::new(),
            started,
        }
    }

    fn solve(&mut self, stop: Option<&AtomicBool>) -> LocalOutcome {
        // No step allowed: the run ends before the start's O(n) work.
        if self.config.max_steps == Some(0) {
            return LocalOutcome::LimitReached(LocalLimit::Steps);
        }
        if let Err(halted) = self.start(stop) {
            return halted;
        }
        self.stats.initial_conflicts = self.stats.best_conflicts;
        let mut steps_this_try = 0u64;
        loop {
            if stop.is_some_and(|flag| flag.load(Ordering::Relaxed)) {
                return LocalOutcome::Stopped;
            }
            let Some(var) = self.pick_conflicted() else {
                self.measure();
                debug_assert!(
                    self.state.model.is_solution(&self.state.values),
                    "no variable has a conflict, so every constraint must hold"
                );
                return LocalOutcome::Solved;
            };
            if self
                .config
                .max_steps
                .is_some_and(|max| self.stats.steps >= max)
            {
                return LocalOutcome::LimitReached(LocalLimit::Steps);
            }
            if self.stats.steps.is_multiple_of(CLOCK_EVERY)
                && self
                    .config
                    .time_limit
                    .is_some_and(|limit| self.started.elapsed() >= limit)
            {
                return LocalOutcome::LimitReached(LocalLimit::Time);
            }
            if self
                .config
                .restart_after
                .is_some_and(|after| steps_this_try >= after)
            {
                self.stats.restarts += 1;
                steps_this_try = 0;
                if let Err(halted) = self.start(stop) {
                    return halted;
                }
                continue;
            }
            self.stats.steps += 1;
            steps_this_try += 1;
            match self.config.neighbourhood {
                Neighbourhood::Change => self.change_step(var),
                Neighbourhood::Swap { partners } => self.swap_step(var, partners.max(1)),
            }
            if self.stats.steps == self.next_record {
                self.next_record *= 2;
                self.measure();
            }
        }
    }

    /// Why the run must end now, if it must: the stop flag, or the time limit.
    fn halted(&self, stop: Option<&AtomicBool>) -> Option<LocalOutcome> {
        if stop.is_some_and(|flag| flag.load(Ordering::Relaxed)) {
            return Some(LocalOutcome::Stopped);
        }
        self.config
            .time_limit
            .is_some_and(|limit| self.started.elapsed() >= limit)
            .then_some(LocalOutcome::LimitReached(LocalLimit::Time))
    }

    /// A new start: a random assignment, or the greedy construction. The greedy start looks at the
    /// stop flag and the clock as it goes, so that a limit ends it within a few thousand variables;
    /// the outcome that ended it is returned.
    fn start(&mut self, stop: Option<&AtomicBool>) -> Result<(), LocalOutcome> {
        let model = self.state.model;
        match self.config.start {
            Start::Greedy { samples } => self.greedy_assignment(samples, stop)?,
            Start::Permutation => {
                // A Fisher–Yates shuffle of the shared domain (checked before the run).
                let values = &mut self.state.values;
                values.clear();
                if let Some(first) = model.vars().next() {
                    model.initial_domain(first).append_values(values);
                }
                for i in (1..values.len()).rev() {
                    let j = self.start_rng.random_range(0..=i as u64) as usize;
                    values.swap(i, j);
                }
            }
            Start::Random => {
                for var in model.vars() {
                    self.state.values[var.index()] =
                        random_value(model.initial_domain(var), &mut self.start_rng);
                }
            }
        }
        self.state.reset_cells();
        self.tabu = vec![(0, 0); model.num_vars()];
        self.measure();
        Ok(())
    }

    /// Minton et al.'s greedy start (see [`Start::Greedy`]), built in a store so that each value is
    /// checked against the variables placed before it only.
    fn greedy_assignment(
        &mut self,
        samples: u32,
        stop: Option<&AtomicBool>,
    ) -> Result<(), LocalOutcome> {
        let model = self.state.model;
        let mut store = Store::with_lazy_domains(model);
        let mut window = Vec::with_capacity(SCAN_WINDOW);
        for (index, var) in model.vars().enumerate() {
            // A placement costs about as much as a step: the same rhythm of looks at the clock.
            if (index as u64).is_multiple_of(CLOCK_EVERY)
                && let Some(halted) = self.halted(stop)
            {
                return Err(halted);
            }
            let value = self.greedy_value(&store, var, samples, &mut window);
            store.assign(model, var, value);
        }
        self.state.values.copy_from_slice(store.values());
        Ok(())
    }

    /// A value for `var` consistent with the variables assigned in `store`, if draws or a scan find one.
    fn greedy_value(
        &mut self,
        store: &Store,
        var: VarId,
        samples: u32,
        window: &mut Vec<i32>,
    ) -> i32 {
        let model = self.state.model;
        let domain = model.initial_domain(var);
        for _ in 0..samples {
            let value = random_value(domain, &mut self.start_rng);
            if store.is_consistent(model, var, value) {
                return value;
            }
        }
        // Scan the span from a random point, wrapping around, a window of values at a time so that
        // the constraints filter each window in one call.
        let lo = i64::from(domain.span_lo());
        let width = (i64::from(domain.span_hi()) - lo + 1) as u64;
        let offset = self.start_rng.random_range(0..width);
        let mut index = 0u64;
        while index < width {
            window.clear();
            while window.len() < SCAN_WINDOW && index < width {
                let value = (lo + ((offset + index) % width) as i64) as i32;
                if domain.contains(value) {
                    window.push(value);
                }
                index += 1;
            }
            if store.retain_consistent(model, var, window) > 0 {
                return window[0];
            }
        }
        random_value(domain, &mut self.start_rng)
    }

    /// Records the current total in the history, and the assignment if it is the best so far.
    fn measure(&mut self) {
        let total = self.state.total(&mut self.scratch);
        self.stats.conflict_history.push((self.stats.steps, total));
        if total < self.stats.best_conflicts {
            self.stats.best_conflicts = total;
            self.best.clone_from(&self.state.values);
        }
    }

    /// A conflicted variable drawn uniformly at random, or `None` when there is none.
    fn pick_conflicted(&mut self) -> Option<VarId> {
        let num_vars = self.state.values.len();
        if num_vars == 0 {
            return None;
        }
        for _ in 0..CONFLICTED_DRAWS {
            let var = VarId::from_index(self.step_rng.random_range(0..num_vars as u64) as usize);
            if self.state.current_conflicts(var) > 0 {
                return Some(var);
            }
        }
        self.state
            .all_conflicts(&mut self.scratch.per_var, &mut self.scratch.per_scope);
        self.conflicted.clear();
        self.conflicted.extend(
            (self.scratch.per_var.iter().enumerate())
                .filter(|&(_, &conflicts)| conflicts > 0)
                .map(|(index, _)| VarId::from_index(index)),
        );
        if self.conflicted.is_empty() {
            return None;
        }
        let index = self.step_rng.random_range(0..self.conflicted.len() as u64) as usize;
        Some(self.conflicted[index])
    }

    /// Whether moving `var` to `value` is forbidden by the tabu list at this step.
    fn is_tabu(&self, var: VarId, value: i32) -> bool {
        let (left, until) = self.tabu[var.index()];
        left == value && self.stats.steps <= until
    }

    /// Moves `var` to `value`, recording the move and the value left on the tabu list.
    fn make_move(&mut self, var: VarId, value: i32) {
        let old = self.state.values[var.index()];
        if old == value {
            return;
        }
        self.stats.moves += 1;
        if self.config.tabu_tenure > 0 {
            self.tabu[var.index()] = (old, self.stats.steps + self.config.tabu_tenure);
        }
        self.state.set(var, value);
    }

    fn is_random_walk(&mut self) -> bool {
        self.config.noise > 0.0 && self.step_rng.random_bool(self.config.noise)
    }

    /// A change step: `var` takes its value with the fewest conflicts (or a random one, with noise).
    fn change_step(&mut self, var: VarId) {
        let domain = self.state.model.initial_domain(var);
        if self.is_random_walk() {
            self.stats.random_walks += 1;
            let value = random_value(domain, &mut self.step_rng);
            self.make_move(var, value);
            return;
        }
        let mut values = std::mem::take(&mut self.scratch.values);
        let mut counts = std::mem::take(&mut self.scratch.value_conflicts);
        values.clear();
        domain.append_values(&mut values);
        self.state.value_conflicts(var, &values, &mut counts);
        let mut best = u32::MAX;
        self.ties.clear();
        for (&value, &conflicts) in values.iter().zip(&counts) {
            if conflicts > best || (conflicts > 0 && self.is_tabu(var, value)) {
                continue;
            }
            if conflicts < best {
                best = conflicts;
                self.ties.clear();
            }
            self.ties.push(value);
        }
        self.scratch.values = values;
        self.scratch.value_conflicts = counts;
        if self.ties.is_empty() {
            // Every value is tabu and conflicted: stay put this step.
            return;
        }
        let pick = self.step_rng.random_range(0..self.ties.len() as u64) as usize;
        let value = self.ties[pick];
        self.make_move(var, value);
    }

    /// A swap step: `var` swaps values with the partner that lowers their conflicts most (or with a
    /// random partner, with noise); staying put is a candidate too, at a change of zero.
    fn swap_step(&mut self, var: VarId, partners: u32) {
        let num_vars = self.state.values.len() as u64;
        if num_vars < 2 {
            return;
        }
        if self.is_random_walk() {
            self.stats.random_walks += 1;
            let partner = self.random_partner(var);
            self.swap(var, partner);
            return;
        }
        let examine_all = num_vars - 1 <= u64::from(partners);
        let draws = if examine_all {
            num_vars - 1
        } else {
            u64::from(partners)
        };
        let mut best = 0i64;
        self.partner_ties.clear();
        // `var` itself stands for "stay put", the candidate every step has.
        self.partner_ties.push(var);
        for k in 0..draws {
            let partner = if examine_all {
                let index = k as usize + usize::from(k as usize >= var.index());
                VarId::from_index(index)
            } else {
                self.random_partner(var)
            };
            let Some(change) = self.swap_change(var, partner) else {
                continue;
            };
            if change > best {
                continue;
            }
            if change < best {
                best = change;
                self.partner_ties.clear();
            }
            self.partner_ties.push(partner);
        }
        let pick = self
            .step_rng
            .random_range(0..self.partner_ties.len() as u64) as usize;
        let partner = self.partner_ties[pick];
        if partner != var {
            self.swap(var, partner);
        }
    }

    /// A variable other than `var`, uniformly at random.
    fn random_partner(&mut self, var: VarId) -> VarId {
        let others = self.state.values.len() as u64 - 1;
        let index = self.step_rng.random_range(0..others) as usize;
        VarId::from_index(index + usize::from(index >= var.index()))
    }

    /// How much swapping `a` and `b` would change their summed conflicts, or `None` when the swap is
    /// pointless (equal values), leaves a domain, or is tabu. The swap is made, measured and undone, so
    /// the count is exact for any constraint.
    fn swap_change(&mut self, a: VarId, b: VarId) -> Option<i64> {
        let model = self.state.model;
        let (value_a, value_b) = (self.state.values[a.index()], self.state.values[b.index()]);
        if value_a == value_b
            || !model.initial_domain(a).contains(value_b)
            || !model.initial_domain(b).contains(value_a)
        {
            return None;
        }
        let before = self.state.conflicts(a, value_a) + self.state.conflicts(b, value_b);
        self.state.set(a, value_b);
        self.state.set(b, value_a);
        let after_a = self.state.current_conflicts(a);
        let after_b = self.state.current_conflicts(b);
        self.state.set(b, value_b);
        self.state.set(a, value_a);
        let tabu =
            (after_a > 0 && self.is_tabu(a, value_b)) || (after_b > 0 && self.is_tabu(b, value_a));
        (!tabu).then(|| (after_a + after_b) as i64 - before as i64)
    }

    fn swap(&mut self, a: VarId, b: VarId) {
        let (value_a, value_b) = (self.state.values[a.index()], self.state.values[b.index()]);
        let model = self.state.model;
        if value_a == value_b
            || !model.initial_domain(a).contains(value_b)
            || !model.initial_domain(b).contains(value_a)
        {
            return;
        }
        self.make_move(a, value_b);
        self.make_move(b, value_a);
    }
}

/// A value drawn uniformly from `domain`. Draws over the span until one is in the domain, which is at
/// once for the usual gap-free domain; a sparse domain falls back to drawing a rank.
fn random_value(domain: &Domain, rng: &mut Rng) -> i32 {
    let lo = i64::from(domain.span_lo());
    let width = (i64::from(domain.span_hi()) - lo + 1) as u64;
    for _ in 0..16 {
        let value = (lo + rng.random_range(0..width) as i64) as i32;
        if domain.contains(value) {
            return value;
        }
    }
    let rank = rng.random_range(0..domain.size());
    domain
        .nth_value(rank)
        .expect("a model's domains are never empty, and the rank is below the size")
}
