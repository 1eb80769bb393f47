//! What one solver did on one instance: its solutions, status lines and statistics, read from its
//! output, and what the checks made of them.

use crate::instances::Expected;

/// One solution a solver reported, as MiniZinc data (one assignment a line, or over several lines
/// for a two-dimensional array), `_objective = v;` included for optimisation problems.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Solution {
    /// The assignments, as the solver (or MiniZinc's output model) printed them.
    pub dzn: String,
    /// The value of `_objective`, if it was printed.
    pub objective: Option<i64>,
}

impl Solution {
    /// A solution from the lines between two separators.
    fn from_block(dzn: String) -> Solution {
        let objective = dzn.lines().find_map(|line| {
            let value = line
                .strip_prefix("_objective")?
                .trim_start()
                .strip_prefix('=')?;
            value.trim().trim_end_matches(';').trim().parse().ok()
        });
        Solution { dzn, objective }
    }
}

/// A run's answer, judged against the instance's known answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status {
    /// An optimum found and proven (`==========` after a solution).
    Optimal,
    /// Every solution of a counting instance enumerated.
    All,
    /// Unsatisfiability proven.
    Unsat,
    /// A solution of a satisfaction problem.
    Sat,
    /// Solutions, without proof of optimality (or of a complete count).
    Found,
    /// Nothing: no solution and no proof by the limit.
    Unknown,
    /// The solver failed: compilation, a crash, a wall-clock timeout.
    Error,
    /// An answer that contradicts the known one, or a solution the model refuses.
    Wrong,
}

impl Status {
    /// Whether the answer is final: the problem is solved.
    pub fn proven(self) -> bool {
        matches!(
            self,
            Status::Optimal | Status::All | Status::Unsat | Status::Sat
        )
    }

    /// The status as the table shows it.
    pub fn label(self) -> &'static str {
        match self {
            Status::Optimal => "optimal",
            Status::All => "all",
            Status::Unsat => "unsat",
            Status::Sat => "sat",
            Status::Found => "found",
            Status::Unknown => "unknown",
            Status::Error => "error",
            Status::Wrong => "WRONG",
        }
    }
}

/// What one solver did on one instance.
#[derive(Debug, Clone, Default)]
pub struct Run {
    /// The solutions printed, in order.
    pub solutions: Vec<Solution>,
    /// `==========` was printed: the search was complete.
    pub complete: bool,
    /// `=====UNSATISFIABLE=====` was printed.
    pub unsat: bool,
    /// The solver's own `solveTime` (its last, where it prints several).
    pub solve_time: Option<f64>,
    /// The wall-clock seconds of the whole call, compilation included.
    pub wall: f64,
    /// MiniZinc's `flatTime`, where the solver's call includes compilation.
    pub flat_time: Option<f64>,
    /// The solver's node count, if it prints one.
    pub nodes: Option<u64>,
    /// Why the run failed, if it did (the solutions it printed before are still checked).
    pub error: Option<String>,
    /// Why the answer is wrong, if it is: each reason once.
    pub wrong: Vec<String>,
    /// Solutions the cross-check could not judge, and why (a limitation of the check, not an
    /// error of the solver).
    pub unchecked: Vec<String>,
    /// Solutions the cross-check accepted.
    pub accepted: usize,
}

impl Run {
    /// A run that failed before it printed anything.
    pub fn failed(error: String) -> Run {
        Run {
            error: Some(error),
            ..Run::default()
        }
    }

    /// Reads a solver's output: the status lines and statistics from `raw` (what the solver
    /// printed), the solutions from `dzn` (the same output as MiniZinc data; the same text for
    /// solvers run through MiniZinc with `--output-mode dzn`).
    pub fn read(raw: &str, dzn: &str) -> Run {
        let mut run = Run::default();
        for line in raw.lines() {
            match line {
                "==========" => run.complete = true,
                "=====UNSATISFIABLE=====" => run.unsat = true,
                "=====ERROR=====" => run.error = Some("the solver printed =====ERROR=====".into()),
                _ => {}
            }
            if let Some(stat) = line.strip_prefix("%%%mzn-stat: ") {
                match stat.split_once('=') {
                    Some(("solveTime", v)) => run.solve_time = v.trim().parse().ok(),
                    Some(("nodes", v)) => run.nodes = v.trim().parse().ok(),
                    Some(("flatTime", v)) => run.flat_time = v.trim().parse().ok(),
                    _ => {}
                }
            }
        }
        let mut block = String::new();
        for line in dzn.lines() {
            if line == "----------" {
                run.solutions
                    .push(Solution::from_block(std::mem::take(&mut block)));
            } else if !line.starts_with('%') && !line.starts_with("=====") {
                block.push_str(line);
                block.push('\n');
            }
        }
        run
    }

    /// The seconds the score and the cactus plot count: the solver's `solveTime`, else the wall
    /// time.
    pub fn seconds(&self) -> f64 {
        self.solve_time.unwrap_or(self.wall)
    }

    /// The objective of the last solution: the best, in the FlatZinc protocol.
    pub fn objective(&self) -> Option<i64> {
        self.solutions.last().and_then(|s| s.objective)
    }

