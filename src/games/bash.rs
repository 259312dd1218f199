//! Bash's game: a pile of n stones, take 1 to m; the Grundy value of a pile is
//! n mod (m+1).
//!
//! Rules (game `bash`; the oracle's [`Bash`]): a move takes 1 to `m` stones
//! from one pile; normal play. The contest (hdu1846, "Brave Game") has one pile; the
//! oracle and this module allow a row of piles, which is a sum of one-pile games.
//!
//! Why the closed form holds: a pile of n has the options n-1, ..., n-min(m, n). By
//! induction g(k) = k mod (m+1) for k < n, and the options are the (up to) m values
//! just below n, which are m consecutive residues missing exactly n mod (m+1) (when
//! n <= m they are 0..n-1, also missing n). So the mex is n mod (m+1). A pile is lost
//! alone exactly when n is a multiple of m+1: the classic "leave a multiple of m+1"
//! strategy.
//!
//! Winning moves: the whole position is the XOR of the pile values. In a pile of value
//! g the player needs value `need` (the XOR of the other piles); the amounts 1..=m
//! reach m distinct residues, so there is at most one amount that does it:
//! (g - need) mod (m+1), legal when it is non-zero and no larger than the pile.

use crate::games::declared;
use crate::games::{analyze_sum, mex};
use crate::verify::{Subject, Tier1Report};
use rand::Rng;
use rand_chacha::ChaCha8Rng;
use sgcheck_oracles::games::bash::Bash;
use sgcheck_oracles::games::nim::{Piles, Take};
use sgcheck_oracles::Analysis;
use sgcheck_oracles::SearchError;

/// The modulus m+1, widened so that `m = u64::MAX` (possible through `--rules`) does
/// not overflow.
fn modulus(m: u64) -> u128 {
    m as u128 + 1
}

/// Closed form: the Grundy value of one pile of `n` stones when a move takes 1..=`m`.
/// With `m = 0` (a hand-built game without moves) every pile has value 0.
pub fn pile_value(n: u64, m: u64) -> u64 {
    // The result is below both n + 1 and m + 1, so it fits in a u64.
    (n as u128 % modulus(m)) as u64
}

/// Whether the player to move wins a single pile of `n` (hdu1846: `first`).
pub fn first_wins(n: u64, m: u64) -> bool {
    pile_value(n, m) != 0
}

/// Grundy values of single piles 0..len, by mex over one pile's moves: taking
/// 1..=min(m, n) stones. Independent of the closed form; tier 1 compares the two.
pub fn table(m: u64, len: usize) -> Vec<u64> {
    let mut g: Vec<u64> = Vec::with_capacity(len);
    for n in 0..len {
        let most = (n as u64).min(m) as usize;
        let v = mex((1..=most).map(|a| g[n - a]));
        g.push(v);
    }
    g
}

/// The one amount (if any) that takes a pile of `n` stones to Grundy value `need`.
pub fn move_to_value(n: u64, m: u64, need: u64) -> Option<u64> {
    let md = modulus(m);
    let need = need as u128;
    if need >= md {
        return None;
    }
    let g = n as u128 % md;
    // (n - a) ≡ need (mod m+1) with 1 <= a <= m.
    let a = (g + md - need) % md;
    if a == 0 || a > n as u128 {
        return None;
    }
    Some(a as u64)
}

/// Verdict and every winning move of a Bash position (several piles allowed).
pub fn analyze(rules: &Bash, pos: &Piles) -> Analysis<Take> {
    let m = rules.m;
    let values: Vec<u64> = pos.0.iter().map(|&n| pile_value(n, m)).collect();
    analyze_sum(&values, |pile, need, out| {
        if let Some(amount) = move_to_value(pos.0[pile], m, need) {
            out.push(Take { pile, amount });
        }
    })
}

/// `verify`'s view of Bash's game.
#[derive(Default)]
pub struct BashSubject;

