use crate::{
    Constraint, PropagationCtx, Propagator, Slots, StateLayout, VarId, Wipeout,
    constraints::{AllDifferent, util::Args},
    revision::Priority,
};

/// The successors `succ` form one Hamiltonian circuit: FlatZinc's `circuit(x)`, node `i`'s successor
/// being `succ[i]`, numbered from `first` (MiniZinc's index set; FlatZinc's arrays start at 1). As
/// MiniZinc's definition says, no node is its own successor, so a single node has no circuit.
///
/// Consistency: Régin's domain consistency for all-different on the successors, and subtour
/// elimination by chains (Caseau & Laburthe, *Solving Small TSPs with Constraints*, ICLP 1997):
/// every maximal chain of fixed successors shorter than `n` has its end's successor kept off its
/// start, so no chain closes early; a cycle of fixed successors shorter than `n` fails. Both repeat
/// until neither prunes. A variable named twice makes the circuit impossible.
#[derive(Debug, Clone)]
pub struct Circuit {
    args: Args,
    first: i32,
    all_different: AllDifferent,
    /// The state of `all_different`, whose revision this one runs.
    inner: Slots<i64>,
    state: StateLayout,
}

impl Circuit {
    /// `succ` is a circuit, nodes numbered from `first`.
    pub fn new(succ: Vec<VarId>, first: i32) -> Self {
        let args = Args::new(succ);
        let all_different = AllDifferent::new(args.scope.clone());
        let mut state = StateLayout::new();
        Circuit {
            inner: state.slots(all_different.state_size()),
            all_different,
            args,
            first,
            state,
        }
    }

    fn n(&self) -> usize {
        self.args.slots.len()
    }

    /// The node index of successor value `value`, if it names a node.
    fn node(&self, value: i32) -> Option<usize> {
        usize::try_from(i64::from(value) - i64::from(self.first))
            .ok()
            .filter(|&k| k < self.n())
    }

    /// Keeps every chain of fixed successors from closing before it holds all nodes.
    fn eliminate_subtours(&self, ctx: &mut PropagationCtx<'_>) -> Result<bool, Wipeout> {
        let n = self.n();
        let successor = |ctx: &PropagationCtx<'_>, i: usize| {
            ctx.fixed_value(self.args.var(i)).and_then(|v| self.node(v))
        };
        let mut has_fixed_predecessor = vec![false; n];
        for i in 0..n {
            if let Some(j) = successor(ctx, i) {
                has_fixed_predecessor[j] = true;
            }
        }
        let mut visited = vec![false; n];
        let mut changed = false;
        for start in 0..n {
            if has_fixed_predecessor[start] {
                continue;
            }
            let (mut end, mut length) = (start, 1);
            visited[start] = true;
            while let Some(next) = successor(ctx, end) {
                if visited[next] {
                    // Fixed successors reached a node twice: two nodes share a successor, which
                    // all-different has ruled out already.
                    return Err(Wipeout);
                }
                visited[next] = true;
                end = next;
                length += 1;
            }
            if length < n
                && let Ok(value) = i32::try_from(i64::from(self.first) + start as i64)
            {
                changed |= ctx.remove(self.args.var(end), value)?;
            }
        }
        // Nodes on no chain lie on cycles of fixed successors: one is fine only if it holds them all.
        for start in 0..n {
            if visited[start] {
                continue;
            }
            let mut length = 0;
            let mut node = start;
            while !visited[node] {
                visited[node] = true;
                length += 1;
                node = successor(ctx, node).ok_or(Wipeout)?;
            }
            if length < n {
                return Err(Wipeout);
            }
        }
        Ok(changed)
    }
}

impl Constraint for Circuit {
    fn scope(&self) -> &[VarId] {
        &self.args.scope
    }

    fn is_satisfied(&self, values: &[i32]) -> bool {
        let n = self.n();
        if n == 0 {
            return true;
        }
        // Follow the successors from node 0: n steps must visit every node once and come back.
        let mut seen = vec![false; n];
        let mut node = 0;
        for _ in 0..n {
            if seen[node] {
                return false;
            }
            seen[node] = true;
            match self.node(self.args.value(values, node)) {
                Some(next) if next != node => node = next,
                _ => return false,
            }
        }
        node == 0
    }

    fn state_size(&self) -> usize {
        self.state.len()
    }

    fn propagator(&self) -> Option<&dyn Propagator> {
        Some(self)
    }
}

impl Propagator for Circuit {
    fn revise(&self, ctx: &mut PropagationCtx<'_>) -> Result<(), Wipeout> {
        let n = self.n();
        if self.args.scope.len() != n {
            return Err(Wipeout);
        }
        let (lo, hi) = (i64::from(self.first), i64::from(self.first) + n as i64 - 1);
        for i in 0..n {
            let var = self.args.var(i);
            ctx.restrict_bounds(var, lo, hi)?;
            if let Ok(own) = i32::try_from(lo + i as i64) {
                ctx.remove(var, own)?;
            }
        }
        loop {
            self.all_different.revise(&mut ctx.inner(self.inner))?;
            if !self.eliminate_subtours(ctx)? {
                return Ok(());
            }
        }
    }

    fn priority(&self) -> Priority {
        Priority::Low
    }
}
