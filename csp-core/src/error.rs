use thiserror::Error;

/// Why a model could not be built. Every variant names what was wrong, so a front end can report it in
/// one line.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum ModelError {
    /// A constraint mentions a variable that this model does not have.
    #[error(
        "constraint {constraint} refers to unknown variable #{var} (the model has {num_vars} variables)"
    )]
    UnknownVariable {
        /// The constraint's description.
        constraint: String,
        /// The index of the variable that does not exist.
        var: usize,
        /// How many variables the model has.
        num_vars: usize,
    },
    /// A variable was declared with no values.
    #[error("variable `{name}` has an empty domain")]
    EmptyDomain {
        /// The variable's name.
        name: String,
    },
    /// The model would have more variables than [`crate::MAX_VARIABLES`].
    #[error("a model has at most {max} variables")]
    TooManyVariables {
        /// The limit.
        max: usize,
    },
    /// Two variables share a name.
    #[error("variable name `{name}` is used twice")]
    DuplicateName {
        /// The name.
        name: String,
    },
    /// A constraint's data does not match its scope (a tuple of the wrong length, for example).
    #[error("{constraint}: expected {expected} values, got {found}")]
    ArityMismatch {
        /// What was being built.
        constraint: String,
        /// The scope's size.
        expected: usize,
        /// The size that was given.
        found: usize,
    },
    /// A constraint was given arguments it cannot work with.
    #[error("{constraint}: {reason}")]
    InvalidConstraint {
        /// What was being built.
        constraint: String,
        /// What is wrong.
        reason: String,
    },
}
