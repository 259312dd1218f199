//! Where the audit's inputs come from: every tiny case smallest-first, then random
//! cases of growing size, interleaved with cases at the limits. Batches are numbered
//! and each random batch draws from its own generator seeded by (seed, batch number),
//! so the same seed gives the same inputs in the same order.

use crate::problems::{Problem, Shape};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::collections::VecDeque;
use std::time::Instant;

/// Largest total size the smallest-first enumeration goes to.
const ENUM_MAX_SIZE: u32 = 64;
/// Most cases the enumeration produces in all.
const ENUM_MAX_CASES: u64 = 50_000;
/// The enumeration ends after this many sizes in a row without any case.
const ENUM_MAX_EMPTY: u32 = 12;
/// Length of the first scale ramp (in random cases); each later ramp is twice as
/// long, so a long audit keeps revisiting small and middle sizes.
const FIRST_RAMP: u64 = 320;

/// Which part of the search a batch comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    /// Smallest-first enumeration of tiny cases.
    Enumerate,
    /// Random cases at a growing scale.
    Random,
    /// Cases at the limits (scale 1, most cases, edge cases).
    Limits,
    /// The problem's corners ([`Problem::corner_cases`]), one an input, early.
    Corners,
    /// The problem's known answers ([`Problem::samples`]), one sample an input, right
    /// after the first batch of tiny cases.
    Samples,
}

impl Phase {
    /// A word for the progress line.
    pub fn name(self) -> &'static str {
        match self {
            Phase::Enumerate => "tiny cases",
            Phase::Random => "random",
            Phase::Limits => "limits",
            Phase::Corners => "corners",
            Phase::Samples => "samples",
        }
    }
}

/// One input's worth of cases.
#[derive(Clone, Debug)]
pub struct Batch<C> {
    /// Position in the search order (smaller = earlier = preferred).
    pub seq: u64,
    /// The cases, numbered from 0 in the input.
    pub cases: Vec<C>,
    /// The input text holding them.
    pub input: String,
    /// Where they come from.
    pub phase: Phase,
    /// The generator scale (0 for enumerated cases, the largest for random ones).
    pub scale: f64,
}

/// A SplitMix64 step: decorrelates seeds of consecutive batches.
pub fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The scale of random case `k`: ramps 0 -> 1 over `FIRST_RAMP` cases, then again
/// over twice as many, and so on. Quadratic in the position on the ramp: most cases
/// stay small and cheap (most bugs show there, and a run costs time in proportion to
/// its input), while every ramp still ends at the limits.
pub fn scale_of(k: u64) -> f64 {
    let mut len = FIRST_RAMP;
    let mut k = k;
    while k >= len {
        k -= len;
        len = len.saturating_mul(2);
    }
    let t = k as f64 / (len - 1) as f64;
    t * t
}

/// Below this scale no case asks for [`Shape::ManyWinning`]: a tiny case may have no
/// room for several winning moves, and a generator may keep drawing forever.
const MANY_WINNING_MIN_SCALE: f64 = 0.05;

fn random_shape(rng: &mut ChaCha8Rng, scale: f64) -> Shape {
    // Random positions are nearly all first-player wins: ask for losing ones on
    // purpose, and for wins with several winning moves (where count/best-move bugs
    // live).
    match rng.gen_range(0..10) {
        0..=3 => Shape::Losing,
        4..=6 if scale >= MANY_WINNING_MIN_SCALE => Shape::ManyWinning,
        _ => Shape::Any,
    }
}

/// What a batch will hold, decided cheaply (under the source's lock); the cases are
/// drawn by [`Ticket::build`], outside it, from a generator seeded by the batch's
/// number, so the result does not depend on which worker builds it.
#[derive(Clone, Debug)]
pub struct Ticket<C> {
    /// Position in the search order.
    pub seq: u64,
    plan: Plan<C>,
    limit: usize,
}

#[derive(Clone, Debug)]
enum Plan<C> {
    Cases(Vec<C>),
    Corner(C),
    Sample(Vec<C>),
    Random(u64),
    Limits(u64),
}

