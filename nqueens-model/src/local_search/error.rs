//! [`LocalError`]: why a local-search run could not start, and [`LocalMethod::check`], which
//! refuses a board before anything is allocated.

use thiserror::Error;

use super::method::LocalMethod;
use crate::MEMORY_BUDGET_BYTES;

/// Why a local-search run could not start.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum LocalError {
    /// A board needs at least one row.
    #[error("n must be at least 1")]
    ZeroSize,
    /// The run would need more memory than the budget allows.
    #[error(
        "n = {n} is too large for {method}{}: it needs about {} MiB, the budget is {} MiB (the maximum for one run is n = {max})",
        threads_note(*threads),
        required_bytes >> 20,
        budget_bytes >> 20
    )]
    TooLarge {
        /// The method that was asked for.
        method: LocalMethod,
        /// The board size that was asked for.
        n: usize,
        /// How many runs would hold memory at once.
        threads: usize,
        /// The memory those runs need together, saturated at `u64::MAX`.
        required_bytes: u64,
        /// The budget, [`MEMORY_BUDGET_BYTES`](crate::MEMORY_BUDGET_BYTES).
        budget_bytes: u64,
        /// The largest board one run of the method accepts, [`LocalMethod::max_n`].
        max: usize,
    },
    /// A race needs at least one thread.
    #[error("the number of threads must be at least 1")]
    NoThreads,
    /// The engine refused the model or configuration (a bug in this crate; reported, not panicked).
    #[error("the engine refused the local-search run: {0}")]
    Model(String),
    /// The operating system refused to start a thread of a race.
    #[error("could not start thread {thread} of the race: {message}")]
    ThreadSpawn {
        /// The index of the thread that could not start.
        thread: usize,
        /// The operating system's reason.
        message: String,
    },
}

/// The words " with T threads" for [`LocalError::TooLarge`] when a race asked for more than one.
fn threads_note(threads: usize) -> String {
    if threads > 1 {
        format!(" with {threads} threads")
    } else {
        String::new()
    }
}

impl LocalMethod {
    /// Refuses a board of `n` rows for `threads` simultaneous runs before anything is allocated.
    pub fn check(self, n: usize, threads: usize) -> Result<(), LocalError> {
        if n == 0 {
            return Err(LocalError::ZeroSize);
        }
        if threads == 0 {
            return Err(LocalError::NoThreads);
        }
        let one_run = self.required_bytes(n);
        let required_bytes = one_run.saturating_mul(threads as u64);
        if n > self.max_n() || required_bytes > MEMORY_BUDGET_BYTES {
            return Err(LocalError::TooLarge {
                method: self,
                n,
                threads,
                required_bytes,
                budget_bytes: MEMORY_BUDGET_BYTES,
                max: self.max_n(),
            });
        }
        Ok(())
    }
}
