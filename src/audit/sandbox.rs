//! Containment of one run: what happens between `fork` and `exec`, and how sgcheck
//! watches and ends the processes of a run.
//!
//! Every run gets a **supervisor**, a forked copy of sgcheck that never execs:
//!
//! - With PID namespaces (Linux, when `unshare(CLONE_NEWPID)` is allowed: as root, or
//!   with user namespaces), the spawned child calls `unshare(CLONE_NEWPID)` and forks
//!   the supervisor, which is process 1 of a fresh namespace; the supervisor forks the
//!   program. When the program ends, the supervisor reports its status and exits, and
//!   the kernel kills every process left in the namespace, whatever session, process
//!   group or parent it has. Nothing in the namespace can signal the supervisor.
//! - Without them (the portable fallback), the spawned child is itself the supervisor:
//!   a child subreaper (`PR_SET_CHILD_SUBREAPER`), so that orphans of the program
//!   (double forks, `setsid`) are adopted by it; when the program ends, or on SIGTERM
//!   from sgcheck, it kills every descendant it finds in `/proc` until none is left.
//!
//! Every process between sgcheck and the program has `PR_SET_PDEATHSIG(SIGKILL)`, so a
//! SIGKILL of sgcheck takes the supervisor with it, and with the supervisor the
//! namespace. The supervisor writes the program's wait status and peak memory
//! (`ru_maxrss`) into a pipe for sgcheck.
//!
//! The code that runs between `fork` and `exec` may only make async-signal-safe calls
//! (sgcheck is multi-threaded): plain system calls, no allocation, no locks.

use std::io;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::OnceLock;

/// How the runs of this process are contained.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Containment {
    /// A PID namespace per run: the kernel kills everything a run started when its
    /// program ends, and when sgcheck is killed.
    PidNamespace,
    /// A subreaper supervisor per run, which kills every descendant it can find.
    Subreaper,
}

impl Containment {
    /// A short name for reports: `pid-namespace` or `subreaper`.
    pub fn name(self) -> &'static str {
        match self {
            Containment::PidNamespace => "pid-namespace",
            Containment::Subreaper => "subreaper",
        }
    }
}

/// The environment variable that forces the fallback (`subreaper`), for testing it
/// where namespaces work.
pub const CONTAINMENT_ENV: &str = "SGCHECK_CONTAINMENT";

/// The containment this process uses: a PID namespace per run when the kernel allows
/// it (probed once, by a forked child), else the subreaper fallback. Setting the
/// environment variable `SGCHECK_CONTAINMENT=subreaper` forces the fallback.
pub fn containment() -> Containment {
    static MODE: OnceLock<Containment> = OnceLock::new();
    *MODE.get_or_init(|| {
        if std::env::var(CONTAINMENT_ENV).is_ok_and(|v| v == "subreaper") {
            return Containment::Subreaper;
        }
        if probe_namespace() {
            Containment::PidNamespace
        } else {
            Containment::Subreaper
        }
    })
}

/// Whether a forked child may create a PID namespace and fork into it.
fn probe_namespace() -> bool {
    // SAFETY: the child makes only async-signal-safe calls and always `_exit`s.
    unsafe {
        let pid = libc::fork();
        if pid < 0 {
            return false;
        }
        if pid == 0 {
            if libc::unshare(libc::CLONE_NEWPID) != 0 {
                libc::_exit(1);
            }
            let inner = libc::fork();
            if inner < 0 {
                libc::_exit(1);
            }
            if inner == 0 {
                libc::_exit(0);
            }
            let mut st = 0;
            while libc::waitpid(inner, &mut st, 0) < 0 {
                if *libc::__errno_location() != libc::EINTR {
                    libc::_exit(1);
                }
            }
            libc::_exit(if libc::WIFEXITED(st) && libc::WEXITSTATUS(st) == 0 {
                0
            } else {
                1
            });
        }
        let mut st = 0;
        while libc::waitpid(pid, &mut st, 0) < 0 {
            if io::Error::last_os_error().kind() != io::ErrorKind::Interrupted {
                return false;
            }
        }
        libc::WIFEXITED(st) && libc::WEXITSTATUS(st) == 0
    }
}

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

