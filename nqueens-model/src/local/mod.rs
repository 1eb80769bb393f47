//! Local search for N-queens: Sosič & Gu's QS1 and QS4, Rolfe's two Las Vegas algorithms, and the
//! generic min-conflicts of `csp-local` on the counters model ([`min_conflicts`]).
//!
//! Every solver keeps the queens as a permutation (`placement[row] = column`, so rows and columns never
//! clash) and checks the two diagonal families in O(1) per move:
//!
//! | function | paper | what it does | one step is |
//! | --- | --- | --- | --- |
//! | [`qs1`] | Sosič & Gu §2 (`004_1d927949bc937c3a.txt`) | random permutation, swaps that reduce the diagonal collisions, a new permutation when stuck | a tested pair, or a new permutation |
//! | [`qs4`] | Sosič & Gu §3 and Table 2 | conflict-free start for `n − c` queens, then swaps on the `c` conflicting ones | a tested pair, or an initialisation |
//! | [`min_conflicts`] | Minton et al., as Sosič & Gu cite it | `csp-local`'s repair on the counters model, a greedy start | a repair step |
//! | [`las_vegas1`] | Rolfe, Algorithm One (`001_72eb79f80c97b6c5.txt`) | shuffle, then controlled swaps row by row; a new shuffle on failure | a permutation vector |
//! | [`las_vegas2`] | Rolfe, Algorithm Two (GridSearch) | each row a random cell not attacked from above; a new trial on failure | a trial |
//!
//! Each takes the board size, a seed, [`Limits`] and a stop flag, and returns a [`RunReport`]: the
//! [`LocalOutcome`], the seed and the method's own counts. Boards of 2 and 3 rows have no solution and are
//! answered at once; `n = 1` is solved at once. The memory a run needs is computed before anything is
//! allocated ([`LocalMethod::required_bytes`]) and a board beyond [`MEMORY_BUDGET_BYTES`] is refused with
//! [`LocalError::TooLarge`].
//!
//! [`race`] runs one method on several threads with consecutive seeds, as Rolfe's parallel execution
//! does: the first thread to finish wins and the others stop. The winner's seed is in its report, and a
//! single-threaded run with that seed reproduces it bit for bit.
//!
//! ```
//! use std::sync::atomic::AtomicBool;
//! use nqueens_model::local::{LocalOutcome, Limits, qs4};
//!
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! let report = qs4(1000, 7, &Limits::default(), &AtomicBool::new(false))?;
//! let LocalOutcome::Solved(placement) = &report.outcome else { panic!("QS4 solves 1000 queens") };
//! nqueens_model::verify(placement)?;
//! assert!(report.stat("swaps").is_some());
//! # Ok(())
//! # }
//! ```

mod diagonals;
mod las_vegas;
mod min_conflicts;
mod qs1;
mod qs4;

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use csp_core::Rng;
use rand::Rng as _;
use thiserror::Error;

use crate::MEMORY_BUDGET_BYTES;

pub use las_vegas::{las_vegas1, las_vegas2};
pub use min_conflicts::min_conflicts;
pub use qs1::qs1;
pub use qs4::{conflicting_queens, qs4};

/// Budgets for one run. The default has none: the run goes on until it finishes or is stopped.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Limits {
    /// The most steps the run may take; what a step is depends on the method (see the
    /// [module documentation](self)). `Some(0)` stops a run before its first step.
    pub max_steps: Option<u64>,
    /// The longest the run may take, measured from its start.
    pub time_limit: Option<Duration>,
}

/// How a run ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LocalOutcome {
    /// A solution, `placement[row] = column`.
    Solved(Vec<u32>),
    /// The board has no solution: `n` is 2 or 3.
    NoSolution,
    /// The step or time budget of [`Limits`] ran out first.
    LimitReached,
    /// The stop flag was raised, by the caller or by another thread of a [`race`] that won.
    Stopped,
}

impl LocalOutcome {
    /// Whether the run answered the question (a solution, or the proof that none exists), which is
    /// what ends a [`race`].
    pub fn is_answer(&self) -> bool {
        matches!(self, LocalOutcome::Solved(_) | LocalOutcome::NoSolution)
    }
}

