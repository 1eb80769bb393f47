//! What the builtin table falls back on where no catalogue constraint fits the arguments: a relation
//! given by its checker alone ([`Checked`], for a reified constraint whose Boolean is also in its
//! scope), and the mapping of a builtin's arguments, constants and repeated variables included, onto
//! a constraint's scope ([`ScopedArgs`], which tables over constants and [`Checked`] use).
//!
//! The temporary propagators this module once held (arithmetic, element over variables, membership
//! of a set) gave way to `csp_core::constraints`: `Arithmetic`, `Extremum`, `VarElement`, `SetIn`.

mod checked;
mod scoped_args;

pub use checked::{Check, Checked};
pub use scoped_args::{ScopedArg, ScopedArgs};
