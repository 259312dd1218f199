//! No run sees what an earlier one left, no program lifts its own limits, and time is
//! judged as a judge judges it: by CPU time, with a larger wall-clock limit for
//! sleepers, a time-out confirmed by a run with no other run going.
//!
//! - A probe program, correct for p2197 unless it finds a mark of an earlier run,
//!   tries every channel that outlives a run's processes: the kernel keyrings of its
//!   uid (`add_key`), the counters of its memory cgroup (`memory.max_usage_in_bytes`:
//!   hidden with namespaces, fresh per run in the fallback),
//!   and (with namespaces) files in `/tmp` and `/dev/shm`, System V shared memory and
//!   POSIX message queues; it also checks that no hard limit is above its soft limit.
//!   Two audits in a row, in both containment modes, find no failure.
//! - A program that raises its own stack limit and recurses deeper than
//!   `--stack-limit` is a runtime error, as on a judge.
//! - An infinite loop is TIME-LIMIT by CPU time; a sleeper by the wall-clock limit.
//! - Correct Java and Python programs that use about half a second of CPU per run,
//!   audited eight at a time next to a CPU hog, are judged ok every time.
//! - A SIGKILL of sgcheck during an audit leaves cgroups and a build directory that
//!   the next audit removes.
//!
//! Every program is bounded: loops are cut by the audit's limits, sleeps last at most
//! a minute, the hog stops with the test.

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

mod workshop;
use workshop::*;

const SGCHECK: &str = env!("CARGO_BIN_EXE_sgcheck");

const MODES: [Option<&str>; 2] = [None, Some("subreaper")];

/// The tests of this file run one at a time: each loads the machine in its own way
/// (the hog, eight audits), and a time-out test must see only its own load.
static ONE_AT_A_TIME: std::sync::Mutex<()> = std::sync::Mutex::new(());

fn one_at_a_time() -> std::sync::MutexGuard<'static, ()> {
    ONE_AT_A_TIME
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// `sgcheck audit p2197 --json <extra> -- <command>` in containment `mode`.
fn audit(command: &[&str], mode: Option<&str>, extra: &[&str]) -> (Output, Value) {
    let mut cmd = Command::new(SGCHECK);
    cmd.args(["audit", "p2197", "--json"])
        .args(extra)
        .arg("--")
        .args(command)
        .stdin(Stdio::null());
    if let Some(m) = mode {
        cmd.env("SGCHECK_CONTAINMENT", m);
    }
    let out = cmd.output().unwrap();
    let json: Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "no JSON report ({e}): {}\n{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        )
    });
    (out, json)
}

fn failure(r: &Value) -> &Value {
    &r["failures"][0]
}

/// The probe: p2197 answered right, unless a channel shows a mark of an earlier run
/// (then every answer is inverted). Each channel is then marked for the next run.
/// `files` (argument 1 is `files`) adds the channels only namespaces close: the fallback
/// shares the machine's `/tmp` and IPC, which the book says.
const PROBE: &str = r#"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <unistd.h>
#include <mqueue.h>
#include <sys/ipc.h>
#include <sys/shm.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/resource.h>

static int seen = 0;
static void mark(const char *what) { fprintf(stderr, "probe: %s\n", what); seen = 1; }

static void keyring(void) {
    /* keyctl(KEYCTL_SEARCH, KEY_SPEC_USER_KEYRING, "user", name, 0) */
    long k = syscall(SYS_keyctl, 10, -4, "user", "sgcheck-probe", 0);
    if (k >= 0) mark("a key of an earlier run");
    syscall(SYS_add_key, "user", "sgcheck-probe", "x", 1, -4);
}

