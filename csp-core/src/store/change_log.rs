//! The change log that learning from failure reads: every domain change as a literal, in order,
//! with what caused it.
//!
//! Lazy clause generation (Ohrimenko, Stuckey & Codish 2009, "Propagation via lazy clause
//! generation"; Feydy & Stuckey 2009, "Lazy clause generation reengineered") needs to know, for
//! each change made on the current path, which literal became true and why, so that a failure can
//! be traced back to the decisions it depends on. The store's own trail is built for undo (one
//! 8-byte entry per removal, bound changes apart) and knows no causes; the change log is kept
//! beside it, only when a learning search turns it on ([`Store::enable_change_log`]), so that no
//! other search pays for it.
//!
//! Every change of a bound is logged as a bound literal, including a bound that moved because its
//! value was removed (cause [`Cause::Bound`]): so whether `x ≥ k`, `x ≤ k` or `x ≠ v` holds is
//! always witnessed by a single entry, and `x = v` by at most two.

use super::Store;
use crate::Domains;
use crate::literal::{Cause, ChangeLog, Literal, LiteralRelation, LogEntry};
use crate::{EventSet, VarId, Wipeout};

impl Literal {
    /// The literal's truth under `store`'s current domains: `Some(true)` if every value left
    /// satisfies it, `Some(false)` if none does, `None` while it is open.
    pub fn status(self, store: &Store) -> Option<bool> {
        let (lo, hi) = (store.lb(self.var), store.ub(self.var));
        let v = self.value;
        match self.relation {
            LiteralRelation::Eq | LiteralRelation::Ne => {
                let fixed = lo == hi && lo == v;
                let absent = v < lo || v > hi || !store.domain(self.var).contains(v);
                let eq = if fixed {
                    Some(true)
                } else if absent {
                    Some(false)
                } else {
                    None
                };
                if self.relation == LiteralRelation::Eq {
                    eq
                } else {
                    eq.map(|b| !b)
                }
            }
            LiteralRelation::Le if hi <= v => Some(true),
            LiteralRelation::Le if lo > v => Some(false),
            LiteralRelation::Ge if lo >= v => Some(true),
            LiteralRelation::Ge if hi < v => Some(false),
            _ => None,
        }
    }
}

impl Store {
    /// Starts logging every domain change as a literal with its cause (see [`Store::change_log`]);
    /// the domains as they are now count as given. Turns event tracking on, as the log is written
    /// where events are recorded. Search that learns from failure calls it once, before its root
    /// propagation.
    pub fn enable_change_log(&mut self) {
        self.start_queueing();
        self.log = Some(Box::new(ChangeLog {
            entries: Vec::new(),
            lower_of: vec![Vec::new(); self.num_vars()],
            lower_values_of: vec![Vec::new(); self.num_vars()],
            upper_of: vec![Vec::new(); self.num_vars()],
            upper_values_of: vec![Vec::new(); self.num_vars()],
            removals_of: vec![Vec::new(); self.num_vars()],
            removed_values_of: vec![Vec::new(); self.num_vars()],
            removal_entry: hashbrown::HashMap::new(),
            cause: Cause::Decision,
            failure: None,
            start_bounds: (0..self.num_vars())
                .map(|i| {
                    let var = VarId::from_index(i);
                    (self.lb(var), self.ub(var))
                })
                .collect(),
            start_holes: (0..self.num_vars())
                .map(|i| {
                    let domain = self.domain(VarId::from_index(i));
                    let width = i64::from(domain.ub()) - i64::from(domain.lb()) + 1;
                    (domain.size() as i64 != width).then(|| domain.to_domain())
                })
                .collect(),
        }));
    }

    /// Sets the cause of the changes made from now on (the store sets a constraint's own while it
    /// propagates, and [`Cause::Decision`] again after).
    #[inline]
    pub fn set_cause(&mut self, cause: Cause) {
        if let Some(log) = &mut self.log {
            log.cause = cause;
        }
    }

    /// The logged changes, oldest first (empty unless [`Store::enable_change_log`] was called).
    pub fn change_log(&self) -> &[LogEntry] {
        self.log.as_ref().map_or(&[], |log| &log.entries)
    }

