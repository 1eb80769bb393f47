//! The one interface of the searches that report solutions one at a time, so that a caller that
//! chooses among them at run time holds one value rather than matching on which it chose.

use std::time::Duration;

use crate::{Outcome, SearchObserver, SearchResult, SharedBound};

/// A search that reports solutions one at a time: [`crate::Search`] (with or without learning),
/// [`crate::LnsSearch`] and [`crate::Interleaved`]. Under an objective each solution is better than the last.
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

    /// The nodes it has made so far.
    fn nodes(&self) -> u64;

    /// Lets it make at most `nodes` more nodes and spend at most `time` more (from now; `None`:
    /// no limit), in place of the node and time limits it had, so that a caller can run it in
    /// slices ([`crate::Interleaved`]).
    fn set_budget(&mut self, nodes: Option<u64>, time: Option<Duration>);

    /// Lets it go on after a node or time limit stopped it; whether it can (see
    /// [`crate::Search::resume`]).
    fn resume(&mut self) -> bool;

    /// Searches under `bound` too, shared with other searches of the model (see
    /// [`crate::Search::share_bound`]).
    fn share_bound(&mut self, bound: SharedBound);
}
