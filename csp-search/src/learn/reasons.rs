//! The reasons of logged changes: for each entry of the store's change log, the earlier entries
//! that imply it, from the cause the entry was logged with.
//!
//! **Explanations.** A constraint that explains its inferences ([`csp_core::Propagator::explain`])
//! gives the few literals a change rests on; each is mapped to the earliest log entry that made it
//! true, with the removals a bound skipped over. Any other change is explained by the domains of
//! the constraint's scope just before it, as literals (each variable's bounds and the values
//! removed between them). That is sound for any sound propagator, whatever its constraint (it
//! removed the value because no tuple of the constraint within those domains holds it), but it is
//! the weakest explanation: the more constraints explain themselves, the more general the
//! clauses.

use csp_core::{Cause, ConstraintId, ExplainCtx, Literal, LiteralRelation, Model, Store, VarId};

use super::learner::{Learner, NOT_CACHED};
use super::scratch::implies;

impl Learner {
    /// The log entries that explain entry `e` (all before it), computed once while the entry
    /// stays on the log: conflict analysis and clause simplification ask for the same entries'
    /// reasons again and again, and an explanation can be dear (a Hall set's matching).
    pub(super) fn reason(&mut self, model: &Model, store: &Store, e: usize, out: &mut Vec<usize>) {
        if let Some(&(start, len)) = self.reason_of.get(e)
            && len != NOT_CACHED
        {
            let cached = &self.reason_data[start as usize..(start + len) as usize];
            out.extend(cached.iter().map(|&r| r as usize));
            return;
        }
        let start = out.len();
        let mut explanation = std::mem::take(&mut self.explanation);
        self.compute_reason(model, store, e, out, &mut explanation);
        self.explanation = explanation;
        if self.reason_of.len() <= e {
            self.reason_of.resize(e + 1, (0, NOT_CACHED));
        }
        let at = self.reason_data.len() as u32;
        self.reason_data
            .extend(out[start..].iter().map(|&r| r as u32));
        self.reason_of[e] = (at, (out.len() - start) as u32);
    }

    /// [`Self::reason`] without the cache.
    #[inline(never)]
    pub(super) fn compute_reason(
        &self,
        model: &Model,
        store: &Store,
        e: usize,
        out: &mut Vec<usize>,
        reasons: &mut Vec<Literal>,
    ) {
        let entry = store.change_log()[e];
        match entry.cause {
            Cause::Decision => {
                debug_assert!(false, "a decision has no reason");
            }
            Cause::Constraint(c) => {
                reasons.clear();
                let ctx = ExplainCtx::new(store, e);
                if !model.constraint(c).explain(entry.literal, &ctx, reasons) {
                    self.fallbacks.set(self.fallbacks.get() + 1);
                    self.scope_entries(model, store, c, e, out);
                    return;
                }
                for &literal in reasons.iter() {
                    self.witnesses(store, literal, e, out);
                }
                self.holes_passed(store, entry.literal, e, out);
            }
            Cause::Clause(id) => {
                // The literal the clause made true is the one the entry implies; the others were
                // false.
                let mut alone = false;
                for literal in self.clauses.literals(id) {
                    if implies(entry.literal, literal) {
                        alone |= implies(literal, entry.literal);
                        continue;
                    }
                    self.witnesses(store, literal.negate(), e, out);
                }
                // A bound literal made true lands on the nearest value left: `x ≥ -1` with 0
                // removed earlier logs `x ≥ 1`, which needs that removal too.
                if !alone {
                    self.domain_entries(store, entry.literal.var, e, out);
                }
            }
            Cause::Bound => {
                // A bound moved by the removal of the value at it: the old bound and the removals
                // between it and the new one (the values below a new lower bound are gone, and
                // those at or above the old one went by removal).
                let literal = entry.literal;
                let lower = literal.relation == LiteralRelation::Ge;
                let root_end = self.root_end(store);
                let same_side = if lower {
                    store.lower_bounds_before(literal.var, e)
                } else {
                    store.upper_bounds_before(literal.var, e)
                };
                let old = latest_above(same_side, root_end);
                out.extend(old.map(|(j, _)| j));
                let old = old.map(|(_, v)| v);
                let (entries, values) = store.removals_with_values_before(literal.var, e);
                for (&j, &v) in entries.iter().zip(values).rev() {
                    let j = j as usize;
                    if j < root_end {
                        break;
                    }
                    let between = if lower {
                        old.is_none_or(|o| v >= o) && v < literal.value
                    } else {
                        old.is_none_or(|o| v <= o) && v > literal.value
                    };
                    if between {
                        out.push(j);
                    }
                }
            }
        }
    }

