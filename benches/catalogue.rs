//! The catalogue's two incremental propagators, against what they replace.
//!
//! - `linear_bound_change/N`: `Σ xᵢ ≤ c` over `N` terms (each `xᵢ ∈ 0..=100`, `c` half the largest
//!   sum, so a single cut never prunes), one bound change on a rotating term, propagated to a fixpoint
//!   and undone. Incremental sums make the time per change flat in `N` (O(1)); a propagator that
//!   recomputed its sums would grow linearly.
//! - `table/{compact,scan}`: every solution of one `table` over 5 variables with 10⁴ random tuples
//!   (values 0..=9, seed 1), and of a chain of four such tables over 8 variables (neighbours sharing four), by two-way
//!   decisions (`first_fail`, `indomain_min`) propagated to a fixpoint; compact-table (Demeulenaere et al., CP 2016) beside the generic support
//!   scan. Both visit the same nodes; the solution counts are checked against a brute-force count.
//!
//! ```sh
//! cargo bench --bench catalogue
//! cargo bench --bench catalogue -- table
//! ```

use std::hint::black_box;

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use csp::core::constraints::{Linear, Relation, Table, TableAlgorithm};
use csp::core::{Model, ModelBuilder, Store, VarId};
use csp::search::{IntSearch, Search, SearchConfig, ValueSelection, VariableSelection};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

fn linear_model(terms: usize) -> (Model, Vec<VarId>) {
    let mut builder = ModelBuilder::new();
    let vars: Vec<VarId> = (0..terms)
        .map(|i| builder.int_var(format!("x{i}"), 0..=100).expect("a domain"))
        .collect();
    let rhs = i32::try_from(50 * terms).expect("a small sum");
    builder
        .post(Linear::new(
            vars.iter().map(|&x| (1, x)).collect(),
            Relation::LessOrEqual,
            rhs,
        ))
        .expect("a valid constraint");
    (builder.build(), vars)
}

fn linear(c: &mut Criterion) {
    let mut group = c.benchmark_group("linear_bound_change");
    for terms in [10, 100, 1_000, 10_000] {
        let (model, vars) = linear_model(terms);
        let mut store = Store::new(&model);
        // The root propagation fills the trailed sums, once, in O(N).
        store
            .establish_arc_consistency(&model)
            .expect("consistent at the root");
        let root = store.checkpoint();
        let mut next = 0;
        group.bench_function(BenchmarkId::from_parameter(terms), |b| {
            b.iter(|| {
                let x = vars[next % terms];
                next += 1;
                store.set_bounds(x, 0, 60).expect("a value is left");
                store.propagate(&model).expect("no pruning is possible");
                store.undo_to(&model, root);
                black_box(store.domain(x).size())
            });
        });
    }
    group.finish();
}

/// `count` random tuples of `arity` values in 0..=9, distinct, from seed `seed`.
fn random_tuples(arity: usize, count: usize, seed: u64) -> Vec<Vec<i32>> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut seen = std::collections::BTreeSet::new();
    while seen.len() < count {
        let tuple: Vec<i32> = (0..arity).map(|_| rng.random_range(0..10)).collect();
        seen.insert(tuple);
    }
    seen.into_iter().collect()
}

/// Tables over variables in 0..=9: table `k` has scope `x[k..k + 5]`, so neighbours share four.
fn table_model(tables: &[Vec<Vec<i32>>], algorithm: TableAlgorithm) -> Model {
    let vars = tables.len() + 4;
    let mut builder = ModelBuilder::new();
    let x: Vec<VarId> = (0..vars)
        .map(|i| builder.int_var(format!("x{i}"), 0..=9).expect("a domain"))
        .collect();
    for (k, tuples) in tables.iter().enumerate() {
        let table = Table::with_algorithm(x[k..k + 5].to_vec(), tuples.clone(), algorithm)
            .expect("a valid table");
        builder.post(table).expect("a valid constraint");
    }
    builder.build()
}

/// The solutions of the chain by brute force: tuples joined on their shared variables.
fn brute_force_count(tables: &[Vec<Vec<i32>>]) -> u64 {
    let mut partial: Vec<Vec<i32>> = tables[0].clone();
    for tuples in &tables[1..] {
        let mut joined = Vec::new();
        for p in &partial {
            let tail = &p[p.len() - 4..];
            for t in tuples.iter().filter(|t| &t[..4] == tail) {
                let mut row = p.clone();
                row.push(t[4]);
                joined.push(row);
            }
        }
        partial = joined;
    }
    partial.len() as u64
}

fn count_solutions(model: &Model) -> u64 {
    let vars = (0..model.num_vars()).map(VarId::from_index).collect();
    let config = SearchConfig::decisions(vec![IntSearch::new(
        vars,
        VariableSelection::FirstFail,
        ValueSelection::Min,
    )])
    .all_solutions();
    let mut search = Search::new(model, &config);
    let mut count = 0;
    while search.next_solution(&mut ()).is_some() {
        count += 1;
    }
    count
}

fn table(c: &mut Criterion) {
    let mut group = c.benchmark_group("table");
    group.sample_size(10);
    let single = vec![random_tuples(5, 10_000, 1)];
    let chain: Vec<Vec<Vec<i32>>> = (0..4).map(|k| random_tuples(5, 10_000, 1 + k)).collect();
    for (name, tables) in [("one_table", &single), ("chain_of_4", &chain)] {
        let expected = brute_force_count(tables);
        for (label, algorithm) in [
            ("compact", TableAlgorithm::CompactTable),
            ("scan", TableAlgorithm::Scan),
        ] {
            let model = table_model(tables, algorithm);
            assert_eq!(count_solutions(&model), expected, "{name} {label}");
            group.bench_function(BenchmarkId::new(name, label), |b| {
                b.iter(|| black_box(count_solutions(&model)));
            });
        }
    }
    group.finish();
}

criterion_group!(benches, linear, table);
criterion_main!(benches);
