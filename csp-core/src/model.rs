use std::ops::RangeInclusive;

use hashbrown::HashSet;

use crate::{
    ConstraintId, Domain, EventSet, ModelError, Post, PostCtx, Priority, Propagator, VarId,
};

/// What a model asks of its solutions: any one (satisfaction), or the best by one variable's value.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Objective {
    /// Every solution is as good as any other.
    #[default]
    Satisfy,
    /// The smaller the variable's value, the better.
    Minimize(VarId),
    /// The larger the variable's value, the better.
    Maximize(VarId),
}

impl Objective {
    /// The objective variable, unless the model only asks for satisfaction.
    pub fn var(self) -> Option<VarId> {
        match self {
            Objective::Satisfy => None,
            Objective::Minimize(var) | Objective::Maximize(var) => Some(var),
        }
    }
}

/// One constraint's interest in one variable: what propagation looks up when the variable changes.
#[derive(Debug, Clone, Copy)]
pub struct Watch {
    /// The constraint.
    pub constraint: ConstraintId,
    /// The variable's index in the constraint's scope.
    pub position: u32,
    /// The changes the constraint subscribes to ([`Propagator::subscribe`](crate::Propagator::subscribe)).
    pub events: EventSet,
    /// Whether the constraint wants [`Propagator::notify`](crate::Propagator::notify) calls ([`Propagator::uses_notify`](crate::Propagator::uses_notify)).
    pub notify: bool,
    /// The constraint's [`Propagator::priority`](crate::Propagator::priority).
    pub priority: Priority,
}

/// A constraint-satisfaction problem: named integer variables with their initial domains, the
/// constraints over them, and what is asked of a solution ([`Objective`]). Built with [`ModelBuilder`];
/// immutable afterwards, so one model can be solved many times, and from several threads at once.
#[derive(Debug)]
pub struct Model {
    names: Vec<String>,
    domains: Vec<Domain>,
    constraints: Vec<Box<dyn Propagator>>,
    /// For each variable, the constraints whose scope holds it, in posting order.
    var_constraints: Vec<Vec<ConstraintId>>,
    /// Every variable's watches, one run per variable: variable `i`'s are
    /// `watches[watch_starts[i]..watch_starts[i + 1]]`, in posting order.
    watches: Vec<Watch>,
    watch_starts: Vec<u32>,
    /// For each constraint, where its state cells lie in a [`crate::Store`].
    cell_ranges: Vec<std::ops::Range<usize>>,
    num_cells: usize,
    /// Where the entailment cells begin: one per constraint, after every constraint's own cells
    /// (see [`Model::entailment_cell`]).
    entailment_cells: usize,
    /// Whether some constraint keeps state by [`Propagator::notify`](crate::Propagator::notify).
    notifies: bool,
    /// Each constraint's [`Propagator::priority`](crate::Propagator::priority), asked once.
    priorities: Vec<Priority>,
    objective: Objective,
}

impl Model {
    /// How many variables the model has.
    pub fn num_vars(&self) -> usize {
        self.names.len()
    }

    /// How many constraints the model has.
    pub fn num_constraints(&self) -> usize {
        self.constraints.len()
    }

