//! Writing a placement as it is produced, a megabyte at a time.

use std::io::{self, Write};

use super::format::Format;
use super::sizes::{BUFFER_BYTES, MAX_ROW_BYTES};

/// Writes `columns` (`placement[row] = column`) to `writer` in `format`, gathering a megabyte at a
/// time, and returns the number of rows written. Memory stays bounded whatever the number of rows, so
/// a streamed construction ([`crate::construct::ExplicitColumns`]) can write a billion rows.
pub fn write_placement<W: Write>(
    mut writer: W,
    columns: impl IntoIterator<Item = u32>,
    format: Format,
) -> io::Result<u64> {
    let mut buffer = vec![0_u8; BUFFER_BYTES];
    let mut columns = columns.into_iter();
    let mut rows = 0_u64;
    // One loop per format, so that the hot loop does not ask which format it writes at every row.
    match format {
        Format::Text => loop {
            let mut used = 0;
            let mut ended = false;
            // Fill the buffer while it has room for a row of the greatest width.
            while let Some(slot) = buffer[used..].first_chunk_mut::<MAX_ROW_BYTES>() {
                let Some(column) = columns.next() else {
                    ended = true;
                    break;
                };
                used += put_decimal_line(slot, column);
                rows += 1;
            }
            writer.write_all(&buffer[..used])?;
            if ended {
                break;
            }
        },
        Format::U32Le => loop {
            let mut used = 0;
            // `zip` asks the buffer for a slot first, so no column is taken that has no room.
            for (slot, column) in buffer.chunks_exact_mut(4).zip(&mut columns) {
                slot.copy_from_slice(&column.to_le_bytes());
                used += 4;
            }
            writer.write_all(&buffer[..used])?;
            rows += (used / 4) as u64;
            if used < buffer.len() {
                break;
            }
        },
    }
    writer.flush()?;
    Ok(rows)
}

/// The two-digit strings "00" to "99", so that a column is formatted two digits per division.
const DIGIT_PAIRS: &[u8; 200] = b"\
    0001020304050607080910111213141516171819\
    2021222324252627282930313233343536373839\
    4041424344454647484950515253545556575859\
    6061626364656667686970717273747576777879\
    8081828384858687888990919293949596979899";

/// Writes `value` in decimal and a newline at the start of `out`, and returns the bytes written:
/// `core::fmt` would cost several times as much per row.
///
/// All ten digits are formed, zero-padded, from three independent groups (so the divisions do not wait
/// on each other), then an 11-byte window starting at the first significant digit is copied: a copy of
/// fixed length, whatever the number of digits. The bytes after the newline are scratch, overwritten by
/// the next row.
#[inline]
fn put_decimal_line(out: &mut [u8; MAX_ROW_BYTES], value: u32) -> usize {
    let digits = value.checked_ilog10().unwrap_or(0) as usize + 1;
    let pair = |two_digits: u32| {
        let index = two_digits as usize * 2;
        [DIGIT_PAIRS[index], DIGIT_PAIRS[index + 1]]
    };
    let (high, low) = (value / 100_000_000, value % 100_000_000);
    let (middle, last) = (low / 10_000, low % 10_000);
    // Ten digits, the newline, and scratch so that any 11-byte window fits.
    let mut all = [b'\n'; 2 * MAX_ROW_BYTES];
    all[0..2].copy_from_slice(&pair(high));
    all[2..4].copy_from_slice(&pair(middle / 100));
    all[4..6].copy_from_slice(&pair(middle % 100));
    all[6..8].copy_from_slice(&pair(last / 100));
    all[8..10].copy_from_slice(&pair(last % 100));
    let start = 10 - digits;
    out.copy_from_slice(&all[start..start + MAX_ROW_BYTES]);
    digits + 1
}
