//! The run environment of a contained program and of a compile, tried with hostile
//! programs: parallel JVMs, a shared `/tmp`, sgcheck's environment, a loopback port,
//! inherited descriptors, a file past `--file-limit`, signals to the supervisor, slow
//! and memory-hungry compiles, a compiler's error flood, and SIGINT, SIGTERM and
//! SIGHUP during a compile. Each test asserts the verdict or exit code, the containment
//! mode the report names, and that nothing is left running (in `/proc`) or in the
//! temporary directory. Every program is bounded: it sleeps at most a minute, writes at
//! most a few MiB and allocates nothing unbounded.
//!
//! Tests that need gcc, g++ or javac print a loud line and pass without them, unless
//! `CI` or `SGCHECK_REQUIRE_TOOLS=1` is set: then a missing tool fails the test.

use std::os::unix::fs::PermissionsExt;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

const SGCHECK: &str = env!("CARGO_BIN_EXE_sgcheck");

/// Whether `tool` runs; without it, a loud skip line, or a failure where tools are
/// required.
fn have(tool: &str) -> bool {
    let ok = Command::new(tool)
        .arg(if tool == "javac" {
            "-version"
        } else {
            "--version"
        })
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    if !ok {
        let required = std::env::var_os("CI").is_some()
            || std::env::var("SGCHECK_REQUIRE_TOOLS").is_ok_and(|v| v == "1");
        assert!(
            !required,
            "{tool} is required (CI or SGCHECK_REQUIRE_TOOLS=1) but missing"
        );
        eprintln!("!!!!!!!! SKIPPED: {tool} is not installed; this test checked nothing !!!!!!!!");
    }
    ok
}

/// The containment mode the audit must report: the fallback when forced, else
/// namespaces as root (the probe needs root), else whichever the machine gives.
fn expected_mode() -> Option<&'static str> {
    if std::env::var("SGCHECK_CONTAINMENT").is_ok_and(|v| v == "subreaper") {
        return Some("subreaper");
    }
    // SAFETY: geteuid has no preconditions.
    (unsafe { libc::geteuid() } == 0).then_some("namespaces")
}

fn namespaces() -> bool {
    expected_mode() == Some("namespaces")
}

/// A correct p2197 solution as C, before whatever `main` the test adds.
const SOLVE: &str = r#"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <signal.h>
#include <fcntl.h>
#include <dirent.h>
#include <errno.h>
static void solve(void) {
    int t, n, v;
    if (scanf("%d", &t) != 1) exit(0);
    for (int c = 0; c < t; c++) {
        int x = 0;
        if (scanf("%d", &n) != 1) exit(3);
        for (int i = 0; i < n; i++) { if (scanf("%d", &v) != 1) exit(3); x ^= v; }
        puts(x ? "Yes" : "No");
    }
    fflush(stdout);
}
"#;

/// Compiles `main` after [`SOLVE`] into `dir/name`.
fn compile(dir: &Path, name: &str, main: &str) -> PathBuf {
    let src = dir.join(format!("{name}.c"));
    let exe = dir.join(name);
    std::fs::write(&src, format!("{SOLVE}\n{main}\n")).unwrap();
    let out = Command::new("gcc")
        .args(["-O1", "-o"])
        .arg(&exe)
        .arg(&src)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    exe
}

/// `sgcheck audit p2197 --json --seed 1 <extra> -- <command>` in `dir`; the exit code
/// and the report, after checking the mode it names.
fn audit(dir: &Path, extra: &[&str], command: &[&str]) -> (Output, serde_json::Value) {
    let out = Command::new(SGCHECK)
        .args(["audit", "p2197", "--json", "--seed", "1", "--no-progress"])
        .args(extra)
        .arg("--")
        .args(command)
        .current_dir(dir)
        .stdin(Stdio::null())
        .output()
        .unwrap();
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "no JSON report ({e}): {}\n{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        )
    });
    if let Some(mode) = expected_mode() {
        assert_eq!(json["containment"], mode, "{json}");
    }
    (out, json)
}