/// What one run produced.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RunReport {
    /// How the run ended.
    pub outcome: LocalOutcome,
    /// The seed of the run that produced this report; in a [`race`], the winning thread's seed.
    pub seed: u64,
    /// The method's own counts, always the same names in the same order for a method (zeros where
    /// nothing happened): see each method's documentation.
    pub stats: Vec<(&'static str, u64)>,
}

impl RunReport {
    /// The count called `name`, if the method keeps one.
    pub fn stat(&self, name: &str) -> Option<u64> {
        self.stats
            .iter()
            .find(|(stat, _)| *stat == name)
            .map(|&(_, value)| value)
    }
}

/// Why a local-search run could not start.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum LocalError {
    /// A board needs at least one row.
    #[error("n must be at least 1")]
    ZeroSize,
    /// The run would need more memory than the budget allows.
    #[error(
        "n = {n} is too large for {method}{}: it needs about {} MiB, the budget is {} MiB (the maximum for one run is n = {max})",
        threads_note(*threads),
        required_bytes >> 20,
        budget_bytes >> 20
    )]
    TooLarge {
        /// The method that was asked for.
        method: LocalMethod,
        /// The board size that was asked for.
        n: usize,
        /// How many runs would hold memory at once.
        threads: usize,
        /// The memory those runs need together, saturated at `u64::MAX`.
        required_bytes: u64,
        /// The budget, [`MEMORY_BUDGET_BYTES`].
        budget_bytes: u64,
        /// The largest board one run of the method accepts, [`LocalMethod::max_n`].
        max: usize,
    },
    /// A race needs at least one thread.
    #[error("the number of threads must be at least 1")]
    NoThreads,
    /// The engine refused the model or configuration (a bug in this crate; reported, not panicked).
    #[error("the engine refused the local-search run: {0}")]
    Model(String),
    /// The operating system refused to start a thread of a race.
    #[error("could not start thread {thread} of the race: {message}")]
    ThreadSpawn {
        /// The index of the thread that could not start.
        thread: usize,
        /// The operating system's reason.
        message: String,
    },
}

/// The words " with T threads" for [`LocalError::TooLarge`] when a race asked for more than one.
fn threads_note(threads: usize) -> String {
    if threads > 1 {
        format!(" with {threads} threads")
    } else {
        String::new()
    }
}

/// The solvers of this module, for callers that choose one at run time (the CLI's `--method`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum LocalMethod {
    /// [`qs1`].
    Qs1,
    /// [`qs4`].
    Qs4,
    /// [`las_vegas1`].
    LasVegas1,
    /// [`las_vegas2`].
    LasVegas2,
    /// [`min_conflicts`]: `csp-local` on the counters model.
    MinConflicts,
}

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

    /// The most memory, in bytes, one run on an `n`-queens board can take, saturating at `u64::MAX`.
    ///
    /// Every method holds the placement (4 bytes a row) and a few sets indexed by line; the estimate
    /// adds [`FIXED_BYTES`] for everything whose size does not grow with `n` (QS4's short list of
    /// conflicting queens, the generator, the report). Per queen, for large `n`:
    /// - QS1: the placement and a `u32` counter for each of the `2·(2n − 1)` diagonals: 20 bytes;
    /// - QS4: the placement and one bit per diagonal (its counts above one live in a small map whose
    ///   size is bounded by the initial collisions, see `qs4.rs`): 4.5 bytes;
    /// - Las Vegas One: the placement and a byte per diagonal: 8 bytes;
    /// - Las Vegas Two: the placement, a bit per column and per diagonal, and a scratch row of bits:
    ///   about 4.8 bytes;
    /// - min-conflicts: the counters model and one run over it, [`crate::LOCAL_SEARCH_BYTES_PER_ROW`].
    pub const fn required_bytes(self, n: usize) -> u64 {
        // u128 keeps every product exact for any usize n; the result saturates below.
        let n = n as u128;
        let placement = 4 * n;
        let diagonal_bits = 2 * bitset_bytes(2 * n);
        let total = match self {
            LocalMethod::Qs1 => placement + 2 * 4 * (2 * n),
            LocalMethod::Qs4 => placement + diagonal_bits,
            LocalMethod::LasVegas1 => placement + 2 * (2 * n),
            LocalMethod::LasVegas2 => placement + diagonal_bits + 2 * bitset_bytes(n),
            LocalMethod::MinConflicts => n * crate::LOCAL_SEARCH_BYTES_PER_ROW as u128,
        } + FIXED_BYTES as u128;
        if total > u64::MAX as u128 {
            u64::MAX
        } else {
            total as u64
        }
    }

    /// The largest board one run of the method accepts: the last `n` whose
    /// [`required_bytes`](Self::required_bytes) fits [`MEMORY_BUDGET_BYTES`]. Because every method
    /// needs at least 4 bytes a row, it is below `2^30`, so rows, columns and diagonals fit in `u32`.
    pub const fn max_n(self) -> usize {
        // A binary search: the estimate grows with n, and 2^30 rows already need 4 GiB.
        let (mut within, mut beyond) = (1_usize, 1_usize << 30);
        while beyond - within > 1 {
            let middle = within + (beyond - within) / 2;
            if self.required_bytes(middle) <= MEMORY_BUDGET_BYTES {
                within = middle;
            } else {
                beyond = middle;
            }
        }
        within
    }

    /// Refuses a board of `n` rows for `threads` simultaneous runs before anything is allocated.
    pub fn check(self, n: usize, threads: usize) -> Result<(), LocalError> {
        if n == 0 {
            return Err(LocalError::ZeroSize);
        }
        if threads == 0 {
            return Err(LocalError::NoThreads);
        }
        let one_run = self.required_bytes(n);
        let required_bytes = one_run.saturating_mul(threads as u64);
        if n > self.max_n() || required_bytes > MEMORY_BUDGET_BYTES {
            return Err(LocalError::TooLarge {
                method: self,
                n,
                threads,
                required_bytes,
                budget_bytes: MEMORY_BUDGET_BYTES,
                max: self.max_n(),
            });
        }
        Ok(())
    }
}

