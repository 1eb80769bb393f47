//! A FlatZinc solver's whole run, as `fzn-csp` makes it: the model read from a file, device or pipe
//! ([`read_model`]) and compiled on a worker thread, then the protocol ([`crate::run::run`]) printing
//! to a [`Console`]; the calling thread watches the clock, so that the time limit holds from the
//! start, reading and compiling included, however long any one step takes. Messages for the user
//! (warnings, `-v`) go to stderr, each starting with the program's name.

use std::path::PathBuf;
use std::sync::Arc;
use std::sync::mpsc::{self, RecvTimeoutError};
use std::time::{Duration, Instant};

use csp_search::SearchObserver;

use crate::console::{Console, FLUSH_EVERY};
use crate::input::read_model;
use crate::plan::plan;
use crate::run::{RunError, RunOptions, run};
use crate::{Compiled, Error, compile};

/// How long past the time limit the search may take to stop by itself (it reads the clock every
/// few nodes) before the watch ends the run.
const GRACE: Duration = Duration::from_millis(200);

/// The worker's stack: the parser and the engine keep their own stacks, so this is only headroom.
const WORKER_STACK: usize = 16 << 20;

/// A solver run of one model file.
#[derive(Debug, Clone)]
pub struct SolverRun {
    /// The program's name, which starts every message on stderr.
    pub program: &'static str,
    /// The FlatZinc model (`-` for standard input).
    pub path: PathBuf,
    /// The protocol's options; the deadline is counted from `started`, and `init_time` is filled
    /// in here.
    pub options: RunOptions,
    /// When the program started: reading and compiling count against the time limit.
    pub started: Instant,
    /// Say on stderr what was read and built, and how fast (`-v`).
    pub verbose: bool,
}

/// How a solver run ended, when it did not fail.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ended {
    /// The protocol printed its final output.
    Finished,
    /// The time limit (with its grace) passed first: what was found is printed, or
    /// `=====UNKNOWN=====`, and the search is still running on its thread, which the caller ends
    /// by ending the process.
    TimeLimit,
}

/// Why a solver run failed.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum SolverError {
    /// The model file could not be read.
    #[error("{}: {message}", path.display())]
    Read {
        /// The file.
        path: PathBuf,
        /// Why.
        message: String,
    },
    /// The model is malformed or uses what the engine does not support.
    #[error("{}: {error}", path.display())]
    Model {
        /// The file.
        path: PathBuf,
        /// What is wrong, with its line.
        error: Error,
    },
    /// The search failed to print, or printed a solution that failed verification.
    #[error(transparent)]
    Run(#[from] RunError),
    /// The worker thread could not be started or ended without an answer.
    #[error("internal error: {0}")]
    Thread(String),
}

impl SolverError {
    /// Whether the failure is a bug (a solution that failed verification, a lost thread) rather
    /// than bad input or output that could not be written.
    pub fn is_bug(&self) -> bool {
        matches!(
            self,
            SolverError::Run(RunError::Verify(_)) | SolverError::Thread(_)
        )
    }
}

impl SolverRun {
    /// Reads, compiles and runs the model, with the observer `observe` makes of the compiled model
    /// (a progress display; `None` for none) watching the search, while this thread writes
    /// solutions out and ends the run at the time limit.
    pub fn run<O, F>(self, observe: F) -> Result<Ended, SolverError>
    where
        O: SearchObserver,
        F: FnOnce(&Compiled) -> Option<O> + Send + 'static,
    {
        let deadline = self.options.deadline;
        let console = Arc::new(Console::default());
        let (sender, receiver) = mpsc::channel();
        let worker_console = Arc::clone(&console);
        std::thread::Builder::new()
            .name(self.program.to_owned())
            .stack_size(WORKER_STACK)
            .spawn(move || {
                let result = self.work(&worker_console, observe);
                // The receiver is gone only once the watch has ended the run.
                let _ = sender.send(result);
            })
            .map_err(|e| SolverError::Thread(format!("cannot start the search thread: {e}")))?;
        // This thread wakes every FLUSH_EVERY to write out solutions the search has printed since,
        // and at the time limit (with its grace) to end the run.
        loop {
            match receiver.recv_timeout(FLUSH_EVERY) {
                Ok(result) => return result.map(|()| Ended::Finished),
                Err(RecvTimeoutError::Timeout) => {
                    if deadline.is_some_and(|deadline| Instant::now() >= deadline + GRACE) {
                        if console.end_at_time_limit() {
                            return Ok(Ended::TimeLimit);
                        }
                    } else {
                        console.flush_pending();
                    }
                }
                Err(RecvTimeoutError::Disconnected) => {
                    return Err(SolverError::Thread(
                        "the search thread ended without an answer".to_owned(),
                    ));
                }
            }
        }
    }

    /// Reads, compiles and searches: everything but the watch on the clock.
    fn work<O, F>(&self, console: &Console, observe: F) -> Result<(), SolverError>
    where
        O: SearchObserver,
        F: FnOnce(&Compiled) -> Option<O>,
    {
        let text = read_model(&self.path).map_err(|message| SolverError::Read {
            path: self.path.clone(),
            message,
        })?;
        let read_time = self.started.elapsed();
        let compiled = compile(&text).map_err(|error| SolverError::Model {
            path: self.path.clone(),
            error,
        })?;
        let init_time = self.started.elapsed();
        let bytes = text.len();
        drop(text);
        let program = self.program;
        for warning in compiled.warnings() {
            eprintln!("{program}: {}: warning: {warning}", self.path.display());
        }
        for ignored in &plan(&compiled, &self.options).ignored {
            eprintln!("{program}: warning: {ignored}");
        }
        if self.verbose {
            self.describe(&compiled, bytes, read_time, init_time);
        }
        let options = RunOptions {
            init_time,
            ..self.options.clone()
        };
        let mut printer = console.printer();
        match observe(&compiled) {
            Some(mut observer) => run(&compiled, &options, &mut printer, &mut observer)?,
            None => run(&compiled, &options, &mut printer, &mut ())?,
        };
        Ok(())
    }

    /// `-v`: what was read and built, and how fast.
    fn describe(
        &self,
        compiled: &Compiled,
        bytes: usize,
        read_time: Duration,
        init_time: Duration,
    ) {
        let program = self.program;
        let megabytes = bytes as f64 / 1e6;
        let build_time = init_time - read_time;
        eprintln!(
            "% {program}: {megabytes:.2} MB read in {:.3} s, parsed and compiled in {:.3} s ({:.0} MB/s)",
            read_time.as_secs_f64(),
            build_time.as_secs_f64(),
            megabytes / build_time.as_secs_f64().max(1e-9),
        );
        let model = compiled.model();
        eprintln!(
            "% {program}: {} FlatZinc constraints as {} engine constraints over {} variables in {:.3} s; search: {}",
            compiled.num_flatzinc_constraints(),
            model.num_constraints(),
            model.num_vars(),
            init_time.as_secs_f64(),
            if self.options.free_search || compiled.searches().is_empty() {
                "free (dom/wdeg, Luby restarts)".to_owned()
            } else {
                format!(
                    "{} annotated searches, then dom/wdeg",
                    compiled.searches().len()
                )
            }
        );
    }
}
