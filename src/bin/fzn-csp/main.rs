//! `fzn-csp`: the engine as a FlatZinc solver, with the standard options (`-a -n -i -f -s -t -r -p
//! -v`), for MiniZinc (`minizinc/csp.msc`) and for direct use: `fzn-csp [options] model.fzn`.
//!
//! Arguments become options, and the library runs them ([`csp::flatzinc::solver`]); how the program
//! ends (one line, its exit code) is the application layer's ([`csp::app`]).

mod args;

use std::process::ExitCode;
use std::time::Instant;

use csp::app::{self, CliError, Exit, Parsed, Progress};
use csp::flatzinc::run::root_bound;

/// Every allocation goes through the guard, so that running out of memory is one line and exit
/// code 3, never an abort.
#[global_allocator]
static ALLOCATOR: app::Guarded = app::Guarded::named("fzn-csp");

fn main() -> ExitCode {
    // The time limit counts from here: reading and compiling the model are part of the run.
    let started = Instant::now();
    app::report_panics("fzn-csp");
    let result = app::parse::<args::Args>(std::env::args_os()).and_then(|parsed| match parsed {
        Parsed::Run(args) => run(&args, started),
        Parsed::Done(exit) => Ok(exit),
    });
    app::finish("fzn-csp", result)
}

/// Runs the model as the arguments ask; a time limit that ends the run is an answer (exit 0).
fn run(args: &args::Args, started: Instant) -> Result<Exit, CliError> {
    let progress = app::progress_wanted(args.progress, args.no_progress);
    args.solver_run(started).run(move |compiled| {
        progress.then(|| Progress::for_flatzinc(root_bound(compiled.model())))
    })?;
    Ok(Exit::Answered)
}
