//! The O(n) construction of Hoffman, Loessi & Moore (1969), in the form Bernhardsson gave it
//! (SIGART Bulletin 2(2), 1991); Rolfe (*Las Vegas Does N-Queens*, 2006, references 1 and 2) cites
//! both. With rows and columns numbered from 1 and `j = 1, …, n/2`:
//!
//! 1. `n` even, `n mod 6 ≠ 2`: queens on `(j, 2j)` and `(n/2 + j, 2j − 1)`;
//! 2. `n` even, `n mod 6 ≠ 0`: queens on `(j, 1 + (2(j − 1) + n/2 − 1) mod n)` and
//!    `(n + 1 − j, n − (2(j − 1) + n/2 − 1) mod n)`;
//! 3. `n` odd: rule 1 or 2 on `n − 1`, and a queen on `(n, n)`.
//!
//! Rule 1 is used whenever it applies (`n mod 6 ∈ {0, 4}`), rule 2 for `n mod 6 = 2`. Neither even
//! rule puts a queen on the main diagonal, which is what lets rule 3 add the corner. The pairs are read
//! as (row, column); the transposed reading is a solution too.
//!
//! Each column is an O(1) function of its row ([`ExplicitColumns::column`]), so a board of 10⁹ rows can
//! be streamed to a file without ever being held in memory.

use std::ops::Range;

use rayon::prelude::*;

use super::build::check_size;
use super::error::ConstructError;
use super::method::Method;
use super::recipe::{Construction, Corner, ExplicitRule, Recipe};
use super::size::PARALLEL_ROWS;

/// The largest board [`ExplicitColumns`] streams: every row and column must fit a `u32`.
pub const MAX_STREAM_N: usize = u32::MAX as usize;

/// The explicit construction's columns, row by row, without storing them: an iterator of `u32`
/// columns that also answers [`column`](ExplicitColumns::column) for any row in O(1).
///
/// ```
/// use nqueens_model::construct::ExplicitColumns;
///
/// let columns = ExplicitColumns::new(8).unwrap();
/// assert_eq!(columns.column(0), Some(3));
/// let placement: Vec<u32> = columns.collect();
/// assert_eq!(placement, [3, 5, 7, 1, 6, 0, 2, 4]);
/// nqueens_model::verify(&placement).unwrap();
/// ```
#[derive(Debug, Clone)]
pub struct ExplicitColumns {
    /// The board size.
    n: u64,
    /// The even board the rule builds: `n`, or `n − 1` when `n` is odd.
    even: u64,
    /// `even / 2`.
    half: u64,
    rule: ExplicitRule,
    /// The next row the iterator yields.
    next_row: u64,
}

impl ExplicitColumns {
    /// The columns of the `n`-queens board, for `n = 1` or `4 ≤ n ≤` [`MAX_STREAM_N`].
    pub fn new(n: usize) -> Result<Self, ConstructError> {
        if n == 0 {
            return Err(ConstructError::ZeroSize);
        }
        if !Method::Explicit.covers(n) {
            return Err(ConstructError::out_of_scope(Method::Explicit, n));
        }
        if n > MAX_STREAM_N {
            return Err(ConstructError::TooLarge {
                construction: Method::Explicit.name(),
                n,
                max: MAX_STREAM_N,
                // Streaming holds nothing; the figure says what a stored placement would take.
                bytes: (n as u64).saturating_mul(4),
            });
        }
        let n = n as u64;
        let even = n - n % 2;
        let rule = if even % 6 == 2 {
            ExplicitRule::TwoModSix
        } else {
            ExplicitRule::NotTwoModSix
        };
        Ok(ExplicitColumns {
            n,
            even,
            half: even / 2,
            rule,
            next_row: 0,
        })
    }

    /// The board size.
    pub fn n(&self) -> usize {
        self.n as usize
    }

    /// The even rule used (on `n − 1` when `n` is odd).
    pub fn rule(&self) -> ExplicitRule {
        self.rule
    }

    /// The column of `row`'s queen, or `None` if the row is off the board. O(1): a few additions and
    /// comparisons, no division.
    #[inline]
    pub fn column(&self, row: usize) -> Option<u32> {
        let row = row as u64;
        if row >= self.n {
            return None;
        }
        // All values stay below 2·even < 2^33, so u64 never overflows; the column is below n ≤ 2^32 − 1.
        let (even, half) = (self.even, self.half);
        let column = if row == even {
            // Rule 3: the odd board's last row holds the corner queen.
            even
        } else {
            match self.rule {
                ExplicitRule::NotTwoModSix => {
                    if row < half {
                        2 * row + 1
                    } else {
                        2 * (row - half)
                    }
                }
                ExplicitRule::TwoModSix => {
                    // (2(j − 1) + n/2 − 1) mod n, with j = row + 1 in the top half and j = n − row in
                    // the bottom half; the sum is below 2n, so one subtraction reduces it.
                    let wrap = |x: u64| if x >= even { x - even } else { x };
                    if row < half {
                        wrap(2 * row + half - 1)
                    } else {
                        even - 1 - wrap(2 * (even - 1 - row) + half - 1)
                    }
                }
            }
        };
        Some(column as u32)
    }

    /// The recipe this board follows.
    fn recipe(&self) -> Recipe {
        let even = Recipe::Explicit {
            n: self.even as usize,
            rule: self.rule,
        };
        if self.n == self.even {
            even
        } else {
            Recipe::CornerAdded(Corner::BottomRight, Box::new(even))
        }
    }

