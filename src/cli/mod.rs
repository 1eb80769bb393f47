//! The `csp` command line, in layers that import one way only:
//!
//! - `error` (exit codes and the one-line errors) and the leaves that use nothing else of the CLI:
//!   `options` (the flag groups several commands share), `report` (what their reports share),
//!   `progress` (the bars on stderr), `plot` (SVG figures); `input` reads a command's input file;
//! - `commands`: each command's arguments and run, one file each, built on the layer above;
//! - this module: the top-level parser, and [`run`], which dispatches to a command.

mod budget;
mod commands;
mod error;
mod file;
mod input;
mod options;
mod plot;
mod progress;
mod report;

use std::ffi::OsString;
use std::io::{self, Write};
use std::path::Path;

use clap::{Parser, Subcommand};

use self::commands::{color, queens, sudoku};
pub use self::error::{CliError, Exit};

/// A constraint-satisfaction toolkit; N-queens is its flagship model.
#[derive(Debug, Parser)]
#[command(name = "csp", version, about, propagate_version = true)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// The top-level commands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// The N-queens problem: place n queens on an n×n board so that none attacks another.
    Queens {
        /// What to do with it.
        #[command(subcommand)]
        command: queens::QueensCommand,
    },
    /// Sudoku: solve every puzzle of a file (81-character lines), or count each one's solutions.
    Sudoku(sudoku::SudokuArgs),
    /// Graph colouring of a DIMACS .col file: a k-colouring or a proof that none exists, or the
    /// chromatic number.
    Color(color::ColorArgs),
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
    if stdout_was_closed() {
        return Err(CliError::Usage(
            "standard output is closed, so the answer could not be written".to_owned(),
        ));
    }
    let mut out = io::BufWriter::new(stdout.lock());
    let result = match cli.command {
        Command::Queens { command } => queens::run(command, &mut out),
        Command::Sudoku(args) => sudoku::run(args, &mut out),
        Command::Color(args) => color::run(args, &mut out),
    };
    // A reader that went away (`| head`) took part of the answer with it: that is reported (exit 2),
    // never passed off as an answer.
    result.and_then(|code| out.flush().map(|()| code).map_err(CliError::from))
}

/// Whether standard output was closed when the program started (`csp … >&-`). Rust's runtime
/// reopens a closed standard descriptor on `/dev/null`, read-write, so that every write would vanish
/// and the run end in exit 0 with its answer lost; a shell's `> /dev/null` opens it write-only. On
/// Linux `/proc` tells the two apart; elsewhere a closed standard output goes undetected.
fn stdout_was_closed() -> bool {
    const ACCESS_MODE: u32 = 0o3;
    const READ_WRITE: u32 = 0o2;
    let Ok(target) = std::fs::read_link("/proc/self/fd/1") else {
        return false;
    };
    if target != Path::new("/dev/null") {
        return false;
    }
    let Ok(info) = std::fs::read_to_string("/proc/self/fdinfo/1") else {
        return false;
    };
    info.lines()
        .find_map(|line| line.strip_prefix("flags:"))
        .and_then(|flags| u32::from_str_radix(flags.trim(), 8).ok())
        .is_some_and(|flags| flags & ACCESS_MODE == READ_WRITE)
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
