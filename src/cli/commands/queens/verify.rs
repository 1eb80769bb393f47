//! `csp queens verify FILE`: a stored placement checked in O(n).

use std::fs::File;
use std::io::{BufReader, Write};
use std::path::PathBuf;
use std::time::Instant;

use clap::Args;
use nqueens_model::stream::{Format, StreamError, verify_stream};

use csp::app::{CliError, Exit};

/// `csp queens verify`.
#[derive(Debug, Args)]
pub struct VerifyArgs {
    /// The placement file.
    pub file: PathBuf,
    /// Its format.
    #[arg(long, value_name = "FORMAT", value_enum, default_value_t = Format::Text)]
    pub format: Format,
}

/// A solution exits 0, a placement with an attack 1 (naming the first attacking pair and where it is
/// stored), a malformed or unreadable file 2.
pub fn run(args: &VerifyArgs, out: &mut impl Write) -> Result<Exit, CliError> {
    let path = &args.file;
    let file = File::open(path)
        .map_err(|error| CliError::Usage(format!("cannot read {}: {error}", path.display())))?;
    let started = Instant::now();
    match verify_stream(BufReader::new(file), args.format) {
        Ok(n) => {
            writeln!(
                out,
                "{}: a solution: {n} queens, no two attack each other (checked in {:.3} ms)",
                path.display(),
                started.elapsed().as_secs_f64() * 1e3
            )?;
            Ok(Exit::Answered)
        }
        Err(StreamError::Invalid { error, position }) => {
            writeln!(
                out,
                "{}: not a solution: {error} ({position})",
                path.display()
            )?;
            Ok(Exit::NoSolution)
        }
        Err(error) => Err(CliError::Usage(format!("{}: {error}", path.display()))),
    }
}
