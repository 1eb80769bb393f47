//! Issue 16, item 3: no file that lies. Output files are written whole or not at all, empty
//! placements are no boards, `--verify` counts the rows it reads back, several solutions are never
//! silently cut to one, and a closed standard output is an error.

mod common;

use std::process::{Command, Stdio};

use common::{assert_bad_input, assert_error, csp, scratch};

#[test]
fn output_write_failure_leaves_the_earlier_file_intact() {
    let path = scratch("intact.txt");
    std::fs::write(&path, "earlier contents\n").unwrap();
    // A file size limit of one block makes the write fail part-way (the process is stopped by
    // SIGXFSZ); a direct write would have left a truncated placement behind.
    let status = Command::new("sh")
        .arg("-c")
        .arg("ulimit -f 1; exec \"$0\" queens solve 100000 --method explicit --output \"$1\"")
        .arg(env!("CARGO_BIN_EXE_csp"))
        .arg(&path)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .unwrap();
    assert!(!status.success());
    assert_eq!(
        std::fs::read_to_string(&path).unwrap(),
        "earlier contents\n"
    );
    // The temporary file the killed run left is named after the target, to be recognised.
    let directory = path.parent().unwrap();
    for entry in std::fs::read_dir(directory).unwrap() {
        let name = entry.unwrap().file_name().into_string().unwrap();
        if name.starts_with(".hardening-intact.txt.csp-") {
            std::fs::remove_file(directory.join(name)).unwrap();
        }
    }
}

#[test]
fn output_replaces_the_file_only_when_complete() {
    let path = scratch("replaced.txt");
    std::fs::write(&path, "earlier contents\n").unwrap();
    let output = csp(&[
        "queens",
        "solve",
        "8",
        "--method",
        "explicit",
        "--output",
        path.to_str().unwrap(),
        "--verify",
    ]);
    assert_eq!(output.status.code(), Some(0));
    let rows = std::fs::read_to_string(&path).unwrap();
    assert_eq!(rows.lines().count(), 8, "{rows}");
}

#[test]
fn verify_of_an_empty_file_or_dev_null_is_an_error_not_a_solution() {
    let path = scratch("empty.txt");
    std::fs::write(&path, "").unwrap();
    for format in ["text", "u32le"] {
        assert_bad_input(
            &[
                "queens",
                "verify",
                path.to_str().unwrap(),
                "--format",
                format,
            ],
            &["empty (0 rows)"],
        );
        assert_bad_input(
            &["queens", "verify", "/dev/null", "--format", format],
            &["empty (0 rows)"],
        );
    }
}

#[test]
fn output_dev_null_with_verify_checks_the_rows_read_back() {
    for method in ["explicit", "qs4", "search"] {
        // The search prints its solution as it finds it; the file's verdict follows as the error.
        let output = csp(&[
            "queens",
            "solve",
            "8",
            "--method",
            method,
            "--output",
            "/dev/null",
            "--verify",
        ]);
        assert_error(&output, 2, &["reads back 0 rows, not the 8 written"]);
    }
}

#[test]
fn output_with_several_solutions_is_refused_rather_than_cut_to_the_first() {
    let path = scratch("several.txt");
    let path = path.to_str().unwrap();
    assert_bad_input(
        &["queens", "solve", "8", "--all", "--output", path],
        &["--output writes one placement"],
    );
    assert_bad_input(
        &["queens", "solve", "8", "--solutions", "3", "--output", path],
        &["--output writes one placement"],
    );
    // One solution asked for explicitly is still written.
    let output = csp(&["queens", "solve", "8", "--solutions", "1", "--output", path]);
    assert_eq!(output.status.code(), Some(0));
}

#[test]
fn verify_without_output_is_refused() {
    assert_bad_input(&["queens", "solve", "8", "--verify"], &["--output"]);
}

#[test]
fn closed_stdout_is_exit_2_not_an_answer() {
    // A reader that went away: the pipe's read end is closed before the answer is written.
    let mut child = Command::new(env!("CARGO_BIN_EXE_csp"))
        .args(["queens", "solve", "10", "--all"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let output = child.wait_with_output().unwrap();
    assert_error(&output, 2, &["standard output was closed"]);

    // A descriptor closed before the start (`>&-`).
    let output = Command::new("sh")
        .arg("-c")
        .arg("exec \"$0\" queens solve 8 >&-")
        .arg(env!("CARGO_BIN_EXE_csp"))
        .output()
        .unwrap();
    assert_error(&output, 2, &["standard output is closed"]);
}
