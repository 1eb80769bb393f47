use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use csp_core::VarId;

use crate::IntSearch;

/// How much reasoning follows each assignment.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
pub enum Propagation {
    /// Dijkstra's test: a value is tried only if it is consistent with the variables assigned so far.
    ///
    /// Domains are never pruned (Dijkstra, *Notes on Structured Programming*, 1970, §17). The choices
    /// at a node are counted when it is entered.
    CheckPast,
    /// Forward checking: after each assignment the constraints remove unsupported values from the
    /// unassigned variables; an emptied domain is a dead end at once.
    #[default]
    #[cfg_attr(feature = "clap", value(name = "fc"))]
    ForwardChecking,
    /// Maintaining arc consistency (MAC): forward checking, then revisions to a fixpoint.
    ///
    /// After forward checking, every constraint on a variable whose domain shrank is revised
    /// ([`csp_core::Propagator::revise`]) until none removes anything more (AC-3 over constraints);
    /// arc consistency is also established at the root before the first choice. Prunes at least what forward checking prunes; with all-different constraints (Régin's
    /// matching) far more.
    Mac,
}

impl Propagation {
    /// Whether this level removes values from domains, so that a variable's choices are its domain
    /// (forward checking and MAC), rather than being counted against the assignment (check-past).
    pub fn prunes_domains(self) -> bool {
        !matches!(self, Propagation::CheckPast)
    }
}

/// How ties between equally constrained variables are broken.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
pub enum TiePolicy {
    /// The variable declared first.
    #[default]
    #[cfg_attr(feature = "clap", value(name = "low"))]
    LowestIndex,
    /// Uniformly at random (seeded).
    Random,
    /// The variable sharing constraints with the most unassigned variables, then the lowest index.
    #[cfg_attr(feature = "clap", value(name = "degree"))]
    MaxDegree,
}

/// Which variable to branch on next.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
pub enum VariableOrderKind {
    /// Model order: the first unassigned variable (Stone & Stone's LEX).
    #[cfg_attr(feature = "clap", value(name = "lex"))]
    Lexicographic,
    /// The unassigned variable with the fewest choices left (Stone & Stone's MIN, "most constrained").
    #[default]
    #[cfg_attr(feature = "clap", value(name = "min"))]
    FewestChoices,
    /// The unassigned variable with the fewest choices per unit of weighted degree (dom/wdeg).
    ///
    /// Boussemart, Hemery, Lecoutre & Sais, *Boosting Systematic Search by Weighting Constraints*
    /// (2004): every constraint starts with weight 1 and gains 1 each time its propagation fails, so
    /// search learns which constraints are hard. See [`crate::order::DomWdeg`].
    DomWdeg,
}

/// In which order a variable's values are tried.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
pub enum ValueOrderKind {
    /// Smallest first.
    #[default]
    #[cfg_attr(feature = "clap", value(name = "asc"))]
    Ascending,
    /// Largest first.
    #[cfg_attr(feature = "clap", value(name = "desc"))]
    Descending,
    /// A seeded random permutation at every node.
    Random,
    /// Nearest the middle of the variable's initial span first (ties: the smaller value).
    #[cfg_attr(feature = "clap", value(name = "middle"))]
    MiddleOut,
}

/// What the nodes of the search branch on.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum Strategy {
    /// Value enumeration, Stone & Stone's search: the [`SearchConfig::variable_order`] chooses a
    /// variable and each of its choices is a child, in the [`SearchConfig::value_order`]. Every
    /// N-queens experiment, trace and table uses this.
    #[default]
    Enumerate,
    /// Binary decisions as MiniZinc's search annotations make them: each [`IntSearch`] in turn
    /// (`seq_search`), then the variables none of them names by dom/wdeg and `indomain_min`. An empty
    /// list is free search. Search by decisions always propagates to a fixpoint (as
    /// [`Propagation::Mac`] does), whatever [`SearchConfig::propagation`] says, since a solution is
    /// reached when every variable is fixed and only a fixpoint of checker-complete propagators makes
    /// that a solution.
    Decisions(Vec<IntSearch>),
}

