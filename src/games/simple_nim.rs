//! Simple Nim (hdu5795): take from a heap, or split a heap into three non-empty heaps.
//!
//! Rules (game `simple-nim`; the oracle's [`SimpleNim`]): heaps; a move takes any
//! positive number of tokens from one heap, or splits one heap into three non-empty
//! heaps. Normal play.
//!
//! Closed form: g(0) = 0; g(8k) = 8k - 1 and g(8k + 7) = 8k + 8 for k >= 1 (the two
//! swap); otherwise g(x) = x. The takes alone reach every smaller heap's value; the
//! three-way splits add, at n = 8k + 7, the split 1 + 2 + (8k + 4) of value
//! 1 xor 2 xor (8k + 4) = 8k + 7 = n itself, which pushes the mex to 8k + 8; at n = 8k
//! the value 8k - 1 (taken by no smaller heap) is reached by no split, so the mex is
//! 8k - 1. That no other split ever fills the gap is not proved here: the formula was
//! checked by exhaustive search to 300, and tier 1 compares it with the mex table
//! over the rules to [`TABLE_LIMIT`].
//!
//! The classic mistake is reusing Lasker's Nim's period-4 table (that game splits in
//! two, this one in three): a heap of 3 has value 3 here, 4 there.
//!
//! Winning moves (the fast side's own enumeration): the formula is an involution, so
//! the one heap size of value `need` is g(need), a take when it is smaller; the splits
//! a <= b <= c are enumerated, O(n^2) per heap. The contest needs only the verdict,
//! [`first_wins`], O(number of heaps).

use crate::games::declared;
use crate::games::{analyze_sum, mex};
use crate::verify::{Subject, Tier1Report};
use rand::Rng;
use rand_chacha::ChaCha8Rng;
use sgcheck_oracles::games::nim::Piles;
use sgcheck_oracles::games::simple_nim::{SimpleNim, SimpleNimMove};
use sgcheck_oracles::Analysis;
use sgcheck_oracles::SearchError;

/// Closed form: the Grundy value of one heap of `n` (module docs). Exact for every u64
/// heap: the value differs from `n` by one only at multiples of 8 (minus) and at
/// 8k + 7 (plus), and u64::MAX = 8k + 7 would be 2^64, so it is computed in u128 by
/// [`first_wins`]; here `n` must be below u64::MAX.
pub fn heap_value(n: u64) -> u64 {
    u64::try_from(wide(n)).expect("a heap of 2^64 - 1 has the value 2^64")
}

fn wide(n: u64) -> u128 {
    let n = u128::from(n);
    match n % 8 {
        0 if n == 0 => 0,
        0 => n - 1,
        7 => n + 1,
        _ => n,
    }
}

/// Whether the player to move wins: the xor of the heap values is non-zero.
pub fn first_wins(heaps: &[u64]) -> bool {
    heaps.iter().fold(0u128, |a, &h| a ^ wide(h)) != 0
}

/// Grundy values of heaps 0..len by mex over the rules: every take and every split
/// a <= b <= c. About len^3 / 36 steps.
pub fn table(len: usize) -> Vec<u64> {
    let mut g: Vec<u64> = Vec::with_capacity(len);
    for n in 0..len {
        let mut opts: Vec<u64> = g[..n].to_vec();
        let mut a = 1;
        while 3 * a <= n {
            let mut b = a;
            while 2 * b <= n - a {
                opts.push(g[a] ^ g[b] ^ g[n - a - b]);
                b += 1;
            }
            a += 1;
        }
        g.push(mex(opts));
    }
    g
}

/// Verdict and every winning move of a position.
pub fn analyze(pos: &Piles) -> Analysis<SimpleNimMove> {
    analyze_with(heap_value, pos)
}

/// The analysis from any Grundy function of single heaps (for planted-bug tests).
pub fn analyze_with(g: impl Fn(u64) -> u64, pos: &Piles) -> Analysis<SimpleNimMove> {
    let values: Vec<u64> = pos.0.iter().map(|&n| g(n)).collect();
    analyze_sum(&values, |heap, need, out| {
        let n = pos.0[heap];
        for target in 0..n {
            if g(target) == need {
                out.push(SimpleNimMove::Take {
                    heap,
                    amount: n - target,
                });
            }
        }
        let mut a = 1;
        while 3 * a <= n {
            let mut b = a;
            while 2 * b <= n - a {
                let c = n - a - b;
                if g(a) ^ g(b) ^ g(c) == need {
                    out.push(SimpleNimMove::Split {
                        heap,
                        parts: [a, b, c],
                    });
                }
                b += 1;
            }
            a += 1;
        }
    })
}