/// Largest `m` of tier 1 (the issue: all m <= 50).
const TIER1_MAX_M: u64 = 50;
/// Largest pile of tier 1 (the issue: n <= 5000).
const TIER1_MAX_N: usize = 5000;
/// The `m` values of the smallest-first enumeration.
const ENUM_MAX_M: u64 = 5;

/// Tier 1 with the fast side given (the closed form the game's solver uses, or a
/// planted wrong one in the tests): the same comparisons, the same tables.
fn tier1_with(pile_value: impl Fn(u64, u64) -> u64) -> Tier1Report {
    let mut report = Tier1Report::default();
    for m in 1..=TIER1_MAX_M {
        let t = table(m, TIER1_MAX_N + 1);
        report.compare(format_args!("m={m} table length"), t.len(), TIER1_MAX_N + 1);
        for (n, &v) in t.iter().enumerate() {
            report.compare(format!("m={m} pile {n}"), pile_value(n as u64, m), v);
        }
    }
    report
}

impl Subject for BashSubject {
    type Rules = Bash;

    fn id(&self) -> &'static str {
        "bash"
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
        tier1_with(pile_value)
    }

    fn instances(&self, size: u32) -> Vec<(Bash, Piles)> {
        // Every position of up to 4 piles summing to `size` (empty piles included),
        // for every m in 1..=5: m >= the largest pile is plain Nim, small m the
        // interesting part.
        let piles = crate::verify::compositions(size as u64, 4);
        (1..=ENUM_MAX_M)
            .flat_map(|m| piles.iter().map(move |p| (Bash { m }, Piles(p.clone()))))
            .collect()
    }

    fn random_instance(&self, rng: &mut ChaCha8Rng) -> (Bash, Piles) {
        match rng.gen_range(0..10) {
            // One tall pile, the contest shape, up to its limits (n, m <= 1000), kept
            // to n * m <= 300000: the oracle's depth-first stack holds about that many
            // positions.
            0 => {
                let m = rng.gen_range(1..=1000);
                let n = rng.gen_range(0..=1000.min(300_000 / m));
                (Bash { m }, Piles(vec![n]))
            }
            // m = 1 (parity) or m larger than every pile (plain Nim).
            1 => {
                let m = if rng.gen_bool(0.5) { 1 } else { 1000 };
                let n = rng.gen_range(1..=4);
                (
                    Bash { m },
                    Piles((0..n).map(|_| rng.gen_range(0..=12)).collect()),
                )
            }
            // Piles that are exact multiples of m+1, or one off.
            2 => {
                let m = rng.gen_range(1..=8);
                let n = rng.gen_range(1..=3);
                let piles = (0..n)
                    .map(|_| rng.gen_range(0..=4) * (m + 1) + rng.gen_range(0..=1))
                    .collect();
                (Bash { m }, Piles(piles))
            }
            _ => {
                let m = rng.gen_range(1..=10);
                let n = rng.gen_range(1..=4);
                (
                    Bash { m },
                    Piles((0..n).map(|_| rng.gen_range(0..=14)).collect()),
                )
            }
        }
    }

    fn fast(&self, rules: &Bash, pos: &Piles) -> Analysis<Take> {
        analyze(rules, pos)
    }
}

// ---------------------------------------------------------------------------------
// How declarations use Bash's game: piles, take 1 to `m`.

