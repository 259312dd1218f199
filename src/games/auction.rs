//! The auction (hdu2149, "Public Sale"): bids of 1 to N until the price reaches M.
//!
//! Rules (game `auction`; the oracle's [`Auction`]): r >= 1 is still missing; a move
//! bids t in 1..=N; a bid t >= r reaches the reserve and wins at once, a smaller one
//! leaves r - t for the opponent. Normal play (the oracle models a bid that reaches the
//! reserve as a move to r = 0, where the player to move has lost).
//!
//! Closed form (Bash's game with an overshoot allowed): when N >= r every bid t >= r
//! wins at once, and no smaller bid does (it leaves 1 <= r - t <= N, from which the
//! opponent reaches the reserve). When N < r no bid reaches it; by induction the mover
//! loses exactly when r is a multiple of N + 1 (every bid leaves a non-multiple, and
//! from a non-multiple the bid r mod (N + 1) leaves a multiple). So the winning bids
//! are r..=N when r <= N, else the one bid r mod (N + 1) when it is not 0.
//!
//! The contest prints every winning first bid ascending (`none` when there is none):
//! the whole winning-move set, which `verify` compares with the oracle's. The classic
//! mistake is printing only r mod (N + 1) when N >= r, forgetting the bids above M.

use crate::games::declared;
use crate::verify::{Subject, Tier1Report};
use rand::Rng;
use rand_chacha::ChaCha8Rng;
use sgcheck_oracles::games::auction::{Auction, Bid, Missing};
use sgcheck_oracles::Analysis;
use sgcheck_oracles::SearchError;

/// Whether the player to move wins with `r` missing and bids up to `n`.
pub fn first_wins(n: u64, r: u64) -> bool {
    r != 0 && (r <= n || u128::from(r) % (u128::from(n) + 1) != 0)
}

/// Every winning bid, ascending (module docs).
pub fn winning_bids(n: u64, r: u64) -> Vec<u64> {
    if r == 0 {
        Vec::new()
    } else if r <= n {
        (r..=n).collect()
    } else {
        // n < r, so n + 1 <= r fits in u64.
        match r % (n + 1) {
            0 => Vec::new(),
            t => vec![t],
        }
    }
}

/// Verdict and every winning bid.
pub fn analyze(rules: &Auction, pos: &Missing) -> Analysis<Bid> {
    Analysis {
        win: first_wins(rules.n, pos.0),
        winning: winning_bids(rules.n, pos.0).into_iter().map(Bid).collect(),
        remoteness: None,
    }
}

/// The winning bids of every r in 0..len by dynamic programming over the rules (no
/// theory): a bid wins when it reaches the reserve or leaves a lost amount.
pub fn table(n: u64, len: usize) -> Vec<Vec<u64>> {
    let mut win: Vec<bool> = Vec::with_capacity(len);
    let mut bids: Vec<Vec<u64>> = Vec::with_capacity(len);
    for r in 0..len as u64 {
        let b: Vec<u64> = if r == 0 {
            Vec::new()
        } else {
            (1..=n)
                .filter(|&t| t >= r || !win[(r - t) as usize])
                .collect()
        };
        win.push(!b.is_empty());
        bids.push(b);
    }
    bids
}

/// `verify`'s view of the auction.
#[derive(Default)]
pub struct AuctionSubject;

/// Largest N of tier 1 (every N up to it, and the contest's largest, 1099).
const TIER1_MAX_N: u64 = 60;
/// Amounts of tier 1: r < this.
const TIER1_LEN: usize = 2500;
/// Largest N + r of the smallest-first enumeration.
const ENUM_MAX_SIZE: u32 = 1200;

/// Tier 1 with the fast side given (the closed form the game's solver uses, or a
/// planted wrong one in the tests): the same comparisons, the same tables.
fn tier1_with(winning_bids: impl Fn(u64, u64) -> Vec<u64>) -> Tier1Report {
    let mut report = Tier1Report::default();
    for n in (1..=TIER1_MAX_N).chain([1099]) {
        let t = table(n, TIER1_LEN);
        report.compare(format_args!("n={n} table length"), t.len(), TIER1_LEN);
        for (r, bids) in t.into_iter().enumerate() {
            let r = r as u64;
            report.compare(
                format_args!("n={n} r={r}"),
                (first_wins(n, r), winning_bids(n, r)),
                (!bids.is_empty(), bids),
            );
        }
    }
    report
}