/// What the search does when propagation fails: the one thing that tells a search without learning
/// from one with it. Everything else (decisions, propagation, limits, statistics, the events
/// observers see, branch and bound, neighbourhoods, portfolios and split trees) is the same search.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum Conflicts {
    /// Chronological backtracking: the failed child is undone and its next sibling tried. Every
    /// N-queens experiment, trace and table uses this, and its trees never change.
    #[default]
    Backtrack,
    /// Learning from failure (lazy clause generation): the failure is analysed back to its first
    /// unique implication point, the clause learned is kept and propagated, and the search jumps
    /// back to where that clause asserts (see [`Learning`]). Search branches by binary decisions
    /// and propagates to a fixpoint, whatever [`SearchConfig::propagation`] says.
    Learn(Learning),
}

impl Conflicts {
    /// Whether conflicts are learned from.
    pub fn learns(&self) -> bool {
        matches!(self, Conflicts::Learn(_))
    }
}

/// When a learning search restarts. Restarts keep it complete, as learned clauses carry what each
/// run proved into the next.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LearningRestarts {
    /// Run `i` ends after `base × luby(i)` conflicts (Luby, Sinclair & Zuckerman 1993).
    Luby {
        /// The conflicts of a run of Luby length 1.
        base: u64,
    },
    /// When the clauses learned lately are worse than those learned so far: the mean literal
    /// block distance of the last 50 conflicts, times 0.8, above the mean over all of them
    /// (Audemard & Simon 2012, "Refining restarts strategies for SAT and UNSAT", Glucose).
    Glucose,
    /// Never.
    Never,
}

/// How a learning search decides and restarts ([`Conflicts::Learn`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Learning {
    /// When it restarts.
    pub restarts: LearningRestarts,
    /// Under search annotations ([`Strategy::Decisions`] with searches), whether restarts happen
    /// and each switches between the annotated decisions and activity-based ones (Chuffed's free
    /// search); without it the annotated decisions are followed, then activity, and the search
    /// never restarts (Chuffed's default). Without annotations it has no effect: activity decides,
    /// with restarts.
    pub alternate: bool,
    /// Variables activity branches on first, while any of them is open (a model's own decision
    /// variables rather than the sums and flags a compiler introduced); empty: none first.
    pub first: Vec<VarId>,
    /// How strongly the propagators that offer a choice propagate while it learns
    /// ([`csp_core::PropagationProfile`]).
    pub profile: csp_core::PropagationProfile,
}

impl Default for Learning {
    /// Luby restarts of 100 conflicts a unit, annotated decisions alternating with activity, every
    /// propagator at its strongest.
    fn default() -> Self {
        Learning {
            restarts: LearningRestarts::Luby { base: 100 },
            alternate: true,
            first: Vec::new(),
            profile: csp_core::PropagationProfile::Strongest,
        }
    }
}

/// Randomised restarts (Luby, Sinclair & Zuckerman's universal sequence): the search starts again from
/// the root after `base_nodes × luby(i)` nodes in run `i`, while no solution has been found.
///
/// With randomised orderings this cuts the heavy tail of backtracking (a run that went wrong early is
/// abandoned instead of being searched to the bottom). It keeps the search complete: the budgets grow
/// without bound, so some run always finishes the tree, and once a solution is found there are no more
/// restarts, so that run goes on exactly as a plain search would (counting and "all solutions" stay
/// exact). Without randomness in the orderings every run would repeat the first; restarts are then
/// pointless, though still correct — except under dom/wdeg, whose weights carry over from run to run.
///
/// The same rule holds under optimisation: restarts end with the first solution, and branch and bound
/// then runs as a plain depth-first search. Measured on Golomb rulers, ft06, knapsacks, queens and
/// Sudoku (`cargo bench --bench models -- free`), restarting after each improving solution or during
/// the proof multiplied the nodes of the proof (knapsack of 25 items: 939,000 against 59,000; Golomb
/// with 8 marks: 215,000 against 13,800) while helping no model, since nothing is learnt but weights.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Restarts {
    /// The node budget of a run of Luby length 1.
    pub base_nodes: u64,
}

