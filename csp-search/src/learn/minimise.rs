//! Shortening learned clauses before they are kept: a literal implied by another literal of the
//! clause goes, and one implied by the rest of the clause through its reasons, recursively, is
//! dropped (recursive minimisation, Sörensson & Biere 2009, "Minimizing learned clauses", with a
//! stronger literal of the clause standing for a weaker one a reason asks for).

use csp_core::{Literal, LiteralRelation, Model, Store};

use super::learner::Learner;
use super::scratch::{
    Frame, IN_CLAUSE, KEPT, Minimise, NO_FACTS, NOT_REDUNDANT, REDUNDANT, SUBSUMED, UNKNOWN,
    abstract_level, implies,
};

impl Learner {
    /// Shortens the part of a learned clause below the current level, `lower` (its entries), in
    /// two steps, each keeping the clause implied by the constraints:
    ///
    /// 1. An entry whose literal follows from another entry's of the clause is dropped (of
    ///    `x ≤ 3` and `x ≤ 2`, the first): the clause holds the negations, and `x > 3` implies
    ///    `x > 2`, so the two literals say no more than the weaker one.
    /// 2. An entry is dropped when it is redundant ([`Self::redundant`]): recursive minimisation
    ///    (Sörensson & Biere 2009, "Minimizing learned clauses"), which generalises MiniSat's
    ///    local minimisation (an entry whose reasons are all in the clause).
    ///
    /// An entry whose reason is one entry is not replaced by that entry, although the clause
    /// would stay as short: the entry is the more general fact. On open_stacks, a product's
    /// position ruled out (`s₅ ≠ 1`, by all-different) holds whatever position took the product,
    /// while its reason (`s₁ = 1`) names one; replacing them made the learned clauses about the
    /// order of the products, and problem_10_10_1 took 1,630 failures to prove rather than 915.
    #[inline(never)]
    pub(super) fn simplify(
        &mut self,
        model: &Model,
        store: &Store,
        lower: Vec<usize>,
    ) -> Vec<usize> {
        let mut scratch = std::mem::take(&mut self.minimise);
        scratch.marks.resize(store.change_log().len(), UNKNOWN);
        let mut candidates = Vec::with_capacity(lower.len());
        for e in lower {
            if scratch.marks[e] == UNKNOWN {
                scratch.mark(e, IN_CLAUSE);
                candidates.push(e);
            }
        }
        // Step 1, from what the clause's entries on each variable say together: an entry is
        // implied by another exactly when the strongest bound on its side, or the value the
        // variable is fixed to, implies it (implication between distinct literals of one
        // variable is strict, so the strongest entries stay). A clause may hold hundreds of
        // removals of one variable, so they are not compared pairwise.
        let log = store.change_log();
        let mut by_var: Vec<(u32, usize)> = candidates
            .iter()
            .map(|&e| (log[e].literal.var.index() as u32, e))
            .collect();
        by_var.sort_unstable();
        scratch.summarise(&by_var, log, model.num_vars());
        let mut dropped = false;
        for &(var, e) in &by_var {
            let facts = scratch.facts[scratch.facts_of[var as usize] as usize];
            let Literal {
                relation, value, ..
            } = log[e].literal;
            let subsumed = match relation {
                LiteralRelation::Ge => facts.lower > value || facts.fixed == Some(value),
                LiteralRelation::Le => facts.upper < value || facts.fixed == Some(value),
                LiteralRelation::Ne => value < facts.lower || value > facts.upper,
                LiteralRelation::Eq => false,
            };
            if subsumed {
                // Not in the clause any more: step 2 must not take it as given.
                scratch.marks[e] = SUBSUMED;
                dropped = true;
            }
        }
        if dropped {
            by_var.retain(|&(_, e)| scratch.marks[e] == IN_CLAUSE);
            candidates.retain(|&e| scratch.marks[e] == IN_CLAUSE);
            // The strongest entries stayed, so each variable's bounds are as they were; its
            // list of bound entries loses the dropped ones.
            scratch.summarise(&by_var, log, model.num_vars());
        }
        // Step 2. The clause's decision levels, as a set of 64 bits (a level's bit its number
        // modulo 64): an entry at a level of no clause entry almost always rests, through its
        // reasons, on that level's decision, which is not in the clause, so it is given up on at
        // once (MiniSat's abstract levels). Giving up is always sound; the clause only stays
        // longer when the guess is wrong.
        let levels = candidates
            .iter()
            .fold(0u64, |mask, &e| mask | abstract_level(self.level_of(e)));
        // Newest first, so that an entry is tried once every entry after it is known kept or
        // dropped: one kept may then serve to drop it (see `Self::redundant`).
        let mut newest_first = candidates.clone();
        newest_first.sort_unstable_by(|a, b| b.cmp(a));
        for e in newest_first {
            if self.is_decision(store, e) || !self.redundant(model, store, e, &mut scratch, levels)
            {
                scratch.marks[e] = KEPT;
            }
        }
        candidates.retain(|&e| scratch.marks[e] == KEPT);
        scratch.clear();
        self.minimise = scratch;
        candidates
    }

