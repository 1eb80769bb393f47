//! Subcircuits: a circuit over some of the nodes, the others left out.

use crate::Domains;
use crate::{
    Constraint, Constructor, ExplainCtx, Literal, PostCtx, PropagationCtx, Propagator, Slots,
    VarId, Wipeout,
    constraints::{
        AllDifferent,
        circuit::{fixed_chain_to, push_chain, push_hall_violation, push_short_cycle},
        lex::{explain_by_fixed, explain_values, fall_back},
        util::{Args, dedup_reasons},
    },
    revision::Priority,
};

/// The successors `succ` form one circuit over some of the nodes, every other node being its own
/// successor: MiniZinc's `subcircuit(x)`, node `i`'s successor being `succ[i]`, numbered from
/// `first`. No circuit at all (every node its own successor) is allowed.
///
/// Consistency: Régin's domain consistency for all-different on the successors, and the rules of
/// [`crate::constraints::Circuit`]'s chains (Caseau & Laburthe 1997) adapted to nodes that may stay
/// out: a chain of two or more nodes linked by fixed successors may not close while a node outside
/// it must be in the circuit, and
/// once a cycle of fixed successors closes, every other node is its own successor. Both repeat
/// until neither prunes. A variable named twice makes the subcircuit impossible.
#[derive(Debug, Clone)]
pub struct Subcircuit {
    args: Args,
    first: i32,
    all_different: AllDifferent,
    /// The state of `all_different`, whose revision this one runs.
    inner: Slots<i64>,
}