/// `verify`'s view of Simple Nim.
#[derive(Default)]
pub struct SimpleNimSubject;

/// How far tier 1 compares the closed form with the mex table.
pub const TABLE_LIMIT: usize = 1200;

/// Tier 1 with the fast side given (the closed form the game's solver uses, or a
/// planted wrong one in the tests): the same comparisons, the same tables.
fn tier1_with(heap_value: impl Fn(u64) -> u64) -> Tier1Report {
    let mut report = Tier1Report::default();
    let t = table(TABLE_LIMIT);
    report.compare("table length", t.len(), TABLE_LIMIT);
    for (n, v) in t.into_iter().enumerate() {
        report.compare(format_args!("heap {n}"), heap_value(n as u64), v);
    }
    report
}

impl Subject for SimpleNimSubject {
    type Rules = SimpleNim;

    fn id(&self) -> &'static str {
        "simple-nim"
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
        tier1_with(heap_value)
    }

    fn instances(&self, size: u32) -> Vec<(SimpleNim, Piles)> {
        // Every position of up to 4 heaps summing to `size` (at most 14).
        if size > 14 {
            return Vec::new();
        }
        crate::verify::compositions(u64::from(size), 4)
            .into_iter()
            .map(|p| (SimpleNim, Piles(p)))
            .collect()
    }

    fn random_instance(&self, rng: &mut ChaCha8Rng) -> (SimpleNim, Piles) {
        let piles = match rng.gen_range(0..3) {
            0 => vec![rng.gen_range(0..=20)],
            1 => (0..2).map(|_| rng.gen_range(0..=9)).collect(),
            _ => {
                let n = rng.gen_range(3..=5);
                (0..n).map(|_| rng.gen_range(0..=4)).collect()
            }
        };
        (SimpleNim, Piles(piles))
    }

    fn fast(&self, _rules: &SimpleNim, pos: &Piles) -> Analysis<SimpleNimMove> {
        analyze(pos)
    }
}

// ---------------------------------------------------------------------------------
// How declarations use Simple Nim: take from a heap, or split a heap into three.

impl declared::Declare for SimpleNimSubject {
    type Oracle = SimpleNim;
    type Fast = ();
    const ID: &'static str = "simple-nim";
    const POSITION: &'static str = "heap sizes";
    // A take fills `pile` and `amount`; a split `pile` and its three parts, the
    // smallest in `amount`.
    const MOVE_FIELDS: &'static [&'static str] = &["pile", "amount", "b", "c"];
    // A heap of 2^64 - 1 is worth 2^64.
    const REACH: declared::Reach = declared::Reach {
        max_value: u64::MAX - 1,
        max_len: u64::MAX,
        max_moves_work: u64::MAX,
    };

    fn build(_: &[declared::ParamValue<'_>]) -> Result<(), String> {
        Ok(())
    }
    fn first_wins(_: &(), position: &[u64]) -> Result<bool, String> {
        Ok(first_wins(position))
    }
    fn analyze(_: &(), position: &[u64]) -> Result<Analysis<SimpleNimMove>, String> {
        Ok(analyze(&Piles(position.to_vec())))
    }
    fn move_fields(m: &SimpleNimMove, _: &[u64]) -> [u64; 4] {
        match *m {
            SimpleNimMove::Take { heap, amount } => [heap as u64, amount, 0, 0],
            SimpleNimMove::Split { heap, parts } => [heap as u64, parts[0], parts[1], parts[2]],
        }
    }
    fn oracle(_: &(), position: &[u64], _: usize) -> Result<(SimpleNim, Piles), SearchError> {
        Ok((SimpleNim, Piles(position.to_vec())))
    }
    fn make_losing(_: &(), p: &mut [u64], b: &[(u64, u64)], rng: &mut ChaCha8Rng) -> bool {
        declared::losing_by_involution(p, b, rng, heap_value)
    }
    fn component_values(_: &(), position: &[u64]) -> Option<Vec<u64>> {
        if position.contains(&u64::MAX) {
            return None;
        }
        Some(position.iter().map(|&n| heap_value(n)).collect())
    }
    fn smallest_with_value(_: &(), value: u64, lo: u64, hi: u64) -> Option<u64> {
        // The closed form is an involution: the one heap worth `value` is SG(value).
        if value == u64::MAX {
            return None;
        }
        let n = heap_value(value);
        (lo..=hi).contains(&n).then_some(n)
    }
}

// ---------------------------------------------------------------------------------
// The `simple_nim_agree` fuzz target.

