//! SEND + MOST = MONEY with MONEY as large as possible: each letter a different digit, no number
//! starting with 0. The best is 9784 + 1092 = 10876, the published answer of this variant of
//! Dudeney's puzzle (the best-solution example of Schulte, Tack & Lagerkvist, *Modeling and
//! Programming with Gecode*).
//!
//! One linear equation, an all-different, and the objective MONEY tied to its digits by a second
//! linear equation; branch and bound maximises it and proves the best.
//!
//! ```sh
//! cargo run --release --example send_most_money
//! ```

use csp::core::constraints::{AllDifferent, Linear, Relation};
use csp::core::{ModelBuilder, ModelError, VarId};
use csp::search::{
    IntSearch, Outcome, SearchConfig, SearchResult, ValueSelection, VariableSelection, solve,
};

/// The letters, in the order their variables are declared.
const LETTERS: [char; 8] = ['S', 'E', 'N', 'D', 'M', 'O', 'T', 'Y'];

/// The value of a word under an assignment of digits to letters.
fn number(word: &str, digit: impl Fn(char) -> i32) -> i32 {
    word.chars().fold(0, |n, c| n * 10 + digit(c))
}

/// The place values of `word`'s letters, added into `coefficients` with `sign`.
fn add_word(coefficients: &mut [i32], word: &str, sign: i32) {
    for (place, c) in word.chars().rev().enumerate() {
        let letter = LETTERS.iter().position(|&l| l == c).expect("a letter");
        coefficients[letter] += sign * 10i32.pow(place as u32);
    }
}

/// Maximises MONEY; returns the result and the letters' variables.
fn solve_puzzle() -> Result<(SearchResult, Vec<VarId>), ModelError> {
    let mut builder = ModelBuilder::new();
    let mut vars: Vec<VarId> = Vec::new();
    for letter in LETTERS {
        let lowest = if letter == 'S' || letter == 'M' { 1 } else { 0 };
        vars.push(builder.int_var(letter.to_string(), lowest..=9)?);
    }
    let mut sum = [0i32; LETTERS.len()];
    add_word(&mut sum, "SEND", 1);
    add_word(&mut sum, "MOST", 1);
    add_word(&mut sum, "MONEY", -1);
    builder.post(Linear::new(
        sum.into_iter().zip(vars.iter().copied()).collect(),
        Relation::Equal,
        0,
    ))?;
    builder.post(AllDifferent::new(vars.clone()))?;
    // money = MONEY, as its own variable for the objective.
    let money = builder.int_var("money", 10_000..=98_765)?;
    let mut value = [0i32; LETTERS.len()];
    add_word(&mut value, "MONEY", 1);
    let mut terms: Vec<(i32, VarId)> = value.into_iter().zip(vars.iter().copied()).collect();
    terms.push((-1, money));
    builder.post(Linear::new(terms, Relation::Equal, 0))?;
    builder.maximize(money)?;
    let model = builder.build();
    let config = SearchConfig::decisions(vec![IntSearch::new(
        vars.clone(),
        VariableSelection::FirstFail,
        ValueSelection::Max,
    )]);
    Ok((solve(&model, &config, ()), vars))
}

fn main() -> Result<(), ModelError> {
    let (result, vars) = solve_puzzle()?;
    let Some(values) = &result.solution else {
        println!("no solution ({:?})", result.outcome);
        return Ok(());
    };
    let digit =
        |c: char| values[vars[LETTERS.iter().position(|&l| l == c).expect("a letter")].index()];
    let (send, most, money) = (
        number("SEND", digit),
        number("MOST", digit),
        number("MONEY", digit),
    );
    assert_eq!(send + most, money, "checked by definition");
    let proven = if result.outcome == Outcome::Optimal {
        "proven the largest"
    } else {
        "not proven the largest"
    };
    println!(
        "{send} + {most} = {money} ({proven}, {} nodes)",
        result.stats.nodes
    );
    Ok(())
}

#[test]
fn money_is_at_most_10876() {
    let (result, vars) = solve_puzzle().unwrap();
    assert_eq!(result.outcome, Outcome::Optimal);
    assert_eq!(result.objective, Some(10876));
    let values = result.solution.unwrap();
    let digit = |c: char| values[vars[LETTERS.iter().position(|&l| l == c).unwrap()].index()];
    let digits: Vec<i32> = LETTERS.iter().map(|&c| digit(c)).collect();
    let mut distinct = digits.clone();
    distinct.sort_unstable();
    distinct.dedup();
    assert_eq!(distinct.len(), LETTERS.len());
    assert_eq!(number("SEND", digit) + number("MOST", digit), 10876);
    assert_eq!(number("MONEY", digit), 10876);
}
