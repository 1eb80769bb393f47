//! The engine for real models against an oracle: on random small models with wide domains (values
//! up to ±10⁹), Booleans and reified constraints, every kind of branching (value enumeration under
//! each propagation level, binary decisions under every MiniZinc variable and value selection,
//! `seq_search` groups, restarts) finds exactly the solutions brute-force enumeration finds, and
//! branch and bound finds the optimum that enumeration finds.

use std::ops::ControlFlow;

use csp_core::constraints::{
    AllDifferent, Linear, NotEqual, Predicate, Reification, Reified, Relation, Table,
};
use csp_core::{Literal, Model, ModelBuilder, Post, VarId};
use csp_search::{
    FnObserver, Grid, IntSearch, Learning, Limits, LnsConfig, LnsSearch, Neighbourhood, Outcome,
    Propagation, Restarts, Search, SearchConfig, SearchEvent, Strategy as Branching,
    TreeSizeEstimator, ValueOrderKind, ValueSelection, VariableOrderKind, VariableSelection,
    portfolio::{PortfolioConfig, Worker, run_portfolio},
    solve,
};
use proptest::prelude::*;

/// A constraint over the integer variables, in plain data so proptest can shrink it. Values are
/// small integers scaled by the problem's `scale` when the model is built.
#[derive(Debug, Clone)]
enum Spec {
    NotEqual(usize, i32, usize, i32),
    AllDifferent(Vec<usize>),
    Table(Vec<usize>, Vec<Vec<i32>>),
    /// Terms, relation (0: =, 1: ≤, 2: ≠), right-hand side.
    Linear(Vec<(i32, usize)>, u8, i32),
    /// `x < y`, as a closure the engine knows nothing about.
    Less(usize, usize),
}

/// A reified constraint: Boolean `b` (an index among the Booleans) ↔ or → `spec`.
#[derive(Debug, Clone)]
struct Reif {
    b: usize,
    spec: Spec,
    equivalent: bool,
}

#[derive(Debug, Clone)]
struct Problem {
    /// Small values per integer variable, before scaling.
    domains: Vec<Vec<i32>>,
    /// Every value is multiplied by this: 1 keeps bit sets, 10⁸ makes wide interval domains.
    scale: i32,
    booleans: usize,
    constraints: Vec<Spec>,
    reified: Vec<Reif>,
    /// `Σ booleans ≥ k`, so the Booleans are constrained by more than their reifications.
    at_least: Option<i32>,
}

fn distinct_vars(num_vars: usize, max: usize) -> impl Strategy<Value = Vec<usize>> {
    proptest::sample::subsequence((0..num_vars).collect::<Vec<_>>(), 1..=max.min(num_vars))
        .prop_shuffle()
}

fn pair(num_vars: usize) -> impl Strategy<Value = (usize, usize)> {
    (0..num_vars, 0..num_vars - 1).prop_map(|(a, b)| (a, if b >= a { b + 1 } else { b }))
}

fn spec(num_vars: usize) -> BoxedStrategy<Spec> {
    let nary = prop_oneof![
        distinct_vars(num_vars, 3).prop_map(Spec::AllDifferent),
        distinct_vars(num_vars, 3)
            .prop_flat_map(|vars| {
                let arity = vars.len();
                (
                    Just(vars),
                    prop::collection::vec(prop::collection::vec(-2..=3i32, arity), 0..10),
                )
            })
            .prop_map(|(vars, tuples)| Spec::Table(vars, tuples)),
        (
            distinct_vars(num_vars, 3).prop_flat_map(|vars| {
                let n = vars.len();
                (Just(vars), prop::collection::vec(-3..=3i32, n))
            }),
            0..3u8,
            -5..=6i32
        )
            .prop_map(|((vars, coefs), relation, rhs)| {
                Spec::Linear(coefs.into_iter().zip(vars).collect(), relation, rhs)
            }),
    ];
    if num_vars < 2 {
        return nary.boxed();
    }
    prop_oneof![
        (pair(num_vars), -2..=2i32, -2..=2i32)
            .prop_map(|((x, y), a, b)| Spec::NotEqual(x, a, y, b)),
        pair(num_vars).prop_map(|(x, y)| Spec::Less(x, y)),
        nary,
    ]
    .boxed()
}

fn problem() -> impl Strategy<Value = Problem> {
    (1..=4usize, 0..=2usize)
        .prop_flat_map(|(num_vars, booleans)| {
            let reified = if booleans == 0 {
                Just(Vec::new()).boxed()
            } else {
                prop::collection::vec(
                    (0..booleans, spec(num_vars), any::<bool>()).prop_map(
                        |(b, spec, equivalent)| Reif {
                            b,
                            spec,
                            equivalent,
                        },
                    ),
                    0..=2,
                )
                .boxed()
            };
            (
                prop::collection::vec(prop::collection::btree_set(-2..=3i32, 1..=4), num_vars),
                prop_oneof![Just(1), Just(1_000), Just(100_000_000)],
                Just(booleans),
                prop::collection::vec(spec(num_vars), 0..=4),
                reified,
                prop::option::of(0..=2i32),
            )
        })
        .prop_map(Problem::assemble)
}

