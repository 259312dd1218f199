//! Isolating and shrinking a failing input.
//!
//! The input is a list of cases. Candidates, most promising first: each case alone
//! (smallest first, so the smallest failing case of a batch is the one isolated), each
//! half, the list without one case;
//! then every case replaced by each of its [`Problem::shrink`] candidates. The first
//! candidate on which the program still fails the same way (same [`Verdict`]) is taken,
//! and the search repeats from it until no candidate fails: the result is minimal for
//! these moves (1-minimal).
//!
//! A case too large to shrink directly (above [`SHRINK_CASE_MAX_BYTES`]: candidates
//! are whole copies of it) is replaced, if possible, by a failure of the same kind
//! among fresh random cases of growing scale that are small enough; shrinking goes on
//! from there.
//!
//! Three things keep that affordable for real programs. Each round starts where the
//! previous one succeeded (candidate lists change little between rounds, and the
//! candidates before that point just failed to reproduce), so lowering one number after
//! another costs one run per step instead of a full pass. When the same move succeeds
//! twice in a row it is applied 2, 4, 8, ... times at once (galloping), so lowering a
//! number by one thousands of times takes a few dozen runs. And for wrong answers,
//! single-case candidates are batched into one input, as many as the format allows;
//! the first case whose answer differs is confirmed alone before it is taken.

use super::source::mix;
use super::SHRINK_CASE_MAX_BYTES;
use super::{AuditError, Contestant, Ctx, Failure, Verdict, BATCH_MAX_BYTES};
use crate::problems::{Problem, Shape};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::collections::VecDeque;
use std::time::Instant;

/// Waves of random batches (one per scale step from 0 to 1) in one pass of the search
/// for a smaller failure when the failing case is too large to shrink.
const REGENERATE_WAVES: usize = 32;
/// Passes of that search (time permitting).
const REGENERATE_PASSES: usize = 4;

/// Largest input (bytes) on which [`Shrinker::gallop`] speculates.
const GALLOP_MAX_BYTES: usize = 1024;

/// A failing input and how it failed.
type Failing<Case> = (Vec<Case>, Failure);

/// The result of shrinking.
pub(crate) struct Shrunk<Case> {
    pub cases: Vec<Case>,
    pub failure: Failure,
    pub steps: u64,
    pub minimal: bool,
}

enum Search {
    /// Candidate index and its failure (from a run of exactly that candidate).
    Found(usize, Failure),
    NoneFails,
    OutOfTime,
}

pub(crate) struct Shrinker<'c, 'a, P: Problem, C: Contestant + ?Sized> {
    ctx: &'c Ctx<'a, P, C>,
    deadline: Instant,
}

/// Runs `f` on every item, in parallel (one thread per item).
fn par_map<T: Sync, R: Send>(items: &[T], f: impl Fn(&T) -> R + Sync) -> Vec<R> {
    if items.len() <= 1 {
        return items.iter().map(&f).collect();
    }
    std::thread::scope(|s| {
        let handles: Vec<_> = items[1..].iter().map(|it| s.spawn(|| f(it))).collect();
        let first = f(&items[0]);
        std::iter::once(first)
            .chain(
                handles
                    .into_iter()
                    .map(|h| h.join().unwrap_or_else(|e| std::panic::resume_unwind(e))),
            )
            .collect()
    })
}

impl<'c, 'a, P: Problem, C: Contestant + ?Sized> Shrinker<'c, 'a, P, C> {
    pub fn new(ctx: &'c Ctx<'a, P, C>, deadline: Instant) -> Self {
        Shrinker { ctx, deadline }
    }

    /// Smaller inputs than `cur`, most promising first; the flag tells whether some
    /// case was too large to hand to [`Problem::shrink`].
    fn candidates(&self, cur: &[P::Case], hint: Option<usize>) -> (Vec<Vec<P::Case>>, bool) {
        let p = self.ctx.p;
        let k = cur.len();
        let mut out: Vec<Vec<P::Case>> = Vec::new();
        if k > 1 {
            // Each case alone, smallest input first (the case whose answer differed
            // first leads among equals): the smallest failing case is isolated.
            let hint = hint.filter(|&h| h < k);
            let mut singles: Vec<(usize, bool, usize)> = cur
                .iter()
                .enumerate()
                .map(|(i, c)| {
                    let bytes = p.write_input(std::slice::from_ref(c)).len();
                    (bytes, Some(i) != hint, i)
                })
                .collect();
            singles.sort();
            for &(_, _, i) in &singles {
                out.push(vec![cur[i].clone()]);
            }
            if k >= 4 {
                out.push(cur[..k / 2].to_vec());
                out.push(cur[k / 2..].to_vec());
            }
            if k >= 3 {
                for i in 0..k {
                    let mut v = cur.to_vec();
                    v.remove(i);
                    out.push(v);
                }
            }
        }
        let mut capped = false;
        for (i, c) in cur.iter().enumerate() {
            if p.write_input(std::slice::from_ref(c)).len() > SHRINK_CASE_MAX_BYTES {
                capped = true;
                continue;
            }
            for s in p.shrink(c) {
                if p.check_limits(&s).is_ok() {
                    let mut v = cur.to_vec();
                    v[i] = s;
                    out.push(v);
                }
            }
        }
        (out, capped)
    }

