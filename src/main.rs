//! The `csp` command-line tool. See `csp --help`.

mod cli;

use std::process::ExitCode;

use csp::app;

/// Every allocation goes through the guard, so that running out of memory is one line and exit
/// code 3, never an abort.
#[global_allocator]
static ALLOCATOR: app::Guarded = app::Guarded::named("csp");

fn main() -> ExitCode {
    // One line on stderr for any error or panic, never a backtrace: the user gets what was wrong
    // and nothing else.
    app::report_panics("csp");
    app::finish("csp", cli::run(std::env::args_os()))
}
