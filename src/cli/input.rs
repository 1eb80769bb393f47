//! Opening the input of `csp sudoku` and `csp color`: FILE, or standard input for `-`. The parsers
//! read it a line at a time with bounded memory (`csp_problems::line_reader`), so nothing here reads it
//! whole.

use std::fs::File;
use std::io::{BufRead, BufReader};

use csp::app::CliError;

/// A buffered reader of `path`, or of standard input for `-`. An unreadable file is bad input.
pub fn open_input(path: &str) -> Result<Box<dyn BufRead>, CliError> {
    if path == "-" {
        return Ok(Box::new(BufReader::new(std::io::stdin())));
    }
    let file = File::open(path)
        .map_err(|error| CliError::Usage(format!("cannot read {path}: {error}")))?;
    Ok(Box::new(BufReader::new(file)))
}
