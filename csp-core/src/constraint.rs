//! The constraint interface: [`Constraint`], the checker every constraint is, and [`Propagator`],
//! what the engine runs for it, whose every method defaults to the checker. A constraint is posted
//! as its propagator ([`crate::ModelBuilder::post`]); one with trailed state is posted through a
//! [`crate::Constructor`] that lays the state out. The checker's defaults follow the trait.

use std::fmt;

use smallvec::SmallVec;

use crate::lines::LineRule;
use crate::state::StateLayout;
use crate::{
    CheckCtx, EventSet, ExplainCtx, Literal, ModelError, Priority, PropagationCtx, Slot, Slots,
    StateValue, VarId, Wipeout,
};

/// A relation over some variables: the checker.
///
/// Only [`scope`](Constraint::scope) and [`is_satisfied`](Constraint::is_satisfied) are asked, so
/// a new constraint is right before it is fast. What makes it fast is its [`Propagator`], every
/// method of which defaults to this checker; tests compare each method a constraint overrides
/// against the checker, which stays the independent reference.
///
/// A constraint is immutable during search. Incremental state (counters, supports, running sums)
/// lives in the [`Store`](crate::Store), in typed slots that the constraint lays out when it is
/// posted (see [`crate::Constructor`] and [`crate::PostCtx`]) and reads and writes through the
/// contexts: every write is trailed, so undoing a decision restores the state with no code in the
/// constraint. This is why a [`crate::Model`] can be searched many times, or by several threads at
/// once.
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
}

