//! The state of a model under search, the trail that undoes it, and the propagation queue.

mod build;
pub(crate) mod change_log;
mod compaction;
// The crate root re-exports the contexts: a re-export here would make this module use the one
// that wraps it.
pub(crate) mod context;
mod line_rows;
mod masks;
mod propagation;
mod runs;

use std::collections::VecDeque;

use fixedbitset::FixedBitSet;

use crate::{
    ConstraintId, DomainView, EventSet, Priority, VarId, Wipeout,
    domain::{DomainMut, Header, Repr, remove_from_word},
    lines::OccupiedLines,
};

/// The fewest same-sized bit-set domains a store interleaves (see [`Store`]): a cache line holds
/// eight words, so a smaller group would gain nothing from sharing lines.
const INTERLEAVE_MIN_GROUP: usize = 8;

/// The bit words of an interleaved group of same-sized bit-set domains: word `w` of the domain in
/// slot `s` at `words[w · stride + s]`.
#[derive(Debug, Clone)]
struct Group {
    words: Box<[u64]>,
    /// How many domains the group holds.
    stride: usize,
    /// The value of bit 0 of every domain of the group.
    base: i32,
}

/// Where a variable's bit words lie in an interleaved group, if they do: what the hot path of
/// [`Store::remove_value`] reads, 8 bytes a variable, instead of the variable's representation.
#[derive(Debug, Clone, Copy)]
struct Location {
    /// The group, or [`Location::NONE`].
    group: u32,
    slot: u32,
}

impl Location {
    const NONE: u32 = u32::MAX;
}

/// A removed domain value: the value with trail offset `offset` of variable `var`'s domain (see
/// `Domain::offset_of`).
#[derive(Debug, Clone, Copy)]
struct Removal {
    var: u32,
    offset: u32,
}

/// Values removed together from one word of a bit-set domain: the bits of `mask` in word `word` of
/// variable `var`'s bits (see [`Store::remove_mask`]). One entry undoes them all, where one
/// [`Removal`] each would cost a restore each: a product's hole punching removes dozens of values
/// from a word at a time.
#[derive(Debug, Clone, Copy)]
struct WordRemoval {
    var: u32,
    word: u32,
    mask: u64,
}

/// A bound change: the bounds before it and how many values it removed. An assignment is one too (it
/// fixes the domain), marked by [`ASSIGNMENT`] in `var`.
#[derive(Debug, Clone, Copy)]
struct BoundChange {
    /// The variable's index, with [`ASSIGNMENT`] set if the change was an assignment.
    var: u32,
    old_lo: i32,
    old_hi: i32,
    /// At most 2³² − 1: a domain holds at most 2³² values and keeps one.
    removed: u32,
}

/// The bit of [`BoundChange::var`] that marks an assignment (variable indices stay below 2³¹).
const ASSIGNMENT: u32 = 1 << 31;

/// The trail: one log per kind of change, each undone newest first.
///
/// The kinds are independent: a removal and a bound change undo to the same domain in either order
/// (see `Domain::restore`), a cell write never depends on a domain, and an assignment's entry undoes
/// its domain's fixing the same way.
/// So undoing each log back to its own mark restores the whole state, and a removal, by far the most
/// common entry under forward checking (about n² of them on one path of an n-queens search), costs
/// 8 bytes instead of the 24 a shared enum would take.
#[derive(Debug, Clone, Default)]
struct Trail {
    removals: Vec<Removal>,
    /// Removals of two or more values from one word, undone with one entry each.
    words: Vec<WordRemoval>,
    /// Bound changes and assignments, in order (an assignment fixes its domain: one entry undoes
    /// both).
    bounds: Vec<BoundChange>,
    /// `(cell, old value)`.
    cells: Vec<(u32, i64)>,
}

/// A point on the trail to undo back to, from [`Store::checkpoint`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Default)]
pub struct Checkpoint {
    removals: usize,
    words: usize,
    bounds: usize,
    cells: usize,
    /// The length of the change log ([`Store::change_log`]), which is never forgotten.
    log: usize,
}

impl Checkpoint {
    /// Trail entries of every kind recorded before this point: a measure of the trail's size.
    pub fn entries(&self) -> usize {
        self.removals + self.words + self.bounds + self.cells
    }
}

