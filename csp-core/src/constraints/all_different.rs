use crate::Domains;
use std::cell::RefCell;

use crate::{
    CheckCtx, Constraint, Constructor, LocalCtx, PostCtx, PropagationCtx, Propagator, Slot, VarId,
    Wipeout, revision::Priority,
};

/// The consistency [`AllDifferent`]'s revision reaches (FlatZinc's `all_different_int` with
/// Gecode's `:: value_propagation`, `:: bounds_propagation`, `:: domain_propagation`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum AllDifferentConsistency {
    /// Each fixed variable's value is removed from the others, to a fixpoint: cheap, and as strong
    /// as pairwise disequalities.
    Value,
    /// Bounds(Z) consistency: López-Ortiz, Quimper, Tromp & van Beek, *A fast and simple algorithm
    /// for bounds consistency of the alldifferent constraint*, IJCAI 2003. Each variable's bounds
    /// are cut past every Hall interval (k variables whose ranges lie within k values), in
    /// O(n log n) for the sort and near-linear time after it.
    Bounds,
    /// Generalised arc consistency: Régin, *A filtering algorithm for constraints of difference in
    /// CSPs*, AAAI 1994 (the default). Under [`crate::PropagationProfile::ShortReasons`] (a
    /// learning search that asks for short reasons) it propagates as [`Bounds`](Self::Bounds).
    #[default]
    Domain,
}

/// Every variable of the scope takes a different value.
///
/// Under forward checking ([`Propagator::forward_check`]) an assigned value is removed from every
/// unassigned variable of the scope. When search maintains arc consistency,
/// [`Propagator::revise`] reaches the [consistency](AllDifferentConsistency) chosen at construction,
/// by default Régin's (1994): a maximum matching of variables to values, then the strongly connected
/// components of the residual graph, which together name every value that takes part in no solution
/// of the constraint. That is generalised arc consistency: stronger than removing fixed values to a
/// fixpoint, it also sees Hall sets (three variables sharing three values take them from every other
/// variable) and fails as soon as fewer values than variables remain (the pigeonhole). Above 2¹⁶
/// values in all, it falls back to removing fixed values.
///
/// One trailed state cell counts the clashes among the assigned variables, so that `check`,
/// `propagate` and `revise` stay exact even when variables were assigned without propagation.
#[derive(Debug, Clone)]
pub struct AllDifferent {
    scope: Vec<VarId>,
    consistency: AllDifferentConsistency,
    /// How many pairs of assigned variables share a value.
    clashes: Slot<i64>,
}

impl AllDifferent {
    /// All of `vars` pairwise different, with Régin's domain consistency under MAC.
    pub fn new(vars: Vec<VarId>) -> Constructor<Self> {
        Self::with_consistency(vars, AllDifferentConsistency::Domain)
    }

    /// All of `vars` pairwise different, revised to `consistency`.
    pub fn with_consistency(
        vars: Vec<VarId>,
        consistency: AllDifferentConsistency,
    ) -> Constructor<Self> {
        Constructor::new(move |ctx| Ok(Self::lay_out(ctx, vars, consistency)))
    }

    /// The domain-consistent constraint over `vars`, its state laid out in a run of `ctx` (see
    /// [`PostCtx::nested`]), for a wrapper that runs it itself (circuit and subcircuit).
    pub(crate) fn nested(ctx: &mut PostCtx, vars: Vec<VarId>) -> (Self, crate::Slots<i64>) {
        ctx.nested(|ctx| Ok(Self::lay_out(ctx, vars, AllDifferentConsistency::Domain)))
            .expect("laying out an all-different cannot fail")
    }

    /// The constraint with its state laid out in `ctx`.
    fn lay_out(ctx: &mut PostCtx, vars: Vec<VarId>, consistency: AllDifferentConsistency) -> Self {
        AllDifferent {
            scope: vars,
            consistency,
            clashes: ctx.slot(),
        }
    }

    /// The consistency the revision reaches.
    pub fn consistency(&self) -> AllDifferentConsistency {
        self.consistency
    }
}

impl Constraint for AllDifferent {
    fn scope(&self) -> &[VarId] {
        &self.scope
    }

    fn is_satisfied(&self, values: &[i32]) -> bool {
        values
            .iter()
            .enumerate()
            .all(|(i, v)| !values[i + 1..].contains(v))
    }
}

impl Propagator for AllDifferent {
    /// A value removed because another variable holds it is explained by that variable alone; one
    /// removed because a Hall set takes it (Régin's matching reasoning) by that set's domains:
    /// its variables `y` have only the set's values `U` (`y ≥ min U`, `y ≤ max U`, `y ≠ w` for
    /// the holes of `U`), and as many of them as `U` has values. A bound moved past a Hall
    /// interval `[a, c]` (López-Ortiz et al.'s bounds reasoning) is explained by the interval's
    /// variables lying within it (`y ≥ a`, `y ≤ c`) and the moved variable's own bound `x ≥ a`
    /// (or `x ≤ c`).
    fn explain(
        &self,
        literal: crate::Literal,
        ctx: &crate::ExplainCtx<'_>,
        reasons: &mut Vec<crate::Literal>,
    ) -> bool {
        use crate::LiteralRelation;
        let start = reasons.len();
        let x = literal.var;
        let done = match literal.relation {
            LiteralRelation::Ne => {
                let holder = self.scope.iter().find(|&&other| {
                    other != x && ctx.lb(other) == literal.value && ctx.ub(other) == literal.value
                });
                match holder {
                    Some(&other) => {
                        reasons.push(crate::Literal::eq(other, literal.value));
                        true
                    }
                    None => hall_set_explanation(&self.scope, literal, ctx, reasons),
                }
            }
            LiteralRelation::Ge => hall_interval_below(&self.scope, x, literal.value, ctx, reasons),
            LiteralRelation::Le => hall_interval_above(&self.scope, x, literal.value, ctx, reasons),
            LiteralRelation::Eq => {
                let (lo, hi) = ctx.bounds(x);
                (literal.value <= lo
                    || hall_interval_below(&self.scope, x, literal.value, ctx, reasons))
                    && (literal.value >= hi
                        || hall_interval_above(&self.scope, x, literal.value, ctx, reasons))
            }
        };
        if !done {
            reasons.truncate(start);
            return false;
        }
        crate::constraints::util::dedup_reasons(reasons, start);
        true
    }

