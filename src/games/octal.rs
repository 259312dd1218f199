//! Octal games: Grundy values by mex, with the period proved by the octal periodicity
//! theorem, so heaps far beyond the table are answered exactly.
//!
//! Rules (game `octal`; the oracle's [`Octal`]): heaps; the code `0.d1d2...` says, per
//! removal size k, whether removing k tokens from a heap may leave nothing (bit 1 of
//! d_k, only when the heap had exactly k), one heap (bit 2) or two non-empty heaps
//! (bit 4). Normal play. A position is the sum of its heaps, so its value is the xor
//! of the heaps' values ([`crate::games::analyze_sum`]).
//!
//! The values of one heap come from [`crate::games::take_break`]: the plain mex table,
//! the rare/common method for long tables of codes that split, and the periodicity
//! theorem (stated and proved there): once g(n + p) = g(n) holds for
//! e <= n < 2e + p + t (t = number of digits, e >= 1), it holds for every n >= e.
//! [`OctalSolver`] computes the table until such a period is proved (or a cap is
//! reached) and answers any u64 heap from it.
//!
//! Golden data (tier 1 and the tests): Kayles `0.77` = OEIS A002186, period 12 from 71
//! (exceptions 0, 3, 6, 9, 11, 15, 18, 21, 22, 28, 34, 39, 57, 70); Dawson's chess
//! `0.137` = OEIS A002187, period 34 with last exception 51 (exceptions 0, 14, 16, 17,
//! 31, 34, 51); Dawson's Kayles `0.07` is A002187 shifted by one place
//! (g_0.07(n + 1) = g_0.137(n)): removing two adjacent pins of a row of n + 1 is
//! Dawson's chess on n files (*Winning Ways*, chapter 4).
//!
//! Winning moves of a position: the fast side enumerates one heap's options itself
//! (never the oracle's generator): with `need` the value the moved heap must reach,
//! each removal k leaving nothing (value 0), one heap (g(rest)) or two heaps
//! (g(a) xor g(rest - a)) is kept when its value is `need`.

use crate::games::analyze_sum;
use crate::games::take_break::{
    choose_mask, compute, extend_sparse, plain_table, sparse_table, Breaks, Method, Period,
    MASK_PREFIX,
};
use crate::verify::{Subject, Tier1Report};
use rand::Rng;
use rand_chacha::ChaCha8Rng;
use rustc_hash::FxHashMap;
use sgcheck_oracles::games::nim::Piles;
use sgcheck_oracles::games::octal::{Octal, OctalMove};
use sgcheck_oracles::Analysis;
use std::sync::{Arc, Mutex};

/// How many values [`OctalSolver::new`] computes at most while looking for a period.
pub const DEFAULT_LEN: usize = 1 << 14;

/// OEIS A002186 (Kayles, `0.77`), n = 0..=99.
pub const A002186: [u32; 100] = [
    0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6, 4, 1, 2, 7, 1, 4, 3, 2, 1, 4, 6, 7, 4, 1, 2, 8, 5, 4, 7, 2,
    1, 8, 6, 7, 4, 1, 2, 3, 1, 4, 7, 2, 1, 8, 2, 7, 4, 1, 2, 8, 1, 4, 7, 2, 1, 4, 2, 7, 4, 1, 2, 8,
    1, 4, 7, 2, 1, 8, 6, 7, 4, 1, 2, 8, 1, 4, 7, 2, 1, 8, 2, 7, 4, 1, 2, 8, 1, 4, 7, 2, 1, 8, 2, 7,
    4, 1, 2, 8,
];

/// OEIS A002187 (Dawson's chess, `0.137`), n = 0..=101.
pub const A002187: [u32; 102] = [
    0, 1, 1, 2, 0, 3, 1, 1, 0, 3, 3, 2, 2, 4, 0, 5, 2, 2, 3, 3, 0, 1, 1, 3, 0, 2, 1, 1, 0, 4, 5, 2,
    7, 4, 0, 1, 1, 2, 0, 3, 1, 1, 0, 3, 3, 2, 2, 4, 4, 5, 5, 2, 3, 3, 0, 1, 1, 3, 0, 2, 1, 1, 0, 4,
    5, 3, 7, 4, 8, 1, 1, 2, 0, 3, 1, 1, 0, 3, 3, 2, 2, 4, 4, 5, 5, 9, 3, 3, 0, 1, 1, 3, 0, 2, 1, 1,
    0, 4, 5, 3, 7, 4,
];

