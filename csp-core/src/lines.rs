//! Rows and lines: the shape of a constraint whose forward checking a store can keep itself, by
//! marking the lines placed values occupy instead of removing values from domains one at a time.
//!
//! N-queens is the example: one variable per row, valued by a column, and three families of lines
//! (columns, up-diagonals, down-diagonals) of which each line may hold at most one queen. Forward
//! checking removes, from every unassigned row, the squares on the new queen's lines. A store that
//! knows the rule keeps a bit per line instead, and a row's domain is then its free squares: those
//! on no occupied line. Placing a queen sets three bits and moves each unassigned row's size, 64
//! rows at a time in bit-sliced sizes (`crate::row_sizes`; a row's bounds are found from the lines
//! when asked for); undoing it recomputes what it took from the lines, newest first. No removal is
//! trailed and no bit word written, where forward checking over bit sets writes and trails up to
//! three values for each of n rows a queen (see `Store::keep_lines`).

use smallvec::SmallVec;

use crate::row_sizes::{GROUP, GroupWords, RowSizes, load_group};
use crate::{ConstraintId, VarId};

/// The most line families a store keeps (N-queens has three).
pub const MAX_LINE_FAMILIES: usize = 3;

/// The start of a family a rule does not have (see `OccupiedLines::row_starts`): far enough
/// below every line that a window read from it, whatever the square, lies before the first.
const NO_FAMILY: i64 = -(1 << 40);

/// A constraint of rows and lines, as [`Propagator::lines`](crate::Propagator::lines) offers it: the
/// `rows` variables `first`, `first + 1`, … each take a value in `0..columns`, and for each slope
/// `s` of `slopes` the values `x_i + s · i` are all different. A row's value `v` lies on line
/// `v + s · i` of the family of slope `s`.
///
/// The constraint that offers it promises that its forward checking after `x_i = v` removes exactly
/// the values on the lines through `(i, v)` from every other unassigned row, and fails exactly when
/// that empties one: then a store may keep it without calling the constraint's
/// [`propagate`](crate::Propagator::forward_check), and the search is the same, node for node. While
/// it is kept, the bounds the constraint's contexts read for its unassigned rows (in
/// [`on_assign`](crate::Propagator::on_assign), say) are those of the root: the store keeps
/// sizes, and a row's own bounds are found for [`Store::domain`](crate::Store::domain) and
/// [`Store::lb`](crate::Store::lb) alone.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LineRule {
    /// The variable of row 0; row `i` is the variable with index `first.index() + i`.
    pub first: VarId,
    /// How many rows (variables) there are.
    pub rows: usize,
    /// The values of every row: `0..columns`.
    pub columns: usize,
    /// One family of lines per slope, at most [`MAX_LINE_FAMILIES`] and all different.
    pub slopes: Vec<i32>,
}

impl LineRule {
    /// Whether the rule is one a store can keep: at least one row, at most
    /// [`MAX_LINE_FAMILIES`] distinct slopes, and every line index within `u32` reach.
    pub fn is_valid(&self) -> bool {
        let mut slopes = self.slopes.clone();
        slopes.sort_unstable();
        slopes.dedup();
        let span = |slope: i32| {
            (self.columns as u64).saturating_add(
                u64::from(slope.unsigned_abs()).saturating_mul(self.rows.saturating_sub(1) as u64),
            )
        };
        self.rows > 0
            && self.columns > 0
            && self.columns <= i32::MAX as usize
            && (1..=MAX_LINE_FAMILIES).contains(&self.slopes.len())
            && slopes.len() == self.slopes.len()
            && self.slopes.iter().map(|&s| span(s)).sum::<u64>() <= u64::from(u32::MAX)
    }
}

/// One family of lines: square `(i, v)` lies on the line with bit `start + v + slope · i`.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Family {
    pub(crate) slope: i64,
    /// The bit of the family's line 0, shifted so that the most negative `v + slope · i` of the
    /// board lands on the family's first bit.
    pub(crate) start: i64,
}

/// A row of bits, read 64 at a time from any offset, with `pad` clear words before and after
/// it, so that a sweep of 64-row blocks can read its windows ([`Bits::stream`]) without testing
/// where each lies.
#[derive(Debug, Clone)]
pub(crate) struct Bits {
    words: Vec<u64>,
    pad: usize,
}

