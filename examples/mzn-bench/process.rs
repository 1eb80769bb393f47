//! Running a child process with a wall-clock limit ([`execute`]), and finding a program
//! ([`on_path`]): a leaf that the solvers, Huub's output aliases and the checker share.

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Whether a program is on the `PATH`.
pub fn on_path(program: &str) -> bool {
    std::env::var_os("PATH")
        .is_some_and(|path| std::env::split_paths(&path).any(|dir| dir.join(program).is_file()))
}

/// How a child process ended.
#[derive(Debug, Clone, Default)]
pub struct Finished {
    /// Everything it printed on standard output.
    pub stdout: String,
    /// Why it failed (it could not start, exited with an error, or was killed at the wall-clock
    /// limit), if it did.
    pub failure: Option<String>,
    /// Seconds from start to end.
    pub wall: f64,
}

/// The line of an error output worth showing: the first that mentions an error, else the first.
fn error_line(stderr: &str) -> &str {
    let mut lines = stderr.lines().map(str::trim).filter(|l| !l.is_empty());
    let first = lines.clone().next().unwrap_or("");
    lines.find(|l| l.contains("rror")).unwrap_or(first)
}

/// Runs a command with a wall-clock limit, its standard input read from `input` (else empty). The
/// child gets a process group of its own, so that at the limit the whole group goes: MiniZinc's
/// solver, the Huub wrapper's `huub`, not just the process started here.
pub fn execute(command: &mut Command, input: Option<&Path>, limit: Duration) -> Finished {
    #[cfg(unix)]
    std::os::unix::process::CommandExt::process_group(command, 0);
    let stdin = match input.map(std::fs::File::open).transpose() {
        Ok(file) => file.map_or_else(Stdio::null, Stdio::from),
        Err(e) => {
            return Finished {
                failure: Some(format!("cannot read the input: {e}")),
                ..Finished::default()
            };
        }
    };
    let started = Instant::now();
    let spawned = command
        .stdin(stdin)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn();
    let mut child = match spawned {
        Ok(child) => child,
        Err(e) => {
            return Finished {
                failure: Some(format!("cannot start: {e}")),
                ..Finished::default()
            };
        }
    };
    // The output is read on threads so that a chatty child never blocks on a full pipe.
    let mut stdout = child.stdout.take().expect("piped");
    let mut stderr = child.stderr.take().expect("piped");
    let out = std::thread::spawn(move || {
        let mut text = String::new();
        let _ = std::io::Read::read_to_string(&mut stdout, &mut text);
        text
    });
    let err = std::thread::spawn(move || {
        let mut text = String::new();
        let _ = std::io::Read::read_to_string(&mut stderr, &mut text);
        text
    });
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break Some(status),
            Ok(None) if started.elapsed() > limit => {
                kill_group(&mut child);
                break None;
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(20)),
            Err(_) => {
                kill_group(&mut child);
                break None;
            }
        }
    };
    let wall = started.elapsed().as_secs_f64();
    let (stdout, stderr) = (
        out.join().unwrap_or_default(),
        err.join().unwrap_or_default(),
    );
    let failure = match status {
        Some(status) if status.success() => None,
        Some(status) => Some(format!(
            "exit {}: {}",
            status.code().unwrap_or(-1),
            error_line(&stderr)
        )),
        None => Some(format!("killed after {} s of wall time", limit.as_secs())),
    };
    Finished {
        stdout,
        failure,
        wall,
    }
}

/// Ends a child and every process of its group (the group's id is the child's).
fn kill_group(child: &mut std::process::Child) {
    #[cfg(unix)]
    let _ = Command::new("kill")
        .args(["-KILL", "--", &format!("-{}", child.id())])
        .stderr(Stdio::null())
        .status();
    let _ = child.kill();
    let _ = child.wait();
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_error_line_is_the_first_that_names_an_error() {
        assert_eq!(
            error_line("warning: x\nError: type error: y\nmore"),
            "Error: type error: y"
        );
        assert_eq!(error_line("\n  first\nsecond"), "first");
    }

    #[test]
    fn a_child_past_its_limit_is_killed_with_its_group() {
        let mut command = Command::new("sh");
        command.args(["-c", "sleep 30 & sleep 30"]);
        let started = Instant::now();
        let done = execute(&mut command, None, Duration::from_millis(200));
        assert!(done.failure.unwrap().starts_with("killed"));
        // Reading the output ends only once the grandchild is gone too.
        assert!(started.elapsed() < Duration::from_secs(10));
    }
}
