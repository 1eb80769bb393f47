//! Finite sets of `i32` values, of any width: a bit set where the declared span is narrow, a list of
//! intervals where it is wide.

use smallvec::SmallVec;

use crate::EventSet;

/// Domains declared over at most this many consecutive integers (`max − min + 1`) are bit sets; wider
/// ones are lists of intervals. 2¹⁶ values make 8 KiB of bits: every N-queens board the engine searches
/// (16,245 columns at most), Sudoku and graph colouring stay on bits, while `var -10⁹..10⁹` or an
/// unbounded `var int` costs a few bytes.
pub const BITSET_MAX_SPAN: u64 = 1 << 16;

/// A finite set of `i32` values, with its smallest and largest value and its size kept explicitly, so
/// that `min`, `max` and `size` are O(1) whatever the representation.
///
/// Two representations sit behind one type, chosen once from the span the domain is declared with:
///
/// - **Bits** (span at most [`BITSET_MAX_SPAN`]): one bit per value of the declared span. A domain that
///   holds its whole span keeps no bits until a value inside it is removed, so that a model of a
///   million-column board costs a few bytes per variable; [`crate::Store::new`] gives each search a
///   materialised copy, so search never allocates when it prunes. Up to 64 values the bits live inline.
/// - **Intervals** (wider spans): a sorted list of disjoint, non-touching intervals. A range, however
///   wide, is one interval held inline; each value removed from its inside splits one.
///
/// In both, the bounds are applied lazily: raising the smallest value or lowering the largest moves
/// `lo`/`hi` (and the size) without touching the bits or intervals, so a bound change costs O(1) trail
/// space however many values it removes. A value is in the domain when it lies in `lo..=hi` and its bit
/// is set (or it lies in an interval).
#[derive(Debug, Clone)]
pub struct Domain {
    /// The smallest value left (meaningful while the domain is not empty).
    lo: i32,
    /// The largest value left (meaningful while the domain is not empty).
    hi: i32,
    /// How many values are left: up to 2³², the whole `i32` range.
    size: u64,
    repr: Repr,
}

#[derive(Debug, Clone)]
enum Repr {
    /// A declared span of at most 64 values: bit `i` of `bits` stands for `base + i`. Inline, so a
    /// Boolean or a Sudoku cell costs no allocation.
    Word { base: i32, width: u32, bits: u64 },
    /// Bit `i` of `words` stands for `base + i`; `words` is empty while every value of the declared
    /// span `base..base + width` is present (the span need not be materialised until a hole appears).
    Bits {
        base: i32,
        width: u32,
        words: Box<[u64]>,
    },
    /// Sorted, disjoint, non-adjacent intervals `(from, to)`, inclusive. `first` and `last` are the
    /// declared smallest and largest values (the span), which removals never change.
    Spans {
        first: i32,
        last: i32,
        spans: SmallVec<[(i32, i32); 1]>,
    },
}

/// What a bound change did, for the trail: enough to undo it (see [`Domain::untighten`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Tightening {
    pub(crate) old_lo: i32,
    pub(crate) old_hi: i32,
    pub(crate) removed: u64,
    pub(crate) events: EventSet,
}

/// The offset that encodes a value of a wide domain on the trail: the value's distance from `i32::MIN`.
#[inline]
fn wide_offset(value: i32) -> u32 {
    (value as u32) ^ 0x8000_0000
}

#[inline]
fn wide_value(offset: u32) -> i32 {
    (offset ^ 0x8000_0000) as i32
}

impl PartialEq for Domain {
    /// Domains are equal when they hold the same values, whichever representation each has.
    fn eq(&self, other: &Self) -> bool {
        self.size == other.size
            && (self.size == 0 || (self.lo == other.lo && self.hi == other.hi))
            && self.runs().eq(other.runs())
    }
}

impl Eq for Domain {}

impl Domain {
    /// The domain `lo..=hi`. The caller has checked that the range is not empty.
    pub(crate) fn range(lo: i32, hi: i32) -> Self {
        debug_assert!(lo <= hi);
        let width = (i64::from(hi) - i64::from(lo) + 1) as u64;
        let repr = if width <= 64 {
            Repr::Word {
                base: lo,
                width: width as u32,
                bits: u64::MAX >> (64 - width),
            }
        } else if width <= BITSET_MAX_SPAN {
            Repr::Bits {
                base: lo,
                width: width as u32,
                words: Box::default(),
            }
        } else {
            Repr::Spans {
                first: lo,
                last: hi,
                spans: smallvec::smallvec![(lo, hi)],
            }
        };
        Domain {
            lo,
            hi,
            size: width,
            repr,
        }
    }

    /// The domain holding exactly `values` (sorted, deduplicated, non-empty, checked by the caller).
    pub(crate) fn from_sorted(values: &[i32]) -> Self {
        let lo = values[0];
        let hi = values[values.len() - 1];
        let width = (i64::from(hi) - i64::from(lo) + 1) as u64;
        // A gap-free value list is a range: keep the representation canonical.
        if width == values.len() as u64 {
            return Self::range(lo, hi);
        }
        let repr = if width <= BITSET_MAX_SPAN {
            let mut words = vec![0u64; (width as usize).div_ceil(64)];
            for &v in values {
                let index = (i64::from(v) - i64::from(lo)) as usize;
                words[index / 64] |= 1 << (index % 64);
            }
            if width <= 64 {
                Repr::Word {
                    base: lo,
                    width: width as u32,
                    bits: words[0],
                }
            } else {
                Repr::Bits {
                    base: lo,
                    width: width as u32,
                    words: words.into_boxed_slice(),
                }
            }
        } else {
            let mut spans: SmallVec<[(i32, i32); 1]> = SmallVec::new();
            for &v in values {
                match spans.last_mut() {
                    Some((_, to)) if i64::from(*to) + 1 == i64::from(v) => *to = v,
                    _ => spans.push((v, v)),
                }
            }
            Repr::Spans {
                first: lo,
                last: hi,
                spans,
            }
        };
        Domain {
            lo,
            hi,
            size: values.len() as u64,
            repr,
        }
    }

    /// The bit words and the value of bit 0, for a bit-set domain (no words: the whole span).
    #[inline]
    fn bits(&self) -> Option<(i32, &[u64])> {
        match &self.repr {
            Repr::Word { base, bits, .. } => Some((*base, std::slice::from_ref(bits))),
            Repr::Bits { base, words, .. } => Some((*base, words)),
            Repr::Spans { .. } => None,
        }
    }

    /// Whether the domain is a bit set (its declared span is at most [`BITSET_MAX_SPAN`]).
    #[inline]
    pub fn is_bitset(&self) -> bool {
        !matches!(self.repr, Repr::Spans { .. })
    }

    /// The number of values left.
    #[inline]
    pub fn size(&self) -> u64 {
        self.size
    }

