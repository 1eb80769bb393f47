//! ARCHITECTURE.md's code map cannot drift from the source tree: every `.rs` file of the workspace
//! has exactly one line in it, and every file it names exists.
//!
//! The files are found by walking the workspace from its root, skipping hidden directories and
//! build output (`target/`, or any directory Cargo marks with `CACHEDIR.TAG`), so the test needs
//! no git. The map is the list under the `## Code map` heading; each of its lines is
//! `` - `path` — what it holds ``.

use std::collections::BTreeMap;
use std::path::Path;

/// The heading of the code map's section.
const HEADING: &str = "## Code map";

/// Every `.rs` file under `dir`, as a path relative to `root` with `/` between its parts.
fn source_files(root: &Path, dir: &Path, files: &mut Vec<String>) {
    let entries = std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    for entry in entries {
        let path = entry.expect("a directory entry").path();
        let name = path.file_name().expect("a name").to_string_lossy();
        if path.is_dir() {
            let build_output = name == "target" || path.join("CACHEDIR.TAG").exists();
            if !name.starts_with('.') && !build_output {
                source_files(root, &path, files);
            }
        } else if name.ends_with(".rs") {
            let relative = path.strip_prefix(root).expect("under the root");
            let parts: Vec<String> = relative
                .components()
                .map(|part| part.as_os_str().to_string_lossy().into_owned())
                .collect();
            files.push(parts.join("/"));
        }
    }
}

/// The code map's entries: each path and the line (from 1) that names it. Fails on a line of the
/// section that is not an entry.
fn code_map(text: &str) -> Vec<(String, usize)> {
    let start = text
        .lines()
        .position(|line| line.trim_end() == HEADING)
        .unwrap_or_else(|| panic!("ARCHITECTURE.md has no `{HEADING}` section"));
    let mut entries = Vec::new();
    let mut problems = Vec::new();
    for (index, line) in text.lines().enumerate().skip(start + 1) {
        if line.starts_with("## ") {
            break;
        }
        let Some(item) = line.strip_prefix("- ") else {
            continue;
        };
        let path = item
            .strip_prefix('`')
            .and_then(|rest| rest.split_once('`'))
            .map(|(path, rest)| (path, rest.trim_start()));
        match path {
            Some((path, rest)) if rest.starts_with("— ") && rest.len() > "— ".len() => {
                entries.push((path.to_owned(), index + 1));
            }
            _ => problems.push(format!(
                "ARCHITECTURE.md:{}: a code map line is `` - `path` — what it holds ``: {line}",
                index + 1
            )),
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    entries
}

#[test]
fn every_source_file_has_one_line_in_the_code_map_and_every_line_a_file() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(root.join("ARCHITECTURE.md")).expect("ARCHITECTURE.md");
    let mut mapped: BTreeMap<String, Vec<usize>> = BTreeMap::new();
    for (path, line) in code_map(&text) {
        mapped.entry(path).or_default().push(line);
    }
    let mut files = Vec::new();
    source_files(root, root, &mut files);
    files.sort();
    assert!(
        files.iter().any(|file| file == "src/main.rs"),
        "the walk found no src/main.rs: {files:?}"
    );

    let mut problems = Vec::new();
    for file in &files {
        match mapped.get(file).map(Vec::as_slice) {
            None => problems.push(format!("{file}: no line in ARCHITECTURE.md's code map")),
            Some([_]) => {}
            Some(lines) => problems.push(format!(
                "{file}: {} lines in the code map (lines {lines:?}), not one",
                lines.len()
            )),
        }
    }
    for (path, lines) in &mapped {
        if !root.join(path).is_file() {
            problems.push(format!(
                "ARCHITECTURE.md:{}: the code map names {path}, which does not exist",
                lines[0]
            ));
        } else if !path.ends_with(".rs") {
            problems.push(format!(
                "ARCHITECTURE.md:{}: the code map is of .rs files; {path} is not one",
                lines[0]
            ));
        }
    }
    assert!(problems.is_empty(), "\n{}", problems.join("\n"));
}
