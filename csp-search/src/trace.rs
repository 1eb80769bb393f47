//! A recorder of search events in a stable, documented text format, for reading searches and for
//! snapshot tests of heuristics.

use std::fmt::Write as _;
use std::ops::ControlFlow;

use csp_core::Model;

use crate::{SearchEvent, SearchObserver};

/// Records a search as text, one line per event. The format is stable: snapshot tests depend on it.
///
/// Every line starts with the event's level (right-aligned in 3 columns; the root is level 1), then
/// the event's kind (padded to 8 columns), then its details:
///
/// ```text
///   1 enter    q0 choices=4        the node at level 1 branches on q0, which has 4 values to try
///   2 assign   q0=1                q0 = 1 makes a node at level 2
///   3 deadend                      the node at level 3 cannot be extended
///   3 undo     q1=3                the node at level 3, made by q1 = 3, is left (a backtrack)
///   4 decide   x2<=5               x2 ≤ 5 makes a node at level 4 (search by decisions; also !=, >=)
///   4 retract  x2<=5               the node at level 4, made by x2 ≤ 5, is left (a backtrack)
///   5 solution q0=1 q1=3 q2=0 q3=2 every variable is assigned
///   1 restart  count=1             the search starts again from the root
/// ```
///
/// Variables are written by their model names. Recording stops (and stops the search) after `limit`
/// events, if a limit is given; the last line then reads `... stopped after N events`.
#[derive(Debug, Clone)]
pub struct TraceRecorder {
    names: Vec<String>,
    text: String,
    events: u64,
    limit: Option<u64>,
}

impl TraceRecorder {
    /// A recorder for searches of `model`, recording at most `limit` events (`None`: all).
    pub fn new(model: &Model, limit: Option<u64>) -> Self {
        TraceRecorder {
            names: model.vars().map(|v| model.name(v).to_owned()).collect(),
            text: String::new(),
            events: 0,
            limit,
        }
    }

    /// The trace so far.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// The trace, taking it out of the recorder.
    pub fn into_text(self) -> String {
        self.text
    }

    /// How many events were recorded.
    pub fn events(&self) -> u64 {
        self.events
    }
}

impl SearchObserver for TraceRecorder {
    fn on_event(&mut self, event: &SearchEvent<'_>) -> ControlFlow<()> {
        if self.limit.is_some_and(|limit| self.events >= limit) {
            let _ = writeln!(self.text, "... stopped after {} events", self.events);
            return ControlFlow::Break(());
        }
        self.events += 1;
        // Writing to a String cannot fail.
        let _ = match *event {
            SearchEvent::Enter {
                level,
                var,
                choices,
            } => writeln!(
                self.text,
                "{level:>3} enter    {} choices={choices}",
                self.names[var.index()]
            ),
            SearchEvent::Assign { level, var, value } => writeln!(
                self.text,
                "{level:>3} assign   {}={value}",
                self.names[var.index()]
            ),
            SearchEvent::Undo { level, var, value } => writeln!(
                self.text,
                "{level:>3} undo     {}={value}",
                self.names[var.index()]
            ),
            SearchEvent::Decide { level, decision } => writeln!(
                self.text,
                "{level:>3} decide   {}",
                decision.display(&self.names[decision.var().index()])
            ),
            SearchEvent::Retract { level, decision } => writeln!(
                self.text,
                "{level:>3} retract  {}",
                decision.display(&self.names[decision.var().index()])
            ),
            SearchEvent::DeadEnd { level } => writeln!(self.text, "{level:>3} deadend"),
            SearchEvent::Restart { count } => writeln!(self.text, "  1 restart  count={count}"),
            SearchEvent::Solution { level, values, .. } => {
                let _ = write!(self.text, "{level:>3} solution");
                for (name, value) in self.names.iter().zip(values) {
                    let _ = write!(self.text, " {name}={value}");
                }
                writeln!(self.text)
            }
        };
        ControlFlow::Continue(())
    }
}
