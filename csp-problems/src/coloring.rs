//! Graph colouring: give every vertex one of k colours so that adjacent vertices differ, or prove
//! that k colours cannot do it; and the chromatic number, the fewest colours that can.
//!
//! The model has a variable per vertex (colours `0..k`) and a `≠` constraint per edge. Colours are
//! interchangeable, so the model pins the vertices of a clique (found greedily) to colours 0, 1, 2, …:
//! every colouring can be renamed to agree, so nothing is lost, and a proof that k colours fail no
//! longer has to refute each renaming of every partial colouring. The clique also bounds the
//! chromatic number from below.

use std::ops::ControlFlow;

use csp_core::constraints::NotEqual;
use csp_core::{Model, ModelBuilder, ModelError, VarId};
use csp_search::{
    FnObserver, Outcome, Propagation, SearchConfig, SearchEvent, SearchObserver, SearchResult,
    VariableOrderKind, solve,
};
use thiserror::Error;

use crate::dimacs::Graph;

/// The most vertex-colour pairs a model may have: a bit each in the domains, and up to 8 bytes each
/// on the trail of a search, so at most about 1 GiB.
pub const MAX_CELLS: usize = 1 << 27;

/// The k-colouring model of a graph, and where each vertex's variable is.
#[derive(Debug)]
pub struct ColoringModel {
    /// The model: a variable per vertex, named `v{vertex + 1}` as the file numbers it, with colours
    /// `0..colors`, and a `≠` per edge.
    pub model: Model,
    /// Vertex `i`'s variable. The pinned vertices are declared first, so that an ordering that
    /// follows the model (LEX) colours them before anything can clash with them; the others follow in
    /// file order.
    pub vertex_vars: Vec<VarId>,
}

impl ColoringModel {
    /// A solution of the model (`values[var]`) as a colouring in vertex order.
    pub fn coloring(&self, values: &[i32]) -> Vec<u32> {
        self.vertex_vars
            .iter()
            .map(|var| values.get(var.index()).map_or(0, |&c| c as u32))
            .collect()
    }
}

/// The k-colouring model of `graph`, with `pinned[j]` fixed to colour `j`. `pinned` must be a clique
/// of at most `colors` distinct vertices (else the pinning would rule out colourings); see
/// [`greedy_clique`].
pub fn model(graph: &Graph, colors: usize, pinned: &[usize]) -> Result<ColoringModel, ModelError> {
    let top = i32::try_from(colors)
        .ok()
        .and_then(|c| c.checked_sub(1))
        .ok_or_else(|| ModelError::InvalidConstraint {
            constraint: "colouring".to_owned(),
            reason: format!("{colors} colours cannot be modelled (1 to 2^31 - 1 are)"),
        })?;
    if graph.vertices().saturating_mul(colors) > MAX_CELLS {
        return Err(ModelError::InvalidConstraint {
            constraint: "colouring".to_owned(),
            reason: format!(
                "{} vertices times {colors} colours is more than the {MAX_CELLS} vertex-colour pairs \
                 a model may have",
                graph.vertices()
            ),
        });
    }
    if pinned.len() > colors || pinned.iter().any(|&v| v >= graph.vertices()) {
        return Err(ModelError::InvalidConstraint {
            constraint: "colouring".to_owned(),
            reason: format!("cannot pin {pinned:?} to {colors} colours"),
        });
    }
    let mut builder = ModelBuilder::new();
    let mut vertex_vars: Vec<Option<VarId>> = vec![None; graph.vertices()];
    for (color, &vertex) in pinned.iter().enumerate() {
        let var = builder.int_var_with_values(format!("v{}", vertex + 1), [color as i32])?;
        vertex_vars[vertex] = Some(var);
    }
    for (vertex, slot) in vertex_vars.iter_mut().enumerate() {
        if slot.is_none() {
            *slot = Some(builder.int_var(format!("v{}", vertex + 1), 0..=top)?);
        }
    }
    let vertex_vars: Vec<VarId> = vertex_vars.into_iter().flatten().collect();
    for &(u, v) in graph.edges() {
        builder.post(NotEqual::new(vertex_vars[u], vertex_vars[v]))?;
    }
    Ok(ColoringModel {
        model: builder.build(),
        vertex_vars,
    })
}

