//! From the parsed statements to a [`Model`]: declarations become variables (or constants and
//! aliases), constraints go through the builtin table, the solve item gives the objective and the
//! search, and the output annotations give what a solution prints.

use csp_core::{Model, ModelBuilder, VarId};
use csp_search::{Grid, IntSearch, SearchConfig};
use std::sync::Arc;

use hashbrown::HashMap;

use crate::Elem;
use crate::ast::{ConstraintItem, Decl, Domain, Expr, FlatZinc, Goal, Ranges, SolveItem};
use crate::builtins::{Arg, BUILTINS, Builtin, Poster, Val};
use crate::error::Error;
use crate::output::{Output, OutputItem, OutputKind};
use crate::overflow::Fact;
use crate::parser::{Item, Items};
use crate::search::Warning;
use crate::types::{Base, Type};

/// The most values a domain given as a set with holes may list (`{1, 5, 9, …}`); a wider domain is
/// refused rather than allocated.
const MAX_LISTED_VALUES: i64 = 1 << 24;

/// The most variables a model may declare. Each takes about 250 bytes once compiled and searched
/// (its domain, name, watches and search state: 2.4 GB for ten million), so 2^26 is about 16 GiB; a
/// declaration beyond it is refused before anything is allocated for it.
pub const MAX_MODEL_VARIABLES: u64 = 1 << 26;

/// What a name stands for.
#[derive(Debug, Clone)]
enum Symbol {
    Elem(Elem),
    Array(Arc<[Elem]>),
    Set(Ranges),
    SetArray(Vec<Ranges>),
    /// A float parameter or array: accepted while unused (MiniZinc may leave some behind).
    Float,
}

/// A constraint as posted, kept to check solutions against the builtin's FlatZinc meaning. Its
/// arguments are `args[start..start + len]` of [`Constraints::args`]: one array for all of them, so
/// that a model of a million small constraints holds no million small vectors.
#[derive(Debug)]
struct Posted {
    builtin: &'static Builtin,
    start: u32,
    len: u32,
    line: u32,
}

/// The FlatZinc constraints as posted, with their arguments.
#[derive(Debug, Default)]
struct Constraints {
    posted: Vec<Posted>,
    args: Vec<Arg>,
}

impl Constraints {
    fn with_capacity(constraints: usize) -> Self {
        Constraints {
            posted: Vec::with_capacity(constraints),
            args: Vec::with_capacity(2 * constraints),
        }
    }

    fn push(&mut self, builtin: &'static Builtin, args: impl IntoIterator<Item = Arg>, line: u32) {
        let start = self.args.len();
        self.args.extend(args);
        self.posted.push(Posted {
            builtin,
            start: u32::try_from(start).expect("fewer than 2^32 arguments"),
            len: (self.args.len() - start) as u32,
            line,
        });
    }

    /// Each constraint with its arguments.
    fn iter(&self) -> impl Iterator<Item = (&Posted, &[Arg])> {
        self.posted.iter().map(|posted| {
            let start = posted.start as usize;
            (posted, &self.args[start..start + posted.len as usize])
        })
    }

    fn shrink_to_fit(&mut self) {
        self.posted.shrink_to_fit();
        self.args.shrink_to_fit();
    }
}

/// A FlatZinc model compiled for the engine: the model, the search its annotations ask for, what a
/// solution prints, and the constraints as FlatZinc states them, to check every solution by.
#[derive(Debug)]
pub struct Compiled {
    model: Model,
    searches: Vec<IntSearch>,
    output: Output,
    posted: Constraints,
    /// The objective as FlatZinc states it (it may be a constant).
    objective: Option<Elem>,
    /// What the engine leaves out or does differently.
    warnings: Vec<Warning>,
    /// The variables a search decides: the annotations' (see [`Compiled::decision_vars`]).
    decisions: Vec<VarId>,
}

