//! Wythoff's game (hdu1527): two piles; take from one pile, or the same from both.
//!
//! Rules (game `wythoff`; the oracle's [`Wythoff`]): a move takes t >= 1 stones from
//! one pile, or t from both piles. Normal play.
//!
//! Closed form (Wythoff 1907): the lost positions with a <= b are exactly the pairs
//! (a_k, a_k + k), k = 0, 1, 2, ..., where a_k = floor(k phi) and phi = (1 + sqrt 5) / 2.
//! They come from the mex construction: a_k is the smallest number not yet in an
//! earlier pair, b_k = a_k + k; every number n >= 1 is in exactly one pair (the two
//! Beatty sequences of phi and phi^2 partition the positive integers). Tier 1 compares
//! the closed form with that construction.
//!
//! **Exact integers only.** floor(k phi) = floor((k + k sqrt 5) / 2), and because
//! floor(x / 2) = floor(floor(x) / 2) for real x, this is (k + isqrt(5 k^2)) / 2 with
//! the integer square root, computed in u128 ([`lower`]); when 5 k^2 does not fit in
//! u128 (k above 8.2 * 10^18) a binary search with a 256-bit comparison takes over.
//! Every u64 position is answered exactly. The tempting `floor(k * 1.618...)` in
//! double precision is wrong for some k within the contest's limits: k phi comes within
//! 10^-9 of an integer near Fibonacci numbers and their sums, closer than the double
//! product's rounding error. [`double_misses`] finds every such k (see there why the
//! search is complete), and the hdu1527 generators play those positions on purpose.
//!
//! Winning moves: every number is in one pair, so a pile of b has one partner
//! [`partner`]; taking from pile 0 wins iff the partner of pile 1 is below pile 0
//! (leave the partner), likewise for pile 1; the both-piles move keeps the difference
//! d = |a - b| and wins iff the pair of difference d, (a_d, a_d + d), is below the
//! position (take min(a, b) - a_d from both). So a position has at most three winning
//! moves, each found in O(1) big-integer steps, without enumerating t.

use crate::games::declared;
use crate::verify::{Subject, Tier1Report};
use rand::Rng;
use rand_chacha::ChaCha8Rng;
use sgcheck_oracles::games::wythoff::{Pair, Wythoff, WythoffMove};
use sgcheck_oracles::Analysis;
use sgcheck_oracles::SearchError;

