//! What a run is given and what it gives back: [`Limits`], [`LocalOutcome`], [`RunReport`].

use std::time::Duration;

/// Budgets for one run. The default has none: the run goes on until it finishes or is stopped.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Limits {
    /// The most steps the run may take; what a step is depends on the method (see the
    /// [module documentation](super)). `Some(0)` stops a run before its first step.
    pub max_steps: Option<u64>,
    /// The longest the run may take, measured from its start.
    pub time_limit: Option<Duration>,
}

/// How a run ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LocalOutcome {
    /// A solution, `placement[row] = column`.
    Solved(Vec<u32>),
    /// The board has no solution: `n` is 2 or 3.
    NoSolution,
    /// The step or time budget of [`Limits`] ran out first.
    LimitReached,
    /// The stop flag was raised, by the caller or by another thread of a [`race`](super::race) that won.
    Stopped,
}

impl LocalOutcome {
    /// Whether the run answered the question (a solution, or the proof that none exists), which is
    /// what ends a [`race`](super::race).
    pub fn is_answer(&self) -> bool {
        matches!(self, LocalOutcome::Solved(_) | LocalOutcome::NoSolution)
    }
}

/// What one run produced.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RunReport {
    /// How the run ended.
    pub outcome: LocalOutcome,
    /// The seed of the run that produced this report; in a [`race`](super::race), the winning thread's seed.
    pub seed: u64,
    /// The method's own counts, always the same names in the same order for a method (zeros where
    /// nothing happened): see each method's documentation.
    pub stats: Vec<(&'static str, u64)>,
}

impl RunReport {
    /// The count called `name`, if the method keeps one.
    pub fn stat(&self, name: &str) -> Option<u64> {
        self.stats
            .iter()
            .find(|(stat, _)| *stat == name)
            .map(|&(_, value)| value)
    }
}
