//! Element and set membership against brute force: `array_int_element` / `array_bool_element`
//! (constant arrays), `array_var_int_element` / `array_var_bool_element` (arrays of variables, which
//! may repeat and include the index or the result), and `set_in` / `set_in_reif` on constant sets.
//! See `support/mod.rs` for what each case is held to.

mod support;

use std::collections::BTreeSet;

use csp_core::constraints::{Element, Reified, SetIn, VarElement};
use csp_core::{Constraint, ModelBuilder, Store};
use proptest::prelude::*;
use support::{Case, Level, check, check_reified, config, domain_strategy, var, walk_strategy};

const REGRESSIONS: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/proptest-regressions/element.txt"
);

proptest! {
    #![proptest_config(config(REGRESSIONS, 512))]

    /// A constant array's element is domain consistent on the index and the result, from any first
    /// index, and when the index is the result (`a[x] = x`).
    #[test]
    fn constant_element_is_domain_consistent(
        array in prop::collection::vec(-3i32..=3, 1..=6),
        first in -1i32..=2,
        index in domain_strategy(-2, 8, 5),
        result in domain_strategy(-3, 3, 5),
        same in any::<bool>(),
        walk in walk_strategy(),
    ) {
        let at = |i: i32| usize::try_from(i - first).ok().and_then(|k| array.get(k)).copied();
        let domains = if same { vec![index] } else { vec![index, result] };
        let result_at = usize::from(!same);
        let oracle = |t: &[i32]| at(t[0]) == Some(t[result_at]);
        let result_var = var(result_at);
        check(
            &Case {
                domains,
                build: &|| Box::new(Element::new(var(0), array.clone(), result_var, first).unwrap()),
                oracle: &oracle,
                level: Level::Domain,
                property: None,
            },
            &walk,
        )?;
    }

    /// An array of variables' element is domain consistent on distinct variables, and sound when
    /// variables repeat (the index or the result inside the array, or one variable twice).
    #[test]
    fn variable_element_is_domain_consistent(
        domains in prop::collection::vec(domain_strategy(-2, 3, 4), 3..=5),
        array in prop::collection::vec(0usize..5, 1..=4),
        first in 0i32..=1,
        distinct in any::<bool>(),
        walk in walk_strategy(),
    ) {
        let n = domains.len();
        // Variables 0 and 1 are the index and the result; the array names the rest (distinct) or any.
        let array: Vec<usize> = if distinct {
            (2..n).collect()
        } else {
            array.iter().map(|&i| i % n).collect()
        };
        let oracle = |t: &[i32]| {
            usize::try_from(t[0] - first)
                .ok()
                .and_then(|k| array.get(k))
                .is_some_and(|&x| t[x] == t[1])
        };
        let vars = array.iter().map(|&i| var(i)).collect::<Vec<_>>();
        check(
            &Case {
                domains,
                build: &|| Box::new(VarElement::new(var(0), vars.clone(), var(1), first).unwrap()),
                oracle: &oracle,
                level: if distinct { Level::Domain } else { Level::Sound },
                property: None,
            },
            &walk,
        )?;
    }

    /// `x ∈ S` and `x ∉ S` are domain consistent; `b ↔ x ∈ S` and `b → x ∈ S` are sound.
    #[test]
    fn set_membership_is_domain_consistent(
        domain in domain_strategy(-6, 6, 8),
        set in prop::collection::btree_set(-7i32..=7, 0..6),
        negated in any::<bool>(),
        walk in walk_strategy(),
    ) {
        let build = || {
            let c = SetIn::new(var(0), set.iter().copied());
            if negated { c.negated() } else { c }
        };
        let oracle = |t: &[i32]| set.contains(&t[0]) != negated;
        check(
            &Case {
                domains: vec![domain.clone()],
                build: &|| Box::new(build()),
                oracle: &oracle,
                level: Level::Domain,
                property: None,
            },
            &walk,
        )?;
        check_reified(
            &[domain],
            &|b, mode| Box::new(Reified::new(b, Box::new(build()), mode)),
            &oracle,
            &walk,
        )?;
    }
}

#[test]
fn empty_arrays_are_refused() {
    assert!(Element::new(var(0), vec![], var(1), 1).is_err());
    assert!(VarElement::new(var(0), vec![], var(1), 1).is_err());
}

/// On a domain of two billion values, membership moves the bounds to the set's and removes the
/// set's narrow gaps; a gap holding more than 2¹⁶ of the domain's values is left (documented).
#[test]
fn set_membership_on_a_wide_domain_lists_only_narrow_gaps() {
    let mut builder = ModelBuilder::new();
    let x = builder
        .int_var("x", -1_000_000_000..=1_000_000_000)
        .unwrap();
    let ranges = [(-5, -3), (3, 5), (2_000_000, 2_000_001)];
    builder.post(SetIn::ranges(x, ranges)).unwrap();
    let model = builder.build();
    let mut store = Store::new(&model);
    store.establish_arc_consistency(&model).unwrap();
    let domain = store.domain(x);
    assert_eq!((domain.lb(), domain.ub()), (-5, 2_000_001));
    let near: BTreeSet<i32> = domain.values().take_while(|&v| v < 6).collect();
    assert_eq!(near, BTreeSet::from([-5, -4, -3, 3, 4, 5]));
    assert!(domain.contains(1_000_000), "the wide gap is not walked");

    let mut builder = ModelBuilder::new();
    let x = builder
        .int_var("x", -1_000_000_000..=1_000_000_000)
        .unwrap();
    builder.post(SetIn::ranges(x, ranges).negated()).unwrap();
    let model = builder.build();
    let mut store = Store::new(&model);
    store.establish_arc_consistency(&model).unwrap();
    for v in [-5, -3, 4, 2_000_000] {
        assert!(!store.domain(x).contains(v), "{v} is in the set");
    }
    assert!(store.domain(x).contains(0));
    assert!(SetIn::ranges(x, ranges).is_satisfied(&[2_000_001]));
}
