//! Superqueens on the toroidal board (Abramson & Yung §2, *Divide and Conquer under Global
//! Constraints*, 1989): a queen that reaches an edge wraps round to the opposite one, so the
//! diagonals become the `n` wrapped lines `(row + column) mod n` and the `n` lines `(row − column)
//! mod n`. Pólya showed a solution exists exactly when `n` is coprime to 6; every toroidal solution
//! is also a planar one.
//!
//! [`verify_torus`] checks a placement on the torus; [`torus`] builds one (the knight-walk; the
//! decompositions and regular solutions are toroidal too); [`torus_model`] states the problem with
//! generic constraints only, so that the engine can count the toroidal solutions (OEIS A051906).

use std::fmt;

use csp_core::constraints::{NotEqual, Predicate};
use csp_core::{Model, ModelBuilder, ModelError, VarId};
use fixedbitset::FixedBitSet;
use thiserror::Error;

use super::{ConstructError, Construction, coprime_to_6, knight_walk};
use crate::{Encoding, MEMORY_BUDGET_BYTES, QueensError, estimated_model_bytes};

/// The line two attacking superqueens share on the torus.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TorusLine {
    /// The same column.
    Column,
    /// The same wrapped up-diagonal: `(row + column) mod n` is the same.
    UpDiagonal,
    /// The same wrapped down-diagonal: `(row − column) mod n` is the same.
    DownDiagonal,
}

impl fmt::Display for TorusLine {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            TorusLine::Column => "column",
            TorusLine::UpDiagonal => "wrapped up-diagonal",
            TorusLine::DownDiagonal => "wrapped down-diagonal",
        })
    }
}

/// Why [`verify_torus`] rejected a placement.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum TorusVerifyError {
    /// A queen stands outside the board.
    #[error("the queen in row {row} is in column {column}, outside the board's columns 0..{n}")]
    ColumnOutOfRange {
        /// The queen's row.
        row: usize,
        /// Its column.
        column: u32,
        /// The board's size.
        n: usize,
    },
    /// Two superqueens attack each other on the torus.
    #[error(
        "queens in rows {first_row} and {second_row} (columns {first_column} and {second_column}) share a {line} on the torus"
    )]
    Attack {
        /// The earlier row of the pair.
        first_row: usize,
        /// The later row of the pair.
        second_row: usize,
        /// The column of the queen in `first_row`.
        first_column: u32,
        /// The column of the queen in `second_row`.
        second_column: u32,
        /// The line they share.
        line: TorusLine,
    },
}

/// The column, wrapped up-diagonal and wrapped down-diagonal of a square, each in `0..n`, for a column
/// already known to be below `n`. Sums are taken in u64.
fn torus_lines(n: usize, row: usize, column: u32) -> (usize, usize, usize) {
    let (n, row, column) = (n as u64, row as u64, u64::from(column));
    let up = (row + column) % n;
    let down = (row + n - column) % n;
    (column as usize, up as usize, down as usize)
}

/// Checks that `placement` places `n = placement.len()` superqueens on the `n × n` torus, none attacking
/// another, in O(n) time and 3n bits. Like [`crate::verify`], it reports the first row that is off the
/// board or attacked by an earlier row, naming the earliest such row.
///
/// ```
/// use nqueens_model::construct::verify_torus;
///
/// verify_torus(&[0, 2, 4, 1, 3]).unwrap();
/// // A planar solution need not be toroidal: (row − column) mod 4 is 2 for rows 1 and 2.
/// assert_eq!(
///     verify_torus(&[1, 3, 0, 2]).unwrap_err().to_string(),
///     "queens in rows 1 and 2 (columns 3 and 0) share a wrapped down-diagonal on the torus"
/// );
/// ```
pub fn verify_torus(placement: &[u32]) -> Result<(), TorusVerifyError> {
    let n = placement.len();
    let mut columns = FixedBitSet::with_capacity(n);
    let mut ups = FixedBitSet::with_capacity(n);
    let mut downs = FixedBitSet::with_capacity(n);
    for (row, &column) in placement.iter().enumerate() {
        if column as usize >= n {
            return Err(TorusVerifyError::ColumnOutOfRange { row, column, n });
        }
        let (column_line, up, down) = torus_lines(n, row, column);
        if columns.contains(column_line) || ups.contains(up) || downs.contains(down) {
            return Err(first_torus_attacker(placement, row));
        }
        columns.insert(column_line);
        ups.insert(up);
        downs.insert(down);
    }
    Ok(())
}

