//! [`CountError`]: why a count or a merge could not be made.

use std::path::PathBuf;

use thiserror::Error;

/// Why a count or a merge could not be made.
#[derive(Debug, Error)]
#[non_exhaustive]
pub enum CountError {
    /// A board needs at least one row.
    #[error("n must be at least 1")]
    ZeroSize,
    /// The board is wider than the counter's words.
    #[error(
        "n = {n} is too large for the fast counter: the maximum is {max} (one bit per column of a 32-bit word)"
    )]
    TooLarge {
        /// The size asked for.
        n: usize,
        /// [`MAX_COUNT_N`](crate::MAX_COUNT_N).
        max: usize,
    },
    /// A shard that does not exist.
    #[error("there is no shard {index}/{of}: the shard is i/k with 0 ≤ i < k")]
    BadShard {
        /// The index given.
        index: usize,
        /// The number of shards given.
        of: usize,
    },
    /// A shard that is not written `i/k`.
    #[error("cannot read shard {0:?}: write it as i/k with whole numbers 0 ≤ i < k, e.g. 0/4")]
    ShardSyntax(String),
    /// A checkpoint or shard result that cannot be read.
    #[error("cannot read {}: {source}", path.display())]
    CheckpointRead {
        /// The file.
        path: PathBuf,
        /// What went wrong.
        source: std::io::Error,
    },
    /// A checkpoint that cannot be written.
    #[error("cannot write checkpoint {}: {source}", path.display())]
    CheckpointWrite {
        /// The file.
        path: PathBuf,
        /// What went wrong.
        source: std::io::Error,
    },
    /// Another run holds the checkpoint's lock: two runs on one checkpoint would overwrite each
    /// other's progress.
    #[error(
        "checkpoint {} is in use by another count (it holds the lock on {}); wait for that run to end, or give another --checkpoint file",
        path.display(),
        lock.display()
    )]
    CheckpointInUse {
        /// The checkpoint.
        path: PathBuf,
        /// Its lock file.
        lock: PathBuf,
    },
    /// A file that is not a checkpoint of this format.
    #[error("{} is not a usable count checkpoint: {reason}", path.display())]
    CheckpointCorrupt {
        /// The file.
        path: PathBuf,
        /// What is wrong with it.
        reason: String,
    },
    /// A checkpoint of a different count.
    #[error(
        "checkpoint {} belongs to another count: its {field} is {found}, this run's is {expected}; use another file or the matching options",
        path.display()
    )]
    CheckpointMismatch {
        /// The file.
        path: PathBuf,
        /// What differs.
        field: &'static str,
        /// The checkpoint's value.
        found: String,
        /// This run's value.
        expected: String,
    },
    /// [`merge`](crate::merge) was given nothing.
    #[error("no shard results to merge")]
    NoShards,
    /// Shard results of different counts.
    #[error("the shards are of different counts: {field} {first} in the first, {other} in another")]
    MismatchedShards {
        /// What differs.
        field: &'static str,
        /// The first shard's value.
        first: String,
        /// The other's.
        other: String,
    },
    /// The same shard twice.
    #[error("shard {index}/{of} is given twice")]
    DuplicateShard {
        /// The shard's index.
        index: usize,
        /// The number of shards.
        of: usize,
    },
    /// Shards missing from a merge.
    #[error("{} of {of} shards missing: {}", missing.len(), list(missing, *of))]
    MissingShards {
        /// The indices of the missing shards.
        missing: Vec<usize>,
        /// The number of shards.
        of: usize,
    },
    /// A shard that has not finished.
    #[error(
        "shard {index}/{of} is unfinished ({finished} of {total} subproblems): resume it with the same --checkpoint file"
    )]
    IncompleteShard {
        /// The shard's index.
        index: usize,
        /// The number of shards.
        of: usize,
        /// Its finished subproblems.
        finished: usize,
        /// Its subproblems.
        total: usize,
    },
    /// A shard result whose counts no count can have: a changed file (one that kept a valid
    /// checksum) or a bug.
    #[error("shard {index}/{of} is impossible: {reason}")]
    ImpossibleShard {
        /// The shard's index.
        index: usize,
        /// The number of shards.
        of: usize,
        /// What is impossible.
        reason: String,
    },
    /// Totals no count can have (only from a changed file, or a bug).
    #[error(
        "impossible count: {reason}; a checkpoint or shard result was changed, or this is a bug"
    )]
    Impossible {
        /// What is impossible.
        reason: String,
    },
    /// Sums that do not fit (only from corrupted files).
    #[error("the counts overflow 128 bits: a shard result is corrupt")]
    Overflow,
    /// A complete count whose symmetric solutions do not fit Burnside's lemma: a bug or a corrupt file.
    #[error(
        "inconsistent count: {solutions} solutions and {symmetric} symmetric ones do not add up to a multiple of 8"
    )]
    Inconsistent {
        /// The solutions counted.
        solutions: u128,
        /// The symmetric solutions counted.
        symmetric: u128,
    },
}

/// "0/4, 2/4" for a message.
fn list(indices: &[usize], of: usize) -> String {
    indices
        .iter()
        .map(|index| format!("{index}/{of}"))
        .collect::<Vec<_>>()
        .join(", ")
}
