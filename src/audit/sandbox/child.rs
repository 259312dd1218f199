//! Between fork and exec: the supervisor (process 1 of the run's namespaces, or a
//! subreaper), its report to sgcheck, and the program's own setup. Everything here
//! is async-signal-safe.

use super::*;

/// What the supervisor reports when a run is over.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Report {
    /// The program's wait status (as `waitpid` gives it), or [`EXEC_FAILED`].
    pub status: i32,
    /// Why the program could not be started (with [`EXEC_FAILED`]).
    pub errno: i32,
    /// [`RETIRING`] when the supervisor takes no more runs.
    pub flags: u32,
    /// Largest `ru_maxrss` (bytes) of the program and every process the supervisor
    /// reaped. It includes the supervisor's own memory, which the program shared
    /// until its `exec`, so it only tells something when it is larger than that.
    pub max_rss: u64,
    /// CPU time (user and system, nanoseconds) of every process of the run the
    /// supervisor reaped, with the children each of them waited for.
    pub cpu_ns: u64,
}

pub(crate) const REPORT_LEN: usize = 32;

impl Report {
    fn decode(b: &[u8; REPORT_LEN]) -> Report {
        let word = |at: usize| {
            let mut s = [0u8; 4];
            s.copy_from_slice(&b[at..at + 4]);
            s
        };
        let long = |at: usize| {
            let mut m = [0u8; 8];
            m.copy_from_slice(&b[at..at + 8]);
            u64::from_ne_bytes(m)
        };
        Report {
            status: i32::from_ne_bytes(word(0)),
            errno: i32::from_ne_bytes(word(4)),
            flags: u32::from_ne_bytes(word(8)),
            max_rss: long(16),
            cpu_ns: long(24),
        }
    }
}

/// The pipe the supervisor reports through.
pub(crate) struct ReportPipe {
    read: OwnedFd,
    write: Option<OwnedFd>,
}

impl ReportPipe {
    /// A close-on-exec pipe: the program never sees it.
    pub fn new() -> io::Result<ReportPipe> {
        let (read, write) =
            rustix::pipe::pipe_with(rustix::pipe::PipeFlags::CLOEXEC).map_err(errno_of)?;
        Ok(ReportPipe {
            read,
            write: Some(write),
        })
    }

    /// The write end, to hand to the supervisor.
    pub fn write_end(&self) -> Option<BorrowedFd<'_>> {
        self.write.as_ref().map(|w| w.as_fd())
    }

    /// The read end, to poll.
    pub fn read_end(&self) -> &OwnedFd {
        &self.read
    }

    /// Closes sgcheck's copy of the write end (after the spawn).
    pub fn close_write(&mut self) {
        self.write = None;
    }

    /// The report, once every writer is gone (the supervisor has exited); `None` when
    /// it was killed before reporting.
    pub fn take(&self) -> Option<Report> {
        let mut buf = [0u8; REPORT_LEN];
        let mut got = 0;
        while got < REPORT_LEN {
            match rustix::io::read(&self.read, &mut buf[got..]) {
                Ok(0) => break,
                Ok(n) => got += n,
                Err(rustix::io::Errno::INTR) => continue,
                Err(_) => break,
            }
        }
        (got == REPORT_LEN).then(|| Report::decode(&buf))
    }
}

/// What the child does between `fork` and `exec`: it becomes a slot (see the module
/// documentation).
#[derive(Debug)]
pub(crate) struct ChildPlan {
    pub mode: Containment,
    /// sgcheck's pid: if the child's parent is already another, sgcheck is gone.
    pub parent: i32,
    /// The uid and gid the programs run as, when not the caller's.
    pub run_as: Option<u32>,
    /// The network namespace to join (namespaces).
    pub net: Option<RawFd>,
    /// The runs' file system (namespaces).
    pub fs: Option<FsPlan>,
    /// The runs' working directory (fallback; with namespaces it is in `fs`).
    pub cwd: Option<CString>,
    /// The slot's socket and memory.
    pub slot: Option<SlotPlan>,
}

/// Set by the fallback supervisor's SIGTERM handler: kill everything and report.
pub(crate) static STOP: AtomicBool = AtomicBool::new(false);

extern "C" fn on_stop(_: libc::c_int) {
    STOP.store(true, Ordering::SeqCst);
}

/// Closes every descriptor except those in `keep` (sorted; negative ones ignored).
///
/// # Safety
/// Only in a child of sgcheck that owns nothing else (the relay, a slot).
pub(crate) unsafe fn close_fds_keeping(keep: &[i32]) {
    let mut lo: u32 = 0;
    let close = |lo: u32, hi: u32| {
        if lo > hi {
            return;
        }
        // SAFETY: close_range(2) takes no pointers; rustix has no wrapper for it.
        if libc::syscall(libc::SYS_close_range, lo, hi, 0) != 0 {
            // Older kernels: close one by one, up to a sane bound.
            let top = rustix::process::getrlimit(Resource::Nofile)
                .current
                .unwrap_or(1024)
                .min(1 << 16) as u32;
            let mut fd = lo;
            while fd < top && fd <= hi {
                // SAFETY: this process owns every descriptor but the kept ones.
                rustix::io::close(fd as i32);
                fd += 1;
            }
        }
    };
    for &k in keep {
        if k < 0 || (k as u32) < lo {
            continue;
        }
        if k as u32 > lo {
            close(lo, k as u32 - 1);
        }
        lo = k as u32 + 1;
    }
    close(lo, u32::MAX);
}

