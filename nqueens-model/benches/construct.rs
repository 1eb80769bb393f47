//! The constructive solvers at scale (issue 5's performance goals), in four sections:
//!
//! - `explicit`: the explicit construction on n = 10⁹ built into memory, then checked by `verify`, and
//!   checked again streamed from its column function without a stored placement (`verify_columns`);
//! - `stream`: n = 10⁹ streamed to a file in each format, with the disk's own speed for the same bytes as
//!   the baseline, then read back by `verify_stream`; peak memory of each phase;
//! - `random`: every method on 10 seeded random n in 10⁵..10⁷ from its scope, each checked by `verify`
//!   (and `verify_torus` for the toroidal ones);
//! - `odd-trick`: Stone & Stone's §3 table, LEX backtracks on even n = 8..28 directly and through n + 1.
//!
//! `cargo bench -p nqueens-model --bench construct` runs them all; name sections after `--` to run only
//! those (`-- stream odd-trick`; `stream-text` and `stream-u32le` run one format); `CONSTRUCT_BENCH_N` sets another board size for the first two. Files go to `$CONSTRUCT_BENCH_DIR` (default: the system's temporary
//! directory) and are removed afterwards; the stream section needs about 10 GB free there. Peak memory
//! is the process's VmHWM from `/proc/self/status`, reset before each phase through
//! `/proc/self/clear_refs` where the kernel allows it.
//!
//! Without `--bench` on the command line (as under `cargo test --benches`) every section runs on small
//! boards instead, as a smoke check.

use std::fs::{self, File};
use std::io::{self, BufWriter, Write};
use std::path::PathBuf;
use std::time::{Duration, Instant};

use csp_search::{Limits, rng_for};
use nqueens_model::construct::{
    ExplicitColumns, OddTrickResult, abramson_yung, decomposition, explicit, general, knight_walk,
    odd_trick, verify_torus, yaglom,
};
use nqueens_model::stream::{Format, verify_columns, verify_stream, write_placement};
use nqueens_model::verify;
use rand::RngExt;

mod clock;

use clock::{Clock, peak_resident_bytes, reset_peak_memory};

/// The sections, in the order they run.
const SECTIONS: [&str; 6] = [
    "explicit",
    "stream",
    "stream-text",
    "stream-u32le",
    "random",
    "odd-trick",
];

fn main() -> io::Result<()> {
    let arguments: Vec<String> = std::env::args().skip(1).collect();
    let full = arguments.iter().any(|argument| argument == "--bench");
    let chosen: Vec<&str> = arguments
        .iter()
        .map(String::as_str)
        .filter(|argument| !argument.starts_with("--"))
        .collect();
    let runs = |section: &str| chosen.is_empty() || chosen.contains(&section);
    for section in chosen.iter().filter(|section| !SECTIONS.contains(section)) {
        eprintln!("unknown section `{section}`; the sections are {SECTIONS:?}");
    }
    let (huge, random_range, odd_trick_largest) = if full {
        (1_000_000_000, 100_000..10_000_000, 28)
    } else {
        (1_000_003, 1_000..10_000, 12)
    };
    // `CONSTRUCT_BENCH_N` overrides the board of the explicit and stream sections.
    let huge = std::env::var("CONSTRUCT_BENCH_N")
        .ok()
        .and_then(|value| value.parse().ok())
        .unwrap_or(huge);
    if runs("explicit") {
        explicit_section(huge);
    }
    let formats: Vec<Format> = Format::ALL
        .into_iter()
        .filter(|format| runs("stream") || runs(&format!("stream-{format}")))
        .collect();
    if !formats.is_empty() {
        stream_section(huge, &formats)?;
    }
    if runs("random") {
        random_section(random_range);
    }
    if runs("odd-trick") {
        odd_trick_section(odd_trick_largest);
    }
    Ok(())
}

