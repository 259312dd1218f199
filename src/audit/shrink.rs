//! Shrinking one failing input to a minimal one that fails the same way.
//!
//! The input is a list of cases, and each case (through [`Problem::parts`]) a few lists
//! of numbers. A *candidate* is the current input with one change; the program is run
//! on it, and if it still fails with the target [`Verdict`] the candidate becomes the
//! current input. Rounds of these moves repeat until a whole round changes nothing:
//!
//! 1. **Remove cases**, then **remove values** from each list (first halving it while
//!    a half still fails, for bugs of the whole list such as a XOR): delta debugging
//!    (ddmin, Zeller and Hildebrandt 2002) in the adaptive form Hypothesis uses. A scan
//!    goes along the list; at each position it looks for the longest chunk starting
//!    there whose removal still fails, by doubling the chunk (1, 2, 4, ...) and then
//!    bisecting between the last length that failed and the first that did not. A
//!    chunk of any length costs O(log n) runs, so a case of 10^6 values with two
//!    culprits far apart comes down to exactly them in a few hundred runs. Candidates
//!    are built only when they run (one copy of the input at a time).
//! 2. **Values to their lower bound in one step**: all values of the input at once,
//!    each list at once, then chunks of a list (the same doubling scan).
//! 3. **Each value alone**: its lower bound; every smaller value, ascending, when it
//!    is small (at most [`SMALL_VALUE`] above the bound: a bug on even piles shrinks
//!    from 6 to 2, which bisection cannot see); otherwise binary search for the
//!    smallest value that still fails.
//! 4. For a case without parts, the problem's own [`Problem::shrink`] candidates (or
//!    [`Problem::halves`] of a case too large for them).
//!
//! The result is **1-minimal** when the last round ran to its end without a change: no
//! single candidate of any kind fails any more. When time runs out first it is
//! reported as not minimal. Inputs already run are remembered (by hash), so a round
//! never runs the same input twice; runs of equal values are skipped as a whole (after
//! "every value to its bound", removing any one of them gives the same input).
//!
//! A candidate that fails *differently* (a crash while shrinking a wrong answer, a
//! wrong answer once a batch no longer times out) is kept, the smallest of each kind,
//! and handed back: the caller shrinks each kind on its own.

use super::{
    AuditError, Contestant, Ctx, Failure, Minimality, MinimalityKind, Verdict, BATCH_MAX_BYTES,
    SHRINK_CASE_MAX_BYTES,
};
use crate::problems::{Part, Problem};
use rustc_hash::{FxHashMap, FxHashSet};
use std::hash::{Hash, Hasher};
use std::time::Instant;

/// Values at most this far above their lower bound are tried one by one (every
/// smaller value, ascending) instead of by bisection.
pub const SMALL_VALUE: u64 = 32;

/// Components whose value is lowered one at a time (with another one compensating, so
/// the XOR stays) when a part holds at most this many.
pub const KEEP_LOWER_MAX: usize = 8;

/// Values tried at each step of the windowed bisection that lowers a component: a
/// bug on one residue of a period up to this long is not missed between two halvings.
pub const LOWER_WINDOW: u64 = 8;

/// Components tried, largest value first, as the one kept apart when all the others
/// are merged into one or two.
pub const MERGE_TRIES: usize = 4;

/// Most runs of the minimality check (each a batch of smaller inputs).
pub const MINIMALITY_RUNS: u64 = 32;

/// Most one-case inputs in one run of the minimality check.
pub const MINIMALITY_BATCH: usize = 4096;

/// A failing input and how it failed.
pub(crate) type Failing<Case> = (Vec<Case>, Failure);

/// The result of shrinking one failure.
pub(crate) struct Shrunk<Case> {
    pub cases: Vec<Case>,
    pub failure: Failure,
    /// Smaller failing inputs accepted.
    pub steps: u64,
    /// Runs spent shrinking.
    pub runs: u64,
    /// True when a whole round of candidates found nothing smaller (1-minimal).
    pub minimal: bool,
    /// How minimal, after the check of smaller inputs.
    pub minimality: Minimality,
    /// Failures of other kinds met on the way, the smallest input of each kind.
    pub others: Vec<Failing<Case>>,
}

/// Why a round stopped early.
enum Halt {
    /// The deadline passed.
    Time,
    /// The program could not be run.
    Err(AuditError),
}

impl From<AuditError> for Halt {
    fn from(e: AuditError) -> Self {
        Halt::Err(e)
    }
}

type R<T> = Result<T, Halt>;

