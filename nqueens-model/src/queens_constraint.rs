//! The N-queens global constraint with column and diagonal counters.

use std::fmt;

use csp_core::{
    CheckCtx, Constraint, Constructor, LineRule, LocalCtx, LocalState, ModelError, PostCtx,
    PropagationCtx, Propagator, Slots, VarId, Wipeout,
};

/// The most rows (and columns) a board may have: 2²⁸, so that every row and column fits an `i32` value
/// and every local-search count (at most `3n`) fits a `u32`. Memory stops real boards far below it.
pub const MAX_BOARD_SIZE: u64 = 1 << 28;
use fixedbitset::FixedBitSet;

/// No two queens attack each other: one variable per row, valued by the queen's column, with every
/// column, every up-diagonal and every down-diagonal holding at most one queen. A column outside
/// `0..n` is off the board and violates the constraint.
///
/// This is the counter encoding of [`crate::Encoding::Counters`]. It keeps Dijkstra's `col`, `up`
/// and `down` tables (*Notes on Structured Programming*, 1970) as state cells of the store, so that
/// checking a square, placing a queen and counting a square's attackers are O(1), and forward
/// checking costs O(1) per pruned square. Unlike Dijkstra's booleans the tables hold counts: a
/// search that only checks against placed queens never places two on one line, but local search
/// does, and a count survives removing one of them.
///
/// The lines are named as [`crate::render`] draws the board, row 0 at the top and column 0 on the left:
/// an *up-diagonal* rises to the right and keeps `row + column` constant; a *down-diagonal* falls to the
/// right and keeps `row − column` constant. Dijkstra numbers rows from the bottom, so his `up` table is
/// indexed by `row − column` and his `down` table by `row + column`: the same lines under swapped names.
///
/// Under the same search the constraint behaves exactly like the pairwise encoding
/// ([`crate::Encoding::Pairwise`]): [`check`](Propagator::check) accepts the same values, forward
/// checking removes the same values and fails in the same situations. Give every row the domain
/// `0..=n−1`, as [`crate::model`] does: off-board values are refused when checked and fail propagation
/// once assigned, but are not pruned ahead of time.
#[derive(Clone)]
pub struct QueensConstraint {
    /// The row variables, row `i` at index `i`.
    rows: Vec<VarId>,
    /// The index of row 0's variable; row `r` is variable `first + r`, so a variable's row is one
    /// subtraction away.
    first: usize,
    /// The line counters, laid out as [`QueensConstraint::lines`] indexes them: the whole state.
    counters: Slots<i64>,
}

impl QueensConstraint {
    /// The constraint over `rows`, where `rows[i]` is the variable of row `i`.
    ///
    /// The variables must be consecutive (`rows[i].index() == rows[0].index() + i`), so that a variable's
    /// row is found in O(1). There must be at least one row and at most [`MAX_BOARD_SIZE`].
    pub fn new(rows: Vec<VarId>) -> Result<Constructor<Self>, ModelError> {
        let invalid = |reason: String| ModelError::InvalidConstraint {
            constraint: format!("queens constraint over {} rows", rows.len()),
            reason,
        };
        let Some(first) = rows.first().map(|var| var.index()) else {
            return Err(invalid("there must be at least one row".to_owned()));
        };
        if rows.len() as u64 > MAX_BOARD_SIZE {
            return Err(invalid(format!(
                "{} rows are more than the largest board ({MAX_BOARD_SIZE}) has",
                rows.len()
            )));
        }
        if let Some((row, var)) = rows
            .iter()
            .enumerate()
            .find(|&(row, var)| var.index() != first + row)
        {
            return Err(invalid(format!(
                "the row variables must be consecutive, but row {row} is variable #{} where #{} was expected",
                var.index(),
                first + row
            )));
        }
        Ok(Constructor::new(move |ctx: &mut PostCtx| {
            let counters = ctx.slots(5 * rows.len() - 2);
            Ok(QueensConstraint {
                rows,
                first,
                counters,
            })
        }))
    }

