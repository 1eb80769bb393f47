//! The enumerator's inner loop: a depth-first walk over bitboards, three walks interleaved.
//!
//! Dijkstra's program (*Notes on Structured Programming*, 1970) keeps three tables, `col`, `up` and
//! `down`, so that testing a square is O(1). Here each table is one machine word seen from the row
//! being filled: `down` has a bit per occupied column, `left` and `right` a bit per column that a
//! diagonal from a queen above reaches in this row. Moving to the next row shifts the diagonal
//! words by one column (or by more when rows in between are already decided, see [`Walk::shift`]);
//! on a torus they rotate instead ([`Torus`]).
//!
//! A *walk* places the remaining rows of one subproblem and counts the complete placements it reaches
//! (its leaves) and the queens it placed (its nodes). The loop is written to avoid the mispredicted
//! branches that dominate an ordinary backtracking loop:
//!
//! - **Every step places a queen.** A row whose last candidate is taken is never returned to: each
//!   stack slot records where to go back to (`back`) once the subtree below it is finished, skipping
//!   exhausted rows, so there are no "pop" steps with nothing to do.
//! - **No data-dependent branch.** Whether to descend, stay in the row or go back is chosen with
//!   [`std::hint::select_unpredictable`], and the stack is written unconditionally (a slot above the
//!   live part of the stack is scratch space).
//! - **Three walks at once.** A step's work is one chain of dependent operations; three independent
//!   walks advanced in the same loop keep the processor's execution units busy. On this project's
//!   machine three lanes were fastest (two 30% slower; four and five 4% and 6% slower, with
//!   more registers spilled).
//! - **Few instructions a step.** With three lanes the loop is about as much limited by how many
//!   instructions it issues as by the chain's latency: a step is 33 instructions (7 loads, 6 stores),
//!   and n = 16 runs at about 4.4 × 10⁸ placements a second on one thread.
//!
//! Measured on this project's machine and not kept (n = 16, one thread, medians, same run):
//!
//! - shifting the diagonal words by multiplying (one instruction where a shift by a variable count
//!   takes two) lengthens the chain: 5% slower for `left` alone, 14% for both words;
//! - carrying the row's candidates from step to step in a register, with the row to go back to
//!   chosen among the child, the rest and a load, takes the load off the chain but adds selects and
//!   spills: 10% slower;
//! - looking one row further ahead (no descent when the row after the next has no candidate left)
//!   visits 18% fewer nodes but costs 44% more a step: 18% slower;
//! - the candidates kept complemented (a row's word is then a plain union, no `not`): the same speed;
//! - a constellation's left and right queens walked as rows with one candidate rather than skipped,
//!   so that every shift is by one: a step 8% cheaper, but 15% more steps, so 5% slower.

use std::hint::select_unpredictable;

/// The largest board: one bit per column in a `u32`.
pub(crate) const MAX_N: usize = 32;

/// Stack slots per lane: slot 0 is "finished", a walk's rows take the slots up to [`LAST_SLOT`], and the
/// slot after it is written as scratch. A step finds its slot from the low byte of its row number (one
/// zero-extending move, and no bounds check, as the byte is below 256) and writes the slot after it,
/// so each array has 256 + 1 entries; only the first few dozen are ever touched.
const SLOTS: usize = 257;

/// The slot of every walk's last row. Rows are numbered so that a walk ends here, whatever its length:
/// a step then knows it completes a placement from its row number alone (`k >= LAST_SLOT`, as no step
/// runs in a slot above it), with no per-walk bound to load and compare.
const LAST_SLOT: usize = 32;

// The slots must hold the longest walk, the "finished" slot before it and the scratch slot after it.
const _: () = assert!(LAST_SLOT >= MAX_N && LAST_SLOT + 2 <= SLOTS);

/// How many walks run interleaved.
const LANES: usize = 3;

/// How the diagonal words move from one row to a later one.
pub(crate) trait Diagonals: Copy {
    /// The words `left` and `right` seen `rows` rows further down.
    fn advance(self, left: u32, right: u32, rows: u32) -> (u32, u32);
}

/// The ordinary board: a diagonal leaves the board at its edge.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Plain;