/// Why a solution was refused: a bug in the engine or in this crate, never in the model.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum VerifyError {
    /// A value lies outside its variable's declared domain.
    #[error("variable `{name}` = {value} is outside its domain")]
    Domain {
        /// The variable's name.
        name: String,
        /// Its value.
        value: i32,
    },
    /// An engine constraint's checker refuses the solution.
    #[error("the engine's constraint {constraint} refuses the solution")]
    Engine {
        /// The constraint, as its `Debug` shows it.
        constraint: String,
    },
    /// A FlatZinc constraint does not hold, by its definition.
    #[error("constraint `{name}` on line {line} does not hold")]
    FlatZinc {
        /// The builtin's name.
        name: &'static str,
        /// Its line.
        line: u32,
    },
}

impl Compiled {
    /// The engine's model.
    pub fn model(&self) -> &Model {
        &self.model
    }

    /// What a solution prints.
    pub fn output(&self) -> &Output {
        &self.output
    }

    /// The searches the solve item's annotations ask for (empty when it names none).
    pub fn searches(&self) -> &[IntSearch] {
        &self.searches
    }

    /// What the engine leaves out of the model or does differently (an unknown search annotation,
    /// say), each with its line.
    pub fn warnings(&self) -> &[Warning] {
        &self.warnings
    }

    /// The variables a search decides and a neighbourhood fixes: those the search annotations
    /// name, or else the model's own (the ones MiniZinc neither introduced nor defines by a
    /// constraint). Empty when the model has none of either: then every variable is.
    pub fn decision_vars(&self) -> &[VarId] {
        &self.decisions
    }

    /// The output arrays as grids of variables (rows by the last index set, constants as gaps),
    /// the structure large-neighbourhood search draws windows from: a board, a schedule of jobs by
    /// machines, a sequence. Arrays of fewer than four variables are left out.
    pub fn grids(&self) -> Vec<Grid> {
        self.output
            .items
            .iter()
            .filter_map(|item| match &item.kind {
                OutputKind::Array { dims, elems } => {
                    let cells: Vec<Option<VarId>> = elems
                        .iter()
                        .map(|elem| match elem {
                            Elem::Var(var) => Some(*var),
                            Elem::Const(_) => None,
                        })
                        .collect();
                    let columns = match dims.last() {
                        Some(&(lo, hi)) if dims.len() >= 2 && hi >= lo => (hi - lo + 1) as usize,
                        _ => cells.len(),
                    };
                    (cells.iter().flatten().count() >= 4).then_some(Grid { cells, columns })
                }
                OutputKind::Scalar(_) => None,
            })
            .collect()
    }

    /// How many constraints the FlatZinc model states.
    pub fn num_flatzinc_constraints(&self) -> usize {
        self.posted.posted.len()
    }

    /// The search to run: the annotations' searches (then every other variable by dom/wdeg), or free
    /// search (dom/wdeg with restarts) when `free` is set or the model names no search.
    pub fn search_config(&self, free: bool) -> SearchConfig {
        if free || self.searches.is_empty() {
            SearchConfig::free()
        } else {
            SearchConfig::decisions(self.searches.clone())
        }
    }

    /// The objective's value in a solution, if the model optimises.
    pub fn objective_value(&self, values: &[i32]) -> Option<i64> {
        self.objective.map(|elem| value_of(elem, values))
    }

    /// Checks a complete assignment three ways before it is printed: every value in its domain, every
    /// engine constraint's checker, and every FlatZinc constraint by its definition in the builtin
    /// table (independent of how it was posted).
    pub fn verify(&self, values: &[i32]) -> Result<(), VerifyError> {
        for var in self.model.vars() {
            let value = values[var.index()];
            if !self.model.initial_domain(var).contains(value) {
                return Err(VerifyError::Domain {
                    name: self.model.name(var).to_owned(),
                    value,
                });
            }
        }
        if let Some(id) = self.model.violated_constraint(values, &mut Vec::new()) {
            return Err(VerifyError::Engine {
                constraint: format!("{:?}", self.model.constraint(id)),
            });
        }
        for (posted, args) in self.posted.iter() {
            let vals: Vec<Val<'_>> = args
                .iter()
                .map(|arg| match arg {
                    Arg::Elem(elem) => Val::Int(value_of(*elem, values)),
                    Arg::Array(elems) => {
                        Val::Array(elems.iter().map(|&e| value_of(e, values)).collect())
                    }
                    Arg::Set(set) => Val::Set(set),
                    Arg::SetArray(sets) => Val::SetArray(sets),
                })
                .collect();
            if !(posted.builtin.holds)(&vals) {
                return Err(VerifyError::FlatZinc {
                    name: posted.builtin.name,
                    line: posted.line,
                });
            }
        }
        Ok(())
    }
}

