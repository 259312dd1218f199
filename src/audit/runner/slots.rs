//! The pool of slots: long-lived supervisors (see [`crate::audit::sandbox`]), one per
//! parallel run, each prepared once for a working directory and reused by the next
//! run there.
//!
//! Slots are started from one thread that lives as long as sgcheck (the parent-death
//! signal of a child fires when the *thread* that forked it ends, and the audit's
//! worker threads come and go).

use super::*;
use std::ffi::CString;
use std::os::fd::{AsFd, AsRawFd, BorrowedFd};

/// A supervisor serving runs, and the process sgcheck spawned for it (itself in the
/// fallback, the relay above the namespace otherwise).
pub(crate) struct Slot {
    key: String,
    mode: sandbox::Containment,
    child: std::process::Child,
    sock: OwnedFd,
    /// The supervisor's pid (sgcheck's view) and a pidfd for it.
    pub supervisor: i32,
    supervisor_fd: Option<OwnedFd>,
    /// The supervisor's own peak memory, which a program's `ru_maxrss` includes.
    pub inherited: OnceLock<u64>,
    /// With namespaces, the memory cgroup every run of the slot joins (its limit is
    /// the runs'; the program cannot see its files), and the OOM kills counted in it
    /// so far.
    pub cgroup: Option<sandbox::Cgroup>,
    pub oom_seen: u64,
    _net: SlotGuard,
}

/// Idle slots.
static POOL: Mutex<Vec<Slot>> = Mutex::new(Vec::new());
/// Process groups of every living slot, killed by the interrupt handler.
pub(crate) static SLOT_GROUPS: Mutex<Vec<i32>> = Mutex::new(Vec::new());

fn slot_groups() -> MutexGuard<'static, Vec<i32>> {
    SLOT_GROUPS.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Ends every idle slot (at exit).
pub(crate) fn close_idle_slots() {
    let idle = std::mem::take(&mut *POOL.lock().unwrap_or_else(PoisonError::into_inner));
    for s in idle {
        s.end();
    }
}

extern "C" fn close_slots_at_exit() {
    close_idle_slots();
    // A run's cgroup that could not be removed at once (a process of the run still
    // leaving it) goes now.
    sandbox::remove_own_cgroups();
}

type Job = Box<dyn FnOnce() + Send>;

/// Runs `f` on the long-lived spawner thread and returns its result.
fn on_spawner<R: Send + 'static>(f: impl FnOnce() -> R + Send + 'static) -> Option<R> {
    static SPAWNER: OnceLock<Mutex<mpsc::Sender<Job>>> = OnceLock::new();
    let tx = SPAWNER.get_or_init(|| {
        let (tx, rx) = mpsc::channel::<Job>();
        let _ = std::thread::Builder::new()
            .name("sgcheck-slots".into())
            .spawn(move || {
                for job in rx {
                    job();
                }
            });
        Mutex::new(tx)
    });
    let (back, result) = mpsc::channel();
    let job: Job = Box::new(move || {
        let _ = back.send(f());
    });
    tx.lock()
        .unwrap_or_else(PoisonError::into_inner)
        .send(job)
        .ok()?;
    result.recv().ok()
}

/// Says on standard error, before the first program runs, what the fallback lets a
/// program do that namespaces would not.
fn warn_fallback() {
    let root = rustix::process::geteuid().is_root();
    let who = if root {
        "runs as nobody but may read every file of the machine (it keeps the right to \
         read any directory, so that it finds its toolchain)"
    } else {
        "runs as your user: it can signal sgcheck and your other processes, and read \
         and write what you can"
    };
    let why = if std::env::var(sandbox::CONTAINMENT_ENV).is_ok_and(|v| v == "subreaper") {
        "SGCHECK_CONTAINMENT=subreaper"
    } else {
        "no namespaces here (sgcheck needs root, or PID, mount, IPC and network namespaces)"
    };
    eprintln!(
        "warning: {why}: programs run in the weaker subreaper containment. A program {who}; \
         it sees the machine's /tmp, /dev/shm and processes, can reach the network, and \
         files, IPC objects or sockets it leaves there are seen by later runs. Audit \
         programs you do not trust where namespaces are available."
    );
}

/// What a slot is prepared for: runs with the same request share slots.
pub(crate) struct SlotRequest {
    pub mode: sandbox::Containment,
    pub cwd: PathBuf,
    pub writable: bool,
    pub needed: Vec<PathBuf>,
    pub hidden: Vec<PathBuf>,
    pub size: u64,
    pub run_as: Option<u32>,
    pub memory_limit: u64,
}

impl SlotRequest {
    fn key(&self) -> String {
        format!(
            "{:?}|{:?}|{}|{:?}|{:?}|{}|{:?}|{}",
            self.mode,
            self.cwd,
            self.writable,
            self.needed,
            self.hidden,
            self.size,
            self.run_as,
            self.memory_limit
        )
    }
}

