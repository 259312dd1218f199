//! Running a contestant: the [`Contestant`] trait, the real [`ProcessContestant`] and
//! the in-process fakes [`FnContestant`] and [`RawFnContestant`] used by the tests.
//!
//! A real run is contained (see [`crate::audit::sandbox`]): a supervisor per run
//! (process 1 of fresh PID, mount and IPC namespaces where the kernel allows it, with
//! a private file system, no network, a cleared environment and the uid `nobody`; else
//! a child subreaper)
//! makes sure that nothing the program starts outlives the run, whatever it does
//! (`setsid`, `setpgid`, double forks, fork storms), and that a SIGKILL of sgcheck
//! takes the run with it. Standard input is written from its own thread and standard
//! output and error are drained by two more, so a program that floods its output or
//! never reads its input cannot deadlock the audit. The output is judged once the
//! program's main process has ended: the supervisor then kills whatever is left, so
//! a detached child holding the pipe cannot hold up the verdict. While the program
//! runs, sgcheck looks at its processes every few milliseconds (10 ms at most) and
//! ends the run when they hold more memory or are more processes than allowed.
//! When [`run_command`] returns, every process of the run is gone and reaped.

use crate::audit::sandbox;
use rustix::process::{Pid, Signal};
use std::fmt;
use std::io::{self, Read, Write};
use std::os::fd::OwnedFd;
use std::os::unix::fs::PermissionsExt;
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::sync::{Arc, Mutex, MutexGuard, Once, OnceLock, PoisonError};
use std::time::{Duration, Instant};

/// How much of a program's standard error is kept for the report.
pub const STDERR_KEEP: usize = 64 * 1024;

/// Default memory limit of a run: 256 MiB, as on most judges.
pub const DEFAULT_MEMORY_LIMIT: u64 = 256 << 20;
/// Default limit on the processes of a run (the program included).
pub const DEFAULT_PROCESS_LIMIT: usize = 64;
/// Default size limit of one file the program writes (`RLIMIT_FSIZE`): 64 MiB.
pub const DEFAULT_FILE_LIMIT: u64 = 64 << 20;

/// The limits of one run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RunLimits {
    /// Wall-time limit; the process group is killed when it is reached.
    pub timeout: Duration,
    /// Most bytes of standard output kept; the run is killed when the program writes
    /// more.
    pub output_limit: usize,
    /// Most resident memory (bytes): the run is killed when its processes hold more,
    /// and judged over the limit when one of them peaked above it.
    pub memory_limit: u64,
    /// The program's stack size limit (`RLIMIT_STACK`, bytes); the inherited one when
    /// `None`.
    pub stack_limit: Option<u64>,
    /// Most processes running at once, the program included; the run is killed when
    /// it has more.
    pub process_limit: usize,
    /// Largest file the program may write (`RLIMIT_FSIZE`, bytes): a write past it
    /// fails, and the program gets SIGXFSZ.
    pub file_limit: u64,
}

impl Default for RunLimits {
    fn default() -> Self {
        RunLimits {
            timeout: Duration::from_secs(2),
            output_limit: 16 << 20,
            memory_limit: DEFAULT_MEMORY_LIMIT,
            stack_limit: None,
            process_limit: DEFAULT_PROCESS_LIMIT,
            file_limit: DEFAULT_FILE_LIMIT,
        }
    }
}

/// How a process ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Exit {
    /// It exited with this status code.
    Code(i32),
    /// It was terminated by this signal.
    Signal(i32),
}

impl Exit {
    /// Exit code 0.
    pub fn success(&self) -> bool {
        *self == Exit::Code(0)
    }
}

