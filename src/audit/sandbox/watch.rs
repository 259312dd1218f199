//! Watching a run from sgcheck (ordinary code: allocation is fine here): the run's
//! processes and their memory, from `/proc`.

use super::*;

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

/// The CPU time of a process from `/proc/<pid>/stat`, in clock ticks: its own (user
/// and system, all its threads) and that of the children it has waited for; `None`
/// for a process that is gone.
pub fn cpu_ticks(pid: i32) -> Option<(u64, u64)> {
    let s = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // The command name may hold spaces and parentheses: the fields follow the last ')'.
    let (_, rest) = s.rsplit_once(')')?;
    let f: Vec<u64> = rest
        .split_ascii_whitespace()
        .skip(11)
        .take(4)
        .map(|w| w.parse().ok())
        .collect::<Option<_>>()?;
    let [utime, stime, cutime, cstime] = f[..] else {
        return None;
    };
    Some((utime + stime, cutime + cstime))
}

/// Clock ticks per second of `/proc/<pid>/stat`.
pub fn ticks_per_second() -> u64 {
    static TICKS: OnceLock<u64> = OnceLock::new();
    // SAFETY: sysconf only reads a configuration value.
    *TICKS.get_or_init(|| match unsafe { libc::sysconf(libc::_SC_CLK_TCK) } {
        t if t > 0 => t as u64,
        _ => 100,
    })
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
    /// CPU time in clock ticks: the supervisor's reaped children (to be taken from
    /// the figure it had when the run started) and every process under it, with the
    /// children each has waited for. Read parents first, so a process that ends
    /// meanwhile is counted at most once (never twice: at worst it is missed until
    /// the next look).
    pub cpu_ticks: u64,
}

/// Looks at everything under `supervisor`, counting at most `cap + 1` processes.
pub(crate) fn sample(supervisor: i32, cap: usize) -> Sample {
    let reaped = cpu_ticks(supervisor).map_or(0, |(_, children)| children);
    let procs = descendants(supervisor, cap.saturating_add(1));
    let mut s = Sample {
        processes: procs.len(),
        cpu_ticks: reaped,
        ..Sample::default()
    };
    for p in procs {
        if let Some((own, children)) = cpu_ticks(p) {
            s.cpu_ticks += own + children;
        }
        if let Some((rss, peak)) = memory(p) {
            s.rss += rss;
            s.peak = s.peak.max(peak);
        }
    }
    s
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