/// A chunk move of the doubling scan.
#[derive(Clone, Copy, Debug)]
enum Op {
    /// Remove cases `i..i + k`.
    RemoveCases,
    /// Remove units `i..i + k` of part `part` of case `case`.
    RemoveUnits { case: usize, part: usize },
    /// Set values `i..i + k` of part `part` of case `case` to its lower bound.
    Lower { case: usize, part: usize },
    /// Replace components `i..i + k` by the smallest components of the same values.
    Canon { case: usize, part: usize },
    /// Set components `i..i + k` to the lower bound, and the component of largest
    /// value outside them to the smallest one that keeps the XOR of all values.
    LowerKeep { case: usize, part: usize },
}

pub(crate) struct Shrinker<'c, 'a, P: Problem, C: Contestant + ?Sized> {
    ctx: &'c Ctx<'a, P, C>,
    deadline: Instant,
    target: Verdict,
    cur: Vec<P::Case>,
    failure: Failure,
    steps: u64,
    runs: u64,
    /// Hashes of inputs run that did not fail with the target.
    tried: FxHashSet<u64>,
    others: Vec<Failing<P::Case>>,
    /// Parts of the current cases, computed when first asked for.
    parts: Vec<Option<Vec<Part>>>,
    /// Some case had no parts, was too large for [`Problem::shrink`] and had no
    /// [`Problem::halves`]: the result cannot be called minimal.
    capped: bool,
}

fn hash_of(input: &str) -> u64 {
    let mut h = std::collections::hash_map::DefaultHasher::new();
    input.hash(&mut h);
    h.finish()
}

fn input_len<P: Problem>(p: &P, cases: &[P::Case]) -> usize {
    p.write_input(cases).len()
}

impl<'c, 'a, P: Problem, C: Contestant + ?Sized> Shrinker<'c, 'a, P, C> {
    /// A shrinker of `cases`, which failed with `failure`, until `deadline`.
    pub fn new(
        ctx: &'c Ctx<'a, P, C>,
        deadline: Instant,
        cases: Vec<P::Case>,
        failure: Failure,
    ) -> Self {
        Shrinker {
            ctx,
            deadline,
            target: failure.kind,
            cur: cases,
            failure,
            steps: 0,
            runs: 0,
            tried: FxHashSet::default(),
            others: Vec::new(),
            parts: Vec::new(),
            capped: false,
        }
    }

    /// Shrinks to a 1-minimal input, or as far as the deadline allows, then checks
    /// smaller inputs (see [`Shrinker::check_smaller`]).
    pub fn shrink(mut self) -> Result<Shrunk<P::Case>, AuditError> {
        let current = self.ctx.p.write_input(&self.cur);
        self.tried.insert(hash_of(&current));
        let mut check = Check::default();
        let minimal = loop {
            let before = self.steps;
            match self.round() {
                Ok(()) if self.steps != before => continue,
                Ok(()) if self.capped => break false,
                Ok(()) => {}
                Err(Halt::Time) => break false,
                Err(Halt::Err(e)) => return Err(e),
            }
            // 1-minimal: look for a smaller failing input among all smaller ones.
            match self.check_smaller() {
                Ok(Some(c)) => {
                    check = c;
                    break true;
                }
                // A smaller failing input was found and taken: shrink it again.
                Ok(None) => {}
                Err(Halt::Time) => break true,
                Err(Halt::Err(e)) => return Err(e),
            }
        };
        let size = match &self.cur[..] {
            [c] => self.ctx.p.case_size(c),
            _ => None,
        };
        let complete = match (size, check.up_to) {
            (Some(0), _) => check.done,
            (Some(s), Some(u)) => check.done && u + 1 >= s,
            _ => false,
        };
        let kind = if !minimal {
            MinimalityKind::NotMinimal
        } else if check.done {
            MinimalityKind::Minimal
        } else {
            MinimalityKind::OneMinimal
        };
        Ok(Shrunk {
            cases: self.cur,
            failure: self.failure,
            steps: self.steps,
            runs: self.runs,
            minimal,
            minimality: Minimality {
                kind,
                size,
                checked_up_to: check.up_to,
                complete,
                checked_cases: check.cases,
                checked_runs: check.runs,
            },
            others: self.others,
        })
    }

