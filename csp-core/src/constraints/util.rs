//! What several families of constraints share: division rounded the right way, argument lists in
//! which a variable repeats, and the bounded listing of values.

use hashbrown::HashMap;

use crate::{ModelError, PropagationCtx, VarId, Wipeout};

/// The most values a propagator lists from one domain in one revision (`2¹⁶`, the widest bit-set
/// domain): above it, the propagators documented as domain consistent fall back to their bounds
/// reasoning, so that a domain of a billion values is never walked value by value.
pub(crate) const LIST_BUDGET: u64 = 1 << 16;

/// Both operands as `i64`, when they fit with room for the quotient: 128-bit division is a library
/// call several times slower than the machine's, and propagators divide mostly small numbers.
#[inline]
fn narrow(a: i128, b: i128) -> Option<(i64, i64)> {
    // `i64::MIN` is left out, so that no quotient (`i64::MIN / -1`) overflows.
    let (a, b) = (i64::try_from(a).ok()?, i64::try_from(b).ok()?);
    (a != i64::MIN && b != i64::MIN).then_some((a, b))
}

/// `⌊a / b⌋` for `b ≠ 0`.
#[inline]
pub(crate) fn floor_div(a: i128, b: i128) -> i128 {
    if let Some((a, b)) = narrow(a, b) {
        let q = a / b;
        return i128::from(if (a % b != 0) && ((a < 0) != (b < 0)) {
            q - 1
        } else {
            q
        });
    }
    let q = a / b;
    if (a % b != 0) && ((a < 0) != (b < 0)) {
        q - 1
    } else {
        q
    }
}

/// `⌈a / b⌉` for `b ≠ 0`.
#[inline]
pub(crate) fn ceil_div(a: i128, b: i128) -> i128 {
    if let Some((a, b)) = narrow(a, b) {
        let q = a / b;
        return i128::from(if (a % b != 0) && ((a < 0) == (b < 0)) {
            q + 1
        } else {
            q
        });
    }
    let q = a / b;
    if (a % b != 0) && ((a < 0) == (b < 0)) {
        q + 1
    } else {
        q
    }
}

/// `x` cut to the `i64` range: a bound beyond it empties a domain or changes nothing, just as the
/// unclamped bound would.
pub(crate) fn clamp_i64(x: i128) -> i64 {
    x.clamp(i128::from(i64::MIN), i128::from(i64::MAX)) as i64
}

/// A list of arguments (FlatZinc's arrays may name one variable several times) over a scope in which
/// each variable appears once, as [`crate::ModelBuilder::post`] requires.
///
/// A propagator reasons about the arguments one by one; pruning a repeated variable once per
/// appearance is sound, so only the claims of full consistency assume distinct variables.
#[derive(Debug, Clone)]
pub(crate) struct Args {
    /// Each variable once, in the order of first appearance.
    pub(crate) scope: Vec<VarId>,
    /// For each argument, its variable's position in `scope`.
    pub(crate) slots: Vec<usize>,
}

impl Args {
    /// The arguments `args`, in order.
    pub(crate) fn new(args: impl IntoIterator<Item = VarId>) -> Self {
        let mut scope = Vec::new();
        let mut position: HashMap<VarId, usize> = HashMap::new();
        let slots = args
            .into_iter()
            .map(|var| {
                *position.entry(var).or_insert_with(|| {
                    scope.push(var);
                    scope.len() - 1
                })
            })
            .collect();
        Args { scope, slots }
    }

    /// The variable of argument `i`.
    #[inline]
    pub(crate) fn var(&self, i: usize) -> VarId {
        self.scope[self.slots[i]]
    }

    /// The value of argument `i` in `values` (one per scope variable, in scope order).
    #[inline]
    pub(crate) fn value(&self, values: &[i32], i: usize) -> i32 {
        values[self.slots[i]]
    }

    /// The arguments' values in `values`, in argument order.
    pub(crate) fn values<'a>(&'a self, values: &'a [i32]) -> impl Iterator<Item = i32> + 'a {
        self.slots.iter().map(move |&s| values[s])
    }
}

/// The error of a constraint given arguments it cannot work with.
pub(crate) fn invalid(constraint: &str, reason: impl Into<String>) -> ModelError {
    ModelError::InvalidConstraint {
        constraint: constraint.to_owned(),
        reason: reason.into(),
    }
}

