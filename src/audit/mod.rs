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

use crate::problems::Problem;
use indicatif::ProgressBar;
use serde::Serialize;
use std::fmt;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Mutex, PoisonError};
use std::time::{Duration, Instant};

pub mod compare;
pub mod compile;
pub mod runner;
pub mod sandbox;
mod shrink;
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
        (
            Verdict::TimeLimit,
            format!(
                "still running after {:.3} s; killed with everything it started",
                limits.timeout.as_secs_f64()
            ),
            None,
        )
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
    /// True when no shrink candidate of any kind fails any more (1-minimal); false
    /// when the shrink budget ran out first.
    pub minimal: bool,
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
}

#[derive(Default)]
pub(crate) struct Stats {
    pub cases: AtomicU64,
    pub runs: AtomicU64,
    pub oracle_checks: AtomicU64,
    pub oracle_nanos: AtomicU64,
    pub timing: Mutex<Timing>,
}

/// What runs have shown of the program's speed.
#[derive(Default, Clone, Copy, Debug)]
pub(crate) struct Timing {
    /// Shortest run seen (process start and reading a tiny input), seconds.
    pub startup: Option<f64>,
    /// Estimated seconds per case beyond the start: jumps up to any larger
    /// measurement, decays slowly towards smaller ones.
    pub per_case: f64,
}

impl Timing {
    fn record(&mut self, elapsed: f64, cases: usize, timed_out: bool) {
        let cases = cases.max(1) as f64;
        if !timed_out {
            self.startup = Some(self.startup.map_or(elapsed, |s| s.min(elapsed)));
        }
        // At least half of a run counts as work on its cases: with few runs seen, the
        // shortest may itself be mostly work.
        let start = self.startup.unwrap_or(0.0).min(elapsed / 2.0);
        let work = (elapsed - start).max(0.0);
        let new = work / cases;
        self.per_case = if new >= self.per_case {
            new
        } else {
            0.7 * self.per_case + 0.3 * new
        };
    }
}

/// What the audit needs in one place.
pub(crate) struct Ctx<'a, P: Problem, C: Contestant + ?Sized> {
    pub p: &'a P,
    pub c: &'a C,
    pub opts: &'a AuditOptions,
    pub stats: Stats,
    pub progress: &'a ProgressBar,
    pub start: Instant,
}

