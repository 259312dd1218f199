//! Mock Turtles: a head at position n is worth the n-th odious number, 2n or 2n+1,
//! whichever has an odd number of 1 bits; a position is lost iff the XOR of its heads'
//! values is 0.
//!
//! Rules (game `mock-turtles`; Berlekamp, Conway and Guy, *Winning Ways*, "Mock
//! Turtles"; Ferguson, *Game Theory*, "Coin-turning games"; the oracle's
//! [`MockTurtles`]): coins at positions 0, 1, 2, ...; a move turns over one, two or
//! three coins, the rightmost of them from heads to tails, the others either way.
//! Normal play.
//!
//! **Why the sum.** A position is the sum of its single heads: a move on the head at t
//! that turns a lower tail at a makes a new head (a new component, a single head at
//! a), and one that turns a lower head at a adds a second copy of the component at a,
//! which cancels the first (G + G = 0). Either way the value changes by XOR g(a), so
//! the value of the heads S is the XOR of g(s) over s in S, where g(n) is the value of
//! a single head at n (Winning Ways, "coin-turning games"; Ferguson, I.5).
//!
//! **Why odious.** A single head at n has the options: turn it alone (no heads, value
//! 0), with one coin a < n (value g(a)), or with two coins a < b < n (value g(a) ^
//! g(b)). Call a number odious when its binary form has an odd number of 1 bits, evil
//! otherwise; exactly one of 2k and 2k+1 is odious. Claim: g(n) is the odious one of
//! 2n, 2n+1. By strong induction, g(0..n) are the odious numbers below 2n, so the
//! options are 0, every odious number below 2n, and the XOR of any two distinct ones,
//! which is a non-zero evil number. Every non-zero evil v below 2n is such a XOR:
//! v = 1 ^ (v ^ 1), where v ^ 1 is odious, below 2n and not 1 (coin 0 is worth 1). So
//! every value below 2n is an option. Of 2n and 2n+1, the odious one is no option
//! (single values are below 2n, XORs are evil). When 2n is odious it is the mex. When
//! 2n is evil it *is* an option: with 2^h its top bit (2^h < 2n, as a power of two is
//! odious), 2n = 2^h ^ (2n - 2^h), both odious and below 2n (and for n = 0 it is the
//! option of turning the head alone); so the mex is 2n+1. (OEIS A000069: 1, 2, 4, 7,
//! 8, 11, 13, 14, 16, 19, ...)
//!
//! **Winning moves.** With X the XOR of all heads' values and, for a head t,
//! need = X ^ g(t): a move with top t and lower coins L wins iff the XOR of g over L
//! is need (turning a lower coin XORs its value in, whether it was heads or tails).
//! - `t` alone wins iff need = 0;
//! - `a+t` wins iff g(a) = need and a < t: need odious, a = need / 2 ([`coin_of_value`],
//!   the inverse of [`coin_value`]);
//! - `a+b+t` wins iff g(a) ^ g(b) = need, a < b < t: for each a below t there is one b,
//!   the coin of value need ^ g(a), if any.
//!
//! So a head at t costs O(t), and it may have about t/2 winning moves (heads 0, 1 and t:
//! need = 3, every pair {2j, 2j+1} below t wins): listing them all is linear in t at
//! best. [`analyze`] accepts positions whose heads sum to at most [`ANALYZE_LIMIT`];
//! [`first_wins`] (the verdict alone) is O(number of heads) for any u64 coins.
//!
//! Tier 1 checks the closed form against [`table`], the mex over one head's options
//! from the rules (no formula), for every head below [`TIER1_COINS`]; and [`analyze`]
//! (verdict and every winning move) against [`win_table`], a win/lose table of whole
//! positions from the rules alone (no values, no sums), on every set of heads below
//! [`TIER1_WIN_COINS`].

use crate::games::analyze_sum;
use crate::games::declared;
use crate::verify::{Subject, Tier1Report};
use rand::Rng;
use rand_chacha::ChaCha8Rng;
use sgcheck_oracles::games::mock_turtles::{Heads, MockTurtles, Turn};
use sgcheck_oracles::{Analysis, SearchError};

