//! `sgcheck audit --package DIR`: audits every submission of a problem package.
//!
//! Each submission is built as `audit` builds a source file, then judged twice, each
//! time against sgcheck's verified answers: on the package's own tests (`data/sample`
//! and `data/secret`, in order, stopping at the first failure, which is shrunk to a
//! minimal input) and by sgcheck's search (`--time` per submission). Its directory
//! says what it should get:
//!
//! | directory | expected |
//! |---|---|
//! | `accepted` | no failure anywhere |
//! | `wrong_answer` | a wrong answer on the package's tests |
//! | `time_limit_exceeded` | a time-out on the package's tests |
//! | `run_time_error` | a crash on the package's tests |
//! | `brute_force` | never a wrong answer (time-outs and crashes allowed) |
//! | `rejected` | some failure on the package's tests |
//!
//! A finding is an accepted (or brute-force) submission sgcheck finds wrong, or a
//! rejected one the package's tests do not catch (with sgcheck's minimal input that
//! does, when its search finds one). `--add-tests` writes each minimal input found
//! into `data/secret/sgcheck/` with its answer. The package's `.ans` files are checked
//! against the solver too.

use super::export::{ensure_dir, FOUND_GROUP};
use super::Source;
use crate::audit::{self, compile, AuditError, Contestant, Report, Verdict};
use crate::cli::audit::Args;
use crate::cli::{EXIT_FAILURE, EXIT_OK};
use crate::problems::{solve_fast, Declared, Problem};
use anyhow::{anyhow, bail, Context};
use indicatif::ProgressBar;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// Most test files of a package read.
const MAX_TESTS: usize = 10_000;
/// Most submissions audited.
const MAX_SUBMISSIONS: usize = 1_000;
/// Largest test input read (bytes).
const MAX_TEST_BYTES: u64 = 256 << 20;

/// What a submission's directory expects.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Expect {
    /// `accepted`.
    Accepted,
    /// `wrong_answer`.
    WrongAnswer,
    /// `time_limit_exceeded`.
    TimeLimit,
    /// `run_time_error`.
    RuntimeError,
    /// `brute_force`: correct, maybe slow.
    BruteForce,
    /// `rejected`: anything but accepted.
    Rejected,
}

impl Expect {
    /// The expectation of a `submissions/` directory name.
    pub fn of(dir: &str) -> Option<Expect> {
        Some(match dir {
            "accepted" => Expect::Accepted,
            "wrong_answer" => Expect::WrongAnswer,
            "time_limit_exceeded" => Expect::TimeLimit,
            "run_time_error" => Expect::RuntimeError,
            "brute_force" => Expect::BruteForce,
            "rejected" => Expect::Rejected,
            _ => return None,
        })
    }

    /// Whether a failure of this kind is what the directory says.
    fn caught_by(self, v: Verdict) -> bool {
        match self {
            Expect::Accepted | Expect::BruteForce => false,
            Expect::WrongAnswer => v == Verdict::WrongAnswer,
            Expect::TimeLimit => v == Verdict::TimeLimit,
            Expect::RuntimeError => v == Verdict::RuntimeError,
            Expect::Rejected => v != Verdict::Ok,
        }
    }

    /// Whether a failure of this kind is a finding against the submission.
    fn wrong(self, v: Verdict) -> bool {
        match self {
            Expect::Accepted => v != Verdict::Ok,
            Expect::BruteForce => v == Verdict::WrongAnswer,
            _ => false,
        }
    }
}

/// One test of the package.
#[derive(Clone, Debug)]
pub struct PackageTest {
    /// Its path relative to `data/`, without `.in`.
    pub name: String,
    /// The `.in` path.
    pub path: PathBuf,
}

/// The tests of a package: `data/sample` then `data/secret` (groups in name order),
/// each `.in` with its name, and those refused, each with why. Links are followed
/// when they stay inside the package; a link that leaves it, a broken one, and an
/// `.in` that is not a regular file (a FIFO, a device) are refused, never skipped in
/// silence.
pub fn package_tests(dir: &Path) -> anyhow::Result<(Vec<PackageTest>, Skipped)> {
    let root = std::fs::canonicalize(dir).with_context(|| format!("reading {}", dir.display()))?;
    let mut walk = Walk {
        root,
        tests: Vec::new(),
        refused: Vec::new(),
        seen: Vec::new(),
    };
    for top in ["sample", "secret"] {
        walk.dir(&dir.join("data").join(top), top)?;
    }
    Ok((walk.tests, walk.refused))
}