    /// For a bound literal logged at entry `e`, the removals (before `e`) of values between the
    /// old bound and the new one: a bound explained by a weaker one needs them, as the bound
    /// skipped those values.
    pub(super) fn holes_passed(
        &self,
        store: &Store,
        literal: Literal,
        e: usize,
        out: &mut Vec<usize>,
    ) {
        let (old_lo, old_hi) = store.bounds_before(literal.var, e);
        // The values passed: an interval, less the new value itself for `x = v`.
        let (from, to, except) = match literal.relation {
            LiteralRelation::Ge => (old_lo, literal.value.saturating_sub(1), None),
            LiteralRelation::Le => (literal.value.saturating_add(1), old_hi, None),
            LiteralRelation::Eq => (old_lo, old_hi, Some(literal.value)),
            LiteralRelation::Ne => return,
        };
        let root_end = self.root_end(store);
        let (entries, values) = store.removals_with_values_before(literal.var, e);
        // The values passed, when fewer than the variable's removals (a bound that moved a step
        // past a domain that lost hundreds of values): each looked up rather than every removal
        // read.
        if except.is_none() && i64::from(to) - i64::from(from) < entries.len() as i64 {
            for v in from..=to {
                if let Some(j) = store.removal_of(literal.var, v)
                    && (root_end..e).contains(&j)
                {
                    out.push(j);
                }
            }
            return;
        }
        for (&j, &v) in entries.iter().zip(values).rev() {
            let j = j as usize;
            if j < root_end {
                break;
            }
            if (from..=to).contains(&v) && Some(v) != except {
                out.push(j);
            }
        }
    }

    /// The entries, before `before` and above the root, that make up the domains of constraint
    /// `c`'s scope at that point: each variable's latest lower and upper bound, and the removals
    /// strictly between them.
    pub(super) fn scope_entries(
        &self,
        model: &Model,
        store: &Store,
        c: ConstraintId,
        before: usize,
        out: &mut Vec<usize>,
    ) {
        for &var in model.constraint(c).scope() {
            self.domain_entries(store, var, before, out);
        }
    }

    /// `var`'s domain before log entry `before`, as entries (see [`Self::scope_entries`]).
    pub(super) fn domain_entries(
        &self,
        store: &Store,
        var: VarId,
        before: usize,
        out: &mut Vec<usize>,
    ) {
        let root_end = self.root_end(store);
        let lower = latest_above(store.lower_bounds_before(var, before), root_end);
        let upper = latest_above(store.upper_bounds_before(var, before), root_end);
        let first = out.len();
        let lo = lower.map_or(i32::MIN, |(_, v)| v);
        let hi = upper.map_or(i32::MAX, |(_, v)| v);
        out.extend(lower.map(|(j, _)| j));
        if let Some((j, _)) = upper
            && Some(j) != lower.map(|(l, _)| l)
        {
            out.push(j);
        }
        let (entries, values) = store.removals_with_values_before(var, before);
        for (&j, &v) in entries.iter().zip(values).rev() {
            let j = j as usize;
            if j < root_end {
                break;
            }
            if v > lo && v < hi {
                out.push(j);
            }
        }
        debug_assert!(out[first..].iter().all(|&j| j < before));
    }

