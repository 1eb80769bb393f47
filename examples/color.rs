//! Graph colouring on the engine: a k-colouring of a DIMACS `.col` graph or a proof that none exists,
//! or with `--min` the chromatic number, proven. dom/wdeg chooses the vertex, arc consistency is
//! maintained, and the colours of a clique are fixed to break the colours' symmetry.
//!
//! ```sh
//! cargo run --release --example color -- data/coloring/myciel4.col --min
//! cargo run --release --example color -- data/coloring/le450_5a.col --colors 5
//! ```
//!
//! The `csp color` command does the same with every search option, statistics and JSON.

use csp::problems::coloring::{self, Status};
use csp::problems::dimacs::{self, Graph};

/// The chromatic number of `graph` and a colouring with that many colours, if it was proven.
fn chromatic_number(graph: &Graph) -> Result<Option<(usize, Vec<u32>)>, String> {
    let result = coloring::chromatic_number(graph, &coloring::default_config(), ())
        .map_err(|e| e.to_string())?;
    if let Some((colors, coloring)) = &result.best {
        coloring::check(graph, coloring, *colors).map_err(|e| e.to_string())?;
    }
    Ok(result.best.filter(|_| result.optimal))
}

fn main() -> Result<(), String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let usage = "usage: color FILE (--colors K | --min)";
    let path = args.first().ok_or(usage)?;
    let text = std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?;
    let graph = dimacs::parse(&text).map_err(|e| format!("{path}: {e}"))?;
    println!(
        "{} vertices, {} edges",
        graph.vertices(),
        graph.edges().len()
    );
    match args.get(1).map(String::as_str) {
        Some("--min") => match chromatic_number(&graph)? {
            Some((colors, coloring)) => {
                println!("chromatic number {colors} (proven): {coloring:?}")
            }
            None => println!("no proof within the search's limits"),
        },
        Some("--colors") => {
            let k: usize = args.get(2).and_then(|k| k.parse().ok()).ok_or(usage)?;
            let attempt = coloring::color(&graph, k, &coloring::default_config(), ())
                .map_err(|e| e.to_string())?;
            match (attempt.status, attempt.coloring) {
                (Status::Colored, Some(coloring)) => {
                    coloring::check(&graph, &coloring, k).map_err(|e| e.to_string())?;
                    println!("{k} colours: {coloring:?}");
                }
                (Status::NoColoring, _) => println!("no {k}-colouring exists (proven by search)"),
                (Status::CliqueTooLarge { clique }, _) => {
                    println!("no {k}-colouring exists: a clique of {clique} vertices")
                }
                (status, _) => println!("{k} colours: {status:?}"),
            }
        }
        _ => return Err(usage.to_owned()),
    }
    Ok(())
}

#[test]
fn the_small_mycielski_graphs_have_their_published_chromatic_numbers() {
    // Trick's DIMACS colouring instances: myciel3 has chromatic number 4, myciel4 has 5; both are
    // triangle-free, so no clique proves it and the search must.
    for (text, chi) in [
        (include_str!("../data/coloring/myciel3.col"), 4),
        (include_str!("../data/coloring/myciel4.col"), 5),
    ] {
        let graph = dimacs::parse(text).unwrap();
        let (colors, coloring) = chromatic_number(&graph).unwrap().expect("proven");
        assert_eq!(colors, chi);
        assert_eq!(coloring::check(&graph, &coloring, colors), Ok(()));
    }
}