impl<P: Problem, C: Contestant + ?Sized> Ctx<'_, P, C> {
    /// Expected answers, case `i` numbered `i`.
    pub fn expected(&self, cases: &[P::Case]) -> Vec<Vec<String>> {
        cases
            .iter()
            .enumerate()
            .map(|(i, c)| self.p.answer(c, i))
            .collect()
    }

    /// Runs one input made of `cases` and judges it.
    pub fn run_cases(&self, cases: &[P::Case]) -> Result<Option<Failure>, AuditError> {
        let expected = self.expected(cases);
        self.run_input(&self.p.write_input(cases), cases.len(), &expected)
    }

    /// Runs `input` (holding `count` cases) whose expected answers are known.
    pub fn run_input(
        &self,
        input: &str,
        count: usize,
        expected: &[Vec<String>],
    ) -> Result<Option<Failure>, AuditError> {
        let r = self.c.run(input.as_bytes(), &self.opts.limits)?;
        lock(&self.stats.timing).record(r.elapsed.as_secs_f64(), count, r.timed_out);
        self.stats.runs.fetch_add(1, Ordering::Relaxed);
        self.stats.cases.fetch_add(count as u64, Ordering::Relaxed);
        Ok(judge(r, expected, self.opts.mode, &self.opts.limits))
    }

    /// Cross-checks the expected answers of the small cases with the oracle, while
    /// that has taken less than [`ORACLE_TIME_SHARE`] of the time so far.
    fn oracle_check(&self, cases: &[P::Case], expected: &[Vec<String>]) -> Result<(), AuditError> {
        if self.opts.oracle_budget == 0 {
            return Ok(());
        }
        self.oracle_check_all(
            cases,
            expected,
            self.opts.oracle_budget,
            ORACLE_MAX_BYTES,
            true,
        )
    }

    /// Whether the oracle has had its share of the time.
    fn oracle_over_time(&self) -> bool {
        let spent = Duration::from_nanos(self.stats.oracle_nanos.load(Ordering::Relaxed));
        let allowed = ORACLE_TIME_SHARE * self.start.elapsed().as_secs_f64() + ORACLE_FREE_SECONDS;
        spent.as_secs_f64() > allowed
    }

    /// Cross-checks every case of at most `max_bytes` whose oracle answer fits in
    /// `budget` positions (while the oracle is within its time share, if `gated`).
    fn oracle_check_all(
        &self,
        cases: &[P::Case],
        expected: &[Vec<String>],
        budget: usize,
        max_bytes: usize,
        gated: bool,
    ) -> Result<(), AuditError> {
        for (i, (c, fast)) in cases.iter().zip(expected).enumerate() {
            if gated && self.oracle_over_time() {
                break;
            }
            let single = self.p.write_input(std::slice::from_ref(c));
            if single.len() > max_bytes {
                continue;
            }
            let t = Instant::now();
            let answer = self.p.oracle_answer(c, i, budget);
            self.stats
                .oracle_nanos
                .fetch_add(t.elapsed().as_nanos() as u64, Ordering::Relaxed);
            // Too large for the budget: not cross-checked, never counted as agreeing.
            if let Ok(oracle) = answer {
                self.stats.oracle_checks.fetch_add(1, Ordering::Relaxed);
                if &oracle != fast {
                    return Err(AuditError::OracleMismatch {
                        input: single,
                        index: i + 1,
                        fast: fast.join(" / "),
                        oracle: oracle.join(" / "),
                    });
                }
            }
        }
        Ok(())
    }

    /// Most cases for search batch number `seq`: [`FIRST_BATCH_CASES`] doubled per
    /// batch, and no more than [`BATCH_TIME_SHARE`] of the time limit at the measured
    /// time per case.
    fn batch_cap(&self, seq: u64) -> usize {
        let start = FIRST_BATCH_CASES.saturating_mul(1 << seq.min(40));
        let per_case = lock(&self.stats.timing).per_case;
        let by_time = if per_case > 0.0 {
            let n = BATCH_TIME_SHARE * self.opts.limits.timeout.as_secs_f64() / per_case;
            if n >= usize::MAX as f64 {
                usize::MAX
            } else {
                n as usize
            }
        } else {
            usize::MAX
        };
        start.min(by_time).max(1)
    }

    fn progress_line(&self, what: &str) {
        let cases = self.stats.cases.load(Ordering::Relaxed);
        let runs = self.stats.runs.load(Ordering::Relaxed);
        let secs = self.start.elapsed().as_secs_f64().max(1e-9);
        self.progress.set_message(format!(
            "{what}: {cases} cases in {runs} runs ({:.0} cases/s)",
            cases as f64 / secs
        ));
    }
}

/// Locks a mutex, ignoring poisoning (a panicking worker already failed the audit).
fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

/// A failure found by the search: the batch number, its cases, the failure.
type Found<Case> = (u64, Vec<Case>, Failure);

/// The search: workers pull numbered batches; the failing batch with the smallest
/// number wins (batches before it are always finished, so the choice does not depend
/// on timing).
fn search<P: Problem, C: Contestant + ?Sized>(
    ctx: &Ctx<'_, P, C>,
) -> Result<Option<Found<P::Case>>, AuditError> {
    let opts = ctx.opts;
    let per_batch = if opts.batch {
        ctx.p.max_cases().max(1)
    } else {
        1
    };
    let source = Mutex::new(source::Source::new(ctx.p, per_batch));
    let deadline = ctx.start + opts.time;
    let stop = AtomicBool::new(false);
    let found: Mutex<Option<Found<P::Case>>> = Mutex::new(None);
    let error: Mutex<Option<AuditError>> = Mutex::new(None);

    let worker = || {
        while !stop.load(Ordering::SeqCst) {
            let batch = {
                let mut src = lock(&source);
                let now = Instant::now();
                if now >= deadline {
                    break;
                }
                let room = match opts.max_cases {
                    Some(n) if src.scheduled >= n => break,
                    Some(n) => (n - src.scheduled) as usize,
                    None => usize::MAX,
                };
                let cap = ctx.batch_cap(src.next_seq());
                src.next(true, room.min(cap))
            };
            let batch = batch.build(ctx.p, opts.seed, BATCH_MAX_BYTES);
            if batch.cases.is_empty() {
                continue;
            }
            let expected = ctx.expected(&batch.cases);
            // Only inputs of tiny cases are worth the oracle's time.
            let tiny = batch.phase == source::Phase::Enumerate || batch.scale <= 0.01;
            let outcome = if tiny {
                ctx.oracle_check(&batch.cases, &expected)
            } else {
                Ok(())
            }
            .and_then(|()| ctx.run_input(&batch.input, batch.cases.len(), &expected));
            match outcome {
                Err(e) => {
                    lock(&error).get_or_insert(e);
                    stop.store(true, Ordering::SeqCst);
                }
                Ok(None) => ctx.progress_line(batch.phase.name()),
                Ok(Some(f)) => {
                    let mut slot = lock(&found);
                    if slot.as_ref().is_none_or(|(s, _, _)| batch.seq < *s) {
                        *slot = Some((batch.seq, batch.cases, f));
                    }
                    stop.store(true, Ordering::SeqCst);
                }
            }
        }
    };
    std::thread::scope(|s| {
        for _ in 1..opts.jobs.max(1) {
            s.spawn(worker);
        }
        worker();
    });
    if let Some(e) = error.into_inner().unwrap_or_else(PoisonError::into_inner) {
        return Err(e);
    }
    Ok(found.into_inner().unwrap_or_else(PoisonError::into_inner))
}

