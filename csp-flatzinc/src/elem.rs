//! [`Elem`]: what every part of the front end passes around for one integer or Boolean.

use csp_core::VarId;

/// One integer or Boolean of a FlatZinc model: a constant, or a variable of the engine's model.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Elem {
    /// A constant (a Boolean as 0 or 1).
    Const(i64),
    /// A variable.
    Var(VarId),
}
