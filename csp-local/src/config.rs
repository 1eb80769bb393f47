//! What a min-conflicts run does: its start, neighbourhood, limits and diversification.

use std::time::Duration;

/// How the first complete assignment is made.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Start {
    /// Every variable takes a value drawn uniformly from its domain.
    Random,
    /// A random permutation: the variables take distinct values, in random order, from the one domain
    /// they all share, which must hold exactly as many values as there are variables
    /// ([`crate::LocalError::NotAPermutation`] otherwise). The start for [`Neighbourhood::Swap`],
    /// which keeps a permutation a permutation (Sosič & Gu's QS1 starts this way).
    Permutation,
    /// Minton et al.'s greedy start: the variables in order, each taking a value consistent (by the
    /// constraints' [`check`](csp_core::Propagator::check)) with those placed before it. Up to `samples`
    /// values are drawn at random; if none is consistent, the domain is scanned from a random point
    /// for the first consistent value; if there is none, a random value is taken and repair starts
    /// from there. Draws keep the common case O(samples), and the scan keeps the last, crowded
    /// variables from giving up early, so a large N-queens board starts with only a few dozen
    /// conflicts.
    Greedy {
        /// Values drawn per variable before the scan.
        samples: u32,
    },
}

/// Which moves a step considers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Neighbourhood {
    /// Change one conflicted variable's value to any value of its domain (classic min-conflicts).
    Change,
    /// Swap the values of a conflicted variable and another variable, so that a permutation stays a
    /// permutation (as in Sosič & Gu's QS algorithms). Every other variable is a candidate partner
    /// when there are at most `partners` of them; otherwise `partners` are drawn at random.
    Swap {
        /// Partners examined per step; at least 1.
        partners: u32,
    },
}

/// The configuration of [`crate::min_conflicts`]. Start from [`LocalConfig::default`] and change what
/// you need with the `with_*` methods.
#[derive(Debug, Clone, PartialEq)]
pub struct LocalConfig {
    /// How the first assignment (and each restart's) is made.
    pub start: Start,
    /// The moves considered at each step.
    pub neighbourhood: Neighbourhood,
    /// Steps allowed in all, over every restart; `None` for no limit.
    pub max_steps: Option<u64>,
    /// Steps after which an unsolved try restarts from a new start; `None` never restarts.
    pub restart_after: Option<u64>,
    /// The probability, in `[0, 1]`, that a step is a random walk: the conflicted variable takes a
    /// random value (or swaps with a random partner) instead of the best one.
    pub noise: f64,
    /// For how many steps a variable may not return to the value it just left (0: no tabu).
    pub tabu_tenure: u64,
    /// Wall-clock time allowed; `None` for no limit.
    pub time_limit: Option<Duration>,
    /// The seed of every random choice: the same seed gives the same run on any machine.
    pub seed: u64,
}

impl Default for LocalConfig {
    /// Greedy start with 64 samples, change neighbourhood, no noise, no tabu, no restarts and no
    /// limits, seed 0.
    fn default() -> Self {
        LocalConfig {
            start: Start::Greedy { samples: 64 },
            neighbourhood: Neighbourhood::Change,
            max_steps: None,
            restart_after: None,
            noise: 0.0,
            tabu_tenure: 0,
            time_limit: None,
            seed: 0,
        }
    }
}

impl LocalConfig {
    /// The same configuration with another seed.
    pub fn with_seed(mut self, seed: u64) -> Self {
        self.seed = seed;
        self
    }

    /// The same configuration with another start.
    pub fn with_start(mut self, start: Start) -> Self {
        self.start = start;
        self
    }

    /// The same configuration with another neighbourhood.
    pub fn with_neighbourhood(mut self, neighbourhood: Neighbourhood) -> Self {
        self.neighbourhood = neighbourhood;
        self
    }

    /// The same configuration with a step limit.
    pub fn with_max_steps(mut self, max_steps: u64) -> Self {
        self.max_steps = Some(max_steps);
        self
    }

    /// The same configuration restarting every `steps` steps.
    pub fn with_restart_after(mut self, steps: u64) -> Self {
        self.restart_after = Some(steps);
        self
    }

    /// The same configuration with random-walk probability `noise` (clamped to `[0, 1]`).
    pub fn with_noise(mut self, noise: f64) -> Self {
        self.noise = if noise.is_nan() {
            0.0
        } else {
            noise.clamp(0.0, 1.0)
        };
        self
    }

    /// The same configuration with a tabu tenure.
    pub fn with_tabu_tenure(mut self, tenure: u64) -> Self {
        self.tabu_tenure = tenure;
        self
    }

    /// The same configuration with a time limit.
    pub fn with_time_limit(mut self, limit: Duration) -> Self {
        self.time_limit = Some(limit);
        self
    }
}
