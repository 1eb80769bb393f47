//! The clause engine's literals: each a proposition about one variable (`[x ≤ v]` or `[x = v]`)
//! or its negation, numbered, so that a clause watches a literal by its number and each change of
//! a domain wakes exactly the watches of the literals it made false (Chuffed's and Pumpkin's
//! integer literals, Ohrimenko, Stuckey & Codish 2009).
//!
//! Propositions are made lazily, when a clause first names one: search and propagation work on
//! domains, and only the literals of clauses need numbers. Every form of a literal maps to one
//! canonical proposition, read off the variable's initial domain: `x ≥ v` is `¬[x ≤ v − 1]`,
//! `x ≠ v` is `¬[x = v]`, and `x = v` at an end of the initial domain is a bound (`[x ≤ lb]`,
//! `¬[x ≤ ub − 1]`), so that a 0/1 variable has one proposition, `[x ≤ 0]`, whatever a clause
//! writes. A literal that the initial domain decides is a constant, not a proposition.

use csp_core::{Literal, LiteralRelation, Model, Store, VarId};
use hashbrown::HashMap;

/// A literal: proposition `p` (`2p`) or its negation (`2p + 1`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub(super) struct Lit(u32);

impl Lit {
    /// The literal that holds exactly when this one does not.
    #[inline]
    pub(super) fn negate(self) -> Lit {
        Lit(self.0 ^ 1)
    }

    /// Its number, for tables indexed by literal.
    #[inline]
    pub(super) fn index(self) -> usize {
        self.0 as usize
    }

    /// Its proposition.
    #[inline]
    fn prop(self) -> usize {
        (self.0 >> 1) as usize
    }

    /// Whether it is the proposition itself, not its negation.
    #[inline]
    fn positive(self) -> bool {
        self.0 & 1 == 0
    }
}

/// What a proposition says.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    /// `[x ≤ v]`.
    Le,
    /// `[x = v]`.
    Eq,
}

/// A proposition about one variable.
#[derive(Debug, Clone, Copy)]
struct Prop {
    var: VarId,
    kind: Kind,
    value: i32,
}

/// A literal in canonical form, or the constant it is under the initial domains.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Canonical {
    /// It holds whatever search does.
    True,
    /// It never holds.
    False,
    /// A literal of the clause engine.
    Lit(Lit),
}

/// The propositions made so far, and each variable's, ordered by value so that a bound's move
/// finds the ones it decides by binary search.
#[derive(Debug)]
pub(super) struct Literals {
    props: Vec<Prop>,
    ids: HashMap<(u32, bool, i32), u32>,
    /// Per variable, its `[x ≤ v]` propositions, by value.
    le_of: Vec<Vec<(i32, u32)>>,
    /// Per variable, its `[x = v]` propositions, by value.
    eq_of: Vec<Vec<(i32, u32)>>,
    /// Each variable's initial bounds.
    initial: Vec<(i32, i32)>,
}

impl Literals {
    /// No propositions yet, over `model`'s variables.
    pub(super) fn new(model: &Model) -> Self {
        let n = model.num_vars();
        Literals {
            props: Vec::new(),
            ids: HashMap::new(),
            le_of: vec![Vec::new(); n],
            eq_of: vec![Vec::new(); n],
            initial: model
                .vars()
                .map(|var| {
                    let domain = model.initial_domain(var);
                    (domain.lb(), domain.ub())
                })
                .collect(),
        }
    }

    /// How many literals there are (twice the propositions): the size of a table indexed by
    /// literal.
    pub(super) fn len(&self) -> usize {
        2 * self.props.len()
    }

    /// `literal` in canonical form, its proposition made if it is new.
    pub(super) fn canonical(&mut self, literal: Literal) -> Canonical {
        let var = literal.var;
        let (lo, hi) = self.initial[var.index()];
        let v = literal.value;
        // `[x ≤ b]` as a literal: a constant beyond the initial bounds.
        let le = |this: &mut Self, b: i64, positive: bool| {
            let holds = if b < i64::from(lo) {
                Some(false)
            } else if b >= i64::from(hi) {
                Some(true)
            } else {
                None
            };
            match holds {
                Some(holds) if holds == positive => Canonical::True,
                Some(_) => Canonical::False,
                None => Canonical::Lit(this.lit(var, Kind::Le, b as i32, positive)),
            }
        };
        match literal.relation {
            LiteralRelation::Le => le(self, i64::from(v), true),
            LiteralRelation::Ge => le(self, i64::from(v) - 1, false),
            LiteralRelation::Eq | LiteralRelation::Ne => {
                let positive = literal.relation == LiteralRelation::Eq;
                if v < lo || v > hi {
                    return if positive {
                        Canonical::False
                    } else {
                        Canonical::True
                    };
                }
                if lo == hi {
                    return if positive {
                        Canonical::True
                    } else {
                        Canonical::False
                    };
                }
                if v == lo {
                    le(self, i64::from(v), positive)
                } else if v == hi {
                    le(self, i64::from(v) - 1, !positive)
                } else {
                    Canonical::Lit(self.lit(var, Kind::Eq, v, positive))
                }
            }
        }
    }

