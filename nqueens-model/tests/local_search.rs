//! The counter encoding's local-search conflict counts against a naive count, and against the pairwise
//! encoding's sum of violated constraints.

use csp_core::{LocalCtx, LocalState, Model, Propagator, VarId, checker_conflicts};
use nqueens_model::{Encoding, model};
use proptest::prelude::*;

/// How many queens other than the one in `row` attack the square (`row`, `column`).
fn naive_attackers(values: &[i32], row: usize, column: i32) -> u32 {
    let (row, column) = (row as i64, i64::from(column));
    values
        .iter()
        .enumerate()
        .filter(|&(other_row, _)| other_row as i64 != row)
        .filter(|&(other_row, &other_column)| {
            let (other_row, other_column) = (other_row as i64, i64::from(other_column));
            other_column == column
                || other_row + other_column == row + column
                || other_row - other_column == row - column
        })
        .count() as u32
}

/// The pairwise encoding's conflict count for `var = value`: its violated constraints, each counted
/// from the checker alone (its not-equal constraints have no local-search hooks of their own).
fn pairwise_conflicts(model: &Model, values: &[i32], var: VarId, value: i32) -> u32 {
    model
        .constraints_of(var)
        .iter()
        .map(|&id| checker_conflicts(model.constraint(id), var, value, values))
        .sum()
}

/// The counters model's queens constraint, whose local-search hooks count its own conflicts, and
/// how many state cells it laid out.
fn queens_hooks(model: &Model) -> (&dyn Propagator, usize) {
    let id = model
        .constraint_ids()
        .next()
        .expect("one queens constraint");
    (model.constraint(id), model.cell_range(id).len())
}

fn assert_conflicts_are_exact(
    counters: &dyn Propagator,
    pairwise: &Model,
    values: &[i32],
    cells: &[i64],
) {
    let n = values.len();
    let ctx = LocalCtx::new(values, cells);
    // The batch forms agree with the one-at-a-time count, off-board values included.
    let mut per_row = vec![5; n];
    counters.add_scope_conflicts(&ctx, &mut per_row);
    let columns: Vec<i32> = (-2..n as i32 + 2).collect();
    for row in 0..n {
        let var = VarId::from_index(row);
        assert_eq!(
            per_row[row],
            5 + counters.conflicts(var, values[row], &ctx),
            "scope batch, row {row}"
        );
        let mut batch = vec![1; columns.len()];
        counters.add_conflicts(var, &columns, &ctx, &mut batch);
        for (&column, &total) in columns.iter().zip(&batch) {
            assert_eq!(
                total,
                1 + counters.conflicts(var, column, &ctx),
                "row {row}, column {column}"
            );
        }
    }
    for row in 0..n {
        let var = VarId::from_index(row);
        for column in 0..n as i32 {
            let expected = naive_attackers(values, row, column);
            assert_eq!(
                counters.conflicts(var, column, &ctx),
                expected,
                "row {row}, column {column}, queens {values:?}"
            );
            assert_eq!(
                pairwise_conflicts(pairwise, values, var, column),
                expected,
                "pairwise: row {row}, column {column}, queens {values:?}"
            );
        }
    }
}

/// A board size, a full assignment and a sequence of moves (row, new column) on it.
fn board_and_moves() -> impl Strategy<Value = (Vec<i32>, Vec<(usize, i32)>)> {
    (1_usize..=12).prop_flat_map(|n| {
        (
            prop::collection::vec(0..n as i32, n),
            prop::collection::vec((0..n, 0..n as i32), 0..30),
        )
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn conflicts_count_the_other_attacking_queens_after_reset_and_moves(
        (mut values, moves) in board_and_moves(),
    ) {
        let n = values.len();
        let counters_model = model(n, Encoding::Counters).expect("small boards fit");
        let pairwise_model = model(n, Encoding::Pairwise).expect("small boards fit");
        let (counters, size) = queens_hooks(&counters_model);
        let mut cells = vec![0; size];
        counters.reset_local(&values, &mut LocalState::new(&mut cells));
        assert_conflicts_are_exact(counters, &pairwise_model, &values, &cells);
        for (row, new) in moves {
            let old = values[row];
            values[row] = new;
            counters.moved(VarId::from_index(row), old, new, &mut LocalState::new(&mut cells));
            assert_conflicts_are_exact(counters, &pairwise_model, &values, &cells);
        }
        // Rebuilding from scratch gives the cells the moves left.
        let mut rebuilt = vec![7; size];
        counters.reset_local(&values, &mut LocalState::new(&mut rebuilt));
        prop_assert_eq!(rebuilt, cells);
    }
}

#[test]
fn a_solution_has_no_conflicts_where_its_queens_stand() {
    let values = [0, 4, 7, 5, 2, 6, 1, 3];
    let model = model(8, Encoding::Counters).expect("8 queens fit");
    let (counters, size) = queens_hooks(&model);
    let mut cells = vec![0; size];
    counters.reset_local(&values, &mut LocalState::new(&mut cells));
    let ctx = LocalCtx::new(&values, &cells);
    for (row, &column) in values.iter().enumerate() {
        assert_eq!(counters.conflicts(VarId::from_index(row), column, &ctx), 0);
    }
}
