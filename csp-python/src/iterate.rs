//! Solutions one at a time: `Model.iter_solutions` runs the search on a thread of its own, which
//! hands each solution over and waits until Python asks for the next one, so a loop that breaks
//! early stops the search there, and memory holds one solution, not all of them.

use std::sync::Arc;
use std::sync::mpsc::{Receiver, RecvTimeoutError, SyncSender, sync_channel};
use std::time::Duration;

use csp_flatzinc::Compiled;
use csp_flatzinc::run::RunOptions;
use csp_search::StopFlag;
use pyo3::exceptions::{PyRuntimeError, PyStopIteration};
use pyo3::prelude::*;

use crate::solution::Solution;

/// How often a waiting `__next__` looks at Python's signals.
const SIGNAL_POLL: Duration = Duration::from_millis(20);

/// The values the search thread hands over, one solution at a time, then how the run ended.
enum Message {
    Solution(Vec<Option<i64>>),
    End(Result<&'static str, String>),
}

/// Hands each verified solution to the iterator and waits for it to be taken.
struct Handover {
    map: Vec<csp_flatzinc::Elem>,
    slots: Vec<u32>,
    width: usize,
    sender: SyncSender<Message>,
}

impl csp_flatzinc::run::Printer for Handover {
    fn solution(&mut self, _text: &str) -> std::io::Result<()> {
        Ok(())
    }

    fn end(&mut self, _text: &str) -> std::io::Result<()> {
        Ok(())
    }

    fn wants_text(&self) -> bool {
        false
    }

    fn values(&mut self, values: &[i32]) -> bool {
        let mut user = vec![None; self.width];
        for (&slot, elem) in self.slots.iter().zip(&self.map) {
            user[slot as usize] = Some(match *elem {
                csp_flatzinc::Elem::Const(c) => c,
                csp_flatzinc::Elem::Var(v) => i64::from(values[v.index()]),
            });
        }
        // The iterator gone (a loop that broke early): the search stops here.
        self.sender.send(Message::Solution(user)).is_ok()
    }
}

/// An iterator over a model's solutions (under an objective, its improving ones), found as they
/// are asked for. After the last one, `status` says how the search ended.
#[pyclass(module = "rcsp")]
pub(crate) struct SolutionIterator {
    model: u64,
    /// Behind a mutex only to make the class shareable between Python threads, as PyO3 asks.
    receiver: Option<std::sync::Mutex<Receiver<Message>>>,
    stop: StopFlag,
    worker: Option<std::thread::JoinHandle<()>>,
    status: Option<&'static str>,
}

impl SolutionIterator {
    /// Starts the search on a thread of its own.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn start(
        model: u64,
        compiled: Arc<Compiled>,
        options: RunOptions,
        map: Vec<csp_flatzinc::Elem>,
        slots: Vec<u32>,
        width: usize,
        stop: StopFlag,
    ) -> SolutionIterator {
        // A rendezvous: the search waits for each solution to be taken before it goes on.
        let (sender, receiver) = sync_channel(0);
        let worker = std::thread::spawn(move || {
            let mut handover = Handover {
                map,
                slots,
                width,
                sender: sender.clone(),
            };
            let end = csp_flatzinc::run::run(&compiled, &options, &mut handover, &mut ())
                .map(|summary| crate::solution::status_name(summary.status))
                .map_err(|e| e.to_string());
            // The iterator may be gone; nothing to tell then.
            let _ = sender.send(Message::End(end));
        });
        SolutionIterator {
            model,
            receiver: Some(std::sync::Mutex::new(receiver)),
            stop,
            worker: Some(worker),
            status: None,
        }
    }

    fn finish(&mut self) {
        self.stop.stop();
        // Dropping the receiver wakes a search waiting to hand over a solution.
        self.receiver = None;
        if let Some(worker) = self.worker.take() {
            let _ = worker.join();
        }
    }
}

impl Drop for SolutionIterator {
    fn drop(&mut self) {
        self.finish();
    }
}

#[pymethods]
impl SolutionIterator {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__(&mut self, py: Python<'_>) -> PyResult<Solution> {
        let Some(receiver) = &self.receiver else {
            return Err(PyStopIteration::new_err(()));
        };
        let received = py.detach(|| {
            loop {
                let message = receiver
                    .lock()
                    .unwrap_or_else(|poisoned| poisoned.into_inner())
                    .recv_timeout(SIGNAL_POLL);
                match message {
                    Ok(message) => return Ok(Some(message)),
                    Err(RecvTimeoutError::Disconnected) => return Ok(None),
                    Err(RecvTimeoutError::Timeout) => {
                        Python::attach(|py| py.check_signals())?;
                    }
                }
            }
        });
        match received {
            Ok(Some(Message::Solution(values))) => Ok(Solution::new(self.model, Arc::new(values))),
            Ok(Some(Message::End(end))) => {
                self.finish();
                match end {
                    Ok(status) => {
                        self.status = Some(status);
                        Err(PyStopIteration::new_err(()))
                    }
                    Err(e) => Err(PyRuntimeError::new_err(e)),
                }
            }
            Ok(None) => {
                self.finish();
                Err(PyStopIteration::new_err(()))
            }
            Err(interrupt) => {
                self.finish();
                Err(interrupt)
            }
        }
    }

    /// How the search ended (`"OPTIMAL"`: every solution was found or the optimum proven;
    /// `"FEASIBLE"`, `"UNSATISFIABLE"`, `"UNKNOWN"`), once the iterator is exhausted; `None` before.
    #[getter]
    fn status(&self) -> Option<&'static str> {
        self.status
    }

    /// Stops the search; the iterator is then exhausted.
    fn close(&mut self) {
        self.finish();
    }
}
