//! The MiniZinc benchmark runner: every instance of `data/minizinc-bench/` (and, with
//! `--folder minizinc`, of `data/minizinc/`; both copied from the shared instance collection) compiled with this repository's solver library
//! and run on `fzn-csp`, then compiled with Gecode's library and run on `fzn-gecode`, under the same
//! limit; each of our answers checked against the expected one, and each of our solutions fed back to
//! MiniZinc as data and checked by Gecode. Prints the table and the totals, and draws the cactus plot
//! (instances proven against time) as SVG.
//!
//! ```sh
//! cargo build --release && cargo run --release --example mzn-bench -- --timeout 60
//! cargo run --release --example mzn-bench -- --timeout 5 --only golomb --no-gecode
//! ```
//!
//! Needs `minizinc` and `fzn-gecode` on the PATH (Debian: `apt-get install minizinc`). Instances run
//! one at a time (the machine is shared); times are each solver's own `solveTime`, so flattening is
//! not counted for either.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use plotters::prelude::*;

/// What an instance's answer should be.
#[derive(Debug, Clone, PartialEq)]
enum Expected {
    Sat,
    Unsat,
    Optimum {
        value: i64,
        minimize: bool,
    },
    /// The number of solutions (run with `-a`).
    Count(u64),
}

impl Expected {
    fn show(&self) -> String {
        match self {
            Expected::Sat => "SAT".to_owned(),
            Expected::Unsat => "UNSAT".to_owned(),
            Expected::Optimum { value, .. } => value.to_string(),
            Expected::Count(n) => format!("{n} sols"),
        }
    }
}

/// One benchmark instance.
#[derive(Debug, Clone)]
struct Instance {
    name: String,
    tier: String,
    dir: PathBuf,
    model: String,
    data: Option<String>,
    expected: Expected,
    /// Extra flags Gecode needs to compile the model (`-G std`).
    gecode_flags: Vec<String>,
}

/// What one solver did on one instance.
#[derive(Debug, Clone, Default)]
struct Run {
    /// Solutions printed.
    solutions: u64,
    /// The last `_objective` printed.
    objective: Option<i64>,
    /// `==========` was printed.
    complete: bool,
    unsat: bool,
    /// The solver's own `solveTime`, else the wall time.
    seconds: f64,
    nodes: Option<u64>,
    /// Why it did not run (compilation failed, a crash, a timeout of the wall clock).
    error: Option<String>,
    /// The raw output.
    output: String,
    /// The last solution as data (through MiniZinc's output model), for the cross-check.
    dzn: Option<String>,
}

impl Run {
    fn proven(&self, expected: &Expected) -> bool {
        self.error.is_none()
            && match expected {
                Expected::Sat => self.solutions > 0,
                Expected::Unsat => self.unsat,
                Expected::Optimum { .. } | Expected::Count(_) => self.complete,
            }
    }

    fn status(&self) -> String {
        if let Some(error) = &self.error {
            return format!("ERROR: {error}");
        }
        match (self.unsat, self.complete, self.solutions) {
            (true, _, _) => "UNSAT".to_owned(),
            (_, true, n) if n > 0 => "proven".to_owned(),
            (_, _, n) if n > 0 => "found".to_owned(),
            _ => "unknown".to_owned(),
        }
    }

    /// Whether the answer contradicts the expected one: the reason, if it does.
    fn wrong(&self, expected: &Expected) -> Option<String> {
        if self.error.is_some() {
            return None;
        }
        match *expected {
            Expected::Sat if self.unsat => Some("claims UNSAT".to_owned()),
            Expected::Unsat if self.solutions > 0 => Some("finds a solution".to_owned()),
            Expected::Optimum { value, minimize } => match self.objective {
                _ if self.unsat => Some("claims UNSAT".to_owned()),
                Some(o) if self.complete && o != value => Some(format!("proves {o}")),
                Some(o) if (minimize && o < value) || (!minimize && o > value) => {
                    Some(format!("beats the optimum with {o}"))
                }
                _ => None,
            },
            Expected::Count(n) if self.complete && self.solutions != n => {
                Some(format!("counts {}", self.solutions))
            }
            Expected::Count(n) if self.solutions > n => Some(format!("counts {}", self.solutions)),
            _ => None,
        }
    }
}

