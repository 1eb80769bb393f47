//! Scheduling: tasks with start variables and constant durations sharing a resource.

use crate::Domains;
use std::cell::RefCell;

use crate::{
    Constraint, EventSet, ExplainCtx, Literal, LiteralRelation, ModelError, PropagationCtx,
    Propagator, VarId, Wipeout,
    constraints::util::{Args, invalid},
    revision::Priority,
};

/// A stretch `[start, end)` of the resource profile and the height the compulsory parts put on it.
#[derive(Debug, Clone, Copy)]
struct Segment {
    start: i64,
    end: i64,
    height: i64,
}

/// What a revision of [`Cumulative`] builds and throws away: the profile's events and stretches, and
/// edge-finding's windows and orders. Kept per thread between revisions, so that none allocates.
#[derive(Debug, Default)]
struct Scratch {
    events: Vec<(i64, i64)>,
    profile: Vec<Segment>,
    windows: Vec<Window>,
    by_est: Vec<usize>,
    ests: Vec<i64>,
    limits: Vec<i64>,
}

thread_local! {
    static SCRATCH: RefCell<Scratch> = RefCell::new(Scratch::default());
}

/// Runs `f` with the thread's scratch space, or with fresh space if it is in use already (a
/// revision that revises another cumulative constraint inside it, which none does today).
fn with_scratch<T>(f: impl FnOnce(&mut Scratch) -> T) -> T {
    SCRATCH.with(|scratch| match scratch.try_borrow_mut() {
        Ok(mut scratch) => f(&mut scratch),
        Err(_) => f(&mut Scratch::default()),
    })
}

/// Tasks sharing a renewable resource of constant capacity: FlatZinc's `cumulative(s, d, r, b)` with
/// constant durations `d`, requirements `r` and capacity `b`. At every time the requirements of the
/// tasks running (`sᵢ ≤ t < sᵢ + dᵢ`) add up to at most the capacity; a task of zero duration or
/// requirement takes nothing, as in MiniZinc's definition.
///
/// Consistency: time-tabling (Aggoun & Beldiceanu, *Extending CHIP in order to solve complex
/// scheduling and placement problems*, 1993). The compulsory parts (`[lst, ect)` of each task whose
/// latest start is before its earliest end) make a profile, which must stay within capacity; each
/// task's earliest start is then pushed past every stretch of the profile, other than its own part,
/// where it would not fit, and its latest start likewise back, until nothing moves. The profile is a
/// list of stretches, so the horizon may be as wide as `i32` allows at no cost.
///
/// The tasks that need more than half the capacity can run only one at a time; on them, disjunctive
/// reasoning runs too: every pair is bounds(Z) consistent (detectable precedences), and overload
/// checking and edge-finding (Carlier & Pinson, 1989) push earliest starts and latest completions
/// past the sets of tasks that must precede or follow. Cumulative (energy-based) edge-finding over all
/// tasks is not done.
#[derive(Debug, Clone)]
pub struct Cumulative {
    /// The start of each task.
    args: Args,
    durations: Vec<i64>,
    heights: Vec<i64>,
    capacity: i64,
    /// Start and duration of each task that needs more than half the capacity, so that no two of
    /// them can run at a time (fixed by the data, so worked out once).
    unary: Vec<(VarId, i64)>,
}

impl Cumulative {
    /// Tasks starting at `starts`, with `durations` and resource `heights` (both non-negative), on a
    /// resource of `capacity`. The three arrays must have the same length; a start variable may
    /// serve several tasks (they then start together).
    pub fn new(
        starts: Vec<VarId>,
        durations: Vec<i32>,
        heights: Vec<i32>,
        capacity: i32,
    ) -> Result<Self, ModelError> {
        for (what, array) in [("durations", &durations), ("requirements", &heights)] {
            if array.len() != starts.len() {
                return Err(ModelError::ArityMismatch {
                    constraint: format!("cumulative {what}"),
                    expected: starts.len(),
                    found: array.len(),
                });
            }
            if let Some(v) = array.iter().find(|&&v| v < 0) {
                return Err(invalid(
                    "cumulative",
                    format!("{what} must not be negative, found {v}"),
                ));
            }
        }
        let mut cumulative = Cumulative {
            args: Args::new(starts),
            durations: durations.into_iter().map(i64::from).collect(),
            heights: heights.into_iter().map(i64::from).collect(),
            capacity: i64::from(capacity),
            unary: Vec::new(),
        };
        // Tasks needing more than half the capacity cannot run two at a time: a unary resource
        // within the cumulative one (all of a job-shop's machines, the big jobs of an RCPSP).
        cumulative.unary = cumulative
            .tasks()
            .filter(|&i| 2 * cumulative.heights[i] > cumulative.capacity)
            .map(|i| (cumulative.start(i), cumulative.durations[i]))
            .collect();
        Ok(cumulative)
    }

    fn n(&self) -> usize {
        self.durations.len()
    }

