//! Running a method: by name ([`LocalMethod::run`]), and on several threads, first answer wins
//! ([`race`], and [`solve`] around it).

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use super::{
    Limits, LocalError, LocalMethod, LocalOutcome, RunReport, las_vegas1, las_vegas2,
    min_conflicts, qs1, qs4,
};

impl LocalMethod {
    /// Runs the method once; the same as calling [`qs1`], [`qs4`], [`las_vegas1`] or [`las_vegas2`].
    pub fn run(
        self,
        n: usize,
        seed: u64,
        limits: &Limits,
        stop: &AtomicBool,
    ) -> Result<RunReport, LocalError> {
        match self {
            LocalMethod::Qs1 => qs1(n, seed, limits, stop),
            LocalMethod::Qs4 => qs4(n, seed, limits, stop),
            LocalMethod::LasVegas1 => las_vegas1(n, seed, limits, stop),
            LocalMethod::LasVegas2 => las_vegas2(n, seed, limits, stop),
            LocalMethod::MinConflicts => min_conflicts(n, seed, limits, stop),
        }
    }
}

/// Runs one method with a seed, then checks memory for `threads` runs and [`race`]s them: the usual
/// entry point for a caller such as the CLI.
pub fn solve(
    method: LocalMethod,
    n: usize,
    seed: u64,
    threads: usize,
    limits: &Limits,
) -> Result<RunReport, LocalError> {
    method.check(n, threads)?;
    race(threads, seed, |thread_seed, stop| {
        method.run(n, thread_seed, limits, stop)
    })
}

/// Runs `run` on `threads` scoped threads at once, thread `t` with seed `seed.wrapping_add(t)`, and
/// returns the first answer (Rolfe, "Parallel Execution", *Las Vegas Does N-Queens*, 2006).
///
/// The first thread whose report [is an answer](LocalOutcome::is_answer) raises the shared stop flag,
/// which every run polls; the others then return [`LocalOutcome::Stopped`] and the winner's report is
/// returned, naming its seed. Because a run only reads the flag to stop early, never to choose a move,
/// the winning report equals a single-threaded run with the same seed.
///
/// When no thread finds an answer the report of the lowest thread that hit a limit is returned (or of
/// thread 0 if all were stopped); an error from any thread is returned after all have ended. With one
/// thread the run happens on the caller's thread. Each run allocates its own memory, so a caller should
/// check [`LocalMethod::check`] with the thread count first, as [`solve`] does.
pub fn race<F>(threads: usize, seed: u64, run: F) -> Result<RunReport, LocalError>
where
    F: Fn(u64, &AtomicBool) -> Result<RunReport, LocalError> + Sync,
{
    if threads == 0 {
        return Err(LocalError::NoThreads);
    }
    let stop = AtomicBool::new(false);
    if threads == 1 {
        return run(seed, &stop);
    }
    // The index of the thread that raised the flag first; `threads` means "none yet".
    let winner = AtomicUsize::new(threads);
    let results: Vec<Result<RunReport, LocalError>> = std::thread::scope(|scope| {
        let mut handles = Vec::with_capacity(threads);
        let mut spawn_error = None;
        for thread in 0..threads {
            let (run, stop, winner) = (&run, &stop, &winner);
            let spawned = std::thread::Builder::new()
                .name(format!("local-search-{thread}"))
                .spawn_scoped(scope, move || {
                    let result = run(seed.wrapping_add(thread as u64), stop);
                    if let Ok(report) = &result
                        && report.outcome.is_answer()
                        && !stop.swap(true, Ordering::AcqRel)
                    {
                        winner.store(thread, Ordering::Release);
                    }
                    result
                });
            match spawned {
                Ok(handle) => handles.push(handle),
                Err(error) => {
                    // The threads already running must not go on for nothing: stop them, then report.
                    stop.store(true, Ordering::Release);
                    spawn_error = Some(LocalError::ThreadSpawn {
                        thread,
                        message: error.to_string(),
                    });
                    break;
                }
            }
        }
        let mut results: Vec<_> = handles
            .into_iter()
            .map(|handle| match handle.join() {
                Ok(result) => result,
                // A panic in `run` is the caller's own; carry it to the caller's thread unchanged.
                Err(payload) => std::panic::resume_unwind(payload),
            })
            .collect();
        if let Some(error) = spawn_error {
            results.push(Err(error));
        }
        results
    });
    let winner = winner.load(Ordering::Acquire);
    let mut results = results.into_iter().enumerate();
    let mut fallback = None;
    let mut first_error = None;
    for (thread, result) in &mut results {
        match result {
            Ok(report) if thread == winner => return Ok(report),
            Ok(report) => {
                let better = match &fallback {
                    None => true,
                    Some(RunReport { outcome, .. }) => {
                        *outcome == LocalOutcome::Stopped
                            && report.outcome == LocalOutcome::LimitReached
                    }
                };
                if better {
                    fallback = Some(report);
                }
            }
            Err(error) => {
                first_error.get_or_insert(error);
            }
        }
    }
    match (first_error, fallback) {
        (Some(error), _) => Err(error),
        (None, Some(report)) => Ok(report),
        // Every thread returned something, so this arm is unreachable; an error keeps it panic-free.
        (None, None) => Err(LocalError::NoThreads),
    }
}
