//! Sudoku on the engine: every puzzle of a file (81-character lines, '.' or '0' for a blank), solved
//! with arc consistency maintained and Régin's all-different, and checked against its givens.
//!
//! ```sh
//! cargo run --release --example sudoku -- data/sudoku/norvig_top95.txt
//! cargo run --release --example sudoku -- --all data/sudoku/norvig_negative.txt   # prove uniqueness
//! echo 4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4...... \
//!     | cargo run --release --example sudoku
//! ```
//!
//! The `csp sudoku` command does the same with every search option, statistics and JSON.

use std::io::Read;

use csp::problems::sudoku::{self, Grid, Puzzle};
use csp::search::Outcome;

/// What became of one puzzle.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Verdict {
    /// Its solution; with `--all`, proven unique.
    Solved(Grid),
    /// It has two solutions (these), so it is not unique.
    NotUnique(Grid, Grid),
    /// Proven to have none.
    NoSolution,
}

/// Solves one puzzle; with `all`, goes on to a second solution or the end of the tree.
fn solve(puzzle: &Puzzle, all: bool) -> Result<Verdict, String> {
    let config = sudoku::default_config().first(if all { 2 } else { 1 });
    let answer = sudoku::solve(&puzzle.grid, &config, ()).map_err(|e| e.to_string())?;
    for solution in answer.first.iter().chain(&answer.second) {
        // Every answer is checked independently of the engine before it is believed.
        sudoku::check(&puzzle.grid, solution).map_err(|e| format!("line {}: {e}", puzzle.line))?;
    }
    match (answer.first, answer.second, answer.result.outcome) {
        (Some(first), Some(second), _) => Ok(Verdict::NotUnique(first, second)),
        (Some(first), None, _) => Ok(Verdict::Solved(first)),
        (None, _, Outcome::Exhausted) => Ok(Verdict::NoSolution),
        (None, _, outcome) => Err(format!(
            "line {}: search ended with {outcome:?}",
            puzzle.line
        )),
    }
}

fn main() -> Result<(), String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let all = args.iter().any(|a| a == "--all");
    let text = match args.iter().find(|a| !a.starts_with("--")) {
        Some(path) if path != "-" => {
            std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?
        }
        _ => {
            let mut text = String::new();
            std::io::stdin()
                .read_to_string(&mut text)
                .map_err(|e| e.to_string())?;
            text
        }
    };
    let puzzles = sudoku::parse_puzzles(&text).map_err(|e| e.to_string())?;
    for puzzle in &puzzles {
        match solve(puzzle, all)? {
            Verdict::Solved(grid) if all => println!("line {}: {grid} (unique)", puzzle.line),
            Verdict::Solved(grid) => println!("line {}: {grid}", puzzle.line),
            Verdict::NotUnique(first, second) => {
                println!("line {}: not unique: {first} and {second}", puzzle.line)
            }
            Verdict::NoSolution => println!("line {}: no solution", puzzle.line),
        }
    }
    Ok(())
}

#[test]
fn norvigs_puzzles_solved_and_his_two_negative_examples_recognised() {
    let hardest =
        sudoku::parse_puzzles(include_str!("../data/sudoku/norvig_hardest11.txt")).unwrap();
    // The file's second column is the published solution.
    let expected: Grid = hardest[0].note.as_deref().unwrap().parse().unwrap();
    assert_eq!(solve(&hardest[0], true), Ok(Verdict::Solved(expected)));
    let negative =
        sudoku::parse_puzzles(include_str!("../data/sudoku/norvig_negative.txt")).unwrap();
    // Norvig's essay: the first is impossible, the second ("hard1") has many solutions.
    assert_eq!(solve(&negative[0], true), Ok(Verdict::NoSolution));
    assert!(matches!(solve(&negative[1], true), Ok(Verdict::NotUnique(a, b)) if a != b));
}