/// The attack on `row` by the earliest earlier row, which [`verify_torus`] knows exists. If none were
/// found (it cannot be), the row is reported against itself on its column rather than panicking.
fn first_torus_attacker(placement: &[u32], row: usize) -> TorusVerifyError {
    let n = placement.len();
    let column = placement[row];
    let lines = torus_lines(n, row, column);
    let (first_row, line) = placement[..row]
        .iter()
        .enumerate()
        .find_map(|(earlier, &earlier_column)| {
            let earlier_lines = torus_lines(n, earlier, earlier_column);
            if earlier_lines.0 == lines.0 {
                Some((earlier, TorusLine::Column))
            } else if earlier_lines.1 == lines.1 {
                Some((earlier, TorusLine::UpDiagonal))
            } else if earlier_lines.2 == lines.2 {
                Some((earlier, TorusLine::DownDiagonal))
            } else {
                None
            }
        })
        .unwrap_or((row, TorusLine::Column));
    TorusVerifyError::Attack {
        first_row,
        second_row: row,
        first_column: placement[first_row],
        second_column: column,
        line,
    }
}

/// A toroidal solution for `n` coprime to 6: the knight-walk. Any other `n` has none (Pólya), and gets
/// [`ConstructError::NoToroidalSolution`]: "no toroidal solution for n = 8: n must be coprime to 6
/// (Pólya)". [`super::decomposition`] and [`super::regular`] build other toroidal solutions.
pub fn torus(n: usize) -> Result<Construction, ConstructError> {
    if n == 0 {
        return Err(ConstructError::ZeroSize);
    }
    if !coprime_to_6(n) {
        return Err(ConstructError::NoToroidalSolution { n });
    }
    knight_walk(n)
}

/// Bytes per modular-diagonal predicate: the boxed `Predicate` (its two-variable scope, name and boxed
/// closure, 48 bytes, plus allocator overhead), its name's heap block, its closure's captured size and
/// offset in their own block, the model's pointer to it (doubled for growth slack), its state-cell
/// offset and unassigned-variable counter, and its entries in its two variables' constraint lists
/// (doubled for growth slack): about 190 bytes, rounded up to 256.
const PREDICATE_BYTES: u64 = 256;

/// Bytes per column not-equal constraint, as [`crate::estimated_model_bytes`] counts the pairwise
/// encoding's constraints.
const NOT_EQUAL_BYTES: u64 = 96;

/// An estimate, in bytes, of the memory [`torus_model`] and one search over it take at worst: the
/// counters model's estimate for the variables, domains and trail ([`estimated_model_bytes`]), plus,
/// for each of the `n(n − 1)/2` pairs of rows, one column [`NotEqual`] and two modular-diagonal
/// [`Predicate`]s. Saturates at `u64::MAX`.
pub fn estimated_torus_model_bytes(n: usize) -> u64 {
    let n_64 = n as u64;
    let pairs = n_64.saturating_mul(n_64.saturating_sub(1)) / 2;
    estimated_model_bytes(n, Encoding::Counters)
        .saturating_add(pairs.saturating_mul(NOT_EQUAL_BYTES + 2 * PREDICATE_BYTES))
}

/// The largest board [`torus_model`] builds: the last `n` whose [`estimated_torus_model_bytes`] is within
/// [`MEMORY_BUDGET_BYTES`] (4 GiB). Counting is hopeless long before it; the bound only keeps the
/// model from exhausting memory.
pub fn max_torus_model_n() -> usize {
    // A binary search for the last n within budget: the estimate grows with n.
    let (mut within, mut beyond) = (1_usize, 1_usize << 20);
    while beyond - within > 1 {
        let middle = within + (beyond - within) / 2;
        if estimated_torus_model_bytes(middle) <= MEMORY_BUDGET_BYTES {
            within = middle;
        } else {
            beyond = middle;
        }
    }
    within
}

