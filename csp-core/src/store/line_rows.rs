//! Forward checking that the store keeps itself for a constraint of rows and lines (see
//! [`crate::LineRule`]): placing a row's value occupies its lines and takes the squares on
//! those lines from every unassigned row's size; undoing the placement finds the same squares
//! again from the lines and puts them back. Nothing is trailed but the assignment itself, and an
//! unassigned row's bounds are found from the lines when they are asked for.

use std::ops::RangeInclusive;

use fixedbitset::FixedBitSet;

use super::Store;
use crate::domain::Header;
use crate::lines::{MAX_LINE_FAMILIES, OccupiedLines, QueensMirrors, Stream};
use crate::row_sizes::{GROUP, GroupWords, RowSizes};
use crate::{ConstraintId, DomainView, Model, Objective, VarId};

impl Store {
    /// Keeps the forward checking of a constraint that offers a [`LineRule`](crate::LineRule)
    /// ([`Propagator::lines`](crate::Propagator::lines)) in the store, and answers whether one was
    /// taken. From then on [`Store::forward_check`] does not call that constraint's
    /// [`propagate`](crate::Propagator::forward_check): assigning one of its rows has already done the
    /// same, with a bit per occupied line in place of one trailed removal per value, and a row's
    /// domain is read from the lines. Search is the same, node for node, as without it.
    ///
    /// It is taken only where nothing but assignments and that forward checking will change the
    /// rows: at the root (nothing assigned), with no events or change log recorded (so not under
    /// MAC or learning), when the constraint is the only one on each of its rows, no row is the
    /// objective, and every row still holds all of `0..columns`. The caller promises that search
    /// changes the rows only by assigning them (value enumeration) under forward checking. At
    /// most one constraint is kept.
    pub fn keep_lines(&mut self, model: &Model) -> bool {
        if self.tracking || self.log.is_some() || self.num_assigned > 0 || self.lines.is_some() {
            return false;
        }
        let Some((rule, c)) = self.keepable_rule(model) else {
            return false;
        };
        self.lines = Some(Box::new(OccupiedLines::new(&rule, c)));
        true
    }

    /// The first constraint whose rule [`Store::keep_lines`] can take, with the rule: valid,
    /// within the model's variables, the only constraint on each of its rows, none of them the
    /// objective, and every row holding all of `0..columns`.
    pub(super) fn keepable_rule(&self, model: &Model) -> Option<(crate::LineRule, ConstraintId)> {
        let objective = match model.objective() {
            Objective::Satisfy => None,
            Objective::Minimize(var) | Objective::Maximize(var) => Some(var.index()),
        };
        model.constraint_ids().find_map(|c| {
            let rule = model.constraint(c).lines()?;
            let first = rule.first.index();
            if !rule.is_valid() || first.saturating_add(rule.rows) > self.num_vars() {
                return None;
            }
            let whole = Header {
                lo: 0,
                hi: rule.columns as i32 - 1,
                size: rule.columns as u64,
            };
            let alone = (first..first + rule.rows).all(|index| {
                model.constraints_of(VarId::from_index(index)) == [c]
                    && self.headers[index] == whole
                    && objective != Some(index)
            });
            alone.then_some((rule, c))
        })
    }

    /// Whether the store keeps a constraint's forward checking (see [`Store::keep_lines`]).
    pub fn keeps_lines(&self) -> bool {
        self.lines.is_some()
    }