    /// The number of rows (and columns) of the board.
    #[inline]
    pub fn n_queens(&self) -> usize {
        self.rows.len()
    }

    /// The row of a variable of the scope.
    #[inline]
    fn row_of(&self, var: VarId) -> usize {
        debug_assert!(
            (self.first..self.first + self.n_queens()).contains(&var.index()),
            "{var:?} is not a row of this queens constraint"
        );
        var.index() - self.first
    }

    /// The value as a column of the board, or `None` when it lies off the board.
    #[inline]
    fn column(&self, value: i32) -> Option<usize> {
        usize::try_from(value)
            .ok()
            .filter(|&column| column < self.n_queens())
    }

    /// The state cells of the column, up-diagonal and down-diagonal through the square
    /// (`row`, `column`), which must lie on the board.
    ///
    /// The cells are laid out as `n` column counters, then `2n − 1` up-diagonal counters indexed by
    /// `row + column`, then `2n − 1` down-diagonal counters indexed by `row − column + n − 1`.
    #[inline]
    fn lines(&self, row: usize, column: usize) -> [usize; 3] {
        let n = self.n_queens();
        let up_diagonal = n + row + column;
        // Adding n − 1 before subtracting keeps the index non-negative without signed arithmetic.
        let down_diagonal = 3 * n - 1 + row + (n - 1) - column;
        [column, up_diagonal, down_diagonal]
    }

    /// How many local-search conflicts an off-board queen counts: more than any square of the board can
    /// have (at most `n − 1` attackers on each of three lines), so that a repair always moves it back.
    #[inline]
    fn off_board_conflicts(&self) -> u32 {
        // `new` keeps n at most MAX_BOARD_SIZE = 2^28, so 3n fits in u32.
        (3 * self.n_queens()) as u32
    }

    /// Adds `delta` to the three counters of the square where a local-search queen stands, if it stands
    /// on the board.
    #[inline]
    fn count_local(&self, row: usize, value: i32, delta: i64, state: &mut LocalState<'_>) {
        let cells = state.run_mut(self.counters);
        if let Some(column) = self.column(value) {
            for line in self.lines(row, column) {
                cells[line] += delta;
            }
        }
    }
}

impl fmt::Debug for QueensConstraint {
    // The derived form would list every row variable, and model errors print constraints with `{:?}`:
    // for a large board that would be one enormous line.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("QueensConstraint")
            .field("n_queens", &self.n_queens())
            .field("first_row", &VarId::from_index(self.first))
            .finish()
    }
}

impl Constraint for QueensConstraint {
    fn scope(&self) -> &[VarId] {
        &self.rows
    }

    /// Every queen on the board and no two on a column or diagonal, judged from the values alone with
    /// three sets of occupied lines.
    fn is_satisfied(&self, values: &[i32]) -> bool {
        let n = values.len() as i64;
        let mut columns = FixedBitSet::with_capacity(values.len());
        let mut up_diagonals = FixedBitSet::with_capacity(2 * values.len());
        let mut down_diagonals = FixedBitSet::with_capacity(2 * values.len());
        values.iter().enumerate().all(|(row, &column)| {
            let (row, column) = (row as i64, i64::from(column));
            if !(0..n).contains(&column) {
                return false;
            }
            // `put` returns whether the line was already occupied.
            let shared_column = columns.put(column as usize);
            let shared_up = up_diagonals.put((row + column) as usize);
            let shared_down = down_diagonals.put((row - column + n - 1) as usize);
            !(shared_column || shared_up || shared_down)
        })
    }
}

impl Propagator for QueensConstraint {
    // Value enumeration.
    /// No two queens attack: a square is free exactly when no placed queen, taken alone, attacks it.
    fn check_is_pairwise(&self) -> bool {
        true
    }

