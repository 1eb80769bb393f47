//! Values beyond 32 bits. The engine's integers are 32-bit, and a variable FlatZinc declares without
//! bounds (`var int`) ranges over them. That is a restriction any 32-bit solver has, and MiniZinc's
//! own flattening gives such variables no bounds only where the model gives none. But where the
//! bounds a model *does* declare force an unbounded variable beyond 32 bits (`z = 2000^y` with `y` in
//! `2..3`), the engine would silently lose the solutions that need the larger values and then claim
//! completeness. This pass finds those models before search and refuses them, naming the constraint.
//!
//! It is an interval analysis over the FlatZinc constraints in 128-bit arithmetic: declared bounds
//! and constants are where it starts, a variable declared without bounds starts unbounded (±∞), and
//! each arithmetic or linear constraint narrows what it can (rounds over all constraints until
//! nothing changes, at most [`MAX_ROUNDS`]). A constraint it does not model narrows nothing, which
//! only leaves bounds wider, and a bound that is still infinite means "no more than the declarations
//! say", which is never refused. So the pass over-approximates: it refuses only models where some
//! constraint's own interval reasoning, from finite declared bounds, reaches past 32 bits.

use crate::Elem;
use crate::builtins::Arg;
use crate::error::Error;

/// Infinity for the analysis: far beyond any product of 64-bit values, and far from `i128`'s limits.
const INFINITY: i128 = 1 << 100;

/// The most rounds over the constraints; stopping early leaves bounds wider, which is sound.
const MAX_ROUNDS: usize = 16;

/// A closed interval; `±INFINITY` for no bound.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Interval {
    lo: i128,
    hi: i128,
}

impl Interval {
    const ALL: Interval = Interval {
        lo: -INFINITY,
        hi: INFINITY,
    };

    fn point(value: i128) -> Self {
        Interval {
            lo: value,
            hi: value,
        }
    }

    /// The smallest interval holding both.
    fn hull(self, other: Interval) -> Interval {
        Interval {
            lo: self.lo.min(other.lo),
            hi: self.hi.max(other.hi),
        }
    }

    /// The largest absolute value.
    fn magnitude(self) -> i128 {
        self.lo.abs().max(self.hi.abs())
    }

    fn is_bounded(self) -> bool {
        self.lo > -INFINITY && self.hi < INFINITY
    }
}

/// Clamps to `±INFINITY`, so that sums of infinities stay infinite and nothing overflows.
fn clamp(value: i128) -> i128 {
    value.clamp(-INFINITY, INFINITY)
}

/// `a · b`, saturating at infinity.
fn times(a: i128, b: i128) -> i128 {
    clamp(a.saturating_mul(b))
}

/// `a · x` for `x` in an interval.
fn scale(a: i128, x: Interval) -> Interval {
    let (p, q) = (times(a, x.lo), times(a, x.hi));
    Interval {
        lo: p.min(q),
        hi: p.max(q),
    }
}

/// `base^exponent` for `exponent ≥ 0`, saturating at infinity.
fn power(base: i128, exponent: i128) -> i128 {
    let mut result: i128 = 1;
    for _ in 0..exponent.clamp(0, 128) {
        result = times(result, base);
        if result.abs() >= INFINITY {
            break;
        }
    }
    result
}

/// One FlatZinc constraint as the analysis reads it.
pub(crate) struct Fact<'a> {
    /// The builtin's name.
    pub name: &'a str,
    /// Its arguments.
    pub args: &'a [Arg],
    /// Its line.
    pub line: u32,
}

/// Where a variable's bound beyond 32 bits came from.
#[derive(Debug, Clone, Copy)]
struct Cause {
    fact: usize,
    value: i128,
}

/// The analysis' state: an interval per variable, and for each the constraint that last moved one
/// of its bounds beyond 32 bits.
struct Analysis {
    bounds: Vec<Interval>,
    causes: Vec<Option<Cause>>,
    changed: bool,
}

