//! What the probes share, whichever way they run: their seeds and generators, the running sums of
//! their estimates, and the estimate the sums give.

use rand::Rng as _;
use rand_pcg::Pcg32;

use crate::{Rng, StopFlag, rng_for};

/// The random stream the probes' seeds come from (see [`rng_for`]).
const PROBE_STREAM: u64 = 3;

/// One probe's own generator, seeded by the probe's word of the seed stream. Each probe draws only
/// from its own, so probes can run in any order, interleaved or side by side, and still make the
/// same choices. PCG32 (O'Neill 2014) has a specified output, like ChaCha, and costs a multiply per
/// draw; a probe draws once per level.
pub(super) type ProbeRng = Pcg32;

/// The seeds of successive probes: the `i`-th probe's generator is seeded by the `i`-th word.
#[derive(Debug)]
pub(super) struct ProbeSeeds(Rng);

impl ProbeSeeds {
    pub(super) fn new(seed: u64) -> Self {
        ProbeSeeds(rng_for(seed, PROBE_STREAM))
    }

    /// The next probe's generator.
    pub(super) fn next_probe(&mut self) -> ProbeRng {
        Pcg32::new(self.0.next_u64(), PROBE_STREAM)
    }
}

/// The result of [`knuth_probes`](crate::knuth_probes): the mean of the probes' estimates and its
/// standard error.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ProbeEstimate {
    /// How many probes were made: those asked for, or fewer when the search's stop flag
    /// ([`crate::SearchConfig::stop`]) was raised first.
    pub probes: u64,
    /// The estimated number of nodes of the full tree, root included.
    pub tree_size: f64,
    /// The standard error of `tree_size` (the probes' standard deviation over √probes).
    pub tree_size_std_error: f64,
    /// The estimated number of solutions.
    pub solutions: f64,
    /// The standard error of `solutions`.
    pub solutions_std_error: f64,
}

/// Runs `probes` probes one after another, each with its own generator, and averages them; once
/// `stop` is raised, averages the probes made so far.
pub(super) fn estimate(
    seed: u64,
    probes: u64,
    stop: Option<&StopFlag>,
    mut probe: impl FnMut(&mut ProbeRng) -> (f64, f64),
) -> ProbeEstimate {
    let mut seeds = ProbeSeeds::new(seed);
    let mut sums = Sums::default();
    let mut made = 0;
    while made < probes && !stop.is_some_and(StopFlag::is_stopped) {
        sums.add(probe(&mut seeds.next_probe()));
        made += 1;
    }
    sums.estimate(made)
}

/// The running sums of the probes' estimates and of their squares, added in probe order so that
/// every way of running the probes gives the same floating-point result.
#[derive(Debug, Default)]
pub(super) struct Sums {
    size: f64,
    size_squares: f64,
    solutions: f64,
    solution_squares: f64,
}

impl Sums {
    pub(super) fn add(&mut self, (size, solutions): (f64, f64)) {
        self.size += size;
        self.size_squares += size * size;
        self.solutions += solutions;
        self.solution_squares += solutions * solutions;
    }

    pub(super) fn estimate(&self, probes: u64) -> ProbeEstimate {
        let (tree_size, tree_size_std_error) = mean_and_error(self.size, self.size_squares, probes);
        let (solutions, solutions_std_error) =
            mean_and_error(self.solutions, self.solution_squares, probes);
        ProbeEstimate {
            probes,
            tree_size,
            tree_size_std_error,
            solutions,
            solutions_std_error,
        }
    }
}

/// The mean of `probes` samples and its standard error, from their sum and sum of squares.
fn mean_and_error(sum: f64, squares: f64, probes: u64) -> (f64, f64) {
    if probes == 0 {
        return (0.0, 0.0);
    }
    let count = probes as f64;
    let mean = sum / count;
    if probes < 2 {
        return (mean, 0.0);
    }
    let variance = ((squares - count * mean * mean) / (count - 1.0)).max(0.0);
    (mean, (variance / count).sqrt())
}
