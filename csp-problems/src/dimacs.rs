//! Undirected graphs in the DIMACS `.col` format of the second DIMACS challenge (Trick's colouring
//! instances).
//!
//! ```text
//! c a comment, anywhere
//! p edge 4 3          the header: 4 vertices (numbered 1 to 4), 3 edges
//! e 1 2               an edge between vertices 1 and 2
//! e 2 3
//! e 3 4
//! ```
//!
//! The header must come before the first edge, once. `p col` and `p edges` are read as `p edge`. An
//! edge listed twice (both ways, as several published files do) counts once; the header's edge count
//! is not enforced, since published files disagree with their own counts. Blank lines are skipped.

use std::io::BufRead;

use hashbrown::HashSet;
use thiserror::Error;

use crate::line_reader::{LineReader, MAX_LINE_BYTES, ReadError};

/// The most vertices a graph may have: enough for every published colouring instance, and a bound
/// on what a bad header can make the parser allocate.
pub const MAX_VERTICES: usize = 1 << 20;

/// The most distinct edges a graph may have: over eight times the largest published colouring
/// instance's, and a bound on what the parser and the model hold (about 64 bytes an edge).
pub const MAX_EDGES: usize = 1 << 24;

/// The most edge lines a file may have, repeats included: published files list an edge at most twice,
/// and an endless repetition of one edge is refused rather than read for ever.
pub const MAX_EDGE_LINES: usize = 1 << 26;

/// An undirected graph without loops: vertices `0..vertices` (a file's vertex `v` is `v - 1`), each
/// edge once.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Graph {
    vertices: usize,
    /// Each edge once, as `(u, v)` with `u < v`, in the order first listed.
    edges: Vec<(usize, usize)>,
}

impl Graph {
    /// The graph on `vertices` vertices with these edges (0-based). Repeated edges count once; a
    /// loop or a vertex out of range is an error.
    pub fn new(
        vertices: usize,
        edges: impl IntoIterator<Item = (usize, usize)>,
    ) -> Result<Self, GraphError> {
        if vertices > MAX_VERTICES {
            return Err(GraphError::TooManyVertices {
                vertices,
                max: MAX_VERTICES,
            });
        }
        let mut graph = Graph {
            vertices,
            edges: Vec::new(),
        };
        let mut seen = HashSet::new();
        for (u, v) in edges {
            graph.add_edge(u, v, &mut seen)?;
        }
        Ok(graph)
    }

    fn add_edge(
        &mut self,
        u: usize,
        v: usize,
        seen: &mut HashSet<(usize, usize)>,
    ) -> Result<(), GraphError> {
        for vertex in [u, v] {
            if vertex >= self.vertices {
                return Err(GraphError::NoSuchVertex {
                    vertex: vertex as u64 + 1,
                    vertices: self.vertices,
                });
            }
        }
        if u == v {
            return Err(GraphError::Loop { vertex: u + 1 });
        }
        let edge = (u.min(v), u.max(v));
        if seen.insert(edge) {
            self.edges.push(edge);
        }
        Ok(())
    }

    /// How many vertices.
    pub fn vertices(&self) -> usize {
        self.vertices
    }

    /// Every edge once, `(u, v)` with `u < v`, 0-based, in the order first listed.
    pub fn edges(&self) -> &[(usize, usize)] {
        &self.edges
    }

    /// Each vertex's neighbours, ascending.
    pub fn neighbours(&self) -> Vec<Vec<usize>> {
        let mut neighbours = vec![Vec::new(); self.vertices];
        for &(u, v) in &self.edges {
            neighbours[u].push(v);
            neighbours[v].push(u);
        }
        for list in &mut neighbours {
            list.sort_unstable();
        }
        neighbours
    }

    /// The largest degree (0 for a graph without edges).
    pub fn max_degree(&self) -> usize {
        let mut degree = vec![0usize; self.vertices];
        for &(u, v) in &self.edges {
            degree[u] += 1;
            degree[v] += 1;
        }
        degree.into_iter().max().unwrap_or(0)
    }
}

/// Why a graph is not valid.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum GraphError {
    /// More vertices than [`MAX_VERTICES`].
    #[error("{vertices} vertices is too many (at most {max})")]
    TooManyVertices {
        /// How many were declared.
        vertices: usize,
        /// The limit.
        max: usize,
    },
    /// An edge names a vertex the graph does not have.
    #[error("edge to vertex {vertex}, but the graph has vertices 1 to {vertices} only")]
    NoSuchVertex {
        /// The vertex as the file numbers it (from 1).
        vertex: u64,
        /// How many vertices the graph has.
        vertices: usize,
    },
    /// An edge from a vertex to itself: no colouring could exist.
    #[error("edge from vertex {vertex} to itself (a loop)")]
    Loop {
        /// The vertex, from 1.
        vertex: usize,
    },
}

