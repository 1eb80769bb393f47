//! Arithmetic against brute force: `int_times`, `int_div`, `int_mod`, `int_pow`, `int_abs` (domain
//! consistent on small domains, interval reasoning beyond, with repeated variables such as
//! `x · x = z`) and the array minimum and maximum (bounds(Z)). See `support/mod.rs` for what each
//! case is held to.

mod support;

use csp_core::constraints::{Arithmetic, Extremum};
use csp_core::{Constraint, Constructor, Post, PostCtx, VarId};
use proptest::prelude::*;
use support::{Case, Level, check, config, domain_strategy, var, walk_strategy};

const REGRESSIONS: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/proptest-regressions/arithmetic.txt"
);

/// The functions, restated from MiniZinc's definitions; `None` where there is no result.
fn eval(function: u8, x: i64, y: i64) -> Option<i64> {
    match function {
        0 => Some(x * y),
        // Truncating division and its remainder.
        1 => (y != 0).then(|| (x.abs() / y.abs()) * if (x < 0) != (y < 0) { -1 } else { 1 }),
        2 => (y != 0)
            .then(|| x - y * ((x.abs() / y.abs()) * if (x < 0) != (y < 0) { -1 } else { 1 })),
        3 => {
            // x^|y|, stopping once it is far beyond any value a test domain holds; the powers of 0, 1
            // and −1 repeat with period 2 after the first, so a few steps of the right parity do.
            let mut p: i64 = 1;
            let steps = if x.abs() <= 1 {
                y.abs() % 2 + 2 * i64::from(y != 0)
            } else {
                y.abs()
            };
            for _ in 0..steps {
                p = p.saturating_mul(x);
                if p.abs() > 1 << 40 {
                    break;
                }
            }
            if y >= 0 {
                Some(p)
            } else if x == 0 {
                None
            } else {
                // 1 div x^|y|
                Some(if p.abs() == 1 { p } else { 0 })
            }
        }
        _ => Some(x.abs()),
    }
}

fn build(function: u8, x: VarId, y: VarId, z: VarId) -> Constructor<Arithmetic> {
    match function {
        0 => Arithmetic::times(x, y, z),
        1 => Arithmetic::div(x, y, z),
        2 => Arithmetic::modulo(x, y, z),
        3 => Arithmetic::pow(x, y, z),
        _ => Arithmetic::abs(x, z),
    }
}

/// Which variables the arguments x, y, z are: distinct, or `y` is `x`, or `z` is `x`.
fn arguments(aliasing: u8, function: u8) -> [usize; 3] {
    match (aliasing, function) {
        (_, 4) => [0, 1, 1],
        (1, _) => [0, 0, 1],
        (2, _) => [0, 1, 0],
        _ => [0, 1, 2],
    }
}

fn holds(function: u8, [x, y, z]: [usize; 3], t: &[i32]) -> bool {
    let arg = |i: usize| i64::from(t[i]);
    let y = if function == 4 { 0 } else { arg(y) };
    eval(function, arg(x), y) == Some(arg(z))
}

proptest! {
    #![proptest_config(config(REGRESSIONS, 512))]

    /// On small domains every function is domain consistent, whichever variables repeat.
    #[test]
    fn small_arithmetic_is_domain_consistent(
        function in 0u8..5,
        aliasing in 0u8..3,
        x in domain_strategy(-5, 5, 6),
        y in domain_strategy(-3, 4, 5),
        z in domain_strategy(-12, 12, 8),
        walk in walk_strategy(),
    ) {
        let args = arguments(aliasing, function);
        let n = args.iter().max().unwrap() + 1;
        let domains = [x, y, z][..n].to_vec();
        let oracle = |t: &[i32]| holds(function, args, t);
        check(
            &Case {
                domains,
                build: &|| Box::new(build(function, var(args[0]), var(args[1]), var(args[2]))),
                oracle: &oracle,
                level: Level::Domain,
                property: None,
            },
            &walk,
        )?;
    }

    /// The same with `z`'s values spread beyond the 8,192 values that `x · y = z` reads into bits
    /// when `z`'s bounds are close enough: its general enumeration (a sorted list of results)
    /// stays checked too.
    #[test]
    fn small_arithmetic_with_spread_results_is_domain_consistent(
        function in 0u8..4,
        x in domain_strategy(-5, 5, 6),
        y in domain_strategy(-3, 4, 5),
        z in domain_strategy(-12, 12, 8),
        far in 8_200i32..9_000,
        walk in walk_strategy(),
    ) {
        let args = arguments(0, function);
        let z: Vec<i32> = std::iter::once(-far).chain(z).chain(std::iter::once(far)).collect();
        let oracle = |t: &[i32]| holds(function, args, t);
        check(
            &Case {
                domains: vec![x, y, z],
                build: &|| Box::new(build(function, var(args[0]), var(args[1]), var(args[2]))),
                oracle: &oracle,
                level: Level::Domain,
                property: None,
            },
            &walk,
        )?;
    }
}

