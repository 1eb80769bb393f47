//! From the parsed statements to a [`Model`]: declarations become variables (or constants and
//! aliases), constraints go through the builtin table, the solve item gives the objective and the
//! search, and the output annotations give what a solution prints.

use csp_core::{Model, ModelBuilder, VarId};
use csp_search::{IntSearch, SearchConfig};
use hashbrown::HashMap;

use crate::Elem;
use crate::ast::{ConstraintItem, Decl, Domain, Expr, FlatZinc, Goal, Ranges};
use crate::builtins::{Arg, BUILTINS, Builtin, Poster, Val};
use crate::error::Error;
use crate::output::{Output, OutputItem, OutputKind};

/// The most values a domain given as a set with holes may list (`{1, 5, 9, …}`); a wider domain is
/// refused rather than allocated.
const MAX_LISTED_VALUES: i64 = 1 << 24;

/// What a name stands for.
#[derive(Debug, Clone)]
enum Symbol {
    Elem(Elem),
    Array(Vec<Elem>),
    Set(Ranges),
    SetArray(Vec<Ranges>),
    /// A float parameter or array: accepted while unused (MiniZinc may leave some behind).
    Float,
}

/// A constraint as posted, kept to check solutions against the builtin's FlatZinc meaning.
#[derive(Debug)]
struct Posted {
    builtin: &'static Builtin,
    args: Vec<Arg>,
    line: u32,
}

/// A FlatZinc model compiled for the engine: the model, the search its annotations ask for, what a
/// solution prints, and the constraints as FlatZinc states them, to check every solution by.
#[derive(Debug)]
pub struct Compiled {
    model: Model,
    searches: Vec<IntSearch>,
    output: Output,
    posted: Vec<Posted>,
    /// The objective as FlatZinc states it (it may be a constant).
    objective: Option<Elem>,
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

