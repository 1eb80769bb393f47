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
/// The model is the same as [`model`]'s; only the size check differs. A tree search's store that
/// trails removals keeps a bit per square and its trail may record every square, so [`max_n`] stops
/// at 16,245 rows (one that keeps the lines, [`search_model`], at 4,194,304). Local
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
    check_search_size(n, encoding, StoreLayout::Removals)
}

/// Refuses a size before anything is allocated for it, for a search whose store has `layout`.
fn check_search_size(n: usize, encoding: Encoding, layout: StoreLayout) -> Result<(), QueensError> {
    if n == 0 {
        return Err(QueensError::ZeroSize);
    }
    let max = search_max_n(encoding, layout);
    if n > max {
        return Err(QueensError::TooLarge {
            n,
            encoding,
            max,
            estimated_bytes: estimated_search_bytes(n, encoding, layout),
        });
    }
    Ok(())
}

/// How a search's store keeps the rows of an N-queens board, which decides the memory the search
/// takes: see [`estimated_search_bytes`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StoreLayout {
    /// Every row's domain of its own (a bit per square up to
    /// [`BITSET_MAX_SPAN`](csp_core::BITSET_MAX_SPAN) columns), pruned a value at a time with each
    /// removal trailed: what any search other than value enumeration under
    /// forward checking does, and the pairwise encoding always. Its worst-case trail is a removal per
    /// square of the board.
    Removals,
    /// The counters constraint kept by the store ([`csp_core::Store::keep_lines`]): a bit per
    /// occupied line and a size per row, with only the assignments trailed. Memory grows with `n`:
    /// the search's store leaves the rows' bit sets unmaterialised
    /// ([`csp_core::Store::new_for_kept_lines`]).
    KeptLines,
}

impl StoreLayout {
    /// The layout a search of `encoding` with `config` gets: [`StoreLayout::KeptLines`] for the
    /// counters encoding searched by value enumeration under forward checking without learning
    /// ([`SearchConfig::lets_store_keep_lines`]), [`StoreLayout::Removals`] otherwise.
    pub fn for_search(encoding: Encoding, config: &SearchConfig) -> Self {
        if encoding == Encoding::Counters && config.lets_store_keep_lines() {
            StoreLayout::KeptLines
        } else {
            StoreLayout::Removals
        }
    }
}

/// The N-queens model for a search whose store has `layout` ([`StoreLayout::for_search`]): the same
/// model as [`model`]'s, refused (before anything is allocated) only when
/// [`estimated_search_bytes`] for that layout exceeds [`MEMORY_BUDGET_BYTES`]. For
/// [`StoreLayout::Removals`] it is [`model`].
pub fn search_model(
    n: usize,
    encoding: Encoding,
    layout: StoreLayout,
) -> Result<Model, QueensError> {
    check_search_size(n, encoding, layout)?;
    build(n, encoding)
}

/// Bytes per row that a counters model and one search over it with [`StoreLayout::KeptLines`]
/// take (the rows' bit sets are never allocated): the model's row (its name in the model and the
/// builder's name set, its initial domain, its constraint list, the constraint's scope entry and
/// cells), the store's (header, representation, location, value, place in the list of unassigned
/// rows, pending events, the root's copy of header and representation), the search's path (a frame
/// and an assignment on the trail per level, with the vectors' growth slack), the variable
/// ordering's ties, and the solution copied out and verified. Measured with the command line's
/// `queens solve N --method search`: 10^5 rows peak at 76 MB (765 bytes a row) after a full
/// descent; 10^6 rows take 405 MB before the path grows, and the path about 320 bytes a level (as
/// at 10^5), so about 760 bytes a row in all.
pub const KEPT_LINES_BYTES_PER_ROW: u64 = 1024;

/// An estimate, in bytes, of the memory an `n`-queens model and one search over it take together
/// when the search's store has `layout`, at worst.
///
/// For [`StoreLayout::Removals`] (and for the pairwise encoding, which is never kept as lines) it is
/// [`estimated_model_bytes`], whose worst-case trail is a removal per square. For
/// [`StoreLayout::KeptLines`] it is [`KEPT_LINES_BYTES_PER_ROW`] a row: such a search's store
/// leaves the rows' bit sets unmaterialised ([`csp_core::Store::new_for_kept_lines`]), even on
/// boards of at most [`BITSET_MAX_SPAN`](csp_core::BITSET_MAX_SPAN) columns. The result saturates
/// at `u64::MAX`.
pub const fn estimated_search_bytes(n: usize, encoding: Encoding, layout: StoreLayout) -> u64 {
    match (encoding, layout) {
        (Encoding::Counters, StoreLayout::KeptLines) => {
            (n as u64).saturating_mul(KEPT_LINES_BYTES_PER_ROW)
        }
        _ => estimated_model_bytes(n, encoding),
    }
}

