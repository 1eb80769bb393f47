//! A user's choices of search strategy over a problem's default search: what the `csp` command's
//! `--order`, `--ties`, `--values`, `--propagation` and `--restarts` options and the Python
//! package's keyword arguments of the same names both mean, written once.

use crate::{Propagation, Restarts, SearchConfig, TiePolicy, ValueOrderKind, VariableOrderKind};

/// Where a problem's search starts before a user's [`SearchChoices`] are put in.
#[derive(Debug, Clone)]
pub struct SearchDefaults {
    /// The configuration while none of the strategy choices is made.
    pub preset: SearchConfig,
    /// The configuration the choices change once any of them is made.
    pub chosen: SearchConfig,
    /// The node budget of a Luby run of length 1 when restarts are turned on by a choice.
    pub restart_base: u64,
}

impl SearchDefaults {
    /// One configuration whether choices are made or not, with restarts based at 100 nodes.
    pub fn of(config: SearchConfig) -> Self {
        SearchDefaults {
            preset: config.clone(),
            chosen: config,
            restart_base: 100,
        }
    }
}

/// A user's choices, each `None` where the problem's default stands.
///
/// While none of `order`, `ties`, `values`, `propagation` and `restarts` is made, the problem's
/// preset runs ([`SearchDefaults::preset`]); once one is, the others take the values of
/// [`SearchDefaults::chosen`]. This is why, on N-queens, a single choice of `order = lex` runs LEX
/// with the chosen configuration's forward checking, and `propagation = check-past` must be chosen
/// too for Stone & Stone's LEX.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SearchChoices {
    /// The variable ordering.
    pub order: Option<VariableOrderKind>,
    /// How ties between equally good variables are broken.
    pub ties: Option<TiePolicy>,
    /// The value ordering.
    pub values: Option<ValueOrderKind>,
    /// The propagation.
    pub propagation: Option<Propagation>,
    /// Restarts on the Luby schedule (`Some(true)`) or never (`Some(false)`).
    pub restarts: Option<bool>,
    /// The node budget of a Luby run of length 1, when restarts run.
    pub restart_base: Option<u64>,
    /// The seed of every random choice of the search.
    pub seed: u64,
}

impl SearchChoices {
    /// Whether none of the strategy choices was made, so that the problem's preset applies.
    pub fn is_preset(&self) -> bool {
        self.order.is_none()
            && self.ties.is_none()
            && self.values.is_none()
            && self.propagation.is_none()
            && self.restarts.is_none()
    }

    /// The configuration: `defaults`' preset or chosen configuration with every choice made put in,
    /// and the seed. The limits and the solution limit are the defaults'.
    pub fn config(&self, defaults: SearchDefaults) -> SearchConfig {
        let mut config = if self.is_preset() {
            defaults.preset
        } else {
            defaults.chosen
        };
        if let Some(order) = self.order {
            config.variable_order = order;
        }
        if let Some(ties) = self.ties {
            config.ties = ties;
        }
        if let Some(values) = self.values {
            config.value_order = values;
        }
        if let Some(propagation) = self.propagation {
            config.propagation = propagation;
        }
        match self.restarts {
            Some(false) => config.restarts = None,
            // A problem whose default restarts keeps its own base.
            Some(true) => {
                config.restarts.get_or_insert(Restarts {
                    base_nodes: defaults.restart_base,
                });
            }
            None => {}
        }
        if let (Some(base_nodes), Some(restarts)) = (self.restart_base, config.restarts.as_mut()) {
            restarts.base_nodes = base_nodes;
        }
        config.seed = self.seed;
        config
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn defaults() -> SearchDefaults {
        SearchDefaults {
            preset: SearchConfig::fast_preset(8),
            chosen: SearchConfig::min(),
            restart_base: 132,
        }
    }

    #[test]
    fn no_choice_keeps_the_preset_and_one_choice_switches_to_the_chosen_configuration() {
        let seeded = SearchChoices {
            seed: 9,
            ..SearchChoices::default()
        };
        let config = seeded.config(defaults());
        assert_eq!(config.ties, TiePolicy::Random);
        assert_eq!(config.seed, 9);
        let lex = SearchChoices {
            order: Some(VariableOrderKind::Lexicographic),
            ..SearchChoices::default()
        };
        let config = lex.config(defaults());
        assert_eq!(config.variable_order, VariableOrderKind::Lexicographic);
        assert_eq!(config.ties, TiePolicy::LowestIndex);
        assert_eq!(config.propagation, Propagation::ForwardChecking);
        assert_eq!(config.restarts, None);
    }

    #[test]
    fn restarts_take_the_problem_base_unless_one_is_chosen() {
        let luby = SearchChoices {
            restarts: Some(true),
            ..SearchChoices::default()
        };
        assert_eq!(
            luby.config(defaults()).restarts,
            Some(Restarts { base_nodes: 132 })
        );
        let based = SearchChoices {
            restart_base: Some(7),
            ..luby
        };
        assert_eq!(
            based.config(defaults()).restarts,
            Some(Restarts { base_nodes: 7 })
        );
        let never = SearchChoices {
            restarts: Some(false),
            restart_base: Some(7),
            ..SearchChoices::default()
        };
        assert_eq!(never.config(defaults()).restarts, None);
    }
}
