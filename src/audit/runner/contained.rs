//! One contained run: a request to a slot (see [`crate::audit::sandbox`]), the
//! program's input and output, the watch over its time, output, memory and
//! processes, and its report.

use super::*;
use std::ffi::OsStr;
use std::os::fd::AsFd;

/// What to start: the resolved executable, its arguments (without `argv[0]`) and its
/// whole environment.
pub struct Launch<'a> {
    /// The executable (resolved: a path).
    pub path: &'a Path,
    /// `argv[0]`, as given on the command line.
    pub argv0: &'a str,
    /// The arguments after `argv[0]`.
    pub args: &'a [String],
    /// The environment, whole (sgcheck's own is not passed on).
    pub env: &'a [(String, String)],
}

fn pipe() -> io::Result<(OwnedFd, OwnedFd)> {
    rustix::pipe::pipe_with(rustix::pipe::PipeFlags::CLOEXEC).map_err(io::Error::from)
}

/// Starts `launch` contained (see [`crate::audit::sandbox`]) in a slot prepared for
/// `place`, feeds it `input`, and waits for it within `limits`. When it returns, every
/// process of the run is gone.
pub fn run_command(
    launch: &Launch<'_>,
    input: &[u8],
    limits: &RunLimits,
    place: &Place<'_>,
) -> Result<RunResult, RunError> {
    let spawn_error = |source: io::Error| RunError::Spawn {
        program: launch.argv0.to_string(),
        source,
    };
    if super::abandon_at().is_some_and(|a| Instant::now() >= a) {
        return Err(RunError::Abandoned);
    }
    let mode = sandbox::containment();
    let namespaces = mode == sandbox::Containment::Namespaces;
    let root = rustix::process::geteuid().is_root();
    // As root, the program runs as `nobody`: it can signal neither sgcheck nor its
    // supervisor. A compile in the fallback keeps the caller's uid (it writes into the
    // build directory, which the fallback cannot give to another uid).
    let run_as = (root && (namespaces || !place.writable)).then_some(sandbox::RUN_UID);
    let request = slots::SlotRequest {
        mode,
        cwd: place.cwd.to_path_buf(),
        writable: place.writable,
        needed: place.needed.to_vec(),
        hidden: place.hidden.to_vec(),
        // Everything a run writes into its files holds memory: the memory limit bounds
        // it (and each file is bounded by the file limit).
        size: limits.memory_limit.max(limits.file_limit),
        run_as,
        memory_limit: limits.memory_limit,
    };
    let argv: Vec<&OsStr> = std::iter::once(OsStr::new(launch.argv0))
        .chain(launch.args.iter().map(OsStr::new))
        .collect();
    // The memory cgroup of the run. With namespaces it is the slot's, made once: the
    // cgroup file system is hidden from the program (an empty directory covers
    // /sys/fs/cgroup), so no run reads the counters an earlier one left there. The
    // fallback cannot hide it: each run gets a fresh cgroup, whose counters start at
    // zero (making one costs the kernel about 0.2 ms).
    let run_cgroup = if namespaces {
        None
    } else {
        sandbox::Cgroup::for_run().filter(|c| c.set_limit(limits.memory_limit))
    };
    let has_cgroup = if namespaces {
        sandbox::cgroup_base().is_some()
    } else {
        run_cgroup.is_some()
    };
    let msg = sandbox::encode_request(
        launch.path,
        &argv,
        launch.env,
        Some(limits.file_limit),
        limits.stack_limit,
        // At least a second past the CPU limit: a backstop, never the judge.
        Some((limits.timeout.as_secs_f64().ceil() as u64).saturating_add(1)),
        has_cgroup,
    )
    .ok_or_else(|| {
        spawn_error(io::Error::new(
            io::ErrorKind::InvalidInput,
            "the arguments or the environment hold a NUL byte, or are too long",
        ))
    })?;
    let (in_r, in_w) = pipe().map_err(spawn_error)?;
    let (out_r, out_w) = pipe().map_err(spawn_error)?;
    let (err_r, err_w) = pipe().map_err(spawn_error)?;
    let mut report = sandbox::ReportPipe::new().map_err(spawn_error)?;
    // A slot that died idle (killed from outside) is replaced once.
    let mut attempts = 0;
    let (slot, cpu_base) = loop {
        attempts += 1;
        let slot = slots::Slot::take(&request)?;
        let mut fds = vec![in_r.as_fd(), out_w.as_fd(), err_w.as_fd()];
        if let Some(w) = report.write_end() {
            fds.push(w);
        }
        if let Some(c) = run_cgroup.as_ref().or(slot.cgroup.as_ref()) {
            fds.push(c.procs());
        }
        let mut groups = live();
        if INTERRUPTED.load(Ordering::SeqCst) {
            drop(groups);
            slot.put();
            return Err(RunError::Interrupted);
        }
        // The CPU time the supervisor's reaped children had before this run.
        let base = sandbox::cpu_ticks(slot.supervisor).map_or(0, |(_, c)| c);
        match slot.send(&msg, &fds) {
            Ok(()) => {
                groups.push(slot.group());
                break (slot, base);
            }
            Err(e) => {
                drop(groups);
                slot.end();
                if attempts >= 2 {
                    return Err(spawn_error(e));
                }
            }
        }
    };
    let start = Instant::now();
    drop((in_r, out_w, err_w));
    report.close_write();

    let over = Arc::new(AtomicBool::new(false));
    let stdout = Drain::spawn_spilling(
        std::fs::File::from(out_r),
        limits.output_limit,
        Arc::clone(&over),
    );
    let stderr = Drain::spawn(std::fs::File::from(err_r), STDERR_KEEP, None);
    if !input.is_empty() {
        let mut stdin = std::fs::File::from(in_w);
        let data = input.to_vec();
        // A program that never reads its input blocks this thread until the run is
        // over, which closes the pipe (EPIPE); nothing waits for it.
        slots::io_spawn(move || {
            let _ = stdin.write_all(&data);
        });
    } else {
        drop(in_w);
    }

    // The CPU time limit is watched in the samples below; the wall-clock limit, larger,
    // ends sleepers and programs blocked on a read.
    let deadline = start + limits.wall_limit();
    let abandon = super::abandon_at();
    let ticks = sandbox::ticks_per_second();
    let cpu_limit_ticks =
        u64::try_from(limits.timeout.as_nanos() * u128::from(ticks) / 1_000_000_000)
            .unwrap_or(u64::MAX);
    let mut cpu_seen_ticks = 0u64;
    let mut step = Duration::from_millis(1);
    let mut next_sample = start + Duration::from_millis(2);
    let mut peak_seen = 0u64;
    let mut stop = None;
    loop {
        if readable(report.read_end()) {
            break;
        }
        if over.load(Ordering::SeqCst) {
            stop = Some(Stop::Output);
            break;
        }
        let now = Instant::now();
        if abandon.is_some_and(|a| now >= a) {
            stop = Some(Stop::Abandoned);
            break;
        }
        if now >= deadline {
            stop = Some(Stop::Time);
            break;
        }
        if now >= next_sample && slot.supervisor > 0 {
            let s = sandbox::sample(slot.supervisor, limits.process_limit);
            peak_seen = peak_seen.max(s.peak).max(s.rss);
            cpu_seen_ticks = cpu_seen_ticks.max(s.cpu_ticks.saturating_sub(cpu_base));
            if cpu_seen_ticks > cpu_limit_ticks {
                stop = Some(Stop::Time);
                break;
            }
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
        let end = abandon.map_or(deadline, |a| a.min(deadline));
        let wait = end
            .saturating_duration_since(now)
            .min(next_sample.saturating_duration_since(now));
        poll_readable(report.read_end(), wait.max(Duration::from_millis(1)));
    }
    let elapsed = start.elapsed();
    let group = slot.group();
    let inherited = *slot
        .inherited
        .get_or_init(|| sandbox::memory(slot.supervisor).map_or(0, |(_, hwm)| hwm));
    // The kernel's OOM killer ended a process of the run at the memory limit (the
    // slot's cgroup counts its kills since it was made).
    let mut slot = slot;
    let oom_killed = match (&run_cgroup, &slot.cgroup) {
        (Some(c), _) => c.oom_kills() > 0,
        (None, Some(c)) => {
            let kills = c.oom_kills();
            let new = kills > slot.oom_seen;
            slot.oom_seen = kills;
            new
        }
        (None, None) => false,
    };
    let reported = if stop.is_some() {
        // The slot ends with the run: everything in it is killed.
        slot.end();
        report.take()
    } else {
        let r = report.take();
        match r {
            Some(r) if r.flags & sandbox::RETIRING == 0 => slot.put(),
            Some(_) => slot.reap(),
            None => slot.end(),
        }
        r
    };
    live().retain(|&g| g != group);
    drop(run_cgroup);
    if stop == Some(Stop::Abandoned) {
        return Err(RunError::Abandoned);
    }
    if let Some(r) = reported.filter(|r| r.status == sandbox::EXEC_FAILED) {
        return Err(spawn_error(io::Error::from_raw_os_error(r.errno)));
    }
    let exit = match reported {
        Some(r) if stop.is_none() => decode_status(r.status),
        _ => Exit::Signal(libc::SIGKILL),
    };
    // The supervisor's figure includes its own memory, which the program shared
    // before its exec: only a larger one is the program's own.
    let reported_peak = reported.map_or(0, |r| r.max_rss);
    let peak_memory = if reported_peak > inherited {
        peak_seen.max(reported_peak)
    } else {
        peak_seen
    };
    let (stdout, stdout_spill) = stdout.take_spilled(PIPE_GRACE);
    let stderr = stderr.take(PIPE_GRACE);
    let output_truncated = over.load(Ordering::SeqCst);
    // The supervisor's figure is exact (every process it reaped); the samples are the
    // figure when sgcheck ended the run itself.
    let sampled = Duration::from_nanos(
        u64::try_from(u128::from(cpu_seen_ticks) * 1_000_000_000 / u128::from(ticks))
            .unwrap_or(u64::MAX),
    );
    let cpu_time = sampled.max(Duration::from_nanos(reported.map_or(0, |r| r.cpu_ns)));
    let timed_out = stop == Some(Stop::Time) || cpu_time > limits.timeout;
    Ok(RunResult {
        stdout,
        stdout_spill,
        stderr,
        exit,
        timed_out,
        output_truncated,
        memory_exceeded: stop == Some(Stop::Memory)
            || oom_killed
            || (peak_memory > limits.memory_limit && !output_truncated),
        process_limit_exceeded: stop == Some(Stop::Processes),
        peak_memory,
        elapsed,
        cpu_time,
        confirmed_alone: false,
    })
}

/// Whether a descriptor is readable now (or at its end).
fn readable(fd: &OwnedFd) -> bool {
    use rustix::event::{poll, PollFd, PollFlags, Timespec};
    let zero = Timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    let mut fds = [PollFd::new(fd, PollFlags::IN)];
    matches!(poll(&mut fds, Some(&zero)), Ok(n) if n > 0)
}
