//! The errors that end a program with one line on stderr, and the end of `main` both binaries share.

use std::fmt;
use std::io::{self, Write};
use std::process::ExitCode;

use csp_flatzinc::solver::SolverError;

use super::exit::Exit;

/// An error that ends the program with a one-line message.
#[derive(Debug)]
pub enum CliError {
    /// Bad arguments, bad input or an impossible request (exit 2).
    Usage(String),
    /// Writing the output failed (exit 2 as well), a closed pipe included: the answer is lost.
    Io(io::Error),
    /// A solver broke its contract: a bug, reported rather than hidden (exit 70).
    Internal(String),
    /// A FlatZinc solver run failed (`fzn-csp`): bad input is exit 2, a solution that failed
    /// verification or a search thread lost is exit 70. Its message is the library's own.
    FlatZinc(SolverError),
}

impl CliError {
    /// A usage error carrying `error`'s message: for the library errors that describe bad input.
    pub fn usage(error: impl fmt::Display) -> Self {
        CliError::Usage(error.to_string())
    }

    /// The exit code for this error.
    pub fn exit_code(&self) -> Exit {
        match self {
            CliError::Usage(_) | CliError::Io(_) => Exit::BadInput,
            CliError::Internal(_) => Exit::Internal,
            CliError::FlatZinc(error) if error.is_bug() => Exit::Internal,
            CliError::FlatZinc(_) => Exit::BadInput,
        }
    }
}

impl fmt::Display for CliError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CliError::Usage(message) => f.write_str(message),
            CliError::Io(error) if error.kind() == io::ErrorKind::BrokenPipe => write!(
                f,
                "cannot write output: standard output was closed before the answer was written"
            ),
            CliError::Io(error) => write!(f, "cannot write output: {error}"),
            CliError::Internal(message) => write!(f, "internal error: {message}"),
            CliError::FlatZinc(error) => error.fmt(f),
        }
    }
}

impl From<io::Error> for CliError {
    fn from(error: io::Error) -> Self {
        CliError::Io(error)
    }
}

impl From<SolverError> for CliError {
    fn from(error: SolverError) -> Self {
        CliError::FlatZinc(error)
    }
}

/// The end of `main`: an error is one line on stderr, `program: message`, never a backtrace (the
/// user gets what was wrong and nothing else; MiniZinc shows the line as the solver's message), and
/// the exit code says how the run ended.
pub fn finish(program: &str, result: Result<Exit, CliError>) -> ExitCode {
    let exit = match result {
        Ok(exit) => exit,
        Err(error) => {
            let _ = writeln!(io::stderr(), "{program}: {error}");
            error.exit_code()
        }
    };
    ExitCode::from(exit.code())
}

/// The environment variable that makes [`report_panics`] panic as soon as its hook is installed.
/// No input makes a binary panic (a panic is a bug), so this is the tests' one way to see a panic
/// end `csp` and `fzn-csp` with one line and exit code 70; it is for them alone.
pub const PANIC_FOR_TESTS: &str = "CSP_PANIC_FOR_TESTS";

/// Makes a panic, on any thread, one line naming it and exit code 70 ([`Exit::Internal`]): a panic
/// is a bug, and a solver run by another program must not print a backtrace. With
/// [`PANIC_FOR_TESTS`] set in the environment, it then panics.
pub fn report_panics(program: &'static str) {
    std::panic::set_hook(Box::new(move |info| {
        // `info` itself displays as two lines ("panicked at FILE:LINE:COLUMN:" and the message);
        // the message comes first here, and any line break in it becomes a space.
        let payload = info.payload();
        let message = payload
            .downcast_ref::<&str>()
            .copied()
            .or_else(|| payload.downcast_ref::<String>().map(String::as_str))
            .unwrap_or("a panic")
            .replace('\n', " ");
        let place = info
            .location()
            .map(|at| format!(" (at {}:{})", at.file(), at.line()))
            .unwrap_or_default();
        let _ = writeln!(io::stderr(), "{program}: internal error: {message}{place}");
        std::process::exit(i32::from(Exit::Internal.code()));
    }));
    if std::env::var_os(PANIC_FOR_TESTS).is_some() {
        panic!("{PANIC_FOR_TESTS} is set");
    }
}