/// What the problem strategies draw: domains, scale, Booleans, constraints, reifications and the
/// Booleans' lower bound on their sum.
type Drawn = (
    Vec<std::collections::BTreeSet<i32>>,
    i32,
    usize,
    Vec<Spec>,
    Vec<Reif>,
    Option<i32>,
);

impl Problem {
    fn assemble((domains, scale, booleans, constraints, reified, at_least): Drawn) -> Problem {
        Problem {
            domains: domains
                .into_iter()
                .map(|d| d.into_iter().collect())
                .collect(),
            scale,
            booleans,
            constraints,
            reified,
            at_least: at_least.filter(|_| booleans > 0),
        }
    }

    fn num_vars(&self) -> usize {
        self.domains.len() + self.booleans
    }

    /// The constraint of `spec` over `vars`, its values scaled.
    fn constraint(&self, spec: &Spec, vars: &[VarId]) -> Box<dyn Post> {
        let s = self.scale;
        match spec {
            Spec::NotEqual(x, a, y, b) => {
                Box::new(NotEqual::with_offsets(vars[*x], a * s, vars[*y], b * s))
            }
            Spec::AllDifferent(v) => {
                Box::new(AllDifferent::new(v.iter().map(|&i| vars[i]).collect()))
            }
            Spec::Table(v, tuples) => Box::new(
                Table::new(
                    v.iter().map(|&i| vars[i]).collect(),
                    tuples
                        .iter()
                        .map(|t| t.iter().map(|x| x * s).collect())
                        .collect(),
                )
                .unwrap(),
            ),
            Spec::Linear(terms, relation, rhs) => Box::new(Linear::with_i64(
                terms
                    .iter()
                    .map(|&(a, i)| (i64::from(a), vars[i]))
                    .collect(),
                match relation {
                    0 => Relation::Equal,
                    1 => Relation::LessOrEqual,
                    _ => Relation::NotEqual,
                },
                i64::from(*rhs) * i64::from(s),
            )),
            Spec::Less(x, y) => Box::new(Predicate::new("x < y", vars[*x], vars[*y], |a, b| a < b)),
        }
    }

    /// The model; its integer variables come first, then the Booleans.
    fn build(&self, objective: Option<(usize, bool)>) -> Model {
        let mut builder = ModelBuilder::new();
        let mut vars: Vec<VarId> = self
            .domains
            .iter()
            .enumerate()
            .map(|(i, d)| {
                builder
                    .int_var_with_values(format!("x{i}"), d.iter().map(|v| v * self.scale))
                    .unwrap()
            })
            .collect();
        let booleans: Vec<VarId> = (0..self.booleans)
            .map(|i| builder.bool_var(format!("b{i}")).unwrap())
            .collect();
        for spec in &self.constraints {
            builder.post_boxed(self.constraint(spec, &vars)).unwrap();
        }
        for reif in &self.reified {
            let mode = if reif.equivalent {
                Reification::Equivalent
            } else {
                Reification::Implies
            };
            let reified = Reified::new(booleans[reif.b], self.constraint(&reif.spec, &vars), mode);
            builder.post(reified).unwrap();
        }
        if let Some(k) = self.at_least {
            let terms = booleans.iter().map(|&b| (-1, b)).collect();
            builder
                .post(Linear::new(terms, Relation::LessOrEqual, -k))
                .unwrap();
        }
        vars.extend(booleans);
        if let Some((var, minimize)) = objective {
            let var = vars[var % vars.len()];
            if minimize {
                builder.minimize(var).unwrap();
            } else {
                builder.maximize(var).unwrap();
            }
        }
        builder.build()
    }
}

/// Every complete assignment the model's checkers accept, in lexicographic order.
fn brute_force(model: &Model) -> Vec<Vec<i32>> {
    let domains: Vec<Vec<i32>> = model
        .vars()
        .map(|v| model.initial_domain(v).values().collect())
        .collect();
    let mut solutions = Vec::new();
    let mut current = vec![0; domains.len()];
    fn walk(
        i: usize,
        domains: &[Vec<i32>],
        model: &Model,
        current: &mut Vec<i32>,
        out: &mut Vec<Vec<i32>>,
    ) {
        if i == current.len() {
            if model.is_solution(current) {
                out.push(current.clone());
            }
            return;
        }
        for &v in &domains[i] {
            current[i] = v;
            walk(i + 1, domains, model, current, out);
        }
    }
    walk(0, &domains, model, &mut current, &mut solutions);
    solutions
}

/// A decision strategy: one `int_search` over a random subset of the variables (the rest falls to
/// the default), or two in sequence.
fn decisions(num_vars: usize) -> impl Strategy<Value = Branching> {
    searches(num_vars).prop_map(Branching::Decisions)
}