const REPORT_LEN: usize = 16;

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
        let mut fds = [0i32; 2];
        // SAFETY: pipe2 fills the two-element array.
        if unsafe { libc::pipe2(fds.as_mut_ptr(), libc::O_CLOEXEC) } != 0 {
            return Err(io::Error::last_os_error());
        }
        // SAFETY: both descriptors were just created and are owned by nobody else.
        Ok(unsafe {
            ReportPipe {
                read: OwnedFd::from_raw_fd(fds[0]),
                write: Some(OwnedFd::from_raw_fd(fds[1])),
            }
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
            // SAFETY: reading into the live local buffer, within its bounds.
            let r = unsafe {
                libc::read(
                    self.read.as_raw_fd(),
                    buf[got..].as_mut_ptr() as *mut libc::c_void,
                    REPORT_LEN - got,
                )
            };
            if r > 0 {
                got += r as usize;
            } else if r < 0 && io::Error::last_os_error().kind() == io::ErrorKind::Interrupted {
                continue;
            } else {
                break;
            }
        }
        (got == REPORT_LEN).then(|| Report::decode(&buf))
    }
}

/// What the child does between `fork` and `exec` (see the module documentation).
#[derive(Clone, Copy, Debug)]
pub(crate) struct ChildPlan {
    pub mode: Containment,
    /// Write end of the [`ReportPipe`].
    pub report_fd: i32,
    /// sgcheck's pid: if the child's parent is already another, sgcheck is gone.
    pub parent: i32,
    /// `RLIMIT_STACK` of the program, when not the inherited one.
    pub stack: Option<u64>,
}

/// Set by the fallback supervisor's SIGTERM handler: kill everything and report.
static STOP: AtomicBool = AtomicBool::new(false);

extern "C" fn on_stop(_: libc::c_int) {
    STOP.store(true, Ordering::SeqCst);
}

fn errno() -> i32 {
    io::Error::last_os_error().raw_os_error().unwrap_or(0)
}

/// Closes every descriptor except `keep` (all of them when `keep < 0`).
///
/// # Safety
/// Only between fork and exec, in a process that owns nothing else.
unsafe fn close_fds_except(keep: i32) {
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
            let mut rl: libc::rlimit = std::mem::zeroed();
            let top = if libc::getrlimit(libc::RLIMIT_NOFILE, &mut rl) == 0 {
                rl.rlim_cur.min(1 << 16) as u32
            } else {
                1024
            };
            let mut fd = lo;
            while fd < top && fd <= hi {
                libc::close(fd as i32);
                fd += 1;
            }
        }
    }
}

/// Sets a signal's disposition.
///
/// # Safety
/// `handler` is `SIG_DFL`, `SIG_IGN` or an async-signal-safe `extern "C" fn(c_int)`.
unsafe fn set_handler(sig: i32, handler: libc::sighandler_t) {
    let mut sa: libc::sigaction = std::mem::zeroed();
    sa.sa_sigaction = handler;
    // No SA_RESTART: the supervisor's wait must return EINTR on SIGTERM.
    sa.sa_flags = 0;
    libc::sigemptyset(&mut sa.sa_mask);
    libc::sigaction(sig, &sa, std::ptr::null_mut());
}