/// The largest board [`search_model`] builds for the encoding and layout: the largest `n` whose
/// [`estimated_search_bytes`] is at most [`MEMORY_BUDGET_BYTES`] (4 GiB), and never more than
/// [`MAX_BOARD_SIZE`]. For [`StoreLayout::Removals`] it is [`max_n`]; for the counters encoding
/// with [`StoreLayout::KeptLines`] it is 4,194,304.
pub const fn search_max_n(encoding: Encoding, layout: StoreLayout) -> usize {
    // A binary search for the last n within budget: the estimate grows with n.
    let (mut within, mut beyond) = (1_usize, MAX_BOARD_SIZE as usize + 1);
    while beyond - within > 1 {
        let middle = within + (beyond - within) / 2;
        if estimated_search_bytes(middle, encoding, layout) <= MEMORY_BUDGET_BYTES {
            within = middle;
        } else {
            beyond = middle;
        }
    }
    within
}

/// The largest board [`model`] builds for the encoding: the largest `n` whose
/// [`estimated_model_bytes`] is at most [`MEMORY_BUDGET_BYTES`] (4 GiB), and never more than
/// [`MAX_BOARD_SIZE`].
///
/// That is 5,176 for [`Encoding::Pairwise`], whose `3·n(n−1)/2` constraints cost about 96 bytes
/// each, and 16,245 for [`Encoding::Counters`], where forward checking's worst-case trail (16 bytes
/// per cell of the board) dominates.
pub const fn max_n(encoding: Encoding) -> usize {
    search_max_n(encoding, StoreLayout::Removals)
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
    fn value_enumeration_under_forward_checking_keeps_the_counters_lines() {
        use csp_search::Propagation;
        let kept = [SearchConfig::min(), SearchConfig::fast_preset(100)];
        for config in &kept {
            assert_eq!(
                StoreLayout::for_search(Encoding::Counters, config),
                StoreLayout::KeptLines
            );
            assert_eq!(
                StoreLayout::for_search(Encoding::Pairwise, config),
                StoreLayout::Removals
            );
        }
        let mac = SearchConfig {
            propagation: Propagation::Mac,
            ..SearchConfig::min()
        };
        for config in [mac, SearchConfig::lex(), SearchConfig::free()] {
            assert_eq!(
                StoreLayout::for_search(Encoding::Counters, &config),
                StoreLayout::Removals
            );
        }
    }

    #[test]
    fn kept_lines_grow_with_n_beyond_the_bit_sets() {
        let layout = StoreLayout::KeptLines;
        for encoding in Encoding::ALL {
            assert_eq!(
                search_max_n(encoding, StoreLayout::Removals),
                max_n(encoding)
            );
            let max = search_max_n(encoding, layout);
            assert!(estimated_search_bytes(max, encoding, layout) <= MEMORY_BUDGET_BYTES);
            assert!(estimated_search_bytes(max + 1, encoding, layout) > MEMORY_BUDGET_BYTES);
        }
        // The pairwise encoding is never kept as lines.
        assert_eq!(
            search_max_n(Encoding::Pairwise, layout),
            max_n(Encoding::Pairwise)
        );
        assert_eq!(search_max_n(Encoding::Counters, layout), 4_194_304);
        // The estimate is linear in n, within the bit sets' reach and past it.
        let wide = csp_core::BITSET_MAX_SPAN as usize + 1;
        assert_eq!(
            estimated_search_bytes(2 * 1000, Encoding::Counters, layout),
            2 * estimated_search_bytes(1000, Encoding::Counters, layout)
        );
        assert_eq!(
            estimated_search_bytes(2 * wide, Encoding::Counters, layout),
            2 * estimated_search_bytes(wide, Encoding::Counters, layout)
        );
        assert_eq!(
            estimated_search_bytes(usize::MAX, Encoding::Counters, layout),
            u64::MAX
        );
    }

    #[test]
    fn one_past_the_kept_lines_maximum_is_refused_before_any_allocation() {
        let (encoding, layout) = (Encoding::Counters, StoreLayout::KeptLines);
        let max = search_max_n(encoding, layout);
        // usize::MAX could not be allocated at all: getting an error back shows nothing was tried.
        for n in [max + 1, usize::MAX] {
            let error = search_model(n, encoding, layout).unwrap_err();
            assert_eq!(
                error,
                QueensError::TooLarge {
                    n,
                    encoding,
                    max,
                    estimated_bytes: estimated_search_bytes(n, encoding, layout),
                }
            );
            assert!(error.to_string().contains(&format!("the maximum is {max}")));
        }
        assert_eq!(
            search_model(0, encoding, layout).unwrap_err(),
            QueensError::ZeroSize
        );
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
