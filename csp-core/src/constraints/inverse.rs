use crate::Domains;
use std::cell::RefCell;

use crate::{
    Constraint, Constructor, PostCtx, PropagationCtx, Propagator, Slot, Slots, VarId, Wipeout,
    constraints::{
        set::{ValueSet, push_domains, weakest_bound},
        util::Args,
    },
    revision::Priority,
};

/// The most state cells an [`Inverse`] keeps for its domain copies (one 64-bit word per variable
/// and 64 indices of the other array); a larger one revises from scratch every time.
const SNAPSHOT_BUDGET: usize = 1 << 16;

/// `f[i] = j ⟺ g[j] = i`: FlatZinc's `inverse(f, invf)`, each array indexed from its own first
/// index (MiniZinc's index sets; FlatZinc's arrays start at 1). Every `f[i]` is an index of `g` and
/// every `g[j]` an index of `f`, so the two are inverse permutations (and the arrays must have the
/// same length to be satisfiable).
///
/// Consistency: arc consistency on every channel `f[i] = j ↔ g[j] = i`: `j` stays in `f[i]`'s
/// domain exactly while `i` is in `g[j]`'s, and each variable keeps the indices of the other array
/// only. That includes all-different's value consistency on both arrays (a fixed `f[i] = j` fixes
/// `g[j] = i`, which removes `j` from every other `f[k]`), but not the Hall-set reasoning of a
/// matching. The same variable may appear in both arrays (`inverse(f, f)`: an involution).
///
/// The revision is incremental (as Gecode's channel propagators are, from the values each variable
/// lost): the state cells keep a copy of every domain as the last revision left it, as bit words over
/// the other array's indices. That state was arc consistent, so a channel can only have broken where
/// a value was lost since: the revision reads each variable's lost values from its copy and removes
/// their mirrors, in the order (`f` by index, then `g`, values ascending) of the full pass it
/// replaces, so the domains change in the same order. The first revision, arrays that share a
/// variable, and arrays whose copies would take more than 2¹⁶ state cells run the full pass instead.
#[derive(Debug, Clone)]
pub struct Inverse {
    /// `[f₀, …, g₀, …]`.
    args: Args,
    nf: usize,
    ng: usize,
    f_first: i32,
    g_first: i32,
    /// The domain copies' words per variable of `f` (over `g`'s indices) and of `g`, when the
    /// revision is incremental.
    words: Option<(usize, usize)>,
    /// Whether the copies describe an arc-consistent state of the domains ...
    initialised: Slot<bool>,
    /// ... the copies of `f`'s variables' words and of `g`'s (empty without the incremental
    /// revision).
    copies: [Slots<i64>; 2],
}

thread_local! {
    /// The words an incremental revision reads and builds, kept between revisions so that none
    /// allocates.
    static SCRATCH: RefCell<Scratch> = RefCell::new(Scratch::default());
}

impl Inverse {
    /// `f[i] = j ⟺ g[j] = i`, with `f` indexed from `f_first` and `g` from `g_first`.
    pub fn new(f: Vec<VarId>, f_first: i32, g: Vec<VarId>, g_first: i32) -> Constructor<Self> {
        let (nf, ng) = (f.len(), g.len());
        let args = Args::new(f.into_iter().chain(g));
        // Shared variables change both sides at once: the full pass handles them.
        let distinct = args.scope.len() == nf + ng;
        let (f_words, g_words) = (ng.div_ceil(64), nf.div_ceil(64));
        let cells = nf * f_words + ng * g_words;
        // Each copy's words stand for indices up to `first + 64 · words`, which must be an `i32`.
        let fits =
            |first: i32, words: usize| i64::from(first) + 64 * words as i64 <= i64::from(i32::MAX);
        let incremental = distinct
            && cells <= SNAPSHOT_BUDGET
            && fits(g_first, f_words)
            && fits(f_first, g_words);
        Constructor::new(move |state: &mut PostCtx| {
            let initialised = state.slot();
            let copies = if incremental {
                [state.slots(nf * f_words), state.slots(ng * g_words)]
            } else {
                [state.slots(0), state.slots(0)]
            };
            Ok(Inverse {
                args,
                nf,
                ng,
                f_first,
                g_first,
                words: incremental.then_some((f_words, g_words)),
                initialised,
                copies,
            })
        })
    }

