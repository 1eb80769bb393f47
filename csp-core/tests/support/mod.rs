//! The brute-force harness the catalogue's property tests share.
//!
//! A [`Case`] is one constraint over a few variables with small domains, beside an oracle: the
//! relation restated from its definition over the whole assignment, without csp-core. [`check`] then
//! holds the constraint to its promises:
//!
//! - its checker agrees with the oracle on every assignment of the domains;
//! - at the root and after each step of a random walk of decisions (`x = v`, `x ≠ v`, `x ≤ m`,
//!   `x ≥ m`, each followed by propagation to a fixpoint, some undone again), propagation never
//!   removes a value of a solution, fails only when no solution is left, accepts a fully fixed
//!   assignment exactly when the oracle does, and is a fixpoint (propagating again changes nothing);
//! - the fixpoint is as strong as the constraint's documented [`Level`], computed by brute force
//!   (generalised arc consistency, bounds(D) or bounds(Z) consistency), plus any property of its own
//!   the case adds;
//! - every change propagation makes and every failure it reports is explained for learning
//!   ([`csp_core::Propagator::explain`], [`csp_core::Propagator::explain_failure`]), and each
//!   explanation is checked by brute force: its literals held, and with the constraint they imply
//!   the change (or, for a failure, admit no solution). A constraint listed in [`UNEXPLAINED`]
//!   may still leave a change to the learner's fallback; every other must explain all of them.
//!
//! Every test file of the catalogue includes this module; each uses part of it.
#![allow(dead_code)]

use csp_core::Domains;
use csp_core::{
    Cause, Constraint, ExplainCtx, Literal, LiteralRelation, Model, ModelBuilder, Post, Posted,
    Store, VarId,
};
use proptest::prelude::*;
use proptest::test_runner::{FileFailurePersistence, TestCaseError};

/// The consistency a propagator promises at its fixpoint.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Level {
    /// Generalised arc consistency: every value left takes part in a solution within the current
    /// domains, and propagation fails when none is left.
    Domain,
    /// Bounds(D): each variable's smallest and largest value take part in a solution within the
    /// current domains.
    BoundsD,
    /// Bounds(Z): each variable's smallest and largest value take part in a solution in which every
    /// other variable lies between its bounds (holes ignored).
    BoundsZ,
    /// Soundness and checker-completeness only (the case may add a property of its own).
    Sound,
}

/// A property of a fixpoint of the case's own (a timetable, a chain of successors): given the
/// current domains, `Err` with what is wrong.
pub type Property<'a> = dyn Fn(&[Vec<i32>]) -> Result<(), String> + 'a;

/// One constraint on a small model, with its oracle.
pub struct Case<'a> {
    /// The variables' domains; variable `i` is `VarId::from_index(i)`.
    pub domains: Vec<Vec<i32>>,
    /// Builds the constraint, over those variables (called once for the checker, once for the model).
    pub build: &'a dyn Fn() -> Box<dyn Post>,
    /// The relation from its definition, over the whole assignment (one value per variable).
    pub oracle: &'a dyn Fn(&[i32]) -> bool,
    /// What the fixpoint promises.
    pub level: Level,
    /// A further property of every fixpoint.
    pub property: Option<&'a Property<'a>>,
}

/// One step of a walk: a decision on variable `var % n`, at the value picked by `pick` among its
/// current values, and whether to undo back to an earlier point afterwards.
#[derive(Debug, Clone, Copy)]
pub struct Step {
    /// 0: `x = v`, 1: `x ≠ v`, 2: `x ≤ v`, 3: `x ≥ v`; 4 to 7 the same after a bound on the next
    /// variable (`y ≤ w` or `y ≥ w`), so that propagation starts from changes to two variables.
    pub kind: u8,
    pub var: u8,
    pub pick: u8,
    /// Undo to the checkpoint this many steps back (0: keep going).
    pub undo: u8,
}

/// Random walks of a few steps.
pub fn walk_strategy() -> impl Strategy<Value = Vec<Step>> {
    prop::collection::vec(
        (
            0u8..4,
            any::<u8>(),
            any::<u8>(),
            prop_oneof![4 => Just(0u8), 1 => 1u8..4],
        )
            .prop_map(|(kind, var, pick, undo)| Step {
                kind,
                var,
                pick,
                undo,
            }),
        0..10,
    )
}

