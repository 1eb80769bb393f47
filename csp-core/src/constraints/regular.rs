//! Membership of a regular language: MiniZinc's `regular` (a deterministic finite automaton reads
//! the sequence) and `cost_regular` (each transition also costs something, and the costs add up to a
//! variable).

use crate::{
    Constraint, EventSet, ModelError, PropagationCtx, VarId, Wipeout,
    constraints::util::{Args, invalid},
};

/// A deterministic finite automaton as MiniZinc gives it: states `1..=Q`, symbols `1..=S`, the
/// transition function as a `Q × S` table (`0` is the failing state), a start state and the
/// accepting states.
#[derive(Debug, Clone)]
pub struct Automaton {
    states: usize,
    symbols: usize,
    /// `next[(q - 1) · S + (v - 1)]`: the state after reading `v` in state `q`, `0` for none.
    next: Vec<u32>,
    start: u32,
    accepting: Vec<bool>,
    /// For each state `q` (by `q - 1`), the transitions into it: `(p, v)` with `next(p, v) = q`.
    into: Vec<Vec<(u32, u32)>>,
}

impl Automaton {
    /// The automaton with `states` states and `symbols` symbols, the transitions row by row
    /// (`transitions[(q - 1) · symbols + (v - 1)]` is the state after `v` in `q`, `0` for none),
    /// starting in `start`, accepting in `accepting`.
    pub fn new(
        states: usize,
        symbols: usize,
        transitions: Vec<i32>,
        start: i32,
        accepting: impl IntoIterator<Item = i32>,
    ) -> Result<Self, ModelError> {
        if states == 0 || symbols == 0 || states >= u32::MAX as usize {
            return Err(invalid(
                "regular",
                "an automaton needs a state and a symbol",
            ));
        }
        if transitions.len() != states * symbols {
            return Err(ModelError::ArityMismatch {
                constraint: "regular transitions".to_owned(),
                expected: states * symbols,
                found: transitions.len(),
            });
        }
        let state = |q: i32| usize::try_from(q).ok().filter(|&q| q <= states);
        if transitions.iter().any(|&q| state(q).is_none()) {
            return Err(invalid("regular", "a transition leads outside 0..=Q"));
        }
        if !matches!(state(start), Some(1..)) {
            return Err(invalid("regular", "the start state is outside 1..=Q"));
        }
        let mut final_states = vec![false; states];
        for q in accepting {
            match state(q) {
                Some(q @ 1..) => final_states[q - 1] = true,
                _ => return Err(invalid("regular", "an accepting state is outside 1..=Q")),
            }
        }
        let next: Vec<u32> = transitions.into_iter().map(|q| q as u32).collect();
        let mut into = vec![Vec::new(); states];
        for p in 0..states {
            for v in 0..symbols {
                let q = next[p * symbols + v];
                if q != 0 {
                    into[q as usize - 1].push((p as u32 + 1, v as u32 + 1));
                }
            }
        }
        Ok(Automaton {
            states,
            symbols,
            next,
            start: start as u32,
            accepting: final_states,
            into,
        })
    }

    /// The state after reading `symbol` (in `1..=S`) in `state` (in `1..=Q`); `0` for none.
    fn step(&self, state: u32, symbol: u32) -> u32 {
        self.next[(state as usize - 1) * self.symbols + symbol as usize - 1]
    }

    /// The state after reading `word` from the start, if the automaton can read it all.
    fn run(&self, word: impl IntoIterator<Item = i32>) -> Option<u32> {
        let mut state = self.start;
        for value in word {
            let symbol = u32::try_from(value)
                .ok()
                .filter(|&v| (1..=self.symbols as u32).contains(&v))?;
            state = self.step(state, symbol);
            if state == 0 {
                return None;
            }
        }
        Some(state)
    }

    fn accepts(&self, state: u32) -> bool {
        self.accepting[state as usize - 1]
    }
}

/// Something whose support has gone: a node of the layered graph (layer, state) or a value of a
/// layer's variable (layer, symbol).
#[derive(Debug, Clone, Copy)]
enum Death {
    Node(usize, u32),
    Label(usize, u32),
}

/// The layered graph of Pesant's algorithm over an automaton and `n` variables, kept in state cells:
/// node `(i, q)` is state `q` before reading variable `i` (layers `0..=n`); an edge `(i, q, v)` goes
/// to `(i + 1, next(q, v))`. Each node counts its edges in and out, each value of each variable its
/// edges; an entity whose count reaches zero dies, and takes its edges with it.
#[derive(Debug, Clone)]
struct Layers {
    n: usize,
    automaton: Automaton,
}