fn value_of(elem: Elem, values: &[i32]) -> i64 {
    match elem {
        Elem::Const(c) => c,
        Elem::Var(var) => i64::from(values[var.index()]),
    }
}

/// Builds the model from parsed statements.
struct Compiler<'a> {
    builder: ModelBuilder,
    /// What each name stands for, and its declared type (to check the arguments of every
    /// constraint).
    symbols: HashMap<&'a str, (Symbol, Type)>,
    /// The builtin table by name and number of arguments.
    table: HashMap<(&'static str, usize), &'static Builtin>,
    constants: HashMap<i64, VarId>,
    bounds: Vec<(i64, i64)>,
    /// The variables declared `var int`, without bounds, with their names.
    unbounded: Vec<(VarId, String)>,
    /// The model's own variables (see [`is_decision`]).
    decisions: Vec<VarId>,
    output: Output,
    posted: Constraints,
}

/// Compiles parsed FlatZinc into a [`Compiled`] model.
pub fn compile_parsed(fzn: &FlatZinc<'_>) -> Result<Compiled, Error> {
    let mut compiler = Compiler::new(fzn.decls.len(), fzn.constraints.len());
    for decl in &fzn.decls {
        compiler.decl(decl)?;
    }
    for item in &fzn.constraints {
        compiler.constraint(item)?;
    }
    compiler.finish(&fzn.solve)
}

/// Parses and compiles FlatZinc one statement at a time, so that the parsed form of the whole file
/// is never held: each statement becomes part of the model and is dropped before the next is read.
/// FlatZinc declares every name before its use, as the specification orders the statements.
pub(crate) fn compile_text(text: &str) -> Result<Compiled, Error> {
    let mut items = Items::new(text);
    // Room for every constraint from the start (a quick count of the keyword, which may overcount
    // a little): the list of a million constraints is then never copied to grow.
    let mut compiler = Compiler::new(0, text.matches("constraint ").count());
    while let Some(item) = items.next_item()? {
        match item {
            Item::Decl(decl) => compiler.decl(&decl)?,
            Item::Constraint(constraint) => compiler.constraint(&constraint)?,
            Item::Solve(solve) => return compiler.finish(&solve),
        }
    }
    unreachable!("the parser ends a model with its solve item")
}

impl<'a> Compiler<'a> {
    fn new(decls: usize, constraints: usize) -> Self {
        Compiler {
            builder: ModelBuilder::new(),
            symbols: HashMap::with_capacity(decls),
            constants: HashMap::new(),
            bounds: Vec::with_capacity(decls),
            unbounded: Vec::new(),
            decisions: Vec::new(),
            output: Output::default(),
            posted: Constraints::with_capacity(constraints),
            table: BUILTINS.iter().map(|b| ((b.name, b.arity), b)).collect(),
        }
    }

