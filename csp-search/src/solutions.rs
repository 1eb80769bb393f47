//! The one interface of the searches that report solutions one at a time, so that a caller that
//! chooses among them at run time holds one value rather than matching on which it chose.

use crate::branch::Brancher;
use crate::{Interleaved, LnsSearch, Outcome, Search, SearchObserver, SearchResult};

/// A search that reports solutions one at a time: [`Search`] (with or without learning),
/// [`LnsSearch`] and [`Interleaved`]. Under an objective each solution is better than the last.
///
/// ```
/// use csp_core::ModelBuilder;
/// use csp_search::{Outcome, Search, SearchConfig, Solutions};
///
/// let mut builder = ModelBuilder::new();
/// let x = builder.int_var("x", 0..=3).unwrap();
/// builder.minimize(x).unwrap();
/// let model = builder.build();
/// let mut search: Box<dyn Solutions + '_> = Box::new(Search::new(&model, &SearchConfig::free()));
/// while let Some(values) = search.next(&mut ()) {
///     assert_eq!(values, [0]);
/// }
/// assert_eq!(search.outcome(), Some(Outcome::Optimal));
/// ```
pub trait Solutions {
    /// The next solution, or `None` once the search is over ([`Solutions::outcome`] says why),
    /// with `observer` watching every event on the way.
    fn next(&mut self, observer: &mut dyn SearchObserver) -> Option<&[i32]>;

    /// How the search ended, once it has.
    fn outcome(&self) -> Option<Outcome>;

    /// The result so far: its outcome ([`Outcome::Stopped`] while the search is not over), its
    /// statistics and its best solution.
    fn result(&self) -> SearchResult;
}

impl<B: Brancher> Solutions for Search<'_, B> {
    fn next(&mut self, mut observer: &mut dyn SearchObserver) -> Option<&[i32]> {
        // `&mut dyn SearchObserver` is itself an observer, and sized.
        self.next_solution(&mut observer)
    }

    fn outcome(&self) -> Option<Outcome> {
        Search::outcome(self)
    }

    fn result(&self) -> SearchResult {
        Search::result(self)
    }
}

impl Solutions for LnsSearch<'_> {
    fn next(&mut self, mut observer: &mut dyn SearchObserver) -> Option<&[i32]> {
        // `&mut dyn SearchObserver` is itself an observer, and sized.
        self.next_solution(&mut observer)
    }

    fn outcome(&self) -> Option<Outcome> {
        LnsSearch::outcome(self)
    }

    fn result(&self) -> SearchResult {
        LnsSearch::result(self)
    }
}

impl Solutions for Interleaved<'_> {
    fn next(&mut self, mut observer: &mut dyn SearchObserver) -> Option<&[i32]> {
        // `&mut dyn SearchObserver` is itself an observer, and sized.
        self.next_solution(&mut observer)
    }

    fn outcome(&self) -> Option<Outcome> {
        Interleaved::outcome(self)
    }

    fn result(&self) -> SearchResult {
        Interleaved::result(self)
    }
}
