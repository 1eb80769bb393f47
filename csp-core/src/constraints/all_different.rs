use crate::{CheckCtx, Constraint, LocalCtx, PropagationCtx, VarId, Wipeout};

/// Every variable of the scope takes a different value.
///
/// Propagation is forward checking: an assigned value is removed from every unassigned variable of
/// the scope.
#[derive(Debug, Clone)]
pub struct AllDifferent {
    scope: Vec<VarId>,
}

impl AllDifferent {
    /// All of `vars` pairwise different.
    pub fn new(vars: Vec<VarId>) -> Self {
        AllDifferent { scope: vars }
    }
}

impl Constraint for AllDifferent {
    fn scope(&self) -> &[VarId] {
        &self.scope
    }

    fn is_satisfied(&self, values: &[i32]) -> bool {
        values
            .iter()
            .enumerate()
            .all(|(i, v)| !values[i + 1..].contains(v))
    }

    fn check(&self, var: VarId, value: i32, ctx: &CheckCtx<'_>) -> bool {
        self.scope
            .iter()
            .all(|&other| other == var || ctx.value(other) != Some(value))
    }

    fn propagate(&self, var: VarId, ctx: &mut PropagationCtx<'_>) -> Result<(), Wipeout> {
        let value = ctx.value(var).ok_or(Wipeout)?;
        for &other in &self.scope {
            if other != var {
                ctx.remove(other, value)?;
            }
        }
        Ok(())
    }

    fn conflicts(&self, var: VarId, value: i32, ctx: &LocalCtx<'_>) -> u32 {
        // One violation per other variable sharing the value, so the count falls as a repair helps.
        self.scope
            .iter()
            .filter(|&&other| other != var && ctx.values[other.index()] == value)
            .count() as u32
    }
}
