//! Running out of memory as an answer, not an abort: the system allocator behind a guard that turns
//! a refused request into one line on stderr and exit code 3 (a limit stopped the work), where Rust's
//! default would abort the process (exit 134). A binary installs it in one line:
//!
//! ```no_run
//! #[global_allocator]
//! static ALLOCATOR: csp::app::Guarded = csp::app::Guarded::named("fzn-csp");
//! ```

use std::alloc::{GlobalAlloc, Layout, System};
use std::io::Write;

/// The system allocator, ending the process with a message when a request is refused.
#[derive(Debug)]
pub struct Guarded {
    /// The program's name, which starts the message.
    program: &'static str,
}

impl Guarded {
    /// The guard of the program called `program`.
    pub const fn named(program: &'static str) -> Self {
        Guarded { program }
    }

    /// Says how much was asked for and exits with code 3. Writes to a buffer on the stack: nothing
    /// here allocates.
    #[cold]
    fn out_of_memory(&self, layout: Layout) -> ! {
        let mut line = [0u8; 160];
        let mut cursor = std::io::Cursor::new(&mut line[..]);
        let _ = writeln!(
            cursor,
            "{}: out of memory (a request for {} bytes was refused)",
            self.program,
            layout.size()
        );
        let written = cursor.position() as usize;
        let _ = std::io::stderr().write_all(&line[..written]);
        std::process::exit(3);
    }
}

// The one place the application layer needs `unsafe`: a global allocator must implement an unsafe
// trait. Each method forwards to the system allocator unchanged and only looks at the pointer it
// returns.
#[allow(unsafe_code)]
unsafe impl GlobalAlloc for Guarded {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: the caller's contract for `layout` is passed on unchanged.
        let pointer = unsafe { System.alloc(layout) };
        if pointer.is_null() {
            self.out_of_memory(layout);
        }
        pointer
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: as for `alloc`.
        let pointer = unsafe { System.alloc_zeroed(layout) };
        if pointer.is_null() {
            self.out_of_memory(layout);
        }
        pointer
    }

    unsafe fn realloc(&self, pointer: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: `pointer` was allocated by this allocator (that is, by `System`) with `layout`,
        // as the caller guarantees.
        let grown = unsafe { System.realloc(pointer, layout, new_size) };
        if grown.is_null() {
            // The size is checked by the caller to fit with the alignment, so this cannot fail.
            self.out_of_memory(Layout::from_size_align(new_size, layout.align()).unwrap_or(layout));
        }
        grown
    }

    unsafe fn dealloc(&self, pointer: *mut u8, layout: Layout) {
        // SAFETY: `pointer` was allocated by this allocator with `layout`.
        unsafe { System.dealloc(pointer, layout) }
    }
}
