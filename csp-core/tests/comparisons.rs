//! Comparisons and linear sums against brute force: `Compare` (`int_eq`, `int_ne`, `int_le`,
//! `int_lt` between variables or with a constant), `ReifiedCompare` and the generic reification,
//! and the incremental `Linear` (`int_lin_*`, `bool_lin_*`) with its reified forms. See
//! `support/mod.rs` for what each case is held to.

mod support;

use csp_core::constraints::{
    BoolSum, Compare, Comparison, Linear, Reification, Reified, ReifiedCompare, Relation,
};
use csp_core::{Constructor, VarId};
use proptest::prelude::*;
use support::{
    Case, Level, Step, check, check_reified, config, domain_strategy, var, walk_strategy,
};

const REGRESSIONS: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/proptest-regressions/comparisons.txt"
);

const COMPARISONS: [Comparison; 6] = [
    Comparison::Equal,
    Comparison::NotEqual,
    Comparison::LessOrEqual,
    Comparison::Less,
    Comparison::GreaterOrEqual,
    Comparison::Greater,
];

/// `x ⋈ right`, from the definition.
fn compares(comparison: Comparison, x: i64, right: i64) -> bool {
    match comparison {
        Comparison::Equal => x == right,
        Comparison::NotEqual => x != right,
        Comparison::LessOrEqual => x <= right,
        Comparison::Less => x < right,
        Comparison::GreaterOrEqual => x >= right,
        Comparison::Greater => x > right,
    }
}

/// A comparison: two variables (or one and a constant) with an offset, and how far apart the
/// values are spread (1, or 10⁸ for wide interval domains).
#[derive(Debug, Clone)]
struct ComparisonCase {
    domains: Vec<Vec<i32>>,
    comparison: Comparison,
    offset: i64,
    constant: bool,
    scale: i32,
}

fn comparison_case() -> impl Strategy<Value = ComparisonCase> {
    (
        prop::collection::vec(domain_strategy(-4, 4, 5), 2),
        prop::sample::select(COMPARISONS.to_vec()),
        -2i64..=2,
        any::<bool>(),
        prop_oneof![Just(1), Just(100_000_000)],
    )
        .prop_map(
            |(domains, comparison, offset, constant, scale)| ComparisonCase {
                domains: domains
                    .into_iter()
                    .map(|d| d.into_iter().map(|v| v * scale).collect())
                    .collect(),
                comparison,
                offset: offset * i64::from(scale),
                constant,
                scale,
            },
        )
}

impl ComparisonCase {
    fn build(&self) -> Compare {
        if self.constant {
            Compare::constant(var(0), self.comparison, self.offset)
        } else {
            Compare::new(var(0), self.comparison, var(1), self.offset).unwrap()
        }
    }

    fn holds(&self, t: &[i32]) -> bool {
        let right = if self.constant {
            self.offset
        } else {
            i64::from(t[1]) + self.offset
        };
        compares(self.comparison, i64::from(t[0]), right)
    }
}

/// A linear sum over up to four variables; `repeat` names the first variable again with another
/// coefficient (FlatZinc allows it; `Linear::merged` adds the two up).
#[derive(Debug, Clone)]
struct LinearCase {
    domains: Vec<Vec<i32>>,
    coefficients: Vec<i64>,
    relation: Relation,
    rhs: i64,
    repeat: Option<i64>,
}

fn linear_case() -> impl Strategy<Value = LinearCase> {
    (1usize..=4)
        .prop_flat_map(|n| {
            (
                prop::collection::vec(domain_strategy(-3, 3, 4), n),
                prop::collection::vec(-3i64..=3, n),
                prop::sample::select(vec![
                    Relation::Equal,
                    Relation::LessOrEqual,
                    Relation::NotEqual,
                ]),
                -6i64..=6,
                prop::option::of(-2i64..=2),
            )
        })
        .prop_map(
            |(domains, coefficients, relation, rhs, repeat)| LinearCase {
                domains,
                coefficients,
                relation,
                rhs,
                repeat,
            },
        )
}

impl LinearCase {
    fn terms(&self) -> (Vec<i64>, Vec<VarId>) {
        let mut coefficients = self.coefficients.clone();
        let mut vars: Vec<VarId> = (0..self.domains.len()).map(var).collect();
        if let Some(a) = self.repeat {
            coefficients.push(a);
            vars.push(var(0));
        }
        (coefficients, vars)
    }

    /// The sum with a repeated variable's coefficients added up and zero terms dropped: a linear
    /// constraint takes each variable once.
    fn build(&self) -> Constructor<Linear> {
        let (coefficients, vars) = self.terms();
        let mut terms: Vec<(i64, VarId)> = Vec::new();
        for (a, x) in coefficients.into_iter().zip(vars) {
            match terms.iter_mut().find(|(_, y)| *y == x) {
                Some(term) => term.0 += a,
                None => terms.push((a, x)),
            }
        }
        terms.retain(|&(a, _)| a != 0);
        Linear::with_i64(terms, self.relation, self.rhs)
    }

