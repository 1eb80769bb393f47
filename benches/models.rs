//! The engine on models with wide domains and objectives, and the measurement behind the default of
//! free search.
//!
//! - `build`: a model of 10⁶ variables over `-10⁹..10⁹` (named, as a front end would declare them),
//!   built and given a search store: time and bytes per variable.
//! - `golomb`: Golomb rulers proven optimal, m = 8..10 (the MiniZinc benchmark's model and search),
//!   nodes and time. Beside Gecode: `minizinc --solver gecode -G std -s golomb.mzn 10.dzn` in
//!   `shared/instances/minizinc/golomb/` prints its own `nodes` and `solveTime`.
//! - `free`: free search variants (no search annotation) on optimisation and satisfaction models:
//!   dom/wdeg or first-fail variable selection, `indomain_min` or `indomain_split`, with or without Luby
//!   restarts. Every run has a node limit; "limit" means it was reached. The default of
//!   [`SearchConfig::free`] is chosen from this table.
//!
//! ```sh
//! cargo bench --bench models              # everything (about a minute)
//! cargo bench --bench models -- free      # one table
//! ```
//!
//! A plain `main` that prints tables. Every solution is checked by the problem's own checker.

use std::time::{Duration, Instant};

use csp::core::{Model, ModelBuilder, Store, VarId};
use csp::nqueens::{Encoding, model as queens_model, verify};
use csp::problems::golomb;
use csp::problems::jobshop;
use csp::problems::knapsack::Knapsack;
use csp::problems::sudoku::{self, Grid};
use csp::search::{
    IntSearch, Limits, Outcome, Restarts, SearchConfig, SearchResult, ValueSelection,
    VariableSelection, solve,
};

fn main() {
    let filter: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with('-'))
        .collect();
    let wants = |name: &str| filter.is_empty() || filter.iter().any(|f| name.contains(f.as_str()));
    // Under `cargo test --benches` (no `--bench` flag) only a smoke check runs.
    let full = std::env::args().any(|a| a == "--bench");
    if wants("build") {
        build_table(if full { 1_000_000 } else { 10_000 });
    }
    if wants("golomb") {
        golomb_table(if full { 10 } else { 7 });
    }
    if wants("free") {
        free_table(full);
    }
}

/// Builds a model of `n` wide variables and a store for it, three times; prints the median.
fn build_table(n: usize) {
    println!("## {n} variables over -10^9..10^9");
    let mut times = Vec::new();
    for _ in 0..3 {
        let started = Instant::now();
        let mut builder = ModelBuilder::new();
        for i in 0..n {
            builder
                .int_var(format!("x{i}"), -1_000_000_000..=1_000_000_000)
                .expect("a valid domain");
        }
        let model = builder.build();
        let built = started.elapsed();
        let store = Store::new(&model);
        let total = started.elapsed();
        assert_eq!(store.domain(VarId::from_index(n - 1)).size(), 2_000_000_001);
        times.push((built, total));
    }
    times.sort();
    let (built, total) = times[1];
    println!(
        "model built in {:.3} s, with its store {:.3} s; a domain is {} bytes (no heap)",
        built.as_secs_f64(),
        total.as_secs_f64(),
        std::mem::size_of::<csp::core::Domain>()
    );
    println!();
}

fn golomb_table(largest: usize) {
    println!("## Golomb rulers, int_search(mark, input_order, indomain_min), branch and bound");
    println!("| m | length | outcome | nodes | failures | propagations | time |");
    println!("| --- | --- | --- | --- | --- | --- | --- |");
    for m in 8..=largest.max(8) {
        let (model, marks) = golomb::model(m).expect("a valid model");
        let started = Instant::now();
        let result = solve(&model, &golomb::config(&marks), ());
        let elapsed = started.elapsed();
        let solution = result.solution.as_ref().expect("a ruler exists");
        let ruler: Vec<i32> = marks.iter().map(|v| solution[v.index()]).collect();
        assert!(golomb::is_ruler(&ruler));
        assert_eq!(result.objective, Some(golomb::A003022[m]), "m = {m}");
        println!(
            "| {m} | {} | {:?} | {} | {} | {} | {:.3} s |",
            ruler[m - 1],
            result.outcome,
            result.stats.nodes,
            result.stats.dead_ends,
            result.propagations,
            elapsed.as_secs_f64()
        );
    }
    println!();
}

/// A model to run free search on, with its checker.
struct Case {
    name: String,
    model: Model,
    /// Whether a result is right: a solution the checker accepts, and for optimisation the known
    /// optimum when the search claims it.
    check: Box<dyn Fn(&SearchResult) -> bool>,
}

