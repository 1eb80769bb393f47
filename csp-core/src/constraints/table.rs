use crate::Domains;
use std::cell::RefCell;

use crate::{
    CheckCtx, Constraint, Constructor, ModelError, PostCtx, PropagationCtx, Propagator, Slot,
    Slots, VarId, Wipeout,
    constraints::util::{Args, retain_values},
    revision::Priority,
};

/// How a [`Table`] revises.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum TableAlgorithm {
    /// Compact-table (the default): Demeulenaere, Hartert, Lecoutre, Perez, Perron, Régin & Schaus,
    /// *Compact-Table: Efficiently Filtering Table Constraints with Reversible Sparse Bit-Sets*,
    /// CP 2016.
    #[default]
    CompactTable,
    /// The generic support check: for every value, a scan of the tuples for a live one. Kept as the
    /// baseline that compact-table is measured against.
    Scan,
}

/// The most words of support bits compact-table keeps (2²⁴ words, 128 MiB); a larger table (many
/// tuples and many distinct values at once) revises by [`TableAlgorithm::Scan`] instead.
const SUPPORT_WORDS_BUDGET: usize = 1 << 24;

/// An extensional constraint: the scope's values must form one of the allowed tuples (FlatZinc's
/// `table_int` and `table_bool`).
///
/// Consistency: generalised arc consistency, by either [algorithm](TableAlgorithm). Forward checking
/// ([`Propagator::forward_check`]) keeps, for every unassigned variable, the values that appear in an
/// allowed tuple agreeing with the assigned variables and the current domains.
///
/// Compact-table keeps the set of live tuples (those whose every value is still in its domain) as a
/// reversible sparse bit set in trailed state cells: the words, a permutation of their indices whose
/// first `limit` entries are the non-zero words, and `limit` itself. Each revision first removes the
/// tuples of the values each changed variable lost since the last revision (or keeps those of its
/// remaining values, whichever list is shorter), word by word against precomputed support bit sets
/// per (variable, value), then checks each value of each variable for a live supporting tuple,
/// starting from the word that supported it last time (its residue). A variable changed alone since
/// the last revision keeps all its values, and is not checked.
#[derive(Debug, Clone)]
pub struct Table {
    /// Each variable once; a variable the caller named twice keeps only the tuples that agree on it.
    scope: Vec<VarId>,
    /// The tuples, row after row, `scope.len()` values each.
    tuples: Vec<i32>,
    algorithm: TableAlgorithm,
    compact: Option<Compact>,
}

/// What compact-table precomputes, and its trailed state.
#[derive(Debug, Clone)]
struct Compact {
    /// How many tuples there are.
    tuples: usize,
    /// Words of the tuple bit sets: `⌈tuples / 64⌉` (at least one).
    words: usize,
    columns: Vec<Column>,
    /// Whether the state describes the domains ...
    initialised: Slot<bool>,
    /// ... how many words are non-zero ...
    limit: Slot<usize>,
    /// ... the live tuples' words ...
    live: Slots<u64>,
    /// ... a permutation of the words' indices whose first `limit` are the non-zero words ...
    index: Slots<usize>,
    /// ... and each variable's domain size at the last revision.
    sizes: Slots<u64>,
}

/// One variable's distinct values in the table, with their support bit sets and their cells.
#[derive(Debug, Clone)]
struct Column {
    /// Sorted.
    values: Vec<i32>,
    /// `supports[k * words..(k + 1) * words]`: the tuples in which the variable takes `values[k]`.
    supports: Vec<u64>,
    /// The values' "present at the last revision" flags, bit `k % 64` of word `k / 64` for
    /// `values[k]` ...
    flags: Slots<u64>,
    /// ... and their residues: the word that last held a supporting tuple, one per value.
    residues: Slots<usize>,
    /// `values[0]`, when the values are consecutive integers: then the flags line up with the
    /// domain's bits, and a word of the domain gives 64 values' presence at once.
    consecutive_from: Option<i32>,
}

impl Column {
    /// How many words the flags take.
    fn flag_words(&self) -> usize {
        self.flags.len()
    }