/// Live (not zombie) processes whose command line contains `marker`.
fn marked(marker: &str) -> Vec<i32> {
    let me = std::process::id() as i32;
    let mut out = Vec::new();
    for e in std::fs::read_dir("/proc").unwrap().flatten() {
        let Some(pid) = e.file_name().to_str().and_then(|s| s.parse::<i32>().ok()) else {
            continue;
        };
        if pid == me {
            continue;
        }
        let Ok(stat) = std::fs::read_to_string(e.path().join("stat")) else {
            continue;
        };
        let state = stat.rsplit(')').next().unwrap_or("").trim_start();
        if state.starts_with('Z') || state.starts_with('X') {
            continue;
        }
        if std::fs::read(e.path().join("cmdline")).is_ok_and(|c| {
            String::from_utf8_lossy(&c)
                .replace('\0', " ")
                .contains(marker)
        }) {
            out.push(pid);
        }
    }
    out
}

/// Asserts that no process whose command line holds `marker` is left (after a moment
/// for the kernel to finish a teardown); kills any, so a failing test leaves nothing.
fn assert_none_left(marker: &str) {
    let end = Instant::now() + Duration::from_secs(3);
    loop {
        let left = marked(marker);
        if left.is_empty() {
            return;
        }
        if Instant::now() > end {
            for &p in &left {
                // SAFETY: plain syscall on a process this test started.
                unsafe {
                    libc::kill(p, libc::SIGKILL);
                }
            }
            panic!("processes of {marker} left: {left:?}");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

const JAVA_MAIN: &str = r#"import java.io.*;
import java.util.*;
public class Main {
    public static void main(String[] args) throws IOException {
        StreamTokenizer in = new StreamTokenizer(new BufferedInputStream(System.in));
        StringBuilder out = new StringBuilder();
        if (in.nextToken() == StreamTokenizer.TT_EOF) return;
        int t = (int) in.nval;
        for (int c = 0; c < t; c++) {
            in.nextToken();
            int n = (int) in.nval, x = 0;
            for (int i = 0; i < n; i++) { in.nextToken(); x ^= (int) in.nval; }
            out.append(x != 0 ? "Yes" : "No").append('\n');
        }
        System.out.print(out);
    }
}
"#;

#[test]
fn parallel_jvms_are_judged_right() {
    if !have("javac") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("Main.java"), JAVA_MAIN).unwrap();
    let out = Command::new("javac")
        .arg("Main.java")
        .current_dir(dir.path())
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // Run as the book shows, without -Xlog:disable: a JVM that finds its
    // /tmp/hsperfdata file locked by another run's JVM warns on standard output.
    let (out, json) = audit(
        dir.path(),
        &[
            "--jobs",
            "8",
            "--cases",
            "160",
            "--no-batch",
            "--time",
            "60",
            "--timeout",
            "20",
        ],
        &["java", "Main"],
    );
    assert_eq!(json["verdict"], "ok", "{json}");
    assert_eq!(out.status.code(), Some(0));
    assert!(json["search_runs"].as_u64().unwrap() >= 16, "{json}");
}

#[test]
fn every_run_has_a_fresh_tmp_and_a_private_directory() {
    if !have("gcc") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let exe = compile(
        dir.path(),
        "tmpuser",
        r#"int main(void) {
            if (access("/tmp/x", F_OK) == 0 || access("/dev/shm/x", F_OK) == 0
                || access("here", F_OK) == 0) { puts("seen"); return 0; }
            int a = open("/tmp/x", O_CREAT | O_WRONLY, 0644);
            int b = open("/dev/shm/x", O_CREAT | O_WRONLY, 0644);
            int c = open("here", O_CREAT | O_WRONLY, 0644);
            if (a < 0 || b < 0 || c < 0) { puts("cannot write"); return 0; }
            usleep(2000);
            solve();
            return 0; }"#,
    );
    let (out, json) = audit(
        dir.path(),
        &[
            "--jobs",
            "8",
            "--cases",
            "400",
            "--no-batch",
            "--time",
            "30",
        ],
        &["./tmpuser"],
    );
    if namespaces() {
        assert_eq!(json["verdict"], "ok", "{json}");
        assert_eq!(out.status.code(), Some(0));
        assert!(json["search_runs"].as_u64().unwrap() >= 50, "{json}");
        // Nothing of the runs reached the caller's directory.
        assert!(!dir.path().join("here").exists());
    } else {
        // The fallback shares the machine's files: the second run sees the first's.
        assert_eq!(json["verdict"], "wrong-answer", "{json}");
        let _ = std::fs::remove_file("/tmp/x");
        let _ = std::fs::remove_file("/dev/shm/x");
    }
    drop(exe);
    assert_none_left("tmpuser");
}

#[test]
fn sgchecks_environment_is_not_seen() {
    let dir = tempfile::tempdir().unwrap();
    // Answers right only when the secret is absent, from its own environment and
    // from every process it can see in /proc, and when --env passed GIVEN.
    let script = dir.path().join("env.sh");
    std::fs::write(
        &script,
        "set -f\n\
         if env | grep -q SGCHECK_TEST_SECRET; then echo leak; exit 0; fi\n\
         if [ \"$GIVEN\" != value ] || [ \"$HOME\" != \"$(pwd)\" ]; then echo env; exit 0; fi\n\
         if [ \"$SCAN\" = 1 ] && cat /proc/[0-9]*/environ 2>/dev/null | tr '\\0' '\\n' \
            | grep -q SGCHECK_TEST_SECRET; then echo leak; exit 0; fi\n\
         set -- $(cat)\nt=$1; shift\n\
         while [ \"$t\" -gt 0 ]; do n=$1; shift; x=0\n\
         while [ \"$n\" -gt 0 ]; do x=$((x ^ $1)); shift; n=$((n-1)); done\n\
         if [ \"$x\" -ne 0 ]; then echo Yes; else echo No; fi; t=$((t-1)); done\n",
    )
    .unwrap();
    let scan = if namespaces() { "SCAN=1" } else { "SCAN=0" };
    let out = Command::new(SGCHECK)
        .args(["audit", "p2197", "--json", "--seed", "1", "--cases", "20"])
        .args([
            "--time",
            "20",
            "--timeout",
            "10",
            "--env",
            "GIVEN=value",
            "--env",
            scan,
        ])
        .arg("--")
        .arg("sh")
        .arg(&script)
        .env("SGCHECK_TEST_SECRET", "hunter2")
        .current_dir(dir.path())
        .output()
        .unwrap();
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json["verdict"], "ok", "{json}");
    if let Some(mode) = expected_mode() {
        assert_eq!(json["containment"], mode);
    }
}