/// The `pre_exec` hook of a run. Returns `Ok` only in the process that is to become
/// the program; the supervisor (and, with namespaces, the relay between sgcheck and
/// the namespace) never return.
///
/// # Safety
/// Only in a `pre_exec` hook: after `fork`, before `exec`.
pub(crate) unsafe fn child_setup(plan: &ChildPlan) -> io::Result<()> {
    if libc::prctl(
        libc::PR_SET_PDEATHSIG,
        libc::SIGKILL as libc::c_ulong,
        0,
        0,
        0,
    ) != 0
    {
        return Err(io::Error::last_os_error());
    }
    if libc::getppid() != plan.parent {
        // sgcheck died between the fork and the prctl.
        libc::_exit(125);
    }
    // Inherited from sgcheck: its interrupt handler must not run here.
    for sig in [libc::SIGINT, libc::SIGTERM, libc::SIGHUP] {
        set_handler(sig, libc::SIG_DFL);
    }
    let no_core = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    libc::setrlimit(libc::RLIMIT_CORE, &no_core);
    if let Some(bytes) = plan.stack {
        let mut rl: libc::rlimit = std::mem::zeroed();
        libc::getrlimit(libc::RLIMIT_STACK, &mut rl);
        rl.rlim_cur = bytes as libc::rlim_t;
        if rl.rlim_max != libc::RLIM_INFINITY && rl.rlim_max < rl.rlim_cur {
            rl.rlim_max = rl.rlim_cur;
        }
        if libc::setrlimit(libc::RLIMIT_STACK, &rl) != 0 {
            return Err(io::Error::last_os_error());
        }
    }
    match plan.mode {
        Containment::PidNamespace => {
            if libc::unshare(libc::CLONE_NEWPID) != 0 {
                return Err(io::Error::last_os_error());
            }
            let init = libc::fork();
            if init < 0 {
                return Err(io::Error::last_os_error());
            }
            if init > 0 {
                // The relay: holds no descriptor (so sgcheck's spawn returns and the
                // program's pipes close with it) and lives as long as the namespace.
                close_fds_except(-1);
                let mut st = 0;
                while libc::waitpid(init, &mut st, 0) < 0 && errno() == libc::EINTR {}
                libc::_exit(0);
            }
            // Process 1 of the namespace; dies with the relay.
            libc::prctl(
                libc::PR_SET_PDEATHSIG,
                libc::SIGKILL as libc::c_ulong,
                0,
                0,
                0,
            );
        }
        Containment::Subreaper => {
            if libc::prctl(libc::PR_SET_CHILD_SUBREAPER, 1 as libc::c_ulong, 0, 0, 0) != 0 {
                return Err(io::Error::last_os_error());
            }
            set_handler(
                libc::SIGTERM,
                on_stop as extern "C" fn(libc::c_int) as usize,
            );
            // When sgcheck dies, clean up (SIGTERM is a stop request) rather than die.
            libc::prctl(
                libc::PR_SET_PDEATHSIG,
                libc::SIGTERM as libc::c_ulong,
                0,
                0,
                0,
            );
            if libc::getppid() != plan.parent {
                libc::_exit(125);
            }
        }
    }
    supervise(plan)
}

