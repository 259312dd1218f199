//! `sgcheck audit`: run someone's program on many valid inputs of a problem, find an
//! input on which it fails, and shrink that input to a minimal one.
//!
//! The search ([`source`]) goes smallest-first through every tiny case, interleaved
//! with random cases of growing size and cases at the limits (one batch in four while
//! tiny cases last, then all). The order of batches depends only on the seed, and the
//! first failing batch in that order wins, so an audit is reproducible from its seed
//! (given the time to get as far). Cases are *batched*: as
//! many as the format allows go into one input ([`Problem::max_cases`]), because
//! starting a process costs far more than answering one more case. Batches run in
//! parallel (`jobs`). The expected answers come from the fast solver, cross-checked
//! with the exhaustive oracle on small cases (a disagreement there is a bug in
//! sgcheck, reported as [`AuditError::OracleMismatch`]).
//!
//! Batches are sized from the measured time per case (starting small and doubling),
//! so that a slow program is not made to time out by the batching alone.
//!
//! A failing batch is then triaged and shrunk (`shrink`): its cases are run alone,
//! and every *kind* of failure met (wrong answer, crash, time-out, ...) is shrunk on
//! its own by delta debugging over cases and values, to a 1-minimal input where time
//! allows. The smallest of them is the report's counterexample; all are listed. Every
//! candidate is a complete input, its cases numbered from 0, so answers that print
//! the case number (`Game 1:`) stay right.
//!
//! Programs are run through the [`Contestant`] trait ([`runner`]), so the whole
//! search-and-shrink logic is tested in process with fakes.

use crate::games::declared::Claim;
use crate::problems::{choice, Problem};
use indicatif::ProgressBar;
use serde::Serialize;
use std::fmt;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Mutex, PoisonError};
use std::time::{Duration, Instant};

mod boundary;
pub mod compare;
pub mod compile;
pub mod runner;
pub mod sandbox;
mod search;
mod shrink;
pub(crate) use search::*;
pub mod source;

pub use compare::{CompareMode, Mismatch};
pub use runner::{
    install_interrupt_handler, Contestant, Exit, FnContestant, ProcessContestant, RawFnContestant,
    RunError, RunLimits, RunResult,
};

/// Largest single-case input (in bytes) handed to [`Problem::shrink`]. Shrink
/// candidates are whole copies of the case, so their memory is the case's times their
/// number (bounded for long lists, about 130 of them: [`crate::problems::shrink_piles`]);
/// 64 KiB takes p2197's largest case (10^4 piles, where "largest n" bugs show). A
/// larger failing case is cut by [`Problem::halves`] where the problem has them, else
/// replaced by a smaller random one that fails the same way, when one can be found,
/// else reported as found (not minimal).
pub const SHRINK_CASE_MAX_BYTES: usize = 64 * 1024;
/// Largest single-case input (in bytes) whose answer is cross-checked by the oracle.
pub const ORACLE_MAX_BYTES: usize = 48;
/// Default oracle budget (positions) of the cross-check; cases that need more are
/// simply not cross-checked.
pub const DEFAULT_ORACLE_BUDGET: usize = 5_000;
/// Most of the audit's wall time the oracle cross-check may take (it is a safety
/// net for sgcheck's own solvers, which `sgcheck verify` tests far more thoroughly).
pub const ORACLE_TIME_SHARE: f64 = 0.1;
/// Seconds of oracle cross-checking always allowed on top of [`ORACLE_TIME_SHARE`], so
/// the first (smallest) cases are always cross-checked.
pub const ORACLE_FREE_SECONDS: f64 = 0.25;
/// Oracle budget for confirming the expected output of the final wrong-answer
/// counterexample (once per audit, so it can be generous).
pub const CONFIRM_BUDGET: usize = sgcheck_oracles::DEFAULT_BUDGET;
/// Largest single-case input (in bytes) of a final wrong-answer counterexample whose
/// expected output is confirmed by the oracle: the oracle's moves are whole copies of
/// the position, so a case of thousands of piles would take gigabytes before its
/// budget stops it.
pub const CONFIRM_MAX_BYTES: usize = 1024;
/// The share of `--time` that shrinking a failure, and then confirming its expected
/// answers, each get at least, when the search found it late: with a run in flight at
/// each end, an audit ends within `--time` plus twice this share (10%) plus one run
/// (at most `--wall-timeout`). Confirming uses what is left of the budget otherwise: a
/// query cut by it leaves its case unconfirmed, never blamed on the program. (A
/// failing package test of a hundred trees of a thousand vertices each took the tree
/// oracle 76 s when nothing cut it.)
pub const FINISH_FLOOR: f64 = 0.05;
/// The time checking the claims of a declaration behind an expected answer the oracle
/// contradicts is given (the audit ends with that finding).
pub const CLAIM_TIME: Duration = Duration::from_secs(2);
/// Most input bytes in one batch (a single larger case still runs alone).
pub const BATCH_MAX_BYTES: usize = 4 << 20;
/// Most bytes of the actual output kept in a [`Counterexample`] (the `--save`d
/// `.out` file has all of it).
pub const REPORT_OUTPUT_MAX: usize = 64 * 1024;
/// Cases in the first batches of the search; batch `s` holds at most this times 2^s
/// (and at most what the measured time per case allows), so a slow program is
/// measured on small batches before it gets large ones.
pub const FIRST_BATCH_CASES: usize = 8;
/// Share of `--timeout` a batch is sized to take, from the measured time per case:
/// well under the limit, so batching alone does not make a program time out.
pub const BATCH_TIME_SHARE: f64 = 0.2;
/// Most cases of a failing batch run alone before shrinking (smallest first), to find
/// failures of other kinds hidden by the batch's.
pub const TRIAGE_MAX_CASES: usize = 64;

