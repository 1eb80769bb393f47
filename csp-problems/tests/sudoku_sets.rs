//! Published Sudoku sets solved and checked: Norvig's hardest 11 and top 95 under MAC (and the
//! hardest under forward checking too), each solution checked against its givens and the rules and
//! equal to the solution the file publishes; his two negative examples recognised.

use csp_problems::sudoku::{self, Grid, Puzzle};
use csp_search::{Outcome, Propagation, SearchConfig};

const HARDEST: &str = include_str!("../../data/sudoku/norvig_hardest11.txt");
const TOP95: &str = include_str!("../../data/sudoku/norvig_top95.txt");
const NEGATIVE: &str = include_str!("../../data/sudoku/norvig_negative.txt");

/// Solves every puzzle of `text` and checks each solution twice: against the givens and the rules,
/// and against the published solution in the line's second column. With `unique`, also proves that
/// there is no second solution. Returns how many puzzles were solved.
fn solve_set(text: &str, config: &SearchConfig, unique: bool) -> usize {
    let puzzles = sudoku::parse_puzzles(text).expect("a valid file");
    for Puzzle { line, grid, note } in &puzzles {
        let config = config.clone().first(if unique { 2 } else { 1 });
        let answer = sudoku::solve(grid, &config, ()).expect("a valid model");
        let solution = answer
            .first
            .unwrap_or_else(|| panic!("line {line}: no solution"));
        assert_eq!(sudoku::check(grid, &solution), Ok(()), "line {line}");
        let published: Grid = note.as_deref().expect("a solution column").parse().unwrap();
        assert_eq!(solution, published, "line {line}");
        if unique {
            assert_eq!(answer.result.outcome, Outcome::Exhausted, "line {line}");
            assert_eq!(answer.solutions(), 1, "line {line}");
        }
    }
    puzzles.len()
}

#[test]
fn norvig_hardest_eleven_solved_unique_under_mac_and_solved_under_forward_checking() {
    assert_eq!(solve_set(HARDEST, &sudoku::default_config(), true), 11);
    let fc = SearchConfig {
        propagation: Propagation::ForwardChecking,
        ..sudoku::default_config()
    };
    assert_eq!(solve_set(HARDEST, &fc, false), 11);
}

#[test]
fn norvig_top95_solved_and_unique_under_mac() {
    assert_eq!(solve_set(TOP95, &sudoku::default_config(), true), 95);
}

#[test]
fn norvig_top95_solved_under_mac_with_dom_wdeg() {
    let config = SearchConfig {
        variable_order: csp_search::VariableOrderKind::DomWdeg,
        ..sudoku::default_config()
    };
    assert_eq!(solve_set(TOP95, &config, false), 95);
}

#[test]
fn norvig_impossible_puzzle_has_no_solution_and_hard1_is_not_unique() {
    let puzzles = sudoku::parse_puzzles(NEGATIVE).expect("a valid file");
    let config = sudoku::default_config().first(2);
    // Line 1, "impossible": MAC proves it without a single branch.
    let impossible = sudoku::solve(&puzzles[0].grid, &config, ()).unwrap();
    assert_eq!(impossible.result.outcome, Outcome::Exhausted);
    assert_eq!(impossible.first, None);
    // Line 2, "hard1": many solutions; two different ones, both correct, settle it.
    let hard1 = sudoku::solve(&puzzles[1].grid, &config, ()).unwrap();
    let (first, second) = (hard1.first.unwrap(), hard1.second.unwrap());
    assert_ne!(first, second);
    assert_eq!(sudoku::check(&puzzles[1].grid, &first), Ok(()));
    assert_eq!(sudoku::check(&puzzles[1].grid, &second), Ok(()));
}

#[test]
fn the_checker_rejects_each_kind_of_wrong_grid() {
    let puzzles = sudoku::parse_puzzles(HARDEST).unwrap();
    let puzzle = &puzzles[0];
    let solution: Grid = puzzle.note.as_deref().unwrap().parse().unwrap();
    assert_eq!(sudoku::check(&puzzle.grid, &solution), Ok(()));
    let mut cells = *solution.cells();
    // Swapping two cells of a row keeps the row but breaks a column (or a given).
    cells.swap(0, 1);
    assert!(sudoku::check(&puzzle.grid, &Grid::from_cells(cells).unwrap()).is_err());
    let mut blank = *solution.cells();
    blank[40] = 0;
    assert!(matches!(
        sudoku::check(&puzzle.grid, &Grid::from_cells(blank).unwrap()),
        Err(sudoku::CheckError::Blank { row: 5, column: 5 })
    ));
    // A given changed: the first given of the puzzle, set to another digit.
    let given = puzzle.grid.cells().iter().position(|&c| c != 0).unwrap();
    let mut changed = *solution.cells();
    changed[given] = changed[given] % 9 + 1;
    assert!(matches!(
        sudoku::check(&puzzle.grid, &Grid::from_cells(changed).unwrap()),
        Err(sudoku::CheckError::GivenChanged { .. })
    ));
    // The solution is not a solution of an unrelated puzzle with other givens.
    let other = &puzzles[1];
    assert!(sudoku::check(&other.grid, &solution).is_err());
}
