//! The names reports give a search's outcome and limit.
//!
//! They live beside the enums, in this crate, so that a new variant cannot be left unnamed: a match
//! on the non-exhaustive [`Outcome`] outside this crate needs a catch-all arm, which would name a new
//! variant wrongly without a word from the compiler.

use crate::{Limit, Outcome};

impl Outcome {
    /// The outcome's name in reports: `solved`, `optimal`, `exhausted`, `limit` or `stopped` (which
    /// limit is [`Limit::name`]).
    pub const fn name(self) -> &'static str {
        match self {
            Outcome::Solved => "solved",
            Outcome::Optimal => "optimal",
            Outcome::Exhausted => "exhausted",
            Outcome::LimitReached(_) => "limit",
            Outcome::Stopped => "stopped",
        }
    }

    /// The limit that stopped the search, if one did.
    pub const fn limit(self) -> Option<Limit> {
        match self {
            Outcome::LimitReached(limit) => Some(limit),
            Outcome::Solved | Outcome::Optimal | Outcome::Exhausted | Outcome::Stopped => None,
        }
    }
}

impl Limit {
    /// The limit's name in reports: `nodes`, `backtracks`, `time` or `solutions`.
    pub const fn name(self) -> &'static str {
        match self {
            Limit::Nodes => "nodes",
            Limit::Backtracks => "backtracks",
            Limit::Time => "time",
            Limit::Solutions => "solutions",
        }
    }
}