proptest! {
    // Wide domains make each brute-force check costly: fewer cases.
    #![proptest_config(config(REGRESSIONS, 40))]

    /// Beyond the enumeration budget the interval reasoning is sound and checker-complete, and for
    /// `x · y = z` bounds consistent over the reals.
    #[test]
    fn wide_arithmetic_is_sound(
        function in 0u8..5,
        x_from in -140i32..=0,
        y_from in -140i32..=0,
        z in domain_strategy(-30, 30, 5),
        walk in walk_strategy(),
    ) {
        let x: Vec<i32> = (x_from..=x_from + 130).collect();
        // For pow the exponent is the wide one, beside a few bases.
        let (x, y): (Vec<i32>, Vec<i32>) = if function == 3 {
            (vec![x_from % 4, -2, 3], (y_from / 20..=20_000).collect())
        } else {
            (x, (y_from..=y_from + 130).collect())
        };
        let z = if function == 4 { (0..=140).collect() } else { z };
        let args = arguments(0, function);
        let domains = if function == 4 { vec![x, z] } else { vec![x, y, z] };
        let args = if function == 4 { [0, 1, 1] } else { args };
        let oracle = |t: &[i32]| holds(function, args, t);
        let times_bounds = |d: &[Vec<i32>]| -> Result<(), String> {
            if function != 0 {
                return Ok(());
            }
            let r = |v: &Vec<i32>| (i64::from(v[0]), i64::from(v[v.len() - 1]));
            let (xb, yb, zb) = (r(&d[0]), r(&d[1]), r(&d[2]));
            let meets = |b: i64, (lo, hi): (i64, i64), (zl, zu): (i64, i64)| {
                let (p, q) = ((b * lo).min(b * hi), (b * lo).max(b * hi));
                p <= zu && zl <= q
            };
            for b in [xb.0, xb.1] {
                if !meets(b, yb, zb) { return Err(format!("x bound {b} has no real support")); }
            }
            for b in [yb.0, yb.1] {
                if !meets(b, xb, zb) { return Err(format!("y bound {b} has no real support")); }
            }
            let corners = [xb.0 * yb.0, xb.0 * yb.1, xb.1 * yb.0, xb.1 * yb.1];
            let (lo, hi) = (*corners.iter().min().unwrap(), *corners.iter().max().unwrap());
            for b in [zb.0, zb.1] {
                if b < lo || b > hi { return Err(format!("z bound {b} has no real support")); }
            }
            Ok(())
        };
        check(
            &Case {
                domains,
                build: &|| Box::new(build(function, var(args[0]), var(args[1]), var(args[2]))),
                oracle: &oracle,
                level: Level::Sound,
                property: Some(&times_bounds),
            },
            &walk[..walk.len().min(4)],
        )?;
    }

    /// With the divisor or exponent fixed, `div`, `pow` and `abs` are bounds(Z) consistent on `x` and
    /// `z` however wide `x` is.
    #[test]
    fn fixed_divisor_and_exponent_give_bounds_z(
        function in prop::sample::select(vec![1u8, 3, 4]),
        x_from in -30_000i32..=10_000,
        divisor in prop_oneof![-7i32..=-1, 1i32..=7],
        z in domain_strategy(-40, 40, 6),
        walk in walk_strategy(),
    ) {
        let x: Vec<i32> = (x_from..=x_from + 20_000).collect();
        let y = vec![if function == 3 { divisor.abs() % 4 } else { divisor }];
        let (domains, args) = if function == 4 {
            (vec![x, z], [0, 1, 1])
        } else {
            (vec![x, y, z], [0, 1, 2])
        };
        let oracle = |t: &[i32]| holds(function, args, t);
        check(
            &Case {
                domains,
                build: &|| Box::new(build(function, var(args[0]), var(args[1]), var(args[2]))),
                oracle: &oracle,
                level: Level::BoundsZ,
                property: None,
            },
            &walk[..walk.len().min(2)],
        )?;
    }

}

proptest! {
    #![proptest_config(config(REGRESSIONS, 512))]

    /// The minimum and maximum of an array are bounds(Z) consistent (sound when `m` is one of the
    /// array's variables).
    #[test]
    fn extrema_are_bounds_z_consistent(
        maximum in any::<bool>(),
        domains in prop::collection::vec(domain_strategy(-4, 4, 5), 2..=4),
        alias in any::<bool>(),
        walk in walk_strategy(),
    ) {
        let n = domains.len();
        let xs: Vec<usize> = if alias { (0..n).collect() } else { (1..n).collect() };
        let oracle = |t: &[i32]| {
            let values = xs.iter().map(|&i| t[i]);
            let extremum = if maximum { values.max() } else { values.min() };
            extremum == Some(t[0])
        };
        let build = || -> Box<dyn Post> {
            let vars = xs.iter().map(|&i| var(i)).collect();
            Box::new(if maximum {
                Extremum::maximum(var(0), vars).unwrap()
            } else {
                Extremum::minimum(var(0), vars).unwrap()
            })
        };
        check(
            &Case {
                domains,
                build: &build,
                oracle: &oracle,
                level: if alias { Level::Sound } else { Level::BoundsZ },
                property: None,
            },
            &walk,
        )?;
    }
}

#[test]
fn an_extremum_of_nothing_is_refused() {
    assert!(Extremum::maximum(var(0), vec![]).is_err());
    assert!(Extremum::minimum(var(0), vec![]).is_err());
}

#[test]
fn division_and_remainder_truncate_as_minizinc_does() {
    let built = |c: Constructor<Arithmetic>| c.build(&mut PostCtx::new()).expect("it builds");
    let div = built(Arithmetic::div(var(0), var(1), var(2)));
    let modulo = built(Arithmetic::modulo(var(0), var(1), var(2)));
    for (x, y, q, r) in [
        (7, 2, 3, 1),
        (-7, 2, -3, -1),
        (7, -2, -3, 1),
        (-7, -2, 3, -1),
    ] {
        assert!(div.is_satisfied(&[x, y, q]), "{x} div {y}");
        assert!(modulo.is_satisfied(&[x, y, r]), "{x} mod {y}");
    }
    assert!(!div.is_satisfied(&[1, 0, 0]), "no result for y = 0");
    assert!(!modulo.is_satisfied(&[1, 0, 0]), "no result for y = 0");
}
