//! The globals over one array against brute force: nvalue, member, all-different except some
//! values, increasing and decreasing, value precedence, arg-max and arg-min, and subcircuit. See
//! `support/mod.rs` for what each case is held to.

mod support;

use std::collections::BTreeSet;

use csp_core::VarId;
use csp_core::constraints::{
    AllDifferentExcept, ArgExtremum, Increasing, Member, NValue, Subcircuit, ValuePrecede,
};
use proptest::prelude::*;
use support::{Case, Level, check, config, domain_strategy, for_each_tuple, var, walk_strategy};

const REGRESSIONS: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/proptest-regressions/array_globals.txt"
);

fn vars(indices: &[usize]) -> Vec<VarId> {
    indices.iter().map(|&i| var(i)).collect()
}

/// The array's positions, one of them perhaps naming another's variable.
fn positions(n: usize, alias: Option<(usize, usize)>) -> (Vec<usize>, bool) {
    let mut xs: Vec<usize> = (0..n).collect();
    if let Some((a, b)) = alias {
        xs[a % n] = b % n;
    }
    let aliased = xs.iter().enumerate().any(|(i, &x)| i != x);
    (xs, aliased)
}

proptest! {
    #![proptest_config(config(REGRESSIONS, 2048))]

    /// Nvalue is sound and checker-complete, and its count lies between the fewest points meeting
    /// every variable's range and the size of the domains' union.
    #[test]
    fn nvalue_bounds_the_count(
        domains in prop::collection::vec(domain_strategy(0, 4, 3), 1..=5),
        count in domain_strategy(0, 5, 4),
        walk in walk_strategy(),
    ) {
        let k = domains.len();
        let oracle = |t: &[i32]| t[..k].iter().collect::<BTreeSet<_>>().len() as i32 == t[k];
        let property = |d: &[Vec<i32>]| -> Result<(), String> {
            let union: BTreeSet<i32> = d[..k].iter().flatten().copied().collect();
            let mut ranges: Vec<(i32, i32)> = d[..k].iter().map(|x| (x[0], x[x.len() - 1])).collect();
            ranges.sort_by_key(|&(lo, hi)| (hi, lo));
            let mut fewest = 0;
            let mut point = None;
            for (lo, hi) in ranges {
                if point.is_none_or(|p| lo > p) {
                    point = Some(hi);
                    fewest += 1;
                }
            }
            let c = &d[k];
            if c[0] < fewest || c[c.len() - 1] > union.len() as i32 {
                return Err(format!("count {c:?} outside {fewest}..={}", union.len()));
            }
            Ok(())
        };
        let mut all = domains;
        all.push(count);
        check(
            &Case {
                domains: all,
                build: &|| Box::new(NValue::new(var(k), vars(&(0..k).collect::<Vec<_>>()))),
                oracle: &oracle,
                level: Level::Sound,
                property: Some(&property),
            },
            &walk,
        )?;
    }

    /// Member is domain consistent when y is not among the x, and sound when it is.
    #[test]
    fn member_is_domain_consistent(
        domains in prop::collection::vec(domain_strategy(0, 5, 4), 2..=5),
        alias in prop::option::of((0usize..5, 0usize..5)),
        walk in walk_strategy(),
    ) {
        let n = domains.len();
        let (mut xs, aliased) = positions(n - 1, alias);
        // With an alias, y (the last variable) may also be one of the x.
        if let Some((a, b)) = alias && b % 2 == 0 {
            xs[a % (n - 1)] = n - 1;
        }
        let aliased = aliased || xs.contains(&(n - 1));
        let oracle = |t: &[i32]| xs.iter().any(|&i| t[i] == t[n - 1]);
        check(
            &Case {
                domains,
                build: &|| Box::new(Member::new(vars(&xs), var(n - 1))),
                oracle: &oracle,
                level: if aliased { Level::Sound } else { Level::Domain },
                property: None,
            },
            &walk,
        )?;
    }

    /// All-different except some values is value consistent: a fixed value outside the exceptions
    /// is in no other domain.
    #[test]
    fn all_different_except_is_value_consistent(
        domains in prop::collection::vec(domain_strategy(-1, 3, 4), 1..=5),
        except in prop::collection::btree_set(-1i32..=3, 0..=2),
        alias in prop::option::of((0usize..5, 0usize..5)),
        walk in walk_strategy(),
    ) {
        let n = domains.len();
        let (xs, _) = positions(n, alias);
        let oracle = |t: &[i32]| {
            let taken: Vec<i32> = xs.iter().map(|&i| t[i]).filter(|v| !except.contains(v)).collect();
            taken.iter().collect::<BTreeSet<_>>().len() == taken.len()
        };
        let property = |d: &[Vec<i32>]| -> Result<(), String> {
            for (i, di) in d.iter().enumerate() {
                if let [v] = di[..] && !except.contains(&v) && xs.contains(&i) {
                    for (j, dj) in d.iter().enumerate() {
                        if j != i && xs.contains(&j) && dj.contains(&v) {
                            return Err(format!("v{i} is fixed to {v}, still in v{j}"));
                        }
                    }
                }
            }
            Ok(())
        };
        check(
            &Case {
                domains,
                build: &|| Box::new(AllDifferentExcept::new(vars(&xs), except.iter().map(|&v| (v, v)))),
                oracle: &oracle,
                level: Level::Sound,
                property: Some(&property),
            },
            &walk,
        )?;
    }

    /// Increasing and decreasing are domain consistent on distinct variables, sound with one
    /// repeated.
    #[test]
    fn increasing_is_domain_consistent(
        domains in prop::collection::vec(domain_strategy(0, 5, 4), 1..=5),
        decreasing in any::<bool>(),
        alias in prop::option::of((0usize..5, 0usize..5)),
        walk in walk_strategy(),
    ) {
        let (xs, aliased) = positions(domains.len(), alias);
        let oracle = |t: &[i32]| xs.windows(2).all(|w| if decreasing { t[w[0]] >= t[w[1]] } else { t[w[0]] <= t[w[1]] });
        check(
            &Case {
                domains,
                build: &|| Box::new(if decreasing { Increasing::decreasing(vars(&xs)) } else { Increasing::new(vars(&xs)) }),
                oracle: &oracle,
                level: if aliased { Level::Sound } else { Level::Domain },
                property: None,
            },
            &walk,
        )?;
    }

    /// Value precedence is domain consistent on distinct variables (s and t equal too), sound with
    /// one repeated.
    #[test]
    fn value_precede_is_domain_consistent(
        domains in prop::collection::vec(domain_strategy(0, 3, 4), 1..=5),
        s in 0i32..=3,
        t in 0i32..=3,
        alias in prop::option::of((0usize..5, 0usize..5)),
        walk in walk_strategy(),
    ) {
        let (xs, aliased) = positions(domains.len(), alias);
        let oracle = |values: &[i32]| {
            xs.iter().enumerate().all(|(k, &i)| values[i] != t || xs[..k].iter().any(|&j| values[j] == s))
        };
        check(
            &Case {
                domains,
                build: &|| Box::new(ValuePrecede::new(s, t, vars(&xs))),
                oracle: &oracle,
                level: if aliased { Level::Sound } else { Level::Domain },
                property: None,
            },
            &walk,
        )?;
    }

    /// Arg-max and arg-min are sound and checker-complete, positions counted from any first index.
    #[test]
    fn arg_extremum_is_sound(
        domains in prop::collection::vec(domain_strategy(-2, 2, 4), 1..=4),
        z in domain_strategy(-1, 5, 5),
        first in -1i32..=2,
        minimum in any::<bool>(),
        alias in prop::option::of((0usize..4, 0usize..5)),
        walk in walk_strategy(),
    ) {
        let n = domains.len();
        let mut xs: Vec<usize> = (0..n).collect();
        if let Some((a, b)) = alias {
            // Another x, or z itself.
            xs[a % n] = b % (n + 1);
        }
        let oracle = |t: &[i32]| {
            let values: Vec<i32> = xs.iter().map(|&i| t[i]).collect();
            let best = if minimum { values.iter().min() } else { values.iter().max() }.unwrap();
            let position = values.iter().position(|v| v == best).unwrap();
            t[n] == first + position as i32
        };
        let mut all = domains;
        all.push(z);
        check(
            &Case {
                domains: all,
                build: &|| Box::new(ArgExtremum::new(vars(&xs), var(n), first, minimum)),
                oracle: &oracle,
                level: Level::Sound,
                property: None,
            },
            &walk,
        )?;
    }

    /// Subcircuit: all-different on the successors is domain consistent, and no chain of fixed
    /// successors closes while a node outside it must be in the circuit.
    #[test]
    fn subcircuit_forbids_closing_without_a_needed_node(
        domains in prop::collection::vec(domain_strategy(0, 5, 5), 1..=5),
        first in 0i32..=1,
        walk in walk_strategy(),
    ) {
        let n = domains.len();
        let domains: Vec<Vec<i32>> = domains.iter().map(|d| d.iter().map(|v| v + first).collect()).collect();
        let node = |v: i32| usize::try_from(v - first).ok().filter(|&k| k < n);
        let oracle = |t: &[i32]| {
            let succ: Option<Vec<usize>> = t.iter().map(|&v| node(v)).collect();
            let Some(succ) = succ else { return false };
            if succ.iter().collect::<BTreeSet<_>>().len() != n {
                return false;
            }
            // One cycle at most among the nodes that are not their own successor.
            let mut seen = vec![false; n];
            let mut cycles = 0;
            for i in 0..n {
                if seen[i] || succ[i] == i { continue; }
                cycles += 1;
                let mut at = i;
                while !seen[at] { seen[at] = true; at = succ[at]; }
            }
            cycles <= 1
        };
        let property = |d: &[Vec<i32>]| -> Result<(), String> {
            for (i, di) in d.iter().enumerate() {
                for &v in di {
                    let mut choices = d.to_vec();
                    choices[i] = vec![v];
                    let mut supported = false;
                    for_each_tuple(&choices, |t| {
                        supported = t.iter().collect::<BTreeSet<_>>().len() == n;
                        !supported
                    });
                    if !supported {
                        return Err(format!("v{i}={v} has no all-different support"));
                    }
                }
            }
            // A chain of fixed successors (none its own) may close only if every node outside it
            // can stay out.
            let next = |i: usize| match d[i][..] { [v] => node(v).filter(|&j| j != i), _ => None };
            for start in (0..n).filter(|&s| (0..n).all(|i| next(i) != Some(s))) {
                let mut chain = vec![start];
                while let Some(j) = next(chain[chain.len() - 1]) {
                    if chain.contains(&j) { break; }
                    chain.push(j);
                }
                let end = chain[chain.len() - 1];
                let needed = (0..n).any(|k| !chain.contains(&k) && !d[k].contains(&(first + k as i32)));
                if chain.len() >= 2 && needed && d[end].contains(&(first + start as i32)) {
                    return Err(format!("the chain from {start} can close at {end}"));
                }
            }
            Ok(())
        };
        check(
            &Case {
                domains,
                build: &|| Box::new(Subcircuit::new(vars(&(0..n).collect::<Vec<_>>()), first)),
                oracle: &oracle,
                level: Level::Sound,
                property: Some(&property),
            },
            &walk,
        )?;
    }
}