impl Slot {
    /// An idle slot for `req`, or a new one. Idle slots prepared for something else
    /// are ended (a compile's, once the runs begin).
    pub fn take(req: &SlotRequest) -> Result<Slot, RunError> {
        let key = req.key();
        let mut stale = Vec::new();
        let found = {
            let mut pool = POOL.lock().unwrap_or_else(PoisonError::into_inner);
            let mut found = None;
            let mut i = 0;
            while i < pool.len() {
                let alive = !has_exited(pool[i].child.id() as i32);
                if alive && pool[i].key == key && found.is_none() {
                    found = Some(pool.swap_remove(i));
                } else if !alive || pool[i].key != key {
                    stale.push(pool.swap_remove(i));
                } else {
                    i += 1;
                }
            }
            found
        };
        for s in stale {
            s.end();
        }
        match found {
            Some(s) => Ok(s),
            None => Slot::start(req, key),
        }
    }

    /// Gives an idle slot back for the next run.
    pub fn put(self) {
        POOL.lock()
            .unwrap_or_else(PoisonError::into_inner)
            .push(self);
    }

    fn start(req: &SlotRequest, key: String) -> Result<Slot, RunError> {
        static AT_EXIT: Once = Once::new();
        AT_EXIT.call_once(|| {
            // SAFETY: registers a plain extern "C" function with no arguments; it runs
            // once, at the process's exit, in the exiting thread. std has no wrapper.
            unsafe {
                libc::atexit(close_slots_at_exit);
            }
            sandbox::sweep_leftovers();
            if req.mode == sandbox::Containment::Subreaper {
                warn_fallback();
            }
        });
        let spawn_error = |source: io::Error| RunError::Spawn {
            program: "the run's supervisor".into(),
            source,
        };
        let namespaces = req.mode == sandbox::Containment::Namespaces;
        // The cgroup file system is hidden too: a run reads no counter of the slot's
        // memory cgroup (nor of another slot's).
        let mut hidden = req.hidden.clone();
        let cgroups = Path::new("/sys/fs/cgroup");
        if cgroups.is_dir() {
            hidden.push(cgroups.to_path_buf());
        }
        let fs = if namespaces {
            Some(
                sandbox::FsPlan::new(&sandbox::FsRequest {
                    cwd: &req.cwd,
                    writable_cwd: req.writable,
                    needed: &req.needed,
                    hidden: &hidden,
                    size: req.size,
                    drop_uid: req.run_as.is_some(),
                })
                .ok_or_else(|| {
                    spawn_error(io::Error::new(
                        io::ErrorKind::InvalidInput,
                        "a path of the run holds a NUL byte",
                    ))
                })?,
            )
        } else {
            None
        };
        let cwd = CString::new(req.cwd.as_os_str().as_encoded_bytes()).map_err(|_| {
            spawn_error(io::Error::new(
                io::ErrorKind::InvalidInput,
                "the working directory holds a NUL byte",
            ))
        })?;
        let net = SlotGuard(if namespaces {
            sandbox::take_net_slot()
        } else {
            None
        });
        let (ours, theirs) = rustix::net::socketpair(
            rustix::net::AddressFamily::UNIX,
            rustix::net::SocketType::SEQPACKET,
            rustix::net::SocketFlags::CLOEXEC,
            None,
        )
        .map_err(|e| spawn_error(e.into()))?;
        let tmp_names = fs.as_ref().map(|f| f.tmp_names.clone()).unwrap_or_default();
        let mut plan = sandbox::ChildPlan {
            mode: req.mode,
            parent: std::process::id() as i32,
            run_as: req.run_as,
            net: net.0.as_ref().map(sandbox::NetSlot::raw),
            fs,
            cwd: Some(cwd),
            slot: Some(sandbox::SlotPlan {
                sock: theirs.as_raw_fd(),
                mem: sandbox::SlotMemory::new(),
                watched: [-1; sandbox::WATCHED],
                tmp_names,
            }),
        };
        let child = on_spawner(move || {
            let mut cmd = Command::new("/proc/self/exe");
            cmd.stdin(Stdio::null())
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .process_group(0);
            // SAFETY: child_setup makes only async-signal-safe calls.
            unsafe {
                cmd.pre_exec(move || sandbox::child_setup(&mut plan));
            }
            // Held until the slot is registered: the interrupt handler, which takes
            // it first, never misses a fresh slot.
            let _groups = live();
            if INTERRUPTED.load(Ordering::SeqCst) {
                return Err(RunError::Interrupted);
            }
            let child = cmd.spawn().map_err(|source| RunError::Spawn {
                program: "the run's supervisor".into(),
                source,
            })?;
            slot_groups().push(child.id() as i32);
            drop(theirs);
            Ok(child)
        })
        .ok_or_else(|| spawn_error(io::Error::other("the spawner thread is gone")))??;
        let pid = child.id() as i32;
        let supervisor = match req.mode {
            sandbox::Containment::Subreaper => pid,
            sandbox::Containment::Namespaces => {
                // The relay forks the supervisor before the spawn returns.
                sandbox::children(pid).first().copied().unwrap_or(-1)
            }
        };
        let supervisor_fd = (supervisor > 0)
            .then(|| sandbox::pidfd_open(supervisor))
            .flatten();
        let cgroup = namespaces
            .then(|| sandbox::Cgroup::for_run().filter(|c| c.set_limit(req.memory_limit)))
            .flatten();
        Ok(Slot {
            key,
            cgroup,
            oom_seen: 0,
            mode: req.mode,
            child,
            sock: ours,
            supervisor,
            supervisor_fd,
            inherited: OnceLock::new(),
            _net: net,
        })
    }