/// Exact Grundy values of single heaps of one octal code.
#[derive(Clone, Debug)]
pub struct OctalSolver {
    code: Octal,
    /// g(0..): up to where the period was proved, or as far as computed.
    table: Vec<u32>,
    period: Option<Period>,
}

impl OctalSolver {
    /// Computes the table until a period is proved, at most [`DEFAULT_LEN`] values.
    pub fn new(code: &Octal) -> Self {
        Self::with_len(code, DEFAULT_LEN)
    }

    /// As [`OctalSolver::new`], computing at most `len` values (at least 1).
    pub fn with_len(code: &Octal, len: usize) -> Self {
        let c = compute(&breaks(code), len.max(1), Method::Sparse, false);
        OctalSolver {
            code: code.clone(),
            table: c.values,
            period: c.period,
        }
    }

    /// Exactly `len` values (at least 1), with no search for a period: for callers
    /// whose heaps are all below `len` (Paint Chain's row after its first move).
    pub fn table_only(code: &Octal, len: usize) -> Self {
        OctalSolver {
            code: code.clone(),
            table: if len <= MASK_PREFIX {
                plain_table(&breaks(code), len.max(1))
            } else {
                sparse_table(&breaks(code), len).0
            },
            period: None,
        }
    }

    /// The code.
    pub fn code(&self) -> &Octal {
        &self.code
    }

    /// The proven period, if one was found within the computed length.
    pub fn period(&self) -> Option<Period> {
        self.period
    }

    /// How many values were computed.
    pub fn table_len(&self) -> usize {
        self.table.len()
    }

    /// g(n) for any heap when a period is proved; otherwise for heaps inside the table
    /// (`None` beyond it).
    pub fn grundy(&self, n: u64) -> Option<u64> {
        if let Ok(i) = usize::try_from(n) {
            if let Some(&v) = self.table.get(i) {
                return Some(u64::from(v));
            }
        }
        let p = self.period?;
        let off = (n - p.preperiod as u64) % p.period as u64;
        Some(u64::from(self.table[p.preperiod + off as usize]))
    }

    /// Whether every heap up to `max` has a known value.
    pub fn covers(&self, max: u64) -> bool {
        self.period.is_some() || max < self.table.len() as u64
    }

    /// Verdict and every winning move of a position. Panics if a heap is beyond the
    /// table and no period is proven (see [`OctalSolver::covers`]).
    pub fn analyze(&self, pos: &Piles) -> Analysis<OctalMove> {
        let g = |n: u64| self.grundy(n).expect("heap inside the table or a period");
        analyze_with(&self.code, g, pos)
    }
}

/// The fast side's reading of a code.
pub fn breaks(code: &Octal) -> Breaks {
    Breaks::Octal(code.digits().to_vec())
}

/// The analysis of a position from any Grundy function of single heaps: the xor
/// decides; the winning moves in a heap are its options of the needed value, found by
/// the fast side's own enumeration of the code.
pub fn analyze_with(code: &Octal, g: impl Fn(u64) -> u64, pos: &Piles) -> Analysis<OctalMove> {
    let values: Vec<u64> = pos.0.iter().map(|&n| g(n)).collect();
    analyze_sum(&values, |heap, need, out| {
        let n = pos.0[heap];
        for (i, &d) in code.digits().iter().enumerate() {
            let take = i as u64 + 1;
            if take > n {
                break;
            }
            let rest = n - take;
            let mut push = |left: u64, right: u64| {
                out.push(OctalMove {
                    heap,
                    take,
                    left,
                    right,
                })
            };
            if rest == 0 && d & 1 != 0 && need == 0 {
                push(0, 0);
            }
            if rest >= 1 && d & 2 != 0 && g(rest) == need {
                push(0, rest);
            }
            if rest >= 2 && d & 4 != 0 {
                for a in 1..=rest / 2 {
                    if g(a) ^ g(rest - a) == need {
                        push(a, rest - a);
                    }
                }
            }
        }
    })
}