    /// Runs `cases` unless it is invalid or already run; the failure when it fails
    /// with the target. Failures of other kinds are kept aside.
    fn test(&mut self, cases: &[P::Case]) -> R<Option<Failure>> {
        if Instant::now() >= self.deadline {
            return Err(Halt::Time);
        }
        let p = self.ctx.p;
        if cases.is_empty() || cases.iter().any(|c| p.check_limits(c).is_err()) {
            return Ok(None);
        }
        let input = p.write_input(cases);
        if !self.tried.insert(hash_of(&input)) {
            return Ok(None);
        }
        let expected = self.ctx.expected(cases);
        self.runs += 1;
        let Some(f) = self.ctx.run_input(&input, cases.len(), &expected)? else {
            return Ok(None);
        };
        if f.kind == self.target {
            return Ok(Some(f));
        }
        let size = input.len();
        match self.others.iter_mut().find(|(_, o)| o.kind == f.kind) {
            Some(slot) if input_len(p, &slot.0) > size => *slot = (cases.to_vec(), f),
            Some(_) => {}
            None => self.others.push((cases.to_vec(), f)),
        }
        Ok(None)
    }

    fn accept(&mut self, cases: Vec<P::Case>, f: Failure) {
        self.cur = cases;
        self.parts.clear();
        self.failure = f;
        self.steps += 1;
        self.ctx.progress.set_message(format!(
            "shrinking ({}): step {}, {} runs, {} case(s)",
            self.target,
            self.steps,
            self.runs,
            self.cur.len()
        ));
    }

    /// Tests `cases` and takes it when it fails with the target.
    fn try_take(&mut self, cases: Vec<P::Case>) -> R<bool> {
        match self.test(&cases)? {
            Some(f) => {
                self.accept(cases, f);
                Ok(true)
            }
            None => Ok(false),
        }
    }

    /// One round of every kind of candidate.
    fn round(&mut self) -> R<()> {
        let p = self.ctx.p;
        if self.cur.len() > 1 {
            // The case whose answer differed first, alone.
            if let Some(m) = self.failure.mismatch.as_ref().filter(|m| m.case > 0) {
                if let Some(c) = self.cur.get(m.case).cloned() {
                    self.try_take(vec![c])?;
                }
            }
            self.scan(Op::RemoveCases)?;
        }
        // Every value of the input at its lower bound, in one step.
        let all_low: Option<Vec<P::Case>> = self
            .cur
            .iter()
            .map(|c| {
                let parts = p.parts(c);
                if parts.is_empty() {
                    return Some(c.clone());
                }
                let values = parts
                    .iter()
                    .map(|part| vec![part.min_value; part.values.len()])
                    .collect();
                p.rebuild(c, values)
            })
            .collect();
        if let Some(cases) = all_low.filter(|v| *v != self.cur) {
            self.try_take(cases)?;
        }
        let mut ci = 0;
        while ci < self.cur.len() {
            let nparts = self.parts_of(ci).len();
            if nparts == 0 {
                self.fallback(ci)?;
            }
            for pi in 0..nparts {
                if self.part_ref(ci, pi).unit > 0 {
                    self.game_counts(ci, pi)?;
                    // Values first where the game knows them: a list of equal values
                    // costs one run to scan for removals, a list of distinct ones a
                    // run per value when no single removal fails (a XOR).
                    self.game_values(ci, pi)?;
                    self.halve(ci, pi)?;
                    self.scan(Op::RemoveUnits { case: ci, part: pi })?;
                }
            }
            for pi in 0..nparts {
                self.game_values(ci, pi)?;
                let part = self.part_ref(ci, pi);
                if part.values.iter().any(|&v| v > part.min_value) {
                    let low = vec![part.min_value; part.values.len()];
                    if let Some(cases) = self.with_values(ci, pi, low) {
                        self.try_take(cases)?;
                    }
                }
                if self.part_ref(ci, pi).values.len() > 2 {
                    self.scan(Op::Lower { case: ci, part: pi })?;
                }
                self.values(ci, pi)?;
            }
            ci += 1;
        }
        Ok(())
    }

    /// The parts of case `ci` (cached until the input changes).
    fn parts_of(&mut self, ci: usize) -> &[Part] {
        if self.parts.len() != self.cur.len() {
            self.parts = vec![None; self.cur.len()];
        }
        let (p, cur) = (self.ctx.p, &self.cur);
        self.parts[ci].get_or_insert_with(|| p.parts(&cur[ci]))
    }

    fn part_ref(&mut self, ci: usize, pi: usize) -> &Part {
        &self.parts_of(ci)[pi]
    }

    fn part(&mut self, ci: usize, pi: usize) -> Part {
        self.part_ref(ci, pi).clone()
    }

