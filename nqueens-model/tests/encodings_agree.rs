//! The counter encoding must behave exactly like the pairwise encoding under the same search: the same
//! values pass `Store::is_consistent`, forward checking leaves the same domains and fails in the same
//! situations, and undo restores both alike. These tests drive two stores side by side.

use csp_core::{Checkpoint, Model, Store, VarId};
use nqueens_model::{Encoding, model, verify};
use proptest::prelude::*;

/// Everything a search can observe of a store: assignment, domains, and which values pass
/// `is_consistent` for every unassigned row.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Observed {
    values: Vec<Option<i32>>,
    domains: Vec<Vec<i32>>,
    /// For each row, the columns `0..n` that pass `is_consistent` (empty for assigned rows).
    consistent: Vec<Vec<i32>>,
}

fn observe(model: &Model, store: &Store) -> Observed {
    let n = model.num_vars() as i32;
    Observed {
        values: model.vars().map(|var| store.value(var)).collect(),
        domains: model
            .vars()
            .map(|var| store.domain(var).values().collect())
            .collect(),
        consistent: model
            .vars()
            .map(|var| {
                if store.is_assigned(var) {
                    Vec::new()
                } else {
                    (0..n)
                        .filter(|&value| store.is_consistent(model, var, value))
                        .collect()
                }
            })
            .collect(),
    }
}

/// One step of a random walk through a search tree.
#[derive(Debug, Clone)]
enum Step {
    /// Assign some unassigned row (chosen by `row_pick` modulo their number) a value of its domain,
    /// then forward-check it if the run's [`Propagation`] says so.
    Assign {
        row_pick: usize,
        value_pick: usize,
        forward_check: bool,
    },
    /// Remember the current state.
    Checkpoint,
    /// Return to the most recently remembered state.
    Undo,
}

fn step() -> impl Strategy<Value = Step> {
    prop_oneof![
        4 => (any::<usize>(), any::<usize>(), prop::bool::weighted(0.75)).prop_map(
            |(row_pick, value_pick, forward_check)| Step::Assign {
                row_pick,
                value_pick,
                forward_check,
            }
        ),
        1 => Just(Step::Checkpoint),
        1 => Just(Step::Undo),
    ]
}

/// Which assignments of a run are forward-checked.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Propagation {
    /// Every one, as a forward-checking search does.
    ForwardChecking,
    /// None, as Dijkstra's search does: values are only tested with `is_consistent`.
    CheckPast,
    /// Those whose step says so. Queens placed without forward checking may then be attacked by later
    /// ones, and forward checking must fail on that in both encodings.
    Mixed,
}

/// Two stores, one per encoding, driven through the same steps.
struct SideBySide {
    pairwise: Model,
    counters: Model,
    pairwise_store: Store,
    counters_store: Store,
    saved: Vec<(Checkpoint, Checkpoint, Observed)>,
}

impl SideBySide {
    fn new(n: usize) -> Self {
        let pairwise = model(n, Encoding::Pairwise).expect("small boards fit");
        let counters = model(n, Encoding::Counters).expect("small boards fit");
        let pairwise_store = Store::new(&pairwise);
        let counters_store = Store::new(&counters);
        SideBySide {
            pairwise,
            counters,
            pairwise_store,
            counters_store,
            saved: Vec::new(),
        }
    }

    /// Observes both stores and insists they agree.
    fn observe_both(&self) -> Observed {
        let pairwise = observe(&self.pairwise, &self.pairwise_store);
        let counters = observe(&self.counters, &self.counters_store);
        assert_eq!(pairwise, counters, "the encodings disagree");
        pairwise
    }

    fn run(&mut self, steps: &[Step], propagation: Propagation) {
        self.observe_both();
        for step in steps {
            match *step {
                Step::Assign {
                    row_pick,
                    value_pick,
                    forward_check,
                } => {
                    let forward_check = match propagation {
                        Propagation::ForwardChecking => true,
                        Propagation::CheckPast => false,
                        Propagation::Mixed => forward_check,
                    };
                    self.assign(row_pick, value_pick, forward_check);
                }
                Step::Checkpoint => {
                    let observed = self.observe_both();
                    self.saved.push((
                        self.pairwise_store.checkpoint(),
                        self.counters_store.checkpoint(),
                        observed,
                    ));
                }
                Step::Undo => {
                    if let Some((pairwise_checkpoint, counters_checkpoint, observed)) =
                        self.saved.pop()
                    {
                        self.pairwise_store
                            .undo_to(&self.pairwise, pairwise_checkpoint);
                        self.counters_store
                            .undo_to(&self.counters, counters_checkpoint);
                        assert_eq!(self.observe_both(), observed, "undo did not restore");
                    }
                }
            }
        }
    }

