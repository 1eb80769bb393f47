use crate::Domains;
use crate::{
    CheckCtx, Constraint, Constructor, EventSet, ExplainCtx, Literal, ModelError, Post, PostCtx,
    PropagationCtx, Propagator, Slots, VarId, Wipeout, revision::Priority,
};

/// The widest range between a variable's bounds whose missing values [`explain_by_domains`]
/// lists.
const DOMAIN_BUDGET: i64 = 1 << 12;

/// Pushes the domains of `vars` in `ctx` as literals (both bounds, and each value missing between
/// them) and returns true: the explanation that is sound for any inference of any constraint over
/// `vars`, and the one the learner itself falls back on. Returns false, with `reasons` as they
/// were, when a domain with holes spans more than [`DOMAIN_BUDGET`] values.
pub(crate) fn explain_by_domains(
    vars: &[VarId],
    ctx: &ExplainCtx<'_>,
    reasons: &mut Vec<Literal>,
) -> bool {
    let start = reasons.len();
    for &var in vars {
        let (lo, hi) = ctx.bounds(var);
        reasons.push(Literal::ge(var, lo));
        reasons.push(Literal::le(var, hi));
        if !ctx.has_holes(var) {
            continue;
        }
        if i64::from(hi) - i64::from(lo) > DOMAIN_BUDGET {
            reasons.truncate(start);
            return false;
        }
        for value in lo..=hi {
            if !ctx.contains_within(var, value, (lo, hi)) {
                reasons.push(Literal::ne(var, value));
            }
        }
    }
    true
}

/// How a [`Reified`] constraint ties its Boolean to the constraint it wraps.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reification {
    /// `b ↔ C`: the Boolean is true exactly when the constraint holds (FlatZinc's `_reif`).
    Equivalent,
    /// `b → C`: when the Boolean is true the constraint holds (FlatZinc's `_imp`, half-reification).
    Implies,
}

/// Any constraint reified by a 0/1 variable: `b ↔ C` or `b → C`, with no code of the wrapped constraint
/// written for it.
///
/// Propagation, following the usual generic scheme (as in Gecode and Pumpkin):
/// - `b = 1`: the wrapped constraint propagates as if posted alone.
/// - `b = 0` (equivalence only): its [negation](Propagator::negation) propagates, if it has one;
///   otherwise the reification fails once the constraint is [entailed](Propagator::entailment).
/// - `b` unfixed: the constraint's entailment fixes `b` (disentailed: `b = 0`; entailed, for an
///   equivalence: `b = 1`).
///
/// The wrapped constraint is kept informed of every change it subscribes to ([`Propagator::notify`])
/// whatever `b` is, so its incremental state is exact when `b` becomes 1.
#[derive(Debug)]
pub struct Reified {
    /// `b`, then the wrapped constraint's scope.
    scope: Vec<VarId>,
    inner: Box<dyn Propagator>,
    /// The wrapped constraint's negation, for an equivalence whose constraint has one.
    negation: Option<Box<dyn Propagator>>,
    /// Where each variable of `scope[1..]` stands in the negation's scope.
    negation_positions: Vec<usize>,
    mode: Reification,
    /// The wrapped constraint's state ...
    inner_state: Slots<i64>,
    /// ... and its negation's.
    negation_state: Slots<i64>,
}

impl Reified {
    /// `b ↔ constraint` or `b → constraint`, as `mode` says. `b` must not be in the constraint's
    /// scope (posting refuses it otherwise); its domain is cut to `{0, 1}` when search starts. The
    /// wrapped constraint, and for an equivalence its negation, are posted with the reification,
    /// their state laid out in its own.
    pub fn new(b: VarId, constraint: Box<dyn Post>, mode: Reification) -> Constructor<Self> {
        Constructor::new(move |ctx: &mut PostCtx| {
            let (constraint, inner_state) = ctx.nested(|ctx| constraint.post(ctx))?;
            if constraint.scope().contains(&b) {
                return Err(ModelError::InvalidConstraint {
                    constraint: format!("reification of {constraint:?}"),
                    reason: format!("the Boolean {b:?} is in the reified constraint's scope"),
                });
            }
            let negation = match mode {
                Reification::Equivalent => constraint.negation(),
                Reification::Implies => None,
            };
            let (negation, negation_state) = match negation {
                Some(negation) => {
                    let (negation, state) = ctx.nested(|ctx| negation.post(ctx))?;
                    (Some(negation), state)
                }
                None => (None, ctx.slots(0)),
            };
            // A negation must relate the same variables; one that does not is not used.
            let positions: Option<Vec<usize>> = negation.as_ref().and_then(|n| {
                (n.scope().len() == constraint.scope().len())
                    .then(|| {
                        constraint
                            .scope()
                            .iter()
                            .map(|v| n.scope().iter().position(|w| w == v))
                            .collect()
                    })
                    .flatten()
            });
            let (negation, negation_positions) = match positions {
                Some(positions) => (negation, positions),
                None => (None, Vec::new()),
            };
            let mut scope = Vec::with_capacity(constraint.scope().len() + 1);
            scope.push(b);
            scope.extend_from_slice(constraint.scope());
            Ok(Reified {
                scope,
                inner_state,
                negation_state,
                inner: constraint,
                negation,
                negation_positions,
                mode,
            })
        })
    }

