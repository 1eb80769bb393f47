//! [`Checked`]: a relation known by its checker alone.

use csp_core::Domains;
use std::fmt;

use csp_core::{CheckCtx, Constraint, Propagator, VarId};

use super::scoped_args::ScopedArgs;
use crate::Elem;

/// The checker a [`Checked`] relation is given: whether the arguments' values (constants included, one per
/// argument in order) satisfy it.
pub type Check = Box<dyn Fn(&[i64]) -> bool + Send + Sync>;

/// Any relation over constants and variables, known by its checker alone: what a builtin falls back
/// on when its usual encoding cannot take its arguments (a reified constraint whose Boolean is also
/// in its scope, say). Propagation is the trait's default, generalised arc consistency from the
/// checker while the domains are small, and the check once every variable is fixed.
pub struct Checked {
    name: String,
    args: ScopedArgs,
    check: Check,
}

impl Checked {
    /// `check` over the values of `args`; `name` is shown in messages.
    pub fn new(name: impl Into<String>, args: &[Elem], check: Check) -> Self {
        Checked {
            name: name.into(),
            args: ScopedArgs::new(args),
            check,
        }
    }
}

impl fmt::Debug for Checked {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Checked({}, {:?})", self.name, self.args.scope())
    }
}

impl Constraint for Checked {
    fn scope(&self) -> &[VarId] {
        self.args.scope()
    }

    fn is_satisfied(&self, values: &[i32]) -> bool {
        let args: smallvec::SmallVec<[i64; 8]> = (0..self.args.len())
            .map(|i| self.args.value(i, values))
            .collect();
        (self.check)(&args)
    }
}

impl Propagator for Checked {
    fn entailment(&self, ctx: &CheckCtx<'_>) -> Option<bool> {
        fixed_verdict(self, ctx)
    }
}

/// The checker's verdict once every scope variable is fixed (`None` before).
fn fixed_verdict(constraint: &dyn Constraint, ctx: &CheckCtx<'_>) -> Option<bool> {
    let mut values: smallvec::SmallVec<[i32; 8]> = smallvec::SmallVec::new();
    for &var in constraint.scope() {
        values.push(ctx.fixed_value(var)?);
    }
    Some(constraint.is_satisfied(&values))
}
