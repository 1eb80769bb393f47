//! Running a count: subproblems spread over threads, results gathered on the calling thread, which keeps
//! the checkpoint and reports progress.

use std::cell::RefCell;
use std::fs;
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use super::bitboard::{Plain, Torus, Walk, run_walks};
use super::checkpoint::ShardResult;
use super::error::CountError;
use super::options::{CountOptions, CountProgress};
use super::plan::{Plan, Work};
use super::report::CountReport;
use super::shard::Shard;
use super::size::check_size;
use super::tally::{Answer, CountKind, Tally};

/// Counts on the n × n board as `options` say.
///
/// The board size is checked before anything is allocated: `n = 0` is [`CountError::ZeroSize`] and an
/// n above [`super::MAX_COUNT_N`] is [`CountError::TooLarge`]. With a checkpoint that exists, the count
/// resumes from it (refusing one of a different count); the finished subproblems are recorded in it as
/// the count runs and when it ends.
///
/// The answer does not depend on the number of threads, on the machine or on where a run was stopped
/// and resumed.
pub fn count(n: usize, options: &CountOptions<'_>) -> Result<CountReport, CountError> {
    let started = Instant::now();
    check_size(n)?;
    let shard = Shard::new(options.shard.index, options.shard.of)?;
    let plan = Plan::new(n, options.kind);
    let mut result = ShardResult::empty(n, options.kind, shard, plan.len(), plan.digest());
    // A device or a directory is refused before anything is created beside it (its lock file).
    if let Some(path) = &options.checkpoint
        && fs::metadata(path).is_ok_and(|metadata| !metadata.is_file())
    {
        return Err(CountError::CheckpointCorrupt {
            path: path.to_owned(),
            reason: "it is not a regular file".to_owned(),
        });
    }
    // Held until the count returns: a second run on the same checkpoint is refused rather than
    // racing this one to write it.
    let mut lock = match &options.checkpoint {
        Some(path) => Some(open_lock(path)?),
        None => None,
    };
    let _guard = match (&mut lock, &options.checkpoint) {
        (Some(lock), Some(path)) => Some(lock.try_write().map_err(|error| {
            if error.kind() == std::io::ErrorKind::WouldBlock {
                CountError::CheckpointInUse {
                    path: path.to_owned(),
                    lock: lock_path(path),
                }
            } else {
                CountError::CheckpointWrite {
                    path: lock_path(path),
                    source: error,
                }
            }
        })?),
        _ => None,
    };
    if let Some(path) = &options.checkpoint
        && fs::symlink_metadata(path).is_ok()
    {
        let saved = ShardResult::read(path)?;
        saved.check_matches(path, n, options.kind, shard, plan.len(), &plan.digest())?;
        plan.check_counts(saved.finished_counts())
            .map_err(|reason| CountError::CheckpointCorrupt {
                path: path.to_owned(),
                reason,
            })?;
        result = saved;
    }
    if let Some(path) = &options.checkpoint {
        // Written at once, so that a path that cannot be written fails before any work is done.
        result.write(path)?;
    }
    let mut finished = result.finished_counts();
    let resumed = finished.len();
    let pending: Vec<usize> = (0..plan.len())
        .filter(|&id| shard.contains(id) && !finished.contains_key(&id))
        .collect();
    let threads = options
        .threads
        .or_else(|| std::thread::available_parallelism().ok())
        .map_or(1, |t| t.get())
        .min(pending.len())
        .max(1);

    let total = result.shard_size();
    let mut visited = 0u128;
    let mut failure = None;
    let mut last_write = Instant::now();
    let stop = AtomicBool::new(false);
    execute(
        &plan,
        &pending,
        threads,
        &stop,
        options.cancel,
        |id, tally| {
            finished.insert(id, [tally.solutions, tally.symmetric, tally.nodes]);
            visited += tally.visited;
            let Some(sum) = result.tally.checked_add(tally) else {
                failure = Some(CountError::Overflow);
                return ControlFlow::Break(());
            };
            result.tally = sum;
            if let Some(path) = &options.checkpoint
                && last_write.elapsed() >= options.checkpoint_interval
            {
                result.set_finished(&finished);
                if let Err(error) = result.write(path) {
                    failure = Some(error);
                    return ControlFlow::Break(());
                }
                last_write = Instant::now();
            }
            match options.progress {
                Some(progress) => progress(&CountProgress {
                    finished: finished.len(),
                    total,
                    tally: result.tally,
                }),
                None => ControlFlow::Continue(()),
            }
        },
    );
    if let Some(error) = failure {
        return Err(error);
    }
    result.set_finished(&finished);
    if let Some(path) = &options.checkpoint {
        result.write(path)?;
    }
    if options.checkpoint.is_none() {
        // Written results are signed as they are written; the report's copy is signed either way,
        // so that it equals what a reader of the file gets.
        result.sign().map_err(|error| CountError::Impossible {
            reason: error.to_string(),
        })?;
    }
    let complete = result.is_complete();
    let answer = if complete && shard.is_whole() {
        Answer::complete(options.kind, result.tally)?
    } else {
        Answer::partial(options.kind, result.tally)
    };
    Ok(CountReport {
        answer,
        complete,
        result,
        resumed,
        visited,
        elapsed: started.elapsed(),
        threads,
    })
}

