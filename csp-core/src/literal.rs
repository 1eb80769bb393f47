//! Literals over integer variables and the change log that records them, for learning from
//! failure (see [`crate::Store::enable_change_log`], where the store writes the log).

use crate::{ConstraintId, VarId};

/// How a [`Literal`] relates its variable to its value.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum LiteralRelation {
    /// `x = v`.
    Eq,
    /// `x ≠ v`.
    Ne,
    /// `x ≤ v`.
    Le,
    /// `x ≥ v`.
    Ge,
}

/// A statement about one variable's value: `x = v`, `x ≠ v`, `x ≤ v` or `x ≥ v`. Under the
/// current domains it is true (every value left satisfies it), false (none does) or open.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Literal {
    /// The variable.
    pub var: VarId,
    /// How it relates to `value`.
    pub relation: LiteralRelation,
    /// The value.
    pub value: i32,
}

impl Literal {
    /// `var = value`.
    pub fn eq(var: VarId, value: i32) -> Self {
        Literal {
            var,
            relation: LiteralRelation::Eq,
            value,
        }
    }

    /// `var ≠ value`.
    pub fn ne(var: VarId, value: i32) -> Self {
        Literal {
            var,
            relation: LiteralRelation::Ne,
            value,
        }
    }

    /// `var ≤ value`.
    pub fn le(var: VarId, value: i32) -> Self {
        Literal {
            var,
            relation: LiteralRelation::Le,
            value,
        }
    }

    /// `var ≥ value`.
    pub fn ge(var: VarId, value: i32) -> Self {
        Literal {
            var,
            relation: LiteralRelation::Ge,
            value,
        }
    }

    /// The literal that holds exactly when this one does not. `x ≤ i32::MIN − 1` cannot be
    /// written; its negation of `x ≥ i32::MIN` (always true) saturates to `x ≤ i32::MIN`, which
    /// no caller asks for, as no change ever makes `x ≥ i32::MIN` true.
    pub fn negate(self) -> Self {
        let (relation, value) = match self.relation {
            LiteralRelation::Eq => (LiteralRelation::Ne, self.value),
            LiteralRelation::Ne => (LiteralRelation::Eq, self.value),
            LiteralRelation::Le => (LiteralRelation::Ge, self.value.saturating_add(1)),
            LiteralRelation::Ge => (LiteralRelation::Le, self.value.saturating_sub(1)),
        };
        Literal {
            var: self.var,
            relation,
            value,
        }
    }

    /// Whether `value` satisfies the literal.
    pub fn holds_for(self, value: i32) -> bool {
        match self.relation {
            LiteralRelation::Eq => value == self.value,
            LiteralRelation::Ne => value != self.value,
            LiteralRelation::Le => value <= self.value,
            LiteralRelation::Ge => value >= self.value,
        }
    }
}

/// Why a logged change happened.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cause {
    /// A search decision (or anything done directly through the store while no other cause is
    /// set).
    Decision,
    /// A constraint's propagator.
    Constraint(ConstraintId),
    /// A clause of the learning search (its own numbering).
    Clause(u32),
    /// A bound that moved because the value at it was removed: implied by the variable's earlier
    /// entries (the old bound and the removals between it and the new one).
    Bound,
}

/// One logged change: the literal that became true and its cause.
#[derive(Debug, Clone, Copy)]
pub struct LogEntry {
    /// What became true.
    pub literal: Literal,
    /// Why.
    pub cause: Cause,
}

/// The log itself (see the module documentation).
#[derive(Debug, Clone)]
pub(crate) struct ChangeLog {
    pub(crate) entries: Vec<LogEntry>,
    /// Each variable's lower-bound entries (`≥`, `=`), oldest first: their values only grow.
    pub(crate) lower_of: Vec<Vec<u32>>,
    /// The values of `lower_of`'s entries, in the same order: a search by value reads them, one
    /// list in order, rather than looking each entry up in the log.
    pub(crate) lower_values_of: Vec<Vec<i32>>,
    /// Each variable's upper-bound entries (`≤`, `=`), oldest first: their values only shrink.
    pub(crate) upper_of: Vec<Vec<u32>>,
    /// The values of `upper_of`'s entries, in the same order.
    pub(crate) upper_values_of: Vec<Vec<i32>>,
    /// Each variable's removals (`≠`), oldest first.
    pub(crate) removals_of: Vec<Vec<u32>>,
    /// The values of `removals_of`'s entries, in the same order: conflict analysis scans a
    /// variable's removals for the values between two bounds, and reading each value here, one
    /// list in order, costs far less than looking each entry up in the log.
    pub(crate) removed_values_of: Vec<Vec<i32>>,
    /// The entry that removed each removed value, by variable and value.
    pub(crate) removal_entry: hashbrown::HashMap<(u32, i32), u32>,
    /// The cause of changes made now.
    pub(crate) cause: Cause,
    /// The last change refused by a wipe-out, with its cause, until taken
    /// ([`crate::Store::take_failure`]).
    pub(crate) failure: Option<(Literal, Cause)>,
    /// Each variable's bounds when the log started.
    pub(crate) start_bounds: Vec<(i32, i32)>,
    /// Each variable's domain when the log started, if it had holes then (the bounds say the
    /// rest).
    pub(crate) start_holes: Vec<Option<crate::Domain>>,
}

impl ChangeLog {
    pub(crate) fn push(&mut self, literal: Literal, cause: Cause) {
        let var = literal.var.index();
        let index = self.entries.len() as u32;
        if literal.relation == LiteralRelation::Ne {
            self.removals_of[var].push(index);
            self.removed_values_of[var].push(literal.value);
            self.removal_entry
                .insert((var as u32, literal.value), index);
        } else {
            if literal.relation != LiteralRelation::Le {
                self.lower_of[var].push(index);
                self.lower_values_of[var].push(literal.value);
            }
            if literal.relation != LiteralRelation::Ge {
                self.upper_of[var].push(index);
                self.upper_values_of[var].push(literal.value);
            }
        }
        self.entries.push(LogEntry { literal, cause });
    }

    /// Drops the entries from `len` on, newest first.
    pub(crate) fn truncate(&mut self, len: usize) {
        while self.entries.len() > len {
            let entry = self.entries.pop().expect("longer than len");
            let var = entry.literal.var.index();
            if entry.literal.relation == LiteralRelation::Ne {
                self.removals_of[var].pop();
                self.removed_values_of[var].pop();
                self.removal_entry
                    .remove(&(var as u32, entry.literal.value));
            } else {
                if entry.literal.relation != LiteralRelation::Le {
                    self.lower_of[var].pop();
                    self.lower_values_of[var].pop();
                }
                if entry.literal.relation != LiteralRelation::Ge {
                    self.upper_of[var].pop();
                    self.upper_values_of[var].pop();
                }
            }
        }
    }
}