/// The largest sum of the heads' positions [`analyze`] accepts: it loops over every
/// coin below each head, and lists up to half of them as winning moves. Measured in
/// release on a loaded two-core machine: heads 0, 1 and 2^22 - 3 (the largest such
/// position accepted; 2^21 - 2 winning moves) take 0.3 to 0.7 s and 230 MB.
pub const ANALYZE_LIMIT: u64 = 1 << 22;

/// Tier 1 compares [`coin_value`] with [`table`] for every coin below this: about
/// `TIER1_COINS^2 / 2` = 1.3 * 10^8 option values set in a bit set. Measured in
/// release on a loaded two-core machine: 0.45 s (2^15 coins 1.2 s, 2^16 coins 4.1 s,
/// more than a game's share of the default `verify` time).
pub const TIER1_COINS: usize = 1 << 14;

/// Tier 1 compares [`analyze`] (verdict and every winning move) with [`win_table`] on
/// every set of heads among the coins below this: 2^16 positions (the table takes
/// about 13 ms, the analyses about 60 ms).
pub const TIER1_WIN_COINS: u32 = 16;

/// The closed form in u128: the odious one of 2n and 2n + 1, for every u64 coin.
fn wide_value(n: u64) -> u128 {
    let twice = u128::from(n) << 1;
    twice | u128::from(n.count_ones().is_multiple_of(2))
}

/// Closed form: the Grundy value of a single head at `n`, the n-th odious number (from
/// 0): 2n when n has an odd number of 1 bits (then so has 2n), 2n + 1 otherwise.
///
/// # Panics
/// When `n >= 2^63`: the value does not fit a u64 ([`first_wins`] takes every coin).
pub fn coin_value(n: u64) -> u64 {
    u64::try_from(wide_value(n)).expect("a head at 2^63 or beyond is worth 2^64 or more")
}

/// The coin whose single head is worth `v`: `v / 2` when `v` is odious, `None` when
/// `v` is evil (no coin has an evil value). The inverse of [`coin_value`].
pub fn coin_of_value(v: u64) -> Option<u64> {
    (v.count_ones() % 2 == 1).then_some(v >> 1)
}

/// Whether the player to move wins: the XOR of the heads' values is non-zero. Computed
/// in u128, so every u64 coin is accepted; O(number of heads). The heads are distinct
/// (a position is a set).
pub fn first_wins(heads: &[u64]) -> bool {
    heads.iter().fold(0u128, |x, &h| x ^ wide_value(h)) != 0
}

/// Grundy values of a single head at 0..len, by mex over the options of one head
/// (module docs): turning it alone (0), with one lower coin a (g(a)), or with two,
/// a < b (g(a) ^ g(b)). Independent of the closed form; tier 1 compares the two.
///
/// The options of a head at n + 1 are those of n plus g(n) and g(n) ^ g(a) for every
/// a < n, so one bit set grows with n and the mex only moves up: about len^2 / 2 steps.
pub fn table(len: usize) -> Vec<u64> {
    let mut g: Vec<u64> = Vec::with_capacity(len);
    // `seen` holds every option value of a head at n; it covers 0..64 * seen.len(),
    // a power of two, so the XOR of two values inside is inside too.
    let mut seen = vec![1u64];
    let mut mex = 0u64;
    for n in 0..len {
        while seen
            .get((mex / 64) as usize)
            .is_some_and(|w| w >> (mex % 64) & 1 == 1)
        {
            mex += 1;
        }
        let v = mex;
        g.push(v);
        while (seen.len() as u64) * 64 <= v {
            seen.resize(seen.len() * 2, 0);
        }
        seen[(v / 64) as usize] |= 1 << (v % 64);
        for &a in &g[..n] {
            let x = v ^ a;
            seen[(x / 64) as usize] |= 1 << (x % 64);
        }
    }
    g
}

/// Direct win/lose table of every set of heads among the coins 0..`top` (bit c of the
/// index for coin c), from the rules alone: no values, no sums. A move clears its top
/// coin and changes only lower ones, so it lowers the index, and one pass in
/// increasing order fills the table.
pub fn win_table(top: u32) -> Vec<bool> {
    let mut win = vec![false; 1 << top];
    for mask in 0u32..1 << top {
        win[mask as usize] = moves_of_mask(mask).any(|(_, m)| !win[m as usize]);
    }
    win
}

