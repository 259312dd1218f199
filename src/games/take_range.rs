//! Take-range (misère): take p..=q coins, whoever takes the last coin loses; the
//! player to move loses exactly when 1 <= n mod (p+q) <= p.
//!
//! Rules (game `take-range`; contest hdu2897 "邂逅明下"; the oracle's
//! [`TakeRange`]): one pile of n coins; a move takes at least p and at most q coins,
//! and when fewer than p remain the player must take them all. The player who takes
//! the last coin **loses**. At n = 0 the previous player took the last coin, so the
//! player "to move" there has already won, with no move to make; the oracle reads it
//! that way ([`Rules::stuck_player_wins`](sgcheck_oracles::Rules::stuck_player_wins))
//! and so does this module. The contest has n >= 1.
//!
//! This is a misère one-pile game, so no Grundy values: the table is a plain win/lose
//! table, W(0) = win and W(n) = "some move leads to a lost position".
//!
//! Why the closed form holds (L = p + q): the lost positions are n with
//! n mod L in 1..=p. Induction on n >= 1, with r = n mod L:
//! - 1 <= r <= p: if n < p the only move takes every coin, and loses. Otherwise an
//!   amount a in p..=q leaves n - a; taking all (n - a = 0) loses at once, and any
//!   other target has residue r - a mod L in r + p ..= r + q (adding L), which lies in
//!   p + 1 ..= L: residue 0 or above p, won for the opponent by the two cases below.
//!   So n is lost.
//! - r = 0 (so n >= L > q): take q, leaving residue L - q = p, and at least p coins:
//!   lost for the opponent.
//! - p < r < L: take a = max(p, r - p), which is in p..=q because r - p < q, and at
//!   most r <= n; it leaves residue min(r - p, p), in 1..=p: lost for the opponent.
//!
//! Winning moves: the amounts a whose target n - a is lost. The targets of one pile
//! form the interval [n - min(q, n), n - p] of at most q - p + 1 values, while two runs
//! of lost residues (1..=p of consecutive blocks) are q + 1 apart, so the lost targets
//! form one run: the winning amounts are consecutive. The lost positions in 1..=x
//! number (x / L) * p + min(x mod L, p), so the count is a difference of two such
//! terms, and the best move (smallest amount) comes from the largest lost target: all
//! in O(1), at any size.

use crate::games::declared;
use crate::verify::{Subject, Tier1Report};
use rand::Rng;
use rand_chacha::ChaCha8Rng;
use sgcheck_oracles::games::take_range::{Coins, TakeCoins, TakeRange};
use sgcheck_oracles::Analysis;
use sgcheck_oracles::SearchError;

/// The rules as this module reads them: `p` at least 1 (the oracle does the same
/// with a hand-built p = 0), as `(p, q)`.
fn params(rules: &TakeRange) -> (u64, u64) {
    (rules.p.max(1), rules.q)
}

/// Closed form: whether the player to move wins a pile of `n` coins.
///
/// For rules outside `1 <= p <= q` (which the notation rejects; only a hand-built
/// value gets here) no move of a non-empty pile avoids taking the last coin or there
/// is no move at all, so every n >= 1 is lost.
pub fn first_wins(p: u64, q: u64, n: u64) -> bool {
    let p = p.max(1);
    if n == 0 {
        return true;
    }
    if p > q {
        return false;
    }
    let r = n as u128 % (p as u128 + q as u128);
    !(1..=p as u128).contains(&r)
}

/// Number of lost positions in 1..=x (for `1 <= p <= q`).
fn lost_up_to(x: u64, p: u64, l: u128) -> u128 {
    (x as u128 / l) * p as u128 + (x as u128 % l).min(p as u128)
}

/// The largest lost position at most `hi`, if any (for `1 <= p <= q`).
fn largest_lost_at_most(hi: u64, p: u64, l: u128) -> Option<u64> {
    let r = (hi as u128 % l) as u64;
    if r == 0 {
        // Residue p of the previous block: hi - L + p = hi - q.
        let q = (l - p as u128) as u64;
        (hi as u128 >= l).then(|| hi - q)
    } else if r <= p {
        Some(hi)
    } else {
        Some(hi - (r - p))
    }
}