/// The state of one model being solved: current domains, the partial assignment, the constraints' state
/// cells, the trail that undoes changes to all of them, and the queue of constraints waiting to
/// propagate.
///
/// A store belongs to one [`Model`](crate::Model) (the one given to [`Store::new`]); the methods that run constraints
/// take that model again, because the store keeps no reference to it.
///
/// *Assigned* and *fixed* differ: a variable is assigned by a search decision (`x = v`, which also
/// fixes its domain to `v`), while propagation can fix a variable, leaving one value in its domain,
/// without assigning it. Value enumeration (Stone & Stone's LEX and MIN) assigns every variable it
/// branches on; search by decisions ends when every variable is fixed.
///
/// **Layout.** The bounds and sizes of all domains are one dense array of 16-byte headers, beside
/// their representations: what search reads most (the sizes a fewest-choices ordering compares, the
/// bounds every propagator reads) shares cache lines four variables at a time. Bit-set domains of the
/// same declared span, when there are at least eight of them (the rows of an N-queens board, say),
/// keep their bit words interleaved in one block: word `w` of every domain of the group side by side.
/// Removing one value from every row, as forward checking does when a queen is placed, then touches
/// consecutive words, eight rows to a cache line, where separate bit sets took a line per row (and
/// the diagonals' values, which move one column per row, stay in the same word for 64 rows). Listing
/// one domain's values reads its words a stride apart, which costs little for the one variable a
/// node branches on.
#[derive(Debug, Clone)]
pub struct Store {
    /// Each variable's bounds and size.
    headers: Vec<Header>,
    /// Each variable's values beyond its bounds: inline bits, bits of its own, a slot of an
    /// interleaved group, or intervals.
    reprs: Vec<Repr>,
    /// The interleaved groups' words.
    groups: Vec<Group>,
    /// Each variable's place in a group (see [`Location`]).
    locations: Vec<Location>,
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
    /// How many entries of each log lie before the kept part ([`Store::forget_trail_before`]): a
    /// checkpoint is an absolute position, the kept entries start here.
    floor: Checkpoint,
    /// The variables assigned in the forgotten part of the trail, in order: what
    /// [`Store::reset_to_root`] takes back.
    forgotten_assignments: Vec<u32>,
    /// The domains and cells at the root, once [`Store::snapshot_root`] kept them.
    root: Option<Box<RootState>>,
    /// Whether domain changes are recorded as events for the propagation queue (MAC and search by
    /// decisions) and for the constraints that keep state by notification. Check-past and forward
    /// checking skip the bookkeeping when the model has no such constraint.
    tracking: bool,
    /// The model [notifies](crate::Model::notifies): events are recorded whatever search runs.
    always_tracking: bool,
    /// Whether a propagation to a fixpoint follows the changes (MAC and search by decisions), so
    /// that the constraints their events wake are queued; value enumeration without MAC only
    /// notifies.
    queueing: bool,
    /// For each variable, the events since its changes were last handed to the queue.
    pending: Vec<EventSet>,
    /// The variables with pending events, in the order of their first change.
    modified: Vec<u32>,
    /// The constraints waiting to revise, one queue per [`Priority`].
    queues: [VecDeque<ConstraintId>; Priority::COUNT],
    /// Which constraints are queued, so none waits twice.
    queued: FixedBitSet,
    /// How many times a constraint's `revise` has run.
    propagations: u64,
    /// Every change with its cause, for search that learns from failure (see
    /// [`Store::enable_change_log`]); `None` for every other search.
    log: Option<Box<crate::literal::ChangeLog>>,
    /// The line counts of a constraint whose forward checking the store keeps itself (see
    /// [`Store::keep_lines`]); `None` for most searches.
    lines: Option<Box<OccupiedLines>>,
    /// How strongly the propagators that offer a choice propagate (see [`PropagationProfile`]).
    profile: PropagationProfile,
}

/// How strongly a propagator that offers a choice propagates. Each built-in documents what it
/// does under each; most have one strength and ignore this.
///
/// Learning from failure explains every change, and a bound reason must cite every hole its
/// propagator left between the bounds, one literal each. Domain-consistent propagation leaves such
/// holes and so lengthens every clause that rests on it, while bounds reasoning leaves none: under
/// learning the weaker propagation can prove more in the same time, or less: which profile a
/// learning search runs by default is measured (see `csp_flatzinc::plan::LEARNING_PROFILE`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Hash)]
pub enum PropagationProfile {
    /// Every propagator at its own strongest (the default, and what every search without learning
    /// runs).
    #[default]
    Strongest,
    /// For search that learns: the propagators whose explanations are shorter under bounds
    /// reasoning reason on bounds.
    ShortReasons,
}

