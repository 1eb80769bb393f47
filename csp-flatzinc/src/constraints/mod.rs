//! Constraints this crate writes itself, for FlatZinc builtins that `csp_core::constraints` does not
//! provide yet: arithmetic functions (`int_times`, `int_div`, `int_mod`, `int_min`, `int_max`,
//! `int_pow`, `int_abs`), element over an array of variables, membership of a constant set, and a
//! relation given by its checker alone.
//!
//! They are temporary: the constraint catalogue being written for `csp-core` replaces each with a
//! stronger propagator, and the builtin table (`crate::builtins`) then names that one instead. Each keeps
//! an obviously correct checker, propagates bounds soundly, falls back on generalised arc consistency
//! from the checker when the domains are small, and decides its checker once every variable is fixed
//! (so search by decisions accepts only solutions).

mod arith;
mod checked;
mod element;
mod in_set;
mod slots;

pub use arith::{Arith, ArithOp};
pub use checked::{Check, Checked};
pub use element::VarElement;
pub use in_set::InSet;
pub use slots::{Slot, Slots};

use csp_core::{CheckCtx, Constraint, PropagationCtx, VarId, Wipeout};

/// A constraint seen through its scope and checker only, so that its
/// [`Constraint::revise`] is the trait's default: generalised arc consistency from the checker while
/// the domains hold at most [`csp_core::GENERIC_REVISE_BUDGET`] tuples.
#[derive(Debug)]
struct CheckerOnly<'a>(&'a dyn Constraint);

impl Constraint for CheckerOnly<'_> {
    fn scope(&self) -> &[VarId] {
        self.0.scope()
    }

    fn is_satisfied(&self, values: &[i32]) -> bool {
        self.0.is_satisfied(values)
    }
}

/// Generalised arc consistency from `constraint`'s checker, when its domains are small enough.
fn checker_revise(
    constraint: &dyn Constraint,
    ctx: &mut PropagationCtx<'_>,
) -> Result<(), Wipeout> {
    CheckerOnly(constraint).revise(ctx)
}

/// The checker's verdict once every scope variable is fixed (`None` before).
fn fixed_verdict(constraint: &dyn Constraint, ctx: &CheckCtx<'_>) -> Option<bool> {
    let mut values: smallvec::SmallVec<[i32; 8]> = smallvec::SmallVec::new();
    for &var in constraint.scope() {
        values.push(ctx.fixed_value(var)?);
    }
    Some(constraint.is_satisfied(&values))
}

/// Fails when every variable is fixed and the checker refuses the values: what makes each
/// propagator of this module checker-complete, whatever its bounds reasoning missed.
fn check_when_fixed(
    constraint: &dyn Constraint,
    ctx: &mut PropagationCtx<'_>,
) -> Result<(), Wipeout> {
    match fixed_verdict(constraint, &ctx.as_check()) {
        Some(false) => Err(Wipeout),
        _ => Ok(()),
    }
}
