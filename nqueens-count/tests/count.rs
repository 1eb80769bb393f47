//! The fast counter against published figures (OEIS A000170, A002562, A051906; Stone & Stone's Table 1
//! and the counting issue's tree sizes), against the engine's full LEX tree, and its checkpoints,
//! shards and merges.

use std::cell::Cell;
use std::num::NonZeroUsize;
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;

use csp_search::{Outcome, SearchConfig, solve};
use nqueens_count::{
    CountError, CountKind, CountOptions, CountProgress, CountReport, MAX_COUNT_N, Shard,
    ShardResult, Tally, count, merge, subproblems,
};
use nqueens_model::{Encoding, model};

/// OEIS A000170: solutions of the n-queens board, n = 1..=14.
const A000170: [u128; 14] = [
    1, 0, 0, 2, 10, 4, 40, 92, 352, 724, 2680, 14200, 73712, 365596,
];

/// OEIS A002562: solutions up to rotation and reflection, n = 1..=14.
const A002562: [u128; 14] = [1, 0, 0, 1, 2, 1, 6, 12, 46, 92, 341, 1787, 9233, 45752];

/// OEIS A051906: solutions on the toroidal board, n = 1..=19.
const A051906: [u128; 19] = [
    1, 0, 0, 0, 10, 0, 28, 0, 0, 0, 88, 0, 4524, 0, 0, 0, 140692, 0, 820496,
];

/// Full LEX backtrack trees, root included: Stone & Stone's Table 1 for n = 4..=13 (856,189 at n = 12;
/// the paper prints 853,189), then the counting issue's figures for n = 14 and 15.
const LEX_TREES: [(usize, u128); 12] = [
    (4, 17),
    (5, 54),
    (6, 153),
    (7, 552),
    (8, 2057),
    (9, 8394),
    (10, 35539),
    (11, 166926),
    (12, 856189),
    (13, 4674890),
    (14, 27358553),
    (15, 171129072),
];

fn options(kind: CountKind) -> CountOptions<'static> {
    CountOptions {
        kind,
        ..CountOptions::default()
    }
}

fn run(n: usize, kind: CountKind) -> CountReport {
    let report = count(n, &options(kind)).expect("a valid board");
    assert!(report.complete, "n = {n}");
    report
}

/// A fresh path under Cargo's scratch directory for integration tests.
fn scratch(name: &str) -> PathBuf {
    let path = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("count-{name}.json"));
    let _ = std::fs::remove_file(&path);
    path
}

#[test]
fn a000170_and_a002562_from_one_run_for_n_1_to_14() {
    for n in 1..=14 {
        let report = run(n, CountKind::Solutions);
        assert_eq!(
            report.answer.solutions,
            A000170[n - 1],
            "solutions, n = {n}"
        );
        assert_eq!(
            report.answer.unique,
            Some(A002562[n - 1]),
            "unique, n = {n}"
        );
        assert_eq!(report.answer.nodes, None);
    }
}

#[test]
fn a051906_toroidal_counts_for_n_1_to_19() {
    for n in 1..=19 {
        let report = run(n, CountKind::Torus);
        assert_eq!(report.answer.solutions, A051906[n - 1], "n = {n}");
        assert_eq!(report.answer.unique, None);
    }
}

#[test]
fn lex_tree_sizes_match_stone_and_stone_and_the_issue() {
    for (n, nodes) in LEX_TREES {
        let report = run(n, CountKind::Nodes);
        assert_eq!(report.answer.nodes, Some(nodes), "n = {n}");
        if n <= 14 {
            assert_eq!(report.answer.solutions, A000170[n - 1], "leaves, n = {n}");
        }
    }
}

#[test]
fn lex_tree_sizes_match_the_engines_full_lex_search() {
    for n in 1..=12 {
        let engine = solve(
            &model(n, Encoding::Counters).unwrap(),
            &SearchConfig::lex().all_solutions(),
            (),
        );
        assert_eq!(engine.outcome, Outcome::Exhausted);
        let fast = run(n, CountKind::Nodes);
        assert_eq!(
            fast.answer.nodes,
            Some(u128::from(engine.stats.tree_nodes())),
            "n = {n}: the engine's nodes plus the root"
        );
        assert_eq!(fast.answer.solutions, u128::from(engine.stats.solutions));
    }
}