/// `simple_nim_agree`: up to 3 heaps of up to 9.
impl crate::fuzzing::AgreeTarget for SimpleNimSubject {
    fn fuzz_instance(
        &self,
        _: &[u8],
        rest: &[u8],
    ) -> Option<(SimpleNim, <SimpleNim as sgcheck_oracles::Rules>::Position)> {
        Some((SimpleNim, Piles(crate::fuzzing::small_piles(rest, 3, 9)?)))
    }
}

// ---------------------------------------------------------------------------------
// Its line in the registry.

impl crate::games::BuiltIn for SimpleNimSubject {
    const ID: &'static str = "simple-nim";
    const SUMMARY: &'static str =
        "heaps; take any positive number from one heap, or split one heap into three \
         non-empty heaps; normal play. Rules: -";
    const DECLARABLE: Option<&'static dyn declared::DeclarableGame> =
        Some(declared::Declared::<Self>::GAME);
}

// ---------------------------------------------------------------------------------
// Checking users' own solvers of it ([`crate::Game`]).

impl crate::Game for SimpleNim {
    from_subject!(SimpleNimSubject);
    fn shrink(&self, pos: &Piles) -> Vec<(SimpleNim, Piles)> {
        crate::games::shrink_piles(self, pos)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::verify::PlantedTier1;
    #[test]
    fn planted_tier1_bug_reaches_the_report() {
        // The value of a heap of 6 swapped with its neighbour's.
        let planted = || {
            tier1_with(|n| match n {
                6 => heap_value(7),
                7 => heap_value(6),
                _ => heap_value(n),
            })
        };
        PlantedTier1 {
            subject: &SimpleNimSubject,
            tier1: &planted,
        }
        .assert_caught("heap 6");
    }

    use crate::verify::Planted;
    use std::time::Duration;

    #[test]
    fn closed_form_matches_table() {
        // The stated closed form, checked by exhaustive search to 300; here against
        // the mex table to 400.
        for (n, v) in table(400).into_iter().enumerate() {
            assert_eq!(heap_value(n as u64), v, "heap {n}");
        }
        let first: Vec<u64> = (0..17).map(heap_value).collect();
        assert_eq!(
            first,
            [0, 1, 2, 3, 4, 5, 6, 8, 7, 9, 10, 11, 12, 13, 14, 16, 15]
        );
    }

    #[test]
    fn samples_and_limits() {
        // hdu5795 sample: `4 4` => Second player wins; `1 2 4` => First player wins.
        assert!(!first_wins(&[4, 4]));
        assert!(first_wins(&[1, 2, 4]));
        // The largest heaps: 10^9 = 8 * 125000000 has the value 10^9 - 1.
        // 999999999 = 8k + 7 has the value 10^9; two heaps swapped by the formula do
        // not cancel: 10^9 and 999999999 (values 999999999 and 10^9) win.
        assert_eq!(heap_value(1_000_000_000), 999_999_999);
        assert_eq!(heap_value(999_999_999), 1_000_000_000);
        assert!(first_wins(&[1_000_000_000, 999_999_999]));
        assert!(!first_wins(&[7, 7]));
        assert!(first_wins(&[7, 8]));
        assert!(first_wins(&[u64::MAX]));
        assert!(!first_wins(&[u64::MAX, u64::MAX]));
    }

    #[test]
    fn planted_bug_lasker_table() {
        // Reusing Lasker's period-4 values (the classic mistake). The first position
        // where the answers differ is one heap of 6: the split 1 + 2 + 3 has value
        // 1 xor 2 xor 3 = 0 and wins, but with Lasker's values (1, 2, 4) it looks like 7.
        let d = Planted {
            subject: &SimpleNimSubject,
            fast: |_, pos| analyze_with(crate::games::lasker::pile_value, pos),
        }
        .first_disagreement(Duration::from_millis(1500))
        .expect("planted bug not found");
        assert_eq!(d.position, "6");
    }

    #[test]
    fn planted_bug_no_equal_parts() {
        // Splits with a < b < c only: differs first where a winning split has equal
        // parts.
        let d = Planted {
            subject: &SimpleNimSubject,
            fast: |_, pos| {
                let mut a = analyze(pos);
                a.winning.retain(|m| match m {
                    SimpleNimMove::Split { parts, .. } => {
                        parts[0] < parts[1] && parts[1] < parts[2]
                    }
                    _ => true,
                });
                a
            },
        }
        .first_disagreement(Duration::from_millis(1500))
        .expect("planted bug not found");
        let sum: u64 = d
            .position
            .split(',')
            .map(|p| p.parse::<u64>().unwrap())
            .sum();
        assert!(sum <= 8, "{d:?}");
    }
}
