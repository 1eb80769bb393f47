//! `csp queens compare`: Stone & Stone's Table 2 (backtracks per solution, LEX vs MIN) and Table 1
//! (estimated vs actual tree sizes) over a range of boards, as a table, CSV or JSON, and their
//! figures as SVG.

use std::io::Write;
use std::path::{Path, PathBuf};

use clap::{Args, ValueEnum};
use csp_search::{Propagation, VariableOrderKind};
use nqueens_model::experiment::{self, Experiment, stone_tables, terse_profile};
use serde::Serialize;

use crate::cli::plot::{Figure, Series, line_chart};
use crate::cli::report::{name, write_json};
use csp::app::{CliError, Exit};

/// `csp queens compare`.
#[derive(Debug, Args)]
pub struct CompareArgs {
    /// The boards: N, A..B (inclusive), A-B, or a list such as 7,9,11.
    pub range: String,
    /// The orderings to compare. LEX runs check-past and MIN forward checking, as in the paper, unless
    /// --propagation says otherwise.
    #[arg(long, value_enum, value_delimiter = ',', default_values_t = [VariableOrderKind::Lexicographic, VariableOrderKind::FewestChoices])]
    pub orders: Vec<VariableOrderKind>,
    /// One propagation level for every ordering.
    #[arg(long, value_enum)]
    pub propagation: Option<Propagation>,
    /// The numbers of solutions after which each terse search stops.
    #[arg(long, value_delimiter = ',', default_values_t = [1, 10], value_parser = clap::value_parser!(u64).range(1..))]
    pub solutions: Vec<u64>,
    /// Break MIN's ties at random (the paper's tie-breaking is unspecified), averaging over --seeds.
    #[arg(long)]
    pub ties_random: bool,
    /// With --ties-random, average over seeds 0..K.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..1000))]
    pub seeds: u64,
    /// The node budget of each search; a cell over it says so.
    #[arg(long, value_name = "NODES", default_value_t = 10_000_000, value_parser = clap::value_parser!(u64).range(1..))]
    pub budget: u64,
    /// Output format.
    #[arg(long, value_enum, default_value_t = CompareFormat::Table)]
    pub format: CompareFormat,
    /// Also write SVG figures to this directory: backtracks per solution vs N (Figs 5, 7, 8),
    /// branching factor and backtracks by depth for the largest N (Figs 1, 3), and the estimated full
    /// tree vs N (Fig 10).
    #[arg(long, value_name = "DIR")]
    pub plot: Option<PathBuf>,
}

/// `--format` of `compare`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum CompareFormat {
    /// Aligned text tables.
    Table,
    /// One CSV row per cell.
    Csv,
    /// One JSON array of cells.
    Json,
}

/// One measured cell as the reports show it: [`nqueens_model::experiment::Cell`] with the ordering
/// and propagation by name.
#[derive(Debug, Clone, Serialize)]
struct Cell {
    n: usize,
    order: String,
    propagation: String,
    /// The solutions asked for; `None` for the full search.
    solutions: Option<u64>,
    /// Whether the search finished within the node budget (for every seed).
    within_budget: bool,
    /// Whether the search finished without any solution (n = 2 and 3).
    no_solution: bool,
    /// Backtracks per solution found, averaged over the seeds (Stone & Stone's Table 2 measure).
    backtracks_per_solution: Option<f64>,
    /// Stone & Stone's online estimate of the full tree when the search stopped.
    estimated_tree_size: Option<f64>,
    /// The full tree's actual size, root included (full searches within budget only).
    actual_tree_size: Option<u64>,
}

impl From<experiment::Cell> for Cell {
    fn from(cell: experiment::Cell) -> Self {
        Cell {
            n: cell.n,
            order: name(cell.order),
            propagation: name(cell.propagation),
            solutions: cell.solutions,
            within_budget: cell.within_budget,
            no_solution: cell.no_solution,
            backtracks_per_solution: cell.backtracks_per_solution,
            estimated_tree_size: cell.estimated_tree_size,
            actual_tree_size: cell.actual_tree_size,
        }
    }
}

impl CompareArgs {
    /// The experiment the arguments ask for.
    fn experiment(&self, sizes: Vec<usize>) -> Experiment {
        Experiment {
            sizes,
            orders: self.orders.clone(),
            propagation: self.propagation,
            solutions: self.solutions.clone(),
            ties_random: self.ties_random,
            seeds: self.seeds,
            budget: self.budget,
            stop: None,
        }
    }
}

