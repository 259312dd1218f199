//! Subtraction games: take s stones from one pile, s in a finite set S. Grundy values
//! by mex, with the period of the table found and proved, so that any pile size (u64)
//! is answered exactly.
//!
//! Rules (game `subtraction`; the oracle's [`Subtraction`]): piles; a move
//! takes s stones from one pile for some s in S (s no larger than the pile); normal
//! play. hdu1848 is the Fibonacci set {1, 2, 3, 5, 8, ...} with three piles.
//!
//! The table: g(n) = mex{ g(n - s) : s in S, s <= n }. The values are at most |S|
//! (a mex over |S| options).
//!
//! Why the table is eventually periodic, and when the period is certain: let k be the
//! largest element of S. For n >= k every s in S is at most n, so g(n) is the same
//! function of the k values g(n-k), ..., g(n-1) for every such n. Call the window
//! w(t) = (g(t), ..., g(t+k-1)); then w(t+1) is determined by w(t) for every t >= 0
//! (the next value has index t + k >= k). The windows are a deterministic walk on a
//! finite set (values <= |S|), so they repeat, and the first time w(t) = w(t+p) the
//! whole sequence is periodic from t with period p: g(n + p) = g(n) for all n >= t.
//! Conversely a value sequence periodic from t with period p has w(t) = w(t+p), so the
//! smallest such t and p found on the windows are also the smallest preperiod and
//! period of the values. Only k equal values in a row prove a period; fewer is the
//! classic bug this module's planted test shows.
//!
//! The search: Brent's cycle-finding algorithm on the windows, comparing windows by a
//! polynomial hash (mod 2^61 - 1) of the table and confirming every hash match on the
//! values themselves, so a hash collision can cost time but never a wrong period.
//! Then the preperiod is the first t with w(t) = w(t + period).
//!
//! Known results used as golden data in tier 1 and the tests: the Fibonacci set gives
//! OEIS A014588 (its first 36 terms are tested, zeros at OEIS A001581);
//! {2, 3, 5} has period 7.

use crate::games::declared;
use crate::games::{analyze_sum, mex};
use crate::verify::{Subject, Tier1Report};
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rustc_hash::FxHashMap;
use sgcheck_oracles::games::nim::{Piles, Take};
use sgcheck_oracles::games::subtraction::Subtraction;
use sgcheck_oracles::Analysis;
use sgcheck_oracles::SearchError;
use std::sync::{Arc, Mutex, OnceLock};

/// Most table entries [`SubtractionSolver::new`] computes before giving up (16 MB of
/// values plus 32 MB of hashes). Sets with elements up to a few hundred settle within
/// a few thousand values (the Fibonacci set up to 987: preperiod 3072, period 612).
pub const DEFAULT_CAP: usize = 1 << 22;

/// Why no period was established.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PeriodError {
    /// The largest element alone needs more table than allowed.
    TooLarge {
        /// The largest element of the set.
        max: u64,
        /// The cap on the table length.
        cap: usize,
    },
    /// The windows did not repeat within the cap.
    NotFound {
        /// The cap on the table length.
        cap: usize,
    },
}

impl std::fmt::Display for PeriodError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PeriodError::TooLarge { max, cap } => write!(
                f,
                "the largest amount {max} needs a table longer than the cap of {cap} values"
            ),
            PeriodError::NotFound { cap } => write!(f, "no period found within {cap} values"),
        }
    }
}

impl std::error::Error for PeriodError {}

/// Plain Grundy table of single piles 0..len: mex over one pile's moves. No period.
pub fn table(set: &[u64], len: usize) -> Vec<u64> {
    let mut g: Vec<u64> = Vec::with_capacity(len);
    for n in 0..len {
        let v = mex(set
            .iter()
            .take_while(|&&s| s as usize <= n)
            .map(|&s| g[n - s as usize]));
        g.push(v);
    }
    g
}

/// The Grundy values of every pile size reachable from `piles` (and of the piles),
/// by mex over one pile's moves, depth-first with an explicit stack. Memory is
/// proportional to the number of reachable sizes, not to the largest pile: the
/// fallback for sets whose period is out of reach.
pub fn grundy_reachable(set: &[u64], piles: &[u64]) -> FxHashMap<u64, u64> {
    let mut g: FxHashMap<u64, u64> = FxHashMap::default();
    let mut stack: Vec<u64> = Vec::new();
    for &root in piles {
        stack.push(root);
        while let Some(&n) = stack.last() {
            if g.contains_key(&n) {
                stack.pop();
                continue;
            }
            let before = stack.len();
            for &s in set.iter().take_while(|&&s| s <= n) {
                if !g.contains_key(&(n - s)) {
                    stack.push(n - s);
                }
            }
            if stack.len() == before {
                let v = mex(set.iter().take_while(|&&s| s <= n).map(|&s| g[&(n - s)]));
                g.insert(n, v);
                stack.pop();
            }
        }
    }
    g
}

