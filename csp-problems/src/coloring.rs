//! Graph colouring: give every vertex one of k colours so that adjacent vertices differ, or prove
//! that k colours cannot do it; and the chromatic number, the fewest colours that can.
//!
//! The model has a variable per vertex (colours `0..k`) and a `≠` constraint per edge. Colours are
//! interchangeable, so the model pins the vertices of a clique (found greedily) to colours 0, 1, 2, …:
//! every colouring can be renamed to agree, so nothing is lost, and a proof that k colours fail no
//! longer has to refute each renaming of every partial colouring. The clique also bounds the
//! chromatic number from below.

use std::ops::ControlFlow;
use std::time::Instant;

use csp_core::constraints::NotEqual;
use csp_core::{Model, ModelBuilder, ModelError, VarId};
use csp_search::portfolio::{PortfolioConfig, Worker, run_portfolio};
use csp_search::{
    FnObserver, Limit, Limits, Outcome, Propagation, SearchConfig, SearchEvent, SearchObserver,
    SearchResult, Statistics, VariableOrderKind, solve,
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
    /// [`chromatic_number`] gave the attempt a node budget, and it ran out first: nothing is known
    /// yet, and a later attempt at the same number of colours gets a larger budget.
    BudgetSpent {
        /// The attempt's budget.
        nodes: u64,
    },
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

/// Tries to colour `graph` with `colors` colours, streaming every event to `observer` too.
///
/// In near-linear time first: a clique larger than `colors` refutes it, and a DSATUR colouring
/// ([`dsatur`]) that needs no more than `colors` answers it, with no search (the attempt then has no
/// [`Attempt::result`]). Otherwise the search runs as `config` says (its solution limit taken as 1),
/// on the graph's `colors`-core only ([`color_by_search`]).
pub fn color<O: SearchObserver>(
    graph: &Graph,
    colors: usize,
    config: &SearchConfig,
    observer: O,
) -> Result<Attempt, ModelError> {
    let clique = greedy_clique(graph);
    if let Some(answer) = greedy_answer(graph, colors, &clique) {
        return Ok(answer);
    }
    color_with_clique(graph, colors, &clique, config, observer)
}

/// [`color`]'s shortcut: a DSATUR colouring that needs no more than `colors` colours, unless the
/// clique already shows that `colors` are too few.
fn greedy_answer(graph: &Graph, colors: usize, clique: &[usize]) -> Option<Attempt> {
    if clique.len() > colors {
        return None;
    }
    let greedy = renumber(&dsatur(graph));
    (colors_used(&greedy) <= colors).then_some(Attempt {
        colors,
        status: Status::Colored,
        coloring: Some(greedy),
        result: None,
    })
}

/// [`color`] without its greedy shortcut: the search decides (unless the clique refutes `colors`),
/// on the graph's `colors`-core: the vertices left once every vertex with fewer than `colors`
/// neighbours is removed, again and again, which are coloured after the core in reverse order.
/// For measuring the search itself.
pub fn color_by_search<O: SearchObserver>(
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
    color_core(graph, colors, clique, config, |model, config| {
        let mut found = None;
        let keep = FnObserver(|event: &SearchEvent<'_>| {
            if let SearchEvent::Solution { values, .. } = event {
                found = Some(values.to_vec());
            }
            ControlFlow::Continue(())
        });
        let searched = solve(model, config, (keep, &mut observer));
        (searched, found)
    })
}

/// [`color`] on `threads` threads: when a search is needed, its tree (the graph's core's) is split
/// into subproblems that the threads take in turn ([`csp_search::split`]), and the first colouring
/// any of them finds ends the others; a proof that none exists is every subproblem exhausted. Each
/// subproblem's search has `config`'s node and backtrack limits of its own; the time limit is the
/// whole run's. The attempt's statistics are the threads' summed.
pub fn color_on_threads(
    graph: &Graph,
    colors: usize,
    config: &SearchConfig,
    threads: usize,
) -> Result<Attempt, ModelError> {
    let clique = greedy_clique(graph);
    if let Some(answer) = greedy_answer(graph, colors, &clique) {
        return Ok(answer);
    }
    color_core(graph, colors, &clique, config, |model, config| {
        let started = Instant::now();
        let workers = (0..threads.max(1))
            .map(|i| Worker {
                config: SearchConfig {
                    seed: config.seed.wrapping_add(i as u64),
                    ..config.clone()
                },
                lns: None,
                split: true,
            })
            .collect();
        let portfolio = PortfolioConfig {
            workers,
            deterministic: false,
            epoch: 1,
            time: config.limits.time,
            enumerate: false,
        };
        let mut found = None;
        let result = run_portfolio(model, &portfolio, |values, _| {
            found = Some(values.to_vec());
            ControlFlow::Break(())
        });
        let searched = SearchResult {
            outcome: result.outcome,
            stats: result.stats,
            elapsed: started.elapsed(),
            solution: found.clone(),
            objective: None,
            propagations: result.propagations,
        };
        (searched, found)
    })
}