/// A walk through a package's `data/`.
struct Walk {
    /// The package, canonical: no link may lead out of it.
    root: PathBuf,
    tests: Vec<PackageTest>,
    refused: Skipped,
    /// Directories walked (canonical), so that a loop of links is walked once.
    seen: Vec<PathBuf>,
}

/// What a path of the package is, links followed inside it.
enum Entry {
    Dir(PathBuf),
    File,
    Other(&'static str),
    Refused(String),
}

impl Walk {
    fn entry(&self, path: &Path) -> Entry {
        let Ok(lm) = std::fs::symlink_metadata(path) else {
            return Entry::Refused("cannot be read".into());
        };
        let m = if lm.file_type().is_symlink() {
            let Ok(target) = std::fs::canonicalize(path) else {
                return Entry::Refused("a broken link".into());
            };
            if !target.starts_with(&self.root) {
                return Entry::Refused(format!(
                    "a link that leaves the package (to {})",
                    target.display()
                ));
            }
            match std::fs::metadata(&target) {
                Ok(m) => m,
                Err(e) => return Entry::Refused(format!("cannot be read: {e}")),
            }
        } else {
            lm
        };
        use std::os::unix::fs::FileTypeExt;
        let ft = m.file_type();
        if ft.is_dir() {
            Entry::Dir(std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf()))
        } else if ft.is_file() {
            Entry::File
        } else if ft.is_fifo() {
            Entry::Other("a FIFO, not a regular file")
        } else if ft.is_socket() {
            Entry::Other("a socket, not a regular file")
        } else {
            Entry::Other("a device, not a regular file")
        }
    }

    fn dir(&mut self, dir: &Path, name: &str) -> anyhow::Result<()> {
        let real = match self.entry(dir) {
            Entry::Dir(real) => real,
            // No such group: nothing to read.
            Entry::Refused(_) if std::fs::symlink_metadata(dir).is_err() => return Ok(()),
            Entry::Refused(why) => {
                self.refused.push((name.to_string(), why));
                return Ok(());
            }
            Entry::File | Entry::Other(_) => return Ok(()),
        };
        if self.seen.contains(&real) {
            return Ok(());
        }
        self.seen.push(real);
        let mut entries: Vec<_> = std::fs::read_dir(dir)
            .with_context(|| format!("reading {}", dir.display()))?
            .collect::<Result<_, _>>()
            .with_context(|| format!("reading {}", dir.display()))?;
        entries.sort_by_key(|e| e.file_name());
        for e in entries {
            let path = e.path();
            let file = e.file_name().to_string_lossy().into_owned();
            let test = format!("{name}/{}", file.trim_end_matches(".in"));
            match self.entry(&path) {
                Entry::Dir(_) => self.dir(&path, &format!("{name}/{file}"))?,
                _ if !file.ends_with(".in") => {}
                Entry::File => {
                    if self.tests.len() >= MAX_TESTS {
                        bail!("more than {MAX_TESTS} tests in the package");
                    }
                    self.tests.push(PackageTest { name: test, path });
                }
                Entry::Other(why) => self.refused.push((test, why.to_string())),
                Entry::Refused(why) => self.refused.push((test, why)),
            }
        }
        Ok(())
    }
}

/// One submission: its expectation and its source file.
#[derive(Clone, Debug)]
pub struct Submission {
    /// `accepted/sol.cpp`.
    pub name: String,
    /// What its directory expects.
    pub expect: Expect,
    /// The source file to build.
    pub source: PathBuf,
}

/// Entries left out, each with why.
pub type Skipped = Vec<(String, String)>;