    /// Every variable, in declaration order.
    pub fn vars(&self) -> impl ExactSizeIterator<Item = VarId> + '_ {
        (0..self.names.len()).map(VarId::from_index)
    }

    /// The variable's name.
    pub fn name(&self, var: VarId) -> &str {
        &self.names[var.index()]
    }

    /// The variable called `name`, if there is one.
    ///
    /// ```
    /// let mut builder = csp_core::ModelBuilder::new();
    /// let x = builder.int_var("x", 0..=1).unwrap();
    /// let model = builder.build();
    /// assert_eq!(model.var_by_name("x"), Some(x));
    /// assert_eq!(model.var_by_name("y"), None);
    /// ```
    pub fn var_by_name(&self, name: &str) -> Option<VarId> {
        self.names
            .iter()
            .position(|n| n == name)
            .map(VarId::from_index)
    }

    /// The variable's domain before any search.
    pub fn initial_domain(&self, var: VarId) -> &Domain {
        &self.domains[var.index()]
    }

    pub(crate) fn initial_domains(&self) -> &[Domain] {
        &self.domains
    }

    /// The constraint posted with this id.
    pub fn constraint(&self, id: ConstraintId) -> &dyn Propagator {
        self.constraints[id.index()].as_ref()
    }

    /// Every constraint id, in posting order.
    pub fn constraint_ids(&self) -> impl ExactSizeIterator<Item = ConstraintId> + '_ {
        (0..self.constraints.len()).map(|i| ConstraintId(i as u32))
    }

    /// The constraints whose scope holds `var`, in posting order.
    pub fn constraints_of(&self, var: VarId) -> &[ConstraintId] {
        &self.var_constraints[var.index()]
    }

    /// Where the constraint's state cells lie in a [`crate::Store`]'s cell array, and so in the cell
    /// array a local search keeps for the whole model.
    pub fn cell_range(&self, id: ConstraintId) -> std::ops::Range<usize> {
        self.cell_ranges[id.index()].clone()
    }

    /// The constraint's [`Propagator::priority`](crate::Propagator::priority).
    #[inline]
    pub fn priority(&self, id: ConstraintId) -> Priority {
        self.priorities[id.index()]
    }

    /// Whether some constraint keeps state by [`Propagator::notify`](crate::Propagator::notify): a
    /// [`crate::Store`] of the model then records every domain change as an event, under forward
    /// checking too, so that the state is exact whichever search runs.
    #[inline]
    pub fn notifies(&self) -> bool {
        self.notifies
    }

    /// The constraints that subscribe to changes of `var`, with what they subscribe to, in posting order.
    #[inline]
    pub fn watchers(&self, var: VarId) -> &[Watch] {
        let i = var.index();
        &self.watches[self.watch_starts[i] as usize..self.watch_starts[i + 1] as usize]
    }

    /// What the model asks of its solutions.
    pub fn objective(&self) -> Objective {
        self.objective
    }

    /// How many state cells all the constraints keep together, with the one per constraint
    /// that records its entailment ([`Model::entailment_cell`]).
    pub fn num_cells(&self) -> usize {
        self.num_cells
    }

    /// The store cell that is non-zero while the constraint is entailed: set when its revision
    /// reports so ([`crate::PropagationCtx::entailed`]), undone with the trail like every cell.
    /// Propagation then neither notifies nor revises it, as Gecode disposes of a subsumed
    /// propagator.
    #[inline]
    pub fn entailment_cell(&self, id: ConstraintId) -> usize {
        self.entailment_cells + id.index()
    }

    /// Whether a complete assignment (`values[i]` for variable `i`) lies in every domain and satisfies
    /// every constraint, judged by the constraints' checkers alone. This is the reference against which
    /// every solver's answers are tested.
    pub fn is_solution(&self, values: &[i32]) -> bool {
        if values.len() != self.num_vars() {
            return false;
        }
        if !values
            .iter()
            .zip(&self.domains)
            .all(|(&v, d)| d.contains(v))
        {
            return false;
        }
        self.violated_constraint(values, &mut Vec::new()).is_none()
    }

    /// The first constraint whose checker refuses the complete assignment `values` (one value per
    /// variable, by index), if any; `scratch` is a buffer the caller may reuse between calls, so that
    /// checking many solutions allocates once. Domains are not consulted (see
    /// [`Model::is_solution`]).
    pub fn violated_constraint(
        &self,
        values: &[i32],
        scratch: &mut Vec<i32>,
    ) -> Option<ConstraintId> {
        self.constraints.iter().enumerate().find_map(|(i, c)| {
            scratch.clear();
            scratch.extend(c.scope().iter().map(|v| values[v.index()]));
            (!c.is_satisfied(scratch)).then_some(ConstraintId(i as u32))
        })
    }
}

