//! Progress on stderr for long runs: the share of Stone & Stone's online estimate of the search tree
//! explored so far and an ETA (every engine command of `csp`, and `fzn-csp --progress`, which adds
//! the best objective, the root's bound and the gap), and the fast counter's subproblems.
//!
//! On a terminal it is an indicatif bar, drawn once a run has lasted [`SHOW_AFTER`] so that quick
//! answers print cleanly; asked for when stderr is not a terminal (MiniZinc's pipe, a log file), it
//! is a plain line a second. The estimate covers the current run: a restart begins a new tree, and
//! branch and bound restarts after each improving solution.

use std::io::{IsTerminal, Write};
use std::ops::ControlFlow;
use std::time::{Duration, Instant};

use csp_search::{SearchEvent, SearchObserver, TreeSizeEstimator};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// Quick answers print cleanly: nothing is drawn before this.
const SHOW_AFTER: Duration = Duration::from_millis(300);

/// How often a plain line is written when stderr is not a terminal.
const LINE_EVERY: Duration = Duration::from_secs(1);

/// The bars' common look: elapsed time, the bar, then what it counts.
fn bar(counted: &str) -> ProgressBar {
    let style =
        ProgressStyle::with_template(&format!("{{elapsed_precise}} [{{bar:30}}] {counted}"))
            .expect("the template is valid")
            .progress_chars("=> ");
    ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr()).with_style(style)
}

/// Whether progress is drawn: forced (`--progress`), forbidden (`--no-progress`), and by default
/// only when stderr is a terminal.
pub fn progress_wanted(forced: bool, forbidden: bool) -> bool {
    !forbidden && (forced || std::io::stderr().is_terminal())
}

/// How far a search has come: nodes of the current run visited against Stone & Stone's online
/// estimate of its full tree, and the best objective so far. The drawing-free half of [`Progress`],
/// so it can be tested.
#[derive(Debug)]
pub struct Tracker {
    estimator: TreeSizeEstimator,
    /// Nodes of the current run, root included.
    visited: u64,
    /// The objective of the last solution, under optimisation.
    objective: Option<i32>,
}

impl Default for Tracker {
    fn default() -> Self {
        Tracker {
            estimator: TreeSizeEstimator::new(),
            visited: 1,
            objective: None,
        }
    }
}

impl Tracker {
    /// Nodes of the current run visited so far, root included.
    pub fn visited(&self) -> u64 {
        self.visited
    }

    /// The estimated size of the current run's full tree, never below what was visited.
    pub fn estimated_total(&self) -> u64 {
        (self.estimator.estimated_tree_size().round() as u64).max(self.visited)
    }

    /// The fraction of the estimated tree visited, in `0..=1`.
    pub fn fraction(&self) -> f64 {
        self.visited as f64 / self.estimated_total().max(1) as f64
    }

    /// The objective of the last solution found, under optimisation.
    pub fn objective(&self) -> Option<i32> {
        self.objective
    }
}

impl SearchObserver for Tracker {
    fn on_event(&mut self, event: &SearchEvent<'_>) -> ControlFlow<()> {
        match event {
            SearchEvent::Assign { .. } | SearchEvent::Decide { .. } => self.visited += 1,
            SearchEvent::Restart { .. } => self.visited = 1,
            SearchEvent::Solution { objective, .. } => self.objective = *objective,
            _ => {}
        }
        self.estimator.on_event(event)
    }
}

/// The longest time to go that the plain lines print as a number of seconds (about 116 days).
const MAX_ETA_SECONDS: f64 = 1e7;

/// A [`Tracker`] drawn on stderr: a bar on a terminal, else a line a second.
pub struct Progress {
    tracker: Tracker,
    /// How often (in events) the clock is read: rarely enough to cost nothing per node.
    every: u64,
    events: u64,
    started: Instant,
    /// A bar (a terminal), or plain lines.
    terminal: bool,
    bar: Option<ProgressBar>,
    last_line: Instant,
    /// The objective's bound at the root, under optimisation; `None` shows no objective at all.
    bound: Option<Option<i64>>,
}

impl Progress {
    /// `csp`'s bar, or `None` when it should stay silent: asked not to, or stderr is not a terminal
    /// (a pipe or a file gets no bar codes).
    pub fn for_stderr(disabled: bool) -> Option<Self> {
        if disabled || !std::io::stderr().is_terminal() {
            return None;
        }
        Some(Progress::new(true, 1 << 14, None))
    }

