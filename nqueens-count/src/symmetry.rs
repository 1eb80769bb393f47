//! The eight symmetries of the square board, and the solutions each one leaves unchanged.
//!
//! The unique count (OEIS A002562) is the number of classes of solutions under these symmetries. By
//! Burnside's lemma it is the average, over the eight symmetries g, of the number of solutions g
//! leaves unchanged: `(total + Σ_{g ≠ identity} fixed(g)) / 8`. The total comes from the border
//! constellations ([`super::constellation`]); the fixed counts come from [`count_fixed`], a search over
//! placements built from whole orbits of squares, which is tiny next to the count itself (a solution
//! fixed by a quarter turn is decided by a quarter of its queens).
//!
//! For n ≥ 2 no reflection fixes a solution (a mirror-symmetric placement puts two queens on one line),
//! so only the three rotations contribute; the reflections are searched anyway, which costs nothing and
//! keeps the formula free of special cases (on the 1 × 1 board all eight fix the one solution).

use super::bitboard::MAX_N;

/// One of the eight symmetries of the n × n board, acting on squares (row, column).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Symmetry {
    /// Leaves every square where it is.
    Identity,
    /// A quarter turn clockwise: (r, c) → (c, n−1−r).
    Quarter,
    /// A half turn: (r, c) → (n−1−r, n−1−c).
    Half,
    /// Three quarter turns clockwise: (r, c) → (n−1−c, r).
    ThreeQuarters,
    /// Left and right swapped: (r, c) → (r, n−1−c).
    MirrorColumns,
    /// Top and bottom swapped: (r, c) → (n−1−r, c).
    MirrorRows,
    /// Reflection in the main diagonal: (r, c) → (c, r).
    Transpose,
    /// Reflection in the other diagonal: (r, c) → (n−1−c, n−1−r).
    AntiTranspose,
}

impl Symmetry {
    /// All eight, the identity first.
    pub(crate) const ALL: [Symmetry; 8] = [
        Symmetry::Identity,
        Symmetry::Quarter,
        Symmetry::Half,
        Symmetry::ThreeQuarters,
        Symmetry::MirrorColumns,
        Symmetry::MirrorRows,
        Symmetry::Transpose,
        Symmetry::AntiTranspose,
    ];

    /// A stable number for the plan's digest.
    pub(crate) fn code(self) -> u8 {
        self as u8
    }

    /// Where the square (row, column) of an n × n board goes.
    pub(crate) fn apply(self, n: usize, (row, column): (usize, usize)) -> (usize, usize) {
        let last = n - 1;
        match self {
            Symmetry::Identity => (row, column),
            Symmetry::Quarter => (column, last - row),
            Symmetry::Half => (last - row, last - column),
            Symmetry::ThreeQuarters => (last - column, row),
            Symmetry::MirrorColumns => (row, last - column),
            Symmetry::MirrorRows => (last - row, column),
            Symmetry::Transpose => (column, row),
            Symmetry::AntiTranspose => (last - column, last - row),
        }
    }
}

/// Whether two different squares share a row, a column or a diagonal.
pub(crate) fn attack((r1, c1): (usize, usize), (r2, c2): (usize, usize)) -> bool {
    r1 == r2 || c1 == c2 || r1 + c1 == r2 + c2 || r1 + c2 == r2 + c1
}

/// The number of solutions of the n-queens board that `symmetry` leaves unchanged, and the number of
/// orbit placements the search made.
///
/// A fixed solution is a union of orbits of squares under the symmetry. The search fills the first
/// empty row with each free square in turn, placing the square's whole orbit at once (up to four
/// queens) when no two of them and no earlier queen attack each other.
pub(crate) fn count_fixed(n: usize, symmetry: Symmetry) -> (u128, u64) {
    debug_assert!((1..=MAX_N).contains(&n));
    let mut search = FixedSearch {
        n,
        symmetry,
        rows: 0,
        columns: 0,
        diagonals: 0,
        antidiagonals: 0,
        solutions: 0,
        placements: 0,
    };
    search.fill();
    (search.solutions, search.placements)
}

/// The state of [`count_fixed`]: occupied rows, columns and both kinds of diagonal as bit sets
/// (diagonal r + c and antidiagonal r − c + n − 1 are below 2n − 1 ≤ 63, so a `u64` holds them).
struct FixedSearch {
    n: usize,
    symmetry: Symmetry,
    rows: u32,
    columns: u32,
    diagonals: u64,
    antidiagonals: u64,
    solutions: u128,
    placements: u64,
}