    /// The current input with part `pi` of case `ci` holding `values` (`None` when no
    /// case has them).
    fn with_values(&mut self, ci: usize, pi: usize, values: Vec<u64>) -> Option<Vec<P::Case>> {
        let p = self.ctx.p;
        let mut values = Some(values);
        let all: Vec<Vec<u64>> = self
            .parts_of(ci)
            .iter()
            .enumerate()
            .map(|(k, q)| {
                if k == pi {
                    values.take().unwrap_or_default()
                } else {
                    q.values.clone()
                }
            })
            .collect();
        let new = p.rebuild(&self.cur[ci], all)?;
        let mut cases = self.cur.clone();
        cases[ci] = new;
        Some(cases)
    }

    /// Positions of `op` in the current input (cases, units or values).
    fn op_len(&mut self, op: Op) -> usize {
        match op {
            Op::RemoveCases => self.cur.len(),
            Op::RemoveUnits { case, part } => {
                let q = self.part_ref(case, part);
                q.values.len() / q.unit.max(1)
            }
            Op::Lower { case, part } | Op::Canon { case, part } | Op::LowerKeep { case, part } => {
                self.part_ref(case, part).values.len()
            }
        }
    }

    /// Whether position `i` of `op` can be skipped: the same as position `i - 1`
    /// (removing either gives the same input), or already at its lower bound.
    fn skip(&mut self, op: Op, i: usize) -> bool {
        match op {
            Op::RemoveCases => i > 0 && self.cur[i] == self.cur[i - 1],
            Op::RemoveUnits { case, part } => {
                let q = self.part_ref(case, part);
                let u = q.unit.max(1);
                i > 0 && q.values[i * u..(i + 1) * u] == q.values[(i - 1) * u..i * u]
            }
            Op::Lower { case, part } | Op::LowerKeep { case, part } => {
                let q = self.part_ref(case, part);
                q.values[i] <= q.min_value
            }
            Op::Canon { case, part } => {
                let v = self.part_ref(case, part).values[i];
                self.canonical(case, part, v) == Some(v)
            }
        }
    }

    /// The current input with `op` applied to positions `i..i + k`.
    fn apply(&mut self, op: Op, i: usize, k: usize) -> Option<Vec<P::Case>> {
        match op {
            Op::RemoveCases => {
                let mut v = Vec::with_capacity(self.cur.len() - k);
                v.extend_from_slice(&self.cur[..i]);
                v.extend_from_slice(&self.cur[i + k..]);
                Some(v)
            }
            Op::RemoveUnits { case, part } => {
                let q = self.part_ref(case, part);
                let u = q.unit.max(1);
                let n = q.values.len();
                if n - k * u < q.min_len {
                    return None;
                }
                let mut v = Vec::with_capacity(n - k * u);
                v.extend_from_slice(&q.values[..i * u]);
                v.extend_from_slice(&q.values[(i + k) * u..]);
                self.with_values(case, part, v)
            }
            Op::Lower { case, part } => {
                let mut q = self.part(case, part);
                for v in &mut q.values[i..i + k] {
                    *v = q.min_value;
                }
                self.with_values(case, part, q.values)
            }
            Op::Canon { case, part } => {
                let mut q = self.part(case, part);
                let mut changed = false;
                for j in i..i + k {
                    let v = q.values[j];
                    if let Some(w) = self.canonical(case, part, v).filter(|&w| w != v) {
                        q.values[j] = w;
                        changed = true;
                    }
                }
                if !changed {
                    return None;
                }
                self.with_values(case, part, q.values)
            }
            Op::LowerKeep { case, part } => {
                let q = self.part(case, part);
                let g = self.comps(case, part)?;
                let low = self.value_of(case, part, q.min_value)?;
                // The compensating component: the largest value outside the chunk.
                let c = (0..q.values.len())
                    .filter(|&j| j < i || j >= i + k)
                    .max_by_key(|&j| (g[j], j))?;
                let removed = g[i..i + k].iter().fold(0, |a, &b| a ^ b);
                let added = if k % 2 == 1 { low } else { 0 };
                let need = g[c] ^ removed ^ added;
                let sc = self.smallest(case, part, need)?;
                let mut values = q.values.clone();
                for v in &mut values[i..i + k] {
                    *v = q.min_value;
                }
                values[c] = sc;
                if !smaller_sum(&values, &q.values) {
                    return None;
                }
                self.with_values(case, part, values)
            }
        }
    }

    /// Tests `op` on positions `i..i + k`; the candidate and its failure when it fails.
    fn probe(&mut self, op: Op, i: usize, k: usize) -> R<Option<Failing<P::Case>>> {
        let Some(cases) = self.apply(op, i, k) else {
            return Ok(None);
        };
        Ok(self.test(&cases)?.map(|f| (cases, f)))
    }