/// `verify`'s view of octal games. Keeps one solver per code.
#[derive(Default)]
pub struct OctalSubject {
    solvers: Mutex<FxHashMap<Octal, Arc<OctalSolver>>>,
}

impl OctalSubject {
    /// The solver of a code, computed once (at most [`SWEEP_LEN`] values: random
    /// codes are many, and positions small).
    fn solver(&self, code: &Octal) -> Arc<OctalSolver> {
        let known = self
            .solvers
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(code)
            .cloned();
        if let Some(s) = known {
            return s;
        }
        // Computed without the lock: the other workers go on meanwhile.
        let s = Arc::new(OctalSolver::with_len(code, SWEEP_LEN));
        let mut map = self.solvers.lock().unwrap_or_else(|e| e.into_inner());
        map.entry(code.clone()).or_insert(s).clone()
    }
}

/// How many values the sweep's solvers compute at most while looking for a period.
/// Tier 2's heaps have at most 22 tokens (the enumeration 24): 64 values cover them
/// with room for a period to show, and a random code's solver (thousands of codes
/// in a run) costs a sixty-fourth of what 512 values cost.
pub const SWEEP_LEN: usize = 64;

/// The classic codes every sweep includes.
pub const CLASSIC_CODES: &[&str] = &["0.77", "0.137", "0.07", "0.007", "0.6", "0.4", "0.51"];

/// Codes of tier 1: every one- and two-digit code, and every three-digit code whose
/// digits are 0, 3, 4 or 7 (splits with and without the other bits).
fn tier1_codes() -> Vec<Octal> {
    let mut codes = Vec::new();
    for a in 0..8u8 {
        for b in 0..8u8 {
            if let Ok(c) = Octal::new(vec![a, b]) {
                codes.push(c);
            }
        }
    }
    for a in [0u8, 3, 4, 7] {
        for b in [0u8, 3, 4, 7] {
            for c in [3u8, 4, 7] {
                codes.push(Octal::new(vec![a, b, c]).expect("valid digits"));
            }
        }
    }
    codes.sort();
    codes.dedup();
    codes
}

/// Long codes tier 1 samples: [`LONG_DENSE`] codes of 4 to 40 random digits, and
/// [`LONG_SPARSE`] of 41 to 400 digits with 3 to 8 of them non-zero (a code's table
/// costs in proportion to its non-zero digits). The same codes every run (a fixed
/// seed): a run's figures do not depend on its seed.
fn long_codes() -> Vec<Octal> {
    use rand::SeedableRng;
    let mut rng = ChaCha8Rng::seed_from_u64(0x0c7a_1c0d);
    let mut out = Vec::new();
    let mut last_nonzero = |mut d: Vec<u8>, rng: &mut ChaCha8Rng| {
        if let Some(l) = d.last_mut() {
            *l = rng.gen_range(1..8);
        }
        if let Ok(c) = Octal::new(d) {
            out.push(c);
        }
    };
    for _ in 0..LONG_DENSE {
        let len = rng.gen_range(4..=40);
        let digits = (0..len).map(|_| rng.gen_range(0..8)).collect();
        last_nonzero(digits, &mut rng);
    }
    for _ in 0..LONG_SPARSE {
        let len = rng.gen_range(41..=400);
        let mut digits = vec![0u8; len];
        for _ in 0..rng.gen_range(2..=7) {
            digits[rng.gen_range(0..len)] = rng.gen_range(1..8);
        }
        last_nonzero(digits, &mut rng);
    }
    out
}

/// How many long codes of 4 to 40 digits tier 1 samples.
const LONG_DENSE: usize = 16;
/// How many long codes of 41 to 400 digits, mostly zeros, tier 1 samples.
const LONG_SPARSE: usize = 8;

