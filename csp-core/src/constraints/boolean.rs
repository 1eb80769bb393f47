//! Boolean constraints over 0/1 variables: clauses with watched literals, reified conjunctions (and,
//! or, implication and their arrays), parity (xor, equivalence), and the literals they are made of.
//!
//! Every variable here is a Boolean: the checkers refuse any value but 0 and 1, and the first
//! revision cuts each domain to `{0, 1}`.

use crate::Domains;
use hashbrown::HashMap;
use smallvec::SmallVec;

use crate::{
    CheckCtx, Constraint, Constructor, EventSet, PostCtx, PropagationCtx, Propagator, Slot, Slots,
    VarId, Wipeout, revision::Priority,
};

/// A 0/1 variable taken positively or negatively: the variable itself (true when it is 1) or its
/// negation (true when it is 0), as clauses and conjunctions are stated. Not the learner's
/// [`crate::Literal`], a condition on an integer variable's domain.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct SignedBool {
    /// The 0/1 variable.
    pub var: VarId,
    /// Whether the literal is the variable itself (true when the variable is 1) or its negation
    /// (true when it is 0).
    pub positive: bool,
}

impl SignedBool {
    /// The literal `var` (true when `var = 1`).
    pub fn positive(var: VarId) -> Self {
        SignedBool {
            var,
            positive: true,
        }
    }

    /// The literal `¬var` (true when `var = 0`).
    pub fn negative(var: VarId) -> Self {
        SignedBool {
            var,
            positive: false,
        }
    }

    /// The opposite literal.
    pub fn negated(self) -> Self {
        SignedBool {
            var: self.var,
            positive: !self.positive,
        }
    }
}

/// A literal over a scope position.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Lit {
    slot: usize,
    positive: bool,
}

impl Lit {
    fn negated(self) -> Self {
        Lit {
            slot: self.slot,
            positive: !self.positive,
        }
    }

    /// The literal's truth under `values` (one per scope variable), if the value is a Boolean.
    fn holds(self, values: &[i32]) -> bool {
        values[self.slot] == i32::from(self.positive)
    }

    /// The literal's truth in the current domains: `Some` once its variable is fixed.
    fn status(self, scope: &[VarId], ctx: &CheckCtx<'_>) -> Option<bool> {
        ctx.fixed_value(scope[self.slot])
            .map(|v| v == i32::from(self.positive))
    }

    fn make_true(self, scope: &[VarId], ctx: &mut PropagationCtx<'_>) -> Result<(), Wipeout> {
        ctx.fix(scope[self.slot], i64::from(self.positive))
            .map(drop)
    }
}

/// Whether every value is a Boolean.
fn all_boolean(values: &[i32]) -> bool {
    values.iter().all(|&v| v == 0 || v == 1)
}

/// Explains a change of a Boolean variable by one clause over `scope`'s literals, `clause`: the
/// change made the clause's literal over that variable true, every other one being false before
/// it (unit propagation). A change that only cut the variable to `{0, 1}` needs no reason.
/// Returns whether the clause explains it; `reasons` is left as it was if not.
fn explain_by_clause(
    scope: &[VarId],
    clause: impl Iterator<Item = Lit>,
    literal: crate::Literal,
    ctx: &crate::ExplainCtx<'_>,
    reasons: &mut Vec<crate::Literal>,
) -> bool {
    if is_boolean_cut(literal, ctx) {
        return true;
    }
    let value = if literal.holds_for(1) { 1 } else { 0 };
    let start = reasons.len();
    let mut unit = false;
    for lit in clause {
        let var = scope[lit.slot];
        if var == literal.var && i32::from(lit.positive) == value {
            unit = true;
            continue;
        }
        let (lo, hi) = ctx.bounds(var);
        let reason = if lit.positive {
            (hi <= 0).then(|| crate::Literal::le(var, 0))
        } else {
            (lo >= 1).then(|| crate::Literal::ge(var, 1))
        };
        match reason {
            Some(reason) => reasons.push(reason),
            None => {
                unit = false;
                break;
            }
        }
    }
    if !unit {
        reasons.truncate(start);
    }
    unit
}

