//! The seccomp filter of every run: the kernel keyrings are closed.
//!
//! A keyring belongs to a uid, not to a namespace: a key one run adds with `add_key`
//! (its user keyring, as `nobody`) would be found by a later run, in another slot or
//! another audit, and could change its answers. The filter makes `add_key`, `keyctl`
//! and `request_key` fail with `EPERM` (as Docker's default profile does), for the
//! native system calls and for the 32-bit ones a 64-bit program can still make
//! (`int 0x80` on x86-64, AArch32 on AArch64). Nothing else is filtered.
//!
//! The filter is a fixed array built at compile time: installing it in the child
//! between `clone` and `exec` allocates nothing.

use super::*;

const LD_W_ABS: u16 = 0x20; // BPF_LD | BPF_W | BPF_ABS
const JEQ_K: u16 = 0x15; // BPF_JMP | BPF_JEQ | BPF_K
const JGE_K: u16 = 0x35; // BPF_JMP | BPF_JGE | BPF_K
const RET_K: u16 = 0x06; // BPF_RET | BPF_K
const ALLOW: u32 = 0x7fff_0000; // SECCOMP_RET_ALLOW
const DENY: u32 = 0x0005_0000 | libc::EPERM as u32; // SECCOMP_RET_ERRNO | EPERM
/// Offsets in `struct seccomp_data`.
const NR: u32 = 0;
const ARCH: u32 = 4;

const fn op(code: u16, jt: u8, jf: u8, k: u32) -> libc::sock_filter {
    libc::sock_filter { code, jt, jf, k }
}

#[cfg(target_arch = "x86_64")]
const FILTER: [libc::sock_filter; 15] = {
    const X86_64: u32 = 0xC000_003E;
    const I386: u32 = 0x4000_0003;
    [
        op(LD_W_ABS, 0, 0, ARCH),
        op(JEQ_K, 0, 6, X86_64), // else to 8
        op(LD_W_ABS, 0, 0, NR),
        op(JGE_K, 10, 0, 0x4000_0000), // x32 system calls: refused
        op(JEQ_K, 9, 0, 248),          // add_key
        op(JEQ_K, 8, 0, 249),          // request_key
        op(JEQ_K, 7, 0, 250),          // keyctl
        op(RET_K, 0, 0, ALLOW),
        op(JEQ_K, 0, 5, I386), // else refused
        op(LD_W_ABS, 0, 0, NR),
        op(JEQ_K, 3, 0, 286), // add_key
        op(JEQ_K, 2, 0, 287), // request_key
        op(JEQ_K, 1, 0, 288), // keyctl
        op(RET_K, 0, 0, ALLOW),
        op(RET_K, 0, 0, DENY),
    ]
};

#[cfg(target_arch = "aarch64")]
const FILTER: [libc::sock_filter; 14] = {
    const AARCH64: u32 = 0xC000_00B7;
    const ARM: u32 = 0x4000_0028;
    [
        op(LD_W_ABS, 0, 0, ARCH),
        op(JEQ_K, 0, 5, AARCH64), // else to 7
        op(LD_W_ABS, 0, 0, NR),
        op(JEQ_K, 9, 0, 217), // add_key
        op(JEQ_K, 8, 0, 218), // request_key
        op(JEQ_K, 7, 0, 219), // keyctl
        op(RET_K, 0, 0, ALLOW),
        op(JEQ_K, 0, 5, ARM), // else refused
        op(LD_W_ABS, 0, 0, NR),
        op(JEQ_K, 3, 0, 309), // add_key
        op(JEQ_K, 2, 0, 310), // request_key
        op(JEQ_K, 1, 0, 311), // keyctl
        op(RET_K, 0, 0, ALLOW),
        op(RET_K, 0, 0, DENY),
    ]
};

/// Installs the filter in the calling process (after `PR_SET_NO_NEW_PRIVS`). Only
/// x86-64 and AArch64 builds have one; elsewhere the keyrings stay open (the book's
/// containment table says for which builds they are closed). Async-signal-safe.
pub(crate) fn close_keyrings() -> io::Result<()> {
    #[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
    {
        let prog = libc::sock_fprog {
            len: FILTER.len() as u16,
            filter: FILTER.as_ptr() as *mut libc::sock_filter,
        };
        // SAFETY: prctl reads `prog` and the filter it points to (a constant), both
        // alive for the call; the kernel copies the filter.
        let rc = unsafe {
            libc::prctl(
                libc::PR_SET_SECCOMP,
                libc::SECCOMP_MODE_FILTER as libc::c_ulong,
                &prog as *const libc::sock_fprog,
                0,
                0,
            )
        };
        if rc != 0 {
            return Err(io::Error::last_os_error());
        }
    }
    Ok(())
}
