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
//! marked close-on-exec), `RLIMIT_FSIZE` from the file limit, `PR_SET_NO_NEW_PRIVS`,
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
            // SAFETY: _exit is always safe to call.
            unsafe { libc::_exit(1) };
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
            // SAFETY: _exit is always safe to call.
            unsafe { libc::_exit(if ok { 0 } else { 1 }) };
        }
        let ok = inner > 0
            && rustix::process::Pid::from_raw(inner)
                .and_then(wait_for)
                .is_some_and(|st| st.exit_status() == Some(0));
        // SAFETY: _exit is always safe to call.
        unsafe { libc::_exit(if ok { 0 } else { 1 }) };
    }
    rustix::process::Pid::from_raw(pid)
        .and_then(wait_for)
        .is_some_and(|st| st.exit_status() == Some(0))
}

// ---------------------------------------------------------------------------------
// Network namespaces, one per parallel run.

/// A network namespace (no interface up: not even the loopback) for one run at a time.
pub(crate) struct NetSlot(OwnedFd);

static NET_SLOTS: Mutex<Vec<NetSlot>> = Mutex::new(Vec::new());

/// A network namespace made by a short-lived thread (a thread may leave the process's
/// network namespace on its own).
fn new_net_slot() -> Option<NetSlot> {
    std::thread::spawn(|| {
        // SAFETY: CLONE_NEWNET only (no CLONE_FILES): it changes this thread's network
        // namespace, which no other thread shares or looks at; the thread ends here.
        unsafe { rustix::thread::unshare_unsafe(rustix::thread::UnshareFlags::NEWNET) }.ok()?;
        let fd = rustix::fs::open(
            c"/proc/thread-self/ns/net",
            rustix::fs::OFlags::RDONLY | rustix::fs::OFlags::CLOEXEC,
            Mode::empty(),
        )
        .ok()?;
        Some(NetSlot(fd))
    })
    .join()
    .ok()
    .flatten()
}

fn net_slot_probe() -> bool {
    match new_net_slot() {
        Some(s) => {
            put_net_slot(s);
            true
        }
        None => false,
    }
}

/// A network namespace no running run uses.
pub(crate) fn take_net_slot() -> Option<NetSlot> {
    let pooled = NET_SLOTS
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .pop();
    pooled.or_else(new_net_slot)
}

/// Gives a network namespace back once every process of its run is gone.
pub(crate) fn put_net_slot(s: NetSlot) {
    NET_SLOTS
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .push(s);
}

impl NetSlot {
    /// The descriptor, for [`ChildPlan::net`].
    pub fn raw(&self) -> RawFd {
        self.0.as_raw_fd()
    }
}

// ---------------------------------------------------------------------------------
// The file system of a run, prepared before the fork.

/// How the working directory appears to the program.
#[derive(Debug)]
enum CwdMount {
    /// An overlay over it, its upper layer in the run's tmpfs: writes stay private.
    Overlay { target: CString, options: CString },
    /// Itself, writable (a compile's build directory).
    Bind { source: CString, target: CString },
    /// Read-only, as everything else.
    Keep,
}

/// Every path and option of a run's file system, as C strings (see the module
/// documentation), so that the child makes no allocation.
#[derive(Debug)]
pub(crate) struct FsPlan {
    stage_options: CString,
    /// Directories to create in the stage, parents first, with their modes.
    dirs: Vec<(CString, u32)>,
    /// The overlay's upper directory, given to the run's uid.
    upper: CString,
    /// Directories closed to others, opened (read-only) with an overlay whose first
    /// layer is the empty `.e` of the stage: (target, options), shallowest first.
    opens: Vec<(CString, CString)>,
    cwd_mount: CwdMount,
    /// Empty files to create in the stage, to bind files onto.
    files: Vec<CString>,
    /// (source, target in the stage): files and directories of the command line that
    /// were under the hidden `/tmp`.
    binds: Vec<(CString, CString)>,
    /// The fresh `/tmp` and `/dev/shm` in the stage.
    tmp: CString,
    shm: CString,
    /// The working directory, entered once everything is mounted.
    pub cwd: CString,
}