    /// Appends every column to `placement`, in whole runs that the compiler can vectorise and, on
    /// large boards, that all cores fill at once: what makes `n = 10⁹` take about a second, most of it
    /// the kernel mapping 4 GB of fresh pages.
    fn extend_into(&self, placement: &mut Vec<u32>) {
        // `explicit` calls this only for n ≤ MAX_CONSTRUCT_N < 2^30, so every sum below (at most
        // 3·half < 2^31) fits a u32, and u32 arithmetic vectorises twice as wide as u64.
        let (even, half) = (self.even as u32, self.half as u32);
        match self.rule {
            ExplicitRule::NotTwoModSix => {
                push_run(placement, 0..half, |row| 2 * row + 1);
                push_run(placement, 0..half, |k| 2 * k);
            }
            ExplicitRule::TwoModSix => {
                // Rule 2 needs even ≥ 8 here (n = 2 and 3 are out of scope), so half ≥ 4. The top
                // half's column 2·row + half − 1 reaches even (and wraps) from the first row with
                // 2·row ≥ half + 1, that is row = ⌈(half + 1) / 2⌉.
                let wrap_at = (half + 2) / 2;
                push_run(placement, 0..wrap_at, move |row| 2 * row + half - 1);
                push_run(placement, wrap_at..half, move |row| {
                    2 * row + half - 1 - even
                });
                // Bottom half, rows half..even: with j = even − row, the column is
                // even − 1 − ((2(j − 1) + half − 1) mod even).
                push_run(placement, half..even, move |row| {
                    let x = 2 * (even - 1 - row) + half - 1;
                    even - 1 - if x >= even { x - even } else { x }
                });
            }
        }
        if self.n != self.even {
            placement.push(even);
        }
    }
}

/// Appends `column(row)` for every row of `rows` to `placement`, on all cores for long runs. Rayon
/// writes an indexed run straight into the vector's spare capacity, so nothing is collected twice.
fn push_run(placement: &mut Vec<u32>, rows: Range<u32>, column: impl Fn(u32) -> u32 + Send + Sync) {
    if rows.len() >= PARALLEL_ROWS {
        placement.par_extend(rows.into_par_iter().map(column));
    } else {
        placement.extend(rows.map(column));
    }
}

impl Iterator for ExplicitColumns {
    type Item = u32;

    #[inline]
    fn next(&mut self) -> Option<u32> {
        let column = self.column(self.next_row as usize)?;
        self.next_row += 1;
        Some(column)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let left = (self.n - self.next_row) as usize;
        (left, Some(left))
    }
}

impl ExactSizeIterator for ExplicitColumns {}

/// The column of `row`'s queen in the explicit `n`-queens board, or `None` when `n` is outside the
/// construction's scope (n = 1, 4 ≤ n ≤ [`MAX_STREAM_N`]) or the row is off the board. O(1); for a whole
/// board, [`ExplicitColumns`] checks `n` once.
pub fn explicit_column(n: usize, row: usize) -> Option<u32> {
    ExplicitColumns::new(n).ok()?.column(row)
}

/// The explicit construction (Hoffman–Loessi–Moore / Bernhardsson) on `n = 1` or `n ≥ 4` rows, built in
/// memory in O(n): about a second for `n = 10⁹`. Boards above [`super::MAX_CONSTRUCT_N`] are refused;
/// stream them with [`ExplicitColumns`].
pub fn explicit(n: usize) -> Result<Construction, ConstructError> {
    let columns = ExplicitColumns::new(n)?;
    check_size(n, Method::Explicit.name())?;
    let mut placement = Vec::with_capacity(n);
    columns.extend_into(&mut placement);
    Ok(Construction {
        placement,
        recipe: columns.recipe(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::verify;

    #[test]
    fn bulk_build_agrees_with_the_column_function() {
        for n in (1..=400).filter(|&n| Method::Explicit.covers(n)) {
            let built = explicit(n).unwrap().placement;
            let streamed: Vec<u32> = ExplicitColumns::new(n).unwrap().collect();
            assert_eq!(built, streamed, "n = {n}");
            assert_eq!(verify(&built), Ok(()), "n = {n}");
        }
    }

    #[test]
    fn rules_follow_n_mod_6() {
        assert_eq!(
            explicit(8).unwrap().recipe,
            Recipe::Explicit {
                n: 8,
                rule: ExplicitRule::TwoModSix
            }
        );
        assert_eq!(
            explicit(13).unwrap().recipe,
            Recipe::CornerAdded(
                Corner::BottomRight,
                Box::new(Recipe::Explicit {
                    n: 12,
                    rule: ExplicitRule::NotTwoModSix
                })
            )
        );
    }

    #[test]
    fn columns_of_the_largest_streamable_board_stay_exact() {
        let columns = ExplicitColumns::new(MAX_STREAM_N).unwrap();
        // n = 2^32 − 1 is odd; the even board 2^32 − 2 ≡ 2 (mod 6) takes rule 2.
        assert_eq!(columns.rule(), ExplicitRule::TwoModSix);
        assert_eq!(columns.column(MAX_STREAM_N - 1), Some(u32::MAX - 1));
        assert_eq!(columns.column(MAX_STREAM_N), None);
        let half = (MAX_STREAM_N - 1) / 2;
        for row in [0, 1, half - 1, half, half + 1, MAX_STREAM_N - 2] {
            assert!(columns.column(row).unwrap() < u32::MAX - 1, "row {row}");
        }
        assert!(ExplicitColumns::new(MAX_STREAM_N + 1).is_err());
    }

    #[test]
    fn out_of_scope_sizes_are_refused() {
        assert_eq!(explicit(0).unwrap_err(), ConstructError::ZeroSize);
        for n in [2, 3] {
            assert!(matches!(
                explicit(n).unwrap_err(),
                ConstructError::OutOfScope { .. }
            ));
            assert_eq!(explicit_column(n, 0), None);
        }
        assert_eq!(explicit_column(8, 8), None);
    }
}
