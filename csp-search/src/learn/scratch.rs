//! Scratch space of conflict analysis and clause minimisation, kept between conflicts so that
//! none is allocated again for each, and the facts about literals they rest on.

use csp_core::{Literal, LiteralRelation, LogEntry};

/// What clause minimisation knows of a log entry ([`Minimise::marks`]): nothing yet.
pub(super) const UNKNOWN: u8 = 0;
/// An entry of the clause being minimised.
pub(super) const IN_CLAUSE: u8 = 1;
/// An entry implied by the clause's entries made before it.
pub(super) const REDUNDANT: u8 = 2;
/// An entry found not to be redundant (or given up on).
pub(super) const NOT_REDUNDANT: u8 = 3;
/// An entry dropped from the clause as another entry of the clause implies it.
pub(super) const SUBSUMED: u8 = 4;
/// An entry of the clause that stays in it.
pub(super) const KEPT: u8 = 5;

/// Scratch space for the minimisation of a learned clause, kept between conflicts so that it is
/// not allocated again for each.
#[derive(Debug, Default)]
pub(super) struct Minimise {
    /// Per log entry, what is known of it ([`UNKNOWN`] between uses).
    pub(super) marks: Vec<u8>,
    /// The entries marked, to clear.
    pub(super) marked: Vec<usize>,
    /// The depth-first search of [`super::Learner`]'s redundancy test.
    pub(super) stack: Vec<Frame>,
    /// The reasons of the entries on the stack, each frame's after its parent's.
    pub(super) reasons: Vec<usize>,
    /// Per variable, its entry in `facts`, or [`NO_FACTS`] (between uses, for every variable).
    pub(super) facts_of: Vec<u32>,
    /// What the clause's entries say of each variable they are on.
    pub(super) facts: Vec<VarFacts>,
    /// The clause's bound entries (`≥`, `≤`, `=`; [`VarFacts::from`]), by variable: only they
    /// can imply a literal of another entry, as `x ≠ v` implies nothing but itself.
    pub(super) bound_entries: Vec<usize>,
}

/// No entry of the clause is on the variable ([`Minimise::facts_of`]).
pub(super) const NO_FACTS: u32 = u32::MAX;

/// What a clause's entries on one variable say together.
#[derive(Debug, Clone, Copy)]
pub(super) struct VarFacts {
    pub(super) var: u32,
    /// The strongest lower bound (`≥`, `=`) among them, `i32::MIN` if none.
    pub(super) lower: i32,
    /// The strongest upper bound (`≤`, `=`) among them, `i32::MAX` if none.
    pub(super) upper: i32,
    /// The value of an `x = v` among them.
    pub(super) fixed: Option<i32>,
    /// Where its bound entries are in [`Minimise::bound_entries`].
    pub(super) from: u32,
    pub(super) to: u32,
}

impl Minimise {
    pub(super) fn mark(&mut self, e: usize, mark: u8) {
        self.marks[e] = mark;
        self.marked.push(e);
    }

    /// Clears every mark and summary.
    pub(super) fn clear(&mut self) {
        for &e in &self.marked {
            self.marks[e] = UNKNOWN;
        }
        self.marked.clear();
        self.clear_facts();
    }

    fn clear_facts(&mut self) {
        for facts in &self.facts {
            self.facts_of[facts.var as usize] = NO_FACTS;
        }
        self.facts.clear();
        self.bound_entries.clear();
    }

    /// Summarises the entries `by_var` of a clause (sorted by variable, as `(variable, entry)`)
    /// per variable, in place of any summary before.
    pub(super) fn summarise(&mut self, by_var: &[(u32, usize)], log: &[LogEntry], num_vars: usize) {
        self.clear_facts();
        self.facts_of.resize(num_vars, NO_FACTS);
        for &(var, e) in by_var {
            if self.facts_of[var as usize] == NO_FACTS {
                self.facts_of[var as usize] = self.facts.len() as u32;
                let at = self.bound_entries.len() as u32;
                self.facts.push(VarFacts {
                    var,
                    lower: i32::MIN,
                    upper: i32::MAX,
                    fixed: None,
                    from: at,
                    to: at,
                });
            }
            let facts = self.facts.last_mut().expect("a summary");
            let Literal {
                relation, value, ..
            } = log[e].literal;
            if relation != LiteralRelation::Ne {
                self.bound_entries.push(e);
                facts.to += 1;
            }
            if matches!(relation, LiteralRelation::Ge | LiteralRelation::Eq) {
                facts.lower = facts.lower.max(value);
            }
            if matches!(relation, LiteralRelation::Le | LiteralRelation::Eq) {
                facts.upper = facts.upper.min(value);
            }
            if relation == LiteralRelation::Eq {
                facts.fixed = Some(value);
            }
        }
    }
}

/// An entry whose redundancy is being decided, and which of its reasons (in
/// [`Minimise::reasons`] from `start`) is next.
#[derive(Debug, Clone, Copy)]
pub(super) struct Frame {
    pub(super) entry: usize,
    pub(super) start: usize,
    pub(super) next: usize,
}

/// A decision level as one bit of 64 (its number modulo 64): a set of levels as a `u64`, which
/// may say a level is in it when it is not, but never the converse (MiniSat's abstract levels).
pub(super) fn abstract_level(level: usize) -> u64 {
    1 << (level % 64)
}

/// Whether `fact` being true makes `target` true.
pub(super) fn implies(fact: Literal, target: Literal) -> bool {
    if fact.var != target.var {
        return false;
    }
    match fact.relation {
        LiteralRelation::Eq => target.holds_for(fact.value),
        LiteralRelation::Ne => target.relation == LiteralRelation::Ne && target.value == fact.value,
        LiteralRelation::Le => match target.relation {
            LiteralRelation::Le => target.value >= fact.value,
            LiteralRelation::Ne => target.value > fact.value,
            _ => false,
        },
        LiteralRelation::Ge => match target.relation {
            LiteralRelation::Ge => target.value <= fact.value,
            LiteralRelation::Ne => target.value < fact.value,
            _ => false,
        },
    }
}
