//! The benchmark instances: the three answer tables of `data/`, and the `--instances` filter.

use std::path::{Path, PathBuf};

/// What an instance's answer should be.
#[derive(Debug, Clone, PartialEq)]
pub enum Expected {
    /// A satisfaction problem with a solution.
    Sat,
    /// A problem without solutions.
    Unsat,
    /// An optimisation problem and its optimum.
    Optimum {
        /// The optimal objective value.
        value: i64,
        /// Whether the objective is minimised (else maximised).
        minimize: bool,
    },
    /// The number of solutions of a satisfaction problem (run with `-a`).
    Count(u64),
}

impl Expected {
    /// The answer as the table shows it.
    pub fn show(&self) -> String {
        match self {
            Expected::Sat => "SAT".to_owned(),
            Expected::Unsat => "UNSAT".to_owned(),
            Expected::Optimum { value, .. } => value.to_string(),
            Expected::Count(n) => format!("{n} sols"),
        }
    }

    /// For an optimisation problem, whether it minimises; `None` for satisfaction problems.
    pub fn minimize(&self) -> Option<bool> {
        match *self {
            Expected::Optimum { minimize, .. } => Some(minimize),
            _ => None,
        }
    }
}

/// One benchmark instance.
#[derive(Debug, Clone)]
pub struct Instance {
    /// The model's path without `.mzn`, then `:` and the data file's stem (`golomb/golomb:11`).
    pub name: String,
    /// `easy`, `medium` or `hard` (by Gecode's time in `minizinc-bench/ANSWERS.tsv`, by the best
    /// peer's in `minizinc-sched/ANSWERS.tsv`), or `minizinc`.
    pub tier: String,
    /// The folder the model and data paths are relative to.
    pub dir: PathBuf,
    /// The model, relative to `dir`.
    pub model: String,
    /// The data file, relative to `dir`, if the model takes one.
    pub data: Option<String>,
    /// The known answer.
    pub expected: Expected,
    /// Extra flags Gecode needs to compile the model (`-G std`).
    pub gecode_flags: Vec<String>,
}