/// How an audit runs.
#[derive(Clone, Debug)]
pub struct AuditOptions {
    /// Seed of every random choice; the same seed gives the same inputs.
    pub seed: u64,
    /// Wall-time budget of the search. Shrinking a failure found late may take up to
    /// half of it again.
    pub time: Duration,
    /// Stop after this many cases (searching only; shrinking comes on top).
    pub max_cases: Option<u64>,
    /// Programs running at once.
    pub jobs: usize,
    /// Limits of each run (one run = one input = one batch of cases).
    pub limits: RunLimits,
    /// Token or byte comparison.
    pub mode: CompareMode,
    /// Put several cases in one input where the format allows it.
    pub batch: bool,
    /// Oracle budget of the cross-check (0 disables it).
    pub oracle_budget: usize,
    /// The program was built from source with sanitizers (`--sanitize`): `limits`
    /// already hold the longer time limit ([`compile::sanitized_limits`]); the
    /// reproduce line gives `--timeout` without it.
    pub sanitize: bool,
    /// Shrink with the game's help where the problem gives component values (see
    /// `docs/src/shrinking.md`); `false` leaves the format-level steps alone (to
    /// compare the two).
    pub game_aware: bool,
}

impl Default for AuditOptions {
    fn default() -> Self {
        AuditOptions {
            seed: 0,
            time: Duration::from_secs(10),
            max_cases: None,
            jobs: std::thread::available_parallelism().map_or(1, |n| n.get()),
            limits: RunLimits::default(),
            mode: CompareMode::Tokens,
            batch: true,
            oracle_budget: DEFAULT_ORACLE_BUDGET,
            sanitize: false,
            game_aware: true,
        }
    }
}

/// The outcome of an audit (and the class of a failure).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Verdict {
    /// No failure within the budget.
    Ok,
    /// The output differs from the expected answers.
    WrongAnswer,
    /// Non-zero exit or killed by a signal.
    RuntimeError,
    /// No exit within the time limit.
    TimeLimit,
    /// More output than the output limit.
    OutputLimit,
    /// More resident memory than the memory limit.
    MemoryLimit,
    /// The output differs from an expected answer that rests on a claim of the
    /// declaration (a closed form) which neither the oracle nor the mex table could
    /// confirm: the program or the claim is wrong, and which is not known.
    Unconfirmed,
}

impl Verdict {
    /// The kebab-case name (`wrong-answer`), as in the JSON report.
    pub fn name(self) -> &'static str {
        match self {
            Verdict::Ok => "ok",
            Verdict::WrongAnswer => "wrong-answer",
            Verdict::RuntimeError => "runtime-error",
            Verdict::TimeLimit => "time-limit",
            Verdict::OutputLimit => "output-limit",
            Verdict::MemoryLimit => "memory-limit",
            Verdict::Unconfirmed => "unconfirmed",
        }
    }
}

impl fmt::Display for Verdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// One failed run, judged.
#[derive(Clone, Debug)]
pub(crate) struct Failure {
    pub kind: Verdict,
    pub detail: String,
    pub mismatch: Option<Mismatch>,
    pub stdout: Vec<u8>,
    pub stderr: Vec<u8>,
}