impl Store {
    /// Sets how strongly the propagators that offer a choice propagate (see [`PropagationProfile`]).
    /// Search sets it once, before its first propagation.
    pub fn set_profile(&mut self, profile: PropagationProfile) {
        self.profile = profile;
    }

    /// How strongly the propagators that offer a choice propagate (see [`PropagationProfile`]).
    #[inline]
    pub fn profile(&self) -> PropagationProfile {
        self.profile
    }

    /// How many variables the store holds.
    #[inline]
    pub fn num_vars(&self) -> usize {
        self.values.len()
    }

    /// The variable's current domain.
    #[inline(always)]
    pub fn domain(&self, var: VarId) -> DomainView<'_> {
        let index = var.index();
        if self.lines.is_some()
            && let Some(view) = self.kept_row_domain(index)
        {
            return view;
        }
        let repr = &self.reprs[index];
        let (group, stride): (&[u64], usize) = match repr {
            Repr::Strided { group, .. } => {
                let group = &self.groups[*group as usize];
                (&group.words, group.stride)
            }
            _ => (&[], 0),
        };
        DomainView::new(self.headers[index], repr, group, stride)
    }

    /// The variable's current domain, to change.
    #[inline(always)]
    fn domain_mut(&mut self, index: usize) -> DomainMut<'_> {
        let repr = &mut self.reprs[index];
        let (group, stride): (&mut [u64], usize) = match repr {
            Repr::Strided { group, .. } => {
                let group = &mut self.groups[*group as usize];
                (&mut group.words, group.stride)
            }
            _ => (&mut [], 0),
        };
        DomainMut::new(&mut self.headers[index], repr, group, stride)
    }

    /// The variable's smallest value (meaningful while its domain is not empty).
    #[inline(always)]
    pub fn lb(&self, var: VarId) -> i32 {
        if self.lines.is_some() {
            return self.kept_bound::<true>(var.index());
        }
        self.headers[var.index()].lo
    }

    /// The variable's largest value (meaningful while its domain is not empty).
    #[inline(always)]
    pub fn ub(&self, var: VarId) -> i32 {
        if self.lines.is_some() {
            return self.kept_bound::<false>(var.index());
        }
        self.headers[var.index()].hi
    }

    /// [`Store::lb`] as a constraint's context reads it, without the test for kept lines: a row
    /// of kept lines, unassigned, reads the bound it had at the root. Only the kept constraint is
    /// on such a row, and it is not asked to propagate (see [`LineRule`](crate::LineRule)); every
    /// other propagator, for every other model, saves the test.
    #[inline(always)]
    pub(crate) fn context_lb(&self, var: VarId) -> i32 {
        self.headers[var.index()].lo
    }

    /// [`Store::ub`] as a constraint's context reads it (see [`Store::context_lb`]).
    #[inline(always)]
    pub(crate) fn context_ub(&self, var: VarId) -> i32 {
        self.headers[var.index()].hi
    }

    /// How many values the variable has left.
    #[inline(always)]
    pub fn size(&self, var: VarId) -> u64 {
        if self.lines.is_some() {
            return self.kept_size(var.index());
        }
        self.headers[var.index()].size
    }

    /// [`Store::size`] for many variables in a row: a reader that holds the store's sizes as a
    /// plain slice, so that a loop over thousands of variables (a fewest-choices scan) keeps it in
    /// registers instead of reading the store again for each.
    #[inline(always)]
    pub fn sizes(&self) -> impl Fn(VarId) -> u64 + Copy + '_ {
        let headers = &self.headers[..];
        let kept = self.lines.is_some();
        move |var| {
            if kept {
                self.kept_size(var.index())
            } else {
                headers[var.index()].size
            }
        }
    }

    /// The variable's value, if a search decision assigned it.
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

    /// Whether the variable has exactly one value left (assigned or fixed by propagation).
    #[inline]
    pub fn is_fixed(&self, var: VarId) -> bool {
        self.size(var) == 1
    }

    /// Whether every variable has exactly one value left.
    pub fn all_fixed(&self) -> bool {
        if self.lines.is_some() {
            return (0..self.num_vars()).all(|index| self.kept_size(index) == 1);
        }
        self.headers.iter().all(|header| header.size == 1)
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

    /// Every variable's value, by index; meaningful only where assigned (or after
    /// [`Store::record_fixed_values`]). Once every variable is assigned this is the solution.
    #[inline]
    pub fn values(&self) -> &[i32] {
        &self.values
    }

    /// Copies every fixed variable's value into [`Store::values`], so that a solution reached by
    /// propagation (every variable fixed, not all assigned) reads like one reached by assignments.
    pub fn record_fixed_values(&mut self) {
        for index in 0..self.headers.len() {
            if self.size(VarId::from_index(index)) == 1 {
                // A kept row fixed but unassigned has its one free square as its bound.
                self.values[index] = self.lb(VarId::from_index(index));
            }
        }
    }

    /// How many variables of the constraint's scope are unassigned.
    #[inline]
    pub fn unassigned_in_scope(&self, constraint: ConstraintId) -> u32 {
        self.unassigned_in_scope[constraint.index()]
    }

    /// How many times a constraint's [`crate::Propagator::revise`] has run in this store.
    #[inline]
    pub fn propagations(&self) -> u64 {
        self.propagations
    }

    /// The current trail position; [`Store::undo_to`] returns here.
    #[inline]
    pub fn checkpoint(&self) -> Checkpoint {
        Checkpoint {
            removals: self.floor.removals + self.trail.removals.len(),
            words: self.floor.words + self.trail.words.len(),
            bounds: self.floor.bounds + self.trail.bounds.len(),
            cells: self.floor.cells + self.trail.cells.len(),
            log: self.log.as_ref().map_or(0, |log| log.entries.len()),
        }
    }

    /// Whether domain changes are recorded as events for the propagation queue. It is off in a new
    /// store (check-past and forward checking need no events); [`Store::propagate`] and the arc
    /// consistency methods turn it on, and search turns it on from the start for MAC and for search by
    /// decisions, so that the changes of its first decision are seen too.
    ///
    /// A store whose model [notifies](crate::Model::notifies) records events always, so that the
    /// constraints' notified state follows forward checking too: turning tracking off then
    /// only drops the pending events.
    pub fn set_tracking(&mut self, tracking: bool) {
        if !tracking {
            self.clear_propagation();
        }
        self.tracking = tracking || self.always_tracking;
        self.queueing = tracking;
    }

    /// Records events and queues the constraints they wake, from now on: propagation follows.
    fn start_queueing(&mut self) {
        self.tracking = true;
        self.queueing = true;
    }

    #[inline]
    fn enqueue(&mut self, c: ConstraintId, priority: Priority) {
        if !self.queued.put(c.index()) {
            self.queues[priority.index()].push_back(c);
        }
    }

    #[inline]
    fn pop(&mut self) -> Option<ConstraintId> {
        self.queues.iter_mut().find_map(VecDeque::pop_front)
    }

    /// Empties the queue and forgets pending events (after a failure, or before undo).
    fn clear_propagation(&mut self) {
        for queue in &mut self.queues {
            for c in queue.drain(..) {
                self.queued.set(c.index(), false);
            }
        }
        for &var in &self.modified {
            self.pending[var as usize] = EventSet::EMPTY;
        }
        self.modified.clear();
    }

    /// Removes `value` from `var`'s domain (trailed); returns whether it was there. Emptying the
    /// domain is a [`Wipeout`]. Search uses it for the decision `x ≠ v`; constraints reach it through
    /// [`PropagationCtx::remove`](crate::PropagationCtx::remove).
    #[inline(always)]
    pub fn remove_value(&mut self, var: VarId, value: i32) -> Result<bool, Wipeout> {
        let index = var.index();
        let location = self.locations[index];
        if location.group != Location::NONE {
            let header = &mut self.headers[index];
            if value > header.lo && value < header.hi {
                // An interleaved bit set, the value strictly inside its bounds: the header, one
                // word of the group and the trail, nothing else (forward checking on a large board
                // does this for three squares of every unplaced row at every placement).
                let group = &mut self.groups[location.group as usize];
                let offset = value.wrapping_sub(group.base) as u32;
                let word =
                    &mut group.words[offset as usize / 64 * group.stride + location.slot as usize];
                let removed = (*word >> (offset % 64)) & 1;
                *word &= !(1 << (offset % 64));
                header.size -= removed;
                return Ok(self.record_inner_removal(var, value, offset, removed));
            }
        }
        let (offset, events) = if let Repr::Word { base, bits, .. } = &mut self.reprs[index] {
            // An inline word (a Sudoku cell, a colour): changed in place, without the DomainMut
            // the other representations go through, whose construction cost as much as the
            // removal itself (Sudoku under forward checking makes little else).
            let header = &mut self.headers[index];
            if value < header.lo || value > header.hi {
                return Ok(false);
            }
            match remove_from_word(header, *base, bits, value) {
                Some(removal) => removal,
                None => return Ok(false),
            }
        } else {
            let mut domain = self.domain_mut(index);
            if let Some((offset, removed)) = domain.remove_inner_bit(value) {
                return Ok(self.record_inner_removal(var, value, offset, removed));
            }
            // Most attempts under forward checking find the value already gone: `remove` answers
            // those after two comparisons and one bit test.
            let Some(removal) = domain.remove(value) else {
                return Ok(false);
            };
            removal
        };
        let size = self.headers[index].size;
        self.trail.removals.push(Removal {
            var: var.index() as u32,
            offset,
        });
        if size == 0 {
            if self.log.is_some() {
                self.log_failure(Some(crate::Literal::ne(var, value)));
            }
            return Err(Wipeout);
        }
        if self.tracking {
            let fixed = if size == 1 {
                EventSet::FIXED
            } else {
                EventSet::EMPTY
            };
            self.record(var, events | fixed);
            if self.log.is_some() {
                self.log_removal(var, value, events);
            }
        }
        Ok(true)
    }

    /// Narrows `var`'s domain to the values in `lo..=hi` (trailed, one entry however many values go);
    /// returns whether anything changed. Leaving no value is a [`Wipeout`] (the domain is then
    /// unchanged). Search uses it for the decisions `x ≤ m` and `x ≥ m`; constraints reach it through
    /// [`PropagationCtx::set_min`](crate::PropagationCtx::set_min) and its siblings.
    #[inline]
    pub fn set_bounds(&mut self, var: VarId, lo: i64, hi: i64) -> Result<bool, Wipeout> {
        // Most calls change nothing (a propagator restating bounds it already made): answered from
        // the header, without building the domain's mutable view.
        let header = self.headers[var.index()];
        if header.size > 0 && lo <= i64::from(header.lo) && hi >= i64::from(header.hi) {
            return Ok(false);
        }
        match self.domain_mut(var.index()).tighten(lo, hi) {
            Ok(None) => Ok(false),
            Ok(Some(change)) => {
                self.trail.bounds.push(BoundChange {
                    var: var.index() as u32,
                    old_lo: change.old_lo,
                    old_hi: change.old_hi,
                    removed: change.removed as u32,
                });
                self.record(var, change.events);
                if self.log.is_some() {
                    self.log_bounds(var, change.old_lo, change.old_hi);
                }
                Ok(true)
            }
            Err(()) => {
                if self.log.is_some() {
                    self.log_failure(self.refused_bounds(var, lo, hi));
                }
                Err(Wipeout)
            }
        }
    }

    /// Trails a removal from strictly inside a bit set's bounds, `removed` (0 or 1) saying whether
    /// the value was there, and records its event; returns whether it was. The entry is written
    /// either way and kept only if the value was there: no branch on the bit (see
    /// `DomainMut::remove_inner_bit`).
    #[inline(always)]
    fn record_inner_removal(&mut self, var: VarId, value: i32, offset: u32, removed: u64) -> bool {
        let removals = &mut self.trail.removals;
        let kept = removals.len() + removed as usize;
        removals.push(Removal {
            var: var.index() as u32,
            offset,
        });
        removals.truncate(kept);
        if self.tracking {
            self.record_removal(var, value, removed != 0);
        }
        removed != 0
    }

    /// Records an inner removal's event, if there was one. Out of line, so that the compiler cannot
    /// test `removed` before `tracking` and branch on the bit after all (see
    /// [`Store::remove_value`]).
    #[inline(never)]
    fn record_removal(&mut self, var: VarId, value: i32, removed: bool) {
        if removed {
            self.record(var, EventSet::REMOVAL);
            if self.log.is_some() {
                self.log_removal(var, value, EventSet::REMOVAL);
            }
        }
    }

    /// Records a change for the propagation queue, when it is tracked.
    #[inline(always)]
    fn record(&mut self, var: VarId, events: EventSet) {
        if self.tracking {
            let pending = &mut self.pending[var.index()];
            if pending.is_empty() {
                self.modified.push(var.index() as u32);
            }
            *pending |= events;
        }
    }

    #[inline]
    pub(crate) fn set_cell(&mut self, cell: usize, value: i64) {
        let old = std::mem::replace(&mut self.cells[cell], value);
        if old != value {
            self.trail.cells.push((cell as u32, old));
        }
    }

    /// The most bytes removals could still add to the trail on one path: an entry for every value
    /// present now. Search compares it with its trail budget to decide, before it starts, whether it
    /// may have to forget part of the trail (and so keep the root state).
    pub fn removal_trail_bound(&self) -> u64 {
        (0..self.headers.len())
            .map(|index| self.size(VarId::from_index(index)))
            .fold(0u64, u64::saturating_add)
            .saturating_mul(std::mem::size_of::<Removal>() as u64)
    }

    /// The bytes a [`Store::snapshot_root`] taken now would copy: the domains' headers and bits or
    /// intervals, and the state cells. Search compares it with [`Store::removal_trail_bound`] to
    /// decide whether returning to the root is cheaper by copying than by undoing.
    pub fn snapshot_bytes(&self) -> usize {
        let reprs: usize = self
            .reprs
            .iter()
            .map(|repr| match repr {
                Repr::Bits { words, .. } => words.len() * std::mem::size_of::<u64>(),
                Repr::Spans { spans, .. } => spans.len() * std::mem::size_of::<(i32, i32)>(),
                Repr::Word { .. } | Repr::Strided { .. } => 0,
            })
            .sum();
        let groups: usize = self.groups.iter().map(|group| group.words.len()).sum();
        self.headers.len() * std::mem::size_of::<Header>()
            + self.reprs.len() * std::mem::size_of::<Repr>()
            + reprs
            + groups * std::mem::size_of::<u64>()
            + self.cells.len() * std::mem::size_of::<i64>()
    }

    /// The memory the trail's logs hold now, in bytes (their capacity: what the process keeps).
    pub fn trail_bytes(&self) -> usize {
        self.trail.removals.capacity() * std::mem::size_of::<Removal>()
            + self.trail.words.capacity() * std::mem::size_of::<WordRemoval>()
            + self.trail.bounds.capacity() * std::mem::size_of::<BoundChange>()
            + self.trail.cells.capacity() * std::mem::size_of::<(u32, i64)>()
    }

    /// The bytes of trail entries recorded between `from` and the current position.
    pub fn trail_bytes_since(&self, from: Checkpoint) -> usize {
        let now = self.checkpoint();
        now.removals.saturating_sub(from.removals) * std::mem::size_of::<Removal>()
            + now.words.saturating_sub(from.words) * std::mem::size_of::<WordRemoval>()
            + now.bounds.saturating_sub(from.bounds) * std::mem::size_of::<BoundChange>()
            + now.cells.saturating_sub(from.cells) * std::mem::size_of::<(u32, i64)>()
    }

    /// Appends the variables whose domains changed since `from` (a removal, a bound change or an
    /// assignment on the trail), each at least once: what a decision's propagation reached, for
    /// large-neighbourhood search's propagation-guided neighbourhoods. `from` must not lie in a
    /// forgotten part of the trail.
    pub fn changed_vars_since(&self, from: Checkpoint, out: &mut Vec<VarId>) {
        let removals = from.removals.saturating_sub(self.floor.removals);
        let words = from.words.saturating_sub(self.floor.words);
        let bounds = from.bounds.saturating_sub(self.floor.bounds);
        for removal in self.trail.removals.get(removals..).unwrap_or_default() {
            out.push(VarId::from_index(removal.var as usize));
        }
        for removal in self.trail.words.get(words..).unwrap_or_default() {
            out.push(VarId::from_index(removal.var as usize));
        }
        for change in self.trail.bounds.get(bounds..).unwrap_or_default() {
            out.push(VarId::from_index((change.var & !ASSIGNMENT) as usize));
        }
    }

    /// The oldest checkpoint the trail can still undo to: the start, unless part of the trail was
    /// forgotten ([`Store::forget_trail_before`]).
    pub fn trail_floor(&self) -> Checkpoint {
        self.floor
    }

    /// Keeps the current domains and cells as the root state, for [`Store::reset_to_root`]. Call it
    /// with nothing assigned (at the root of a search, after its root propagation).
    pub fn snapshot_root(&mut self) {
        debug_assert_eq!(self.num_assigned, 0, "the root has nothing assigned");
        self.root = Some(Box::new(RootState {
            headers: self.headers.clone(),
            reprs: self.reprs.clone(),
            groups: self.groups.clone(),
            cells: self.cells.clone(),
        }));
    }

    /// Whether `checkpoint` lies in a forgotten part of the trail, so that [`Store::undo_to`] cannot
    /// reach it.
    #[inline]
    pub fn is_forgotten(&self, checkpoint: Checkpoint) -> bool {
        checkpoint.removals < self.floor.removals
            || checkpoint.words < self.floor.words
            || checkpoint.bounds < self.floor.bounds
            || checkpoint.cells < self.floor.cells
    }

    /// Whether [`Store::snapshot_root`] has kept a root state.
    pub fn has_root_snapshot(&self) -> bool {
        self.root.is_some()
    }

    /// Drops the trail's entries before `checkpoint`, so that the trail's memory stays bounded on a
    /// deep path: the store can no longer undo to an earlier checkpoint, only return to the root
    /// ([`Store::reset_to_root`]) and redo the decisions from there (recomputation, as in Gecode;
    /// Schulte, *Comparing Trailing and Copying for Constraint Programming*, ICLP 1999).
    pub fn forget_trail_before(&mut self, checkpoint: Checkpoint) {
        let removals = checkpoint.removals.saturating_sub(self.floor.removals);
        let words = checkpoint.words.saturating_sub(self.floor.words);
        let bounds = checkpoint.bounds.saturating_sub(self.floor.bounds);
        let cells = checkpoint.cells.saturating_sub(self.floor.cells);
        self.trail
            .removals
            .drain(..removals.min(self.trail.removals.len()));
        self.trail.words.drain(..words.min(self.trail.words.len()));
        for change in self
            .trail
            .bounds
            .drain(..bounds.min(self.trail.bounds.len()))
        {
            if change.var & ASSIGNMENT != 0 {
                self.forgotten_assignments.push(change.var & !ASSIGNMENT);
            }
        }
        self.trail.cells.drain(..cells.min(self.trail.cells.len()));
        self.floor = Checkpoint {
            removals: self.floor.removals + removals,
            words: self.floor.words + words,
            bounds: self.floor.bounds + bounds,
            cells: self.floor.cells + cells,
            log: 0,
        };
    }
}

