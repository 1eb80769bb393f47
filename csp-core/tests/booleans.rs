//! Boolean constraints against brute force: clauses (`bool_clause`), reified conjunctions
//! (`array_bool_and`, `array_bool_or`, `bool_clause_reif`, `bool_le_reif`, `bool_lt_reif`) and
//! parity (`array_bool_xor`, `bool_xor`, `bool_eq_reif`), with repeated and opposite literals, and
//! their generic reifications. See `support/mod.rs` for what each case is held to.

mod support;

use csp_core::constraints::{BoolAnd, Clause, Parity, Reified, SignedBool};
use proptest::prelude::*;
use support::{Case, Level, check, check_reified, config, var, walk_strategy};

const REGRESSIONS: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/proptest-regressions/booleans.txt"
);

/// A Boolean domain: mostly open, sometimes fixed.
fn boolean_domain() -> impl Strategy<Value = Vec<i32>> {
    prop_oneof![4 => Just(vec![0, 1]), 1 => Just(vec![0]), 1 => Just(vec![1])]
}

/// Up to five Booleans and a list of literals over them: (variable, sign), repeats allowed.
fn literals(max_vars: usize) -> impl Strategy<Value = (Vec<Vec<i32>>, Vec<(usize, bool)>)> {
    (1..=max_vars).prop_flat_map(|n| {
        (
            prop::collection::vec(boolean_domain(), n),
            prop::collection::vec((0..n, any::<bool>()), 0..=6),
        )
    })
}

/// The truth of a literal under an assignment.
fn holds(t: &[i32], (v, positive): (usize, bool)) -> bool {
    t[v] == i32::from(positive)
}

fn to_literal((v, positive): (usize, bool)) -> SignedBool {
    if positive {
        SignedBool::positive(var(v))
    } else {
        SignedBool::negative(var(v))
    }
}