#[test]
fn a_loopback_port_of_the_host_is_not_reachable() {
    if !have("gcc") {
        return;
    }
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    listener.set_nonblocking(true).unwrap();
    let port = listener.local_addr().unwrap().port();
    let dir = tempfile::tempdir().unwrap();
    compile(
        dir.path(),
        "connector",
        &format!(
            r#"#include <sys/socket.h>
            #include <netinet/in.h>
            #include <arpa/inet.h>
            int main(void) {{
                int s = socket(AF_INET, SOCK_STREAM, 0);
                struct sockaddr_in a; memset(&a, 0, sizeof a);
                a.sin_family = AF_INET; a.sin_port = htons({port});
                a.sin_addr.s_addr = inet_addr("127.0.0.1");
                if (s >= 0 && connect(s, (struct sockaddr *)&a, sizeof a) == 0) {{
                    puts("connected"); return 0; }}
                solve(); return 0; }}"#
        ),
    );
    let (_, json) = audit(
        dir.path(),
        &["--cases", "10", "--time", "20"],
        &["./connector"],
    );
    if namespaces() {
        assert_eq!(json["verdict"], "ok", "{json}");
        assert!(
            listener.accept().is_err(),
            "the program reached the host's loopback"
        );
    } else {
        // The fallback has no network namespace.
        assert_eq!(json["verdict"], "wrong-answer", "{json}");
    }
}

