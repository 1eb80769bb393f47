//! `cumulative` on scheduling instances with published optima, beside Gecode on the same models.
//!
//! - RCPSP j301_1 (PSPLIB; optimum 43): `examples/data/rcpsp_j301_1.rs`, and in MiniZinc
//!   `benches/data/rcpsp/rcpsp.mzn` with `j301_1.dzn`.
//! - Job-shop ft06 (optimum 55) and la01 (optimum 666), one `cumulative` of capacity 1 per
//!   machine: `benches/data/jobshop/jobshop_cumulative.mzn` with `ft06.dzn` and `la01.dzn`, whose
//!   data this benchmark reads too.
//!
//! Both solvers search by `int_search(starts, smallest, indomain_min)` and branch and bound on the
//! makespan, each run limited to the same time. The engine's `cumulative` does time-tabling, and
//! on the tasks that cannot run two at a time (every task of a job-shop machine) detectable
//! precedences, overload checking and edge-finding.
//!
//! ```sh
//! cargo bench --bench cumulative                 # the engine only
//! cargo bench --bench cumulative -- --gecode     # and Gecode 6.2 through MiniZinc (`minizinc` on PATH)
//! ```
//!
//! A plain `main` that prints a table: per instance and solver, the makespan found, whether it is
//! proven optimal, nodes, failures and seconds (the engine's: the median of three runs).

use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

use csp::core::constraints::{Cumulative, Linear, Relation};
use csp::core::{Model, ModelBuilder, ModelError, VarId};
use csp::search::{
    IntSearch, Limits, Outcome, SearchConfig, ValueSelection, VariableSelection, solve,
};

include!("../examples/data/rcpsp_j301_1.rs");

/// The time each run may take.
const TIME_LIMIT: Duration = Duration::from_secs(60);

/// One run's figures.
struct Run {
    makespan: Option<i32>,
    optimal: bool,
    nodes: u64,
    failures: u64,
    seconds: f64,
}

/// A job-shop instance read from a MiniZinc data file of the benchmarks' format.
struct JobShop {
    /// Per job, its tasks in order as (machine, duration).
    jobs: Vec<Vec<(usize, i32)>>,
    machines: usize,
}

/// The integers of the `name = …;` assignment in `text` (every number in it, in order).
fn numbers_of(text: &str, name: &str) -> Vec<i64> {
    let start = text
        .find(&format!("{name} ="))
        .unwrap_or_else(|| panic!("no {name} in the data"));
    let body = &text[start + name.len() + 2..];
    let end = body.find(';').expect("an assignment ends with ;");
    let body = &body[..end];
    // Skip the `array2d(jobs, tasks, [` header: only the numbers inside the brackets count.
    let body = body.find('[').map_or(body, |i| &body[i..]);
    body.split(|c: char| !c.is_ascii_digit() && c != '-')
        .filter(|t| !t.is_empty())
        .map(|t| t.parse().expect("a number"))
        .collect()
}

fn read_jobshop(path: &Path) -> JobShop {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let n_jobs = numbers_of(&text, "n_jobs")[0] as usize;
    let machines = numbers_of(&text, "n_machines")[0] as usize;
    let machine = numbers_of(&text, "job_task_machine");
    let duration = numbers_of(&text, "job_task_duration");
    let jobs = (0..n_jobs)
        .map(|j| {
            (0..machines)
                .map(|k| {
                    let i = j * machines + k;
                    (machine[i] as usize, duration[i] as i32)
                })
                .collect()
        })
        .collect();
    JobShop { jobs, machines }
}

/// The job-shop model: a start per task (job by job), precedence chains, one `cumulative` of
/// capacity 1 per machine, the makespan minimised.
fn jobshop_model(shop: &JobShop) -> Result<(Model, Vec<VarId>), ModelError> {
    let horizon: i32 = shop.jobs.iter().flatten().map(|t| t.1).sum();
    let mut builder = ModelBuilder::new();
    let mut starts = Vec::new();
    let makespan = builder.int_var("makespan", 0..=horizon)?;
    let mut per_machine: Vec<(Vec<VarId>, Vec<i32>)> =
        vec![(Vec::new(), Vec::new()); shop.machines];
    for (j, job) in shop.jobs.iter().enumerate() {
        let first = starts.len();
        for (k, &(machine, duration)) in job.iter().enumerate() {
            let s = builder.int_var(format!("s{j}_{k}"), 0..=horizon)?;
            starts.push(s);
            per_machine[machine].0.push(s);
            per_machine[machine].1.push(duration);
        }
        for k in 0..job.len() {
            let next = if k + 1 < job.len() {
                starts[first + k + 1]
            } else {
                makespan
            };
            builder.post(Linear::new(
                vec![(1, starts[first + k]), (-1, next)],
                Relation::LessOrEqual,
                -job[k].1,
            ))?;
        }
    }
    for (tasks, durations) in per_machine {
        let ones = vec![1; tasks.len()];
        builder.post(Cumulative::new(tasks, durations, ones, 1)?)?;
    }
    builder.minimize(makespan)?;
    Ok((builder.build(), starts))
}

