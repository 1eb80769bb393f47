//! Shard results and checkpoints: which subproblems are finished, and what they added up to.
//!
//! One format serves both. A checkpoint is a [`ShardResult`] that is not finished yet; once every
//! subproblem of its shard is finished it is that shard's result, and [`merge`] adds shard results up.
//! The file is JSON, written to `FILE.tmp` and then renamed over `FILE`, so a run killed at any moment
//! leaves either the previous checkpoint or the new one, never half of one.

use std::collections::BTreeSet;
use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::{Answer, CountError, CountKind, Shard, Tally};

/// The `format` field of every checkpoint and shard result.
pub const FORMAT: &str = "csp-queens-count";

/// The `version` of the format this build writes and reads.
pub const VERSION: u32 = 1;

/// What one shard of a count has finished: the count's identity (board, what is counted, the plan and
/// the shard), the finished subproblems and the sum of their tallies. Complete when every subproblem of
/// the shard is finished; [`merge`] adds complete shard results up.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct ShardResult {
    /// Always [`FORMAT`].
    pub format: String,
    /// The format version, [`VERSION`].
    pub version: u32,
    /// The board size.
    pub n: usize,
    /// What is counted.
    pub count: CountKind,
    /// Which shard this is.
    pub shard: Shard,
    /// The number of subproblems in the whole count (every shard).
    pub subproblems: usize,
    /// The digest of the list of subproblems, so that files from a program that splits differently are
    /// not mixed.
    pub plan: String,
    /// The finished subproblems, as sorted, disjoint half-open ranges `[start, end)` of their numbers.
    pub finished: Vec<[usize; 2]>,
    /// The sum of the finished subproblems' tallies.
    pub tally: Tally,
}

impl ShardResult {
    /// A shard result with nothing finished.
    pub(crate) fn empty(
        n: usize,
        count: CountKind,
        shard: Shard,
        subproblems: usize,
        plan: String,
    ) -> Self {
        ShardResult {
            format: FORMAT.to_owned(),
            version: VERSION,
            n,
            count,
            shard,
            subproblems,
            plan,
            finished: Vec::new(),
            tally: Tally::default(),
        }
    }

    /// How many subproblems belong to this shard: the numbers below [`Self::subproblems`] that are
    /// [`Shard::index`] modulo [`Shard::of`].
    pub fn shard_size(&self) -> usize {
        self.shard.size_of(self.subproblems)
    }

    /// How many of them are finished.
    pub fn finished_count(&self) -> usize {
        self.finished.iter().map(|[start, end]| end - start).sum()
    }

    /// Whether every subproblem of the shard is finished.
    pub fn is_complete(&self) -> bool {
        self.finished_count() == self.shard_size()
    }

    /// The numbers of the finished subproblems.
    pub(crate) fn finished_ids(&self) -> BTreeSet<usize> {
        self.finished
            .iter()
            .flat_map(|&[start, end]| start..end)
            .collect()
    }

    /// Records `ids` as the finished set.
    pub(crate) fn set_finished(&mut self, ids: &BTreeSet<usize>) {
        self.finished.clear();
        for &id in ids {
            match self.finished.last_mut() {
                Some(range) if range[1] == id => range[1] = id + 1,
                _ => self.finished.push([id, id + 1]),
            }
        }
    }

    /// Reads a shard result or checkpoint and checks that it is well formed: the right format, ranges in
    /// order and inside its shard, and a shard that exists.
    pub fn read(path: &Path) -> Result<ShardResult, CountError> {
        let text = fs::read_to_string(path).map_err(|source| CountError::CheckpointRead {
            path: path.to_owned(),
            source,
        })?;
        let corrupt = |reason: String| CountError::CheckpointCorrupt {
            path: path.to_owned(),
            reason,
        };
        let result: ShardResult =
            serde_json::from_str(&text).map_err(|error| corrupt(error.to_string()))?;
        if result.format != FORMAT {
            return Err(corrupt(format!(
                "its format is {:?}, not {FORMAT:?}",
                result.format
            )));
        }
        if result.version != VERSION {
            return Err(corrupt(format!(
                "it is version {} of the format; this program reads version {VERSION}",
                result.version
            )));
        }
        if result.shard.of == 0 || result.shard.index >= result.shard.of {
            return Err(corrupt(format!("it names shard {}", result.shard)));
        }
        let mut previous_end = 0;
        for &[start, end] in &result.finished {
            if start >= end || start < previous_end || end > result.subproblems {
                return Err(corrupt(format!(
                    "its finished range [{start}, {end}) is out of order or out of bounds"
                )));
            }
            if (start..end).any(|id| !result.shard.contains(id)) {
                return Err(corrupt(format!(
                    "its finished range [{start}, {end}) holds subproblems of other shards than {}",
                    result.shard
                )));
            }
            previous_end = end;
        }
        Ok(result)
    }

