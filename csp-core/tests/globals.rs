//! The global constraints against brute force: all-different at each consistency, table by
//! compact-table and by scan, among / count, global cardinality, lexicographic order, inverse and
//! circuit. See `support/mod.rs` for what each case is held to.

mod support;

use std::collections::BTreeSet;

use csp_core::constraints::{
    AllDifferent, AllDifferentConsistency, Among, Circuit, GlobalCardinality, Inverse, LexLess,
    Table, TableAlgorithm,
};
use csp_core::{Posted, Store, VarId};
use proptest::prelude::*;
use support::{
    Case, Level, check, config, domain_strategy, domains_of, for_each_tuple, model, var,
    walk_strategy,
};

const REGRESSIONS: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/proptest-regressions/globals.txt"
);

fn vars(indices: &[usize]) -> Vec<VarId> {
    indices.iter().map(|&i| var(i)).collect()
}

fn distinct(values: impl IntoIterator<Item = i32>) -> bool {
    let mut seen = BTreeSet::new();
    values.into_iter().all(|v| seen.insert(v))
}

/// Value consistency restated: fixed variables differ, and no fixed value is left elsewhere.
fn value_consistent(domains: &[Vec<i32>]) -> Result<(), String> {
    for (i, d) in domains.iter().enumerate() {
        if let [v] = d[..] {
            for (j, e) in domains.iter().enumerate() {
                if i != j && e.contains(&v) {
                    return Err(format!("v{i} is fixed to {v}, still in v{j}"));
                }
            }
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(config(REGRESSIONS, 512))]

    /// All-different: value consistency removes fixed values, López-Ortiz et al.'s algorithm is
    /// bounds(Z) consistent, Régin's is domain consistent.
    #[test]
    fn all_different_reaches_each_consistency(
        domains in prop::collection::vec(domain_strategy(-2, 5, 5), 1..=5),
        consistency in prop::sample::select(vec![
            AllDifferentConsistency::Value,
            AllDifferentConsistency::Bounds,
            AllDifferentConsistency::Domain,
        ]),
        walk in walk_strategy(),
    ) {
        let n = domains.len();
        let oracle = |t: &[i32]| distinct(t.iter().copied());
        let property = |d: &[Vec<i32>]| value_consistent(d);
        check(
            &Case {
                domains,
                build: &|| Box::new(AllDifferent::with_consistency(vars(&(0..n).collect::<Vec<_>>()), consistency)),
                oracle: &oracle,
                level: match consistency {
                    AllDifferentConsistency::Value => Level::Sound,
                    AllDifferentConsistency::Bounds => Level::BoundsZ,
                    AllDifferentConsistency::Domain => Level::Domain,
                },
                property: (consistency == AllDifferentConsistency::Value).then_some(&property as _),
            },
            &walk,
        )?;
    }

    /// Régin's algorithm on domains too wide for one word, the values listed in order by marking
    /// them on their span (spread by 20) or by sorting them (spread by 1,000): domain consistent
    /// either way.
    #[test]
    fn all_different_is_domain_consistent_on_wide_domains(
        domains in prop::collection::vec(domain_strategy(0, 7, 5), 1..=5),
        spread in prop::sample::select(vec![20, 1_000]),
        walk in walk_strategy(),
    ) {
        let n = domains.len();
        let domains: Vec<Vec<i32>> = domains
            .into_iter()
            .map(|d| d.into_iter().map(|v| v * spread).collect())
            .collect();
        let oracle = |t: &[i32]| distinct(t.iter().copied());
        check(
            &Case {
                domains,
                build: &|| Box::new(AllDifferent::with_consistency(vars(&(0..n).collect::<Vec<_>>()), AllDifferentConsistency::Domain)),
                oracle: &oracle,
                level: Level::Domain,
                property: None,
            },
            &walk,
        )?;
    }

    /// A table is domain consistent by compact-table and by the scan, with a variable named twice in
    /// its scope (only the tuples agreeing on it count).
    #[test]
    fn tables_are_domain_consistent(
        domains in prop::collection::vec(domain_strategy(0, 4, 4), 1..=4),
        scope in prop::collection::vec(0usize..4, 1..=4),
        tuples in prop::collection::vec(prop::collection::vec(0i32..=4, 4), 0..=14),
        compact in any::<bool>(),
        walk in walk_strategy(),
    ) {
        let n = domains.len();
        let scope: Vec<usize> = scope.iter().map(|&i| i % n).collect();
        let tuples: Vec<Vec<i32>> = tuples.iter().map(|t| t[..scope.len()].to_vec()).collect();
        let oracle = |t: &[i32]| tuples.iter().any(|row| scope.iter().zip(row).all(|(&i, &v)| t[i] == v));
        let algorithm = if compact { TableAlgorithm::CompactTable } else { TableAlgorithm::Scan };
        check(
            &Case {
                domains,
                build: &|| Box::new(Table::merged(vars(&scope), tuples.clone(), algorithm).unwrap()),
                oracle: &oracle,
                level: Level::Domain,
                property: None,
            },
            &walk,
        )?;
    }

    /// Among and count are domain consistent on distinct variables, sound when the count is one of
    /// the counted variables.
    #[test]
    fn among_is_domain_consistent(
        domains in prop::collection::vec(domain_strategy(0, 4, 4), 2..=5),
        set in prop::collection::btree_set(0i32..=4, 0..=3),
        alias in any::<bool>(),
        walk in walk_strategy(),
    ) {
        let n = domains.len();
        // The count is the last variable; with `alias`, it is counted too.
        let xs: Vec<usize> = if alias { (0..n).collect() } else { (0..n - 1).collect() };
        let oracle = |t: &[i32]| xs.iter().filter(|&&i| set.contains(&t[i])).count() as i32 == t[n - 1];
        check(
            &Case {
                domains,
                build: &|| Box::new(Among::new(vars(&xs), set.iter().copied(), var(n - 1))),
                oracle: &oracle,
                level: if alias { Level::Sound } else { Level::Domain },
                property: None,
            },
            &walk,
        )?;
    }

    /// Global cardinality is sound and checker-complete, and every count satisfies the count rule
    /// (it lies between the variables fixed to its value and those that can take it).
    #[test]
    fn global_cardinality_counts_each_value(
        xs in prop::collection::vec(domain_strategy(0, 3, 3), 1..=4),
        counts in prop::collection::vec(domain_strategy(0, 3, 3), 1..=2),
        closed in any::<bool>(),
        walk in walk_strategy(),
    ) {
        let n = xs.len();
        let cover: Vec<i32> = (0..counts.len() as i32).collect();
        let mut domains = xs;
        domains.extend(counts.iter().cloned());
        let oracle = |t: &[i32]| {
            let counted = cover.iter().enumerate().all(|(j, &v)| {
                t[..n].iter().filter(|&&x| x == v).count() as i32 == t[n + j]
            });
            counted && (!closed || t[..n].iter().all(|x| cover.contains(x)))
        };
        let property = |d: &[Vec<i32>]| -> Result<(), String> {
            for (j, &v) in cover.iter().enumerate() {
                let must = d[..n].iter().filter(|x| x[..] == [v]).count() as i32;
                let may = d[..n].iter().filter(|x| x.contains(&v)).count() as i32;
                let c = &d[n + j];
                if c[0] < must || c[c.len() - 1] > may {
                    return Err(format!("count of {v} outside {must}..={may}"));
                }
            }
            Ok(())
        };
        check(
            &Case {
                domains,
                build: &|| Box::new(GlobalCardinality::new(vars(&(0..n).collect::<Vec<_>>()), cover.clone(), vars(&(n..n + cover.len()).collect::<Vec<_>>()), closed).unwrap()),
                oracle: &oracle,
                level: Level::Sound,
                property: Some(&property),
            },
            &walk,
        )?;
    }

    /// Lexicographic order is domain consistent on distinct variables, for arrays of any lengths,
    /// strict or not; sound with the arrays sharing variables.
    #[test]
    fn lex_is_domain_consistent(
        domains in prop::collection::vec(domain_strategy(0, 3, 4), 2..=6),
        split in 1usize..=5,
        strict in any::<bool>(),
        shared in prop::option::of((0usize..6, 0usize..6)),
        walk in walk_strategy(),
    ) {
        let n = domains.len();
        let split = split.min(n - 1).max(1);
        let x: Vec<usize> = (0..split).collect();
        let mut y: Vec<usize> = (split..n).collect();
        if let Some((a, b)) = shared {
            let k = a % y.len();
            y[k] = b % n;
        }
        let aliased = shared.is_some();
        let oracle = |t: &[i32]| {
            let (xs, ys): (Vec<i32>, Vec<i32>) = (x.iter().map(|&i| t[i]).collect(), y.iter().map(|&i| t[i]).collect());
            if strict { xs < ys } else { xs <= ys }
        };
        check(
            &Case {
                domains,
                build: &|| Box::new(if strict { LexLess::less(vars(&x), vars(&y)) } else { LexLess::less_or_equal(vars(&x), vars(&y)) }),
                oracle: &oracle,
                level: if aliased { Level::Sound } else { Level::Domain },
                property: None,
            },
            &walk,
        )?;
    }

    /// Inverse keeps every channel arc consistent (`j` in `f[i]` exactly while `i` is in `g[j]`), for
    /// two arrays or one array with itself (an involution).
    #[test]
    fn inverse_channels_are_arc_consistent(
        n in 1usize..=4,
        involution in any::<bool>(),
        f_first in 0i32..=1,
        g_first in 0i32..=1,
        seed_domains in prop::collection::vec(domain_strategy(-1, 5, 4), 8),
        walk in walk_strategy(),
    ) {
        let g_first = if involution { f_first } else { g_first };
        let f: Vec<usize> = (0..n).collect();
        let g: Vec<usize> = if involution { f.clone() } else { (n..2 * n).collect() };
        let domains = seed_domains[..if involution { n } else { 2 * n }].to_vec();
        let index = |first: i32, k: usize| first + k as i32;
        let oracle = |t: &[i32]| {
            let ok = |from: &[usize], from_first: i32, to: &[usize], to_first: i32| {
                from.iter().enumerate().all(|(k, &v)| {
                    usize::try_from(t[v] - to_first).ok().and_then(|m| to.get(m)).is_some_and(|&w| t[w] == index(from_first, k))
                })
            };
            ok(&f, f_first, &g, g_first) && ok(&g, g_first, &f, f_first)
        };
        let property = |d: &[Vec<i32>]| -> Result<(), String> {
            for (i, &fv) in f.iter().enumerate() {
                for (j, &gv) in g.iter().enumerate() {
                    let forward = d[fv].contains(&index(g_first, j));
                    let backward = d[gv].contains(&index(f_first, i));
                    if forward != backward {
                        return Err(format!("channel f[{i}] = {j} is not arc consistent"));
                    }
                }
            }
            Ok(())
        };
        check(
            &Case {
                domains,
                build: &|| Box::new(Inverse::new(vars(&f), f_first, vars(&g), g_first)),
                oracle: &oracle,
                level: Level::Sound,
                property: Some(&property),
            },
            &walk,
        )?;
    }

    /// Circuit: all-different on the successors is domain consistent, and no chain of fixed
    /// successors shorter than n can close.
    #[test]
    fn circuit_forbids_early_closing(
        domains in prop::collection::vec(domain_strategy(0, 5, 5), 1..=5),
        first in 0i32..=1,
        walk in walk_strategy(),
    ) {
        let n = domains.len();
        let domains: Vec<Vec<i32>> = domains.iter().map(|d| d.iter().map(|v| v + first).collect()).collect();
        let node = |v: i32| usize::try_from(v - first).ok().filter(|&k| k < n);
        let oracle = |t: &[i32]| {
            let mut seen = vec![false; n];
            let mut at = 0;
            for _ in 0..n {
                if seen[at] { return false; }
                seen[at] = true;
                match node(t[at]) { Some(next) if next != at => at = next, _ => return false }
            }
            at == 0
        };
        let property = |d: &[Vec<i32>]| -> Result<(), String> {
            // All-different is domain consistent on the successors.
            for (i, di) in d.iter().enumerate() {
                for &v in di {
                    let mut choices = d.to_vec();
                    choices[i] = vec![v];
                    let mut supported = false;
                    for_each_tuple(&choices, |t| { supported = distinct(t.iter().copied()); !supported });
                    if !supported {
                        return Err(format!("v{i}={v} has no all-different support"));
                    }
                }
            }
            // No chain of fixed successors closes early.
            for start in 0..n {
                let mut at = start;
                let mut length = 1;
                while let [v] = d[at][..] {
                    match node(v) { Some(next) if next != start => { at = next; length += 1; } _ => break }
                    if length > n { break; }
                }
                if length < n && d[at].len() > 1 && d[at].contains(&(first + start as i32)) {
                    return Err(format!("the chain from {start} can close at {at}"));
                }
            }
            Ok(())
        };
        check(
            &Case {
                domains,
                build: &|| Box::new(Circuit::new(vars(&(0..n).collect::<Vec<_>>()), first)),
                oracle: &oracle,
                level: Level::Sound,
                property: Some(&property),
            },
            &walk,
        )?;
    }
}

proptest! {
    #![proptest_config(config(REGRESSIONS, 512))]

    /// Compact-table prunes exactly as the scan does when several variables change between two
    /// revisions (its incremental and reset-based updates, and the skip of a variable changed alone),
    /// through batches of removals, each propagated, some undone.
    #[test]
    fn compact_table_prunes_like_the_scan(
        domains in prop::collection::vec(domain_strategy(0, 5, 6), 2..=5),
        tuples in prop::collection::vec(prop::collection::vec(0i32..=5, 5), 1..=30),
        batches in prop::collection::vec(
            (prop::collection::vec((0usize..5, 0i32..=5), 1..=4), any::<bool>()),
            1..=6,
        ),
    ) {
        compact_table_against_the_scan(domains, tuples, batches)?;
    }

    /// The same over columns of up to 141 values, consecutive or not, whose presence flags take
    /// several words.
    #[test]
    fn compact_table_with_wide_columns_prunes_like_the_scan(
        tuples in prop::collection::vec(prop::collection::vec(0i32..=140, 3), 60..=200),
        gaps in any::<bool>(),
        batches in prop::collection::vec(
            (prop::collection::vec((0usize..3, 0i32..=140), 1..=40), any::<bool>()),
            1..=6,
        ),
    ) {
        // With gaps, every value is even: no column is consecutive.
        let scale = if gaps { 2 } else { 1 };
        let tuples: Vec<Vec<i32>> = tuples.iter().map(|t| t.iter().map(|v| v * scale).collect()).collect();
        let batches = batches.into_iter().map(|(removals, undo)| {
            (removals.into_iter().map(|(v, value)| (v, value * scale)).collect(), undo)
        }).collect();
        // At most 141 values, so that the scan (which leaves domains wider than the table alone)
        // lists them.
        let domains = vec![(0..=140).map(|v| v * scale).collect::<Vec<i32>>(); 3];
        compact_table_against_the_scan(domains, tuples, batches)?;
    }
}

/// Compact-table and the scan on the same table, domains and batches of removals (each batch
/// propagated, undone when it fails or asks to be): the same domains and failures throughout.
fn compact_table_against_the_scan(
    domains: Vec<Vec<i32>>,
    tuples: Vec<Vec<i32>>,
    batches: Vec<(Vec<(usize, i32)>, bool)>,
) -> Result<(), TestCaseError> {
    let n = domains.len();
    let tuples: Vec<Vec<i32>> = tuples.iter().map(|t| t[..n].to_vec()).collect();
    let scope = vars(&(0..n).collect::<Vec<_>>());
    let build = |algorithm| {
        Box::new(Table::with_algorithm(scope.clone(), tuples.clone(), algorithm).unwrap())
    };
    let compact = model(&domains, build(TableAlgorithm::CompactTable));
    let scan = model(&domains, build(TableAlgorithm::Scan));
    let (mut a, mut b) = (Store::new(&compact), Store::new(&scan));
    let root = (
        a.establish_arc_consistency(&compact),
        b.establish_arc_consistency(&scan),
    );
    prop_assert_eq!(root.0.is_ok(), root.1.is_ok());
    if root.0.is_err() {
        return Ok(());
    }
    prop_assert_eq!(domains_of(&a), domains_of(&b));
    for (removals, undo) in batches {
        let (mark_a, mark_b) = (a.checkpoint(), b.checkpoint());
        let mut wiped = false;
        for &(v, value) in &removals {
            let v = var(v % n);
            wiped |= a.remove_value(v, value).is_err();
            wiped |= b.remove_value(v, value).is_err();
        }
        if !wiped {
            let results = (a.propagate(&compact).is_ok(), b.propagate(&scan).is_ok());
            prop_assert_eq!(results.0, results.1, "after removing {:?}", removals);
            if results.0 {
                prop_assert_eq!(
                    domains_of(&a),
                    domains_of(&b),
                    "after removing {:?}",
                    removals
                );
            }
            wiped = !results.0;
        }
        if wiped || undo {
            a.undo_to(&compact, mark_a);
            b.undo_to(&scan, mark_b);
        }
    }
    Ok(())
}

#[test]
fn global_cardinality_refuses_a_value_covered_twice() {
    assert!(GlobalCardinality::new(vars(&[0]), vec![1, 1], vars(&[1, 2]), false).is_err());
    assert!(GlobalCardinality::new(vars(&[0]), vec![1], vars(&[1, 2]), false).is_err());
}

#[test]
fn a_table_with_a_repeated_variable_keeps_the_agreeing_tuples() {
    let tuples = vec![vec![1, 2, 1], vec![1, 2, 3]];
    let table =
        Posted::new(Table::merged(vars(&[0, 1, 0]), tuples, TableAlgorithm::CompactTable).unwrap())
            .unwrap();
    let table = table.propagator();
    assert_eq!(table.scope(), &vars(&[0, 1])[..]);
    assert!(table.is_satisfied(&[1, 2]));
    assert!(!table.is_satisfied(&[3, 2]));
}

/// The explanations a model's one constraint gives for each change it made while the store
/// logged them, after the `decisions` (variable, value) and propagation; with the literals each
/// change made.
fn explanations_after(
    model: &csp_core::Model,
    decisions: &[(usize, i32)],
) -> Vec<(csp_core::Literal, Vec<csp_core::Literal>)> {
    let mut store = Store::new(model);
    store.enable_change_log();
    for &(v, value) in decisions {
        store
            .set_bounds(var(v), i64::from(value), i64::from(value))
            .unwrap();
    }
    store.establish_arc_consistency(model).unwrap();
    let c = model.constraint_ids().next().unwrap();
    let mut out = Vec::new();
    for (e, entry) in store.change_log().iter().enumerate() {
        if entry.cause != csp_core::Cause::Constraint(c) {
            continue;
        }
        let mut reasons = Vec::new();
        let ctx = csp_core::ExplainCtx::new(&store, e);
        assert!(
            model
                .constraint(c)
                .explain(entry.literal, &ctx, &mut reasons)
        );
        out.push((entry.literal, reasons));
    }
    out
}

/// Régin's removal of a Hall set's values from the other variables cites that set's domains
/// alone: two variables on {1, 2} take those values from the three others, whose domains the
/// explanations never mention.
#[test]
fn all_different_explains_a_removal_by_its_hall_set_alone() {
    let domains = vec![
        vec![1, 2],
        vec![1, 2],
        vec![1, 2, 3, 4],
        (1..=5).collect(),
        (1..=5).collect(),
    ];
    let model = model(
        &domains,
        Box::new(AllDifferent::new(vars(&[0, 1, 2, 3, 4]))),
    );
    let explained = explanations_after(&model, &[]);
    assert!(!explained.is_empty());
    for (literal, reasons) in explained {
        assert!(
            [var(2), var(3), var(4)].contains(&literal.var),
            "{literal:?}"
        );
        let mut cited: Vec<VarId> = reasons.iter().map(|r| r.var).collect();
        cited.sort_unstable();
        cited.dedup();
        assert_eq!(cited, vars(&[0, 1]), "{literal:?} explained by {reasons:?}");
        assert_eq!(reasons.len(), 4, "{literal:?} explained by {reasons:?}");
    }
}

/// A bound moved past a Hall interval of the bounds algorithm cites the interval's variables
/// within it and the moved variable's own bound at its start, nothing about the others.
#[test]
fn bounds_all_different_explains_a_bound_by_its_hall_interval() {
    let domains = vec![vec![1, 2], vec![1, 2], (1..=4).collect(), (1..=6).collect()];
    let constraint =
        AllDifferent::with_consistency(vars(&[0, 1, 2, 3]), AllDifferentConsistency::Bounds);
    let model = model(&domains, Box::new(constraint));
    let explained = explanations_after(&model, &[]);
    let of_x2 = explained
        .iter()
        .find(|(literal, _)| literal.var == var(2))
        .expect("x2's lower bound moves past {1, 2}");
    let mut reasons = of_x2.1.clone();
    reasons.sort_unstable_by_key(|r| (r.var.index(), r.relation as u8, r.value));
    let mut expected = vec![
        csp_core::Literal::ge(var(0), 1),
        csp_core::Literal::le(var(0), 2),
        csp_core::Literal::ge(var(1), 1),
        csp_core::Literal::le(var(1), 2),
        csp_core::Literal::ge(var(2), 1),
    ];
    expected.sort_unstable_by_key(|r| (r.var.index(), r.relation as u8, r.value));
    assert_eq!(reasons, expected);
}

/// A table with no tuple left is explained by one missing value per tuple, one literal serving
/// every tuple that holds it: here `x0 ≥ 2` (1 was its lower bound) rules out three tuples at
/// once, and `x1 ≤ 3` the last.
#[test]
fn table_wipe_out_shares_a_literal_between_tuples() {
    let tuples = vec![vec![1, 1], vec![1, 2], vec![1, 3], vec![2, 4]];
    let table = Table::with_algorithm(vars(&[0, 1]), tuples, TableAlgorithm::Scan).unwrap();
    let model = model(&[vec![1, 2, 3], vec![1, 2, 3, 4]], Box::new(table));
    let mut store = Store::new(&model);
    store.enable_change_log();
    store.remove_value(var(0), 1).unwrap();
    store.remove_value(var(1), 4).unwrap();
    let c = model.constraint_ids().next().unwrap();
    let ctx = csp_core::ExplainCtx::new(&store, store.change_log().len());
    let mut reasons = Vec::new();
    assert!(model.constraint(c).explain_failure(&ctx, &mut reasons));
    reasons.sort_unstable_by_key(|r| (r.var.index(), r.value));
    assert_eq!(
        reasons,
        vec![
            csp_core::Literal::ge(var(0), 2),
            csp_core::Literal::le(var(1), 3)
        ]
    );
}
