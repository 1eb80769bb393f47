//! Which constraints state the N-queens problem on the engine.

/// How [`crate::model`] states that no two queens attack each other.
///
/// Both encodings have the same variables (one per row, valued by column) and, under the same search,
/// the same behaviour: [`csp_core::Store::is_consistent`] accepts the same values and forward checking
/// removes the same values. They differ in cost.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Encoding {
    /// Three [`csp_core::constraints::NotEqual`] constraints for every pair of rows (column, up-diagonal,
    /// down-diagonal): the generic model, `3·n(n−1)/2` constraints, quadratic in memory.
    Pairwise,
    /// One [`crate::QueensConstraint`] over all rows, with column and diagonal counters: linear in
    /// memory apart from the domains, O(1) per check.
    #[default]
    Counters,
}

named_enum!(Encoding, "encoding", [Pairwise => "pairwise", Counters => "counters"]);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_encoding_parses_back_from_its_display_name() {
        for encoding in Encoding::ALL {
            assert_eq!(encoding.to_string().parse::<Encoding>(), Ok(encoding));
        }
        assert_eq!(Encoding::Pairwise.to_string(), "pairwise");
        assert_eq!(Encoding::Counters.to_string(), "counters");
    }

    #[test]
    fn default_encoding_is_counters() {
        assert_eq!(Encoding::default(), Encoding::Counters);
    }

    #[test]
    fn unknown_encoding_message_lists_the_valid_names() {
        let error = "Pairwise".parse::<Encoding>().unwrap_err();
        assert_eq!(
            error.to_string(),
            "unknown encoding `Pairwise`; expected one of: pairwise, counters"
        );
        // The message lists every name, so a new encoding cannot be left out of it unnoticed.
        for encoding in Encoding::ALL {
            assert!(error.to_string().contains(encoding.name()));
        }
    }
}