/// Toroidal N-queens from generic constraints only: one variable per row (`q0`, `q1`, …, columns
/// `0..n`), and for every pair of rows `i < j`, in this order, `q_i != q_j` ([`NotEqual`]) and the two
/// modular diagonals as [`Predicate`]s, `(q_i + i) mod n != (q_j + j) mod n` and
/// `(q_i − i) mod n != (q_j − j) mod n`. Any search of the engine counts its solutions; for
/// `n = 1..=13` they are OEIS A051906.
///
/// ```
/// use csp_search::{SearchConfig, solve};
/// use nqueens_model::construct::torus_model;
///
/// let model = torus_model(7).unwrap();
/// let result = solve(&model, &SearchConfig::min().all_solutions(), ());
/// assert_eq!(result.stats.solutions, 28);
/// ```
pub fn torus_model(n: usize) -> Result<Model, ConstructError> {
    if n == 0 {
        return Err(ConstructError::ZeroSize);
    }
    let max = max_torus_model_n();
    if n > max {
        return Err(ConstructError::TooLarge {
            construction: "the toroidal model",
            n,
            max,
            bytes: estimated_torus_model_bytes(n),
        });
    }
    let mut builder = ModelBuilder::new();
    // n ≤ max_torus_model_n, a few thousand, so rows and columns fit i32 and i64 sums are exact.
    let last_column = (n - 1) as i32;
    let rows = (0..n)
        .map(|row| builder.int_var(format!("q{row}"), 0..=last_column))
        .collect::<Result<Vec<VarId>, ModelError>>()
        .map_err(QueensError::from)?;
    let size = n as i64;
    for (i, &queen_i) in rows.iter().enumerate() {
        for (j, &queen_j) in rows.iter().enumerate().skip(i + 1) {
            // (q_i + i) ≡ (q_j + j) exactly when q_i − q_j ≡ j − i, and (q_i − i) ≡ (q_j − j) exactly
            // when q_i − q_j ≡ i − j (mod n).
            let up_offset = (j as i64 - i as i64).rem_euclid(size);
            let down_offset = (i as i64 - j as i64).rem_euclid(size);
            let differs_by = move |offset: i64| {
                move |x: i32, y: i32| (i64::from(x) - i64::from(y) - offset).rem_euclid(size) != 0
            };
            builder
                .post(NotEqual::new(queen_i, queen_j))
                .map_err(QueensError::from)?;
            builder
                .post(Predicate::new(
                    format!("wrapped up-diagonal q{i} q{j}"),
                    queen_i,
                    queen_j,
                    differs_by(up_offset),
                ))
                .map_err(QueensError::from)?;
            builder
                .post(Predicate::new(
                    format!("wrapped down-diagonal q{i} q{j}"),
                    queen_i,
                    queen_j,
                    differs_by(down_offset),
                ))
                .map_err(QueensError::from)?;
        }
    }
    Ok(builder.build())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_planar_solution_may_fail_on_the_torus() {
        assert_eq!(verify_torus(&[]), Ok(()));
        assert_eq!(verify_torus(&[0]), Ok(()));
        assert_eq!(
            verify_torus(&[0, 4, 7, 5, 2, 6, 1, 3]),
            Err(TorusVerifyError::Attack {
                first_row: 0,
                second_row: 3,
                first_column: 0,
                second_column: 5,
                line: TorusLine::UpDiagonal,
            })
        );
        assert_eq!(
            verify_torus(&[0, 5]),
            Err(TorusVerifyError::ColumnOutOfRange {
                row: 1,
                column: 5,
                n: 2
            })
        );
    }

    #[test]
    fn torus_refuses_multiples_of_2_and_3_citing_polya() {
        assert_eq!(
            torus(9).unwrap_err().to_string(),
            "no toroidal solution for n = 9: n must be coprime to 6 (Pólya)"
        );
        assert_eq!(torus(0), Err(ConstructError::ZeroSize));
        assert_eq!(verify_torus(&torus(13).unwrap().placement), Ok(()));
    }

    #[test]
    fn the_model_is_refused_beyond_its_memory_bound() {
        let max = max_torus_model_n();
        assert!(estimated_torus_model_bytes(max) <= MEMORY_BUDGET_BYTES);
        assert!(estimated_torus_model_bytes(max + 1) > MEMORY_BUDGET_BYTES);
        assert!(matches!(
            torus_model(max + 1),
            Err(ConstructError::TooLarge { .. })
        ));
        assert_eq!(estimated_torus_model_bytes(usize::MAX), u64::MAX);
    }
}
