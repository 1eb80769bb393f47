//! A branch-and-bound bound that several searches share: the workers of a portfolio, or the
//! complete search and the neighbourhoods of large-neighbourhood search. Each offers the objective
//! of every solution it finds, and propagates every node under the best value any of them found.
//! The best solution itself is kept beside the value, so that a search that did not find it can
//! start from it: large-neighbourhood search takes it as the solution its neighbourhoods are cut
//! from, whichever search found it.

use std::sync::atomic::{AtomicI64, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError};

use csp_core::Objective;

/// A solution (every variable's value) with its objective value, as [`SharedBound`] keeps it.
pub type Incumbent = (i64, Arc<[i32]>);

/// The best objective value found so far by the searches that share it ([`crate::Search::share_bound`]).
/// Cloning shares it; the value is one atomic integer, read at every node of every search, and the
/// solution is copied under a lock only when it improves.
#[derive(Debug, Clone)]
pub struct SharedBound {
    best: Arc<AtomicI64>,
    /// The best solution offered with its value ([`SharedBound::offer_solution`]), if any.
    solution: Arc<Mutex<Option<Incumbent>>>,
    /// How many times `solution` has changed, so that a reader sees a new one without the lock.
    version: Arc<AtomicU64>,
    maximise: bool,
}

impl SharedBound {
    /// A bound with nothing found yet, for the model's objective; `None` for a satisfaction
    /// problem.
    pub fn new(objective: Objective) -> Option<Self> {
        let maximise = match objective {
            Objective::Satisfy => return None,
            Objective::Minimize(_) => false,
            Objective::Maximize(_) => true,
        };
        Some(SharedBound {
            best: Arc::new(AtomicI64::new(Self::nothing(maximise))),
            solution: Arc::new(Mutex::new(None)),
            version: Arc::new(AtomicU64::new(0)),
            maximise,
        })
    }

    /// The value that stands for "nothing found": beaten by every objective value.
    fn nothing(maximise: bool) -> i64 {
        if maximise { i64::MIN } else { i64::MAX }
    }

    /// The best value found, if any.
    pub fn get(&self) -> Option<i64> {
        let best = self.best.load(Ordering::Relaxed);
        (best != Self::nothing(self.maximise)).then_some(best)
    }

    /// Offers a solution's objective value; returns whether it is the best so far.
    pub fn offer(&self, value: i64) -> bool {
        let previous = if self.maximise {
            self.best.fetch_max(value, Ordering::Relaxed)
        } else {
            self.best.fetch_min(value, Ordering::Relaxed)
        };
        if self.maximise {
            value > previous
        } else {
            value < previous
        }
    }

    /// Offers a solution (every variable's value) and its objective value; returns whether it is
    /// the best so far. The solution is kept when it is better than the one kept, so that
    /// [`SharedBound::solution`] gives the best solution offered this way.
    pub fn offer_solution(&self, value: i64, values: &[i32]) -> bool {
        let best = self.offer(value);
        // A poisoned lock only means another search panicked while copying: the value it guards
        // is replaced whole below, so it is still sound to use.
        let mut kept = self.solution.lock().unwrap_or_else(PoisonError::into_inner);
        if kept
            .as_ref()
            .is_none_or(|(kept, _)| self.better(value, *kept))
        {
            *kept = Some((value, values.into()));
            self.version.fetch_add(1, Ordering::Release);
        }
        best
    }

    /// How many times the kept solution has changed: a search that has read the solution of one
    /// version need not read it again until this changes.
    pub fn version(&self) -> u64 {
        self.version.load(Ordering::Acquire)
    }

    /// The best solution offered with [`SharedBound::offer_solution`], with its objective value.
    pub fn solution(&self) -> Option<Incumbent> {
        self.solution
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }

    /// Whether the objective is maximised.
    pub fn maximise(&self) -> bool {
        self.maximise
    }

    /// Whether `value` is better than `other` for this objective.
    pub fn better(&self, value: i64, other: i64) -> bool {
        if self.maximise {
            value > other
        } else {
            value < other
        }
    }
}

#[cfg(test)]
mod tests {
    use csp_core::VarId;

    use super::*;

    #[test]
    fn the_best_offer_wins_in_the_objective_direction() {
        let x = VarId::from_index(0);
        assert!(SharedBound::new(Objective::Satisfy).is_none());
        let min = SharedBound::new(Objective::Minimize(x)).unwrap();
        assert_eq!(min.get(), None);
        assert!(min.offer(10));
        assert!(!min.offer(12));
        assert!(min.clone().offer(7));
        assert_eq!(min.get(), Some(7));
        let max = SharedBound::new(Objective::Maximize(x)).unwrap();
        assert!(max.offer(-3));
        assert!(!max.offer(-5));
        assert_eq!(max.get(), Some(-3));
        assert!(max.better(1, 0) && min.better(0, 1));
    }

    #[test]
    fn the_best_solution_is_kept_beside_its_value() {
        let x = VarId::from_index(0);
        let min = SharedBound::new(Objective::Minimize(x)).unwrap();
        assert_eq!((min.solution(), min.version()), (None, 0));
        assert!(min.offer_solution(5, &[5, 1]));
        assert!(!min.clone().offer_solution(6, &[6, 0]));
        assert_eq!(min.version(), 1);
        // A value offered without its solution tightens the bound, but the kept solution stays.
        assert!(min.offer(4));
        assert!(min.offer_solution(3, &[3, 2]));
        let (value, values) = min.solution().unwrap();
        assert_eq!((value, &values[..], min.get()), (3, &[3, 2][..], Some(3)));
        assert_eq!(min.version(), 2);
    }
}