    /// The tasks that take something from the resource.
    fn tasks(&self) -> impl Iterator<Item = usize> + '_ {
        (0..self.n()).filter(|&i| self.durations[i] > 0 && self.heights[i] > 0)
    }

    fn start(&self, i: usize) -> VarId {
        self.args.var(i)
    }

    /// The compulsory parts' profile: stretches in time order, each of constant height (zero-height
    /// stretches left out). Fails when a stretch exceeds the capacity.
    fn profile(
        &self,
        ctx: &PropagationCtx<'_>,
        events: &mut Vec<(i64, i64)>,
        out: &mut Vec<Segment>,
    ) -> Result<(), Wipeout> {
        events.clear();
        for i in self.tasks() {
            let s = self.start(i);
            let (lst, ect) = (
                i64::from(ctx.ub(s)),
                i64::from(ctx.lb(s)) + self.durations[i],
            );
            if lst < ect {
                events.push((lst, self.heights[i]));
                events.push((ect, -self.heights[i]));
            }
        }
        events.sort_unstable();
        out.clear();
        for (time, next, height) in sweep(events) {
            if let Some(next) = next
                && height > 0
            {
                if height > self.capacity {
                    return Err(Wipeout);
                }
                out.push(Segment {
                    start: time,
                    end: next,
                    height,
                });
            }
        }
        Ok(())
    }

    /// Fails a profile that exceeds the capacity by pushing a task of its first overloaded
    /// stretch past that stretch, which its latest start forbids: the store refuses the bound,
    /// and learning explains it by time-tabling ([`Snapshot::explain_change`]), that is by the
    /// other tasks of the stretch, rather than by every domain of the scope. Search without
    /// learning sees the same wipe-out either way.
    fn fail_through_a_task(
        &self,
        ctx: &mut PropagationCtx<'_>,
        events: &[(i64, i64)],
    ) -> Result<bool, Wipeout> {
        // `events` is sorted; find the first stretch whose height exceeds the capacity.
        for (time, next, height) in sweep(events) {
            if height > self.capacity {
                let end = next.unwrap_or(time + 1);
                let covering = self.tasks().find(|&i| {
                    let s = self.start(i);
                    i64::from(ctx.ub(s)) <= time && time < i64::from(ctx.lb(s)) + self.durations[i]
                });
                if let Some(i) = covering {
                    ctx.store.set_bounds(self.start(i), end, i64::MAX)?;
                }
                break;
            }
        }
        Err(Wipeout)
    }

    /// The tasks that take something, for explanations: constant durations and requirements,
    /// which need no literal.
    fn snapshot(&self) -> Snapshot {
        let tasks: Vec<usize> = self.tasks().collect();
        let unary = (0..tasks.len())
            .filter(|&k| 2 * self.heights[tasks[k]] > self.capacity)
            .collect();
        Snapshot {
            starts: tasks.iter().map(|&i| self.start(i)).collect(),
            durations: tasks.iter().map(|&i| self.durations[i]).collect(),
            heights: tasks.iter().map(|&i| self.heights[i]).collect(),
            given: vec![Vec::new(); tasks.len()],
            capacity: self.capacity,
            capacity_given: Vec::new(),
            unary,
            energy: false,
        }
    }

    /// One round of time-tabling over every task; returns whether a bound moved.
    fn time_table(
        &self,
        ctx: &mut PropagationCtx<'_>,
        scratch: &mut Scratch,
    ) -> Result<bool, Wipeout> {
        let Scratch {
            events, profile, ..
        } = scratch;
        if self.profile(ctx, events, profile).is_err() {
            return self.fail_through_a_task(ctx, events);
        }
        let profile = &*profile;
        let mut changed = false;
        for i in self.tasks() {
            let s = self.start(i);
            let (d, h) = (self.durations[i], self.heights[i]);
            let (est, lst) = (i64::from(ctx.lb(s)), i64::from(ctx.ub(s)));
            // The task's own compulsory part, as the profile counted it.
            let (own_from, own_to) = (lst, est + d);
            let own = |seg: &Segment| {
                if own_from < own_to && seg.start >= own_from && seg.end <= own_to {
                    h
                } else {
                    0
                }
            };
            let mut start = est;
            for seg in profile {
                if seg.end <= start {
                    continue;
                }
                if seg.start >= start + d {
                    break;
                }
                if seg.height - own(seg) + h > self.capacity {
                    start = seg.end;
                }
            }
            let mut end = lst + d;
            for seg in profile.iter().rev() {
                if seg.start >= end {
                    continue;
                }
                if seg.end <= end - d {
                    break;
                }
                if seg.height - own(seg) + h > self.capacity {
                    end = seg.start;
                }
            }
            changed |= ctx.store.set_bounds(s, start, end - d)?;
        }
        Ok(changed)
    }
}

impl Constraint for Cumulative {
    fn scope(&self) -> &[VarId] {
        &self.args.scope
    }

    fn is_satisfied(&self, values: &[i32]) -> bool {
        if self.n() == 0 {
            return true;
        }
        let start = |i: usize| i64::from(self.args.value(values, i));
        let mut any = false;
        for j in self.tasks() {
            any = true;
            // The load is largest at some task's start.
            let t = start(j);
            let load: i64 = self
                .tasks()
                .filter(|&i| start(i) <= t && t < start(i) + self.durations[i])
                .map(|i| self.heights[i])
                .sum();
            if load > self.capacity {
                return false;
            }
        }
        any || self.capacity >= 0
    }
}

impl Propagator for Cumulative {
    fn revise(&self, ctx: &mut PropagationCtx<'_>) -> Result<(), Wipeout> {
        if self.n() > 0 && self.capacity < 0 {
            return Err(Wipeout);
        }
        if self.tasks().any(|i| self.heights[i] > self.capacity) {
            return Err(Wipeout);
        }
        with_scratch(|scratch| {
            loop {
                let table = self.time_table(ctx, scratch)?;
                let disjunctive =
                    self.unary.len() > 1 && unary_reasoning(ctx, &self.unary, scratch)?;
                if !table && !disjunctive {
                    return Ok(());
                }
            }
        })
    }

    fn subscribe(&self, _position: usize) -> EventSet {
        EventSet::BOUNDS
    }

    fn priority(&self) -> Priority {
        Priority::Low
    }

    /// Each bound by the rule that accounts for it, from the domains just before the change:
    /// time-tabling's lifted pointwise reasons (Schutt, Feydy, Stuckey & Wallace 2011), a
    /// detectable precedence, or edge-finding's task interval; a removal by the point the
    /// removed start would overload.
    fn explain(&self, literal: Literal, ctx: &ExplainCtx<'_>, reasons: &mut Vec<Literal>) -> bool {
        self.snapshot().explain_change(literal, ctx, reasons)
    }

    /// An overloaded point, a task pushed onto no value, a pair that cannot be ordered, or an
    /// overloaded task interval of the tasks that run one at a time.
    fn explain_failure(&self, ctx: &ExplainCtx<'_>, reasons: &mut Vec<Literal>) -> bool {
        // A negative capacity, or a task taller than it, needs no reason: no schedule exists.
        if self.n() > 0 && self.capacity < 0
            || self.tasks().any(|i| self.heights[i] > self.capacity)
        {
            return true;
        }
        self.snapshot().explain_overload(ctx, reasons)
    }
}

/// The stretches of a profile from its events `(time, change of height)`, sorted by time: each
/// event time, the next one (none after the last), and the height from the one to the other.
pub(super) fn sweep(events: &[(i64, i64)]) -> impl Iterator<Item = (i64, Option<i64>, i64)> + '_ {
    let (mut height, mut k) = (0, 0);
    std::iter::from_fn(move || {
        let time = events.get(k)?.0;
        while k < events.len() && events[k].0 == time {
            height += events[k].1;
            k += 1;
        }
        Some((time, events.get(k).map(|&(next, _)| next), height))
    })
}

/// `x` within `i32`, for a literal: a bound beyond the range holds of every value or of none,
/// as the clamped one does within a variable's domain.
pub(super) fn clamp(x: i64) -> i32 {
    x.clamp(i64::from(i32::MIN), i64::from(i32::MAX)) as i32
}

/// Tasks on a unary resource: no two tasks of positive duration overlap (FlatZinc's
/// `disjunctive(s, d)` with constant durations; a task of zero duration may go anywhere, as in
/// MiniZinc's definition).
///
/// Consistency: [`Cumulative`]'s with unit requirements and capacity, where every task is in the
/// unary part: time-tabling, bounds(Z) consistency on every pair `sᵢ + dᵢ ≤ sⱼ ∨ sⱼ + dⱼ ≤ sᵢ`
/// (a task that cannot go before another goes after it), overload checking and edge-finding, until
/// nothing moves a bound.
#[derive(Debug, Clone)]
pub struct Disjunctive {
    resource: Cumulative,
}

