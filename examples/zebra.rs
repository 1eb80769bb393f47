//! The zebra puzzle (Life International, 17 December 1962): five houses in a row, each of a different
//! colour, its owner of a different nationality, drinking, smoking and keeping something different.
//! Who drinks water, and who owns the zebra?
//!
//! Each colour, nationality, drink, smoke and pet is a variable: the house it belongs to (1 to 5). An
//! all-different constraint per group; "is" clues are linear equations, "next to" clues a predicate.
//!
//! ```sh
//! cargo run --example zebra
//! ```

use std::ops::ControlFlow;

use csp::core::constraints::{AllDifferent, Linear, Predicate, Relation};
use csp::core::{ModelBuilder, ModelError, VarId};
use csp::search::{FnObserver, Outcome, Propagation, SearchConfig, SearchEvent, solve};

const GROUPS: [[&str; 5]; 5] = [
    ["red", "green", "ivory", "yellow", "blue"],
    [
        "Englishman",
        "Spaniard",
        "Ukrainian",
        "Norwegian",
        "Japanese",
    ],
    ["coffee", "tea", "milk", "orange juice", "water"],
    [
        "Old Gold",
        "Kools",
        "Chesterfields",
        "Lucky Strike",
        "Parliaments",
    ],
    ["dog", "snails", "fox", "horse", "zebra"],
];

/// Every solution: the house of each item, by name.
fn solutions() -> Result<Vec<Vec<(&'static str, i32)>>, ModelError> {
    let mut builder = ModelBuilder::new();
    let mut items: Vec<(&'static str, VarId)> = Vec::new();
    for group in GROUPS {
        let vars: Vec<VarId> = group
            .iter()
            .map(|&name| builder.int_var(name, 1..=5))
            .collect::<Result<_, _>>()?;
        builder.post(AllDifferent::new(vars.clone()))?;
        items.extend(group.iter().copied().zip(vars));
    }
    let item = |name: &str| items.iter().find(|(n, _)| *n == name).expect("an item").1;
    // "a is b": same house. "a is right of b": a = b + 1. "a next to b": |a - b| = 1.
    let mut same = |a: &str, b: &str| {
        let (a, b) = (item(a), item(b));
        builder.post(Linear::new(vec![(1, a), (-1, b)], Relation::Equal, 0))
    };
    same("Englishman", "red")?;
    same("Spaniard", "dog")?;
    same("coffee", "green")?;
    same("Ukrainian", "tea")?;
    same("Old Gold", "snails")?;
    same("Kools", "yellow")?;
    same("Lucky Strike", "orange juice")?;
    same("Japanese", "Parliaments")?;
    builder.post(Linear::new(
        vec![(1, item("green")), (-1, item("ivory"))],
        Relation::Equal,
        1,
    ))?;
    builder.post(Linear::new(vec![(1, item("milk"))], Relation::Equal, 3))?;
    builder.post(Linear::new(
        vec![(1, item("Norwegian"))],
        Relation::Equal,
        1,
    ))?;
    for (a, b) in [
        ("Chesterfields", "fox"),
        ("Kools", "horse"),
        ("Norwegian", "blue"),
    ] {
        builder.post(Predicate::new("next to", item(a), item(b), |x, y| {
            (x - y).abs() == 1
        }))?;
    }
    let model = builder.build();
    let config = SearchConfig {
        propagation: Propagation::Mac,
        ..SearchConfig::min().all_solutions()
    };
    let mut found = Vec::new();
    let result = solve(
        &model,
        &config,
        FnObserver(|event: &SearchEvent<'_>| {
            if let SearchEvent::Solution { values, .. } = event {
                found.push(
                    items
                        .iter()
                        .map(|&(name, var)| (name, values[var.index()]))
                        .collect(),
                );
            }
            ControlFlow::Continue(())
        }),
    );
    assert_eq!(result.outcome, Outcome::Exhausted, "no limit is set");
    Ok(found)
}

/// Who (which nationality) lives in the house of `item`.
fn owner(solution: &[(&'static str, i32)], item: &str) -> &'static str {
    let house = solution
        .iter()
        .find(|(n, _)| *n == item)
        .expect("an item")
        .1;
    GROUPS[1]
        .into_iter()
        .find(|&nation| solution.iter().any(|&(n, h)| n == nation && h == house))
        .expect("every house has an owner")
}

fn main() -> Result<(), ModelError> {
    let found = solutions()?;
    for solution in &found {
        for house in 1..=5 {
            let here: Vec<&str> = solution
                .iter()
                .filter(|&&(_, h)| h == house)
                .map(|&(n, _)| n)
                .collect();
            println!("house {house}: {}", here.join(", "));
        }
        println!(
            "the {} drinks water; the {} owns the zebra",
            owner(solution, "water"),
            owner(solution, "zebra")
        );
    }
    println!("{} solution(s); the search is complete", found.len());
    Ok(())
}

#[test]
fn the_norwegian_drinks_water_and_the_japanese_owns_the_zebra() {
    let found = solutions().unwrap();
    assert_eq!(found.len(), 1, "the puzzle has one solution");
    assert_eq!(owner(&found[0], "water"), "Norwegian");
    assert_eq!(owner(&found[0], "zebra"), "Japanese");
}