impl Analysis {
    fn of(&self, elem: Elem) -> Interval {
        match elem {
            Elem::Const(c) => Interval::point(i128::from(c)),
            Elem::Var(var) => self.bounds[var.index()],
        }
    }

    /// Narrows `elem`'s interval to `within`, recording `fact` when a finite bound lands beyond 32
    /// bits. An empty intersection means the model has no solution, which the engine proves by
    /// itself; the interval is left as it was.
    fn narrow(&mut self, elem: Elem, within: Interval, fact: usize) {
        let Elem::Var(var) = elem else {
            return;
        };
        let old = self.bounds[var.index()];
        let new = Interval {
            lo: old.lo.max(within.lo),
            hi: old.hi.min(within.hi),
        };
        if new == old || new.lo > new.hi {
            return;
        }
        self.bounds[var.index()] = new;
        self.changed = true;
        let beyond = |v: i128| v.abs() < INFINITY && i32::try_from(v).is_err();
        if beyond(new.hi) && new.hi != old.hi {
            self.causes[var.index()] = Some(Cause {
                fact,
                value: new.hi,
            });
        } else if beyond(new.lo) && new.lo != old.lo {
            self.causes[var.index()] = Some(Cause {
                fact,
                value: new.lo,
            });
        }
    }

    /// One constraint's narrowing.
    fn apply(&mut self, index: usize, fact: &Fact<'_>) {
        let args = fact.args;
        let elem = |i: usize| match args.get(i) {
            Some(Arg::Elem(elem)) => Some(*elem),
            _ => None,
        };
        let array = |i: usize| match args.get(i) {
            Some(Arg::Array(elems)) => Some(&elems[..]),
            _ => None,
        };
        match fact.name {
            "int_eq" | "bool2int" => {
                if let (Some(x), Some(y)) = (elem(0), elem(1)) {
                    let (bx, by) = (self.of(x), self.of(y));
                    self.narrow(x, by, index);
                    self.narrow(y, bx, index);
                }
            }
            "int_le" | "int_lt" => {
                if let (Some(x), Some(y)) = (elem(0), elem(1)) {
                    let strict = i128::from(fact.name == "int_lt");
                    let (bx, by) = (self.of(x), self.of(y));
                    self.narrow(
                        x,
                        Interval {
                            lo: -INFINITY,
                            hi: clamp(by.hi - strict),
                        },
                        index,
                    );
                    self.narrow(
                        y,
                        Interval {
                            lo: clamp(bx.lo + strict),
                            hi: INFINITY,
                        },
                        index,
                    );
                }
            }
            "int_lin_eq" | "int_lin_le" => {
                if let (Some(coefficients), Some(xs), Some(Elem::Const(c))) =
                    (array(0), array(1), elem(2))
                {
                    self.linear(
                        index,
                        coefficients,
                        xs,
                        i128::from(c),
                        fact.name == "int_lin_eq",
                    );
                }
            }
            "int_times" | "int_div" | "int_mod" | "int_pow" | "int_min" | "int_max" => {
                if let (Some(x), Some(y), Some(z)) = (elem(0), elem(1), elem(2)) {
                    let value = function(fact.name, self.of(x), self.of(y));
                    self.narrow(z, value, index);
                }
            }
            "int_abs" => {
                if let (Some(x), Some(z)) = (elem(0), elem(1)) {
                    let bx = self.of(x);
                    let lo = if bx.lo >= 0 {
                        bx.lo
                    } else if bx.hi <= 0 {
                        -bx.hi
                    } else {
                        0
                    };
                    self.narrow(
                        z,
                        Interval {
                            lo,
                            hi: bx.magnitude(),
                        },
                        index,
                    );
                }
            }
            "array_int_maximum" | "array_int_minimum" => {
                if let (Some(m), Some(xs)) = (elem(0), array(1))
                    && let Some(hull) = xs.iter().map(|&x| self.of(x)).reduce(Interval::hull)
                {
                    self.narrow(m, hull, index);
                }
            }
            "array_int_element" | "array_var_int_element" => {
                if let (Some(xs), Some(z)) = (array(1), elem(2))
                    && let Some(hull) = xs.iter().map(|&x| self.of(x)).reduce(Interval::hull)
                {
                    self.narrow(z, hull, index);
                }
            }
            _ => {}
        }
    }