/// Runs the comparison and writes it.
pub fn run(args: CompareArgs, out: &mut impl Write) -> Result<Exit, CliError> {
    let sizes = parse_range(&args.range).map_err(CliError::Usage)?;
    if let Some(dir) = &args.plot {
        check_plot_dir(dir)?;
    }
    let experiment = args.experiment(sizes.clone());
    let cells: Vec<Cell> = stone_tables(&experiment)
        .map_err(CliError::usage)?
        .into_iter()
        .map(Cell::from)
        .collect();
    if let Some(dir) = &args.plot {
        let n = *sizes.iter().max().expect("a range has a board");
        let written = write_figures(dir, &figures(&args, &experiment, &cells, n)?)?;
        // The figures are files; stdout stays the table, CSV or JSON asked for. A closed stderr
        // loses only this note, so its error is not reported.
        let _ = writeln!(
            std::io::stderr(),
            "csp: wrote {} figures to {}",
            written,
            dir.display()
        );
    }
    match args.format {
        CompareFormat::Json => write_json(out, &cells)?,
        CompareFormat::Csv => write_csv(out, &cells)?,
        CompareFormat::Table => write_tables(out, &args, &sizes, &cells)?,
    }
    Ok(Exit::Answered)
}

/// The four figures: backtracks per solution and the estimated tree against N from the cells
/// (Figs 5, 7, 8 and 10), and the branching factor and backtracks by depth of one terse search per
/// ordering on the largest board `n` (Figs 1 and 3).
fn figures(
    args: &CompareArgs,
    experiment: &Experiment,
    cells: &[Cell],
    n: usize,
) -> Result<Vec<Figure>, CliError> {
    let series = |label: String, points: Vec<(f64, f64)>| Series { label, points };
    let of_order = |order: &str, solutions: Option<u64>| {
        let order = order.to_owned();
        cells
            .iter()
            .filter(move |c| c.order == order && c.solutions == solutions)
    };
    let (mut by_n, mut estimates, mut branching, mut per_level) = (vec![], vec![], vec![], vec![]);
    for &order in &args.orders {
        let key = name(order);
        let label = key.to_uppercase();
        for &k in &args.solutions {
            by_n.push(series(
                format!("{label}, {k} solution(s)"),
                of_order(&key, Some(k))
                    .filter_map(|c| Some((c.n as f64, c.backtracks_per_solution?)))
                    .collect(),
            ));
        }
        // Fig 10: the estimate after the most solutions asked for (10 by default).
        let k = args.solutions.iter().copied().max().unwrap_or(1);
        estimates.push(series(
            format!("{label}: estimate after {k} solution(s)"),
            of_order(&key, Some(k))
                .filter_map(|c| Some((c.n as f64, c.estimated_tree_size?)))
                .collect(),
        ));
        estimates.push(series(
            format!("{label}: actual (full search within budget)"),
            of_order(&key, None)
                .filter_map(|c| Some((c.n as f64, c.actual_tree_size? as f64)))
                .collect(),
        ));
        let stats = terse_profile(experiment, n, order).map_err(CliError::usage)?;
        let depth = |i: usize| i as f64; // level i + 1 is depth i (queens placed)
        let levels = stats.per_level.iter().enumerate();
        branching.push(series(
            label.clone(),
            levels
                .clone()
                .filter(|(_, l)| l.expanded > 0)
                .map(|(i, l)| (depth(i), l.avg_choices()))
                .collect(),
        ));
        per_level.push(series(
            label,
            levels
                .map(|(i, l)| (depth(i), l.backtracks as f64))
                .collect(),
        ));
    }
    let (queens, depth) = ("N (queens)", "depth (queens placed)");
    let figure = |file, title: String, x_label, y_label, log_y, series| Figure {
        file,
        title,
        x_label,
        y_label,
        log_y,
        series,
    };
    Ok(vec![
        figure(
            "backtracks.svg",
            "Backtracks per solution vs N (cf. Stone & Stone Figs 5, 7, 8)".to_owned(),
            queens,
            "backtracks per solution (log scale)",
            true,
            by_n,
        ),
        figure(
            "estimated_tree.svg",
            "Estimated full tree size vs N (cf. Fig 10; Table 1)".to_owned(),
            queens,
            "nodes (log scale)",
            true,
            estimates,
        ),
        figure(
            "branching.svg",
            format!("Average branching factor by depth, {n} queens, terse search (cf. Fig 1)"),
            depth,
            "average choices per node",
            false,
            branching,
        ),
        figure(
            "backtracks_per_level.svg",
            format!("Backtracks at each depth, {n} queens, terse search (cf. Fig 3)"),
            depth,
            "backtracks (log scale)",
            true,
            per_level,
        ),
    ])
}

/// Writes the figures into `dir`; returns how many.
/// Refuses a `--plot` path that exists and is not a directory, before any search starts.
fn check_plot_dir(dir: &Path) -> Result<(), CliError> {
    if dir.exists() && !dir.is_dir() {
        return Err(CliError::Usage(format!(
            "--plot {0}: {0} exists and is not a directory (--plot names the directory the figures are written to)",
            dir.display()
        )));
    }
    Ok(())
}

fn write_figures(dir: &Path, figures: &[Figure]) -> Result<usize, CliError> {
    std::fs::create_dir_all(dir)
        .map_err(|e| CliError::Usage(format!("cannot create {}: {e}", dir.display())))?;
    for figure in figures {
        line_chart(&dir.join(figure.file), figure).map_err(CliError::Usage)?;
    }
    Ok(figures.len())
}