const MOD: u64 = (1 << 61) - 1;
const BASE: u64 = 0x1F35_A7C9_3D1B_E2F5 % MOD;

fn mulmod(a: u64, b: u64) -> u64 {
    ((a as u128 * b as u128) % MOD as u128) as u64
}

/// The table under construction, with prefix hashes of the values.
struct Builder<'a> {
    set: &'a [u64],
    /// Window length (k for a correct solver).
    window: usize,
    cap: usize,
    g: Vec<u32>,
    /// `prefix[i]` = hash of g[0..i].
    prefix: Vec<u64>,
    /// BASE^window mod MOD.
    shift: u64,
    /// Scratch for the mex: `seen[v]` for the options of the current value.
    seen: Vec<bool>,
}

impl<'a> Builder<'a> {
    fn new(set: &'a [u64], window: usize, cap: usize) -> Self {
        let mut shift = 1;
        for _ in 0..window {
            shift = mulmod(shift, BASE);
        }
        Builder {
            set,
            window,
            cap,
            g: Vec::new(),
            prefix: vec![0],
            shift,
            seen: vec![false; set.len() + 2],
        }
    }

    /// Makes the table at least `len` long.
    fn ensure(&mut self, len: usize) -> Result<(), PeriodError> {
        if len > self.cap {
            return Err(PeriodError::NotFound { cap: self.cap });
        }
        while self.g.len() < len {
            let n = self.g.len();
            for &s in self.set.iter().take_while(|&&s| s as usize <= n) {
                self.seen[self.g[n - s as usize] as usize] = true;
            }
            let v = self.seen.iter().position(|&b| !b).expect("values <= |S|");
            for &s in self.set.iter().take_while(|&&s| s as usize <= n) {
                self.seen[self.g[n - s as usize] as usize] = false;
            }
            self.g.push(v as u32);
            let h = self.prefix[n];
            self.prefix.push((mulmod(h, BASE) + v as u64 + 1) % MOD);
        }
        Ok(())
    }

    fn window_hash(&self, t: usize) -> u64 {
        let whole = self.prefix[t + self.window];
        let before = mulmod(self.prefix[t], self.shift);
        (whole + MOD - before) % MOD
    }

    /// Whether the windows at `a` and `b` are equal (extending the table as needed).
    fn same(&mut self, a: usize, b: usize) -> Result<bool, PeriodError> {
        self.ensure(a.max(b) + self.window)?;
        if self.window_hash(a) != self.window_hash(b) {
            return Ok(false);
        }
        let w = self.window;
        Ok(self.g[a..a + w] == self.g[b..b + w])
    }
}

/// Exact Grundy values of single piles of a subtraction game, for any pile size:
/// the table up to the end of the first period, then periodic.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SubtractionSolver {
    set: Vec<u64>,
    /// g(0 .. preperiod + period).
    table: Vec<u32>,
    preperiod: usize,
    period: usize,
}

impl SubtractionSolver {
    /// Computes the table until its period is proved (module docs), with at most
    /// [`DEFAULT_CAP`] values.
    pub fn new(rules: &Subtraction) -> Result<Self, PeriodError> {
        Self::with_cap(rules, DEFAULT_CAP)
    }

    /// As [`SubtractionSolver::new`], with at most `cap` values of table.
    pub fn with_cap(rules: &Subtraction, cap: usize) -> Result<Self, PeriodError> {
        let max = *rules
            .set()
            .last()
            .expect("a subtraction set is never empty");
        if max >= cap as u64 {
            return Err(PeriodError::TooLarge { max, cap });
        }
        Self::build(rules.set(), max as usize, cap)
    }

    /// Finds the period of the windows of length `window` (k for a sound solver).
    fn build(set: &[u64], window: usize, cap: usize) -> Result<Self, PeriodError> {
        let mut b = Builder::new(set, window, cap);
        // Brent: the tortoise waits at powers of two while the hare walks.
        let (mut power, mut period) = (1usize, 1usize);
        let (mut tortoise, mut hare) = (0usize, 1usize);
        while !b.same(tortoise, hare)? {
            if power == period {
                tortoise = hare;
                power *= 2;
                period = 0;
            }
            hare += 1;
            period += 1;
        }
        let mut preperiod = 0;
        while !b.same(preperiod, preperiod + period)? {
            preperiod += 1;
        }
        let mut table = b.g;
        table.truncate(preperiod + period);
        Ok(SubtractionSolver {
            set: set.to_vec(),
            table,
            preperiod,
            period,
        })
    }

    /// The subtraction set, ascending.
    pub fn set(&self) -> &[u64] {
        &self.set
    }

    /// The smallest n from which the values repeat.
    pub fn preperiod(&self) -> u64 {
        self.preperiod as u64
    }

    /// The smallest period of the values from [`SubtractionSolver::preperiod`] on.
    pub fn period(&self) -> u64 {
        self.period as u64
    }

