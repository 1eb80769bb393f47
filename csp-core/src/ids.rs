//! The names of a model's parts: [`VarId`] and [`ConstraintId`], dense indices that every other
//! module passes around. A leaf module, so that naming a variable depends on nothing.

use std::fmt;

/// A variable of a [`crate::Model`]: a dense index, in the order the variables were declared.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct VarId(pub(crate) u32);

impl VarId {
    /// The variable with declaration index `index`.
    #[inline]
    pub fn from_index(index: usize) -> Self {
        VarId(u32::try_from(index).expect("variable index fits in u32"))
    }

    /// The declaration index (0 for the first variable declared).
    #[inline]
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

impl fmt::Debug for VarId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "x{}", self.0)
    }
}

/// A constraint of a [`crate::Model`], by posting order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct ConstraintId(pub(crate) u32);

impl ConstraintId {
    /// The posting index (0 for the first constraint posted).
    #[inline]
    pub fn index(self) -> usize {
        self.0 as usize
    }
}