    /// A failure is explained by two fixed variables sharing a value, else by an interval holding
    /// more variables' ranges than values (bounds alone), else by a set of variables with fewer
    /// values than variables among their domains, found from a failed matching.
    fn explain_failure(
        &self,
        ctx: &crate::ExplainCtx<'_>,
        reasons: &mut Vec<crate::Literal>,
    ) -> bool {
        explain_all_different_failure(&self.scope, ctx, reasons)
    }

    fn revise(&self, ctx: &mut PropagationCtx<'_>) -> Result<(), Wipeout> {
        if ctx.get(self.clashes) > 0 {
            return Err(Wipeout);
        }
        // Under learning's short-reason profile, domain consistency gives way to bounds
        // consistency: Régin's removals leave holes that every later bound reason must cite one by
        // one (see `PropagationProfile`).
        let consistency = match self.consistency {
            AllDifferentConsistency::Domain
                if ctx.profile() == crate::PropagationProfile::ShortReasons =>
            {
                AllDifferentConsistency::Bounds
            }
            consistency => consistency,
        };
        match consistency {
            AllDifferentConsistency::Value => return self.remove_fixed_values(ctx),
            AllDifferentConsistency::Bounds => {
                return BOUNDS_SCRATCH.with(|scratch| match scratch.try_borrow_mut() {
                    Ok(mut scratch) => scratch.revise(&self.scope, ctx),
                    Err(_) => BoundsScratch::default().revise(&self.scope, ctx),
                });
            }
            AllDifferentConsistency::Domain => {}
        }
        if let Some(base) = small_window(&self.scope, ctx) {
            return revise_on_words(&self.scope, ctx, base);
        }
        // Régin's graph lists every current value: above a budget, fall back to removing fixed
        // values from the other variables (forward checking's strength, still checker-complete).
        let values: u64 = self.scope.iter().map(|&v| ctx.size(v)).sum();
        if values > REGIN_VALUE_BUDGET {
            return self.remove_fixed_values(ctx);
        }
        // The scratch space is per thread: a model is shared between threads, and revisions never
        // nest. Should one ever be busy, a fresh one does the same work.
        SCRATCH.with(|scratch| match scratch.try_borrow_mut() {
            Ok(mut scratch) => scratch.revise(&self.scope, values, ctx),
            Err(_) => Regin::default().revise(&self.scope, values, ctx),
        })
    }

    /// Value consistency needs fixed variables only, bounds consistency bounds; Régin's algorithm
    /// reads every value.
    fn subscribe(&self, _position: usize) -> crate::EventSet {
        match self.consistency {
            AllDifferentConsistency::Value => crate::EventSet::FIXED,
            AllDifferentConsistency::Bounds => crate::EventSet::BOUNDS,
            AllDifferentConsistency::Domain => crate::EventSet::ANY,
        }
    }

    fn priority(&self) -> Priority {
        match self.consistency {
            AllDifferentConsistency::Value | AllDifferentConsistency::Bounds => Priority::Medium,
            AllDifferentConsistency::Domain => Priority::Low,
        }
    }

    // Value enumeration.
    /// A value is consistent exactly when no assigned scope variable holds it, one variable at a time.
    fn check_is_pairwise(&self) -> bool {
        true
    }

    fn on_assign(&self, var: VarId, value: i32, ctx: &mut PropagationCtx<'_>) {
        let clashes = self
            .scope
            .iter()
            .filter(|&&other| other != var && ctx.value(other) == Some(value))
            .count();
        if clashes > 0 {
            ctx.add(self.clashes, clashes as i64);
        }
    }

    fn check(&self, var: VarId, value: i32, ctx: &CheckCtx<'_>) -> bool {
        ctx.get(self.clashes) == 0
            && self
                .scope
                .iter()
                .all(|&other| other == var || ctx.value(other) != Some(value))
    }

    fn forward_check(&self, var: VarId, ctx: &mut PropagationCtx<'_>) -> Result<(), Wipeout> {
        let value = ctx.value(var).ok_or(Wipeout)?;
        if ctx.get(self.clashes) > 0 {
            return Err(Wipeout);
        }
        for &other in &self.scope {
            if other != var {
                ctx.remove(other, value)?;
            }
        }
        Ok(())
    }

    // Local search.
    fn conflicts(&self, var: VarId, value: i32, ctx: &LocalCtx<'_>) -> u32 {
        // One violation per other variable sharing the value, so the count falls as a repair helps.
        self.scope
            .iter()
            .filter(|&&other| other != var && ctx.values[other.index()] == value)
            .count() as u32
    }
}

/// The most values (summed over the scope) Régin's algorithm lists; see [`AllDifferent`]'s revision.
const REGIN_VALUE_BUDGET: u64 = 1 << 16;

impl AllDifferent {
    /// Removes every fixed variable's value from the others, to a fixpoint, and fails on two fixed
    /// variables sharing a value.
    fn remove_fixed_values(&self, ctx: &mut PropagationCtx<'_>) -> Result<(), Wipeout> {
        loop {
            let mut changed = false;
            for (i, &var) in self.scope.iter().enumerate() {
                let Some(value) = ctx.fixed_value(var) else {
                    continue;
                };
                for (j, &other) in self.scope.iter().enumerate() {
                    if i != j {
                        changed |= ctx.remove(other, value)?;
                    }
                }
            }
            if !changed {
                return Ok(());
            }
        }
    }
}

/// The smallest current value of the scope, when there are at most 64 variables and their current
/// values all lie within 64 consecutive integers, so that [`revise_on_words`] applies.
fn small_window(scope: &[VarId], ctx: &PropagationCtx<'_>) -> Option<i32> {
    if scope.is_empty() || scope.len() > 64 {
        return None;
    }
    // The spans the domains were declared with bound them for free; only when those are too wide
    // are the current bounds worth a scan.
    let (mut lo, mut hi) = (i64::MAX, i64::MIN);
    for &var in scope {
        let domain = ctx.domain(var);
        lo = lo.min(i64::from(domain.span_lo()));
        hi = hi.max(i64::from(domain.span_hi()));
    }
    if hi - lo < 64 {
        return Some(lo as i32);
    }
    let (mut lo, mut hi) = (i64::MAX, i64::MIN);
    for &var in scope {
        let (min, max) = match ctx.value(var) {
            Some(value) => (value, value),
            None => {
                let domain = ctx.domain(var);
                (domain.min()?, domain.max()?)
            }
        };
        lo = lo.min(i64::from(min));
        hi = hi.max(i64::from(max));
    }
    (hi - lo < 64).then_some(lo as i32)
}

