//! The solve item's search annotations as the engine's searches: `int_search` and `bool_search`
//! become an [`IntSearch`] each, `seq_search` lists them in order.

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

/// Turns the solve annotations into searches, resolving each variable array with `resolve` (which
/// gives an array literal's or a name's elements). Constants in a search's array are skipped.
pub(crate) fn searches<'a>(
    annotations: &[Expr<'a>],
    line: u32,
    resolve: &dyn Fn(&Expr<'a>) -> Result<Vec<Elem>, Error>,
) -> Result<Vec<IntSearch>, Error> {
    let mut out = Vec::new();
    for annotation in annotations {
        collect(annotation, line, resolve, &mut out)?;
    }
    Ok(out)
}

fn collect<'a>(
    annotation: &Expr<'a>,
    line: u32,
    resolve: &dyn Fn(&Expr<'a>) -> Result<Vec<Elem>, Error>,
    out: &mut Vec<IntSearch>,
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
            let unsupported = |what: String| Error::Unsupported { line, what };
            let atom = |e: &Expr<'_>| match e {
                Expr::Ident(atom) => Ok(atom.to_string()),
                _ => Err(Error::invalid(
                    line,
                    format!("{name}: expected a selection name"),
                )),
            };
            let variable: VariableSelection =
                atom(variable)?.parse().map_err(|e: ParseSelectionError| {
                    unsupported(format!("{} `{}`", e.kind, e.name))
                })?;
            let value: ValueSelection =
                atom(value)?.parse().map_err(|e: ParseSelectionError| {
                    unsupported(format!("{} `{}`", e.kind, e.name))
                })?;
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
                    collect(item, line, resolve, out)?;
                }
                Ok(())
            }
            _ => Err(Error::invalid(
                line,
                "seq_search takes an array of searches",
            )),
        },
        name if IGNORED.contains(&name) => Ok(()),
        name => Err(Error::Unsupported {
            line,
            what: format!("search annotation `{name}`"),
        }),
    }
}
