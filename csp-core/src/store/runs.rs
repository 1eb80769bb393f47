//! Forward checking along a run of consecutive variables: a few values removed from each unassigned
//! one, with the interleaved group they share looked up once rather than once a value.

use std::ops::Range;

use super::{Location, Removal, Store};
use crate::domain::Header;
use crate::{VarId, Wipeout};

/// How many trail entries [`Store::scan_run`] stages before appending them to the trail: every value
/// of a block of 64 variables, for up to four values a variable.
const STAGED: usize = 4 * 64;

/// An interleaved group's words, as [`Store::scan_run`] holds them for a whole run.
struct Words<'a> {
    words: &'a mut [u64],
    stride: usize,
    base: i32,
}

/// What [`Words::strip`] did with a value.
enum Strip {
    /// The value lies on a bound of its domain, and removing it moves the bound: left to the
    /// general path.
    OnBound,
    /// The value was outside the bounds (`removed` 0, `offset` meaningless) or strictly inside
    /// them, and is gone: `removed` is 1 if it was there.
    Done { offset: u32, removed: u64 },
}

impl Words<'_> {
    /// Removes `value` from the domain in `slot` whose header is `header`, if it lies strictly
    /// inside its bounds.
    #[inline(always)]
    fn strip(&mut self, header: &mut Header, slot: usize, value: i32) -> Strip {
        if value <= header.lo || value >= header.hi {
            if value == header.lo || value == header.hi {
                return Strip::OnBound;
            }
            return Strip::Done {
                offset: 0,
                removed: 0,
            };
        }
        let offset = value.wrapping_sub(self.base) as u32;
        let word = &mut self.words[offset as usize / 64 * self.stride + slot];
        let removed = (*word >> (offset % 64)) & 1;
        *word &= !(1 << (offset % 64));
        header.size -= removed;
        Strip::Done { offset, removed }
    }
}

/// Where a resumed scan of a run starts: the variable's index and which of its values comes next.
#[derive(Clone, Copy)]
struct Resume {
    index: usize,
    value: usize,
}

impl Store {
    /// For each unassigned variable of `vars` (indices, ascending), removes the values `values(i)`
    /// lists for it, `i` being the variable's index, in the order listed: exactly what calling
    /// [`Store::remove_value`] for each would do, in the same order, stopping at the first
    /// [`Wipeout`]. A value outside the variable's domain is no change, as it is for
    /// `remove_value`.
    ///
    /// This is forward checking as a global constraint does it when its scope is a run of
    /// variables (the rows of an N-queens board, one queen removing her column and diagonals from
    /// every other row). When the run's bit sets are interleaved in one group and no event or
    /// change is being recorded (forward checking), a value strictly inside its variable's bounds
    /// costs a header, a bit word and a trail entry, with the group's words, stride and base held
    /// for the whole run, where `remove_value` looks up the variable's location, its group and the
    /// group's fields again for every value. `vars` must be indices of the store's variables.
    pub fn remove_from_unassigned<const K: usize>(
        &mut self,
        vars: Range<usize>,
        values: impl Fn(usize) -> [i32; K],
    ) -> Result<(), Wipeout> {
        if vars.is_empty() {
            return Ok(());
        }
        // The staging buffer of the fast scan holds four values a variable.
        let Some((group, first_slot)) = self.plain_run_group(&vars).filter(|_| K <= 4) else {
            return self.remove_from_unassigned_slowly(vars, values);
        };
        let mut from = Resume {
            index: vars.start,
            value: 0,
        };
        // The fast scan stops at a value on a bound, which moves the bound (and can empty the
        // domain): the general path removes it, and the scan resumes just after it.
        while let Some(stop) = self.scan_run(group, first_slot, &vars, from, &values) {
            let value = values(stop.index)[stop.value];
            self.remove_value(VarId::from_index(stop.index), value)?;
            from = Resume {
                index: stop.index,
                value: stop.value + 1,
            };
        }
        Ok(())
    }

