//! Fuzz targets: the checks behind sgcheck's own cargo-fuzz targets, and
//! [`check_case`] for a fuzz target of your own solver.
//!
//! # Your own solver
//!
//! [`crate::Case<R>`] implements `arbitrary::Arbitrary` for every [`crate::Game`], so a
//! fuzz target is three lines (`fuzz/fuzz_targets/my_lasker.rs` of a `cargo fuzz init`
//! crate that depends on sgcheck):
//!
//! ```ignore
//! #![no_main]
//! use sgcheck::{oracles::games::lasker::Lasker, Case};
//! libfuzzer_sys::fuzz_target!(|case: Case<Lasker>| {
//!     sgcheck::fuzzing::check_case(&case, my_crate::my_lasker);
//! });
//! ```
//!
//! A disagreement panics with the position, both answers and the Rust snippet that
//! reproduces it; libFuzzer reports the panic as a crash and saves the input.
//!
//! # sgcheck's own targets
//!
//! Each target under `fuzz/fuzz_targets/` only decodes its input with `arbitrary` and
//! calls one function: [`check_agree`] for a game's `<game>_agree` target (its input
//! [`Agree<S>`], decoded by the game's [`AgreeTarget`]), or, for a problem's
//! `<problem>_parse` target, `sgcheck::problems::fuzz::check_parse`. The catalogue of
//! every target and its replay is `sgcheck::problems::fuzz`. `tests/fuzz_corpus.rs`
//! feeds every committed file
//! of `corpus/fuzz/<target>/` and `corpus/regressions/<target>/` through the same
//! function under plain `cargo test`, on stable, without libFuzzer. A finding becomes a
//! regression test by committing its (minimized) file.
//!
//! Two kinds of targets:
//! - `<game>_agree`: a small position (and the game's parameters) on which the fast
//!   solver and the exhaustive oracle must agree on verdict, best move, count and the
//!   whole set of winning moves. Inputs too large for the oracle are rejected.
//! - `<problem>_parse`: arbitrary bytes into the problem's parser must give an answer
//!   or a clean error, never a panic; an accepted input must round-trip (written out
//!   again and re-parsed, it gives the same cases and the same answer).
//!
//! The `Debug` of every input is a one-line `sgcheck` command that reproduces it, so a
//! crash report from libFuzzer says how to re-run the case outside the fuzzer.

use crate::verify::{check_command, compare, Subject};
use arbitrary::{Arbitrary, Unstructured};
use sgcheck_oracles::{with_cached_solver, Rules};
use std::fmt;
use std::marker::PhantomData;

/// Oracle budget for one fuzz input.
pub const FUZZ_BUDGET: usize = 200_000;

/// What a check did with an input.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Checked {
    /// The input was checked (and passed: failures panic).
    Kept,
    /// The input was outside the target's domain (too large for the oracle, or not a
    /// valid instance); the fuzzer should not add it to the corpus.
    Rejected,
}

/// Asserts that the fast side and the oracle agree on one instance; panics with the
/// [`crate::verify::Disagreement`] (position, both answers, reproduction) when they do
/// not, after shrinking it in process ([`shrink_disagreement`]).
///
/// The oracle's table is kept across inputs for the same rules (one solver per rules
/// value and thread, [`with_cached_solver`]): a fuzzer meets the same small positions
/// again and again, and a kept table answers them with lookups.
pub fn agree<S: Subject>(
    subject: &S,
    rules: &S::Rules,
    pos: &<S::Rules as Rules>::Position,
) -> Checked
where
    S::Rules: crate::Game,
{
    match with_cached_solver(rules, true, FUZZ_BUDGET, |solver| {
        compare(subject, solver, pos)
    }) {
        Ok(None) => Checked::Kept,
        Ok(Some(d)) => {
            let (d, steps) = shrink_disagreement(subject, rules.clone(), pos.clone(), d);
            panic!("{} ({}): {d}{}", subject.id(), rules, shrunk_note(steps))
        }
        Err(_) => Checked::Rejected,
    }
}

