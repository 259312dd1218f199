//! Live process groups and the interrupt handler: a SIGINT or SIGTERM kills every run
//! and removes what the audit wrote.

use super::*;

/// Process groups started and not yet killed. Spawning happens with this lock held, so
/// the interrupt watcher, which takes it before killing, never misses a fresh child.
pub(crate) static LIVE: Mutex<Vec<i32>> = Mutex::new(Vec::new());
/// Set once SIGINT/SIGTERM arrived: no new process may start.
pub(crate) static INTERRUPTED: AtomicBool = AtomicBool::new(false);
/// Write end of the self-pipe the signal handler writes to.
pub(crate) static SIGNAL_PIPE: OnceLock<OwnedFd> = OnceLock::new();
pub(crate) static INSTALL: Once = Once::new();

pub(crate) fn live() -> MutexGuard<'static, Vec<i32>> {
    LIVE.lock().unwrap_or_else(PoisonError::into_inner)
}

/// How many process groups are running right now (0 between runs).
pub fn live_process_groups() -> usize {
    live().len()
}

/// Temporary directories to remove when sgcheck is interrupted (their owners' drop
/// never runs then).
pub(crate) static TEMP_DIRS: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

/// Registers a temporary directory to be removed on SIGINT/SIGTERM/SIGHUP.
pub fn remove_on_interrupt(dir: &Path) {
    TEMP_DIRS
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .push(dir.to_path_buf());
}

/// Forgets a directory registered with [`remove_on_interrupt`] (its owner removes it).
pub fn forget_on_interrupt(dir: &Path) {
    TEMP_DIRS
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .retain(|d| d != dir);
}

/// Registers a temporary file or directory to be removed on SIGINT/SIGTERM/SIGHUP,
/// created by `make` while the registry is held: an interrupt arriving meanwhile
/// waits for the registration, so the file is never missed.
pub fn create_removed_on_interrupt<T, E>(
    make: impl FnOnce() -> Result<T, E>,
    path: impl Fn(&T) -> PathBuf,
) -> Result<T, E> {
    let mut registry = TEMP_DIRS.lock().unwrap_or_else(PoisonError::into_inner);
    let made = make()?;
    registry.push(path(&made));
    Ok(made)
}

/// The environment variable that makes sgcheck pause for a minute at a named stage
/// (`save`: with a save's temporary file written), so that the tests can interrupt it
/// there. Unset, it costs one look at the environment per stage.
pub const STALL_ENV: &str = "SGCHECK_TEST_STALL";

/// Pauses at `stage` when [`STALL_ENV`] names it (see there).
pub fn stall_point(stage: &str) {
    if std::env::var(STALL_ENV).is_ok_and(|v| v == stage) {
        std::thread::sleep(Duration::from_secs(60));
    }
}

/// Waits (up to `limit`) until sgcheck has no living descendant (zombies aside).
pub(crate) fn wait_descendants_gone(limit: Duration) {
    let me = std::process::id() as i32;
    let end = Instant::now() + limit;
    while Instant::now() < end {
        let alive = sandbox::descendants(me, 4096).into_iter().any(|p| {
            std::fs::read_to_string(format!("/proc/{p}/stat"))
                .ok()
                .and_then(|s| {
                    s.rsplit_once(')')
                        .map(|(_, r)| r.trim_start().starts_with('Z'))
                })
                .is_some_and(|zombie| !zombie)
        });
        if !alive {
            return;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
}

extern "C" fn on_signal(sig: libc::c_int) {
    // Only async-signal-safe work here: an atomic load and one write to the self-pipe.
    if let Some(fd) = SIGNAL_PIPE.get() {
        let _ = rustix::io::write(fd, &[sig as u8]);
    }
}

pub(crate) fn watch_signals(fd: OwnedFd) {
    let mut buf = [0u8; 1];
    loop {
        match rustix::io::read(&fd, &mut buf) {
            Ok(1) => break,
            Err(rustix::io::Errno::INTR) => continue,
            _ => return,
        }
    }
    let b = buf[0];
    INTERRUPTED.store(true, Ordering::SeqCst);
    // Holding the lock until exit: no run can start or deregister meanwhile.
    let groups = live();
    // A namespace's supervisor is in the group: killing it ends the namespace. The
    // fallback supervisor must live to kill what left the group: SIGTERM asks it to.
    let sig = match sandbox::containment() {
        sandbox::Containment::Namespaces => Signal::KILL,
        sandbox::Containment::Subreaper => Signal::TERM,
    };
    for &pg in groups.iter() {
        kill_group(pg, sig);
    }
    // Every slot, idle or not: its supervisor and everything under it.
    for &pg in slots::SLOT_GROUPS
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .iter()
    {
        kill_group(pg, sig);
    }
    // Then the temporary directories (builds), once nothing writes into them.
    wait_descendants_gone(Duration::from_secs(3));
    for d in TEMP_DIRS
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .iter()
    {
        if std::fs::remove_dir_all(d).is_err() {
            let _ = std::fs::remove_file(d);
        }
    }
    sandbox::remove_own_cgroups();
    let name = signal_name(i32::from(b)).unwrap_or("signal");
    let _ = writeln!(
        io::stderr(),
        "\nsgcheck: interrupted ({name}); killed {} running program(s)",
        groups.len()
    );
    std::process::exit(130);
}

/// Installs the SIGINT/SIGTERM/SIGHUP handler (once per process): on a signal every
/// live process group is killed and sgcheck exits with status 130.
pub fn install_interrupt_handler() -> Result<(), RunError> {
    let mut result = Ok(());
    INSTALL.call_once(|| result = install());
    result
}

pub(crate) fn install() -> Result<(), RunError> {
    let (read_fd, write_fd) = rustix::pipe::pipe_with(rustix::pipe::PipeFlags::CLOEXEC)
        .map_err(|e| RunError::Signal(e.into()))?;
    let _ = SIGNAL_PIPE.set(write_fd);
    std::thread::Builder::new()
        .name("sgcheck-signals".into())
        .spawn(move || watch_signals(read_fd))
        .map_err(RunError::Signal)?;
    for sig in [libc::SIGINT, libc::SIGTERM, libc::SIGHUP] {
        // SAFETY: a zeroed sigaction with an extern "C" handler, an empty mask and
        // SA_RESTART is a valid argument to sigaction(2); neither rustix nor std wraps
        // sigaction.
        let rc = unsafe {
            let mut sa: libc::sigaction = std::mem::zeroed();
            sa.sa_sigaction = on_signal as extern "C" fn(libc::c_int) as libc::sighandler_t;
            sa.sa_flags = libc::SA_RESTART;
            libc::sigemptyset(&mut sa.sa_mask);
            libc::sigaction(sig, &sa, std::ptr::null_mut())
        };
        if rc != 0 {
            return Err(RunError::Signal(io::Error::last_os_error()));
        }
    }
    Ok(())
}
