//! Removals a word at a time: many values of one bit-set domain removed, and undone, with one trail
//! entry.

use super::{Removal, Store, WordRemoval};
use crate::domain::Repr;
use crate::{VarId, Wipeout};

impl Store {
    /// Removes the values `first + i` for each bit `i` set in `mask`: exactly what calling
    /// [`Store::remove_value`] for each of them, ascending, would leave (domains, events and
    /// failure), with at most one trail entry.
    ///
    /// When the values all lie strictly between the variable's bounds, `first` is the first value
    /// of one of its bit-set words, and no change log is kept, the word is cleared at once and the
    /// values that were present are trailed together (one word-removal entry), to be restored
    /// together; neither bound moves, so the only event is one removal. (A single value present takes an
    /// ordinary entry, so that no value costs more trail than [`Store::removal_trail_bound`]
    /// counts.) Otherwise the values are removed one by one. A propagator that punches many holes
    /// in a domain, as a product's enumeration does, saves a trail entry and a restore per value.
    pub fn remove_mask(&mut self, var: VarId, first: i32, mask: u64) -> Result<(), Wipeout> {
        if mask == 0 {
            return Ok(());
        }
        let index = var.index();
        let header = self.headers[index];
        let lowest = i64::from(first) + i64::from(mask.trailing_zeros());
        let highest = i64::from(first) + 63 - i64::from(mask.leading_zeros());
        let inside = lowest > i64::from(header.lo) && highest < i64::from(header.hi);
        if inside
            && self.log.is_none()
            && let Some(word) = self.word_starting_at(index, first)
            && let Some(removed) = self.domain_mut(index).remove_inner_mask(word, mask)
        {
            match removed.count_ones() {
                0 => return Ok(()),
                1 => self.trail.removals.push(Removal {
                    var: index as u32,
                    offset: 64 * word as u32 + removed.trailing_zeros(),
                }),
                _ => self.trail.words.push(WordRemoval {
                    var: index as u32,
                    word: word as u32,
                    mask: removed,
                }),
            }
            // Both bounds stay, so the domain keeps two values at least: no fixing, no wipe-out.
            self.record(var, crate::EventSet::REMOVAL);
            return Ok(());
        }
        let mut bits = mask;
        while bits != 0 {
            let value = i64::from(first) + i64::from(bits.trailing_zeros());
            bits &= bits - 1;
            // A value beyond the `i32` range is in no domain.
            if let Ok(value) = i32::try_from(value) {
                self.remove_value(var, value)?;
            }
        }
        Ok(())
    }

    /// Which word of the variable's bits starts at value `first`, if its domain is a bit set (of
    /// its own, inline or interleaved) with a word there.
    fn word_starting_at(&self, index: usize, first: i32) -> Option<usize> {
        let (Repr::Word { base, .. } | Repr::Bits { base, .. } | Repr::Strided { base, .. }) =
            self.reprs[index]
        else {
            return None;
        };
        let offset = i64::from(first) - i64::from(base);
        (offset >= 0 && offset % 64 == 0).then_some((offset / 64) as usize)
    }
}

#[cfg(test)]
mod tests {
    use rand::RngExt;

    use super::*;
    use crate::{Checkpoint, ModelBuilder, rng_for};

