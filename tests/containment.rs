//! Hostile programs, written and compiled by the tests: escapes from the process
//! group (`setsid`, `setpgid`), a double fork holding standard output, a 2 GB
//! allocation, a flood, a bounded fork storm, a deep recursion, and SIGKILL or SIGINT
//! of sgcheck during an audit. Each test asserts the verdict and that no process of the
//! program is left (by looking for its executable in `/proc`), in both containment
//! modes where it matters: the PID namespace and the subreaper fallback
//! (`SGCHECK_CONTAINMENT`).
//! Every program is bounded: it sleeps at most a minute and forks at most 512 times.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

const SGCHECK: &str = env!("CARGO_BIN_EXE_sgcheck");

/// A correct p2197 solution, as a C function body prefix, reading the whole input and
/// printing the answers (flushed) before whatever the test adds.
const SOLVE: &str = r#"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <signal.h>
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

fn have_gcc() -> bool {
    Command::new("gcc")
        .arg("--version")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

/// Compiles `main` (after [`SOLVE`]) into a fresh directory; `None` without gcc.
fn compile(name: &str, main: &str) -> Option<(tempfile::TempDir, PathBuf)> {
    if !have_gcc() {
        eprintln!("gcc not found: skipping {name}");
        return None;
    }
    let dir = tempfile::tempdir().unwrap();
    let src = dir.path().join(format!("{name}.c"));
    let exe = dir.path().join(name);
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
    Some((dir, exe))
}

/// Processes running `exe`, from `/proc/*/exe`.
fn running(exe: &Path) -> Vec<i32> {
    let exe = std::fs::canonicalize(exe).unwrap_or_else(|_| exe.to_path_buf());
    let mut out = Vec::new();
    for e in std::fs::read_dir("/proc").unwrap().flatten() {
        let Some(pid) = e.file_name().to_str().and_then(|s| s.parse::<i32>().ok()) else {
            continue;
        };
        if std::fs::read_link(e.path().join("exe")).is_ok_and(|p| p == exe) {
            out.push(pid);
        }
    }
    out
}

/// Asserts that no process of `exe` is left (waiting a moment for the kernel to finish
/// a teardown); kills any it finds so that a failing test leaves nothing behind.
fn assert_none_left(exe: &Path) {
    let end = Instant::now() + Duration::from_secs(3);
    loop {
        let left = running(exe);
        if left.is_empty() {
            return;
        }
        if Instant::now() > end {
            for &pid in &left {
                // SAFETY: plain syscall on a process of this test's program.
                unsafe {
                    libc::kill(pid, libc::SIGKILL);
                }
            }
            panic!(
                "{} process(es) of {} left: {left:?}",
                left.len(),
                exe.display()
            );
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// `sgcheck audit p2197 --json ... -- exe` in containment `mode` (None: the default).
fn audit(exe: &Path, mode: Option<&str>, extra: &[&str]) -> (Output, serde_json::Value) {
    let mut cmd = Command::new(SGCHECK);
    cmd.args(["audit", "p2197", "--json", "--seed", "1"])
        .args(extra)
        .arg("--")
        .arg(exe);
    if let Some(m) = mode {
        cmd.env("SGCHECK_CONTAINMENT", m);
    }
    let out = cmd.output().unwrap();
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "no JSON report ({e}): {}\n{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        )
    });
    // The report names the mode the runs were contained in: the fallback when it is
    // forced, namespaces as root where the kernel has them (this test's machines).
    let forced = mode == Some("subreaper")
        || std::env::var("SGCHECK_CONTAINMENT").is_ok_and(|v| v == "subreaper");
    // SAFETY: geteuid has no preconditions.
    let root = unsafe { libc::geteuid() } == 0;
    if forced {
        assert_eq!(json["containment"], "subreaper", "{json}");
    } else if root {
        assert_eq!(json["containment"], "namespaces", "{json}");
    }
    (out, json)
}

const MODES: [Option<&str>; 2] = [None, Some("subreaper")];

fn escape_test(name: &str, main: &str) {
    let Some((_dir, exe)) = compile(name, main) else {
        return;
    };
    for mode in MODES {
        let start = Instant::now();
        let (out, json) = audit(&exe, mode, &["--time", "1", "--cases", "200"]);
        assert_eq!(json["verdict"], "ok", "{mode:?}: {json}");
        assert_eq!(out.status.code(), Some(0), "{mode:?}");
        assert!(json["search_cases"].as_u64().unwrap() > 0);
        assert!(
            start.elapsed() < Duration::from_secs(20),
            "{mode:?}: {:?}",
            start.elapsed()
        );
        assert_none_left(&exe);
    }
}

#[test]
fn setsid_escape_is_contained() {
    escape_test(
        "setsid",
        r#"int main(void) { solve();
            if (fork() == 0) { setsid(); fork(); sleep(60); }
            return 0; }"#,
    );
}

#[test]
fn setpgid_escape_is_contained() {
    escape_test(
        "setpgid",
        r#"int main(void) { solve();
            if (fork() == 0) { setpgid(0, 0); fork(); sleep(60); }
            return 0; }"#,
    );
}

