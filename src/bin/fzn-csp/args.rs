//! The command line: FlatZinc's standard options, as MiniZinc passes them (`stdFlags` in
//! `minizinc/csp.msc`), and this solver's own.

use std::path::PathBuf;

use clap::Parser;
use csp::flatzinc::run::RunOptions;

/// Solves a FlatZinc model with the csp engine, printing solutions as the FlatZinc specification
/// says.
#[derive(Debug, Parser)]
#[command(name = "fzn-csp", version)]
pub struct Args {
    /// The FlatZinc model (`-` or `/dev/stdin` for standard input).
    #[arg(value_name = "FILE")]
    pub file: PathBuf,
    /// All solutions (satisfaction), or every improving solution (optimisation).
    #[arg(short = 'a', long = "all-solutions")]
    pub all: bool,
    /// Stop after N solutions (under optimisation, N improving ones); at least 1.
    #[arg(short = 'n', long = "num-solutions", value_name = "N", value_parser = at_least_one)]
    pub solutions: Option<u64>,
    /// Print every improving solution of an optimisation.
    #[arg(short = 'i', long = "intermediate")]
    pub intermediate: bool,
    /// Free search: ignore the model's search annotations (dom/wdeg with restarts).
    #[arg(short = 'f', long = "free-search")]
    pub free: bool,
    /// Print statistics as `%%%mzn-stat:` lines.
    #[arg(short = 's', long = "statistics")]
    pub statistics: bool,
    /// Stop after this many milliseconds, counted from the start (reading and compiling included).
    #[arg(short = 't', long = "time-limit", value_name = "MS",
          allow_negative_numbers = true, value_parser = milliseconds)]
    pub time_limit: Option<u64>,
    /// The seed of every random choice (`indomain_random`, dom/wdeg ties).
    #[arg(
        short = 'r',
        long = "random-seed",
        value_name = "SEED",
        default_value_t = 0
    )]
    pub seed: u64,
    /// Searches at once, a portfolio sharing the bound (an enumeration of all solutions runs one).
    #[arg(short = 'p', long = "parallel", value_name = "N", default_value_t = 1,
          value_parser = at_least_one)]
    pub threads: u64,
    /// A portfolio whose result does not depend on thread timing: its searches exchange bounds
    /// only every 10,000 nodes.
    #[arg(long)]
    pub deterministic: bool,
    /// Large-neighbourhood search beside branch and bound, for optimisation problems.
    #[arg(long, value_name = "on|off", default_value = "on", value_parser = on_off,
          action = clap::ArgAction::Set)]
    pub lns: bool,
    /// Say on stderr what was built and how the search went.
    #[arg(short = 'v', long = "verbose")]
    pub verbose: bool,
    /// Show the share of the estimated search tree explored and an ETA on stderr (by default only
    /// when stderr is a terminal).
    #[arg(long, conflicts_with = "no_progress")]
    pub progress: bool,
    /// Never show progress.
    #[arg(long)]
    pub no_progress: bool,
}

impl Args {
    /// The run's options for the library's protocol (the deadline and initialisation time are the
    /// caller's to fill in).
    pub fn run_options(&self) -> RunOptions {
        RunOptions {
            all_solutions: self.all,
            solutions: self.solutions,
            intermediate: self.intermediate,
            free_search: self.free,
            statistics: self.statistics,
            seed: self.seed,
            lns: self.lns,
            threads: usize::try_from(self.threads).unwrap_or(usize::MAX),
            deterministic: self.deterministic,
            ..RunOptions::default()
        }
    }
}

/// A time limit in milliseconds: a whole number, 0 or more.
fn milliseconds(text: &str) -> Result<u64, String> {
    text.parse().map_err(|_| {
        format!("the time limit is a whole number of milliseconds, 0 or more, not `{text}`")
    })
}

/// `on` or `off`.
fn on_off(text: &str) -> Result<bool, String> {
    match text {
        "on" => Ok(true),
        "off" => Ok(false),
        _ => Err(format!("`on` or `off`, not `{text}`")),
    }
}

/// A count that must be at least 1 (`-n`, `-p`).
fn at_least_one(text: &str) -> Result<u64, String> {
    match text.parse() {
        Ok(0) | Err(_) => Err(format!(
            "a whole number, 1 or more, is needed, not `{text}`"
        )),
        Ok(count) => Ok(count),
    }
}

/// Folds a clap error into one line: its message, with the lines that follow it (a missing
/// argument's name, say) joined on, and without the usage and help that clap appends.
pub fn one_line(error: &clap::Error) -> String {
    let text = error.to_string();
    let message = text.split("\n\nUsage:").next().unwrap_or_default();
    let message = message
        .split("\n\nFor more information")
        .next()
        .unwrap_or_default();
    let words: Vec<&str> = message.split_whitespace().collect();
    words
        .join(" ")
        .trim_start_matches("error: ")
        .trim_end_matches(':')
        .to_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn error(args: &[&str]) -> String {
        let error = Args::try_parse_from(args).expect_err("the arguments are wrong");
        one_line(&error)
    }

    #[test]
    fn each_usage_error_is_one_line_that_names_the_problem() {
        let missing = error(&["fzn-csp"]);
        assert!(missing.contains("<FILE>"), "{missing}");
        let negative = error(&["fzn-csp", "-t", "-5", "m.fzn"]);
        assert!(negative.contains("time limit"), "{negative}");
        assert!(negative.contains("`-5`"), "{negative}");
        let zero = error(&["fzn-csp", "-n", "0", "m.fzn"]);
        assert!(
            zero.contains("1 or more") && zero.contains("--num-solutions"),
            "{zero}"
        );
        let threads = error(&["fzn-csp", "-p", "0", "m.fzn"]);
        assert!(
            threads.contains("1 or more") && threads.contains("--parallel"),
            "{threads}"
        );
        for message in [missing, negative, zero, threads] {
            assert!(!message.contains('\n'), "{message}");
        }
    }
}