    /// `b ↔ constraint`.
    pub fn equivalent(b: VarId, constraint: impl Post + 'static) -> Constructor<Self> {
        Self::new(b, Box::new(constraint), Reification::Equivalent)
    }

    /// `b → constraint`.
    pub fn implies(b: VarId, constraint: impl Post + 'static) -> Constructor<Self> {
        Self::new(b, Box::new(constraint), Reification::Implies)
    }

    fn b(&self) -> VarId {
        self.scope[0]
    }

    /// What the constraint holding means for `b` under the mode, given the constraint's truth.
    fn b_follows(&self, holds: bool) -> Option<i64> {
        match (self.mode, holds) {
            (Reification::Equivalent, true) => Some(1),
            (_, false) => Some(0),
            (Reification::Implies, true) => None,
        }
    }
}

impl Constraint for Reified {
    fn scope(&self) -> &[VarId] {
        &self.scope
    }

    fn is_satisfied(&self, values: &[i32]) -> bool {
        let holds = self.inner.is_satisfied(&values[1..]);
        match (self.mode, values[0]) {
            (Reification::Equivalent, 0) => !holds,
            (Reification::Implies, 0) => true,
            (_, 1) => holds,
            _ => false,
        }
    }
}

impl Propagator for Reified {
    fn revise(&self, ctx: &mut PropagationCtx<'_>) -> Result<(), Wipeout> {
        let b = self.b();
        ctx.restrict_bounds(b, 0, 1)?;
        if ctx.fixed_value(b).is_none() {
            let entailment = self
                .inner
                .entailment(&ctx.as_check().inner(self.inner_state));
            match entailment.and_then(|holds| self.b_follows(holds)) {
                Some(value) => {
                    ctx.fix(b, value)?;
                }
                None => return Ok(()),
            }
        }
        match ctx.fixed_value(b) {
            Some(1) => self.inner.revise(&mut ctx.inner(self.inner_state)),
            Some(_) if self.mode == Reification::Implies => Ok(()),
            _ => match &self.negation {
                Some(negation) => negation.revise(&mut ctx.inner(self.negation_state)),
                None => {
                    let entailed = self
                        .inner
                        .entailment(&ctx.as_check().inner(self.inner_state));
                    if entailed == Some(true) {
                        Err(Wipeout)
                    } else {
                        Ok(())
                    }
                }
            },
        }
    }

    /// `b` when it is fixed; each other variable for every change. The wrapped constraint subscribes
    /// to what its own revision reads, but its entailment may read more (a comparison with a
    /// constant revises once, yet its truth follows every bound), and a change that settles the
    /// entailment must wake the reification, or `b` would stay open at a fixpoint.
    fn subscribe(&self, position: usize) -> EventSet {
        if position == 0 {
            EventSet::FIXED
        } else {
            EventSet::ANY
        }
    }

    fn uses_notify(&self) -> bool {
        self.inner.uses_notify() || self.negation.as_ref().is_some_and(|n| n.uses_notify())
    }

    fn notify(&self, position: usize, events: EventSet, ctx: &mut PropagationCtx<'_>) -> bool {
        // The wrapped constraints hear only of the changes they subscribe to, as if posted alone.
        if position > 0 {
            let inner_events = events & self.inner.subscribe(position - 1);
            if self.inner.uses_notify() && !inner_events.is_empty() {
                self.inner
                    .notify(position - 1, inner_events, &mut ctx.inner(self.inner_state));
            }
            if let Some(negation) = &self.negation
                && negation.uses_notify()
            {
                let at = self.negation_positions[position - 1];
                let negation_events = events & negation.subscribe(at);
                if !negation_events.is_empty() {
                    negation.notify(at, negation_events, &mut ctx.inner(self.negation_state));
                }
            }
        }
        true
    }

