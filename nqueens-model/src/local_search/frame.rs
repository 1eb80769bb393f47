//! What every solver shares: its random draws, the watch on its budgets, and [`run_method`], the
//! frame around its search.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use csp_core::Rng;

use super::lookahead::Words;

use super::{Limits, LocalError, LocalMethod, LocalOutcome, RunReport};

/// The random streams of this module's solvers (see [`csp_core::rng_for`]): one per method, so a
/// method's draws never depend on another's.
pub(super) mod streams {
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
pub(super) fn below<W: Words>(rng: &mut W, bound: u32) -> u32 {
    debug_assert!(bound > 0, "a draw needs a non-empty range");
    let mut product = u64::from(rng.next_word()) * u64::from(bound);
    if (product as u32) < bound {
        // Reject the few low words that would make some results more likely than others.
        let threshold = bound.wrapping_neg() % bound;
        while (product as u32) < threshold {
            product = u64::from(rng.next_word()) * u64::from(bound);
        }
    }
    (product >> 32) as u32
}

/// Shuffles `values` uniformly: Durstenfeld's Fisher–Yates, from the last position down, each position
/// swapped with a uniform one at or before it. `values` is at most `2^30` long (see
/// [`LocalMethod::max_n`]), so positions fit `u32`.
pub(super) fn shuffle(rng: &mut Rng, values: &mut [u32]) {
    for position in (1..values.len()).rev() {
        let other = below(rng, position as u32 + 1) as usize;
        values.swap(position, other);
    }
}

/// The answer for the boards that need no search: one queen is a solution, two or three queens have
/// none. `None` for every larger board.
pub(super) fn trivial_outcome(n: usize) -> Option<LocalOutcome> {
    match n {
        1 => Some(LocalOutcome::Solved(vec![0])),
        2 | 3 => Some(LocalOutcome::NoSolution),
        _ => None,
    }
}

/// Why a run ended early.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Halt {
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
pub(super) const POLL_INTERVAL: u64 = 1 << 14;

/// A run's budgets: counts its steps exactly and looks at the stop flag and the clock every
/// [`POLL_INTERVAL`] units of work.
pub(super) struct Watch<'a> {
    stop: &'a AtomicBool,
    deadline: Option<Instant>,
    max_steps: u64,
    steps: u64,
    work_since_poll: u64,
}

impl<'a> Watch<'a> {
    /// Starts the clock now.
    pub(super) fn new(limits: &Limits, stop: &'a AtomicBool) -> Self {
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
    pub(super) fn step(&mut self) -> Result<(), Halt> {
        if self.steps >= self.max_steps {
            return Err(Halt::LimitReached);
        }
        self.steps += 1;
        self.work(1)
    }

    /// Records `units` of work, looking at the flag and the clock when enough has accumulated.
    #[inline]
    pub(super) fn work(&mut self, units: u64) -> Result<(), Halt> {
        self.work_since_poll += units;
        if self.work_since_poll >= POLL_INTERVAL {
            self.work_since_poll = 0;
            self.poll()
        } else {
            Ok(())
        }
    }

    /// Looks at the stop flag and the clock now.
    pub(super) fn poll(&self) -> Result<(), Halt> {
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
pub(super) fn run_method<S: Stats>(
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
pub(super) trait Stats: Default {
    /// The counts as (name, value) pairs, always the same names in the same order.
    fn to_vec(&self) -> Vec<(&'static str, u64)>;
}
