//! Both parsers fed random and mutated input: they never panic, and a failure names the first bad
//! line, as an independent restatement of each format decides it.
//!
//! The number of cases per property is `PARSER_FUZZ_CASES` (default 2,000, so that the suite stays
//! fast); a long run is `PARSER_FUZZ_CASES=1000000 cargo test -p csp-problems --test parsers`.

use csp_problems::dimacs::{self, DimacsErrorKind};
use csp_problems::sudoku::{self, LineError, SudokuError};
use proptest::prelude::*;
use proptest::test_runner::FileFailurePersistence;

const TOP95: &str = include_str!("../../data/sudoku/norvig_top95.txt");
const MYCIEL4: &str = include_str!("../../data/coloring/myciel4.col");

fn config() -> ProptestConfig {
    let cases = std::env::var("PARSER_FUZZ_CASES")
        .ok()
        .and_then(|c| c.parse().ok())
        .unwrap_or(2_000);
    ProptestConfig {
        cases,
        failure_persistence: Some(Box::new(FileFailurePersistence::Direct(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/proptest-regressions/parsers.txt"
        )))),
        ..ProptestConfig::default()
    }
}

/// An edit of a text, applied at a position given as a fraction of its length.
#[derive(Debug, Clone)]
enum Mutation {
    /// Replace the character there.
    Replace(f64, char),
    /// Insert a character there.
    Insert(f64, char),
    /// Delete the character there.
    Delete(f64),
    /// Duplicate the line there.
    DuplicateLine(f64),
    /// Delete the line there.
    DeleteLine(f64),
}

/// Characters that matter to either format, and some that do not.
fn interesting_char() -> impl Strategy<Value = char> {
    prop_oneof![
        prop::sample::select(vec![
            '.', '0', '1', '5', '9', 'x', ' ', '\t', '\n', '\r', '#', 'c', 'e', 'p', '-', '+', 'é',
            '\u{feff}', '\u{0}'
        ]),
        any::<char>(),
    ]
}

fn mutation() -> impl Strategy<Value = Mutation> {
    let at = 0.0..1.0f64;
    prop_oneof![
        (at.clone(), interesting_char()).prop_map(|(a, c)| Mutation::Replace(a, c)),
        (at.clone(), interesting_char()).prop_map(|(a, c)| Mutation::Insert(a, c)),
        at.clone().prop_map(Mutation::Delete),
        at.clone().prop_map(Mutation::DuplicateLine),
        at.prop_map(Mutation::DeleteLine),
    ]
}

fn apply(text: &str, mutations: &[Mutation]) -> String {
    let mut chars: Vec<char> = text.chars().collect();
    for mutation in mutations {
        let index = |a: f64, len: usize| ((a * len as f64) as usize).min(len.saturating_sub(1));
        match *mutation {
            Mutation::Replace(a, c) if !chars.is_empty() => {
                let i = index(a, chars.len());
                chars[i] = c;
            }
            Mutation::Insert(a, c) => {
                let i = index(a, chars.len() + 1);
                chars.insert(i, c);
            }
            Mutation::Delete(a) if !chars.is_empty() => {
                let i = index(a, chars.len());
                chars.remove(i);
            }
            Mutation::DuplicateLine(a) | Mutation::DeleteLine(a) => {
                let text: String = chars.iter().collect();
                let mut lines: Vec<&str> = text.split('\n').collect();
                let i = index(a, lines.len());
                if matches!(mutation, Mutation::DuplicateLine(_)) {
                    lines.insert(i, lines[i]);
                } else {
                    lines.remove(i);
                }
                chars = lines.join("\n").chars().collect();
            }
            _ => {}
        }
    }
    chars.into_iter().collect()
}

/// The sudoku format restated: whether a line is skipped, a puzzle, or bad.
fn sudoku_line_is_bad(line: &str) -> bool {
    let line = line.trim();
    if line.is_empty() || line.starts_with('#') {
        return false;
    }
    let field = line.split(char::is_whitespace).next().unwrap_or("");
    !(field.chars().count() == 81 && field.chars().all(|c| c == '.' || c.is_ascii_digit()))
}

