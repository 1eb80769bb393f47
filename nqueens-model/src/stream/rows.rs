//! Checking rows from any source, as [`crate::verify`] checks a placement in memory: a first pass
//! that finds the first bad row with 5n bits, and a second that names its earliest attacker.

use super::error::StreamError;
use super::sizes::BUFFER_BYTES;
use crate::VerifyError;
use crate::verify::{OccupiedLines, attack_between};

/// What a first pass over the rows found.
pub(super) enum Scan {
    /// No bad row among the rows read.
    Clean {
        /// How many rows there were, up to n + 1: reading stops one row past n.
        rows: usize,
    },
    /// The first row whose queen is off the board or attacked by an earlier row.
    Bad {
        /// The row.
        row: usize,
        /// Its column.
        column: u32,
        /// Whether the column is off the board (otherwise an earlier queen attacks it).
        off_board: bool,
    },
}

/// Rows checked per run: a megabyte of columns.
const RUN_ROWS: usize = BUFFER_BYTES / 4;

/// Checks the first `n` rows in order, as [`crate::verify`] does, a run at a time, and counts the
/// rows (reading one row past `n` at most, to tell a longer placement).
///
/// Reading overlaps checking: while another thread checks one run, this one reads the next (the reader
/// never leaves this thread, so it need not be [`Send`]). A run read ahead past a bad row is simply
/// not checked.
pub(super) fn scan(n: usize, source: &mut impl RowSource) -> Scan {
    // The same sets of occupied columns and diagonals as `verify` keeps: 5n − 2 bits.
    let mut lines = OccupiedLines::new(n);
    let mut current = Vec::with_capacity(RUN_ROWS.min(n));
    let mut next = Vec::with_capacity(RUN_ROWS.min(n));
    source.fill_run(&mut current, RUN_ROWS.min(n));
    let mut done = 0;
    while !current.is_empty() {
        let after = done + current.len();
        let mut bad = None;
        rayon::in_place_scope(|scope| {
            scope.spawn(|_| bad = lines.check(done, &current));
            source.fill_run(&mut next, RUN_ROWS.min(n - after));
        });
        if let Some(row) = bad {
            let column = current[row - done];
            return Scan::Bad {
                row,
                column,
                off_board: column as usize >= n,
            };
        }
        done = after;
        std::mem::swap(&mut current, &mut next);
    }
    let beyond = usize::from(done == n && source.next().is_some());
    Scan::Clean {
        rows: done + beyond,
    }
}

/// The attack on `row` (in `column`) by the earliest earlier row, read again from `rows`; `None` if
/// there is none, which can only mean the rows changed since the first pass.
pub(super) fn first_attacker(
    row: usize,
    column: u32,
    rows: impl Iterator<Item = u32>,
) -> Option<VerifyError> {
    rows.take(row)
        .enumerate()
        .find_map(|(earlier, earlier_column)| {
            attack_between(earlier, earlier_column, row, column).map(|kind| VerifyError::Attack {
                first_row: earlier,
                second_row: row,
                first_column: earlier_column,
                second_column: column,
                kind,
            })
        })
}

/// Rows to check: an iterator of plain columns (so that the hot loops move four bytes a row) that
/// also fills whole runs, with the first reading error kept aside and reported once a pass is over.
pub(super) trait RowSource: Iterator<Item = u32> + Sized {
    /// Replaces the contents of `run` with the next rows, at most `max` of them; fewer only at the end
    /// of the rows.
    fn fill_run(&mut self, run: &mut Vec<u32>, max: usize) {
        run.clear();
        run.extend(self.by_ref().take(max));
    }

    /// The error that ended the rows early, if one did.
    fn take_error(&mut self) -> Option<StreamError> {
        None
    }

    /// [`scan`] over the rows, with a reading error reported as such and a count of rows other than
    /// `n` as a mismatch.
    fn check(mut self, n: usize) -> Result<Scan, StreamError> {
        let found = scan(n, &mut self);
        // A bad row comes before any error, which the reading ahead may have met further on.
        if matches!(found, Scan::Bad { .. }) {
            return Ok(found);
        }
        if let Some(error) = self.take_error() {
            return Err(error);
        }
        match found {
            Scan::Clean { rows } if rows != n => Err(StreamError::LengthMismatch {
                expected: n as u64,
                found: rows as u64,
            }),
            found => Ok(found),
        }
    }

    /// [`first_attacker`] over the rows, read again.
    fn name_attacker(mut self, row: usize, column: u32) -> Result<VerifyError, StreamError> {
        let attack = first_attacker(row, column, &mut self);
        if let Some(error) = self.take_error() {
            return Err(error);
        }
        // The first pass saw an occupied line, so the second finds its queen unless the input changed
        // between the passes.
        attack.ok_or(StreamError::LengthMismatch {
            expected: row as u64,
            found: 0,
        })
    }
}
