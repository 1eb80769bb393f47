//! Standard output shared by a run's search and the watch on its clock: whoever holds it prints
//! whole solutions, and the watch ends the run while holding it, so that nothing is printed after
//! the final line. Solutions are gathered and written every [`FLUSH_EVERY`] (or when enough text
//! waits), not one system call each: three million solutions of `-a` print in a few seconds.

use std::io::{self, Write};
use std::sync::{Mutex, MutexGuard};
use std::time::{Duration, Instant};

use crate::run::Printer;

/// How long a printed solution may wait before it reaches standard output.
pub const FLUSH_EVERY: Duration = Duration::from_millis(20);

/// How much text may wait.
const FLUSH_BYTES: usize = 1 << 16;

/// Standard output, shared by the search (through [`Console::printer`]) and the watch on the clock.
#[derive(Debug, Default)]
pub struct Console {
    state: Mutex<ConsoleState>,
}

#[derive(Debug, Default)]
struct ConsoleState {
    /// Whether a solution was printed.
    printed: bool,
    /// The best solution of an optimisation so far, not yet printed.
    held: Option<String>,
    /// Text printed but not yet written.
    pending: Vec<u8>,
    /// When `pending` was last written out.
    flushed: Option<Instant>,
    /// Whether the final output was printed.
    finished: bool,
}

impl ConsoleState {
    /// Writes what is pending to standard output.
    fn flush(&mut self) -> io::Result<()> {
        let mut out = io::stdout().lock();
        out.write_all(&self.pending)?;
        out.flush()?;
        self.pending.clear();
        self.flushed = Some(Instant::now());
        Ok(())
    }
}

impl Console {
    fn lock(&self) -> MutexGuard<'_, ConsoleState> {
        // A poisoned lock means the search thread panicked, which the panic hook reports; the state
        // itself is still whole (every field is written in one step).
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The search's side of the console.
    pub fn printer(&self) -> ConsolePrinter<'_> {
        ConsolePrinter { console: self }
    }

    /// Writes out the solutions printed since the last write. A failed write is the search's to
    /// report, at its next solution or at the end.
    pub fn flush_pending(&self) {
        let mut state = self.lock();
        if !state.pending.is_empty() && !state.finished {
            let _ = state.flush();
        }
    }

    /// Ends the run at the time limit: prints what is pending and the best solution held back, or
    /// `=====UNKNOWN=====` if no solution was printed; returns `false`, printing nothing, if the
    /// search printed its final output already. The console then stays locked for good, so that
    /// the search, still running on its thread, prints nothing after this: the caller ends the
    /// process.
    pub fn end_at_time_limit(&self) -> bool {
        let mut state = self.lock();
        if state.finished {
            return false;
        }
        if let Some(text) = state.held.take() {
            state.pending.extend_from_slice(text.as_bytes());
            state.printed = true;
        }
        if !state.printed {
            state.pending.extend_from_slice(b"=====UNKNOWN=====\n");
        }
        let _ = state.flush();
        state.finished = true;
        std::mem::forget(state);
        true
    }
}

/// The search's side of a [`Console`].
#[derive(Debug)]
pub struct ConsolePrinter<'a> {
    console: &'a Console,
}

impl Printer for ConsolePrinter<'_> {
    fn solution(&mut self, text: &str) -> io::Result<()> {
        let mut state = self.console.lock();
        state.pending.extend_from_slice(text.as_bytes());
        state.printed = true;
        state.held = None;
        let due = state.flushed.is_none_or(|at| at.elapsed() >= FLUSH_EVERY);
        if due || state.pending.len() >= FLUSH_BYTES {
            state.flush()?;
        }
        Ok(())
    }

    fn best_so_far(&mut self, text: &str) -> io::Result<()> {
        self.console.lock().held = Some(text.to_owned());
        Ok(())
    }

    fn end(&mut self, text: &str) -> io::Result<()> {
        let mut state = self.console.lock();
        state.pending.extend_from_slice(text.as_bytes());
        state.flush()?;
        state.finished = true;
        Ok(())
    }
}