/// A domain of one to `max_size` values within `lo..=hi`, sometimes with holes.
pub fn domain_strategy(lo: i32, hi: i32, max_size: usize) -> BoxedStrategy<Vec<i32>> {
    prop_oneof![
        (lo..=hi, 0..max_size as i32).prop_map(move |(a, w)| (a..=(a + w).min(hi)).collect()),
        prop::collection::btree_set(lo..=hi, 1..=max_size)
            .prop_map(|set| set.into_iter().collect()),
    ]
    .boxed()
}

/// The failure file of one test binary, so that proptest keeps its regressions in the crate's
/// `proptest-regressions/` (integration tests have no `lib.rs` beside them).
pub fn config(file: &'static str, cases: u32) -> ProptestConfig {
    ProptestConfig {
        cases,
        failure_persistence: Some(Box::new(FileFailurePersistence::Direct(file))),
        ..ProptestConfig::default()
    }
}

/// The variable with index `i`.
pub fn var(i: usize) -> VarId {
    VarId::from_index(i)
}

/// The model of a case: its variables and the one constraint.
pub fn model(domains: &[Vec<i32>], constraint: Box<dyn Post>) -> Model {
    let mut builder = ModelBuilder::new();
    for (i, d) in domains.iter().enumerate() {
        builder
            .int_var_with_values(format!("v{i}"), d.iter().copied())
            .expect("a non-empty domain");
    }
    builder.post_boxed(constraint).expect("a valid constraint");
    builder.build()
}

/// Every variable's current values.
pub fn domains_of(store: &Store) -> Vec<Vec<i32>> {
    (0..store.num_vars())
        .map(|i| store.domain(var(i)).values().collect())
        .collect()
}

/// Calls `visit` on every assignment of `choices` (one list of values per variable) until it returns
/// `false`.
pub fn for_each_tuple(choices: &[Vec<i32>], mut visit: impl FnMut(&[i32]) -> bool) {
    if choices.iter().any(Vec::is_empty) {
        return;
    }
    let mut digits = vec![0usize; choices.len()];
    let mut tuple: Vec<i32> = choices.iter().map(|c| c[0]).collect();
    loop {
        if !visit(&tuple) {
            return;
        }
        let mut i = 0;
        loop {
            if i == choices.len() {
                return;
            }
            digits[i] += 1;
            if digits[i] < choices[i].len() {
                tuple[i] = choices[i][digits[i]];
                break;
            }
            digits[i] = 0;
            tuple[i] = choices[i][0];
            i += 1;
        }
    }
}

/// Every assignment of `choices` the oracle accepts.
pub fn solutions(choices: &[Vec<i32>], oracle: &dyn Fn(&[i32]) -> bool) -> Vec<Vec<i32>> {
    let mut found = Vec::new();
    for_each_tuple(choices, |t| {
        if oracle(t) {
            found.push(t.to_vec());
        }
        true
    });
    found
}

/// The values of each domain's range, holes filled.
pub fn intervals(domains: &[Vec<i32>]) -> Vec<Vec<i32>> {
    domains
        .iter()
        .map(|d| match (d.first(), d.last()) {
            (Some(&lo), Some(&hi)) => (lo..=hi).collect(),
            _ => Vec::new(),
        })
        .collect()
}

