//! The builtin table: every FlatZinc constraint the front end accepts, with its constructor (how it is
//! posted on the engine) and its meaning (an independent checker of the FlatZinc definition, which
//! every solution passes before it is printed). [`BUILTINS`] is the one place a constraint is added:
//! when the catalogue gives the engine a new constraint, its entry here names it, and the solver
//! library in `minizinc/mznlib` may then declare it native.

mod arith;
mod automaton;
mod boolean;
mod element;
mod global;
mod linear;
mod packing;
mod poster;
mod scheduling;
mod values;

pub use poster::{Poster, Reif};

use crate::Elem;
use crate::ast::Ranges;
use crate::error::Error;
use crate::types::Type;

/// `x ∈ set` as the catalogue's `SetIn`: the ranges cut to the engine's 32-bit values, which are all
/// a variable can take (a range wholly beyond them adds nothing).
pub fn set_in_constraint(x: csp_core::VarId, set: &Ranges) -> csp_core::constraints::SetIn {
    let (lowest, highest) = (i64::from(i32::MIN), i64::from(i32::MAX));
    csp_core::constraints::SetIn::ranges(
        x,
        set.iter()
            .filter(|&&(lo, hi)| lo <= hi && lo <= highest && hi >= lowest)
            .map(|&(lo, hi)| (lo.max(lowest) as i32, hi.min(highest) as i32)),
    )
}

/// A constraint's argument, resolved: names replaced by what they stand for.
#[derive(Debug, Clone, PartialEq)]
pub enum Arg {
    /// An integer or Boolean (0 or 1), constant or variable.
    Elem(Elem),
    /// An array of them (shared with the name it came from, so that an array passed to many
    /// constraints is held once).
    Array(std::sync::Arc<[Elem]>),
    /// A constant set.
    Set(Ranges),
    /// An array of constant sets.
    SetArray(Vec<Ranges>),
}

/// An argument's value in a complete assignment, as a builtin's checker reads it.
#[derive(Debug, Clone, PartialEq)]
pub enum Val<'a> {
    /// An integer (a Boolean as 0 or 1).
    Int(i64),
    /// An array of them.
    Array(Vec<i64>),
    /// A constant set.
    Set(&'a Ranges),
    /// An array of constant sets.
    SetArray(&'a [Ranges]),
}

impl Val<'_> {
    /// The integer, or `None` for another shape.
    pub fn int(&self) -> Option<i64> {
        match self {
            Val::Int(value) => Some(*value),
            _ => None,
        }
    }

    /// The array, or `None` for another shape.
    pub fn array(&self) -> Option<&[i64]> {
        match self {
            Val::Array(values) => Some(values),
            _ => None,
        }
    }

    /// The set, or `None` for another shape.
    pub fn set(&self) -> Option<&Ranges> {
        match self {
            Val::Set(set) => Some(set),
            _ => None,
        }
    }
}

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

/// How a comparison or a linear sum relates its two sides: `=`, `≠`, `≤`, `<`.
pub(crate) const EQ: u8 = 0;
pub(crate) const NE: u8 = 1;
pub(crate) const LE: u8 = 2;
pub(crate) const LT: u8 = 3;
/// How a constraint is tied to a trailing Boolean argument: not at all, `_reif`, `_imp`.
pub(crate) const PLAIN: u8 = 0;
pub(crate) const REIF: u8 = 1;
pub(crate) const IMP: u8 = 2;

/// Whether `left rel right` holds, for `rel` one of [`EQ`], [`NE`], [`LE`], [`LT`].
pub(crate) fn compare<const REL: u8>(left: i128, right: i128) -> bool {
    match REL {
        EQ => left == right,
        NE => left != right,
        LE => left <= right,
        _ => left < right,
    }
}

