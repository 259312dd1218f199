//! Everything sgcheck reads is bounded and everything it writes is safe: declarations
//! and `--input` from devices, FIFOs and junk; declarations whose bounds are absurd;
//! winning-move outputs the solver could not answer in bounded time; `--save` into a
//! directory with a symlink, a FIFO or a directory planted where a file goes.
//! Each case asserts the exit code and the message, and sgcheck's peak memory and time
//! where they matter.

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const SGCHECK: &str = env!("CARGO_BIN_EXE_sgcheck");

/// What one run of sgcheck did.
struct Run {
    code: i32,
    stdout: String,
    stderr: String,
    /// Peak resident memory, bytes.
    peak: u64,
    elapsed: Duration,
}

/// Runs sgcheck with `args`, standard input closed, reaping it with `wait4` for its
/// peak memory.
// The child is reaped by wait4 (for its rusage), not by std's `wait`.
#[allow(clippy::zombie_processes)]
fn run(args: &[&str]) -> Run {
    let start = Instant::now();
    let mut child = Command::new(SGCHECK)
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut out = child.stdout.take().unwrap();
    let mut err = child.stderr.take().unwrap();
    let reader = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = out.read_to_string(&mut s);
        s
    });
    let mut stderr = String::new();
    let _ = err.read_to_string(&mut stderr);
    let stdout = reader.join().unwrap();
    let pid = child.id() as i32;
    let mut status = 0;
    // SAFETY: rusage is plain data; wait4 reaps our own child (std's handle is not
    // used afterwards).
    let ru = unsafe {
        let mut ru: libc::rusage = std::mem::zeroed();
        assert_eq!(libc::wait4(pid, &mut status, 0, &mut ru), pid);
        ru
    };
    let code = if libc::WIFEXITED(status) {
        libc::WEXITSTATUS(status)
    } else {
        -libc::WTERMSIG(status)
    };
    assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
    Run {
        code,
        stdout,
        stderr,
        peak: ru.ru_maxrss as u64 * 1024,
        elapsed: start.elapsed(),
    }
}

/// A FIFO in `dir` and a thread writing `unit` into it without end; it stops at the
/// first failed write (the reader closed the FIFO), and fails past 1 GiB.
fn endless_fifo(dir: &Path, unit: &'static [u8]) -> (PathBuf, std::thread::JoinHandle<()>) {
    let fifo = dir.join("endless.fifo");
    assert!(Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap()
        .success());
    let path = fifo.clone();
    let writer = std::thread::spawn(move || {
        use std::io::Write;
        let mut f = std::fs::OpenOptions::new().write(true).open(path).unwrap();
        let chunk = unit.repeat((1 << 16) / unit.len());
        let mut written = 0u64;
        while f.write_all(&chunk).is_ok() {
            written += chunk.len() as u64;
            assert!(written < 1 << 30, "sgcheck read past 1 GiB");
        }
    });
    (fifo, writer)
}

const NIM_HEAD: &str = r#"format = 1
id = "absurd"
title = "absurd bounds"
game = "nim"
position = ["piles"]

[input]
cases = "count"
"#;

const NIM_TAIL: &str = r#"
[output]
lines = ["{verdict}"]
win = "Yes"
lose = "No"
"#;

fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p
}

/// A Nim declaration with `count` as its case count line and `fields` before the piles.
fn nim_declaration(count: &str, extra_fields: usize, piles_length: &str) -> String {
    let mut s = format!("{NIM_HEAD}count = {count}\n");
    for i in 0..extra_fields {
        s.push_str(&format!(
            "\n[[field]]\nname = \"f{i}\"\nwhat = \"f{i}\"\nmin = 0\nmax = 100\n"
        ));
    }
    s.push_str(&format!(
        "\n[[field]]\nname = \"piles\"\nwhat = \"pile {{i}}\"\nmin = 0\nmax = 99\nlength = {piles_length}\n"
    ));
    s.push_str(NIM_TAIL);
    s
}

#[test]
fn a_declaration_from_a_device_or_an_endless_fifo_is_cut_at_its_bound() {
    let r = run(&["verify", "--problem", "/dev/zero", "--time", "1"]);
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(r.stderr.contains("longer than 4 MiB"), "{}", r.stderr);
    assert!(r.peak < 64 << 20, "peak {} bytes", r.peak);

    let dir = tempfile::tempdir().unwrap();
    let (fifo, writer) = endless_fifo(dir.path(), b"#");
    let r = run(&["verify", "--problem", fifo.to_str().unwrap(), "--time", "1"]);
    writer.join().unwrap();
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(r.stderr.contains("longer than 4 MiB"), "{}", r.stderr);
}

