//! The standalone input validator of a package: a Python 3 script (standard library
//! only) holding the declaration's layout, bounds and constraints as data, with the
//! exit codes of the package format (42 valid, 43 invalid). Judges run it unchanged:
//! BAPCtools, problemtools and DOMjudge all run Python validators.

use super::{Source, Spec};
use anyhow::{bail, Context};
use std::io::Write as _;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const TEMPLATE: &str = include_str!("validator.py");

/// Exit code of a validator for a valid input.
pub const ACCEPT: i32 = 42;
/// Exit code of a validator for an invalid input.
pub const REJECT: i32 = 43;

/// The input validator's text for a declaration.
pub fn script(src: &Source) -> anyhow::Result<String> {
    script_for(src, false)
}

/// The answer validator's text: the same checks of the input (given as the first
/// argument), then the answer's shape on standard input.
pub fn answer_script(src: &Source) -> anyhow::Result<String> {
    script_for(src, true)
}

fn script_for(src: &Source, answer: bool) -> anyhow::Result<String> {
    let spec = Spec::of(src)?;
    let json = serde_json::to_string(&spec)?;
    // A raw triple-quoted Python string holds any JSON text: JSON escapes every quote.
    if json.contains("\"\"\"") {
        bail!("the declaration's spec cannot be embedded");
    }
    let one_line = |s: &str| s.replace(['\n', '\r'], " ");
    Ok(TEMPLATE
        .replace("{{ID}}", &one_line(&spec.id))
        .replace("{{ORIGIN}}", &one_line(&src.origin))
        .replace("{{ANSWER_MODE}}", if answer { "True" } else { "False" })
        .replace("{{SPEC}}", &json))
}

/// What a validator said of one input.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Exit code 42.
    Accepted,
    /// Exit code 43, with its message.
    Rejected(String),
}

/// The interpreter `python3` names, resolved once per process: where `python3` on the
/// `PATH` is a launcher (a pyenv shim runs some twenty programs before Python, about
/// 0.1 s a call), the interpreter it runs is called directly; where it cannot be asked,
/// `python3` itself.
pub fn python3() -> &'static std::ffi::OsStr {
    static PYTHON: std::sync::OnceLock<std::ffi::OsString> = std::sync::OnceLock::new();
    PYTHON.get_or_init(|| {
        let asked = Command::new("python3")
            .args(["-c", "import sys; sys.stdout.write(sys.executable)"])
            .stdin(Stdio::null())
            .stderr(Stdio::null())
            .output();
        match asked {
            Ok(o) if o.status.success() && !o.stdout.is_empty() => {
                use std::os::unix::ffi::OsStringExt as _;
                let path = std::ffi::OsString::from_vec(o.stdout);
                if Path::new(&path).is_absolute() && Path::new(&path).is_file() {
                    path
                } else {
                    "python3".into()
                }
            }
            _ => "python3".into(),
        }
    })
}

/// Runs the validator script at `path` on `input` with `python3` (at most `timeout`).
/// Any exit other than 42 or 43 is an error.
pub fn run(path: &Path, input: &[u8], timeout: Duration) -> anyhow::Result<Verdict> {
    run_with(path, &[], input, timeout)
}

/// [`run`] with arguments (the answer validator takes the input file's path).
pub fn run_with(
    path: &Path,
    args: &[&Path],
    input: &[u8],
    timeout: Duration,
) -> anyhow::Result<Verdict> {
    let mut child = Command::new(python3())
        .arg(path)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .context("running the validator with python3")?;
    let mut stdin = child.stdin.take().context("validator stdin")?;
    let data = input.to_vec();
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(&data);
    });
    let mut stderr = child.stderr.take().context("validator stderr")?;
    let reader = std::thread::spawn(move || {
        use std::io::Read as _;
        let mut s = Vec::new();
        let _ = (&mut stderr).take(64 << 10).read_to_end(&mut s);
        let _ = std::io::copy(&mut stderr, &mut std::io::sink());
        s
    });
    let start = Instant::now();
    let status = loop {
        if let Some(s) = child.try_wait()? {
            break s;
        }
        if start.elapsed() > timeout {
            let _ = child.kill();
            let _ = child.wait();
            let _ = writer.join();
            let _ = reader.join();
            bail!("the validator took more than {} s", timeout.as_secs());
        }
        std::thread::sleep(Duration::from_millis(2));
    };
    let _ = writer.join();
    let err = String::from_utf8_lossy(&reader.join().unwrap_or_default()).into_owned();
    match status.code() {
        Some(ACCEPT) => Ok(Verdict::Accepted),
        Some(REJECT) => Ok(Verdict::Rejected(err.trim().to_string())),
        code => bail!(
            "the validator exited with {code:?} (not 42 or 43): {}",
            err.trim()
        ),
    }
}
