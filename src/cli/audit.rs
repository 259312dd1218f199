//! `sgcheck audit <problem> [options] -- <command> [args...]`: run a program on many
//! valid inputs of a problem and report the smallest input it fails on.

use crate::audit::{
    self, compare, compile, AuditError, AuditOptions, CompareMode, Contestant, ProcessContestant,
    Report, RunLimits, Verdict,
};
use crate::cli::{options, EXIT_FAILURE, EXIT_OK, EXIT_USAGE};
use crate::problems::{self, Problem, Visitor};
use anyhow::{anyhow, bail, Context};
use indicatif::{ProgressBar, ProgressStyle};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// Arguments of `sgcheck audit`.
#[derive(Debug, clap::Args)]
#[command(
    after_help = "Verdicts: ok, wrong-answer, runtime-error, time-limit, output-limit, memory-limit.\n\
A source file (.c .cc .cpp .rs .py .java) as the command is built first, with judge flags.\n\
Exit codes: 0 no failure found, 1 a failure found (or an internal error of sgcheck), \
2 usage error (unknown problem, command not found or not executable, compile error).\n\
Example: sgcheck audit p2197 --time 20 -- python3 sol.py\n\
Example: sgcheck audit hdu3032 --sanitize -- sol.cpp"
)]
pub struct Args {
    /// Problem id (see `sgcheck list`); leave it out with `--problem FILE`.
    pub problem: Option<String>,
    /// A problem declaration file (TOML) instead of a built-in problem id.
    #[arg(long = "problem", value_name = "FILE")]
    pub declaration: Option<PathBuf>,
    /// The program to audit and its arguments, after `--`.
    #[arg(
        last = true,
        required_unless_present = "package",
        value_name = "COMMAND"
    )]
    pub command: Vec<String>,
    /// Audit every submission of this problem package (ICPC format) instead of one
    /// command: each against its directory's expected verdict, on the package's tests
    /// and on sgcheck's search (`--time` per submission).
    #[arg(long, value_name = "DIR", conflicts_with_all = ["command", "input", "save"])]
    pub package: Option<PathBuf>,
    /// With --package: write each minimal input found into data/secret/sgcheck/ of
    /// the package, with its answer.
    #[arg(long, requires = "package")]
    pub add_tests: bool,
    /// Total time budget of the search, in seconds (shrinking a late failure may take
    /// up to half of it again).
    #[arg(long, default_value_t = 10.0, value_name = "SECONDS", value_parser = options::seconds)]
    pub time: f64,
    /// Stop the search after this many cases.
    #[arg(long, value_name = "N", value_parser = options::count)]
    pub cases: Option<u64>,
    /// Seed of the random inputs; a fresh one is drawn and printed when absent.
    #[arg(long)]
    pub seed: Option<u64>,
    /// Programs run at once (default: the number of cores; at most 256).
    #[arg(long, value_name = "N", value_parser = options::jobs)]
    pub jobs: Option<usize>,
    /// CPU time limit of one run (one input, which may hold several cases), in
    /// seconds: user and system time of all the program's processes together, as a
    /// judge counts it. A run over it is run again alone before it is reported.
    #[arg(long, default_value_t = 2.0, value_name = "SECONDS", value_parser = options::seconds)]
    pub timeout: f64,
    /// Wall-clock limit of one run, in seconds, for programs that sleep or wait for
    /// input (default: twice --timeout plus one second).
    #[arg(long, value_name = "SECONDS", value_parser = options::seconds)]
    pub wall_timeout: Option<f64>,
    /// Output limit of one run: bytes, or with a K, M or G suffix (powers of 1024).
    #[arg(long, default_value = "16M", value_name = "SIZE", value_parser = options::size)]
    pub output_limit: u64,
    /// Memory limit of one run (peak resident memory): bytes, or with K, M or G.
    #[arg(long, default_value = "256M", value_name = "SIZE", value_parser = options::size)]
    pub memory_limit: u64,
    /// Stack size limit of the program (default: the machine's, usually 8M; judges
    /// running Windows give 1M).
    #[arg(long, value_name = "SIZE", value_parser = options::size)]
    pub stack_limit: Option<u64>,
    /// Most processes of one run at once, the program included.
    #[arg(long, default_value_t = crate::audit::runner::DEFAULT_PROCESS_LIMIT, value_name = "N", value_parser = options::processes)]
    pub process_limit: usize,
    /// Size limit of one file the program writes (`RLIMIT_FSIZE`): bytes, or with K,
    /// M or G; a write past it is a runtime error naming this limit.
    #[arg(long, default_value = "64M", value_name = "SIZE", value_parser = options::size)]
    pub file_limit: u64,
    /// An environment variable for the program (and the compiler), whose environment
    /// is otherwise cleared but for PATH, HOME (its own directory), LANG and the
    /// toolchain locations: NAME=VALUE, or NAME for the caller's value. Repeatable.
    #[arg(long = "env", value_name = "NAME[=VALUE]", value_parser = parse_env)]
    pub env: Vec<(String, Option<String>)>,
    /// Time limit of building a source file, in seconds.
    #[arg(long, default_value_t = 30.0, value_name = "SECONDS", value_parser = options::seconds)]
    pub compile_time: f64,
    /// Memory limit of building a source file (the compiler's processes together).
    #[arg(long, default_value = "1G", value_name = "SIZE", value_parser = options::size)]
    pub compile_memory: u64,
    /// Compare outputs byte for byte (default: token by token, whitespace-insensitive).
    #[arg(long)]
    pub exact: bool,
    /// One case per run instead of batching up to the format's case limit (slower;
    /// for throughput comparisons, or to judge programs one case at a time).
    #[arg(long)]
    pub no_batch: bool,
    /// Write the minimal failing input (`<problem>.in`), the expected output (`.ans`)
    /// and the program's output (`.out`) into this directory.
    #[arg(long, value_name = "DIR")]
    pub save: Option<PathBuf>,
    /// Print the report as JSON.
    #[arg(long)]
    pub json: bool,
    /// Never show a progress bar.
    #[arg(long)]
    pub no_progress: bool,
    /// Oracle budget (positions) for cross-checking expected answers of small cases;
    /// 0 disables the cross-check.
    #[arg(long, default_value_t = audit::DEFAULT_ORACLE_BUDGET, value_name = "N", value_parser = options::budget_or_zero)]
    pub oracle_budget: usize,
    /// Build the source with AddressSanitizer and UndefinedBehaviorSanitizer (C, C++;
    /// overflow checks for Rust), so undefined behaviour is a runtime error; the time
    /// limit is tripled.
    #[arg(long)]
    pub sanitize: bool,
    /// Do not search: run the program on this input (a test it failed elsewhere) and
    /// shrink it to a minimal one.
    #[arg(long, value_name = "FILE")]
    pub input: Option<PathBuf>,
}