    /// The domain of variable `index` if it is an unassigned row of kept lines: its free
    /// squares. A kept row's header holds its size but keeps the bounds it had at the root (the
    /// sweep moves sizes only), and the view finds the row's own bounds from the lines when they
    /// are asked for. An assigned row, whose header is its value, is read as any other domain:
    /// the row's own bits, which the store never changes for a kept row, hold every value. Out of
    /// line, so that the test costs other domains a branch.
    #[cold]
    #[inline(never)]
    pub(super) fn kept_row_domain(&self, index: usize) -> Option<DomainView<'_>> {
        let lines = self.lines.as_deref()?;
        let row = lines.row_of(index)?;
        if self.assigned.contains(index) {
            return None;
        }
        let header = Header {
            size: lines.sizes.get(row),
            ..self.headers[index]
        };
        Some(DomainView::on_lines(header, lines, row))
    }

    /// [`Store::lb`] (`LOW`) or [`Store::ub`] of a row of kept lines, or of any other variable:
    /// only the side asked for is found from the lines.
    #[cold]
    #[inline(never)]
    pub(super) fn kept_bound<const LOW: bool>(&self, index: usize) -> i32 {
        match (self.kept_row_domain(index), LOW) {
            (Some(view), true) => view.lb(),
            (Some(view), false) => view.ub(),
            (None, true) => self.headers[index].lo,
            (None, false) => self.headers[index].hi,
        }
    }

    /// Occupies the lines of the value just assigned to `row` and takes the squares on them from
    /// every unassigned row; notes a wipe-out for [`Store::forward_check`].
    pub(super) fn place_on_lines(&mut self, row: usize, value: i32) {
        self.move_on_lines::<true>(row, value);
    }

    /// Undoes [`Store::place_on_lines`] for `row`'s `value`, the newest placement.
    pub(super) fn unplace_from_lines(&mut self, row: usize, value: i32) {
        self.move_on_lines::<false>(row, value);
    }

    /// Places (`PLACE`) or takes back `row`'s `value`: its lines are occupied before the sweep
    /// and freed after it, so that the sweep sees the same lines both ways.
    // Out of line: a sweep dwarfs the call, and inlined it would weigh on every other
    // assignment and undo.
    #[inline(never)]
    fn move_on_lines<const PLACE: bool>(&mut self, row: usize, value: i32) {
        let Store {
            lines,
            assigned,
            free,
            num_assigned,
            ..
        } = self;
        let lines = lines.as_deref_mut().expect("kept lines");
        if PLACE {
            lines.set(row, value, true);
        }
        // The sizes move while the lines are read: out of the lines for the sweep.
        let mut sizes = std::mem::take(&mut lines.sizes);
        let unassigned = &free[..free.len() - *num_assigned];
        // Deep in the search, where it backtracks, a few rows are left among many blocks of 64:
        // they are visited from the store's list of unassigned variables instead.
        let wiped = if unassigned.len() * LISTED_ROWS_PER_ROW <= lines.rows {
            sweep_listed::<PLACE>(lines, &mut sizes, unassigned, row, value)
        } else {
            sweep::<PLACE>(lines, &mut sizes, assigned, row, value)
        };
        if !PLACE {
            // The row is unassigned next, with the size it had when placed.
            sizes.readmit(row);
            lines.set(row, value, false);
        }
        lines.sizes = sizes;
        lines.wiped = wiped;
    }

    /// The unassigned variables with the fewest values, for the fewest-choices rule (Stone &
    /// Stone's MIN): pushes them onto `tied` in index order (after clearing it) and answers their
    /// size, or `u64::MAX` when every variable is assigned. `None`, and `tied` untouched, unless
    /// the store keeps lines (see [`Store::keep_lines`]) whose rows are all its variables.
    ///
    /// It reads the rows' sliced sizes a block of 64 at a time, and only the blocks whose bound
    /// reaches the smallest size found, where a scan of every unassigned variable's size costs a
    /// read per row.
    pub fn fewest_kept_rows(&self, tied: &mut Vec<VarId>) -> Option<u64> {
        let lines = self.lines.as_deref()?;
        if lines.first != 0 || lines.rows != self.num_vars() {
            return None;
        }
        tied.clear();
        let (assigned, rows) = (&self.assigned, lines.rows);
        let fewest = lines.sizes.fewest(
            // The set's bits past the last variable read as clear: only the rows count.
            |block| unassigned_rows(assigned, 0, rows, block),
            |block, mut rows, first| {
                if first {
                    tied.clear();
                }
                while rows != 0 {
                    tied.push(VarId::from_index(
                        block * 64 + rows.trailing_zeros() as usize,
                    ));
                    rows &= rows - 1;
                }
            },
        );
        Some(fewest.map_or(u64::MAX, u64::from))
    }

    /// Where `var`, which must be unassigned, stands in [`Store::unassigned`]: the order in which a
    /// scan of the unassigned variables meets it.
    #[inline]
    pub fn unassigned_position(&self, var: VarId) -> usize {
        debug_assert!(!self.is_assigned(var));
        self.free_position[var.index()] as usize
    }

    /// The size of variable `index` when the store keeps lines: a kept row's from the lines if it
    /// is unassigned, any other's from its header.
    #[cold]
    #[inline(never)]
    pub(super) fn kept_size(&self, index: usize) -> u64 {
        match self.lines.as_deref() {
            Some(lines)
                if let Some(row) = lines.row_of(index)
                    && !self.assigned.contains(index) =>
            {
                lines.sizes.get(row)
            }
            _ => self.headers[index].size,
        }
    }
}

