//! `fzn-csp`: the engine as a FlatZinc solver, with the standard options (`-a -n -i -f -s -t -r -p
//! -v`), for MiniZinc (`minizinc/csp.msc`) and for direct use: `fzn-csp [options] model.fzn`.

mod args;
mod memory;
mod progress;
mod run;

use std::io::Write;
use std::process::ExitCode;

/// Every allocation goes through the guard, so that running out of memory is one line and exit
/// code 3, never an abort.
#[global_allocator]
static ALLOCATOR: memory::Guarded = memory::Guarded;

fn main() -> ExitCode {
    // A panic is a bug: one line naming it and exit code 70, never a backtrace.
    std::panic::set_hook(Box::new(|info| {
        let _ = writeln!(std::io::stderr(), "fzn-csp: internal error: {info}");
        std::process::exit(70);
    }));
    let code = match run::run(std::env::args_os()) {
        Ok(()) => 0,
        Err(error) => {
            // One line on stderr, which MiniZinc shows as the solver's message.
            let _ = writeln!(std::io::stderr(), "fzn-csp: {error}");
            error.exit_code()
        }
    };
    ExitCode::from(code)
}
