//! Adversarial tests of the [`Store`] and its trail.
//!
//! The central property drives a store through random interleavings of checkpoints, assignments
//! (with and without forward checking) and undos to random earlier checkpoints, and compares
//! everything a caller can observe with a snapshot taken at the checkpoint. State cells are not
//! public, so two probe constraints keep counters in cells and report them through `check`.

use std::collections::BTreeSet;
use std::sync::{Arc, Mutex};

use csp_core::constraints::{AllDifferent, Linear, NotEqual, Relation, Table};
use csp_core::{
    CheckCtx, Checkpoint, Constraint, ConstraintId, Constructor, Model, ModelBuilder, Post,
    PostCtx, PropagationCtx, Propagator, Slot, Store, VarId, Wipeout,
};
use proptest::prelude::*;
use proptest::test_runner::FileFailurePersistence;

fn var(index: usize) -> VarId {
    VarId::from_index(index)
}

// ---------------------------------------------------------------------------------------------------
// Probe constraints
// ---------------------------------------------------------------------------------------------------

/// A constraint that allows everything and keeps counters of its scope's assignment in state slots:
/// how many scope variables are assigned, the sum of their values, and the largest of zero and their
/// values. `check` copies them out, since a test cannot read them any other way.
#[derive(Debug)]
struct CellProbe {
    scope: Vec<VarId>,
    seen: SeenCells,
    assigned: Slot<i64>,
    sum: Slot<i64>,
    largest: Slot<i64>,
}

impl CellProbe {
    fn new(scope: Vec<VarId>, seen: SeenCells) -> Constructor<Self> {
        Constructor::new(move |state: &mut PostCtx| {
            Ok(CellProbe {
                scope,
                seen,
                assigned: state.slot(),
                sum: state.slot(),
                largest: state.slot(),
            })
        })
    }
}

impl Constraint for CellProbe {
    fn scope(&self) -> &[VarId] {
        &self.scope
    }

    fn is_satisfied(&self, _values: &[i32]) -> bool {
        true
    }
}

impl Propagator for CellProbe {
    // Value enumeration.
    fn on_assign(&self, _var: VarId, value: i32, ctx: &mut PropagationCtx<'_>) {
        ctx.add(self.assigned, 1);
        ctx.add(self.sum, i64::from(value));
        // Often rewrites the slot with the value it already holds, a write the store need not trail;
        // undo must come out right either way.
        let largest = ctx.get(self.largest).max(i64::from(value));
        ctx.set(self.largest, largest);
    }

    fn check(&self, _var: VarId, _value: i32, ctx: &CheckCtx<'_>) -> bool {
        *self.seen.lock().unwrap() = [self.assigned, self.sum, self.largest]
            .map(|slot| ctx.get(slot))
            .to_vec();
        true
    }
}

// ---------------------------------------------------------------------------------------------------
// Random models
// ---------------------------------------------------------------------------------------------------

/// A constraint besides the probes, as data so that proptest can print it.
#[derive(Debug, Clone)]
enum Other {
    NotEqual(usize, i32, usize),
    AllDifferent(Vec<usize>),
    Linear(Vec<(i32, usize)>, Relation, i32),
    Table(Vec<usize>, Vec<Vec<i32>>),
}

#[derive(Debug, Clone)]
struct StoreInstance {
    domains: Vec<Vec<i32>>,
    probes: [Vec<usize>; 2],
    others: Vec<Other>,
}

/// Where a [`CellProbe`] leaves the cells it last saw.
type SeenCells = Arc<Mutex<Vec<i64>>>;

struct Built {
    model: Model,
    /// Each probe's scope and the cells it reports.
    probes: Vec<(Vec<VarId>, SeenCells)>,
}

