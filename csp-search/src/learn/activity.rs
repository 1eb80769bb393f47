//! Activity-based branching for a learning search (VSIDS, Moskewicz et al. 2001, "Chaff"): the
//! variables of every literal met in conflict analysis are bumped, activities decay
//! geometrically, and the most active open variable is branched on, found in a heap as MiniSat
//! does (Eén & Sörensson 2003) rather than by a scan of every variable. Its value is the one it
//! takes in the best solution so far (solution-based phase saving, Demirović, Chu & Stuckey 2018,
//! which makes the search after a solution a local search around it), else the one it last took
//! (phase saving, Pipatsrisawat & Darwiche 2007), else its smallest; a variable with a wide domain
//! is split at its midpoint instead, on that value's side. A maximised objective is tried at its
//! largest values first, as [`crate::DecisionBrancher`] does: branch and bound then starts from
//! the best value the objective may take instead of walking up to it one solution at a time (the
//! best solution's value is always excluded by the bound, so phase saving has nothing to offer).
//! It is not branched on before the other variables: tried first, towards its top, it left
//! mknap2-20 and still life 8 × 8 without a solution in 20 s (`fzn-csp -t 20000`), which find
//! one at once otherwise. So a model whose objective is a sum of variables split towards their
//! bottom can still walk up one solution at a time without neighbourhoods (`maximize x + y`
//! over 32-bit x and y with `--lns off`); with them (the default) it does not.

use csp_core::{Model, Objective, Store, VarId, rng_for};
use rand::RngExt;

use crate::Decision;

/// How much activities decay after each conflict (the bump grows by its inverse).
const ACTIVITY_DECAY: f64 = 0.95;

/// A domain this wide or wider is split at its midpoint rather than branched on a value.
const SPLIT_WIDTH: i64 = 64;

/// The random stream of the tiny activities that break ties (see [`rng_for`]).
const TIE_STREAM: u64 = 0x1ea2;

/// Not in the heap ([`Activity::position`]).
const OUT: u32 = u32::MAX;

/// Each variable's activity and saved values, and the heap of the variables that may be open.
#[derive(Debug)]
pub(super) struct Activity {
    activity: Vec<f64>,
    bump: f64,
    /// Each variable's last decided value.
    phase: Vec<Option<i32>>,
    /// Each variable's value in the best solution so far.
    best: Vec<Option<i32>>,
    /// Whether a variable is one to branch on first, while any such is open.
    first: Vec<bool>,
    /// The variables, most active first (the first ones ahead of the others): a binary heap.
    heap: Vec<u32>,
    /// Each variable's place in `heap`, or [`OUT`].
    position: Vec<u32>,
    /// The variables taken out of the heap as fixed, with the decision level they were taken out
    /// at: a backjump below that level may open them again, and puts them back.
    taken: Vec<(u32, u32)>,
    /// The model's maximised objective, if it has one: tried at its largest values first.
    maximised: Option<VarId>,
}

impl Activity {
    /// Activities over `model`'s variables, ties broken by `seed`, branching on `first` first.
    pub(super) fn new(model: &Model, seed: u64, first: &[VarId]) -> Self {
        let n = model.num_vars();
        let mut rng = rng_for(seed, TIE_STREAM);
        // A tiny random start breaks ties between equally active variables by the seed.
        let activity = (0..n).map(|_| rng.random_range(0.0..1e-6)).collect();
        let mut is_first = vec![false; n];
        for var in first {
            is_first[var.index()] = true;
        }
        let maximised = match model.objective() {
            Objective::Maximize(var) => Some(var),
            _ => None,
        };

        let mut this = Activity {
            activity,
            bump: 1.0,
            phase: vec![None; n],
            best: vec![None; n],
            first: is_first,
            heap: Vec::with_capacity(n),
            position: vec![OUT; n],
            taken: Vec::new(),
            maximised,
        };
        for var in 0..n as u32 {
            this.insert(var);
        }
        this
    }

    /// Raises `var`'s activity by the current bump.
    pub(super) fn bump(&mut self, var: VarId) {
        let index = var.index();
        self.activity[index] += self.bump;
        if self.activity[index] > 1e100 {
            // Scaling every activity alike keeps the heap's order.
            for a in &mut self.activity {
                *a *= 1e-100;
            }
            self.bump *= 1e-100;
        }
        if self.position[index] != OUT {
            self.sift_up(self.position[index] as usize);
        }
    }

    /// Ages every activity, after a conflict, by growing the bump.
    pub(super) fn decay(&mut self) {
        self.bump /= ACTIVITY_DECAY;
    }