/// The most variables a model may have: 2³¹ (the store marks assignments in a variable index's top
/// bit). Memory ends any real model long before.
pub const MAX_VARIABLES: usize = 1 << 31;

/// Declares variables and posts constraints, validating each as it comes; [`ModelBuilder::build`] then
/// freezes the [`Model`].
#[derive(Debug, Default)]
pub struct ModelBuilder {
    names: Vec<String>,
    name_set: HashSet<String>,
    domains: Vec<Domain>,
    constraints: Vec<Box<dyn Propagator>>,
    /// How many state cells each constraint laid out when it was posted.
    state_sizes: Vec<usize>,
    objective: Objective,
}

impl ModelBuilder {
    /// An empty model.
    pub fn new() -> Self {
        Self::default()
    }

    /// Declares a variable whose domain is `range` (`lo..=hi`), of any width: a narrow range is a bit
    /// set, a wide one (up to the whole `i32` range, MiniZinc's unbounded `var int`) costs O(1) memory.
    pub fn int_var(
        &mut self,
        name: impl Into<String>,
        range: RangeInclusive<i32>,
    ) -> Result<VarId, ModelError> {
        let name = name.into();
        let (lo, hi) = (*range.start(), *range.end());
        if lo > hi {
            return Err(ModelError::EmptyDomain { name });
        }
        self.push_var(name, Domain::range(lo, hi))
    }

    /// Declares a variable whose domain is exactly `values` (in any order; duplicates are ignored).
    pub fn int_var_with_values(
        &mut self,
        name: impl Into<String>,
        values: impl IntoIterator<Item = i32>,
    ) -> Result<VarId, ModelError> {
        let name = name.into();
        let mut values: Vec<i32> = values.into_iter().collect();
        values.sort_unstable();
        values.dedup();
        if values.is_empty() {
            return Err(ModelError::EmptyDomain { name });
        }
        self.push_var(name, Domain::from_sorted(&values))
    }

    /// Declares a Boolean variable: an integer variable over `{0, 1}` (false, true), as MiniZinc's
    /// `var bool` becomes. It costs a few bytes and no allocation of its own, so models may have
    /// hundreds of thousands.
    pub fn bool_var(&mut self, name: impl Into<String>) -> Result<VarId, ModelError> {
        self.push_var(name.into(), Domain::range(0, 1))
    }

    /// Asks for the solution with the smallest value of `var`: search by branch and bound, each
    /// solution better than the last, until none better exists. Replaces any earlier objective.
    pub fn minimize(&mut self, var: VarId) -> Result<(), ModelError> {
        self.check_var("minimize", var)?;
        self.objective = Objective::Minimize(var);
        Ok(())
    }

    /// Asks for the solution with the largest value of `var`; see [`ModelBuilder::minimize`].
    pub fn maximize(&mut self, var: VarId) -> Result<(), ModelError> {
        self.check_var("maximize", var)?;
        self.objective = Objective::Maximize(var);
        Ok(())
    }

    fn check_var(&self, what: &str, var: VarId) -> Result<(), ModelError> {
        if var.index() >= self.names.len() {
            return Err(ModelError::UnknownVariable {
                constraint: what.to_owned(),
                var: var.index(),
                num_vars: self.names.len(),
            });
        }
        Ok(())
    }

    fn push_var(&mut self, name: String, domain: Domain) -> Result<VarId, ModelError> {
        if self.names.len() >= MAX_VARIABLES {
            return Err(ModelError::TooManyVariables { max: MAX_VARIABLES });
        }
        if !self.name_set.insert(name.clone()) {
            return Err(ModelError::DuplicateName { name });
        }
        self.names.push(name);
        self.domains.push(domain);
        Ok(VarId::from_index(self.names.len() - 1))
    }

