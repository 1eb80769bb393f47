//! The Rust side of `csp-python/bench/overhead.py`: builds, with the Rust API, the model that
//! script builds from Python (`N + 1` variables in 0..=10 and `x[i] + x[i+1] <= 10` for every
//! `i < N`) and prints the seconds it took, so that the two are compared in one run.
//!
//! `cargo run --release --example python_overhead_baseline -- 100000`

use std::time::Instant;

use csp::core::ModelBuilder;
use csp::core::constraints::{Linear, Relation};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let n: usize = std::env::args().nth(1).map_or(Ok(100_000), |a| a.parse())?;
    let started = Instant::now();
    let mut builder = ModelBuilder::new();
    let x = (0..=n)
        .map(|i| builder.int_var(format!("x[{i}]"), 0..=10))
        .collect::<Result<Vec<_>, _>>()?;
    for i in 0..n {
        builder.post(Linear::new(
            vec![(1, x[i]), (1, x[i + 1])],
            Relation::LessOrEqual,
            10,
        ))?;
    }
    let model = builder.build();
    let seconds = started.elapsed().as_secs_f64();
    println!(
        "{seconds:.6} s to build {} constraints",
        model.num_constraints()
    );
    Ok(())
}
