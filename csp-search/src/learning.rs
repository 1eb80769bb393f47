//! Search that learns from failure: conflict analysis over the store's change log, learned
//! clauses, backjumping, activity-based branching and restarts.
//!
//! This follows lazy clause generation (Ohrimenko, Stuckey & Codish 2009, "Propagation via lazy
//! clause generation"; Feydy & Stuckey 2009, "Lazy clause generation reengineered"): every domain
//! change is a literal (`x = v`, `x ≠ v`, `x ≤ v`, `x ≥ v`) on the store's change log with its
//! cause, and a failure is traced back through the causes to the first unique implication point of
//! the current decision level (Marques-Silva & Sakallah 1999, GRASP; Moskewicz et al. 2001,
//! Chaff). The learned clause is propagated by two watched literals, and the search jumps back to
//! the level where the clause asserts its first literal.
//!
//! **Explanations.** A constraint that explains its inferences ([`csp_core::Propagator::explain`])
//! gives the few literals a change rests on; the learner maps each to the earliest log entry that
//! made it true, and adds the removals a bound skipped over. Any other change is explained by the
//! domains of the constraint's scope just before it, as literals (each variable's bounds and the
//! values removed between them). That is sound for any sound propagator, whatever its
//! constraint (it removed the value because no tuple of the constraint within those domains holds
//! it), but it is the weakest explanation: the more constraints explain themselves, the more
//! general the clauses, which is what the learning solvers that lead the field do for every
//! constraint of their catalogue. A constraint's failure is explained the same way when it failed
//! by a change the store refused ([`Store::take_failure`]: a bound beyond the other bound, the
//! removal of a fixed variable's value): that change's explanation and what made it false, rather
//! than every domain of the scope.
//!
//! **Clause propagation** visits, after each round of changes, each changed variable's watch
//! lists once, and only those its changes can make false (one list per relation of the watched
//! literal); a watch carries a blocking literal, so that a clause already satisfied is not read.
//!
//! **Branching** is activity based (VSIDS, Moskewicz et al. 2001): the variables of every literal
//! met in conflict analysis are bumped, activities decay geometrically, and the most active
//! unfixed variable is branched on, with the value it last took (phase saving, Pipatsrisawat &
//! Darwiche 2007) or its smallest one; a variable with a wide domain is split at its midpoint
//! instead. Restarts follow the Luby sequence in conflicts. A search given the model's annotated
//! searches ([`LearningSearch::follow_searches`]) decides as they say instead, without restarts,
//! or in turn with activity at each restart (Chuffed's free search). **Learned clauses** are
//! shortened before they are kept: a literal below the current level implied by another literal
//! of the clause goes, and one implied by
//! the rest of the clause through its reasons, recursively, is dropped (recursive minimisation,
//! Sörensson & Biere 2009, "Minimizing learned clauses", with a stronger literal of the clause
//! standing for a weaker one a reason asks for). Learned clauses are implied by the
//! constraints (and, under an objective, by the bound, which only tightens), so they stay valid
//! across restarts and improving solutions, and no solution is ever lost: enumerating with
//! blocking clauses counts exactly the solutions a search without learning counts.

use std::time::Instant;

use csp_core::{
    Cause, ConstraintId, ExplainCtx, Literal, LiteralRelation, LogEntry, Model, Objective, Store,
    VarId, rng_for,
};
use rand::RngExt;

use crate::branch::{Branch, Brancher, Decision, DecisionBrancher, IntSearch};
use crate::config::luby;
use crate::{Limit, Outcome, Propagation, SearchConfig, SearchResult, SelectCtx, Statistics};

/// The conflicts in a restart run of Luby length 1.
const RESTART_BASE: u64 = 100;

/// How much activities decay after each conflict (the bump grows by its inverse).
const ACTIVITY_DECAY: f64 = 0.95;

/// A domain this wide or wider is split at its midpoint rather than branched on a value.
const SPLIT_WIDTH: i64 = 64;

/// How many learned clauses are kept before the first reduction of the database.
const INITIAL_MAX_LEARNED: usize = 2_000;

/// How often, in decisions, the clock is read; it is read after every conflict too, as one
/// conflict's analysis can take milliseconds (long explanations) and the time limit must hold.
const CLOCK_WORK: u64 = 256;

/// A clause: at least one literal holds. The first two are watched.
#[derive(Debug, Clone)]
struct Clause {
    literals: Vec<Literal>,
    /// For a learned clause, its literal block distance (Audemard & Simon 2009, "Predicting
    /// learnt clauses quality in modern SAT solvers"): how many decision levels its literals
    /// spanned when it was learned. `None` for a clause that must stay (a solution's blocking
    /// clause, which the constraints do not imply).
    lbd: Option<u32>,
}

/// A clause watching one of its first two literals.
#[derive(Debug, Clone, Copy)]
struct Watch {
    clause: u32,
    literal: Literal,
    /// Another literal of the clause (its other watched literal when the watch was made or last
    /// visited): while it holds, the clause is satisfied and need not be read (MiniSat's blocking
    /// literal, Eén & Sörensson; Chu, Harwood & Stuckey 2009). Reading the clause costs a cache
    /// miss or two, and most visits find it satisfied.
    blocker: Literal,
}

/// What failed.
#[derive(Debug, Clone, Copy)]
enum Conflict {
    /// A constraint's propagator.
    Constraint(ConstraintId),
    /// A clause with every literal false.
    Clause(u32),
}

/// One decision level: the store before its decision, and where its log entries start.
#[derive(Debug, Clone, Copy)]
struct Level {
    checkpoint: csp_core::Checkpoint,
    start: usize,
}

/// What clause minimisation knows of a log entry ([`Minimise::marks`]): nothing yet.
const UNKNOWN: u8 = 0;
/// An entry of the clause being minimised.
const IN_CLAUSE: u8 = 1;
/// An entry implied by the clause's entries made before it.
const REDUNDANT: u8 = 2;
/// An entry found not to be redundant (or given up on).
const NOT_REDUNDANT: u8 = 3;
/// An entry dropped from the clause as another entry of the clause implies it.
const SUBSUMED: u8 = 4;
/// An entry of the clause that stays in it.
const KEPT: u8 = 5;

/// Scratch space for the minimisation of a learned clause, kept between conflicts so that it is
/// not allocated again for each.
#[derive(Debug, Default)]
struct Minimise {
    /// Per log entry, what is known of it ([`UNKNOWN`] between uses).
    marks: Vec<u8>,
    /// The entries marked, to clear.
    marked: Vec<usize>,
    /// The depth-first search of [`LearningSearch::redundant`].
    stack: Vec<Frame>,
    /// The reasons of the entries on the stack, each frame's after its parent's.
    reasons: Vec<usize>,
    /// Per variable, its entry in `facts`, or [`NO_FACTS`] (between uses, for every variable).
    facts_of: Vec<u32>,
    /// What the clause's entries say of each variable they are on.
    facts: Vec<VarFacts>,
    /// The clause's bound entries (`≥`, `≤`, `=`; [`VarFacts::from`]), by variable: only they
    /// can imply a literal of another entry, as `x ≠ v` implies nothing but itself.
    bound_entries: Vec<usize>,
}

/// No entry of the clause is on the variable ([`Minimise::facts_of`]).
const NO_FACTS: u32 = u32::MAX;

/// What a clause's entries on one variable say together.
#[derive(Debug, Clone, Copy)]
struct VarFacts {
    var: u32,
    /// The strongest lower bound (`≥`, `=`) among them, `i32::MIN` if none.
    lower: i32,
    /// The strongest upper bound (`≤`, `=`) among them, `i32::MAX` if none.
    upper: i32,
    /// The value of an `x = v` among them.
    fixed: Option<i32>,
    /// Where its bound entries are in [`Minimise::bound_entries`].
    from: u32,
    to: u32,
}

impl Minimise {
    fn mark(&mut self, e: usize, mark: u8) {
        self.marks[e] = mark;
        self.marked.push(e);
    }

    /// Clears every mark and summary.
    fn clear(&mut self) {
        for &e in &self.marked {
            self.marks[e] = UNKNOWN;
        }
        self.marked.clear();
        self.clear_facts();
    }

    fn clear_facts(&mut self) {
        for facts in &self.facts {
            self.facts_of[facts.var as usize] = NO_FACTS;
        }
        self.facts.clear();
        self.bound_entries.clear();
    }

    /// Summarises the entries `by_var` of a clause (sorted by variable, as `(variable, entry)`)
    /// per variable, in place of any summary before.
    fn summarise(&mut self, by_var: &[(u32, usize)], log: &[LogEntry], num_vars: usize) {
        self.clear_facts();
        self.facts_of.resize(num_vars, NO_FACTS);
        for &(var, e) in by_var {
            if self.facts_of[var as usize] == NO_FACTS {
                self.facts_of[var as usize] = self.facts.len() as u32;
                let at = self.bound_entries.len() as u32;
                self.facts.push(VarFacts {
                    var,
                    lower: i32::MIN,
                    upper: i32::MAX,
                    fixed: None,
                    from: at,
                    to: at,
                });
            }
            let facts = self.facts.last_mut().expect("a summary");
            let Literal {
                relation, value, ..
            } = log[e].literal;
            if relation != LiteralRelation::Ne {
                self.bound_entries.push(e);
                facts.to += 1;
            }
            if matches!(relation, LiteralRelation::Ge | LiteralRelation::Eq) {
                facts.lower = facts.lower.max(value);
            }
            if matches!(relation, LiteralRelation::Le | LiteralRelation::Eq) {
                facts.upper = facts.upper.min(value);
            }
            if relation == LiteralRelation::Eq {
                facts.fixed = Some(value);
            }
        }
    }
}