#[test]
fn invalid_utf8_in_a_declaration_names_line_and_byte() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("bad.toml");
    std::fs::write(&p, b"format = 1\n# fine\nid = \"\xff\"\n").unwrap();
    let r = run(&["verify", "--problem", p.to_str().unwrap()]);
    assert_eq!(r.code, 2);
    assert!(
        r.stderr.contains("line 3") && r.stderr.contains("invalid UTF-8 at byte 24"),
        "{}",
        r.stderr
    );
    assert!(!r.stderr.contains("line 0"), "{}", r.stderr);
}

#[test]
fn audit_input_from_a_device_and_binary_junk_are_refused_with_a_place() {
    // /dev/zero: read to p2197's largest valid input (16 MiB floor), then refused.
    let r = run(&[
        "audit",
        "p2197",
        "--input",
        "/dev/zero",
        "--",
        "sh",
        "-c",
        "cat",
    ]);
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(
        r.stderr.contains("larger than any valid p2197 input"),
        "{}",
        r.stderr
    );
    assert!(r.peak < 128 << 20, "peak {} bytes", r.peak);

    let dir = tempfile::tempdir().unwrap();
    let junk = dir.path().join("junk.in");
    std::fs::write(&junk, b"1\n2\n3 \xfe\xff\x00\n").unwrap();
    let r = run(&[
        "audit",
        "p2197",
        "--input",
        junk.to_str().unwrap(),
        "--",
        "sh",
        "-c",
        "cat",
    ]);
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(
        r.stderr.contains("invalid UTF-8 at byte 6 (line 3)"),
        "{}",
        r.stderr
    );
}

#[test]
fn absurd_bounds_are_refused_naming_key_and_bound() {
    let dir = tempfile::tempdir().unwrap();
    let cases = [
        (
            nim_declaration(
                "{ what = \"T\", min = 1, max = 10 }",
                0,
                "{ what = \"n\", min = 1, max = 1000000000000000000 }",
            ),
            "field.piles.length",
            "10000000",
        ),
        (
            nim_declaration(
                "{ what = \"T\", min = 1, max = 10 }",
                20_000,
                "{ what = \"n\", min = 1, max = 10 }",
            ),
            "key `field`",
            "at most 64",
        ),
        (
            nim_declaration(
                "{ what = \"T\", min = 1, max = 10 }",
                0,
                "{ what = \"n\", min = 1, max = 10, enumerate_max = 1000000 }",
            ),
            "field.piles.length.enumerate_max",
            "64",
        ),
    ];
    for (i, (text, key, bound)) in cases.iter().enumerate() {
        let p = write(dir.path(), &format!("d{i}.toml"), text);
        for cmd in [
            vec!["verify", "--problem", p.to_str().unwrap(), "--time", "2"],
            vec![
                "audit",
                "--problem",
                p.to_str().unwrap(),
                "--time",
                "2",
                "--",
                "sh",
                "-c",
                "cat",
            ],
        ] {
            let r = run(&cmd);
            assert_eq!(r.code, 2, "{cmd:?}: {}", r.stderr);
            assert!(
                r.stderr.contains(key) && r.stderr.contains(bound),
                "{cmd:?}: {}",
                r.stderr
            );
            assert!(r.elapsed < Duration::from_secs(5), "{:?}", r.elapsed);
            assert!(r.peak < 500 << 20, "peak {} bytes", r.peak);
        }
    }
}

#[test]
fn huge_case_counts_and_many_fields_run_within_time_and_memory() {
    let dir = tempfile::tempdir().unwrap();
    let huge_count = write(
        dir.path(),
        "count.toml",
        &nim_declaration(
            "{ what = \"T\", min = 1, max = 1000000000000000000 }",
            0,
            "{ what = \"n\", min = 1, max = 10 }",
        ),
    );
    let many_fields = write(
        dir.path(),
        "fields.toml",
        &nim_declaration(
            "{ what = \"T\", min = 1, max = 10 }",
            63,
            "{ what = \"n\", min = 1, max = 10 }",
        ),
    );
    for p in [&huge_count, &many_fields] {
        let p = p.to_str().unwrap();
        let r = run(&["verify", "--problem", p, "--time", "2", "--no-progress"]);
        assert_eq!(r.code, 0, "{p}: {}{}", r.stdout, r.stderr);
        assert!(r.elapsed < Duration::from_secs(5), "{p}: {:?}", r.elapsed);
        assert!(r.peak < 500 << 20, "{p}: peak {} bytes", r.peak);
        // sgcheck's own solver, audited: a correct program, judged right.
        let r = run(&[
            "audit",
            "--problem",
            p,
            "--time",
            "2",
            "--seed",
            "1",
            "--",
            SGCHECK,
            "solve",
            "--problem",
            p,
        ]);
        assert_eq!(r.code, 0, "{p}: {}{}", r.stdout, r.stderr);
        assert!(r.elapsed < Duration::from_secs(5), "{p}: {:?}", r.elapsed);
        assert!(r.peak < 500 << 20, "{p}: peak {} bytes", r.peak);
    }
}

