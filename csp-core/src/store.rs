//! The state of a model under search, and the trail that undoes it.

use std::collections::VecDeque;

use fixedbitset::FixedBitSet;

use crate::{CheckCtx, ConstraintId, Domain, Model, PropagationCtx, VarId, Wake, Wipeout};

/// A removed domain value: the value at `index` of variable `var`'s span.
#[derive(Debug, Clone, Copy)]
struct Removal {
    var: u32,
    index: u32,
}

/// The trail: one log per kind of change, each undone newest first.
///
/// The kinds are independent (a removal never depends on a cell write), so undoing each log back to
/// its own mark restores the whole state, and a removal, by far the most common entry under forward
/// checking (about n² of them on one path of an n-queens search), costs 8 bytes instead of the 16 a
/// shared enum would take.
#[derive(Debug, Clone, Default)]
struct Trail {
    removals: Vec<Removal>,
    /// `(cell, old value)`.
    cells: Vec<(u32, i64)>,
    /// Assigned variables, in order.
    assignments: Vec<u32>,
}

/// A point on the trail to undo back to, from [`Store::checkpoint`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct Checkpoint {
    assignments: usize,
    removals: usize,
    cells: usize,
}

/// The state of one model being solved: current domains, the partial assignment, the constraints' state
/// cells, and the trail that undoes changes to all three.
///
/// A store belongs to one [`Model`] (the one given to [`Store::new`]); the methods that run constraints
/// take that model again, because the store keeps no reference to it.
#[derive(Debug, Clone)]
pub struct Store {
    domains: Vec<Domain>,
    values: Vec<i32>,
    assigned: FixedBitSet,
    num_assigned: usize,
    /// The unassigned variables are `free[..free.len() - num_assigned]`, in no particular order (a
    /// sparse set): assigning swaps the variable just past the end of that prefix, and undo, which
    /// always takes back the latest assignment first, only has to grow the prefix again.
    free: Vec<VarId>,
    /// Where each variable stands in `free`.
    free_position: Vec<u32>,
    pub(crate) cells: Vec<i64>,
    /// For each constraint, how many of its scope's variables are unassigned. Dynamic-degree heuristics read it.
    unassigned_in_scope: Vec<u32>,
    trail: Trail,
    /// Arc consistency's queue of constraints to revise; empty between calls.
    queue: VecDeque<ConstraintId>,
    /// Which constraints are in `queue`, so none waits there twice.
    queued: FixedBitSet,
}

impl Store {
    /// A fresh store for `model`: initial domains, nothing assigned, all state cells zero.
    pub fn new(model: &Model) -> Self {
        // Materialised now, so that pruning during search never allocates.
        Self::with_domains(
            model,
            model
                .initial_domains()
                .iter()
                .map(Domain::materialized)
                .collect(),
        )
    }

    /// A fresh store whose whole-span domains stay unmaterialised (bounds only) until a value is
    /// removed, so it costs O(1) per variable instead of a bit per value.
    ///
    /// For building one assignment by checks alone — a greedy start for local search, say — over
    /// domains too wide for a bit each. The first removal from a domain allocates its bits, so a tree
    /// search should use [`Store::new`].
    pub fn with_lazy_domains(model: &Model) -> Self {
        Self::with_domains(model, model.initial_domains().to_vec())
    }

    fn with_domains(model: &Model, domains: Vec<Domain>) -> Self {
        Store {
            domains,
            values: vec![0; model.num_vars()],
            assigned: FixedBitSet::with_capacity(model.num_vars()),
            num_assigned: 0,
            free: model.vars().collect(),
            free_position: (0..model.num_vars() as u32).collect(),
            cells: vec![0; model.num_cells()],
            unassigned_in_scope: model
                .constraint_ids()
                .map(|c| model.constraint(c).scope().len() as u32)
                .collect(),
            trail: Trail::default(),
            queue: VecDeque::new(),
            queued: FixedBitSet::with_capacity(model.num_constraints()),
        }
    }

    /// How many variables the store holds.
    #[inline]
    pub fn num_vars(&self) -> usize {
        self.values.len()
    }

    /// The variable's current domain.
    #[inline]
    pub fn domain(&self, var: VarId) -> &Domain {
        &self.domains[var.index()]
    }

    /// The variable's value, if it is assigned.
    #[inline]
    pub fn value(&self, var: VarId) -> Option<i32> {
        if self.assigned.contains(var.index()) {
            Some(self.values[var.index()])
        } else {
            None
        }
    }

    /// Whether the variable is assigned.
    #[inline]
    pub fn is_assigned(&self, var: VarId) -> bool {
        self.assigned.contains(var.index())
    }

    /// How many variables are assigned.
    #[inline]
    pub fn num_assigned(&self) -> usize {
        self.num_assigned
    }