/// The moves of a set of heads given as a bit mask, with the mask each leads to.
fn moves_of_mask(mask: u32) -> impl Iterator<Item = (Turn, u32)> {
    (0..32u64)
        .filter(move |&t| mask >> t & 1 == 1)
        .flat_map(move |top| {
            let after = mask & !(1 << top);
            let alone = std::iter::once((Turn { top, lower: vec![] }, after));
            let one = (0..top).map(move |a| {
                (
                    Turn {
                        top,
                        lower: vec![a],
                    },
                    after ^ 1 << a,
                )
            });
            let two = (0..top).flat_map(move |a| {
                (a + 1..top).map(move |b| {
                    (
                        Turn {
                            top,
                            lower: vec![a, b],
                        },
                        after ^ 1 << a ^ 1 << b,
                    )
                })
            });
            alone.chain(one).chain(two)
        })
}

/// [`analyze`] with the value of a coin and its inverse given (the closed form, or a
/// planted wrong one in the tests). No limit on the position.
fn analyze_by(
    pos: &Heads,
    value: impl Fn(u64) -> u64,
    coin_of: impl Fn(u64) -> Option<u64>,
) -> Analysis<Turn> {
    let values: Vec<u64> = pos.0.iter().map(|&h| value(h)).collect();
    analyze_sum(&values, |i, need, out| {
        let top = pos.0[i];
        if need == 0 {
            out.push(Turn { top, lower: vec![] });
        }
        if let Some(a) = coin_of(need).filter(|&a| a < top && value(a) == need) {
            out.push(Turn {
                top,
                lower: vec![a],
            });
        }
        for a in 0..top {
            let b = coin_of(need ^ value(a));
            if let Some(b) = b.filter(|&b| a < b && b < top && value(a) ^ value(b) == need) {
                out.push(Turn {
                    top,
                    lower: vec![a, b],
                });
            }
        }
    })
}

/// Verdict and every winning move, in canonical order (top coin, then the lower coins).
///
/// # Panics
/// When the heads' positions sum past [`ANALYZE_LIMIT`]: the enumeration is linear in
/// every head, and the winning moves alone can number half of it.
pub fn analyze(pos: &Heads) -> Analysis<Turn> {
    let sum = pos
        .0
        .iter()
        .try_fold(0u64, |s, &h| s.checked_add(h))
        .filter(|&s| s <= ANALYZE_LIMIT);
    assert!(
        sum.is_some(),
        "mock-turtles: the heads of {pos} sum past {ANALYZE_LIMIT}; only the verdict \
         (first_wins) goes further"
    );
    analyze_by(pos, coin_value, coin_of_value)
}

/// `verify`'s view of Mock Turtles.
#[derive(Default)]
pub struct MockTurtlesSubject;

/// Largest size (the sum of position + 1 over the heads) of an enumerated instance:
/// its top coin is at most 15, and the oracle explores the sets of heads below it
/// (2^16 at most, each with up to 121 moves per head).
const MAX_SIZE: u32 = 16;

/// Tier 1 with the fast side given (the closed form the game's solver uses, or a
/// planted wrong one in the tests): the same comparisons, the same tables.
fn tier1_with(
    value: impl Fn(u64) -> u64,
    analyze: impl Fn(&Heads) -> Analysis<Turn>,
) -> Tier1Report {
    let mut report = Tier1Report::default();
    let g = table(TIER1_COINS);
    report.compare("table length", g.len(), TIER1_COINS);
    for (n, &v) in g.iter().enumerate() {
        report.compare(format!("head at {n}"), value(n as u64), v);
    }
    let win = win_table(TIER1_WIN_COINS);
    for mask in 0u32..1 << TIER1_WIN_COINS {
        let heads = Heads((0..32u64).filter(|&c| mask >> c & 1 == 1).collect());
        let a = analyze(&heads);
        report.compare(format!("heads {heads}"), a.win, win[mask as usize]);
        let want: Vec<Turn> = moves_of_mask(mask)
            .filter(|&(_, m)| !win[m as usize])
            .map(|(t, _)| t)
            .collect();
        let fast: Vec<String> = a.winning.iter().map(|m| m.to_string()).collect();
        let want: Vec<String> = want.iter().map(|m| m.to_string()).collect();
        report.compare(format!("winning moves of {heads}"), fast, want);
    }
    report
}

