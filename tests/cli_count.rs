//! `csp queens count` on the fast counter and `csp queens merge`, as a user meets them: answers, JSON,
//! shards across "machines", a count killed and resumed, and one-line errors for bad input.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;

mod common;

use common::json;

fn csp(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_csp"))
        .args(args)
        .output()
        .expect("the csp binary runs")
}

fn stdout(output: &Output) -> String {
    String::from_utf8(output.stdout.clone()).expect("UTF-8 output")
}

fn stderr(output: &Output) -> String {
    String::from_utf8(output.stderr.clone()).expect("UTF-8 output")
}

/// Bad input: exit 2 and exactly one line on stderr naming the problem; never a panic.
fn assert_bad_input(args: &[&str], mentions: &str) {
    let output = csp(args);
    let err = stderr(&output);
    assert_eq!(output.status.code(), Some(2), "{args:?}: {err}");
    assert_eq!(err.lines().count(), 1, "{args:?}: one line, got {err:?}");
    assert!(err.starts_with("csp: "), "{args:?}: {err}");
    assert!(
        err.contains(mentions),
        "{args:?}: {err:?} should mention {mentions:?}"
    );
    assert!(!err.contains("panicked") && !err.contains("RUST_BACKTRACE"));
    assert!(stdout(&output).is_empty());
}

/// A fresh path under Cargo's scratch directory for integration tests.
fn scratch(name: &str) -> PathBuf {
    let path = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("cli-count-{name}.json"));
    let _ = std::fs::remove_file(&path);
    path
}

fn text(path: &Path) -> &str {
    path.to_str().expect("a UTF-8 path")
}

#[test]
fn the_default_count_gives_every_and_essentially_distinct_solutions() {
    let output = csp(&["queens", "count", "10"]);
    assert_eq!(output.status.code(), Some(0));
    let out = stdout(&output);
    // OEIS A000170 and A002562 at n = 10.
    assert!(
        out.starts_with("10-queens: 724 solutions, 92 essentially distinct"),
        "{out}"
    );
    assert!(out.contains("nodes/s"), "{out}");

    let report = json(&["queens", "count", "12", "--json"], 0);
    assert_eq!(report["method"], "fast");
    assert_eq!(report["outcome"], "exhausted");
    assert_eq!(report["solution_count"], 14200);
    assert_eq!(report["unique_count"], 1787);
    assert_eq!(report["answer"], 14200);
    assert!(report["nodes_per_second"].as_f64().unwrap() >= 0.0);
    assert!(report["elapsed_ms"].as_f64().unwrap() >= 0.0);

    let unique = json(&["queens", "count", "12", "--unique", "--json"], 0);
    assert_eq!(unique["count"], "unique");
    assert_eq!(unique["answer"], 1787);
    let output = csp(&["queens", "count", "12", "--unique"]);
    assert!(
        stdout(&output)
            .starts_with("12-queens: 1787 essentially distinct solutions (14200 in all)")
    );
}

#[test]
fn nodes_and_torus_counts() {
    // Stone & Stone's Table 1: the full LEX tree for 12 queens has 856,189 nodes, root included.
    let nodes = json(
        &[
            "queens",
            "count",
            "12",
            "--nodes",
            "--json",
            "--threads",
            "2",
        ],
        0,
    );
    assert_eq!(nodes["answer"], 856_189);
    assert_eq!(nodes["node_count"], 856_189);
    assert_eq!(nodes["solution_count"], 14200);
    // OEIS A051906 at n = 13 and 12.
    let torus = json(&["queens", "count", "13", "--torus", "--json"], 0);
    assert_eq!(torus["answer"], 4524);
    let none = json(&["queens", "count", "12", "--torus", "--json"], 1);
    assert_eq!(none["solution_count"], 0);
    assert_eq!(none["outcome"], "exhausted");
}

#[test]
fn search_options_still_run_the_engine() {
    let report = json(&["queens", "count", "8", "--order", "lex", "--json"], 0);
    assert_eq!(report["solution_count"], 92);
    assert!(
        report["stats"]["nodes"].as_u64().is_some(),
        "the engine's statistics"
    );
    assert!(report.get("method").is_none());
}