/// Checks one fixpoint: `before` are the domains propagation started from, `result` what it said,
/// and `store` the state it left.
fn check_fixpoint(
    case: &Case<'_>,
    model: &Model,
    store: &mut Store,
    before: &[Vec<i32>],
    result: Result<(), csp_core::ConstraintId>,
) -> Result<(), TestCaseError> {
    let oracle = case.oracle;
    let sols = solutions(before, oracle);
    if result.is_err() {
        prop_assert!(
            sols.is_empty(),
            "propagation failed on {before:?} although {:?} is a solution",
            sols[0]
        );
        return Ok(());
    }
    let after = domains_of(store);
    for sol in &sols {
        for (i, &v) in sol.iter().enumerate() {
            prop_assert!(
                after[i].contains(&v),
                "v{i}={v} was removed from {before:?} (now {after:?}) but {sol:?} is a solution"
            );
        }
    }
    if after.iter().all(|d| d.len() == 1) {
        let tuple: Vec<i32> = after.iter().map(|d| d[0]).collect();
        prop_assert!(
            oracle(&tuple),
            "propagation accepted {tuple:?}, which the oracle refuses (from {before:?})"
        );
    }
    // Soundness makes the solutions within `after` the same as within `before`.
    match case.level {
        Level::Domain => {
            prop_assert!(
                !sols.is_empty(),
                "domain consistency must fail without a solution: {after:?}"
            );
            for (i, d) in after.iter().enumerate() {
                for &v in d {
                    prop_assert!(
                        sols.iter().any(|s| s[i] == v),
                        "v{i}={v} is left in {after:?} without support (from {before:?})"
                    );
                }
            }
        }
        Level::BoundsD => {
            prop_assert!(
                !sols.is_empty(),
                "bounds(D) consistency must fail without a solution: {after:?}"
            );
            for (i, d) in after.iter().enumerate() {
                for v in [d[0], d[d.len() - 1]] {
                    prop_assert!(
                        sols.iter().any(|s| s[i] == v),
                        "bound v{i}={v} of {after:?} has no support (from {before:?})"
                    );
                }
            }
        }
        Level::BoundsZ => {
            let relaxed = solutions(&intervals(&after), oracle);
            for (i, d) in after.iter().enumerate() {
                for v in [d[0], d[d.len() - 1]] {
                    prop_assert!(
                        relaxed.iter().any(|s| s[i] == v),
                        "bound v{i}={v} of {after:?} has no support within the bounds (from \
                         {before:?})"
                    );
                }
            }
        }
        Level::Sound => {}
    }
    if let Some(property) = case.property
        && let Err(message) = property(&after)
    {
        prop_assert!(false, "{message} at {after:?} (from {before:?})");
    }
    // A fixpoint: revising every constraint again changes nothing.
    let mut again = store.clone();
    prop_assert_eq!(again.establish_arc_consistency(model), Ok(()));
    prop_assert_eq!(
        domains_of(&again),
        after,
        "a second propagation changed something"
    );
    Ok(())
}

/// The constraints (by the name their `Debug` form starts with) that may still leave a change or
/// a failure unexplained, to be explained by the domains of their scope. Every other constraint
/// of the catalogue explains each of its inferences.
const UNEXPLAINED: &[&str] = &["Compare", "ReifiedCompare", "Reified"];

/// Whether `constraint` may leave changes to the learner's fallback ([`UNEXPLAINED`]).
fn may_fall_back(constraint: &dyn Constraint) -> bool {
    let name = format!("{constraint:?}");
    UNEXPLAINED.iter().any(|u| {
        name.strip_prefix(u)
            .is_some_and(|rest| !rest.starts_with(|c: char| c.is_alphanumeric()))
    })
}

/// The values `var` had just before log entry `before` (the log's length: now).
fn domain_before(case: &Case<'_>, store: &Store, var: VarId, before: usize) -> Vec<i32> {
    let ctx = ExplainCtx::new(store, before);
    case.domains[var.index()]
        .iter()
        .copied()
        .filter(|&v| ctx.contains(var, v))
        .collect()
}

/// Whether every value `var` had just before log entry `before` satisfies `literal`.
fn held(case: &Case<'_>, store: &Store, literal: Literal, before: usize) -> bool {
    domain_before(case, store, literal.var, before)
        .into_iter()
        .all(|v| literal.holds_for(v))
}