fn declared_m(params: &[declared::ParamValue<'_>]) -> Result<u64, String> {
    let m = declared::number(params, 0, "m")?;
    if m == 0 {
        return Err("m must be at least 1".into());
    }
    Ok(m)
}

impl declared::Declare for BashSubject {
    type Oracle = Bash;
    type Fast = u64;
    const ID: &'static str = "bash";
    const PARAMETERS: &'static [declared::ParamSpec] = &[declared::ParamSpec {
        name: "m",
        kind: declared::ParamKind::Number,
        about: "most stones one move takes (at least 1)",
    }];
    const POSITION: &'static str = "pile sizes";
    const MOVE_FIELDS: &'static [&'static str] = &["pile", "amount"];

    fn build(params: &[declared::ParamValue<'_>]) -> Result<u64, String> {
        declared_m(params)
    }
    fn first_wins(&m: &u64, position: &[u64]) -> Result<bool, String> {
        Ok(position.iter().fold(0, |x, &n| x ^ pile_value(n, m)) != 0)
    }
    fn analyze(&m: &u64, position: &[u64]) -> Result<Analysis<Take>, String> {
        Ok(analyze(&Bash { m }, &Piles(position.to_vec())))
    }
    fn move_fields(t: &Take, _: &[u64]) -> [u64; 4] {
        [t.pile as u64, t.amount, 0, 0]
    }
    fn oracle(&m: &u64, position: &[u64], _: usize) -> Result<(Bash, Piles), SearchError> {
        Ok((Bash { m }, Piles(position.to_vec())))
    }
    fn make_losing(&m: &u64, p: &mut [u64], b: &[(u64, u64)], rng: &mut ChaCha8Rng) -> bool {
        let m1 = m.saturating_add(1);
        declared::losing_sum(
            p,
            b,
            rng,
            |x| pile_value(x, m),
            |need, lo, hi, rng| {
                // need + k (m + 1) in lo..=hi, k drawn at random.
                if need >= m1 || need > hi {
                    return None;
                }
                let first = if need >= lo {
                    0
                } else {
                    (lo - need).div_ceil(m1)
                };
                let last = (hi - need) / m1;
                (first <= last).then(|| need + rng.gen_range(first..=last) * m1)
            },
        )
    }
    fn component_values(&m: &u64, position: &[u64]) -> Option<Vec<u64>> {
        Some(position.iter().map(|&n| pile_value(n, m)).collect())
    }
    fn smallest_with_value(&m: &u64, value: u64, lo: u64, hi: u64) -> Option<u64> {
        // value + k (m + 1), the smallest k that reaches lo.
        let m1 = m.saturating_add(1);
        if value >= m1 {
            return None;
        }
        let k = lo.saturating_sub(value).div_ceil(m1);
        let n = value.checked_add(k.checked_mul(m1)?)?;
        (lo..=hi).contains(&n).then_some(n)
    }
}

// ---------------------------------------------------------------------------------
// The `bash_agree` fuzz target.

/// `bash_agree`: m in 1..=8, then up to 4 piles of up to 16.
impl crate::fuzzing::AgreeTarget for BashSubject {
    const FIELDS: usize = 1;
    fn fuzz_instance(
        &self,
        fields: &[u8],
        rest: &[u8],
    ) -> Option<(Bash, <Bash as sgcheck_oracles::Rules>::Position)> {
        if !(1..=8).contains(&fields[0]) {
            return None;
        }
        Some((
            Bash {
                m: fields[0] as u64,
            },
            Piles(crate::fuzzing::small_piles(rest, 4, 16)?),
        ))
    }
}

// ---------------------------------------------------------------------------------
// Its line in the registry.

impl crate::games::BuiltIn for BashSubject {
    const ID: &'static str = "bash";
    const SUMMARY: &'static str =
        "piles; take 1 to m stones from one pile; normal play. Rules: m=3";
    const DECLARABLE: Option<&'static dyn declared::DeclarableGame> =
        Some(declared::Declared::<Self>::GAME);
}

// ---------------------------------------------------------------------------------
// Checking users' own solvers of it ([`crate::Game`]).