    /// True when no value is left.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.size == 0
    }

    /// True when exactly one value is left.
    #[inline]
    pub fn is_fixed(&self) -> bool {
        self.size == 1
    }

    /// The smallest value left, if any.
    #[inline]
    pub fn min(&self) -> Option<i32> {
        (self.size > 0).then_some(self.lo)
    }

    /// The largest value left, if any.
    #[inline]
    pub fn max(&self) -> Option<i32> {
        (self.size > 0).then_some(self.hi)
    }

    /// The smallest value left. Meaningful only while the domain is not empty (a propagator never sees
    /// an empty one: emptying a domain is a wipe-out).
    #[inline]
    pub fn lb(&self) -> i32 {
        self.lo
    }

    /// The largest value left; see [`Domain::lb`].
    #[inline]
    pub fn ub(&self) -> i32 {
        self.hi
    }

    /// The only value left, if exactly one is.
    #[inline]
    pub fn fixed_value(&self) -> Option<i32> {
        (self.size == 1).then_some(self.lo)
    }

    /// The smallest value the domain was declared with (its span's lower end).
    #[inline]
    pub fn span_lo(&self) -> i32 {
        match self.repr {
            Repr::Word { base, .. } | Repr::Bits { base, .. } => base,
            Repr::Spans { first, .. } => first,
        }
    }

    /// The largest value the domain was declared with.
    #[inline]
    pub fn span_hi(&self) -> i32 {
        match self.repr {
            Repr::Word { base, width, .. } | Repr::Bits { base, width, .. } => {
                (i64::from(base) + i64::from(width) - 1) as i32
            }
            Repr::Spans { last, .. } => last,
        }
    }

    /// Whether `value` is in the domain.
    #[inline]
    pub fn contains(&self, value: i32) -> bool {
        if value < self.lo || value > self.hi || self.size == 0 {
            return false;
        }
        match &self.repr {
            Repr::Word { base, bits, .. } => (bits >> value.wrapping_sub(*base) as u32) & 1 == 1,
            Repr::Bits { base, words, .. } => bit(words, value.wrapping_sub(*base) as u32 as usize),
            Repr::Spans { spans, .. } => span_index(spans, value).is_some(),
        }
    }

    /// The values left, ascending.
    pub fn values(&self) -> Values<'_> {
        if self.size == 0 {
            return Values::Empty;
        }
        match self.bits() {
            Some((base, words)) => {
                if words.is_empty() {
                    Values::Range(i64::from(self.lo)..i64::from(self.hi) + 1)
                } else {
                    let from = (i64::from(self.lo) - i64::from(base)) as usize;
                    let to = (i64::from(self.hi) - i64::from(base)) as usize;
                    Values::Bits(BitValues::new(words, base, from, to))
                }
            }
            None => {
                let Repr::Spans { spans, .. } = &self.repr else {
                    unreachable!("a domain without bits has intervals")
                };
                Values::Spans {
                    spans,
                    index: span_at_or_after(spans, self.lo),
                    next: i64::from(self.lo),
                    hi: i64::from(self.hi),
                }
            }
        }
    }

    /// The values left as maximal runs of consecutive integers, ascending.
    pub fn runs(&self) -> Box<dyn Iterator<Item = (i32, i32)> + '_> {
        if let Repr::Spans { spans, .. } = &self.repr {
            // The intervals are maximal already; only the bounds cut them.
            let (lo, hi) = (self.lo, self.hi);
            let size = self.size;
            return Box::new(
                spans
                    .iter()
                    .filter(move |&&(start, end)| size > 0 && end >= lo && start <= hi)
                    .map(move |&(start, end)| (start.max(lo), end.min(hi))),
            );
        }
        let mut values = self.values().peekable();
        Box::new(std::iter::from_fn(move || {
            let start = values.next()?;
            let mut end = start;
            while values
                .next_if(|&v| i64::from(v) == i64::from(end) + 1)
                .is_some()
            {
                end += 1;
            }
            Some((start, end))
        }))
    }

    /// Appends the values left, ascending, to `out`: the same as `out.extend(self.values())`, walking
    /// the bit words directly. Search collects every node's candidates this way, so the iterator's
    /// per-value overhead mattered.
    ///
    /// A domain of more than 2³² values cannot be listed; callers enumerate only narrow domains.
    #[inline]
    pub fn append_values(&self, out: &mut Vec<i32>) {
        if self.size == 0 {
            return;
        }
        // Size the buffer once and fill it by index: a `push` per value re-checked the capacity each
        // time, which was a third of the cost of listing a small domain.
        let start = out.len();
        out.resize(start + self.size as usize, 0);
        self.write_values(&mut out[start..]);
    }

    /// Writes the values left, ascending, into `slots`, which must hold exactly [`Domain::size`]
    /// of them: [`Domain::append_values`] for a buffer that is not a `Vec` (a stack array, say).
    ///
    /// # Panics
    ///
    /// If `slots` is shorter than the domain's size.
    #[inline]
    pub fn write_values(&self, slots: &mut [i32]) {
        debug_assert_eq!(slots.len() as u64, self.size, "one slot per value");
        if self.size == 0 {
            return;
        }
        match &self.repr {
            Repr::Word { base, bits, .. } => {
                // One word (every domain of at most 64 values, as in the LEX counts): one mask.
                let from = self.lo.wrapping_sub(*base) as u32;
                let to = self.hi.wrapping_sub(*base) as u32;
                let mut remaining = bits & range_mask(from, to);
                let base = i64::from(*base);
                let mut filled = 0;
                while remaining != 0 {
                    slots[filled] = (base + i64::from(remaining.trailing_zeros())) as i32;
                    filled += 1;
                    remaining &= remaining - 1;
                }
                debug_assert_eq!(filled, slots.len(), "the domain's size counts its bits");
            }
            Repr::Bits { base, words, .. } if !words.is_empty() => {
                let from = (i64::from(self.lo) - i64::from(*base)) as usize;
                let to = (i64::from(self.hi) - i64::from(*base)) as usize;
                let mut filled = 0;
                for (word_index, &word) in
                    words.iter().enumerate().take(to / 64 + 1).skip(from / 64)
                {
                    let mut remaining = word & word_mask(word_index, from, to);
                    let word_base = i64::from(*base) + (word_index * 64) as i64;
                    while remaining != 0 {
                        let bit = remaining.trailing_zeros() as i64;
                        slots[filled] = (word_base + bit) as i32;
                        filled += 1;
                        remaining &= remaining - 1;
                    }
                }
                debug_assert_eq!(filled, slots.len(), "the domain's size counts its bits");
            }
            _ => {
                for (slot, value) in slots.iter_mut().zip(self.values()) {
                    *slot = value;
                }
            }
        }
    }

    /// The smallest value left that is greater than `value`.
    pub fn next_value(&self, value: i32) -> Option<i32> {
        if self.size == 0 || value >= self.hi {
            return None;
        }
        if value < self.lo {
            return Some(self.lo);
        }
        let from = value + 1;
        match self.bits() {
            Some((base, words)) => {
                let index = next_set(
                    words,
                    (from - base) as usize,
                    (i64::from(self.hi) - i64::from(base)) as usize,
                )?;
                Some((i64::from(base) + index as i64) as i32)
            }
            None => {
                let Repr::Spans { spans, .. } = &self.repr else {
                    unreachable!()
                };
                let i = span_at_or_after(spans, from);
                spans.get(i).map(|&(start, _)| start.max(from))
            }
        }
    }

    /// The largest value left that is smaller than `value`.
    pub fn prev_value(&self, value: i32) -> Option<i32> {
        if self.size == 0 || value <= self.lo {
            return None;
        }
        if value > self.hi {
            return Some(self.hi);
        }
        let from = value - 1;
        match self.bits() {
            Some((base, words)) => {
                let index = prev_set(
                    words,
                    (from - base) as usize,
                    (i64::from(self.lo) - i64::from(base)) as usize,
                )?;
                Some((i64::from(base) + index as i64) as i32)
            }
            None => {
                let Repr::Spans { spans, .. } = &self.repr else {
                    unreachable!()
                };
                let i = span_at_or_before(spans, from)?;
                Some(spans[i].1.min(from))
            }
        }
    }

    /// How many values left lie in `lo..=hi`: O(1) for a whole range, a word count for bits, a walk
    /// over the intervals that overlap it otherwise. Propagators use it to decide whether listing the
    /// values of a stretch is affordable.
    pub fn count_in(&self, lo: i32, hi: i32) -> u64 {
        if self.size == 0 {
            return 0;
        }
        self.count_between(i64::from(lo), i64::from(hi))
    }

    /// The `k`-th smallest value left (from 0), if the domain has more than `k` values.
    pub fn nth_value(&self, k: u64) -> Option<i32> {
        if k >= self.size {
            return None;
        }
        match self.bits() {
            Some((_, [])) => Some((i64::from(self.lo) + k as i64) as i32),
            Some((base, words)) => {
                let from = (i64::from(self.lo) - i64::from(base)) as usize;
                let to = (i64::from(self.hi) - i64::from(base)) as usize;
                let mut remaining = k;
                for (word_index, &word) in
                    words.iter().enumerate().take(to / 64 + 1).skip(from / 64)
                {
                    let mut word = word & word_mask(word_index, from, to);
                    let ones = u64::from(word.count_ones());
                    if remaining >= ones {
                        remaining -= ones;
                        continue;
                    }
                    for _ in 0..remaining {
                        word &= word - 1;
                    }
                    let index = word_index * 64 + word.trailing_zeros() as usize;
                    return Some((i64::from(base) + index as i64) as i32);
                }
                None
            }
            None => {
                let Repr::Spans { spans, .. } = &self.repr else {
                    unreachable!()
                };
                let mut remaining = k;
                for &(start, end) in &spans[span_at_or_after(spans, self.lo)..] {
                    let (start, end) = (i64::from(start.max(self.lo)), i64::from(end.min(self.hi)));
                    if start > end {
                        break;
                    }
                    let length = (end - start + 1) as u64;
                    if remaining < length {
                        return Some((start + remaining as i64) as i32);
                    }
                    remaining -= length;
                }
                None
            }
        }
    }

    /// The values in `base..base + 64` as the bits of one word (bit `i` for the value `base + i`);
    /// values outside that window are left out. For algorithms that work on small domains as words.
    #[inline]
    pub(crate) fn window64(&self, base: i32) -> u64 {
        if let Some(word) = self.word_window(base) {
            return word;
        }
        self.window64_general(base)
    }

    /// [`Domain::window64`] of an inline word (a domain declared over at most 64 values), without a
    /// call: a shift and a mask. `None` for the other representations.
    #[inline(always)]
    fn word_window(&self, base: i32) -> Option<u64> {
        let Repr::Word {
            base: word_base,
            bits,
            ..
        } = self.repr
        else {
            return None;
        };
        if self.size == 0 {
            return Some(0);
        }
        // The live bits (those between the bounds), then moved to the window's base.
        let live = bits
            & range_mask(
                self.lo.wrapping_sub(word_base) as u32,
                self.hi.wrapping_sub(word_base) as u32,
            );
        let shift = i64::from(word_base) - i64::from(base);
        Some(if shift >= 64 || shift <= -64 {
            0
        } else if shift >= 0 {
            live << shift
        } else {
            live >> -shift
        })
    }

    #[inline(never)]
    fn window64_general(&self, base: i32) -> u64 {
        let (from, to) = (
            i64::from(self.lo).max(i64::from(base)),
            i64::from(self.hi).min(i64::from(base) + 63),
        );
        if self.size == 0 || from > to {
            return 0;
        }
        match self.bits() {
            // A whole span: every value of from..=to.
            Some((_, [])) => range_mask(
                (from - i64::from(base)) as u32,
                (to - i64::from(base)) as u32,
            ),
            Some((span_base, words)) => {
                let mut word = 0u64;
                // At most two of the domain's words overlap the window.
                let first = ((from - i64::from(span_base)) / 64) as usize;
                let last = ((to - i64::from(span_base)) / 64) as usize;
                for (word_index, &bits) in words.iter().enumerate().take(last + 1).skip(first) {
                    let word_start = i64::from(span_base) + (word_index * 64) as i64;
                    // Keep only the values in from..=to.
                    let lo_cut = (from - word_start).max(0);
                    let hi_cut = (to - word_start).min(63);
                    let bits = bits & range_mask(lo_cut as u32, hi_cut as u32);
                    let shift = word_start - i64::from(base);
                    word |= if shift >= 0 {
                        bits << shift
                    } else {
                        bits >> -shift
                    };
                }
                word
            }
            None => {
                let Repr::Spans { spans, .. } = &self.repr else {
                    unreachable!()
                };
                let mut word = 0u64;
                for &(start, end) in &spans[span_at_or_after(spans, from as i32)..] {
                    let (start, end) = (i64::from(start).max(from), i64::from(end).min(to));
                    if start > to {
                        break;
                    }
                    if start <= end {
                        word |= range_mask(
                            (start - i64::from(base)) as u32,
                            (end - i64::from(base)) as u32,
                        );
                    }
                }
                word
            }
        }
    }

    /// Makes this domain equal to `other`, a copy of the same variable's domain, reusing this one's
    /// memory where the representations match (so that restoring a saved state does not allocate).
    pub(crate) fn copy_from(&mut self, other: &Domain) {
        self.lo = other.lo;
        self.hi = other.hi;
        self.size = other.size;
        match (&mut self.repr, &other.repr) {
            (Repr::Bits { words, .. }, Repr::Bits { words: source, .. })
                if words.len() == source.len() =>
            {
                words.copy_from_slice(source);
            }
            (Repr::Spans { spans, .. }, Repr::Spans { spans: source, .. }) => {
                spans.clear();
                spans.extend_from_slice(source);
            }
            (repr, source) => *repr = source.clone(),
        }
    }

    /// The same domain with its bits materialised, so that removing values never allocates.
    pub(crate) fn materialized(&self) -> Self {
        let mut copy = self.clone();
        copy.materialize();
        copy
    }

    /// Allocates the bit words of a lazily whole bit-set domain, the values outside `lo..=hi` included
    /// (the bounds are applied lazily, so those bits are never read).
    fn materialize(&mut self) {
        if let Repr::Bits { width, words, .. } = &mut self.repr
            && words.is_empty()
        {
            let width = *width as usize;
            let mut all = vec![u64::MAX; width.div_ceil(64)];
            if !width.is_multiple_of(64) {
                *all.last_mut().expect("a span is never empty") = (1u64 << (width % 64)) - 1;
            }
            *words = all.into_boxed_slice();
        }
    }

    /// Removes `value` from a materialised bit set when it lies strictly between the bounds, without
    /// branching on whether it was present: returns its trail offset and 1 if it was removed, 0 if it
    /// was absent. `None` when the domain is not such a bit set or the value is not strictly inside;
    /// [`Domain::remove`] answers those.
    ///
    /// Neither bound can move and the domain keeps at least two values, so presence only changes
    /// the size. On a large board forward checking tests about a square per row of the board, each
    /// in a different row's bits far apart in memory; a branch on the bit, mispredicted about one
    /// time in three, made every such load wait for the one before it.
    #[inline(always)]
    pub(crate) fn remove_inner_bit(&mut self, value: i32) -> Option<(u32, u64)> {
        if value <= self.lo || value >= self.hi {
            return None;
        }
        let Repr::Bits { base, words, .. } = &mut self.repr else {
            return None;
        };
        let index = value.wrapping_sub(*base) as u32;
        let word = words.get_mut(index as usize / 64)?;
        let present = (*word >> (index % 64)) & 1;
        *word &= !(1 << (index % 64));
        self.size -= present;
        Some((index, present))
    }

    /// Removes `value` if it is present: returns its trail offset (see [`Domain::restore`]) and the
    /// bound events of the removal (`LOWER_BOUND`, `UPPER_BOUND` and `REMOVAL`; whether it left the
    /// domain fixed the caller reads from the size). Emptying the domain is allowed (the caller
    /// reports it as a wipe-out).
    #[inline(always)]
    pub(crate) fn remove(&mut self, value: i32) -> Option<(u32, EventSet)> {
        if value < self.lo || value > self.hi {
            return None;
        }
        let offset = match &mut self.repr {
            Repr::Word { base, bits, .. } => {
                let index = value.wrapping_sub(*base) as u32;
                let mask = 1u64 << index;
                if *bits & mask == 0 {
                    return None;
                }
                *bits &= !mask;
                // The new bounds from the word itself, without a call: Sudoku's and most small
                // domains' hot path. Bits outside lo..=hi may be stale, but a value is left inside,
                // so the nearest set bit on the inner side is it.
                self.size -= 1;
                let mut events = EventSet::REMOVAL;
                if self.size > 0 {
                    if value == self.lo {
                        let above = *bits & (u64::MAX << index << 1);
                        self.lo = base.wrapping_add(above.trailing_zeros() as i32);
                        events |= EventSet::LOWER_BOUND;
                    }
                    if value == self.hi {
                        let below = *bits & (mask - 1);
                        self.hi = base.wrapping_add(63 - below.leading_zeros() as i32);
                        events |= EventSet::UPPER_BOUND;
                    }
                }
                return Some((index, events));
            }
            Repr::Bits { base, words, .. } => {
                let index = value.wrapping_sub(*base) as u32;
                if words.is_empty() {
                    // Only a domain outside a store is still lazy; a store's are materialised.
                    if self.size == 0 {
                        return None;
                    }
                    self.materialize();
                    let Repr::Bits { words, .. } = &mut self.repr else {
                        unreachable!("still a bit set")
                    };
                    words[index as usize / 64] &= !(1 << (index % 64));
                } else {
                    let word = &mut words[index as usize / 64];
                    let mask = 1u64 << (index % 64);
                    if *word & mask == 0 {
                        return None;
                    }
                    *word &= !mask;
                }
                index
            }
            Repr::Spans { spans, .. } => {
                if self.size == 0 || span_index(spans, value).is_none() {
                    return None;
                }
                remove_from_spans(spans, value);
                wide_offset(value)
            }
        };
        self.size -= 1;
        let mut events = EventSet::REMOVAL;
        if self.size > 0 {
            if value == self.lo {
                self.lo = self.next_present_from(value);
                events |= EventSet::LOWER_BOUND;
            }
            if value == self.hi {
                self.hi = self.prev_present_from(value);
                events |= EventSet::UPPER_BOUND;
            }
        }
        Some((offset, events))
    }

    /// The first value present above `value`, which must exist (the domain is not empty and `value`
    /// was its smallest value). Ignores `hi`, which bounds the answer anyway.
    #[cold]
    fn next_present_from(&self, value: i32) -> i32 {
        match self.bits() {
            Some((base, words)) => {
                let from = value.wrapping_sub(base) as u32 as usize + 1;
                let index = next_set(words, from, words.len() * 64 - 1)
                    .expect("a non-empty domain has a value above its old minimum");
                (i64::from(base) + index as i64) as i32
            }
            None => {
                let Repr::Spans { spans, .. } = &self.repr else {
                    unreachable!()
                };
                spans[span_at_or_after(spans, value)].0.max(value)
            }
        }
    }

    /// The last value present below `value`; see [`Domain::next_present_from`].
    #[cold]
    fn prev_present_from(&self, value: i32) -> i32 {
        match self.bits() {
            Some((base, words)) => {
                let from = value.wrapping_sub(base) as u32 as usize - 1;
                let index = prev_set(words, from, 0)
                    .expect("a non-empty domain has a value below its old maximum");
                (i64::from(base) + index as i64) as i32
            }
            None => {
                let Repr::Spans { spans, .. } = &self.repr else {
                    unreachable!()
                };
                let i = span_at_or_before(spans, value).expect("a value below the old maximum");
                spans[i].1.min(value)
            }
        }
    }

    /// Puts back the value removed with trail offset `offset` (undo of [`Domain::remove`]).
    ///
    /// Undo runs newest first, but the store undoes removals and bound changes from separate logs, so
    /// this must not depend on bound changes made after the removal: putting the value back in the set,
    /// counting it, and widening the bounds to cover it gives the same final state in either order.
    #[inline]
    pub(crate) fn restore(&mut self, offset: u32) {
        let value = match &mut self.repr {
            Repr::Word { base, bits, .. } => {
                debug_assert_eq!(*bits >> offset & 1, 0, "restoring a present value");
                *bits |= 1 << offset;
                base.wrapping_add(offset as i32)
            }
            Repr::Bits { base, words, .. } => {
                debug_assert!(!bit(words, offset as usize), "restoring a present value");
                words[offset as usize / 64] |= 1 << (offset % 64);
                (i64::from(*base) + i64::from(offset)) as i32
            }
            Repr::Spans { spans, .. } => {
                let value = wide_value(offset);
                insert_into_spans(spans, value);
                value
            }
        };
        if self.size == 0 {
            self.lo = value;
            self.hi = value;
        } else {
            self.lo = self.lo.min(value);
            self.hi = self.hi.max(value);
        }
        self.size += 1;
    }

    /// Narrows the bounds to `new_lo..=new_hi` (given as `i64`, so that a bound beyond `i32` is no
    /// overflow but simply an empty or unchanged side). `Ok(None)` if nothing changed, `Err(())` if no
    /// value would be left (the domain is then unchanged). Values inside the new bounds that are
    /// already absent are skipped, so the new bounds are always values of the domain.
    pub(crate) fn tighten(&mut self, new_lo: i64, new_hi: i64) -> Result<Option<Tightening>, ()> {
        if self.size == 0 {
            return Err(());
        }
        let lo = new_lo.max(i64::from(self.lo));
        let hi = new_hi.min(i64::from(self.hi));
        if lo > hi {
            return Err(());
        }
        if lo == i64::from(self.lo) && hi == i64::from(self.hi) {
            return Ok(None);
        }
        let (lo, hi) = (lo as i32, hi as i32);
        if self.size == (i64::from(self.hi) - i64::from(self.lo) + 1) as u64 {
            // No hole between the bounds (so every value of the new bounds is present): the sizes
            // follow from the bounds alone, whatever the representation.
            return Ok(Some(self.tighten_dense(lo, hi)));
        }
        if let Repr::Word { base, bits, .. } = self.repr {
            return self.tighten_word(base, bits, lo, hi);
        }
        // The first and last values present within the new bounds.
        let first = if self.contains(lo) {
            Some(lo)
        } else {
            self.next_value(lo)
        };
        let Some(first) = first.filter(|&v| v <= hi) else {
            return Err(());
        };
        let last = if self.contains(hi) {
            hi
        } else {
            self.prev_value(hi).expect("first <= hi is present")
        };
        let removed_below = self.count_between(i64::from(self.lo), i64::from(first) - 1);
        let removed_above = self.count_between(i64::from(last) + 1, i64::from(self.hi));
        let removed = removed_below + removed_above;
        let mut events = EventSet::REMOVAL;
        if removed_below > 0 {
            events |= EventSet::LOWER_BOUND;
        }
        if removed_above > 0 {
            events |= EventSet::UPPER_BOUND;
        }
        if self.size - removed == 1 {
            events |= EventSet::FIXED;
        }
        let tightening = Tightening {
            old_lo: self.lo,
            old_hi: self.hi,
            removed,
            events,
        };
        self.lo = first;
        self.hi = last;
        self.size -= removed;
        Ok(Some(tightening))
    }

    /// [`Domain::tighten`] to `lo..=hi`, which lies within the current bounds and differs from
    /// them, when the domain has no hole between its bounds.
    #[inline]
    fn tighten_dense(&mut self, lo: i32, hi: i32) -> Tightening {
        let size = (i64::from(hi) - i64::from(lo) + 1) as u64;
        let mut events = EventSet::REMOVAL;
        if lo > self.lo {
            events |= EventSet::LOWER_BOUND;
        }
        if hi < self.hi {
            events |= EventSet::UPPER_BOUND;
        }
        if size == 1 {
            events |= EventSet::FIXED;
        }
        let tightening = Tightening {
            old_lo: self.lo,
            old_hi: self.hi,
            removed: self.size - size,
            events,
        };
        self.lo = lo;
        self.hi = hi;
        self.size = size;
        tightening
    }

    /// [`Domain::tighten`] of an inline word to `lo..=hi`, which lies within the current bounds and
    /// differs from them: one mask finds the first and last values kept and counts them (a Boolean's
    /// or a small domain's bound change, the commonest in search by decisions, without the general
    /// walk's calls).
    #[inline]
    fn tighten_word(
        &mut self,
        base: i32,
        bits: u64,
        lo: i32,
        hi: i32,
    ) -> Result<Option<Tightening>, ()> {
        // Bits outside the current bounds may be stale, but `lo..=hi` lies within them.
        let kept = bits & range_mask(lo.wrapping_sub(base) as u32, hi.wrapping_sub(base) as u32);
        if kept == 0 {
            return Err(());
        }
        let first = base.wrapping_add(kept.trailing_zeros() as i32);
        let last = base.wrapping_add(63 - kept.leading_zeros() as i32);
        let size = u64::from(kept.count_ones());
        // The old bounds are values of the domain, so a bound moved exactly when values below or
        // above the kept ones went.
        let mut events = EventSet::REMOVAL;
        if first > self.lo {
            events |= EventSet::LOWER_BOUND;
        }
        if last < self.hi {
            events |= EventSet::UPPER_BOUND;
        }
        if size == 1 {
            events |= EventSet::FIXED;
        }
        let tightening = Tightening {
            old_lo: self.lo,
            old_hi: self.hi,
            removed: self.size - size,
            events,
        };
        self.lo = first;
        self.hi = last;
        self.size = size;
        Ok(Some(tightening))
    }

    /// Narrows the domain to `value`, which must be present: a [`Domain::tighten`] to `value..=value`
    /// in O(1), as search assigns a variable. Returns the old bounds and size (the events follow from
    /// them: [`fix_events`]).
    #[inline(always)]
    pub(crate) fn fix(&mut self, value: i32) -> (i32, i32, u64) {
        debug_assert!(self.contains(value));
        let old = (self.lo, self.hi, self.size);
        self.lo = value;
        self.hi = value;
        self.size = 1;
        old
    }

    /// Undoes a [`Domain::tighten`] (see [`Domain::restore`] on why the bounds are widened with
    /// `min`/`max` rather than set).
    #[inline]
    pub(crate) fn untighten(&mut self, old_lo: i32, old_hi: i32, removed: u64) {
        if self.size == 0 {
            self.lo = old_lo;
            self.hi = old_hi;
        } else {
            self.lo = self.lo.min(old_lo);
            self.hi = self.hi.max(old_hi);
        }
        self.size += removed;
    }

    /// How many values present lie in `from..=to` (within the current bounds).
    fn count_between(&self, from: i64, to: i64) -> u64 {
        let from = from.max(i64::from(self.lo));
        let to = to.min(i64::from(self.hi));
        if from > to {
            return 0;
        }
        match self.bits() {
            Some((_, [])) => (to - from + 1) as u64,
            Some((base, words)) => count_set(
                words,
                (from - i64::from(base)) as usize,
                (to - i64::from(base)) as usize,
            ),
            None => {
                let Repr::Spans { spans, .. } = &self.repr else {
                    unreachable!()
                };
                let mut count = 0u64;
                for &(start, end) in &spans[span_at_or_after(spans, from as i32)..] {
                    let (start, end) = (i64::from(start).max(from), i64::from(end).min(to));
                    if start > to {
                        break;
                    }
                    if start <= end {
                        count += (end - start + 1) as u64;
                    }
                }
                count
            }
        }
    }
}