/// State cell 0: whether the graph has been built.
const BUILT: usize = 0;

impl Layers {
    fn cells(&self) -> usize {
        1 + 2 * (self.n + 1) * self.automaton.states + self.n * self.automaton.symbols
    }

    /// The cell counting the edges into node `(layer, state)`; `-1` once the node is dead. The edges
    /// out follow it.
    fn in_cell(&self, layer: usize, state: u32) -> usize {
        1 + 2 * (layer * self.automaton.states + state as usize - 1)
    }

    fn out_cell(&self, layer: usize, state: u32) -> usize {
        self.in_cell(layer, state) + 1
    }

    /// The cell counting the edges of value `symbol` at `layer`; `-1` once the value is gone.
    fn label_cell(&self, layer: usize, symbol: u32) -> usize {
        1 + 2 * (self.n + 1) * self.automaton.states
            + layer * self.automaton.symbols
            + symbol as usize
            - 1
    }

    fn node_alive(&self, ctx: &PropagationCtx<'_>, layer: usize, state: u32) -> bool {
        ctx.cell(self.in_cell(layer, state)) >= 0
    }

    fn label_alive(&self, ctx: &PropagationCtx<'_>, layer: usize, symbol: u32) -> bool {
        ctx.cell(self.label_cell(layer, symbol)) >= 0
    }

    /// Whether `symbol` is in the domain of the variable at `layer`.
    fn in_domain(ctx: &PropagationCtx<'_>, var: VarId, symbol: u32) -> bool {
        i32::try_from(symbol).is_ok_and(|v| ctx.domain(var).contains(v))
    }

    /// Builds the graph of the current domains: the nodes on some accepting path, their edges and
    /// counts; the rest dead. Fails when no word is accepted.
    fn build(&self, ctx: &mut PropagationCtx<'_>, vars: &[VarId]) -> Result<(), Wipeout> {
        let a = &self.automaton;
        let (n, states) = (self.n, a.states);
        // Forward from the start, then backward from the accepting states.
        let mut reached = vec![false; (n + 1) * states];
        let index = |layer: usize, q: u32| layer * states + q as usize - 1;
        reached[index(0, a.start)] = true;
        for (i, &var) in vars.iter().enumerate() {
            for q in 1..=states as u32 {
                if !reached[index(i, q)] {
                    continue;
                }
                for v in 1..=a.symbols as u32 {
                    let next = a.step(q, v);
                    if next != 0 && Self::in_domain(ctx, var, v) {
                        reached[index(i + 1, next)] = true;
                    }
                }
            }
        }
        let mut alive = vec![false; (n + 1) * states];
        for q in 1..=states as u32 {
            alive[index(n, q)] = reached[index(n, q)] && a.accepts(q);
        }
        for (i, &var) in vars.iter().enumerate().rev() {
            for q in 1..=states as u32 {
                alive[index(i, q)] = reached[index(i, q)]
                    && (1..=a.symbols as u32).any(|v| {
                        let next = a.step(q, v);
                        next != 0 && alive[index(i + 1, next)] && Self::in_domain(ctx, var, v)
                    });
            }
        }
        if !alive[index(0, a.start)] {
            return Err(Wipeout);
        }
        let mut counts = vec![0i64; self.cells()];
        counts[BUILT] = 1;
        counts[self.in_cell(0, a.start)] = 1;
        for q in 1..=states as u32 {
            if alive[index(n, q)] {
                counts[self.out_cell(n, q)] = 1;
            }
        }
        for (i, &var) in vars.iter().enumerate() {
            for q in (1..=states as u32).filter(|&q| alive[index(i, q)]) {
                for v in 1..=a.symbols as u32 {
                    let next = a.step(q, v);
                    if next != 0 && alive[index(i + 1, next)] && Self::in_domain(ctx, var, v) {
                        counts[self.out_cell(i, q)] += 1;
                        counts[self.in_cell(i + 1, next)] += 1;
                        counts[self.label_cell(i, v)] += 1;
                    }
                }
            }
        }
        for layer in 0..=n {
            for q in 1..=states as u32 {
                if !alive[index(layer, q)] {
                    counts[self.in_cell(layer, q)] = -1;
                }
            }
        }
        for layer in 0..n {
            for v in 1..=a.symbols as u32 {
                let cell = self.label_cell(layer, v);
                if counts[cell] == 0 {
                    counts[cell] = -1;
                }
            }
        }
        for (cell, &count) in counts.iter().enumerate() {
            ctx.set_cell(cell, count);
        }
        Ok(())
    }

