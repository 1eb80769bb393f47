//! Issue 16, item 6: `csp color --min` finishes. The attempts are ordered so that the clique bound is
//! tried early, each within a node budget that grows; a limit keeps the best colouring found; and
//! colouring a sparse graph takes near-linear time.

mod common;

use common::{json, scratch};

#[test]
fn color_min_proves_every_published_chromatic_number_in_data() {
    let answers = std::fs::read_to_string("data/coloring/ANSWERS.tsv").unwrap();
    let mut checked = 0;
    for line in answers
        .lines()
        .filter(|l| !l.starts_with('#') && !l.starts_with("file"))
    {
        let fields: Vec<&str> = line.split('\t').collect();
        let (file, chi) = (fields[0], fields[4].parse::<u64>().unwrap());
        let path = format!("data/coloring/{file}");
        if !std::path::Path::new(&path).exists() {
            continue;
        }
        let report = json(&["color", &path, "--min", "--json", "--no-progress"], 0);
        assert_eq!(report["optimal"], true, "{file}");
        assert_eq!(report["colors"], chi, "{file}");
        checked += 1;
    }
    assert!(checked >= 10, "only {checked} instances found");
}

#[test]
fn color_min_le450_5a_tries_the_clique_bound_before_descending_forever() {
    let report = json(
        &[
            "color",
            "data/coloring/le450_5a.col",
            "--min",
            "--json",
            "--no-progress",
        ],
        0,
    );
    assert_eq!(report["colors"], 5);
    assert_eq!(report["optimal"], true);
    // The clique's five colours are asked for in the very first attempt.
    assert_eq!(report["attempts"][0]["colors"], 5);
}

#[test]
fn color_min_under_a_limit_keeps_the_best_colouring_found() {
    // myciel5 needs a search of about 2·10^5 nodes to prove six colours; 500 nodes prove nothing,
    // but the greedy colouring is a colouring all the same.
    let report = json(
        &[
            "color",
            "data/coloring/myciel5.col",
            "--min",
            "--node-limit",
            "500",
            "--json",
            "--no-progress",
        ],
        3,
    );
    assert_eq!(report["optimal"], false);
    let colors = report["colors"]
        .as_u64()
        .expect("the best colouring's colours");
    assert!(colors >= 6);
    assert_eq!(report["coloring"].as_array().unwrap().len(), 47);
    let nodes = report["stats"]["nodes"].as_u64().unwrap();
    assert!(
        nodes <= 500,
        "the node limit bounds every attempt together: {nodes}"
    );
    // When the greedy colouring meets the clique, no search is needed and no limit matters.
    let report = json(
        &[
            "color",
            "data/coloring/queen5_5.col",
            "--min",
            "--node-limit",
            "1",
            "--json",
        ],
        0,
    );
    assert_eq!(
        (report["colors"].as_u64(), report["optimal"].as_bool()),
        (Some(5), Some(true))
    );
}

#[test]
fn color_of_one_edge_among_many_vertices_needs_no_search() {
    // One edge and 10^5 vertices took 21 s: the search assigned every isolated vertex, choosing
    // each by a scan of all of them. The greedy colouring and the 2-core (empty) settle it now.
    let path = scratch("one-edge.col");
    std::fs::write(&path, "p edge 100000 1\ne 1 2\n").unwrap();
    let path = path.to_str().unwrap();
    for args in [&["--colors", "2"][..], &["--min"]] {
        let mut all = vec!["color", path, "--json", "--no-progress"];
        all.extend_from_slice(args);
        let report = json(&all, 0);
        assert_eq!(report["colors"], 2);
        assert_eq!(report["stats"]["nodes"], 0, "{args:?}");
    }
    // A cycle needs a search for no number of colours it can take: the greedy colouring of an even
    // cycle uses two, and an odd one is refused two at the first node.
    let cycle = scratch("cycle.col");
    let n = 20_001;
    let mut text = format!("p edge {n} {n}\n");
    for v in 1..=n {
        text.push_str(&format!("e {v} {}\n", v % n + 1));
    }
    std::fs::write(&cycle, text).unwrap();
    let report = json(
        &[
            "color",
            cycle.to_str().unwrap(),
            "--colors",
            "2",
            "--json",
            "--no-progress",
        ],
        1,
    );
    assert!(report["stats"]["nodes"].as_u64().unwrap() <= 2);
}
