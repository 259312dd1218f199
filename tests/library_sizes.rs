//! A library user's bug that shows only at size 30 and above is found by every route
//! with its default settings, and shrunk to a smallest failing instance.
//!
//! The game (written here through the public API only): bounded Wythoff. Two piles; a
//! move takes 1 to L stones from one pile, or the same number, 1 to L, from both. The
//! size of an instance is a + b + L. The user's solver computes the game's table from
//! the moves, but its bound is off by one once L >= 15 (it takes 1 to L - 1): it is
//! wrong only where a move of exactly L stones matters, and its smallest failing
//! instances have size 30 (L = 15 and piles of 15 in all). Of the instances of size 30,
//! 2 in 465 fail; of size 40, 72 in 820.
//!
//! - `sgcheck::quickcheck` (sizes grow to the game's largest size, 40 by default):
//!   fails, naming a case of size 30 and its seed; the same seed gives the same report;
//! - the fuzz body (`fuzzing::check_bytes` on random bytes, sizes decoded up to 40):
//!   fails within a few thousand inputs on a case of size 30;
//! - `Game::shrink` (the provided shrinker) reaches a size-30 instance from a failing
//!   one of size 38, where it used to give up past size 16;
//! - `check` returns within its time bound on a position too large for the oracle.

use sgcheck::fuzzing::check_bytes;
use sgcheck::harness::{quickcheck_with, QuickCheck};
use sgcheck::oracles::{Analysis, Rules};
use sgcheck::Game;
use std::fmt;

/// Bounded Wythoff with bound `l`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct Bounded {
    l: u64,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct Pair(u64, u64);

/// Take `k` from pile 0, pile 1, or both (`pile` 2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
struct Take {
    pile: u8,
    k: u64,
}

impl fmt::Display for Bounded {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "L={}", self.l)
    }
}
impl fmt::Display for Pair {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{},{}", self.0, self.1)
    }
}
impl fmt::Display for Take {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.pile, self.k)
    }
}

/// The moves of `p` under `r`; with `off_by_one`, those of the user's solver (1 to
/// L - 1 once L >= 15).
fn moves(r: &Bounded, p: &Pair, off_by_one: bool) -> Vec<(Take, Pair)> {
    let mut out = Vec::new();
    let top = if off_by_one && r.l >= 15 {
        r.l - 1
    } else {
        r.l
    };
    for k in 1..=top {
        if k <= p.0 {
            out.push((Take { pile: 0, k }, Pair(p.0 - k, p.1)));
        }
        if k <= p.1 {
            out.push((Take { pile: 1, k }, Pair(p.0, p.1 - k)));
        }
        if k <= p.0 && k <= p.1 {
            out.push((Take { pile: 2, k }, Pair(p.0 - k, p.1 - k)));
        }
    }
    out
}

impl Rules for Bounded {
    type Position = Pair;
    type Move = Take;
    fn moves(&self, pos: &Pair, out: &mut Vec<(Take, Pair)>) {
        out.extend(moves(self, pos, false));
    }
}

impl Game for Bounded {
    /// Every (a, b, L) with a + b + L = size and L >= 1.
    fn instances(size: u32) -> Vec<(Bounded, Pair)> {
        let size = u64::from(size);
        let mut out = Vec::new();
        for l in 1..=size {
            for a in 0..=size - l {
                out.push((Bounded { l }, Pair(a, size - l - a)));
            }
        }
        out
    }
}

/// The user's solver: the P-positions by a table over its moves (off by one for L >=
/// 15).
fn buggy(r: &Bounded, p: &Pair) -> Analysis<Take> {
    let (w, h) = (p.0 as usize + 1, p.1 as usize + 1);
    let mut lose = vec![false; w * h];
    for a in 0..w {
        for b in 0..h {
            lose[a * h + b] = moves(r, &Pair(a as u64, b as u64), true)
                .iter()
                .all(|(_, q)| !lose[q.0 as usize * h + q.1 as usize]);
        }
    }
    let winning: Vec<Take> = moves(r, p, true)
        .into_iter()
        .filter(|(_, q)| lose[q.0 as usize * h + q.1 as usize])
        .map(|(m, _)| m)
        .collect();
    Analysis {
        win: !winning.is_empty(),
        winning,
        remoteness: None,
    }
}

