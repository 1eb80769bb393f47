//! The sizes every part of a stream shares: the largest board checked, the buffers, a row's bytes.

/// The largest placement [`verify_stream`](super::verify_stream) and
/// [`verify_columns`](super::verify_columns) check: every row and column must fit a `u32`. Its line
/// sets then take at most 5 · 2³² bits, 2.7 GB, within the 4 GiB budget.
pub const MAX_VERIFY_N: usize = u32::MAX as usize;

/// Bytes the writer gathers before each write, and the readers' buffer size: large enough that
/// system calls cost nothing next to formatting.
pub(super) const BUFFER_BYTES: usize = 1 << 20;

/// The longest row in any format: ten digits and a newline.
pub(super) const MAX_ROW_BYTES: usize = 11;