/// A declared problem on `game` printing `{count}`, piles up to `max` (also its
/// `lenient_max` unless `lenient` is false), at most `len` piles.
fn counting(game: &str, max: u64, lenient: bool, len: u64) -> String {
    let lenient_max = if lenient {
        String::new()
    } else {
        format!("lenient_max = {max}\n")
    };
    let step = if game == "ed" {
        ", multiple_of = 2"
    } else {
        ""
    };
    let lenient_len = if lenient {
        String::new()
    } else {
        format!(", lenient_max = {len}")
    };
    format!(
        r#"format = 1
id = "count-{game}"
title = "winning moves of {game}"
game = "{game}"
position = ["piles"]

[input]
cases = "count"
count = {{ what = "T", min = 1, max = 3 }}

[[field]]
name = "piles"
what = "pile {{i}}"
min = 1
max = {max}
{lenient_max}length = {{ what = "N", min = 2, max = {len}{lenient_len}{step} }}

[output]
lines = ["{{count}}"]
"#
    )
}

#[test]
fn move_outputs_beyond_the_split_enumeration_bound_are_refused_when_loaded() {
    let dir = tempfile::tempdir().unwrap();
    for game in ["lasker", "ed"] {
        // The limits of hdu3032 and p2148, --lenient's defaults: refused.
        for (max, lenient, len) in [(2_000_000_000, false, 2), (1000, true, 2)] {
            let p = write(
                dir.path(),
                &format!("{game}-{max}.toml"),
                &counting(game, max, lenient, len),
            );
            let r = run(&["solve", "--problem", p.to_str().unwrap()]);
            assert_eq!(r.code, 2, "{game} {max}: {}", r.stderr);
            assert!(
                r.stderr.contains("field.piles.lenient_max") && r.stderr.contains("10000000"),
                "{}",
                r.stderr
            );
        }
        // Within the bound: answered, in bounded time and memory.
        let p = write(
            dir.path(),
            &format!("{game}-ok.toml"),
            &counting(game, 2_500_000, false, 4),
        );
        let input = dir.path().join(format!("{game}.in"));
        std::fs::write(&input, "2\n4\n2500000 2499999 1 2\n2\n1 1\n").unwrap();
        let r = run(&[
            "solve",
            "--problem",
            p.to_str().unwrap(),
            input.to_str().unwrap(),
        ]);
        assert_eq!(r.code, 0, "{game}: {}", r.stderr);
        assert_eq!(r.stdout.lines().count(), 2, "{}", r.stdout);
        assert!(
            r.elapsed < Duration::from_secs(10),
            "{game}: {:?}",
            r.elapsed
        );
        assert!(r.peak < 400 << 20, "{game}: peak {} bytes", r.peak);
    }
}

/// An audit of p2197 whose program fails on every input, saving into `dir`.
fn failing_audit_saving_into(dir: &Path) -> Run {
    run(&[
        "audit",
        "p2197",
        "--seed",
        "1",
        "--time",
        "5",
        "--save",
        dir.to_str().unwrap(),
        "--",
        "sh",
        "-c",
        "cat >/dev/null; echo Maybe",
    ])
}

#[test]
fn save_never_follows_a_symlink_and_never_loses_the_report() {
    let dir = tempfile::tempdir().unwrap();
    let save = dir.path().join("save");
    std::fs::create_dir(&save).unwrap();
    let victim = dir.path().join("victim");
    std::fs::write(&victim, "precious\n").unwrap();
    std::os::unix::fs::symlink(&victim, save.join("p2197.in")).unwrap();
    let r = failing_audit_saving_into(&save);
    assert_eq!(r.code, 1, "{}", r.stderr);
    // The report is complete on standard output; the save error is on stderr.
    assert!(r.stdout.contains("WRONG-ANSWER"), "{}", r.stdout);
    assert!(r.stdout.contains("reproduce:"), "{}", r.stdout);
    assert!(
        r.stderr.contains("refusing to write") && r.stderr.contains("symbolic link"),
        "{}",
        r.stderr
    );
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "precious\n");
    assert!(std::fs::symlink_metadata(save.join("p2197.in"))
        .unwrap()
        .file_type()
        .is_symlink());
    assert_no_temporary_files(&save);
}

