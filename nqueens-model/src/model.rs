//! Building the N-queens model, and the size limits that keep it within memory.

use csp_core::{Model, ModelBuilder, ModelError, ModelSize, VarId, constraints::NotEqual};
use csp_search::{SearchConfig, SearchDefaults};
use thiserror::Error;

use crate::{Encoding, MAX_BOARD_SIZE, QueensConstraint};

/// The memory a model and one search store may take together: 4 GiB. [`max_n`] is the largest board
/// whose [`estimated_model_bytes`] stays within it.
pub const MEMORY_BUDGET_BYTES: u64 = 4 << 30;

/// Why [`model`] refused to build a board.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum QueensError {
    /// A board needs at least one row.
    #[error("n must be at least 1")]
    ZeroSize,
    /// The board's model would not fit the memory budget; see [`max_n`].
    #[error(
        "n = {n} is too large for the {encoding} encoding: the maximum is {max} (a search could need {}, the budget is 4 GiB)",
        describe_bytes(*estimated_bytes)
    )]
    TooLarge {
        /// The size that was asked for.
        n: usize,
        /// The encoding that was asked for.
        encoding: Encoding,
        /// The largest size the encoding accepts, [`max_n`].
        max: usize,
        /// [`estimated_model_bytes`] for the size that was asked for.
        estimated_bytes: u64,
    },
    /// The board's local-search model would not fit the memory budget; see [`local_search_max_n`].
    #[error(
        "n = {n} is too large for local search: the maximum is {max} (it would need {}, the budget is 4 GiB)",
        describe_bytes(*estimated_bytes)
    )]
    TooLargeForLocalSearch {
        /// The size that was asked for.
        n: usize,
        /// The largest size accepted, [`local_search_max_n`].
        max: usize,
        /// The estimated bytes for the size that was asked for.
        estimated_bytes: u64,
    },
    /// The engine refused the model. [`model`] checks the size first, so this means a bug in this crate;
    /// it is reported rather than panicking.
    #[error("the engine refused the N-queens model: {0}")]
    Model(#[from] ModelError),
}

/// An estimate for a message: "about N MiB", or "more than 16 EiB" once it saturated.
fn describe_bytes(bytes: u64) -> String {
    if bytes == u64::MAX {
        "more than 16 EiB".to_owned()
    } else {
        format!("about {} MiB", bytes >> 20)
    }
}

/// The N-queens model: one variable per row, declared first and in row order (so
/// [`VarId::index`] is the row), named `q0`, `q1`, …, each with the columns `0..=n−1` as its domain.
///
/// With [`Encoding::Pairwise`] the model posts, for every pair of rows `i < j` and in this order,
/// `q_i != q_j`, `q_i + i != q_j + j` and `q_i − i != q_j − j`; with [`Encoding::Counters`] it posts a
/// single [`QueensConstraint`] over all rows. Boards with 2 or 3 rows are valid models with no solution.
///
/// The size is checked before anything is allocated: `n = 0` is [`QueensError::ZeroSize`], and an `n`
/// above [`max_n`] is [`QueensError::TooLarge`].
pub fn model(n: usize, encoding: Encoding) -> Result<Model, QueensError> {
    check_size(n, encoding)?;
    build(n, encoding)
}

/// Where the engine's search of an `n`-queens board starts before a user's choices are put in
/// ([`csp_search::SearchChoices`]): the fast preset ([`SearchConfig::fast_preset`]) while no
/// strategy is chosen, and Stone & Stone's MIN (low ties, ascending values, forward checking, no
/// restarts) once one is, so that each choice keeps the papers' meaning for the rest.
pub fn search_defaults(n: usize) -> SearchDefaults {
    let preset = SearchConfig::fast_preset(n);
    let restart_base = preset.restarts.map_or(0, |restarts| restarts.base_nodes);
    SearchDefaults {
        preset,
        chosen: SearchConfig::min(),
        restart_base,
    }
}