/// Marks every descriptor from 3 up close-on-exec, so that the program starts with
/// 0, 1 and 2 only (the spawner's own close-on-exec pipe still reports a failed exec).
pub(crate) fn cloexec_from_3() {
    // SAFETY: close_range with CLOSE_RANGE_CLOEXEC only sets flags; no safe wrapper.
    let rc = unsafe {
        libc::syscall(
            libc::SYS_close_range,
            3u32,
            u32::MAX,
            libc::CLOSE_RANGE_CLOEXEC,
        )
    };
    if rc != 0 {
        let top = rustix::process::getrlimit(Resource::Nofile)
            .current
            .unwrap_or(1024)
            .min(1 << 16) as i32;
        for fd in 3..top {
            // SAFETY: a descriptor number that may or may not be open; fcntl on a
            // closed one only fails with EBADF.
            unsafe {
                libc::fcntl(fd, libc::F_SETFD, libc::FD_CLOEXEC);
            }
        }
    }
}

/// Sets a signal's disposition.
///
/// # Safety
/// `handler` is `SIG_DFL`, `SIG_IGN` or an async-signal-safe `extern "C" fn(c_int)`.
pub(crate) unsafe fn set_handler(sig: i32, handler: libc::sighandler_t) {
    let mut sa: libc::sigaction = std::mem::zeroed();
    sa.sa_sigaction = handler;
    // No SA_RESTART: the supervisor's wait must return EINTR on SIGTERM.
    sa.sa_flags = 0;
    libc::sigemptyset(&mut sa.sa_mask);
    libc::sigaction(sig, &sa, std::ptr::null_mut());
}

pub(crate) fn parent_death_signal(sig: Signal) -> io::Result<()> {
    rustix::process::set_parent_process_death_signal(Some(sig)).map_err(errno_of)
}

pub(crate) fn exit_now(code: i32) -> ! {
    // SAFETY: _exit ends the process without running anything of the parent's.
    unsafe { libc::_exit(code) }
}

/// The `pre_exec` hook that starts a slot. Never returns in the slot (nor, with
/// namespaces, in the relay between sgcheck and the namespace): it only returns an
/// error, which the spawn reports.
///
/// # Safety
/// Only in a `pre_exec` hook: after `fork`, before `exec`.
pub(crate) unsafe fn child_setup(plan: &mut ChildPlan) -> io::Result<()> {
    parent_death_signal(Signal::KILL)?;
    if rustix::process::getppid().map_or(0, |p| p.as_raw_nonzero().get()) != plan.parent {
        // sgcheck died between the fork and the prctl.
        exit_now(125);
    }
    // Inherited from sgcheck: its interrupt handler must not run here.
    for sig in [libc::SIGINT, libc::SIGTERM, libc::SIGHUP] {
        set_handler(sig, libc::SIG_DFL);
    }
    let _ = rustix::process::setrlimit(
        Resource::Core,
        Rlimit {
            current: Some(0),
            maximum: Some(0),
        },
    );
    match plan.mode {
        Containment::Namespaces => {
            use rustix::thread::UnshareFlags;
            let mut flags = UnshareFlags::NEWPID | UnshareFlags::NEWNS | UnshareFlags::NEWIPC;
            match plan.net {
                Some(fd) => rustix::thread::move_into_link_name_space(
                    BorrowedFd::borrow_raw(fd),
                    Some(rustix::thread::LinkNameSpaceType::Network),
                )
                .map_err(errno_of)?,
                None => flags |= UnshareFlags::NEWNET,
            }
            // No CLONE_FILES: this single-threaded child shares no descriptor table.
            rustix::thread::unshare_unsafe(flags).map_err(errno_of)?;
            // SAFETY: fork in a single-threaded child; both sides make only
            // async-signal-safe calls.
            let init = libc::fork();
            if init < 0 {
                return Err(io::Error::last_os_error());
            }
            if init > 0 {
                // The relay: holds no descriptor (so sgcheck's spawn returns) and
                // lives as long as the namespace.
                close_fds_keeping(&[]);
                if let Some(pid) = rustix::process::Pid::from_raw(init) {
                    wait_for(pid);
                }
                exit_now(0);
            }
            // Process 1 of the namespace; dies with the relay.
            parent_death_signal(Signal::KILL)?;
            if let Some(fs) = &plan.fs {
                let watched = build_fs(fs, plan.run_as)?;
                if let Some(slot) = plan.slot.as_mut() {
                    slot.watched = watched;
                }
            }
        }
        Containment::Subreaper => {
            rustix::process::set_child_subreaper(rustix::process::getpid().into())
                .map_err(errno_of)?;
            set_handler(
                libc::SIGTERM,
                on_stop as extern "C" fn(libc::c_int) as usize,
            );
            // When sgcheck dies, clean up (SIGTERM is a stop request) rather than die.
            parent_death_signal(Signal::TERM)?;
            if rustix::process::getppid().map_or(0, |p| p.as_raw_nonzero().get()) != plan.parent {
                exit_now(125);
            }
        }
    }
    slot::serve(plan)
}

