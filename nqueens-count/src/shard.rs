//! [`Shard`]: the part of a count one machine takes.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use crate::error::CountError;

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
