//! The clause database of a learning search: learned clauses and blocking clauses over numbered
//! literals ([`super::literals`]), watched two literals at a time, propagated as the store's
//! propagation runs (before each propagator, so that they reach their fixpoint first), and kept in
//! three tiers.
//!
//! **Propagation** reads the store's change log: for each new entry, the literals it made false
//! (found by binary search in the variable's propositions, from the bounds before and after it),
//! and for each, the clauses watching it. A watch carries a blocking literal, so that a clause
//! already satisfied is not read (MiniSat's blocker, Eén & Sörensson; Chu, Harwood & Stuckey
//! 2009), and a binary clause is its watch: the other literal is the blocker, and the clause is
//! never read at all.
//!
//! **Tiers** (Oh 2016, "Between SAT and UNSAT: the fundamental difference in CDCL SAT"; Kochemazov
//! et al.'s and CaDiCaL's three tiers): a learned clause of literal block distance two or less is
//! kept for good; one of six or less stays while conflict analysis uses it, and falls to the local
//! tier after a reduction interval without use; the local tier is halved at each reduction,
//! keeping the clauses analysis used most (activity, bumped on use and decayed per conflict).
//! A clause's distance is measured again whenever analysis uses it, and a lower one promotes it.

use csp_core::{Cause, Literal, LiteralRelation, LogEntry, Model, Store, VarId};

use super::literals::{Canonical, Lit, Literals};

/// A clause: at least one literal holds. The first two are watched.
#[derive(Debug, Clone)]
struct Clause {
    lits: Vec<Lit>,
    /// For a learned clause, its literal block distance (Audemard & Simon 2009, "Predicting
    /// learnt clauses quality in modern SAT solvers"): how many decision levels its literals
    /// spanned when it was learned, or when analysis last used it if that was fewer. `None` for a
    /// clause that must stay (a solution's blocking clause, which the constraints do not imply).
    lbd: Option<u32>,
    tier: Tier,
    /// Whether conflict analysis used it since the last reduction.
    used: bool,
    /// How much analysis has used it lately.
    activity: f32,
}

/// Which tier a learned clause is in (see the module's documentation).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Tier {
    /// Kept for good: a blocking clause, a binary clause, or distance two or less.
    Core,
    /// Kept while used.
    Middle,
    /// Halved at each reduction, by activity.
    Local,
}

impl Tier {
    /// The tier a clause of `len` literals and distance `lbd` belongs to.
    fn of(len: usize, lbd: Option<u32>) -> Tier {
        match lbd {
            None => Tier::Core,
            Some(_) if len <= 2 => Tier::Core,
            Some(d) if d <= CORE_LBD => Tier::Core,
            Some(d) if d <= MIDDLE_LBD => Tier::Middle,
            Some(_) => Tier::Local,
        }
    }
}

/// The largest distance of the core tier.
const CORE_LBD: u32 = 2;
/// The largest distance of the middle tier.
const MIDDLE_LBD: u32 = 6;
/// Conflicts between the first two reductions; each interval is [`REDUCE_STEP`] longer.
const REDUCE_FIRST: u64 = 2_000;
/// How much longer each interval between reductions is than the last (Glucose's schedule, which
/// lets the database grow with the square root of the conflicts).
const REDUCE_STEP: u64 = 300;
/// How much clause activities decay after each conflict (the bump grows by its inverse).
const CLAUSE_DECAY: f32 = 0.999;

/// A clause watching a literal: visited when that literal becomes false. Eight bytes, so that a
/// long list (hundreds of clauses watch a literal of market_split's thirty Booleans) is read a
/// cache line per eight watches.
#[derive(Debug, Clone, Copy)]
struct Watch {
    /// The clause's number, with [`BINARY`] set for a clause of two literals.
    clause: u32,
    /// Another literal of the clause: while it holds, the clause is satisfied and need not be
    /// read. In a binary clause it is the other literal, and the clause is not read at all.
    blocker: Lit,
}

