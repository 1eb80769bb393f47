//! The knight-walk and Chandra's regular solutions (Abramson & Yung §2,
//! *Divide and Conquer under Global Constraints*, 1989).
//!
//! `P(i) = a·i + b mod n` places one superqueen in every row, column and wrapped diagonal of the
//! toroidal board exactly when `a`, `a − 1` and `a + 1` are all coprime to `n`: the columns are
//! `a·i`, the wrapped down-diagonals `(a − 1)·i` and the wrapped up-diagonals `(a + 1)·i`, each a
//! permutation of the residues exactly when its factor is a unit mod n. The knight-walk is `a = 2`,
//! `b = 0`, which needs `n` coprime to 6 (Pólya's condition). A toroidal solution solves the planar
//! board too, since every planar diagonal lies in one wrapped diagonal.

use super::{ConstructError, Construction, Method, Recipe, build, check_size, coprime_to_6, gcd};

/// How messages name [`regular`].
const REGULAR: &str = "a regular solution";

/// The knight-walk `P(i) = 2i mod n` for `n` coprime to 6 (`n = 1` included): one row down and two
/// columns across from the top-left corner, wrapping round the board once. The placement is a
/// toroidal solution ([`super::verify_torus`]) with a queen in the top-left corner.
pub fn knight_walk(n: usize) -> Result<Construction, ConstructError> {
    if n == 0 {
        return Err(ConstructError::ZeroSize);
    }
    if !coprime_to_6(n) {
        return Err(ConstructError::out_of_scope(Method::KnightWalk, n));
    }
    Ok(Construction {
        placement: knight_walk_placement(n)?,
        recipe: Recipe::KnightWalk { n },
    })
}

/// The knight-walk's columns, for the constructions that build on it; `n` must be coprime to 6.
pub(crate) fn knight_walk_placement(n: usize) -> Result<Vec<u32>, ConstructError> {
    build(n, Method::KnightWalk.name(), |row| {
        knight_walk_column(n, row)
    })
}

/// Row `row`'s column in the `n`-knight-walk. `2·row` is at most `2^31` for the boards that can be
/// built, and is taken in u64 so that it cannot overflow whatever the caller passes.
#[inline]
pub(crate) fn knight_walk_column(n: usize, row: usize) -> u32 {
    (2 * row as u64 % n as u64) as u32
}

/// The `(n + 1)`-knight-walk with its corner queen removed (§2), for `n + 1` coprime to 6, computed
/// row by row as `P'(i) = P(i + 1) − 1` so that the larger board is never built. Only row 0 of the
/// walk is in column 0, so the subtraction never wraps.
pub(crate) fn knight_walk_minus_corner(
    n: usize,
    construction: &'static str,
) -> Result<Vec<u32>, ConstructError> {
    build(n, construction, |row| {
        knight_walk_column(n + 1, row + 1) - 1
    })
}

/// Chandra's regular solution `P(i) = a·i + b mod n` (Abramson & Yung §2). `a` and `b` are taken mod
/// n; the slope must leave `a`, `a − 1` and `a + 1` coprime to `n`, which needs `n` coprime to 6. The
/// placement is a toroidal solution.
///
/// ```
/// use nqueens_model::construct::regular;
///
/// let walk = regular(7, 3, 1).unwrap();
/// assert_eq!(walk.placement, [1, 4, 0, 3, 6, 2, 5]);
/// assert!(regular(7, 4, 0).is_ok());
/// assert_eq!(
///     regular(9, 2, 0).unwrap_err().to_string(),
///     "P(i) = 2i + 0 mod 9 is not a regular solution: a, a − 1 and a + 1 must all be coprime to n, \
///      but gcd(3, 9) = 3"
/// );
/// ```
pub fn regular(n: usize, a: usize, b: usize) -> Result<Construction, ConstructError> {
    // The size check comes first: it also keeps `a + n − 1` below from overflowing.
    check_size(n, REGULAR)?;
    let (a, b) = (a % n, b % n);
    // a − 1 and a + 1 taken mod n: gcd(x mod n, n) = gcd(x, n), and a − 1 must not underflow.
    for factor in [a, (a + n - 1) % n, (a + 1) % n] {
        let common = gcd(factor, n);
        if common != 1 {
            return Err(ConstructError::InvalidParameters(format!(
                "P(i) = {a}i + {b} mod {n} is not a regular solution: a, a − 1 and a + 1 must all be \
                 coprime to n, but gcd({factor}, {n}) = {common}"
            )));
        }
    }
    let placement = build(n, REGULAR, |row| {
        // Both products are below n² ≤ 2^60 for boards that fit the memory budget.
        ((a as u64 * row as u64 + b as u64) % n as u64) as u32
    })?;
    Ok(Construction {
        placement,
        recipe: Recipe::Regular { n, a, b },
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn knight_walk_of_5_matches_the_paper() {
        assert_eq!(knight_walk(5).unwrap().placement, [0, 2, 4, 1, 3]);
        assert_eq!(knight_walk(1).unwrap().placement, [0]);
    }

    #[test]
    fn regular_with_slope_2_is_the_knight_walk() {
        for n in [1, 5, 7, 11, 25, 35] {
            assert_eq!(
                regular(n, 2, 0).unwrap().placement,
                knight_walk(n).unwrap().placement
            );
        }
    }

    #[test]
    fn refusals_name_the_condition() {
        assert_eq!(knight_walk(0).unwrap_err(), ConstructError::ZeroSize);
        assert!(matches!(
            knight_walk(9).unwrap_err(),
            ConstructError::OutOfScope {
                construction: "knight-walk",
                n: 9,
                ..
            }
        ));
        assert!(matches!(
            regular(5, 1, 0).unwrap_err(),
            ConstructError::InvalidParameters(_)
        ));
    }
}