    /// Removing a word's values at once does exactly what removing each in turn does, on every
    /// representation (interleaved bit sets, a bit set of its own, materialised or not, an inline
    /// word, intervals): the same answer, domains and pending events, and the same domains after
    /// undoing to any earlier checkpoint, with bound changes between the removals (so that undo
    /// restores words and bounds in either order). Masks are drawn aligned and not, dense and
    /// sparse, inside the bounds and across them.
    #[test]
    fn removing_a_mask_is_removing_each_value_in_turn() {
        let mut builder = ModelBuilder::new();
        let mut vars: Vec<VarId> = (0..40)
            .map(|k| builder.int_var(format!("g{k}"), -3..=300).unwrap())
            .collect();
        vars.push(builder.int_var("own", -70..=400).unwrap());
        vars.push(builder.int_var("word", 5..=60).unwrap());
        vars.push(builder.int_var("spans", -100_000..=100_000).unwrap());
        let model = builder.build();
        let mut masked = Store::new(&model);
        let mut lazy = Store::with_lazy_domains(&model);
        let mut one_by_one = Store::new(&model);
        assert_eq!(masked.groups.len(), 1, "the 40 alike are interleaved");
        let mut rng = rng_for(23, 0);
        let mut word_entries = 0;
        for round in 0..40 {
            let tracking = round % 2 == 1;
            for store in [&mut masked, &mut lazy, &mut one_by_one] {
                store.set_tracking(tracking);
            }
            let mut marks: Vec<[Checkpoint; 3]> = Vec::new();
            for _ in 0..60 {
                let v = vars[rng.random_range(0..vars.len())];
                let (lo, hi) = (one_by_one.lb(v), one_by_one.ub(v));
                let base = one_by_one.domain(v).span_lo();
                match rng.random_range(0..6u32) {
                    0 => marks.push([
                        masked.checkpoint(),
                        lazy.checkpoint(),
                        one_by_one.checkpoint(),
                    ]),
                    1 if lo < hi => {
                        let (new_lo, new_hi) = (
                            i64::from(lo) + rng.random_range(0..3i64),
                            i64::from(hi) - rng.random_range(0..3i64),
                        );
                        let answers = [&mut masked, &mut lazy, &mut one_by_one]
                            .map(|store| store.set_bounds(v, new_lo, new_hi));
                        assert_eq!(answers[0], answers[2]);
                        assert_eq!(answers[1], answers[2]);
                    }
                    _ => {
                        // A word of the domain's bits, or any start at all.
                        let first = if rng.random_range(0..4) == 0 {
                            rng.random_range(lo.saturating_sub(70)..=hi)
                        } else {
                            let words = (i64::from(hi) - i64::from(base)) / 64 + 1;
                            (i64::from(base) + 64 * rng.random_range(0..words)) as i32
                        };
                        let mask = match rng.random_range(0..3u32) {
                            0 => rng.random::<u64>(),
                            1 => rng.random::<u64>() & rng.random::<u64>() & rng.random::<u64>(),
                            _ => 1 << rng.random_range(0..64u32),
                        };
                        let before = masked.trail.words.len();
                        let fast = masked.remove_mask(v, first, mask);
                        word_entries += masked.trail.words.len() - before;
                        let lazy_answer = lazy.remove_mask(v, first, mask);
                        let slow = (|| {
                            for i in 0..64 {
                                if mask >> i & 1 == 1 {
                                    one_by_one.remove_value(v, first + i)?;
                                }
                            }
                            Ok(())
                        })();
                        assert_eq!(fast, slow, "{v:?} {first} {mask:#x}");
                        assert_eq!(lazy_answer, slow, "{v:?} {first} {mask:#x}");
                        assert_eq!(masked.pending, one_by_one.pending);
                        assert_eq!(masked.modified, one_by_one.modified);
                        if slow.is_err() {
                            let mark = marks.pop().unwrap_or_default();
                            masked.undo_to(&model, mark[0]);
                            lazy.undo_to(&model, mark[1]);
                            one_by_one.undo_to(&model, mark[2]);
                        }
                    }
                }
                // Views are equal when they hold the same values, whatever their representation.
                for &u in &vars {
                    assert_eq!(masked.domain(u), one_by_one.domain(u), "{u:?}");
                    assert_eq!(lazy.domain(u), one_by_one.domain(u), "{u:?}");
                }
                if rng.random_range(0..6) == 0
                    && let Some(mark) = marks.pop()
                {
                    masked.undo_to(&model, mark[0]);
                    lazy.undo_to(&model, mark[1]);
                    one_by_one.undo_to(&model, mark[2]);
                }
            }
            masked.undo_to(&model, Checkpoint::default());
            lazy.undo_to(&model, Checkpoint::default());
            one_by_one.undo_to(&model, Checkpoint::default());
            for &u in &vars {
                assert_eq!(masked.domain(u), model.initial_domains()[u.index()].view());
            }
        }
        assert!(
            word_entries > 100,
            "only {word_entries} word removals were trailed"
        );
    }
}