    /// The Grundy value of a pile of `n` stones, for any `n`.
    pub fn grundy(&self, n: u64) -> u64 {
        let i = if n < self.table.len() as u64 {
            n as usize
        } else {
            let off = (n - self.preperiod as u64) % self.period as u64;
            self.preperiod + off as usize
        };
        self.table[i] as u64
    }

    /// Verdict and every winning move of a position (any number of piles).
    pub fn analyze(&self, pos: &Piles) -> Analysis<Take> {
        analyze_by(&self.set, |n| self.grundy(n), pos)
    }
}

/// The analysis of a position from any Grundy function of single piles: the XOR
/// decides, and the winning moves in a pile are the amounts reaching the needed value.
pub fn analyze_by(set: &[u64], g: impl Fn(u64) -> u64, pos: &Piles) -> Analysis<Take> {
    let values: Vec<u64> = pos.0.iter().map(|&n| g(n)).collect();
    analyze_sum(&values, |pile, need, out| {
        let n = pos.0[pile];
        for &amount in set.iter().take_while(|&&s| s <= n) {
            if g(n - amount) == need {
                out.push(Take { pile, amount });
            }
        }
    })
}

/// The Fibonacci terms of the golden sequence, OEIS A014588 (n = 0..35).
pub const A014588_PREFIX: [u64; 36] = [
    0, 1, 2, 3, 0, 1, 2, 3, 4, 5, 0, 1, 2, 3, 0, 1, 2, 3, 4, 5, 0, 1, 2, 3, 0, 1, 2, 3, 4, 5, 0, 1,
    2, 3, 4, 5,
];

/// `verify`'s view of subtraction games. Keeps one solver per set, since building it
/// costs a table.
#[derive(Default)]
pub struct SubtractionSubject {
    solvers: Mutex<FxHashMap<Subtraction, Arc<Result<SubtractionSolver, PeriodError>>>>,
}

/// Random sets of tier 1 (the issue: e.g. 200 sets with elements <= 30).
const TIER1_SETS: usize = 200;
/// Largest element of tier 1's random sets.
const TIER1_MAX_ELEMENT: u64 = 30;
/// How far tier 1 compares the periodic extension with the plain table.
const TIER1_LEN: usize = 5001;
/// Fixed seed of tier 1's random sets (tier 1 takes no seed; it is the same every run).
const TIER1_SEED: u64 = 0x5EB7_AC71_0000_0001;
/// The enumeration uses every non-empty subset of 1..=ENUM_MAX_ELEMENT.
const ENUM_MAX_ELEMENT: u64 = 5;

/// A random set of 1..=`max_len` distinct amounts in 1..=`max`.
fn random_set(rng: &mut ChaCha8Rng, max: u64, max_len: usize) -> Subtraction {
    let mut all: Vec<u64> = (1..=max).collect();
    all.shuffle(rng);
    let len = rng.gen_range(1..=max_len.min(all.len()));
    Subtraction::new(all[..len].to_vec()).expect("non-empty, positive")
}

/// A set whose amounts are all at least [`DEFAULT_CAP`], so that no period is looked for
/// ([`PeriodError::TooLarge`]) and the fast side answers from [`grundy_reachable`],
/// with piles of up to three times an amount plus a few: each move takes about a third
/// of a pile, so the oracle searches few positions.
fn far_instance(rng: &mut ChaCha8Rng) -> (Subtraction, Piles) {
    let base = DEFAULT_CAP as u64;
    let len = rng.gen_range(1..=3);
    let set: Vec<u64> = (0..len).map(|_| base + rng.gen_range(0..=6)).collect();
    let n = rng.gen_range(1..=3);
    let piles = (0..n)
        .map(|_| rng.gen_range(0..=3) * base + rng.gen_range(0..=12))
        .collect();
    (
        Subtraction::new(set).expect("non-empty, positive"),
        Piles(piles),
    )
}

impl SubtractionSubject {
    fn solver(&self, rules: &Subtraction) -> Arc<Result<SubtractionSolver, PeriodError>> {
        let mut map = self.solvers.lock().unwrap_or_else(|e| e.into_inner());
        map.entry(rules.clone())
            .or_insert_with(|| Arc::new(SubtractionSolver::new(rules)))
            .clone()
    }
}

/// Tier 1 for one set: the solver's values (periodic beyond its table) against the
/// plain table, and its preperiod and period against the smallest ones found directly
/// from the plain table ([`crate::verify::smallest_period`]: a repeated window of k
/// values, k the largest amount, proves the period; module docs).
fn compare_solver(
    report: &mut Tier1Report,
    rules: &Subtraction,
    solver: Result<SubtractionSolver, PeriodError>,
    len: usize,
) {
    match solver {
        Ok(s) => {
            let k = *rules.set().last().expect("never empty") as usize;
            // Long enough to show the claimed period twice past the claimed preperiod.
            let len = len.max((s.preperiod() + 2 * s.period()) as usize + k + 1);
            let plain = table(rules.set(), len);
            report.compare(format_args!("set {rules} table length"), plain.len(), len);
            for (n, &v) in plain.iter().enumerate() {
                report.compare(format_args!("set {rules} pile {n}"), s.grundy(n as u64), v);
            }
            let direct = crate::verify::smallest_period(&plain, |e, p| e + p + k <= len);
            report.compare(
                format_args!("set {rules} (preperiod, period)"),
                Some((s.preperiod() as usize, s.period() as usize)),
                direct,
            );
        }
        Err(e) => report.compare(format_args!("set {rules}: {e}"), 1, 0),
    }
}

