//! The numbered list of subproblems a count is made of.
//!
//! A plan depends on n and on what is counted, nothing else: the same list, in the same order, on every
//! machine and with any number of threads. That is what lets a checkpoint name finished subproblems by
//! number and lets shard i of k take the subproblems whose number is i modulo k. Its digest, stored in
//! every checkpoint and shard result, catches a file written by a program that split differently.

use super::bitboard::{MAX_N, Plain, Torus, Walk, WalkCount};
use super::constellation::{Constellation, classes};
use super::fnv::Fnv;
use super::prefix::{Prefix, TARGET_SUBPROBLEMS, lex_split, torus_split, walk};
use super::symmetry::{Symmetry, count_fixed};
use super::tally::{CountKind, Tally};

/// One subproblem.
#[derive(Clone, Debug)]
pub(crate) enum Subproblem {
    /// The nodes and solutions the split itself placed, above the other subproblems (prefix plans).
    Above(Tally),
    /// The solutions with one class of border constellations, weighted by the class's size.
    Constellations {
        /// The class's least member.
        representative: Constellation,
        /// The class's size.
        weight: u8,
    },
    /// The solutions one symmetry leaves unchanged (for Burnside's lemma).
    Fixed(Symmetry),
    /// The LEX subtree under a prefix.
    Lex(Prefix),
    /// The toroidal placements extending a prefix.
    Torus(Prefix),
}

/// How a subproblem is evaluated.
pub(crate) enum Work {
    /// Its tally is known without searching, or comes from a small search of its own.
    Direct(Tally),
    /// A walk for the bitboard loop; [`Plan::tally_of_walk`] turns its count into a tally.
    Walk(Walk),
}

/// Every subproblem of one count.
#[derive(Debug)]
pub(crate) struct Plan {
    n: usize,
    kind: CountKind,
    subproblems: Vec<Subproblem>,
    digest: u64,
}

impl Plan {
    /// The plan for counting `kind` on the n × n board, 1 ≤ n ≤ [`MAX_N`].
    pub(crate) fn new(n: usize, kind: CountKind) -> Self {
        debug_assert!((1..=MAX_N).contains(&n));
        let subproblems: Vec<Subproblem> = match kind {
            CountKind::Solutions => {
                // The fixed counts first: they are small, and a progress bar should not wait on them.
                let fixed = Symmetry::ALL[1..].iter().map(|&g| Subproblem::Fixed(g));
                let constellations = classes(n).into_iter().map(|c| Subproblem::Constellations {
                    representative: c.representative,
                    weight: c.size,
                });
                fixed.chain(constellations).collect()
            }
            CountKind::Nodes => {
                let (prefixes, above) = lex_split(n, Plain, TARGET_SUBPROBLEMS);
                std::iter::once(Subproblem::Above(above))
                    .chain(prefixes.into_iter().map(Subproblem::Lex))
                    .collect()
            }
            CountKind::Torus => {
                let (prefixes, above) = torus_split(n, Torus::new(n), TARGET_SUBPROBLEMS);
                std::iter::once(Subproblem::Above(above))
                    .chain(prefixes.into_iter().map(Subproblem::Torus))
                    .collect()
            }
        };
        let digest = digest(n, kind, &subproblems);
        Plan {
            n,
            kind,
            subproblems,
            digest,
        }
    }

    /// The board size.
    pub(crate) fn n(&self) -> usize {
        self.n
    }

    /// How many subproblems there are.
    pub(crate) fn len(&self) -> usize {
        self.subproblems.len()
    }

    /// The digest that identifies this plan, as 16 hexadecimal digits.
    pub(crate) fn digest(&self) -> String {
        format!("{:016x}", self.digest)
    }

    /// Whether the toroidal loop runs this plan's walks.
    pub(crate) fn is_torus(&self) -> bool {
        self.kind == CountKind::Torus
    }

    /// What to do for subproblem `id`.
    pub(crate) fn work(&self, id: usize) -> Work {
        let n = self.n;
        match &self.subproblems[id] {
            Subproblem::Above(tally) => Work::Direct(*tally),
            Subproblem::Fixed(symmetry) => {
                let (fixed, placements) = count_fixed(n, *symmetry);
                Work::Direct(Tally {
                    symmetric: fixed,
                    visited: u128::from(placements),
                    ..Tally::default()
                })
            }
            Subproblem::Constellations { representative, .. } => {
                Work::Walk(representative.oriented(n).walk(n))
            }
            Subproblem::Lex(prefix) => Work::Walk(walk(n, Plain, prefix)),
            Subproblem::Torus(prefix) => Work::Walk(walk(n, Torus::new(n), prefix)),
        }
    }

    /// The tally of subproblem `id` given what its walk found.
    pub(crate) fn tally_of_walk(&self, id: usize, count: WalkCount) -> Tally {
        let leaves = u128::from(count.leaves);
        let placements = u128::from(count.placements);
        match &self.subproblems[id] {
            Subproblem::Constellations { weight, .. } => Tally {
                solutions: u128::from(*weight) * leaves,
                visited: placements,
                ..Tally::default()
            },
            // The walk's placements are the nodes below the prefix's last queen, which the split
            // counted already.
            Subproblem::Lex(prefix) => Tally {
                solutions: prefix.weight * leaves,
                nodes: prefix.weight * placements,
                visited: placements,
                ..Tally::default()
            },
            Subproblem::Torus(prefix) => Tally {
                solutions: prefix.weight * leaves,
                visited: placements,
                ..Tally::default()
            },
            Subproblem::Above(_) | Subproblem::Fixed(_) => {
                unreachable!("subproblem {id} is not a walk")
            }
        }
    }