/// Removes from `var`'s domain every value `keep` refuses, when the domain holds at most
/// [`LIST_BUDGET`] values; returns whether it could list them. `keep` is asked once per value, in
/// ascending order (so it may walk a sorted list beside the domain). The bounds move once each (one
/// trail entry), interior values one at a time.
pub(crate) fn retain_values(
    ctx: &mut PropagationCtx<'_>,
    var: VarId,
    mut keep: impl FnMut(i32) -> bool,
) -> Result<bool, Wipeout> {
    if ctx.size(var) > LIST_BUDGET {
        return Ok(false);
    }
    // On the stack up to 256 values: the domains arithmetic and element filter are mostly small.
    // Both lists are filled in place: made and returned by value (`smallvec!`, `collect`), each
    // was copied whole, which cost a tenth of a learning search's time on open_stacks.
    let domain = ctx.domain(var);
    let mut values: smallvec::SmallVec<[i32; 256]> = smallvec::SmallVec::new();
    values.resize(domain.size() as usize, 0);
    domain.write_values(&mut values);
    let mut kept: smallvec::SmallVec<[bool; 256]> = smallvec::SmallVec::new();
    kept.extend(values.iter().map(|&v| keep(v)));
    keep_flagged(ctx, var, &values, &kept)?;
    Ok(true)
}

/// [`retain_values`] with a test that may read the other domains (`keep` is given the context):
/// the values are listed and tested first, then the refused ones removed, so no domain needs to be
/// copied to be read while `var` changes.
pub(crate) fn retain_values_where(
    ctx: &mut PropagationCtx<'_>,
    var: VarId,
    mut keep: impl FnMut(&PropagationCtx<'_>, i32) -> bool,
) -> Result<bool, Wipeout> {
    if ctx.size(var) > LIST_BUDGET {
        return Ok(false);
    }
    let domain = ctx.domain(var);
    let mut values: smallvec::SmallVec<[i32; 256]> = smallvec::SmallVec::new();
    values.resize(domain.size() as usize, 0);
    domain.write_values(&mut values);
    let mut kept: smallvec::SmallVec<[bool; 256]> = smallvec::SmallVec::new();
    kept.extend(values.iter().map(|&v| keep(ctx, v)));
    keep_flagged(ctx, var, &values, &kept)?;
    Ok(true)
}

/// Keeps the values of `values` (`var`'s values, ascending) whose flag in `kept` is set: the bounds
/// move to the first and last kept values (one trail entry each), and each value between them that
/// is not kept is removed. Keeping none is a [`Wipeout`].
pub(crate) fn keep_flagged(
    ctx: &mut PropagationCtx<'_>,
    var: VarId,
    values: &[i32],
    kept: &[bool],
) -> Result<(), Wipeout> {
    let kept = &kept[..values.len()];
    let first = kept.iter().position(|&k| k).ok_or(Wipeout)?;
    let last = kept.iter().rposition(|&k| k).unwrap_or(first);
    ctx.restrict_bounds(var, i64::from(values[first]), i64::from(values[last]))?;
    for (&value, &keep) in values[first..last].iter().zip(&kept[first..last]).skip(1) {
        if !keep {
            ctx.remove(var, value)?;
        }
    }
    Ok(())
}

/// Sorts the reasons an explanation pushed after `start` and drops repeats, so that a literal
/// several rules rest on enters the learned clause once.
pub(crate) fn dedup_reasons(reasons: &mut Vec<crate::Literal>, start: usize) {
    let mut added = reasons.split_off(start);
    added.sort_unstable_by_key(|l| (l.var.index(), l.value, l.relation as u8));
    added.dedup();
    reasons.extend(added);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rounding_division_rounds_the_right_way_for_every_sign() {
        assert_eq!((floor_div(7, 2), ceil_div(7, 2)), (3, 4));
        assert_eq!((floor_div(-7, 2), ceil_div(-7, 2)), (-4, -3));
        assert_eq!((floor_div(7, -2), ceil_div(7, -2)), (-4, -3));
        assert_eq!((floor_div(-7, -2), ceil_div(-7, -2)), (3, 4));
        assert_eq!((floor_div(6, 3), ceil_div(6, 3)), (2, 2));
        // Beyond i64 the 128-bit path answers, and at its edge too.
        let big = i128::from(i64::MAX) * 4 + 1;
        assert_eq!(
            (floor_div(big, 4), ceil_div(big, 4)),
            (big / 4, big / 4 + 1)
        );
        assert_eq!(
            (floor_div(-big, 4), ceil_div(-big, 4)),
            (-big / 4 - 1, -big / 4)
        );
        let min = i128::from(i64::MIN);
        assert_eq!((floor_div(min, -1), ceil_div(min, -1)), (-min, -min));
        assert_eq!(
            (floor_div(min, 2), ceil_div(min + 1, 2)),
            (min / 2, (min + 2) / 2)
        );
    }

    #[test]
    fn arguments_map_repeated_variables_to_one_scope_position() {
        let [a, b] = [VarId::from_index(3), VarId::from_index(1)];
        let args = Args::new([a, b, a]);
        assert_eq!(args.scope, vec![a, b]);
        assert_eq!(args.slots, vec![0, 1, 0]);
        assert_eq!(args.values(&[7, 9]).collect::<Vec<_>>(), vec![7, 9, 7]);
    }
}