impl StoreInstance {
    fn build(&self) -> Built {
        let mut builder = ModelBuilder::new();
        for (i, values) in self.domains.iter().enumerate() {
            builder
                .int_var_with_values(format!("v{i}"), values.clone())
                .unwrap();
        }
        let vars = |scope: &[usize]| scope.iter().copied().map(var).collect::<Vec<_>>();
        // The probes are posted first so that `is_consistent` reaches their `check` before any other
        // constraint can stop it by answering false.
        let mut probes = Vec::new();
        for scope in &self.probes {
            let seen = Arc::new(Mutex::new(Vec::new()));
            builder
                .post(CellProbe::new(vars(scope), Arc::clone(&seen)))
                .unwrap();
            probes.push((vars(scope), seen));
        }
        for other in &self.others {
            let constraint: Box<dyn Post> = match other {
                Other::NotEqual(x, offset, y) => {
                    Box::new(NotEqual::with_offsets(var(*x), *offset, var(*y), 0))
                }
                Other::AllDifferent(scope) => Box::new(AllDifferent::new(vars(scope))),
                Other::Linear(terms, relation, rhs) => Box::new(Linear::new(
                    terms.iter().map(|&(a, x)| (a, var(x))).collect(),
                    *relation,
                    *rhs,
                )),
                Other::Table(scope, tuples) => {
                    Box::new(Table::new(vars(scope), tuples.clone()).unwrap())
                }
            };
            builder.post_boxed(constraint).unwrap();
        }
        Built {
            model: builder.build(),
            probes,
        }
    }
}

fn scope_strategy(n: usize) -> impl Strategy<Value = Vec<usize>> {
    Just((0..n).collect::<Vec<_>>())
        .prop_shuffle()
        .prop_flat_map(move |order| (1..=n).prop_map(move |k| order[..k].to_vec()))
}

fn other_strategy(n: usize) -> impl Strategy<Value = Other> {
    prop_oneof![
        (0..n, -2i32..=2, 0..n - 1).prop_map(|(x, offset, y)| {
            Other::NotEqual(x, offset, if y >= x { y + 1 } else { y })
        }),
        scope_strategy(n).prop_map(Other::AllDifferent),
        scope_strategy(n)
            .prop_flat_map(|scope| {
                (
                    prop::collection::vec(-3i32..=3, scope.len()),
                    Just(scope),
                    prop_oneof![Just(Relation::Equal), Just(Relation::LessOrEqual)],
                    -8i32..=8,
                )
            })
            .prop_map(|(coefficients, scope, relation, rhs)| {
                Other::Linear(coefficients.into_iter().zip(scope).collect(), relation, rhs)
            }),
        scope_strategy(n)
            .prop_flat_map(|scope| {
                let len = scope.len();
                (
                    Just(scope),
                    prop::collection::vec(prop::collection::vec(-3i32..=3, len), 0..=10),
                )
            })
            .prop_map(|(scope, tuples)| Other::Table(scope, tuples)),
    ]
}

/// Two to six variables with up to five values in `-3..=3`, two probes, and up to three other
/// constraints.
fn store_instance_strategy() -> impl Strategy<Value = StoreInstance> {
    (2usize..=6)
        .prop_flat_map(|n| {
            (
                prop::collection::vec(prop::collection::vec(-3i32..=3, 1..=5), n),
                [scope_strategy(n), scope_strategy(n)],
                prop::collection::vec(other_strategy(n), 0..=3),
            )
        })
        .prop_map(|(domains, probes, others)| StoreInstance {
            domains,
            probes,
            others,
        })
}

#[derive(Debug, Clone)]
enum Op {
    Checkpoint,
    /// Assign the `var`-th unassigned variable its `value`-th remaining value.
    Assign {
        var: u8,
        value: u8,
        forward_check: bool,
    },
    /// Undo to the `depth`-th checkpoint still on the stack.
    Undo {
        depth: u8,
    },
}

fn ops_strategy() -> impl Strategy<Value = Vec<Op>> {
    prop::collection::vec(
        prop_oneof![
            2 => Just(Op::Checkpoint),
            4 => (any::<u8>(), any::<u8>(), prop::bool::weighted(0.7)).prop_map(
                |(var, value, forward_check)| Op::Assign { var, value, forward_check }
            ),
            1 => any::<u8>().prop_map(|depth| Op::Undo { depth }),
        ],
        0..=24,
    )
}

// ---------------------------------------------------------------------------------------------------
// Observing a store
// ---------------------------------------------------------------------------------------------------

/// Everything about a store that a caller can observe.
#[derive(Debug, Clone, PartialEq)]
struct Snapshot {
    domains: Vec<Vec<i32>>,
    values: Vec<Option<i32>>,
    num_assigned: usize,
    assigned_set: Vec<usize>,
    unassigned_in_scope: Vec<u32>,
    cells: Vec<Vec<i64>>,
}

fn probe_cells(store: &Store, built: &Built) -> Vec<Vec<i64>> {
    built
        .probes
        .iter()
        .map(|(scope, seen)| {
            seen.lock().unwrap().clear();
            // Only the probe's side effect matters here; the other constraints may well reject 0.
            let _ = store.is_consistent(&built.model, scope[0], 0);
            seen.lock().unwrap().clone()
        })
        .collect()
}

