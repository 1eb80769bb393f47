use crate::{CheckCtx, Constraint, LocalCtx, PropagationCtx, VarId, Wipeout};

/// The state cell counting pairs of assigned variables that share a value.
const CLASHES: usize = 0;

/// Every variable of the scope takes a different value.
///
/// Propagation is forward checking: an assigned value is removed from every unassigned variable of
/// the scope. One trailed state cell counts the clashes among the assigned variables, so that
/// `check` and `propagate` stay exact even when variables were assigned without propagation.
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

    fn state_size(&self) -> usize {
        1
    }

    fn on_assign(&self, var: VarId, value: i32, ctx: &mut PropagationCtx<'_>) {
        let clashes = self
            .scope
            .iter()
            .filter(|&&other| other != var && ctx.value(other) == Some(value))
            .count();
        if clashes > 0 {
            ctx.add_cell(CLASHES, clashes as i64);
        }
    }

    fn check(&self, var: VarId, value: i32, ctx: &CheckCtx<'_>) -> bool {
        ctx.cell(CLASHES) == 0
            && self
                .scope
                .iter()
                .all(|&other| other == var || ctx.value(other) != Some(value))
    }

    fn propagate(&self, var: VarId, ctx: &mut PropagationCtx<'_>) -> Result<(), Wipeout> {
        let value = ctx.value(var).ok_or(Wipeout)?;
        if ctx.cell(CLASHES) > 0 {
            return Err(Wipeout);
        }
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