    /// Removes one edge that was alive, whose `dead` end has just died: the other entities lose a
    /// count, and those left with none die in turn.
    fn lose(ctx: &mut PropagationCtx<'_>, cell: usize, death: Death, pending: &mut Vec<Death>) {
        let count = ctx.cell(cell) - 1;
        ctx.set_cell(cell, count);
        if count == 0 {
            pending.push(death);
        }
    }

    /// Kills the entities in `pending` and everything their deaths take along.
    fn cascade(&self, ctx: &mut PropagationCtx<'_>, pending: &mut Vec<Death>) {
        let a = &self.automaton;
        while let Some(death) = pending.pop() {
            match death {
                Death::Label(layer, v) => {
                    let cell = self.label_cell(layer, v);
                    if ctx.cell(cell) < 0 {
                        continue;
                    }
                    ctx.set_cell(cell, -1);
                    for q in 1..=a.states as u32 {
                        let next = a.step(q, v);
                        if next != 0
                            && self.node_alive(ctx, layer, q)
                            && self.node_alive(ctx, layer + 1, next)
                        {
                            let out = self.out_cell(layer, q);
                            Self::lose(ctx, out, Death::Node(layer, q), pending);
                            let into = self.in_cell(layer + 1, next);
                            Self::lose(ctx, into, Death::Node(layer + 1, next), pending);
                        }
                    }
                }
                Death::Node(layer, q) => {
                    let cell = self.in_cell(layer, q);
                    if ctx.cell(cell) < 0 {
                        continue;
                    }
                    ctx.set_cell(cell, -1);
                    if layer < self.n {
                        for v in 1..=a.symbols as u32 {
                            let next = a.step(q, v);
                            if next != 0
                                && self.label_alive(ctx, layer, v)
                                && self.node_alive(ctx, layer + 1, next)
                            {
                                let label = self.label_cell(layer, v);
                                Self::lose(ctx, label, Death::Label(layer, v), pending);
                                let into = self.in_cell(layer + 1, next);
                                Self::lose(ctx, into, Death::Node(layer + 1, next), pending);
                            }
                        }
                    }
                    if layer > 0 {
                        for &(p, v) in &a.into[q as usize - 1] {
                            if self.node_alive(ctx, layer - 1, p)
                                && self.label_alive(ctx, layer - 1, v)
                            {
                                let label = self.label_cell(layer - 1, v);
                                Self::lose(ctx, label, Death::Label(layer - 1, v), pending);
                                let out = self.out_cell(layer - 1, p);
                                Self::lose(ctx, out, Death::Node(layer - 1, p), pending);
                            }
                        }
                    }
                }
            }
        }
    }

    /// Brings the graph in line with the domains (values gone from a domain lose their edges), then
    /// the domains in line with the graph (values without an edge go), until both agree; with
    /// `extra`, a further pass that may find more values to kill (`cost_regular`'s paths). Fails
    /// when no accepting path is left.
    fn revise(
        &self,
        ctx: &mut PropagationCtx<'_>,
        vars: &[VarId],
        mut extra: impl FnMut(&Self, &mut PropagationCtx<'_>, &mut Vec<Death>) -> Result<(), Wipeout>,
    ) -> Result<(), Wipeout> {
        let symbols = self.automaton.symbols as i64;
        for &var in vars {
            ctx.restrict_bounds(var, 1, symbols)?;
        }
        if ctx.cell(BUILT) == 0 {
            self.build(ctx, vars)?;
        }
        let mut pending = Vec::new();
        loop {
            for (layer, &var) in vars.iter().enumerate() {
                for v in 1..=self.automaton.symbols as u32 {
                    if self.label_alive(ctx, layer, v) && !Self::in_domain(ctx, var, v) {
                        pending.push(Death::Label(layer, v));
                    }
                }
            }
            self.cascade(ctx, &mut pending);
            if !self.node_alive(ctx, 0, self.automaton.start) {
                return Err(Wipeout);
            }
            extra(self, ctx, &mut pending)?;
            self.cascade(ctx, &mut pending);
            if !self.node_alive(ctx, 0, self.automaton.start) {
                return Err(Wipeout);
            }
            let mut changed = false;
            for (layer, &var) in vars.iter().enumerate() {
                for v in 1..=self.automaton.symbols as u32 {
                    if !self.label_alive(ctx, layer, v) {
                        changed |= ctx.remove(var, v as i32)?;
                    }
                }
            }
            if !changed {
                return Ok(());
            }
        }
    }
}

/// The sequence `x` is a word of the automaton's language: MiniZinc's `regular(x, Q, S, d, q0, F)`.
/// Every `xᵢ` is in `1..=S`; reading them from `q0` never reaches the failing state 0 and ends in `F`.
///
/// Consistency: domain consistent when the variables are distinct (sound with one repeated), by
/// Pesant's algorithm (*A Regular Language Membership Constraint for Finite Sequences of
/// Variables*, CP 2004): the layered graph of the automaton unrolled over the sequence keeps only the
/// nodes on some accepting path, and each node's in- and out-degree and each value's number of edges
/// live in trailed state cells. A value leaving a domain removes its edges; a node left without edges
/// in or out dies and removes the rest of its edges; a value left without edges leaves its domain.
/// The graph is built once, at the first revision, in O(n·Q·S); afterwards each removal costs the
/// edges it takes.
#[derive(Debug, Clone)]
pub struct Regular {
    args: Args,
    layers: Layers,
}

impl Regular {
    /// `xs` read by `automaton` from its start ends in an accepting state.
    pub fn new(xs: Vec<VarId>, automaton: Automaton) -> Self {
        Regular {
            layers: Layers {
                n: xs.len(),
                automaton,
            },
            args: Args::new(xs),
        }
    }

