//! One run of a program: spawn under the sandbox, feed and drain it, watch its
//! processes and memory, and reap everything it started.

use super::*;

/// Whether `pid` has exited, without reaping it (`WNOWAIT`).
pub(crate) fn has_exited(pid: i32) -> bool {
    use rustix::process::{waitid, WaitId, WaitIdOptions};
    let Some(p) = Pid::from_raw(pid) else {
        return true;
    };
    match waitid(
        WaitId::Pid(p),
        WaitIdOptions::EXITED | WaitIdOptions::NOHANG | WaitIdOptions::NOWAIT,
    ) {
        Ok(status) => status.is_some(),
        // An error (ECHILD) means there is nothing left to wait for.
        Err(_) => true,
    }
}

/// SIGKILLs or SIGTERMs a process group; a stale group id only yields ESRCH.
pub(crate) fn kill_group(pgid: i32, sig: Signal) {
    if let Some(p) = Pid::from_raw(pgid) {
        let _ = rustix::process::kill_process_group(p, sig);
    }
}

/// Waits up to `limit` for `pid` (our child) to exit, without reaping it.
pub(crate) fn wait_exit(pid: i32, pidfd: Option<&OwnedFd>, limit: Duration) -> bool {
    let end = Instant::now() + limit;
    let mut step = Duration::from_micros(100);
    loop {
        if has_exited(pid) {
            return true;
        }
        let now = Instant::now();
        if now >= end {
            return false;
        }
        let wait = (end - now).min(Duration::from_millis(20));
        match pidfd {
            Some(fd) => poll_readable(fd, wait.min(Duration::from_millis(20))),
            None => {
                std::thread::sleep(step.min(wait));
                step = (step * 2).min(Duration::from_millis(5));
            }
        }
    }
}

/// Polls one descriptor for readability (a pidfd: the process exited).
pub(crate) fn poll_readable(fd: &OwnedFd, wait: Duration) {
    use rustix::event::{poll, PollFd, PollFlags, Timespec};
    let wait = wait.clamp(Duration::from_millis(1), Duration::from_secs(1));
    let t = Timespec {
        tv_sec: wait.as_secs() as _,
        tv_nsec: wait.subsec_nanos() as _,
    };
    let _ = poll(&mut [PollFd::new(fd, PollFlags::IN)], Some(&t));
}

/// Standard output kept in memory per run; the rest, up to the output limit, goes to
/// an unnamed temporary file ([`Spill`]), so a program printing up to the limit (1G
/// with `--output-limit 1G`) costs sgcheck at most this much memory per job.
pub const OUTPUT_IN_MEMORY: usize = 8 << 20;

/// Output spilled to an unnamed temporary file (see [`RunResult::stdout_spill`]).
/// Clones share the file; two spills are equal only when they are the same file.
#[derive(Clone, Debug)]
pub struct Spill(Arc<std::fs::File>);

impl PartialEq for Spill {
    fn eq(&self, other: &Spill) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }
}

impl Eq for Spill {}

impl Spill {
    /// Calls `f` with the spilled bytes in order, a chunk at a time, while it returns
    /// true.
    pub fn for_each_chunk(&self, mut f: impl FnMut(&[u8]) -> bool) -> io::Result<()> {
        use std::os::unix::fs::FileExt;
        let mut chunk = vec![0u8; 1 << 16];
        let mut at = 0u64;
        loop {
            let n = match self.0.read_at(&mut chunk, at) {
                Ok(0) => return Ok(()),
                Ok(n) => n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            };
            at += n as u64;
            if !f(&chunk[..n]) {
                return Ok(());
            }
        }
    }
}

/// A pipe being drained into a buffer that never holds more than `keep` bytes (and is
/// never allocated beyond that), shared so that a run can take what arrived even
/// while some process still holds the pipe; with a spill, the bytes past the buffer
/// go to an unnamed temporary file.
pub(crate) struct Drain {
    buf: Arc<Mutex<Vec<u8>>>,
    spill: Arc<Mutex<Option<std::fs::File>>>,
    done: mpsc::Receiver<()>,
}