/// Up to two `int_search`es over random subsets of the variables.
fn searches(num_vars: usize) -> impl Strategy<Value = Vec<IntSearch>> {
    let search = (
        proptest::sample::subsequence((0..num_vars).collect::<Vec<_>>(), 0..=num_vars),
        proptest::sample::select(VariableSelection::ALL.to_vec()),
        proptest::sample::select(ValueSelection::ALL.to_vec()),
    )
        .prop_map(|(vars, variable, value)| {
            IntSearch::new(
                vars.into_iter().map(VarId::from_index).collect(),
                variable,
                value,
            )
        });
    prop::collection::vec(search, 0..=2)
}

/// Any search: value enumeration under every propagation level, or decisions; with or without tiny
/// restart budgets (restarting at almost every node is the hardest case for completeness).
fn config(num_vars: usize) -> impl Strategy<Value = SearchConfig> {
    let enumerate = (
        prop_oneof![
            Just(VariableOrderKind::Lexicographic),
            Just(VariableOrderKind::FewestChoices),
            Just(VariableOrderKind::DomWdeg)
        ],
        prop_oneof![
            Just(ValueOrderKind::Ascending),
            Just(ValueOrderKind::Random),
            Just(ValueOrderKind::MiddleOut)
        ],
        prop_oneof![
            Just(Propagation::CheckPast),
            Just(Propagation::ForwardChecking),
            Just(Propagation::Mac)
        ],
    )
        .prop_map(|(variable_order, value_order, propagation)| SearchConfig {
            variable_order,
            value_order,
            propagation,
            ..SearchConfig::default()
        });
    let decide = decisions(num_vars).prop_map(|strategy| SearchConfig {
        strategy,
        ..SearchConfig::default()
    });
    (
        prop_oneof![enumerate, decide],
        any::<u64>(),
        prop_oneof![
            Just(None),
            (1..6u64).prop_map(|base_nodes| Some(Restarts { base_nodes }))
        ],
    )
        .prop_map(|(config, seed, restarts)| SearchConfig {
            seed,
            restarts,
            ..config.all_solutions()
        })
}

fn problem_and_config() -> impl Strategy<Value = (Problem, SearchConfig)> {
    problem().prop_flat_map(|p| {
        let n = p.num_vars();
        (Just(p), config(n))
    })
}

/// A solution as the search reported it, with its objective value.
type Reported = (Vec<i32>, Option<i32>);

/// Runs a search, collecting its solutions and their objective values.
fn run(model: &Model, config: &SearchConfig) -> (csp_search::SearchResult, Vec<Reported>) {
    let mut found = Vec::new();
    let result = solve(
        model,
        config,
        FnObserver(|event: &SearchEvent<'_>| {
            if let SearchEvent::Solution {
                values, objective, ..
            } = event
            {
                found.push((values.to_vec(), *objective));
            }
            ControlFlow::Continue(())
        }),
    );
    (result, found)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(20_000))]

    #[test]
    fn every_branching_finds_exactly_the_brute_force_solutions(
        (problem, config) in problem_and_config(),
    ) {
        let model = problem.build(None);
        let expected = brute_force(&model);
        let (result, found) = run(&model, &config);
        prop_assert_eq!(result.outcome, Outcome::Exhausted);
        prop_assert_eq!(result.stats.solutions, found.len() as u64);
        prop_assert_eq!(
            result.stats.backtracks + result.stats.committed,
            result.stats.nodes,
            "a full search undoes everything"
        );
        let mut found: Vec<Vec<i32>> = found.into_iter().map(|(v, _)| v).collect();
        found.sort();
        let before = found.len();
        found.dedup();
        prop_assert_eq!(found.len(), before, "no solution is reported twice");
        prop_assert_eq!(found, expected);
    }

    #[test]
    fn branch_and_bound_finds_the_optimum_with_every_solution_better_than_the_last(
        (problem, config) in problem_and_config(),
        objective in (0..8usize, any::<bool>()),
    ) {
        let model = problem.build(Some(objective));
        let var = model.objective().var().expect("an objective was set");
        let minimize = objective.1;
        let expected = brute_force(&model)
            .iter()
            .map(|s| s[var.index()])
            .reduce(|a, b| if minimize { a.min(b) } else { a.max(b) });
        // The solution limit is ignored under optimisation: set it to one to check that.
        let (result, found) = run(&model, &config.first(1));
        match expected {
            None => {
                prop_assert_eq!(result.outcome, Outcome::Exhausted);
                prop_assert!(found.is_empty());
            }
            Some(optimum) => {
                prop_assert_eq!(result.outcome, Outcome::Optimal);
                prop_assert_eq!(result.objective, Some(optimum));
                for (values, objective) in &found {
                    prop_assert!(model.is_solution(values), "{:?} is no solution", values);
                    prop_assert_eq!(*objective, Some(values[var.index()]));
                }
                let objectives: Vec<i32> = found.iter().map(|(v, _)| v[var.index()]).collect();
                for pair in objectives.windows(2) {
                    prop_assert!(
                        if minimize { pair[1] < pair[0] } else { pair[1] > pair[0] },
                        "not strictly better: {:?}", objectives
                    );
                }
                let best = result.solution.as_ref().expect("the best solution is kept");
                prop_assert_eq!(best[var.index()], optimum);
            }
        }
    }

    /// A limit stops branch and bound with the best solution so far, and never reports a bound it
    /// has not proven.
    #[test]
    fn a_limit_reports_the_best_so_far(
        (problem, config) in problem_and_config(),
        objective in (0..8usize, any::<bool>()),
        nodes in 0..6u64,
    ) {
        let model = problem.build(Some(objective));
        let limited = SearchConfig {
            limits: Limits { nodes: Some(nodes), ..Limits::default() },
            ..config
        };
        let (result, found) = run(&model, &limited);
        prop_assert_eq!(result.objective, found.last().and_then(|(_, o)| *o));
        if let Some(best) = &result.solution {
            prop_assert!(model.is_solution(best));
        }
        if result.outcome == Outcome::Optimal {
            let var = model.objective().var().unwrap();
            let minimize = objective.1;
            let optimum = brute_force(&model)
                .iter()
                .map(|s| s[var.index()])
                .reduce(|a, b| if minimize { a.min(b) } else { a.max(b) });
            prop_assert_eq!(result.objective, optimum);
        }
    }
}

