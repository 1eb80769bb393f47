//! How the program ends: the documented exit codes, and the errors that end it with one line.

use std::fmt;
use std::io;

use csp_search::Outcome;

/// How the process ends. The numbers are the documented exit codes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Exit {
    /// The question was answered.
    Answered = 0,
    /// It is proven that no solution exists.
    NoSolution = 1,
    /// The input was bad.
    BadInput = 2,
    /// A limit was reached before an answer.
    LimitReached = 3,
    /// A bug: a solver's answer failed verification (EX_SOFTWARE).
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
}

/// An error that ends the program with a one-line message.
#[derive(Debug)]
pub enum CliError {
    /// Bad arguments or an impossible request (exit 2).
    Usage(String),
    /// Writing the output failed (exit 2 as well), a closed pipe included: the answer is lost.
    Io(io::Error),
    /// A solver broke its contract: a bug, reported rather than hidden (exit 70).
    Internal(String),
}

impl CliError {
    /// A usage error carrying `error`'s message: for the library errors that describe bad input.
    pub fn usage(error: impl fmt::Display) -> Self {
        CliError::Usage(error.to_string())
    }

    /// The exit code for this error.
    pub fn exit_code(&self) -> Exit {
        match self {
            CliError::Usage(_) | CliError::Io(_) => Exit::BadInput,
            CliError::Internal(_) => Exit::Internal,
        }
    }
}

impl fmt::Display for CliError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CliError::Usage(message) => f.write_str(message),
            CliError::Io(error) if error.kind() == io::ErrorKind::BrokenPipe => write!(
                f,
                "cannot write output: standard output was closed before the answer was written"
            ),
            CliError::Io(error) => write!(f, "cannot write output: {error}"),
            CliError::Internal(message) => write!(f, "internal error: {message}"),
        }
    }
}

impl From<io::Error> for CliError {
    fn from(error: io::Error) -> Self {
        CliError::Io(error)
    }
}
