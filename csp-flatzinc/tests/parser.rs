//! The reader under malformed, random and mutated input: errors with their line and column, and never
//! a panic, from the parser or from compiling what it read.

use csp_flatzinc::{Error, compile, parse};
use proptest::prelude::*;

/// A small model using most of the syntax: parameters, sets, arrays, annotations, a search.
const MODEL: &str = "\
% a comment
predicate my_pred(array [int] of var int: xs);
int: n = 3;
set of int: S = {1, 3, 5};
array [1..3] of int: coeffs = [1, -2, 0x3];
var 1..5: x :: output_var;
var {1, 3, 5}: y :: output_var;
var bool: b;
var int: z :: is_defined_var;
array [1..2] of var int: pair :: output_array([1..2]) = [x, y];
constraint int_lin_eq(coeffs, [x, y, z], 0) :: defines_var(z);
constraint set_in(x, S);
constraint int_le_reif(x, y, b);
constraint bool_clause([b], []);
solve :: seq_search([int_search(pair, first_fail, indomain_min, complete)]) minimize z;
";

fn syntax_at(text: &str) -> (u32, u32) {
    match parse(text) {
        Err(Error::Syntax { line, column, .. }) => (line, column),
        other => panic!("expected a syntax error, got {other:?}"),
    }
}

#[test]
fn the_sample_model_parses_and_solves() {
    let fzn = parse(MODEL).unwrap();
    assert_eq!(fzn.decls.len(), 8);
    assert_eq!(fzn.constraints.len(), 4);
    let compiled = compile(MODEL).unwrap();
    let result = csp_search::solve(compiled.model(), &compiled.search_config(false), ());
    assert_eq!(result.outcome, csp_search::Outcome::Optimal);
    let solution = result.solution.unwrap();
    assert!(compiled.verify(&solution).is_ok());
    // x - 2y + 3z = 0, x ≤ y, minimise z: x = 1, y = 5 gives 3z = 9; x = 3, y = 5 … the least z
    // over the allowed pairs.
    assert_eq!(compiled.objective_value(&solution), Some(1));
}

#[test]
fn errors_name_the_line_and_column() {
    assert_eq!(syntax_at("var 1..3: x\nsolve satisfy;\n"), (2, 1));
    assert_eq!(syntax_at("var 1..3: x;\nconstraint int_le(x, ;\n"), (2, 22));
    assert_eq!(syntax_at("var 1..3: x;\n"), (2, 1));
    assert_eq!(
        syntax_at("var 1..3: x;\nsolve satisfy;\nsolve satisfy;\n"),
        (3, 1)
    );
    assert_eq!(
        syntax_at("int: n = 99999999999999999999;\nsolve satisfy;\n"),
        (1, 10)
    );
    assert_eq!(syntax_at("var 1..3: x @;\n"), (1, 13));
    assert_eq!(syntax_at("constraint f(\"open);\n"), (1, 14));
    let message = parse("var 1..3 x;").unwrap_err().to_string();
    assert_eq!(message, "line 1, column 10: expected `:`, found `x`");
}

#[test]
fn semantic_errors_name_the_line() {
    let error = compile("var 1..3: x;\nconstraint int_le(x, w);\nsolve satisfy;\n").unwrap_err();
    assert_eq!(error.to_string(), "line 2: unknown name `w`");
    let error = compile("var 1..3: x;\nconstraint int_le(x);\nsolve satisfy;\n").unwrap_err();
    assert_eq!(
        error.to_string(),
        "line 2: `int_le` takes 2 arguments (`int_le(var int, var int)`), not 1"
    );
    let error =
        compile("var 1..3: x;\nconstraint no_such_thing(x);\nsolve satisfy;\n").unwrap_err();
    assert_eq!(
        error.to_string(),
        "line 2: unsupported constraint `no_such_thing`"
    );
    let error = compile("var 1..3000000000: x;\nsolve satisfy;\n").unwrap_err();
    assert!(
        error
            .to_string()
            .contains("exceeds the engine's 32-bit values"),
        "{error}"
    );
    let error = compile("var 1..3: x;\nconstraint int_lin_eq([1, 2], [x], 1);\nsolve satisfy;\n")
        .unwrap_err();
    assert_eq!(error.line(), 2);
}

#[test]
fn deep_nesting_is_refused_not_overflowed() {
    let deep = format!(
        "int: n = {}1{};\n",
        "[".repeat(100_000),
        "]".repeat(100_000)
    );
    assert!(matches!(parse(&deep), Err(Error::Syntax { .. })));
}

/// Every prefix of a valid model: the reader must stop cleanly wherever the text ends.
#[test]
fn every_truncation_of_a_valid_model_is_handled() {
    for end in 0..MODEL.len() {
        if MODEL.is_char_boundary(end) {
            let _ = compile(&MODEL[..end]);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn random_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..400)) {
        let text = String::from_utf8_lossy(&bytes);
        let _ = compile(&text);
    }

    #[test]
    fn random_flatzinc_tokens_never_panic(tokens in prop::collection::vec(
        prop::sample::select(vec![
            "var", "int", "bool", "array", "[", "]", "of", "1..3", "{", "}", "1", "-7", ",", ":",
            "::", ";", "=", "(", ")", "x", "y", "constraint", "int_lin_eq", "int_le", "set_in",
            "solve", "satisfy", "minimize", "maximize", "output_var", "output_array", "int_search",
            "seq_search", "2.5", "\"s\"", "true", "false", "predicate", "%c\n", "\n", "set",
            "array_var_int_element", "int_times", "fzn_all_different_int", "bool_clause",
        ]),
        0..60,
    )) {
        let _ = compile(&tokens.join(" "));
    }

    #[test]
    fn mutated_models_never_panic(
        edits in prop::collection::vec((any::<prop::sample::Index>(), any::<char>(), 0..3u8), 1..8)
    ) {
        let mut text: Vec<char> = MODEL.chars().collect();
        for (at, c, kind) in edits {
            let i = at.index(text.len() + 1);
            match kind {
                0 => text.insert(i, c),
                1 if i < text.len() => { text.remove(i); }
                _ if i < text.len() => text[i] = c,
                _ => {}
            }
        }
        let text: String = text.into_iter().collect();
        if let Err(error) = compile(&text) {
            prop_assert!(error.line() >= 1);
        }
    }
}
