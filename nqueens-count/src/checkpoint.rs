//! Shard results and checkpoints: which subproblems are finished, and what they added up to.
//!
//! One format serves both. A checkpoint is a [`ShardResult`] that is not finished yet; once every
//! subproblem of its shard is finished it is that shard's result, and [`merge`] adds shard results up.
//! The file is JSON, written to `FILE.tmp` and then renamed over `FILE`, so a run killed at any moment
//! leaves either the previous checkpoint or the new one, never half of one.
//!
//! A file is checked before anything is taken from it: it is read with a size cap
//! ([`MAX_CHECKPOINT_BYTES`]), so that a device or a huge file cannot fill memory; its `checksum`
//! (FNV-1a over its content) must match, so that an edited or damaged file is refused rather than
//! resumed into a wrong answer; it carries the counts of every finished subproblem, which must add up
//! to its total and fit what each subproblem can hold (a multiple of its weight, nothing it cannot
//! count); and its totals must be possible (no more essentially distinct solutions than solutions,
//! no fewer tree nodes than solutions).

use std::collections::BTreeMap;
use std::fs;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::error::CountError;
use super::fnv::Fnv;
use super::plan::Plan;
use super::shard::Shard;
use super::size::{MAX_COUNT_N, check_size};
use super::tally::{Answer, CountKind, Tally, impossible_totals};

/// The `format` field of every checkpoint and shard result.
pub const FORMAT: &str = "csp-queens-count";

/// The `version` of the format this build writes and reads. Version 2 added the per-subproblem
/// counts and the checksum.
pub const VERSION: u32 = 2;

/// The largest checkpoint or shard result read: far more than any count needs (the largest, n = 32,
/// has under 10⁵ subproblems of at most three counts each), and small enough that reading a device
/// or a wrong, huge file stops at once.
pub const MAX_CHECKPOINT_BYTES: u64 = 64 << 20;

