//! The solvers a run compares, and how each one is run on an instance.
//!
//! This engine (`fzn-csp`) and Gecode (`fzn-gecode`) get the FlatZinc MiniZinc compiles with their
//! own libraries, so their `solveTime` leaves compilation out; their output goes back through
//! MiniZinc's output model to become data. The peers installed by the anchors' `install.sh` run the
//! way their README says: Pumpkin through Debian's `minizinc` with `-i`, Chuffed inside the
//! WebAssembly MiniZinc without `-i`, Huub through its wrapper; all three print data directly
//! (`--output-mode dzn`, or Huub's FlatZinc output, which is data too).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use crate::huub;
use crate::instances::{Expected, Instance};
use crate::process::{execute, on_path};
use crate::run::Run;
use crate::setup::Setup;

/// The program behind a solver configuration.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Kind {
    /// This engine, `target/release/fzn-csp`.
    Ours,
    /// Debian's Gecode, `fzn-gecode`, with its MiniZinc library.
    Gecode,
    /// Pumpkin 0.5.0 through the native `minizinc`.
    Pumpkin,
    /// Chuffed 0.14.0 inside the WebAssembly MiniZinc.
    Chuffed,
    /// Huub 100.1.0 through the anchors' `minizinc-huub`.
    Huub,
}

impl Kind {
    /// Every program, in the order the default `--solvers` lists them.
    pub const ALL: [Kind; 5] = [
        Kind::Ours,
        Kind::Gecode,
        Kind::Pumpkin,
        Kind::Chuffed,
        Kind::Huub,
    ];

    /// The name `--solvers` knows it by.
    pub fn name(self) -> &'static str {
        match self {
            Kind::Ours => "ours",
            Kind::Gecode => "gecode",
            Kind::Pumpkin => "pumpkin",
            Kind::Chuffed => "chuffed",
            Kind::Huub => "huub",
        }
    }

    /// The program of that name, if there is one.
    pub fn from_name(name: &str) -> Option<Kind> {
        Kind::ALL.into_iter().find(|k| k.name() == name)
    }

    /// Whether the runner compiles the model itself and runs a FlatZinc executable (rather than
    /// handing the model to a MiniZinc front end).
    fn runs_flatzinc(self) -> bool {
        matches!(self, Kind::Ours | Kind::Gecode)
    }
}

/// A solver configuration of a run: a name for the tables, a program, and extra flags for it.
#[derive(Debug, Clone, PartialEq)]
pub struct Solver {
    /// The name in the tables (`ours`, `ours-p2`, `pumpkin`).
    pub name: String,
    /// The program.
    pub kind: Kind,
    /// Flags added to the program's command line (`-p 2`, `--lns off`).
    pub flags: Vec<String>,
}

impl Solver {
    /// Why the solver cannot run on this machine, if it cannot.
    pub fn missing(&self, setup: &Setup) -> Option<String> {
        let anchors = &setup.anchors;
        let files: Vec<PathBuf> = match self.kind {
            Kind::Ours => vec![setup.fzn_csp()],
            Kind::Gecode => {
                return (!on_path("fzn-gecode")).then(|| {
                    "fzn-gecode is not on the PATH (apt-get install minizinc)".to_owned()
                });
            }
            Kind::Pumpkin => vec![
                anchors.join("solvers/pumpkin.msc"),
                anchors.join("pumpkin/bin/pumpkin-solver"),
            ],
            Kind::Chuffed => vec![
                anchors.join("bin/minizinc-wasm"),
                anchors.join("mzn-js/node_modules/minizinc"),
            ],
            Kind::Huub => vec![
                anchors.join("bin/minizinc-huub"),
                anchors.join("huub/bin/huub"),
            ],
        };
        if let Some(file) = files.iter().find(|f| !f.exists()) {
            return Some(if self.kind == Kind::Ours {
                format!(
                    "{} is missing: run `cargo build --release` first",
                    file.display()
                )
            } else {
                format!(
                    "not installed ({} is missing; `bash ../shared/anchors/install.sh` from the \
                     repository root installs the peers)",
                    file.display()
                )
            });
        }
        let needs: &[&str] = match self.kind {
            Kind::Chuffed => &["node"],
            Kind::Huub => &["node", "python3"],
            _ => &[],
        };
        needs
            .iter()
            .find(|program| !on_path(program))
            .map(|program| format!("{program} is not on the PATH"))
    }

    /// The command the solver runs, as the header shows it.
    pub fn describe(&self, setup: &Setup) -> String {
        let flags = self
            .flags
            .iter()
            .map(|f| format!(" {f}"))
            .collect::<String>();
        let ms = setup.milliseconds();
        let anchors = setup.anchors.display();
        match self.kind {
            Kind::Ours => format!(
                "minizinc -c --solver csp, then {} -s -t {ms}{flags}",
                setup.fzn_csp().display()
            ),
            Kind::Gecode => {
                format!("minizinc -c --solver gecode [-G std], then fzn-gecode -s -t {ms}{flags}")
            }
            Kind::Pumpkin => format!(
                "MZN_SOLVER_PATH={anchors}/solvers minizinc --solver pumpkin -s -t {ms}{flags} \
                 (-i when optimising)"
            ),
            Kind::Chuffed => {
                format!("{anchors}/bin/minizinc-wasm --solver chuffed -s -t {ms}{flags}")
            }
            Kind::Huub => format!(
                "{anchors}/bin/minizinc-huub -s -t {ms}{flags} (its -t counts its compilation)"
            ),
        }
    }
}

