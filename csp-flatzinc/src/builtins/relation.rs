//! The tags a builtin family's constructors and checkers are instantiated with: how the two sides
//! of a comparison or a linear sum relate, and how a constraint is tied to a trailing Boolean.

use super::args::Arg;
use super::poster::{Poster, Reif};
use crate::error::Error;

/// How a comparison or a linear sum relates its two sides: `=`, `≠`, `≤`, `<`.
pub(crate) const EQ: u8 = 0;
pub(crate) const NE: u8 = 1;
pub(crate) const LE: u8 = 2;
pub(crate) const LT: u8 = 3;
/// How a constraint is tied to a trailing Boolean argument: not at all, `_reif`, `_imp`.
pub(crate) const PLAIN: u8 = 0;
pub(crate) const REIF: u8 = 1;
pub(crate) const IMP: u8 = 2;

/// Whether `left rel right` holds, for `rel` one of [`EQ`], [`NE`], [`LE`], [`LT`].
pub(crate) fn compare<const REL: u8>(left: i128, right: i128) -> bool {
    match REL {
        EQ => left == right,
        NE => left != right,
        LE => left <= right,
        _ => left < right,
    }
}

/// Whether a constraint whose own truth is `holds` is satisfied under `MODE`, given the trailing
/// Boolean's value `r` (unused for [`PLAIN`]).
pub(crate) fn tied<const MODE: u8>(holds: bool, r: Option<i64>) -> bool {
    match (MODE, r) {
        (PLAIN, _) => holds,
        (REIF, Some(1)) | (IMP, Some(1)) => holds,
        (REIF, Some(0)) => !holds,
        (IMP, Some(0)) => true,
        _ => false,
    }
}

/// The [`Reif`] for `MODE`, from the trailing argument.
pub(crate) fn reif_of<const MODE: u8>(p: &Poster<'_>, args: &[Arg]) -> Result<Reif, Error> {
    Ok(match MODE {
        PLAIN => Reif::Plain,
        REIF => Reif::Equiv(p.elem(args.last().expect("a reified builtin has arguments"))?),
        _ => Reif::Implies(p.elem(args.last().expect("a reified builtin has arguments"))?),
    })
}
