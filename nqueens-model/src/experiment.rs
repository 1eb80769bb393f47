//! Stone & Stone's experiment (*Efficient Search Techniques — An Empirical Study of the N-Queens
//! Problem*, 1987): LEX against MIN over a range of boards, each stopped after K solutions or run
//! over the whole tree; the backtracks per solution of their Table 2, and the online estimate of the
//! full tree beside its actual size of their Table 1. [`stone_tables`] gives every measured cell;
//! `csp queens compare` renders them as tables, CSV, JSON and figures.
//!
//! ```
//! use csp_search::VariableOrderKind;
//! use nqueens_model::experiment::{Experiment, stone_tables};
//!
//! let experiment = Experiment {
//!     sizes: vec![8],
//!     orders: vec![VariableOrderKind::Lexicographic],
//!     solutions: vec![1],
//!     ..Experiment::default()
//! };
//! let cells = stone_tables(&experiment)?;
//! // Table 2: 105 backtracks to LEX's first solution of eight queens.
//! assert_eq!(cells[0].backtracks_per_solution, Some(105.0));
//! // The full LEX tree of eight queens: the root and the 2,056 consistent partial placements.
//! assert_eq!(cells[1].actual_tree_size, Some(2_057));
//! # Ok::<(), nqueens_model::QueensError>(())
//! ```

use csp_core::Model;
use csp_search::{
    Limits, Outcome, Propagation, SearchConfig, Statistics, StopFlag, TiePolicy, TreeSizeEstimator,
    VariableOrderKind, solve,
};

use crate::{Encoding, QueensError, model};

/// What the experiment measures.
#[derive(Debug, Clone, PartialEq)]
pub struct Experiment {
    /// The boards.
    pub sizes: Vec<usize>,
    /// The orderings compared. LEX runs check-past and MIN forward checking, as in the paper,
    /// unless [`Experiment::propagation`] says otherwise.
    pub orders: Vec<VariableOrderKind>,
    /// One propagation level for every ordering.
    pub propagation: Option<Propagation>,
    /// The numbers of solutions after which each terse search stops (the whole tree is searched as
    /// well).
    pub solutions: Vec<u64>,
    /// Break MIN's ties at random (the paper's tie-breaking is unspecified), averaging over
    /// [`Experiment::seeds`] seeds.
    pub ties_random: bool,
    /// How many seeds random ties average over.
    pub seeds: u64,
    /// The node budget of each search; a cell over it says so.
    pub budget: u64,
    /// Raised from another thread, stops every search of the experiment at once (its cells then
    /// read as over the budget); see [`csp_search::StopFlag`].
    pub stop: Option<StopFlag>,
}

impl Default for Experiment {
    /// The paper's: LEX and MIN, after 1 and 10 solutions, ties low, a budget of 10⁷ nodes.
    fn default() -> Self {
        Experiment {
            sizes: (7..=13).collect(),
            orders: vec![
                VariableOrderKind::Lexicographic,
                VariableOrderKind::FewestChoices,
            ],
            propagation: None,
            solutions: vec![1, 10],
            ties_random: false,
            seeds: 1,
            budget: 10_000_000,
            stop: None,
        }
    }
}

/// One measured cell: an ordering on one board, stopped after `solutions` solutions (`None`: the
/// whole tree).
#[derive(Debug, Clone, PartialEq)]
pub struct Cell {
    /// The board.
    pub n: usize,
    /// The ordering.
    pub order: VariableOrderKind,
    /// Its propagation level.
    pub propagation: Propagation,
    /// The solutions asked for; `None` for the whole tree.
    pub solutions: Option<u64>,
    /// Whether the search finished within the node budget (for every seed).
    pub within_budget: bool,
    /// Whether the search finished without any solution (n = 2 and 3): no backtracks per solution
    /// exist then.
    pub no_solution: bool,
    /// Backtracks per solution found, averaged over the seeds (Table 2's measure); `None` over the
    /// budget or without a solution.
    pub backtracks_per_solution: Option<f64>,
    /// Stone & Stone's online estimate of the whole tree when the search stopped, averaged over
    /// the seeds (Table 1).
    pub estimated_tree_size: Option<f64>,
    /// The whole tree's actual size, root included (whole searches within the budget only).
    pub actual_tree_size: Option<u64>,
}