/// Whether a constraint whose own truth is `holds` is satisfied under `MODE`, given the trailing
/// Boolean's value `r` (unused for [`PLAIN`]).
pub(crate) fn tied<const MODE: u8>(holds: bool, r: Option<i64>) -> bool {
    match (MODE, r) {
        (PLAIN, _) => holds,
        (REIF, Some(1)) | (IMP, Some(1)) => holds,
        (REIF, Some(0)) => !holds,
        (IMP, Some(0)) => true,
        _ => false,
    }
}

/// The [`Reif`] for `MODE`, from the trailing argument.
pub(crate) fn reif_of<const MODE: u8>(p: &Poster<'_>, args: &[Arg]) -> Result<Reif, Error> {
    Ok(match MODE {
        PLAIN => Reif::Plain,
        REIF => Reif::Equiv(p.elem(args.last().expect("a reified builtin has arguments"))?),
        _ => Reif::Implies(p.elem(args.last().expect("a reified builtin has arguments"))?),
    })
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

macro_rules! builtin {
    ($name:literal, $signature:literal, $support:ident, $post:expr, $holds:expr) => {
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
    use arith::*;
    use automaton::*;
    use boolean::*;
    use element::*;
    use global::*;
    use linear::*;
    use packing::*;
    use scheduling::*;
    use values::*;
    &[
        // Integer comparisons: a `Compare`, reified by a `ReifiedCompare`.
        builtin!(
            "int_eq",
            "var int, var int",
            Native,
            int_cmp::<EQ, PLAIN>,
            int_cmp_holds::<EQ, PLAIN>
        ),
        builtin!(
            "int_ne",
            "var int, var int",
            Native,
            int_cmp::<NE, PLAIN>,
            int_cmp_holds::<NE, PLAIN>
        ),
        builtin!(
            "int_le",
            "var int, var int",
            Native,
            int_cmp::<LE, PLAIN>,
            int_cmp_holds::<LE, PLAIN>
        ),
        builtin!(
            "int_lt",
            "var int, var int",
            Native,
            int_cmp::<LT, PLAIN>,
            int_cmp_holds::<LT, PLAIN>
        ),
        builtin!(
            "int_eq_reif",
            "var int, var int, var bool",
            Native,
            int_cmp::<EQ, REIF>,
            int_cmp_holds::<EQ, REIF>
        ),
        builtin!(
            "int_ne_reif",
            "var int, var int, var bool",
            Native,
            int_cmp::<NE, REIF>,
            int_cmp_holds::<NE, REIF>
        ),
        builtin!(
            "int_le_reif",
            "var int, var int, var bool",
            Native,
            int_cmp::<LE, REIF>,
            int_cmp_holds::<LE, REIF>
        ),
        builtin!(
            "int_lt_reif",
            "var int, var int, var bool",
            Native,
            int_cmp::<LT, REIF>,
            int_cmp_holds::<LT, REIF>
        ),
        builtin!(
            "int_eq_imp",
            "var int, var int, var bool",
            Native,
            int_cmp::<EQ, IMP>,
            int_cmp_holds::<EQ, IMP>
        ),
        builtin!(
            "int_ne_imp",
            "var int, var int, var bool",
            Native,
            int_cmp::<NE, IMP>,
            int_cmp_holds::<NE, IMP>
        ),
        builtin!(
            "int_le_imp",
            "var int, var int, var bool",
            Native,
            int_cmp::<LE, IMP>,
            int_cmp_holds::<LE, IMP>
        ),
        builtin!(
            "int_lt_imp",
            "var int, var int, var bool",
            Native,
            int_cmp::<LT, IMP>,
            int_cmp_holds::<LT, IMP>
        ),
        // Linear sums: `Linear`, constants folded and repeated variables merged; one or two unit
        // terms are a `Compare`.
        builtin!(
            "int_lin_eq",
            "array [int] of int, array [int] of var int, int",
            Native,
            int_lin::<EQ, PLAIN>,
            int_lin_holds::<EQ, PLAIN>
        ),
        builtin!(
            "int_lin_ne",
            "array [int] of int, array [int] of var int, int",
            Native,
            int_lin::<NE, PLAIN>,
            int_lin_holds::<NE, PLAIN>
        ),
        builtin!(
            "int_lin_le",
            "array [int] of int, array [int] of var int, int",
            Native,
            int_lin::<LE, PLAIN>,
            int_lin_holds::<LE, PLAIN>
        ),
        builtin!(
            "int_lin_eq_reif",
            "array [int] of int, array [int] of var int, int, var bool",
            Native,
            int_lin::<EQ, REIF>,
            int_lin_holds::<EQ, REIF>
        ),
        builtin!(
            "int_lin_ne_reif",
            "array [int] of int, array [int] of var int, int, var bool",
            Native,
            int_lin::<NE, REIF>,
            int_lin_holds::<NE, REIF>
        ),
        builtin!(
            "int_lin_le_reif",
            "array [int] of int, array [int] of var int, int, var bool",
            Native,
            int_lin::<LE, REIF>,
            int_lin_holds::<LE, REIF>
        ),
        builtin!(
            "int_lin_eq_imp",
            "array [int] of int, array [int] of var int, int, var bool",
            Native,
            int_lin::<EQ, IMP>,
            int_lin_holds::<EQ, IMP>
        ),
        builtin!(
            "int_lin_ne_imp",
            "array [int] of int, array [int] of var int, int, var bool",
            Native,
            int_lin::<NE, IMP>,
            int_lin_holds::<NE, IMP>
        ),
        builtin!(
            "int_lin_le_imp",
            "array [int] of int, array [int] of var int, int, var bool",
            Native,
            int_lin::<LE, IMP>,
            int_lin_holds::<LE, IMP>
        ),
        builtin!(
            "bool_lin_eq",
            "array [int] of int, array [int] of var bool, var int",
            Native,
            bool_lin::<EQ>,
            bool_lin_holds::<EQ>
        ),
        builtin!(
            "bool_lin_le",
            "array [int] of int, array [int] of var bool, int",
            Native,
            bool_lin::<LE>,
            bool_lin_holds::<LE>
        ),
        // Booleans: `Compare`, `Clause` (watched literals), `BoolAnd` (reified conjunctions), `Parity`.
        builtin!(
            "bool2int",
            "var bool, var int",
            Native,
            bool_cmp::<EQ>,
            bool_cmp_holds::<EQ>
        ),
        builtin!(
            "bool_eq",
            "var bool, var bool",
            Native,
            bool_cmp::<EQ>,
            bool_cmp_holds::<EQ>
        ),
        builtin!(
            "bool_le",
            "var bool, var bool",
            Native,
            bool_cmp::<LE>,
            bool_cmp_holds::<LE>
        ),
        builtin!(
            "bool_lt",
            "var bool, var bool",
            Native,
            bool_cmp::<LT>,
            bool_cmp_holds::<LT>
        ),
        builtin!(
            "bool_not",
            "var bool, var bool",
            Native,
            bool_cmp::<NE>,
            bool_cmp_holds::<NE>
        ),
        builtin!(
            "bool_xor",
            "var bool, var bool",
            Native,
            bool_cmp::<NE>,
            bool_cmp_holds::<NE>
        ),
        builtin!(
            "bool_clause",
            "array [int] of var bool, array [int] of var bool",
            Native,
            bool_clause::<PLAIN>,
            bool_clause_holds::<PLAIN>
        ),
        builtin!(
            "bool_clause_reif",
            "array [int] of var bool, array [int] of var bool, var bool",
            Native,
            bool_clause::<REIF>,
            bool_clause_holds::<REIF>
        ),
        builtin!(
            "bool_clause_imp",
            "array [int] of var bool, array [int] of var bool, var bool",
            Native,
            bool_clause::<IMP>,
            bool_clause_holds::<IMP>
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
            bool_op::<AND, REIF>,
            bool_op_holds::<AND, REIF>
        ),
        builtin!(
            "bool_or",
            "var bool, var bool, var bool",
            Native,
            bool_op::<OR, REIF>,
            bool_op_holds::<OR, REIF>
        ),
        builtin!(
            "bool_xor",
            "var bool, var bool, var bool",
            Native,
            bool_op::<XOR, REIF>,
            bool_op_holds::<XOR, REIF>
        ),
        builtin!(
            "bool_eq_reif",
            "var bool, var bool, var bool",
            Native,
            bool_op::<BEQ, REIF>,
            bool_op_holds::<BEQ, REIF>
        ),
        builtin!(
            "bool_le_reif",
            "var bool, var bool, var bool",
            Native,
            bool_op::<BLE, REIF>,
            bool_op_holds::<BLE, REIF>
        ),
        builtin!(
            "bool_lt_reif",
            "var bool, var bool, var bool",
            Native,
            bool_op::<BLT, REIF>,
            bool_op_holds::<BLT, REIF>
        ),
        builtin!(
            "bool_and_imp",
            "var bool, var bool, var bool",
            Native,
            bool_op::<AND, IMP>,
            bool_op_holds::<AND, IMP>
        ),
        builtin!(
            "bool_or_imp",
            "var bool, var bool, var bool",
            Native,
            bool_op::<OR, IMP>,
            bool_op_holds::<OR, IMP>
        ),
        builtin!(
            "bool_xor_imp",
            "var bool, var bool, var bool",
            Native,
            bool_op::<XOR, IMP>,
            bool_op_holds::<XOR, IMP>
        ),
        builtin!(
            "bool_eq_imp",
            "var bool, var bool, var bool",
            Native,
            bool_op::<BEQ, IMP>,
            bool_op_holds::<BEQ, IMP>
        ),
        builtin!(
            "bool_le_imp",
            "var bool, var bool, var bool",
            Native,
            bool_op::<BLE, IMP>,
            bool_op_holds::<BLE, IMP>
        ),
        builtin!(
            "bool_lt_imp",
            "var bool, var bool, var bool",
            Native,
            bool_op::<BLT, IMP>,
            bool_op_holds::<BLT, IMP>
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
            arith::<TIMES>,
            arith_holds::<TIMES>
        ),
        builtin!(
            "int_div",
            "var int, var int, var int",
            Native,
            arith::<DIV>,
            arith_holds::<DIV>
        ),
        builtin!(
            "int_mod",
            "var int, var int, var int",
            Native,
            arith::<MOD>,
            arith_holds::<MOD>
        ),
        builtin!(
            "int_min",
            "var int, var int, var int",
            Native,
            arith::<MIN>,
            arith_holds::<MIN>
        ),
        builtin!(
            "int_max",
            "var int, var int, var int",
            Native,
            arith::<MAX>,
            arith_holds::<MAX>
        ),
        builtin!(
            "int_pow",
            "var int, var int, var int",
            Native,
            arith::<POW>,
            arith_holds::<POW>
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
            extremum::<MAX>,
            extremum_holds::<MAX>
        ),
        builtin!(
            "array_int_minimum",
            "var int, array [int] of var int",
            Native,
            extremum::<MIN>,
            extremum_holds::<MIN>
        ),
        // Sets: membership of a constant set, `SetIn` (reified by `Reified`).
        builtin!(
            "set_in",
            "var int, set of int",
            Native,
            set_in::<PLAIN>,
            set_in_holds::<PLAIN>
        ),
        builtin!(
            "set_in_reif",
            "var int, set of int, var bool",
            Native,
            set_in::<REIF>,
            set_in_holds::<REIF>
        ),
        builtin!(
            "set_in_imp",
            "var int, set of int, var bool",
            Native,
            set_in::<IMP>,
            set_in_holds::<IMP>
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
