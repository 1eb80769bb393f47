//! The `csp` command line, in layers that import one way only:
//!
//! - below it, the application layer it shares with `fzn-csp` ([`csp::app`]: exit codes and
//!   one-line errors, limits, progress bars, output files);
//! - the leaves that use nothing else of this module: `options` (the flag groups several commands
//!   share), `report` (what their reports share), `plot` (SVG figures); `input` reads a command's
//!   input file;
//! - `commands`: each command's arguments and run, one file each, built on the layer above;
//! - this module: the top-level parser, and [`run`], which dispatches to a command.

mod commands;
mod input;
mod options;
mod plot;
mod report;

use std::ffi::OsString;
use std::io::{self, Write};
use std::path::Path;

use clap::Subcommand;
use csp::app::{CliError, Exit, Parsed};

use self::commands::{color, queens, sudoku};

/// A constraint-satisfaction toolkit; N-queens is its flagship model.
#[derive(Debug, clap::Parser)]
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
    let cli = match csp::app::parse::<Cli>(args)? {
        Parsed::Run(cli) => cli,
        Parsed::Done(exit) => return Ok(exit),
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
