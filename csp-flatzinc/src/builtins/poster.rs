//! What a builtin's constructor works with: the model being built, the arguments' accessors, and the
//! encodings every family shares (linear sums with constants folded, tables over constants and
//! repeated variables, reification of any constraint).

use csp_core::constraints::{
    BoolSum, Compare, Comparison, Linear, Reification, Reified, ReifiedCompare, Relation, Table,
};
use csp_core::{Constraint, ModelBuilder, Post, Posted, VarId};
use hashbrown::HashMap;

use super::args::Arg;
use crate::Elem;
use crate::ast::Ranges;
use crate::error::Error;
use crate::fallback::{Checked, ScopedArg, ScopedArgs};

/// How a constraint is tied to a Boolean, as FlatZinc's name suffixes say.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reif {
    /// No suffix: the constraint holds.
    Plain,
    /// `_reif`: `r ↔ C`.
    Equiv(Elem),
    /// `_imp`: `r → C`.
    Implies(Elem),
}

/// The model being built, as a builtin's constructor sees it.
pub struct Poster<'b> {
    pub(crate) builder: &'b mut ModelBuilder,
    /// One fixed variable per constant that had to be a variable.
    pub(crate) constants: &'b mut HashMap<i64, VarId>,
    /// Every variable's declared bounds, by index.
    pub(crate) bounds: &'b mut Vec<(i64, i64)>,
    /// The line of the constraint being posted, for errors.
    pub(crate) line: u32,
}