    /// Which of the values the domain holds, as flag words: bit `k % 64` of word `k / 64` for
    /// `values[k]`. Word by word when the values are consecutive, else one test per value.
    fn present(&self, domain: crate::DomainView<'_>, word: usize) -> u64 {
        let end = self.values.len().min(64 * word + 64);
        match self.consecutive_from {
            // Values past the last one are never in the domain after the first revision, and the
            // mask keeps them out before it.
            Some(first) => {
                domain.window64(first.wrapping_add(64 * word as i32))
                    & (u64::MAX >> (64 - (end - 64 * word)))
            }
            None => self.values[64 * word..end]
                .iter()
                .enumerate()
                .filter(|&(_, &v)| domain.contains(v))
                .fold(0, |bits, (b, _)| bits | 1 << b),
        }
    }
}

impl Compact {
    fn build(state: &mut PostCtx, arity: usize, tuples: &[i32]) -> Option<Self> {
        let count = tuples.len() / arity.max(1);
        let words = count.div_ceil(64).max(1);
        // Each column's distinct values, and the budget checked before any state is laid out.
        let distinct: Vec<Vec<i32>> = (0..arity)
            .map(|p| {
                let mut values: Vec<i32> = tuples.iter().skip(p).step_by(arity).copied().collect();
                values.sort_unstable();
                values.dedup();
                values
            })
            .collect();
        let total_words = distinct.iter().fold(0usize, |total, values| {
            total.saturating_add(values.len().saturating_mul(words))
        });
        if total_words > SUPPORT_WORDS_BUDGET {
            return None;
        }
        let mut columns = Vec::with_capacity(arity);
        let initialised = state.slot();
        let limit = state.slot();
        let live = state.slots(words);
        let index = state.slots(words);
        let sizes = state.slots(arity);
        for (p, values) in distinct.into_iter().enumerate() {
            let mut supports = vec![0u64; values.len() * words];
            for (t, row) in tuples.chunks_exact(arity).enumerate() {
                let k = values
                    .binary_search(&row[p])
                    .expect("a value of the column");
                supports[k * words + t / 64] |= 1 << (t % 64);
            }
            // Consecutive, and not so wide that a word's first value could overflow.
            let consecutive_from = values
                .first()
                .filter(|&&first| {
                    i64::from(values[values.len() - 1]) - i64::from(first)
                        == values.len() as i64 - 1
                        && i64::from(first) + 64 * values.len() as i64 <= i64::from(i32::MAX)
                })
                .copied();
            columns.push(Column {
                flags: state.slots(values.len().div_ceil(64)),
                residues: state.slots(values.len()),
                values,
                supports,
                consecutive_from,
            });
        }
        Some(Compact {
            tuples: count,
            words,
            columns,
            initialised,
            limit,
            live,
            index,
            sizes,
        })
    }

    fn support(&self, p: usize, k: usize) -> &[u64] {
        &self.columns[p].supports[k * self.words..(k + 1) * self.words]
    }
}

impl Table {
    /// `scope` must take one of `tuples`; every tuple must have one value per scope variable. Like
    /// every built-in, the scope names each variable once (posting refuses it otherwise; see
    /// [`Table::merged`] for FlatZinc's arrays, which may repeat one).
    pub fn new(scope: Vec<VarId>, tuples: Vec<Vec<i32>>) -> Result<Constructor<Self>, ModelError> {
        Self::with_algorithm(scope, tuples, TableAlgorithm::CompactTable)
    }

    /// [`Table::new`] revised by the given algorithm.
    pub fn with_algorithm(
        scope: Vec<VarId>,
        tuples: Vec<Vec<i32>>,
        algorithm: TableAlgorithm,
    ) -> Result<Constructor<Self>, ModelError> {
        Self::build(scope, tuples, algorithm, false)
    }

    /// FlatZinc's `table_int(x, t)`, whose `x` may name a variable more than once: only the tuples
    /// that give a repeated variable one value are kept, and the scope names it once.
    pub fn merged(
        scope: Vec<VarId>,
        tuples: Vec<Vec<i32>>,
        algorithm: TableAlgorithm,
    ) -> Result<Constructor<Self>, ModelError> {
        Self::build(scope, tuples, algorithm, true)
    }