    fn vars(&self) -> Vec<VarId> {
        (0..self.layers.n).map(|i| self.args.var(i)).collect()
    }
}

impl Constraint for Regular {
    fn scope(&self) -> &[VarId] {
        &self.args.scope
    }

    fn is_satisfied(&self, values: &[i32]) -> bool {
        let automaton = &self.layers.automaton;
        automaton
            .run(self.args.values(values))
            .is_some_and(|state| automaton.accepts(state))
    }

    fn state_size(&self) -> usize {
        self.layers.cells()
    }

    fn revise(&self, ctx: &mut PropagationCtx<'_>) -> Result<(), Wipeout> {
        self.layers.revise(ctx, &self.vars(), |_, _, _| Ok(()))
    }

    fn subscribe(&self, _position: usize) -> EventSet {
        EventSet::ANY
    }
}

/// `regular` with a cost on every transition: MiniZinc's `cost_regular(x, Q, S, d, q0, F, c, C)`.
/// The sequence `x` is a word of the automaton's language, and `C` is the sum of the costs
/// `c[q, v]` of the transitions it takes.
///
/// Consistency: [`Regular`]'s on the sequence, and the shortest and longest paths of the layered
/// graph (Demassey, Pesant & Rousseau, *A Cost-Regular Based Hybrid Column Generation Approach*,
/// Constraints 2006): `C` lies between the cheapest and the dearest accepting path, and a value
/// whose every edge lies only on paths cheaper than `C`'s least or dearer than its largest value
/// leaves its domain. (A value may keep an edge whose paths all miss `C`'s holes or jump over its
/// range; at a fixed sequence the cost is exact.)
#[derive(Debug, Clone)]
pub struct CostRegular {
    /// `[x₁, …, xₙ, C]`.
    args: Args,
    layers: Layers,
    /// `costs[(q - 1) · S + (v - 1)]`, the cost of reading `v` in state `q`.
    costs: Vec<i64>,
}

impl CostRegular {
    /// `xs` is accepted by `automaton`, and `cost` is the sum of `costs` (a `Q × S` table, row by
    /// row, as the automaton's transitions) along the way.
    pub fn new(
        xs: Vec<VarId>,
        automaton: Automaton,
        costs: Vec<i64>,
        cost: VarId,
    ) -> Result<Self, ModelError> {
        if costs.len() != automaton.next.len() {
            return Err(ModelError::ArityMismatch {
                constraint: "cost_regular costs".to_owned(),
                expected: automaton.next.len(),
                found: costs.len(),
            });
        }
        Ok(CostRegular {
            layers: Layers {
                n: xs.len(),
                automaton,
            },
            args: Args::new(xs.into_iter().chain([cost])),
            costs,
        })
    }

    fn cost_of(&self, state: u32, symbol: u32) -> i128 {
        i128::from(
            self.costs[(state as usize - 1) * self.layers.automaton.symbols + symbol as usize - 1],
        )
    }

