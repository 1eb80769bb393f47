//! What a min-conflicts run counted.

/// Counts from one [`crate::min_conflicts`] run.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct LocalStats {
    /// Repair steps taken (each picks one conflicted variable), over every try.
    pub steps: u64,
    /// Steps that changed the assignment (a step whose best move is to stay put changes nothing).
    pub moves: u64,
    /// Steps that were random walks rather than best moves.
    pub random_walks: u64,
    /// Restarts from a new start.
    pub restarts: u64,
    /// The total conflicts (see [`crate::total_conflicts`]) of the first start, after its greedy pass.
    pub initial_conflicts: u64,
    /// The fewest total conflicts seen.
    pub best_conflicts: u64,
    /// Total conflicts over time as `(step, conflicts)`: at every start, at steps 1, 2, 4, 8, … and at
    /// the end. Doubling intervals keep the record short (O(log steps)) while showing the whole descent.
    pub conflict_history: Vec<(u64, u64)>,
}