/// How far tier 1 compares each code's solver with the plain table.
const TIER1_LEN: usize = 1500;
/// How many values tier 1's solvers compute at most while looking for a period (codes
/// without one within it are compared on their table alone).
const TIER1_SOLVER_LEN: usize = 2048;

/// Tier 1 of one code (see [`OctalSubject`]'s tier 1): `solver` is the fast side,
/// `plain(len)` the plain mex table. Returns the number of values left unchecked when
/// the code has neither a proven period nor splits.
fn tier1_code(
    report: &mut Tier1Report,
    c: &Octal,
    solver: &OctalSolver,
    plain: impl Fn(usize) -> Vec<u32>,
) -> Option<u64> {
    let t = c.digits().len();
    let splits = breaks(c).splits();
    let by_mex = solver.table_len();
    let len = match solver.period() {
        Some(_) => TIER1_LEN.max(by_mex + TIER1_EXTENSION),
        None if splits => TIER1_LEN,
        None => return Some(TIER1_LEN as u64),
    };
    let g = plain(len);
    report.compare(format_args!("{c} table length"), g.len(), len);
    if let Some(p) = solver.period() {
        let direct = crate::verify::smallest_period(&g, |e, p| 2 * e.max(1) + 2 * p + t <= len);
        report.compare(
            format_args!("{c} (preperiod, period)"),
            Some((p.preperiod, p.period)),
            direct,
        );
        for (n, &v) in g.iter().enumerate().skip(by_mex) {
            report.compare(
                format_args!("{c} heap {n} (period)"),
                solver.grundy(n as u64),
                Some(u64::from(v)),
            );
        }
    }
    if splits {
        let prefix = TIER1_SPARSE_PREFIX.min(g.len());
        let mut sparse = g[..prefix].to_vec();
        let mask = choose_mask(&sparse);
        extend_sparse(&breaks(c), &mut sparse, len, mask);
        // A table left short would shorten the loop below (a mutant that survived).
        report.compare(format_args!("{c} rare/common length"), sparse.len(), len);
        for (n, (&f, &v)) in sparse.iter().zip(&g).enumerate().skip(prefix) {
            report.compare(format_args!("{c} heap {n} (rare/common)"), f, v);
        }
    }
    None
}

/// How far past the solver's own table tier 1 compares the period's extension.
const TIER1_EXTENSION: usize = 500;
/// The plain prefix tier 1's rare/common tables start from.
const TIER1_SPARSE_PREFIX: usize = 64;

fn code(s: &str) -> Octal {
    s.parse().expect("a valid code")
}

/// Tier 1 with the fast side given: `solver(code, len)` is the solver computing at most
/// `len` values ([`OctalSolver::with_len`], or a planted wrong one in the tests).
fn tier1_with(solver: impl Fn(&Octal, usize) -> OctalSolver) -> Tier1Report {
    let mut report = Tier1Report::default();
    // 1. Golden sequences (OEIS) and their periods, proven here from the values.
    let kayles = solver(&code("0.77"), DEFAULT_LEN);
    let chess = solver(&code("0.137"), DEFAULT_LEN);
    let dk = solver(&code("0.07"), DEFAULT_LEN);
    for (n, &v) in A002186.iter().enumerate() {
        report.compare(
            format_args!("0.77 heap {n} (A002186)"),
            kayles.grundy(n as u64),
            Some(u64::from(v)),
        );
    }
    for (n, &v) in A002187.iter().enumerate() {
        report.compare(
            format_args!("0.137 heap {n} (A002187)"),
            chess.grundy(n as u64),
            Some(u64::from(v)),
        );
        report.compare(
            format_args!("0.07 heap {} (A002187 shifted)", n + 1),
            dk.grundy(n as u64 + 1),
            Some(u64::from(v)),
        );
    }
    report.compare(
        "0.77 period (12 from 71)",
        kayles.period().map(|p| (p.preperiod, p.period)),
        Some((71, 12)),
    );
    report.compare(
        "0.137 period (34, last exception 51)",
        chess.period().map(|p| (p.period, p.last_exception())),
        Some((34, Some(51))),
    );
    // 2. Per code, only what the solver computes differently from the plain mex
    // table (below MASK_PREFIX the solver's own table *is* the plain mex, so
    // comparing it would compare a function with itself):
    //  - the claimed preperiod and period against the smallest ones found directly
    //    from the plain table (sharing no code with the solver's period finder);
    //  - the values the proven period extends, past the solver's table, against the
    //    plain table;
    //  - for codes that split, the rare/common method from a short plain prefix
    //    (mask chosen on it, as the solver chooses it on its longer prefix) against
    //    the plain table past that prefix.
    // Codes with neither a proven period nor splits have nothing computed
    // differently: they are counted as not checked.
    let mut unchecked = 0u64;
    let mut unchecked_codes = 0u64;
    for c in tier1_codes() {
        let s = solver(&c, TIER1_SOLVER_LEN);
        if let Some(n) = tier1_code(&mut report, &c, &s, |len| plain_table(&breaks(&c), len)) {
            unchecked += n;
            unchecked_codes += 1;
        }
    }
    // 3. Long codes, by sampling (the command line takes up to 4,096 digits; the
    // codes above have at most 3): the same checks, so a period claimed from a long
    // code's values (whose proof range 2e + p + t grows with its length t) is proven
    // again from the plain table, and the values it extends are compared with it.
    for c in long_codes() {
        let s = solver(&c, TIER1_SOLVER_LEN);
        if let Some(n) = tier1_code(&mut report, &c, &s, |len| plain_table(&breaks(&c), len)) {
            unchecked += n;
            unchecked_codes += 1;
        }
    }
    if unchecked_codes > 0 {
        report.skip(
            unchecked,
            format!("{unchecked_codes} codes without a proven period or splits not checked"),
        );
    }
    report
}

