//! Huub's solutions as data of the model.
//!
//! Huub prints its FlatZinc output variables as they are, and MiniZinc's JSON FlatZinc names every
//! output array that is not one-dimensional from 1 by one of its own variables: `X_INTRODUCED_0_ =
//! [...]` where the model has `array[0..6] of var int: x`. The output model (`.ozn`) says which:
//! `array [0..6] of int: x = array1d(0..6,X_INTRODUCED_0_);`. The native MiniZinc (2.6.4) cannot
//! run the output model of the WebAssembly one (2.10.0, which uses builtins 2.6.4 lacks), so the
//! runner compiles the instance again the way the Huub wrapper does, keeps the output model, and
//! reads those declarations itself, turning each solution back into assignments of the model's
//! own variables.

use std::path::Path;
use std::process::Command;
use std::time::Duration;

use crate::instances::Instance;
use crate::process::execute;
use crate::run::Solution;
use crate::setup::Setup;

/// A model variable the output model defines from one of MiniZinc's own: `X_INTRODUCED_0_` is `x`,
/// through `array1d(0..6,` … `)` (or directly, with no wrapper).
#[derive(Debug, Clone, PartialEq)]
pub struct Alias {
    /// MiniZinc's name (`X_INTRODUCED_0_`).
    introduced: String,
    /// The model's name (`x`).
    name: String,
    /// The coercion before the value (`array1d(0..6,`), empty for none.
    wrapper: String,
}

/// Reads the aliases from the declarations of an output model.
pub fn aliases(ozn: &str) -> Vec<Alias> {
    let mut out = Vec::new();
    for line in ozn.lines().filter(|l| !l.starts_with("output")) {
        let Some((declaration, value)) = line.trim().trim_end_matches(';').split_once(" = ") else {
            continue;
        };
        let name = declaration.rsplit(':').next().unwrap_or("").trim();
        if name.is_empty() || name.starts_with("X_INTRODUCED_") {
            continue;
        }
        let value = value.trim();
        let (wrapper, introduced) = match value.strip_suffix(')') {
            Some(call) if call.starts_with("array") => match call.rsplit_once(',') {
                Some((head, last)) => (format!("{head},"), last.trim()),
                None => continue,
            },
            _ => (String::new(), value),
        };
        if introduced.starts_with("X_INTRODUCED_") && !introduced.contains([' ', '(', '[']) {
            out.push(Alias {
                introduced: introduced.to_owned(),
                name: name.to_owned(),
                wrapper,
            });
        }
    }
    out
}

/// A solution with each aliased variable of MiniZinc's renamed to the model's, its value coerced
/// to the model's index sets.
pub fn rename(solution: &Solution, aliases: &[Alias]) -> Solution {
    let mut dzn = String::new();
    for line in solution.dzn.lines() {
        let renamed = line.split_once(" = ").and_then(|(name, value)| {
            let alias = aliases.iter().find(|a| a.introduced == name.trim())?;
            let value = value.trim().trim_end_matches(';');
            let close = if alias.wrapper.is_empty() { "" } else { ")" };
            Some(format!("{} = {}{value}{close};", alias.name, alias.wrapper))
        });
        dzn.push_str(renamed.as_deref().unwrap_or(line));
        dzn.push('\n');
    }
    Solution {
        dzn,
        objective: solution.objective,
    }
}

/// Compiles the instance as the Huub wrapper does (WebAssembly MiniZinc, Huub's library, JSON
/// FlatZinc) and returns the aliases of its output model.
pub fn output_aliases(
    instance: &Instance,
    setup: &Setup,
    work: &Path,
) -> Result<Vec<Alias>, String> {
    let anchors = &setup.anchors;
    let ozn = work.join("huub.ozn");
    let _ = std::fs::remove_file(&ozn);
    let mut command = Command::new("node");
    command
        .current_dir(&instance.dir)
        .arg(anchors.join("mzn-js/solve.mjs"))
        .arg("--copy-dir")
        .arg(anchors.join("huub/share/minizinc"))
        .args([
            "--solver",
            "minizinc/huub.msc",
            "-c",
            "--fzn-format",
            "json",
        ])
        .args(["--fzn", "model.fzn.json", "--ozn", "model.ozn", "--save"])
        .arg(format!("model.ozn={}", ozn.display()))
        .args(instance.files());
    if let Some(failure) = execute(&mut command, None, Duration::from_secs(300)).failure {
        return Err(format!("Huub's output model: {failure}"));
    }
    let text = std::fs::read_to_string(&ozn).map_err(|e| format!("Huub's output model: {e}"))?;
    Ok(aliases(&text))
}

#[cfg(test)]
mod tests {
    use super::*;

    const OZN: &str = "output [\"x = \", show(x)];\n\
                       int: cost;\n\
                       array [1..84] of int: X_INTRODUCED_0_;\n\
                       array [-1..n+2,-1..m+2] of int: a = array2d(-1..5,-1..10,X_INTRODUCED_0_);\n\
                       int: _objective = cost;\n\
                       array [0..n_names-1] of int: pos = array1d(0..8,X_INTRODUCED_16_);\n";

    #[test]
    fn the_output_model_names_the_model_s_arrays() {
        let found = aliases(OZN);
        let pairs: Vec<(&str, &str, &str)> = found
            .iter()
            .map(|a| (a.introduced.as_str(), a.name.as_str(), a.wrapper.as_str()))
            .collect();
        assert_eq!(
            pairs,
            [
                ("X_INTRODUCED_0_", "a", "array2d(-1..5,-1..10,"),
                ("X_INTRODUCED_16_", "pos", "array1d(0..8,"),
            ]
        );
    }

    #[test]
    fn a_solution_is_renamed_into_the_model_s_variables() {
        let solution = Solution {
            dzn: "cost = 12;\nX_INTRODUCED_16_ = [1,3,0];\nX_INTRODUCED_29_ = 4;\n".to_owned(),
            objective: Some(12),
        };
        assert_eq!(
            rename(&solution, &aliases(OZN)).dzn,
            "cost = 12;\npos = array1d(0..8,[1,3,0]);\nX_INTRODUCED_29_ = 4;\n"
        );
    }
}
