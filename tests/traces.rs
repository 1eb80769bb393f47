//! Snapshot tests of search traces (`TraceRecorder`'s documented format) through one helper. The
//! snapshots in `tests/snapshots/` are committed and reviewed: a changed trace is a changed search.

use csp::nqueens::{Encoding, model};
use csp::search::{SearchConfig, TiePolicy, TraceRecorder, solve};

/// The trace of a first-solution search of n-queens (counters encoding) under `config`.
fn trace(n: usize, config: &SearchConfig) -> String {
    let model = model(n, Encoding::Counters).unwrap();
    let mut recorder = TraceRecorder::new(&model, None);
    solve(&model, config, &mut recorder);
    // The pairwise encoding must give the same trace (the encodings make the same search tree).
    let pairwise = model_trace(n, Encoding::Pairwise, config);
    assert_eq!(recorder.text(), pairwise, "encodings differ for n = {n}");
    recorder.into_text()
}

fn model_trace(n: usize, encoding: Encoding, config: &SearchConfig) -> String {
    let model = model(n, encoding).unwrap();
    let mut recorder = TraceRecorder::new(&model, None);
    solve(&model, config, &mut recorder);
    recorder.into_text()
}

/// Snapshots the trace of n-queens under `config` as `name`.
fn check_trace(name: &str, n: usize, config: &SearchConfig) {
    insta::assert_snapshot!(name, trace(n, config));
}

/// MIN with forward checking and seeded random ties.
fn random_ties(seed: u64) -> SearchConfig {
    SearchConfig {
        ties: TiePolicy::Random,
        seed,
        ..SearchConfig::min()
    }
}

#[test]
fn lex_traces() {
    for n in 4..=6 {
        check_trace(&format!("lex_{n}"), n, &SearchConfig::lex());
    }
}

#[test]
fn min_forward_checking_traces() {
    for n in 4..=6 {
        check_trace(&format!("min_fc_{n}"), n, &SearchConfig::min());
    }
}

#[test]
fn min_random_ties_traces() {
    for n in 4..=6 {
        check_trace(&format!("min_random_ties_seed7_{n}"), n, &random_ties(7));
    }
}

#[test]
fn the_snapshots_are_not_vacuous() {
    // A different tie policy, or another seed, changes the trace: the snapshots pin the heuristics.
    let low = trace(6, &SearchConfig::min());
    let random = trace(6, &random_ties(7));
    assert_ne!(low, random);
    let seeds: Vec<String> = (0..8).map(|seed| trace(6, &random_ties(seed))).collect();
    assert!(
        seeds.iter().any(|t| *t != seeds[0]),
        "the seed drives the ties"
    );
    // And every trace ends at a solution that is one.
    assert!(low.lines().last().unwrap().contains("solution"));
}

#[test]
fn a_limit_stops_recording_and_the_search() {
    let model = model(8, Encoding::Counters).unwrap();
    let mut recorder = TraceRecorder::new(&model, Some(5));
    let result = solve(&model, &SearchConfig::lex(), &mut recorder);
    assert_eq!(result.outcome, csp::search::Outcome::Stopped);
    assert_eq!(recorder.events(), 5);
    assert_eq!(recorder.text().lines().count(), 6);
    assert_eq!(
        recorder.text().lines().last(),
        Some("... stopped after 5 events")
    );
}