    /// The doubling scan of `op` along the current input: at each position, the
    /// longest chunk whose change still fails (doubling, then bisection), taken.
    fn scan(&mut self, op: Op) -> R<()> {
        let removes = matches!(op, Op::RemoveCases | Op::RemoveUnits { .. });
        let mut i = 0;
        while i < self.op_len(op) {
            if self.skip(op, i) {
                i += 1;
                continue;
            }
            let Some(mut best) = self.probe(op, i, 1)? else {
                i += 1;
                continue;
            };
            // Removing every case is no input at all.
            let room = self.op_len(op) - i - usize::from(matches!(op, Op::RemoveCases));
            let (mut lo, mut hi) = (1, room + 1);
            let mut k = 2;
            while k <= room {
                match self.probe(op, i, k)? {
                    Some(found) => {
                        best = found;
                        lo = k;
                        k *= 2;
                    }
                    None => {
                        hi = k;
                        break;
                    }
                }
            }
            if hi == room + 1 && lo < room {
                match self.probe(op, i, room)? {
                    Some(found) => {
                        best = found;
                        lo = room;
                    }
                    None => hi = room,
                }
            }
            while hi - lo > 1 {
                let mid = lo + (hi - lo) / 2;
                match self.probe(op, i, mid)? {
                    Some(found) => {
                        best = found;
                        lo = mid;
                    }
                    None => hi = mid,
                }
            }
            self.accept(best.0, best.1);
            // After a removal, the next position holds what came after the chunk;
            // removing it too was just tried (chunk lo + 1). Lowered values are done.
            i += if removes { 1 } else { lo };
        }
        Ok(())
    }

    /// Keeps one half of the list (the first, else the second) while that still
    /// fails: two runs a halving. Bugs that depend on the whole list (a sum, a XOR)
    /// often survive in either half while no single prefix removal is telling, so
    /// this cuts a large case down before the scan.
    fn halve(&mut self, ci: usize, pi: usize) -> R<()> {
        loop {
            let units = self.op_len(Op::RemoveUnits { case: ci, part: pi });
            if units < 4 {
                return Ok(());
            }
            let half = units / 2;
            let op = Op::RemoveUnits { case: ci, part: pi };
            let found = match self.probe(op, half, units - half)? {
                Some(f) => Some(f),
                None => self.probe(op, 0, half)?,
            };
            match found {
                Some((cases, f)) => self.accept(cases, f),
                None => return Ok(()),
            }
        }
    }

    /// Each value of part `pi` of case `ci` alone: its lower bound, every smaller
    /// value when it is small, else bisection.
    fn values(&mut self, ci: usize, pi: usize) -> R<()> {
        let mut j = 0;
        while j < self.part_ref(ci, pi).values.len() {
            self.value(ci, pi, j)?;
            j += 1;
        }
        Ok(())
    }

    fn set_value(&mut self, ci: usize, pi: usize, j: usize, v: u64) -> Option<Vec<P::Case>> {
        let mut q = self.part(ci, pi);
        q.values[j] = v;
        self.with_values(ci, pi, q.values)
    }

    /// Takes value `v` for position `j` when the program still fails with it.
    fn try_value(&mut self, ci: usize, pi: usize, j: usize, v: u64) -> R<bool> {
        match self.set_value(ci, pi, j, v) {
            Some(cases) => self.try_take(cases),
            None => Ok(false),
        }
    }

    fn value(&mut self, ci: usize, pi: usize, j: usize) -> R<()> {
        let q = self.part_ref(ci, pi);
        let (v, low) = (q.values[j], q.min_value);
        if v <= low || self.try_value(ci, pi, j, low)? {
            return Ok(());
        }
        // Bisection between a passing `lo` and the failing `hi`.
        let (mut lo, mut hi) = (low, v);
        if hi - lo > SMALL_VALUE {
            while hi - lo > 1 {
                let mid = lo + (hi - lo) / 2;
                if self.try_value(ci, pi, j, mid)? {
                    hi = mid;
                } else {
                    lo = mid;
                }
            }
        }
        if hi - low <= SMALL_VALUE {
            // Small: every value below, ascending, so the smallest failing one wins
            // even when failing is not monotone (parity).
            for w in low + 1..hi {
                if self.try_value(ci, pi, j, w)? {
                    break;
                }
            }
        }
        Ok(())
    }

