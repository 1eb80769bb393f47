//! The one search: an explicit stack of frames over a trailed store, for every strategy, with
//! chronological backtracking or learning at a failure. `search.rs` holds its state and public
//! interface.

mod bnb;
mod conflict;
mod frame;
mod memory;
mod outcome;
mod search;
mod walk;

pub(crate) use frame::propagate;
pub use outcome::{Limit, Outcome, SearchResult};
pub use search::{Search, solve};