/// Every solution large-neighbourhood search reports, with its objective. The search's events go
/// to Stone & Stone's estimator, as under a progress bar: neighbourhoods restart it and the
/// complete search then resumes below the root, which it must take without failing.
fn run_lns(model: &Model, config: &SearchConfig, lns: LnsConfig) -> (Outcome, Vec<Vec<i32>>) {
    let mut search = LnsSearch::new(model, config, lns);
    let mut estimator = TreeSizeEstimator::new();
    let mut found = Vec::new();
    while let Some(values) = search.next_solution(&mut estimator) {
        found.push(values.to_vec());
    }
    assert!(estimator.estimated_tree_size().is_finite());
    (search.outcome().expect("over"), found)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3_000))]

    /// Large-neighbourhood search, with neighbourhoods and complete slices of a few nodes so that
    /// they alternate all the time, still proves the optimum enumeration finds, each solution
    /// better than the last; and the same seed gives the same run.
    #[test]
    fn large_neighbourhood_search_proves_the_brute_force_optimum(
        (problem, config) in problem_and_config(),
        objective in (0..8usize, any::<bool>()),
        (nodes, slice) in (1..6u64, 1..12u64),
        neighbourhood in prop_oneof![
            Just(Neighbourhood::Random),
            Just(Neighbourhood::PropagationGuided),
            Just(Neighbourhood::Window),
            Just(Neighbourhood::Alternating),
        ],
        free in 0.0..1.0f64,
    ) {
        let model = problem.build(Some(objective));
        let var = model.objective().var().expect("an objective was set");
        let minimize = objective.1;
        let expected = brute_force(&model)
            .iter()
            .map(|s| s[var.index()])
            .reduce(|a, b| if minimize { a.min(b) } else { a.max(b) });
        let vars: Vec<VarId> = model.vars().collect();
        let lns = LnsConfig {
            neighbourhood,
            nodes,
            slice,
            initial_free: free,
            grids: vec![Grid {
                cells: vars.iter().map(|&v| Some(v)).collect(),
                columns: 2,
            }],
            ..LnsConfig::default()
        };
        let (outcome, found) = run_lns(&model, &config, lns.clone());
        match expected {
            None => {
                prop_assert_eq!(outcome, Outcome::Exhausted);
                prop_assert!(found.is_empty());
            }
            Some(optimum) => {
                prop_assert_eq!(outcome, Outcome::Optimal);
                for values in &found {
                    prop_assert!(model.is_solution(values), "{:?} is no solution", values);
                }
                let objectives: Vec<i32> = found.iter().map(|v| v[var.index()]).collect();
                prop_assert_eq!(objectives.last().copied(), Some(optimum));
                for pair in objectives.windows(2) {
                    prop_assert!(
                        if minimize { pair[1] < pair[0] } else { pair[1] > pair[0] },
                        "not strictly better: {:?}", objectives
                    );
                }
            }
        }
        let (again, found_again) = run_lns(&model, &config, lns);
        prop_assert_eq!(again, outcome);
        prop_assert_eq!(found_again, found, "the same seed gives the same run");
    }
}

