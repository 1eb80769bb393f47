//! The checks of every run: its answer against the known one, and its solutions fed back to MiniZinc
//! as data for Gecode to accept.

use std::path::Path;
use std::process::Command;
use std::time::Duration;

use crate::instances::Instance;
use crate::process::execute;
use crate::run::{Run, Solution};

/// Which solutions of a run the cross-check feeds back to the model.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CheckMode {
    /// None: only the answer is compared with the known one.
    None,
    /// The last solution, the one the run's objective and status rest on.
    Last,
    /// Every solution (slow where a solver prints hundreds of improving ones).
    All,
}

/// What Gecode made of one solution.
#[derive(Debug, Clone, PartialEq)]
enum Verdict {
    /// The model, with the solution as data, has a solution (and, for an optimisation problem,
    /// none better than the solution's claimed objective can be completed beyond it).
    Accepted,
    /// The model refuses it: the reason.
    Refused(String),
    /// The check could not decide (the data did not compile, or Gecode ran out of time): why.
    Unchecked(String),
}

/// The lines of a solution that can go back to the model as data: `_objective` is an expression
/// of the model, not a variable, and `X_INTRODUCED_*` are MiniZinc's own variables (Huub prints its
/// objective variable under such a name), so neither can be assigned. An array of MiniZinc's that
/// was not renamed into the model's ([`crate::huub`]) would leave the check hollow, so it is an
/// error: its name.
fn as_data(solution: &Solution) -> Result<String, String> {
    let mut data = String::new();
    for line in solution.dzn.lines() {
        if line.starts_with("X_INTRODUCED_") {
            if let Some((name, value)) = line.split_once(" = ")
                && (value.starts_with('[') || value.starts_with("array"))
            {
                return Err(format!(
                    "MiniZinc's own array {name} stands for a model array"
                ));
            }
        } else if !line.starts_with("_objective") {
            data.push_str(line);
            data.push('\n');
        }
    }
    Ok(data)
}

/// The `_objective` MiniZinc printed last.
fn last_objective(output: &str) -> Option<i64> {
    output
        .lines()
        .filter_map(|l| l.strip_prefix("_objective = "))
        .filter_map(|v| v.trim_end_matches(';').trim().parse().ok())
        .next_back()
}

/// Feeds one solution back to MiniZinc as data and asks Gecode whether the model accepts it.
fn cross_check(
    instance: &Instance,
    solution: &Solution,
    minimize: Option<bool>,
    work: &Path,
) -> Verdict {
    let path = work.join("solution.dzn");
    let data = match as_data(solution) {
        Ok(data) => data,
        Err(why) => return Verdict::Unchecked(why),
    };
    if let Err(e) = std::fs::write(&path, data) {
        return Verdict::Unchecked(e.to_string());
    }
    let mut check = Command::new("minizinc");
    check
        .current_dir(&instance.dir)
        .args(["--solver", "gecode", "-G", "std", "-t", "60000"])
        .args(["--output-mode", "dzn", "--output-objective"])
        .args(instance.files())
        .arg(&path);
    let done = execute(&mut check, None, Duration::from_secs(120));
    // MiniZinc reports a value outside a declared domain, or a constraint the data violates, as
    // unsatisfiability while compiling (exit code 0).
    if done.stdout.contains("=====UNSATISFIABLE=====") {
        return Verdict::Refused("the model refuses it".to_owned());
    }
    if let Some(failure) = done.failure {
        return Verdict::Unchecked(failure);
    }
    if !done.stdout.contains("----------") {
        return Verdict::Unchecked("Gecode found no completion of it within 60 s".to_owned());
    }
    // With every output variable fixed, Gecode optimises what is left; its proven optimum is the
    // best objective the solution can have. A claim beyond it is false. (A better one only means
    // the solution left some variables free.)
    if let (Some(minimize), Some(claimed), Some(best), true) = (
        minimize,
        solution.objective,
        last_objective(&done.stdout),
        done.stdout.contains("=========="),
    ) && (if minimize {
        best > claimed
    } else {
        best < claimed
    }) {
        return Verdict::Refused(format!(
            "claims objective {claimed}, but its best completion has {best}"
        ));
    }
    Verdict::Accepted
}

/// Checks a run: its answer against the instance's known one, then the solutions `mode` names fed
/// back to the model (stopping at the first refused). Problems are noted in the run.
pub fn check(run: &mut Run, instance: &Instance, mode: CheckMode, work: &Path) {
    run.check_answer(&instance.expected);
    let chosen: Vec<(usize, Solution)> = match mode {
        CheckMode::None => Vec::new(),
        CheckMode::Last => run
            .solutions
            .iter()
            .cloned()
            .enumerate()
            .next_back()
            .into_iter()
            .collect(),
        CheckMode::All => run.solutions.iter().cloned().enumerate().collect(),
    };
    for (i, solution) in chosen {
        match cross_check(instance, &solution, instance.expected.minimize(), work) {
            Verdict::Accepted => run.accepted += 1,
            Verdict::Refused(reason) => {
                run.mark_wrong(format!("solution {}: {reason}", i + 1));
                break;
            }
            Verdict::Unchecked(reason) => {
                let note = format!("solution {}: {reason}", i + 1);
                run.unchecked.push(note);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_objective_and_minizinc_s_own_variables_are_not_fed_back() {
        let solution = Solution {
            dzn: "mark = [0,1,3];\nX_INTRODUCED_23_ = 3;\n_objective = 3;\n".to_owned(),
            objective: Some(3),
        };
        assert_eq!(as_data(&solution).unwrap(), "mark = [0,1,3];\n");
        let hollow = Solution {
            dzn: "X_INTRODUCED_0_ = [1,4,6];\n".to_owned(),
            objective: None,
        };
        assert!(as_data(&hollow).is_err());
    }

    #[test]
    fn the_last_objective_printed_is_the_best() {
        let output =
            "x = 1;\n_objective = 9;\n----------\n_objective = 7;\n----------\n==========\n";
        assert_eq!(last_objective(output), Some(7));
    }
}