/// Régin's algorithm with every domain a 64-bit word (bit `i` for the value `base + i`), for the
/// common small case: Sudoku's and Latin squares' units, cliques of a colouring.
///
/// The same reasoning as [`Regin`], on a smaller graph: since a variable's only outgoing edge is to its
/// matched value, the variables can be contracted away. In the graph over values where `a → b` when
/// the variable matched to `b` can also take `a`, the edge from variable `y` to value `a` is in some
/// maximum matching exactly when `a` is `y`'s matched value `b`, or `a` and `b` lie on a common cycle
/// (each reaches the other, so they share a strongly connected component), or `a` is reachable from
/// a free value. Each component is found by a forward and a backward search on words.
fn revise_on_words(
    scope: &[VarId],
    ctx: &mut PropagationCtx<'_>,
    base: i32,
) -> Result<(), Wipeout> {
    let n = scope.len();
    let mut domains = [0u64; 64];
    let mut union = 0u64;
    for (x, &var) in scope.iter().enumerate() {
        domains[x] = match ctx.value(var) {
            Some(value) => 1u64 << (value - base),
            None => ctx.domain(var).window64(base),
        };
        union |= domains[x];
    }
    if (union.count_ones() as usize) < n {
        return Err(Wipeout);
    }
    // A maximum matching: greedy, then augmenting paths for the variables left over.
    let mut var_match = [0u8; 64];
    let mut owner = [u8::MAX; 64];
    let mut matched = 0u64;
    let mut unmatched = 0u64;
    for x in 0..n {
        let free = domains[x] & !matched;
        if free == 0 {
            unmatched |= 1 << x;
            continue;
        }
        let a = free.trailing_zeros() as u8;
        var_match[x] = a;
        owner[a as usize] = x as u8;
        matched |= 1 << a;
    }
    while unmatched != 0 {
        let x = unmatched.trailing_zeros() as usize;
        unmatched &= unmatched - 1;
        let mut visited = 0u64;
        let Some(a) = augment(x, &domains, &mut var_match, &mut owner, &mut visited) else {
            return Err(Wipeout);
        };
        matched |= 1 << a;
    }
    // successors[a]: the values one edge from value a (through the variable matched to them);
    // predecessors: the same edges reversed.
    let mut successors = [0u64; 64];
    let mut predecessors = [0u64; 64];
    for x in 0..n {
        let b = var_match[x];
        let mut others = domains[x] & !(1u64 << b);
        while others != 0 {
            let a = others.trailing_zeros() as usize;
            others &= others - 1;
            successors[a] |= 1u64 << b;
        }
        predecessors[b as usize] = domains[x] & !(1u64 << b);
    }
    // The strongly connected components, each as the values reachable both from and to one of its
    // members (forward and backward breadth-first search on words).
    let mut component = [0u64; 64];
    let mut unlabelled = union;
    while unlabelled != 0 {
        let root = 1u64 << unlabelled.trailing_zeros();
        let members = reachable(root, &successors) & reachable(root, &predecessors);
        let mut each = members;
        while each != 0 {
            component[each.trailing_zeros() as usize] = members;
            each &= each - 1;
        }
        unlabelled &= !members;
    }
    let from_free = reachable(union & !matched, &successors);
    for (x, &var) in scope.iter().enumerate() {
        if ctx.is_assigned(var) {
            continue;
        }
        let same_cycle = component[var_match[x] as usize];
        let mut doomed = domains[x] & !same_cycle & !from_free;
        while doomed != 0 {
            let a = doomed.trailing_zeros();
            doomed &= doomed - 1;
            ctx.remove(var, base + a as i32)?;
        }
    }
    Ok(())
}

/// The values reachable from the values `from` (themselves included) along `edges`.
#[inline]
fn reachable(from: u64, edges: &[u64; 64]) -> u64 {
    let (mut seen, mut frontier) = (from, from);
    while frontier != 0 {
        let mut next = 0;
        while frontier != 0 {
            next |= edges[frontier.trailing_zeros() as usize];
            frontier &= frontier - 1;
        }
        frontier = next & !seen;
        seen |= frontier;
    }
    seen
}

/// Kuhn's augmenting path from the unmatched variable `x`, depth first (at most 64 deep); flips it
/// and returns the value newly matched, or `None` when there is no such path.
fn augment(
    x: usize,
    domains: &[u64; 64],
    var_match: &mut [u8; 64],
    owner: &mut [u8; 64],
    visited: &mut u64,
) -> Option<u8> {
    let mut candidates = domains[x];
    while candidates != 0 {
        let a = candidates.trailing_zeros() as u8;
        candidates &= candidates - 1;
        if *visited >> a & 1 == 1 {
            continue;
        }
        *visited |= 1 << a;
        let previous = owner[a as usize];
        let newly = if previous == u8::MAX {
            Some(a)
        } else {
            augment(previous as usize, domains, var_match, owner, visited)
        };
        if newly.is_some() {
            owner[a as usize] = x as u8;
            var_match[x] = a;
            return newly;
        }
    }
    None
}

thread_local! {
    /// Régin's scratch space, reused across revisions so that they do not allocate once warm.
    static SCRATCH: RefCell<Regin> = RefCell::new(Regin::default());
    /// The bounds algorithm's scratch space, likewise.
    static BOUNDS_SCRATCH: RefCell<BoundsScratch> = RefCell::new(BoundsScratch::default());
}

/// One variable's range in the bounds algorithm, and the ranks of its ends among the critical
/// values.
#[derive(Debug, Clone, Copy, Default)]
struct Range {
    min: i64,
    max: i64,
    min_rank: usize,
    max_rank: usize,
}

