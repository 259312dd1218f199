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
//! are whole copies of it) is cut in [`Problem::halves`] where the problem offers them;
//! otherwise it is replaced, if possible, by a failure of the same kind among fresh
//! random cases of growing scale that are small enough; shrinking goes on from there.
//!
//! Four things keep that affordable for real programs. Candidates are descriptions
//! ([`Cand`]: "case 3 alone", "case 5 replaced by this one"), built into an input only
//! when they run: an input of a thousand cases has thousands of candidates, and copying
//! the whole input for each would take seconds and gigabytes. Each round starts where the
//! previous one succeeded (candidate lists change little between rounds, and the
//! candidates before that point just failed to reproduce), so lowering one number after
//! another costs one run per step instead of a full pass. When the same move succeeds
//! twice in a row it is applied 2, 4, 8, ... times at once (galloping), so lowering a
//! number by one thousands of times takes a few dozen runs; after a gallop the next
//! round starts from the first (boldest) candidate again, so a chain of small moves
//! never hides a bolder one that works by now (dropping that pile, halving it). And
//! for wrong answers,
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
/// Most moves [`Shrinker::gallop`] applies in one try.
const GALLOP_MAX_MOVES: usize = 1 << 12;

/// A failing input and how it failed.
type Failing<Case> = (Vec<Case>, Failure);

/// A candidate: a smaller input described in terms of the current one (a list of
/// cases), built only when it runs.
#[derive(Clone, Debug)]
enum Cand<Case> {
    /// Case `i` alone.
    Only(usize),
    /// Cases `a..b`.
    Range(usize, usize),
    /// Every case but case `i`.
    Without(usize),
    /// Case `i` replaced by a smaller one.
    Replace(usize, Case),
}

impl<Case: Clone> Cand<Case> {
    /// The input this candidate stands for.
    fn build(&self, cur: &[Case]) -> Vec<Case> {
        match self {
            Cand::Only(i) => vec![cur[*i].clone()],
            Cand::Range(a, b) => cur[*a..*b].to_vec(),
            Cand::Without(i) => {
                let mut v = Vec::with_capacity(cur.len().saturating_sub(1));
                v.extend_from_slice(&cur[..*i]);
                v.extend_from_slice(&cur[*i + 1..]);
                v
            }
            Cand::Replace(i, c) => {
                let mut v = cur.to_vec();
                v[*i] = c.clone();
                v
            }
        }
    }