/// The domains and cells at the root of a search (see [`Store::snapshot_root`]).
#[derive(Debug, Clone)]
struct RootState {
    headers: Vec<Header>,
    reprs: Vec<Repr>,
    groups: Vec<Group>,
    cells: Vec<i64>,
}

#[cfg(test)]
mod tests {
    use rand::RngExt;

    use super::*;
    use crate::{ModelBuilder, rng_for};

    /// Returning to a root snapshot by copying (the trail dropped, only assignments taken back)
    /// leaves the same store as undoing the trail to the snapshot's checkpoint: the same domains,
    /// assignments, order of the unassigned variables and state cells, round after round, with
    /// interleaved, inline-word and interval domains and a constraint keeping cells.
    #[test]
    fn resetting_to_a_snapshot_is_undoing_to_it() {
        use crate::constraints::{Linear, Relation};

        let mut builder = ModelBuilder::new();
        let mut vars: Vec<VarId> = (0..10)
            .map(|k| builder.int_var(format!("g{k}"), 0..=90).unwrap())
            .collect();
        vars.extend((0..2).map(|k| builder.int_var(format!("w{k}"), 0..=30).unwrap()));
        vars.push(builder.int_var("wide", -100_000..=100_000).unwrap());
        let terms = vars[..6].iter().map(|&v| (1, v)).collect();
        builder
            .post(Linear::new(terms, Relation::LessOrEqual, 400))
            .unwrap();
        let model = builder.build();
        let mut copying = Store::new(&model);
        let mut undoing = Store::new(&model);
        assert_eq!(copying.groups.len(), 1);
        // A root with holes, then its snapshot.
        for store in [&mut copying, &mut undoing] {
            for (k, &v) in vars.iter().enumerate() {
                store.remove_value(v, 3 + k as i32).unwrap();
            }
        }
        copying.snapshot_root();
        let root = undoing.checkpoint();
        let mut rng = rng_for(17, 0);
        for _ in 0..30 {
            for _ in 0..rng.random_range(1..40) {
                let v = vars[rng.random_range(0..vars.len())];
                if copying.is_assigned(v) {
                    continue;
                }
                let (lo, hi) = (copying.lb(v), copying.ub(v));
                let value = rng.random_range(lo..=hi);
                let step = rng.random_range(0..3);
                let stores = [&mut copying, &mut undoing];
                let done = stores.map(|store| match step {
                    0 if store.domain(v).contains(value) => {
                        store.assign(&model, v, value);
                        store.forward_check(&model, v).is_ok()
                    }
                    1 => store.set_bounds(v, i64::from(value), i64::MAX).is_ok(),
                    _ => store.remove_value(v, value).is_ok(),
                });
                assert_eq!(done[0], done[1]);
                if !done[0] {
                    break;
                }
            }
            copying.reset_to_root(&model);
            undoing.undo_to(&model, root);
            for &v in &vars {
                assert_eq!(copying.domain(v), undoing.domain(v), "{v:?}");
                assert_eq!(
                    copying.domain(v).values().take(200).collect::<Vec<_>>(),
                    undoing.domain(v).values().take(200).collect::<Vec<_>>()
                );
            }
            assert_eq!(copying.assigned, undoing.assigned);
            assert_eq!(copying.unassigned(), undoing.unassigned());
            assert_eq!(copying.cells, undoing.cells);
            assert_eq!(copying.unassigned_in_scope, undoing.unassigned_in_scope);
        }
    }