impl Disjunctive {
    /// Tasks starting at `starts` with `durations` (non-negative, one per task).
    pub fn new(starts: Vec<VarId>, durations: Vec<i32>) -> Result<Self, ModelError> {
        let ones = vec![1; durations.len()];
        Ok(Disjunctive {
            resource: Cumulative::new(starts, durations, ones, 1)?,
        })
    }
}

impl Constraint for Disjunctive {
    fn scope(&self) -> &[VarId] {
        self.resource.scope()
    }

    fn is_satisfied(&self, values: &[i32]) -> bool {
        let c = &self.resource;
        let start = |i: usize| i64::from(c.args.value(values, i));
        let tasks: Vec<usize> = c.tasks().collect();
        tasks.iter().enumerate().all(|(k, &i)| {
            tasks[k + 1..].iter().all(|&j| {
                start(i) + c.durations[i] <= start(j) || start(j) + c.durations[j] <= start(i)
            })
        })
    }
}

impl Propagator for Disjunctive {
    /// Unit requirements on a unit capacity: every task is in the cumulative's unary part.
    fn revise(&self, ctx: &mut PropagationCtx<'_>) -> Result<(), Wipeout> {
        self.resource.revise(ctx)
    }

    fn subscribe(&self, _position: usize) -> EventSet {
        EventSet::BOUNDS
    }

    fn priority(&self) -> Priority {
        Priority::Low
    }

    /// The cumulative resource's explanations.
    fn explain(&self, literal: Literal, ctx: &ExplainCtx<'_>, reasons: &mut Vec<Literal>) -> bool {
        self.resource.explain(literal, ctx, reasons)
    }

    /// The cumulative resource's explanations of failure.
    fn explain_failure(&self, ctx: &ExplainCtx<'_>, reasons: &mut Vec<Literal>) -> bool {
        self.resource.explain_failure(ctx, reasons)
    }
}

/// A task of a unary resource, in one time direction: earliest start, latest completion, duration.
#[derive(Debug, Clone, Copy)]
struct Window {
    est: i64,
    lct: i64,
    duration: i64,
}

/// Reasoning on tasks no two of which may overlap, to a fixpoint of one round each: bounds(Z)
/// consistency on every pair (a task that cannot go first goes after), then overload checking and
/// edge-finding both ways (see [`edge_finding`]). Returns whether a bound moved.
fn unary_reasoning(
    ctx: &mut PropagationCtx<'_>,
    tasks: &[(VarId, i64)],
    scratch: &mut Scratch,
) -> Result<bool, Wipeout> {
    let mut changed = false;
    for (k, &(si, di)) in tasks.iter().enumerate() {
        for &(sj, dj) in &tasks[k + 1..] {
            if si == sj {
                // One start for two tasks that may not overlap.
                return Err(Wipeout);
            }
            let i_first = i64::from(ctx.lb(si)) + di <= i64::from(ctx.ub(sj));
            let j_first = i64::from(ctx.lb(sj)) + dj <= i64::from(ctx.ub(si));
            match (i_first, j_first) {
                (false, false) => return Err(Wipeout),
                (false, true) => {
                    changed |= ctx.set_min(si, i64::from(ctx.lb(sj)) + dj)?;
                    changed |= ctx.set_max(sj, i64::from(ctx.ub(si)) - dj)?;
                }
                (true, false) => {
                    changed |= ctx.set_min(sj, i64::from(ctx.lb(si)) + di)?;
                    changed |= ctx.set_max(si, i64::from(ctx.ub(sj)) - di)?;
                }
                (true, true) => {}
            }
        }
    }
    let windows = |ctx: &PropagationCtx<'_>, mirrored: bool, out: &mut Vec<Window>| {
        out.clear();
        out.extend(tasks.iter().map(|&(s, d)| {
            let (est, lct) = (i64::from(ctx.lb(s)), i64::from(ctx.ub(s)) + d);
            if mirrored {
                Window {
                    est: -lct,
                    lct: -est,
                    duration: d,
                }
            } else {
                Window {
                    est,
                    lct,
                    duration: d,
                }
            }
        }));
    };
    // Earliest starts, then latest completions (the same rule on time reversed). The windows are
    // taken out of the scratch space while edge-finding works in the rest of it.
    let mut found = std::mem::take(&mut scratch.windows);
    windows(ctx, false, &mut found);
    edge_finding(&found, scratch)?;
    for (&(s, _), &est) in tasks.iter().zip(&scratch.ests) {
        changed |= ctx.set_min(s, est)?;
    }
    windows(ctx, true, &mut found);
    let backward = edge_finding(&found, scratch);
    scratch.windows = found;
    backward?;
    for (&(s, d), &mirrored_est) in tasks.iter().zip(&scratch.ests) {
        changed |= ctx.set_max(s, -mirrored_est - d)?;
    }
    Ok(changed)
}

/// Overload checking and edge-finding on a unary resource (Carlier & Pinson, 1989; in the form of
/// Vilím, *Filtering Algorithms for the Unary Resource Constraint*, 2008, without his Θ-Λ tree):
/// if a set Ω of tasks together with task `i` cannot finish by Ω's latest completion, `i` ends after
/// all of Ω, so it starts no earlier than Ω's earliest completion
/// `ECT(Ω) = max over Ω' ⊆ Ω of (est(Ω') + p(Ω'))`. The sets examined are the task intervals
/// `{k : est_k ≥ E, lct_k ≤ L}`, enough for the rule's full strength; in O(n³) for `n` tasks.
/// Leaves each task's new earliest start in `scratch.ests`; fails when some set cannot fit in its
/// window.
fn edge_finding(tasks: &[Window], scratch: &mut Scratch) -> Result<(), Wipeout> {
    let n = tasks.len();
    let Scratch {
        by_est,
        ests,
        limits,
        ..
    } = scratch;
    by_est.clear();
    by_est.extend(0..n);
    // Latest first, ties by index: the order a stable sort gives, without its buffer.
    by_est.sort_unstable_by_key(|&k| (std::cmp::Reverse(tasks[k].est), k));
    ests.clear();
    ests.extend(tasks.iter().map(|t| t.est));
    limits.clear();
    limits.extend(tasks.iter().map(|t| t.lct));
    limits.sort_unstable();
    limits.dedup();
    for &limit in limits.iter() {
        // Ω grows by est, from the latest: its work, and its earliest completion so far.
        let (mut work, mut ect) = (0i64, i64::MIN);
        for &k in by_est.iter() {
            if tasks[k].lct > limit {
                continue;
            }
            work += tasks[k].duration;
            ect = ect.max(tasks[k].est + work);
            if ect > limit {
                return Err(Wipeout);
            }
        }
        // Each task outside Ω (or any task but Ω's own, against the Ω that leaves it out): does it
        // fit before `limit` beside the task interval of tasks at or after each est?
        for i in 0..n {
            let (mut work, mut ect) = (0i64, i64::MIN);
            for &k in by_est.iter() {
                if k == i || tasks[k].lct > limit {
                    continue;
                }
                work += tasks[k].duration;
                ect = ect.max(tasks[k].est + work);
                let start = tasks[k].est.min(tasks[i].est);
                if start + work + tasks[i].duration > limit {
                    ests[i] = ests[i].max(ect);
                }
            }
        }
    }
    Ok(())
}

