//! The `csp` command-line tool. See `csp --help`.

mod cli;

use std::process::ExitCode;

fn main() -> ExitCode {
    // One line on stderr for any error, never a backtrace: the user gets what was wrong and nothing
    // else.
    csp::app::finish("csp", cli::run(std::env::args_os()))
}
