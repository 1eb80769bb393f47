//! The cost of a node: four MiniZinc benchmark instances, compiled once to FlatZinc and kept in
//! `benches/data/node-cost/`, searched by the engine alone (through the library, as `fzn-csp` does,
//! with the models' search annotations), and by Gecode's `fzn-gecode` in the same run when it is
//! installed. Prints, for each, the nodes, the search time and the nanoseconds per node of both, and
//! the ratio of the two node costs.
//!
//! | instance | what its nodes cost |
//! | --- | --- |
//! | `mknap2-20` (multi-knapsack) | seven linear equalities of 50 terms over 0/1 variables |
//! | `market_split_u4-01` | four linear equalities of 30 terms over 0/1 variables |
//! | `black-hole_9` | 51 binary tables, `inverse`, all-different, precedences |
//! | `template_design_catfood_3` | 21 products `p · R`, two divisions, linear sums, `lex_lesseq` |
//!
//! The first three search the same tree in both solvers (one node apart: Gecode counts the root).
//! The last does not: our products are domain consistent while the inputs have few tuples, Gecode's
//! bounds consistent, so the trees differ and only the cost of a node compares. It runs to a node
//! limit (both solvers) since neither finishes soon.
//!
//! ```sh
//! cargo bench --bench node_cost                          # all four, and Gecode when installed
//! cargo bench --bench node_cost -- --only mknap --no-gecode
//! cargo bench --bench node_cost -- --nodes 20000         # every instance cut at 20,000 nodes
//! ```
//!
//! Options: `--only TEXT` (instances whose name contains it), `--nodes N` (a node limit for every
//! instance, both solvers), `--repeat K` (the engine's runs per instance; the median is printed,
//! default 1), `--no-gecode`, `--digest` (instead of timing, print a digest of every decision and
//! solution the search makes, in order: two builds search the same tree exactly when the digests
//! agree). Without `--bench` on the command line (as under `cargo test --benches`) it runs each
//! instance to 2,000 nodes, without Gecode, as a smoke check.
//!
//! Our time is the search's own (`Search::elapsed`: parsing and compiling the model are left out);
//! Gecode's is its `solveTime` statistic, which leaves out the same. The machine is shared, so
//! compare ratios measured in one run.
//!
//! The FlatZinc files were compiled by MiniZinc 2.6.4 from `data/minizinc-bench`, each with this
//! repository's library and, where the result differs, with Gecode's (`*.gecode.fzn`); see
//! `benches/data/node-cost/README.md`.

use std::path::{Path, PathBuf};
use std::process::Command;

use std::ops::ControlFlow;

use csp::flatzinc::compile;
use csp::search::{FnObserver, Outcome, Search, SearchEvent};

/// One instance: its name, our FlatZinc file, Gecode's (the same file when MiniZinc compiled both
/// alike), and the node limit of a full benchmark run (`None`: to the end of the search).
struct Instance {
    name: &'static str,
    ours: &'static str,
    gecode: &'static str,
    nodes: Option<u64>,
}

const INSTANCES: [Instance; 4] = [
    Instance {
        name: "mknap2-20",
        ours: "mknap2-20.fzn",
        gecode: "mknap2-20.fzn",
        nodes: None,
    },
    Instance {
        name: "market_split_u4-01",
        ours: "market_split_u4-01.fzn",
        gecode: "market_split_u4-01.fzn",
        nodes: None,
    },
    Instance {
        name: "black-hole_9",
        ours: "black-hole_9.fzn",
        gecode: "black-hole_9.gecode.fzn",
        nodes: None,
    },
    Instance {
        name: "template_design_catfood_3",
        ours: "template_design_catfood_3.fzn",
        gecode: "template_design_catfood_3.gecode.fzn",
        nodes: Some(1_000_000),
    },
];

/// The smoke check's node limit (without `--bench`).
const SMOKE_NODES: u64 = 2_000;

/// What to run.
struct Settings {
    only: Option<String>,
    nodes: Option<u64>,
    repeat: usize,
    gecode: bool,
    digest: bool,
    smoke: bool,
}

impl Settings {
    fn from_args() -> Settings {
        let args: Vec<String> = std::env::args().skip(1).collect();
        let smoke = !args.iter().any(|arg| arg == "--bench");
        let mut settings = Settings {
            only: None,
            nodes: smoke.then_some(SMOKE_NODES),
            repeat: 1,
            gecode: !smoke,
            digest: false,
            smoke,
        };
        let mut args = args.into_iter();
        while let Some(arg) = args.next() {
            match arg.as_str() {
                "--only" => settings.only = args.next(),
                "--nodes" => {
                    settings.nodes = args.next().and_then(|n| n.replace('_', "").parse().ok());
                    assert!(settings.nodes.is_some(), "--nodes takes a number");
                }
                "--repeat" => {
                    settings.repeat = args.next().and_then(|k| k.parse().ok()).unwrap_or(0);
                    assert!(settings.repeat >= 1, "--repeat takes a positive number");
                }
                "--no-gecode" => settings.gecode = false,
                "--digest" => settings.digest = true,
                _ => {}
            }
        }
        settings
    }
}

/// One solver's run: nodes, seconds of search, and how it ended.
struct Run {
    nodes: u64,
    seconds: f64,
    outcome: String,
}

impl Run {
    fn ns_per_node(&self) -> f64 {
        self.seconds * 1e9 / self.nodes.max(1) as f64
    }
}