/// One direction of time, for explanations: forward, or reversed, where a task starting at `s`
/// with duration `d` starts at `−s − d` and time point `p` is `−p − 1`. Reversed, the rules that
/// push latest starts back are the rules that push earliest starts forward, so each is written
/// once, for earliest starts.
#[derive(Debug, Clone, Copy)]
struct View {
    reversed: bool,
}

impl View {
    const FORWARD: View = View { reversed: false };
    const BACKWARD: View = View { reversed: true };

    /// The earliest and latest start, in this direction, of a task starting at `start` with
    /// duration `d`, from the domains of `ctx`'s moment.
    fn starts(self, ctx: &ExplainCtx<'_>, start: VarId, d: i64) -> (i64, i64) {
        let (lo, hi) = ctx.bounds(start);
        let (lo, hi) = (i64::from(lo), i64::from(hi));
        if self.reversed {
            (-hi - d, -lo - d)
        } else {
            (lo, hi)
        }
    }

    /// The literal saying the task starts at `a` or later, in this direction.
    fn at_least(self, start: VarId, d: i64, a: i64) -> Literal {
        if self.reversed {
            Literal::le(start, clamp(-a - d))
        } else {
            Literal::ge(start, clamp(a))
        }
    }

    /// The literal saying the task starts at `b` or earlier, in this direction.
    fn at_most(self, start: VarId, d: i64, b: i64) -> Literal {
        if self.reversed {
            Literal::ge(start, clamp(-b - d))
        } else {
            Literal::le(start, clamp(b))
        }
    }
}

/// The other tasks' compulsory parts `(lst, ect, task)` beside one task, and the stretches of
/// their profile in time order, in one direction of time.
struct Others {
    parts: Vec<(i64, i64, usize)>,
    stretches: Vec<Segment>,
}

impl Others {
    /// The stretch of positive height holding time point `p`, if any.
    fn stretch_at(&self, p: i64) -> Option<&Segment> {
        let k = self.stretches.partition_point(|seg| seg.end <= p);
        self.stretches
            .get(k)
            .filter(|seg| seg.start <= p && seg.height > 0)
    }
}

/// Keeps, among the reasons pushed after `start`, only the strongest bound of each kind on each
/// variable (every one of them held, so the strongest did, and it implies the rest), so that a
/// task cited at several time points enters the learned clause once.
fn strongest_reasons(reasons: &mut Vec<Literal>, start: usize) {
    let mut added = reasons.split_off(start);
    // Lower bounds largest first, upper bounds smallest first, then the rest by value.
    added.sort_unstable_by_key(|l| {
        let key = match l.relation {
            LiteralRelation::Ge => -i64::from(l.value),
            _ => i64::from(l.value),
        };
        (l.var.index(), l.relation as u8, key)
    });
    added.dedup_by(|later, first| {
        later.var == first.var
            && later.relation == first.relation
            && matches!(later.relation, LiteralRelation::Ge | LiteralRelation::Le)
    });
    added.dedup();
    reasons.extend(added);
}

/// The tasks of a resource as its explanations see them at one moment: each task that surely
/// takes something, with its start, its least duration and requirement, and the literals that
/// give it those (none for [`Cumulative`]'s constants; for a task of variable duration,
/// requirement or presence, `dᵢ ≥ …`, `hᵢ ≥ …`, `presentᵢ ≥ 1`); the largest capacity and its
/// literal; and the tasks no two of which can run at once.
#[derive(Debug, Default)]
pub(super) struct Snapshot {
    pub(super) starts: Vec<VarId>,
    pub(super) durations: Vec<i64>,
    pub(super) heights: Vec<i64>,
    pub(super) given: Vec<Vec<Literal>>,
    pub(super) capacity: i64,
    pub(super) capacity_given: Vec<Literal>,
    pub(super) unary: Vec<usize>,
    /// Whether the propagator runs cumulative edge-finding, whose pushes are then explained too.
    pub(super) energy: bool,
}

impl Snapshot {
    /// Every task.
    fn tasks(&self) -> std::ops::Range<usize> {
        0..self.starts.len()
    }

    fn start(&self, i: usize) -> VarId {
        self.starts[i]
    }

    /// Cites the literals that give task `i` its least duration, requirement and presence.
    fn cite(&self, i: usize, reasons: &mut Vec<Literal>) {
        reasons.extend_from_slice(&self.given[i]);
    }

    /// Why the resource needs a capacity of at least `v`: a point where the compulsory parts'
    /// requirements add up to `v` or more, cited by a lifted set of them. Returns false, citing
    /// nothing, when there is none.
    pub(super) fn peak_reason(
        &self,
        v: i64,
        ctx: &ExplainCtx<'_>,
        reasons: &mut Vec<Literal>,
    ) -> bool {
        let all = self.others(|_| false, View::FORWARD, ctx);
        let Some(seg) = all.stretches.iter().find(|seg| seg.height >= v) else {
            return false;
        };
        // `push_covering` wants the parts to exceed `capacity − room`, that is `v − 1`.
        let room = self.capacity - (v - 1);
        self.push_covering(&all, (seg.start, seg.start), room, View::FORWARD, reasons)
    }

    /// Why task `i` can run at most `v` long: from every start between its bounds, a point
    /// where it does not fit beside the others' compulsory parts comes within `v` (chosen as
    /// late as possible, so that each serves many starts), each cited by a lifted set of those
    /// parts, with the task's start bounds, requirement and the capacity's literal. Returns
    /// false, citing nothing, when some start has no such point.
    pub(super) fn duration_reason(
        &self,
        i: usize,
        v: i64,
        ctx: &ExplainCtx<'_>,
        reasons: &mut Vec<Literal>,
    ) -> bool {
        let (s, d, h) = (self.start(i), self.durations[i], self.heights[i]);
        let (est, lst) = View::FORWARD.starts(ctx, s, d);
        let others = self.others(|j| j == i, View::FORWARD, ctx);
        let conflicts: Vec<Segment> = others
            .stretches
            .iter()
            .filter(|seg| seg.height + h > self.capacity)
            .copied()
            .collect();
        let mark = reasons.len();
        let mut from = est;
        while from <= lst {
            // The conflict stretch holding `from`, or the last one starting within reach.
            let k = conflicts.partition_point(|seg| seg.end <= from);
            let (low, top) = match conflicts.get(k) {
                Some(seg) if seg.start <= from => (from, (seg.end - 1).min(lst)),
                _ => match conflicts[k..]
                    .iter()
                    .take_while(|seg| seg.start <= from + v)
                    .last()
                {
                    Some(seg) => {
                        let q = (seg.end - 1).min(from + v);
                        (q, q)
                    }
                    None => {
                        reasons.truncate(mark);
                        return false;
                    }
                },
            };
            if !self.push_covering(&others, (low, top), h, View::FORWARD, reasons) {
                reasons.truncate(mark);
                return false;
            }
            from = top + 1;
        }
        reasons.push(Literal::ge(s, clamp(est)));
        reasons.push(Literal::le(s, clamp(lst)));
        self.cite(i, reasons);
        reasons.extend_from_slice(&self.capacity_given);
        true
    }