/// Visits every unassigned row but `row` after `(row, value)` occupied its lines. A square of
/// another row on one of those lines is taken by this placement when no other line through it is
/// occupied (its own line holds this placement alone: the value was free when placed, and
/// placements are undone newest first). `PLACE` takes those squares from the row's size;
/// otherwise they are put back. Answers whether a row was left empty.
///
/// 64 rows at a time: which of them lose their square of each family (a word per family), then
/// the sizes of the unassigned ones among them. A block with no unassigned row is
/// skipped, so that backtracking near the bottom of a large board costs little.
fn sweep<const PLACE: bool>(
    lines: &OccupiedLines,
    sizes: &mut RowSizes,
    assigned: &FixedBitSet,
    row: usize,
    value: i32,
) -> bool {
    let general = |block: usize, unassigned: &[u64; GROUP]| {
        let mut words = [[0; GROUP]; MAX_LINE_FAMILIES];
        for (i, &rows) in unassigned.iter().enumerate() {
            let taken = general_taken(lines, row, value, block + i, rows);
            for (family, word) in words.iter_mut().zip(taken) {
                family[i] = word;
            }
        }
        words.map(GroupWords::from)
    };
    match lines.families.len() {
        1 => sweep_blocks::<1, PLACE>(lines, sizes, assigned, general),
        2 => sweep_blocks::<2, PLACE>(lines, sizes, assigned, general),
        // N-queens' slopes (0, 1, −1): the lines have mirrors to read them by words.
        _ if let Some(mirrors) = lines.mirrors.as_deref() => {
            let queens = QueensWords::new(lines, mirrors, row, value);
            // Every block by words, however few of its rows are left: the sizes move a block at a
            // time whatever the words cost, and counting a block's rows to choose (a software
            // population count on the portable target) cost more than it saved.
            sweep_blocks::<3, PLACE>(lines, sizes, assigned, |block, _| queens.taken(block))
        }
        _ => sweep_blocks::<MAX_LINE_FAMILIES, PLACE>(lines, sizes, assigned, general),
    }
}

/// [`sweep`] visits the unassigned rows from the store's list of unassigned variables, one at a
/// time, when there are at most one for this many rows of the board: each costs about what a block
/// of 64 rows with one of them unassigned does, and the blocks with none are not visited at all.
const LISTED_ROWS_PER_ROW: usize = 32;

/// [`sweep`] over the rows among `unassigned` (the store's unassigned variables, rows of `lines`
/// or not), a row at a time.
fn sweep_listed<const PLACE: bool>(
    lines: &OccupiedLines,
    sizes: &mut RowSizes,
    unassigned: &[VarId],
    row: usize,
    value: i32,
) -> bool {
    let mut wiped = false;
    for &var in unassigned {
        let Some(other) = lines.row_of(var.index()) else {
            continue;
        };
        let count = lines.squares_taken(row, value, other);
        let lane = other % 64;
        wiped |= sizes.move_squares::<PLACE>(other / 64, (count & 1) << lane, (count >> 1) << lane);
    }
    wiped
}

