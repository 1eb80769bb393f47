//! The solve item's search annotations as the engine's searches: `int_search` and `bool_search`
//! become an [`IntSearch`] each, `seq_search` lists them in order. What the engine cannot honour is
//! left out with a warning, as MiniZinc solvers do, and the rest of the search is as annotated.

use csp_search::branch::ParseSelectionError;
use csp_search::{IntSearch, ValueSelection, VariableSelection};

use crate::Elem;
use crate::ast::Expr;
use crate::error::Error;

/// Annotations of the solve item that change nothing the engine must honour: a warm start only
/// suggests values, restart and relaxation annotations tune a search that stays complete without them.
const IGNORED: &[&str] = &[
    "warm_start",
    "warm_start_array",
    "warm_start_bool",
    "warm_start_int",
    "restart_none",
    "restart_constant",
    "restart_linear",
    "restart_geometric",
    "restart_luby",
    "restart_on_solution",
    "relax_and_reconstruct",
];

/// What the engine does in place of an annotation's unknown variable selection: its free search's.
const FALLBACK_VARIABLE: VariableSelection = VariableSelection::DomWDeg;

/// What the engine does in place of an annotation's unknown value selection.
const FALLBACK_VALUE: ValueSelection = ValueSelection::Min;

/// Turns the solve annotations into searches, resolving each variable array with `resolve` (which
/// gives an array literal's or a name's elements). Constants in a search's array are skipped. An
/// annotation the engine does not know (`float_search`, `set_search`, a solver's own) is left out, and
/// an unknown selection replaced by the free search's, each with a warning in `warnings`.
pub(crate) fn searches<'a>(
    annotations: &[Expr<'a>],
    line: u32,
    resolve: &dyn Fn(&Expr<'a>) -> Result<Vec<Elem>, Error>,
    warnings: &mut Vec<Warning>,
) -> Result<Vec<IntSearch>, Error> {
    let mut out = Vec::new();
    for annotation in annotations {
        collect(annotation, line, resolve, &mut out, warnings)?;
    }
    Ok(out)
}

fn collect<'a>(
    annotation: &Expr<'a>,
    line: u32,
    resolve: &dyn Fn(&Expr<'a>) -> Result<Vec<Elem>, Error>,
    out: &mut Vec<IntSearch>,
    warnings: &mut Vec<Warning>,
) -> Result<(), Error> {
    let (name, args): (&str, &[Expr<'a>]) = match annotation {
        Expr::Call(name, args) => (name, args),
        Expr::Ident(name) => (name, &[]),
        _ => {
            return Err(Error::invalid(
                line,
                "a solve annotation must be a name or a call",
            ));
        }
    };
    match name {
        "int_search" | "bool_search" => {
            let [vars, variable, value, ..] = args else {
                return Err(Error::invalid(
                    line,
                    format!("{name} takes variables, a variable selection and a value selection"),
                ));
            };
            let atom = |e: &Expr<'_>| match e {
                Expr::Ident(atom) => Ok(atom.to_string()),
                _ => Err(Error::invalid(
                    line,
                    format!("{name}: expected a selection name"),
                )),
            };
            let mut unknown = |error: ParseSelectionError, instead: &str| {
                warnings.push(Warning {
                    line,
                    message: format!("{name}: {error}, searching by {instead} instead"),
                });
            };
            let variable = atom(variable)?.parse().unwrap_or_else(|error| {
                unknown(error, FALLBACK_VARIABLE.name());
                FALLBACK_VARIABLE
            });
            let value = atom(value)?.parse().unwrap_or_else(|error| {
                unknown(error, FALLBACK_VALUE.name());
                FALLBACK_VALUE
            });
            let vars = resolve(vars)?
                .into_iter()
                .filter_map(|elem| match elem {
                    Elem::Var(var) => Some(var),
                    Elem::Const(_) => None,
                })
                .collect();
            out.push(IntSearch::new(vars, variable, value));
            Ok(())
        }
        "seq_search" => match args {
            [Expr::Array(items)] => {
                for item in items {
                    collect(item, line, resolve, out, warnings)?;
                }
                Ok(())
            }
            _ => Err(Error::invalid(
                line,
                "seq_search takes an array of searches",
            )),
        },
        name if IGNORED.contains(&name) => Ok(()),
        name => {
            warnings.push(Warning {
                line,
                message: format!("search annotation `{name}` is not supported, and left out"),
            });
            Ok(())
        }
    }
}

/// Something in a model the engine leaves out or does differently, with its line: the model is
/// still solved, and the caller says so (`fzn-csp` on stderr).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Warning {
    /// 1-based line of the statement.
    pub line: u32,
    /// What is left out or done instead.
    pub message: String,
}

impl std::fmt::Display for Warning {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "line {}: {}", self.line, self.message)
    }
}
