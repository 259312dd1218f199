//! SIGINT, SIGTERM and SIGHUP sent to sgcheck while it shrinks a failure and while it
//! saves one (`--save`): each ends it with exit code 130, leaves no process of the
//! audit running (looked up in `/proc`) and no temporary file (in `$TMPDIR` and in
//! the save directory). The compile and the search are covered in `tests/sandbox.rs`.
//! Run in either containment mode (`SGCHECK_CONTAINMENT=subreaper` forces the
//! fallback).
//!
//! The programs are bounded: they sleep at most 45 s, and every one is killed by the
//! audit's interrupt handler or, failing that, by the test.

use std::path::Path;
use std::process::{Child, Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

const SGCHECK: &str = env!("CARGO_BIN_EXE_sgcheck");

const SIGNALS: [(i32, &str); 3] = [
    (libc::SIGINT, "int"),
    (libc::SIGTERM, "term"),
    (libc::SIGHUP, "hup"),
];

fn have_gcc() -> bool {
    let ok = Command::new("gcc")
        .arg("--version")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    if !ok {
        let required = std::env::var_os("CI").is_some()
            || std::env::var("SGCHECK_REQUIRE_TOOLS").is_ok_and(|v| v == "1");
        assert!(!required, "gcc is required but missing");
        eprintln!("!!!!!!!! SKIPPED: gcc is not installed; this test checked nothing !!!!!!!!");
    }
    ok
}

/// A p2197 solution that answers `Maybe` (wrong) for every case of 4 piles or more,
/// right otherwise. With `SLOW` defined, on the smallest such case (4 piles of 0,
/// which only the shrinker builds) it holds the run: a child `sleep 44` and itself
/// `sleep 43`.
const PROGRAM: &str = r#"
#include <stdio.h>
#include <unistd.h>
int main(void) {
    int t, n, v;
    if (scanf("%d", &t) != 1) return 0;
    for (int c = 0; c < t; c++) {
        int x = 0, any = 0;
        if (scanf("%d", &n) != 1) return 3;
        for (int i = 0; i < n; i++) { if (scanf("%d", &v) != 1) return 3; x ^= v; any |= v; }
#ifdef SLOW
        if (n == 4 && !any) {
            fflush(stdout);
            if (fork() == 0) execlp("sleep", "sleep", "44", (char *)0);
            execlp("sleep", "sleep", "43", (char *)0);
        }
#endif
        puts(n >= 4 ? "Maybe" : x ? "Yes" : "No");
    }
    return 0;
}
"#;

fn build(dir: &Path, name: &str, slow: bool) {
    let src = dir.join(format!("{name}.c"));
    std::fs::write(&src, PROGRAM).unwrap();
    let mut cmd = Command::new("gcc");
    cmd.args(["-O1", "-o"]).arg(dir.join(name)).arg(&src);
    if slow {
        cmd.arg("-DSLOW");
    }
    assert!(cmd.status().unwrap().success());
}

/// Live (not zombie) processes whose command line contains `marker`.
fn marked(marker: &str) -> Vec<i32> {
    let mut out = Vec::new();
    for e in std::fs::read_dir("/proc").unwrap().flatten() {
        let Some(pid) = e.file_name().to_str().and_then(|s| s.parse::<i32>().ok()) else {
            continue;
        };
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

/// Processes left whose command line holds `marker` (after a moment for the kernel's
/// teardown); kills any, so that a failing test leaves nothing behind.
fn left(marker: &str) -> Vec<i32> {
    let end = Instant::now() + Duration::from_secs(3);
    loop {
        let l = marked(marker);
        if l.is_empty() || Instant::now() > end {
            for &p in &l {
                // SAFETY: kill has no memory arguments; these are the test's processes.
                unsafe {
                    libc::kill(p, libc::SIGKILL);
                }
            }
            return l;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn entries(dir: &Path) -> Vec<String> {
    std::fs::read_dir(dir)
        .map(|d| {
            d.flatten()
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .collect()
        })
        .unwrap_or_default()
}

/// Waits until `ready` holds (or 30 s), sends `sig` to sgcheck, and returns how it
/// ended (it is killed after 10 s).
fn interrupt(child: &mut Child, sig: i32, name: &str, ready: impl Fn() -> bool) -> ExitStatus {
    let until = Instant::now() + Duration::from_secs(30);
    while !ready() {
        if Instant::now() > until {
            let _ = child.kill();
            let _ = child.wait();
            panic!("{name}: the stage was never reached");
        }
        if let Some(s) = child.try_wait().unwrap() {
            panic!("{name}: sgcheck ended before the stage ({s})");
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    // SAFETY: a signal to the child this test spawned.
    unsafe {
        libc::kill(child.id() as i32, sig);
    }
    let until = Instant::now() + Duration::from_secs(10);
    loop {
        if let Some(s) = child.try_wait().unwrap() {
            return s;
        }
        if Instant::now() > until {
            let _ = child.kill();
            let _ = child.wait();
            panic!("{name}: sgcheck did not exit");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn audit(dir: &Path, tmp: &Path, extra: &[&str], program: &str) -> Command {
    let mut cmd = Command::new(SGCHECK);
    cmd.args([
        "audit",
        "p2197",
        "--seed",
        "1",
        "--cases",
        "300",
        "--no-batch",
    ])
    .args([
        "--jobs",
        "1",
        "--timeout",
        "50",
        "--time",
        "100",
        "--no-progress",
    ])
    .args(extra)
    .arg("--")
    .arg(format!("./{program}"))
    .current_dir(dir)
    .env("TMPDIR", tmp)
    .stdin(Stdio::null());
    cmd
}

#[test]
fn sigint_sigterm_and_sighup_during_a_shrink_exit_130_and_leave_nothing() {
    if !have_gcc() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    build(dir.path(), "sgshrinkfast", false);
    build(dir.path(), "sgshrinkslow", true);
    // The stage is the shrink: the search fails on a case of more than 4 piles or
    // not all 0, and the shrinker reaches 4 piles of 0 (checked with the fast build).
    let tmp = tempfile::tempdir().unwrap();
    let out = audit(dir.path(), tmp.path(), &["--json"], "sgshrinkfast")
        .output()
        .unwrap();
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json["verdict"], "wrong-answer", "{json}");
    assert_eq!(json["counterexample"]["input"], "1\n4\n0 0 0 0\n", "{json}");
    assert!(json["shrink_runs"].as_u64().unwrap() > 0, "{json}");
    for (sig, name) in SIGNALS {
        let tmp = tempfile::tempdir().unwrap();
        let mut child = audit(dir.path(), tmp.path(), &[], "sgshrinkslow")
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let status = interrupt(&mut child, sig, name, || !marked("sleep 43").is_empty());
        assert_eq!(status.code(), Some(130), "{name}");
        assert_eq!(left("sleep 43"), Vec::<i32>::new(), "{name}");
        assert_eq!(left("sleep 44"), Vec::<i32>::new(), "{name}");
        assert_eq!(left("sgshrinkslow"), Vec::<i32>::new(), "{name}");
        assert!(
            entries(tmp.path()).is_empty(),
            "{name}: {:?}",
            entries(tmp.path())
        );
    }
}

#[test]
fn sigint_sigterm_and_sighup_during_a_save_exit_130_and_leave_nothing() {
    if !have_gcc() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    build(dir.path(), "sgsavefast", false);
    for (sig, name) in SIGNALS {
        let tmp = tempfile::tempdir().unwrap();
        let save = tempfile::tempdir().unwrap();
        let saving = |d: &Path| entries(d).iter().any(|e| e.starts_with(".sgcheck-save-"));
        let mut child = audit(
            dir.path(),
            tmp.path(),
            &["--save", save.path().to_str().unwrap()],
            "sgsavefast",
        )
        // sgcheck pauses for a minute with the save's temporary file written.
        .env("SGCHECK_TEST_STALL", "save")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
        let status = interrupt(&mut child, sig, name, || saving(save.path()));
        assert_eq!(status.code(), Some(130), "{name}");
        assert!(!saving(save.path()), "{name}: {:?}", entries(save.path()));
        assert_eq!(left("sgsavefast"), Vec::<i32>::new(), "{name}");
        assert!(
            entries(tmp.path()).is_empty(),
            "{name}: {:?}",
            entries(tmp.path())
        );
    }
}