impl FixedSearch {
    fn fill(&mut self) {
        let all_rows = super::bitboard::board_mask(self.n);
        if self.rows == all_rows {
            self.solutions += 1;
            return;
        }
        let row = (!self.rows).trailing_zeros() as usize;
        for column in 0..self.n {
            if self.columns & (1 << column) != 0 {
                continue;
            }
            let (orbit, size) = self.orbit((row, column));
            let Some(placed) = self.place(&orbit[..size]) else {
                continue;
            };
            self.placements += 1;
            self.fill();
            self.rows ^= placed.0;
            self.columns ^= placed.1;
            self.diagonals ^= placed.2;
            self.antidiagonals ^= placed.3;
        }
    }

    /// The distinct squares the symmetry's powers take `square` to, and how many there are (1, 2 or
    /// 4: every symmetry of the square has order 1, 2 or 4).
    fn orbit(&self, square: (usize, usize)) -> ([(usize, usize); 4], usize) {
        let mut orbit = [square; 4];
        let mut size = 1;
        let mut next = self.symmetry.apply(self.n, square);
        while next != square {
            orbit[size] = next;
            size += 1;
            next = self.symmetry.apply(self.n, next);
        }
        (orbit, size)
    }

    /// Places a queen on every square of `orbit` if none attacks another or an earlier queen, and
    /// returns the bits it set (to undo), or `None` leaving everything as it was.
    fn place(&mut self, orbit: &[(usize, usize)]) -> Option<(u32, u32, u64, u64)> {
        let mut bits = (0u32, 0u32, 0u64, 0u64);
        for &(row, column) in orbit {
            let row_bit = 1u32 << row;
            let column_bit = 1u32 << column;
            let diagonal_bit = 1u64 << (row + column);
            let antidiagonal_bit = 1u64 << (row + self.n - 1 - column);
            if (self.rows | bits.0) & row_bit != 0
                || (self.columns | bits.1) & column_bit != 0
                || (self.diagonals | bits.2) & diagonal_bit != 0
                || (self.antidiagonals | bits.3) & antidiagonal_bit != 0
            {
                return None;
            }
            bits.0 |= row_bit;
            bits.1 |= column_bit;
            bits.2 |= diagonal_bit;
            bits.3 |= antidiagonal_bit;
        }
        self.rows |= bits.0;
        self.columns |= bits.1;
        self.diagonals |= bits.2;
        self.antidiagonals |= bits.3;
        Some(bits)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every solution of the n-queens board, by brute force over permutations.
    fn solutions(n: usize) -> Vec<Vec<usize>> {
        fn extend(n: usize, placed: &mut Vec<usize>, out: &mut Vec<Vec<usize>>) {
            if placed.len() == n {
                out.push(placed.clone());
                return;
            }
            let row = placed.len();
            for column in 0..n {
                if placed
                    .iter()
                    .enumerate()
                    .all(|(r, &c)| !attack((r, c), (row, column)))
                {
                    placed.push(column);
                    extend(n, placed, out);
                    placed.pop();
                }
            }
        }
        let mut out = Vec::new();
        extend(n, &mut Vec::new(), &mut out);
        out
    }

    fn image(n: usize, symmetry: Symmetry, solution: &[usize]) -> Vec<usize> {
        let mut image = vec![0; n];
        for (row, &column) in solution.iter().enumerate() {
            let (r, c) = symmetry.apply(n, (row, column));
            image[r] = c;
        }
        image
    }

    #[test]
    fn fixed_counts_match_brute_force() {
        for n in 1..=9 {
            let all = solutions(n);
            for symmetry in Symmetry::ALL {
                let fixed = all.iter().filter(|s| image(n, symmetry, s) == **s).count() as u128;
                assert_eq!(count_fixed(n, symmetry).0, fixed, "n = {n}, {symmetry:?}");
            }
        }
    }

    #[test]
    fn the_eight_symmetries_are_distinct_and_closed_under_composition() {
        let n = 5;
        let squares: Vec<(usize, usize)> =
            (0..n).flat_map(|r| (0..n).map(move |c| (r, c))).collect();
        let table = |g: Symmetry| -> Vec<(usize, usize)> {
            squares.iter().map(|&s| g.apply(n, s)).collect()
        };
        let tables: Vec<_> = Symmetry::ALL.iter().map(|&g| table(g)).collect();
        for (i, a) in tables.iter().enumerate() {
            for b in &tables[i + 1..] {
                assert_ne!(a, b);
            }
        }
        for g in Symmetry::ALL {
            for h in Symmetry::ALL {
                let composed: Vec<_> = squares.iter().map(|&s| h.apply(n, g.apply(n, s))).collect();
                assert!(tables.contains(&composed), "{g:?} then {h:?}");
            }
        }
    }
}