/// Whether `literal`, a change of a Boolean variable, is the first revision's cut of its domain
/// to `{0, 1}` and no more: then the constraint alone implies it.
fn is_boolean_cut(literal: crate::Literal, ctx: &crate::ExplainCtx<'_>) -> bool {
    let bounds = ctx.bounds(literal.var);
    (0..=1).all(|v| !ctx.contains_within(literal.var, v, bounds) || literal.holds_for(v))
        && (bounds.0 < 0 || bounds.1 > 1 || (literal.holds_for(0) && literal.holds_for(1)))
}

/// Explains a failure by a variable of `scope` left without 0 and 1 (its cut to `{0, 1}` refused):
/// its bounds and its missing Boolean values between them. False if every variable has one.
fn explain_not_boolean(
    scope: &[VarId],
    ctx: &crate::ExplainCtx<'_>,
    reasons: &mut Vec<crate::Literal>,
) -> bool {
    for &var in scope {
        let bounds = ctx.bounds(var);
        if (0..=1).all(|v| !ctx.contains_within(var, v, bounds)) {
            reasons.push(crate::Literal::ge(var, bounds.0));
            reasons.push(crate::Literal::le(var, bounds.1));
            for v in (0..=1).filter(|v| (bounds.0..=bounds.1).contains(v)) {
                reasons.push(crate::Literal::ne(var, v));
            }
            return true;
        }
    }
    false
}

/// Explains a failure by a clause over `scope`'s literals whose every literal is false in `ctx`:
/// the negation of each. False, with `reasons` as they were, if one is not false.
fn explain_false_clause(
    scope: &[VarId],
    clause: impl Iterator<Item = Lit>,
    ctx: &crate::ExplainCtx<'_>,
    reasons: &mut Vec<crate::Literal>,
) -> bool {
    let start = reasons.len();
    for lit in clause {
        let var = scope[lit.slot];
        let (lo, hi) = ctx.bounds(var);
        let reason = if lit.positive {
            (hi <= 0).then(|| crate::Literal::le(var, 0))
        } else {
            (lo >= 1).then(|| crate::Literal::ge(var, 1))
        };
        match reason {
            Some(reason) => reasons.push(reason),
            None => {
                reasons.truncate(start);
                return false;
            }
        }
    }
    true
}

/// Cuts every scope variable to `{0, 1}`.
pub(super) fn booleanise(scope: &[VarId], ctx: &mut PropagationCtx<'_>) -> Result<(), Wipeout> {
    for &var in scope {
        ctx.restrict_bounds(var, 0, 1)?;
    }
    Ok(())
}

/// Literals over a scope in which each variable appears once: a literal repeated with the same sign is
/// kept once; `conflict` tells whether some variable appears with both signs.
struct Gathered {
    scope: Vec<VarId>,
    lits: Vec<Lit>,
    conflict: bool,
}

fn gather(literals: impl IntoIterator<Item = SignedBool>) -> Gathered {
    let mut scope = Vec::new();
    let mut seen: HashMap<VarId, (usize, bool)> = HashMap::new();
    let mut lits = Vec::new();
    let mut conflict = false;
    for literal in literals {
        match seen.get(&literal.var) {
            Some(&(_, positive)) if positive == literal.positive => {}
            Some(_) => conflict = true,
            None => {
                seen.insert(literal.var, (scope.len(), literal.positive));
                lits.push(Lit {
                    slot: scope.len(),
                    positive: literal.positive,
                });
                scope.push(literal.var);
            }
        }
    }
    Gathered {
        scope,
        lits,
        conflict,
    }
}

/// Two watched literals of one clause, in the two state slots `watched` (literal index + 1; 0
/// before the first revision): unit propagation visits a clause only when a watched literal becomes
/// false (Moskewicz et al., *Chaff*, 2001). The invariant after each revision: both watched literals
/// are not false, or one is false and the other true.
struct Watches<'a> {
    scope: &'a [VarId],
    /// The clause's literals.
    lits: &'a [Lit],
    watched: Slots<i64>,
}