/// The conventional name of a signal number (`SIGSEGV`), when it has one.
pub fn signal_name(sig: i32) -> Option<&'static str> {
    Some(match sig {
        libc::SIGHUP => "SIGHUP",
        libc::SIGINT => "SIGINT",
        libc::SIGQUIT => "SIGQUIT",
        libc::SIGILL => "SIGILL",
        libc::SIGTRAP => "SIGTRAP",
        libc::SIGABRT => "SIGABRT",
        libc::SIGBUS => "SIGBUS",
        libc::SIGFPE => "SIGFPE",
        libc::SIGKILL => "SIGKILL",
        libc::SIGUSR1 => "SIGUSR1",
        libc::SIGSEGV => "SIGSEGV",
        libc::SIGUSR2 => "SIGUSR2",
        libc::SIGPIPE => "SIGPIPE",
        libc::SIGALRM => "SIGALRM",
        libc::SIGTERM => "SIGTERM",
        libc::SIGXCPU => "SIGXCPU",
        libc::SIGXFSZ => "SIGXFSZ",
        libc::SIGSYS => "SIGSYS",
        _ => return None,
    })
}

impl fmt::Display for Exit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Exit::Code(c) => write!(f, "exit code {c}"),
            Exit::Signal(s) => match signal_name(s) {
                Some(name) => write!(f, "killed by signal {s} ({name})"),
                None => write!(f, "killed by signal {s}"),
            },
        }
    }
}

/// What one run produced.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RunResult {
    /// Standard output: all of it, or its first [`OUTPUT_IN_MEMORY`] bytes when
    /// the rest went to [`RunResult::stdout_spill`].
    pub stdout: Vec<u8>,
    /// Standard output past its first [`OUTPUT_IN_MEMORY`] bytes (up to
    /// [`RunLimits::output_limit`] in all), in an unnamed temporary file; `None` when
    /// the output fitted in memory.
    pub stdout_spill: Option<Spill>,
    /// The start of standard error (at most [`STDERR_KEEP`] bytes).
    pub stderr: Vec<u8>,
    /// How the process ended (`Signal(SIGKILL)` when sgcheck killed it).
    pub exit: Exit,
    /// The time limit was reached and the process group killed.
    pub timed_out: bool,
    /// The program wrote more than the output limit and was killed.
    pub output_truncated: bool,
    /// The program's resident memory went over the memory limit (it was killed, or
    /// its peak was found above the limit when it ended).
    pub memory_exceeded: bool,
    /// The program had more processes than the process limit and was killed.
    pub process_limit_exceeded: bool,
    /// The largest resident memory seen of one of the program's processes (or their
    /// sum, when larger), in bytes; 0 when unknown.
    pub peak_memory: u64,
    /// Wall time from the start to the exit (or the kill).
    pub elapsed: Duration,
}

impl RunResult {
    /// A run that printed `stdout` and exited with `code`, instantly.
    pub fn exited(stdout: impl Into<Vec<u8>>, code: i32) -> Self {
        RunResult {
            stdout: stdout.into(),
            stdout_spill: None,
            stderr: Vec::new(),
            exit: Exit::Code(code),
            timed_out: false,
            output_truncated: false,
            memory_exceeded: false,
            process_limit_exceeded: false,
            peak_memory: 0,
            elapsed: Duration::ZERO,
        }
    }
}

/// Why a program could not be run at all (not the program's fault: a usage error).
#[derive(Debug, thiserror::Error)]
pub enum RunError {
    /// No such file, or no such command on `PATH`.
    #[error("command not found: {0}")]
    NotFound(String),
    /// The file exists but is a directory or has no execute permission.
    #[error("{0} is not an executable file")]
    NotExecutable(String),
    /// The operating system refused to start it (bad interpreter line, ...).
    #[error("cannot start {program}: {source}")]
    Spawn {
        /// The program as given.
        program: String,
        /// What the OS said.
        source: io::Error,
    },
    /// sgcheck is shutting down after SIGINT/SIGTERM; no new process is started.
    #[error("interrupted")]
    Interrupted,
    /// The SIGINT/SIGTERM handler could not be installed.
    #[error("cannot install the interrupt handler: {0}")]
    Signal(io::Error),
}

