//! Auditing from source: build a C, C++, Rust, Python or Java file the way a judge
//! would, into a temporary directory, and audit the result.
//!
//! The language comes from the file's extension (`.c`, `.cc`/`.cpp`, `.rs`, `.py`,
//! `.java`). The flags are the usual judge flags:
//!
//! | language | build | run |
//! |---|---|---|
//! | C | `gcc -O2 -std=gnu11 -DONLINE_JUDGE -o prog sol.c -lm` | `./prog` |
//! | C++ | `g++ -O2 -std=gnu++17 -DONLINE_JUDGE -o prog sol.cpp` | `./prog` |
//! | Rust | `rustc -O --edition 2021 -o prog sol.rs` | `./prog` |
//! | Python | syntax check only | `python3 sol.py` |
//! | Java | `javac -encoding UTF-8 -d DIR Main.java` | `java -cp DIR Main` |
//!
//! With `sanitize`, C and C++ are built with
//! `-fsanitize=address,undefined -fno-sanitize-recover=all -g`, so the first
//! undefined behaviour (signed overflow, an access out of bounds) ends the run with
//! the sanitizer's message; leak detection is turned off (contest programs rarely free
//! what they allocate, and that is no bug). Stable Rust has no sanitizers: it gets
//! `-C overflow-checks=on -C debug-assertions=on`, so arithmetic overflow panics
//! instead of wrapping. Sanitized programs run about two to three times slower and
//! hold more memory (ASan reserves terabytes of address space for its shadow memory,
//! of which a part becomes resident, plus red zones around every allocation):
//! [`sanitized_limits`] multiplies the time limit by [`SANITIZE_TIME_FACTOR`] and the
//! memory limit (resident memory, never address space) by [`SANITIZE_MEMORY_FACTOR`].
//! A compile error is a usage error ([`BuildError::Compile`], exit 2 in the CLI) with
//! the compiler's message.

use super::runner::{shell_quote, Contestant, ProcessContestant, RunError, RunLimits, RunResult};
use super::Build;
use std::path::{Path, PathBuf};
use std::process::Command;

/// How much longer a sanitized program may run than `--timeout` says.
pub const SANITIZE_TIME_FACTOR: u32 = 3;

/// A source language the audit can build.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Language {
    /// `.c`, built with gcc.
    C,
    /// `.cc`, `.cpp`, `.cxx`, built with g++.
    Cpp,
    /// `.rs`, built with rustc.
    Rust,
    /// `.py`, run with python3.
    Python,
    /// `.java`, built with javac, run with java.
    Java,
}

impl Language {
    /// The language of a source file, from its extension; `None` for anything else
    /// (a program to run as it is).
    pub fn of(path: &Path) -> Option<Language> {
        let ext = path.extension()?.to_str()?.to_ascii_lowercase();
        Some(match ext.as_str() {
            "c" => Language::C,
            "cc" | "cpp" | "cxx" | "c++" => Language::Cpp,
            "rs" => Language::Rust,
            "py" => Language::Python,
            "java" => Language::Java,
            _ => return None,
        })
    }

    /// Its name in reports.
    pub fn name(self) -> &'static str {
        match self {
            Language::C => "C",
            Language::Cpp => "C++",
            Language::Rust => "Rust",
            Language::Python => "Python",
            Language::Java => "Java",
        }
    }

    /// Whether `--sanitize` means something for it.
    pub fn can_sanitize(self) -> bool {
        matches!(self, Language::C | Language::Cpp | Language::Rust)
    }
}