/// Judges a run against the expected answers; `None` when it passed. Takes the run by
/// value: its output moves into the failure, never copied.
pub(crate) fn judge(
    r: RunResult,
    expected: &[Vec<String>],
    mode: CompareMode,
    limits: &RunLimits,
) -> Option<Failure> {
    let (kind, detail, mismatch) = if r.timed_out {
        (Verdict::TimeLimit, time_limit_detail(&r, limits), None)
    } else if r.output_truncated {
        (
            Verdict::OutputLimit,
            format!(
                "more than {} bytes of output; killed with everything it started",
                limits.output_limit
            ),
            None,
        )
    } else if r.memory_exceeded {
        (
            Verdict::MemoryLimit,
            format!(
                "more than {} of resident memory (peak seen: {}); killed",
                runner::format_size(limits.memory_limit),
                runner::format_size(r.peak_memory)
            ),
            None,
        )
    } else if r.process_limit_exceeded {
        (
            Verdict::RuntimeError,
            format!(
                "more than {} processes at once (--process-limit); killed",
                limits.process_limit
            ),
            None,
        )
    } else if !r.exit.success() {
        let detail = match sanitizer_message(&r.stderr) {
            Some(m) => format!("{}: {m}", r.exit),
            None if r.exit == Exit::Signal(libc::SIGXFSZ) => format!(
                "{}: wrote a file past the file size limit (--file-limit {})",
                r.exit,
                runner::format_size(limits.file_limit)
            ),
            None => r.exit.to_string(),
        };
        (Verdict::RuntimeError, detail, None)
    } else {
        let m = match &r.stdout_spill {
            None => compare::compare(expected, &r.stdout, mode)?,
            Some(spill) if expected.iter().flatten().any(|l| choice::has_set(l)) => {
                // Sets of accepted answers are matched on the whole output, read back
                // (it is bounded by the output limit).
                let mut all = r.stdout.clone();
                let _ = spill.for_each_chunk(|c| {
                    all.extend_from_slice(c);
                    true
                });
                compare::compare(expected, &all, mode)?
            }
            Some(spill) => {
                // Compared as it streams from the file: memory stays bounded.
                let mut s = compare::StreamCompare::new(expected, mode);
                s.feed(&r.stdout);
                let _ = spill.for_each_chunk(|c| {
                    s.feed(c);
                    !s.differs()
                });
                s.finish()?
            }
        };
        (Verdict::WrongAnswer, m.describe(), Some(m))
    };
    let mut stdout = r.stdout;
    if stdout.len() > FAILURE_OUTPUT_MAX {
        // A failure is held while shrinking and in the report, in several copies:
        // its first MiB tells what went wrong (a flood is judged by its size).
        stdout.truncate(FAILURE_OUTPUT_MAX);
        stdout.shrink_to_fit();
    }
    Some(Failure {
        kind,
        detail,
        mismatch,
        stdout,
        stderr: r.stderr,
    })
}

/// What a time-out report says: which limit was reached, the CPU and wall time of the
/// run, and whether it was confirmed by a run with no other run going.
fn time_limit_detail(r: &RunResult, limits: &RunLimits) -> String {
    let cpu = r.cpu_time.as_secs_f64();
    let wall = r.elapsed.as_secs_f64();
    let by_wall = r.elapsed >= limits.wall_limit() && r.cpu_time <= limits.timeout;
    let mut s = if !by_wall {
        format!(
            "more than {:.3} s of CPU time ({cpu:.3} s of CPU, {wall:.3} s of wall time); \
             killed with everything it started",
            limits.timeout.as_secs_f64()
        )
    } else {
        format!(
            "still running after {wall:.3} s of wall time (--wall-timeout {:.3}), having \
             used {cpu:.3} s of CPU time (it sleeps, waits, or did not get the CPU); \
             killed with everything it started",
            limits.wall_limit().as_secs_f64()
        )
    };
    if r.confirmed_alone {
        s.push_str("; the same when run again with no other run going");
    }
    s
}

/// Most bytes of a failing run's output kept with the failure (for the report and the
/// `--save`d `.out`).
pub const FAILURE_OUTPUT_MAX: usize = 1 << 20;

