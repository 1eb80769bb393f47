//! Local search for N-queens: Sosič & Gu's QS1 and QS4, Rolfe's two Las Vegas algorithms, and the
//! generic min-conflicts of `csp-local` on the counters model ([`min_conflicts`]).
//!
//! Every solver keeps the queens as a permutation (`placement[row] = column`, so rows and columns never
//! clash) and checks the two diagonal families in O(1) per move:
//!
//! | function | paper | what it does | one step is |
//! | --- | --- | --- | --- |
//! | [`qs1`] | Sosič & Gu §2 (*3,000,000 Queens in Less Than One Minute*, 1991) | random permutation, swaps that reduce the diagonal collisions, a new permutation when stuck | a tested pair, or a new permutation |
//! | [`qs4`] | Sosič & Gu §3 and Table 2 | conflict-free start for `n − c` queens, then swaps on the `c` conflicting ones | a tested pair, or an initialisation |
//! | [`min_conflicts`] | Minton et al., as Sosič & Gu cite it | `csp-local`'s repair on the counters model, a greedy start | a repair step |
//! | [`las_vegas1`] | Rolfe, Algorithm One (*Las Vegas Does N-Queens*, 2006) | shuffle, then controlled swaps row by row; a new shuffle on failure | a permutation vector |
//! | [`las_vegas2`] | Rolfe, Algorithm Two (GridSearch) | each row a random cell not attacked from above; a new trial on failure | a trial |
//!
//! Each takes the board size, a seed, [`Limits`] and a stop flag, and returns a [`RunReport`]: the
//! [`LocalOutcome`], the seed and the method's own counts. Boards of 2 and 3 rows have no solution and are
//! answered at once; `n = 1` is solved at once. The memory a run needs is computed before anything is
//! allocated ([`LocalMethod::required_bytes`]) and a board beyond [`MEMORY_BUDGET_BYTES`](crate::MEMORY_BUDGET_BYTES) is refused with
//! [`LocalError::TooLarge`].
//!
//! [`race`] runs one method on several threads with consecutive seeds, as Rolfe's parallel execution
//! does: the first thread to finish wins and the others stop. The winner's seed is in its report, and a
//! single-threaded run with that seed reproduces it bit for bit.
//!
//! ```
//! use std::sync::atomic::AtomicBool;
//! use nqueens_model::local_search::{LocalOutcome, Limits, qs4};
//!
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! let report = qs4(1000, 7, &Limits::default(), &AtomicBool::new(false))?;
//! let LocalOutcome::Solved(placement) = &report.outcome else { panic!("QS4 solves 1000 queens") };
//! nqueens_model::verify(placement)?;
//! assert!(report.stat("swaps").is_some());
//! # Ok(())
//! # }
//! ```

mod counters_repair;
mod diagonals;
mod error;
mod frame;
mod las_vegas;
mod lookahead;
mod method;
mod outcome;
mod qs1;
mod qs4;
mod race;

use self::frame::{Halt, Stats, Watch, below, run_method, shuffle, streams, trivial_outcome};

pub use counters_repair::min_conflicts;
pub use error::LocalError;
pub use las_vegas::{las_vegas1, las_vegas2};
pub use method::{FIXED_BYTES, LocalMethod};
pub use outcome::{Limits, LocalOutcome, RunReport};
pub use qs1::qs1;
pub use qs4::{conflicting_queens, qs4};
pub use race::{race, solve};