/// The events of fixing a domain with bounds `lo..=hi` and `size` values to `value`.
#[inline]
pub(crate) fn fix_events(lo: i32, hi: i32, size: u64, value: i32) -> EventSet {
    let mut events = EventSet::FIXED;
    if size > 1 {
        events |= EventSet::REMOVAL;
        if value > lo {
            events |= EventSet::LOWER_BOUND;
        }
        if value < hi {
            events |= EventSet::UPPER_BOUND;
        }
    }
    events
}

/// The values of a domain, ascending: see [`Domain::values`].
#[derive(Debug, Clone)]
pub enum Values<'a> {
    /// No value.
    #[doc(hidden)]
    Empty,
    /// Every value of a range (held as `i64` so that `i32::MAX` ends it cleanly).
    #[doc(hidden)]
    Range(std::ops::Range<i64>),
    /// The set bits of a bit set.
    #[doc(hidden)]
    Bits(BitValues<'a>),
    /// The values of a list of intervals within `next..=hi`.
    #[doc(hidden)]
    Spans {
        spans: &'a [(i32, i32)],
        index: usize,
        next: i64,
        hi: i64,
    },
}

impl Iterator for Values<'_> {
    type Item = i32;

    #[inline]
    fn next(&mut self) -> Option<i32> {
        match self {
            Values::Empty => None,
            Values::Range(range) => range.next().map(|v| v as i32),
            Values::Bits(bits) => bits.next(),
            Values::Spans {
                spans,
                index,
                next,
                hi,
            } => loop {
                let &(start, end) = spans.get(*index)?;
                let value = (*next).max(i64::from(start));
                if value > *hi {
                    return None;
                }
                if value <= i64::from(end) {
                    *next = value + 1;
                    return Some(value as i32);
                }
                *index += 1;
            },
        }
    }
}