/// The first report of a sanitizer in a program's standard error, or of a Rust panic
/// (overflow checks): `signed integer overflow: 2147483647 + 1 cannot be represented
/// in type 'int'`, `AddressSanitizer: heap-buffer-overflow on address ...`,
/// `attempt to add with overflow`.
pub fn sanitizer_message(stderr: &[u8]) -> Option<String> {
    let text = String::from_utf8_lossy(stderr);
    let mut lines = text.lines();
    while let Some(line) = lines.next() {
        if let Some(i) = line.find("runtime error: ") {
            return Some(line[i + "runtime error: ".len()..].trim().to_string());
        }
        if let Some(i) = line.find("ERROR: ") {
            let rest = line[i + "ERROR: ".len()..].trim();
            if rest.contains("Sanitizer") {
                return Some(rest.to_string());
            }
        }
        if line.starts_with("thread '") && line.contains("panicked at") {
            // Rust 1.73+: the message is on the next line.
            return lines.next().map(|m| m.trim().to_string());
        }
    }
    None
}

/// A time-out that only a batch of several cases shows: each case alone and every
/// smaller batch tried passes. The program is slow per case, not stuck on one input.
#[derive(Clone, Debug, Serialize)]
pub struct BatchOnly {
    /// Cases in the batch that timed out.
    pub cases: usize,
    /// Time per case measured during the audit (seconds).
    pub seconds_per_case: f64,
    /// The time limit of one run (seconds).
    pub timeout: f64,
}

/// The minimal failing input and what the program did on it.
#[derive(Clone, Debug, Serialize)]
pub struct Counterexample {
    /// The kind of failure.
    pub verdict: Verdict,
    /// The input, in the problem's format.
    pub input: String,
    /// The expected output (fast solver).
    pub expected: String,
    /// The program's output (at most [`REPORT_OUTPUT_MAX`] bytes, lossy UTF-8).
    pub actual: String,
    /// Smaller failing inputs accepted while shrinking (isolating the failing case
    /// of a batch counts too).
    pub shrink_steps: u64,
    /// Runs spent shrinking this failure.
    pub shrink_runs: u64,
    /// True when no shrink candidate of any kind fails any more: `1-minimal` or
    /// `minimal` in [`Counterexample::minimality`]; false when the shrink budget ran
    /// out first (`not-minimal`).
    pub minimal: bool,
    /// What "minimal" means for this input, and how far smaller inputs were checked.
    pub minimality: Minimality,
    /// Set when only a batch times out (its cases pass alone): a time-out made by
    /// batching slow cases, not a time limit of one input.
    pub batch_only: Option<BatchOnly>,
    /// Cases in the input.
    pub cases: usize,
    /// What went wrong, in words: the exit code or signal, the first difference.
    pub detail: String,
    /// The first difference, for `wrong-answer`.
    pub mismatch: Option<Mismatch>,
    /// The start of the program's standard error (lossy UTF-8).
    pub stderr: String,
    /// The program's output, bytes as printed, at most [`FAILURE_OUTPUT_MAX`] (for
    /// `--save`).
    #[serde(skip)]
    pub actual_bytes: Vec<u8>,
}

/// How minimal a counterexample is (see `docs/src/shrinking.md`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum MinimalityKind {
    /// 1-minimal, and every valid input smaller than it (by size, up to
    /// [`Minimality::checked_up_to`]; of several cases too when the format allows
    /// several) was run and passes.
    Minimal,
    /// No single shrink step fails any more, but smaller inputs were not all checked
    /// (the check's budget ran out, or the problem has no order of sizes).
    #[serde(rename = "1-minimal")]
    OneMinimal,
    /// The shrink budget ran out before a whole round of steps found nothing smaller.
    NotMinimal,
}

impl MinimalityKind {
    /// The name, as in the JSON report (`minimal`, `1-minimal`, `not-minimal`).
    pub fn name(self) -> &'static str {
        match self {
            MinimalityKind::Minimal => "minimal",
            MinimalityKind::OneMinimal => "1-minimal",
            MinimalityKind::NotMinimal => "not-minimal",
        }
    }
}