/// The solutions a portfolio reports, and how it ended.
fn run_portfolio_of(model: &Model, portfolio: &PortfolioConfig) -> (Outcome, Vec<Vec<i32>>) {
    let mut found = Vec::new();
    let result = run_portfolio(model, portfolio, |values, _| {
        found.push(values.to_vec());
        ControlFlow::Continue(())
    });
    (result.outcome, found)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1_000))]

    /// A portfolio of two to four different searches, sharing the bound, proves the optimum
    /// enumeration finds, reporting only improving solutions; a deterministic one reports the same
    /// solutions twice. With `split`, the even workers search one split tree together.
    #[test]
    fn a_portfolio_proves_the_brute_force_optimum(
        (problem, config) in problem_and_config(),
        objective in (0..8usize, any::<bool>()),
        workers in 2..5usize,
        epoch in 1..20u64,
        split in any::<bool>(),
    ) {
        let model = problem.build(Some(objective));
        let var = model.objective().var().expect("an objective was set");
        let minimize = objective.1;
        let expected = brute_force(&model)
            .iter()
            .map(|s| s[var.index()])
            .reduce(|a, b| if minimize { a.min(b) } else { a.max(b) });
        let workers: Vec<Worker> = (0..workers)
            .map(|i| Worker {
                config: SearchConfig { seed: i as u64, ..if i % 2 == 0 { config.clone() } else { SearchConfig::free() } },
                lns: (i % 3 == 1).then(|| LnsConfig { nodes: 2, slice: 3, ..LnsConfig::default() }),
                split: split && i % 2 == 0,
            })
            .collect();
        for deterministic in [false, true] {
            let portfolio = PortfolioConfig { workers: workers.clone(), deterministic, epoch, time: None, enumerate: false };
            let (outcome, found) = run_portfolio_of(&model, &portfolio);
            match expected {
                None => {
                    prop_assert_eq!(outcome, Outcome::Exhausted);
                    prop_assert!(found.is_empty());
                }
                Some(optimum) => {
                    prop_assert_eq!(outcome, Outcome::Optimal);
                    for values in &found {
                        prop_assert!(model.is_solution(values), "{:?} is no solution", values);
                    }
                    let objectives: Vec<i32> = found.iter().map(|v| v[var.index()]).collect();
                    prop_assert_eq!(objectives.last().copied(), Some(optimum));
                    for pair in objectives.windows(2) {
                        prop_assert!(
                            if minimize { pair[1] < pair[0] } else { pair[1] > pair[0] },
                            "not strictly better: {:?}", objectives
                        );
                    }
                }
            }
            if deterministic {
                let again = run_portfolio_of(&model, &portfolio);
                prop_assert_eq!(again, (outcome, found), "the same run twice");
            }
        }
    }

    /// Workers that all search one split tree answer a satisfaction problem as brute force does
    /// (a solution exactly when there is one, and a proof of none otherwise), and prove its
    /// optimum under an objective, also when neighbourhoods alternate with the subproblems of
    /// some of them.
    #[test]
    fn a_split_tree_answers_as_brute_force_does(
        (problem, config) in problem_and_config(),
        objective in proptest::option::of((0..8usize, any::<bool>())),
        workers in 1..4usize,
    ) {
        let model = problem.build(objective);
        let solutions = brute_force(&model);
        let workers: Vec<Worker> = (0..workers)
            .map(|i| Worker {
                config: SearchConfig { seed: i as u64, ..if i == 0 { config.clone() } else { SearchConfig::free() } },
                lns: (i % 2 == 0).then(|| LnsConfig { nodes: 2, slice: 3, ..LnsConfig::default() }),
                split: true,
            })
            .collect();
        let portfolio = PortfolioConfig { workers, deterministic: false, epoch: 1, time: None, enumerate: false };
        let (outcome, found) = run_portfolio_of(&model, &portfolio);
        for values in &found {
            prop_assert!(model.is_solution(values), "{:?} is no solution", values);
        }
        match (objective, model.objective().var()) {
            (Some((_, minimize)), Some(var)) => {
                let optimum = solutions
                    .iter()
                    .map(|s| s[var.index()])
                    .reduce(|a, b| if minimize { a.min(b) } else { a.max(b) });
                match optimum {
                    None => prop_assert_eq!(outcome, Outcome::Exhausted),
                    Some(optimum) => {
                        prop_assert_eq!(outcome, Outcome::Optimal);
                        prop_assert_eq!(found.last().map(|v| v[var.index()]), Some(optimum));
                    }
                }
            }
            _ if solutions.is_empty() => {
                prop_assert_eq!(outcome, Outcome::Exhausted);
                prop_assert!(found.is_empty());
            }
            _ => {
                prop_assert_eq!(outcome, Outcome::Solved);
                prop_assert_eq!(found.len(), 1);
            }
        }
    }
}

/// How a learning search branches: by activity alone, or following annotated searches (over
/// variable indices; those past a model's variables are dropped), alone or in turn with activity.
type LearningBranching = Option<(Vec<IntSearch>, bool)>;

fn learning_branching() -> impl Strategy<Value = LearningBranching> {
    prop::option::of((searches(8), any::<bool>()))
}

/// The annotated searches of `branching` over the variables `model` has (the generated
/// searches may name more than a small model holds); none without annotations.
fn annotations_of(model: &Model, branching: &LearningBranching) -> Vec<IntSearch> {
    let Some((searches, _)) = branching else {
        return Vec::new();
    };
    searches
        .iter()
        .map(|search| {
            let vars = search
                .vars
                .iter()
                .copied()
                .filter(|v| v.index() < model.num_vars())
                .collect();
            IntSearch::new(vars, search.variable, search.value)
        })
        .collect()
}

/// Whether a learning search under `branching` alternates its annotations with activity at
/// restarts: as generated, and always without annotations.
fn alternates(branching: &LearningBranching) -> bool {
    branching.as_ref().is_none_or(|(_, alternate)| *alternate)
}

