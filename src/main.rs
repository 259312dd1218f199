//! The `sgcheck` binary: parses the command line and hands it to [`sgcheck::cli::run`].
//!
//! The process starts at C's `main`, not through Rust's runtime start-up: that start-up
//! reads `/proc/self/maps` to place the main thread's stack guard, which costs more
//! than `sgcheck solve` spends answering a small contest input. What it would set up and
//! the commands rely on is done here: SIGPIPE is ignored (a closed standard output is a
//! write error, which the commands handle quietly), and a panic still ends the process
//! with exit code 101 after its message, as from Rust's `main`. Threads the commands
//! start get their stack guards as usual.
#![cfg_attr(not(test), no_main)]

#[cfg(not(test))]
use std::ffi::{c_char, c_int};

// The unwinder, linked in whole ahead of the standard library, which then does not
// need `libgcc_s.so` (see build.rs).
#[cfg(sgcheck_static_unwind)]
#[link(name = "gcc_eh", kind = "static", modifiers = "+whole-archive")]
extern "C" {}

/// Counts the memory each thread holds, so that a declared game's script call is
/// stopped past its budget (`sgcheck::games::scripted::memory`).
#[global_allocator]
static ALLOCATOR: sgcheck::CountingAllocator = sgcheck::CountingAllocator;

#[cfg(not(test))]
#[no_mangle]
extern "C" fn main(_argc: c_int, _argv: *const *const c_char) -> c_int {
    std::process::exit(sgcheck::cli::main())
}
