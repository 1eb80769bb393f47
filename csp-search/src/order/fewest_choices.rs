use csp_core::VarId;
use rand::RngExt;

use super::select::{SelectCtx, VariableOrder};
use crate::{Propagation, Rng, TiePolicy, rng_for};

/// The random stream tie breaking draws from (see [`rng_for`]).
const TIE_STREAM: u64 = 1;

/// The unassigned variable with the fewest choices: Stone & Stone's MIN ("place next the queen with
/// the fewest possible moves"), Bitner & Reingold's most-constrained rule, MRV in today's words.
///
/// Ties go by [`TiePolicy`]. Under forward checking the choices are the domain sizes and one pass over
/// the unassigned variables finds the minimum; under check-past each candidate's consistent values
/// are counted (once per node, kept in scratch space).
#[derive(Debug, Clone)]
pub struct FewestChoices {
    ties: TiePolicy,
    rng: Rng,
    /// Under check-past: the unassigned variables and their counted choices at the current node.
    scratch: Vec<(VarId, u64)>,
    /// Under check-past: one variable's values, filtered in place to count its choices.
    values: Vec<i32>,
    /// Random ties: the candidates tied on the fewest choices so far, in the order listed.
    tied: Vec<VarId>,
}

impl FewestChoices {
    /// Fewest choices with the given tie policy; `seed` drives [`TiePolicy::Random`].
    pub fn new(ties: TiePolicy, seed: u64) -> Self {
        FewestChoices {
            ties,
            rng: rng_for(seed, TIE_STREAM),
            scratch: Vec::new(),
            values: Vec::new(),
            tied: Vec::new(),
        }
    }
}

impl FewestChoices {
    /// The choice of [`choose`] over a store that keeps N-queens' lines
    /// ([`Store::fewest_kept_rows`](csp_core::Store::fewest_kept_rows)), which finds the rows
    /// tied on the fewest choices without reading every row's size; `None` where the store cannot.
    /// The same variable as the scan: the lowest index, or the same draw among the ties taken in the
    /// order the scan meets them (the store's list of unassigned variables).
    fn fewest_kept_rows(&mut self, ctx: &SelectCtx<'_>) -> Option<Option<VarId>> {
        let store = ctx.store();
        let mut tied = std::mem::take(&mut self.tied);
        let found = store.fewest_kept_rows(&mut tied).map(|_| match self.ties {
            _ if tied.is_empty() => None,
            TiePolicy::Random => {
                let pick = self.rng.random_range(0..tied.len() as u32) as usize;
                let (_, &mut chosen, _) =
                    tied.select_nth_unstable_by_key(pick, |&v| store.unassigned_position(v));
                Some(chosen)
            }
            TiePolicy::LowestIndex | TiePolicy::MaxDegree => Some(tied[0]),
        });
        self.tied = tied;
        found
    }
}

impl VariableOrder for FewestChoices {
    fn select(&mut self, ctx: &SelectCtx<'_>) -> Option<VarId> {
        // The candidates come from the store's sparse set of unassigned variables, in no particular
        // order, so every tie policy compares indices explicitly where the order matters.
        let unassigned = ctx.unassigned_unordered();
        match ctx.propagation() {
            Propagation::ForwardChecking | Propagation::Mac => {
                if self.ties != TiePolicy::MaxDegree
                    && let Some(chosen) = self.fewest_kept_rows(ctx)
                {
                    return chosen;
                }
                let size = ctx.sizes();
                // The ties in a local vector, which no other write can touch: its length stays in
                // a register through the scan.
                let mut tied = std::mem::take(&mut self.tied);
                let chosen = choose(self.ties, &mut self.rng, &mut tied, ctx, || {
                    unassigned.iter().map(|&v| (v, size(v)))
                });
                self.tied = tied;
                chosen
            }
            Propagation::CheckPast => {
                // Count each variable's consistent values with one batch call per constraint, in a
                // buffer kept between nodes.
                self.scratch.clear();
                for &v in unassigned {
                    self.values.clear();
                    let choices = ctx.append_choices(v, &mut self.values);
                    self.scratch.push((v, choices as u64));
                }
                let scratch = &self.scratch;
                choose(self.ties, &mut self.rng, &mut self.tied, ctx, || {
                    scratch.iter().copied()
                })
            }
        }
    }
}

/// The candidate with the fewest choices, ties broken by `ties`. `candidates` lists the same
/// `(variable, choices)` pairs each time it is called; `tied` is scratch space for random ties. A
/// generic function rather than a `dyn Iterator`, so that each pass over ten thousand candidates
/// compiles to a loop without a call per candidate.
fn choose<I: Iterator<Item = (VarId, u64)>>(
    ties: TiePolicy,
    rng: &mut Rng,
    tied: &mut Vec<VarId>,
    ctx: &SelectCtx<'_>,
    candidates: impl Fn() -> I,
) -> Option<VarId> {
    match ties {
        TiePolicy::LowestIndex => candidates().min_by_key(|&(v, c)| (c, v)).map(|(v, _)| v),
        TiePolicy::MaxDegree => {
            let mut best: Option<(VarId, u64, u64)> = None;
            for (v, c) in candidates() {
                // The degree costs a pass over v's constraints: compute it only for a candidate
                // that is at least tied on choices, and once.
                let replaces = match best {
                    None => Some(ctx.degree(v)),
                    Some((_, b, _)) if c < b => Some(ctx.degree(v)),
                    Some((w, b, d)) if c == b => {
                        let degree = ctx.degree(v);
                        (degree > d || (degree == d && v < w)).then_some(degree)
                    }
                    Some(_) => None,
                };
                if let Some(degree) = replaces {
                    best = Some((v, c, degree));
                }
            }
            best.map(|(v, _, _)| v)
        }
        TiePolicy::Random => {
            // One pass noting the ties, then one draw, rather than reservoir sampling's draw per
            // tie: at the top of a 10,000-queens search every variable ties. The draw picks among
            // the ties in the order listed, as a second pass counting them would.
            //
            // Every candidate is written past the ties so far and counted only if it ties, a smaller
            // count starting them again: no branch on whether a candidate ties, which varies from
            // one to the next and was mispredicted often.
            let (mut min, mut count) = (u64::MAX, 0);
            for (v, c) in candidates() {
                if c < min {
                    min = c;
                    count = 0;
                }
                if count == tied.len() {
                    tied.push(v);
                } else {
                    tied[count] = v;
                }
                count += usize::from(c == min);
            }
            if count == 0 {
                return None;
            }
            let pick = rng.random_range(0..count as u32);
            Some(tied[pick as usize])
        }
    }
}

#[cfg(test)]
mod tests {
    use csp_core::{ModelBuilder, Store};

    use super::*;

    #[test]
    fn fewest_choices_prefers_the_smallest_domain_then_the_lowest_index() {
        let mut builder = ModelBuilder::new();
        let a = builder.int_var("a", 0..=4).unwrap();
        let b = builder.int_var("b", 0..=2).unwrap();
        let c = builder.int_var_with_values("c", [5, 9, 11]).unwrap();
        let model = builder.build();
        let store = Store::new(&model);
        let ctx = SelectCtx::new(&model, &store, Propagation::ForwardChecking);
        let mut order = FewestChoices::new(TiePolicy::LowestIndex, 0);
        assert_eq!(order.select(&ctx), Some(b));
        let _ = (a, c);
    }

    #[test]
    fn random_ties_are_seeded_and_reach_every_tied_variable() {
        super::super::test_support::assert_random_ties_are_seeded_and_reach_every_variable(
            |seed| FewestChoices::new(TiePolicy::Random, seed),
        );
    }
}
