//! Running a count: subproblems spread over threads, results gathered on the calling thread, which keeps
//! the checkpoint and reports progress.

use std::ops::ControlFlow;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::Instant;

use super::bitboard::{Plain, Torus, Walk, run_walks};
use super::checkpoint::ShardResult;
use super::plan::{Plan, Work};
use super::{
    Answer, CountError, CountOptions, CountProgress, CountReport, Shard, Tally, check_size,
};

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
    if let Some(path) = &options.checkpoint
        && path.exists()
    {
        let saved = ShardResult::read(path)?;
        saved.check_matches(path, n, options.kind, shard, plan.len(), &plan.digest())?;
        result = saved;
    }
    if let Some(path) = &options.checkpoint {
        // Written at once, so that a path that cannot be written fails before any work is done.
        result.write(path)?;
    }
    let mut finished = result.finished_ids();
    let resumed = finished.len();
    let pending: Vec<usize> = (0..plan.len())
        .filter(|&id| shard.contains(id) && !finished.contains(&id))
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
            finished.insert(id);
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
    // few subproblems and the checkpoint never lags far behind the work done.
    let (sender, receiver) = mpsc::sync_channel(threads * 8);
    std::thread::scope(|scope| {
        for _ in 0..threads {
            let sender = sender.clone();
            let next = &next;
            scope.spawn(move || worker(plan, pending, next, stop, cancel, &sender));
        }
        drop(sender);
        for (id, tally) in receiver {
            if on_done(id, tally).is_break() {
                stop.store(true, Ordering::Relaxed);
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
    sender: &mpsc::SyncSender<(usize, Tally)>,
) {
    let stopping =
        || stop.load(Ordering::Relaxed) || cancel.is_some_and(|c| c.load(Ordering::Relaxed));
    // A send fails only if the receiving side has gone, which happens only once every worker is done.
    let source = || -> Option<(usize, Walk)> {
        loop {
            if stopping() {
                return None;
            }
            let &id = pending.get(next.fetch_add(1, Ordering::Relaxed))?;
            match plan.work(id) {
                Work::Direct(tally) => {
                    let _ = sender.send((id, tally));
                }
                Work::Walk(walk) => return Some((id, walk)),
            }
        }
    };
    let done = |id, count| {
        let _ = sender.send((id, plan.tally_of_walk(id, count)));
    };
    if plan.is_torus() {
        run_walks(Torus::new(plan.n()), source, done);
    } else {
        run_walks(Plain, source, done);
    }
}
