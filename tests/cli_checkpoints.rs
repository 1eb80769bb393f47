//! Issue 16, items 1 and 4: checkpoints and shard results are read within a size cap, cannot be
//! edited into a wrong answer by accident, hold only possible counts, and cannot be shared by two
//! runs at once.

mod common;

use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use common::{assert_bad_input, assert_error, code, csp, scratch};

#[test]
fn checkpoint_on_dev_full_is_refused_without_reading_it() {
    let started = Instant::now();
    assert_bad_input(
        &["queens", "count", "15", "--checkpoint", "/dev/full"],
        &["/dev/full", "not a regular file"],
    );
    assert!(started.elapsed() < Duration::from_secs(30));
    assert!(!std::path::Path::new("/dev/full.lock").exists());
    assert!(!std::path::Path::new("/dev/full.tmp").exists());
}

#[test]
fn merge_of_a_huge_file_reads_no_more_than_the_cap() {
    // A sparse 3 GB file: reading all of it would take gigabytes of memory.
    let path = scratch("huge-shard.json");
    let file = std::fs::File::create(&path).unwrap();
    file.set_len(3 << 30).unwrap();
    drop(file);
    assert_bad_input(
        &["queens", "merge", path.to_str().unwrap()],
        &["larger than 64 MiB"],
    );
    std::fs::remove_file(&path).unwrap();
}

#[test]
fn edited_checkpoint_is_refused_rather_than_resumed_into_a_wrong_answer() {
    let path = scratch("edited.json");
    let path_text = path.to_str().unwrap();
    let output = csp(&["queens", "count", "10", "--checkpoint", path_text]);
    assert_eq!(output.status.code(), Some(0));
    let text = std::fs::read_to_string(&path).unwrap();
    // The total as a user might change it by hand: 724 becomes 725.
    assert!(text.contains("\"solutions\":724"), "{text}");
    std::fs::write(
        &path,
        text.replace("\"solutions\":724", "\"solutions\":725"),
    )
    .unwrap();
    for args in [
        &["queens", "count", "10", "--checkpoint", path_text][..],
        &["queens", "merge", path_text],
    ] {
        assert_bad_input(args, &[path_text, "checksum", "changed or damaged"]);
    }
}

#[test]
fn impossible_values_are_refused_even_with_a_valid_checksum() {
    let path = scratch("impossible.json");
    let path_text = path.to_str().unwrap();
    assert_eq!(
        code(&["queens", "count", "10", "--checkpoint", path_text]),
        Some(0)
    );
    // More symmetric solutions than seven times the total would make the unique count exceed the
    // total. The library signs what it writes, so the checksum is valid: only the recheck can tell.
    let mut result = csp::count::ShardResult::read(&path).unwrap();
    result.tally.symmetric += 8 * 724;
    result.counts[0][1] += 8 * 724;
    result.write(&path).unwrap();
    for args in [
        &["queens", "count", "10", "--checkpoint", path_text][..],
        &["queens", "merge", path_text],
    ] {
        assert_bad_input(args, &["essentially distinct"]);
    }
    // A subproblem holding a count it cannot have (a constellation class's count that is no
    // multiple of its class's size) is refused too.
    assert_eq!(
        code(&[
            "queens",
            "count",
            "12",
            "--checkpoint",
            path_text,
            "--shard",
            "0/2"
        ]),
        Some(2),
        "another count's file is refused"
    );
    std::fs::remove_file(&path).unwrap();
    assert_eq!(
        code(&["queens", "count", "12", "--checkpoint", path_text]),
        Some(0)
    );
    let mut result = csp::count::ShardResult::read(&path).unwrap();
    let last = result.counts.len() - 1;
    result.counts[last][0] += 1;
    result.tally.solutions += 1;
    result.write(&path).unwrap();
    assert_bad_input(
        &["queens", "count", "12", "--checkpoint", path_text],
        &["cannot have"],
    );
    assert_bad_input(&["queens", "merge", path_text], &["cannot have"]);
}

#[test]
fn two_runs_on_one_checkpoint_the_second_refuses_naming_the_file() {
    let path = scratch("shared.json");
    let path_text = path.to_str().unwrap();
    let mut first = Command::new(env!("CARGO_BIN_EXE_csp"))
        .args(["queens", "count", "17", "--threads", "1", "--no-progress"])
        .args(["--checkpoint", path_text])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    // The first run writes its checkpoint at once, while it holds the lock.
    let started = Instant::now();
    while !path.exists() && started.elapsed() < Duration::from_secs(60) {
        std::thread::sleep(Duration::from_millis(10));
    }
    let second = csp(&["queens", "count", "17", "--checkpoint", path_text]);
    first.kill().unwrap();
    first.wait().unwrap();
    assert_error(&second, 2, &[path_text, "in use by another count"]);
    // Once the first has ended (killed: its lock went with it), the checkpoint is free again.
    let resumed = csp(&["queens", "count", "8", "--checkpoint", path_text]);
    assert_error(&resumed, 2, &["belongs to another count"]);
}