named_enum!(
    LocalMethod,
    "local-search method",
    [
        Qs1 => "qs1",
        Qs4 => "qs4",
        MinConflicts => "min-conflicts",
        LasVegas1 => "las-vegas1",
        LasVegas2 => "las-vegas2",
    ]
);

/// Bytes counted once per run whatever `n` is: QS4's list of conflicting queens and its map of
/// diagonal counts above one (both bounded by a constant, see `qs4.rs`), the generator, the report and
/// the allocator's overhead, rounded up generously.
pub const FIXED_BYTES: u64 = 1 << 20;

/// Bytes of a bit set over `bits` elements: whole 64-bit words, plus the spare word that lets
/// [`diagonals::BitSet::window`] read past the last one.
const fn bitset_bytes(bits: u128) -> u128 {
    (bits.div_ceil(64) + 1) * 8
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
/// returns the first answer (Rolfe, "Parallel Execution", `001_72eb79f80c97b6c5.txt`).
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

/// The random streams of this module's solvers (see [`csp_core::rng_for`]): one per method, so a
/// method's draws never depend on another's.
mod streams {
    /// QS1's permutations.
    pub const QS1: u64 = 101;
    /// QS4's initial placements and random partners.
    pub const QS4: u64 = 104;
    /// Rolfe's Algorithm One.
    pub const LAS_VEGAS1: u64 = 201;
    /// Rolfe's Algorithm Two.
    pub const LAS_VEGAS2: u64 = 202;
}

/// A uniform draw from `0..bound` (`bound ≥ 1`), by Lemire's multiply-and-reject method on 32-bit
/// words. Every solver draws through this one function, on `u32` and `u64` arithmetic only, so a seed
/// gives the same numbers on every platform and for every version of `rand`'s range samplers.
#[inline]
fn below(rng: &mut Rng, bound: u32) -> u32 {
    debug_assert!(bound > 0, "a draw needs a non-empty range");
    let mut product = u64::from(rng.next_u32()) * u64::from(bound);
    if (product as u32) < bound {
        // Reject the few low words that would make some results more likely than others.
        let threshold = bound.wrapping_neg() % bound;
        while (product as u32) < threshold {
            product = u64::from(rng.next_u32()) * u64::from(bound);
        }
    }
    (product >> 32) as u32
}

/// Shuffles `values` uniformly: Durstenfeld's Fisher–Yates, from the last position down, each position
/// swapped with a uniform one at or before it. `values` is at most `2^30` long (see
/// [`LocalMethod::max_n`]), so positions fit `u32`.
fn shuffle(rng: &mut Rng, values: &mut [u32]) {
    for position in (1..values.len()).rev() {
        let other = below(rng, position as u32 + 1) as usize;
        values.swap(position, other);
    }
}

/// The answer for the boards that need no search: one queen is a solution, two or three queens have
/// none. `None` for every larger board.
fn trivial_outcome(n: usize) -> Option<LocalOutcome> {
    match n {
        1 => Some(LocalOutcome::Solved(vec![0])),
        2 | 3 => Some(LocalOutcome::NoSolution),
        _ => None,
    }
}

/// Why a run ended early.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Halt {
    /// A step or time budget ran out.
    LimitReached,
    /// The stop flag was raised.
    Stopped,
}