impl Watches<'_> {
    /// Chooses two literals that are not false (or one true one and any other), or propagates the
    /// unit the clause has become.
    fn initialise(&self, ctx: &mut PropagationCtx<'_>) -> Result<(), Wipeout> {
        let check = ctx.as_check();
        let mut open: SmallVec<[usize; 2]> = SmallVec::new();
        for (i, lit) in self.lits.iter().enumerate() {
            if lit.status(self.scope, &check) != Some(false) {
                open.push(i);
                if open.len() == 2 {
                    break;
                }
            }
        }
        match open.as_slice() {
            [] => Err(Wipeout),
            &[only] => {
                self.lits[only].make_true(self.scope, ctx)?;
                let other = usize::from(only == 0);
                ctx.set(self.watched.at(0), only as i64 + 1);
                ctx.set(
                    self.watched.at(1),
                    other.min(self.lits.len() - 1) as i64 + 1,
                );
                Ok(())
            }
            &[a, b, ..] => {
                ctx.set(self.watched.at(0), a as i64 + 1);
                ctx.set(self.watched.at(1), b as i64 + 1);
                Ok(())
            }
        }
    }

    /// Moves each false watched literal to one that is not false, or makes the other watched literal
    /// true when there is none; fails when both are false.
    fn revise(&self, ctx: &mut PropagationCtx<'_>) -> Result<(), Wipeout> {
        if ctx.get(self.watched.at(0)) == 0 {
            return self.initialise(ctx);
        }
        let mut watched = [
            ctx.get(self.watched.at(0)) as usize - 1,
            ctx.get(self.watched.at(1)) as usize - 1,
        ];
        for side in 0..2 {
            let check = ctx.as_check();
            if self.lits[watched[side]].status(self.scope, &check) != Some(false) {
                continue;
            }
            let replacement = (0..self.lits.len()).find(|&k| {
                k != watched[0]
                    && k != watched[1]
                    && self.lits[k].status(self.scope, &check) != Some(false)
            });
            if let Some(k) = replacement {
                watched[side] = k;
                ctx.set(self.watched.at(side), k as i64 + 1);
            }
        }
        let check = ctx.as_check();
        let status = watched.map(|w| self.lits[w].status(self.scope, &check));
        match status {
            [Some(false), Some(false)] => Err(Wipeout),
            [Some(false), _] => self.lits[watched[1]].make_true(self.scope, ctx),
            [_, Some(false)] => self.lits[watched[0]].make_true(self.scope, ctx),
            _ => Ok(()),
        }
    }

    /// Whether the change to the variable at `position` made a watched literal false.
    fn woken(&self, position: usize, ctx: &CheckCtx<'_>) -> bool {
        if ctx.get(self.watched.at(0)) == 0 {
            return true;
        }
        (0..2).any(|side| {
            let lit = self.lits[ctx.get(self.watched.at(side)) as usize - 1];
            lit.slot == position && lit.status(self.scope, ctx) == Some(false)
        })
    }
}

/// `l₁ ∨ l₂ ∨ … ∨ lₙ` over literals: FlatZinc's `bool_clause(as, bs)` (the `as` positive, the `bs`
/// negated), and `bool_le(a, b)` as `¬a ∨ b`.
///
/// Consistency: domain consistent (unit propagation), with two watched literals in state cells, so that
/// fixing a variable costs O(1) unless it falsifies a watched literal. A clause naming a variable with
/// both signs is always true; an empty clause always fails.
#[derive(Debug, Clone)]
pub struct Clause {
    scope: Vec<VarId>,
    lits: Vec<Lit>,
    /// Some variable appears with both signs: the clause always holds.
    tautology: bool,
    /// The two watches.
    watched: Slots<i64>,
}

impl Clause {
    /// `∨ positive ∨ ¬negative`: at least one of `positive` is 1 or one of `negative` is 0.
    pub fn new(positive: &[VarId], negative: &[VarId]) -> Constructor<Self> {
        Self::from_literals(
            positive
                .iter()
                .map(|&v| SignedBool::positive(v))
                .chain(negative.iter().map(|&v| SignedBool::negative(v))),
        )
    }

    /// The disjunction of `literals`.
    pub fn from_literals(literals: impl IntoIterator<Item = SignedBool>) -> Constructor<Self> {
        let gathered = gather(literals);
        Clause::laid_out(gathered.scope, gathered.lits, gathered.conflict)
    }

    fn laid_out(scope: Vec<VarId>, lits: Vec<Lit>, tautology: bool) -> Constructor<Self> {
        Constructor::new(move |state: &mut PostCtx| {
            Ok(Clause {
                scope,
                lits,
                tautology,
                watched: state.slots(2),
            })
        })
    }

    fn watches(&self) -> Watches<'_> {
        Watches {
            scope: &self.scope,
            lits: &self.lits,
            watched: self.watched,
        }
    }
}