impl Subject for OctalSubject {
    type Rules = Octal;

    fn id(&self) -> &'static str {
        "octal"
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
        tier1_with(OctalSolver::with_len)
    }

    fn instances(&self, size: u32) -> Vec<(Octal, Piles)> {
        // The classic codes and every one-digit code, on every position of up to 4
        // heaps summing to `size` (at most 24).
        if size > 24 {
            return Vec::new();
        }
        let piles = crate::verify::compositions(u64::from(size), 4);
        let mut codes: Vec<Octal> = CLASSIC_CODES.iter().map(|s| code(s)).collect();
        codes.extend((1..8u8).map(|d| Octal::new(vec![d]).expect("valid")));
        codes.sort();
        codes.dedup();
        let mut out = Vec::new();
        for c in &codes {
            out.extend(piles.iter().map(|p| (c.clone(), Piles(p.clone()))));
        }
        out
    }

    fn random_instance(&self, rng: &mut ChaCha8Rng) -> (Octal, Piles) {
        let rules = match rng.gen_range(0..4) {
            0 => code(CLASSIC_CODES[rng.gen_range(0..CLASSIC_CODES.len())]),
            1 => Octal::single(rng.gen_range(1..=6)).expect("m >= 1"),
            2 if rng.gen_bool(0.25) => {
                // Now and then a long code (up to 40 digits): on heaps of at most 22
                // only its first digits matter, but its period and table are the
                // solver's for the whole code.
                let len = rng.gen_range(5..=40);
                let mut digits: Vec<u8> = (0..len).map(|_| rng.gen_range(0..8)).collect();
                digits[len - 1] = rng.gen_range(1..8);
                Octal::new(digits).expect("octal digits")
            }
            _ => loop {
                let len = rng.gen_range(1..=4);
                let digits: Vec<u8> = (0..len).map(|_| rng.gen_range(0..8)).collect();
                if let Ok(c) = Octal::new(digits) {
                    break c;
                }
            },
        };
        let piles = match rng.gen_range(0..4) {
            0 => vec![rng.gen_range(0..=22)],
            1 => (0..2).map(|_| rng.gen_range(0..=11)).collect(),
            _ => {
                let n = rng.gen_range(1..=4);
                (0..n).map(|_| rng.gen_range(0..=7)).collect()
            }
        };
        (rules, Piles(piles))
    }

    fn fast(&self, rules: &Octal, pos: &Piles) -> Analysis<OctalMove> {
        let s = self.solver(rules);
        let max = pos.0.iter().copied().max().unwrap_or(0);
        if s.covers(max) {
            return s.analyze(pos);
        }
        // No period within the default length (a code given on the command line): the
        // table as far as this position needs.
        let len = usize::try_from(max).expect("heap fits in memory") + 1;
        OctalSolver::with_len(rules, len).analyze(pos)
    }
}

