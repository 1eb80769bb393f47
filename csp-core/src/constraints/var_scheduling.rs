//! Scheduling in its general form: durations, requirements and capacity that are variables, and
//! optional tasks. MiniZinc's `cumulative`, `disjunctive` and `disjunctive_strict` when their data
//! are not all fixed, and their forms over optional start times (`var opt int`).
//!
//! Every rule here reasons about a task's *least* duration and requirement: a task of duration `d`
//! and requirement `r` running from `s` occupies at least `[s, s + dmin)` at height `rmin`, so any
//! schedule of the real tasks is also a schedule of these smaller ones, and every deduction about the
//! smaller tasks (a start pushed, an overload found) holds for the real ones.

use crate::Domains;
use std::cmp::Reverse;

use crate::{
    Constraint, EventSet, ExplainCtx, Literal, LiteralRelation, ModelError, PropagationCtx,
    Propagator, VarId, Wipeout,
    constraints::{
        scheduling::{Snapshot, clamp, sweep},
        util::{Args, invalid},
    },
    revision::Priority,
};

/// One task of a [`VarCumulative`] or a [`VarDisjunctive`]: its start, its duration (which must not
/// be negative) and, for an optional task, the 0/1 variable saying whether it runs. An absent task
/// takes nothing from the resource; its start is then free.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Task {
    /// When the task starts.
    pub start: VarId,
    /// How long it runs.
    pub duration: VarId,
    /// For an optional task, 1 when it runs and 0 when it is absent; `None` for a task that runs.
    pub presence: Option<VarId>,
}

impl Task {
    /// A task that runs.
    pub fn new(start: VarId, duration: VarId) -> Self {
        Task {
            start,
            duration,
            presence: None,
        }
    }

    /// An optional task: it runs when `presence` is 1 and is absent when it is 0.
    pub fn optional(start: VarId, duration: VarId, presence: VarId) -> Self {
        Task {
            start,
            duration,
            presence: Some(presence),
        }
    }
}

/// Where a task's variables are among the resource's arguments.
#[derive(Debug, Clone, Copy)]
struct TaskArgs {
    start: usize,
    duration: usize,
    /// `None` on a unary resource, where every requirement is 1.
    height: Option<usize>,
    presence: Option<usize>,
}

/// A task's bounds as one revision sees them, with the least duration and requirement.
#[derive(Debug, Clone, Copy)]
struct Bounds {
    est: i64,
    lst: i64,
    dmin: i64,
    rmin: i64,
    /// It surely runs.
    present: bool,
    /// It surely does not.
    absent: bool,
}

impl Bounds {
    /// Whether it surely takes something from the resource: it runs, for a positive time, at a
    /// positive height.
    fn takes(&self) -> bool {
        self.present && self.dmin > 0 && self.rmin > 0
    }
}

/// A stretch `[start, end)` of the compulsory parts' profile and its height.
#[derive(Debug, Clone, Copy)]
struct Segment {
    start: i64,
    end: i64,
    height: i64,
}

/// A task for edge-finding in one direction of time: its window and its least duration and
/// requirement.
#[derive(Debug, Clone, Copy)]
struct Window {
    est: i64,
    lct: i64,
    duration: i64,
    height: i64,
}

/// What [`VarCumulative`] and [`VarDisjunctive`] share: tasks on one renewable resource.
#[derive(Debug, Clone)]
struct Resource {
    args: Args,
    tasks: Vec<TaskArgs>,
    /// The capacity's argument; `None` for a unary resource (capacity 1, every requirement 1).
    capacity: Option<usize>,
    /// On a unary resource: whether tasks of zero duration are kept out of the others too
    /// (`disjunctive_strict`).
    strict: bool,
}

impl Resource {
    fn new(
        tasks: &[Task],
        heights: Option<Vec<VarId>>,
        capacity: Option<VarId>,
        strict: bool,
    ) -> Result<Self, ModelError> {
        if let Some(heights) = &heights
            && heights.len() != tasks.len()
        {
            return Err(ModelError::ArityMismatch {
                constraint: "cumulative requirements".to_owned(),
                expected: tasks.len(),
                found: heights.len(),
            });
        }
        let mut vars = Vec::with_capacity(4 * tasks.len() + 1);
        let mut layout = Vec::with_capacity(tasks.len());
        for (i, task) in tasks.iter().enumerate() {
            let mut push = |var: VarId| {
                vars.push(var);
                vars.len() - 1
            };
            let start = push(task.start);
            let duration = push(task.duration);
            let height = heights.as_ref().map(|h| push(h[i]));
            let presence = task.presence.map(&mut push);
            layout.push(TaskArgs {
                start,
                duration,
                height,
                presence,
            });
        }
        let capacity = capacity.map(|c| {
            vars.push(c);
            vars.len() - 1
        });
        if strict && capacity.is_some() {
            return Err(invalid("cumulative", "only a unary resource can be strict"));
        }
        Ok(Resource {
            args: Args::new(vars),
            tasks: layout,
            capacity,
            strict,
        })
    }