fn cstr(p: &Path) -> Option<CString> {
    CString::new(p.as_os_str().as_bytes()).ok()
}

/// A path for a mount option: refused when it holds a character the options give a
/// meaning (`,` `:` `\\` `=`) or a newline.
fn option_path(p: &Path) -> Option<String> {
    let s = p.to_str()?;
    (!s.chars()
        .any(|c| matches!(c, ',' | ':' | '\\' | '=' | '\n')))
    .then(|| s.to_string())
}

/// `p` relative to `/tmp`, when it lies under it (not `/tmp` itself).
fn under_tmp(p: &Path) -> Option<PathBuf> {
    let rel = p.strip_prefix("/tmp").ok()?;
    (!rel.as_os_str().is_empty()).then(|| rel.to_path_buf())
}

/// Whether the path exists under `/dev/shm`, which the run cannot show.
fn under_shm(p: &Path) -> bool {
    p.starts_with("/dev/shm")
}

/// What the plan needs to know to be built.
pub(crate) struct FsRequest<'a> {
    /// The working directory (absolute, canonical).
    pub cwd: &'a Path,
    /// Bind it writable (a compile) instead of an overlay.
    pub writable_cwd: bool,
    /// Paths the program needs: its executable, files named on its command line,
    /// `PATH` and toolchain directories (absolute; missing ones are ignored).
    pub needed: &'a [PathBuf],
    /// Size of the run's tmpfs, in bytes.
    pub size: u64,
    /// Whether the program runs as [`RUN_UID`] (closed directories get opened).
    pub drop_uid: bool,
}