    /// Shrinks the failing input `cur` (which failed with `failure`).
    pub fn shrink(
        &self,
        mut cur: Vec<P::Case>,
        mut failure: Failure,
    ) -> Result<Shrunk<P::Case>, AuditError> {
        let target = failure.kind;
        let mut hint = failure.mismatch.as_ref().map(|m| m.case);
        let mut steps = 0;
        let mut start = 0;
        let mut regenerated = false;
        let minimal = loop {
            let (mut cands, capped) = self.candidates(&cur, hint.take());
            if start >= cands.len() {
                start = 0;
            }
            let order: Vec<usize> = (start..cands.len()).chain(0..start).collect();
            let outcome = if cands.is_empty() {
                Search::NoneFails
            } else {
                self.first_failing(&cands, &order, target)?
            };
            match outcome {
                Search::Found(i, f) => {
                    cur = cands.swap_remove(i);
                    failure = f;
                    steps += 1;
                    if i == order[0] {
                        // The move at the position that worked last time worked
                        // again: gallop along it.
                        steps += self.gallop(&mut cur, &mut failure, i, target)?;
                    }
                    start = i;
                    self.ctx.progress.set_message(format!(
                        "shrinking ({target}): step {steps}, input of {} bytes",
                        self.ctx.p.write_input(&cur).len()
                    ));
                }
                Search::NoneFails => {
                    if capped && !regenerated {
                        // Too large to shrink case by case: look for a failure of the
                        // same kind among small random cases instead.
                        regenerated = true;
                        if let Some((cases, f)) = self.regenerate(target)? {
                            hint = f.mismatch.as_ref().map(|m| m.case);
                            cur = cases;
                            failure = f;
                            steps += 1;
                            start = 0;
                            continue;
                        }
                    }
                    break !capped;
                }
                Search::OutOfTime => break false,
            }
        };
        Ok(Shrunk {
            cases: cur,
            failure,
            steps,
            minimal,
        })
    }

    /// Applies candidate move `i` 2, 4, 8, ... times in a row to `cur` (one run per
    /// try) while the result still fails with `target`: a long chain of "one less"
    /// moves takes logarithmically many runs instead of one run per step. Only for
    /// small inputs, where computing candidates is cheap. Returns the inputs accepted.
    fn gallop(
        &self,
        cur: &mut Vec<P::Case>,
        failure: &mut Failure,
        i: usize,
        target: Verdict,
    ) -> Result<u64, AuditError> {
        let mut accepted = 0;
        let mut k = 2;
        while Instant::now() < self.deadline
            && self.ctx.p.write_input(cur).len() <= GALLOP_MAX_BYTES
        {
            let mut c = cur.clone();
            for _ in 0..k {
                let (mut cands, _) = self.candidates(&c, None);
                if i >= cands.len() {
                    return Ok(accepted);
                }
                c = cands.swap_remove(i);
            }
            match self.ctx.run_cases(&c)? {
                Some(f) if f.kind == target => {
                    *cur = c;
                    *failure = f;
                    accepted += 1;
                    k *= 2;
                }
                _ => break,
            }
        }
        Ok(accepted)
    }

    /// Random inputs whose cases are all small enough to shrink, at a scale growing
    /// from 0 to 1, until one fails with `target`; then the smallest failing case among
    /// those drawn at that scale (and its failure).
    fn regenerate(&self, target: Verdict) -> Result<Option<Failing<P::Case>>, AuditError> {
        let ctx = self.ctx;
        let p = ctx.p;
        let batch = ctx.opts.batch && p.max_cases() > 1;
        let per = if batch { p.max_cases() } else { 1 };
        let jobs = ctx.opts.jobs.max(1);
        let mut rng = ChaCha8Rng::seed_from_u64(mix(ctx.opts.seed ^ 0x0052_4547_454E));
        let size = |c: &P::Case| p.write_input(std::slice::from_ref(c)).len();
        let mut draw = |scale: f64| -> Vec<P::Case> {
            let mut cases = Vec::new();
            for _ in 0..per * 4 {
                if cases.len() >= per {
                    break;
                }
                let shape = match rng.gen_range(0..3) {
                    0 => Shape::Losing,
                    1 if scale >= 0.05 => Shape::ManyWinning,
                    _ => Shape::Any,
                };
                let c = p.generate(&mut rng, scale, shape);
                if size(&c) <= SHRINK_CASE_MAX_BYTES {
                    cases.push(c);
                }
            }
            cases
        };
        for wave in 0..REGENERATE_PASSES * REGENERATE_WAVES {
            if Instant::now() >= self.deadline {
                return Ok(None);
            }
            let scale = (wave % REGENERATE_WAVES) as f64 / (REGENERATE_WAVES - 1) as f64;
            ctx.progress.set_message(format!(
                "shrinking ({target}): looking for a smaller failure, scale {scale:.2}"
            ));
            let batches: Vec<Vec<P::Case>> = (0..jobs)
                .map(|_| draw(scale))
                .filter(|b| !b.is_empty())
                .collect();
            let results = par_map(&batches, |b| ctx.run_cases(b));
            let mut first = None;
            let mut pool = Vec::new();
            for (b, res) in batches.into_iter().zip(results) {
                if let Some(f) = res? {
                    if f.kind == target {
                        pool.extend(b.iter().cloned());
                        first.get_or_insert((b, f));
                    }
                }
            }
            let Some(first) = first else {
                continue;
            };
            if batch && target == Verdict::WrongAnswer {
                // Answers are checked a batch at a time: more cases at this scale
                // cost a few runs and give smaller failures a chance.
                for _ in 0..3 * jobs {
                    pool.extend(draw(scale));
                }
            }
            pool.sort_by_key(|c| size(c));
            let cands: Vec<Vec<P::Case>> = pool.into_iter().map(|c| vec![c]).collect();
            let order: Vec<usize> = (0..cands.len()).collect();
            return Ok(Some(match self.first_failing(&cands, &order, target)? {
                Search::Found(i, f) => (cands[i].clone(), f),
                // Fails only as a batch (or out of time): the batch it is.
                Search::NoneFails | Search::OutOfTime => first,
            }));
        }
        Ok(None)
    }