impl Poster<'_> {
    pub(crate) fn invalid(&self, message: impl Into<String>) -> Error {
        Error::invalid(self.line, message)
    }

    /// Argument `arg` as one integer or Boolean, constant or variable.
    pub fn elem(&self, arg: &Arg) -> Result<Elem, Error> {
        match arg {
            Arg::Elem(elem) => Ok(*elem),
            _ => Err(self.invalid("expected an integer or Boolean, found an array or set")),
        }
    }

    /// Argument `arg` as a constant integer.
    pub fn int(&self, arg: &Arg) -> Result<i64, Error> {
        match arg {
            Arg::Elem(Elem::Const(value)) => Ok(*value),
            _ => Err(self.invalid("expected a constant integer")),
        }
    }

    /// Argument `arg` as an array of integers or Booleans, constants or variables.
    pub fn elems<'a>(&self, arg: &'a Arg) -> Result<&'a [Elem], Error> {
        match arg {
            Arg::Array(elems) => Ok(elems),
            _ => Err(self.invalid("expected an array")),
        }
    }

    /// Argument `arg` as an array of constant integers.
    pub fn ints(&self, arg: &Arg) -> Result<Vec<i64>, Error> {
        self.elems(arg)?
            .iter()
            .map(|elem| match elem {
                Elem::Const(value) => Ok(*value),
                Elem::Var(_) => Err(self.invalid("expected an array of constants")),
            })
            .collect()
    }

    /// Argument `arg` as a constant set.
    pub fn set<'a>(&self, arg: &'a Arg) -> Result<&'a Ranges, Error> {
        match arg {
            Arg::Set(set) => Ok(set),
            _ => Err(self.invalid("expected a constant set")),
        }
    }

    /// The variable standing for `elem`: itself, or a fixed variable for a constant (one per value).
    pub fn var(&mut self, elem: Elem) -> Result<VarId, Error> {
        match elem {
            Elem::Var(var) => Ok(var),
            Elem::Const(value) => {
                if let Some(&var) = self.constants.get(&value) {
                    return Ok(var);
                }
                let v = self.int32(value)?;
                // `=` cannot start a FlatZinc name, so these names never clash with the model's.
                let var = self
                    .builder
                    .int_var(format!("={value}"), v..=v)
                    .map_err(|e| self.invalid(e.to_string()))?;
                self.bounds.push((value, value));
                self.constants.insert(value, var);
                Ok(var)
            }
        }
    }

    /// The variables standing for `elems`, constants as fixed variables ([`Poster::var`]).
    pub fn vars(&mut self, elems: &[Elem]) -> Result<Vec<VarId>, Error> {
        elems.iter().map(|&elem| self.var(elem)).collect()
    }

    /// A constant as the engine's 32-bit value.
    pub fn int32(&self, value: i64) -> Result<i32, Error> {
        i32::try_from(value).map_err(|_| {
            self.invalid(format!(
                "constant {value} is outside the engine's 32-bit values"
            ))
        })
    }

    /// Argument `arg`, an array of constants, as the engine's 32-bit values.
    pub fn int32s(&self, arg: &Arg) -> Result<Vec<i32>, Error> {
        self.ints(arg)?
            .into_iter()
            .map(|value| self.int32(value))
            .collect()
    }

    /// A new variable over `lo..=hi` for an encoding's own use.
    pub fn aux_var(&mut self, lo: i64, hi: i64) -> Result<VarId, Error> {
        let (lo, hi) = (
            lo.max(i64::from(i32::MIN)) as i32,
            hi.min(i64::from(i32::MAX)) as i32,
        );
        let name = format!("={}aux", self.builder.num_vars());
        let var = self
            .builder
            .int_var(name, lo..=hi)
            .map_err(|e| self.invalid(e.to_string()))?;
        self.bounds.push((i64::from(lo), i64::from(hi)));
        Ok(var)
    }

    /// The declared bounds of `elem`.
    pub fn bounds_of(&self, elem: Elem) -> (i64, i64) {
        match elem {
            Elem::Const(value) => (value, value),
            Elem::Var(var) => self.bounds[var.index()],
        }
    }

    /// Posts `constraint`.
    pub fn post(&mut self, constraint: impl Post + 'static) -> Result<(), Error> {
        self.post_boxed(Box::new(constraint))
    }

    /// Posts a boxed constraint.
    pub fn post_boxed(&mut self, constraint: Box<dyn Post>) -> Result<(), Error> {
        self.builder
            .post_boxed(constraint)
            .map(drop)
            .map_err(|e| self.invalid(e.to_string()))
    }

    /// Posts a constraint that no assignment satisfies: the model has no solution.
    pub fn post_false(&mut self) -> Result<(), Error> {
        let zero = self.var(Elem::Const(0))?;
        let never = Table::new(vec![zero], Vec::new()).map_err(|e| self.invalid(e.to_string()))?;
        self.post(never)
    }

    /// Posts the truth value `holds` of a constraint without variables, tied to `reif`.
    pub fn post_truth(&mut self, holds: bool, reif: Reif) -> Result<(), Error> {
        match reif {
            Reif::Plain if holds => Ok(()),
            Reif::Plain => self.post_false(),
            Reif::Equiv(r) => {
                self.linear(&[(1, r)], Relation::Equal, i64::from(holds), Reif::Plain)
            }
            Reif::Implies(_) if holds => Ok(()),
            Reif::Implies(r) => self.linear(&[(1, r)], Relation::Equal, 0, Reif::Plain),
        }
    }

    /// Posts `constraint` tied to `reif`: plainly, through [`Reified`], or as its negation or
    /// nothing when the Boolean is a constant. When the Boolean is also in the constraint's scope,
    /// which [`Reified`] refuses, the reification is posted by its checker alone.
    pub fn reified(&mut self, reif: Reif, constraint: Box<dyn Post>) -> Result<(), Error> {
        let (r, mode) = match reif {
            Reif::Plain => return self.post_boxed(constraint),
            Reif::Equiv(r) => (r, Reification::Equivalent),
            Reif::Implies(r) => (r, Reification::Implies),
        };
        match (r, mode) {
            (Elem::Const(1), _) => self.post_boxed(constraint),
            (Elem::Const(0), Reification::Implies) => Ok(()),
            (Elem::Const(_), _) if !matches!(r, Elem::Const(0)) => self.post_false(),
            _ => {
                // Built once, on its own, to see its scope and negation before choosing.
                let built =
                    Posted::new_boxed(constraint).map_err(|e| self.invalid(e.to_string()))?;
                match r {
                    Elem::Const(_) => match built.propagator().negation() {
                        Some(negation) => self.post_boxed(negation),
                        None => self.reified_by_checker(r, mode, built),
                    },
                    Elem::Var(b) if built.propagator().scope().contains(&b) => {
                        self.reified_by_checker(r, mode, built)
                    }
                    Elem::Var(b) => self.post(Reified::new(b, Box::new(built), mode)),
                }
            }
        }
    }

    /// `r ↔ C` or `r → C` as one relation over `r` and `C`'s scope, judged by `C`'s checker.
    fn reified_by_checker(
        &mut self,
        r: Elem,
        mode: Reification,
        constraint: Posted,
    ) -> Result<(), Error> {
        let mut args = vec![r];
        args.extend(
            constraint
                .propagator()
                .scope()
                .iter()
                .map(|&v| Elem::Var(v)),
        );
        let check = move |values: &[i64]| {
            let inner: Option<smallvec::SmallVec<[i32; 8]>> =
                values[1..].iter().map(|&v| i32::try_from(v).ok()).collect();
            let holds = inner.is_some_and(|inner| constraint.propagator().is_satisfied(&inner));
            match (mode, values[0]) {
                (Reification::Equivalent, 1) | (Reification::Implies, 1) => holds,
                (Reification::Equivalent, 0) => !holds,
                (Reification::Implies, 0) => true,
                _ => false,
            }
        };
        self.post(Checked::new("reification", &args, Box::new(check)))
    }

    /// Posts `Σ aᵢxᵢ relation rhs` tied to `reif`, folding constants into the right-hand side and
    /// merging repeated variables. One unit term, or two of opposite unit coefficients, make a
    /// comparison ([`Poster::compare`]).
    pub fn linear(
        &mut self,
        terms: &[(i64, Elem)],
        relation: Relation,
        rhs: i64,
        reif: Reif,
    ) -> Result<(), Error> {
        let mut rhs = i128::from(rhs);
        let mut merged: Vec<(i128, VarId)> = Vec::with_capacity(terms.len());
        let mut index: HashMap<VarId, usize> = HashMap::new();
        for &(a, elem) in terms {
            match elem {
                Elem::Const(c) => rhs -= i128::from(a) * i128::from(c),
                Elem::Var(v) => {
                    // A scan for short sums, a map for long ones: either way one pass.
                    let found = if merged.len() < 16 {
                        merged.iter().position(|&(_, w)| w == v)
                    } else {
                        if index.is_empty() {
                            index.extend(merged.iter().enumerate().map(|(i, &(_, w))| (w, i)));
                        }
                        index.get(&v).copied()
                    };
                    match found {
                        Some(i) => merged[i].0 += i128::from(a),
                        None => {
                            if !index.is_empty() {
                                index.insert(v, merged.len());
                            }
                            merged.push((i128::from(a), v));
                        }
                    }
                }
            }
        }
        merged.retain(|&(a, _)| a != 0);
        if merged.is_empty() {
            let holds = match relation {
                Relation::Equal => rhs == 0,
                Relation::LessOrEqual => 0 <= rhs,
                Relation::NotEqual => rhs != 0,
            };
            return self.post_truth(holds, reif);
        }
        let rhs = i64::try_from(rhs)
            .map_err(|_| self.invalid("a linear constraint's constant is beyond 64 bits"))?;
        let terms: Vec<(i64, VarId)> = merged
            .into_iter()
            .map(|(a, v)| i64::try_from(a).map(|a| (a, v)))
            .collect::<Result<_, _>>()
            .map_err(|_| self.invalid("a linear coefficient is beyond 64 bits"))?;
        // One or two unit terms are a comparison, which is cheaper to revise than a linear sum and
        // domain consistent for `=` (a sum is bounds consistent).
        let comparison = match relation {
            Relation::Equal => Comparison::Equal,
            Relation::NotEqual => Comparison::NotEqual,
            Relation::LessOrEqual => Comparison::LessOrEqual,
        };
        match terms[..] {
            // x ⋈ rhs, or −x ⋈ rhs, that is −rhs ⋈ x.
            [(1, x)] => return self.compare(Elem::Var(x), comparison, Elem::Const(rhs), 0, reif),
            [(-1, x)] if rhs != i64::MIN => {
                return self.compare(Elem::Const(-rhs), comparison, Elem::Var(x), 0, reif);
            }
            // x − y ⋈ rhs, that is x ⋈ y + rhs.
            [(1, x), (-1, y)] | [(-1, y), (1, x)] => {
                return self.compare(Elem::Var(x), comparison, Elem::Var(y), rhs, reif);
            }
            _ => {}
        }
        if let Some(sum) = self.bool_sum(&terms, relation, rhs, reif) {
            return self.post(sum);
        }
        self.reified(reif, Box::new(Linear::with_i64(terms, relation, rhs)))
    }

    /// The sum as a [`BoolSum`], when it is one: not reified, `=` or `≤`, and every term but at
    /// most one a 0/1 variable with a unit coefficient. It propagates as the linear sum does, at a
    /// fraction of the cost (still life's neighbour counts, sums of chosen items).
    fn bool_sum(
        &self,
        terms: &[(i64, VarId)],
        relation: Relation,
        rhs: i64,
        reif: Reif,
    ) -> Option<csp_core::Constructor<BoolSum>> {
        if !matches!(reif, Reif::Plain) || relation == Relation::NotEqual {
            return None;
        }
        let boolean = |&(a, v): &(i64, VarId)| {
            let (lo, hi) = self.bounds[v.index()];
            a.abs() == 1 && 0 <= lo && hi <= 1
        };
        let mut others = terms.iter().filter(|t| !boolean(t));
        let integer = others.next().copied();
        if others.next().is_some() {
            return None;
        }
        let booleans: Vec<(i64, VarId)> = terms.iter().copied().filter(boolean).collect();
        if booleans.len() < 2 {
            return None;
        }
        BoolSum::new(booleans, integer, relation, rhs).ok()
    }

    /// Posts `a ⋈ b + offset` tied to `reif`: a [`Compare`] (a [`ReifiedCompare`] when tied to a
    /// Boolean variable outside its scope), its truth when both sides are constants or the same
    /// variable, and through [`Poster::reified`] otherwise.
    pub fn compare(
        &mut self,
        a: Elem,
        comparison: Comparison,
        b: Elem,
        offset: i64,
        reif: Reif,
    ) -> Result<(), Error> {
        let offset = i128::from(offset);
        let compare = match (a, b) {
            (Elem::Const(a), Elem::Const(b)) => {
                let holds = comparison.holds(i128::from(a), i128::from(b) + offset);
                return self.post_truth(holds, reif);
            }
            (Elem::Var(x), Elem::Var(y)) if x == y => {
                return self.post_truth(comparison.holds(0, offset), reif);
            }
            (Elem::Var(x), Elem::Var(y)) => {
                let offset = self.small(offset)?;
                Compare::new(x, comparison, y, offset).map_err(|e| self.invalid(e.to_string()))?
            }
            (Elem::Var(x), Elem::Const(c)) => {
                Compare::constant(x, comparison, self.small(i128::from(c) + offset)?)
            }
            // c ⋈ y + offset, that is y ⋈' c − offset with ⋈ mirrored.
            (Elem::Const(c), Elem::Var(y)) => Compare::constant(
                y,
                comparison.mirrored(),
                self.small(i128::from(c) - offset)?,
            ),
        };
        match reif {
            Reif::Equiv(Elem::Var(r)) | Reif::Implies(Elem::Var(r))
                if !compare.scope().contains(&r) =>
            {
                let mode = match reif {
                    Reif::Equiv(_) => Reification::Equivalent,
                    _ => Reification::Implies,
                };
                let reified = ReifiedCompare::new(r, compare, mode)
                    .map_err(|e| self.invalid(e.to_string()))?;
                self.post(reified)
            }
            _ => self.reified(reif, Box::new(compare)),
        }
    }

    /// `value` as the engine's 64-bit offset.
    fn small(&self, value: i128) -> Result<i64, Error> {
        i64::try_from(value).map_err(|_| self.invalid("a comparison's constant is beyond 64 bits"))
    }

    /// Posts "the arguments take one of the rows of `tuples`" (rows of `args.len()` values, one
    /// after another), over constants and repeated variables: rows that disagree with a constant, or
    /// give a repeated variable two values, are dropped, and the rest are projected on the distinct
    /// variables.
    pub fn table(&mut self, args: &[Elem], tuples: &[i64]) -> Result<(), Error> {
        let scoped = ScopedArgs::new(args);
        let arity = args.len();
        let width = scoped.scope().len();
        let mut rows: Vec<Vec<i32>> = Vec::new();
        let mut any_row = false;
        if arity > 0 {
            'rows: for tuple in tuples.chunks_exact(arity) {
                let mut row: Vec<Option<i32>> = vec![None; width];
                for (i, &value) in tuple.iter().enumerate() {
                    match scoped.arg(i) {
                        ScopedArg::Const(c) if c != value => continue 'rows,
                        ScopedArg::Const(_) => {}
                        ScopedArg::Var(p) => {
                            let Ok(value) = i32::try_from(value) else {
                                continue 'rows;
                            };
                            match row[p] {
                                Some(seen) if seen != value => continue 'rows,
                                _ => row[p] = Some(value),
                            }
                        }
                    }
                }
                any_row = true;
                if width > 0 {
                    rows.push(row.into_iter().map(|v| v.unwrap_or(0)).collect());
                }
            }
        }
        if width == 0 {
            return self.post_truth(any_row || arity == 0, Reif::Plain);
        }
        let table =
            Table::new(scoped.scope().to_vec(), rows).map_err(|e| self.invalid(e.to_string()))?;
        self.post(table)
    }
}

/// `x ∈ set` as the catalogue's `SetIn`: the ranges cut to the engine's 32-bit values, which are all
/// a variable can take (a range wholly beyond them adds nothing).
pub fn set_in_constraint(x: csp_core::VarId, set: &Ranges) -> csp_core::constraints::SetIn {
    let (lowest, highest) = (i64::from(i32::MIN), i64::from(i32::MAX));
    csp_core::constraints::SetIn::ranges(
        x,
        set.iter()
            .filter(|&&(lo, hi)| lo <= hi && lo <= highest && hi >= lowest)
            .map(|&(lo, hi)| (lo.max(lowest) as i32, hi.min(highest) as i32)),
    )
}