    /// A case without parts: the problem's own candidates (halves when the case is
    /// too large for them), the first that fails taken.
    fn fallback(&mut self, ci: usize) -> R<()> {
        let p = self.ctx.p;
        let case = &self.cur[ci];
        let smaller = if p.write_input(std::slice::from_ref(case)).len() > SHRINK_CASE_MAX_BYTES {
            let halves = p.halves(case);
            self.capped |= halves.is_empty();
            halves
        } else {
            p.shrink(case)
        };
        for s in smaller {
            let mut cases = self.cur.clone();
            cases[ci] = s;
            if self.try_take(cases)? {
                return Ok(());
            }
        }
        Ok(())
    }

    // ---------------------------------------------------------------------------
    // Game-aware steps: a part whose units are components of a sum of games.

    /// The Grundy values of the components of part `pi` of case `ci`, when the
    /// problem knows them (units of one number).
    fn comps(&mut self, ci: usize, pi: usize) -> Option<Vec<u64>> {
        if !self.ctx.opts.game_aware {
            return None;
        }
        let q = self.part_ref(ci, pi);
        if q.unit != 1 {
            return None;
        }
        let values = q.values.clone();
        self.ctx.p.component_values(&self.cur[ci], pi, &values)
    }

    /// The value of one component `v` of part `pi`.
    fn value_of(&self, ci: usize, pi: usize, v: u64) -> Option<u64> {
        let g = self.ctx.p.component_values(&self.cur[ci], pi, &[v])?;
        g.first().copied()
    }

    /// The smallest component of part `pi` worth `value`.
    fn smallest(&self, ci: usize, pi: usize, value: u64) -> Option<u64> {
        let u = self.ctx.p.smallest_component(&self.cur[ci], pi, value)?;
        match u[..] {
            [x] => Some(x),
            _ => None,
        }
    }

    /// The smallest component with the value of `v`.
    fn canonical(&self, ci: usize, pi: usize, v: u64) -> Option<u64> {
        self.smallest(ci, pi, self.value_of(ci, pi, v)?)
    }

    /// Tests part `pi` of case `ci` holding `values`, taken when it fails.
    fn try_values(&mut self, ci: usize, pi: usize, values: Vec<u64>) -> R<bool> {
        if values.len() < self.part_ref(ci, pi).min_len {
            return Ok(false);
        }
        match self.with_values(ci, pi, values) {
            Some(cases) => self.try_take(cases),
            None => Ok(false),
        }
    }

    /// Fewer components, each candidate keeping the XOR of the values (so the true
    /// answer): cancel zero values and equal pairs; merge all into one; keep one
    /// apart (largest value first) and merge the rest into one or two; the shortest
    /// prefix that still fails with the rest merged into its last component.
    fn game_counts(&mut self, ci: usize, pi: usize) -> R<()> {
        // Each step taken leaves fewer components: again until none is.
        while self.game_count_step(ci, pi)? {}
        Ok(())
    }

    /// One of [`Shrinker::game_counts`]'s steps, the first that fails; whether one did.
    fn game_count_step(&mut self, ci: usize, pi: usize) -> R<bool> {
        let Some(g) = self.comps(ci, pi) else {
            return Ok(false);
        };
        let v = self.part(ci, pi).values;
        let n = v.len();
        if n < 2 {
            return Ok(false);
        }
        let x = g.iter().fold(0, |a, &b| a ^ b);
        // Zero values and equal pairs, all at once; then zero values alone.
        let mut count: FxHashMap<u64, usize> = FxHashMap::default();
        for &gi in &g {
            *count.entry(gi).or_default() += 1;
        }
        let mut seen = FxHashSet::default();
        let kept: Vec<u64> = (0..n)
            .filter(|&i| g[i] != 0 && count[&g[i]] % 2 == 1 && seen.insert(g[i]))
            .map(|i| v[i])
            .collect();
        if kept.len() < n && !kept.is_empty() && self.try_values(ci, pi, kept)? {
            return Ok(true);
        }
        let nonzero: Vec<u64> = (0..n).filter(|&i| g[i] != 0).map(|i| v[i]).collect();
        if nonzero.len() < n && !nonzero.is_empty() && self.try_values(ci, pi, nonzero)? {
            return Ok(true);
        }
        // All merged into one.
        if let Some(s) = self.smallest(ci, pi, x) {
            if self.try_values(ci, pi, vec![s])? {
                return Ok(true);
            }
        }
        // One kept apart, the rest merged into one or two.
        if n > 2 {
            let mut order: Vec<usize> = (0..n).collect();
            order.sort_by_key(|&i| (std::cmp::Reverse(g[i]), i));
            order.dedup_by_key(|i| g[*i]);
            for &j in order.iter().take(MERGE_TRIES) {
                let r = x ^ g[j];
                // In input order: the merged ones stand where the first of them was.
                let place = |mut merged: Vec<u64>| {
                    if j == 0 {
                        merged.insert(0, v[j]);
                    } else {
                        merged.push(v[j]);
                    }
                    merged
                };
                if let Some(s) = self.smallest(ci, pi, r) {
                    if self.try_values(ci, pi, place(vec![s]))? {
                        return Ok(true);
                    }
                }
                if n > 3 && r != 0 {
                    let top = 1u64 << (63 - r.leading_zeros());
                    let rest = r ^ top;
                    if let (Some(a), Some(b)) =
                        (self.smallest(ci, pi, top), self.smallest(ci, pi, rest))
                    {
                        if self.try_values(ci, pi, place(vec![a, b]))? {
                            return Ok(true);
                        }
                    }
                }
            }
        }
        if n > 4 {
            return self.count_search(ci, pi, &v, &g);
        }
        Ok(false)
    }