/// The minimality of a counterexample and the bound it holds up to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Minimality {
    /// `minimal`, `1-minimal` or `not-minimal`.
    pub kind: MinimalityKind,
    /// The size of the counterexample: its cases' sizes ([`Problem::case_size`]: how
    /// far their numbers and lengths are above their minimums) plus one for each case
    /// beyond the first, when the problem has sizes.
    pub size: Option<u64>,
    /// Every valid input of at most this size was run and passes (`null` when none
    /// was checked): of one case, and of several when [`Minimality::several_cases`].
    pub checked_up_to: Option<u64>,
    /// Every valid one-case input of at most this size was run and passes (at least
    /// `checked_up_to`: inputs of several cases are many more, one a run).
    pub one_case_checked_up_to: Option<u64>,
    /// True when the format allows several cases and inputs of several cases were
    /// enumerated (up to `checked_up_to`); false when the format holds one case.
    pub several_cases: bool,
    /// True when `checked_up_to` is `size - 1`: no smaller input fails at all.
    pub complete: bool,
    /// One-case inputs the check ran (in batches).
    pub checked_cases: u64,
    /// Runs the check took.
    pub checked_runs: u64,
}

/// The result of an audit: the JSON document of `audit --json`.
#[derive(Clone, Debug, Serialize)]
pub struct Report {
    /// The problem id.
    pub problem: String,
    /// `ok` or the class of the failure found.
    pub verdict: Verdict,
    /// Cases given to the program (search and shrinking).
    pub cases: u64,
    /// Program runs (search and shrinking).
    pub runs: u64,
    /// Wall time of the whole audit.
    pub seconds: f64,
    /// The seed used.
    pub seed: u64,
    /// The smallest failing input found (of any kind); `null` when the verdict is `ok`.
    pub counterexample: Option<Counterexample>,
    /// Every kind of failure found, each with its own minimal input, smallest first
    /// (the first is `counterexample`).
    pub failures: Vec<Counterexample>,
    /// Runs after the search: running the cases of a failing batch alone, and
    /// shrinking every failure.
    pub shrink_runs: u64,
    /// The command audited.
    pub command: String,
    /// A command line that repeats this audit.
    pub reproduce: String,
    /// Cases per second during the search (the throughput figure).
    pub cases_per_second: f64,
    /// Cases checked during the search.
    pub search_cases: u64,
    /// Runs during the search (the rest isolated and shrank the failure).
    pub search_runs: u64,
    /// Wall time of the search.
    pub search_seconds: f64,
    /// Cases whose expected answer was cross-checked with the oracle.
    pub oracle_checks: u64,
    /// The problem's known answers (statement samples) run by the search, one input
    /// each, right after its first batch of tiny cases; each checked first against the
    /// problem's own answers.
    pub samples: u64,
    /// Cases the problem could not answer (its declaration failed on them, or
    /// refused them): left out, never given an expected answer.
    pub unanswerable: u64,
    /// The first of them (its input, one line) and why.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub first_unanswerable: Option<String>,
    /// Programs run at once.
    pub jobs: usize,
    /// Whether cases were batched.
    pub batched: bool,
    /// How the program was built, when it was given as a source file.
    pub build: Option<Build>,
    /// How the runs were contained (`namespaces` or `subreaper`, see
    /// [`sandbox::Containment`]); `null` for an in-process contestant.
    pub containment: Option<String>,
    /// How the memory limit was enforced (`cgroup-v1`, `cgroup-v2` or `polling`, see
    /// [`sandbox::MemoryEnforcement`]); `null` for an in-process contestant.
    pub memory_enforcement: Option<String>,
}

/// How a source file was built for the audit.
#[derive(Clone, Debug, Serialize)]
pub struct Build {
    /// The source file as given.
    pub source: String,
    /// The language, from the file's extension.
    pub language: String,
    /// The compile command, as a user would type it (empty for interpreted code).
    pub compile: String,
    /// How to run the built program on an input.
    pub run: String,
    /// Built with sanitizers.
    pub sanitized: bool,
}

/// Why an audit could not complete.
#[derive(Debug, thiserror::Error)]
pub enum AuditError {
    /// The program could not be run at all.
    #[error(transparent)]
    Run(#[from] RunError),
    /// The fast solver and the oracle disagree: a bug in sgcheck, not in the program.
    #[error(
        "INTERNAL ERROR (a bug in sgcheck, not in the audited program): the fast solver \
         and the oracle disagree on case {index} of this input:\n{input}\nfast:   {fast}\n\
         oracle: {oracle}\nplease report it with this input"
    )]
    OracleMismatch {
        /// The single-case input.
        input: String,
        /// Case number (from 1) the answers were computed for.
        index: usize,
        /// The fast solver's answer lines.
        fast: String,
        /// The oracle's answer lines.
        oracle: String,
    },
    /// An expected answer rests on a claim of the declaration (a closed form) that an
    /// independent computation shows wrong: the declaration's error, which no program
    /// is judged against.
    #[error(
        "the declaration is wrong, not the audited program: its closed form disagrees with \
         its rules on case {index} of this input:\n{input}\n{why}\nno program is judged \
         against it; `sgcheck verify --problem` on the declaration shows more"
    )]
    WrongClaim {
        /// The single-case input.
        input: String,
        /// Case number (from 1).
        index: usize,
        /// Where and how the claim is wrong.
        why: String,
    },
    /// A known answer of the problem (a statement sample) that its own answers do not
    /// give: the declaration's error (or the sample's), which no program is judged
    /// against.
    #[error(
        "the declaration does not give the statement's answer to {name}: {why}no program \
         is judged against it; fix the declaration (or the sample), and `sgcheck verify \
         --problem` checks it again"
    )]
    WrongSample {
        /// The sample's name.
        name: String,
        /// What differs.
        why: String,
    },
}