/// What a panic message adds about the in-process shrinking.
fn shrunk_note(steps: usize) -> String {
    if steps > 0 {
        format!("\n  (shrunk in process in {steps} steps from the case fuzzed)")
    } else {
        String::new()
    }
}

/// The body of a fuzz target for your own solver `fast` of the game `R`: panics with
/// the whole disagreement when `fast` is wrong on `case`; [`Checked::Rejected`] when
/// the case is too large for the oracle (return `Corpus::Reject` then, if your target
/// returns a `Corpus`).
///
/// ```
/// use sgcheck::fuzzing::{check_case, Checked};
/// use sgcheck::oracles::games::nim::{Nim, Piles, Take};
/// use sgcheck::oracles::Analysis;
/// use sgcheck::Case;
///
/// fn bouton(_: &Nim, pos: &Piles) -> Analysis<Take> {
///     let x = pos.0.iter().fold(0, |a, &p| a ^ p);
///     let winning = pos.0.iter().enumerate()
///         .filter(|&(_, &p)| p ^ x < p)
///         .map(|(pile, &p)| Take { pile, amount: p - (p ^ x) })
///         .collect();
///     Analysis { win: x != 0, winning, remoteness: None }
/// }
///
/// // What `fuzz_target!(|case: Case<Nim>| { check_case(&case, bouton); })` runs on
/// // one input; the bytes choose a size, then one instance of that size.
/// let case: Case<Nim> = sgcheck::fuzzing::decode(&[5, 17, 3]).unwrap();
/// assert_eq!(check_case(&case, bouton), Checked::Kept);
/// ```
///
/// # Panics
/// When `fast` and the oracle disagree on `case`.
pub fn check_case<R: crate::Game, F>(case: &crate::Case<R>, fast: F) -> Checked
where
    F: Fn(&R, &R::Position) -> sgcheck_oracles::Analysis<R::Move> + Sync,
{
    // The oracle's table is kept across inputs (one solver per rules value and
    // thread), as for sgcheck's own targets: a fuzzer meets the same small positions
    // again and again.
    let subject = crate::harness::FastSolver::new(fast);
    match with_cached_solver(&case.rules, true, FUZZ_BUDGET, |solver| {
        compare(&subject, solver, &case.position)
    }) {
        Ok(None) => Checked::Kept,
        Ok(Some(d)) => {
            let (d, steps) =
                shrink_disagreement(&subject, case.rules.clone(), case.position.clone(), d);
            panic!("{d}{}", shrunk_note(steps))
        }
        Err(_) => Checked::Rejected,
    }
}

/// Most smaller failing instances a fuzz body takes while shrinking a disagreement.
pub const FUZZ_SHRINK_STEPS: usize = 1_000;
/// Wall time a fuzz body spends shrinking a disagreement before it panics.
pub const FUZZ_SHRINK_SECONDS: u64 = 10;

/// Shrinks a disagreement in process with the game's own candidates (those that keep
/// the true answer, [`crate::Game::shrink_keeping_value`], then
/// [`crate::Game::shrink`]): the first smaller instance on which the two sides still
/// disagree is taken, until none does (or [`FUZZ_SHRINK_STEPS`], or
/// [`FUZZ_SHRINK_SECONDS`]). The smallest disagreement and the steps taken.
pub fn shrink_disagreement<R: crate::Game, S: Subject<Rules = R>>(
    subject: &S,
    mut rules: R,
    mut pos: R::Position,
    mut d: crate::verify::Disagreement,
) -> (crate::verify::Disagreement, usize) {
    let start = std::time::Instant::now();
    let limit = std::time::Duration::from_secs(FUZZ_SHRINK_SECONDS);
    let mut steps = 0;
    'step: while steps < FUZZ_SHRINK_STEPS && start.elapsed() < limit {
        let keeping = rules.shrink_keeping_value(&pos);
        for (r, p) in keeping.into_iter().chain(rules.shrink(&pos)) {
            if start.elapsed() >= limit {
                break 'step;
            }
            let found =
                with_cached_solver(&r, true, FUZZ_BUDGET, |solver| compare(subject, solver, &p));
            if let Ok(Some(smaller)) = found {
                (rules, pos, d) = (r, p, smaller);
                steps += 1;
                continue 'step;
            }
        }
        break;
    }
    (d, steps)
}