impl Instance {
    /// The model and data files, as command-line arguments relative to `dir`.
    pub fn files(&self) -> impl Iterator<Item = &String> {
        std::iter::once(&self.model).chain(self.data.iter())
    }
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

/// The instances of `minizinc-bench` (49) or `minizinc-sched` (scheduling and other problems where
/// learning solvers do well), from the folder's `ANSWERS.tsv`: both tables have the same columns.
pub fn bench_instances(dir: &Path) -> Result<Vec<Instance>, String> {
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
pub fn minizinc_instances(dir: &Path) -> Result<Vec<Instance>, String> {
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
            for (name, expected) in qcp_instances(dir)? {
                let model = format!("QCP/{name}_ext.mzn");
                push(name, &model, None, expected);
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

/// The quasigroup-completion instances of `minizinc/QCP/` and their answers: from the shared
/// collection's `../qcp/ANSWERS.tsv` where it is there, else by the rule `minizinc/ANSWERS.tsv`
/// states for them (`qcp-N-H-k`: satisfiable for k = 0..9, unsatisfiable for k = 10..14), since
/// the copy in this repository's `data/` has the models but not that table.
fn qcp_instances(dir: &Path) -> Result<Vec<(String, Expected)>, String> {
    let table = dir.join("../qcp/ANSWERS.tsv");
    if table.exists() {
        return Ok(rows(&table)?
            .into_iter()
            .map(|qcp| {
                let expected = if qcp[3] == "SAT" {
                    Expected::Sat
                } else {
                    Expected::Unsat
                };
                (qcp[0].clone(), expected)
            })
            .collect());
    }
    let folder = dir.join("QCP");
    let entries = std::fs::read_dir(&folder).map_err(|e| format!("{}: {e}", folder.display()))?;
    let mut out = Vec::new();
    for entry in entries {
        let file = entry.map_err(|e| e.to_string())?.file_name();
        let Some(name) = file
            .to_string_lossy()
            .strip_suffix("_ext.mzn")
            .map(str::to_owned)
        else {
            continue;
        };
        let k: u32 = name
            .rsplit('-')
            .next()
            .and_then(|k| k.parse().ok())
            .ok_or(format!("QCP/{name}: no instance number"))?;
        out.push((
            name,
            if k <= 9 {
                Expected::Sat
            } else {
                Expected::Unsat
            },
        ));
    }
    out.sort_by(|a, b| a.0.cmp(&b.0));
    Ok(out)
}

/// The patterns of an `--instances` value: a file of names (one a line, `#` starting a comment) if
/// one exists at that path, else a comma-separated list.
pub fn patterns(value: &str) -> Result<Vec<String>, String> {
    let path = Path::new(value);
    let text = if path.is_file() {
        std::fs::read_to_string(path).map_err(|e| format!("{value}: {e}"))?
    } else {
        value.replace(',', "\n")
    };
    let patterns: Vec<String> = text
        .lines()
        .map(|line| line.split('#').next().unwrap_or("").trim().to_owned())
        .filter(|line| !line.is_empty())
        .collect();
    if patterns.is_empty() {
        return Err(format!("--instances {value}: no instance names"));
    }
    Ok(patterns)
}

/// The instances that some pattern names: a pattern selects the instance of that exact name, or
/// else every instance whose name contains it. A pattern that selects nothing is an error, so that
/// a misspelt name does not quietly shrink the suite. The suite's order is kept.
pub fn select(instances: Vec<Instance>, patterns: &[String]) -> Result<Vec<Instance>, String> {
    let chosen = |pattern: &str, instance: &Instance| {
        let exact = instances.iter().any(|i| i.name == pattern);
        if exact {
            instance.name == pattern
        } else {
            instance.name.contains(pattern)
        }
    };
    let unmatched: Vec<&str> = patterns
        .iter()
        .map(String::as_str)
        .filter(|p| !instances.iter().any(|i| chosen(p, i)))
        .collect();
    if !unmatched.is_empty() {
        return Err(format!(
            "no instance is named by {} (names look like `golomb/golomb:11`)",
            unmatched.join(", ")
        ));
    }
    Ok(instances
        .iter()
        .filter(|i| patterns.iter().any(|p| chosen(p, i)))
        .cloned()
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn instance(name: &str) -> Instance {
        Instance {
            name: name.to_owned(),
            tier: "easy".to_owned(),
            dir: PathBuf::new(),
            model: String::new(),
            data: None,
            expected: Expected::Sat,
            gecode_flags: Vec::new(),
        }
    }

    fn names(instances: &[Instance]) -> Vec<&str> {
        instances.iter().map(|i| i.name.as_str()).collect()
    }

    #[test]
    fn an_exact_name_selects_only_itself_and_a_part_selects_all_that_contain_it() {
        let suite: Vec<Instance> = [
            "golomb/golomb:10",
            "golomb/golomb:11",
            "ghoulomb/ghoulomb:x",
        ]
        .into_iter()
        .map(instance)
        .collect();
        let picked = select(suite.clone(), &["golomb:1".to_owned()]).unwrap();
        assert_eq!(names(&picked), ["golomb/golomb:10", "golomb/golomb:11"]);
        let picked = select(suite.clone(), &["golomb/golomb:11".to_owned()]).unwrap();
        assert_eq!(names(&picked), ["golomb/golomb:11"]);
        assert!(select(suite, &["gollomb".to_owned()]).is_err());
    }

    #[test]
    fn both_bench_tables_read_and_name_files_that_exist() {
        // A row naming a file that was not copied would only fail mid-run, on every solver.
        let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("data");
        for folder in ["minizinc-bench", "minizinc-sched"] {
            let instances = bench_instances(&data.join(folder)).unwrap();
            assert!(!instances.is_empty(), "{folder} has no instances");
            for instance in &instances {
                for file in instance.files() {
                    assert!(instance.dir.join(file).is_file(), "{folder}: no {file}");
                }
            }
        }
    }

    #[test]
    fn a_list_is_split_at_commas_and_keeps_the_suite_order() {
        let suite: Vec<Instance> = ["a:1", "b:2", "c:3"].into_iter().map(instance).collect();
        let picked = select(suite, &patterns("c:3, a:1").unwrap()).unwrap();
        assert_eq!(names(&picked), ["a:1", "c:3"]);
    }
}