/// The submissions of a package, with those left out and why.
pub fn submissions(dir: &Path) -> anyhow::Result<(Vec<Submission>, Skipped)> {
    let root = dir.join("submissions");
    let mut subs = Vec::new();
    let mut skipped = Vec::new();
    let Ok(rd) = std::fs::read_dir(&root) else {
        return Ok((subs, skipped));
    };
    let mut dirs: Vec<_> = rd.filter_map(|e| e.ok()).collect();
    dirs.sort_by_key(|e| e.file_name());
    for d in dirs {
        let dname = d.file_name().to_string_lossy().into_owned();
        if !d.file_type()?.is_dir() {
            continue;
        }
        let Some(expect) = Expect::of(&dname) else {
            skipped.push((dname, "not a verdict directory".into()));
            continue;
        };
        let mut entries: Vec<_> = std::fs::read_dir(d.path())?
            .filter_map(|e| e.ok())
            .collect();
        entries.sort_by_key(|e| e.file_name());
        for e in entries {
            let ename = e.file_name().to_string_lossy().into_owned();
            let name = format!("{dname}/{ename}");
            let path = e.path();
            let source = if e.file_type()?.is_dir() {
                // A submission of several files: one source file of a known language.
                let mut sources: Vec<PathBuf> = std::fs::read_dir(&path)?
                    .filter_map(|x| x.ok())
                    .map(|x| x.path())
                    .filter(|p| p.is_file() && compile::Language::of(p).is_some())
                    .collect();
                sources.sort();
                if sources.len() != 1 {
                    skipped.push((
                        name,
                        format!("{} source files (one is audited)", sources.len()),
                    ));
                    continue;
                }
                sources.remove(0)
            } else if compile::Language::of(&path).is_some() {
                path
            } else {
                skipped.push((
                    name,
                    "not a source of a language audit builds (.c .cc .cpp .cxx .rs .py .java)"
                        .into(),
                ));
                continue;
            };
            if subs.len() >= MAX_SUBMISSIONS {
                bail!("more than {MAX_SUBMISSIONS} submissions");
            }
            subs.push(Submission {
                name,
                expect,
                source,
            });
        }
    }
    Ok((subs, skipped))
}

/// What one submission got.
#[derive(Debug)]
pub struct Outcome {
    /// The submission.
    pub name: String,
    /// Its directory's expectation.
    pub expect: Expect,
    /// The first package test it failed, with the report (shrunk to a minimal input).
    pub tests: Option<(String, Report)>,
    /// Package tests it passed.
    pub passed: usize,
    /// sgcheck's search.
    pub search: Report,
    /// What is wrong, if anything.
    pub finding: Option<String>,
    /// The minimal input to add as a test, if any.
    pub add: Option<String>,
}

/// Reads a package file of at most `max` bytes (one more tells it is longer): a
/// regular file only, opened without blocking (a FIFO put in its place is refused).
fn read_regular(path: &Path, max: u64) -> anyhow::Result<Vec<u8>> {
    use std::io::Read as _;
    use std::os::unix::fs::OpenOptionsExt;
    let f = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK)
        .open(path)
        .with_context(|| format!("reading {}", path.display()))?;
    if !f.metadata().is_ok_and(|m| m.is_file()) {
        bail!("{}: not a regular file", path.display());
    }
    let mut bytes = Vec::new();
    f.take(max + 1)
        .read_to_end(&mut bytes)
        .with_context(|| format!("reading {}", path.display()))?;
    Ok(bytes)
}

fn read_test(p: &Declared, path: &Path) -> anyhow::Result<(String, Vec<crate::problems::Case>)> {
    let bytes = read_regular(path, MAX_TEST_BYTES)?;
    if bytes.len() as u64 > MAX_TEST_BYTES {
        bail!(
            "{}: larger than {} MiB",
            path.display(),
            MAX_TEST_BYTES >> 20
        );
    }
    let text = String::from_utf8(bytes).map_err(|_| anyhow!("{}: not UTF-8", path.display()))?;
    let cases = p.parse(&text, false).map_err(|e| {
        anyhow!(
            "{}: not a valid input of {}: {e}",
            path.display(),
            p.info().id
        )
    })?;
    Ok((text, cases))
}

fn audit_error(e: AuditError) -> anyhow::Error {
    match e {
        e @ AuditError::OracleMismatch { .. } => anyhow!("internal error: {e}"),
        e @ (AuditError::WrongClaim { .. } | AuditError::WrongSample { .. }) => anyhow!("{e}"),
        AuditError::Run(e) => e.into(),
    }
}

