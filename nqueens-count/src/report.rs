//! [`CountReport`]: what a run of [`crate::count`] did.

use std::time::Duration;

use crate::checkpoint::ShardResult;
use crate::tally::Answer;

/// What [`count`](crate::count) did.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct CountReport {
    /// The answers: final when [`Self::complete`] and the shard is the whole count, otherwise the sums
    /// over the finished subproblems (and no unique count).
    pub answer: Answer,
    /// Whether every subproblem of the shard is finished.
    pub complete: bool,
    /// Everything finished so far, including what the checkpoint held: the shard's result once
    /// complete.
    pub result: ShardResult,
    /// Subproblems taken from the checkpoint rather than counted by this run.
    pub resumed: usize,
    /// Queens this run placed (excluding resumed subproblems).
    pub visited: u128,
    /// How long this run took.
    pub elapsed: Duration,
    /// How many threads it ran on.
    pub threads: usize,
}

impl CountReport {
    /// Queens placed per second by this run.
    pub fn nodes_per_second(&self) -> f64 {
        let seconds = self.elapsed.as_secs_f64();
        if seconds > 0.0 {
            self.visited as f64 / seconds
        } else {
            0.0
        }
    }
}