impl Subject for MockTurtlesSubject {
    type Rules = MockTurtles;

    fn id(&self) -> &'static str {
        "mock-turtles"
    }

    fn reproduce(&self, rules: &MockTurtles, pos: &Heads) -> String {
        crate::verify::check_command(self.id(), &rules.to_string(), &pos.to_string())
    }

    /// The closed form against the mex table for every head below [`TIER1_COINS`], and
    /// the analysis (verdict and winning moves) against the direct win/lose table on
    /// every set of heads below [`TIER1_WIN_COINS`].
    fn tier1(&self) -> Tier1Report {
        tier1_with(coin_value, analyze)
    }

    /// Every set of heads whose size, the sum of position + 1 over the heads, is
    /// `size` (a partition of `size` into distinct parts, part p for the head at
    /// p - 1), up to `MAX_SIZE` (16); size 0 is the row of tails.
    fn instances(&self, size: u32) -> Vec<(MockTurtles, Heads)> {
        fn rec(rest: u64, below: u64, cur: &mut Vec<u64>, out: &mut Vec<Heads>) {
            if rest == 0 {
                let mut heads: Vec<u64> = cur.iter().map(|p| p - 1).collect();
                heads.reverse();
                out.push(Heads(heads));
                return;
            }
            for p in (1..=rest.min(below - 1)).rev() {
                cur.push(p);
                rec(rest - p, p, cur, out);
                cur.pop();
            }
        }
        if size > MAX_SIZE {
            return Vec::new();
        }
        let mut out = Vec::new();
        let size = u64::from(size);
        rec(size, size + 1, &mut Vec::new(), &mut out);
        out.sort();
        out.into_iter().map(|h| (MockTurtles, h)).collect()
    }

    /// 1 to 7 heads among the coins 0..=13, what the enumeration does not reach (many
    /// heads, high coins).
    fn random_instance(&self, rng: &mut ChaCha8Rng) -> (MockTurtles, Heads) {
        let n = rng.gen_range(1..=7);
        let mut heads: Vec<u64> = rand::seq::index::sample(rng, 14, n)
            .into_iter()
            .map(|i| i as u64)
            .collect();
        heads.sort_unstable();
        (MockTurtles, Heads(heads))
    }

    fn fast(&self, _rules: &MockTurtles, pos: &Heads) -> Analysis<Turn> {
        analyze(pos)
    }
}

// ---------------------------------------------------------------------------------
// The `mock_turtles_agree` fuzz target.

/// `mock_turtles_agree`: up to 6 heads among coins 0..=13, one byte per coin, distinct.
impl crate::fuzzing::AgreeTarget for MockTurtlesSubject {
    fn fuzz_instance(&self, _: &[u8], rest: &[u8]) -> Option<(MockTurtles, Heads)> {
        let mut coins = crate::fuzzing::small_piles(rest, 6, 13)?;
        coins.sort_unstable();
        if coins.windows(2).any(|w| w[0] == w[1]) {
            return None;
        }
        Some((MockTurtles, Heads(coins)))
    }
}

// ---------------------------------------------------------------------------------
// How declarations use Mock Turtles: the heads' coin numbers.

/// The oracle's position of declared heads: sorted.
fn declared_heads(position: &[u64]) -> Heads {
    let mut coins = position.to_vec();
    coins.sort_unstable();
    Heads(coins)
}

