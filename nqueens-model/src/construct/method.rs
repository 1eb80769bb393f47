//! [`Method`]: the constructions by name, and the boards each covers.

use super::number::{coprime_to_6, smallest_factor};
use super::size::MAX_CONSTRUCT_N;

/// The odd trick is recommended below this `n` only: Stone & Stone ran it for even n below 30, where
/// LEX on n + 1 ends within seconds; above, LEX may not end in any reasonable time.
pub const ODD_TRICK_PRACTICAL_N: usize = 30;

/// The constructive methods, by the names the command line knows them by. Error messages list the
/// methods that cover a refused `n` ([`Method::covering`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Method {
    /// [`explicit`](super::explicit).
    Explicit,
    /// [`knight_walk`](super::knight_walk).
    KnightWalk,
    /// [`decomposition`](super::decomposition).
    Decomposition,
    /// [`abramson_yung`](super::abramson_yung).
    AbramsonYung,
    /// [`yaglom`](super::yaglom).
    Yaglom,
    /// [`odd_trick`](super::odd_trick).
    OddTrick,
}

impl Method {
    /// The method's scope, in words, as messages give it.
    pub const fn scope(self) -> &'static str {
        match self {
            Method::Explicit | Method::AbramsonYung | Method::Yaglom => "n = 1 or n ≥ 4",
            Method::KnightWalk => "n coprime to 6",
            Method::Decomposition => "n = a·b coprime to 6 with a, b ≥ 5",
            Method::OddTrick => "an even n ≥ 4",
        }
    }

    /// Whether `n` lies in the method's scope. Memory limits are not considered: an `n` in scope may
    /// still be refused as too large. The one exception is decomposition, whose scope takes factoring
    /// `n`: above [`MAX_CONSTRUCT_N`], where it could not build the board anyway, it is not asked, so
    /// that no question about a huge `n` costs seconds of trial division.
    pub fn covers(self, n: usize) -> bool {
        match self {
            Method::Explicit | Method::AbramsonYung | Method::Yaglom => n == 1 || n >= 4,
            Method::KnightWalk => coprime_to_6(n),
            Method::Decomposition => n <= MAX_CONSTRUCT_N && smallest_factor(n).is_some(),
            Method::OddTrick => n >= 4 && n.is_multiple_of(2),
        }
    }

    /// Whether the method answers `n` quickly: every construction does, in O(n); the odd trick runs
    /// LEX search on `n + 1`, whose first solution takes up to 1.5 million backtracks at n + 1 = 29
    /// (Stone & Stone's Table 2) and grows exponentially beyond, so it is practical below
    /// [`ODD_TRICK_PRACTICAL_N`] only. Messages recommend practical methods only.
    pub fn is_practical(self, n: usize) -> bool {
        match self {
            Method::OddTrick => n < ODD_TRICK_PRACTICAL_N,
            _ => true,
        }
    }

    /// The methods whose scope holds `n`, in [`Method::ALL`]'s order.
    pub fn covering(n: usize) -> Vec<Method> {
        Method::ALL
            .into_iter()
            .filter(|method| method.covers(n))
            .collect()
    }
}

named_enum!(
    Method,
    "method",
    [
        Explicit => "explicit",
        KnightWalk => "knight-walk",
        Decomposition => "decomposition",
        AbramsonYung => "abramson-yung",
        Yaglom => "yaglom",
        OddTrick => "odd-trick",
    ]
);