struct Options {
    timeout: u64,
    root: PathBuf,
    instances: PathBuf,
    folders: Vec<String>,
    only: Option<String>,
    gecode: bool,
    cross_check: bool,
    out: PathBuf,
}

fn parse_options() -> Result<Options, String> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let mut options = Options {
        timeout: 60,
        instances: root.join("data"),
        root: root.clone(),
        folders: vec!["minizinc-bench".to_owned()],
        only: None,
        gecode: true,
        cross_check: true,
        out: root.join("target/mzn-bench"),
    };
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        let mut value = |name: &str| args.next().ok_or(format!("{name} needs a value"));
        match arg.as_str() {
            "--timeout" => {
                options.timeout = value("--timeout")?
                    .parse()
                    .map_err(|_| "--timeout takes whole seconds".to_owned())?
            }
            "--instances" => options.instances = PathBuf::from(value("--instances")?),
            "--folder" => {
                let folder = value("--folder")?;
                options.folders = match folder.as_str() {
                    "all" => vec!["minizinc-bench".to_owned(), "minizinc".to_owned()],
                    "minizinc-bench" | "minizinc" => vec![folder],
                    _ => return Err("--folder is minizinc-bench, minizinc or all".to_owned()),
                }
            }
            "--only" => options.only = Some(value("--only")?),
            "--no-gecode" => options.gecode = false,
            "--no-cross-check" => options.cross_check = false,
            "--out" => options.out = PathBuf::from(value("--out")?),
            "--help" | "-h" => {
                println!(
                    "mzn-bench [--timeout SECS] [--folder minizinc-bench|minizinc|all] [--only TEXT] \
                     [--no-gecode] [--no-cross-check] [--instances DIR] [--out DIR]"
                );
                std::process::exit(0);
            }
            _ => return Err(format!("unknown option `{arg}` (try --help)")),
        }
    }
    Ok(options)
}

/// The rows of a tab-separated table, comments and the header left out.
fn rows(path: &Path) -> Result<Vec<Vec<String>>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(text
        .lines()
        .filter(|line| !line.starts_with('#') && !line.trim().is_empty())
        .skip(1)
        .map(|line| line.split('\t').map(str::to_owned).collect())
        .collect())
}

/// The 49 instances of `minizinc-bench`, from its `ANSWERS.tsv`.
fn bench_instances(dir: &Path) -> Result<Vec<Instance>, String> {
    let mut out = Vec::new();
    for row in rows(&dir.join("ANSWERS.tsv"))? {
        let [_, model, data, kind, tier, expected, ..] = &row[..] else {
            return Err(format!("a short row in ANSWERS.tsv: {row:?}"));
        };
        let expected = match (kind.as_str(), expected.as_str()) {
            ("satisfy", "SAT") => Expected::Sat,
            ("satisfy", "UNSAT") => Expected::Unsat,
            (kind, value) => Expected::Optimum {
                value: value.parse().map_err(|_| format!("bad answer {value}"))?,
                minimize: kind == "minimize",
            },
        };
        let gecode_flags = match row.get(11).map(String::as_str) {
            Some("-G std") => vec!["-G".to_owned(), "std".to_owned()],
            _ => Vec::new(),
        };
        let data = (data != "-").then(|| data.clone());
        let name = format!(
            "{}{}",
            model.trim_end_matches(".mzn"),
            data.as_deref()
                .map(|d| format!(":{}", Path::new(d).file_stem().unwrap().to_string_lossy()))
                .unwrap_or_default()
        );
        out.push(Instance {
            name,
            tier: tier.clone(),
            dir: dir.to_path_buf(),
            model: model.clone(),
            data,
            expected,
            gecode_flags,
        });
    }
    Ok(out)
}

