//! The runner's command line.

use std::path::PathBuf;

use crate::check::CheckMode;
use crate::instances;
use crate::setup::Setup;
use crate::solvers::{Kind, Solver};

/// The usage text of `--help`.
const USAGE: &str = "\
mzn-bench: run this engine, Gecode and the installed peers over MiniZinc instances with known
answers, check every answer, and score them the way the MiniZinc Challenge does.

usage: cargo run --release --example mzn-bench -- [OPTIONS]

  -t, --timeout SECS       the limit of each run (default 60)
  --solvers LIST           the solvers to compare, comma-separated, in the tables' order
                           (default ours,gecode,pumpkin,chuffed,huub; a peer that is not
                           installed is skipped, with a note)
  --config NAME=[BASE] FLAGS
                           a solver configuration NAME for --solvers: BASE (one of ours,
                           gecode, pumpkin, chuffed, huub; default ours) with FLAGS added,
                           e.g. --config 'ours-p2=-p 2' or --config 'ours-nolns=--lns off';
                           repeatable, and NAME may be `ours` itself
  --instances NAMES|FILE   only these instances: comma-separated names or parts of names
                           (`golomb:11`, `jobshop_ft10`), or a file of them, one a line;
                           repeatable; a name that matches nothing is an error
  --folder minizinc-bench|minizinc-sched|minizinc|all
                           the answer tables to read (default minizinc-bench;
                           minizinc-sched holds scheduling instances where learning
                           solvers do well; all reads the three)
  --check last|all|none    the solutions of each run fed back to the model for Gecode to
                           accept (default last: the one the run's answer rests on)
  --anchors DIR            the peers' installation (default $CSP_ANCHORS, else
                           $HOME/.local/share/csp-anchors)
  --data DIR               the folder holding the answer tables (default data/)
  --out DIR                where the plot, results.json and the work files go
                           (default target/mzn-bench)
  --only TEXT              the same as --instances TEXT
  --no-cross-check         the same as --check none
";

/// Everything the command line sets.
#[derive(Debug, Clone)]
pub struct Options {
    /// Where things are, and the limit of each run.
    pub setup: Setup,
    /// The folder holding `minizinc-bench/`, `minizinc-sched/` and `minizinc/`.
    pub data: PathBuf,
    /// The answer tables to read.
    pub folders: Vec<String>,
    /// The `--instances` patterns; empty for the whole suite.
    pub instances: Vec<String>,
    /// The solver configurations, in the tables' order.
    pub solvers: Vec<Solver>,
    /// Which solutions the cross-check feeds back.
    pub check: CheckMode,
    /// Where the plot, the results and the work files go.
    pub out: PathBuf,
}

/// Reads a `--config` value: `NAME=[BASE] FLAGS`.
fn config(value: &str) -> Result<Solver, String> {
    let (name, rest) = value
        .split_once('=')
        .ok_or(format!("--config {value}: expected NAME=[BASE] FLAGS"))?;
    let name = name.trim();
    if name.is_empty() || name.contains([',', ' ']) {
        return Err(format!("--config {value}: a name without commas or spaces"));
    }
    let mut words: Vec<String> = rest.split_whitespace().map(str::to_owned).collect();
    let kind = match words.first().and_then(|w| Kind::from_name(w)) {
        Some(kind) => {
            words.remove(0);
            kind
        }
        None => Kind::Ours,
    };
    Ok(Solver {
        name: name.to_owned(),
        kind,
        flags: words,
    })
}

/// The solvers of a `--solvers` list: each a `--config` name, else a program's own name.
fn solvers(list: &str, configs: &[Solver]) -> Result<Vec<Solver>, String> {
    let mut out: Vec<Solver> = Vec::new();
    for name in list.split(',').map(str::trim).filter(|n| !n.is_empty()) {
        let solver = match configs.iter().rev().find(|c| c.name == name) {
            Some(config) => config.clone(),
            None => Solver {
                name: name.to_owned(),
                kind: Kind::from_name(name).ok_or(format!(
                    "unknown solver `{name}`: the programs are ours, gecode, pumpkin, chuffed \
                     and huub, and --config NAME=... names a configuration"
                ))?,
                flags: Vec::new(),
            },
        };
        if out.iter().any(|s| s.name == solver.name) {
            return Err(format!("`{name}` is listed twice in --solvers"));
        }
        out.push(solver);
    }
    if out.is_empty() {
        return Err("--solvers names no solver".to_owned());
    }
    Ok(out)
}

/// The default installation of the peers.
fn default_anchors() -> PathBuf {
    if let Some(dir) = std::env::var_os("CSP_ANCHORS") {
        return PathBuf::from(dir);
    }
    let home = std::env::var_os("HOME").map_or_else(|| PathBuf::from("/root"), PathBuf::from);
    home.join(".local/share/csp-anchors")
}