    /// Keeps a solution's values: under an objective, the best solution so far.
    pub(super) fn save_solution(&mut self, values: &[i32]) {
        for (best, &value) in self.best.iter_mut().zip(values) {
            *best = Some(value);
        }
    }

    /// The search jumped back to decision level `level`: the variables taken out of the heap
    /// above it go back in.
    pub(super) fn backjump(&mut self, level: usize) {
        while let Some(&(taken_at, var)) = self.taken.last() {
            if taken_at as usize <= level {
                break;
            }
            self.taken.pop();
            self.insert(var);
        }
    }

    /// The decision on the most active open variable at decision level `level` (see
    /// [`Activity::decision_on`]), or `None` when every variable is fixed.
    pub(super) fn decide(&mut self, store: &Store, level: usize) -> Option<Decision> {
        while let Some(&top) = self.heap.first() {
            let var = VarId::from_index(top as usize);
            if store.size(var) > 1 {
                return Some(self.decision_on(var, store));
            }
            // Fixed: out of the heap until a backjump below this level.
            self.pop();
            self.taken.push((level as u32, top));
        }
        None
    }

    /// The decision on `var`: its value in the best solution, else its saved phase, else its
    /// smallest value, when that value is still in its domain; a wide domain is split at its
    /// midpoint instead, on that value's side.
    fn decision_on(&mut self, var: VarId, store: &Store) -> Decision {
        let (lo, hi) = (store.lb(var), store.ub(var));
        if self.maximised == Some(var) {
            return if i64::from(hi) - i64::from(lo) >= SPLIT_WIDTH {
                let mid = (i64::from(lo) + i64::from(hi)).div_euclid(2) as i32;
                Decision::AtLeast(var, mid + 1)
            } else {
                Decision::Assign(var, hi)
            };
        }
        let domain = store.domain(var);
        let saved = [self.best[var.index()], self.phase[var.index()]]
            .into_iter()
            .flatten()
            .find(|&v| domain.contains(v));
        if i64::from(hi) - i64::from(lo) >= SPLIT_WIDTH {
            let mid = (i64::from(lo) + i64::from(hi)).div_euclid(2) as i32;
            return match saved {
                Some(v) if v > mid => Decision::AtLeast(var, mid + 1),
                _ => Decision::AtMost(var, mid),
            };
        }
        let value = saved.unwrap_or(lo);
        self.phase[var.index()] = Some(value);
        Decision::Assign(var, value)
    }

    /// Whether variable `a` comes before `b`: a first variable before any other, then the more
    /// active.
    #[inline]
    fn before(&self, a: u32, b: u32) -> bool {
        let (a, b) = (a as usize, b as usize);
        match (self.first[a], self.first[b]) {
            (true, false) => true,
            (false, true) => false,
            _ => self.activity[a] > self.activity[b],
        }
    }

    fn insert(&mut self, var: u32) {
        if self.position[var as usize] != OUT {
            return;
        }
        self.position[var as usize] = self.heap.len() as u32;
        self.heap.push(var);
        self.sift_up(self.heap.len() - 1);
    }

    fn pop(&mut self) {
        let last = self.heap.pop().expect("a variable to take out");
        if self.heap.is_empty() {
            self.position[last as usize] = OUT;
            return;
        }
        self.position[self.heap[0] as usize] = OUT;
        self.heap[0] = last;
        self.position[last as usize] = 0;
        self.sift_down(0);
    }

    fn sift_up(&mut self, mut i: usize) {
        let var = self.heap[i];
        while i > 0 {
            let parent = (i - 1) / 2;
            if !self.before(var, self.heap[parent]) {
                break;
            }
            self.heap[i] = self.heap[parent];
            self.position[self.heap[i] as usize] = i as u32;
            i = parent;
        }
        self.heap[i] = var;
        self.position[var as usize] = i as u32;
    }

    fn sift_down(&mut self, mut i: usize) {
        let var = self.heap[i];
        let len = self.heap.len();
        loop {
            let left = 2 * i + 1;
            if left >= len {
                break;
            }
            let right = left + 1;
            let child = if right < len && self.before(self.heap[right], self.heap[left]) {
                right
            } else {
                left
            };
            if !self.before(self.heap[child], var) {
                break;
            }
            self.heap[i] = self.heap[child];
            self.position[self.heap[i] as usize] = i as u32;
            i = child;
        }
        self.heap[i] = var;
        self.position[var as usize] = i as u32;
    }
}