/// Checks the explanations of the changes logged from entry `from` on, and of the failure if
/// propagation failed (see the module's documentation).
fn check_explanations(
    case: &Case<'_>,
    model: &Model,
    store: &mut Store,
    from: usize,
    failed: bool,
) -> Result<(), TestCaseError> {
    let failure = store.take_failure().filter(|_| failed);
    let end = store.change_log().len();
    let mut reasons = Vec::new();
    for e in from..end {
        let entry = store.change_log()[e];
        let Cause::Constraint(c) = entry.cause else {
            continue;
        };
        let constraint = model.constraint(c);
        reasons.clear();
        if !constraint.explain(entry.literal, &ExplainCtx::new(store, e), &mut reasons) {
            prop_assert!(
                may_fall_back(constraint),
                "{constraint:?} made {:?} without an explanation",
                entry.literal
            );
            continue;
        }
        check_implied(case, store, entry.literal, &reasons, e)?;
    }
    if !failed {
        return Ok(());
    }
    // As the learner does: a refused change false by bounds is explained as if made at the end;
    // any other failure by the constraint's explanation of its failure.
    let c = match failure {
        Some((literal, Cause::Constraint(c))) => {
            let (lo, hi) = store.bounds_before(literal.var, end);
            let false_by_bounds = match literal.relation {
                LiteralRelation::Ge => hi < literal.value,
                LiteralRelation::Le => lo > literal.value,
                LiteralRelation::Ne => lo == literal.value && hi == literal.value,
                LiteralRelation::Eq => false,
            };
            reasons.clear();
            if false_by_bounds
                && model
                    .constraint(c)
                    .explain(literal, &ExplainCtx::new(store, end), &mut reasons)
            {
                return check_implied(case, store, literal, &reasons, end);
            }
            c
        }
        // A failure without a refused change: the one constraint failed.
        _ => model
            .constraint_ids()
            .next()
            .expect("a case has its constraint"),
    };
    let constraint = model.constraint(c);
    reasons.clear();
    if !constraint.explain_failure(&ExplainCtx::new(store, end), &mut reasons) {
        prop_assert!(
            may_fall_back(constraint),
            "{constraint:?} failed without an explanation"
        );
        return Ok(());
    }
    for reason in &reasons {
        prop_assert!(
            held(case, store, *reason, end),
            "reason {reason:?} of {constraint:?}'s failure did not hold"
        );
    }
    let mut witness = None;
    for_each_tuple(&case.domains, |t| {
        if (case.oracle)(t) && reasons.iter().all(|r| r.holds_for(t[r.var.index()])) {
            witness = Some(t.to_vec());
            return false;
        }
        true
    });
    prop_assert!(
        witness.is_none(),
        "{constraint:?}'s failure explained by {reasons:?}, but {witness:?} is a solution"
    );
    Ok(())
}

/// Checks that `reasons` held just before entry `e` and, with the constraint and the variable's
/// own domain then, imply `literal`.
fn check_implied(
    case: &Case<'_>,
    store: &Store,
    literal: Literal,
    reasons: &[Literal],
    e: usize,
) -> Result<(), TestCaseError> {
    for reason in reasons {
        prop_assert!(
            held(case, store, *reason, e),
            "reason {reason:?} of {literal:?} (entry {e}) did not hold"
        );
    }
    let own = domain_before(case, store, literal.var, e);
    let mut witness = None;
    for_each_tuple(&case.domains, |t| {
        if (case.oracle)(t)
            && reasons.iter().all(|r| r.holds_for(t[r.var.index()]))
            && own.contains(&t[literal.var.index()])
            && !literal.holds_for(t[literal.var.index()])
        {
            witness = Some(t.to_vec());
            return false;
        }
        true
    });
    prop_assert!(
        witness.is_none(),
        "{literal:?} explained by {reasons:?}, but {witness:?} satisfies both"
    );
    Ok(())
}

