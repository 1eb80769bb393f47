//! Splitting one search tree into subproblems that several workers search at once:
//! embarrassingly parallel search (Régin, Rezgui & Malapert, *Embarrassingly Parallel Search*,
//! CP 2013). The tree's top levels are expanded with the search's own brancher, each node
//! propagated, to the shallowest depth that leaves enough open nodes; each becomes a subproblem,
//! the decisions from the root to it. The subproblems partition the tree (the children of a node
//! are a decision and its negation, or one assignment per value), so every solution lies in
//! exactly one of them, and the tree is exhausted when every subproblem is. Having many more subproblems than workers
//! balances the load without any exchange between the workers: one that finishes early takes the
//! next.

use std::sync::atomic::{AtomicUsize, Ordering};

use csp_core::{Model, Store};

use crate::bound::SharedBound;
use crate::branch::{Branch, Brancher, BuiltinBrancher, Decision};
use crate::engine::Search;
use crate::{Conflicts, Propagation, SearchConfig, SelectCtx};

/// The deepest the split goes: 2²⁰ subproblems at most from binary branching.
const MAX_SPLIT_DEPTH: usize = 20;

/// About `target` subproblems of the tree `config` searches on `model`, in the tree's
/// left-to-right order, each the decisions from the root to it; a search restricted to one of
/// them ([`crate::Search::assume`]) searches that subtree. Nodes that propagation refutes are left
/// out (they hold no solution); a node that is already a solution stays one subproblem.
///
/// The tree is expanded depth-first to a depth limit that grows by one until there are at least
/// `target` open nodes (or the whole tree is expanded), on one store with its trail, so that no
/// store is ever copied. Splitting needs the fixpoint propagation of MAC, which search by
/// decisions uses: under the other propagations the whole tree is the one subproblem.
pub fn split_tree(model: &Model, config: &SearchConfig, target: usize) -> Vec<Vec<Decision>> {
    let whole = vec![Vec::new()];
    if config.propagation != Propagation::Mac || target <= 1 {
        return whole;
    }
    let mut store = Store::new(model);
    store.set_tracking(true);
    if store.establish_arc_consistency(model).is_err() {
        // The root fails: the one subproblem is proven empty at once by whoever takes it.
        return whole;
    }
    // The tree is split by the search's own decisions: under learning the brancher leaves the
    // variables its annotations do not name to activity, which splits nothing, so the split
    // uses the annotations' completing search (dom/wdeg) for them, as search without learning does.
    let backtracking = SearchConfig {
        conflicts: Conflicts::Backtrack,
        ..config.clone()
    };
    let mut split = Split {
        model,
        config,
        brancher: BuiltinBrancher::from_config(model, &backtracking),
        store,
        path: Vec::new(),
        subproblems: Vec::new(),
        cut: false,
        values: Vec::new(),
    };
    for depth in 1..=MAX_SPLIT_DEPTH {
        split.subproblems.clear();
        split.cut = false;
        split.expand(depth);
        if split.subproblems.len() >= target || !split.cut {
            break;
        }
    }
    if split.subproblems.is_empty() {
        // Every node failed: the tree holds no solution, which the one subproblem shows.
        return whole;
    }
    split.subproblems
}

/// The subproblems of one split tree, shared by the workers that search them: each takes the next
/// untaken one, and the worker that finishes the last one to be finished holds the proof that the
/// whole tree is exhausted.
#[derive(Debug, Default)]
pub struct SubproblemPool {
    subproblems: Vec<Vec<Decision>>,
    next: AtomicUsize,
    finished: AtomicUsize,
}

impl SubproblemPool {
    /// A pool of `subproblems` (as [`split_tree`] makes them), none taken yet.
    pub fn new(subproblems: Vec<Vec<Decision>>) -> Self {
        SubproblemPool {
            subproblems,
            next: AtomicUsize::new(0),
            finished: AtomicUsize::new(0),
        }
    }

    /// How many subproblems the tree was split into.
    pub fn len(&self) -> usize {
        self.subproblems.len()
    }

    /// Whether there are none (no tree was split).
    pub fn is_empty(&self) -> bool {
        self.subproblems.is_empty()
    }

    /// The next subproblem nobody has taken, in the tree's left-to-right order, or `None` when
    /// every one has been taken. Each is handed out once.
    pub fn take(&self) -> Option<&[Decision]> {
        let index = self.next.fetch_add(1, Ordering::Relaxed);
        self.subproblems.get(index).map(Vec::as_slice)
    }

    /// A search of the next untaken subproblem ([`SubproblemPool::take`]) as `config` says, under
    /// `bound` if there is one, or `None` when every subproblem has been taken.
    pub fn take_search<'m>(
        &self,
        model: &'m Model,
        config: &SearchConfig,
        bound: Option<&SharedBound>,
    ) -> Option<Search<'m>> {
        let decisions = self.take()?;
        let mut search = Search::new(model, config);
        search.assume(decisions);
        if let Some(bound) = bound {
            search.share_bound(bound.clone());
        }
        Some(search)
    }

    /// Records that a taken subproblem was searched to its end; returns whether it was the last
    /// of them all, so that the tree is exhausted (under the bound the searches shared).
    pub fn finish(&self) -> bool {
        self.finished.fetch_add(1, Ordering::AcqRel) + 1 == self.subproblems.len()
    }
}

