//! MiniZinc's variable and value selections (the `int_search` annotation's `varsel` and `valsel`), as
//! the MiniZinc documentation defines them.

use std::fmt;
use std::str::FromStr;

use csp_core::VarId;

/// Which unfixed variable of a group a node branches on (MiniZinc's variable selection). Ties go to the
/// variable listed first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum VariableSelection {
    /// `input_order`: the first unfixed variable, in the order listed.
    #[default]
    InputOrder,
    /// `first_fail`: the smallest domain.
    FirstFail,
    /// `anti_first_fail`: the largest domain.
    AntiFirstFail,
    /// `smallest`: the smallest value in its domain.
    Smallest,
    /// `largest`: the largest value in its domain.
    Largest,
    /// `occurrence`: the most constraints on it.
    Occurrence,
    /// `most_constrained`: the smallest domain, ties broken by the most constraints.
    MostConstrained,
    /// `max_regret`: the largest difference between its two smallest values.
    MaxRegret,
    /// `dom_w_deg`: the smallest ratio of domain size to weighted degree (Boussemart et al., 2004;
    /// a constraint's weight grows each time its propagation fails).
    DomWDeg,
}

/// Which decision a node makes on the chosen variable (MiniZinc's value selection). Each is a binary
/// branch: the decision, then its negation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum ValueSelection {
    /// `indomain_min`: `x = min`, then `x ≠ min`.
    #[default]
    Min,
    /// `indomain_max`: `x = max`, then `x ≠ max`.
    Max,
    /// `indomain_median`: `x = m` for the median value `m` of the domain (the lower one when the
    /// domain has an even number of values), then `x ≠ m`.
    Median,
    /// `indomain_middle`: `x = v` for the value `v` closest to the middle of the bounds,
    /// `⌊(min + max) / 2⌋` (ties: the smaller), then `x ≠ v`.
    Middle,
    /// `indomain_random`: `x = v` for a seeded random value `v` of the domain, then `x ≠ v`.
    Random,
    /// `indomain_split`: `x ≤ ⌊(min + max) / 2⌋`, then `x >` it.
    Split,
    /// `indomain_reverse_split`: `x > ⌊(min + max) / 2⌋`, then `x ≤` it.
    ReverseSplit,
    /// `indomain_interval`: when the domain has holes, `x ≤ e` for the end `e` of its first interval
    /// (then `x > e`); when it is one interval, as `indomain_split`.
    Interval,
    /// `outdomain_min`: `x ≠ min`, then `x = min`.
    OutdomainMin,
    /// `outdomain_max`: `x ≠ max`, then `x = max`.
    OutdomainMax,
    /// `outdomain_median`: `x ≠ m` for the median `m` (as `indomain_median`), then `x = m`.
    OutdomainMedian,
}

impl VariableSelection {
    /// Every selection, in the order MiniZinc's documentation lists them.
    pub const ALL: [VariableSelection; 9] = [
        VariableSelection::InputOrder,
        VariableSelection::FirstFail,
        VariableSelection::AntiFirstFail,
        VariableSelection::Smallest,
        VariableSelection::Largest,
        VariableSelection::Occurrence,
        VariableSelection::MostConstrained,
        VariableSelection::MaxRegret,
        VariableSelection::DomWDeg,
    ];

    /// The MiniZinc name.
    pub fn name(self) -> &'static str {
        match self {
            VariableSelection::InputOrder => "input_order",
            VariableSelection::FirstFail => "first_fail",
            VariableSelection::AntiFirstFail => "anti_first_fail",
            VariableSelection::Smallest => "smallest",
            VariableSelection::Largest => "largest",
            VariableSelection::Occurrence => "occurrence",
            VariableSelection::MostConstrained => "most_constrained",
            VariableSelection::MaxRegret => "max_regret",
            VariableSelection::DomWDeg => "dom_w_deg",
        }
    }
}

impl ValueSelection {
    /// Every selection, in the order MiniZinc's documentation lists them.
    pub const ALL: [ValueSelection; 11] = [
        ValueSelection::Min,
        ValueSelection::Max,
        ValueSelection::Median,
        ValueSelection::Middle,
        ValueSelection::Random,
        ValueSelection::Split,
        ValueSelection::ReverseSplit,
        ValueSelection::Interval,
        ValueSelection::OutdomainMin,
        ValueSelection::OutdomainMax,
        ValueSelection::OutdomainMedian,
    ];

    /// The MiniZinc name.
    pub fn name(self) -> &'static str {
        match self {
            ValueSelection::Min => "indomain_min",
            ValueSelection::Max => "indomain_max",
            ValueSelection::Median => "indomain_median",
            ValueSelection::Middle => "indomain_middle",
            ValueSelection::Random => "indomain_random",
            ValueSelection::Split => "indomain_split",
            ValueSelection::ReverseSplit => "indomain_reverse_split",
            ValueSelection::Interval => "indomain_interval",
            ValueSelection::OutdomainMin => "outdomain_min",
            ValueSelection::OutdomainMax => "outdomain_max",
            ValueSelection::OutdomainMedian => "outdomain_median",
        }
    }
}

impl fmt::Display for VariableSelection {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl fmt::Display for ValueSelection {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A name that is not one of MiniZinc's selections.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown {kind} `{name}`")]
pub struct ParseSelectionError {
    /// "variable selection" or "value selection".
    pub kind: &'static str,
    /// The name given.
    pub name: String,
}

impl FromStr for VariableSelection {
    type Err = ParseSelectionError;

    fn from_str(name: &str) -> Result<Self, Self::Err> {
        VariableSelection::ALL
            .into_iter()
            .find(|s| s.name() == name)
            .ok_or_else(|| ParseSelectionError {
                kind: "variable selection",
                name: name.to_owned(),
            })
    }
}

impl FromStr for ValueSelection {
    type Err = ParseSelectionError;

    /// MiniZinc's names, and `indomain`, an older name of `indomain_min` that models still use.
    fn from_str(name: &str) -> Result<Self, Self::Err> {
        if name == "indomain" {
            return Ok(ValueSelection::Min);
        }
        ValueSelection::ALL
            .into_iter()
            .find(|s| s.name() == name)
            .ok_or_else(|| ParseSelectionError {
                kind: "value selection",
                name: name.to_owned(),
            })
    }
}

/// MiniZinc's `int_search(vars, varsel, valsel)`: branch on the unfixed variables of `vars` as the
/// selections say, until all of them are fixed.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct IntSearch {
    /// The variables, in input order.
    pub vars: Vec<VarId>,
    /// Which variable each node branches on.
    pub variable: VariableSelection,
    /// Which decision it makes.
    pub value: ValueSelection,
}

impl IntSearch {
    /// `int_search(vars, variable, value)`.
    pub fn new(vars: Vec<VarId>, variable: VariableSelection, value: ValueSelection) -> Self {
        IntSearch {
            vars,
            variable,
            value,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn minizinc_names_round_trip() {
        for s in VariableSelection::ALL {
            assert_eq!(s.name().parse::<VariableSelection>(), Ok(s));
        }
        for s in ValueSelection::ALL {
            assert_eq!(s.to_string().parse::<ValueSelection>(), Ok(s));
        }
        assert_eq!(
            "indomain".parse::<ValueSelection>(),
            Ok(ValueSelection::Min)
        );
        let error = "fastest".parse::<VariableSelection>().unwrap_err();
        assert_eq!(error.to_string(), "unknown variable selection `fastest`");
    }
}
