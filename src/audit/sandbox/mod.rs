//! Containment of one run: what happens between `fork` and `exec`, and how sgcheck
//! watches and ends the processes of a run.
//!
//! Every run gets a **supervisor**, a forked copy of sgcheck that never execs:
//!
//! - With namespaces (Linux, as root: `unshare` of PID, mount and IPC namespaces and
//!   `setns` into a network namespace must be allowed; sgcheck probes once), the
//!   spawned child (the *relay*) joins a network namespace with no interface up (one
//!   per parallel run, created once and reused by the next run: nothing of a run lives
//!   on in it once its processes are gone), unshares fresh PID, mount and IPC
//!   namespaces and forks the supervisor, which is process 1 of the PID namespace.
//!   The supervisor builds the run's file system (below), then forks the program. When
//!   the program ends, the supervisor reports its status and exits, and the kernel
//!   kills every process left in the namespace, whatever session, process group or
//!   parent it has, and frees the run's mounts with the namespace. Nothing in the
//!   namespace can signal the supervisor or see anything outside it.
//! - Without them (the portable fallback), the spawned child is itself the supervisor:
//!   a child subreaper (`PR_SET_CHILD_SUBREAPER`), so that orphans of the program
//!   (double forks, `setsid`) are adopted by it; when the program ends, or on SIGTERM
//!   from sgcheck, it kills every descendant it finds in `/proc` until none is left.
//!
//! The file system of a run (namespaces only): every mount read-only
//! (`mount_setattr(MOUNT_ATTR_RDONLY, AT_RECURSIVE)`); one tmpfs for the run (its size
//! bounded) that holds a fresh `/tmp`, a fresh `/dev/shm` and the upper layer of an
//! overlay mounted over the working directory at its own path, so that the program
//! reads the files there and its writes stay private (a compile gets its build
//! directory writable instead); a fresh `/proc` that shows the namespace's processes
//! only. Files named on the command line that lived under the hidden `/tmp` are bound
//! read-only at the same path in the fresh one. Directories closed to others (`/root`,
//! mode 0700) on the way to the program, to `PATH` and to the toolchains are shown
//! read-only with a 0755 top (an overlay whose first layer is empty), so the program,
//! running as `nobody`, reaches its interpreter; their files keep their permissions.
//!
//! In both modes the program gets only descriptors 0, 1 and 2 (everything else is
//! marked close-on-exec), `RLIMIT_FSIZE` from the file limit, `RLIMIT_CPU` at least a
//! second past the CPU time limit (a backstop to sgcheck's watch), hard limits equal to the
//! soft ones (see `lock_limits`), `PR_SET_NO_NEW_PRIVS`, a seccomp filter that
//! closes the kernel keyrings (see `seccomp.rs`),
//! and with namespaces as root the uid and gid 65534 (`nobody`), no supplementary
//! groups. Every process between sgcheck and the program has
//! `PR_SET_PDEATHSIG(SIGKILL)`, so a SIGKILL of sgcheck takes the supervisor with it,
//! and with the supervisor the namespace. The supervisor writes the program's wait
//! status and peak memory (`ru_maxrss`) into a pipe for sgcheck.
//!
//! The code that runs between `fork` and `exec` may only make async-signal-safe calls
//! (sgcheck is multi-threaded): plain system calls, no allocation, no locks. Every
//! path it uses is prepared as a C string before the fork (`FsPlan`).

use rustix::fs::{Gid, Mode, Uid};
use rustix::mount::{MountFlags, MountPropagationFlags};
use rustix::process::{Resource, Rlimit, Signal};
use std::ffi::{CStr, CString};
use std::io;
use std::os::fd::{AsFd, AsRawFd, BorrowedFd, OwnedFd, RawFd};
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::MetadataExt;
use std::path::{Component, Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, OnceLock, PoisonError};

mod netns;
pub(crate) use netns::*;
mod fs;
pub(crate) use fs::*;
mod child;
pub(crate) use child::*;
mod watch;
pub use watch::*;
mod cgroup;
pub use cgroup::*;
mod slot;
pub(crate) use slot::*;
mod seccomp;
pub(crate) use seccomp::*;

