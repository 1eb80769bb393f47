//! Abramson & Yung's whole scheme (*Divide and Conquer under Global Constraints*, 1989, §2–§4 and
//! Theorem 2): the right construction for every `n` that has a solution.

use super::knight_walk::knight_walk_minus_corner;
use super::{
    ConstructError, Construction, Method, Recipe, TABLE_SIZES, check_size, coprime_to_6, general,
    knight_walk, table,
};

/// A solution for any `n = 1` or `n ≥ 4` by Abramson & Yung's scheme; the [`Recipe`] says which branch
/// built it:
///
/// | `n` | branch | source |
/// | --- | --- | --- |
/// | coprime to 6 (`n mod 6 ∈ {1, 5}`) | [`Recipe::KnightWalk`] | §2 |
/// | 8, 9, 14, 15, 26, 27, 38, 39 | [`Recipe::Table`], found by the engine | §4, Theorem 2 |
/// | `n mod 6 ∈ {0, 4}` | [`Recipe::CornerRemoval`] of the `(n + 1)`-knight-walk | §2 |
/// | `n mod 6 = 3` | [`Recipe::General`] with Lemma 5's `a = 5` | §4, Lemmas 3–5 |
/// | `n mod 6 = 2` | [`Recipe::CornerRemoval`] of the general solution on `n + 1` | §4 |
///
/// `n = 2` and `n = 3` have no solution and are refused.
pub fn abramson_yung(n: usize) -> Result<Construction, ConstructError> {
    if n == 0 {
        return Err(ConstructError::ZeroSize);
    }
    if !Method::AbramsonYung.covers(n) {
        return Err(ConstructError::out_of_scope(Method::AbramsonYung, n));
    }
    check_size(n, Method::AbramsonYung.name())?;
    if coprime_to_6(n) {
        return knight_walk(n);
    }
    if TABLE_SIZES.contains(&n) {
        return table(n);
    }
    match n % 6 {
        0 | 4 => Ok(Construction {
            placement: knight_walk_minus_corner(n, Method::AbramsonYung.name())?,
            recipe: Recipe::CornerRemoval(Box::new(Recipe::KnightWalk { n: n + 1 })),
        }),
        // n mod 6 ∈ {2, 3} outside the table: exactly the general scheme's scope.
        _ => general(n),
    }
}
