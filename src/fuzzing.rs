//! Bodies of the fuzz targets, shared with the corpus replay tests.
//!
//! Each target under `fuzz/fuzz_targets/` only decodes its input with `arbitrary` and
//! calls one `check_*` function here; `tests/fuzz_corpus.rs` feeds every committed file
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

use crate::problems::{self, Problem};
use crate::verify::{check_command, compare, Subject};
use arbitrary::{Arbitrary, Unstructured};
use sgcheck_oracles::{Rules, Solver};
use std::fmt;

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
/// reproducing command when they do not.
pub fn agree<S: Subject>(
    subject: &S,
    rules: &S::Rules,
    pos: &<S::Rules as Rules>::Position,
) -> Checked {
    let mut solver = Solver::verdict_only(rules.clone()).with_budget(FUZZ_BUDGET);
    match compare(subject, &mut solver, pos) {
        Ok(None) => Checked::Kept,
        Ok(Some(d)) => panic!(
            "fast and oracle disagree on {} {} (rules {}):\n  fast:   {}\n  oracle: {}\n  reproduce: {}",
            subject.id(),
            d.position,
            d.rules,
            d.fast,
            d.oracle,
            d.reproduce
        ),
        Err(_) => Checked::Rejected,
    }
}

/// Asserts that parsing arbitrary bytes never panics and that accepted inputs
/// round-trip through `write_input`.
pub fn parse_round_trip<P: Problem>(p: &P, bytes: &[u8]) -> Checked {
    let Ok(text) = std::str::from_utf8(bytes) else {
        return Checked::Rejected;
    };
    let Ok(cases) = p.parse(text, false) else {
        return Checked::Kept;
    };
    let answer = problems::solve_fast(p, &cases);
    let again = p.write_input(&cases);
    let reparsed = p.parse(&again, false).unwrap_or_else(|e| {
        panic!(
            "{}: written input does not parse ({e}):\n{again}",
            p.info().id
        )
    });
    assert_eq!(
        reparsed,
        cases,
        "{}: round trip changed the cases",
        p.info().id
    );
    assert_eq!(
        problems::solve_fast(p, &reparsed),
        answer,
        "{}: round trip changed the answer",
        p.info().id
    );
    Checked::Kept
}

/// Quotes text for a POSIX shell, in single quotes.
pub fn shell_quote(s: &str) -> String {
    format!("'{}'", s.replace('\'', r"'\''"))
}

/// The input of a `<problem>_parse` target: raw bytes for one problem's parser.
/// `Debug` prints the command that feeds them to `sgcheck solve`.
pub trait ParseTarget {
    /// The problem id.
    const PROBLEM: &'static str;
    /// The bytes given to the parser.
    fn bytes(&self) -> &[u8];
}

/// Declares the input type of one `<problem>_parse` target.
macro_rules! parse_target {
    ($name:ident, $id:literal) => {
        #[doc = concat!("Raw input for the `", $id, "_parse` target.")]
        #[derive(Clone, PartialEq, Eq)]
        pub struct $name(pub Vec<u8>);

        impl ParseTarget for $name {
            const PROBLEM: &'static str = $id;
            fn bytes(&self) -> &[u8] {
                &self.0
            }
        }

        impl<'a> Arbitrary<'a> for $name {
            fn arbitrary(u: &mut Unstructured<'a>) -> arbitrary::Result<Self> {
                let len = u.arbitrary_len::<u8>()?;
                Ok($name(u.bytes(len)?.to_vec()))
            }
            fn arbitrary_take_rest(u: Unstructured<'a>) -> arbitrary::Result<Self> {
                Ok($name(u.take_rest().to_vec()))
            }
        }

        impl fmt::Debug for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                let text = String::from_utf8_lossy(&self.0);
                write!(
                    f,
                    "printf '%s' {} | sgcheck solve {}",
                    shell_quote(&text),
                    $id
                )
            }
        }
    };
}

parse_target!(P2197Parse, "p2197");