impl<C: Clone> Ticket<C> {
    /// Draws the cases and writes the input (at most `max_bytes` of it unless a
    /// single case is larger).
    pub fn build<P: Problem<Case = C>>(self, p: &P, seed: u64, max_bytes: usize) -> Batch<C> {
        let limit = self.limit;
        let (cases, phase, scale) = match self.plan {
            Plan::Cases(cases) => (cases, Phase::Enumerate, 0.0),
            Plan::Corner(case) => (vec![case], Phase::Corners, 1.0),
            Plan::Sample(cases) => (cases, Phase::Samples, 0.0),
            Plan::Random(first) => {
                // Random case k comes from its own generator: the same cases in the
                // same order whether batched or not.
                let last = scale_of(first + limit as u64 - 1);
                let cases = take_within(
                    p,
                    max_bytes,
                    last,
                    (first..first + limit as u64).map(|k| {
                        let scale = scale_of(k);
                        let mut rng = ChaCha8Rng::seed_from_u64(mix(seed ^ mix(k)));
                        let shape = random_shape(&mut rng, scale);
                        p.generate(&mut rng, scale, shape)
                    }),
                );
                (cases, Phase::Random, last)
            }
            Plan::Limits(j) => (
                limit_cases(p, seed, j, limit, max_bytes),
                Phase::Limits,
                1.0,
            ),
        };
        let mut cases = cases;
        let mut input = p.write_input(&cases);
        while input.len() > max_bytes && cases.len() > 1 {
            cases.truncate(cases.len() / 2);
            input = p.write_input(&cases);
        }
        Batch {
            seq: self.seq,
            cases,
            input,
            phase,
            scale,
        }
    }
}

/// Below this scale cases are assumed small and batches are not measured as they
/// are drawn.
const MEASURE_SCALE: f64 = 0.25;

/// Takes cases from `cases` while their inputs add up to at most `max_bytes` (at least
/// one), so that a batch of large cases is never drawn whole only to be cut: at the
/// limits (10^6 piles a case) that would take gigabytes.
fn take_within<P: Problem>(
    p: &P,
    max_bytes: usize,
    scale: f64,
    cases: impl Iterator<Item = P::Case>,
) -> Vec<P::Case> {
    if scale < MEASURE_SCALE {
        return cases.collect();
    }
    let mut out = Vec::new();
    let mut bytes = 0;
    for c in cases {
        bytes += p.write_input(std::slice::from_ref(&c)).len();
        if !out.is_empty() && bytes > max_bytes {
            break;
        }
        out.push(c);
    }
    out
}

/// Limit batch number `j`: rotates between a largest losing case, a largest winning
/// one with many winning moves, the most cases at the largest scale, and the most
/// cases of tiny edge cases (all zeros, single elements), one in two of these last
/// replaced by cases at the boundaries bugs have ([`super::boundary`]).
fn limit_cases<P: Problem>(
    p: &P,
    seed: u64,
    j: u64,
    limit: usize,
    max_bytes: usize,
) -> Vec<P::Case> {
    let mut rng = ChaCha8Rng::seed_from_u64(mix(seed ^ mix(j) ^ 0x4C49_4D49_5453));
    // One edge batch in two is a boundary batch (lengths past powers of two, overflow
    // values, large component values: `super::boundary`).
    if j % 8 == 3 {
        let cases = super::boundary::boundary_cases(p, &mut rng, j / 8);
        if !cases.is_empty() {
            // As many cases as planned (repeated), within the bytes of a batch.
            let n = cases.len();
            return take_within(p, max_bytes, 1.0, (0..limit).map(|i| cases[i % n].clone()));
        }
    }
    match j % 4 {
        0 => vec![p.generate(&mut rng, 1.0, Shape::Losing)],
        1 => vec![p.generate(&mut rng, 1.0, Shape::ManyWinning)],
        2 => take_within(
            p,
            max_bytes,
            1.0,
            (0..limit).map(|_| {
                let shape = random_shape(&mut rng, 1.0);
                p.generate(&mut rng, 1.0, shape)
            }),
        ),
        _ => {
            let mut edges: Vec<P::Case> = p
                .small_cases(0)
                .into_iter()
                .chain(p.small_cases(1))
                .filter(|c| p.check_limits(c).is_ok())
                .collect();
            if edges.is_empty() {
                edges.push(p.generate(&mut rng, 0.0, Shape::Any));
            }
            let first = (j / 4) as usize;
            (0..limit)
                .map(|i| edges[(first + i) % edges.len()].clone())
                .collect()
        }
    }
}

