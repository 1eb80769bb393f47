//! Finite sets of `i32` values, of any width: a bit set where the declared span is narrow, a list of
//! intervals where it is wide.
//!
//! A domain is read through a [`DomainView`]: its bounds and size, and its bits or intervals wherever
//! they live. An owned [`Domain`] keeps its own (a model's initial domains); a [`crate::Store`] keeps
//! the bounds and sizes of all its domains in one dense array and may keep the bit words of many
//! same-sized bit sets interleaved in one block (word `w` of every variable of the group side by
//! side), so that reading or pruning the same value in many domains touches consecutive memory.

use smallvec::SmallVec;

use crate::EventSet;
use crate::lines::OccupiedLines;

/// Domains declared over at most this many consecutive integers (`max − min + 1`) are bit sets; wider
/// ones are lists of intervals. 2¹⁶ values make 8 KiB of bits: every N-queens board the engine searches
/// (16,245 columns at most), Sudoku and graph colouring stay on bits, while `var -10⁹..10⁹` or an
/// unbounded `var int` costs a few bytes.
pub const BITSET_MAX_SPAN: u64 = 1 << 16;

/// A domain's smallest and largest value and its size: what every representation keeps alike, and
/// what search reads most (the bounds, and the sizes a fewest-choices ordering compares). 16 bytes,
/// so that a store's array of them puts four variables in a cache line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Header {
    /// The smallest value left (meaningful while the domain is not empty).
    pub(crate) lo: i32,
    /// The largest value left (meaningful while the domain is not empty).
    pub(crate) hi: i32,
    /// How many values are left: up to 2³², the whole `i32` range.
    pub(crate) size: u64,
}

impl Header {
    /// Counts `count` values put back, which lie in `lo..=hi` (and include both), widening the
    /// bounds to cover them: how every undo restores a header. Undo runs newest first, but the
    /// store undoes removals and bound changes from separate logs, so an undo must not depend on
    /// the bound changes made after the change it undoes: widening with `min`/`max` rather than
    /// setting the bounds gives the same final state in either order.
    #[inline(always)]
    pub(crate) fn widen(&mut self, lo: i32, hi: i32, count: u64) {
        if self.size == 0 {
            self.lo = lo;
            self.hi = hi;
        } else {
            self.lo = self.lo.min(lo);
            self.hi = self.hi.max(hi);
        }
        self.size += count;
    }
}

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
///
/// The methods that read a domain are [`DomainView`]'s; `Domain` offers them too.
#[derive(Debug, Clone)]
pub struct Domain {
    header: Header,
    repr: Repr,
}

/// How a domain's values beyond its bounds are kept.
#[derive(Debug, Clone)]
pub(crate) enum Repr {
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
    /// A bit set whose words live in a store's interleaved group `group`: word `w` at
    /// `w · stride + slot` of the group's words (see [`crate::Store`]). Only a store holds these.
    Strided {
        base: i32,
        width: u32,
        group: u32,
        slot: u32,
    },
    /// Sorted, disjoint, non-adjacent intervals `(from, to)`, inclusive. `first` and `last` are the
    /// declared smallest and largest values (the span), which removals never change.
    Spans {
        first: i32,
        last: i32,
        spans: SmallVec<[(i32, i32); 1]>,
    },
}

/// The bit words of a bit-set domain, wherever they live: word `i` at `data[first + i · stride]`
/// (`stride` 1 for words of its own, the group's size for an interleaved group). No words stand for
/// a whole span.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Words<'a> {
    data: &'a [u64],
    first: usize,
    stride: usize,
    len: usize,
}

impl<'a> Words<'a> {
    /// A domain's own words.
    #[inline]
    pub(crate) fn contiguous(data: &'a [u64]) -> Self {
        Words {
            data,
            first: 0,
            stride: 1,
            len: data.len(),
        }
    }

    /// The words of slot `slot` of an interleaved group of `stride` domains of `len` words each.
    #[inline]
    pub(crate) fn strided(data: &'a [u64], slot: usize, stride: usize, len: usize) -> Self {
        Words {
            data,
            first: slot,
            stride,
            len,
        }
    }

    #[inline(always)]
    fn len(&self) -> usize {
        self.len
    }

    #[inline(always)]
    fn is_empty(&self) -> bool {
        self.len == 0
    }

    #[inline(always)]
    fn get(&self, i: usize) -> u64 {
        self.data[self.first + i * self.stride]
    }
}

/// [`Words`] to change.
#[derive(Debug)]
pub(crate) struct WordsMut<'a> {
    data: &'a mut [u64],
    first: usize,
    stride: usize,
}

impl<'a> WordsMut<'a> {
    /// The words of slot `slot` of an interleaved group of `stride` domains.
    #[inline]
    pub(crate) fn strided(data: &'a mut [u64], slot: usize, stride: usize) -> Self {
        WordsMut {
            data,
            first: slot,
            stride,
        }
    }

    #[inline(always)]
    fn get_mut(&mut self, i: usize) -> &mut u64 {
        &mut self.data[self.first + i * self.stride]
    }
}

/// A domain as it is now, to read: its bounds and size, and its bits or intervals. Cheap to copy;
/// [`crate::Store::domain`] hands one out for each variable.
#[derive(Debug, Clone, Copy)]
pub struct DomainView<'a> {
    header: Header,
    repr: ReprView<'a>,
}

#[derive(Debug, Clone, Copy)]
enum ReprView<'a> {
    Word {
        base: i32,
        width: u32,
        bits: &'a u64,
    },
    Bits {
        base: i32,
        width: u32,
        words: Words<'a>,
    },
    Spans {
        first: i32,
        last: i32,
        spans: &'a [(i32, i32)],
    },
    /// An unassigned row of a kept [`LineRule`](crate::LineRule): its values are the squares of
    /// the row on no occupied line. The header holds the row's size and the bounds it had at the
    /// root, `0..columns`; the view finds the row's own bounds from the lines when they are asked
    /// for (`DomainView::lb`, `DomainView::ub`), and every other reading works within the wider
    /// ones.
    Lines {
        lines: &'a OccupiedLines,
        row: usize,
    },
}

/// A domain to change: its header and its bits or intervals, wherever they live.
#[derive(Debug)]
pub(crate) struct DomainMut<'a> {
    header: &'a mut Header,
    repr: ReprMut<'a>,
}