    /// The solve item: the objective, the search, and the model built.
    fn finish(mut self, solve: &SolveItem<'a>) -> Result<Compiled, Error> {
        self.check_overflow()?;
        let line = solve.pos.line;
        let objective = match &solve.goal {
            Goal::Satisfy => None,
            Goal::Minimize(e) | Goal::Maximize(e) => Some(self.scalar(e, line)?),
        };
        if let Some(elem) = objective {
            let var = self.poster(line).var(elem)?;
            let result = match solve.goal {
                Goal::Minimize(_) => self.builder.minimize(var),
                _ => self.builder.maximize(var),
            };
            result.map_err(|e| Error::invalid(line, e.to_string()))?;
        }
        let mut warnings = Vec::new();
        let searches = crate::search::searches(
            &solve.annotations,
            line,
            &|e| match self.arg(e, line)? {
                Arg::Array(elems) => Ok(elems.to_vec()),
                Arg::Elem(elem) => Ok(vec![elem]),
                _ => Err(Error::invalid(
                    line,
                    "a search's variables must be an array",
                )),
            },
            &mut warnings,
        )?;
        // The variables the annotations search on; else the model's own, unless it has none.
        let mut decisions: Vec<VarId> = searches
            .iter()
            .flat_map(|s| s.vars.iter().copied())
            .collect();
        decisions.sort_unstable();
        decisions.dedup();
        if decisions.is_empty() {
            decisions = self.decisions;
        }
        let model = self.builder.build();
        self.posted.shrink_to_fit();
        debug_assert_eq!(model.objective().var().is_some(), objective.is_some());
        Ok(Compiled {
            model,
            searches,
            output: self.output,
            posted: self.posted,
            objective,
            warnings,
            decisions,
        })
    }
    fn poster(&mut self, line: u32) -> Poster<'_> {
        Poster {
            builder: &mut self.builder,
            constants: &mut self.constants,
            bounds: &mut self.bounds,
            line,
        }
    }

    fn lookup(&self, name: &str, line: u32) -> Result<&(Symbol, Type), Error> {
        self.symbols
            .get(name)
            .ok_or_else(|| Error::invalid(line, format!("unknown name `{name}`")))
    }

    /// Refuses the model if its declared bounds force a variable declared without bounds beyond the
    /// engine's 32-bit values (see [`crate::overflow`]).
    fn check_overflow(&self) -> Result<(), Error> {
        let mut unbounded = vec![false; self.bounds.len()];
        for (var, _) in &self.unbounded {
            unbounded[var.index()] = true;
        }
        let facts: Vec<Fact<'_>> = self
            .posted
            .iter()
            .map(|(posted, args)| Fact {
                name: posted.builtin.name,
                args,
                line: posted.line,
            })
            .collect();
        let name = |index: usize| {
            self.unbounded
                .iter()
                .find(|(var, _)| var.index() == index)
                .map_or_else(String::new, |(_, name)| name.clone())
        };
        crate::overflow::check(&facts, &self.bounds, &unbounded, &name)
    }

    /// An expression standing for one integer or Boolean.
    fn scalar(&self, expr: &Expr<'a>, line: u32) -> Result<Elem, Error> {
        match self.arg(expr, line)? {
            Arg::Elem(elem) => Ok(elem),
            _ => Err(Error::invalid(line, "expected an integer or Boolean")),
        }
    }

    /// Resolves an argument: literals as constants, names as what they stand for.
    fn arg(&self, expr: &Expr<'a>, line: u32) -> Result<Arg, Error> {
        self.typed(expr, line).map(|(arg, _)| arg)
    }

    /// Resolves an argument and gives its type, with one lookup of each name.
    fn typed(&self, expr: &Expr<'a>, line: u32) -> Result<(Arg, Type), Error> {
        let float = || Error::Unsupported {
            line,
            what: "float values".to_owned(),
        };
        Ok(match expr {
            Expr::Int(value) => (Arg::Elem(Elem::Const(*value)), Type::par(Base::Int)),
            Expr::Bool(value) => (
                Arg::Elem(Elem::Const(i64::from(*value))),
                Type::par(Base::Bool),
            ),
            Expr::Set(set) => (Arg::Set(set.clone()), Type::par(Base::Set)),
            Expr::Float(_) | Expr::FloatRange(..) => return Err(float()),
            Expr::Ident(name) => {
                let (symbol, ty) = self.lookup(name, line)?;
                let arg = match symbol {
                    Symbol::Elem(elem) => Arg::Elem(*elem),
                    Symbol::Array(elems) => Arg::Array(Arc::clone(elems)),
                    Symbol::Set(set) => Arg::Set(set.clone()),
                    Symbol::SetArray(sets) => Arg::SetArray(sets.clone()),
                    Symbol::Float => return Err(float()),
                };
                (arg, *ty)
            }
            Expr::Access(name, index) => {
                let element = |len: usize| {
                    usize::try_from(index - 1)
                        .ok()
                        .filter(|&k| k < len)
                        .ok_or_else(|| {
                            Error::invalid(line, format!("index {index} is outside `{name}`"))
                        })
                };
                let (symbol, ty) = self.lookup(name, line)?;
                let arg = match symbol {
                    Symbol::Array(elems) => Arg::Elem(elems[element(elems.len())?]),
                    Symbol::SetArray(sets) => Arg::Set(sets[element(sets.len())?].clone()),
                    _ => return Err(Error::invalid(line, format!("`{name}` is not an array"))),
                };
                (arg, ty.element())
            }
            Expr::Array(items) => {
                // The elements' common type: an empty literal fits any array.
                let mut element = Type {
                    array: false,
                    var: false,
                    base: None,
                };
                let mut elems = Vec::with_capacity(items.len());
                let mut sets = Vec::new();
                for item in items {
                    let (arg, ty) = self.typed(item, line)?;
                    if ty.array {
                        return Err(Error::invalid(line, "an array literal holds an array"));
                    }
                    if element.base.is_some() && element.base != ty.base {
                        return Err(Error::invalid(
                            line,
                            format!(
                                "an array literal mixes {} and {}",
                                element.base.map_or("", Base::name),
                                ty.base.map_or("", Base::name)
                            ),
                        ));
                    }
                    element = Type {
                        array: false,
                        var: element.var || ty.var,
                        base: ty.base,
                    };
                    match arg {
                        Arg::Elem(elem) => elems.push(elem),
                        Arg::Set(set) => sets.push(set),
                        _ => unreachable!("a scalar's argument is an element or a set"),
                    }
                }
                let arg = if element.base == Some(Base::Set) {
                    Arg::SetArray(sets)
                } else {
                    Arg::Array(elems.into())
                };
                (arg, element.array_of())
            }
            Expr::Str(_) | Expr::Call(..) => {
                return Err(Error::invalid(
                    line,
                    "expected a value, found an annotation",
                ));
            }
        })
    }

    /// Checks a declaration's value against its type: the same base, and a variable only where
    /// a variable is declared.
    fn check_value(&self, decl: &Decl<'a>, declared: Type, value: &Expr<'a>) -> Result<(), Error> {
        let line = decl.pos.line;
        let (_, given) = self.typed(value, line)?;
        if !declared.accepts(given) {
            return Err(Error::invalid(
                line,
                format!(
                    "`{}` is declared {declared}, but {} is {given}",
                    decl.name,
                    describe(value)
                ),
            ));
        }
        Ok(())
    }

    fn decl(&mut self, decl: &Decl<'a>) -> Result<(), Error> {
        let line = decl.pos.line;
        if self.symbols.contains_key(decl.name) {
            return Err(Error::invalid(
                line,
                format!("`{}` is declared twice", decl.name),
            ));
        }
        if decl.ty.var && matches!(decl.ty.domain, Domain::Float | Domain::SetOfInt) {
            let what = match decl.ty.domain {
                Domain::Float => "float variables",
                _ => "set variables",
            };
            return Err(Error::Unsupported {
                line,
                what: format!("{what} (`{}`)", decl.name),
            });
        }
        let base = match decl.ty.domain {
            Domain::Bool => Base::Bool,
            Domain::Int | Domain::IntSet(_) => Base::Int,
            Domain::Float => Base::Float,
            Domain::SetOfInt => Base::Set,
        };
        let mut declared = Type::par(base);
        if decl.ty.var {
            declared = declared.var();
        }
        if let Some((lo, hi)) = decl.ty.array {
            // FlatZinc's arrays are indexed from 1; an element is found by its index less one.
            if lo != 1 && lo <= hi {
                return Err(Error::invalid(
                    line,
                    format!(
                        "`{}` is indexed {lo}..{hi}, but FlatZinc's arrays are indexed from 1",
                        decl.name
                    ),
                ));
            }
            declared = declared.array_of();
        }
        if let Some(value) = &decl.value {
            self.check_value(decl, declared, value)?;
        }
        let symbol = match (decl.ty.array, decl.ty.var) {
            (_, false) => self.parameter(decl)?,
            (None, true) => {
                let elem = match &decl.value {
                    Some(value) => {
                        let elem = self.scalar(value, line)?;
                        self.restrict(elem, &decl.ty.domain, line)?;
                        elem
                    }
                    None => {
                        let var = self.new_var(decl.name, &decl.ty.domain, line)?;
                        if is_decision(&decl.annotations) {
                            self.decisions.push(var);
                        }
                        Elem::Var(var)
                    }
                };
                if has_annotation(&decl.annotations, "output_var") {
                    self.output.items.push(OutputItem {
                        name: decl.name.to_owned(),
                        boolean: decl.ty.domain == Domain::Bool,
                        kind: OutputKind::Scalar(elem),
                    });
                }
                Symbol::Elem(elem)
            }
            (Some((lo, hi)), true) => {
                let elems = match &decl.value {
                    Some(value) => {
                        let elems = match self.arg(value, line)? {
                            Arg::Array(elems) => elems,
                            _ => return Err(Error::invalid(line, "expected an array")),
                        };
                        for &elem in elems.iter() {
                            self.restrict(elem, &decl.ty.domain, line)?;
                        }
                        elems
                    }
                    None => {
                        let count = if hi >= lo { (hi - lo + 1) as u64 } else { 0 };
                        if count + self.bounds.len() as u64 > MAX_MODEL_VARIABLES {
                            return Err(Error::invalid(
                                line,
                                format!(
                                    "`{}` would make {} variables, more than the {MAX_MODEL_VARIABLES} \
                                     (about 16 GiB) a model may have",
                                    decl.name,
                                    count + self.bounds.len() as u64
                                ),
                            ));
                        }
                        let mut elems = Vec::with_capacity(count as usize);
                        for i in lo..=hi {
                            let name = format!("{}[{i}]", decl.name);
                            let var = self.new_var(&name, &decl.ty.domain, line)?;
                            if is_decision(&decl.annotations) {
                                self.decisions.push(var);
                            }
                            elems.push(Elem::Var(var));
                        }
                        elems.into()
                    }
                };
                if let Some(dims) = output_dims(&decl.annotations, line)? {
                    self.output.items.push(OutputItem {
                        name: decl.name.to_owned(),
                        boolean: decl.ty.domain == Domain::Bool,
                        kind: OutputKind::Array {
                            dims,
                            elems: elems.to_vec(),
                        },
                    });
                }
                Symbol::Array(elems)
            }
        };
        if let (Some((lo, hi)), Some(len)) = (decl.ty.array, symbol_len(&symbol)) {
            let expected = if hi >= lo { hi - lo + 1 } else { 0 };
            if len as i64 != expected {
                return Err(Error::invalid(
                    line,
                    format!(
                        "`{}` is declared with {expected} elements but given {len}",
                        decl.name
                    ),
                ));
            }
        }
        self.symbols.insert(decl.name, (symbol, declared));
        Ok(())
    }

    /// A parameter's value.
    fn parameter(&mut self, decl: &Decl<'a>) -> Result<Symbol, Error> {
        let line = decl.pos.line;
        let value = decl.value.as_ref().ok_or_else(|| {
            Error::invalid(line, format!("parameter `{}` has no value", decl.name))
        })?;
        if decl.ty.domain == Domain::Float {
            return Ok(Symbol::Float);
        }
        Ok(match self.arg(value, line)? {
            Arg::Elem(elem @ Elem::Const(_)) => Symbol::Elem(elem),
            Arg::Array(elems) if elems.iter().all(|e| matches!(e, Elem::Const(_))) => {
                Symbol::Array(elems)
            }
            Arg::Set(set) => Symbol::Set(set),
            Arg::SetArray(sets) => Symbol::SetArray(sets),
            _ => {
                return Err(Error::invalid(
                    line,
                    format!("parameter `{}` is given a variable", decl.name),
                ));
            }
        })
    }

    /// Declares a variable over `domain`.
    fn new_var(&mut self, name: &str, domain: &Domain, line: u32) -> Result<VarId, Error> {
        let too_wide = |lo: i64, hi: i64| {
            Error::invalid(
                line,
                format!("the domain {lo}..{hi} of `{name}` exceeds the engine's 32-bit values"),
            )
        };
        let (var, bounds) = match domain {
            Domain::Bool => (self.builder.bool_var(name), (0, 1)),
            Domain::Int => {
                let var = self.builder.int_var(name, i32::MIN..=i32::MAX);
                if let Ok(var) = var {
                    self.unbounded.push((var, name.to_owned()));
                }
                (var, (i64::from(i32::MIN), i64::from(i32::MAX)))
            }
            Domain::IntSet(set) => {
                let (Some(&(lo, _)), Some(&(_, hi))) = (set.first(), set.last()) else {
                    return Err(Error::invalid(
                        line,
                        format!("`{name}` has an empty domain"),
                    ));
                };
                let (Ok(lo32), Ok(hi32)) = (i32::try_from(lo), i32::try_from(hi)) else {
                    return Err(too_wide(lo, hi));
                };
                let var = if set.len() == 1 {
                    self.builder.int_var(name, lo32..=hi32)
                } else {
                    let count: i64 = set.iter().map(|&(a, b)| b - a + 1).sum();
                    if count > MAX_LISTED_VALUES {
                        return Err(Error::invalid(
                            line,
                            format!("the domain of `{name}` lists more than 2^24 values"),
                        ));
                    }
                    self.builder.int_var_with_values(
                        name,
                        set.iter().flat_map(|&(a, b)| (a..=b).map(|v| v as i32)),
                    )
                };
                (var, (lo, hi))
            }
            Domain::Float | Domain::SetOfInt => {
                return Err(Error::Unsupported {
                    line,
                    what: format!("the type of `{name}`"),
                });
            }
        };
        let var = var.map_err(|e| Error::invalid(line, e.to_string()))?;
        self.bounds.push(bounds);
        Ok(var)
    }

    /// A variable declared equal to `elem` and with `domain`: `elem` must lie in the domain. A
    /// constant outside it makes the model unsatisfiable; a variable whose declared bounds the domain
    /// narrows gets the domain as a constraint.
    fn restrict(&mut self, elem: Elem, domain: &Domain, line: u32) -> Result<(), Error> {
        let set = match domain {
            Domain::IntSet(set) => set,
            Domain::Bool => &vec![(0, 1)],
            _ => return Ok(()),
        };
        match elem {
            Elem::Const(c) => {
                if !crate::ast::ranges_contain(set, c) {
                    self.poster(line).post_false()?;
                }
            }
            Elem::Var(var) => {
                let (lo, hi) = self.bounds[var.index()];
                let covered = set.iter().any(|&(a, b)| a <= lo && hi <= b);
                if !covered {
                    self.poster(line)
                        .post(crate::builtins::set_in_constraint(var, set))?;
                }
            }
        }
        Ok(())
    }

    fn constraint(&mut self, item: &ConstraintItem<'a>) -> Result<(), Error> {
        let line = item.pos.line;
        let Some(&builtin) = self.table.get(&(item.name, item.args.len())) else {
            let forms: Vec<&Builtin> = BUILTINS.iter().filter(|b| b.name == item.name).collect();
            if forms.is_empty() {
                return Err(Error::UnsupportedConstraint {
                    line,
                    name: item.name.to_owned(),
                });
            }
            let arities: Vec<String> = forms.iter().map(|b| b.arity.to_string()).collect();
            let signatures: Vec<String> = forms
                .iter()
                .map(|b| format!("`{}({})`", b.name, b.signature))
                .collect();
            return Err(Error::invalid(
                line,
                format!(
                    "`{}` takes {} arguments ({}), not {}",
                    item.name,
                    arities.join(" or "),
                    signatures.join(" or "),
                    item.args.len()
                ),
            ));
        };
        let mut args = Vec::with_capacity(item.args.len());
        for (position, (expr, parameter)) in item.args.iter().zip(builtin.parameters()).enumerate()
        {
            let (arg, given) = self.typed(expr, line)?;
            if !parameter.accepts(given) {
                return Err(Error::invalid(
                    line,
                    format!(
                        "argument {} of `{}` must be {parameter}, but {} is {given}",
                        position + 1,
                        item.name,
                        describe(expr),
                    ),
                ));
            }
            args.push(arg);
        }
        (builtin.post)(&mut self.poster(line), &args)?;
        self.posted.push(builtin, args, line);
        Ok(())
    }
}

