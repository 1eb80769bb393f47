//! The clause database of a learning search: learned clauses and blocking clauses, watched two
//! literals at a time, propagated after each round of changes, and reduced by literal block
//! distance.
//!
//! **Propagation** visits, after each round of changes, each changed variable's watch lists once,
//! and only those its changes can make false (one list per relation of the watched literal); a
//! watch carries a blocking literal, so that a clause already satisfied is not read.

use csp_core::{Cause, Literal, LiteralRelation, LogEntry, Store, VarId};

/// A clause: at least one literal holds. The first two are watched.
#[derive(Debug, Clone)]
struct Clause {
    literals: Vec<Literal>,
    /// For a learned clause, its literal block distance (Audemard & Simon 2009, "Predicting
    /// learnt clauses quality in modern SAT solvers"): how many decision levels its literals
    /// spanned when it was learned. `None` for a clause that must stay (a solution's blocking
    /// clause, which the constraints do not imply).
    lbd: Option<u32>,
}

/// A clause watching one of its first two literals.
#[derive(Debug, Clone, Copy)]
struct Watch {
    clause: u32,
    literal: Literal,
    /// Another literal of the clause (its other watched literal when the watch was made or last
    /// visited): while it holds, the clause is satisfied and need not be read (MiniSat's blocking
    /// literal, Eén & Sörensson; Chu, Harwood & Stuckey 2009). Reading the clause costs a cache
    /// miss or two, and most visits find it satisfied.
    blocker: Literal,
}

/// How many learned clauses are kept before the first reduction of the database.
const INITIAL_MAX_LEARNED: usize = 2_000;

/// A variable's flag in [`ClauseDb::touched`]: some change not visited yet.
const CHANGED: u8 = 1;
/// Its lower bound rose.
const LOWER: u8 = 2;
/// Its upper bound fell.
const UPPER: u8 = 4;

/// The clauses, their watches, and where propagation stands on the store's change log.
#[derive(Debug)]
pub(super) struct ClauseDb {
    clauses: Vec<Clause>,
    /// The clauses with a watched literal on each variable, four lists a variable (see
    /// [`watch_list`]).
    watches: Vec<Vec<Watch>>,
    /// Per variable, what its log entries not visited yet changed ([`CHANGED`], [`LOWER`],
    /// [`UPPER`]); zero once visited.
    touched: Vec<u8>,
    /// The variables with a nonzero [`ClauseDb::touched`], in the order first changed.
    touched_vars: Vec<VarId>,
    /// The log entries whose watches were visited.
    queue_head: usize,
    /// Slots of dropped clauses, for the next clauses learned.
    free_slots: Vec<u32>,
    /// Learned clauses in the database now.
    live_learned: usize,
    /// How many learned clauses to keep before the next reduction.
    max_learned: usize,
}

impl ClauseDb {
    /// An empty database over `num_vars` variables.
    pub(super) fn new(num_vars: usize) -> Self {
        ClauseDb {
            clauses: Vec::new(),
            watches: vec![Vec::new(); 4 * num_vars],
            touched: vec![0; num_vars],
            touched_vars: Vec::new(),
            queue_head: 0,
            free_slots: Vec::new(),
            live_learned: 0,
            max_learned: INITIAL_MAX_LEARNED,
        }
    }

    /// The literals of clause `id`.
    pub(super) fn literals(&self, id: u32) -> &[Literal] {
        &self.clauses[id as usize].literals
    }

    /// Whether log entries wait for their watches to be visited.
    pub(super) fn pending(&self, store: &Store) -> bool {
        self.queue_head < store.change_log().len()
    }

    /// Visits the watches of every change not visited yet, and of the changes that makes, until
    /// none is left; names the clause found false, if one is.
    pub(super) fn propagate(&mut self, store: &mut Store) -> Result<(), u32> {
        while self.pending(store) {
            self.visit_changed_vars(store)?;
        }
        Ok(())
    }

    /// The log has been cut back to `len` entries by an undo.
    pub(super) fn backjump(&mut self, len: usize) {
        self.queue_head = self.queue_head.min(len);
    }