/// The Luby sequence 1, 1, 2, 1, 1, 2, 4, 1, 1, 2, 1, 1, 2, 4, 8, … at position `i` (from 1).
pub fn luby(i: u64) -> u64 {
    assert!(i >= 1, "the Luby sequence starts at 1");
    let mut i = i;
    loop {
        // Find k with 2^(k-1) <= i < 2^k ... if i = 2^k - 1 the term is 2^(k-1); otherwise recurse on
        // the position within the repeated prefix.
        let k = 64 - i.leading_zeros() as u64;
        if i == (1u64 << k) - 1 {
            return 1 << (k - 1);
        }
        i -= (1u64 << (k - 1)) - 1;
    }
}

/// When to give up. `None` means no limit.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Limits {
    /// Stop before making more than this many assignments.
    pub nodes: Option<u64>,
    /// Stop once this many assignments have been undone.
    pub backtracks: Option<u64>,
    /// Stop once this much time has passed (checked every 1,024 nodes).
    pub time: Option<Duration>,
    /// Stop once this many solutions have been found; under optimisation, this many improving ones
    /// (FlatZinc's `-n`). Unlike [`SearchConfig::solution_limit`] it also applies to optimisation.
    pub solutions: Option<u64>,
}

/// A flag another thread raises to stop a search (a user's Ctrl-C, a caller's cancel): the search
/// reads it with the clock, every few hundred nodes, and ends with [`crate::Outcome::Stopped`].
/// Clones share the flag, so one flag stops every search of a portfolio or a neighbourhood search.
#[derive(Debug, Clone, Default)]
pub struct StopFlag(Arc<AtomicBool>);

impl StopFlag {
    /// A flag not raised.
    pub fn new() -> Self {
        StopFlag::default()
    }

    /// Raises the flag: every search reading it stops soon.
    pub fn stop(&self) {
        self.0.store(true, Ordering::Relaxed);
    }

    /// Whether the flag is raised.
    #[inline]
    pub fn is_stopped(&self) -> bool {
        self.0.load(Ordering::Relaxed)
    }
}

/// Two flags are equal when they are the same flag.
impl PartialEq for StopFlag {
    fn eq(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }
}

impl Eq for StopFlag {}

/// Everything that configures one run of [`crate::solve`] or [`crate::Search::new`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SearchConfig {
    /// What the nodes branch on: value enumeration (with the orderings below) or decisions.
    pub strategy: Strategy,
    /// The variable ordering.
    pub variable_order: VariableOrderKind,
    /// How [`VariableOrderKind::FewestChoices`] and [`VariableOrderKind::DomWdeg`] break ties.
    pub ties: TiePolicy,
    /// The value ordering.
    pub value_order: ValueOrderKind,
    /// The propagation level.
    pub propagation: Propagation,
    /// Stop after this many solutions; `None` explores the whole tree (all solutions, or a count).
    /// A model with an objective ignores it: branch and bound runs until the optimum is proven or a
    /// limit ([`Limits`]) stops it.
    pub solution_limit: Option<u64>,
    /// Node, backtrack and time limits.
    pub limits: Limits,
    /// Restart from the root while no solution is found (`None`: never).
    pub restarts: Option<Restarts>,
    /// The seed for every random choice of the run.
    pub seed: u64,
    /// What happens at a failure: backtracking, or learning from it.
    pub conflicts: Conflicts,
    /// A flag that stops the search when raised (`None`: only the limits stop it).
    pub stop: Option<StopFlag>,
}

impl SearchConfig {
    /// Whether the search's [`stop`](SearchConfig::stop) flag is raised.
    pub fn stopped(&self) -> bool {
        self.stop.as_ref().is_some_and(StopFlag::is_stopped)
    }

    /// Whether a search with this configuration lets its store keep a rows-and-lines constraint
    /// itself ([`csp_core::Store::keep_lines`]): value enumeration under forward checking, without
    /// learning. The store then takes no removal onto its trail, so a caller sizing the search's
    /// memory before building the model (as `nqueens_model` does) can count a bit per line instead
    /// of a trailed removal per value. The store still declines a model whose constraint does not
    /// qualify (an objective, another constraint on its rows), and then trails removals.
    pub fn lets_store_keep_lines(&self) -> bool {
        self.strategy == Strategy::Enumerate
            && self.propagation == Propagation::ForwardChecking
            && !self.conflicts.learns()
    }
}

