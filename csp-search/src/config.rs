use std::time::Duration;

/// How much reasoning follows each assignment.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Propagation {
    /// Dijkstra's test (`../shared/seeds/002_c37b5e1f2a9e69e0.txt`, §17): domains are never pruned; a
    /// value is tried only if it is consistent with the variables assigned so far. The choices at a node
    /// are counted when it is entered.
    CheckPast,
    /// Forward checking: after each assignment the constraints remove unsupported values from the
    /// unassigned variables; an emptied domain is a dead end at once.
    #[default]
    ForwardChecking,
}

/// How ties between equally constrained variables are broken.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum TiePolicy {
    /// The variable declared first.
    #[default]
    LowestIndex,
    /// Uniformly at random (seeded).
    Random,
    /// The variable sharing constraints with the most unassigned variables, then the lowest index.
    MaxDegree,
}

/// Which variable to branch on next.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum VariableOrderKind {
    /// Model order: the first unassigned variable (Stone & Stone's LEX).
    Lexicographic,
    /// The unassigned variable with the fewest choices left (Stone & Stone's MIN, "most constrained").
    #[default]
    FewestChoices,
}

/// In which order a variable's values are tried.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ValueOrderKind {
    /// Smallest first.
    #[default]
    Ascending,
    /// Largest first.
    Descending,
    /// A seeded random permutation at every node.
    Random,
    /// Nearest the middle of the variable's initial span first (ties: the smaller value).
    MiddleOut,
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
}

/// Everything that configures one run of [`crate::solve`] or [`crate::Search::new`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SearchConfig {
    /// The variable ordering.
    pub variable_order: VariableOrderKind,
    /// How [`VariableOrderKind::FewestChoices`] breaks ties.
    pub ties: TiePolicy,
    /// The value ordering.
    pub value_order: ValueOrderKind,
    /// The propagation level.
    pub propagation: Propagation,
    /// Stop after this many solutions; `None` explores the whole tree (all solutions, or a count).
    pub solution_limit: Option<u64>,
    /// Node, backtrack and time limits.
    pub limits: Limits,
    /// The seed for every random choice of the run.
    pub seed: u64,
}

impl Default for SearchConfig {
    /// MIN (fewest choices, lowest-index ties, ascending values) with forward checking, stopping at the
    /// first solution.
    fn default() -> Self {
        SearchConfig {
            variable_order: VariableOrderKind::FewestChoices,
            ties: TiePolicy::LowestIndex,
            value_order: ValueOrderKind::Ascending,
            propagation: Propagation::ForwardChecking,
            solution_limit: Some(1),
            limits: Limits::default(),
            seed: 0,
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