#[test]
fn save_refuses_a_fifo_or_a_directory_in_the_way_without_hanging() {
    for kind in ["fifo", "dir"] {
        let dir = tempfile::tempdir().unwrap();
        let save = dir.path().join("save");
        std::fs::create_dir(&save).unwrap();
        let planted = save.join("p2197.in");
        if kind == "fifo" {
            assert!(Command::new("mkfifo")
                .arg(&planted)
                .status()
                .unwrap()
                .success());
        } else {
            std::fs::create_dir(&planted).unwrap();
        }
        let r = failing_audit_saving_into(&save);
        assert_eq!(r.code, 1, "{kind}: {}", r.stderr);
        assert!(r.stdout.contains("WRONG-ANSWER"), "{kind}: {}", r.stdout);
        assert!(
            r.stderr.contains("refusing to write"),
            "{kind}: {}",
            r.stderr
        );
        assert!(
            r.elapsed < Duration::from_secs(30),
            "{kind}: {:?}",
            r.elapsed
        );
        assert_no_temporary_files(&save);
    }
}

#[test]
fn save_writes_regular_files_and_replaces_an_earlier_save() {
    let dir = tempfile::tempdir().unwrap();
    let save = dir.path().join("save");
    std::fs::create_dir(&save).unwrap();
    std::fs::write(save.join("p2197.in"), "old\n").unwrap();
    let r = failing_audit_saving_into(&save);
    assert_eq!(r.code, 1, "{}", r.stderr);
    assert!(r.stdout.contains("saved:"), "{}", r.stdout);
    let input = std::fs::read_to_string(save.join("p2197.in")).unwrap();
    assert_ne!(input, "old\n");
    assert_eq!(
        std::fs::read_to_string(save.join("p2197.out")).unwrap(),
        "Maybe\n"
    );
    assert_no_temporary_files(&save);
}

fn assert_no_temporary_files(dir: &Path) {
    for e in std::fs::read_dir(dir).unwrap() {
        let name = e.unwrap().file_name();
        let name = name.to_string_lossy();
        assert!(!name.starts_with(".sgcheck"), "left behind: {name}");
    }
}

#[test]
fn sequence_stops_at_its_time_limit_and_refuses_counts_past_its_maxima() {
    // 0.007 has no period within reach: 2^24 values by mex would take far longer.
    let r = run(&[
        "sequence", "octal", "--rules", "0.007", "--count", "16777216", "--time", "1",
    ]);
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(r.stderr.contains("within --time 1 s"), "{}", r.stderr);
    assert!(r.stdout.is_empty());
    assert!(r.elapsed < Duration::from_secs(4), "{:?}", r.elapsed);
    for (game, rules, count, bound) in [
        ("grundy", "-", "262145", "262144"),
        ("octal", "0.77", "16777217", "16777216"),
    ] {
        let r = run(&["sequence", game, "--rules", rules, "--count", count]);
        assert_eq!(r.code, 2, "{}", r.stderr);
        assert!(r.stderr.contains(bound), "{}", r.stderr);
    }
    // A user value in a message is quoted briefly.
    let long = "x".repeat(100_000);
    let r = run(&["sequence", &long]);
    assert_eq!(r.code, 2);
    assert!(r.stderr.len() < 300, "{} bytes", r.stderr.len());
}

#[test]
fn a_declaration_error_quotes_a_huge_value_briefly() {
    let dir = tempfile::tempdir().unwrap();
    let game = "g".repeat(1 << 20);
    let text = nim_declaration(
        "{ what = \"T\", min = 1, max = 10 }",
        0,
        "{ what = \"n\", min = 1, max = 10 }",
    )
    .replace("game = \"nim\"", &format!("game = \"{game}\""));
    let p = write(dir.path(), "long.toml", &text);
    let r = run(&["verify", "--problem", p.to_str().unwrap()]);
    assert_eq!(r.code, 2);
    assert!(
        r.stderr.contains("line 4") && r.stderr.contains("unknown game"),
        "{}",
        &r.stderr[..200.min(r.stderr.len())]
    );
    assert!(r.stderr.len() < 1000, "{} bytes of error", r.stderr.len());
}

