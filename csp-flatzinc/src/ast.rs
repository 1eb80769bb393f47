//! The FlatZinc statements as the parser reads them, borrowing names from the source text.

/// A set of integers: sorted, disjoint, non-adjacent inclusive ranges.
pub type Ranges = Vec<(i64, i64)>;

/// An expression: an argument of a constraint, the value of a declaration, or an annotation.
#[derive(Debug, Clone, PartialEq)]
pub enum Expr<'a> {
    /// `true` or `false`.
    Bool(bool),
    /// An integer literal.
    Int(i64),
    /// A float literal.
    Float(f64),
    /// A set literal, `lo..hi` or `{a, b, …}`, as ranges.
    Set(Ranges),
    /// A float range `lo..hi` (only float variables use them; they are refused when a model is built).
    FloatRange(f64, f64),
    /// A name: a parameter, a variable, an array, or an annotation's atom (`input_order`).
    Ident(&'a str),
    /// `name[index]`: one element of an array.
    Access(&'a str, i64),
    /// A string literal, without its quotes (annotations only).
    Str(&'a str),
    /// An array literal.
    Array(Vec<Expr<'a>>),
    /// `name(args)`: an annotation with arguments.
    Call(&'a str, Vec<Expr<'a>>),
}

/// The values a declaration may take.
#[derive(Debug, Clone, PartialEq)]
pub enum Domain {
    /// `bool`.
    Bool,
    /// `int`: any integer.
    Int,
    /// `float`, or a float range.
    Float,
    /// `lo..hi` or `{a, b, …}`.
    IntSet(Ranges),
    /// `set of …`: a set-valued parameter or variable.
    SetOfInt,
}

/// A declaration's type: scalar or array, parameter or variable, and its values.
#[derive(Debug, Clone, PartialEq)]
pub struct TypeInst {
    /// `array [lo..hi] of …`: the index set.
    pub array: Option<(i64, i64)>,
    /// Whether it is a variable (`var …`).
    pub var: bool,
    /// The values of the scalar or of each element.
    pub domain: Domain,
}

/// Where a statement starts: 1-based line and column.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Pos {
    /// 1-based line.
    pub line: u32,
    /// 1-based column, in bytes.
    pub column: u32,
}

/// A parameter or variable declaration.
#[derive(Debug, Clone, PartialEq)]
pub struct Decl<'a> {
    /// Where it starts.
    pub pos: Pos,
    /// Its type.
    pub ty: TypeInst,
    /// Its name.
    pub name: &'a str,
    /// Its annotations (`output_var`, `output_array([1..2, 1..3])`, `is_defined_var`, …).
    pub annotations: Vec<Expr<'a>>,
    /// `= value`, if given.
    pub value: Option<Expr<'a>>,
}

/// A `constraint` statement.
#[derive(Debug, Clone, PartialEq)]
pub struct ConstraintItem<'a> {
    /// Where it starts.
    pub pos: Pos,
    /// The predicate's name.
    pub name: &'a str,
    /// Its arguments.
    pub args: Vec<Expr<'a>>,
    /// Its annotations (`defines_var(x)`, `domain`, …).
    pub annotations: Vec<Expr<'a>>,
}

/// What the `solve` statement asks for.
#[derive(Debug, Clone, PartialEq)]
pub enum Goal<'a> {
    /// `satisfy`.
    Satisfy,
    /// `minimize expr`.
    Minimize(Expr<'a>),
    /// `maximize expr`.
    Maximize(Expr<'a>),
}

/// The `solve` statement.
#[derive(Debug, Clone, PartialEq)]
pub struct SolveItem<'a> {
    /// Where it starts.
    pub pos: Pos,
    /// Its annotations: the search strategy.
    pub annotations: Vec<Expr<'a>>,
    /// What is asked.
    pub goal: Goal<'a>,
}

/// A whole FlatZinc model, statement by statement (predicate declarations are skipped).
#[derive(Debug, Clone, PartialEq)]
pub struct FlatZinc<'a> {
    /// Parameters and variables, in the order declared.
    pub decls: Vec<Decl<'a>>,
    /// Constraints, in the order posted.
    pub constraints: Vec<ConstraintItem<'a>>,
    /// The solve statement.
    pub solve: SolveItem<'a>,
}

/// Sorts and merges integer values into [`Ranges`].
pub fn ranges_from_values(mut values: Vec<i64>) -> Ranges {
    values.sort_unstable();
    values.dedup();
    let mut ranges: Ranges = Vec::new();
    for v in values {
        match ranges.last_mut() {
            Some((_, hi)) if hi.checked_add(1) == Some(v) => *hi = v,
            _ => ranges.push((v, v)),
        }
    }
    ranges
}

/// Whether `value` lies in `ranges`.
pub fn ranges_contain(ranges: &[(i64, i64)], value: i64) -> bool {
    // The ranges are sorted, so a binary search finds the only candidate.
    let i = ranges.partition_point(|&(_, hi)| hi < value);
    ranges.get(i).is_some_and(|&(lo, _)| lo <= value)
}