    /// The unassigned variables, in an order that depends on the history of assignments (for model
    /// order, use [`Store::assigned_set`]'s zeroes). Scanning this is the cheap way to visit them all.
    #[inline]
    pub fn unassigned(&self) -> &[VarId] {
        &self.free[..self.free.len() - self.num_assigned]
    }

    /// The set of assigned variables, by index.
    #[inline]
    pub fn assigned_set(&self) -> &FixedBitSet {
        &self.assigned
    }

    /// Every variable's value, by index; meaningful only where assigned. Once every variable is
    /// assigned this is the solution.
    #[inline]
    pub fn values(&self) -> &[i32] {
        &self.values
    }

    /// How many variables of the constraint's scope are unassigned.
    #[inline]
    pub fn unassigned_in_scope(&self, constraint: ConstraintId) -> u32 {
        self.unassigned_in_scope[constraint.index()]
    }

    /// The current trail position; [`Store::undo_to`] returns here.
    #[inline]
    pub fn checkpoint(&self) -> Checkpoint {
        Checkpoint {
            assignments: self.trail.assignments.len(),
            removals: self.trail.removals.len(),
            cells: self.trail.cells.len(),
        }
    }

    /// Undoes every change made since `checkpoint`: assignments, removals and state-cell writes.
    pub fn undo_to(&mut self, model: &Model, checkpoint: Checkpoint) {
        for removal in self.trail.removals.drain(checkpoint.removals..).rev() {
            self.domains[removal.var as usize].restore(removal.index);
        }
        for (cell, old) in self.trail.cells.drain(checkpoint.cells..).rev() {
            self.cells[cell as usize] = old;
        }
        for var in self.trail.assignments.drain(checkpoint.assignments..).rev() {
            let var = VarId::from_index(var as usize);
            self.assigned.set(var.index(), false);
            self.num_assigned -= 1;
            // Assignments are undone newest first, so `var` is the one just past the free prefix.
            debug_assert_eq!(self.free[self.free.len() - self.num_assigned - 1], var);
            for &c in model.constraints_of(var) {
                self.unassigned_in_scope[c.index()] += 1;
            }
        }
    }

    /// Assigns `var = value` (trailed) and lets every constraint on `var` update its state
    /// ([`crate::Constraint::on_assign`]). The value must be in the variable's domain.
    pub fn assign(&mut self, model: &Model, var: VarId, value: i32) {
        debug_assert!(!self.is_assigned(var), "{var:?} is already assigned");
        debug_assert!(
            self.domain(var).contains(value),
            "{value} is not in {var:?}'s domain"
        );
        self.trail.assignments.push(var.index() as u32);
        self.assigned.insert(var.index());
        self.values[var.index()] = value;
        // Swap `var` to the end of the free prefix, then shrink the prefix past it.
        let last = self.free.len() - self.num_assigned - 1;
        let position = self.free_position[var.index()] as usize;
        let moved = self.free[last];
        self.free.swap(position, last);
        self.free_position[moved.index()] = position as u32;
        self.free_position[var.index()] = last as u32;
        self.num_assigned += 1;
        for &c in model.constraints_of(var) {
            self.unassigned_in_scope[c.index()] -= 1;
            let cells = model.cell_range(c);
            let mut ctx = PropagationCtx { store: self, cells };
            model.constraint(c).on_assign(var, value, &mut ctx);
        }
    }

    /// Forward checking after `var`'s assignment: runs [`crate::Constraint::propagate`] of every
    /// constraint on `var`, in posting order, and names the first that failed.
    pub fn forward_check(&mut self, model: &Model, var: VarId) -> Result<(), ConstraintId> {
        for &c in model.constraints_of(var) {
            let cells = model.cell_range(c);
            let mut ctx = PropagationCtx { store: self, cells };
            model
                .constraint(c)
                .propagate(var, &mut ctx)
                .map_err(|Wipeout| c)?;
        }
        Ok(())
    }

    /// Maintaining arc consistency after `var`'s assignment: forward checking first (exactly
    /// [`Store::forward_check`]), then [`crate::Constraint::revise`] of every constraint on `var` and
    /// of every constraint on a variable whose domain shrank, again and again (AC-3 over constraints),
    /// until none removes anything. Names the constraint that failed.
    ///
    /// Arc consistency prunes at least what forward checking prunes, and with built-in constraints
    /// (whose revisions are arc consistent, or bounds consistent for `Linear`) much more.
    pub fn maintain_arc_consistency(
        &mut self,
        model: &Model,
        var: VarId,
    ) -> Result<(), ConstraintId> {
        let mark = self.trail.removals.len();
        self.forward_check(model, var)?;
        for &c in model.constraints_of(var) {
            self.enqueue(c);
        }
        // Forward checking is not a constraint's fixpoint, so its removals wake every constraint on
        // the variables they touched, the one that made them included.
        self.enqueue_changed(model, mark, None);
        self.revise_queued(model)
    }

