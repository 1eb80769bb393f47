use crate::{
    Constraint, PropagationCtx, Propagator, VarId, Wipeout, constraints::util::Args,
    revision::Priority,
};

/// `x ≤lex y` or `x <lex y`: FlatZinc's `lex_lesseq_int`, `lex_less_int` and their Boolean twins. The
/// arrays may differ in length, as in MiniZinc: when the shorter is a prefix of the longer, the
/// shorter is the smaller.
///
/// Consistency: generalised arc consistency when the variables are distinct, by the pointers of
/// Frisch, Hnich, Kiziltan, Miguel & Walsh, *Global Constraints for Lexicographic Orderings*, CP
/// 2002: α, the first position whose pair is not fixed equal, and β, the first position from which
/// the rest of `x` is certainly larger than the rest of `y`. Only the pair at α is pruned: to `xα <
/// yα` when β = α + 1, to `xα ≤ yα` otherwise; a failure when β = α. Every value after α is then
/// supported (by `xα < yα`, or the pair at α becomes fixed equal and α moves on). Computed afresh
/// in each revision, in O(n). With variables repeated (or shared between the arrays) the same
/// reasoning is sound.
#[derive(Debug, Clone)]
pub struct LexLess {
    /// `[x₁, …, xₙ, y₁, …, yₘ]`.
    args: Args,
    nx: usize,
    ny: usize,
    strict: bool,
}

impl LexLess {
    /// `x ≤lex y`.
    pub fn less_or_equal(x: Vec<VarId>, y: Vec<VarId>) -> Self {
        Self::new(x, y, false)
    }

    /// `x <lex y`.
    pub fn less(x: Vec<VarId>, y: Vec<VarId>) -> Self {
        Self::new(x, y, true)
    }

    fn new(x: Vec<VarId>, y: Vec<VarId>, strict: bool) -> Self {
        let (nx, ny) = (x.len(), y.len());
        LexLess {
            args: Args::new(x.into_iter().chain(y)),
            nx,
            ny,
            strict,
        }
    }

    fn x(&self, i: usize) -> VarId {
        self.args.var(i)
    }

    fn y(&self, i: usize) -> VarId {
        self.args.var(self.nx + i)
    }

    /// Whether the arrays equal on their common prefix violate the constraint.
    fn equal_prefix_fails(&self) -> bool {
        if self.strict {
            self.nx >= self.ny
        } else {
            self.nx > self.ny
        }
    }
}

impl Constraint for LexLess {
    fn scope(&self) -> &[VarId] {
        &self.args.scope
    }

    fn is_satisfied(&self, values: &[i32]) -> bool {
        for i in 0..self.nx.min(self.ny) {
            let (x, y) = (
                self.args.value(values, i),
                self.args.value(values, self.nx + i),
            );
            if x != y {
                return x < y;
            }
        }
        !self.equal_prefix_fails()
    }

    fn propagator(&self) -> Option<&dyn Propagator> {
        Some(self)
    }
}

impl Propagator for LexLess {
    fn revise(&self, ctx: &mut PropagationCtx<'_>) -> Result<(), Wipeout> {
        let common = self.nx.min(self.ny);
        loop {
            // α: the first pair that is not fixed equal.
            let alpha = (0..common).find(|&i| {
                let (x, y) = (self.x(i), self.y(i));
                !(ctx.is_fixed(x) && ctx.is_fixed(y) && ctx.lb(x) == ctx.lb(y))
            });
            let Some(alpha) = alpha else {
                return if self.equal_prefix_fails() {
                    Err(Wipeout)
                } else {
                    Ok(())
                };
            };
            // Whether the rest from position i is surely larger in x than in y, from the end back to
            // α: it is when min xᵢ > max yᵢ, or when min xᵢ ≥ max yᵢ (so xᵢ ≥ yᵢ) and the rest from
            // i + 1 is. β is the first position where it is; only whether β is α (a failure) or
            // α + 1 (so xα = yα is impossible) matters.
            let mut larger = self.equal_prefix_fails();
            let mut after_alpha = larger;
            for i in (alpha..common).rev() {
                if i == alpha {
                    after_alpha = larger;
                }
                let (x_lo, y_hi) = (ctx.lb(self.x(i)), ctx.ub(self.y(i)));
                larger = x_lo > y_hi || (x_lo >= y_hi && larger);
            }
            if larger {
                return Err(Wipeout);
            }
            let beta_is_next = after_alpha;
            let (x, y) = (self.x(alpha), self.y(alpha));
            let gap = i64::from(beta_is_next);
            if x == y {
                // One variable on both sides is equal to itself: fine unless the rest forbids it.
                return if beta_is_next { Err(Wipeout) } else { Ok(()) };
            }
            let before = (ctx.ub(x), ctx.lb(y));
            ctx.set_max(x, i64::from(ctx.ub(y)) - gap)?;
            ctx.set_min(y, i64::from(ctx.lb(x)) + gap)?;
            let settled = ctx.is_fixed(x) && ctx.is_fixed(y) && ctx.lb(x) == ctx.lb(y);
            if !settled && (ctx.ub(x), ctx.lb(y)) == before {
                return Ok(());
            }
        }
    }

    fn subscribe(&self, _position: usize) -> crate::EventSet {
        crate::EventSet::BOUNDS
    }

    fn priority(&self) -> Priority {
        Priority::Medium
    }
}