/// The colouring of `graph` with `colors` colours once the clique is known: the clique's
/// refutation, or the search of the core that `search` runs (returning its result and the first
/// solution's values), the peeled vertices coloured after it.
fn color_core(
    graph: &Graph,
    colors: usize,
    clique: &[usize],
    config: &SearchConfig,
    search: impl FnOnce(&Model, &SearchConfig) -> (SearchResult, Option<Vec<i32>>),
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
    // Only the k-core needs a search: a vertex with fewer than k neighbours left can always be
    // coloured after them. On sparse graphs most of the graph peels away in linear time.
    let neighbours = graph.neighbours();
    let peeled = peel(&neighbours, modelled);
    let mut coloring = vec![0_u32; graph.vertices()];
    let mut result = None;
    if !peeled.core.is_empty() {
        let (core, index) = induced(graph, &peeled.core)?;
        let pinned: Vec<usize> = clique.iter().filter_map(|&v| index[v]).collect();
        let model = model(&core, modelled, &pinned)?;
        let config = SearchConfig {
            solution_limit: Some(1),
            ..config.clone()
        };
        let (searched, found) = search(&model.model, &config);
        let found = found.map(|values: Vec<i32>| model.coloring(&values));
        let outcome = searched.outcome;
        result = Some(searched);
        match found {
            Some(core_coloring) => {
                for (&vertex, &color) in peeled.core.iter().zip(&core_coloring) {
                    coloring[vertex] = color;
                }
            }
            None => {
                let status = match outcome {
                    Outcome::Exhausted => Status::NoColoring,
                    outcome => Status::Unknown(outcome),
                };
                return Ok(Attempt {
                    colors,
                    status,
                    coloring: None,
                    result,
                });
            }
        }
    }
    peeled.extend(&neighbours, &mut coloring);
    Ok(Attempt {
        colors,
        status: Status::Colored,
        coloring: Some(coloring),
        result,
    })
}

/// A graph split for `k` colours: its k-core (what is left once every vertex with fewer than k
/// neighbours left is removed, again and again) and the removed vertices in the order of removal.
struct Peeled {
    /// The core's vertices, ascending.
    core: Vec<usize>,
    /// The removed vertices, in the order they were removed.
    removed: Vec<usize>,
}

/// Peels `k` colours' worth off the graph of `neighbours` in O(V + E): the classic reduction behind
/// Kempe's proof and every colouring preprocessor, since a vertex with fewer than k neighbours
/// always has a colour left once they are coloured.
fn peel(neighbours: &[Vec<usize>], k: usize) -> Peeled {
    let mut degree: Vec<usize> = neighbours.iter().map(Vec::len).collect();
    let mut removed = vec![false; neighbours.len()];
    let mut queue: Vec<usize> = (0..neighbours.len()).filter(|&v| degree[v] < k).collect();
    let mut order = Vec::new();
    // Each vertex enters the queue once: at the start, or when its degree falls to k − 1.
    while let Some(v) = queue.pop() {
        removed[v] = true;
        order.push(v);
        for &w in &neighbours[v] {
            if !removed[w] {
                degree[w] -= 1;
                if degree[w] + 1 == k {
                    queue.push(w);
                }
            }
        }
    }
    Peeled {
        core: (0..neighbours.len()).filter(|&v| !removed[v]).collect(),
        removed: order,
    }
}