/// The range of targets `n - a` of a pile of `n >= p`: `[n - min(q, n), n - p]`.
fn targets(p: u64, q: u64, n: u64) -> (u64, u64) {
    (n - q.min(n), n - p)
}

/// Verdict, best move and number of winning moves of one pile, in O(1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Summary {
    /// Whether the player to move wins.
    pub win: bool,
    /// The smallest winning amount.
    pub best: Option<u64>,
    /// How many amounts win.
    pub count: u64,
}

/// The closed-form [`Summary`] of a pile of `n` coins.
pub fn summary(p: u64, q: u64, n: u64) -> Summary {
    let p = p.max(1);
    let win = first_wins(p, q, n);
    // No winning move: n = 0 (no move at all), n < p (the only move takes the last
    // coin), or rules without moves.
    if n == 0 || n < p || p > q {
        return Summary {
            win,
            best: None,
            count: 0,
        };
    }
    let l = p as u128 + q as u128;
    let (lo, hi) = targets(p, q, n);
    let count = lost_up_to(hi, p, l) - lost_up_to(lo.saturating_sub(1), p, l);
    let best = largest_lost_at_most(hi, p, l)
        .filter(|&t| t >= lo)
        .map(|t| n - t);
    Summary {
        win,
        best,
        count: count as u64,
    }
}

/// Every winning amount of a pile of `n` coins, ascending: the run of
/// [`Summary::count`] consecutive amounts from [`Summary::best`].
pub fn winning_amounts(p: u64, q: u64, n: u64) -> Vec<u64> {
    let s = summary(p, q, n);
    match s.best {
        Some(b) => (0..s.count).map(|i| b + i).collect(),
        None => Vec::new(),
    }
}

/// Verdict and every winning move of a take-range pile.
pub fn analyze(rules: &TakeRange, pos: &Coins) -> Analysis<TakeCoins> {
    let (p, q) = params(rules);
    Analysis {
        win: first_wins(p, q, pos.0),
        winning: winning_amounts(p, q, pos.0)
            .into_iter()
            .map(TakeCoins)
            .collect(),
        remoteness: None,
    }
}

/// Win/lose table of piles 0..len by recursion over one pile's moves (no closed form,
/// no Grundy values): W(0) = true (the opponent took the last coin); a pile below p
/// has the single move "take all", to 0; otherwise the moves take p..=min(q, n).
pub fn win_table(p: u64, q: u64, len: usize) -> Vec<bool> {
    let p = p.max(1);
    let mut w: Vec<bool> = Vec::with_capacity(len);
    for n in 0..len as u64 {
        let v = if n == 0 {
            true
        } else if n < p {
            !w[0]
        } else {
            (p..=q.min(n)).any(|a| !w[(n - a) as usize])
        };
        w.push(v);
    }
    w
}

/// The [`Summary`] of pile `n` read off a win/lose table by scanning the amounts.
pub fn summary_from_table(w: &[bool], p: u64, q: u64, n: u64) -> Summary {
    let p = p.max(1);
    let amounts: Vec<u64> = if n == 0 {
        vec![]
    } else if n < p {
        vec![n]
    } else {
        (p..=q.min(n)).collect()
    };
    let winning: Vec<u64> = amounts
        .into_iter()
        .filter(|&a| !w[(n - a) as usize])
        .collect();
    Summary {
        win: w[n as usize],
        best: winning.first().copied(),
        count: winning.len() as u64,
    }
}

/// `verify`'s view of take-range.
#[derive(Default)]
pub struct TakeRangeSubject;

/// Largest q of tier 1 (the issue: all p <= q <= 40).
const TIER1_MAX_Q: u64 = 40;
/// Largest pile of tier 1 (the issue: n <= 2000).
const TIER1_MAX_N: usize = 2000;

/// Tier 1 with the fast side given (the closed form the game's solver uses, or a
/// planted wrong one in the tests): the same comparisons, the same tables.
fn tier1_with(summary: impl Fn(u64, u64, u64) -> Summary) -> Tier1Report {
    let mut report = Tier1Report::default();
    for q in 1..=TIER1_MAX_Q {
        for p in 1..=q {
            let w = win_table(p, q, TIER1_MAX_N + 1);
            for n in 0..=TIER1_MAX_N as u64 {
                report.compare(
                    format_args!("p={p} q={q} n={n}"),
                    summary(p, q, n),
                    summary_from_table(&w, p, q, n),
                );
            }
        }
    }
    report
}

