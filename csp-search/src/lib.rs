//! # csp-search
//!
//! Systematic backtracking search over [`csp_core`] models, with pluggable variable ordering
//! ([`VariableOrder`]), value ordering ([`ValueOrder`]) and propagation level ([`Propagation`]), limits,
//! statistics, and a stream of [`SearchEvent`]s that any [`SearchObserver`] can watch or stop.
//!
//! Definitions follow Stone & Stone, *Efficient Search Techniques — An Empirical Study of the
//! N-Queens Problem* (1987): the root, with nothing assigned, is *level 1*; a node with `k` variables
//! assigned is level `k + 1`. A *node* is an assignment that was made; a *backtrack* is an assignment
//! that was undone; the *choices* at a node are the values left for the variable chosen there.
//!
//! ```
//! use csp_core::{ModelBuilder, constraints::AllDifferent};
//! use csp_search::{Outcome, SearchConfig, solve};
//!
//! let mut builder = ModelBuilder::new();
//! let vars: Vec<_> = (0..3)
//!     .map(|i| builder.int_var(format!("x{i}"), 0..=2))
//!     .collect::<Result<_, _>>()
//!     .unwrap();
//! builder.post(AllDifferent::new(vars)).unwrap();
//! let model = builder.build();
//!
//! let config = SearchConfig::default().all_solutions();
//! let result = solve(&model, &config, ());
//! assert_eq!(result.outcome, Outcome::Exhausted);
//! assert_eq!(result.stats.solutions, 6);
//! ```

mod bound;
pub mod branch;
mod choices;
mod config;
mod engine;
mod estimate;
mod event;
mod interleave;
mod knuth;
mod learn;
mod lns;
pub mod order;
mod outcome_names;
pub mod portfolio;
mod solutions;
pub mod split;
mod stats;
mod trace;
pub mod value;

pub use bound::{Incumbent, SharedBound};
pub use branch::{
    Branch, Brancher, Decision, DecisionBrancher, Enumerate, IntSearch, ValueSelection,
    VariableSelection,
};
pub use choices::{SearchChoices, SearchDefaults};
pub use config::{
    Conflicts, Learning, LearningRestarts, Limits, Propagation, Restarts, SearchConfig, StopFlag,
    Strategy, TiePolicy, ValueOrderKind, VariableOrderKind, luby,
};
pub use csp_core::{Rng, rng_for};
pub use engine::{Limit, Outcome, Search, SearchResult, solve};
pub use estimate::TreeSizeEstimator;
pub use event::{FnObserver, SearchEvent, SearchObserver};
pub use interleave::{Interleaved, LEARNING_NODE_COST, TURN_NODES};
pub use knuth::{ProbeEstimate, knuth_probes, knuth_probes_on_store};
pub use lns::{Grid, LnsConfig, LnsSearch, Neighbourhood};
pub use order::{SelectCtx, VariableOrder};
pub use solutions::Solutions;
pub use stats::{LevelStats, Statistics};
pub use trace::TraceRecorder;
pub use value::ValueOrder;
