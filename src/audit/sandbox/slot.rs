//! A slot: one supervisor that serves many runs, one at a time (see the module
//! documentation). This is the code of the supervisor itself, a copy of sgcheck that
//! never execs: everything here is async-signal-safe (system calls on memory
//! allocated before the fork, no allocation, no lock).
//!
//! sgcheck sends one request per run over a `SOCK_SEQPACKET` socket: the program's
//! standard input, output and error, the write end of the report pipe and, when the
//! run has one, `cgroup.procs` of its memory cgroup (as `SCM_RIGHTS`), with the
//! limits, the program's path, its arguments and its environment. The slot starts the
//! program with `clone(CLONE_VM | CLONE_VFORK)` (it shares the slot's memory until its
//! `exec`, so nothing is copied), waits for it, kills everything the run left, reaps
//! it, and writes the [`Report`] into the pipe.

use super::*;
use std::mem::MaybeUninit;

/// Largest request (program, arguments and environment).
pub(crate) const MSG_MAX: usize = 256 * 1024;
/// Stack of the cloned child between `clone` and `exec`.
const CLONE_STACK: usize = 256 * 1024;
/// Most arguments plus environment variables of one request.
const MAX_STRINGS: usize = 16 * 1024;
const MAGIC: u32 = 0x5347_5232;
const HEADER: usize = 40;
const FLAG_FILE_LIMIT: u32 = 1;
const FLAG_STACK: u32 = 2;
const FLAG_CGROUP: u32 = 4;
const FLAG_CPU: u32 = 8;

/// The `status` of a [`Report`] whose program could not be started; its `errno` says
/// why.
pub(crate) const EXEC_FAILED: i32 = i32::MIN;
/// [`Report::flags`]: the slot exits after this report (its private files were
/// written, or it was asked to stop), so it takes no more requests.
pub(crate) const RETIRING: u32 = 1;

/// Memory the slot works in, allocated before the fork.
#[derive(Debug)]
pub(crate) struct SlotMemory {
    msg: Vec<u8>,
    stack: Vec<u8>,
    ptrs: Vec<usize>,
}

impl SlotMemory {
    pub fn new() -> SlotMemory {
        SlotMemory {
            msg: vec![0; MSG_MAX],
            stack: vec![0; CLONE_STACK],
            ptrs: vec![0; MAX_STRINGS + 2],
        }
    }
}

/// What a slot knows for all its runs.
#[derive(Debug)]
pub(crate) struct SlotPlan {
    /// The slot's end of the request socket.
    pub sock: RawFd,
    pub mem: SlotMemory,
    /// Directories of the run's stage that must be as they were after a run (the
    /// fresh `/tmp`, `/dev/shm`, and the working directory's upper layer), opened by
    /// [`build_fs`] before they are covered.
    pub watched: [RawFd; WATCHED],
    /// Names the plan itself put at the top of the fresh `/tmp` (mount points).
    pub tmp_names: Vec<CString>,
}

/// One request, encoded by sgcheck (ordinary code).
pub(crate) fn encode_request(
    program: &Path,
    argv: &[&std::ffi::OsStr],
    env: &[(String, String)],
    file_limit: Option<u64>,
    stack: Option<u64>,
    cpu_seconds: Option<u64>,
    cgroup: bool,
) -> Option<Vec<u8>> {
    let mut flags = 0;
    if file_limit.is_some() {
        flags |= FLAG_FILE_LIMIT;
    }
    if stack.is_some() {
        flags |= FLAG_STACK;
    }
    if cgroup {
        flags |= FLAG_CGROUP;
    }
    if cpu_seconds.is_some() {
        flags |= FLAG_CPU;
    }
    if argv.len() + env.len() > MAX_STRINGS {
        return None;
    }
    let mut m = Vec::with_capacity(256);
    m.extend_from_slice(&MAGIC.to_ne_bytes());
    m.extend_from_slice(&flags.to_ne_bytes());
    m.extend_from_slice(&file_limit.unwrap_or(0).to_ne_bytes());
    m.extend_from_slice(&stack.unwrap_or(0).to_ne_bytes());
    m.extend_from_slice(&cpu_seconds.unwrap_or(0).to_ne_bytes());
    m.extend_from_slice(&(argv.len() as u32).to_ne_bytes());
    m.extend_from_slice(&(env.len() as u32).to_ne_bytes());
    let mut put = |b: &[u8]| -> Option<()> {
        if b.contains(&0) {
            return None;
        }
        m.extend_from_slice(b);
        m.push(0);
        Some(())
    };
    put(program.as_os_str().as_bytes())?;
    for a in argv {
        put(a.as_bytes())?;
    }
    for (k, v) in env {
        if k.contains('=') {
            return None;
        }
        put(format!("{k}={v}").as_bytes())?;
    }
    (m.len() <= MSG_MAX).then_some(m)
}