    fn assign(&mut self, row_pick: usize, value_pick: usize, forward_check: bool) {
        let unassigned: Vec<VarId> = self
            .pairwise
            .vars()
            .filter(|&var| !self.pairwise_store.is_assigned(var))
            .collect();
        if unassigned.is_empty() {
            return;
        }
        let var = unassigned[row_pick % unassigned.len()];
        let domain: Vec<i32> = self.pairwise_store.domain(var).values().collect();
        let value = domain[value_pick % domain.len()];
        let before = self.observe_both();
        let checkpoints = (
            self.pairwise_store.checkpoint(),
            self.counters_store.checkpoint(),
        );
        self.pairwise_store.assign(&self.pairwise, var, value);
        self.counters_store.assign(&self.counters, var, value);
        self.observe_both();
        if !forward_check {
            return;
        }
        let pairwise_result = self.pairwise_store.forward_check(&self.pairwise, var);
        let counters_result = self.counters_store.forward_check(&self.counters, var);
        assert_eq!(
            pairwise_result.is_ok(),
            counters_result.is_ok(),
            "forward checking {var:?} = {value}: pairwise {pairwise_result:?}, counters {counters_result:?}"
        );
        if pairwise_result.is_ok() {
            self.observe_both();
        } else {
            // A search backtracks from a wipeout; the domains it left half-pruned may differ, since the
            // encodings remove values in different orders, but the undo must restore both.
            self.pairwise_store.undo_to(&self.pairwise, checkpoints.0);
            self.counters_store.undo_to(&self.counters, checkpoints.1);
            assert_eq!(self.observe_both(), before, "undo after a wipeout");
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn forward_checking_prunes_and_fails_alike_in_both_encodings(
        n in 1_usize..=8,
        steps in prop::collection::vec(step(), 0..40),
    ) {
        SideBySide::new(n).run(&steps, Propagation::ForwardChecking);
    }

    #[test]
    fn forward_checking_fails_alike_when_an_unchecked_queen_is_attacked(
        n in 1_usize..=8,
        steps in prop::collection::vec(step(), 0..40),
    ) {
        SideBySide::new(n).run(&steps, Propagation::Mixed);
    }

    #[test]
    fn check_past_consistency_agrees_in_both_encodings(
        n in 1_usize..=8,
        steps in prop::collection::vec(step(), 0..40),
    ) {
        // Without forward checking nothing is pruned, so attacking queens get placed: the counters
        // then go above one, and must still answer like the pairwise constraints.
        SideBySide::new(n).run(&steps, Propagation::CheckPast);
    }

    #[test]
    fn complete_assignments_are_solutions_in_both_encodings_exactly_when_verify_accepts(
        values in (1_usize..=8).prop_flat_map(|n| prop::collection::vec(0..n as i32, n)),
    ) {
        let n = values.len();
        let placement: Vec<u32> = values.iter().map(|&v| v as u32).collect();
        let valid = verify(&placement).is_ok();
        for encoding in Encoding::ALL {
            let model = model(n, encoding).expect("small boards fit");
            prop_assert_eq!(model.is_solution(&values), valid, "{}", encoding);
        }
    }
}

/// A full lexicographic search (rows in order, columns ascending), as Dijkstra's program and Stone &
/// Stone's LEX run it, with or without forward checking. Returns the solutions and the number of nodes
/// (placed queens, plus the root).
fn lex_search(model: &Model, forward_checking: bool) -> (Vec<Vec<u32>>, u64) {
    fn descend(
        model: &Model,
        store: &mut Store,
        forward_checking: bool,
        solutions: &mut Vec<Vec<u32>>,
        nodes: &mut u64,
    ) {
        let row = store.num_assigned();
        if row == model.num_vars() {
            solutions.push(store.values().iter().map(|&v| v as u32).collect());
            return;
        }
        let var = VarId::from_index(row);
        let candidates: Vec<i32> = store.domain(var).values().collect();
        for value in candidates {
            if !forward_checking && !store.is_consistent(model, var, value) {
                continue;
            }
            let checkpoint = store.checkpoint();
            store.assign(model, var, value);
            *nodes += 1;
            if !forward_checking || store.forward_check(model, var).is_ok() {
                descend(model, store, forward_checking, solutions, nodes);
            }
            store.undo_to(model, checkpoint);
        }
    }
    let mut store = Store::new(model);
    let (mut solutions, mut nodes) = (Vec::new(), 1);
    descend(
        model,
        &mut store,
        forward_checking,
        &mut solutions,
        &mut nodes,
    );
    (solutions, nodes)
}

#[test]
fn lex_search_finds_every_solution_with_the_same_tree_in_both_encodings() {
    let solution_counts = [1, 0, 0, 2, 10, 4, 40, 92];
    for (n, &expected) in (1..=8).zip(&solution_counts) {
        for forward_checking in [false, true] {
            let (pairwise_solutions, pairwise_nodes) = lex_search(
                &model(n, Encoding::Pairwise).expect("small boards fit"),
                forward_checking,
            );
            let (counters_solutions, counters_nodes) = lex_search(
                &model(n, Encoding::Counters).expect("small boards fit"),
                forward_checking,
            );
            assert_eq!(pairwise_solutions.len(), expected, "n = {n}");
            assert_eq!(pairwise_solutions, counters_solutions, "n = {n}");
            assert_eq!(pairwise_nodes, counters_nodes, "n = {n}");
            for solution in &counters_solutions {
                assert_eq!(verify(solution), Ok(()), "{solution:?}");
            }
        }
    }
}

#[test]
fn dijkstra_lex_tree_for_eight_queens_has_2057_nodes() {
    // ARCHITECTURE.md, Definitions: the full LEX tree for 8 queens has 2,057 nodes counting the root.
    for encoding in Encoding::ALL {
        let (solutions, nodes) = lex_search(&model(8, encoding).expect("8 queens fit"), false);
        assert_eq!(nodes, 2057, "{encoding}");
        assert_eq!(solutions.len(), 92, "{encoding}");
        // Dijkstra's program (*Notes on Structured Programming*, 1970) generates the solutions in
        // lexicographic order, the first being 0 4 7 5 2 6 1 3.
        assert_eq!(solutions[0], vec![0, 4, 7, 5, 2, 6, 1, 3]);
        assert!(solutions.windows(2).all(|pair| pair[0] < pair[1]));
    }
}
