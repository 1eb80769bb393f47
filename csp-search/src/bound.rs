//! A branch-and-bound bound that several searches share: the workers of a portfolio, or the
//! complete search and the neighbourhoods of large-neighbourhood search. Each offers the objective
//! of every solution it finds, and propagates every node under the best value any of them found.

use std::sync::Arc;
use std::sync::atomic::{AtomicI64, Ordering};

use csp_core::Objective;

/// The best objective value found so far by the searches that share it ([`crate::Search::share_bound`]).
/// Cloning shares it; it is one atomic integer, read at every node of every search.
#[derive(Debug, Clone)]
pub struct SharedBound {
    best: Arc<AtomicI64>,
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
}