/// Parses `--env NAME=VALUE` or `--env NAME`.
fn parse_env(s: &str) -> Result<(String, Option<String>), String> {
    let (name, value) = match s.split_once('=') {
        Some((n, v)) => (n, Some(v.to_string())),
        None => (s, None),
    };
    let valid = !name.is_empty()
        && !name.starts_with(|c: char| c.is_ascii_digit())
        && name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_');
    if !valid {
        return Err(format!(
            "{name:?} is not a variable name (letters, digits, _)"
        ));
    }
    if value.as_deref().is_some_and(|v| v.contains('\0')) {
        return Err("a value cannot hold a NUL byte".into());
    }
    Ok((name.to_string(), value))
}

/// Parses `16M`, `512K`, `1G`, `1000` (bytes; suffixes are powers of 1024), as every
/// size option does ([`options::size`]).
pub fn parse_size(s: &str) -> anyhow::Result<usize> {
    options::size(s)
        .map(|v| v as usize)
        .map_err(|e| anyhow!("--output-limit: {e}"))
}

struct Audit<'a> {
    contestant: &'a dyn Contestant,
    opts: &'a AuditOptions,
    progress: &'a ProgressBar,
    /// The given input to shrink, instead of a search.
    input: Option<&'a str>,
}

impl Visitor for Audit<'_> {
    type Output = Result<Result<Report, AuditError>, problems::ParseError>;
    fn visit<P: Problem>(self, p: &P) -> Self::Output {
        Ok(match self.input {
            Some(text) => {
                let cases = p.parse(text, false)?;
                audit::audit_input(p, self.contestant, self.opts, cases, self.progress)
            }
            None => audit::audit(p, self.contestant, self.opts, self.progress),
        })
    }
}