impl Subject for TakeRangeSubject {
    type Rules = TakeRange;

    fn id(&self) -> &'static str {
        "take-range"
    }

    /// `sgcheck check` reproduces a disagreement of sgcheck's own solver.
    fn reproduce(
        &self,
        rules: &Self::Rules,
        pos: &<Self::Rules as sgcheck_oracles::Rules>::Position,
    ) -> String {
        crate::verify::check_command(self.id(), &rules.to_string(), &pos.to_string())
    }

    fn tier1(&self) -> Tier1Report {
        tier1_with(summary)
    }

    fn instances(&self, size: u32) -> Vec<(TakeRange, Coins)> {
        // Size = n + q - 1 (never empty, since an empty level ends the sweep): every
        // 1 <= p <= q and n >= 0 (n = 0 included: the oracle's "already won"
        // position) with n + q = size + 1.
        let s = size as u64 + 1;
        let mut out = Vec::new();
        for q in 1..=s {
            for p in 1..=q {
                out.push((TakeRange { p, q }, Coins(s - q)));
            }
        }
        out
    }

    fn random_instance(&self, rng: &mut ChaCha8Rng) -> (TakeRange, Coins) {
        let q = match rng.gen_range(0..10) {
            0 => rng.gen_range(1..=120),
            1..=3 => rng.gen_range(1..=6),
            _ => rng.gen_range(1..=40),
        };
        let p = match rng.gen_range(0..6) {
            0 => 1,
            1 => q,
            _ => rng.gen_range(1..=q),
        };
        let l = p + q;
        let n = match rng.gen_range(0..4) {
            // Near a multiple of p+q: the boundaries of the lost residues 1..=p.
            0 => {
                let k = rng.gen_range(0..=400 / l);
                let r = [0, 1, p, p + 1, l - 1][rng.gen_range(0..5)];
                k * l + r
            }
            1 => rng.gen_range(0..=2 * l),
            _ => rng.gen_range(0..=400),
        };
        (TakeRange { p, q }, Coins(n))
    }

    fn fast(&self, rules: &TakeRange, pos: &Coins) -> Analysis<TakeCoins> {
        analyze(rules, pos)
    }
}

// ---------------------------------------------------------------------------------
// How declarations use take-range: one pile, take `p..=q`, taking the last coin loses.

impl declared::Declare for TakeRangeSubject {
    type Oracle = TakeRange;
    type Fast = TakeRange;
    const ID: &'static str = "take-range";
    const PARAMETERS: &'static [declared::ParamSpec] = &[
        declared::ParamSpec {
            name: "p",
            kind: declared::ParamKind::Number,
            about: "fewest coins a move takes while that many remain (at least 1)",
        },
        declared::ParamSpec {
            name: "q",
            kind: declared::ParamKind::Number,
            about: "most coins a move takes (at least p)",
        },
    ];
    const POSITION: &'static str = "one number: the coins in the pile";
    const MOVE_FIELDS: &'static [&'static str] = &["amount"];
    const REACH: declared::Reach = declared::Reach {
        max_value: u64::MAX,
        max_len: 1,
        max_moves_work: u64::MAX,
    };

    fn build(params: &[declared::ParamValue<'_>]) -> Result<TakeRange, String> {
        let p = declared::number(params, 0, "p")?;
        let q = declared::number(params, 1, "q")?;
        if p == 0 || p > q {
            return Err(format!(
                "the rules need 1 <= p <= q, found p = {p}, q = {q}"
            ));
        }
        Ok(TakeRange { p, q })
    }
    fn check(_: &TakeRange, position: &[u64]) -> Result<(), String> {
        if position.len() != 1 {
            return Err(format!(
                "take-range positions are one pile, found {} numbers",
                position.len()
            ));
        }
        Ok(())
    }
    fn first_wins(r: &TakeRange, position: &[u64]) -> Result<bool, String> {
        Ok(first_wins(r.p, r.q, declared_coins(position).0))
    }
    fn analyze(r: &TakeRange, position: &[u64]) -> Result<Analysis<TakeCoins>, String> {
        Ok(analyze(r, &declared_coins(position)))
    }
    fn move_fields(m: &TakeCoins, _: &[u64]) -> [u64; 4] {
        [m.0, 0, 0, 0]
    }
    fn oracle(
        r: &TakeRange,
        position: &[u64],
        _: usize,
    ) -> Result<(TakeRange, Coins), SearchError> {
        Ok((*r, declared_coins(position)))
    }
    fn make_losing(r: &TakeRange, p: &mut [u64], b: &[(u64, u64)], rng: &mut ChaCha8Rng) -> bool {
        // Lost exactly when 1 <= n mod (p + q) <= p.
        let (Some(n), Some(&(lo, hi))) = (p.first_mut(), b.first()) else {
            return false;
        };
        let l = r.p + r.q;
        let k = rng.gen_range(1..=r.p);
        let first = if lo <= k { 0 } else { (lo - k).div_ceil(l) };
        if hi < k || first > (hi - k) / l {
            return false;
        }
        *n = rng.gen_range(first..=(hi - k) / l) * l + k;
        true
    }
}

