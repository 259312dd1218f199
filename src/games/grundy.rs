//! Grundy's game: split a heap into two unequal heaps. Values by mex (the rare/common
//! method for long tables); no period is known, so the table must cover the heaps.
//!
//! Rules (game `grundy`; the oracle's [`GrundyGame`]): heaps; a move splits one heap
//! into two non-empty heaps of different sizes. Normal play. A heap of n has the
//! options a + (n - a), 1 <= a < n - a, so g(n) = mex{ g(a) xor g(n - a) }; a position
//! is the xor of its heaps' values.
//!
//! Golden data: OEIS A002188, whose first 100 terms are [`A002188`]. The sequence is
//! conjectured (never proved) to be eventually periodic; none has been found within
//! the billions of terms computed, so nothing here assumes one: every heap is answered
//! from the table ([`GrundySolver`]), computed as far as the position needs.
//!
//! Tier 1: the rare/common table (see [`crate::games::take_break`]) against the plain
//! mex table, and the golden terms. Winning moves are the splits of the needed value,
//! enumerated by the fast side.

use crate::games::analyze_sum;
use crate::games::take_break::{
    choose_mask, compute, extend_sparse, plain_table, Breaks, Method, MASK_PREFIX,
};
use crate::verify::{Subject, Tier1Report};
use rand::Rng;
use rand_chacha::ChaCha8Rng;
use sgcheck_oracles::games::grundy::{GrundyGame, GrundySplit};
use sgcheck_oracles::games::nim::Piles;
use sgcheck_oracles::Analysis;

/// OEIS A002188 (Grundy's game), n = 0..=99.
pub const A002188: [u32; 100] = [
    0, 0, 0, 1, 0, 2, 1, 0, 2, 1, 0, 2, 1, 3, 2, 1, 3, 2, 4, 3, 0, 4, 3, 0, 4, 3, 0, 4, 1, 2, 3, 1,
    2, 4, 1, 2, 4, 1, 2, 4, 1, 5, 4, 1, 5, 4, 1, 5, 4, 1, 0, 2, 1, 0, 2, 1, 5, 2, 1, 3, 2, 1, 3, 2,
    4, 3, 2, 4, 3, 2, 4, 3, 2, 4, 3, 2, 4, 3, 2, 4, 5, 2, 4, 5, 2, 4, 3, 7, 4, 3, 7, 4, 3, 7, 4, 3,
    5, 2, 3, 5,
];

/// Grundy values of single heaps up to a computed length.
#[derive(Clone, Debug)]
pub struct GrundySolver {
    table: Vec<u32>,
}

impl GrundySolver {
    /// g(0..len) by the rare/common method.
    pub fn new(len: usize) -> Self {
        GrundySolver {
            table: compute(&Breaks::Grundy, len.max(1), Method::Sparse, false).values,
        }
    }

    /// g(n), or `None` beyond the table.
    pub fn grundy(&self, n: u64) -> Option<u64> {
        usize::try_from(n)
            .ok()
            .and_then(|i| self.table.get(i))
            .map(|&v| u64::from(v))
    }

    /// The values computed.
    pub fn values(&self) -> &[u32] {
        &self.table
    }

    /// Verdict and every winning move; `None` when a heap is beyond the table.
    pub fn analyze(&self, pos: &Piles) -> Option<Analysis<GrundySplit>> {
        if pos.0.iter().any(|&n| self.grundy(n).is_none()) {
            return None;
        }
        let g = |n: u64| self.grundy(n).expect("checked above");
        Some(analyze_with(g, pos))
    }
}

/// The analysis of a position from any Grundy function of single heaps.
pub fn analyze_with(g: impl Fn(u64) -> u64, pos: &Piles) -> Analysis<GrundySplit> {
    let values: Vec<u64> = pos.0.iter().map(|&n| g(n)).collect();
    analyze_sum(&values, |heap, need, out| {
        let n = pos.0[heap];
        let mut smaller = 1;
        while 2 * smaller < n {
            if g(smaller) ^ g(n - smaller) == need {
                out.push(GrundySplit {
                    heap,
                    smaller,
                    larger: n - smaller,
                });
            }
            smaller += 1;
        }
    })
}

