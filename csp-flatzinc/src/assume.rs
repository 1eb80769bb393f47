//! Solving under assumptions, for the libraries above the FlatZinc front end (the Python
//! package's `Model.core`, CPMpy's `get_core`): the engine's learning search with the
//! assumptions as its first decisions, and, when they leave no solution, the core its final
//! conflict analysis names (MiniSat's `analyzeFinal`, Eén & Sörensson 2003; see
//! [`csp_search::Search::set_assumptions`]).

use std::time::Instant;

use csp_core::Literal;
use csp_search::{Outcome, Search};

use crate::Compiled;
use crate::plan::learning_config;
use crate::run::{RunError, RunOptions};

/// What a search under assumptions found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Assumed {
    /// A solution in which every assumption holds (`values[i]` for variable `i`), checked.
    Satisfiable(Vec<i32>),
    /// No solution holds every assumption: the positions, in `assumptions`, of those the final
    /// conflict rests on (in their order; empty when the model has no solution at all).
    Core(Vec<usize>),
    /// A limit or a stop came first.
    Unknown,
}

/// Searches `compiled` for one solution in which every literal of `assumptions` holds, with the
/// learning search `fzn-csp --learning on` runs, under `options`' seed, deadline and stop flag.
/// Under an objective, the first solution found answers.
pub fn assume(
    compiled: &Compiled,
    assumptions: &[Literal],
    options: &RunOptions,
) -> Result<Assumed, RunError> {
    let time = options
        .deadline
        .map(|deadline| deadline.saturating_duration_since(Instant::now()));
    let config = learning_config(compiled, options, time, false);
    let mut search = Search::new(compiled.model(), &config);
    search.set_assumptions(assumptions);
    if let Some(values) = search.next_solution(&mut ()) {
        compiled.verify(values).map_err(RunError::Verify)?;
        return Ok(Assumed::Satisfiable(values.to_vec()));
    }
    match (search.outcome(), search.core()) {
        (Some(Outcome::Exhausted), Some(core)) => {
            // Each literal of the core at its own position: a literal assumed twice is named once
            // per time the core holds it.
            let mut used = vec![false; assumptions.len()];
            let positions = core
                .iter()
                .filter_map(|literal| {
                    let at =
                        (0..assumptions.len()).find(|&i| !used[i] && assumptions[i] == *literal)?;
                    used[at] = true;
                    Some(at)
                })
                .collect();
            Ok(Assumed::Core(positions))
        }
        _ => Ok(Assumed::Unknown),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use csp_core::VarId;

    fn var(compiled: &Compiled, name: &str) -> VarId {
        compiled
            .output()
            .items
            .iter()
            .find_map(|item| match (&item.kind, item.name == name) {
                (crate::output::OutputKind::Scalar(crate::Elem::Var(v)), true) => Some(*v),
                _ => None,
            })
            .expect("an output variable")
    }

    #[test]
    fn a_core_names_the_assumptions_the_conflict_rests_on() {
        // a + b + c <= 1 over Booleans.
        let compiled = crate::compile(
            "var bool: a :: output_var;\nvar bool: b :: output_var;\nvar bool: c :: output_var;\n\
             constraint bool_lin_le([1, 1, 1], [a, b, c], 1);\nsolve satisfy;\n",
        )
        .unwrap();
        let [a, b, c] = ["a", "b", "c"].map(|n| var(&compiled, n));
        let options = RunOptions::default();
        let both = [Literal::eq(a, 1), Literal::eq(b, 0), Literal::eq(c, 1)];
        assert_eq!(
            assume(&compiled, &both, &options).unwrap(),
            Assumed::Core(vec![0, 2])
        );
        let one = [Literal::eq(a, 1), Literal::eq(b, 0)];
        let Assumed::Satisfiable(values) = assume(&compiled, &one, &options).unwrap() else {
            panic!("a = 1, b = 0 has a solution");
        };
        assert_eq!((values[a.index()], values[b.index()]), (1, 0));
    }
}
