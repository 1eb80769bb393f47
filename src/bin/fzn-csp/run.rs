//! One run: read and compile the model on a worker thread, then the library's FlatZinc protocol
//! ([`csp::flatzinc::run`]); this thread watches the clock, so that the time limit holds from the
//! start, reading and compiling included, however long any one step takes.

use std::ffi::OsString;
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use clap::Parser;
use csp::flatzinc::run::{Printer, RunError as ProtocolError, RunOptions, root_bound};
use csp::flatzinc::{Compiled, compile};

use crate::args::{Args, one_line};
use crate::progress::{self, Progress};

/// The most bytes of FlatZinc read, from a file, a device or a pipe alike: more is refused as it
/// arrives, before it is held.
const MAX_MODEL_BYTES: usize = 1 << 31;

/// How much is read at a time, each piece checked for bytes that are not text as it arrives.
const READ_CHUNK: usize = 1 << 16;

/// How long past the time limit the search may take to stop by itself (it reads the clock every
/// few nodes) before this thread ends the run.
const GRACE: Duration = Duration::from_millis(200);

/// The worker's stack: the parser and the engine keep their own stacks, so this is only headroom.
const WORKER_STACK: usize = 16 << 20;

/// Why a run failed.
#[derive(Debug, thiserror::Error)]
pub enum RunError {
    /// The command line is wrong.
    #[error("{0}")]
    Usage(String),
    /// The model file could not be read.
    #[error("{path}: {message}")]
    Read {
        /// The file.
        path: PathBuf,
        /// Why.
        message: String,
    },
    /// The model is malformed or uses what the engine does not support.
    #[error("{path}: {error}")]
    Model {
        /// The file.
        path: PathBuf,
        /// What is wrong, with its line.
        error: csp::flatzinc::Error,
    },
    /// The search failed to print, or printed a solution that failed verification.
    #[error(transparent)]
    Protocol(#[from] ProtocolError),
    /// The worker thread could not be started or ended without an answer.
    #[error("internal error: {0}")]
    Internal(String),
}

impl RunError {
    /// The exit code: 2 for bad input, 70 for a solution that failed verification or an internal
    /// error (a bug).
    pub fn exit_code(&self) -> u8 {
        match self {
            RunError::Protocol(ProtocolError::Verify(_)) | RunError::Internal(_) => 70,
            _ => 2,
        }
    }
}

/// Runs `fzn-csp` with these arguments (the program's name first).
pub fn run(args: impl IntoIterator<Item = OsString>) -> Result<(), RunError> {
    let started = Instant::now();
    let args = match Args::try_parse_from(args) {
        Ok(args) => args,
        Err(error) => match error.kind() {
            clap::error::ErrorKind::DisplayHelp | clap::error::ErrorKind::DisplayVersion => {
                error.exit()
            }
            _ => return Err(RunError::Usage(one_line(&error))),
        },
    };
    let deadline = args
        .time_limit
        .map(|ms| started + Duration::from_millis(ms));
    let console = Arc::new(Console::default());
    let (sender, receiver) = mpsc::channel();
    let worker_console = Arc::clone(&console);
    std::thread::Builder::new()
        .name("fzn-csp".to_owned())
        .stack_size(WORKER_STACK)
        .spawn(move || {
            let result = work(&args, started, deadline, &worker_console);
            // The receiver is gone only once the watchdog has ended the run.
            let _ = sender.send(result);
        })
        .map_err(|e| RunError::Internal(format!("cannot start the search thread: {e}")))?;
    // This thread wakes every FLUSH_EVERY to write out solutions the search has printed since,
    // and at the time limit (with its grace) to end the run.
    loop {
        match receiver.recv_timeout(FLUSH_EVERY) {
            Ok(result) => return result,
            Err(RecvTimeoutError::Timeout) => {
                if deadline.is_some_and(|deadline| Instant::now() >= deadline + GRACE) {
                    console.end_at_time_limit();
                } else {
                    console.flush_pending();
                }
            }
            Err(RecvTimeoutError::Disconnected) => {
                return Err(RunError::Internal(
                    "the search thread ended without an answer".to_owned(),
                ));
            }
        }
    }
}

/// Reads, compiles and searches: everything but the watch on the clock.
fn work(
    args: &Args,
    started: Instant,
    deadline: Option<Instant>,
    console: &Console,
) -> Result<(), RunError> {
    let text = read(&args.file)?;
    let read_time = started.elapsed();
    let compiled = compile(&text).map_err(|error| RunError::Model {
        path: args.file.clone(),
        error,
    })?;
    let init_time = started.elapsed();
    let bytes = text.len();
    drop(text);
    for warning in compiled.warnings() {
        eprintln!("fzn-csp: {}: warning: {warning}", args.file.display());
    }
    let enumerating = compiled.model().objective() == csp::core::Objective::Satisfy
        && (args.all || args.solutions.is_some_and(|n| n > 1));
    if args.threads > 1 && enumerating {
        eprintln!(
            "fzn-csp: -p {}: an enumeration of solutions runs as one search",
            args.threads
        );
    }
    if args.verbose {
        describe(args, &compiled, bytes, read_time, init_time);
    }
    let options = RunOptions {
        deadline,
        init_time,
        ..args.run_options()
    };
    let mut printer = ConsolePrinter { console };
    if progress::wanted(args.progress, args.no_progress) {
        let mut progress = Progress::new(root_bound(compiled.model()));
        csp::flatzinc::run::run(&compiled, &options, &mut printer, &mut progress)?;
    } else {
        csp::flatzinc::run::run(&compiled, &options, &mut printer, &mut ())?;
    }
    Ok(())
}

/// `-v`: what was read and built, and how fast.
fn describe(
    args: &Args,
    compiled: &Compiled,
    bytes: usize,
    read_time: Duration,
    init_time: Duration,
) {
    let megabytes = bytes as f64 / 1e6;
    let build_time = init_time - read_time;
    eprintln!(
        "% fzn-csp: {megabytes:.2} MB read in {:.3} s, parsed and compiled in {:.3} s ({:.0} MB/s)",
        read_time.as_secs_f64(),
        build_time.as_secs_f64(),
        megabytes / build_time.as_secs_f64().max(1e-9),
    );
    let model = compiled.model();
    eprintln!(
        "% fzn-csp: {} FlatZinc constraints as {} engine constraints over {} variables in {:.3} s; search: {}",
        compiled.num_flatzinc_constraints(),
        model.num_constraints(),
        model.num_vars(),
        init_time.as_secs_f64(),
        if args.free || compiled.searches().is_empty() {
            "free (dom/wdeg, Luby restarts)".to_owned()
        } else {
            format!(
                "{} annotated searches, then dom/wdeg",
                compiled.searches().len()
            )
        }
    );
}

/// Reads the model from a file, a device or a pipe (`-` is standard input), refusing more than
/// [`MAX_MODEL_BYTES`] and any byte that cannot be FlatZinc text as soon as it arrives: `/dev/zero`
/// is refused after its first piece, not after filling the memory.
fn read(path: &Path) -> Result<String, RunError> {
    let fail = |message: String| RunError::Read {
        path: path.to_owned(),
        message,
    };
    let mut input: Box<dyn Read> = if path == Path::new("-") {
        Box::new(io::stdin().lock())
    } else {
        Box::new(std::fs::File::open(path).map_err(|e| fail(e.to_string()))?)
    };
    // A regular file says how long it is, so its bytes are read without growing the buffer; a
    // device or a pipe says 0 and grows it as it goes.
    let expected = std::fs::metadata(path)
        .ok()
        .filter(|m| m.is_file())
        .map_or(0, |m| m.len());
    let mut bytes = Vec::with_capacity(expected.min(MAX_MODEL_BYTES as u64) as usize + 1);
    let mut chunk = vec![0u8; READ_CHUNK];
    loop {
        let read = match input.read(&mut chunk) {
            Ok(0) => break,
            Ok(read) => read,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(fail(e.to_string())),
        };
        let piece = &chunk[..read];
        if let Some(at) = piece.iter().position(|&b| is_not_text(b)) {
            return Err(fail(format!(
                "byte {} is {:#04x}, which is not FlatZinc text",
                bytes.len() + at,
                piece[at]
            )));
        }
        if bytes.len() + read > MAX_MODEL_BYTES {
            return Err(fail(format!(
                "more than the {MAX_MODEL_BYTES} bytes a model may have"
            )));
        }
        bytes.extend_from_slice(piece);
    }
    String::from_utf8(bytes).map_err(|e| {
        fail(format!(
            "not UTF-8 text (byte {})",
            e.utf8_error().valid_up_to()
        ))
    })
}

/// Control characters other than tab, line feed and carriage return: FlatZinc has none.
fn is_not_text(byte: u8) -> bool {
    byte < 0x20 && !matches!(byte, b'\t' | b'\n' | b'\r')
}

/// Standard output, shared by the search and the watch on the clock: whoever holds it prints
/// whole solutions, and the watch ends the run while holding it, so that nothing is printed after
/// the final line. Solutions are gathered and written every [`FLUSH_EVERY`] (or when enough text
/// waits), not one system call each: three million solutions of `-a` print in a few seconds.
#[derive(Debug, Default)]
struct Console {
    state: Mutex<ConsoleState>,
}

/// How long a printed solution may wait before it reaches standard output.
const FLUSH_EVERY: Duration = Duration::from_millis(20);

/// How much text may wait.
const FLUSH_BYTES: usize = 1 << 16;

#[derive(Debug, Default)]
struct ConsoleState {
    /// Whether a solution was printed.
    printed: bool,
    /// The best solution of an optimisation so far, not yet printed.
    held: Option<String>,
    /// Text printed but not yet written.
    pending: Vec<u8>,
    /// When `pending` was last written out.
    flushed: Option<Instant>,
    /// Whether the final output was printed.
    finished: bool,
}

impl ConsoleState {
    /// Writes what is pending to standard output.
    fn flush(&mut self) -> io::Result<()> {
        let mut out = io::stdout().lock();
        out.write_all(&self.pending)?;
        out.flush()?;
        self.pending.clear();
        self.flushed = Some(Instant::now());
        Ok(())
    }
}

impl Console {
    fn lock(&self) -> MutexGuard<'_, ConsoleState> {
        // A poisoned lock means the search thread panicked, which the panic hook reports; the state
        // itself is still whole (every field is written in one step).
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Writes out the solutions printed since the last write. A failed write is the search's to
    /// report, at its next solution or at the end.
    fn flush_pending(&self) {
        let mut state = self.lock();
        if !state.pending.is_empty() && !state.finished {
            let _ = state.flush();
        }
    }