/// A request as the slot reads it: pointers into [`SlotMemory`].
struct Request {
    flags: u32,
    file_limit: u64,
    stack: u64,
    cpu_seconds: u64,
    path: *const libc::c_char,
    argv: *const *const libc::c_char,
    envp: *const *const libc::c_char,
}

fn read_u32(b: &[u8], at: usize) -> u32 {
    let mut x = [0u8; 4];
    x.copy_from_slice(&b[at..at + 4]);
    u32::from_ne_bytes(x)
}

fn read_u64(b: &[u8], at: usize) -> u64 {
    let mut x = [0u8; 8];
    x.copy_from_slice(&b[at..at + 8]);
    u64::from_ne_bytes(x)
}

/// Checks a request and fills `ptrs` with argv then envp (each NULL-terminated).
fn parse(msg: &[u8], ptrs: &mut [usize]) -> Option<Request> {
    if msg.len() < HEADER || read_u32(msg, 0) != MAGIC {
        return None;
    }
    let argc = read_u32(msg, 32) as usize;
    let envc = read_u32(msg, 36) as usize;
    if argc == 0 || argc + envc + 2 > ptrs.len() {
        return None;
    }
    let base = msg.as_ptr() as usize;
    let mut at = HEADER;
    let mut next = || -> Option<usize> {
        let len = msg[at..].iter().position(|&c| c == 0)?;
        let p = base + at;
        at += len + 1;
        Some(p)
    };
    let path = next()?;
    for slot in ptrs.iter_mut().take(argc) {
        *slot = next()?;
    }
    ptrs[argc] = 0;
    for i in 0..envc {
        ptrs[argc + 1 + i] = next()?;
    }
    ptrs[argc + 1 + envc] = 0;
    Some(Request {
        flags: read_u32(msg, 4),
        file_limit: read_u64(msg, 8),
        stack: read_u64(msg, 16),
        cpu_seconds: read_u64(msg, 24),
        path: path as *const libc::c_char,
        argv: ptrs.as_ptr() as *const *const libc::c_char,
        envp: ptrs[argc + 1..].as_ptr() as *const *const libc::c_char,
    })
}

/// What the cloned child needs; it lives on the slot's stack while the slot is
/// suspended (`CLONE_VFORK`).
struct Launch<'a> {
    plan: &'a ChildPlan,
    req: &'a Request,
    stdio: [RawFd; 3],
    cgroup: Option<RawFd>,
    /// Written by the child when its `exec` fails.
    errno: std::sync::atomic::AtomicI32,
}