    /// Visits the watch lists of the variables changed by the log entries not visited yet, each
    /// variable once however many of its entries there are (a bound that moves five times in one
    /// propagation reads its lists once, not five times), and only the lists its changes can
    /// make false: `x = v` on any change, `x ≤ v` when the lower bound rose, `x ≥ v` when the
    /// upper bound fell, `x ≠ v` when it became fixed (which always moves a bound).
    fn visit_changed_vars(&mut self, store: &mut Store) -> Result<(), u32> {
        let end = store.change_log().len();
        for k in self.queue_head..end {
            let literal = store.change_log()[k].literal;
            let flags = match literal.relation {
                LiteralRelation::Ne => CHANGED,
                LiteralRelation::Ge => CHANGED | LOWER,
                LiteralRelation::Le => CHANGED | UPPER,
                LiteralRelation::Eq => CHANGED | LOWER | UPPER,
            };
            let slot = &mut self.touched[literal.var.index()];
            if *slot == 0 {
                self.touched_vars.push(literal.var);
            }
            *slot |= flags;
        }
        self.queue_head = end;
        let mut vars = std::mem::take(&mut self.touched_vars);
        let mut result = Ok(());
        for &var in &vars {
            let flags = std::mem::take(&mut self.touched[var.index()]);
            if result.is_err() {
                // Only the flags are cleared: the conflict is analysed and undone first.
                continue;
            }
            let fixed = store.size(var) == 1;
            result = self
                .visit_watches(store, var, LiteralRelation::Eq)
                .and_then(|()| {
                    if flags & LOWER != 0 {
                        self.visit_watches(store, var, LiteralRelation::Le)
                    } else {
                        Ok(())
                    }
                })
                .and_then(|()| {
                    if flags & UPPER != 0 {
                        self.visit_watches(store, var, LiteralRelation::Ge)
                    } else {
                        Ok(())
                    }
                })
                .and_then(|()| {
                    if fixed && flags & (LOWER | UPPER) != 0 {
                        self.visit_watches(store, var, LiteralRelation::Ne)
                    } else {
                        Ok(())
                    }
                });
        }
        vars.clear();
        self.touched_vars = vars;
        result
    }

    /// Visits the clauses watching a literal `var relation v` (one watch list, see
    /// [`watch_list`]) after `var` changed: each whose watched literal is now false watches
    /// another, or propagates its other watched literal, or fails. Whether a watched literal is
    /// false is read from the variable's bounds (and for `x = v` its domain), read once for the
    /// list, so that the many watches a change leaves alone cost a comparison each.
    fn visit_watches(
        &mut self,
        store: &mut Store,
        var: VarId,
        relation: LiteralRelation,
    ) -> Result<(), u32> {
        let list_index = watch_list(var, relation);
        if self.watches[list_index].is_empty() {
            return Ok(());
        }
        let mut list = std::mem::take(&mut self.watches[list_index]);
        let (lo, hi) = (store.lb(var), store.ub(var));
        let mut kept = 0;
        let mut result = Ok(());
        for i in 0..list.len() {
            let watch = list[i];
            let v = watch.literal.value;
            let false_now = match relation {
                LiteralRelation::Eq => {
                    v < lo || v > hi || (lo != hi && !store.domain(var).contains(v))
                }
                LiteralRelation::Le => v < lo,
                LiteralRelation::Ge => v > hi,
                LiteralRelation::Ne => lo == v && hi == v,
            };
            let keep = if result.is_err() || !false_now || watch.blocker.status(store) == Some(true)
            {
                true
            } else {
                match self.visit_clause(store, &mut list[i]) {
                    Ok(keep) => keep,
                    Err(conflict) => {
                        result = Err(conflict);
                        true
                    }
                }
            };
            if keep {
                list[kept] = list[i];
                kept += 1;
            }
        }
        list.truncate(kept);
        // A clause that moved its watch to another literal of this same list was pushed to the
        // (emptied) list in the database meanwhile: keep it too.
        list.append(&mut self.watches[list_index]);
        self.watches[list_index] = list;
        result
    }

    /// A clause whose watched literal `watch.literal` may have become false; returns whether the
    /// watch stays (with its blocker updated to the clause's other watched literal).
    fn visit_clause(&mut self, store: &mut Store, watch: &mut Watch) -> Result<bool, u32> {
        let id = watch.clause;
        let clause = &mut self.clauses[id as usize].literals;
        let w = if clause.is_empty() {
            // Cannot happen: a dropped clause's watches go with it.
            return Ok(false);
        } else if clause[0] == watch.literal {
            0
        } else if clause[1] == watch.literal {
            1
        } else {
            // A stale watch (the clause watches elsewhere now).
            return Ok(false);
        };
        if watch.literal.status(store) != Some(false) {
            return Ok(true);
        }
        let other = clause[1 - w];
        watch.blocker = other;
        let other_status = other.status(store);
        if other_status == Some(true) {
            // Satisfied: nothing to do while the other literal holds.
            return Ok(true);
        }
        // A literal that is not false to watch instead.
        if let Some(j) = (2..clause.len()).find(|&j| clause[j].status(store) != Some(false)) {
            clause.swap(w, j);
            let literal = clause[w];
            self.watches[watch_list(literal.var, literal.relation)].push(Watch {
                clause: id,
                literal,
                blocker: other,
            });
            return Ok(false);
        }
        if other_status == Some(false) {
            return Err(id);
        }
        store.set_cause(Cause::Clause(id));
        let made = store.make_true(other);
        store.set_cause(Cause::Decision);
        match made {
            Ok(_) => Ok(true),
            Err(_) => Err(id),
        }
    }

