//! Running out of memory as an answer, not an abort: the system allocator behind a guard that turns
//! a refused request into one line on stderr and exit code 3 (a limit stopped the work), where Rust's
//! default would abort the process (exit 134).

use std::alloc::{GlobalAlloc, Layout, System};
use std::io::Write;

/// The system allocator, ending the process with a message when a request is refused.
pub struct Guarded;

/// Says how much was asked for and exits. Writes to a buffer on the stack: nothing here allocates.
#[cold]
fn out_of_memory(layout: Layout) -> ! {
    let mut line = [0u8; 128];
    let mut cursor = std::io::Cursor::new(&mut line[..]);
    let _ = writeln!(
        cursor,
        "fzn-csp: out of memory (a request for {} bytes was refused)",
        layout.size()
    );
    let written = cursor.position() as usize;
    let _ = std::io::stderr().write_all(&line[..written]);
    std::process::exit(3);
}

// The one place this binary needs `unsafe`: a global allocator must implement an unsafe trait. Each
// method forwards to the system allocator unchanged and only looks at the pointer it returns.
#[allow(unsafe_code)]
unsafe impl GlobalAlloc for Guarded {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: the caller's contract for `layout` is passed on unchanged.
        let pointer = unsafe { System.alloc(layout) };
        if pointer.is_null() {
            out_of_memory(layout);
        }
        pointer
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: as for `alloc`.
        let pointer = unsafe { System.alloc_zeroed(layout) };
        if pointer.is_null() {
            out_of_memory(layout);
        }
        pointer
    }

    unsafe fn realloc(&self, pointer: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: `pointer` was allocated by this allocator (that is, by `System`) with `layout`,
        // as the caller guarantees.
        let grown = unsafe { System.realloc(pointer, layout, new_size) };
        if grown.is_null() {
            // The size is checked by the caller to fit with the alignment, so this cannot fail.
            out_of_memory(Layout::from_size_align(new_size, layout.align()).unwrap_or(layout));
        }
        grown
    }

    unsafe fn dealloc(&self, pointer: *mut u8, layout: Layout) {
        // SAFETY: `pointer` was allocated by this allocator with `layout`.
        unsafe { System.dealloc(pointer, layout) }
    }
}