/* The peak usage of this run's memory cgroup, from /proc/self/cgroup (v1 or v2). */
static long counter(void) {
    FILE *f = fopen("/proc/self/cgroup", "r");
    char line[4096], path[4400];
    long v = -1;
    if (!f) return -1;
    while (fgets(line, sizeof line, f)) {
        line[strcspn(line, "\n")] = 0;
        char *p = strstr(line, ":memory:");
        if (p) snprintf(path, sizeof path, "/sys/fs/cgroup/memory%s/memory.max_usage_in_bytes", p + 8);
        else if (strncmp(line, "0::", 3) == 0) snprintf(path, sizeof path, "/sys/fs/cgroup%s/memory.peak", line + 3);
        else continue;
        FILE *g = fopen(path, "r");
        if (g) { if (fscanf(g, "%ld", &v) != 1) v = -1; fclose(g); break; }
    }
    fclose(f);
    return v;
}

static void files(void) {
    if (access("/tmp/sgcheck-probe", F_OK) == 0) mark("a file in /tmp");
    if (access("/dev/shm/sgcheck-probe", F_OK) == 0) mark("a file in /dev/shm");
    close(open("/tmp/sgcheck-probe", O_CREAT | O_WRONLY, 0644));
    close(open("/dev/shm/sgcheck-probe", O_CREAT | O_WRONLY, 0644));
    if (shmget(0x5347, 4096, 0) >= 0) mark("System V shared memory");
    shmget(0x5347, 4096, IPC_CREAT | 0644);
    mqd_t q = mq_open("/sgcheck-probe", O_RDONLY);
    if (q != (mqd_t)-1) { mark("a POSIX message queue"); mq_close(q); }
    struct mq_attr a = {0, 1, 8, 0};
    q = mq_open("/sgcheck-probe", O_CREAT | O_RDONLY, 0644, &a);
    if (q != (mqd_t)-1) mq_close(q);
}

int main(int argc, char **argv) {
    keyring();
    long c = counter();
    if (c > (96L << 20)) mark("the cgroup's peak usage of an earlier run");
    if (argc > 2 && strcmp(argv[2], "counter") == 0 && c < 0) mark("no cgroup counter to read");
    if (argc > 2 && strcmp(argv[2], "hidden") == 0 && c >= 0) mark("the cgroup's counters are visible");
    if (argc > 1 && strcmp(argv[1], "files") == 0) files();
    int rs[] = {RLIMIT_STACK, RLIMIT_NOFILE, RLIMIT_NPROC, RLIMIT_FSIZE, RLIMIT_AS};
    for (int i = 0; i < 5; i++) {
        struct rlimit rl;
        getrlimit(rs[i], &rl);
        if (rl.rlim_cur != rl.rlim_max) mark("a hard limit above the soft one");
    }
    /* 128 MiB touched: the peak the next run would read in a shared cgroup. */
    size_t big = 128u << 20;
    char *m = (char *)malloc(big);
    if (!m) return 4;
    for (size_t i = 0; i < big; i += 4096) m[i] = 1;
    int t, n, v;
    if (scanf("%d", &t) != 1) return 0;
    for (int k = 0; k < t; k++) {
        int x = 0;
        if (scanf("%d", &n) != 1) return 3;
        for (int i = 0; i < n; i++) { if (scanf("%d", &v) != 1) return 3; x ^= v; }
        puts((x != 0) != seen ? "Yes" : "No");
    }
    return m[4096] - 1;
}
"#;

#[test]
fn no_run_sees_what_an_earlier_one_left_in_either_containment() {
    let _alone = one_at_a_time();
    let Some(w) = Workshop::new() else { return };
    let probe = w.compile("probe", PROBE, &["-lrt"]);
    let probe = probe.to_str().unwrap();
    for mode in MODES {
        let namespaces = mode.is_none() && ran_in_namespaces();
        let mut command = vec![probe, if namespaces { "files" } else { "none" }];
        // Where the memory limit is a cgroup: with namespaces its files are hidden
        // (the probe must not read its counter); in the fallback each run has a fresh
        // one (the probe must read its counter, else it would test nothing).
        let (_, first) = audit(&[probe, "none"], mode, &["--cases", "1", "--seed", "1"]);
        if first["memory_enforcement"]
            .as_str()
            .is_some_and(|e| e.starts_with("cgroup"))
        {
            command.push(if namespaces { "hidden" } else { "counter" });
        }
        // Two audits in a row, two runs at a time, several runs each: every run after
        // the first would find the marks of an earlier one.
        for seed in ["1", "2"] {
            let (out, r) = audit(
                &command,
                mode,
                &["--cases", "60", "--no-batch", "--jobs", "2", "--seed", seed],
            );
            assert_eq!(
                r["verdict"],
                "ok",
                "{mode:?}: {:#}\n{}",
                failure(&r),
                String::from_utf8_lossy(&out.stderr)
            );
            assert!(r["search_runs"].as_u64().unwrap() >= 20, "{r:#}");
        }
    }
    assert_nothing_left(w.path());
}