impl Diagonals for Plain {
    #[inline(always)]
    fn advance(self, left: u32, right: u32, rows: u32) -> (u32, u32) {
        // Bits shifted past column n − 1 are never read: every candidate word is masked by the
        // row's allowed columns, and they fall off the word's top within 32 rows.
        (left << rows, right >> rows)
    }
}

/// The toroidal board: a diagonal leaving one edge comes back at the other (A051906 counts its
/// solutions).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Torus {
    /// The board's width n.
    width: u32,
    /// The n low bits.
    mask: u32,
}

impl Torus {
    /// The torus of width `n`, 1 ≤ n ≤ [`MAX_N`].
    pub(crate) fn new(n: usize) -> Self {
        Torus {
            width: n as u32,
            mask: board_mask(n),
        }
    }
}

impl Diagonals for Torus {
    #[inline(always)]
    fn advance(self, left: u32, right: u32, rows: u32) -> (u32, u32) {
        let (w, m) = (self.width, self.mask);
        let rotate_up = |x: u32| ((x << rows) | (x >> (w - rows))) & m;
        let rotate_down = |x: u32| ((x >> rows) | (x << (w - rows))) & m;
        (rotate_up(left & m), rotate_down(right & m))
    }
}

/// The word with the low `n` bits set: the columns of an n-wide board.
pub(crate) fn board_mask(n: usize) -> u32 {
    if n >= 32 { u32::MAX } else { (1u32 << n) - 1 }
}

/// One subproblem for the inner loop: the rows still to fill, what each may hold, and the attacks coming
/// into the first of them.
#[derive(Clone, Debug)]
pub(crate) struct Walk {
    /// How many rows the walk fills; 0 means the subproblem is already a complete placement.
    pub rows: usize,
    /// The columns each row may hold, before the attacks of the queens the walk places: the board's
    /// columns, less whatever the subproblem's fixed queens attack.
    pub allowed: [u32; MAX_N],
    /// How many board rows lie between walk row `j` and walk row `j + 1` (1 unless rows between them
    /// hold fixed queens, which the walk skips).
    pub shift: [u8; MAX_N],
    /// Columns attacked in the first row along down-right diagonals (they move up one column a row).
    pub left: u32,
    /// Columns taken above the first row.
    pub down: u32,
    /// Columns attacked in the first row along down-left diagonals.
    pub right: u32,
}

impl Walk {
    /// A walk over `rows` rows that each allow `allowed` and follow one another directly.
    pub(crate) fn uniform(rows: usize, allowed: u32, left: u32, down: u32, right: u32) -> Self {
        Walk {
            rows,
            allowed: [allowed; MAX_N],
            shift: [1; MAX_N],
            left,
            down,
            right,
        }
    }
}

/// What a walk found.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct WalkCount {
    /// Complete placements reached.
    pub leaves: u64,
    /// Queens placed, that is nodes of the walk's tree below its starting point.
    pub placements: u64,
}

/// One walk in progress: its stack and its counts. A walk of r rows lives in the slots
/// `LAST_SLOT + 1 - r ..= LAST_SLOT`.
struct Lane {
    /// The candidates not yet tried in each row.
    avail: [u32; SLOTS],
    /// The diagonal and column words coming into each row.
    left: [u32; SLOTS],
    down: [u32; SLOTS],
    right: [u32; SLOTS],
    /// Where to continue once the subtree below a row's current queen is finished: the nearest row
    /// above with candidates left, or 0 for "the walk is done".
    back: [u32; SLOTS],
    /// The walk's allowed columns and shifts, by row; `allowed[LAST_SLOT + 1]` is 0 so no step
    /// descends below the last row.
    allowed: [u32; SLOTS],
    shift: [u32; SLOTS],
    /// The current row, 0 once finished.
    row: usize,
    count: WalkCount,
}

impl Lane {
    fn new() -> Self {
        Lane {
            avail: [0; SLOTS],
            left: [0; SLOTS],
            down: [0; SLOTS],
            right: [0; SLOTS],
            back: [0; SLOTS],
            allowed: [0; SLOTS],
            shift: [0; SLOTS],
            row: 0,
            count: WalkCount::default(),
        }
    }