// ---------------------------------------------------------------------------------
// The `octal_agree` fuzz target.

/// `octal_agree`: the number of digits (1..=3), that many digits (0..=7), then up to 3
/// heaps of up to 12.
impl crate::fuzzing::AgreeTarget for OctalSubject {
    fn fuzz_instance(
        &self,
        _: &[u8],
        rest: &[u8],
    ) -> Option<(Octal, <Octal as sgcheck_oracles::Rules>::Position)> {
        let (&len, rest) = rest.split_first()?;
        let len = len as usize;
        if !(1..=3).contains(&len) || rest.len() < len {
            return None;
        }
        let (digits, heaps) = rest.split_at(len);
        if digits.iter().any(|&d| d > 7) {
            return None;
        }
        let rules = Octal::new(digits.to_vec()).ok()?;
        Some((rules, Piles(crate::fuzzing::small_piles(heaps, 3, 12)?)))
    }
}

// ---------------------------------------------------------------------------------
// Its line in the registry.

impl crate::games::BuiltIn for OctalSubject {
    const ID: &'static str = "octal";
    const SUMMARY: &'static str =
        "heaps; the code 0.d1d2... says, per removal size k, whether removing k tokens \
         may leave no heap (bit 1 of d_k), one heap (bit 2) or two non-empty heaps \
         (bit 4); normal play. Rules: the code, e.g. 0.77 (Kayles), 0.137, 0.07";
}

// ---------------------------------------------------------------------------------
// Checking users' own solvers of it ([`crate::Game`]).

