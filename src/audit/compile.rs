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
//!
//! The compiler runs contained as the programs do ([`crate::audit::sandbox`]): a
//! cleared environment, no network, its own `/tmp`, everything read-only but the build
//! directory (where the source is copied first), as `nobody` where sgcheck is root
//! with namespaces, and within [`BuildLimits`]: a time limit (`--compile-time`), a
//! memory limit (`--compile-memory`), a file size limit, and a bounded capture of its
//! messages (the first [`STDERR_KEEP`] bytes of standard error; the rest is read and
//! dropped). A compile that passes a limit is [`BuildError::Limit`].

use super::runner::{
    self, format_size, Contestant, ProcessContestant, RunError, RunLimits, RunResult, STDERR_KEEP,
};
use super::Build;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// Default time limit of a compile (`--compile-time`): 30 s.
pub const DEFAULT_COMPILE_TIME: Duration = Duration::from_secs(30);
/// Default memory limit of a compile (`--compile-memory`): 1 GiB, resident memory of
/// the compiler's processes together.
pub const DEFAULT_COMPILE_MEMORY: u64 = 1 << 30;

/// The limits of a compile.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BuildLimits {
    /// Wall time of the whole compile.
    pub time: Duration,
    /// Resident memory of the compiler's processes together.
    pub memory: u64,
    /// Variables added to the compiler's and the program's cleared environment.
    pub env: Vec<(String, Option<String>)>,
}

impl Default for BuildLimits {
    fn default() -> Self {
        BuildLimits {
            time: DEFAULT_COMPILE_TIME,
            memory: DEFAULT_COMPILE_MEMORY,
            env: Vec::new(),
        }
    }
}

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
    /// The compile passed a limit (time, memory, output, processes).
    #[error("{source_file}: the compile was stopped: {what}\n$ {command}\n{message}")]
    Limit {
        /// The source file.
        source_file: String,
        /// The command that was stopped.
        command: String,
        /// Which limit.
        what: String,
        /// The start of the compiler's message.
        message: String,
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

/// A temporary build directory, removed when dropped, and by the interrupt handler
/// when sgcheck is interrupted first.
struct BuildDir(tempfile::TempDir);

impl BuildDir {
    fn new() -> std::io::Result<BuildDir> {
        use std::os::unix::fs::PermissionsExt;
        // The pid in the name lets a later sgcheck remove it when this one was killed.
        let prefix = format!(
            "{}{}-",
            super::sandbox::BUILD_DIR_PREFIX,
            std::process::id()
        );
        let dir = tempfile::Builder::new().prefix(&prefix).tempdir()?;
        runner::remove_on_interrupt(dir.path());
        // The compiler and the program may run as another uid (see the module docs).
        std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o755))?;
        if super::sandbox::containment() == super::sandbox::Containment::Namespaces
            && rustix::process::geteuid().is_root()
        {
            let id = super::sandbox::RUN_UID;
            std::os::unix::fs::chown(dir.path(), Some(id), Some(id))?;
        }
        Ok(BuildDir(dir))
    }

    fn path(&self) -> &Path {
        self.0.path()
    }
}

impl Drop for BuildDir {
    fn drop(&mut self) {
        runner::forget_on_interrupt(self.0.path());
    }
}

/// A program built from source, ready to audit. Its temporary directory is removed
/// when it is dropped.
pub struct Built {
    _dir: BuildDir,
    program: ProcessContestant,
    describe: String,
    /// How it was built, for the report.
    pub build: Build,
}

impl Built {
    /// Hides these directories from the program's runs (see
    /// [`ProcessContestant::hiding`]).
    pub fn hiding(mut self, dirs: Vec<PathBuf>) -> Self {
        self.program = self.program.hiding(dirs);
        self
    }
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
        wall_timeout: limits.wall_timeout.map(|w| w * SANITIZE_TIME_FACTOR),
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
    crate::shell::command(words)
}

/// Standard output a compiler may write before it is stopped (its messages go to
/// standard error, of which the first [`STDERR_KEEP`] bytes are kept).
const COMPILE_OUTPUT_LIMIT: usize = 1 << 20;

