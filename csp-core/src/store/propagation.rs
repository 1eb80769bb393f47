//! What a store does with its model's constraints: assignment and its undo (each assignment
//! updates the counts and state of the constraints on the variable), forward checking, propagation
//! to a fixpoint through the queue, and Dijkstra's consistency checks.

use super::{ASSIGNMENT, BoundChange, Checkpoint, Store};
use crate::domain::{Repr, restore_to_word};
use crate::literal::Cause;
use std::convert::Infallible;

use crate::{CheckCtx, ConstraintId, Model, PropagationCtx, PropagationFailure, VarId, Wipeout};

impl Store {
    /// Undoes every change made since `checkpoint`: assignments, removals, bound changes and
    /// state-cell writes. Anything waiting to propagate is dropped. The checkpoint must not lie in a
    /// forgotten part of the trail (see [`Store::trail_floor`]).
    pub fn undo_to(&mut self, model: &Model, checkpoint: Checkpoint) {
        debug_assert!(
            checkpoint.removals >= self.floor.removals
                && checkpoint.words >= self.floor.words
                && checkpoint.bounds >= self.floor.bounds
                && checkpoint.cells >= self.floor.cells,
            "undo to a forgotten checkpoint"
        );
        if !self.modified.is_empty() {
            self.clear_propagation();
        }
        let checkpoint = Checkpoint {
            removals: checkpoint.removals - self.floor.removals,
            words: checkpoint.words - self.floor.words,
            bounds: checkpoint.bounds - self.floor.bounds,
            cells: checkpoint.cells - self.floor.cells,
            log: checkpoint.log,
        };
        if let Some(log) = &mut self.log {
            log.truncate(checkpoint.log);
        }
        // Pops rather than drains: most undos leave some logs untouched, and an empty drain still
        // costs its construction and drop (a tenth of a LEX node).
        while self.trail.removals.len() > checkpoint.removals {
            let removal = self.trail.removals.pop().expect("longer than the mark");
            let index = removal.var as usize;
            // An inline word in place, as `remove_value` changed it.
            if let Repr::Word { base, bits, .. } = &mut self.reprs[index] {
                restore_to_word(&mut self.headers[index], *base, bits, removal.offset);
            } else {
                self.domain_mut(index).restore(removal.offset);
            }
        }
        while self.trail.words.len() > checkpoint.words {
            let removal = self.trail.words.pop().expect("longer than the mark");
            self.domain_mut(removal.var as usize)
                .restore_mask(removal.word as usize, removal.mask);
        }
        while self.trail.bounds.len() > checkpoint.bounds {
            let change = self.trail.bounds.pop().expect("longer than the mark");
            let index = (change.var & !ASSIGNMENT) as usize;
            if change.var & ASSIGNMENT != 0
                && let Some(row) = self.lines.as_ref().and_then(|lines| lines.row_of(index))
            {
                // Newest first, so the occupied lines and the unassigned rows are as the placement left
                // them: what it took is found again.
                self.unplace_from_lines(row, self.values[index]);
            }
            self.domain_mut(index).untighten(
                change.old_lo,
                change.old_hi,
                u64::from(change.removed),
            );
            if change.var & ASSIGNMENT != 0 {
                self.unassign(model, VarId::from_index(index));
            }
        }
        while self.trail.cells.len() > checkpoint.cells {
            let (cell, old) = self.trail.cells.pop().expect("longer than the mark");
            self.cells[cell as usize] = old;
        }
    }

    /// Takes back the newest assignment, of `var`.
    #[inline]
    fn unassign(&mut self, model: &Model, var: VarId) {
        self.assigned.set(var.index(), false);
        self.num_assigned -= 1;
        // Assignments are undone newest first, so `var` is the one just past the free prefix.
        debug_assert_eq!(self.free[self.free.len() - self.num_assigned - 1], var);
        for &c in model.constraints_of(var) {
            self.unassigned_in_scope[c.index()] += 1;
        }
    }

