//! What a FlatZinc run is asked for ([`RunOptions`]): a leaf, so that the module that decides how
//! a run searches ([`crate::plan`]) and the one that runs it ([`crate::run`]) both read it.

use std::time::{Duration, Instant};

/// What a run is asked for: FlatZinc's standard options, and this solver's own. How they combine
/// is decided in one place, [`crate::plan::plan`], which also says which of them a run ignores.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RunOptions {
    /// `-a`: every solution of a satisfaction problem, every improving one of an optimisation.
    pub all_solutions: bool,
    /// `-n N`: stop after this many solutions (under optimisation, this many improving ones).
    pub solutions: Option<u64>,
    /// `-i`: print every improving solution of an optimisation, not only the last.
    pub intermediate: bool,
    /// `-f`: ignore the model's search annotations (free search: dom/wdeg with restarts; under
    /// learning, activity-based search).
    pub free_search: bool,
    /// `-s`: print statistics as `%%%mzn-stat:` lines.
    pub statistics: bool,
    /// `-r`: the seed of every random choice.
    pub seed: u64,
    /// Large-neighbourhood search alongside branch and bound, for an optimisation
    /// ([`csp_search::LnsSearch`]); `None`: on.
    pub lns: Option<bool>,
    /// `-p N`: searches run at once ([`csp_search::portfolio`]); 0 and 1 run one.
    pub threads: usize,
    /// Whether the portfolio's result must not depend on thread timing (its workers meet every
    /// few thousand nodes to exchange bounds).
    pub deterministic: bool,
    /// With `-p N`: whether the workers search one tree split into subproblems
    /// ([`csp_search::split`]) rather than a portfolio of different searches; `None` chooses by
    /// the problem ([`crate::plan::splits`]).
    pub split: Option<bool>,
    /// Learning from failure ([`csp_search::Conflicts::Learn`]) in every search; `None` chooses
    /// (see [`crate::plan::plan`]).
    pub learning: Option<bool>,
    /// For the first solution of a satisfaction problem with search annotations, searched by one
    /// thread without learning: the annotated search and free search in turn, a slice of nodes
    /// each ([`csp_search::Interleaved`]); `None`: on.
    pub interleave: Option<bool>,
    /// When the run must end (`-t`, counted from the start of the whole run, reading included).
    pub deadline: Option<Instant>,
    /// Time spent reading and compiling the model, reported as `initTime`.
    pub init_time: Duration,
}