impl Bits {
    /// `len` clear bits, with `pad` words of padding each side.
    fn new(len: usize, pad: usize) -> Self {
        Bits {
            words: vec![0; len.div_ceil(64) + 2 * pad],
            pad,
        }
    }

    fn clear(&mut self) {
        self.words.fill(0);
    }

    /// The words of the row itself.
    #[cfg(test)]
    fn row_words(&self) -> &[u64] {
        &self.words[self.pad..self.words.len() - self.pad]
    }

    /// Bit `bit`, which must lie in the row.
    #[inline(always)]
    fn get(&self, bit: i64) -> bool {
        self.words[bit as usize / 64 + self.pad] >> (bit % 64) & 1 == 1
    }

    /// Flips bit `bit`, which must lie in the row.
    #[inline(always)]
    fn toggle(&mut self, bit: i64) {
        self.words[bit as usize / 64 + self.pad] ^= 1 << (bit % 64);
    }

    /// The index in `words` of the word holding bit `bit` (padding counted), which must lie in
    /// the row or its padding.
    #[inline(always)]
    fn word_of(&self, bit: i64) -> usize {
        (bit.div_euclid(64) + self.pad as i64) as usize
    }

    /// The first bit of word `word` of `words`, as a bit of the row.
    #[inline(always)]
    fn first_bit_of(&self, word: usize) -> i64 {
        (word as i64 - self.pad as i64) * 64
    }

    /// Bits `start..start + 64` as bits 0 to 63 of a word; bits outside the row read as clear.
    #[inline(always)]
    pub(crate) fn window(&self, start: i64) -> u64 {
        let words = self.words.as_slice();
        let word = start.div_euclid(64) + self.pad as i64;
        let shift = start.rem_euclid(64) as u32;
        // A negative word wraps to a huge one: one comparison keeps both ends.
        let get = |w: i64| words.get(w as usize).copied().unwrap_or(0);
        // The next word's bits shifted up by `64 − shift`, in two steps so that a shift of 0
        // leaves none of them rather than overflowing.
        get(word) >> shift | (get(word + 1) << 1) << (63 - shift)
    }

    /// The windows `start + 64 · block` for `block` in `0..blocks` (see [`Bits::window`]), with the
    /// word and the shift found once rather than for each block. `start` must lie between
    /// `−64 · (pad − 2)` and the row's end, and `blocks` be at most `pad − 2`: then every word the
    /// windows read lies in the row or its padding.
    #[inline(always)]
    pub(crate) fn stream(&self, start: i64, blocks: usize) -> Stream<'_> {
        let word = (start.div_euclid(64) + self.pad as i64) as usize;
        Stream {
            words: self
                .words
                .get(word..word + blocks + 1)
                .expect("the padding covers every window of a sweep"),
            shift: start.rem_euclid(64) as u32,
        }
    }
}

/// A [`Bits`] read at `start + 64 · block` ([`Bits::stream`]): a sweep over blocks of 64 rows
/// reads each of its windows so.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Stream<'a> {
    /// The words from the one holding `start`, one more than there are blocks.
    words: &'a [u64],
    shift: u32,
}

impl Stream<'_> {
    /// The windows of blocks `block..block + GROUP`: bits `start + 64 · (block + i) ..` as bits 0
    /// to 63 of lane `i`, with the same shift for every lane.
    #[inline(always)]
    pub(crate) fn group(&self, block: usize) -> GroupWords {
        let (low, high) = (
            load_group(self.words, block),
            load_group(self.words, block + 1),
        );
        // The next word's bits move up in two steps, so that a shift of 0 leaves none of them
        // rather than overflowing.
        (low >> self.shift) | ((high << 1u32) << (63 - self.shift))
    }
}

/// The padding of a [`Bits`] that a sweep over `rows` rows streams ([`Bits::stream`]): the sweep's
/// windows start as far as a row count before a line family's first bit, and run in groups of
/// [`GROUP`] blocks.
fn sweep_padding(rows: usize) -> usize {
    rows.div_ceil(64).next_multiple_of(GROUP) + 2
}