impl Constraint for Clause {
    fn scope(&self) -> &[VarId] {
        &self.scope
    }

    fn is_satisfied(&self, values: &[i32]) -> bool {
        all_boolean(values) && (self.tautology || self.lits.iter().any(|l| l.holds(values)))
    }
}

impl Propagator for Clause {
    /// Unit propagation: the literal made true, every other one false before.
    fn explain(
        &self,
        literal: crate::Literal,
        ctx: &crate::ExplainCtx<'_>,
        reasons: &mut Vec<crate::Literal>,
    ) -> bool {
        !self.tautology
            && explain_by_clause(
                &self.scope,
                self.lits.iter().copied(),
                literal,
                ctx,
                reasons,
            )
    }

    /// A variable left without a Boolean value, or every literal false.
    fn explain_failure(
        &self,
        ctx: &crate::ExplainCtx<'_>,
        reasons: &mut Vec<crate::Literal>,
    ) -> bool {
        explain_not_boolean(&self.scope, ctx, reasons)
            || (!self.tautology
                && explain_false_clause(&self.scope, self.lits.iter().copied(), ctx, reasons))
    }

    fn revise(&self, ctx: &mut PropagationCtx<'_>) -> Result<(), Wipeout> {
        if ctx.get(self.watched.at(0)) == 0 {
            booleanise(&self.scope, ctx)?;
            if self.tautology {
                // Never woken again: nothing left to watch.
                ctx.set(self.watched.at(0), 1);
                ctx.set(self.watched.at(1), 1);
                return Ok(());
            }
        } else if self.tautology {
            return Ok(());
        }
        self.watches().revise(ctx)
    }

    fn subscribe(&self, _position: usize) -> EventSet {
        EventSet::FIXED
    }

    fn uses_notify(&self) -> bool {
        true
    }

    /// Queues the clause only when a watched literal became false.
    fn notify(&self, position: usize, _events: EventSet, ctx: &mut PropagationCtx<'_>) -> bool {
        !self.tautology && self.watches().woken(position, &ctx.as_check())
    }

    fn priority(&self) -> Priority {
        Priority::High
    }

    fn entailment(&self, ctx: &CheckCtx<'_>) -> Option<bool> {
        if self.tautology {
            return Some(true);
        }
        let mut open = false;
        for lit in &self.lits {
            match lit.status(&self.scope, ctx) {
                Some(true) => return Some(true),
                Some(false) => {}
                None => open = true,
            }
        }
        (!open).then_some(false)
    }

    /// Every literal false.
    fn negation(&self) -> Option<Box<dyn crate::Post>> {
        if self.tautology {
            return None;
        }
        Some(Box::new(Conjunction {
            scope: self.scope.clone(),
            lits: self.lits.iter().map(|l| l.negated()).collect(),
        }))
    }

    // Value enumeration.
    /// Unit propagation, as the revision: it moves each watched literal that became false,
    /// whoever falsified it.
    fn forward_check(&self, _var: VarId, ctx: &mut PropagationCtx<'_>) -> Result<(), Wipeout> {
        self.revise(ctx)
    }
}

/// Every literal true: the negation of a [`Clause`]. Domain consistent (it fixes every variable).
#[derive(Debug, Clone)]
struct Conjunction {
    scope: Vec<VarId>,
    lits: Vec<Lit>,
}

impl Constraint for Conjunction {
    fn scope(&self) -> &[VarId] {
        &self.scope
    }

    fn is_satisfied(&self, values: &[i32]) -> bool {
        all_boolean(values) && self.lits.iter().all(|l| l.holds(values))
    }
}

impl Propagator for Conjunction {
    /// Every literal holds unconditionally: the constraint alone makes each one true.
    fn explain(
        &self,
        literal: crate::Literal,
        _ctx: &crate::ExplainCtx<'_>,
        _reasons: &mut Vec<crate::Literal>,
    ) -> bool {
        self.lits.iter().any(|lit| {
            self.scope[lit.slot] == literal.var && literal.holds_for(i32::from(lit.positive))
        })
    }