    /// Ends the run at the time limit: prints what is pending and the best solution held back, or
    /// `=====UNKNOWN=====` if no solution was printed, and exits, unless the search printed its
    /// final output already.
    fn end_at_time_limit(&self) {
        let mut state = self.lock();
        if state.finished {
            return;
        }
        if let Some(text) = state.held.take() {
            state.pending.extend_from_slice(text.as_bytes());
            state.printed = true;
        }
        if !state.printed {
            state.pending.extend_from_slice(b"=====UNKNOWN=====\n");
        }
        let _ = state.flush();
        state.finished = true;
        // Exits while holding the state, so the search thread cannot print after this.
        std::process::exit(0);
    }
}

/// The search's side of the console.
struct ConsolePrinter<'a> {
    console: &'a Console,
}

impl Printer for ConsolePrinter<'_> {
    fn solution(&mut self, text: &str) -> io::Result<()> {
        let mut state = self.console.lock();
        state.pending.extend_from_slice(text.as_bytes());
        state.printed = true;
        state.held = None;
        let due = state.flushed.is_none_or(|at| at.elapsed() >= FLUSH_EVERY);
        if due || state.pending.len() >= FLUSH_BYTES {
            state.flush()?;
        }
        Ok(())
    }

    fn best_so_far(&mut self, text: &str) -> io::Result<()> {
        self.console.lock().held = Some(text.to_owned());
        Ok(())
    }

    fn end(&mut self, text: &str) -> io::Result<()> {
        let mut state = self.console.lock();
        state.pending.extend_from_slice(text.as_bytes());
        state.flush()?;
        state.finished = true;
        Ok(())
    }
}