/// Checks `parse_puzzles` on `text` against the restatement.
fn check_sudoku(text: &str) -> Result<(), TestCaseError> {
    let text_without_bom = text.strip_prefix('\u{feff}').unwrap_or(text);
    let lines: Vec<&str> = text_without_bom.lines().collect();
    let first_bad = lines.iter().position(|l| sudoku_line_is_bad(l));
    match sudoku::parse_puzzles(text) {
        Ok(puzzles) => {
            prop_assert_eq!(first_bad, None);
            prop_assert!(!puzzles.is_empty());
            for puzzle in &puzzles {
                let line = lines[puzzle.line - 1].trim();
                let field = line.split(char::is_whitespace).next().unwrap_or("");
                prop_assert_eq!(puzzle.grid.to_line(), field.replace('0', "."));
            }
        }
        Err(SudokuError::Line { line, error }) => {
            prop_assert_eq!(Some(line - 1), first_bad, "{}", error);
            let bad_line = lines[line - 1];
            if let LineError::BadCharacter { column, found } = error {
                let at = bad_line.chars().nth(column - 1);
                prop_assert_eq!(at, Some(found), "column {} of {:?}", column, bad_line);
                prop_assert!(!(found == '.' || found.is_ascii_digit()));
            }
            prop_assert_eq!(
                error.to_string().lines().count(),
                1,
                "one line: {:?}",
                error.to_string()
            );
        }
        Err(SudokuError::NoPuzzles) => {
            prop_assert_eq!(first_bad, None);
            let skipped = |l: &&str| l.trim().is_empty() || l.trim().starts_with('#');
            prop_assert!(lines.iter().all(skipped), "no puzzle in {:?}", text);
        }
        Err(other) => prop_assert!(false, "unexpected error {other:?}"),
    }
    Ok(())
}

/// Checks `dimacs::parse` on `text`: a failure at line `L` is the first failure, as parsing the lines
/// before it and the lines up to it shows.
fn check_dimacs(text: &str) -> Result<(), TestCaseError> {
    let lines: Vec<&str> = text.lines().collect();
    match dimacs::parse(text) {
        Ok(graph) => {
            prop_assert!(
                graph
                    .edges()
                    .iter()
                    .all(|&(u, v)| u < v && v < graph.vertices())
            );
        }
        Err(error) => {
            prop_assert_eq!(error.to_string().lines().count(), 1);
            prop_assert!(
                error.line >= 1 && error.line <= lines.len() + 1,
                "{}",
                error
            );
            if error.line <= lines.len() {
                let before = lines[..error.line - 1].join("\n");
                // Only the missing header can be held against the earlier lines (at their end).
                if let Err(e) = dimacs::parse(&before) {
                    prop_assert!(
                        e.kind == DimacsErrorKind::MissingHeader,
                        "the lines before line {} already fail: {}",
                        error.line,
                        e
                    );
                }
                let through = lines[..error.line].join("\n");
                let again = dimacs::parse(&through).expect_err("the same line fails again");
                prop_assert_eq!(again, error);
            } else {
                prop_assert_eq!(error.kind, DimacsErrorKind::MissingHeader);
            }
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn sudoku_files_with_mutations_fail_at_their_first_bad_line(
        mutations in prop::collection::vec(mutation(), 0..4),
        start in 0..95usize,
        count in 1..6usize,
    ) {
        let lines: Vec<&str> = TOP95.lines().skip(start).take(count).collect();
        check_sudoku(&apply(&lines.join("\n"), &mutations))?;
    }

    #[test]
    fn sudoku_random_text_never_panics(text in ".{0,300}") {
        check_sudoku(&text)?;
    }

    #[test]
    fn dimacs_files_with_mutations_fail_at_their_first_bad_line(
        mutations in prop::collection::vec(mutation(), 0..4),
    ) {
        check_dimacs(&apply(MYCIEL4, &mutations))?;
    }

    #[test]
    fn dimacs_random_lines_never_panic(
        lines in prop::collection::vec(
            prop_oneof![
                Just("p edge 5 3".to_owned()),
                "p [a-z]{0,6} [0-9]{0,3} [0-9]{0,3}",
                "e [0-9]{1,2} [0-9]{1,2}",
                "e -?[0-9]{0,20} [0-9]{0,3}( [0-9])?",
                "c .{0,10}",
                ".{0,20}",
            ],
            0..12,
        ),
    ) {
        check_dimacs(&lines.join("\n"))?;
    }
}

#[test]
fn sudoku_errors_name_the_line_and_what_is_wrong() {
    let puzzle = TOP95.lines().next().unwrap().split(' ').next().unwrap();
    let error = sudoku::parse_puzzles(&format!("# comment\n{puzzle}\n\n12345\n")).unwrap_err();
    assert_eq!(error.to_string(), "line 4: expected 81 cells, found 5");
    let bad = format!("{}x{}", &puzzle[..10], &puzzle[11..]);
    let error = sudoku::parse_puzzles(&format!("{puzzle}\n  {bad}\n")).unwrap_err();
    assert_eq!(
        error.to_string(),
        "line 2: column 13: 'x' is not a cell (a digit 1-9, or '.' or '0' for a blank)"
    );
    assert_eq!(
        sudoku::parse_puzzles("\n# nothing\n").unwrap_err(),
        SudokuError::NoPuzzles
    );
    let puzzles = sudoku::parse_puzzles(&format!("{puzzle} 0 extra\r\n")).unwrap();
    assert_eq!(puzzles[0].note.as_deref(), Some("0 extra"));
}