/// Tier 1 with the fast side given: `solver(set)` is [`SubtractionSolver::new`], or a
/// planted wrong one in the tests.
fn tier1_with(
    solver: impl Fn(&Subtraction) -> Result<SubtractionSolver, PeriodError>,
) -> Tier1Report {
    let mut report = Tier1Report::default();
    let mut rng = ChaCha8Rng::seed_from_u64(TIER1_SEED);
    for _ in 0..TIER1_SETS {
        let rules = random_set(&mut rng, TIER1_MAX_ELEMENT, 6);
        compare_solver(&mut report, &rules, solver(&rules), TIER1_LEN);
    }
    // The Fibonacci set of hdu1848 (preperiod 3072, period 612): far enough to
    // test several periods of the extension.
    let fib = Subtraction::fibonacci(1000).expect("limit >= 1");
    compare_solver(&mut report, &fib, solver(&fib), 20_000);
    // Golden data: A014588 and the period 7 of {2, 3, 5}.
    if let Ok(s) = solver(&fib) {
        for (n, &v) in A014588_PREFIX.iter().enumerate() {
            report.compare(format_args!("A014588({n})"), s.grundy(n as u64), v);
        }
    }
    let s235 = Subtraction::new(vec![2, 3, 5]).expect("valid set");
    let period = solver(&s235).map(|s| s.period()).ok();
    report.compare("period of {2,3,5}", period, Some(7));
    // The Fibonacci set of declarations (`subtract = "fibonacci"`): its values to
    // FIBONACCI_MAX_PILE (a solver of the set up to 987 below 1000, a table past it)
    // against a plain mex over the Fibonacci numbers, listed here.
    let mut fibs = vec![1u64, 2];
    while fibs[fibs.len() - 1] + fibs[fibs.len() - 2] <= FIBONACCI_MAX_PILE {
        fibs.push(fibs[fibs.len() - 1] + fibs[fibs.len() - 2]);
    }
    let mut plain: Vec<u64> = Vec::with_capacity(FIBONACCI_MAX_PILE as usize + 1);
    for n in 0..=FIBONACCI_MAX_PILE {
        let mut seen = 0u64;
        for &f in fibs.iter().take_while(|&&f| f <= n) {
            seen |= 1 << plain[(n - f) as usize].min(63);
        }
        let v = u64::from((!seen).trailing_zeros());
        report.compare(format_args!("fibonacci g({n})"), fibonacci_grundy(n), v);
        plain.push(v);
    }
    report
}

impl Subject for SubtractionSubject {
    type Rules = Subtraction;

    fn id(&self) -> &'static str {
        "subtraction"
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
        tier1_with(SubtractionSolver::new)
    }

    fn instances(&self, size: u32) -> Vec<(Subtraction, Piles)> {
        // Every non-empty subset of 1..=5 (31 sets, {2,3,5} among them), and every
        // position of up to 3 piles summing to `size`.
        let piles = crate::verify::compositions(size as u64, 3);
        let mut out = Vec::new();
        for mask in 1u32..(1 << ENUM_MAX_ELEMENT) {
            let set: Vec<u64> = (1..=ENUM_MAX_ELEMENT)
                .filter(|&e| mask & (1 << (e - 1)) != 0)
                .collect();
            let rules = Subtraction::new(set).expect("non-empty, positive");
            out.extend(piles.iter().map(|p| (rules.clone(), Piles(p.clone()))));
        }
        out
    }

    fn random_instance(&self, rng: &mut ChaCha8Rng) -> (Subtraction, Piles) {
        let rules = match rng.gen_range(0..20) {
            0 | 1 => Subtraction::fibonacci(rng.gen_range(1..=100)).expect("limit >= 1"),
            2 | 3 => Subtraction::new(vec![2, 3, 5]).expect("valid set"),
            4..=9 => random_set(rng, 8, 4),
            10 => return far_instance(rng),
            _ => random_set(rng, 30, 5),
        };
        let piles = match rng.gen_range(0..8) {
            // One tall pile: long enough to cross the preperiod of most small sets.
            0 => vec![rng.gen_range(0..=400)],
            1 => (0..2).map(|_| rng.gen_range(0..=40)).collect(),
            _ => {
                let n = rng.gen_range(1..=4);
                (0..n).map(|_| rng.gen_range(0..=14)).collect()
            }
        };
        (rules, Piles(piles))
    }

    fn fast(&self, rules: &Subtraction, pos: &Piles) -> Analysis<Take> {
        match &*self.solver(rules) {
            Ok(s) => s.analyze(pos),
            Err(_) => {
                // No period within the cap (a set with a huge amount, from `--rules`):
                // the values of the pile sizes these piles can reach, no more. The
                // oracle has already solved the position, so they are few.
                let g = grundy_reachable(rules.set(), &pos.0);
                analyze_by(rules.set(), |n| g[&n], pos)
            }
        }
    }
}

