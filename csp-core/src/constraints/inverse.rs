use crate::{
    Constraint, PropagationCtx, VarId, Wipeout, constraint::Priority, constraints::util::Args,
};

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
#[derive(Debug, Clone)]
pub struct Inverse {
    /// `[f₀, …, g₀, …]`.
    args: Args,
    nf: usize,
    ng: usize,
    f_first: i32,
    g_first: i32,
}

impl Inverse {
    /// `f[i] = j ⟺ g[j] = i`, with `f` indexed from `f_first` and `g` from `g_first`.
    pub fn new(f: Vec<VarId>, f_first: i32, g: Vec<VarId>, g_first: i32) -> Self {
        let (nf, ng) = (f.len(), g.len());
        Inverse {
            args: Args::new(f.into_iter().chain(g)),
            nf,
            ng,
            f_first,
            g_first,
        }
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
            let values: Vec<i32> = ctx.domain(var).values().collect();
            for j in values {
                let partner = self.at(!g_side, i64::from(j)).ok_or(Wipeout)?;
                let back = i32::try_from(index).ok();
                if !back.is_some_and(|b| ctx.domain(partner).contains(b)) {
                    changed |= ctx.remove(var, j)?;
                }
            }
        }
        Ok(changed)
    }
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

    /// Each side pruned against the other until neither changes: a removal on one side only ever
    /// removes the mirrored value on the other, so this ends after a few rounds.
    fn revise(&self, ctx: &mut PropagationCtx<'_>) -> Result<(), Wipeout> {
        loop {
            let f_changed = self.channel(ctx, false)?;
            let g_changed = self.channel(ctx, true)?;
            if !f_changed && !g_changed {
                return Ok(());
            }
        }
    }

    fn priority(&self) -> Priority {
        Priority::Medium
    }
}