/// N-queens' lines again, laid out so that the squares a placement takes from 64 consecutive
/// rows are read as plain windows: along the rows, a column square's down-diagonal and an
/// up-diagonal square's column run backwards, and an up-diagonal square's down-diagonal and a
/// down-diagonal square's up-diagonal advance two lines a row. For `n` columns and square
/// `(j, w)`: `column_back` holds bit `n − 1 − w`, `down_back` bit `n − 1 − w + j`, and the halves
/// split `w + j` (`up_halves`) and `n − 1 − w + j` (`down_back_halves`) by parity, bit `t / 2` of
/// half `t % 2`.
#[derive(Debug, Clone)]
pub(crate) struct QueensMirrors {
    pub(crate) column_back: Bits,
    pub(crate) down_back: Bits,
    pub(crate) up_halves: [Bits; 2],
    pub(crate) down_back_halves: [Bits; 2],
}

impl QueensMirrors {
    fn new(rows: usize, columns: usize) -> Self {
        let diagonals = rows + columns;
        let pad = sweep_padding(rows);
        let half = || Bits::new(diagonals / 2 + 1, pad);
        QueensMirrors {
            column_back: Bits::new(columns, pad),
            down_back: Bits::new(diagonals, pad),
            up_halves: [half(), half()],
            down_back_halves: [half(), half()],
        }
    }

    fn clear(&mut self) {
        self.column_back.clear();
        self.down_back.clear();
        for half in self.up_halves.iter_mut().chain(&mut self.down_back_halves) {
            half.clear();
        }
    }

    /// Flips the lines of square `(row, value)` on a board of `columns` columns.
    fn toggle(&mut self, columns: i64, row: i64, value: i64) {
        let back = columns - 1 - value;
        self.column_back.toggle(back);
        self.down_back.toggle(back + row);
        let up = value + row;
        self.up_halves[(up % 2) as usize].toggle(up / 2);
        let down = back + row;
        self.down_back_halves[(down % 2) as usize].toggle(down / 2);
    }
}

/// The lines of a kept [`LineRule`] that assigned rows occupy, a bit per line: a row is only
/// ever assigned a free square, so no line holds two.
#[derive(Debug, Clone)]
pub(crate) struct OccupiedLines {
    /// The constraint whose rule this is, and whose forward checking the store does.
    pub(crate) owner: ConstraintId,
    /// Whether the latest placement emptied an unassigned row: the owner's forward checking fails.
    pub(crate) wiped: bool,
    /// The index of row 0's variable.
    pub(crate) first: usize,
    pub(crate) rows: usize,
    pub(crate) columns: i32,
    pub(crate) families: SmallVec<[Family; MAX_LINE_FAMILIES]>,
    /// A bit per line (see [`Family`]).
    pub(crate) occupied: Bits,
    /// A bit per word of `occupied` (its padding included, which is never full) whose lines are
    /// all occupied. Middle-out values are tried from the middle column out, so a search that
    /// takes them occupies a band of columns around the middle that grows with its depth, and
    /// [`OccupiedLines::next_free`] and [`OccupiedLines::prev_free`] cross it 4096 lines at a
    /// time rather than 64.
    full_words: Vec<u64>,
    /// For N-queens' slopes (0, 1, −1), the same lines laid out for reading along the rows.
    pub(crate) mirrors: Option<Box<QueensMirrors>>,
    /// Each row's size (its free squares), which the store's headers do not keep for kept rows:
    /// meaningful for the unassigned rows, and for an assigned one the size it had when assigned.
    pub(crate) sizes: RowSizes,
}

impl OccupiedLines {
    /// No line occupied, for `owner`'s `rule`, which must be [valid](LineRule::is_valid).
    pub(crate) fn new(rule: &LineRule, owner: ConstraintId) -> Self {
        let mut families = SmallVec::new();
        let mut len = 0i64;
        let last_row = rule.rows as i64 - 1;
        for &slope in &rule.slopes {
            let slope = i64::from(slope);
            // The smallest `v + slope · i` on the board is `slope · last_row` for a negative slope.
            let lowest = slope.min(0) * last_row;
            families.push(Family {
                slope,
                start: len - lowest,
            });
            len += rule.columns as i64 + slope.abs() * last_row;
        }
        let occupied = Bits::new(len as usize, sweep_padding(rule.rows));
        let full_words = vec![0; occupied.words.len().div_ceil(64)];
        OccupiedLines {
            owner,
            wiped: false,
            first: rule.first.index(),
            rows: rule.rows,
            columns: rule.columns as i32,
            families,
            occupied,
            full_words,
            mirrors: (rule.slopes == [0, 1, -1])
                .then(|| Box::new(QueensMirrors::new(rule.rows, rule.columns))),
            sizes: RowSizes::new(rule.rows, rule.columns),
        }
    }