/// Runs a build command contained in `dir`; its message when it fails.
fn run_tool(
    cmd: &[String],
    shown: &[String],
    source_file: &str,
    dir: &Path,
    limits: &BuildLimits,
) -> Result<(), BuildError> {
    let no_tool = |error: std::io::Error| BuildError::NoTool {
        tool: cmd[0].clone(),
        source_file: source_file.to_string(),
        error,
    };
    let mut env = limits.env.clone();
    if super::sandbox::containment() == super::sandbox::Containment::Subreaper {
        // No private /tmp here: the compiler's temporary files go where they are
        // removed with the build.
        env.push(("TMPDIR".into(), Some(dir.display().to_string())));
    }
    let tool = match ProcessContestant::new(&cmd[0], cmd[1..].to_vec()) {
        Ok(t) => t.with_env(env).in_dir(dir.to_path_buf(), true),
        Err(RunError::NotFound(_)) => {
            return Err(no_tool(std::io::ErrorKind::NotFound.into()));
        }
        Err(e) => return Err(no_tool(std::io::Error::other(e.to_string()))),
    };
    let run_limits = RunLimits {
        timeout: limits.time,
        wall_timeout: None,
        output_limit: COMPILE_OUTPUT_LIMIT,
        memory_limit: limits.memory,
        stack_limit: None,
        process_limit: runner::DEFAULT_PROCESS_LIMIT,
        file_limit: 1 << 30,
    };
    let r = tool.run(b"", &run_limits)?;
    let mut message = String::from_utf8_lossy(&r.stderr).into_owned();
    message.push_str(&String::from_utf8_lossy(&r.stdout));
    if r.stderr.len() >= STDERR_KEEP {
        message.push_str("\n[... the rest of the compiler's messages dropped]");
    }
    let command = quote_all(if shown.is_empty() { cmd } else { shown });
    let what = if r.timed_out {
        Some(format!(
            "still running after {:.1} s (--compile-time)",
            limits.time.as_secs_f64()
        ))
    } else if r.memory_exceeded {
        Some(format!(
            "more than {} of memory (--compile-memory)",
            format_size(limits.memory)
        ))
    } else if r.output_truncated {
        Some(format!(
            "more than {} on standard output",
            format_size(COMPILE_OUTPUT_LIMIT as u64)
        ))
    } else if r.process_limit_exceeded {
        Some(format!(
            "more than {} processes at once",
            runner::DEFAULT_PROCESS_LIMIT
        ))
    } else {
        None
    };
    if let Some(what) = what {
        return Err(BuildError::Limit {
            source_file: source_file.to_string(),
            command,
            what,
            message: message.trim_end().to_string(),
        });
    }
    if r.exit.success() {
        return Ok(());
    }
    Err(BuildError::Compile {
        source_file: source_file.to_string(),
        command,
        message: message.trim_end().to_string(),
    })
}

/// Builds `source` (its language from the extension) into a temporary directory,
/// contained and within `limits`; `args` are passed to the program on every run.
pub fn build(
    source: &Path,
    args: Vec<String>,
    sanitize: bool,
    limits: &BuildLimits,
) -> Result<Built, BuildError> {
    let shown = source.display().to_string();
    let lang = Language::of(source).ok_or_else(|| BuildError::NotFound(shown.clone()))?;
    if !source.is_file() {
        return Err(BuildError::NotFound(shown));
    }
    if sanitize && !lang.can_sanitize() {
        return Err(BuildError::NoSanitizer(lang.name()));
    }
    let dir = BuildDir::new().map_err(BuildError::TempDir)?;
    let stem = source
        .file_stem()
        .and_then(|s| s.to_str())
        .filter(|s| !s.is_empty() && !s.starts_with('-'))
        .unwrap_or("prog")
        .to_string();
    // The source is copied into the build directory: the compiler sees nothing else
    // of the caller's files.
    let file_name = match source.file_name().and_then(|n| n.to_str()) {
        Some(n) if !n.starts_with('-') && n != stem => n.to_string(),
        _ => format!(
            "prog.{}",
            source.extension().and_then(|e| e.to_str()).unwrap_or("src")
        ),
    };
    let src = dir.path().join(&file_name);
    std::fs::copy(source, &src).map_err(|_| BuildError::NotFound(shown.clone()))?;
    let exe: PathBuf = dir.path().join(&stem);
    let s = |x: &str| x.to_string();
    // A file name in a shown command: `./-name` for a name starting with `-`.
    let file = |n: &str| crate::shell::not_an_option(n).into_owned();
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
                shown_cmd.extend([s("-o"), file(&stem), file(&shown)]);
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
                    format!(
                        "ASAN_OPTIONS=detect_leaks=0 ./{}",
                        crate::shell::quote(&stem)
                    )
                } else {
                    format!("./{}", crate::shell::quote(&stem))
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
                shown_cmd.extend([s("-o"), file(&stem), file(&shown)]);
                let run = format!("./{}", crate::shell::quote(&stem));
                (cmd, shown_cmd, exe, Vec::new(), run)
            }
            Language::Python => {
                let check = "import sys; compile(open(sys.argv[1], encoding='utf-8').read(), sys.argv[1], 'exec')";
                let cmd = vec![s("python3"), s("-c"), s(check), path(&src)];
                let run = format!("python3 {}", crate::shell::path(&shown));
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
                    s("-J-XX:-UsePerfData"),
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
                    file(&shown),
                ];
                let run = format!("java -cp . {}", crate::shell::quote(&stem));
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
    run_tool(&cmd, &shown_cmd, &shown, dir.path(), limits)?;
    let mut all_args = prog_args;
    all_args.extend(args.iter().cloned());
    let program = ProcessContestant::new(&program.display().to_string(), all_args)?
        .with_env(limits.env.clone())
        .in_dir(dir.path().to_path_buf(), false);
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