/// The FlatZinc of one instance for ours and for Gecode, compiled once per instance and library
/// (every configuration of ours shares one).
#[derive(Debug, Default)]
pub struct Compiled(BTreeMap<Kind, Result<(PathBuf, PathBuf), String>>);

impl Compiled {
    /// The `.fzn` and `.ozn` of the instance for this program, compiling them the first time.
    fn get(
        &mut self,
        kind: Kind,
        instance: &Instance,
        setup: &Setup,
        work: &Path,
    ) -> Result<(PathBuf, PathBuf), String> {
        self.0
            .entry(kind)
            .or_insert_with(|| compile(kind, instance, setup, work))
            .clone()
    }
}

/// Compiles an instance with our library or Gecode's, with `_objective` in the output model.
fn compile(
    kind: Kind,
    instance: &Instance,
    setup: &Setup,
    work: &Path,
) -> Result<(PathBuf, PathBuf), String> {
    let fzn = work.join(format!("{}.fzn", kind.name()));
    let ozn = work.join(format!("{}.ozn", kind.name()));
    let mut command = Command::new("minizinc");
    command
        .current_dir(&instance.dir)
        .env("MZN_SOLVER_PATH", setup.root.join("minizinc"));
    if kind == Kind::Ours {
        command.args(["--solver", "csp"]);
    } else {
        command
            .args(["--solver", "gecode"])
            .args(&instance.gecode_flags);
    }
    command
        .args(["-c", "--output-objective", "--output-mode", "dzn"])
        .args(instance.files())
        .arg("--fzn")
        .arg(&fzn)
        .arg("--ozn")
        .arg(&ozn);
    match execute(&mut command, None, Duration::from_secs(300)).failure {
        Some(failure) => Err(format!("compile: {failure}")),
        None => Ok((fzn, ozn)),
    }
}

/// A FlatZinc solver's output as data, through MiniZinc's output model.
fn translate(output: &str, ozn: &Path, work: &Path) -> Result<String, String> {
    let raw = work.join("output.txt");
    std::fs::write(&raw, output).map_err(|e| e.to_string())?;
    let mut command = Command::new("minizinc");
    command.arg("--ozn-file").arg(ozn);
    let done = execute(&mut command, Some(&raw), Duration::from_secs(120));
    match done.failure {
        Some(failure) => Err(format!("output model: {failure}")),
        None => Ok(done.stdout),
    }
}

/// Runs one solver on one instance (`work` holds the files of this instance's runs).
pub fn solve(
    solver: &Solver,
    instance: &Instance,
    setup: &Setup,
    work: &Path,
    compiled: &mut Compiled,
) -> Run {
    let count = matches!(instance.expected, Expected::Count(_));
    let ms = setup.milliseconds();
    if solver.kind.runs_flatzinc() {
        let (fzn, ozn) = match compiled.get(solver.kind, instance, setup, work) {
            Ok(files) => files,
            Err(error) => return Run::failed(error),
        };
        let mut command = Command::new(if solver.kind == Kind::Ours {
            setup.fzn_csp()
        } else {
            PathBuf::from("fzn-gecode")
        });
        command
            .args(["-s", "-t", &ms])
            .args(&solver.flags)
            .args(count.then_some("-a"))
            .arg(&fzn);
        let done = execute(&mut command, None, Duration::from_secs(setup.timeout + 30));
        let translated = if done.stdout.contains("----------") {
            translate(&done.stdout, &ozn, work)
        } else {
            Ok(String::new())
        };
        let mut run = Run::read(&done.stdout, translated.as_deref().unwrap_or(""));
        run.wall = done.wall;
        run.error = done.failure.or(translated.err()).or(run.error);
        return run;
    }
    let anchors = &setup.anchors;
    let mut command = match solver.kind {
        Kind::Pumpkin => {
            let mut command = Command::new("minizinc");
            command
                .env("MZN_SOLVER_PATH", anchors.join("solvers"))
                .args(["--solver", "pumpkin"]);
            // Pumpkin prints nothing at the limit without `-i` (its README's first caveat).
            if instance.expected.minimize().is_some() {
                command.arg("-i");
            }
            command
        }
        Kind::Chuffed => {
            let mut command = Command::new(anchors.join("bin/minizinc-wasm"));
            command.args(["--solver", "chuffed"]);
            command
        }
        _ => Command::new(anchors.join("bin/minizinc-huub")),
    };
    command
        .current_dir(&instance.dir)
        .args([
            "-s",
            "-t",
            &ms,
            "--output-mode",
            "dzn",
            "--output-objective",
        ])
        .args(count.then_some("-a"))
        .args(&solver.flags)
        .args(instance.files());
    // Compilation happens inside the call, and in WebAssembly it takes seconds (more on a loaded
    // machine), so the wall-clock limit leaves room for it.
    let done = execute(&mut command, None, Duration::from_secs(setup.timeout + 300));
    let mut run = Run::read(&done.stdout, &done.stdout);
    run.wall = done.wall;
    run.error = done.failure.or(run.error);
    if solver.kind == Kind::Huub
        && run
            .solutions
            .iter()
            .any(|s| s.dzn.contains("X_INTRODUCED_"))
    {
        match huub::output_aliases(instance, setup, work) {
            Ok(aliases) => {
                for solution in &mut run.solutions {
                    *solution = huub::rename(solution, &aliases);
                }
            }
            Err(why) => run.unchecked.push(why),
        }
    }
    run
}
