//! The learner's unit tests: clauses checked against every solution of small models, and clause
//! minimisation on hand-made conflicts.

use csp_core::{Literal, Model, ModelBuilder, Store, VarId};

use super::learner::Learner;
use crate::{Learning, Outcome, Search, SearchConfig};
use csp_core::constraints::{
    AllDifferent, Linear, NotEqual, Predicate, Reification, Reified, Relation,
};

/// Every complete assignment of the model's initial domains that satisfies it.
fn brute_force(model: &Model) -> Vec<Vec<i32>> {
    let mut out = vec![Vec::new()];
    for var in model.vars() {
        let values: Vec<i32> = model.initial_domain(var).values().collect();
        out = out
            .into_iter()
            .flat_map(|t: Vec<i32>| {
                values.iter().map(move |&v| {
                    let mut t = t.clone();
                    t.push(v);
                    t
                })
            })
            .collect();
    }
    out.retain(|t| model.is_solution(t));
    out
}

/// Enumerates every solution with learning under `seeds`, checking each clause against the
/// solutions still to be found, and returns the count of each run.
fn counts(model: &Model, seeds: std::ops::Range<u64>) -> Vec<usize> {
    let all = brute_force(model);
    seeds
        .map(|seed| {
            let config = SearchConfig {
                seed,
                ..SearchConfig::free()
            }
            .all_solutions()
            .learning(Learning::default());
            let mut search = Search::new(model, &config);
            search.learner_mut().expect("learning").oracle = all.clone();
            let mut found = 0;
            while let Some(values) = search.next_solution(&mut ()) {
                assert!(model.is_solution(values));
                found += 1;
            }
            assert_eq!(search.outcome(), Some(Outcome::Exhausted));
            found
        })
        .collect()
}

/// A clause that raised a bound landed on the next value left, past a value removed earlier:
/// the change's explanation must include that removal (found by the differential tests,
/// where this model lost solutions before the fix).
#[test]
fn a_bound_that_skips_removed_values_is_explained_by_them() {
    let mut b = ModelBuilder::new();
    let domains: [&[i32]; 6] = [&[0, 1], &[0, 2], &[-2, 0, 1], &[1, 2], &[-1, 0], &[0, 2]];
    let x: Vec<VarId> = domains
        .iter()
        .enumerate()
        .map(|(i, d)| {
            b.int_var_with_values(format!("x{i}"), d.iter().copied())
                .unwrap()
        })
        .collect();
    let b0 = b.bool_var("b0").unwrap();
    b.bool_var("b1").unwrap();
    b.post(NotEqual::with_offsets(x[0], 0, x[1], 0)).unwrap();
    b.post(Predicate::new("x < y", x[2], x[3], |a, b| a < b))
        .unwrap();
    let never = Box::new(Linear::with_i64(vec![(0, x[5])], Relation::Equal, -1));
    b.post(Reified::new(b0, never, Reification::Implies))
        .unwrap();
    let different = Box::new(AllDifferent::new(vec![x[2], x[3], x[4]]));
    b.post(Reified::new(b0, different, Reification::Equivalent))
        .unwrap();
    let model = b.build();
    assert_eq!(brute_force(&model).len(), 24);
    assert!(counts(&model, 0..50).iter().all(|&n| n == 24));
}

/// Wide domains are split, so learned clauses hold bound literals (`x ≤ v`, `x ≥ v`) as well as
/// `x = v` and `x ≠ v`, each watched in its own list: enumerating every solution still finds
/// each once, and no clause excludes one still to be found.
#[test]
fn clauses_over_bound_literals_lose_no_solution() {
    let mut b = ModelBuilder::new();
    let x = b.int_var("x", 0..=99).unwrap();
    let y = b.int_var("y", 0..=99).unwrap();
    let z = b.int_var("z", 0..=3).unwrap();
    // x − y = 3·z + 50 and x + y ≥ 120: a few dozen solutions among 40,000 tuples.
    b.post(Linear::with_i64(
        vec![(1, x), (-1, y), (-3, z)],
        Relation::Equal,
        50,
    ))
    .unwrap();
    b.post(Linear::with_i64(
        vec![(-1, x), (-1, y)],
        Relation::LessOrEqual,
        -120,
    ))
    .unwrap();
    b.post(NotEqual::with_offsets(x, 0, y, 40)).unwrap();
    let model = b.build();
    let expected = brute_force(&model).len();
    assert!(expected > 10, "{expected}");
    assert!(counts(&model, 0..10).iter().all(|&n| n == expected));
}