    /// Writes this result to `path` atomically: to `path.tmp`, flushed to disk, then renamed.
    pub fn write(&self, path: &Path) -> Result<(), CountError> {
        let temporary = temporary_path(path);
        let failed = |source| CountError::CheckpointWrite {
            path: path.to_owned(),
            source,
        };
        let mut file = fs::File::create(&temporary).map_err(failed)?;
        let json = serde_json::to_vec(self).map_err(|error| failed(error.into()))?;
        file.write_all(&json).map_err(failed)?;
        file.write_all(b"\n").map_err(failed)?;
        file.sync_all().map_err(failed)?;
        drop(file);
        fs::rename(&temporary, path).map_err(failed)
    }

    /// Checks that this checkpoint belongs to the count described by the other arguments.
    pub(crate) fn check_matches(
        &self,
        path: &Path,
        n: usize,
        count: CountKind,
        shard: Shard,
        subproblems: usize,
        plan: &str,
    ) -> Result<(), CountError> {
        let mismatch =
            |field: &'static str, found: String, expected: String| CountError::CheckpointMismatch {
                path: path.to_owned(),
                field,
                found,
                expected,
            };
        if self.n != n {
            return Err(mismatch("board size n", self.n.to_string(), n.to_string()));
        }
        if self.count != count {
            return Err(mismatch("count", self.count.to_string(), count.to_string()));
        }
        if self.shard != shard {
            return Err(mismatch("shard", self.shard.to_string(), shard.to_string()));
        }
        if self.subproblems != subproblems || self.plan != plan {
            return Err(mismatch(
                "subproblem list",
                format!("{} subproblems, plan {}", self.subproblems, self.plan),
                format!("{subproblems} subproblems, plan {plan}"),
            ));
        }
        Ok(())
    }
}

/// `FILE.tmp` beside `FILE`.
fn temporary_path(path: &Path) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(".tmp");
    PathBuf::from(name)
}

/// The sum of every shard of a count, from [`merge`].
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct MergedCount {
    /// The board size.
    pub n: usize,
    /// What was counted.
    pub count: CountKind,
    /// How many shards were merged.
    pub shards: usize,
    /// The number of subproblems of the count.
    pub subproblems: usize,
    /// The sum of every shard's tally.
    pub tally: Tally,
    /// The answers the tally gives.
    pub answer: Answer,
}

/// Adds up the shards `0/k … (k−1)/k` of one count. Refuses shards of different counts (board, what is
/// counted, subproblem list, k), a shard given twice, a missing shard and an unfinished one.
pub fn merge(shards: &[ShardResult]) -> Result<MergedCount, CountError> {
    let first = shards.first().ok_or(CountError::NoShards)?;
    let of = first.shard.of;
    let mut seen = vec![false; of];
    let mut tally = Tally::default();
    for shard in shards {
        let differs = |field: &'static str, a: String, b: String| CountError::MismatchedShards {
            field,
            first: a,
            other: b,
        };
        if shard.n != first.n {
            return Err(differs(
                "board size n",
                first.n.to_string(),
                shard.n.to_string(),
            ));
        }
        if shard.count != first.count {
            return Err(differs(
                "count",
                first.count.to_string(),
                shard.count.to_string(),
            ));
        }
        if shard.shard.of != of {
            return Err(differs(
                "number of shards",
                of.to_string(),
                shard.shard.of.to_string(),
            ));
        }
        if shard.subproblems != first.subproblems || shard.plan != first.plan {
            return Err(differs(
                "subproblem list",
                format!("{} subproblems, plan {}", first.subproblems, first.plan),
                format!("{} subproblems, plan {}", shard.subproblems, shard.plan),
            ));
        }
        let index = shard.shard.index;
        if index >= of {
            return Err(CountError::BadShard { index, of });
        }
        if seen[index] {
            return Err(CountError::DuplicateShard { index, of });
        }
        seen[index] = true;
        if !shard.is_complete() {
            return Err(CountError::IncompleteShard {
                index,
                of,
                finished: shard.finished_count(),
                total: shard.shard_size(),
            });
        }
        tally = tally.checked_add(shard.tally).ok_or(CountError::Overflow)?;
    }
    let missing: Vec<usize> = (0..of).filter(|&i| !seen[i]).collect();
    if !missing.is_empty() {
        return Err(CountError::MissingShards { missing, of });
    }
    let answer = Answer::complete(first.count, tally)?;
    Ok(MergedCount {
        n: first.n,
        count: first.count,
        shards: of,
        subproblems: first.subproblems,
        tally,
        answer,
    })
}
