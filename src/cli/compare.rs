//! `csp queens compare`: Stone & Stone's Table 2 (backtracks per solution, LEX vs MIN) and Table 1
//! (estimated vs actual tree sizes) over a range of boards, as a table, CSV or JSON.

use std::io::Write;

use csp_search::{
    Limits, Outcome, Propagation, SearchConfig, Statistics, TiePolicy, TreeSizeEstimator,
    VariableOrderKind, solve,
};
use nqueens_model::{Encoding, model};
use serde::Serialize;

use super::args::{CompareArgs, CompareFormat, OrderArg, PropagationArg};
use super::{CliError, Exit};

/// One measured cell: a configuration on one board stopped at `solutions` solutions (`None`: the
/// full tree).
#[derive(Debug, Clone, Serialize)]
struct Cell {
    n: usize,
    order: &'static str,
    propagation: &'static str,
    /// The solutions asked for; `None` for the full search.
    solutions: Option<u64>,
    /// Whether the search finished within the node budget (for every seed).
    within_budget: bool,
    /// Backtracks per solution found, averaged over the seeds (Stone & Stone's Table 2 measure).
    backtracks_per_solution: Option<f64>,
    /// Stone & Stone's online estimate of the full tree when the search stopped, averaged over seeds.
    estimated_tree_size: Option<f64>,
    /// The full tree's actual size, root included (full searches within budget only).
    actual_tree_size: Option<u64>,
}

/// Runs the comparison and writes it.
pub fn run(args: CompareArgs, out: &mut impl Write) -> Result<Exit, CliError> {
    let sizes = parse_range(&args.range).map_err(CliError::Usage)?;
    for &n in &sizes {
        // Refuse an impossible board before any search starts.
        model(n, Encoding::Counters).map_err(|e| CliError::Usage(e.to_string()))?;
    }
    let mut cells = Vec::new();
    for &n in &sizes {
        let model = model(n, Encoding::Counters).map_err(|e| CliError::Usage(e.to_string()))?;
        for &order in &args.orders {
            for &solutions in &args.solutions {
                cells.push(measure(&model, n, order, &args, Some(solutions)));
            }
            cells.push(measure(&model, n, order, &args, None));
        }
    }
    match args.format {
        CompareFormat::Json => {
            serde_json::to_writer(&mut *out, &cells).map_err(std::io::Error::from)?;
            writeln!(out)?;
        }
        CompareFormat::Csv => write_csv(out, &cells)?,
        CompareFormat::Table => write_tables(out, &args, &sizes, &cells)?,
    }
    Ok(Exit::Answered)
}

fn measure(
    model: &csp_core::Model,
    n: usize,
    order: OrderArg,
    args: &CompareArgs,
    solutions: Option<u64>,
) -> Cell {
    let propagation = match (args.propagation, order) {
        (Some(PropagationArg::CheckPast), _) | (None, OrderArg::Lex) => Propagation::CheckPast,
        _ => Propagation::ForwardChecking,
    };
    let seeds = if args.ties_random {
        args.seeds.max(1)
    } else {
        1
    };
    let (mut within_budget, mut backtracks, mut estimates) = (true, 0.0, 0.0);
    let mut actual = None;
    for seed in 0..seeds {
        let config = SearchConfig {
            variable_order: match order {
                OrderArg::Lex => VariableOrderKind::Lexicographic,
                OrderArg::Min => VariableOrderKind::FewestChoices,
            },
            ties: if args.ties_random {
                TiePolicy::Random
            } else {
                TiePolicy::LowestIndex
            },
            propagation,
            solution_limit: solutions,
            limits: Limits {
                nodes: Some(args.budget),
                ..Limits::default()
            },
            seed,
            ..SearchConfig::default()
        };
        let mut observers = (TreeSizeEstimator::new(), Statistics::default());
        let result = solve(model, &config, &mut observers);
        let (estimator, stats) = observers;
        let finished = matches!(result.outcome, Outcome::Solved | Outcome::Exhausted);
        within_budget &= finished;
        backtracks += stats.backtracks as f64 / stats.solutions.max(1) as f64;
        estimates += estimator.estimated_tree_size();
        if solutions.is_none() && finished {
            actual = Some(stats.tree_nodes());
        }
    }
    let seeds = seeds as f64;
    Cell {
        n,
        order: match order {
            OrderArg::Lex => "lex",
            OrderArg::Min => "min",
        },
        propagation: match propagation {
            Propagation::CheckPast => "check-past",
            _ => "fc",
        },
        solutions,
        within_budget,
        backtracks_per_solution: within_budget.then_some(backtracks / seeds),
        estimated_tree_size: Some(estimates / seeds),
        actual_tree_size: actual,
    }
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
    let orders: Vec<&str> = args
        .orders
        .iter()
        .map(|o| match o {
            OrderArg::Lex => "lex",
            OrderArg::Min => "min",
        })
        .collect();
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
