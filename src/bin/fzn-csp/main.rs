//! `fzn-csp`: the engine as a FlatZinc solver, with the standard options (`-a -n -i -f -s -t -r -p
//! -v`), for MiniZinc (`minizinc/csp.msc`) and for direct use: `fzn-csp [options] model.fzn`.

mod args;
mod progress;
mod run;

use std::io::Write;
use std::process::ExitCode;

fn main() -> ExitCode {
    let code = match run::run(std::env::args_os()) {
        Ok(()) => 0,
        Err(error) => {
            // One line on stderr, which MiniZinc shows as the solver's message; never a backtrace.
            let _ = writeln!(std::io::stderr(), "fzn-csp: {error}");
            error.exit_code()
        }
    };
    ExitCode::from(code)
}