/// floor(sqrt(5 k^2)) = floor(k sqrt 5), exactly, for every u64 `k`.
pub fn isqrt_5k2(k: u64) -> u128 {
    if k <= 1_900_000_000 {
        // 5 k^2 < 2^64: the u64 square root is faster.
        return u128::from((5 * k * k).isqrt());
    }
    let k2 = u128::from(k) * u128::from(k);
    if let Some(n) = k2.checked_mul(5) {
        return n.isqrt();
    }
    // 5 k^2 >= 2^128: the largest s < 2^67 with s^2 <= 5 k^2, by binary search on
    // 256-bit values (hi, lo).
    let target = {
        let (four, c1) = (k2 << 2, k2 >> 126);
        let (lo, carry) = four.overflowing_add(k2);
        (c1 + u128::from(carry), lo)
    };
    let (mut lo, mut hi) = (0u128, 1u128 << 67);
    while hi - lo > 1 {
        let mid = lo + (hi - lo) / 2;
        if square_wide(mid) <= target {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    lo
}

/// x^2 as (high, low) 128-bit halves, for x < 2^67.
fn square_wide(x: u128) -> (u128, u128) {
    let (xh, xl) = (x >> 64, x & u128::from(u64::MAX));
    let cross = 2 * xh * xl; // < 2^68
    let (lo, c) = (xl * xl).overflowing_add(cross << 64);
    (xh * xh + (cross >> 64) + u128::from(c), lo)
}

/// a_k = floor(k phi), the smaller pile of the k-th lost pair, exactly (u128: a_k
/// exceeds u64 for k above about 1.14 * 10^19).
pub fn lower(k: u64) -> u128 {
    (u128::from(k) + isqrt_5k2(k)) / 2
}

/// Whether (a, b) is lost for the player to move: with a <= b and k = b - a,
/// a == floor(k phi).
pub fn is_lost(a: u64, b: u64) -> bool {
    let (a, b) = (a.min(b), a.max(b));
    let k = b - a;
    if b >= 1 << 62 || k == 0 {
        return lower(k) == u128::from(a);
    }
    // a == floor(k phi) iff d < k sqrt 5 < d + 2 with d = 2a - k (k sqrt 5 is
    // irrational for k > 0, so both inequalities are strict): two squares, no square
    // root. Below 2^62 every square fits: d^2 < 2^126, 5 k^2 < 2^127.
    let d = 2 * i128::from(a) - i128::from(k);
    let five_k2 = 5 * i128::from(k) * i128::from(k);
    d + 2 > 0 && (d < 0 || d * d < five_k2) && five_k2 < (d + 2) * (d + 2)
}

/// The first player wins (hdu1527 prints 1).
pub fn first_wins(a: u64, b: u64) -> bool {
    !is_lost(a, b)
}

/// The partner of `v`: the other pile of the one lost pair that holds `v` (0 for 0).
/// v = a_k for k about v / phi, or v = a_k + k for k about v / phi^2; both estimates
/// are exact up to one, and each candidate is confirmed with [`lower`].
pub fn partner(v: u64) -> u128 {
    if v == 0 {
        return 0;
    }
    let v128 = u128::from(v);
    // v / phi = v (sqrt 5 - 1) / 2, within one of (isqrt(5 v^2) - v) / 2.
    let over_phi = ((isqrt_5k2(v) - v128) / 2) as u64;
    for k in over_phi.saturating_sub(1)..=over_phi.saturating_add(1) {
        if k > 0 && lower(k) == v128 {
            return v128 + u128::from(k);
        }
    }
    // v / phi^2 = v - v / phi.
    let over_phi2 = v - over_phi;
    for k in over_phi2.saturating_sub(2)..=over_phi2.saturating_add(2) {
        if k > 0 && lower(k) + u128::from(k) == v128 {
            return lower(k);
        }
    }
    unreachable!("every positive number is in exactly one Wythoff pair ({v})")
}

/// Verdict and every winning move (at most three), in canonical order.
pub fn analyze(pos: &Pair) -> Analysis<WythoffMove> {
    let Pair(a, b) = *pos;
    let mut winning = Vec::new();
    let p = partner(b);
    if p < u128::from(a) {
        winning.push(WythoffMove::Pile0(a - p as u64));
    }
    let q = partner(a);
    if q < u128::from(b) {
        winning.push(WythoffMove::Pile1(b - q as u64));
    }
    let (lo, hi) = (a.min(b), a.max(b));
    let l = lower(hi - lo);
    if l < u128::from(lo) {
        winning.push(WythoffMove::Both(lo - l as u64));
    }
    Analysis {
        win: first_wins(a, b),
        winning,
        remoteness: None,
    }
}

/// The lower piles a_0, a_1, ..., a_{n-1} by the mex construction (no phi at all): a_k
/// is the smallest number not in an earlier pair, b_k = a_k + k.
pub fn mex_construction(n: usize) -> Vec<u64> {
    let mut used = vec![false; 3 * n + 3];
    let mut lows = Vec::with_capacity(n);
    let mut next = 0usize;
    for k in 0..n {
        while used[next] {
            next += 1;
        }
        let a = next;
        used[a] = true;
        used[a + k] = true;
        lows.push(a as u64);
    }
    lows
}

// ---------------------------------------------------------------------------------
// floor(k phi) in double precision.

/// The ways contest solutions compute floor(k phi) in IEEE double precision.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DoublePhi {
    /// `(long long)(k * (1 + sqrt(5.0)) / 2)`.
    SqrtTimesK,
    /// `(long long)((sqrt(5.0) + 1) / 2 * k)`.
    PhiTimesK,
    /// `(long long)(k * 1.618033988749895)`.
    Literal,
}

impl DoublePhi {
    /// Every variant.
    pub const ALL: [DoublePhi; 3] = [
        DoublePhi::SqrtTimesK,
        DoublePhi::PhiTimesK,
        DoublePhi::Literal,
    ];

    /// floor(k phi) as the variant computes it (C's conversion truncates; all values
    /// are positive).
    pub fn floor_k_phi(self, k: u64) -> u64 {
        let kf = k as f64;
        match self {
            DoublePhi::SqrtTimesK => (kf * (1.0 + 5f64.sqrt()) / 2.0) as u64,
            DoublePhi::PhiTimesK => ((5f64.sqrt() + 1.0) / 2.0 * kf) as u64,
            #[allow(clippy::excessive_precision, clippy::approx_constant)]
            DoublePhi::Literal => (kf * 1.618_033_988_749_895) as u64,
        }
    }
}

/// Largest k [`double_misses`] answers for.
pub const DOUBLE_MISSES_MAX_K: u64 = 10_000_000_000;

/// Smallest Zeckendorf index of the candidates of [`double_misses`].
const ZECKENDORF_MIN_INDEX: usize = 20;

/// Every k in 1..=`limit` (at most [`DOUBLE_MISSES_MAX_K`]) where some [`DoublePhi`]
/// variant differs from the exact floor(k phi), ascending.
///
/// Why searching a few thousand candidates finds them all: write k in Zeckendorf form,
/// a sum of non-consecutive Fibonacci numbers F_n (F_1 = F_2 = 1, indices >= 2). Since
/// F_n phi - F_{n+1} = -psi^n with psi = -1/phi, k phi is an integer minus the sum of
/// psi^n over k's indices; with n0 the smallest index, the other terms (indices >=
/// n0 + 2) can cancel at most phi^(-n0-2) of the first, so the distance from k phi to
/// the nearest integer is at least phi^(-n0-1). The double computation is off from
/// k phi by at most k * 2^-52 plus half an ulp of k phi, below 4 * 10^-6 for k <= 10^10;
/// its floor can differ only when k phi is that close to an integer, so n0 + 1 >= 26,
/// and the candidates are the Zeckendorf sums whose indices are all at least 20 (a
/// margin of six indices, a factor of 18). Each candidate is then compared exactly.
/// The tests confirm the list by a full scan up to 10^7 (and, ignored by default, up
/// to 10^9).
pub fn double_misses(limit: u64) -> Vec<u64> {
    let limit = limit.min(DOUBLE_MISSES_MAX_K);
    let mut fib = vec![0u64, 1, 1];
    while *fib.last().expect("non-empty") <= limit {
        let n = fib.len();
        fib.push(fib[n - 1] + fib[n - 2]);
    }
    let mut candidates = Vec::new();
    fn rec(fib: &[u64], from: usize, sum: u64, limit: u64, out: &mut Vec<u64>) {
        for j in from..fib.len() {
            let s = sum + fib[j];
            if s > limit {
                break;
            }
            out.push(s);
            rec(fib, j + 2, s, limit, out);
        }
    }
    rec(&fib, ZECKENDORF_MIN_INDEX, 0, limit, &mut candidates);
    let mut misses: Vec<u64> = candidates
        .into_iter()
        .filter(|&k| {
            let exact = lower(k);
            DoublePhi::ALL
                .iter()
                .any(|v| u128::from(v.floor_k_phi(k)) != exact)
        })
        .collect();
    misses.sort_unstable();
    misses.dedup();
    misses
}

/// Lost positions (and their neighbours) where double-precision floor(k phi) is wrong,
/// with both piles at most `max_pile`: for every k of [`double_misses`], the lost pair
/// (a_k, a_k + k) and the won pairs (a_k +- 1, a_k +- 1 + k), each in both orders.
pub fn double_trap_positions(max_pile: u64) -> Vec<(u64, u64)> {
    let mut out = Vec::new();
    for k in double_misses(max_pile) {
        let a = lower(k) as u64;
        for x in [a - 1, a, a + 1] {
            if let Some(y) = x.checked_add(k).filter(|&y| y <= max_pile) {
                out.push((x, y));
                out.push((y, x));
            }
        }
    }
    out
}

// ---------------------------------------------------------------------------------
// verify.

/// `verify`'s view of Wythoff's game.
#[derive(Default)]
pub struct WythoffSubject;

/// Pairs of tier 1: the mex construction against the closed form for every k below
/// this (and every partner below a_k of the last).
pub const TIER1_PAIRS: usize = 4_000_000;
/// Largest pile sum of the smallest-first enumeration (the oracle's table holds
/// (a + 1)(b + 1) positions).
const ENUM_MAX_SIZE: u32 = 400;

/// Tier 1 with the fast side given (the closed form the game's solver uses, or a
/// planted wrong one in the tests): the same comparisons, the same tables.
fn tier1_with(lower: impl Fn(u64) -> u128) -> Tier1Report {
    let mut report = Tier1Report::default();
    let lows = mex_construction(TIER1_PAIRS);
    let top = *lows.last().expect("pairs") as usize;
    let mut partner_of = vec![0u64; top + 1];
    for (k, &a) in lows.iter().enumerate() {
        report.compare(format_args!("a_{k}"), lower(k as u64), u128::from(a));
        let b = a + k as u64;
        // The verdict's square-free test on the pair and its neighbours.
        report.compare(
            format_args!("verdicts near ({a},{b})"),
            [
                is_lost(a, b),
                is_lost(b, a),
                is_lost(a + 1, b + 1),
                is_lost(a, b + 1),
            ],
            [true, true, false, false],
        );
        partner_of[a as usize] = b;
        if (b as usize) <= top {
            partner_of[b as usize] = a;
        }
    }
    for (v, &p) in partner_of.iter().enumerate() {
        report.compare(
            format_args!("partner of {v}"),
            partner(v as u64),
            u128::from(p),
        );
    }
    // Exact at the far end of u64 too: a_k against its defining inequalities
    // 2 a_k - k < k sqrt 5 < 2 a_k + 2 - k, checked by squaring in 256 bits.
    for k in [u64::MAX, u64::MAX - 1, 8_250_000_000_000_000_000, 1 << 62] {
        let a = lower(k);
        let below = 2 * a - u128::from(k);
        let ok = square_wide(below) < five_k2_wide(k) && five_k2_wide(k) < square_wide(below + 2);
        report.compare(format_args!("a_{k} bounds"), ok, true);
    }
    report
}

impl Subject for WythoffSubject {
    type Rules = Wythoff;

    fn id(&self) -> &'static str {
        "wythoff"
    }

    fn reproduce(&self, rules: &Wythoff, pos: &Pair) -> String {
        crate::verify::check_command(self.id(), &rules.to_string(), &pos.to_string())
    }

    fn tier1(&self) -> Tier1Report {
        tier1_with(lower)
    }

    fn instances(&self, size: u32) -> Vec<(Wythoff, Pair)> {
        if size > ENUM_MAX_SIZE {
            return Vec::new();
        }
        let s = u64::from(size);
        (0..=s).map(|a| (Wythoff, Pair(a, s - a))).collect()
    }

    fn random_instance(&self, rng: &mut ChaCha8Rng) -> (Wythoff, Pair) {
        let pair = match rng.gen_range(0..4) {
            // Near a lost pair, in either order: the interesting positions.
            0 => {
                let k = rng.gen_range(0..=60u64);
                let a = lower(k) as u64;
                let x = (a + rng.gen_range(0..=2)).saturating_sub(1);
                let y = (a + k + rng.gen_range(0..=2)).saturating_sub(1);
                if rng.gen_bool(0.5) {
                    Pair(x, y)
                } else {
                    Pair(y, x)
                }
            }
            // Equal piles, or one pile empty.
            1 => {
                let a = rng.gen_range(0..=150);
                if rng.gen_bool(0.5) {
                    Pair(a, a)
                } else {
                    Pair(0, a)
                }
            }
            _ => Pair(rng.gen_range(0..=120), rng.gen_range(0..=120)),
        };
        (Wythoff, pair)
    }

    fn fast(&self, _rules: &Wythoff, pos: &Pair) -> Analysis<WythoffMove> {
        analyze(pos)
    }
}

