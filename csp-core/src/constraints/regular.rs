//! Membership of a regular language: MiniZinc's `regular` (a deterministic finite automaton reads
//! the sequence) and `cost_regular` (each transition also costs something, and the costs add up to a
//! variable).

use crate::Domains;
use crate::{
    Constraint, Constructor, EventSet, ExplainCtx, Literal, LiteralRelation, ModelError, PostCtx,
    PropagationCtx, Propagator, Slot, Slots, VarId, Wipeout,
    constraints::{
        lex::{bound_sides, explain_by_fixed},
        util::{Args, dedup_reasons, invalid},
    },
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
        Ok(Automaton {
            states,
            symbols,
            next,
            start: start as u32,
            accepting: final_states,
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

/// Something whose support has gone: a node of the layered graph, or a value of a layer's
/// variable (a label, by its index `layer · S + v − 1`).
#[derive(Debug, Clone, Copy)]
enum Death {
    Node(u32),
    Label(u32),
}

/// An edge of the layered graph: from a node to one of the next layer, reading a label.
#[derive(Debug, Clone, Copy)]
struct Edge {
    from: u32,
    to: u32,
    label: u32,
}

/// The layered graph of Pesant's algorithm over an automaton and `n` variables: node `(i, q)` is
/// state `q` before reading variable `i` (layers `0..=n`); an edge `(i, q, v)` goes to
/// `(i + 1, next(q, v))`. Only the nodes on some accepting path of the automaton are kept (worked
/// out once, with every symbol allowed), so the graph is as narrow as the language allows.
///
/// The state cells count each node's edges in and out (one cell a node, a count in each half) and
/// each label's edges; an entity whose count reaches zero dies, and takes its edges with it. Each
/// layer also counts its labels still alive, which after every revision are exactly its variable's
/// domain, and a bit set records the scope positions changed since the last revision (kept by
/// `notify`), so that a revision looks only at the layers whose domain shrank.
///
/// (Measured on nonogram non_fast_3, Gecode's 147,198 nodes, least user time of three runs on this
/// project's machine: two cells a node and a full scan of the layers each revision took 9.7 s;
/// bit sets of live nodes and values, rechecking a node's support by scanning its edges instead of
/// counting, 13.9 s, and re-examining whole layers 14.3 s; the counts as here, 7.9 s. Gecode 6.2's
/// own regular takes 22.7 s there.)
#[derive(Debug, Clone)]
struct Layers {
    n: usize,
    automaton: Automaton,
    /// The node of the start state, in layer 0, if the automaton accepts any word of length `n`.
    start: Option<u32>,
    /// Each node's state.
    states: Vec<u32>,
    /// The edges, by layer then label.
    edges: Vec<Edge>,
    /// `label_edges[l]..label_edges[l + 1]`: the edges of label `l` (in `edges`).
    label_edges: Vec<u32>,
    /// Each node's edges out as (target, label): `out_edges[out_start[k]..out_start[k + 1]]`;
    /// likewise its edges in as (source, label). Kept beside `edges` so that a death reads its
    /// neighbours in one place.
    out_start: Vec<u32>,
    out_edges: Vec<(u32, u32)>,
    in_start: Vec<u32>,
    in_edges: Vec<(u32, u32)>,
    /// The nodes of the last layer (accepting).
    last_layer: Vec<u32>,
    /// `position_layers[position_start[p]..position_start[p + 1]]`: the layers read by the scope
    /// variable at position `p`.
    position_start: Vec<u32>,
    position_layers: Vec<u32>,
    /// Whether a variable is read at several layers (a removal for one layer then concerns others).
    repeated: bool,
    state: LayersState,
}

/// The trailed state of a [`Layers`] graph.
#[derive(Debug, Clone)]
struct LayersState {
    /// Whether the counts have been built ...
    built: Slot<bool>,
    /// ... the bit set of scope positions changed since the last revision ...
    dirty: Slots<u64>,
    /// ... the labels still alive at each layer ...
    alive: Slots<i64>,
    /// ... each node's edges in (high half) and out (low half) ...
    nodes: Slots<i64>,
    /// ... and each label's edges.
    labels: Slots<i64>,
}

impl LayersState {
    fn new(
        layout: &mut PostCtx,
        dirty_words: usize,
        layers: usize,
        nodes: usize,
        labels: usize,
    ) -> Self {
        LayersState {
            built: layout.slot(),
            dirty: layout.slots(dirty_words),
            alive: layout.slots(layers),
            nodes: layout.slots(nodes),
            labels: layout.slots(labels),
        }
    }
}

impl Layers {
    fn new(n: usize, automaton: Automaton) -> Self {
        let (states, symbols) = (automaton.states, automaton.symbols);
        let index = |layer: usize, q: u32| layer * states + q as usize - 1;
        // The nodes on some accepting path with every symbol allowed.
        let mut reached = vec![false; (n + 1) * states];
        reached[index(0, automaton.start)] = true;
        for i in 0..n {
            for q in 1..=states as u32 {
                if reached[index(i, q)] {
                    for v in 1..=symbols as u32 {
                        let next = automaton.step(q, v);
                        if next != 0 {
                            reached[index(i + 1, next)] = true;
                        }
                    }
                }
            }
        }
        let mut alive = vec![false; (n + 1) * states];
        for q in 1..=states as u32 {
            alive[index(n, q)] = reached[index(n, q)] && automaton.accepts(q);
        }
        for i in (0..n).rev() {
            for q in 1..=states as u32 {
                alive[index(i, q)] = reached[index(i, q)]
                    && (1..=symbols as u32).any(|v| {
                        let next = automaton.step(q, v);
                        next != 0 && alive[index(i + 1, next)]
                    });
            }
        }
        let mut id = vec![u32::MAX; (n + 1) * states];
        let mut node_states = Vec::new();
        for layer in 0..=n {
            for q in 1..=states as u32 {
                if alive[index(layer, q)] {
                    id[index(layer, q)] = node_states.len() as u32;
                    node_states.push(q);
                }
            }
        }
        let mut edges = Vec::new();
        for layer in 0..n {
            for v in 1..=symbols as u32 {
                for q in 1..=states as u32 {
                    let next = automaton.step(q, v);
                    if alive[index(layer, q)] && next != 0 && alive[index(layer + 1, next)] {
                        edges.push(Edge {
                            from: id[index(layer, q)],
                            to: id[index(layer + 1, next)],
                            label: (layer * symbols + v as usize - 1) as u32,
                        });
                    }
                }
            }
        }
        let mut label_edges = vec![0u32; n * symbols + 1];
        for e in &edges {
            label_edges[e.label as usize + 1] += 1;
        }
        for l in 0..n * symbols {
            label_edges[l + 1] += label_edges[l];
        }
        // Each node's edges as (the other node, label), grouped by `key`.
        let csr = |key: &dyn Fn(&Edge) -> (u32, u32, u32)| {
            let mut start = vec![0u32; node_states.len() + 1];
            for e in &edges {
                start[key(e).0 as usize + 1] += 1;
            }
            for k in 0..node_states.len() {
                start[k + 1] += start[k];
            }
            let mut next = start.clone();
            let mut list = vec![(0u32, 0u32); edges.len()];
            for e in &edges {
                let (node, other, label) = key(e);
                let slot = &mut next[node as usize];
                list[*slot as usize] = (other, label);
                *slot += 1;
            }
            (start, list)
        };
        let (out_start, out_edges) = csr(&|e| (e.from, e.to, e.label));
        let (in_start, in_edges) = csr(&|e| (e.to, e.from, e.label));
        let start = alive[index(0, automaton.start)].then(|| id[index(0, automaton.start)]);
        let last_layer = (1..=states as u32)
            .filter(|&q| alive[index(n, q)])
            .map(|q| id[index(n, q)])
            .collect();
        Layers {
            n,
            automaton,
            start,
            states: node_states,
            edges,
            label_edges,
            out_start,
            out_edges,
            in_start,
            in_edges,
            last_layer,
            position_start: vec![0; 1],
            position_layers: Vec::new(),
            repeated: false,
            // Laid out again, for the positions, when the constraint is posted.
            state: LayersState::new(&mut PostCtx::new(), 0, 0, 0, 0),
        }
    }

    /// The graph with its state laid out in `ctx` for its current positions.
    fn laid_out(mut self, ctx: &mut PostCtx) -> Self {
        self.state = LayersState::new(
            ctx,
            self.dirty_words(),
            self.n,
            self.states.len(),
            self.n * self.symbols(),
        );
        self
    }

    /// The same graph over arguments whose layer `i` reads the scope variable at position
    /// `slots[i]`, among `positions` scope variables.
    fn with_positions(mut self, slots: &[usize], positions: usize) -> Self {
        let mut lists = vec![Vec::new(); positions];
        for (layer, &p) in slots.iter().enumerate() {
            lists[p].push(layer as u32);
        }
        self.repeated = lists.iter().any(|l| l.len() > 1);
        self.position_start = vec![0];
        for list in lists {
            self.position_layers.extend(list);
            self.position_start.push(self.position_layers.len() as u32);
        }
        self
    }

    /// Words of the bit set of scope positions changed since the last revision.
    fn dirty_words(&self) -> usize {
        (self.position_start.len() - 1).div_ceil(64)
    }

    /// A subscribed change happened at scope position `position`: its layers are looked at by the
    /// next revision.
    fn mark(&self, ctx: &mut PropagationCtx<'_>, position: usize) {
        let slot = self.state.dirty.at(position / 64);
        let word = ctx.get(slot);
        let bit = 1u64 << (position % 64);
        if word & bit == 0 {
            ctx.set(slot, word | bit);
        }
    }

    fn symbols(&self) -> usize {
        self.automaton.symbols
    }

    /// The slot counting the labels still alive at `layer`.
    fn alive_cell(&self, layer: usize) -> Slot<i64> {
        self.state.alive.at(layer)
    }

    /// The slot of `node`: its edges in (high half) and out (low half).
    fn node_cell(&self, node: u32) -> Slot<i64> {
        self.state.nodes.at(node as usize)
    }

    /// The slot counting the edges of a label.
    fn label_cell(&self, label: u32) -> Slot<i64> {
        self.state.labels.at(label as usize)
    }

    fn label(&self, layer: usize, symbol: u32) -> u32 {
        (layer * self.symbols() + symbol as usize - 1) as u32
    }

    /// The entity number of a death, for the pending flags: nodes first, then labels.
    fn entity(&self, death: Death) -> usize {
        match death {
            Death::Node(k) => k as usize,
            Death::Label(l) => self.states.len() + l as usize,
        }
    }

    fn entities(&self) -> usize {
        self.states.len() + self.n * self.symbols()
    }

    /// Whether `node` is alive, between revisions: it has edges in and out.
    fn node_alive(&self, ctx: &PropagationCtx<'_>, node: u32) -> bool {
        let cell = ctx.get(self.node_cell(node));
        cell >> 32 != 0 && cell & OUT_MASK != 0
    }

    fn label_alive(&self, ctx: &PropagationCtx<'_>, label: u32) -> bool {
        ctx.get(self.label_cell(label)) != 0
    }

    /// Whether an edge is alive: its nodes and its label are.
    fn edge_alive(&self, ctx: &PropagationCtx<'_>, e: &Edge) -> bool {
        self.node_alive(ctx, e.from) && self.node_alive(ctx, e.to) && self.label_alive(ctx, e.label)
    }

    /// Whether `symbol` is in the domain of `var`.
    fn in_domain(ctx: &PropagationCtx<'_>, var: VarId, symbol: u32) -> bool {
        i32::try_from(symbol).is_ok_and(|v| ctx.domain(var).contains(v))
    }

    /// Builds the counts of the current domains: the nodes on some accepting path within them,
    /// their edges and counts; the rest dead. Fails when no word is accepted.
    fn build(
        &self,
        ctx: &mut PropagationCtx<'_>,
        var: impl Fn(usize) -> VarId,
    ) -> Result<(), Wipeout> {
        let start = self.start.ok_or(Wipeout)?;
        let symbols = self.symbols();
        let allowed = |ctx: &PropagationCtx<'_>, e: &Edge| {
            let layer = e.label as usize / symbols;
            Self::in_domain(ctx, var(layer), e.label % symbols as u32 + 1)
        };
        // Forward from the start, then backward from the last layer (the edges are by layer).
        let mut reached = vec![false; self.states.len()];
        reached[start as usize] = true;
        for e in &self.edges {
            if reached[e.from as usize] && allowed(ctx, e) {
                reached[e.to as usize] = true;
            }
        }
        let mut alive = vec![false; self.states.len()];
        for &k in &self.last_layer {
            alive[k as usize] = reached[k as usize];
        }
        for e in self.edges.iter().rev() {
            if alive[e.to as usize] && reached[e.from as usize] && allowed(ctx, e) {
                alive[e.from as usize] = true;
            }
        }
        if !alive[start as usize] {
            return Err(Wipeout);
        }
        let mut nodes = vec![0i64; self.states.len()];
        let mut labels = vec![0i64; self.n * symbols];
        let mut alive_labels = vec![0i64; self.n];
        nodes[start as usize] = IN_ONE;
        for &k in &self.last_layer {
            nodes[k as usize] |= 1;
        }
        for e in &self.edges {
            if alive[e.from as usize] && alive[e.to as usize] && allowed(ctx, e) {
                nodes[e.from as usize] += 1;
                nodes[e.to as usize] += IN_ONE;
                labels[e.label as usize] += 1;
            }
        }
        for (k, &alive) in alive.iter().enumerate() {
            if !alive {
                nodes[k] = 0;
            }
        }
        for (label, &count) in labels.iter().enumerate() {
            if count > 0 {
                alive_labels[label / symbols] += 1;
            }
        }
        ctx.set(self.state.built, true);
        for w in 0..self.state.dirty.len() {
            ctx.set(self.state.dirty.at(w), 0);
        }
        for (k, &count) in nodes.iter().enumerate() {
            ctx.set(self.node_cell(k as u32), count);
        }
        for (label, &count) in labels.iter().enumerate() {
            ctx.set(self.label_cell(label as u32), count);
        }
        for (layer, &count) in alive_labels.iter().enumerate() {
            ctx.set(self.alive_cell(layer), count);
        }
        Ok(())
    }

    /// Kills a label (its value left the domain): its edges go, and its count drops to zero, when
    /// the death is processed.
    fn kill_label(&self, label: u32, pending: &mut Vec<Death>, flags: &mut [bool]) {
        let entity = self.entity(Death::Label(label));
        if !flags[entity] {
            flags[entity] = true;
            pending.push(Death::Label(label));
        }
    }

    /// Removes one edge from `node`'s count (`IN_ONE` for an edge in, 1 for an edge out); a node
    /// left without edges in or out dies.
    #[inline]
    fn lose_edge(
        &self,
        ctx: &mut PropagationCtx<'_>,
        node: u32,
        delta: i64,
        pending: &mut Vec<Death>,
        flags: &mut [bool],
    ) {
        let cell = self.node_cell(node);
        let before = ctx.get(cell);
        let after = before - delta;
        ctx.set(cell, after);
        let alive = |c: i64| c >> 32 != 0 && c & OUT_MASK != 0;
        if alive(before) && !alive(after) {
            flags[node as usize] = true;
            pending.push(Death::Node(node));
        }
    }

    /// Removes one edge from a label's count; a label left without edges dies.
    #[inline]
    fn lose_label(
        &self,
        ctx: &mut PropagationCtx<'_>,
        label: u32,
        pending: &mut Vec<Death>,
        flags: &mut [bool],
    ) {
        let cell = self.label_cell(label);
        let count = ctx.get(cell) - 1;
        ctx.set(cell, count);
        if count == 0 {
            self.kill_label(label, pending, flags);
        }
    }

    /// Kills the entities in `pending` and everything their deaths take along; records in `touched`
    /// the layers that lost a label. An entity whose count has reached zero still counts as alive
    /// until it is processed here (its flag is up meanwhile), so each edge is removed exactly once,
    /// when the first of its three entities is processed.
    fn cascade(
        &self,
        ctx: &mut PropagationCtx<'_>,
        pending: &mut Vec<Death>,
        flags: &mut [bool],
        touched: &mut Vec<usize>,
    ) {
        let node_live = |ctx: &PropagationCtx<'_>, flags: &[bool], k: u32| {
            self.node_alive(ctx, k) || flags[k as usize]
        };
        let label_live = |ctx: &PropagationCtx<'_>, flags: &[bool], l: u32| {
            self.label_alive(ctx, l) || flags[self.states.len() + l as usize]
        };
        while let Some(death) = pending.pop() {
            flags[self.entity(death)] = false;
            match death {
                Death::Label(label) => {
                    let layer = label as usize / self.symbols();
                    ctx.set(self.label_cell(label), 0);
                    ctx.add(self.alive_cell(layer), -1);
                    touched.push(layer);
                    let range =
                        self.label_edges[label as usize]..self.label_edges[label as usize + 1];
                    for e in &self.edges[range.start as usize..range.end as usize] {
                        if node_live(ctx, flags, e.from) && node_live(ctx, flags, e.to) {
                            self.lose_edge(ctx, e.from, 1, pending, flags);
                            self.lose_edge(ctx, e.to, IN_ONE, pending, flags);
                        }
                    }
                }
                Death::Node(node) => {
                    let k = node as usize;
                    let outs = self.out_start[k] as usize..self.out_start[k + 1] as usize;
                    for &(to, label) in &self.out_edges[outs] {
                        if label_live(ctx, flags, label) && node_live(ctx, flags, to) {
                            self.lose_label(ctx, label, pending, flags);
                            self.lose_edge(ctx, to, IN_ONE, pending, flags);
                        }
                    }
                    let ins = self.in_start[k] as usize..self.in_start[k + 1] as usize;
                    for &(from, label) in &self.in_edges[ins] {
                        if label_live(ctx, flags, label) && node_live(ctx, flags, from) {
                            self.lose_label(ctx, label, pending, flags);
                            self.lose_edge(ctx, from, 1, pending, flags);
                        }
                    }
                }
            }
        }
    }

    /// Brings the graph in line with the domains (values gone from a domain lose their edges), then
    /// the domains in line with the graph (values without an edge go), until both agree; with
    /// `extra`, a further pass that may find more labels to kill (`cost_regular`'s paths). Fails
    /// when no accepting path is left. `var(i)` is the variable at layer `i`.
    fn revise(
        &self,
        ctx: &mut PropagationCtx<'_>,
        var: impl Fn(usize) -> VarId,
        mut extra: impl FnMut(&Self, &mut PropagationCtx<'_>, &mut Vec<u32>) -> Result<(), Wipeout>,
    ) -> Result<(), Wipeout> {
        PENDING.with(|scratch| {
            let mut scratch = scratch.borrow_mut();
            let Scratch {
                pending,
                flags,
                touched,
                drops,
            } = &mut *scratch;
            if flags.len() < self.entities() {
                flags.resize(self.entities(), false);
            }
            pending.clear();
            touched.clear();
            self.settle(ctx, &var, &mut extra, pending, flags, touched, drops)
        })
    }

    #[allow(clippy::too_many_arguments)]
    fn settle(
        &self,
        ctx: &mut PropagationCtx<'_>,
        var: &impl Fn(usize) -> VarId,
        extra: &mut impl FnMut(&Self, &mut PropagationCtx<'_>, &mut Vec<u32>) -> Result<(), Wipeout>,
        pending: &mut Vec<Death>,
        flags: &mut [bool],
        touched: &mut Vec<usize>,
        drops: &mut Vec<u32>,
    ) -> Result<(), Wipeout> {
        let symbols = self.symbols() as u32;
        let mut everything = false;
        if !ctx.get(self.state.built) {
            for i in 0..self.n {
                ctx.restrict_bounds(var(i), 1, i64::from(symbols))?;
            }
            self.build(ctx, var)?;
            // Values without an edge from the start go below.
            touched.extend(0..self.n);
        }
        let start = self.start.ok_or(Wipeout)?;
        loop {
            // The layers of the variables changed since the last revision (all of them when a
            // variable is read twice and this revision removed values): a value gone from the
            // domain kills its label. The alive labels are the domain's values until the domain
            // loses one, so a layer whose domain kept its size is skipped.
            let mut look = |ctx: &mut PropagationCtx<'_>, layer: usize| {
                let x = var(layer);
                if ctx.size(x) == ctx.get(self.alive_cell(layer)) as u64 {
                    return;
                }
                for v in 1..=symbols {
                    let label = self.label(layer, v);
                    if self.label_alive(ctx, label) && !Self::in_domain(ctx, x, v) {
                        self.kill_label(label, pending, flags);
                    }
                }
            };
            if everything {
                (0..self.n).for_each(|layer| look(ctx, layer));
            } else {
                for w in 0..self.dirty_words() {
                    let mut word = ctx.get(self.state.dirty.at(w));
                    if word == 0 {
                        continue;
                    }
                    ctx.set(self.state.dirty.at(w), 0);
                    while word != 0 {
                        let p = w * 64 + word.trailing_zeros() as usize;
                        word &= word - 1;
                        let layers =
                            self.position_start[p] as usize..self.position_start[p + 1] as usize;
                        for &layer in &self.position_layers[layers] {
                            look(ctx, layer as usize);
                        }
                    }
                }
            }
            self.cascade(ctx, pending, flags, touched);
            if !self.node_alive(ctx, start) {
                return Err(Wipeout);
            }
            drops.clear();
            extra(self, ctx, drops)?;
            for &label in drops.iter() {
                if self.label_alive(ctx, label) {
                    self.kill_label(label, pending, flags);
                }
            }
            self.cascade(ctx, pending, flags, touched);
            if !self.node_alive(ctx, start) {
                return Err(Wipeout);
            }
            touched.sort_unstable();
            touched.dedup();
            let mut changed = false;
            for &layer in touched.iter() {
                for v in 1..=symbols {
                    if !self.label_alive(ctx, self.label(layer, v)) {
                        changed |= ctx.remove(var(layer), v as i32)?;
                    }
                }
            }
            touched.clear();
            // A removed value labels no live edge, so the graph stands; only a variable read at
            // another layer, or a cost bound that moved, can leave work.
            if !changed || (!self.repeated && drops.is_empty()) {
                return Ok(());
            }
            everything = true;
        }
    }
}

/// What an explanation of a [`Layers`] graph reads, worked out from the domains just before the
/// change it explains: which labels' values were in their layer's domain, and which nodes were
/// reachable from the start and which could reach an accepting node over those labels.
struct Reach {
    live: Vec<bool>,
    forward: Vec<bool>,
    backward: Vec<bool>,
}

impl Layers {
    /// The labels alive in the domains of `ctx` and the nodes reachable both ways over them: the
    /// graph the propagator kept then, or a wider one (a value it had yet to remove), as the
    /// propagator's counts follow from the domains alone.
    fn reach(&self, ctx: &ExplainCtx<'_>, var: impl Fn(usize) -> VarId) -> Reach {
        let symbols = self.symbols();
        let mut live = vec![false; self.n * symbols];
        for layer in 0..self.n {
            let x = var(layer);
            let bounds = ctx.bounds(x);
            for v in 1..=symbols {
                live[layer * symbols + v - 1] = ctx.contains_within(x, v as i32, bounds);
            }
        }
        let mut forward = vec![false; self.states.len()];
        if let Some(start) = self.start {
            forward[start as usize] = true;
        }
        for e in &self.edges {
            if forward[e.from as usize] && live[e.label as usize] {
                forward[e.to as usize] = true;
            }
        }
        let mut backward = vec![false; self.states.len()];
        for &k in &self.last_layer {
            backward[k as usize] = true;
        }
        for e in self.edges.iter().rev() {
            if backward[e.to as usize] && live[e.label as usize] {
                backward[e.from as usize] = true;
            }
        }
        Reach {
            live,
            forward,
            backward,
        }
    }

    /// The edges of `label`, by their index in `edges`.
    fn label_range(&self, label: u32) -> std::ops::Range<usize> {
        self.label_edges[label as usize] as usize..self.label_edges[label as usize + 1] as usize
    }

    /// The edges of `layer`, by their index in `edges`.
    fn layer_range(&self, layer: usize) -> std::ops::Range<usize> {
        let symbols = self.symbols();
        self.label_edges[layer * symbols] as usize..self.label_edges[(layer + 1) * symbols] as usize
    }

    /// A label of `symbol` at one of the layers of scope position `position` that no path of
    /// `reach` passes through, if there is one.
    fn unsupported_label(&self, reach: &Reach, position: usize, symbol: u32) -> Option<u32> {
        let layers =
            self.position_start[position] as usize..self.position_start[position + 1] as usize;
        self.position_layers[layers]
            .iter()
            .map(|&layer| self.label(layer as usize, symbol))
            .find(|&label| {
                self.label_range(label).all(|i| {
                    let e = &self.edges[i];
                    !reach.forward[e.from as usize] || !reach.backward[e.to as usize]
                })
            })
    }

    /// Pushes the removed values that cut every path of the graph through the labels `seeds`
    /// (each of which no path of `reach` passes through), or, with no seeds, every path from the
    /// start to an accepting node (there must be none in `reach`).
    ///
    /// This is the explanation of the layered graph of Katsirelos, Narodytska & Walsh
    /// (*Reformulating Global Grammar Constraints*, CPAIOR 2009) and of Gange, Stuckey & Szymanek
    /// (*MDD Propagators with Explanation*, Constraints 2011): each edge of a seed has a source
    /// that was unreachable from the start or a target that could not reach the end. Walking
    /// back from the unreachable sources, an edge into a node that must stay unreachable is cut by
    /// its label's removal, which is cited, or else by its own source being unreachable, which
    /// is then explained the same way one layer earlier; a label cited already cuts all its edges
    /// of the layer at once, and a removed label is preferred to a longer walk. The targets that
    /// could not reach the end are explained by the mirror walk forwards.
    fn push_cut(
        &self,
        reach: &Reach,
        seeds: &[u32],
        var: impl Fn(usize) -> VarId,
        ctx: &ExplainCtx<'_>,
        reasons: &mut Vec<Literal>,
    ) {
        let symbols = self.symbols();
        let nodes = self.states.len();
        // Nodes that must stay unreachable from the start, and nodes that must not reach the end.
        let mut cut_before = vec![false; nodes];
        let mut cut_after = vec![false; nodes];
        let mut cited = vec![false; self.n * symbols];
        let (mut lowest, mut highest) = (self.n, 0);
        if seeds.is_empty() {
            for &k in &self.last_layer {
                cut_before[k as usize] = true;
            }
            highest = self.n;
            lowest = self.n;
        }
        for &label in seeds {
            let layer = label as usize / symbols;
            lowest = lowest.min(layer);
            highest = highest.max(layer + 1);
            for i in self.label_range(label) {
                let e = &self.edges[i];
                if !reach.forward[e.from as usize] {
                    cut_before[e.from as usize] = true;
                } else {
                    cut_after[e.to as usize] = true;
                }
            }
        }
        // Backwards from the highest layer with a node to keep unreachable.
        let mut layer = highest;
        let mut pending = true;
        while layer > 0 && (pending || layer >= lowest) {
            layer -= 1;
            let range = self.layer_range(layer);
            // First the labels that must be cited (their sources were reachable), ...
            for e in &self.edges[range.clone()] {
                if cut_before[e.to as usize] && reach.forward[e.from as usize] {
                    cited[e.label as usize] = true;
                }
            }
            // ... then the other edges, by their label if it was removed, else by their source.
            pending = false;
            for e in &self.edges[range] {
                if cut_before[e.to as usize]
                    && !cited[e.label as usize]
                    && !cut_before[e.from as usize]
                {
                    if reach.live[e.label as usize] {
                        cut_before[e.from as usize] = true;
                        pending = true;
                    } else {
                        cited[e.label as usize] = true;
                    }
                }
            }
        }
        // Forwards from the lowest layer with a node that must not reach the end.
        let mut layer = lowest;
        let mut pending = true;
        while layer < self.n && (pending || layer <= highest) {
            let range = self.layer_range(layer);
            for e in &self.edges[range.clone()] {
                if cut_after[e.from as usize] && reach.backward[e.to as usize] {
                    cited[e.label as usize] = true;
                }
            }
            pending = false;
            for e in &self.edges[range] {
                if cut_after[e.from as usize]
                    && !cited[e.label as usize]
                    && !cut_after[e.to as usize]
                {
                    if reach.live[e.label as usize] {
                        cut_after[e.to as usize] = true;
                        pending = true;
                    } else {
                        cited[e.label as usize] = true;
                    }
                }
            }
            layer += 1;
        }
        let gone = (0..self.n * symbols).filter(|&l| cited[l]).map(|l| {
            debug_assert!(!reach.live[l], "a cited label must have been removed");
            (var(l / symbols), (l % symbols + 1) as i32)
        });
        push_removals(gone, ctx, reasons);
    }

    /// Pushes every removed value of the layers whose label is `relevant` (and has an edge):
    /// what the paths of the whole graph rest on.
    fn push_all_removed(
        &self,
        reach: &Reach,
        var: impl Fn(usize) -> VarId,
        relevant: impl Fn(u32) -> bool,
        ctx: &ExplainCtx<'_>,
        reasons: &mut Vec<Literal>,
    ) {
        let symbols = self.symbols();
        let gone = (0..self.n * symbols)
            .filter(|&l| {
                !reach.live[l] && !self.label_range(l as u32).is_empty() && relevant(l as u32)
            })
            .map(|l| (var(l / symbols), (l % symbols + 1) as i32));
        push_removals(gone, ctx, reasons);
    }

    /// Pushes why the values of `x` (at scope position `position`) that `literal` excludes were
    /// gone by the graph alone, and returns the labels (seeds for [`Layers::push_cut`]) that
    /// show it; `None` when one of them had a path through it then.
    fn seeds_for(
        &self,
        reach: &Reach,
        literal: Literal,
        position: usize,
        ctx: &ExplainCtx<'_>,
    ) -> Option<Vec<u32>> {
        let x = literal.var;
        let symbols = self.symbols() as i32;
        let (lo, hi) = ctx.bounds(x);
        let mut seeds = Vec::new();
        // Values outside `1..=S` are excluded by the constraint itself.
        for w in lo.max(1)..=hi.min(symbols) {
            if literal.holds_for(w) || !ctx.contains_within(x, w, (lo, hi)) {
                continue;
            }
            seeds.push(self.unsupported_label(reach, position, w as u32)?);
        }
        Some(seeds)
    }
}

/// Pushes, for a literal of a sequence variable (whose values the constraint keeps in
/// `1..=symbols`), the variable's own bound before the change where the values beyond it
/// needed one; bounds outside `1..=symbols` say nothing the constraint does not.
fn push_own_sequence_bounds(
    literal: Literal,
    symbols: i32,
    ctx: &ExplainCtx<'_>,
    reasons: &mut Vec<Literal>,
) {
    let (lo, hi) = ctx.bounds(literal.var);
    if matches!(literal.relation, LiteralRelation::Ge | LiteralRelation::Eq) && lo > 1 {
        reasons.push(Literal::ge(literal.var, lo));
    }
    if matches!(literal.relation, LiteralRelation::Le | LiteralRelation::Eq) && hi < symbols {
        reasons.push(Literal::le(literal.var, hi));
    }
}

/// Pushes `x ≠ w` for the removed values `gone`, but
/// a variable's values below its lower bound by that bound when there are several (one literal
/// rather than many), likewise above its upper bound, and a variable both of whose bounds are
/// pushed and meet by `x = v`.
fn push_removals(
    gone: impl Iterator<Item = (VarId, i32)>,
    ctx: &ExplainCtx<'_>,
    reasons: &mut Vec<Literal>,
) {
    let mut gone: Vec<(VarId, i32)> = gone.collect();
    gone.sort_unstable_by_key(|&(x, w)| (x.index(), w));
    gone.dedup();
    for group in gone.chunk_by(|a, b| a.0 == b.0) {
        let x = group[0].0;
        let (lo, hi) = ctx.bounds(x);
        let below = group.iter().filter(|&&(_, w)| w < lo).count();
        let above = group.iter().filter(|&&(_, w)| w > hi).count();
        let (by_lower, by_upper) = (below >= 2, above >= 2);
        if by_lower && by_upper && lo == hi {
            reasons.push(Literal::eq(x, lo));
        } else {
            if by_lower {
                reasons.push(Literal::ge(x, lo));
            }
            if by_upper {
                reasons.push(Literal::le(x, hi));
            }
        }
        for &(_, w) in group {
            if (w < lo && !by_lower) || (w > hi && !by_upper) || (lo..=hi).contains(&w) {
                reasons.push(Literal::ne(x, w));
            }
        }
    }
}

/// One edge in, in a node's cell (the edges out count in the low half).
const IN_ONE: i64 = 1 << 32;

/// The low half of a node's cell: its edges out.
const OUT_MASK: i64 = 0xFFFF_FFFF;

/// What a revision of [`Layers`] uses and leaves empty, kept per thread so that revisions do not
/// allocate once warm.
#[derive(Debug, Default)]
struct Scratch {
    pending: Vec<Death>,
    /// Per entity (nodes, then labels): whether it died and waits in `pending`.
    flags: Vec<bool>,
    touched: Vec<usize>,
    drops: Vec<u32>,
}

thread_local! {
    static PENDING: std::cell::RefCell<Scratch> = std::cell::RefCell::new(Scratch::default());
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
    pub fn new(xs: Vec<VarId>, automaton: Automaton) -> Constructor<Self> {
        let args = Args::new(xs);
        let layers =
            Layers::new(args.slots.len(), automaton).with_positions(&args.slots, args.scope.len());
        Constructor::new(move |ctx: &mut PostCtx| {
            Ok(Regular {
                layers: layers.laid_out(ctx),
                args,
            })
        })
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
}

impl Propagator for Regular {
    fn revise(&self, ctx: &mut PropagationCtx<'_>) -> Result<(), Wipeout> {
        self.layers
            .revise(ctx, |i| self.args.var(i), |_, _, _| Ok(()))
    }

    fn subscribe(&self, _position: usize) -> EventSet {
        EventSet::ANY
    }

    fn notify(&self, position: usize, _events: EventSet, ctx: &mut PropagationCtx<'_>) -> bool {
        self.layers.mark(ctx, position);
        true
    }

    fn uses_notify(&self) -> bool {
        true
    }

    /// A value gone from `xᵢ` had no path through its edges at one of `xᵢ`'s layers: explained
    /// by the removed values that cut those paths (see `Layers::push_cut`); a bound or a fixing by
    /// the same for each value it excludes, with the variable's own bound before it.
    fn explain(&self, literal: Literal, ctx: &ExplainCtx<'_>, reasons: &mut Vec<Literal>) -> bool {
        let start = reasons.len();
        let var = |i: usize| self.args.var(i);
        let reach = self.layers.reach(ctx, var);
        let seeds = self
            .args
            .scope
            .iter()
            .position(|&x| x == literal.var)
            .and_then(|position| self.layers.seeds_for(&reach, literal, position, ctx));
        let Some(seeds) = seeds else {
            // The checker's forward checking, once the others are fixed.
            return explain_by_fixed(&self.args.scope, Some(literal.var), ctx, reasons);
        };
        push_own_sequence_bounds(literal, self.layers.symbols() as i32, ctx, reasons);
        if !seeds.is_empty() {
            self.layers.push_cut(&reach, &seeds, var, ctx, reasons);
        }
        dedup_reasons(reasons, start);
        true
    }

    /// No accepting path was left: the removed values that cut every path from the start.
    fn explain_failure(&self, ctx: &ExplainCtx<'_>, reasons: &mut Vec<Literal>) -> bool {
        let var = |i: usize| self.args.var(i);
        let reach = self.layers.reach(ctx, var);
        if self
            .layers
            .last_layer
            .iter()
            .any(|&k| reach.forward[k as usize])
        {
            // The checker's verdict on a fixed sequence.
            return explain_by_fixed(&self.args.scope, None, ctx, reasons);
        }
        let start = reasons.len();
        self.layers.push_cut(&reach, &[], var, ctx, reasons);
        dedup_reasons(reasons, start);
        true
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
    /// For each edge of the graph, the cheapest and the dearest accepting path through it with
    /// every value allowed: a removed value all of whose edges lie only on paths of costs an
    /// explanation rules out anyway need not be cited.
    through: Vec<(i128, i128)>,
}

impl CostRegular {
    /// `xs` is accepted by `automaton`, and `cost` is the sum of `costs` (a `Q × S` table, row by
    /// row, as the automaton's transitions) along the way.
    pub fn new(
        xs: Vec<VarId>,
        automaton: Automaton,
        costs: Vec<i64>,
        cost: VarId,
    ) -> Result<Constructor<Self>, ModelError> {
        if costs.len() != automaton.next.len() {
            return Err(ModelError::ArityMismatch {
                constraint: "cost_regular costs".to_owned(),
                expected: automaton.next.len(),
                found: costs.len(),
            });
        }
        let n = xs.len();
        let args = Args::new(xs.into_iter().chain([cost]));
        let mut regular = CostRegular {
            layers: Layers::new(n, automaton).with_positions(&args.slots[..n], args.scope.len()),
            args,
            costs,
            through: Vec::new(),
        };
        regular.through = regular.paths_through();
        Ok(Constructor::new(move |ctx: &mut PostCtx| {
            regular.layers = regular.layers.laid_out(ctx);
            Ok(regular)
        }))
    }

    /// The cheapest and dearest accepting path through each edge, every value allowed.
    fn paths_through(&self) -> Vec<(i128, i128)> {
        let layers = &self.layers;
        let nodes = layers.states.len();
        let symbols = layers.symbols() as u32;
        let cost = |e: &Edge| self.cost_of(layers.states[e.from as usize], e.label % symbols + 1);
        let mut from = vec![(i128::MAX, i128::MIN); nodes];
        if let Some(start) = layers.start {
            from[start as usize] = (0, 0);
        }
        for e in &layers.edges {
            let (lo, hi) = from[e.from as usize];
            if lo != i128::MAX {
                let to = &mut from[e.to as usize];
                *to = (to.0.min(lo + cost(e)), to.1.max(hi + cost(e)));
            }
        }
        let mut to = vec![(i128::MAX, i128::MIN); nodes];
        for &k in &layers.last_layer {
            to[k as usize] = (0, 0);
        }
        for e in layers.edges.iter().rev() {
            let (lo, hi) = to[e.to as usize];
            if lo != i128::MAX {
                let before = &mut to[e.from as usize];
                *before = (before.0.min(lo + cost(e)), before.1.max(hi + cost(e)));
            }
        }
        layers
            .edges
            .iter()
            .map(|e| {
                let (a, b) = (from[e.from as usize], to[e.to as usize]);
                (a.0 + cost(e) + b.0, a.1 + cost(e) + b.1)
            })
            .collect()
    }

    /// Whether a path through an edge of `label` could have a cost in `lo..=hi` or, with a
    /// second range, in that one: whether the label's removal matters to an explanation
    /// that paths of such costs are gone.
    fn may_cost(&self, label: u32, ranges: &[(i128, i128)]) -> bool {
        self.layers.label_range(label).any(|i| {
            let (cheapest, dearest) = self.through[i];
            ranges
                .iter()
                .any(|&(lo, hi)| cheapest <= hi && dearest >= lo)
        })
    }

    fn cost_of(&self, state: u32, symbol: u32) -> i128 {
        i128::from(
            self.costs[(state as usize - 1) * self.layers.automaton.symbols + symbol as usize - 1],
        )
    }

    /// The cheapest and dearest paths through the alive graph: bounds on the cost variable, and
    /// the labels none of whose edges can lie on a path of a cost within them.
    fn paths(
        &self,
        layers: &Layers,
        ctx: &mut PropagationCtx<'_>,
        drops: &mut Vec<u32>,
    ) -> Result<(), Wipeout> {
        let nodes = layers.states.len();
        let symbols = layers.symbols();
        let cost_var = self.args.var(layers.n);
        let start = layers.start.ok_or(Wipeout)?;
        let cost =
            |e: &Edge| self.cost_of(layers.states[e.from as usize], e.label % symbols as u32 + 1);
        let alive: Vec<bool> = layers
            .edges
            .iter()
            .map(|e| layers.edge_alive(ctx, e))
            .collect();
        let (none_lo, none_hi) = (i128::MAX, i128::MIN);
        // Cheapest and dearest from the start to each node (the edges are by layer), and from each
        // node to the end.
        let mut from_lo = vec![none_lo; nodes];
        let mut from_hi = vec![none_hi; nodes];
        from_lo[start as usize] = 0;
        from_hi[start as usize] = 0;
        for (e, _) in layers.edges.iter().zip(&alive).filter(|(_, a)| **a) {
            let (f, t) = (e.from as usize, e.to as usize);
            if from_lo[f] != none_lo {
                from_lo[t] = from_lo[t].min(from_lo[f] + cost(e));
                from_hi[t] = from_hi[t].max(from_hi[f] + cost(e));
            }
        }
        let mut to_lo = vec![none_lo; nodes];
        let mut to_hi = vec![none_hi; nodes];
        for &k in &layers.last_layer {
            if layers.node_alive(ctx, k) {
                to_lo[k as usize] = 0;
                to_hi[k as usize] = 0;
            }
        }
        for (e, _) in layers.edges.iter().zip(&alive).rev().filter(|(_, a)| **a) {
            let (f, t) = (e.from as usize, e.to as usize);
            if to_lo[t] != none_lo {
                to_lo[f] = to_lo[f].min(to_lo[t] + cost(e));
                to_hi[f] = to_hi[f].max(to_hi[t] + cost(e));
            }
        }
        let clamp = |x: i128| x.clamp(i128::from(i64::MIN), i128::from(i64::MAX)) as i64;
        let s = start as usize;
        ctx.restrict_bounds(cost_var, clamp(to_lo[s]), clamp(to_hi[s]))?;
        let (lo, hi) = (i128::from(ctx.lb(cost_var)), i128::from(ctx.ub(cost_var)));
        for label in 0..(layers.n * symbols) as u32 {
            if !layers.label_alive(ctx, label) {
                continue;
            }
            let range = layers.label_edges[label as usize] as usize
                ..layers.label_edges[label as usize + 1] as usize;
            let supported = range.into_iter().any(|i| {
                let e = &layers.edges[i];
                let (f, t) = (e.from as usize, e.to as usize);
                alive[i]
                    && from_lo[f] + cost(e) + to_lo[t] <= hi
                    && from_hi[f] + cost(e) + to_hi[t] >= lo
            });
            if !supported {
                drops.push(label);
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
}

impl Propagator for CostRegular {
    fn revise(&self, ctx: &mut PropagationCtx<'_>) -> Result<(), Wipeout> {
        self.layers.revise(
            ctx,
            |i| self.args.var(i),
            |layers, ctx, drops| self.paths(layers, ctx, drops),
        )
    }

    fn subscribe(&self, _position: usize) -> EventSet {
        EventSet::ANY
    }

    fn notify(&self, position: usize, _events: EventSet, ctx: &mut PropagationCtx<'_>) -> bool {
        self.layers.mark(ctx, position);
        true
    }

    fn uses_notify(&self) -> bool {
        true
    }

    /// A value gone from `xᵢ` for want of any path through it is explained as by [`Regular`];
    /// one gone by the cost of its paths by the cost's bounds and the removed values that
    /// could have made a path of a cost within them; a bound of the cost by the removed values
    /// that could have made a path of a cost it excludes. (A path through a removed value is
    /// judged by the cheapest and dearest paths through its edges with every value allowed, so
    /// the values cited are a superset of those needed, worked out in one pass.)
    fn explain(&self, literal: Literal, ctx: &ExplainCtx<'_>, reasons: &mut Vec<Literal>) -> bool {
        let n = self.layers.n;
        let cost_var = self.args.var(n);
        let start = reasons.len();
        let shown = !self.args.slots[..n].contains(&self.args.slots[n]) && {
            let var = |i: usize| self.args.var(i);
            let reach = self.layers.reach(ctx, var);
            if literal.var == cost_var {
                // The cheapest and dearest accepting paths rest on the removed values alone.
                bound_sides(literal, ctx, reasons).is_some_and(|(upper, lower)| {
                    let mut excluded = Vec::new();
                    if let Some(k) = upper {
                        excluded.push((i128::from(k) + 1, i128::MAX));
                    }
                    if let Some(k) = lower {
                        excluded.push((i128::MIN, i128::from(k) - 1));
                    }
                    let relevant = |l: u32| self.may_cost(l, &excluded);
                    self.layers
                        .push_all_removed(&reach, var, relevant, ctx, reasons);
                    true
                })
            } else {
                self.args
                    .scope
                    .iter()
                    .position(|&x| x == literal.var)
                    .is_some_and(|position| {
                        push_own_sequence_bounds(
                            literal,
                            self.layers.symbols() as i32,
                            ctx,
                            reasons,
                        );
                        match self.layers.seeds_for(&reach, literal, position, ctx) {
                            Some(seeds) if !seeds.is_empty() => {
                                self.layers.push_cut(&reach, &seeds, var, ctx, reasons);
                            }
                            Some(_) => {}
                            None => self.push_by_cost(&reach, ctx, reasons),
                        }
                        true
                    })
            }
        };
        if shown {
            dedup_reasons(reasons, start);
            return true;
        }
        reasons.truncate(start);
        explain_by_fixed(&self.args.scope, Some(literal.var), ctx, reasons)
    }

    /// No accepting path was left, or none of a cost within the cost's bounds: as for
    /// [`Regular`], or by the cost's bounds and the removed values that could have made a path
    /// of a cost within them.
    fn explain_failure(&self, ctx: &ExplainCtx<'_>, reasons: &mut Vec<Literal>) -> bool {
        let n = self.layers.n;
        if self.args.slots[..n].contains(&self.args.slots[n]) {
            return explain_by_fixed(&self.args.scope, None, ctx, reasons);
        }
        let var = |i: usize| self.args.var(i);
        let reach = self.layers.reach(ctx, var);
        let start = reasons.len();
        if self
            .layers
            .last_layer
            .iter()
            .any(|&k| reach.forward[k as usize])
        {
            self.push_by_cost(&reach, ctx, reasons);
        } else {
            self.layers.push_cut(&reach, &[], var, ctx, reasons);
        }
        dedup_reasons(reasons, start);
        true
    }
}

impl CostRegular {
    /// Pushes the cost's bounds then and the removed values that could have made a path of a
    /// cost within them: why no path left had its cost there (through some edges, or at all).
    fn push_by_cost(&self, reach: &Reach, ctx: &ExplainCtx<'_>, reasons: &mut Vec<Literal>) {
        let cost_var = self.args.var(self.layers.n);
        let (lo, hi) = ctx.bounds(cost_var);
        reasons.extend([Literal::ge(cost_var, lo), Literal::le(cost_var, hi)]);
        let range = [(i128::from(lo), i128::from(hi))];
        self.layers.push_all_removed(
            reach,
            |i| self.args.var(i),
            |l| self.may_cost(l, &range),
            ctx,
            reasons,
        );
    }
}