/// [`check_case`] on raw fuzzer bytes, for a `fuzz_target!(|data: &[u8]| ...)`:
/// [`Checked::Rejected`] when the bytes do not decode to a case.
///
/// # Panics
/// When `fast` and the oracle disagree on the decoded case.
pub fn check_bytes<R: crate::Game, F>(data: &[u8], fast: F) -> Checked
where
    F: Fn(&R, &R::Position) -> sgcheck_oracles::Analysis<R::Move> + Sync,
{
    match decode::<crate::Case<R>>(data) {
        Some(case) => check_case(&case, fast),
        None => Checked::Rejected,
    }
}

/// Piles for small pile games: at most `max_piles` piles of at most `max_size`, or
/// `None` when the raw input is outside those bounds (the input is then rejected).
pub fn small_piles(raw: &[u8], max_piles: usize, max_size: u8) -> Option<Vec<u64>> {
    if raw.len() > max_piles || raw.iter().any(|&p| p > max_size) {
        return None;
    }
    Some(raw.iter().map(|&p| p as u64).collect())
}

/// Decodes a raw fuzz input the way `libfuzzer-sys` does for a typed target.
pub fn decode<'a, T: Arbitrary<'a>>(data: &'a [u8]) -> Option<T> {
    T::arbitrary_take_rest(Unstructured::new(data)).ok()
}

/// Reads the rest of the input as one byte per value, so seeds can be written by
/// hand (`printf '\x03\x04\x05'` is the Nim position 3,4,5).
fn rest_bytes<'a>(u: &mut Unstructured<'a>) -> arbitrary::Result<Vec<u8>> {
    let len = u.len();
    Ok(u.bytes(len)?.to_vec())
}

/// The amounts 1..=8 whose bits are set in `mask` (bit 0 is amount 1).
pub fn amounts(mask: u8) -> Vec<u64> {
    (0..8)
        .filter(|b| mask & (1 << b) != 0)
        .map(|b| b as u64 + 1)
        .collect()
}

// ---------------------------------------------------------------------------------
// `<game>_agree` targets.

/// How a game's `<game>_agree` fuzz target reads its input: implemented in the game's
/// file. The first [`AgreeTarget::FIELDS`] bytes are read one each (the rules'
/// parameters and the like), the rest of the input one byte per value, so seeds can
/// be written by hand (`printf '\x03\x04\x05'` is the Nim position 3,4,5).
pub trait AgreeTarget: Subject + Default {
    /// How many leading bytes are read one each.
    const FIELDS: usize = 0;
    /// The instance these bytes stand for, or `None` outside the target's domain
    /// (too large for the oracle, or not a valid instance).
    fn fuzz_instance(
        &self,
        fields: &[u8],
        rest: &[u8],
    ) -> Option<(Self::Rules, <Self::Rules as Rules>::Position)>;
}

/// The input of the `<game>_agree` target of the game `S`. Its `Debug` is the
/// `sgcheck check` command of the instance.
pub struct Agree<S> {
    /// The leading bytes, one per field.
    pub fields: Vec<u8>,
    /// The remaining bytes.
    pub rest: Vec<u8>,
    game: PhantomData<fn() -> S>,
}

impl<S> Clone for Agree<S> {
    fn clone(&self) -> Self {
        Agree {
            fields: self.fields.clone(),
            rest: self.rest.clone(),
            game: PhantomData,
        }
    }
}

impl<S: AgreeTarget> Agree<S> {
    /// The input of these bytes.
    pub fn new(fields: Vec<u8>, rest: Vec<u8>) -> Self {
        Agree {
            fields,
            rest,
            game: PhantomData,
        }
    }
    /// The instance this input stands for, or `None` outside the target's domain.
    pub fn instance(&self) -> Option<(S::Rules, <S::Rules as Rules>::Position)> {
        if self.fields.len() != S::FIELDS {
            return None;
        }
        S::default().fuzz_instance(&self.fields, &self.rest)
    }
    /// The target's name: `<game>_agree`, the game id with `_` for `-`.
    pub fn target() -> String {
        agree_target_name(S::default().id())
    }
}