    /// The variable at index `index` of `f` (`side` false) or `g` (`side` true), if there is one.
    fn at(&self, g_side: bool, index: i64) -> Option<VarId> {
        let (first, len, offset) = if g_side {
            (self.g_first, self.ng, self.nf)
        } else {
            (self.f_first, self.nf, 0)
        };
        let k = usize::try_from(index - i64::from(first)).ok()?;
        (k < len).then(|| self.args.var(offset + k))
    }

    /// One side's channel pruning: each value `j` of `side[i]` needs `i` in `other[j]`.
    fn channel(&self, ctx: &mut PropagationCtx<'_>, g_side: bool) -> Result<bool, Wipeout> {
        let (first, len, other_first, other_len, offset) = if g_side {
            (self.g_first, self.ng, self.f_first, self.nf, self.nf)
        } else {
            (self.f_first, self.nf, self.g_first, self.ng, 0)
        };
        let mut changed = false;
        for k in 0..len {
            let var = self.args.var(offset + k);
            let index = i64::from(first) + k as i64;
            let lo = i64::from(other_first);
            changed |= ctx.store.set_bounds(var, lo, lo + other_len as i64 - 1)?;
            let back = i32::try_from(index).ok();
            // Ascending, from the value after the last one looked at: removing values ahead of
            // the walk never happens (only `j` itself goes), so no list of the values is needed.
            let mut next = ctx.domain(var).min();
            while let Some(j) = next {
                let partner = self.at(!g_side, i64::from(j)).ok_or(Wipeout)?;
                if !back.is_some_and(|b| ctx.domain(partner).contains(b)) {
                    changed |= ctx.remove(var, j)?;
                }
                next = ctx.domain(var).next_value(j);
            }
        }
        Ok(changed)
    }

    /// The full pass: each side pruned against the other until neither changes (a removal on one
    /// side only ever removes the mirrored value on the other, so this ends after a few rounds).
    fn revise_from_scratch(&self, ctx: &mut PropagationCtx<'_>) -> Result<(), Wipeout> {
        loop {
            let f_changed = self.channel(ctx, false)?;
            let g_changed = self.channel(ctx, true)?;
            if !f_changed && !g_changed {
                return Ok(());
            }
        }
    }

    /// The two sides as the incremental revision sees them, `f` first (only when the arrays
    /// share no variable, so that `f` is the scope's first `nf` variables and `g` the rest).
    fn sides(&self, words: (usize, usize)) -> [Side<'_>; 2] {
        let (f, g) = self.args.scope.split_at(self.nf);
        [
            Side {
                vars: f,
                base: self.g_first,
                words: words.0,
                copies: self.copies[0],
            },
            Side {
                vars: g,
                base: self.f_first,
                words: words.1,
                copies: self.copies[1],
            },
        ]
    }

    /// Records every variable's domain as its copy.
    fn save_copies(&self, ctx: &mut PropagationCtx<'_>, words: (usize, usize)) {
        let mut now = Vec::new();
        for side in self.sides(words) {
            side.read(ctx, &mut now);
            for (k, &word) in now.iter().enumerate() {
                ctx.set(side.copies.at(k), word as i64);
            }
        }
    }

    /// The incremental revision: `f` pruned from `g`'s losses, then `g` from `f`'s (those before
    /// the revision and those it just made), then the copies brought up to date. With the copies arc
    /// consistent this removes exactly what the full pass removes, in the same order, and one round
    /// reaches the fixpoint: `g`'s pruning only takes indices whose mirrors `f` lost already. Each
    /// domain is read once: `g` does not change while `f` is pruned, nor `f` while `g` is.
    fn revise_incremental(
        &self,
        ctx: &mut PropagationCtx<'_>,
        words: (usize, usize),
    ) -> Result<(), Wipeout> {
        let [f, g] = self.sides(words);
        SCRATCH.with(|scratch| {
            let mut own = Scratch::default();
            let mut borrowed = scratch.try_borrow_mut();
            let scratch = match borrowed.as_deref_mut() {
                Ok(scratch) => scratch,
                Err(_) => &mut own,
            };
            let Scratch {
                f: f_now,
                g: g_now,
                removed,
            } = scratch;
            g.read(ctx, g_now);
            f.prune_from_losses(ctx, &g, g_now, removed)?;
            f.read(ctx, f_now);
            g.prune_from_losses(ctx, &f, f_now, removed)?;
            // The copies: `f` as read, `g` as read less what was just removed from it.
            for (k, &word) in f_now.iter().enumerate() {
                ctx.set(f.copies.at(k), word as i64);
            }
            for (k, (&word, &gone)) in g_now.iter().zip(removed.iter()).enumerate() {
                ctx.set(g.copies.at(k), (word & !gone) as i64);
            }
            Ok(())
        })
    }
}