    /// Stores a clause, in a dropped clause's slot if there is one, watches its first two
    /// literals (a unit clause: none), and makes its first literal true, which must be open with
    /// every other literal false (the clause asserts it). A learned clause has its literal block
    /// distance `lbd`; a blocking clause, which must stay, has none.
    pub(super) fn add(&mut self, store: &mut Store, literals: Vec<Literal>, lbd: Option<u32>) {
        // A unit clause holds from the root on and needs no watching.
        let watched = if literals.len() > 1 { 2 } else { 0 };
        let clause = Clause { literals, lbd };
        let id = match self.free_slots.pop() {
            Some(id) => {
                self.clauses[id as usize] = clause;
                id
            }
            None => {
                self.clauses.push(clause);
                (self.clauses.len() - 1) as u32
            }
        };
        if lbd.is_some() {
            self.live_learned += 1;
        }
        for k in 0..watched {
            let literal = self.clauses[id as usize].literals[k];
            let blocker = self.clauses[id as usize].literals[1 - k];
            self.watches[watch_list(literal.var, literal.relation)].push(Watch {
                clause: id,
                literal,
                blocker,
            });
        }
        let first = self.clauses[id as usize].literals[0];
        store.set_cause(Cause::Clause(id));
        // The first literal is open at this level (its negation became true above it), so this
        // cannot fail; should it, the next propagation finds the clause false.
        let _ = store.make_true(first);
        store.set_cause(Cause::Decision);
    }

    /// When more learned clauses are kept than the current limit: drops the half with the largest
    /// literal block distance (keeping every clause of distance two or less, every blocking
    /// clause, and every clause that is the reason of a change on the current path, `log` from
    /// `root_end` on), and raises the limit by a tenth. A dropped clause's slot is reused by a
    /// later one; no watch is left on it.
    pub(super) fn reduce(&mut self, log: &[LogEntry], root_end: usize) {
        if self.live_learned <= self.max_learned {
            return;
        }
        self.max_learned += self.max_learned / 10;
        let mut locked = vec![false; self.clauses.len()];
        for entry in &log[root_end..] {
            if let Cause::Clause(id) = entry.cause {
                locked[id as usize] = true;
            }
        }
        let mut distances: Vec<u32> = self
            .clauses
            .iter()
            .filter(|c| !c.literals.is_empty())
            .filter_map(|c| c.lbd)
            .collect();
        distances.sort_unstable();
        let cut = distances[distances.len() / 2].max(3);
        // Of the clauses at the cut, those in the later slots stay, up to half of the database
        // (slots are reused, so these are only roughly the newer clauses).
        let mut at_cut_budget =
            (distances.len() / 2).saturating_sub(distances.iter().filter(|&&d| d < cut).count());
        for (id, clause) in self.clauses.iter_mut().enumerate().rev() {
            let Some(d) = clause.lbd else { continue };
            if clause.literals.is_empty() || locked[id] || d < cut {
                continue;
            }
            if d == cut && at_cut_budget > 0 {
                at_cut_budget -= 1;
                continue;
            }
            clause.literals = Vec::new();
            clause.lbd = None;
            self.free_slots.push(id as u32);
            self.live_learned -= 1;
        }
        let clauses = &self.clauses;
        for list in &mut self.watches {
            list.retain(|watch| !clauses[watch.clause as usize].literals.is_empty());
        }
    }
}

/// The watch list of a literal on `var` with `relation`: four lists a variable, one per
/// relation, as each is made false by a different change (`x = v` by any, `x ≤ v` by its lower
/// bound, `x ≥ v` by its upper bound, `x ≠ v` by its fixing).
fn watch_list(var: VarId, relation: LiteralRelation) -> usize {
    4 * var.index()
        + match relation {
            LiteralRelation::Eq => 0,
            LiteralRelation::Ne => 1,
            LiteralRelation::Le => 2,
            LiteralRelation::Ge => 3,
        }
}