fn declared_coins(position: &[u64]) -> Coins {
    Coins(position.first().copied().unwrap_or(0))
}

// ---------------------------------------------------------------------------------
// The `take_range_agree` fuzz target.

/// `take_range_agree`: p in 1..=10, q in p..=12, one pile of at most 120 coins.
impl crate::fuzzing::AgreeTarget for TakeRangeSubject {
    const FIELDS: usize = 3;
    fn fuzz_instance(
        &self,
        fields: &[u8],
        rest: &[u8],
    ) -> Option<(TakeRange, <TakeRange as sgcheck_oracles::Rules>::Position)> {
        if !(1..=10).contains(&fields[0])
            || fields[1] < fields[0]
            || fields[1] > 12
            || fields[2] > 120
            || !rest.is_empty()
        {
            return None;
        }
        Some((
            TakeRange {
                p: fields[0] as u64,
                q: fields[1] as u64,
            },
            Coins(fields[2] as u64),
        ))
    }
}

// ---------------------------------------------------------------------------------
// Its line in the registry.

impl crate::games::BuiltIn for TakeRangeSubject {
    const ID: &'static str = "take-range";
    const SUMMARY: &'static str =
        "one pile; take p to q coins (all of them when fewer than p remain); whoever \
         takes the last coin loses. Rules: p=2,q=4";
    const DECLARABLE: Option<&'static dyn declared::DeclarableGame> =
        Some(declared::Declared::<Self>::GAME);
}

// ---------------------------------------------------------------------------------
// Checking users' own solvers of it ([`crate::Game`]).