/// Bytes per row that a counters model and one local-search run over it take, at most: the row's name
/// (in the model and in the builder's name set), its whole-span domain (bounds only, no bits), its
/// constraint list and scope entry, its five local-search cells (8 bytes each), its value and tabu
/// entry, with allocator overhead and growth slack. Measured peak use for 10^6 rows is below this.
pub const LOCAL_SEARCH_BYTES_PER_ROW: u64 = 320;

/// The largest board [`local_search_model`] builds: the most rows whose
/// [`LOCAL_SEARCH_BYTES_PER_ROW`] fit in [`MEMORY_BUDGET_BYTES`] (13,421,772), and never more than
/// [`MAX_BOARD_SIZE`].
pub const fn local_search_max_n() -> usize {
    let by_memory = MEMORY_BUDGET_BYTES / LOCAL_SEARCH_BYTES_PER_ROW;
    if by_memory < MAX_BOARD_SIZE {
        by_memory as usize
    } else {
        MAX_BOARD_SIZE as usize
    }
}

/// The [`Encoding::Counters`] model sized for local search rather than for tree search.
///
/// The model is the same as [`model`]'s; only the size check differs. A tree search's store keeps a
/// bit per square and its trail may record every square, so [`max_n`] stops at 16,245 rows. Local
/// search keeps one complete assignment and the constraint's O(n) counters, and a whole-span domain
/// stores no bits, so this accepts up to [`local_search_max_n`] rows. Do not run a tree search on a
/// model larger than [`max_n`]: its store would need O(n²) memory.
pub fn local_search_model(n: usize) -> Result<Model, QueensError> {
    if n == 0 {
        return Err(QueensError::ZeroSize);
    }
    let max = local_search_max_n();
    if n > max {
        return Err(QueensError::TooLargeForLocalSearch {
            n,
            max,
            estimated_bytes: (n as u64).saturating_mul(LOCAL_SEARCH_BYTES_PER_ROW),
        });
    }
    build(n, Encoding::Counters)
}

/// Builds the model; the caller has checked the size.
fn build(n: usize, encoding: Encoding) -> Result<Model, QueensError> {
    let mut builder = ModelBuilder::new();
    // `check_size` keeps n within MAX_BOARD_SIZE = 2^28, so rows and columns fit in i32.
    let last_column = (n - 1) as i32;
    let rows = (0..n)
        .map(|row| builder.int_var(format!("q{row}"), 0..=last_column))
        .collect::<Result<Vec<VarId>, ModelError>>()?;
    match encoding {
        Encoding::Pairwise => {
            for (i, &queen_i) in rows.iter().enumerate() {
                for (j, &queen_j) in rows.iter().enumerate().skip(i + 1) {
                    let (i, j) = (i as i32, j as i32);
                    builder.post(NotEqual::new(queen_i, queen_j))?;
                    builder.post(NotEqual::with_offsets(queen_i, i, queen_j, j))?;
                    builder.post(NotEqual::with_offsets(queen_i, -i, queen_j, -j))?;
                }
            }
        }
        Encoding::Counters => {
            builder.post(QueensConstraint::new(rows)?)?;
        }
    }
    Ok(builder.build())
}

/// Refuses a size before anything is allocated for it.
fn check_size(n: usize, encoding: Encoding) -> Result<(), QueensError> {
    if n == 0 {
        return Err(QueensError::ZeroSize);
    }
    let max = max_n(encoding);
    if n > max {
        return Err(QueensError::TooLarge {
            n,
            encoding,
            max,
            estimated_bytes: estimated_model_bytes(n, encoding),
        });
    }
    Ok(())
}