/// The whole-position analysis, with the table as long as the largest heap needs.
pub fn analyze(pos: &Piles) -> Analysis<GrundySplit> {
    let max = pos.0.iter().copied().max().unwrap_or(0);
    let len = usize::try_from(max).expect("heap fits in memory") + 1;
    GrundySolver::new(len)
        .analyze(pos)
        .expect("the table covers the largest heap")
}

/// `verify`'s view of Grundy's game.
#[derive(Default)]
pub struct GrundySubject;

/// How far tier 1 compares the rare/common table with the plain one.
const TIER1_LEN: usize = 6000;

/// Tier 1 with `fast` as the solver (the values of [`GrundySolver::new`] to
/// [`TIER1_LEN`]): only what is computed differently from the plain mex table is
/// compared with it. The solver's first [`MASK_PREFIX`] values are the plain table
/// itself, so the solver is compared past them; and the rare/common method from a short
/// prefix (the mask chosen on it as the solver chooses it; and two fixed masks, since
/// the method is exact whatever the mask) is compared past that prefix. The golden
/// terms check the plain table.
fn tier1_with(fast: &GrundySolver) -> Tier1Report {
    let mut report = Tier1Report::default();
    let plain = plain_table(&Breaks::Grundy, TIER1_LEN);
    report.compare(
        "table length",
        (plain.len(), fast.values().len()),
        (TIER1_LEN, TIER1_LEN),
    );
    for (n, &v) in A002188.iter().enumerate() {
        report.compare(format_args!("heap {n} (A002188)"), plain[n], v);
    }
    for (n, (&f, &p)) in fast
        .values()
        .iter()
        .zip(&plain)
        .enumerate()
        .skip(MASK_PREFIX)
    {
        report.compare(format_args!("heap {n} (rare/common)"), f, p);
    }
    let prefix = &plain[..TIER1_SPARSE_PREFIX];
    for (mask, len) in [(choose_mask(prefix), TIER1_LEN), (1, 3000), (6, 3000)] {
        let mut g = prefix.to_vec();
        extend_sparse(&Breaks::Grundy, &mut g, len, mask);
        report.compare(format_args!("mask {mask} length"), g.len(), len);
        for (n, (&f, &p)) in g.iter().zip(&plain).enumerate().skip(TIER1_SPARSE_PREFIX) {
            report.compare(format_args!("heap {n} (mask {mask})"), f, p);
        }
    }
    report
}

/// The plain prefix tier 1's rare/common tables start from.
const TIER1_SPARSE_PREFIX: usize = 64;

impl Subject for GrundySubject {
    type Rules = GrundyGame;

    fn id(&self) -> &'static str {
        "grundy"
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
        tier1_with(&GrundySolver::new(TIER1_LEN))
    }

    fn instances(&self, size: u32) -> Vec<(GrundyGame, Piles)> {
        // Every position of up to 5 heaps summing to `size` (at most 32).
        if size > 32 {
            return Vec::new();
        }
        crate::verify::compositions(u64::from(size), 5)
            .into_iter()
            .map(|p| (GrundyGame, Piles(p)))
            .collect()
    }

    fn random_instance(&self, rng: &mut ChaCha8Rng) -> (GrundyGame, Piles) {
        let piles = match rng.gen_range(0..3) {
            0 => vec![rng.gen_range(0..=40)],
            1 => (0..2).map(|_| rng.gen_range(0..=22)).collect(),
            _ => {
                let n = rng.gen_range(3..=6);
                (0..n).map(|_| rng.gen_range(0..=7)).collect()
            }
        };
        (GrundyGame, Piles(piles))
    }

    fn fast(&self, _rules: &GrundyGame, pos: &Piles) -> Analysis<GrundySplit> {
        analyze(pos)
    }
}

