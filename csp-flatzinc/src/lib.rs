//! # csp-flatzinc
//!
//! The FlatZinc front end of the `csp` engine: [`parse`] reads a FlatZinc model (every error with its
//! line and column, never a panic), [`compile`] turns it into a [`csp_core::Model`] through the
//! builtin table ([`builtins::BUILTINS`], the one place a FlatZinc constraint is mapped onto the
//! engine), with the search its annotations ask for and what a solution prints. The `fzn-csp` binary
//! of the root package runs it with the FlatZinc standard options; `minizinc/` at the repository
//! root registers it with MiniZinc.
//!
//! ```
//! use csp_search::{Outcome, solve};
//!
//! let compiled = csp_flatzinc::compile(
//!     "var 1..9: x :: output_var;\n\
//!      var 1..9: y :: output_var;\n\
//!      constraint int_lin_eq([2, 3], [x, y], 12);\n\
//!      solve maximize x;\n",
//! )?;
//! let result = solve(compiled.model(), &compiled.search_config(false), ());
//! assert_eq!(result.outcome, Outcome::Optimal);
//! let solution = result.solution.unwrap();
//! assert!(compiled.verify(&solution).is_ok());
//! assert_eq!(compiled.output().format(&solution), "x = 3;\ny = 2;\n");
//! # Ok::<(), csp_flatzinc::Error>(())
//! ```

pub mod assume;
pub mod ast;
pub mod builtins;
mod compile;
pub mod console;
mod elem;
mod error;
pub mod fallback;
pub mod input;
mod options;
pub mod output;
mod overflow;
mod parser;
pub mod plan;
pub mod run;
mod search;
pub mod solver;
pub mod types;

pub use compile::{Compiled, MAX_MODEL_VARIABLES, VerifyError};
pub use elem::Elem;
pub use error::Error;
pub use parser::{MAX_DEPTH, parse};
pub use search::Warning;

/// Parses and compiles a FlatZinc model, one statement at a time: the parsed form of the whole
/// file is never held, so memory is the text and the model (FlatZinc declares every name before its
/// use, as the specification orders the statements).
pub fn compile(text: &str) -> Result<Compiled, Error> {
    compile::compile_text(text)
}

/// Compiles a model [`parse`] read (for callers that time the two steps apart).
pub fn compile_parsed(fzn: &ast::FlatZinc<'_>) -> Result<Compiled, Error> {
    compile::compile_parsed(fzn)
}
