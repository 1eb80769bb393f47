//! A raised stop flag ends every kind of run: one search, one learning search, neighbourhoods,
//! and a portfolio of two workers, whether raised before the run or by another thread during it.

use std::thread;
use std::time::{Duration, Instant};

use csp_flatzinc::run::{Learns, RunOptions, Status, run};
use csp_search::StopFlag;

/// 12 queens, all solutions, searched by a long plain enumeration: far longer than the test waits.
fn queens(n: usize, objective: bool) -> String {
    let mut text = String::new();
    for i in 1..=n {
        text.push_str(&format!("var 1..{n}: q{i} :: output_var;\n"));
    }
    for i in 1..=n {
        for j in i + 1..=n {
            let d = (j - i) as i64;
            text.push_str(&format!("constraint int_ne(q{i}, q{j});\n"));
            text.push_str(&format!(
                "constraint int_lin_ne([1, -1], [q{i}, q{j}], {d});\n"
            ));
            text.push_str(&format!(
                "constraint int_lin_ne([1, -1], [q{i}, q{j}], {});\n",
                -d
            ));
        }
    }
    if objective {
        // A sum no search proves optimal quickly.
        let vars: Vec<String> = (1..=n).map(|i| format!("q{i}")).collect();
        text.push_str(&format!("var 0..{}: s :: output_var;\n", n * n));
        let ones = vec!["1"; n].join(", ");
        text.push_str(&format!(
            "constraint int_lin_eq([{ones}, -1], [{}, s], 0);\nsolve minimize s;\n",
            vars.join(", ")
        ));
    } else {
        text.push_str("solve satisfy;\n");
    }
    text
}

fn run_with(text: &str, options: RunOptions, raise_after: Option<Duration>) -> (Status, Duration) {
    let compiled = csp_flatzinc::compile(text).expect("the model compiles");
    let stop = options.stop.clone().expect("a stop flag");
    let started = Instant::now();
    let raiser = raise_after.map(|after| {
        let stop = stop.clone();
        thread::spawn(move || {
            thread::sleep(after);
            stop.stop();
        })
    });
    let mut sink = Vec::new();
    let summary = run(&compiled, &options, &mut sink, &mut ()).expect("the run ends");
    if let Some(raiser) = raiser {
        raiser.join().expect("the raiser ends");
    }
    (summary.status, started.elapsed())
}

#[test]
fn a_flag_raised_during_the_run_ends_every_kind_of_search_soon() {
    let enumeration = queens(13, false);
    let optimisation = queens(30, true);
    let cases: [(&str, &str, RunOptions); 4] = [
        (
            "one search, every solution",
            &enumeration,
            RunOptions {
                all_solutions: true,
                learning: Some(Learns::Off),
                ..RunOptions::default()
            },
        ),
        (
            "one learning search",
            &optimisation,
            RunOptions {
                learning: Some(Learns::On),
                lns: Some(false),
                ..RunOptions::default()
            },
        ),
        (
            "neighbourhoods",
            &optimisation,
            RunOptions {
                learning: Some(Learns::Off),
                lns: Some(true),
                ..RunOptions::default()
            },
        ),
        (
            "a portfolio of two",
            &optimisation,
            RunOptions {
                threads: 2,
                ..RunOptions::default()
            },
        ),
    ];
    for (name, text, options) in cases {
        let options = RunOptions {
            stop: Some(StopFlag::new()),
            ..options
        };
        let (status, elapsed) = run_with(text, options, Some(Duration::from_millis(200)));
        assert!(
            elapsed < Duration::from_secs(5),
            "{name}: stopped after {elapsed:?}"
        );
        assert_ne!(
            status,
            Status::Complete,
            "{name}: a stopped run is not complete"
        );
        assert_ne!(
            status,
            Status::Unsatisfiable,
            "{name}: a stop proves nothing"
        );
    }
}

#[test]
fn a_flag_raised_before_the_run_proves_nothing() {
    let flag = StopFlag::new();
    flag.stop();
    let options = RunOptions {
        all_solutions: true,
        stop: Some(flag),
        ..RunOptions::default()
    };
    let (status, _) = run_with(&queens(13, false), options, None);
    assert!(
        matches!(status, Status::Solved | Status::Unknown),
        "{status:?}"
    );
}
