//! Argument parsing and dispatch for the `csp` binary.

mod args;
mod color;
mod compare;
mod count;
mod method;
mod output;
mod plot;
mod problem_search;
mod progress;
mod queens;
mod sudoku;

use std::ffi::OsString;
use std::fmt;
use std::io::{self, Write};

use clap::Parser;

pub use args::Cli;

/// How the process ends. The numbers are the documented exit codes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Exit {
    /// The question was answered.
    Answered = 0,
    /// It is proven that no solution exists.
    NoSolution = 1,
    /// The input was bad.
    BadInput = 2,
    /// A limit was reached before an answer.
    LimitReached = 3,
    /// A bug: a solver's answer failed verification (EX_SOFTWARE).
    Internal = 70,
}

impl Exit {
    /// The exit code of a search that ended with `outcome` after finding `solutions` solutions:
    /// answered when it stopped at the requested solutions or finished the tree having found some,
    /// no solution when it finished the tree empty-handed, and a limit otherwise (for `solve`, fewer
    /// solutions than asked for; for `count`, an unfinished count), whatever was found being shown.
    pub fn of(outcome: csp_search::Outcome, solutions: u64) -> Self {
        use csp_search::Outcome;
        match outcome {
            Outcome::Solved => Exit::Answered,
            Outcome::Exhausted if solutions > 0 => Exit::Answered,
            Outcome::Exhausted => Exit::NoSolution,
            _ => Exit::LimitReached,
        }
    }
}

/// An error that ends the program with a one-line message.
#[derive(Debug)]
pub enum CliError {
    /// Bad arguments or an impossible request (exit 2).
    Usage(String),
    /// Writing the output failed (exit 2 as well; a closed pipe is not reported).
    Io(io::Error),
    /// A solver broke its contract: a bug, reported rather than hidden (exit 70).
    Internal(String),
}

impl CliError {
    /// The exit code for this error.
    pub fn exit_code(&self) -> Exit {
        match self {
            CliError::Usage(_) | CliError::Io(_) => Exit::BadInput,
            CliError::Internal(_) => Exit::Internal,
        }
    }
}

impl fmt::Display for CliError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CliError::Usage(message) => f.write_str(message),
            CliError::Io(error) => write!(f, "cannot write output: {error}"),
            CliError::Internal(message) => write!(f, "internal error: {message}"),
        }
    }
}

impl From<io::Error> for CliError {
    fn from(error: io::Error) -> Self {
        CliError::Io(error)
    }
}

/// Parses `args` and runs the command.
pub fn run(args: impl IntoIterator<Item = OsString>) -> Result<Exit, CliError> {
    let cli = match Cli::try_parse_from(args) {
        Ok(cli) => cli,
        Err(error) => {
            use clap::error::ErrorKind;
            if matches!(
                error.kind(),
                ErrorKind::DisplayHelp
                    | ErrorKind::DisplayVersion
                    | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand
            ) {
                let code = if error.kind() == ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand {
                    Exit::BadInput
                } else {
                    Exit::Answered
                };
                let _ = error.print();
                return Ok(code);
            }
            return Err(CliError::Usage(first_line_of(&error)));
        }
    };
    let stdout = io::stdout();
    let mut out = io::BufWriter::new(stdout.lock());
    let result = match cli.command {
        args::Command::Queens { command } => queens::run(command, &mut out),
        args::Command::Sudoku(args) => sudoku::run(args, &mut out),
        args::Command::Color(args) => color::run(args, &mut out),
    };
    match result.and_then(|code| out.flush().map(|()| code).map_err(CliError::from)) {
        // A reader that went away (`| head`) is not the user's mistake.
        Err(CliError::Io(error)) if error.kind() == io::ErrorKind::BrokenPipe => Ok(Exit::Answered),
        other => other,
    }
}

/// clap's message folded onto one line, without its usage block, hints and leading "error: ".
fn first_line_of(error: &clap::Error) -> String {
    let rendered = error.render().to_string();
    // The message is the first paragraph; a list of missing arguments continues it on indented lines.
    let message: Vec<&str> = rendered
        .lines()
        .take_while(|line| !line.trim().is_empty())
        .map(str::trim)
        .collect();
    let line = message.join(" ");
    match line.strip_prefix("error: ") {
        Some(rest) => rest.to_owned(),
        None if line.is_empty() => "invalid arguments".to_owned(),
        None => line,
    }
}
