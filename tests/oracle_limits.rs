//! The oracle's limits at the command line: positions too large in memory or in time
//! end `check` and `solve --engine oracle` with exit code 2 and a message naming the
//! limit, promptly, within an address-space limit that an unbounded search would hit
//! (it would abort instead of exiting 2).

use std::os::unix::process::CommandExt;
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

fn sgcheck() -> Command {
    Command::new(env!("CARGO_BIN_EXE_sgcheck"))
}

/// Runs `cmd` with its address space limited to `limit` bytes; returns the output and
/// the wall time.
fn run_limited(mut cmd: Command, limit: u64) -> (Output, Duration) {
    unsafe {
        cmd.pre_exec(move || {
            let l = libc::rlimit {
                rlim_cur: limit,
                rlim_max: limit,
            };
            if libc::setrlimit(libc::RLIMIT_AS, &l) != 0 {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        });
    }
    let start = Instant::now();
    let out = cmd.stdin(Stdio::null()).output().expect("sgcheck runs");
    (out, start.elapsed())
}

fn ones(n: usize, sep: &str) -> String {
    vec!["1"; n].join(sep)
}

const GIB: u64 = 1 << 30;

#[test]
fn check_1000_piles_plain_search_hits_the_memory_limit() {
    // The plain search holds every child of every position on its path: about a
    // million positions of 8 KB. With --memory 256M it stops with exit 2; the address
    // space limit of 768 MiB would make an unbounded search abort instead.
    let mut cmd = sgcheck();
    cmd.args(["check", "nim", &ones(1000, ","), "--memory", "256M"])
        .env("SGCHECK_ORACLE_SPEEDUPS", "none");
    let (out, t) = run_limited(cmd, 3 * GIB / 4);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("256 MiB of memory"), "{err}");
    assert!(out.stdout.is_empty());
    assert!(t < Duration::from_secs(30), "{t:?}");
}

#[test]
fn check_1000_piles_fast_search_answers_or_stops_cleanly() {
    // With the speed-ups, equal children are kept once, so this is a chain of 1000
    // positions: answered (exit 0, agreeing) within the limits, or stopped by the
    // time limit with exit 2; never an abort.
    let mut cmd = sgcheck();
    cmd.args(["check", "nim", &ones(1000, ","), "--time", "5"]);
    let (out, t) = run_limited(cmd, 2 * GIB);
    let text = String::from_utf8_lossy(&out.stdout);
    let err = String::from_utf8_lossy(&out.stderr);
    match out.status.code() {
        Some(0) => assert!(text.contains("agree") && text.contains("lose"), "{text}"),
        Some(2) => assert!(err.contains("no answer within 5.0 s"), "{err}"),
        other => panic!("exit {other:?}: {err}"),
    }
    assert!(t < Duration::from_secs(20), "{t:?}");
}

#[test]
fn solve_p2197_ten_thousand_piles_of_one_stops_in_time() {
    let dir = tempfile::tempdir().unwrap();
    let input: PathBuf = dir.path().join("in.txt");
    std::fs::write(&input, format!("1\n10000\n{}\n", ones(10_000, " "))).unwrap();
    let mut cmd = sgcheck();
    cmd.args(["solve", "p2197", "--engine", "oracle", "--time", "2"])
        .arg(&input);
    let (out, t) = run_limited(cmd, 2 * GIB);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains("case 1") && err.contains("no answer within 2.0 s"),
        "{err}"
    );
    assert!(out.stdout.is_empty());
    assert!(t < Duration::from_secs(15), "{t:?}");
    // The same input through the plain search: stopped by time or memory, cleanly.
    let mut cmd = sgcheck();
    cmd.args([
        "solve", "p2197", "--engine", "oracle", "--time", "2", "--memory", "256M",
    ])
    .arg(&input)
    .env("SGCHECK_ORACLE_SPEEDUPS", "none");
    let (out, t) = run_limited(cmd, GIB);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains("no answer within") || err.contains("MiB of memory"),
        "{err}"
    );
    assert!(t < Duration::from_secs(15), "{t:?}");
}

#[test]
fn check_lasker_45_stops_at_the_time_limit() {
    let start = Instant::now();
    let out = sgcheck()
        .args([
            "check",
            "lasker",
            "45",
            "--time",
            "1",
            "--budget",
            "100000000",
        ])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("no answer within 1.0 s"), "{err}");
    assert!(start.elapsed() < Duration::from_secs(10));
}

#[test]
fn limits_are_validated() {
    for args in [
        ["--time", "0"],
        ["--time", "-1"],
        ["--time", "1e30"],
        ["--time", "NaN"],
        ["--memory", "12Q"],
        ["--memory", "99999999999G"],
        ["--memory", "1K"],
    ] {
        let out = sgcheck()
            .args(["check", "nim", "1,2"])
            .args(args)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let out = sgcheck()
            .args(["solve", "p2197", "--engine", "oracle"])
            .args(args)
            .stdin(Stdio::null())
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
    }
    // Small positions answer as before within the default limits.
    let out = sgcheck().args(["check", "nim", "3,4,5"]).output().unwrap();
    assert_eq!(out.status.code(), Some(0));
}
