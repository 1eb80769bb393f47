//! Compacting the newest part of the trail: one entry per bound and per cell where many were
//! recorded with no checkpoint between them.

use hashbrown::HashMap;

use super::{ASSIGNMENT, BoundChange, Checkpoint, Store};

impl Store {
    /// Keeps, of the changes recorded since `from`, only what undoing back to `from` needs: for each
    /// variable the bounds it had at `from` (its oldest bound entry, with the values of all of them
    /// counted), for each state cell its value at `from`, and every removal and assignment as
    /// recorded. Undoing to `from` afterwards restores exactly what it restored before.
    ///
    /// A search that keeps deciding without a checkpoint of its own (a binary node's last
    /// alternative, taken in place of the node) calls this now and then, so that a walk through
    /// millions of such decisions keeps a trail the size of the model rather than of the walk.
    ///
    /// No checkpoint taken after `from` may be undone to afterwards: its position may no longer
    /// exist. `from` must not lie in the forgotten part of the trail.
    pub fn compact_trail_since(&mut self, from: Checkpoint) {
        debug_assert!(
            from >= self.floor,
            "compaction of a forgotten part of the trail"
        );
        let bounds_from = from.bounds - self.floor.bounds;
        let cells_from = from.cells - self.floor.cells;
        compact_bounds(&mut self.trail.bounds, bounds_from);
        compact_cells(&mut self.trail.cells, cells_from);
    }
}

/// Merges every plain bound change after `from` into the oldest one of its variable there: undone
/// newest first, a run of changes to one variable ends at the bounds the oldest saved, whatever
/// lies between, and the values each removed add up. Assignments stay as they are, in order: each
/// one's undo also takes the variable off the assigned set, newest first.
fn compact_bounds(bounds: &mut Vec<BoundChange>, from: usize) {
    let mut oldest: HashMap<u32, usize> = HashMap::new();
    let mut kept = from;
    for i in from..bounds.len() {
        let change = bounds[i];
        if change.var & ASSIGNMENT == 0
            && let Some(&at) = oldest.get(&change.var)
        {
            bounds[at].removed += change.removed;
            continue;
        }
        if change.var & ASSIGNMENT == 0 {
            oldest.insert(change.var, kept);
        }
        bounds[kept] = change;
        kept += 1;
    }
    bounds.truncate(kept);
}

/// Keeps, after `from`, only the oldest write of each cell: it holds the value to restore.
fn compact_cells(cells: &mut Vec<(u32, i64)>, from: usize) {
    let mut seen: HashMap<u32, ()> = HashMap::new();
    let mut kept = from;
    for i in from..cells.len() {
        let (cell, old) = cells[i];
        if seen.insert(cell, ()).is_none() {
            cells[kept] = (cell, old);
            kept += 1;
        }
    }
    cells.truncate(kept);
}

#[cfg(test)]
mod tests {
    use rand::RngExt;

    use crate::{Domain, ModelBuilder, Store, VarId, rng_for};

    /// Drives a store through random bound changes, removals, assignments and cell writes after a
    /// checkpoint, compacting now and then, and checks that undoing to the checkpoint restores
    /// every domain, the assigned set and every cell as they were.
    #[test]
    fn undoing_a_compacted_trail_restores_what_the_whole_trail_did() {
        let mut rng = rng_for(7, 0);
        for round in 0..200 {
            let mut builder = ModelBuilder::new();
            let vars: Vec<VarId> = (0..6)
                .map(|i| {
                    builder
                        .int_var(format!("x{i}"), -(i * 7)..=40 + i * 13)
                        .unwrap()
                })
                .collect();
            let model = builder.build();
            let mut store = Store::new(&model);
            store.cells = vec![0; 5];
            // Some history before the checkpoint, which compaction must leave alone.
            let _ = store.set_bounds(vars[0], -3, 30);
            let _ = store.remove_value(vars[1], 5);
            let from = store.checkpoint();
            let before: Vec<Domain> = vars.iter().map(|&v| store.domain(v).to_domain()).collect();
            let cells_before = store.cells.clone();
            let assigned_before = store.num_assigned();
            for step in 0..60 {
                let var = vars[rng.random_range(0..vars.len())];
                let domain = store.domain(var).to_domain();
                let (Some(lo), Some(hi)) = (domain.min(), domain.max()) else {
                    continue;
                };
                match rng.random_range(0..5u32) {
                    0 if lo < hi => {
                        let _ = store.set_bounds(var, i64::from(lo) + 1, i64::MAX);
                    }
                    1 if lo < hi => {
                        let _ = store.set_bounds(var, i64::MIN, i64::from(hi) - 1);
                    }
                    2 if lo + 1 < hi => {
                        let _ = store.remove_value(var, lo + 1);
                    }
                    3 if !store.is_assigned(var) && step % 7 == 0 => {
                        store.assign(&model, var, hi);
                    }
                    _ => {
                        let cell = rng.random_range(0..5usize);
                        store.set_cell(cell, rng.random_range(0..1000i64));
                    }
                }
                if rng.random_range(0..8u32) == 0 {
                    store.compact_trail_since(from);
                }
            }
            store.compact_trail_since(from);
            store.undo_to(&model, from);
            for (i, &v) in vars.iter().enumerate() {
                assert_eq!(
                    store.domain(v).to_domain(),
                    before[i],
                    "round {round}, {v:?}"
                );
            }
            assert_eq!(store.cells, cells_before, "round {round}");
            assert_eq!(store.num_assigned(), assigned_before, "round {round}");
        }
    }
}