    fn build(
        scope: Vec<VarId>,
        tuples: Vec<Vec<i32>>,
        algorithm: TableAlgorithm,
        merge: bool,
    ) -> Result<Constructor<Self>, ModelError> {
        if scope.is_empty() {
            return Err(ModelError::InvalidConstraint {
                constraint: "table".to_owned(),
                reason: "the scope is empty".to_owned(),
            });
        }
        // Without merging, every position is its own slot: a repeated variable stays repeated, and
        // posting refuses the constraint as it refuses any scope naming a variable twice.
        let args = if merge {
            Args::new(scope.iter().copied())
        } else {
            Args {
                scope: scope.clone(),
                slots: (0..scope.len()).collect(),
            }
        };
        let mut flat = Vec::with_capacity(tuples.len() * args.scope.len());
        for tuple in &tuples {
            if tuple.len() != scope.len() {
                return Err(ModelError::ArityMismatch {
                    constraint: format!("table over {scope:?}"),
                    expected: scope.len(),
                    found: tuple.len(),
                });
            }
            // The tuple's value for each distinct variable, if its repeats agree.
            let mut row = vec![None; args.scope.len()];
            let agrees = tuple
                .iter()
                .zip(&args.slots)
                .all(|(&v, &s)| *row[s].get_or_insert(v) == v);
            if agrees {
                flat.extend(
                    row.into_iter()
                        .map(|v| v.expect("every variable has a slot")),
                );
            }
        }
        // The support bit sets are built when the constraint is posted, with its state.
        Ok(Constructor::new(move |ctx: &mut PostCtx| {
            let compact = match algorithm {
                TableAlgorithm::CompactTable => Compact::build(ctx, args.scope.len(), &flat),
                TableAlgorithm::Scan => None,
            };
            Ok(Table {
                scope: args.scope,
                tuples: flat,
                algorithm: if compact.is_some() {
                    algorithm
                } else {
                    TableAlgorithm::Scan
                },
                compact,
            })
        }))
    }

    /// The algorithm the revision uses (compact-table falls back to the scan for tables whose
    /// support bit sets would exceed 128 MiB).
    pub fn algorithm(&self) -> TableAlgorithm {
        self.algorithm
    }

    /// Pushes, for each of the tuples `killed` (indices), a literal that held and rules it out:
    /// one of its values `w` (at a position other than `skip`) missing from the domain of its
    /// variable `y`, as `y ≠ w`, or as `y`'s bound when `w` lies beyond it (one bound then
    /// serves every tuple past it). A literal that rules out many of them is preferred (a greedy
    /// cover: each tuple takes, of its killing literals, the one most tuples share, unless a
    /// chosen one rules it out already), so the explanation stays short. Returns false if some
    /// tuple has no value missing.
    fn kill_tuples(
        &self,
        killed: &[usize],
        skip: Option<usize>,
        ctx: &crate::ExplainCtx<'_>,
        bounds: &[(i32, i32)],
        reasons: &mut Vec<crate::Literal>,
    ) -> bool {
        use crate::Literal;
        use hashbrown::{HashMap, HashSet};
        let arity = self.scope.len();
        let row = |t: usize| &self.tuples[t * arity..(t + 1) * arity];
        let killer = |q: usize, w: i32| -> Option<Literal> {
            let (y, (lo, hi)) = (self.scope[q], bounds[q]);
            if w < lo {
                Some(Literal::ge(y, lo))
            } else if w > hi {
                Some(Literal::le(y, hi))
            } else if !ctx.contains_within(y, w, (lo, hi)) {
                Some(Literal::ne(y, w))
            } else {
                None
            }
        };
        // Each tuple's killing literals, and how many tuples share each.
        let mut missing: Vec<Vec<Literal>> = Vec::with_capacity(killed.len());
        let mut shared: HashMap<Literal, u32> = HashMap::new();
        for &t in killed {
            let gone: Vec<Literal> = row(t)
                .iter()
                .enumerate()
                .filter(|&(q, _)| Some(q) != skip)
                .filter_map(|(q, &w)| killer(q, w))
                .collect();
            if gone.is_empty() {
                return false;
            }
            for &key in &gone {
                *shared.entry(key).or_insert(0) += 1;
            }
            missing.push(gone);
        }
        let mut chosen: HashSet<Literal> = HashSet::new();
        for gone in &missing {
            if gone.iter().any(|key| chosen.contains(key)) {
                continue;
            }
            let best = gone
                .iter()
                .copied()
                .max_by_key(|key| shared[key])
                .expect("a tuple has a killing literal");
            chosen.insert(best);
            reasons.push(best);
        }
        true
    }

