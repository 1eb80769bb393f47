//! Dudeney's cryptarithm (1924): SEND + MORE = MONEY, each letter a different digit, no number
//! starting with 0. One linear equation and one all-different constraint; the whole tree is searched,
//! so the answer is proven unique.
//!
//! ```sh
//! cargo run --example send_more_money
//! ```

use std::ops::ControlFlow;

use csp::core::constraints::{AllDifferent, Linear, Relation};
use csp::core::{ModelBuilder, ModelError, VarId};
use csp::search::{FnObserver, Outcome, Propagation, SearchConfig, SearchEvent, solve};

/// The letters, in the order their variables are declared.
const LETTERS: [char; 8] = ['S', 'E', 'N', 'D', 'M', 'O', 'R', 'Y'];

/// The value of a word under an assignment of digits to letters.
fn number(word: &str, digit: impl Fn(char) -> i32) -> i32 {
    word.chars().fold(0, |n, c| n * 10 + digit(c))
}

/// Every solution, as the digits of `LETTERS`.
fn solutions() -> Result<Vec<Vec<i32>>, ModelError> {
    let mut builder = ModelBuilder::new();
    let mut vars: Vec<VarId> = Vec::new();
    for letter in LETTERS {
        // S and M lead a number, so they cannot be 0.
        let lowest = if letter == 'S' || letter == 'M' { 1 } else { 0 };
        vars.push(builder.int_var(letter.to_string(), lowest..=9)?);
    }
    // Each word adds its letters' place values, + for SEND and MORE, - for MONEY; a letter in
    // several places gets one term with the sum (a variable may appear once in a constraint).
    let mut coefficients = [0i32; LETTERS.len()];
    for (word, sign) in [("SEND", 1), ("MORE", 1), ("MONEY", -1)] {
        for (place, c) in word.chars().rev().enumerate() {
            let letter = LETTERS.iter().position(|&l| l == c).expect("a letter");
            coefficients[letter] += sign * 10i32.pow(place as u32);
        }
    }
    let terms: Vec<(i32, VarId)> = coefficients.into_iter().zip(vars.iter().copied()).collect();
    builder.post(Linear::new(terms, Relation::Equal, 0))?;
    builder.post(AllDifferent::new(vars.clone()))?;
    let model = builder.build();

    let mut found = Vec::new();
    let config = SearchConfig {
        propagation: Propagation::Mac,
        ..SearchConfig::min().all_solutions()
    };
    let result = solve(
        &model,
        &config,
        FnObserver(|event: &SearchEvent<'_>| {
            if let SearchEvent::Solution { values, .. } = event {
                found.push(values.to_vec());
            }
            ControlFlow::Continue(())
        }),
    );
    assert_eq!(result.outcome, Outcome::Exhausted, "no limit is set");
    Ok(found)
}

fn main() -> Result<(), ModelError> {
    let found = solutions()?;
    for digits in &found {
        let digit = |c: char| digits[LETTERS.iter().position(|&l| l == c).expect("a letter")];
        let (send, more, money) = (
            number("SEND", digit),
            number("MORE", digit),
            number("MONEY", digit),
        );
        assert_eq!(send + more, money, "checked by plain arithmetic");
        println!("{send} + {more} = {money}");
    }
    println!("{} solution(s); the search is complete", found.len());
    Ok(())
}

#[test]
fn send_more_money_has_exactly_dudeneys_solution() {
    let found = solutions().unwrap();
    assert_eq!(found.len(), 1);
    let digit = |c: char| found[0][LETTERS.iter().position(|&l| l == c).unwrap()];
    assert_eq!(number("SEND", digit), 9567);
    assert_eq!(number("MORE", digit), 1085);
    assert_eq!(number("MONEY", digit), 10652);
}
