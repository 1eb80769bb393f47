//! Splitting a row-by-row search into subproblems by its first rows: the full LEX tree (`--nodes`) and
//! the toroidal board (`--torus`).
//!
//! The full LEX tree (Stone & Stone's, *Efficient Search Techniques* (1987); Dijkstra's program in
//! *Notes on Structured Programming* (1970)) places rows in order and tries every column consistent
//! with the queens above. It is symmetric under left–right mirroring only, so its size is counted
//! with mirror halving: the subtree under a first-row queen in column c is the mirror image of the
//! one under column n−1−c, so the left half is searched with weight 2 and a middle column (odd n)
//! with weight 1, its own second row halved the same way.
//!
//! On the torus, shifting every queen one column to the right (wrapping) maps solutions to solutions, so
//! the count is n times the count with the first-row queen in column 0; mirroring columns about column
//! 0 then halves the second row.
//!
//! Both are split breadth-first: whole levels of the tree are expanded until there are at least
//! [`TARGET_SUBPROBLEMS`] prefixes, and each prefix becomes a subproblem. The nodes above the split are
//! counted while splitting and become a subproblem of their own, so every node is counted exactly once.

use super::bitboard::{Diagonals, MAX_N, Walk, board_mask};
use super::tally::Tally;

/// Enough subproblems to spread over many threads and machines and to checkpoint often; the split stops
/// at the first level with at least this many.
pub(crate) const TARGET_SUBPROBLEMS: usize = 4096;

/// The first rows of a placement and the weight its subtree counts with.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Prefix {
    /// The columns of the queens in rows 0, 1, ….
    pub columns: Vec<u8>,
    /// How many subtrees this one stands for (mirror images, translations).
    pub weight: u128,
}

/// A prefix while splitting: its placement, the attack words for its next row, and whether it is its
/// own mirror image (then its children are halved in turn).
struct Node {
    columns: Vec<u8>,
    left: u32,
    down: u32,
    right: u32,
    weight: u128,
    self_mirrored: bool,
}

/// Where a column goes under the mirror that fixes the start.
type Mirror = fn(usize, usize) -> usize;

/// Splits the search that starts from `start` (a prefix that is its own mirror image) into prefixes.
/// Returns them and the tally of the nodes the split placed itself: with `count_nodes`, every node above
/// the prefixes, weighted; and every complete placement reached above them.
fn split<D: Diagonals>(
    n: usize,
    diagonals: D,
    start: Node,
    mirror: Mirror,
    count_nodes: bool,
    target: usize,
) -> (Vec<Prefix>, Tally) {
    let mask = board_mask(n);
    let mut above = Tally::default();
    let mut level = if start.columns.len() == n {
        above.solutions += start.weight;
        Vec::new()
    } else {
        vec![start]
    };
    while !level.is_empty() && (level.len() < target || level.iter().any(|p| p.self_mirrored)) {
        let mut next = Vec::new();
        for node in &level {
            let mut avail = mask & !(node.left | node.down | node.right);
            while avail != 0 {
                let bit = avail & avail.wrapping_neg();
                avail ^= bit;
                let column = bit.trailing_zeros() as usize;
                let (weight, self_mirrored) = if node.self_mirrored {
                    let image = mirror(n, column);
                    if column > image {
                        continue;
                    }
                    if column < image {
                        (node.weight * 2, false)
                    } else {
                        (node.weight, true)
                    }
                } else {
                    (node.weight, false)
                };
                above.visited += 1;
                if count_nodes {
                    above.nodes += weight;
                }
                let mut columns = node.columns.clone();
                columns.push(column as u8);
                if columns.len() == n {
                    above.solutions += weight;
                    continue;
                }
                let (left, right) = diagonals.advance(node.left | bit, node.right | bit, 1);
                next.push(Node {
                    columns,
                    left,
                    down: node.down | bit,
                    right,
                    weight,
                    self_mirrored,
                });
            }
        }
        level = next;
    }
    let prefixes = level
        .into_iter()
        .map(|node| Prefix {
            columns: node.columns,
            weight: node.weight,
        })
        .collect();
    (prefixes, above)
}

/// The walk that completes `prefix`: the remaining rows, each allowing every column.
pub(crate) fn walk<D: Diagonals>(n: usize, diagonals: D, prefix: &Prefix) -> Walk {
    let (mut left, mut down, mut right) = (0, 0, 0);
    for &column in &prefix.columns {
        let bit = 1u32 << column;
        (left, right) = diagonals.advance(left | bit, right | bit, 1);
        down |= bit;
    }
    Walk::uniform(n - prefix.columns.len(), board_mask(n), left, down, right)
}

/// The full LEX tree split by its first rows, with mirror halving. The tally counts the root and every
/// node above the prefixes.
pub(crate) fn lex_split<D: Diagonals>(
    n: usize,
    diagonals: D,
    target: usize,
) -> (Vec<Prefix>, Tally) {
    debug_assert!((1..=MAX_N).contains(&n));
    let root = Node {
        columns: Vec::new(),
        left: 0,
        down: 0,
        right: 0,
        weight: 1,
        self_mirrored: true,
    };
    let (prefixes, mut above) = split(n, diagonals, root, |n, c| n - 1 - c, true, target);
    above.nodes += 1;
    (prefixes, above)
}

/// The toroidal board split by its first rows: the first-row queen in column 0 with weight n, then the
/// mirror about column 0.
pub(crate) fn torus_split<D: Diagonals>(
    n: usize,
    diagonals: D,
    target: usize,
) -> (Vec<Prefix>, Tally) {
    debug_assert!((1..=MAX_N).contains(&n));
    let (left, right) = diagonals.advance(1, 1, 1);
    let first = Node {
        columns: vec![0],
        left,
        down: 1,
        right,
        weight: n as u128,
        self_mirrored: true,
    };
    let (prefixes, mut above) = split(n, diagonals, first, |n, c| (n - c) % n, false, target);
    above.visited += 1;
    (prefixes, above)
}