    fn priority(&self) -> Priority {
        self.inner.priority()
    }

    /// A change of the wrapped constraint's variables, made while `b` was fixed, by the wrapped
    /// constraint's explanation (`b = 1`) or its negation's (`b = 0`), with `b`'s value. A change
    /// of `b` itself follows from the constraint's truth in the domains just before it: `b = 0`
    /// from its disentailment, explained as the wrapped constraint's failure there
    /// ([`Propagator::explain_failure`]); `b = 1` from its entailment, explained as its
    /// negation's failure. Where the wrapped constraint (or its negation) has no explanation of
    /// its own, the domains of its scope explain the change (`explain_by_domains`), as the
    /// learner's default would, but without giving up the explanations the wrapped constraint
    /// has.
    fn explain(&self, literal: Literal, ctx: &ExplainCtx<'_>, reasons: &mut Vec<Literal>) -> bool {
        let b = self.b();
        let (lo, hi) = ctx.bounds(b);
        let inner_scope = &self.scope[1..];
        let start = reasons.len();
        if literal.var == b {
            if lo < 0 || hi > 1 {
                // `b`'s cut to `0..=1`, which the reification makes alone.
                return true;
            }
            // A literal on `b` says `b = 1` (the constraint is entailed) or `b = 0` (it is
            // disentailed).
            let explained = match (literal.holds_for(0), literal.holds_for(1)) {
                (true, true) => return true,
                (false, true) => self
                    .negation
                    .as_ref()
                    .is_some_and(|negation| negation.explain_failure(ctx, reasons)),
                (true, false) => self.inner.explain_failure(ctx, reasons),
                (false, false) => false,
            };
            if !explained {
                reasons.truncate(start);
                return explain_by_domains(inner_scope, ctx, reasons);
            }
            return true;
        }
        let explained = match (lo, hi) {
            (1, 1) => self.inner.explain(literal, ctx, reasons),
            (0, 0) if self.mode == Reification::Equivalent => self
                .negation
                .as_ref()
                .is_some_and(|negation| negation.explain(literal, ctx, reasons)),
            _ => return false,
        };
        if !explained {
            reasons.truncate(start);
            if !explain_by_domains(inner_scope, ctx, reasons) {
                return false;
            }
        }
        reasons.push(Literal::eq(b, lo));
        true
    }

    /// A failure while `b` is fixed is the failure of what must hold: the wrapped constraint's
    /// (`b = 1`), or its negation's (`b = 0`), with `b`'s value. Where that has no explanation of
    /// its own (and always for `b = 0` without a negation, which fails on the constraint's
    /// entailment), the domains of the wrapped constraint's scope explain it.
    fn explain_failure(&self, ctx: &ExplainCtx<'_>, reasons: &mut Vec<Literal>) -> bool {
        let b = self.b();
        let start = reasons.len();
        let explained = match ctx.bounds(b) {
            (1, 1) => self.inner.explain_failure(ctx, reasons),
            (0, 0) if self.mode == Reification::Equivalent => self
                .negation
                .as_ref()
                .is_some_and(|negation| negation.explain_failure(ctx, reasons)),
            _ => return explain_by_domains(&self.scope, ctx, reasons),
        };
        if !explained {
            reasons.truncate(start);
            if !explain_by_domains(&self.scope[1..], ctx, reasons) {
                return false;
            }
        }
        reasons.push(Literal::eq(b, ctx.lb(b)));
        true
    }

    fn entailment(&self, ctx: &CheckCtx<'_>) -> Option<bool> {
        let holds = self.inner.entailment(&ctx.inner(self.inner_state));
        match (self.mode, ctx.fixed_value(self.b())) {
            (Reification::Implies, Some(0)) => Some(true),
            (_, Some(1)) => holds,
            (Reification::Equivalent, Some(0)) => holds.map(|h| !h),
            _ => None,
        }
    }

    // Value enumeration.
    fn on_assign(&self, var: VarId, value: i32, ctx: &mut PropagationCtx<'_>) {
        if var == self.b() {
            return;
        }
        self.inner
            .on_assign(var, value, &mut ctx.inner(self.inner_state));
        if let Some(negation) = &self.negation {
            negation.on_assign(var, value, &mut ctx.inner(self.negation_state));
        }
    }
}