/// The instances of `minizinc/` (queens, Langford, Golomb, QCP), from its `ANSWERS.tsv` and the QCP
/// table of `../qcp/ANSWERS.tsv`. Counts run with `-a`. Debian's Gecode needs `-G std` for all of them.
fn minizinc_instances(dir: &Path) -> Result<Vec<Instance>, String> {
    let std = vec!["-G".to_owned(), "std".to_owned()];
    let mut out = Vec::new();
    let mut push = |name: String, model: &str, data: Option<String>, expected: Expected| {
        out.push(Instance {
            name,
            tier: "minizinc".to_owned(),
            dir: dir.to_path_buf(),
            model: model.to_owned(),
            data,
            expected,
            gecode_flags: std.clone(),
        })
    };
    for row in rows(&dir.join("ANSWERS.tsv"))? {
        let [model, data, _, answer, ..] = &row[..] else {
            continue;
        };
        if model.starts_with("golomb") {
            for (m, value) in (3..).zip(answer.split_whitespace()) {
                let value = value.parse().map_err(|_| format!("bad optimum {value}"))?;
                push(
                    format!("golomb:{m:02}"),
                    model,
                    Some(format!("golomb/{m:02}.dzn")),
                    Expected::Optimum {
                        value,
                        minimize: true,
                    },
                );
            }
        } else if model.starts_with("QCP") {
            for qcp in rows(&dir.join("../qcp/ANSWERS.tsv"))? {
                let expected = if qcp[3] == "SAT" {
                    Expected::Sat
                } else {
                    Expected::Unsat
                };
                let model = format!("QCP/{}_ext.mzn", qcp[0]);
                push(qcp[0].clone(), &model, None, expected);
            }
        } else {
            let expected = if answer == "UNSAT" {
                Expected::Unsat
            } else {
                Expected::Count(answer.parse().map_err(|_| format!("bad count {answer}"))?)
            };
            let name = format!(
                "{}:{}",
                model.trim_end_matches(".mzn"),
                Path::new(data).file_stem().unwrap().to_string_lossy()
            );
            push(name, model, Some(data.clone()), expected);
        }
    }
    Ok(out)
}

/// Runs a command with a wall-clock limit, returning its standard output (or why it failed).
fn run_with_limit(command: &mut Command, limit: Duration) -> Result<String, String> {
    let mut child = command
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot start: {e}"))?;
    // The output is read on threads so that a chatty child never blocks on a full pipe.
    let mut stdout = child.stdout.take().expect("piped");
    let mut stderr = child.stderr.take().expect("piped");
    let out = std::thread::spawn(move || {
        let mut text = String::new();
        let _ = std::io::Read::read_to_string(&mut stdout, &mut text);
        text
    });
    let err = std::thread::spawn(move || {
        let mut text = String::new();
        let _ = std::io::Read::read_to_string(&mut stderr, &mut text);
        text
    });
    let started = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().map_err(|e| e.to_string())? {
            break Some(status);
        }
        if started.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            break None;
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let (text, errors) = (
        out.join().unwrap_or_default(),
        err.join().unwrap_or_default(),
    );
    match status {
        Some(status) if status.success() => Ok(text),
        Some(status) => Err(format!(
            "exit {}: {}",
            status.code().unwrap_or(-1),
            errors.lines().next().unwrap_or("")
        )),
        None => Err(format!("killed after {} s", limit.as_secs())),
    }
}

/// Reads a solver's output: solutions, the last objective, the status lines, statistics.
fn read_output(text: &str) -> Run {
    let mut run = Run {
        output: text.to_owned(),
        ..Run::default()
    };
    for line in text.lines() {
        if line == "----------" {
            run.solutions += 1;
        } else if line == "==========" {
            run.complete = true;
        } else if line == "=====UNSATISFIABLE=====" {
            run.unsat = true;
        } else if let Some(stat) = line.strip_prefix("%%%mzn-stat: ") {
            match stat.split_once('=') {
                Some(("solveTime", v)) => run.seconds = v.parse().unwrap_or(run.seconds),
                Some(("nodes", v)) => run.nodes = v.parse().ok(),
                _ => {}
            }
        }
    }
    run
}