    /// `Σ a_i x_i = c` (or `≤ c`): each term between `c` and what the other terms can reach.
    fn linear(&mut self, index: usize, coefficients: &[Elem], xs: &[Elem], c: i128, equal: bool) {
        if coefficients.len() != xs.len() {
            return;
        }
        let terms: Vec<(i128, Interval)> = coefficients
            .iter()
            .zip(xs)
            .map(|(a, &x)| {
                let a = match a {
                    Elem::Const(a) => i128::from(*a),
                    Elem::Var(_) => 0,
                };
                (a, scale(a, self.of(x)))
            })
            .collect();
        // The finite parts of the sums, and how many terms are unbounded on each side: the other
        // terms' sum is then known in O(1) for each term.
        let (mut low, mut high, mut low_unbounded, mut high_unbounded) = (0i128, 0i128, 0, 0);
        for (_, t) in &terms {
            if t.lo <= -INFINITY {
                low_unbounded += 1;
            } else {
                low = clamp(low + t.lo);
            }
            if t.hi >= INFINITY {
                high_unbounded += 1;
            } else {
                high = clamp(high + t.hi);
            }
        }
        for (i, &(a, term)) in terms.iter().enumerate() {
            if a == 0 {
                continue;
            }
            let others_lo = if low_unbounded > usize::from(term.lo <= -INFINITY) {
                -INFINITY
            } else if term.lo <= -INFINITY {
                low
            } else {
                low - term.lo
            };
            let others_hi = if high_unbounded > usize::from(term.hi >= INFINITY) {
                INFINITY
            } else if term.hi >= INFINITY {
                high
            } else {
                high - term.hi
            };
            // a·x = c − others (or ≤ for `int_lin_le`).
            let term_hi = clamp(c - others_lo);
            let term_lo = if equal {
                clamp(c - others_hi)
            } else {
                -INFINITY
            };
            self.narrow(xs[i], divide_interval(term_lo, term_hi, a), index);
        }
    }
}

/// The values `x` with `a·x` in `lo..=hi` (`a ≠ 0`), exactly: an integer `x` with `a·x ≤ hi` is
/// at most `⌊hi / a⌋` for positive `a`, and so on.
fn divide_interval(lo: i128, hi: i128, a: i128) -> Interval {
    let floor = |v: i128| {
        if v.abs() >= INFINITY {
            if (v > 0) == (a > 0) {
                INFINITY
            } else {
                -INFINITY
            }
        } else {
            v.div_euclid(a) - i128::from(a < 0 && v.rem_euclid(a) != 0)
        }
    };
    let ceil = |v: i128| {
        if v.abs() >= INFINITY {
            if (v > 0) == (a > 0) {
                INFINITY
            } else {
                -INFINITY
            }
        } else {
            -((-v).div_euclid(a) - i128::from(a < 0 && (-v).rem_euclid(a) != 0))
        }
    };
    if a > 0 {
        Interval {
            lo: ceil(lo),
            hi: floor(hi),
        }
    } else {
        Interval {
            lo: ceil(hi),
            hi: floor(lo),
        }
    }
}

/// The smallest interval holding the values (everything, when there are none).
fn corners(values: impl IntoIterator<Item = i128>) -> Interval {
    values
        .into_iter()
        .map(Interval::point)
        .reduce(Interval::hull)
        .unwrap_or(Interval::ALL)
}