#[test]
fn double_fork_holding_stdout_is_judged_when_main_ends() {
    // The grandchild keeps standard output open for a minute: the answer must still
    // be judged (ok), at once, not as an empty output.
    escape_test(
        "holder",
        r#"int main(void) { solve();
            if (fork() == 0) { if (fork() == 0) { setsid(); sleep(60); } _exit(0); }
            return 0; }"#,
    );
}

#[test]
fn two_gigabytes_is_a_memory_limit() {
    let Some((_dir, exe)) = compile(
        "hog",
        r#"int main(void) { solve();
            size_t n = (size_t)2 << 30; volatile char *p = malloc(n);
            if (!p) return 4;
            for (size_t i = 0; i < n; i += 4096) p[i] = 1;
            return 0; }"#,
    ) else {
        return;
    };
    for mode in MODES {
        let (out, json) = audit(
            &exe,
            mode,
            &["--time", "2", "--cases", "20", "--timeout", "10"],
        );
        assert_eq!(json["verdict"], "memory-limit", "{mode:?}: {json}");
        assert_eq!(out.status.code(), Some(1));
        assert_none_left(&exe);
    }
}

#[test]
fn memory_within_the_limit_is_not_flagged() {
    // 64 MiB touched, under a 256 MiB limit; over a 32 MiB one.
    let Some((_dir, exe)) = compile(
        "modest",
        r#"int main(void) { size_t n = (size_t)64 << 20; volatile char *p = malloc(n);
            for (size_t i = 0; i < n; i += 4096) p[i] = 1;
            solve(); return 0; }"#,
    ) else {
        return;
    };
    let (_, json) = audit(&exe, None, &["--time", "1", "--cases", "20"]);
    assert_eq!(json["verdict"], "ok", "{json}");
    let (_, json) = audit(
        &exe,
        None,
        &["--time", "1", "--cases", "20", "--memory-limit", "32M"],
    );
    assert_eq!(json["verdict"], "memory-limit", "{json}");
    assert_none_left(&exe);
}

#[test]
fn flood_is_an_output_limit() {
    let Some((_dir, exe)) = compile(
        "flood",
        r#"int main(void) { solve(); char b[65536]; memset(b, 'y', sizeof b);
            for (int i = 0; i < 100000; i++) fwrite(b, 1, sizeof b, stdout);
            return 0; }"#,
    ) else {
        return;
    };
    let (_, json) = audit(
        &exe,
        None,
        &["--time", "2", "--cases", "20", "--output-limit", "1M"],
    );
    assert_eq!(json["verdict"], "output-limit", "{json}");
    assert_none_left(&exe);
}

#[test]
fn fork_storm_hits_the_process_limit() {
    // 2^9 = 512 processes at most, each sleeping a minute.
    let Some((_dir, exe)) = compile(
        "storm",
        r#"int main(void) { solve(); for (int i = 0; i < 9; i++) fork(); sleep(60); return 0; }"#,
    ) else {
        return;
    };
    for mode in MODES {
        let (_, json) = audit(&exe, mode, &["--time", "2", "--cases", "20"]);
        assert_eq!(json["verdict"], "runtime-error", "{mode:?}: {json}");
        let detail = json["counterexample"]["detail"].as_str().unwrap();
        assert!(detail.contains("64 processes"), "{detail}");
        assert_none_left(&exe);
    }
}

#[test]
fn stack_limit_is_the_programs() {
    // About 4 MiB of stack: fine with the usual 8 MiB, a crash with 1 MiB.
    let Some((_dir, exe)) = compile(
        "deep",
        r#"static int down(int n) { volatile char pad[1000]; pad[0] = (char)n;
               return n == 0 ? 0 : down(n - 1) + pad[0] - (char)n; }
           int main(void) { if (down(4000) != 0) return 5; solve(); return 0; }"#,
    ) else {
        return;
    };
    let (_, json) = audit(
        &exe,
        None,
        &["--time", "1", "--cases", "20", "--stack-limit", "16M"],
    );
    assert_eq!(json["verdict"], "ok", "{json}");
    let (_, json) = audit(
        &exe,
        None,
        &["--time", "1", "--cases", "20", "--stack-limit", "1M"],
    );
    assert_eq!(json["verdict"], "runtime-error", "{json}");
    let detail = json["counterexample"]["detail"].as_str().unwrap();
    assert!(detail.contains("SIGSEGV"), "{detail}");
    assert_none_left(&exe);
}