    /// The literal of proposition `kind` on `var` at `value`, made if it is new.
    fn lit(&mut self, var: VarId, kind: Kind, value: i32, positive: bool) -> Lit {
        let key = (var.index() as u32, kind == Kind::Eq, value);
        let prop = match self.ids.get(&key) {
            Some(&prop) => prop,
            None => {
                let prop = self.props.len() as u32;
                self.props.push(Prop { var, kind, value });
                self.ids.insert(key, prop);
                let list = match kind {
                    Kind::Le => &mut self.le_of[var.index()],
                    Kind::Eq => &mut self.eq_of[var.index()],
                };
                let at = list.partition_point(|&(v, _)| v < value);
                list.insert(at, (value, prop));
                prop
            }
        };
        Lit(2 * prop + u32::from(!positive))
    }

    /// The literal as a statement about its variable.
    pub(super) fn literal(&self, lit: Lit) -> Literal {
        let Prop { var, kind, value } = self.props[lit.prop()];
        match (kind, lit.positive()) {
            (Kind::Le, true) => Literal::le(var, value),
            // `value` is below the initial upper bound, so `value + 1` fits.
            (Kind::Le, false) => Literal::ge(var, value + 1),
            (Kind::Eq, true) => Literal::eq(var, value),
            (Kind::Eq, false) => Literal::ne(var, value),
        }
    }

    /// The literal's truth under `store`'s domains: `Some(true)` if every value left satisfies it,
    /// `Some(false)` if none does, `None` while it is open.
    #[inline]
    pub(super) fn status(&self, lit: Lit, store: &Store) -> Option<bool> {
        let Prop { var, kind, value } = self.props[lit.prop()];
        let (lo, hi) = (store.lb(var), store.ub(var));
        let holds = match kind {
            Kind::Le if hi <= value => Some(true),
            Kind::Le if lo > value => Some(false),
            Kind::Le => None,
            Kind::Eq if value < lo || value > hi => Some(false),
            Kind::Eq if lo == hi => Some(true),
            Kind::Eq if store.domain(var).contains(value) => None,
            Kind::Eq => Some(false),
        };
        if lit.positive() {
            holds
        } else {
            holds.map(|h| !h)
        }
    }

    /// Calls `made_false` on every literal that a move of `var`'s bounds from `old` to `new`
    /// made false: `[x ≤ v]` for the values the lower bound passed, `¬[x ≤ v]` for those the
    /// upper bound passed, `[x = v]` for the values between the old and the new bounds, and
    /// `¬[x = v]` when the variable became fixed to `v`.
    pub(super) fn on_bounds(
        &self,
        var: VarId,
        old: (i32, i32),
        new: (i32, i32),
        mut made_false: impl FnMut(Lit),
    ) {
        let le = &self.le_of[var.index()];
        let eq = &self.eq_of[var.index()];
        if le.is_empty() && eq.is_empty() {
            return;
        }
        let ((old_lo, old_hi), (lo, hi)) = (old, new);
        if lo > old_lo {
            for &(_, prop) in in_range(le, old_lo, lo - 1) {
                made_false(Lit(2 * prop));
            }
            for &(_, prop) in in_range(eq, old_lo, lo - 1) {
                made_false(Lit(2 * prop));
            }
        }
        if hi < old_hi {
            for &(_, prop) in in_range(le, hi, old_hi - 1) {
                made_false(Lit(2 * prop + 1));
            }
            for &(_, prop) in in_range(eq, hi + 1, old_hi) {
                made_false(Lit(2 * prop));
            }
        }
        if lo == hi
            && (lo, hi) != (old_lo, old_hi)
            && let Some(&(_, prop)) = in_range(eq, lo, lo).first()
        {
            made_false(Lit(2 * prop + 1));
        }
    }

    /// Calls `made_false` on `[x = v]` when `v` was removed from `var`'s domain inside its bounds.
    pub(super) fn on_removal(&self, var: VarId, value: i32, mut made_false: impl FnMut(Lit)) {
        let eq = &self.eq_of[var.index()];
        if let Some(&(_, prop)) = in_range(eq, value, value).first() {
            made_false(Lit(2 * prop));
        }
    }
}

/// The entries of a list sorted by value whose values lie in `from..=to`.
#[inline]
fn in_range(list: &[(i32, u32)], from: i32, to: i32) -> &[(i32, u32)] {
    let start = list.partition_point(|&(v, _)| v < from);
    let end = list.partition_point(|&(v, _)| v <= to);
    &list[start..end.max(start)]
}
