//! FlatZinc's types, as a builtin's signature declares its parameters and as a declaration or an
//! argument has them, so that a constraint given the wrong kind of argument (`int_le(x, true)`) is
//! refused with a message that names the argument, before anything is posted.

use std::fmt;
use std::str::FromStr;

/// What a scalar, or each element of an array, is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Base {
    /// `int`.
    Int,
    /// `bool`.
    Bool,
    /// `float`.
    Float,
    /// `set of int`.
    Set,
}

impl Base {
    /// The name MiniZinc gives it.
    pub fn name(self) -> &'static str {
        match self {
            Base::Int => "int",
            Base::Bool => "bool",
            Base::Float => "float",
            Base::Set => "set of int",
        }
    }
}

/// A type: scalar or `array [int] of`, parameter or `var`, and its base.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Type {
    /// Whether it is an array (FlatZinc's arrays are one-dimensional).
    pub array: bool,
    /// Whether it is (or, in an array, may hold) a variable.
    pub var: bool,
    /// What it holds: `None` only for an empty array literal, which fits any array.
    pub base: Option<Base>,
}

impl Type {
    /// A scalar parameter.
    pub fn par(base: Base) -> Self {
        Type {
            array: false,
            var: false,
            base: Some(base),
        }
    }

    /// The same type, as a variable.
    pub fn var(self) -> Self {
        Type { var: true, ..self }
    }

    /// An array of this type.
    pub fn array_of(self) -> Self {
        Type {
            array: true,
            ..self
        }
    }

    /// The type of one element of this array.
    pub fn element(self) -> Self {
        Type {
            array: false,
            ..self
        }
    }

    /// Whether an argument of type `arg` may be passed for a parameter of this type: the same shape
    /// and base, and a parameter only where a parameter is declared (`var int` takes an `int` too).
    pub fn accepts(self, arg: Type) -> bool {
        self.array == arg.array
            && (self.var || !arg.var)
            && match (self.base, arg.base) {
                (Some(want), Some(have)) => want == have,
                // An empty array literal fits any array; nothing else lacks a base.
                _ => arg.array,
            }
    }
}

impl fmt::Display for Type {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.array {
            f.write_str("array [int] of ")?;
        }
        if self.var {
            f.write_str("var ")?;
        }
        f.write_str(self.base.map_or("anything", Base::name))
    }
}

/// A signature's parameter type that is not one of FlatZinc's.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("`{0}` is not a FlatZinc parameter type")]
pub struct ParseTypeError(String);

impl FromStr for Type {
    type Err = ParseTypeError;

    /// `[array [int] of] [var] (int | bool | float | set of int)`, with any spacing.
    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let error = || ParseTypeError(text.trim().to_owned());
        let spaced = text.replace('[', " [ ").replace(']', " ] ");
        let words: Vec<&str> = spaced.split_whitespace().collect();
        let (array, rest) = match words.as_slice() {
            ["array", "[", "int", "]", "of", rest @ ..] => (true, rest),
            rest => (false, rest),
        };
        let (var, rest) = match rest {
            ["var", rest @ ..] => (true, rest),
            rest => (false, rest),
        };
        let base = match rest {
            ["int"] => Base::Int,
            ["bool"] => Base::Bool,
            ["float"] => Base::Float,
            ["set", "of", "int"] => Base::Set,
            _ => return Err(error()),
        };
        Ok(Type {
            array,
            var,
            base: Some(base),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ty(text: &str) -> Type {
        text.parse().unwrap()
    }

    #[test]
    fn types_read_and_print_as_minizinc_writes_them() {
        for text in [
            "int",
            "var int",
            "var bool",
            "set of int",
            "array [int] of int",
            "array [int] of var bool",
            "array [int] of set of int",
        ] {
            assert_eq!(ty(text).to_string(), text);
        }
        assert_eq!(ty("array[int] of var int"), ty("array [int] of var int"));
        assert!("var".parse::<Type>().is_err());
        assert!("array [int] of".parse::<Type>().is_err());
        assert!("var string".parse::<Type>().is_err());
    }

    #[test]
    fn a_var_parameter_takes_a_constant_but_not_the_other_way_round() {
        assert!(ty("var int").accepts(ty("int")));
        assert!(!ty("int").accepts(ty("var int")));
        assert!(!ty("var int").accepts(ty("var bool")));
        assert!(!ty("var int").accepts(ty("array [int] of int")));
        assert!(ty("array [int] of var int").accepts(ty("array [int] of int")));
        let empty = Type {
            array: true,
            var: false,
            base: None,
        };
        assert!(ty("array [int] of var bool").accepts(empty));
        assert!(!ty("var bool").accepts(Type {
            array: false,
            ..empty
        }));
    }
}