/// What the program's process does before its `exec` (after the slot's clone).
pub(crate) fn program_setup(plan: &ChildPlan, file_limit: Option<u64>) -> io::Result<()> {
    if let Some(bytes) = file_limit {
        rustix::process::setrlimit(
            Resource::Fsize,
            Rlimit {
                current: Some(bytes),
                maximum: Some(bytes),
            },
        )
        .map_err(errno_of)?;
    }
    if let Some(fs) = &plan.fs {
        // The working directory as mounted (the overlay), not the one underneath.
        rustix::process::chdir(fs.cwd.as_c_str()).map_err(errno_of)?;
    } else if let Some(dir) = &plan.cwd {
        rustix::process::chdir(dir.as_c_str()).map_err(errno_of)?;
    }
    if let Some(id) = plan.run_as {
        // The fallback has no file system of its own to open closed directories
        // with: the program keeps the right to read and search every directory
        // (CAP_DAC_READ_SEARCH, as an ambient capability), and nothing else of root's.
        let read_anywhere = plan.fs.is_none();
        if read_anywhere {
            rustix::thread::set_keep_capabilities(true).map_err(errno_of)?;
        }
        rustix::thread::set_thread_groups(&[]).map_err(errno_of)?;
        rustix::thread::set_thread_res_gid(Gid::from_raw(id), Gid::from_raw(id), Gid::from_raw(id))
            .map_err(errno_of)?;
        rustix::thread::set_thread_res_uid(Uid::from_raw(id), Uid::from_raw(id), Uid::from_raw(id))
            .map_err(errno_of)?;
        if read_anywhere {
            use rustix::thread::{CapabilitySet, CapabilitySets};
            let only = CapabilitySet::DAC_READ_SEARCH;
            rustix::thread::set_capabilities(
                None,
                CapabilitySets {
                    effective: only,
                    permitted: only,
                    inheritable: only,
                },
            )
            .map_err(errno_of)?;
            rustix::thread::configure_capability_in_ambient_set(only, true).map_err(errno_of)?;
        }
    }
    rustix::thread::set_no_new_privs(true).map_err(errno_of)?;
    lock_limits();
    close_keyrings()?;
    cloexec_from_3();
    Ok(())
}

/// Sets the hard limit of every resource a program could otherwise raise for itself
/// to its soft limit: stack, file size, descriptors, processes, address space, data,
/// locked memory, message queues and core files (the CPU limit, a backstop, is set
/// with its own hard limit). Async-signal-safe.
pub(crate) fn lock_limits() {
    for r in [
        Resource::Stack,
        Resource::Fsize,
        Resource::Nofile,
        Resource::Nproc,
        Resource::As,
        Resource::Data,
        Resource::Memlock,
        Resource::Msgqueue,
        Resource::Core,
    ] {
        let mut rl = rustix::process::getrlimit(r);
        if rl.maximum != rl.current {
            rl.maximum = rl.current;
            let _ = rustix::process::setrlimit(r, rl);
        }
    }
}

pub(crate) fn errno() -> i32 {
    io::Error::last_os_error().raw_os_error().unwrap_or(0)
}

/// SIGKILLs every child of the calling (single-threaded) process, read from
/// `/proc/thread-self/children`. Async-signal-safe.
pub(crate) fn kill_children() {
    let Ok(fd) = rustix::fs::open(
        c"/proc/thread-self/children",
        rustix::fs::OFlags::RDONLY | rustix::fs::OFlags::CLOEXEC,
        Mode::empty(),
    ) else {
        return;
    };
    let kill = |pid: i32| {
        if let Some(p) = rustix::process::Pid::from_raw(pid) {
            let _ = rustix::process::kill_process(p, Signal::KILL);
        }
    };
    let mut buf = [0u8; 4096];
    let mut pid: i32 = 0;
    let mut in_number = false;
    while let Ok(n @ 1..) = rustix::io::read(&fd, &mut buf) {
        for &b in &buf[..n] {
            if b.is_ascii_digit() {
                pid = pid.saturating_mul(10).saturating_add(i32::from(b - b'0'));
                in_number = true;
            } else if in_number {
                kill(pid);
                pid = 0;
                in_number = false;
            }
        }
    }
    if in_number && pid > 0 {
        kill(pid);
    }
}