/// A learner and a store of `model` with the root propagated, ready for decisions.
struct AtRoot<'m> {
    model: &'m Model,
    store: Store,
    learner: Learner,
}

fn at_root(model: &Model) -> AtRoot<'_> {
    let mut store = Store::new(model);
    let mut learner = Learner::new(model, &Learning::default(), 0, false);
    learner.start(&mut store);
    assert!(store.establish_arc_consistency(model).is_ok());
    assert!(learner.propagate(model, &mut store).is_ok());
    AtRoot {
        model,
        store,
        learner,
    }
}

impl AtRoot<'_> {
    fn reason(&mut self, e: usize, out: &mut Vec<usize>) {
        self.learner.reason(self.model, &self.store, e, out);
    }

    fn simplify(&mut self, lower: Vec<usize>) -> Vec<usize> {
        self.learner.simplify(self.model, &self.store, lower)
    }
}

/// Opens a level with `decision` and propagates it.
fn decide_and_propagate(search: &mut AtRoot<'_>, decision: Literal) {
    search.learner.new_level(&search.store);
    assert_eq!(search.store.make_true(decision), Ok(true));
    assert!(
        search
            .learner
            .propagate(search.model, &mut search.store)
            .is_ok()
    );
}

/// The log entry that made `literal` true.
fn entry_of(search: &AtRoot<'_>, literal: Literal) -> usize {
    let log = search.store.change_log();
    log.iter()
        .position(|entry| entry.literal == literal)
        .unwrap_or_else(|| panic!("no entry {literal:?} in {log:?}"))
}

/// `c ≥ 1` rests on `b1 ≥ 1` and `b2 ≥ 1`, neither in the clause, and each of those on
/// `a ≥ 1`, which is: local minimisation keeps `c ≥ 1` (not all its reasons are in the
/// clause), the recursive one drops it (Sörensson & Biere 2009).
#[test]
fn recursive_minimisation_drops_a_literal_local_minimisation_keeps() {
    let mut b = ModelBuilder::new();
    let [a, b1, b2, c, z] = ["a", "b1", "b2", "c", "z"].map(|name| b.bool_var(name).unwrap());
    // a ≤ b1, a ≤ b2, b1 + b2 − c ≤ 1.
    for bi in [b1, b2] {
        b.post(Linear::with_i64(
            vec![(1, a), (-1, bi)],
            Relation::LessOrEqual,
            0,
        ))
        .unwrap();
    }
    b.post(Linear::with_i64(
        vec![(1, b1), (1, b2), (-1, c)],
        Relation::LessOrEqual,
        1,
    ))
    .unwrap();
    let model = b.build();
    let mut search = at_root(&model);
    decide_and_propagate(&mut search, Literal::eq(a, 1));
    decide_and_propagate(&mut search, Literal::eq(z, 1));
    let (ea, ec) = (
        entry_of(&search, Literal::ge(a, 1)),
        entry_of(&search, Literal::ge(c, 1)),
    );
    let (eb1, eb2) = (
        entry_of(&search, Literal::ge(b1, 1)),
        entry_of(&search, Literal::ge(b2, 1)),
    );
    // What the test rests on: `c ≥ 1` has two reasons, so it is not replaced by one, and
    // they are not in the clause.
    let mut reasons = Vec::new();
    search.reason(ec, &mut reasons);
    reasons.sort_unstable();
    assert_eq!(reasons, [eb1, eb2]);
    assert_eq!(search.simplify(vec![ea, ec]), [ea]);
    // Without `a ≥ 1` in the clause, `c ≥ 1` stays.
    assert_eq!(search.simplify(vec![ec]), [ec]);
}