    /// The cheapest and dearest paths through the alive graph: bounds on the cost variable, and
    /// the values none of whose edges can lie on a path of a cost within them.
    fn paths(
        &self,
        layers: &Layers,
        ctx: &mut PropagationCtx<'_>,
        pending: &mut Vec<Death>,
    ) -> Result<(), Wipeout> {
        let a = &layers.automaton;
        let (n, states) = (layers.n, a.states);
        let cost_var = self.args.var(n);
        let index = |layer: usize, q: u32| layer * states + q as usize - 1;
        // An edge is alive when both its nodes and its value are.
        let alive_edge = |ctx: &PropagationCtx<'_>, layer: usize, q: u32, v: u32| {
            let next = a.step(q, v);
            (next != 0
                && layers.node_alive(ctx, layer, q)
                && layers.label_alive(ctx, layer, v)
                && layers.node_alive(ctx, layer + 1, next))
            .then_some(next)
        };
        let (none_lo, none_hi) = (i128::MAX, i128::MIN);
        let mut from_lo = vec![none_lo; (n + 1) * states];
        let mut from_hi = vec![none_hi; (n + 1) * states];
        from_lo[index(0, a.start)] = 0;
        from_hi[index(0, a.start)] = 0;
        for layer in 0..n {
            for q in 1..=states as u32 {
                if from_lo[index(layer, q)] == none_lo {
                    continue;
                }
                for v in 1..=a.symbols as u32 {
                    if let Some(next) = alive_edge(ctx, layer, q, v) {
                        let c = self.cost_of(q, v);
                        let (lo, hi) = (from_lo[index(layer, q)] + c, from_hi[index(layer, q)] + c);
                        let k = index(layer + 1, next);
                        from_lo[k] = from_lo[k].min(lo);
                        from_hi[k] = from_hi[k].max(hi);
                    }
                }
            }
        }
        let mut to_lo = vec![none_lo; (n + 1) * states];
        let mut to_hi = vec![none_hi; (n + 1) * states];
        for q in 1..=states as u32 {
            if layers.node_alive(ctx, n, q) {
                to_lo[index(n, q)] = 0;
                to_hi[index(n, q)] = 0;
            }
        }
        for layer in (0..n).rev() {
            for q in 1..=states as u32 {
                for v in 1..=a.symbols as u32 {
                    if let Some(next) = alive_edge(ctx, layer, q, v) {
                        let c = self.cost_of(q, v);
                        let k = index(layer, q);
                        to_lo[k] = to_lo[k].min(to_lo[index(layer + 1, next)] + c);
                        to_hi[k] = to_hi[k].max(to_hi[index(layer + 1, next)] + c);
                    }
                }
            }
        }
        let start = index(0, a.start);
        let clamp = |x: i128| x.clamp(i128::from(i64::MIN), i128::from(i64::MAX)) as i64;
        ctx.restrict_bounds(cost_var, clamp(to_lo[start]), clamp(to_hi[start]))?;
        let (lo, hi) = (i128::from(ctx.lb(cost_var)), i128::from(ctx.ub(cost_var)));
        for layer in 0..n {
            for v in 1..=a.symbols as u32 {
                if !layers.label_alive(ctx, layer, v) {
                    continue;
                }
                let supported = (1..=states as u32).any(|q| {
                    alive_edge(ctx, layer, q, v).is_some_and(|next| {
                        let c = self.cost_of(q, v);
                        let (here, there) = (index(layer, q), index(layer + 1, next));
                        from_lo[here] + c + to_lo[there] <= hi
                            && from_hi[here] + c + to_hi[there] >= lo
                    })
                });
                if !supported {
                    pending.push(Death::Label(layer, v));
                }
            }
        }
        Ok(())
    }
}

impl Constraint for CostRegular {
    fn scope(&self) -> &[VarId] {
        &self.args.scope
    }

    fn is_satisfied(&self, values: &[i32]) -> bool {
        let a = &self.layers.automaton;
        let n = self.layers.n;
        let mut state = a.start;
        let mut total = 0i128;
        for i in 0..n {
            let value = self.args.value(values, i);
            let Some(symbol) = u32::try_from(value)
                .ok()
                .filter(|&v| (1..=a.symbols as u32).contains(&v))
            else {
                return false;
            };
            let next = a.step(state, symbol);
            if next == 0 {
                return false;
            }
            total += self.cost_of(state, symbol);
            state = next;
        }
        a.accepts(state) && total == i128::from(self.args.value(values, n))
    }

    fn state_size(&self) -> usize {
        self.layers.cells()
    }

    fn revise(&self, ctx: &mut PropagationCtx<'_>) -> Result<(), Wipeout> {
        let vars: Vec<VarId> = (0..self.layers.n).map(|i| self.args.var(i)).collect();
        self.layers.revise(ctx, &vars, |layers, ctx, pending| {
            self.paths(layers, ctx, pending)
        })
    }

    fn subscribe(&self, _position: usize) -> EventSet {
        EventSet::ANY
    }
}