    fn sum(&self, t: &[i32]) -> i64 {
        let (coefficients, vars) = self.terms();
        coefficients
            .iter()
            .zip(&vars)
            .map(|(&a, v)| a * i64::from(t[v.index()]))
            .sum()
    }

    fn holds(&self, t: &[i32]) -> bool {
        let sum = self.sum(t);
        match self.relation {
            Relation::Equal => sum == self.rhs,
            Relation::LessOrEqual => sum <= self.rhs,
            Relation::NotEqual => sum != self.rhs,
        }
    }

    /// The merged coefficient of each variable.
    fn merged(&self) -> Vec<i64> {
        let mut merged = self.coefficients.clone();
        if let Some(a) = self.repeat {
            merged[0] += a;
        }
        merged
    }

    /// Bounds consistency over the reals, restated: for `=` and `≤`, each bound `b` of each variable
    /// leaves the right-hand side within reach of the other terms at their bounds; for `≠`, with one
    /// variable unfixed, the value completing the sum is gone.
    fn property(&self, domains: &[Vec<i32>]) -> Result<(), String> {
        let merged = self.merged();
        let term = |i: usize, d: &[i32]| {
            let (p, q) = (
                merged[i] * i64::from(d[0]),
                merged[i] * i64::from(d[d.len() - 1]),
            );
            (p.min(q), p.max(q))
        };
        if self.relation == Relation::NotEqual {
            let unfixed: Vec<usize> = (0..domains.len())
                .filter(|&i| domains[i].len() > 1 && merged[i] != 0)
                .collect();
            if let [i] = unfixed[..] {
                let rest: i64 = (0..domains.len())
                    .filter(|&j| j != i)
                    .map(|j| merged[j] * i64::from(domains[j][0]))
                    .sum();
                let completing = self.rhs - rest;
                if completing % merged[i] == 0
                    && domains[i].contains(&((completing / merged[i]) as i32))
                {
                    return Err(format!("v{i} keeps the value completing the sum"));
                }
            }
            return Ok(());
        }
        for (i, d) in domains.iter().enumerate() {
            for b in [d[0], d[d.len() - 1]] {
                let (mut lo, mut hi) = (merged[i] * i64::from(b), merged[i] * i64::from(b));
                for (j, e) in domains.iter().enumerate() {
                    if j != i {
                        let (p, q) = term(j, e);
                        lo += p;
                        hi += q;
                    }
                }
                let reachable = match self.relation {
                    Relation::Equal => lo <= self.rhs && self.rhs <= hi,
                    _ => lo <= self.rhs,
                };
                if !reachable {
                    return Err(format!("bound v{i}={b} cannot reach the right-hand side"));
                }
            }
        }
        Ok(())
    }
}

/// A Boolean sum: up to five Booleans with coefficients ±1 (domains within `{0, 1}`, or now and
/// then wider, for the cut to `{0, 1}`), and maybe an integer term `a·y`. The integer variable,
/// if any, is the last.
#[derive(Debug, Clone)]
struct BoolSumCase {
    domains: Vec<Vec<i32>>,
    signs: Vec<i64>,
    integer: Option<i64>,
    relation: Relation,
    rhs: i64,
}

fn bool_sum_case() -> impl Strategy<Value = BoolSumCase> {
    let boolean = prop_oneof![
        4 => prop::sample::select(vec![vec![0], vec![1], vec![0, 1]]),
        1 => domain_strategy(-1, 2, 3),
    ];
    (1usize..=5)
        .prop_flat_map(move |n| {
            (
                prop::collection::vec(boolean.clone(), n),
                prop::collection::vec(prop::sample::select(vec![-1i64, 1]), n),
                prop::option::of((
                    prop::sample::select(vec![-2i64, -1, 1, 2]),
                    domain_strategy(-4, 4, 5),
                )),
                prop::sample::select(vec![Relation::Equal, Relation::LessOrEqual]),
                -3i64..=4,
            )
        })
        .prop_map(|(mut domains, signs, integer, relation, rhs)| {
            let integer = integer.map(|(a, d)| {
                domains.push(d);
                a
            });
            BoolSumCase {
                domains,
                signs,
                integer,
                relation,
                rhs,
            }
        })
}

impl BoolSumCase {
    fn build(&self) -> Constructor<BoolSum> {
        let booleans = self
            .signs
            .iter()
            .enumerate()
            .map(|(i, &s)| (s, var(i)))
            .collect();
        let integer = self.integer.map(|a| (a, var(self.signs.len())));
        BoolSum::new(booleans, integer, self.relation, self.rhs).unwrap()
    }

    /// The same sum as a linear case, whose bounds property it must meet.
    fn linear(&self) -> LinearCase {
        LinearCase {
            domains: self.domains.clone(),
            coefficients: self.signs.iter().copied().chain(self.integer).collect(),
            relation: self.relation,
            rhs: self.rhs,
            repeat: None,
        }
    }