/// A maximal clique, grown greedily from each of the highest-degree vertices in turn (by falling
/// degree among the common neighbours), the largest kept. Not always a maximum clique, but on the
/// DIMACS instances it usually meets the chromatic number, which then needs no search to prove.
pub fn greedy_clique(graph: &Graph) -> Vec<usize> {
    /// How many seeds to try: enough for small graphs to try every vertex, bounded for large ones.
    const SEEDS: usize = 256;
    let neighbours = graph.neighbours();
    let mut by_degree: Vec<usize> = (0..graph.vertices()).collect();
    by_degree.sort_by_key(|&v| (std::cmp::Reverse(neighbours[v].len()), v));
    let mut best: Vec<usize> = by_degree.first().map(|&v| vec![v]).unwrap_or_default();
    let adjacent = |u: usize, v: usize| neighbours[u].binary_search(&v).is_ok();
    for &seed in by_degree.iter().take(SEEDS) {
        let mut clique = vec![seed];
        let mut candidates: Vec<usize> = neighbours[seed].clone();
        candidates.sort_by_key(|&v| (std::cmp::Reverse(neighbours[v].len()), v));
        for v in candidates {
            if clique.iter().all(|&u| adjacent(u, v)) {
                clique.push(v);
            }
        }
        if clique.len() > best.len() {
            best = clique;
        }
    }
    best
}

/// Why a colouring is wrong.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum ColoringError {
    /// Not one colour per vertex.
    #[error("{found} colours given for {expected} vertices")]
    WrongLength {
        /// The number of vertices.
        expected: usize,
        /// The number of colours given.
        found: usize,
    },
    /// A colour outside `0..colors`.
    #[error("vertex {vertex} has colour {color}, but only colours 0 to {max} are allowed")]
    OutOfRange {
        /// From 1, as in the file.
        vertex: usize,
        /// Its colour.
        color: u32,
        /// The largest colour allowed.
        max: u64,
    },
    /// Two adjacent vertices share a colour.
    #[error("vertices {u} and {v} are adjacent and both have colour {color}")]
    Conflict {
        /// From 1.
        u: usize,
        /// From 1.
        v: usize,
        /// The shared colour.
        color: u32,
    },
}

/// Whether `coloring` (one colour per vertex, 0-based) gives adjacent vertices different colours from
/// `0..colors`. Independent of the engine: one pass over the vertices and one over the edges.
pub fn check(graph: &Graph, coloring: &[u32], colors: usize) -> Result<(), ColoringError> {
    if coloring.len() != graph.vertices() {
        return Err(ColoringError::WrongLength {
            expected: graph.vertices(),
            found: coloring.len(),
        });
    }
    for (vertex, &color) in coloring.iter().enumerate() {
        if color as usize >= colors {
            return Err(ColoringError::OutOfRange {
                vertex: vertex + 1,
                color,
                max: colors as u64 - u64::from(colors > 0),
            });
        }
    }
    for &(u, v) in graph.edges() {
        if coloring[u] == coloring[v] {
            return Err(ColoringError::Conflict {
                u: u + 1,
                v: v + 1,
                color: coloring[u],
            });
        }
    }
    Ok(())
}

/// How many distinct colours a colouring uses.
pub fn colors_used(coloring: &[u32]) -> usize {
    let mut colors: Vec<u32> = coloring.to_vec();
    colors.sort_unstable();
    colors.dedup();
    colors.len()
}

/// The search that colours well: dom/wdeg (lowest-index ties, ascending colours) with arc consistency
/// maintained, and no restarts.
///
/// `benches/problems.rs` compares it with fewest choices (where the search had work to do, dom/wdeg
/// took 1.2 to 8.7 times fewer nodes) and measures restarts: with random ties they cut the heavy tail of finding
/// a colouring (Luby restarts, [`csp_search::Restarts`]), but every restart throws away part of a proof that no
/// colouring exists, which made proofs many times slower; so they are an option, not the default.
pub fn default_config() -> SearchConfig {
    SearchConfig {
        variable_order: VariableOrderKind::DomWdeg,
        propagation: Propagation::Mac,
        restarts: None,
        ..SearchConfig::default()
    }
}

/// What became of one number of colours.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status {
    /// A colouring was found.
    Colored,
    /// The search proved that no colouring exists.
    NoColoring,
    /// A clique larger than the number of colours proves that no colouring exists, without search.
    CliqueTooLarge {
        /// The clique's size.
        clique: usize,
    },
    /// The search stopped first (a limit, or an observer): nothing is known.
    Unknown(Outcome),
}

