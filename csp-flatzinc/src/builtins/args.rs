//! A builtin's arguments: as its constructor is given them ([`Arg`]), and as its checker reads them
//! in a complete assignment ([`Val`]).

use crate::Elem;
use crate::ast::Ranges;

/// A constraint's argument, resolved: names replaced by what they stand for.
#[derive(Debug, Clone, PartialEq)]
pub enum Arg {
    /// An integer or Boolean (0 or 1), constant or variable.
    Elem(Elem),
    /// An array of them (shared with the name it came from, so that an array passed to many
    /// constraints is held once).
    Array(std::sync::Arc<[Elem]>),
    /// A constant set.
    Set(Ranges),
    /// An array of constant sets.
    SetArray(Vec<Ranges>),
}

/// An argument's value in a complete assignment, as a builtin's checker reads it.
#[derive(Debug, Clone, PartialEq)]
pub enum Val<'a> {
    /// An integer (a Boolean as 0 or 1).
    Int(i64),
    /// An array of them.
    Array(Vec<i64>),
    /// A constant set.
    Set(&'a Ranges),
    /// An array of constant sets.
    SetArray(&'a [Ranges]),
}

impl Val<'_> {
    /// The integer, or `None` for another shape.
    pub fn int(&self) -> Option<i64> {
        match self {
            Val::Int(value) => Some(*value),
            _ => None,
        }
    }

    /// The array, or `None` for another shape.
    pub fn array(&self) -> Option<&[i64]> {
        match self {
            Val::Array(values) => Some(values),
            _ => None,
        }
    }

    /// The set, or `None` for another shape.
    pub fn set(&self) -> Option<&Ranges> {
        match self {
            Val::Set(set) => Some(set),
            _ => None,
        }
    }
}
