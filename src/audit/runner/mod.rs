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
//! ends the run when they have used more CPU time, hold more memory or are more
//! processes than allowed, or when the wall-clock limit is reached. A time-out is
//! run again with no other run going before it is believed
//! ([`ProcessContestant`]'s `run`).
//! When [`run_command`] returns, every process of the run is gone and reaped.

use crate::audit::sandbox;
use rustix::process::{Pid, Signal};
use std::fmt;
use std::io::{self, Read, Write};
use std::os::fd::OwnedFd;
use std::os::unix::fs::PermissionsExt;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::sync::{Arc, Mutex, MutexGuard, Once, OnceLock, PoisonError};
use std::time::{Duration, Instant};

mod interrupt;
pub use interrupt::*;
mod run;
pub use run::*;
mod fakes;
pub use fakes::*;
mod contained;
mod slots;
pub use contained::*;

/// Every run holds this shared; the rerun of a time-out holds it alone, so that it
/// runs with no other run going.
static RUN_GATE: std::sync::RwLock<()> = std::sync::RwLock::new(());

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
    /// CPU time limit (user and system, of every process of the run together), as a
    /// judge counts it: the run is ended when its processes have used more, and a run
    /// that ends past it is over the limit too.
    pub timeout: Duration,
    /// Wall-clock limit, for programs that sleep or wait for input without using
    /// CPU; [`RunLimits::wall_limit`] when `None` (twice the CPU limit plus a
    /// second).
    pub wall_timeout: Option<Duration>,
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

impl RunLimits {
    /// The wall-clock limit: [`RunLimits::wall_timeout`], or twice the CPU limit plus
    /// a second (room for a loaded machine; a run that reaches it is run again
    /// alone before it is reported).
    pub fn wall_limit(&self) -> Duration {
        self.wall_timeout
            .unwrap_or_else(|| self.timeout.saturating_mul(2) + Duration::from_secs(1))
    }
}