/// López-Ortiz, Quimper, Tromp & van Beek's bounds-consistency algorithm (IJCAI 2003), with its
/// arrays kept between revisions. The critical values (every `min` and every `max + 1`) are sorted
/// once; `filter_lower` then sweeps the ranges by increasing `max`, keeping with union-find paths
/// (`tree`, `hall`) the capacity `diff` left between critical values, and raises each `min` past any
/// Hall interval it meets; `filter_upper` mirrors it for the `max`s.
#[derive(Debug, Default)]
struct BoundsScratch {
    ranges: Vec<Range>,
    /// Indices into `ranges`, sorted by `min` and by `max`.
    by_min: Vec<usize>,
    by_max: Vec<usize>,
    bounds: Vec<i64>,
    tree: Vec<usize>,
    diff: Vec<i64>,
    hall: Vec<usize>,
}

fn path_max(tree: &[usize], mut i: usize) -> usize {
    while tree[i] > i {
        i = tree[i];
    }
    i
}

fn path_min(tree: &[usize], mut i: usize) -> usize {
    while tree[i] < i {
        i = tree[i];
    }
    i
}

/// Points every node on the path from `start` to `end` at `to`.
fn path_set(tree: &mut [usize], start: usize, end: usize, to: usize) {
    let mut k = start;
    while k != end {
        let next = tree[k];
        tree[k] = to;
        k = next;
    }
}

impl BoundsScratch {
    /// Cuts the bounds until no Hall interval cuts any more (one round suffices in theory; the loop
    /// makes the fixpoint certain whatever the ties).
    fn revise(&mut self, scope: &[VarId], ctx: &mut PropagationCtx<'_>) -> Result<(), Wipeout> {
        let n = scope.len();
        if n == 0 {
            return Ok(());
        }
        loop {
            self.ranges.clear();
            self.ranges.extend(scope.iter().map(|&v| Range {
                min: i64::from(ctx.lb(v)),
                max: i64::from(ctx.ub(v)),
                ..Range::default()
            }));
            self.sort();
            self.filter_lower()?;
            self.filter_upper()?;
            let mut changed = false;
            for (range, &v) in self.ranges.iter().zip(scope) {
                changed |= ctx.store.set_bounds(v, range.min, range.max)?;
            }
            if !changed {
                return Ok(());
            }
        }
    }

    /// Sorts the ranges by both ends and ranks the critical values.
    fn sort(&mut self) {
        let n = self.ranges.len();
        let ranges = &mut self.ranges;
        self.by_min.clear();
        self.by_min.extend(0..n);
        self.by_min.sort_by_key(|&i| ranges[i].min);
        self.by_max.clear();
        self.by_max.extend(0..n);
        self.by_max.sort_by_key(|&i| ranges[i].max);
        self.bounds.clear();
        let mut min = ranges[self.by_min[0]].min;
        let mut max = ranges[self.by_max[0]].max + 1;
        let mut last = min - 2;
        self.bounds.push(last);
        let (mut i, mut j) = (0, 0);
        loop {
            if i < n && min <= max {
                if min != last {
                    last = min;
                    self.bounds.push(last);
                }
                ranges[self.by_min[i]].min_rank = self.bounds.len() - 1;
                i += 1;
                if i < n {
                    min = ranges[self.by_min[i]].min;
                }
            } else {
                if max != last {
                    last = max;
                    self.bounds.push(last);
                }
                ranges[self.by_max[j]].max_rank = self.bounds.len() - 1;
                j += 1;
                if j == n {
                    break;
                }
                max = ranges[self.by_max[j]].max + 1;
            }
        }
        let top = *self.bounds.last().expect("at least one bound");
        self.bounds.push(top + 2);
        let size = self.bounds.len();
        self.tree.clear();
        self.tree.resize(size, 0);
        self.hall.clear();
        self.hall.resize(size, 0);
        self.diff.clear();
        self.diff.resize(size, 0);
    }

    /// Raises each range's `min` past the Hall intervals below it; fails on an interval holding
    /// more ranges than values.
    fn filter_lower(&mut self) -> Result<(), Wipeout> {
        let last = self.bounds.len() - 1;
        for i in 1..=last {
            self.tree[i] = i - 1;
            self.hall[i] = i - 1;
            self.diff[i] = self.bounds[i] - self.bounds[i - 1];
        }
        for &r in &self.by_max {
            let (x, y) = (self.ranges[r].min_rank, self.ranges[r].max_rank);
            let mut z = path_max(&self.tree, x + 1);
            let j = self.tree[z];
            self.diff[z] -= 1;
            if self.diff[z] == 0 {
                self.tree[z] = z + 1;
                z = path_max(&self.tree, self.tree[z]);
                self.tree[z] = j;
            }
            path_set(&mut self.tree, x + 1, z, z);
            if self.diff[z] < self.bounds[z] - self.bounds[y] {
                return Err(Wipeout);
            }
            if self.hall[x] > x {
                let w = path_max(&self.hall, self.hall[x]);
                self.ranges[r].min = self.bounds[w];
                path_set(&mut self.hall, x, w, w);
            }
            if self.diff[z] == self.bounds[z] - self.bounds[y] {
                let start = self.hall[y];
                path_set(&mut self.hall, start, j - 1, y);
                self.hall[y] = j - 1;
            }
        }
        Ok(())
    }

    /// Lowers each range's `max` below the Hall intervals above it (the mirror of `filter_lower`).
    fn filter_upper(&mut self) -> Result<(), Wipeout> {
        let last = self.bounds.len() - 1;
        for i in 0..last {
            self.tree[i] = i + 1;
            self.hall[i] = i + 1;
            self.diff[i] = self.bounds[i + 1] - self.bounds[i];
        }
        for &r in self.by_min.iter().rev() {
            let (x, y) = (self.ranges[r].max_rank, self.ranges[r].min_rank);
            let mut z = path_min(&self.tree, x - 1);
            let j = self.tree[z];
            self.diff[z] -= 1;
            if self.diff[z] == 0 {
                self.tree[z] = z - 1;
                z = path_min(&self.tree, self.tree[z]);
                self.tree[z] = j;
            }
            path_set(&mut self.tree, x - 1, z, z);
            if self.diff[z] < self.bounds[y] - self.bounds[z] {
                return Err(Wipeout);
            }
            if self.hall[x] < x {
                let w = path_min(&self.hall, self.hall[x]);
                self.ranges[r].max = self.bounds[w] - 1;
                path_set(&mut self.hall, x, w, w);
            }
            if self.diff[z] == self.bounds[y] - self.bounds[z] {
                let start = self.hall[y];
                path_set(&mut self.hall, start, j + 1, y);
                self.hall[y] = j + 1;
            }
        }
        Ok(())
    }
}