fn data_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("benches/data/node-cost")
}

/// The engine on our FlatZinc file with an observer that folds every decision and solution into an
/// FNV-1a digest (of their `Debug` forms, in order); returns the nodes and the digest.
fn digest_engine(instance: &Instance, nodes: Option<u64>) -> (u64, u64) {
    let path = data_dir().join(instance.ours);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let compiled = compile(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut config = compiled.search_config(false);
    config.limits.nodes = nodes;
    let mut digest: u64 = 0xcbf2_9ce4_8422_2325;
    let mut observer = FnObserver(|event: &SearchEvent<'_>| {
        if matches!(
            event,
            SearchEvent::Assign { .. } | SearchEvent::Decide { .. } | SearchEvent::Solution { .. }
        ) {
            for byte in format!("{event:?}").bytes() {
                digest = (digest ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3);
            }
        }
        ControlFlow::Continue(())
    });
    let mut search = Search::new(compiled.model(), &config);
    search.run(&mut observer);
    (search.stats().nodes, digest)
}

/// The engine on our FlatZinc file, as `fzn-csp` runs it (one solution, or the proven optimum).
fn run_engine(instance: &Instance, nodes: Option<u64>) -> Run {
    let path = data_dir().join(instance.ours);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let compiled = compile(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut config = compiled.search_config(false);
    config.limits.nodes = nodes;
    let mut search = Search::new(compiled.model(), &config);
    let outcome = search.run(&mut ());
    if let Some(solution) = search.result().solution {
        compiled
            .verify(&solution)
            .unwrap_or_else(|e| panic!("{}: a solution failed verification: {e}", instance.name));
    }
    Run {
        nodes: search.stats().nodes,
        seconds: search.elapsed().as_secs_f64(),
        outcome: match outcome {
            Outcome::LimitReached(_) => "limit".to_owned(),
            other => format!("{other:?}").to_lowercase(),
        },
    }
}

/// `fzn-gecode -s` on Gecode's FlatZinc file: its `nodes` and `solveTime` statistics. `None` when
/// it cannot be run.
fn run_gecode(instance: &Instance, nodes: Option<u64>) -> Option<Run> {
    let path = data_dir().join(instance.gecode);
    let mut command = Command::new("fzn-gecode");
    command.arg("-s");
    if let Some(nodes) = nodes {
        command.args(["-node", &nodes.to_string()]);
    }
    let output = command.arg(&path).output().ok()?;
    let text = String::from_utf8_lossy(&output.stdout);
    let stat = |name: &str| {
        text.lines()
            .find_map(|line| line.strip_prefix(&format!("%%%mzn-stat: {name}=")))
            .map(str::to_owned)
    };
    let outcome = if text.contains("=====UNSATISFIABLE=====") {
        "unsat"
    } else if text.contains("==========") {
        "complete"
    } else if text.contains("----------") {
        "solution"
    } else {
        "limit"
    };
    Some(Run {
        nodes: stat("nodes")?.parse().ok()?,
        seconds: stat("solveTime")?.parse().ok()?,
        outcome: outcome.to_owned(),
    })
}

fn main() {
    let settings = Settings::from_args();
    let gecode_installed = settings.gecode
        && Command::new("fzn-gecode")
            .arg("-help")
            .output()
            .is_ok_and(|o| o.status.success());
    if settings.smoke {
        println!("node_cost: smoke check ({SMOKE_NODES} nodes each, no Gecode; run with --bench)");
    } else if settings.gecode && !gecode_installed {
        println!("node_cost: fzn-gecode is not installed; the engine only");
    }
    println!(
        "{:<27} {:>11} {:>9} {:>9} {:>9} | {:>11} {:>9} {:>9} {:>9} | {:>7}",
        "instance",
        "nodes",
        "seconds",
        "ns/node",
        "outcome",
        "gecode",
        "seconds",
        "ns/node",
        "outcome",
        "ratio"
    );
    for instance in &INSTANCES {
        if settings
            .only
            .as_deref()
            .is_some_and(|only| !instance.name.contains(only))
        {
            continue;
        }
        let nodes = settings.nodes.or(instance.nodes);
        if settings.digest {
            let (nodes, digest) = digest_engine(instance, nodes);
            println!(
                "{:<27} {nodes:>11} nodes, digest {digest:016x}",
                instance.name
            );
            continue;
        }
        let mut runs: Vec<Run> = (0..settings.repeat)
            .map(|_| run_engine(instance, nodes))
            .collect();
        runs.sort_by(|a, b| a.seconds.total_cmp(&b.seconds));
        let ours = runs.swap_remove(runs.len() / 2);
        let theirs = if gecode_installed {
            run_gecode(instance, nodes)
        } else {
            None
        };
        let (gecode, ratio) = match &theirs {
            Some(g) => (
                format!(
                    "{:>11} {:>9.3} {:>9.0} {:>9}",
                    g.nodes,
                    g.seconds,
                    g.ns_per_node(),
                    g.outcome
                ),
                format!("{:>7.2}", ours.ns_per_node() / g.ns_per_node()),
            ),
            None => (format!("{:>41}", "-"), format!("{:>7}", "-")),
        };
        println!(
            "{:<27} {:>11} {:>9.3} {:>9.0} {:>9} | {gecode} | {ratio}",
            instance.name,
            ours.nodes,
            ours.seconds,
            ours.ns_per_node(),
            ours.outcome
        );
    }
}
