//! The little number theory the constructions' scopes need.

/// The greatest common divisor.
pub(crate) const fn gcd(mut a: usize, mut b: usize) -> usize {
    while b != 0 {
        let remainder = a % b;
        a = b;
        b = remainder;
    }
    a
}

/// Whether `n` is divisible by neither 2 nor 3: the knight-walk's and Pólya's condition.
pub(crate) const fn coprime_to_6(n: usize) -> bool {
    gcd(n, 6) == 1
}

/// The smallest factor `a ≥ 5` of an `n` coprime to 6 with `n / a ≥ 5` too, if `n` has one: the
/// grid size [`decomposition`] uses. Trial division up to `√n` is O(√n), far below the O(n) of
/// building the placement.
pub(crate) fn smallest_factor(n: usize) -> Option<usize> {
    if !coprime_to_6(n) {
        return None;
    }
    let mut candidate = 5_usize;
    while candidate
        .checked_mul(candidate)
        .is_some_and(|square| square <= n)
    {
        if n.is_multiple_of(candidate) {
            return Some(candidate);
        }
        candidate += 2;
    }
    None
}
