//! Memory cgroups: the memory limit enforced by the kernel where it can be.

use super::*;

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
pub(crate) fn cgroup_base() -> Option<&'static (PathBuf, MemoryEnforcement)> {
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
            if kind == MemoryEnforcement::CgroupV2 {
                // The memory controller must be given to the children; the kernel
                // refuses when sgcheck's own cgroup holds processes and is not the
                // root ("no internal processes"): then the probe below fails and the
                // limit is polled.
                let has_memory = std::fs::read_to_string(base.join("cgroup.controllers"))
                    .is_ok_and(|c| c.split_whitespace().any(|w| w == "memory"));
                if !has_memory {
                    continue;
                }
                let _ = std::fs::write(base.join("cgroup.subtree_control"), "+memory");
            }
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

    /// A fresh cgroup for a run (no process was ever in it), when the machine has
    /// them.
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

    /// The descriptor of `cgroup.procs`, which the program's process writes "0" into
    /// to join.
    pub fn procs(&self) -> BorrowedFd<'_> {
        self.procs.as_fd()
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
        // The last process may still be leaving the cgroup for a moment (what is
        // left after half a second goes at exit, or with the next sgcheck's sweep).
        let mut wait = std::time::Duration::from_micros(200);
        for _ in 0..40 {
            match std::fs::remove_dir(&self.dir) {
                Ok(()) => return,
                Err(e) if e.kind() == io::ErrorKind::NotFound => return,
                Err(_) => {
                    std::thread::sleep(wait);
                    wait = (wait * 2).min(std::time::Duration::from_millis(20));
                }
            }
        }
    }
}

/// The pid in a name `<prefix><pid>-...`, when it has one.
fn pid_in(name: &str, prefix: &str) -> Option<i32> {
    let rest = name.strip_prefix(prefix)?;
    let digits = rest.split('-').next()?;
    digits.parse().ok().filter(|&p: &i32| p > 0)
}

/// Whether a process with this pid exists.
fn alive(pid: i32) -> bool {
    Path::new(&format!("/proc/{pid}")).exists()
}

/// Removes what earlier sgcheck processes that no longer exist left behind when
/// they were killed (SIGKILL leaves no time to clean up): their runs' memory cgroups
/// (`sgcheck-<pid>-N`) and their build directories (`sgcheck-build-<pid>-...` in the
/// temporary directory). Only names that carry the pid of a process that is gone are
/// touched. Returns how many were removed.
pub fn sweep_leftovers() -> usize {
    let me = std::process::id() as i32;
    let mut removed = 0;
    if let Some((base, _)) = cgroup_base() {
        if let Ok(entries) = std::fs::read_dir(base) {
            for e in entries.flatten() {
                let name = e.file_name().to_string_lossy().into_owned();
                let Some(pid) = pid_in(&name, "sgcheck-") else {
                    continue;
                };
                if pid != me && !alive(pid) && std::fs::remove_dir(e.path()).is_ok() {
                    removed += 1;
                }
            }
        }
    }
    if let Ok(entries) = std::fs::read_dir(std::env::temp_dir()) {
        for e in entries.flatten() {
            let name = e.file_name().to_string_lossy().into_owned();
            let Some(pid) = pid_in(&name, BUILD_DIR_PREFIX) else {
                continue;
            };
            let is_dir = e.file_type().is_ok_and(|t| t.is_dir());
            if pid != me && !alive(pid) && is_dir && std::fs::remove_dir_all(e.path()).is_ok() {
                removed += 1;
            }
        }
    }
    removed
}

/// How the name of a build directory starts (the pid of its sgcheck follows).
pub const BUILD_DIR_PREFIX: &str = "sgcheck-build-";

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