impl crate::Game for TakeRange {
    from_subject!(TakeRangeSubject);
    fn shrink(&self, pos: &Coins) -> Vec<(TakeRange, Coins)> {
        let TakeRange { p, q } = *self;
        let mut out: Vec<(TakeRange, Coins)> = crate::shrink::number(pos.0, 0)
            .into_iter()
            .map(|n| (*self, Coins(n)))
            .collect();
        out.extend(
            crate::shrink::number(q, p)
                .into_iter()
                .map(|q| (TakeRange { p, q }, *pos)),
        );
        out.extend(
            crate::shrink::number(p, 1)
                .into_iter()
                .map(|p| (TakeRange { p, q }, *pos)),
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
        // The summary of 9 coins given for 8 (p = 2, q = 4): 8 is lost, 9 is won.
        let planted =
            || tier1_with(|p, q, n| summary(p, q, if (p, q, n) == (2, 4, 8) { 9 } else { n }));
        PlantedTier1 {
            subject: &TakeRangeSubject,
            tier1: &planted,
        }
        .assert_caught("p=2 q=4 n=8");
    }

    use crate::verify::Planted;
    use sgcheck_oracles::Solver;
    use std::time::Duration;

    #[test]
    fn spec_samples_hdu2897() {
        // hdu2897 statement sample: `7 2 4` => LOST, `6 2 4` => WIN.
        assert!(!first_wins(2, 4, 7));
        assert!(first_wins(2, 4, 6));
        // From 6 with p=2, q=4: taking 4 leaves 2, residue 2 of 6: lost. Taking 2
        // leaves 4 and 3 leaves 3, both residues above p: won. One winning move.
        assert_eq!(winning_amounts(2, 4, 6), vec![4]);
        assert_eq!(
            summary(2, 4, 6),
            Summary {
                win: true,
                best: Some(4),
                count: 1
            }
        );
    }

    #[test]
    fn table_matches_closed_form() {
        // Closed form ("lose iff 1 <= n % (p+q) <= p", checked): a slice of tier 1.
        for q in 1..=9 {
            for p in 1..=q {
                let w = win_table(p, q, 200);
                for n in 0..200u64 {
                    let s = summary_from_table(&w, p, q, n);
                    assert_eq!(summary(p, q, n), s, "p={p} q={q} n={n}");
                    let listed = winning_amounts(p, q, n);
                    assert_eq!(listed.len() as u64, s.count);
                    assert_eq!(listed.first().copied(), s.best);
                }
            }
        }
    }

    #[test]
    fn empty_pile_agrees_with_oracle() {
        // n = 0: the oracle says the player to move has won, with no winning move.
        for (p, q) in [(1, 1), (2, 4), (5, 5)] {
            let o = Solver::new(TakeRange { p, q }).analyze(&Coins(0)).unwrap();
            let f = analyze(&TakeRange { p, q }, &Coins(0));
            assert_eq!((f.win, &f.winning), (o.win, &o.winning));
            assert!(f.win && f.winning.is_empty());
        }
    }

    #[test]
    fn many_winning_moves() {
        // p = 3, q = 20 (L = 23), n = 23 + 6: targets 9..=26, lost: 24, 25, 26 (residues
        // 1..3 of the second block). Three winning amounts 3, 4, 5.
        assert_eq!(winning_amounts(3, 20, 29), vec![3, 4, 5]);
        // The winning amounts are always one run of consecutive amounts (module
        // docs); check it against the table over a range of rules.
        for q in 1..=12 {
            for p in 1..=q {
                let w = win_table(p, q, 120);
                for n in 0..120 {
                    let amounts: Vec<u64> = (p..=q.min(n))
                        .filter(|&a| n >= p && !w[(n - a) as usize])
                        .collect();
                    assert!(amounts.windows(2).all(|x| x[1] == x[0] + 1), "{amounts:?}");
                }
            }
        }
    }

    #[test]
    fn limits_do_not_overflow() {
        // p + q near 2^64: the modulus is computed in u128.
        let (p, q) = (u64::MAX - 1, u64::MAX);
        assert!(!first_wins(p, q, 5));
        assert!(!first_wins(p, q, u64::MAX - 1));
        assert!(first_wins(p, q, u64::MAX));
        assert_eq!(winning_amounts(p, q, u64::MAX), vec![u64::MAX - 1]);
        // The contest limits: 65535 everywhere.
        let s = summary(1, 65535, 65535);
        assert!(s.win);
        assert_eq!(s.best, Some(65534));
        // Hand-built rules outside 1 <= p <= q.
        assert!(!first_wins(5, 3, 9));
        assert!(first_wins(0, 3, 4) == first_wins(1, 3, 4));
    }

    /// A planted bug: the residue 0 read as lost too (`n % (p+q) <= p`, dropping the
    /// `1 <=`), delegating everything else to the real subject.
    fn zero_residue_lost(rules: &TakeRange, pos: &Coins) -> Analysis<TakeCoins> {
        if pos.0 > 0 && pos.0.is_multiple_of(rules.p + rules.q) {
            return Analysis {
                win: false,
                winning: vec![],
                remoteness: None,
            };
        }
        TakeRangeSubject.fast(rules, pos)
    }

    #[test]
    fn planted_zero_residue_bug_is_caught_small() {
        let d = Planted {
            subject: &TakeRangeSubject,
            fast: zero_residue_lost,
        }
        .first_disagreement(Duration::from_secs(3))
        .expect("planted bug not found");
        // Smallest: p = q = 1 and n = 2 (size n + q - 1 = 2): take 1, leave the
        // opponent the last coin.
        assert_eq!((d.rules.as_str(), d.position.as_str()), ("p=1,q=1", "2"));
    }
}