/// Whether gcc runs; without it a loud skip, or a failure where tools are required.
fn have_gcc() -> bool {
    let ok = Command::new("gcc")
        .arg("--version")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    if !ok {
        assert!(
            std::env::var_os("CI").is_none()
                && !std::env::var("SGCHECK_REQUIRE_TOOLS").is_ok_and(|v| v == "1"),
            "gcc is required (CI or SGCHECK_REQUIRE_TOOLS=1) but missing"
        );
        eprintln!("!!!!!!!! SKIPPED: gcc is not installed; this test checked nothing !!!!!!!!");
    }
    ok
}

/// p2197 with the verdict inverted: wrong on every input.
const WRONG_NIM_C: &str = r#"#include <stdio.h>
int main(void) {
    int t; if (scanf("%d", &t) != 1) return 0;
    while (t--) { int n; scanf("%d", &n); long x = 0;
        for (int i = 0; i < n; i++) { long p; scanf("%ld", &p); x ^= p; }
        puts(x ? "No" : "Yes"); }
    return 0;
}
"#;

#[test]
fn printed_commands_do_what_they_say_when_pasted_into_sh() {
    if !have_gcc() {
        return;
    }
    for name in ["q\"$(touch PWNED)\".c", "-x.c", "it's a `b`.c"] {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join(name), WRONG_NIM_C).unwrap();
        let out = Command::new(SGCHECK)
            .args([
                "audit", "p2197", "--seed", "1", "--time", "5", "--save", "saved", "--", name,
            ])
            .current_dir(dir.path())
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&out.stdout).into_owned();
        assert_eq!(
            out.status.code(),
            Some(1),
            "{name}: {text}{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let line = |prefix: &str| {
            text.lines()
                .find_map(|l| l.strip_prefix(prefix))
                .unwrap_or_else(|| panic!("{name}: no {prefix} line in\n{text}"))
                .to_string()
        };
        let sh = |cmd: &str| {
            Command::new("sh")
                .arg("-c")
                .arg(cmd)
                .current_dir(dir.path())
                .output()
                .unwrap()
        };
        // `built:` builds the program from the source as named.
        let built = sh(&line("built: "));
        assert!(
            built.status.success(),
            "{name}: {}",
            String::from_utf8_lossy(&built.stderr)
        );
        // `rerun:` prints what the audit saved as the program's output.
        let rerun = sh(&line("rerun: "));
        assert_eq!(
            String::from_utf8_lossy(&rerun.stdout),
            std::fs::read_to_string(dir.path().join("saved/p2197.out")).unwrap(),
            "{name}"
        );
        assert!(
            !dir.path().join("PWNED").exists(),
            "{name}: a printed line ran $(...)"
        );
        // `reproduce:` names the source so that sgcheck finds it again.
        let reproduce = line("reproduce: ").replacen("sgcheck", SGCHECK, 1);
        let again = sh(&reproduce);
        assert_eq!(again.status.code(), Some(1), "{name}: {reproduce}");
        assert!(
            !dir.path().join("PWNED").exists(),
            "{name}: a printed line ran $(...)"
        );
    }
}

#[test]
fn a_flood_up_to_a_1g_output_limit_keeps_sgcheck_small() {
    // Prints without end: each run writes up to the 1 GiB limit (the first 8 MiB kept
    // in memory, the rest in an unnamed temporary file) and is judged output-limit.
    let r = run(&[
        "audit",
        "p2197",
        "--seed",
        "1",
        "--time",
        "3",
        "--cases",
        "4",
        "--output-limit",
        "1G",
        "--timeout",
        "30",
        "--",
        "sh",
        "-c",
        "cat >/dev/null; yes",
    ]);
    assert_eq!(r.code, 1, "{}{}", r.stdout, r.stderr);
    assert!(r.stdout.contains("OUTPUT-LIMIT"), "{}", r.stdout);
    assert!(r.peak < 100 << 20, "sgcheck's peak: {} bytes", r.peak);
}

#[test]
fn audit_input_from_an_endless_fifo_is_cut_at_its_bound() {
    let dir = tempfile::tempdir().unwrap();
    let (fifo, writer) = endless_fifo(dir.path(), b"1\n");
    let r = run(&[
        "audit",
        "p2197",
        "--input",
        fifo.to_str().unwrap(),
        "--",
        "sh",
        "-c",
        "cat",
    ]);
    writer.join().unwrap();
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(
        r.stderr.contains("larger than any valid p2197 input"),
        "{}",
        r.stderr
    );
    assert!(r.peak < 128 << 20, "peak {} bytes", r.peak);
}
