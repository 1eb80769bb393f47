//! Progress no MiniZinc solver shows: the share of Stone & Stone's online estimate of the search tree
//! explored so far, an ETA, and for optimisation the best objective and the root's bound, on stderr.
//!
//! On a terminal it is an indicatif bar; asked for with `--progress` when stderr is not a terminal
//! (MiniZinc's pipe, a log file), it is a plain line a second. The estimate covers the current run:
//! a restart begins a new tree, and branch and bound restarts after each improving solution.

use std::io::{IsTerminal, Write};
use std::ops::ControlFlow;
use std::time::{Duration, Instant};

use csp::search::{SearchEvent, SearchObserver, TreeSizeEstimator};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// How often (in events) the clock is read: rarely enough to cost nothing per node.
const CHECK_EVERY: u64 = 1 << 12;

/// Quick answers print cleanly: nothing is drawn before this.
const SHOW_AFTER: Duration = Duration::from_millis(300);

/// How often a plain line is written when stderr is not a terminal.
const LINE_EVERY: Duration = Duration::from_secs(1);

/// Whether progress is drawn: `--progress` forces it, `--no-progress` forbids it, and by default it
/// is drawn only when stderr is a terminal.
pub fn wanted(forced: bool, forbidden: bool) -> bool {
    !forbidden && (forced || std::io::stderr().is_terminal())
}

/// The progress observer.
pub struct Progress {
    estimator: TreeSizeEstimator,
    /// Nodes of the current run, root included.
    visited: u64,
    events: u64,
    started: Instant,
    last_line: Instant,
    bar: Option<ProgressBar>,
    terminal: bool,
    objective: Option<i32>,
    bound: Option<i64>,
}

impl Progress {
    /// A progress display; `bound` is the objective's bound at the root, for optimisation.
    pub fn new(bound: Option<i64>) -> Self {
        let now = Instant::now();
        Progress {
            estimator: TreeSizeEstimator::new(),
            visited: 1,
            events: 0,
            started: now,
            last_line: now,
            bar: None,
            terminal: std::io::stderr().is_terminal(),
            objective: None,
            bound,
        }
    }

    /// The estimated size of the current run's tree, never below what it visited.
    fn estimated_total(&self) -> u64 {
        (self.estimator.estimated_tree_size().round() as u64).max(self.visited)
    }

    /// The objective and bound, as the display's tail.
    fn message(&self) -> String {
        match (self.objective, self.bound) {
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
        let total = self.estimated_total();
        let message = self.message();
        if self.terminal {
            let bar = self.bar.get_or_insert_with(|| {
                let style = ProgressStyle::with_template(
                    "{elapsed_precise} [{bar:30}] {percent:>3}% of ~{human_len} nodes (est.), ETA {eta} {msg}",
                )
                .expect("the template is valid")
                .progress_chars("=> ");
                ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr()).with_style(style)
            });
            bar.set_length(total);
            bar.set_position(self.visited);
            bar.set_message(message);
        } else if self.last_line.elapsed() >= LINE_EVERY {
            self.last_line = Instant::now();
            let share = self.visited as f64 / total.max(1) as f64;
            let eta = if share > 0.0 {
                format!("{:.0} s", elapsed.as_secs_f64() * (1.0 - share) / share)
            } else {
                "unknown".to_owned()
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
        match event {
            SearchEvent::Assign { .. } | SearchEvent::Decide { .. } => self.visited += 1,
            SearchEvent::Restart { .. } => self.visited = 1,
            SearchEvent::Solution { objective, .. } => self.objective = *objective,
            _ => {}
        }
        self.events += 1;
        if self.events.is_multiple_of(CHECK_EVERY) {
            self.update();
        }
        self.estimator.on_event(event)
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

#[cfg(test)]
mod tests {
    use csp::flatzinc::compile;
    use csp::search::Search;

    use super::*;

    #[test]
    fn a_finished_search_is_all_done_and_the_objective_is_shown() {
        let compiled = compile(
            "array [1..4] of var 1..4: q :: output_array([1..4]);\n\
             constraint fzn_all_different_int(q);\n\
             solve minimize q[1];\n",
        )
        .unwrap();
        let mut config = compiled.search_config(false);
        config.restarts = None;
        let mut search = Search::new(compiled.model(), &config);
        let mut progress = Progress::new(Some(1));
        while search.next_solution(&mut progress).is_some() {}
        assert_eq!(progress.objective, Some(1));
        assert_eq!(progress.estimated_total(), progress.visited);
        assert_eq!(progress.message(), "objective 1, bound 1, gap 0.0%");
    }
}