/// An entry whose redundancy is being decided, and which of its reasons (in
/// [`Minimise::reasons`] from `start`) is next.
#[derive(Debug, Clone, Copy)]
struct Frame {
    entry: usize,
    start: usize,
    next: usize,
}

/// A decision level as one bit of 64 (its number modulo 64): a set of levels as a `u64`, which
/// may say a level is in it when it is not, but never the converse (MiniSat's abstract levels).
fn abstract_level(level: usize) -> u64 {
    1 << (level % 64)
}

/// Search with learning (see the module documentation). Returns solutions one at a time, like
/// [`crate::Search::next_solution`]: under an objective each is better than the last, and the search
/// ends [`Outcome::Optimal`] once no better one exists.
///
/// ```
/// use csp_core::ModelBuilder;
/// use csp_core::constraints::AllDifferent;
/// use csp_search::{LearningSearch, Outcome, SearchConfig};
///
/// // Four pigeons, three holes: no solution, proved by learning.
/// let mut builder = ModelBuilder::new();
/// let pigeons: Vec<_> = (0..4)
///     .map(|i| builder.int_var(format!("p{i}"), 0..=2).unwrap())
///     .collect();
/// builder.post(AllDifferent::new(pigeons)).unwrap();
/// let model = builder.build();
/// let mut search = LearningSearch::new(&model, &SearchConfig::default());
/// assert!(search.next_solution().is_none());
/// assert_eq!(search.outcome(), Some(Outcome::Exhausted));
/// ```
#[derive(Debug)]
pub struct LearningSearch<'m> {
    model: &'m Model,
    store: Store,
    config: SearchConfig,
    clauses: Vec<Clause>,
    /// The clauses with a watched literal on each variable, four lists a variable (see
    /// [`watch_list`]).
    watches: Vec<Vec<Watch>>,
    /// Per variable, what its log entries not visited yet changed ([`CHANGED`], [`LOWER`],
    /// [`UPPER`]); zero once visited.
    touched: Vec<u8>,
    /// The variables with a nonzero [`LearningSearch::touched`], in the order first changed.
    touched_vars: Vec<VarId>,
    /// The log entries whose watches were visited.
    queue_head: usize,
    levels: Vec<Level>,
    activity: Vec<f64>,
    bump: f64,
    /// Each variable's last decided or solution value.
    phase: Vec<Option<i32>>,
    /// Scratch for conflict analysis: which log entries are in the clause being built.
    seen: Vec<bool>,
    /// Scratch for clause minimisation ([`Self::simplify`]).
    minimise: Minimise,
    /// The reasons of log entries computed so far ([`Self::reason`]), by entry.
    reasons: Vec<Option<Box<[u32]>>>,
    /// Scratch for a constraint's explanation in [`Self::compute_reason`], kept so that each
    /// explanation does not allocate its own.
    explanation: Vec<Literal>,
    /// The decision level of each log entry up to some point ([`Self::sync_levels`]): clause
    /// minimisation asks for the levels of many entries, each a binary search otherwise.
    entry_levels: Vec<u32>,
    stats: Statistics,
    started: Option<Instant>,
    conflicts_since_restart: u64,
    restart_run: u64,
    work: u64,
    outcome: Option<Outcome>,
    /// The last solution (under an objective, the best).
    solution: Option<Vec<i32>>,
    /// What to do before searching on after a solution was returned.
    after_solution: bool,
    learned: u64,
    /// The literals of the clauses learned, in all.
    learned_literals: u64,
    /// How many learned clauses to keep before the next reduction.
    max_learned: usize,
    /// The variables to branch on first ([`LearningSearch::branch_first`]).
    first: Vec<VarId>,
    /// The annotated searches to follow ([`LearningSearch::follow_searches`]).
    annotated: Option<DecisionBrancher>,
    /// Whether restarts alternate between the annotated searches and activity.
    alternate: bool,
    /// Whether the current restart run follows the annotated searches.
    annotated_turn: bool,
    /// Slots of dropped clauses, for the next clauses learned.
    free_slots: Vec<u32>,
    /// Learned clauses in the database now.
    live_learned: usize,
    /// In tests, the model's solutions not found yet: no clause may exclude one.
    #[cfg(test)]
    oracle: Vec<Vec<i32>>,
}

impl<'m> LearningSearch<'m> {
    /// A learning search of `model`, with `config`'s seed (which orders ties among equally active
    /// variables) and its node, backtrack and time limits; its orderings and propagation are not
    /// used.
    pub fn new(model: &'m Model, config: &SearchConfig) -> Self {
        let n = model.num_vars();
        let mut rng = rng_for(config.seed, 0x1ea2);
        // A tiny random start breaks ties between equally active variables by the seed.
        let activity = (0..n).map(|_| rng.random_range(0.0..1e-6)).collect();
        LearningSearch {
            model,
            store: Store::new(model),
            config: config.clone(),
            clauses: Vec::new(),
            watches: vec![Vec::new(); 4 * n],
            touched: vec![0; n],
            touched_vars: Vec::new(),
            queue_head: 0,
            levels: Vec::new(),
            activity,
            bump: 1.0,
            phase: vec![None; n],
            seen: Vec::new(),
            minimise: Minimise::default(),
            reasons: Vec::new(),
            explanation: Vec::new(),
            entry_levels: Vec::new(),
            stats: Statistics::default(),
            started: None,
            conflicts_since_restart: 0,
            restart_run: 1,
            work: 0,
            outcome: None,
            solution: None,
            after_solution: false,
            learned: 0,
            learned_literals: 0,
            max_learned: INITIAL_MAX_LEARNED,
            first: Vec::new(),
            annotated: None,
            alternate: false,
            annotated_turn: false,
            free_slots: Vec::new(),
            live_learned: 0,
            #[cfg(test)]
            oracle: Vec::new(),
        }
    }