    /// How many constraints the FlatZinc model states.
    pub fn num_flatzinc_constraints(&self) -> usize {
        self.posted.len()
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
        for posted in &self.posted {
            let vals: Vec<Val<'_>> = posted
                .args
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
    symbols: HashMap<&'a str, Symbol>,
    constants: HashMap<i64, VarId>,
    bounds: Vec<(i64, i64)>,
    output: Output,
    posted: Vec<Posted>,
}

/// Compiles parsed FlatZinc into a [`Compiled`] model.
pub fn compile_parsed(fzn: &FlatZinc<'_>) -> Result<Compiled, Error> {
    let mut compiler = Compiler {
        builder: ModelBuilder::new(),
        symbols: HashMap::with_capacity(fzn.decls.len()),
        constants: HashMap::new(),
        bounds: Vec::with_capacity(fzn.decls.len()),
        output: Output::default(),
        posted: Vec::with_capacity(fzn.constraints.len()),
    };
    for decl in &fzn.decls {
        compiler.decl(decl)?;
    }
    let table: HashMap<(&str, usize), &'static Builtin> =
        BUILTINS.iter().map(|b| ((b.name, b.arity), b)).collect();
    for item in &fzn.constraints {
        compiler.constraint(item, &table)?;
    }
    let line = fzn.solve.pos.line;
    let objective = match &fzn.solve.goal {
        Goal::Satisfy => None,
        Goal::Minimize(e) | Goal::Maximize(e) => Some(compiler.scalar(e, line)?),
    };
    if let Some(elem) = objective {
        let var = compiler.poster(line).var(elem)?;
        let result = match fzn.solve.goal {
            Goal::Minimize(_) => compiler.builder.minimize(var),
            _ => compiler.builder.maximize(var),
        };
        result.map_err(|e| Error::invalid(line, e.to_string()))?;
    }
    let searches = crate::search::searches(&fzn.solve.annotations, line, &|e| match compiler
        .arg(e, line)?
    {
        Arg::Array(elems) => Ok(elems),
        Arg::Elem(elem) => Ok(vec![elem]),
        _ => Err(Error::invalid(
            line,
            "a search's variables must be an array",
        )),
    })?;
    let model = compiler.builder.build();
    debug_assert_eq!(model.objective().var().is_some(), objective.is_some());
    Ok(Compiled {
        model,
        searches,
        output: compiler.output,
        posted: compiler.posted,
        objective,
    })
}

impl<'a> Compiler<'a> {
    fn poster(&mut self, line: u32) -> Poster<'_> {
        Poster {
            builder: &mut self.builder,
            constants: &mut self.constants,
            bounds: &mut self.bounds,
            line,
        }
    }

    fn lookup(&self, name: &str, line: u32) -> Result<&Symbol, Error> {
        self.symbols
            .get(name)
            .ok_or_else(|| Error::invalid(line, format!("unknown name `{name}`")))
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
        let float = || Error::Unsupported {
            line,
            what: "float values".to_owned(),
        };
        Ok(match expr {
            Expr::Int(value) => Arg::Elem(Elem::Const(*value)),
            Expr::Bool(value) => Arg::Elem(Elem::Const(i64::from(*value))),
            Expr::Set(set) => Arg::Set(set.clone()),
            Expr::Float(_) | Expr::FloatRange(..) => return Err(float()),
            Expr::Ident(name) => match self.lookup(name, line)? {
                Symbol::Elem(elem) => Arg::Elem(*elem),
                Symbol::Array(elems) => Arg::Array(elems.clone()),
                Symbol::Set(set) => Arg::Set(set.clone()),
                Symbol::SetArray(sets) => Arg::SetArray(sets.clone()),
                Symbol::Float => return Err(float()),
            },
            Expr::Access(name, index) => {
                let element = |len: usize| {
                    usize::try_from(index - 1).ok().filter(|&k| k < len).ok_or_else(|| {
                        Error::invalid(line, format!("index {index} is outside `{name}`"))
                    })
                };
                match self.lookup(name, line)? {
                    Symbol::Array(elems) => Arg::Elem(elems[element(elems.len())?]),
                    Symbol::SetArray(sets) => Arg::Set(sets[element(sets.len())?].clone()),
                    _ => return Err(Error::invalid(line, format!("`{name}` is not an array"))),
                }
            }
            Expr::Array(items) => {
                if items.iter().any(|item| matches!(item, Expr::Set(_)))
                    || items.iter().any(|item| {
                        matches!(item, Expr::Ident(n) if matches!(self.symbols.get(n), Some(Symbol::Set(_))))
                    })
                {
                    let sets = items
                        .iter()
                        .map(|item| match self.arg(item, line)? {
                            Arg::Set(set) => Ok(set),
                            _ => Err(Error::invalid(line, "an array mixes sets and integers")),
                        })
                        .collect::<Result<_, _>>()?;
                    Arg::SetArray(sets)
                } else {
                    Arg::Array(
                        items
                            .iter()
                            .map(|item| self.scalar(item, line))
                            .collect::<Result<_, _>>()?,
                    )
                }
            }
            Expr::Str(_) | Expr::Call(..) => {
                return Err(Error::invalid(line, "expected a value, found an annotation"));
            }
        })
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
        let symbol = match (decl.ty.array, decl.ty.var) {
            (_, false) => self.parameter(decl)?,
            (None, true) => {
                let elem = match &decl.value {
                    Some(value) => {
                        let elem = self.scalar(value, line)?;
                        self.restrict(elem, &decl.ty.domain, line)?;
                        elem
                    }
                    None => Elem::Var(self.new_var(decl.name, &decl.ty.domain, line)?),
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
                        for &elem in &elems {
                            self.restrict(elem, &decl.ty.domain, line)?;
                        }
                        elems
                    }
                    None => {
                        let mut elems = Vec::new();
                        for i in lo..=hi {
                            let name = format!("{}[{i}]", decl.name);
                            elems.push(Elem::Var(self.new_var(&name, &decl.ty.domain, line)?));
                        }
                        elems
                    }
                };
                let expected = if hi >= lo { hi - lo + 1 } else { 0 };
                if elems.len() as i64 != expected {
                    return Err(Error::invalid(
                        line,
                        format!(
                            "`{}` is declared with {expected} elements but given {}",
                            decl.name,
                            elems.len()
                        ),
                    ));
                }
                if let Some(dims) = output_dims(&decl.annotations, line)? {
                    self.output.items.push(OutputItem {
                        name: decl.name.to_owned(),
                        boolean: decl.ty.domain == Domain::Bool,
                        kind: OutputKind::Array {
                            dims,
                            elems: elems.clone(),
                        },
                    });
                }
                Symbol::Array(elems)
            }
        };
        self.symbols.insert(decl.name, symbol);
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
            Domain::Int => (
                self.builder.int_var(name, i32::MIN..=i32::MAX),
                (i64::from(i32::MIN), i64::from(i32::MAX)),
            ),
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

    fn constraint(
        &mut self,
        item: &ConstraintItem<'a>,
        table: &HashMap<(&str, usize), &'static Builtin>,
    ) -> Result<(), Error> {
        let line = item.pos.line;
        let builtin = table
            .get(&(item.name, item.args.len()))
            .copied()
            .ok_or_else(|| Error::UnsupportedConstraint {
                line,
                name: item.name.to_owned(),
            })?;
        let args: Vec<Arg> = item
            .args
            .iter()
            .map(|arg| self.arg(arg, line))
            .collect::<Result<_, _>>()?;
        (builtin.post)(&mut self.poster(line), &args)?;
        self.posted.push(Posted {
            builtin,
            args,
            line,
        });
        Ok(())
    }
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
