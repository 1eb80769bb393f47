//! `csp sudoku` and `csp color` as a user meets them: answers checked independently, JSON shapes,
//! exit codes, and one-line errors naming the line for bad input.

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

use csp::problems::coloring;
use csp::problems::dimacs;
use csp::problems::sudoku::{self, Grid};
use serde_json::Value;

const HARDEST: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/data/sudoku/norvig_hardest11.txt"
);
const NEGATIVE: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/data/sudoku/norvig_negative.txt"
);
const MYCIEL3: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/data/coloring/myciel3.col");

fn csp(args: &[&str]) -> Output {
    csp_with_input(args, None)
}

fn csp_with_input(args: &[&str], input: Option<&[u8]>) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_csp"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the csp binary runs");
    let mut stdin = child.stdin.take().expect("a pipe");
    stdin
        .write_all(input.unwrap_or_default())
        .expect("stdin accepts");
    drop(stdin);
    child.wait_with_output().expect("the csp binary finishes")
}

fn stdout(output: &Output) -> String {
    String::from_utf8(output.stdout.clone()).expect("UTF-8 output")
}

fn stderr(output: &Output) -> String {
    String::from_utf8(output.stderr.clone()).expect("UTF-8 output")
}

/// Every line of stdout as a JSON object.
fn json_lines(output: &Output) -> Vec<Value> {
    stdout(output)
        .lines()
        .map(|line| serde_json::from_str(line).expect("a JSON object per line"))
        .collect()
}

/// A file in the temporary directory holding `contents`, unique to this test.
fn temp_file(name: &str, contents: &[u8]) -> PathBuf {
    let path = std::env::temp_dir().join(format!("csp-cli-problems-{}-{name}", std::process::id()));
    std::fs::write(&path, contents).expect("the temporary directory is writable");
    path
}

/// Bad input: exit 2, one line on stderr mentioning each of `mentions`, nothing on stdout, no panic.
fn assert_bad_input(args: &[&str], input: Option<&[u8]>, mentions: &[&str]) {
    let output = csp_with_input(args, input);
    let err = stderr(&output);
    assert_eq!(output.status.code(), Some(2), "{args:?}: {err}");
    assert_eq!(err.lines().count(), 1, "{args:?}: one line, got {err:?}");
    assert!(err.starts_with("csp: "), "{args:?}: {err}");
    for mention in mentions {
        assert!(
            err.contains(mention),
            "{args:?}: {err:?} should mention {mention:?}"
        );
    }
    assert!(!err.contains("panicked") && !err.contains("RUST_BACKTRACE"));
    assert!(stdout(&output).is_empty());
}