/// No partner: an unmatched variable or value, or an unvisited node.
const NONE: u32 = u32::MAX;

/// Régin's filtering for all-different, with its scratch space.
///
/// The value graph has a node per scope variable (`0..n`) and per distinct current value (`n..n + m`,
/// values sorted), and an edge where a variable can take a value. Given a maximum matching covering
/// every variable, an edge belongs to some such matching, and so to some solution of the constraint,
/// exactly when it is matched, or lies on an even alternating cycle (its ends share a strongly
/// connected component once matched edges point from variable to value and the others from value to
/// variable), or on an even alternating path from a free value (its value is reachable from one).
#[derive(Debug, Default)]
struct Regin {
    /// The distinct current values, sorted: value node `n + i` is `values[i]`.
    values: Vec<i32>,
    /// Variable `x` can take the values `var_values[var_start[x]..var_start[x + 1]]` (indices).
    var_values: Vec<u32>,
    var_start: Vec<u32>,
    /// Value `a` is in the domains of `value_vars[value_start[a]..value_start[a + 1]]`.
    value_vars: Vec<u32>,
    value_start: Vec<u32>,
    /// Where the next variable of each value's run goes, while `value_vars` is filled.
    cursor: Vec<u32>,
    /// The matching, both ways (`NONE` for unmatched).
    var_match: Vec<u32>,
    value_match: Vec<u32>,
    /// Augmenting-path search: the round in which each value was last visited, and the path as
    /// `(variable, next adjacency position)`.
    seen_round: Vec<u32>,
    path: Vec<(u32, u32)>,
    /// Tarjan's algorithm over all `n + m` nodes.
    index: Vec<u32>,
    lowlink: Vec<u32>,
    on_stack: Vec<bool>,
    component: Vec<u32>,
    stack: Vec<u32>,
    calls: Vec<(u32, u32)>,
    /// Nodes reachable from a free value.
    reachable: Vec<bool>,
    /// Which values of the domains' span some domain holds ([`Regin::build_graph`]).
    present: Vec<bool>,
}

impl Regin {
    /// Régin's filtering of `scope`, whose domains hold `listed` values in all.
    fn revise(
        &mut self,
        scope: &[VarId],
        listed: u64,
        ctx: &mut PropagationCtx<'_>,
    ) -> Result<(), Wipeout> {
        let n = scope.len();
        if n == 0 {
            return Ok(());
        }
        self.build_graph(scope, listed, ctx);
        let m = self.values.len();
        if m < n || !self.find_matching(n) {
            return Err(Wipeout);
        }
        self.components(n, m);
        self.reach_from_free_values(n, m);
        for (x, &var) in scope.iter().enumerate() {
            if ctx.is_assigned(var) {
                continue;
            }
            let (from, to) = (self.var_start[x] as usize, self.var_start[x + 1] as usize);
            for k in from..to {
                let a = self.var_values[k];
                let node = n + a as usize;
                if a != self.var_match[x]
                    && !self.reachable[node]
                    && self.component[node] != self.component[x]
                {
                    ctx.remove(var, self.values[a as usize])?;
                }
            }
        }
        Ok(())
    }

    /// Lists the distinct values and both adjacencies; the domains hold `listed` values in all.
    fn build_graph(&mut self, scope: &[VarId], listed: u64, ctx: &PropagationCtx<'_>) {
        self.values.clear();
        // The values in order: marked on the span of the domains when that is no wider than the
        // values listed, or than 256 (the usual case: golomb 11's 55 differences list about 2,000
        // values in 0..72), else sorted. Sorting was an eighth of golomb 11's time.
        let (lo, hi) = scope.iter().fold((i64::MAX, i64::MIN), |(lo, hi), &var| {
            (
                lo.min(i64::from(ctx.lb(var))),
                hi.max(i64::from(ctx.ub(var))),
            )
        });
        let span = (hi - lo + 1).max(0) as u64;
        if span <= listed.max(256) {
            self.present.clear();
            self.present.resize(span as usize, false);
            for &var in scope {
                for value in ctx.current_values(var) {
                    self.present[(i64::from(value) - lo) as usize] = true;
                }
            }
            let values = self.present.iter().enumerate().filter(|&(_, &p)| p);
            self.values
                .extend(values.map(|(i, _)| (lo + i as i64) as i32));
        } else {
            for &var in scope {
                self.values.extend(ctx.current_values(var));
            }
            self.values.sort_unstable();
            self.values.dedup();
        }
        let m = self.values.len();
        self.var_values.clear();
        self.var_start.clear();
        self.value_start.clear();
        self.value_start.resize(m + 1, 0);
        for &var in scope {
            self.var_start.push(self.var_values.len() as u32);
            // Both lists ascend, so one forward walk finds every index.
            let mut position = 0;
            for value in ctx.current_values(var) {
                while self.values[position] != value {
                    position += 1;
                }
                self.var_values.push(position as u32);
                self.value_start[position + 1] += 1;
            }
        }
        self.var_start.push(self.var_values.len() as u32);
        for a in 0..m {
            self.value_start[a + 1] += self.value_start[a];
        }
        self.value_vars.clear();
        self.value_vars.resize(self.var_values.len(), 0);
        // Fill each value's run of variables, one write cursor per value.
        self.cursor.clear();
        self.cursor.extend_from_slice(&self.value_start[..m]);
        for x in 0..scope.len() {
            for k in self.var_start[x]..self.var_start[x + 1] {
                let a = self.var_values[k as usize] as usize;
                self.value_vars[self.cursor[a] as usize] = x as u32;
                self.cursor[a] += 1;
            }
        }
    }

    /// A maximum matching by augmenting paths (Kuhn), after a greedy start. Returns whether it covers
    /// every variable.
    fn find_matching(&mut self, n: usize) -> bool {
        let m = self.values.len();
        self.var_match.clear();
        self.var_match.resize(n, NONE);
        self.value_match.clear();
        self.value_match.resize(m, NONE);
        for x in 0..n {
            for k in self.var_start[x]..self.var_start[x + 1] {
                let a = self.var_values[k as usize] as usize;
                if self.value_match[a] == NONE {
                    self.value_match[a] = x as u32;
                    self.var_match[x] = a as u32;
                    break;
                }
            }
        }
        self.seen_round.clear();
        self.seen_round.resize(m, NONE);
        for x in 0..n {
            if self.var_match[x] == NONE && !self.augment(x as u32, x as u32) {
                return false;
            }
        }
        true
    }

