use thiserror::Error;

/// Why a FlatZinc file could not be turned into a model. Every variant names the line (a syntax error
/// also the column), so that MiniZinc, which shows the solver's message, points at the statement.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum Error {
    /// The text is not FlatZinc.
    #[error("line {line}, column {column}: {message}")]
    Syntax {
        /// 1-based line.
        line: u32,
        /// 1-based column, in bytes.
        column: u32,
        /// What was expected, and what was found.
        message: String,
    },
    /// A statement is FlatZinc but does not make sense: an unknown name, a value of the wrong type, a
    /// constant outside the engine's 32-bit values, an argument count that does not match.
    #[error("line {line}: {message}")]
    Invalid {
        /// 1-based line of the statement.
        line: u32,
        /// What is wrong.
        message: String,
    },
    /// A constraint the engine does not provide (yet); MiniZinc should have decomposed it, so the
    /// solver library in `minizinc/mznlib` and this crate's builtin table disagree.
    #[error("line {line}: unsupported constraint `{name}`")]
    UnsupportedConstraint {
        /// 1-based line of the constraint.
        line: u32,
        /// The FlatZinc name.
        name: String,
    },
    /// Something else the engine does not handle: float or set variables, a search annotation it does
    /// not know.
    #[error("line {line}: unsupported {what}")]
    Unsupported {
        /// 1-based line of the statement.
        line: u32,
        /// What it is.
        what: String,
    },
}

impl Error {
    /// The line the error is on.
    pub fn line(&self) -> u32 {
        match *self {
            Error::Syntax { line, .. }
            | Error::Invalid { line, .. }
            | Error::UnsupportedConstraint { line, .. }
            | Error::Unsupported { line, .. } => line,
        }
    }

    pub(crate) fn invalid(line: u32, message: impl Into<String>) -> Self {
        Error::Invalid {
            line,
            message: message.into(),
        }
    }
}
