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
use sgcheck_oracles::games::{
    auction::{Auction, Missing},
    bash::Bash,
    ed::{Ed, EdPiles},
    following_nim::{FnPosition, FollowingNim},
    grundy::GrundyGame,
    hackenbush_tree::HackenbushTree,
    lasker::Lasker,
    misere_nim::MisereNim,
    nim::{Nim, Piles},
    nim_k::NimK,
    octal::Octal,
    simple_nim::SimpleNim,
    split::{Bottles, SplitGame},
    staircase::{Cells, Staircase},
    subtraction::Subtraction,
    take_range::{Coins, TakeRange},
    wythoff::{Pair, Wythoff},
};
use sgcheck_oracles::{with_cached_solver, Rules};
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
/// [`crate::verify::Disagreement`] (position, both answers, reproduction) when they do
/// not.
///
/// The oracle's table is kept across inputs for the same rules (one solver per rules
/// value and thread, [`with_cached_solver`]): a fuzzer meets the same small positions
/// again and again, and a kept table answers them with lookups.
pub fn agree<S: Subject>(
    subject: &S,
    rules: &S::Rules,
    pos: &<S::Rules as Rules>::Position,
) -> Checked {
    match with_cached_solver(rules, true, FUZZ_BUDGET, |solver| {
        compare(subject, solver, pos)
    }) {
        Ok(None) => Checked::Kept,
        Ok(Some(d)) => panic!("{} ({}): {d}", subject.id(), rules),
        Err(_) => Checked::Rejected,
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
        Ok(Some(d)) => panic!("{d}"),
        Err(_) => Checked::Rejected,
    }
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

/// Quotes text for a POSIX shell (see [`crate::shell::quote`]).
pub fn shell_quote(s: &str) -> String {
    crate::shell::quote(s)
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
parse_target!(Hdu1846Parse, "hdu1846");
parse_target!(Hdu2897Parse, "hdu2897");
parse_target!(Hdu3032Parse, "hdu3032");
parse_target!(Hdu1848Parse, "hdu1848");
parse_target!(P2148Parse, "p2148");
parse_target!(Bzoj1188Parse, "bzoj1188");
parse_target!(Uva1378Parse, "uva1378");
parse_target!(FollowingnimParse, "followingnim");
parse_target!(Hdu3980Parse, "hdu3980");
parse_target!(Hdu5795Parse, "hdu5795");
parse_target!(P4279Parse, "p4279");
parse_target!(Poj1704Parse, "poj1704");
parse_target!(Hdu1536Parse, "hdu1536");
parse_target!(Hdu1850Parse, "hdu1850");
parse_target!(Hdu2176Parse, "hdu2176");
parse_target!(Hdu1527Parse, "hdu1527");
parse_target!(Hdu2149Parse, "hdu2149");
parse_target!(Hdu3094Parse, "hdu3094");

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

/// Declares a `<game>_agree` target: its input type (one byte per field, the last field
/// taking the rest), the decoding into an instance (`None`: outside the domain, the
/// input is rejected), its `Debug` (the `sgcheck check` command) and its check.
macro_rules! game_target {
    (
        $(#[$doc:meta])*
        $name:ident, $check:ident, $game:literal, $subject:expr, $rules:ty,
        { $($field:ident),* ; $rest:ident },
        |$s:ident| $decode:block
    ) => {
        $(#[$doc])*
        #[derive(Clone)]
        pub struct $name {
            $(
                #[doc = concat!("The byte `", stringify!($field), "`.")]
                pub $field: u8,
            )*
            /// The remaining bytes.
            pub $rest: Vec<u8>,
        }

        byte_input!($name { $($field),* ; $rest });

        impl $name {
            /// The instance this input stands for, or `None` outside the target's domain.
            pub fn instance(&self) -> Option<($rules, <$rules as Rules>::Position)> {
                let $s = self;
                $decode
            }
        }

        impl fmt::Debug for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                match self.instance() {
                    Some((r, p)) => f.write_str(&check_command($game, &r.to_string(), &p.to_string())),
                    None => write!(f, "(outside the domain of {}_agree)", $game.replace('-', "_")),
                }
            }
        }

        #[doc = concat!("The body of `", $game, "_agree`.")]
        pub fn $check(input: &$name) -> Checked {
            match input.instance() {
                Some((r, p)) => agree(&$subject, &r, &p),
                None => Checked::Rejected,
            }
        }
    };
}

/// The amounts 1..=8 whose bits are set in `mask` (bit 0 is amount 1).
fn amounts(mask: u8) -> Vec<u64> {
    (0..8)
        .filter(|b| mask & (1 << b) != 0)
        .map(|b| b as u64 + 1)
        .collect()
}

game_target!(
    /// `nim_agree`: up to 5 piles of up to 12 stones, one byte per pile.
    NimAgree, check_nim_agree, "nim", crate::games::nim::NimSubject, Nim,
    { ; piles },
    |s| { Some((Nim, Piles(small_piles(&s.piles, 5, 12)?))) }
);

game_target!(
    /// `bash_agree`: m in 1..=8, then up to 4 piles of up to 16.
    BashAgree, check_bash_agree, "bash", crate::games::bash::BashSubject, Bash,
    { m ; piles },
    |s| {
        if !(1..=8).contains(&s.m) {
            return None;
        }
        Some((Bash { m: s.m as u64 }, Piles(small_piles(&s.piles, 4, 16)?)))
    }
);

game_target!(
    /// `take_range_agree`: p in 1..=10, q in p..=12, one pile of at most 120 coins.
    TakeRangeAgree, check_take_range_agree, "take-range", crate::games::take_range::TakeRangeSubject, TakeRange,
    { p, q, n ; rest },
    |s| {
        if !(1..=10).contains(&s.p) || s.q < s.p || s.q > 12 || s.n > 120 || !s.rest.is_empty() {
            return None;
        }
        Some((TakeRange { p: s.p as u64, q: s.q as u64 }, Coins(s.n as u64)))
    }
);

game_target!(
    /// `subtraction_agree`: the set as a bit mask of 1..=8, then up to 3 piles of up to 20.
    SubtractionAgree, check_subtraction_agree, "subtraction",
    crate::games::subtraction::SubtractionSubject::default(), Subtraction,
    { set ; piles },
    |s| {
        let rules = Subtraction::new(amounts(s.set)).ok()?;
        Some((rules, Piles(small_piles(&s.piles, 3, 20)?)))
    }
);

game_target!(
    /// `lasker_agree`: up to 3 piles of up to 8.
    LaskerAgree, check_lasker_agree, "lasker", crate::games::lasker::LaskerSubject, Lasker,
    { ; piles },
    |s| { Some((Lasker, Piles(small_piles(&s.piles, 3, 8)?))) }
);

game_target!(
    /// `ed_agree`: one or two pairs of piles, each pile in 1..=10.
    EdAgree, check_ed_agree, "ed", crate::games::ed::EdSubject, Ed,
    { ; piles },
    |s| {
        let p = small_piles(&s.piles, 4, 10)?;
        if p.is_empty() || p.len() % 2 == 1 || p.contains(&0) {
            return None;
        }
        Some((Ed, EdPiles(p)))
    }
);

game_target!(
    /// `split_agree`: 1..=6 bottles of at most 3 beans each.
    SplitAgree, check_split_agree, "split", crate::games::split::SplitSubject, SplitGame,
    { ; bottles },
    |s| {
        let b = small_piles(&s.bottles, 6, 3)?;
        if b.is_empty() {
            return None;
        }
        Some((SplitGame, Bottles(b.into_iter().map(|c| c as u32).collect())))
    }
);

game_target!(
    /// `following_nim_agree`: the specials as a bit mask of 1..=8, the forced pile (0 for
    /// none, k for pile k-1), then up to 3 piles of up to 8.
    FollowingNimAgree, check_following_nim_agree, "following-nim",
    crate::games::following_nim::FollowingNimSubject, FollowingNim,
    { specials, forced ; piles },
    |s| {
        let rules = FollowingNim::new(amounts(s.specials)).ok()?;
        if s.specials == 0 {
            return None;
        }
        let piles = small_piles(&s.piles, 3, 8)?;
        let forced = match s.forced {
            0 => None,
            k if (k as usize) <= piles.len() => Some(k as usize - 1),
            _ => return None,
        };
        Some((rules, FnPosition { piles, forced }))
    }
);

game_target!(
    /// `octal_agree`: the number of digits (1..=3), that many digits (0..=7), then up to 3
    /// heaps of up to 12.
    OctalAgree, check_octal_agree, "octal",
    crate::games::octal::OctalSubject::default(), Octal,
    { ; bytes },
    |s| {
        let (&len, rest) = s.bytes.split_first()?;
        let len = len as usize;
        if !(1..=3).contains(&len) || rest.len() < len {
            return None;
        }
        let (digits, heaps) = rest.split_at(len);
        if digits.iter().any(|&d| d > 7) {
            return None;
        }
        let rules = Octal::new(digits.to_vec()).ok()?;
        Some((rules, Piles(small_piles(heaps, 3, 12)?)))
    }
);

game_target!(
    /// `grundy_agree`: up to 4 heaps of up to 16.
    GrundyAgree, check_grundy_agree, "grundy", crate::games::grundy::GrundySubject, GrundyGame,
    { ; heaps },
    |s| { Some((GrundyGame, Piles(small_piles(&s.heaps, 4, 16)?))) }
);

game_target!(
    /// `simple_nim_agree`: up to 3 heaps of up to 9.
    SimpleNimAgree, check_simple_nim_agree, "simple-nim",
    crate::games::simple_nim::SimpleNimSubject, SimpleNim,
    { ; heaps },
    |s| { Some((SimpleNim, Piles(small_piles(&s.heaps, 3, 9)?))) }
);

game_target!(
    /// `misere_nim_agree`: up to 5 piles of up to 10 (empty piles included).
    MisereNimAgree, check_misere_nim_agree, "misere-nim",
    crate::games::misere_nim::MisereNimSubject, MisereNim,
    { ; piles },
    |s| { Some((MisereNim, Piles(small_piles(&s.piles, 5, 10)?))) }
);

game_target!(
    /// `staircase_agree`: up to 5 pieces, one byte per cell (1..=16, distinct, in the
    /// order given).
    StaircaseAgree, check_staircase_agree, "staircase",
    crate::games::staircase::StaircaseSubject, Staircase,
    { ; cells },
    |s| {
        let cells = small_piles(&s.cells, 5, 16)?;
        let mut sorted = cells.clone();
        sorted.sort_unstable();
        if sorted.first() == Some(&0) || sorted.windows(2).any(|w| w[0] == w[1]) {
            return None;
        }
        Some((Staircase, Cells(cells)))
    }
);

game_target!(
    /// `wythoff_agree`: two piles, one byte each, up to 60.
    WythoffAgree, check_wythoff_agree, "wythoff", crate::games::wythoff::WythoffSubject, Wythoff,
    { a, b ; rest },
    |s| {
        if s.a > 60 || s.b > 60 || !s.rest.is_empty() {
            return None;
        }
        Some((Wythoff, Pair(s.a as u64, s.b as u64)))
    }
);

game_target!(
    /// `auction_agree`: the largest bid N in 1..=255, then the missing amount as two
    /// bytes (big-endian), up to 2000.
    AuctionAgree, check_auction_agree, "auction", crate::games::auction::AuctionSubject, Auction,
    { n, hi, lo ; rest },
    |s| {
        let r = u64::from(s.hi) << 8 | u64::from(s.lo);
        if s.n == 0 || r > 2000 || !s.rest.is_empty() {
            return None;
        }
        Some((Auction { n: s.n as u64 }, Missing(r)))
    }
);

game_target!(
    /// `nim_k_agree`: k in 1..=4, then up to 4 heaps of up to 6.
    NimKAgree, check_nim_k_agree, "nim-k", crate::games::nim_k::NimKSubject, NimK,
    { k ; heaps },
    |s| {
        if !(1..=4).contains(&s.k) {
            return None;
        }
        Some((NimK { k: s.k as u64 }, Piles(small_piles(&s.heaps, 4, 6)?)))
    }
);

game_target!(
    /// `hackenbush_tree_agree`: a tree of up to 11 vertices, one byte per vertex after
    /// the root: vertex k + 2 hangs from vertex (byte mod (k + 1)) + 1.
    HackenbushTreeAgree, check_hackenbush_tree_agree, "hackenbush-tree",
    crate::games::hackenbush_tree::HackenbushTreeSubject, HackenbushTree,
    { ; parents },
    |s| {
        if s.parents.len() > 10 {
            return None;
        }
        let flat: Vec<u64> = s
            .parents
            .iter()
            .enumerate()
            .flat_map(|(k, &b)| [u64::from(b) % (k as u64 + 1) + 1, k as u64 + 2])
            .collect();
        Some((HackenbushTree, crate::games::hackenbush_tree::tree_of(&flat).ok()?))
    }
);

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
pub const TARGETS: &[&str] = &[
    "nim_agree",
    "bash_agree",
    "take_range_agree",
    "subtraction_agree",
    "lasker_agree",
    "ed_agree",
    "split_agree",
    "following_nim_agree",
    "octal_agree",
    "grundy_agree",
    "simple_nim_agree",
    "misere_nim_agree",
    "staircase_agree",
    "wythoff_agree",
    "auction_agree",
    "nim_k_agree",
    "hackenbush_tree_agree",
    "bash_check_case",
    "p2197_parse",
    "hdu1846_parse",
    "hdu2897_parse",
    "hdu3032_parse",
    "hdu1848_parse",
    "p2148_parse",
    "bzoj1188_parse",
    "uva1378_parse",
    "followingnim_parse",
    "hdu3980_parse",
    "hdu5795_parse",
    "p4279_parse",
    "poj1704_parse",
    "hdu1536_parse",
    "hdu1850_parse",
    "hdu2176_parse",
    "hdu1527_parse",
    "hdu2149_parse",
    "hdu3094_parse",
];

/// Decodes `data` for the target `name` and runs its check; `None` for an unknown
/// target or an input that does not decode.
pub fn replay(name: &str, data: &[u8]) -> Option<Checked> {
    Some(match name {
        "nim_agree" => check_nim_agree(&decode(data)?),
        "bash_agree" => check_bash_agree(&decode(data)?),
        "take_range_agree" => check_take_range_agree(&decode(data)?),
        "subtraction_agree" => check_subtraction_agree(&decode(data)?),
        "lasker_agree" => check_lasker_agree(&decode(data)?),
        "ed_agree" => check_ed_agree(&decode(data)?),
        "split_agree" => check_split_agree(&decode(data)?),
        "following_nim_agree" => check_following_nim_agree(&decode(data)?),
        "octal_agree" => check_octal_agree(&decode(data)?),
        "grundy_agree" => check_grundy_agree(&decode(data)?),
        "simple_nim_agree" => check_simple_nim_agree(&decode(data)?),
        "misere_nim_agree" => check_misere_nim_agree(&decode(data)?),
        "staircase_agree" => check_staircase_agree(&decode(data)?),
        "wythoff_agree" => check_wythoff_agree(&decode(data)?),
        "auction_agree" => check_auction_agree(&decode(data)?),
        "nim_k_agree" => check_nim_k_agree(&decode(data)?),
        "hackenbush_tree_agree" => check_hackenbush_tree_agree(&decode(data)?),
        "bash_check_case" => check_case(
            &decode::<crate::Case<Bash>>(data)?,
            crate::games::bash::analyze,
        ),
        "p2197_parse" => check_parse(&decode::<P2197Parse>(data)?),
        "hdu1846_parse" => check_parse(&decode::<Hdu1846Parse>(data)?),
        "hdu2897_parse" => check_parse(&decode::<Hdu2897Parse>(data)?),
        "hdu3032_parse" => check_parse(&decode::<Hdu3032Parse>(data)?),
        "hdu1848_parse" => check_parse(&decode::<Hdu1848Parse>(data)?),
        "p2148_parse" => check_parse(&decode::<P2148Parse>(data)?),
        "bzoj1188_parse" => check_parse(&decode::<Bzoj1188Parse>(data)?),
        "uva1378_parse" => check_parse(&decode::<Uva1378Parse>(data)?),
        "followingnim_parse" => check_parse(&decode::<FollowingnimParse>(data)?),
        "hdu3980_parse" => check_parse(&decode::<Hdu3980Parse>(data)?),
        "hdu5795_parse" => check_parse(&decode::<Hdu5795Parse>(data)?),
        "p4279_parse" => check_parse(&decode::<P4279Parse>(data)?),
        "poj1704_parse" => check_parse(&decode::<Poj1704Parse>(data)?),
        "hdu1536_parse" => check_parse(&decode::<Hdu1536Parse>(data)?),
        "hdu1850_parse" => check_parse(&decode::<Hdu1850Parse>(data)?),
        "hdu2176_parse" => check_parse(&decode::<Hdu2176Parse>(data)?),
        "hdu1527_parse" => check_parse(&decode::<Hdu1527Parse>(data)?),
        "hdu2149_parse" => check_parse(&decode::<Hdu2149Parse>(data)?),
        "hdu3094_parse" => check_parse(&decode::<Hdu3094Parse>(data)?),
        _ => return None,
    })
}