    /// The process group of the slot (the spawned child's pid).
    pub fn group(&self) -> i32 {
        self.child.id() as i32
    }

    /// Sends one run's request with its descriptors; an error when the slot is gone.
    pub fn send(&self, msg: &[u8], fds: &[BorrowedFd<'_>]) -> io::Result<()> {
        let mut space = [std::mem::MaybeUninit::<u8>::uninit(); rustix::cmsg_space!(ScmRights(5))];
        let mut control = rustix::net::SendAncillaryBuffer::new(&mut space);
        if !control.push(rustix::net::SendAncillaryMessage::ScmRights(fds)) {
            return Err(io::Error::other("too many descriptors"));
        }
        let n = rustix::net::sendmsg(
            self.sock.as_fd(),
            &[io::IoSlice::new(msg)],
            &mut control,
            rustix::net::SendFlags::NOSIGNAL,
        )?;
        if n != msg.len() {
            return Err(io::Error::other("short request"));
        }
        Ok(())
    }

    /// Ends the slot and everything in it, and reaps it.
    pub fn end(self) {
        match (self.mode, &self.supervisor_fd) {
            (sandbox::Containment::Namespaces, Some(fd)) => {
                // The kernel kills every process of the namespace with it.
                sandbox::pidfd_kill(fd, Signal::KILL);
            }
            (sandbox::Containment::Subreaper, _) => {
                // Asked to stop, the supervisor kills everything it finds, then exits.
                let pid = self.child.id() as i32;
                if let Some(p) = Pid::from_raw(pid) {
                    let _ = rustix::process::kill_process(p, Signal::TERM);
                }
                let pidfd = sandbox::pidfd_open(pid);
                wait_exit(pid, pidfd.as_ref(), STOP_GRACE);
            }
            _ => {}
        }
        // Our unreaped child: the group id is still its own.
        kill_group(self.child.id() as i32, Signal::KILL);
        self.reap();
    }

    /// Waits for the slot's process (which is exiting) and forgets it.
    pub fn reap(mut self) {
        let pid = self.child.id() as i32;
        let pidfd = sandbox::pidfd_open(pid);
        if !wait_exit(pid, pidfd.as_ref(), STOP_GRACE) {
            kill_group(pid, Signal::KILL);
        }
        while let Err(e) = self.child.wait() {
            if e.kind() != io::ErrorKind::Interrupted {
                break;
            }
        }
        slot_groups().retain(|&g| g != pid);
    }
}

/// Runs `job` on a thread of its own at once: an idle helper thread when there is one,
/// else a new one, which stays for later jobs. A run's input writer and output
/// readers each block until the program is done, so every job gets a thread to
/// itself, never a place in a queue; reusing the threads saves three thread starts
/// per run.
pub(crate) fn io_spawn(job: impl FnOnce() + Send + 'static) {
    struct Helpers {
        tx: Mutex<mpsc::Sender<Job>>,
        rx: Arc<Mutex<mpsc::Receiver<Job>>>,
        /// Helpers waiting for a job and not yet claimed.
        idle: std::sync::atomic::AtomicUsize,
    }
    static HELPERS: OnceLock<Helpers> = OnceLock::new();
    let h = HELPERS.get_or_init(|| {
        let (tx, rx) = mpsc::channel();
        Helpers {
            tx: Mutex::new(tx),
            rx: Arc::new(Mutex::new(rx)),
            idle: std::sync::atomic::AtomicUsize::new(0),
        }
    });
    let mut job: Job = Box::new(job);
    loop {
        let n = h.idle.load(Ordering::SeqCst);
        if n == 0 {
            break;
        }
        if h.idle
            .compare_exchange(n, n - 1, Ordering::SeqCst, Ordering::SeqCst)
            .is_ok()
        {
            // A claimed helper is (or soon will be) waiting on the channel.
            match h
                .tx
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .send(job)
            {
                Ok(()) => return,
                Err(mpsc::SendError(j)) => {
                    job = j;
                    break;
                }
            }
        }
    }
    let rx = Arc::clone(&h.rx);
    let spawned = std::thread::Builder::new()
        .name("sgcheck-io".into())
        .spawn(move || {
            job();
            loop {
                h.idle.fetch_add(1, Ordering::SeqCst);
                let next = rx.lock().unwrap_or_else(PoisonError::into_inner).recv();
                match next {
                    Ok(j) => j(),
                    Err(_) => return,
                }
            }
        });
    if let Err(e) = spawned {
        eprintln!("warning: cannot start a thread: {e}");
    }
}