/// The largest board [`model`] builds for the encoding: the largest `n` whose
/// [`estimated_model_bytes`] is at most [`MEMORY_BUDGET_BYTES`] (4 GiB), and never more than
/// [`MAX_BOARD_SIZE`].
///
/// That is 5,176 for [`Encoding::Pairwise`], whose `3·n(n−1)/2` constraints cost about 96 bytes
/// each, and 16,245 for [`Encoding::Counters`], where forward checking's worst-case trail (16 bytes
/// per cell of the board) dominates.
pub const fn max_n(encoding: Encoding) -> usize {
    // A binary search for the last n within budget: the estimate grows with n.
    let (mut within, mut beyond) = (1_usize, MAX_BOARD_SIZE as usize + 1);
    while beyond - within > 1 {
        let middle = within + (beyond - within) / 2;
        if estimated_model_bytes(middle, encoding) <= MEMORY_BUDGET_BYTES {
            within = middle;
        } else {
            beyond = middle;
        }
    }
    within
}

/// Bytes per row that the queens model's constraints keep for it, beyond what csp-core counts: the
/// counters constraint's scope entry (4) and five state cells (8 each), 44, rounded up to 48. The
/// pairwise model is given the same allowance (its constraint lists are counted with its
/// constraints), so that the two estimates differ by exactly the pairwise constraints.
const QUEENS_BYTES_PER_ROW: u64 = 48;