    /// The run's answer against the known one.
    pub fn status(&self, expected: &Expected) -> Status {
        if !self.wrong.is_empty() {
            return Status::Wrong;
        }
        if self.error.is_some() {
            return Status::Error;
        }
        let found = !self.solutions.is_empty();
        match expected {
            _ if self.unsat => Status::Unsat,
            Expected::Sat | Expected::Unsat if found => Status::Sat,
            Expected::Optimum { .. } if found && self.complete => Status::Optimal,
            Expected::Count(_) if self.complete => Status::All,
            _ if found => Status::Found,
            _ => Status::Unknown,
        }
    }

    /// Notes a reason the answer is wrong (once).
    pub fn mark_wrong(&mut self, reason: String) {
        if !self.wrong.contains(&reason) {
            self.wrong.push(reason);
        }
    }

    /// Compares the answer with the known one, marking it wrong where it contradicts it: a claim of
    /// unsatisfiability for a satisfiable instance, a solution of an unsatisfiable one, a proven
    /// optimum that is not the optimum, any solution whose objective beats the optimum, a count
    /// that is not the count.
    pub fn check_answer(&mut self, expected: &Expected) {
        let count = self.solutions.len() as u64;
        let claims_unsat = self.unsat;
        match *expected {
            Expected::Sat | Expected::Count(_) | Expected::Optimum { .. } if claims_unsat => {
                self.mark_wrong("claims UNSAT".to_owned());
            }
            Expected::Unsat if count > 0 => self.mark_wrong("finds a solution".to_owned()),
            Expected::Optimum { value, minimize } => {
                let beats = |o: i64| if minimize { o < value } else { o > value };
                let objectives: Vec<Option<i64>> =
                    self.solutions.iter().map(|s| s.objective).collect();
                for objective in objectives {
                    match objective {
                        Some(o) if beats(o) => {
                            self.mark_wrong(format!("beats the optimum {value} with {o}"))
                        }
                        // The objective comes from MiniZinc's `--output-objective`; when it is
                        // missing, the runner, not the solver, lost it.
                        None => {
                            let note = "a solution without `_objective`".to_owned();
                            if !self.unchecked.contains(&note) {
                                self.unchecked.push(note);
                            }
                        }
                        Some(_) => {}
                    }
                }
                if self.complete
                    && let Some(o) = self.objective()
                    && o != value
                {
                    self.mark_wrong(format!("proves {o}, not {value}"));
                }
            }
            Expected::Count(n) if count > n || (self.complete && count != n) => {
                self.mark_wrong(format!("counts {count}, not {n}"));
            }
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const PEER: &str = "%%%mzn-stat: flatTime=0.2\n\
                        mark = [0, 1, 3];\n_objective = 3;\n----------\n\
                        mark = [0, 1, 4, 6];\n_objective = 6;\n----------\n\
                        ==========\n%%%mzn-stat: solveTime=0.5\n%%%mzn-stat: nodes=12\n";

    const GOLOMB: Expected = Expected::Optimum {
        value: 6,
        minimize: true,
    };

    #[test]
    fn the_output_gives_solutions_objectives_status_and_statistics() {
        let run = Run::read(PEER, PEER);
        assert_eq!(run.solutions.len(), 2);
        assert_eq!(run.solutions[0].dzn, "mark = [0, 1, 3];\n_objective = 3;\n");
        assert_eq!(run.objective(), Some(6));
        assert!(run.complete && !run.unsat);
        assert_eq!((run.solve_time, run.nodes), (Some(0.5), Some(12)));
        assert_eq!(run.status(&GOLOMB), Status::Optimal);
    }

    #[test]
    fn an_objective_beyond_the_optimum_or_a_wrong_proof_is_wrong() {
        let mut run = Run::read(PEER, PEER);
        run.check_answer(&GOLOMB);
        assert_eq!(run.wrong, ["beats the optimum 6 with 3"]);
        assert_eq!(run.status(&GOLOMB), Status::Wrong);

        let mut run = Run::read(PEER, PEER);
        run.check_answer(&Expected::Optimum {
            value: 5,
            minimize: true,
        });
        assert_eq!(run.wrong, ["beats the optimum 5 with 3", "proves 6, not 5"]);
    }

    #[test]
    fn unsat_claims_and_counts_are_checked() {
        let unsat = Run::read("=====UNSATISFIABLE=====\n", "");
        let mut sat = unsat.clone();
        sat.check_answer(&Expected::Sat);
        assert_eq!(sat.wrong, ["claims UNSAT"]);
        let mut right = unsat.clone();
        right.check_answer(&Expected::Unsat);
        assert_eq!(right.status(&Expected::Unsat), Status::Unsat);

        let mut count = Run::read(PEER, PEER);
        count.check_answer(&Expected::Count(3));
        assert_eq!(count.wrong, ["counts 2, not 3"]);
        let mut partial = Run::read("", PEER);
        partial.check_answer(&Expected::Count(3));
        assert_eq!(partial.status(&Expected::Count(3)), Status::Found);
    }
}