    /// `var`'s bounds just before log entry `before` was made (its current bounds if `before` is
    /// the log's length), read from the log.
    #[inline]
    pub fn bounds_before(&self, var: VarId, before: usize) -> (i32, i32) {
        let Some(log) = &self.log else {
            return (self.lb(var), self.ub(var));
        };
        let (start_lo, start_hi) = log.start_bounds[var.index()];
        (
            self.lower_bounds_before(var, before)
                .1
                .last()
                .copied()
                .unwrap_or(start_lo),
            self.upper_bounds_before(var, before)
                .1
                .last()
                .copied()
                .unwrap_or(start_hi),
        )
    }

    /// The indices of `var`'s logged lower-bound changes (`≥`, `=`) made before entry `before`,
    /// oldest first, and their values, which only grow along the log.
    #[inline]
    pub fn lower_bounds_before(&self, var: VarId, before: usize) -> (&[u32], &[i32]) {
        let Some(log) = &self.log else {
            return (&[], &[]);
        };
        let list = &log.lower_of[var.index()];
        let len = entries_before(list, before);
        (&list[..len], &log.lower_values_of[var.index()][..len])
    }

    /// The indices of `var`'s logged upper-bound changes (`≤`, `=`) made before entry `before`,
    /// oldest first, and their values, which only shrink along the log.
    #[inline]
    pub fn upper_bounds_before(&self, var: VarId, before: usize) -> (&[u32], &[i32]) {
        let Some(log) = &self.log else {
            return (&[], &[]);
        };
        let list = &log.upper_of[var.index()];
        let len = entries_before(list, before);
        (&list[..len], &log.upper_values_of[var.index()][..len])
    }

    /// The indices of `var`'s logged removals (`≠`) made before entry `before`, oldest first.
    pub fn removals_before(&self, var: VarId, before: usize) -> &[u32] {
        self.removals_with_values_before(var, before).0
    }

    /// [`Store::removals_before`] with the value each removed, in the same order.
    pub fn removals_with_values_before(&self, var: VarId, before: usize) -> (&[u32], &[i32]) {
        let Some(log) = &self.log else {
            return (&[], &[]);
        };
        let list = &log.removals_of[var.index()];
        let len = entries_before(list, before);
        (&list[..len], &log.removed_values_of[var.index()][..len])
    }

    /// The log entry that removed `value` from `var`'s domain, if one did (a value can go only
    /// once on a path).
    pub fn removal_of(&self, var: VarId, value: i32) -> Option<usize> {
        let log = self.log.as_ref()?;
        log.removal_entry
            .get(&(var.index() as u32, value))
            .map(|&j| j as usize)
    }

    /// Makes `literal` true (it must not be false): `x = v` fixes, `x ≠ v` removes, the bound
    /// literals tighten a bound. Returns whether anything changed; a wipe-out means it was false.
    pub fn make_true(&mut self, literal: Literal) -> Result<bool, Wipeout> {
        let (var, v) = (literal.var, i64::from(literal.value));
        match literal.relation {
            LiteralRelation::Eq => {
                if !self.domain(var).contains(literal.value) {
                    return Err(Wipeout);
                }
                self.set_bounds(var, v, v)
            }
            LiteralRelation::Ne => self.remove_value(var, literal.value),
            LiteralRelation::Le => self.set_bounds(var, i64::MIN, v),
            LiteralRelation::Ge => self.set_bounds(var, v, i64::MAX),
        }
    }

    /// The change that failed last, with its cause, if a wipe-out refused one since the last call:
    /// a removal that would have emptied a domain, or a bound beyond the other bound. Learning
    /// explains a constraint's failure by it (the constraint's explanation of that change, and
    /// what made it false) rather than by every domain of the constraint's scope. `None` when the
    /// log is off, when the failure was no such change (a constraint that found its fixed
    /// variables violate it, or a bound whose values between the bounds were all removed), or
    /// when it was taken already.
    pub fn take_failure(&mut self) -> Option<(Literal, Cause)> {
        self.log.as_mut().and_then(|log| log.failure.take())
    }

    /// Notes the change a wipe-out refused (see [`Store::take_failure`]).
    #[cold]
    #[inline(never)]
    pub(super) fn log_failure(&mut self, literal: Option<Literal>) {
        if let Some(log) = &mut self.log {
            log.failure = literal.map(|literal| (literal, log.cause));
        }
    }