#[test]
fn a_file_past_the_file_limit_is_a_runtime_error_naming_it() {
    if !have("gcc") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    compile(
        dir.path(),
        "writer",
        r#"int main(void) {
            static char block[65536];
            FILE *f = fopen("big.out", "w");
            if (!f) return 5;
            for (int i = 0; i < 64; i++) fwrite(block, 1, sizeof block, f);
            fclose(f);
            solve(); return 0; }"#,
    );
    // The fallback runs the program as `nobody` when sgcheck is root: the directory is
    // opened to it (with namespaces, its writes go to a private layer anyway).
    std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o777)).unwrap();
    let (out, json) = audit(
        dir.path(),
        &["--cases", "5", "--time", "20", "--file-limit", "1M"],
        &["./writer"],
    );
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(json["verdict"], "runtime-error", "{json}");
    let detail = json["counterexample"]["detail"].as_str().unwrap();
    assert!(
        detail.contains("SIGXFSZ") && detail.contains("--file-limit 1 MiB"),
        "{detail}"
    );
    if namespaces() {
        assert!(!dir.path().join("big.out").exists());
    }
    // Within the limit, the same program passes.
    let (_, json) = audit(
        dir.path(),
        &["--cases", "5", "--time", "20", "--file-limit", "8M"],
        &["./writer"],
    );
    assert_eq!(json["verdict"], "ok", "{json}");
}

#[test]
fn only_descriptors_0_1_2_are_open() {
    if !have("gcc") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    compile(
        dir.path(),
        "fdlister",
        r#"int main(void) {
            DIR *d = opendir("/proc/self/fd");
            if (!d) { puts("no proc"); return 0; }
            int mine = dirfd(d); struct dirent *e;
            while ((e = readdir(d))) {
                if (e->d_name[0] == '.') continue;
                int fd = atoi(e->d_name);
                if (fd > 2 && fd != mine) { printf("fd %d\n", fd); return 0; }
            }
            closedir(d); solve(); return 0; }"#,
    );
    // sgcheck itself gets a descriptor without close-on-exec: the program must not.
    let leaked = std::fs::File::open(dir.path().join("fdlister.c")).unwrap();
    let raw = std::os::fd::AsRawFd::as_raw_fd(&leaked);
    let mut cmd = Command::new(SGCHECK);
    cmd.args(["audit", "p2197", "--json", "--seed", "1", "--cases", "20"])
        .args(["--time", "20", "--", "./fdlister"])
        .current_dir(dir.path());
    // SAFETY: dup2 and fcntl are async-signal-safe; the descriptor is open.
    unsafe {
        cmd.pre_exec(move || {
            if libc::dup2(raw, 9) < 0 {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        });
    }
    let out = cmd.output().unwrap();
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json["verdict"], "ok", "{json}");
}

#[test]
fn signals_to_the_parent_and_the_supervisor_change_nothing() {
    // SAFETY: geteuid has no preconditions.
    let root = unsafe { libc::geteuid() } == 0;
    if !have("gcc") || !root {
        // Not root, the fallback runs the program as the caller: it can signal
        // sgcheck (the book says so); not tried here.
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    // Its supervisor (the parent), the supervisor's parent (sgcheck in the fallback,
    // the relay with namespaces), their process groups, and, with namespaces, every
    // process it can see. Only in a namespace does it try every pid: in the fallback
    // that would reach other programs running as `nobody` on the machine.
    compile(
        dir.path(),
        "killer",
        r#"static int parent_of(int pid) {
            char path[64], buf[512]; snprintf(path, sizeof path, "/proc/%d/stat", pid);
            int fd = open(path, O_RDONLY); if (fd < 0) return -1;
            int n = read(fd, buf, sizeof buf - 1); close(fd); if (n <= 0) return -1;
            buf[n] = 0; char *p = strrchr(buf, ')'); int ppid = -1;
            if (p) sscanf(p + 2, "%*c %d", &ppid); return ppid; }
        int main(void) {
            int sup = getppid(), above = parent_of(sup), hits = 0;
            int targets[] = { sup, above, -getpgid(sup), -getpgid(above) };
            for (int s = 0; s < 2; s++) {
                int sig = s ? SIGKILL : SIGTERM;
                for (int i = 0; i < 4; i++)
                    if ((targets[i] > 1 || targets[i] < -1) && -targets[i] != getpgrp())
                        hits += kill(targets[i], sig) == 0;
            }
            if (sup == 1) {
                kill(1, SIGKILL); kill(-1, SIGKILL);
                for (int p = 2; p < 4096; p++) if (p != getpid()) kill(p, SIGKILL);
            }
            fprintf(stderr, "%d signals delivered\n", hits);
            solve(); return 0; }"#,
    );
    let (out, json) = audit(
        dir.path(),
        &["--cases", "20", "--time", "20"],
        &["./killer"],
    );
    assert_eq!(json["verdict"], "ok", "{json}");
    assert_eq!(out.status.code(), Some(0));
    assert_none_left("killer");
    // The same program run uncontained, as root, under two shells of a session of
    // their own (its parent and grandparent, not this test), kills both: the check
    // above can fail.
    let status = Command::new("setsid")
        .args([
            "sh",
            "-c",
            "sh -c './killer </dev/null; sleep 5'; sleep 5; exit 3",
        ])
        .current_dir(dir.path())
        .stderr(Stdio::null())
        .status()
        .unwrap();
    assert_ne!(
        status.code(),
        Some(3),
        "the shell survived its child's signals"
    );
}

