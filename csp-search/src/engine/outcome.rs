//! What a search reports when it ends: its outcome, the limit that stopped it, and its result.

use std::time::Duration;

use crate::Statistics;

/// Which limit stopped a search.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Limit {
    /// [`crate::Limits::nodes`].
    Nodes,
    /// [`crate::Limits::backtracks`].
    Backtracks,
    /// [`crate::Limits::time`].
    Time,
    /// [`crate::Limits::solutions`].
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
    /// An observer returned [`std::ops::ControlFlow::Break`].
    Stopped,
}

/// The result of [`crate::solve`] or of a [`crate::Search`] run ([`crate::Search::result`]).
#[derive(Debug, Clone, PartialEq)]
pub struct SearchResult {
    /// How the search ended.
    pub outcome: Outcome,
    /// What it did.
    pub stats: Statistics,
    /// Wall-clock time spent searching.
    pub elapsed: Duration,
    /// The last solution found (under optimisation, the best), indexed by [`csp_core::VarId::index`].
    pub solution: Option<Vec<i32>>,
    /// The objective's value in [`SearchResult::solution`], if the model has an objective and a
    /// solution was found. Proven optimal when the outcome is [`Outcome::Optimal`].
    pub objective: Option<i32>,
    /// How many times a constraint's propagator ran (FlatZinc's `propagations`).
    pub propagations: u64,
}