/// One attempt to colour a graph with a given number of colours.
#[derive(Debug, Clone, PartialEq)]
pub struct Attempt {
    /// The number of colours allowed.
    pub colors: usize,
    /// What became of it.
    pub status: Status,
    /// The colouring found, 0-based, one colour per vertex in file order.
    pub coloring: Option<Vec<u32>>,
    /// The search, when one ran.
    pub result: Option<SearchResult>,
}

/// Tries to colour `graph` with `colors` colours, searching as `config` says (its solution limit is
/// taken as 1), streaming every event to `observer` too.
pub fn color<O: SearchObserver>(
    graph: &Graph,
    colors: usize,
    config: &SearchConfig,
    observer: O,
) -> Result<Attempt, ModelError> {
    color_with_clique(graph, colors, &greedy_clique(graph), config, observer)
}

fn color_with_clique<O: SearchObserver>(
    graph: &Graph,
    colors: usize,
    clique: &[usize],
    config: &SearchConfig,
    mut observer: O,
) -> Result<Attempt, ModelError> {
    let answer = |status, coloring| Attempt {
        colors,
        status,
        coloring,
        result: None,
    };
    if graph.vertices() == 0 {
        return Ok(answer(Status::Colored, Some(Vec::new())));
    }
    if clique.len() > colors {
        let status = Status::CliqueTooLarge {
            clique: clique.len(),
        };
        return Ok(answer(status, None));
    }
    // One more colour than the largest degree always suffices (colour greedily), so more are never
    // modelled: the answer is the same and the domains stay small.
    let modelled = colors.min(graph.max_degree() + 1);
    let model = model(graph, modelled, clique)?;
    let mut coloring = None;
    let keep = FnObserver(|event: &SearchEvent<'_>| {
        if let SearchEvent::Solution { values, .. } = event {
            coloring = Some(model.coloring(values));
        }
        ControlFlow::Continue(())
    });
    let config = SearchConfig {
        solution_limit: Some(1),
        ..config.clone()
    };
    let result = solve(&model.model, &config, (keep, &mut observer));
    let status = match (result.outcome, &coloring) {
        (_, Some(_)) => Status::Colored,
        (Outcome::Exhausted, None) => Status::NoColoring,
        (outcome, None) => Status::Unknown(outcome),
    };
    Ok(Attempt {
        colors,
        status,
        coloring,
        result: Some(result),
    })
}

/// The chromatic number as far as it was established.
#[derive(Debug, Clone, PartialEq)]
pub struct Chromatic {
    /// The size of the clique found: a lower bound.
    pub clique: usize,
    /// The best colouring found, with its number of colours (those it uses, renumbered from 0 in
    /// order of first use).
    pub best: Option<(usize, Vec<u32>)>,
    /// Whether `best` is proven to use the fewest colours possible.
    pub optimal: bool,
    /// Every attempt, in order.
    pub attempts: Vec<Attempt>,
}

/// The chromatic number: colour with as many colours as a greedy colouring needs (so the first
/// search succeeds), then again with one colour fewer than the last colouring used, until an attempt proves that no
/// colouring exists (by search, or because the clique is larger) or stops at a limit. Every search runs
/// as `config` says, limits included, streaming its events to `observer` too.
pub fn chromatic_number<O: SearchObserver>(
    graph: &Graph,
    config: &SearchConfig,
    mut observer: O,
) -> Result<Chromatic, ModelError> {
    let clique = greedy_clique(graph);
    let mut chromatic = Chromatic {
        clique: clique.len(),
        best: None,
        optimal: false,
        attempts: Vec::new(),
    };
    let mut colors = greedy_bound(graph);
    loop {
        let attempt = color_with_clique(graph, colors, &clique, config, &mut observer)?;
        let status = attempt.status;
        if let Some(coloring) = &attempt.coloring {
            let renumbered = renumber(coloring);
            let used = colors_used(&renumbered);
            chromatic.best = Some((used, renumbered));
            if used == 0 {
                chromatic.optimal = true;
            } else {
                colors = used - 1;
            }
        }
        chromatic.attempts.push(attempt);
        match status {
            Status::Colored if !chromatic.optimal => continue,
            Status::Colored => {}
            Status::NoColoring | Status::CliqueTooLarge { .. } => chromatic.optimal = true,
            Status::Unknown(_) => {}
        }
        return Ok(chromatic);
    }
}

