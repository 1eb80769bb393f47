//! The `csp` command-line tool. See `csp --help`.

mod cli;

use std::io::Write;
use std::process::ExitCode;

fn main() -> ExitCode {
    let code = match cli::run(std::env::args_os()) {
        Ok(code) => code,
        Err(error) => {
            // One line on stderr, never a backtrace: the user gets what was wrong and nothing else.
            let _ = writeln!(std::io::stderr(), "csp: {error}");
            error.exit_code()
        }
    };
    ExitCode::from(code as u8)
}
