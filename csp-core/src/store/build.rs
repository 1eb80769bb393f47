//! Building a store for a model: its initial domains, with same-sized bit sets interleaved.

use fixedbitset::FixedBitSet;

use super::{Checkpoint, Group, INTERLEAVE_MIN_GROUP, Location, Store, Trail};
use crate::domain::{Repr, whole_span_words, words_for};
use crate::{Domain, EventSet, Model};

impl Store {
    /// A fresh store for `model`: initial domains, nothing assigned, all state cells zero.
    pub fn new(model: &Model) -> Self {
        Self::build(model, false)
    }

    /// [`Store::new`] for a search that will have the store keep a rows-and-lines constraint's
    /// forward checking ([`Store::keep_lines`]): the bit sets of the rows it would keep are left
    /// unmaterialised. A kept row's domain is read from the lines and its bits are never touched,
    /// and on a board of `n ≤ BITSET_MAX_SPAN` columns they are n² bits (512 MiB at 65,536, and
    /// as much again in the root's copy). Should the lines not be kept after all, a row's bits are
    /// allocated at its first removal, as [`Store::with_lazy_domains`]'.
    pub fn new_for_kept_lines(model: &Model) -> Self {
        Self::build(model, true)
    }

    fn build(model: &Model, spare_kept_rows: bool) -> Self {
        let mut store = Self::with_domains(model, model.initial_domains().to_vec());
        let spared = spare_kept_rows
            .then(|| store.keepable_rule(model))
            .flatten()
            .map_or(0..0, |(rule, _)| {
                rule.first.index()..rule.first.index() + rule.rows
            });
        store.interleave(&spared);
        // Materialised now, so that pruning during search never allocates (a lazily whole bit
        // set allocates its words at its first removal).
        for (index, repr) in store.reprs.iter_mut().enumerate() {
            if let Repr::Bits { width, words, .. } = repr
                && words.is_empty()
                && !spared.contains(&index)
            {
                *words = whole_span_words(*width);
            }
        }
        store
    }

    /// Moves the bit words of every group of at least [`INTERLEAVE_MIN_GROUP`] materialised bit-set
    /// domains with the same declared span into one interleaved block (see [`Store`]'s layout),
    /// but for those of `spared`, which stay as they are.
    fn interleave(&mut self, spared: &std::ops::Range<usize>) {
        let mut spans: std::collections::BTreeMap<(i32, u32), Vec<usize>> = Default::default();
        for (index, repr) in self.reprs.iter().enumerate() {
            if let Repr::Bits { base, width, .. } = repr
                && !spared.contains(&index)
            {
                spans.entry((*base, *width)).or_default().push(index);
            }
        }
        for ((base, width), members) in spans {
            if members.len() < INTERLEAVE_MIN_GROUP {
                continue;
            }
            let stride = members.len();
            let mut words = vec![0u64; words_for(width) * stride].into_boxed_slice();
            let group = self.groups.len() as u32;
            for (slot, &index) in members.iter().enumerate() {
                let own = std::mem::replace(
                    &mut self.reprs[index],
                    Repr::Strided {
                        base,
                        width,
                        group,
                        slot: slot as u32,
                    },
                );
                let Repr::Bits { words: own, .. } = own else {
                    unreachable!("grouped as a bit set")
                };
                // A lazily whole span (no words yet) is written whole, without allocating its own.
                let whole;
                let own = if own.is_empty() {
                    whole = whole_span_words(width);
                    &whole
                } else {
                    &own
                };
                for (w, &word) in own.iter().enumerate() {
                    words[w * stride + slot] = word;
                }
                self.locations[index] = Location {
                    group,
                    slot: slot as u32,
                };
            }
            self.groups.push(Group {
                words,
                stride,
                base,
            });
        }
    }

    /// A fresh store whose bit-set domains that hold their whole span stay unmaterialised until a value
    /// inside them is removed, so it costs O(1) per variable instead of a bit per value.
    ///
    /// For building one assignment by checks alone — a greedy start for local search, say — over
    /// domains too wide for a bit each. The first removal from a domain allocates its bits, so a tree
    /// search should use [`Store::new`].
    pub fn with_lazy_domains(model: &Model) -> Self {
        Self::with_domains(model, model.initial_domains().to_vec())
    }

    fn with_domains(model: &Model, domains: Vec<Domain>) -> Self {
        let (headers, reprs) = domains.into_iter().map(Domain::into_parts).unzip();
        Store {
            headers,
            reprs,
            groups: Vec::new(),
            locations: vec![
                Location {
                    group: Location::NONE,
                    slot: 0,
                };
                model.num_vars()
            ],
            values: vec![0; model.num_vars()],
            assigned: FixedBitSet::with_capacity(model.num_vars()),
            num_assigned: 0,
            free: model.vars().collect(),
            free_position: (0..model.num_vars() as u32).collect(),
            cells: vec![0; model.num_cells()],
            unassigned_in_scope: model
                .constraint_ids()
                .map(|c| model.constraint(c).scope().len() as u32)
                .collect(),
            trail: Trail::default(),
            floor: Checkpoint::default(),
            forgotten_assignments: Vec::new(),
            root: None,
            tracking: model.notifies(),
            always_tracking: model.notifies(),
            queueing: false,
            profile: crate::PropagationProfile::Strongest,
            pending: vec![EventSet::EMPTY; model.num_vars()],
            modified: Vec::new(),
            queues: Default::default(),
            queued: FixedBitSet::with_capacity(model.num_constraints()),
            propagations: 0,
            log: None,
            lines: None,
        }
    }
}
