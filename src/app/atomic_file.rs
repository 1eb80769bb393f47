//! Output files that never lie: written to a temporary file beside the target and renamed over it
//! only once complete, so a failed or interrupted write leaves the earlier file (or none), never a
//! truncated one.

use std::fs::{File, OpenOptions};
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use tempfile::NamedTempFile;

/// Set when a time limit abandons the work that writes a file: every later write fails, so that the
/// writer unwinds and its temporary file is removed instead of being left behind.
static CANCELLED: AtomicBool = AtomicBool::new(false);

/// How many [`AtomicFile`]s are being written: an abandoned worker is waited for only while it has
/// one to remove.
static OPEN: AtomicUsize = AtomicUsize::new(0);

/// Makes every write to an [`AtomicFile`] from now on fail, so that a writer abandoned at a time
/// limit unwinds and removes its temporary file; returns whether any is being written, and so needs
/// its writer to do that.
pub fn cancel_writes() -> bool {
    CANCELLED.store(true, Ordering::Relaxed);
    OPEN.load(Ordering::Relaxed) > 0
}

use super::error::CliError;

/// Bytes gathered before each write: large enough that system calls cost nothing next to
/// formatting the rows.
const BUFFER_BYTES: usize = 1 << 20;

/// A file being written. [`AtomicFile::commit`] makes it appear at its path; dropping it without a
/// commit removes what was written and leaves the path as it was.
pub struct AtomicFile {
    path: PathBuf,
    writer: BufWriter<Target>,
    _open: Open,
}

/// Where the bytes go before the commit.
enum Target {
    /// A temporary file in the target's directory (so that the rename stays on one filesystem).
    Temporary(NamedTempFile),
    /// A path that exists and is not a regular file (`/dev/null`, a FIFO, a terminal): nothing can
    /// be renamed over it, and nothing there can be left half-written in the sense a file can, so it
    /// is written directly.
    Direct(File),
}

impl Write for Target {
    fn write(&mut self, buffer: &[u8]) -> io::Result<usize> {
        if CANCELLED.load(Ordering::Relaxed) {
            return Err(io::Error::other("the time limit was reached"));
        }
        match self {
            Target::Temporary(file) => file.write(buffer),
            Target::Direct(file) => file.write(buffer),
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        match self {
            Target::Temporary(file) => file.flush(),
            Target::Direct(file) => file.flush(),
        }
    }
}

impl AtomicFile {
    /// Starts writing `path`: a temporary file beside it (named `.NAME.csp-…` so that one left by a
    /// killed run is recognisable), or the path itself when it exists and is not a regular file.
    pub fn create(path: &Path) -> Result<Self, CliError> {
        let failed = |error: io::Error| {
            CliError::Usage(format!("cannot create {}: {error}", path.display()))
        };
        let existing = std::fs::metadata(path).ok();
        let target = match existing {
            Some(metadata) if !metadata.is_file() && !metadata.is_dir() => {
                Target::Direct(OpenOptions::new().write(true).open(path).map_err(failed)?)
            }
            _ => {
                let directory = match path.parent() {
                    Some(parent) if !parent.as_os_str().is_empty() => parent,
                    _ => Path::new("."),
                };
                let name = path.file_name().ok_or_else(|| {
                    CliError::Usage(format!(
                        "cannot create {}: it names no file",
                        path.display()
                    ))
                })?;
                let mut prefix = std::ffi::OsString::from(".");
                prefix.push(name);
                prefix.push(".csp-");
                let temporary = tempfile::Builder::new()
                    .prefix(&prefix)
                    .tempfile_in(directory)
                    .map_err(failed)?;
                Target::Temporary(temporary)
            }
        };
        Ok(AtomicFile {
            path: path.to_owned(),
            writer: BufWriter::with_capacity(BUFFER_BYTES, target),
            _open: Open::new(),
        })
    }

    /// Flushes what is written to disk and renames it over the path: from here on the path holds
    /// the whole file.
    pub fn commit(self) -> Result<(), CliError> {
        let path = self.path;
        let failed =
            |error: io::Error| CliError::Usage(format!("cannot write {}: {error}", path.display()));
        let target = self
            .writer
            .into_inner()
            .map_err(|error| failed(error.into_error()))?;
        match target {
            Target::Temporary(file) => {
                file.as_file().sync_all().map_err(failed)?;
                file.persist(&path).map_err(|error| failed(error.error))?;
            }
            Target::Direct(mut file) => file.flush().map_err(failed)?,
        }
        Ok(())
    }
}

/// Counts an [`AtomicFile`] in [`OPEN`] while it lives.
struct Open;

impl Open {
    fn new() -> Self {
        OPEN.fetch_add(1, Ordering::Relaxed);
        Open
    }
}

impl Drop for Open {
    fn drop(&mut self) {
        OPEN.fetch_sub(1, Ordering::Relaxed);
    }
}

impl Write for AtomicFile {
    fn write(&mut self, buffer: &[u8]) -> io::Result<usize> {
        self.writer.write(buffer)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.writer.flush()
    }
}
