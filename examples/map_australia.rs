//! Colouring the map of Australia (Russell & Norvig's first CSP): seven regions, neighbours in
//! different colours. Three colours suffice; two do not, since Western Australia, the Northern
//! Territory and South Australia all touch each other.
//!
//! ```sh
//! cargo run --example map_australia
//! ```

use csp::problems::coloring::{self, Status};
use csp::problems::dimacs::Graph;

const REGIONS: [&str; 7] = ["WA", "NT", "SA", "Q", "NSW", "V", "T"];

/// The borders, by region name (Tasmania borders none).
const BORDERS: [(&str, &str); 9] = [
    ("WA", "NT"),
    ("WA", "SA"),
    ("NT", "SA"),
    ("NT", "Q"),
    ("SA", "Q"),
    ("SA", "NSW"),
    ("SA", "V"),
    ("Q", "NSW"),
    ("NSW", "V"),
];

fn australia() -> Graph {
    let index = |name: &str| REGIONS.iter().position(|&r| r == name).expect("a region");
    Graph::new(
        REGIONS.len(),
        BORDERS.iter().map(|&(a, b)| (index(a), index(b))),
    )
    .expect("the borders name regions")
}

/// A colouring of the map with `colors` colours, or `None` when it is proven that there is none.
fn color(colors: usize) -> Option<Vec<u32>> {
    let map = australia();
    let attempt =
        coloring::color(&map, colors, &coloring::default_config(), ()).expect("a valid model");
    match attempt.status {
        Status::Colored => {
            let coloring = attempt.coloring.expect("a colouring");
            coloring::check(&map, &coloring, colors).expect("neighbours differ");
            Some(coloring)
        }
        Status::NoColoring | Status::CliqueTooLarge { .. } => None,
        // Only chromatic_number gives attempts a budget, and no limit is set here.
        other => unreachable!("no limit is set, yet {other:?}"),
    }
}

fn main() {
    let names = ["red", "green", "blue"];
    let three = color(3).expect("Australia is 3-colourable");
    for (region, &c) in REGIONS.iter().zip(&three) {
        println!("{region:>3}: {}", names[c as usize]);
    }
    assert!(color(2).is_none());
    println!("two colours: no colouring exists");
}

#[test]
fn australia_takes_three_colours_and_not_two() {
    assert!(color(3).is_some());
    assert!(color(2).is_none());
}