/// Every solution a learning search reports, in order, with its outcome.
fn run_learning(
    model: &Model,
    config: &SearchConfig,
    branching: &LearningBranching,
) -> (Outcome, Vec<Vec<i32>>) {
    let config = SearchConfig {
        strategy: Branching::Decisions(annotations_of(model, branching)),
        ..config.clone()
    }
    .learning(Learning {
        alternate: alternates(branching),
        ..Learning::default()
    });
    let mut search = Search::new(model, &config);
    let mut found = Vec::new();
    while let Some(values) = search.next_solution(&mut ()) {
        found.push(values.to_vec());
    }
    (search.outcome().expect("over"), found)
}

/// Random models larger than brute force reaches (five to eight variables), where learning meets
/// real conflicts and jumps back over several levels: the same constraints as [`problem`].
fn larger_problem() -> impl Strategy<Value = Problem> {
    (5..=8usize, 0..=3usize)
        .prop_flat_map(|(num_vars, booleans)| {
            let reified = prop::collection::vec(
                (0..booleans.max(1), spec(num_vars), any::<bool>()).prop_map(
                    |(b, spec, equivalent)| Reif {
                        b,
                        spec,
                        equivalent,
                    },
                ),
                if booleans == 0 { 0..=0 } else { 0..=3 },
            );
            (
                prop::collection::vec(prop::collection::btree_set(-2..=3i32, 2..=4), num_vars),
                prop_oneof![Just(1), Just(100_000_000)],
                Just(booleans),
                prop::collection::vec(spec(num_vars), 3..=10),
                reified,
                prop::option::of(0..=2i32),
            )
        })
        .prop_map(Problem::assemble)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2_000))]

    /// Learning loses no solution and reports none twice: with blocking clauses it enumerates
    /// exactly the brute-force solutions, whatever the seed.
    #[test]
    fn learning_finds_exactly_the_brute_force_solutions(
        problem in problem(),
        seed in any::<u64>(),
        branching in learning_branching(),
    ) {
        let model = problem.build(None);
        let config = SearchConfig { seed, ..SearchConfig::default() }.all_solutions();
        let (outcome, mut found) = run_learning(&model, &config, &branching);
        prop_assert_eq!(outcome, Outcome::Exhausted);
        found.sort();
        let before = found.len();
        found.dedup();
        prop_assert_eq!(found.len(), before, "no solution is reported twice");
        prop_assert_eq!(found, brute_force(&model));
    }

    /// Learning under any search, value enumeration's orderings included, enumerates exactly the
    /// brute-force solutions: value enumeration assigns variables that propagation has fixed
    /// already, and such a decision must not stand in a blocking clause (it once made the search
    /// report the same solution again and again).
    #[test]
    fn learning_under_any_search_finds_exactly_the_brute_force_solutions(
        (problem, config) in problem_and_config(),
    ) {
        let model = problem.build(None);
        let config = config.learning(Learning::default());
        let mut search = Search::new(&model, &config);
        let mut found = Vec::new();
        while let Some(values) = search.next_solution(&mut ()) {
            found.push(values.to_vec());
            prop_assert!(found.len() <= 1 << 12, "the search repeats solutions");
        }
        prop_assert_eq!(search.outcome(), Some(Outcome::Exhausted));
        found.sort();
        let before = found.len();
        found.dedup();
        prop_assert_eq!(found.len(), before, "no solution is reported twice");
        prop_assert_eq!(found, brute_force(&model));
    }

    /// Under an objective learning proves the brute-force optimum, each solution better than the
    /// last.
    #[test]
    fn learning_finds_the_optimum(
        problem in problem(),
        objective in (0..8usize, any::<bool>()),
        seed in any::<u64>(),
        branching in learning_branching(),
    ) {
        let model = problem.build(Some(objective));
        let var = model.objective().var().expect("an objective was set");
        let minimize = objective.1;
        let expected = brute_force(&model)
            .iter()
            .map(|s| s[var.index()])
            .reduce(|a, b| if minimize { a.min(b) } else { a.max(b) });
        let (outcome, found) =
            run_learning(&model, &SearchConfig { seed, ..SearchConfig::default() }, &branching);
        for values in &found {
            prop_assert!(model.is_solution(values), "{:?} is no solution", values);
        }
        let objectives: Vec<i32> = found.iter().map(|v| v[var.index()]).collect();
        for pair in objectives.windows(2) {
            prop_assert!(
                if minimize { pair[1] < pair[0] } else { pair[1] > pair[0] },
                "not strictly better: {:?}", objectives
            );
        }
        match expected {
            None => prop_assert_eq!(outcome, Outcome::Exhausted),
            Some(optimum) => {
                prop_assert_eq!(outcome, Outcome::Optimal);
                prop_assert_eq!(objectives.last().copied(), Some(optimum));
            }
        }
    }

    /// On models too large for brute force, learning agrees with search without it (maintaining
    /// arc consistency, itself checked against brute force above) on the number of solutions and
    /// on the optimum.
    #[test]
    fn learning_agrees_with_plain_search_on_larger_models(
        problem in larger_problem(),
        objective in (0..12usize, any::<bool>()),
        seed in any::<u64>(),
        branching in learning_branching(),
    ) {
        let plain = SearchConfig {
            propagation: Propagation::Mac,
            ..SearchConfig::default()
        };
        let model = problem.build(None);
        let (result, _) = run(&model, &plain.clone().all_solutions());
        let (outcome, found) = run_learning(
            &model,
            &SearchConfig { seed, ..SearchConfig::default() }.all_solutions(),
            &branching,
        );
        prop_assert_eq!(outcome, Outcome::Exhausted);
        for values in &found {
            prop_assert!(model.is_solution(values), "{:?} is no solution", values);
        }
        let mut distinct = found.clone();
        distinct.sort();
        distinct.dedup();
        prop_assert_eq!(distinct.len(), found.len(), "no solution is reported twice");
        prop_assert_eq!(found.len() as u64, result.stats.solutions);

        let model = problem.build(Some(objective));
        let (result, _) = run(&model, &plain);
        let (outcome, found) =
            run_learning(&model, &SearchConfig { seed, ..SearchConfig::default() }, &branching);
        let var = model.objective().var().expect("an objective was set");
        prop_assert_eq!(
            outcome,
            if result.objective.is_some() { Outcome::Optimal } else { Outcome::Exhausted }
        );
        prop_assert_eq!(found.last().map(|v| v[var.index()]), result.objective);
    }
}

