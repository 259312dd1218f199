//! The command line under abuse: a closed or full standard output, absurd option
//! values, endless or huge standard input, invalid UTF-8, runs that check nothing,
//! an unwritable `--save`. Never a panic; exit codes as documented.

use std::io::Write;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const SGCHECK: &str = env!("CARGO_BIN_EXE_sgcheck");

fn sgcheck(args: &[&str]) -> Command {
    let mut c = Command::new(SGCHECK);
    c.args(args);
    c
}

/// An audit that fails at once (exit code 3 on every input): work with exit code 1.
const FAILING_AUDIT: &[&str] = &[
    "audit",
    "p2197",
    "--seed",
    "1",
    "--time",
    "5",
    "--",
    "sh",
    "-c",
    "cat >/dev/null; exit 3",
];

/// Commands with the exit code their work has.
fn commands() -> Vec<(Vec<&'static str>, i32)> {
    vec![
        (vec!["list"], 0),
        (vec!["list", "--json"], 0),
        (vec!["check", "nim", "3,4,5"], 0),
        (vec!["check", "nim", "3,4,5", "--json"], 0),
        (
            vec!["verify", "--game", "nim", "--time", "1", "--seed", "1"],
            0,
        ),
        (FAILING_AUDIT.to_vec(), 1),
        (
            [
                FAILING_AUDIT[..6].to_vec(),
                vec!["--json"],
                FAILING_AUDIT[6..].to_vec(),
            ]
            .concat(),
            1,
        ),
    ]
}

fn assert_quiet(stderr: &[u8], what: &str) {
    let e = String::from_utf8_lossy(stderr);
    assert!(!e.contains("panicked"), "{what}: {e}");
    assert!(!e.contains("failed printing"), "{what}: {e}");
}

#[test]
fn closed_stdout_ends_quietly_with_the_work_exit_code() {
    for (args, code) in commands() {
        let mut child = sgcheck(&args)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        // The reader goes away before anything is written.
        drop(child.stdout.take());
        let out = child.wait_with_output().unwrap();
        assert_eq!(out.status.code(), Some(code), "{args:?}");
        assert_quiet(&out.stderr, &format!("{args:?}"));
    }
}

#[test]
fn full_stdout_ends_quietly_with_the_work_exit_code() {
    if !std::path::Path::new("/dev/full").exists() {
        return;
    }
    for (args, code) in commands() {
        let full = std::fs::OpenOptions::new()
            .write(true)
            .open("/dev/full")
            .unwrap();
        let out = sgcheck(&args)
            .stdin(Stdio::null())
            .stdout(full)
            .stderr(Stdio::piped())
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(code), "{args:?}");
        assert_quiet(&out.stderr, &format!("{args:?}"));
    }
}

#[test]
fn absurd_options_are_usage_errors_everywhere() {
    let cases: &[&[&str]] = &[
        &["verify", "--time", "1e30"],
        &["verify", "--time", "99999999999999999999"],
        &["verify", "--time", "1e-9"],
        &["verify", "--time", "nan"],
        &["verify", "--time", "-1"],
        &["verify", "--budget", "0"],
        &["verify", "--budget", "18446744073709551616"],
        &["check", "nim", "3", "--budget", "0"],
        &["solve", "p2197", "--budget", "-5"],
        &["audit", "p2197", "--time", "1e30", "--", "cat"],
        &["audit", "p2197", "--time", "1e-9", "--", "cat"],
        &["audit", "p2197", "--timeout", "inf", "--", "cat"],
        &["audit", "p2197", "--jobs", "100000", "--", "cat"],
        &["audit", "p2197", "--jobs", "0", "--", "cat"],
        &["audit", "p2197", "--cases", "0", "--", "cat"],
        &[
            "audit",
            "p2197",
            "--output-limit",
            "99999999999999999999G",
            "--",
            "cat",
        ],
        &["audit", "p2197", "--memory-limit", "0", "--", "cat"],
        &["audit", "p2197", "--memory-limit", "12Q", "--", "cat"],
        &["audit", "p2197", "--stack-limit", "-1", "--", "cat"],
        &["audit", "p2197", "--process-limit", "0", "--", "cat"],
        &["audit", "p2197", "--oracle-budget", "1e9", "--", "cat"],
    ];
    for args in cases {
        let start = Instant::now();
        let out = sgcheck(args).stdin(Stdio::null()).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert_quiet(&out.stderr, &format!("{args:?}"));
        assert!(
            start.elapsed() < Duration::from_secs(5),
            "{args:?} did work"
        );
    }
    let out = sgcheck(&["audit", "p2197", "--jobs", "100000", "--", "cat"])
        .output()
        .unwrap();
    let e = String::from_utf8_lossy(&out.stderr);
    assert!(e.contains("256"), "the cap is named: {e}");
}