fn progress_bar(enabled: bool) -> ProgressBar {
    use std::io::IsTerminal;
    if !enabled || !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let pb = ProgressBar::new_spinner();
    if let Ok(style) = ProgressStyle::with_template("{spinner} [{elapsed_precise}] audit {msg}") {
        pb.set_style(style);
    }
    pb.enable_steady_tick(Duration::from_millis(120));
    pb
}

/// The audit's options from the command line (shared with `audit --package`).
pub(crate) fn options(args: &Args, seed: u64) -> AuditOptions {
    let time = Duration::from_secs_f64(args.time);
    let timeout = Duration::from_secs_f64(args.timeout);
    let output_limit = usize::try_from(args.output_limit).unwrap_or(usize::MAX);
    let defaults = AuditOptions::default();
    let opts = AuditOptions {
        seed,
        time,
        max_cases: args.cases,
        jobs: args.jobs.unwrap_or(defaults.jobs),
        limits: RunLimits {
            timeout,
            wall_timeout: args.wall_timeout.map(Duration::from_secs_f64),
            output_limit,
            memory_limit: args.memory_limit,
            stack_limit: args.stack_limit,
            process_limit: args.process_limit,
            file_limit: args.file_limit,
        },
        mode: if args.exact {
            CompareMode::Exact
        } else {
            CompareMode::Tokens
        },
        batch: !args.no_batch,
        oracle_budget: args.oracle_budget,
        sanitize: args.sanitize,
        game_aware: defaults.game_aware,
    };
    AuditOptions {
        limits: if args.sanitize {
            compile::sanitized_limits(opts.limits)
        } else {
            opts.limits
        },
        ..opts
    }
}

