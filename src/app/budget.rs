//! The one place where a program's limits are worked out and enforced: [`Budget`] counts them from
//! the start (of a `csp` command; of `fzn-csp`'s process, so that reading and compiling count), hands
//! each method what is left of them (the engine's node, backtrack and time limits; a local search's
//! time; the FlatZinc run's deadline), and runs work that cannot look at the clock itself (building a
//! huge model, one Knuth probe of a huge board, a construction) on a worker thread that is abandoned
//! when the time runs out. So every method stops within a few tens of milliseconds of the limit.

use std::sync::mpsc;
use std::time::{Duration, Instant};

use csp_search::Limits;

use super::atomic_file::cancel_writes;

/// How long past the deadline a worker is given to stop by itself (and report its own counts)
/// before it is abandoned. Work that looks at the clock stops well within it.
const GRACE: Duration = Duration::from_millis(10);

/// How long an abandoned worker is given to remove its unfinished output file.
const CLEAN_UP: Duration = Duration::from_millis(50);

/// A program's limits (the engine's own type, [`Limits`]: nodes, backtracks, time and solutions),
/// counted from its start.
#[derive(Debug, Clone, Copy)]
pub struct Budget {
    started: Instant,
    limits: Limits,
}

impl Budget {
    /// `limits`, counted from now.
    pub fn start(limits: Limits) -> Self {
        Budget::starting_at(Instant::now(), limits)
    }

    /// `limits`, counted from `started` (a program that wants its time limit to cover the work done
    /// before its arguments were read).
    pub fn starting_at(started: Instant, limits: Limits) -> Self {
        Budget { started, limits }
    }

    /// A time limit alone (`None`: none), counted from `started`: FlatZinc's `-t`, which covers
    /// reading and compiling the model.
    pub fn time_limit(started: Instant, time: Option<Duration>) -> Self {
        Budget::starting_at(
            started,
            Limits {
                time,
                ..Limits::default()
            },
        )
    }

    /// When the time limit runs out, if there is one (`None` too if it lies beyond what the clock
    /// can represent).
    pub fn deadline(&self) -> Option<Instant> {
        self.limits
            .time
            .and_then(|time| self.started.checked_add(time))
    }

    /// The time left, if there is a time limit (zero once it has passed).
    pub fn remaining(&self) -> Option<Duration> {
        self.limits
            .time
            .map(|time| time.saturating_sub(self.started.elapsed()))
    }

    /// The engine's limits for a search that starts now: the node, backtrack and solution limits,
    /// and the time that is left.
    pub fn search_limits(&self) -> Limits {
        Limits {
            time: self.remaining(),
            ..self.limits
        }
    }

    /// Runs `work`, which cannot look at the clock itself, within the time limit: on this thread
    /// when there is none, else on a worker thread that is abandoned (`None`) once the time is up.
    /// An abandoned worker's output files are cancelled ([`cancel_writes`]), so that it removes its
    /// unfinished temporary file; its memory and thread end with the process, which the caller ends
    /// by reporting the limit.
    pub fn run<T: Send + 'static>(&self, work: impl FnOnce() -> T + Send + 'static) -> Option<T> {
        let Some(remaining) = self.remaining() else {
            return Some(work());
        };
        let (sender, receiver) = mpsc::channel();
        let (done_sender, done) = mpsc::channel::<()>();
        let spawned = std::thread::Builder::new()
            .name("csp-within-limit".to_owned())
            .spawn(move || {
                let result = work();
                let _ = sender.send(result);
                drop(done_sender);
            });
        if spawned.is_err() {
            // No thread to spare: the limit then applies where the work looks at the clock.
            return None;
        }
        match receiver.recv_timeout(remaining + GRACE) {
            Ok(result) => Some(result),
            Err(_) => {
                if cancel_writes() {
                    let _ = done.recv_timeout(CLEAN_UP);
                }
                None
            }
        }
    }
}
