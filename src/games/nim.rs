//! Nim: the value of a position is the XOR of its piles (Bouton, 1901).
//!
//! A single pile of n stones has the options 0..n-1, so by induction its Grundy value
//! is mex{0..n-1} = n; the value of the whole position is then the XOR of the piles.
//! A winning move takes pile i from p to p ^ x (x the XOR of all piles), which is a
//! legal move exactly when p ^ x < p.

use crate::games::declared;
use crate::games::{analyze_sum, mex};
use crate::verify::{Subject, Tier1Report};
use rand::Rng;
use rand_chacha::ChaCha8Rng;
use sgcheck_oracles::games::nim::{Nim, Piles, Take};
use sgcheck_oracles::Analysis;
use sgcheck_oracles::SearchError;

/// Closed form: the Grundy value of one pile is its size.
pub fn pile_value(n: u64) -> u64 {
    n
}

/// Grundy values of single piles 0..len, by mex over the options of one pile.
pub fn table(len: usize) -> Vec<u64> {
    let mut g: Vec<u64> = Vec::with_capacity(len);
    for n in 0..len {
        let v = mex((0..n).map(|k| g[k]));
        g.push(v);
    }
    g
}

/// Whether the player to move wins: the XOR of the piles is non-zero.
pub fn first_wins(piles: &[u64]) -> bool {
    piles.iter().fold(0, |a, &p| a ^ p) != 0
}

/// Verdict and every winning move of a Nim position.
pub fn analyze(pos: &Piles) -> Analysis<Take> {
    analyze_sum(&pos.0, |pile, need, out| {
        let size = pos.0[pile];
        if need < size {
            out.push(Take {
                pile,
                amount: size - need,
            });
        }
    })
}

/// `verify`'s view of Nim.
#[derive(Default)]
pub struct NimSubject;

/// Tier 1 with the fast side given (the closed form the game's solver uses, or a
/// planted wrong one in the tests), and the reference table: the same comparisons.
fn tier1_with(pile_value: impl Fn(u64) -> u64, table: impl Fn(usize) -> Vec<u64>) -> Tier1Report {
    let mut report = Tier1Report::default();
    let t = table(4096);
    // A shorter table would shorten the loop below: its length is compared too.
    report.compare("table length", t.len(), 4096);
    for (n, &v) in t.iter().enumerate() {
        report.compare(format!("pile {n}"), pile_value(n as u64), v);
    }
    report
}

impl Subject for NimSubject {
    type Rules = Nim;

    fn id(&self) -> &'static str {
        "nim"
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
        tier1_with(pile_value, table)
    }

    fn instances(&self, size: u32) -> Vec<(Nim, Piles)> {
        // Every position whose piles sum to `size`, with up to 4 piles (zeros
        // included, since an empty pile is a position the parsers accept).
        crate::verify::compositions(size as u64, 4)
            .into_iter()
            .map(|p| (Nim, Piles(p)))
            .collect()
    }

    fn random_instance(&self, rng: &mut ChaCha8Rng) -> (Nim, Piles) {
        let n = rng.gen_range(1..=4);
        (Nim, Piles((0..n).map(|_| rng.gen_range(0..=9)).collect()))
    }

    fn fast(&self, _rules: &Nim, pos: &Piles) -> Analysis<Take> {
        analyze(pos)
    }
}

// ---------------------------------------------------------------------------------
// How declarations use Nim: piles, no parameters.

impl declared::Declare for NimSubject {
    type Oracle = Nim;
    type Fast = ();
    const ID: &'static str = "nim";
    const POSITION: &'static str = "pile sizes";
    /// `size` is the pile before the move, `left` what the move leaves of it.
    const MOVE_FIELDS: &'static [&'static str] = &["pile", "amount", "size", "left"];

    fn build(_: &[declared::ParamValue<'_>]) -> Result<(), String> {
        Ok(())
    }
    fn first_wins(_: &(), position: &[u64]) -> Result<bool, String> {
        Ok(first_wins(position))
    }
    fn analyze(_: &(), position: &[u64]) -> Result<Analysis<Take>, String> {
        Ok(analyze(&Piles(position.to_vec())))
    }
    fn move_fields(m: &Take, position: &[u64]) -> [u64; 4] {
        let size = position.get(m.pile).copied().unwrap_or(0);
        [m.pile as u64, m.amount, size, size.saturating_sub(m.amount)]
    }
    fn oracle(_: &(), position: &[u64], _: usize) -> Result<(Nim, Piles), SearchError> {
        Ok((Nim, Piles(position.to_vec())))
    }
    fn make_losing(_: &(), p: &mut [u64], b: &[(u64, u64)], rng: &mut ChaCha8Rng) -> bool {
        declared::losing_sum(
            p,
            b,
            rng,
            |x| x,
            |need, lo, hi, _| (lo..=hi).contains(&need).then_some(need),
        )
    }
    fn component_values(_: &(), position: &[u64]) -> Option<Vec<u64>> {
        Some(position.to_vec())
    }
    fn smallest_with_value(_: &(), value: u64, lo: u64, hi: u64) -> Option<u64> {
        (lo..=hi).contains(&value).then_some(value)
    }
}