/// A depth-limited expansion of the tree's top.
struct Split<'a> {
    model: &'a Model,
    config: &'a SearchConfig,
    brancher: BuiltinBrancher,
    store: Store,
    /// The decisions from the root to the current node.
    path: Vec<Decision>,
    /// The open nodes at the depth limit and the solutions above it, left to right.
    subproblems: Vec<Vec<Decision>>,
    /// Whether the depth limit cut any node that branches.
    cut: bool,
    values: Vec<i32>,
}

impl Split<'_> {
    /// Expands the current node `depth` levels further. A node with one child (a variable fixed by
    /// propagation still has its one value to assign) splits nothing, so the expansion follows
    /// such chains without spending depth on them.
    fn expand(&mut self, depth: usize) {
        let checkpoint = self.store.checkpoint();
        let path_len = self.path.len();
        let children = loop {
            let ctx = SelectCtx::new(self.model, &self.store, self.config.propagation);
            self.values.clear();
            let Some(branch) = self.brancher.branch(&ctx, &mut self.values) else {
                // A solution: the subproblem is the node itself.
                self.subproblems.push(self.path.clone());
                break Vec::new();
            };
            let children: Vec<Decision> = match branch {
                Branch::Binary(decision) => std::iter::once(decision)
                    .chain(decision.negation())
                    .collect(),
                Branch::Values(var) => self
                    .values
                    .iter()
                    .map(|&value| Decision::Assign(var, value))
                    .collect(),
            };
            let [only] = children[..] else {
                break children;
            };
            if !self.descend(only) {
                break Vec::new();
            }
        };
        if !children.is_empty() {
            if depth == 0 {
                self.cut = true;
                self.subproblems.push(self.path.clone());
            } else {
                for decision in children {
                    let mark = self.store.checkpoint();
                    if self.descend(decision) {
                        self.expand(depth - 1);
                        self.path.pop();
                    }
                    self.store.undo_to(self.model, mark);
                }
            }
        }
        self.path.truncate(path_len);
        self.store.undo_to(self.model, checkpoint);
    }

    /// Takes `decision` and propagates: whether the node is consistent (then the decision is on
    /// the path; the caller undoes the store either way).
    fn descend(&mut self, decision: Decision) -> bool {
        let restricted = match decision {
            // Value enumeration branches on unassigned variables: an assignment it chose must
            // assign, or the next node would choose the same variable again.
            Decision::Assign(var, value) if !self.store.is_assigned(var) => {
                if self.store.domain(var).contains(value) {
                    self.store.assign(self.model, var, value);
                    true
                } else {
                    false
                }
            }
            _ => decision.restrict(&mut self.store).is_ok(),
        };
        let consistent = restricted && self.store.propagate(self.model).is_ok();
        if consistent {
            self.path.push(decision);
        }
        consistent
    }
}

#[cfg(test)]
mod tests {
    use csp_core::ModelBuilder;
    use csp_core::constraints::AllDifferent;

    use super::*;
    use crate::{Outcome, Search};

    /// Five variables over 0..=4, all different: 120 solutions.
    fn permutations() -> Model {
        let mut builder = ModelBuilder::new();
        let vars = (0..5)
            .map(|i| builder.int_var(format!("x{i}"), 0..=4))
            .collect::<Result<Vec<_>, _>>()
            .unwrap();
        builder.post(AllDifferent::new(vars)).unwrap();
        builder.build()
    }

    #[test]
    fn the_subproblems_partition_the_tree() {
        let model = permutations();
        // Binary decisions (free search, MiniZinc's), and value enumeration under MAC, whose
        // assignments the split must make as assignments.
        let enumeration = SearchConfig {
            propagation: Propagation::Mac,
            ..SearchConfig::min()
        };
        for config in [
            SearchConfig::free(),
            SearchConfig::decisions(Vec::new()),
            enumeration,
        ] {
            let subproblems = split_tree(&model, &config, 16);
            assert!(subproblems.len() >= 16, "{} subproblems", subproblems.len());
            let config = config.all_solutions();
            let mut solutions = Vec::new();
            for decisions in &subproblems {
                let mut search = Search::new(&model, &config);
                search.assume(decisions);
                while let Some(values) = search.next_solution(&mut ()) {
                    solutions.push(values.to_vec());
                }
                assert_eq!(search.outcome(), Some(Outcome::Exhausted));
            }
            // Every solution once: no subproblem lost, none overlapping.
            assert_eq!(solutions.len(), 120);
            solutions.sort();
            solutions.dedup();
            assert_eq!(solutions.len(), 120);
        }
    }

    #[test]
    fn without_fixpoint_propagation_the_tree_stays_whole() {
        let model = permutations();
        assert_eq!(
            split_tree(&model, &SearchConfig::min(), 16),
            vec![Vec::new()]
        );
        assert_eq!(
            split_tree(&model, &SearchConfig::free(), 1),
            vec![Vec::new()]
        );
    }
}