// ---------------------------------------------------------------------------------
// How declarations use subtraction games: take an amount of a finite set from one
// pile. The set is a list, or `fibonacci`: 1, 2, 3, 5, 8, ... (hdu1848), the
// Fibonacci numbers up to the largest pile, which for those piles is the whole
// infinite Fibonacci game.

/// Largest pile of the Fibonacci game: its Grundy table is computed up to here.
pub const FIBONACCI_MAX_PILE: u64 = 1_000_000;

/// Largest pile of a set answered from a plain table (no proven period): the table
/// grows on demand up to here (16 MiB).
pub const SET_TABLE_MAX_PILE: u64 = 1 << 22;

/// Sets whose largest amount is at most this get their period proven first (within
/// [`PERIOD_CAP`] values), so any pile is answered; larger sets (contest sets of
/// amounts up to 10^4, whose period may be far beyond any pile asked about) use a
/// plain table grown to the largest pile asked about.
const PERIOD_MAX_AMOUNT: u64 = 64;
const PERIOD_CAP: usize = 1 << 16;

/// The fast side of a declared subtraction game.
pub enum DeclaredSet {
    /// A set with a proven period.
    Set(SubtractionSolver),
    /// A set answered from a plain table.
    Table(SetTable),
    /// The Fibonacci game.
    Fibonacci,
}

/// The Grundy values of one set, by mex, as far as the piles asked about need (one
/// table per set: the rules of one case own it).
pub struct SetTable {
    set: Vec<u64>,
    g: Mutex<Vec<u32>>,
}

impl SetTable {
    /// Calls `f` with the values of piles `0..=max` (`max` at most
    /// [`SET_TABLE_MAX_PILE`]).
    fn with<R>(&self, max: u64, f: impl FnOnce(&[u32]) -> R) -> R {
        let mut g = self.g.lock().unwrap_or_else(|e| e.into_inner());
        let need = max.min(SET_TABLE_MAX_PILE) as usize + 1;
        if g.len() < need {
            let mut seen = vec![false; self.set.len() + 2];
            let have = g.len();
            g.reserve(need - have);
            for n in have..need {
                for &s in self.set.iter().take_while(|&&s| s as usize <= n) {
                    seen[g[n - s as usize] as usize] = true;
                }
                let v = seen.iter().position(|&b| !b).unwrap_or(seen.len());
                for &s in self.set.iter().take_while(|&&s| s as usize <= n) {
                    seen[g[n - s as usize] as usize] = false;
                }
                g.push(v as u32);
            }
        }
        f(&g)
    }
}

/// The Grundy value of one pile of the Fibonacci game, `n <= FIBONACCI_MAX_PILE`.
fn fibonacci_grundy(n: u64) -> u64 {
    static SMALL: OnceLock<SubtractionSolver> = OnceLock::new();
    static BIG: OnceLock<Vec<u64>> = OnceLock::new();
    if n <= 1000 {
        let s = SMALL.get_or_init(|| {
            let set = Subtraction::fibonacci(1000).expect("limit >= 1");
            SubtractionSolver::new(&set).expect("the Fibonacci set up to 987 has period 612")
        });
        return s.grundy(n);
    }
    let t = BIG.get_or_init(|| {
        let set = Subtraction::fibonacci(FIBONACCI_MAX_PILE).expect("limit >= 1");
        table(set.set(), FIBONACCI_MAX_PILE as usize + 1)
    });
    t[n.min(FIBONACCI_MAX_PILE) as usize]
}

impl DeclaredSet {
    /// Calls `f` with the Grundy function of single piles up to `max`.
    fn values<R>(&self, max: u64, f: impl FnOnce(&dyn Fn(u64) -> u64) -> R) -> R {
        match self {
            DeclaredSet::Set(s) => f(&|n| s.grundy(n)),
            DeclaredSet::Table(t) => t.with(max, |g| f(&|n| u64::from(g[n as usize]))),
            DeclaredSet::Fibonacci => f(&fibonacci_grundy),
        }
    }
    /// The oracle's rules: for the Fibonacci game, the numbers up to the largest pile.
    fn oracle_rules(&self, position: &[u64]) -> Subtraction {
        match self {
            DeclaredSet::Set(s) => Subtraction::new(s.set().to_vec()).expect("valid set"),
            DeclaredSet::Table(t) => Subtraction::new(t.set.clone()).expect("valid set"),
            DeclaredSet::Fibonacci => {
                let limit = position.iter().copied().max().unwrap_or(1).max(1);
                Subtraction::fibonacci(limit).expect("limit >= 1")
            }
        }
    }
}