    /// Binary search for the fewest components `k` such that the first `k - 1` and
    /// one component worth the XOR of the rest still fail: bugs of the number of
    /// components (arrays too small) come down to the threshold.
    fn count_search(&mut self, ci: usize, pi: usize, v: &[u64], g: &[u64]) -> R<bool> {
        let n = v.len();
        let mut suffix = vec![0u64; n + 1];
        for i in (0..n).rev() {
            suffix[i] = suffix[i + 1] ^ g[i];
        }
        let min_len = self.part_ref(ci, pi).min_len.max(1);
        let (mut lo, mut hi) = (min_len - 1, n);
        while hi - lo > 1 {
            let mid = lo + (hi - lo) / 2;
            let taken = match self.smallest(ci, pi, suffix[mid - 1]) {
                Some(s) => {
                    let mut c = Vec::with_capacity(mid);
                    c.extend_from_slice(&v[..mid - 1]);
                    c.push(s);
                    self.try_values(ci, pi, c)?
                }
                None => false,
            };
            if taken {
                hi = mid;
            } else {
                lo = mid;
            }
        }
        Ok(hi < n)
    }

    /// Smaller values keeping the XOR: every component by the smallest of its value;
    /// chunks to the lower bound with one component compensating; then, in a short
    /// list, each component lowered alone (a windowed bisection) with the largest
    /// other compensating.
    fn game_values(&mut self, ci: usize, pi: usize) -> R<()> {
        if self.comps(ci, pi).is_none() {
            return Ok(());
        }
        let op = Op::Canon { case: ci, part: pi };
        let n = self.op_len(op);
        if n > 1 {
            if let Some(cases) = self.apply(op, 0, n) {
                self.try_take(cases)?;
            }
        }
        self.scan(op)?;
        if self.op_len(op) > 1 {
            self.scan(Op::LowerKeep { case: ci, part: pi })?;
        }
        if self.op_len(op) <= KEEP_LOWER_MAX {
            let mut j = 0;
            while j < self.op_len(op) {
                self.lower_keep(ci, pi, j)?;
                j += 1;
            }
        }
        Ok(())
    }

    /// Component `j` with value `w`, and the component of largest value among the
    /// others changed so that the XOR of all values stays.
    fn keep_candidate(&mut self, ci: usize, pi: usize, j: usize, w: u64) -> Option<Vec<u64>> {
        let q = self.part(ci, pi);
        let g = self.comps(ci, pi)?;
        let c = (0..q.values.len())
            .filter(|&i| i != j)
            .max_by_key(|&i| (g[i], i))?;
        let need = g[c] ^ g[j] ^ self.value_of(ci, pi, w)?;
        let mut values = q.values;
        values[j] = w;
        values[c] = self.smallest(ci, pi, need)?;
        smaller_sum(&values, &self.part_ref(ci, pi).values).then_some(values)
    }

    fn lower_keep(&mut self, ci: usize, pi: usize, j: usize) -> R<()> {
        let q = self.part(ci, pi);
        let (v, low) = (q.values[j], q.min_value);
        if v <= low || q.values.len() < 2 {
            return Ok(());
        }
        let take = |s: &mut Self, w: u64| -> R<bool> {
            match s.keep_candidate(ci, pi, j, w) {
                Some(values) => s.try_values(ci, pi, values),
                None => Ok(false),
            }
        };
        if take(self, low)? {
            return Ok(());
        }
        // Windowed bisection between `lo` (no failure known at or below it) and the
        // failing `hi`.
        let (mut lo, mut hi) = (low, v);
        while hi - lo > 1 {
            let mid = lo + (hi - lo) / 2;
            let end = mid.saturating_add(LOWER_WINDOW).min(hi);
            let mut found = None;
            for w in mid..end {
                if take(self, w)? {
                    found = Some(w);
                    break;
                }
            }
            match found {
                Some(w) => hi = w,
                None => lo = end - 1,
            }
        }
        Ok(())
    }