/// How the runs of this process are contained.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Containment {
    /// PID, mount and IPC namespaces per run, a network namespace per parallel run
    /// (see the module documentation): the kernel kills everything a run started when
    /// its program ends, and when sgcheck is killed.
    Namespaces,
    /// A subreaper supervisor per run, which kills every descendant it can find. The
    /// program shares the machine's file system, network and `/proc`, and runs as the
    /// caller's uid.
    Subreaper,
}

impl Containment {
    /// A short name for reports: `namespaces` or `subreaper`.
    pub fn name(self) -> &'static str {
        match self {
            Containment::Namespaces => "namespaces",
            Containment::Subreaper => "subreaper",
        }
    }
}

/// The environment variable that forces the fallback (`subreaper`), for testing it
/// where namespaces work.
pub const CONTAINMENT_ENV: &str = "SGCHECK_CONTAINMENT";

/// The uid and gid a program runs as when sgcheck is root and has namespaces
/// (`nobody`).
pub const RUN_UID: u32 = 65534;

/// The directory whose fresh tmpfs holds a run's private files (its `/tmp`, its
/// `/dev/shm`, the upper layer of its working directory) while they are set up.
const STAGE: &CStr = c"/dev/shm";

/// The containment this process uses: namespaces when the kernel allows them (probed
/// once, by a forked child), else the subreaper fallback. Setting the environment
/// variable `SGCHECK_CONTAINMENT=subreaper` forces the fallback.
pub fn containment() -> Containment {
    static MODE: OnceLock<Containment> = OnceLock::new();
    *MODE.get_or_init(|| {
        if std::env::var(CONTAINMENT_ENV).is_ok_and(|v| v == "subreaper") {
            return Containment::Subreaper;
        }
        if probe_namespaces() && net_slot_probe() {
            Containment::Namespaces
        } else {
            Containment::Subreaper
        }
    })
}

fn errno_of(e: rustix::io::Errno) -> io::Error {
    io::Error::from_raw_os_error(e.raw_os_error())
}

/// Waits for a child, retrying on EINTR; its wait status, or `None` on error.
fn wait_for(pid: rustix::process::Pid) -> Option<rustix::process::WaitStatus> {
    loop {
        match rustix::process::waitpid(Some(pid), rustix::process::WaitOptions::empty()) {
            Ok(Some((_, st))) => return Some(st),
            Ok(None) => return None,
            Err(rustix::io::Errno::INTR) => continue,
            Err(_) => return None,
        }
    }
}

/// Whether a forked child may create the namespaces of a run and build a file system
/// in them.
fn probe_namespaces() -> bool {
    // SAFETY: fork in a multi-threaded process: the child makes only async-signal-safe
    // calls (system calls through rustix, no allocation) and always `_exit`s.
    let pid = unsafe { libc::fork() };
    if pid < 0 {
        return false;
    }
    if pid == 0 {
        // SAFETY: the flags do not include CLONE_FILES; this child is single-threaded.
        let ok = unsafe {
            rustix::thread::unshare_unsafe(
                rustix::thread::UnshareFlags::NEWPID
                    | rustix::thread::UnshareFlags::NEWNS
                    | rustix::thread::UnshareFlags::NEWIPC,
            )
        }
        .is_ok();
        if !ok {
            exit_now(1);
        }
        // SAFETY: as above; the grandchild only mounts and exits.
        let inner = unsafe { libc::fork() };
        if inner == 0 {
            let ok = rustix::mount::mount_change(
                c"/",
                MountPropagationFlags::PRIVATE | MountPropagationFlags::REC,
            )
            .is_ok()
                && rustix::mount::mount(c"tmpfs", STAGE, c"tmpfs", MountFlags::empty(), c"size=1m")
                    .is_ok()
                && rustix::mount::mount(c"proc", c"/proc", c"proc", MountFlags::empty(), c"")
                    .is_ok();
            exit_now(if ok { 0 } else { 1 });
        }
        let ok = inner > 0
            && rustix::process::Pid::from_raw(inner)
                .and_then(wait_for)
                .is_some_and(|st| st.exit_status() == Some(0));
        exit_now(if ok { 0 } else { 1 });
    }
    rustix::process::Pid::from_raw(pid)
        .and_then(wait_for)
        .is_some_and(|st| st.exit_status() == Some(0))
}