    fn on_assign(&self, var: VarId, value: i32, ctx: &mut PropagationCtx<'_>) {
        // An off-board queen has no counters; `propagate` fails on it instead.
        if let Some(column) = self.column(value) {
            for line in self.lines(self.row_of(var), column) {
                ctx.add(self.counters.at(line), 1);
            }
        }
    }

    /// Dijkstra's free-square test (*Notes on Structured Programming*, 1970, `col[h] and up[n-h]
    /// and down[n+h]`): the square is free when no placed queen stands on its column or either
    /// diagonal.
    #[inline]
    fn check(&self, var: VarId, value: i32, ctx: &CheckCtx<'_>) -> bool {
        match self.column(value) {
            Some(column) => self
                .lines(self.row_of(var), column)
                .into_iter()
                .all(|line| ctx.get(self.counters.at(line)) == 0),
            None => false,
        }
    }

    /// One pass over the candidate columns with the three counter tables as slices: the hot loop of
    /// check-past search, with no call per value.
    fn retain_consistent(&self, var: VarId, values: &mut [i32], ctx: &CheckCtx<'_>) -> usize {
        let n = self.n_queens();
        let row = self.row_of(var);
        let cells = ctx.run(self.counters);
        // The row's own n-long windows of the diagonal tables: column `c` of this row lies on
        // up-diagonal `row + c`, window index `c`, and on down-diagonal `row − c + n − 1`, window index
        // `n − 1 − c`. Windows of length n let the compiler drop the bounds checks inside the loop.
        let columns = &cells[..n];
        let up = &cells[n + row..][..n];
        let down = &cells[3 * n - 1 + row..][..n];
        let mut kept = 0;
        for i in 0..values.len() {
            let value = values[i];
            // A negative value wraps to a huge column, so one comparison refuses every off-board value.
            let column = value as u32 as usize;
            let free = column < n && (columns[column] | up[column] | down[n - 1 - column]) == 0;
            // Branch-free compaction: whether a random column is free is unpredictable, and a
            // mispredicted branch per value cost more than this unconditional store.
            values[kept] = value;
            kept += usize::from(free);
        }
        kept
    }

    fn forward_check(&self, var: VarId, ctx: &mut PropagationCtx<'_>) -> Result<(), Wipeout> {
        let value = ctx.value(var).ok_or(Wipeout)?;
        let column = self.column(value).ok_or(Wipeout)?;
        let row = self.row_of(var);
        // `on_assign` has counted this queen, so a count above one means another placed queen attacks
        // it: the pairwise encoding fails here too, when it tries to remove that queen's value.
        if self
            .lines(row, column)
            .into_iter()
            .any(|line| ctx.get(self.counters.at(line)) > 1)
        {
            return Err(Wipeout);
        }
        // The queen covers her own column, and in a row `distance` away the squares `distance`
        // columns to either side, on her two diagonals. Off-board values are never pruned (a row
        // may have been given a wider domain), so a diagonal square off the board is replaced by
        // the queen's column again, which the first removal has already taken: no change.
        let (first, n) = (self.first, self.n_queens());
        ctx.remove_from_unassigned(first..first + n, |index| {
            let distance = (index - first).abs_diff(row);
            let right = if column + distance < n {
                (column + distance) as i32
            } else {
                value
            };
            let left = if distance <= column {
                (column - distance) as i32
            } else {
                value
            };
            [value, right, left]
        })
    }

    /// Rows and lines: each row's value is a column in `0..n`, and columns (`column`), up-diagonals
    /// (`column + row`) and down-diagonals (`column − row`) each hold at most one queen. Forward
    /// checking ([`propagate`](Propagator::forward_check)) removes exactly the squares on a new queen's
    /// lines, so a store may keep it with a bit per line alone.
    fn lines(&self) -> Option<LineRule> {
        Some(LineRule {
            first: self.rows[0],
            rows: self.n_queens(),
            columns: self.n_queens(),
            slopes: vec![0, 1, -1],
        })
    }