    fn var(&self, arg: usize) -> VarId {
        self.args.var(arg)
    }

    /// Every task's bounds now.
    fn read(&self, ctx: &PropagationCtx<'_>) -> Vec<Bounds> {
        self.tasks
            .iter()
            .map(|t| {
                let start = self.var(t.start);
                let (present, absent) = match t.presence {
                    None => (true, false),
                    Some(p) => (ctx.lb(self.var(p)) >= 1, ctx.ub(self.var(p)) <= 0),
                };
                Bounds {
                    est: i64::from(ctx.lb(start)),
                    lst: i64::from(ctx.ub(start)),
                    dmin: i64::from(ctx.lb(self.var(t.duration))).max(0),
                    rmin: t
                        .height
                        .map_or(1, |h| i64::from(ctx.lb(self.var(h))).max(0)),
                    present,
                    absent,
                }
            })
            .collect()
    }

    /// The largest capacity left.
    fn capacity_max(&self, ctx: &PropagationCtx<'_>) -> i64 {
        self.capacity.map_or(1, |c| i64::from(ctx.ub(self.var(c))))
    }

    /// Durations and requirements are not negative, presences are 0 or 1, and a resource with a
    /// task has a capacity of at least 0 (MiniZinc's definition).
    fn basics(&self, ctx: &mut PropagationCtx<'_>) -> Result<(), Wipeout> {
        for t in &self.tasks {
            ctx.set_min(self.var(t.duration), 0)?;
            if let Some(h) = t.height {
                ctx.set_min(self.var(h), 0)?;
            }
            if let Some(p) = t.presence {
                ctx.restrict_bounds(self.var(p), 0, 1)?;
            }
        }
        if let Some(c) = self.capacity
            && !self.tasks.is_empty()
        {
            ctx.set_min(self.var(c), 0)?;
        }
        Ok(())
    }

    /// Marks an optional task absent (it cannot run), or fails for a task that must run.
    fn exclude(&self, ctx: &mut PropagationCtx<'_>, i: usize) -> Result<bool, Wipeout> {
        match self.tasks[i].presence {
            Some(p) => ctx.fix(self.var(p), 0),
            None => Err(Wipeout),
        }
    }

    /// The compulsory parts' profile (`[lst, est + dmin)` of each task that surely takes something),
    /// in time order, zero-height stretches left out. Fails when a stretch exceeds `capacity`.
    fn profile(tasks: &[Bounds], capacity: i64) -> Result<Vec<Segment>, Wipeout> {
        let mut events: Vec<(i64, i64)> = Vec::new();
        for b in tasks.iter().filter(|b| b.takes()) {
            if b.lst < b.est + b.dmin {
                events.push((b.lst, b.rmin));
                events.push((b.est + b.dmin, -b.rmin));
            }
        }
        events.sort_unstable();
        let mut profile = Vec::new();
        for (time, next, height) in sweep(&events) {
            if let Some(next) = next
                && height > 0
            {
                if height > capacity {
                    return Err(Wipeout);
                }
                profile.push(Segment {
                    start: time,
                    end: next,
                    height,
                });
            }
        }
        Ok(profile)
    }

