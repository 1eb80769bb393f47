//! The constraint interface, split by role. [`Constraint`] is the checker every constraint is;
//! the roles it may add are [`Propagator`] (the propagator with its explanations, for search that
//! propagates to a fixpoint and for learning), [`ValueEnumeration`] (the hooks of value-enumeration
//! search: check-past and forward checking) and [`LocalSearch`] (conflict counting for
//! min-conflicts). Each role is optional: a constraint without it is served by the checker's
//! defaults, which are correct if slow. The engine asks any constraint through the methods on
//! `dyn Constraint` below, which answer by the role when there is one and by the default otherwise.
//!
//! The roles name the checker and the checker names its roles, so they live together.

use std::fmt;

use smallvec::SmallVec;

use crate::lines::LineRule;
use crate::{CheckCtx, EventSet, ExplainCtx, Literal, Priority, PropagationCtx, VarId, Wipeout};

/// A relation over some variables: the checker, and the roles it offers search.
///
/// Only [`scope`](Constraint::scope) and [`is_satisfied`](Constraint::is_satisfied) are required,
/// so a new constraint is right before it is fast. It then offers roles to be fast, each through
/// its accessor, and tests compare each role against the checker:
///
/// - [`Propagator`] ([`propagator`](Constraint::propagator)): propagation to a fixpoint (MAC and
///   every search by decisions), entailment and negation for reification, and explanations for
///   learning. Without it, [`generic_revise`] enforces arc consistency from the checker on small
///   domains.
/// - [`ValueEnumeration`] ([`value_enumeration`](Constraint::value_enumeration)): Stone & Stone's
///   LEX and MIN, the N-queens experiments, by check-past or forward checking. Without it, both
///   wait until at most one scope variable is unassigned and ask the checker.
/// - [`LocalSearch`] ([`local_search`](Constraint::local_search)): conflict counting for
///   min-conflicts. Without it, a constraint counts one conflict when the checker refuses.
///
/// A constraint is immutable during search. Incremental state (counters, supports, running sums)
/// lives in the [`Store`](crate::Store), in the slots of a [`StateLayout`](crate::StateLayout) that
/// the constraint lays out when it is built and reads and writes through the contexts: every write
/// is trailed, so undoing a decision restores the state with no code in the constraint. This is why
/// a [`crate::Model`] can be searched many times, or by several threads at once.
///
/// # Example
///
/// At most one of some 0/1 variables is 1: the checker, and a propagator that clears the others
/// once one is fixed to 1.
///
/// ```
/// use csp_core::{
///     Constraint, Domains, EventSet, ModelBuilder, PropagationCtx, Propagator, Store, VarId, Wipeout,
/// };
///
/// #[derive(Debug)]
/// struct AtMostOne(Vec<VarId>);
///
/// impl Constraint for AtMostOne {
///     fn scope(&self) -> &[VarId] {
///         &self.0
///     }
///
///     fn is_satisfied(&self, values: &[i32]) -> bool {
///         values.iter().filter(|&&v| v == 1).count() <= 1
///     }
///
///     fn propagator(&self) -> Option<&dyn Propagator> {
///         Some(self)
///     }
/// }
///
/// impl Propagator for AtMostOne {
///     fn revise(&self, ctx: &mut PropagationCtx<'_>) -> Result<(), Wipeout> {
///         let ones: Vec<VarId> = self.0.iter().copied().filter(|&v| ctx.lb(v) == 1).collect();
///         match ones.as_slice() {
///             [] => Ok(()),
///             [one] => self.0.iter().filter(|&v| v != one).try_for_each(|&v| ctx.fix(v, 0).map(drop)),
///             _ => Err(Wipeout),
///         }
///     }
///
///     fn subscribe(&self, _position: usize) -> EventSet {
///         EventSet::FIXED
///     }
/// }
///
/// let mut builder = ModelBuilder::new();
/// let vars: Vec<VarId> = (0..3).map(|i| builder.bool_var(format!("b{i}"))).collect::<Result<_, _>>()?;
/// builder.post(AtMostOne(vars.clone()))?;
/// let model = builder.build();
/// let mut store = Store::new(&model);
/// store.set_bounds(vars[1], 1, 1).expect("b1 can be 1");
/// assert!(store.establish_arc_consistency(&model).is_ok());
/// assert_eq!(store.domain(vars[0]).fixed_value(), Some(0));
/// assert_eq!(store.domain(vars[2]).fixed_value(), Some(0));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub trait Constraint: fmt::Debug + Send + Sync {
    /// The variables the constraint relates, in the order [`is_satisfied`](Constraint::is_satisfied)
    /// reads their values. A variable appears at most once.
    fn scope(&self) -> &[VarId];

    /// The checker: whether `values` (one per scope variable, in scope order) satisfy the constraint.
    /// Keep it obviously correct; it is the reference for everything else.
    fn is_satisfied(&self, values: &[i32]) -> bool;

    /// How many `i64` cells the constraint's trailed state takes in a [`Store`](crate::Store): the
    /// [`len`](crate::StateLayout::len) of the layout it built its state slots in (all zero at the
    /// start). Default: none.
    fn state_size(&self) -> usize {
        0
    }

    /// The constraint's propagator, if it has one (see [`Propagator`]).
    fn propagator(&self) -> Option<&dyn Propagator> {
        None
    }

    /// The constraint's value-enumeration hooks, if it has its own (see [`ValueEnumeration`]).
    fn value_enumeration(&self) -> Option<&dyn ValueEnumeration> {
        None
    }

    /// The constraint's local-search hooks, if it has its own (see [`LocalSearch`]).
    fn local_search(&self) -> Option<&dyn LocalSearch> {
        None
    }
}

