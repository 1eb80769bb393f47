//! The table that completes Abramson & Yung's scheme (§4, Theorem 2,
//! *Divide and Conquer under Global Constraints*, 1989): "the others can be looked up in a table".
//!
//! The general scheme misses 9, 15, 27 and 39 (Lemma 5), and with them the even boards 8, 14, 26 and 38
//! that corner removal would have made from them. The paper gives no table; here each entry is found
//! at run time by the engine's own search, never typed in, and kept for the life of the process.

use std::ops::ControlFlow;
use std::sync::OnceLock;

use csp_search::{FnObserver, SearchConfig, SearchEvent, solve};

use super::{ConstructError, Construction, Recipe};
use crate::{Encoding, model, verify};

/// The board sizes of the table: the sizes other than 2 and 3 that Theorem 2 leaves out.
pub const TABLE_SIZES: [usize; 8] = [8, 9, 14, 15, 26, 27, 38, 39];

/// How messages name the table.
const TABLE: &str = "the Abramson–Yung table";

/// One search per entry, at most, whichever thread asks first; the result (or the error) is kept.
static ENTRIES: [OnceLock<Result<Vec<u32>, ConstructError>>; TABLE_SIZES.len()] =
    [const { OnceLock::new() }; TABLE_SIZES.len()];

/// The table entry for `n` in [`TABLE_SIZES`]: the first solution of the engine's MIN search (fewest
/// choices, lowest-index ties, ascending values, forward checking) on the counters model, checked by
/// [`crate::verify`]. The first call for each `n` searches (a few hundred nodes at most); later calls
/// copy the kept placement.
pub fn table(n: usize) -> Result<Construction, ConstructError> {
    let Some(index) = TABLE_SIZES.iter().position(|&size| size == n) else {
        return Err(if n == 0 {
            ConstructError::ZeroSize
        } else {
            ConstructError::OutOfScope {
                construction: TABLE,
                needs: "n in 8, 9, 14, 15, 26, 27, 38, 39",
                n,
            }
        });
    };
    let placement = ENTRIES[index].get_or_init(|| search(n)).clone()?;
    Ok(Construction {
        placement,
        recipe: Recipe::Table { n },
    })
}

/// The engine's first MIN solution for `n`, verified.
fn search(n: usize) -> Result<Vec<u32>, ConstructError> {
    let model = model(n, Encoding::Counters)?;
    let mut found = None;
    let result = solve(
        &model,
        &SearchConfig::min(),
        FnObserver(|event: &SearchEvent<'_>| {
            if let SearchEvent::Solution { values, .. } = event {
                // Columns of a model built by `model` lie in 0..n, so they are non-negative.
                found = Some(values.iter().map(|&v| v as u32).collect::<Vec<u32>>());
            }
            ControlFlow::Continue(())
        }),
    );
    match found {
        Some(placement) if verify(&placement).is_ok() => Ok(placement),
        _ => Err(ConstructError::SearchFailed {
            n,
            outcome: result.outcome,
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_entry_is_found_and_kept() {
        for n in TABLE_SIZES {
            let first = table(n).unwrap();
            assert_eq!(first.placement.len(), n);
            assert_eq!(verify(&first.placement), Ok(()));
            assert_eq!(table(n).unwrap(), first, "the kept entry is returned again");
        }
        assert!(matches!(table(10), Err(ConstructError::OutOfScope { .. })));
        assert_eq!(table(0), Err(ConstructError::ZeroSize));
    }
}
