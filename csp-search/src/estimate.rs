//! Stone & Stone's online estimator of the full search tree's size and solution count
//! (*Efficient Search Techniques*, 1987, §4), as an ordinary observer.

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
///   into `tree[i]` — once (folding after every child would count earlier siblings again).
///
/// The estimate at any moment is the sum of `tree` over the levels of the current path and the level
/// just below it. The solution estimate is the same computation with solution nodes weighted 1 and all
/// others 0: a solution at level `i` adds `breadth[i]`.
///
/// A restart begins a new tree, so the estimator starts afresh on [`SearchEvent::Restart`]. A
/// stream that goes on below the root after that (large-neighbourhood search resumes its paused
/// complete search after each neighbourhood's restart) is taken as it comes: the levels and
/// children it reports are added as they appear, so the estimate is rough until the search's next
/// restart, but every event is accepted.
#[derive(Debug, Clone, PartialEq)]
pub struct TreeSizeEstimator {
    /// Per level (index 0 is level 1), with one spare level below the deepest node so far. One
    /// record per level, rather than one vector per quantity, so that an event touches one or two
    /// records after a single bounds check: the estimator runs at every node of the search.
    levels: Vec<Level>,
    /// The level of the deepest node on the current path (1 at the root).
    level: usize,
    /// `reweights[j] = (j − 1)/j`, for every `j` up to the most choices seen: the division is done
    /// once per `j`, not at every node, where its latency showed in the search's time.
    reweights: Vec<f64>,
}

/// The estimator's state for one level.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
struct Level {
    /// The estimated number of nodes at this level.
    breadth: f64,
    /// The estimated size of the current node's explored children's subtrees.
    tree: f64,
    /// The same with only solution nodes counted.
    solutions: f64,
    /// The choices of the node at this level on the current path.
    choices: u32,
    /// How many children the node at this level on the current path has started.
    children: u32,
}

impl Default for TreeSizeEstimator {
    fn default() -> Self {
        Self::new()
    }
}

impl TreeSizeEstimator {
    /// The state for a tree that has only its root: `breadth[1] = tree[1] = 1`.
    pub fn new() -> Self {
        let root = Level {
            breadth: 1.0,
            tree: 1.0,
            ..Level::default()
        };
        TreeSizeEstimator {
            levels: vec![root, Level::default()],
            level: 1,
            reweights: vec![0.0],
        }
    }

    /// The estimated number of nodes of the full tree, root included.
    pub fn estimated_tree_size(&self) -> f64 {
        self.sum_over_path(|level| level.tree)
    }

    /// The estimated number of solutions in the full tree.
    pub fn estimated_solutions(&self) -> f64 {
        self.sum_over_path(|level| level.solutions)
    }

    /// The sum of one quantity over the current path and the level just below it, whose entry holds
    /// the current node's finished children.
    fn sum_over_path(&self, quantity: impl Fn(&Level) -> f64) -> f64 {
        let end = (self.level + 1).min(self.levels.len());
        self.levels[..end].iter().map(quantity).sum()
    }

    /// Makes room for level `level` (1-based) and the spare level below it.
    #[inline]
    fn reach(&mut self, level: usize) {
        if self.levels.len() < level + 1 {
            self.levels.resize(level + 1, Level::default());
        }
    }

    /// `(j − 1)/j`, from the table when it is there.
    #[inline]
    fn reweight(&mut self, j: u32) -> f64 {
        match self.reweights.get(j as usize) {
            Some(&factor) => factor,
            None => self.grow_reweights(j),
        }
    }

    /// Extends the table to `j`: for a node with more children than it announced on entering (its
    /// entry was before a restart the estimator saw, see the type's documentation).
    #[cold]
    fn grow_reweights(&mut self, j: u32) -> f64 {
        while self.reweights.len() <= j as usize {
            let k = self.reweights.len() as f64;
            self.reweights.push((k - 1.0) / k);
        }
        self.reweights[j as usize]
    }
}

impl SearchObserver for TreeSizeEstimator {
    // Always inlined: every place the engine emits an event knows its kind, so the match folds away
    // and only that kind's few instructions remain at each node.
    #[inline(always)]
    fn on_event(&mut self, event: &SearchEvent<'_>) -> ControlFlow<()> {
        match *event {
            SearchEvent::Enter { level, choices, .. } => {
                let level = level as usize;
                self.reach(level);
                let node = &mut self.levels[level - 1];
                node.choices = choices;
                node.children = 0;
                while self.reweights.len() <= choices as usize {
                    let j = self.reweights.len() as f64;
                    self.reweights.push((j - 1.0) / j);
                }
            }
            SearchEvent::Assign { level, .. } | SearchEvent::Decide { level, .. } => {
                // Child `j` of the node one level up (the root, at level 1, is no one's child).
                let level = (level as usize).max(2);
                self.reach(level);
                let j = self.levels[level - 2].children + 1;
                let factor = if j > 1 { self.reweight(j) } else { 1.0 };
                let [parent, child, below] = &mut self.levels[level - 2..=level] else {
                    unreachable!("the range has three levels");
                };
                parent.children = j;
                if j == 1 {
                    child.breadth = parent.breadth * f64::from(parent.choices);
                    child.tree = child.breadth;
                    child.solutions = 0.0;
                } else {
                    // Stone & Stone §4: reweight the j − 1 explored children by (j − 1)/j.
                    child.breadth *= factor;
                    child.tree = child.tree * factor + child.breadth;
                    child.solutions *= factor;
                }
                // Nothing has been explored below the new node yet.
                below.tree = 0.0;
                below.solutions = 0.0;
                self.level = level;
            }
            SearchEvent::Undo { level, .. } | SearchEvent::Retract { level, .. } => {
                // The node at `level` is finished: fold its children's estimate into its own level.
                let level = (level as usize).max(1);
                self.reach(level);
                let [node, below] = &mut self.levels[level - 1..=level] else {
                    unreachable!("the range has two levels");
                };
                node.tree += below.tree;
                node.solutions += below.solutions;
                below.tree = 0.0;
                below.solutions = 0.0;
                self.level = level - 1;
            }
            SearchEvent::Solution { level, .. } => {
                let level = level as usize;
                self.reach(level);
                let node = &mut self.levels[level - 1];
                node.solutions += node.breadth;
            }
            SearchEvent::Restart { .. } => *self = Self::new(),
            SearchEvent::DeadEnd { .. } => {}
        }
        ControlFlow::Continue(())
    }
}
