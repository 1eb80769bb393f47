//! Scheduling: tasks with start variables and constant durations sharing a resource.

use crate::{
    Constraint, EventSet, ModelError, PropagationCtx, VarId, Wipeout,
    constraint::Priority,
    constraints::util::{Args, invalid},
};

/// A stretch `[start, end)` of the resource profile and the height the compulsory parts put on it.
#[derive(Debug, Clone, Copy)]
struct Segment {
    start: i64,
    end: i64,
    height: i64,
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
/// list of stretches, so the horizon may be as wide as `i32` allows at no cost. Edge-finding is not
/// done.
#[derive(Debug, Clone)]
pub struct Cumulative {
    /// The start of each task.
    args: Args,
    durations: Vec<i64>,
    heights: Vec<i64>,
    capacity: i64,
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
        Ok(Cumulative {
            args: Args::new(starts),
            durations: durations.into_iter().map(i64::from).collect(),
            heights: heights.into_iter().map(i64::from).collect(),
            capacity: i64::from(capacity),
        })
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
    fn profile(&self, ctx: &PropagationCtx<'_>, out: &mut Vec<Segment>) -> Result<(), Wipeout> {
        let mut events: Vec<(i64, i64)> = Vec::new();
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
        let mut height = 0;
        let mut k = 0;
        while k < events.len() {
            let time = events[k].0;
            while k < events.len() && events[k].0 == time {
                height += events[k].1;
                k += 1;
            }
            if let Some(&(next, _)) = events.get(k)
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

    /// One round of time-tabling over every task; returns whether a bound moved.
    fn time_table(&self, ctx: &mut PropagationCtx<'_>) -> Result<bool, Wipeout> {
        let mut profile = Vec::new();
        self.profile(ctx, &mut profile)?;
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
            for seg in &profile {
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

    fn revise(&self, ctx: &mut PropagationCtx<'_>) -> Result<(), Wipeout> {
        if self.n() > 0 && self.capacity < 0 {
            return Err(Wipeout);
        }
        if self.tasks().any(|i| self.heights[i] > self.capacity) {
            return Err(Wipeout);
        }
        while self.time_table(ctx)? {}
        Ok(())
    }

    fn subscribe(&self, _position: usize) -> EventSet {
        EventSet::BOUNDS
    }

    fn priority(&self) -> Priority {
        Priority::Low
    }
}

/// Tasks on a unary resource: no two tasks of positive duration overlap (FlatZinc's
/// `disjunctive(s, d)` with constant durations; a task of zero duration may go anywhere, as in
/// MiniZinc's definition).
///
/// Consistency: the time-tabling of [`Cumulative`] with unit requirements and capacity, and bounds(Z)
/// consistency on every pair `sᵢ + dᵢ ≤ sⱼ ∨ sⱼ + dⱼ ≤ sᵢ` (detectable precedences: a task that cannot
/// go before another goes after it), until neither moves a bound. Edge-finding is not done.
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

    /// One round over the pairs; returns whether a bound moved.
    fn precedences(&self, ctx: &mut PropagationCtx<'_>) -> Result<bool, Wipeout> {
        let c = &self.resource;
        let tasks: Vec<usize> = c.tasks().collect();
        let mut changed = false;
        for (k, &i) in tasks.iter().enumerate() {
            for &j in &tasks[k + 1..] {
                let (si, sj) = (c.start(i), c.start(j));
                let (di, dj) = (c.durations[i], c.durations[j]);
                if si == sj {
                    // One start for two tasks of positive duration: they overlap.
                    return Err(Wipeout);
                }
                let i_first_possible = i64::from(ctx.lb(si)) + di <= i64::from(ctx.ub(sj));
                let j_first_possible = i64::from(ctx.lb(sj)) + dj <= i64::from(ctx.ub(si));
                match (i_first_possible, j_first_possible) {
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
        Ok(changed)
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

    fn revise(&self, ctx: &mut PropagationCtx<'_>) -> Result<(), Wipeout> {
        loop {
            let pairs = self.precedences(ctx)?;
            let table = self.resource.time_table(ctx)?;
            if !pairs && !table {
                return Ok(());
            }
        }
    }

    fn subscribe(&self, _position: usize) -> EventSet {
        EventSet::BOUNDS
    }

    fn priority(&self) -> Priority {
        Priority::Low
    }
}