    /// Why task `i` can need at most `v`: at a point of its compulsory part, the other tasks'
    /// parts need `capacity − v` or more, cited by a lifted set of them, with the capacity's
    /// literal and the task's own bounds that make it run there. Returns false, citing nothing,
    /// when there is no such point.
    pub(super) fn room_reason(
        &self,
        i: usize,
        v: i64,
        ctx: &ExplainCtx<'_>,
        reasons: &mut Vec<Literal>,
    ) -> bool {
        let (s, d) = (self.start(i), self.durations[i]);
        let (est, lst) = View::FORWARD.starts(ctx, s, d);
        let others = self.others(|j| j == i, View::FORWARD, ctx);
        let Some(seg) = others
            .stretches
            .iter()
            .find(|seg| seg.end > lst && seg.start < est + d && seg.height >= self.capacity - v)
        else {
            return false;
        };
        let p = seg.start.max(lst);
        if p >= est + d {
            return false;
        }
        // The others must exceed `capacity − (v + 1)`.
        if !self.push_covering(&others, (p, p), v + 1, View::FORWARD, reasons) {
            return false;
        }
        reasons.push(Literal::le(s, clamp(p)));
        reasons.push(Literal::ge(s, clamp(p + 1 - d)));
        self.cite(i, reasons);
        reasons.extend_from_slice(&self.capacity_given);
        true
    }
}

/// Explanations (lazy clause generation). Each change is explained from the domains just before
/// it by whichever of the propagator's rules accounts for it, tried cheapest first: time-tabling,
/// then on the tasks that run one at a time detectable precedences of a pair and edge-finding.
/// The rules are monotone (tighter domains only strengthen their conclusions), so a bound that a
/// rule found during a revision is found again from any later moment of that revision.
impl Snapshot {
    /// Why the propagator made `literal` true: for a start bound, the rule that accounts for it
    /// (see [`Snapshot::explain_start`]), reversed in time for a latest start; for a removal
    /// (forward checking's), the point the removed start would overload. Returns false when no
    /// rule accounts for the change.
    pub(super) fn explain_change(
        &self,
        literal: Literal,
        ctx: &ExplainCtx<'_>,
        reasons: &mut Vec<Literal>,
    ) -> bool {
        let var = literal.var;
        let (lb, ub) = ctx.bounds(var);
        let v = i64::from(literal.value);
        let (lower, upper) = match literal.relation {
            LiteralRelation::Ge => (true, false),
            LiteralRelation::Le => (false, true),
            LiteralRelation::Eq => (i64::from(lb) < v, i64::from(ub) > v),
            LiteralRelation::Ne => {
                let start = reasons.len();
                if !self.explain_removal(var, v, ctx, reasons) {
                    return false;
                }
                reasons.extend_from_slice(&self.capacity_given);
                strongest_reasons(reasons, start);
                return true;
            }
        };
        if !lower && !upper {
            return false;
        }
        // A bound lands on the nearest value left: the rule moved it past the values it proved
        // impossible, the rest were holes already (which the learner adds itself).
        let (mut from_below, mut from_above) = (v, v);
        if ctx.has_holes(var) {
            while from_below > i64::from(lb) && !ctx.contains(var, clamp(from_below - 1)) {
                from_below -= 1;
            }
            while from_above < i64::from(ub) && !ctx.contains(var, clamp(from_above + 1)) {
                from_above += 1;
            }
        }
        let start = reasons.len();
        // A start variable may serve several tasks: any of them may account for the bound.
        for i in self.tasks().filter(|&i| self.start(i) == var) {
            let d = self.durations[i];
            let explained = (!lower
                || self.explain_start(i, View::FORWARD, from_below, ctx, reasons))
                && (!upper || self.explain_start(i, View::BACKWARD, -from_above - d, ctx, reasons));
            if explained {
                // A fixing pushed from one side keeps the other side's bound, which it rests on.
                if literal.relation == LiteralRelation::Eq {
                    if !upper {
                        reasons.push(Literal::le(var, ub));
                    }
                    if !lower {
                        reasons.push(Literal::ge(var, lb));
                    }
                }
                reasons.extend_from_slice(&self.capacity_given);
                strongest_reasons(reasons, start);
                return true;
            }
            reasons.truncate(start);
        }
        false
    }

    /// Why the start variable `var` cannot take `value` (forward checking removes it once the
    /// rest of the scope is fixed): at some point the tasks starting at `var` would hold, were it
    /// `value`, the other tasks' compulsory parts leave them too little room, explained by a
    /// lifted set of those parts (Schutt et al. 2011's pointwise explanation).
    fn explain_removal(
        &self,
        var: VarId,
        value: i64,
        ctx: &ExplainCtx<'_>,
        reasons: &mut Vec<Literal>,
    ) -> bool {
        let own: Vec<usize> = self.tasks().filter(|&i| self.start(i) == var).collect();
        let others = self.others(|j| self.start(j) == var, View::FORWARD, ctx);
        let longest = own.iter().map(|&i| self.durations[i]).max().unwrap_or(0);
        let start = reasons.len();
        // The tasks at `var` all start at `value`, so the room they take shrinks with time and
        // is largest at each stretch's first point within their reach.
        let k = others.stretches.partition_point(|seg| seg.end <= value);
        for seg in others.stretches[k..]
            .iter()
            .take_while(|seg| seg.start < value + longest.max(1))
        {
            let p = seg.start.max(value);
            let room: i64 = own
                .iter()
                .filter(|&&i| p < value + self.durations[i])
                .map(|&i| self.heights[i])
                .sum();
            if seg.height + room > self.capacity
                && self.push_covering(&others, (p, p), room, View::FORWARD, reasons)
            {
                for &i in own.iter().filter(|&&i| p < value + self.durations[i]) {
                    self.cite(i, reasons);
                }
                return true;
            }
            reasons.truncate(start);
        }
        // Or the others overload the resource wherever the task goes.
        if let Some(seg) = others
            .stretches
            .iter()
            .find(|seg| seg.height > self.capacity)
        {
            return self.push_covering(&others, (seg.start, seg.start), 0, View::FORWARD, reasons);
        }
        false
    }