    /// Checks that every finished subproblem of a shard result (`finished`: its number, and its
    /// solutions, symmetric solutions and nodes) holds counts it can have: the nodes and solutions
    /// above the split exactly as this plan has them, a multiple of its weight otherwise, and nothing
    /// in a count it does not make (a constellation class has no symmetric solutions and no tree
    /// nodes, say). The result must be of this plan (its digest checked).
    pub(crate) fn check_counts(
        &self,
        finished: impl IntoIterator<Item = (usize, [u128; 3])>,
    ) -> Result<(), String> {
        for (id, [solutions, symmetric, nodes]) in finished {
            let possible = match self.subproblems.get(id) {
                None => false,
                Some(Subproblem::Above(tally)) => {
                    [solutions, symmetric, nodes] == [tally.solutions, tally.symmetric, tally.nodes]
                }
                Some(Subproblem::Fixed(_)) => solutions == 0 && nodes == 0,
                Some(Subproblem::Constellations { weight, .. }) => {
                    solutions % u128::from(*weight) == 0 && symmetric == 0 && nodes == 0
                }
                Some(Subproblem::Lex(prefix)) => {
                    // Each solution below the prefix is a node below it too.
                    solutions % prefix.weight == 0
                        && nodes % prefix.weight == 0
                        && symmetric == 0
                        && nodes >= solutions
                }
                Some(Subproblem::Torus(prefix)) => {
                    solutions % prefix.weight == 0 && symmetric == 0 && nodes == 0
                }
            };
            if !possible {
                return Err(format!(
                    "subproblem {id} holds counts it cannot have ({solutions} solutions, {symmetric} symmetric, {nodes} nodes)"
                ));
            }
        }
        Ok(())
    }

    /// Counts subproblem `id` by itself (tests and small runs; the driver interleaves walks instead).
    #[cfg(test)]
    pub(crate) fn evaluate(&self, id: usize) -> Tally {
        use super::bitboard::run_walk;
        match self.work(id) {
            Work::Direct(tally) => tally,
            Work::Walk(w) if self.is_torus() => {
                self.tally_of_walk(id, run_walk(Torus::new(self.n), &w))
            }
            Work::Walk(w) => self.tally_of_walk(id, run_walk(Plain, &w)),
        }
    }
}

/// FNV-1a over a byte serialisation of the plan: stable across machines and versions of Rust.
fn digest(n: usize, kind: CountKind, subproblems: &[Subproblem]) -> u64 {
    let mut hash = Fnv::new();
    hash.bytes(b"csp-queens-count plan 1");
    hash.bytes(&(n as u64).to_le_bytes());
    hash.bytes(kind.name().as_bytes());
    for subproblem in subproblems {
        match subproblem {
            Subproblem::Above(tally) => {
                hash.bytes(b"A");
                for value in [tally.solutions, tally.symmetric, tally.nodes] {
                    hash.bytes(&value.to_le_bytes());
                }
            }
            Subproblem::Constellations {
                representative: c,
                weight,
            } => hash.bytes(&[b'C', c.top, c.bottom, c.left, c.right, *weight]),
            Subproblem::Fixed(symmetry) => hash.bytes(&[b'F', symmetry.code()]),
            Subproblem::Lex(prefix) | Subproblem::Torus(prefix) => {
                hash.bytes(b"P");
                hash.bytes(&prefix.weight.to_le_bytes());
                hash.bytes(&[prefix.columns.len() as u8]);
                hash.bytes(&prefix.columns);
            }
        }
    }
    hash.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn total(plan: &Plan) -> Tally {
        (0..plan.len()).fold(Tally::default(), |sum, id| {
            sum.checked_add(plan.evaluate(id)).expect("no overflow")
        })
    }

    #[test]
    fn the_same_plan_every_time_and_different_plans_for_different_counts() {
        let a = Plan::new(10, CountKind::Solutions);
        let b = Plan::new(10, CountKind::Solutions);
        assert_eq!(a.digest(), b.digest());
        assert_ne!(a.digest(), Plan::new(11, CountKind::Solutions).digest());
        assert_ne!(a.digest(), Plan::new(10, CountKind::Nodes).digest());
        assert_ne!(
            Plan::new(10, CountKind::Nodes).digest(),
            Plan::new(10, CountKind::Torus).digest()
        );
    }

    #[test]
    fn lex_plans_count_every_node_once_for_any_split() {
        // The full LEX trees of Stone & Stone's Table 1 (root included), split at every depth.
        for (n, want) in [(4, 17u128), (6, 153), (8, 2057)] {
            for target in [1, 2, 5, 50, 100_000] {
                let (prefixes, above) = lex_split(n, Plain, target);
                let mut plan = Plan::new(n, CountKind::Nodes);
                plan.subproblems = std::iter::once(Subproblem::Above(above))
                    .chain(prefixes.into_iter().map(Subproblem::Lex))
                    .collect();
                assert_eq!(total(&plan).nodes, want, "n = {n}, target {target}");
            }
        }
    }

    #[test]
    fn small_boards_plan_and_count() {
        // A000170 and A051906 for n = 1..6, as published.
        let solutions = [1u128, 0, 0, 2, 10, 4];
        let torus = [1u128, 0, 0, 0, 10, 0];
        for n in 1..=6 {
            assert_eq!(
                total(&Plan::new(n, CountKind::Solutions)).solutions,
                solutions[n - 1]
            );
            assert_eq!(
                total(&Plan::new(n, CountKind::Nodes)).solutions,
                solutions[n - 1]
            );
            assert_eq!(
                total(&Plan::new(n, CountKind::Torus)).solutions,
                torus[n - 1]
            );
        }
    }
}