/// Runs `sgcheck audit --package DIR`.
pub fn run(args: &Args, dir: &Path) -> anyhow::Result<i32> {
    if !dir.is_dir() {
        bail!("--package {}: not a directory", dir.display());
    }
    let src = match (args.problem.as_deref(), args.declaration.as_deref()) {
        (None, None) => {
            let path = dir.join("sgcheck/problem.toml");
            if !path.is_file() {
                bail!(
                    "--package {}: no sgcheck/problem.toml (a package sgcheck did not export): \
                     name the problem (an id, or --problem FILE)",
                    dir.display()
                );
            }
            let text = super::read_bounded_text(&path)?;
            Source::from_text(text, &path.display().to_string())?
        }
        (id, file) => Source::choose(id, file)?,
    };
    let p = &src.problem;
    let id = p.info().id;
    let (listed, mut refused) = package_tests(dir)?;
    // Every test must be an input of the problem, with the solver's answer; one that
    // cannot be read is refused, by name.
    let mut bad_answers = Vec::new();
    let mut tests = Vec::with_capacity(listed.len());
    let mut inputs = Vec::with_capacity(listed.len());
    for t in listed {
        let cases = match read_test(p, &t.path) {
            Ok((_, cases)) => cases,
            Err(e) => {
                refused.push((t.name.clone(), format!("{e:#}")));
                continue;
            }
        };
        let ans_path = t.path.with_extension("ans");
        let ans = read_regular(&ans_path, MAX_TEST_BYTES)
            .ok()
            .and_then(|b| String::from_utf8(b).ok());
        let want: Result<Vec<Vec<String>>, (usize, String)> = cases
            .iter()
            .enumerate()
            .map(|(i, c)| p.answer(c, i).map_err(|e| (i, e)))
            .collect();
        match (ans, want) {
            // Token by token. Answers that are sets are written whole, as export
            // writes them for the output validator.
            (Some(ans), Ok(want)) if p.answers_are_sets() => {
                let written = super::output_validator::answer_file(want.iter().flatten());
                if !written.is_ok_and(|w| super::export::same_tokens(&w, &ans)) {
                    bad_answers.push(format!(
                        "{}: the .ans differs from the solver's answer (its sets, whole)",
                        t.name
                    ));
                }
            }
            (Some(ans), Ok(want))
                if crate::audit::compare::compare(
                    &want,
                    ans.as_bytes(),
                    crate::audit::compare::CompareMode::Tokens,
                )
                .is_none() => {}
            (Some(_), Ok(_)) => bad_answers.push(format!(
                "{}: the .ans differs from the solver's answer",
                t.name
            )),
            (Some(_), Err((case, why))) => bad_answers.push(format!(
                "{}: the declaration cannot answer its case {} ({why}), so its .ans is not \
                 checked",
                t.name,
                case + 1
            )),
            (None, _) => bad_answers.push(format!("{}: no readable .ans", t.name)),
        }
        tests.push(t);
        inputs.push(cases);
    }
    let (subs, skipped) = submissions(dir)?;
    audit::install_interrupt_handler()?;
    let seed = args.seed.unwrap_or_else(rand::random);
    let opts = crate::cli::audit::options(args, seed);
    // A failing package test is shrunk within a shorter budget.
    let test_opts = audit::AuditOptions {
        time: opts.time.min(Duration::from_secs(20)),
        ..opts.clone()
    };
    crate::cli::write_stderr(format_args!(
        "audit --package {}: problem {id}, {} tests, {} submissions, seed {seed}, {:.1} s search each\n",
        dir.display(),
        tests.len(),
        subs.len(),
        args.time
    ));
    let hidden = ProgressBar::hidden();
    let limits = compile::BuildLimits {
        time: Duration::from_secs_f64(args.compile_time),
        memory: args.compile_memory,
        env: args.env.clone(),
    };
    let mut outcomes = Vec::new();
    for s in &subs {
        // The submission sees its own input only: the package (its answers) is
        // hidden from it.
        let built = compile::build(&s.source, Vec::new(), args.sanitize, &limits)
            .map_err(|e| anyhow!("{}: {e}", s.name))?
            .hiding(vec![dir.to_path_buf()]);
        let contestant: &dyn Contestant = &built;
        let mut failed = None;
        let mut passed = 0;
        for (t, cases) in tests.iter().zip(&inputs) {
            let r = audit::audit_input(p, contestant, &test_opts, cases.clone(), &hidden)
                .map_err(audit_error)?;
            if r.verdict != Verdict::Ok {
                failed = Some((t.name.clone(), r));
                break;
            }
            passed += 1;
        }
        let search = audit::audit(p, contestant, &opts, &hidden).map_err(audit_error)?;
        let tests_verdict = failed.as_ref().map_or(Verdict::Ok, |(_, r)| r.verdict);
        let minimal = |r: &Report| r.counterexample.as_ref().map(|c| c.input.clone());
        let (finding, add) = if s.expect.wrong(tests_verdict) {
            let (name, r) = failed.as_ref().expect("failed");
            (
                Some(format!("{} on package test {name}", r.verdict.name())),
                minimal(r),
            )
        } else if s.expect.wrong(search.verdict) {
            (
                Some(format!(
                    "{} found by sgcheck's search",
                    search.verdict.name()
                )),
                minimal(&search),
            )
        } else if matches!(s.expect, Expect::Accepted | Expect::BruteForce)
            || s.expect.caught_by(tests_verdict)
        {
            (None, None)
        } else if s.expect.caught_by(search.verdict) || search.verdict != Verdict::Ok {
            (
                Some(format!(
                    "not caught by the package's tests (they give {}); sgcheck's search finds {}",
                    tests_verdict.name(),
                    search.verdict.name()
                )),
                minimal(&search),
            )
        } else {
            (
                Some(format!(
                    "not caught: passes the package's tests ({}) and sgcheck's search",
                    tests_verdict.name()
                )),
                None,
            )
        };
        outcomes.push(Outcome {
            name: s.name.clone(),
            expect: s.expect,
            tests: failed,
            passed,
            search,
            finding,
            add,
        });
    }
    let mut added = Vec::new();
    if args.add_tests {
        added = add_tests(p, dir, &outcomes)?;
    }
    let found = Found {
        skipped: &skipped,
        refused: &refused,
        bad_answers: &bad_answers,
        added: &added,
    };
    if args.json {
        let j = json(id, &tests, &outcomes, &found);
        crate::cli::write_stdout(format_args!("{}\n", serde_json::to_string_pretty(&j)?));
    } else {
        let text = render(id, tests.len(), &outcomes, &found);
        crate::cli::write_stdout(format_args!("{text}"));
    }
    let findings = outcomes.iter().any(|o| o.finding.is_some())
        || !bad_answers.is_empty()
        || !refused.is_empty();
    Ok(if findings { EXIT_FAILURE } else { EXIT_OK })
}

