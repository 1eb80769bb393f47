//! `verify` against a naive quadratic checker: both must accept the same placements and report the same
//! first problem.

use nqueens_model::{AttackKind, VerifyError, verify};
use proptest::prelude::*;

/// The obvious O(n²) check: for each row in order, the first problem is its column off the board, or
/// else the earliest earlier queen that shares a line with it.
fn naive_verify(placement: &[u32]) -> Result<(), VerifyError> {
    let n = placement.len();
    for (second_row, &second_column) in placement.iter().enumerate() {
        if second_column as usize >= n {
            return Err(VerifyError::ColumnOutOfRange {
                row: second_row,
                column: second_column,
                n,
            });
        }
        for (first_row, &first_column) in placement[..second_row].iter().enumerate() {
            let (r1, c1, r2, c2) = (
                first_row as i64,
                i64::from(first_column),
                second_row as i64,
                i64::from(second_column),
            );
            let kind = if c1 == c2 {
                AttackKind::SameColumn
            } else if r1 + c1 == r2 + c2 {
                AttackKind::SameUpDiagonal
            } else if r1 - c1 == r2 - c2 {
                AttackKind::SameDownDiagonal
            } else {
                continue;
            };
            return Err(VerifyError::Attack {
                first_row,
                second_row,
                first_column,
                second_column,
                kind,
            });
        }
    }
    Ok(())
}

/// Random permutations of `0..n`: every column used once, so only diagonals can clash.
fn permutation() -> impl Strategy<Value = Vec<u32>> {
    (0_u32..=40).prop_flat_map(|n| Just((0..n).collect::<Vec<u32>>()).prop_shuffle())
}

/// Random arrays of columns, a few of them just off the board.
fn any_placement() -> impl Strategy<Value = Vec<u32>> {
    (0_u32..=40).prop_flat_map(|n| prop::collection::vec(0..n + 2, n as usize))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn verify_agrees_with_the_naive_checker_on_permutations(placement in permutation()) {
        prop_assert_eq!(verify(&placement), naive_verify(&placement));
    }

    #[test]
    fn verify_agrees_with_the_naive_checker_on_arbitrary_columns(placement in any_placement()) {
        prop_assert_eq!(verify(&placement), naive_verify(&placement));
    }

    #[test]
    fn verify_messages_are_one_line(placement in any_placement()) {
        if let Err(error) = verify(&placement) {
            prop_assert!(!error.to_string().contains('\n'));
        }
    }
}

#[test]
fn verify_agrees_with_the_naive_checker_on_every_small_board() {
    // Every array of columns 0..=n (one value past the board) for n up to 6: 7^6 = 117,649 placements.
    for n in 0..=6_u32 {
        let choices = n + 1;
        for code in 0..choices.pow(n) {
            let placement: Vec<u32> = (0..n)
                .map(|row| code / choices.pow(row) % choices)
                .collect();
            assert_eq!(
                verify(&placement),
                naive_verify(&placement),
                "{placement:?}"
            );
        }
    }
}

#[test]
fn verify_accepts_a_large_solution() {
    // The knight-walk P(i) = 2i mod n is a solution whenever gcd(n, 6) = 1 (Abramson & Yung,
    // *Divide and Conquer under Global Constraints*, 1989); 1,000,003 is odd and not a multiple of
    // 3.
    let n = 1_000_003_u32;
    let placement: Vec<u32> = (0..n)
        .map(|row| (2 * u64::from(row) % u64::from(n)) as u32)
        .collect();
    assert_eq!(verify(&placement), Ok(()));
    let mut broken = placement;
    broken.swap(10, 500_000);
    assert!(verify(&broken).is_err());
}
