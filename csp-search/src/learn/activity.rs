//! Activity-based branching for a learning search (VSIDS, Moskewicz et al. 2001, "Chaff"): the
//! variables of every literal met in conflict analysis are bumped, activities decay
//! geometrically, and the most active unfixed variable is branched on, with the value it last took
//! (phase saving, Pipatsrisawat & Darwiche 2007) or its smallest one; a variable with a wide
//! domain is split at its midpoint instead.

use csp_core::{Model, Store, VarId, rng_for};
use rand::RngExt;

use crate::Decision;

/// How much activities decay after each conflict (the bump grows by its inverse).
const ACTIVITY_DECAY: f64 = 0.95;

/// A domain this wide or wider is split at its midpoint rather than branched on a value.
const SPLIT_WIDTH: i64 = 64;

/// The random stream of the tiny activities that break ties (see [`rng_for`]).
const TIE_STREAM: u64 = 0x1ea2;

/// Each variable's activity and saved phase.
#[derive(Debug)]
pub(super) struct Activity {
    activity: Vec<f64>,
    bump: f64,
    /// Each variable's last decided or solution value.
    phase: Vec<Option<i32>>,
    /// The variables to branch on first, while any is open.
    first: Vec<VarId>,
}

impl Activity {
    /// Activities over `model`'s variables, ties broken by `seed`, branching on `first` first.
    pub(super) fn new(model: &Model, seed: u64, first: &[VarId]) -> Self {
        let mut rng = rng_for(seed, TIE_STREAM);
        // A tiny random start breaks ties between equally active variables by the seed.
        let activity = (0..model.num_vars())
            .map(|_| rng.random_range(0.0..1e-6))
            .collect();
        Activity {
            activity,
            bump: 1.0,
            phase: vec![None; model.num_vars()],
            first: first.to_vec(),
        }
    }

    /// Raises `var`'s activity by the current bump.
    pub(super) fn bump(&mut self, var: VarId) {
        let activity = &mut self.activity[var.index()];
        *activity += self.bump;
        if *activity > 1e100 {
            for a in &mut self.activity {
                *a *= 1e-100;
            }
            self.bump *= 1e-100;
        }
    }

    /// Ages every activity, after a conflict, by growing the bump.
    pub(super) fn decay(&mut self) {
        self.bump /= ACTIVITY_DECAY;
    }

    /// Saves every variable's value in a solution as its phase.
    pub(super) fn save_phases(&mut self, values: &[i32]) {
        for (phase, &value) in self.phase.iter_mut().zip(values) {
            *phase = Some(value);
        }
    }

    /// The decision on the most active open variable (see [`Activity::decision_on`]), or `None`
    /// when every variable is fixed.
    pub(super) fn decide(&mut self, model: &Model, store: &Store) -> Option<Decision> {
        let var = self.pick_variable(model, store)?;
        Some(self.decision_on(var, store))
    }

    /// The most active variable with more than one value left: among the variables to branch on
    /// first while any is open, then among all.
    fn pick_variable(&self, model: &Model, store: &Store) -> Option<VarId> {
        let most_active = |vars: &mut dyn Iterator<Item = VarId>| {
            let mut best: Option<(f64, VarId)> = None;
            for var in vars {
                if store.size(var) <= 1 {
                    continue;
                }
                let a = self.activity[var.index()];
                if best.is_none_or(|(b, _)| a > b) {
                    best = Some((a, var));
                }
            }
            best.map(|(_, var)| var)
        };
        most_active(&mut self.first.iter().copied()).or_else(|| most_active(&mut model.vars()))
    }

    /// The decision on `var`: its saved phase, or its smallest value; a wide domain is split at
    /// its midpoint instead, on the saved phase's side.
    fn decision_on(&mut self, var: VarId, store: &Store) -> Decision {
        let (lo, hi) = (store.lb(var), store.ub(var));
        let saved = self.phase[var.index()].filter(|&v| store.domain(var).contains(v));
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
}