/// Runs `sgcheck audit`.
pub fn run(args: Args) -> anyhow::Result<i32> {
    if let Some(dir) = &args.package {
        return crate::package::audit::run(&args, dir);
    }
    if args.add_tests {
        bail!("--add-tests goes with --package DIR");
    }
    let problem = crate::cli::solve::choose(args.problem.as_deref(), args.declaration.as_deref())?;
    let id = problem.info().id;
    let time = Duration::from_secs_f64(args.time);
    if let Some(dir) = &args.save {
        check_save_dir(dir)?;
    }
    let (program, rest) = args
        .command
        .split_first()
        .ok_or_else(|| anyhow!("no command to audit: give it after `--`"))?;
    // `--input` is read at most to the size a valid input of the problem can have
    // (see `sgcheck solve`), from a file, FIFO or device alike.
    let input = match &args.input {
        Some(path) => {
            let f = std::fs::File::open(path)
                .with_context(|| format!("--input: reading {}", path.display()))?;
            let what = format!("--input {}", path.display());
            let size = f.metadata().map_or(0, |m| m.len());
            let bytes = crate::cli::solve::read_bounded(
                f,
                size,
                || crate::cli::solve::input_bound(&problem, false),
                &what,
                id,
            )?;
            Some(String::from_utf8(bytes).map_err(|e| {
                let msg = crate::cli::solve::utf8_error(e.as_bytes(), e.utf8_error());
                anyhow!("{what}: {msg}")
            })?)
        }
        None => None,
    };
    // Before the build: an interrupt during the compile kills the compiler and
    // removes the build directory too.
    audit::install_interrupt_handler()?;
    let (built, plain) = if compile::Language::of(Path::new(program)).is_some() {
        let limits = compile::BuildLimits {
            time: Duration::from_secs_f64(args.compile_time),
            memory: args.compile_memory,
            env: args.env.clone(),
        };
        (
            Some(compile::build(
                Path::new(program),
                rest.to_vec(),
                args.sanitize,
                &limits,
            )?),
            None,
        )
    } else if args.sanitize {
        bail!("--sanitize needs a source file to build (.c, .cc, .cpp, .rs), not {program:?}");
    } else {
        (
            None,
            Some(ProcessContestant::new(program, rest.to_vec())?.with_env(args.env.clone())),
        )
    };
    let contestant: &dyn Contestant = match (&built, &plain) {
        (Some(b), _) => b,
        (_, Some(p)) => p,
        _ => bail!("nothing to audit"),
    };

    let seed = args.seed.unwrap_or_else(rand::random);
    let opts = options(&args, seed);
    if !args.json {
        errln!(
            "audit {id}: seed {seed}, {:.1} s budget, {} job(s), command: {}",
            time.as_secs_f64(),
            opts.jobs,
            contestant.describe()
        );
    }
    let pb = progress_bar(!args.no_progress && !args.json);
    let result = Audit {
        contestant,
        opts: &opts,
        progress: &pb,
        input: input.as_deref(),
    }
    .visit(&problem);
    let result = match (result, &args.input) {
        (Ok(r), _) => r,
        (Err(e), Some(path)) => {
            pb.finish_and_clear();
            bail!("--input {}: {e}", path.display());
        }
        (Err(e), None) => {
            pb.finish_and_clear();
            bail!("{e}")
        }
    };
    pb.finish_and_clear();
    let mut report = match result {
        Ok(mut r) => {
            if let Some(path) = &args.declaration {
                // The command that repeats the audit names the declaration file.
                r.reproduce = r.reproduce.replacen(
                    &format!("{} audit {id}", crate::shell::program()),
                    &format!(
                        "{} audit --problem {}",
                        crate::shell::program(),
                        crate::shell::path_of(path)
                    ),
                    1,
                );
            }
            r
        }
        Err(e @ AuditError::OracleMismatch { .. }) => {
            errln!("\n!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!");
            errln!("{e}");
            errln!("!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!");
            if args.json {
                outln!(
                    "{}",
                    serde_json::json!({
                        "problem": id,
                        "verdict": "internal-error",
                        "seed": seed,
                        "error": e.to_string(),
                    })
                );
            }
            return Ok(EXIT_FAILURE);
        }
        Err(e @ (AuditError::WrongClaim { .. } | AuditError::WrongSample { .. })) => {
            // The declaration's error: exit 2, as for a declaration that does not read.
            errln!("error: {e}");
            if args.json {
                outln!(
                    "{}",
                    serde_json::json!({
                        "problem": id,
                        "verdict": "declaration-error",
                        "seed": seed,
                        "error": e.to_string(),
                    })
                );
            }
            return Ok(super::EXIT_USAGE);
        }
        Err(AuditError::Run(e)) => return Err(e.into()),
    };
    report.build = built.as_ref().map(|b| b.build.clone());
    report.containment = Some(audit::sandbox::containment().name().to_string());
    report.memory_enforcement = Some(audit::sandbox::memory_enforcement().name().to_string());
    if let (Some(path), Some(at)) = (&args.input, report.reproduce.find(" -- ")) {
        let flag = format!(" --input {}", crate::shell::path_of(path));
        report.reproduce.insert_str(at, &flag);
    }
    if report.search_cases == 0 && report.counterexample.is_none() && report.unanswerable > 0 {
        errln!(
            "error: nothing was checked: the declaration could not answer any input ({} left \
             out; the first, {})",
            report.unanswerable,
            report.first_unanswerable.as_deref().unwrap_or("-")
        );
        if args.json {
            outln!("{}", serde_json::to_string_pretty(&report)?);
        }
        return Ok(EXIT_USAGE);
    }
    if report.search_cases == 0 && report.counterexample.is_none() {
        errln!(
            "error: nothing was checked: no case ran within --time {} s (raise --time{})",
            args.time,
            if args.cases.is_some() {
                " or --cases"
            } else {
                ""
            }
        );
        if args.json {
            outln!("{}", serde_json::to_string_pretty(&report)?);
        }
        return Ok(EXIT_USAGE);
    }
    // A failure to save never loses the report: it is printed without the `saved:`
    // lines, the save error goes to standard error, and the exit code is still the
    // failure's (1).
    let (saved, save_error) = match (&args.save, &report.counterexample) {
        (Some(dir), Some(_)) => match save(dir, &report) {
            Ok(p) => (Some(p), None),
            Err(e) => (None, Some(e)),
        },
        _ => (None, None),
    };
    if args.json {
        outln!("{}", serde_json::to_string_pretty(&report)?);
    } else {
        out!("{}", render_text(&report, saved.as_deref()));
    }
    if let Some(e) = save_error {
        errln!("error: --save: {e:#} (the report above is complete)");
    }
    Ok(if report.verdict == Verdict::Ok {
        EXIT_OK
    } else {
        EXIT_FAILURE
    })
}