/// The propagator role: what search that propagates to a fixpoint asks of a constraint (MAC, and
/// every search by decisions), with entailment and negation for reification and explanations for
/// learning. Every method has a default from the checker; a propagator overrides
/// [`revise`](Propagator::revise) at least.
///
/// Whenever a scope variable's domain changes in a way the constraint
/// [subscribes](Propagator::subscribe) to, the store [notifies](Propagator::notify) it (under
/// forward checking too, so state kept by `notify` is always exact) and, when `notify` asks, queues
/// it by [priority](Propagator::priority); its [`revise`](Propagator::revise) then runs until no
/// constraint changes anything.
pub trait Propagator: Constraint {
    /// The propagator: remove from the scope's domains values that take part in no solution of the
    /// constraint (or only bounds, for bounds reasoning), and fail if none is left. Search calls it
    /// when a change the constraint [subscribes](Propagator::subscribe) to happened, at the root and
    /// after every decision, until no constraint changes anything more.
    ///
    /// Contract:
    /// - It must be *sound*: remove only values without support.
    /// - It must be *checker-complete*: when every scope variable is fixed, it fails exactly when
    ///   [`is_satisfied`](Constraint::is_satisfied) refuses the values. (So search by decisions needs
    ///   no other test of a solution.)
    /// - It must reach its own fixpoint: a second call with no domain change in between changes
    ///   nothing, so search does not queue a constraint again for its own changes.
    /// - It must not rely on [`ValueEnumeration::on_assign`]: variables fixed by propagation are
    ///   never assigned. It may rely on [`notify`](Propagator::notify) for every subscribed change.
    ///
    /// Its strength may be anything from bounds reasoning to generalised arc consistency; each built-in
    /// documents its own. The default is [`generic_revise`].
    fn revise(&self, ctx: &mut PropagationCtx<'_>) -> Result<(), Wipeout> {
        generic_revise(self, ctx)
    }

    /// Which changes to the domain of the scope variable at `position` (an index into
    /// [`scope`](Constraint::scope)) can give [`revise`](Propagator::revise) something to do. Default:
    /// every change. A constraint must not subscribe to less than its revision needs: a change it is not
    /// woken by must never leave it with values to remove, nor with a violation to report.
    fn subscribe(&self, position: usize) -> EventSet {
        let _ = position;
        EventSet::ANY
    }

