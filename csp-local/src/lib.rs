//! # csp-local
//!
//! Min-conflicts repair (Minton, Johnston, Philips and Laird, 1990, as Sosič & Gu and Rolfe cite it
//! in *3,000,000 Queens in Less Than One Minute* (1991) and *Las Vegas Does N-Queens* (2006)) over
//! any [`csp_core::Model`]: start from a complete assignment, then repeatedly pick a conflicted
//! variable at random and give it the value with the fewest conflicts, ties broken at random, until
//! no constraint is violated.
//!
//! The search knows nothing of any particular problem. It asks each constraint how many violations
//! it would count if a variable took a value ([`csp_core::Propagator::conflicts`]) and tells it
//! when a variable moves ([`csp_core::Propagator::moved`]), so a constraint with incremental
//! counters in its typed state ([`csp_core::LocalState`]) — such as N-queens' column and diagonal
//! counters — makes every evaluation O(1) with no queens-specific code here. A constraint without
//! its own count counts one conflict when its checker refuses the assignment.
//!
//! ```
//! use csp_core::{ModelBuilder, constraints::NotEqual};
//! use csp_local::{LocalConfig, LocalOutcome, min_conflicts};
//!
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! // Colour a 5-cycle with 3 colours.
//! let mut builder = ModelBuilder::new();
//! let nodes: Vec<_> = (0..5)
//!     .map(|i| builder.int_var(format!("v{i}"), 0..=2))
//!     .collect::<Result<_, _>>()?;
//! for i in 0..5 {
//!     builder.post(NotEqual::new(nodes[i], nodes[(i + 1) % 5]))?;
//! }
//! let model = builder.build();
//!
//! let result = min_conflicts(&model, &LocalConfig::default().with_seed(7), None)?;
//! assert_eq!(result.outcome, LocalOutcome::Solved);
//! assert!(model.is_solution(&result.assignment));
//! # Ok(())
//! # }
//! ```

mod config;
mod min_conflicts;
mod stats;

pub use config::{LocalConfig, Neighbourhood, Start};
pub use min_conflicts::{
    LocalError, LocalLimit, LocalOutcome, LocalResult, min_conflicts, total_conflicts,
};
pub use stats::LocalStats;