    /// Looks for an alternating path from the free variable `root` to a free value, depth first, and
    /// flips it. Values already visited in this `round` lead nowhere new.
    fn augment(&mut self, root: u32, round: u32) -> bool {
        self.path.clear();
        self.path.push((root, self.var_start[root as usize]));
        while let Some(&mut (x, ref mut k)) = self.path.last_mut() {
            if *k == self.var_start[x as usize + 1] {
                self.path.pop();
                continue;
            }
            let a = self.var_values[*k as usize] as usize;
            *k += 1;
            if self.seen_round[a] == round {
                continue;
            }
            self.seen_round[a] = round;
            let owner = self.value_match[a];
            if owner == NONE {
                // Flip the path: each variable on it takes the value it reached last.
                let mut value = a as u32;
                while let Some((y, _)) = self.path.pop() {
                    let previous = self.var_match[y as usize];
                    self.var_match[y as usize] = value;
                    self.value_match[value as usize] = y;
                    value = previous;
                }
                return true;
            }
            self.path.push((owner, self.var_start[owner as usize]));
        }
        false
    }

    /// The next successor of `node` from adjacency position `k`: a variable's only successor is its
    /// matched value; a value's are the variables that can take it but are not matched to it.
    #[inline]
    fn successor(&self, n: usize, node: u32, k: u32) -> Option<(u32, u32)> {
        let node = node as usize;
        if node < n {
            return (k == 0).then(|| (n as u32 + self.var_match[node], 1));
        }
        let a = node - n;
        let (from, to) = (self.value_start[a], self.value_start[a + 1]);
        let mut position = from + k;
        while position < to {
            let x = self.value_vars[position as usize];
            if self.var_match[x as usize] != a as u32 {
                return Some((x, position - from + 1));
            }
            position += 1;
        }
        None
    }

    /// Tarjan's strongly connected components, without recursion.
    fn components(&mut self, n: usize, m: usize) {
        let nodes = n + m;
        self.index.clear();
        self.index.resize(nodes, NONE);
        self.lowlink.clear();
        self.lowlink.resize(nodes, 0);
        self.on_stack.clear();
        self.on_stack.resize(nodes, false);
        self.component.clear();
        self.component.resize(nodes, NONE);
        self.stack.clear();
        self.calls.clear();
        let mut counter = 0u32;
        for root in 0..nodes as u32 {
            if self.index[root as usize] != NONE {
                continue;
            }
            self.visit(root, &mut counter);
            while let Some(&(node, k)) = self.calls.last() {
                match self.successor(n, node, k) {
                    Some((next, k)) => {
                        if let Some(call) = self.calls.last_mut() {
                            call.1 = k;
                        }
                        if self.index[next as usize] == NONE {
                            self.visit(next, &mut counter);
                        } else if self.on_stack[next as usize] {
                            let low = self.lowlink[node as usize].min(self.index[next as usize]);
                            self.lowlink[node as usize] = low;
                        }
                    }
                    None => {
                        self.calls.pop();
                        if let Some(&(parent, _)) = self.calls.last() {
                            let low =
                                self.lowlink[parent as usize].min(self.lowlink[node as usize]);
                            self.lowlink[parent as usize] = low;
                        }
                        if self.lowlink[node as usize] == self.index[node as usize] {
                            while let Some(member) = self.stack.pop() {
                                self.on_stack[member as usize] = false;
                                self.component[member as usize] = node;
                                if member == node {
                                    break;
                                }
                            }
                        }
                    }
                }
            }
        }
    }

    fn visit(&mut self, node: u32, counter: &mut u32) {
        self.index[node as usize] = *counter;
        self.lowlink[node as usize] = *counter;
        *counter += 1;
        self.stack.push(node);
        self.on_stack[node as usize] = true;
        self.calls.push((node, 0));
    }

    /// Marks every node reachable from a free value along the oriented edges.
    fn reach_from_free_values(&mut self, n: usize, m: usize) {
        self.reachable.clear();
        self.reachable.resize(n + m, false);
        self.stack.clear();
        for a in 0..m {
            if self.value_match[a] == NONE {
                self.reachable[n + a] = true;
                self.stack.push((n + a) as u32);
            }
        }
        while let Some(node) = self.stack.pop() {
            let mut k = 0;
            while let Some((next, after)) = self.successor(n, node, k) {
                k = after;
                if !self.reachable[next as usize] {
                    self.reachable[next as usize] = true;
                    self.stack.push(next);
                }
            }
        }
    }
}

/// The most values (the variables' spans summed) a Hall-set explanation lists: beyond it, the
/// explanation is left to the learner's default.
const HALL_BUDGET: i64 = 1 << 16;

/// The values of `vars` just before the change being explained: the distinct values of their
/// domains, sorted, and each domain as ascending indices into them; `None` when the variables'
/// spans add up to more than [`HALL_BUDGET`].
fn listed_domains(
    vars: &[VarId],
    ctx: &crate::ExplainCtx<'_>,
) -> Option<(Vec<i32>, Vec<Vec<u32>>)> {
    let bounds: Vec<(i32, i32)> = vars.iter().map(|&y| ctx.bounds(y)).collect();
    let spans: i64 = bounds
        .iter()
        .map(|&(l, h)| i64::from(h) - i64::from(l) + 1)
        .sum();
    if spans > HALL_BUDGET {
        return None;
    }
    let listed: Vec<Vec<i32>> = vars
        .iter()
        .zip(&bounds)
        .map(|(&y, &(l, h))| {
            (l..=h)
                .filter(|&w| ctx.contains_within(y, w, (l, h)))
                .collect()
        })
        .collect();
    let mut values: Vec<i32> = listed.iter().flatten().copied().collect();
    values.sort_unstable();
    values.dedup();
    let domains = listed
        .iter()
        .map(|domain| {
            domain
                .iter()
                .map(|w| values.binary_search(w).expect("listed") as u32)
                .collect()
        })
        .collect();
    Some((values, domains))
}