    /// A literal whose value its variable lacks.
    fn explain_failure(
        &self,
        ctx: &crate::ExplainCtx<'_>,
        reasons: &mut Vec<crate::Literal>,
    ) -> bool {
        self.lits.iter().any(|lit| {
            let var = self.scope[lit.slot];
            let value = i32::from(lit.positive);
            let missing = !ctx.contains(var, value);
            if missing {
                reasons.push(crate::Literal::ne(var, value));
            }
            missing
        })
    }

    fn revise(&self, ctx: &mut PropagationCtx<'_>) -> Result<(), Wipeout> {
        for lit in &self.lits {
            lit.make_true(&self.scope, ctx)?;
        }
        Ok(())
    }

    fn subscribe(&self, _position: usize) -> EventSet {
        EventSet::EMPTY
    }

    fn priority(&self) -> Priority {
        Priority::High
    }

    fn entailment(&self, ctx: &CheckCtx<'_>) -> Option<bool> {
        let mut open = false;
        for lit in &self.lits {
            match lit.status(&self.scope, ctx) {
                Some(false) => return Some(false),
                Some(true) => {}
                None => open = true,
            }
        }
        (!open).then_some(true)
    }

    fn negation(&self) -> Option<Box<dyn crate::Post>> {
        Some(Box::new(Clause::laid_out(
            self.scope.clone(),
            self.lits.iter().map(|l| l.negated()).collect(),
            false,
        )))
    }
}

/// `r ↔ l₁ ∧ l₂ ∧ … ∧ lₙ` over literals: FlatZinc's `array_bool_and(as, r)` and `bool_and(a, b, r)`;
/// by De Morgan also `array_bool_or(as, r)` and `bool_or(a, b, r)` (`¬r ↔ ∧ ¬aᵢ`),
/// `bool_clause_reif(as, bs, r)` (`¬r ↔ ∧ ¬aᵢ ∧ bⱼ`), `bool_le_reif(a, b, r)` (`¬r ↔ a ∧ ¬b`) and
/// `bool_lt_reif(a, b, r)` (`r ↔ ¬a ∧ b`).
///
/// Consistency: domain consistent. It is the clauses `¬r ∨ lᵢ` (a false `lᵢ` makes `r` false; a true
/// `r` makes every `lᵢ` true) and the long clause `r ∨ ¬l₁ ∨ … ∨ ¬lₙ`, whose two watched literals live
/// in state cells, so that fixing a literal true costs O(1) unless it is watched.
#[derive(Debug, Clone)]
pub struct BoolAnd {
    scope: Vec<VarId>,
    /// The long clause: `r` first, then each `¬lᵢ`.
    long: Vec<Lit>,
    /// For each scope position, the indices in `long` of the literals over it.
    by_slot: Vec<SmallVec<[usize; 2]>>,
    /// Some variable appears in the conjunction with both signs: it is always false.
    contradiction: bool,
    /// Whether the revision has run on this path ...
    initialised: Slot<bool>,
    /// ... whether some `lᵢ` is known false ...
    false_seen: Slot<bool>,
    /// ... and the long clause's two watches.
    watched: Slots<i64>,
}

impl BoolAnd {
    /// `r ↔ ∧ literals`.
    pub fn new(r: SignedBool, literals: impl IntoIterator<Item = SignedBool>) -> Constructor<Self> {
        let conjunction = gather(literals);
        let mut scope = conjunction.scope;
        let r_slot = scope.iter().position(|&v| v == r.var).unwrap_or_else(|| {
            scope.push(r.var);
            scope.len() - 1
        });
        let mut long = vec![Lit {
            slot: r_slot,
            positive: r.positive,
        }];
        long.extend(conjunction.lits.iter().map(|l| l.negated()));
        let mut by_slot = vec![SmallVec::new(); scope.len()];
        for (i, lit) in long.iter().enumerate() {
            by_slot[lit.slot].push(i);
        }
        Constructor::new(move |state: &mut PostCtx| {
            Ok(BoolAnd {
                scope,
                long,
                by_slot,
                contradiction: conjunction.conflict,
                initialised: state.slot(),
                false_seen: state.slot(),
                watched: state.slots(2),
            })
        })
    }

    fn r(&self) -> Lit {
        self.long[0]
    }

    /// The conjunction's literals `lᵢ`.
    fn conjuncts(&self) -> impl Iterator<Item = Lit> + '_ {
        self.long[1..].iter().map(|l| l.negated())
    }

    fn watches(&self) -> Watches<'_> {
        Watches {
            scope: &self.scope,
            lits: &self.long,
            watched: self.watched,
        }
    }
}