fn cases(full: bool) -> Vec<Case> {
    let mut cases = Vec::new();
    for m in if full { vec![8, 9] } else { vec![6] } {
        let (model, marks) = golomb::model(m).expect("a valid model");
        cases.push(Case {
            name: format!("golomb {m}"),
            model,
            check: Box::new(move |r| {
                let values = r.solution.as_ref().expect("a ruler");
                let ruler: Vec<i32> = marks.iter().map(|v| values[v.index()]).collect();
                golomb::is_ruler(&ruler)
                    && (r.outcome != Outcome::Optimal || r.objective == Some(golomb::A003022[m]))
            }),
        });
    }
    let (model, starts, makespan) = jobshop::model(&jobshop::ft06()).expect("a valid model");
    cases.push(Case {
        name: "job-shop ft06".to_owned(),
        model,
        check: Box::new(move |r| {
            let values = r.solution.as_ref().expect("a schedule");
            let schedule: Vec<Vec<i32>> = starts
                .iter()
                .map(|job| job.iter().map(|v| values[v.index()]).collect())
                .collect();
            jobshop::is_schedule(&jobshop::ft06(), &schedule, values[makespan.index()])
                && (r.outcome != Outcome::Optimal || r.objective == Some(jobshop::FT06_OPTIMUM))
        }),
    });
    for (n, seed) in if full {
        vec![(25, 0), (30, 1)]
    } else {
        vec![(12, 0)]
    } {
        let knapsack = Knapsack::random(n, seed);
        let (model, take) = knapsack.model().expect("a valid model");
        let optimum = knapsack.dynamic_programming();
        cases.push(Case {
            name: format!("knapsack {n} (seed {seed})"),
            model,
            check: Box::new(move |r| {
                let values = r.solution.as_ref().expect("a choice");
                let chosen: Vec<bool> = take.iter().map(|v| values[v.index()] == 1).collect();
                knapsack.profit_of(&chosen).is_some()
                    && (r.outcome != Outcome::Optimal || r.objective == Some(optimum))
            }),
        });
    }
    for n in if full { vec![50, 200] } else { vec![20] } {
        cases.push(Case {
            name: format!("{n}-queens (pairwise)"),
            model: queens_model(n, Encoding::Pairwise).expect("a valid board"),
            check: Box::new(|r| {
                let values = r.solution.as_ref().expect("a placement");
                let placement: Vec<u32> = values.iter().map(|&v| v as u32).collect();
                verify(&placement).is_ok()
            }),
        });
    }
    let puzzles = std::fs::read_to_string(format!(
        "{}/data/sudoku/norvig_hardest11.txt",
        env!("CARGO_MANIFEST_DIR")
    ))
    .expect("the Sudoku set");
    for (i, line) in puzzles.lines().take(if full { 3 } else { 1 }).enumerate() {
        let Some(text) = line.split_whitespace().next() else {
            continue;
        };
        let Ok(grid) = text.parse::<Grid>() else {
            continue;
        };
        let model = sudoku::model(&grid).expect("a valid puzzle");
        cases.push(Case {
            name: format!("Sudoku hardest #{}", i + 1),
            model,
            check: Box::new(move |r| {
                let values = r.solution.as_ref().expect("a grid");
                let mut cells = [0u8; 81];
                for (cell, &v) in cells.iter_mut().zip(values) {
                    *cell = v as u8;
                }
                Grid::from_cells(cells)
                    .is_some_and(|solution| sudoku::check(&grid, &solution).is_ok())
            }),
        });
    }
    cases
}

/// The free-search variants compared: (name, variable selection, value selection, restarts).
fn variants() -> Vec<(
    &'static str,
    VariableSelection,
    ValueSelection,
    Option<Restarts>,
)> {
    let luby = Some(Restarts { base_nodes: 100 });
    vec![
        (
            "dom/wdeg, min, Luby 100",
            VariableSelection::DomWDeg,
            ValueSelection::Min,
            luby,
        ),
        (
            "dom/wdeg, min",
            VariableSelection::DomWDeg,
            ValueSelection::Min,
            None,
        ),
        (
            "dom/wdeg, split, Luby 100",
            VariableSelection::DomWDeg,
            ValueSelection::Split,
            luby,
        ),
        (
            "first_fail, min",
            VariableSelection::FirstFail,
            ValueSelection::Min,
            None,
        ),
        (
            "first_fail, min, Luby 100",
            VariableSelection::FirstFail,
            ValueSelection::Min,
            luby,
        ),
    ]
}

fn free_table(full: bool) {
    let node_limit = if full { 2_000_000 } else { 20_000 };
    println!(
        "## Free search: nodes (time) to the optimum or the first solution; limit {node_limit} nodes"
    );
    let variants = variants();
    print!("| model |");
    for (name, ..) in &variants {
        print!(" {name} |");
    }
    println!();
    println!("|---|{}", "---|".repeat(variants.len()));
    let mut totals = vec![(0u64, Duration::ZERO, 0usize); variants.len()];
    for case in cases(full) {
        print!("| {} |", case.name);
        for (i, &(_, variable, value, restarts)) in variants.iter().enumerate() {
            let all: Vec<VarId> = case.model.vars().collect();
            let config = SearchConfig {
                restarts,
                limits: Limits {
                    nodes: Some(node_limit),
                    ..Limits::default()
                },
                ..SearchConfig::decisions(vec![IntSearch::new(all, variable, value)])
            };
            let result = solve(&case.model, &config, ());
            let proven = matches!(result.outcome, Outcome::Optimal | Outcome::Solved);
            if result.solution.is_some() {
                assert!(
                    (case.check)(&result),
                    "{}: {:?} is wrong",
                    case.name,
                    variants[i].0
                );
            }
            totals[i].0 += result.stats.nodes;
            totals[i].1 += result.elapsed;
            totals[i].2 += usize::from(proven);
            if proven {
                print!(
                    " {} ({:.3} s) |",
                    result.stats.nodes,
                    result.elapsed.as_secs_f64()
                );
            } else {
                print!(" limit |");
            }
        }
        println!();
    }
    print!("| **total: done, nodes, time** |");
    for (done, (nodes, time, _)) in totals.iter().map(|t| (t.2, (t.0, t.1, ()))) {
        print!(" {done} done, {nodes}, {:.2} s |", time.as_secs_f64());
    }
    println!();
    println!();
}