/// The name of a game's agree target: `<game>_agree`, the game id with `_` for `-`.
pub fn agree_target_name(game: &str) -> String {
    format!("{}_agree", game.replace('-', "_"))
}

impl<'a, S: AgreeTarget> Arbitrary<'a> for Agree<S> {
    fn arbitrary(u: &mut Unstructured<'a>) -> arbitrary::Result<Self> {
        let fields = (0..S::FIELDS)
            .map(|_| u8::arbitrary(u))
            .collect::<arbitrary::Result<Vec<u8>>>()?;
        let len = u.arbitrary_len::<u8>()?;
        let rest = u.bytes(len)?.to_vec();
        Ok(Agree::new(fields, rest))
    }
    fn arbitrary_take_rest(mut u: Unstructured<'a>) -> arbitrary::Result<Self> {
        let fields = (0..S::FIELDS)
            .map(|_| u8::arbitrary(&mut u))
            .collect::<arbitrary::Result<Vec<u8>>>()?;
        let rest = rest_bytes(&mut u)?;
        Ok(Agree::new(fields, rest))
    }
}

impl<S: AgreeTarget> fmt::Debug for Agree<S> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let id = S::default().id();
        match self.instance() {
            Some((r, p)) => f.write_str(&check_command(id, &r.to_string(), &p.to_string())),
            None => write!(f, "(outside the domain of {})", agree_target_name(id)),
        }
    }
}

/// The body of every `<game>_agree` target: the game's fast solver and the oracle
/// agree on the instance (see [`agree`]; a disagreement is shrunk in process before
/// the panic).
pub fn check_agree<S: AgreeTarget>(input: &Agree<S>) -> Checked
where
    S::Rules: crate::Game,
{
    match input.instance() {
        Some((r, p)) => agree(&S::default(), &r, &p),
        None => Checked::Rejected,
    }
}

/// [`check_agree`] on raw fuzzer bytes; `None` when they do not decode.
pub fn replay_agree<S: AgreeTarget>(data: &[u8]) -> Option<Checked>
where
    S::Rules: crate::Game,
{
    Some(check_agree(&decode::<Agree<S>>(data)?))
}

#[cfg(test)]
mod shrink_tests {
    use super::*;
    use sgcheck_oracles::games::nim::{Nim, Piles, Take};

    /// A user's Nim solver that is wrong on four piles or more whose XOR is zero.
    fn wrong_from_four(_: &Nim, p: &Piles) -> sgcheck_oracles::Analysis<Take> {
        let mut a = crate::verify::tests::bouton(p);
        if p.0.len() >= 4 && !a.win {
            a.win = true;
        }
        a
    }

    #[test]
    fn a_fuzz_target_panics_on_the_shrunk_case() {
        // The first failure met: seven piles; the smallest: four piles XORing to 0.
        let case = crate::Case {
            rules: Nim,
            position: Piles(vec![1, 4, 5, 6, 7, 8, 9]),
        };
        let x = case.position.0.iter().fold(0, |a, &b| a ^ b);
        assert_eq!(x, 0, "a losing position");
        let message = std::panic::catch_unwind(|| check_case(&case, wrong_from_four))
            .expect_err("panics")
            .downcast::<String>()
            .map(|s| *s)
            .unwrap_or_default();
        assert!(message.contains("shrunk in process"), "{message}");
        let line = message
            .lines()
            .find(|l| l.trim_start().starts_with("position:"))
            .unwrap_or_default()
            .to_string();
        // Four piles (three separators in any notation of a list), all small.
        let numbers: Vec<u64> = line
            .split(|c: char| !c.is_ascii_digit())
            .filter(|t| !t.is_empty())
            .map(|t| t.parse().unwrap())
            .collect();
        assert_eq!(numbers.len(), 4, "{line}");
        assert_eq!(numbers.iter().fold(0, |a, &b| a ^ b), 0, "{line}");
    }
}