#[derive(Debug)]
pub(crate) enum ReprMut<'a> {
    Word {
        base: i32,
        width: u32,
        bits: &'a mut u64,
    },
    /// Words of its own (materialised on the first removal if the domain is a lazy whole span).
    Bits {
        base: i32,
        width: u32,
        words: &'a mut Box<[u64]>,
    },
    Strided {
        base: i32,
        width: u32,
        words: WordsMut<'a>,
        len: usize,
    },
    Spans {
        first: i32,
        last: i32,
        spans: &'a mut SmallVec<[(i32, i32); 1]>,
    },
}

/// What a bound change did, for the trail: enough to undo it (see [`DomainMut::untighten`]).
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
        self.view() == other.view()
    }
}

impl Eq for Domain {}

impl PartialEq for DomainView<'_> {
    /// Views are equal when they hold the same values, whichever representation each has.
    fn eq(&self, other: &Self) -> bool {
        self.header.size == other.header.size
            && (self.header.size == 0 || (self.lb() == other.lb() && self.ub() == other.ub()))
            && self.runs().eq(other.runs())
    }
}

impl Eq for DomainView<'_> {}

/// The number of words a bit set of `width` values takes.
#[inline]
pub(crate) fn words_for(width: u32) -> usize {
    (width as usize).div_ceil(64)
}

/// The words of a whole span of `width` values: every bit of the span set.
pub(crate) fn whole_span_words(width: u32) -> Box<[u64]> {
    let width = width as usize;
    let mut all = vec![u64::MAX; width.div_ceil(64)];
    if !width.is_multiple_of(64) {
        *all.last_mut().expect("a span is never empty") = (1u64 << (width % 64)) - 1;
    }
    all.into_boxed_slice()
}

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
            header: Header {
                lo,
                hi,
                size: width,
            },
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
            header: Header {
                lo,
                hi,
                size: values.len() as u64,
            },
            repr,
        }
    }

    /// The domain's bounds and size, and how the rest is kept (for a store that takes it apart).
    pub(crate) fn into_parts(self) -> (Header, Repr) {
        (self.header, self.repr)
    }

    /// The domain to read.
    #[inline]
    pub fn view(&self) -> DomainView<'_> {
        DomainView::new(self.header, &self.repr, &[], 0)
    }

    /// The domain to change.
    #[cfg(test)]
    pub(crate) fn as_mut(&mut self) -> DomainMut<'_> {
        DomainMut::new(&mut self.header, &mut self.repr, &mut [], 0)
    }

    /// Whether the domain is a bit set (its declared span is at most [`BITSET_MAX_SPAN`]).
    #[inline]
    pub fn is_bitset(&self) -> bool {
        self.view().is_bitset()
    }

    /// The number of values left.
    #[inline]
    pub fn size(&self) -> u64 {
        self.header.size
    }

    /// True when no value is left.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.header.size == 0
    }

    /// True when exactly one value is left.
    #[inline]
    pub fn is_fixed(&self) -> bool {
        self.header.size == 1
    }

    /// The smallest value left, if any.
    #[inline]
    pub fn min(&self) -> Option<i32> {
        self.view().min()
    }

    /// The largest value left, if any.
    #[inline]
    pub fn max(&self) -> Option<i32> {
        self.view().max()
    }

    /// The smallest value left; see [`DomainView::lb`].
    #[inline]
    pub fn lb(&self) -> i32 {
        self.header.lo
    }

    /// The largest value left; see [`DomainView::lb`].
    #[inline]
    pub fn ub(&self) -> i32 {
        self.header.hi
    }

    /// The only value left, if exactly one is.
    #[inline]
    pub fn fixed_value(&self) -> Option<i32> {
        self.view().fixed_value()
    }

    /// The smallest value the domain was declared with (its span's lower end).
    #[inline]
    pub fn span_lo(&self) -> i32 {
        self.view().span_lo()
    }

    /// The largest value the domain was declared with.
    #[inline]
    pub fn span_hi(&self) -> i32 {
        self.view().span_hi()
    }

    /// Whether `value` is in the domain.
    #[inline]
    pub fn contains(&self, value: i32) -> bool {
        self.view().contains(value)
    }

    /// The values left, ascending.
    pub fn values(&self) -> Values<'_> {
        self.view().values()
    }

    /// The values left as maximal runs of consecutive integers, ascending.
    pub fn runs(&self) -> Box<dyn Iterator<Item = (i32, i32)> + '_> {
        self.view().runs()
    }

    /// Appends the values left, ascending, to `out`; see [`DomainView::append_values`].
    #[inline]
    pub fn append_values(&self, out: &mut Vec<i32>) {
        self.view().append_values(out);
    }

    /// Writes the values left, ascending, into `slots`; see [`DomainView::write_values`].
    #[inline]
    pub fn write_values(&self, slots: &mut [i32]) {
        self.view().write_values(slots);
    }

    /// The smallest value left that is greater than `value`.
    pub fn next_value(&self, value: i32) -> Option<i32> {
        self.view().next_value(value)
    }

    /// The largest value left that is smaller than `value`.
    pub fn prev_value(&self, value: i32) -> Option<i32> {
        self.view().prev_value(value)
    }

    /// How many values left lie in `lo..=hi`; see [`DomainView::count_in`].
    pub fn count_in(&self, lo: i32, hi: i32) -> u64 {
        self.view().count_in(lo, hi)
    }

    /// The `k`-th smallest value left (from 0), if the domain has more than `k` values.
    pub fn nth_value(&self, k: u64) -> Option<i32> {
        self.view().nth_value(k)
    }

    /// See [`DomainView::window64`].
    #[cfg(test)]
    pub(crate) fn window64(&self, base: i32) -> u64 {
        self.view().window64(base)
    }

    /// The same domain with its bits materialised, so that removing values never allocates.
    #[cfg(test)]
    pub(crate) fn materialized(&self) -> Self {
        let mut copy = self.clone();
        if let Repr::Bits { width, words, .. } = &mut copy.repr
            && words.is_empty()
        {
            *words = whole_span_words(*width);
        }
        copy
    }

    /// See [`DomainMut::remove`].
    #[cfg(test)]
    pub(crate) fn remove(&mut self, value: i32) -> Option<(u32, EventSet)> {
        self.as_mut().remove(value)
    }

    /// See [`DomainMut::restore`].
    #[cfg(test)]
    pub(crate) fn restore(&mut self, offset: u32) {
        self.as_mut().restore(offset);
    }

    /// See [`DomainMut::tighten`].
    #[cfg(test)]
    pub(crate) fn tighten(&mut self, new_lo: i64, new_hi: i64) -> Result<Option<Tightening>, ()> {
        self.as_mut().tighten(new_lo, new_hi)
    }

    /// See [`DomainMut::untighten`].
    #[cfg(test)]
    pub(crate) fn untighten(&mut self, old_lo: i32, old_hi: i32, removed: u64) {
        self.as_mut().untighten(old_lo, old_hi, removed);
    }
}