    // Local search.
    /// The number of other queens attacking (`var`'s row, `value`), read from the counters that
    /// [`reset_local`](Propagator::reset_local) and [`moved`](Propagator::moved) keep. Two queens in
    /// different rows share at most one line, so this is also the number of attacking pairs the move
    /// would leave `var` in, as the pairwise encoding counts them.
    fn conflicts(&self, var: VarId, value: i32, ctx: &LocalCtx<'_>) -> u32 {
        let Some(column) = self.column(value) else {
            return self.off_board_conflicts();
        };
        let on_lines: i64 = self
            .lines(self.row_of(var), column)
            .into_iter()
            .map(|line| ctx.run(self.counters)[line])
            .sum();
        // When the queen already stands there, each of the three counters includes her.
        let itself = if ctx.values[var.index()] == value {
            3
        } else {
            0
        };
        u32::try_from(on_lines - itself).unwrap_or(0)
    }

    /// [`conflicts`](Propagator::conflicts) for a run of values in one loop over the row's windows of
    /// the counter tables.
    fn add_conflicts(&self, var: VarId, values: &[i32], ctx: &LocalCtx<'_>, conflicts: &mut [u32]) {
        let n = self.n_queens();
        let row = self.row_of(var);
        let cells = ctx.run(self.counters);
        let columns = &cells[..n];
        let up = &cells[n + row..][..n];
        let down = &cells[3 * n - 1 + row..][..n];
        let current = ctx.values[var.index()];
        for (&value, total) in values.iter().zip(conflicts) {
            // A negative value wraps to a huge column, so one comparison catches every off-board one.
            let column = value as u32 as usize;
            if column >= n {
                *total += self.off_board_conflicts();
                continue;
            }
            let on_lines = columns[column] + up[column] + down[n - 1 - column];
            // Where the queen already stands, each of the three counters includes her.
            let itself = 3 * i64::from(value == current);
            *total += (on_lines - itself) as u32;
        }
    }

    /// Every row's [`conflicts`](Propagator::conflicts) at its current column, in one pass.
    fn add_scope_conflicts(&self, ctx: &LocalCtx<'_>, conflicts: &mut [u32]) {
        let n = self.n_queens();
        let cells = ctx.run(self.counters);
        let (columns, diagonals) = cells.split_at(n);
        let (up, down) = diagonals.split_at(2 * n - 1);
        let values = &ctx.values[self.first..self.first + n];
        for (row, (&value, total)) in values.iter().zip(conflicts).enumerate() {
            let column = value as u32 as usize;
            if column >= n {
                *total += self.off_board_conflicts();
                continue;
            }
            // Each counter includes this queen herself: three lines, three to take off.
            let on_lines = columns[column] + up[row + column] + down[row + n - 1 - column];
            *total += (on_lines - 3) as u32;
        }
    }

    fn reset_local(&self, values: &[i32], state: &mut LocalState<'_>) {
        state.clear();
        for row in 0..self.n_queens() {
            self.count_local(row, values[self.first + row], 1, state);
        }
    }