/// The interval of `op(x, y)` for `x`, `y` in the given intervals (an over-approximation).
fn function(op: &str, x: Interval, y: Interval) -> Interval {
    match op {
        "int_times" => corners([
            times(x.lo, y.lo),
            times(x.lo, y.hi),
            times(x.hi, y.lo),
            times(x.hi, y.hi),
        ]),
        // For a fixed divisor the quotient follows the dividend, and for a fixed dividend it is
        // largest in magnitude at the divisor of least magnitude on each side of zero: so its
        // extremes are at the ends of x and at the ends of y or ±1.
        "int_div" => {
            if !x.is_bounded() || !y.is_bounded() {
                let m = x.magnitude();
                return Interval { lo: -m, hi: m };
            }
            let divisors = [y.lo, y.hi, -1, 1]
                .into_iter()
                .filter(|&d| d != 0 && y.lo <= d && d <= y.hi);
            corners(divisors.flat_map(|d| [x.lo / d, x.hi / d]))
        }
        // |x mod y| < |y| and ≤ |x|; its sign is x's.
        "int_mod" => {
            let m = x.magnitude().min(clamp(y.magnitude() - 1)).max(0);
            Interval {
                lo: if x.lo >= 0 { 0 } else { -m },
                hi: if x.hi <= 0 { 0 } else { m },
            }
        }
        "int_pow" => {
            if !x.is_bounded() || !y.is_bounded() {
                return Interval::ALL;
            }
            // |x^y| grows with |x| and, for |x| ≥ 2, with y; its sign follows x's and y's parity.
            // So the extremes are at the ends of x (and at -1, 0, 1) raised to the two largest
            // exponents; a negative exponent gives -1, 0 or 1, and 0^0 is 1.
            let bases: Vec<i128> = [x.lo, x.hi, -1, 0, 1]
                .into_iter()
                .filter(|&b| x.lo <= b && b <= x.hi)
                .collect();
            let exponents: Vec<i128> = [y.hi, y.hi - 1, y.lo]
                .into_iter()
                .filter(|&e| y.lo <= e && e <= y.hi)
                .collect();
            let mut values: Vec<i128> = Vec::new();
            for &base in &bases {
                for &exponent in &exponents {
                    if exponent < 0 {
                        values.extend([-1, 0, 1]);
                    } else {
                        values.push(power(base, exponent));
                    }
                }
            }
            corners(values)
        }
        "int_min" => Interval {
            lo: x.lo.min(y.lo),
            hi: x.hi.min(y.hi),
        },
        _ => Interval {
            lo: x.lo.max(y.lo),
            hi: x.hi.max(y.hi),
        },
    }
}

/// Refuses the model if its declared bounds force a variable declared without bounds beyond 32
/// bits. `bounds` holds each variable's declared bounds, `unbounded` whether it was declared
/// `var int`, and `name` its name.
pub(crate) fn check(
    facts: &[Fact<'_>],
    bounds: &[(i64, i64)],
    unbounded: &[bool],
    name: &dyn Fn(usize) -> String,
) -> Result<(), Error> {
    if !unbounded.iter().any(|&u| u) {
        // Every variable is declared within 32 bits, so nothing can be forced beyond them.
        return Ok(());
    }
    let mut analysis = Analysis {
        bounds: bounds
            .iter()
            .zip(unbounded)
            .map(|(&(lo, hi), &free)| {
                if free {
                    Interval::ALL
                } else {
                    Interval {
                        lo: i128::from(lo),
                        hi: i128::from(hi),
                    }
                }
            })
            .collect(),
        causes: vec![None; bounds.len()],
        changed: true,
    };
    for _ in 0..MAX_ROUNDS {
        if !analysis.changed {
            break;
        }
        analysis.changed = false;
        for (index, fact) in facts.iter().enumerate() {
            analysis.apply(index, fact);
        }
    }
    for (var, interval) in analysis.bounds.iter().enumerate() {
        if !unbounded[var] {
            continue;
        }
        let beyond = |v: i128| v.abs() < INFINITY && i32::try_from(v).is_err();
        if (beyond(interval.lo) || beyond(interval.hi))
            && let Some(cause) = analysis.causes[var]
        {
            let fact = &facts[cause.fact];
            return Err(Error::invalid(
                fact.line,
                format!(
                    "`{}` can make `{}` {}, beyond the 32-bit integers this solver supports",
                    fact.name,
                    name(var),
                    cause.value
                ),
            ));
        }
    }
    Ok(())
}