    /// Time-tabling (Aggoun & Beldiceanu, *Extending CHIP in order to solve complex scheduling and
    /// placement problems*, 1993) over the tasks' least durations and requirements. Returns whether a
    /// bound moved.
    fn time_table(&self, ctx: &mut PropagationCtx<'_>) -> Result<bool, Wipeout> {
        let tasks = self.read(ctx);
        let capacity = self.capacity_max(ctx);
        let profile = Self::profile(&tasks, capacity)?;
        let mut changed = false;
        if let Some(c) = self.capacity {
            // The capacity covers the highest stretch and every requirement of a task that runs.
            let peak = profile.iter().map(|s| s.height).max().unwrap_or(0);
            let need = tasks
                .iter()
                .filter(|b| b.present && b.dmin > 0)
                .map(|b| b.rmin)
                .fold(peak, i64::max);
            changed |= ctx.set_min(self.var(c), need)?;
        }
        for (i, b) in tasks.iter().enumerate() {
            if b.absent || b.dmin == 0 {
                continue;
            }
            let args = self.tasks[i];
            if b.present
                && let Some(h) = args.height
            {
                // A task that runs needs its requirement at some time.
                changed |= ctx.set_max(self.var(h), capacity)?;
            }
            if b.rmin == 0 {
                continue;
            }
            // The task's own compulsory part, as the profile counted it.
            let (own_from, own_to) = (b.lst, b.est + b.dmin);
            let counted = b.takes() && own_from < own_to;
            let own = |seg: &Segment| {
                if counted && seg.start >= own_from && seg.end <= own_to {
                    b.rmin
                } else {
                    0
                }
            };
            let conflict = |seg: &Segment| seg.height - own(seg) + b.rmin > capacity;
            // The earliest start from which [start, start + dmin) meets no conflict, and likewise
            // the latest.
            let mut start = b.est;
            for seg in &profile {
                if seg.end <= start {
                    continue;
                }
                if seg.start >= start + b.dmin {
                    break;
                }
                if conflict(seg) {
                    start = seg.end;
                }
            }
            let mut end = b.lst + b.dmin;
            for seg in profile.iter().rev() {
                if seg.start >= end {
                    continue;
                }
                if seg.end <= end - b.dmin {
                    break;
                }
                if conflict(seg) {
                    end = seg.start;
                }
            }
            let latest = end - b.dmin;
            if start > latest {
                changed |= self.exclude(ctx, i)?;
                continue;
            }
            if !b.present {
                // An optional task's start is free while it may be absent.
                continue;
            }
            changed |= ctx.store.set_bounds(self.var(args.start), start, latest)?;
            if let Some(h) = args.height
                && counted
            {
                // Where the task surely runs, its requirement fits beside the others' compulsory
                // parts.
                let room = profile
                    .iter()
                    .filter(|seg| seg.start >= own_from && seg.end <= own_to)
                    .map(|seg| capacity - (seg.height - b.rmin))
                    .min()
                    .unwrap_or(capacity);
                changed |= ctx.set_max(self.var(h), room)?;
            }
            // The longest it can run: from a start it can take, up to the next conflict.
            let mut longest = Some(0i64);
            let candidates = std::iter::once(start).chain(
                profile
                    .iter()
                    .filter(|seg| conflict(seg) && seg.end > start && seg.end <= latest)
                    .map(|seg| seg.end),
            );
            for s in candidates {
                match profile.iter().find(|seg| seg.end > s && conflict(seg)) {
                    None => longest = None,
                    Some(seg) if seg.start > s => {
                        longest = longest.map(|l| l.max(seg.start - s));
                    }
                    Some(_) => {}
                }
                if longest.is_none() {
                    break;
                }
            }
            if let Some(longest) = longest {
                changed |= ctx.set_max(self.var(args.duration), longest)?;
            }
        }
        Ok(changed)
    }

    /// Every pair of tasks that surely run and may not overlap: the order that is left when one is
    /// impossible (bounds(Z) consistency of `sᵢ + dᵢ ≤ sⱼ ∨ sⱼ + dⱼ ≤ sᵢ` over the least
    /// durations). An optional task that fits neither before nor after one that runs is absent.
    fn pairs(
        &self,
        ctx: &mut PropagationCtx<'_>,
        tasks: &[Bounds],
        members: &[usize],
    ) -> Result<bool, Wipeout> {
        let mut changed = false;
        for (k, &i) in members.iter().enumerate() {
            for &j in &members[k + 1..] {
                let (a, b) = (tasks[i], tasks[j]);
                if a.absent || b.absent || !(a.present || b.present) {
                    continue;
                }
                let i_first = a.est + a.dmin <= b.lst;
                let j_first = b.est + b.dmin <= a.lst;
                match (i_first, j_first) {
                    (false, false) if !a.present => changed |= self.exclude(ctx, i)?,
                    (false, false) if !b.present => changed |= self.exclude(ctx, j)?,
                    (false, false) => return Err(Wipeout),
                    _ if !(a.present && b.present) => {}
                    (false, true) => {
                        changed |= ctx.set_min(self.var(self.tasks[i].start), b.est + b.dmin)?;
                        changed |= ctx.set_max(self.var(self.tasks[j].start), a.lst - b.dmin)?;
                    }
                    (true, false) => {
                        changed |= ctx.set_min(self.var(self.tasks[j].start), a.est + a.dmin)?;
                        changed |= ctx.set_max(self.var(self.tasks[i].start), b.lst - a.dmin)?;
                    }
                    (true, true) => {}
                }
            }
        }
        Ok(changed)
    }