/// A maximum matching of the variables whose values are `domains` (indices below `m`), by Kuhn's
/// augmenting paths from a greedy start: `owner[k]` is the variable matched to value `k`.
/// Returns it with whether each variable is matched.
fn max_matching(domains: &[Vec<u32>], m: usize) -> (Vec<Option<usize>>, Vec<bool>) {
    let mut owner: Vec<Option<usize>> = vec![None; m];
    let mut matched: Vec<bool> = vec![false; domains.len()];
    for (i, domain) in domains.iter().enumerate() {
        if let Some(&k) = domain.iter().find(|&&k| owner[k as usize].is_none()) {
            owner[k as usize] = Some(i);
            matched[i] = true;
        }
    }
    let mut visited = vec![false; m];
    for (i, is_matched) in matched.iter_mut().enumerate() {
        if !*is_matched {
            visited.iter_mut().for_each(|v| *v = false);
            *is_matched = augment_explained(i, domains, &mut owner, &mut visited);
        }
    }
    (owner, matched)
}

/// The variables reachable from `start` by alternating paths (a variable, any of its values, the
/// variable matched to that value, and so on), and the values they can take (`in_values[k]`);
/// `None` if a path reaches a value no variable is matched to.
fn alternating_closure(
    domains: &[Vec<u32>],
    owner: &[Option<usize>],
    start: usize,
) -> Option<(Vec<bool>, Vec<bool>)> {
    let mut in_set = vec![false; domains.len()];
    in_set[start] = true;
    let mut stack = vec![start];
    let mut in_values = vec![false; owner.len()];
    while let Some(i) = stack.pop() {
        for &k in &domains[i] {
            in_values[k as usize] = true;
            match owner[k as usize] {
                None => return None,
                Some(j) if !in_set[j] => {
                    in_set[j] = true;
                    stack.push(j);
                }
                Some(_) => {}
            }
        }
    }
    Some((in_set, in_values))
}

/// Pushes, for each variable `y` of the set, that its domain lies within the set's values `U`
/// (`in_values[k]` for `values[k]`): `y ≥ a` and `y ≤ b`, with `a` and `b` the ends of the runs
/// of consecutive integers of `U` that hold `y`'s bounds (as general as the bounds can be
/// without more literals), and `y ≠ w` for each integer `w` between its bounds not in `U`.
fn push_within_values(
    vars: &[VarId],
    domains: &[Vec<u32>],
    in_set: &[bool],
    in_values: &[bool],
    values: &[i32],
    reasons: &mut Vec<crate::Literal>,
) {
    use crate::Literal;
    // Whether `values[k]` and the integer just above it are both in the set.
    let joined = |k: usize| {
        k + 1 < values.len()
            && in_values[k]
            && in_values[k + 1]
            && i64::from(values[k]) + 1 == i64::from(values[k + 1])
    };
    for (i, &y) in vars.iter().enumerate() {
        if !in_set[i] {
            continue;
        }
        let (Some(&first), Some(&last)) = (domains[i].first(), domains[i].last()) else {
            continue;
        };
        let (first, last) = (first as usize, last as usize);
        if first == last {
            // A fixed variable: one literal says it.
            reasons.push(Literal::eq(y, values[first]));
            continue;
        }
        let mut run_start = first;
        while run_start > 0 && joined(run_start - 1) {
            run_start -= 1;
        }
        let mut run_end = last;
        while joined(run_end) {
            run_end += 1;
        }
        reasons.push(Literal::ge(y, values[run_start]));
        reasons.push(Literal::le(y, values[run_end]));
        for k in first..last {
            if !in_values[k] {
                reasons.push(Literal::ne(y, values[k]));
            }
            // The integers no domain holds, between two listed values.
            for w in values[k].saturating_add(1)..values[k + 1] {
                reasons.push(Literal::ne(y, w));
            }
        }
    }
}

/// Explains `x ≠ v` by a Hall set of the other variables' domains just before the change (see
/// [`AllDifferent`]'s `explain`): a maximum matching of those variables to their values, then the
/// variables reachable from `v`'s partner by alternating paths, the smallest Hall set holding that
/// partner. If one of them reaches a value no variable is matched to, `v` is not in a Hall set and
/// the explanation is left to the default.
fn hall_set_explanation(
    scope: &[VarId],
    literal: crate::Literal,
    ctx: &crate::ExplainCtx<'_>,
    reasons: &mut Vec<crate::Literal>,
) -> bool {
    let others: Vec<VarId> = scope
        .iter()
        .copied()
        .filter(|&y| y != literal.var)
        .collect();
    let Some((values, domains)) = listed_domains(&others, ctx) else {
        return false;
    };
    let Ok(v) = values.binary_search(&literal.value) else {
        return false;
    };
    let (owner, _) = max_matching(&domains, values.len());
    let Some(start) = owner[v] else {
        return false;
    };
    let Some((in_set, in_values)) = alternating_closure(&domains, &owner, start) else {
        return false;
    };
    push_within_values(&others, &domains, &in_set, &in_values, &values, reasons);
    true
}

/// An interval `[a, c]` with `a ≤ at ≤ c` (when `at` is given) and `c < beyond` (`c > beyond`
/// when `upward` is false, mirrored), holding at least `c − a + 1 + extra` of `ranges`: the one
/// with `c` farthest towards `beyond`, and for it the narrowest. Returns `(a, c)` and as many of
/// the ranges' variables as it needs.
fn hall_interval_around(
    ranges: &[(VarId, (i32, i32))],
    at: Option<i32>,
    beyond: i32,
    upward: bool,
    extra: usize,
) -> Option<(i32, i32, Vec<VarId>)> {
    // Mirror the values for the upper side so that one search serves both.
    let flip = |v: i32| if upward { i64::from(v) } else { -i64::from(v) };
    let mirrored: Vec<(VarId, (i64, i64))> = ranges
        .iter()
        .map(|&(y, (l, h))| {
            let (l, h) = (flip(l), flip(h));
            (y, (l.min(h), l.max(h)))
        })
        .collect();
    let beyond = flip(beyond);
    // Without a point to hold, every start is a candidate and every range may count.
    let at = at.map_or(i64::MAX, flip);
    let mut ends: Vec<i64> = mirrored
        .iter()
        .map(|&(_, (_, h))| h)
        .filter(|&h| (at == i64::MAX || at <= h) && h < beyond)
        .collect();
    ends.sort_unstable_by(|p, q| q.cmp(p));
    ends.dedup();
    for c in ends {
        // The ranges ending by `c`, by decreasing start: scanning them counts those within
        // `[a, c]` for each candidate `a`.
        let mut starts: Vec<(i64, VarId)> = mirrored
            .iter()
            .filter(|&&(_, (l, h))| h <= c && l <= at)
            .map(|&(y, (l, _))| (l, y))
            .collect();
        let above = mirrored
            .iter()
            .filter(|&&(_, (l, h))| h <= c && l > at)
            .count();
        starts.sort_unstable_by_key(|&(l, _)| std::cmp::Reverse(l));
        for (k, &(a, _)) in starts.iter().enumerate() {
            let within = above + k + 1;
            let need = (c - a + 1) as usize + extra;
            if within >= need && (starts.len() == k + 1 || starts[k + 1].0 < a) {
                let chosen: Vec<VarId> = mirrored
                    .iter()
                    .filter(|&&(_, (l, h))| a <= l && h <= c)
                    .map(|&(y, _)| y)
                    .take(need)
                    .collect();
                let back = |v: i64| (if upward { v } else { -v }) as i32;
                return Some((back(a), back(c), chosen));
            }
        }
    }
    None
}