/// An estimate, in bytes, of the memory an `n`-queens model and one search over it take together, at
/// worst: [`ModelSize::estimated_search_bytes`] of `n` rows over `n` columns, with 48 bytes a row
/// for the counters constraint's scope and cells and, for [`Encoding::Pairwise`], its `3·n(n−1)/2`
/// not-equal constraints.
///
/// The search's trail at its worst, forward checking removing each of the n² (row, column) cells once
/// along a path, dominates large boards; a check-past search needs far less. The result saturates at
/// `u64::MAX`, so any `n` may be asked about.
pub const fn estimated_model_bytes(n: usize, encoding: Encoding) -> u64 {
    let n = n as u64;
    let binary_constraints = match encoding {
        Encoding::Pairwise => (n.saturating_mul(n.saturating_sub(1)) / 2).saturating_mul(3),
        // One constraint; its scope and cells are counted per row.
        Encoding::Counters => 0,
    };
    ModelSize {
        variables: n,
        domain_width: n,
        binary_constraints,
        constraint_bytes_per_variable: QUEENS_BYTES_PER_ROW,
    }
    .estimated_search_bytes()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn max_n_is_the_last_size_within_the_memory_budget() {
        for encoding in Encoding::ALL {
            let max = max_n(encoding);
            assert!(estimated_model_bytes(max, encoding) <= MEMORY_BUDGET_BYTES);
            assert!(estimated_model_bytes(max + 1, encoding) > MEMORY_BUDGET_BYTES);
        }
    }

    #[test]
    fn max_n_matches_the_documented_numbers() {
        assert_eq!(max_n(Encoding::Pairwise), 5_176);
        assert_eq!(max_n(Encoding::Counters), 16_245);
    }

    #[test]
    fn estimate_grows_with_n_and_saturates() {
        for encoding in Encoding::ALL {
            let mut previous = 0;
            for n in (0..20_000).step_by(97) {
                let estimate = estimated_model_bytes(n, encoding);
                assert!(estimate >= previous, "{encoding} n = {n}");
                previous = estimate;
            }
            assert_eq!(estimated_model_bytes(usize::MAX, encoding), u64::MAX);
        }
        // The encodings differ by the pairwise constraints alone: 3·n(n−1)/2 of them at 96 bytes.
        assert_eq!(
            estimated_model_bytes(1000, Encoding::Pairwise)
                - estimated_model_bytes(1000, Encoding::Counters),
            3 * 1000 * 999 / 2 * 96
        );
    }

    #[test]
    fn zero_queens_is_refused() {
        for encoding in Encoding::ALL {
            assert_eq!(model(0, encoding).unwrap_err(), QueensError::ZeroSize);
        }
        assert_eq!(QueensError::ZeroSize.to_string(), "n must be at least 1");
    }

    #[test]
    fn one_past_max_n_is_refused_before_any_allocation() {
        for encoding in Encoding::ALL {
            let max = max_n(encoding);
            // usize::MAX could not be allocated at all: getting an error back shows nothing was tried.
            for n in [max + 1, usize::MAX] {
                let error = model(n, encoding).unwrap_err();
                assert_eq!(
                    error,
                    QueensError::TooLarge {
                        n,
                        encoding,
                        max,
                        estimated_bytes: estimated_model_bytes(n, encoding),
                    }
                );
                let message = error.to_string();
                assert!(!message.contains('\n'), "{message}");
                assert!(
                    message.contains(&format!("the maximum is {max}")),
                    "{message}"
                );
            }
        }
    }

    #[test]
    fn one_queen_is_a_model_with_one_variable() {
        for encoding in Encoding::ALL {
            let model = model(1, encoding).expect("one queen fits");
            assert_eq!(model.num_vars(), 1);
            assert_eq!(model.name(VarId::from_index(0)), "q0");
            assert_eq!(model.initial_domain(VarId::from_index(0)).size(), 1);
            assert!(model.is_solution(&[0]));
        }
        assert_eq!(model(1, Encoding::Pairwise).unwrap().num_constraints(), 0);
        assert_eq!(model(1, Encoding::Counters).unwrap().num_constraints(), 1);
    }

    #[test]
    fn variables_are_rows_in_order_with_every_column() {
        for encoding in Encoding::ALL {
            let model = model(5, encoding).expect("five queens fit");
            assert_eq!(model.num_vars(), 5);
            for (row, var) in model.vars().enumerate() {
                assert_eq!(var.index(), row);
                assert_eq!(model.name(var), format!("q{row}"));
                assert_eq!(
                    model.initial_domain(var).values().collect::<Vec<_>>(),
                    vec![0, 1, 2, 3, 4]
                );
            }
        }
    }

    #[test]
    fn pairwise_posts_three_constraints_per_pair_in_order() {
        let n = 6;
        let model = model(n, Encoding::Pairwise).expect("six queens fit");
        assert_eq!(model.num_constraints(), 3 * n * (n - 1) / 2);
        let mut ids = model.constraint_ids();
        for i in 0..n {
            for j in i + 1..n {
                let (a, b) = (i as i32, j as i32);
                // The column, up-diagonal and down-diagonal constraints, as `q_i + a != q_j + b`.
                for (offset_i, offset_j) in [(0, 0), (a, b), (-a, -b)] {
                    let id = ids.next().expect("a constraint for every pair and line");
                    let constraint = model.constraint(id);
                    assert_eq!(
                        constraint.scope(),
                        [VarId::from_index(i), VarId::from_index(j)]
                    );
                    // Judge the relation by its checker on every pair of columns, so the test does
                    // not depend on how `NotEqual` stores its offsets.
                    for x in 0..n as i32 {
                        for y in 0..n as i32 {
                            assert_eq!(
                                constraint.is_satisfied(&[x, y]),
                                x + offset_i != y + offset_j,
                                "rows {i} and {j}, columns {x} and {y}, {constraint:?}"
                            );
                        }
                    }
                }
            }
        }
        assert!(ids.next().is_none());
    }

    #[test]
    fn counters_posts_one_queens_constraint_over_all_rows() {
        let model = model(7, Encoding::Counters).expect("seven queens fit");
        assert_eq!(model.num_constraints(), 1);
        let id = model.constraint_ids().next().expect("one constraint");
        let rows: Vec<VarId> = model.vars().collect();
        assert_eq!(model.constraint(id).scope(), rows.as_slice());
    }

    #[test]
    fn two_and_three_queens_are_models_without_solutions() {
        for encoding in Encoding::ALL {
            for n in [2, 3] {
                let model = model(n, encoding).expect("small boards fit");
                let every_assignment = (0..n.pow(n as u32)).map(|code| {
                    (0..n)
                        .map(|row| (code / n.pow(row as u32) % n) as i32)
                        .collect::<Vec<_>>()
                });
                assert!(
                    every_assignment
                        .clone()
                        .all(|values| !model.is_solution(&values)),
                    "{encoding} n = {n}"
                );
            }
        }
    }
}