/// Compiles an instance for a solver and runs it.
fn solve(instance: &Instance, options: &Options, solver: &str, work: &Path) -> Result<Run, String> {
    let fzn = work.join(format!("{solver}.fzn"));
    let ozn = work.join(format!("{solver}.ozn"));
    let mut compile = Command::new("minizinc");
    compile
        .current_dir(&instance.dir)
        .env("MZN_SOLVER_PATH", options.root.join("minizinc"))
        .args(["--solver", if solver == "csp" { "csp" } else { "gecode" }])
        .args(if solver == "csp" {
            &[][..]
        } else {
            &instance.gecode_flags[..]
        })
        .args(["-c", "--output-objective", "--output-mode", "dzn"])
        .arg(&instance.model)
        .args(instance.data.iter())
        .arg("--fzn")
        .arg(&fzn)
        .arg("--ozn")
        .arg(&ozn);
    run_with_limit(&mut compile, Duration::from_secs(300)).map_err(|e| format!("compile: {e}"))?;
    let executable = if solver == "csp" {
        options.root.join("target/release/fzn-csp")
    } else {
        PathBuf::from("fzn-gecode")
    };
    let mut command = Command::new(executable);
    command
        .args(["-s", "-t", &(options.timeout * 1000).to_string()])
        .args(matches!(instance.expected, Expected::Count(_)).then_some("-a"))
        .arg(&fzn);
    let started = Instant::now();
    let text = run_with_limit(&mut command, Duration::from_secs(options.timeout + 30))?;
    let mut run = read_output(&text);
    if run.seconds == 0.0 {
        run.seconds = started.elapsed().as_secs_f64();
    }
    if !matches!(instance.expected, Expected::Count(_)) {
        run.dzn = last_solution_dzn(&run, &ozn, work)?;
        run.objective = run.dzn.as_deref().and_then(objective_in);
    }
    Ok(run)
}

/// The last solution of a run, translated by MiniZinc's output model (`ozn`) into data: one
/// assignment a line, `_objective = v;` included (`--output-objective`).
fn last_solution_dzn(run: &Run, ozn: &Path, work: &Path) -> Result<Option<String>, String> {
    // The last solution only: everything after the second-to-last separator.
    let blocks: Vec<&str> = run.output.split("----------\n").collect();
    if blocks.len() < 2 {
        return Ok(None);
    }
    let last = format!("{}----------\n", blocks[blocks.len() - 2]);
    let raw = work.join("last.txt");
    std::fs::write(&raw, last).map_err(|e| e.to_string())?;
    let mut to_dzn = Command::new("minizinc");
    to_dzn
        .arg("--ozn-file")
        .arg(ozn)
        .stdin(std::fs::File::open(&raw).map_err(|e| e.to_string())?);
    run_with_limit(&mut to_dzn, Duration::from_secs(60)).map(Some)
}

/// Feeds our last solution back to MiniZinc as data and asks Gecode whether the model accepts it.
fn cross_check(instance: &Instance, dzn: &str, work: &Path) -> Result<(), String> {
    // The objective is a model expression, not a variable: it cannot be assigned as data.
    let data: String = dzn
        .lines()
        .filter(|l| !l.starts_with("_objective") && !l.starts_with("---") && !l.starts_with("==="))
        .map(|l| format!("{l}\n"))
        .collect();
    let solution = work.join("solution.dzn");
    std::fs::write(&solution, data).map_err(|e| e.to_string())?;
    let mut check = Command::new("minizinc");
    check
        .current_dir(&instance.dir)
        .args(["--solver", "gecode", "-G", "std"])
        .arg(&instance.model)
        .args(instance.data.iter())
        .arg(&solution);
    let answer = run_with_limit(&mut check, Duration::from_secs(120))?;
    if answer.contains("----------") {
        Ok(())
    } else {
        Err("Gecode refuses our solution".to_owned())
    }
}

/// The `_objective` of a translated solution.
fn objective_in(dzn: &str) -> Option<i64> {
    dzn.lines()
        .find_map(|l| l.strip_prefix("_objective = "))
        .and_then(|v| v.trim_end_matches(';').trim().parse().ok())
}

