//! The commands, each with its arguments and its run: `csp queens …`, `csp sudoku`, `csp color`.

pub mod color;
pub mod queens;
pub mod sudoku;
