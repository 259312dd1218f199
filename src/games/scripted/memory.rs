//! The memory a script call holds: a global allocator that counts, per thread, the
//! bytes allocated and not yet freed, so that a call of a script can be stopped once
//! it holds more than [`MAX_CALL_MEMORY`](super::script::MAX_CALL_MEMORY).
//!
//! Every allocation goes through the global allocator, so every path a script has to
//! memory is counted: arrays, maps (index assignment included), strings, the engine's
//! own scopes and values. The count is the thread's net figure (allocations less
//! frees), read at the start of a call and at each of its operations.
//!
//! The `sgcheck` binary installs it. A program that uses the library and declares
//! scripted games installs it too, to have the same bound:
//!
//! ```ignore
//! #[global_allocator]
//! static ALLOCATOR: sgcheck::CountingAllocator = sgcheck::CountingAllocator;
//! ```
//!
//! Without it (another global allocator), a call is still bounded by the sandbox's
//! size limits on arrays, maps and strings, and by its time, not by a memory budget;
//! [`installed`] says which.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::sync::OnceLock;

thread_local! {
    /// Bytes this thread allocated less bytes it freed (a block freed by another
    /// thread than the one that made it moves the figure of both).
    static NET: Cell<isize> = const { Cell::new(0) };
}

/// The system allocator, counting the bytes each thread holds.
#[derive(Debug, Clone, Copy, Default)]
pub struct CountingAllocator;

fn add(bytes: isize) {
    // `try_with`: a thread being torn down may still free memory.
    let _ = NET.try_with(|n| n.set(n.get().wrapping_add(bytes)));
}

// SAFETY: every method forwards to `System` with the same arguments and only updates a
// thread-local counter, which neither allocates nor unwinds.
unsafe impl GlobalAlloc for CountingAllocator {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let p = System.alloc(layout);
        if !p.is_null() {
            add(layout.size() as isize);
        }
        p
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        let p = System.alloc_zeroed(layout);
        if !p.is_null() {
            add(layout.size() as isize);
        }
        p
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        System.dealloc(ptr, layout);
        add(-(layout.size() as isize));
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let p = System.realloc(ptr, layout, new_size);
        if !p.is_null() {
            add(new_size as isize - layout.size() as isize);
        }
        p
    }
}

/// The bytes this thread holds, as counted since it started (it stays 0 when the
/// counting allocator is not installed).
pub fn held() -> isize {
    NET.try_with(Cell::get).unwrap_or(0)
}

/// Whether the counting allocator is the global allocator, so that a script call's
/// memory is bounded: allocates a block once and sees whether the count moved.
pub fn installed() -> bool {
    static PROBE: OnceLock<bool> = OnceLock::new();
    *PROBE.get_or_init(|| {
        let before = held();
        let b = std::hint::black_box(Box::new([0u8; 64]));
        let during = held();
        drop(b);
        during != before
    })
}