    /// How the search ended, once it has.
    pub fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }

    /// What the search did so far: `nodes` counts decisions, `dead_ends` conflicts.
    pub fn stats(&self) -> &Statistics {
        &self.stats
    }

    /// Branches on `vars` first, while any of them is open, and on the other variables only then:
    /// a model's own decision variables, say, rather than the sums and flags a compiler
    /// introduced, which they fix by propagation (as Chuffed's activity search does).
    pub fn branch_first(&mut self, vars: &[VarId]) {
        self.first = vars.to_vec();
    }

    /// Decides as `searches` say (MiniZinc's `int_search` annotations, in order) while any
    /// variable they name is open, and by activity only then; `seed` of the configuration drives
    /// `indomain_random`. Without `alternate` the search never restarts: it explores the annotated
    /// tree once, pruned by what it learns, as Chuffed does with a model's search annotation. With
    /// `alternate` it restarts as activity-based search does and each restart switches between
    /// the annotated decisions and activity, the annotated ones first (Chuffed's free search).
    pub fn follow_searches(&mut self, searches: Vec<IntSearch>, alternate: bool) {
        if searches.iter().all(|search| search.vars.is_empty()) {
            return;
        }
        self.annotated =
            Some(DecisionBrancher::new(self.model, searches, self.config.seed).without_rest());
        self.alternate = alternate;
        self.annotated_turn = true;
    }

    /// How many clauses conflict analysis learned.
    pub fn learned_clauses(&self) -> u64 {
        self.learned
    }

    /// How many literals the learned clauses had in all, as learned (shortened, before any was
    /// dropped): with [`LearningSearch::learned_clauses`], their mean length.
    pub fn learned_literals(&self) -> u64 {
        self.learned_literals
    }

    /// The result so far (its outcome [`Outcome::Stopped`] while the search is not over).
    pub fn result(&self) -> SearchResult {
        let objective = self
            .model
            .objective()
            .var()
            .and_then(|var| self.solution.as_ref().map(|values| values[var.index()]));
        SearchResult {
            outcome: self.outcome.unwrap_or(Outcome::Stopped),
            stats: self.stats.clone(),
            elapsed: self.started.map(|s| s.elapsed()).unwrap_or_default(),
            solution: self.solution.clone(),
            objective,
            propagations: self.store.propagations(),
        }
    }

    /// The next solution (under an objective, the next better one), or `None` once the search is
    /// over ([`LearningSearch::outcome`] says why). Like [`crate::Search::next_solution`] it
    /// ignores the solution limits: the caller stops when it has enough.
    pub fn next_solution(&mut self) -> Option<&[i32]> {
        if self.outcome.is_some() {
            return None;
        }
        if self.started.is_none() {
            self.started = Some(Instant::now());
            self.store.enable_change_log();
            if self.store.establish_arc_consistency(self.model).is_err() {
                return self.finish(Outcome::Exhausted);
            }
        } else if self.after_solution {
            self.after_solution = false;
            if !self.exclude_last_solution() {
                return self.finish_exhausted();
            }
        }
        loop {
            if let Some(limit) = self.limit_reached() {
                return self.finish(Outcome::LimitReached(limit));
            }
            match self.propagate() {
                Err(conflict) => {
                    self.stats.dead_ends += 1;
                    self.work = CLOCK_WORK;
                    if !self.resolve(conflict) {
                        return self.finish_exhausted();
                    }
                }
                Ok(()) => {
                    if self.restart_due() {
                        self.backjump(0);
                        self.stats.restarts += 1;
                        if self.alternate {
                            self.annotated_turn = !self.annotated_turn;
                        }
                        continue;
                    }
                    let Some(literal) = self.next_decision() else {
                        return self.found_solution();
                    };
                    self.decide(literal);
                }
            }
        }
    }

    /// Propagation to a fixpoint of the constraints and the clauses together.
    fn propagate(&mut self) -> Result<(), Conflict> {
        loop {
            self.store
                .propagate(self.model)
                .map_err(Conflict::Constraint)?;
            if self.queue_head == self.store.change_log().len() {
                return Ok(());
            }
            while self.queue_head < self.store.change_log().len() {
                self.visit_changed_vars()?;
            }
        }
    }

    /// Visits the watch lists of the variables changed by the log entries not visited yet, each
    /// variable once however many of its entries there are (a bound that moves five times in one
    /// propagation reads its lists once, not five times), and only the lists its changes can
    /// make false: `x = v` on any change, `x ≤ v` when the lower bound rose, `x ≥ v` when the
    /// upper bound fell, `x ≠ v` when it became fixed (which always moves a bound).
    fn visit_changed_vars(&mut self) -> Result<(), Conflict> {
        let end = self.store.change_log().len();
        for k in self.queue_head..end {
            let literal = self.store.change_log()[k].literal;
            let flags = match literal.relation {
                LiteralRelation::Ne => CHANGED,
                LiteralRelation::Ge => CHANGED | LOWER,
                LiteralRelation::Le => CHANGED | UPPER,
                LiteralRelation::Eq => CHANGED | LOWER | UPPER,
            };
            let slot = &mut self.touched[literal.var.index()];
            if *slot == 0 {
                self.touched_vars.push(literal.var);
            }
            *slot |= flags;
        }
        self.queue_head = end;
        let mut vars = std::mem::take(&mut self.touched_vars);
        let mut result = Ok(());
        for &var in &vars {
            let flags = std::mem::take(&mut self.touched[var.index()]);
            if result.is_err() {
                // Only the flags are cleared: the conflict is analysed and undone first.
                continue;
            }
            let fixed = self.store.size(var) == 1;
            result = self
                .visit_watches(var, LiteralRelation::Eq)
                .and_then(|()| {
                    if flags & LOWER != 0 {
                        self.visit_watches(var, LiteralRelation::Le)
                    } else {
                        Ok(())
                    }
                })
                .and_then(|()| {
                    if flags & UPPER != 0 {
                        self.visit_watches(var, LiteralRelation::Ge)
                    } else {
                        Ok(())
                    }
                })
                .and_then(|()| {
                    if fixed && flags & (LOWER | UPPER) != 0 {
                        self.visit_watches(var, LiteralRelation::Ne)
                    } else {
                        Ok(())
                    }
                });
        }
        vars.clear();
        self.touched_vars = vars;
        result
    }

    /// Visits the clauses watching a literal `var relation v` (one watch list, see
    /// [`watch_list`]) after `var` changed: each whose watched literal is now false watches
    /// another, or propagates its other watched literal, or fails. Whether a watched literal is
    /// false is read from the variable's bounds (and for `x = v` its domain), read once for the
    /// list, so that the many watches a change leaves alone cost a comparison each.
    fn visit_watches(&mut self, var: VarId, relation: LiteralRelation) -> Result<(), Conflict> {
        let list_index = watch_list(var, relation);
        if self.watches[list_index].is_empty() {
            return Ok(());
        }
        let mut list = std::mem::take(&mut self.watches[list_index]);
        let (lo, hi) = (self.store.lb(var), self.store.ub(var));
        let mut kept = 0;
        let mut result = Ok(());
        for i in 0..list.len() {
            let watch = list[i];
            let v = watch.literal.value;
            let false_now = match relation {
                LiteralRelation::Eq => {
                    v < lo || v > hi || (lo != hi && !self.store.domain(var).contains(v))
                }
                LiteralRelation::Le => v < lo,
                LiteralRelation::Ge => v > hi,
                LiteralRelation::Ne => lo == v && hi == v,
            };
            let keep =
                if result.is_err() || !false_now || watch.blocker.status(&self.store) == Some(true)
                {
                    true
                } else {
                    match self.visit_clause(&mut list[i]) {
                        Ok(keep) => keep,
                        Err(conflict) => {
                            result = Err(conflict);
                            true
                        }
                    }
                };
            if keep {
                list[kept] = list[i];
                kept += 1;
            }
        }
        list.truncate(kept);
        // A clause that moved its watch to another literal of this same list was pushed to the
        // (emptied) list in the store meanwhile: keep it too.
        list.append(&mut self.watches[list_index]);
        self.watches[list_index] = list;
        result
    }

    /// A clause whose watched literal `watch.literal` may have become false; returns whether the
    /// watch stays (with its blocker updated to the clause's other watched literal).
    fn visit_clause(&mut self, watch: &mut Watch) -> Result<bool, Conflict> {
        let id = watch.clause;
        let clause = &mut self.clauses[id as usize].literals;
        let w = if clause.is_empty() {
            // Cannot happen: a dropped clause's watches go with it.
            return Ok(false);
        } else if clause[0] == watch.literal {
            0
        } else if clause[1] == watch.literal {
            1
        } else {
            // A stale watch (the clause watches elsewhere now).
            return Ok(false);
        };
        if watch.literal.status(&self.store) != Some(false) {
            return Ok(true);
        }
        let other = clause[1 - w];
        watch.blocker = other;
        let other_status = other.status(&self.store);
        if other_status == Some(true) {
            // Satisfied: nothing to do while the other literal holds.
            return Ok(true);
        }
        // A literal that is not false to watch instead.
        if let Some(j) = (2..clause.len()).find(|&j| clause[j].status(&self.store) != Some(false)) {
            clause.swap(w, j);
            let literal = clause[w];
            self.watches[watch_list(literal.var, literal.relation)].push(Watch {
                clause: id,
                literal,
                blocker: other,
            });
            return Ok(false);
        }
        if other_status == Some(false) {
            return Err(Conflict::Clause(id));
        }
        self.store.set_cause(Cause::Clause(id));
        let made = self.store.make_true(other);
        self.store.set_cause(Cause::Decision);
        match made {
            Ok(_) => Ok(true),
            Err(_) => Err(Conflict::Clause(id)),
        }
    }

    /// Learns from `conflict` and jumps back; returns false if the conflict holds at the root.
    fn resolve(&mut self, conflict: Conflict) -> bool {
        self.sync_levels();
        let end = self.store.change_log().len();
        let mut entries = Vec::new();
        match conflict {
            Conflict::Constraint(c) => {
                if let Some(brancher) = &mut self.annotated {
                    let ctx = SelectCtx::new(self.model, &self.store, Propagation::Mac);
                    brancher.on_wipeout(c, &ctx);
                }
                let failure = self.store.take_failure();
                if !self.failure_entries(c, failure, end, &mut entries) {
                    entries.clear();
                    self.scope_entries(c, end, &mut entries);
                }
            }
            Conflict::Clause(id) => {
                // A clause's own failure is its literals; a change a wipe-out refused on the way
                // is stale now.
                let _ = self.store.take_failure();
                for k in 0..self.clauses[id as usize].literals.len() {
                    let literal = self.clauses[id as usize].literals[k];
                    self.witnesses(literal.negate(), end, &mut entries);
                }
            }
        }
        // The conflict may lie wholly below the current level (a propagator that saw it late):
        // analyse it at the highest level it involves.
        let highest = entries.iter().map(|&e| self.level_of(e)).max().unwrap_or(0);
        if highest == 0 {
            return false;
        }
        if highest < self.levels.len() {
            self.backjump(highest);
        }
        let (literals, jump, lbd) = self.analyse(entries);
        #[cfg(test)]
        self.check_against_oracle(&literals);
        self.backjump(jump);
        self.learn(literals, lbd);
        self.reduce_clauses();
        self.decay();
        self.conflicts_since_restart += 1;
        true
    }

    /// The entries of a failure of constraint `c` that refused a change, `failure` (the literal it
    /// could not make true, and the cause it was made under): the constraint's explanation of the
    /// change (as if made at the end of the log, `end`) with the removals its bound skips, and the
    /// entries that make it false. Far fewer than every domain of the scope, which is what a
    /// failure is explained by otherwise: a sum that fails needs one bound of each term, not both
    /// bounds and the holes. Returns false, leaving `out` as it was or with entries to discard,
    /// when the failure is not one it can explain this way.
    fn failure_entries(
        &self,
        c: ConstraintId,
        failure: Option<(Literal, Cause)>,
        end: usize,
        out: &mut Vec<usize>,
    ) -> bool {
        let Some((literal, cause)) = failure else {
            return false;
        };
        if cause != Cause::Constraint(c) {
            return false;
        }
        // The literal must be false by bounds alone, for its negation's witnesses to be entries
        // (`x ≥ v` refused by an upper bound below `v`, say).
        let (lo, hi) = self.store.bounds_before(literal.var, end);
        let false_by_bounds = match literal.relation {
            LiteralRelation::Ge => hi < literal.value,
            LiteralRelation::Le => lo > literal.value,
            LiteralRelation::Ne => lo == literal.value && hi == literal.value,
            LiteralRelation::Eq => false,
        };
        if !false_by_bounds {
            return false;
        }
        let mut reasons = Vec::new();
        let ctx = ExplainCtx::new(&self.store, end);
        if !self
            .model
            .constraint(c)
            .explain(literal, &ctx, &mut reasons)
        {
            return false;
        }
        for reason in reasons {
            self.witnesses(reason, end, out);
        }
        self.holes_passed(literal, end, out);
        self.witnesses(literal.negate(), end, out);
        true
    }

    /// First-UIP conflict analysis from the entries of a conflict, all at or below the current
    /// level with at least one at it: the learned clause (asserting literal first, then a literal
    /// of the level to jump to) and that level.
    #[inline(never)]
    fn analyse(&mut self, conflict: Vec<usize>) -> (Vec<Literal>, usize, u32) {
        let current = self.levels.len();
        let start = self.levels[current - 1].start;
        let log_len = self.store.change_log().len();
        self.seen.clear();
        self.seen.resize(log_len, false);
        let mut pending = 0usize;
        let mut lower: Vec<usize> = Vec::new();
        let mut reasons = conflict;
        let mut p = log_len;
        let uip = loop {
            for &e in &reasons {
                if e < self.root_end() || self.seen[e] {
                    continue;
                }
                self.seen[e] = true;
                let var = self.store.change_log()[e].literal.var;
                self.bump_activity(var);
                if e >= start {
                    pending += 1;
                } else {
                    lower.push(e);
                }
            }
            // The newest entry of this level still in the clause.
            p -= 1;
            while !self.seen[p] {
                p -= 1;
            }
            if pending == 1 {
                break p;
            }
            pending -= 1;
            reasons.clear();
            self.reason(p, &mut reasons);
        };
        let lower = self.simplify(lower);
        let mut literals = vec![self.store.change_log()[uip].literal.negate()];
        let mut jump = 0;
        let mut second = None;
        for &e in &lower {
            let level = self.level_of(e);
            if level > jump {
                jump = level;
                second = Some(literals.len());
            }
            literals.push(self.store.change_log()[e].literal.negate());
        }
        if let Some(second) = second {
            literals.swap(1, second);
        }
        let mut levels: Vec<usize> = lower.iter().map(|&e| self.level_of(e)).collect();
        levels.sort_unstable();
        levels.dedup();
        (literals, jump, levels.len() as u32 + 1)
    }

    /// Shortens the part of a learned clause below the current level, `lower` (its entries), in
    /// two steps, each keeping the clause implied by the constraints:
    ///
    /// 1. An entry whose literal follows from another entry's of the clause is dropped (of
    ///    `x ≤ 3` and `x ≤ 2`, the first): the clause holds the negations, and `x > 3` implies
    ///    `x > 2`, so the two literals say no more than the weaker one.
    /// 2. An entry is dropped when it is redundant ([`Self::redundant`]): recursive minimisation
    ///    (Sörensson & Biere 2009, "Minimizing learned clauses"), which generalises MiniSat's
    ///    local minimisation (an entry whose reasons are all in the clause).
    ///
    /// An entry whose reason is one entry is not replaced by that entry, although the clause
    /// would stay as short: the entry is the more general fact. On open_stacks, a product's
    /// position ruled out (`s₅ ≠ 1`, by all-different) holds whatever position took the product,
    /// while its reason (`s₁ = 1`) names one; replacing them made the learned clauses about the
    /// order of the products, and problem_10_10_1 took 1,630 failures to prove rather than 915.
    #[inline(never)]
    fn simplify(&mut self, lower: Vec<usize>) -> Vec<usize> {
        let mut scratch = std::mem::take(&mut self.minimise);
        scratch.marks.resize(self.store.change_log().len(), UNKNOWN);
        let mut candidates = Vec::with_capacity(lower.len());
        for e in lower {
            if scratch.marks[e] == UNKNOWN {
                scratch.mark(e, IN_CLAUSE);
                candidates.push(e);
            }
        }
        // Step 1, from what the clause's entries on each variable say together: an entry is
        // implied by another exactly when the strongest bound on its side, or the value the
        // variable is fixed to, implies it (implication between distinct literals of one
        // variable is strict, so the strongest entries stay). A clause may hold hundreds of
        // removals of one variable, so they are not compared pairwise.
        let log = self.store.change_log();
        let mut by_var: Vec<(u32, usize)> = candidates
            .iter()
            .map(|&e| (log[e].literal.var.index() as u32, e))
            .collect();
        by_var.sort_unstable();
        scratch.summarise(&by_var, log, self.model.num_vars());
        let mut dropped = false;
        for &(var, e) in &by_var {
            let facts = scratch.facts[scratch.facts_of[var as usize] as usize];
            let Literal {
                relation, value, ..
            } = log[e].literal;
            let subsumed = match relation {
                LiteralRelation::Ge => facts.lower > value || facts.fixed == Some(value),
                LiteralRelation::Le => facts.upper < value || facts.fixed == Some(value),
                LiteralRelation::Ne => value < facts.lower || value > facts.upper,
                LiteralRelation::Eq => false,
            };
            if subsumed {
                // Not in the clause any more: step 2 must not take it as given.
                scratch.marks[e] = SUBSUMED;
                dropped = true;
            }
        }
        if dropped {
            by_var.retain(|&(_, e)| scratch.marks[e] == IN_CLAUSE);
            candidates.retain(|&e| scratch.marks[e] == IN_CLAUSE);
            // The strongest entries stayed, so each variable's bounds are as they were; its
            // list of bound entries loses the dropped ones.
            scratch.summarise(&by_var, log, self.model.num_vars());
        }
        // Step 2. The clause's decision levels, as a set of 64 bits (a level's bit its number
        // modulo 64): an entry at a level of no clause entry almost always rests, through its
        // reasons, on that level's decision, which is not in the clause, so it is given up on at
        // once (MiniSat's abstract levels). Giving up is always sound; the clause only stays
        // longer when the guess is wrong.
        let levels = candidates
            .iter()
            .fold(0u64, |mask, &e| mask | abstract_level(self.level_of(e)));
        // Newest first, so that an entry is tried once every entry after it is known kept or
        // dropped: one kept may then serve to drop it (see `Self::redundant`).
        let mut newest_first = candidates.clone();
        newest_first.sort_unstable_by(|a, b| b.cmp(a));
        for e in newest_first {
            if self.is_decision(e) || !self.redundant(e, &mut scratch, levels) {
                scratch.marks[e] = KEPT;
            }
        }
        candidates.retain(|&e| scratch.marks[e] == KEPT);
        scratch.clear();
        self.minimise = scratch;
        candidates
    }

    /// Whether clause entry `e` (not a decision) is redundant: implied by the clause's other
    /// entries. Following Sörensson & Biere 2009 ("Minimizing learned clauses", MiniSat's
    /// `litRedundant`), an entry is redundant when each entry of its reason is in the clause,
    /// held at the root, or (not a decision) redundant itself, recursively. The answer for each
    /// entry met on the way is kept in `scratch` for the rest of the clause, either way, and an
    /// entry at a decision level outside `levels` (the clause's, see [`abstract_level`]) is not
    /// redundant without a look at its reason: the paper's two prunings.
    ///
    /// That is sound because every step goes back along the log (a reason comes before what it
    /// explains): an entry of the clause dropped rests on entries of the clause made before it,
    /// each kept or, dropped, resting on still earlier ones, so that all rest on those kept.
    ///
    /// Literals over integers add a case: a reason entry `r` of entry `p` also holds when an
    /// entry of the clause implies its literal (`x ≤ 2` implies the `x ≤ 3` a reason asks for,
    /// whose own entry came earlier). So that the argument above still holds, that entry must
    /// come before `p` or be known to stay in the clause ([`KEPT`]; the clause is gone through
    /// newest entry first, so the entries after `e` are known kept or dropped by now); two
    /// entries that each served to drop the other would leave neither. And `r` is not recorded
    /// redundant by that case, as whether it applies depends on `p`.
    ///
    /// The search is depth first with an explicit stack, as reasons chain deep along the log.
    #[inline(never)]
    fn redundant(&mut self, e: usize, scratch: &mut Minimise, levels: u64) -> bool {
        let root_end = self.root_end();
        scratch.stack.clear();
        scratch.reasons.clear();
        self.reason(e, &mut scratch.reasons);
        scratch.stack.push(Frame {
            entry: e,
            start: 0,
            next: 0,
        });
        while let Some(&Frame { entry, start, next }) = scratch.stack.last() {
            if next == scratch.reasons.len() {
                // Every reason of `entry` holds: it is redundant.
                scratch.stack.pop();
                scratch.reasons.truncate(start);
                if scratch.stack.is_empty() {
                    return true;
                }
                scratch.mark(entry, REDUNDANT);
                continue;
            }
            scratch.stack.last_mut().expect("a frame").next += 1;
            let r = scratch.reasons[next];
            if r < root_end {
                continue;
            }
            let holds = match scratch.marks[r] {
                IN_CLAUSE | KEPT | REDUNDANT => true,
                _ if self.implied_by_clause(r, entry, scratch) => true,
                NOT_REDUNDANT => false,
                _ if self.is_decision(r) || levels & abstract_level(self.level_of(r)) == 0 => {
                    scratch.mark(r, NOT_REDUNDANT);
                    false
                }
                _ => {
                    // Not known yet: its reason is looked at first.
                    let start = scratch.reasons.len();
                    self.reason(r, &mut scratch.reasons);
                    scratch.stack.push(Frame {
                        entry: r,
                        start,
                        next: start,
                    });
                    continue;
                }
            };
            if !holds {
                // Neither is any entry on the stack redundant, each resting on the next; the
                // clause entry at the bottom keeps its mark (in the clause).
                for k in 1..scratch.stack.len() {
                    let entry = scratch.stack[k].entry;
                    scratch.mark(entry, NOT_REDUNDANT);
                }
                scratch.stack.clear();
                return false;
            }
        }
        unreachable!("the loop returns when the stack empties")
    }

    /// Whether the literal of entry `r` is implied by that of an entry of the clause (as
    /// summarised in `scratch`) made before entry `before` or known to stay in it ([`KEPT`]).
    fn implied_by_clause(&self, r: usize, before: usize, scratch: &Minimise) -> bool {
        let log = self.store.change_log();
        let literal = log[r].literal;
        let index = scratch.facts_of[literal.var.index()];
        if index == NO_FACTS {
            return false;
        }
        let facts = scratch.facts[index as usize];
        // Whether any entry of the clause implies it, before the order is looked at: mostly
        // none does, and the answer costs a comparison.
        let v = literal.value;
        let implied_by_any = match literal.relation {
            LiteralRelation::Ge => facts.lower >= v,
            LiteralRelation::Le => facts.upper <= v,
            LiteralRelation::Ne => v < facts.lower || v > facts.upper,
            LiteralRelation::Eq => facts.fixed == Some(v),
        };
        implied_by_any
            && scratch.bound_entries[facts.from as usize..facts.to as usize]
                .iter()
                .any(|&e| {
                    e != r
                        && (e < before || scratch.marks[e] == KEPT)
                        && implies(log[e].literal, literal)
                })
    }

    /// Whether log entry `e` is a decision (which has no reason).
    fn is_decision(&self, e: usize) -> bool {
        matches!(self.store.change_log()[e].cause, Cause::Decision)
    }

    /// Adds a learned clause, its first literal open and the rest false, and makes the first
    /// true.
    fn learn(&mut self, literals: Vec<Literal>, lbd: u32) {
        self.learned += 1;
        self.learned_literals += literals.len() as u64;
        let id = self.add_clause(literals, Some(lbd));
        let first = self.clauses[id as usize].literals[0];
        self.store.set_cause(Cause::Clause(id));
        // The first literal is open at this level (its negation became true above it), so this
        // cannot fail; should it, the next propagation finds the clause false.
        let _ = self.store.make_true(first);
        self.store.set_cause(Cause::Decision);
    }

    /// Stores a clause, in a dropped clause's slot if there is one, and watches its first two
    /// literals (a unit clause: none).
    fn add_clause(&mut self, literals: Vec<Literal>, lbd: Option<u32>) -> u32 {
        // A unit clause holds from the root on and needs no watching.
        let watched = if literals.len() > 1 { 2 } else { 0 };
        let clause = Clause { literals, lbd };
        let id = match self.free_slots.pop() {
            Some(id) => {
                self.clauses[id as usize] = clause;
                id
            }
            None => {
                self.clauses.push(clause);
                (self.clauses.len() - 1) as u32
            }
        };
        if lbd.is_some() {
            self.live_learned += 1;
        }
        for k in 0..watched {
            let literal = self.clauses[id as usize].literals[k];
            let blocker = self.clauses[id as usize].literals[1 - k];
            self.watches[watch_list(literal.var, literal.relation)].push(Watch {
                clause: id,
                literal,
                blocker,
            });
        }
        id
    }

    /// When more learned clauses are kept than the current limit: drops the half with the largest
    /// literal block distance (keeping every clause of distance two or less, every blocking
    /// clause, and every clause that is the reason of a change on the current path), and raises
    /// the limit by a tenth. A dropped clause's slot is reused by a later one; no watch is left
    /// on it.
    fn reduce_clauses(&mut self) {
        if self.live_learned <= self.max_learned {
            return;
        }
        self.max_learned += self.max_learned / 10;
        let mut locked = vec![false; self.clauses.len()];
        for entry in &self.store.change_log()[self.root_end()..] {
            if let Cause::Clause(id) = entry.cause {
                locked[id as usize] = true;
            }
        }
        let mut distances: Vec<u32> = self
            .clauses
            .iter()
            .filter(|c| !c.literals.is_empty())
            .filter_map(|c| c.lbd)
            .collect();
        distances.sort_unstable();
        let cut = distances[distances.len() / 2].max(3);
        // Of the clauses at the cut, those in the later slots stay, up to half of the database
        // (slots are reused, so these are only roughly the newer clauses).
        let mut at_cut_budget =
            (distances.len() / 2).saturating_sub(distances.iter().filter(|&&d| d < cut).count());
        for (id, clause) in self.clauses.iter_mut().enumerate().rev() {
            let Some(d) = clause.lbd else { continue };
            if clause.literals.is_empty() || locked[id] || d < cut {
                continue;
            }
            if d == cut && at_cut_budget > 0 {
                at_cut_budget -= 1;
                continue;
            }
            clause.literals = Vec::new();
            clause.lbd = None;
            self.free_slots.push(id as u32);
            self.live_learned -= 1;
        }
        let clauses = &self.clauses;
        for list in &mut self.watches {
            list.retain(|watch| !clauses[watch.clause as usize].literals.is_empty());
        }
    }

    /// The log entries that explain entry `e` (all before it), computed once while the entry
    /// stays on the log: conflict analysis and clause simplification ask for the same entries'
    /// reasons again and again, and an explanation can be dear (a Hall set's matching).
    fn reason(&mut self, e: usize, out: &mut Vec<usize>) {
        if let Some(Some(cached)) = self.reasons.get(e) {
            out.extend(cached.iter().map(|&r| r as usize));
            return;
        }
        let start = out.len();
        let mut explanation = std::mem::take(&mut self.explanation);
        self.compute_reason(e, out, &mut explanation);
        self.explanation = explanation;
        if self.reasons.len() <= e {
            self.reasons.resize(e + 1, None);
        }
        self.reasons[e] = Some(out[start..].iter().map(|&r| r as u32).collect());
    }

    /// [`Self::reason`] without the cache.
    #[inline(never)]
    fn compute_reason(&self, e: usize, out: &mut Vec<usize>, reasons: &mut Vec<Literal>) {
        let entry = self.store.change_log()[e];
        match entry.cause {
            Cause::Decision => {
                debug_assert!(false, "a decision has no reason");
            }
            Cause::Constraint(c) => {
                reasons.clear();
                let ctx = ExplainCtx::new(&self.store, e);
                if !self
                    .model
                    .constraint(c)
                    .explain(entry.literal, &ctx, reasons)
                {
                    self.scope_entries(c, e, out);
                    return;
                }
                for &literal in reasons.iter() {
                    self.witnesses(literal, e, out);
                }
                self.holes_passed(entry.literal, e, out);
            }
            Cause::Clause(id) => {
                let literals = &self.clauses[id as usize].literals;
                for &literal in literals {
                    if implies(entry.literal, literal) {
                        continue;
                    }
                    self.witnesses(literal.negate(), e, out);
                }
                // A bound literal made true lands on the nearest value left: `x ≥ -1` with 0
                // removed earlier logs `x ≥ 1`, which needs that removal too.
                if !literals.contains(&entry.literal) {
                    self.domain_entries(entry.literal.var, e, out);
                }
            }
            Cause::Bound => {
                // A bound moved by the removal of the value at it: the old bound and the removals
                // between it and the new one (the values below a new lower bound are gone, and
                // those at or above the old one went by removal).
                let literal = entry.literal;
                let lower = literal.relation == LiteralRelation::Ge;
                let root_end = self.root_end();
                let log = self.store.change_log();
                let same_side = if lower {
                    self.store.lower_bounds_before(literal.var, e)
                } else {
                    self.store.upper_bounds_before(literal.var, e)
                };
                let old = same_side
                    .last()
                    .map(|&j| j as usize)
                    .filter(|&j| j >= root_end)
                    .map(|j| (j, log[j].literal.value));
                out.extend(old.map(|(j, _)| j));
                let old = old.map(|(_, v)| v);
                let (entries, values) = self.store.removals_with_values_before(literal.var, e);
                for (&j, &v) in entries.iter().zip(values).rev() {
                    let j = j as usize;
                    if j < root_end {
                        break;
                    }
                    let between = if lower {
                        old.is_none_or(|o| v >= o) && v < literal.value
                    } else {
                        old.is_none_or(|o| v <= o) && v > literal.value
                    };
                    if between {
                        out.push(j);
                    }
                }
            }
        }
    }

    /// For a bound literal logged at entry `e`, the removals (before `e`) of values between the
    /// old bound and the new one: a bound explained by a weaker one needs them, as the bound
    /// skipped those values.
    fn holes_passed(&self, literal: Literal, e: usize, out: &mut Vec<usize>) {
        let (old_lo, old_hi) = self.store.bounds_before(literal.var, e);
        // The values passed: an interval, less the new value itself for `x = v`.
        let (from, to, except) = match literal.relation {
            LiteralRelation::Ge => (old_lo, literal.value.saturating_sub(1), None),
            LiteralRelation::Le => (literal.value.saturating_add(1), old_hi, None),
            LiteralRelation::Eq => (old_lo, old_hi, Some(literal.value)),
            LiteralRelation::Ne => return,
        };
        let root_end = self.root_end();
        let (entries, values) = self.store.removals_with_values_before(literal.var, e);
        // The values passed, when fewer than the variable's removals (a bound that moved a step
        // past a domain that lost hundreds of values): each looked up rather than every removal
        // read.
        if except.is_none() && i64::from(to) - i64::from(from) < entries.len() as i64 {
            for v in from..=to {
                if let Some(j) = self.store.removal_of(literal.var, v)
                    && (root_end..e).contains(&j)
                {
                    out.push(j);
                }
            }
            return;
        }
        for (&j, &v) in entries.iter().zip(values).rev() {
            let j = j as usize;
            if j < root_end {
                break;
            }
            if (from..=to).contains(&v) && Some(v) != except {
                out.push(j);
            }
        }
    }

    /// The entries, before `before` and above the root, that make up the domains of constraint
    /// `c`'s scope at that point: each variable's latest lower and upper bound, and the removals
    /// strictly between them.
    fn scope_entries(&self, c: ConstraintId, before: usize, out: &mut Vec<usize>) {
        for &var in self.model.constraint(c).scope() {
            self.domain_entries(var, before, out);
        }
    }

    /// `var`'s domain before log entry `before`, as entries (see [`Self::scope_entries`]).
    fn domain_entries(&self, var: VarId, before: usize, out: &mut Vec<usize>) {
        let log = self.store.change_log();
        let root_end = self.root_end();
        let latest = |list: &[u32]| {
            list.last()
                .map(|&j| j as usize)
                .filter(|&j| j >= root_end)
                .map(|j| (j, log[j].literal.value))
        };
        let lower = latest(self.store.lower_bounds_before(var, before));
        let upper = latest(self.store.upper_bounds_before(var, before));
        let first = out.len();
        let lo = lower.map_or(i32::MIN, |(_, v)| v);
        let hi = upper.map_or(i32::MAX, |(_, v)| v);
        out.extend(lower.map(|(j, _)| j));
        if let Some((j, _)) = upper
            && Some(j) != lower.map(|(l, _)| l)
        {
            out.push(j);
        }
        let (entries, values) = self.store.removals_with_values_before(var, before);
        for (&j, &v) in entries.iter().zip(values).rev() {
            let j = j as usize;
            if j < root_end {
                break;
            }
            if v > lo && v < hi {
                out.push(j);
            }
        }
        debug_assert!(out[first..].iter().all(|&j| j < before));
    }

    /// The earliest entries before `before` (above the root) that make `target` true: one, or two
    /// for `x = v` from its two bounds; none if it held at the root.
    fn witnesses(&self, target: Literal, before: usize, out: &mut Vec<usize>) {
        if target.relation == LiteralRelation::Eq {
            let (lower, upper) = (
                Literal::ge(target.var, target.value),
                Literal::le(target.var, target.value),
            );
            out.extend(self.earliest_implying(lower, before));
            out.extend(self.earliest_implying(upper, before));
        } else {
            out.extend(self.earliest_implying(target, before));
        }
    }

    /// The earliest entry before `before` (above the root) that makes `target` (not `x = v`)
    /// true. Along the log a variable's lower bounds only grow and its upper bounds only shrink, so
    /// the earliest bound that implies it is found by binary search; `x ≠ v` may also hold by the
    /// removal of `v`. `None` when it held at the root (no entry needed) or not at all.
    fn earliest_implying(&self, target: Literal, before: usize) -> Option<usize> {
        let log = self.store.change_log();
        let root_end = self.root_end();
        let value = |j: &u32| log[*j as usize].literal.value;
        // The first entry of `list` whose value passes `passes` (a test that, once passed, stays
        // passed along the list).
        let first = |list: &[u32], passes: &dyn Fn(i32) -> bool| {
            let k = list.partition_point(|j| !passes(value(j)));
            list.get(k).map(|&j| j as usize)
        };
        let (var, v) = (target.var, target.value);
        // Each list is cut at `before` only when asked for: a bound target needs one of them.
        let lower = || self.store.lower_bounds_before(var, before);
        let upper = || self.store.upper_bounds_before(var, before);
        let candidates = match target.relation {
            LiteralRelation::Ge => [first(lower(), &|b| b >= v), None, None],
            LiteralRelation::Le => [first(upper(), &|b| b <= v), None, None],
            LiteralRelation::Ne => [
                first(lower(), &|b| b > v),
                first(upper(), &|b| b < v),
                self.store.removal_of(var, v).filter(|&j| j < before),
            ],
            LiteralRelation::Eq => {
                debug_assert!(false, "an `x = v` target has two witnesses");
                return None;
            }
        };
        // Held at the root already: no entry is needed.
        if candidates.iter().flatten().any(|&j| j < root_end) {
            return None;
        }
        candidates.into_iter().flatten().min()
    }

    /// Where the log's entries above the root start.
    fn root_end(&self) -> usize {
        self.levels
            .first()
            .map_or(self.store.change_log().len(), |level| level.start)
    }

    /// The decision level of log entry `e`.
    fn level_of(&self, e: usize) -> usize {
        match self.entry_levels.get(e) {
            Some(&level) => level as usize,
            None => self.levels.partition_point(|level| level.start <= e),
        }
    }

    /// Records the decision level of each log entry not recorded yet. An entry's level never
    /// changes while it is on the log (a level starts at the log's end, and undoing a level
    /// removes its entries), so each is computed once.
    fn sync_levels(&mut self) {
        let len = self.store.change_log().len();
        let mut k = self.entry_levels.len();
        let mut level = self.levels.partition_point(|level| level.start <= k);
        while k < len {
            while level < self.levels.len() && self.levels[level].start <= k {
                level += 1;
            }
            self.entry_levels.push(level as u32);
            k += 1;
        }
    }

    /// Undoes every level above `level`.
    fn backjump(&mut self, level: usize) {
        if level >= self.levels.len() {
            return;
        }
        let checkpoint = self.levels[level].checkpoint;
        self.store.undo_to(self.model, checkpoint);
        self.stats.backtracks += (self.levels.len() - level) as u64;
        self.levels.truncate(level);
        let len = self.store.change_log().len();
        self.queue_head = self.queue_head.min(len);
        self.reasons.truncate(len);
        self.entry_levels.truncate(len);
    }

    fn bump_activity(&mut self, var: VarId) {
        let activity = &mut self.activity[var.index()];
        *activity += self.bump;
        if *activity > 1e100 {
            for a in &mut self.activity {
                *a *= 1e-100;
            }
            self.bump *= 1e-100;
        }
    }

    fn decay(&mut self) {
        self.bump /= ACTIVITY_DECAY;
    }

    fn restart_due(&mut self) -> bool {
        // Following the annotations alone, the search explores their tree once.
        if self.annotated.is_some() && !self.alternate {
            return false;
        }
        if self.conflicts_since_restart < RESTART_BASE * luby(self.restart_run) {
            return false;
        }
        self.conflicts_since_restart = 0;
        self.restart_run += 1;
        !self.levels.is_empty()
    }

    /// The most active variable with more than one value left: among the variables to branch on
    /// first ([`LearningSearch::branch_first`]) while any is open, then among all.
    fn pick_variable(&self) -> Option<VarId> {
        let most_active = |vars: &mut dyn Iterator<Item = VarId>| {
            let mut best: Option<(f64, VarId)> = None;
            for var in vars {
                if self.store.size(var) <= 1 {
                    continue;
                }
                let a = self.activity[var.index()];
                if best.is_none_or(|(b, _)| a > b) {
                    best = Some((a, var));
                }
            }
            best.map(|(_, var)| var)
        };
        most_active(&mut self.first.iter().copied()).or_else(|| most_active(&mut self.model.vars()))
    }

    /// The next decision: the annotated searches' while it is their turn and they have an open
    /// variable, else on the most active variable; `None` when every variable is fixed.
    fn next_decision(&mut self) -> Option<Literal> {
        if self.annotated_turn
            && let Some(brancher) = &mut self.annotated
        {
            let ctx = SelectCtx::new(self.model, &self.store, Propagation::Mac);
            if let Some(Branch::Binary(decision)) = brancher.branch(&ctx, &mut Vec::new()) {
                return Some(match decision {
                    Decision::Assign(var, v) => Literal::eq(var, v),
                    Decision::Exclude(var, v) => Literal::ne(var, v),
                    Decision::AtMost(var, v) => Literal::le(var, v),
                    Decision::AtLeast(var, v) => Literal::ge(var, v),
                });
            }
        }
        let var = self.pick_variable()?;
        Some(self.activity_decision(var))
    }

    /// The decision on `var` when activity chose it: its saved phase, or its smallest value; a
    /// wide domain is split at its midpoint instead, on the saved phase's side.
    fn activity_decision(&mut self, var: VarId) -> Literal {
        let (lo, hi) = (self.store.lb(var), self.store.ub(var));
        let saved = self.phase[var.index()].filter(|&v| self.store.domain(var).contains(v));
        let literal = if i64::from(hi) - i64::from(lo) >= SPLIT_WIDTH {
            let mid = (i64::from(lo) + i64::from(hi)).div_euclid(2) as i32;
            match saved {
                Some(v) if v > mid => Literal::ge(var, mid + 1),
                _ => Literal::le(var, mid),
            }
        } else {
            Literal::eq(var, saved.unwrap_or(lo))
        };
        if literal.relation == LiteralRelation::Eq {
            self.phase[var.index()] = Some(literal.value);
        }
        literal
    }

    /// Opens a level with the decision `literal`, which is open.
    fn decide(&mut self, literal: Literal) {
        self.levels.push(Level {
            checkpoint: self.store.checkpoint(),
            start: self.store.change_log().len(),
        });
        self.stats.nodes += 1;
        self.work += 1;
        self.stats.max_depth = self.stats.max_depth.max(self.levels.len() as u32);
        self.store.set_cause(Cause::Decision);
        let made = self.store.make_true(literal);
        debug_assert!(matches!(made, Ok(true)), "a decision on an open variable");
    }

    /// Records the solution the store holds and returns it.
    fn found_solution(&mut self) -> Option<&[i32]> {
        let values: Vec<i32> = (0..self.model.num_vars())
            .map(|index| self.store.lb(VarId::from_index(index)))
            .collect();
        for (phase, &value) in self.phase.iter_mut().zip(&values) {
            *phase = Some(value);
        }
        self.stats.solutions += 1;
        self.solution = Some(values);
        self.after_solution = true;
        self.solution.as_deref()
    }

    /// Rules out the solution just returned: under an objective, by the bound (a fact at the
    /// root); otherwise by a clause that no other solution falsifies (the solution's decisions,
    /// negated). Returns false when nothing is left to search.
    fn exclude_last_solution(&mut self) -> bool {
        let model = self.model;
        match model.objective() {
            Objective::Satisfy => {
                if self.levels.is_empty() {
                    return false;
                }
                // Newest decision first: jumping below it leaves the clause asserting it away.
                let mut literals: Vec<Literal> = self
                    .levels
                    .iter()
                    .rev()
                    .map(|level| self.store.change_log()[level.start].literal.negate())
                    .collect();
                literals.dedup();
                let jump = self.levels.len() - 1;
                self.backjump(jump);
                if literals.len() == 1 {
                    self.backjump(0);
                }
                self.learn_blocking(literals);
                true
            }
            Objective::Minimize(var) | Objective::Maximize(var) => {
                let best = self.solution.as_ref().expect("a solution")[var.index()];
                self.backjump(0);
                // Nothing beats the extreme value an objective can take.
                let bound = match model.objective() {
                    Objective::Minimize(_) => best.checked_sub(1).map(|b| Literal::le(var, b)),
                    _ => best.checked_add(1).map(|b| Literal::ge(var, b)),
                };
                let Some(bound) = bound else {
                    return false;
                };
                self.store.set_cause(Cause::Decision);
                self.store.make_true(bound).is_ok()
            }
        }
    }

    /// In tests: a clause about to be added excludes no solution that is still to be found.
    #[cfg(test)]
    fn check_against_oracle(&self, literals: &[Literal]) {
        for solution in &self.oracle {
            assert!(
                literals
                    .iter()
                    .any(|l| l.holds_for(solution[l.var.index()])),
                "the clause {literals:?} excludes the solution {solution:?}"
            );
        }
    }

    /// Adds the clause that excludes the solution just found (and asserts its first literal).
    fn learn_blocking(&mut self, literals: Vec<Literal>) {
        let lbd = None;
        #[cfg(test)]
        {
            let last = self.solution.clone().expect("a solution was found");
            self.oracle.retain(|solution| *solution != last);
            self.check_against_oracle(&literals);
        }
        let id = self.add_clause(literals, lbd);
        let first = self.clauses[id as usize].literals[0];
        self.store.set_cause(Cause::Clause(id));
        let _ = self.store.make_true(first);
        self.store.set_cause(Cause::Decision);
    }

    fn limit_reached(&mut self) -> Option<Limit> {
        let limits = self.config.limits;
        if limits.nodes.is_some_and(|n| self.stats.nodes >= n) {
            return Some(Limit::Nodes);
        }
        if limits
            .backtracks
            .is_some_and(|n| self.stats.backtracks >= n)
        {
            return Some(Limit::Backtracks);
        }
        if self.work >= CLOCK_WORK {
            self.work = 0;
            if let (Some(time), Some(started)) = (limits.time, self.started)
                && started.elapsed() >= time
            {
                return Some(Limit::Time);
            }
        }
        None
    }

    fn finish(&mut self, outcome: Outcome) -> Option<&[i32]> {
        self.outcome = Some(outcome);
        None
    }

    /// The search space is exhausted: optimal if an objective's solution was found.
    fn finish_exhausted(&mut self) -> Option<&[i32]> {
        let optimal = self.model.objective() != Objective::Satisfy && self.solution.is_some();
        self.finish(if optimal {
            Outcome::Optimal
        } else {
            Outcome::Exhausted
        })
    }
}

