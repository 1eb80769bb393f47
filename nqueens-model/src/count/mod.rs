//! Exact N-queens counts at speed, bypassing the engine: the number of solutions and of essentially
//! distinct ones (OEIS A000170, A002562), the size of the full LEX backtrack tree, and the number of
//! solutions on a torus (A051906).
//!
//! [`count`] splits the problem into a numbered list of subproblems that depends on n and on what is
//! counted only, runs them on several threads, and adds up their tallies:
//!
//! - **Solutions** ([`CountKind::Solutions`]) are counted by *border constellations*: the four queens
//!   on the board's edge, taken up to the eight symmetries of the board, each class searched once and
//!   weighted by its size. The essentially distinct count comes from the same run by Burnside's lemma:
//!   the subproblems also count the solutions each symmetry leaves unchanged.
//! - **Nodes** ([`CountKind::Nodes`]): the full LEX tree (rows in order, every consistent column,
//!   root included) with mirror halving; its leaves are the solutions.
//! - **Torus** ([`CountKind::Torus`]): diagonals wrap around; translation and mirroring leave a
//!   subproblem per first-rows prefix with the first queen in column 0.
//!
//! Every search is a bitboard walk (Dijkstra's column and diagonal tables as machine words) written to
//! run without mispredicted branches; see the `bitboard` module's notes.
//!
//! Long counts can be checkpointed ([`CountOptions::checkpoint`]) and resumed after being killed, and
//! split across machines ([`CountOptions::shard`], then [`merge`]).
//!
//! ```
//! use nqueens_model::count::{CountKind, CountOptions, count};
//!
//! # fn main() -> Result<(), nqueens_model::count::CountError> {
//! let report = count(8, &CountOptions::default())?;
//! assert_eq!(report.answer.solutions, 92);
//! assert_eq!(report.answer.unique, Some(12));
//!
//! let nodes = count(8, &CountOptions { kind: CountKind::Nodes, ..CountOptions::default() })?;
//! assert_eq!(nodes.answer.nodes, Some(2057)); // Stone & Stone, Table 1
//! # Ok(())
//! # }
//! ```

mod bitboard;
mod checkpoint;
mod constellation;
mod plan;
mod prefix;
mod run;
mod symmetry;

use std::fmt;
use std::num::NonZeroUsize;
use std::ops::ControlFlow;
use std::path::PathBuf;
use std::str::FromStr;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use serde::{Deserialize, Serialize};
use thiserror::Error;

pub use checkpoint::{FORMAT, MergedCount, ShardResult, VERSION, merge};
pub use run::count;

/// The largest board the fast counter takes: one bit per column in a 32-bit word. Every count it can
/// make fits its `u128` tallies (they are below the 32-queens permutation tree's 7·10³⁵ nodes).
pub const MAX_COUNT_N: usize = bitboard::MAX_N;

/// What [`count`] counts.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CountKind {
    /// The solutions (OEIS A000170) and, from the same run, the essentially distinct ones (A002562).
    #[default]
    Solutions,
    /// The nodes of the full LEX backtrack tree, root included (and its leaves, the solutions).
    Nodes,
    /// The solutions on the toroidal board, where diagonals wrap around (A051906).
    Torus,
}

impl CountKind {
    /// The name used in files and output: `solutions`, `nodes` or `torus`.
    pub fn name(self) -> &'static str {
        match self {
            CountKind::Solutions => "solutions",
            CountKind::Nodes => "nodes",
            CountKind::Torus => "torus",
        }
    }
}

impl fmt::Display for CountKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A deterministic part of a count: shard `index` of `of` takes the subproblems whose number is
/// `index` modulo `of`. Written `i/k`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Shard {
    /// Which part, from 0.
    pub index: usize,
    /// How many parts.
    pub of: usize,
}

impl Shard {
    /// The whole count, `0/1`.
    pub const WHOLE: Shard = Shard { index: 0, of: 1 };

    /// Shard `index` of `of`; refuses `of = 0` and `index ≥ of`.
    pub fn new(index: usize, of: usize) -> Result<Shard, CountError> {
        if of == 0 || index >= of {
            return Err(CountError::BadShard { index, of });
        }
        Ok(Shard { index, of })
    }

    /// Whether subproblem `id` belongs to this shard.
    pub fn contains(self, id: usize) -> bool {
        id % self.of == self.index
    }

    /// How many of the subproblems `0..total` belong to this shard.
    pub fn size_of(self, total: usize) -> usize {
        if total > self.index {
            (total - self.index).div_ceil(self.of)
        } else {
            0
        }
    }