#[test]
fn a_verify_that_checked_nothing_does_not_pass() {
    let out = sgcheck(&["verify", "--time", "0.001", "--seed", "1"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let e = String::from_utf8_lossy(&out.stderr);
    assert!(e.contains("nothing was checked"), "{e}");
    assert!(e.contains("raise --time"), "{e}");
}

#[test]
fn unwritable_save_is_refused_before_the_search() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("a-file");
    std::fs::write(&file, "").unwrap();
    let start = Instant::now();
    let out = sgcheck(&["audit", "p2197", "--time", "30", "--save"])
        .arg(file.join("sub"))
        .args(["--", "sh", "-c", "cat >/dev/null; exit 3"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--save"));
    assert!(start.elapsed() < Duration::from_secs(5));
}

/// Feeds `data` to `sgcheck solve p2197` (repeated `repeat` times, stopping at a
/// closed pipe); returns the exit code, standard error and peak memory (bytes).
// The child is reaped by wait4 (for its rusage), not by std's `wait`.
#[allow(clippy::zombie_processes)]
fn solve_with(data: &'static [u8], repeat: usize) -> (i32, String, u64) {
    let mut child = sgcheck(&["solve", "p2197"])
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || {
        for _ in 0..repeat {
            if stdin.write_all(data).is_err() {
                break;
            }
        }
    });
    let mut stderr = child.stderr.take().unwrap();
    let reader = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = std::io::Read::read_to_string(&mut stderr, &mut s);
        s
    });
    let pid = child.id() as i32;
    let mut status = 0;
    // SAFETY: rusage is plain data; wait4 reaps our own child (std's handle is not
    // used afterwards).
    let ru = unsafe {
        let mut ru: libc::rusage = std::mem::zeroed();
        assert_eq!(libc::wait4(pid, &mut status, 0, &mut ru), pid);
        ru
    };
    writer.join().unwrap();
    let err = reader.join().unwrap();
    let code = if libc::WIFEXITED(status) {
        libc::WEXITSTATUS(status)
    } else {
        -1
    };
    (code, err, ru.ru_maxrss as u64 * 1024)
}

#[test]
fn endless_stdin_is_read_with_bounded_memory() {
    // `yes 5 | sgcheck solve p2197`, cut at 1 GiB if sgcheck never stops reading.
    static CHUNK: [u8; 1 << 16] = {
        let mut b = [b'5'; 1 << 16];
        let mut i = 1;
        while i < b.len() {
            b[i] = b'\n';
            i += 2;
        }
        b
    };
    let (code, err, peak) = solve_with(&CHUNK, 1 << 14);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("larger than any valid p2197 input"), "{err}");
    assert!(peak < 128 << 20, "peak memory {peak} bytes");
}

#[test]
fn a_huge_token_is_quoted_briefly() {
    static SEVENS: [u8; 1 << 20] = [b'7'; 1 << 20];
    let (code, err, _) = solve_with(&SEVENS, 8);
    assert_eq!(code, 2);
    assert!(err.len() < 300, "{} bytes of error", err.len());
    assert!(
        err.contains("line 1") && err.contains("out of range"),
        "{err}"
    );
}

#[test]
fn invalid_utf8_and_out_of_range_name_line_and_field() {
    let (code, err, _) = solve_with(b"1\n2\n3 \xff4\n", 1);
    assert_eq!(code, 2);
    assert!(err.contains("line 3") && err.contains("pile 2"), "{err}");
    assert!(err.contains("invalid UTF-8"), "{err}");
    let (code, err, _) = solve_with(b"1\n1\n18446744073709551616\n", 1);
    assert_eq!(code, 2);
    assert!(
        err.contains("line 3") && err.contains("out of range"),
        "{err}"
    );
}