impl Subject for AuctionSubject {
    type Rules = Auction;

    fn id(&self) -> &'static str {
        "auction"
    }

    fn reproduce(&self, rules: &Auction, pos: &Missing) -> String {
        crate::verify::check_command(self.id(), &rules.to_string(), &pos.to_string())
    }

    fn tier1(&self) -> Tier1Report {
        tier1_with(winning_bids)
    }

    /// Size s holds every N >= 1 and r >= 0 with N + r = s + 1 (the smallest game has
    /// N = 1), r ascending.
    fn instances(&self, size: u32) -> Vec<(Auction, Missing)> {
        if size > ENUM_MAX_SIZE {
            return Vec::new();
        }
        let s = u64::from(size) + 1;
        (0..s).map(|r| (Auction { n: s - r }, Missing(r))).collect()
    }

    fn random_instance(&self, rng: &mut ChaCha8Rng) -> (Auction, Missing) {
        let (n, r) = match rng.gen_range(0..4) {
            // Within the contest's range (1 <= M, N < 1100), kept small enough for a
            // fresh oracle table per N.
            0 => (rng.gen_range(1..300), rng.gen_range(1..300)),
            // Multiples of N + 1, or one off.
            1 => {
                let n: u64 = rng.gen_range(1..=30);
                let r = (rng.gen_range(1..=30) * (n + 1) + rng.gen_range(0..=2)).saturating_sub(1);
                (n, r)
            }
            // N around r: the overshoot.
            2 => {
                let r = rng.gen_range(1..=200);
                (r + rng.gen_range(0..=5), r)
            }
            _ => (rng.gen_range(1..=20), rng.gen_range(0..=100)),
        };
        (Auction { n }, Missing(r))
    }

    fn fast(&self, rules: &Auction, pos: &Missing) -> Analysis<Bid> {
        analyze(rules, pos)
    }
}

// ---------------------------------------------------------------------------------
// How declarations use the auction (hdu2149): the rules' parameter is the largest
// bid N, the position the one number r still missing.

/// Largest bid N the fast side takes: it lists every winning bid, up to N of them.
pub const AUCTION_MAX_BID: u64 = 1 << 24;

fn declared_missing(position: &[u64]) -> Missing {
    Missing(position.first().copied().unwrap_or(0))
}

impl declared::Declare for AuctionSubject {
    type Oracle = Auction;
    type Fast = Auction;
    const ID: &'static str = "auction";
    const PARAMETERS: &'static [declared::ParamSpec] = &[declared::ParamSpec {
        name: "n",
        kind: declared::ParamKind::Number,
        about: "the largest bid (at least 1)",
    }];
    const POSITION: &'static str = "one number: the amount r still missing";
    const MOVE_FIELDS: &'static [&'static str] = &["bid"];
    const REACH: declared::Reach = declared::Reach {
        max_value: u64::MAX,
        max_len: 1,
        max_moves_work: u64::MAX,
    };

    fn build(params: &[declared::ParamValue<'_>]) -> Result<Auction, String> {
        let n = declared::number(params, 0, "n")?;
        if n == 0 || n > AUCTION_MAX_BID {
            return Err(format!(
                "the largest bid must be in 1..={AUCTION_MAX_BID}, found {n}"
            ));
        }
        Ok(Auction { n })
    }
    fn check(_: &Auction, position: &[u64]) -> Result<(), String> {
        if position.len() != 1 {
            return Err(format!(
                "auction positions are one number, found {}",
                position.len()
            ));
        }
        Ok(())
    }
    fn first_wins(r: &Auction, position: &[u64]) -> Result<bool, String> {
        Ok(first_wins(r.n, declared_missing(position).0))
    }
    fn analyze(r: &Auction, position: &[u64]) -> Result<Analysis<Bid>, String> {
        Ok(analyze(r, &declared_missing(position)))
    }
    fn move_fields(m: &Bid, _: &[u64]) -> [u64; 4] {
        [m.0, 0, 0, 0]
    }
    fn oracle(r: &Auction, position: &[u64], _: usize) -> Result<(Auction, Missing), SearchError> {
        Ok((*r, declared_missing(position)))
    }
    /// A positive multiple of N + 1 within the bounds.
    fn make_losing(r: &Auction, p: &mut [u64], b: &[(u64, u64)], rng: &mut ChaCha8Rng) -> bool {
        let (Some(x), Some(&(lo, hi))) = (p.first_mut(), b.first()) else {
            return false;
        };
        let m = r.n + 1;
        let first = lo.max(1).div_ceil(m);
        let last = hi / m;
        if first > last {
            return false;
        }
        *x = rng.gen_range(first..=last) * m;
        true
    }
}

