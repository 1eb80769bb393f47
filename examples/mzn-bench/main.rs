//! The MiniZinc benchmark runner: every instance of `data/minizinc-bench/` (and, with `--folder
//! minizinc`, of `data/minizinc/`; both copied from the shared instance collection) run, in the same
//! run and one process at a time, on this engine's `fzn-csp` (in one or more configurations, such
//! as `ours` and `ours-p2`), on Gecode, and on each installed peer (Pumpkin, Chuffed, Huub) under
//! the same limit. Every answer is compared with the known one and the solutions are fed back to
//! MiniZinc as data for Gecode to accept; a wrong answer is marked loudly and makes the exit code 1.
//! Prints the per-instance table (status, objective, time), each solver's totals and MiniZinc
//! Challenge score, the proven counts by tier, every pair of solvers against each other (score and
//! median time ratio where both prove), draws the cactus plot as SVG and writes `results.json`.
//!
//! ```sh
//! cargo build --release
//! cargo run --release --example mzn-bench -- --timeout 20
//! cargo run --release --example mzn-bench -- -t 20 --config 'ours-p2=-p 2' --solvers ours-p2,ours
//! cargo run --release --example mzn-bench -- -t 5 --solvers ours,gecode --instances golomb
//! ```
//!
//! Needs `minizinc` and `fzn-gecode` on the PATH (Debian: `apt-get install minizinc`); the peers
//! come from `bash ../shared/anchors/install.sh` and are skipped, with a note, where they are not
//! installed. `--help` lists the options.

mod check;
mod huub;
mod instances;
mod options;
mod process;
mod report;
mod run;
mod score;
mod setup;
mod solvers;

use std::path::Path;

use report::Row;
use solvers::{Compiled, Kind, Solver};

fn main() {
    match bench() {
        Ok(0) => {}
        Ok(wrong) => {
            eprintln!("mzn-bench: {wrong} WRONG ANSWERS (see the lines marked !!!)");
            std::process::exit(1);
        }
        Err(message) => {
            eprintln!("mzn-bench: {message}");
            std::process::exit(2);
        }
    }
}

/// Runs the benchmark; the number of wrong answers, or why it could not run.
fn bench() -> Result<usize, String> {
    let options = options::parse(std::env::args().skip(1))?;
    let setup = &options.setup;
    if !process::on_path("minizinc") {
        return Err("minizinc is not on the PATH (Debian: apt-get install minizinc)".to_owned());
    }
    let mut instances = Vec::new();
    for folder in &options.folders {
        let dir = options.data.join(folder);
        instances.extend(if folder == "minizinc" {
            instances::minizinc_instances(&dir)?
        } else {
            instances::bench_instances(&dir)?
        });
    }
    if !options.instances.is_empty() {
        instances = instances::select(instances, &options.instances)?;
    }

    // A peer that is not installed is skipped; our own solver and MiniZinc are needed.
    let (mut solvers, mut skipped): (Vec<Solver>, Vec<(Solver, String)>) = (Vec::new(), Vec::new());
    for solver in &options.solvers {
        match solver.missing(setup) {
            Some(why) if solver.kind == Kind::Ours => return Err(why),
            Some(why) => skipped.push((solver.clone(), why)),
            None => solvers.push(solver.clone()),
        }
    }
    if solvers.is_empty() {
        return Err("none of the solvers listed is installed".to_owned());
    }
    std::fs::create_dir_all(options.out.join("work")).map_err(|e| e.to_string())?;
    // The checks run MiniZinc from each instance's folder, so the work files need absolute paths.
    let out = options.out.canonicalize().map_err(|e| e.to_string())?;
    let work = out.join("work");

    println!(
        "mzn-bench: {} instances, {} s each, one run at a time",
        instances.len(),
        setup.timeout
    );
    for solver in &solvers {
        println!("  {:<10} {}", solver.name, solver.describe(setup));
    }
    for (solver, why) in &skipped {
        println!("  {:<10} SKIPPED: {why}", solver.name);
    }
    println!("\n{}\n", report::LEGEND);
    let name_width = instances
        .iter()
        .map(|i| i.name.len())
        .max()
        .unwrap_or(0)
        .max(8);
    println!("{}", report::header(&solvers, name_width));

    let mut rows = Vec::new();
    for instance in instances {
        let mut compiled = Compiled::default();
        let runs = solvers
            .iter()
            .map(|solver| {
                let mut run = solvers::solve(solver, &instance, setup, &work, &mut compiled);
                check::check(&mut run, &instance, options.check, &work);
                run
            })
            .collect();
        let row = Row::new(instance, runs, setup.timeout);
        println!("{}", report::row(&row, &solvers, name_width, setup.timeout));
        rows.push(row);
    }

    println!("\n{}", report::summary(&rows, &solvers));
    let svg = out.join("cactus.svg");
    report::cactus(&svg, &rows, &solvers, setup.timeout)?;
    println!("cactus plot: {}", svg.display());
    write_json(
        &out.join("results.json"),
        &report::json(&rows, &solvers, &skipped, setup.timeout),
    )?;
    let wrong = report::wrong_answers(&rows);
    println!("wrong answers: {wrong}");
    Ok(wrong)
}

/// Writes the results for the record.
fn write_json(path: &Path, value: &serde_json::Value) -> Result<(), String> {
    let text = serde_json::to_string_pretty(value).map_err(|e| e.to_string())?;
    std::fs::write(path, text + "\n").map_err(|e| format!("{}: {e}", path.display()))?;
    println!("results: {}", path.display());
    Ok(())
}