impl From<Halt> for LocalOutcome {
    fn from(halt: Halt) -> Self {
        match halt {
            Halt::LimitReached => LocalOutcome::LimitReached,
            Halt::Stopped => LocalOutcome::Stopped,
        }
    }
}

/// Units of work between two looks at the stop flag and the clock. A unit is a few nanoseconds (a
/// tested square or pair), so a run notices a stop within a fraction of a millisecond while the look
/// itself (an atomic load and a clock read) costs nothing measurable.
const POLL_INTERVAL: u64 = 1 << 14;

/// A run's budgets: counts its steps exactly and looks at the stop flag and the clock every
/// [`POLL_INTERVAL`] units of work.
struct Watch<'a> {
    stop: &'a AtomicBool,
    deadline: Option<Instant>,
    max_steps: u64,
    steps: u64,
    work_since_poll: u64,
}

impl<'a> Watch<'a> {
    /// Starts the clock now.
    fn new(limits: &Limits, stop: &'a AtomicBool) -> Self {
        let start = Instant::now();
        Watch {
            stop,
            // A limit too long to add to the clock is no limit.
            deadline: limits.time_limit.and_then(|limit| start.checked_add(limit)),
            max_steps: limits.max_steps.unwrap_or(u64::MAX),
            steps: 0,
            work_since_poll: 0,
        }
    }

    /// Takes one step, or reports that the step budget is spent.
    #[inline]
    fn step(&mut self) -> Result<(), Halt> {
        if self.steps >= self.max_steps {
            return Err(Halt::LimitReached);
        }
        self.steps += 1;
        self.work(1)
    }

    /// Records `units` of work, looking at the flag and the clock when enough has accumulated.
    #[inline]
    fn work(&mut self, units: u64) -> Result<(), Halt> {
        self.work_since_poll += units;
        if self.work_since_poll >= POLL_INTERVAL {
            self.work_since_poll = 0;
            self.poll()
        } else {
            Ok(())
        }
    }

    /// Looks at the stop flag and the clock now.
    fn poll(&self) -> Result<(), Halt> {
        if self.stop.load(Ordering::Relaxed) {
            return Err(Halt::Stopped);
        }
        if self
            .deadline
            .is_some_and(|deadline| Instant::now() >= deadline)
        {
            return Err(Halt::LimitReached);
        }
        Ok(())
    }
}

/// The common frame of every solver: refuses bad sizes, answers trivial boards, checks the stop flag
/// and the budgets once before the first step, and turns the search's result and counts into a report.
fn run_method<S: Stats>(
    method: LocalMethod,
    n: usize,
    seed: u64,
    limits: &Limits,
    stop: &AtomicBool,
    search: impl FnOnce(&mut Watch<'_>, &mut S) -> Result<Vec<u32>, Halt>,
) -> Result<RunReport, LocalError> {
    method.check(n, 1)?;
    let mut stats = S::default();
    if let Some(outcome) = trivial_outcome(n) {
        return Ok(RunReport {
            outcome,
            seed,
            stats: stats.to_vec(),
        });
    }
    let mut watch = Watch::new(limits, stop);
    let outcome = match watch.poll().and_then(|()| search(&mut watch, &mut stats)) {
        Ok(placement) => LocalOutcome::Solved(placement),
        Err(halt) => halt.into(),
    };
    Ok(RunReport {
        outcome,
        seed,
        stats: stats.to_vec(),
    })
}

/// A method's counts, listed in a fixed order for [`RunReport::stats`].
trait Stats: Default {
    /// The counts as (name, value) pairs, always the same names in the same order.
    fn to_vec(&self) -> Vec<(&'static str, u64)>;
}