// ---------------------------------------------------------------------------------
// The `auction_agree` fuzz target.

/// `auction_agree`: the largest bid N in 1..=255, then the missing amount as two
/// bytes (big-endian), up to 2000.
impl crate::fuzzing::AgreeTarget for AuctionSubject {
    const FIELDS: usize = 3;
    fn fuzz_instance(
        &self,
        fields: &[u8],
        rest: &[u8],
    ) -> Option<(Auction, <Auction as sgcheck_oracles::Rules>::Position)> {
        let r = u64::from(fields[1]) << 8 | u64::from(fields[2]);
        if fields[0] == 0 || r > 2000 || !rest.is_empty() {
            return None;
        }
        Some((
            Auction {
                n: fields[0] as u64,
            },
            Missing(r),
        ))
    }
}

// ---------------------------------------------------------------------------------
// Its line in the registry.

impl crate::games::BuiltIn for AuctionSubject {
    const ID: &'static str = "auction";
    const SUMMARY: &'static str =
        "r still missing; bid 1 to n: a bid of at least r wins at once, a smaller one \
         leaves r minus the bid to the opponent. Rules: n=2";
    const DECLARABLE: Option<&'static dyn declared::DeclarableGame> =
        Some(declared::Declared::<Self>::GAME);
}

// ---------------------------------------------------------------------------------
// Checking users' own solvers of it ([`crate::Game`]).

impl crate::Game for Auction {
    from_subject!(AuctionSubject);
    fn shrink(&self, pos: &Missing) -> Vec<(Auction, Missing)> {
        let mut out: Vec<(Auction, Missing)> = crate::shrink::number(pos.0, 0)
            .into_iter()
            .map(|r| (*self, Missing(r)))
            .collect();
        out.extend(
            crate::shrink::number(self.n, 1)
                .into_iter()
                .map(|n| (Auction { n }, *pos)),
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
        // No winning bid listed for n = 2, r = 5 (5 mod 3 != 0: a won position).
        let planted = || {
            tier1_with(|n, r| {
                if (n, r) == (2, 5) {
                    Vec::new()
                } else {
                    winning_bids(n, r)
                }
            })
        };
        PlantedTier1 {
            subject: &AuctionSubject,
            tier1: &planted,
        }
        .assert_caught("n=2 r=5");
    }

    use crate::verify::Planted;
    use std::time::Duration;

    #[test]
    fn spec_samples_hdu2149() {
        // `4 2` => `1`, `3 2` => `none`, `3 5` => `3 4 5`.
        assert_eq!(winning_bids(2, 4), vec![1]);
        assert_eq!(winning_bids(2, 3), Vec::<u64>::new());
        assert_eq!(winning_bids(5, 3), vec![3, 4, 5]);
    }

    #[test]
    fn table_matches_closed_form() {
        for n in 1..=12 {
            for (r, bids) in table(n, 300).into_iter().enumerate() {
                assert_eq!(winning_bids(n, r as u64), bids, "n={n} r={r}");
            }
        }
        // Extreme N: no overflow.
        assert!(first_wins(u64::MAX, u64::MAX));
        assert_eq!(winning_bids(u64::MAX - 2, u64::MAX), vec![1]);
        assert!(winning_bids(u64::MAX - 1, u64::MAX).is_empty());
    }

    /// The classic mistake: only r mod (N + 1), forgetting the bids above M.
    fn mod_only(rules: &Auction, pos: &Missing) -> Analysis<Bid> {
        let mut a = analyze(rules, pos);
        let t = pos.0 % (rules.n + 1);
        a.winning.retain(|b| b.0 == t);
        a
    }

    #[test]
    fn planted_forgotten_bids_are_caught_small() {
        let d = Planted {
            subject: &AuctionSubject,
            fast: mod_only,
        }
        .first_disagreement(Duration::from_secs(3))
        .expect("planted bug not found");
        // N = 2, r = 1 (size 2, after N = 3, r = 0): bids 1 and 2 both reach the
        // reserve; the mistake keeps only 1.
        assert_eq!((d.rules.as_str(), d.position.as_str()), ("n=2", "1"));
    }
}