/// Builds the explicit board of `n` rows and verifies it, three ways.
fn explicit_section(n: usize) {
    println!("## explicit, n = {n} (wall time; CPU time of all threads; peak memory)");
    reset_peak_memory();
    let clock = Clock::process();
    let board = explicit(n).expect("the benchmark size is in scope");
    println!(
        "build into Vec<u32>:              {}   peak memory {}",
        clock.read(),
        peak_memory()
    );
    let clock = Clock::process();
    let verdict = verify(&board.placement);
    assert_eq!(verdict, Ok(()));
    println!(
        "verify (the independent checker): {}   peak memory {}",
        clock.read(),
        peak_memory()
    );
    drop(board);
    reset_peak_memory();
    let clock = Clock::process();
    let columns = ExplicitColumns::new(n).expect("the benchmark size is in scope");
    verify_columns(columns).expect("the explicit board is a solution");
    println!(
        "verify_columns, nothing stored:   {}   peak memory {}",
        clock.read(),
        peak_memory()
    );
    println!();
}

/// Streams the explicit board of `n` rows to a file in each format and reads it back.
fn stream_section(n: usize, formats: &[Format]) -> io::Result<()> {
    println!("## stream, n = {n}");
    let directory = std::env::var_os("CONSTRUCT_BENCH_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(std::env::temp_dir);
    for &format in formats {
        let path = directory.join(format!("construct-bench-{n}.{format}"));
        reset_peak_memory();
        let clock = Clock::process();
        let file = File::create(&path)?;
        let columns = ExplicitColumns::new(n).expect("the benchmark size is in scope");
        let rows = write_placement(&file, columns, format)?;
        let (written, times) = (clock.wall(), clock.read());
        file.sync_all()?;
        let synced = clock.wall();
        let bytes = fs::metadata(&path)?.len();
        assert_eq!(rows, n as u64);
        println!(
            "{format:>5}: wrote {} ({times}, {}), {:.3} s with fsync ({}); peak memory {}",
            describe_bytes(bytes),
            rate(bytes, written),
            synced.as_secs_f64(),
            rate(bytes, synced),
            peak_memory()
        );
        reset_peak_memory();
        let clock = Clock::process();
        let verified = verify_stream(File::open(&path)?, format);
        let (elapsed, times) = (clock.wall(), clock.read());
        assert_eq!(verified.expect("the streamed board is a solution"), n);
        println!(
            "{format:>5}: verify_stream ({times}, {}); peak memory {}",
            rate(bytes, elapsed),
            peak_memory()
        );
        fs::remove_file(&path)?;
        // The disk's own speed for the same number of bytes, written the same way: the baseline for
        // "as fast as the disk allows".
        let started = Instant::now();
        let file = File::create(&path)?;
        let mut writer = BufWriter::with_capacity(1 << 20, &file);
        let block = vec![0_u8; 1 << 20];
        let mut left = bytes;
        while left > 0 {
            let chunk = left.min(block.len() as u64) as usize;
            writer.write_all(&block[..chunk])?;
            left -= chunk as u64;
        }
        writer.flush()?;
        drop(writer);
        let written = started.elapsed();
        file.sync_all()?;
        let synced = started.elapsed();
        println!(
            "{format:>5}: baseline, zeros of the same size: {:.3} s ({}), {:.3} s with fsync ({})",
            written.as_secs_f64(),
            rate(bytes, written),
            synced.as_secs_f64(),
            rate(bytes, synced)
        );
        fs::remove_file(&path)?;
    }
    println!();
    Ok(())
}

/// A method of the random section: its name, whether `n` is in its scope, and its construction.
type Case = (
    &'static str,
    fn(usize) -> bool,
    fn(usize) -> Result<Vec<u32>, String>,
);

/// Every method on ten seeded random sizes of its scope within `range`.
fn random_section(range: std::ops::Range<usize>) {
    println!(
        "## random n in {}..{}, 10 per method",
        range.start, range.end
    );
    let cases: [Case; 7] = [
        ("explicit", |_| true, |n| built(explicit(n))),
        ("knight-walk", coprime_to_6, |n| built(knight_walk(n))),
        ("decomposition", composite_coprime_to_6, |n| {
            built(decomposition(n))
        }),
        (
            "general",
            |n| n % 6 == 2 || n % 6 == 3,
            |n| built(general(n)),
        ),
        ("abramson-yung", |_| true, |n| built(abramson_yung(n))),
        ("yaglom", |_| true, |n| built(yaglom(n))),
        (
            "torus (knight-walk and decomposition)",
            composite_coprime_to_6,
            |n| {
                let walk = built(knight_walk(n))?;
                verify_torus(&walk).map_err(|error| error.to_string())?;
                let tiles = built(decomposition(n))?;
                verify_torus(&tiles).map_err(|error| error.to_string())?;
                Ok(tiles)
            },
        ),
    ];
    for (stream, (name, in_scope, construct)) in (0_u64..).zip(cases) {
        let mut rng = rng_for(2024, stream);
        let mut sizes = Vec::new();
        while sizes.len() < 10 {
            let n = rng.random_range(range.clone());
            if in_scope(n) {
                sizes.push(n);
            }
        }
        let started = Instant::now();
        for &n in &sizes {
            let placement = construct(n).unwrap_or_else(|error| panic!("{name}, n = {n}: {error}"));
            assert_eq!(placement.len(), n);
            if let Err(error) = verify(&placement) {
                panic!("{name}, n = {n}: {error}");
            }
        }
        println!(
            "{name}: all 10 verified in {:.2} s: {sizes:?}",
            started.elapsed().as_secs_f64()
        );
    }
    println!();
}

/// Pólya's condition, and the knight-walk's.
fn coprime_to_6(n: usize) -> bool {
    !n.is_multiple_of(2) && !n.is_multiple_of(3)
}

/// The decomposition's scope: coprime to 6 with a factor from 5 to √n.
fn composite_coprime_to_6(n: usize) -> bool {
    coprime_to_6(n) && (5..=n.isqrt()).any(|a| n.is_multiple_of(a))
}

/// A construction's placement, or its error as text.
fn built(
    construction: Result<
        nqueens_model::construct::Construction,
        nqueens_model::construct::ConstructError,
    >,
) -> Result<Vec<u32>, String> {
    construction
        .map(|board| board.placement)
        .map_err(|error| error.to_string())
}

/// Stone & Stone's odd trick on every even n from 8 to `largest`: LEX backtracks on n and on n + 1.
fn odd_trick_section(largest: usize) {
    println!("## odd trick (Stone & Stone §3): LEX backtracks to the first solution");
    println!("|  n | LEX on n | LEX on n + 1 | ratio | corner queen | time |");
    println!("| --: | --: | --: | --: | :-- | --: |");
    for n in (8..=largest).step_by(2) {
        let started = Instant::now();
        let trick = odd_trick(n, Limits::default()).expect("even n ≥ 4 is in scope");
        let corner = match &trick.result {
            OddTrickResult::Corner(placement) => {
                assert_eq!(verify(placement), Ok(()));
                "yes"
            }
            OddTrickResult::NoCornerQueen => "no",
            OddTrickResult::Unfinished => "unfinished",
        };
        println!(
            "| {n} | {} | {} | {:.1}× | {corner} | {:.2} s |",
            trick.direct.backtracks,
            trick.via_odd.backtracks,
            trick.speedup().unwrap_or(f64::NAN),
            started.elapsed().as_secs_f64()
        );
    }
    println!();
}

/// VmHWM, the peak resident memory, as `/proc/self/status` gives it (in kB).
fn peak_memory() -> String {
    peak_resident_bytes().map_or_else(
        || "unavailable".to_owned(),
        |bytes| format!("{} kB", bytes / 1024),
    )
}

/// Bytes as GB or MB.
fn describe_bytes(bytes: u64) -> String {
    if bytes >= 1_000_000_000 {
        format!("{:.2} GB", bytes as f64 / 1e9)
    } else {
        format!("{:.2} MB", bytes as f64 / 1e6)
    }
}

/// Bytes per second, in MB/s.
fn rate(bytes: u64, time: Duration) -> String {
    format!("{:.0} MB/s", bytes as f64 / 1e6 / time.as_secs_f64())
}
