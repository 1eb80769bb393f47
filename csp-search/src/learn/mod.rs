//! Learning from failure, as what the one search does at a conflict ([`crate::Conflicts::Learn`]):
//! conflict analysis over the store's change log, learned clauses, backjumping, activity-based
//! branching and restarts. The search itself (its path, decisions, propagation, limits, statistics,
//! events, branch and bound) is [`crate::Search`]'s; this module holds what a learning search keeps
//! beside it.
//!
//! This follows lazy clause generation (Ohrimenko, Stuckey & Codish 2009, "Propagation via lazy
//! clause generation"; Feydy & Stuckey 2009, "Lazy clause generation reengineered"): every domain
//! change is a literal (`x = v`, `x ≠ v`, `x ≤ v`, `x ≥ v`) on the store's change log with its
//! cause, and a failure is traced back through the causes to the first unique implication point of
//! the current decision level (Marques-Silva & Sakallah 1999, GRASP; Moskewicz et al. 2001,
//! Chaff). The learned clause is propagated by two watched literals, and the search jumps back to
//! the level where the clause asserts its first literal.
//!
//! **Explanations.** A constraint that explains its inferences ([`csp_core::Propagator::explain`])
//! gives the few literals a change rests on; the learner maps each to the earliest log entry that
//! made it true, and adds the removals a bound skipped over. Any other change is explained by the
//! domains of the constraint's scope just before it, as literals (each variable's bounds and the
//! values removed between them). That is sound for any sound propagator, whatever its
//! constraint (it removed the value because no tuple of the constraint within those domains holds
//! it), but it is the weakest explanation: the more constraints explain themselves, the more
//! general the clauses, which is what the learning solvers that lead the field do for every
//! constraint of their catalogue. A constraint's failure is explained the same way when it failed
//! by a change the store refused ([`csp_core::Store::take_failure`]: a bound beyond the other bound, the
//! removal of a fixed variable's value): that change's explanation and what made it false, rather
//! than every domain of the scope.
//!
//! **Branching** is activity based (VSIDS, Moskewicz et al. 2001): the variables of every literal
//! met in conflict analysis are bumped, activities decay geometrically, and the most active
//! unfixed variable is branched on, with the value it last took (phase saving, Pipatsrisawat &
//! Darwiche 2007) or its smallest one; a variable with a wide domain is split at its midpoint
//! instead. Restarts follow the Luby sequence in conflicts. A search with annotated decisions
//! ([`crate::Strategy::Decisions`]) decides as they say instead, without restarts, or in turn with
//! activity at each restart (Chuffed's free search; [`crate::Learning::alternate`]).
//!
//! **Learned clauses** are shortened before they are kept: a literal below the current level
//! implied by another literal of the clause goes, and one implied by the rest of the clause through its reasons, recursively, is dropped (recursive minimisation,
//! Sörensson & Biere 2009, "Minimizing learned clauses", with a stronger literal of the clause
//! standing for a weaker one a reason asks for). Learned clauses are implied by the
//! constraints (and, under an objective, by the bound, which only tightens), so they stay valid
//! across restarts and improving solutions, and no solution is ever lost: enumerating with
//! blocking clauses counts exactly the solutions a search without learning counts.

mod activity;
mod analysis;
mod clauses;
mod learner;
mod literals;
mod minimise;
mod reasons;
mod scratch;
#[cfg(test)]
mod tests;

pub(crate) use learner::{Conflict, Learner};