    /// Pushes the tasks in `members` (which surely run, with positive least duration and
    /// requirement) by edge-finding on `capacity`, both ways in time; each task's requirement is
    /// `height(bounds)`. Returns whether a bound moved.
    fn edge_finding(
        &self,
        ctx: &mut PropagationCtx<'_>,
        tasks: &[Bounds],
        members: &[usize],
        capacity: i64,
        height: impl Fn(&Bounds) -> i64,
    ) -> Result<bool, Wipeout> {
        if members.len() < 2 {
            return Ok(false);
        }
        let mut changed = false;
        let forward: Vec<Window> = members
            .iter()
            .map(|&i| {
                let b = &tasks[i];
                Window {
                    est: b.est,
                    lct: b.lst + b.dmin,
                    duration: b.dmin,
                    height: height(b),
                }
            })
            .collect();
        let ests = edge_find(&forward, capacity)?;
        for (&i, est) in members.iter().zip(ests) {
            changed |= ctx.set_min(self.var(self.tasks[i].start), est)?;
        }
        let backward: Vec<Window> = forward
            .iter()
            .map(|w| Window {
                est: -w.lct,
                lct: -w.est,
                ..*w
            })
            .collect();
        let mirrored = edge_find(&backward, capacity)?;
        for ((&i, w), est) in members.iter().zip(&forward).zip(mirrored) {
            changed |= ctx.set_max(self.var(self.tasks[i].start), -est - w.duration)?;
        }
        Ok(changed)
    }

    /// The disjunctive reasoning on the tasks no two of which can run at once (on a unary resource,
    /// every task of positive least duration; on a cumulative one, those needing more than half
    /// the capacity), then cumulative edge-finding over every task that surely takes something.
    fn reason(&self, ctx: &mut PropagationCtx<'_>) -> Result<bool, Wipeout> {
        let tasks = self.read(ctx);
        let capacity = self.capacity_max(ctx);
        let unary = |b: &Bounds| {
            !b.absent
                && if self.capacity.is_none() {
                    b.dmin > 0 || self.strict
                } else {
                    b.dmin > 0 && 2 * b.rmin > capacity
                }
        };
        let members: Vec<usize> = (0..tasks.len()).filter(|&i| unary(&tasks[i])).collect();
        if self.pairs(ctx, &tasks, &members)? {
            return Ok(true);
        }
        let running: Vec<usize> = members
            .iter()
            .copied()
            .filter(|&i| tasks[i].present && tasks[i].dmin > 0)
            .collect();
        if self.edge_finding(ctx, &tasks, &running, 1, |_| 1)? {
            return Ok(true);
        }
        if self.capacity.is_none() {
            return Ok(false);
        }
        let taking: Vec<usize> = (0..tasks.len()).filter(|&i| tasks[i].takes()).collect();
        self.edge_finding(ctx, &tasks, &taking, capacity, |b| b.rmin)
    }

    fn revise(&self, ctx: &mut PropagationCtx<'_>) -> Result<(), Wipeout> {
        self.basics(ctx)?;
        loop {
            if self.time_table(ctx)? {
                continue;
            }
            if !self.reason(ctx)? {
                return Ok(());
            }
        }
    }

    /// The tasks that surely take something (present, positive least duration and requirement)
    /// as explanations see them at `ctx`'s moment: least durations and requirements, cited by
    /// `dᵢ ≥ …`, `hᵢ ≥ …` and `presentᵢ ≥ 1`, and the largest capacity, by `b ≤ …`. Tasks of
    /// zero least duration (a strict resource's) are left out, and with them what they infer.
    ///
    /// Task `assume` (if any) is taken as present, its presence not cited: what the snapshot then
    /// explains shows it absent. Returns each task's place in the snapshot too.
    fn snapshot(
        &self,
        ctx: &ExplainCtx<'_>,
        assume: Option<usize>,
    ) -> (Snapshot, Vec<Option<usize>>) {
        let lb = |arg: usize| i64::from(ctx.bounds(self.var(arg)).0);
        let mut snapshot = Snapshot::default();
        snapshot.capacity = match self.capacity {
            Some(c) => {
                let most = ctx.bounds(self.var(c)).1;
                snapshot.capacity_given.push(Literal::le(self.var(c), most));
                i64::from(most)
            }
            None => 1,
        };
        snapshot.energy = self.capacity.is_some();
        let mut places = vec![None; self.tasks.len()];
        for (i, t) in self.tasks.iter().enumerate() {
            let present = assume == Some(i) || t.presence.is_none_or(|p| lb(p) >= 1);
            let dmin = lb(t.duration).max(0);
            let rmin = t.height.map_or(1, |h| lb(h).max(0));
            // A strict resource's tasks of no duration still may not lie inside others.
            let zero = self.strict && dmin == 0;
            if !present || (dmin == 0 && !zero) || rmin == 0 {
                continue;
            }
            let mut given = Vec::new();
            if dmin > 0 {
                given.push(Literal::ge(self.var(t.duration), dmin as i32));
            }
            if let Some(h) = t.height {
                given.push(Literal::ge(self.var(h), rmin as i32));
            }
            if let Some(p) = t.presence
                && assume != Some(i)
            {
                given.push(Literal::ge(self.var(p), 1));
            }
            places[i] = Some(snapshot.starts.len());
            let unary = self.capacity.is_none() || 2 * rmin > snapshot.capacity;
            if unary {
                snapshot.unary.push(snapshot.starts.len());
            }
            snapshot.starts.push(self.var(t.start));
            snapshot.durations.push(dmin);
            snapshot.heights.push(rmin);
            snapshot.given.push(given);
        }
        (snapshot, places)
    }