/// Literals over integers: `w ≥ 1` rests on `x ≤ 5` (and `v ≤ 0`, in the clause), and a
/// later decision of the clause, `x ≤ 3`, implies `x ≤ 5`, so `w ≥ 1` is dropped although
/// the entry of `x ≤ 5` is not in the clause and rests on decisions that are not either. And
/// a clause holding both `x ≤ 5` and `x ≤ 3` keeps only the second.
#[test]
fn minimisation_takes_a_stronger_literal_of_the_clause_for_a_weaker_reason() {
    let mut b = ModelBuilder::new();
    let v = b.bool_var("v").unwrap();
    let u = b.bool_var("u").unwrap();
    let d = b.bool_var("d").unwrap();
    let x = b.int_var("x", 0..=9).unwrap();
    let w = b.bool_var("w").unwrap();
    // x + 2·u + 2·d ≤ 9, and 10·w + x + 10·v ≥ 6.
    b.post(Linear::with_i64(
        vec![(1, x), (2, u), (2, d)],
        Relation::LessOrEqual,
        9,
    ))
    .unwrap();
    b.post(Linear::with_i64(
        vec![(-10, w), (-1, x), (-10, v)],
        Relation::LessOrEqual,
        -6,
    ))
    .unwrap();
    let model = b.build();
    let mut search = at_root(&model);
    decide_and_propagate(&mut search, Literal::eq(v, 0));
    decide_and_propagate(&mut search, Literal::eq(u, 1));
    decide_and_propagate(&mut search, Literal::eq(d, 1));
    decide_and_propagate(&mut search, Literal::le(x, 3));
    let ev = entry_of(&search, Literal::le(v, 0));
    let e5 = entry_of(&search, Literal::le(x, 5));
    let e3 = entry_of(&search, Literal::le(x, 3));
    let g = entry_of(&search, Literal::ge(w, 1));
    // What the test rests on: `x ≤ 5` and `w ≥ 1` have two reasons each.
    let mut reasons = Vec::new();
    search.reason(g, &mut reasons);
    reasons.sort_unstable();
    assert_eq!(reasons, [ev, e5]);
    reasons.clear();
    search.reason(e5, &mut reasons);
    assert_eq!(reasons.len(), 2);
    assert!(!reasons.contains(&e3));
    assert_eq!(search.simplify(vec![ev, e3, g]), [ev, e3]);
    assert_eq!(search.simplify(vec![e5, e3]), [e3]);
    // Without `x ≤ 3`, `w ≥ 1` stays: `x ≤ 5` rests on decisions not in the clause.
    assert_eq!(search.simplify(vec![ev, g]), [ev, g]);
}

/// Pigeons into fewer holes, pairwise different: unsatisfiable, and learning proves it with
/// fewer decisions than there are ways to place the first pigeons.
#[test]
fn pigeons_are_refuted_by_learning() {
    let mut b = ModelBuilder::new();
    let pigeons: Vec<VarId> = (0..6)
        .map(|i| b.int_var(format!("p{i}"), 0..=4).unwrap())
        .collect();
    for (i, &p) in pigeons.iter().enumerate() {
        for &q in &pigeons[i + 1..] {
            b.post(NotEqual::with_offsets(p, 0, q, 0)).unwrap();
        }
    }
    let model = b.build();
    let config = SearchConfig::free().learning(Learning::default());
    let mut search = Search::new(&model, &config);
    assert!(search.next_solution(&mut ()).is_none());
    assert_eq!(search.outcome(), Some(Outcome::Exhausted));
    assert!(search.stats().learned_clauses > 0);
    assert!(search.stats().dead_ends > 0);
}