    fn rows(&self) -> impl Iterator<Item = &[i32]> {
        self.tuples.chunks_exact(self.scope.len())
    }
}

impl Constraint for Table {
    fn scope(&self) -> &[VarId] {
        &self.scope
    }

    fn is_satisfied(&self, values: &[i32]) -> bool {
        self.rows().any(|row| row == values)
    }
}

impl Propagator for Table {
    /// Every tuple that gave the values the change took away is gone: for each, one of its other
    /// values already missing from its variable (`y ≠ w`), chosen to be shared between as many
    /// tuples as can be (a greedy cover). A bound also rests on the variable's bound
    /// before it, so that the values beyond that bound need no tuple of their own.
    fn explain(
        &self,
        literal: crate::Literal,
        ctx: &crate::ExplainCtx<'_>,
        reasons: &mut Vec<crate::Literal>,
    ) -> bool {
        let x = literal.var;
        let mut at = (0..self.scope.len()).filter(|&q| self.scope[q] == x);
        let (Some(p), None) = (at.next(), at.next()) else {
            return false;
        };
        let bounds: Vec<(i32, i32)> = self.scope.iter().map(|&v| ctx.bounds(v)).collect();
        let present = |q: usize, value: i32| ctx.contains_within(self.scope[q], value, bounds[q]);
        // The tuples that gave `x` a value the change took.
        let mut killed = Vec::new();
        let arity = self.scope.len();
        match &self.compact {
            // The support bit sets list the tuples of each value of `x`.
            Some(compact) => {
                let column = &compact.columns[p];
                for (k, &w) in column.values.iter().enumerate() {
                    if literal.holds_for(w) || !present(p, w) {
                        continue;
                    }
                    for (i, &word) in compact.support(p, k).iter().enumerate() {
                        let mut bits = word;
                        while bits != 0 {
                            killed.push(64 * i + bits.trailing_zeros() as usize);
                            bits &= bits - 1;
                        }
                    }
                }
            }
            None => {
                for t in 0..self.tuples.len() / arity.max(1) {
                    let w = self.tuples[t * arity + p];
                    if !literal.holds_for(w) && present(p, w) {
                        killed.push(t);
                    }
                }
            }
        }
        let start = reasons.len();
        // A tuple still alive means the change did not come from this table's reasoning alone,
        // and the learner falls back to the scope's domains.
        if !self.kill_tuples(&killed, Some(p), ctx, &bounds, reasons) {
            reasons.truncate(start);
            return false;
        }
        ctx.push_own_bounds(literal, reasons);
        true
    }

    /// No tuple is left: each is killed by one of its values missing from its variable.
    fn explain_failure(
        &self,
        ctx: &crate::ExplainCtx<'_>,
        reasons: &mut Vec<crate::Literal>,
    ) -> bool {
        let bounds: Vec<(i32, i32)> = self.scope.iter().map(|&v| ctx.bounds(v)).collect();
        let every: Vec<usize> = (0..self.tuples.len() / self.scope.len().max(1)).collect();
        let start = reasons.len();
        if !self.kill_tuples(&every, None, ctx, &bounds, reasons) {
            reasons.truncate(start);
            return false;
        }
        true
    }

    fn revise(&self, ctx: &mut PropagationCtx<'_>) -> Result<(), Wipeout> {
        match &self.compact {
            Some(compact) => COMPACT_SCRATCH.with(|scratch| match scratch.try_borrow_mut() {
                Ok(mut scratch) => compact.revise(&self.scope, ctx, &mut scratch),
                Err(_) => compact.revise(&self.scope, ctx, &mut Vec::new()),
            }),
            None => self.filter(ctx),
        }
    }

    fn priority(&self) -> Priority {
        Priority::Medium
    }

    // Value enumeration.
    /// With at most two variables the check asks whether some tuple agrees with the assigned
    /// partner, which is monotone; with more, a tuple must agree with several variables at once.
    fn check_is_pairwise(&self) -> bool {
        self.scope.len() <= 2
    }