/// The counts of one finished subproblem: its solutions, its symmetric solutions (Burnside's lemma)
/// and its LEX tree nodes, with its weight applied, as the fields of [`Tally`] of the same names.
pub type SubproblemCounts = [u128; 3];

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
    /// The counts of each finished subproblem, in the order of their numbers: what lets a reader
    /// recheck [`Self::tally`] and each subproblem against what it can hold.
    pub counts: Vec<SubproblemCounts>,
    /// `fnv1a64:` and 16 hexadecimal digits: the FNV-1a hash of the file's content with this field
    /// empty. A file whose checksum does not match was changed after it was written.
    pub checksum: String,
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
            counts: Vec::new(),
            checksum: String::new(),
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

    /// The finished subproblems and their counts, by number.
    pub(crate) fn finished_counts(&self) -> BTreeMap<usize, SubproblemCounts> {
        self.finished
            .iter()
            .flat_map(|&[start, end]| start..end)
            .zip(self.counts.iter().copied())
            .collect()
    }

    /// Records `finished` (the subproblems and their counts) as the finished set.
    pub(crate) fn set_finished(&mut self, finished: &BTreeMap<usize, SubproblemCounts>) {
        self.finished.clear();
        self.counts.clear();
        for (&id, &counts) in finished {
            match self.finished.last_mut() {
                Some(range) if range[1] == id => range[1] = id + 1,
                _ => self.finished.push([id, id + 1]),
            }
            self.counts.push(counts);
        }
    }

    /// The checksum of this result's content: FNV-1a over its JSON with the checksum field empty.
    fn content_checksum(&self) -> Result<String, serde_json::Error> {
        let unsigned = ShardResult {
            checksum: String::new(),
            ..self.clone()
        };
        let mut hash = Fnv::new();
        hash.bytes(&serde_json::to_vec(&unsigned)?);
        Ok(format!("fnv1a64:{:016x}", hash.finish()))
    }

    /// Reads a shard result or checkpoint and checks it: read within [`MAX_CHECKPOINT_BYTES`] and
    /// only from a regular file, the right format and version, an unchanged checksum,
    /// ranges in order and inside its shard, a shard and a board that exist, counts that add up to
    /// the total, and totals that are possible.
    pub fn read(path: &Path) -> Result<ShardResult, CountError> {
        let unreadable = |source| CountError::CheckpointRead {
            path: path.to_owned(),
            source,
        };
        let file = fs::File::open(path).map_err(unreadable)?;
        if !file.metadata().map_err(unreadable)?.is_file() {
            return Err(CountError::CheckpointCorrupt {
                path: path.to_owned(),
                reason: "it is not a regular file".to_owned(),
            });
        }
        let mut bytes = Vec::new();
        file.take(MAX_CHECKPOINT_BYTES + 1)
            .read_to_end(&mut bytes)
            .map_err(unreadable)?;
        Self::parse(&bytes, path)
    }

    /// Reads a shard result or checkpoint from the text of its file, as [`Self::write`] or
    /// [`Self::to_json`] made it, with every check [`Self::read`] makes; `origin` names where the
    /// text came from (a file, a task of a cluster) in the error. This is how a result crosses
    /// between machines without a shared file system: as the text of the file it would be.
    pub fn from_json(text: &str, origin: &Path) -> Result<ShardResult, CountError> {
        Self::parse(text.as_bytes(), origin)
    }

    /// Parses and checks the bytes of a file (at most [`MAX_CHECKPOINT_BYTES`]).
    fn parse(bytes: &[u8], path: &Path) -> Result<ShardResult, CountError> {
        let corrupt = |reason: String| CountError::CheckpointCorrupt {
            path: path.to_owned(),
            reason,
        };
        if bytes.len() as u64 > MAX_CHECKPOINT_BYTES {
            return Err(corrupt(format!(
                "it is larger than {} MiB, and no checkpoint is",
                MAX_CHECKPOINT_BYTES >> 20
            )));
        }
        let result: ShardResult =
            serde_json::from_slice(bytes).map_err(|error| corrupt(error.to_string()))?;
        result.check().map_err(corrupt)?;
        Ok(result)
    }

    /// This result as the text of its file, signed (its checksum set to match its content) and
    /// ending in a newline: byte for byte what [`Self::write`] writes, which [`Self::from_json`]
    /// and [`Self::read`] accept.
    pub fn to_json(&self) -> Result<String, CountError> {
        let mut signed = self.clone();
        let text = signed
            .sign()
            .and_then(|()| serde_json::to_string(&signed))
            .map_err(|error| CountError::Impossible {
                reason: format!("a shard result cannot be written as JSON: {error}"),
            })?;
        Ok(text + "\n")
    }

    /// What [`Self::read`] checks once the file is parsed; the reason a check failed.
    fn check(&self) -> Result<(), String> {
        if self.format != FORMAT {
            return Err(format!("its format is {:?}, not {FORMAT:?}", self.format));
        }
        if self.version != VERSION {
            return Err(format!(
                "it is version {} of the format; this program reads version {VERSION}",
                self.version
            ));
        }
        let expected = self.content_checksum().map_err(|error| error.to_string())?;
        if self.checksum != expected {
            return Err(
                "its content does not match its checksum, so it was changed or damaged after csp wrote it; \
                 delete it to count again"
                    .to_owned(),
            );
        }
        if !(1..=MAX_COUNT_N).contains(&self.n) {
            return Err(format!("it names a board of n = {}", self.n));
        }
        if self.shard.of == 0 || self.shard.index >= self.shard.of {
            return Err(format!("it names shard {}", self.shard));
        }
        let mut previous_end = 0;
        for &[start, end] in &self.finished {
            if start >= end || start < previous_end || end > self.subproblems {
                return Err(format!(
                    "its finished range [{start}, {end}) is out of order or out of bounds"
                ));
            }
            if (start..end).any(|id| !self.shard.contains(id)) {
                return Err(format!(
                    "its finished range [{start}, {end}) holds subproblems of other shards than {}",
                    self.shard
                ));
            }
            previous_end = end;
        }
        if self.counts.len() != self.finished_count() {
            return Err(format!(
                "it has counts for {} subproblems but {} finished",
                self.counts.len(),
                self.finished_count()
            ));
        }
        let sum = self.counts.iter().try_fold([0_u128; 3], |sum, counts| {
            Some([
                sum[0].checked_add(counts[0])?,
                sum[1].checked_add(counts[1])?,
                sum[2].checked_add(counts[2])?,
            ])
        });
        let tally = &self.tally;
        if sum != Some([tally.solutions, tally.symmetric, tally.nodes]) {
            return Err("its subproblems' counts do not add up to its total".to_owned());
        }
        impossible_totals(
            self.count,
            tally,
            self.is_complete() && self.shard.is_whole(),
        )
    }

    /// Sets [`Self::checksum`] to the checksum of the current content.
    pub(crate) fn sign(&mut self) -> Result<(), serde_json::Error> {
        self.checksum = self.content_checksum()?;
        Ok(())
    }

    /// Signs this result ([`Self::checksum`]) and writes it to `path` atomically: to `path.tmp`,
    /// flushed to disk, then renamed.
    pub fn write(&mut self, path: &Path) -> Result<(), CountError> {
        let temporary = temporary_path(path);
        let failed = |source| CountError::CheckpointWrite {
            path: path.to_owned(),
            source,
        };
        self.sign().map_err(|error| failed(error.into()))?;
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
    // Every shard is of one count, so one plan rechecks each subproblem's counts in all of them.
    check_size(first.n)?;
    let plan = Plan::new(first.n, first.count);
    if plan.len() != first.subproblems || plan.digest() != first.plan {
        return Err(CountError::MismatchedShards {
            field: "subproblem list",
            first: format!("{} subproblems, plan {}", first.subproblems, first.plan),
            other: format!(
                "{} subproblems, plan {} in this program",
                plan.len(),
                plan.digest()
            ),
        });
    }
    for shard in shards {
        plan.check_counts(shard.finished_counts())
            .and_then(|()| {
                let counts = shard.counts.len() == shard.finished_count();
                counts
                    .then_some(())
                    .ok_or_else(|| "its counts do not match its finished subproblems".to_owned())
            })
            .map_err(|reason| CountError::ImpossibleShard {
                index: shard.shard.index,
                of,
                reason,
            })?;
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
