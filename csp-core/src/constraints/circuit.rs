use crate::Domains;
use crate::{
    Constraint, Constructor, ExplainCtx, Literal, PostCtx, PropagationCtx, Propagator, Slots,
    VarId, Wipeout,
    constraints::{
        AllDifferent,
        lex::{explain_by_fixed, explain_values, fall_back},
        util::{Args, dedup_reasons},
    },
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
}

impl Circuit {
    /// `succ` is a circuit, nodes numbered from `first`.
    pub fn new(succ: Vec<VarId>, first: i32) -> Constructor<Self> {
        Constructor::new(move |ctx: &mut PostCtx| {
            let args = Args::new(succ);
            let (all_different, inner) = AllDifferent::nested(ctx, args.scope.clone());
            Ok(Circuit {
                inner,
                all_different,
                args,
                first,
            })
        })
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

    /// A value removed from the end of a chain of fixed successors, its start, by the chain's
    /// successors (`nextₖ = v`), as the chain may not close early (Caseau & Laburthe 1997); a
    /// change of all-different by its explanation, value by value.
    fn explain(&self, literal: Literal, ctx: &ExplainCtx<'_>, reasons: &mut Vec<Literal>) -> bool {
        let start = reasons.len();
        let n = self.n();
        let shown = self.args.scope.len() == n
            && (0..n)
                .find(|&i| self.args.var(i) == literal.var)
                .is_some_and(|end| {
                    let chain = fixed_chain_to(end, n, |i| self.successor_then(ctx, i));
                    let head = chain.last().copied().unwrap_or(end);
                    let closes = (chain.len() < n).then(|| self.first + head as i32);
                    explain_values(literal, ctx, reasons, |w, reasons| {
                        if self.node(w).is_none_or(|k| k == end) {
                            return true;
                        }
                        if Some(w) == closes {
                            push_chain(
                                &chain,
                                |i| self.args.var(i),
                                |k| self.first + k as i32,
                                reasons,
                            );
                            return true;
                        }
                        let mark = reasons.len();
                        let shown =
                            self.all_different
                                .explain(Literal::ne(literal.var, w), ctx, reasons);
                        if !shown {
                            reasons.truncate(mark);
                        }
                        shown
                    })
                });
        if shown {
            dedup_reasons(reasons, start);
            return true;
        }
        fall_back(
            start,
            &self.args.scope,
            literal.var,
            ctx,
            reasons,
            |reasons| self.explain_failure(ctx, reasons),
        )
    }

    /// A cycle of fixed successors shorter than `n`, or two fixed successors naming one node, by
    /// those successors; no matching of the successors to distinct nodes, by a Hall set.
    fn explain_failure(&self, ctx: &ExplainCtx<'_>, reasons: &mut Vec<Literal>) -> bool {
        let n = self.n();
        if self.args.scope.len() != n {
            // A variable named twice: no circuit at all.
            return true;
        }
        let start = reasons.len();
        let shown = push_short_cycle(
            n,
            |i| self.successor_then(ctx, i),
            |cycle, _| cycle.len() < n,
            |i| self.args.var(i),
            |k| self.first + k as i32,
            reasons,
        ) || push_hall_violation(&self.args.scope, ctx, reasons)
            || explain_by_fixed(&self.args.scope, None, ctx, reasons);
        if shown {
            dedup_reasons(reasons, start);
        }
        shown
    }
}

impl Circuit {
    /// Node `i`'s successor when it was fixed then.
    fn successor_then(&self, ctx: &ExplainCtx<'_>, i: usize) -> Option<usize> {
        let (lo, hi) = ctx.bounds(self.args.var(i));
        if lo == hi { self.node(lo) } else { None }
    }
}

/// The nodes of the chain of fixed successors (`successor`) that ends at `end`, from `end` back
/// to the chain's first node, which no fixed successor names; stops at `end` again when the
/// chain is a cycle.
pub(super) fn fixed_chain_to(
    end: usize,
    n: usize,
    successor: impl Fn(usize) -> Option<usize>,
) -> Vec<usize> {
    let mut predecessor = vec![None; n];
    for i in 0..n {
        if let Some(j) = successor(i)
            && j != i
        {
            predecessor[j] = Some(i);
        }
    }
    let mut chain = vec![end];
    let mut seen = vec![false; n];
    seen[end] = true;
    let mut at = end;
    while let Some(p) = predecessor[at] {
        if seen[p] {
            break;
        }
        seen[p] = true;
        chain.push(p);
        at = p;
    }
    chain
}

/// Pushes `nextₖ = v` for each node of `chain` (from its end back, as [`fixed_chain_to`]
/// gives it) but its end: the fixed successors linking it.
pub(super) fn push_chain(
    chain: &[usize],
    var: impl Fn(usize) -> VarId,
    value: impl Fn(usize) -> i32,
    reasons: &mut Vec<Literal>,
) {
    for pair in chain.windows(2) {
        reasons.push(Literal::eq(var(pair[1]), value(pair[0])));
    }
}

/// Pushes the fixed successors of a cycle that `bad` refuses (pushing its own reasons why), or
/// of two nodes naming one node; false when there is none.
pub(super) fn push_short_cycle(
    n: usize,
    successor: impl Fn(usize) -> Option<usize>,
    bad: impl Fn(&[usize], &mut Vec<Literal>) -> bool,
    var: impl Fn(usize) -> VarId,
    value: impl Fn(usize) -> i32,
    reasons: &mut Vec<Literal>,
) -> bool {
    let mut named_by = vec![None; n];
    for i in 0..n {
        if let Some(j) = successor(i)
            && j != i
        {
            if let Some(other) = named_by[j] {
                reasons.extend([
                    Literal::eq(var(other), value(j)),
                    Literal::eq(var(i), value(j)),
                ]);
                return true;
            }
            named_by[j] = Some(i);
        }
    }
    let mut done = vec![false; n];
    for first in 0..n {
        if done[first] {
            continue;
        }
        let mut cycle = Vec::new();
        let mut at = first;
        while !done[at] {
            done[at] = true;
            cycle.push(at);
            match successor(at) {
                Some(next) if next != at => at = next,
                _ => break,
            }
        }
        if at == first && cycle.len() > 1 && bad(&cycle, reasons) {
            for &i in &cycle {
                let next = successor(i).expect("a cycle node has a fixed successor");
                reasons.push(Literal::eq(var(i), value(next)));
            }
            return true;
        }
    }
    false
}

/// Pushes a Hall violation among `scope`'s domains then: variables fewer values can take than
/// there are variables, each by its bounds within those values and the values between them it
/// could not take. False when every variable can take a value of its own.
pub(super) fn push_hall_violation(
    scope: &[VarId],
    ctx: &ExplainCtx<'_>,
    reasons: &mut Vec<Literal>,
) -> bool {
    let bounds: Vec<(i32, i32)> = scope.iter().map(|&y| ctx.bounds(y)).collect();
    let (Some(lo), Some(hi)) = (
        bounds.iter().map(|b| b.0).min(),
        bounds.iter().map(|b| b.1).max(),
    ) else {
        return false;
    };
    if i64::from(hi) - i64::from(lo) > 1 << 12 {
        return false;
    }
    let domains: Vec<Vec<usize>> = scope
        .iter()
        .zip(&bounds)
        .map(|(&y, &b)| {
            (b.0..=b.1)
                .filter(|&w| ctx.contains_within(y, w, b))
                .map(|w| (w - lo) as usize)
                .collect()
        })
        .collect();
    let width = (hi - lo) as usize + 1;
    let mut owner: Vec<Option<usize>> = vec![None; width];
    // Kuhn's augmenting paths; `visited` marks values.
    fn augment(
        i: usize,
        domains: &[Vec<usize>],
        owner: &mut [Option<usize>],
        visited: &mut [bool],
    ) -> bool {
        for &w in &domains[i] {
            if !visited[w] {
                visited[w] = true;
                if owner[w].is_none_or(|j| augment(j, domains, owner, visited)) {
                    owner[w] = Some(i);
                    return true;
                }
            }
        }
        false
    }
    for i in 0..scope.len() {
        let mut visited = vec![false; width];
        if augment(i, &domains, &mut owner, &mut visited) {
            continue;
        }
        // No augmenting path from `i`: the variables its alternating paths reach take only the
        // values they visit, one fewer than they are.
        let mut in_set = vec![false; scope.len()];
        in_set[i] = true;
        let mut stack = vec![i];
        let mut values = vec![false; width];
        while let Some(j) = stack.pop() {
            for &w in &domains[j] {
                values[w] = true;
                if let Some(k) = owner[w]
                    && !in_set[k]
                {
                    in_set[k] = true;
                    stack.push(k);
                }
            }
        }
        let used: Vec<i32> = (0..width)
            .filter(|&w| values[w])
            .map(|w| lo + w as i32)
            .collect();
        let (Some(&u_lo), Some(&u_hi)) = (used.first(), used.last()) else {
            // A variable without values.
            let y = scope[i];
            reasons.extend([Literal::ge(y, bounds[i].0), Literal::le(y, bounds[i].1)]);
            reasons.extend((bounds[i].0..=bounds[i].1).map(|w| Literal::ne(y, w)));
            return true;
        };
        for (j, &y) in scope.iter().enumerate().filter(|&(j, _)| in_set[j]) {
            reasons.extend([Literal::ge(y, u_lo), Literal::le(y, u_hi)]);
            let _ = j;
            reasons.extend(
                (u_lo..=u_hi)
                    .filter(|&w| !values[(w - lo) as usize])
                    .map(|w| Literal::ne(y, w)),
            );
        }
        return true;
    }
    false
}
