//! Sudoku: 81 cells in nine rows, nine columns and nine 3×3 boxes, each holding the digits 1 to 9
//! once.
//!
//! Puzzles come one per line, 81 characters row by row: a digit `1`–`9` for a given, `.` or `0` for a
//! blank. Anything after the 81 characters and a space (a known solution, say) is kept as the
//! puzzle's note and otherwise ignored; blank lines and lines starting with `#` are skipped. That reads
//! the usual collections (Norvig's, Royle's, Project Euler's as one line per grid) as they are
//! published.

use std::fmt;
use std::io::BufRead;
use std::ops::ControlFlow;
use std::str::FromStr;

use csp_core::constraints::AllDifferent;
use csp_core::{Model, ModelBuilder, ModelError, VarId};
use csp_search::{
    FnObserver, Propagation, SearchConfig, SearchEvent, SearchObserver, SearchResult,
    VariableOrderKind, solve as run_search,
};
use thiserror::Error;

use crate::line_reader::{LineReader, MAX_LINE_BYTES, ReadError};

/// The number of cells.
pub const CELLS: usize = 81;

/// A grid: 81 cells row by row, each 0 (blank) or a digit 1 to 9.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Grid {
    cells: [u8; CELLS],
}

impl Grid {
    /// The grid with these cells, row by row; `None` if a cell is above 9.
    pub fn from_cells(cells: [u8; CELLS]) -> Option<Self> {
        cells.iter().all(|&c| c <= 9).then_some(Grid { cells })
    }

    /// Reads one puzzle: exactly 81 characters, each a digit `1`–`9`, or `.` or `0` for a blank.
    pub fn from_line(text: &str) -> Result<Self, LineError> {
        let mut cells = [0u8; CELLS];
        let mut count = 0;
        for (index, character) in text.chars().enumerate() {
            let cell = match character {
                '.' | '0' => 0,
                '1'..='9' => character as u8 - b'0',
                _ => {
                    return Err(LineError::BadCharacter {
                        column: index + 1,
                        found: character,
                    });
                }
            };
            if index < CELLS {
                cells[index] = cell;
            }
            count += 1;
        }
        if count != CELLS {
            return Err(LineError::WrongLength { found: count });
        }
        Ok(Grid { cells })
    }

    /// A solved grid from a search's solution (`values[i]` for cell `i`, each 1 to 9); `None` when
    /// the values are not 81 digits.
    pub fn from_values(values: &[i32]) -> Option<Self> {
        if values.len() != CELLS {
            return None;
        }
        let mut cells = [0u8; CELLS];
        for (cell, &value) in cells.iter_mut().zip(values) {
            *cell = u8::try_from(value).ok().filter(|d| (1..=9).contains(d))?;
        }
        Some(Grid { cells })
    }

    /// The cells, row by row (0 for a blank).
    pub fn cells(&self) -> &[u8; CELLS] {
        &self.cells
    }

    /// The cell in `row` and `column` (both 0 to 8).
    pub fn get(&self, row: usize, column: usize) -> u8 {
        self.cells[row * 9 + column]
    }

    /// How many cells are given.
    pub fn givens(&self) -> usize {
        self.cells.iter().filter(|&&c| c != 0).count()
    }

    /// The grid as one line, `.` for a blank (the format [`Grid::from_line`] reads).
    pub fn to_line(&self) -> String {
        self.to_string()
    }

    /// The grid as nine lines of nine, with blanks as `.` and the boxes spaced apart.
    pub fn render(&self) -> String {
        let mut text = String::with_capacity(CELLS * 3);
        for row in 0..9 {
            if row == 3 || row == 6 {
                text.push_str("------+-------+------\n");
            }
            for column in 0..9 {
                if column == 3 || column == 6 {
                    text.push_str("| ");
                }
                text.push(cell_char(self.get(row, column)));
                text.push(if column == 8 { '\n' } else { ' ' });
            }
        }
        text
    }
}

fn cell_char(cell: u8) -> char {
    if cell == 0 {
        '.'
    } else {
        char::from(b'0' + cell)
    }
}

impl fmt::Display for Grid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.cells
            .iter()
            .try_for_each(|&c| fmt::Write::write_char(f, cell_char(c)))
    }
}

impl fmt::Debug for Grid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Grid({self})")
    }
}

impl FromStr for Grid {
    type Err = LineError;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        Grid::from_line(text)
    }
}

/// What is wrong with one puzzle line.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum LineError {
    /// The puzzle does not have 81 cells.
    #[error("expected 81 cells, found {found}")]
    WrongLength {
        /// How many characters the puzzle has.
        found: usize,
    },
    /// A character is neither a digit nor a blank.
    #[error("column {column}: {found:?} is not a cell (a digit 1-9, or '.' or '0' for a blank)")]
    BadCharacter {
        /// Its position in the line, from 1.
        column: usize,
        /// The character.
        found: char,
    },
}

