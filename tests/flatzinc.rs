//! The FlatZinc front end on models MiniZinc compiled from public benchmark instances
//! (`tests/fzn/`, answers in `tests/fzn/EXPECTED.tsv`): each is solved through the library, with the
//! model's search annotations and with free search, every solution is verified, and the status,
//! optimum or solution count must be the documented one.

use std::path::Path;

use csp::flatzinc::{Compiled, compile};
use csp::search::{Outcome, Search, SearchConfig};

/// What an instance's answer is.
#[derive(Debug)]
enum Expected {
    Sat,
    Unsat,
    Optimum(i64),
    Count(u64),
}

fn instances() -> Vec<(String, Expected)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fzn");
    let table = std::fs::read_to_string(dir.join("EXPECTED.tsv")).unwrap();
    table
        .lines()
        .filter(|l| !l.starts_with('#'))
        .skip(1)
        .map(|line| {
            let fields: Vec<&str> = line.split('\t').collect();
            let expected = match (fields[1], fields[2]) {
                ("satisfy", "SAT") => Expected::Sat,
                ("satisfy", "UNSAT") => Expected::Unsat,
                ("count", n) => Expected::Count(n.parse().unwrap()),
                (_, value) => Expected::Optimum(value.parse().unwrap()),
            };
            (fields[0].to_owned(), expected)
        })
        .collect()
}

fn load(file: &str) -> Compiled {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fzn")
        .join(file);
    let text = std::fs::read_to_string(path).unwrap();
    compile(&text).unwrap_or_else(|e| panic!("{file}: {e}"))
}

/// Runs one search to its end, verifying every solution; returns the outcome, the number of
/// solutions and the last objective.
fn run(compiled: &Compiled, config: &SearchConfig) -> (Outcome, u64, Option<i64>) {
    let mut search = Search::new(compiled.model(), config);
    let (mut count, mut objective) = (0, None);
    while let Some(values) = search.next_solution(&mut ()) {
        if let Err(e) = compiled.verify(values) {
            panic!("a solution failed verification: {e}");
        }
        count += 1;
        objective = compiled.objective_value(values);
        // Rendering must not fail either.
        assert!(compiled.output().format(values).ends_with(";\n"));
    }
    (search.outcome().unwrap(), count, objective)
}

fn check(file: &str, expected: &Expected, free: bool) {
    let compiled = load(file);
    let mut config = compiled.search_config(free);
    if matches!(expected, Expected::Sat) {
        config = config.first(1);
    } else {
        config = config.all_solutions();
    }
    let (outcome, count, objective) = run(&compiled, &config);
    let what = format!("{file} (free search: {free})");
    match *expected {
        Expected::Sat => assert!(count >= 1, "{what}: no solution, {outcome:?}"),
        Expected::Unsat => {
            assert_eq!((outcome, count), (Outcome::Exhausted, 0), "{what}")
        }
        Expected::Optimum(value) => {
            assert_eq!(outcome, Outcome::Optimal, "{what}");
            assert_eq!(objective, Some(value), "{what}");
        }
        Expected::Count(n) => {
            assert_eq!((outcome, count), (Outcome::Exhausted, n), "{what}")
        }
    }
}

#[test]
fn every_committed_model_gets_its_documented_answer_with_its_annotations() {
    let all = instances();
    assert!(all.len() >= 12, "a dozen models at least");
    for (file, expected) in &all {
        check(file, expected, false);
    }
}

#[test]
fn every_committed_model_gets_its_documented_answer_under_free_search() {
    for (file, expected) in &instances() {
        check(file, expected, true);
    }
}

#[test]
fn every_builtin_the_committed_models_use_is_in_the_table() {
    // The table is the one place FlatZinc names are mapped; a model that compiled proves its names
    // are there, and this keeps the count of distinct builtins they exercise from shrinking unseen.
    let mut names = std::collections::BTreeSet::new();
    for (file, _) in &instances() {
        let path = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/fzn")
            .join(file);
        let text = std::fs::read_to_string(path).unwrap();
        for item in csp::flatzinc::parse(&text).unwrap().constraints {
            names.insert(item.name.to_owned());
        }
    }
    for name in &names {
        assert!(
            csp::flatzinc::builtins::BUILTINS
                .iter()
                .any(|b| b.name == name),
            "{name}"
        );
    }
    assert!(names.len() >= 15, "{names:?}");
}