    /// Why task `i` starts at `v` or later in direction `view`: by time-tabling, else (for a
    /// task of the unary part) by the one other task that must precede it, else by edge-finding.
    /// Pushes nothing and returns false when none of them accounts for it.
    fn explain_start(
        &self,
        i: usize,
        view: View,
        v: i64,
        ctx: &ExplainCtx<'_>,
        reasons: &mut Vec<Literal>,
    ) -> bool {
        if self.time_table_reason(i, view, v, ctx, reasons) {
            return true;
        }
        if self.unary.contains(&i)
            && (self.precedence_reason(&self.unary, i, view, v, ctx, reasons)
                || self.edge_finding_reason(&self.unary, i, view, v, ctx, reasons))
        {
            return true;
        }
        self.energy && self.energy_reason(i, view, v, ctx, reasons)
    }

    /// The compulsory parts in direction `view` of every task but those `except` picks, and their
    /// profile.
    fn others(&self, except: impl Fn(usize) -> bool, view: View, ctx: &ExplainCtx<'_>) -> Others {
        let parts: Vec<(i64, i64, usize)> = self
            .tasks()
            .filter(|&j| !except(j))
            .filter_map(|j| {
                let (est, lst) = view.starts(ctx, self.start(j), self.durations[j]);
                let ect = est + self.durations[j];
                (lst < ect).then_some((lst, ect, j))
            })
            .collect();
        let mut events: Vec<(i64, i64)> = parts
            .iter()
            .flat_map(|&(a, b, j)| [(a, self.heights[j]), (b, -self.heights[j])])
            .collect();
        events.sort_unstable();
        let stretches = sweep(&events)
            .filter_map(|(start, next, height)| {
                next.filter(|_| height > 0)
                    .map(|end| Segment { start, end, height })
            })
            .collect();
        Others { parts, stretches }
    }

    /// Pushes why the compulsory parts in `others` that hold every point of `[low, top]` (which
    /// lie in one stretch, so the same parts hold them all) leave less than `room`: a set of
    /// them whose heights exceed `self.capacity − room`, highest first and then lifted by
    /// dropping every task the rest can spare, each task `j` by `s_j ≤ low` and
    /// `s_j ≥ top + 1 − d_j`, the weakest bounds that keep it running over the points
    /// (Schutt, Feydy, Stuckey & Wallace 2011, *Explaining the cumulative propagator*, their
    /// lifted pointwise explanation). Returns false, pushing nothing, when they do not.
    fn push_covering(
        &self,
        others: &Others,
        (low, top): (i64, i64),
        room: i64,
        view: View,
        reasons: &mut Vec<Literal>,
    ) -> bool {
        let mut covering: Vec<usize> = others
            .parts
            .iter()
            .filter(|&&(lst, ect, _)| lst <= low && top < ect)
            .map(|&(_, _, j)| j)
            .collect();
        covering.sort_unstable_by_key(|&j| (std::cmp::Reverse(self.heights[j]), j));
        let limit = self.capacity - room;
        let mut load = 0;
        let taken = covering
            .iter()
            .position(|&j| {
                load += self.heights[j];
                load > limit
            })
            .map(|k| k + 1);
        let Some(taken) = taken else {
            return false;
        };
        // Lift: drop the lowest tasks while the rest still exceed the limit.
        let mut chosen: Vec<usize> = Vec::with_capacity(taken);
        for &j in covering[..taken].iter().rev() {
            if load - self.heights[j] > limit {
                load -= self.heights[j];
            } else {
                chosen.push(j);
            }
        }
        for j in chosen {
            let (s, d) = (self.start(j), self.durations[j]);
            reasons.push(view.at_most(s, d, low));
            reasons.push(view.at_least(s, d, top + 1 - d));
            self.cite(j, reasons);
        }
        true
    }

    /// Time-tabling's reason for task `i` to start at `v` or later in direction `view`: the
    /// other tasks' compulsory parts overload the resource at the point `v − 1` just before the
    /// new start, which the task would hold from any start in `[v − dᵢ, v − 1]`; from `v − dᵢ`
    /// on it is pushed by the same argument at an earlier point, and so on back to a start the
    /// task had already passed (Schutt et al. 2011's pointwise decomposition of a push across
    /// several points, each point chosen as early as the chain allows, so that few are cited).
    /// The points of one stretch are handled together, their parts being the same.
    fn time_table_reason(
        &self,
        i: usize,
        view: View,
        v: i64,
        ctx: &ExplainCtx<'_>,
        reasons: &mut Vec<Literal>,
    ) -> bool {
        let (d, h) = (self.durations[i], self.heights[i]);
        if d == 0 {
            // A task of no duration (a strict unary resource's) holds no point.
            return false;
        }
        let s = self.start(i);
        let (est, _) = view.starts(ctx, s, d);
        let others = self.others(|j| j == i, view, ctx);
        let overloaded = |seg: &Segment| seg.height + h > self.capacity;
        // The smallest point of `[a, b]` where the task does not fit beside the others.
        let first_overloaded = |a: i64, b: i64| {
            let k = others.stretches.partition_point(|seg| seg.end <= a);
            others.stretches[k..]
                .iter()
                .take_while(|seg| seg.start <= b)
                .find(|seg| overloaded(seg))
                .map(|seg| seg.start.max(a))
        };
        // The first point: the earliest at or after `v − 1` where the task does not fit (after
        // it only when the values between were holes).
        let Some(mut p) = first_overloaded(v - 1, i64::MAX) else {
            return false;
        };
        let mut chain: Vec<(i64, i64)> = Vec::new();
        let base = loop {
            let Some(seg) = others.stretch_at(p).filter(|seg| overloaded(seg)) else {
                return false;
            };
            // Steps of `d` back within the stretch, until the task's start is reached.
            let to_finish = if p + 1 - d <= est {
                0
            } else {
                (p + 1 - d - est + d - 1) / d
            };
            let low = p - to_finish.min((p - seg.start) / d) * d;
            chain.push((low, p));
            let need = low + 1 - d;
            if need <= est {
                break need;
            }
            match first_overloaded(need - 1, low - 1) {
                Some(q) => p = q,
                None => return false,
            }
        };
        let start = reasons.len();
        reasons.push(view.at_least(s, d, base));
        self.cite(i, reasons);
        for &(low, top) in &chain {
            if !self.push_covering(&others, (low, top), h, view, reasons) {
                reasons.truncate(start);
                return false;
            }
        }
        true
    }

