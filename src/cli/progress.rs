//! A progress bar for long searches: the fraction of the estimated tree explored so far, with an ETA.

use std::io::IsTerminal;
use std::ops::ControlFlow;
use std::time::{Duration, Instant};

use csp_search::{SearchEvent, SearchObserver, TreeSizeEstimator};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// How often (in events) the bar is brought up to date: often enough to look live, rarely enough that
/// the estimate's sum over the path costs nothing.
const UPDATE_EVERY: u64 = 1 << 14;

/// Searches shorter than this never show a bar, so quick answers print cleanly.
const SHOW_AFTER: Duration = Duration::from_millis(300);

/// How far a search has come: nodes visited against Stone & Stone's online estimate of the full tree.
/// The drawing-free half of [`Progress`], so it can be tested.
#[derive(Debug, Default)]
pub struct Tracker {
    estimator: TreeSizeEstimator,
    /// Nodes visited, root included.
    visited: u64,
}

impl Tracker {
    /// Nodes visited so far, root included.
    pub fn visited(&self) -> u64 {
        self.visited
    }

    /// The estimated size of the full tree, never below what was visited.
    pub fn estimated_total(&self) -> u64 {
        (self.estimator.estimated_tree_size().round() as u64).max(self.visited)
    }

    /// The fraction of the estimated tree visited, in `0..=1` (the bar draws it from the two counts).
    #[cfg(test)]
    pub fn fraction(&self) -> f64 {
        self.visited as f64 / self.estimated_total().max(1) as f64
    }
}

impl SearchObserver for Tracker {
    fn on_event(&mut self, event: &SearchEvent<'_>) -> ControlFlow<()> {
        if self.visited == 0 {
            self.visited = 1; // the root
        }
        if let SearchEvent::Assign { .. } = event {
            self.visited += 1;
        }
        self.estimator.on_event(event)
    }
}

/// A [`Tracker`] drawing an indicatif bar on stderr, once the search has run for a moment.
pub struct Progress {
    tracker: Tracker,
    bar: Option<ProgressBar>,
    started: Instant,
    events: u64,
}

impl Progress {
    /// A progress display, or `None` when it should stay silent: asked not to, or stderr is not a
    /// terminal (a pipe or a file gets no bar codes).
    pub fn for_stderr(disabled: bool) -> Option<Self> {
        if disabled || !std::io::stderr().is_terminal() {
            return None;
        }
        Some(Progress {
            tracker: Tracker::default(),
            bar: None,
            started: Instant::now(),
            events: 0,
        })
    }

    fn update(&mut self) {
        if self.bar.is_none() && self.started.elapsed() >= SHOW_AFTER {
            let style = ProgressStyle::with_template(
                "{elapsed_precise} [{bar:30}] {percent:>3}% of ~{human_len} nodes (est.), ETA {eta}",
            )
            .expect("the template is valid")
            .progress_chars("=> ");
            let bar =
                ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr()).with_style(style);
            self.bar = Some(bar);
        }
        if let Some(bar) = &self.bar {
            bar.set_length(self.tracker.estimated_total());
            bar.set_position(self.tracker.visited());
        }
    }
}

impl SearchObserver for Progress {
    fn on_event(&mut self, event: &SearchEvent<'_>) -> ControlFlow<()> {
        self.events += 1;
        if self.events.is_multiple_of(UPDATE_EVERY) {
            self.update();
        }
        self.tracker.on_event(event)
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        // The answer follows on stdout; leave no half-drawn bar behind it.
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}

/// The fast counter's bar: subproblems finished out of the shard's, with an ETA, drawn on stderr once
/// the count has run for a moment and only when stderr is a terminal.
pub struct SubproblemBar {
    bar: std::cell::OnceCell<ProgressBar>,
    started: Instant,
}

impl SubproblemBar {
    /// A bar, or `None` when it should stay silent: asked not to, or stderr is not a terminal.
    pub fn for_stderr(disabled: bool) -> Option<Self> {
        if disabled || !std::io::stderr().is_terminal() {
            return None;
        }
        Some(SubproblemBar {
            bar: std::cell::OnceCell::new(),
            started: Instant::now(),
        })
    }

    /// Shows `finished` of `total` subproblems done.
    pub fn update(&self, finished: usize, total: usize) {
        if self.bar.get().is_none() && self.started.elapsed() < SHOW_AFTER {
            return;
        }
        let bar = self.bar.get_or_init(|| {
            let style = ProgressStyle::with_template(
                "{elapsed_precise} [{bar:30}] {pos}/{len} subproblems, ETA {eta}",
            )
            .expect("the template is valid")
            .progress_chars("=> ");
            ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr()).with_style(style)
        });
        bar.set_length(total as u64);
        bar.set_position(finished as u64);
    }
}

impl Drop for SubproblemBar {
    fn drop(&mut self) {
        if let Some(bar) = self.bar.get() {
            bar.finish_and_clear();
        }
    }
}

#[cfg(test)]
mod tests {
    use csp_search::{SearchConfig, solve};
    use nqueens_model::{Encoding, model};

    use super::*;

    #[test]
    fn a_completed_search_is_exactly_all_done() {
        let model = model(9, Encoding::Counters).unwrap();
        let mut tracker = Tracker::default();
        let result = solve(&model, &SearchConfig::lex().all_solutions(), &mut tracker);
        assert_eq!(tracker.visited(), result.stats.tree_nodes());
        assert_eq!(tracker.estimated_total(), result.stats.tree_nodes());
        assert_eq!(tracker.fraction(), 1.0);
    }

    #[test]
    fn a_terse_search_has_done_a_small_part() {
        let model = model(12, Encoding::Counters).unwrap();
        let mut tracker = Tracker::default();
        solve(&model, &SearchConfig::lex(), &mut tracker);
        // Table 1: about 715,000 nodes estimated after the first of 14,200 solutions.
        assert!(tracker.fraction() < 0.01, "{}", tracker.fraction());
        assert!(tracker.estimated_total() > 700_000);
    }

    #[test]
    fn nothing_is_drawn_when_stderr_is_not_a_terminal_or_progress_is_off() {
        assert!(Progress::for_stderr(true).is_none());
        if !std::io::stderr().is_terminal() {
            assert!(Progress::for_stderr(false).is_none());
        }
    }
}
