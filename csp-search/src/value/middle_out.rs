use csp_core::VarId;

use super::value_order::ValueOrder;
use crate::SelectCtx;

/// Values nearest the middle of the variable's initial span first, the smaller of two equally near
/// values first. For 8 queens a row is tried in columns 3, 4, 2, 5, 1, 6, 0, 7 — Stone & Stone observe
/// (Fig. 6) that solutions are densest with queens near the centre.
#[derive(Debug, Clone, Default)]
pub struct MiddleOut {
    /// Scratch space for the merge, kept between nodes so that ordering allocates nothing.
    scratch: Vec<i32>,
}

impl ValueOrder for MiddleOut {
    fn order(&mut self, var: VarId, ctx: &SelectCtx<'_>, values: &mut [i32]) {
        let initial = ctx.model().initial_domain(var);
        // Twice the midpoint, to stay in integers.
        let twice_middle = i64::from(initial.span_lo()) + i64::from(initial.span_hi());
        let distance = |v: i32| (2 * i64::from(v) - twice_middle).abs();
        // The values arrive ascending, so the order wanted is a merge of two sorted runs walking out
        // from the middle: O(d) per node rather than a sort's O(d log d).
        let split = values.partition_point(|&v| 2 * i64::from(v) < twice_middle);
        self.scratch.clear();
        let (mut below, mut above) = (split, split);
        while below > 0 || above < values.len() {
            let take_below = match (below > 0, above < values.len()) {
                (true, true) => distance(values[below - 1]) <= distance(values[above]),
                (has_below, _) => has_below,
            };
            if take_below {
                below -= 1;
                self.scratch.push(values[below]);
            } else {
                self.scratch.push(values[above]);
                above += 1;
            }
        }
        values.copy_from_slice(&self.scratch);
    }

    /// The order depends on the values and the initial span alone (the scratch space is only a buffer).
    fn reproducible(&self) -> bool {
        true
    }

    /// The nearest value left on either side of the middle of the initial span, the smaller if
    /// they are equally near: found a word at a time ([`DomainView::prev_value`] and
    /// [`DomainView::next_value`](csp_core::DomainView::next_value)), not by listing.
    ///
    /// [`DomainView::prev_value`]: csp_core::DomainView::prev_value
    fn first(&mut self, var: VarId, ctx: &SelectCtx<'_>) -> Option<i32> {
        let initial = ctx.model().initial_domain(var);
        let domain = ctx.domain(var);
        let twice_middle = i64::from(initial.span_lo()) + i64::from(initial.span_hi());
        let distance = |v: i32| (2 * i64::from(v) - twice_middle).abs();
        // `order` splits the values at the middle: below are those with 2v < twice the middle, the
        // largest of them `middle` or less, and above the rest, the smallest of them `middle` or
        // more (the middle itself, if it is a whole number, is above and at distance 0).
        let middle = twice_middle.div_euclid(2);
        let split = if 2 * middle == twice_middle {
            middle
        } else {
            middle + 1
        } as i32;
        // The largest value below the split and the smallest at or above it, without asking for
        // the bounds (a row of kept lines finds those from its lines).
        let below = domain.prev_value(split);
        let above = if domain.contains(split) {
            Some(split)
        } else {
            domain.next_value(split)
        };
        match (below, above) {
            (Some(b), Some(a)) => Some(if distance(b) <= distance(a) { b } else { a }),
            (b, a) => b.or(a),
        }
    }
}

#[cfg(test)]
mod tests {
    use csp_core::{ModelBuilder, Store};

    use super::*;
    use crate::Propagation;

    #[test]
    fn middle_out_orders_eight_columns_from_the_centre() {
        let mut builder = ModelBuilder::new();
        let q = builder.int_var("q", 0..=7).unwrap();
        let model = builder.build();
        let store = Store::new(&model);
        let ctx = SelectCtx::new(&model, &store, Propagation::ForwardChecking);
        let mut values: Vec<i32> = (0..8).collect();
        MiddleOut::default().order(q, &ctx, &mut values);
        assert_eq!(values, vec![3, 4, 2, 5, 1, 6, 0, 7]);
        // Gaps and an odd span: 0..=6 has its middle at 3.
        let mut builder = ModelBuilder::new();
        let r = builder.int_var("r", 0..=6).unwrap();
        let model = builder.build();
        let store = Store::new(&model);
        let ctx = SelectCtx::new(&model, &store, Propagation::ForwardChecking);
        let mut values = vec![0, 1, 2, 5, 6];
        MiddleOut::default().order(r, &ctx, &mut values);
        assert_eq!(values, vec![2, 1, 5, 0, 6]);
    }

    /// `first` names the value `order` puts first, on random domains: bit sets of even and odd
    /// spans (the middle a value, or between two), an inline word, and a wide interval domain,
    /// each with random holes and bounds, down to two values.
    #[test]
    fn first_is_what_order_puts_first() {
        use rand::RngExt;

        let mut builder = ModelBuilder::new();
        let vars = [
            builder.int_var("even", 0..=200).unwrap(),
            builder.int_var("odd", -7..=300).unwrap(),
            builder.int_var("word", 3..=40).unwrap(),
            builder.int_var("wide", -1_000_000..=2_000_000).unwrap(),
        ];
        let model = builder.build();
        let mut rng = crate::rng_for(5, 0);
        let mut order = MiddleOut::default();
        for _ in 0..200 {
            let mut store = Store::new(&model);
            for &var in &vars {
                let (lo, hi) = (store.lb(var), store.ub(var));
                let span = i64::from(hi) - i64::from(lo);
                for _ in 0..rng.random_range(0..80) {
                    let value = lo + rng.random_range(0..=span.min(400)) as i32;
                    // Near the low end, the high end, or the middle.
                    let middle = (i64::from(lo) + i64::from(hi)) / 2;
                    let value = match rng.random_range(0..3) {
                        0 => value,
                        1 => (i64::from(hi) - (i64::from(value) - i64::from(lo))) as i32,
                        _ => {
                            (middle + rng.random_range(-30..=30)).clamp(lo.into(), hi.into()) as i32
                        }
                    };
                    if store.size(var) > 2 {
                        store.remove_value(var, value).unwrap();
                    }
                }
                let ctx = SelectCtx::new(&model, &store, Propagation::ForwardChecking);
                let mut values: Vec<i32> = store.domain(var).values().collect();
                order.order(var, &ctx, &mut values);
                assert_eq!(order.first(var, &ctx), Some(values[0]), "{var:?}");
            }
        }
    }
}