    /// Starts `walk`. A walk with nothing to do (no rows left, or no candidate in its first row) is
    /// finished at once.
    fn load(&mut self, walk: &Walk) {
        self.count = WalkCount::default();
        if walk.rows == 0 {
            self.row = 0;
            self.count.leaves = 1;
            return;
        }
        // A walk has at most `MAX_N` = `LAST_SLOT` rows (its arrays' length), so `first` ≥ 1.
        debug_assert!(walk.rows <= LAST_SLOT);
        let first = LAST_SLOT + 1 - walk.rows;
        for j in 0..walk.rows {
            self.allowed[first + j] = walk.allowed[j];
            self.shift[first + j] = u32::from(walk.shift[j]);
        }
        self.allowed[LAST_SLOT + 1] = 0;
        self.left[first] = walk.left;
        self.down[first] = walk.down;
        self.right[first] = walk.right;
        self.back[first] = 0;
        self.avail[first] = walk.allowed[0] & !(walk.left | walk.down | walk.right);
        self.row = if self.avail[first] == 0 { 0 } else { first };
    }

    /// Places the next queen in row `k` (which has a candidate left) and returns the row to continue
    /// in: `k + 1` if the new queen leaves the next row a candidate, else `k` if this row has
    /// candidates left, else the nearest row above that has, or 0 when none has.
    #[inline(always)]
    fn step<D: Diagonals>(&mut self, diagonals: D, k: usize, leaves: &mut u64) -> usize {
        // A row number is below 256 (see `SLOTS`); the truncation only spares a bounds check.
        let i = usize::from(k as u8);
        let a = self.avail[i];
        // `rest` before `bit`: the `and` that makes it sets the flags the choice of `up` reads, where
        // `a ^ bit` took a second `xor` to test.
        let rest = a & a.wrapping_sub(1);
        let bit = a ^ rest;
        let (left, right) =
            diagonals.advance(self.left[i] | bit, self.right[i] | bit, self.shift[i]);
        let down = self.down[i] | bit;
        let child = self.allowed[i + 1] & !(left | down | right);
        let up = select_unpredictable(rest != 0, k as u32, self.back[i]);
        self.avail[i] = rest;
        self.avail[i + 1] = child;
        self.left[i + 1] = left;
        self.down[i + 1] = down;
        self.right[i + 1] = right;
        self.back[i + 1] = up;
        // A placement in the last row completes the walk's board (see `LAST_SLOT`).
        *leaves += u64::from(k >= LAST_SLOT);
        select_unpredictable(child != 0, k + 1, up as usize)
    }

    /// Runs this lane alone to the end of its walk.
    fn finish<D: Diagonals>(&mut self, diagonals: D) {
        let (mut k, mut leaves, mut steps) = (self.row, 0, 0);
        while k != 0 {
            k = self.step(diagonals, k, &mut leaves);
            steps += 1;
        }
        self.row = 0;
        self.count.leaves += leaves;
        self.count.placements += steps;
    }
}

/// Runs all lanes together until at least one of them finishes.
#[inline(always)]
fn run_until_one_finishes<D: Diagonals>(diagonals: D, lanes: &mut [Lane; LANES]) {
    let mut rows = [0; LANES];
    let mut leaves = [0; LANES];
    let mut steps = 0;
    for (row, lane) in rows.iter_mut().zip(lanes.iter()) {
        *row = lane.row;
    }
    loop {
        for i in 0..LANES {
            rows[i] = lanes[i].step(diagonals, rows[i], &mut leaves[i]);
        }
        steps += 1;
        if rows.contains(&0) {
            break;
        }
    }
    for i in 0..LANES {
        lanes[i].row = rows[i];
        lanes[i].count.leaves += leaves[i];
        lanes[i].count.placements += steps;
    }
}