#[test]
fn the_tally_does_not_depend_on_the_number_of_threads() {
    for kind in [CountKind::Solutions, CountKind::Nodes, CountKind::Torus] {
        let tallies: Vec<Tally> = [1, 2, 3, 5]
            .into_iter()
            .map(|threads| {
                let options = CountOptions {
                    threads: NonZeroUsize::new(threads),
                    ..options(kind)
                };
                count(11, &options).unwrap().result.tally
            })
            .collect();
        assert!(
            tallies.windows(2).all(|w| w[0] == w[1]),
            "{kind}: {tallies:?}"
        );
    }
}

#[test]
fn boards_outside_the_word_size_are_refused_before_counting() {
    assert!(matches!(
        count(0, &CountOptions::default()),
        Err(CountError::ZeroSize)
    ));
    let error = count(MAX_COUNT_N + 1, &CountOptions::default()).unwrap_err();
    assert!(matches!(error, CountError::TooLarge { n: 33, max: 32 }));
    assert!(error.to_string().contains("maximum is 32"), "{error}");
    assert!(matches!(
        count(usize::MAX, &CountOptions::default()),
        Err(CountError::TooLarge { .. })
    ));
}

#[test]
fn shards_must_exist() {
    assert!(matches!(Shard::new(3, 3), Err(CountError::BadShard { .. })));
    assert!(matches!(Shard::new(0, 0), Err(CountError::BadShard { .. })));
    assert_eq!("2/5".parse::<Shard>().unwrap(), Shard::new(2, 5).unwrap());
    assert!(matches!(
        "2-5".parse::<Shard>(),
        Err(CountError::ShardSyntax(_))
    ));
    let bad = CountOptions {
        shard: Shard { index: 4, of: 4 },
        ..CountOptions::default()
    };
    assert!(matches!(count(8, &bad), Err(CountError::BadShard { .. })));
}