impl Drain {
    /// Reads a pipe to its end: the first [`OUTPUT_IN_MEMORY`] bytes into memory, the
    /// rest (up to `limit` in all) into an unnamed temporary file; sets `over` once
    /// more than `limit` arrived. Keeps draining so the writer never blocks.
    fn spawn_spilling<R: Read + Send + 'static>(
        mut r: R,
        limit: usize,
        over: Arc<AtomicBool>,
    ) -> Drain {
        let keep = limit.min(OUTPUT_IN_MEMORY);
        let buf = Arc::new(Mutex::new(Vec::new()));
        let spill: Arc<Mutex<Option<std::fs::File>>> = Arc::new(Mutex::new(None));
        let (tx, done) = mpsc::channel();
        let (shared, shared_spill) = (Arc::clone(&buf), Arc::clone(&spill));
        std::thread::spawn(move || {
            let mut chunk = vec![0u8; 64 * 1024];
            let mut total = 0usize;
            let mut spill_failed = false;
            loop {
                let n = match r.read(&mut chunk) {
                    Ok(0) => break,
                    Ok(n) => n,
                    Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                    Err(_) => break,
                };
                let room = limit.saturating_sub(total);
                let accepted = n.min(room);
                let in_memory = accepted.min(keep.saturating_sub(total));
                if in_memory > 0 {
                    let mut b = shared.lock().unwrap_or_else(PoisonError::into_inner);
                    if b.capacity() - b.len() < in_memory {
                        let want = (b.capacity() * 2).max(b.len() + in_memory).min(keep);
                        let extra = want - b.len();
                        b.reserve_exact(extra);
                    }
                    b.extend_from_slice(&chunk[..in_memory]);
                }
                if accepted > in_memory && !spill_failed {
                    let mut s = shared_spill.lock().unwrap_or_else(PoisonError::into_inner);
                    if s.is_none() {
                        *s = tempfile::tempfile().ok();
                    }
                    let wrote = s
                        .as_mut()
                        .is_some_and(|f| f.write_all(&chunk[in_memory..accepted]).is_ok());
                    if !wrote {
                        // No room to spill: judged on what fitted (the comparison
                        // then sees the output end early), and said on stderr.
                        spill_failed = true;
                        eprintln!(
                            "warning: could not keep a program's output past {} in a \
                             temporary file; it is judged on its first {}",
                            format_size(keep as u64),
                            format_size(total as u64 + in_memory as u64)
                        );
                    }
                }
                total += accepted;
                if n > room {
                    over.store(true, Ordering::SeqCst);
                }
            }
            let _ = tx.send(());
        });
        Drain { buf, spill, done }
    }

    /// Waits up to `grace` for the end of the pipe, then takes what arrived: the bytes
    /// in memory and the spill, if any.
    fn take_spilled(self, grace: Duration) -> (Vec<u8>, Option<Spill>) {
        let _ = self.done.recv_timeout(grace);
        let spill = self
            .spill
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .take()
            .map(|f| Spill(Arc::new(f)));
        let buf = std::mem::take(&mut *self.buf.lock().unwrap_or_else(PoisonError::into_inner));
        (buf, spill)
    }

    /// Reads a pipe to its end, keeping the first `keep` bytes; sets `over` (when
    /// given) once more than that arrived. Keeps draining so the writer never blocks
    /// on a full pipe.
    fn spawn<R: Read + Send + 'static>(
        mut r: R,
        keep: usize,
        over: Option<Arc<AtomicBool>>,
    ) -> Drain {
        let buf = Arc::new(Mutex::new(Vec::new()));
        let (tx, done) = mpsc::channel();
        let shared = Arc::clone(&buf);
        std::thread::spawn(move || {
            let mut chunk = vec![0u8; 64 * 1024];
            loop {
                match r.read(&mut chunk) {
                    Ok(0) => break,
                    Ok(n) => {
                        let mut b = shared.lock().unwrap_or_else(PoisonError::into_inner);
                        let room = keep.saturating_sub(b.len());
                        let take = n.min(room);
                        if take > 0 {
                            if b.capacity() - b.len() < take {
                                // Grow by doubling, but never past `keep`.
                                let want = (b.capacity() * 2).max(b.len() + take).min(keep);
                                let extra = want - b.len();
                                b.reserve_exact(extra);
                            }
                            b.extend_from_slice(&chunk[..take]);
                        }
                        drop(b);
                        if n > room {
                            if let Some(o) = &over {
                                o.store(true, Ordering::SeqCst);
                            }
                        }
                    }
                    Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                    Err(_) => break,
                }
            }
            let _ = tx.send(());
        });
        Drain {
            buf,
            spill: Arc::new(Mutex::new(None)),
            done,
        }
    }

    /// Waits up to `grace` for the end of the pipe, then takes what arrived.
    fn take(self, grace: Duration) -> Vec<u8> {
        let _ = self.done.recv_timeout(grace);
        std::mem::take(&mut *self.buf.lock().unwrap_or_else(PoisonError::into_inner))
    }
}

