//! The builtin table: every FlatZinc constraint the front end accepts, with its constructor (how it is
//! posted on the engine) and its meaning (an independent checker of the FlatZinc definition, which
//! every solution passes before it is printed). [`BUILTINS`] is the one place a constraint is added:
//! when the catalogue gives the engine a new constraint, its entry here names it, and the solver
//! library in `minizinc/mznlib` may then declare it native.
//!
//! This file is the table and its entries' type; what the entries' constructors share is in the
//! leaves `args` (the arguments and their values), `poster` (posting them) and `relation` (the
//! [`Suffix`] tag and the checks of a relation), which the families (`linear`, `boolean`, …) build on.

mod args;
mod arith;
mod array_globals;
mod automaton;
mod boolean;
mod element;
mod global;
mod linear;
mod packing;
mod poster;
mod relation;
mod scheduling;

pub use args::{Arg, Val};
pub use poster::{Poster, Reif, set_in_constraint};
pub use relation::Suffix;
pub(crate) use relation::{compare, reif_of, tied};

use csp_core::constraints::Comparison;

use crate::error::Error;
use crate::types::Type;

/// How a builtin reaches the engine, for the record of what the catalogue still has to provide.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Support {
    /// A `csp_core` constraint with the builtin's meaning (a `Compare`, `Linear`, `Clause`,
    /// `Element`, `Arithmetic`, `Cumulative`, …, or a `Reified` form), after constants are folded.
    Native,
    /// An encoding into `csp_core` constraints of another shape (a global as several smaller
    /// constraints).
    Encoded,
}

/// One FlatZinc builtin: its name and parameter types, how it is posted, and what it means.
pub struct Builtin {
    /// The FlatZinc name.
    pub name: &'static str,
    /// The parameters' types as MiniZinc declares them, without names (`var int, var int, var bool`):
    /// each argument is checked against them before the constraint is posted.
    pub signature: &'static str,
    /// The number of arguments (the signature's).
    pub arity: usize,
    /// How it reaches the engine.
    pub support: Support,
    /// Posts it on the model.
    pub post: fn(&mut Poster<'_>, &[Arg]) -> Result<(), Error>,
    /// Whether the arguments' values satisfy it, by the FlatZinc definition (independent of the
    /// engine's constraints and of `post`).
    pub holds: fn(&[Val<'_>]) -> bool,
}

impl std::fmt::Debug for Builtin {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Builtin({}/{})", self.name, self.arity)
    }
}

impl Builtin {
    /// The parameter types, parsed from [`Builtin::signature`].
    pub fn parameters(&self) -> impl Iterator<Item = Type> + '_ {
        self.signature.split(',').filter_map(|text| {
            let parsed = text.parse();
            debug_assert!(parsed.is_ok(), "{}: bad signature `{text}`", self.name);
            parsed.ok()
        })
    }
}

/// The number of parameters of a signature: one more than its commas (none for an empty one).
const fn count_parameters(signature: &str) -> usize {
    let bytes = signature.as_bytes();
    if bytes.is_empty() {
        return 0;
    }
    let mut count = 1;
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b',' {
            count += 1;
        }
        i += 1;
    }
    count
}

/// One table entry. A family's constructor and checker take the tags that pick one member
/// (`int_cmp(Less, Reified)` is `int_lt_reif`) after their usual arguments; the entry passes them
/// through a closure, so that every entry is a plain function pointer.
macro_rules! builtin {
    (
        $name:literal,
        $signature:literal,
        $support:ident,
        $post:ident($($post_tag:expr),+ $(,)?),
        $holds:ident($($holds_tag:expr),+ $(,)?) $(,)?
    ) => {
        builtin!(
            $name,
            $signature,
            $support,
            |p, args| $post(p, args, $($post_tag),+),
            |values| $holds(values, $($holds_tag),+)
        )
    };
    ($name:literal, $signature:literal, $support:ident, $post:expr, $holds:expr $(,)?) => {
        Builtin {
            name: $name,
            signature: $signature,
            arity: count_parameters($signature),
            support: Support::$support,
            post: $post,
            holds: $holds,
        }
    };
}