/// Counts with a checkpoint, stopping (through the progress callback) once `stop_after` more
/// subproblems have finished.
fn count_stopping(n: usize, kind: CountKind, path: &Path, stop_after: usize) -> CountReport {
    let seen = Cell::new(0);
    let progress = |_: &CountProgress| {
        seen.set(seen.get() + 1);
        if seen.get() >= stop_after {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    };
    let options = CountOptions {
        checkpoint: Some(path.to_owned()),
        threads: NonZeroUsize::new(2),
        progress: Some(&progress),
        ..options(kind)
    };
    count(n, &options).unwrap()
}

#[test]
fn an_interrupted_count_resumes_to_the_uninterrupted_total() {
    for (kind, n) in [
        (CountKind::Solutions, 13),
        (CountKind::Nodes, 12),
        (CountKind::Torus, 13),
    ] {
        let whole = run(n, kind);
        let path = scratch(&format!("resume-{kind}"));
        let first = count_stopping(n, kind, &path, 40);
        assert!(!first.complete, "{kind}: stopped part way");
        let saved = ShardResult::read(&path).unwrap();
        assert_eq!(
            saved, first.result,
            "{kind}: the checkpoint holds what was finished"
        );
        assert!(saved.finished_count() >= 40 && !saved.is_complete());

        // Stop once more, then run to the end; nothing is lost or counted twice.
        let second = count_stopping(n, kind, &path, 25);
        assert_eq!(second.resumed, saved.finished_count());
        assert!(second.result.finished_count() >= saved.finished_count() + 25);
        let last = count(
            n,
            &CountOptions {
                checkpoint: Some(path.clone()),
                ..options(kind)
            },
        )
        .unwrap();
        assert!(last.complete);
        assert_eq!(last.resumed, second.result.finished_count());
        assert_eq!(last.result.tally, whole.result.tally, "{kind}");
        assert_eq!(last.answer, whole.answer, "{kind}");
        std::fs::remove_file(&path).unwrap();
    }
}

#[test]
fn a_cancelled_count_finishes_nothing_new_and_says_it_is_incomplete() {
    let cancel = AtomicBool::new(true);
    let options = CountOptions {
        cancel: Some(&cancel),
        ..CountOptions::default()
    };
    let report = count(12, &options).unwrap();
    assert!(!report.complete);
    assert_eq!(report.result.finished_count(), 0);
    assert_eq!(report.answer.unique, None);
}

#[test]
fn a_checkpoint_of_another_count_is_refused() {
    let path = scratch("mismatch");
    count(
        9,
        &CountOptions {
            checkpoint: Some(path.clone()),
            ..CountOptions::default()
        },
    )
    .unwrap();
    let resume = |n: usize, kind: CountKind, shard: Shard| {
        count(
            n,
            &CountOptions {
                kind,
                shard,
                checkpoint: Some(path.clone()),
                ..CountOptions::default()
            },
        )
    };
    for (n, kind, shard, field) in [
        (10, CountKind::Solutions, Shard::WHOLE, "board size n"),
        (9, CountKind::Nodes, Shard::WHOLE, "count"),
        (9, CountKind::Solutions, Shard::new(1, 2).unwrap(), "shard"),
    ] {
        match resume(n, kind, shard) {
            Err(error @ CountError::CheckpointMismatch { field: f, .. }) => {
                assert_eq!(f, field);
                assert!(
                    error.to_string().contains("belongs to another count"),
                    "{error}"
                );
            }
            other => panic!("expected a mismatch on {field}, got {other:?}"),
        }
    }
    // The same count resumes: there is nothing left to do.
    let again = resume(9, CountKind::Solutions, Shard::WHOLE).unwrap();
    assert_eq!(again.answer.solutions, 352);
    assert_eq!(again.visited, 0);

    std::fs::write(&path, "{\"format\": \"something else\"}").unwrap();
    assert!(matches!(
        resume(9, CountKind::Solutions, Shard::WHOLE),
        Err(CountError::CheckpointCorrupt { .. })
    ));
    std::fs::remove_file(&path).unwrap();
}

/// Runs every shard i/k of a count into its own checkpoint file and reads the results back.
fn shard_results(n: usize, kind: CountKind, k: usize, name: &str) -> Vec<ShardResult> {
    (0..k)
        .map(|i| {
            let path = scratch(&format!("{name}-{kind}-{i}-of-{k}"));
            let report = count(
                n,
                &CountOptions {
                    shard: Shard::new(i, k).unwrap(),
                    checkpoint: Some(path.clone()),
                    ..options(kind)
                },
            )
            .unwrap();
            assert!(report.complete);
            if k > 1 {
                assert_eq!(report.answer.unique, None, "a part has no unique count");
            }
            let result = ShardResult::read(&path).unwrap();
            std::fs::remove_file(&path).unwrap();
            result
        })
        .collect()
}

#[test]
fn merged_shards_equal_the_whole_count() {
    for (kind, n) in [
        (CountKind::Solutions, 12),
        (CountKind::Nodes, 11),
        (CountKind::Torus, 13),
    ] {
        let whole = run(n, kind);
        for k in [1, 2, 5] {
            let merged = merge(&shard_results(n, kind, k, "merge")).unwrap();
            assert_eq!(merged.shards, k);
            assert_eq!(merged.tally, whole.result.tally, "{kind}, {k} shards");
            assert_eq!(merged.answer, whole.answer, "{kind}, {k} shards");
        }
    }
}

#[test]
fn merge_refuses_missing_duplicate_mismatched_and_unfinished_shards() {
    let shards = shard_results(10, CountKind::Solutions, 3, "refuse");
    match merge(&[shards[0].clone(), shards[2].clone()]) {
        Err(error @ CountError::MissingShards { .. }) => {
            assert_eq!(error.to_string(), "1 of 3 shards missing: 1/3");
        }
        other => panic!("expected a missing shard, got {other:?}"),
    }
    assert!(matches!(
        merge(&[
            shards[0].clone(),
            shards[1].clone(),
            shards[1].clone(),
            shards[2].clone()
        ]),
        Err(CountError::DuplicateShard { index: 1, of: 3 })
    ));
    assert!(matches!(merge(&[]), Err(CountError::NoShards)));

    let other_board = shard_results(11, CountKind::Solutions, 3, "refuse-11");
    assert!(matches!(
        merge(&[shards[0].clone(), other_board[1].clone(), shards[2].clone()]),
        Err(CountError::MismatchedShards {
            field: "board size n",
            ..
        })
    ));
    let other_kind = shard_results(10, CountKind::Nodes, 3, "refuse-nodes");
    assert!(matches!(
        merge(&[shards[0].clone(), other_kind[1].clone(), shards[2].clone()]),
        Err(CountError::MismatchedShards { field: "count", .. })
    ));
    let other_split = shard_results(10, CountKind::Solutions, 2, "refuse-2");
    assert!(matches!(
        merge(&[shards[0].clone(), other_split[1].clone()]),
        Err(CountError::MismatchedShards {
            field: "number of shards",
            ..
        })
    ));

    let path = scratch("refuse-unfinished");
    let stopped = {
        let progress = |_: &CountProgress| ControlFlow::Break(());
        count(
            10,
            &CountOptions {
                shard: Shard::new(1, 3).unwrap(),
                checkpoint: Some(path.clone()),
                threads: NonZeroUsize::new(1),
                progress: Some(&progress),
                ..CountOptions::default()
            },
        )
        .unwrap()
    };
    assert!(!stopped.complete);
    assert!(matches!(
        merge(&[shards[0].clone(), stopped.result, shards[2].clone()]),
        Err(CountError::IncompleteShard {
            index: 1,
            of: 3,
            ..
        })
    ));
    std::fs::remove_file(&path).unwrap();
}

#[test]
fn shard_results_cross_as_text_and_merge_to_the_published_counts() {
    // A cluster's tasks return their shard's result as the text of its file; the driver reads
    // the texts back (every check of a file applies) and merges them.
    let n = 10;
    let k = 4;
    let total = subproblems(n, CountKind::Solutions).unwrap();
    assert!(total >= k, "n = {n} has {total} subproblems");
    let texts: Vec<String> = (0..k)
        .map(|i| {
            let report = count(
                n,
                &CountOptions {
                    shard: Shard::new(i, k).unwrap(),
                    ..options(CountKind::Solutions)
                },
            )
            .unwrap();
            assert_eq!(report.result.subproblems, total);
            report.result.to_json().unwrap()
        })
        .collect();
    let origin = Path::new("a task");
    let results: Vec<ShardResult> = texts
        .iter()
        .map(|text| ShardResult::from_json(text, origin).unwrap())
        .collect();
    let merged = merge(&results).unwrap();
    assert_eq!(merged.answer.solutions, A000170[n - 1]);
    assert_eq!(merged.answer.unique, Some(A002562[n - 1]));
    // The text is the file: written and read back, it is the same result, and the same bytes.
    let path = scratch("text-roundtrip");
    let mut first = results[0].clone();
    first.write(&path).unwrap();
    assert_eq!(std::fs::read_to_string(&path).unwrap(), texts[0]);
    assert_eq!(ShardResult::read(&path).unwrap(), results[0]);
    std::fs::remove_file(&path).unwrap();
    // A changed text is refused as a changed file is.
    let solutions = format!("\"solutions\":{}", results[1].tally.solutions);
    assert!(texts[1].contains(&solutions), "{}", texts[1]);
    let changed = texts[1].replacen(
        &solutions,
        &format!("\"solutions\":{}", results[1].tally.solutions + 8),
        1,
    );
    match ShardResult::from_json(&changed, origin) {
        Err(error @ CountError::CheckpointCorrupt { .. }) => {
            assert!(error.to_string().contains("a task"), "{error}");
        }
        other => panic!("a changed result was accepted: {other:?}"),
    }
    assert!(matches!(
        ShardResult::from_json("not json", origin),
        Err(CountError::CheckpointCorrupt { .. })
    ));
}

#[test]
fn the_number_of_subproblems_is_the_plans_and_bad_boards_are_refused() {
    for kind in [CountKind::Solutions, CountKind::Nodes, CountKind::Torus] {
        let report = run(9, kind);
        assert_eq!(subproblems(9, kind).unwrap(), report.result.subproblems);
    }
    assert!(matches!(
        subproblems(0, CountKind::Solutions),
        Err(CountError::ZeroSize)
    ));
    assert!(matches!(
        subproblems(MAX_COUNT_N + 1, CountKind::Solutions),
        Err(CountError::TooLarge { .. })
    ));
}
