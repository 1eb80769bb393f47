//! Sudoku and graph colouring on the engine: which propagation and which variable ordering pay.
//!
//! - Sudoku: every puzzle of Norvig's hardest 11 and top 95 (`data/sudoku/`), to the first solution,
//!   under forward checking and under MAC (both with fewest choices first), and MAC with dom/wdeg.
//!   Per configuration: the median and largest time per puzzle, and the median, largest and total
//!   nodes. Every solution is checked against the givens and the rules, and against the file's
//!   published solution.
//! - Colouring: DIMACS instances (`data/coloring/`), each with a number of colours to find or refute
//!   (or the whole chromatic number), under fewest choices and dom/wdeg (both with MAC). Every
//!   colouring is checked edge by edge and every verdict against the published chromatic number.
//!   Runs have a node budget, so a hard case shows as "budget reached". Then restarts: dom/wdeg with
//!   random ties over eight seeds, with and without Luby restarts, on two colourings to find and one
//!   to refute.
//!
//! ```sh
//! cargo bench --bench problems              # everything (a few minutes)
//! cargo bench --bench problems -- sudoku    # one half
//! ```
//!
//! A plain `main` that prints tables. Each sudoku search runs five times and its median time counts;
//! a colouring search runs once.

use std::time::Instant;

use csp::problems::coloring::{self, Status};
use csp::problems::dimacs;
use csp::problems::sudoku::{self, Grid};
use csp::search::{Limits, Propagation, Restarts, SearchConfig, TiePolicy, VariableOrderKind};

/// How many times each sudoku search is repeated; the median time counts.
const SUDOKU_REPEATS: usize = 5;

/// The node budget of each colouring search.
const COLORING_BUDGET: u64 = 2_000_000;

fn main() {
    let filter: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with('-'))
        .collect();
    let wants = |name: &str| filter.is_empty() || filter.iter().any(|f| name.contains(f.as_str()));
    if wants("sudoku") {
        sudoku_tables();
    }
    if wants("coloring") {
        coloring_table();
    }
}