#[derive(Default)]
pub(crate) struct Stats {
    pub cases: AtomicU64,
    pub runs: AtomicU64,
    pub oracle_checks: AtomicU64,
    pub oracle_nanos: AtomicU64,
    pub samples: AtomicU64,
    /// Cases the problem could not answer (see [`Problem::answer`]), and the first.
    pub unanswerable: AtomicU64,
    pub first_unanswerable: Mutex<Option<String>>,
    pub timing: Mutex<Timing>,
}

/// Audits `contestant` on problem `p`: searches for a failing input within the
/// budget, shrinks every kind of failure found, and reports. `Err` only when the
/// program cannot be started or sgcheck's own solvers disagree.
pub fn audit<P: Problem, C: Contestant + ?Sized>(
    p: &P,
    contestant: &C,
    opts: &AuditOptions,
    progress: &ProgressBar,
) -> Result<Report, AuditError> {
    let ctx = Ctx {
        p,
        c: contestant,
        opts,
        stats: Stats::default(),
        progress,
        start: Instant::now(),
    };
    let samples = checked_samples(&ctx)?;
    let found = search(&ctx, samples)?.map(|(_, cases, f)| (cases, f));
    finish(&ctx, found)
}

/// The inputs of the problem's known answers ([`Problem::samples`]), each sample's
/// cases, for the search to run right after its first batch. Each sample's output must
/// be the problem's own answer first (compared token by token); when it is not, the
/// declaration (or the statement's reading of it) is wrong, and no program is judged.
/// A sample the problem cannot answer is counted as unanswerable and left out.
fn checked_samples<P: Problem, C: Contestant + ?Sized>(
    ctx: &Ctx<'_, P, C>,
) -> Result<Vec<Vec<P::Case>>, AuditError> {
    let mut out = Vec::new();
    for k in ctx.p.samples() {
        let cases = ctx
            .p
            .parse(&k.input, false)
            .map_err(|e| AuditError::WrongSample {
                name: k.name.clone(),
                why: format!("its input does not read: {e}\n"),
            })?;
        if cases.is_empty() {
            continue;
        }
        let Some(expected) =
            sgcheck_oracles::with_deadline(ctx.start + ctx.opts.time, || ctx.expected(&cases))
        else {
            continue;
        };
        if compare::compare(&expected, k.output.as_bytes(), CompareMode::Tokens).is_some() {
            return Err(AuditError::WrongSample {
                name: k.name.clone(),
                why: format!(
                    "on its input\n{}the statement's output is\n{}but the problem's answer is\n{}",
                    shown_block(&k.input),
                    shown_block(&k.output),
                    shown_block(
                        &expected
                            .iter()
                            .flatten()
                            .map(|l| format!("{}\n", choice::shown(l)))
                            .collect::<String>()
                    )
                ),
            });
        }
        out.push(cases);
    }
    Ok(out)
}

/// `text` indented, each line ending in a newline.
fn shown_block(text: &str) -> String {
    text.lines().map(|l| format!("    {l}\n")).collect()
}

/// Runs `contestant` on the given input (`cases`, e.g. a test the program failed on a
/// judge) and, if it fails, shrinks it like a failure found by [`audit`]: every kind of
/// failure met, each to its own minimal input. No search; the verdict is `ok` when the
/// program passes on it.
pub fn audit_input<P: Problem, C: Contestant + ?Sized>(
    p: &P,
    contestant: &C,
    opts: &AuditOptions,
    cases: Vec<P::Case>,
    progress: &ProgressBar,
) -> Result<Report, AuditError> {
    let ctx = Ctx {
        p,
        c: contestant,
        opts,
        stats: Stats::default(),
        progress,
        start: Instant::now(),
    };
    let found = ctx.run_cases(&cases)?.map(|f| (cases, f));
    finish(&ctx, found)
}

