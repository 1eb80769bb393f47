//! Scheduling: tasks with start variables and constant durations sharing a resource.

use std::cell::RefCell;

use crate::{
    Constraint, EventSet, ModelError, PropagationCtx, Propagator, VarId, Wipeout,
    constraints::util::{Args, dedup_reasons, invalid},
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
    /// and learning explains it by time-tabling ([`Cumulative::explain_push`]), that is by the
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

    /// Why time-tabling pushed the task starting at `literal.var` to `literal`'s bound: the
    /// stretches of the other tasks' compulsory parts (Aggoun & Beldiceanu's profile, computed
    /// from the bounds just before the change) that leave the task no room, each explained by the
    /// tasks that fill it, chosen highest first until they leave less than the task's
    /// requirement, and each of those by the two bounds that make it cover the whole stretch
    /// (Schutt, Feydy, Stuckey & Wallace 2011, *Explaining the cumulative propagator*, with the
    /// stretch in place of their time point). The task's own bound is lifted to the weakest from
    /// which the same stretches still push it. Returns false, pushing nothing, when the profile
    /// does not account for the bound (edge-finding moved it), when a start variable serves
    /// several tasks, or for a removal.
    fn explain_push(
        &self,
        literal: crate::Literal,
        ctx: &crate::ExplainCtx<'_>,
        reasons: &mut Vec<crate::Literal>,
    ) -> bool {
        use crate::LiteralRelation;
        if self.args.scope.len() != self.args.slots.len() {
            return false;
        }
        let Some(i) = self.tasks().find(|&i| self.start(i) == literal.var) else {
            return false;
        };
        let (lb, ub) = ctx.bounds(literal.var);
        let v = i64::from(literal.value);
        let (lower, upper) = match literal.relation {
            LiteralRelation::Ge => (true, false),
            LiteralRelation::Le => (false, true),
            LiteralRelation::Eq => (i64::from(lb) < v, i64::from(ub) > v),
            LiteralRelation::Ne => return false,
        };
        // The other tasks' compulsory parts, as (start, end, task).
        let parts: Vec<(i64, i64, usize)> = self
            .tasks()
            .filter(|&j| j != i)
            .filter_map(|j| {
                let (lo, hi) = ctx.bounds(self.start(j));
                let (lst, ect) = (i64::from(hi), i64::from(lo) + self.durations[j]);
                (lst < ect).then_some((lst, ect, j))
            })
            .collect();
        // The stretches of their profile, with their heights, by the revision's own sweep.
        let mut events: Vec<(i64, i64)> = parts
            .iter()
            .flat_map(|&(a, b, j)| [(a, self.heights[j]), (b, -self.heights[j])])
            .collect();
        events.sort_unstable();
        let stretches: Vec<Segment> = sweep(&events)
            .filter_map(|(start, next, height)| next.map(|end| Segment { start, end, height }))
            .collect();
        let (d, h) = (self.durations[i], self.heights[i]);
        let overloaded = |seg: &Segment| seg.height + h > self.capacity;
        if !lower && !upper {
            return false;
        }
        let start = reasons.len();
        // A fixing pushed from one side keeps the other side's bound, which it rests on too.
        if !upper && v == i64::from(ub) && literal.relation == LiteralRelation::Eq {
            reasons.push(crate::Literal::le(literal.var, ub));
        }
        if !lower && v == i64::from(lb) && literal.relation == LiteralRelation::Eq {
            reasons.push(crate::Literal::ge(literal.var, lb));
        }
        let mut used: Vec<Segment> = Vec::new();
        if lower {
            let mut est = i64::from(lb);
            for seg in &stretches {
                if seg.end <= est {
                    continue;
                }
                if seg.start >= est + d {
                    break;
                }
                if overloaded(seg) {
                    if used.is_empty() {
                        // Every start from here on overlaps this first stretch.
                        reasons.push(crate::Literal::ge(literal.var, clamp(seg.start - d + 1)));
                    }
                    used.push(*seg);
                    est = seg.end;
                }
            }
            if est < v {
                reasons.truncate(start);
                return false;
            }
        }
        if upper {
            let first_used = used.len();
            let mut lct = i64::from(ub) + d;
            for seg in stretches.iter().rev() {
                if seg.start >= lct {
                    continue;
                }
                if seg.end <= lct - d {
                    break;
                }
                if overloaded(seg) {
                    if used.len() == first_used {
                        reasons.push(crate::Literal::le(literal.var, clamp(seg.end - 1)));
                    }
                    used.push(*seg);
                    lct = seg.start;
                }
            }
            if lct - d > v {
                reasons.truncate(start);
                return false;
            }
        }
        for seg in used {
            let mut filling: Vec<usize> = parts
                .iter()
                .filter(|&&(a, b, _)| a <= seg.start && seg.end <= b)
                .map(|&(_, _, j)| j)
                .collect();
            filling.sort_unstable_by_key(|&j| std::cmp::Reverse(self.heights[j]));
            let mut load = h;
            for j in filling {
                if load > self.capacity {
                    break;
                }
                load += self.heights[j];
                let s = self.start(j);
                reasons.push(crate::Literal::le(s, clamp(seg.start)));
                reasons.push(crate::Literal::ge(s, clamp(seg.end - self.durations[j])));
            }
        }
        dedup_reasons(reasons, start);
        true
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

    fn propagator(&self) -> Option<&dyn Propagator> {
        Some(self)
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

    /// Time-table explanations: the stretches of the other tasks' compulsory parts that leave
    /// the task no room, each by the tasks that fill it; a bound that edge-finding or detectable
    /// precedences moved gets the learner's default.
    fn explain(
        &self,
        literal: crate::Literal,
        ctx: &crate::ExplainCtx<'_>,
        reasons: &mut Vec<crate::Literal>,
    ) -> bool {
        self.explain_push(literal, ctx, reasons)
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
fn clamp(x: i64) -> i32 {
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

    fn propagator(&self) -> Option<&dyn Propagator> {
        Some(self)
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

    /// The cumulative resource's time-table explanations.
    fn explain(
        &self,
        literal: crate::Literal,
        ctx: &crate::ExplainCtx<'_>,
        reasons: &mut Vec<crate::Literal>,
    ) -> bool {
        self.resource.explain_push(literal, ctx, reasons)
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