#[test]
fn ipc_objects_of_a_run_are_not_seen_by_the_next() {
    if !have("gcc") || !namespaces() {
        // The fallback shares the machine's IPC objects (the book says so).
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    // Answers wrong when a System V segment or a POSIX message queue of an earlier
    // run is still there, then leaves one of each.
    let src = dir.path().join("sgipc.c");
    std::fs::write(
        &src,
        format!(
            "{SOLVE}\n#include <sys/ipc.h>\n#include <sys/shm.h>\n#include <mqueue.h>\n{}",
            r#"int main(void) {
                int leak = shmget(0x5347, 4096, 0) >= 0;
                mqd_t q = mq_open("/sgcheckq", O_RDONLY);
                leak |= q != (mqd_t)-1;
                shmget(0x5347, 4096, IPC_CREAT | 0600);
                struct mq_attr a = {0, 4, 16, 0};
                mq_open("/sgcheckq", O_CREAT | O_RDWR, 0600, &a);
                if (leak) { puts("LEAK"); return 0; }
                solve(); return 0; }"#
        ),
    )
    .unwrap();
    let exe = dir.path().join("sgipc");
    let built = Command::new("gcc")
        .args(["-O1", "-o"])
        .arg(&exe)
        .arg(&src)
        .arg("-lrt")
        .status()
        .unwrap();
    assert!(built.success());
    let (out, json) = audit(
        dir.path(),
        &["--cases", "30", "--no-batch", "--jobs", "1", "--time", "30"],
        &["./sgipc"],
    );
    assert_eq!(json["verdict"], "ok", "{json}");
    assert_eq!(out.status.code(), Some(0));
    assert_none_left("sgipc");
    // Run twice in one IPC namespace of their own (not the machine's), the second
    // run sees the first's objects: the check above can fail.
    let twice = Command::new("unshare")
        .args([
            "--ipc",
            "sh",
            "-c",
            "./sgipc </dev/null >/dev/null; echo 1 1 0 | ./sgipc",
        ])
        .current_dir(dir.path())
        .output()
        .unwrap();
    assert_eq!(String::from_utf8_lossy(&twice.stdout), "LEAK\n");
}

/// A C++ source whose constant evaluation runs for minutes (`marker` names it).
fn slow_source(dir: &Path, marker: &str) -> PathBuf {
    let src = dir.join(format!("{marker}.cpp"));
    std::fs::write(
        &src,
        "constexpr long f() { long s = 0;\n\
           for (long i = 0; i < 200000; i++) for (long j = 0; j < 200000; j++) s += i ^ j;\n\
           return s; }\n\
         static_assert(f() != 1, \"slow\");\nint main() { return 0; }\n",
    )
    .unwrap();
    src
}

/// Files and directories in `dir`.
fn entries(dir: &Path) -> Vec<String> {
    std::fs::read_dir(dir)
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect()
}