    /// How many variables have been declared so far.
    pub fn num_vars(&self) -> usize {
        self.names.len()
    }

    /// Posts a constraint: builds the propagator it runs (see [`Post`]), laying out its trailed
    /// state, then checks that every variable in its scope exists and appears once.
    pub fn post(&mut self, constraint: impl Post + 'static) -> Result<ConstraintId, ModelError> {
        self.post_boxed(Box::new(constraint))
    }

    /// Posts an already boxed constraint (see [`ModelBuilder::post`]).
    pub fn post_boxed(&mut self, constraint: Box<dyn Post>) -> Result<ConstraintId, ModelError> {
        let mut ctx = PostCtx::new();
        let constraint = constraint.post(&mut ctx)?;
        let num_vars = self.names.len();
        if let Some(bad) = constraint.scope().iter().find(|v| v.index() >= num_vars) {
            return Err(ModelError::UnknownVariable {
                constraint: format!("{constraint:?}"),
                var: bad.index(),
                num_vars,
            });
        }
        let mut scope: Vec<VarId> = constraint.scope().to_vec();
        scope.sort_unstable();
        if scope.windows(2).any(|w| w[0] == w[1]) {
            return Err(ModelError::InvalidConstraint {
                constraint: format!("{constraint:?}"),
                reason: "a variable appears twice in the scope".to_owned(),
            });
        }
        let id = ConstraintId(
            u32::try_from(self.constraints.len()).expect("fewer than 2^32 constraints"),
        );
        self.constraints.push(constraint);
        self.state_sizes.push(ctx.cells());
        Ok(id)
    }

    /// Freezes the model: indexes each variable's constraints and watches, and lays out the constraints'
    /// state cells.
    pub fn build(self) -> Model {
        let num_vars = self.names.len();
        let mut var_constraints = vec![Vec::new(); num_vars];
        let mut cell_ranges = Vec::with_capacity(self.constraints.len());
        let mut num_cells = 0;
        let priorities: Vec<Priority> = self.constraints.iter().map(|c| c.priority()).collect();
        // Watches in one array, grouped by variable: count, then place (a counting sort that keeps
        // posting order within each variable).
        let mut watch_starts = vec![0u32; num_vars + 1];
        for (i, (c, &size)) in self.constraints.iter().zip(&self.state_sizes).enumerate() {
            let id = ConstraintId(i as u32);
            for v in c.scope() {
                var_constraints[v.index()].push(id);
                watch_starts[v.index() + 1] += 1;
            }
            cell_ranges.push(num_cells..num_cells + size);
            num_cells += size;
        }
        let entailment_cells = num_cells;
        num_cells += self.constraints.len();
        for i in 0..num_vars {
            watch_starts[i + 1] += watch_starts[i];
        }
        let mut next = watch_starts.clone();
        let placeholder = Watch {
            constraint: ConstraintId(0),
            position: 0,
            events: EventSet::EMPTY,
            notify: false,
            priority: Priority::Medium,
        };
        let mut watches = vec![placeholder; watch_starts[num_vars] as usize];
        let mut notifies = false;
        for (i, c) in self.constraints.iter().enumerate() {
            let notify = c.uses_notify();
            notifies |= notify;
            for (position, v) in c.scope().iter().enumerate() {
                let slot = &mut next[v.index()];
                watches[*slot as usize] = Watch {
                    constraint: ConstraintId(i as u32),
                    position: position as u32,
                    events: c.subscribe(position),
                    notify,
                    priority: priorities[i],
                };
                *slot += 1;
            }
        }
        Model {
            names: self.names,
            domains: self.domains,
            constraints: self.constraints,
            var_constraints,
            watches,
            watch_starts,
            cell_ranges,
            num_cells,
            entailment_cells,
            notifies,
            priorities,
            objective: self.objective,
        }
    }
}