/// Explains `x ≥ b` by a Hall interval `[a, c]` of the other variables with `a ≤ lb x ≤ c < b`
/// (and no value of `x` between `c` and `b`): its variables lie within it, and `x ≥ a`.
fn hall_interval_below(
    scope: &[VarId],
    x: VarId,
    b: i32,
    ctx: &crate::ExplainCtx<'_>,
    reasons: &mut Vec<crate::Literal>,
) -> bool {
    hall_interval_bound(scope, x, b, true, ctx, reasons)
}

/// Explains `x ≤ b`: the mirror of [`hall_interval_below`].
fn hall_interval_above(
    scope: &[VarId],
    x: VarId,
    b: i32,
    ctx: &crate::ExplainCtx<'_>,
    reasons: &mut Vec<crate::Literal>,
) -> bool {
    hall_interval_bound(scope, x, b, false, ctx, reasons)
}

/// [`hall_interval_below`] (`upward`) or [`hall_interval_above`].
fn hall_interval_bound(
    scope: &[VarId],
    x: VarId,
    b: i32,
    upward: bool,
    ctx: &crate::ExplainCtx<'_>,
    reasons: &mut Vec<crate::Literal>,
) -> bool {
    use crate::Literal;
    let (lo, hi) = ctx.bounds(x);
    let at = if upward { lo } else { hi };
    let ranges: Vec<(VarId, (i32, i32))> = scope
        .iter()
        .filter(|&&y| y != x)
        .map(|&y| (y, ctx.bounds(y)))
        .collect();
    let Some((a, c, chosen)) = hall_interval_around(&ranges, Some(at), b, upward, 0) else {
        return false;
    };
    // The values of `x` between the interval and the new bound must have gone already: the
    // learner cites their removals.
    let gap_empty = if upward {
        (c + 1..b).all(|w| !ctx.contains_within(x, w, (lo, hi)))
    } else {
        (b + 1..c).all(|w| !ctx.contains_within(x, w, (lo, hi)))
    };
    if !gap_empty {
        return false;
    }
    let (a_lo, c_hi) = if upward { (a, c) } else { (c, a) };
    reasons.push(if upward {
        Literal::ge(x, a_lo)
    } else {
        Literal::le(x, c_hi)
    });
    for y in chosen {
        reasons.push(Literal::ge(y, a_lo));
        reasons.push(Literal::le(y, c_hi));
    }
    true
}

/// [`AllDifferent`]'s failure: two fixed variables sharing a value, else the shorter of an
/// interval holding more ranges than values and a set of variables with fewer values than
/// variables (the alternating closure of a variable a maximum matching leaves unmatched).
fn explain_all_different_failure(
    scope: &[VarId],
    ctx: &crate::ExplainCtx<'_>,
    reasons: &mut Vec<crate::Literal>,
) -> bool {
    use crate::Literal;
    let ranges: Vec<(VarId, (i32, i32))> = scope.iter().map(|&y| (y, ctx.bounds(y))).collect();
    for (i, &(y, (l, h))) in ranges.iter().enumerate() {
        if l == h
            && let Some(&(z, _)) = ranges[i + 1..]
                .iter()
                .find(|&&(z, (l2, h2))| z != y && l2 == l && h2 == l)
        {
            reasons.extend([Literal::eq(y, l), Literal::eq(z, l)]);
            return true;
        }
    }
    // An interval holding more ranges than values.
    let beyond = ranges.iter().map(|&(_, (_, h))| h).max().unwrap_or(0);
    let by_bounds: Option<Vec<Literal>> =
        hall_interval_around(&ranges, None, beyond.saturating_add(1), true, 1).map(
            |(a, c, chosen)| {
                chosen
                    .iter()
                    .flat_map(|&y| [Literal::ge(y, a), Literal::le(y, c)])
                    .collect()
            },
        );
    let mut by_domains: Option<Vec<Literal>> = None;
    if let Some((values, domains)) = listed_domains(scope, ctx) {
        let (owner, matched) = max_matching(&domains, values.len());
        if let Some(start) = matched.iter().position(|&m| !m)
            && let Some((in_set, in_values)) = alternating_closure(&domains, &owner, start)
        {
            let mut found = Vec::new();
            push_within_values(scope, &domains, &in_set, &in_values, &values, &mut found);
            by_domains = Some(found);
        }
    }
    let best = match (by_bounds, by_domains) {
        (Some(p), Some(q)) => Some(if p.len() <= q.len() { p } else { q }),
        (p, q) => p.or(q),
    };
    match best {
        Some(found) => {
            reasons.extend(found);
            true
        }
        None => false,
    }
}

/// One augmenting path from variable `i` (Kuhn's algorithm): whether `i` was matched.
fn augment_explained(
    i: usize,
    domains: &[Vec<u32>],
    owner: &mut [Option<usize>],
    visited: &mut [bool],
) -> bool {
    for &k in &domains[i] {
        let k = k as usize;
        if visited[k] {
            continue;
        }
        visited[k] = true;
        if owner[k].is_none_or(|j| augment_explained(j, domains, owner, visited)) {
            owner[k] = Some(i);
            return true;
        }
    }
    false
}