    /// A subscribed change happened to the scope variable at `position`: `events` says which (see
    /// [`EventSet`]); the variable's domain already shows its new state. Update incremental state here
    /// (a running sum of bounds, say) and return whether the constraint should be queued for
    /// [`revise`](Propagator::revise). The default queues it every time.
    ///
    /// Called for every subscribed change, whoever made it: a decision, another constraint's
    /// revision or forward checking, and the constraint's own changes (after its `revise` or
    /// [`forward_check`](ValueEnumeration::forward_check) returns), so that state it keeps about the
    /// domains stays exact; its own changes never queue it again. Before the first call the state
    /// is as the store starts it (all zero), which `notify` must accept.
    fn notify(&self, position: usize, events: EventSet, ctx: &mut PropagationCtx<'_>) -> bool {
        let _ = (position, events, ctx);
        true
    }

    /// Whether [`notify`](Propagator::notify) does anything but return `true`. Search calls `notify`
    /// only for constraints that say so, sparing the others a call per change. Default: `false`.
    fn uses_notify(&self) -> bool {
        false
    }

    /// When a woken constraint runs relative to others (see [`Priority`]). Default: medium.
    fn priority(&self) -> Priority {
        Priority::Medium
    }

    /// Whether the constraint holds in every assignment of the current domains (`Some(true)`, it is
    /// entailed), in none (`Some(false)`, disentailed), or neither is known (`None`). It may answer
    /// `None` whenever it does not know, but must never answer wrongly. The default,
    /// [`checker_entailment`], asks the checker once every scope variable is fixed.
    fn entailment(&self, ctx: &CheckCtx<'_>) -> Option<bool> {
        checker_entailment(self, ctx)
    }

    /// The constraint's negation over the same scope, if it has a propagator worth posting: what a
    /// reified constraint propagates when its Boolean is false (`x ≤ y` gives `x > y`, say). Default:
    /// none, and the reification then waits for [`entailment`](Propagator::entailment) to fail.
    fn negation(&self) -> Option<Box<dyn Constraint>> {
        None
    }

    /// Why this constraint's propagator made `literal` true, for search that learns from failure
    /// ([`crate::Store::enable_change_log`]): pushes literals that held just before the change (read
    /// the domains of that moment from `ctx`) and that, with the constraint, imply `literal`, then
    /// returns true. A bound literal may be explained by a weaker bound: the learner adds the
    /// values removed between them itself.
    ///
    /// Default: no explanation of its own (false), and the learner explains the change by the
    /// domains of the whole scope, which is always sound but makes longer, less general clauses.
    fn explain(&self, literal: Literal, ctx: &ExplainCtx<'_>, reasons: &mut Vec<Literal>) -> bool {
        let _ = (literal, ctx, reasons);
        false
    }

    /// Why this constraint's propagator failed without a change the store refused (an emptied
    /// table, no matching for all-different, a cumulative overload): pushes literals that held at
    /// the failure (read the domains of that moment from `ctx`, the end of the log) and that the
    /// constraint cannot satisfy together, then returns true.
    ///
    /// A failure by a refused change ([`crate::Store::take_failure`]) is explained through
    /// [`explain`](Propagator::explain) of that change instead, and needs nothing here.
    ///
    /// Default: no explanation of its own (false), and the learner explains the failure by the
    /// domains of the whole scope.
    fn explain_failure(&self, ctx: &ExplainCtx<'_>, reasons: &mut Vec<Literal>) -> bool {
        let _ = (ctx, reasons);
        false
    }
}

/// The value-enumeration role: the hooks of search that assigns one variable at a time (Stone &
/// Stone's LEX and MIN, the N-queens experiments). Search assigns a variable and tells the
/// constraint ([`on_assign`](ValueEnumeration::on_assign)), then either asks
/// [`check`](ValueEnumeration::check) of the next variable's values (Dijkstra's test, check-past)
/// or lets [`forward_check`](ValueEnumeration::forward_check) prune the unassigned variables.
/// Every method has a default from the checker.
pub trait ValueEnumeration: Constraint {
    /// `var` (in scope) was just assigned `value` by a search decision: bring the constraint's
    /// value-enumeration state up to date. Called under every propagation level, before
    /// [`check`](ValueEnumeration::check) or [`forward_check`](ValueEnumeration::forward_check) see
    /// the new assignment. (A variable fixed by propagation rather than assigned is not reported
    /// here; a propagator learns of both through [`Propagator::notify`].)
    fn on_assign(&self, var: VarId, value: i32, ctx: &mut PropagationCtx<'_>) {
        let _ = (var, value, ctx);
    }