    /// Whether clause entry `e` (not a decision) is redundant: implied by the clause's other
    /// entries. Following Sörensson & Biere 2009 ("Minimizing learned clauses", MiniSat's
    /// `litRedundant`), an entry is redundant when each entry of its reason is in the clause,
    /// held at the root, or (not a decision) redundant itself, recursively. The answer for each
    /// entry met on the way is kept in `scratch` for the rest of the clause, either way, and an
    /// entry at a decision level outside `levels` (the clause's, see [`abstract_level`]) is not
    /// redundant without a look at its reason: the paper's two prunings.
    ///
    /// That is sound because every step goes back along the log (a reason comes before what it
    /// explains): an entry of the clause dropped rests on entries of the clause made before it,
    /// each kept or, dropped, resting on still earlier ones, so that all rest on those kept.
    ///
    /// Literals over integers add a case: a reason entry `r` of entry `p` also holds when an
    /// entry of the clause implies its literal (`x ≤ 2` implies the `x ≤ 3` a reason asks for,
    /// whose own entry came earlier). So that the argument above still holds, that entry must
    /// come before `p` or be known to stay in the clause ([`KEPT`]; the clause is gone through
    /// newest entry first, so the entries after `e` are known kept or dropped by now); two
    /// entries that each served to drop the other would leave neither. And `r` is not recorded
    /// redundant by that case, as whether it applies depends on `p`.
    ///
    /// The search is depth first with an explicit stack, as reasons chain deep along the log.
    #[inline(never)]
    pub(super) fn redundant(
        &mut self,
        model: &Model,
        store: &Store,
        e: usize,
        scratch: &mut Minimise,
        levels: u64,
    ) -> bool {
        let root_end = self.root_end(store);
        scratch.stack.clear();
        scratch.reasons.clear();
        self.reason(model, store, e, &mut scratch.reasons);
        scratch.stack.push(Frame {
            entry: e,
            start: 0,
            next: 0,
        });
        while let Some(&Frame { entry, start, next }) = scratch.stack.last() {
            if next == scratch.reasons.len() {
                // Every reason of `entry` holds: it is redundant.
                scratch.stack.pop();
                scratch.reasons.truncate(start);
                if scratch.stack.is_empty() {
                    return true;
                }
                scratch.mark(entry, REDUNDANT);
                continue;
            }
            scratch.stack.last_mut().expect("a frame").next += 1;
            let r = scratch.reasons[next];
            if r < root_end {
                continue;
            }
            let holds = match scratch.marks[r] {
                IN_CLAUSE | KEPT | REDUNDANT => true,
                _ if self.implied_by_clause(store, r, entry, scratch) => true,
                NOT_REDUNDANT => false,
                _ if self.is_decision(store, r)
                    || levels & abstract_level(self.level_of(r)) == 0 =>
                {
                    scratch.mark(r, NOT_REDUNDANT);
                    false
                }
                _ => {
                    // Not known yet: its reason is looked at first.
                    let start = scratch.reasons.len();
                    self.reason(model, store, r, &mut scratch.reasons);
                    scratch.stack.push(Frame {
                        entry: r,
                        start,
                        next: start,
                    });
                    continue;
                }
            };
            if !holds {
                // Neither is any entry on the stack redundant, each resting on the next; the
                // clause entry at the bottom keeps its mark (in the clause).
                for k in 1..scratch.stack.len() {
                    let entry = scratch.stack[k].entry;
                    scratch.mark(entry, NOT_REDUNDANT);
                }
                scratch.stack.clear();
                return false;
            }
        }
        unreachable!("the loop returns when the stack empties")
    }

    /// Whether the literal of entry `r` is implied by that of an entry of the clause (as
    /// summarised in `scratch`) made before entry `before` or known to stay in it ([`KEPT`]).
    pub(super) fn implied_by_clause(
        &self,
        store: &Store,
        r: usize,
        before: usize,
        scratch: &Minimise,
    ) -> bool {
        let log = store.change_log();
        let literal = log[r].literal;
        let index = scratch.facts_of[literal.var.index()];
        if index == NO_FACTS {
            return false;
        }
        let facts = scratch.facts[index as usize];
        // Whether any entry of the clause implies it, before the order is looked at: mostly
        // none does, and the answer costs a comparison.
        let v = literal.value;
        let implied_by_any = match literal.relation {
            LiteralRelation::Ge => facts.lower >= v,
            LiteralRelation::Le => facts.upper <= v,
            LiteralRelation::Ne => v < facts.lower || v > facts.upper,
            LiteralRelation::Eq => facts.fixed == Some(v),
        };
        implied_by_any
            && scratch.bound_entries[facts.from as usize..facts.to as usize]
                .iter()
                .any(|&e| {
                    e != r
                        && (e < before || scratch.marks[e] == KEPT)
                        && implies(log[e].literal, literal)
                })
    }
}