/// Forks the program (returns `Ok` in it), then waits for it, reaping orphans, and
/// reports.
unsafe fn supervise(plan: &ChildPlan) -> io::Result<()> {
    let me = libc::getpid();
    let program = libc::fork();
    if program < 0 {
        return Err(io::Error::last_os_error());
    }
    if program == 0 {
        if plan.mode == Containment::Subreaper {
            set_handler(libc::SIGTERM, libc::SIG_DFL);
            libc::prctl(
                libc::PR_SET_PDEATHSIG,
                libc::SIGKILL as libc::c_ulong,
                0,
                0,
                0,
            );
            if libc::getppid() != me {
                libc::_exit(125);
            }
        }
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
    libc::write(
        plan.report_fd,
        buf.as_ptr() as *const libc::c_void,
        REPORT_LEN,
    );
    // With a namespace, this exit kills everything left in it.
    libc::_exit(0)
}

/// SIGKILLs every child of the calling (single-threaded) process, read from
/// `/proc/thread-self/children`. Async-signal-safe.
unsafe fn kill_children() {
    let path = b"/proc/thread-self/children\0";
    let fd = libc::open(
        path.as_ptr() as *const libc::c_char,
        libc::O_RDONLY | libc::O_CLOEXEC,
    );
    if fd < 0 {
        return;
    }
    let mut buf = [0u8; 4096];
    let mut pid: i32 = 0;
    let mut in_number = false;
    loop {
        let n = libc::read(fd, buf.as_mut_ptr() as *mut libc::c_void, buf.len());
        if n <= 0 {
            break;
        }
        for &b in &buf[..n as usize] {
            if b.is_ascii_digit() {
                pid = pid.saturating_mul(10).saturating_add(i32::from(b - b'0'));
                in_number = true;
            } else if in_number {
                libc::kill(pid, libc::SIGKILL);
                pid = 0;
                in_number = false;
            }
        }
    }
    if in_number && pid > 0 {
        libc::kill(pid, libc::SIGKILL);
    }
    libc::close(fd);
}

// ---------------------------------------------------------------------------------
// Watching a run from sgcheck (ordinary code: allocation is fine here).

/// The direct children of `pid` (over all its threads), from `/proc`.
pub fn children(pid: i32) -> Vec<i32> {
    let mut out = Vec::new();
    let Ok(tasks) = std::fs::read_dir(format!("/proc/{pid}/task")) else {
        return out;
    };
    for t in tasks.flatten() {
        let path = t.path().join("children");
        if let Ok(s) = std::fs::read_to_string(path) {
            out.extend(
                s.split_ascii_whitespace()
                    .filter_map(|w| w.parse::<i32>().ok()),
            );
        }
    }
    out
}

/// Every descendant of `root` (not `root` itself), at most `cap` of them.
pub fn descendants(root: i32, cap: usize) -> Vec<i32> {
    let mut out = Vec::new();
    let mut next = 0;
    let mut frontier = vec![root];
    while let Some(p) = frontier.pop() {
        for c in children(p) {
            if out.len() >= cap {
                return out;
            }
            out.push(c);
            frontier.push(c);
        }
        next += 1;
        if next > cap + 1 {
            break;
        }
    }
    out
}

/// Resident memory now and at its peak (`VmRSS`, `VmHWM`), in bytes; `None` for a
/// process that is gone (or a zombie, which has no memory).
pub fn memory(pid: i32) -> Option<(u64, u64)> {
    let s = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let field = |name: &str| -> Option<u64> {
        let line = s.lines().find(|l| l.starts_with(name))?;
        let kb: u64 = line[name.len()..]
            .trim()
            .trim_end_matches("kB")
            .trim()
            .parse()
            .ok()?;
        Some(kb * 1024)
    };
    Some((field("VmRSS:")?, field("VmHWM:")?))
}

/// What a look at a running run found.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Sample {
    /// Processes under the supervisor (the program and everything it started).
    pub processes: usize,
    /// Their resident memory, summed.
    pub rss: u64,
    /// The largest peak resident memory of one of them.
    pub peak: u64,
}

/// Looks at everything under `supervisor`, counting at most `cap + 1` processes.
pub(crate) fn sample(supervisor: i32, cap: usize) -> Sample {
    let procs = descendants(supervisor, cap.saturating_add(1));
    let mut s = Sample {
        processes: procs.len(),
        ..Sample::default()
    };
    for p in procs {
        if let Some((rss, peak)) = memory(p) {
            s.rss += rss;
            s.peak = s.peak.max(peak);
        }
    }
    s
}

/// Resident memory of sgcheck itself, in bytes: what a forked child starts with.
pub(crate) fn own_rss() -> u64 {
    memory(std::process::id() as i32).map_or(0, |(rss, _)| rss)
}

/// A pidfd for `pid` (Linux 5.3+), which polls readable when the process exits and
/// signals exactly that process, never a later one with the same number.
pub(crate) fn pidfd_open(pid: i32) -> Option<OwnedFd> {
    // SAFETY: plain syscall; failure (old kernel, seccomp) returns -1.
    let fd = unsafe { libc::syscall(libc::SYS_pidfd_open, pid, 0) };
    // SAFETY: a fresh descriptor owned by nobody else.
    (fd >= 0).then(|| unsafe { OwnedFd::from_raw_fd(fd as i32) })
}

/// Sends `sig` through a pidfd; false when that fails (the process is gone).
pub(crate) fn pidfd_kill(fd: &OwnedFd, sig: i32) -> bool {
    // SAFETY: plain syscall on a descriptor we own.
    unsafe {
        libc::syscall(
            libc::SYS_pidfd_send_signal,
            fd.as_raw_fd(),
            sig,
            std::ptr::null::<libc::siginfo_t>(),
            0,
        ) == 0
    }
}
