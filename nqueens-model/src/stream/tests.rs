//! Round trips, buffer boundaries, short reads and error positions.

use std::io::{self, Cursor, Read, Seek, SeekFrom};

use super::read::{TextRows, U32LeRows};
use super::*;
use crate::VerifyError;

#[test]
fn decimal_lines_match_display() {
    let mut values = vec![
        0,
        7,
        9,
        10,
        99,
        100,
        101,
        999,
        1000,
        65_535,
        1_000_000,
        u32::MAX,
    ];
    values.extend((0..32).map(|power| 1_u32 << power));
    values.extend((1..=9).map(|digits| 10_u32.pow(digits) - 1));
    let mut written = Vec::new();
    write_placement(&mut written, values.iter().copied(), Format::Text).unwrap();
    let expected: String = values.iter().map(|value| format!("{value}\n")).collect();
    assert_eq!(String::from_utf8(written).unwrap(), expected);
}

#[test]
fn rows_crossing_the_buffer_boundary_are_written_and_read_whole() {
    // Enough rows of mixed widths that many straddle the 1 MiB buffer's end.
    let columns: Vec<u32> = (0..400_000_u32)
        .map(|i| i.wrapping_mul(2_654_435_761))
        .collect();
    for format in Format::ALL {
        let mut file = Vec::new();
        write_placement(&mut file, columns.iter().copied(), format).unwrap();
        let read: Vec<u32> = match format {
            Format::Text => TextRows::new(Cursor::new(file)).collect(),
            Format::U32Le => U32LeRows::new(Cursor::new(file)).collect(),
        };
        assert_eq!(read, columns, "{format}");
    }
}

/// A reader that hands out at most 3 bytes a call, so that rows straddle every read.
struct Trickle(Cursor<Vec<u8>>);

impl Read for Trickle {
    fn read(&mut self, buffer: &mut [u8]) -> io::Result<usize> {
        let len = buffer.len().min(3);
        self.0.read(&mut buffer[..len])
    }
}

impl Seek for Trickle {
    fn seek(&mut self, position: SeekFrom) -> io::Result<u64> {
        self.0.seek(position)
    }
}

#[test]
fn short_reads_split_rows_anywhere() {
    let columns = [1_u32, 3, 0, 2, 70_000, 5, 4_000_000_000];
    for format in Format::ALL {
        let mut file = Vec::new();
        write_placement(&mut file, columns, format).unwrap();
        let read: Vec<u32> = match format {
            Format::Text => TextRows::new(Trickle(Cursor::new(file.clone()))).collect(),
            Format::U32Le => U32LeRows::new(Trickle(Cursor::new(file.clone()))).collect(),
        };
        assert_eq!(read, columns, "{format}");
        let error = verify_stream(Trickle(Cursor::new(file)), format).unwrap_err();
        assert!(
            matches!(
                error,
                StreamError::Invalid {
                    error: VerifyError::ColumnOutOfRange { row: 4, .. },
                    ..
                }
            ),
            "{error}"
        );
    }
}

/// The explicit board's columns for rule 1 (n mod 6 = 0 or 4): the odd columns, then the even ones.
fn solution(n: usize) -> Vec<u32> {
    assert!(matches!(n % 6, 0 | 4));
    let half = (n / 2) as u32;
    (0..half)
        .map(|r| 2 * r + 1)
        .chain((0..half).map(|k| 2 * k))
        .collect()
}

#[test]
fn problems_in_later_runs_are_found_in_row_order() {
    // 700,000 rows: three runs, so that checking one run overlaps reading the next.
    let n = 699_996;
    let good = solution(n);
    let text = |placement: &[u32]| {
        let mut file = Vec::new();
        write_placement(&mut file, placement.iter().copied(), Format::Text).unwrap();
        file
    };
    assert_eq!(
        verify_stream(Cursor::new(text(&good)), Format::Text).unwrap(),
        n
    );
    // A clash in the third run.
    let mut clash = good.clone();
    clash[600_000] = clash[17];
    let error = verify_stream(Cursor::new(text(&clash)), Format::Text);
    assert!(matches!(
        error,
        Err(StreamError::Invalid {
            error: VerifyError::Attack {
                first_row: 17,
                second_row: 600_000,
                ..
            },
            position: Position::Line(600_001),
        })
    ));
    // A malformed line in the second run, then a clash after it: the line is reported.
    let mut file = text(&clash);
    let line_start = file
        .iter()
        .enumerate()
        .filter(|&(_, &byte)| byte == b'\n')
        .nth(299_999)
        .unwrap()
        .0
        + 1;
    file[line_start] = b'x';
    assert!(matches!(
        verify_stream(Cursor::new(file.clone()), Format::Text),
        Err(StreamError::MalformedLine { line: 300_001, .. })
    ));
    // A clash in the first run comes before the malformed line read ahead.
    let mut early = clash.clone();
    early[1000] = early[999] + 1;
    let mut file = text(&early);
    file[line_start] = b'x';
    assert!(matches!(
        verify_stream(Cursor::new(file), Format::Text),
        Err(StreamError::Invalid {
            error: VerifyError::Attack {
                second_row: 1000,
                ..
            },
            ..
        })
    ));
}

#[test]
fn a_long_line_without_newline_is_refused_without_reading_it_all() {
    let error = verify_stream(Cursor::new(vec![b'7'; 3 << 20]), Format::Text).unwrap_err();
    assert!(
        matches!(error, StreamError::MalformedLine { line: 1, .. }),
        "{error}"
    );
}

#[test]
fn formats_parse_back_from_their_names() {
    for format in Format::ALL {
        assert_eq!(format.to_string().parse::<Format>(), Ok(format));
    }
    assert!("U32LE".parse::<Format>().is_err());
}

#[test]
fn text_accepts_a_last_line_without_newline_and_crlf() {
    assert_eq!(
        verify_stream(Cursor::new(b"1\n3\n0\n2"), Format::Text).unwrap(),
        4
    );
    assert_eq!(
        verify_stream(Cursor::new(b"1\r\n3\r\n0\r\n2\r\n"), Format::Text).unwrap(),
        4
    );
}

#[test]
fn an_empty_placement_is_no_board() {
    for format in Format::ALL {
        assert!(matches!(
            verify_stream(Cursor::new(b""), format),
            Err(StreamError::Empty)
        ));
    }
}

#[test]
fn columns_iterator_is_checked_like_a_slice() {
    assert!(verify_columns([1_u32, 3, 0, 2].into_iter()).is_ok());
    let error = verify_columns([1_u32, 3, 0, 3].into_iter()).unwrap_err();
    assert!(matches!(
        error,
        StreamError::Invalid {
            error: VerifyError::Attack {
                first_row: 1,
                second_row: 3,
                ..
            },
            position: Position::Line(4),
        }
    ));
}