#[test]
fn sigkill_or_sigint_of_sgcheck_leaves_nothing() {
    let Some((_dir, exe)) = compile(
        "sleeper",
        r#"int main(void) { solve();
            if (fork() == 0) { setsid(); fork(); sleep(60); }
            sleep(60); return 0; }"#,
    ) else {
        return;
    };
    for mode in MODES {
        for sig in [libc::SIGKILL, libc::SIGINT] {
            let mut cmd = Command::new(SGCHECK);
            cmd.args([
                "audit",
                "p2197",
                "--time",
                "30",
                "--timeout",
                "30",
                "--json",
            ])
            .arg("--")
            .arg(&exe)
            .stdout(Stdio::null())
            .stderr(Stdio::null());
            if let Some(m) = mode {
                cmd.env("SGCHECK_CONTAINMENT", m);
            }
            let mut child = cmd.spawn().unwrap();
            let end = Instant::now() + Duration::from_secs(10);
            while running(&exe).len() < 3 && Instant::now() < end {
                std::thread::sleep(Duration::from_millis(20));
            }
            assert!(
                running(&exe).len() >= 3,
                "{mode:?}: the program did not start"
            );
            // SAFETY: plain syscall on our own child.
            unsafe {
                libc::kill(child.id() as i32, sig);
            }
            let status = child.wait().unwrap();
            if sig == libc::SIGINT {
                assert_eq!(status.code(), Some(130), "{mode:?}");
            }
            assert_none_left(&exe);
        }
    }
}

#[test]
fn python_within_the_limit_is_not_flagged() {
    let Ok(py) = which("python3") else {
        eprintln!("python3 not found: skipping");
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let src = dir.path().join("sol.py");
    std::fs::write(
        &src,
        "import sys\nd = sys.stdin.read().split()\nt = int(d[0]); i = 1\n\
         for _ in range(t):\n    n = int(d[i]); i += 1; x = 0\n\
         \x20   for v in d[i:i + n]: x ^= int(v)\n    i += n\n\
         \x20   print('Yes' if x else 'No')\n",
    )
    .unwrap();
    let out = Command::new(SGCHECK)
        .args(["audit", "p2197", "--json", "--seed", "1", "--cases", "30"])
        .args(["--time", "20", "--timeout", "10", "--"])
        .arg(py)
        .arg(&src)
        .output()
        .unwrap();
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json["verdict"], "ok", "{json}");
}

fn which(name: &str) -> Result<PathBuf, ()> {
    let path = std::env::var_os("PATH").ok_or(())?;
    std::env::split_paths(&path)
        .map(|d| d.join(name))
        .find(|p| p.is_file())
        .ok_or(())
}

#[test]
fn shell_background_jobs_in_new_sessions_are_contained() {
    // Needs no compiler: a private copy of `sleep` makes the leftovers recognisable.
    let Ok(sleep) = which("sleep") else {
        eprintln!("sleep not found: skipping");
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let marker = dir.path().join("sleep-marker");
    std::fs::copy(sleep, &marker).unwrap();
    let script = dir.path().join("sol.sh");
    std::fs::write(
        &script,
        format!(
            "set -f\nset -- $(cat)\nt=$1; shift\n\
             while [ \"$t\" -gt 0 ]; do n=$1; shift; x=0\n\
             while [ \"$n\" -gt 0 ]; do x=$((x ^ $1)); shift; n=$((n-1)); done\n\
             if [ \"$x\" -ne 0 ]; then echo Yes; else echo No; fi; t=$((t-1)); done\n\
             setsid {m} 60 &\n( {m} 60 & ) \n",
            m = marker.display()
        ),
    )
    .unwrap();
    for mode in MODES {
        let mut cmd = Command::new(SGCHECK);
        cmd.args(["audit", "p2197", "--json", "--seed", "1"])
            .args(["--time", "2", "--cases", "30", "--", "sh"])
            .arg(&script);
        if let Some(m) = mode {
            cmd.env("SGCHECK_CONTAINMENT", m);
        }
        let out = cmd.output().unwrap();
        let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(json["verdict"], "ok", "{mode:?}: {json}");
        assert_none_left(&marker);
    }
}
