//! Long calls behave as Python expects: the work runs on a thread of its own with the GIL
//! released, so other Python threads go on, while the calling thread looks at Python's signals,
//! so that Ctrl-C stops the work and raises `KeyboardInterrupt` once it has stopped.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{RecvTimeoutError, channel};
use std::time::Duration;

use pyo3::prelude::*;

/// A long call's `time_limit` argument, checked: seconds as a positive, finite float, or a clear
/// `ValueError` naming the value given.
pub(crate) fn time_limit(seconds: Option<f64>) -> PyResult<Option<Duration>> {
    match seconds {
        Some(t) if !(t > 0.0 && t.is_finite()) => Err(pyo3::exceptions::PyValueError::new_err(
            format!("time_limit must be a positive number of seconds, not {t}"),
        )),
        Some(t) => Ok(Some(Duration::from_secs_f64(t))),
        None => Ok(None),
    }
}

/// How often the calling thread looks at Python's signals while the work runs.
const SIGNAL_POLL: Duration = Duration::from_millis(20);

/// Runs `work` with the GIL released; on Ctrl-C calls `stop` (which must make `work` return soon)
/// and raises `KeyboardInterrupt` once `work` has returned.
pub(crate) fn interruptible<T: Send>(
    py: Python<'_>,
    stop: impl Fn() + Sync,
    work: impl FnOnce() -> T + Send,
) -> PyResult<T> {
    let (result, interrupt) = py.detach(|| {
        let (done, finished) = channel::<()>();
        std::thread::scope(|scope| {
            let worker = scope.spawn(move || {
                let result = work();
                // The receiver outlives this thread; a failed send cannot happen.
                let _ = done.send(());
                result
            });
            let mut interrupt = None;
            while let Err(RecvTimeoutError::Timeout) = finished.recv_timeout(SIGNAL_POLL) {
                if interrupt.is_none()
                    && let Err(e) = Python::attach(|py| py.check_signals())
                {
                    interrupt = Some(e);
                    stop();
                }
            }
            let result = worker
                .join()
                .unwrap_or_else(|panic| std::panic::resume_unwind(panic));
            (result, interrupt)
        })
    });
    match interrupt {
        Some(e) => Err(e),
        None => Ok(result),
    }
}

/// Runs `work` while copying `cancel` into `stop` every few milliseconds: for work that polls a
/// flag of its own making (a race of local searches, one flag per thread).
pub(crate) fn relay<T>(cancel: &AtomicBool, stop: &AtomicBool, work: impl FnOnce() -> T) -> T {
    let done = AtomicBool::new(false);
    std::thread::scope(|scope| {
        scope.spawn(|| {
            while !done.load(Ordering::Relaxed) {
                if cancel.load(Ordering::Relaxed) {
                    stop.store(true, Ordering::Relaxed);
                    return;
                }
                std::thread::sleep(Duration::from_millis(5));
            }
        });
        let result = work();
        done.store(true, Ordering::Relaxed);
        result
    })
}