/// The bit of [`Watch::clause`] that marks a binary clause (clause numbers stay below 2³¹).
const BINARY: u32 = 1 << 31;

impl Watch {
    fn id(self) -> u32 {
        self.clause & !BINARY
    }

    fn binary(self) -> bool {
        self.clause & BINARY != 0
    }
}

/// A literal's entry in [`ClauseDb::values`]: not decided by the entries visited.
const UNKNOWN: u8 = 0;
/// True.
const TRUE: u8 = 1;
/// False.
const FALSE: u8 = 2;

/// The clauses, their watches, and where propagation stands on the store's change log.
#[derive(Debug)]
pub(super) struct ClauseDb {
    literals: Literals,
    clauses: Vec<Clause>,
    /// By literal, the clauses watching it.
    watches: Vec<Vec<Watch>>,
    /// The log entries whose literals' watches were visited.
    queue_head: usize,
    /// Each variable's bounds as of the last entry visited.
    seen: Vec<(i32, i32)>,
    /// For each entry visited, its variable, that variable's bounds before it and the length of
    /// `assigned` before it: what an undo restores `seen` and `values` from.
    undo: Vec<(u32, i32, i32, u32)>,
    /// By literal, its truth as the entries visited so far decided it ([`TRUE`], [`FALSE`], or
    /// [`UNKNOWN`]): a byte read where computing the truth from the domains reads the
    /// proposition, the variable's bounds and perhaps its bits. [`UNKNOWN`] says nothing (the
    /// entries not visited yet, and those before the literal was made, are not in it), and the
    /// domains decide.
    values: Vec<u8>,
    /// The literals `values` decided, in order (their negations with them).
    assigned: Vec<u32>,
    /// By literal, the stamp of the last clause added that holds it (see [`ClauseDb::add`]).
    marks: Vec<u32>,
    stamp: u32,
    /// Scratch: the literals one entry made false.
    made_false: Vec<Lit>,
    /// Slots of dropped clauses, for the next clauses learned.
    free_slots: Vec<u32>,
    /// Conflicts since the last reduction, and how many the current interval has.
    conflicts: u64,
    interval: u64,
    /// What using a clause adds to its activity now.
    bump: f32,
}

impl ClauseDb {
    /// An empty database over `model`'s variables.
    pub(super) fn new(model: &Model) -> Self {
        ClauseDb {
            literals: Literals::new(model),
            clauses: Vec::new(),
            watches: Vec::new(),
            queue_head: 0,
            seen: Vec::new(),
            undo: Vec::new(),
            values: Vec::new(),
            assigned: Vec::new(),
            marks: Vec::new(),
            stamp: 0,
            made_false: Vec::new(),
            free_slots: Vec::new(),
            conflicts: 0,
            interval: REDUCE_FIRST,
            bump: 1.0,
        }
    }

    /// The search starts, its change log empty: every variable's bounds now are what the log's
    /// first entries change.
    pub(super) fn start(&mut self, store: &Store) {
        self.seen = (0..store.num_vars())
            .map(|i| {
                let var = VarId::from_index(i);
                (store.lb(var), store.ub(var))
            })
            .collect();
        self.undo.clear();
        self.queue_head = 0;
    }

    /// Whether the initial domains decide `literal`: `Some(true)` if it always holds,
    /// `Some(false)` if it never does.
    pub(super) fn constant(&mut self, literal: Literal) -> Option<bool> {
        match self.literals.canonical(literal) {
            Canonical::True => Some(true),
            Canonical::False => Some(false),
            Canonical::Lit(_) => None,
        }
    }