impl Experiment {
    /// The propagation of `order`: [`Experiment::propagation`], or the paper's (check-past for
    /// LEX, forward checking otherwise).
    pub fn propagation_for(&self, order: VariableOrderKind) -> Propagation {
        self.propagation.unwrap_or(match order {
            VariableOrderKind::Lexicographic => Propagation::CheckPast,
            VariableOrderKind::FewestChoices | VariableOrderKind::DomWdeg => {
                Propagation::ForwardChecking
            }
        })
    }

    /// The configuration of one search: the ordering with its propagation, the budget as a node
    /// limit, stopping after `solutions` solutions.
    pub fn config(
        &self,
        order: VariableOrderKind,
        solutions: Option<u64>,
        seed: u64,
    ) -> SearchConfig {
        SearchConfig {
            variable_order: order,
            ties: if self.ties_random {
                TiePolicy::Random
            } else {
                TiePolicy::LowestIndex
            },
            propagation: self.propagation_for(order),
            solution_limit: solutions,
            limits: Limits {
                nodes: Some(self.budget),
                ..Limits::default()
            },
            seed,
            stop: self.stop.clone(),
            ..SearchConfig::default()
        }
    }

    /// How many seeds a cell averages over: one unless ties are random.
    fn seed_count(&self) -> u64 {
        if self.ties_random {
            self.seeds.max(1)
        } else {
            1
        }
    }
}

/// Every cell of the experiment, board by board, ordering by ordering, each number of solutions
/// and then the whole tree. A board too large for the engine is refused before any search runs.
pub fn stone_tables(experiment: &Experiment) -> Result<Vec<Cell>, QueensError> {
    let models = experiment
        .sizes
        .iter()
        .map(|&n| model(n, Encoding::Counters))
        .collect::<Result<Vec<Model>, _>>()?;
    let mut cells = Vec::new();
    for (&n, model) in experiment.sizes.iter().zip(&models) {
        for &order in &experiment.orders {
            for &solutions in &experiment.solutions {
                cells.push(measure(model, n, order, experiment, Some(solutions)));
            }
            cells.push(measure(model, n, order, experiment, None));
        }
    }
    Ok(cells)
}

/// One terse search's statistics (stopped at its first solution, seed 0) on board `n`, for the
/// paper's profiles by depth: the average branching factor (Fig 1) and the backtracks (Fig 3).
pub fn terse_profile(
    experiment: &Experiment,
    n: usize,
    order: VariableOrderKind,
) -> Result<Statistics, QueensError> {
    let model = model(n, Encoding::Counters)?;
    let mut stats = Statistics::default();
    solve(&model, &experiment.config(order, Some(1), 0), &mut stats);
    Ok(stats)
}

fn measure(
    model: &Model,
    n: usize,
    order: VariableOrderKind,
    experiment: &Experiment,
    solutions: Option<u64>,
) -> Cell {
    let seeds = experiment.seed_count();
    let (mut within_budget, mut backtracks, mut estimates) = (true, 0.0, 0.0);
    let mut no_solution = false;
    let mut actual = None;
    for seed in 0..seeds {
        let config = experiment.config(order, solutions, seed);
        let mut observers = (TreeSizeEstimator::new(), Statistics::default());
        let result = solve(model, &config, &mut observers);
        let (estimator, stats) = observers;
        let finished = matches!(result.outcome, Outcome::Solved | Outcome::Exhausted);
        within_budget &= finished;
        // A board without solutions has no backtracks per solution: dividing by one instead would
        // give a number for a ratio that does not exist.
        no_solution |= finished && stats.solutions == 0;
        backtracks += stats.backtracks as f64 / stats.solutions.max(1) as f64;
        estimates += estimator.estimated_tree_size();
        if solutions.is_none() && finished {
            actual = Some(stats.tree_nodes());
        }
    }
    let seeds = seeds as f64;
    Cell {
        n,
        order,
        propagation: experiment.propagation_for(order),
        solutions,
        within_budget,
        no_solution,
        backtracks_per_solution: (within_budget && !no_solution).then_some(backtracks / seeds),
        estimated_tree_size: Some(estimates / seeds),
        actual_tree_size: actual,
    }
}