/// Whether the default containment here is namespaces.
fn ran_in_namespaces() -> bool {
    let (_, r) = audit(&["true"], None, &["--cases", "1"]);
    r["containment"] == "namespaces"
}

/// p2197 answered right after a recursion `depth_mib` MiB deep, with the stack limit
/// raised first (ignoring whether that works).
const DEEP: &str = r#"
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
static int down(int n) {
    volatile char frame[1024];
    memset((char *)frame, n, sizeof frame);
    return n == 0 ? frame[7] : down(n - 1) + (frame[5] & 1);
}
int main(void) {
    struct rlimit rl = {64L << 20, 64L << 20};
    setrlimit(RLIMIT_STACK, &rl);
    int sink = down(24 * 1024); /* 24 MiB of frames */
    int t, n, v;
    if (scanf("%d", &t) != 1) return 0;
    for (int k = 0; k < t; k++) {
        int x = 0;
        if (scanf("%d", &n) != 1) return 3;
        for (int i = 0; i < n; i++) { if (scanf("%d", &v) != 1) return 3; x ^= v; }
        puts(x ? "Yes" : "No");
    }
    return sink < 0;
}
"#;

#[test]
fn a_program_cannot_raise_its_own_stack_limit() {
    let _alone = one_at_a_time();
    let Some(w) = Workshop::new() else { return };
    let deep = w.compile("deep", DEEP, &["-O0"]);
    for mode in MODES {
        let (out, r) = audit(
            &[deep.to_str().unwrap()],
            mode,
            &["--cases", "4", "--seed", "1", "--stack-limit", "1M"],
        );
        assert_eq!(r["verdict"], "runtime-error", "{mode:?}: {r:#}");
        // The fallback says what it lets a program do, before anything runs.
        let stderr = String::from_utf8_lossy(&out.stderr);
        let warned = stderr.contains(
            "warning: SGCHECK_CONTAINMENT=subreaper: programs run in the weaker subreaper \
             containment",
        );
        assert_eq!(warned, mode == Some("subreaper"), "{stderr}");
        assert!(
            failure(&r)["detail"].as_str().unwrap().contains("SIGSEGV"),
            "{r:#}"
        );
        // With room for it, the same program is right.
        let (_, r) = audit(
            &[deep.to_str().unwrap()],
            mode,
            &["--cases", "4", "--seed", "1", "--stack-limit", "64M"],
        );
        assert_eq!(r["verdict"], "ok", "{mode:?}: {r:#}");
    }
    assert_nothing_left(w.path());
}