impl Default for SearchConfig {
    /// MIN (fewest choices, lowest-index ties, ascending values) with forward checking, stopping at the
    /// first solution.
    fn default() -> Self {
        SearchConfig {
            strategy: Strategy::Enumerate,
            variable_order: VariableOrderKind::FewestChoices,
            ties: TiePolicy::LowestIndex,
            value_order: ValueOrderKind::Ascending,
            propagation: Propagation::ForwardChecking,
            solution_limit: Some(1),
            limits: Limits::default(),
            restarts: None,
            seed: 0,
            conflicts: Conflicts::Backtrack,
            stop: None,
        }
    }
}

impl SearchConfig {
    /// Stone & Stone's LEX, which is Dijkstra's program: model order, ascending values, check-past.
    pub fn lex() -> Self {
        SearchConfig {
            variable_order: VariableOrderKind::Lexicographic,
            propagation: Propagation::CheckPast,
            ..Self::default()
        }
    }

    /// Stone & Stone's MIN: fewest choices (lowest-index ties), ascending values, forward checking.
    pub fn min() -> Self {
        Self::default()
    }

    /// The fast preset for a model of `num_vars` variables: MIN with forward checking, random ties,
    /// middle-out values and Luby restarts with a base of `4 · num_vars + 100` nodes (room for a full
    /// descent and some backtracking before the first restart). Random ties alone have a heavy tail on
    /// N-queens (about one run in ten over n = 4..1000 needed more than 100n nodes); the restarts cut
    /// it, and the whole preset solved every board from 4 to 1000 over five seeds (`benches/min_fc_sweep`).
    pub fn fast_preset(num_vars: usize) -> Self {
        SearchConfig {
            ties: TiePolicy::Random,
            value_order: ValueOrderKind::MiddleOut,
            restarts: Some(Restarts {
                base_nodes: 4 * num_vars as u64 + 100,
            }),
            ..Self::min()
        }
    }

    /// Free search, as a CP solver runs a model that names no search: binary decisions by dom/wdeg
    /// and `indomain_min` over every variable, propagation to a fixpoint, and Luby restarts of 100
    /// nodes a unit until the first solution (the weights learnt in one run guide the next).
    ///
    /// Chosen by measurement (`cargo bench --bench models -- free`): over Golomb rulers, ft06,
    /// knapsacks, 50 and 200 queens and three hard Sudoku, it settled all ten in the fewest nodes
    /// and least time (271,000 nodes, 3.8 s), ahead of dom/wdeg without restarts (362,000 nodes,
    /// 8.8 s, 200 queens taking 91,000 nodes against 1,049), split values, and first-fail.
    pub fn free() -> Self {
        SearchConfig {
            strategy: Strategy::Decisions(Vec::new()),
            propagation: Propagation::Mac,
            restarts: Some(Restarts { base_nodes: 100 }),
            ..Self::default()
        }
    }

    /// Search by the given MiniZinc-style searches (then the remaining variables by dom/wdeg and
    /// `indomain_min`), propagating to a fixpoint, without restarts.
    pub fn decisions(searches: Vec<IntSearch>) -> Self {
        SearchConfig {
            strategy: Strategy::Decisions(searches),
            propagation: Propagation::Mac,
            ..Self::default()
        }
    }

    /// The same configuration, learning from failure as `learning` says.
    pub fn learning(mut self, learning: Learning) -> Self {
        self.conflicts = Conflicts::Learn(learning);
        self
    }

    /// The same configuration, exploring the whole tree.
    pub fn all_solutions(mut self) -> Self {
        self.solution_limit = None;
        self
    }

    /// The same configuration, stopping after `k` solutions.
    pub fn first(mut self, k: u64) -> Self {
        self.solution_limit = Some(k);
        self
    }
}

#[cfg(test)]
mod tests {
    use super::luby;

    #[test]
    fn luby_sequence_matches_its_definition() {
        let first: Vec<u64> = (1..=15).map(luby).collect();
        assert_eq!(first, [1, 1, 2, 1, 1, 2, 4, 1, 1, 2, 1, 1, 2, 4, 8]);
        assert_eq!(luby(31), 16);
        assert_eq!(luby(32), 1);
    }
}
