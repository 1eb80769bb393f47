//! Issue 16's property test: random and truncated bytes fed to every reader (checkpoints and merge,
//! `verify` text and u32le, Sudoku, DIMACS) give a clear error or an answer, never a panic, and never
//! make the reader's memory grow past a cap. A counting global allocator measures each call's peak.
//!
//! The tests hold one lock while they measure, so that no other test thread's allocations are
//! counted. The number of cases per reader is `READER_FUZZ_CASES` (default 1,000);
//! a long run is `READER_FUZZ_CASES=100000 cargo test --test reader_fuzz`.

use std::alloc::{GlobalAlloc, Layout, System};
use std::io::{self, Cursor, Read, Seek, SeekFrom};
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

use csp::count::{CountOptions, ShardResult, count, merge};
use csp::nqueens::stream::{Format, verify_stream, write_placement};
use csp::problems::{dimacs, sudoku};
use proptest::prelude::*;
use proptest::test_runner::{Config, TestRunner};

struct PeakAllocator;

/// Bytes allocated now, and the most since the last [`reset_peak`].
static CURRENT: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

fn grow(bytes: usize) {
    let now = CURRENT.fetch_add(bytes, Ordering::Relaxed) + bytes;
    PEAK.fetch_max(now, Ordering::Relaxed);
}

