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
//! 4. For a case without parts: when its position is a tree ([`Problem::tree`]), the
//!    tree steps of [`tree`] (the deepest path alone, the depth and the size
//!    bisected, branches cut or made stalks keeping the tree's value); then the
//!    problem's own [`Problem::shrink`] candidates (or [`Problem::halves`] of a case
//!    too large for them).
//!
//! Where the problem knows its components' Grundy values, the steps of [`game`] come
//! first in each part (sets of components whose values XOR to 0 dropped, components
//! merged or replaced by the smallest one of the same value); after a 1-minimal
//! result, [`minimality`] runs every smaller input (one case or several) within a
//! budget.
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

mod game;
mod minimality;
mod tree;

use game::smaller_sum;
use minimality::Check;
pub(crate) use minimality::{input_size, multi_case_inputs};

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

/// Most runs of the minimality check on inputs of several cases (one input a run).
pub const MINIMALITY_MULTI_RUNS: u64 = 256;

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
    /// The minimality check met a smaller input the problem cannot answer: it claims
    /// nothing.
    Unanswerable,
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
                Err(Halt::Time | Halt::Unanswerable) => break false,
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
                Err(Halt::Time | Halt::Unanswerable) => break true,
                Err(Halt::Err(e)) => return Err(e),
            }
        };
        let size = minimality::input_size(self.ctx.p, &self.cur);
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
                one_case_checked_up_to: check.one_case_up_to,
                several_cases: check.several_cases,
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
        let Some(expected) = self.ctx.expected(cases) else {
            return Ok(None);
        };
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
                self.tree_steps(ci)?;
                self.fallback(ci)?;
            }
            // A step may take a part away (an item of a group emptied is an item
            // removed): each step first asks whether its part is still there.
            for pi in 0..nparts {
                if !self.has_part(ci, pi) {
                    break;
                }
                if self.part_ref(ci, pi).unit > 0 {
                    self.game_counts(ci, pi)?;
                    // Values first where the game knows them: a list of equal values
                    // costs one run to scan for removals, a list of distinct ones a
                    // run per value when no single removal fails (a XOR).
                    if self.has_part(ci, pi) {
                        self.game_values(ci, pi)?;
                    }
                    if self.has_part(ci, pi) {
                        self.halve(ci, pi)?;
                    }
                    self.scan(Op::RemoveUnits { case: ci, part: pi })?;
                }
            }
            for pi in 0..nparts {
                if !self.has_part(ci, pi) {
                    break;
                }
                self.game_values(ci, pi)?;
                if !self.has_part(ci, pi) {
                    break;
                }
                let part = self.part_ref(ci, pi);
                if part.values.iter().any(|&v| v > part.min_value) {
                    let low = vec![part.min_value; part.values.len()];
                    if let Some(cases) = self.with_values(ci, pi, low) {
                        self.try_take(cases)?;
                    }
                }
                if !self.has_part(ci, pi) {
                    break;
                }
                if self.part_ref(ci, pi).values.len() > 2 {
                    self.scan(Op::Lower { case: ci, part: pi })?;
                }
                if !self.has_part(ci, pi) {
                    break;
                }
                self.values(ci, pi)?;
            }
            for s in p.renumbered(&self.cur[ci]) {
                let mut cases = self.cur.clone();
                cases[ci] = s;
                if self.try_take(cases)? {
                    break;
                }
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

    /// Whether case `ci` is there and still has part `pi`.
    fn has_part(&mut self, ci: usize, pi: usize) -> bool {
        ci < self.cur.len() && pi < self.parts_of(ci).len()
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
            // The part is gone (a step took it away): nothing left to scan.
            Op::RemoveUnits { case, part }
            | Op::Lower { case, part }
            | Op::Canon { case, part }
            | Op::LowerKeep { case, part }
                if !self.has_part(case, part) =>
            {
                0
            }
            Op::RemoveCases => self.cur.len(),
            Op::RemoveUnits { case, part } => {
                let q = self.part_ref(case, part);
                q.values.len() / q.unit.max(1)
            }
            Op::Lower { case, part } => self.part_ref(case, part).values.len(),
            // Whole components (a pile, an E&D pair).
            Op::Canon { case, part } | Op::LowerKeep { case, part } => {
                let q = self.part_ref(case, part);
                q.values.len() / q.unit.max(1)
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
            Op::Lower { case, part } => {
                let q = self.part_ref(case, part);
                q.values[i] <= q.min_value
            }
            Op::LowerKeep { case, part } => {
                let q = self.part_ref(case, part);
                let u = q.unit.max(1);
                q.values[i * u..(i + 1) * u]
                    .iter()
                    .all(|&v| v <= q.min_value)
            }
            Op::Canon { case, part } => {
                let q = self.part_ref(case, part);
                let u = q.unit.max(1);
                let v = q.values[i * u..(i + 1) * u].to_vec();
                self.canonical(case, part, &v).as_ref() == Some(&v)
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
                let u = q.unit.max(1);
                let mut changed = false;
                for j in i..i + k {
                    let v = q.values[j * u..(j + 1) * u].to_vec();
                    if let Some(w) = self.canonical(case, part, &v).filter(|w| *w != v) {
                        q.values[j * u..(j + 1) * u].copy_from_slice(&w);
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
                let u = q.unit.max(1);
                let g = self.comps(case, part)?;
                let lowest = vec![q.min_value; u];
                let low = self.value_of(case, part, &lowest)?;
                // The compensating component: the largest value outside the chunk.
                let c = (0..g.len())
                    .filter(|&j| j < i || j >= i + k)
                    .max_by_key(|&j| (g[j], j))?;
                let removed = g[i..i + k].iter().fold(0, |a, &b| a ^ b);
                let added = if k % 2 == 1 { low } else { 0 };
                let need = g[c] ^ removed ^ added;
                let sc = self.smallest(case, part, need)?;
                let mut values = q.values.clone();
                for v in &mut values[i * u..(i + k) * u] {
                    *v = q.min_value;
                }
                values[c * u..(c + 1) * u].copy_from_slice(&sc);
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
}
