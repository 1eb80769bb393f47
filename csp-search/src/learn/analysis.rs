//! Conflict analysis: a failure traced back through the causes on the change log to the first
//! unique implication point of the current decision level (Marques-Silva & Sakallah 1999, GRASP;
//! Moskewicz et al. 2001, Chaff), giving the clause to learn and the level to jump back to.

use csp_core::{Cause, ConstraintId, ExplainCtx, Literal, LiteralRelation, Model, Store};

use super::learner::{Conflict, Learner};

impl Learner {
    /// The log entries a conflict rests on, and the highest decision level among them (0: the
    /// conflict holds at the root, and there is nothing left to search). A constraint that failed
    /// by a change the store refused is explained by that change ([`Self::failure_entries`]),
    /// any other by its own explanation of the failure or, without one, by the domains of its
    /// scope; a clause by its literals.
    pub(crate) fn conflict_entries(
        &mut self,
        model: &Model,
        store: &mut Store,
        conflict: Conflict,
    ) -> (Vec<usize>, usize) {
        self.sync_levels(store);
        let end = store.change_log().len();
        let mut entries = Vec::new();
        match conflict {
            Conflict::Constraint(c) => {
                let failure = store.take_failure();
                if !self.failure_entries(model, store, c, failure, end, &mut entries) {
                    entries.clear();
                    let mut reasons = std::mem::take(&mut self.explanation);
                    reasons.clear();
                    let ctx = ExplainCtx::new(store, end);
                    if model.constraint(c).explain_failure(&ctx, &mut reasons) {
                        for &literal in &reasons {
                            self.witnesses(store, literal, end, &mut entries);
                        }
                    } else {
                        self.fallbacks.set(self.fallbacks.get() + 1);
                        self.scope_entries(model, store, c, end, &mut entries);
                    }
                    self.explanation = reasons;
                }
            }
            Conflict::Clause(id) => {
                // A clause's own failure is its literals; a change a wipe-out refused on the way
                // is stale now.
                let _ = store.take_failure();
                for literal in self.clauses.literals(id) {
                    self.witnesses(store, literal.negate(), end, &mut entries);
                }
                let highest = entries.iter().map(|&e| self.level_of(e)).max().unwrap_or(0);
                let lbd = self.distinct_levels(&entries, highest);
                self.clauses.used(id, lbd);
            }
        }
        // The conflict may lie wholly below the current level (a propagator that saw it late):
        // it is analysed at the highest level it involves.
        let highest = entries.iter().map(|&e| self.level_of(e)).max().unwrap_or(0);
        (entries, highest)
    }

    /// The decision levels whose decisions make `failed` false (MiniSat's `analyzeFinal`): its
    /// negation's entries, traced back through their reasons to the decisions they rest on. Every
    /// level is an assumption's when this is asked, so these are the assumptions that leave
    /// `failed` no room.
    pub(crate) fn assumption_core(
        &mut self,
        model: &Model,
        store: &Store,
        failed: Literal,
    ) -> Vec<usize> {
        self.sync_levels(store);
        let end = store.change_log().len();
        let root_end = self.root_end(store);
        let mut stack = Vec::new();
        self.witnesses(store, failed.negate(), end, &mut stack);
        self.seen.clear();
        self.seen.resize(end, false);
        let mut levels = Vec::new();
        let mut reasons = Vec::new();
        while let Some(e) = stack.pop() {
            if e < root_end || self.seen[e] {
                continue;
            }
            self.seen[e] = true;
            if self.is_decision(store, e) {
                levels.push(self.level_of(e));
                continue;
            }
            reasons.clear();
            self.reason(model, store, e, &mut reasons);
            stack.extend_from_slice(&reasons);
        }
        levels.sort_unstable();
        levels.dedup();
        levels
    }

    /// How many decision levels the log entries `entries` and the level `also` span.
    fn distinct_levels(&mut self, entries: &[usize], also: usize) -> u32 {
        self.level_marks.resize(self.levels.len() + 1, 0);
        self.level_stamp = self.level_stamp.wrapping_add(1);
        if self.level_stamp == 0 {
            self.level_marks.fill(0);
            self.level_stamp = 1;
        }
        let mut count = 0;
        for i in 0..=entries.len() {
            let level = entries.get(i).map_or(also, |&e| self.level_of(e));
            if self.level_marks[level] != self.level_stamp {
                self.level_marks[level] = self.level_stamp;
                count += 1;
            }
        }
        count
    }