fn snapshot(store: &Store, built: &Built) -> Snapshot {
    let model = &built.model;
    Snapshot {
        domains: model
            .vars()
            .map(|v| store.domain(v).values().collect())
            .collect(),
        values: model.vars().map(|v| store.value(v)).collect(),
        num_assigned: store.num_assigned(),
        assigned_set: store.assigned_set().ones().collect(),
        unassigned_in_scope: model
            .constraint_ids()
            .map(|c| store.unassigned_in_scope(c))
            .collect(),
        cells: probe_cells(store, built),
    }
}

/// The store's bookkeeping recomputed from its assignment alone.
fn check_bookkeeping(store: &Store, built: &Built) -> Result<(), TestCaseError> {
    let model = &built.model;
    let assigned: Vec<usize> = model
        .vars()
        .filter(|&v| store.value(v).is_some())
        .map(VarId::index)
        .collect();
    prop_assert_eq!(store.num_assigned(), assigned.len());
    prop_assert_eq!(store.assigned_set().ones().collect::<Vec<_>>(), assigned);
    for v in model.vars() {
        prop_assert_eq!(store.is_assigned(v), store.value(v).is_some());
        if let Some(value) = store.value(v) {
            prop_assert!(
                store.domain(v).contains(value),
                "{v:?} = {value} is not in its domain"
            );
        }
    }
    for c in model.constraint_ids() {
        let free = model
            .constraint(c)
            .scope()
            .iter()
            .filter(|&&v| !store.is_assigned(v))
            .count();
        prop_assert_eq!(store.unassigned_in_scope(c) as usize, free, "{:?}", c);
    }
    let cells = probe_cells(store, built);
    for ((scope, _), cells) in built.probes.iter().zip(cells) {
        let values: Vec<i64> = scope
            .iter()
            .filter_map(|&v| store.value(v))
            .map(i64::from)
            .collect();
        let expected = vec![
            values.len() as i64,
            values.iter().sum(),
            values.iter().copied().fold(0, i64::max),
        ];
        prop_assert_eq!(cells, expected, "cells of the probe over {:?}", scope);
    }
    Ok(())
}

/// Applies `ops` to a fresh store. With `compare_snapshots`, every undo is compared with the snapshot
/// taken at its checkpoint, and a failed forward check is undone at once, as search would; without
/// it, the bookkeeping is recomputed after every step instead.
fn run(instance: &StoreInstance, ops: &[Op], compare_snapshots: bool) -> Result<(), TestCaseError> {
    let built = instance.build();
    let model = &built.model;
    let mut store = Store::new(model);
    let mut stack: Vec<(Checkpoint, Snapshot)> =
        vec![(store.checkpoint(), snapshot(&store, &built))];
    for op in ops {
        match *op {
            Op::Checkpoint => stack.push((store.checkpoint(), snapshot(&store, &built))),
            Op::Assign {
                var,
                value,
                forward_check,
            } => {
                let free: Vec<VarId> = model.vars().filter(|&v| !store.is_assigned(v)).collect();
                if free.is_empty() {
                    continue;
                }
                let chosen = free[usize::from(var) % free.len()];
                let values: Vec<i32> = store.domain(chosen).values().collect();
                let value = values[usize::from(value) % values.len()];
                store.assign(model, chosen, value);
                if forward_check && store.forward_check(model, chosen).is_err() {
                    let (checkpoint, expected) = stack.last().unwrap();
                    store.undo_to(model, *checkpoint);
                    if compare_snapshots {
                        prop_assert_eq!(
                            &snapshot(&store, &built),
                            expected,
                            "after undoing a failed forward check of {:?} = {}",
                            chosen,
                            value
                        );
                    }
                }
            }
            Op::Undo { depth } => {
                let depth = usize::from(depth) % stack.len();
                stack.truncate(depth + 1);
                let (checkpoint, expected) = &stack[depth];
                store.undo_to(model, *checkpoint);
                if compare_snapshots {
                    prop_assert_eq!(
                        &snapshot(&store, &built),
                        expected,
                        "after undoing to checkpoint {}",
                        depth
                    );
                }
            }
        }
        if !compare_snapshots {
            check_bookkeeping(&store, &built)?;
        }
    }
    let (checkpoint, expected) = &stack[0];
    store.undo_to(model, *checkpoint);
    prop_assert_eq!(
        &snapshot(&store, &built),
        expected,
        "after undoing everything"
    );
    Ok(())
}

