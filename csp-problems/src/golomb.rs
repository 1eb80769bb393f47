//! Golomb rulers (CSPLib prob006): `m` marks `0 = a₁ < a₂ < … < aₘ` whose `m(m−1)/2` differences are
//! all different, as short as possible. The optimal lengths are OEIS A003022: 0, 1, 3, 6, 11, 17, 25,
//! 34, 44, 55, 72, …
//!
//! The model is the MiniZinc benchmark's ("ternary constraints and an all-different",
//! `shared/instances/minizinc/golomb/golomb.mzn`), so the two can be run side by side: each difference
//! is a variable tied to its marks by a linear equation, all differences are different, the first
//! difference is smaller than the last (symmetry), and the search is
//! `int_search(mark, input_order, indomain_min)` minimising the last mark, by branch and bound.

use csp_core::constraints::{AllDifferent, Linear, Relation};
use csp_core::{Model, ModelBuilder, ModelError, VarId};
use csp_search::{IntSearch, SearchConfig, ValueSelection, VariableSelection};

/// OEIS A003022: the length of an optimal Golomb ruler with `m` marks, indexed by `m` (index 0
/// unused): a published table to test against, never an input to the search.
pub const A003022: [i32; 12] = [0, 0, 1, 3, 6, 11, 17, 25, 34, 44, 55, 72];

/// The model with `m` marks over `0..=m²`, minimising the last mark, and its mark variables.
pub fn model(m: usize) -> Result<(Model, Vec<VarId>), ModelError> {
    if m == 0 {
        return Err(ModelError::InvalidConstraint {
            constraint: "golomb ruler".to_owned(),
            reason: "a ruler has at least one mark".to_owned(),
        });
    }
    let n = i32::try_from(m * m).map_err(|_| ModelError::InvalidConstraint {
        constraint: "golomb ruler".to_owned(),
        reason: format!("{m} marks need a span beyond i32"),
    })?;
    let mut builder = ModelBuilder::new();
    let marks: Vec<VarId> = (0..m)
        .map(|i| builder.int_var(format!("mark{}", i + 1), 0..=n))
        .collect::<Result<_, _>>()?;
    let mut differences = Vec::new();
    for i in 0..m {
        for j in i + 1..m {
            let d = builder.int_var(format!("d{}_{}", i + 1, j + 1), 0..=n)?;
            // d = mark[j] − mark[i]
            builder.post(Linear::new(
                vec![(1, d), (-1, marks[j]), (1, marks[i])],
                Relation::Equal,
                0,
            ))?;
            differences.push(d);
        }
    }
    builder.post(Linear::new(vec![(1, marks[0])], Relation::Equal, 0))?;
    for pair in marks.windows(2) {
        // mark[i] < mark[i + 1]
        builder.post(Linear::new(
            vec![(1, pair[0]), (-1, pair[1])],
            Relation::LessOrEqual,
            -1,
        ))?;
    }
    builder.post(AllDifferent::new(differences.clone()))?;
    if differences.len() > 1 {
        // Symmetry breaking: the first difference is smaller than the last.
        let (first, last) = (differences[0], differences[differences.len() - 1]);
        builder.post(Linear::new(
            vec![(1, first), (-1, last)],
            Relation::LessOrEqual,
            -1,
        ))?;
    }
    builder.minimize(marks[m - 1])?;
    Ok((builder.build(), marks))
}

/// The MiniZinc model's search: `int_search(mark, input_order, indomain_min)`.
pub fn config(marks: &[VarId]) -> SearchConfig {
    SearchConfig::decisions(vec![IntSearch::new(
        marks.to_vec(),
        VariableSelection::InputOrder,
        ValueSelection::Min,
    )])
}

/// Whether `ruler` is a Golomb ruler, by definition and independently of the model: it starts at 0,
/// increases, and its differences are all different.
pub fn is_ruler(ruler: &[i32]) -> bool {
    let mut differences: Vec<i64> = Vec::new();
    for (i, &a) in ruler.iter().enumerate() {
        for &b in &ruler[i + 1..] {
            differences.push(i64::from(b) - i64::from(a));
        }
    }
    let count = differences.len();
    differences.sort_unstable();
    differences.dedup();
    ruler.first() == Some(&0) && ruler.windows(2).all(|w| w[0] < w[1]) && differences.len() == count
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_checker_knows_a_ruler_from_a_non_ruler() {
        assert!(is_ruler(&[0, 1, 4, 9, 11]));
        assert!(!is_ruler(&[0, 1, 2, 4]), "1 occurs twice");
        assert!(!is_ruler(&[1, 2, 4]), "starts at 1");
        assert!(!is_ruler(&[0, 4, 1]), "not increasing");
        assert!(model(0).is_err());
    }
}