/// The cloned child: sets the program up and execs it; on failure stores the errno
/// for the slot and exits 127.
extern "C" fn launch(arg: *mut libc::c_void) -> libc::c_int {
    // SAFETY: `arg` is the `Launch` the slot passed to clone; it stays alive and
    // unmoved while the slot is suspended until this child execs or exits.
    let l = unsafe { &*(arg as *const Launch<'_>) };
    let fail = |e: io::Error| -> libc::c_int {
        l.errno
            .store(e.raw_os_error().unwrap_or(libc::EINVAL), Ordering::SeqCst);
        exit_now(127)
    };
    if let Err(e) = prepare(l) {
        return fail(e);
    }
    // SAFETY: execve with NUL-terminated strings and NULL-terminated pointer arrays
    // in the slot's request buffer, which nothing writes while this child runs.
    unsafe { libc::execve(l.req.path, l.req.argv, l.req.envp) };
    fail(io::Error::last_os_error())
}

/// Everything between the clone and the exec.
fn prepare(l: &Launch<'_>) -> io::Result<()> {
    // Signals as a fresh process has them: the slot's handlers and ignored signals
    // (sgcheck ignores SIGPIPE) are not the program's.
    for sig in 1..32 {
        if sig != libc::SIGKILL && sig != libc::SIGSTOP {
            // SAFETY: SIG_DFL is always a valid disposition.
            unsafe { set_handler(sig, libc::SIG_DFL) };
        }
    }
    // SAFETY: an empty set is a valid mask; sigprocmask has no safe wrapper.
    unsafe {
        let mut set: libc::sigset_t = std::mem::zeroed();
        libc::sigemptyset(&mut set);
        libc::sigprocmask(libc::SIG_SETMASK, &set, std::ptr::null_mut());
    }
    parent_death_signal(Signal::KILL)?;
    if let Some(fd) = l.cgroup {
        // SAFETY: a descriptor received for this run, open until the slot closes it
        // after this child has exec'd.
        rustix::io::write(unsafe { BorrowedFd::borrow_raw(fd) }, b"0").map_err(errno_of)?;
    }
    // SAFETY: the received descriptors are open until the slot closes them, after
    // this child has exec'd; they are numbered 3 or more (the slot moved them there),
    // so none of them is overwritten here.
    let [input, output, error] = l.stdio.map(|fd| unsafe { BorrowedFd::borrow_raw(fd) });
    rustix::stdio::dup2_stdin(input).map_err(errno_of)?;
    rustix::stdio::dup2_stdout(output).map_err(errno_of)?;
    rustix::stdio::dup2_stderr(error).map_err(errno_of)?;
    let _ = rustix::process::setrlimit(
        Resource::Core,
        Rlimit {
            current: Some(0),
            maximum: Some(0),
        },
    );
    if l.req.flags & FLAG_STACK != 0 {
        // Soft and hard alike: the program cannot raise its own stack.
        rustix::process::setrlimit(
            Resource::Stack,
            Rlimit {
                current: Some(l.req.stack),
                maximum: Some(l.req.stack),
            },
        )
        .map_err(errno_of)?;
    }
    if l.req.flags & FLAG_CPU != 0 {
        // A backstop under sgcheck's own watch of the run's CPU time (which covers the
        // whole process tree): SIGXCPU one second past the limit, SIGKILL one later.
        rustix::process::setrlimit(
            Resource::Cpu,
            Rlimit {
                current: Some(l.req.cpu_seconds),
                maximum: Some(l.req.cpu_seconds.saturating_add(1)),
            },
        )
        .map_err(errno_of)?;
    }
    let file_limit = (l.req.flags & FLAG_FILE_LIMIT != 0).then_some(l.req.file_limit);
    program_setup(l.plan, file_limit)
}

/// Moves a received descriptor to 3 or more (0, 1 and 2 are the program's).
fn above_stdio(fd: OwnedFd) -> io::Result<OwnedFd> {
    if fd.as_raw_fd() >= 3 {
        return Ok(fd);
    }
    rustix::io::fcntl_dupfd_cloexec(&fd, 3).map_err(errno_of)
}

/// Whether a watched directory of the stage holds only what the plan put there.
fn pristine(fd: RawFd, allowed: &[CString]) -> bool {
    if fd < 0 {
        return true;
    }
    // SAFETY: opened by build_fs and kept open by the slot.
    let dir = unsafe { BorrowedFd::borrow_raw(fd) };
    if rustix::fs::seek(dir, rustix::fs::SeekFrom::Start(0)).is_err() {
        return false;
    }
    let mut buf = [MaybeUninit::<u8>::uninit(); 2048];
    let mut it = rustix::fs::RawDir::new(dir, &mut buf);
    while let Some(entry) = it.next() {
        let Ok(entry) = entry else { return false };
        let name = entry.file_name().to_bytes();
        if name == b"." || name == b".." {
            continue;
        }
        if !allowed.iter().any(|a| a.as_bytes() == name) {
            return false;
        }
    }
    true
}

/// Whether a `/proc/sysvipc` listing holds no object (its header line only); true
/// when it is not watched.
fn no_ipc_objects(fd: RawFd) -> bool {
    if fd < 0 {
        return true;
    }
    // SAFETY: opened by build_fs and kept open by the slot.
    let file = unsafe { BorrowedFd::borrow_raw(fd) };
    let mut buf = [0u8; 512];
    match rustix::io::pread(file, &mut buf, 0) {
        Ok(n) => buf[..n].iter().filter(|&&c| c == b'\n').count() <= 1,
        Err(_) => false,
    }
}

/// CPU time (nanoseconds, user and system) in a `rusage`.
fn cpu_of(ru: &libc::rusage) -> u64 {
    let ns = |t: libc::timeval| {
        (t.tv_sec.max(0) as u64)
            .saturating_mul(1_000_000_000)
            .saturating_add(t.tv_usec.max(0) as u64 * 1000)
    };
    ns(ru.ru_utime).saturating_add(ns(ru.ru_stime))
}

/// Kills every process of the run the slot can see, and reaps them; the CPU time of
/// those reaped (nanoseconds).
fn kill_all(mode: Containment) -> u64 {
    let mut cpu = 0u64;
    loop {
        match mode {
            // Process 1 of the namespace: kill(-1) reaches every other process in it.
            // SAFETY: kill has no memory arguments.
            Containment::Namespaces => unsafe {
                libc::kill(-1, libc::SIGKILL);
            },
            Containment::Subreaper => kill_children(),
        }
        let mut st = 0;
        // SAFETY: all-zero is a valid rusage.
        let mut ru: libc::rusage = unsafe { std::mem::zeroed() };
        // SAFETY: wait4 writes the status and rusage into live locals.
        let r = unsafe { libc::wait4(-1, &mut st, libc::__WALL, &mut ru) };
        if r > 0 {
            cpu = cpu.saturating_add(cpu_of(&ru));
        } else if errno() != libc::EINTR {
            return cpu;
        }
    }
}

/// The slot's loop: one request at a time until sgcheck closes the socket, asks it to
/// stop (SIGTERM, fallback), or a run left files behind.
pub(crate) fn serve(plan: &mut ChildPlan) -> ! {
    let Some(slot) = plan.slot.as_mut() else {
        exit_now(125)
    };
    let sock = slot.sock;
    let mut keep = [-1; WATCHED + 1];
    keep[0] = sock;
    keep[1..].copy_from_slice(&slot.watched);
    keep.sort_unstable();
    // SAFETY: this process owns nothing else: only the socket and the watched
    // directories are used from here on.
    unsafe { close_fds_keeping(&keep) };
    // SAFETY: the socket stays open for the life of the slot.
    let sock = unsafe { BorrowedFd::borrow_raw(sock) };
    let mode = plan.mode;
    loop {
        if STOP.load(Ordering::SeqCst) {
            exit_now(0);
        }
        let mut space = [MaybeUninit::<u8>::uninit(); rustix::cmsg_space!(ScmRights(5))];
        let mut control = rustix::net::RecvAncillaryBuffer::new(&mut space);
        let Some(slot) = plan.slot.as_mut() else {
            exit_now(125)
        };
        let mem = &mut slot.mem;
        let got = rustix::net::recvmsg(
            sock,
            &mut [io::IoSliceMut::new(&mut mem.msg)],
            &mut control,
            rustix::net::RecvFlags::CMSG_CLOEXEC,
        );
        let n = match got {
            Ok(r) if r.bytes == 0 => exit_now(0),
            Ok(r) => r.bytes,
            Err(rustix::io::Errno::INTR) => continue,
            Err(_) => exit_now(0),
        };
        let mut fds: [Option<OwnedFd>; 5] = [None, None, None, None, None];
        let mut count = 0;
        for m in control.drain() {
            if let rustix::net::RecvAncillaryMessage::ScmRights(rights) = m {
                for fd in rights {
                    if count < fds.len() {
                        fds[count] = above_stdio(fd).ok();
                    }
                    count += 1;
                }
            }
        }
        let req = parse(&mem.msg[..n.min(MSG_MAX)], &mut mem.ptrs);
        let (Some(req), true) = (req, count >= 4 && fds[..4].iter().all(Option::is_some)) else {
            continue;
        };
        let raw = |i: usize| fds[i].as_ref().map_or(-1, |f| f.as_raw_fd());
        let cgroup = (req.flags & FLAG_CGROUP != 0 && fds[4].is_some()).then(|| raw(4));
        let status_errno = run_one(plan, &req, [raw(0), raw(1), raw(2)], cgroup);
        // The program's ends of the pipes: closed here, so sgcheck sees their end
        // once the run's processes are gone.
        for f in fds.iter_mut().take(3) {
            *f = None;
        }
        fds[4] = None;
        let (status, errno, max_rss, cpu_ns) = status_errno;
        let clean = match (mode, plan.slot.as_ref()) {
            (Containment::Namespaces, Some(s)) => {
                pristine(s.watched[0], &s.tmp_names)
                    && pristine(s.watched[1], &[])
                    && pristine(s.watched[2], &[])
                    && pristine(s.watched[3], &[])
                    && s.watched[4..].iter().all(|&fd| no_ipc_objects(fd))
            }
            _ => true,
        };
        let retiring = !clean || STOP.load(Ordering::SeqCst);
        let mut buf = [0u8; REPORT_LEN];
        buf[0..4].copy_from_slice(&status.to_ne_bytes());
        buf[4..8].copy_from_slice(&errno.to_ne_bytes());
        buf[8..12].copy_from_slice(&(if retiring { RETIRING } else { 0 }).to_ne_bytes());
        buf[16..24].copy_from_slice(&max_rss.to_ne_bytes());
        buf[24..32].copy_from_slice(&cpu_ns.to_ne_bytes());
        if let Some(r) = &fds[3] {
            let _ = rustix::io::write(r, &buf);
        }
        fds[3] = None;
        if retiring {
            exit_now(0);
        }
    }
}

/// Starts one program and waits for it and everything it started: its wait status,
/// the errno of a failed start, the largest `ru_maxrss` (bytes) reaped and the CPU
/// time (nanoseconds) of everything reaped.
fn run_one(
    plan: &mut ChildPlan,
    req: &Request,
    stdio: [RawFd; 3],
    cgroup: Option<RawFd>,
) -> (i32, i32, u64, u64) {
    let Some(slot) = plan.slot.as_mut() else {
        return (EXEC_FAILED, libc::EINVAL, 0, 0);
    };
    let own_ipc = slot.watched[3] < 0;
    let stack_top = {
        let len = slot.mem.stack.len();
        // 16-byte aligned top of the clone stack.
        (slot.mem.stack.as_mut_ptr() as usize + len) & !15
    };
    let plan: &ChildPlan = plan;
    let l = Launch {
        plan,
        req,
        stdio,
        cgroup,
        errno: std::sync::atomic::AtomicI32::new(0),
    };
    let mut flags = libc::CLONE_VM | libc::CLONE_VFORK | libc::SIGCHLD;
    if plan.mode == Containment::Namespaces && own_ipc {
        // The slot cannot see what a run leaves in its IPC namespace: each run gets
        // its own.
        flags |= libc::CLONE_NEWIPC;
    }
    // SAFETY: `launch` runs on its own stack (the slot's preallocated buffer, unused
    // otherwise) in the slot's memory while the slot is suspended (CLONE_VFORK); it
    // makes only system calls and reads `l`, which outlives it.
    let pid = unsafe {
        libc::clone(
            launch,
            stack_top as *mut libc::c_void,
            flags,
            &l as *const Launch<'_> as *mut libc::c_void,
        )
    };
    if pid < 0 {
        return (EXEC_FAILED, errno(), 0, 0);
    }
    let mut status = libc::W_EXITCODE(0, libc::SIGKILL);
    let mut max_rss = 0u64;
    let mut cpu = 0u64;
    loop {
        if STOP.load(Ordering::SeqCst) {
            cpu = cpu.saturating_add(kill_all(plan.mode));
        }
        let mut st = 0;
        // SAFETY: all-zero is a valid rusage.
        let mut ru: libc::rusage = unsafe { std::mem::zeroed() };
        // SAFETY: wait4 writes the status and rusage into live locals; no safe
        // wrapper returns the rusage.
        let r = unsafe { libc::wait4(-1, &mut st, libc::__WALL, &mut ru) };
        if r > 0 {
            max_rss = max_rss.max(ru.ru_maxrss.max(0) as u64 * 1024);
            cpu = cpu.saturating_add(cpu_of(&ru));
            if r == pid {
                status = st;
                break;
            }
        } else if errno() != libc::EINTR {
            break;
        }
    }
    cpu = cpu.saturating_add(kill_all(plan.mode));
    let failed = l.errno.load(Ordering::SeqCst);
    if failed != 0 {
        return (EXEC_FAILED, failed, 0, 0);
    }
    (status, 0, max_rss, cpu)
}