fn data(path: &str) -> String {
    let full = format!("{}/data/{path}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&full).unwrap_or_else(|e| panic!("{full}: {e}"))
}

fn median(values: &mut [f64]) -> f64 {
    values.sort_by(f64::total_cmp);
    values[values.len() / 2]
}

fn sudoku_tables() {
    let configs = [
        (
            "MIN + FC",
            SearchConfig {
                propagation: Propagation::ForwardChecking,
                ..sudoku::default_config()
            },
        ),
        ("MIN + MAC", sudoku::default_config()),
        (
            "dom/wdeg + MAC",
            SearchConfig {
                variable_order: VariableOrderKind::DomWdeg,
                ..sudoku::default_config()
            },
        ),
    ];
    for file in ["norvig_hardest11.txt", "norvig_top95.txt"] {
        let puzzles = sudoku::parse_puzzles(&data(&format!("sudoku/{file}"))).expect("valid file");
        println!(
            "\nSudoku, {file}: {} puzzles, first solution",
            puzzles.len()
        );
        println!(
            "{:<16} {:>12} {:>12} {:>12} {:>10} {:>12}",
            "search", "median ms", "max ms", "median nodes", "max nodes", "total nodes"
        );
        for (name, config) in &configs {
            let (mut times, mut nodes) = (Vec::new(), Vec::new());
            for puzzle in &puzzles {
                let mut runs = Vec::new();
                let mut puzzle_nodes = 0;
                for _ in 0..SUDOKU_REPEATS {
                    let started = Instant::now();
                    let answer = sudoku::solve(&puzzle.grid, config, ()).expect("valid model");
                    runs.push(started.elapsed().as_secs_f64() * 1e3);
                    let solution = answer.first.expect("every puzzle here has a solution");
                    sudoku::check(&puzzle.grid, &solution).expect("a correct solution");
                    let published: Option<Grid> =
                        puzzle.note.as_deref().and_then(|n| n.parse().ok());
                    assert_eq!(Some(solution), published, "line {}", puzzle.line);
                    puzzle_nodes = answer.result.stats.nodes;
                }
                times.push(median(&mut runs));
                nodes.push(puzzle_nodes as f64);
            }
            let total: f64 = nodes.iter().sum();
            let max_time = times.iter().copied().fold(0.0, f64::max);
            let max_nodes = nodes.iter().copied().fold(0.0, f64::max);
            println!(
                "{:<16} {:>12.3} {:>12.3} {:>12} {:>10} {:>12}",
                name,
                median(&mut times),
                max_time,
                median(&mut nodes),
                max_nodes,
                total
            );
        }
    }
}

/// What to ask of an instance: a number of colours, or the chromatic number.
#[derive(Clone, Copy)]
enum Task {
    Colors(usize),
    Chromatic,
}

fn coloring_table() {
    // (file, task, published chromatic number)
    let instances = [
        ("myciel4.col", Task::Chromatic, 5),
        ("myciel5.col", Task::Chromatic, 6),
        ("queen5_5.col", Task::Colors(5), 5),
        ("queen6_6.col", Task::Chromatic, 7),
        ("queen7_7.col", Task::Colors(7), 7),
        ("queen8_8.col", Task::Colors(9), 9),
        ("queen8_8.col", Task::Colors(8), 9),
        ("games120.col", Task::Chromatic, 9),
        ("miles250.col", Task::Chromatic, 8),
        ("anna.col", Task::Chromatic, 11),
        ("le450_5a.col", Task::Colors(5), 5),
    ];
    let limits = Limits {
        nodes: Some(COLORING_BUDGET),
        ..Limits::default()
    };
    let dom_wdeg = SearchConfig {
        limits,
        ..coloring::default_config()
    };
    let min = SearchConfig {
        variable_order: VariableOrderKind::FewestChoices,
        ..dom_wdeg.clone()
    };
    let configs = [("MIN + MAC", min), ("dom/wdeg + MAC", dom_wdeg.clone())];
    println!(
        "\nColouring: fewest choices against dom/wdeg (node budget {COLORING_BUDGET} per search)"
    );
    println!(
        "{:<10} {:<7} {:<16} {:>10} {:>10}  verdict",
        "instance", "task", "search", "nodes", "ms"
    );
    for (file, task, chi) in instances {
        let graph = dimacs::parse(&data(&format!("coloring/{file}"))).expect("valid file");
        for (name, config) in &configs {
            let started = Instant::now();
            let (nodes, verdict) = run_task(&graph, task, chi, config);
            let ms = started.elapsed().as_secs_f64() * 1e3;
            println!(
                "{:<10} {:<7} {:<16} {nodes:>10} {ms:>10.1}  {verdict}",
                file.trim_end_matches(".col"),
                task_name(task),
                name,
            );
        }
    }

    // Restarts against the heavy tail: dom/wdeg with random ties over eight seeds, each search run
    // to the end, with and without Luby restarts.
    let seeds = 1..=8u64;
    println!(
        "\nColouring: random ties over seeds {seeds:?}, without and with Luby restarts (base 2000)"
    );
    println!(
        "{:<10} {:<7} {:<22} {:>12} {:>12} {:>10} {:>10}",
        "instance", "task", "search", "median nodes", "max nodes", "median ms", "max ms"
    );
    let random = SearchConfig {
        ties: TiePolicy::Random,
        limits: Limits::default(),
        ..dom_wdeg
    };
    let luby = SearchConfig {
        restarts: Some(Restarts { base_nodes: 2000 }),
        ..random.clone()
    };
    for (file, task, chi) in [
        ("queen8_8.col", Task::Colors(9), 9),
        ("le450_5a.col", Task::Colors(5), 5),
        ("myciel5.col", Task::Colors(5), 6),
    ] {
        let graph = dimacs::parse(&data(&format!("coloring/{file}"))).expect("valid file");
        for (name, config) in [
            ("dom/wdeg random ties", &random),
            ("  + Luby restarts", &luby),
        ] {
            let (mut nodes, mut times) = (Vec::new(), Vec::new());
            for seed in seeds.clone() {
                let config = SearchConfig {
                    seed,
                    ..config.clone()
                };
                let started = Instant::now();
                let (n, _) = run_task(&graph, task, chi, &config);
                times.push(started.elapsed().as_secs_f64() * 1e3);
                nodes.push(n as f64);
            }
            let (max_nodes, max_ms) = (
                nodes.iter().copied().fold(0.0, f64::max),
                times.iter().copied().fold(0.0, f64::max),
            );
            println!(
                "{:<10} {:<7} {:<22} {:>12} {:>12} {:>10.1} {:>10.1}",
                file.trim_end_matches(".col"),
                task_name(task),
                name,
                median(&mut nodes),
                max_nodes,
                median(&mut times),
                max_ms
            );
        }
    }
}

fn task_name(task: Task) -> String {
    match task {
        Task::Colors(k) => format!("k = {k}"),
        Task::Chromatic => "chi".to_owned(),
    }
}

/// Runs one task; returns the nodes over all its searches and the verdict in words, checked against
/// the published chromatic number.
fn run_task(graph: &dimacs::Graph, task: Task, chi: usize, config: &SearchConfig) -> (u64, String) {
    let nodes = |attempts: &[coloring::Attempt]| {
        attempts
            .iter()
            .filter_map(|a| a.result.as_ref())
            .map(|r| r.stats.nodes)
            .sum::<u64>()
    };
    match task {
        Task::Colors(k) => {
            let attempt = coloring::color_by_search(graph, k, config, ()).expect("valid model");
            let verdict = match attempt.status {
                Status::Colored => {
                    let coloring = attempt.coloring.as_deref().expect("a colouring");
                    coloring::check(graph, coloring, k).expect("a proper colouring");
                    assert!(k >= chi);
                    "coloured".to_owned()
                }
                Status::NoColoring | Status::CliqueTooLarge { .. } => {
                    assert!(k < chi);
                    "no colouring (proven)".to_owned()
                }
                Status::Unknown(_) | Status::BudgetSpent { .. } => "budget reached".to_owned(),
            };
            (nodes(&[attempt]), verdict)
        }
        Task::Chromatic => {
            let result = coloring::chromatic_number(graph, config, ()).expect("valid model");
            let verdict = match &result.best {
                Some((colors, coloring)) => {
                    coloring::check(graph, coloring, *colors).expect("a proper colouring");
                    assert!(*colors >= chi);
                    if result.optimal {
                        assert_eq!(*colors, chi);
                        format!("chi = {colors}, proven")
                    } else {
                        format!("{colors} colours; budget reached before the proof")
                    }
                }
                None => "budget reached".to_owned(),
            };
            (nodes(&result.attempts), verdict)
        }
    }
}