// ---------------------------------------------------------------------------------
// The `nim_agree` fuzz target.

/// `nim_agree`: up to 5 piles of up to 12 stones, one byte per pile.
impl crate::fuzzing::AgreeTarget for NimSubject {
    fn fuzz_instance(
        &self,
        _: &[u8],
        rest: &[u8],
    ) -> Option<(Nim, <Nim as sgcheck_oracles::Rules>::Position)> {
        Some((Nim, Piles(crate::fuzzing::small_piles(rest, 5, 12)?)))
    }
}

// ---------------------------------------------------------------------------------
// Its line in the registry.

impl crate::games::BuiltIn for NimSubject {
    const ID: &'static str = "nim";
    const SUMMARY: &'static str =
        "piles; take any positive number from one pile; normal play. Rules: -";
    const DECLARABLE: Option<&'static dyn declared::DeclarableGame> =
        Some(declared::Declared::<Self>::GAME);
}

// ---------------------------------------------------------------------------------
// Checking users' own solvers of it ([`crate::Game`]).

impl crate::Game for Nim {
    from_subject!(NimSubject);
    fn shrink(&self, pos: &Piles) -> Vec<(Nim, Piles)> {
        crate::games::shrink_piles(self, pos)
    }
    fn shrink_keeping_value(&self, pos: &Piles) -> Vec<(Nim, Piles)> {
        crate::shrink::xor_zero_drops(&pos.0, &pos.0, 0)
            .into_iter()
            .map(|p| (Nim, Piles(p)))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::verify::PlantedTier1;
    #[test]
    fn planted_tier1_bug_reaches_the_report() {
        // A closed form off by one at pile 37 reaches the report, the table and exit 1.
        let planted = || tier1_with(|n| if n == 37 { 36 } else { pile_value(n) }, table);
        PlantedTier1 {
            subject: &NimSubject,
            tier1: &planted,
        }
        .assert_caught("pile 37");
        // A reference table cut short (a mutant that survived: the loop over it then
        // compared one value) is caught by the comparison of its length.
        let short = || tier1_with(pile_value, |_| vec![0]);
        PlantedTier1 {
            subject: &NimSubject,
            tier1: &short,
        }
        .assert_caught("table length");
    }

    use crate::verify::Planted;
    use std::time::Duration;

    #[test]
    fn table_matches_closed_form() {
        // The definition of a nim heap: a pile of n has value n.
        for (n, v) in table(200).into_iter().enumerate() {
            assert_eq!(v, n as u64);
        }
    }

    /// A planted bug: "XOR of the piles" computed as their sum, as a solution that
    /// confuses Nim with a one-pile race would. The sweep finds it at the smallest
    /// position where sum and XOR differ in being zero: none exists with one pile, and
    /// 1,1 (sum 2, XOR 0) is the first.
    #[test]
    fn planted_sum_instead_of_xor_is_caught_small() {
        fn sum_not_xor(_: &Nim, pos: &Piles) -> Analysis<Take> {
            let total: u64 = pos.0.iter().sum();
            let winning = if total == 0 {
                Vec::new()
            } else {
                // The "winning move": empty the first non-empty pile.
                let first = pos.0.iter().position(|&p| p > 0).expect("total > 0");
                vec![Take {
                    pile: first,
                    amount: pos.0[first],
                }]
            };
            Analysis {
                win: total != 0,
                winning,
                remoteness: None,
            }
        }
        let d = Planted {
            subject: &NimSubject,
            fast: sum_not_xor,
        }
        .first_disagreement(Duration::from_secs(5))
        .expect("planted bug not found");
        assert_eq!(d.position, "1,1");
    }

    #[test]
    fn classic_position() {
        // 3,4,5: XOR 2; the only winning move takes 2 from pile 0 (3 -> 1).
        let a = analyze(&Piles(vec![3, 4, 5]));
        assert_eq!(a.winning, vec![Take { pile: 0, amount: 2 }]);
        assert!(!first_wins(&[1, 2, 3]));
    }
}