/// The colours a greedy colouring uses (Welsh and Powell: vertices by falling degree, each taking
/// the smallest colour no coloured neighbour has): at most one more than the largest degree, and a
/// start for the chromatic number's descent that keeps its first model small.
pub fn greedy_bound(graph: &Graph) -> usize {
    let neighbours = graph.neighbours();
    let mut order: Vec<usize> = (0..graph.vertices()).collect();
    order.sort_by_key(|&v| (std::cmp::Reverse(neighbours[v].len()), v));
    let mut color: Vec<Option<usize>> = vec![None; graph.vertices()];
    let mut taken: Vec<bool> = Vec::new();
    let mut used = 0;
    for v in order {
        taken.clear();
        taken.resize(neighbours[v].len() + 1, false);
        for &w in &neighbours[v] {
            if let Some(c) = color[w].filter(|&c| c < taken.len()) {
                taken[c] = true;
            }
        }
        let c = taken.iter().position(|&t| !t).unwrap_or(taken.len());
        color[v] = Some(c);
        used = used.max(c + 1);
    }
    used
}

/// The colouring with its colours renumbered 0, 1, 2, … in order of first use.
fn renumber(coloring: &[u32]) -> Vec<u32> {
    let mut names: Vec<Option<u32>> = Vec::new();
    let mut next = 0;
    coloring
        .iter()
        .map(|&c| {
            let c = c as usize;
            if names.len() <= c {
                names.resize(c + 1, None);
            }
            *names[c].get_or_insert_with(|| {
                next += 1;
                next - 1
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cycle(n: usize) -> Graph {
        Graph::new(n, (0..n).map(|i| (i, (i + 1) % n))).unwrap()
    }

    #[test]
    fn odd_cycles_need_three_colours_and_even_ones_two() {
        for (n, chi) in [(4, 2), (5, 3), (6, 2), (7, 3)] {
            let graph = cycle(n);
            let result = chromatic_number(&graph, &default_config(), ()).unwrap();
            assert!(result.optimal, "C{n}");
            let (colors, coloring) = result.best.unwrap();
            assert_eq!(colors, chi, "C{n}");
            check(&graph, &coloring, colors).unwrap();
        }
    }

    #[test]
    fn the_empty_graph_and_edgeless_graphs() {
        let empty = Graph::new(0, []).unwrap();
        let result = chromatic_number(&empty, &default_config(), ()).unwrap();
        assert_eq!(result.best, Some((0, vec![])));
        assert!(result.optimal);
        let edgeless = Graph::new(3, []).unwrap();
        let result = chromatic_number(&edgeless, &default_config(), ()).unwrap();
        assert_eq!(result.best, Some((1, vec![0, 0, 0])));
        assert!(result.optimal);
        let none = color(&edgeless, 0, &default_config(), ()).unwrap();
        assert_eq!(none.status, Status::CliqueTooLarge { clique: 1 });
    }

    #[test]
    fn greedy_bound_and_model_size() {
        assert_eq!(greedy_bound(&cycle(5)), 3);
        assert_eq!(greedy_bound(&cycle(6)), 2);
        let star = Graph::new(5, (1..5).map(|v| (0, v))).unwrap();
        assert_eq!(greedy_bound(&star), 2);
        let wide = Graph::new(1 << 20, []).unwrap();
        assert!(
            model(&wide, 1 << 8, &[]).is_err(),
            "2^28 vertex-colour pairs is refused"
        );
        let pinned = model(&cycle(5), 3, &[3, 4]).unwrap();
        assert_eq!(
            pinned.vertex_vars[3].index(),
            0,
            "pinned vertices come first"
        );
        assert_eq!(pinned.model.name(pinned.vertex_vars[3]), "v4");
        assert!(
            model(&cycle(5), 1, &[3, 4]).is_err(),
            "two pinned, one colour"
        );
    }

    #[test]
    fn the_checker_names_what_is_wrong() {
        let graph = cycle(3);
        assert_eq!(check(&graph, &[0, 1, 2], 3), Ok(()));
        assert!(matches!(
            check(&graph, &[0, 1, 1], 3),
            Err(ColoringError::Conflict {
                u: 2,
                v: 3,
                color: 1
            })
        ));
        assert!(matches!(
            check(&graph, &[0, 1, 3], 3),
            Err(ColoringError::OutOfRange { vertex: 3, .. })
        ));
        assert!(matches!(
            check(&graph, &[0, 1], 3),
            Err(ColoringError::WrongLength { .. })
        ));
        assert_eq!(renumber(&[4, 2, 4, 0]), vec![0, 1, 0, 2]);
    }
}
