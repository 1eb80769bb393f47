use fixedbitset::FixedBitSet;

/// The widest domain (`hi - lo + 1`) a variable may have. A domain is a bit set over its span, so this
/// bounds one variable's memory at 32 MiB and keeps every offset within `u32`.
pub const MAX_DOMAIN_WIDTH: u64 = 1 << 28;

/// A finite set of integers: a bit set over `lo..=hi` plus its size, so that `size` is O(1).
///
/// A domain that still holds its whole span keeps no bits at all until a value is first removed: a
/// model for local search over a million-column board then costs a few bytes per variable, not a
/// megabit each. [`crate::Store::new`] gives each search its own fully materialised copy, so search
/// never allocates when it prunes.
#[derive(Debug, Clone)]
pub struct Domain {
    lo: i32,
    /// The span's width, `hi − lo + 1`.
    width: u32,
    /// One bit per span value; empty while the domain is the whole span (`size == width`).
    bits: FixedBitSet,
    size: u32,
}

impl PartialEq for Domain {
    /// Domains are equal when they hold the same values over the same span, whichever representation
    /// each has.
    fn eq(&self, other: &Self) -> bool {
        self.lo == other.lo
            && self.width == other.width
            && self.size == other.size
            && (self.is_whole_span() || other.is_whole_span() || self.bits == other.bits)
    }
}

impl Eq for Domain {}

impl Domain {
    /// The domain `lo..=hi`. The caller has checked that the range is non-empty and not too wide.
    pub(crate) fn range(lo: i32, hi: i32) -> Self {
        let width = (i64::from(hi) - i64::from(lo) + 1) as u32;
        Domain {
            lo,
            width,
            bits: FixedBitSet::new(),
            size: width,
        }
    }

    /// Whether the domain holds its whole span, with no bits materialised.
    #[inline]
    fn is_whole_span(&self) -> bool {
        self.bits.is_empty()
    }

    /// The same domain with its bits materialised, so that removing values never allocates.
    pub(crate) fn materialized(&self) -> Self {
        let mut copy = self.clone();
        copy.materialize();
        copy
    }

    /// Allocates the bit set of a whole-span domain, every bit set.
    fn materialize(&mut self) {
        if self.is_whole_span() {
            self.bits = FixedBitSet::with_capacity(self.width as usize);
            self.bits.insert_range(..);
        }
    }

    /// The domain holding exactly `values` (sorted, deduplicated, non-empty, checked by the caller).
    pub(crate) fn from_sorted(values: &[i32]) -> Self {
        let lo = values[0];
        let hi = values[values.len() - 1];
        let width = (i64::from(hi) - i64::from(lo) + 1) as usize;
        let mut bits = FixedBitSet::with_capacity(width);
        for &v in values {
            bits.insert((i64::from(v) - i64::from(lo)) as usize);
        }
        let mut domain = Domain {
            lo,
            width: width as u32,
            bits,
            size: values.len() as u32,
        };
        // A gap-free value list is a whole span: keep the representation canonical.
        if domain.size == domain.width {
            domain.bits = FixedBitSet::new();
        }
        domain
    }

    /// The number of values left.
    #[inline]
    pub fn size(&self) -> u32 {
        self.size
    }