fn size_of(text: &str) -> u64 {
    // "position:  a,b" and "rules:     L=l" lines of a disagreement.
    let field = |name: &str| {
        text.lines()
            .find_map(|l| l.trim().strip_prefix(name))
            .map(|v| v.trim().to_string())
            .unwrap_or_else(|| panic!("no {name} in {text}"))
    };
    let pos = field("position:");
    let rules = field("rules:");
    let (a, b) = pos.split_once(',').unwrap();
    let l: u64 = rules.trim_start_matches("L=").parse().unwrap();
    a.parse::<u64>().unwrap() + b.parse::<u64>().unwrap() + l
}

#[test]
fn quickcheck_finds_the_size_30_bug_with_its_defaults_and_names_the_seed() {
    let run = |seed| {
        std::panic::catch_unwind(|| {
            quickcheck_with(
                buggy,
                &QuickCheck {
                    seed: Some(seed),
                    ..QuickCheck::default()
                },
            )
        })
        .expect_err("the planted bug is found")
        .downcast::<String>()
        .map(|b| *b)
        .unwrap()
    };
    let first = run(11);
    assert!(
        first.starts_with("sgcheck::quickcheck: the fast solver disagrees"),
        "{first}"
    );
    assert!(first.contains("SGCHECK_SEED=11"), "{first}");
    assert_eq!(size_of(&first), 30, "{first}");
    // The same seed, the same report.
    assert_eq!(run(11), first);
    // Another seed finds it too.
    assert_eq!(size_of(&run(12)), 30);
}

#[test]
fn the_fuzz_body_finds_it_on_random_bytes() {
    use rand::{Rng, SeedableRng};
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(5);
    for i in 0..20_000 {
        let bytes: Vec<u8> = (0..16).map(|_| rng.gen()).collect();
        let result = std::panic::catch_unwind(|| check_bytes(&bytes, buggy));
        if let Err(p) = result {
            let msg = p
                .downcast_ref::<String>()
                .cloned()
                .unwrap_or_else(|| "a panic".into());
            assert_eq!(size_of(&msg), 30, "input {i}: {msg}");
            return;
        }
    }
    panic!("20,000 random inputs did not find the bug");
}

#[test]
fn the_provided_shrinker_works_past_size_16() {
    // A failing instance of size 38 (found by the sweep below).
    let (r, p) = Bounded::instances(38)
        .into_iter()
        .find(|(r, p)| sgcheck::check(r, p, buggy).unwrap().is_some())
        .unwrap();
    let d = sgcheck::check(&r, &p, buggy).unwrap();
    assert!(d.is_some(), "the planted bug shows at {p} with {r}");
    let candidates = r.shrink(&p);
    assert!(!candidates.is_empty());
    // Every instance of every smaller size is offered, smallest first, so the first
    // failing one is a smallest failing instance.
    let first = candidates
        .iter()
        .find(|(r, p)| sgcheck::check(r, p, buggy).unwrap().is_some())
        .unwrap();
    assert_eq!(first.1 .0 + first.1 .1 + first.0.l, 30, "{first:?}");
}

#[test]
fn check_gives_up_within_its_time_bound() {
    use sgcheck::oracles::games::lasker::Lasker;
    use sgcheck::oracles::games::nim::Piles;
    // Far too large for the exhaustive search within the default budget or time.
    let big = Piles(vec![60, 61, 62, 63, 64, 65, 66]);
    let start = std::time::Instant::now();
    let r = sgcheck::check(&Lasker, &big, |_: &Lasker, p: &Piles| {
        sgcheck::games::lasker::analyze(p)
    });
    assert!(r.is_err(), "{r:?}");
    assert!(start.elapsed() < sgcheck::harness::CHECK_TIME * 3);
}
