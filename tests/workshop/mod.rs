//! Shared by the integration tests: running the built `sgcheck` with an input, a
//! temporary workshop with g++ for the audit tests that build C++ programs, running
//! `sgcheck audit` on them, and reading its JSON report.
#![allow(dead_code)]

pub mod game_programs;
pub mod programs;

use serde_json::Value;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

const SGCHECK: &str = env!("CARGO_BIN_EXE_sgcheck");

/// `src` with the one occurrence of `from` replaced by `to`: the buggy program is the
/// correct one with exactly one mistake.
pub fn variant(src: &str, from: &str, to: &str) -> String {
    assert_eq!(src.matches(from).count(), 1, "{from:?} must occur once");
    src.replacen(from, to, 1)
}

/// Whether a missing tool fails the test instead of skipping it: under CI (`CI` set
/// to anything but empty, `0` or `false`) or with `SGCHECK_REQUIRE_TOOLS=1`.
pub fn tools_required() -> bool {
    required_by(|k| std::env::var(k).ok())
}

/// [`tools_required`] reading the environment through `var`.
pub fn required_by(var: impl Fn(&str) -> Option<String>) -> bool {
    let ci = var("CI").is_some_and(|v| !matches!(v.trim(), "" | "0" | "false"));
    ci || var("SGCHECK_REQUIRE_TOOLS").is_some_and(|v| v.trim() == "1")
}

/// Whether `tool --version` runs. When it does not: under CI or
/// `SGCHECK_REQUIRE_TOOLS=1` the test fails (a CI image without the tool must not go
/// green with the coverage gone); otherwise a loud skip line is printed and the test
/// goes on without it (`false`).
pub fn require_tool(tool: &str) -> bool {
    require_tool_if(tool, tools_required())
}

/// [`require_tool`] with the requirement given.
pub fn require_tool_if(tool: &str, required: bool) -> bool {
    let ok = Command::new(tool)
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !ok {
        assert!(
            !required,
            "{tool} is required (CI or SGCHECK_REQUIRE_TOOLS=1) but is not available"
        );
        eprintln!(
            "\n*** SKIPPED: {tool} is not available; this test checked nothing. \
             Install {tool}, or set SGCHECK_REQUIRE_TOOLS=1 to make this a failure. ***\n"
        );
    }
    ok
}

/// A temporary directory with g++ at hand; `None` (after a loud skip line) without g++,
/// and a failed test without g++ under CI or `SGCHECK_REQUIRE_TOOLS=1`.
pub struct Workshop {
    dir: tempfile::TempDir,
}

impl Workshop {
    pub fn new() -> Option<Workshop> {
        require_tool("g++").then(|| Workshop {
            dir: tempfile::tempdir().expect("a temporary directory"),
        })
    }

    pub fn path(&self) -> &Path {
        self.dir.path()
    }

    /// Compiles `src` with `g++ -O2 <flags>` into the program `name`.
    pub fn compile(&self, name: &str, src: &str, flags: &[&str]) -> PathBuf {
        let source = self.path().join(format!("{name}.cpp"));
        std::fs::write(&source, src).unwrap();
        let exe = self.path().join(name);
        let out = Command::new("g++")
            .arg("-O2")
            .args(flags)
            .arg("-o")
            .arg(&exe)
            .arg(&source)
            .output()
            .expect("runs g++");
        assert!(
            out.status.success(),
            "g++ failed on {name}:\n{}",
            String::from_utf8_lossy(&out.stderr)
        );
        exe
    }

    /// `sgcheck audit <problem> --seed <seed> --time <time> --json -- <command>`: the
    /// report, after checking that the exit status matches the verdict and that no
    /// process of this directory is left running.
    pub fn audit(&self, problem: &str, seed: u64, time: &str, command: &[&str]) -> Value {
        self.audit_with(problem, seed, &["--time", time], command)
    }

    /// `sgcheck audit <problem> --seed <seed> <options> --json -- <command>`, checked
    /// as [`Workshop::audit`] checks it.
    pub fn audit_with(
        &self,
        problem: &str,
        seed: u64,
        options: &[&str],
        command: &[&str],
    ) -> Value {
        self.audit_of(&[problem], seed, options, command)
    }

    /// `sgcheck audit --problem <declaration> --seed <seed> --time <time> --json --
    /// <exe>`, checked as [`Workshop::audit`] checks it.
    pub fn audit_declared(&self, declaration: &Path, seed: u64, time: &str, exe: &Path) -> Value {
        self.audit_of(
            &["--problem", declaration.to_str().unwrap()],
            seed,
            &["--time", time],
            &[exe.to_str().unwrap()],
        )
    }