impl FsPlan {
    /// The plan for a run, or `None` when a path cannot be expressed (a NUL byte).
    pub fn new(req: &FsRequest<'_>) -> Option<FsPlan> {
        let stage = Path::new("/dev/shm");
        let in_stage = |rel: &Path| stage.join("t").join(rel);
        let mut dirs: Vec<(PathBuf, u32)> = vec![
            (stage.join("u"), 0o755),
            (stage.join("w"), 0o700),
            (stage.join("t"), 0o1777),
            (stage.join("s"), 0o1777),
            (stage.join(".e"), 0o755),
        ];
        let add_parents = |dirs: &mut Vec<(PathBuf, u32)>, target: &Path| {
            let mut chain: Vec<PathBuf> = target
                .ancestors()
                .skip(1)
                .take_while(|a| a.starts_with(stage.join("t")) && *a != stage.join("t"))
                .map(Path::to_path_buf)
                .collect();
            chain.reverse();
            for d in chain {
                if !dirs.iter().any(|(x, _)| *x == d) {
                    dirs.push((d, 0o755));
                }
            }
        };
        let cwd = req.cwd;
        // Where the working directory is mounted: in the stage when under /tmp.
        let cwd_target = match under_tmp(cwd) {
            Some(rel) => {
                let t = in_stage(&rel);
                add_parents(&mut dirs, &t);
                dirs.push((t.clone(), 0o755));
                Some(t)
            }
            None if under_shm(cwd) => None,
            // The root itself: a mount over it would not be seen (the process's root
            // stays the one below); it stays read-only.
            None if cwd.parent().is_none() => None,
            None => Some(cwd.to_path_buf()),
        };
        let cwd_mount = match (&cwd_target, req.writable_cwd) {
            (None, _) => CwdMount::Keep,
            (Some(t), true) => CwdMount::Bind {
                source: cstr(cwd)?,
                target: cstr(t)?,
            },
            (Some(t), false) => match option_path(cwd) {
                Some(lower) => CwdMount::Overlay {
                    target: cstr(t)?,
                    options: CString::new(format!(
                        "lowerdir={lower},upperdir=/dev/shm/u,workdir=/dev/shm/w"
                    ))
                    .ok()?,
                },
                // A path the options cannot carry: bound read-only where it must be
                // seen.
                None if under_tmp(cwd).is_some() => CwdMount::Bind {
                    source: cstr(cwd)?,
                    target: cstr(t)?,
                },
                None => CwdMount::Keep,
            },
        };
        let mut files = Vec::new();
        let mut binds = Vec::new();
        let mut opens: Vec<PathBuf> = Vec::new();
        for p in req.needed {
            let Ok(meta) = std::fs::metadata(p) else {
                continue;
            };
            if let Some(rel) = under_tmp(p) {
                // Inside a working directory under /tmp: seen through its mount. An
                // ancestor of it: not bound, or it would hide that mount.
                let covered = under_tmp(cwd).is_some() && p.starts_with(cwd);
                if covered || cwd.starts_with(p) {
                    continue;
                }
                let t = in_stage(&rel);
                if dirs.iter().any(|(d, _)| *d == t) || files.contains(&t) {
                    continue;
                }
                add_parents(&mut dirs, &t);
                if meta.is_dir() {
                    dirs.push((t.clone(), 0o755));
                } else {
                    files.push(t.clone());
                }
                binds.push((p.clone(), t));
            } else if req.drop_uid && !under_shm(p) {
                // Directories on the way that others may not enter.
                let mut acc = PathBuf::from("/");
                for c in p.components() {
                    if let Component::Normal(n) = c {
                        acc.push(n);
                        if acc == *p && !meta.is_dir() {
                            break;
                        }
                        let closed = std::fs::metadata(&acc)
                            .is_ok_and(|m| m.is_dir() && m.mode() & 0o001 == 0);
                        if closed && option_path(&acc).is_some() && !opens.contains(&acc) {
                            opens.push(acc.clone());
                        }
                    }
                }
            }
        }
        opens.sort_by_key(|p| p.components().count());
        let opens = opens
            .iter()
            .map(|o| {
                let s = option_path(o)?;
                Some((
                    cstr(o)?,
                    CString::new(format!("lowerdir=/dev/shm/.e:{s}")).ok()?,
                ))
            })
            .collect::<Option<Vec<_>>>()?;
        Some(FsPlan {
            stage_options: CString::new(format!(
                "size={},nr_inodes=65536,mode=0755",
                req.size.max(1 << 20)
            ))
            .ok()?,
            dirs: dirs
                .iter()
                .map(|(d, m)| Some((cstr(d)?, *m)))
                .collect::<Option<Vec<_>>>()?,
            upper: c"/dev/shm/u".to_owned(),
            opens,
            cwd_mount,
            files: files.iter().map(|f| cstr(f)).collect::<Option<Vec<_>>>()?,
            binds: binds
                .iter()
                .map(|(s, t)| Some((cstr(s)?, cstr(t)?)))
                .collect::<Option<Vec<_>>>()?,
            tmp: c"/dev/shm/t".to_owned(),
            shm: c"/dev/shm/s".to_owned(),
            cwd: cstr(cwd)?,
        })
    }
}

/// `mount_setattr(2)`'s argument (no wrapper in rustix or libc's stable API).
#[repr(C)]
struct MountAttr {
    attr_set: u64,
    attr_clr: u64,
    propagation: u64,
    userns_fd: u64,
}

const MOUNT_ATTR_RDONLY: u64 = 1;