/// One array of an [`Inverse`] for the incremental revision: its variables, each with a copy of
/// `words` words in the state slots `copies`, bit `b` of word `w` standing for the other array's
/// index `base + 64w + b`.
struct Side<'a> {
    vars: &'a [VarId],
    base: i32,
    words: usize,
    copies: Slots<i64>,
}

impl Side<'_> {
    /// Every variable's domain as its copy's words, into `out` (one run of words per variable).
    fn read(&self, ctx: &PropagationCtx<'_>, out: &mut Vec<u64>) {
        out.clear();
        out.resize(self.vars.len() * self.words, 0);
        for (words, &var) in out.chunks_exact_mut(self.words).zip(self.vars) {
            let domain = ctx.domain(var);
            // Indices past the other array's end are never in a domain after the first revision,
            // and `new` checked that `base + 64w` stays within i32.
            for (w, word) in words.iter_mut().enumerate() {
                *word = domain.window64(self.base + 64 * w as i32);
            }
        }
    }

    /// This side's pruning from the other side's lost values: index `i` lost from the other
    /// side's `j` (its copy has it, its domain `now` does not) removes `j` from this side's `i`.
    /// The removals are made by index, values ascending, and recorded in `removed` (one run of
    /// words per variable of this side).
    fn prune_from_losses(
        &self,
        ctx: &mut PropagationCtx<'_>,
        other: &Side<'_>,
        now: &[u64],
        removed: &mut Vec<u64>,
    ) -> Result<(), Wipeout> {
        removed.clear();
        removed.resize(self.vars.len() * self.words, 0);
        let copies = &ctx.run(other.copies)[..now.len()];
        let mut any = false;
        for (k, (&copy, &word)) in copies.iter().zip(now).enumerate() {
            let mut lost = copy as u64 & !word;
            if lost == 0 {
                continue;
            }
            let (j, w) = (k / other.words, k % other.words);
            any = true;
            while lost != 0 {
                // The other side's `j` lost index `i`: this side's `i` loses value `j`.
                let i = 64 * w + lost.trailing_zeros() as usize;
                lost &= lost - 1;
                removed[i * self.words + j / 64] |= 1 << (j % 64);
            }
        }
        if !any {
            return Ok(());
        }
        for (k, &gone) in removed.iter().enumerate() {
            let mut gone = gone;
            let (var, w) = (self.vars[k / self.words], k % self.words);
            while gone != 0 {
                let j = 64 * w + gone.trailing_zeros() as usize;
                gone &= gone - 1;
                ctx.remove(var, self.base + j as i32)?;
            }
        }
        Ok(())
    }
}

/// What an incremental revision builds: the domains of `f` and of `g` as words, and the values
/// removed from one side.
#[derive(Debug, Default)]
struct Scratch {
    f: Vec<u64>,
    g: Vec<u64>,
    removed: Vec<u64>,
}

impl Constraint for Inverse {
    fn scope(&self) -> &[VarId] {
        &self.args.scope
    }

    fn is_satisfied(&self, values: &[i32]) -> bool {
        let holds = |g_side: bool| {
            let (first, len, offset) = if g_side {
                (self.g_first, self.ng, self.nf)
            } else {
                (self.f_first, self.nf, 0)
            };
            (0..len).all(|k| {
                let value = self.args.value(values, offset + k);
                let index = i64::from(first) + k as i64;
                let (other_first, other_len, other_offset) = if g_side {
                    (self.f_first, self.nf, 0)
                } else {
                    (self.g_first, self.ng, self.nf)
                };
                usize::try_from(i64::from(value) - i64::from(other_first))
                    .ok()
                    .filter(|&m| m < other_len)
                    .is_some_and(|m| i64::from(self.args.value(values, other_offset + m)) == index)
            })
        };
        holds(false) && holds(true)
    }
}