    pub fn audit_of(
        &self,
        problem: &[&str],
        seed: u64,
        options: &[&str],
        command: &[&str],
    ) -> Value {
        let seed = seed.to_string();
        let mut args = vec!["audit"];
        args.extend_from_slice(problem);
        args.extend_from_slice(&["--seed", &seed]);
        args.extend_from_slice(options);
        args.extend_from_slice(&["--json", "--"]);
        args.extend_from_slice(command);
        let out = Command::new(SGCHECK)
            .args(&args)
            .stdin(Stdio::null())
            .output()
            .expect("runs sgcheck");
        let stdout = String::from_utf8_lossy(&out.stdout);
        let stderr = String::from_utf8_lossy(&out.stderr);
        let report: Value = serde_json::from_str(&stdout)
            .unwrap_or_else(|e| panic!("bad JSON ({e}):\n{stdout}\n{stderr}"));
        let want = if report["verdict"] == "ok" { 0 } else { 1 };
        assert_eq!(out.status.code(), Some(want), "{stdout}\n{stderr}");
        assert_nothing_left(self.path());
        report
    }

    /// Audits the compiled program `exe` on its first `cases` cases, with time enough
    /// for a loaded machine (the audit stops at the count, not at the time).
    pub fn audit_cases(&self, problem: &str, seed: u64, cases: u64, exe: &Path) -> Value {
        let cases = cases.to_string();
        self.audit_with(
            problem,
            seed,
            &["--cases", &cases, "--time", "300"],
            &[exe.to_str().unwrap()],
        )
    }

    /// Audits the compiled program `exe`.
    pub fn audit_exe(&self, problem: &str, seed: u64, time: &str, exe: &Path) -> Value {
        self.audit(problem, seed, time, &[exe.to_str().unwrap()])
    }
}

/// Whether `pid` still runs (a zombie counts as gone) with `marker` in its command line.
pub fn alive(pid: &str, marker: &str) -> bool {
    let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat")) else {
        return false;
    };
    let state = stat.rsplit(')').next().unwrap_or("").trim_start();
    if state.starts_with('Z') || state.starts_with('X') {
        return false;
    }
    std::fs::read(format!("/proc/{pid}/cmdline"))
        .map(|c| String::from_utf8_lossy(&c).contains(marker))
        .unwrap_or(false)
}

/// Processes whose command line mentions `marker`, among `pids` (all of /proc when
/// `None`), waiting up to two seconds for the kernel to finish exits.
pub fn left_running(marker: &str, pids: Option<Vec<String>>) -> Vec<String> {
    let all = || -> Vec<String> {
        std::fs::read_dir("/proc")
            .map(|d| {
                d.filter_map(|e| e.ok()?.file_name().into_string().ok())
                    .filter(|n| n.bytes().all(|b| b.is_ascii_digit()))
                    .collect()
            })
            .unwrap_or_default()
    };
    let until = Instant::now() + Duration::from_secs(2);
    loop {
        let left: Vec<String> = pids
            .clone()
            .unwrap_or_else(all)
            .into_iter()
            .filter(|p| alive(p, marker))
            .collect();
        if left.is_empty() || Instant::now() > until {
            return left;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// No process started from `dir` (a program of this test) still runs.
pub fn assert_nothing_left(dir: &Path) {
    if !Path::new("/proc/self/cmdline").exists() {
        return;
    }
    let left = left_running(dir.to_str().unwrap(), None);
    assert!(left.is_empty(), "processes left running: {left:?}");
}

/// Runs `exe` on `input`: its standard output.
pub fn run(exe: &Path, input: &str) -> String {
    use std::io::Write;
    let mut child = Command::new(exe)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("runs the program");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "{exe:?} failed on {input:?}");
    String::from_utf8(out.stdout).unwrap()
}

pub fn counterexample(report: &Value) -> &Value {
    let c = &report["counterexample"];
    assert!(c.is_object(), "no counterexample: {report}");
    assert_eq!(c["minimal"], true, "not shrunk to the end: {report}");
    c
}

/// Runs the built `sgcheck` with `args`, writing `stdin` to it from a thread (so a
/// large input never blocks against a full output pipe).
pub fn sgcheck(args: &[&str], stdin: &str) -> Output {
    command(Path::new(SGCHECK), args, stdin)
}

/// Runs `exe` with `args` as [`sgcheck`] runs the built `sgcheck` (a binary built on
/// the library, say).
pub fn command(exe: &Path, args: &[&str], stdin: &str) -> Output {
    let mut child = Command::new(exe)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("{} starts: {e}", exe.display()));
    let input = stdin.to_string();
    let mut pipe = child.stdin.take().expect("stdin is piped");
    let writer = std::thread::spawn(move || {
        let _ = pipe.write_all(input.as_bytes());
    });
    let out = child.wait_with_output().expect("the program finishes");
    writer.join().expect("writer thread");
    out
}

/// Bytes as text, invalid UTF-8 replaced.
pub fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// A small deterministic generator of test inputs (xorshift64), so a test's cases need
/// no crate and are the same on every run.
pub struct Draw(pub u64);

impl Draw {
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    /// A number in `lo..=hi`.
    pub fn within(&mut self, lo: u64, hi: u64) -> u64 {
        lo + self.next() % (hi - lo + 1)
    }
}
