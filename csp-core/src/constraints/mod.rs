//! The built-in constraints. Each keeps an obviously-correct checker beside its fast propagation; the
//! tests of this crate and the property tests of `csp-search` hold the two together.
//!
//! One file per family. Every constraint documents the consistency its revision reaches; the tests in
//! `csp-core/tests/` compare each with a brute-force computation of that consistency.

mod all_different;
mod arithmetic;
mod array_positions;
mod array_values;
mod bool_sum;
mod boolean;
mod circuit;
mod compare;
mod count;
mod element;
mod inverse;
mod lex;
mod linear;
mod not_equal;
mod packing;
mod predicate;
mod regular;
mod reified;
mod scheduling;
mod set;
mod subcircuit;
mod table;
mod util;
mod var_scheduling;

pub use all_different::{AllDifferent, AllDifferentConsistency};
pub use arithmetic::{Arithmetic, Extremum};
pub use array_positions::{ArgExtremum, Increasing, ValuePrecede};
pub use array_values::{AllDifferentExcept, Member, NValue};
pub use bool_sum::BoolSum;
pub use boolean::{BoolAnd, Clause, Parity, SignedBool};
pub use circuit::Circuit;
pub use compare::{Compare, Comparison, ReifiedCompare};
pub use count::{Among, GlobalCardinality};
pub use element::{Element, VarElement};
pub use inverse::Inverse;
pub use lex::LexLess;
pub use linear::{Linear, Relation};
pub use not_equal::NotEqual;
pub use packing::{BinPacking, Diffn};
pub use predicate::Predicate;
pub use regular::{Automaton, CostRegular, Regular};
pub use reified::{Reification, Reified};
pub use scheduling::{Cumulative, Disjunctive};
pub use set::SetIn;
pub use subcircuit::Subcircuit;
pub use table::{Table, TableAlgorithm};
pub use var_scheduling::{Task, VarCumulative, VarDisjunctive};
