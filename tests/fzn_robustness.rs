//! Regression tests for what differential and hostile testing of `fzn-csp` found, one per defect and
//! named after it: values beyond 32 bits, branch and bound that walked one value at a time, input
//! that was read without bound, inputs accepted that were wrong, and search annotations refused.

use std::io::Write;
use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::time::Duration;

use csp::flatzinc::run::{Learns, RunOptions, Status, run};
use csp::flatzinc::{Error, compile};

fn fzn_csp(args: &[&str]) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_fzn-csp"));
    command.args(args);
    command
}

/// Runs `fzn-csp` with `args` on a temporary file holding `text`.
fn run_text(args: &[&str], text: &str) -> Output {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("model.fzn");
    std::fs::write(&path, text).unwrap();
    fzn_csp(args).arg(&path).output().unwrap()
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

/// Solves through the library with every solution, returning the printed text and the summary.
fn solve_all(text: &str) -> (String, csp::flatzinc::run::RunSummary) {
    solve_all_learning(text, Learns::Off)
}

/// Like [`solve_all`], learning as `learning` says.
fn solve_all_learning(text: &str, learning: Learns) -> (String, csp::flatzinc::run::RunSummary) {
    let compiled = compile(text).unwrap_or_else(|e| panic!("{e}:\n{text}"));
    // Branch and bound alone: these are regressions of its walk, which neighbourhoods would mask.
    let options = RunOptions {
        all_solutions: true,
        lns: Some(false),
        learning: Some(learning),
        ..RunOptions::default()
    };
    let mut out = Vec::new();
    let summary = run(&compiled, &options, &mut out, &mut ()).unwrap();
    (String::from_utf8(out).unwrap(), summary)
}

/// The message of a model the front end refuses.
fn refusal(text: &str) -> String {
    match compile(text) {
        Err(error @ Error::Invalid { .. }) => error.to_string(),
        other => panic!("expected a refusal, got {other:?} for\n{text}"),
    }
}

#[test]
fn pow_beyond_32_bits_is_refused_rather_than_a_solution_lost() {
    // 2000^3 does not fit in 32 bits: the engine used to print only y = 2 and claim completeness.
    let text = "var {2000}: x;\nvar 2..3: y :: output_var;\nvar int: z :: is_defined_var;\n\
                constraint int_pow(2000, y, z) :: defines_var(z);\nconstraint int_le(0, z);\n\
                solve satisfy;\n";
    let message = refusal(text);
    assert!(message.starts_with("line 4: `int_pow`"), "{message}");
    assert!(message.contains("8000000000"), "{message}");
    let output = run_text(&["-a"], text);
    assert_eq!(output.status.code(), Some(2));
    assert!(stderr(&output).contains("beyond the 32-bit integers"));
    assert!(
        output.stdout.is_empty(),
        "no solution and no status is printed"
    );
}

/// One arithmetic builtin at the edge of 32 bits: `z` declared without bounds, `x` and `y` fixed
/// or nearly so.
struct Edge {
    constraint: &'static str,
    x: &'static str,
    y: &'static str,
    /// The values of `z` in every solution, when the model stays within 32 bits; `None` when it
    /// must be refused.
    within: Option<&'static [i64]>,
}

#[test]
fn each_arithmetic_builtin_at_the_edge_of_32_bits_is_solved_or_refused() {
    const MAX: i64 = i32::MAX as i64;
    const MIN: i64 = i32::MIN as i64;
    let edges = [
        // 65536 · 32767 = 2^31 − 65536 fits; 46341² = 2^31 + 4633 does not.
        Edge {
            constraint: "int_times",
            x: "{65536}",
            y: "{32767}",
            within: Some(&[2147418112]),
        },
        Edge {
            constraint: "int_times",
            x: "{-65536}",
            y: "{32768}",
            within: Some(&[MIN]),
        },
        Edge {
            constraint: "int_times",
            x: "{46341}",
            y: "{46341}",
            within: None,
        },
        Edge {
            constraint: "int_times",
            x: "{-65536}",
            y: "{-32768}",
            within: None,
        },
        // i32::MIN div -1 is 2^31; div 2 is not.
        Edge {
            constraint: "int_div",
            x: "{-2147483648}",
            y: "{-1}",
            within: None,
        },
        Edge {
            constraint: "int_div",
            x: "{-2147483648}",
            y: "{2}",
            within: Some(&[-1073741824]),
        },
        Edge {
            constraint: "int_div",
            x: "{2147483647}",
            y: "-1..1",
            within: Some(&[-MAX, MAX]),
        },
        Edge {
            constraint: "int_mod",
            x: "{-2147483648}",
            y: "{-1}",
            within: Some(&[0]),
        },
        Edge {
            constraint: "int_mod",
            x: "{2147483647}",
            y: "{-2147483648}",
            within: Some(&[MAX]),
        },
        // 2^31 does not fit, −2^31 does, and so does 2^30.
        Edge {
            constraint: "int_pow",
            x: "{2}",
            y: "{31}",
            within: None,
        },
        Edge {
            constraint: "int_pow",
            x: "{-2}",
            y: "{31}",
            within: Some(&[MIN]),
        },
        Edge {
            constraint: "int_pow",
            x: "{2}",
            y: "29..30",
            within: Some(&[1 << 29, 1 << 30]),
        },
        Edge {
            constraint: "int_pow",
            x: "-1..1",
            y: "{2147483647}",
            within: Some(&[-1, 0, 1]),
        },
        Edge {
            constraint: "int_min",
            x: "{-2147483648}",
            y: "{2147483647}",
            within: Some(&[MIN]),
        },
        Edge {
            constraint: "int_max",
            x: "{-2147483648}",
            y: "{2147483647}",
            within: Some(&[MAX]),
        },
    ];
    for edge in &edges {
        let text = format!(
            "var {}: x;\nvar {}: y;\nvar int: z :: output_var;\n\
             constraint {}(x, y, z);\nsolve satisfy;\n",
            edge.x, edge.y, edge.constraint
        );
        match edge.within {
            None => {
                let message = refusal(&text);
                assert!(message.contains(edge.constraint), "{message}");
            }
            Some(values) => {
                let (output, summary) = solve_all(&text);
                let expected: String = values
                    .iter()
                    .map(|v| format!("z = {v};\n----------\n"))
                    .collect();
                let mut printed: Vec<&str> = output.split_inclusive("----------\n").collect();
                printed.pop();
                printed.sort_by_key(|s| {
                    s.trim_start_matches("z = ")
                        .split(';')
                        .next()
                        .unwrap()
                        .parse::<i64>()
                        .unwrap()
                });
                assert_eq!(printed.concat(), expected, "{text}");
                assert_eq!(summary.status, Status::Complete, "{text}");
            }
        }
    }
}

#[test]
fn abs_and_sums_at_the_edge_of_32_bits_are_solved_or_refused() {
    let abs = |x: &str| {
        format!(
            "var {x}: x;\nvar int: z :: output_var;\nconstraint int_abs(x, z);\nsolve satisfy;\n"
        )
    };
    assert!(refusal(&abs("-2147483648..-2147483647")).contains("int_abs"));
    assert_eq!(
        solve_all(&abs("{-2147483647}")).0,
        "z = 2147483647;\n----------\n==========\n"
    );
    let sum = |y: &str| {
        format!(
            "var {{2147483647}}: x;\nvar {y}: y;\nvar int: z :: output_var;\n\
             constraint int_lin_eq([1, 1, -1], [x, y, z], 0);\nsolve satisfy;\n"
        )
    };
    assert!(refusal(&sum("0..1")).contains("int_lin_eq"));
    assert_eq!(solve_all(&sum("-1..0")).1.solutions, 2);
    // A product bounded by another constraint is not refused: z ≤ 1000 wins over 10^10.
    let bounded = "var 0..100000: x;\nvar 0..100000: y;\nvar int: z;\n\
                   constraint int_times(x, y, z);\nconstraint int_le(z, 1000);\n\
                   constraint int_le(1000, z);\nsolve satisfy;\n";
    assert!(compile(bounded).is_ok());
    // Nothing bounded, nothing refused: a variable declared without bounds is 32-bit.
    let free = "var int: x;\nvar int: z;\nconstraint int_times(x, x, z);\nsolve satisfy;\n";
    assert!(compile(free).is_ok());
}

#[test]
fn maximising_a_wide_variable_takes_a_handful_of_nodes() {
    // Branch and bound used to walk up one value at a time: 10^8 solutions, a path 10^8 deep.
    let text = "var 0..100000000: x :: output_var;\nsolve maximize x;\n";
    let (output, summary) = solve_all(text);
    assert_eq!(output, "x = 100000000;\n----------\n==========\n");
    assert!(
        summary.result.stats.nodes <= 3,
        "{:?}",
        summary.result.stats
    );
    // A learning search halves the objective's domain towards its top: about log2(10^8) nodes.
    let (output, summary) = solve_all_learning(text, Learns::On);
    assert_eq!(output, "x = 100000000;\n----------\n==========\n");
    assert!(
        summary.result.stats.nodes <= 2 * 27,
        "{:?}",
        summary.result.stats
    );
}

#[test]
fn a_branch_and_bound_walk_keeps_its_path_short() {
    // The annotation asks for the smallest value first, so every value is an improving solution;
    // each solution used to stay on the path. After a deep one the search restarts from the root
    // under the new bound.
    let text = "var 0..20000: x :: output_var;\n\
                solve :: int_search([x], input_order, indomain_min, complete) maximize x;\n";
    let (output, summary) = solve_all(text);
    assert!(output.ends_with("x = 20000;\n----------\n==========\n"));
    assert_eq!(summary.solutions, 20001);
    let stats = &summary.result.stats;
    assert!(stats.max_depth <= 1025, "{stats:?}");
    assert!(stats.per_level.len() <= 1026);
    assert!(stats.restarts >= 19, "{stats:?}");
}

#[test]
fn enumerating_every_value_of_a_wide_variable_keeps_its_path_short() {
    // `-a` over `var 0..3000000` used to keep a frame and a trail entry per solution (378 MB): each
    // `x != v` stayed on the path under the next value's node. Now a binary node's last alternative
    // is taken in its place, so the path stays two nodes long; every value is still found once.
    let (output, summary) = solve_all(
        "var 0..200000: x :: output_var;\n\
         solve :: int_search([x], input_order, indomain_min, complete) satisfy;\n",
    );
    assert_eq!(summary.solutions, 200_001);
    assert!(output.starts_with("x = 0;\n----------\nx = 1;\n"));
    assert!(output.ends_with("x = 200000;\n----------\n==========\n"));
    let stats = &summary.result.stats;
    assert!(stats.max_depth <= 2, "{stats:?}");
    assert!(stats.per_level.len() <= 3, "{stats:?}");
}

#[test]
fn a_sum_over_the_full_32_bit_range_is_maximised_without_walking() {
    let text = "var int: x :: output_var;\nvar int: y :: output_var;\nvar int: o :: output_var;\n\
                constraint int_lin_eq([1, 1, -1], [x, y, o], 0);\nsolve maximize o;\n";
    let (output, summary) = solve_all(text);
    assert!(
        output.contains("o = 2147483647;\n----------\n=========="),
        "{output}"
    );
    assert!(summary.result.stats.max_depth <= 1025);
    // The default under an objective, a learning search with neighbourhoods: far fewer solutions
    // than the 2^32 values a walk would visit. (Without neighbourhoods a learning search still
    // walks here: see `csp_search`'s activity branching.)
    let compiled = compile(text).unwrap();
    let options = RunOptions {
        all_solutions: true,
        ..RunOptions::default()
    };
    let mut out = Vec::new();
    let summary = run(&compiled, &options, &mut out, &mut ()).unwrap();
    let output = String::from_utf8(out).unwrap();
    assert!(
        output.contains("o = 2147483647;\n----------\n=========="),
        "{output}"
    );
    assert!(summary.solutions <= 1024, "{:?}", summary.result.stats);
}

#[test]
fn dev_zero_is_refused_after_its_first_bytes() {
    let output = fzn_csp(&["/dev/zero"]).output().unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert_eq!(
        stderr(&output),
        "fzn-csp: /dev/zero: byte 0 is 0x00, which is not FlatZinc text\n"
    );
}

#[test]
fn a_pipe_that_never_closes_ends_at_the_time_limit() {
    let mut child = fzn_csp(&["-t", "300", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Half a model, and the pipe stays open: reading never ends.
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(b"var 1..3: x;\n").unwrap();
    let (sender, receiver) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let _ = sender.send(child.wait_with_output());
    });
    // Generous, so that a loaded machine does not fail it; without the watch it never returns.
    let output = receiver
        .recv_timeout(Duration::from_secs(60))
        .expect("fzn-csp ended at its time limit")
        .unwrap();
    drop(stdin);
    assert!(output.status.success());
    assert_eq!(
        String::from_utf8(output.stdout).unwrap(),
        "=====UNKNOWN=====\n"
    );
}

#[test]
fn a_standard_input_model_is_read_through_a_dash() {
    let mut child = fzn_csp(&["-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(b"var 1..3: x :: output_var;\nconstraint int_le(3, x);\nsolve satisfy;\n")
        .unwrap();
    let output = child.wait_with_output().unwrap();
    assert_eq!(
        String::from_utf8(output.stdout).unwrap(),
        "x = 3;\n----------\n"
    );
}

#[test]
fn an_array_shorter_than_its_index_set_is_refused() {
    let output = run_text(&[], "array [1..3] of int: a = [1, 2];\nsolve satisfy;\n");
    assert_eq!(output.status.code(), Some(2));
    assert!(
        stderr(&output).contains("line 1: `a` is declared with 3 elements but given 2"),
        "{}",
        stderr(&output)
    );
    assert!(
        refusal("array [0..1] of int: a = [1, 2];\nsolve satisfy;\n")
            .contains("FlatZinc's arrays are indexed from 1")
    );
}

#[test]
fn a_boolean_where_an_integer_belongs_is_refused() {
    let message = refusal("var 1..3: x;\nconstraint int_le(x, true);\nsolve satisfy;\n");
    assert_eq!(
        message,
        "line 2: argument 2 of `int_le` must be var int, but `true` is bool"
    );
    let message = refusal("var bool: b = 3;\nsolve satisfy;\n");
    assert_eq!(message, "line 1: `b` is declared var bool, but `3` is int");
    let message = refusal("var 1..3: x;\nconstraint int_lin_le([1], [x], x);\nsolve satisfy;\n");
    assert!(
        message.contains("argument 3 of `int_lin_le` must be int"),
        "{message}"
    );
}

#[test]
fn a_constraint_with_the_wrong_number_of_arguments_names_its_signature() {
    let message = refusal("var 1..3: x;\nconstraint int_le(x, x, x);\nsolve satisfy;\n");
    assert_eq!(
        message,
        "line 2: `int_le` takes 2 arguments (`int_le(var int, var int)`), not 3"
    );
    let message = refusal("var bool: b;\nconstraint bool_xor(b);\nsolve satisfy;\n");
    assert!(message.contains("takes 2 or 3 arguments"), "{message}");
}

#[test]
fn counts_of_zero_and_negative_time_limits_are_usage_errors() {
    let model = "var 1..3: x :: output_var;\nsolve satisfy;\n";
    for (args, names) in [
        (&["-n", "0"][..], "--num-solutions"),
        (&["-p", "0"][..], "--parallel"),
        (&["-t", "-5"][..], "--time-limit"),
    ] {
        let output = run_text(args, model);
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        let message = stderr(&output);
        assert!(message.contains(names), "{message}");
        assert_eq!(message.lines().count(), 1, "{message}");
        assert!(output.stdout.is_empty(), "{args:?}: nothing is solved");
    }
}

#[test]
fn a_missing_file_argument_names_file() {
    let output = fzn_csp(&["-a"]).output().unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert_eq!(
        stderr(&output),
        "fzn-csp: the following required arguments were not provided: <FILE>\n"
    );
}

#[test]
fn a_model_too_large_to_hold_is_refused_before_it_is_built() {
    let message = refusal("array [1..1000000000] of var 1..2: x;\nsolve satisfy;\n");
    assert!(message.contains("more than the 67108864"), "{message}");
}

#[test]
fn running_out_of_memory_is_one_line_and_exit_code_3() {
    // Sixty million variables do not fit in 512 MiB of address space.
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("huge.fzn");
    std::fs::write(
        &path,
        "array [1..60000000] of var 1..2: x;\nsolve satisfy;\n",
    )
    .unwrap();
    let output = Command::new("sh")
        .arg("-c")
        .arg(format!(
            "ulimit -v 524288 && exec '{}' '{}'",
            env!("CARGO_BIN_EXE_fzn-csp"),
            Path::new(&path).display()
        ))
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(3), "{}", stderr(&output));
    let message = stderr(&output);
    assert!(message.starts_with("fzn-csp: out of memory"), "{message}");
    assert_eq!(message.lines().count(), 1, "{message}");
}
