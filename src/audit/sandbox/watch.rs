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