/// Checks a job-shop schedule by its definition: each job's tasks in order, no two tasks of one
/// machine overlapping, every task done by the makespan.
fn is_jobshop_schedule(shop: &JobShop, starts: &[i32], makespan: i32) -> bool {
    let mut tasks = Vec::new();
    let mut next = 0;
    for job in &shop.jobs {
        let mut ready = 0;
        for &(machine, duration) in job {
            let start = starts[next];
            next += 1;
            if start < ready {
                return false;
            }
            ready = start + duration;
            tasks.push((machine, start, start + duration));
        }
        if ready > makespan {
            return false;
        }
    }
    tasks.iter().enumerate().all(|(i, &(m, s, e))| {
        tasks[i + 1..]
            .iter()
            .all(|&(m2, s2, e2)| m != m2 || e <= s2 || e2 <= s)
    })
}

/// The engine on `model`, smallest start first; the median time of three runs. Every schedule it
/// reports is checked by `is_valid` (starts, makespan), independently of the model.
fn run_engine(model: &Model, starts: &[VarId], is_valid: &dyn Fn(&[i32], i32) -> bool) -> Run {
    let config = SearchConfig {
        limits: Limits {
            time: Some(TIME_LIMIT),
            ..Limits::default()
        },
        ..SearchConfig::decisions(vec![IntSearch::new(
            starts.to_vec(),
            VariableSelection::Smallest,
            ValueSelection::Min,
        )])
    };
    let mut runs: Vec<Run> = (0..3)
        .map(|_| {
            let started = Instant::now();
            let result = solve(model, &config, ());
            if let (Some(solution), Some(makespan)) = (&result.solution, result.objective) {
                let values: Vec<i32> = starts.iter().map(|s| solution[s.index()]).collect();
                assert!(
                    is_valid(&values, makespan),
                    "the engine reported an invalid schedule"
                );
            }
            Run {
                makespan: result.objective,
                optimal: result.outcome == Outcome::Optimal,
                nodes: result.stats.nodes,
                failures: result.stats.dead_ends,
                seconds: started.elapsed().as_secs_f64(),
            }
        })
        .collect();
    runs.sort_by(|a, b| a.seconds.total_cmp(&b.seconds));
    runs.swap_remove(1)
}

/// Gecode through MiniZinc on `model` and `data`, with the same time limit; `None` if `minizinc`
/// cannot be run.
fn run_gecode(model: &Path, data: &Path) -> Option<Run> {
    let output = Command::new("minizinc")
        .args(["--solver", "gecode", "-s", "--time-limit"])
        .arg(TIME_LIMIT.as_millis().to_string())
        .arg(model)
        .arg(data)
        .output()
        .ok()?;
    let text = String::from_utf8_lossy(&output.stdout);
    let stat = |name: &str| {
        text.lines()
            .rev()
            .find_map(|l| l.strip_prefix(&format!("%%%mzn-stat: {name}=")))
            .map(str::to_owned)
    };
    let makespan = text
        .lines()
        .rev()
        .find_map(|l| l.strip_prefix("makespan = "))
        .and_then(|v| v.trim().parse().ok());
    Some(Run {
        makespan,
        optimal: text.contains("=========="),
        nodes: stat("nodes")?.parse().ok()?,
        failures: stat("failures")?.parse().ok()?,
        seconds: stat("solveTime")?.parse().ok()?,
    })
}

fn print(instance: &str, optimum: i32, solver: &str, run: &Run) {
    println!(
        "{instance:<8} {optimum:>7} {solver:<7} {:>8} {:>7} {:>11} {:>10} {:>9.3}",
        run.makespan.map_or("-".to_owned(), |m| m.to_string()),
        if run.optimal { "yes" } else { "no" },
        run.nodes,
        run.failures,
        run.seconds
    );
}

fn main() {
    let gecode = std::env::args().any(|a| a == "--gecode");
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("benches/data");
    println!(
        "{:<8} {:>7} {:<7} {:>8} {:>7} {:>11} {:>10} {:>9}",
        "instance", "optimum", "solver", "makespan", "proven", "nodes", "failures", "seconds"
    );
    let (model, starts, _) = rcpsp().expect("a valid model");
    print(
        "j301_1",
        OPTIMUM,
        "engine",
        &run_engine(&model, &starts, &is_schedule),
    );
    if gecode {
        let dir = data.join("rcpsp");
        match run_gecode(&dir.join("rcpsp.mzn"), &dir.join("j301_1.dzn")) {
            Some(run) => print("j301_1", OPTIMUM, "gecode", &run),
            None => println!("j301_1: minizinc could not be run"),
        }
    }
    for (name, optimum) in [("ft06", 55), ("la01", 666)] {
        let dir = data.join("jobshop");
        let file = dir.join(format!("{name}.dzn"));
        let shop = read_jobshop(&file);
        let (model, starts) = jobshop_model(&shop).expect("a valid model");
        let valid = |values: &[i32], makespan: i32| is_jobshop_schedule(&shop, values, makespan);
        print(
            name,
            optimum,
            "engine",
            &run_engine(&model, &starts, &valid),
        );
        if gecode {
            match run_gecode(&dir.join("jobshop_cumulative.mzn"), &file) {
                Some(run) => print(name, optimum, "gecode", &run),
                None => println!("{name}: minizinc could not be run"),
            }
        }
    }
}
