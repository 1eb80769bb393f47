//! Issue 16, item 5: memory stays bounded where a user cannot know better. `solve --all --json`
//! streams its solutions instead of holding them, and constructions count their whole peak (the
//! placement and its check) against the 4 GiB budget.

mod common;

use std::io::Read;
use std::process::{Command, Stdio};

use common::{assert_bad_input, csp};

#[test]
fn solve_all_json_streams_its_solutions_while_the_search_runs() {
    // 15 queens have 2,279,184 solutions: the search takes seconds, the first few hundred solutions
    // milliseconds. Held until the end, none would be printed while the search runs.
    let mut child = Command::new(env!("CARGO_BIN_EXE_csp"))
        .args(["queens", "solve", "15", "--all", "--json", "--no-progress"])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut head = [0_u8; 64];
    child
        .stdout
        .as_mut()
        .unwrap()
        .read_exact(&mut head)
        .unwrap();
    let running = child.try_wait().unwrap().is_none();
    child.kill().unwrap();
    child.wait().unwrap();
    assert!(
        running,
        "the first solutions came only once the search had ended"
    );
    assert!(
        head.starts_with(b"{\"solutions\":[["),
        "{}",
        String::from_utf8_lossy(&head)
    );
}

#[test]
fn solve_all_json_is_still_one_object_with_every_solution() {
    let output = csp(&["queens", "solve", "8", "--all", "--json"]);
    assert_eq!(output.status.code(), Some(0));
    let report: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(report["solutions"].as_array().unwrap().len(), 92);
    assert_eq!(report["solution_count"], 92);
    assert_eq!(report["outcome"], "exhausted");
    let count = csp(&["queens", "count", "8", "--order", "lex", "--json"]);
    let report: serde_json::Value = serde_json::from_slice(&count.stdout).unwrap();
    assert_eq!(report["solutions"].as_array().unwrap().len(), 0);
    assert_eq!(report["solution_count"], 92);
}

#[test]
fn constructions_count_the_placement_and_its_check_against_the_budget() {
    // 2^30 rows passed the old check (4 bytes a row) and then needed 5.2 GB with the verifier's bits.
    let max = csp::nqueens::construct::MAX_CONSTRUCT_N;
    assert_eq!(
        max as u64 * csp::nqueens::construct::CONSTRUCT_BYTES_PER_ROW,
        csp::nqueens::MEMORY_BUDGET_BYTES - csp::nqueens::MEMORY_BUDGET_BYTES % 5
    );
    let too_big = (max + 1).to_string();
    for method in ["yaglom", "abramson-yung"] {
        assert_bad_input(
            &["queens", "solve", &too_big, "--method", method],
            &["too large", "the placement and its check"],
        );
    }
    assert_bad_input(
        &["queens", "solve", "1073741824", "--method", "yaglom"],
        &["too large"],
    );
}
