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
    /// Learning from failure ([`csp_search::Conflicts::Learn`]): in no search, in every search, or
    /// a learning search beside one that does not; `None` chooses (see [`crate::plan::plan`]).
    pub learning: Option<Learns>,
    /// How strongly the propagators that offer a choice propagate in a learning search
    /// ([`csp_core::PropagationProfile`], `--learning-profile strongest|short-reasons`); `None`: the
    /// measured default ([`crate::plan::LEARNING_PROFILE`]). A search that does not learn
    /// always runs every propagator at its strongest.
    pub learning_profile: Option<csp_core::PropagationProfile>,
    /// For the first solution of a satisfaction problem with search annotations, searched by one
    /// thread without learning: the annotated search and free search in turn, a slice of nodes
    /// each ([`csp_search::Interleaved`]); `None`: on.
    pub interleave: Option<bool>,
    /// When the run must end (`-t`, counted from the start of the whole run, reading included).
    pub deadline: Option<Instant>,
    /// Time spent reading and compiling the model, reported as `initTime`.
    pub init_time: Duration,
    /// A flag another thread raises to end the run (a Python caller's Ctrl-C): every search of the
    /// run reads it ([`csp_search::SearchConfig::stop`]).
    pub stop: Option<csp_search::StopFlag>,
}

/// Whether the searches of a run learn from failure (`--learning off|on|mix`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Learns {
    /// None does.
    Off,
    /// Every search does.
    On,
    /// A learning search beside one that does not: in turn on one thread, sharing the bound (an
    /// enumeration, which two searches would repeat, does not learn), or as workers of `-p N`.
    Mix,
}

impl Learns {
    /// The name the command line gives it.
    pub fn name(self) -> &'static str {
        match self {
            Learns::Off => "off",
            Learns::On => "on",
            Learns::Mix => "mix",
        }
    }
}

impl std::str::FromStr for Learns {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        [Learns::Off, Learns::On, Learns::Mix]
            .into_iter()
            .find(|learns| learns.name() == text)
            .ok_or_else(|| format!("`off`, `on` or `mix`, not `{text}`"))
    }
}

/// The name the command line gives a propagation profile.
pub fn profile_name(profile: csp_core::PropagationProfile) -> &'static str {
    match profile {
        csp_core::PropagationProfile::Strongest => "strongest",
        csp_core::PropagationProfile::ShortReasons => "short-reasons",
    }
}

/// A propagation profile from its name on the command line (`strongest` or `short-reasons`).
pub fn parse_profile(text: &str) -> Result<csp_core::PropagationProfile, String> {
    [
        csp_core::PropagationProfile::Strongest,
        csp_core::PropagationProfile::ShortReasons,
    ]
    .into_iter()
    .find(|&p| profile_name(p) == text)
    .ok_or_else(|| format!("`strongest` or `short-reasons`, not `{text}`"))
}