    /// Assigns `var = value` (trailed): fixes the domain to the value, marks the variable assigned and
    /// lets every constraint on `var` update its state ([`crate::Propagator::on_assign`], and
    /// [`crate::Propagator::notify`] when the model [notifies](Model::notifies)). The value must be
    /// in the variable's domain.
    pub fn assign(&mut self, model: &Model, var: VarId, value: i32) {
        debug_assert!(!self.is_assigned(var), "{var:?} is already assigned");
        debug_assert!(
            self.domain(var).contains(value),
            "{value} is not in {var:?}'s domain"
        );
        let (old_lo, old_hi, old_size) = self.domain_mut(var.index()).fix(value);
        self.trail.bounds.push(BoundChange {
            var: var.index() as u32 | ASSIGNMENT,
            old_lo,
            old_hi,
            removed: (old_size - 1) as u32,
        });
        if self.tracking {
            self.record(
                var,
                crate::domain::fix_events(old_lo, old_hi, old_size, value),
            );
            if self.log.is_some() {
                self.log_bounds(var, old_lo, old_hi);
            }
        }
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
            self.set_cause(Cause::Constraint(c));
            let cells = model.cell_range(c);
            let mut ctx = PropagationCtx::new(self, cells);
            model.constraint(c).on_assign(var, value, &mut ctx);
            self.set_cause(Cause::Decision);
        }
        if let Some(row) = self
            .lines
            .as_ref()
            .and_then(|lines| lines.row_of(var.index()))
        {
            self.place_on_lines(row, value);
        }
        if self.always_tracking && !self.queueing {
            // Value enumeration may take a checkpoint next, and an undo to it drops the events
            // pending then: the constraints hear of the assignment now. (When propagation
            // follows, it hands them over.)
            self.flush(model, None, false);
        }
    }

    /// Forward checking after `var`'s assignment: runs
    /// [`crate::Propagator::forward_check`] of every constraint on `var`, in posting order,
    /// and names the first that failed.
    ///
    /// When the model [notifies](Model::notifies), every change is also handed to the constraints
    /// subscribed to it ([`crate::Propagator::notify`]) before the next constraint runs and once
    /// they all have, as propagation does, so the state they keep stays exact. The constraints
    /// the events wake are queued only when propagation follows (tracking is on).
    pub fn forward_check(&mut self, model: &Model, var: VarId) -> Result<(), ConstraintId> {
        self.forward_check_each(model, var, self.queueing)
    }

    /// [`Store::forward_check`], queueing the constraints that notification wakes when `queue` is
    /// set (for propagation to follow).
    fn forward_check_each(
        &mut self,
        model: &Model,
        var: VarId,
        queue: bool,
    ) -> Result<(), ConstraintId> {
        // The store did the kept constraint's forward checking when it placed `var`.
        let kept = self.lines.as_deref_mut().map(|lines| {
            let wiped = std::mem::take(&mut lines.wiped);
            (lines.owner, wiped)
        });
        for &c in model.constraints_of(var) {
            if let Some((owner, wiped)) = kept
                && owner == c
            {
                if wiped {
                    return Err(c);
                }
                continue;
            }
            self.flush(model, None, queue);
            self.set_cause(Cause::Constraint(c));
            let cells = model.cell_range(c);
            let mut ctx = PropagationCtx::new(self, cells);
            let result = model.constraint(c).forward_check(var, &mut ctx);
            self.set_cause(Cause::Decision);
            result.map_err(|Wipeout| c)?;
        }
        self.flush(model, None, queue);
        Ok(())
    }

    /// Maintaining arc consistency after `var`'s assignment: forward checking first (exactly
    /// [`Store::forward_check`]), then every constraint on `var` and every constraint woken by a
    /// change since ([`Store::propagate`]). Names the constraint that failed.
    ///
    /// Arc consistency prunes at least what forward checking prunes, and with built-in constraints
    /// (whose revisions are arc consistent, or bounds consistent for `Linear`) much more.
    pub fn maintain_arc_consistency(
        &mut self,
        model: &Model,
        var: VarId,
    ) -> Result<(), ConstraintId> {
        self.start_queueing();
        if let Err(c) = self.forward_check_each(model, var, true) {
            self.clear_propagation();
            return Err(c);
        }
        for &c in model.constraints_of(var) {
            self.enqueue(c, model.priority(c));
        }
        self.propagate(model)
    }

    /// Makes every constraint reach its fixpoint with the current domains: the root propagation of a
    /// search that maintains arc consistency. Names the constraint that failed.
    pub fn establish_arc_consistency(&mut self, model: &Model) -> Result<(), ConstraintId> {
        self.start_queueing();
        for c in model.constraint_ids() {
            self.enqueue(c, model.priority(c));
        }
        self.propagate(model)
    }

    /// Propagation to a fixpoint: hands every change recorded since the last call to the constraints
    /// subscribed to it ([`crate::Propagator::notify`]; the woken ones join the queue), then revises
    /// queued constraints, cheapest priority first, until none is left. Names the constraint that
    /// failed; the queue is then empty again, ready for the next call.
    ///
    /// Changes made directly through the store (a search decision such as `x ≤ 5`, or a bound on the
    /// objective) wake every subscribed constraint; a constraint's own changes wake only the others,
    /// since a revision reaches its own fixpoint.
    pub fn propagate(&mut self, model: &Model) -> Result<(), ConstraintId> {
        self.propagate_with(model, |_| Ok::<(), Infallible>(()))
            .map_err(|failure| match failure {
                PropagationFailure::Constraint(c) => c,
                PropagationFailure::First(never) => match never {},
            })
    }

    /// [`Store::propagate`], with `first` run before every constraint revision, so that its
    /// reasoning reaches its own fixpoint before any constraint looks at the domains: a learning
    /// search's clauses, which cost little and prune early, as a propagator of the highest
    /// priority. `first` runs once more at the end, and its failure ends the propagation as a
    /// constraint's does (the queue is emptied).
    #[inline]
    pub fn propagate_with<E>(
        &mut self,
        model: &Model,
        mut first: impl FnMut(&mut Store) -> Result<(), E>,
    ) -> Result<(), PropagationFailure<E>> {
        self.start_queueing();
        self.flush(model, None, true);
        loop {
            if let Err(failure) = first(self) {
                self.clear_propagation();
                return Err(PropagationFailure::First(failure));
            }
            self.flush(model, None, true);
            let Some(c) = self.pop() else {
                return Ok(());
            };
            self.queued.set(c.index(), false);
            if self.is_entailed(model, c) {
                // Queued directly (a forward-checked variable's constraints), but entailed.
                continue;
            }
            self.propagations += 1;
            self.set_cause(Cause::Constraint(c));
            let cells = model.cell_range(c);
            let mut ctx = PropagationCtx::new(self, cells);
            let result = model.constraint(c).revise(&mut ctx);
            let entailed = ctx.entailed;
            self.set_cause(Cause::Decision);
            if result.is_err() {
                self.clear_propagation();
                return Err(PropagationFailure::Constraint(c));
            }
            if entailed {
                self.set_cell(model.entailment_cell(c), 1);
            }
            self.flush(model, Some(c), true);
        }
    }

    /// Whether propagation found the constraint entailed on this branch
    /// ([`crate::PropagationCtx::entailed`]): it is then neither notified nor revised until search
    /// backtracks above that point.
    #[inline]
    pub fn is_entailed(&self, model: &Model, constraint: ConstraintId) -> bool {
        self.cells[model.entailment_cell(constraint)] != 0
    }

    /// Hands the pending events to the subscribed constraints and, when `queue` is set, queues those
    /// that ask for it, but never `except` (the constraint whose revision made the changes).
    /// Without `queue` (forward checking) only the constraints that keep state by
    /// [`crate::Propagator::notify`] hear of the events.
    #[inline]
    fn flush(&mut self, model: &Model, except: Option<ConstraintId>, queue: bool) {
        if self.modified.is_empty() {
            return;
        }
        let mut modified = std::mem::take(&mut self.modified);
        for &var in &modified {
            let events = std::mem::take(&mut self.pending[var as usize]);
            for watch in model.watchers(VarId::from_index(var as usize)) {
                if !watch.events.intersects(events) {
                    continue;
                }
                let c = watch.constraint;
                if !(queue || watch.notify) || self.is_entailed(model, c) {
                    continue;
                }
                let wake = if watch.notify {
                    let cells = model.cell_range(c);
                    let mut ctx = PropagationCtx::new(self, cells);
                    model
                        .constraint(c)
                        .notify(watch.position as usize, events, &mut ctx)
                } else {
                    true
                };
                if wake && queue && Some(c) != except {
                    self.enqueue(c, watch.priority);
                }
            }
        }
        debug_assert!(
            self.modified.is_empty(),
            "notify changed a domain: it may only update state cells"
        );
        modified.clear();
        self.modified = modified;
    }

    /// Dijkstra's test for an unassigned `var`: does `var = value` pass every constraint's
    /// [`crate::Propagator::check`] against the variables assigned so far?
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
    /// that pass every constraint's [`crate::Propagator::check`] to the front, in their order, and
    /// returns how many there are. One call per constraint, not per value: the hot path of check-past
    /// search.
    #[inline(always)]
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

    /// Returns to the root state kept by [`Store::snapshot_root`]: every assignment is taken back
    /// (newest first, so the unassigned variables are in the order they had at the root), the domains
    /// and cells are the root's again, and the trail is empty. Without a snapshot, undoes the trail to
    /// its start (which needs no part of it forgotten).
    ///
    /// With a snapshot and no change log, the trail's removals, bound changes and cell writes are
    /// dropped rather than undone one by one, since the snapshot's copy overwrites every domain and
    /// cell they would restore: a restart from a deep path then costs the assignments and a copy
    /// of the domains, not one restore per value removed along the path (about n²/2 on an
    /// n-queens board).
    pub fn reset_to_root(&mut self, model: &Model) {
        if self.root.is_some() && self.log.is_none() {
            if !self.modified.is_empty() {
                self.clear_propagation();
            }
            // Assignments are taken back newest first, as `undo_to` would.
            let bounds = std::mem::take(&mut self.trail.bounds);
            for change in bounds.iter().rev() {
                if change.var & ASSIGNMENT != 0 {
                    self.unassign(
                        model,
                        VarId::from_index((change.var & !ASSIGNMENT) as usize),
                    );
                }
            }
            self.trail.bounds = bounds;
            self.trail.bounds.clear();
            self.trail.removals.clear();
            self.trail.words.clear();
            self.trail.cells.clear();
        } else {
            self.undo_to(model, self.floor);
        }
        while let Some(var) = self.forgotten_assignments.pop() {
            self.unassign(model, VarId::from_index(var as usize));
        }
        if let Some(root) = &self.root {
            if let Some(lines) = self.lines.as_deref_mut() {
                lines.clear();
            }
            self.headers.copy_from_slice(&root.headers);
            for (repr, saved) in self.reprs.iter_mut().zip(&root.reprs) {
                // The same representation as at the root: copied in place, without allocating.
                match (repr, saved) {
                    (Repr::Word { bits, .. }, Repr::Word { bits: source, .. }) => *bits = *source,
                    (Repr::Bits { words, .. }, Repr::Bits { words: source, .. })
                        if words.len() == source.len() =>
                    {
                        words.copy_from_slice(source);
                    }
                    (Repr::Strided { .. }, Repr::Strided { .. }) => {}
                    (Repr::Spans { spans, .. }, Repr::Spans { spans: source, .. }) => {
                        spans.clear();
                        spans.extend_from_slice(source);
                    }
                    (repr, source) => *repr = source.clone(),
                }
            }
            for (group, saved) in self.groups.iter_mut().zip(&root.groups) {
                group.words.copy_from_slice(&saved.words);
            }
            self.cells.copy_from_slice(&root.cells);
        } else {
            debug_assert_eq!(
                self.floor,
                Checkpoint::default(),
                "forgotten without a snapshot"
            );
        }
        self.floor = Checkpoint::default();
    }
}