/// Makes sure `--save` can write into `dir` (creating it) before any work is done, so
/// a failure found is never lost to a bad path. The probe is a fresh file of a random
/// name (`O_EXCL`), so nothing planted in the directory is followed or overwritten.
fn check_save_dir(dir: &Path) -> anyhow::Result<()> {
    std::fs::create_dir_all(dir)
        .with_context(|| format!("--save: cannot create {}", dir.display()))?;
    tempfile::Builder::new()
        .prefix(".sgcheck-write-test-")
        .tempfile_in(dir)
        .with_context(|| format!("--save: cannot write into {}", dir.display()))?;
    Ok(())
}

/// Writes `data` to `path` safely: into a fresh file of a random name in the same
/// directory (created with `O_EXCL`), renamed into place. A symlink, FIFO, directory or
/// anything but a regular file at `path` is refused with an error naming it, and never
/// followed, opened or overwritten.
pub(crate) fn write_safely(path: &Path, data: &[u8]) -> anyhow::Result<()> {
    use std::io::Write as _;
    match std::fs::symlink_metadata(path) {
        Ok(m) if !m.file_type().is_file() => {
            let kind = if m.file_type().is_symlink() {
                "a symbolic link"
            } else if m.is_dir() {
                "a directory"
            } else {
                "not a regular file (a FIFO, socket or device)"
            };
            bail!("refusing to write {}: it is {kind}", path.display());
        }
        Ok(_) => {}
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
        Err(e) => return Err(e).with_context(|| format!("checking {}", path.display())),
    }
    let dir = path.parent().unwrap_or(Path::new("."));
    let dir = if dir.as_os_str().is_empty() {
        Path::new(".")
    } else {
        dir
    };
    // Removed by the interrupt handler when sgcheck is interrupted before the rename.
    let mut tmp = audit::runner::create_removed_on_interrupt(
        || {
            tempfile::Builder::new()
                .prefix(".sgcheck-save-")
                .tempfile_in(dir)
        },
        |t| t.path().to_path_buf(),
    )
    .with_context(|| format!("writing into {}", dir.display()))?;
    let tmp_path = tmp.path().to_path_buf();
    let written = tmp
        .write_all(data)
        .and_then(|()| tmp.as_file().sync_data())
        .with_context(|| format!("writing {}", path.display()));
    audit::runner::stall_point("save");
    // `rename` replaces the directory entry itself: a symlink planted after the check
    // above is replaced, never followed; a directory makes it fail.
    let persisted = written.and_then(|()| {
        tmp.persist(path)
            .map(drop)
            .map_err(|e| e.error)
            .with_context(|| format!("writing {}", path.display()))
    });
    audit::runner::forget_on_interrupt(&tmp_path);
    persisted
}