/// Why a puzzle file could not be read: the line (from 1) and what is wrong with it.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum SudokuError {
    /// A line is not a puzzle.
    #[error("line {line}: {error}")]
    Line {
        /// The line number, from 1.
        line: usize,
        /// What is wrong.
        error: LineError,
    },
    /// The input holds blank lines and comments only.
    #[error("no puzzle in the input (expected lines of 81 cells)")]
    NoPuzzles,
    /// A line that could not be read: longer than [`MAX_LINE_BYTES`] (no puzzle line is), not
    /// UTF-8, or not read at all.
    #[error(transparent)]
    Read(#[from] ReadError),
}

impl SudokuError {
    /// The line the error is on, if it is on one.
    pub fn line(&self) -> Option<usize> {
        match self {
            SudokuError::Line { line, .. } => Some(*line),
            SudokuError::Read(error) => error.line(),
            SudokuError::NoPuzzles => None,
        }
    }
}

/// One puzzle of a file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Puzzle {
    /// Its line number, from 1.
    pub line: usize,
    /// The givens.
    pub grid: Grid,
    /// Whatever followed the puzzle on its line, after white space (a known solution, often).
    pub note: Option<String>,
}

/// Reads every puzzle of `text`, one per line (see the [module documentation](self)). Fails on the
/// first bad line, naming it, or when there is no puzzle at all.
pub fn parse_puzzles(text: &str) -> Result<Vec<Puzzle>, SudokuError> {
    puzzles(text.as_bytes()).collect()
}

/// The puzzles of `reader` one at a time, as they arrive, each line read with bounded memory (at most
/// [`MAX_LINE_BYTES`]): so an endless pipe of puzzles is answered one by one. The first bad line ends
/// the puzzles with its error; an input with no puzzle at all gives [`SudokuError::NoPuzzles`].
pub fn puzzles<R: BufRead>(reader: R) -> Puzzles<R> {
    Puzzles {
        lines: LineReader::new(reader, MAX_LINE_BYTES),
        found: 0,
        done: false,
    }
}

/// The iterator of [`puzzles`].
#[derive(Debug)]
pub struct Puzzles<R> {
    lines: LineReader<R>,
    found: usize,
    done: bool,
}

impl<R: BufRead> Iterator for Puzzles<R> {
    type Item = Result<Puzzle, SudokuError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.done {
            return None;
        }
        loop {
            let (number, line) = match self.lines.next_line() {
                Some(Ok(line)) => line,
                Some(Err(error)) => {
                    self.done = true;
                    return Some(Err(error.into()));
                }
                None => {
                    self.done = true;
                    return (self.found == 0).then_some(Err(SudokuError::NoPuzzles));
                }
            };
            let trimmed = line.trim();
            if trimmed.is_empty() || trimmed.starts_with('#') {
                continue;
            }
            let (puzzle, note) = match trimmed.split_once(char::is_whitespace) {
                Some((puzzle, note)) => (puzzle, Some(note.trim().to_owned())),
                None => (trimmed, None),
            };
            let puzzle = Grid::from_line(puzzle)
                .map(|grid| Puzzle {
                    line: number,
                    grid,
                    note,
                })
                .map_err(|error| SudokuError::Line {
                    line: number,
                    error: shift_column(error, line),
                });
            self.done = puzzle.is_err();
            self.found += 1;
            return Some(puzzle);
        }
    }
}

/// A bad character's column counted in the whole line, past any leading white space before the
/// puzzle.
fn shift_column(error: LineError, line: &str) -> LineError {
    match error {
        LineError::BadCharacter { column, found } => {
            let leading = line.chars().count() - line.trim_start().chars().count();
            LineError::BadCharacter {
                column: column + leading,
                found,
            }
        }
        other => other,
    }
}

/// The model: a variable per cell, named `r{row}c{column}` from 1, its domain 1 to 9 or the given
/// digit alone; one all-different constraint per row, per column and per box.
pub fn model(grid: &Grid) -> Result<Model, ModelError> {
    let mut builder = ModelBuilder::new();
    let mut cells: Vec<VarId> = Vec::with_capacity(CELLS);
    for (index, &given) in grid.cells.iter().enumerate() {
        let name = format!("r{}c{}", index / 9 + 1, index % 9 + 1);
        let var = if given == 0 {
            builder.int_var(name, 1..=9)?
        } else {
            builder.int_var_with_values(name, [i32::from(given)])?
        };
        cells.push(var);
    }
    for unit in units() {
        builder.post(AllDifferent::new(unit.iter().map(|&i| cells[i]).collect()))?;
    }
    Ok(builder.build())
}

/// The 27 units (rows, then columns, then boxes), each as its nine cell indices.
pub fn units() -> impl Iterator<Item = [usize; 9]> {
    let rows = (0..9).map(|r| std::array::from_fn(|k| r * 9 + k));
    let columns = (0..9).map(|c| std::array::from_fn(|k| k * 9 + c));
    let boxes = (0..9).map(|b| {
        let (top, left) = (b / 3 * 3, b % 3 * 3);
        std::array::from_fn(|k| (top + k / 3) * 9 + left + k % 3)
    });
    rows.chain(columns).chain(boxes)
}