proptest! {
    #![proptest_config(config(REGRESSIONS, 512))]

    /// A clause is domain consistent (unit propagation) through its watched literals, and so is its
    /// reification `r ↔ clause`; `b ↔ clause` through the generic wrapper is sound.
    #[test]
    fn clauses_propagate_units_and_reify(
        (domains, lits) in literals(5),
        walk in walk_strategy(),
    ) {
        let positive: Vec<_> = lits.iter().filter(|l| l.1).map(|l| var(l.0)).collect();
        let negative: Vec<_> = lits.iter().filter(|l| !l.1).map(|l| var(l.0)).collect();
        let oracle = |t: &[i32]| lits.iter().any(|&l| holds(t, l));
        check(
            &Case {
                domains: domains.clone(),
                build: &|| Box::new(Clause::new(&positive, &negative)),
                oracle: &oracle,
                level: Level::Domain,
                property: None,
            },
            &walk,
        )?;
        check_reified(
            &domains,
            &|b, mode| Box::new(Reified::new(b, Box::new(Clause::new(&positive, &negative)), mode)),
            &oracle,
            &walk,
        )?;
        // bool_clause_reif(as, bs, r) with r a new last variable.
        let n = domains.len();
        let mut with_r = domains.clone();
        with_r.push(vec![0, 1]);
        let reified_oracle = |t: &[i32]| (t[n] == 1) == oracle(&t[..n]);
        check(
            &Case {
                domains: with_r,
                build: &|| {
                    // r ↔ ∨ positive ∨ ¬negative, as ¬r ↔ ∧ ¬positive ∧ negative.
                    let literals = positive
                        .iter()
                        .map(|&v| SignedBool::negative(v))
                        .chain(negative.iter().map(|&v| SignedBool::positive(v)));
                    Box::new(BoolAnd::new(SignedBool::negative(var(n)), literals))
                },
                oracle: &reified_oracle,
                level: Level::Domain,
                property: None,
            },
            &walk,
        )?;
    }

    /// `r ↔ ∧ literals` is domain consistent when `r` is not among the literals' variables, and sound
    /// when it is (`r ↔ r ∧ l` and the like).
    #[test]
    fn reified_conjunctions_are_domain_consistent(
        (domains, lits) in literals(5),
        r in (0usize..6, any::<bool>()),
        walk in walk_strategy(),
    ) {
        let n = domains.len();
        let mut domains = domains;
        // r is a new variable unless its index names one of the literals' variables.
        let r = if r.0 >= n { (n, r.1) } else { r };
        if r.0 == n {
            domains.push(vec![0, 1]);
        }
        let aliased = lits.iter().any(|l| l.0 == r.0);
        let oracle = |t: &[i32]| holds(t, r) == lits.iter().all(|&l| holds(t, l));
        check(
            &Case {
                domains,
                build: &|| Box::new(BoolAnd::new(to_literal(r), lits.iter().map(|&l| to_literal(l)))),
                oracle: &oracle,
                level: if aliased { Level::Sound } else { Level::Domain },
                property: None,
            },
            &walk,
        )?;
    }

    /// The FlatZinc shapes of reified conjunctions: `array_bool_and`, `array_bool_or`,
    /// `bool_le_reif`, `bool_lt_reif`, over distinct variables.
    #[test]
    fn flatzinc_conjunctions_mean_what_they_say(
        domains in prop::collection::vec(boolean_domain(), 3..=5),
        shape in 0u8..4,
        walk in walk_strategy(),
    ) {
        let n = domains.len();
        let inputs: Vec<_> = (0..n - 1).map(var).collect();
        let r = var(n - 1);
        let oracle = |t: &[i32]| {
            let (xs, r) = (&t[..n - 1], t[n - 1] == 1);
            r == match shape {
                0 => xs.iter().all(|&x| x == 1),
                1 => xs.contains(&1),
                2 => xs[0] <= xs[1],
                _ => xs[0] < xs[1],
            }
        };
        let build = || -> Box<dyn csp_core::Post> {
            Box::new(match shape {
                // r ↔ ∧ inputs.
                0 => BoolAnd::new(SignedBool::positive(r), inputs.iter().map(|&v| SignedBool::positive(v))),
                // r ↔ ∨ inputs, as ¬r ↔ ∧ ¬inputs.
                1 => BoolAnd::new(SignedBool::negative(r), inputs.iter().map(|&v| SignedBool::negative(v))),
                // r ↔ (a ≤ b), as ¬r ↔ a ∧ ¬b.
                2 => BoolAnd::new(
                    SignedBool::negative(r),
                    [SignedBool::positive(inputs[0]), SignedBool::negative(inputs[1])],
                ),
                // r ↔ (a < b), as r ↔ ¬a ∧ b.
                _ => BoolAnd::new(
                    SignedBool::positive(r),
                    [SignedBool::negative(inputs[0]), SignedBool::positive(inputs[1])],
                ),
            })
        };
        check(
            &Case { domains, build: &build, oracle: &oracle, level: Level::Domain, property: None },
            &walk,
        )?;
    }

    /// Parity is domain consistent (a repeated variable cancels out), and reifies soundly.
    #[test]
    fn parity_fixes_the_last_variable(
        (domains, lits) in literals(5),
        odd in any::<bool>(),
        walk in walk_strategy(),
    ) {
        let vars: Vec<_> = lits.iter().map(|l| var(l.0)).collect();
        let oracle = |t: &[i32]| {
            (lits.iter().filter(|l| t[l.0] == 1).count() % 2 == 1) == odd
        };
        check(
            &Case {
                domains: domains.clone(),
                build: &|| Box::new(Parity::new(&vars, odd)),
                oracle: &oracle,
                level: Level::Domain,
                property: None,
            },
            &walk,
        )?;
        check_reified(
            &domains,
            &|b, mode| Box::new(Reified::new(b, Box::new(Parity::new(&vars, odd)), mode)),
            &oracle,
            &walk,
        )?;
    }
}

#[test]
fn flatzinc_parity_shapes() {
    let [a, b, r] = [var(0), var(1), var(2)];
    // r ↔ a ⊕ b: an even number of a, b, r are true; r ↔ (a = b): an odd number.
    let xor = csp_core::Posted::new(Parity::new(&[a, b, r], false)).unwrap();
    let eq = csp_core::Posted::new(Parity::new(&[a, b, r], true)).unwrap();
    for (x, y, z) in [(0, 0, 0), (0, 1, 1), (1, 0, 1), (1, 1, 0)] {
        assert!(xor.propagator().is_satisfied(&[x, y, z]));
        assert!(!eq.propagator().is_satisfied(&[x, y, z]));
    }
}
