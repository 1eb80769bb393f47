//! # nqueens-model
//!
//! The N-queens problem on the `csp` engine: place `n` queens on an `n × n` board so that no two share
//! a row, a column or a diagonal.
//!
//! - [`model`] builds the problem as a [`csp_core::Model`], one variable per row valued by column, in
//!   one of two [`Encoding`]s: pairwise not-equal constraints, or the single [`QueensConstraint`] with
//!   Dijkstra's column and diagonal counters. Both behave identically under search.
//! - [`verify`] checks any placement independently of the engine, in O(n).
//! - [`render`] draws a placement as text.
//! - [`local_search`] holds the N-queens-specific local-search solvers: Sosič & Gu's QS1 and QS4 and
//!   Rolfe's two Las Vegas algorithms, with a first-answer-wins [`local_search::race`] over threads.
//! - [`construct`] builds placements without search, in O(n): the explicit construction (streamable to
//!   10⁹ rows and beyond), Abramson & Yung's knight-walk, decompositions and general scheme, the
//!   Yagloms' patterns, toroidal queens, and Stone & Stone's odd trick.
//! - [`stream`] writes placements too large to hold and verifies stored ones with bounded memory.
//!
//! A placement is a slice with `placement[row] = column`, rows and columns numbered from 0; the board
//! is drawn with row 0 at the top and column 0 on the left.
//!
//! ```
//! use nqueens_model::{Encoding, model, render, verify};
//!
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! let model = model(4, Encoding::Counters)?;
//! assert_eq!(model.num_vars(), 4);
//! assert!(model.is_solution(&[1, 3, 0, 2]));
//!
//! verify(&[1, 3, 0, 2])?;
//! assert_eq!(
//!     verify(&[0, 2, 1, 3]).unwrap_err().to_string(),
//!     "queens in rows 1 and 2 (columns 2 and 1) share an up-diagonal"
//! );
//! print!("{}", render(&[1, 3, 0, 2]));
//! # Ok(())
//! # }
//! ```

#[macro_use]
mod names;

pub mod construct;
mod encoding;
pub mod experiment;
pub mod local_search;
mod model;
mod prefetch;
mod queens_constraint;
mod render;
pub mod stream;
mod verify;

pub use encoding::Encoding;
pub use model::{
    KEPT_LINES_BYTES_PER_ROW, LOCAL_SEARCH_BYTES_PER_ROW, MEMORY_BUDGET_BYTES, QueensError,
    StoreLayout, estimated_model_bytes, estimated_search_bytes, local_search_max_n,
    local_search_model, max_n, model, search_defaults, search_max_n, search_model,
};
pub use names::ParseNameError;
pub use queens_constraint::{MAX_BOARD_SIZE, QueensConstraint};
pub use render::render;
pub use verify::{AttackKind, VerifyError, verify};
