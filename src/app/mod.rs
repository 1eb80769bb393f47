//! The application layer both binaries share (`csp` and `fzn-csp`), kept apart from the engine the
//! way ripgrep keeps its command-line routines in a crate of their own: how a program ends (the
//! documented exit codes, one-line errors, panics and running out of memory), how its command line
//! is parsed (clap's errors folded to one line, shared value parsers), its limits counted from the
//! start, its progress bars, and its output files.
//!
//! The modules import one way only: `exit` and `atomic_file`'s cancellation flag are leaves;
//! `error` uses `exit`; `args`, `atomic_file` and `budget` use `error` or `atomic_file`; `progress`
//! and `memory` use nothing here. This file only declares and re-exports them.

mod args;
mod atomic_file;
mod budget;
mod error;
mod exit;
mod memory;
mod progress;

pub use args::{Parsed, at_least_one, milliseconds, on_off, one_line, parse};
pub use atomic_file::{AtomicFile, cancel_writes};
pub use budget::Budget;
pub use error::{CliError, PANIC_FOR_TESTS, finish, report_panics};
pub use exit::Exit;
pub use memory::Guarded;
pub use progress::{Progress, SubproblemBar, Tracker, progress_wanted};
