//! Between fork and exec: the supervisor (process 1 of the run's namespaces, or a
//! subreaper), its report to sgcheck, and the program's own setup. Everything here
//! is async-signal-safe.

use super::*;

/// What the supervisor reports when the program has ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Report {
    /// The program's wait status (as `waitpid` gives it).
    pub status: i32,
    /// Largest `ru_maxrss` (bytes) of the program and every process the supervisor
    /// reaped. It includes the memory the program inherited from sgcheck before its
    /// `exec`, so it only tells something when it is larger than that.
    pub max_rss: u64,
}

pub(crate) const REPORT_LEN: usize = 16;

impl Report {
    fn decode(b: &[u8; REPORT_LEN]) -> Report {
        let mut s = [0u8; 4];
        s.copy_from_slice(&b[0..4]);
        let mut m = [0u8; 8];
        m.copy_from_slice(&b[8..16]);
        Report {
            status: i32::from_ne_bytes(s),
            max_rss: u64::from_ne_bytes(m),
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

    /// The write end's number, for the child.
    pub fn write_fd(&self) -> i32 {
        self.write.as_ref().map_or(-1, |w| w.as_raw_fd())
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

/// What the child does between `fork` and `exec` (see the module documentation).
#[derive(Debug)]
pub(crate) struct ChildPlan {
    pub mode: Containment,
    /// Write end of the [`ReportPipe`].
    pub report_fd: RawFd,
    /// sgcheck's pid: if the child's parent is already another, sgcheck is gone.
    pub parent: i32,
    /// `RLIMIT_STACK` of the program, when not the inherited one.
    pub stack: Option<u64>,
    /// `RLIMIT_FSIZE` of the program.
    pub file_limit: Option<u64>,
    /// The uid and gid the program runs as, when not the caller's.
    pub run_as: Option<u32>,
    /// The network namespace to join (namespaces).
    pub net: Option<RawFd>,
    /// The run's file system (namespaces).
    pub fs: Option<FsPlan>,
    /// `cgroup.procs` of the run's memory cgroup, joined first.
    pub cgroup_procs: Option<RawFd>,
}

/// Set by the fallback supervisor's SIGTERM handler: kill everything and report.
pub(crate) static STOP: AtomicBool = AtomicBool::new(false);

extern "C" fn on_stop(_: libc::c_int) {
    STOP.store(true, Ordering::SeqCst);
}

/// Closes every descriptor except `keep` (all of them when `keep < 0`).
///
/// # Safety
/// Only between fork and exec, in a process that owns nothing else.
pub(crate) unsafe fn close_fds_except(keep: i32) {
    let ranges: [(u32, u32); 2] = if keep >= 0 {
        [
            (0, (keep as u32).wrapping_sub(1)),
            (keep as u32 + 1, u32::MAX),
        ]
    } else {
        [(0, u32::MAX), (1, 0)]
    };
    for (lo, hi) in ranges {
        if lo > hi {
            continue;
        }
        if libc::syscall(libc::SYS_close_range, lo, hi, 0) != 0 {
            // Older kernels: close one by one, up to a sane bound.
            let top = rustix::process::getrlimit(Resource::Nofile)
                .current
                .unwrap_or(1024)
                .min(1 << 16) as u32;
            let mut fd = lo;
            while fd < top && fd <= hi {
                libc::close(fd as i32);
                fd += 1;
            }
        }
    }
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

/// The `pre_exec` hook of a run. Returns `Ok` only in the process that is to become
/// the program; the supervisor (and, with namespaces, the relay between sgcheck and
/// the namespace) never return.
///
/// # Safety
/// Only in a `pre_exec` hook: after `fork`, before `exec`.
pub(crate) unsafe fn child_setup(plan: &ChildPlan) -> io::Result<()> {
    parent_death_signal(Signal::KILL)?;
    if let Some(fd) = plan.cgroup_procs {
        // Everything this child starts is in the run's memory cgroup.
        rustix::io::write(BorrowedFd::borrow_raw(fd), b"0").map_err(errno_of)?;
    }
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
    if let Some(bytes) = plan.stack {
        let mut rl = rustix::process::getrlimit(Resource::Stack);
        rl.current = Some(bytes);
        if rl.maximum.is_some_and(|m| m < bytes) {
            rl.maximum = Some(bytes);
        }
        rustix::process::setrlimit(Resource::Stack, rl).map_err(errno_of)?;
    }
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
            let init = libc::fork();
            if init < 0 {
                return Err(io::Error::last_os_error());
            }
            if init > 0 {
                // The relay: holds no descriptor (so sgcheck's spawn returns and the
                // program's pipes close with it) and lives as long as the namespace.
                close_fds_except(-1);
                if let Some(pid) = rustix::process::Pid::from_raw(init) {
                    wait_for(pid);
                }
                exit_now(0);
            }
            // Process 1 of the namespace; dies with the relay.
            parent_death_signal(Signal::KILL)?;
            if let Some(fs) = &plan.fs {
                build_fs(fs, plan.run_as)?;
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
    supervise(plan)
}

/// What the program's process does before its `exec`.
pub(crate) fn program_setup(plan: &ChildPlan) -> io::Result<()> {
    if let Some(bytes) = plan.file_limit {
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
    }
    if let Some(id) = plan.run_as {
        rustix::thread::set_thread_groups(&[]).map_err(errno_of)?;
        rustix::thread::set_thread_res_gid(Gid::from_raw(id), Gid::from_raw(id), Gid::from_raw(id))
            .map_err(errno_of)?;
        rustix::thread::set_thread_res_uid(Uid::from_raw(id), Uid::from_raw(id), Uid::from_raw(id))
            .map_err(errno_of)?;
    }
    rustix::thread::set_no_new_privs(true).map_err(errno_of)?;
    cloexec_from_3();
    Ok(())
}

/// Forks the program (returns `Ok` in it), then waits for it, reaping orphans, and
/// reports.
///
/// # Safety
/// Only in the supervisor made by [`child_setup`]: a single-threaded fork of sgcheck
/// between `fork` and `exec`, where only async-signal-safe calls may be made (fork,
/// wait4 and write through the plan's descriptors are).
pub(crate) unsafe fn supervise(plan: &ChildPlan) -> io::Result<()> {
    let me = libc::getpid();
    let program = libc::fork();
    if program < 0 {
        return Err(io::Error::last_os_error());
    }
    if program == 0 {
        if plan.mode == Containment::Subreaper {
            set_handler(libc::SIGTERM, libc::SIG_DFL);
        }
        parent_death_signal(Signal::KILL)?;
        if libc::getppid() != me {
            exit_now(125);
        }
        program_setup(plan)?;
        return Ok(());
    }
    close_fds_except(plan.report_fd);
    let mut status = libc::W_EXITCODE(0, libc::SIGKILL);
    let mut max_rss: u64 = 0;
    loop {
        if STOP.load(Ordering::SeqCst) {
            kill_children();
        }
        let mut st = 0;
        let mut ru: libc::rusage = std::mem::zeroed();
        let r = libc::wait4(-1, &mut st, 0, &mut ru);
        if r > 0 {
            max_rss = max_rss.max(ru.ru_maxrss.max(0) as u64 * 1024);
            if r == program {
                status = st;
                break;
            }
        } else if errno() != libc::EINTR {
            break;
        }
    }
    if plan.mode == Containment::Subreaper {
        // Everything the program left behind: adopted orphans and their children.
        loop {
            kill_children();
            let mut st = 0;
            let r = libc::wait4(-1, &mut st, 0, std::ptr::null_mut());
            if r < 0 && errno() != libc::EINTR {
                break;
            }
        }
    }
    let mut buf = [0u8; REPORT_LEN];
    buf[0..4].copy_from_slice(&status.to_ne_bytes());
    buf[8..16].copy_from_slice(&max_rss.to_ne_bytes());
    let _ = rustix::io::write(BorrowedFd::borrow_raw(plan.report_fd), &buf);
    // With a namespace, this exit kills everything left in it.
    exit_now(0)
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