/// How many subproblems the count of `kind` on the n × n board is split into: the numbers a
/// [`Shard`] takes its part of, and the most shards that each get one. Refuses the boards
/// [`count`] refuses.
pub fn subproblems(n: usize, kind: CountKind) -> Result<usize, CountError> {
    check_size(n)?;
    Ok(Plan::new(n, kind).len())
}

/// `FILE.lock` beside the checkpoint `FILE`: the file a run holds a lock on while it counts.
fn lock_path(path: &Path) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(".lock");
    PathBuf::from(name)
}

/// Opens (creating it if need be) the lock file of the checkpoint `path`. The lock is advisory
/// (flock), so the operating system releases it when its holder ends, however it ends: a killed run
/// leaves the file behind, never a stale lock.
fn open_lock(path: &Path) -> Result<fd_lock::RwLock<fs::File>, CountError> {
    let lock = lock_path(path);
    fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(&lock)
        .map(fd_lock::RwLock::new)
        .map_err(|source| CountError::CheckpointWrite { path: lock, source })
}

/// Runs the subproblems `pending` on `threads` threads, handing each finished one's tally to `on_done`
/// on this thread. Stops handing out subproblems once `on_done` breaks, `stop` is set or `cancel` is;
/// those already started are finished and handed over.
fn execute(
    plan: &Plan,
    pending: &[usize],
    threads: usize,
    stop: &AtomicBool,
    cancel: Option<&AtomicBool>,
    mut on_done: impl FnMut(usize, Tally) -> ControlFlow<()>,
) {
    let next = AtomicUsize::new(0);
    // A short queue: workers that get ahead of this thread wait for it, so a stop takes effect within a
    // few subproblems and the checkpoint never lags far behind the work done. It carries batches (see
    // `Outbox`), two a worker, so a worker is at most about three batches ahead of this thread.
    let (sender, receiver) = mpsc::sync_channel(threads * 2);
    std::thread::scope(|scope| {
        for _ in 0..threads {
            let sender = sender.clone();
            let next = &next;
            scope.spawn(move || worker(plan, pending, next, stop, cancel, &sender));
        }
        drop(sender);
        for batch in receiver {
            for (id, tally) in batch {
                if on_done(id, tally).is_break() {
                    stop.store(true, Ordering::Relaxed);
                }
            }
        }
    });
}

/// One thread's share: takes the next pending subproblem until there is none or the count stops,
/// running walks three at a time.
fn worker(
    plan: &Plan,
    pending: &[usize],
    next: &AtomicUsize,
    stop: &AtomicBool,
    cancel: Option<&AtomicBool>,
    sender: &mpsc::SyncSender<Vec<(usize, Tally)>>,
) {
    let outbox = RefCell::new(Outbox {
        sender,
        batch: Vec::new(),
        since: Instant::now(),
    });
    let stopping =
        || stop.load(Ordering::Relaxed) || cancel.is_some_and(|c| c.load(Ordering::Relaxed));
    let source = || -> Option<(usize, Walk)> {
        loop {
            if stopping() {
                return None;
            }
            let &id = pending.get(next.fetch_add(1, Ordering::Relaxed))?;
            match plan.work(id) {
                Work::Direct(tally) => outbox.borrow_mut().push((id, tally)),
                Work::Walk(walk) => return Some((id, walk)),
            }
        }
    };
    let done = |id, count| {
        outbox
            .borrow_mut()
            .push((id, plan.tally_of_walk(id, count)))
    };
    if plan.is_torus() {
        run_walks(Torus::new(plan.n()), source, done);
    } else {
        run_walks(Plain, source, done);
    }
    outbox.into_inner().flush();
}

/// The most finished subproblems a worker holds before handing them over.
const BATCH_SIZE: usize = 8;

/// The longest a worker goes between handing over finished subproblems, as long as it finishes any.
const BATCH_INTERVAL: Duration = Duration::from_millis(10);

/// A worker's finished subproblems on their way to the gathering thread, handed over in batches.
///
/// Sent one by one, each finished subproblem woke the gathering thread, and the wake-up's system call
/// and context switch cost the worker about 4% of an n = 16 count (median of 9, same run). A batch goes
/// when it holds [`BATCH_SIZE`] subproblems, or with the first subproblem finished once
/// [`BATCH_INTERVAL`] has passed since the last one went, and whatever is left goes when the worker
/// ends; so progress reports and checkpoints stay within a few subproblems of the work done.
struct Outbox<'a> {
    sender: &'a mpsc::SyncSender<Vec<(usize, Tally)>>,
    batch: Vec<(usize, Tally)>,
    /// When the last batch went.
    since: Instant,
}

impl Outbox<'_> {
    /// Adds a finished subproblem, sending the batch if it is full or due.
    fn push(&mut self, item: (usize, Tally)) {
        self.batch.push(item);
        if self.batch.len() >= BATCH_SIZE || self.since.elapsed() >= BATCH_INTERVAL {
            self.flush();
        }
    }

    /// Sends what the batch holds, if anything.
    fn flush(&mut self) {
        if !self.batch.is_empty() {
            // A send fails only if the receiving side has gone, which happens only once every worker
            // is done.
            let _ = self.sender.send(std::mem::take(&mut self.batch));
        }
        self.since = Instant::now();
    }
}