    fn holds(&self, t: &[i32]) -> bool {
        t[..self.signs.len()].iter().all(|&b| b == 0 || b == 1) && self.linear().holds(t)
    }

    /// On 0/1 domains with `a = ±1` (or no integer term), the bounds are supported by integers.
    fn level(&self) -> Level {
        let booleans = self.domains[..self.signs.len()]
            .iter()
            .all(|d| d.iter().all(|&v| v == 0 || v == 1));
        if booleans && self.integer.is_none_or(|a| a.abs() == 1) {
            Level::BoundsZ
        } else {
            Level::Sound
        }
    }
}

fn check_comparison(case: &ComparisonCase, walk: &[Step]) -> Result<(), TestCaseError> {
    let domains = if case.constant {
        case.domains[..1].to_vec()
    } else {
        case.domains.clone()
    };
    let oracle = |t: &[i32]| case.holds(t);
    check(
        &Case {
            domains: domains.clone(),
            build: &|| Box::new(case.build()),
            oracle: &oracle,
            level: Level::Domain,
            property: None,
        },
        walk,
    )?;
    check_reified(
        &domains,
        &|b, mode| Box::new(ReifiedCompare::new(b, case.build(), mode).unwrap()),
        &oracle,
        walk,
    )?;
    check_reified(
        &domains,
        &|b, mode| Box::new(Reified::new(b, Box::new(case.build()), mode)),
        &oracle,
        walk,
    )
}

proptest! {
    #![proptest_config(config(REGRESSIONS, 384))]

    /// Every comparison is domain consistent, and both reifications (the specialised one and the
    /// generic wrapper) agree with the checker.
    #[test]
    fn comparisons_are_domain_consistent_and_reify_soundly(
        case in comparison_case(),
        walk in walk_strategy(),
    ) {
        prop_assume!(case.scale == 1 || !case.constant || case.domains[0].len() > 1);
        check_comparison(&case, &walk)?;
    }

    /// Linear sums: bounds consistency over the reals for `=` and `≤`, the completing value removed
    /// for `≠`, incremental cells kept exact along walks with undo; and `b ↔ Σ` and `b → Σ`.
    #[test]
    fn linear_sums_are_bounds_consistent_and_reify_soundly(
        case in linear_case(),
        walk in walk_strategy(),
    ) {
        let oracle = |t: &[i32]| case.holds(t);
        let property = |d: &[Vec<i32>]| case.property(d);
        check(
            &Case {
                domains: case.domains.clone(),
                build: &|| Box::new(case.build()),
                oracle: &oracle,
                level: Level::Sound,
                property: Some(&property),
            },
            &walk,
        )?;
        check_reified(
            &case.domains,
            &|b, mode| Box::new(Reified::new(b, Box::new(case.build()), mode)),
            &oracle,
            &walk,
        )?;
    }

    /// Boolean sums: the linear sum's bounds property always, bounds(Z) consistency on 0/1
    /// domains with a unit integer coefficient, bit sets kept exact along walks with undo, and the
    /// generic reifications.
    #[test]
    fn boolean_sums_propagate_as_linear_sums_and_reify_soundly(
        case in bool_sum_case(),
        walk in walk_strategy(),
    ) {
        let oracle = |t: &[i32]| case.holds(t);
        let linear = case.linear();
        let property = |d: &[Vec<i32>]| linear.property(d);
        check(
            &Case {
                domains: case.domains.clone(),
                build: &|| Box::new(case.build()),
                oracle: &oracle,
                level: case.level(),
                property: Some(&property),
            },
            &walk,
        )?;
        check_reified(
            &case.domains,
            &|b, mode| Box::new(Reified::new(b, Box::new(case.build()), mode)),
            &oracle,
            &walk,
        )?;
    }
}

#[test]
fn a_boolean_sum_refuses_what_it_cannot_propagate() {
    let terms = || vec![(1, var(0)), (-1, var(1))];
    let cases = [
        BoolSum::new(vec![(2, var(0))], None, Relation::Equal, 1),
        BoolSum::new(terms(), None, Relation::NotEqual, 1),
        BoolSum::new(terms(), Some((0, var(2))), Relation::Equal, 1),
        BoolSum::new(terms(), Some((1, var(1))), Relation::Equal, 1),
    ];
    for (i, case) in cases.into_iter().enumerate() {
        assert!(case.is_err(), "case {i} was accepted");
    }
    assert!(BoolSum::new(terms(), Some((3, var(2))), Relation::LessOrEqual, 1).is_ok());
}

#[test]
fn a_comparison_of_a_variable_with_itself_is_refused() {
    let error = Compare::new(var(0), Comparison::Less, var(0), 0).unwrap_err();
    assert!(error.to_string().contains("both sides"), "{error}");
    let reified = ReifiedCompare::new(
        var(0),
        Compare::constant(var(0), Comparison::Equal, 1),
        Reification::Equivalent,
    );
    assert!(reified.is_err());
}