impl Constraint for BoolAnd {
    fn scope(&self) -> &[VarId] {
        &self.scope
    }

    fn is_satisfied(&self, values: &[i32]) -> bool {
        let all = !self.contradiction && self.conjuncts().all(|l| l.holds(values));
        all_boolean(values) && self.r().holds(values) == all
    }
}

impl Propagator for BoolAnd {
    /// Unit propagation on one of the clauses the constraint is: the long clause
    /// `r ∨ ¬l₁ ∨ … ∨ ¬lₙ`, or some `¬r ∨ lᵢ`.
    fn explain(
        &self,
        literal: crate::Literal,
        ctx: &crate::ExplainCtx<'_>,
        reasons: &mut Vec<crate::Literal>,
    ) -> bool {
        let r = self.r();
        if self.contradiction {
            // A conjunct with both signs is false, so `r` is false by the constraint alone.
            return is_boolean_cut(literal, ctx)
                || (self.scope[r.slot] == literal.var
                    && literal.holds_for(i32::from(!r.positive)));
        }
        explain_by_clause(
            &self.scope,
            self.long.iter().copied(),
            literal,
            ctx,
            reasons,
        ) || self.conjuncts().any(|l| {
            explain_by_clause(
                &self.scope,
                [r.negated(), l].into_iter(),
                literal,
                ctx,
                reasons,
            )
        })
    }

    /// A variable left without a Boolean value, `r` true under a contradiction, or one of the
    /// clauses `r ∨ ¬l₁ ∨ …` and `¬r ∨ lᵢ` with every literal false.
    fn explain_failure(
        &self,
        ctx: &crate::ExplainCtx<'_>,
        reasons: &mut Vec<crate::Literal>,
    ) -> bool {
        if explain_not_boolean(&self.scope, ctx, reasons) {
            return true;
        }
        let r = self.r();
        if self.contradiction {
            return explain_false_clause(&self.scope, [r.negated()].into_iter(), ctx, reasons);
        }
        explain_false_clause(&self.scope, self.long.iter().copied(), ctx, reasons)
            || self.conjuncts().any(|l| {
                explain_false_clause(&self.scope, [r.negated(), l].into_iter(), ctx, reasons)
            })
    }

    fn revise(&self, ctx: &mut PropagationCtx<'_>) -> Result<(), Wipeout> {
        if !ctx.get(self.initialised) {
            booleanise(&self.scope, ctx)?;
            let check = ctx.as_check();
            let false_seen = self.contradiction
                || self
                    .conjuncts()
                    .any(|l| l.status(&self.scope, &check) == Some(false));
            ctx.set(self.false_seen, false_seen);
            ctx.set(self.initialised, true);
        }
        let r = self.r();
        if r.status(&self.scope, &ctx.as_check()) == Some(true) {
            if self.contradiction {
                return Err(Wipeout);
            }
            for lit in self.conjuncts() {
                lit.make_true(&self.scope, ctx)?;
            }
            return Ok(());
        }
        if ctx.get(self.false_seen) {
            return r.negated().make_true(&self.scope, ctx);
        }
        self.watches().revise(ctx)
    }

    fn subscribe(&self, _position: usize) -> EventSet {
        EventSet::FIXED
    }

    fn uses_notify(&self) -> bool {
        true
    }

    /// Queues the constraint when `r` became true, some `lᵢ` false (remembered in a cell), or a
    /// watched literal of the long clause false.
    fn notify(&self, position: usize, _events: EventSet, ctx: &mut PropagationCtx<'_>) -> bool {
        if !ctx.get(self.initialised) {
            return true;
        }
        let check = ctx.as_check();
        let mut wake = false;
        let mut false_seen = false;
        for &i in &self.by_slot[position] {
            let lit = self.long[i];
            match (i, lit.status(&self.scope, &check)) {
                (0, Some(true)) => wake = true,
                // The long clause holds ¬lᵢ: it is true when lᵢ is false.
                (_, Some(true)) => false_seen = true,
                _ => {}
            }
        }
        wake |= self.watches().woken(position, &check);
        if false_seen {
            ctx.set(self.false_seen, true);
        }
        wake || false_seen
    }

    fn priority(&self) -> Priority {
        Priority::High
    }