    /// Takes every line back (the root, where nothing is assigned).
    pub(crate) fn clear(&mut self) {
        self.occupied.clear();
        self.full_words.fill(0);
        if let Some(mirrors) = &mut self.mirrors {
            mirrors.clear();
        }
        self.sizes.clear();
        self.wiped = false;
    }

    /// The row of variable `index`, if it is one of the rule's.
    #[inline(always)]
    pub(crate) fn row_of(&self, index: usize) -> Option<usize> {
        let row = index.wrapping_sub(self.first);
        (row < self.rows).then_some(row)
    }

    /// The bit of the line of `family` through square `(row, value)`.
    #[inline(always)]
    fn line(family: Family, row: usize, value: i64) -> i64 {
        family.start + value + family.slope * row as i64
    }

    /// Whether line bit `bit`, which must be one of the board's, is occupied.
    #[inline(always)]
    fn is_occupied(&self, bit: i64) -> bool {
        self.occupied.get(bit)
    }

    /// Line bits `start..start + 64` as bit 0 to 63 of a word; bits before the first line or past
    /// the last read as free.
    #[inline(always)]
    pub(crate) fn window(&self, start: i64) -> u64 {
        self.occupied.window(start)
    }

    /// Whether the square `(row, value)` lies on the board and on no occupied line.
    #[inline]
    pub(crate) fn is_free(&self, row: usize, value: i32) -> bool {
        (0..self.columns).contains(&value)
            && self
                .families
                .iter()
                .all(|&family| !self.is_occupied(Self::line(family, row, i64::from(value))))
    }

    /// Whether another line than family `except`'s through `(row, value)`, a square of the board,
    /// is occupied.
    #[inline]
    pub(crate) fn occupied_besides(&self, except: usize, row: usize, value: i64) -> bool {
        self.families
            .iter()
            .enumerate()
            .any(|(k, &family)| k != except && self.is_occupied(Self::line(family, row, value)))
    }

    /// How many squares of row `other` lie on a line through `(row, value)`, a placement of
    /// another row whose lines are occupied, and on no other occupied line: those the placement
    /// takes from `other` (or puts back as it is taken back). A row at a time, for rows too few to
    /// read by words.
    #[inline(always)]
    pub(crate) fn squares_taken(&self, row: usize, value: i32, other: usize) -> u64 {
        if self.mirrors.is_none() {
            return (0..self.families.len())
                .map(|k| u64::from(self.takes_square(k, row, value, other)))
                .sum();
        }
        let distance = row as i64 - other as i64;
        let (value, columns) = (i64::from(value), i64::from(self.columns));
        // N-queens' slopes 0, 1 and −1: the column square, and the up- and down-diagonal
        // squares `value ± distance` where they lie on the board, each tested against its two
        // other lines.
        let [column, up, down] = [0, 1, 2].map(|k| self.families[k].start);
        let (j, occupied) = (other as i64, &self.occupied);
        let on_column = !occupied.get(up + value + j) && !occupied.get(down + value - j);
        let square = value + distance;
        let on_up = (0..columns).contains(&square)
            && !occupied.get(column + square)
            && !occupied.get(down + square - j);
        let square = value - distance;
        let on_down = (0..columns).contains(&square)
            && !occupied.get(column + square)
            && !occupied.get(up + square + j);
        u64::from(on_column) + u64::from(on_up) + u64::from(on_down)
    }

    /// Whether the placement `(row, value)`, whose lines are occupied, takes row `other`'s square
    /// on its line of family `k`: the square lies on the board and on no other occupied line.
    #[inline(always)]
    pub(crate) fn takes_square(&self, k: usize, row: usize, value: i32, other: usize) -> bool {
        let square = i64::from(value) + self.families[k].slope * (row as i64 - other as i64);
        (0..i64::from(self.columns)).contains(&square) && !self.occupied_besides(k, other, square)
    }