    /// The bound literal that `set_bounds(var, lo, hi)` could not make true, the domain unchanged:
    /// `x ≥ lo` beyond the upper bound, or `x ≤ hi` below the lower one; `None` when neither
    /// (the values between were all removed) or the bound does not fit a literal.
    #[cold]
    #[inline(never)]
    pub(super) fn refused_bounds(&self, var: VarId, lo: i64, hi: i64) -> Option<Literal> {
        if lo > i64::from(self.ub(var)) {
            i32::try_from(lo).ok().map(|v| Literal::ge(var, v))
        } else if hi < i64::from(self.lb(var)) {
            i32::try_from(hi).ok().map(|v| Literal::le(var, v))
        } else {
            None
        }
    }

    /// Logs the removal of `value` from `var` and, if it moved a bound (`events`), the new bound.
    #[cold]
    #[inline(never)]
    pub(super) fn log_removal(&mut self, var: VarId, value: i32, events: EventSet) {
        let (lo, hi) = (self.lb(var), self.ub(var));
        let Some(log) = &mut self.log else { return };
        log.push(Literal::ne(var, value), log.cause);
        if events.intersects(EventSet::LOWER_BOUND) {
            log.push(Literal::ge(var, lo), Cause::Bound);
        }
        if events.intersects(EventSet::UPPER_BOUND) {
            log.push(Literal::le(var, hi), Cause::Bound);
        }
    }

    /// Logs a bound change of `var` from `old_lo..=old_hi` to its current bounds: one `x = v`
    /// entry if it fixed the variable by moving both bounds, else an entry per bound that moved.
    #[cold]
    #[inline(never)]
    pub(super) fn log_bounds(&mut self, var: VarId, old_lo: i32, old_hi: i32) {
        let (lo, hi) = (self.lb(var), self.ub(var));
        let Some(log) = &mut self.log else { return };
        let cause = log.cause;
        if lo == hi && lo != old_lo && hi != old_hi {
            log.push(Literal::eq(var, lo), cause);
            return;
        }
        if lo != old_lo {
            log.push(Literal::ge(var, lo), cause);
        }
        if hi != old_hi {
            log.push(Literal::le(var, hi), cause);
        }
    }
}

/// What a constraint's explanation reads ([`crate::Propagator::explain`]): the domains just
/// before the change being explained.
#[derive(Debug, Clone, Copy)]
pub struct ExplainCtx<'a> {
    store: &'a Store,
    before: usize,
}

impl<'a> ExplainCtx<'a> {
    /// The context of log entry `before` of `store`'s change log.
    pub fn new(store: &'a Store, before: usize) -> Self {
        ExplainCtx { store, before }
    }

    /// [`ExplainCtx::contains`] for a variable whose bounds then, [`ExplainCtx::bounds`], the
    /// caller has read already (an explanation that asks about many values reads them once).
    pub fn contains_within(&self, var: VarId, value: i32, (lo, hi): (i32, i32)) -> bool {
        (lo..=hi).contains(&value)
            && self
                .store
                .removal_of(var, value)
                .is_none_or(|j| j >= self.before)
            && self.store.log.as_ref().is_none_or(|log| {
                log.start_holes[var.index()]
                    .as_ref()
                    .is_none_or(|domain| domain.contains(value))
            })
    }

    /// Whether a value strictly between the variable's bounds then was missing from its domain
    /// (removed by a logged change, or absent when the log began). Without such holes a
    /// variable's domain then was its bounds, so an explanation by bounds needs no check.
    pub fn has_holes(&self, var: VarId) -> bool {
        let (lo, hi) = self.bounds(var);
        let Some(log) = &self.store.log else {
            return false;
        };
        let width = u64::try_from(i64::from(hi) - i64::from(lo) + 1).unwrap_or(0);
        if log.start_holes[var.index()]
            .as_ref()
            .is_some_and(|domain| domain.count_in(lo, hi) != width)
        {
            return true;
        }
        let (_, values) = self.store.removals_with_values_before(var, self.before);
        values.iter().any(|v| (lo..=hi).contains(v))
    }