#[test]
fn a_slow_compile_is_stopped_at_compile_time() {
    if !have("g++") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let tmp = tempfile::tempdir().unwrap();
    let src = slow_source(dir.path(), "sgslowbuild");
    let start = Instant::now();
    let out = Command::new(SGCHECK)
        .args(["audit", "p2197", "--compile-time", "2", "--"])
        .arg(&src)
        .env("TMPDIR", tmp.path())
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("--compile-time"), "{stderr}");
    assert!(
        start.elapsed() < Duration::from_secs(15),
        "{:?}",
        start.elapsed()
    );
    assert_none_left("sgslowbuild");
    assert!(entries(tmp.path()).is_empty(), "{:?}", entries(tmp.path()));
}

#[test]
fn including_dev_zero_is_stopped_by_the_compile_memory_limit() {
    if !have("g++") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let tmp = tempfile::tempdir().unwrap();
    let src = dir.path().join("sgzeroinclude.cpp");
    std::fs::write(&src, "#include \"/dev/zero\"\nint main() {}\n").unwrap();
    let start = Instant::now();
    let out = Command::new(SGCHECK)
        .args([
            "audit",
            "p2197",
            "--compile-memory",
            "256M",
            "--compile-time",
            "60",
            "--",
        ])
        .arg(&src)
        .env("TMPDIR", tmp.path())
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("--compile-memory"), "{stderr}");
    assert!(
        start.elapsed() < Duration::from_secs(50),
        "{:?}",
        start.elapsed()
    );
    assert_none_left("sgzeroinclude");
    assert!(entries(tmp.path()).is_empty(), "{:?}", entries(tmp.path()));
}

#[test]
fn a_compiler_error_flood_is_kept_bounded() {
    if !have("g++") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let src = dir.path().join("flood.cpp");
    // 5,000 errors, about 500 KB of messages (the first 64 KiB are kept).
    let body: String = (0..5_000).map(|i| format!("undeclared_{i}();\n")).collect();
    std::fs::write(&src, format!("int main() {{\n{body}}}\n")).unwrap();
    let child = Command::new(SGCHECK)
        .args(["audit", "p2197", "--compile-time", "60", "--"])
        .arg(&src)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let (status, max_rss, stderr) = wait_with_rusage(child);
    assert_eq!(status, 2, "{stderr}");
    assert!(
        stderr.contains("does not compile"),
        "{}",
        &stderr[..stderr.len().min(2000)]
    );
    assert!(
        stderr.len() < 200_000,
        "{} bytes of compiler messages",
        stderr.len()
    );
    assert!(
        stderr.contains("dropped"),
        "{}",
        &stderr[stderr.len().saturating_sub(500)..]
    );
    assert!(max_rss < 200 << 20, "sgcheck peaked at {max_rss} bytes");
}