impl Propagator for Inverse {
    /// A channel's removal `f[i] ≠ j` rests on its mirror `g[j] ≠ i` (and the other way round),
    /// or on nothing when `j` is no index of the other array; a bound that keeps a variable among
    /// the other array's indices rests on nothing but the constraint (the learner cites the
    /// removals it passed). A variable in both arrays is explained through whichever of its
    /// channels made the change.
    fn explain(
        &self,
        literal: crate::Literal,
        ctx: &crate::ExplainCtx<'_>,
        reasons: &mut Vec<crate::Literal>,
    ) -> bool {
        use crate::{Literal, LiteralRelation};
        let x = literal.var;
        // Each appearance of the variable: its side, its index, and the other side's indices.
        let appearances: Vec<(bool, i64, i64, i64)> = (0..self.nf + self.ng)
            .filter(|&k| self.args.var(k) == x)
            .map(|k| {
                if k < self.nf {
                    let index = i64::from(self.f_first) + k as i64;
                    (false, index, i64::from(self.g_first), self.ng as i64)
                } else {
                    let index = i64::from(self.g_first) + (k - self.nf) as i64;
                    (true, index, i64::from(self.f_first), self.nf as i64)
                }
            })
            .collect();
        let value = i64::from(literal.value);
        let lower = i64::from(weakest_bound(Literal::ge(x, literal.value), ctx));
        let upper = i64::from(weakest_bound(Literal::le(x, literal.value), ctx));
        let explained = match literal.relation {
            LiteralRelation::Ne => appearances.iter().any(|&(g_side, index, first, len)| {
                if value < first || value >= first + len {
                    return true;
                }
                match (self.at(!g_side, value), i32::try_from(index)) {
                    (Some(partner), Ok(back)) if !ctx.contains(partner, back) => {
                        reasons.push(Literal::ne(partner, back));
                        true
                    }
                    _ => false,
                }
            }),
            LiteralRelation::Ge => appearances.iter().any(|&(_, _, first, _)| lower <= first),
            LiteralRelation::Le => appearances
                .iter()
                .any(|&(_, _, first, len)| upper >= first + len - 1),
            LiteralRelation::Eq => {
                appearances.iter().any(|&(_, _, first, _)| lower <= first)
                    && appearances
                        .iter()
                        .any(|&(_, _, first, len)| upper >= first + len - 1)
            }
        };
        if explained {
            return true;
        }
        // Not one channel's inference alone (a variable in both arrays, whose channels may read
        // its own domain): the scope's domains.
        push_domains(&self.args.scope, ctx, reasons)
    }

    /// A variable with no value among the other array's indices, else the scope's domains.
    fn explain_failure(
        &self,
        ctx: &crate::ExplainCtx<'_>,
        reasons: &mut Vec<crate::Literal>,
    ) -> bool {
        for k in 0..self.nf + self.ng {
            let x = self.args.var(k);
            let (first, len) = if k < self.nf {
                (self.g_first, self.ng)
            } else {
                (self.f_first, self.nf)
            };
            let Ok(len) = i32::try_from(len) else {
                continue;
            };
            let indices = ValueSet::from_ranges([(first, first.saturating_add(len - 1))]);
            let (lo, hi) = ctx.bounds(x);
            let any = (lo.max(first)..=hi.min(first.saturating_add(len - 1)))
                .any(|w| ctx.contains_within(x, w, (lo, hi)));
            if !any && indices.explain_no_value(x, false, ctx, reasons) {
                return true;
            }
        }
        push_domains(&self.args.scope, ctx, reasons)
    }

    /// The full pass the first time (and always for shared variables or huge arrays); afterwards
    /// only the channels of the values lost since the last revision.
    fn revise(&self, ctx: &mut PropagationCtx<'_>) -> Result<(), Wipeout> {
        let Some(words) = self.words else {
            return self.revise_from_scratch(ctx);
        };
        if !ctx.get(self.initialised) {
            self.revise_from_scratch(ctx)?;
            self.save_copies(ctx, words);
            ctx.set(self.initialised, true);
            return Ok(());
        }
        self.revise_incremental(ctx, words)?;
        // The full pass must find nothing left to do (it would record any change on the trail).
        debug_assert!(
            {
                let before = ctx.store.checkpoint();
                self.revise_from_scratch(ctx).is_ok() && ctx.store.checkpoint() == before
            },
            "the incremental revision of {self:?} missed a removal"
        );
        Ok(())
    }

