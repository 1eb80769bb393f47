//! # csp-problems
//!
//! Practical problems on the generic engine, through its public API only. Sudoku and graph colouring
//! come with a parser that names the line and what is wrong with bad input (and never panics), a model
//! builder, and a checker that is independent of the engine; Golomb rulers, job-shop scheduling and
//! the 0/1 knapsack are optimisation models with checkers by definition (and, for the knapsack,
//! dynamic programming), used by the examples, tests and benchmarks.
//!
//! - [`sudoku`]: puzzles as 81-character lines; a model with 27 all-different constraints; a checker
//!   against the givens and the rules.
//! - [`dimacs`]: graphs in the DIMACS `.col` format.
//! - [`golomb`], [`jobshop`], [`knapsack`]: models with an objective, by branch and bound.
//! - [`coloring`]: k-colouring models, a checker of every edge, and the chromatic number by a descent
//!   of k-colouring searches down to a proof that one colour fewer fails.
//!
//! ```
//! use csp_problems::sudoku::{self, Grid};
//!
//! let puzzle: Grid = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
//!     .parse()
//!     .unwrap();
//! let answer = sudoku::solve(&puzzle, &sudoku::default_config(), ()).unwrap();
//! let solution = answer.first.expect("Norvig's hardest puzzle has a solution");
//! assert!(sudoku::check(&puzzle, &solution).is_ok());
//! ```

pub mod coloring;
pub mod dimacs;
pub mod golomb;
pub mod jobshop;
pub mod knapsack;
pub mod line_reader;
pub mod sudoku;