    /// The earliest entries before `before` (above the root) that make `target` true: one, or two
    /// for `x = v` from its two bounds; none if it held at the root.
    pub(super) fn witnesses(
        &self,
        store: &Store,
        target: Literal,
        before: usize,
        out: &mut Vec<usize>,
    ) {
        if target.relation == LiteralRelation::Eq {
            let (lower, upper) = (
                Literal::ge(target.var, target.value),
                Literal::le(target.var, target.value),
            );
            out.extend(self.earliest_implying(store, lower, before));
            out.extend(self.earliest_implying(store, upper, before));
        } else {
            out.extend(self.earliest_implying(store, target, before));
        }
    }

    /// The earliest entry before `before` (above the root) that makes `target` (not `x = v`)
    /// true. Along the log a variable's lower bounds only grow and its upper bounds only shrink, so
    /// the earliest bound that implies it is found by binary search; `x ≠ v` may also hold by the
    /// removal of `v`. `None` when it held at the root (no entry needed) or not at all.
    pub(super) fn earliest_implying(
        &self,
        store: &Store,
        target: Literal,
        before: usize,
    ) -> Option<usize> {
        let root_end = self.root_end(store);
        // The first entry of a list whose value passes `passes` (a test that, once passed, stays
        // passed along the list), found among the values, which lie side by side.
        let first = |(list, values): (&[u32], &[i32]), passes: &dyn Fn(i32) -> bool| {
            let k = values.partition_point(|&b| !passes(b));
            list.get(k).map(|&j| j as usize)
        };
        let (var, v) = (target.var, target.value);
        // Each list is cut at `before` only when asked for: a bound target needs one of them.
        let lower = || store.lower_bounds_before(var, before);
        let upper = || store.upper_bounds_before(var, before);
        let candidates = match target.relation {
            LiteralRelation::Ge => [first(lower(), &|b| b >= v), None, None],
            LiteralRelation::Le => [first(upper(), &|b| b <= v), None, None],
            LiteralRelation::Ne => [
                first(lower(), &|b| b > v),
                first(upper(), &|b| b < v),
                store.removal_of(var, v).filter(|&j| j < before),
            ],
            LiteralRelation::Eq => {
                debug_assert!(false, "an `x = v` target has two witnesses");
                return None;
            }
        };
        // Held at the root already: no entry is needed.
        if candidates.iter().flatten().any(|&j| j < root_end) {
            return None;
        }
        candidates.into_iter().flatten().min()
    }

    /// Where the log's entries above the root start.
    pub(super) fn root_end(&self, store: &Store) -> usize {
        self.levels
            .first()
            .map_or(store.change_log().len(), |&start| start)
    }

    /// The decision level of log entry `e`.
    pub(super) fn level_of(&self, e: usize) -> usize {
        match self.entry_levels.get(e) {
            Some(&level) => level as usize,
            None => self.levels.partition_point(|&start| start <= e),
        }
    }

    /// Records the decision level of each log entry not recorded yet. An entry's level never
    /// changes while it is on the log (a level starts at the log's end, and undoing a level
    /// removes its entries), so each is computed once.
    pub(super) fn sync_levels(&mut self, store: &Store) {
        let len = store.change_log().len();
        let mut k = self.entry_levels.len();
        let mut level = self.levels.partition_point(|&start| start <= k);
        while k < len {
            while level < self.levels.len() && self.levels[level] <= k {
                level += 1;
            }
            self.entry_levels.push(level as u32);
            k += 1;
        }
    }

    /// Whether log entry `e` is a decision (which has no reason).
    pub(super) fn is_decision(&self, store: &Store, e: usize) -> bool {
        matches!(store.change_log()[e].cause, Cause::Decision)
    }
}

/// The newest of a variable's bound entries (`(entries, values)` as the store lists them), with
/// its value, if it lies above the root (at or after `root_end`).
fn latest_above((entries, values): (&[u32], &[i32]), root_end: usize) -> Option<(usize, i32)> {
    let (&j, &v) = entries.last().zip(values.last())?;
    (j as usize >= root_end).then_some((j as usize, v))
}