/// Waits for `child`, reading its output: its exit code, its own peak resident memory
/// (bytes, `VmHWM` of the process itself, read while it runs) and standard error.
fn wait_with_rusage(mut child: Child) -> (i32, u64, String) {
    let mut stderr = child.stderr.take().unwrap();
    let mut stdout = child.stdout.take().unwrap();
    let t = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = std::io::Read::read_to_string(&mut stderr, &mut s);
        s
    });
    let t2 = std::thread::spawn(move || {
        let mut s = Vec::new();
        let _ = std::io::Read::read_to_end(&mut stdout, &mut s);
    });
    let status = format!("/proc/{}/status", child.id());
    let mut peak = 0u64;
    let code = loop {
        if let Ok(s) = std::fs::read_to_string(&status) {
            if let Some(kb) = s
                .lines()
                .find_map(|l| l.strip_prefix("VmHWM:"))
                .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
            {
                peak = peak.max(kb * 1024);
            }
        }
        if let Some(st) = child.try_wait().unwrap() {
            break st.code().unwrap_or(-1);
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    let _ = t2.join();
    (code, peak, t.join().unwrap())
}

#[test]
fn sigint_sigterm_and_sighup_during_a_compile_exit_130_and_leave_nothing() {
    if !have("g++") {
        return;
    }
    for (sig, name) in [
        (libc::SIGINT, "int"),
        (libc::SIGTERM, "term"),
        (libc::SIGHUP, "hup"),
    ] {
        let dir = tempfile::tempdir().unwrap();
        let tmp = tempfile::tempdir().unwrap();
        let marker = format!("sgsig{name}build");
        let src = slow_source(dir.path(), &marker);
        let mut child = Command::new(SGCHECK)
            .args(["audit", "p2197", "--compile-time", "60", "--"])
            .arg(&src)
            .env("TMPDIR", tmp.path())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let until = Instant::now() + Duration::from_secs(20);
        while marked(&format!("{marker}.cpp")).len() < 2 && Instant::now() < until {
            std::thread::sleep(Duration::from_millis(20));
        }
        assert!(
            !marked(&format!("{marker}.cpp")).is_empty(),
            "{name}: the compiler never started"
        );
        // SAFETY: a signal to the child this test spawned.
        unsafe {
            libc::kill(child.id() as i32, sig);
        }
        let until = Instant::now() + Duration::from_secs(10);
        let status = loop {
            if let Some(s) = child.try_wait().unwrap() {
                break s;
            }
            if Instant::now() > until {
                let _ = child.kill();
                panic!("{name}: sgcheck did not exit");
            }
            std::thread::sleep(Duration::from_millis(20));
        };
        assert_eq!(status.code(), Some(130), "{name}");
        assert_none_left(&marker);
        assert!(
            entries(tmp.path()).is_empty(),
            "{name}: left {:?}",
            entries(tmp.path())
        );
    }
}

#[test]
fn the_report_names_how_memory_is_limited() {
    if !have("gcc") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    compile(
        dir.path(),
        "hog512",
        r#"int main(void) { solve();
            size_t n = (size_t)512 << 20; volatile char *p = malloc(n);
            if (!p) return 4;
            for (size_t i = 0; i < n; i += 4096) p[i] = 1;
            return 0; }"#,
    );
    for cgroup in [None, Some("off")] {
        let mut cmd = Command::new(SGCHECK);
        cmd.args(["audit", "p2197", "--json", "--seed", "1", "--cases", "5"])
            .args(["--time", "20", "--memory-limit", "64M", "--", "./hog512"])
            .current_dir(dir.path());
        if let Some(v) = cgroup {
            cmd.env("SGCHECK_CGROUP", v);
        }
        let out = cmd.output().unwrap();
        let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(json["verdict"], "memory-limit", "{json}");
        // SAFETY: geteuid has no preconditions.
        let root = unsafe { libc::geteuid() } == 0;
        let v1 = Path::new("/sys/fs/cgroup/memory/memory.limit_in_bytes").exists();
        match cgroup {
            Some(_) => assert_eq!(json["memory_enforcement"], "polling", "{json}"),
            None if root && v1 => assert_eq!(json["memory_enforcement"], "cgroup-v1", "{json}"),
            None => eprintln!("memory limit enforced by {}", json["memory_enforcement"]),
        }
        assert_none_left("hog512");
    }
}

#[test]
fn sigint_sigterm_and_sighup_during_a_search_exit_130_and_leave_nothing() {
    let dir = tempfile::tempdir().unwrap();
    // Reads its input, then holds each run for up to 40 s, with a child of its own.
    let script = dir.path().join("slowsearch.sh");
    std::fs::write(&script, "cat >/dev/null; sleep 40 & sleep 41; wait\n").unwrap();
    for (sig, name) in [
        (libc::SIGINT, "int"),
        (libc::SIGTERM, "term"),
        (libc::SIGHUP, "hup"),
    ] {
        let mut child = Command::new(SGCHECK)
            .args([
                "audit",
                "p2197",
                "--timeout",
                "50",
                "--time",
                "100",
                "--jobs",
                "2",
            ])
            .arg("--")
            .arg("sh")
            .arg(&script)
            .current_dir(dir.path())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let until = Instant::now() + Duration::from_secs(20);
        while marked("sleep 41").is_empty() && Instant::now() < until {
            std::thread::sleep(Duration::from_millis(20));
        }
        assert!(!marked("sleep 41").is_empty(), "{name}: no run started");
        // SAFETY: a signal to the child this test spawned.
        unsafe {
            libc::kill(child.id() as i32, sig);
        }
        let until = Instant::now() + Duration::from_secs(10);
        let status = loop {
            if let Some(s) = child.try_wait().unwrap() {
                break s;
            }
            if Instant::now() > until {
                let _ = child.kill();
                panic!("{name}: sgcheck did not exit");
            }
            std::thread::sleep(Duration::from_millis(20));
        };
        assert_eq!(status.code(), Some(130), "{name}");
        assert_none_left("sleep 40");
        assert_none_left("sleep 41");
    }
}

