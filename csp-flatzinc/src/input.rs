//! Reading a model as a solver binary must: from a file, a device or a pipe alike, within a bound,
//! refusing what cannot be FlatZinc text as it arrives.

use std::io::{self, Read};
use std::path::Path;

/// The most bytes of FlatZinc read, from a file, a device or a pipe alike: more is refused as it
/// arrives, before it is held.
pub const MAX_MODEL_BYTES: usize = 1 << 31;

/// How much is read at a time, each piece checked for bytes that are not text as it arrives.
const READ_CHUNK: usize = 1 << 16;

/// Reads the model from a file, a device or a pipe (`-` is standard input), refusing more than
/// [`MAX_MODEL_BYTES`] and any byte that cannot be FlatZinc text as soon as it arrives: `/dev/zero`
/// is refused after its first piece, not after filling the memory. The error says why, without the
/// path (the caller names it).
pub fn read_model(path: &Path) -> Result<String, String> {
    let mut input: Box<dyn Read> = if path == Path::new("-") {
        Box::new(io::stdin().lock())
    } else {
        Box::new(std::fs::File::open(path).map_err(|e| e.to_string())?)
    };
    // A regular file says how long it is, so its bytes are read without growing the buffer; a
    // device or a pipe says 0 and grows it as it goes.
    let expected = std::fs::metadata(path)
        .ok()
        .filter(|m| m.is_file())
        .map_or(0, |m| m.len());
    let mut bytes = Vec::with_capacity(expected.min(MAX_MODEL_BYTES as u64) as usize + 1);
    let mut chunk = vec![0u8; READ_CHUNK];
    loop {
        let read = match input.read(&mut chunk) {
            Ok(0) => break,
            Ok(read) => read,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e.to_string()),
        };
        let piece = &chunk[..read];
        if let Some(at) = piece.iter().position(|&b| is_not_text(b)) {
            return Err(format!(
                "byte {} is {:#04x}, which is not FlatZinc text",
                bytes.len() + at,
                piece[at]
            ));
        }
        if bytes.len() + read > MAX_MODEL_BYTES {
            return Err(format!(
                "more than the {MAX_MODEL_BYTES} bytes a model may have"
            ));
        }
        bytes.extend_from_slice(piece);
    }
    String::from_utf8(bytes)
        .map_err(|e| format!("not UTF-8 text (byte {})", e.utf8_error().valid_up_to()))
}

/// Control characters other than tab, line feed and carriage return: FlatZinc has none.
fn is_not_text(byte: u8) -> bool {
    byte < 0x20 && !matches!(byte, b'\t' | b'\n' | b'\r')
}
