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
    pub(crate) fn spawn_spilling<R: Read + Send + 'static>(
        mut r: R,
        limit: usize,
        over: Arc<AtomicBool>,
    ) -> Drain {
        let keep = limit.min(OUTPUT_IN_MEMORY);
        let buf = Arc::new(Mutex::new(Vec::new()));
        let spill: Arc<Mutex<Option<std::fs::File>>> = Arc::new(Mutex::new(None));
        let (tx, done) = mpsc::channel();
        let (shared, shared_spill) = (Arc::clone(&buf), Arc::clone(&spill));
        slots::io_spawn(move || {
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
    pub(crate) fn take_spilled(self, grace: Duration) -> (Vec<u8>, Option<Spill>) {
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
    pub(crate) fn spawn<R: Read + Send + 'static>(
        mut r: R,
        keep: usize,
        over: Option<Arc<AtomicBool>>,
    ) -> Drain {
        let buf = Arc::new(Mutex::new(Vec::new()));
        let (tx, done) = mpsc::channel();
        let shared = Arc::clone(&buf);
        slots::io_spawn(move || {
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
    pub(crate) fn take(self, grace: Duration) -> Vec<u8> {
        let _ = self.done.recv_timeout(grace);
        std::mem::take(&mut *self.buf.lock().unwrap_or_else(PoisonError::into_inner))
    }
}

/// Why sgcheck ended a run before the program did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Stop {
    Time,
    /// The caller's [`super::abandoning_at`] instant came first.
    Abandoned,
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
    /// Directories the program must not see (covered by an empty one).
    pub hidden: &'a [PathBuf],
}

/// Returns a network namespace to the pool when the run is over.
pub(crate) struct SlotGuard(pub(crate) Option<sandbox::NetSlot>);

impl Drop for SlotGuard {
    fn drop(&mut self) {
        if let Some(s) = self.0.take() {
            sandbox::put_net_slot(s);
        }
    }
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