/// Checks a counterexample's claim to be `minimal` on its own, one input a run: the
/// claimed size is the input's size, `complete` agrees with the bound, and every valid
/// input of size at most `checked_up_to` (and below the input's) passes, of one case
/// or several (see `docs/src/shrinking.md` for the order), and every one-case input up
/// to `one_case_checked_up_to`. Claims other than `minimal` hold trivially. `Err` says which part of
/// the claim is false (the first smaller input that fails, say); at most `max_cases`
/// inputs of one size are run.
pub fn verify_minimality<P: Problem, C: Contestant + ?Sized>(
    p: &P,
    contestant: &C,
    opts: &AuditOptions,
    cases: &[P::Case],
    m: &Minimality,
    max_cases: usize,
) -> Result<(), String> {
    if m.kind != MinimalityKind::Minimal {
        return Ok(());
    }
    let size = shrink::input_size(p, cases);
    if size != m.size || size.is_none() {
        return Err(format!(
            "claimed size {:?}, the input's is {size:?}",
            m.size
        ));
    }
    if m.several_cases != (p.max_cases() > 1) && m.checked_up_to.is_some() {
        return Err(format!(
            "claimed several_cases {}, but the format holds {} case(s)",
            m.several_cases,
            p.max_cases()
        ));
    }
    let size = size.unwrap_or(0);
    let Some(up_to) = m.checked_up_to.or((size == 0).then_some(0)) else {
        return Err("claimed minimal with no bound checked".into());
    };
    if m.complete && up_to + 1 < size {
        return Err(format!(
            "claimed complete, but checked only up to size {up_to} of {size}"
        ));
    }
    let one_up_to = m.one_case_checked_up_to.unwrap_or(up_to);
    if one_up_to < up_to && size > 0 {
        return Err(format!(
            "claimed one-case inputs up to size {one_up_to}, below all inputs' {up_to}"
        ));
    }
    for s in 0..=one_up_to.min(size.saturating_sub(1)) {
        if size == 0 {
            break;
        }
        let several = if s <= up_to {
            shrink::multi_case_inputs(p, s, max_cases)
        } else {
            Some(Vec::new())
        };
        let (Some(one), Some(several)) = (p.all_cases_of_size(s, max_cases), several) else {
            return Err(format!(
                "more than {max_cases} inputs of size {s}: not verified"
            ));
        };
        let inputs = one.into_iter().map(|c| vec![c]).chain(several);
        for smaller in inputs {
            let input = p.write_input(&smaller);
            let expected: Vec<Vec<String>> = smaller
                .iter()
                .enumerate()
                .map(|(i, c)| p.answer(c, i))
                .collect::<Result<_, _>>()
                .map_err(|e| {
                    format!("a smaller input of size {s} has no expected answer ({e}): {input:?}")
                })?;
            let r = contestant
                .run(input.as_bytes(), &opts.limits)
                .map_err(|e| e.to_string())?;
            if let Some(f) = judge(r, &expected, opts.mode, &opts.limits) {
                return Err(format!(
                    "a smaller input of size {s} fails ({}): {input:?}",
                    f.kind
                ));
            }
        }
    }
    Ok(())
}