impl crate::Game for Bash {
    from_subject!(BashSubject);
    fn shrink(&self, pos: &Piles) -> Vec<(Bash, Piles)> {
        let mut out: Vec<(Bash, Piles)> = crate::shrink::number(self.m, 1)
            .into_iter()
            .map(|m| (Bash { m }, pos.clone()))
            .collect();
        out.extend(crate::games::shrink_piles(self, pos));
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::verify::PlantedTier1;
    #[test]
    fn planted_tier1_bug_reaches_the_report() {
        // n mod (m + 2) instead of n mod (m + 1), for m = 3 only.
        let planted = || {
            tier1_with(|n, m| {
                if m == 3 {
                    n % (m + 2)
                } else {
                    pile_value(n, m)
                }
            })
        };
        PlantedTier1 {
            subject: &BashSubject,
            tier1: &planted,
        }
        .assert_caught("m=3 pile 4");
    }

    use crate::verify::Planted;
    use sgcheck_oracles::Solver;
    use std::time::Duration;

    #[test]
    fn table_matches_closed_form() {
        // Game `bash`: SG = n % (m+1). A quick slice of tier 1.
        for m in 1..=6 {
            for (n, v) in table(m, 300).into_iter().enumerate() {
                assert_eq!(v, pile_value(n as u64, m), "m={m} n={n}");
            }
        }
    }

    #[test]
    fn spec_samples_hdu1846() {
        // hdu1846 statement sample: `23 2` => first, `4 3` => second.
        assert!(first_wins(23, 2));
        assert!(!first_wins(4, 3));
        // 23 = 7*3 + 2: the one winning move takes 2, leaving 21, a multiple of 3.
        let a = analyze(&Bash { m: 2 }, &Piles(vec![23]));
        assert_eq!(a.winning, vec![Take { pile: 0, amount: 2 }]);
    }

    #[test]
    fn extreme_parameters() {
        // m = u64::MAX: m+1 = 2^64 does not fit in a u64; every pile is its own value.
        assert_eq!(pile_value(u64::MAX, u64::MAX), u64::MAX);
        assert_eq!(move_to_value(u64::MAX, u64::MAX, 0), Some(u64::MAX));
        // m = 0 (no moves at all): every pile is worth 0 and no move exists.
        assert_eq!(pile_value(7, 0), 0);
        assert!(!analyze(&Bash { m: 0 }, &Piles(vec![7, 3])).win);
        // A pile too small to reach the needed residue: pile 1, m = 3, need 2.
        assert_eq!(move_to_value(1, 3, 2), None);
        assert_eq!(move_to_value(5, 3, 7), None);
    }

    #[test]
    fn agrees_with_oracle_on_small_sums() {
        // Tier 2 in miniature: two and three piles, every m <= 4, against plain search.
        for m in 1..=4 {
            let mut solver = Solver::new(Bash { m });
            for a in 0..=7 {
                for b in 0..=7 {
                    for c in [0, 3, 5] {
                        let pos = Piles(vec![a, b, c]);
                        let o = solver.analyze(&pos).unwrap();
                        let f = analyze(&Bash { m }, &pos);
                        assert_eq!((f.win, f.winning), (o.win, o.winning), "m={m} {pos}");
                    }
                }
            }
        }
    }

    /// A planted bug: the classic off-by-one "lose iff n % m == 0" (the answer of
    /// Bash with m-1), delegating everything else to the real subject.
    fn off_by_one(rules: &Bash, pos: &Piles) -> Analysis<Take> {
        let wrong = Bash {
            m: rules.m.saturating_sub(1).max(1),
        };
        BashSubject.fast(&wrong, pos)
    }

    #[test]
    fn planted_off_by_one_is_caught_small() {
        let d = Planted {
            subject: &BashSubject,
            fast: off_by_one,
        }
        .first_disagreement(Duration::from_secs(3))
        .expect("planted bug not found");
        // The first size with a disagreement: m = 2, one pile of 2 (wrongly "lose").
        let total: u64 = d
            .position
            .split(',')
            .map(|p| p.parse::<u64>().unwrap())
            .sum();
        assert!(total <= 2, "{d:?}");
        assert_eq!(d.rules, "m=2");
    }
}