    /// Dijkstra's test: could `var = value` stand beside the variables assigned so far? `var` itself
    /// is unassigned. The default, [`checker_check`], completes the scope only when every other
    /// variable is assigned.
    fn check(&self, var: VarId, value: i32, ctx: &CheckCtx<'_>) -> bool {
        checker_check(self, var, value, ctx)
    }

    /// [`check`](ValueEnumeration::check) for many values at once: moves the values of `values`
    /// that pass to the front, keeping their order, and returns how many passed. The default calls
    /// `check` once per value; a constraint overrides it when one tight loop is cheaper.
    fn retain_consistent(&self, var: VarId, values: &mut [i32], ctx: &CheckCtx<'_>) -> usize {
        let mut kept = 0;
        for i in 0..values.len() {
            let value = values[i];
            if self.check(var, value, ctx) {
                values[kept] = value;
                kept += 1;
            }
        }
        kept
    }

    /// Whether [`check`](ValueEnumeration::check) decomposes into pairs. If it does, then whenever
    /// the assigned variables are consistent, `check(var, value)` holds exactly when it holds with no
    /// variable assigned and with each assigned variable alone.
    ///
    /// Search may then work out each pair's relation once, as bit masks, and combine masks instead
    /// of calling `check`. Knuth's probes under check-past do this (`csp_search::knuth_probes`).
    ///
    /// Which constraints decompose:
    /// - Binary constraints do, if their check is monotone: it refuses a value under a partial
    ///   assignment only when every extension refuses it too.
    /// - All-different and the queens constraint do.
    /// - A sum over three or more variables does not.
    ///
    /// The default, `false`, is always safe.
    fn check_is_pairwise(&self) -> bool {
        false
    }

    /// Forward checking: `var` was just assigned. Remove from the unassigned variables of the scope
    /// the values that cannot stand beside the assigned ones, and fail if the assigned variables
    /// already violate the constraint or a domain empties.
    ///
    /// The default, [`checker_forward_check`], waits until at most one scope variable is
    /// unassigned, then filters that variable's domain with the checker (or checks the complete
    /// scope).
    fn forward_check(&self, var: VarId, ctx: &mut PropagationCtx<'_>) -> Result<(), Wipeout> {
        checker_forward_check(self, var, ctx)
    }

    /// The constraint as rows and lines (see [`LineRule`]), if it is one: then a store searched by
    /// forward checking may keep the constraint's forward checking itself, with a bit per line
    /// in place of removed values ([`Store::keep_lines`](crate::Store::keep_lines)). Offer it only
    /// if [`forward_check`](ValueEnumeration::forward_check) removes exactly what the rule says.
    fn lines(&self) -> Option<LineRule> {
        None
    }
}

