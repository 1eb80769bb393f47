//! Your own model, your own variable ordering, your own observer — on the engine, through the public
//! API only.
//!
//! The model: colour the Petersen graph (10 vertices, 15 edges) with 3 colours, adjacent vertices
//! differing. The ordering: Brélaz's DSATUR rule, written here from scratch — the vertex whose
//! coloured neighbours already use the most distinct colours, then the most uncoloured neighbours, then
//! the lowest index. The observer counts dead ends per level.
//!
//! ```sh
//! cargo run --example custom_heuristic
//! ```

use std::ops::ControlFlow;

use csp::core::{Model, ModelBuilder, VarId, constraints::NotEqual};
use csp::search::{
    Outcome, Propagation, Search, SearchEvent, SearchObserver, SelectCtx, VariableOrder,
    value::Ascending,
};

/// The Petersen graph: an outer 5-cycle, an inner pentagram, and five spokes.
const EDGES: [(usize, usize); 15] = [
    (0, 1),
    (1, 2),
    (2, 3),
    (3, 4),
    (4, 0),
    (5, 7),
    (7, 9),
    (9, 6),
    (6, 8),
    (8, 5),
    (0, 5),
    (1, 6),
    (2, 7),
    (3, 8),
    (4, 9),
];

/// DSATUR: the most distinct colours among coloured neighbours, then the most uncoloured neighbours.
struct Dsatur {
    neighbours: Vec<Vec<VarId>>,
}

impl VariableOrder for Dsatur {
    fn select(&mut self, ctx: &SelectCtx<'_>) -> Option<VarId> {
        let store = ctx.store();
        ctx.unassigned().max_by_key(|&v| {
            let mut colours: Vec<i32> = self.neighbours[v.index()]
                .iter()
                .filter_map(|&w| store.value(w))
                .collect();
            colours.sort_unstable();
            colours.dedup();
            let uncoloured = self.neighbours[v.index()]
                .iter()
                .filter(|&&w| !store.is_assigned(w))
                .count();
            // max_by_key keeps the last maximum; Reverse(index) makes ties go to the lowest index.
            (colours.len(), uncoloured, std::cmp::Reverse(v))
        })
    }
}

/// Counts dead ends per level: where the search had to turn back.
#[derive(Default)]
struct DeadEnds {
    per_level: Vec<u64>,
}

impl SearchObserver for DeadEnds {
    fn on_event(&mut self, event: &SearchEvent<'_>) -> ControlFlow<()> {
        if let SearchEvent::DeadEnd { level } = *event {
            let index = level as usize - 1;
            if self.per_level.len() <= index {
                self.per_level.resize(index + 1, 0);
            }
            self.per_level[index] += 1;
        }
        ControlFlow::Continue(())
    }
}

fn petersen(colours: i32) -> Result<(Model, Vec<Vec<VarId>>), csp::core::ModelError> {
    let mut builder = ModelBuilder::new();
    let vertices: Vec<VarId> = (0..10)
        .map(|i| builder.int_var(format!("v{i}"), 0..=colours - 1))
        .collect::<Result<_, _>>()?;
    let mut neighbours = vec![Vec::new(); vertices.len()];
    for (a, b) in EDGES {
        builder.post(NotEqual::new(vertices[a], vertices[b]))?;
        neighbours[a].push(vertices[b]);
        neighbours[b].push(vertices[a]);
    }
    Ok((builder.build(), neighbours))
}

fn main() -> Result<(), csp::core::ModelError> {
    // Three colours suffice (the Petersen graph has chromatic number 3) ...
    let (model, neighbours) = petersen(3)?;
    let mut search = Search::with_orders(
        &model,
        Propagation::ForwardChecking,
        Dsatur { neighbours },
        Ascending,
    );
    let mut dead_ends = DeadEnds::default();
    let colouring = search
        .next_solution(&mut dead_ends)
        .expect("the Petersen graph is 3-colourable")
        .to_vec();
    assert!(
        model.is_solution(&colouring),
        "checked by the constraints' own checkers"
    );
    assert!(EDGES.iter().all(|&(a, b)| colouring[a] != colouring[b]));
    println!("3-colouring: {colouring:?}");
    println!(
        "{} nodes, {} backtracks, dead ends per level {:?}",
        search.stats().nodes,
        search.stats().backtracks,
        dead_ends.per_level
    );

    // ... and two do not: it has odd cycles. "No solution" is an outcome, not an error.
    let (model, neighbours) = petersen(2)?;
    let mut search = Search::with_orders(
        &model,
        Propagation::ForwardChecking,
        Dsatur { neighbours },
        Ascending,
    );
    assert!(search.next_solution(&mut ()).is_none());
    assert_eq!(search.outcome(), Some(Outcome::Exhausted));
    println!(
        "2 colours: no colouring exists (proven in {} nodes)",
        search.stats().nodes
    );
    Ok(())
}

#[test]
fn the_example_runs_and_its_checks_hold() {
    main().expect("the models are valid");
}