/// Writes `<problem>.in`, `.ans` and `.out` into `dir`; returns the `.in` path.
fn save(dir: &Path, report: &Report) -> anyhow::Result<PathBuf> {
    let Some(c) = &report.counterexample else {
        bail!("nothing to save");
    };
    std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    let base = dir.join(&report.problem);
    let write = |ext: &str, data: &[u8]| -> anyhow::Result<PathBuf> {
        let path = base.with_extension(ext);
        write_safely(&path, data)?;
        Ok(path)
    };
    let input = write("in", c.input.as_bytes())?;
    write("ans", c.expected.as_bytes())?;
    write("out", &c.actual_bytes)?;
    // The other kinds of failure: `<problem>.<verdict>.in`, ...
    for f in report.failures.iter().skip(1) {
        let v = f.verdict.name();
        write(&format!("{v}.in"), f.input.as_bytes())?;
        write(&format!("{v}.ans"), f.expected.as_bytes())?;
        write(&format!("{v}.out"), &f.actual_bytes)?;
    }
    Ok(input)
}

fn indent(s: &str) -> String {
    s.lines().map(|l| format!("    {l}\n")).collect()
}

/// The text report.
pub fn render_text(r: &Report, saved: Option<&Path>) -> String {
    let mut out = String::new();
    let rate = format!(
        "{} cases in {} runs, {:.2} s ({:.0} cases/s while searching{})",
        r.cases,
        r.runs,
        r.seconds,
        r.cases_per_second,
        if r.batched { ", batched" } else { "" }
    );
    if let Some(first) = &r.first_unanswerable {
        out.push_str(&format!(
            "{} input(s) the declaration could not answer, left out: the first, {first}\n",
            r.unanswerable
        ));
    }
    match &r.counterexample {
        None => {
            out.push_str(&format!(
                "audit {}: ok, no failure found\n{rate}\nseed {}; {} expected answers cross-checked with the oracle{}\n",
                r.problem,
                r.seed,
                r.oracle_checks,
                match r.samples {
                    0 => String::new(),
                    n => format!("; {n} known answer(s) (samples) passed first"),
                }
            ));
        }
        Some(c) => {
            out.push_str(&format!(
                "audit {}: {}\n",
                r.problem,
                r.verdict.name().to_uppercase()
            ));
            out.push_str(&format!("  {}\n", c.detail));
            out.push_str(&format!(
                "\n{} input ({} case{}, {} shrink step{} in {} runs):\n",
                heading(c.minimal, &c.minimality),
                c.cases,
                if c.cases == 1 { "" } else { "s" },
                c.shrink_steps,
                if c.shrink_steps == 1 { "" } else { "s" },
                c.shrink_runs,
            ));
            out.push_str(&indent(&audit::abbreviate(&c.input, 40, 200)));
            out.push_str(&minimality_line(&c.minimality));
            let (exp_mark, act_mark) = match &c.mismatch {
                Some(m) => (Some(m.expected_line), Some(m.actual_line)),
                None => (None, None),
            };
            out.push_str("\nexpected output:\n");
            out.push_str(&compare::render(c.expected.as_bytes(), exp_mark, 20));
            out.push_str("actual output:\n");
            out.push_str(&compare::render(&c.actual_bytes, act_mark, 20));
            if !c.stderr.trim().is_empty() {
                out.push_str("standard error:\n");
                out.push_str(&indent(c.stderr.trim_end()));
            }
            for f in r.failures.iter().skip(1) {
                out.push_str(&format!(
                    "\nalso {}: {}\n{} input ({} case{}, {} shrink runs):\n",
                    f.verdict.name().to_uppercase(),
                    f.detail,
                    heading(f.minimal, &f.minimality),
                    f.cases,
                    if f.cases == 1 { "" } else { "s" },
                    f.shrink_runs,
                ));
                out.push_str(&indent(&audit::abbreviate(&f.input, 12, 120)));
            }
            out.push_str(&format!("\n{rate}\nseed {}\n", r.seed));
            if let Some(b) = &r.build {
                out.push_str(&format!("built: {}\n", b.compile));
            }
            if let Some(path) = saved {
                let run = r
                    .build
                    .as_ref()
                    .map_or(r.command.as_str(), |b| b.run.as_str());
                out.push_str(&format!(
                    "saved: {} (and .ans, .out)\nrerun: {} < {}\n",
                    path.display(),
                    run,
                    crate::shell::path_of(path)
                ));
            }
        }
    }
    if let (Some(c), Some(m)) = (&r.containment, &r.memory_enforcement) {
        out.push_str(&format!("contained: {c}; memory limit: {m}\n"));
    }
    out.push_str(&format!("reproduce: {}\n", r.reproduce));
    out
}