    /// The group and the first variable's slot, when every variable of `vars` lies in one
    /// interleaved group at consecutive slots and nothing but the domains and the trail is being
    /// kept (no events, no change log).
    fn plain_run_group(&self, vars: &Range<usize>) -> Option<(usize, usize)> {
        if self.tracking || self.log.is_some() {
            return None;
        }
        let first = self.locations[vars.start];
        let last = self.locations[vars.end - 1];
        // Slots are given in ascending variable order (see `Store::interleave`), so a group whose
        // slots span the run exactly holds it at consecutive slots.
        let consecutive = first.group != Location::NONE
            && first.group == last.group
            && (last.slot - first.slot) as usize == vars.len() - 1;
        consecutive.then_some((first.group as usize, first.slot as usize))
    }

    /// Removes the values of the unassigned variables of `vars` from `from` on, strictly inside
    /// their bounds, until one lies on a bound: that one is returned, not removed.
    ///
    /// This is the inner loop of forward checking on a large board (n²/2 rows visited on one path
    /// of an n-queens search), so it is written for instructions: a resumed variable's remaining
    /// values are done first, so that the main loop takes every listed value of a variable with a
    /// loop the compiler unrolls, and the trail entries of a block of 64 variables are staged on
    /// the stack and appended with one copy, where a push per value checked the trail's capacity
    /// and reloaded its length each time.
    fn scan_run<const K: usize>(
        &mut self,
        group: usize,
        first_slot: usize,
        vars: &Range<usize>,
        from: Resume,
        values: &impl Fn(usize) -> [i32; K],
    ) -> Option<Resume> {
        let group = &mut self.groups[group];
        let mut words = Words {
            words: &mut group.words[..],
            stride: group.stride,
            base: group.base,
        };
        let headers = &mut self.headers[..];
        let removals = &mut self.trail.removals;
        let assigned = self.assigned.as_slice();
        let bits = usize::BITS as usize;
        let mut start = from.index;
        if from.value > 0 {
            // The rest of the values of the variable whose scan stopped on a bound.
            let index = from.index;
            let slot = first_slot + (index - vars.start);
            let listed = values(index);
            for (k, &value) in listed.iter().enumerate().skip(from.value) {
                match words.strip(&mut headers[index], slot, value) {
                    Strip::OnBound => return Some(Resume { index, value: k }),
                    Strip::Done { offset, removed } => {
                        if removed != 0 {
                            removals.push(Removal {
                                var: index as u32,
                                offset,
                            });
                        }
                    }
                }
            }
            start += 1;
        }
        if start >= vars.end {
            return None;
        }
        let mut staged = [Removal { var: 0, offset: 0 }; STAGED];
        // The unassigned variables, ascending, a word of the assigned set at a time.
        let first_block = start / bits;
        let blocks = &assigned[first_block..vars.end.div_ceil(bits)];
        for (block, &assigned_bits) in (first_block..).zip(blocks) {
            let block_start = block * bits;
            let mut unassigned = !assigned_bits;
            if block_start < start {
                unassigned &= usize::MAX << (start - block_start);
            }
            if block_start + bits > vars.end {
                unassigned &= usize::MAX >> (block_start + bits - vars.end);
            }
            let mut kept = 0;
            let mut stop = None;
            'block: while unassigned != 0 {
                let index = block_start + unassigned.trailing_zeros() as usize;
                unassigned &= unassigned - 1;
                let slot = first_slot + (index - vars.start);
                let header = &mut headers[index];
                let listed = values(index);
                for (k, &value) in listed.iter().enumerate() {
                    match words.strip(header, slot, value) {
                        Strip::OnBound => {
                            stop = Some(Resume { index, value: k });
                            break 'block;
                        }
                        Strip::Done { offset, removed } => {
                            // Written either way and kept only if the value was there: no branch
                            // on the bit, which is as likely set as not (see
                            // `Store::record_inner_removal`).
                            staged[kept] = Removal {
                                var: index as u32,
                                offset,
                            };
                            kept += removed as usize;
                        }
                    }
                }
            }
            removals.extend_from_slice(&staged[..kept]);
            if stop.is_some() {
                return stop;
            }
        }
        None
    }

    /// [`Store::remove_from_unassigned`] one value at a time through [`Store::remove_value`].
    fn remove_from_unassigned_slowly<const K: usize>(
        &mut self,
        vars: Range<usize>,
        values: impl Fn(usize) -> [i32; K],
    ) -> Result<(), Wipeout> {
        for index in vars {
            if !self.assigned.contains(index) {
                for value in values(index) {
                    self.remove_value(VarId::from_index(index), value)?;
                }
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use rand::RngExt;

    use super::*;
    use crate::{ModelBuilder, rng_for};

    /// Removing along a run does exactly what removing each value in turn does, whether the run
    /// lies in one interleaved group (the fast scan), in part of one, or in separate domains:
    /// the same answer, the same domains, and the same domains again after undoing. The values
    /// drawn include bounds (the scan hands those to the general path), values outside the
    /// domain and repeats; random assignments make the scan skip variables.
    #[test]
    fn removing_along_a_run_is_removing_each_value_in_turn() {
        let mut builder = ModelBuilder::new();
        let grouped: Vec<VarId> = (0..70)
            .map(|k| builder.int_var(format!("g{k}"), -3..=200).unwrap())
            .collect();
        let apart: Vec<VarId> = (0..5)
            .map(|k| builder.int_var(format!("a{k}"), 0..=40).unwrap())
            .collect();
        let model = builder.build();
        let vars: Vec<VarId> = grouped.iter().chain(&apart).copied().collect();
        let mut run_store = Store::new(&model);
        let mut one_by_one = Store::with_lazy_domains(&model);
        assert_eq!(run_store.groups.len(), 1);
        let mut rng = rng_for(11, 0);
        for _ in 0..300 {
            let checkpoints = [run_store.checkpoint(), one_by_one.checkpoint()];
            // A run inside the group, or one reaching past it into the separate domains.
            let start = rng.random_range(0..grouped.len());
            let end = if rng.random_range(0..4) == 0 {
                rng.random_range(grouped.len()..=vars.len())
            } else {
                rng.random_range(start + 1..=grouped.len())
            };
            for _ in 0..rng.random_range(0..3) {
                let v = vars[rng.random_range(start..end)];
                if !run_store.is_assigned(v) {
                    let value = run_store.lb(v);
                    run_store.assign(&model, v, value);
                    one_by_one.assign(&model, v, value);
                }
            }
            // Bounds (which the scan hands to the general path) and repeats, often.
            let table: Vec<[i32; 3]> = vars
                .iter()
                .map(|&v| {
                    let mut listed = [(); 3].map(|()| rng.random_range(-5..=202));
                    match rng.random_range(0..4) {
                        0 => listed[1] = run_store.lb(v),
                        1 => listed[0] = run_store.ub(v),
                        2 => listed[2] = listed[0],
                        _ => {}
                    }
                    listed
                })
                .collect();
            let values = |index: usize| table[index];
            let fast = run_store.remove_from_unassigned(start..end, values);
            let slow = (|| {
                for index in start..end {
                    if !one_by_one.is_assigned(VarId::from_index(index)) {
                        for value in values(index) {
                            one_by_one.remove_value(VarId::from_index(index), value)?;
                        }
                    }
                }
                Ok(())
            })();
            assert_eq!(fast, slow);
            for &v in &vars {
                assert_eq!(run_store.domain(v), one_by_one.domain(v), "{v:?}");
                assert_eq!(
                    run_store.domain(v).values().collect::<Vec<_>>(),
                    one_by_one.domain(v).values().collect::<Vec<_>>()
                );
            }
            if fast.is_err() || rng.random_range(0..5) == 0 {
                run_store.undo_to(&model, checkpoints[0]);
                one_by_one.undo_to(&model, checkpoints[1]);
            }
        }
    }
}