/// A command line that repeats an audit with these options.
pub fn reproduce_command(problem: &str, opts: &AuditOptions, command: &str) -> String {
    let mut s = format!("sgcheck audit {problem} --seed {}", opts.seed);
    let d = AuditOptions::default();
    if let Some(n) = opts.max_cases {
        s.push_str(&format!(" --cases {n}"));
    }
    if opts.time != d.time {
        s.push_str(&format!(" --time {}", opts.time.as_secs_f64()));
    }
    // `--sanitize` multiplies the time limit given by `--timeout`: give it undone.
    let timeout = if opts.sanitize {
        opts.limits.timeout / compile::SANITIZE_TIME_FACTOR
    } else {
        opts.limits.timeout
    };
    if timeout != d.limits.timeout {
        s.push_str(&format!(" --timeout {}", timeout.as_secs_f64()));
    }
    if opts.limits.output_limit != d.limits.output_limit {
        s.push_str(&format!(" --output-limit {}", opts.limits.output_limit));
    }
    let memory = if opts.sanitize {
        opts.limits.memory_limit / compile::SANITIZE_MEMORY_FACTOR
    } else {
        opts.limits.memory_limit
    };
    if memory != d.limits.memory_limit {
        s.push_str(&format!(" --memory-limit {memory}"));
    }
    if let Some(stack) = opts.limits.stack_limit {
        s.push_str(&format!(" --stack-limit {stack}"));
    }
    if opts.limits.process_limit != d.limits.process_limit {
        s.push_str(&format!(" --process-limit {}", opts.limits.process_limit));
    }
    if opts.mode == CompareMode::Exact {
        s.push_str(" --exact");
    }
    if !opts.batch {
        s.push_str(" --no-batch");
    }
    if opts.sanitize {
        s.push_str(" --sanitize");
    }
    s.push_str(" -- ");
    s.push_str(command);
    s
}

fn cut(bytes: &[u8], max: usize) -> String {
    let s = String::from_utf8_lossy(&bytes[..bytes.len().min(max)]).into_owned();
    if bytes.len() > max {
        format!("{s}\n... ({} more bytes)", bytes.len() - max)
    } else {
        s
    }
}

/// Runs the cases of a failing batch alone (smallest first, at most
/// [`TRIAGE_MAX_CASES`], in parallel): the failures they show, the smallest input of
/// each kind.
fn triage<P: Problem, C: Contestant + ?Sized>(
    ctx: &Ctx<'_, P, C>,
    cases: &[P::Case],
    deadline: Instant,
) -> Result<Vec<shrink::Failing<P::Case>>, AuditError> {
    let p = ctx.p;
    let mut order: Vec<(usize, usize)> = cases
        .iter()
        .enumerate()
        .map(|(i, c)| (p.write_input(std::slice::from_ref(c)).len(), i))
        .collect();
    order.sort();
    order.truncate(TRIAGE_MAX_CASES);
    let mut found: Vec<shrink::Failing<P::Case>> = Vec::new();
    for wave in order.chunks(ctx.opts.jobs.max(1)) {
        if Instant::now() >= deadline {
            break;
        }
        let results = std::thread::scope(|s| {
            let handles: Vec<_> = wave
                .iter()
                .map(|&(_, i)| s.spawn(move || ctx.run_cases(std::slice::from_ref(&cases[i]))))
                .collect();
            handles
                .into_iter()
                .map(|h| h.join().unwrap_or_else(|e| std::panic::resume_unwind(e)))
                .collect::<Vec<_>>()
        });
        for (&(_, i), r) in wave.iter().zip(results) {
            if let Some(f) = r? {
                // Smallest first: the first of each kind is its smallest.
                if !found.iter().any(|(_, g)| g.kind == f.kind) {
                    found.push((vec![cases[i].clone()], f));
                }
            }
        }
    }
    Ok(found)
}