impl declared::Declare for SubtractionSubject {
    type Oracle = Subtraction;
    type Fast = DeclaredSet;
    const ID: &'static str = "subtraction";
    const PARAMETERS: &'static [declared::ParamSpec] = &[declared::ParamSpec {
        name: "set",
        kind: declared::ParamKind::List,
        about: "the amounts a move may take, or `fibonacci` (1, 2, 3, 5, 8, ...)",
    }];
    const POSITION: &'static str = "pile sizes";
    const MOVE_FIELDS: &'static [&'static str] = &["pile", "amount"];

    fn build(params: &[declared::ParamValue<'_>]) -> Result<DeclaredSet, String> {
        use declared::ParamValue;
        match params.first() {
            Some(ParamValue::Name("fibonacci")) => Ok(DeclaredSet::Fibonacci),
            Some(ParamValue::List(set)) => {
                // Any order, repeats allowed: the rules keep the set sorted, once each.
                let rules = Subtraction::new(set.to_vec()).map_err(|e| e.to_string())?;
                let max = rules.set().last().copied().unwrap_or(0);
                if max <= PERIOD_MAX_AMOUNT {
                    if let Ok(solver) = SubtractionSolver::with_cap(&rules, PERIOD_CAP) {
                        return Ok(DeclaredSet::Set(solver));
                    }
                }
                Ok(DeclaredSet::Table(SetTable {
                    set: rules.set().to_vec(),
                    g: Mutex::new(Vec::new()),
                }))
            }
            Some(ParamValue::Name(n)) => Err(format!(
                "unknown subtraction set {n:?}: give a list of amounts or `fibonacci`"
            )),
            _ => Err("parameter set must be a list of amounts or `fibonacci`".into()),
        }
    }
    fn check(fast: &DeclaredSet, position: &[u64]) -> Result<(), String> {
        let (limit, what) = match fast {
            DeclaredSet::Fibonacci => (FIBONACCI_MAX_PILE, "the largest of the Fibonacci game"),
            DeclaredSet::Table(_) => (
                SET_TABLE_MAX_PILE,
                "the largest pile of a set without a proven period",
            ),
            DeclaredSet::Set(_) => return Ok(()),
        };
        if let Some(&v) = position.iter().find(|&&v| v > limit) {
            return Err(format!("pile {v} is above {limit}, {what}"));
        }
        Ok(())
    }
    fn first_wins(fast: &DeclaredSet, position: &[u64]) -> Result<bool, String> {
        let max = position.iter().copied().max().unwrap_or(0);
        Ok(fast.values(max, |g| position.iter().fold(0, |x, &n| x ^ g(n)) != 0))
    }
    fn analyze(fast: &DeclaredSet, position: &[u64]) -> Result<Analysis<Take>, String> {
        let max = position.iter().copied().max().unwrap_or(0);
        Ok(fast.values(max, |g| {
            let set = match fast {
                DeclaredSet::Set(s) => s.set().to_vec(),
                DeclaredSet::Table(t) => t.set.clone(),
                DeclaredSet::Fibonacci => fast.oracle_rules(position).set().to_vec(),
            };
            analyze_by(&set, g, &Piles(position.to_vec()))
        }))
    }
    fn move_fields(t: &Take, _: &[u64]) -> [u64; 4] {
        [t.pile as u64, t.amount, 0, 0]
    }
    fn oracle(
        fast: &DeclaredSet,
        position: &[u64],
        _: usize,
    ) -> Result<(Subtraction, Piles), SearchError> {
        Ok((fast.oracle_rules(position), Piles(position.to_vec())))
    }
    fn make_losing(
        fast: &DeclaredSet,
        p: &mut [u64],
        b: &[(u64, u64)],
        rng: &mut ChaCha8Rng,
    ) -> bool {
        let max = b
            .iter()
            .map(|x| x.1)
            .chain(p.iter().copied())
            .max()
            .unwrap_or(0);
        if max > SET_TABLE_MAX_PILE && matches!(fast, DeclaredSet::Table(_)) {
            return false;
        }
        fast.values(max, |g| {
            declared::losing_sum(p, b, rng, g, |need, lo, hi, rng| {
                declared::scan_for_value(need, lo, hi, rng, g)
            })
        })
    }
    fn component_values(fast: &DeclaredSet, position: &[u64]) -> Option<Vec<u64>> {
        let max = position.iter().copied().max().unwrap_or(0);
        if <Self as declared::Declare>::check(fast, position).is_err() {
            return None;
        }
        Some(fast.values(max, |g| position.iter().map(|&n| g(n)).collect()))
    }
}

// ---------------------------------------------------------------------------------
// The `subtraction_agree` fuzz target.