    // Value enumeration.
    /// The revision, whose cells the store's notifications keep exact under forward checking too.
    fn forward_check(&self, _var: VarId, ctx: &mut PropagationCtx<'_>) -> Result<(), Wipeout> {
        self.revise(ctx)
    }
}

/// `x₁ ⊕ x₂ ⊕ … ⊕ xₙ = parity`: FlatZinc's `array_bool_xor(as)` (odd), `bool_xor(a, b)` (odd),
/// `bool_not(a, b)` (odd), `bool_xor(a, b, r)` (`a ⊕ b ⊕ r` even) and `bool_eq_reif(a, b, r)` (`a ⊕ b ⊕ r`
/// odd).
///
/// Consistency: domain consistent. A variable named twice cancels out (`x ⊕ x = 0`). Trailed cells
/// count the unfixed variables and the parity of the fixed ones, so each fixing costs O(1) and the
/// revision runs only once at most one variable is left, to fix it.
#[derive(Debug, Clone)]
pub struct Parity {
    scope: Vec<VarId>,
    odd: bool,
    /// Whether the count describes the domains ...
    initialised: Slot<bool>,
    /// ... whether the domains were cut to Booleans ...
    booleanised: Slot<bool>,
    /// ... how many variables are unfixed ...
    unfixed: Slot<i64>,
    /// ... the parity of the fixed ones ...
    sum: Slot<i64>,
    /// ... and a flag per variable, set once it is counted as fixed.
    counted: Slots<bool>,
}

impl Parity {
    /// The exclusive or of `vars` is 1 when `odd`, 0 otherwise.
    pub fn new(vars: &[VarId], odd: bool) -> Constructor<Self> {
        let mut count: HashMap<VarId, usize> = HashMap::new();
        let mut order = Vec::new();
        for &v in vars {
            let c = count.entry(v).or_insert(0);
            if *c == 0 {
                order.push(v);
            }
            *c += 1;
        }
        Parity::laid_out(
            order.into_iter().filter(|v| count[v] % 2 == 1).collect(),
            odd,
        )
    }

    fn laid_out(scope: Vec<VarId>, odd: bool) -> Constructor<Self> {
        Constructor::new(move |state: &mut PostCtx| {
            Ok(Parity {
                initialised: state.slot(),
                booleanised: state.slot(),
                unfixed: state.slot(),
                sum: state.slot(),
                counted: state.slots(scope.len()),
                scope,
                odd,
            })
        })
    }

    /// From the domains alone: with every variable fixed the parity must be right; with one left, it
    /// is fixed to make it right.
    fn filter(&self, ctx: &mut PropagationCtx<'_>) -> Result<(), Wipeout> {
        let mut free = None;
        let mut sum = 0i64;
        for &v in &self.scope {
            match ctx.fixed_value(v) {
                Some(x) => sum ^= i64::from(x != 0),
                None if free.is_none() => free = Some(v),
                None => return Ok(()),
            }
        }
        let wanted = i64::from(self.odd);
        match free {
            Some(v) => ctx.fix(v, wanted ^ sum).map(drop),
            None if sum == wanted => Ok(()),
            None => Err(Wipeout),
        }
    }

    fn initialise(&self, ctx: &mut PropagationCtx<'_>) {
        let (mut unfixed, mut sum) = (0, 0);
        for (i, &v) in self.scope.iter().enumerate() {
            match ctx.fixed_value(v) {
                Some(x) => {
                    sum ^= i64::from(x != 0);
                    ctx.set(self.counted.at(i), true);
                }
                None => {
                    unfixed += 1;
                    ctx.set(self.counted.at(i), false);
                }
            }
        }
        ctx.set(self.unfixed, unfixed);
        ctx.set(self.sum, sum);
        ctx.set(self.initialised, true);
    }
}

impl Constraint for Parity {
    fn scope(&self) -> &[VarId] {
        &self.scope
    }

    fn is_satisfied(&self, values: &[i32]) -> bool {
        all_boolean(values) && (values.iter().filter(|&&v| v == 1).count() % 2 == 1) == self.odd
    }
}