/// What the engine runs for a constraint: the one trait a posted constraint implements beside its
/// checker. Every method has a default from the checker, so `impl Propagator for C {}` posts a
/// correct (if slow) constraint, and a constraint overrides only what makes it fast. The methods
/// come in four groups, each for the searches that ask it:
///
/// - **Propagation to a fixpoint** (MAC, and every search by decisions):
///   [`revise`](Propagator::revise), with [`subscribe`](Propagator::subscribe),
///   [`notify`](Propagator::notify) and [`priority`](Propagator::priority) saying when it runs;
///   [`entailment`](Propagator::entailment) and [`negation`](Propagator::negation) for
///   reification. Without `revise`, [`generic_revise`] enforces arc consistency from the checker
///   on small domains.
/// - **Explanations** for search that learns: [`explain`](Propagator::explain) and
///   [`explain_failure`](Propagator::explain_failure). Without them the learner cites the whole
///   scope's domains, and counts the fallback.
/// - **Value enumeration** (Stone & Stone's LEX and MIN, the N-queens experiments, by check-past or
///   forward checking): [`on_assign`](Propagator::on_assign), [`check`](Propagator::check) and
///   [`forward_check`](Propagator::forward_check), with their batch and pairwise forms. Without
///   them, both wait until at most one scope variable is unassigned and ask the checker.
/// - **Local search** (min-conflicts): [`conflicts`](Propagator::conflicts) and its batch forms,
///   with [`reset_local`](Propagator::reset_local) and [`moved`](Propagator::moved) keeping
///   counters in the constraint's state. Without them, a constraint counts one conflict when the
///   checker refuses.
///
/// Whenever a scope variable's domain changes in a way the constraint
/// [subscribes](Propagator::subscribe) to, the store [notifies](Propagator::notify) it (under
/// forward checking too, so state kept by `notify` is always exact) and, when `notify` asks, queues
/// it by [priority](Propagator::priority); its [`revise`](Propagator::revise) then runs until no
/// constraint changes anything.
pub trait Propagator: Constraint {
    // Propagation to a fixpoint.

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
    /// - It must not rely on [`Propagator::on_assign`]: variables fixed by propagation are
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
    /// [`forward_check`](Propagator::forward_check) returns), so that state it keeps about the
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
    fn negation(&self) -> Option<Box<dyn Post>> {
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

    // Value enumeration.

    /// `var` (in scope) was just assigned `value` by a search decision: bring the constraint's
    /// value-enumeration state up to date. Called under every propagation level, before
    /// [`check`](Propagator::check) or [`forward_check`](Propagator::forward_check) see
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

    /// [`check`](Propagator::check) for many values at once: moves the values of `values`
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

    /// Whether [`check`](Propagator::check) decomposes into pairs. If it does, then whenever
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
    /// if [`forward_check`](Propagator::forward_check) removes exactly what the rule says.
    fn lines(&self) -> Option<LineRule> {
        None
    }

    // Local search.

    /// How many violations this constraint would count if `var` took `value`, every other variable
    /// keeping its value in `ctx`.
    fn conflicts(&self, var: VarId, value: i32, ctx: &LocalCtx<'_>) -> u32 {
        checker_conflicts(self, var, value, ctx.values)
    }

    /// Many values at once: adds to `conflicts[i]` what [`conflicts`](Propagator::conflicts) counts for
    /// `var = values[i]`. Min-conflicts scans whole domains through this; override it when one tight
    /// loop beats a call per value.
    fn add_conflicts(&self, var: VarId, values: &[i32], ctx: &LocalCtx<'_>, conflicts: &mut [u32]) {
        for (&value, total) in values.iter().zip(conflicts) {
            *total += self.conflicts(var, value, ctx);
        }
    }

    /// Every scope variable at once: adds to `conflicts[k]` what
    /// [`conflicts`](Propagator::conflicts) counts for the `k`-th scope variable at its current
    /// value. Min-conflicts finds its conflicted variables through this; override it when one tight
    /// loop beats a call per variable.
    fn add_scope_conflicts(&self, ctx: &LocalCtx<'_>, conflicts: &mut [u32]) {
        for (&var, total) in self.scope().iter().zip(conflicts) {
            *total += self.conflicts(var, ctx.values[var.index()], ctx);
        }
    }

    /// Rebuild the constraint's local-search state from the complete assignment `values`
    /// (default: nothing). Local search needs no undo: it changes one assignment in place, and
    /// keeps the state current through this and [`moved`](Propagator::moved).
    fn reset_local(&self, values: &[i32], state: &mut LocalState<'_>) {
        let _ = (values, state);
    }

    /// `var` moved from `old` to `new`; keep the local-search state current (default: nothing).
    fn moved(&self, var: VarId, old: i32, new: i32, state: &mut LocalState<'_>) {
        let _ = (var, old, new, state);
    }
}

/// The context a constraint is posted in: it hands out the constraint's trailed state as typed
/// slots ([`slot`](PostCtx::slot), [`slots`](PostCtx::slots)), which the constraint keeps in its
/// fields and reads and writes through the search contexts ([`crate::CheckCtx::get`],
/// [`crate::PropagationCtx::set`]). Every slot starts at zero (or `false`).
///
/// ```
/// use csp_core::{PostCtx, Slot, Slots};
///
/// # fn lay_out(ctx: &mut PostCtx) {
/// let initialised: Slot<bool> = ctx.slot();
/// let sum: Slot<i128> = ctx.slot();
/// let bounds: Slots<i64> = ctx.slots(3);
/// # let _ = (initialised, sum, bounds);
/// # }
/// ```
#[derive(Debug, Default)]
pub struct PostCtx {
    layout: StateLayout,
}

impl PostCtx {
    /// A context of its own: for a test that runs a propagator outside a model, or a wrapper
    /// that builds one before it knows where its state goes.
    pub fn new() -> Self {
        PostCtx::default()
    }

    /// The next value's slot.
    pub fn slot<T: StateValue>(&mut self) -> Slot<T> {
        self.layout.slot()
    }

    /// A run of `len` values.
    pub fn slots<T: StateValue>(&mut self, len: usize) -> Slots<T> {
        self.layout.slots(len)
    }

    /// Lays out what `build` posts in a context of its own, and returns it with the run of this
    /// constraint's cells that holds its state: a wrapper (a reification, a circuit around its
    /// all-different) then runs the inner constraint in
    /// [`PropagationCtx::inner`] of that run.
    pub fn nested<T>(
        &mut self,
        build: impl FnOnce(&mut PostCtx) -> Result<T, ModelError>,
    ) -> Result<(T, Slots<i64>), ModelError> {
        let mut inner = PostCtx::new();
        let built = build(&mut inner)?;
        Ok((built, self.slots(inner.cells())))
    }