/// Reads the command line (without the program's name).
pub fn parse(args: impl IntoIterator<Item = String>) -> Result<Options, String> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let mut timeout = 60;
    let mut anchors = default_anchors();
    let mut data = root.join("data");
    let mut folders = vec!["minizinc-bench".to_owned()];
    let mut patterns = Vec::new();
    let mut list = Kind::ALL.map(Kind::name).join(",");
    let mut configs = Vec::new();
    let mut check = CheckMode::Last;
    let mut out = root.join("target/mzn-bench");
    let mut args = args.into_iter();
    while let Some(arg) = args.next() {
        let mut value = |name: &str| args.next().ok_or(format!("{name} needs a value"));
        match arg.as_str() {
            "-t" | "--timeout" => {
                timeout = value(&arg)?
                    .parse()
                    .map_err(|_| format!("{arg} takes whole seconds"))?
            }
            "--solvers" => list = value(&arg)?,
            "--config" => configs.push(config(&value(&arg)?)?),
            "--instances" | "--only" => patterns.extend(instances::patterns(&value(&arg)?)?),
            "--folder" => {
                let folder = value(&arg)?;
                // `minizinc-sched` has the same table as `minizinc-bench`, so `main` reads it
                // with `bench_instances` too; only `minizinc` has a reader of its own.
                folders = match folder.as_str() {
                    "all" => ["minizinc-bench", "minizinc", "minizinc-sched"]
                        .map(str::to_owned)
                        .to_vec(),
                    "minizinc-bench" | "minizinc-sched" | "minizinc" => vec![folder],
                    _ => {
                        let folders = "minizinc-bench, minizinc-sched, minizinc or all";
                        return Err(format!("--folder is {folders}"));
                    }
                }
            }
            "--check" => {
                check = match value(&arg)?.as_str() {
                    "last" => CheckMode::Last,
                    "all" => CheckMode::All,
                    "none" => CheckMode::None,
                    _ => return Err("--check is last, all or none".to_owned()),
                }
            }
            "--no-cross-check" => check = CheckMode::None,
            "--anchors" => anchors = PathBuf::from(value(&arg)?),
            "--data" => data = PathBuf::from(value(&arg)?),
            "--out" => out = PathBuf::from(value(&arg)?),
            "--help" | "-h" => {
                print!("{USAGE}");
                std::process::exit(0);
            }
            _ => return Err(format!("unknown option `{arg}` (try --help)")),
        }
    }
    Ok(Options {
        setup: Setup {
            root,
            anchors,
            timeout,
        },
        data,
        folders,
        instances: patterns,
        solvers: solvers(&list, &configs)?,
        check,
        out,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(line: &str) -> Result<Options, String> {
        parse(line.split_whitespace().map(str::to_owned))
    }

    #[test]
    fn a_configuration_is_ours_with_flags_unless_it_names_its_program() {
        let p2 = config("ours-p2=-p 2").unwrap();
        assert_eq!(
            (p2.kind, p2.flags),
            (Kind::Ours, vec!["-p".into(), "2".into()])
        );
        let seeded = config("chuffed-r7=chuffed -r 7").unwrap();
        assert_eq!(seeded.kind, Kind::Chuffed);
        assert_eq!(seeded.flags, ["-r", "7"]);
        assert!(config("no-equals").is_err());
    }

    #[test]
    fn the_solvers_list_resolves_configurations_and_programs_in_order() {
        let configs = [config("ours-p2=-p 2").unwrap()];
        let list = solvers("ours-p2, ours,huub", &configs).unwrap();
        let names: Vec<&str> = list.iter().map(|s| s.name.as_str()).collect();
        assert_eq!(names, ["ours-p2", "ours", "huub"]);
        assert_eq!(list[1].flags, Vec::<String>::new());
        assert!(solvers("ours,ours", &configs).is_err());
        assert!(solvers("cplex", &configs).is_err());
    }

    #[test]
    fn the_defaults_run_every_program_on_the_bench_folder() {
        let options = args("-t 3").unwrap();
        assert_eq!(options.setup.timeout, 3);
        assert_eq!(options.solvers.len(), 5);
        assert_eq!(options.folders, ["minizinc-bench"]);
        assert_eq!(options.check, CheckMode::Last);
        let options = args("--folder all").unwrap();
        assert_eq!(
            options.folders,
            ["minizinc-bench", "minizinc", "minizinc-sched"]
        );
        assert!(args("--folder sched").is_err());
        let options = args("--instances golomb:11,still_life:9x9 --only ft10").unwrap();
        assert_eq!(options.instances, ["golomb:11", "still_life:9x9", "ft10"]);
    }
}