impl Parity {
    /// Pushes the values of every scope variable but `skip`, all fixed in `ctx`, and returns
    /// their parity (true: odd); `None`, with `reasons` as they were, if one is open.
    fn push_fixed(
        &self,
        skip: Option<VarId>,
        ctx: &crate::ExplainCtx<'_>,
        reasons: &mut Vec<crate::Literal>,
    ) -> Option<bool> {
        let start = reasons.len();
        let mut odd = false;
        for &v in &self.scope {
            if Some(v) == skip {
                continue;
            }
            match ctx.bounds(v) {
                (lo, hi) if lo == hi => {
                    odd ^= lo != 0;
                    reasons.push(crate::Literal::eq(v, lo));
                }
                _ => {
                    reasons.truncate(start);
                    return None;
                }
            }
        }
        Some(odd)
    }
}

impl Propagator for Parity {
    /// The last variable fixed by the values of all the others.
    fn explain(
        &self,
        literal: crate::Literal,
        ctx: &crate::ExplainCtx<'_>,
        reasons: &mut Vec<crate::Literal>,
    ) -> bool {
        if !self.scope.contains(&literal.var) {
            return false;
        }
        if is_boolean_cut(literal, ctx) {
            return true;
        }
        let start = reasons.len();
        match self.push_fixed(Some(literal.var), ctx, reasons) {
            Some(odd) if literal.holds_for(i32::from(odd != self.odd)) => true,
            Some(_) => {
                reasons.truncate(start);
                false
            }
            None => false,
        }
    }

    /// A variable left without a Boolean value, or every variable fixed to the wrong parity.
    fn explain_failure(
        &self,
        ctx: &crate::ExplainCtx<'_>,
        reasons: &mut Vec<crate::Literal>,
    ) -> bool {
        if explain_not_boolean(&self.scope, ctx, reasons) {
            return true;
        }
        let start = reasons.len();
        match self.push_fixed(None, ctx, reasons) {
            Some(odd) if odd != self.odd => true,
            Some(_) => {
                reasons.truncate(start);
                false
            }
            None => false,
        }
    }

    /// The cells only decide when to run: with at most one variable left unfixed by their count, the
    /// revision counts again from the domains.
    fn revise(&self, ctx: &mut PropagationCtx<'_>) -> Result<(), Wipeout> {
        if !ctx.get(self.booleanised) {
            booleanise(&self.scope, ctx)?;
            ctx.set(self.booleanised, true);
        }
        if !ctx.get(self.initialised) {
            self.initialise(ctx);
        }
        if ctx.get(self.unfixed) >= 2 {
            return Ok(());
        }
        self.filter(ctx)
    }

    fn subscribe(&self, _position: usize) -> EventSet {
        EventSet::FIXED
    }

    fn uses_notify(&self) -> bool {
        true
    }

    fn notify(&self, position: usize, _events: EventSet, ctx: &mut PropagationCtx<'_>) -> bool {
        if !ctx.get(self.initialised) {
            self.initialise(ctx);
        } else if !ctx.get(self.counted.at(position))
            && let Some(x) = ctx.fixed_value(self.scope[position])
        {
            ctx.set(self.counted.at(position), true);
            ctx.add(self.unfixed, -1);
            let sum = ctx.get(self.sum) ^ i64::from(x != 0);
            ctx.set(self.sum, sum);
        }
        ctx.get(self.unfixed) <= 1
    }

    fn priority(&self) -> Priority {
        Priority::High
    }

    fn negation(&self) -> Option<Box<dyn crate::Post>> {
        Some(Box::new(Parity::laid_out(self.scope.clone(), !self.odd)))
    }

    // Value enumeration.
    /// The filter, which counts from the domains.
    fn forward_check(&self, _var: VarId, ctx: &mut PropagationCtx<'_>) -> Result<(), Wipeout> {
        self.filter(ctx)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_variable_named_twice_cancels_out_of_a_parity() {
        let [a, b] = [VarId::from_index(0), VarId::from_index(1)];
        let parity = Parity::new(&[a, b, a], true)
            .build(&mut PostCtx::new())
            .unwrap();
        assert_eq!(parity.scope(), &[b]);
    }

    #[test]
    fn a_clause_with_both_signs_of_a_variable_always_holds() {
        let [a, b] = [VarId::from_index(0), VarId::from_index(1)];
        let clause = Clause::new(&[a, b], &[a])
            .build(&mut PostCtx::new())
            .unwrap();
        assert!(clause.is_satisfied(&[0, 0]));
        assert!(!clause.is_satisfied(&[2, 0]), "only Booleans");
    }
}
