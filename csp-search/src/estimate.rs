//! Stone & Stone's online estimator of the full search tree's size and solution count
//! (`../shared/seeds/003_f841a52dc4215f9c.txt`, §4), as an ordinary observer.

use std::ops::ControlFlow;

use crate::{SearchEvent, SearchObserver};

/// Estimates, at any moment of a search, how many nodes the full tree has and how many solutions it
/// holds, from the part explored so far (Stone & Stone §4, a variant of Knuth's and Purdom's
/// estimators). Both estimates become exact when the search completes.
///
/// Per level `i` it keeps `breadth[i]`, the estimated number of nodes at level `i`, and `tree[i]`, the
/// estimated size of the subtrees hanging from the current node's level-`i` children, averaged over
/// the children explored so far:
///
/// - entering the first child of a node at level `i − 1` with `c` choices:
///   `breadth[i] = breadth[i − 1] × c`, `tree[i] = breadth[i]`;
/// - before its `j`-th child (`j > 1`): both are reweighted by `(j − 1)/j`, and the new child's weight
///   is added, `tree[i] = tree[i] × (j − 1)/j + breadth[i]`, so that each explored child stands for
///   `c/j` of the children;
/// - when a node at level `i` is finished (its assignment undone), the estimate of the level below it,
///   `tree[i + 1]`, which already holds the reweighted sum over all of that node's children, is folded
///   into `tree[i]` — once (DESIGN.md: folding after every child would count earlier siblings again).
///
/// The estimate at any moment is the sum of `tree` over the levels of the current path and the level
/// just below it. The solution estimate is the same computation with solution nodes weighted 1 and all
/// others 0: a solution at level `i` adds `breadth[i]`.
///
/// A restart begins a new tree, so the estimator starts afresh on [`SearchEvent::Restart`].
#[derive(Debug, Clone, PartialEq)]
pub struct TreeSizeEstimator {
    /// Per level (index 0 is level 1), the estimated number of nodes at that level.
    breadth: Vec<f64>,
    /// Per level, the estimated size of the current node's explored children's subtrees.
    tree: Vec<f64>,
    /// Per level, the same with only solution nodes counted.
    solutions: Vec<f64>,
    /// Per level, the choices of the node at that level on the current path.
    choices: Vec<u32>,
    /// Per level, how many children the node at that level on the current path has started.
    children: Vec<u32>,
    /// The level of the deepest node on the current path (1 at the root).
    level: usize,
}

impl Default for TreeSizeEstimator {
    fn default() -> Self {
        Self::new()
    }
}

impl TreeSizeEstimator {
    /// The state for a tree that has only its root: `breadth[1] = tree[1] = 1`.
    pub fn new() -> Self {
        TreeSizeEstimator {
            breadth: vec![1.0],
            tree: vec![1.0],
            solutions: vec![0.0],
            choices: vec![0],
            children: vec![0],
            level: 1,
        }
    }

    /// The estimated number of nodes of the full tree, root included.
    pub fn estimated_tree_size(&self) -> f64 {
        self.sum_over_path(&self.tree)
    }

    /// The estimated number of solutions in the full tree.
    pub fn estimated_solutions(&self) -> f64 {
        self.sum_over_path(&self.solutions)
    }

    /// The sum of `per_level` over the current path and the level just below it, whose entry holds the
    /// current node's finished children.
    fn sum_over_path(&self, per_level: &[f64]) -> f64 {
        let end = (self.level + 1).min(per_level.len());
        per_level[..end].iter().sum()
    }

    /// Makes room for level `level` (1-based) in every vector.
    fn reach(&mut self, level: usize) {
        if self.breadth.len() < level + 1 {
            // One spare level, so that the level below the deepest node always exists.
            let len = level + 1;
            self.breadth.resize(len, 0.0);
            self.tree.resize(len, 0.0);
            self.solutions.resize(len, 0.0);
            self.choices.resize(len, 0);
            self.children.resize(len, 0);
        }
    }
}

impl SearchObserver for TreeSizeEstimator {
    fn on_event(&mut self, event: &SearchEvent<'_>) -> ControlFlow<()> {
        match *event {
            SearchEvent::Enter { level, choices, .. } => {
                let level = level as usize;
                self.reach(level);
                self.choices[level - 1] = choices;
                self.children[level - 1] = 0;
            }
            SearchEvent::Assign { level, .. } => {
                // Child `j` of the node one level up.
                let level = level as usize;
                self.reach(level);
                let (parent, child) = (level - 2, level - 1);
                self.children[parent] += 1;
                let j = self.children[parent];
                if j == 1 {
                    self.breadth[child] = self.breadth[parent] * f64::from(self.choices[parent]);
                    self.tree[child] = self.breadth[child];
                    self.solutions[child] = 0.0;
                } else {
                    // Stone & Stone §4: reweight the j − 1 explored children by (j − 1)/j.
                    let factor = f64::from(j - 1) / f64::from(j);
                    self.breadth[child] *= factor;
                    self.tree[child] = self.tree[child] * factor + self.breadth[child];
                    self.solutions[child] *= factor;
                }
                // Nothing has been explored below the new node yet.
                self.tree[level] = 0.0;
                self.solutions[level] = 0.0;
                self.level = level;
            }
            SearchEvent::Undo { level, .. } => {
                // The node at `level` is finished: fold its children's estimate into its own level.
                let level = level as usize;
                self.tree[level - 1] += self.tree[level];
                self.solutions[level - 1] += self.solutions[level];
                self.tree[level] = 0.0;
                self.solutions[level] = 0.0;
                self.level = level - 1;
            }
            SearchEvent::Solution { level, .. } => {
                let level = level as usize;
                self.reach(level);
                self.solutions[level - 1] += self.breadth[level - 1];
            }
            SearchEvent::Restart { .. } => *self = Self::new(),
            SearchEvent::DeadEnd { .. } => {}
        }
        ControlFlow::Continue(())
    }
}
