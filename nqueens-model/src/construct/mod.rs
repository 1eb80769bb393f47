//! Constructive N-queens solvers: a placement computed in O(n), without search.
//!
//! | function | method | scope | source |
//! | --- | --- | --- | --- |
//! | [`explicit`], [`ExplicitColumns`] | `explicit` | n = 1, n ≥ 4 | Hoffman–Loessi–Moore / Bernhardsson, cited in *Las Vegas Does N-Queens* (2006) |
//! | [`knight_walk`], [`regular`] | `knight-walk` | n coprime to 6 | Abramson & Yung §2, *Divide and Conquer under Global Constraints* (1989) |
//! | [`decomposition`], [`decomposition_of`] | `decomposition` | n = a·b coprime to 6, a, b ≥ 5 | Abramson & Yung §3, Theorem 1 |
//! | [`general`], [`general_scheme`] | (part of `abramson-yung`) | n ≡ 2, 3 (mod 6) | Abramson & Yung §4, Lemmas 1–5 |
//! | [`table`] | (part of `abramson-yung`) | 8, 9, 14, 15, 26, 27, 38, 39 | Abramson & Yung §4, found by the engine |
//! | [`abramson_yung`] | `abramson-yung` | n = 1, n ≥ 4 | Abramson & Yung, Theorem 2 and the table |
//! | [`yaglom`] | `yaglom` | n = 1, n ≥ 4 | Abramson & Yung, appendix |
//! | [`odd_trick`] | `odd-trick` | even n ≥ 4 | Stone & Stone §3, *Efficient Search Techniques* (1987) |
//! | [`torus`], [`verify_torus`], [`torus_model`] | `--torus` | n coprime to 6 | Pólya; Abramson & Yung §2 |
//!
//! Every construction returns a [`Construction`]: the placement (`placement[row] = column`, 0-based)
//! and the [`Recipe`] that built it. An `n` outside a construction's scope is refused with a
//! [`ConstructError`] naming the [`Method`]s that do cover it; an `n` whose placement would not fit
//! [`crate::MEMORY_BUDGET_BYTES`] is refused before anything is allocated. [`remove_corner`] and
//! [`add_corner`] are the two board edits the papers build on.
//!
//! Every placement these functions return has passed [`crate::verify`] in the tests for every `n` in
//! scope up to 5,000; none is verified again at run time, so that `n = 10⁹` costs only its
//! construction.
//!
//! ```
//! use nqueens_model::construct::{Recipe, abramson_yung, knight_walk};
//!
//! # fn main() -> Result<(), nqueens_model::construct::ConstructError> {
//! let walk = knight_walk(5)?;
//! assert_eq!(walk.placement, [0, 2, 4, 1, 3]);
//! nqueens_model::verify(&walk.placement).unwrap();
//!
//! // 21 = (5 − 1)·5 + 1: Abramson & Yung's general scheme with A = 5 (Lemma 5).
//! let built = abramson_yung(21)?;
//! assert_eq!(built.recipe, Recipe::General { a: 5, b: 5, c: 1 });
//! nqueens_model::verify(&built.placement).unwrap();
//!
//! assert_eq!(
//!     knight_walk(8).unwrap_err().to_string(),
//!     "knight-walk does not cover n = 8 (it needs n coprime to 6); \
//!      n = 8 is covered by explicit, abramson-yung, yaglom, odd-trick"
//! );
//! # Ok(())
//! # }
//! ```

mod abramson_yung;
mod build;
mod corner;
mod decomposition;
mod error;
mod explicit;
mod general;
mod knight_walk;
mod method;
mod number;
mod odd_trick;
mod recipe;
mod size;
mod table;
mod torus;
mod yaglom;

#[cfg(test)]
mod tests;

pub(crate) use build::{build, check_size};
pub(crate) use number::{coprime_to_6, gcd, smallest_factor};

pub use abramson_yung::abramson_yung;
pub use corner::{add_corner, remove_corner};
pub use decomposition::{decomposition, decomposition_of};
pub use error::ConstructError;
pub use explicit::{ExplicitColumns, MAX_STREAM_N, explicit, explicit_column};
pub use general::{general, general_scheme, lemma5_triple};
pub use knight_walk::{knight_walk, regular};
pub use method::{Method, ODD_TRICK_PRACTICAL_N};
pub use odd_trick::{LexRun, OddTrick, OddTrickResult, odd_trick};
pub use recipe::{Construction, Corner, ExplicitRule, Recipe};
pub use size::{CONSTRUCT_BYTES_PER_ROW, MAX_CONSTRUCT_N};
pub use table::{TABLE_SIZES, table};
pub use torus::{
    TorusLine, TorusVerifyError, estimated_torus_model_bytes, max_torus_model_n, torus,
    torus_model, verify_torus,
};
pub use yaglom::yaglom;
