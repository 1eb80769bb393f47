//! [`Setup`]: where the runner finds things, and the limit of each run (a leaf: every module that
//! runs a program names it, and it names none of them).

use std::path::PathBuf;

/// Where the runner finds things, and the limit of each run.
#[derive(Debug, Clone)]
pub struct Setup {
    /// The repository (for `target/release/fzn-csp` and `minizinc/csp.msc`).
    pub root: PathBuf,
    /// The peers' installation prefix (`$HOME/.local/share/csp-anchors` by default).
    pub anchors: PathBuf,
    /// The time limit of each run, in seconds.
    pub timeout: u64,
}

impl Setup {
    /// This engine's FlatZinc solver, as `cargo build --release` leaves it.
    pub fn fzn_csp(&self) -> PathBuf {
        self.root.join("target/release/fzn-csp")
    }

    /// The time limit in milliseconds, as MiniZinc's `-t` takes it.
    pub fn milliseconds(&self) -> String {
        (self.timeout * 1000).to_string()
    }
}