/// Whether a declared variable is one of the model's own rather than one MiniZinc introduced or
/// defines by a constraint (`var_is_introduced`, `is_defined_var`): the variables a search's
/// decisions, and a neighbourhood's fixings, are about.
fn is_decision(annotations: &[Expr<'_>]) -> bool {
    !has_annotation(annotations, "var_is_introduced")
        && !has_annotation(annotations, "is_defined_var")
}

fn has_annotation(annotations: &[Expr<'_>], name: &str) -> bool {
    annotations
        .iter()
        .any(|a| matches!(a, Expr::Ident(n) if *n == name))
}

/// The index sets of `output_array([1..2, 1..3])`, if the declaration has one.
fn output_dims(annotations: &[Expr<'_>], line: u32) -> Result<Option<Vec<(i64, i64)>>, Error> {
    for annotation in annotations {
        if let Expr::Call("output_array", args) = annotation {
            let [Expr::Array(sets)] = args.as_slice() else {
                return Err(Error::invalid(
                    line,
                    "output_array takes an array of index sets",
                ));
            };
            let dims = sets
                .iter()
                .map(|set| match set {
                    Expr::Set(ranges) if ranges.len() == 1 => Ok(ranges[0]),
                    // `1..0`, an empty index set.
                    Expr::Set(ranges) if ranges.is_empty() => Ok((1, 0)),
                    _ => Err(Error::invalid(line, "an output index set must be a range")),
                })
                .collect::<Result<_, _>>()?;
            return Ok(Some(dims));
        }
    }
    Ok(None)
}

/// How many elements an array symbol holds (`None` for a scalar, or a float array, whose elements
/// are not kept).
fn symbol_len(symbol: &Symbol) -> Option<usize> {
    match symbol {
        Symbol::Array(elems) => Some(elems.len()),
        Symbol::SetArray(sets) => Some(sets.len()),
        Symbol::Elem(_) | Symbol::Set(_) | Symbol::Float => None,
    }
}

/// An argument as an error message names it: a name as written, a literal by its kind.
fn describe(expr: &Expr<'_>) -> String {
    match expr {
        Expr::Bool(value) => format!("`{value}`"),
        Expr::Int(value) => format!("`{value}`"),
        Expr::Float(value) => format!("`{value}`"),
        Expr::Ident(name) => format!("`{name}`"),
        Expr::Access(name, index) => format!("`{name}[{index}]`"),
        Expr::Set(_) | Expr::FloatRange(..) => "the set literal".to_owned(),
        Expr::Array(_) => "the array literal".to_owned(),
        Expr::Str(_) | Expr::Call(..) => "the annotation".to_owned(),
    }
}