    /// Detectable precedence on a pair of the unary part: task `i` cannot end before task `j`'s
    /// latest start (`estᵢ + dᵢ > lstⱼ`), so `j` precedes it and `i` starts at `estⱼ + dⱼ` or
    /// later; explained by `sᵢ ≥ lstⱼ − dᵢ + 1`, `sⱼ ≤ lstⱼ` and `sⱼ ≥ v − dⱼ`.
    fn precedence_reason(
        &self,
        unary: &[usize],
        i: usize,
        view: View,
        v: i64,
        ctx: &ExplainCtx<'_>,
        reasons: &mut Vec<Literal>,
    ) -> bool {
        let (si, di) = (self.start(i), self.durations[i]);
        let (est_i, _) = view.starts(ctx, si, di);
        for &j in unary.iter().filter(|&&j| j != i) {
            let (sj, dj) = (self.start(j), self.durations[j]);
            let (est_j, lst_j) = view.starts(ctx, sj, dj);
            if est_i + di > lst_j && est_j + dj >= v {
                reasons.push(view.at_least(si, di, lst_j - di + 1));
                reasons.push(view.at_most(sj, dj, lst_j));
                reasons.push(view.at_least(sj, dj, v - dj));
                self.cite(i, reasons);
                self.cite(j, reasons);
                return true;
            }
        }
        false
    }

    /// Edge-finding on the unary part: a set Ω of other tasks (those with `est ≥ E` and
    /// `lct ≤ L`) beside which task `i` cannot be anything but last, `min(E, estᵢ) + p(Ω) + dᵢ >
    /// L`, and whose earliest completion, reached by its tasks with `est ≥ E'`, is at least `v`.
    /// Explained by `sᵢ ≥ T` and, for every `k` of Ω, `sₖ ≥ T` (`sₖ ≥ max(T, v − p(Ω'))` within
    /// Ω') and `sₖ ≤ L − dₖ`, where `T = L − p(Ω) − dᵢ + 1` is the weakest earliest start that
    /// keeps the rule's condition (Vilím's explanations of edge-finding lifted the same way;
    /// Vilím, *Filtering Algorithms for the Unary Resource Constraint*, 2008).
    fn edge_finding_reason(
        &self,
        unary: &[usize],
        i: usize,
        view: View,
        v: i64,
        ctx: &ExplainCtx<'_>,
        reasons: &mut Vec<Literal>,
    ) -> bool {
        let (si, di) = (self.start(i), self.durations[i]);
        if di == 0 {
            return false;
        }
        let (est_i, _) = view.starts(ctx, si, di);
        // The other tasks' windows: (est, lct, task), latest est first.
        let mut windows: Vec<(i64, i64, usize)> = unary
            .iter()
            .filter(|&&k| k != i && self.durations[k] > 0)
            .map(|&k| {
                let d = self.durations[k];
                let (est, lst) = view.starts(ctx, self.start(k), d);
                (est, lst + d, k)
            })
            .collect();
        windows.sort_unstable_by_key(|&(est, _, k)| (std::cmp::Reverse(est), k));
        let mut limits: Vec<i64> = windows.iter().map(|w| w.1).collect();
        limits.sort_unstable();
        limits.dedup();
        for &limit in &limits {
            let (mut work, mut ect, mut ect_at, mut ect_work) = (0i64, i64::MIN, 0usize, 0i64);
            let mut members: Vec<usize> = Vec::new();
            for &(est, lct, k) in &windows {
                if lct > limit {
                    continue;
                }
                work += self.durations[k];
                members.push(k);
                if est + work > ect {
                    (ect, ect_at, ect_work) = (est + work, members.len(), work);
                }
                if est.min(est_i) + work + di > limit && ect >= v {
                    let threshold = limit - work - di + 1;
                    reasons.push(view.at_least(si, di, threshold));
                    self.cite(i, reasons);
                    for (n, &k) in members.iter().enumerate() {
                        let (s, d) = (self.start(k), self.durations[k]);
                        let least = if n < ect_at {
                            threshold.max(v - ect_work)
                        } else {
                            threshold
                        };
                        reasons.push(view.at_least(s, d, least));
                        reasons.push(view.at_most(s, d, limit - d));
                        self.cite(k, reasons);
                    }
                    return true;
                }
            }
        }
        false
    }

    /// Cumulative edge-finding (Vilím 2009's formulation of Nuijten's rule): a task interval Ω of
    /// other tasks (`est ≥ E`, `lct ≤ L`) with `e(Ω) + eᵢ > C·(L − min(E, estᵢ))` ends before
    /// task `i` does, and an interval Ω' ⊆ Ω (`est ≥ E'`) then leaves `i` no room before
    /// `E' + ⌈(e(Ω') − (C − cᵢ)(L − E'))/cᵢ⌉`. Explained by `sₖ ≥ E` (`≥ E'` within Ω') and
    /// `sₖ ≤ L − dₖ` for each task of Ω, `sᵢ ≥ min(E, estᵢ)`, the tasks' least sizes and the
    /// capacity's largest value.
    fn energy_reason(
        &self,
        i: usize,
        view: View,
        v: i64,
        ctx: &ExplainCtx<'_>,
        reasons: &mut Vec<Literal>,
    ) -> bool {
        let (si, di, ci) = (self.start(i), self.durations[i], self.heights[i]);
        let (est_i, _) = view.starts(ctx, si, di);
        let capacity = i128::from(self.capacity);
        let own = i128::from(di) * i128::from(ci);
        let mut windows: Vec<(i64, i64, usize)> = self
            .tasks()
            .filter(|&k| k != i)
            .map(|k| {
                let d = self.durations[k];
                let (est, lst) = view.starts(ctx, self.start(k), d);
                (est, lst + d, k)
            })
            .collect();
        windows.sort_unstable_by_key(|&(est, _, k)| (std::cmp::Reverse(est), k));
        let mut limits: Vec<i64> = windows.iter().map(|w| w.1).collect();
        limits.sort_unstable();
        limits.dedup();
        for &limit in &limits {
            // The task intervals with this limit, by E descending: (E, energy, members so far).
            let mut prefixes: Vec<(i64, i128, usize)> = Vec::new();
            let mut members: Vec<usize> = Vec::new();
            let mut work = 0i128;
            for &(est, lct, k) in &windows {
                if lct > limit {
                    continue;
                }
                work += i128::from(self.durations[k]) * i128::from(self.heights[k]);
                members.push(k);
                prefixes.push((est, work, members.len()));
                let span = i128::from(limit) - i128::from(est.min(est_i));
                if work + own <= capacity * span {
                    continue;
                }
                // Ω is this prefix; the best Ω' among it and the narrower ones.
                let found = prefixes.iter().find(|&&(e, w, _)| {
                    let rest =
                        w - (capacity - i128::from(ci)) * (i128::from(limit) - i128::from(e));
                    rest > 0
                        && i128::from(e) + (rest + i128::from(ci) - 1) / i128::from(ci)
                            >= i128::from(v)
                });
                let Some(&(e_inner, _, inner)) = found else {
                    continue;
                };
                reasons.push(view.at_least(si, di, est.min(est_i)));
                self.cite(i, reasons);
                for (n, &k) in members.iter().enumerate() {
                    let (s, d) = (self.start(k), self.durations[k]);
                    let least = if n < inner { e_inner } else { est };
                    reasons.push(view.at_least(s, d, least));
                    reasons.push(view.at_most(s, d, limit - d));
                    self.cite(k, reasons);
                }
                return true;
            }
        }
        false
    }