/// Writes each minimal input found into `data/secret/sgcheck/NN.in` (and `.ans`), after
/// the ones already there; the same input is never added twice.
fn add_tests(p: &Declared, dir: &Path, outcomes: &[Outcome]) -> anyhow::Result<Vec<PathBuf>> {
    let gdir = dir.join("data/secret").join(FOUND_GROUP);
    let mut existing = Vec::new();
    let mut next = 1;
    if let Ok(rd) = std::fs::read_dir(&gdir) {
        for e in rd.filter_map(|e| e.ok()) {
            let name = e.file_name().to_string_lossy().into_owned();
            if let Some(stem) = name.strip_suffix(".in") {
                if let Ok(n) = stem.parse::<usize>() {
                    next = next.max(n + 1);
                }
                existing.push(std::fs::read_to_string(e.path()).unwrap_or_default());
            }
        }
    }
    let mut added = Vec::new();
    for o in outcomes {
        let Some(input) = &o.add else { continue };
        if existing.contains(input) {
            continue;
        }
        let cases = p
            .parse(input, false)
            .map_err(|e| anyhow!("internal error: a minimal input does not parse: {e}"))?;
        ensure_dir(&gdir)?;
        let base = gdir.join(format!("{next:02}"));
        crate::cli::audit::write_safely(&base.with_extension("in"), input.as_bytes())?;
        // A counterexample has expected answers (the audit judged it with them).
        let ans = solve_fast(p, &cases).map_err(|(i, why)| {
            anyhow!(
                "the declaration could not answer case {} of a counterexample: {why}",
                i + 1
            )
        })?;
        crate::cli::audit::write_safely(&base.with_extension("ans"), ans.as_bytes())?;
        existing.push(input.clone());
        added.push(base.with_extension("in"));
        next += 1;
    }
    Ok(added)
}