fn write_csv(out: &mut impl Write, cells: &[Cell]) -> std::io::Result<()> {
    writeln!(
        out,
        "n,order,propagation,solutions,within_budget,backtracks_per_solution,estimated_tree_size,actual_tree_size"
    )?;
    let opt = |x: Option<f64>| x.map_or(String::new(), |x| format!("{x}"));
    for c in cells {
        writeln!(
            out,
            "{},{},{},{},{},{},{},{}",
            c.n,
            c.order,
            c.propagation,
            c.solutions.map_or("all".to_owned(), |k| k.to_string()),
            c.within_budget,
            opt(c.backtracks_per_solution),
            opt(c.estimated_tree_size),
            c.actual_tree_size.map_or(String::new(), |x| x.to_string())
        )?;
    }
    Ok(())
}

fn write_tables(
    out: &mut impl Write,
    args: &CompareArgs,
    sizes: &[usize],
    cells: &[Cell],
) -> std::io::Result<()> {
    let find = |n: usize, order: &str, solutions: Option<u64>| {
        cells
            .iter()
            .find(|c| c.n == n && c.order == order && c.solutions == solutions)
    };
    let orders: Vec<String> = args.orders.iter().map(|&o| name(o)).collect();
    writeln!(
        out,
        "Table 2: backtracks per solution (node budget {} per search)",
        args.budget
    )?;
    write!(out, "{:>4}", "N")?;
    for order in &orders {
        for k in &args.solutions {
            write!(out, " {:>14}", format!("{} {k}", order.to_uppercase()))?;
        }
    }
    writeln!(out)?;
    for &n in sizes {
        write!(out, "{n:>4}")?;
        for order in &orders {
            for &k in &args.solutions {
                let text = match find(n, order, Some(k)) {
                    Some(Cell {
                        backtracks_per_solution: Some(b),
                        ..
                    }) => format!("{b:.1}"),
                    Some(Cell {
                        no_solution: true, ..
                    }) => "no solution".to_owned(),
                    _ => "over budget".to_owned(),
                };
                write!(out, " {text:>14}")?;
            }
        }
        writeln!(out)?;
    }
    writeln!(out)?;
    writeln!(
        out,
        "Table 1: estimated full tree after K solutions vs actual (root included)"
    )?;
    write!(out, "{:>4}", "N")?;
    for order in &orders {
        for k in &args.solutions {
            write!(out, " {:>14}", format!("est {k} {}", order.to_uppercase()))?;
        }
        write!(out, " {:>14}", format!("actual {}", order.to_uppercase()))?;
    }
    writeln!(out)?;
    for &n in sizes {
        write!(out, "{n:>4}")?;
        for order in &orders {
            for &k in &args.solutions {
                let text = find(n, order, Some(k))
                    .and_then(|c| c.estimated_tree_size)
                    .map_or("-".to_owned(), |e| format!("{e:.3e}"));
                write!(out, " {text:>14}")?;
            }
            let actual = find(n, order, None)
                .and_then(|c| c.actual_tree_size)
                .map_or("over budget".to_owned(), |a| a.to_string());
            write!(out, " {actual:>14}")?;
        }
        writeln!(out)?;
    }
    Ok(())
}

/// `7..13` (inclusive), `7-13`, `8`, or `7,9,11`.
fn parse_range(text: &str) -> Result<Vec<usize>, String> {
    let bad = || format!("invalid range '{text}': expected N, A..B, A-B or a list like 7,9,11");
    let number = |s: &str| -> Result<usize, String> {
        let n: usize = s.trim().parse().map_err(|_| bad())?;
        if n == 0 {
            return Err("board sizes start at 1".to_owned());
        }
        Ok(n)
    };
    let sizes: Vec<usize> =
        if let Some((a, b)) = text.split_once("..").or_else(|| text.split_once('-')) {
            let (a, b) = (number(a)?, number(b.trim_start_matches('=').trim())?);
            if a > b {
                return Err(bad());
            }
            (a..=b).collect()
        } else {
            text.split(',').map(number).collect::<Result<_, _>>()?
        };
    if sizes.len() > 10_000 {
        return Err("at most 10,000 boards per comparison".to_owned());
    }
    Ok(sizes)
}

#[cfg(test)]
mod tests {
    use super::parse_range;

    #[test]
    fn ranges_lists_and_single_sizes_parse() {
        assert_eq!(parse_range("7..9").unwrap(), vec![7, 8, 9]);
        assert_eq!(parse_range("7..=9").unwrap(), vec![7, 8, 9]);
        assert_eq!(parse_range("7-9").unwrap(), vec![7, 8, 9]);
        assert_eq!(parse_range("8").unwrap(), vec![8]);
        assert_eq!(parse_range("7,9,11").unwrap(), vec![7, 9, 11]);
        assert!(parse_range("9..7").is_err());
        assert!(parse_range("0..3").is_err());
        assert!(parse_range("x").is_err());
    }
}