    /// Explains a start's bound by time-tabling, a detectable precedence, unary or cumulative
    /// edge-finding over the tasks that surely take something (see [`Resource::snapshot`]); the
    /// basic bounds (sizes not negative, presences 0 or 1) by nothing; an absent task by what
    /// would fail were it present; the capacity's least value by a task's requirement or the
    /// compulsory parts at a point; a requirement's largest value by the capacity or the room
    /// the others' compulsory parts leave; a duration's largest value by the points where the
    /// task does not fit within reach of each start; forward checking's removals by the rest of
    /// the scope's values.
    fn explain(&self, literal: Literal, ctx: &ExplainCtx<'_>, reasons: &mut Vec<Literal>) -> bool {
        let start = reasons.len();
        let (snapshot, places) = self.snapshot(ctx, None);
        if snapshot.explain_change(literal, ctx, reasons) {
            return true;
        }
        reasons.truncate(start);
        let var = literal.var;
        let (lb, ub) = ctx.bounds(var);
        let v = i64::from(literal.value);
        // A bound lands on the nearest value left; the values passed were holes already.
        let (mut from_below, mut from_above) = (v, v);
        if ctx.has_holes(var) {
            while from_below > i64::from(lb) && !ctx.contains(var, clamp(from_below - 1)) {
                from_below -= 1;
            }
            while from_above < i64::from(ub) && !ctx.contains(var, clamp(from_above + 1)) {
                from_above += 1;
            }
        }
        let (ge, le) = match literal.relation {
            LiteralRelation::Ge => (true, false),
            LiteralRelation::Le => (false, true),
            LiteralRelation::Eq => (i64::from(lb) < v, i64::from(ub) > v),
            LiteralRelation::Ne => return self.fixed_reason(Some(var), ctx, reasons),
        };
        if ge && le {
            // Only a presence is cut from both sides at once, to 0 or 1, which needs no reason.
            let presence = self
                .tasks
                .iter()
                .any(|t| t.presence.is_some_and(|p| self.var(p) == var));
            return presence && from_below <= 0 && from_above >= 1;
        }
        // A fixing from one side rests on the other side's bound too.
        if literal.relation == LiteralRelation::Eq {
            reasons.push(if ge {
                Literal::le(var, ub)
            } else {
                Literal::ge(var, lb)
            });
        }
        let lb_of = |arg: usize| i64::from(ctx.bounds(self.var(arg)).0);
        for (i, t) in self.tasks.iter().enumerate() {
            let is = |arg: Option<usize>| arg.is_some_and(|a| self.var(a) == var);
            // Durations and requirements are not negative; presences are 0 or 1.
            if ge && from_below <= 0 && (is(Some(t.duration)) || is(t.height) || is(t.presence)) {
                return true;
            }
            if le && from_above >= 1 && is(t.presence) {
                return true;
            }
            if le && from_above < 1 && is(t.presence) {
                // Absent: were it present, the resource would fail.
                let mark = reasons.len();
                let (assumed, places) = self.snapshot(ctx, Some(i));
                if places[i].is_some() && assumed.explain_overload(ctx, reasons) {
                    return true;
                }
                reasons.truncate(mark);
            }
            if le
                && is(Some(t.duration))
                && let Some(k) = places[i]
            {
                // Every start it has meets a point where it does not fit, soon enough.
                let mark = reasons.len();
                if snapshot.duration_reason(k, from_above, ctx, reasons) {
                    return true;
                }
                reasons.truncate(mark);
            }
            let running = t.presence.is_none_or(|p| lb_of(p) >= 1) && lb_of(t.duration) >= 1;
            if le && is(t.height) && running {
                // A task that runs needs its requirement at some time: at most the capacity.
                if let Some(c) = self.capacity
                    && from_above >= i64::from(ctx.bounds(self.var(c)).1)
                {
                    reasons.push(Literal::le(self.var(c), ctx.bounds(self.var(c)).1));
                    reasons.push(Literal::ge(self.var(t.duration), 1));
                    if let Some(p) = t.presence {
                        reasons.push(Literal::ge(self.var(p), 1));
                    }
                    return true;
                }
                let mark = reasons.len();
                if let Some(k) = places[i]
                    && snapshot.room_reason(k, from_above, ctx, reasons)
                {
                    return true;
                }
                reasons.truncate(mark);
            }
        }
        if ge && self.capacity.is_some_and(|c| self.var(c) == var) && !self.tasks.is_empty() {
            if from_below <= 0 {
                return true;
            }
            // A task that runs needs its requirement.
            for t in &self.tasks {
                let running = t.presence.is_none_or(|p| lb_of(p) >= 1) && lb_of(t.duration) >= 1;
                if let Some(h) = t.height
                    && running
                    && lb_of(h) >= from_below
                {
                    reasons.push(Literal::ge(self.var(h), clamp(from_below)));
                    reasons.push(Literal::ge(self.var(t.duration), 1));
                    if let Some(p) = t.presence {
                        reasons.push(Literal::ge(self.var(p), 1));
                    }
                    return true;
                }
            }
            if snapshot.peak_reason(from_below, ctx, reasons) {
                return true;
            }
        }
        reasons.truncate(start);
        false
    }