    /// Occupies (`true`) or frees every line through `(row, value)`, which lies on the board.
    #[inline]
    pub(crate) fn set(&mut self, row: usize, value: i32, occupied: bool) {
        for k in 0..self.families.len() {
            let bit = Self::line(self.families[k], row, i64::from(value));
            debug_assert_eq!(self.occupied.get(bit), !occupied, "a line holds one value");
            self.occupied.toggle(bit);
            let word = self.occupied.word_of(bit);
            let full = u64::from(self.occupied.words[word] == !0);
            let summary = &mut self.full_words[word / 64];
            *summary = *summary & !(1 << (word % 64)) | full << (word % 64);
        }
        if let Some(mirrors) = &mut self.mirrors {
            mirrors.toggle(i64::from(self.columns), row as i64, i64::from(value));
        }
    }

    /// Where `row`'s squares lie on each family's lines: square `(row, v)` on line bit
    /// `starts[k] + v` of family `k`. A family the rule does not have starts so far below the
    /// first line that its squares read as free.
    #[inline(always)]
    fn row_starts(&self, row: usize) -> [i64; MAX_LINE_FAMILIES] {
        std::array::from_fn(|k| {
            self.families
                .get(k)
                .map_or(NO_FAMILY, |&family| Self::line(family, row, 0))
        })
    }

    /// The occupied squares among values `from..from + 64` (bit `i` for `from + i`) of the row
    /// whose [`row_starts`](Self::row_starts) are `starts`, some of them off the board.
    #[inline(always)]
    fn occupied_squares(&self, starts: &[i64; MAX_LINE_FAMILIES], from: i64) -> u64 {
        // A row's squares lie on ascending lines of every family. The first family's window
        // alone settles a word whose squares it occupies all: middle-out values meet a wide band
        // of occupied columns around the middle, and cross it a window a word.
        let first = self.window(starts[0] + from);
        if first == !0 {
            return first;
        }
        starts[1..]
            .iter()
            .fold(first, |squares, &start| squares | self.window(start + from))
    }

    /// Whether word `word` of the line bits (padding counted) is wholly occupied.
    #[inline(always)]
    fn is_full(&self, word: usize) -> bool {
        self.full_words[word / 64] >> (word % 64) & 1 == 1
    }

    /// Line bit `bit` of the first family if its word is not wholly occupied, else the first
    /// bit of the next word that is not: every line before it from `bit` on is occupied.
    #[inline(always)]
    fn past_full_words(&self, bit: i64) -> i64 {
        let word = self.occupied.word_of(bit);
        if !self.is_full(word) {
            return bit;
        }
        // The padding after the row is never full, so the search ends inside the summary.
        let mut next = word + 1;
        loop {
            let open = !self.full_words[next / 64] >> (next % 64);
            if open != 0 {
                return self
                    .occupied
                    .first_bit_of(next + open.trailing_zeros() as usize);
            }
            next = (next / 64 + 1) * 64;
        }
    }

    /// Line bit `bit` of the first family if its word is not wholly occupied, else the last bit
    /// of the nearest word before it that is not: every line after it up to `bit` is occupied.
    #[inline(always)]
    fn before_full_words(&self, bit: i64) -> i64 {
        let word = self.occupied.word_of(bit);
        if !self.is_full(word) {
            return bit;
        }
        // The padding before the row is never full either.
        let mut next = word - 1;
        loop {
            let open = !self.full_words[next / 64] << (63 - next % 64);
            if open != 0 {
                return self
                    .occupied
                    .first_bit_of(next - open.leading_zeros() as usize)
                    + 63;
            }
            next = (next / 64) * 64 - 1;
        }
    }

    /// The smallest free square of `row` in `from..=to`, a word of squares at a time.
    #[inline]
    pub(crate) fn next_free(&self, row: usize, from: i32, to: i32) -> Option<i32> {
        let (mut from, to) = (i64::from(from.max(0)), i64::from(to.min(self.columns - 1)));
        let starts = self.row_starts(row);
        while from <= to {
            from = self.past_full_words(starts[0] + from) - starts[0];
            if from > to {
                break;
            }
            let mut free = !self.occupied_squares(&starts, from);
            if to - from < 63 {
                free &= (1 << (to - from + 1)) - 1;
            }
            if free != 0 {
                return Some((from + i64::from(free.trailing_zeros())) as i32);
            }
            from += 64;
        }
        None
    }