/// Assumptions as drawn: a variable's index (those past a model's variables are dropped), a
/// relation (`=`, `≠`, `≤`, `≥`) and a position among the variable's values (one past the last
/// draws a value outside its domain).
type DrawnAssumptions = Vec<(usize, u8, usize)>;

fn drawn_assumptions() -> impl Strategy<Value = DrawnAssumptions> {
    prop::collection::vec((0..12usize, 0..4u8, 0..6usize), 0..=5)
}

/// The assumptions `drawn` names on `model`.
fn assumption_literals(model: &Model, drawn: &DrawnAssumptions) -> Vec<Literal> {
    drawn
        .iter()
        .filter(|&&(v, _, _)| v < model.num_vars())
        .map(|&(v, relation, k)| {
            let var = VarId::from_index(v);
            let values: Vec<i32> = model.initial_domain(var).values().collect();
            let value = values
                .get(k % (values.len() + 1))
                .copied()
                .unwrap_or(values[values.len() - 1] + 1);
            match relation {
                0 => Literal::eq(var, value),
                1 => Literal::ne(var, value),
                2 => Literal::le(var, value),
                _ => Literal::ge(var, value),
            }
        })
        .collect()
}

/// Every solution a learning search finds under `assumptions` (each checked against the model
/// and the assumptions by the caller), its outcome, and its core.
fn run_assuming(
    model: &Model,
    assumptions: &[Literal],
    seed: u64,
    branching: &LearningBranching,
) -> (Outcome, Vec<Vec<i32>>, Option<Vec<Literal>>) {
    let config = SearchConfig {
        seed,
        strategy: Branching::Decisions(annotations_of(model, branching)),
        ..SearchConfig::default()
    }
    .learning(Learning {
        alternate: alternates(branching),
        ..Learning::default()
    });
    let mut search = Search::new(model, &config);
    search.set_assumptions(assumptions);
    let mut found = Vec::new();
    while let Some(values) = search.next_solution(&mut ()) {
        found.push(values.to_vec());
    }
    let core = search.core().map(<[Literal]>::to_vec);
    (search.outcome().expect("over"), found, core)
}

