//! Criterion benchmarks of the search engine on N-queens.
//!
//! - `lex_count/{counters,pairwise}/{12,13}`: the full LEX count (Dijkstra's program: model order,
//!   ascending values, check-past, every solution). The throughput is the tree's assignments, so
//!   criterion prints nodes per second; the two encodings walk the same tree, so their rates compare
//!   directly.
//! - `min_fc_random/counters/{100,1000}`: MIN with forward checking, random ties and random values
//!   (seed 0), to the first solution.
//! - `knuth_probes/{lex,min}/16/10000/{masks,store}`: 10^4 Knuth probes of the 16-queens check-past
//!   trees, on the bit masks `knuth_probes` builds and, as the baseline, on the store.
//!
//! Only the search is timed: each model is built once, before its benchmark. Every iteration checks its
//! result (the solution count against OEIS A000170 and the tree size against Stone & Stone, or the
//! solution found against [`verify`]), so a broken engine fails here instead of reporting a fast number.
//!
//! The sample sizes are criterion's minimum (10) with flat sampling, so that the whole file runs in
//! about two minutes on a shared machine; criterion warns that the longer LEX counts cannot fit their
//! samples in the measurement time, and takes the time they need.

use std::hint::black_box;
use std::time::Duration;

use criterion::{
    BenchmarkId, Criterion, SamplingMode, Throughput, criterion_group, criterion_main,
};
use csp::core::Model;
use csp::nqueens::{Encoding, model, verify};
use csp::search::{
    Outcome, ProbeEstimate, Propagation, Search, SearchConfig, TiePolicy, ValueOrderKind, solve,
};

/// OEIS A000170: the number of ways to place n nonattacking queens, indexed by n (index 0 unused).
const A000170: [u64; 14] = [0, 1, 0, 0, 2, 10, 4, 40, 92, 352, 724, 2680, 14200, 73712];

/// Assignments made by the full LEX count (the tree size minus the root), indexed by n; Stone &
/// Stone, Table 1 (856,189 nodes at n = 12: the paper's 853,189 is a misprint).
const LEX_NODES: [u64; 14] = [
    0, 1, 2, 5, 16, 53, 152, 551, 2056, 8393, 35538, 166925, 856188, 4674889,
];

/// The seed of every randomised benchmark: fixed, so that each run times the same trees.
const SEED: u64 = 0;

/// Builds the n-queens model; the benchmark sizes are all valid.
fn queens(n: usize, encoding: Encoding) -> Model {
    model(n, encoding).expect("the benchmark sizes are valid boards")
}

/// The full LEX count, checked against the published figures.
fn lex_count(model: &Model, n: usize) {
    let result = solve(model, &SearchConfig::lex().all_solutions(), ());
    assert_eq!(result.outcome, Outcome::Exhausted);
    assert_eq!(result.stats.solutions, A000170[n]);
    assert_eq!(result.stats.nodes, LEX_NODES[n]);
}

/// MIN with forward checking and random ties and values, to the first solution, which is verified
/// independently of the engine.
fn min_fc_random_first(model: &Model, config: &SearchConfig) {
    let mut search = Search::new(model, config);
    let values = search
        .next_solution(&mut ())
        .expect("every board with n >= 4 has a solution, and no limit is set");
    let placement: Vec<u32> = values
        .iter()
        .map(|&column| u32::try_from(column).expect("columns are non-negative"))
        .collect();
    if let Err(error) = verify(black_box(&placement)) {
        panic!("invalid solution for n = {}: {error}", placement.len());
    }
}

/// The LEX counts, n = 12 and 13, both encodings.
fn bench_lex_count(c: &mut Criterion) {
    let mut group = c.benchmark_group("lex_count");
    // One n = 13 count takes about a second (counters) to several (pairwise): flat sampling runs each
    // sample once instead of criterion's linear 1 + 2 + … + 10 iterations.
    group
        .sample_size(10)
        .sampling_mode(SamplingMode::Flat)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(5));
    for n in [12, 13] {
        group.throughput(Throughput::Elements(LEX_NODES[n]));
        for encoding in [Encoding::Counters, Encoding::Pairwise] {
            let model = queens(n, encoding);
            group.bench_with_input(BenchmarkId::new(encoding.name(), n), &model, |b, model| {
                b.iter(|| lex_count(model, n));
            });
        }
    }
    group.finish();
}

/// MIN + forward checking with random ties and values, first solution, n = 100 and 1000.
fn bench_min_fc_random(c: &mut Criterion) {
    let mut group = c.benchmark_group("min_fc_random");
    group
        .sample_size(10)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(3));
    let config = SearchConfig {
        ties: TiePolicy::Random,
        value_order: ValueOrderKind::Random,
        seed: SEED,
        ..SearchConfig::min()
    };
    for n in [100, 1000] {
        let model = queens(n, Encoding::Counters);
        group.bench_with_input(BenchmarkId::new("counters", n), &model, |b, model| {
            b.iter(|| min_fc_random_first(model, &config));
        });
    }
    group.finish();
}

/// 10^4 Knuth probes of the 16-queens LEX tree (the observability issue's goal: at most 5 ms), on the
/// bit masks `knuth_probes` uses and, as the baseline in the same run, on the store; and the same
/// for MIN, whose probes count every unassigned variable's choices at every node.
fn bench_knuth_probes(c: &mut Criterion) {
    let mut group = c.benchmark_group("knuth_probes");
    group.sample_size(20);
    let model = queens(16, Encoding::Counters);
    let lex = SearchConfig {
        seed: 1,
        ..SearchConfig::lex()
    };
    // MIN as Stone & Stone's Table 1 runs it: fewest choices counted by check-past.
    let min = SearchConfig {
        seed: 1,
        propagation: Propagation::CheckPast,
        ..SearchConfig::min()
    };
    type Probes = fn(&Model, &SearchConfig, u64) -> ProbeEstimate;
    let paths: [(&str, Probes); 2] = [
        ("masks", csp::search::knuth_probes),
        ("store", csp::search::knuth_probes_on_store),
    ];
    for (name, config) in [("lex", &lex), ("min", &min)] {
        for (path, probes) in paths {
            group.bench_function(format!("{name}/16/10000/{path}"), |b| {
                b.iter(|| {
                    let estimate = probes(&model, config, 10_000);
                    // The full 16-queens trees have 10^8 to 10^9 nodes; an estimate off by an order
                    // of magnitude means the probes are broken, and a fast broken run must not count.
                    assert!((1e7..1e10).contains(&estimate.tree_size), "{estimate:?}");
                    estimate
                })
            });
        }
    }
    group.finish();
}

criterion_group!(
    benches,
    bench_lex_count,
    bench_min_fc_random,
    bench_knuth_probes
);
criterion_main!(benches);