    /// The largest free square of `row` in `to..=from`.
    #[inline]
    pub(crate) fn prev_free(&self, row: usize, from: i32, to: i32) -> Option<i32> {
        let (mut from, to) = (i64::from(from.min(self.columns - 1)), i64::from(to.max(0)));
        let starts = self.row_starts(row);
        while from >= to {
            from = self.before_full_words(starts[0] + from) - starts[0];
            if from < to {
                break;
            }
            // Squares from − 63 ..= from, the highest bit for `from`.
            let mut free = !self.occupied_squares(&starts, from - 63);
            if from - to < 63 {
                free &= u64::MAX << (63 - (from - to));
            }
            if free != 0 {
                return Some((from - 63 + 63 - i64::from(free.leading_zeros())) as i32);
            }
            from -= 64;
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn queens(n: usize) -> LineRule {
        LineRule {
            first: VarId::from_index(0),
            rows: n,
            columns: n,
            slopes: vec![0, 1, -1],
        }
    }

    /// Every line of every family gets its own bit, and the squares of one line share it: the
    /// index arithmetic stays inside the bits for every square of the board.
    #[test]
    fn every_square_finds_its_own_lines() {
        for n in 1..=9 {
            let mut counts = OccupiedLines::new(&queens(n), ConstraintId(0));
            assert_eq!(
                counts.occupied.row_words().len(),
                (n + 2 * (2 * n - 1)).div_ceil(64)
            );
            for row in 0..n {
                for value in 0..n as i32 {
                    assert!(counts.is_free(row, value));
                    counts.set(row, value, true);
                    // Exactly the squares in line with (row, value) are taken.
                    for r in 0..n {
                        for v in 0..n as i32 {
                            let (dr, dv) = (r as i64 - row as i64, i64::from(v - value));
                            let attacked = dv == 0 || dr == dv || dr == -dv;
                            assert_eq!(counts.is_free(r, v), !attacked, "n {n} ({r}, {v})");
                        }
                    }
                    counts.set(row, value, false);
                }
            }
            assert!(counts.occupied.words.iter().all(|&word| word == 0));
        }
    }

    /// The free squares a row's next and previous free value find, against a look at each square,
    /// over bands of whole words of occupied columns (which the summary of full words skips) and
    /// after some of their queens are lifted again.
    #[test]
    fn free_squares_are_found_across_bands_of_occupied_columns() {
        let n = 600;
        for (band_start, band) in [(0, 300), (137, 250), (299, 301), (10, 64)] {
            let mut lines = OccupiedLines::new(&queens(n), ConstraintId(0));
            // Queen i on row 2i, column band_start + i: columns, sums (3i + ...) and differences
            // (i − ...) all distinct, so the band is a legal placement.
            let queens: Vec<(usize, i32)> = (0..band)
                .map(|i| (2 * i, (band_start + i) as i32))
                .collect();
            for &(row, value) in &queens {
                lines.set(row, value, true);
            }
            let check = |lines: &OccupiedLines| {
                let last = n as i32 - 1;
                for row in (0..n).step_by(7) {
                    let free: Vec<bool> = (0..n as i32).map(|v| lines.is_free(row, v)).collect();
                    for from in (-3..=n as i32 + 3).step_by(13) {
                        let inside = |v: &i32| (0..n as i32).contains(v) && free[*v as usize];
                        let next = (from..=last).find(inside);
                        let prev = (0..=from).rev().find(inside);
                        assert_eq!(
                            lines.next_free(row, from, last),
                            next,
                            "row {row} from {from}"
                        );
                        assert_eq!(lines.prev_free(row, from, 0), prev, "row {row} from {from}");
                        let to = from + 100;
                        assert_eq!(
                            lines.next_free(row, from, to),
                            (from..=to.min(last)).find(inside),
                            "row {row} {from}..={to}"
                        );
                    }
                }
            };
            check(&lines);
            // Every ninth queen lifted: the words that held them are no longer full.
            for &(row, value) in queens.iter().step_by(9) {
                lines.set(row, value, false);
            }
            check(&lines);
        }
    }

    #[test]
    fn invalid_rules_are_refused() {
        assert!(queens(8).is_valid());
        let mut repeated = queens(8);
        repeated.slopes = vec![1, 1];
        assert!(!repeated.is_valid());
        let mut none = queens(8);
        none.slopes.clear();
        assert!(!none.is_valid());
        assert!(!queens(0).is_valid());
        let mut steep = queens(1 << 20);
        steep.slopes = vec![i32::MAX];
        assert!(!steep.is_valid());
    }
}