/// Shrinks the failure found by the search and every other kind of failure met on
/// the way, each on its own, smallest input first; the results, smallest first.
fn shrink_all<P: Problem, C: Contestant + ?Sized>(
    ctx: &Ctx<'_, P, C>,
    cases: Vec<P::Case>,
    failure: Failure,
    deadline: Instant,
) -> Result<Vec<shrink::Shrunk<P::Case>>, AuditError> {
    let p = ctx.p;
    let size = |c: &[P::Case]| p.write_input(c).len();
    let mut pending: Vec<shrink::Failing<P::Case>> = Vec::new();
    let offer = |pending: &mut Vec<shrink::Failing<P::Case>>,
                 done: &[shrink::Shrunk<P::Case>],
                 (c, f): shrink::Failing<P::Case>| {
        if done.iter().any(|d| d.failure.kind == f.kind) {
            return;
        }
        match pending.iter_mut().find(|(_, g)| g.kind == f.kind) {
            Some(slot) if size(&slot.0) > size(&c) => *slot = (c, f),
            Some(_) => {}
            None => pending.push((c, f)),
        }
    };
    let mut done: Vec<shrink::Shrunk<P::Case>> = Vec::new();
    if cases.len() > 1 {
        for found in triage(ctx, &cases, deadline)? {
            offer(&mut pending, &done, found);
        }
    }
    offer(&mut pending, &done, (cases, failure));
    while !pending.is_empty() {
        let k = (0..pending.len())
            .min_by_key(|&k| size(&pending[k].0))
            .unwrap_or(0);
        let (cases, failure) = pending.swap_remove(k);
        // The last kind pending may use all the time left, others half of it.
        let now = Instant::now();
        let left = deadline.saturating_duration_since(now);
        let until = if pending.is_empty() {
            deadline
        } else {
            now + left / 2
        };
        let s = shrink::Shrinker::new(ctx, until, cases, failure).shrink()?;
        let others = s.others.clone();
        done.push(s);
        for o in others {
            offer(&mut pending, &done, o);
        }
    }
    let mut sized: Vec<(usize, shrink::Shrunk<P::Case>)> =
        done.into_iter().map(|s| (size(&s.cases), s)).collect();
    sized.sort_by_key(|(bytes, s)| (*bytes, s.cases.len()));
    Ok(sized.into_iter().map(|(_, s)| s).collect())
}

/// A report's view of a shrunk failure.
fn counterexample<P: Problem, C: Contestant + ?Sized>(
    ctx: &Ctx<'_, P, C>,
    s: shrink::Shrunk<P::Case>,
) -> Counterexample {
    let p = ctx.p;
    let batch_only =
        (s.failure.kind == Verdict::TimeLimit && s.cases.len() > 1 && s.minimal).then(|| {
            BatchOnly {
                cases: s.cases.len(),
                seconds_per_case: lock(&ctx.stats.timing).per_case,
                timeout: ctx.opts.limits.timeout.as_secs_f64(),
            }
        });
    let mut detail = s.failure.detail.clone();
    if let Some(b) = &batch_only {
        detail = format!(
            "{detail}; only as a batch: {} cases (about {:.1} ms each measured) time out \
             together, each case alone and every smaller batch tried passes",
            b.cases,
            b.seconds_per_case * 1e3
        );
    }
    Counterexample {
        verdict: s.failure.kind,
        input: p.write_input(&s.cases),
        expected: crate::problems::solve_fast(p, &s.cases),
        actual: cut(&s.failure.stdout, REPORT_OUTPUT_MAX),
        shrink_steps: s.steps,
        shrink_runs: s.runs,
        minimal: s.minimal,
        batch_only,
        cases: s.cases.len(),
        detail,
        mismatch: s.failure.mismatch.clone(),
        stderr: cut(&s.failure.stderr, 4096),
        actual_bytes: s.failure.stdout,
    }
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
    let found = search(&ctx)?.map(|(_, cases, f)| (cases, f));
    finish(&ctx, found)
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
        // Shrinking may use what is left of the budget, and at least half of it.
        let deadline = (ctx.start + opts.time).max(Instant::now() + opts.time.mul_f64(0.5));
        for s in shrink_all(ctx, cases, failure, deadline)? {
            if s.failure.kind == Verdict::WrongAnswer && opts.oracle_budget > 0 {
                // Blame the program only if the oracle, where it can, agrees with the
                // expected answers.
                let expected = ctx.expected(&s.cases);
                ctx.oracle_check_all(
                    &s.cases,
                    &expected,
                    CONFIRM_BUDGET,
                    CONFIRM_MAX_BYTES,
                    false,
                )?;
            }
            failures.push(counterexample(ctx, s));
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