    /// Why the propagator failed, from the domains at the failure: a task that needs more than
    /// the capacity (no reason needed); a point where the compulsory parts overload the
    /// resource, by a lifted set of them; a task that time-tabling pushes past its own other
    /// bound; two tasks of the unary part sharing a start, or each unable to precede the other;
    /// or a set of the unary part that cannot fit in its window (overload checking). Returns
    /// false when none of them accounts for the failure.
    pub(super) fn explain_overload(
        &self,
        ctx: &ExplainCtx<'_>,
        reasons: &mut Vec<Literal>,
    ) -> bool {
        let start = reasons.len();
        let explained = self.overload_or_crossing(ctx, reasons);
        if explained {
            reasons.extend_from_slice(&self.capacity_given);
            strongest_reasons(reasons, start);
        } else {
            reasons.truncate(start);
        }
        explained
    }

    /// [`Snapshot::explain_overload`] but for the capacity's literal.
    fn overload_or_crossing(&self, ctx: &ExplainCtx<'_>, reasons: &mut Vec<Literal>) -> bool {
        if let Some(i) = self.tasks().find(|&i| self.heights[i] > self.capacity) {
            self.cite(i, reasons);
            return true;
        }
        let start = reasons.len();
        let all = self.others(|_| false, View::FORWARD, ctx);
        if let Some(seg) = all.stretches.iter().find(|seg| seg.height > self.capacity) {
            // Any point of the stretch will do; the parts holding it exceed the capacity.
            return self.push_covering(&all, (seg.start, seg.start), 0, View::FORWARD, reasons);
        }
        for i in self.tasks() {
            if self.crossing_reason(i, ctx, reasons) {
                strongest_reasons(reasons, start);
                return true;
            }
            reasons.truncate(start);
        }
        let unary = &self.unary;
        for (n, &i) in unary.iter().enumerate() {
            for &j in &unary[n + 1..] {
                if self.start(i) == self.start(j) && self.durations[i] > 0 && self.durations[j] > 0
                {
                    // Two tasks that may not overlap, starting together: no solution at all.
                    self.cite(i, reasons);
                    self.cite(j, reasons);
                    return true;
                }
                let (si, di) = (self.start(i), self.durations[i]);
                let (sj, dj) = (self.start(j), self.durations[j]);
                let (est_i, lst_i) = View::FORWARD.starts(ctx, si, di);
                let (est_j, lst_j) = View::FORWARD.starts(ctx, sj, dj);
                if est_i + di > lst_j && est_j + dj > lst_i {
                    reasons.extend([
                        Literal::ge(si, clamp(lst_j - di + 1)),
                        Literal::le(sj, clamp(lst_j)),
                        Literal::ge(sj, clamp(lst_i - dj + 1)),
                        Literal::le(si, clamp(lst_i)),
                    ]);
                    self.cite(i, reasons);
                    self.cite(j, reasons);
                    return true;
                }
            }
        }
        self.overload_reason(unary, ctx, reasons)
    }

    /// A task that time-tabling pushes forward past its latest start, back before its earliest,
    /// or both ways onto no value left: the pushes' reasons, with the bound a push crosses or
    /// the holes left between them.
    fn crossing_reason(&self, i: usize, ctx: &ExplainCtx<'_>, reasons: &mut Vec<Literal>) -> bool {
        let (s, d, h) = (self.start(i), self.durations[i], self.heights[i]);
        let earliest = |view: View| {
            let (mut est, _) = view.starts(ctx, s, d);
            for seg in &self.others(|j| j == i, view, ctx).stretches {
                if seg.end <= est {
                    continue;
                }
                if seg.start >= est + d {
                    break;
                }
                if seg.height + h > self.capacity {
                    est = seg.end;
                }
            }
            est
        };
        let (est, lst) = View::FORWARD.starts(ctx, s, d);
        let (forward, backward) = (earliest(View::FORWARD), earliest(View::BACKWARD));
        // The latest start that time-tabling leaves, forward in time.
        let latest = -backward - d;
        if forward > lst {
            reasons.push(Literal::le(s, clamp(lst)));
            return self.time_table_reason(i, View::FORWARD, lst + 1, ctx, reasons);
        }
        if latest < est {
            reasons.push(Literal::ge(s, clamp(est)));
            return self.time_table_reason(i, View::BACKWARD, -(est - 1) - d, ctx, reasons);
        }
        // Pushed from either side or both to values the domain had lost already: the pushes'
        // reasons and the holes left between.
        if (latest - forward) > i64::from(u16::MAX) || (forward <= est && latest >= lst) {
            return false;
        }
        if (forward..=latest).any(|w| ctx.contains(s, clamp(w))) {
            return false;
        }
        reasons.extend((forward..=latest).map(|w| Literal::ne(s, clamp(w))));
        (forward <= est || self.time_table_reason(i, View::FORWARD, forward, ctx, reasons))
            && (latest >= lst || self.time_table_reason(i, View::BACKWARD, backward, ctx, reasons))
    }

    /// Overload checking on the unary part: a set of tasks with `est ≥ E` and `lct ≤ L` whose
    /// durations add up to more than `L − E`, explained by `sₖ ≥ L − p + 1` and `sₖ ≤ L − dₖ` for
    /// each of its tasks (`p` their total duration), the weakest window that still overloads.
    fn overload_reason(
        &self,
        unary: &[usize],
        ctx: &ExplainCtx<'_>,
        reasons: &mut Vec<Literal>,
    ) -> bool {
        let mut windows: Vec<(i64, i64, usize)> = unary
            .iter()
            .filter(|&&k| self.durations[k] > 0)
            .map(|&k| {
                let d = self.durations[k];
                let (est, lst) = View::FORWARD.starts(ctx, self.start(k), d);
                (est, lst + d, k)
            })
            .collect();
        windows.sort_unstable_by_key(|&(est, _, k)| (std::cmp::Reverse(est), k));
        let mut limits: Vec<i64> = windows.iter().map(|w| w.1).collect();
        limits.sort_unstable();
        limits.dedup();
        for &limit in &limits {
            let mut work = 0i64;
            let mut members: Vec<usize> = Vec::new();
            for &(est, lct, k) in &windows {
                if lct > limit {
                    continue;
                }
                work += self.durations[k];
                members.push(k);
                if est + work > limit {
                    for &k in &members {
                        let (s, d) = (self.start(k), self.durations[k]);
                        reasons.push(Literal::ge(s, clamp(limit - work + 1)));
                        reasons.push(Literal::le(s, clamp(limit - d)));
                        self.cite(k, reasons);
                    }
                    return true;
                }
            }
        }
        false
    }
}