/// Integration tests have no `lib.rs` beside them, so proptest's default cannot place its regression
/// file; this keeps failures in the crate's `proptest-regressions/`, committed like varisat's.
fn config() -> ProptestConfig {
    ProptestConfig {
        failure_persistence: Some(Box::new(FileFailurePersistence::Direct(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/proptest-regressions/store.txt"
        )))),
        ..ProptestConfig::default()
    }
}

proptest! {
    #![proptest_config(config())]

    /// Domains, the assignment, the scope counts and the state cells all come back exactly as they
    /// were at a checkpoint, however many checkpoints lie between and whether or not forward
    /// checking failed on the way.
    #[test]
    fn undo_to_restores_every_observable_part_of_the_store_across_nested_checkpoints(
        instance in store_instance_strategy(),
        ops in ops_strategy(),
    ) {
        run(&instance, &ops, true)?;
    }

    /// After every assign, forward check and undo, the counters the store keeps (`num_assigned`,
    /// `assigned_set`, `unassigned_in_scope`, the probes' cells) match a recount from the
    /// assignment, and an assigned variable's value stays in its domain.
    #[test]
    fn bookkeeping_matches_a_recount_after_every_step(
        instance in store_instance_strategy(),
        ops in ops_strategy(),
    ) {
        run(&instance, &ops, false)?;
    }
}

// ---------------------------------------------------------------------------------------------------
// Hand-picked cases
// ---------------------------------------------------------------------------------------------------

fn three_vars() -> (ModelBuilder, VarId, VarId, VarId) {
    let mut builder = ModelBuilder::new();
    let x = builder.int_var("x", 1..=3).unwrap();
    let y = builder.int_var_with_values("y", [1, 2]).unwrap();
    let z = builder.int_var_with_values("z", [1]).unwrap();
    (builder, x, y, z)
}

fn values_of(store: &Store, v: VarId) -> Vec<i32> {
    store.domain(v).values().collect()
}

#[test]
fn a_fresh_store_has_the_initial_domains_no_assignment_and_full_scope_counts() {
    let (mut builder, x, y, z) = three_vars();
    let pair = builder.post(NotEqual::new(x, y)).unwrap();
    let all = builder.post(AllDifferent::new(vec![x, y, z])).unwrap();
    let model = builder.build();
    let store = Store::new(&model);
    assert_eq!(store.num_vars(), 3);
    assert_eq!(store.num_assigned(), 0);
    assert_eq!(store.assigned_set().count_ones(..), 0);
    assert_eq!(
        (
            store.unassigned_in_scope(pair),
            store.unassigned_in_scope(all)
        ),
        (2, 3)
    );
    for v in model.vars() {
        assert_eq!(store.value(v), None);
        assert_eq!(
            values_of(&store, v),
            model.initial_domain(v).values().collect::<Vec<_>>()
        );
    }
}

#[test]
fn undo_to_the_current_checkpoint_changes_nothing() {
    let (mut builder, x, y, z) = three_vars();
    builder.post(AllDifferent::new(vec![x, y, z])).unwrap();
    let model = builder.build();
    let mut store = Store::new(&model);
    store.assign(&model, x, 2);
    store.forward_check(&model, x).unwrap();
    let here = store.checkpoint();
    store.undo_to(&model, here);
    assert_eq!(store.checkpoint(), here);
    assert_eq!(store.value(x), Some(2));
    assert_eq!(values_of(&store, y), vec![1]);
}

/// AllDifferent removes 1 from `y` (leaving `{2}`) before it empties `z = {1}`; the removal that
/// succeeded must be undone with the rest.
#[test]
fn undo_after_a_failed_forward_check_restores_the_values_removed_before_the_failure() {
    let (mut builder, x, y, z) = three_vars();
    let all = builder.post(AllDifferent::new(vec![x, y, z])).unwrap();
    let model = builder.build();
    let mut store = Store::new(&model);
    let start = store.checkpoint();
    store.assign(&model, x, 1);
    assert_eq!(store.forward_check(&model, x), Err(all));
    assert_eq!(values_of(&store, y), vec![2]);
    store.undo_to(&model, start);
    assert_eq!(values_of(&store, y), vec![1, 2]);
    assert_eq!(values_of(&store, z), vec![1]);
    assert_eq!(store.value(x), None);
    assert_eq!(store.unassigned_in_scope(all), 3);
}