/// Every builtin, by FlatZinc name. Keep each family together, plain form first.
pub static BUILTINS: &[Builtin] = {
    use Comparison::{Equal, Less, LessOrEqual, NotEqual};
    use Suffix::{Implied, Plain, Reified};
    use arith::*;
    use array_globals::*;
    use automaton::*;
    use boolean::*;
    use element::*;
    use global::*;
    use linear::*;
    use packing::*;
    use scheduling::*;
    &[
        // Integer comparisons: a `Compare`, reified by a `ReifiedCompare`.
        builtin!(
            "int_eq",
            "var int, var int",
            Native,
            int_cmp(Equal, Plain),
            int_cmp_holds(Equal, Plain)
        ),
        builtin!(
            "int_ne",
            "var int, var int",
            Native,
            int_cmp(NotEqual, Plain),
            int_cmp_holds(NotEqual, Plain)
        ),
        builtin!(
            "int_le",
            "var int, var int",
            Native,
            int_cmp(LessOrEqual, Plain),
            int_cmp_holds(LessOrEqual, Plain)
        ),
        builtin!(
            "int_lt",
            "var int, var int",
            Native,
            int_cmp(Less, Plain),
            int_cmp_holds(Less, Plain)
        ),
        builtin!(
            "int_eq_reif",
            "var int, var int, var bool",
            Native,
            int_cmp(Equal, Reified),
            int_cmp_holds(Equal, Reified)
        ),
        builtin!(
            "int_ne_reif",
            "var int, var int, var bool",
            Native,
            int_cmp(NotEqual, Reified),
            int_cmp_holds(NotEqual, Reified)
        ),
        builtin!(
            "int_le_reif",
            "var int, var int, var bool",
            Native,
            int_cmp(LessOrEqual, Reified),
            int_cmp_holds(LessOrEqual, Reified)
        ),
        builtin!(
            "int_lt_reif",
            "var int, var int, var bool",
            Native,
            int_cmp(Less, Reified),
            int_cmp_holds(Less, Reified)
        ),
        builtin!(
            "int_eq_imp",
            "var int, var int, var bool",
            Native,
            int_cmp(Equal, Implied),
            int_cmp_holds(Equal, Implied)
        ),
        builtin!(
            "int_ne_imp",
            "var int, var int, var bool",
            Native,
            int_cmp(NotEqual, Implied),
            int_cmp_holds(NotEqual, Implied)
        ),
        builtin!(
            "int_le_imp",
            "var int, var int, var bool",
            Native,
            int_cmp(LessOrEqual, Implied),
            int_cmp_holds(LessOrEqual, Implied)
        ),
        builtin!(
            "int_lt_imp",
            "var int, var int, var bool",
            Native,
            int_cmp(Less, Implied),
            int_cmp_holds(Less, Implied)
        ),
        // Linear sums: `Linear`, constants folded and repeated variables merged; one or two unit
        // terms are a `Compare`, and a sum of 0/1 variables with unit coefficients (beside at
        // most one integer term) a `BoolSum`.
        builtin!(
            "int_lin_eq",
            "array [int] of int, array [int] of var int, int",
            Native,
            int_lin(Equal, Plain),
            int_lin_holds(Equal, Plain)
        ),
        builtin!(
            "int_lin_ne",
            "array [int] of int, array [int] of var int, int",
            Native,
            int_lin(NotEqual, Plain),
            int_lin_holds(NotEqual, Plain)
        ),
        builtin!(
            "int_lin_le",
            "array [int] of int, array [int] of var int, int",
            Native,
            int_lin(LessOrEqual, Plain),
            int_lin_holds(LessOrEqual, Plain)
        ),
        builtin!(
            "int_lin_eq_reif",
            "array [int] of int, array [int] of var int, int, var bool",
            Native,
            int_lin(Equal, Reified),
            int_lin_holds(Equal, Reified)
        ),
        builtin!(
            "int_lin_ne_reif",
            "array [int] of int, array [int] of var int, int, var bool",
            Native,
            int_lin(NotEqual, Reified),
            int_lin_holds(NotEqual, Reified)
        ),
        builtin!(
            "int_lin_le_reif",
            "array [int] of int, array [int] of var int, int, var bool",
            Native,
            int_lin(LessOrEqual, Reified),
            int_lin_holds(LessOrEqual, Reified)
        ),
        builtin!(
            "int_lin_eq_imp",
            "array [int] of int, array [int] of var int, int, var bool",
            Native,
            int_lin(Equal, Implied),
            int_lin_holds(Equal, Implied)
        ),
        builtin!(
            "int_lin_ne_imp",
            "array [int] of int, array [int] of var int, int, var bool",
            Native,
            int_lin(NotEqual, Implied),
            int_lin_holds(NotEqual, Implied)
        ),
        builtin!(
            "int_lin_le_imp",
            "array [int] of int, array [int] of var int, int, var bool",
            Native,
            int_lin(LessOrEqual, Implied),
            int_lin_holds(LessOrEqual, Implied)
        ),
        builtin!(
            "bool_lin_eq",
            "array [int] of int, array [int] of var bool, var int",
            Native,
            bool_lin(Equal),
            bool_lin_holds(Equal)
        ),
        builtin!(
            "bool_lin_le",
            "array [int] of int, array [int] of var bool, int",
            Native,
            bool_lin(LessOrEqual),
            bool_lin_holds(LessOrEqual)
        ),
        // Booleans: `Compare`, `Clause` (watched literals), `BoolAnd` (reified conjunctions), `Parity`.
        builtin!(
            "bool2int",
            "var bool, var int",
            Native,
            bool_cmp(Equal),
            bool_cmp_holds(Equal)
        ),
        builtin!(
            "bool_eq",
            "var bool, var bool",
            Native,
            bool_cmp(Equal),
            bool_cmp_holds(Equal)
        ),
        builtin!(
            "bool_le",
            "var bool, var bool",
            Native,
            bool_cmp(LessOrEqual),
            bool_cmp_holds(LessOrEqual)
        ),
        builtin!(
            "bool_lt",
            "var bool, var bool",
            Native,
            bool_cmp(Less),
            bool_cmp_holds(Less)
        ),
        builtin!(
            "bool_not",
            "var bool, var bool",
            Native,
            bool_cmp(NotEqual),
            bool_cmp_holds(NotEqual)
        ),
        builtin!(
            "bool_xor",
            "var bool, var bool",
            Native,
            bool_cmp(NotEqual),
            bool_cmp_holds(NotEqual)
        ),
        builtin!(
            "bool_clause",
            "array [int] of var bool, array [int] of var bool",
            Native,
            bool_clause(Plain),
            bool_clause_holds(Plain)
        ),
        builtin!(
            "bool_clause_reif",
            "array [int] of var bool, array [int] of var bool, var bool",
            Native,
            bool_clause(Reified),
            bool_clause_holds(Reified)
        ),
        builtin!(
            "bool_clause_imp",
            "array [int] of var bool, array [int] of var bool, var bool",
            Native,
            bool_clause(Implied),
            bool_clause_holds(Implied)
        ),
        builtin!(
            "array_bool_and",
            "array [int] of var bool, var bool",
            Native,
            array_bool_and,
            array_bool_and_holds
        ),
        builtin!(
            "array_bool_or",
            "array [int] of var bool, var bool",
            Native,
            array_bool_or,
            array_bool_or_holds
        ),
        builtin!(
            "array_bool_xor",
            "array [int] of var bool",
            Native,
            array_bool_xor,
            array_bool_xor_holds
        ),
        builtin!(
            "bool_and",
            "var bool, var bool, var bool",
            Native,
            bool_op(BoolOp::And, Reified),
            bool_op_holds(BoolOp::And, Reified)
        ),
        builtin!(
            "bool_or",
            "var bool, var bool, var bool",
            Native,
            bool_op(BoolOp::Or, Reified),
            bool_op_holds(BoolOp::Or, Reified)
        ),
        builtin!(
            "bool_xor",
            "var bool, var bool, var bool",
            Native,
            bool_op(BoolOp::Xor, Reified),
            bool_op_holds(BoolOp::Xor, Reified)
        ),
        builtin!(
            "bool_eq_reif",
            "var bool, var bool, var bool",
            Native,
            bool_op(BoolOp::Eq, Reified),
            bool_op_holds(BoolOp::Eq, Reified)
        ),
        builtin!(
            "bool_le_reif",
            "var bool, var bool, var bool",
            Native,
            bool_op(BoolOp::Le, Reified),
            bool_op_holds(BoolOp::Le, Reified)
        ),
        builtin!(
            "bool_lt_reif",
            "var bool, var bool, var bool",
            Native,
            bool_op(BoolOp::Lt, Reified),
            bool_op_holds(BoolOp::Lt, Reified)
        ),
        builtin!(
            "bool_and_imp",
            "var bool, var bool, var bool",
            Native,
            bool_op(BoolOp::And, Implied),
            bool_op_holds(BoolOp::And, Implied)
        ),
        builtin!(
            "bool_or_imp",
            "var bool, var bool, var bool",
            Native,
            bool_op(BoolOp::Or, Implied),
            bool_op_holds(BoolOp::Or, Implied)
        ),
        builtin!(
            "bool_xor_imp",
            "var bool, var bool, var bool",
            Native,
            bool_op(BoolOp::Xor, Implied),
            bool_op_holds(BoolOp::Xor, Implied)
        ),
        builtin!(
            "bool_eq_imp",
            "var bool, var bool, var bool",
            Native,
            bool_op(BoolOp::Eq, Implied),
            bool_op_holds(BoolOp::Eq, Implied)
        ),
        builtin!(
            "bool_le_imp",
            "var bool, var bool, var bool",
            Native,
            bool_op(BoolOp::Le, Implied),
            bool_op_holds(BoolOp::Le, Implied)
        ),
        builtin!(
            "bool_lt_imp",
            "var bool, var bool, var bool",
            Native,
            bool_op(BoolOp::Lt, Implied),
            bool_op_holds(BoolOp::Lt, Implied)
        ),
        // Element: `Element` over a constant array, `VarElement` over variables.
        builtin!(
            "array_int_element",
            "var int, array [int] of int, var int",
            Native,
            array_element,
            array_element_holds
        ),
        builtin!(
            "array_bool_element",
            "var int, array [int] of bool, var bool",
            Native,
            array_element,
            array_element_holds
        ),
        builtin!(
            "array_var_int_element",
            "var int, array [int] of var int, var int",
            Native,
            array_var_element,
            array_element_holds
        ),
        builtin!(
            "array_var_bool_element",
            "var int, array [int] of var bool, var bool",
            Native,
            array_var_element,
            array_element_holds
        ),
        // Arithmetic functions: `Arithmetic` and `Extremum`.
        builtin!(
            "int_times",
            "var int, var int, var int",
            Native,
            arith(ArithOp::Times),
            arith_holds(ArithOp::Times)
        ),
        builtin!(
            "int_div",
            "var int, var int, var int",
            Native,
            arith(ArithOp::Div),
            arith_holds(ArithOp::Div)
        ),
        builtin!(
            "int_mod",
            "var int, var int, var int",
            Native,
            arith(ArithOp::Mod),
            arith_holds(ArithOp::Mod)
        ),
        builtin!(
            "int_min",
            "var int, var int, var int",
            Native,
            arith(ArithOp::Min),
            arith_holds(ArithOp::Min)
        ),
        builtin!(
            "int_max",
            "var int, var int, var int",
            Native,
            arith(ArithOp::Max),
            arith_holds(ArithOp::Max)
        ),
        builtin!(
            "int_pow",
            "var int, var int, var int",
            Native,
            arith(ArithOp::Pow),
            arith_holds(ArithOp::Pow)
        ),
        builtin!(
            "int_abs",
            "var int, var int",
            Native,
            int_abs,
            int_abs_holds
        ),
        builtin!(
            "array_int_maximum",
            "var int, array [int] of var int",
            Native,
            extremum(ArithOp::Max),
            extremum_holds(ArithOp::Max)
        ),
        builtin!(
            "array_int_minimum",
            "var int, array [int] of var int",
            Native,
            extremum(ArithOp::Min),
            extremum_holds(ArithOp::Min)
        ),
        // Sets: membership of a constant set, `SetIn` (reified by `Reified`).
        builtin!(
            "set_in",
            "var int, set of int",
            Native,
            set_in(Plain),
            set_in_holds(Plain)
        ),
        builtin!(
            "set_in_reif",
            "var int, set of int, var bool",
            Native,
            set_in(Reified),
            set_in_holds(Reified)
        ),
        builtin!(
            "set_in_imp",
            "var int, set of int, var bool",
            Native,
            set_in(Implied),
            set_in_holds(Implied)
        ),
        // Global constraints the solver library declares native (`minizinc/mznlib/fzn_*.mzn`).
        builtin!(
            "fzn_all_different_int",
            "array [int] of var int",
            Native,
            all_different,
            all_different_holds
        ),
        builtin!(
            "all_different_int",
            "array [int] of var int",
            Native,
            all_different,
            all_different_holds
        ),
        builtin!(
            "fzn_table_int",
            "array [int] of var int, array [int] of int",
            Native,
            table,
            table_holds
        ),
        builtin!(
            "fzn_table_bool",
            "array [int] of var bool, array [int] of bool",
            Native,
            table,
            table_holds
        ),
        builtin!(
            "table_int",
            "array [int] of var int, array [int] of int",
            Native,
            table,
            table_holds
        ),
        builtin!(
            "table_bool",
            "array [int] of var bool, array [int] of bool",
            Native,
            table,
            table_holds
        ),
        builtin!(
            "csp_circuit",
            "array [int] of var int, int",
            Native,
            circuit,
            circuit_holds
        ),
        builtin!(
            "csp_inverse",
            "array [int] of var int, int, array [int] of var int, int",
            Native,
            inverse,
            inverse_holds
        ),
        builtin!(
            "fzn_among",
            "var int, array [int] of var int, set of int",
            Native,
            among,
            among_holds
        ),
        builtin!(
            "fzn_global_cardinality",
            "array [int] of var int, array [int] of int, array [int] of var int",
            Native,
            global_cardinality::<false>,
            global_cardinality_holds::<false>
        ),
        builtin!(
            "fzn_global_cardinality_closed",
            "array [int] of var int, array [int] of int, array [int] of var int",
            Native,
            global_cardinality::<true>,
            global_cardinality_holds::<true>
        ),
        builtin!(
            "fzn_lex_less_int",
            "array [int] of var int, array [int] of var int",
            Native,
            lex::<true>,
            lex_holds::<true>
        ),
        builtin!(
            "fzn_lex_lesseq_int",
            "array [int] of var int, array [int] of var int",
            Native,
            lex::<false>,
            lex_holds::<false>
        ),
        builtin!(
            "fzn_lex_less_bool",
            "array [int] of var bool, array [int] of var bool",
            Native,
            lex::<true>,
            lex_holds::<true>
        ),
        builtin!(
            "fzn_lex_lesseq_bool",
            "array [int] of var bool, array [int] of var bool",
            Native,
            lex::<false>,
            lex_holds::<false>
        ),
        builtin!(
            "csp_cumulative",
            "array [int] of var int, array [int] of int, array [int] of int, int",
            Native,
            cumulative,
            cumulative_holds
        ),
        builtin!(
            "csp_disjunctive",
            "array [int] of var int, array [int] of int",
            Native,
            disjunctive,
            disjunctive_holds
        ),
        // Scheduling with variable data or optional tasks: `VarCumulative`, `VarDisjunctive`.
        builtin!(
            "csp_cumulative_var",
            "array [int] of var int, array [int] of var int, array [int] of var int, var int",
            Native,
            cumulative_var::<false>,
            cumulative_var_holds::<false>
        ),
        builtin!(
            "csp_cumulative_opt",
            "array [int] of var int, array [int] of var bool, array [int] of var int, array [int] of var int, var int",
            Native,
            cumulative_var::<true>,
            cumulative_var_holds::<true>
        ),
        builtin!(
            "csp_disjunctive_var",
            "array [int] of var int, array [int] of var int",
            Native,
            disjunctive_var::<false, false>,
            disjunctive_var_holds::<false, false>
        ),
        builtin!(
            "csp_disjunctive_strict_var",
            "array [int] of var int, array [int] of var int",
            Native,
            disjunctive_var::<true, false>,
            disjunctive_var_holds::<true, false>
        ),
        builtin!(
            "csp_disjunctive_opt",
            "array [int] of var int, array [int] of var bool, array [int] of var int",
            Native,
            disjunctive_var::<false, true>,
            disjunctive_var_holds::<false, true>
        ),
        builtin!(
            "csp_disjunctive_strict_opt",
            "array [int] of var int, array [int] of var bool, array [int] of var int",
            Native,
            disjunctive_var::<true, true>,
            disjunctive_var_holds::<true, true>
        ),
        // Regular languages: `Regular`, `CostRegular`.
        builtin!(
            "fzn_regular",
            "array [int] of var int, int, int, array [int] of int, int, set of int",
            Native,
            regular,
            regular_holds
        ),
        builtin!(
            "fzn_cost_regular",
            "array [int] of var int, int, int, array [int] of int, int, set of int, array [int] of int, var int",
            Native,
            cost_regular,
            cost_regular_holds
        ),
        // Packing: `Diffn`, `BinPacking`.
        builtin!(
            "fzn_diffn",
            "array [int] of var int, array [int] of var int, array [int] of var int, array [int] of var int",
            Native,
            diffn::<true>,
            diffn_holds::<true>
        ),
        builtin!(
            "fzn_diffn_nonstrict",
            "array [int] of var int, array [int] of var int, array [int] of var int, array [int] of var int",
            Native,
            diffn::<false>,
            diffn_holds::<false>
        ),
        builtin!(
            "fzn_bin_packing",
            "int, array [int] of var int, array [int] of int",
            Native,
            bin_packing,
            bin_packing_holds
        ),
        builtin!(
            "csp_bin_packing_capa",
            "array [int] of int, int, array [int] of var int, array [int] of int",
            Native,
            bin_packing_capa,
            bin_packing_capa_holds
        ),
        builtin!(
            "csp_bin_packing_load",
            "array [int] of var int, int, array [int] of var int, array [int] of int",
            Native,
            bin_packing_load,
            bin_packing_load_holds
        ),
        // Globals over one array: `NValue`, `Member`, `AllDifferentExcept`, `Increasing`,
        // `ValuePrecede`, `ArgExtremum`, `Subcircuit`.
        builtin!(
            "fzn_nvalue",
            "var int, array [int] of var int",
            Native,
            nvalue,
            nvalue_holds
        ),
        builtin!(
            "fzn_member_int",
            "array [int] of var int, var int",
            Native,
            member,
            member_holds
        ),
        builtin!(
            "fzn_member_bool",
            "array [int] of var bool, var bool",
            Native,
            member,
            member_holds
        ),
        builtin!(
            "fzn_alldifferent_except",
            "array [int] of var int, set of int",
            Native,
            all_different_except::<false>,
            all_different_except_holds::<false>
        ),
        builtin!(
            "fzn_alldifferent_except_0",
            "array [int] of var int",
            Native,
            all_different_except::<true>,
            all_different_except_holds::<true>
        ),
        builtin!(
            "fzn_increasing_int",
            "array [int] of var int",
            Native,
            increasing::<false>,
            increasing_holds::<false>
        ),
        builtin!(
            "fzn_increasing_bool",
            "array [int] of var bool",
            Native,
            increasing::<false>,
            increasing_holds::<false>
        ),
        builtin!(
            "fzn_decreasing_int",
            "array [int] of var int",
            Native,
            increasing::<true>,
            increasing_holds::<true>
        ),
        builtin!(
            "fzn_decreasing_bool",
            "array [int] of var bool",
            Native,
            increasing::<true>,
            increasing_holds::<true>
        ),
        builtin!(
            "fzn_value_precede_int",
            "int, int, array [int] of var int",
            Native,
            value_precede,
            value_precede_holds
        ),
        builtin!(
            "csp_maximum_arg",
            "array [int] of var int, int, var int",
            Native,
            arg_extremum::<false>,
            arg_extremum_holds::<false>
        ),
        builtin!(
            "csp_minimum_arg",
            "array [int] of var int, int, var int",
            Native,
            arg_extremum::<true>,
            arg_extremum_holds::<true>
        ),
        builtin!(
            "csp_maximum_arg_bool",
            "array [int] of var bool, int, var int",
            Native,
            arg_extremum::<false>,
            arg_extremum_holds::<false>
        ),
        builtin!(
            "csp_minimum_arg_bool",
            "array [int] of var bool, int, var int",
            Native,
            arg_extremum::<true>,
            arg_extremum_holds::<true>
        ),
        builtin!(
            "csp_subcircuit",
            "array [int] of var int, int",
            Native,
            subcircuit,
            subcircuit_holds
        ),
    ]
};

/// The builtin called `name` with `arity` arguments (`bool_xor` has a two- and a three-argument
/// form), if the front end has it.
pub fn find(name: &str, arity: usize) -> Option<&'static Builtin> {
    BUILTINS
        .iter()
        .find(|b| b.name == name && b.arity == arity)
        .or_else(|| BUILTINS.iter().find(|b| b.name == name))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_arities_are_unique() {
        for (i, a) in BUILTINS.iter().enumerate() {
            for b in &BUILTINS[i + 1..] {
                assert!(
                    a.name != b.name || a.arity != b.arity,
                    "{} is listed twice",
                    a.name
                );
            }
        }
    }
}
