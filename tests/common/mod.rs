//! What the hardening tests share: running the `csp` binary (with standard input, or under a memory
//! cap), reading what it printed, and the shape of a one-line error.

#![allow(dead_code)] // Each test file uses its own part of this module.

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

/// Runs `csp` with `args` and no standard input.
pub fn csp(args: &[&str]) -> Output {
    csp_with_input(args, None)
}

/// Runs `csp` with `args`, writing `input` (if any) to its standard input.
pub fn csp_with_input(args: &[&str], input: Option<&[u8]>) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_csp"))
        .args(args)
        .stdin(if input.is_some() {
            Stdio::piped()
        } else {
            Stdio::null()
        })
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the csp binary runs");
    if let Some(input) = input {
        let mut stdin = child.stdin.take().expect("piped");
        // The program may stop reading early (at a bad line), so a broken pipe here is expected.
        let _ = stdin.write_all(input);
    }
    child.wait_with_output().expect("the csp binary ends")
}

/// What the program printed on stdout.
pub fn stdout(output: &Output) -> String {
    String::from_utf8(output.stdout.clone()).expect("UTF-8 output")
}

/// What the program printed on stderr.
pub fn stderr(output: &Output) -> String {
    String::from_utf8(output.stderr.clone()).expect("UTF-8 output")
}

/// Checks an error: exit `code`, exactly one line on stderr starting `csp: ` and containing every
/// one of `mentions`, never a panic.
pub fn assert_error(output: &Output, code: i32, mentions: &[&str]) {
    let err = stderr(output);
    assert_eq!(output.status.code(), Some(code), "{err}");
    assert_eq!(err.lines().count(), 1, "one line, got {err:?}");
    assert!(err.starts_with("csp: "), "{err}");
    for mention in mentions {
        assert!(err.contains(mention), "{err:?} should mention {mention:?}");
    }
    assert!(!err.contains("panicked") && !err.contains("RUST_BACKTRACE"));
}

/// Bad input: exit 2, one line naming the problem, nothing on stdout.
pub fn assert_bad_input(args: &[&str], mentions: &[&str]) {
    let output = csp(args);
    assert_error(&output, 2, mentions);
    assert!(stdout(&output).is_empty(), "{args:?}: {}", stdout(&output));
}

/// The words of `command`, split at spaces: an argument list written on one line.
pub fn words(command: &str) -> Vec<&str> {
    command.split(' ').collect()
}

/// The exit code of `csp` run with `args`.
pub fn code(args: &[&str]) -> Option<i32> {
    csp(args).status.code()
}

/// Runs `csp`, expecting exit `code` and one JSON object on stdout.
pub fn json(args: &[&str], code: i32) -> serde_json::Value {
    let output = csp(args);
    assert_eq!(
        output.status.code(),
        Some(code),
        "{args:?}: {}",
        stderr(&output)
    );
    serde_json::from_str(&stdout(&output)).expect("one JSON object")
}

/// A fresh path under Cargo's scratch directory for integration tests, removed first if it exists.
pub fn scratch(name: &str) -> PathBuf {
    let path = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("hardening-{name}"));
    if path.is_dir() {
        let _ = std::fs::remove_dir_all(&path);
    } else {
        let _ = std::fs::remove_file(&path);
    }
    path
}