/// Piles for small pile games: at most `max_piles` piles of at most `max_size`, or
/// `None` when the raw input is outside those bounds (the input is then rejected).
fn small_piles(raw: &[u8], max_piles: usize, max_size: u8) -> Option<Vec<u64>> {
    if raw.len() > max_piles || raw.iter().any(|&p| p > max_size) {
        return None;
    }
    Some(raw.iter().map(|&p| p as u64).collect())
}

/// Decodes a raw fuzz input the way `libfuzzer-sys` does for a typed target.
pub fn decode<'a, T: Arbitrary<'a>>(data: &'a [u8]) -> Option<T> {
    T::arbitrary_take_rest(Unstructured::new(data)).ok()
}

// ---------------------------------------------------------------------------------
// Game targets.

/// Reads the rest of the input as one byte per value, so seeds can be written by
/// hand (`printf '\x03\x04\x05'` is the Nim position 3,4,5).
fn rest_bytes<'a>(u: &mut Unstructured<'a>) -> arbitrary::Result<Vec<u8>> {
    let len = u.len();
    Ok(u.bytes(len)?.to_vec())
}

/// Implements `Arbitrary` for an input whose fields are read one byte each, in order,
/// with the last field taking the rest of the input.
macro_rules! byte_input {
    ($name:ident { $($field:ident),* ; $rest:ident }) => {
        impl<'a> Arbitrary<'a> for $name {
            fn arbitrary(u: &mut Unstructured<'a>) -> arbitrary::Result<Self> {
                $(let $field = u8::arbitrary(u)?;)*
                let len = u.arbitrary_len::<u8>()?;
                let $rest = u.bytes(len)?.to_vec();
                Ok($name { $($field,)* $rest })
            }
            fn arbitrary_take_rest(mut u: Unstructured<'a>) -> arbitrary::Result<Self> {
                $(let $field = u8::arbitrary(&mut u)?;)*
                let $rest = rest_bytes(&mut u)?;
                Ok($name { $($field,)* $rest })
            }
        }
    };
}

/// `nim_agree`: up to 5 piles of up to 12 stones, one byte per pile.
#[derive(Clone)]
pub struct NimAgree {
    /// One byte per pile.
    pub piles: Vec<u8>,
}

byte_input!(NimAgree { ; piles });

impl fmt::Debug for NimAgree {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let p: Vec<String> = self.piles.iter().map(|x| x.to_string()).collect();
        f.write_str(&check_command("nim", "-", &p.join(",")))
    }
}

/// The body of `nim_agree`.
pub fn check_nim_agree(input: &NimAgree) -> Checked {
    use sgcheck_oracles::games::nim::{Nim, Piles};
    match small_piles(&input.piles, 5, 12) {
        Some(p) => agree(&crate::games::nim::NimSubject, &Nim, &Piles(p)),
        None => Checked::Rejected,
    }
}

// ---------------------------------------------------------------------------------
// Problem targets.

/// The body of every `<problem>_parse` target.
pub fn check_parse<I: ParseTarget>(input: &I) -> Checked {
    struct Run<'a>(&'a [u8]);
    impl problems::Visitor for Run<'_> {
        type Output = Checked;
        fn visit<P: Problem>(self, p: &P) -> Checked {
            parse_round_trip(p, self.0)
        }
    }
    problems::with_problem(I::PROBLEM, Run(input.bytes()))
        .expect("fuzz targets name known problems")
}

// ---------------------------------------------------------------------------------
// Replay.

/// Every fuzz target's name.
pub const TARGETS: &[&str] = &["nim_agree", "p2197_parse"];

/// Decodes `data` for the target `name` and runs its check; `None` for an unknown
/// target or an input that does not decode.
pub fn replay(name: &str, data: &[u8]) -> Option<Checked> {
    Some(match name {
        "nim_agree" => check_nim_agree(&decode(data)?),
        "p2197_parse" => check_parse(&decode::<P2197Parse>(data)?),
        _ => return None,
    })
}