impl Peeled {
    /// Colours the removed vertices, last removed first, each with the smallest colour none of its
    /// coloured neighbours has. When a vertex is put back, fewer than k of its neighbours are
    /// coloured (those of the core and those removed after it), so the colour is below k.
    fn extend(&self, neighbours: &[Vec<usize>], coloring: &mut [u32]) {
        let mut colored = vec![false; coloring.len()];
        for &v in &self.core {
            colored[v] = true;
        }
        let mut taken: Vec<bool> = Vec::new();
        for &v in self.removed.iter().rev() {
            taken.clear();
            taken.resize(neighbours[v].len() + 1, false);
            for &w in &neighbours[v] {
                let color = coloring[w] as usize;
                if colored[w] && color < taken.len() {
                    taken[color] = true;
                }
            }
            coloring[v] = taken.iter().position(|&t| !t).unwrap_or(taken.len()) as u32;
            colored[v] = true;
        }
    }
}

/// The subgraph induced by `vertices` (ascending), numbered in their order, and each vertex's number
/// in it (`None` outside).
fn induced(graph: &Graph, vertices: &[usize]) -> Result<(Graph, Vec<Option<usize>>), ModelError> {
    let mut index = vec![None; graph.vertices()];
    for (i, &v) in vertices.iter().enumerate() {
        index[v] = Some(i);
    }
    let edges = graph
        .edges()
        .iter()
        .filter_map(|&(u, v)| Some((index[u]?, index[v]?)));
    // A subgraph's edges are valid edges of fewer vertices, so this cannot fail; an error is still
    // reported rather than a panic.
    let induced =
        Graph::new(vertices.len(), edges).map_err(|error| ModelError::InvalidConstraint {
            constraint: "colouring".to_owned(),
            reason: error.to_string(),
        })?;
    Ok((induced, index))
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

/// The node budget of the first attempts of [`chromatic_number`]; each round that settles nothing
/// doubles it.
pub const FIRST_BUDGET: u64 = 1_000;

/// The chromatic number, between a lower bound (the clique) and an upper one (a DSATUR colouring,
/// kept as the best colouring from the start), closed by searches that each settle one number of
/// colours k: a colouring with k colours lowers the upper bound to the colours it uses, a proof that k
/// fail raises the lower one past k.
///
/// The searches are ordered so that the easy questions are answered first, whichever end they are
/// at: each round tries the lower bound itself (so a clique that meets the chromatic number is
/// confirmed by one colouring, as on Leighton's graphs), then one colour fewer than the best
/// colouring, each within a node budget; a round that settles neither doubles the budget
/// ([`FIRST_BUDGET`] at first). So no search sinks unbounded effort into one question while another
/// would have settled the answer, and the total work is within a small factor of the hardest search
/// the answer needs.
///
/// `config`'s limits bound the whole run, every attempt together; when one stops it, the best
/// colouring found so far is returned, not proven optimal unless the bounds met. Every search streams
/// its events to `observer` too.
pub fn chromatic_number<O: SearchObserver>(
    graph: &Graph,
    config: &SearchConfig,
    mut observer: O,
) -> Result<Chromatic, ModelError> {
    let started = std::time::Instant::now();
    let clique = greedy_clique(graph);
    let first = renumber(&dsatur(graph));
    let mut upper = colors_used(&first);
    let mut chromatic = Chromatic {
        clique: clique.len(),
        best: Some((upper, first)),
        optimal: false,
        attempts: Vec::new(),
    };
    let mut lower = clique.len().min(upper);
    let mut spent = Spent::default();
    let mut budget = FIRST_BUDGET;
    while lower < upper {
        let mut settled = false;
        // The lower bound first, then one colour fewer than the best colouring, when that differs.
        let mut questions = vec![lower];
        if upper - 1 > lower {
            questions.push(upper - 1);
        }
        for colors in questions {
            if colors < lower || colors >= upper {
                continue; // the other question of this round settled this one
            }
            let Some(limits) = spent.limits(&config.limits, started, budget) else {
                return Ok(chromatic); // a limit of the whole run: the best found stands
            };
            let attempt_config = SearchConfig {
                limits,
                ..config.clone()
            };
            let mut attempt =
                color_with_clique(graph, colors, &clique, &attempt_config, &mut observer)?;
            if let Some(result) = &attempt.result {
                spent.add(&result.stats);
            }
            match attempt.status {
                Status::Colored => {
                    let renumbered = renumber(attempt.coloring.as_deref().unwrap_or_default());
                    upper = colors_used(&renumbered);
                    chromatic.best = Some((upper, renumbered));
                    settled = true;
                }
                Status::NoColoring | Status::CliqueTooLarge { .. } => {
                    lower = colors + 1;
                    settled = true;
                }
                Status::Unknown(Outcome::LimitReached(Limit::Nodes))
                    if !spent.reached(&config.limits, started) =>
                {
                    attempt.status = Status::BudgetSpent { nodes: budget };
                }
                Status::Unknown(_) | Status::BudgetSpent { .. } => {
                    chromatic.attempts.push(attempt);
                    return Ok(chromatic);
                }
            }
            chromatic.attempts.push(attempt);
        }
        if !settled {
            budget = budget.saturating_mul(2);
        }
    }
    chromatic.optimal = true;
    Ok(chromatic)
}

/// What the searches of [`chromatic_number`] have spent, against the run's limits.
#[derive(Debug, Default)]
struct Spent {
    nodes: u64,
    backtracks: u64,
}

impl Spent {
    fn add(&mut self, stats: &Statistics) {
        self.nodes = self.nodes.saturating_add(stats.nodes);
        self.backtracks = self.backtracks.saturating_add(stats.backtracks);
    }

    /// Whether a limit of the whole run is reached.
    fn reached(&self, limits: &Limits, started: std::time::Instant) -> bool {
        limits.nodes.is_some_and(|max| self.nodes >= max)
            || limits.backtracks.is_some_and(|max| self.backtracks >= max)
            || limits.time.is_some_and(|max| started.elapsed() >= max)
    }

    /// The limits of the next attempt: its node budget, and what is left of the run's limits;
    /// `None` once one of those is reached.
    fn limits(&self, limits: &Limits, started: std::time::Instant, budget: u64) -> Option<Limits> {
        if self.reached(limits, started) {
            return None;
        }
        let left = |max: Option<u64>, spent: u64| max.map(|max| max - spent);
        let nodes = left(limits.nodes, self.nodes).map_or(budget, |left| left.min(budget));
        Some(Limits {
            nodes: Some(nodes),
            backtracks: left(limits.backtracks, self.backtracks),
            time: limits.time.map(|max| max.saturating_sub(started.elapsed())),
            solutions: limits.solutions,
        })
    }
}

/// A colouring by Brélaz's DSATUR: the uncoloured vertex whose neighbours show the most distinct
/// colours goes next (ties: more neighbours, then the lower vertex), taking the smallest colour none
/// of them has. Usually far closer to the chromatic number than colouring by degree alone, and
/// O((V + E) log V) with a heap whose stale entries are skipped.
pub fn dsatur(graph: &Graph) -> Vec<u32> {
    use std::cmp::Reverse;
    use std::collections::BinaryHeap;
    let neighbours = graph.neighbours();
    let n = graph.vertices();
    let mut color: Vec<Option<u32>> = vec![None; n];
    // Each vertex's neighbours' distinct colours, sorted: its saturation is their number.
    let mut seen: Vec<Vec<u32>> = vec![Vec::new(); n];
    let mut heap: BinaryHeap<(usize, usize, Reverse<usize>)> = (0..n)
        .map(|v| (0, neighbours[v].len(), Reverse(v)))
        .collect();
    let mut taken: Vec<bool> = Vec::new();
    while let Some((saturation, _, Reverse(v))) = heap.pop() {
        if color[v].is_some() || saturation != seen[v].len() {
            continue; // coloured, or an entry from before its saturation grew
        }
        taken.clear();
        taken.resize(seen[v].len() + 1, false);
        for &c in &seen[v] {
            if (c as usize) < taken.len() {
                taken[c as usize] = true;
            }
        }
        let c = taken.iter().position(|&t| !t).unwrap_or(taken.len()) as u32;
        color[v] = Some(c);
        for &w in &neighbours[v] {
            if color[w].is_none()
                && let Err(at) = seen[w].binary_search(&c)
            {
                seen[w].insert(at, c);
                heap.push((seen[w].len(), neighbours[w].len(), Reverse(w)));
            }
        }
    }
    color.into_iter().map(|c| c.unwrap_or(0)).collect()
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