    fn moved(&self, var: VarId, old: i32, new: i32, state: &mut LocalState<'_>) {
        let row = self.row_of(var);
        self.count_local(row, old, -1, state);
        self.count_local(row, new, 1, state);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn vars(indices: impl IntoIterator<Item = usize>) -> Vec<VarId> {
        indices.into_iter().map(VarId::from_index).collect()
    }

    /// The constraint over `rows`, built in a context of its own, with how many state cells it
    /// laid out.
    fn built(rows: Vec<VarId>) -> (QueensConstraint, usize) {
        let mut ctx = PostCtx::new();
        let constraint = QueensConstraint::new(rows)
            .expect("consecutive rows")
            .build(&mut ctx)
            .expect("a queens constraint builds");
        (constraint, ctx.cells())
    }

    #[test]
    fn new_accepts_consecutive_rows_starting_anywhere() {
        let (constraint, cells) = built(vars(3..11));
        assert_eq!(constraint.n_queens(), 8);
        assert_eq!(constraint.row_of(VarId::from_index(3)), 0);
        assert_eq!(constraint.row_of(VarId::from_index(10)), 7);
        assert_eq!(cells, 5 * 8 - 2);
    }

    #[test]
    fn new_refuses_gaps_reordering_and_an_empty_board() {
        for rows in [vars([0, 1, 3]), vars([1, 0]), vars([]), vars([2, 2])] {
            let error = QueensConstraint::new(rows.clone()).unwrap_err();
            assert!(
                matches!(error, ModelError::InvalidConstraint { .. }),
                "{rows:?}: {error}"
            );
        }
    }

    #[test]
    fn debug_names_the_board_size_not_every_row() {
        let (constraint, _) = built(vars(0..1000));
        assert_eq!(
            format!("{constraint:?}"),
            "QueensConstraint { n_queens: 1000, first_row: x0 }"
        );
    }

    #[test]
    fn line_cells_are_disjoint_and_cover_the_state() {
        for n in 1..=7 {
            let (constraint, cells) = built(vars(0..n));
            let mut column_cells = FixedBitSet::with_capacity(cells);
            let mut up_cells = column_cells.clone();
            let mut down_cells = column_cells.clone();
            for row in 0..n {
                for column in 0..n {
                    let [c, u, d] = constraint.lines(row, column);
                    column_cells.insert(c);
                    up_cells.insert(u);
                    down_cells.insert(d);
                }
            }
            assert_eq!(column_cells.count_ones(..), n);
            assert_eq!(up_cells.count_ones(..), 2 * n - 1);
            assert_eq!(down_cells.count_ones(..), 2 * n - 1);
            assert!(column_cells.is_disjoint(&up_cells));
            assert!(column_cells.is_disjoint(&down_cells));
            assert!(up_cells.is_disjoint(&down_cells));
            assert_eq!(
                column_cells.count_ones(..) + up_cells.count_ones(..) + down_cells.count_ones(..),
                cells
            );
        }
    }

    #[test]
    fn is_satisfied_accepts_solutions_and_refuses_attacks_and_off_board_queens() {
        let (four, _) = built(vars(0..4));
        assert!(four.is_satisfied(&[1, 3, 0, 2]));
        assert!(four.is_satisfied(&[2, 0, 3, 1]));
        assert!(!four.is_satisfied(&[1, 3, 0, 3]), "shared column");
        assert!(
            !four.is_satisfied(&[0, 2, 1, 3]),
            "rows 1 and 2 share an up-diagonal"
        );
        assert!(
            !four.is_satisfied(&[1, 3, 2, 0]),
            "rows 1 and 2 share a down-diagonal"
        );
        assert!(
            !four.is_satisfied(&[1, 3, 0, 4]),
            "column 4 is off the board"
        );
        assert!(
            !four.is_satisfied(&[1, 3, -1, 2]),
            "column -1 is off the board"
        );
        let (eight, _) = built(vars(0..8));
        assert!(eight.is_satisfied(&[0, 4, 7, 5, 2, 6, 1, 3]));
    }

    #[test]
    fn off_board_queens_have_more_conflicts_than_any_square() {
        let (constraint, size) = built(vars(0..4));
        let values = [0, 0, 0, 0];
        let mut cells = vec![0; size];
        constraint.reset_local(&values, &mut LocalState::new(&mut cells));
        let ctx = LocalCtx::new(&values, &cells);
        let worst_square = (0..4)
            .map(|column| constraint.conflicts(VarId::from_index(1), column, &ctx))
            .max()
            .expect("four squares");
        let off_board = constraint.conflicts(VarId::from_index(1), 4, &ctx);
        assert!(off_board > worst_square, "{off_board} <= {worst_square}");
        assert_eq!(constraint.conflicts(VarId::from_index(1), -1, &ctx), 12);
    }
}