impl Subcircuit {
    /// `succ` is a subcircuit, nodes numbered from `first`.
    pub fn new(succ: Vec<VarId>, first: i32) -> Constructor<Self> {
        Constructor::new(move |ctx: &mut PostCtx| {
            let args = Args::new(succ);
            let (all_different, inner) = AllDifferent::nested(ctx, args.scope.clone());
            Ok(Subcircuit {
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

    /// The node a successor value names, if any.
    fn node(&self, value: i32) -> Option<usize> {
        usize::try_from(i64::from(value) - i64::from(self.first))
            .ok()
            .filter(|&k| k < self.n())
    }

    /// The value naming node `k`.
    fn value(&self, k: usize) -> i32 {
        (i64::from(self.first) + k as i64) as i32
    }

    /// The chain and cycle rules; returns whether a domain changed.
    fn chains(&self, ctx: &mut PropagationCtx<'_>) -> Result<bool, Wipeout> {
        let n = self.n();
        // A node's successor in the circuit, when fixed and not itself.
        let next = |ctx: &PropagationCtx<'_>, i: usize| {
            ctx.fixed_value(self.args.var(i))
                .and_then(|v| self.node(v))
                .filter(|&j| j != i)
        };
        let must_be_in = |ctx: &PropagationCtx<'_>, k: usize| {
            !ctx.domain(self.args.var(k)).contains(self.value(k))
        };
        let mut has_predecessor = vec![false; n];
        for i in 0..n {
            if let Some(j) = next(ctx, i) {
                has_predecessor[j] = true;
            }
        }
        let mut on_chain = vec![false; n];
        let mut changed = false;
        for start in 0..n {
            if has_predecessor[start] || next(ctx, start).is_none() {
                continue;
            }
            let mut chain = vec![start];
            on_chain[start] = true;
            let mut end = start;
            while let Some(j) = next(ctx, end) {
                if on_chain[j] {
                    // Two fixed successors name one node: all-different has refused it already.
                    return Err(Wipeout);
                }
                on_chain[j] = true;
                chain.push(j);
                end = j;
            }
            let outside_needed = (0..n).any(|k| !chain.contains(&k) && must_be_in(ctx, k));
            if outside_needed {
                changed |= ctx.remove(self.args.var(end), self.value(start))?;
            }
        }
        // Nodes with a fixed successor on no chain lie on cycles of fixed successors: the circuit.
        if let Some(start) = (0..n).find(|&i| !on_chain[i] && next(ctx, i).is_some()) {
            let mut cycle = vec![false; n];
            let mut at = start;
            while !cycle[at] {
                cycle[at] = true;
                at = next(ctx, at).ok_or(Wipeout)?;
            }
            for k in (0..n).filter(|&k| !cycle[k]) {
                changed |= ctx.fix(self.args.var(k), i64::from(self.value(k)))?;
            }
        }
        Ok(changed)
    }
}

impl Constraint for Subcircuit {
    fn scope(&self) -> &[VarId] {
        &self.args.scope
    }

    fn is_satisfied(&self, values: &[i32]) -> bool {
        let n = self.n();
        let mut successors = Vec::with_capacity(n);
        for i in 0..n {
            match self.node(self.args.value(values, i)) {
                Some(j) => successors.push(j),
                None => return false,
            }
        }
        let mut sorted = successors.clone();
        sorted.sort_unstable();
        sorted.dedup();
        if sorted.len() != n {
            return false;
        }
        // A permutation: its cycles other than fixed points must be one at most.
        let mut seen = vec![false; n];
        let mut cycles = 0;
        for i in 0..n {
            if seen[i] || successors[i] == i {
                continue;
            }
            cycles += 1;
            let mut at = i;
            while !seen[at] {
                seen[at] = true;
                at = successors[at];
            }
        }
        cycles <= 1
    }
}

impl Propagator for Subcircuit {
    fn revise(&self, ctx: &mut PropagationCtx<'_>) -> Result<(), Wipeout> {
        let n = self.n();
        if self.args.scope.len() != n {
            return Err(Wipeout);
        }
        let (lo, hi) = (i64::from(self.first), i64::from(self.first) + n as i64 - 1);
        for i in 0..n {
            ctx.restrict_bounds(self.args.var(i), lo, hi)?;
        }
        loop {
            self.all_different.revise(&mut ctx.inner(self.inner))?;
            if !self.chains(ctx)? {
                return Ok(());
            }
        }
    }

    fn priority(&self) -> Priority {
        Priority::Low
    }

    /// A value removed from the end of a chain of fixed successors, its start, by the chain's
    /// successors and a node outside it that must be in the circuit (`nextₖ ≠ k`); a node fixed
    /// to itself by the closed cycle of fixed successors; a change of all-different by its
    /// explanation, value by value.
    fn explain(&self, literal: Literal, ctx: &ExplainCtx<'_>, reasons: &mut Vec<Literal>) -> bool {
        let start = reasons.len();
        let n = self.n();
        let shown = self.args.scope.len() == n
            && (0..n)
                .find(|&i| self.args.var(i) == literal.var)
                .is_some_and(|end| {
                    let successor = |i: usize| self.successor_then(ctx, i);
                    let chain = fixed_chain_to(end, n, successor);
                    let head = chain.last().copied().unwrap_or(end);
                    explain_values(literal, ctx, reasons, |w, reasons| {
                        if self.node(w).is_none() {
                            return true;
                        }
                        let mark = reasons.len();
                        // The chain may not close while a node outside it must be in.
                        let closes = chain.len() >= 2
                            && w == self.value(head)
                            && successor(end) != Some(head);
                        if closes
                            && let Some(k) =
                                (0..n).find(|&k| !chain.contains(&k) && self.must_be_in(ctx, k))
                        {
                            push_chain(&chain, |i| self.args.var(i), |k| self.value(k), reasons);
                            reasons.push(Literal::ne(self.args.var(k), self.value(k)));
                            return true;
                        }
                        // A closed cycle leaves `end` out.
                        if w != self.value(end)
                            && push_short_cycle(
                                n,
                                successor,
                                |cycle, _| !cycle.contains(&end),
                                |i| self.args.var(i),
                                |k| self.value(k),
                                reasons,
                            )
                        {
                            return true;
                        }
                        reasons.truncate(mark);
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

    /// A closed cycle of fixed successors leaving out a node that must be in, two fixed
    /// successors naming one node, or no matching of the successors to distinct nodes (a Hall
    /// set).
    fn explain_failure(&self, ctx: &ExplainCtx<'_>, reasons: &mut Vec<Literal>) -> bool {
        let n = self.n();
        if self.args.scope.len() != n {
            // A variable named twice: no subcircuit at all.
            return true;
        }
        let start = reasons.len();
        let leaves_out = |cycle: &[usize], reasons: &mut Vec<Literal>| {
            let out = (0..n).find(|&k| !cycle.contains(&k) && self.must_be_in(ctx, k));
            if let Some(k) = out {
                reasons.push(Literal::ne(self.args.var(k), self.value(k)));
            }
            out.is_some()
        };
        let shown = push_short_cycle(
            n,
            |i| self.successor_then(ctx, i),
            leaves_out,
            |i| self.args.var(i),
            |k| self.value(k),
            reasons,
        ) || push_hall_violation(&self.args.scope, ctx, reasons)
            || explain_by_fixed(&self.args.scope, None, ctx, reasons);
        if shown {
            dedup_reasons(reasons, start);
        }
        shown
    }
}

impl Subcircuit {
    /// Node `i`'s successor when it was fixed then (itself included).
    fn successor_then(&self, ctx: &ExplainCtx<'_>, i: usize) -> Option<usize> {
        let (lo, hi) = ctx.bounds(self.args.var(i));
        if lo == hi { self.node(lo) } else { None }
    }

    /// Whether node `k` could not be its own successor then: it must be in the circuit.
    fn must_be_in(&self, ctx: &ExplainCtx<'_>, k: usize) -> bool {
        !ctx.contains(self.args.var(k), self.value(k))
    }
}