fn median(values: &mut [f64]) -> Option<f64> {
    if values.is_empty() {
        return None;
    }
    values.sort_by(f64::total_cmp);
    let n = values.len();
    Some(if n % 2 == 1 {
        values[n / 2]
    } else {
        (values[n / 2 - 1] + values[n / 2]) / 2.0
    })
}

/// The cactus plot: for each solver, the k-th fastest proven instance's time against k.
fn cactus(path: &Path, series: &[(&str, Vec<f64>)], timeout: u64) -> Result<(), String> {
    let draw = || -> Result<(), Box<dyn std::error::Error>> {
        let root = SVGBackend::new(path, (800, 520)).into_drawing_area();
        root.fill(&WHITE)?;
        let most = series
            .iter()
            .map(|(_, t)| t.len())
            .max()
            .unwrap_or(0)
            .max(1);
        let mut chart = ChartBuilder::on(&root)
            .caption("Instances proven against time", ("sans-serif", 20))
            .margin(12)
            .x_label_area_size(45)
            .y_label_area_size(80)
            .build_cartesian_2d(
                0f64..(most as f64 + 1.0),
                (1e-4f64..timeout as f64 * 2.0).log_scale(),
            )?;
        chart
            .configure_mesh()
            .x_desc("instances proven")
            .y_desc("time (s), each solver's solveTime")
            .y_label_formatter(&|v| format!("{v:.0e}"))
            .draw()?;
        let colours = [RGBColor(214, 39, 40), RGBColor(31, 119, 180)];
        for ((label, times), colour) in series.iter().zip(colours) {
            let mut sorted = times.clone();
            sorted.sort_by(f64::total_cmp);
            let points: Vec<(f64, f64)> = sorted
                .iter()
                .enumerate()
                .map(|(i, &t)| ((i + 1) as f64, t.max(1e-4)))
                .collect();
            chart
                .draw_series(LineSeries::new(points.clone(), colour.stroke_width(2)))?
                .label(*label)
                .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], colour));
            chart.draw_series(points.iter().map(|&p| Circle::new(p, 3, colour.filled())))?;
        }
        chart
            .configure_series_labels()
            .background_style(WHITE.mix(0.8))
            .border_style(BLACK)
            .draw()?;
        root.present()?;
        Ok(())
    };
    draw().map_err(|e| format!("{}: {e}", path.display()))
}

fn main() {
    if let Err(message) = bench() {
        eprintln!("mzn-bench: {message}");
        std::process::exit(2);
    }
}