    /// True when no value is left.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.size == 0
    }

    /// Whether `value` is in the domain.
    #[inline]
    pub fn contains(&self, value: i32) -> bool {
        match self.offset(value) {
            Some(index) => self.is_whole_span() || self.bits.contains(index),
            None => false,
        }
    }

    /// The smallest value the domain was created with (its span's lower end).
    #[inline]
    pub fn span_lo(&self) -> i32 {
        self.lo
    }

    /// The largest value the domain's span covers.
    #[inline]
    pub fn span_hi(&self) -> i32 {
        (i64::from(self.lo) + i64::from(self.width) - 1) as i32
    }

    /// The smallest value left, if any.
    pub fn min(&self) -> Option<i32> {
        if self.is_whole_span() {
            return Some(self.lo);
        }
        self.bits.minimum().map(|i| self.value_at(i))
    }

    /// The largest value left, if any.
    pub fn max(&self) -> Option<i32> {
        if self.is_whole_span() {
            return Some(self.span_hi());
        }
        self.bits.maximum().map(|i| self.value_at(i))
    }

    /// The values left, ascending.
    pub fn values(&self) -> impl DoubleEndedIterator<Item = i32> + '_ {
        // Either the whole span or the set bits; the unused side is an empty range.
        let whole = if self.is_whole_span() {
            0..self.width as usize
        } else {
            0..0
        };
        whole.chain(self.bits.ones()).map(move |i| self.value_at(i))
    }

    /// Appends the values left, ascending, to `out`: the same as `out.extend(self.values())`, walking
    /// the bit blocks directly. Search collects every node's candidates this way, so the iterator's
    /// per-value overhead mattered.
    #[inline]
    pub fn append_values(&self, out: &mut Vec<i32>) {
        // Size the buffer once and fill it by index: a `push` per value re-checked the capacity each
        // time, which was a third of the cost of listing a small domain.
        let start = out.len();
        out.resize(start + self.size as usize, 0);
        let slots = &mut out[start..];
        if self.is_whole_span() {
            for (i, slot) in slots.iter_mut().enumerate() {
                *slot = self.value_at(i);
            }
            return;
        }
        let mut filled = 0;
        let bits_per_block = fixedbitset::Block::BITS as usize;
        for (block_index, &block) in self.bits.as_slice().iter().enumerate() {
            let mut remaining = block;
            let base = self.lo as i64 + (block_index * bits_per_block) as i64;
            while remaining != 0 {
                let bit = remaining.trailing_zeros() as i64;
                slots[filled] = (base + bit) as i32;
                filled += 1;
                remaining &= remaining - 1;
            }
        }
        debug_assert_eq!(filled, slots.len(), "the domain's size counts its bits");
    }

    /// The values in `base..base + 64` as the bits of one word (bit `i` for the value `base + i`);
    /// values outside that window are left out. For algorithms that work on small domains as words.
    pub(crate) fn window64(&self, base: i32) -> u64 {
        // Where the span's first value falls in the window (negative: before it).
        let start = i64::from(self.lo) - i64::from(base);
        if self.is_whole_span() {
            let (from, to) = (start.max(0), (start + i64::from(self.width)).min(64));
            if from >= to {
                return 0;
            }
            let ones = to - from;
            let run = if ones == 64 {
                u64::MAX
            } else {
                (1u64 << ones) - 1
            };
            return run << from;
        }
        let bits_per_block = i64::from(fixedbitset::Block::BITS);
        let mut word = 0u64;
        for (block_index, &block) in self.bits.as_slice().iter().enumerate() {
            let offset = start + block_index as i64 * bits_per_block;
            if offset >= 64 {
                break;
            }
            if offset + bits_per_block <= 0 {
                continue;
            }
            let block = block as u64;
            word |= if offset >= 0 {
                block << offset
            } else {
                block >> -offset
            };
        }
        word
    }

    #[inline]
    pub(crate) fn value_at(&self, index: usize) -> i32 {
        (i64::from(self.lo) + index as i64) as i32
    }

    #[inline]
    pub(crate) fn offset(&self, value: i32) -> Option<usize> {
        // A span fits in i32 (`lo + width - 1 <= i32::MAX`), so a wrapped difference that lands
        // inside the span is the true one.
        let index = value.wrapping_sub(self.lo) as u32 as usize;
        (index < self.width as usize).then_some(index)
    }

    /// The span index of `value` if the value is in the domain.
    #[inline(always)]
    pub(crate) fn index_if_present(&self, value: i32) -> Option<usize> {
        let index = self.offset(value)?;
        (self.is_whole_span() || self.bits.contains(index)).then_some(index)
    }

    /// Removes the value at span index `index`, which must be present.
    #[inline(always)]
    pub(crate) fn remove_index(&mut self, index: usize) {
        // A store's domains are materialised when it is made; this only allocates for a domain used
        // outside a store.
        self.materialize();
        debug_assert!(self.bits.contains(index));
        self.bits.remove(index);
        self.size -= 1;
    }

    /// Removes `value`; returns its index in the span if it was present.
    #[cfg(test)]
    pub(crate) fn remove(&mut self, value: i32) -> Option<u32> {
        let index = self.index_if_present(value)?;
        self.remove_index(index);
        Some(index as u32)
    }

    /// Puts back the value at `index` (undo of [`Domain::remove`]).
    #[inline]
    pub(crate) fn restore(&mut self, index: u32) {
        debug_assert!(!self.bits.contains(index as usize));
        self.bits.insert(index as usize);
        self.size += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn range_domain_holds_every_value_and_reports_bounds() {
        let d = Domain::range(-2, 3);
        assert_eq!(d.size(), 6);
        assert_eq!(d.values().collect::<Vec<_>>(), vec![-2, -1, 0, 1, 2, 3]);
        assert_eq!((d.min(), d.max()), (Some(-2), Some(3)));
        assert!(!d.contains(4) && !d.contains(-3));
    }

    #[test]
    fn a_whole_span_keeps_no_bits_and_answers_like_a_materialised_one() {
        let lazy = Domain::range(-3, 130);
        assert!(lazy.is_whole_span(), "no bits until a removal");
        let eager = lazy.materialized();
        assert!(!eager.is_whole_span());
        assert_eq!(lazy, eager);
        assert_eq!(
            lazy.values().collect::<Vec<_>>(),
            eager.values().collect::<Vec<_>>()
        );
        let (mut from_lazy, mut from_eager) = (vec![], vec![]);
        lazy.append_values(&mut from_lazy);
        eager.append_values(&mut from_eager);
        assert_eq!(from_lazy, from_eager);
        for v in -5..=133 {
            assert_eq!(lazy.contains(v), eager.contains(v), "{v}");
            assert_eq!(lazy.index_if_present(v), eager.index_if_present(v), "{v}");
        }
        assert_eq!((lazy.min(), lazy.max()), (Some(-3), Some(130)));
        assert_eq!(Domain::from_sorted(&[4, 5, 6]), Domain::range(4, 6));
        assert!(Domain::from_sorted(&[4, 5, 6]).is_whole_span(), "canonical");

        let mut pruned = lazy.clone();
        assert_eq!(pruned.remove(0), Some(3));
        assert!(!pruned.contains(0) && pruned.contains(1) && pruned.size() == lazy.size() - 1);
        assert_ne!(pruned, lazy);
        pruned.restore(3);
        assert_eq!(pruned, lazy, "restored to the whole span, bits or not");
    }

    #[test]
    fn window64_holds_exactly_the_values_in_the_window() {
        let mut d = Domain::range(-70, 200).materialized();
        for v in [-70, -3, 0, 63, 64, 65, 127, 128, 199] {
            d.remove(v);
        }
        for base in [-80, -70, -5, 0, 1, 60, 100, 190, 250] {
            let expected: u64 = d
                .values()
                .filter(|&v| (base..base + 64).contains(&v))
                .map(|v| 1u64 << (v - base))
                .sum();
            assert_eq!(d.window64(base), expected, "materialised, base {base}");
            let whole = Domain::range(-70, 200);
            let expected: u64 = whole
                .values()
                .filter(|&v| (base..base + 64).contains(&v))
                .map(|v| 1u64 << (v - base))
                .sum();
            assert_eq!(whole.window64(base), expected, "whole span, base {base}");
        }
    }

    #[test]
    fn append_values_matches_the_iterator_across_blocks() {
        let mut d = Domain::range(-70, 200);
        for v in [-70, -3, 0, 63, 64, 65, 127, 128, 199] {
            d.remove(v);
        }
        let mut appended = vec![42];
        d.append_values(&mut appended);
        assert_eq!(appended[0], 42, "appends, does not replace");
        assert_eq!(appended[1..], d.values().collect::<Vec<_>>()[..]);
    }

    #[test]
    fn remove_and_restore_keep_size_in_step() {
        let mut d = Domain::from_sorted(&[1, 4, 9]);
        assert_eq!(d.size(), 3);
        let index = d.remove(4).expect("4 is present");
        assert_eq!(d.remove(4), None);
        assert_eq!(
            d.remove(5),
            None,
            "5 lies in the span but was never a value"
        );
        assert_eq!(d.values().collect::<Vec<_>>(), vec![1, 9]);
        d.restore(index);
        assert_eq!(d.values().collect::<Vec<_>>(), vec![1, 4, 9]);
        assert_eq!(d.size(), 3);
    }
}