    /// Makes every constraint arc consistent with the current domains, as far as each one's
    /// [`crate::Constraint::revise`] goes: the root propagation of a search that maintains arc
    /// consistency. Names the constraint that failed.
    pub fn establish_arc_consistency(&mut self, model: &Model) -> Result<(), ConstraintId> {
        for c in model.constraint_ids() {
            self.enqueue(c);
        }
        self.revise_queued(model)
    }

    /// Revises queued constraints until the queue is empty or one fails (the queue is then emptied,
    /// ready for the next call).
    fn revise_queued(&mut self, model: &Model) -> Result<(), ConstraintId> {
        while let Some(c) = self.queue.pop_front() {
            self.queued.set(c.index(), false);
            let mark = self.trail.removals.len();
            let cells = model.cell_range(c);
            let mut ctx = PropagationCtx { store: self, cells };
            if model.constraint(c).revise(&mut ctx).is_err() {
                for c in self.queue.drain(..) {
                    self.queued.set(c.index(), false);
                }
                return Err(c);
            }
            // A revision reaches its own fixpoint, so only the other constraints on the variables
            // it pruned need another look.
            self.enqueue_changed(model, mark, Some(c));
        }
        Ok(())
    }

    /// Queues every constraint (but `except`) on a variable with a removal on the trail since `mark`,
    /// if the change is one the constraint wakes for ([`crate::Constraint::wake`]).
    fn enqueue_changed(&mut self, model: &Model, mark: usize, except: Option<ConstraintId>) {
        let mut i = mark;
        while i < self.trail.removals.len() {
            // Removals from one variable come in runs; each run is looked at once.
            let var = self.trail.removals[i].var;
            let domain = &self.domains[var as usize];
            let (min, max) = (domain.min(), domain.max());
            let fixed = domain.size() == 1;
            let mut bounds = fixed;
            while i < self.trail.removals.len() && self.trail.removals[i].var == var {
                let value = Some(domain.value_at(self.trail.removals[i].index as usize));
                bounds |= value < min || value > max;
                i += 1;
            }
            for &c in model.constraints_of(VarId::from_index(var as usize)) {
                let wakes = match model.wake(c) {
                    Wake::AnyRemoval => true,
                    Wake::Bounds => bounds,
                    Wake::Fixed => fixed,
                };
                if wakes && Some(c) != except {
                    self.enqueue(c);
                }
            }
        }
    }

    #[inline]
    fn enqueue(&mut self, c: ConstraintId) {
        if !self.queued.put(c.index()) {
            self.queue.push_back(c);
        }
    }

    /// Dijkstra's test for an unassigned `var`: does `var = value` pass every constraint's
    /// [`crate::Constraint::check`] against the variables assigned so far?
    #[inline]
    pub fn is_consistent(&self, model: &Model, var: VarId, value: i32) -> bool {
        model.constraints_of(var).iter().all(|&c| {
            let ctx = CheckCtx {
                store: self,
                cells: model.cell_range(c),
            };
            model.constraint(c).check(var, value, &ctx)
        })
    }

    /// Dijkstra's test for many values of an unassigned `var` at once: moves the values of `values`
    /// that pass every constraint's [`crate::Constraint::check`] to the front, in their order, and
    /// returns how many there are. One call per constraint, not per value: the hot path of check-past
    /// search.
    #[inline]
    pub fn retain_consistent(&self, model: &Model, var: VarId, values: &mut [i32]) -> usize {
        let mut len = values.len();
        for &c in model.constraints_of(var) {
            if len == 0 {
                break;
            }
            let ctx = CheckCtx {
                store: self,
                cells: model.cell_range(c),
            };
            len = model
                .constraint(c)
                .retain_consistent(var, &mut values[..len], &ctx);
        }
        len
    }

    /// Removes a value (see [`PropagationCtx::remove`]).
    #[inline(always)]
    pub(crate) fn remove_value(&mut self, var: VarId, value: i32) -> Result<bool, Wipeout> {
        let domain = &mut self.domains[var.index()];
        // Most attempts under forward checking find the value already gone: answer those after one
        // bit test. An assigned variable's own value is always in its domain, so an absent value is
        // never the assigned one.
        let Some(index) = domain.index_if_present(value) else {
            return Ok(false);
        };
        if self.assigned.contains(var.index()) {
            return if self.values[var.index()] == value {
                Err(Wipeout)
            } else {
                Ok(false)
            };
        }
        domain.remove_index(index);
        self.trail.removals.push(Removal {
            var: var.index() as u32,
            index: index as u32,
        });
        if domain.is_empty() {
            Err(Wipeout)
        } else {
            Ok(true)
        }
    }

    #[inline]
    pub(crate) fn set_cell(&mut self, cell: usize, value: i64) {
        let old = std::mem::replace(&mut self.cells[cell], value);
        if old != value {
            self.trail.cells.push((cell as u32, old));
        }
    }
}