/// Shrinks what the search found (if anything) and writes the report.
fn finish<P: Problem, C: Contestant + ?Sized>(
    ctx: &Ctx<'_, P, C>,
    found: Option<shrink::Failing<P::Case>>,
) -> Result<Report, AuditError> {
    let (p, opts) = (ctx.p, ctx.opts);
    let search_seconds = ctx.start.elapsed().as_secs_f64();
    let search_cases = ctx.stats.cases.load(Ordering::Relaxed);
    let search_runs = ctx.stats.runs.load(Ordering::Relaxed);

    let mut failures = Vec::new();
    if let Some((cases, failure)) = found {
        // Shrinking uses what is left of the budget, and at least FINISH_FLOOR of it;
        // the expected answers it needs are cut there too.
        let deadline =
            (ctx.start + opts.time).max(Instant::now() + opts.time.mul_f64(FINISH_FLOOR));
        let shrunk =
            sgcheck_oracles::with_deadline(deadline, || shrink_all(ctx, cases, failure, deadline))?;
        for s in shrunk {
            // An input without an expected answer blames nobody: it is counted and
            // left out (the answers were given when it failed; a script's limit may
            // cut them now).
            let Some(expected) = ctx.expected(&s.cases) else {
                continue;
            };
            let text: String = expected
                .iter()
                .flatten()
                .map(|l| format!("{}\n", choice::shown(l)))
                .collect();
            let mut doubt = None;
            if s.failure.kind == Verdict::WrongAnswer {
                // Blame the program only on expected answers the oracle confirms, or
                // that rest on no unchecked claim of the declaration.
                let by = deadline.max(Instant::now() + opts.time.mul_f64(FINISH_FLOOR));
                doubt = ctx.confirm_expected(&s.cases, &expected, by)?;
            }
            let mut c = counterexample(ctx, s, text);
            if let Some(why) = doubt {
                c.verdict = Verdict::Unconfirmed;
                c.detail = format!(
                    "{}; the expected answer rests on the declaration's closed form, which \
                     neither the oracle nor the mex table confirmed ({why}): the program or \
                     the closed form is wrong",
                    c.detail
                );
            }
            failures.push(c);
        }
    }
    let counterexample = failures.first().cloned();
    let verdict = counterexample.as_ref().map_or(Verdict::Ok, |c| c.verdict);
    let command = ctx.c.describe();
    let id = p.info().id;
    let runs = ctx.stats.runs.load(Ordering::Relaxed);
    Ok(Report {
        problem: id.to_string(),
        verdict,
        cases: ctx.stats.cases.load(Ordering::Relaxed),
        runs,
        seconds: ctx.start.elapsed().as_secs_f64(),
        seed: opts.seed,
        counterexample,
        shrink_runs: runs - search_runs,
        failures,
        reproduce: reproduce_command(id, opts, &command),
        command,
        cases_per_second: if search_seconds > 0.0 {
            search_cases as f64 / search_seconds
        } else {
            0.0
        },
        search_cases,
        search_runs,
        search_seconds,
        oracle_checks: ctx.stats.oracle_checks.load(Ordering::Relaxed),
        samples: ctx.stats.samples.load(Ordering::Relaxed),
        unanswerable: ctx.stats.unanswerable.load(Ordering::Relaxed),
        first_unanswerable: lock(&ctx.stats.first_unanswerable).clone(),
        jobs: opts.jobs.max(1),
        batched: opts.batch && p.max_cases() > 1,
        build: None,
        containment: None,
        memory_enforcement: None,
    })
}

/// A long input cut for a text report: at most `max_lines` lines (the first ones and
/// the last few), each at most `max_width` characters, with the sizes of what was
/// left out. Short inputs come back whole.
pub fn abbreviate(text: &str, max_lines: usize, max_width: usize) -> String {
    let max_lines = max_lines.max(2);
    let line = |l: &str| -> String {
        if l.len() <= max_width {
            return l.to_string();
        }
        let head = floor_char(l, max_width * 3 / 4);
        let tail_start = ceil_char(l, l.len() - max_width / 4);
        format!(
            "{} ... ({} bytes) ... {}",
            &l[..head],
            tail_start - head,
            &l[tail_start..]
        )
    };
    let lines: Vec<&str> = text.lines().collect();
    let mut out = String::new();
    if lines.len() <= max_lines {
        for l in &lines {
            out.push_str(&line(l));
            out.push('\n');
        }
    } else {
        let tail = max_lines / 4;
        let head = max_lines - tail;
        for l in &lines[..head] {
            out.push_str(&line(l));
            out.push('\n');
        }
        let skipped = &lines[head..lines.len() - tail];
        let bytes: usize = skipped.iter().map(|l| l.len() + 1).sum();
        out.push_str(&format!(
            "... ({} lines, {bytes} bytes) ...\n",
            skipped.len()
        ));
        for l in &lines[lines.len() - tail..] {
            out.push_str(&line(l));
            out.push('\n');
        }
    }
    if out.len() < text.len() {
        out.push_str(&format!(
            "(input of {} lines, {} bytes; --save keeps it whole)\n",
            lines.len(),
            text.len()
        ));
    }
    out
}

fn floor_char(s: &str, mut i: usize) -> usize {
    while !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}

fn ceil_char(s: &str, mut i: usize) -> usize {
    while !s.is_char_boundary(i) {
        i += 1;
    }
    i
}

#[cfg(test)]
mod tests;
#[cfg(test)]
mod tests_minimal;