/// The engine's view of a constraint: each question answered by the role that offers it, else by
/// the checker's default. Search, the store and wrappers such as
/// [`crate::constraints::Reified`] ask through these, never through a role directly, so that a
/// constraint without a role is still searched correctly.
impl dyn Constraint + '_ {
    /// [`Propagator::revise`], or [`generic_revise`].
    #[inline]
    pub fn revise(&self, ctx: &mut PropagationCtx<'_>) -> Result<(), Wipeout> {
        match self.propagator() {
            Some(p) => p.revise(ctx),
            None => generic_revise(self, ctx),
        }
    }

    /// [`Propagator::subscribe`], or every change.
    pub fn subscribe(&self, position: usize) -> EventSet {
        self.propagator()
            .map_or(EventSet::ANY, |p| p.subscribe(position))
    }

    /// [`Propagator::notify`], or `true`.
    #[inline]
    pub fn notify(&self, position: usize, events: EventSet, ctx: &mut PropagationCtx<'_>) -> bool {
        self.propagator()
            .is_none_or(|p| p.notify(position, events, ctx))
    }

    /// [`Propagator::uses_notify`], or `false`.
    pub fn uses_notify(&self) -> bool {
        self.propagator().is_some_and(|p| p.uses_notify())
    }

    /// [`Propagator::priority`], or medium.
    pub fn priority(&self) -> Priority {
        self.propagator().map_or(Priority::Medium, |p| p.priority())
    }

    /// [`Propagator::entailment`], or [`checker_entailment`].
    pub fn entailment(&self, ctx: &CheckCtx<'_>) -> Option<bool> {
        match self.propagator() {
            Some(p) => p.entailment(ctx),
            None => checker_entailment(self, ctx),
        }
    }

    /// [`Propagator::negation`], or none.
    pub fn negation(&self) -> Option<Box<dyn Constraint>> {
        self.propagator().and_then(|p| p.negation())
    }

    /// [`Propagator::explain`], or no explanation of its own.
    pub fn explain(
        &self,
        literal: Literal,
        ctx: &ExplainCtx<'_>,
        reasons: &mut Vec<Literal>,
    ) -> bool {
        self.propagator()
            .is_some_and(|p| p.explain(literal, ctx, reasons))
    }

    /// [`Propagator::explain_failure`], or no explanation of its own.
    pub fn explain_failure(&self, ctx: &ExplainCtx<'_>, reasons: &mut Vec<Literal>) -> bool {
        self.propagator()
            .is_some_and(|p| p.explain_failure(ctx, reasons))
    }

    /// [`ValueEnumeration::on_assign`], or nothing.
    #[inline]
    pub fn on_assign(&self, var: VarId, value: i32, ctx: &mut PropagationCtx<'_>) {
        if let Some(hooks) = self.value_enumeration() {
            hooks.on_assign(var, value, ctx);
        }
    }

    /// [`ValueEnumeration::check`], or [`checker_check`].
    #[inline]
    pub fn check(&self, var: VarId, value: i32, ctx: &CheckCtx<'_>) -> bool {
        match self.value_enumeration() {
            Some(hooks) => hooks.check(var, value, ctx),
            None => checker_check(self, var, value, ctx),
        }
    }

    /// [`ValueEnumeration::retain_consistent`], or [`checker_check`] once per value.
    #[inline]
    pub fn retain_consistent(&self, var: VarId, values: &mut [i32], ctx: &CheckCtx<'_>) -> usize {
        if let Some(hooks) = self.value_enumeration() {
            return hooks.retain_consistent(var, values, ctx);
        }
        let mut kept = 0;
        for i in 0..values.len() {
            let value = values[i];
            if checker_check(self, var, value, ctx) {
                values[kept] = value;
                kept += 1;
            }
        }
        kept
    }

    /// [`ValueEnumeration::check_is_pairwise`], or `false`.
    pub fn check_is_pairwise(&self) -> bool {
        self.value_enumeration()
            .is_some_and(|hooks| hooks.check_is_pairwise())
    }

    /// [`ValueEnumeration::forward_check`], or [`checker_forward_check`].
    #[inline]
    pub fn forward_check(&self, var: VarId, ctx: &mut PropagationCtx<'_>) -> Result<(), Wipeout> {
        match self.value_enumeration() {
            Some(hooks) => hooks.forward_check(var, ctx),
            None => checker_forward_check(self, var, ctx),
        }
    }

    /// [`ValueEnumeration::lines`], or none.
    pub fn lines(&self) -> Option<LineRule> {
        self.value_enumeration().and_then(|hooks| hooks.lines())
    }
}

/// Dijkstra's test from the checker alone: the default of [`ValueEnumeration::check`]. It completes
/// the scope with `var = value` and the assigned variables' values once every other scope variable
/// is assigned, and passes any value before.
pub fn checker_check<C: Constraint + ?Sized>(
    constraint: &C,
    var: VarId,
    value: i32,
    ctx: &CheckCtx<'_>,
) -> bool {
    let mut values: SmallVec<[i32; 8]> = SmallVec::with_capacity(constraint.scope().len());
    for &v in constraint.scope() {
        if v == var {
            values.push(value);
        } else if let Some(x) = ctx.value(v) {
            values.push(x);
        } else {
            return true;
        }
    }
    constraint.is_satisfied(&values)
}