    /// Explains a failure by an overloaded point, a task pushed onto no value, a pair that
    /// cannot be ordered or an overloaded task interval of the unary part, among the tasks that
    /// surely take something.
    fn explain_failure(&self, ctx: &ExplainCtx<'_>, reasons: &mut Vec<Literal>) -> bool {
        self.snapshot(ctx, None).0.explain_overload(ctx, reasons)
            || self.fixed_reason(None, ctx, reasons)
    }

    /// Forward checking's removals and failures, once every scope variable but `except` is
    /// fixed: those values, which the checker refused with the removed one (or as they are).
    /// Returns false, citing nothing, while some other variable is not fixed.
    fn fixed_reason(
        &self,
        except: Option<VarId>,
        ctx: &ExplainCtx<'_>,
        reasons: &mut Vec<Literal>,
    ) -> bool {
        let others = self.args.scope.iter().filter(|&&v| Some(v) != except);
        if others.clone().any(|&v| ctx.bounds(v).0 != ctx.bounds(v).1) {
            return false;
        }
        reasons.extend(others.map(|&v| Literal::eq(v, ctx.bounds(v).0)));
        true
    }

    /// Whether task `i` runs in the assignment `values`.
    fn runs(&self, values: &[i32], i: usize) -> bool {
        self.tasks[i]
            .presence
            .is_none_or(|p| self.args.value(values, p) == 1)
    }

    /// The checks every form shares: durations and requirements not negative, presences 0 or 1.
    fn data_valid(&self, values: &[i32]) -> bool {
        self.tasks.iter().all(|t| {
            self.args.value(values, t.duration) >= 0
                && t.height.is_none_or(|h| self.args.value(values, h) >= 0)
                && t.presence
                    .is_none_or(|p| matches!(self.args.value(values, p), 0 | 1))
        })
    }
}

