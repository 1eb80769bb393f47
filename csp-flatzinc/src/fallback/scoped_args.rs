//! [`ScopedArgs`]: a builtin's arguments, constants and repeated variables included, mapped onto a
//! constraint's scope.

use csp_core::Domains;
use csp_core::{CheckCtx, PropagationCtx, VarId, Wipeout};

use crate::Elem;

/// Where one argument of a constraint gets its value: a constant, or a scope variable (by position).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ScopedArg {
    /// A constant.
    Const(i64),
    /// The scope variable at this position.
    Var(usize),
}

/// A constraint's arguments, each a constant or a variable, with the scope holding each variable once:
/// FlatZinc may pass the same variable twice (`int_times(x, x, y)`) or a constant where a variable
/// goes, and an engine scope may hold neither.
#[derive(Debug, Clone)]
pub struct ScopedArgs {
    scope: Vec<VarId>,
    args: Vec<ScopedArg>,
}

impl ScopedArgs {
    /// The arguments `elems`, in order.
    pub fn new(elems: &[Elem]) -> Self {
        let mut scope: Vec<VarId> = Vec::new();
        let args = elems
            .iter()
            .map(|elem| match *elem {
                Elem::Const(value) => ScopedArg::Const(value),
                Elem::Var(var) => match scope.iter().position(|&v| v == var) {
                    Some(position) => ScopedArg::Var(position),
                    None => {
                        scope.push(var);
                        ScopedArg::Var(scope.len() - 1)
                    }
                },
            })
            .collect();
        ScopedArgs { scope, args }
    }

    /// The distinct variables.
    pub fn scope(&self) -> &[VarId] {
        &self.scope
    }

    /// How many arguments there are.
    pub fn len(&self) -> usize {
        self.args.len()
    }

    /// Whether there are no arguments.
    pub fn is_empty(&self) -> bool {
        self.args.is_empty()
    }

    /// Argument `i`.
    pub fn arg(&self, i: usize) -> ScopedArg {
        self.args[i]
    }

    /// Argument `i`'s variable, if it is one.
    pub fn var(&self, i: usize) -> Option<VarId> {
        match self.args[i] {
            ScopedArg::Const(_) => None,
            ScopedArg::Var(position) => Some(self.scope[position]),
        }
    }

    /// Argument `i`'s value, given the scope's values in scope order.
    #[inline]
    pub fn value(&self, i: usize, values: &[i32]) -> i64 {
        match self.args[i] {
            ScopedArg::Const(value) => value,
            ScopedArg::Var(position) => i64::from(values[position]),
        }
    }

    /// Argument `i`'s current bounds.
    #[inline]
    pub fn bounds(&self, i: usize, ctx: &CheckCtx<'_>) -> (i64, i64) {
        match self.args[i] {
            ScopedArg::Const(value) => (value, value),
            ScopedArg::Var(position) => {
                let var = self.scope[position];
                (i64::from(ctx.lb(var)), i64::from(ctx.ub(var)))
            }
        }
    }

    /// Whether argument `i` can take `value` now.
    pub fn can_take(&self, i: usize, value: i64, ctx: &CheckCtx<'_>) -> bool {
        match self.args[i] {
            ScopedArg::Const(c) => c == value,
            ScopedArg::Var(position) => {
                i32::try_from(value).is_ok_and(|v| ctx.domain(self.scope[position]).contains(v))
            }
        }
    }

    /// Keeps argument `i` within `lo..=hi`: a constant outside fails; returns whether a domain changed.
    pub fn restrict(
        &self,
        i: usize,
        lo: i64,
        hi: i64,
        ctx: &mut PropagationCtx<'_>,
    ) -> Result<bool, Wipeout> {
        match self.args[i] {
            ScopedArg::Const(value) if value < lo || value > hi => Err(Wipeout),
            ScopedArg::Const(_) => Ok(false),
            ScopedArg::Var(position) => {
                let var = self.scope[position];
                let (old_lo, old_hi) = (ctx.lb(var), ctx.ub(var));
                ctx.restrict_bounds(var, lo, hi)?;
                Ok(ctx.lb(var) != old_lo || ctx.ub(var) != old_hi)
            }
        }
    }

    /// Removes `value` from argument `i`: a constant equal to it fails; returns whether it was there.
    pub fn remove(
        &self,
        i: usize,
        value: i64,
        ctx: &mut PropagationCtx<'_>,
    ) -> Result<bool, Wipeout> {
        match self.args[i] {
            ScopedArg::Const(c) if c == value => Err(Wipeout),
            ScopedArg::Const(_) => Ok(false),
            ScopedArg::Var(position) => match i32::try_from(value) {
                Ok(v) => ctx.remove(self.scope[position], v),
                Err(_) => Ok(false),
            },
        }
    }
}