impl crate::Game for Octal {
    from_subject!(OctalSubject::default());
    fn shrink(&self, pos: &Piles) -> Vec<(Octal, Piles)> {
        crate::games::shrink_piles(self, pos)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::verify::{FastFn, Planted};
    use std::time::Duration;

    #[test]
    fn tier1_codes_and_their_periods() {
        // The figures the README states: how many codes tier 1 takes, how many have a
        // period proven within TIER1_SOLVER_LEN values (compared by the extension and
        // the period check), and that every other one splits (compared by the
        // rare/common method, nothing left unchecked).
        let codes = tier1_codes();
        let proven: Vec<&Octal> = codes
            .iter()
            .filter(|c| {
                OctalSolver::with_len(c, TIER1_SOLVER_LEN)
                    .period()
                    .is_some()
            })
            .collect();
        let unproven: Vec<&Octal> = codes.iter().filter(|c| !proven.contains(c)).collect();
        println!(
            "{} codes, {} with a proven period",
            codes.len(),
            proven.len()
        );
        assert_eq!((codes.len(), proven.len()), (TIER1_CODES, TIER1_PROVEN));
        assert!(unproven.iter().all(|c| breaks(c).splits()));
    }

    /// The README's figures (see the test above).
    const TIER1_CODES: usize = 111;
    const TIER1_PROVEN: usize = 71;

    #[test]
    fn a_false_period_claimed_for_a_long_code_reaches_the_report() {
        // A period claimed too early for codes longer than three digits (a period
        // check whose proof range is computed wrong for long codes): the short codes
        // of tier 1 never show it; the sampled long codes do.
        let long: Vec<Octal> = long_codes();
        assert_eq!(long.len(), LONG_DENSE + LONG_SPARSE);
        assert!(long.iter().all(|c| c.digits().len() >= 4));
        let planted = || {
            tier1_with(|c, len| {
                let mut s = OctalSolver::with_len(c, len);
                if c.digits().len() > 3 && s.period.is_none() {
                    s.period = Some(Period {
                        preperiod: 45,
                        period: 2,
                    });
                }
                s
            })
        };
        crate::verify::PlantedTier1 {
            subject: &OctalSubject::default(),
            tier1: &planted,
        }
        .assert_caught("(preperiod, period)");
    }

    #[test]
    fn planted_tier1_bug_reaches_the_report() {
        // A period claimed twice too long for 0.33 (a true period, so every value the
        // solver answers is still right): only the comparison with the smallest period
        // found directly from the plain table can see it.
        let planted = || {
            tier1_with(|c, len| {
                let mut s = OctalSolver::with_len(c, len);
                if *c == code("0.33") {
                    let p = s.period.expect("0.33 has a period");
                    s.period = Some(Period {
                        period: 2 * p.period,
                        ..p
                    });
                    s.table = plain_table(&breaks(c), s.table.len() + p.period);
                }
                s
            })
        };
        crate::verify::PlantedTier1 {
            subject: &OctalSubject::default(),
            tier1: &planted,
        }
        .assert_caught("0.33 (preperiod, period)");
    }

    #[test]
    fn planted_rare_common_bug_reaches_the_report() {
        // A code without a proven period within tier 1's length is compared by the
        // rare/common method, which really differs from the plain table: one value
        // that differs between the two, at heap 700, is reported.
        let c = code("0.16");
        let solver = OctalSolver::with_len(&c, TIER1_SOLVER_LEN);
        assert!(solver.period().is_none(), "0.16's period needs 2^19 values");
        let mut report = Tier1Report::default();
        let unchecked = tier1_code(&mut report, &c, &solver, |len| {
            let mut g = plain_table(&breaks(&c), len);
            g[700] ^= 1;
            g
        });
        assert_eq!(unchecked, None);
        let (what, _, _) = report.first.expect("the changed value is compared");
        assert_eq!(what, "0.16 heap 700 (rare/common)");
    }

    #[test]
    fn golden_sequences_from_the_plain_table() {
        // OEIS A002186 and A002187 (100+ terms), from the plain mex table: no period.
        let k = plain_table(&breaks(&code("0.77")), 100);
        assert_eq!(k, A002186);
        let d = plain_table(&breaks(&code("0.137")), 102);
        assert_eq!(d, A002187);
        let dk = plain_table(&breaks(&code("0.07")), 103);
        assert_eq!(dk[1..], A002187);
    }

    #[test]
    fn stated_periods_are_proven() {
        // Kayles: period 12 from 71; the exceptions of Winning Ways are exactly the n
        // below 71 where g(n) != g(n + 12).
        let k = OctalSolver::new(&code("0.77"));
        let p = k.period().unwrap();
        assert_eq!((p.preperiod, p.period), (71, 12));
        let exceptions: Vec<u64> = (0..71)
            .filter(|&n| k.grundy(n) != k.grundy(n + 12 * 10))
            .collect();
        assert_eq!(
            exceptions,
            [0, 3, 6, 9, 11, 15, 18, 21, 22, 28, 34, 39, 57, 70]
        );
        // Dawson's chess: period 34, exceptions 0, 14, 16, 17, 31, 34, 51.
        let d = OctalSolver::new(&code("0.137"));
        let p = d.period().unwrap();
        assert_eq!((p.period, p.last_exception()), (34, Some(51)));
        let exceptions: Vec<u64> = (0..p.preperiod as u64)
            .filter(|&n| d.grundy(n) != d.grundy(n + 34 * 10))
            .collect();
        assert_eq!(exceptions, [0, 14, 16, 17, 31, 34, 51]);
        // 0.07: the same, one place later.
        let dk = OctalSolver::new(&code("0.07"));
        let p = dk.period().unwrap();
        assert_eq!((p.preperiod, p.period), (53, 34));
        // Far heaps come from the period: 10^12 + 71 is 71 + 4 (mod 12 past 71), whose
        // value is g(75) = A002186(75) = 8.
        assert_eq!(k.grundy(1_000_000_000_071), Some(8));
        assert_eq!(A002186[75], 8);
        assert_eq!(k.grundy(u64::MAX), k.grundy(71 + (u64::MAX - 71) % 12));
    }

    #[test]
    fn long_period_of_0_16_by_the_rare_common_method() {
        // 0.16 has period 149459 (Gangolli and Plambeck, 1989). The rare/common table
        // to 2^19 proves it here, with last exception 105350, and agrees with the plain
        // table on a prefix.
        let s = OctalSolver::with_len(&code("0.16"), 1 << 20);
        let p = s.period().expect("proven within 2^20");
        assert_eq!((p.period, p.last_exception()), (149459, Some(105350)));
        let plain = plain_table(&breaks(&code("0.16")), 3000);
        for (n, &v) in plain.iter().enumerate() {
            assert_eq!(s.grundy(n as u64), Some(u64::from(v)), "n={n}");
        }
    }

    #[test]
    fn far_heaps_agree_with_the_long_plain_table() {
        let plain = plain_table(&breaks(&code("0.77")), 3000);
        let k = OctalSolver::new(&code("0.77"));
        assert!(k.table_len() < 400);
        for (n, &v) in plain.iter().enumerate() {
            assert_eq!(k.grundy(n as u64), Some(u64::from(v)), "n={n}");
        }
    }

    #[test]
    fn position_analysis() {
        // Kayles 3,3 loses (mirror). Kayles 4: g = 1; the winning moves leave value 0:
        // take 2 from the middle (1+1), take... leave 0: none single; 1+1 (k=2).
        let k = OctalSolver::new(&code("0.77"));
        assert!(!k.analyze(&Piles(vec![3, 3])).win);
        let a = k.analyze(&Piles(vec![4]));
        let moves: Vec<String> = a.winning.iter().map(|m| m.to_string()).collect();
        assert_eq!(moves, ["0:2=1+1"]);
    }

    /// Sweeps a planted bug for a short time and returns the first disagreement.
    fn planted_finds(bug: FastFn<Octal>) -> crate::verify::Disagreement {
        Planted {
            subject: &OctalSubject::default(),
            fast: bug,
        }
        .first_disagreement(Duration::from_millis(2000))
        .expect("planted bug not found")
    }

    #[test]
    fn planted_bug_splits_with_an_empty_part() {
        // Reading bit 4 as "two heaps, one may be empty" (a from 0): the sweep finds
        // it on a small position.
        let d = planted_finds(|code, pos| {
            let wrong = |n: u64| -> u64 {
                // mex over options including the empty-part split a = 0.
                let mut g: Vec<u64> = Vec::new();
                for m in 0..=n {
                    let mut opts = Vec::new();
                    for (i, &dg) in code.digits().iter().enumerate() {
                        let k = i as u64 + 1;
                        if k > m {
                            break;
                        }
                        let rest = m - k;
                        if rest == 0 && dg & 1 != 0 {
                            opts.push(0);
                        }
                        if rest >= 1 && dg & 2 != 0 {
                            opts.push(g[rest as usize]);
                        }
                        if dg & 4 != 0 {
                            for a in 0..=rest / 2 {
                                opts.push(g[a as usize] ^ g[(rest - a) as usize]);
                            }
                        }
                    }
                    g.push(crate::games::mex(opts));
                }
                g[n as usize]
            };
            analyze_with(code, wrong, pos)
        });
        let heaps: u64 = d
            .position
            .split(',')
            .map(|p| p.parse::<u64>().unwrap())
            .sum();
        assert!(heaps <= 4, "{d:?}");
    }

    #[test]
    fn planted_bug_period_from_too_short_a_run() {
        // Declaring a period as soon as one window of t values repeats (the rule of
        // subtraction games, wrong for codes that split): Kayles looks periodic early.
        let d = planted_finds(|code, pos| {
            let plain = plain_table(&breaks(code), 64);
            let t = code.digits().len();
            // First p with g(n + p) = g(n) for t consecutive n from 1.
            let p = (1..20)
                .find(|&p| (1..=t).all(|n| plain[n] == plain[n + p]))
                .unwrap_or(1);
            let g = |n: u64| -> u64 {
                let n = if n > (1 + p) as u64 {
                    1 + (n - 1) % p as u64
                } else {
                    n
                };
                u64::from(plain[n as usize])
            };
            analyze_with(code, g, pos)
        });
        assert!(!d.position.is_empty());
    }
}