/// The unit names [`units`] lists, for messages: "row 1" … "column 1" … "box 1" ….
fn unit_name(unit: usize) -> String {
    match unit / 9 {
        0 => format!("row {}", unit % 9 + 1),
        1 => format!("column {}", unit % 9 + 1),
        _ => format!("box {}", unit % 9 + 1),
    }
}

/// Why a grid is not a solution of a puzzle.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum CheckError {
    /// A cell is blank.
    #[error("row {row}, column {column} is blank")]
    Blank {
        /// From 1.
        row: usize,
        /// From 1.
        column: usize,
    },
    /// A given was changed.
    #[error("row {row}, column {column} holds {found}, but the puzzle gives {given}")]
    GivenChanged {
        /// From 1.
        row: usize,
        /// From 1.
        column: usize,
        /// The puzzle's digit.
        given: u8,
        /// The grid's digit.
        found: u8,
    },
    /// A unit holds a digit twice.
    #[error("{unit} holds {digit} twice")]
    Repeated {
        /// "row 3", "column 5" or "box 9".
        unit: String,
        /// The digit.
        digit: u8,
    },
}

/// Whether `solution` solves `puzzle`: every cell filled, every given kept, every row, column and box
/// holding each digit once. Independent of the engine: plain loops over the grid.
pub fn check(puzzle: &Grid, solution: &Grid) -> Result<(), CheckError> {
    for (index, (&given, &found)) in puzzle.cells.iter().zip(&solution.cells).enumerate() {
        let (row, column) = (index / 9 + 1, index % 9 + 1);
        if found == 0 {
            return Err(CheckError::Blank { row, column });
        }
        if given != 0 && given != found {
            return Err(CheckError::GivenChanged {
                row,
                column,
                given,
                found,
            });
        }
    }
    for (number, unit) in units().enumerate() {
        let mut seen = [false; 10];
        for index in unit {
            let digit = solution.cells[index];
            if std::mem::replace(&mut seen[usize::from(digit)], true) {
                return Err(CheckError::Repeated {
                    unit: unit_name(number),
                    digit,
                });
            }
        }
    }
    Ok(())
}

/// The search that solves Sudoku well: fewest choices first (lowest-index ties, ascending values)
/// with arc consistency maintained, stopping at the first solution. `benches/problems.rs` compares it
/// with forward checking on Norvig's hard puzzles.
pub fn default_config() -> SearchConfig {
    SearchConfig {
        variable_order: VariableOrderKind::FewestChoices,
        propagation: Propagation::Mac,
        ..SearchConfig::default()
    }
}

/// What a search of one puzzle found.
#[derive(Debug, Clone, PartialEq)]
pub struct Answer {
    /// The first solution, if any.
    pub first: Option<Grid>,
    /// The second solution, if the search went on to one (a proof that the puzzle is not unique).
    pub second: Option<Grid>,
    /// The search's outcome and statistics; `result.stats.solutions` counts the solutions.
    pub result: SearchResult,
}

impl Answer {
    /// How many solutions the search found.
    pub fn solutions(&self) -> u64 {
        self.result.stats.solutions
    }
}

/// Searches `puzzle` as `config` says (its solution limit decides whether to stop at the first
/// solution, go on to a second, or count them all), streaming every event to `observer` too.
pub fn solve<O: SearchObserver>(
    puzzle: &Grid,
    config: &SearchConfig,
    mut observer: O,
) -> Result<Answer, ModelError> {
    let model = model(puzzle)?;
    let (mut first, mut second) = (None, None);
    let keep = FnObserver(|event: &SearchEvent<'_>| {
        if let SearchEvent::Solution { values, .. } = event {
            let grid = Grid::from_values(values);
            if first.is_none() {
                first = grid;
            } else if second.is_none() {
                second = grid;
            }
        }
        ControlFlow::Continue(())
    });
    let result = run_search(&model, config, (keep, &mut observer));
    Ok(Answer {
        first,
        second,
        result,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn units_cover_every_cell_three_times() {
        let mut count = [0; CELLS];
        for unit in units() {
            for i in unit {
                count[i] += 1;
            }
        }
        assert!(count.iter().all(|&c| c == 3));
        assert_eq!(units().count(), 27);
    }

    #[test]
    fn lines_round_trip_and_render() {
        let line =
            "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";
        let grid: Grid = line.parse().unwrap();
        assert_eq!(grid.to_line(), line);
        assert_eq!(grid.givens(), 17);
        assert_eq!(grid.render().lines().count(), 11);
        let zeros = line.replace('.', "0");
        assert_eq!(Grid::from_line(&zeros), Ok(grid));
    }
}