/// The set bits of a bit-set domain between two indices, as values.
#[derive(Debug, Clone)]
#[doc(hidden)]
pub struct BitValues<'a> {
    words: &'a [u64],
    base: i64,
    word_index: usize,
    last_word: usize,
    current: u64,
    from: usize,
    to: usize,
}

impl<'a> BitValues<'a> {
    fn new(words: &'a [u64], base: i32, from: usize, to: usize) -> Self {
        let word_index = from / 64;
        BitValues {
            words,
            base: i64::from(base),
            word_index,
            last_word: to / 64,
            current: words[word_index] & word_mask(word_index, from, to),
            from,
            to,
        }
    }
}

impl Iterator for BitValues<'_> {
    type Item = i32;

    #[inline]
    fn next(&mut self) -> Option<i32> {
        while self.current == 0 {
            if self.word_index >= self.last_word {
                return None;
            }
            self.word_index += 1;
            self.current =
                self.words[self.word_index] & word_mask(self.word_index, self.from, self.to);
        }
        let bit = self.current.trailing_zeros() as usize;
        self.current &= self.current - 1;
        Some((self.base + (self.word_index * 64 + bit) as i64) as i32)
    }
}

/// Whether bit `index` is set; no words stand for a whole span (every bit set).
#[inline(always)]
fn bit(words: &[u64], index: usize) -> bool {
    words.is_empty() || (words[index / 64] >> (index % 64)) & 1 == 1
}