fn bench() -> Result<(), String> {
    let options = parse_options()?;
    let fzn_csp = options.root.join("target/release/fzn-csp");
    if !fzn_csp.exists() {
        return Err(format!(
            "{} is missing: run `cargo build --release` first",
            fzn_csp.display()
        ));
    }
    let mut instances = Vec::new();
    for folder in &options.folders {
        let dir = options.instances.join(folder);
        instances.extend(if folder == "minizinc" {
            minizinc_instances(&dir)?
        } else {
            bench_instances(&dir)?
        });
    }
    if let Some(only) = &options.only {
        instances.retain(|i| i.name.contains(only.as_str()));
    }
    std::fs::create_dir_all(&options.out).map_err(|e| e.to_string())?;
    println!(
        "{:<44} {:>6} {:>9} | {:>8} {:>8} {:>9} {:>11} | {:>8} {:>8} {:>9} {:>11} | check",
        "instance",
        "tier",
        "expected",
        "ours",
        "obj",
        "time s",
        "nodes",
        "gecode",
        "obj",
        "time s",
        "nodes"
    );
    let mut results: Vec<(Instance, Run, Option<Run>, Vec<String>)> = Vec::new();
    for instance in instances {
        let work = options.out.join("work");
        std::fs::create_dir_all(&work).map_err(|e| e.to_string())?;
        let ours = solve(&instance, &options, "csp", &work).unwrap_or_else(|error| Run {
            error: Some(error),
            ..Run::default()
        });
        let mut problems = Vec::new();
        if let Some(reason) = ours.wrong(&instance.expected) {
            problems.push(format!("WRONG: {reason}"));
        }
        if options.cross_check
            && ours.error.is_none()
            && let Some(dzn) = &ours.dzn
            && let Err(e) = cross_check(&instance, dzn, &work)
        {
            problems.push(format!("CROSS-CHECK: {e}"));
        }
        let gecode = options.gecode.then(|| {
            solve(&instance, &options, "gecode", &work).unwrap_or_else(|error| Run {
                error: Some(error),
                ..Run::default()
            })
        });
        let show = |run: &Run| {
            format!(
                "{:>8} {:>8} {:>9.3} {:>11}",
                run.status().chars().take(8).collect::<String>(),
                run.objective.map_or("-".to_owned(), |o| o.to_string()),
                run.seconds,
                run.nodes.map_or("-".to_owned(), |n| n.to_string())
            )
        };
        println!(
            "{:<44} {:>6} {:>9} | {} | {} | {}",
            instance.name,
            instance.tier,
            instance.expected.show(),
            show(&ours),
            gecode.as_ref().map_or("-".to_owned(), show),
            if problems.is_empty() {
                ours.error.clone().map_or("ok".to_owned(), |e| e)
            } else {
                problems.join("; ")
            }
        );
        results.push((instance, ours, gecode, problems));
    }
    // Totals per tier and overall.
    let mut tiers: BTreeMap<String, (usize, usize, usize, usize, usize)> = BTreeMap::new();
    let (mut ours_times, mut gecode_times, mut ratios) = (Vec::new(), Vec::new(), Vec::new());
    let (mut wrong, mut errors) = (0, 0);
    for (instance, ours, gecode, problems) in &results {
        let entry = tiers.entry(instance.tier.clone()).or_default();
        entry.0 += 1;
        let ours_proven = ours.proven(&instance.expected) && problems.is_empty();
        let gecode_proven = gecode
            .as_ref()
            .is_some_and(|g| g.proven(&instance.expected) && g.wrong(&instance.expected).is_none());
        if ours.solutions > 0 || ours.unsat {
            entry.1 += 1;
        }
        if ours_proven {
            entry.2 += 1;
            ours_times.push(ours.seconds);
        }
        if gecode_proven {
            entry.3 += 1;
            gecode_times.push(gecode.as_ref().map_or(0.0, |g| g.seconds));
        }
        if ours_proven && gecode_proven {
            entry.4 += 1;
            let g = gecode.as_ref().map_or(0.0, |g| g.seconds);
            ratios.push(ours.seconds.max(1e-4) / g.max(1e-4));
        }
        wrong += usize::from(!problems.is_empty());
        errors += usize::from(ours.error.is_some());
    }
    println!();
    println!("tier       instances  ours: answered  proven | gecode: proven | both proven");
    let mut totals = (0, 0, 0, 0, 0);
    for (tier, (n, answered, proven, gecode, both)) in &tiers {
        println!("{tier:<10} {n:>9} {answered:>15} {proven:>7} | {gecode:>14} | {both:>11}");
        totals = (
            totals.0 + n,
            totals.1 + answered,
            totals.2 + proven,
            totals.3 + gecode,
            totals.4 + both,
        );
    }
    println!(
        "{:<10} {:>9} {:>15} {:>7} | {:>14} | {:>11}",
        "total", totals.0, totals.1, totals.2, totals.3, totals.4
    );
    println!("wrong answers (or refused by the cross-check): {wrong}; runs that failed: {errors}");
    match median(&mut ratios) {
        Some(m) => println!(
            "median time ratio ours / gecode where both prove ({} instances): {m:.3}",
            ratios.len()
        ),
        None => println!("median time ratio: no instance proven by both"),
    }
    let mut series = vec![("fzn-csp", ours_times)];
    if options.gecode {
        series.push(("fzn-gecode", gecode_times));
    }
    let svg = options.out.join("cactus.svg");
    cactus(&svg, &series, options.timeout)?;
    println!("cactus plot: {}", svg.display());
    if wrong > 0 {
        return Err(format!("{wrong} wrong answers"));
    }
    Ok(())
}