// ---------------------------------------------------------------------------------
// The `grundy_agree` fuzz target.

/// `grundy_agree`: up to 4 heaps of up to 16.
impl crate::fuzzing::AgreeTarget for GrundySubject {
    fn fuzz_instance(
        &self,
        _: &[u8],
        rest: &[u8],
    ) -> Option<(GrundyGame, <GrundyGame as sgcheck_oracles::Rules>::Position)> {
        Some((GrundyGame, Piles(crate::fuzzing::small_piles(rest, 4, 16)?)))
    }
}

// ---------------------------------------------------------------------------------
// Its line in the registry.

impl crate::games::BuiltIn for GrundySubject {
    const ID: &'static str = "grundy";
    const SUMMARY: &'static str =
        "heaps; split one heap into two non-empty heaps of different sizes; normal \
         play. Rules: -";
}

// ---------------------------------------------------------------------------------
// Checking users' own solvers of it ([`crate::Game`]).

impl crate::Game for GrundyGame {
    from_subject!(GrundySubject);
    fn shrink(&self, pos: &Piles) -> Vec<(GrundyGame, Piles)> {
        crate::games::shrink_piles(self, pos)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::verify::Planted;
    use std::time::Duration;

    #[test]
    fn planted_tier1_bug_reaches_the_report() {
        // One wrong value of the solver's rare/common part, past its plain prefix.
        let planted = || {
            let mut fast = GrundySolver::new(TIER1_LEN);
            fast.table[5000] ^= 1;
            tier1_with(&fast)
        };
        crate::verify::PlantedTier1 {
            subject: &GrundySubject,
            tier1: &planted,
        }
        .assert_caught("heap 5000 (rare/common)");
    }

    #[test]
    fn golden_a002188() {
        assert_eq!(plain_table(&Breaks::Grundy, 100), A002188);
        assert_eq!(GrundySolver::new(100).values(), A002188);
    }

    #[test]
    fn sparse_matches_plain_on_a_prefix() {
        let plain = plain_table(&Breaks::Grundy, 4000);
        assert_eq!(GrundySolver::new(4000).values(), plain);
    }

    #[test]
    fn position_analysis() {
        // 3 has one move (1+2, value 0): winning. 4 = 1+3 only (2+2 is equal): value
        // g(1) xor g(3) = 1, so g(4) = 0: a heap of 4 loses.
        let a = analyze(&Piles(vec![3]));
        assert_eq!(a.winning.len(), 1);
        assert!(!analyze(&Piles(vec![4])).win);
        assert!(!analyze(&Piles(vec![])).win);
        assert!(!analyze(&Piles(vec![1, 2, 2])).win);
    }

    #[test]
    fn planted_bug_equal_split_allowed() {
        // Allowing a + a (Lasker-style splits): the heap `2` already differs.
        let d = Planted {
            subject: &GrundySubject,
            fast: |_, pos| {
                let max = pos.0.iter().copied().max().unwrap_or(0) as usize;
                let mut g: Vec<u64> = vec![0; max + 1];
                for n in 2..=max {
                    g[n] = crate::games::mex((1..=n / 2).map(|a| g[a] ^ g[n - a]));
                }
                let values: Vec<u64> = pos.0.iter().map(|&n| g[n as usize]).collect();
                analyze_sum(&values, |heap, need, out| {
                    let n = pos.0[heap];
                    for smaller in 1..n {
                        if 2 * smaller < n
                            && g[smaller as usize] ^ g[(n - smaller) as usize] == need
                        {
                            out.push(GrundySplit {
                                heap,
                                smaller,
                                larger: n - smaller,
                            });
                        }
                    }
                })
            },
        }
        .first_disagreement(Duration::from_millis(1500))
        .expect("planted bug not found");
        assert_eq!(d.position, "2");
    }
}