/// Both constraints fail on `x = 1`; the one posted first is named, and the second never runs.
#[test]
fn forward_check_names_the_first_failing_constraint_in_posting_order() {
    let (mut builder, x, y, z) = three_vars();
    let first = builder.post(NotEqual::new(z, x)).unwrap();
    builder
        .post(Linear::new(vec![(1, x), (1, y)], Relation::Equal, 10))
        .unwrap();
    let model = builder.build();
    let mut store = Store::new(&model);
    store.assign(&model, x, 1);
    assert_eq!(store.forward_check(&model, x), Err(first));
    assert_eq!(
        values_of(&store, y),
        vec![1, 2],
        "the second constraint did not run"
    );
}

#[test]
fn a_cloned_store_is_independent_of_the_original() {
    let (mut builder, x, y, z) = three_vars();
    builder.post(AllDifferent::new(vec![x, y, z])).unwrap();
    let model = builder.build();
    let mut store = Store::new(&model);
    let copy = store.clone();
    store.assign(&model, x, 2);
    store.forward_check(&model, x).unwrap();
    assert_eq!(copy.value(x), None);
    assert_eq!(values_of(&copy, y), vec![1, 2]);
    assert_eq!(copy.num_assigned(), 0);
}

/// A constraint whose propagation runs a fixed list of requests against the store and records what
/// each answered, to pin down `PropagationCtx::remove` and `restrict_bounds` themselves.
#[derive(Debug)]
struct Requests {
    scope: Vec<VarId>,
    requests: Vec<Request>,
    answers: Arc<Mutex<Vec<Result<bool, Wipeout>>>>,
}

#[derive(Debug, Clone, Copy)]
enum Request {
    Remove(VarId, i32),
    RestrictBounds(VarId, i64, i64),
}

impl Constraint for Requests {
    fn scope(&self) -> &[VarId] {
        &self.scope
    }

    fn is_satisfied(&self, _values: &[i32]) -> bool {
        true
    }
}

impl Propagator for Requests {
    // Value enumeration.
    fn forward_check(&self, _var: VarId, ctx: &mut PropagationCtx<'_>) -> Result<(), Wipeout> {
        let answers = self
            .requests
            .iter()
            .map(|request| match *request {
                Request::Remove(v, value) => ctx.remove(v, value),
                Request::RestrictBounds(v, lo, hi) => ctx.restrict_bounds(v, lo, hi).map(|()| true),
            })
            .collect();
        *self.answers.lock().unwrap() = answers;
        Ok(())
    }
}

/// Runs `requests` from the propagation of `trigger = value` and returns the answers and the store.
fn answer(
    requests: Vec<Request>,
    trigger: VarId,
    value: i32,
    builder: ModelBuilder,
    scope: Vec<VarId>,
) -> (Vec<Result<bool, Wipeout>>, Store, Model) {
    let mut builder = builder;
    let answers = Arc::new(Mutex::new(Vec::new()));
    builder
        .post(Requests {
            scope,
            requests,
            answers: Arc::clone(&answers),
        })
        .unwrap();
    let model = builder.build();
    let mut store = Store::new(&model);
    store.assign(&model, trigger, value);
    store.forward_check(&model, trigger).unwrap();
    let answers = answers.lock().unwrap().clone();
    (answers, store, model)
}

/// An assigned variable keeps its domain: removing its own value is a wipeout, any other value is
/// ignored; an unassigned one loses the value once and fails when it runs out.
#[test]
fn remove_fails_only_for_an_assigned_variables_own_value_or_an_emptied_domain() {
    let (builder, x, y, z) = three_vars();
    let (answers, store, _) = answer(
        vec![
            Request::Remove(x, 3),
            Request::Remove(x, 2),
            Request::Remove(y, 2),
            Request::Remove(y, 2),
            Request::Remove(y, 7),
            Request::Remove(z, 1),
        ],
        x,
        2,
        builder,
        vec![x, y, z],
    );
    assert_eq!(
        answers,
        vec![
            Ok(false),
            Err(Wipeout),
            Ok(true),
            Ok(false),
            Ok(false),
            Err(Wipeout)
        ]
    );
    // Assigning fixed x's domain to its value, so removing that value emptied it.
    assert_eq!(values_of(&store, x), Vec::<i32>::new());
    assert_eq!(values_of(&store, y), vec![1]);
}