#[test]
fn a_program_under_tmp_runs_from_any_working_directory() {
    if !have("gcc") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let exe = compile(
        dir.path(),
        "anywhere",
        "int main(void) { solve(); return 0; }",
    );
    let exe = exe.to_str().unwrap();
    // The root, /tmp itself, and a directory outside /tmp: the program is bound at its
    // own path in each run's fresh /tmp.
    for cwd in ["/", "/tmp", env!("CARGO_MANIFEST_DIR")] {
        let (out, json) = audit(Path::new(cwd), &["--cases", "20", "--time", "20"], &[exe]);
        assert_eq!(json["verdict"], "ok", "{cwd}: {json}");
        assert_eq!(out.status.code(), Some(0), "{cwd}");
    }
    assert_none_left("anywhere");
}

#[test]
fn a_compile_does_not_see_sgchecks_environment() {
    // The compiler runs contained like the program: `include_bytes!` of the
    // compiler's own /proc/self/environ bakes the build's environment into the
    // program, which answers right only when the secret is not in it.
    if !have("rustc") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let src = dir.path().join("sgenvbuild.rs");
    std::fs::write(
        &src,
        r#"use std::io::Read;
const BUILD_ENV: &[u8] = include_bytes!("/proc/self/environ");
fn main() {
    let secret: &[u8] = b"SGCHECK_TEST_SECRET";
    let leak = BUILD_ENV.windows(secret.len()).any(|w| w == secret);
    let mut input = String::new();
    std::io::stdin().read_to_string(&mut input).unwrap();
    let mut it = input.split_whitespace().map(|t| t.parse::<u64>().unwrap());
    let t = it.next().unwrap();
    for _ in 0..t {
        let n = it.next().unwrap();
        let x = (0..n).fold(0, |x, _| x ^ it.next().unwrap());
        let win = x != 0;
        // A build that saw the secret answers every case wrong.
        println!("{}", if win != leak { "Yes" } else { "No" });
    }
}
"#,
    )
    .unwrap();
    let out = Command::new(SGCHECK)
        .args(["audit", "p2197", "--json", "--seed", "1", "--cases", "20"])
        .args(["--time", "20", "--timeout", "10", "--compile-time", "120"])
        .arg("--")
        .arg(&src)
        .env("SGCHECK_TEST_SECRET", "hunter2")
        .current_dir(dir.path())
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    let json: serde_json::Value =
        serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{e}: {stderr}"));
    assert_eq!(json["verdict"], "ok", "{json} {stderr}");
    assert_none_left("sgenvbuild");
    // The same source built outside sgcheck with the secret in the environment does
    // see it, and answers wrong: the check above can fail.
    let exe = dir.path().join("sgenvbuild_plain");
    let built = Command::new("rustc")
        .arg("-o")
        .arg(&exe)
        .arg(&src)
        .env("SGCHECK_TEST_SECRET", "hunter2")
        .status()
        .unwrap();
    assert!(built.success());
    let mut child = Command::new(&exe)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    use std::io::Write as _;
    child.stdin.take().unwrap().write_all(b"1\n1\n1\n").unwrap();
    let answer = child.wait_with_output().unwrap();
    assert_eq!(
        String::from_utf8_lossy(&answer.stdout),
        "No\n",
        "a pile of 1 wins: Yes"
    );
}
