//! [`ConstructError`]: why a construction refused to build a board.

use thiserror::Error;

use super::method::Method;
use crate::QueensError;

/// Why a construction refused to build a board.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum ConstructError {
    /// A board needs at least one row.
    #[error("n must be at least 1")]
    ZeroSize,
    /// `n` lies outside the construction's scope. The message names the [`Method`]s that cover it
    /// (none for n = 2 and n = 3, which have no solution).
    #[error("{}", out_of_scope_message(construction, needs, *n))]
    OutOfScope {
        /// The construction that refused, as messages name it (a [`Method::name`] where it is one).
        construction: &'static str,
        /// Its scope, in words.
        needs: &'static str,
        /// The size that was asked for.
        n: usize,
    },
    /// Pólya: the toroidal board has a solution exactly when `n` is coprime to 6.
    #[error("no toroidal solution for n = {n}: n must be coprime to 6 (Pólya)")]
    NoToroidalSolution {
        /// The size that was asked for.
        n: usize,
    },
    /// The parameters given to a parametrised construction ([`regular`](super::regular), [`decomposition_of`](super::decomposition_of),
    /// [`general_scheme`](super::general_scheme)) do not satisfy its conditions.
    #[error("{0}")]
    InvalidParameters(String),
    /// [`remove_corner`](super::remove_corner) needs a queen in the top-left corner.
    #[error(
        "corner removal needs a queen in the top-left corner, but row 0 has its queen in column {column}"
    )]
    NoCornerQueen {
        /// The column of row 0's queen.
        column: u32,
    },
    /// [`add_corner`](super::add_corner) needs the main diagonal (`row = column`) empty.
    #[error("a corner queen cannot be added: the queen in row {row} stands on the main diagonal")]
    QueenOnMainDiagonal {
        /// The first row whose queen stands on the main diagonal.
        row: usize,
    },
    /// The placement would not fit the memory budget; see [`MAX_CONSTRUCT_N`](super::MAX_CONSTRUCT_N).
    #[error(
        "n = {n} is too large for {construction}: the maximum is {max} (the placement and its check need {} MiB, the budget is 4 GiB)",
        bytes >> 20
    )]
    TooLarge {
        /// The construction that refused.
        construction: &'static str,
        /// The size that was asked for.
        n: usize,
        /// The largest size it accepts.
        max: usize,
        /// The bytes the placement and its check would need at their peak.
        bytes: u64,
    },
    /// A construction that runs the search engine on a larger board than asked for (the odd trick
    /// searches `n + 1`) refuses an `n` whose searched board is over the engine's size limit,
    /// [`crate::max_n`], and says so in terms of the `n` that was asked for.
    #[error(
        "n = {n} is too large for {construction}: it runs LEX search on n + 1 = {searched} queens, and search takes boards up to {search_max}, so n can be at most {max}",
        searched = n + 1
    )]
    SearchTooLarge {
        /// The construction that refused.
        construction: &'static str,
        /// The size that was asked for.
        n: usize,
        /// The largest board the engine searches.
        search_max: usize,
        /// The largest `n` the construction accepts.
        max: usize,
    },
    /// The engine refused to build a model ([`crate::model`]'s own limits).
    #[error(transparent)]
    Queens(#[from] QueensError),
    /// The engine's search for a table entry or the odd trick ended without the solution it must
    /// find. Every search here is complete and unlimited unless the caller set limits, so this names
    /// a bug; it is reported rather than panicking.
    #[error("the engine's search for n = {n} found no solution ({outcome:?})")]
    SearchFailed {
        /// The board searched.
        n: usize,
        /// How the search ended.
        outcome: csp_search::Outcome,
    },
}

/// The message of [`ConstructError::OutOfScope`]: what refused, why, and which methods cover `n`.
fn out_of_scope_message(construction: &str, needs: &str, n: usize) -> String {
    // A method that searches (the odd trick) is only named where its search is known to end
    // quickly: recommending an exponential search for a large board would send the user into a hang.
    let others: Vec<&str> = Method::covering(n)
        .into_iter()
        .filter(|method| method.is_practical(n))
        .map(Method::name)
        .filter(|&name| name != construction)
        .collect();
    let head = format!("{construction} does not cover n = {n} (it needs {needs})");
    if others.is_empty() {
        if n == 2 || n == 3 {
            format!("{head}; no placement of {n} queens exists")
        } else {
            format!("{head}; no other method covers it")
        }
    } else {
        format!("{head}; n = {n} is covered by {}", others.join(", "))
    }
}

impl ConstructError {
    /// The error for a [`Method`] asked for an `n` outside its scope.
    pub(crate) fn out_of_scope(method: Method, n: usize) -> Self {
        ConstructError::OutOfScope {
            construction: method.name(),
            needs: method.scope(),
            n,
        }
    }
}
