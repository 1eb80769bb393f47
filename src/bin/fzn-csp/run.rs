//! One run: read and compile the model, search, check and print each solution as the FlatZinc
//! specification says, then the final status line and, with `-s`, the statistics.

use std::ffi::OsString;
use std::io::{self, BufWriter, Write};
use std::path::PathBuf;
use std::time::{Duration, Instant};

use clap::Parser;
use csp::core::{Model, Objective, Store};
use csp::flatzinc::{Compiled, VerifyError, compile_parsed, parse};
use csp::search::{Outcome, Search, SearchObserver};

use crate::args::Args;
use crate::progress::{self, Progress};

/// The most bytes of FlatZinc read: a model larger than this is refused before it is read.
const MAX_FILE_BYTES: u64 = 1 << 31;

/// Why a run failed.
#[derive(Debug, thiserror::Error)]
pub enum RunError {
    /// The command line is wrong.
    #[error("{0}")]
    Usage(String),
    /// The model file could not be read.
    #[error("{path}: {message}")]
    Read {
        /// The file.
        path: PathBuf,
        /// Why.
        message: String,
    },
    /// The model is malformed or uses what the engine does not support.
    #[error("{path}: {error}")]
    Model {
        /// The file.
        path: PathBuf,
        /// What is wrong, with its line.
        error: csp::flatzinc::Error,
    },
    /// A solution failed verification: a bug, never the model's fault.
    #[error("internal error, a solution failed verification: {0}")]
    Verify(VerifyError),
    /// Standard output could not be written.
    #[error("cannot write the output: {0}")]
    Write(#[from] io::Error),
}

impl RunError {
    /// The exit code: 2 for bad input, 70 for a solution that failed verification (a bug).
    pub fn exit_code(&self) -> u8 {
        match self {
            RunError::Verify(_) => 70,
            _ => 2,
        }
    }
}

/// Runs `fzn-csp` with these arguments (the program's name first).
pub fn run(args: impl IntoIterator<Item = OsString>) -> Result<(), RunError> {
    let started = Instant::now();
    let args = match Args::try_parse_from(args) {
        Ok(args) => args,
        Err(error) => match error.kind() {
            clap::error::ErrorKind::DisplayHelp | clap::error::ErrorKind::DisplayVersion => {
                error.exit()
            }
            _ => {
                let text = error.to_string();
                let line = text.lines().next().unwrap_or_default();
                return Err(RunError::Usage(
                    line.trim_start_matches("error: ").to_owned(),
                ));
            }
        },
    };
    let text = read(&args.file)?;
    let model_error = |error| RunError::Model {
        path: args.file.clone(),
        error,
    };
    let read_time = started.elapsed();
    let parsed = parse(&text).map_err(model_error)?;
    let parse_time = started.elapsed() - read_time;
    let compiled = compile_parsed(&parsed).map_err(model_error)?;
    let init_time = started.elapsed();
    let bytes = text.len();
    drop(parsed);
    drop(text);
    if args.threads > 1 {
        eprintln!(
            "fzn-csp: -p {}: this solver runs one search thread; running one",
            args.threads
        );
    }
    if args.verbose {
        let megabytes = bytes as f64 / 1e6;
        let build_time = init_time - read_time - parse_time;
        eprintln!(
            "% fzn-csp: {megabytes:.2} MB read in {:.3} s, parsed in {:.3} s ({:.0} MB/s), compiled in {:.3} s; parsed and compiled at {:.0} MB/s",
            read_time.as_secs_f64(),
            parse_time.as_secs_f64(),
            megabytes / parse_time.as_secs_f64().max(1e-9),
            build_time.as_secs_f64(),
            megabytes / (parse_time + build_time).as_secs_f64().max(1e-9),
        );
        let model = compiled.model();
        eprintln!(
            "% fzn-csp: {} FlatZinc constraints as {} engine constraints over {} variables in {:.3} s; search: {}",
            compiled.num_flatzinc_constraints(),
            model.num_constraints(),
            model.num_vars(),
            init_time.as_secs_f64(),
            if args.free || compiled.searches().is_empty() {
                "free (dom/wdeg, Luby restarts)".to_owned()
            } else {
                format!(
                    "{} annotated searches, then dom/wdeg",
                    compiled.searches().len()
                )
            }
        );
    }
    let show_progress = progress::wanted(args.progress, args.no_progress);
    if show_progress {
        let bound = root_bound(compiled.model());
        solve(
            &args,
            &compiled,
            started,
            init_time,
            &mut Progress::new(bound),
        )
    } else {
        solve(&args, &compiled, started, init_time, &mut ())
    }
}

/// Reads the model, refusing a file too large to hold.
fn read(path: &PathBuf) -> Result<String, RunError> {
    let fail = |message: String| RunError::Read {
        path: path.clone(),
        message,
    };
    let metadata = std::fs::metadata(path).map_err(|e| fail(e.to_string()))?;
    if metadata.len() > MAX_FILE_BYTES {
        return Err(fail(format!(
            "{} bytes is more than the {MAX_FILE_BYTES} a model may have",
            metadata.len()
        )));
    }
    let bytes = std::fs::read(path).map_err(|e| fail(e.to_string()))?;
    String::from_utf8(bytes).map_err(|e| {
        fail(format!(
            "not UTF-8 text (byte {})",
            e.utf8_error().valid_up_to()
        ))
    })
}

/// The objective's bound after propagation at the root (its smallest possible value when
/// minimising, its largest when maximising), or `None` without an objective or when the root fails.
fn root_bound(model: &Model) -> Option<i64> {
    let objective = model.objective();
    let var = objective.var()?;
    let mut store = Store::new(model);
    store.establish_arc_consistency(model).ok()?;
    let domain = store.domain(var);
    Some(i64::from(match objective {
        Objective::Maximize(_) => domain.ub(),
        _ => domain.lb(),
    }))
}

/// Searches, printing as the options say.
fn solve<O: SearchObserver>(
    args: &Args,
    compiled: &Compiled,
    started: Instant,
    init_time: Duration,
    observer: &mut O,
) -> Result<(), RunError> {
    let model = compiled.model();
    let optimising = model.objective() != Objective::Satisfy;
    let mut config = compiled.search_config(args.free);
    config.seed = args.seed;
    config.limits.time = args
        .time_limit
        .map(|ms| Duration::from_millis(ms).saturating_sub(started.elapsed()));
    // How many solutions to stop after: under optimisation only `-n` stops early; under satisfaction
    // one, or `-n`, or with `-a` all (or `-n`).
    let wanted = match (optimising, args.all) {
        (true, _) | (false, true) => args.solutions,
        (false, false) => Some(args.solutions.unwrap_or(1)),
    };
    // The specification prints only the final solution of an optimisation unless asked for more.
    let print_each = !optimising || args.all || args.intermediate;
    let stdout = io::stdout();
    let mut out = BufWriter::new(stdout.lock());
    let mut search = Search::new(model, &config);
    let mut found = 0u64;
    let mut best: Option<Vec<i32>> = None;
    let mut timed_out = config.limits.time == Some(Duration::ZERO);
    while !timed_out {
        let Some(values) = search.next_solution(observer) else {
            break;
        };
        compiled.verify(values).map_err(RunError::Verify)?;
        found += 1;
        if print_each {
            out.write_all(compiled.output().format(values).as_bytes())?;
            out.write_all(b"----------\n")?;
            out.flush()?;
        } else {
            best = Some(values.to_vec());
        }
        if wanted.is_some_and(|w| found >= w) {
            break;
        }
        timed_out = args
            .time_limit
            .is_some_and(|ms| started.elapsed() >= Duration::from_millis(ms));
    }
    let outcome = search.outcome();
    if let Some(values) = &best {
        out.write_all(compiled.output().format(values).as_bytes())?;
        out.write_all(b"----------\n")?;
    }
    let status = match (found, outcome) {
        (0, Some(Outcome::Exhausted)) => Some("=====UNSATISFIABLE====="),
        (0, _) => Some("=====UNKNOWN====="),
        (_, Some(Outcome::Optimal)) => Some("=========="),
        (_, Some(Outcome::Exhausted)) if !optimising => Some("=========="),
        _ => None,
    };
    if let Some(status) = status {
        writeln!(out, "{status}")?;
    }
    if args.statistics {
        let result = search.result();
        let stat = |out: &mut BufWriter<_>, name: &str, value: String| {
            writeln!(out, "%%%mzn-stat: {name}={value}")
        };
        stat(
            &mut out,
            "initTime",
            format!("{:.6}", init_time.as_secs_f64()),
        )?;
        stat(
            &mut out,
            "solveTime",
            format!("{:.6}", result.elapsed.as_secs_f64()),
        )?;
        stat(&mut out, "solutions", found.to_string())?;
        stat(&mut out, "variables", model.num_vars().to_string())?;
        stat(&mut out, "propagators", model.num_constraints().to_string())?;
        stat(&mut out, "propagations", result.propagations.to_string())?;
        stat(&mut out, "nodes", result.stats.nodes.to_string())?;
        stat(&mut out, "failures", result.stats.dead_ends.to_string())?;
        stat(&mut out, "restarts", result.stats.restarts.to_string())?;
        stat(&mut out, "peakDepth", result.stats.max_depth.to_string())?;
        if optimising {
            let values = best.as_deref().or(result.solution.as_deref());
            if let Some(objective) = values.and_then(|v| compiled.objective_value(v)) {
                stat(&mut out, "objective", objective.to_string())?;
                let bound = if outcome == Some(Outcome::Optimal) {
                    Some(objective)
                } else {
                    root_bound(model)
                };
                if let Some(bound) = bound {
                    stat(&mut out, "objectiveBound", bound.to_string())?;
                }
            } else if let Some(bound) = root_bound(model) {
                stat(&mut out, "objectiveBound", bound.to_string())?;
            }
        }
        writeln!(out, "%%%mzn-stat-end")?;
    }
    out.flush()?;
    Ok(())
}