    /// Pushes what a change of `literal.var` rests on besides its constraint: for a bound
    /// (`≥`, `≤`, `=`), the variable's bound on that side just before it, so that the values
    /// beyond that bound need no reason of their own; for a removal, nothing.
    pub fn push_own_bounds(&self, literal: Literal, reasons: &mut Vec<Literal>) {
        let (lo, hi) = self.bounds(literal.var);
        if matches!(literal.relation, LiteralRelation::Ge | LiteralRelation::Eq) {
            reasons.push(Literal::ge(literal.var, lo));
        }
        if matches!(literal.relation, LiteralRelation::Le | LiteralRelation::Eq) {
            reasons.push(Literal::le(literal.var, hi));
        }
    }
}

/// The domains just before the logged change being explained.
impl crate::Domains for ExplainCtx<'_> {
    /// The variable's smallest value then (its lower bound's history alone is read).
    #[inline]
    fn lb(&self, var: VarId) -> i32 {
        let Some(log) = &self.store.log else {
            return self.store.lb(var);
        };
        let (_, values) = self.store.lower_bounds_before(var, self.before);
        values
            .last()
            .copied()
            .unwrap_or(log.start_bounds[var.index()].0)
    }

    /// The variable's largest value then (its upper bound's history alone is read).
    #[inline]
    fn ub(&self, var: VarId) -> i32 {
        let Some(log) = &self.store.log else {
            return self.store.ub(var);
        };
        let (_, values) = self.store.upper_bounds_before(var, self.before);
        values
            .last()
            .copied()
            .unwrap_or(log.start_bounds[var.index()].1)
    }

    /// Whether `value` was in the variable's domain then: within its bounds, not removed by a
    /// logged change before, and in its domain when the log began.
    #[inline]
    fn contains(&self, var: VarId, value: i32) -> bool {
        self.contains_within(var, value, self.bounds(var))
    }

    /// The variable's smallest and largest values then.
    #[inline]
    fn bounds(&self, var: VarId) -> (i32, i32) {
        self.store.bounds_before(var, self.before)
    }
}

/// The explanation of bounds reasoning ([`crate::Propagator::explain`]): the bounds, just before
/// the change, of every variable of `scope` other than the changed one, `changed`. Sound for a
/// propagator whose inferences follow from its scope's bounds alone.
pub fn explain_by_bounds(
    scope: &[VarId],
    changed: VarId,
    ctx: &ExplainCtx<'_>,
    reasons: &mut Vec<Literal>,
) {
    for &var in scope {
        if var != changed {
            // Both bounds from one look at the log.
            let (lo, hi) = ctx.bounds(var);
            reasons.push(Literal::ge(var, lo));
            reasons.push(Literal::le(var, hi));
        }
    }
}

/// How many entries of `list` (log indices, ascending) come before entry `before`. Most questions
/// are about the log's newest entries, so the list is searched from its end: the last entry
/// first, then by galloping back, which touches a few of its newest words where a binary search
/// of a long list would touch its middle first.
#[inline]
fn entries_before(list: &[u32], before: usize) -> usize {
    let len = list.len();
    if list.last().is_none_or(|&j| (j as usize) < before) {
        return len;
    }
    // Gallop back from the end until an entry before `before` is passed.
    let mut step = 1;
    let mut hi = len - 1;
    loop {
        let lo = hi.saturating_sub(step);
        if lo == 0 || (list[lo] as usize) < before {
            return lo + list[lo..hi].partition_point(|&j| (j as usize) < before);
        }
        hi = lo;
        step *= 2;
    }
}

#[cfg(test)]
mod tests {
    use super::entries_before;

    /// The gallop from the end counts what a binary search from the start counts, for every
    /// cut of lists of every length up to 40.
    #[test]
    fn entries_before_agrees_with_a_binary_search() {
        for len in 0..40u32 {
            let list: Vec<u32> = (0..len).map(|i| 3 * i + (i % 2)).collect();
            for before in 0..(3 * len as usize + 3) {
                let expected = list.partition_point(|&j| (j as usize) < before);
                assert_eq!(entries_before(&list, before), expected, "{list:?} {before}");
            }
        }
    }
}