impl Default for RunLimits {
    fn default() -> Self {
        RunLimits {
            timeout: Duration::from_secs(2),
            wall_timeout: None,
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
    /// The CPU time limit or the wall-clock limit was reached (the run was ended
    /// then), or the run ended having used more CPU time than its limit.
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
    /// CPU time (user and system) of every process of the run together; zero when
    /// unknown (an in-process fake).
    pub cpu_time: Duration,
    /// The run timed out once among other runs, and this is the result of running it
    /// again with no other run going (see [`ProcessContestant`]).
    pub confirmed_alone: bool,
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
            cpu_time: Duration::ZERO,
            confirmed_alone: false,
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
    /// The run was still going when the caller's time ran out ([`abandoning_at`]): it
    /// was killed, and how it would have ended is not known.
    #[error("abandoned at the end of the time given to the runs")]
    Abandoned,
}

thread_local! {
    static ABANDON_AT: std::cell::Cell<Option<Instant>> = const { std::cell::Cell::new(None) };
}

/// Runs `f` with every run it makes on this thread abandoned at `at`: a run not yet
/// started then is not started, and one still going is killed; both end in
/// [`RunError::Abandoned`], neither judged nor counted. An audit's search uses it so
/// that `--time` is kept whatever the program's time limit (a run that ended in time
/// is judged as always).
///
/// The second run of a time-out (the run again with no other run going, which
/// confirms it) is never abandoned: it confirms a finding.
pub fn abandoning_at<T>(at: Instant, f: impl FnOnce() -> T) -> T {
    with_abandon(Some(at), f)
}

fn with_abandon<T>(at: Option<Instant>, f: impl FnOnce() -> T) -> T {
    struct Restore(Option<Instant>);
    impl Drop for Restore {
        fn drop(&mut self) {
            ABANDON_AT.with(|c| c.set(self.0));
        }
    }
    let _restore = Restore(ABANDON_AT.with(|c| c.replace(at)));
    f()
}

/// The instant of [`abandoning_at`] in force on this thread.
pub(crate) fn abandon_at() -> Option<Instant> {
    ABANDON_AT.with(std::cell::Cell::get)
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
    /// Directories the program must not see (a package's answers), covered by an
    /// empty one in its file system (namespaces).
    hidden: Vec<PathBuf>,
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
            hidden: Vec::new(),
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

    /// Hides these directories from the program: each is covered by an empty,
    /// read-only directory in the run's file system (where the machine has
    /// namespaces; the fallback cannot hide anything, and says so).
    pub fn hiding(mut self, dirs: Vec<PathBuf>) -> Self {
        self.hidden = dirs
            .into_iter()
            .map(|d| std::fs::canonicalize(&d).unwrap_or(d))
            .collect();
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
        let mut env = run_environment(&dir, &self.extra_env);
        let sees_cgroup = sandbox::memory_enforcement() != sandbox::MemoryEnforcement::Polling
            && sandbox::containment() == sandbox::Containment::Subreaper;
        if !sees_cgroup && !env.iter().any(|(k, _)| k == "JAVA_TOOL_OPTIONS") {
            // Without a memory cgroup it can see (none, or its files hidden, as with
            // namespaces) a JVM sizes its heap from the machine's memory: it is told
            // the run's limit instead (a cgroup it sees tells it by itself).
            env.push((
                "JAVA_TOOL_OPTIONS".into(),
                format!("-XX:MaxRAM={}", limits.memory_limit),
            ));
        }
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
        let place = Place {
            cwd: &dir,
            writable,
            needed: &needed,
            hidden: &self.hidden,
        };
        let launch = Launch {
            path: &self.resolved,
            argv0: &self.program,
            args: &self.args,
            env: &env,
        };
        // Runs share the machine; a time-out among them is run again with no other
        // run going (every other run waits), and only a second time-out is reported.
        let first = {
            let _shared = RUN_GATE.read().unwrap_or_else(PoisonError::into_inner);
            run_command(&launch, input, limits, &place)?
        };
        if !first.timed_out {
            return Ok(first);
        }
        let _alone = RUN_GATE.write().unwrap_or_else(PoisonError::into_inner);
        let mut again = with_abandon(None, || run_command(&launch, input, limits, &place))?;
        again.confirmed_alone = true;
        Ok(again)
    }

    fn describe(&self) -> String {
        crate::shell::command(
            std::iter::once(self.program.as_str()).chain(self.args.iter().map(String::as_str)),
        )
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

    /// Processes whose command line holds `marker`.
    fn running_with(marker: &str) -> usize {
        std::fs::read_dir("/proc")
            .into_iter()
            .flatten()
            .flatten()
            .filter(|e| {
                std::fs::read(e.path().join("cmdline"))
                    .is_ok_and(|c| String::from_utf8_lossy(&c).contains(marker))
            })
            .count()
    }

    #[test]
    fn a_run_past_the_abandon_instant_is_killed_and_not_judged() {
        // A sleeper within its own limits (10 s of CPU) is killed at the caller's
        // instant, with everything it started; a run after the instant never starts.
        // The sleeps' own command lines carry the marker (GNU sleep takes fractions).
        let marker = format!("29.{}", std::process::id());
        let script = format!("sleep {marker} & sleep {marker}; wait");
        let start = Instant::now();
        let at = start + Duration::from_millis(300);
        let r = abandoning_at(at, || sh(&script).run(b"", &limits(10_000, 1024)));
        assert!(matches!(r, Err(RunError::Abandoned)), "{r:?}");
        assert!(
            start.elapsed() < Duration::from_secs(3),
            "{:?}",
            start.elapsed()
        );
        let again = abandoning_at(at, || sh("echo never").run(b"", &limits(10_000, 1024)));
        assert!(matches!(again, Err(RunError::Abandoned)), "{again:?}");
        // Outside `abandoning_at`, a run is as before.
        let r = sh("echo done").run(b"", &limits(10_000, 1024)).unwrap();
        assert_eq!(r.stdout, b"done\n");
        let end = Instant::now() + Duration::from_secs(5);
        while running_with(&marker) > 0 && Instant::now() < end {
            std::thread::sleep(Duration::from_millis(20));
        }
        assert_eq!(
            running_with(&marker),
            0,
            "a process of the abandoned run is left"
        );
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