// The workspace denies unsafe code; a global allocator cannot be written without it, and this one only
// counts bytes and forwards to `System`.
#[allow(unsafe_code)]
unsafe impl GlobalAlloc for PeakAllocator {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        grow(layout.size());
        // SAFETY: forwarded unchanged to the system allocator.
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        CURRENT.fetch_sub(layout.size(), Ordering::Relaxed);
        // SAFETY: forwarded unchanged to the system allocator.
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        if new_size >= layout.size() {
            grow(new_size - layout.size());
        } else {
            CURRENT.fetch_sub(layout.size() - new_size, Ordering::Relaxed);
        }
        // SAFETY: forwarded unchanged to the system allocator.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: PeakAllocator = PeakAllocator;

/// Held by each test while it measures: the counters are global.
static MEASURING: Mutex<()> = Mutex::new(());

/// The most a reader may allocate beyond its input: its buffers (a megabyte or two) and what the
/// input describes, with room to spare; far below what reading an endless input whole would take.
const CAP: usize = 16 << 20;

/// Runs `read` and returns the most it allocated at once beyond what was allocated before.
fn peak_of<T>(read: impl FnOnce() -> T) -> (T, usize) {
    let before = CURRENT.load(Ordering::Relaxed);
    PEAK.store(before, Ordering::Relaxed);
    let result = read();
    (result, PEAK.load(Ordering::Relaxed).saturating_sub(before))
}

fn runner() -> TestRunner {
    let cases = std::env::var("READER_FUZZ_CASES")
        .ok()
        .and_then(|c| c.parse().ok())
        .unwrap_or(1_000);
    TestRunner::new(Config {
        cases,
        failure_persistence: None,
        ..Config::default()
    })
}

/// Bytes to feed a reader: random ones, or a valid input cut short and with some bytes changed.
fn bytes_from(valid: Vec<u8>) -> impl Strategy<Value = Vec<u8>> {
    let length = valid.len();
    prop_oneof![
        prop::collection::vec(any::<u8>(), 0..2048),
        (
            0..=length,
            prop::collection::vec((0..length.max(1), any::<u8>()), 0..4)
        )
            .prop_map(move |(cut, changes)| {
                let mut bytes = valid[..cut].to_vec();
                for (at, byte) in changes {
                    if at < bytes.len() {
                        bytes[at] = byte;
                    }
                }
                bytes
            }),
    ]
}

/// Checks one reader on `valid` and its mutations: `read` must return (an error or an answer,
/// whichever) without panicking and within the cap.
fn check_reader(name: &str, valid: Vec<u8>, read: impl Fn(&[u8])) {
    runner()
        .run(&bytes_from(valid), |bytes| {
            let ((), peak) = peak_of(|| read(&bytes));
            prop_assert!(peak <= CAP + bytes.len(), "{name}: {peak} bytes");
            Ok(())
        })
        .unwrap_or_else(|failure| panic!("{name}: {failure}"));
}

/// A reader that never ends, of one byte repeated, that claims to be `length` bytes long when asked
/// (as a device does).
struct Endless {
    byte: u8,
    length: u64,
}

impl Read for Endless {
    fn read(&mut self, buffer: &mut [u8]) -> io::Result<usize> {
        buffer.fill(self.byte);
        Ok(buffer.len())
    }
}

impl Seek for Endless {
    fn seek(&mut self, position: SeekFrom) -> io::Result<u64> {
        Ok(match position {
            SeekFrom::End(_) => self.length,
            _ => 0,
        })
    }
}

#[test]
fn every_reader_answers_or_refuses_within_its_memory_cap() {
    let _measuring = MEASURING
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    // Checkpoints and shard results, and merge on whatever reads.
    let directory = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR"));
    let path = directory.join("reader-fuzz-checkpoint.json");
    let _ = std::fs::remove_file(&path);
    let options = CountOptions {
        checkpoint: Some(path.clone()),
        ..CountOptions::default()
    };
    count(9, &options).unwrap();
    let valid = std::fs::read(&path).unwrap();
    let mutated = directory.join("reader-fuzz-mutated.json");
    check_reader("checkpoint", valid, |bytes| {
        std::fs::write(&mutated, bytes).unwrap();
        if let Ok(result) = ShardResult::read(&mutated) {
            let _ = merge(&[result]);
        }
    });

    // Stored placements, in both formats.
    for format in Format::ALL {
        let mut valid = Vec::new();
        write_placement(&mut valid, [1, 3, 0, 2, 4, 6, 8, 5, 7], format).unwrap();
        check_reader(&format!("verify {format}"), valid, |bytes| {
            let _ = verify_stream(Cursor::new(bytes), format);
        });
    }

    // Sudoku puzzles, each read until the first error.
    let valid = include_bytes!("../data/sudoku/norvig_hardest11.txt").to_vec();
    check_reader("sudoku", valid, |bytes| {
        for puzzle in sudoku::puzzles(bytes) {
            if puzzle.is_err() {
                break;
            }
        }
    });

    // DIMACS graphs.
    let valid = include_bytes!("../data/coloring/myciel4.col").to_vec();
    check_reader("dimacs", valid, |bytes| {
        let _ = dimacs::parse_reader(bytes);
    });
}

#[test]
fn endless_inputs_end_with_an_error_within_the_cap() {
    let _measuring = MEASURING
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    // One endless line: every line reader refuses it after its line cap.
    let endless = || {
        io::BufReader::new(Endless {
            byte: b'1',
            length: 0,
        })
    };
    let (result, peak) = peak_of(|| sudoku::puzzles(endless()).next());
    assert!(matches!(result, Some(Err(_))));
    assert!(peak <= CAP, "sudoku: {peak}");
    let (result, peak) = peak_of(|| dimacs::parse_reader(endless()));
    assert!(result.is_err());
    assert!(peak <= CAP, "dimacs: {peak}");
    let text = || Endless {
        byte: b'7',
        length: 0,
    };
    let (result, peak) = peak_of(|| verify_stream(text(), Format::Text));
    assert!(result.is_err());
    assert!(peak <= CAP, "verify text: {peak}");
    // A device that claims a terabyte: more rows than a column can number, refused before reading.
    let device = Endless {
        byte: 0,
        length: 1 << 40,
    };
    let (result, peak) = peak_of(|| verify_stream(device, Format::U32Le));
    assert!(result.is_err());
    assert!(peak <= CAP, "verify u32le: {peak}");

    // An endless pipe of puzzles is read one at a time: a thousand take no more than one.
    let puzzle =
        b"4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......\n";
    let pipe =
        io::BufReader::new(Cursor::new(puzzle.to_vec()).chain(Cursor::new(puzzle.repeat(1000))));
    let (read, peak) = peak_of(|| sudoku::puzzles(pipe).take(1001).count());
    assert_eq!(read, 1001);
    assert!(
        peak < 64 << 10,
        "a thousand puzzles held {peak} bytes at once"
    );
}