/// 5 k^2 as (high, low) 128-bit halves.
fn five_k2_wide(k: u64) -> (u128, u128) {
    let k2 = u128::from(k) * u128::from(k);
    let (lo, carry) = (k2 << 2).overflowing_add(k2);
    ((k2 >> 126) + u128::from(carry), lo)
}

// ---------------------------------------------------------------------------------
// How declarations use Wythoff's game (hdu1527): the position is the two pile sizes.

fn declared_pair(position: &[u64]) -> Pair {
    Pair(
        position.first().copied().unwrap_or(0),
        position.get(1).copied().unwrap_or(0),
    )
}

/// The Wythoff positions where a double-precision floor(k phi) is wrong (and their
/// neighbours), with piles up to 10^10, computed once.
fn double_traps() -> &'static [(u64, u64)] {
    static TRAPS: std::sync::OnceLock<Vec<(u64, u64)>> = std::sync::OnceLock::new();
    TRAPS.get_or_init(|| double_trap_positions(DOUBLE_MISSES_MAX_K))
}

impl declared::Declare for WythoffSubject {
    type Oracle = Wythoff;
    type Fast = ();
    const ID: &'static str = "wythoff";
    const POSITION: &'static str = "two numbers: the piles";
    // `pile` is 0 or 1, or 2 for a move on both piles.
    const MOVE_FIELDS: &'static [&'static str] = &["pile", "amount"];
    const REACH: declared::Reach = declared::Reach {
        max_value: u64::MAX,
        max_len: 2,
        max_moves_work: u64::MAX,
    };

    fn build(_: &[declared::ParamValue<'_>]) -> Result<(), String> {
        Ok(())
    }
    fn check(_: &(), position: &[u64]) -> Result<(), String> {
        if position.len() != 2 {
            return Err(format!(
                "wythoff positions are two piles, found {} numbers",
                position.len()
            ));
        }
        Ok(())
    }
    fn first_wins(_: &(), position: &[u64]) -> Result<bool, String> {
        let p = declared_pair(position);
        Ok(first_wins(p.0, p.1))
    }
    fn analyze(_: &(), position: &[u64]) -> Result<Analysis<WythoffMove>, String> {
        Ok(analyze(&declared_pair(position)))
    }
    fn move_fields(m: &WythoffMove, _: &[u64]) -> [u64; 4] {
        match *m {
            WythoffMove::Pile0(t) => [0, t, 0, 0],
            WythoffMove::Pile1(t) => [1, t, 0, 0],
            WythoffMove::Both(t) => [2, t, 0, 0],
        }
    }
    /// A budget error before any search when the (a + 1)(b + 1) positions below this
    /// one exceed the budget.
    fn oracle(_: &(), position: &[u64], budget: usize) -> Result<(Wythoff, Pair), SearchError> {
        let pair = declared_pair(position);
        let below = u128::from(pair.0 + 1).saturating_mul(u128::from(pair.1) + 1);
        if pair.0 == u64::MAX || below > budget as u128 {
            return Err(SearchError::Budget { budget });
        }
        Ok((Wythoff, pair))
    }
    /// A lost pair (a_k, a_k + k) within the bounds, in a random order.
    fn make_losing(_: &(), p: &mut [u64], b: &[(u64, u64)], rng: &mut ChaCha8Rng) -> bool {
        if p.len() != 2 || b.len() != 2 {
            return false;
        }
        let lo = b[0].0.max(b[1].0);
        let hi = b[0].1.min(b[1].1);
        if lo > hi {
            return false;
        }
        // The largest k whose pair fits under hi: a_k + k grows with k.
        let fits = |k: u64| lower(k) + u128::from(k) <= u128::from(hi);
        let (mut good, mut bad) = (0u64, hi.saturating_add(1));
        while bad - good > 1 {
            let mid = good + (bad - good) / 2;
            if fits(mid) {
                good = mid;
            } else {
                bad = mid;
            }
        }
        for _ in 0..16 {
            let k = rng.gen_range(0..=good);
            let a = lower(k) as u64;
            if a >= lo {
                let (x, y) = if rng.gen_bool(0.5) {
                    (a, a + k)
                } else {
                    (a + k, a)
                };
                p[0] = x;
                p[1] = y;
                return true;
            }
        }
        false
    }
    /// One random case in four: a position where double-precision floor(k phi) is
    /// wrong, or a neighbour.
    fn interesting(_: &(), b: &[(u64, u64)], rng: &mut ChaCha8Rng) -> Option<Vec<u64>> {
        if b.len() != 2 || rng.gen_range(0..4) != 0 {
            return None;
        }
        let inside = |&&(x, y): &&(u64, u64)| {
            (b[0].0..=b[0].1).contains(&x) && (b[1].0..=b[1].1).contains(&y)
        };
        let fit: Vec<&(u64, u64)> = double_traps().iter().filter(inside).collect();
        let &&(x, y) = fit.get(rng.gen_range(0..fit.len().max(1)))?;
        Some(vec![x, y])
    }
}