/// Forward checking from the checker alone: the default of [`ValueEnumeration::forward_check`].
/// It waits until at most one scope variable is unassigned, then removes that variable's values
/// the checker refuses (for domains of at most [`GENERIC_REVISE_BUDGET`] values), or checks the
/// complete scope.
pub fn checker_forward_check<C: Constraint + ?Sized>(
    constraint: &C,
    var: VarId,
    ctx: &mut PropagationCtx<'_>,
) -> Result<(), Wipeout> {
    let _ = var;
    let scope = constraint.scope();
    let mut free = None;
    let mut values: SmallVec<[i32; 8]> = SmallVec::with_capacity(scope.len());
    for (i, &v) in scope.iter().enumerate() {
        match ctx.value(v) {
            Some(x) => values.push(x),
            None if free.is_none() || free.map(|(_, w)| w) == Some(v) => {
                free = Some((i, v));
                values.push(0);
            }
            None => return Ok(()),
        }
    }
    let Some((_, free_var)) = free else {
        return if constraint.is_satisfied(&values) {
            Ok(())
        } else {
            Err(Wipeout)
        };
    };
    if ctx.size(free_var) > GENERIC_REVISE_BUDGET {
        return Ok(());
    }
    let candidates: SmallVec<[i32; 16]> = ctx.domain(free_var).values().collect();
    for value in candidates {
        for (slot, &v) in values.iter_mut().zip(scope) {
            if v == free_var {
                *slot = value;
            }
        }
        if !constraint.is_satisfied(&values) {
            ctx.remove(free_var, value)?;
        }
    }
    Ok(())
}

/// Entailment from the checker alone: the default of [`Propagator::entailment`]. It answers once
/// every scope variable is fixed, and `None` before.
pub fn checker_entailment<C: Constraint + ?Sized>(
    constraint: &C,
    ctx: &CheckCtx<'_>,
) -> Option<bool> {
    let mut values: SmallVec<[i32; 8]> = SmallVec::with_capacity(constraint.scope().len());
    for &var in constraint.scope() {
        values.push(ctx.domain(var).fixed_value()?);
    }
    Some(constraint.is_satisfied(&values))
}

/// The most tuples of current values [`generic_revise`] enumerates (one checker call each); a
/// constraint whose current domains hold more is left to forward checking.
pub const GENERIC_REVISE_BUDGET: u64 = 1 << 12;

/// Generalised arc consistency from the checker alone: the default of [`Propagator::revise`]. It
/// enumerates the tuples of current values, marking every value that takes part in an allowed one,
/// as long as there are at most [`GENERIC_REVISE_BUDGET`] tuples; above that it waits until there
/// are fewer, which happens at the latest when every variable is fixed.
pub fn generic_revise<C: Constraint + ?Sized>(
    constraint: &C,
    ctx: &mut PropagationCtx<'_>,
) -> Result<(), Wipeout> {
    let scope = constraint.scope();
    // The sizes first, so that a huge domain is never listed.
    let mut tuples: u64 = 1;
    for &var in scope {
        let size = ctx.size(var);
        if size == 0 {
            return Err(Wipeout);
        }
        tuples = tuples.saturating_mul(size);
        if tuples > GENERIC_REVISE_BUDGET {
            return Ok(());
        }
    }
    // Every scope variable's current values, one run after another: variable `i` owns
    // `values[starts[i]..starts[i + 1]]`.
    let mut values: SmallVec<[i32; 32]> = SmallVec::new();
    let mut starts: SmallVec<[usize; 9]> = SmallVec::new();
    for &var in scope {
        starts.push(values.len());
        values.extend(ctx.domain(var).values());
    }
    starts.push(values.len());
    let mut supported: SmallVec<[bool; 32]> = smallvec::smallvec![false; values.len()];
    let mut unsupported = values.len();
    let mut any_allowed = false;
    // An odometer over the tuples: `digits[i]` indexes variable `i`'s run.
    let mut digits: SmallVec<[usize; 8]> = smallvec::smallvec![0; scope.len()];
    let mut tuple: SmallVec<[i32; 8]> = starts[..scope.len()].iter().map(|&s| values[s]).collect();
    'tuples: loop {
        if constraint.is_satisfied(&tuple) {
            any_allowed = true;
            for (i, &digit) in digits.iter().enumerate() {
                let slot = starts[i] + digit;
                if !supported[slot] {
                    supported[slot] = true;
                    unsupported -= 1;
                }
            }
            if unsupported == 0 {
                break;
            }
        }
        let mut i = scope.len();
        loop {
            if i == 0 {
                break 'tuples;
            }
            i -= 1;
            digits[i] += 1;
            if starts[i] + digits[i] < starts[i + 1] {
                tuple[i] = values[starts[i] + digits[i]];
                break;
            }
            digits[i] = 0;
            tuple[i] = values[starts[i]];
        }
    }
    if !any_allowed {
        return Err(Wipeout);
    }
    for (i, &var) in scope.iter().enumerate() {
        if ctx.is_assigned(var) {
            continue;
        }
        for slot in starts[i]..starts[i + 1] {
            if !supported[slot] {
                ctx.remove(var, values[slot])?;
            }
        }
    }
    Ok(())
}

