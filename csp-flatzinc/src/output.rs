//! What a solution prints: the variables and arrays the model marks `output_var` and
//! `output_array(...)`, in declaration order, as the FlatZinc specification writes them.

use std::fmt::Write as _;

use crate::Elem;

/// One printed item.
#[derive(Debug, Clone, PartialEq)]
pub struct OutputItem {
    /// The FlatZinc name.
    pub name: String,
    /// Whether the values are Booleans (`true`/`false`).
    pub boolean: bool,
    /// A scalar, or an array with its index sets.
    pub kind: OutputKind,
}

/// A scalar or an array.
#[derive(Debug, Clone, PartialEq)]
pub enum OutputKind {
    /// `name = value;`
    Scalar(Elem),
    /// `name = arrayNd(lo..hi, …, [values]);`
    Array {
        /// One index set per dimension, as `output_array([…])` gives them.
        dims: Vec<(i64, i64)>,
        /// The elements, row-major.
        elems: Vec<Elem>,
    },
}

/// Everything a solution prints.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Output {
    /// The items, in declaration order.
    pub items: Vec<OutputItem>,
}

impl Output {
    /// The solution `values` (one per model variable, by index) as FlatZinc output: one line per
    /// item, each ending in `;` and a newline (the `----------` separator is the caller's).
    ///
    /// ```
    /// let compiled = csp_flatzinc::compile(
    ///     "var 1..2: a :: output_var;\nvar 1..2: b;\nvar bool: c :: output_var;\n\
    ///      array [1..2] of var 1..2: q :: output_array([1..2]) = [a, b];\n\
    ///      constraint int_lt(a, b);\nsolve satisfy;\n",
    /// )?;
    /// let values: Vec<i32> = compiled
    ///     .model()
    ///     .vars()
    ///     .map(|v| match compiled.model().name(v) {
    ///         "a" => 1,
    ///         "b" => 2,
    ///         _ => 0,
    ///     })
    ///     .collect();
    /// assert_eq!(
    ///     compiled.output().format(&values),
    ///     "a = 1;\nc = false;\nq = array1d(1..2, [1, 2]);\n"
    /// );
    /// # Ok::<(), csp_flatzinc::Error>(())
    /// ```
    pub fn format(&self, values: &[i32]) -> String {
        let mut text = String::new();
        for item in &self.items {
            let value = |elem: &Elem| -> i64 {
                match *elem {
                    Elem::Const(c) => c,
                    Elem::Var(var) => i64::from(values[var.index()]),
                }
            };
            let show = |text: &mut String, elem: &Elem| {
                let v = value(elem);
                if item.boolean {
                    text.push_str(if v != 0 { "true" } else { "false" });
                } else {
                    let _ = write!(text, "{v}");
                }
            };
            let _ = write!(text, "{} = ", item.name);
            match &item.kind {
                OutputKind::Scalar(elem) => show(&mut text, elem),
                OutputKind::Array { dims, elems } => {
                    let _ = write!(text, "array{}d(", dims.len());
                    for &(lo, hi) in dims {
                        let _ = write!(text, "{lo}..{hi}, ");
                    }
                    text.push('[');
                    for (i, elem) in elems.iter().enumerate() {
                        if i > 0 {
                            text.push_str(", ");
                        }
                        show(&mut text, elem);
                    }
                    text.push_str("])");
                }
            }
            text.push_str(";\n");
        }
        text
    }
}