    /// How many `i64` cells the slots handed out so far take.
    pub fn cells(&self) -> usize {
        self.layout.len()
    }
}

/// Something [`crate::ModelBuilder::post`] can post: it builds the [`Propagator`] the engine runs,
/// laying out its trailed state in the [`PostCtx`]. Implemented by every propagator (posted as it
/// is, with no state), by [`crate::Constructor`] and by [`crate::Posted`]; a constraint has no
/// reason to implement it itself. It lives beside [`Propagator`] because each names the other: a
/// negation is posted.
pub trait Post: fmt::Debug + Send {
    /// Builds the propagator, laying out its state in `ctx`. Fails with the reason a constraint that
    /// can only be checked once its parts are posted (a reification of a constraint over its own
    /// Boolean, say) cannot be posted.
    fn post(self: Box<Self>, ctx: &mut PostCtx) -> Result<Box<dyn Propagator>, ModelError>;
}

impl<P: Propagator + 'static> Post for P {
    fn post(self: Box<Self>, _ctx: &mut PostCtx) -> Result<Box<dyn Propagator>, ModelError> {
        Ok(self)
    }
}

/// Dijkstra's test from the checker alone: the default of [`Propagator::check`]. It completes
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

/// Forward checking from the checker alone: the default of [`Propagator::forward_check`].
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
/// constraint's own state slots, as [`Propagator::reset_local`] and [`Propagator::moved`] left
/// them.
#[derive(Debug, Clone, Copy)]
pub struct LocalCtx<'a> {
    /// The current value of every variable of the model.
    pub values: &'a [i32],
    cells: &'a [i64],
}

impl<'a> LocalCtx<'a> {
    /// The view of a local search over `values` of the constraint whose state cells are `cells`
    /// (its [`crate::Model::cell_range`] in the search's cells).
    pub fn new(values: &'a [i32], cells: &'a [i64]) -> Self {
        LocalCtx { values, cells }
    }

    /// One of the constraint's state slots.
    #[inline]
    pub fn get<T: StateValue>(&self, slot: Slot<T>) -> T {
        let first = slot.cell();
        T::load(&self.cells[first..first + T::CELLS])
    }

    /// The values of a run of `i64` slots, as one slice (for a tight loop over many).
    #[inline]
    pub fn run(&self, slots: Slots<i64>) -> &'a [i64] {
        &self.cells[slots.cells()]
    }
}

/// The constraint's state as local search keeps it: the same typed slots the constraint laid out
/// when it was posted, written in place (local search has no trail).
#[derive(Debug)]
pub struct LocalState<'a> {
    cells: &'a mut [i64],
}

impl<'a> LocalState<'a> {
    /// The local-search state of the constraint whose state cells are `cells` (its
    /// [`crate::Model::cell_range`] in the search's cells).
    pub fn new(cells: &'a mut [i64]) -> Self {
        LocalState { cells }
    }

    /// One of the constraint's state slots.
    #[inline]
    pub fn get<T: StateValue>(&self, slot: Slot<T>) -> T {
        let first = slot.cell();
        T::load(&self.cells[first..first + T::CELLS])
    }

    /// Sets one of the constraint's state slots.
    #[inline]
    pub fn set<T: StateValue>(&mut self, slot: Slot<T>, value: T) {
        let first = slot.cell();
        self.cells[first..first + T::CELLS].copy_from_slice(&value.store()[..T::CELLS]);
    }

    /// A run of `i64` slots, as one slice to read and write (for a tight loop over many).
    #[inline]
    pub fn run_mut(&mut self, slots: Slots<i64>) -> &mut [i64] {
        &mut self.cells[slots.cells()]
    }

    /// Every slot back to zero (or `false`), as when the constraint was posted.
    pub fn clear(&mut self) {
        self.cells.fill(0);
    }
}

/// The conflicts of a constraint without a count of its own (the default of
/// [`Propagator::conflicts`]): 1 if its checker refuses the assignment with `var = value`, else 0.
pub fn checker_conflicts<C: Constraint + ?Sized>(
    constraint: &C,
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