/// A program under audit: takes an input, produces a [`RunResult`].
///
/// Behind a trait so that the audit logic can be tested in-process (hyperfine's
/// `Executor`/`MockExecutor` split).
pub trait Contestant: Sync {
    /// Runs once on `input` within `limits`. `Err` only when the program could not be
    /// started at all; crashes, time-outs and floods are ordinary results.
    fn run(&self, input: &[u8], limits: &RunLimits) -> Result<RunResult, RunError>;

    /// The command line (or a description of the fake), for reports.
    fn describe(&self) -> String;
}

/// An external program, run once per input.
#[derive(Clone, Debug)]
pub struct ProcessContestant {
    program: String,
    resolved: PathBuf,
    args: Vec<String>,
    /// Variables added to the cleared environment (`--env`): a value, or the
    /// caller's value of that name.
    extra_env: Vec<(String, Option<String>)>,
    /// The working directory (the caller's when `None`), and whether the program may
    /// write into it for real (a compile) rather than into a private layer.
    dir: Option<(PathBuf, bool)>,
}

/// Variables that tell interpreters and compiler drivers where their toolchain is
/// (rustup, pyenv, the JDK); passed through because `HOME` changes. None of them is
/// a secret.
pub const TOOLCHAIN_ENV: [&str; 6] = [
    "RUSTUP_HOME",
    "CARGO_HOME",
    "RUSTUP_TOOLCHAIN",
    "PYENV_ROOT",
    "PYENV_VERSION",
    "JAVA_HOME",
];

/// The environment of a run: sgcheck's own is cleared, and the program gets `PATH`
/// (the caller's, or `/usr/local/bin:/usr/bin:/bin`), `HOME` set to its working
/// directory, `LANG` (the caller's, when set), the toolchain locations of
/// [`TOOLCHAIN_ENV`] (the caller's, or `~/.rustup`, `~/.cargo` and `~/.pyenv` when
/// those exist), and the `extra` variables (`--env NAME=VALUE`, or `--env NAME` for
/// the caller's value).
pub fn run_environment(home: &Path, extra: &[(String, Option<String>)]) -> Vec<(String, String)> {
    let mut env = vec![
        (
            "PATH".to_string(),
            std::env::var("PATH").unwrap_or_else(|_| "/usr/local/bin:/usr/bin:/bin".into()),
        ),
        ("HOME".to_string(), home.display().to_string()),
    ];
    if let Ok(lang) = std::env::var("LANG") {
        env.push(("LANG".into(), lang));
    }
    let caller_home = std::env::var_os("HOME").map(PathBuf::from);
    for name in TOOLCHAIN_ENV {
        let value = std::env::var(name).ok().or_else(|| {
            let sub = match name {
                "RUSTUP_HOME" => ".rustup",
                "CARGO_HOME" => ".cargo",
                "PYENV_ROOT" => ".pyenv",
                _ => return None,
            };
            let p = caller_home.as_ref()?.join(sub);
            p.is_dir().then(|| p.display().to_string())
        });
        if let Some(v) = value {
            env.push((name.to_string(), v));
        }
    }
    for (name, value) in extra {
        let v = match value {
            Some(v) => Some(v.clone()),
            None => std::env::var(name).ok(),
        };
        if let Some(v) = v {
            env.retain(|(n, _)| n != name);
            env.push((name.clone(), v));
        }
    }
    env
}

