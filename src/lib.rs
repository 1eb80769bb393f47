//! # csp
//!
//! A constraint-satisfaction framework whose flagship model is N-queens. This root crate re-exports the
//! workspace's crates under short names and hosts the `csp` command-line tool.
//!
//! - [`core`] (`csp-core`): variables with finite domains, constraints, a trailed store.
//! - [`search`] (`csp-search`): backtracking with pluggable orderings, propagation, observers.
//! - [`local`] (`csp-local`): min-conflicts repair over any model.
//! - [`nqueens`] (`nqueens-model`): N-queens on the engine, constructions, local searches,
//!   verification and rendering.
//! - [`count`] (`nqueens-count`): exact N-queens counts that bypass the engine.
//! - [`problems`] (`csp-problems`): Sudoku and graph colouring: parsers, models, checkers.
//! - [`flatzinc`] (`csp-flatzinc`): the FlatZinc front end (parser, builtin table, output) behind
//!   the `fzn-csp` binary, which MiniZinc runs.
//!
//! Beside them, [`app`] is the application layer both binaries (`csp` and `fzn-csp`) share: exit
//! codes and one-line errors, the command line's parsing, limits, progress bars and output files.
//!
//! ```
//! use csp::nqueens::{Encoding, model, verify};
//! use csp::search::{SearchConfig, SearchEvent, FnObserver, solve};
//! use std::ops::ControlFlow;
//!
//! let model = model(8, Encoding::Counters).unwrap();
//! let mut first = Vec::new();
//! let result = solve(&model, &SearchConfig::lex(), FnObserver(|e: &SearchEvent<'_>| {
//!     if let SearchEvent::Solution { values, .. } = e {
//!         first = values.iter().map(|&v| v as u32).collect();
//!     }
//!     ControlFlow::Continue(())
//! }));
//! assert_eq!(first, [0, 4, 7, 5, 2, 6, 1, 3]); // Dijkstra's first solution
//! assert!(verify(&first).is_ok());
//! assert_eq!(result.stats.backtracks, 105); // Stone & Stone, Table 2
//! ```

pub mod app;

pub use csp_core as core;
pub use csp_flatzinc as flatzinc;
pub use csp_local as local;
pub use csp_problems as problems;
pub use csp_search as search;
pub use nqueens_count as count;
pub use nqueens_model as nqueens;

/// README's code blocks, compiled and run as doctests so that the examples there stay true.
#[doc = include_str!("../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;

/// ARCHITECTURE.md's code blocks (the constraint of "Adding a constraint"), compiled and run as
/// doctests so that the walk-through stays true to the API.
#[doc = include_str!("../ARCHITECTURE.md")]
#[cfg(doctest)]
pub struct ArchitectureDoctests;