#[test]
fn sudoku_json_solves_the_hardest_set_one_object_per_puzzle() {
    let output = csp(&["sudoku", HARDEST, "--json"]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let reports = json_lines(&output);
    let puzzles = sudoku::parse_puzzles(&std::fs::read_to_string(HARDEST).unwrap()).unwrap();
    assert_eq!(reports.len(), puzzles.len());
    for (report, puzzle) in reports.iter().zip(&puzzles) {
        assert_eq!(report["line"], puzzle.line);
        assert_eq!(report["puzzle"], puzzle.grid.to_line());
        let solution: Grid = report["solution"]
            .as_str()
            .expect("a solution")
            .parse()
            .unwrap();
        assert_eq!(sudoku::check(&puzzle.grid, &solution), Ok(()));
        assert_eq!(report["outcome"], "solved");
        assert!(report.get("solution_count").is_none(), "only with --all");
        assert_eq!(report["config"]["propagation"], "mac");
        assert!(report["stats"]["nodes"].as_u64().is_some());
    }
}

const TOP95: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/data/sudoku/norvig_top95.txt");

/// A report without its time, which is the one field threads may change.
fn untimed(mut report: Value) -> Value {
    report
        .as_object_mut()
        .expect("a report is an object")
        .remove("elapsed_ms");
    report
}

#[test]
fn sudoku_threads_give_every_puzzle_the_same_search_and_report_in_order() {
    // 95 puzzles: several batches of two threads' worth, the last one partial.
    let one = csp(&["sudoku", TOP95, "--all", "--json"]);
    let two = csp(&["sudoku", TOP95, "--all", "--json", "--threads", "2"]);
    assert_eq!(one.status.code(), Some(0), "{}", stderr(&one));
    assert_eq!(two.status.code(), Some(0), "{}", stderr(&two));
    let puzzles = sudoku::parse_puzzles(&std::fs::read_to_string(TOP95).unwrap()).unwrap();
    let (one, two) = (json_lines(&one), json_lines(&two));
    assert_eq!(two.len(), puzzles.len());
    for ((a, b), puzzle) in one.into_iter().zip(two).zip(&puzzles) {
        assert_eq!(b["line"], puzzle.line, "in the input's order");
        let solution: Grid = b["solution"].as_str().expect("a solution").parse().unwrap();
        assert_eq!(sudoku::check(&puzzle.grid, &solution), Ok(()));
        assert_eq!(untimed(a), untimed(b));
    }
}

#[test]
fn sudoku_threads_answer_the_puzzles_before_a_bad_line_then_name_it() {
    let good = std::fs::read_to_string(TOP95).unwrap();
    let good: Vec<&str> = good.lines().take(40).collect();
    let input = format!("{}\nnot a puzzle\n{}\n", good.join("\n"), good[0]);
    let output = csp_with_input(
        &["sudoku", "-", "--json", "--threads", "2"],
        Some(input.as_bytes()),
    );
    assert_eq!(output.status.code(), Some(2));
    let err = stderr(&output);
    assert!(err.starts_with("csp: ") && err.contains("line 41"), "{err}");
    let reports = json_lines(&output);
    assert_eq!(reports.len(), 40, "every puzzle before the bad line");
    assert_eq!(reports[39]["line"], 40);
}

#[test]
fn sudoku_all_proves_uniqueness_and_reports_the_negative_examples() {
    let output = csp(&["sudoku", NEGATIVE, "--all", "--json"]);
    // Line 1 has no solution, so the run as a whole ends with exit code 1.
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
    let reports = json_lines(&output);
    assert_eq!(reports.len(), 2);
    assert_eq!(reports[0]["solution"], Value::Null);
    assert_eq!(reports[0]["solution_count"], 0);
    assert_eq!(reports[0]["outcome"], "exhausted");
    assert_eq!(reports[1]["unique"], false);
    assert_eq!(reports[1]["solution_count"], 2);
    assert_ne!(reports[1]["solution"], reports[1]["second_solution"]);

    let output = csp(&["sudoku", HARDEST, "--all", "--json"]);
    assert_eq!(output.status.code(), Some(0));
    for report in json_lines(&output) {
        assert_eq!(report["unique"], true, "{report}");
        assert_eq!(report["solution_count"], 1);
    }
}

#[test]
fn sudoku_reads_standard_input_and_prints_text() {
    let line = std::fs::read_to_string(HARDEST).unwrap();
    let first = line
        .lines()
        .next()
        .unwrap()
        .split(' ')
        .next()
        .unwrap()
        .to_owned();
    let output = csp_with_input(
        &["sudoku", "-", "--propagation", "fc"],
        Some(first.as_bytes()),
    );
    assert_eq!(output.status.code(), Some(0));
    let text = stdout(&output);
    assert!(text.starts_with("line 1: "), "{text}");
    assert!(text.contains("1 puzzle(s): 1 solved"), "{text}");
    assert!(text.contains("forward checking"), "{text}");
    // A single puzzle is drawn as a grid too.
    assert!(text.contains("------+-------+------"), "{text}");
}

#[test]
fn sudoku_limit_before_an_answer_exits_3() {
    let output = csp(&[
        "sudoku",
        HARDEST,
        "--propagation",
        "fc",
        "--node-limit",
        "5",
        "--json",
    ]);
    assert_eq!(output.status.code(), Some(3));
    assert!(
        json_lines(&output)
            .iter()
            .any(|r| r["outcome"] == "limit" && r["limit"] == "nodes")
    );
}

#[test]
fn sudoku_bad_input_names_the_line_and_what_is_wrong() {
    let good = std::fs::read_to_string(HARDEST).unwrap();
    let good = good.lines().next().unwrap().split(' ').next().unwrap();
    // Puzzles are answered as they are read, so a bad line after a good one comes after its answer
    // (tests/cli_input.rs); here the bad line comes first.
    let short = format!("# comment\n\n{}\n{good}\n", &good[..80]);
    assert_bad_input(
        &["sudoku", "-"],
        Some(short.as_bytes()),
        &["line 3", "expected 81 cells, found 80"],
    );
    let bad_char = format!("# comment\n{}?{}\n", &good[..40], &good[41..]);
    assert_bad_input(
        &["sudoku", "-"],
        Some(bad_char.as_bytes()),
        &["line 2", "column 41", "'?'"],
    );
    assert_bad_input(
        &["sudoku", "-"],
        Some(b"\n# only a comment\n"),
        &["no puzzle"],
    );
    let not_utf8 = temp_file("latin1.txt", b"# ok\n# caf\xe9\n");
    assert_bad_input(
        &["sudoku", not_utf8.to_str().unwrap()],
        None,
        &["line 2", "UTF-8"],
    );
    assert_bad_input(&["sudoku", "/no/such/file.txt"], None, &["cannot read"]);
    assert_bad_input(
        &["sudoku", HARDEST, "--order", "sideways"],
        None,
        &["sideways"],
    );
}

#[test]
fn color_min_json_proves_myciel3_needs_four_colours() {
    let output = csp(&["color", MYCIEL3, "--min", "--json"]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let report: Value = serde_json::from_str(&stdout(&output)).expect("one JSON object");
    assert_eq!(report["colors"], 4);
    assert_eq!(report["optimal"], true);
    assert_eq!(report["vertices"], 11);
    assert_eq!(report["edges"], 20);
    let coloring: Vec<u32> = serde_json::from_value(report["coloring"].clone()).unwrap();
    let graph = dimacs::parse(&std::fs::read_to_string(MYCIEL3).unwrap()).unwrap();
    assert_eq!(coloring::check(&graph, &coloring, 4), Ok(()));
    let attempts = report["attempts"].as_array().unwrap();
    assert_eq!(attempts.last().unwrap()["status"], "no_coloring");
    assert_eq!(attempts.last().unwrap()["colors"], 3);
    assert_eq!(report["config"]["order"], "dom-wdeg");
}

#[test]
fn color_on_two_threads_proves_and_colours_as_one_does() {
    let path = |name: &str| format!("{}/data/coloring/{name}", env!("CARGO_MANIFEST_DIR"));
    // Mycielski graphs: chromatic numbers 5 and 6, so one colour fewer is proven impossible.
    for (name, colors) in [("myciel4.col", "4"), ("myciel5.col", "5")] {
        let output = csp(&["color", &path(name), "--colors", colors, "--threads", "2"]);
        assert_eq!(output.status.code(), Some(1), "{name}: {}", stderr(&output));
        assert!(
            stdout(&output).contains(&format!(
                "no colouring with {colors} colours exists (proven)"
            )),
            "{name}: {}",
            stdout(&output)
        );
    }
    // A planted 5-colouring that greedy colouring misses: the threads search for it.
    let file = path("le450_5a.col");
    let output = csp(&["color", &file, "--colors", "5", "--threads", "2", "--json"]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let report: Value = serde_json::from_str(&stdout(&output)).unwrap();
    let coloring: Vec<u32> = report["coloring"]
        .as_array()
        .expect("a colouring")
        .iter()
        .map(|c| c.as_u64().unwrap() as u32)
        .collect();
    let graph =
        dimacs::parse_reader(std::io::BufReader::new(std::fs::File::open(&file).unwrap())).unwrap();
    assert_eq!(coloring::check(&graph, &coloring, 5), Ok(()));
    assert_bad_input(
        &["color", MYCIEL3, "--min", "--threads", "2"],
        None,
        &["--threads"],
    );
}

#[test]
fn color_with_k_colours_answers_or_proves_that_none_exists() {
    let output = csp(&["color", MYCIEL3, "--colors", "4", "--json"]);
    assert_eq!(output.status.code(), Some(0));
    let report: Value = serde_json::from_str(&stdout(&output)).unwrap();
    assert_eq!(report["colors"], 4);
    assert_eq!(report["coloring"].as_array().map(Vec::len), Some(11));
    assert!(report.get("optimal").is_none(), "only with --min");

    let output = csp(&["color", MYCIEL3, "--colors", "3"]);
    assert_eq!(output.status.code(), Some(1));
    assert!(stdout(&output).contains("no colouring with 3 colours exists (proven)"));
    let output = csp(&["color", MYCIEL3, "--colors", "3", "--json"]);
    let report: Value = serde_json::from_str(&stdout(&output)).unwrap();
    assert_eq!(report["coloring"], Value::Null);

    let input = std::fs::read(MYCIEL3).unwrap();
    let output = csp_with_input(
        &[
            "color",
            "-",
            "--colors",
            "5",
            "--order",
            "min",
            "--propagation",
            "fc",
        ],
        Some(&input),
    );
    assert_eq!(output.status.code(), Some(0));
    assert!(stdout(&output).contains("MIN (ties low), values asc, forward checking"));
}

#[test]
fn color_bad_input_names_the_line_and_what_is_wrong() {
    let cases: [(&[u8], &[&str]); 6] = [
        (b"c no header\ne 1 2\n", &["line 2", "missing header"]),
        (
            b"p edge 3 2\ne 1 2\ne 2 4\n",
            &["line 3", "vertex 4", "1 to 3"],
        ),
        (b"p edge 3 1\ne 1 x\n", &["line 2", "bad edge"]),
        (b"p edge 3 1\np edge 3 1\n", &["line 2", "second header"]),
        (b"p edge 3 1\nq 1 2\n", &["line 2", "unknown line"]),
        (b"c nothing\n", &["line 2", "missing header"]),
    ];
    for (input, mentions) in cases {
        assert_bad_input(&["color", "-", "--colors", "3"], Some(input), mentions);
    }
    assert_bad_input(&["color", MYCIEL3], None, &["--colors"]);
    assert_bad_input(
        &["color", MYCIEL3, "--colors", "3", "--min"],
        None,
        &["--min"],
    );
    assert_bad_input(&["color", MYCIEL3, "--colors", "-1"], None, &["-1"]);
}

#[test]
fn queens_accepts_mac_and_dom_wdeg_with_its_defaults_unchanged() {
    let output = csp(&[
        "queens",
        "solve",
        "8",
        "--propagation",
        "mac",
        "--order",
        "dom-wdeg",
        "--json",
    ]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let report: Value = serde_json::from_str(&stdout(&output)).unwrap();
    assert_eq!(report["config"]["propagation"], "mac");
    assert_eq!(report["config"]["order"], "dom-wdeg");
    let placement: Vec<u32> = serde_json::from_value(report["solutions"][0].clone()).unwrap();
    assert!(csp::nqueens::verify(&placement).is_ok());
    let output = csp(&["queens", "count", "8", "--propagation", "mac", "--json"]);
    let report: Value = serde_json::from_str(&stdout(&output)).unwrap();
    assert_eq!(report["solution_count"], 92);
}