#[test]
fn an_infinite_loop_is_over_the_cpu_limit_and_a_sleeper_over_the_wall_limit() {
    let _alone = one_at_a_time();
    let Some(w) = Workshop::new() else { return };
    let spin = w.compile(
        "spin",
        "int main(void) { volatile unsigned long x = 0; for (;;) x++; }",
        &[],
    );
    let sleeper = w.compile(
        "sleeper",
        "#include <unistd.h>\nint main(void) { sleep(60); return 0; }",
        &[],
    );
    // One case, a 0.5 s CPU limit, and the wall-clock limit given; the detail of the
    // time-out.
    let timed_out = |exe: &Path, mode: Option<&str>, wall: &str| -> String {
        let (_, r) = audit(
            &[exe.to_str().unwrap()],
            mode,
            &[
                "--cases",
                "1",
                "--seed",
                "1",
                "--timeout",
                "0.5",
                "--wall-timeout",
                wall,
            ],
        );
        assert_eq!(r["verdict"], "time-limit", "{r:#}");
        failure(&r)["detail"].as_str().unwrap().to_string()
    };
    for mode in MODES {
        // A loaded machine must not end the loop by the wall clock first.
        let detail = timed_out(&spin, mode, "30");
        assert!(
            detail.starts_with("more than 0.500 s of CPU time")
                && detail.contains("the same when run again with no other run going"),
            "{detail}"
        );
        let start = Instant::now();
        let detail = timed_out(&sleeper, mode, "1");
        assert!(
            detail.starts_with("still running after 1.0") && detail.contains("wall time"),
            "{detail}"
        );
        assert!(start.elapsed() < Duration::from_secs(30));
    }
    assert_nothing_left(w.path());
}

/// A correct p2197 program in Java that also spends about half a second of CPU on
/// work whose result it checks (the answers do not depend on it).
const JAVA: &str = r#"
import java.io.*;
import java.util.*;
public class Main {
    public static void main(String[] args) throws IOException {
        long h = 0;
        for (long i = 0; i < 400_000_000L; i++) h = h * 31 + i;
        StreamTokenizer in = new StreamTokenizer(new BufferedInputStream(System.in));
        StringBuilder out = new StringBuilder();
        in.nextToken();
        int t = (int) in.nval;
        for (int c = 0; c < t; c++) {
            in.nextToken();
            int n = (int) in.nval, x = 0;
            for (int i = 0; i < n; i++) { in.nextToken(); x ^= (int) in.nval; }
            out.append(x != 0 ? "Yes" : "No").append('\n');
        }
        System.out.print(out);
        if (h == 42) System.out.println("never");
    }
}
"#;

/// The same in Python.
const PYTHON: &str = r#"
import sys
h = 0
for i in range(3_000_000):
    h = (h * 31 + i) & 0xFFFFFFFF
data = sys.stdin.read().split()
t, at, out = int(data[0]), 1, []
for _ in range(t):
    n = int(data[at]); at += 1
    x = 0
    for v in data[at:at + n]:
        x ^= int(v)
    at += n
    out.append("Yes" if x else "No")
print("\n".join(out))
if h == -1:
    print("never")
"#;

/// Two threads that spin until the test is over.
struct Hog(Arc<AtomicBool>, Vec<std::thread::JoinHandle<()>>);

impl Hog {
    fn start() -> Hog {
        let stop = Arc::new(AtomicBool::new(false));
        let threads = (0..2)
            .map(|_| {
                let stop = Arc::clone(&stop);
                std::thread::spawn(move || {
                    let mut x = 0u64;
                    while !stop.load(Ordering::Relaxed) {
                        x = std::hint::black_box(x.wrapping_mul(31).wrapping_add(1));
                    }
                })
            })
            .collect();
        Hog(stop, threads)
    }
}

impl Drop for Hog {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Relaxed);
        for t in self.1.drain(..) {
            let _ = t.join();
        }
    }
}

#[test]
fn correct_programs_are_judged_ok_eight_at_a_time_next_to_a_cpu_hog() {
    let _alone = one_at_a_time();
    let Some(w) = Workshop::new() else { return };
    if !require_tool("javac") || !require_tool("python3") {
        return;
    }
    let java = w.path().join("Main.java");
    std::fs::write(&java, JAVA).unwrap();
    let python = w.path().join("sol.py");
    std::fs::write(&python, PYTHON).unwrap();
    let sources: [&Path; 2] = [&java, &python];
    let _hog = Hog::start();
    let audits: Vec<(PathBuf, std::process::Child)> = (0..8)
        .map(|i| {
            let src = sources[i % 2].to_path_buf();
            let child = Command::new(SGCHECK)
                .args(["audit", "p2197", "--json", "--time", "4", "--jobs", "1"])
                .args(["--seed", &i.to_string(), "--"])
                .arg(&src)
                .stdin(Stdio::null())
                .stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .spawn()
                .unwrap();
            (src, child)
        })
        .collect();
    for (src, child) in audits {
        let out = child.wait_with_output().unwrap();
        let r: Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
            panic!("{e}: {}", String::from_utf8_lossy(&out.stderr));
        });
        assert_eq!(r["verdict"], "ok", "{}: {:#}", src.display(), failure(&r));
        assert!(r["search_runs"].as_u64().unwrap() >= 1, "{r:#}");
    }
    assert_nothing_left(w.path());
}