/// `subtraction_agree`: the set as a bit mask of 1..=8, then up to 3 piles of up to 20.
impl crate::fuzzing::AgreeTarget for SubtractionSubject {
    const FIELDS: usize = 1;
    fn fuzz_instance(
        &self,
        fields: &[u8],
        rest: &[u8],
    ) -> Option<(
        Subtraction,
        <Subtraction as sgcheck_oracles::Rules>::Position,
    )> {
        let rules = Subtraction::new(crate::fuzzing::amounts(fields[0])).ok()?;
        Some((rules, Piles(crate::fuzzing::small_piles(rest, 3, 20)?)))
    }
}

// ---------------------------------------------------------------------------------
// Its line in the registry.

impl crate::games::BuiltIn for SubtractionSubject {
    const ID: &'static str = "subtraction";
    const SUMMARY: &'static str =
        "piles; take s stones from one pile, s in a finite set S; normal play. \
         Rules: the set, e.g. 2,3,5";
    const DECLARABLE: Option<&'static dyn declared::DeclarableGame> =
        Some(declared::Declared::<Self>::GAME);
}

// ---------------------------------------------------------------------------------
// Checking users' own solvers of it ([`crate::Game`]).

impl crate::Game for Subtraction {
    from_subject!(SubtractionSubject::default());
    fn shrink(&self, pos: &Piles) -> Vec<(Subtraction, Piles)> {
        let mut out: Vec<(Subtraction, Piles)> = crate::shrink::set(self.set())
            .into_iter()
            .filter_map(|s| Some((Subtraction::new(s).ok()?, pos.clone())))
            .collect();
        out.extend(crate::games::shrink_piles(self, pos));
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::verify::Planted;
    use sgcheck_oracles::Solver;
    use std::time::Duration;

    #[test]
    fn planted_tier1_bug_reaches_the_report() {
        // Every preperiod reported one value too late (what a wrong prefix hash did):
        // the values are all still right, only the comparison with the smallest
        // preperiod found from the plain table sees it.
        let planted = || {
            tier1_with(|rules| {
                let s = SubtractionSolver::new(rules)?;
                let preperiod = s.preperiod + 1;
                let len = preperiod + s.period;
                Ok(SubtractionSolver {
                    table: table(rules.set(), len).iter().map(|&v| v as u32).collect(),
                    preperiod,
                    ..s
                })
            })
        };
        crate::verify::PlantedTier1 {
            subject: &SubtractionSubject::default(),
            tier1: &planted,
        }
        .assert_caught("(preperiod, period)");
    }

    fn set(v: &[u64]) -> Subtraction {
        Subtraction::new(v.to_vec()).unwrap()
    }

    #[test]
    fn fibonacci_golden_a014588() {
        // Golden sequence (OEIS A014588) and its zeros (OEIS A001581:
        // 0,4,10,14,20,24,30,36).
        let s = SubtractionSolver::new(&Subtraction::fibonacci(1000).unwrap()).unwrap();
        for (n, &v) in A014588_PREFIX.iter().enumerate() {
            assert_eq!(s.grundy(n as u64), v, "n={n}");
        }
        let zeros: Vec<u64> = (0..=36).filter(|&n| s.grundy(n) == 0).collect();
        assert_eq!(zeros, [0, 4, 10, 14, 20, 24, 30, 36]);
    }

    #[test]
    fn period_of_235_is_7() {
        // Known period: "subtraction {2,3,5} has period 7" (pure: preperiod 0).
        let s = SubtractionSolver::new(&set(&[2, 3, 5])).unwrap();
        assert_eq!((s.preperiod(), s.period()), (0, 7));
        // One period: 0,0,1,1,2,2,3 (mex by hand: g(4) = mex{g(2), g(1)} = mex{1,0}).
        let first: Vec<u64> = (0..7).map(|n| s.grundy(n)).collect();
        assert_eq!(first, [0, 0, 1, 1, 2, 2, 3]);
    }

    #[test]
    fn known_small_periods() {
        // {1}: parity, period 2. {1,2,3} (Bash with m = 3): period 4, n mod 4.
        // Fibonacci up to 987 (hdu1848's set): measured here, preperiod 3072 and
        // period 612; the tier-1 comparison to 20000 backs it.
        let s = SubtractionSolver::new(&set(&[1])).unwrap();
        assert_eq!((s.preperiod(), s.period()), (0, 2));
        let s = SubtractionSolver::new(&set(&[1, 2, 3])).unwrap();
        assert_eq!((s.preperiod(), s.period()), (0, 4));
        assert_eq!(s.grundy(u64::MAX), u64::MAX % 4);
        let fib = SubtractionSolver::new(&Subtraction::fibonacci(1000).unwrap()).unwrap();
        assert_eq!((fib.preperiod(), fib.period()), (3072, 612));
    }

    #[test]
    fn extension_matches_plain_table() {
        // A preperiodic set: {3, 5, 7, 19} compared far past its table.
        for v in [&[3u64, 5, 7, 19][..], &[4, 7, 9], &[1, 13, 29]] {
            let s = SubtractionSolver::new(&set(v)).unwrap();
            let t = table(v, 3000);
            for (n, &g) in t.iter().enumerate() {
                assert_eq!(s.grundy(n as u64), g, "{v:?} n={n}");
            }
        }
    }

    #[test]
    fn reachable_values_match_the_table() {
        // The fallback for sets without a period in reach: same values as the table.
        let v = [3u64, 5, 7, 19];
        let t = table(&v, 400);
        let g = grundy_reachable(&v, &[399, 250, 2]);
        assert_eq!(g[&399], t[399]);
        assert!(g.iter().all(|(&n, &x)| t[n as usize] == x));
        // A single huge amount: only the multiples below the pile are visited.
        let g = grundy_reachable(&[1_000_000_000], &[1_000_000_000_000]);
        assert_eq!(g.len(), 1001);
        assert_eq!(g[&1_000_000_000_000], 0);
        // {10^9}: g(n) = floor(n / 10^9) mod 2; 1.5e9 has value 1, 7 has 0.
        let subject = SubtractionSubject::default();
        let a = subject.fast(&set(&[1_000_000_000]), &Piles(vec![1_500_000_000, 7]));
        assert_eq!(
            a.winning,
            vec![Take {
                pile: 0,
                amount: 1_000_000_000
            }]
        );
    }

    #[test]
    fn caps_are_errors_not_panics() {
        assert_eq!(
            SubtractionSolver::with_cap(&set(&[100]), 50),
            Err(PeriodError::TooLarge { max: 100, cap: 50 })
        );
        // {100} has period 200: it needs more than 150 values.
        assert_eq!(
            SubtractionSolver::with_cap(&set(&[100]), 150),
            Err(PeriodError::NotFound { cap: 150 })
        );
        assert!(SubtractionSolver::with_cap(&set(&[100]), 2000).is_ok());
    }

    #[test]
    fn spec_samples_hdu1848() {
        // hdu1848 statement sample: `1 1 1` => Fibo, `1 4 1` => Nacci.
        let s = SubtractionSolver::new(&Subtraction::fibonacci(1000).unwrap()).unwrap();
        let a = s.analyze(&Piles(vec![1, 1, 1]));
        assert!(a.win);
        assert_eq!(a.count(), 3);
        assert!(!s.analyze(&Piles(vec![1, 4, 1])).win);
    }

    #[test]
    fn agrees_with_oracle_on_a_few_sets() {
        for v in [&[2u64, 3, 5][..], &[1, 4], &[3]] {
            let rules = set(v);
            let s = SubtractionSolver::new(&rules).unwrap();
            let mut o = Solver::new(rules.clone());
            for a in 0..=9 {
                for b in 0..=9 {
                    let pos = Piles(vec![a, b, 4]);
                    let x = o.analyze(&pos).unwrap();
                    let f = s.analyze(&pos);
                    assert_eq!((f.win, f.winning), (x.win, x.winning), "{rules} {pos}");
                }
            }
        }
    }

    /// A planted bug in the answer for sets past the period cap: a fallback that gives
    /// up and calls every position lost.
    fn gives_up_past_the_cap(rules: &Subtraction, pos: &Piles) -> Analysis<Take> {
        match SubtractionSolver::new(rules) {
            Ok(s) => s.analyze(pos),
            Err(_) => Analysis {
                win: false,
                winning: Vec::new(),
                remoteness: None,
            },
        }
    }

    #[test]
    fn planted_fallback_bug_is_caught_on_a_far_set() {
        // Only sets whose amounts reach the cap take the fallback: tier 2 draws them
        // (`far_instance`), and the disagreement names one.
        let d = Planted {
            subject: &SubtractionSubject::default(),
            fast: gives_up_past_the_cap,
        }
        .first_disagreement(Duration::from_secs(3))
        .expect("planted bug not found");
        assert!(
            d.rules
                .split(',')
                .all(|a| a.parse::<u64>().unwrap() >= DEFAULT_CAP as u64),
            "{d:?}"
        );
    }

    /// A planted bug: period detection with a window of one value instead of k
    /// (a repeat of a single value taken as proof of a period).
    fn short_window(rules: &Subtraction, pos: &Piles) -> Analysis<Take> {
        SubtractionSolver::build(rules.set(), 1, DEFAULT_CAP)
            .unwrap()
            .analyze(pos)
    }

    #[test]
    fn planted_short_window_is_caught_small() {
        // {2}: 0,0,1,1,0,0,...; a one-value window sees g(0) = g(1) and calls the
        // sequence constant: a pile of 2 looks lost.
        let bad = SubtractionSolver::build(&[2], 1, 100).unwrap();
        assert_eq!(bad.grundy(2), 0);
        let d = Planted {
            subject: &SubtractionSubject::default(),
            fast: short_window,
        }
        .first_disagreement(Duration::from_secs(3))
        .expect("planted bug not found");
        let total: u64 = d
            .position
            .split(',')
            .map(|p| p.parse::<u64>().unwrap())
            .sum();
        assert!(total <= 3, "{d:?}");
    }
}
