//! How to count: [`CountOptions`] and the progress they report.

use std::fmt;
use std::num::NonZeroUsize;
use std::ops::ControlFlow;
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use crate::shard::Shard;
use crate::tally::{CountKind, Tally};

/// How far a count has come, handed to [`CountOptions::progress`] after each finished subproblem.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct CountProgress {
    /// Subproblems of this shard finished, including those a checkpoint already had.
    pub finished: usize,
    /// Subproblems in this shard.
    pub total: usize,
    /// The sum of the finished subproblems' tallies.
    pub tally: Tally,
}

/// The callback type of [`CountOptions::progress`].
pub type ProgressFn<'a> = dyn Fn(&CountProgress) -> ControlFlow<()> + 'a;

/// How [`count`](crate::count) runs.
pub struct CountOptions<'a> {
    /// What to count.
    pub kind: CountKind,
    /// How many threads to run on; `None` means every core
    /// ([`std::thread::available_parallelism`]).
    pub threads: Option<NonZeroUsize>,
    /// Which part of the count to run.
    pub shard: Shard,
    /// A file to resume from if it exists, and to record finished subproblems in as the count runs
    /// (atomically: written beside it, then renamed). When the count completes it holds the shard's
    /// result, which [`merge`](crate::merge) reads.
    pub checkpoint: Option<PathBuf>,
    /// How often the checkpoint is rewritten while the count runs (it is always written at the end).
    pub checkpoint_interval: Duration,
    /// Set it (from any thread) to stop the count: subproblems already started are finished and
    /// recorded, then [`count`](crate::count) returns a report that is not complete.
    pub cancel: Option<&'a AtomicBool>,
    /// Called on the calling thread after each finished subproblem; `Break` stops the count as `cancel`
    /// does.
    pub progress: Option<&'a ProgressFn<'a>>,
}

impl Default for CountOptions<'_> {
    fn default() -> Self {
        CountOptions {
            kind: CountKind::Solutions,
            threads: None,
            shard: Shard::WHOLE,
            checkpoint: None,
            checkpoint_interval: Duration::from_secs(1),
            cancel: None,
            progress: None,
        }
    }
}

impl fmt::Debug for CountOptions<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("CountOptions")
            .field("kind", &self.kind)
            .field("threads", &self.threads)
            .field("shard", &self.shard)
            .field("checkpoint", &self.checkpoint)
            .field("checkpoint_interval", &self.checkpoint_interval)
            .field("cancel", &self.cancel)
            .field("progress", &self.progress.map(|_| "…"))
            .finish()
    }
}