/// Edge-finding for a cumulative resource of `capacity` (Nuijten, *Time and resource constrained
/// scheduling*, 1994; in the formulation of Vilím, *Edge Finding Filtering Algorithm for Discrete
/// Cumulative Resources in O(kn log n)*, CP 2009, without his Θ-tree). Ω ranges over the task
/// intervals `{j : estⱼ ≥ E, lctⱼ ≤ L}`: an Ω whose energy exceeds `capacity · (L − E)` is an
/// overload; a task `i` outside Ω with `e(Ω) + eᵢ > capacity · (L − min(E, estᵢ))` ends after all of
/// Ω, so it starts no earlier than `E' + ⌈(e(Ω') − (capacity − cᵢ)(L − E'))/cᵢ⌉` for each task
/// interval Ω' of Ω with the same `L`. (Vilím also takes Ω' with smaller `L`, a little stronger.) On
/// a unary resource (capacity and requirements 1) this is Carlier & Pinson's edge-finding, the
/// update being Ω's earliest completion.
///
/// Returns each task's new earliest start; O(k·n²) for `k` distinct requirements.
fn edge_find(tasks: &[Window], capacity: i64) -> Result<Vec<i64>, Wipeout> {
    let mut ests: Vec<i64> = tasks.iter().map(|t| t.est).collect();
    if capacity <= 0 {
        return Ok(ests);
    }
    let capacity = i128::from(capacity);
    let mut by_est: Vec<usize> = (0..tasks.len()).collect();
    by_est.sort_by_key(|&k| Reverse(tasks[k].est));
    let mut limits: Vec<i64> = tasks.iter().map(|t| t.lct).collect();
    limits.sort_unstable();
    limits.dedup();
    let mut heights: Vec<i64> = tasks.iter().map(|t| t.height).collect();
    heights.sort_unstable();
    heights.dedup();
    let energy = |t: &Window| i128::from(t.duration) * i128::from(t.height);
    // Per limit: the task intervals by E, descending, with their energies; the least slack from
    // each interval to the largest; and per requirement the best update so far.
    let mut omega: Vec<(i64, i128)> = Vec::new();
    let mut tail_slack: Vec<i128> = Vec::new();
    let mut updates: Vec<Vec<Option<i128>>> = vec![Vec::new(); heights.len()];
    for &limit in &limits {
        omega.clear();
        let mut work = 0i128;
        for &k in &by_est {
            if tasks[k].lct > limit {
                continue;
            }
            work += energy(&tasks[k]);
            match omega.last_mut() {
                Some(last) if last.0 == tasks[k].est => last.1 = work,
                _ => omega.push((tasks[k].est, work)),
            }
        }
        if omega.is_empty() {
            continue;
        }
        let span = |e: i64| i128::from(limit) - i128::from(e);
        for &(e, work) in &omega {
            if work > capacity * span(e) {
                return Err(Wipeout);
            }
        }
        tail_slack.clear();
        tail_slack.resize(omega.len(), 0);
        let mut least = i128::MAX;
        for k in (0..omega.len()).rev() {
            least = least.min(capacity * span(omega[k].0) - omega[k].1);
            tail_slack[k] = least;
        }
        for (h, &c) in heights.iter().enumerate() {
            let c = i128::from(c);
            let row = &mut updates[h];
            row.clear();
            let mut best: Option<i128> = None;
            for &(e, work) in &omega {
                let rest = work - (capacity - c) * span(e);
                if rest > 0 {
                    let bound = i128::from(e) + (rest + c - 1) / c;
                    best = Some(best.map_or(bound, |b| b.max(bound)));
                }
                row.push(best);
            }
        }
        for (i, task) in tasks.iter().enumerate() {
            if task.lct <= limit {
                continue;
            }
            let own = energy(task);
            // Intervals starting after the task come first (E descending).
            let after = omega.partition_point(|&(e, _)| e > task.est);
            // The widest Ω among those starting at or before the task: the last with slack < own.
            let widest = tail_slack[after..].partition_point(|&slack| slack < own);
            let detected = if widest > 0 {
                Some(after + widest - 1)
            } else if after > 0 && omega[after - 1].1 + own > capacity * span(task.est) {
                Some(after - 1)
            } else {
                None
            };
            if let Some(k) = detected {
                let h = heights
                    .binary_search(&task.height)
                    .expect("every requirement is listed");
                if let Some(bound) = updates[h][k] {
                    let bound = i64::try_from(bound).unwrap_or(i64::MAX);
                    ests[i] = ests[i].max(bound);
                }
            }
        }
    }
    Ok(ests)
}

/// Tasks sharing a renewable resource: MiniZinc's `cumulative(s, d, r, b)` when the durations `d`,
/// requirements `r` or capacity `b` are variables, and `cumulative` over optional start times. At
/// every time the requirements of the running tasks (present, `sᵢ ≤ t < sᵢ + dᵢ`) add up to at most
/// `b`; durations and requirements are not negative, and with a task the capacity is not either. A
/// task of zero duration or requirement takes nothing.
///
/// Consistency, all over the tasks' least durations and requirements and the largest capacity:
/// - time-tabling (Aggoun & Beldiceanu 1993): the compulsory parts of the tasks that surely run make
///   a profile within capacity; each task's start is pushed past the stretches where it would not
///   fit, an optional task that fits nowhere is absent; a running task's requirement is cut to the
///   room beside the others' compulsory parts, its duration to the longest stretch free for it, and
///   the capacity raised to the highest stretch;
/// - the tasks that need more than half the capacity run one at a time: every pair of them is
///   bounds(Z) consistent, and edge-finding (Carlier & Pinson 1989) runs on them;
/// - cumulative edge-finding and overload checking on every task that surely takes something (see
///   `edge_find`: Nuijten 1994, in Vilím's formulation of 2009).
///
/// Each repeats until nothing moves; fixed, it is exact.
#[derive(Debug, Clone)]
pub struct VarCumulative {
    resource: Resource,
}

impl VarCumulative {
    /// `tasks` with requirements `heights` (one per task) on a resource of `capacity`. A variable
    /// may play several parts.
    pub fn new(tasks: Vec<Task>, heights: Vec<VarId>, capacity: VarId) -> Result<Self, ModelError> {
        Ok(VarCumulative {
            resource: Resource::new(&tasks, Some(heights), Some(capacity), false)?,
        })
    }
}

impl Constraint for VarCumulative {
    fn scope(&self) -> &[VarId] {
        &self.resource.args.scope
    }