/// The watch list of a literal on `var` with `relation`: four lists a variable, one per
/// relation, as each is made false by a different change (`x = v` by any, `x ≤ v` by its lower
/// bound, `x ≥ v` by its upper bound, `x ≠ v` by its fixing).
fn watch_list(var: VarId, relation: LiteralRelation) -> usize {
    4 * var.index()
        + match relation {
            LiteralRelation::Eq => 0,
            LiteralRelation::Ne => 1,
            LiteralRelation::Le => 2,
            LiteralRelation::Ge => 3,
        }
}

/// A variable's flag in [`LearningSearch::touched`]: some change not visited yet.
const CHANGED: u8 = 1;
/// Its lower bound rose.
const LOWER: u8 = 2;
/// Its upper bound fell.
const UPPER: u8 = 4;

/// Whether `fact` being true makes `target` true.
fn implies(fact: Literal, target: Literal) -> bool {
    if fact.var != target.var {
        return false;
    }
    match fact.relation {
        LiteralRelation::Eq => target.holds_for(fact.value),
        LiteralRelation::Ne => target.relation == LiteralRelation::Ne && target.value == fact.value,
        LiteralRelation::Le => match target.relation {
            LiteralRelation::Le => target.value >= fact.value,
            LiteralRelation::Ne => target.value > fact.value,
            _ => false,
        },
        LiteralRelation::Ge => match target.relation {
            LiteralRelation::Ge => target.value <= fact.value,
            LiteralRelation::Ne => target.value < fact.value,
            _ => false,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use csp_core::ModelBuilder;
    use csp_core::constraints::{
        AllDifferent, Linear, NotEqual, Predicate, Reification, Reified, Relation,
    };

    /// Every complete assignment of the model's initial domains that satisfies it.
    fn brute_force(model: &Model) -> Vec<Vec<i32>> {
        let mut out = vec![Vec::new()];
        for var in model.vars() {
            let values: Vec<i32> = model.initial_domain(var).values().collect();
            out = out
                .into_iter()
                .flat_map(|t: Vec<i32>| {
                    values.iter().map(move |&v| {
                        let mut t = t.clone();
                        t.push(v);
                        t
                    })
                })
                .collect();
        }
        out.retain(|t| model.is_solution(t));
        out
    }

    /// Enumerates every solution with learning under `seeds`, checking each clause against the
    /// solutions still to be found, and returns the count of each run.
    fn counts(model: &Model, seeds: std::ops::Range<u64>) -> Vec<usize> {
        let all = brute_force(model);
        seeds
            .map(|seed| {
                let config = SearchConfig {
                    seed,
                    ..SearchConfig::default()
                };
                let mut search = LearningSearch::new(model, &config);
                search.oracle = all.clone();
                let mut found = 0;
                while let Some(values) = search.next_solution() {
                    assert!(model.is_solution(values));
                    found += 1;
                }
                assert_eq!(search.outcome(), Some(Outcome::Exhausted));
                found
            })
            .collect()
    }

    /// A clause that raised a bound landed on the next value left, past a value removed earlier:
    /// the change's explanation must include that removal (found by the differential tests,
    /// where this model lost solutions before the fix).
    #[test]
    fn a_bound_that_skips_removed_values_is_explained_by_them() {
        let mut b = ModelBuilder::new();
        let domains: [&[i32]; 6] = [&[0, 1], &[0, 2], &[-2, 0, 1], &[1, 2], &[-1, 0], &[0, 2]];
        let x: Vec<VarId> = domains
            .iter()
            .enumerate()
            .map(|(i, d)| {
                b.int_var_with_values(format!("x{i}"), d.iter().copied())
                    .unwrap()
            })
            .collect();
        let b0 = b.bool_var("b0").unwrap();
        b.bool_var("b1").unwrap();
        b.post(NotEqual::with_offsets(x[0], 0, x[1], 0)).unwrap();
        b.post(Predicate::new("x < y", x[2], x[3], |a, b| a < b))
            .unwrap();
        let never = Box::new(Linear::with_i64(vec![(0, x[5])], Relation::Equal, -1));
        b.post(Reified::new(b0, never, Reification::Implies).unwrap())
            .unwrap();
        let different = Box::new(AllDifferent::new(vec![x[2], x[3], x[4]]));
        b.post(Reified::new(b0, different, Reification::Equivalent).unwrap())
            .unwrap();
        let model = b.build();
        assert_eq!(brute_force(&model).len(), 24);
        assert!(counts(&model, 0..50).iter().all(|&n| n == 24));
    }

    /// Wide domains are split, so learned clauses hold bound literals (`x ≤ v`, `x ≥ v`) as well as
    /// `x = v` and `x ≠ v`, each watched in its own list: enumerating every solution still finds
    /// each once, and no clause excludes one still to be found.
    #[test]
    fn clauses_over_bound_literals_lose_no_solution() {
        let mut b = ModelBuilder::new();
        let x = b.int_var("x", 0..=99).unwrap();
        let y = b.int_var("y", 0..=99).unwrap();
        let z = b.int_var("z", 0..=3).unwrap();
        // x − y = 3·z + 50 and x + y ≥ 120: a few dozen solutions among 40,000 tuples.
        b.post(Linear::with_i64(
            vec![(1, x), (-1, y), (-3, z)],
            Relation::Equal,
            50,
        ))
        .unwrap();
        b.post(Linear::with_i64(
            vec![(-1, x), (-1, y)],
            Relation::LessOrEqual,
            -120,
        ))
        .unwrap();
        b.post(NotEqual::with_offsets(x, 0, y, 40)).unwrap();
        let model = b.build();
        let expected = brute_force(&model).len();
        assert!(expected > 10, "{expected}");
        assert!(counts(&model, 0..10).iter().all(|&n| n == expected));
    }

    /// A learning search of `model` with its root propagated, ready for decisions.
    fn at_root(model: &Model) -> LearningSearch<'_> {
        let mut search = LearningSearch::new(model, &SearchConfig::default());
        search.store.enable_change_log();
        assert!(search.store.establish_arc_consistency(model).is_ok());
        assert!(search.propagate().is_ok());
        search
    }

    /// Opens a level with `decision` and propagates it.
    fn decide_and_propagate(search: &mut LearningSearch<'_>, decision: Literal) {
        search.decide(decision);
        assert!(search.propagate().is_ok());
    }

    /// The log entry that made `literal` true.
    fn entry_of(search: &LearningSearch<'_>, literal: Literal) -> usize {
        let log = search.store.change_log();
        log.iter()
            .position(|entry| entry.literal == literal)
            .unwrap_or_else(|| panic!("no entry {literal:?} in {log:?}"))
    }

    /// `c ≥ 1` rests on `b1 ≥ 1` and `b2 ≥ 1`, neither in the clause, and each of those on
    /// `a ≥ 1`, which is: local minimisation keeps `c ≥ 1` (not all its reasons are in the
    /// clause), the recursive one drops it (Sörensson & Biere 2009).
    #[test]
    fn recursive_minimisation_drops_a_literal_local_minimisation_keeps() {
        let mut b = ModelBuilder::new();
        let [a, b1, b2, c, z] = ["a", "b1", "b2", "c", "z"].map(|name| b.bool_var(name).unwrap());
        // a ≤ b1, a ≤ b2, b1 + b2 − c ≤ 1.
        for bi in [b1, b2] {
            b.post(Linear::with_i64(
                vec![(1, a), (-1, bi)],
                Relation::LessOrEqual,
                0,
            ))
            .unwrap();
        }
        b.post(Linear::with_i64(
            vec![(1, b1), (1, b2), (-1, c)],
            Relation::LessOrEqual,
            1,
        ))
        .unwrap();
        let model = b.build();
        let mut search = at_root(&model);
        decide_and_propagate(&mut search, Literal::eq(a, 1));
        decide_and_propagate(&mut search, Literal::eq(z, 1));
        let (ea, ec) = (
            entry_of(&search, Literal::ge(a, 1)),
            entry_of(&search, Literal::ge(c, 1)),
        );
        let (eb1, eb2) = (
            entry_of(&search, Literal::ge(b1, 1)),
            entry_of(&search, Literal::ge(b2, 1)),
        );
        // What the test rests on: `c ≥ 1` has two reasons, so it is not replaced by one, and
        // they are not in the clause.
        let mut reasons = Vec::new();
        search.reason(ec, &mut reasons);
        reasons.sort_unstable();
        assert_eq!(reasons, [eb1, eb2]);
        assert_eq!(search.simplify(vec![ea, ec]), [ea]);
        // Without `a ≥ 1` in the clause, `c ≥ 1` stays.
        assert_eq!(search.simplify(vec![ec]), [ec]);
    }

    /// Literals over integers: `w ≥ 1` rests on `x ≤ 5` (and `v ≤ 0`, in the clause), and a
    /// later decision of the clause, `x ≤ 3`, implies `x ≤ 5`, so `w ≥ 1` is dropped although
    /// the entry of `x ≤ 5` is not in the clause and rests on decisions that are not either. And
    /// a clause holding both `x ≤ 5` and `x ≤ 3` keeps only the second.
    #[test]
    fn minimisation_takes_a_stronger_literal_of_the_clause_for_a_weaker_reason() {
        let mut b = ModelBuilder::new();
        let v = b.bool_var("v").unwrap();
        let u = b.bool_var("u").unwrap();
        let d = b.bool_var("d").unwrap();
        let x = b.int_var("x", 0..=9).unwrap();
        let w = b.bool_var("w").unwrap();
        // x + 2·u + 2·d ≤ 9, and 10·w + x + 10·v ≥ 6.
        b.post(Linear::with_i64(
            vec![(1, x), (2, u), (2, d)],
            Relation::LessOrEqual,
            9,
        ))
        .unwrap();
        b.post(Linear::with_i64(
            vec![(-10, w), (-1, x), (-10, v)],
            Relation::LessOrEqual,
            -6,
        ))
        .unwrap();
        let model = b.build();
        let mut search = at_root(&model);
        decide_and_propagate(&mut search, Literal::eq(v, 0));
        decide_and_propagate(&mut search, Literal::eq(u, 1));
        decide_and_propagate(&mut search, Literal::eq(d, 1));
        decide_and_propagate(&mut search, Literal::le(x, 3));
        let ev = entry_of(&search, Literal::le(v, 0));
        let e5 = entry_of(&search, Literal::le(x, 5));
        let e3 = entry_of(&search, Literal::le(x, 3));
        let g = entry_of(&search, Literal::ge(w, 1));
        // What the test rests on: `x ≤ 5` and `w ≥ 1` have two reasons each.
        let mut reasons = Vec::new();
        search.reason(g, &mut reasons);
        reasons.sort_unstable();
        assert_eq!(reasons, [ev, e5]);
        reasons.clear();
        search.reason(e5, &mut reasons);
        assert_eq!(reasons.len(), 2);
        assert!(!reasons.contains(&e3));
        assert_eq!(search.simplify(vec![ev, e3, g]), [ev, e3]);
        assert_eq!(search.simplify(vec![e5, e3]), [e3]);
        // Without `x ≤ 3`, `w ≥ 1` stays: `x ≤ 5` rests on decisions not in the clause.
        assert_eq!(search.simplify(vec![ev, g]), [ev, g]);
    }

    /// Pigeons into fewer holes, pairwise different: unsatisfiable, and learning proves it with
    /// fewer decisions than there are ways to place the first pigeons.
    #[test]
    fn pigeons_are_refuted_by_learning() {
        let mut b = ModelBuilder::new();
        let pigeons: Vec<VarId> = (0..6)
            .map(|i| b.int_var(format!("p{i}"), 0..=4).unwrap())
            .collect();
        for (i, &p) in pigeons.iter().enumerate() {
            for &q in &pigeons[i + 1..] {
                b.post(NotEqual::with_offsets(p, 0, q, 0)).unwrap();
            }
        }
        let model = b.build();
        let mut search = LearningSearch::new(&model, &SearchConfig::default());
        assert!(search.next_solution().is_none());
        assert_eq!(search.outcome(), Some(Outcome::Exhausted));
        assert!(search.learned_clauses() > 0);
        assert!(search.stats().dead_ends > 0);
    }
}