impl declared::Declare for MockTurtlesSubject {
    type Oracle = MockTurtles;
    type Fast = ();
    const ID: &'static str = "mock-turtles";
    const POSITION: &'static str =
        "the coin numbers (from 0) that show heads, distinct, in any order";
    /// `turned` is how many coins the move turns (1 to 3): `top` and the lower
    /// coins `first` and `second` (0 where the move turns fewer).
    const MOVE_FIELDS: &'static [&'static str] = &["top", "turned", "first", "second"];
    /// Listing the winning moves costs the heads' coin numbers summed, at most
    /// [`ANALYZE_LIMIT`]; a coin's value is defined below 2^63.
    const REACH: declared::Reach = declared::Reach {
        max_value: (1 << 62) - 1,
        max_len: u64::MAX,
        max_moves_work: ANALYZE_LIMIT,
    };

    fn build(_: &[declared::ParamValue<'_>]) -> Result<(), String> {
        Ok(())
    }
    fn check(_: &(), position: &[u64]) -> Result<(), String> {
        let heads = declared_heads(position);
        match heads.0.windows(2).find(|w| w[0] == w[1]) {
            Some(w) => Err(format!("coin {} is listed twice", w[0])),
            None => Ok(()),
        }
    }
    fn first_wins(_: &(), position: &[u64]) -> Result<bool, String> {
        Ok(first_wins(position))
    }
    fn analyze(_: &(), position: &[u64]) -> Result<Analysis<Turn>, String> {
        Ok(analyze(&declared_heads(position)))
    }
    fn move_fields(m: &Turn, _: &[u64]) -> [u64; 4] {
        let lower = |i: usize| m.lower.get(i).copied().unwrap_or(0);
        [m.top, 1 + m.lower.len() as u64, lower(0), lower(1)]
    }
    fn oracle(_: &(), position: &[u64], _: usize) -> Result<(MockTurtles, Heads), SearchError> {
        Ok((MockTurtles, declared_heads(position)))
    }
}

// ---------------------------------------------------------------------------------
// Its line in the registry.

impl crate::games::BuiltIn for MockTurtlesSubject {
    const ID: &'static str = "mock-turtles";
    const SUMMARY: &'static str =
        "coins 0, 1, 2, ... in a row, some heads up; turn over one, two or three \
         coins, the rightmost of them from heads to tails; normal play. Rules: -";
    const DECLARABLE: Option<&'static dyn declared::DeclarableGame> =
        Some(declared::Declared::<Self>::GAME);
}

// ---------------------------------------------------------------------------------
// Checking users' own solvers of it ([`crate::Game`]).