/// The stream of batches.
pub struct Source<'a, P: Problem> {
    p: &'a P,
    per_batch: usize,
    queue: VecDeque<P::Case>,
    size: u32,
    empty_sizes: u32,
    enumerated: u64,
    enum_done: bool,
    /// Random cases handed out.
    random: u64,
    /// Limit batches handed out.
    limits: u64,
    /// Random and limit batches handed out.
    random_batches: u64,
    seq: u64,
    /// Cases handed out so far.
    pub scheduled: u64,
    /// The corners not yet handed out; `None` until first asked for.
    corners: Option<VecDeque<P::Case>>,
    /// The known answers' inputs not yet handed out (see [`Source::with_samples`]).
    samples: VecDeque<Vec<P::Case>>,
}

impl<'a, P: Problem> Source<'a, P> {
    /// A source for `p`, `per_batch` cases at most per input (1 = no batching).
    pub fn new(p: &'a P, per_batch: usize) -> Self {
        Source {
            p,
            per_batch: per_batch.max(1),
            queue: VecDeque::new(),
            size: 0,
            empty_sizes: 0,
            enumerated: 0,
            enum_done: false,
            random: 0,
            limits: 0,
            random_batches: 0,
            seq: 0,
            scheduled: 0,
            corners: None,
            samples: VecDeque::new(),
        }
    }

    /// The source with the inputs of the problem's known answers (each sample's
    /// cases) handed out first after the first batch of tiny cases: a program that
    /// fails a sample fails there, unless that first batch (the smallest inputs, run
    /// alongside) fails too, which is then the smaller failure.
    pub fn with_samples(mut self, samples: Vec<Vec<P::Case>>) -> Self {
        self.samples = samples.into();
        self
    }

    fn refill(&mut self) {
        while self.queue.is_empty() && !self.enum_done {
            if self.size > ENUM_MAX_SIZE
                || self.empty_sizes >= ENUM_MAX_EMPTY
                || self.enumerated >= ENUM_MAX_CASES
            {
                self.enum_done = true;
                break;
            }
            // Checked one by one (a declared game's check may run a script on each),
            // no more than there is room for, and under the deadline in force: cut
            // there, nothing of this size is kept (the search drops what comes after
            // its cut anyway).
            let room = (ENUM_MAX_CASES - self.enumerated) as usize;
            let deadline = sgcheck_oracles::scoped_deadline();
            let mut cases: Vec<P::Case> = Vec::new();
            for (i, c) in self.p.small_cases(self.size).into_iter().enumerate() {
                if cases.len() >= room {
                    break;
                }
                if i % 64 == 0 && deadline.is_some_and(|d| Instant::now() >= d) {
                    return;
                }
                if self.p.check_limits(&c).is_ok() {
                    cases.push(c);
                }
            }
            self.size += 1;
            if cases.is_empty() {
                self.empty_sizes += 1;
                continue;
            }
            self.empty_sizes = 0;
            self.enumerated += cases.len() as u64;
            self.queue.extend(cases);
        }
    }

    /// Whether the smallest-first enumeration has cases left.
    pub fn enumerating(&mut self) -> bool {
        self.refill();
        !self.queue.is_empty()
    }

    /// The number the next batch will have.
    pub fn next_seq(&self) -> u64 {
        self.seq
    }