fn expect_name(e: Expect) -> &'static str {
    match e {
        Expect::Accepted => "accepted",
        Expect::WrongAnswer => "wrong-answer",
        Expect::TimeLimit => "time-limit",
        Expect::RuntimeError => "runtime-error",
        Expect::BruteForce => "brute-force",
        Expect::Rejected => "rejected",
    }
}

/// What the report says beside the submissions.
struct Found<'a> {
    skipped: &'a [(String, String)],
    refused: &'a [(String, String)],
    bad_answers: &'a [String],
    added: &'a [PathBuf],
}

fn render(id: &str, ntests: usize, outcomes: &[Outcome], found: &Found<'_>) -> String {
    let Found {
        skipped,
        refused,
        bad_answers,
        added,
    } = *found;
    let mut s = String::new();
    let findings =
        outcomes.iter().filter(|o| o.finding.is_some()).count() + bad_answers.len() + refused.len();
    s.push_str(&format!(
        "audit --package ({id}): {} submission(s), {ntests} test(s) read and judged, {} \
         refused, {findings} finding(s)\n",
        outcomes.len(),
        refused.len()
    ));
    for o in outcomes {
        let tests = match &o.tests {
            None => format!("passes all {} tests", o.passed),
            Some((name, r)) => format!("{} on {name}", r.verdict.name()),
        };
        let mark = if o.finding.is_some() { "FINDING" } else { "ok" };
        s.push_str(&format!(
            "\n{mark}: {} (expects {}): package tests: {tests}; search: {} ({} cases)\n",
            o.name,
            expect_name(o.expect),
            o.search.verdict.name(),
            o.search.cases
        ));
        if let Some(f) = &o.finding {
            s.push_str(&format!("  {f}\n"));
        }
        let shown = match (&o.finding, &o.tests) {
            (Some(_), _) => o.add.as_ref(),
            _ => None,
        };
        if let Some(input) = shown {
            let c = [o.tests.as_ref().map(|t| &t.1), Some(&o.search)]
                .into_iter()
                .flatten()
                .filter_map(|r| r.counterexample.as_ref())
                .find(|c| &c.input == input);
            s.push_str("  minimal input:\n");
            for l in audit::abbreviate(input, 12, 120).lines() {
                s.push_str(&format!("    {l}\n"));
            }
            if let Some(c) = c {
                s.push_str(&format!("  {}\n", c.detail));
            }
        }
    }
    for (name, why) in skipped {
        s.push_str(&format!("\nskipped: {name}: {why}\n"));
    }
    for (name, why) in refused {
        s.push_str(&format!("\nFINDING: test {name} refused: {why}\n"));
    }
    for b in bad_answers {
        s.push_str(&format!("\nFINDING: {b}\n"));
    }
    for a in added {
        s.push_str(&format!("added: {}\n", a.display()));
    }
    s
}

fn json(
    id: &str,
    tests: &[PackageTest],
    outcomes: &[Outcome],
    found: &Found<'_>,
) -> serde_json::Value {
    let Found {
        skipped,
        refused,
        bad_answers,
        added,
    } = *found;
    serde_json::json!({
        "problem": id,
        "tests": tests.len(),
        "refused": refused.iter().map(|(n, w)| serde_json::json!({"name": n, "why": w})).collect::<Vec<_>>(),
        "submissions": outcomes.iter().map(|o| serde_json::json!({
            "name": o.name,
            "expects": expect_name(o.expect),
            "tests_verdict": o.tests.as_ref().map_or("ok", |t| t.1.verdict.name()),
            "failed_test": o.tests.as_ref().map(|t| t.0.clone()),
            "tests_passed": o.passed,
            "search_verdict": o.search.verdict.name(),
            "search_cases": o.search.cases,
            "finding": o.finding,
            "minimal_input": o.add,
        })).collect::<Vec<_>>(),
        "skipped": skipped.iter().map(|(n, w)| serde_json::json!({"name": n, "why": w})).collect::<Vec<_>>(),
        "bad_answers": bad_answers,
        "added": added.iter().map(|p| p.display().to_string()).collect::<Vec<_>>(),
    })
}