    /// A store that interleaves a group of same-sized bit sets answers exactly as one that keeps
    /// every domain apart (`Store::with_lazy_domains` never interleaves), through random removals,
    /// bound changes, assignments, undos, and a return to a root snapshot.
    #[test]
    fn interleaved_domains_behave_like_separate_ones() {
        let mut builder = ModelBuilder::new();
        // Twelve of one span (a group), three of another (too few to group), two inline words and
        // a wide one.
        let mut vars: Vec<VarId> = (0..12)
            .map(|k| builder.int_var(format!("g{k}"), -20..=180).unwrap())
            .collect();
        vars.extend((0..3).map(|k| builder.int_var(format!("s{k}"), 0..=150).unwrap()));
        vars.extend((0..2).map(|k| builder.int_var(format!("w{k}"), 0..=40).unwrap()));
        vars.push(builder.int_var("wide", -1_000_000..=1_000_000).unwrap());
        let model = builder.build();
        let mut interleaved = Store::new(&model);
        let mut separate = Store::with_lazy_domains(&model);
        assert_eq!(interleaved.groups.len(), 1);
        assert_eq!(interleaved.groups[0].stride, 12);
        assert!(separate.groups.is_empty());
        let same = |a: &Store, b: &Store| {
            for &v in &vars {
                assert_eq!(a.domain(v), b.domain(v), "{v:?}");
                if a.size(v) > 1000 {
                    continue;
                }
                assert_eq!(a.domain(v).values().collect::<Vec<_>>(), {
                    let mut listed = Vec::new();
                    b.domain(v).append_values(&mut listed);
                    listed
                });
            }
        };
        let mut rng = rng_for(3, 0);
        let start = [interleaved.checkpoint(), separate.checkpoint()];
        for round in 0..4 {
            let marks = [interleaved.checkpoint(), separate.checkpoint()];
            let mut stack = vec![marks];
            for step in 0..150 {
                let v = vars[rng.random_range(0..vars.len())];
                let (lo, hi) = (interleaved.lb(v), interleaved.ub(v));
                let value = rng.random_range(lo..=hi);
                let stores = [&mut interleaved, &mut separate];
                let results = stores.map(|store| match step % 5 {
                    0 if round > 0 => store.set_bounds(v, i64::from(value), i64::MAX).is_ok(),
                    1 => store.set_bounds(v, i64::MIN, i64::from(value)).is_ok(),
                    2 if !store.is_assigned(v) && store.domain(v).contains(value) => {
                        store.assign(&model, v, value);
                        true
                    }
                    _ => store.remove_value(v, value).is_ok(),
                });
                assert_eq!(results[0], results[1]);
                if !results[0] || rng.random_range(0..6) == 0 {
                    let back = rng.random_range(0..stack.len());
                    let [a, b] = stack[back];
                    stack.truncate(back + 1);
                    interleaved.undo_to(&model, a);
                    separate.undo_to(&model, b);
                } else {
                    stack.push([interleaved.checkpoint(), separate.checkpoint()]);
                }
                same(&interleaved, &separate);
            }
            if round == 1 {
                interleaved.undo_to(&model, start[0]);
                separate.undo_to(&model, start[1]);
                interleaved.snapshot_root();
                separate.snapshot_root();
            }
            if round >= 2 {
                interleaved.reset_to_root(&model);
                separate.reset_to_root(&model);
                same(&interleaved, &separate);
            }
        }
    }
}
