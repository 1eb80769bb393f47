//! How a program ends: the documented exit codes.

use csp_search::Outcome;

/// How the process ends. The numbers are the documented exit codes of both binaries.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Exit {
    /// The question was answered.
    Answered = 0,
    /// It is proven that no solution exists.
    NoSolution = 1,
    /// The input was bad.
    BadInput = 2,
    /// A limit was reached before an answer (for `fzn-csp`, only the memory: its time limit is an
    /// answer in the FlatZinc protocol).
    LimitReached = 3,
    /// A bug: a solver's answer failed verification, or a panic (EX_SOFTWARE).
    Internal = 70,
}

impl Exit {
    /// The exit code of a search that ended with `outcome` after finding `solutions` solutions:
    /// answered when it stopped at the requested solutions or finished the tree having found some,
    /// no solution when it finished the tree empty-handed, and a limit otherwise (for `solve`, fewer
    /// solutions than asked for; for `count`, an unfinished count), whatever was found being shown.
    pub fn of(outcome: Outcome, solutions: u64) -> Self {
        match outcome {
            Outcome::Solved => Exit::Answered,
            Outcome::Exhausted if solutions > 0 => Exit::Answered,
            Outcome::Exhausted => Exit::NoSolution,
            // A limit, or an observer that stopped the search. `Outcome` is non-exhaustive, so this
            // arm must also take any outcome a later engine adds: none of them answers the question.
            _ => Exit::LimitReached,
        }
    }

    /// The process's exit code.
    pub fn code(self) -> u8 {
        self as u8
    }
}