#[test]
fn a_sigkilled_audit_leaves_nothing_once_the_next_one_has_started() {
    let _alone = one_at_a_time();
    let Some(w) = Workshop::new() else { return };
    // A private temporary directory, so that the build directories are this test's.
    let tmp = w.path().join("tmp");
    std::fs::create_dir(&tmp).unwrap();
    let src = w.path().join("slow.c");
    std::fs::write(
        &src,
        "#include <unistd.h>\n#include <stdio.h>\nint main(void) { sleep(60); puts(\"No\"); return 0; }",
    )
    .unwrap();
    let mut child = Command::new(SGCHECK)
        .args([
            "audit",
            "p2197",
            "--jobs",
            "2",
            "--time",
            "60",
            "--no-progress",
        ])
        .arg("--")
        .arg(&src)
        .env("TMPDIR", &tmp)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let pid = child.id();
    let left = || leftovers(pid, &tmp);
    // Wait until the build directory and the runs are there.
    let end = Instant::now() + Duration::from_secs(30);
    while left().0 == 0 && Instant::now() < end {
        std::thread::sleep(Duration::from_millis(50));
    }
    std::thread::sleep(Duration::from_millis(500));
    child.kill().unwrap();
    child.wait().unwrap();
    let (builds, cgroups) = left();
    assert!(builds > 0, "no build directory of {pid} to leave behind");
    eprintln!("after the kill: {builds} build directories, {cgroups} cgroups of {pid}");
    // The next audit, of anything, sweeps them.
    let (_, r) = audit(&["true"], None, &["--cases", "1"]);
    let _ = r;
    let out = Command::new(SGCHECK)
        .args([
            "audit",
            "p2197",
            "--cases",
            "1",
            "--no-progress",
            "--",
            "true",
        ])
        .env("TMPDIR", &tmp)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(left(), (0, 0), "left after the next audit");
    assert_nothing_left(w.path());
}

/// The build directories (in `tmp`) and memory cgroups named with `pid`.
fn leftovers(pid: u32, tmp: &Path) -> (usize, usize) {
    let count = |dir: &Path, prefix: &str| {
        std::fs::read_dir(dir).map_or(0, |rd| {
            rd.flatten()
                .filter(|e| e.file_name().to_string_lossy().starts_with(prefix))
                .count()
        })
    };
    let builds = count(tmp, &format!("sgcheck-build-{pid}-"));
    let mut cgroups = 0;
    for base in cgroup_dirs() {
        cgroups += count(&base, &format!("sgcheck-{pid}-"));
    }
    (builds, cgroups)
}

/// Where sgcheck makes memory cgroups for a process of this test's cgroup.
fn cgroup_dirs() -> Vec<PathBuf> {
    let own = std::fs::read_to_string("/proc/self/cgroup").unwrap_or_default();
    let mut out = Vec::new();
    for l in own.lines() {
        let mut parts = l.splitn(3, ':');
        let (_, controllers, path) = (parts.next(), parts.next(), parts.next());
        let (Some(controllers), Some(path)) = (controllers, path) else {
            continue;
        };
        let path = path.trim_start_matches('/');
        if controllers.split(',').any(|c| c == "memory") {
            out.push(Path::new("/sys/fs/cgroup/memory").join(path));
        } else if controllers.is_empty() {
            out.push(Path::new("/sys/fs/cgroup").join(path));
        }
    }
    out
}
