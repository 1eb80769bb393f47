//! The tags a builtin family's constructors and checkers take to pick one member: how the two sides
//! of a comparison or a linear sum relate (the engine's [`Comparison`]), and how a constraint is tied
//! to a trailing Boolean ([`Suffix`]).

use csp_core::constraints::Comparison;

use super::args::Arg;
use super::poster::{Poster, Reif};
use crate::error::Error;

/// How a constraint is tied to a trailing Boolean argument, as the FlatZinc name's suffix says; the
/// tag of a [`Reif`] before its Boolean is known.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Suffix {
    /// No suffix (`int_le`): the constraint holds, and there is no trailing Boolean.
    Plain,
    /// `_reif` (`int_le_reif`): the trailing Boolean is true exactly when the constraint holds.
    Reified,
    /// `_imp` (`int_le_imp`): the constraint holds when the trailing Boolean is true.
    Implied,
}

/// Whether `left rel right` holds, written out here so that the checkers share no code with the
/// engine's comparisons.
pub(crate) fn compare(rel: Comparison, left: i128, right: i128) -> bool {
    match rel {
        Comparison::Equal => left == right,
        Comparison::NotEqual => left != right,
        Comparison::LessOrEqual => left <= right,
        Comparison::Less => left < right,
        Comparison::GreaterOrEqual => left >= right,
        Comparison::Greater => left > right,
    }
}

/// Whether a constraint whose own truth is `holds` is satisfied under `suffix`, given the trailing
/// Boolean's value `r` (unused for [`Suffix::Plain`]).
pub(crate) fn tied(suffix: Suffix, holds: bool, r: Option<i64>) -> bool {
    match (suffix, r) {
        (Suffix::Plain, _) => holds,
        (Suffix::Reified | Suffix::Implied, Some(1)) => holds,
        (Suffix::Reified, Some(0)) => !holds,
        (Suffix::Implied, Some(0)) => true,
        _ => false,
    }
}

/// The [`Reif`] for `suffix`, from the trailing argument.
pub(crate) fn reif_of(suffix: Suffix, p: &Poster<'_>, args: &[Arg]) -> Result<Reif, Error> {
    let trailing = || p.elem(args.last().expect("a reified builtin has arguments"));
    Ok(match suffix {
        Suffix::Plain => Reif::Plain,
        Suffix::Reified => Reif::Equiv(trailing()?),
        Suffix::Implied => Reif::Implies(trailing()?),
    })
}
