//! Reading the input file of `csp sudoku` and `csp color`.

use std::io::Read;

use super::error::CliError;

/// The text of `path`, or of standard input for `-`. Unreadable files and text that is not UTF-8
/// are bad input; the latter names its line.
pub fn read_input(path: &str) -> Result<String, CliError> {
    let mut bytes = Vec::new();
    let read = if path == "-" {
        std::io::stdin().lock().read_to_end(&mut bytes)
    } else {
        std::fs::File::open(path).and_then(|mut file| file.read_to_end(&mut bytes))
    };
    let name = if path == "-" { "standard input" } else { path };
    read.map_err(|error| CliError::Usage(format!("cannot read {name}: {error}")))?;
    String::from_utf8(bytes).map_err(|error| {
        let valid = &error.as_bytes()[..error.utf8_error().valid_up_to()];
        let line = valid.iter().filter(|&&b| b == b'\n').count() + 1;
        CliError::Usage(format!("{name}: line {line}: not valid UTF-8 text"))
    })
}