    /// Groups candidates (in `order`) into runs: single-case candidates share an input
    /// when `batch`, else each runs alone.
    fn units(&self, cands: &[Vec<P::Case>], order: &[usize], batch: bool) -> VecDeque<Vec<usize>> {
        let p = self.ctx.p;
        let cap = p.max_cases().max(1);
        let mut units = VecDeque::new();
        let mut cur: Vec<usize> = Vec::new();
        let mut bytes = 0;
        for &i in order {
            if !batch || cands[i].len() != 1 {
                if !cur.is_empty() {
                    units.push_back(std::mem::take(&mut cur));
                    bytes = 0;
                }
                units.push_back(vec![i]);
                continue;
            }
            let b = p.write_input(&cands[i]).len();
            if !cur.is_empty() && (cur.len() >= cap || bytes + b > BATCH_MAX_BYTES) {
                units.push_back(std::mem::take(&mut cur));
                bytes = 0;
            }
            bytes += b;
            cur.push(i);
        }
        if !cur.is_empty() {
            units.push_back(cur);
        }
        units
    }

    /// The first candidate (in `order`) on which the program fails with `target`.
    fn first_failing(
        &self,
        cands: &[Vec<P::Case>],
        order: &[usize],
        target: Verdict,
    ) -> Result<Search, AuditError> {
        let ctx = self.ctx;
        let batch = ctx.opts.batch && target == Verdict::WrongAnswer && ctx.p.max_cases() > 1;
        let mut units = self.units(cands, order, batch);
        let jobs = ctx.opts.jobs.max(1);
        while !units.is_empty() {
            if Instant::now() >= self.deadline {
                return Ok(Search::OutOfTime);
            }
            let wave: Vec<Vec<usize>> = (0..jobs).map_while(|_| units.pop_front()).collect();
            let results = par_map(&wave, |unit| {
                if unit.len() == 1 {
                    ctx.run_cases(&cands[unit[0]])
                } else {
                    let cases: Vec<P::Case> = unit.iter().map(|&i| cands[i][0].clone()).collect();
                    ctx.run_cases(&cases)
                }
            });
            for (k, (unit, res)) in wave.iter().zip(results).enumerate() {
                let Some(f) = res? else {
                    continue;
                };
                if unit.len() == 1 {
                    if f.kind == target {
                        return Ok(Search::Found(unit[0], f));
                    }
                    continue;
                }
                // A batch of single-case candidates failed: find which one. Units
                // after it in this wave go back to the queue, in order.
                for later in wave[k + 1..].iter().rev() {
                    units.push_front(later.clone());
                }
                match f.mismatch.as_ref().map(|m| m.case) {
                    Some(j) if f.kind == Verdict::WrongAnswer => {
                        // Cases before j answered right; confirm j alone (as case 1).
                        let j = j.min(unit.len() - 1);
                        if let Some(f2) = ctx.run_cases(&cands[unit[j]])? {
                            if f2.kind == target {
                                return Ok(Search::Found(unit[j], f2));
                            }
                        }
                        if j + 1 < unit.len() {
                            units.push_front(unit[j + 1..].to_vec());
                        }
                    }
                    _ => {
                        // The whole run crashed, hung or flooded: bisect.
                        let (a, b) = unit.split_at(unit.len() / 2);
                        units.push_front(b.to_vec());
                        units.push_front(a.to_vec());
                    }
                }
                break;
            }
        }
        Ok(Search::NoneFails)
    }
}