// ---------------------------------------------------------------------------------
// The `wythoff_agree` fuzz target.

/// `wythoff_agree`: two piles, one byte each, up to 60.
impl crate::fuzzing::AgreeTarget for WythoffSubject {
    const FIELDS: usize = 2;
    fn fuzz_instance(
        &self,
        fields: &[u8],
        rest: &[u8],
    ) -> Option<(Wythoff, <Wythoff as sgcheck_oracles::Rules>::Position)> {
        if fields[0] > 60 || fields[1] > 60 || !rest.is_empty() {
            return None;
        }
        Some((Wythoff, Pair(fields[0] as u64, fields[1] as u64)))
    }
}

// ---------------------------------------------------------------------------------
// Its line in the registry.

impl crate::games::BuiltIn for WythoffSubject {
    const ID: &'static str = "wythoff";
    const SUMMARY: &'static str =
        "two piles; take any positive number from one pile, or the same positive \
         number from both; normal play. Rules: -";
    const DECLARABLE: Option<&'static dyn declared::DeclarableGame> =
        Some(declared::Declared::<Self>::GAME);
}

// ---------------------------------------------------------------------------------
// Checking users' own solvers of it ([`crate::Game`]).

impl crate::Game for Wythoff {
    from_subject!(WythoffSubject);
    fn shrink(&self, pos: &Pair) -> Vec<(Wythoff, Pair)> {
        let Pair(a, b) = *pos;
        let mut out: Vec<(Wythoff, Pair)> = crate::shrink::number(a, 0)
            .into_iter()
            .map(|a| (Wythoff, Pair(a, b)))
            .collect();
        out.extend(
            crate::shrink::number(b, 0)
                .into_iter()
                .map(|b| (Wythoff, Pair(a, b))),
        );
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::verify::PlantedTier1;
    #[test]
    fn planted_tier1_bug_reaches_the_report() {
        // a_5 one too large.
        let planted = || tier1_with(|k| lower(k) + u128::from(k == 5));
        PlantedTier1 {
            subject: &WythoffSubject,
            tier1: &planted,
        }
        .assert_caught("a_5");
    }

    use crate::verify::Planted;
    use std::time::Duration;

    #[test]
    fn closed_form_matches_mex_construction() {
        // A slice of tier 1: the first 10^5 pairs and every partner below them.
        let lows = mex_construction(100_000);
        for (k, &a) in lows.iter().enumerate() {
            assert_eq!(lower(k as u64), u128::from(a), "k={k}");
            assert_eq!(partner(a), u128::from(a + k as u64), "k={k}");
            if k > 0 {
                assert_eq!(partner(a + k as u64), u128::from(a), "k={k}");
            }
        }
        // OEIS A000201 (lower Wythoff sequence) begins 1, 3, 4, 6, 8, 9, 11, 12, 14, 16.
        let a: Vec<u128> = (1..=10).map(lower).collect();
        assert_eq!(a, [1, 3, 4, 6, 8, 9, 11, 12, 14, 16]);
    }

    #[test]
    fn spec_samples_hdu1527() {
        // `2 1` => 0, `8 4` => 1, `4 7` => 0.
        assert!(!first_wins(2, 1));
        assert!(first_wins(8, 4));
        assert!(!first_wins(4, 7));
    }

    #[test]
    fn wide_square_root_is_exact_at_the_top_of_u64() {
        for k in [u64::MAX, u64::MAX - 7, 8_300_000_000_000_000_000, 3] {
            let s = isqrt_5k2(k);
            assert!(square_wide(s) <= five_k2_wide(k), "k={k}");
            assert!(square_wide(s + 1) > five_k2_wide(k), "k={k}");
        }
        // Where both ways apply they agree.
        let k = 8_000_000_000_000_000_000u64;
        let n = 5 * u128::from(k) * u128::from(k);
        assert_eq!(isqrt_5k2(k), n.isqrt());
        // The square-free verdict agrees with a_k where it applies (piles below 2^62)
        // and the fallback takes over above.
        for k in [
            1u64,
            2,
            1_000_000_007,
            10u64.pow(18),
            (1 << 61) / 2,
            (1 << 62) / 3,
        ] {
            let a = lower(k) as u64;
            assert!(is_lost(a, a + k), "k={k}");
            assert!(is_lost(a + k, a), "k={k}");
            assert!(!is_lost(a - 1, a - 1 + k), "k={k}");
            assert!(!is_lost(a + 1, a + 1 + k), "k={k}");
        }
        // No panic for any position, even at u64::MAX.
        let a = analyze(&Pair(u64::MAX, 0));
        assert!(a.win);
        assert_eq!(a.winning, vec![WythoffMove::Pile0(u64::MAX)]);
        let _ = analyze(&Pair(u64::MAX, u64::MAX - 12345));
    }

    #[test]
    fn double_misses_are_real_and_complete_to_ten_million() {
        // Every listed k really differs in double precision (recomputed here).
        let list = double_misses(1_000_000_000);
        assert!(!list.is_empty());
        for &k in &list {
            assert!(
                DoublePhi::ALL
                    .iter()
                    .any(|v| u128::from(v.floor_k_phi(k)) != lower(k)),
                "k={k}"
            );
        }
        // The first is F_40 = 102334155: k phi lies 1/phi^40 below an integer.
        assert_eq!(list[0], 102_334_155);
        // A full scan to 10^7 finds no miss the list does not have (there is none).
        let small = double_misses(10_000_000);
        let scanned: Vec<u64> = (1..=10_000_000u64)
            .filter(|&k| {
                DoublePhi::ALL
                    .iter()
                    .any(|v| u128::from(v.floor_k_phi(k)) != lower(k))
            })
            .collect();
        assert_eq!(scanned, small);
    }

    /// The one-off full scan to 10^9 (about a minute in release mode):
    /// `cargo test --release --lib double_misses_full_scan -- --ignored`.
    #[test]
    #[ignore]
    fn double_misses_full_scan() {
        let list = double_misses(1_000_000_000);
        let scanned: Vec<u64> = (1..=1_000_000_000u64)
            .filter(|&k| {
                DoublePhi::ALL
                    .iter()
                    .any(|v| u128::from(v.floor_k_phi(k)) != lower(k))
            })
            .collect();
        assert_eq!(scanned, list);
    }

    #[test]
    fn trap_positions_fool_a_double_solution() {
        // A double-precision verdict is wrong on some of these positions, each with
        // piles within the contest's 10^9.
        let traps = double_trap_positions(1_000_000_000);
        let wrong = traps
            .iter()
            .filter(|&&(a, b)| {
                let (x, y) = (a.min(b), a.max(b));
                let lost_in_double = DoublePhi::SqrtTimesK.floor_k_phi(y - x) == x;
                lost_in_double != is_lost(a, b)
            })
            .count();
        assert!(wrong >= 10, "{wrong} of {}", traps.len());
        assert!(traps
            .iter()
            .all(|&(a, b)| a <= 1_000_000_000 && b <= 1_000_000_000));
    }

    /// A planted bug: the pile-1 move forgotten (the one a solver that assumes
    /// a <= b would find only in one order).
    fn no_pile1(rules: &Wythoff, pos: &Pair) -> Analysis<WythoffMove> {
        let mut a = WythoffSubject.fast(rules, pos);
        a.winning.retain(|m| !matches!(m, WythoffMove::Pile1(_)));
        a
    }

    #[test]
    fn planted_missing_move_is_caught_small() {
        let d = Planted {
            subject: &WythoffSubject,
            fast: no_pile1,
        }
        .first_disagreement(Duration::from_secs(3))
        .expect("planted bug not found");
        // (0,1): the only winning move takes the stone of pile 1.
        assert_eq!(d.position, "0,1");
    }
}
