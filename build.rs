//! Links the unwinder statically into the `sgcheck` binary where the C toolchain has
//! it (`libgcc_eh.a`, with GNU libc on Linux), so the binary does not load
//! `libgcc_s.so` at start-up: `sgcheck solve` on a small contest input then starts as
//! fast as a C program (loading `libgcc_s` costs about a tenth of a millisecond, its
//! start-up code querying the processor's features). Where the archive is not found,
//! nothing changes.

use std::path::PathBuf;
use std::process::Command;

fn main() {
    println!("cargo::rustc-check-cfg=cfg(sgcheck_static_unwind)");
    println!("cargo::rerun-if-changed=build.rs");
    println!("cargo::rerun-if-env-changed=RUSTC_LINKER");
    let os = std::env::var("CARGO_CFG_TARGET_OS").unwrap_or_default();
    let env = std::env::var("CARGO_CFG_TARGET_ENV").unwrap_or_default();
    if os != "linux" || env != "gnu" || std::env::var("HOST") != std::env::var("TARGET") {
        return;
    }
    let linker = std::env::var("RUSTC_LINKER").unwrap_or_else(|_| "cc".to_string());
    let Ok(out) = Command::new(&linker)
        .arg("-print-file-name=libgcc_eh.a")
        .output()
    else {
        return;
    };
    let path = PathBuf::from(String::from_utf8_lossy(&out.stdout).trim());
    // A compiler that does not know the file prints its bare name back.
    if !out.status.success() || !path.is_absolute() || !path.is_file() {
        return;
    }
    if let Some(dir) = path.parent() {
        println!("cargo::rustc-link-search=native={}", dir.display());
        println!("cargo::rustc-cfg=sgcheck_static_unwind");
    }
}