/// `restrict_bounds` keeps `lo..=hi` even when the bounds lie beyond `i32`, accepts an assigned
/// variable whose value lies inside, and fails when the value or every value lies outside.
#[test]
fn restrict_bounds_keeps_the_values_in_range_and_fails_when_none_is_left() {
    let mut builder = ModelBuilder::new();
    let x = builder.int_var("x", -3..=3).unwrap();
    let y = builder.int_var_with_values("y", [-9, 0, 9]).unwrap();
    let w = builder.int_var("w", 0..=1).unwrap();
    let (answers, store, _) = answer(
        vec![
            Request::RestrictBounds(x, -1, i64::MAX),
            Request::RestrictBounds(y, i64::MIN, 8),
            Request::RestrictBounds(w, 1, 1),
            Request::RestrictBounds(w, 0, 0),
            Request::RestrictBounds(y, 1, 8),
        ],
        w,
        1,
        builder,
        vec![x, y, w],
    );
    assert_eq!(
        answers,
        vec![Ok(true), Ok(true), Ok(true), Err(Wipeout), Err(Wipeout)]
    );
    assert_eq!(values_of(&store, x), vec![-1, 0, 1, 2, 3]);
}

/// Each constraint's count moves on its own: assigning a variable outside a scope leaves that
/// scope's count alone.
#[test]
fn unassigned_in_scope_counts_each_constraint_separately() {
    let (mut builder, x, y, z) = three_vars();
    let xy = builder.post(NotEqual::new(x, y)).unwrap();
    let yz = builder
        .post(Table::new(vec![y, z], vec![vec![2, 1]]).unwrap())
        .unwrap();
    let model = builder.build();
    let mut store = Store::new(&model);
    let counts = |store: &Store| {
        [xy, yz]
            .iter()
            .map(|&c: &ConstraintId| store.unassigned_in_scope(c))
            .collect::<Vec<_>>()
    };
    let start = store.checkpoint();
    store.assign(&model, x, 3);
    assert_eq!(counts(&store), vec![1, 2]);
    store.assign(&model, z, 1);
    assert_eq!(counts(&store), vec![1, 1]);
    store.assign(&model, y, 2);
    assert_eq!(counts(&store), vec![0, 0]);
    assert_eq!(
        store.assigned_set().ones().collect::<BTreeSet<_>>(),
        BTreeSet::from([0, 1, 2])
    );
    store.undo_to(&model, start);
    assert_eq!(counts(&store), vec![2, 2]);
}

/// A constraint that reports itself entailed is neither notified nor revised again on that branch,
/// and is back once search undoes past the point where it was entailed: `b → x ≤ y` with `b = 0`
/// holds whatever `x` and `y` become, and with `b = 1` after the undo it prunes again.
#[test]
fn an_entailed_constraint_sleeps_until_undone() {
    use csp_core::constraints::{Compare, Comparison, Reification, ReifiedCompare};

    let mut builder = ModelBuilder::new();
    let x = builder.int_var("x", 0..=9).unwrap();
    let y = builder.int_var("y", 0..=9).unwrap();
    let b = builder.int_var("b", 0..=1).unwrap();
    let implied = builder
        .post(
            ReifiedCompare::new(
                b,
                Compare::new(x, Comparison::LessOrEqual, y, 0).unwrap(),
                Reification::Implies,
            )
            .unwrap(),
        )
        .unwrap();
    let model = builder.build();
    let mut store = Store::new(&model);
    store.establish_arc_consistency(&model).unwrap();
    assert!(!store.is_entailed(&model, implied));
    let before = store.checkpoint();

    store.set_bounds(b, 0, 0).unwrap();
    store.propagate(&model).unwrap();
    assert!(store.is_entailed(&model, implied));
    let revisions = store.propagations();
    store.set_bounds(x, 7, 9).unwrap();
    store.set_bounds(y, 0, 2).unwrap();
    store.propagate(&model).unwrap();
    assert_eq!(
        store.propagations(),
        revisions,
        "an entailed constraint ran"
    );

    store.undo_to(&model, before);
    assert!(!store.is_entailed(&model, implied));
    store.set_bounds(b, 1, 1).unwrap();
    store.set_bounds(x, 5, 9).unwrap();
    store.propagate(&model).unwrap();
    assert_eq!(store.lb(y), 5, "x ≤ y prunes again after the undo");
}