/// [`sweep`] with the words of squares taken given: `taken(block, unassigned)` for the rows of
/// blocks `block..block + GROUP` (64 rows each), word `[k][i]` for family `k` and block
/// `block + i`, bit `j % 64` for row `j`, at least for the rows of `unassigned` (the same layout).
///
/// A row loses one square of each family whose bit is set, so up to `K` (at most three). The words
/// are added column-wise, a bit per row (a carry-save adder: `ones` is the count's low bit, `twos`
/// its high bit), and the blocks' sliced sizes take the counts all at once ([`RowSizes`]), a group
/// of [`GROUP`] blocks at a time, each step of it one vector operation.
#[inline(always)]
fn sweep_blocks<const K: usize, const PLACE: bool>(
    lines: &OccupiedLines,
    sizes: &mut RowSizes,
    assigned: &FixedBitSet,
    taken: impl Fn(usize, &[u64; GROUP]) -> [GroupWords; MAX_LINE_FAMILIES],
) -> bool {
    let (first, rows) = (lines.first, lines.rows);
    let mut wiped = false;
    for group in 0..rows.div_ceil(64).div_ceil(GROUP) {
        let block = group * GROUP;
        let unassigned = group_unassigned(assigned, first, rows, block);
        if unassigned.iter().fold(0, |any, &word| any | word) == 0 {
            continue;
        }
        let taken = taken(block, &unassigned);
        let [a, b, c] = std::array::from_fn(|k| if k < K { taken[k] } else { GroupWords::ZERO });
        let unassigned = GroupWords::from(unassigned);
        let ones = (a ^ b ^ c) & unassigned;
        let twos = ((a & b) | (c & (a ^ b))) & unassigned;
        wiped |= sizes.move_group::<PLACE>(group, ones, twos);
    }
    wiped
}

/// [`unassigned_rows`] for blocks `block..block + GROUP`: read as whole words where the rows
/// start on a word of the assigned set, as N-queens' do, and the group lies wholly on the board.
#[inline(always)]
fn group_unassigned(assigned: &FixedBitSet, first: usize, rows: usize, block: usize) -> [u64; 4] {
    const { assert!(GROUP == 4) };
    if usize::BITS == 64 && first.is_multiple_of(64) && (block + GROUP) * 64 <= rows {
        let at = first / 64 + block;
        if let Some(&[a, b, c, d]) = assigned.as_slice().get(at..at + GROUP) {
            return [a, b, c, d].map(|word| !(word as u64));
        }
    }
    let rows_of = |i| unassigned_rows(assigned, first, rows, block + i);
    [rows_of(0), rows_of(1), rows_of(2), rows_of(3)]
}

/// The unassigned rows of block `block` (rows `64 · block..`, bit `j % 64` for row `j`) of a rule
/// of `rows` rows whose row 0 is variable `first`: none past the last row.
#[inline(always)]
fn unassigned_rows(assigned: &FixedBitSet, first: usize, rows: usize, block: usize) -> u64 {
    let start = block * 64;
    if start >= rows {
        return 0;
    }
    !assigned_window(assigned, first + start) & lanes_below(rows - start)
}

/// The first `count` bits of a word (all of them from 64 on).
#[inline(always)]
fn lanes_below(count: usize) -> u64 {
    if count >= 64 { !0 } else { (1 << count) - 1 }
}

/// Whether variables `start..start + 64` are assigned, as the bits of a word (variables past the
/// last read as assigned).
#[inline(always)]
fn assigned_window(assigned: &FixedBitSet, start: usize) -> u64 {
    let blocks = assigned.as_slice();
    if usize::BITS == 64 {
        // Two blocks, shifted into place, wherever the rows start.
        let block = |b: usize| blocks.get(b).map_or(u64::MAX, |&block| block as u64);
        let (word, shift) = (start / 64, start % 64);
        let low = block(word) >> shift;
        return if shift == 0 {
            low
        } else {
            low | block(word + 1) << (64 - shift)
        };
    }
    (0..64).fold(0, |window, i| {
        let index = start + i;
        let set = index >= assigned.len() || assigned.contains(index);
        window | u64::from(set) << i
    })
}