    /// Keeps a learned clause (asserting literal first, then a literal of the level jumped to),
    /// once the search has jumped back to that level, and makes its first literal true.
    pub(crate) fn learn(&mut self, store: &mut Store, literals: Vec<Literal>, lbd: u32) {
        self.note_lbd(lbd);
        #[cfg(test)]
        self.check_against_oracle(&literals);
        self.clauses.add(store, &literals, Some(lbd));
    }

    /// The entries of a failure of constraint `c` that refused a change, `failure` (the literal it
    /// could not make true, and the cause it was made under): the constraint's explanation of the
    /// change (as if made at the end of the log, `end`) with the removals its bound skips, and the
    /// entries that make it false. Far fewer than every domain of the scope, which is what a
    /// failure is explained by otherwise: a sum that fails needs one bound of each term, not both
    /// bounds and the holes. Returns false, leaving `out` as it was or with entries to discard,
    /// when the failure is not one it can explain this way.
    fn failure_entries(
        &self,
        model: &Model,
        store: &Store,
        c: ConstraintId,
        failure: Option<(Literal, Cause)>,
        end: usize,
        out: &mut Vec<usize>,
    ) -> bool {
        let Some((literal, cause)) = failure else {
            return false;
        };
        if cause != Cause::Constraint(c) {
            return false;
        }
        // The literal must be false by bounds alone, for its negation's witnesses to be entries
        // (`x ≥ v` refused by an upper bound below `v`, say).
        let (lo, hi) = store.bounds_before(literal.var, end);
        let false_by_bounds = match literal.relation {
            LiteralRelation::Ge => hi < literal.value,
            LiteralRelation::Le => lo > literal.value,
            LiteralRelation::Ne => lo == literal.value && hi == literal.value,
            LiteralRelation::Eq => false,
        };
        if !false_by_bounds {
            return false;
        }
        let mut reasons = Vec::new();
        let ctx = ExplainCtx::new(store, end);
        if !model.constraint(c).explain(literal, &ctx, &mut reasons) {
            return false;
        }
        for reason in reasons {
            self.witnesses(store, reason, end, out);
        }
        self.holes_passed(store, literal, end, out);
        self.witnesses(store, literal.negate(), end, out);
        true
    }

    /// First-UIP conflict analysis from the entries of a conflict, all at or below the current
    /// level with at least one at it: the learned clause (asserting literal first, then a literal
    /// of the level to jump to) and that level.
    #[inline(never)]
    pub(crate) fn analyse(
        &mut self,
        model: &Model,
        store: &Store,
        conflict: Vec<usize>,
    ) -> (Vec<Literal>, usize, u32) {
        let current = self.levels.len();
        let start = self.levels[current - 1];
        let log_len = store.change_log().len();
        self.seen.clear();
        self.seen.resize(log_len, false);
        let mut pending = 0usize;
        let mut lower: Vec<usize> = Vec::new();
        let mut reasons = conflict;
        let mut p = log_len;
        let uip = loop {
            for &e in &reasons {
                if e < self.root_end(store) || self.seen[e] {
                    continue;
                }
                self.seen[e] = true;
                let var = store.change_log()[e].literal.var;
                self.activity.bump(var);
                if e >= start {
                    pending += 1;
                } else {
                    lower.push(e);
                }
            }
            // The newest entry of this level still in the clause.
            p -= 1;
            while !self.seen[p] {
                p -= 1;
            }
            if pending == 1 {
                break p;
            }
            pending -= 1;
            reasons.clear();
            self.reason(model, store, p, &mut reasons);
            if let Cause::Clause(id) = store.change_log()[p].cause {
                // The clause's literals: its reasons, and the one it made true, at this level.
                let lbd = self.distinct_levels(&reasons, current);
                self.clauses.used(id, lbd);
            }
        };
        let lower = self.simplify(model, store, lower);
        let mut literals = vec![store.change_log()[uip].literal.negate()];
        let mut jump = 0;
        let mut second = None;
        for &e in &lower {
            let level = self.level_of(e);
            if level > jump {
                jump = level;
                second = Some(literals.len());
            }
            literals.push(store.change_log()[e].literal.negate());
        }
        if let Some(second) = second {
            literals.swap(1, second);
        }
        let mut levels: Vec<usize> = lower.iter().map(|&e| self.level_of(e)).collect();
        levels.sort_unstable();
        levels.dedup();
        (literals, jump, levels.len() as u32 + 1)
    }
}