/// Whether `values` satisfies every literal of `literals`.
fn satisfies(values: &[i32], literals: &[Literal]) -> bool {
    literals.iter().all(|l| l.holds_for(values[l.var.index()]))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2_000))]

    /// Under assumptions, learning finds exactly the brute-force solutions that satisfy them;
    /// when it finds none, its core is a sub-list of the assumptions that no solution of the
    /// model satisfies, and a fresh search without learning, under the core alone, finds none.
    #[test]
    fn cores_are_infeasible_subsets_of_the_assumptions(
        problem in problem(),
        drawn in drawn_assumptions(),
        seed in any::<u64>(),
        branching in learning_branching(),
    ) {
        let model = problem.build(None);
        let assumptions = assumption_literals(&model, &drawn);
        let all = brute_force(&model);
        let expected: Vec<Vec<i32>> =
            all.iter().filter(|s| satisfies(s, &assumptions)).cloned().collect();
        let (outcome, mut found, core) = run_assuming(&model, &assumptions, seed, &branching);
        prop_assert_eq!(outcome, Outcome::Exhausted);
        for values in &found {
            prop_assert!(model.is_solution(values) && satisfies(values, &assumptions));
        }
        found.sort();
        prop_assert_eq!(&found, &expected);
        if expected.is_empty() {
            let core = core.expect("a core once no solution is left");
            prop_assert!(core.len() <= assumptions.len());
            prop_assert!(core.iter().all(|l| assumptions.contains(l)), "{:?} of {:?}", core, assumptions);
            prop_assert!(all.iter().all(|s| !satisfies(s, &core)), "{:?} is satisfiable", core);
            let mut fresh = Search::new(&model, &SearchConfig::free());
            fresh.set_assumptions(&core);
            prop_assert!(fresh.next_solution(&mut ()).is_none());
            prop_assert_eq!(fresh.core(), Some(&core[..]));
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1_000))]

    /// Under assumptions and an objective (assumed as a bound after each solution), learning
    /// proves the brute-force optimum among the solutions that satisfy the assumptions, or finds
    /// none and names a core no solution satisfies.
    #[test]
    fn optima_under_assumptions_are_the_brute_force_ones(
        problem in problem(),
        objective in (0..8usize, any::<bool>()),
        drawn in drawn_assumptions(),
        seed in any::<u64>(),
        branching in learning_branching(),
    ) {
        let model = problem.build(Some(objective));
        let var = model.objective().var().expect("an objective was set");
        let assumptions = assumption_literals(&model, &drawn);
        let all = brute_force(&model);
        let best = all
            .iter()
            .filter(|s| satisfies(s, &assumptions))
            .map(|s| s[var.index()])
            .reduce(|a, b| if objective.1 { a.min(b) } else { a.max(b) });
        let (outcome, found, core) = run_assuming(&model, &assumptions, seed, &branching);
        for values in &found {
            prop_assert!(model.is_solution(values) && satisfies(values, &assumptions));
        }
        match best {
            Some(best) => {
                prop_assert_eq!(outcome, Outcome::Optimal);
                prop_assert_eq!(found.last().map(|v| v[var.index()]), Some(best));
            }
            None => {
                prop_assert_eq!(outcome, Outcome::Exhausted);
                let core = core.expect("a core");
                prop_assert!(core.iter().all(|l| assumptions.contains(l)));
                prop_assert!(all.iter().all(|s| !satisfies(s, &core)), "{:?} is satisfiable", core);
            }
        }
    }
}

/// Over 600 random models with random assumptions (a fixed stream), the cores of those left
/// without a solution are often smaller than the assumptions: the final analysis keeps only the
/// assumptions the conflict rests on.
#[test]
fn cores_are_often_smaller_than_the_assumptions() {
    use proptest::strategy::ValueTree;
    use proptest::test_runner::TestRunner;

    let mut runner = TestRunner::deterministic();
    let strategy = (problem(), drawn_assumptions(), any::<u64>());
    let (mut infeasible, mut smaller) = (0, 0);
    for _ in 0..600 {
        let (problem, drawn, seed) = strategy.new_tree(&mut runner).unwrap().current();
        let model = problem.build(None);
        let assumptions = assumption_literals(&model, &drawn);
        let (_, found, core) = run_assuming(&model, &assumptions, seed, &None);
        if found.is_empty() && !assumptions.is_empty() {
            infeasible += 1;
            let core = core.expect("a core");
            assert!(core.len() <= assumptions.len());
            smaller += usize::from(core.len() < assumptions.len());
        }
    }
    eprintln!("{smaller} of {infeasible} cores smaller than their assumptions");
    assert!(infeasible >= 100, "{infeasible} infeasible");
    assert!(
        3 * smaller >= infeasible,
        "{smaller} of {infeasible} cores smaller than their assumptions"
    );
}

/// Large-neighbourhood search beside another search (as in a portfolio or a turn of
/// `Interleaved`) starts from the best solution the other found: given a shared bound that holds
/// the optimum with its solution, it finds nothing better, proves the optimum, and reports that
/// solution as its best, although its own searches found none.
#[test]
fn large_neighbourhood_search_starts_from_a_solution_another_search_found() {
    let mut builder = ModelBuilder::new();
    let x: Vec<VarId> = (0..5)
        .map(|i| builder.int_var(format!("x{i}"), 0..=6).unwrap())
        .collect();
    let cost = builder.int_var("cost", 0..=30).unwrap();
    builder.post(AllDifferent::new(x.clone())).unwrap();
    let mut terms: Vec<(i32, VarId)> = x.iter().map(|&v| (1, v)).collect();
    terms.push((-1, cost));
    builder
        .post(Linear::new(terms, Relation::Equal, 0))
        .unwrap();
    builder.minimize(cost).unwrap();
    let model = builder.build();

    let optimal = solve(&model, &SearchConfig::free(), &mut ());
    assert_eq!(optimal.outcome, Outcome::Optimal);
    let values = optimal.solution.expect("an optimum");
    assert!(model.is_solution(&values));
    assert_eq!(values[cost.index()], 10);

    let bound = csp_search::SharedBound::new(model.objective()).unwrap();
    bound.offer_solution(10, &values);
    let mut search = LnsSearch::new(&model, &SearchConfig::free(), LnsConfig::default());
    search.share_bound(bound);
    assert!(search.next_solution(&mut ()).is_none());
    let result = search.result();
    assert_eq!(result.outcome, Outcome::Optimal);
    assert_eq!(result.objective, Some(10));
    assert_eq!(result.solution.as_deref(), Some(&values[..]));
}