/// The bits `lo..=hi` (both below 64) of a word.
#[inline]
fn range_mask(lo: u32, hi: u32) -> u64 {
    debug_assert!(lo <= hi && hi < 64);
    (u64::MAX >> (63 - hi)) & (u64::MAX << lo)
}

/// The bits of word `word_index` that lie in the index range `from..=to`.
#[inline]
fn word_mask(word_index: usize, from: usize, to: usize) -> u64 {
    let word_start = word_index * 64;
    let lo = from.saturating_sub(word_start).min(64);
    let hi = (to - word_start.min(to)).min(63);
    if lo > hi || to < word_start {
        0
    } else {
        range_mask(lo as u32, hi as u32)
    }
}

/// The first set index in `from..=to`; with no words (a whole span), `from` itself.
fn next_set(words: &[u64], from: usize, to: usize) -> Option<usize> {
    if from > to {
        return None;
    }
    if words.is_empty() {
        return Some(from);
    }
    let first = from / 64;
    for (word_index, &word) in words.iter().enumerate().take(to / 64 + 1).skip(first) {
        let word = word & word_mask(word_index, from, to);
        if word != 0 {
            return Some(word_index * 64 + word.trailing_zeros() as usize);
        }
    }
    None
}

/// The last set index in `down_to..=from`; with no words, `from` itself.
fn prev_set(words: &[u64], from: usize, down_to: usize) -> Option<usize> {
    if from < down_to {
        return None;
    }
    if words.is_empty() {
        return Some(from);
    }
    for word_index in (down_to / 64..=from / 64).rev() {
        let word = words[word_index] & word_mask(word_index, down_to, from);
        if word != 0 {
            return Some(word_index * 64 + 63 - word.leading_zeros() as usize);
        }
    }
    None
}