    /// The next batch to build: after the first, the known answers' inputs (one
    /// sample a batch); the problem's corners (one a batch, every other batch, while
    /// they last), tiny cases smallest-first (three batches in four, while they
    /// last and `enumerate` allows), else random cases, and every fourth of
    /// those a batch at the limits; at most `room` cases (room >= 1).
    pub fn next(&mut self, enumerate: bool, room: usize) -> Ticket<P::Case> {
        let limit = self.per_batch.min(room.max(1));
        let seq = self.seq;
        self.seq += 1;
        // While tiny cases last, three batches in four are tiny cases: the order of
        // batches depends on nothing but their number (reproducible from the seed),
        // and random and limit cases start early even in a short audit.
        // The corners come first among the batches of odd number (one case each),
        // so that a short audit tries them all.
        let p = self.p;
        let corners = self
            .corners
            .get_or_insert_with(|| p.corner_cases().into_iter().collect());
        // A sample with more cases than `--cases` leaves room for is not run.
        while self.samples.front().is_some_and(|s| s.len() > room) {
            self.samples.pop_front();
        }
        let sample = if seq >= 1 {
            self.samples.pop_front()
        } else {
            None
        };
        let corner = if sample.is_none() && seq % 2 == 1 {
            corners.pop_front()
        } else {
            None
        };
        let (plan, count) = if let Some(cases) = sample {
            let n = cases.len();
            (Plan::Sample(cases), n)
        } else if let Some(c) = corner {
            (Plan::Corner(c), 1)
        } else if enumerate && seq % 4 != 3 && self.enumerating() {
            let mut cases = Vec::with_capacity(limit);
            while cases.len() < limit {
                self.refill();
                match self.queue.pop_front() {
                    Some(c) => cases.push(c),
                    None => break,
                }
            }
            let n = cases.len();
            (Plan::Cases(cases), n)
        } else if self.random_batches % 4 == 3 {
            self.random_batches += 1;
            let j = self.limits;
            self.limits += 1;
            (Plan::Limits(j), if j % 4 < 2 { 1 } else { limit })
        } else {
            self.random_batches += 1;
            let first = self.random;
            self.random += limit as u64;
            (Plan::Random(first), limit)
        };
        self.scheduled += count as u64;
        Ticket { seq, plan, limit }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::problems::testing::P2197;

    #[test]
    fn scale_ramps() {
        assert_eq!(scale_of(0), 0.0);
        assert!(scale_of(FIRST_RAMP / 2) < 0.3);
        assert_eq!(scale_of(FIRST_RAMP - 1), 1.0);
        assert_eq!(scale_of(FIRST_RAMP), 0.0);
        assert_eq!(scale_of(3 * FIRST_RAMP - 1), 1.0);
    }

    fn next(s: &mut Source<'_, P2197>, enumerate: bool, room: usize) -> Batch<Vec<u64>> {
        s.next(enumerate, room).build(&P2197, 1, 1 << 20)
    }

    #[test]
    fn enumerates_smallest_first_then_random() {
        let mut s = Source::new(&P2197, 10);
        let b = next(&mut s, true, usize::MAX);
        assert_eq!(b.phase, Phase::Enumerate);
        assert_eq!(b.cases[0], vec![0]);
        assert!(b.cases.len() == 10);
        assert_eq!(b.input, P2197.write_input(&b.cases));
        let b = next(&mut s, false, 3);
        assert_eq!(b.phase, Phase::Random);
        assert!(b.cases.len() <= 3);
        assert!(b.cases.iter().all(|c| P2197.check_limits(c).is_ok()));
    }

    #[test]
    fn same_seed_same_batches() {
        let mut a = Source::new(&P2197, 10);
        let mut b = Source::new(&P2197, 10);
        for _ in 0..12 {
            assert_eq!(
                next(&mut a, false, 100).cases,
                next(&mut b, false, 100).cases
            );
        }
    }

    #[test]
    fn byte_cap_halves_a_batch() {
        let mut s = Source::new(&P2197, 10);
        // Batch 11 is limit batch 2: ten cases at the largest scale.
        let t = (0..12).map(|_| s.next(false, 100)).last().unwrap();
        let b = t.clone().build(&P2197, 1, 1 << 30);
        assert_eq!((b.phase, b.cases.len()), (Phase::Limits, 10));
        let b = t.build(&P2197, 1, 1000);
        assert!(b.cases.len() < 10);
        assert!(b.input.len() <= 1000 || b.cases.len() == 1);
    }

    #[test]
    fn limit_batches_come_every_fourth() {
        let mut s = Source::new(&P2197, 10);
        let phases: Vec<Phase> = (0..8).map(|_| next(&mut s, false, 100).phase).collect();
        assert_eq!(phases[3], Phase::Limits);
        assert_eq!(phases[7], Phase::Limits);
        assert_eq!(phases[0], Phase::Random);
    }
}
