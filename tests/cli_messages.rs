//! Issue 16, item 7: messages that say what is wrong. One test per message the issue lists, through
//! the command line where it was seen.

mod common;

use common::{assert_bad_input, csp, scratch, stdout};

#[test]
fn time_limit_1e10_names_the_maximum_instead_of_asking_for_a_positive_number() {
    assert_bad_input(
        &["queens", "solve", "8", "--time-limit", "1e10"],
        &["at most 1e9 seconds"],
    );
    assert_bad_input(
        &["queens", "solve", "8", "--time-limit", "0"],
        &["more than 0 seconds"],
    );
    assert_bad_input(
        &["queens", "solve", "8", "--time-limit", "soon"],
        &["number of seconds"],
    );
}

#[test]
fn dimacs_twenty_digit_edge_count_is_too_large_not_a_non_number() {
    let path = scratch("twenty-digits.col");
    std::fs::write(&path, "p edge 3 99999999999999999999\ne 1 2\n").unwrap();
    assert_bad_input(
        &["color", path.to_str().unwrap(), "--colors", "2"],
        &["line 1", "edge count", "too large"],
    );
}

#[test]
fn odd_trick_at_a_million_talks_about_n_not_n_plus_one() {
    assert_bad_input(
        &["queens", "solve", "1000000", "--method", "odd-trick"],
        &["n = 1000000 is too large for odd-trick", "n + 1 = 1000001"],
    );
}

#[test]
fn knight_walk_at_40_does_not_recommend_the_odd_trick() {
    let output = csp(&["queens", "solve", "40", "--method", "knight-walk"]);
    common::assert_error(&output, 2, &["covered by explicit"]);
    assert!(!common::stderr(&output).contains("odd-trick"));
}

#[test]
fn shard_minus_one_is_refused_as_a_shard_not_as_an_unknown_argument() {
    assert_bad_input(
        &["queens", "count", "12", "--shard", "-1/2"],
        &["shard \"-1/2\"", "0 ≤ i < k"],
    );
}

#[test]
fn compare_plot_onto_an_existing_file_is_refused_before_any_search() {
    let path = scratch("plot-file");
    std::fs::write(&path, "not a directory").unwrap();
    assert_bad_input(
        &[
            "queens",
            "compare",
            "4..5",
            "--plot",
            path.to_str().unwrap(),
        ],
        &["exists and is not a directory"],
    );
}

#[test]
fn compare_boards_without_solution_have_no_backtracks_per_solution() {
    let output = csp(&["queens", "compare", "1..4", "--format", "csv"]);
    assert_eq!(output.status.code(), Some(0));
    for line in stdout(&output).lines().skip(1) {
        let fields: Vec<&str> = line.split(',').collect();
        if fields[0] == "2" || fields[0] == "3" {
            assert_eq!(fields[5], "", "no solution, no ratio: {line}");
        } else {
            assert!(!fields[5].is_empty(), "{line}");
        }
    }
    let table = stdout(&csp(&["queens", "compare", "2..3"]));
    assert!(table.contains("no solution"), "{table}");
}

#[test]
fn trace_refuses_the_solve_options_it_would_ignore() {
    for option in [
        &["--torus"][..],
        &["--method", "qs4"],
        &["--output", "x"],
        &["--threads", "2"],
        &["--verify"],
    ] {
        let mut args = vec!["queens", "trace", "4"];
        args.extend_from_slice(option);
        assert_bad_input(&args, &[option[0]]);
    }
}