#[test]
fn bad_counts_are_one_line_errors_with_exit_2() {
    assert_bad_input(&["queens", "count", "33"], "maximum is 32");
    assert_bad_input(&["queens", "count", "8", "--shard", "3/3"], "no shard 3/3");
    assert_bad_input(&["queens", "count", "8", "--shard", "1of3"], "i/k");
    assert_bad_input(&["queens", "count", "8", "--threads", "0"], "--threads");
    assert_bad_input(&["queens", "count", "8", "--nodes", "--torus"], "--torus");
    assert_bad_input(
        &["queens", "count", "8", "--order", "lex", "--threads", "2"],
        "fast counter",
    );
    assert_bad_input(
        &["queens", "count", "8", "--checkpoint-interval", "2"],
        "--checkpoint",
    );
    let garbage = scratch("garbage");
    std::fs::write(&garbage, "not json").unwrap();
    assert_bad_input(
        &["queens", "count", "8", "--checkpoint", text(&garbage)],
        "not a usable count checkpoint",
    );
    assert_bad_input(
        &["queens", "merge", text(&garbage)],
        "not a usable count checkpoint",
    );
    assert_bad_input(
        &["queens", "merge", "/nonexistent/shard.json"],
        "cannot read",
    );
    assert_bad_input(&["queens", "merge"], "FILES");
    assert_bad_input(
        &[
            "queens",
            "count",
            "8",
            "--checkpoint",
            "/nonexistent/dir/c.json",
        ],
        "cannot write checkpoint",
    );
}

/// Runs shard i/k of an n-queens count into its own file, as one machine of a job array would.
fn run_shard(n: &str, i: usize, k: usize, name: &str) -> PathBuf {
    let path = scratch(&format!("{name}-{i}-of-{k}"));
    let shard = format!("{i}/{k}");
    let output = csp(&[
        "queens",
        "count",
        n,
        "--shard",
        &shard,
        "--checkpoint",
        text(&path),
    ]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert!(
        stdout(&output).contains(&format!("shard {shard}")),
        "{}",
        stdout(&output)
    );
    path
}

#[test]
fn shards_merge_to_the_whole_count_and_merge_refuses_a_missing_or_repeated_shard() {
    let files: Vec<PathBuf> = (0..3).map(|i| run_shard("12", i, 3, "merge")).collect();
    let names: Vec<&str> = files.iter().map(|p| text(p)).collect();

    let mut args = vec!["queens", "merge", "--json"];
    args.extend(&names);
    let merged = json(&args, 0);
    assert_eq!(merged["solution_count"], 14200);
    assert_eq!(merged["unique_count"], 1787);
    assert_eq!(merged["shards"], 3);
    let output = csp(&["queens", "merge", names[2], names[0], names[1]]);
    assert!(stdout(&output).starts_with("12-queens: 14200 solutions, 1787 essentially distinct"));

    assert_bad_input(
        &["queens", "merge", names[0], names[2]],
        "1 of 3 shards missing: 1/3",
    );
    assert_bad_input(
        &["queens", "merge", names[0], names[1], names[1], names[2]],
        "shard 1/3 is given twice",
    );
    let other = run_shard("11", 1, 3, "merge-other");
    assert_bad_input(
        &["queens", "merge", names[0], text(&other), names[2]],
        "different counts",
    );
    for file in files.iter().chain([&other]) {
        std::fs::remove_file(file).unwrap();
    }
}

#[test]
fn a_count_killed_part_way_resumes_to_the_same_answer() {
    let path = scratch("killed");
    // One thread and a checkpoint after every subproblem: 15 queens take about a second, so the kill
    // lands part way through.
    let mut child = Command::new(env!("CARGO_BIN_EXE_csp"))
        .args([
            "queens",
            "count",
            "15",
            "--threads",
            "1",
            "--checkpoint-interval",
            "0",
        ])
        .args(["--checkpoint", text(&path), "--json"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("the csp binary runs");
    // Wait for the first finished subproblem to be recorded (the file is written at the start, too).
    let started = Instant::now();
    let finished = |path: &Path| -> usize {
        let Ok(text) = std::fs::read_to_string(path) else {
            return 0;
        };
        let saved: Value = serde_json::from_str(&text).expect("an atomically written checkpoint");
        saved["finished"].as_array().map_or(0, Vec::len)
    };
    while finished(&path) == 0 {
        assert!(
            started.elapsed() < Duration::from_secs(60),
            "no subproblem was recorded"
        );
        std::thread::sleep(Duration::from_millis(2));
    }
    child.kill().expect("the count is still running");
    child.wait().unwrap();

    let resumed = json(
        &[
            "queens",
            "count",
            "15",
            "--checkpoint",
            text(&path),
            "--json",
        ],
        0,
    );
    let done_before = resumed["subproblems"]["resumed"].as_u64().unwrap();
    let total = resumed["subproblems"]["total"].as_u64().unwrap();
    assert!(
        done_before > 0 && done_before < total,
        "killed part way: {done_before} of {total} were finished"
    );
    // OEIS A000170 and A002562 at n = 15.
    assert_eq!(resumed["solution_count"], 2_279_184);
    assert_eq!(resumed["unique_count"], 285_053);
    std::fs::remove_file(&path).unwrap();
}

#[test]
fn no_progress_bar_when_stderr_is_not_a_terminal() {
    let output = csp(&["queens", "count", "14"]);
    assert_eq!(output.status.code(), Some(0));
    assert!(stderr(&output).is_empty(), "{:?}", stderr(&output));
}