    fn check(&self, var: VarId, value: i32, ctx: &CheckCtx<'_>) -> bool {
        self.rows().any(|row| {
            self.scope.iter().zip(row).all(|(&v, &x)| {
                if v == var {
                    x == value
                } else {
                    ctx.value(v).is_none_or(|assigned| assigned == x)
                }
            })
        })
    }

    /// The scan, which needs no cells: forward checking records no changes for compact-table to
    /// follow, and compact-table notices them by the domains' sizes anyway.
    fn forward_check(&self, _var: VarId, ctx: &mut PropagationCtx<'_>) -> Result<(), Wipeout> {
        self.filter(ctx)
    }
}

thread_local! {
    /// The mask compact-table builds in each revision, kept between revisions.
    static COMPACT_SCRATCH: RefCell<Vec<u64>> = const { RefCell::new(Vec::new()) };
}

impl Compact {
    fn word(&self, ctx: &PropagationCtx<'_>, offset: usize) -> u64 {
        ctx.get(self.live.at(offset))
    }

    fn initialise(&self, scope: &[VarId], ctx: &mut PropagationCtx<'_>) -> Result<(), Wipeout> {
        let tuples = self.tuples;
        for offset in 0..self.words {
            let bits = tuples.saturating_sub(offset * 64).min(64);
            let word = if bits == 64 {
                u64::MAX
            } else {
                (1u64 << bits) - 1
            };
            ctx.set(self.live.at(offset), word);
            ctx.set(self.index.at(offset), offset);
        }
        ctx.set(self.limit, self.words);
        for (p, column) in self.columns.iter().enumerate() {
            // Values outside the table's column have no tuple at all (a table without tuples has
            // no column values, and fails below when its words are all zero).
            if let (Some(&lo), Some(&hi)) = (column.values.first(), column.values.last()) {
                ctx.restrict_bounds(scope[p], i64::from(lo), i64::from(hi))?;
            }
            retain_values(ctx, scope[p], |v| column.values.binary_search(&v).is_ok())?;
            ctx.set(self.sizes.at(p), 0);
            let values = column.values.len();
            for w in 0..column.flag_words() {
                let bits = (values - 64 * w).min(64);
                ctx.set(column.flags.at(w), u64::MAX >> (64 - bits));
            }
            for k in 0..values {
                ctx.set(column.residues.at(k), 0);
            }
        }
        ctx.set(self.initialised, true);
        if tuples == 0 { Err(Wipeout) } else { Ok(()) }
    }

    /// `words &= mask` (or `&= !mask`) over the non-zero words, moving words that become zero past
    /// `limit`. Fails when no word is left.
    fn intersect(
        &self,
        ctx: &mut PropagationCtx<'_>,
        mask: &[u64],
        negate: bool,
    ) -> Result<(), Wipeout> {
        let mut limit = ctx.get(self.limit);
        let mut i = limit;
        while i > 0 {
            i -= 1;
            let offset = ctx.get(self.index.at(i));
            let old = self.word(ctx, offset);
            let keep = if negate { !mask[offset] } else { mask[offset] };
            let new = old & keep;
            if new != old {
                ctx.set(self.live.at(offset), new);
                if new == 0 {
                    // Swap the emptied word's index with the last non-zero one.
                    limit -= 1;
                    let last = ctx.get(self.index.at(limit));
                    ctx.set(self.index.at(i), last);
                    ctx.set(self.index.at(limit), offset);
                }
            }
        }
        ctx.set(self.limit, limit);
        if limit == 0 { Err(Wipeout) } else { Ok(()) }
    }

