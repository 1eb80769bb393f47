use crate::{CheckCtx, Constraint, ModelError, PropagationCtx, VarId, Wipeout};

/// An extensional constraint: the scope's values must form one of the allowed tuples.
///
/// Propagation keeps, for every unassigned variable of the scope, only the values that appear in some
/// allowed tuple agreeing with the assigned variables and the current domains (generalised forward
/// checking; it is arc consistency on this one constraint).
#[derive(Debug, Clone)]
pub struct Table {
    scope: Vec<VarId>,
    /// The tuples, row after row, `scope.len()` values each.
    tuples: Vec<i32>,
}

impl Table {
    /// `scope` must take one of `tuples`; every tuple must have one value per scope variable.
    pub fn new(scope: Vec<VarId>, tuples: Vec<Vec<i32>>) -> Result<Self, ModelError> {
        let mut flat = Vec::with_capacity(tuples.len() * scope.len());
        for tuple in &tuples {
            if tuple.len() != scope.len() {
                return Err(ModelError::ArityMismatch {
                    constraint: format!("table over {scope:?}"),
                    expected: scope.len(),
                    found: tuple.len(),
                });
            }
            flat.extend_from_slice(tuple);
        }
        if scope.is_empty() {
            return Err(ModelError::InvalidConstraint {
                constraint: "table".to_owned(),
                reason: "the scope is empty".to_owned(),
            });
        }
        Ok(Table {
            scope,
            tuples: flat,
        })
    }

    fn rows(&self) -> impl Iterator<Item = &[i32]> {
        self.tuples.chunks_exact(self.scope.len())
    }
}

impl Constraint for Table {
    fn scope(&self) -> &[VarId] {
        &self.scope
    }

    /// With at most two variables the check asks whether some tuple agrees with the assigned
    /// partner, which is monotone; with more, a tuple must agree with several variables at once.
    fn check_is_pairwise(&self) -> bool {
        self.scope.len() <= 2
    }

    fn is_satisfied(&self, values: &[i32]) -> bool {
        self.rows().any(|row| row == values)
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

    fn propagate(&self, _var: VarId, ctx: &mut PropagationCtx<'_>) -> Result<(), Wipeout> {
        self.filter(ctx)
    }

    /// The same generalised arc consistency as forward checking: it already reads the current
    /// domains of every scope variable.
    fn revise(&self, ctx: &mut PropagationCtx<'_>) -> Result<(), Wipeout> {
        self.filter(ctx)
    }
}

impl Table {
    /// Keeps the values that appear in a live tuple (one agreeing with every assigned value and
    /// current domain); fails when no tuple is live. Removing such values kills no live tuple, so
    /// one
    /// pass is a fixpoint.
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