/// The squares of the rows `unassigned` of rows `64 · block..` (bit `j % 64` for row `j`) that the
/// placement `(row, value)` takes, a row at a time: any slopes.
fn general_taken(
    lines: &OccupiedLines,
    row: usize,
    value: i32,
    block: usize,
    mut unassigned: u64,
) -> [u64; MAX_LINE_FAMILIES] {
    let mut words = [0; MAX_LINE_FAMILIES];
    while unassigned != 0 {
        let other = block * 64 + unassigned.trailing_zeros() as usize;
        unassigned &= unassigned - 1;
        if other >= lines.rows {
            break;
        }
        for (k, word) in words.iter_mut().enumerate().take(lines.families.len()) {
            *word |= u64::from(lines.takes_square(k, row, value, other)) << (other % 64);
        }
    }
    words
}

/// [`general_taken`] for N-queens' slopes 0, 1 and −1 (columns, up- and down-diagonals), from
/// words of the occupied lines and their [mirrors](QueensMirrors): row `j`'s column square is taken
/// when its up- and down-diagonal are free, its up-diagonal square when that square's column and
/// down-diagonal are, and its down-diagonal square when that square's column and up-diagonal are.
/// Each of those six lines is a window that advances a word a block ([`Stream`]).
struct QueensWords<'a> {
    /// For the column squares: their up-diagonals and their down-diagonals (reversed).
    column: [Stream<'a>; 2],
    /// For the up-diagonal squares: their columns (reversed) and down-diagonals (reversed, halved).
    up: [Stream<'a>; 2],
    /// For the down-diagonal squares: their columns and up-diagonals (halved).
    down: [Stream<'a>; 2],
    /// The rows whose up-diagonal square (`value + row − j`) and down-diagonal square
    /// (`value − row + j`) lie on the board.
    up_rows: RangeInclusive<i64>,
    down_rows: RangeInclusive<i64>,
}

impl<'a> QueensWords<'a> {
    fn new(lines: &'a OccupiedLines, mirrors: &'a QueensMirrors, row: usize, value: i32) -> Self {
        let [column, up, _] = [0, 1, 2].map(|k| lines.families[k].start);
        // The streams are read a group of blocks at a time, the last group maybe past the rows.
        let blocks = lines.rows.div_ceil(64).next_multiple_of(GROUP);
        let (row, value) = (row as i64, i64::from(value));
        let (rows, columns) = (lines.rows as i64, i64::from(lines.columns));
        // Row j's up-diagonal square is `value + row − j`: its column reversed is `back + j` and
        // its down-diagonal reversed `back + 2j`. Its down-diagonal square is `value − row + j`:
        // its up-diagonal is `ahead + 2j`.
        let back = columns - 1 - value - row;
        let ahead = value - row;
        // Which half holds the up-diagonal squares' down-diagonals, and which the down-diagonal
        // squares' up-diagonals.
        let [back_half, ahead_half] = [back, ahead].map(|start| start.rem_euclid(2) as usize);
        QueensWords {
            column: [
                lines.occupied.stream(up + value, blocks),
                mirrors.down_back.stream(columns - 1 - value, blocks),
            ],
            up: [
                mirrors.column_back.stream(back, blocks),
                mirrors.down_back_halves[back_half].stream(back.div_euclid(2), blocks),
            ],
            down: [
                lines.occupied.stream(column + ahead, blocks),
                mirrors.up_halves[ahead_half].stream(ahead.div_euclid(2), blocks),
            ],
            up_rows: (value + row - (columns - 1)).max(0)..=(value + row).min(rows - 1),
            down_rows: (row - value).max(0)..=(row - value + columns - 1).min(rows - 1),
        }
    }

    /// The squares of the rows of blocks `block..block + GROUP` taken, word `[k][i]` for family
    /// `k` and block `block + i`. Rows past the board's last are left to the caller, which counts
    /// only unassigned rows.
    #[inline(always)]
    fn taken(&self, block: usize) -> [GroupWords; MAX_LINE_FAMILIES] {
        let j = block as i64 * 64;
        let free = |[a, b]: &[Stream<'_>; 2], within: GroupWords| {
            !(a.group(block) | b.group(block)) & within
        };
        [
            free(&self.column, GroupWords::MAX),
            free(&self.up, within_group(&self.up_rows, j)),
            free(&self.down, within_group(&self.down_rows, j)),
        ]
    }
}

/// [`within`] for the [`GROUP`] blocks from row `start`: most groups lie wholly inside or wholly
/// outside, and take one or two tests.
#[inline(always)]
fn within_group(range: &RangeInclusive<i64>, start: i64) -> GroupWords {
    let last = start + 64 * GROUP as i64 - 1;
    if *range.start() <= start && *range.end() >= last {
        return GroupWords::MAX;
    }
    if *range.start() > last || *range.end() < start {
        return GroupWords::ZERO;
    }
    const { assert!(GROUP == 4) };
    let lane = |i: i64| within(range, start + 64 * i);
    GroupWords::from([lane(0), lane(1), lane(2), lane(3)])
}

/// The rows of `range` among `start..start + 64`, as bits from `start`.
#[inline(always)]
fn within(range: &RangeInclusive<i64>, start: i64) -> u64 {
    let (first, last) = (*range.start() - start, *range.end() - start);
    // Most blocks lie wholly inside: a test that changes its answer twice a sweep.
    if first <= 0 && last >= 63 {
        return !0;
    }
    // Without a branch: where a range starts or ends inside a block varies from one placement to
    // the next, and a test for it was mispredicted. A shift by 64 or more leaves no bit.
    let from = first.clamp(0, 64) as u32;
    let past = (63 - last).clamp(0, 64) as u32;
    u64::MAX.checked_shl(from).unwrap_or(0) & u64::MAX.checked_shr(past).unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use rand::RngExt;

    use super::*;
    use crate::{
        Checkpoint, Constraint, LineRule, ModelBuilder, PropagationCtx, Propagator, Wipeout,
        rng_for,
    };

    /// Rows and lines written plainly: forward checking removes each square on a new value's
    /// lines from every unassigned row, one `remove` at a time. It offers its rule only if asked.
    #[derive(Debug)]
    struct Plain {
        rows: Vec<VarId>,
        columns: usize,
        slopes: Vec<i32>,
        offer: bool,
    }

    impl Constraint for Plain {
        fn scope(&self) -> &[VarId] {
            &self.rows
        }

        fn is_satisfied(&self, values: &[i32]) -> bool {
            self.slopes.iter().all(|&slope| {
                let mut lines: Vec<i64> = (0..values.len())
                    .map(|i| i64::from(values[i]) + i64::from(slope) * i as i64)
                    .collect();
                lines.sort_unstable();
                lines.windows(2).all(|pair| pair[0] != pair[1])
            })
        }
    }

    impl Propagator for Plain {
        // Value enumeration.
        fn forward_check(&self, var: VarId, ctx: &mut PropagationCtx<'_>) -> Result<(), Wipeout> {
            let value = i64::from(ctx.value(var).ok_or(Wipeout)?);
            let row = (var.index() - self.rows[0].index()) as i64;
            for (other, &rest) in self.rows.iter().enumerate() {
                if ctx.is_assigned(rest) {
                    continue;
                }
                for &slope in &self.slopes {
                    let square = value + i64::from(slope) * (row - other as i64);
                    if (0..self.columns as i64).contains(&square) {
                        ctx.remove(rest, square as i32)?;
                    }
                }
            }
            Ok(())
        }

        fn lines(&self) -> Option<LineRule> {
            self.offer.then(|| LineRule {
                first: self.rows[0],
                rows: self.rows.len(),
                columns: self.columns,
                slopes: self.slopes.clone(),
            })
        }
    }

    /// `rows` rows of `columns` values under `slopes`, after `lead` variables of no constraint
    /// (so that the rows start anywhere in a word of the assigned set).
    fn model(lead: usize, rows: usize, columns: usize, slopes: &[i32], offer: bool) -> Model {
        let mut builder = ModelBuilder::new();
        for i in 0..lead {
            builder.int_var(format!("y{i}"), 0..=3).unwrap();
        }
        let vars: Vec<VarId> = (0..rows)
            .map(|i| {
                builder
                    .int_var(format!("x{i}"), 0..=columns as i32 - 1)
                    .unwrap()
            })
            .collect();
        builder
            .post(Plain {
                rows: vars,
                columns,
                slopes: slopes.to_vec(),
                offer,
            })
            .unwrap();
        builder.build()
    }

    /// Every domain alike in both stores, read every way search reads one; and where the kept
    /// store finds the fewest choices itself, the same rows as a scan of the plain one's sizes.
    fn assert_same(kept: &Store, plain: &Store, context: &str) {
        let mut tied = vec![VarId::from_index(0)];
        if let Some(fewest) = kept.fewest_kept_rows(&mut tied) {
            let unassigned = plain.unassigned();
            let min = unassigned.iter().map(|&v| plain.size(v)).min();
            assert_eq!(fewest, min.unwrap_or(u64::MAX), "{context}");
            let mut expected: Vec<VarId> = unassigned
                .iter()
                .copied()
                .filter(|&v| Some(plain.size(v)) == min)
                .collect();
            expected.sort_unstable();
            assert_eq!(tied, expected, "{context}");
            for &v in unassigned {
                assert_eq!(kept.unassigned()[kept.unassigned_position(v)], v);
            }
        }
        for index in 0..plain.num_vars() {
            let var = VarId::from_index(index);
            let (a, b) = (kept.domain(var), plain.domain(var));
            assert_eq!(a, b, "{context}: x{index}");
            assert_eq!(kept.size(var), plain.size(var), "{context}: x{index}");
            if b.size() > 0 {
                assert_eq!((kept.lb(var), kept.ub(var)), (plain.lb(var), plain.ub(var)));
                assert!(a.values().eq(b.values()), "{context}: x{index}");
                let middle = (b.lb() + b.ub()) / 2;
                assert_eq!(a.next_value(middle), b.next_value(middle));
                assert_eq!(a.prev_value(middle), b.prev_value(middle));
                assert_eq!(a.nth_value(b.size() / 2), b.nth_value(b.size() / 2));
                assert_eq!(a.count_in(middle, b.ub()), b.count_in(middle, b.ub()));
                assert_eq!(a.to_domain(), b.to_domain());
            }
        }
    }

    /// Keeping the lines is forward checking, exactly: random walks of assignments, forward
    /// checks, undos and returns to the root give the same domains, bounds, sizes and failures as
    /// the constraint's own `propagate`, for N-queens' slopes (the word-at-a-time path) and
    /// others (the general one), on boards narrower and wider than their height and across word
    /// boundaries, with many rows unassigned (swept by blocks) and few (swept from the list).
    #[test]
    fn keeping_lines_is_forward_checking() {
        let shapes: &[(usize, usize, usize, &[i32])] = &[
            (0, 8, 8, &[0, 1, -1]),
            (0, 1, 1, &[0, 1, -1]),
            (0, 5, 3, &[0, 1, -1]),
            (0, 3, 9, &[0, 1, -1]),
            (0, 70, 70, &[0, 1, -1]),
            (0, 130, 100, &[0, 1, -1]),
            (0, 90, 140, &[0, 1, -1]),
            (0, 12, 12, &[0]),
            (0, 20, 30, &[1, -2]),
            (0, 66, 70, &[0, 3, -1]),
            (0, 9, 9, &[-1, 0, 1]),
            (3, 70, 70, &[0, 1, -1]),
            (65, 40, 50, &[1, -2]),
            // Past a group of four blocks (256 rows), with rows that start on a word of the
            // assigned set (read a group at a time) and off one, and more rows than columns.
            (0, 300, 300, &[0, 1, -1]),
            (64, 270, 120, &[0, 1, -1]),
            (7, 520, 40, &[0, 1, -1]),
            (0, 260, 90, &[1, -2]),
            // Wide enough that walks reach the last few rows, which are swept from the list of
            // unassigned variables.
            (0, 32, 700, &[0, 1, -1]),
            (5, 32, 500, &[1, -2]),
        ];
        let mut rng = rng_for(5, 0);
        for &(lead, rows, columns, slopes) in shapes {
            let (offered, refused) = (
                model(lead, rows, columns, slopes, true),
                model(lead, rows, columns, slopes, false),
            );
            // The kept store as a search that keeps lines builds it: the rows' bits unallocated.
            let mut kept = Store::new_for_kept_lines(&offered);
            let mut plain = Store::new(&refused);
            if columns > 64 && rows >= 8 {
                // Bit sets (wider than a word) that would be interleaved: all of them left out.
                assert!(
                    kept.snapshot_bytes() + rows * columns / 8
                        <= Store::new(&offered).snapshot_bytes(),
                    "{rows}×{columns} {slopes:?}"
                );
            }
            assert!(kept.keep_lines(&offered), "{rows}×{columns} {slopes:?}");
            // With no other variable, the store finds the fewest choices itself.
            let mut tied = Vec::new();
            assert_eq!(kept.fewest_kept_rows(&mut tied).is_some(), lead == 0);
            assert!(!plain.keep_lines(&refused));
            let with_root = rng.random_range(0..2) == 0;
            if with_root {
                kept.snapshot_root();
                plain.snapshot_root();
            }
            // Fewer walks past a group of blocks: each step compares every square of the board.
            let walks = if rows > 256 { 4 } else { 40 };
            for walk in 0..walks {
                let mut marks: Vec<(Checkpoint, Checkpoint)> = Vec::new();
                for step in 0..3 * rows {
                    let context = format!("{rows}×{columns} {slopes:?}, walk {walk} step {step}");
                    let unassigned: Vec<VarId> = plain.unassigned().to_vec();
                    if unassigned.is_empty() || rng.random_range(0..6) == 0 {
                        if marks.is_empty() {
                            break;
                        }
                        let (a, b) = marks.swap_remove(rng.random_range(0..marks.len()));
                        marks.retain(|&(other, _)| other < a);
                        kept.undo_to(&offered, a);
                        plain.undo_to(&refused, b);
                        assert_same(&kept, &plain, &context);
                        continue;
                    }
                    let var = unassigned[rng.random_range(0..unassigned.len())];
                    let domain = plain.domain(var);
                    let value = domain
                        .nth_value(rng.random_range(0..domain.size()))
                        .unwrap();
                    marks.push((kept.checkpoint(), plain.checkpoint()));
                    kept.assign(&offered, var, value);
                    plain.assign(&refused, var, value);
                    let failed = plain.forward_check(&refused, var).is_err();
                    assert_eq!(
                        kept.forward_check(&offered, var).is_err(),
                        failed,
                        "{context}"
                    );
                    if failed {
                        let (a, b) = marks.pop().unwrap();
                        kept.undo_to(&offered, a);
                        plain.undo_to(&refused, b);
                    }
                    assert_same(&kept, &plain, &context);
                }
                if with_root && rng.random_range(0..2) == 0 {
                    kept.reset_to_root(&offered);
                    plain.reset_to_root(&refused);
                } else {
                    kept.undo_to(&offered, Checkpoint::default());
                    plain.undo_to(&refused, Checkpoint::default());
                }
                assert_same(&kept, &plain, "back at the root");
            }
        }
    }

    /// A store keeps lines only where nothing else changes the rows.
    #[test]
    fn lines_are_kept_only_alone_and_whole() {
        let offered = model(0, 6, 6, &[0, 1, -1], true);
        let mut tracked = Store::new(&offered);
        tracked.set_tracking(true);
        assert!(!tracked.keep_lines(&offered));
        let mut narrowed = Store::new(&offered);
        narrowed.remove_value(VarId::from_index(2), 3).unwrap();
        assert!(!narrowed.keep_lines(&offered));
        let mut twice = Store::new(&offered);
        assert!(!twice.keeps_lines());
        assert!(twice.keep_lines(&offered));
        assert!(twice.keeps_lines());
        assert!(!twice.keep_lines(&offered));
        // A second constraint on a row.
        let mut builder = ModelBuilder::new();
        let vars: Vec<VarId> = (0..4)
            .map(|i| builder.int_var(format!("x{i}"), 0..=3).unwrap())
            .collect();
        builder
            .post(Plain {
                rows: vars.clone(),
                columns: 4,
                slopes: vec![0],
                offer: true,
            })
            .unwrap();
        builder
            .post(crate::constraints::AllDifferent::new(vars[..2].to_vec()))
            .unwrap();
        let shared = builder.build();
        assert!(!Store::new(&shared).keep_lines(&shared));
    }
}
