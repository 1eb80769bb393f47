//! The search's hot path allocates nothing per node. A counting global allocator measures the
//! allocations of whole searches: a search visiting 20 times more nodes must not allocate more than a
//! handful of extra times (vectors that grow to their high-water mark are the only allowance).

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicU64, Ordering};

use csp::core::constraints::{AllDifferent, Linear, Reified, Relation};
use csp::core::{Model, ModelBuilder, VarId};
use csp::nqueens::{Encoding, model};
use csp::search::{
    IntSearch, Propagation, Restarts, Search, SearchConfig, TiePolicy, ValueSelection,
    VariableSelection,
};

struct CountingAllocator;

static ALLOCATIONS: AtomicU64 = AtomicU64::new(0);

// The workspace denies unsafe code; a global allocator cannot be written without it, and this one only
// counts and forwards to `System`.
#[allow(unsafe_code)]
unsafe impl GlobalAlloc for CountingAllocator {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        // SAFETY: forwarded unchanged to the system allocator.
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: forwarded unchanged to the system allocator.
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        // SAFETY: forwarded unchanged to the system allocator.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: CountingAllocator = CountingAllocator;

/// The count is global, so the tests take turns: one test's allocations must not land in another's.
static ONE_AT_A_TIME: std::sync::Mutex<()> = std::sync::Mutex::new(());

/// Allocations made by the search alone (model and search state built beforehand), and its nodes.
fn allocations_during_search(n: usize, encoding: Encoding, config: &SearchConfig) -> (u64, u64) {
    allocations_of(&model(n, encoding).unwrap(), config)
}

/// Allocations made by a search of `model` alone, and its nodes.
fn allocations_of(model: &Model, config: &SearchConfig) -> (u64, u64) {
    let mut search = Search::new(model, config);
    let before = ALLOCATIONS.load(Ordering::Relaxed);
    search.run(&mut ());
    let after = ALLOCATIONS.load(Ordering::Relaxed);
    (after - before, search.stats().nodes)
}

#[test]
fn search_allocations_do_not_grow_with_nodes() {
    let _turn = ONE_AT_A_TIME
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    let configs = [
        SearchConfig::lex().all_solutions(),
        SearchConfig::min().all_solutions(),
        SearchConfig {
            ties: TiePolicy::Random,
            ..SearchConfig::min().all_solutions()
        },
        // The preset: middle-out ordering's scratch space, and restarts (a tiny base, so they happen).
        SearchConfig {
            restarts: Some(Restarts { base_nodes: 5 }),
            ..SearchConfig::fast_preset(8).all_solutions()
        },
    ];
    for encoding in [Encoding::Counters, Encoding::Pairwise] {
        for config in &configs {
            let (small, small_nodes) = allocations_during_search(8, encoding, config);
            let (large, large_nodes) = allocations_during_search(11, encoding, config);
            assert!(
                large_nodes > 20 * small_nodes,
                "{large_nodes} vs {small_nodes}"
            );
            // Growth to a high-water mark is logarithmic in the sizes reached, not linear in nodes.
            assert!(
                large <= small + 64 && large < 200,
                "{encoding}, {config:?}: {small} allocations for {small_nodes} nodes, \
                 {large} for {large_nodes}"
            );
        }
    }
}

/// The Golomb ruler model with `m` marks (as `examples/golomb.rs` states it), its marks declared over
/// `0..=span` and each pair of marks also ordered by a reified inequality, so that wide interval
/// domains, bound changes, events, reification and branch and bound all run.
fn golomb(m: usize, span: i32) -> (Model, Vec<VarId>) {
    let mut builder = ModelBuilder::new();
    let marks: Vec<VarId> = (0..m)
        .map(|i| builder.int_var(format!("mark{i}"), 0..=span).unwrap())
        .collect();
    let mut differences = Vec::new();
    for i in 0..m {
        for j in i + 1..m {
            let d = builder.int_var(format!("d{i}_{j}"), 0..=span).unwrap();
            let terms = vec![(1, d), (-1, marks[j]), (1, marks[i])];
            builder
                .post(Linear::new(terms, Relation::Equal, 0))
                .unwrap();
            differences.push(d);
            let b = builder.bool_var(format!("b{i}_{j}")).unwrap();
            let before = Linear::new(
                vec![(1, marks[i]), (-1, marks[j])],
                Relation::LessOrEqual,
                -1,
            );
            builder.post(Reified::equivalent(b, before)).unwrap();
        }
    }
    builder
        .post(Linear::new(vec![(1, marks[0])], Relation::Equal, 0))
        .unwrap();
    for pair in marks.windows(2) {
        let terms = vec![(1, pair[0]), (-1, pair[1])];
        builder
            .post(Linear::new(terms, Relation::LessOrEqual, -1))
            .unwrap();
    }
    builder.post(AllDifferent::new(differences)).unwrap();
    builder.minimize(marks[m - 1]).unwrap();
    (builder.build(), marks)
}

/// Search by decisions allocates nothing per node either: binary decisions of every kind, events and
/// the cheap-first queue, reification, branch and bound, restarts, on bit-set and on interval domains.
/// Each search makes thousands of nodes (a few dozen thousand for some), and may allocate only where
/// a buffer reaches a new high-water mark (trail, path and per-level statistics grow with the deepest
/// path, which grows as better solutions are found): a few hundred times at most, where an allocation
/// per node would make thousands.
#[test]
fn decision_search_allocations_do_not_grow_with_nodes() {
    let _turn = ONE_AT_A_TIME
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    let restarts = Some(Restarts { base_nodes: 50 });
    // A span of 100 keeps bit sets; 10^8 makes every mark and difference an interval list. (Middle
    // and median values in a span of 10^8 make thousands of improving solutions, slow in the
    // test profile: those run on bit sets here.)
    let runs = [
        (
            100,
            VariableSelection::InputOrder,
            ValueSelection::Min,
            None,
        ),
        (
            100,
            VariableSelection::FirstFail,
            ValueSelection::Split,
            restarts,
        ),
        (
            100,
            VariableSelection::DomWDeg,
            ValueSelection::Median,
            None,
        ),
        (
            100,
            VariableSelection::MaxRegret,
            ValueSelection::Middle,
            None,
        ),
        (
            100_000_000,
            VariableSelection::InputOrder,
            ValueSelection::Min,
            restarts,
        ),
        (
            100_000_000,
            VariableSelection::FirstFail,
            ValueSelection::Split,
            None,
        ),
        (
            100_000_000,
            VariableSelection::Smallest,
            ValueSelection::Split,
            None,
        ),
    ];
    for (span, variable, value, restarts) in runs {
        let (model, marks) = golomb(8, span);
        let config = SearchConfig {
            restarts,
            ..SearchConfig::decisions(vec![IntSearch::new(marks, variable, value)])
        };
        let (allocations, nodes) = allocations_of(&model, &config);
        assert!(nodes >= 5_000, "{variable}, {value}: only {nodes} nodes");
        assert!(
            allocations <= 200,
            "span {span}, {variable}, {value}, {restarts:?}: {allocations} allocations for \
             {nodes} nodes"
        );
    }
    // MAC under value enumeration runs the same queue.
    let mac = SearchConfig {
        propagation: Propagation::Mac,
        ..SearchConfig::min().all_solutions()
    };
    let (small, small_nodes) = allocations_during_search(8, Encoding::Pairwise, &mac);
    let (large, large_nodes) = allocations_during_search(11, Encoding::Pairwise, &mac);
    assert!(large_nodes > 20 * small_nodes);
    assert!(
        large <= small + 64 && large < 200,
        "MAC: {small} vs {large}"
    );
}
