//! One table of names for each option enum of this crate ([`crate::Encoding`],
//! [`crate::stream::Format`], [`crate::construct::Method`], [`crate::local_search::LocalMethod`]).
//!
//! [`named_enum!`] turns the table into the enum's `ALL` and `name`, its `Display` and `FromStr`, and,
//! with the `clap` feature, its `clap::ValueEnum`: so messages, parsers and the command line all spell
//! a name the way the table does, and a new variant that the table leaves out does not compile.

use thiserror::Error;

/// A string that names no value of one of this crate's option enums.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("unknown {what} `{input}`; expected one of: {}", expected.join(", "))]
pub struct ParseNameError {
    /// What the string should have named: `encoding`, `format`, `method`, `local-search method`.
    pub what: &'static str,
    /// The string that was given.
    pub input: String,
    /// Every name that is understood, in the order messages list them.
    pub expected: &'static [&'static str],
}

/// Implements the names of a fieldless enum from one table: `named_enum!(Type, "what it is",
/// [Variant => "name", …])`. The table's order is `ALL`'s, the order messages and `--help` list them.
macro_rules! named_enum {
    ($type:ident, $what:literal, [$($variant:ident => $name:literal),+ $(,)?]) => {
        impl $type {
            /// Every value, in the order messages list them.
            pub const ALL: [$type; [$($name),+].len()] = [$($type::$variant),+];

            /// The name that [`Display`](std::fmt::Display) prints, [`FromStr`](std::str::FromStr)
            /// reads and the command line takes.
            pub const fn name(self) -> &'static str {
                match self {
                    $($type::$variant => $name),+
                }
            }
        }

        impl std::fmt::Display for $type {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(self.name())
            }
        }

        impl std::str::FromStr for $type {
            type Err = $crate::ParseNameError;

            /// Reads a [`name`](Self::name), exactly as [`Display`](std::fmt::Display) prints it.
            fn from_str(input: &str) -> Result<Self, Self::Err> {
                Self::ALL
                    .into_iter()
                    .find(|value| value.name() == input)
                    .ok_or_else(|| $crate::ParseNameError {
                        what: $what,
                        input: input.to_owned(),
                        expected: &[$($name),+],
                    })
            }
        }

        #[cfg(feature = "clap")]
        impl clap::ValueEnum for $type {
            fn value_variants<'a>() -> &'a [Self] {
                &Self::ALL
            }

            fn to_possible_value(&self) -> Option<clap::builder::PossibleValue> {
                Some(clap::builder::PossibleValue::new(self.name()))
            }
        }
    };
}
