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
//! use nqueens_count::{CountKind, CountOptions, count};
//!
//! # fn main() -> Result<(), nqueens_count::CountError> {
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
mod error;
mod fnv;
mod options;
mod plan;
mod prefix;
mod report;
mod run;
mod shard;
mod size;
mod symmetry;
mod tally;

pub use checkpoint::{
    FORMAT, MAX_CHECKPOINT_BYTES, MergedCount, ShardResult, SubproblemCounts, VERSION, merge,
};
pub use error::CountError;
pub use options::{CountOptions, CountProgress, ProgressFn};
pub use report::CountReport;
pub use run::{count, subproblems};
pub use shard::Shard;
pub use size::MAX_COUNT_N;
pub use tally::{Answer, CountKind, Tally};