    /// `fzn-csp`'s display, drawn whether stderr is a terminal or not, with the objective so far and
    /// `bound`, the objective's bound at the root (for optimisation).
    pub fn for_flatzinc(bound: Option<i64>) -> Self {
        Progress::new(std::io::stderr().is_terminal(), 1 << 12, Some(bound))
    }

    fn new(terminal: bool, every: u64, bound: Option<Option<i64>>) -> Self {
        let now = Instant::now();
        Progress {
            tracker: Tracker::default(),
            every,
            events: 0,
            started: now,
            terminal,
            bar: None,
            last_line: now,
            bound,
        }
    }

    /// The objective and bound, as the display's tail (empty without them).
    fn message(&self) -> String {
        let Some(bound) = self.bound else {
            return String::new();
        };
        match (self.tracker.objective, bound) {
            (Some(objective), Some(bound)) => {
                // The gap, as MiniZinc's tools give it: the distance to the bound over the
                // objective's magnitude.
                let gap = (i64::from(objective) - bound).unsigned_abs() as f64
                    / (i64::from(objective).unsigned_abs().max(1)) as f64;
                format!(
                    "objective {objective}, bound {bound}, gap {:.1}%",
                    100.0 * gap
                )
            }
            (Some(objective), None) => format!("objective {objective}"),
            (None, Some(bound)) => format!("no solution yet, bound {bound}"),
            (None, None) => String::new(),
        }
    }

    fn update(&mut self) {
        let elapsed = self.started.elapsed();
        if elapsed < SHOW_AFTER {
            return;
        }
        let total = self.tracker.estimated_total();
        let message = self.message();
        if self.terminal {
            let with_tail = self.bound.is_some();
            let bar = self.bar.get_or_insert_with(|| {
                bar(if with_tail {
                    "{percent:>3}% of ~{human_len} nodes (est.), ETA {eta} {msg}"
                } else {
                    "{percent:>3}% of ~{human_len} nodes (est.), ETA {eta}"
                })
            });
            bar.set_length(total);
            bar.set_position(self.tracker.visited);
            bar.set_message(message);
        } else if self.last_line.elapsed() >= LINE_EVERY {
            self.last_line = Instant::now();
            let share = self.tracker.fraction();
            let eta = if share > 0.0 {
                let seconds = elapsed.as_secs_f64() * (1.0 - share) / share;
                if seconds < MAX_ETA_SECONDS {
                    format!("{seconds:.0} s")
                } else {
                    // Early in a large search the estimate is astronomical; its digits say nothing.
                    "over 100 days".to_owned()
                }
            } else {
                "unknown".to_owned()
            };
            let total = if total < 1 << 40 {
                total.to_string()
            } else {
                format!("{:.1e}", total as f64)
            };
            let _ = writeln!(
                std::io::stderr(),
                "% progress: {:.2}% of ~{total} nodes (est.), ETA {eta}; {message}",
                100.0 * share,
            );
        }
    }
}

impl SearchObserver for Progress {
    fn on_event(&mut self, event: &SearchEvent<'_>) -> ControlFlow<()> {
        self.events += 1;
        if self.events.is_multiple_of(self.every) {
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
        let bar = self
            .bar
            .get_or_init(|| bar("{pos}/{len} subproblems, ETA {eta}"));
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
    use csp_search::{Search, SearchConfig, solve};
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
        assert!(!progress_wanted(true, true));
        assert!(progress_wanted(true, false));
    }

    #[test]
    fn a_finished_optimisation_is_all_done_and_its_objective_is_shown() {
        let compiled = csp_flatzinc::compile(
            "array [1..4] of var 1..4: q :: output_array([1..4]);\n\
             constraint fzn_all_different_int(q);\n\
             solve minimize q[1];\n",
        )
        .unwrap();
        let mut config = compiled.search_config(false);
        config.restarts = None;
        let mut search = Search::new(compiled.model(), &config);
        let mut progress = Progress::for_flatzinc(Some(1));
        while search.next_solution(&mut progress).is_some() {}
        assert_eq!(progress.tracker.objective(), Some(1));
        assert_eq!(
            progress.tracker.estimated_total(),
            progress.tracker.visited()
        );
        assert_eq!(progress.message(), "objective 1, bound 1, gap 0.0%");
    }
}