/// Why a source could not be built (a usage error: exit 2).
#[derive(Debug, thiserror::Error)]
pub enum BuildError {
    /// The source file does not exist.
    #[error("{0}: no such source file")]
    NotFound(String),
    /// The compiler or interpreter is not installed.
    #[error("cannot run {tool} to build {source_file}: {error}")]
    NoTool {
        /// The compiler or interpreter.
        tool: String,
        /// The source file.
        source_file: String,
        /// What the OS said.
        error: std::io::Error,
    },
    /// The compiler rejected the source.
    #[error("{source_file} does not compile:\n$ {command}\n{message}")]
    Compile {
        /// The source file.
        source_file: String,
        /// The command that failed.
        command: String,
        /// The compiler's message (standard error, then standard output).
        message: String,
    },
    /// `--sanitize` for a language without sanitizers.
    #[error("--sanitize works for C, C++ and Rust sources, not {0}")]
    NoSanitizer(&'static str),
    /// The temporary directory could not be made.
    #[error("cannot create a temporary directory: {0}")]
    TempDir(std::io::Error),
    /// The built program cannot be run.
    #[error(transparent)]
    Run(#[from] RunError),
}

/// A program built from source, ready to audit. Its temporary directory is removed
/// when it is dropped.
pub struct Built {
    _dir: tempfile::TempDir,
    program: ProcessContestant,
    describe: String,
    /// How it was built, for the report.
    pub build: Build,
}

impl Contestant for Built {
    fn run(&self, input: &[u8], limits: &RunLimits) -> Result<RunResult, RunError> {
        self.program.run(input, limits)
    }

    /// The source file and its arguments (the temporary binary means nothing to the
    /// reader).
    fn describe(&self) -> String {
        self.describe.clone()
    }
}

/// How much more resident memory a sanitized program may hold than `--memory-limit`
/// says (AddressSanitizer's shadow memory, red zones and quarantine of freed blocks).
pub const SANITIZE_MEMORY_FACTOR: u64 = 3;

/// The limits for a sanitized build: the time limit times [`SANITIZE_TIME_FACTOR`],
/// the memory limit times [`SANITIZE_MEMORY_FACTOR`].
pub fn sanitized_limits(limits: RunLimits) -> RunLimits {
    RunLimits {
        timeout: limits.timeout * SANITIZE_TIME_FACTOR,
        memory_limit: limits.memory_limit.saturating_mul(SANITIZE_MEMORY_FACTOR),
        ..limits
    }
}

/// Sanitizer defaults compiled into the program, so it behaves the same when rerun by
/// hand: no leak report at exit, stop at the first error.
const SANITIZER_OPTIONS: &str = r#"#ifdef __cplusplus
extern "C" {
#endif
const char *__asan_default_options(void) { return "detect_leaks=0"; }
const char *__ubsan_default_options(void) { return "halt_on_error=1:print_stacktrace=0"; }
#ifdef __cplusplus
}
#endif
"#;

fn quote_all(words: &[String]) -> String {
    words
        .iter()
        .map(|w| shell_quote(w))
        .collect::<Vec<_>>()
        .join(" ")
}

/// Runs a build command; its message when it fails.
fn run_tool(cmd: &[String], shown: &[String], source_file: &str) -> Result<(), BuildError> {
    let out = Command::new(&cmd[0])
        .args(&cmd[1..])
        .output()
        .map_err(|error| BuildError::NoTool {
            tool: cmd[0].clone(),
            source_file: source_file.to_string(),
            error,
        })?;
    if out.status.success() {
        return Ok(());
    }
    let mut message = String::from_utf8_lossy(&out.stderr).into_owned();
    message.push_str(&String::from_utf8_lossy(&out.stdout));
    Err(BuildError::Compile {
        source_file: source_file.to_string(),
        command: quote_all(if shown.is_empty() { cmd } else { shown }),
        message: message.trim_end().to_string(),
    })
}

/// Builds `source` (its language from the extension) into a temporary directory;
/// `args` are passed to the program on every run.
pub fn build(source: &Path, args: Vec<String>, sanitize: bool) -> Result<Built, BuildError> {
    let shown = source.display().to_string();
    let lang = Language::of(source).ok_or_else(|| BuildError::NotFound(shown.clone()))?;
    if !source.is_file() {
        return Err(BuildError::NotFound(shown));
    }
    if sanitize && !lang.can_sanitize() {
        return Err(BuildError::NoSanitizer(lang.name()));
    }
    let src = std::fs::canonicalize(source).map_err(|_| BuildError::NotFound(shown.clone()))?;
    let dir = tempfile::Builder::new()
        .prefix("sgcheck-build-")
        .tempdir()
        .map_err(BuildError::TempDir)?;
    let stem = source
        .file_stem()
        .and_then(|s| s.to_str())
        .filter(|s| !s.is_empty())
        .unwrap_or("prog")
        .to_string();
    let exe: PathBuf = dir.path().join(&stem);
    let s = |x: &str| x.to_string();
    let path = |p: &Path| p.display().to_string();
    let sanitize_flags = [
        "-fsanitize=address,undefined",
        "-fno-sanitize-recover=all",
        "-g",
    ];
    // The command run, and the same as a user would type it in the source's directory.
    let (cmd, shown_cmd, program, prog_args, run): (Vec<String>, Vec<String>, PathBuf, _, String) =
        match lang {
            Language::C | Language::Cpp => {
                let (cc, std) = if lang == Language::C {
                    ("gcc", "-std=gnu11")
                } else {
                    ("g++", "-std=gnu++17")
                };
                let mut flags = vec![s("-O2"), s(std), s("-DONLINE_JUDGE")];
                if sanitize {
                    flags.extend(sanitize_flags.iter().map(|f| s(f)));
                }
                let mut cmd = vec![s(cc)];
                cmd.extend(flags.iter().cloned());
                cmd.extend([s("-o"), path(&exe), path(&src)]);
                let mut shown_cmd = vec![s(cc)];
                shown_cmd.extend(flags);
                shown_cmd.extend([s("-o"), stem.clone(), shown.clone()]);
                if sanitize {
                    let opts = dir.path().join("sanitizer_options.c");
                    std::fs::write(&opts, SANITIZER_OPTIONS).map_err(BuildError::TempDir)?;
                    cmd.push(path(&opts));
                }
                if lang == Language::C {
                    cmd.push(s("-lm"));
                    shown_cmd.push(s("-lm"));
                }
                let run = if sanitize {
                    format!("ASAN_OPTIONS=detect_leaks=0 ./{stem}")
                } else {
                    format!("./{stem}")
                };
                (cmd, shown_cmd, exe, Vec::new(), run)
            }
            Language::Rust => {
                let mut flags = vec![s("-O"), s("--edition"), s("2021")];
                if sanitize {
                    flags.extend([
                        s("-C"),
                        s("overflow-checks=on"),
                        s("-C"),
                        s("debug-assertions=on"),
                    ]);
                }
                let mut cmd = vec![s("rustc")];
                cmd.extend(flags.iter().cloned());
                cmd.extend([s("-o"), path(&exe), path(&src)]);
                let mut shown_cmd = vec![s("rustc")];
                shown_cmd.extend(flags);
                shown_cmd.extend([s("-o"), stem.clone(), shown.clone()]);
                (cmd, shown_cmd, exe, Vec::new(), format!("./{stem}"))
            }
            Language::Python => {
                let check = "import sys; compile(open(sys.argv[1], encoding='utf-8').read(), sys.argv[1], 'exec')";
                let cmd = vec![s("python3"), s("-c"), s(check), path(&src)];
                let run = format!("python3 {}", shell_quote(&shown));
                (
                    cmd,
                    Vec::new(),
                    PathBuf::from("python3"),
                    vec![path(&src)],
                    run,
                )
            }
            Language::Java => {
                let cmd = vec![
                    s("javac"),
                    s("-encoding"),
                    s("UTF-8"),
                    s("-d"),
                    path(dir.path()),
                    path(&src),
                ];
                let shown_cmd = vec![
                    s("javac"),
                    s("-encoding"),
                    s("UTF-8"),
                    s("-d"),
                    s("."),
                    shown.clone(),
                ];
                let run = format!("java -cp . {stem}");
                (
                    cmd,
                    shown_cmd,
                    PathBuf::from("java"),
                    // JVM warnings (large pages, memory) go to standard output
                    // otherwise, where they would be judged as the answer.
                    vec![s("-Xlog:disable"), s("-cp"), path(dir.path()), stem.clone()],
                    run,
                )
            }
        };
    run_tool(&cmd, &shown_cmd, &shown)?;
    let mut all_args = prog_args;
    all_args.extend(args.iter().cloned());
    let program = ProcessContestant::new(&program.display().to_string(), all_args)?;
    let mut describe = vec![shown.clone()];
    describe.extend(args);
    Ok(Built {
        _dir: dir,
        program,
        describe: quote_all(&describe),
        build: Build {
            source: shown,
            language: lang.name().to_string(),
            compile: quote_all(&shown_cmd),
            run,
            sanitized: sanitize,
        },
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn languages_by_extension() {
        assert_eq!(Language::of(Path::new("a/sol.cpp")), Some(Language::Cpp));
        assert_eq!(Language::of(Path::new("sol.CC")), Some(Language::Cpp));
        assert_eq!(Language::of(Path::new("sol.c")), Some(Language::C));
        assert_eq!(Language::of(Path::new("main.rs")), Some(Language::Rust));
        assert_eq!(Language::of(Path::new("s.py")), Some(Language::Python));
        assert_eq!(Language::of(Path::new("Main.java")), Some(Language::Java));
        assert_eq!(Language::of(Path::new("a.out")), None);
        assert_eq!(Language::of(Path::new("python3")), None);
    }

    #[test]
    fn sanitized_limits_are_longer() {
        let l = sanitized_limits(RunLimits::default());
        assert_eq!(
            l.timeout,
            RunLimits::default().timeout * SANITIZE_TIME_FACTOR
        );
        assert_eq!(l.output_limit, RunLimits::default().output_limit);
        assert_eq!(
            l.memory_limit,
            RunLimits::default().memory_limit * SANITIZE_MEMORY_FACTOR
        );
    }
}