    fn revise(
        &self,
        scope: &[VarId],
        ctx: &mut PropagationCtx<'_>,
        mask: &mut Vec<u64>,
    ) -> Result<(), Wipeout> {
        let fresh = !ctx.get(self.initialised);
        if fresh {
            self.initialise(scope, ctx)?;
        }
        // updateTable: the tuples of the values each changed variable lost.
        let mut changed = 0usize;
        let mut last_changed = usize::MAX;
        for (p, column) in self.columns.iter().enumerate() {
            let var = scope[p];
            let size = ctx.size(var);
            if size == ctx.get(self.sizes.at(p)) {
                continue;
            }
            changed += 1;
            last_changed = p;
            let (mut removed, mut kept) = (0u32, 0u32);
            for w in 0..column.flag_words() {
                let flags = ctx.get(column.flags.at(w));
                let present = column.present(ctx.domain(var), w);
                removed += (flags & !present).count_ones();
                kept += (flags & present).count_ones();
            }
            if removed == 0 {
                ctx.set(self.sizes.at(p), size);
                continue;
            }
            // Whichever list is shorter builds the mask: the lost values' tuples to clear, or the
            // remaining values' tuples to keep.
            let incremental = removed < kept;
            mask.clear();
            mask.resize(self.words, 0);
            let limit = ctx.get(self.limit);
            for w in 0..column.flag_words() {
                let flags = ctx.get(column.flags.at(w));
                let present = column.present(ctx.domain(var), w);
                ctx.set(column.flags.at(w), flags & present);
                let mut listed = if incremental {
                    flags & !present
                } else {
                    flags & present
                };
                while listed != 0 {
                    let k = 64 * w + listed.trailing_zeros() as usize;
                    listed &= listed - 1;
                    let support = self.support(p, k);
                    for i in 0..limit {
                        let offset = ctx.get(self.index.at(i));
                        mask[offset] |= support[offset];
                    }
                }
            }
            self.intersect(ctx, mask, incremental)?;
            ctx.set(self.sizes.at(p), size);
        }
        // filterDomains: every value keeps a live tuple, or goes.
        for (p, column) in self.columns.iter().enumerate() {
            let var = scope[p];
            if !fresh && changed == 1 && last_changed == p {
                // Its remaining values lost no tuple: only tuples with its lost values went.
                continue;
            }
            let residues = column.residues;
            for w in 0..column.flag_words() {
                let flags = ctx.get(column.flags.at(w));
                let mut unsupported = 0u64;
                let mut listed = flags;
                while listed != 0 {
                    let bit = listed.trailing_zeros();
                    listed &= listed - 1;
                    let k = 64 * w + bit as usize;
                    let support = self.support(p, k);
                    let residue = ctx.get(residues.at(k));
                    if self.word(ctx, residue) & support[residue] != 0 {
                        continue;
                    }
                    let limit = ctx.get(self.limit);
                    let found = (0..limit)
                        .map(|i| ctx.get(self.index.at(i)))
                        .find(|&offset| self.word(ctx, offset) & support[offset] != 0);
                    match found {
                        Some(offset) => ctx.set(residues.at(k), offset),
                        None => {
                            ctx.remove(var, column.values[k])?;
                            unsupported |= 1 << bit;
                        }
                    }
                }
                if unsupported != 0 {
                    ctx.set(column.flags.at(w), flags & !unsupported);
                }
            }
            let size = ctx.size(var);
            ctx.set(self.sizes.at(p), size);
        }
        Ok(())
    }
}

impl Table {
    /// The scan: keeps the values that appear in a live tuple (one agreeing with every assigned
    /// value and current domain); fails when no tuple is live. Removing such values kills no live
    /// tuple, so one pass is a fixpoint.
    fn filter(&self, ctx: &mut PropagationCtx<'_>) -> Result<(), Wipeout> {
        let live = |row: &[i32], ctx: &PropagationCtx<'_>| {
            self.scope
                .iter()
                .zip(row)
                .all(|(&v, &x)| match ctx.value(v) {
                    Some(assigned) => assigned == x,
                    None => ctx.domain(v).contains(x),
                })
        };
        if !self.rows().any(|row| live(row, ctx)) {
            return Err(Wipeout);
        }
        for (position, &v) in self.scope.iter().enumerate() {
            // A domain wider than the table is never listed (the live-tuple test above still fails
            // a violated table once its scope is fixed).
            if ctx.value(v).is_some() || ctx.size(v) > (self.tuples.len() as u64).max(64) {
                continue;
            }
            let candidates: smallvec::SmallVec<[i32; 16]> = ctx.domain(v).values().collect();
            for value in candidates {
                let supported = self
                    .rows()
                    .any(|row| row[position] == value && live(row, ctx));
                if !supported {
                    ctx.remove(v, value)?;
                }
            }
        }
        Ok(())
    }
}
