use std::ops::ControlFlow;

use crate::{SearchEvent, SearchObserver};

/// What happened at one level of the tree.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct LevelStats {
    /// Nodes created at this level (the root level has one).
    pub nodes: u64,
    /// Nodes of this level whose assignment was undone.
    pub backtracks: u64,
    /// Nodes of this level that chose a variable (were entered).
    pub expanded: u64,
    /// The sum of the choices over the entered nodes.
    pub choices: u64,
}

impl LevelStats {
    /// The average branching factor of the entered nodes (0 when none was entered).
    pub fn avg_choices(&self) -> f64 {
        if self.expanded == 0 {
            0.0
        } else {
            self.choices as f64 / self.expanded as f64
        }
    }
}

/// Search statistics, as Stone & Stone count them. Itself an ordinary [`SearchObserver`]: every
/// search keeps one, and a caller can run another beside it.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Statistics {
    /// Assignments made (the root is not one of them: the tree has `nodes + 1` nodes).
    pub nodes: u64,
    /// Assignments undone.
    pub backtracks: u64,
    /// Last alternatives of binary nodes taken in place of their node (satisfaction search by
    /// decisions): each is undone with the decision below it rather than backtracked on its own, so
    /// a search run to the end of its tree has `nodes == backtracks + committed`.
    pub committed: u64,
    /// Complete assignments found.
    pub solutions: u64,
    /// Nodes that could not be extended.
    pub dead_ends: u64,
    /// Restarts from the root.
    pub restarts: u64,
    /// The deepest node's level minus one: the most variables assigned at once under value
    /// enumeration, the most decisions on one path in search by decisions.
    pub max_depth: u32,
    /// Per level, from the root (`per_level[0]` is level 1).
    pub per_level: Vec<LevelStats>,
    /// Under learning ([`crate::Conflicts::Learn`]), the clauses learned from failures (one
    /// each; blocking clauses are not counted).
    pub learned_clauses: u64,
    /// Their literals in all, as learned (shortened, before any was dropped): with
    /// [`Statistics::learned_clauses`], their mean length.
    pub learned_literals: u64,
    /// Under learning, the changes and failures explained by the domains of a constraint's whole
    /// scope because the constraint gave no explanation of its own: long, specific reasons, and
    /// so long clauses. Zero when every constraint of the model explains itself.
    pub explanation_fallbacks: u64,
}

impl Statistics {
    /// The statistics of `level` (1 = root), creating empty levels as needed.
    #[inline]
    fn level(&mut self, level: u32) -> &mut LevelStats {
        let index = level as usize - 1;
        if index >= self.per_level.len() {
            self.grow(index);
        }
        &mut self.per_level[index]
    }

    /// Makes room for level `index + 1`; kept out of line, as it runs once per new depth.
    #[cold]
    fn grow(&mut self, index: usize) {
        if self.per_level.is_empty() {
            // The root exists before any event mentions it.
            self.per_level.push(LevelStats {
                nodes: 1,
                ..LevelStats::default()
            });
        }
        if self.per_level.len() <= index {
            self.per_level.resize(index + 1, LevelStats::default());
        }
    }

    /// Adds another search's counts of nodes, backtracks, committed decisions, dead ends,
    /// solutions, learned clauses and explanation fallbacks to these, and keeps the deeper of the two depths. Restarts and the per-level
    /// figures are left alone: searches run side by side or one after another count them their
    /// own way.
    pub fn absorb(&mut self, other: &Statistics) {
        self.nodes += other.nodes;
        self.backtracks += other.backtracks;
        self.committed += other.committed;
        self.dead_ends += other.dead_ends;
        self.solutions += other.solutions;
        self.learned_clauses += other.learned_clauses;
        self.learned_literals += other.learned_literals;
        self.explanation_fallbacks += other.explanation_fallbacks;
        self.max_depth = self.max_depth.max(other.max_depth);
    }

    /// Nodes in the tree explored so far, root included.
    pub fn tree_nodes(&self) -> u64 {
        self.nodes + 1
    }
}

impl SearchObserver for Statistics {
    // Always inlined: every emit site then keeps only its own event's arm, a few instructions of a
    // LEX node instead of a call.
    #[inline(always)]
    fn on_event(&mut self, event: &SearchEvent<'_>) -> ControlFlow<()> {
        match *event {
            SearchEvent::Enter { level, choices, .. } => {
                let stats = self.level(level);
                stats.expanded += 1;
                stats.choices += u64::from(choices);
            }
            SearchEvent::Assign { level, .. } | SearchEvent::Decide { level, .. } => {
                self.nodes += 1;
                self.max_depth = self.max_depth.max(level - 1);
                self.level(level).nodes += 1;
            }
            SearchEvent::Undo { level, .. } | SearchEvent::Retract { level, .. } => {
                self.backtracks += 1;
                self.level(level).backtracks += 1;
            }
            SearchEvent::DeadEnd { .. } => self.dead_ends += 1,
            SearchEvent::Restart { count } => self.restarts = count,
            SearchEvent::Solution { level, .. } => {
                self.solutions += 1;
                self.level(level);
            }
        }
        ControlFlow::Continue(())
    }
}
