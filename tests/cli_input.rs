//! Issue 16, item 1: input has a size limit. Line-oriented input is read a line at a time as it
//! arrives (Sudoku puzzles are answered one by one from an endless pipe), a line longer than any
//! format needs is refused at once, and a missing header is reported at line 1 of an endless stream.

mod common;

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

use common::{assert_error, csp_with_input};

const PUZZLE: &str =
    "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";

fn spawn(args: &[&str]) -> Child {
    Command::new(env!("CARGO_BIN_EXE_csp"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

#[test]
fn sudoku_answers_each_puzzle_of_a_pipe_before_the_next_arrives() {
    let mut child = spawn(&["sudoku", "-", "--json"]);
    let mut stdin = child.stdin.take().unwrap();
    let stdout = child.stdout.take().unwrap();
    let (sender, answers) = mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines() {
            if sender.send(line.unwrap()).is_err() {
                break;
            }
        }
    });
    // The input stays open: a reader that waited for its end would never answer.
    for round in 1..=3 {
        writeln!(stdin, "{PUZZLE}").unwrap();
        stdin.flush().unwrap();
        let answer = answers
            .recv_timeout(Duration::from_secs(60))
            .unwrap_or_else(|_| panic!("no answer to puzzle {round} while the pipe is open"));
        let report: serde_json::Value = serde_json::from_str(&answer).unwrap();
        assert_eq!(report["line"], round);
        assert_eq!(report["outcome"], "solved");
    }
    drop(stdin);
    assert!(child.wait().unwrap().success());
}

#[test]
fn color_edges_before_any_header_are_refused_at_line_1_of_an_endless_stream() {
    let mut child = spawn(&["color", "-", "--colors", "2"]);
    let mut stdin = child.stdin.take().unwrap();
    // `yes "e 1 2"`: the writer goes on until the program stops reading.
    let writer = std::thread::spawn(move || {
        let block = "e 1 2\n".repeat(1000);
        while stdin.write_all(block.as_bytes()).is_ok() {}
    });
    let output = child.wait_with_output().unwrap();
    writer.join().unwrap();
    assert_error(&output, 2, &["line 1", "missing header"]);
}

#[test]
fn an_endless_line_is_refused_after_the_cap_for_both_parsers() {
    let line = vec![b'1'; 1 << 20];
    for args in [&["sudoku", "-"][..], &["color", "-", "--min"]] {
        let output = csp_with_input(args, Some(&line));
        assert_error(&output, 2, &["line 1", "longer than 65536 bytes"]);
    }
}

#[test]
fn text_that_is_not_utf8_names_its_line() {
    let mut input = format!("{PUZZLE}\n").into_bytes();
    input.extend_from_slice(b"\xff\xfe\n");
    let output = csp_with_input(&["sudoku", "-"], Some(&input));
    // The first puzzle is answered before the bad line is read.
    assert!(common::stdout(&output).starts_with("line 1:"));
    assert_error(&output, 2, &["line 2", "UTF-8"]);
}

#[test]
fn verify_dev_zero_ends_at_once_with_an_error() {
    common::assert_bad_input(
        &["queens", "verify", "/dev/zero"],
        &["line 1", "longer than 64 bytes"],
    );
    common::assert_bad_input(
        &["queens", "verify", "/dev/zero", "--format", "u32le"],
        &["empty (0 rows)"],
    );
}