/// Builds the run's file system (see the module documentation). Async-signal-safe:
/// system calls on prepared C strings only.
fn build_fs(fs: &FsPlan, owner: Option<u32>) -> io::Result<()> {
    use rustix::mount::{mount, mount_bind, mount_bind_recursive, mount_change, mount_remount};
    mount_change(
        c"/",
        MountPropagationFlags::PRIVATE | MountPropagationFlags::REC,
    )
    .map_err(errno_of)?;
    let attr = MountAttr {
        attr_set: MOUNT_ATTR_RDONLY,
        attr_clr: 0,
        propagation: 0,
        userns_fd: 0,
    };
    // SAFETY: mount_setattr reads `size` bytes of `attr`, a live local of that size;
    // the path is a NUL-terminated literal. No safe wrapper exists.
    let rc = unsafe {
        libc::syscall(
            libc::SYS_mount_setattr,
            libc::AT_FDCWD,
            c"/".as_ptr(),
            libc::AT_RECURSIVE as libc::c_uint,
            &attr as *const MountAttr,
            std::mem::size_of::<MountAttr>(),
        )
    };
    if rc != 0 {
        // Kernels before 5.12: the root mount at least.
        mount_remount(c"/", MountFlags::BIND | MountFlags::RDONLY, c"").map_err(errno_of)?;
    }
    mount(
        c"tmpfs",
        STAGE,
        c"tmpfs",
        MountFlags::NOSUID | MountFlags::NODEV,
        fs.stage_options.as_c_str(),
    )
    .map_err(errno_of)?;
    for (d, mode) in &fs.dirs {
        match rustix::fs::mkdir(d.as_c_str(), Mode::from_raw_mode(*mode)) {
            Ok(()) | Err(rustix::io::Errno::EXIST) => {}
            Err(e) => return Err(errno_of(e)),
        }
        // The umask is not ours to trust.
        rustix::fs::chmod(d.as_c_str(), Mode::from_raw_mode(*mode)).map_err(errno_of)?;
    }
    if let Some(uid) = owner {
        rustix::fs::chown(
            fs.upper.as_c_str(),
            Some(Uid::from_raw(uid)),
            Some(Gid::from_raw(uid)),
        )
        .map_err(errno_of)?;
    }
    for f in &fs.files {
        let fd = rustix::fs::open(
            f.as_c_str(),
            rustix::fs::OFlags::CREATE | rustix::fs::OFlags::WRONLY | rustix::fs::OFlags::CLOEXEC,
            Mode::from_raw_mode(0o644),
        )
        .map_err(errno_of)?;
        drop(fd);
    }
    for (target, options) in &fs.opens {
        // Best effort: a directory that cannot be opened stays closed.
        let _ = mount(
            c"overlay",
            target.as_c_str(),
            c"overlay",
            MountFlags::RDONLY | MountFlags::NOSUID | MountFlags::NODEV,
            options.as_c_str(),
        );
    }
    match &fs.cwd_mount {
        CwdMount::Overlay { target, options } => {
            if mount(
                c"overlay",
                target.as_c_str(),
                c"overlay",
                MountFlags::NOSUID | MountFlags::NODEV,
                options.as_c_str(),
            )
            .is_err()
            {
                // No overlay here: the directory as it is, read-only.
                if target.as_c_str() != fs.cwd.as_c_str() {
                    mount_bind(fs.cwd.as_c_str(), target.as_c_str()).map_err(errno_of)?;
                }
            }
        }
        CwdMount::Bind { source, target } => {
            mount_bind(source.as_c_str(), target.as_c_str()).map_err(errno_of)?;
            mount_remount(target.as_c_str(), MountFlags::BIND, c"").map_err(errno_of)?;
        }
        CwdMount::Keep => {}
    }
    for (source, target) in &fs.binds {
        mount_bind(source.as_c_str(), target.as_c_str()).map_err(errno_of)?;
    }
    mount_bind_recursive(fs.tmp.as_c_str(), c"/tmp").map_err(errno_of)?;
    mount_bind(fs.shm.as_c_str(), STAGE).map_err(errno_of)?;
    mount(
        c"proc",
        c"/proc",
        c"proc",
        MountFlags::NOSUID | MountFlags::NODEV | MountFlags::NOEXEC,
        c"",
    )
    .map_err(errno_of)?;
    Ok(())
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
static STOP: AtomicBool = AtomicBool::new(false);

extern "C" fn on_stop(_: libc::c_int) {
    STOP.store(true, Ordering::SeqCst);
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
fn cloexec_from_3() {
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
unsafe fn set_handler(sig: i32, handler: libc::sighandler_t) {
    let mut sa: libc::sigaction = std::mem::zeroed();
    sa.sa_sigaction = handler;
    // No SA_RESTART: the supervisor's wait must return EINTR on SIGTERM.
    sa.sa_flags = 0;
    libc::sigemptyset(&mut sa.sa_mask);
    libc::sigaction(sig, &sa, std::ptr::null_mut());
}

fn parent_death_signal(sig: Signal) -> io::Result<()> {
    rustix::process::set_parent_process_death_signal(Some(sig)).map_err(errno_of)
}

fn exit_now(code: i32) -> ! {
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
fn program_setup(plan: &ChildPlan) -> io::Result<()> {
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
unsafe fn supervise(plan: &ChildPlan) -> io::Result<()> {
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

fn errno() -> i32 {
    io::Error::last_os_error().raw_os_error().unwrap_or(0)
}

/// SIGKILLs every child of the calling (single-threaded) process, read from
/// `/proc/thread-self/children`. Async-signal-safe.
fn kill_children() {
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
    let pid = rustix::process::Pid::from_raw(pid)?;
    rustix::process::pidfd_open(pid, rustix::process::PidfdFlags::empty()).ok()
}

/// Sends `sig` through a pidfd; false when that fails (the process is gone).
pub(crate) fn pidfd_kill(fd: &OwnedFd, sig: Signal) -> bool {
    rustix::process::pidfd_send_signal(fd.as_fd(), sig).is_ok()
}

// ---------------------------------------------------------------------------------
// Memory cgroups: the memory limit enforced by the kernel where it can be.

/// How the memory limit of a run is enforced.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MemoryEnforcement {
    /// A cgroup v1 `memory` controller per run (`memory.limit_in_bytes`): the kernel
    /// never lets the run hold more; sgcheck also watches resident memory.
    CgroupV1,
    /// A cgroup v2 per run with `memory.max`.
    CgroupV2,
    /// sgcheck looks at the run's resident memory every few milliseconds and kills it
    /// past the limit (it may overshoot by what the program allocates meanwhile).
    Polling,
}

impl MemoryEnforcement {
    /// A short name for reports: `cgroup-v1`, `cgroup-v2` or `polling`.
    pub fn name(self) -> &'static str {
        match self {
            MemoryEnforcement::CgroupV1 => "cgroup-v1",
            MemoryEnforcement::CgroupV2 => "cgroup-v2",
            MemoryEnforcement::Polling => "polling",
        }
    }
}

/// The environment variable that turns the memory cgroups off (`SGCHECK_CGROUP=off`),
/// for testing the polling where cgroups work.
pub const CGROUP_ENV: &str = "SGCHECK_CGROUP";

/// Where this process makes its runs' memory cgroups, and which version.
fn cgroup_base() -> Option<&'static (PathBuf, MemoryEnforcement)> {
    static BASE: OnceLock<Option<(PathBuf, MemoryEnforcement)>> = OnceLock::new();
    BASE.get_or_init(|| {
        if std::env::var(CGROUP_ENV).is_ok_and(|v| v == "off") {
            return None;
        }
        let own = std::fs::read_to_string("/proc/self/cgroup").ok()?;
        let candidates = [
            ("/sys/fs/cgroup/memory", MemoryEnforcement::CgroupV1),
            ("/sys/fs/cgroup", MemoryEnforcement::CgroupV2),
        ];
        for (mount, kind) in candidates {
            let path = own.lines().find_map(|l| {
                let mut parts = l.splitn(3, ':');
                let (_, controllers, path) = (parts.next()?, parts.next()?, parts.next()?);
                let hit = match kind {
                    MemoryEnforcement::CgroupV1 => controllers.split(',').any(|c| c == "memory"),
                    _ => controllers.is_empty(),
                };
                hit.then(|| path.trim_start_matches('/').to_string())
            });
            let Some(path) = path else { continue };
            let base = Path::new(mount).join(path);
            let probe = Cgroup::create(&base, kind, "probe");
            if let Some(cg) = probe {
                if cg.set_limit(64 << 20) {
                    return Some((base, kind));
                }
            }
        }
        None
    })
    .as_ref()
}

/// How the memory limit of this process's runs is enforced.
pub fn memory_enforcement() -> MemoryEnforcement {
    cgroup_base().map_or(MemoryEnforcement::Polling, |(_, k)| *k)
}

/// The memory cgroup of one run, removed when dropped (once its processes are gone).
pub(crate) struct Cgroup {
    dir: PathBuf,
    kind: MemoryEnforcement,
    procs: OwnedFd,
}

impl Cgroup {
    fn create(base: &Path, kind: MemoryEnforcement, tag: &str) -> Option<Cgroup> {
        static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
        let n = NEXT.fetch_add(1, Ordering::Relaxed);
        let dir = base.join(format!("sgcheck-{}-{tag}{n}", std::process::id()));
        std::fs::create_dir(&dir).ok()?;
        let procs = std::fs::OpenOptions::new()
            .write(true)
            .open(dir.join("cgroup.procs"))
            .ok();
        match procs {
            Some(f) => Some(Cgroup {
                dir,
                kind,
                procs: f.into(),
            }),
            None => {
                let _ = std::fs::remove_dir(&dir);
                None
            }
        }
    }

    /// A fresh cgroup for a run, when the machine has them.
    pub fn for_run() -> Option<Cgroup> {
        let (base, kind) = cgroup_base()?;
        Cgroup::create(base, *kind, "")
    }

    /// Sets the limit; false when the kernel refuses it.
    pub fn set_limit(&self, bytes: u64) -> bool {
        let file = match self.kind {
            MemoryEnforcement::CgroupV2 => "memory.max",
            _ => "memory.limit_in_bytes",
        };
        std::fs::write(self.dir.join(file), bytes.to_string()).is_ok()
    }

    /// The descriptor of `cgroup.procs`, which the child writes "0" into to join.
    pub fn procs_fd(&self) -> RawFd {
        self.procs.as_raw_fd()
    }

    /// How many times the kernel's OOM killer killed a process of the run.
    pub fn oom_kills(&self) -> u64 {
        let file = match self.kind {
            MemoryEnforcement::CgroupV2 => "memory.events",
            _ => "memory.oom_control",
        };
        std::fs::read_to_string(self.dir.join(file))
            .ok()
            .and_then(|s| {
                s.lines()
                    .find_map(|l| l.strip_prefix("oom_kill "))
                    .and_then(|v| v.trim().parse().ok())
            })
            .unwrap_or(0)
    }
}

impl Drop for Cgroup {
    fn drop(&mut self) {
        // The last process may still be leaving the cgroup for a moment.
        for _ in 0..50 {
            match std::fs::remove_dir(&self.dir) {
                Ok(()) => return,
                Err(e) if e.kind() == io::ErrorKind::NotFound => return,
                Err(_) => std::thread::sleep(std::time::Duration::from_millis(2)),
            }
        }
    }
}

/// Removes the memory cgroups this process left (runs cut short by an interrupt).
pub(crate) fn remove_own_cgroups() {
    let Some((base, _)) = cgroup_base() else {
        return;
    };
    let prefix = format!("sgcheck-{}-", std::process::id());
    if let Ok(entries) = std::fs::read_dir(base) {
        for e in entries.flatten() {
            if e.file_name().to_string_lossy().starts_with(&prefix) {
                let _ = std::fs::remove_dir(e.path());
            }
        }
    }
}