/// What local-search hooks may read: the complete assignment, indexed by [`VarId::index`], and the
/// constraint's own state cells.
#[derive(Debug, Clone, Copy)]
pub struct LocalCtx<'a> {
    /// The current value of every variable of the model.
    pub values: &'a [i32],
    /// The constraint's state cells, as [`LocalSearch::reset_local`] and [`LocalSearch::moved`] left
    /// them.
    pub cells: &'a [i64],
}

/// A constraint's own conflict counting for local search (min-conflicts repair in `csp-local`), with
/// incremental state in its cells. A constraint offers it through
/// [`Constraint::local_search`]; one without it counts one conflict when its checker refuses the
/// assignment ([`checker_conflicts`]).
///
/// Local search needs no undo: it changes one assignment in place, and keeps the cells current through
/// [`reset_local`](LocalSearch::reset_local) and [`moved`](LocalSearch::moved).
pub trait LocalSearch: Constraint {
    /// How many violations this constraint would count if `var` took `value`, every other variable
    /// keeping its value in `ctx`.
    fn conflicts(&self, var: VarId, value: i32, ctx: &LocalCtx<'_>) -> u32;

    /// Many values at once: adds to `conflicts[i]` what [`conflicts`](LocalSearch::conflicts) counts for
    /// `var = values[i]`. Min-conflicts scans whole domains through this; override it when one tight
    /// loop beats a call per value.
    fn add_conflicts(&self, var: VarId, values: &[i32], ctx: &LocalCtx<'_>, conflicts: &mut [u32]) {
        for (&value, total) in values.iter().zip(conflicts) {
            *total += self.conflicts(var, value, ctx);
        }
    }

    /// Every scope variable at once: adds to `conflicts[k]` what
    /// [`conflicts`](LocalSearch::conflicts) counts for the `k`-th scope variable at its current
    /// value. Min-conflicts finds its conflicted variables through this; override it when one tight
    /// loop beats a call per variable.
    fn add_scope_conflicts(&self, ctx: &LocalCtx<'_>, conflicts: &mut [u32]) {
        for (&var, total) in self.scope().iter().zip(conflicts) {
            *total += self.conflicts(var, ctx.values[var.index()], ctx);
        }
    }

    /// Rebuild the state cells from the complete assignment `values` (default: nothing).
    fn reset_local(&self, _values: &[i32], _cells: &mut [i64]) {}

    /// `var` moved from `old` to `new`; keep the state cells current (default: nothing).
    fn moved(&self, _var: VarId, _old: i32, _new: i32, _cells: &mut [i64]) {}
}

/// The conflicts of a constraint without [`LocalSearch`] hooks: 1 if its checker refuses the assignment
/// with `var = value`, else 0.
pub fn checker_conflicts(
    constraint: &dyn Constraint,
    var: VarId,
    value: i32,
    values: &[i32],
) -> u32 {
    let scope_values: SmallVec<[i32; 8]> = constraint
        .scope()
        .iter()
        .map(|&v| if v == var { value } else { values[v.index()] })
        .collect();
    u32::from(!constraint.is_satisfied(&scope_values))
}
