//! Packing against brute force: `Diffn` (strict and not) is sound, checker-complete and at the
//! sweep's fixpoint; `BinPacking` with loads and with capacities is sound, checker-complete and at
//! the fixpoint of Shaw's load and item rules. See `support/mod.rs` for the rest.

mod support;

use csp_core::constraints::{BinPacking, Diffn};
use proptest::prelude::*;
use support::{Case, Level, check, config, domain_strategy, var, walk_strategy};

const REGRESSIONS: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/proptest-regressions/packing.txt"
);

/// Whether two rectangles `(x, y, w, h)` overlap, from MiniZinc's definitions.
fn overlap(a: [i64; 4], b: [i64; 4], strict: bool) -> bool {
    let [xi, yi, wi, hi] = a;
    let [xj, yj, wj, hj] = b;
    if !strict && [wi, hi, wj, hj].contains(&0) {
        return false;
    }
    !(xi + wi <= xj || yi + hi <= yj || xj + wj <= xi || yj + hj <= yi)
}

/// The sweep's fixpoint restated: every bound of each rectangle's origin has, between the bounds
/// of its other coordinate, a point that no other rectangle's compulsory part forbids.
fn sweep_holds(d: &[Vec<i32>], n: usize, strict: bool) -> Result<(), String> {
    let lo = |k: usize| i64::from(d[k][0]);
    let hi = |k: usize| i64::from(d[k][d[k].len() - 1]);
    let surely_nonzero = |k: usize| !d[k].contains(&0);
    let forbids = |i: usize, j: usize, x: i64, y: i64| {
        if !strict
            && ![2 * n + i, 3 * n + i, 2 * n + j, 3 * n + j]
                .into_iter()
                .all(surely_nonzero)
        {
            return false;
        }
        hi(j) - lo(2 * n + i) < x
            && x < lo(j) + lo(2 * n + j)
            && hi(n + j) - lo(3 * n + i) < y
            && y < lo(n + j) + lo(3 * n + j)
    };
    for i in 0..n {
        let free = |x: i64, y: i64| (0..n).filter(|&j| j != i).all(|j| !forbids(i, j, x, y));
        for x in [lo(i), hi(i)] {
            if !(lo(n + i)..=hi(n + i)).any(|y| free(x, y)) {
                return Err(format!("x{i} = {x} has no free y"));
            }
        }
        for y in [lo(n + i), hi(n + i)] {
            if !(lo(i)..=hi(i)).any(|x| free(x, y)) {
                return Err(format!("y{i} = {y} has no free x"));
            }
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(config(REGRESSIONS, 2048))]

    /// Diffn, strict or not, with variable sizes (zero ones included) reaches the sweep's
    /// fixpoint soundly.
    #[test]
    fn diffn_reaches_the_sweep_fixpoint(
        n in 1usize..=3,
        origins in prop::collection::vec(domain_strategy(0, 4, 3), 6),
        sizes in prop::collection::vec(domain_strategy(0, 3, 2), 6),
        strict in any::<bool>(),
        walk in walk_strategy(),
    ) {
        let mut domains: Vec<Vec<i32>> = origins[..2 * n].to_vec();
        domains.extend(sizes[..2 * n].iter().cloned());
        let rect = |t: &[i32], i: usize| [t[i], t[n + i], t[2 * n + i], t[3 * n + i]].map(i64::from);
        let oracle = |t: &[i32]| (0..n).all(|i| (i + 1..n).all(|j| !overlap(rect(t, i), rect(t, j), strict)));
        let property = |d: &[Vec<i32>]| sweep_holds(d, n, strict);
        let vars = |from: usize| (from..from + n).map(var).collect::<Vec<_>>();
        check(
            &Case {
                domains,
                build: &|| Box::new(Diffn::new(vars(0), vars(n), vars(2 * n), vars(3 * n), strict).unwrap()),
                oracle: &oracle,
                level: Level::Sound,
                property: Some(&property),
            },
            &walk,
        )?;
    }

    /// Bin packing with load variables, and with capacities: sound, checker-complete, and every
    /// fixpoint keeps each load between its committed and its possible weight, and no item in a
    /// bin it would overfill.
    #[test]
    fn bin_packing_reaches_the_fixpoint_of_its_rules(
        bins in prop::collection::vec(domain_strategy(0, 4, 3), 1..=4),
        weights in prop::collection::vec(0i64..=3, 4),
        loads in prop::collection::vec(domain_strategy(0, 6, 3), 3),
        capacities in prop::collection::vec(0i64..=5, 3),
        m in 1usize..=3,
        first in 0i32..=1,
        with_loads in any::<bool>(),
        walk in walk_strategy(),
    ) {
        let n = bins.len();
        let weights: Vec<i64> = weights[..n].to_vec();
        let capacities: Vec<i64> = capacities[..m].to_vec();
        let mut domains = bins;
        if with_loads {
            domains.extend(loads[..m].iter().cloned());
        }
        let bin_of = |v: i32| usize::try_from(v - first).ok().filter(|&b| b < m);
        let oracle = |t: &[i32]| {
            let mut load = vec![0i64; m];
            for i in 0..n {
                match bin_of(t[i]) {
                    Some(b) => load[b] += weights[i],
                    None => return false,
                }
            }
            if with_loads {
                (0..m).all(|b| i64::from(t[n + b]) == load[b])
            } else {
                (0..m).all(|b| load[b] <= capacities[b])
            }
        };
        let property = |d: &[Vec<i32>]| -> Result<(), String> {
            for b in 0..m {
                let value = first + b as i32;
                let committed: i64 = (0..n).filter(|&i| d[i] == [value]).map(|i| weights[i]).sum();
                let possible: i64 = (0..n).filter(|&i| d[i].contains(&value)).map(|i| weights[i]).sum();
                let most = if with_loads {
                    let l = &d[n + b];
                    if i64::from(l[0]) < committed || i64::from(l[l.len() - 1]) > possible {
                        return Err(format!("load {b} outside {committed}..={possible}"));
                    }
                    i64::from(l[l.len() - 1])
                } else {
                    capacities[b]
                };
                for i in (0..n).filter(|&i| d[i].len() > 1 && d[i].contains(&value)) {
                    if committed + weights[i] > most {
                        return Err(format!("item {i} can still go into bin {b}, which it overfills"));
                    }
                }
            }
            Ok(())
        };
        let items = (0..n).map(var).collect::<Vec<_>>();
        check(
            &Case {
                domains,
                build: &|| Box::new(if with_loads {
                    BinPacking::with_loads((n..n + m).map(var).collect(), first, items.clone(), weights.clone()).unwrap()
                } else {
                    BinPacking::with_capacities(capacities.clone(), first, items.clone(), weights.clone()).unwrap()
                }),
                oracle: &oracle,
                level: Level::Sound,
                property: Some(&property),
            },
            &walk,
        )?;
    }
}

#[test]
fn bin_packing_refuses_negative_weights_and_mismatched_arrays() {
    assert!(BinPacking::with_capacities(vec![3], 1, vec![var(0)], vec![-1]).is_err());
    assert!(BinPacking::with_capacities(vec![3], 1, vec![var(0)], vec![1, 2]).is_err());
    assert!(Diffn::new(vec![var(0)], vec![], vec![var(1)], vec![var(2)], true).is_err());
}
