//! The search for a failing input and the shrinking of each kind of failure found:
//! the shared state of one audit ([`Ctx`]), its runs and oracle checks, and the
//! triage of what failed.

use super::*;

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
    pub(crate) fn record(&mut self, elapsed: f64, cases: usize, timed_out: bool) {
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
    /// Expected answers, case `i` numbered `i`; `None` when the problem could not
    /// answer one of them (its declaration failed or refused it): the input has no
    /// expected answer and is not run. The first such case is counted.
    pub fn expected(&self, cases: &[P::Case]) -> Option<Vec<Vec<String>>> {
        let mut out = Vec::with_capacity(cases.len());
        for (i, c) in cases.iter().enumerate() {
            match self.p.answer(c, i) {
                Ok(a) => out.push(a),
                Err(why) => {
                    if !cut_short() {
                        self.unanswerable(c, &why);
                    }
                    return None;
                }
            }
        }
        Some(out)
    }

    /// The cases of `cases` the problem can answer, with their expected answers
    /// (numbered in their new order); the others are left out and counted.
    pub fn answerable(&self, cases: Vec<P::Case>) -> (Vec<P::Case>, Vec<Vec<String>>) {
        let mut kept = Vec::with_capacity(cases.len());
        let mut expected = Vec::with_capacity(cases.len());
        for c in cases {
            match self.p.answer(&c, kept.len()) {
                Ok(a) => {
                    kept.push(c);
                    expected.push(a);
                }
                Err(_) if cut_short() => {}
                Err(why) => self.unanswerable(&c, &why),
            }
        }
        (kept, expected)
    }

    /// Counts a case the problem could not answer, keeping the first and why.
    fn unanswerable(&self, case: &P::Case, why: &str) {
        self.stats.unanswerable.fetch_add(1, Ordering::Relaxed);
        let mut first = lock(&self.stats.first_unanswerable);
        if first.is_none() {
            let input = self.p.write_input(std::slice::from_ref(case));
            *first = Some(format!(
                "{}: {why}",
                cut(input.trim_end().as_bytes(), 200).replace('\n', " / ")
            ));
        }
    }

    /// Runs one input made of `cases` and judges it; `Ok(None)` (not run) when the
    /// problem cannot answer one of them.
    pub fn run_cases(&self, cases: &[P::Case]) -> Result<Option<Failure>, AuditError> {
        let Some(expected) = self.expected(cases) else {
            return Ok(None);
        };
        self.run_input(&self.p.write_input(cases), cases.len(), &expected)
    }

    /// Runs `input` (holding `count` cases) whose expected answers are known.
    pub fn run_input(
        &self,
        input: &str,
        count: usize,
        expected: &[Vec<String>],
    ) -> Result<Option<Failure>, AuditError> {
        let r = match self.c.run(input.as_bytes(), &self.opts.limits) {
            // Killed at the search's cut: not judged, not counted.
            Err(RunError::Abandoned) => return Ok(None),
            r => r?,
        };
        lock(&self.stats.timing).record(r.elapsed.as_secs_f64(), count, r.timed_out);
        self.stats.runs.fetch_add(1, Ordering::Relaxed);
        self.stats.cases.fetch_add(count as u64, Ordering::Relaxed);
        Ok(judge(r, expected, self.opts.mode, &self.opts.limits))
    }

    /// Cross-checks the expected answers of the small cases with the oracle, while
    /// that has taken less than [`ORACLE_TIME_SHARE`] of the time so far.
    pub(crate) fn oracle_check(
        &self,
        cases: &[P::Case],
        expected: &[Vec<String>],
    ) -> Result<(), AuditError> {
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
        .map(drop)
    }

    /// Whether the oracle has had its share of the time.
    pub(crate) fn oracle_over_time(&self) -> bool {
        self.oracle_time_left().is_zero()
    }

    /// What is left of the oracle's share of the time.
    fn oracle_time_left(&self) -> Duration {
        let spent = Duration::from_nanos(self.stats.oracle_nanos.load(Ordering::Relaxed));
        let allowed = ORACLE_TIME_SHARE * self.start.elapsed().as_secs_f64() + ORACLE_FREE_SECONDS;
        Duration::from_secs_f64(allowed).saturating_sub(spent)
    }

    /// Cross-checks every case of at most `max_bytes` whose oracle answer fits in
    /// `budget` positions (while the oracle is within its time share, if `gated`); the
    /// numbers of the cases the oracle did not confirm (too large, past its budget or
    /// time).
    pub(crate) fn oracle_check_all(
        &self,
        cases: &[P::Case],
        expected: &[Vec<String>],
        budget: usize,
        max_bytes: usize,
        gated: bool,
    ) -> Result<Vec<usize>, AuditError> {
        let mut unconfirmed = Vec::new();
        for (i, (c, fast)) in cases.iter().zip(expected).enumerate() {
            if gated && self.oracle_over_time() {
                unconfirmed.extend(i..cases.len());
                break;
            }
            let single = self.p.write_input(std::slice::from_ref(c));
            if single.len() > max_bytes {
                unconfirmed.push(i);
                continue;
            }
            let t = Instant::now();
            // A gated query stops where the oracle's share runs out (at least 50 ms
            // from now): a game whose oracle explores slowly costs its share, no more.
            let answer = if gated {
                let left = self.oracle_time_left().max(Duration::from_millis(50));
                sgcheck_oracles::with_deadline(t + left, || self.p.oracle_answer(c, i, budget))
            } else {
                self.p.oracle_answer(c, i, budget)
            };
            self.stats
                .oracle_nanos
                .fetch_add(t.elapsed().as_nanos() as u64, Ordering::Relaxed);
            // Too large for the budget: not cross-checked, never counted as agreeing.
            match answer {
                Ok(oracle) => {
                    self.stats.oracle_checks.fetch_add(1, Ordering::Relaxed);
                    if &oracle != fast {
                        return Err(self.mismatch(c, i, single, fast, &oracle));
                    }
                }
                Err(_) => unconfirmed.push(i),
            }
        }
        Ok(unconfirmed)
    }

    /// The error for an oracle answer that differs from the expected one: the
    /// declaration's, when that answer rests on a claim of it (a closed form) which
    /// does not check out against its rules; sgcheck's own bug otherwise.
    fn mismatch(
        &self,
        case: &P::Case,
        i: usize,
        input: String,
        fast: &[String],
        oracle: &[String],
    ) -> AuditError {
        let until = Instant::now() + CLAIM_TIME;
        match self.p.confirm_claims(case, until) {
            Ok(()) => AuditError::OracleMismatch {
                input,
                index: i + 1,
                fast: crate::problems::choice::shown_joined(fast, " / "),
                oracle: crate::problems::choice::shown_joined(oracle, " / "),
            },
            Err(claim) => AuditError::WrongClaim {
                input,
                index: i + 1,
                why: format!(
                    "expected (by the closed form): {}\nthe oracle (by the rules): {}\n{claim}",
                    crate::problems::choice::shown_joined(fast, " / "),
                    crate::problems::choice::shown_joined(oracle, " / ")
                ),
            },
        }
    }

    /// Confirms the expected answers of a failing input before a program is blamed on
    /// them, by `until`: by the oracle where it reaches ([`CONFIRM_BUDGET`] positions,
    /// cases of at most [`CONFIRM_MAX_BYTES`]), else by checking the claims of the
    /// declaration the answer rests on ([`Problem::confirm_claims`]). `Ok(None)` when
    /// every case is confirmed (or rests on no claim), `Ok(Some(why))` when one rests
    /// on a claim nothing could check; an error when one is shown wrong.
    pub(crate) fn confirm_expected(
        &self,
        cases: &[P::Case],
        expected: &[Vec<String>],
        until: Instant,
    ) -> Result<Option<String>, AuditError> {
        let unconfirmed = if self.opts.oracle_budget > 0 {
            sgcheck_oracles::with_deadline(until, || {
                self.oracle_check_all(cases, expected, CONFIRM_BUDGET, CONFIRM_MAX_BYTES, false)
            })?
        } else {
            (0..cases.len()).collect()
        };
        let mut doubt = None;
        for i in unconfirmed {
            let c = &cases[i];
            match self.p.confirm_claims(c, until) {
                Ok(()) => {}
                Err(Claim::Wrong(why)) => {
                    return Err(AuditError::WrongClaim {
                        input: self.p.write_input(std::slice::from_ref(c)),
                        index: i + 1,
                        why,
                    })
                }
                Err(Claim::Unchecked(why)) => {
                    doubt.get_or_insert(format!("case {}: {why}", i + 1));
                }
            }
        }
        Ok(doubt)
    }

    /// Most cases for search batch number `seq`: [`FIRST_BATCH_CASES`] doubled per
    /// batch, and no more than [`BATCH_TIME_SHARE`] of the time limit at the measured
    /// time per case.
    pub(crate) fn batch_cap(&self, seq: u64) -> usize {
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

    pub(crate) fn progress_line(&self, what: &str) {
        let cases = self.stats.cases.load(Ordering::Relaxed);
        let runs = self.stats.runs.load(Ordering::Relaxed);
        let secs = self.start.elapsed().as_secs_f64().max(1e-9);
        self.progress.set_message(format!(
            "{what}: {cases} cases in {runs} runs ({:.0} cases/s)",
            cases as f64 / secs
        ));
    }
}

/// Whether the deadline in force ([`sgcheck_oracles::with_deadline`]) has passed: an
/// answer that failed then was cut by the audit's time, which is not the
/// declaration's failure (the case is dropped, not counted as unanswerable).
fn cut_short() -> bool {
    sgcheck_oracles::scoped_deadline().is_some_and(|d| Instant::now() >= d)
}

/// Locks a mutex, ignoring poisoning (a panicking worker already failed the audit).
pub(crate) fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

/// A failure found by the search: the batch number, its cases, the failure.
type Found<Case> = (u64, Vec<Case>, Failure);

/// The search: workers pull numbered batches; the failing batch with the smallest
/// number wins (batches before it are always finished, so the choice does not depend
/// on timing).
pub(crate) fn search<P: Problem, C: Contestant + ?Sized>(
    ctx: &Ctx<'_, P, C>,
    samples: Vec<Vec<P::Case>>,
) -> Result<Option<Found<P::Case>>, AuditError> {
    let opts = ctx.opts;
    let per_batch = if opts.batch {
        ctx.p.max_cases().max(1)
    } else {
        1
    };
    let source = Mutex::new(source::Source::new(ctx.p, per_batch).with_samples(samples));
    let deadline = ctx.start + opts.time;
    let stop = AtomicBool::new(false);
    let found: Mutex<Option<Found<P::Case>>> = Mutex::new(None);
    let error: Mutex<Option<AuditError>> = Mutex::new(None);

    // A game whose fast side builds a table while cases are listed and drawn (a
    // script's mex table) stops at the deadline plus a twentieth of the time; a batch
    // that ran past that is dropped, so what a seed runs never depends on timing.
    let cut = deadline + opts.time.div_f64(20.0).max(Duration::from_millis(50));
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
                // Listing the small cases asks the game about each (a script may take
                // a call's whole time on one): under the same cut as the drawing.
                sgcheck_oracles::with_deadline(cut, || src.next(true, room.min(cap)))
            };
            if Instant::now() >= cut {
                break;
            }
            let batch = sgcheck_oracles::with_deadline(cut, || {
                batch.build(ctx.p, opts.seed, BATCH_MAX_BYTES)
            });
            if Instant::now() >= cut {
                break;
            }
            // Cases the problem cannot answer have no expected answer: left out of the
            // input and counted, never judged.
            let drawn = batch.cases.len();
            let (cases, expected) =
                sgcheck_oracles::with_deadline(cut, || ctx.answerable(batch.cases));
            if Instant::now() >= cut {
                break;
            }
            if cases.is_empty() {
                continue;
            }
            let input = if cases.len() == drawn {
                batch.input
            } else {
                ctx.p.write_input(&cases)
            };
            if batch.phase == source::Phase::Samples {
                ctx.stats.samples.fetch_add(1, Ordering::Relaxed);
            }
            // Only inputs of tiny cases are worth the oracle's time.
            let tiny = batch.phase == source::Phase::Enumerate || batch.scale <= 0.01;
            let outcome = if tiny {
                ctx.oracle_check(&cases, &expected)
            } else {
                Ok(())
            }
            .and_then(|()| {
                // A run still going at the cut is killed and dropped: `--time` is kept
                // whatever the program's own time limit. Until one run has ended, none
                // is: an audit on a loaded machine judges at least one input.
                if ctx.stats.runs.load(Ordering::Relaxed) == 0 {
                    ctx.run_input(&input, cases.len(), &expected)
                } else {
                    runner::abandoning_at(cut, || ctx.run_input(&input, cases.len(), &expected))
                }
            });
            match outcome {
                Err(e) => {
                    lock(&error).get_or_insert(e);
                    stop.store(true, Ordering::SeqCst);
                }
                Ok(None) => ctx.progress_line(batch.phase.name()),
                Ok(Some(f)) => {
                    let mut slot = lock(&found);
                    if slot.as_ref().is_none_or(|(s, _, _)| batch.seq < *s) {
                        *slot = Some((batch.seq, cases, f));
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
    let mut s = format!(
        "{} audit {problem} --seed {}",
        crate::shell::program(),
        opts.seed
    );
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
    if let Some(wall) = opts.limits.wall_timeout {
        let wall = if opts.sanitize {
            wall / compile::SANITIZE_TIME_FACTOR
        } else {
            wall
        };
        s.push_str(&format!(" --wall-timeout {}", wall.as_secs_f64()));
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

pub(crate) fn cut(bytes: &[u8], max: usize) -> String {
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
pub(crate) fn triage<P: Problem, C: Contestant + ?Sized>(
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
pub(crate) fn shrink_all<P: Problem, C: Contestant + ?Sized>(
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
pub(crate) fn counterexample<P: Problem, C: Contestant + ?Sized>(
    ctx: &Ctx<'_, P, C>,
    s: shrink::Shrunk<P::Case>,
    expected: String,
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
        expected,
        actual: cut(&s.failure.stdout, REPORT_OUTPUT_MAX),
        shrink_steps: s.steps,
        shrink_runs: s.runs,
        minimal: s.minimal,
        minimality: s.minimality,
        batch_only,
        cases: s.cases.len(),
        detail,
        mismatch: s.failure.mismatch.clone(),
        stderr: cut(&s.failure.stderr, 4096),
        actual_bytes: s.failure.stdout,
    }
}