    // ---------------------------------------------------------------------------
    // The minimality check.

    /// Runs every valid one-case input smaller than the current one (one case of
    /// size less than its size, [`Problem::case_size`]), smallest first, many cases a
    /// run, within [`MINIMALITY_RUNS`] runs. `Ok(None)` when one of them failed with
    /// the target: it is taken (the caller shrinks it again). Otherwise how far the
    /// check went: `done` when it covered every size it set out to.
    fn check_smaller(&mut self) -> R<Option<Check>> {
        let p = self.ctx.p;
        let mut check = Check::default();
        let [case] = &self.cur[..] else {
            return Ok(Some(check));
        };
        let Some(size) = p.case_size(case) else {
            return Ok(Some(check));
        };
        if size == 0 {
            check.done = true;
            return Ok(Some(check));
        }
        // Wrong answers and crashes of one case show in a batch; time, memory and
        // output limits are a batch's, so those are checked one case a run.
        let per_run = if matches!(self.target, Verdict::WrongAnswer | Verdict::RuntimeError) {
            p.max_cases().clamp(1, MINIMALITY_BATCH)
        } else {
            1
        };
        let room = (MINIMALITY_RUNS as usize).saturating_mul(per_run);
        // The sizes that fit in the budget, all their cases listed first.
        let mut cases: Vec<P::Case> = Vec::new();
        let mut up_to = None;
        for s in 0..size {
            match p.all_cases_of_size(s, room - cases.len()) {
                Some(more) => {
                    cases.extend(more);
                    up_to = Some(s);
                }
                None => break,
            }
            if cases.len() >= room {
                break;
            }
        }
        let Some(up_to) = up_to else {
            return Ok(Some(check));
        };
        // Runs of at most `per_run` cases and BATCH_MAX_BYTES bytes.
        let mut start = 0;
        while start < cases.len() {
            let mut end = start;
            let mut bytes = 0;
            while end < cases.len() && end - start < per_run {
                bytes += p.write_input(std::slice::from_ref(&cases[end])).len();
                if end > start && bytes > BATCH_MAX_BYTES {
                    break;
                }
                end += 1;
            }
            check.cases += (end - start) as u64;
            if let Some(found) = self.first_failing(&cases[start..end], &mut check)? {
                let (c, f) = found;
                self.accept(vec![c], f);
                return Ok(None);
            }
            start = end;
        }
        check.up_to = Some(up_to);
        check.done = true;
        Ok(Some(check))
    }

    /// Runs `cases` as one input; when it fails, the first case that fails alone with
    /// the target (halving: the first half, else the second).
    fn first_failing(
        &mut self,
        cases: &[P::Case],
        check: &mut Check,
    ) -> R<Option<(P::Case, Failure)>> {
        if Instant::now() >= self.deadline {
            return Err(Halt::Time);
        }
        let expected = self.ctx.expected(cases);
        let input = self.ctx.p.write_input(cases);
        self.runs += 1;
        check.runs += 1;
        let Some(f) = self.ctx.run_input(&input, cases.len(), &expected)? else {
            return Ok(None);
        };
        if cases.len() == 1 {
            if f.kind == self.target {
                return Ok(Some((cases[0].clone(), f)));
            }
            if !self.others.iter().any(|(_, o)| o.kind == f.kind) {
                self.others.push((cases.to_vec(), f));
            }
            return Ok(None);
        }
        let half = cases.len() / 2;
        if let Some(found) = self.first_failing(&cases[..half], check)? {
            return Ok(Some(found));
        }
        self.first_failing(&cases[half..], check)
    }
}

/// Whether `a` adds up to less than `b` (a step that only moves value around is no
/// shrink: it could undo another).
fn smaller_sum(a: &[u64], b: &[u64]) -> bool {
    let sum = |v: &[u64]| v.iter().map(|&x| u128::from(x)).sum::<u128>();
    sum(a) < sum(b)
}

/// How far the minimality check went.
#[derive(Default)]
struct Check {
    /// Every one-case input of at most this size was run.
    up_to: Option<u64>,
    /// The check covered every size it set out to (within its budget).
    done: bool,
    cases: u64,
    runs: u64,
}