/// Holds `case` to its promises at the root and along `walk` (see the module's documentation).
pub fn check(case: &Case<'_>, walk: &[Step]) -> Result<(), TestCaseError> {
    let posted = Posted::new_boxed((case.build)()).expect("the case's constraint posts");
    let constraint = posted.propagator();
    let scope: Vec<VarId> = constraint.scope().to_vec();
    let mut disagreement = None;
    for_each_tuple(&case.domains, |t| {
        let values: Vec<i32> = scope.iter().map(|v| t[v.index()]).collect();
        if constraint.is_satisfied(&values) != (case.oracle)(t) {
            disagreement = Some(t.to_vec());
            return false;
        }
        true
    });
    prop_assert!(
        disagreement.is_none(),
        "the checker and the oracle disagree on {:?}",
        disagreement
    );
    let model = model(&case.domains, (case.build)());
    let n = case.domains.len();
    let mut store = Store::new(&model);
    store.enable_change_log();
    let before = domains_of(&store);
    let result = store.establish_arc_consistency(&model);
    check_explanations(case, &model, &mut store, 0, result.is_err())?;
    check_fixpoint(case, &model, &mut store, &before, result)?;
    if result.is_err() {
        return Ok(());
    }
    let mut marks = vec![store.checkpoint()];
    for step in walk {
        let v = var(usize::from(step.var) % n);
        let mark = store.checkpoint();
        if step.kind >= 4 {
            // A bound on the next variable first: its value picked by the same draw.
            let w = var((usize::from(step.var) + 1) % n);
            let ws: Vec<i32> = store.domain(w).values().collect();
            let bound = i64::from(ws[usize::from(step.pick / 2) % ws.len()]);
            let cut = if step.pick % 2 == 0 {
                store.set_bounds(w, i64::MIN, bound)
            } else {
                store.set_bounds(w, bound, i64::MAX)
            };
            if cut.is_err() {
                store.undo_to(&model, mark);
                continue;
            }
        }
        let values: Vec<i32> = store.domain(v).values().collect();
        let value = values[usize::from(step.pick) % values.len()];
        let applied = match step.kind % 4 {
            0 if values.len() > 1 && !store.is_assigned(v) => {
                store.assign(&model, v, value);
                Ok(true)
            }
            1 if values.len() > 1 => store.remove_value(v, value),
            2 => store.set_bounds(v, i64::MIN, i64::from(value)),
            3 => store.set_bounds(v, i64::from(value), i64::MAX),
            _ => Ok(false),
        };
        if !matches!(applied, Ok(true)) {
            store.undo_to(&model, mark);
            continue;
        }
        let before = domains_of(&store);
        let from = store.change_log().len();
        let result = if step.kind == 0 {
            store.maintain_arc_consistency(&model, v)
        } else {
            store.propagate(&model)
        };
        check_explanations(case, &model, &mut store, from, result.is_err())?;
        check_fixpoint(case, &model, &mut store, &before, result)?;
        marks.push(mark);
        if result.is_err() || step.undo > 0 {
            let back = usize::from(step.undo).clamp(1, marks.len() - 1);
            let target = marks[marks.len() - back];
            marks.truncate(marks.len() - back);
            let expected = domains_at(&model, &store, target);
            store.undo_to(&model, target);
            prop_assert_eq!(domains_of(&store), expected, "undo restored other domains");
        }
    }
    Ok(())
}

/// The domains a store had at `checkpoint`, worked out on a copy.
fn domains_at(model: &Model, store: &Store, checkpoint: csp_core::Checkpoint) -> Vec<Vec<i32>> {
    let mut copy = store.clone();
    copy.undo_to(model, checkpoint);
    domains_of(&copy)
}

/// The reified forms of a relation: `b ↔ C` and `b → C`, with `b` a new last variable, built by
/// `reify`, held to soundness and checker-completeness against `b ↔ oracle` and `b → oracle`.
pub fn check_reified(
    domains: &[Vec<i32>],
    reify: &dyn Fn(VarId, csp_core::constraints::Reification) -> Box<dyn Post>,
    oracle: &dyn Fn(&[i32]) -> bool,
    walk: &[Step],
) -> Result<(), TestCaseError> {
    use csp_core::constraints::Reification;
    let n = domains.len();
    let b = var(n);
    let mut with_b = domains.to_vec();
    with_b.push(vec![0, 1]);
    for mode in [Reification::Equivalent, Reification::Implies] {
        let reified_oracle = |t: &[i32]| {
            let holds = oracle(&t[..n]);
            match mode {
                Reification::Equivalent => (t[n] == 1) == holds,
                Reification::Implies => t[n] == 0 || holds,
            }
        };
        check(
            &Case {
                domains: with_b.clone(),
                build: &|| reify(b, mode),
                oracle: &reified_oracle,
                level: Level::Sound,
                property: None,
            },
            walk,
        )?;
    }
    Ok(())
}
