//! Where the answer of a solve that bypasses the engine goes: the placement file, and the report the
//! local searches and the constructions share.

use std::collections::BTreeMap;
use std::fs::File;
use std::io::{BufReader, Write};
use std::path::Path;

use nqueens_model::stream::{Format, StreamError, verify_stream, write_placement};
use serde::{Serialize, Serializer};

use super::args::SolveArgs;
use crate::cli::commands::queens::engine::write_board;
use crate::cli::report::write_json;
use csp::app::AtomicFile;
use csp::app::CliError;

/// Up to this size the text output lists a solution's columns on one line (larger ones are
/// summarised: `--output FILE` writes them).
const MAX_PRINTED_PLACEMENT: usize = 1000;

/// JSON carries the solution up to this size; beyond it `solution` is null (`--output FILE` writes it).
pub const MAX_JSON_PLACEMENT: usize = 100_000;

/// Writes the placement to `path` in `format` (buffered, bounded memory), atomically: a failed
/// write leaves whatever the path held before.
pub fn write_placement_file(
    path: &Path,
    columns: impl IntoIterator<Item = u32>,
    format: Format,
) -> Result<(), CliError> {
    write_uncommitted(path, columns, format)?.commit()
}

/// Writes the placement as [`write_placement_file`] does but leaves the file uncommitted: the path
/// still holds what it held before until [`AtomicFile::commit`], and dropping the file instead removes
/// what was written. A caller can so write while it verifies the placement, and publish the file only
/// once the placement is verified.
pub fn write_uncommitted(
    path: &Path,
    columns: impl IntoIterator<Item = u32>,
    format: Format,
) -> Result<AtomicFile, CliError> {
    let mut file = AtomicFile::create(path)?;
    write_placement(&mut file, columns, format)
        .map_err(|error| CliError::Usage(format!("cannot write {}: {error}", path.display())))?;
    Ok(file)
}

/// `--verify`: reads the written file back and checks it, rows counted: a file that reads back
/// other than the `n` rows written (a device such as `/dev/null`, say) is not verified.
pub fn verify_file(path: &Path, format: Format, n: usize) -> Result<(), CliError> {
    let file = File::open(path)
        .map_err(|error| CliError::Usage(format!("cannot read {}: {error}", path.display())))?;
    let rows = match verify_stream(BufReader::new(file), format) {
        Ok(rows) => rows,
        Err(StreamError::Empty) => 0,
        Err(error) => {
            return Err(CliError::Internal(format!(
                "the written file {} fails: {error}",
                path.display()
            )));
        }
    };
    if rows != n {
        return Err(CliError::Usage(format!(
            "--verify: {} reads back {rows} rows, not the {n} written (is it a device or a file another program changes?)",
            path.display()
        )));
    }
    Ok(())
}

/// The report of a local search or a construction. Its fields are in alphabetical order, the order in
/// which the `--json` object has always listed them.
#[derive(Debug, Serialize)]
pub struct MethodReport<'a> {
    /// Whether `--method auto` chose the method.
    pub chosen_by_auto: bool,
    /// Always `solve`.
    pub command: &'static str,
    /// Seconds from the start of the run to its verified answer.
    pub elapsed_seconds: f64,
    /// The method's name.
    pub method: &'a str,
    /// The board size.
    pub n: usize,
    /// `solved`, or how a local search ended without a solution.
    pub outcome: &'static str,
    /// How a construction built its placement.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub recipe: Option<String>,
    /// The seed a local search was given.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub seed: Option<u64>,
    /// The placement, verified, when there is one that is held in memory.
    #[serde(skip_serializing)]
    pub placement: Option<&'a [u32]>,
    /// The placement as JSON shows it: up to [`MAX_JSON_PLACEMENT`] queens.
    pub solution: Option<&'a [u32]>,
    /// The method's own counts, in the method's order (JSON lists them by name).
    #[serde(serialize_with = "by_name")]
    pub stats: Vec<(&'static str, u64)>,
    /// The threads a local search raced on.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub threads: Option<usize>,
    /// Whether the answer was verified (every solution is, before it is shown).
    pub verified: bool,
    /// The seed of the thread that won a local search's race.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub winning_seed: Option<u64>,
}

impl<'a> MethodReport<'a> {
    /// A report of `method` on an n-queens board; the caller fills in what its kind of method has.
    pub fn new(
        n: usize,
        method: &'a str,
        chosen_by_auto: bool,
        placement: Option<&'a [u32]>,
    ) -> Self {
        MethodReport {
            chosen_by_auto,
            command: "solve",
            elapsed_seconds: 0.0,
            method,
            n,
            outcome: "solved",
            recipe: None,
            seed: None,
            placement,
            solution: placement.filter(|p| p.len() <= MAX_JSON_PLACEMENT),
            stats: Vec::new(),
            threads: None,
            verified: placement.is_some(),
            winning_seed: None,
        }
    }

    /// Writes the report: one JSON object, or the board (when it is small enough) or `unsolved`, then
    /// the method with `detail`, the counts, the verdict (with `written`, what became of the file)
    /// and the elapsed time.
    pub fn write(
        &self,
        out: &mut impl Write,
        args: &SolveArgs,
        unsolved: Option<String>,
        detail: &str,
        written: String,
    ) -> std::io::Result<()> {
        if args.request.search.options.json {
            return write_json(out, self);
        }
        match (self.placement, unsolved) {
            (Some(placement), _) => write_board(out, placement, MAX_PRINTED_PLACEMENT)?,
            (None, Some(unsolved)) => writeln!(out, "{unsolved}")?,
            (None, None) => {}
        }
        let chosen = if self.chosen_by_auto {
            " (chosen by auto)"
        } else {
            ""
        };
        writeln!(out, "{}-queens: {}{chosen}{detail}", self.n, self.method)?;
        if !self.stats.is_empty() {
            let counts: Vec<String> = self
                .stats
                .iter()
                .map(|(name, value)| format!("{} {value}", name.replace('_', " ")))
                .collect();
            writeln!(out, "{}", counts.join(", "))?;
        }
        if self.verified {
            writeln!(out, "verified: no two queens attack each other{written}")?;
        }
        writeln!(out, "elapsed {:.3} ms", self.elapsed_seconds * 1e3)
    }
}

/// Counts as a JSON object, keys in alphabetical order.
fn by_name<S: Serializer>(stats: &[(&'static str, u64)], serializer: S) -> Result<S::Ok, S::Error> {
    serializer.collect_map(stats.iter().copied().collect::<BTreeMap<_, _>>())
}