/// The clause engine's literals: every form of a literal maps to one canonical literal whose truth
/// is the literal's under any domain, and a move of the bounds or a removal reports exactly the
/// literals it made false, compared by brute force over every literal of a small variable.
#[test]
fn canonical_literals_keep_their_meaning_and_report_what_becomes_false() {
    use super::literals::{Canonical, Literals};
    use csp_core::LiteralRelation;

    let mut b = ModelBuilder::new();
    let x = b.int_var("x", 0..=6).unwrap();
    let flag = b.bool_var("flag").unwrap();
    let model = b.build();
    let mut table = Literals::new(&model);
    let relations = [
        LiteralRelation::Eq,
        LiteralRelation::Ne,
        LiteralRelation::Le,
        LiteralRelation::Ge,
    ];
    let mut all = Vec::new();
    for &relation in &relations {
        for v in -2..=8 {
            let literal = Literal {
                var: x,
                relation,
                value: v,
            };
            match table.canonical(literal) {
                Canonical::True => assert!((0..=6).all(|d| literal.holds_for(d)), "{literal:?}"),
                Canonical::False => assert!((0..=6).all(|d| !literal.holds_for(d)), "{literal:?}"),
                Canonical::Lit(lit) => {
                    let back = table.literal(lit);
                    for d in 0..=6 {
                        assert_eq!(back.holds_for(d), literal.holds_for(d), "{literal:?}");
                    }
                    all.push(lit);
                    all.push(lit.negate());
                }
            }
        }
    }
    // A 0/1 variable has one proposition, whatever a clause writes.
    let forms = [
        Literal::eq(flag, 1),
        Literal::ne(flag, 0),
        Literal::ge(flag, 1),
    ];
    let lits: Vec<_> = forms.iter().map(|&l| table.canonical(l)).collect();
    assert!(lits.iter().all(|&l| l == lits[0]), "{lits:?}");
    assert_eq!(
        table.canonical(Literal::eq(flag, 0)),
        table.canonical(Literal::le(flag, 0))
    );
    // Every bound move and removal over 0..=6 reports exactly the literals it made false.
    all.sort();
    all.dedup();
    let status_under = |table: &Literals, lit, domain: &[i32]| {
        let literal = table.literal(lit);
        if domain.iter().all(|&d| literal.holds_for(d)) {
            Some(true)
        } else if domain.iter().all(|&d| !literal.holds_for(d)) {
            Some(false)
        } else {
            None
        }
    };
    for old_lo in 0..=6 {
        for old_hi in old_lo..=6 {
            for lo in old_lo..=old_hi {
                for hi in lo..=old_hi {
                    let before: Vec<i32> = (old_lo..=old_hi).collect();
                    let after: Vec<i32> = (lo..=hi).collect();
                    let mut reported = Vec::new();
                    table.on_bounds(x, (old_lo, old_hi), (lo, hi), |lit| reported.push(lit));
                    reported.sort();
                    let expected: Vec<_> = all
                        .iter()
                        .copied()
                        .filter(|&lit| {
                            status_under(&table, lit, &before) != Some(false)
                                && status_under(&table, lit, &after) == Some(false)
                        })
                        .collect();
                    assert_eq!(reported, expected, "{old_lo}..={old_hi} to {lo}..={hi}");
                }
            }
            // A removal strictly inside the bounds.
            for v in old_lo + 1..old_hi {
                let before: Vec<i32> = (old_lo..=old_hi).collect();
                let after: Vec<i32> = before.iter().copied().filter(|&d| d != v).collect();
                let mut reported = Vec::new();
                table.on_removal(x, v, |lit| reported.push(lit));
                let expected: Vec<_> = all
                    .iter()
                    .copied()
                    .filter(|&lit| {
                        status_under(&table, lit, &before) != Some(false)
                            && status_under(&table, lit, &after) == Some(false)
                    })
                    .collect();
                assert_eq!(reported, expected, "{v} from {old_lo}..={old_hi}");
            }
        }
    }
    // The truth read from a store agrees with the literal's meaning.
    let mut store = Store::new(&model);
    store.set_bounds(x, 1, 5).unwrap();
    store.remove_value(x, 3).unwrap();
    let domain = [1, 2, 4, 5];
    for &lit in &all {
        assert_eq!(
            table.status(lit, &store),
            status_under(&table, lit, &domain),
            "{:?}",
            table.literal(lit)
        );
    }
}