fn is_executable_file(path: &Path) -> bool {
    std::fs::metadata(path)
        .map(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
        .unwrap_or(false)
}

impl ProcessContestant {
    /// Resolves `program` (a path when it contains `/`, else a command on `PATH`) and
    /// checks that it is an executable file, so a typo is a usage error up front.
    pub fn new(program: &str, args: Vec<String>) -> Result<Self, RunError> {
        let resolved = if program.contains('/') {
            let path = PathBuf::from(program);
            if !path.exists() {
                return Err(RunError::NotFound(program.to_string()));
            }
            if !is_executable_file(&path) {
                return Err(RunError::NotExecutable(program.to_string()));
            }
            path
        } else {
            if program.is_empty() {
                return Err(RunError::NotFound(String::new()));
            }
            let path_var = std::env::var_os("PATH").unwrap_or_default();
            let mut found = None;
            let mut not_exec = None;
            for dir in std::env::split_paths(&path_var) {
                let candidate = dir.join(program);
                if is_executable_file(&candidate) {
                    found = Some(candidate);
                    break;
                }
                if candidate.exists() && not_exec.is_none() {
                    not_exec = Some(candidate);
                }
            }
            match (found, not_exec) {
                (Some(p), _) => p,
                (None, Some(p)) => return Err(RunError::NotExecutable(p.display().to_string())),
                (None, None) if Path::new(program).is_file() => {
                    return Err(RunError::NotFound(format!(
                        "{program} (not on PATH; for the file in this directory write ./{program})"
                    )))
                }
                (None, None) => return Err(RunError::NotFound(program.to_string())),
            }
        };
        Ok(ProcessContestant {
            program: program.to_string(),
            resolved,
            args,
            extra_env: Vec::new(),
            dir: None,
        })
    }

    /// Adds variables to the program's cleared environment (see [`run_environment`]).
    pub fn with_env(mut self, extra: Vec<(String, Option<String>)>) -> Self {
        self.extra_env = extra;
        self
    }

    /// Runs the program in `dir` instead of the caller's directory; with `writable`,
    /// its writes there are real (a compile), else they stay private to the run
    /// (where the machine has namespaces).
    pub fn in_dir(mut self, dir: PathBuf, writable: bool) -> Self {
        self.dir = Some((dir, writable));
        self
    }

    /// The program as given on the command line.
    pub fn program(&self) -> &str {
        &self.program
    }

    /// The arguments passed to it.
    pub fn args(&self) -> &[String] {
        &self.args
    }
}

/// A byte count for people: `256 MiB`, `1.5 GiB`, `800 KiB`, `12 bytes`.
pub fn format_size(bytes: u64) -> String {
    const UNITS: [(&str, u64); 3] = [("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)];
    for (name, unit) in UNITS {
        if bytes >= unit {
            let v = bytes as f64 / unit as f64;
            return if bytes.is_multiple_of(unit) {
                format!("{} {name}", bytes / unit)
            } else {
                format!("{v:.1} {name}")
            };
        }
    }
    format!("{bytes} bytes")
}

/// Quotes a word for a POSIX shell when it needs it.
pub fn shell_quote(word: &str) -> String {
    crate::shell::quote(word)
}

impl Contestant for ProcessContestant {
    fn run(&self, input: &[u8], limits: &RunLimits) -> Result<RunResult, RunError> {
        let (dir, writable) = match &self.dir {
            Some((d, w)) => (d.clone(), *w),
            None => (
                std::env::current_dir().map_err(|source| RunError::Spawn {
                    program: self.program.clone(),
                    source,
                })?,
                false,
            ),
        };
        let dir = std::fs::canonicalize(&dir).unwrap_or(dir);
        let env = run_environment(&dir, &self.extra_env);
        // Paths the program needs to reach: itself, files on its command line, PATH
        // and the toolchains.
        let mut needed =
            vec![std::fs::canonicalize(&self.resolved).unwrap_or_else(|_| self.resolved.clone())];
        for a in &self.args {
            let p = dir.join(a);
            if a.len() < 4096 && p.exists() {
                needed.push(std::fs::canonicalize(&p).unwrap_or(p));
            }
        }
        for (name, value) in &env {
            if name == "PATH" {
                needed.extend(std::env::split_paths(value).filter(|p| p.is_absolute()));
            } else if TOOLCHAIN_ENV.contains(&name.as_str()) && value.starts_with('/') {
                needed.push(PathBuf::from(value));
            }
        }
        let mut cmd = Command::new(&self.resolved);
        cmd.args(&self.args)
            .env_clear()
            .envs(env.iter().map(|(k, v)| (k, v)))
            .current_dir(&dir)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .process_group(0);
        let place = Place {
            cwd: &dir,
            writable,
            needed: &needed,
        };
        run_command(&mut cmd, &self.program, input, limits, &place)
    }

    fn describe(&self) -> String {
        crate::shell::command(
            std::iter::once(self.program.as_str()).chain(self.args.iter().map(String::as_str)),
        )
    }
}

// ---------------------------------------------------------------------------------
// Live process groups and the interrupt handler.

/// Process groups started and not yet killed. Spawning happens with this lock held, so
/// the interrupt watcher, which takes it before killing, never misses a fresh child.
static LIVE: Mutex<Vec<i32>> = Mutex::new(Vec::new());
/// Set once SIGINT/SIGTERM arrived: no new process may start.
static INTERRUPTED: AtomicBool = AtomicBool::new(false);
/// Write end of the self-pipe the signal handler writes to.
static SIGNAL_PIPE: OnceLock<OwnedFd> = OnceLock::new();
static INSTALL: Once = Once::new();

fn live() -> MutexGuard<'static, Vec<i32>> {
    LIVE.lock().unwrap_or_else(PoisonError::into_inner)
}

/// How many process groups are running right now (0 between runs).
pub fn live_process_groups() -> usize {
    live().len()
}

/// Temporary directories to remove when sgcheck is interrupted (their owners' drop
/// never runs then).
static TEMP_DIRS: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

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

/// Waits (up to `limit`) until sgcheck has no living descendant (zombies aside).
fn wait_descendants_gone(limit: Duration) {
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

fn watch_signals(fd: OwnedFd) {
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
    // Then the temporary directories (builds), once nothing writes into them.
    wait_descendants_gone(Duration::from_secs(3));
    for d in TEMP_DIRS
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .iter()
    {
        let _ = std::fs::remove_dir_all(d);
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

fn install() -> Result<(), RunError> {
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

// ---------------------------------------------------------------------------------
// One run.

/// Whether `pid` has exited, without reaping it (`WNOWAIT`).
fn has_exited(pid: i32) -> bool {
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
fn kill_group(pgid: i32, sig: Signal) {
    if let Some(p) = Pid::from_raw(pgid) {
        let _ = rustix::process::kill_process_group(p, sig);
    }
}

/// Waits up to `limit` for `pid` (our child) to exit, without reaping it.
fn wait_exit(pid: i32, pidfd: Option<&OwnedFd>, limit: Duration) -> bool {
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
fn poll_readable(fd: &OwnedFd, wait: Duration) {
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
struct Drain {
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
enum Stop {
    Time,
    Output,
    Memory,
    Processes,
}

/// How long the pipes may stay open after every process of a run is gone (they close
/// at once; only a stuck reader thread would wait this long).
const PIPE_GRACE: Duration = Duration::from_millis(500);
/// How long a supervisor has to clean up after a stop request before it is killed.
const STOP_GRACE: Duration = Duration::from_secs(1);

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
struct SlotGuard(Option<sandbox::NetSlot>);

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
fn end_run(
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
fn decode_status(st: i32) -> Exit {
    if libc::WIFEXITED(st) {
        Exit::Code(libc::WEXITSTATUS(st))
    } else if libc::WIFSIGNALED(st) {
        Exit::Signal(libc::WTERMSIG(st))
    } else {
        Exit::Signal(libc::SIGKILL)
    }
}

// ---------------------------------------------------------------------------------
// In-process fakes.

/// A fake contestant: a closure from the input text to the output text, run in
/// process. It always "exits 0"; its output is cut at the output limit.
pub struct FnContestant<F> {
    f: F,
}

impl<F: Fn(&str) -> String + Sync> FnContestant<F> {
    /// Wraps `f`.
    pub fn new(f: F) -> Self {
        FnContestant { f }
    }
}

impl<F: Fn(&str) -> String + Sync> Contestant for FnContestant<F> {
    fn run(&self, input: &[u8], limits: &RunLimits) -> Result<RunResult, RunError> {
        let start = Instant::now();
        let mut out = (self.f)(&String::from_utf8_lossy(input)).into_bytes();
        let truncated = out.len() > limits.output_limit;
        out.truncate(limits.output_limit);
        Ok(RunResult {
            stdout: out,
            stdout_spill: None,
            stderr: Vec::new(),
            exit: Exit::Code(0),
            timed_out: false,
            output_truncated: truncated,
            memory_exceeded: false,
            process_limit_exceeded: false,
            peak_memory: 0,
            elapsed: start.elapsed(),
        })
    }

    fn describe(&self) -> String {
        "<in-process function>".to_string()
    }
}

/// A fake contestant that returns a whole [`RunResult`]: for faking crashes,
/// time-outs and floods without a process.
pub struct RawFnContestant<F> {
    f: F,
}

impl<F: Fn(&[u8], &RunLimits) -> RunResult + Sync> RawFnContestant<F> {
    /// Wraps `f`.
    pub fn new(f: F) -> Self {
        RawFnContestant { f }
    }
}

impl<F: Fn(&[u8], &RunLimits) -> RunResult + Sync> Contestant for RawFnContestant<F> {
    fn run(&self, input: &[u8], limits: &RunLimits) -> Result<RunResult, RunError> {
        Ok((self.f)(input, limits))
    }

    fn describe(&self) -> String {
        "<in-process function>".to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sh(script: &str) -> ProcessContestant {
        ProcessContestant::new("sh", vec!["-c".into(), script.into()]).unwrap()
    }

    fn limits(ms: u64, out: usize) -> RunLimits {
        RunLimits {
            timeout: Duration::from_millis(ms),
            output_limit: out,
            ..RunLimits::default()
        }
    }

    #[test]
    fn echoes_input() {
        let r = sh("cat").run(b"1 2 3\n", &limits(5000, 1 << 20)).unwrap();
        assert_eq!(r.stdout, b"1 2 3\n");
        assert_eq!(r.exit, Exit::Code(0));
        assert!(!r.timed_out && !r.output_truncated);
    }

    #[test]
    fn exit_code_and_signal() {
        let r = sh("exit 3").run(b"", &limits(5000, 1024)).unwrap();
        assert_eq!(r.exit, Exit::Code(3));
        assert_eq!(r.exit.to_string(), "exit code 3");
        let r = sh("kill -SEGV $$").run(b"", &limits(5000, 1024)).unwrap();
        assert_eq!(r.exit, Exit::Signal(libc::SIGSEGV));
        assert!(r.exit.to_string().contains("SIGSEGV"));
    }

    #[test]
    fn timeout_kills_the_group() {
        let start = Instant::now();
        let r = sh("sleep 30 & sleep 30; wait")
            .run(b"", &limits(300, 1024))
            .unwrap();
        assert!(r.timed_out);
        assert!(start.elapsed() < Duration::from_secs(5));
    }

    #[test]
    fn flood_is_cut() {
        let r = sh("yes").run(b"", &limits(10_000, 100_000)).unwrap();
        assert!(r.output_truncated);
        assert!(!r.timed_out);
        assert_eq!(r.stdout.len(), 100_000);
    }

    #[test]
    fn program_that_ignores_big_input() {
        let input = vec![b'1'; 4 << 20];
        let r = sh("echo done").run(&input, &limits(5000, 1024)).unwrap();
        assert_eq!(r.stdout, b"done\n");
    }

    #[test]
    fn missing_and_not_executable() {
        assert!(matches!(
            ProcessContestant::new("/nonexistent/prog", vec![]),
            Err(RunError::NotFound(_))
        ));
        assert!(matches!(
            ProcessContestant::new("no-such-command-sgcheck", vec![]),
            Err(RunError::NotFound(_))
        ));
        assert!(matches!(
            ProcessContestant::new("/", vec![]),
            Err(RunError::NotExecutable(_))
        ));
    }

    #[test]
    fn quoting() {
        assert_eq!(shell_quote("./a.out"), "./a.out");
        assert_eq!(shell_quote("a b"), "'a b'");
        assert_eq!(shell_quote("it's"), "'it'\\''s'");
    }
}