/// How many bits are set in `from..=to`.
fn count_set(words: &[u64], from: usize, to: usize) -> u64 {
    (from / 64..=to / 64)
        .map(|word_index| {
            u64::from((words[word_index] & word_mask(word_index, from, to)).count_ones())
        })
        .sum()
}

/// The index of the interval holding `value`, if one does.
#[inline]
fn span_index(spans: &[(i32, i32)], value: i32) -> Option<usize> {
    let i = spans.partition_point(|&(_, end)| end < value);
    (i < spans.len() && spans[i].0 <= value).then_some(i)
}

/// The index of the first interval that ends at or after `value`.
#[inline]
fn span_at_or_after(spans: &[(i32, i32)], value: i32) -> usize {
    spans.partition_point(|&(_, end)| end < value)
}

/// The index of the last interval that starts at or before `value`.
#[inline]
fn span_at_or_before(spans: &[(i32, i32)], value: i32) -> Option<usize> {
    spans
        .partition_point(|&(start, _)| start <= value)
        .checked_sub(1)
}

/// Removes a present `value` from an interval list, splitting its interval if it lies inside.
fn remove_from_spans(spans: &mut SmallVec<[(i32, i32); 1]>, value: i32) {
    let i = span_index(spans, value).expect("the value is present");
    let (start, end) = spans[i];
    if start == end {
        spans.remove(i);
    } else if value == start {
        spans[i].0 = value + 1;
    } else if value == end {
        spans[i].1 = value - 1;
    } else {
        spans[i].1 = value - 1;
        spans.insert(i + 1, (value + 1, end));
    }
}

