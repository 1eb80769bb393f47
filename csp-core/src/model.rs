use std::fmt;
use std::ops::RangeInclusive;

use hashbrown::HashSet;

use crate::{Constraint, Domain, MAX_DOMAIN_WIDTH, ModelError, Wake};

/// A variable of a [`Model`]: a dense index, in the order the variables were declared.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct VarId(u32);

impl VarId {
    /// The variable with declaration index `index`.
    #[inline]
    pub fn from_index(index: usize) -> Self {
        VarId(u32::try_from(index).expect("variable index fits in u32"))
    }

    /// The declaration index (0 for the first variable declared).
    #[inline]
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

impl fmt::Debug for VarId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "x{}", self.0)
    }
}

/// A constraint of a [`Model`], by posting order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct ConstraintId(u32);

impl ConstraintId {
    /// The posting index (0 for the first constraint posted).
    #[inline]
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// A constraint-satisfaction problem: named integer variables with their initial domains, and the
/// constraints over them. Built with [`ModelBuilder`]; immutable afterwards, so one model can be solved
/// many times, and from several threads at once.
#[derive(Debug)]
pub struct Model {
    names: Vec<String>,
    domains: Vec<Domain>,
    constraints: Vec<Box<dyn Constraint>>,
    /// For each variable, the constraints whose scope holds it, in posting order.
    var_constraints: Vec<Vec<ConstraintId>>,
    /// For each constraint, where its state cells lie in a [`crate::Store`].
    cell_ranges: Vec<std::ops::Range<usize>>,
    num_cells: usize,
    /// Each constraint's [`Constraint::wake`], asked once.
    wakes: Vec<Wake>,
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
    pub fn constraint(&self, id: ConstraintId) -> &dyn Constraint {
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

    /// The constraint's [`Constraint::wake`].
    #[inline]
    pub fn wake(&self, id: ConstraintId) -> Wake {
        self.wakes[id.index()]
    }

    /// How many state cells all the constraints keep together.
    pub fn num_cells(&self) -> usize {
        self.num_cells
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
        let mut scope_values = Vec::new();
        self.constraints.iter().all(|c| {
            scope_values.clear();
            scope_values.extend(c.scope().iter().map(|v| values[v.index()]));
            c.is_satisfied(&scope_values)
        })
    }
}

/// Declares variables and posts constraints, validating each as it comes; [`ModelBuilder::build`] then
/// freezes the [`Model`].
#[derive(Debug, Default)]
pub struct ModelBuilder {
    names: Vec<String>,
    name_set: HashSet<String>,
    domains: Vec<Domain>,
    constraints: Vec<Box<dyn Constraint>>,
}

impl ModelBuilder {
    /// An empty model.
    pub fn new() -> Self {
        Self::default()
    }

    /// Declares a variable whose domain is `range` (`lo..=hi`).
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
        check_width(&name, lo, hi)?;
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
        let (Some(&lo), Some(&hi)) = (values.first(), values.last()) else {
            return Err(ModelError::EmptyDomain { name });
        };
        check_width(&name, lo, hi)?;
        self.push_var(name, Domain::from_sorted(&values))
    }

    fn push_var(&mut self, name: String, domain: Domain) -> Result<VarId, ModelError> {
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

    /// Adds a constraint after checking that every variable in its scope exists.
    pub fn post(
        &mut self,
        constraint: impl Constraint + 'static,
    ) -> Result<ConstraintId, ModelError> {
        self.post_boxed(Box::new(constraint))
    }

    /// Adds an already boxed constraint (see [`ModelBuilder::post`]).
    pub fn post_boxed(
        &mut self,
        constraint: Box<dyn Constraint>,
    ) -> Result<ConstraintId, ModelError> {
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
        Ok(id)
    }

    /// Freezes the model: indexes each variable's constraints and lays out the constraints' state cells.
    pub fn build(self) -> Model {
        let mut var_constraints = vec![Vec::new(); self.names.len()];
        let mut cell_ranges = Vec::with_capacity(self.constraints.len());
        let mut num_cells = 0;
        for (i, c) in self.constraints.iter().enumerate() {
            let id = ConstraintId(i as u32);
            for v in c.scope() {
                var_constraints[v.index()].push(id);
            }
            let size = c.state_size();
            cell_ranges.push(num_cells..num_cells + size);
            num_cells += size;
        }
        let wakes = self.constraints.iter().map(|c| c.wake()).collect();
        Model {
            wakes,
            names: self.names,
            domains: self.domains,
            constraints: self.constraints,
            var_constraints,
            cell_ranges,
            num_cells,
        }
    }
}

fn check_width(name: &str, lo: i32, hi: i32) -> Result<(), ModelError> {
    let width = (i64::from(hi) - i64::from(lo) + 1) as u64;
    if width > MAX_DOMAIN_WIDTH {
        return Err(ModelError::DomainTooWide {
            name: name.to_owned(),
            width,
            max: MAX_DOMAIN_WIDTH,
        });
    }
    Ok(())
}