impl crate::Game for MockTurtles {
    from_subject!(MockTurtlesSubject);
    /// Fewer heads, lower coins; candidates with two heads on one coin are dropped.
    fn shrink(&self, pos: &Heads) -> Vec<(MockTurtles, Heads)> {
        crate::shrink::list(&pos.0, 0, 0)
            .into_iter()
            .filter_map(|mut v| {
                v.sort_unstable();
                v.windows(2)
                    .all(|w| w[0] != w[1])
                    .then_some((MockTurtles, Heads(v)))
            })
            .filter(|(_, h)| h != pos)
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::verify::{verify_subject, Planted, PlantedTier1, Sweep};
    use std::time::{Duration, Instant};

    #[test]
    fn planted_tier1_bug_reaches_the_report() {
        // The head at 300 given 2 * 300 + 1 = 601 (evil) instead of 600.
        let planted = || tier1_with(|n| coin_value(n) ^ u64::from(n == 300), analyze);
        PlantedTier1 {
            subject: &MockTurtlesSubject,
            tier1: &planted,
        }
        .assert_caught("head at 300");
    }

    #[test]
    fn odious_numbers() {
        // OEIS A000069: 1, 2, 4, 7, 8, 11, 13, 14, 16, 19, 21, 22, 25, 26, 28, 31.
        let odious = [1, 2, 4, 7, 8, 11, 13, 14, 16, 19, 21, 22, 25, 26, 28, 31];
        for (n, &v) in odious.iter().enumerate() {
            assert_eq!(coin_value(n as u64), v, "head at {n}");
            assert_eq!(coin_of_value(v), Some(n as u64));
        }
        assert_eq!(coin_of_value(0), None);
        assert_eq!(coin_of_value(3), None);
        assert_eq!(coin_value((1 << 63) - 1), u64::MAX - 1);
        assert!(first_wins(&[u64::MAX]));
        assert!(!first_wins(&[]));
    }

    #[test]
    fn table_matches_closed_form() {
        // A quick slice of tier 1.
        for (n, v) in table(3000).into_iter().enumerate() {
            assert_eq!(v, coin_value(n as u64), "head at {n}");
        }
    }

    #[test]
    fn known_positions() {
        // 1^2^4^7 = 0: heads 0..=3 lose; 1^2^4 = 7, 1^2^7 = 4: heads 0,1,2 and 0,1,3 win.
        assert!(!first_wins(&[0, 1, 2, 3]));
        assert!(first_wins(&[0, 1, 2]));
        assert!(first_wins(&[0, 1, 3]));
        // Heads 0,1,2: X = 7. Top 2 (value 4): need 3 = g(0) ^ g(1), so 0+1+2; no one
        // coin is worth 3. Top 1 (value 2): need 5, evil, no pair below 1. Top 0: need
        // 6. So the only winning move turns all three.
        let a = analyze(&"0,1,2".parse().unwrap());
        let w: Vec<String> = a.winning.iter().map(|m| m.to_string()).collect();
        assert_eq!(w, ["0+1+2"]);
    }

    #[test]
    fn analysis_agrees_with_the_direct_table() {
        let win = win_table(10);
        for mask in 0u32..1 << 10 {
            let heads = Heads((0..10u64).filter(|&c| mask >> c & 1 == 1).collect());
            let a = analyze(&heads);
            assert_eq!(a.win, win[mask as usize], "{heads}");
            let want: Vec<Turn> = moves_of_mask(mask)
                .filter(|&(_, m)| !win[m as usize])
                .map(|(t, _)| t)
                .collect();
            assert_eq!(a.winning, want, "{heads}");
        }
    }

    #[test]
    fn reach_of_analyze() {
        // Heads 0, 1 and t: X = 1 ^ 2 ^ g(t); on top t need = 3, every pair {2j, 2j+1}
        // below t wins, and nothing else does (the heads 0 and 1 have need g(t) ^ 2 and
        // g(t) ^ 1, out of their reach).
        let t = ANALYZE_LIMIT - 1 - 2;
        let start = Instant::now();
        let a = analyze(&Heads(vec![0, 1, t]));
        let took = start.elapsed();
        assert_eq!(a.count() as u64, t / 2);
        assert!(took < Duration::from_secs(5), "{took:?}");
        let r = std::panic::catch_unwind(|| analyze(&Heads(vec![0, 1, ANALYZE_LIMIT])));
        assert!(r.is_err());
    }

    #[test]
    fn tier1_agrees() {
        let r = MockTurtlesSubject.tier1();
        assert!(r.checked > TIER1_COINS as u64);
        assert_eq!(r.disagreements, 0, "{:?}", r.first);
    }

    #[test]
    fn instances_by_size() {
        let s: Vec<String> = (0..=4)
            .flat_map(|n| MockTurtlesSubject.instances(n))
            .map(|(_, h)| h.to_string())
            .collect();
        assert_eq!(s, ["-", "0", "1", "0,1", "2", "0,2", "3"]);
        // Partitions of 16 into distinct parts: 32.
        assert_eq!(MockTurtlesSubject.instances(16).len(), 32);
        assert!(MockTurtlesSubject.instances(MAX_SIZE + 1).is_empty());
    }

    /// A short sweep: tier 2 up to size 10 and one random batch.
    fn short_sweep() -> Sweep {
        Sweep {
            time: Duration::from_secs(30),
            max_size: Some(10),
            random_batches: Some(1),
            tier1: false,
            ..Sweep::default()
        }
    }

    #[test]
    fn short_sweep_agrees() {
        let r = verify_subject(&MockTurtlesSubject, &short_sweep(), &());
        let t2 = &r.tiers[1];
        assert_eq!(t2.disagreements, 0, "{:?}", t2.first_disagreement);
        assert_eq!(t2.skipped, 0);
        assert_eq!(t2.enumerated_size, Some(10));
        assert!(t2.checked > 2048, "{}", t2.checked);
    }

    #[test]
    fn planted_doubled_values_are_caught() {
        // The value of a head at n taken as 2n (the odious adjustment forgotten).
        fn doubled(_: &MockTurtles, pos: &Heads) -> Analysis<Turn> {
            analyze_by(pos, |n| 2 * n, |v| v.is_multiple_of(2).then_some(v / 2))
        }
        let planted = Planted {
            subject: &MockTurtlesSubject,
            fast: doubled,
        };
        let r = verify_subject(&planted, &short_sweep(), &());
        let d = r.tiers[1].first_disagreement.as_ref().expect("not caught");
        // The head at 0 is worth 0 by that rule: a loss, where turning it wins.
        assert_eq!(d.position, "0");
        assert_eq!(
            MockTurtlesSubject.reproduce(&MockTurtles, &Heads(vec![0])),
            "sgcheck check mock-turtles '0'"
        );
    }
}