    /// Whether this is the whole count.
    pub fn is_whole(self) -> bool {
        self.of == 1
    }
}

impl Default for Shard {
    fn default() -> Self {
        Shard::WHOLE
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.of)
    }
}

impl FromStr for Shard {
    type Err = CountError;

    /// Parses `i/k`.
    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let unparsable = || CountError::ShardSyntax(text.to_owned());
        let (index, of) = text.trim().split_once('/').ok_or_else(unparsable)?;
        let index = index.trim().parse().map_err(|_| unparsable())?;
        let of = of.trim().parse().map_err(|_| unparsable())?;
        Shard::new(index, of)
    }
}

/// What a set of subproblems added up to. Each field is a sum over them; weights (mirror images,
/// constellation classes, translations) are already applied.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct Tally {
    /// Solutions (on the torus, toroidal ones).
    pub solutions: u128,
    /// Solutions left unchanged by a symmetry other than the identity, summed over the seven
    /// ([`CountKind::Solutions`] only): with `solutions`, Burnside's lemma gives the unique count.
    pub symmetric: u128,
    /// Nodes of the full LEX tree, root included ([`CountKind::Nodes`] only).
    pub nodes: u128,
    /// Queens the fast enumerator placed: its work, not a property of the board.
    pub visited: u128,
}

impl Tally {
    /// The field-by-field sum, or `None` on overflow (possible only with a corrupted file: no count of a
    /// board up to [`MAX_COUNT_N`] comes near `u128::MAX`).
    pub fn checked_add(self, other: Tally) -> Option<Tally> {
        Some(Tally {
            solutions: self.solutions.checked_add(other.solutions)?,
            symmetric: self.symmetric.checked_add(other.symmetric)?,
            nodes: self.nodes.checked_add(other.nodes)?,
            visited: self.visited.checked_add(other.visited)?,
        })
    }
}

/// The answers a tally gives.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub struct Answer {
    /// Solutions: all of them (A000170), or on the torus (A051906), or, for a shard or an unfinished
    /// run, those in its finished subproblems.
    pub solutions: u128,
    /// The essentially distinct solutions (A002562): counting [`CountKind::Solutions`], once the whole
    /// count is in.
    pub unique: Option<u128>,
    /// The nodes of the full LEX tree, root included: counting [`CountKind::Nodes`] (a partial sum for
    /// a shard or an unfinished run).
    pub nodes: Option<u128>,
}

impl Answer {
    /// The answers of a tally covering only part of a count.
    pub(crate) fn partial(kind: CountKind, tally: Tally) -> Self {
        Answer {
            solutions: tally.solutions,
            unique: None,
            nodes: (kind == CountKind::Nodes).then_some(tally.nodes),
        }
    }

    /// The answers of a tally covering every subproblem of a count.
    pub(crate) fn complete(kind: CountKind, tally: Tally) -> Result<Self, CountError> {
        let mut answer = Answer::partial(kind, tally);
        if kind == CountKind::Solutions {
            // Burnside's lemma: the number of classes is the average number of solutions the eight
            // symmetries fix, the identity fixing all of them.
            let fixed = tally
                .solutions
                .checked_add(tally.symmetric)
                .ok_or(CountError::Overflow)?;
            if fixed % 8 != 0 {
                return Err(CountError::Inconsistent {
                    solutions: tally.solutions,
                    symmetric: tally.symmetric,
                });
            }
            answer.unique = Some(fixed / 8);
        }
        Ok(answer)
    }
}

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

/// How [`count`] runs.
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
    /// result, which [`merge`] reads.
    pub checkpoint: Option<PathBuf>,
    /// How often the checkpoint is rewritten while the count runs (it is always written at the end).
    pub checkpoint_interval: Duration,
    /// Set it (from any thread) to stop the count: subproblems already started are finished and
    /// recorded, then [`count`] returns a report that is not complete.
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

/// What [`count`] did.
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
        /// [`MAX_COUNT_N`].
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
    #[error("cannot read shard {0:?}: write it as i/k, e.g. 0/4")]
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
    /// [`merge`] was given nothing.
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

/// Refuses a board the counter cannot take, before anything is allocated for it.
pub(crate) fn check_size(n: usize) -> Result<(), CountError> {
    if n == 0 {
        return Err(CountError::ZeroSize);
    }
    if n > MAX_COUNT_N {
        return Err(CountError::TooLarge {
            n,
            max: MAX_COUNT_N,
        });
    }
    Ok(())
}