/// What is wrong with a line of a `.col` file.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum DimacsErrorKind {
    /// An edge came before the header, or the file has none.
    #[error("missing header: expected 'p edge VERTICES EDGES' before the first edge")]
    MissingHeader,
    /// A second header.
    #[error("a second header (the first is on line {first})")]
    DuplicateHeader {
        /// The line of the first header.
        first: usize,
    },
    /// The header does not read `p edge V E`.
    #[error("bad header: {reason}")]
    BadHeader {
        /// What is wrong.
        reason: String,
    },
    /// An edge line does not read `e U V`.
    #[error("bad edge: {reason}")]
    BadEdge {
        /// What is wrong.
        reason: String,
    },
    /// The graph the lines describe is not valid.
    #[error("{0}")]
    Graph(GraphError),
    /// A line longer than [`MAX_LINE_BYTES`]: no DIMACS line is.
    #[error("longer than {max} bytes, so not a DIMACS line")]
    TooLong {
        /// The cap.
        max: usize,
    },
    /// A line that is not UTF-8 text.
    #[error("not valid UTF-8 text")]
    NotUtf8,
    /// Reading the input failed.
    #[error("cannot read the input: {0}")]
    Io(String),
    /// More edge lines than [`MAX_EDGE_LINES`], or more distinct edges than [`MAX_EDGES`].
    #[error("more than {max} {what}: too large a graph to colour")]
    TooManyEdges {
        /// "edge lines" or "distinct edges".
        what: &'static str,
        /// The cap.
        max: usize,
    },
    /// A line that starts with none of `c`, `p`, `e`.
    #[error("unknown line type {found:?} (expected 'c', 'p' or 'e')")]
    UnknownLine {
        /// The line's first word, cut to 20 characters.
        found: String,
    },
}

/// Why a `.col` file could not be read: the line (from 1) and what is wrong with it.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("line {line}: {kind}")]
pub struct DimacsError {
    /// The line number, from 1 (for a file without header, the line after the last).
    pub line: usize,
    /// What is wrong.
    pub kind: DimacsErrorKind,
}

/// Reads a graph in the DIMACS `.col` format (see the [module documentation](self)).
pub fn parse(text: &str) -> Result<Graph, DimacsError> {
    parse_reader(text.as_bytes())
}

/// Reads a graph in the DIMACS `.col` format from `reader`, a line at a time as it arrives, with
/// bounded memory: lines of at most [`MAX_LINE_BYTES`], at most [`MAX_EDGE_LINES`] edge lines and
/// [`MAX_EDGES`] distinct edges. The first bad line is reported as soon as it is read (an edge
/// before any header at line 1, say), without reading further.
pub fn parse_reader<R: BufRead>(reader: R) -> Result<Graph, DimacsError> {
    let mut lines = LineReader::new(reader, MAX_LINE_BYTES);
    let mut graph: Option<(Graph, usize)> = None;
    let mut seen = HashSet::new();
    let mut last_line = 0;
    let mut edge_lines = 0_usize;
    loop {
        let (number, line) = match lines.next_line() {
            None => break,
            Some(Ok(line)) => line,
            Some(Err(error)) => {
                let kind = match error {
                    ReadError::TooLong { max, .. } => DimacsErrorKind::TooLong { max },
                    ReadError::NotUtf8 { .. } => DimacsErrorKind::NotUtf8,
                    ReadError::Io(message) => DimacsErrorKind::Io(message),
                };
                // A reading error is on the line after the last one read whole.
                return Err(DimacsError {
                    line: last_line + 1,
                    kind,
                });
            }
        };
        last_line = number;
        let error = |kind| DimacsError { line: number, kind };
        let mut words = line.split_whitespace();
        let Some(kind) = words.next() else {
            continue;
        };
        match kind {
            "c" => {}
            "p" => {
                if let Some((_, first)) = graph {
                    return Err(error(DimacsErrorKind::DuplicateHeader { first }));
                }
                let vertices = parse_header(words)
                    .map_err(|reason| error(DimacsErrorKind::BadHeader { reason }))?;
                let empty =
                    Graph::new(vertices, []).map_err(|e| error(DimacsErrorKind::Graph(e)))?;
                graph = Some((empty, number));
            }
            "e" => {
                let Some((graph, _)) = graph.as_mut() else {
                    return Err(error(DimacsErrorKind::MissingHeader));
                };
                edge_lines += 1;
                if edge_lines > MAX_EDGE_LINES {
                    return Err(error(DimacsErrorKind::TooManyEdges {
                        what: "edge lines",
                        max: MAX_EDGE_LINES,
                    }));
                }
                let (u, v) = parse_edge(words)
                    .map_err(|reason| error(DimacsErrorKind::BadEdge { reason }))?;
                // Vertices from 1: 0 is out of range like any number above the count.
                let to_index = |vertex: u64| {
                    vertex
                        .checked_sub(1)
                        .and_then(|v| usize::try_from(v).ok())
                        .filter(|&v| v < graph.vertices)
                        .ok_or(GraphError::NoSuchVertex {
                            vertex,
                            vertices: graph.vertices,
                        })
                };
                let edge = to_index(u).and_then(|u| Ok((u, to_index(v)?)));
                edge.and_then(|(u, v)| graph.add_edge(u, v, &mut seen))
                    .map_err(|e| error(DimacsErrorKind::Graph(e)))?;
                if graph.edges.len() > MAX_EDGES {
                    return Err(error(DimacsErrorKind::TooManyEdges {
                        what: "distinct edges",
                        max: MAX_EDGES,
                    }));
                }
            }
            other => {
                return Err(error(DimacsErrorKind::UnknownLine {
                    found: other.chars().take(20).collect(),
                }));
            }
        }
    }
    match graph {
        Some((graph, _)) => Ok(graph),
        None => Err(DimacsError {
            line: last_line + 1,
            kind: DimacsErrorKind::MissingHeader,
        }),
    }
}