/// Why sgcheck ended a run before the program did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Stop {
    Time,
    Output,
    Memory,
    Processes,
}

/// How long the pipes may stay open after every process of a run is gone (they close
/// at once; only a stuck reader thread would wait this long).
pub(crate) const PIPE_GRACE: Duration = Duration::from_millis(500);
/// How long a supervisor has to clean up after a stop request before it is killed.
pub(crate) const STOP_GRACE: Duration = Duration::from_secs(1);

/// Where a run happens: its working directory and the paths it needs.
pub struct Place<'a> {
    /// The working directory (absolute; the command's `current_dir`).
    pub cwd: &'a Path,
    /// Whether writes there are real (a compile) rather than private to the run.
    pub writable: bool,
    /// Paths the program needs to reach: its executable, files on its command line,
    /// `PATH` and the toolchains.
    pub needed: &'a [PathBuf],
}

/// Returns a network namespace to the pool when the run is over.
pub(crate) struct SlotGuard(Option<sandbox::NetSlot>);

impl Drop for SlotGuard {
    fn drop(&mut self) {
        if let Some(s) = self.0.take() {
            sandbox::put_net_slot(s);
        }
    }
}

/// Spawns `cmd` (already set up with piped stdio, its own process group, its
/// environment and working directory) contained (see [`crate::audit::sandbox`]),
/// feeds it `input`, and waits for it within `limits`. When it returns, every process
/// of the run is gone.
pub fn run_command(
    cmd: &mut Command,
    program: &str,
    input: &[u8],
    limits: &RunLimits,
    place: &Place<'_>,
) -> Result<RunResult, RunError> {
    let spawn_error = |source: io::Error| RunError::Spawn {
        program: program.to_string(),
        source,
    };
    let mode = sandbox::containment();
    let mut report = sandbox::ReportPipe::new().map_err(spawn_error)?;
    let root = rustix::process::geteuid().is_root();
    let namespaces = mode == sandbox::Containment::Namespaces;
    let run_as = (namespaces && root).then_some(sandbox::RUN_UID);
    let slot = SlotGuard(if namespaces {
        sandbox::take_net_slot()
    } else {
        None
    });
    let fs = if namespaces {
        let plan = sandbox::FsPlan::new(&sandbox::FsRequest {
            cwd: place.cwd,
            writable_cwd: place.writable,
            needed: place.needed,
            // Everything a run writes into its files holds memory: the memory limit
            // bounds it (and each file is bounded by the file limit).
            size: limits.memory_limit.max(limits.file_limit),
            drop_uid: run_as.is_some(),
        });
        Some(plan.ok_or_else(|| {
            spawn_error(io::Error::new(
                io::ErrorKind::InvalidInput,
                "a path of the run holds a NUL byte",
            ))
        })?)
    } else {
        None
    };
    let cgroup = sandbox::Cgroup::for_run().filter(|c| c.set_limit(limits.memory_limit));
    let plan = sandbox::ChildPlan {
        mode,
        report_fd: report.write_fd(),
        parent: std::process::id() as i32,
        stack: limits.stack_limit,
        file_limit: Some(limits.file_limit),
        run_as,
        net: slot.0.as_ref().map(sandbox::NetSlot::raw),
        fs,
        cgroup_procs: cgroup.as_ref().map(sandbox::Cgroup::procs_fd),
    };
    // SAFETY: child_setup makes only async-signal-safe calls.
    unsafe {
        cmd.pre_exec(move || sandbox::child_setup(&plan));
    }
    let inherited_before = sandbox::own_rss();
    let mut child = {
        let mut groups = live();
        if INTERRUPTED.load(Ordering::SeqCst) {
            return Err(RunError::Interrupted);
        }
        let child = cmd.spawn().map_err(spawn_error)?;
        groups.push(child.id() as i32);
        child
    };
    let start = Instant::now();
    report.close_write();
    let inherited = inherited_before.max(sandbox::own_rss());
    let pid = child.id() as i32;
    // The supervisor: the child itself, or (namespace) its only child.
    let supervisor = match mode {
        sandbox::Containment::Subreaper => pid,
        sandbox::Containment::Namespaces => sandbox::children(pid).first().copied().unwrap_or(-1),
    };
    let supervisor_fd = (supervisor > 0)
        .then(|| sandbox::pidfd_open(supervisor))
        .flatten();

    let over = Arc::new(AtomicBool::new(false));
    let stdout = child
        .stdout
        .take()
        .map(|o| Drain::spawn_spilling(o, limits.output_limit, Arc::clone(&over)));
    let stderr = child
        .stderr
        .take()
        .map(|e| Drain::spawn(e, STDERR_KEEP, None));
    if let Some(mut stdin) = child.stdin.take() {
        let data = input.to_vec();
        // A program that never reads its input blocks this thread until the run is
        // killed, which closes the pipe (EPIPE); nothing waits for it.
        std::thread::spawn(move || {
            let _ = stdin.write_all(&data);
        });
    }

    let deadline = start + limits.timeout;
    let pidfd = sandbox::pidfd_open(pid);
    let mut step = Duration::from_millis(1);
    let mut next_sample = start + Duration::from_millis(2);
    let mut peak_seen = 0u64;
    let mut stop = None;
    loop {
        if has_exited(pid) {
            break;
        }
        if over.load(Ordering::SeqCst) {
            stop = Some(Stop::Output);
            break;
        }
        let now = Instant::now();
        if now >= deadline {
            stop = Some(Stop::Time);
            break;
        }
        if now >= next_sample && supervisor > 0 {
            let s = sandbox::sample(supervisor, limits.process_limit);
            peak_seen = peak_seen.max(s.peak).max(s.rss);
            if s.processes > limits.process_limit {
                stop = Some(Stop::Processes);
                break;
            }
            if peak_seen > limits.memory_limit {
                stop = Some(Stop::Memory);
                break;
            }
            next_sample = Instant::now() + step;
            step = (step * 2).min(Duration::from_millis(10));
        }
        let wait = (deadline - now).min(next_sample.saturating_duration_since(now));
        match &pidfd {
            Some(fd) => poll_readable(fd, wait.max(Duration::from_millis(1))),
            None => {
                std::thread::sleep(wait.clamp(Duration::from_micros(50), Duration::from_millis(2)))
            }
        }
    }
    let elapsed = start.elapsed();
    if stop.is_some() {
        end_run(mode, pid, supervisor_fd.as_ref(), pidfd.as_ref());
    }
    // Every process of the run is gone once the child has exited (the supervisor
    // cleans up before it exits); a child that does not exit is killed with its group.
    if !wait_exit(pid, pidfd.as_ref(), STOP_GRACE) {
        end_run(mode, pid, supervisor_fd.as_ref(), pidfd.as_ref());
        // The child is unreaped, so its group id is ours.
        kill_group(pid, Signal::KILL);
    }
    // Stragglers in the group (never more than the relay and the supervisor).
    // The child is unreaped, so its group id is ours.
    kill_group(pid, Signal::KILL);
    live().retain(|&g| g != pid);
    let status = loop {
        match child.wait() {
            Ok(s) => break Some(s),
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(_) => break None,
        }
    };
    let reported = report.take();
    // The kernel's OOM killer ended a process of the run at the memory limit.
    let oom_killed = cgroup.as_ref().is_some_and(|c| c.oom_kills() > 0);
    drop(cgroup);
    let exit = match (reported, status) {
        (Some(r), _) => decode_status(r.status),
        (None, Some(s)) if stop.is_none() => match (s.code(), s.signal()) {
            (Some(c), _) => Exit::Code(c),
            (None, Some(sig)) => Exit::Signal(sig),
            (None, None) => Exit::Signal(libc::SIGKILL),
        },
        _ => Exit::Signal(libc::SIGKILL),
    };
    // The supervisor's figure includes what the program inherited from sgcheck before
    // its exec: only a larger one is the program's own.
    let reported_peak = reported.map_or(0, |r| r.max_rss);
    let peak_memory = if reported_peak > inherited {
        peak_seen.max(reported_peak)
    } else {
        peak_seen
    };
    let (stdout, stdout_spill) = stdout
        .map(|d| d.take_spilled(PIPE_GRACE))
        .unwrap_or_default();
    let stderr = stderr.map(|d| d.take(PIPE_GRACE)).unwrap_or_default();
    let output_truncated = over.load(Ordering::SeqCst);
    Ok(RunResult {
        stdout,
        stdout_spill,
        stderr,
        exit,
        timed_out: stop == Some(Stop::Time),
        output_truncated,
        memory_exceeded: stop == Some(Stop::Memory)
            || oom_killed
            || (peak_memory > limits.memory_limit && !output_truncated),
        process_limit_exceeded: stop == Some(Stop::Processes),
        peak_memory,
        elapsed,
    })
}

