//! The search's hot path allocates nothing per node. A counting global allocator measures the
//! allocations of whole searches: a search visiting 20 times more nodes must not allocate more than a
//! handful of extra times (vectors that grow to their high-water mark are the only allowance).

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicU64, Ordering};

use csp::nqueens::{Encoding, model};
use csp::search::{Restarts, Search, SearchConfig, TiePolicy};

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

/// Allocations made by the search alone (model and search state built beforehand), and its nodes.
fn allocations_during_search(n: usize, encoding: Encoding, config: &SearchConfig) -> (u64, u64) {
    let model = model(n, encoding).unwrap();
    let mut search = Search::new(&model, config);
    let before = ALLOCATIONS.load(Ordering::Relaxed);
    search.run(&mut ());
    let after = ALLOCATIONS.load(Ordering::Relaxed);
    (after - before, search.stats().nodes)
}

#[test]
fn search_allocations_do_not_grow_with_nodes() {
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