/// What the heading calls an input: `minimal` only when no smaller input fails
/// (proved), `1-minimal` when no shrink step fails, else the smallest failing one.
fn heading(one_minimal: bool, m: &audit::Minimality) -> &'static str {
    match m.kind {
        audit::MinimalityKind::Minimal if m.complete || m.size == Some(0) => "minimal",
        _ if one_minimal => "1-minimal",
        _ => "smallest failing",
    }
}

/// The report's line on what "minimal" means for a counterexample.
fn minimality_line(m: &audit::Minimality) -> String {
    use audit::MinimalityKind as K;
    let checked = |up_to: Option<u64>| match up_to {
        Some(s) => {
            let mut said = format!(
                "every input of size <= {s}{} passes",
                if m.several_cases {
                    ", of one case or several,"
                } else {
                    ""
                }
            );
            if let Some(one) = m.one_case_checked_up_to.filter(|&one| one > s) {
                said.push_str(&format!(", and every one-case input of size <= {one}"));
            }
            said.push_str(&format!(
                " ({} inputs in {} runs)",
                m.checked_cases, m.checked_runs
            ));
            said
        }
        None => "no smaller input was checked".to_string(),
    };
    match m.kind {
        K::Minimal if m.complete || m.size == Some(0) => format!(
            "    (minimal: no smaller input fails; {})\n",
            checked(m.checked_up_to)
        ),
        K::Minimal => format!(
            "    (minimal up to size {}: {}; this input has size {})\n",
            m.checked_up_to.unwrap_or(0),
            checked(m.checked_up_to),
            m.size.map_or("?".to_string(), |s| s.to_string())
        ),
        // Say why nothing was enumerated.
        K::OneMinimal if m.checked_up_to.is_none() => "    (1-minimal: no single shrink step \
             fails; smaller inputs were not enumerated: the check lists the inputs of \
             problems whose cases it can list, not trees, and within its budget)\n"
            .to_string(),
        K::OneMinimal => format!(
            "    (1-minimal: no single shrink step fails; {})\n",
            checked(m.checked_up_to)
        ),
        K::NotMinimal => "    (not minimal: the shrink budget ran out first)\n".to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes() {
        assert_eq!(parse_size("16M").unwrap(), 16 << 20);
        assert_eq!(parse_size("512k").unwrap(), 512 << 10);
        assert_eq!(parse_size("1000").unwrap(), 1000);
        assert!(parse_size("x").is_err());
        assert!(parse_size("0").is_err());
        assert!(parse_size("5T").is_err());
        assert!(parse_size("99999999999999999999G").is_err());
    }
}