    fn is_satisfied(&self, values: &[i32]) -> bool {
        let r = &self.resource;
        if r.tasks.is_empty() {
            return true;
        }
        let value = |arg: usize| i64::from(r.args.value(values, arg));
        let capacity = value(r.capacity.expect("a cumulative resource has a capacity"));
        if !r.data_valid(values) || capacity < 0 {
            return false;
        }
        let running: Vec<(i64, i64, i64)> = (0..r.tasks.len())
            .filter(|&i| r.runs(values, i))
            .map(|i| {
                let t = r.tasks[i];
                let height = value(t.height.expect("cumulative tasks have requirements"));
                (value(t.start), value(t.duration), height)
            })
            .filter(|&(_, d, h)| d > 0 && h > 0)
            .collect();
        // The load is largest at some task's start.
        running.iter().all(|&(t, _, _)| {
            running
                .iter()
                .filter(|&&(s, d, _)| s <= t && t < s + d)
                .map(|&(_, _, h)| h)
                .sum::<i64>()
                <= capacity
        })
    }
}

impl Propagator for VarCumulative {
    fn revise(&self, ctx: &mut PropagationCtx<'_>) -> Result<(), Wipeout> {
        self.resource.revise(ctx)
    }

    /// A start's bound by time-tabling over the least durations and requirements (lifted
    /// pointwise reasons that cite them, Schutt et al. 2011), a detectable precedence or
    /// edge-finding; sizes, requirements, presences and the capacity by the rules that bound
    /// them.
    fn explain(&self, literal: Literal, ctx: &ExplainCtx<'_>, reasons: &mut Vec<Literal>) -> bool {
        self.resource.explain(literal, ctx, reasons)
    }

    /// An overload among the tasks that surely take something, or the fixed values forward
    /// checking refused.
    fn explain_failure(&self, ctx: &ExplainCtx<'_>, reasons: &mut Vec<Literal>) -> bool {
        self.resource.explain_failure(ctx, reasons)
    }

    fn subscribe(&self, _position: usize) -> EventSet {
        EventSet::BOUNDS
    }

    fn priority(&self) -> Priority {
        Priority::Low
    }
}

/// Tasks on a unary resource: MiniZinc's `disjunctive(s, d)` and `disjunctive_strict(s, d)` when the
/// durations are variables, and both over optional start times. No two running tasks overlap:
/// `sᵢ + dᵢ ≤ sⱼ ∨ sⱼ + dⱼ ≤ sᵢ`. The plain form lets a task of zero duration go anywhere; the
/// strict form keeps it out of the other tasks (it may touch their ends). Durations are not
/// negative.
///
/// Consistency: [`VarCumulative`]'s with capacity and requirements 1, every task of positive least
/// duration (and in the strict form every task) being in the unary part: time-tabling, bounds(Z)
/// consistency of every pair, edge-finding, until nothing moves.
#[derive(Debug, Clone)]
pub struct VarDisjunctive {
    resource: Resource,
}

impl VarDisjunctive {
    /// `tasks` on a unary resource; `strict` keeps tasks of zero duration out of the others.
    pub fn new(tasks: Vec<Task>, strict: bool) -> Result<Self, ModelError> {
        Ok(VarDisjunctive {
            resource: Resource::new(&tasks, None, None, strict)?,
        })
    }
}

impl Constraint for VarDisjunctive {
    fn scope(&self) -> &[VarId] {
        &self.resource.args.scope
    }

    fn is_satisfied(&self, values: &[i32]) -> bool {
        let r = &self.resource;
        if !r.data_valid(values) {
            return false;
        }
        let value = |arg: usize| i64::from(r.args.value(values, arg));
        let running: Vec<(i64, i64)> = (0..r.tasks.len())
            .filter(|&i| r.runs(values, i))
            .map(|i| (value(r.tasks[i].start), value(r.tasks[i].duration)))
            .collect();
        running.iter().enumerate().all(|(k, &(si, di))| {
            running[k + 1..].iter().all(|&(sj, dj)| {
                (!r.strict && (di == 0 || dj == 0)) || si + di <= sj || sj + dj <= si
            })
        })
    }
}

impl Propagator for VarDisjunctive {
    fn revise(&self, ctx: &mut PropagationCtx<'_>) -> Result<(), Wipeout> {
        self.resource.revise(ctx)
    }

    /// A start's bound by time-tabling over the least durations and requirements (lifted
    /// pointwise reasons that cite them, Schutt et al. 2011), a detectable precedence or
    /// edge-finding; sizes, requirements, presences and the capacity by the rules that bound
    /// them.
    fn explain(&self, literal: Literal, ctx: &ExplainCtx<'_>, reasons: &mut Vec<Literal>) -> bool {
        self.resource.explain(literal, ctx, reasons)
    }

    /// An overload among the tasks that surely take something, or the fixed values forward
    /// checking refused.
    fn explain_failure(&self, ctx: &ExplainCtx<'_>, reasons: &mut Vec<Literal>) -> bool {
        self.resource.explain_failure(ctx, reasons)
    }

    fn subscribe(&self, _position: usize) -> EventSet {
        EventSet::BOUNDS
    }

    fn priority(&self) -> Priority {
        Priority::Low
    }
}