    /// The literals of clause `id`, as statements about their variables.
    pub(super) fn literals(&self, id: u32) -> impl Iterator<Item = Literal> + '_ {
        self.clauses[id as usize]
            .lits
            .iter()
            .map(|&lit| self.literals.literal(lit))
    }

    /// Visits the watches of every change not visited yet, and of the changes that makes, until
    /// none is left; names the clause found false, if one is.
    pub(super) fn propagate(&mut self, store: &mut Store) -> Result<(), u32> {
        while self.queue_head < store.change_log().len() {
            let entry = store.change_log()[self.queue_head];
            self.queue_head += 1;
            let literal = entry.literal;
            let var = literal.var;
            let old = self.seen[var.index()];
            self.undo
                .push((var.index() as u32, old.0, old.1, self.assigned.len() as u32));
            let v = literal.value;
            let new = match literal.relation {
                LiteralRelation::Ge => (v, old.1),
                LiteralRelation::Le => (old.0, v),
                LiteralRelation::Eq => (v, v),
                LiteralRelation::Ne => old,
            };
            self.seen[var.index()] = new;
            let mut made_false = std::mem::take(&mut self.made_false);
            made_false.clear();
            if literal.relation == LiteralRelation::Ne {
                self.literals.on_removal(var, v, |lit| made_false.push(lit));
            } else {
                self.literals
                    .on_bounds(var, old, new, |lit| made_false.push(lit));
            }
            for &lit in &made_false {
                if self.values[lit.index()] == UNKNOWN {
                    self.values[lit.index()] = FALSE;
                    self.values[lit.negate().index()] = TRUE;
                    self.assigned.push(lit.index() as u32);
                }
            }
            let mut result = Ok(());
            for &lit in &made_false {
                result = self.visit(lit, store);
                if result.is_err() {
                    break;
                }
            }
            self.made_false = made_false;
            result?;
        }
        Ok(())
    }

    /// The log has been cut back to `len` entries by an undo: the bounds seen go back with it.
    pub(super) fn backjump(&mut self, len: usize) {
        while self.undo.len() > len {
            let (var, lo, hi, assigned) = self.undo.pop().expect("longer than len");
            self.seen[var as usize] = (lo, hi);
            for lit in self.assigned.drain(assigned as usize..) {
                self.values[lit as usize] = UNKNOWN;
                self.values[lit as usize ^ 1] = UNKNOWN;
            }
        }
        self.queue_head = self.queue_head.min(len);
    }

    /// Visits the clauses watching `false_lit`, which just became false: each watches another
    /// literal that is not false, or propagates its other watched literal, or fails.
    fn visit(&mut self, false_lit: Lit, store: &mut Store) -> Result<(), u32> {
        let Some(list) = self.watches.get_mut(false_lit.index()) else {
            return Ok(());
        };
        if list.is_empty() {
            return Ok(());
        }
        let mut list = std::mem::take(list);
        let mut kept = 0;
        let mut result = Ok(());
        for i in 0..list.len() {
            let mut watch = list[i];
            // Most watches find their blocker true: kept as they are, without a write while none
            // before them went.
            if result.is_err() || self.values[watch.blocker.index()] == TRUE {
                if kept != i {
                    list[kept] = watch;
                }
                kept += 1;
                continue;
            }
            let keep = match self.visit_clause(&mut watch, false_lit, store) {
                Ok(keep) => keep,
                Err(conflict) => {
                    result = Err(conflict);
                    true
                }
            };
            if keep {
                list[kept] = watch;
                kept += 1;
            }
        }
        list.truncate(kept);
        // A clause that moved its watch to another literal was pushed to that literal's list,
        // never to this one (its new watch is not false); this list was emptied meanwhile, and is
        // put back.
        debug_assert!(self.watches[false_lit.index()].is_empty());
        self.watches[false_lit.index()] = list;
        result
    }

    /// One watch of `false_lit`: returns whether it stays (its blocker perhaps updated), after
    /// moving the clause's watch, propagating its last open literal, or finding it false.
    #[inline]
    fn visit_clause(
        &mut self,
        watch: &mut Watch,
        false_lit: Lit,
        store: &mut Store,
    ) -> Result<bool, u32> {
        let blocker = self.status(watch.blocker, store);
        if blocker == Some(true) {
            return Ok(true);
        }
        let id = watch.id();
        if watch.binary() {
            if blocker == Some(false) {
                return Err(id);
            }
            self.imply(store, watch.blocker, id)?;
            return Ok(true);
        }
        let lits = &mut self.clauses[id as usize].lits;
        if lits.len() < 2 || (lits[0] != false_lit && lits[1] != false_lit) {
            // A dropped clause, or a stale watch: the clause watches elsewhere now.
            return Ok(false);
        }
        if lits[0] == false_lit {
            lits.swap(0, 1);
        }
        let first = lits[0];
        watch.blocker = first;
        let first_status = if first == false_lit {
            Some(false)
        } else {
            self.status(first, store)
        };
        if first_status == Some(true) {
            return Ok(true);
        }
        // A literal that is not false to watch instead.
        let (values, literals) = (&self.values, &self.literals);
        let status = |lit: Lit| match values[lit.index()] {
            TRUE => Some(true),
            FALSE => Some(false),
            _ => literals.status(lit, store),
        };
        let lits = &mut self.clauses[id as usize].lits;
        if let Some(k) = (2..lits.len()).find(|&k| status(lits[k]) != Some(false)) {
            lits.swap(1, k);
            let new = lits[1];
            self.watch(new, id, first);
            return Ok(false);
        }
        match first_status {
            Some(false) => Err(id),
            _ => {
                self.imply(store, first, id)?;
                Ok(true)
            }
        }
    }

    /// The literal's truth: from `values` when the entries visited decided it, else from the
    /// domains.
    #[inline]
    fn status(&self, lit: Lit, store: &Store) -> Option<bool> {
        match self.values[lit.index()] {
            TRUE => Some(true),
            FALSE => Some(false),
            _ => self.literals.status(lit, store),
        }
    }

    /// Makes `lit` true, by clause `id`; the clause fails if the store refuses.
    #[inline]
    fn imply(&self, store: &mut Store, lit: Lit, id: u32) -> Result<(), u32> {
        store.set_cause(Cause::Clause(id));
        let made = store.make_true(self.literals.literal(lit));
        store.set_cause(Cause::Decision);
        made.map(drop).map_err(|_| id)
    }

    /// Adds a watch of `lit` on clause `id` with `blocker`; `clause` carries [`BINARY`] for a
    /// clause of two literals.
    fn watch(&mut self, lit: Lit, clause: u32, blocker: Lit) {
        self.watches[lit.index()].push(Watch { clause, blocker });
    }

    /// Stores a clause (in a dropped clause's slot if there is one), watches two of its literals,
    /// and makes its first literal true, which must be open with every other literal false (the
    /// clause asserts it). A learned clause has its literal block distance `lbd`; a blocking
    /// clause, which must stay, has none. A literal the initial domains decide is left out, or,
    /// true, leaves the clause out; a unit clause is not stored.
    pub(super) fn add(&mut self, store: &mut Store, literals: &[Literal], lbd: Option<u32>) {
        let mut lits = Vec::with_capacity(literals.len());
        for &literal in literals {
            match self.literals.canonical(literal) {
                Canonical::True => lits.push(None),
                Canonical::False => {}
                Canonical::Lit(lit) => lits.push(Some(lit)),
            }
        }
        // Tables indexed by literal grow with the literals made.
        self.watches.resize(self.literals.len(), Vec::new());
        self.values.resize(self.literals.len(), UNKNOWN);
        self.marks.resize(self.literals.len(), 0);
        // Whether the clause always holds (a literal that is always true, or a literal and its
        // negation): nothing to keep, nothing to assert. Repeated literals go, the first of each
        // staying in place. A generation stamp marks the literals seen, so that a long clause
        // (hundreds of literals on black-hole) costs a pass, not a pass per literal.
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            self.marks.fill(0);
            self.stamp = 1;
        }
        let mut always = false;
        let mut kept = Vec::with_capacity(lits.len());
        for lit in lits {
            let Some(lit) = lit else {
                always = true;
                break;
            };
            if self.marks[lit.negate().index()] == self.stamp {
                always = true;
                break;
            }
            if self.marks[lit.index()] != self.stamp {
                self.marks[lit.index()] = self.stamp;
                kept.push(lit);
            }
        }
        let lits = kept;
        let Some(&first) = lits.first().filter(|_| !always) else {
            return;
        };
        let id = match lits.len() {
            1 => None,
            _ => Some(self.store(lits, lbd)),
        };
        store.set_cause(id.map_or(Cause::Decision, Cause::Clause));
        // The first literal is open at this level (its negation became true above it), so this
        // cannot fail; should it, the next propagation finds the clause false.
        let _ = store.make_true(self.literals.literal(first));
        store.set_cause(Cause::Decision);
    }

    /// Keeps a clause of two or more literals and watches its first two; returns its number.
    fn store(&mut self, lits: Vec<Lit>, lbd: Option<u32>) -> u32 {
        let (a, b) = (lits[0], lits[1]);
        let binary = lits.len() == 2;
        let clause = Clause {
            tier: Tier::of(lits.len(), lbd),
            lits,
            lbd,
            used: false,
            activity: self.bump,
        };
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
        let tagged = if binary { id | BINARY } else { id };
        self.watch(a, tagged, b);
        self.watch(b, tagged, a);
        id
    }

    /// Conflict analysis used clause `id`, whose literals span `lbd` decision levels now: its
    /// activity rises, and a lower distance than it had promotes it.
    pub(super) fn used(&mut self, id: u32, lbd: u32) {
        let clause = &mut self.clauses[id as usize];
        clause.used = true;
        clause.activity += self.bump;
        if clause.activity > 1e20 {
            for clause in &mut self.clauses {
                clause.activity *= 1e-20;
            }
            self.bump *= 1e-20;
        }
        let clause = &mut self.clauses[id as usize];
        if let Some(old) = clause.lbd
            && lbd < old
        {
            clause.lbd = Some(lbd);
            let tier = Tier::of(clause.lits.len(), clause.lbd);
            if tier != clause.tier && (clause.tier == Tier::Local || tier == Tier::Core) {
                clause.tier = tier;
            }
        }
    }

    /// After each conflict: ages the activities and, once per reduction interval, reduces the
    /// database (see the module's documentation). The clauses that are the reasons of changes on
    /// the current path (`log` from `root_end` on) stay whatever their tier.
    pub(super) fn after_conflict(&mut self, log: &[LogEntry], root_end: usize) {
        self.bump /= CLAUSE_DECAY;
        self.conflicts += 1;
        if self.conflicts < self.interval {
            return;
        }
        self.conflicts = 0;
        self.interval += REDUCE_STEP;
        let mut locked = vec![false; self.clauses.len()];
        for entry in &log[root_end..] {
            if let Cause::Clause(id) = entry.cause {
                locked[id as usize] = true;
            }
        }
        let mut local = Vec::new();
        for (id, clause) in self.clauses.iter_mut().enumerate() {
            if clause.lits.is_empty() {
                continue;
            }
            if clause.tier == Tier::Middle && !clause.used {
                clause.tier = Tier::Local;
            }
            clause.used = false;
            if clause.tier == Tier::Local && !locked[id] {
                local.push((clause.activity, id as u32));
            }
        }
        // The less active half of the local tier goes.
        local.sort_unstable_by(|a, b| a.0.total_cmp(&b.0));
        let dropped = &local[..local.len() / 2];
        if dropped.is_empty() {
            return;
        }
        for &(_, id) in dropped {
            let clause = &mut self.clauses[id as usize];
            clause.lits = Vec::new();
            clause.lbd = None;
            self.free_slots.push(id);
        }
        let clauses = &self.clauses;
        for list in &mut self.watches {
            list.retain(|watch| watch.binary() || !clauses[watch.id() as usize].lits.is_empty());
        }
    }
}