    /// The case of a one-case candidate.
    fn single<'x>(&'x self, cur: &'x [Case]) -> Option<&'x Case> {
        match self {
            Cand::Only(i) => Some(&cur[*i]),
            Cand::Range(a, b) if b - a == 1 => Some(&cur[*a]),
            Cand::Without(i) if cur.len() == 2 => Some(&cur[1 - *i]),
            Cand::Replace(_, c) if cur.len() == 1 => Some(c),
            _ => None,
        }
    }
}

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
    /// case was too large to hand to [`Problem::shrink`] and had no
    /// [`Problem::halves`] either.
    fn candidates(&self, cur: &[P::Case], hint: Option<usize>) -> (Vec<Cand<P::Case>>, bool) {
        let p = self.ctx.p;
        let k = cur.len();
        let mut out: Vec<Cand<P::Case>> = Vec::new();
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
            out.extend(singles.iter().map(|&(_, _, i)| Cand::Only(i)));
            if k >= 4 {
                out.push(Cand::Range(0, k / 2));
                out.push(Cand::Range(k / 2, k));
            }
            if k >= 3 {
                out.extend((0..k).map(Cand::Without));
            }
        }
        let mut capped = false;
        for (i, c) in cur.iter().enumerate() {
            let smaller = if p.write_input(std::slice::from_ref(c)).len() > SHRINK_CASE_MAX_BYTES {
                let halves = p.halves(c);
                if halves.is_empty() {
                    capped = true;
                }
                halves
            } else {
                p.shrink(c)
            };
            for s in smaller {
                if p.check_limits(&s).is_ok() {
                    out.push(Cand::Replace(i, s));
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
            let (cands, capped) = self.candidates(&cur, hint.take());
            if start >= cands.len() {
                start = 0;
            }
            let order: Vec<usize> = (start..cands.len()).chain(0..start).collect();
            let outcome = if cands.is_empty() {
                Search::NoneFails
            } else {
                self.first_failing(&cur, &cands, &order, target)?
            };
            match outcome {
                Search::Found(i, f) => {
                    cur = cands[i].build(&cur);
                    failure = f;
                    steps += 1;
                    start = i;
                    if i == order[0] {
                        // The move at the position that worked last time worked
                        // again: gallop along it.
                        let galloped = self.gallop(&mut cur, &mut failure, i, target)?;
                        steps += galloped;
                        if galloped > 0 {
                            // A long chain of small moves: bolder ones (earlier in
                            // the list: dropping the pile, halving it) may work now,
                            // and would never be tried if rounds kept starting here.
                            start = 0;
                        }
                    }
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
    /// small inputs, where computing candidates is cheap, and up to
    /// [`GALLOP_MAX_MOVES`] moves per try: every move recomputes the candidates, so
    /// doubling without end (along a harmless move on a number near 2^31, say) would
    /// take seconds per try, and the caller should look at bolder moves again by then.
    /// Returns the inputs accepted.
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
                if Instant::now() >= self.deadline {
                    return Ok(accepted);
                }
                let (cands, _) = self.candidates(&c, None);
                let Some(cand) = cands.get(i) else {
                    return Ok(accepted);
                };
                c = cand.build(&c);
            }
            match self.ctx.run_cases(&c)? {
                Some(f) if f.kind == target => {
                    *cur = c;
                    *failure = f;
                    accepted += 1;
                    k *= 2;
                    if k > GALLOP_MAX_MOVES {
                        break;
                    }
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
            let cands: Vec<Cand<P::Case>> = (0..pool.len()).map(Cand::Only).collect();
            let order: Vec<usize> = (0..cands.len()).collect();
            return Ok(Some(
                match self.first_failing(&pool, &cands, &order, target)? {
                    Search::Found(i, f) => (cands[i].build(&pool), f),
                    // Fails only as a batch (or out of time): the batch it is.
                    Search::NoneFails | Search::OutOfTime => first,
                },
            ));
        }
        Ok(None)
    }

    /// Groups candidates (in `order`) into runs: single-case candidates share an input
    /// when `batch`, else each runs alone.
    fn units(
        &self,
        cur: &[P::Case],
        cands: &[Cand<P::Case>],
        order: &[usize],
        batch: bool,
    ) -> VecDeque<Vec<usize>> {
        let p = self.ctx.p;
        let cap = p.max_cases().max(1);
        let mut units = VecDeque::new();
        let mut unit: Vec<usize> = Vec::new();
        let mut bytes = 0;
        for &i in order {
            let Some(single) = cands[i].single(cur).filter(|_| batch) else {
                if !unit.is_empty() {
                    units.push_back(std::mem::take(&mut unit));
                    bytes = 0;
                }
                units.push_back(vec![i]);
                continue;
            };
            let b = p.write_input(std::slice::from_ref(single)).len();
            if !unit.is_empty() && (unit.len() >= cap || bytes + b > BATCH_MAX_BYTES) {
                units.push_back(std::mem::take(&mut unit));
                bytes = 0;
            }
            bytes += b;
            unit.push(i);
        }
        if !unit.is_empty() {
            units.push_back(unit);
        }
        units
    }

    /// The first candidate (in `order`) on which the program fails with `target`.
    fn first_failing(
        &self,
        cur: &[P::Case],
        cands: &[Cand<P::Case>],
        order: &[usize],
        target: Verdict,
    ) -> Result<Search, AuditError> {
        let ctx = self.ctx;
        let batch = ctx.opts.batch && target == Verdict::WrongAnswer && ctx.p.max_cases() > 1;
        let mut units = self.units(cur, cands, order, batch);
        let jobs = ctx.opts.jobs.max(1);
        while !units.is_empty() {
            if Instant::now() >= self.deadline {
                return Ok(Search::OutOfTime);
            }
            let wave: Vec<Vec<usize>> = (0..jobs).map_while(|_| units.pop_front()).collect();
            let results = par_map(&wave, |unit| {
                if unit.len() == 1 {
                    ctx.run_cases(&cands[unit[0]].build(cur))
                } else {
                    let cases: Vec<P::Case> = unit
                        .iter()
                        .filter_map(|&i| cands[i].single(cur).cloned())
                        .collect();
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
                        if let Some(f2) = ctx.run_cases(&cands[unit[j]].build(cur))? {
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