/// Ends a run early: the namespace's first process (the kernel kills the rest), or a
/// stop request to the fallback supervisor, which kills everything it finds.
pub(crate) fn end_run(
    mode: sandbox::Containment,
    pid: i32,
    supervisor: Option<&OwnedFd>,
    pidfd: Option<&OwnedFd>,
) {
    match (mode, supervisor) {
        (sandbox::Containment::Namespaces, Some(fd)) => {
            sandbox::pidfd_kill(fd, rustix::process::Signal::KILL);
        }
        (sandbox::Containment::Subreaper, _) => {
            // Our unreaped child: the pid is its own.
            if let Some(p) = Pid::from_raw(pid) {
                let _ = rustix::process::kill_process(p, Signal::TERM);
            }
            if wait_exit(pid, pidfd, STOP_GRACE) {
                return;
            }
        }
        _ => {}
    }
    // No supervisor to ask (it is gone, or does not answer): the whole group.
    // The child is unreaped, so its group id is ours.
    kill_group(pid, Signal::KILL);
}

/// A wait status as [`Exit`].
pub(crate) fn decode_status(st: i32) -> Exit {
    if libc::WIFEXITED(st) {
        Exit::Code(libc::WEXITSTATUS(st))
    } else if libc::WIFSIGNALED(st) {
        Exit::Signal(libc::WTERMSIG(st))
    } else {
        Exit::Signal(libc::SIGKILL)
    }
}
