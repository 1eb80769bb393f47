//! Regular languages against brute force: `Regular` is domain consistent on random automata (sound
//! with a variable repeated), and `CostRegular` is sound, checker-complete, and keeps its cost
//! between the cheapest and the dearest accepted word. See `support/mod.rs` for the rest.

mod support;

use csp_core::constraints::{Automaton, CostRegular, Regular};
use proptest::prelude::*;
use support::{Case, Level, check, config, domain_strategy, for_each_tuple, var, walk_strategy};

const REGRESSIONS: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/proptest-regressions/regular.txt"
);

/// A random automaton: states, symbols, the transition table, the start and the accepting states.
#[derive(Debug, Clone)]
struct Dfa {
    states: usize,
    symbols: usize,
    next: Vec<i32>,
    start: i32,
    accepting: Vec<i32>,
}

impl Dfa {
    fn automaton(&self) -> Automaton {
        Automaton::new(
            self.states,
            self.symbols,
            self.next.clone(),
            self.start,
            self.accepting.iter().copied(),
        )
        .unwrap()
    }

    /// The state reached after `word`, from the definition; `None` if it fails on the way.
    fn run(&self, word: &[i32]) -> Option<(i32, Vec<(i32, i32)>)> {
        let mut state = self.start;
        let mut steps = Vec::new();
        for &v in word {
            if !(1..=self.symbols as i32).contains(&v) {
                return None;
            }
            let next = self.next[(state as usize - 1) * self.symbols + v as usize - 1];
            if next == 0 {
                return None;
            }
            steps.push((state, v));
            state = next;
        }
        Some((state, steps))
    }

    fn accepts(&self, word: &[i32]) -> bool {
        self.run(word)
            .is_some_and(|(state, _)| self.accepting.contains(&state))
    }
}

fn dfa_strategy() -> impl Strategy<Value = Dfa> {
    (1usize..=5, 1usize..=3).prop_flat_map(|(states, symbols)| {
        (
            prop::collection::vec(0..=states as i32, states * symbols),
            1..=states as i32,
            prop::collection::btree_set(1..=states as i32, 0..=states),
        )
            .prop_map(move |(next, start, accepting)| Dfa {
                states,
                symbols,
                next,
                start,
                accepting: accepting.into_iter().collect(),
            })
    })
}

proptest! {
    #![proptest_config(config(REGRESSIONS, 2048))]

    /// Pesant's algorithm is domain consistent on distinct variables, whose domains may hold values
    /// the automaton cannot read; with one variable read twice it is sound.
    #[test]
    fn regular_is_domain_consistent(
        dfa in dfa_strategy(),
        domains in prop::collection::vec(domain_strategy(0, 4, 4), 1..=6),
        alias in prop::option::of((0usize..6, 0usize..6)),
        walk in walk_strategy(),
    ) {
        let n = domains.len();
        let mut word: Vec<usize> = (0..n).collect();
        if let Some((a, b)) = alias {
            word[a % n] = b % n;
        }
        let aliased = word.iter().enumerate().any(|(i, &w)| i != w);
        let oracle = |t: &[i32]| dfa.accepts(&word.iter().map(|&i| t[i]).collect::<Vec<_>>());
        check(
            &Case {
                domains,
                build: &|| Box::new(Regular::new(word.iter().map(|&i| var(i)).collect(), dfa.automaton())),
                oracle: &oracle,
                level: if aliased { Level::Sound } else { Level::Domain },
                property: None,
            },
            &walk,
        )?;
    }

    /// Cost-regular is sound and checker-complete, and its cost lies between the cheapest and the
    /// dearest accepted word of the current domains.
    #[test]
    fn cost_regular_bounds_the_cost_by_paths(
        dfa in dfa_strategy(),
        costs in prop::collection::vec(-2i64..=3, 15),
        domains in prop::collection::vec(domain_strategy(0, 4, 3), 1..=4),
        cost_domain in domain_strategy(-4, 9, 6),
        walk in walk_strategy(),
    ) {
        let n = domains.len();
        let costs: Vec<i64> = costs[..dfa.states * dfa.symbols].to_vec();
        let cost_of = |word: &[i32]| -> Option<i64> {
            let (state, steps) = dfa.run(word)?;
            dfa.accepting.contains(&state).then(|| {
                steps.iter().map(|&(q, v)| costs[(q as usize - 1) * dfa.symbols + v as usize - 1]).sum()
            })
        };
        let oracle = |t: &[i32]| cost_of(&t[..n]) == Some(i64::from(t[n]));
        let property = |d: &[Vec<i32>]| -> Result<(), String> {
            let (mut cheapest, mut dearest) = (i64::MAX, i64::MIN);
            for_each_tuple(&d[..n], |word| {
                if let Some(c) = cost_of(word) {
                    cheapest = cheapest.min(c);
                    dearest = dearest.max(c);
                }
                true
            });
            let (lo, hi) = (i64::from(d[n][0]), i64::from(d[n][d[n].len() - 1]));
            if lo < cheapest || hi > dearest {
                return Err(format!("the cost {lo}..={hi} is outside the paths' {cheapest}..={dearest}"));
            }
            Ok(())
        };
        let mut all = domains;
        all.push(cost_domain);
        check(
            &Case {
                domains: all,
                build: &|| Box::new(CostRegular::new((0..n).map(var).collect(), dfa.automaton(), costs.clone(), var(n)).unwrap()),
                oracle: &oracle,
                level: Level::Sound,
                property: Some(&property),
            },
            &walk,
        )?;
    }
}

#[test]
fn automata_refuse_states_outside_their_range() {
    assert!(Automaton::new(2, 1, vec![1, 3], 1, [2]).is_err());
    assert!(Automaton::new(2, 1, vec![1, 2], 0, [2]).is_err());
    assert!(Automaton::new(2, 1, vec![1, 2], 1, [3]).is_err());
    assert!(Automaton::new(2, 1, vec![1], 1, [2]).is_err());
    assert!(Automaton::new(2, 1, vec![2, 0], 1, [2]).is_ok());
}

/// Words over {1, 2} without two 2s in a row: with `x₂ = 2`, the 2s of `x₁` and `x₃` lose their
/// paths, and each removal is explained by the one removed value that cut them (`x₂ ≠ 1`), not
/// by the domains of the whole sequence.
#[test]
fn regular_explains_a_removal_by_the_values_that_cut_its_paths() {
    use csp_core::{Cause, ExplainCtx, Literal};
    // State 1: the last symbol was not 2; state 2: it was.
    let automaton = Automaton::new(2, 2, vec![1, 2, 1, 0], 1, [1, 2]).unwrap();
    let n = 6;
    let model = support::model(
        &vec![vec![1, 2]; n],
        Box::new(Regular::new((0..n).map(var).collect(), automaton)),
    );
    let mut store = csp_core::Store::new(&model);
    store.enable_change_log();
    store.establish_arc_consistency(&model).unwrap();
    store.set_bounds(var(2), 2, 2).unwrap();
    store.propagate(&model).unwrap();
    let mut explained = 0;
    for (e, entry) in store.change_log().iter().enumerate() {
        let Cause::Constraint(c) = entry.cause else {
            continue;
        };
        let mut reasons = Vec::new();
        assert!(model.constraint(c).explain(
            entry.literal,
            &ExplainCtx::new(&store, e),
            &mut reasons
        ));
        assert_eq!(reasons, vec![Literal::ne(var(2), 1)], "{:?}", entry.literal);
        explained += 1;
    }
    assert_eq!(explained, 2);
}