impl<'a> DomainView<'a> {
    /// The view of unassigned row `row` of kept lines, whose header is `header`: its size, and
    /// the bounds it had at the root (see [`ReprView::Lines`]).
    #[inline]
    pub(crate) fn on_lines(header: Header, lines: &'a OccupiedLines, row: usize) -> Self {
        DomainView {
            header,
            repr: ReprView::Lines { lines, row },
        }
    }

    /// The view of a domain with `header` and `repr`, whose interleaved words (if it has them) are
    /// in `group`, a group of `stride` domains.
    #[inline(always)]
    pub(crate) fn new(header: Header, repr: &'a Repr, group: &'a [u64], stride: usize) -> Self {
        let repr = match repr {
            Repr::Word { base, width, bits } => ReprView::Word {
                base: *base,
                width: *width,
                bits,
            },
            Repr::Bits { base, width, words } => ReprView::Bits {
                base: *base,
                width: *width,
                words: Words::contiguous(words),
            },
            &Repr::Strided {
                base, width, slot, ..
            } => ReprView::Bits {
                base,
                width,
                words: Words::strided(group, slot as usize, stride, words_for(width)),
            },
            Repr::Spans { first, last, spans } => ReprView::Spans {
                first: *first,
                last: *last,
                spans,
            },
        };
        DomainView { header, repr }
    }

    /// The domain as an owned copy (a bit set's words copied out of an interleaved group).
    pub fn to_domain(&self) -> Domain {
        let repr = match self.repr {
            ReprView::Word { base, width, bits } => Repr::Word {
                base,
                width,
                bits: *bits,
            },
            ReprView::Bits { base, width, words } => Repr::Bits {
                base,
                width,
                words: (0..words.len()).map(|w| words.get(w)).collect(),
            },
            ReprView::Spans { first, last, spans } => Repr::Spans {
                first,
                last,
                spans: spans.iter().copied().collect(),
            },
            // The bit set the row was declared with, holding its free squares.
            ReprView::Lines { lines, .. } => {
                let width = lines.columns as u32;
                let mut words = vec![0u64; words_for(width)];
                for value in self.values() {
                    words[value as usize / 64] |= 1 << (value % 64);
                }
                if width <= 64 {
                    Repr::Word {
                        base: 0,
                        width,
                        bits: words[0],
                    }
                } else {
                    Repr::Bits {
                        base: 0,
                        width,
                        words: words.into_boxed_slice(),
                    }
                }
            }
        };
        Domain {
            header: self.bounds(),
            repr,
        }
    }

    /// The bit words and the value of bit 0, for a bit-set domain (no words: the whole span).
    #[inline]
    fn bits(&self) -> Option<(i32, Words<'a>)> {
        match self.repr {
            ReprView::Word { base, bits, .. } => {
                Some((base, Words::contiguous(std::slice::from_ref(bits))))
            }
            ReprView::Bits { base, words, .. } => Some((base, words)),
            ReprView::Spans { .. } | ReprView::Lines { .. } => None,
        }
    }

    /// Whether the domain is a bit set (its declared span is at most [`BITSET_MAX_SPAN`]).
    #[inline]
    pub fn is_bitset(&self) -> bool {
        matches!(self.repr, ReprView::Word { .. } | ReprView::Bits { .. })
    }

    /// The number of values left.
    #[inline]
    pub fn size(&self) -> u64 {
        self.header.size
    }

