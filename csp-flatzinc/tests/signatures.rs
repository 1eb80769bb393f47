//! The builtin table's signatures against MiniZinc's own declarations: the repository's solver
//! library (`minizinc/mznlib`, which declares the globals the table posts natively) always, and
//! MiniZinc's `flatzinc_builtins.mzn` when `CSP_MINIZINC_STD` names its `std` folder (the MiniZinc
//! round trip of `.ci/run` sets it). A wrong signature would refuse good FlatZinc or let bad
//! arguments through to a constraint's poster.

use std::path::Path;

use csp_flatzinc::builtins::BUILTINS;
use csp_flatzinc::types::Type;

/// Every `predicate name(params)` declaration in the text, with its parameter types.
fn declarations(text: &str) -> Vec<(String, Vec<Type>)> {
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(at) = rest.find("predicate ") {
        rest = &rest[at + "predicate ".len()..];
        let Some(open) = rest.find('(') else { break };
        let name = rest[..open].trim().to_owned();
        // The parameters end at the parenthesis that closes the first.
        let mut depth = 0;
        let mut close = None;
        for (i, c) in rest[open..].char_indices() {
            match c {
                '(' => depth += 1,
                ')' => {
                    depth -= 1;
                    if depth == 0 {
                        close = Some(open + i);
                        break;
                    }
                }
                _ => {}
            }
        }
        let Some(close) = close else { break };
        let params = &rest[open + 1..close];
        rest = &rest[close..];
        let types: Option<Vec<Type>> = split_top_level(params)
            .into_iter()
            .filter(|p| !p.trim().is_empty())
            .map(|param| {
                // `array[int, int] of int: t` is a one-dimensional array in FlatZinc.
                let ty = param.split(':').next().unwrap_or_default();
                let ty = ty.replace("int, int]", "int]").replace("int,int]", "int]");
                ty.parse().ok()
            })
            .collect();
        if let Some(types) = types
            && name.chars().all(|c| c.is_alphanumeric() || c == '_')
        {
            out.push((name, types));
        }
    }
    out
}

/// Splits at the commas outside brackets and parentheses.
fn split_top_level(text: &str) -> Vec<&str> {
    let mut parts = Vec::new();
    let (mut depth, mut start) = (0i32, 0);
    for (i, c) in text.char_indices() {
        match c {
            '[' | '(' => depth += 1,
            ']' | ')' => depth -= 1,
            ',' if depth == 0 => {
                parts.push(&text[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    parts.push(&text[start..]);
    parts
}

/// Checks every builtin declared in `declared` against the table; returns how many were compared.
fn compare(declared: &[(String, Vec<Type>)], source: &str) -> usize {
    let mut compared = 0;
    for builtin in BUILTINS {
        let ours: Vec<Type> = builtin.parameters().collect();
        assert_eq!(ours.len(), builtin.arity, "{}", builtin.name);
        for (name, theirs) in declared {
            // MiniZinc also declares forms over set variables (`var set of int`), which the engine
            // does not have (`nosets.mzn` rewrites them); every other form must be the table's.
            let set_variable = theirs
                .iter()
                .any(|t| t.var && t.base == Some(csp_flatzinc::types::Base::Set));
            if name == builtin.name && theirs.len() == builtin.arity && !set_variable {
                assert_eq!(
                    &ours, theirs,
                    "{}: the table says ({}), {source} declares otherwise",
                    builtin.name, builtin.signature
                );
                compared += 1;
            }
        }
    }
    compared
}

#[test]
fn the_solver_library_declares_what_the_table_posts() {
    let library = Path::new(env!("CARGO_MANIFEST_DIR")).join("../minizinc/mznlib");
    let mut declared = Vec::new();
    for entry in std::fs::read_dir(&library).unwrap() {
        let text = std::fs::read_to_string(entry.unwrap().path()).unwrap();
        declared.extend(declarations(&text));
    }
    let compared = compare(&declared, "minizinc/mznlib");
    // The globals and the half reifications the library declares.
    assert!(compared >= 20, "only {compared} declarations compared");
}

#[test]
fn every_signature_parses_and_matches_minizinc_when_its_library_is_named() {
    for builtin in BUILTINS {
        assert_eq!(
            builtin.parameters().count(),
            builtin.arity,
            "{}",
            builtin.name
        );
    }
    if let Some(std) = std::env::var_os("CSP_MINIZINC_STD") {
        let text = std::fs::read_to_string(Path::new(&std).join("flatzinc_builtins.mzn"))
            .expect("CSP_MINIZINC_STD names MiniZinc's std folder");
        let compared = compare(&declarations(&text), "flatzinc_builtins.mzn");
        assert!(compared >= 40, "only {compared} declarations compared");
    }
}