/// Puts an absent `value` back into an interval list, merging the intervals it joins.
fn insert_into_spans(spans: &mut SmallVec<[(i32, i32); 1]>, value: i32) {
    let i = spans.partition_point(|&(_, end)| end < value);
    let joins_left = i > 0 && i64::from(spans[i - 1].1) + 1 == i64::from(value);
    let joins_right = i < spans.len() && i64::from(spans[i].0) - 1 == i64::from(value);
    match (joins_left, joins_right) {
        (true, true) => {
            spans[i - 1].1 = spans[i].1;
            spans.remove(i);
        }
        (true, false) => spans[i - 1].1 = value,
        (false, true) => spans[i].0 = value,
        (false, false) => spans.insert(i, (value, value)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A domain's values through every reader, which must agree.
    fn listed(d: &Domain) -> Vec<i32> {
        let values: Vec<i32> = d.values().collect();
        let mut appended = vec![];
        d.append_values(&mut appended);
        assert_eq!(values, appended, "append_values and values agree");
        assert_eq!(values.len() as u64, d.size(), "size counts the values");
        assert_eq!(values.first().copied(), d.min());
        assert_eq!(values.last().copied(), d.max());
        for (k, &v) in values.iter().enumerate() {
            assert_eq!(d.nth_value(k as u64), Some(v));
            assert!(d.contains(v));
        }
        assert_eq!(d.nth_value(values.len() as u64), None);
        values
    }

    #[test]
    fn range_domain_holds_every_value_and_reports_bounds() {
        let d = Domain::range(-2, 3);
        assert_eq!(listed(&d), vec![-2, -1, 0, 1, 2, 3]);
        assert!(!d.contains(4) && !d.contains(-3));
        assert!(d.is_bitset());
    }

    #[test]
    fn wide_domains_cost_o1_and_answer_like_narrow_ones() {
        let d = Domain::range(-1_000_000_000, 1_000_000_000);
        assert!(!d.is_bitset());
        assert_eq!(d.size(), 2_000_000_001);
        assert_eq!(
            (d.min(), d.max()),
            (Some(-1_000_000_000), Some(1_000_000_000))
        );
        assert!(std::mem::size_of_val(&d) <= 64, "no heap, a few words");
        let whole = Domain::range(i32::MIN, i32::MAX);
        assert_eq!(whole.size(), 1 << 32);
        assert_eq!(whole.nth_value((1 << 32) - 1), Some(i32::MAX));
        assert_eq!(whole.next_value(i32::MAX - 1), Some(i32::MAX));
        assert_eq!(whole.prev_value(i32::MIN + 1), Some(i32::MIN));
    }

    #[test]
    fn a_whole_span_keeps_no_bits_and_answers_like_a_materialised_one() {
        let lazy = Domain::range(-3, 130);
        let eager = lazy.materialized();
        assert_eq!(lazy, eager);
        assert_eq!(listed(&lazy), listed(&eager));
        for v in -5..=133 {
            assert_eq!(lazy.contains(v), eager.contains(v), "{v}");
        }
        assert_eq!(Domain::from_sorted(&[4, 5, 6]), Domain::range(4, 6));
    }

    /// Removes, tightens and undoes on a bit set and an interval list holding the same values, checking
    /// both against a plain set after every step.
    #[test]
    fn removals_and_bound_changes_undo_in_any_order() {
        let values: Vec<i32> = (-70..=200).filter(|v| v % 7 != 3).collect();
        let narrow = Domain::from_sorted(&values).materialized();
        let wide = {
            // The same values shifted far apart do not fit a bit set: compare through an offset.
            let shifted: Vec<i32> = values.iter().map(|v| v * 10_000_000).collect();
            Domain::from_sorted(&shifted)
        };
        assert!(narrow.is_bitset() && !wide.is_bitset());
        for (mut d, scale) in [(narrow, 1), (wide, 10_000_000)] {
            let original = d.clone();
            let mut reference: Vec<i32> = values.iter().map(|v| v * scale).collect();
            let mut removals = vec![];
            let mut bounds = vec![];
            for step in 0..40 {
                if step % 5 == 4 {
                    let cut = (reference.len() / 10).max(1);
                    let lo = i64::from(reference[cut]);
                    let hi = i64::from(reference[reference.len() - 1 - cut]);
                    let t = d.tighten(lo, hi).unwrap().expect("the cut removes values");
                    reference.retain(|&v| i64::from(v) >= lo && i64::from(v) <= hi);
                    bounds.push(t);
                } else {
                    let v = reference[(step * 37) % reference.len()];
                    let (offset, events) = d.remove(v).unwrap();
                    assert!(events.contains(EventSet::REMOVAL));
                    assert_eq!(events.contains(EventSet::LOWER_BOUND), v == reference[0]);
                    reference.retain(|&w| w != v);
                    removals.push(offset);
                }
                assert_eq!(listed(&d), reference);
            }
            // Undo the removals first, then the bound changes: the store's separate logs do this.
            for &offset in removals.iter().rev() {
                d.restore(offset);
            }
            for t in bounds.iter().rev() {
                d.untighten(t.old_lo, t.old_hi, t.removed);
            }
            assert_eq!(d, original);
            assert_eq!(listed(&d), listed(&original));
        }
    }

    /// Removing each end of an inline word in turn, with stale bits left outside the bounds by a
    /// bound change, keeps the bounds on present values; undoing restores the domain.
    #[test]
    fn an_inline_word_keeps_its_bounds_through_removals_at_both_ends() {
        let values: Vec<i32> = (-20..=43).filter(|v| v % 5 != 0).collect();
        let mut d = Domain::from_sorted(&values);
        assert!(d.is_bitset());
        let original = d.clone();
        let t = d.tighten(-17, 40).unwrap().unwrap();
        let mut reference: Vec<i32> = values
            .iter()
            .copied()
            .filter(|v| (-17..=40).contains(v))
            .collect();
        let mut offsets = vec![];
        while reference.len() > 1 {
            let v = if reference.len().is_multiple_of(2) {
                reference[0]
            } else {
                reference[reference.len() - 1]
            };
            offsets.push(d.remove(v).expect("present").0);
            reference.retain(|&w| w != v);
            assert_eq!(listed(&d), reference);
        }
        for &offset in offsets.iter().rev() {
            d.restore(offset);
        }
        d.untighten(t.old_lo, t.old_hi, t.removed);
        assert_eq!(d, original);
    }

    #[test]
    fn tightening_skips_holes_and_refuses_to_empty() {
        let mut d = Domain::from_sorted(&[1, 4, 9, 12]).materialized();
        let t = d.tighten(2, 10).unwrap().unwrap();
        assert_eq!(listed(&d), vec![4, 9]);
        assert_eq!(t.removed, 2);
        assert!(t.events.contains(EventSet::BOUNDS));
        assert_eq!(d.tighten(5, 8), Err(()), "no value in 5..=8");
        assert_eq!(
            listed(&d),
            vec![4, 9],
            "unchanged after a refused tightening"
        );
        assert_eq!(d.tighten(i64::MIN, i64::MAX), Ok(None));
        let t2 = d.tighten(9, i64::from(i32::MAX) + 5).unwrap().unwrap();
        assert!(t2.events.contains(EventSet::FIXED));
        assert_eq!(d.fixed_value(), Some(9));
        d.untighten(t2.old_lo, t2.old_hi, t2.removed);
        d.untighten(t.old_lo, t.old_hi, t.removed);
        assert_eq!(listed(&d), vec![1, 4, 9, 12]);
    }

    /// Every way of tightening (a domain without holes between its bounds, an inline word, a bit
    /// set, intervals) agrees with the values: the new bounds are the first and last values kept,
    /// the count and the events follow from the values removed.
    #[test]
    fn tightening_agrees_with_the_values_in_every_representation() {
        let shapes: [Vec<i32>; 5] = [
            (-3..=40).collect(),
            (-3..=40).filter(|v| v % 3 != 0).collect(),
            (0..=300).collect(),
            (0..=300).filter(|v| v % 7 != 2).collect(),
            (0..=300).map(|v| v * 20_000).collect(),
        ];
        for values in &shapes {
            let original = Domain::from_sorted(values).materialized();
            let (lo, hi) = (values[0], values[values.len() - 1]);
            for (new_lo, new_hi) in [
                (lo, hi),
                (lo + 1, hi),
                (lo, hi - 1),
                (lo + 5, hi - 5),
                (lo - 10, lo + 3),
                (hi - 3, hi + 10),
                (values[values.len() / 2], values[values.len() / 2]),
                (values[1] - 1, values[1] - 1),
                (hi + 1, hi + 5),
            ] {
                let kept: Vec<i32> = values
                    .iter()
                    .copied()
                    .filter(|v| (new_lo..=new_hi).contains(v))
                    .collect();
                let mut d = original.clone();
                let result = d.tighten(i64::from(new_lo), i64::from(new_hi));
                if kept.is_empty() {
                    assert_eq!(result, Err(()));
                    assert_eq!(d, original, "a refused tightening changes nothing");
                    continue;
                }
                assert_eq!(listed(&d), kept, "{new_lo}..={new_hi} of {original:?}");
                match result.unwrap() {
                    None => assert_eq!(kept.len(), values.len()),
                    Some(t) => {
                        assert_eq!(t.removed as usize, values.len() - kept.len());
                        assert_eq!(t.events.contains(EventSet::LOWER_BOUND), kept[0] > lo);
                        assert_eq!(
                            t.events.contains(EventSet::UPPER_BOUND),
                            kept[kept.len() - 1] < hi
                        );
                        assert_eq!(t.events.contains(EventSet::FIXED), kept.len() == 1);
                        d.untighten(t.old_lo, t.old_hi, t.removed);
                        assert_eq!(d, original);
                    }
                }
            }
        }
    }

    #[test]
    fn window64_holds_exactly_the_values_in_the_window() {
        let mut d = Domain::range(-70, 200).materialized();
        for v in [-70, -3, 0, 63, 64, 65, 127, 128, 199] {
            d.remove(v);
        }
        d.tighten(-60, 190).unwrap();
        let wide = Domain::from_sorted(&[-100_000, -5, 0, 1, 2, 40, 63, 100_000]);
        // An inline word with holes and stale bits beyond its bounds.
        let mut word = Domain::range(-5, 50);
        for v in [-5, 0, 7, 50] {
            word.remove(v);
        }
        word.tighten(-3, 45).unwrap();
        assert!(matches!(word.repr, Repr::Word { .. }));
        for domain in [
            &d,
            &Domain::range(-70, 200),
            &wide,
            &word,
            &Domain::range(3, 3),
        ] {
            for base in [-80, -70, -69, -5, -4, 0, 1, 3, 60, 100, 190, 250] {
                let expected: u64 = domain
                    .values()
                    .filter(|&v| (base..base + 64).contains(&v))
                    .map(|v| 1u64 << (v - base))
                    .sum();
                assert_eq!(domain.window64(base), expected, "base {base}, {domain:?}");
            }
        }
    }

    #[test]
    fn neighbours_of_a_value() {
        let d = Domain::from_sorted(&[1, 4, 9]);
        let wide = Domain::from_sorted(&[1, 4, 9, 1 << 30]);
        for d in [&d, &wide] {
            assert_eq!(d.next_value(1), Some(4));
            assert_eq!(d.next_value(5), Some(9));
            assert_eq!(d.next_value(-10), Some(1));
            assert_eq!(d.prev_value(9), Some(4));
            assert_eq!(d.prev_value(2), Some(1));
            assert_eq!(d.prev_value(1), None);
        }
        assert_eq!(d.next_value(9), None);
    }

    #[test]
    fn interval_lists_split_and_merge() {
        let mut spans: SmallVec<[(i32, i32); 1]> = smallvec::smallvec![(0, 10), (20, 20)];
        remove_from_spans(&mut spans, 5);
        assert_eq!(&spans[..], &[(0, 4), (6, 10), (20, 20)]);
        remove_from_spans(&mut spans, 20);
        remove_from_spans(&mut spans, 0);
        assert_eq!(&spans[..], &[(1, 4), (6, 10)]);
        insert_into_spans(&mut spans, 5);
        insert_into_spans(&mut spans, 0);
        insert_into_spans(&mut spans, 20);
        assert_eq!(&spans[..], &[(0, 10), (20, 20)]);
        let mut extremes: SmallVec<[(i32, i32); 1]> = smallvec::smallvec![(i32::MIN, i32::MAX)];
        remove_from_spans(&mut extremes, i32::MIN);
        remove_from_spans(&mut extremes, i32::MAX);
        insert_into_spans(&mut extremes, i32::MAX);
        insert_into_spans(&mut extremes, i32::MIN);
        assert_eq!(&extremes[..], &[(i32::MIN, i32::MAX)]);
    }
}