    /// True when no value is left.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.header.size == 0
    }

    /// True when exactly one value is left.
    #[inline]
    pub fn is_fixed(&self) -> bool {
        self.header.size == 1
    }

    /// The smallest value left, if any.
    #[inline]
    pub fn min(&self) -> Option<i32> {
        (self.header.size > 0).then(|| self.lb())
    }

    /// The largest value left, if any.
    #[inline]
    pub fn max(&self) -> Option<i32> {
        (self.header.size > 0).then(|| self.ub())
    }

    /// The smallest value left. Meaningful only while the domain is not empty (a propagator never sees
    /// an empty one: emptying a domain is a wipe-out).
    #[inline]
    pub fn lb(&self) -> i32 {
        if let ReprView::Lines { .. } = self.repr {
            return self.line_bound::<true>();
        }
        self.header.lo
    }

    /// The largest value left; see [`DomainView::lb`].
    #[inline]
    pub fn ub(&self) -> i32 {
        if let ReprView::Lines { .. } = self.repr {
            return self.line_bound::<false>();
        }
        self.header.hi
    }

    /// The only value left, if exactly one is.
    #[inline]
    pub fn fixed_value(&self) -> Option<i32> {
        (self.header.size == 1).then(|| self.lb())
    }

    /// The header with the bounds the values have: a row of kept lines keeps the bounds it had
    /// at the root in its header and finds its own from the lines.
    fn bounds(&self) -> Header {
        Header {
            lo: self.lb(),
            hi: self.ub(),
            size: self.header.size,
        }
    }

    /// The smallest (`LOW`) or largest value of a row of kept lines, from the lines; the header's
    /// bound for any other domain, or an empty one.
    #[cold]
    #[inline(never)]
    fn line_bound<const LOW: bool>(&self) -> i32 {
        let (ReprView::Lines { lines, row }, 1..) = (self.repr, self.header.size) else {
            return if LOW { self.header.lo } else { self.header.hi };
        };
        let last = lines.columns - 1;
        let bound = if LOW {
            lines.next_free(row, 0, last)
        } else {
            lines.prev_free(row, last, 0)
        };
        bound.expect("a row with values left has a smallest and a largest one")
    }

    /// The smallest value the domain was declared with (its span's lower end).
    #[inline]
    pub fn span_lo(&self) -> i32 {
        match self.repr {
            ReprView::Word { base, .. } | ReprView::Bits { base, .. } => base,
            ReprView::Spans { first, .. } => first,
            ReprView::Lines { .. } => 0,
        }
    }

    /// The largest value the domain was declared with.
    #[inline]
    pub fn span_hi(&self) -> i32 {
        match self.repr {
            ReprView::Word { base, width, .. } | ReprView::Bits { base, width, .. } => {
                (i64::from(base) + i64::from(width) - 1) as i32
            }
            ReprView::Spans { last, .. } => last,
            ReprView::Lines { lines, .. } => lines.columns - 1,
        }
    }

    /// Whether `value` is in the domain.
    #[inline]
    pub fn contains(&self, value: i32) -> bool {
        let Header { lo, hi, size } = self.header;
        if value < lo || value > hi || size == 0 {
            return false;
        }
        match self.repr {
            ReprView::Word { base, bits, .. } => (bits >> value.wrapping_sub(base) as u32) & 1 == 1,
            ReprView::Bits { base, words, .. } => {
                bit(words, value.wrapping_sub(base) as u32 as usize)
            }
            ReprView::Spans { spans, .. } => span_index(spans, value).is_some(),
            ReprView::Lines { lines, row } => lines.is_free(row, value),
        }
    }

    /// The values left, ascending.
    pub fn values(&self) -> Values<'a> {
        let Header { lo, hi, size } = self.header;
        if size == 0 {
            return Values::Empty;
        }
        if let ReprView::Lines { lines, row } = self.repr {
            return Values::Lines(LineValues {
                lines,
                row,
                next: lo,
                hi,
            });
        }
        match self.bits() {
            Some((base, words)) => {
                if words.is_empty() {
                    Values::Range(i64::from(lo)..i64::from(hi) + 1)
                } else {
                    let from = (i64::from(lo) - i64::from(base)) as usize;
                    let to = (i64::from(hi) - i64::from(base)) as usize;
                    Values::Bits(BitValues::new(words, base, from, to))
                }
            }
            None => {
                let ReprView::Spans { spans, .. } = self.repr else {
                    unreachable!("a domain without bits has intervals")
                };
                Values::Spans {
                    spans,
                    index: span_at_or_after(spans, lo),
                    next: i64::from(lo),
                    hi: i64::from(hi),
                }
            }
        }
    }

    /// The values left as maximal runs of consecutive integers, ascending.
    pub fn runs(&self) -> Box<dyn Iterator<Item = (i32, i32)> + 'a> {
        if let ReprView::Spans { spans, .. } = self.repr {
            // The intervals are maximal already; only the bounds cut them.
            let Header { lo, hi, size } = self.header;
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
        if self.header.size == 0 {
            return;
        }
        // Size the buffer once and fill it by index: a `push` per value re-checked the capacity each
        // time, which was a third of the cost of listing a small domain.
        let start = out.len();
        out.resize(start + self.header.size as usize, 0);
        self.write_values(&mut out[start..]);
    }

    /// Writes the values left, ascending, into `slots`, which must hold exactly
    /// [`DomainView::size`] of them: [`DomainView::append_values`] for a buffer that is not a `Vec`
    /// (a stack array, say).
    ///
    /// # Panics
    ///
    /// If `slots` is shorter than the domain's size.
    #[inline]
    pub fn write_values(&self, slots: &mut [i32]) {
        let Header { lo, hi, size } = self.header;
        debug_assert_eq!(slots.len() as u64, size, "one slot per value");
        if size == 0 {
            return;
        }
        match self.repr {
            ReprView::Word { base, bits, .. } => {
                // One word (every domain of at most 64 values, as in the LEX counts): one mask.
                let from = lo.wrapping_sub(base) as u32;
                let to = hi.wrapping_sub(base) as u32;
                let mut remaining = bits & range_mask(from, to);
                let base = i64::from(base);
                let mut filled = 0;
                while remaining != 0 {
                    slots[filled] = (base + i64::from(remaining.trailing_zeros())) as i32;
                    filled += 1;
                    remaining &= remaining - 1;
                }
                debug_assert_eq!(filled, slots.len(), "the domain's size counts its bits");
            }
            ReprView::Bits { base, words, .. } if !words.is_empty() => {
                let from = (i64::from(lo) - i64::from(base)) as usize;
                let to = (i64::from(hi) - i64::from(base)) as usize;
                let mut filled = 0;
                for word_index in from / 64..=to / 64 {
                    let mut remaining = words.get(word_index) & word_mask(word_index, from, to);
                    let word_base = i64::from(base) + (word_index * 64) as i64;
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
        let Header { lo, hi, size } = self.header;
        if let ReprView::Lines { lines, row } = self.repr {
            // Within the row's wider bounds, the lines alone say which squares are free.
            return (size > 0)
                .then(|| lines.next_free(row, value.saturating_add(1), hi))
                .flatten();
        }
        if size == 0 || value >= hi {
            return None;
        }
        if value < lo {
            return Some(lo);
        }
        let from = value + 1;
        match self.bits() {
            Some((base, words)) => {
                let index = next_set(
                    words,
                    (from - base) as usize,
                    (i64::from(hi) - i64::from(base)) as usize,
                )?;
                Some((i64::from(base) + index as i64) as i32)
            }
            None => {
                let ReprView::Spans { spans, .. } = self.repr else {
                    unreachable!()
                };
                let i = span_at_or_after(spans, from);
                spans.get(i).map(|&(start, _)| start.max(from))
            }
        }
    }

    /// The largest value left that is smaller than `value`.
    pub fn prev_value(&self, value: i32) -> Option<i32> {
        let Header { lo, hi, size } = self.header;
        if let ReprView::Lines { lines, row } = self.repr {
            return (size > 0)
                .then(|| lines.prev_free(row, value.saturating_sub(1), lo))
                .flatten();
        }
        if size == 0 || value <= lo {
            return None;
        }
        if value > hi {
            return Some(hi);
        }
        let from = value - 1;
        match self.bits() {
            Some((base, words)) => {
                let index = prev_set(
                    words,
                    (from - base) as usize,
                    (i64::from(lo) - i64::from(base)) as usize,
                )?;
                Some((i64::from(base) + index as i64) as i32)
            }
            None => {
                let ReprView::Spans { spans, .. } = self.repr else {
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
        if self.header.size == 0 {
            return 0;
        }
        self.count_between(i64::from(lo), i64::from(hi))
    }

    /// The `k`-th smallest value left (from 0), if the domain has more than `k` values.
    pub fn nth_value(&self, k: u64) -> Option<i32> {
        let Header { lo, hi, size } = self.header;
        if k >= size {
            return None;
        }
        if let ReprView::Lines { .. } = self.repr {
            return self.values().nth(k as usize);
        }
        match self.bits() {
            Some((_, words)) if words.is_empty() => Some((i64::from(lo) + k as i64) as i32),
            Some((base, words)) => {
                let from = (i64::from(lo) - i64::from(base)) as usize;
                let to = (i64::from(hi) - i64::from(base)) as usize;
                let mut remaining = k;
                for word_index in from / 64..=to / 64 {
                    let mut word = words.get(word_index) & word_mask(word_index, from, to);
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
                let ReprView::Spans { spans, .. } = self.repr else {
                    unreachable!()
                };
                let mut remaining = k;
                for &(start, end) in &spans[span_at_or_after(spans, lo)..] {
                    let (start, end) = (i64::from(start.max(lo)), i64::from(end.min(hi)));
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
        if let ReprView::Word {
            base: word_base,
            bits,
            ..
        } = self.repr
        {
            let Header { lo, hi, size } = self.header;
            if size == 0 {
                return 0;
            }
            // The live bits (those between the bounds), then moved to the window's base: a shift and
            // a mask.
            let live = bits
                & range_mask(
                    lo.wrapping_sub(word_base) as u32,
                    hi.wrapping_sub(word_base) as u32,
                );
            let shift = i64::from(word_base) - i64::from(base);
            return if shift >= 64 || shift <= -64 {
                0
            } else if shift >= 0 {
                live << shift
            } else {
                live >> -shift
            };
        }
        self.window64_general(base)
    }

    /// The values in `base..base + 64 · out.len()` as the bits of `out` (bit `i % 64` of
    /// `out[i / 64]` for the value `base + i`); values outside that window are left out.
    ///
    /// A bit set read from a `base` a whole number of words past its span's start (see
    /// [`DomainView::span_lo`]) is copied a word at a time, masked to the bounds, instead of being
    /// shifted into place: what a propagator that tests many values of one domain (an enumeration
    /// of an arithmetic constraint's tuples) reads once, so that each test is a plain bit test.
    pub(crate) fn write_bits(&self, base: i32, out: &mut [u64]) {
        let Header { lo, hi, size } = self.header;
        let top = i64::from(base) + 64 * out.len() as i64 - 1;
        if size == 0 || i64::from(hi) < i64::from(base) || i64::from(lo) > top {
            out.fill(0);
            return;
        }
        if let ReprView::Bits {
            base: span_base,
            words,
            ..
        } = self.repr
            && !words.is_empty()
            && (i64::from(base) - i64::from(span_base)).rem_euclid(64) == 0
        {
            let first = (i64::from(base) - i64::from(span_base)).div_euclid(64);
            for (w, word) in out.iter_mut().enumerate() {
                let index = first + w as i64;
                *word = if (0..words.len() as i64).contains(&index) {
                    words.get(index as usize)
                } else {
                    0
                };
                // The bits outside the bounds are stale (bounds apply lazily): masked off.
                let word_start = i64::from(base) + 64 * w as i64;
                let from = (i64::from(lo) - word_start).max(0);
                let to = (i64::from(hi) - word_start).min(63);
                *word &= if from > to {
                    0
                } else {
                    range_mask(from as u32, to as u32)
                };
            }
            return;
        }
        for (w, word) in out.iter_mut().enumerate() {
            let word_start = i64::from(base) + 64 * w as i64;
            *word = i32::try_from(word_start).map_or(0, |start| self.window64(start));
        }
    }

    #[inline(never)]
    fn window64_general(&self, base: i32) -> u64 {
        let Header { lo, hi, size } = self.header;
        let (from, to) = (
            i64::from(lo).max(i64::from(base)),
            i64::from(hi).min(i64::from(base) + 63),
        );
        if size == 0 || from > to {
            return 0;
        }
        if let ReprView::Lines { lines, row } = self.repr {
            return (from as i32..=to as i32)
                .filter(|&value| lines.is_free(row, value))
                .fold(0, |word, value| {
                    word | 1 << (i64::from(value) - i64::from(base))
                });
        }
        match self.bits() {
            // A whole span: every value of from..=to.
            Some((_, words)) if words.is_empty() => range_mask(
                (from - i64::from(base)) as u32,
                (to - i64::from(base)) as u32,
            ),
            Some((span_base, words)) => {
                let mut word = 0u64;
                // At most two of the domain's words overlap the window.
                let first = ((from - i64::from(span_base)) / 64) as usize;
                let last = ((to - i64::from(span_base)) / 64) as usize;
                for word_index in first..=last.min(words.len() - 1) {
                    let bits = words.get(word_index);
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
                let ReprView::Spans { spans, .. } = self.repr else {
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

    /// How many values present lie in `from..=to` (within the current bounds).
    fn count_between(&self, from: i64, to: i64) -> u64 {
        let from = from.max(i64::from(self.header.lo));
        let to = to.min(i64::from(self.header.hi));
        if from > to {
            return 0;
        }
        if let ReprView::Lines { lines, row } = self.repr {
            return (from as i32..=to as i32)
                .filter(|&value| lines.is_free(row, value))
                .count() as u64;
        }
        match self.bits() {
            Some((_, words)) if words.is_empty() => (to - from + 1) as u64,
            Some((base, words)) => count_set(
                words,
                (from - i64::from(base)) as usize,
                (to - i64::from(base)) as usize,
            ),
            None => {
                let ReprView::Spans { spans, .. } = self.repr else {
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
                let ReprView::Spans { spans, .. } = self.repr else {
                    unreachable!()
                };
                spans[span_at_or_after(spans, value)].0.max(value)
            }
        }
    }

    /// The last value present below `value`; see [`DomainView::next_present_from`].
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
                let ReprView::Spans { spans, .. } = self.repr else {
                    unreachable!()
                };
                let i = span_at_or_before(spans, value).expect("a value below the old maximum");
                spans[i].1.min(value)
            }
        }
    }
}

impl<'a> DomainMut<'a> {
    /// The domain with `header` and `repr`, whose interleaved words (if it has them) are in `group`,
    /// a group of `stride` domains.
    #[inline(always)]
    pub(crate) fn new(
        header: &'a mut Header,
        repr: &'a mut Repr,
        group: &'a mut [u64],
        stride: usize,
    ) -> Self {
        let repr = match repr {
            Repr::Word { base, width, bits } => ReprMut::Word {
                base: *base,
                width: *width,
                bits,
            },
            Repr::Bits { base, width, words } => ReprMut::Bits {
                base: *base,
                width: *width,
                words,
            },
            &mut Repr::Strided {
                base, width, slot, ..
            } => ReprMut::Strided {
                base,
                width,
                words: WordsMut::strided(group, slot as usize, stride),
                len: words_for(width),
            },
            Repr::Spans { first, last, spans } => ReprMut::Spans {
                first: *first,
                last: *last,
                spans,
            },
        };
        DomainMut { header, repr }
    }

    /// The domain as it is now, to read.
    #[inline(always)]
    fn view(&self) -> DomainView<'_> {
        let repr = match &self.repr {
            ReprMut::Word { base, width, bits } => ReprView::Word {
                base: *base,
                width: *width,
                bits,
            },
            ReprMut::Bits { base, width, words } => ReprView::Bits {
                base: *base,
                width: *width,
                words: Words::contiguous(words),
            },
            ReprMut::Strided {
                base,
                width,
                words,
                len,
            } => ReprView::Bits {
                base: *base,
                width: *width,
                words: Words::strided(words.data, words.first, words.stride, *len),
            },
            ReprMut::Spans { first, last, spans } => ReprView::Spans {
                first: *first,
                last: *last,
                spans,
            },
        };
        DomainView {
            header: *self.header,
            repr,
        }
    }

    /// Removes `value` from a materialised bit set when it lies strictly between the bounds, without
    /// branching on whether it was present: returns its trail offset and 1 if it was removed, 0 if it
    /// was absent. `None` when the domain is not such a bit set or the value is not strictly inside;
    /// [`DomainMut::remove`] answers those.
    ///
    /// Neither bound can move and the domain keeps at least two values, so presence only changes
    /// the size. On a large board forward checking tests about a square per row of the board, each
    /// in a different row's bits far apart in memory; a branch on the bit, mispredicted about one
    /// time in three, made every such load wait for the one before it.
    #[inline(always)]
    pub(crate) fn remove_inner_bit(&mut self, value: i32) -> Option<(u32, u64)> {
        if value <= self.header.lo || value >= self.header.hi {
            return None;
        }
        let (base, word) = match &mut self.repr {
            ReprMut::Bits { base, words, .. } => {
                let index = value.wrapping_sub(*base) as u32;
                (*base, words.get_mut(index as usize / 64)?)
            }
            ReprMut::Strided {
                base, words, len, ..
            } => {
                let index = value.wrapping_sub(*base) as u32 as usize / 64;
                if index >= *len {
                    return None;
                }
                (*base, words.get_mut(index))
            }
            _ => return None,
        };
        let index = value.wrapping_sub(base) as u32;
        let present = (*word >> (index % 64)) & 1;
        *word &= !(1 << (index % 64));
        self.header.size -= present;
        Some((index, present))
    }

    /// Removes the values of word `word` of a materialised bit set (the inline word is word 0)
    /// whose bits are set in `mask`, which the caller guarantees lie strictly between the bounds:
    /// returns the bits of those that were present. `None` when the domain is not such a bit set
    /// or has no word `word`; [`DomainMut::remove`] answers those one value at a time.
    ///
    /// As with [`DomainMut::remove_inner_bit`], neither bound can move and the domain keeps at
    /// least two values, so only the size changes.
    #[inline(always)]
    pub(crate) fn remove_inner_mask(&mut self, word: usize, mask: u64) -> Option<u64> {
        let bits = match &mut self.repr {
            ReprMut::Word { bits, .. } if word == 0 => &mut **bits,
            ReprMut::Bits { words, .. } => words.get_mut(word)?,
            ReprMut::Strided { words, len, .. } if word < *len => words.get_mut(word),
            _ => return None,
        };
        let removed = *bits & mask;
        *bits &= !mask;
        self.header.size -= u64::from(removed.count_ones());
        Some(removed)
    }

    /// Removes `value` if it is present: returns its trail offset (see [`DomainMut::restore`]) and
    /// the bound events of the removal (`LOWER_BOUND`, `UPPER_BOUND` and `REMOVAL`; whether it left
    /// the domain fixed the caller reads from the size). Emptying the domain is allowed (the caller
    /// reports it as a wipe-out).
    #[inline(always)]
    pub(crate) fn remove(&mut self, value: i32) -> Option<(u32, EventSet)> {
        if value < self.header.lo || value > self.header.hi {
            return None;
        }
        let offset = match &mut self.repr {
            ReprMut::Word { base, bits, .. } => {
                return remove_from_word(self.header, *base, bits, value);
            }
            ReprMut::Bits { base, width, words } => {
                let index = value.wrapping_sub(*base) as u32;
                if words.is_empty() {
                    // Only a lazily whole domain is still without words; a store's search domains
                    // are materialised.
                    if self.header.size == 0 {
                        return None;
                    }
                    **words = whole_span_words(*width);
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
            ReprMut::Strided { base, words, .. } => {
                let index = value.wrapping_sub(*base) as u32;
                let word = words.get_mut(index as usize / 64);
                let mask = 1u64 << (index % 64);
                if *word & mask == 0 {
                    return None;
                }
                *word &= !mask;
                index
            }
            ReprMut::Spans { spans, .. } => {
                if self.header.size == 0 || span_index(spans, value).is_none() {
                    return None;
                }
                remove_from_spans(spans, value);
                wide_offset(value)
            }
        };
        self.header.size -= 1;
        let mut events = EventSet::REMOVAL;
        if self.header.size > 0 {
            if value == self.header.lo {
                self.header.lo = self.view().next_present_from(value);
                events |= EventSet::LOWER_BOUND;
            }
            if value == self.header.hi {
                self.header.hi = self.view().prev_present_from(value);
                events |= EventSet::UPPER_BOUND;
            }
        }
        Some((offset, events))
    }

    /// Puts back the values of word `word` whose bits are set in `mask` (undo of
    /// [`DomainMut::remove_inner_mask`]), counting them and widening the bounds to cover them, so
    /// that, like [`DomainMut::restore`], it gives the same final state whatever the order of its
    /// undo and that of later bound changes. (The store undoes word removals before bound changes,
    /// whose undo widens the bounds past these values anyway; the widening keeps this undo correct
    /// on its own.)
    #[inline]
    pub(crate) fn restore_mask(&mut self, word: usize, mask: u64) {
        debug_assert_ne!(mask, 0, "an empty word removal");
        let base = match &mut self.repr {
            ReprMut::Word { base, bits, .. } => {
                debug_assert_eq!(word, 0, "an inline word has one word");
                debug_assert_eq!(**bits & mask, 0, "restoring a present value");
                **bits |= mask;
                *base
            }
            ReprMut::Bits { base, words, .. } => {
                debug_assert_eq!(words[word] & mask, 0, "restoring a present value");
                words[word] |= mask;
                *base
            }
            ReprMut::Strided { base, words, .. } => {
                let bits = words.get_mut(word);
                debug_assert_eq!(*bits & mask, 0, "restoring a present value");
                *bits |= mask;
                *base
            }
            ReprMut::Spans { .. } => unreachable!("a word removal from a domain of intervals"),
        };
        let first_of_word = i64::from(base) + 64 * word as i64;
        let lowest = (first_of_word + i64::from(mask.trailing_zeros())) as i32;
        let highest = (first_of_word + 63 - i64::from(mask.leading_zeros())) as i32;
        self.header
            .widen(lowest, highest, u64::from(mask.count_ones()));
    }

    /// Puts back the value removed with trail offset `offset` (undo of [`DomainMut::remove`]): back
    /// in the set, counted, and the bounds widened to cover it ([`Header::widen`]).
    #[inline]
    pub(crate) fn restore(&mut self, offset: u32) {
        let value = match &mut self.repr {
            ReprMut::Word { base, bits, .. } => {
                restore_to_word(self.header, *base, bits, offset);
                return;
            }
            ReprMut::Bits { base, words, .. } => {
                debug_assert!(
                    !bit(Words::contiguous(words), offset as usize),
                    "restoring a present value"
                );
                words[offset as usize / 64] |= 1 << (offset % 64);
                (i64::from(*base) + i64::from(offset)) as i32
            }
            ReprMut::Strided { base, words, .. } => {
                let word = words.get_mut(offset as usize / 64);
                debug_assert_eq!(*word >> (offset % 64) & 1, 0, "restoring a present value");
                *word |= 1 << (offset % 64);
                (i64::from(*base) + i64::from(offset)) as i32
            }
            ReprMut::Spans { spans, .. } => {
                let value = wide_value(offset);
                insert_into_spans(spans, value);
                value
            }
        };
        self.header.widen(value, value, 1);
    }

    /// Narrows the bounds to `new_lo..=new_hi` (given as `i64`, so that a bound beyond `i32` is no
    /// overflow but simply an empty or unchanged side). `Ok(None)` if nothing changed, `Err(())` if no
    /// value would be left (the domain is then unchanged). Values inside the new bounds that are
    /// already absent are skipped, so the new bounds are always values of the domain.
    pub(crate) fn tighten(&mut self, new_lo: i64, new_hi: i64) -> Result<Option<Tightening>, ()> {
        let Header { lo, hi, size } = *self.header;
        if size == 0 {
            return Err(());
        }
        let new_lo = new_lo.max(i64::from(lo));
        let new_hi = new_hi.min(i64::from(hi));
        if new_lo > new_hi {
            return Err(());
        }
        if new_lo == i64::from(lo) && new_hi == i64::from(hi) {
            return Ok(None);
        }
        let (new_lo, new_hi) = (new_lo as i32, new_hi as i32);
        if size == (i64::from(hi) - i64::from(lo) + 1) as u64 {
            // No hole between the bounds (so every value of the new bounds is present): the sizes
            // follow from the bounds alone, whatever the representation.
            let kept = (i64::from(new_hi) - i64::from(new_lo) + 1) as u64;
            return Ok(Some(self.narrow_to(new_lo, new_hi, kept)));
        }
        if let ReprMut::Word { base, bits, .. } = &self.repr {
            // One mask finds the first and last values kept and counts them (a Boolean's or a small
            // domain's bound change, the commonest in search by decisions). Bits outside the current
            // bounds may be stale, but the new bounds lie within them.
            let kept = **bits
                & range_mask(
                    new_lo.wrapping_sub(*base) as u32,
                    new_hi.wrapping_sub(*base) as u32,
                );
            if kept == 0 {
                return Err(());
            }
            let first = base.wrapping_add(kept.trailing_zeros() as i32);
            let last = base.wrapping_add(63 - kept.leading_zeros() as i32);
            return Ok(Some(self.narrow_to(
                first,
                last,
                u64::from(kept.count_ones()),
            )));
        }
        // The first and last values present within the new bounds.
        let view = self.view();
        let first = if view.contains(new_lo) {
            Some(new_lo)
        } else {
            view.next_value(new_lo)
        };
        let Some(first) = first.filter(|&v| v <= new_hi) else {
            return Err(());
        };
        let last = if view.contains(new_hi) {
            new_hi
        } else {
            view.prev_value(new_hi).expect("first <= new_hi is present")
        };
        // Count whichever is narrower, the values kept or the two ends cut off: a wide domain cut
        // to a few values (a product's result, once its factors are nearly fixed) counts a word or
        // two rather than every word of what it lost.
        let kept_width = i64::from(last) - i64::from(first);
        let cut_width = (i64::from(first) - i64::from(lo)) + (i64::from(hi) - i64::from(last));
        let kept = if kept_width < cut_width {
            view.count_between(i64::from(first), i64::from(last))
        } else {
            size - view.count_between(i64::from(lo), i64::from(first) - 1)
                - view.count_between(i64::from(last) + 1, i64::from(hi))
        };
        Ok(Some(self.narrow_to(first, last, kept)))
    }

    /// Moves the bounds to `first..=last`, both values of the domain within the current bounds,
    /// leaving `kept` values: the tightening's record, its events from the old bounds (which are
    /// values of the domain, so a bound moved exactly when values below or above went).
    #[inline]
    fn narrow_to(&mut self, first: i32, last: i32, kept: u64) -> Tightening {
        let header = &mut *self.header;
        let mut events = EventSet::REMOVAL;
        if first > header.lo {
            events |= EventSet::LOWER_BOUND;
        }
        if last < header.hi {
            events |= EventSet::UPPER_BOUND;
        }
        if kept == 1 {
            events |= EventSet::FIXED;
        }
        let tightening = Tightening {
            old_lo: header.lo,
            old_hi: header.hi,
            removed: header.size - kept,
            events,
        };
        header.lo = first;
        header.hi = last;
        header.size = kept;
        tightening
    }

    /// Narrows the domain to `value`, which must be present: a [`DomainMut::tighten`] to
    /// `value..=value` in O(1), as search assigns a variable. Returns the old bounds and size (the
    /// events follow from them: [`fix_events`]).
    #[inline(always)]
    pub(crate) fn fix(&mut self, value: i32) -> (i32, i32, u64) {
        debug_assert!(self.view().contains(value));
        let header = &mut *self.header;
        let old = (header.lo, header.hi, header.size);
        header.lo = value;
        header.hi = value;
        header.size = 1;
        old
    }

    /// Undoes a [`DomainMut::tighten`] (see [`Header::widen`] on why the bounds are widened with
    /// `min`/`max` rather than set).
    #[inline]
    pub(crate) fn untighten(&mut self, old_lo: i32, old_hi: i32, removed: u64) {
        self.header.widen(old_lo, old_hi, removed);
    }
}

/// Removes `value`, which lies within `header`'s bounds, from an inline word domain (`bits` over
/// `base..base + 64`) if it is present: what [`DomainMut::remove`] does for that representation,
/// returning the same trail offset and events. The store calls it directly for such a domain
/// (a Sudoku cell, a colour), without building a [`DomainMut`].
#[inline(always)]
pub(crate) fn remove_from_word(
    header: &mut Header,
    base: i32,
    bits: &mut u64,
    value: i32,
) -> Option<(u32, EventSet)> {
    let index = value.wrapping_sub(base) as u32;
    let mask = 1u64 << index;
    if *bits & mask == 0 {
        return None;
    }
    *bits &= !mask;
    // The new bounds from the word itself, without a call: Sudoku's and most small domains' hot
    // path. Bits outside lo..=hi may be stale, but a value is left inside, so the nearest set bit
    // on the inner side is it.
    header.size -= 1;
    let mut events = EventSet::REMOVAL;
    if header.size > 0 {
        if value == header.lo {
            let above = *bits & (u64::MAX << index << 1);
            header.lo = base.wrapping_add(above.trailing_zeros() as i32);
            events |= EventSet::LOWER_BOUND;
        }
        if value == header.hi {
            let below = *bits & (mask - 1);
            header.hi = base.wrapping_add(63 - below.leading_zeros() as i32);
            events |= EventSet::UPPER_BOUND;
        }
    }
    Some((index, events))
}

/// Puts back the value of an inline word domain removed with trail offset `offset`: what
/// [`DomainMut::restore`] does for that representation, called directly by the store's undo.
#[inline(always)]
pub(crate) fn restore_to_word(header: &mut Header, base: i32, bits: &mut u64, offset: u32) {
    debug_assert_eq!(*bits >> offset & 1, 0, "restoring a present value");
    *bits |= 1 << offset;
    let value = base.wrapping_add(offset as i32);
    header.widen(value, value, 1);
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

/// The values of a domain, ascending: see [`DomainView::values`].
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
    /// The free squares of a row of a kept [`LineRule`](crate::LineRule).
    #[doc(hidden)]
    Lines(LineValues<'a>),
}

/// The free squares of a row of a kept [`LineRule`](crate::LineRule) within `next..=hi`.
#[derive(Debug, Clone)]
#[doc(hidden)]
pub struct LineValues<'a> {
    lines: &'a OccupiedLines,
    row: usize,
    next: i32,
    hi: i32,
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
            Values::Lines(line) => {
                let value = line.lines.next_free(line.row, line.next, line.hi)?;
                // The last column is below `i32::MAX` (see `LineRule::is_valid`): no overflow.
                line.next = value + 1;
                Some(value)
            }
        }
    }
}

/// The set bits of a bit-set domain between two indices, as values.
#[derive(Debug, Clone)]
#[doc(hidden)]
pub struct BitValues<'a> {
    words: Words<'a>,
    base: i64,
    word_index: usize,
    last_word: usize,
    current: u64,
    from: usize,
    to: usize,
}

impl<'a> BitValues<'a> {
    fn new(words: Words<'a>, base: i32, from: usize, to: usize) -> Self {
        let word_index = from / 64;
        BitValues {
            words,
            base: i64::from(base),
            word_index,
            last_word: to / 64,
            current: words.get(word_index) & word_mask(word_index, from, to),
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
                self.words.get(self.word_index) & word_mask(self.word_index, self.from, self.to);
        }
        let bit = self.current.trailing_zeros() as usize;
        self.current &= self.current - 1;
        Some((self.base + (self.word_index * 64 + bit) as i64) as i32)
    }
}

/// Whether bit `index` is set; no words stand for a whole span (every bit set).
#[inline(always)]
fn bit(words: Words<'_>, index: usize) -> bool {
    words.is_empty() || (words.get(index / 64) >> (index % 64)) & 1 == 1
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
fn next_set(words: Words<'_>, from: usize, to: usize) -> Option<usize> {
    if from > to {
        return None;
    }
    if words.is_empty() {
        return Some(from);
    }
    for word_index in from / 64..=(to / 64).min(words.len() - 1) {
        let word = words.get(word_index) & word_mask(word_index, from, to);
        if word != 0 {
            return Some(word_index * 64 + word.trailing_zeros() as usize);
        }
    }
    None
}

/// The last set index in `down_to..=from`; with no words, `from` itself.
fn prev_set(words: Words<'_>, from: usize, down_to: usize) -> Option<usize> {
    if from < down_to {
        return None;
    }
    if words.is_empty() {
        return Some(from);
    }
    for word_index in (down_to / 64..=from / 64).rev() {
        let word = words.get(word_index) & word_mask(word_index, down_to, from);
        if word != 0 {
            return Some(word_index * 64 + 63 - word.leading_zeros() as usize);
        }
    }
    None
}

/// How many bits are set in `from..=to`.
fn count_set(words: Words<'_>, from: usize, to: usize) -> u64 {
    (from / 64..=to / 64)
        .map(|word_index| {
            u64::from((words.get(word_index) & word_mask(word_index, from, to)).count_ones())
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

    /// Domains for the window tests: a bit set with holes and tightened bounds, intervals, and an
    /// inline word with holes and stale bits beyond its bounds.
    fn window_test_domains() -> [Domain; 3] {
        let mut d = Domain::range(-70, 200).materialized();
        for v in [-70, -3, 0, 63, 64, 65, 127, 128, 199] {
            d.remove(v);
        }
        d.tighten(-60, 190).unwrap();
        let wide = Domain::from_sorted(&[-100_000, -5, 0, 1, 2, 40, 63, 100_000]);
        let mut word = Domain::range(-5, 50);
        for v in [-5, 0, 7, 50] {
            word.remove(v);
        }
        word.tighten(-3, 45).unwrap();
        [d, wide, word]
    }

    #[test]
    fn window64_holds_exactly_the_values_in_the_window() {
        let [d, wide, word] = window_test_domains();
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

    /// `write_bits` agrees with the values, whether it copies a bit set's words (a base on a word
    /// boundary of the span) or assembles the window from shifted words, for every representation.
    #[test]
    fn write_bits_holds_exactly_the_values_in_the_window() {
        let [d, wide, word] = window_test_domains();
        for domain in [&d, &Domain::range(-70, 200), &wide, &word] {
            // -198, -134, -70, 58 and 122 lie on word boundaries of `d`'s span.
            for base in [-198, -134, -80, -70, -69, -5, 0, 58, 60, 122, 250] {
                for words in [1, 2, 5] {
                    let mut out = vec![u64::MAX; words];
                    domain.view().write_bits(base, &mut out);
                    let mut expected = vec![0u64; words];
                    for v in domain.values() {
                        let offset = i64::from(v) - i64::from(base);
                        if (0..64 * words as i64).contains(&offset) {
                            expected[offset as usize / 64] |= 1 << (offset % 64);
                        }
                    }
                    assert_eq!(out, expected, "base {base}, {words} words, {domain:?}");
                }
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