/// Runs every walk that `next` hands out (tagged with the caller's id) and reports each one's count to
/// `done` as it finishes, in no particular order. `next` is asked for more work whenever a lane is free
/// and returns `None` when there is none (or when the caller wants to stop: walks already started are
/// still finished and reported).
///
/// Compiled twice, and the second chosen at run time where the processor has BMI1 and BMI2
/// (`multiversion`): a step's variable shifts then take one instruction (`shlx`, `shrx`) and its
/// lowest-bit and and-not operations one each (`blsr`, `andn`), where the portable x86-64 target
/// has none of them. Measured: n = 17 on one thread 2.92 s against 3.13 s (three runs each,
/// interleaved).
#[multiversion::multiversion(targets("x86_64+bmi1+bmi2"))]
pub(crate) fn run_walks<D: Diagonals>(
    diagonals: D,
    mut next: impl FnMut() -> Option<(usize, Walk)>,
    mut done: impl FnMut(usize, WalkCount),
) {
    // On the stack, not boxed: the loop then addresses every array relative to the stack pointer and
    // needs no register for a base address, which with three lanes' state in flight costs 20% (measured).
    let mut lanes: [Lane; LANES] = std::array::from_fn(|_| Lane::new());
    let mut tags: [Option<usize>; LANES] = [None; LANES];
    let mut exhausted = false;
    loop {
        for (lane, tag) in lanes.iter_mut().zip(tags.iter_mut()) {
            while tag.is_none() && !exhausted {
                match next() {
                    None => exhausted = true,
                    Some((id, walk)) => {
                        lane.load(&walk);
                        if lane.row == 0 {
                            done(id, lane.count);
                        } else {
                            *tag = Some(id);
                        }
                    }
                }
            }
        }
        if tags.iter().all(Option::is_some) {
            run_until_one_finishes(diagonals, &mut lanes);
            for (lane, tag) in lanes.iter().zip(tags.iter_mut()) {
                if lane.row == 0
                    && let Some(id) = tag.take()
                {
                    done(id, lane.count);
                }
            }
            continue;
        }
        // Fewer walks than lanes remain: finish them one by one.
        for (lane, tag) in lanes.iter_mut().zip(tags.iter_mut()) {
            if let Some(id) = tag.take() {
                lane.finish(diagonals);
                done(id, lane.count);
            }
        }
        if exhausted {
            return;
        }
    }
}

/// Runs one walk by itself.
#[cfg(test)]
pub(crate) fn run_walk<D: Diagonals>(diagonals: D, walk: &Walk) -> WalkCount {
    let mut lane = Lane::new();
    lane.load(walk);
    if lane.row != 0 {
        lane.finish(diagonals);
    }
    lane.count
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The plain recursive count of the same walk: every row allows everything, nothing placed yet.
    fn recursive(n: usize, mask: u32, left: u32, down: u32, right: u32, row: usize) -> (u64, u64) {
        if row == n {
            return (1, 0);
        }
        let mut avail = mask & !(left | down | right);
        let (mut leaves, mut nodes) = (0, 0);
        while avail != 0 {
            let bit = avail & avail.wrapping_neg();
            avail ^= bit;
            let (l, r) = recursive(
                n,
                mask,
                (left | bit) << 1,
                down | bit,
                (right | bit) >> 1,
                row + 1,
            );
            leaves += l;
            nodes += r + 1;
        }
        (leaves, nodes)
    }

    #[test]
    fn one_walk_and_interleaved_walks_match_plain_recursion() {
        for n in 1..=9 {
            let mask = board_mask(n);
            let (leaves, nodes) = recursive(n, mask, 0, 0, 0, 0);
            let walk = Walk::uniform(n, mask, 0, 0, 0);
            assert_eq!(
                run_walk(Plain, &walk),
                WalkCount {
                    leaves,
                    placements: nodes
                },
                "n = {n}"
            );
            // Each first-row column as its own walk, run through the lanes.
            let mut columns = 0..n;
            let mut total = WalkCount::default();
            run_walks(
                Plain,
                || {
                    columns.next().map(|c| {
                        let bit = 1u32 << c;
                        (c, Walk::uniform(n - 1, mask, bit << 1, bit, bit >> 1))
                    })
                },
                |_, count| {
                    total.leaves += count.leaves;
                    total.placements += count.placements + 1;
                },
            );
            assert_eq!(total.leaves, leaves, "n = {n}");
            assert_eq!(total.placements, nodes, "n = {n}");
        }
    }

    #[test]
    fn a_walk_with_no_rows_is_one_complete_placement() {
        assert_eq!(
            run_walk(Plain, &Walk::uniform(0, 0, 0, 0, 0)),
            WalkCount {
                leaves: 1,
                placements: 0
            }
        );
    }

    #[test]
    fn torus_diagonals_wrap_around() {
        let torus = Torus::new(5);
        // Column 4 moves to column 0 on the way down-right, column 0 to column 4 down-left.
        assert_eq!(torus.advance(0b10000, 0b00001, 1), (0b00001, 0b10000));
        assert_eq!(torus.advance(0b00110, 0b00110, 2), (0b11000, 0b10001));
    }
}