    fn priority(&self) -> Priority {
        Priority::Medium
    }
}

#[cfg(test)]
mod tests {
    use rand::RngExt;

    use super::*;
    use crate::{ModelBuilder, Store, rng_for};

    /// The same constraint, revised by the full pass every time.
    fn full_pass(f: Vec<VarId>, f_first: i32, g: Vec<VarId>, g_first: i32) -> Constructor<Inverse> {
        let incremental = Inverse::new(f, f_first, g, g_first);
        Constructor::new(move |ctx| {
            Ok(Inverse {
                words: None,
                ..incremental.build(ctx)?
            })
        })
    }

    /// On random walks of removals, bound changes and undos over arrays of 1 to 140 variables
    /// (one to three words a copy), the incremental revision leaves every domain as the full pass
    /// does, and fails exactly when it fails.
    #[test]
    fn incremental_revision_matches_the_full_pass() {
        let mut rng = rng_for(7, 0);
        for round in 0..21 {
            let n = [1, 2, 5, 63, 64, 65, 140][round % 7];
            let (f_first, g_first) = (rng.random_range(0..2), rng.random_range(-1..2));
            let build = |incremental: bool| {
                let mut builder = ModelBuilder::new();
                let mut side = |name: &str, first: i32| -> Vec<VarId> {
                    (0..n)
                        .map(|k| {
                            // One value either side of the index range, which the first revision
                            // takes away.
                            builder
                                .int_var(format!("{name}{k}"), first - 1..=first + n as i32)
                                .unwrap()
                        })
                        .collect()
                };
                let f = side("f", g_first);
                let g = side("g", f_first);
                if incremental {
                    builder.post(Inverse::new(f, f_first, g, g_first)).unwrap();
                } else {
                    builder.post(full_pass(f, f_first, g, g_first)).unwrap();
                }
                builder.build()
            };
            let models = [build(true), build(false)];
            assert!(
                models[0]
                    .constraint_ids()
                    .all(|c| { format!("{:?}", models[0].constraint(c)).contains("words: Some") })
            );
            let mut stores = models.each_ref().map(Store::new);
            let roots = [0, 1].map(|s| stores[s].establish_arc_consistency(&models[s]));
            assert_eq!(roots[0].is_ok(), roots[1].is_ok());
            if roots[0].is_err() {
                continue;
            }
            // The two stores' trails differ (one keeps copies in cells): a mark for each.
            let mut marks = vec![[0, 1].map(|s| stores[s].checkpoint())];
            for _ in 0..(3 * n).min(120) {
                let var = VarId::from_index(rng.random_range(0..2 * n));
                let values: Vec<i32> = stores[0].domain(var).values().collect();
                if values.len() < 2 {
                    continue;
                }
                let value = values[rng.random_range(0..values.len())];
                let kind = rng.random_range(0..4);
                let results = [0, 1].map(|s| {
                    let store = &mut stores[s];
                    let changed = match kind {
                        0 => store.set_bounds(var, i64::from(value), i64::from(value)),
                        1 => store.set_bounds(var, i64::MIN, i64::from(value)),
                        _ => store.remove_value(var, value),
                    };
                    changed
                        .map_err(|_| ())
                        .and_then(|_| store.propagate(&models[s]).map_err(|_| ()))
                });
                assert_eq!(results[0], results[1], "n = {n}: one failed alone");
                for k in 0..2 * n {
                    let var = VarId::from_index(k);
                    assert_eq!(
                        stores[0].domain(var),
                        stores[1].domain(var),
                        "n = {n}, {var:?}"
                    );
                }
                if results[0].is_err() || rng.random_range(0..4) == 0 {
                    let back = rng.random_range(0..marks.len());
                    marks.truncate(back + 1);
                    for s in 0..2 {
                        stores[s].undo_to(&models[s], marks[back][s]);
                    }
                } else {
                    marks.push([0, 1].map(|s| stores[s].checkpoint()));
                }
            }
        }
    }
}