/// The vertex count of a header's words after `p`: `edge V E`.
fn parse_header<'a>(mut words: impl Iterator<Item = &'a str>) -> Result<usize, String> {
    match words.next() {
        Some("edge" | "edges" | "col") => {}
        Some(other) => return Err(format!("expected the format 'edge', found {other:?}")),
        None => return Err("expected 'p edge VERTICES EDGES'".to_owned()),
    }
    let vertices = number(words.next(), "the vertex count")?;
    number(words.next(), "the edge count")?;
    if let Some(extra) = words.next() {
        return Err(format!("unexpected {extra:?} after the edge count"));
    }
    usize::try_from(vertices)
        .ok()
        .filter(|&v| v <= MAX_VERTICES)
        .ok_or_else(|| format!("{vertices} vertices is too many (at most {MAX_VERTICES})"))
}

/// The two vertices of an edge line's words after `e`.
fn parse_edge<'a>(mut words: impl Iterator<Item = &'a str>) -> Result<(u64, u64), String> {
    let u = number(words.next(), "the first vertex")?;
    let v = number(words.next(), "the second vertex")?;
    if let Some(extra) = words.next() {
        return Err(format!("unexpected {extra:?} after the second vertex"));
    }
    Ok((u, v))
}

fn number(word: Option<&str>, what: &str) -> Result<u64, String> {
    let word = word.ok_or_else(|| format!("{what} is missing"))?;
    word.parse().map_err(|_| {
        let shown: String = word.chars().take(20).collect();
        // A run of digits that does not parse is too large for 64 bits: say so, rather than that it
        // is not a number.
        if word.bytes().all(|byte| byte.is_ascii_digit()) {
            format!("{what} {shown:?} is too large (at most {})", u64::MAX)
        } else {
            format!("{what} {shown:?} is not a whole number")
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_small_file_reads_with_repeated_edges_once() {
        let graph = parse("c triangle\np edge 3 4\ne 1 2\ne 2 3\n\ne 3 1\ne 2 1\n").unwrap();
        assert_eq!(graph.vertices(), 3);
        assert_eq!(graph.edges(), &[(0, 1), (1, 2), (0, 2)]);
        assert_eq!(graph.max_degree(), 2);
        assert_eq!(graph.neighbours()[0], vec![1, 2]);
    }

    #[test]
    fn errors_name_the_line() {
        let error = |text: &str| parse(text).unwrap_err();
        assert_eq!(error("e 1 2\n").line, 1);
        assert_eq!(error("c only\n").kind, DimacsErrorKind::MissingHeader);
        assert_eq!(error("c only\n").line, 2);
        assert_eq!(
            error("p edge 2 1\ne 1 3\n").to_string(),
            "line 2: edge to vertex 3, but the graph has vertices 1 to 2 only"
        );
        assert_eq!(error("p edge 2 1\ne 0 1\n").line, 2);
        assert_eq!(error("p edge 2 1\np edge 2 1\n").line, 2);
        assert!(matches!(
            error("p edge 2 1\nx\n").kind,
            DimacsErrorKind::UnknownLine { .. }
        ));
        assert!(matches!(
            error("p edge 2 1\ne 1 1\n").kind,
            DimacsErrorKind::Graph(GraphError::Loop { vertex: 1 })
        ));
        assert!(matches!(
            error("p edge x 1\n").kind,
            DimacsErrorKind::BadHeader { .. }
        ));
        assert!(matches!(
            error("p edge 99999999999 1\n").kind,
            DimacsErrorKind::BadHeader { .. }
        ));
        assert!(matches!(
            error("p edge 3 1\ne 1\n").kind,
            DimacsErrorKind::BadEdge { .. }
        ));
    }
}
