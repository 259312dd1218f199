//! Heap games declared as data: the rules come from a problem declaration's `[game]`
//! table (a take-and-break code, a subtraction set, a take range, or Grundy's unequal
//! split; normal or misère play), and the fast solver is derived from them.
//!
//! The rules text and the moves are those of the oracle's
//! [`sgcheck_oracles::games::heap_code`] (read there for the rules). This side reads
//! the same text with its own reader ([`HeapRules::parse`]) and enumerates one heap's
//! options itself; the two only share the position and move types.
//!
//! **Normal play.** A position is a sum of heaps, so its value is the XOR of the heaps'
//! Grundy values. g(n) = mex of the values of n's options: nothing left (0), one heap
//! (g(rest)), two heaps (g(a) xor g(b)), three heaps (g(a) xor g(b) xor g(c)). The table
//! is built lazily, doubling up to the largest heap asked about, and never past
//! [`HeapRules::bound`], which is sized from the rules before anything is built (at
//! most [`MAX_TABLE`] values and about [`WORK_LIMIT`] steps of mex work).
//!
//! **Periods.** When every move removes at most t tokens (a code without a repeating
//! digit, an explicit subtraction set, a range) and leaves at most r heaps, the octal
//! periodicity theorem (Guy and Smith) in its general form proves a period from the
//! table alone: if g(n + p) = g(n) for every e <= n < r·e + (r - 1)·p + t (e >= 1),
//! then for every n >= e. Why: for larger n, an option of n + p removes k <= t and
//! leaves at most r parts totalling at least n + p - t >= r·(e + p), so its largest
//! part c is at least e + p, and g(c - p) = g(c) (by induction, c < n + p): the option
//! of n leaving c - p instead has the same value; conversely an option of n has a part
//! c >= e, and c + p gives an option of n + p of the same value. With r = 2 this is
//! the theorem as [`crate::games::take_break`] states it. Checking the range needs the
//! table up to r·e + r·p + t; the smallest such p is found by
//! [`crate::verify::smallest_period`]. Heaps past a proven period are answered from
//! it; without one (codes with a repeating digit, named infinite sets, Grundy's game,
//! or no period within the bound) heaps past the table are refused by
//! [`Declare::check`] with a message saying so. Nothing is ever called periodic from
//! an observed repetition alone.
//!
//! **Misère play** has no Sprague–Grundy shortcut in general. Rules proven to play
//! like misère Nim on the heaps' normal-play values, heap by heap up to the largest
//! heap asked about ([`misere`]), are answered by that rule; others by the exhaustive
//! oracle, for positions whose heaps total at most [`MISERE_MAX_TOKENS`];
//! [`Declare::check`] refuses larger ones, saying why (and which heap broke the proof).

pub mod misere;

use crate::games::analyze_sum;
use crate::games::declared::{self, Declare, ParamKind, ParamSpec, ParamValue, Reach};
use crate::games::take_break::{self, Breaks, Period};
use rand_chacha::ChaCha8Rng;
use sgcheck_oracles::games::heap_code::{HeapCode, PartsMove};
use sgcheck_oracles::games::nim::Piles;
use sgcheck_oracles::{Analysis, SearchError, Solver};
use std::sync::Mutex;
use std::time::Instant;

/// The most Grundy values one rules' table holds (4 MiB).
pub const MAX_TABLE: usize = 1 << 20;
/// About how many option visits building one table may cost (a few seconds at most).
pub const WORK_LIMIT: u64 = 200_000_000;
/// Heaps of rules that split into three parts are at most this big when winning moves
/// are listed (their enumeration is quadratic in the heap).
pub const MAX_TRIPLE_HEAP: u64 = 4096;
/// [`HeapRules::analyze`] extends its table by the period to the largest heap of a
/// position below this size; from it on, splits are valued through the period one
/// remainder at a time (tier 1 checks both ways).
pub const EXTEND_BELOW: u64 = 1 << 22;
/// Misère positions answered by search total at most this many tokens.
pub const MISERE_MAX_TOKENS: u64 = 40;
/// Most digits of a code (as the oracle's reader allows).
pub const MAX_DIGITS: usize = sgcheck_oracles::games::heap_code::MAX_DIGITS;
/// Most amounts of a subtraction set.
pub const MAX_SET: usize = sgcheck_oracles::games::heap_code::MAX_SET;

/// The amounts a subtraction move may remove, as the fast side reads them.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Set {
    List(Vec<u64>),
    PowersOfTwo,
    Fibonacci,
}

/// The fast side's reading of the rules.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Moves {
    /// d0 (bits 4 and 8 only).
    d0: u8,
    /// d1.. of a code.
    digits: Vec<u8>,
    /// The repeating digit of a code.
    repeat: Option<u8>,
    /// A subtraction set (every amount in it is digit 3).
    set: Option<Set>,
    /// A take range (every amount in it is digit 3).
    range: Option<(u64, u64)>,
    /// Grundy's game: d0 = 4 with unequal parts.
    unequal: bool,
}

impl Moves {
    /// The digit of removing k (k >= 1).
    fn digit(&self, k: u64) -> u8 {
        if let Some(s) = &self.set {
            let yes = match s {
                Set::List(v) => v.binary_search(&k).is_ok(),
                Set::PowersOfTwo => k.is_power_of_two(),
                Set::Fibonacci => is_fibonacci(k),
            };
            return if yes { 3 } else { 0 };
        }
        if let Some((p, q)) = self.range {
            return if p <= k && k <= q { 3 } else { 0 };
        }
        match usize::try_from(k - 1).ok().and_then(|i| self.digits.get(i)) {
            Some(&d) => d,
            None => self.repeat.unwrap_or(0),
        }
    }

    /// The largest amount a move removes, when there is one (`None`: unbounded).
    fn max_take(&self) -> Option<u64> {
        match (&self.set, self.range) {
            (Some(Set::List(v)), _) => v.last().copied(),
            (Some(_), _) => None,
            (None, Some((_, q))) => Some(q),
            (None, None) if self.unequal => Some(0),
            (None, None) => match self.repeat {
                Some(_) => None,
                None => Some(self.digits.len() as u64),
            },
        }
    }

    /// The most heaps one move leaves.
    fn parts(&self) -> u64 {
        let all = self
            .digits
            .iter()
            .chain(self.repeat.iter())
            .fold(self.d0, |a, &d| a | d);
        if all & 8 != 0 {
            3
        } else if all & 4 != 0 || self.unequal {
            2
        } else {
            1
        }
    }

    /// The amounts k in 1..=n with a non-zero digit, ascending.
    fn amounts(&self, n: u64, mut f: impl FnMut(u64, u8)) {
        match (&self.set, self.range) {
            (Some(Set::List(v)), _) => v.iter().take_while(|&&k| k <= n).for_each(|&k| f(k, 3)),
            (Some(Set::PowersOfTwo), _) => {
                let mut k = 1u64;
                while k <= n {
                    f(k, 3);
                    k = match k.checked_mul(2) {
                        Some(x) => x,
                        None => break,
                    };
                }
            }
            (Some(Set::Fibonacci), _) => {
                let (mut a, mut b) = (1u64, 2u64);
                while a <= n {
                    f(a, 3);
                    let c = a.saturating_add(b);
                    if b == a {
                        break;
                    }
                    a = b;
                    b = c;
                }
            }
            (None, Some((p, q))) => (p..=q.min(n)).for_each(|k| f(k, 3)),
            (None, None) => {
                if self.unequal {
                    return;
                }
                let last = match self.repeat {
                    Some(_) => n,
                    None => (self.digits.len() as u64).min(n),
                };
                for k in 1..=last {
                    let d = self.digit(k);
                    if d != 0 {
                        f(k, d);
                    }
                }
            }
        }
    }

    /// Whether a table of `len` values is surely within [`Moves::bound`], known without
    /// running its loop (which walks up to [`MAX_TABLE`] heaps): for rules with
    /// finitely many amounts, each heap's work there is at most the same count with
    /// every amount's digit, so `len` times the work of heap `len` bounds the sum.
    /// `false` means "not known", not "beyond".
    fn surely_within(&self, len: usize) -> bool {
        if len > MAX_TABLE {
            return false;
        }
        if len <= 64 {
            return true;
        }
        let (nz, mut two, mut three) = match (&self.set, self.range, self.repeat) {
            (Some(Set::List(v)), _, _) => (v.len() as u64, 0, 0),
            (Some(_), _, _) => return false,
            (None, Some((p, q)), _) => (q - p + 1, 0, 0),
            (None, None, Some(_)) => return false,
            (None, None, None) if self.unequal => (0, 0, 0),
            (None, None, None) => {
                let nz = self.digits.iter().filter(|&&d| d != 0).count() as u64;
                let two = self.digits.iter().filter(|&&d| d & 4 != 0).count() as u64;
                let three = self.digits.iter().filter(|&&d| d & 8 != 0).count() as u64;
                (nz, two, three)
            }
        };
        two += u64::from(self.d0 & 4 != 0 || self.unequal);
        three += u64::from(self.d0 & 8 != 0);
        let m = len as u64;
        let per_heap = (nz + 1)
            .saturating_add(two.saturating_mul(m / 2))
            .saturating_add(three.saturating_mul(m * m / 4));
        m.saturating_mul(per_heap) <= WORK_LIMIT
    }

    /// The table length building it may reach within [`WORK_LIMIT`] (at least 64).
    fn bound(&self) -> usize {
        // Per heap n: one visit per amount, n/2 per two-way split, at most n^2/4 per
        // three-way one (n first parts times the distinct pair values of the rest).
        let (mut nz, mut two, mut three) =
            (0u64, u64::from(self.d0 & 4 != 0 || self.unequal), 0u64);
        three += u64::from(self.d0 & 8 != 0);
        let mut work = 0u64;
        let mut n = 0usize;
        while n < MAX_TABLE {
            if n >= 1 && !self.unequal {
                let d = self.digit(n as u64);
                nz += u64::from(d != 0);
                two += u64::from(d & 4 != 0);
                three += u64::from(d & 8 != 0);
            }
            let m = n as u64;
            work = work
                .saturating_add(nz + 1)
                .saturating_add(two.saturating_mul(m / 2))
                .saturating_add(three.saturating_mul(m * m / 4));
            if work > WORK_LIMIT {
                break;
            }
            n += 1;
        }
        n.max(64)
    }
}

fn is_fibonacci(k: u64) -> bool {
    let (mut a, mut b) = (1u64, 2u64);
    while a < k {
        let c = a.saturating_add(b);
        if c == b {
            return false;
        }
        a = b;
        b = c;
    }
    a == k
}

/// The table of one rules: g(0..), the pair values when some move leaves three heaps,
/// and the proven period.
#[derive(Debug, Default)]
struct Table {
    g: Vec<u32>,
    /// For s = 0..: the distinct values g(a) xor g(s - a), 1 <= a <= s / 2.
    pairs: Vec<Vec<u32>>,
    period: Option<Period>,
    /// Whether the table reached its bound without a period.
    full: bool,
    /// The largest value in `g`.
    max: u32,
    /// Marks of the option values of the heap being computed: `stamp[v] == generation`
    /// when v was seen. Its length is a power of two above every XOR of table values,
    /// so a split's value indexes it masked, without a bounds check.
    stamp: Vec<u32>,
    generation: u32,
    /// The rare/common mask, once chosen on the plain prefix (see [`HeapRules::extend`]).
    mask: Option<u32>,
    /// Whether some values were computed by the rare/common method.
    sparse_used: bool,
}

impl Table {
    /// A fresh set of marks for the next heap, long enough for every XOR of the
    /// table's values; returns the generation that means "seen".
    fn next_marks(&mut self) -> u32 {
        let need = (self.max as usize + 1).next_power_of_two().max(64);
        if self.stamp.len() < need {
            self.stamp.resize(need, 0);
        }
        self.generation = self.generation.wrapping_add(1);
        if self.generation == 0 {
            self.stamp.fill(0);
            self.generation = 1;
        }
        self.generation
    }

    /// Appends `v` to `g`.
    fn push(&mut self, v: u32) {
        self.g.push(v);
        self.max = self.max.max(v);
    }

    /// g(x) of a heap whose value is known without building more of the table: from
    /// the table, or from the proven period (0 when neither has it).
    fn known(&self, x: u64) -> u64 {
        if let Some(&v) = usize::try_from(x).ok().and_then(|i| self.g.get(i)) {
            return u64::from(v);
        }
        match self.period {
            Some(p) => periodic(&self.g, p, x),
            None => 0,
        }
    }
}

/// A table whose period is proven, for lookups without the lock: g(n) for n past the
/// table is g(preperiod + (n - preperiod) mod period), the remainder taken by a
/// multiplication (Lemire's "faster remainder by direct computation") where the
/// numbers fit in 32 bits.
#[derive(Debug)]
struct Frozen {
    g: Vec<u32>,
    period: Period,
    /// 2^64 / period, rounded up (wrapping to 0 for period 1).
    inverse: u64,
}

impl Frozen {
    fn new(g: Vec<u32>, period: Period) -> Frozen {
        let inverse = (u64::MAX / period.period as u64).wrapping_add(1);
        Frozen { g, period, inverse }
    }

    #[inline]
    fn value(&self, n: u64) -> u64 {
        if let Some(&v) = usize::try_from(n).ok().and_then(|i| self.g.get(i)) {
            return u64::from(v);
        }
        let p = self.period;
        let x = n - p.preperiod as u64;
        let off = match (u32::try_from(x), u32::try_from(p.period)) {
            (Ok(x), Ok(d)) => {
                let low = self.inverse.wrapping_mul(u64::from(x));
                ((u128::from(low) * u128::from(d)) >> 64) as usize
            }
            _ => (x % p.period as u64) as usize,
        };
        u64::from(self.g[p.preperiod + off])
    }
}

/// g(n) from a table `g` that holds the period `p` (and g(n) itself when n is within
/// it).
fn periodic(g: &[u32], p: Period, n: u64) -> u64 {
    if let Some(&v) = usize::try_from(n).ok().and_then(|i| g.get(i)) {
        return u64::from(v);
    }
    let x = n - p.preperiod as u64;
    // A 32-bit division where it suffices (the usual case): cheaper than 64 bits.
    let off = match (u32::try_from(x), u32::try_from(p.period)) {
        (Ok(x), Ok(q)) => (x % q) as usize,
        _ => (x % p.period as u64) as usize,
    };
    u64::from(g[p.preperiod + off])
}

/// Marks g(a) xor g(s - a) for a in 1..=amax (amax <= s / 2): the two slices walked
/// in opposite directions, the value masked into `stamp` (whose length is a power of
/// two above every XOR of two values of `g`).
fn mark_pairs(stamp: &mut [u32], generation: u32, g: &[u32], s: usize, amax: usize) {
    if amax == 0 {
        return;
    }
    let last = stamp.len() - 1;
    let stamp = &mut stamp[..=last];
    let left = &g[1..=amax];
    let right = &g[s - amax..s];
    // Four pairs a step (the loop is bound by its scattered stores; fewer branches and
    // counter updates per store).
    let mut l4 = left.chunks_exact(4);
    let mut r4 = right.rchunks_exact(4);
    for (l, r) in (&mut l4).zip(&mut r4) {
        stamp[(l[0] ^ r[3]) as usize & last] = generation;
        stamp[(l[1] ^ r[2]) as usize & last] = generation;
        stamp[(l[2] ^ r[1]) as usize & last] = generation;
        stamp[(l[3] ^ r[0]) as usize & last] = generation;
    }
    for (&x, &y) in l4.remainder().iter().zip(r4.remainder().iter().rev()) {
        stamp[(x ^ y) as usize & last] = generation;
    }
}

/// g(0..count) of [`HeapRules::sequence`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sequence {
    /// The values.
    pub values: Vec<u64>,
    /// The proven period, when one was proven within the values computed by mex.
    pub period: Option<Period>,
    /// How many values were computed by mex (the rest follow from the period).
    pub by_mex: usize,
    /// Whether the table past its plain prefix was built by the rare/common method.
    pub sparse: bool,
}

/// The rules of one declared heap game, as the fast side reads and solves them.
#[derive(Debug)]
pub struct HeapRules {
    moves: Moves,
    misere: bool,
    /// The rules in the oracle's notation.
    text: String,
    /// The oracle's rules, read from `text` by the oracle's own reader.
    oracle: HeapCode,
    bound: std::sync::OnceLock<usize>,
    table: Mutex<Table>,
    /// The table and its period once a period is proven (the table no longer grows),
    /// read by [`HeapRules::grundy`] without taking the lock.
    frozen: std::sync::OnceLock<Frozen>,
    /// The amounts with a non-zero digit, (k, d_k) ascending, when they are finitely
    /// many and listed (a code without a repeating digit, an explicit set): the table
    /// loop walks this instead of every k.
    listed: Option<Vec<(u64, u8)>>,
    /// The same rules as the built-in take-and-break engine reads them, when it can
    /// (a code of digits 0..7 with d0 = 0 and no repeating digit, or Grundy's game)
    /// and some move splits: the table past [`take_break::MASK_PREFIX`] values is then
    /// built by its rare/common method, as `sgcheck sequence octal` builds it.
    sparse: Option<Breaks>,
    /// Misère play: how far the misère Nim rule is proven ([`misere`]).
    tame: Mutex<misere::Tame>,
}

fn hex(c: char) -> Option<u8> {
    c.to_digit(16).map(|d| d as u8)
}

impl HeapRules {
    /// Reads the rules text (the oracle's notation: `0.137`, `4.[3]`, `subtract 1,3,4`,
    /// `subtract fibonacci`, `range 2..5`, `split-unequal`, each maybe followed by
    /// ` misere`); an error says what is wrong.
    pub fn parse(text: &str) -> Result<HeapRules, String> {
        let t = text.trim();
        let (body, misere) = match t.strip_suffix(" misere") {
            Some(b) => (b.trim_end(), true),
            None => (t, false),
        };
        let mut moves = Moves {
            d0: 0,
            digits: Vec::new(),
            repeat: None,
            set: None,
            range: None,
            unequal: false,
        };
        if let Some(s) = body.strip_prefix("subtract ") {
            moves.set = Some(match s.trim() {
                "powers-of-two" => Set::PowersOfTwo,
                "fibonacci" => Set::Fibonacci,
                list => {
                    let mut v = Vec::new();
                    for x in list.split(',') {
                        if v.len() >= MAX_SET {
                            return Err(format!("a subtraction set has at most {MAX_SET} amounts"));
                        }
                        let k: u64 = x.trim().parse().map_err(|_| {
                            format!("subtraction amount {:?} is not a number", brief(x.trim()))
                        })?;
                        if k == 0 {
                            return Err("a subtraction amount is at least 1".into());
                        }
                        v.push(k);
                    }
                    v.sort_unstable();
                    v.dedup();
                    Set::List(v)
                }
            });
        } else if let Some(r) = body.strip_prefix("range ") {
            let (p, q) = r.split_once("..").ok_or("a range is `range p..q`")?;
            let p: u64 = p.trim().parse().map_err(|_| "range: p is not a number")?;
            let q: u64 = q.trim().parse().map_err(|_| "range: q is not a number")?;
            if p == 0 || p > q {
                return Err(format!("a take range needs 1 <= p <= q (p = {p}, q = {q})"));
            }
            moves.range = Some((p, q));
        } else if body == "split-unequal" {
            moves.unequal = true;
        } else {
            let (d0, tail) = body.split_once('.').ok_or_else(|| {
                format!(
                    "{:?} is not a code d0.d1d2... (e.g. 0.77, 4.[3])",
                    brief(body)
                )
            })?;
            let mut d0c = d0.chars();
            moves.d0 = match (d0c.next().and_then(hex), d0c.next()) {
                (Some(d), None) => d & 0xC,
                _ => {
                    return Err(format!(
                        "d0 {:?} (before the point) is not one digit 0..F",
                        brief(d0)
                    ))
                }
            };
            if tail.len() > MAX_DIGITS + 2 {
                return Err(format!(
                    "a code has at most {MAX_DIGITS} digits; this one has {}",
                    tail.len()
                ));
            }
            let (plain, rep) = match tail.split_once('[') {
                None => (tail, None),
                Some((plain, r)) => {
                    let inner = r
                        .strip_suffix(']')
                        .ok_or("a bracket `[d]` closes at the end of the code")?;
                    let mut cs = inner.chars();
                    match (cs.next().and_then(hex), cs.next()) {
                        (Some(d), None) => (plain, Some(d)),
                        _ => {
                            return Err(format!(
                                "`[{}]`: the brackets hold one digit 0..F",
                                brief(inner)
                            ))
                        }
                    }
                }
            };
            for (i, c) in plain.chars().enumerate() {
                moves.digits.push(
                    hex(c).ok_or_else(|| {
                        format!("digit {} of the code, {c:?}, is not 0..F", i + 1)
                    })?,
                );
            }
            moves.repeat = rep.filter(|&r| r != 0);
            if moves.repeat.is_none() {
                while moves.digits.last() == Some(&0) {
                    moves.digits.pop();
                }
            }
            if moves.d0 == 0 && moves.digits.is_empty() && moves.repeat.is_none() {
                return Err(format!("the code {:?} allows no move", brief(body)));
            }
        }
        if let Some(Set::List(v)) = &moves.set {
            if v.is_empty() {
                return Err("the subtraction set is empty".into());
            }
        }
        let oracle: HeapCode = t
            .parse()
            .map_err(|e: sgcheck_oracles::NotationError| e.reason)?;
        let listed = match (&moves.set, moves.range, moves.repeat, moves.unequal) {
            (Some(Set::List(v)), _, _, _) => Some(v.iter().map(|&k| (k, 3)).collect()),
            (None, None, None, false) => Some(
                (1..=moves.digits.len() as u64)
                    .map(|k| (k, moves.digit(k)))
                    .filter(|&(_, d)| d != 0)
                    .collect(),
            ),
            _ => None,
        };
        let sparse = if moves.unequal && moves.d0 == 0 {
            Some(Breaks::Grundy)
        } else if moves.set.is_none()
            && moves.range.is_none()
            && !moves.unequal
            && moves.repeat.is_none()
            && moves.d0 == 0
            && moves.digits.iter().all(|&d| d < 8)
            && moves.digits.iter().any(|&d| d & 4 != 0)
        {
            Some(Breaks::Octal(moves.digits.clone()))
        } else {
            None
        };
        Ok(HeapRules {
            bound: std::sync::OnceLock::new(),
            frozen: std::sync::OnceLock::new(),
            listed,
            sparse,
            moves,
            misere,
            text: t.to_string(),
            oracle,
            table: Mutex::new(Table::default()),
            tame: Mutex::new(misere::Tame::default()),
        })
    }

    /// The rules in the oracle's notation.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// Whether the game is played misère.
    pub fn misere(&self) -> bool {
        self.misere
    }

    /// The most values the table is built to (sized from the rules).
    pub fn bound(&self) -> usize {
        *self.bound.get_or_init(|| self.moves.bound())
    }

    /// The proven period once the table holds it (building the table up to `upto`
    /// values and no further, within the bound, to look for it: at 64, 128, ... values
    /// and at `upto`, as `sgcheck sequence octal` does).
    pub fn period(&self, upto: usize) -> Option<Period> {
        let mut t = self.lock();
        self.extend(&mut t, upto, upto);
        t.period
    }

    /// g(0..count) as `sgcheck sequence heap-code` prints it, computed as `sgcheck
    /// sequence octal` computes its codes: the table built to `count` values, a period
    /// looked for at 64, 128, ... values and at `count`, and once one is proven the
    /// rest extended by it in one loop. Rules whose moves leave at most two heaps may
    /// build past their bound (the command's `--time` bounds the work, its `--count`
    /// the memory); others stop there.
    pub fn sequence(&self, count: usize) -> Result<Sequence, String> {
        let mut t = self.lock();
        let bound = (self.moves.parts() <= 2).then_some(usize::MAX);
        self.extend_within(&mut t, count, count, bound);
        if t.period.is_none() && t.g.len() < count {
            return Err(format!(
                "--count {count}: the Grundy table of {} stops at {} values (the bound for \
                 these rules, whose moves leave three heaps) and {}",
                self.text,
                t.g.len(),
                if self.theorem().is_some() {
                    "no period was proven within it"
                } else {
                    "no periodicity theorem applies to them"
                }
            ));
        }
        let by_mex = t.g.len().min(count);
        let mut values: Vec<u64> = t.g[..by_mex].iter().map(|&v| u64::from(v)).collect();
        if let Some(p) = t.period {
            values.reserve(count - by_mex);
            for n in by_mex..count {
                values.push(values[n - p.period]);
            }
        }
        Ok(Sequence {
            values,
            period: t.period,
            by_mex,
            sparse: t.sparse_used,
        })
    }

    /// How many values have been computed by mex so far.
    pub fn table_len(&self) -> usize {
        self.lock().g.len()
    }

    /// How a period is proven for these rules, or why none can be.
    pub fn theorem(&self) -> Option<String> {
        let t = self.moves.max_take()?;
        if self.moves.unequal {
            return None;
        }
        let r = self.moves.parts();
        Some(format!(
            "periodicity theorem (a move removes at most t = {t} tokens and leaves at most \
             r = {r} heaps): g(n + p) = g(n) checked for e <= n < r·e + (r - 1)·p + t"
        ))
    }

    /// Why `p` (found by [`HeapRules::period`]) holds for every heap: the theorem's
    /// range, with its numbers.
    pub fn proof(&self, p: Period) -> String {
        let t = self.moves.max_take().unwrap_or(0);
        let r = self.moves.parts() as usize;
        let e = p.preperiod.max(1);
        let end = (r * e + (r - 1) * p.period) as u64 + t;
        format!(
            "periodicity theorem (a move removes at most t = {t} tokens and leaves at most \
             r = {r} heaps): g(n + {}) = g(n) checked for {e} <= n < {end} = r·e + (r - 1)·p + t",
            p.period
        )
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Table> {
        self.table.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// g(n): from the table, the period, or `None` past the bound without a period.
    /// (Inlined where it is called: once a period is proven, a lookup is a few
    /// instructions, and callers ask for many values in a row.)
    #[inline]
    pub fn grundy(&self, n: u64) -> Option<u64> {
        if let Some(f) = self.frozen.get() {
            return Some(f.value(n));
        }
        self.grundy_locked(n)
    }

    fn grundy_locked(&self, n: u64) -> Option<u64> {
        let mut t = self.lock();
        self.lookup(&mut t, n)
    }

    fn lookup(&self, t: &mut Table, n: u64) -> Option<u64> {
        if let Some(&v) = usize::try_from(n).ok().and_then(|i| t.g.get(i)) {
            return Some(u64::from(v));
        }
        if t.period.is_none() && !t.full {
            let want = usize::try_from(n).unwrap_or(usize::MAX).saturating_add(1);
            self.extend(t, want, usize::MAX);
            if let Some(&v) = usize::try_from(n).ok().and_then(|i| t.g.get(i)) {
                return Some(u64::from(v));
            }
        }
        Some(periodic(&t.g, t.period?, n))
    }

    /// Builds the table to at least `want` values (doubling from 64, within the bound,
    /// and never past `cap`), looking for a period at each doubling when the theorem
    /// applies.
    fn extend(&self, t: &mut Table, want: usize, cap: usize) {
        self.extend_within(t, want, cap, None);
    }

    /// [`HeapRules::extend`] within `bound` values instead of the rules' own bound
    /// (`None`: the rules' bound, computed only when the cheap estimate cannot show
    /// that the table stays within it).
    fn extend_within(&self, t: &mut Table, want: usize, cap: usize, bound: Option<usize>) {
        let bound = || bound.unwrap_or_else(|| self.bound());
        let theorem = if self.moves.unequal {
            None
        } else {
            self.moves.max_take().map(|mt| (mt, self.moves.parts()))
        };
        while t.g.len() < want && t.period.is_none() && !t.full {
            let doubled = (t.g.len().max(32) * 2).min(cap.max(want));
            let target = if self.moves.surely_within(doubled) {
                doubled
            } else {
                doubled.min(bound())
            };
            if !self.build(t, target) {
                // Cut by the deadline in force: no period is looked for in a table
                // that stopped short, and it is not full; a later lookup goes on.
                break;
            }
            if let Some((mt, r)) = theorem {
                let len = t.g.len() as u64;
                let found = crate::verify::smallest_period(&t.g, |e, p| {
                    let (e, p) = (e.max(1) as u64, p as u64);
                    r.saturating_mul(e)
                        .saturating_add(r.saturating_mul(p))
                        .saturating_add(mt)
                        <= len
                });
                t.period = found.map(|(preperiod, period)| Period { preperiod, period });
            }
            if t.period.is_none()
                && !self.moves.surely_within(t.g.len() + 1)
                && t.g.len() >= bound()
            {
                t.full = true;
            }
            if let Some(p) = t.period {
                // The table stops growing: later lookups read it without the lock.
                let _ = self.frozen.set(Frozen::new(t.g.clone(), p));
            }
        }
    }

    /// Builds the table to `target` values: by mex over every option (the plain
    /// table), or, for rules the take-and-break engine reads and past its plain prefix,
    /// by its rare/common method with a mask chosen on that prefix (exact for any mask;
    /// the same steps as `sgcheck sequence octal`), when that mask leaves few rare
    /// values (at most an eighth of the prefix's second half; with more, each value
    /// pairs with too many rare ones and the plain table is faster: 0.106, say).
    ///
    /// A deadline of [`sgcheck_oracles::with_deadline`] in force stops the plain
    /// table (checked every 1,024 values): `false` then, with the values computed so
    /// far kept.
    fn build(&self, t: &mut Table, target: usize) -> bool {
        const PREFIX: usize = take_break::MASK_PREFIX;
        if let Some(b) = self.sparse.as_ref().filter(|_| target > PREFIX) {
            while t.g.len() < PREFIX {
                self.push_next(t);
            }
            let mask = *t
                .mask
                .get_or_insert_with(|| take_break::choose_mask(&t.g[..PREFIX]));
            let late = &t.g[PREFIX / 2..PREFIX];
            let rare = late
                .iter()
                .filter(|&&v| (v & mask).count_ones().is_multiple_of(2))
                .count();
            if rare * 8 <= late.len() {
                let from = t.g.len();
                take_break::extend_sparse(b, &mut t.g, target, mask);
                t.sparse_used |= t.g.len() > from;
                t.max = t.g[from..].iter().copied().fold(t.max, u32::max);
                return true;
            }
        }
        let deadline = sgcheck_oracles::scoped_deadline();
        while t.g.len() < target {
            if t.g.len().is_multiple_of(1024) && deadline.is_some_and(|d| Instant::now() >= d) {
                return false;
            }
            self.push_next(t);
        }
        true
    }

    /// Appends g(n) for the next n, by mex over its options.
    fn push_next(&self, t: &mut Table) {
        let n = t.g.len();
        let three = self.moves.parts() == 3;
        let (d0, unequal) = (self.moves.d0, self.moves.unequal);
        let generation = t.next_marks();
        let stamp = &mut t.stamp[..];
        let last = stamp.len() - 1;
        let g = &t.g;
        let pairs = &t.pairs;
        // Three parts totalling `rest`: a first part a, and a pair value of the rest.
        let mark_triples = |stamp: &mut [u32], rest: usize| {
            for a in 1..=rest.saturating_sub(2) {
                let ga = g[a];
                for &v in &pairs[rest - a] {
                    stamp[(ga ^ v) as usize & last] = generation;
                }
            }
        };
        if d0 & 4 != 0 || unequal {
            let amax = if unequal {
                n.saturating_sub(1) / 2
            } else {
                n / 2
            };
            mark_pairs(stamp, generation, g, n, amax);
        }
        if d0 & 8 != 0 {
            mark_triples(stamp, n);
        }
        let one = |stamp: &mut [u32], k: u64, d: u8| {
            let rest = n - k as usize;
            if rest == 0 && d & 1 != 0 {
                stamp[0] = generation;
            }
            if rest >= 1 && d & 2 != 0 {
                stamp[g[rest] as usize] = generation;
            }
            if rest >= 2 && d & 4 != 0 {
                mark_pairs(stamp, generation, g, rest, rest / 2);
            }
            if rest >= 3 && d & 8 != 0 {
                mark_triples(stamp, rest);
            }
        };
        match &self.listed {
            Some(list) => {
                for &(k, d) in list.iter().take_while(|&&(k, _)| k <= n as u64) {
                    one(stamp, k, d);
                }
            }
            None => self.moves.amounts(n as u64, |k, d| one(stamp, k, d)),
        }
        let mut v = 0u32;
        while stamp.get(v as usize) == Some(&generation) {
            v += 1;
        }
        t.push(v);
        if three {
            let mut p: Vec<u32> = (1..=n / 2).map(|a| t.g[a] ^ t.g[n - a]).collect();
            p.sort_unstable();
            p.dedup();
            t.pairs.push(p);
        }
    }

    /// Whether every heap of `position` has a value (or, misère, whether the search
    /// may take it), and if not, why.
    pub fn covers(&self, position: &[u64]) -> Result<(), String> {
        if self.misere {
            let tame = match self.tame_for(position) {
                Ok(()) => return Ok(()),
                Err(why) => why,
            };
            let total = position.iter().fold(0u64, |a, &n| a.saturating_add(n));
            if total > MISERE_MAX_TOKENS {
                return Err(format!(
                    "misère play ({}) is answered by the misère Nim rule where it is proven, \
                     and it is not here ({tame}); otherwise by exhaustive search, up to heaps \
                     totalling {MISERE_MAX_TOKENS} tokens, and this one totals {total}",
                    self.text
                ));
            }
            return Ok(());
        }
        let Some(&max) = position.iter().max() else {
            return Ok(());
        };
        if self.moves.parts() == 3 && max > MAX_TRIPLE_HEAP {
            return Err(format!(
                "rules {} split heaps in three: heaps are at most {MAX_TRIPLE_HEAP} (listing \
                 winning moves is quadratic in the heap); found {max}",
                self.text
            ));
        }
        let theorem = self.moves.max_take().is_some() && !self.moves.unequal;
        let beyond = !theorem && max >= self.bound() as u64;
        if beyond || self.grundy(max).is_none() {
            if !beyond && sgcheck_oracles::scoped_deadline().is_some_and(|d| Instant::now() >= d) {
                return Err(format!(
                    "heap {max}: the Grundy table of the rules {} was cut at {} values by \
                     the time given to this answer",
                    self.text,
                    self.table_len()
                ));
            }
            return Err(format!(
                "heap {max} is beyond what the rules {} are solved to: the Grundy table \
                 stops at {} values (the bound for these rules), and {}",
                self.text,
                self.bound(),
                match self.theorem() {
                    Some(_) => "no period was proven within it",
                    None => "no periodicity theorem applies to them",
                }
            ));
        }
        Ok(())
    }

    /// Misère play: `Ok` when the misère Nim rule is proven for every heap up to the
    /// largest of `position` (see [`misere`]), or why not.
    fn tame_for(&self, position: &[u64]) -> Result<(), String> {
        let top = position.iter().copied().max().unwrap_or(0);
        let mut tame = self.tame.lock().unwrap_or_else(|e| e.into_inner());
        misere::prove(&mut tame, &self.moves, self.listed.as_deref(), top, |n| {
            self.grundy(n)
        })
    }

    /// Misère play by the misère Nim rule (proven for the position's heaps): the
    /// verdict, and as winning moves every option that leaves a position the rule
    /// calls lost. A verdict and moves that do not match (which the proof excludes)
    /// are an error, never an answer.
    fn analyze_tame(&self, position: &[u64]) -> Result<Analysis<PartsMove>, String> {
        let value = |n: u64| {
            self.grundy(n)
                .ok_or_else(|| self.no_value(n, self.table_len()))
        };
        let values = position
            .iter()
            .map(|&n| value(n))
            .collect::<Result<Vec<u64>, String>>()?;
        let win = misere::misere_nim_wins(&values);
        let x = values.iter().fold(0, |a, v| a ^ v);
        let big = values.iter().filter(|&&v| v >= 2).count();
        let mut winning = Vec::new();
        let mut failed = None;
        let mut moves = false;
        for (heap, (&n, &v)) in position.iter().zip(&values).enumerate() {
            misere::each_option(
                &self.moves,
                self.listed.as_deref(),
                n,
                &mut |take, parts| {
                    moves = true;
                    let (mut nx, mut nbig) = (x ^ v, big - usize::from(v >= 2));
                    for &p in parts.iter().filter(|&&p| p > 0) {
                        match value(p) {
                            Ok(w) => {
                                nx ^= w;
                                nbig += usize::from(w >= 2);
                            }
                            Err(e) => failed = Some(e),
                        }
                    }
                    let lost = if nbig > 0 { nx == 0 } else { nx == 1 };
                    if lost {
                        winning.push(PartsMove { heap, take, parts });
                    }
                },
            );
        }
        if let Some(e) = failed {
            return Err(e);
        }
        // Without a move the player to move has won (misère): no move is listed.
        if moves && win == winning.is_empty() {
            return Err(format!(
                "misère play ({}): the misère Nim rule says the position is {}, but {} of its \
                 moves leaves a position it calls lost",
                self.text,
                if win { "won" } else { "lost" },
                if win { "none" } else { "one" }
            ));
        }
        winning.sort();
        winning.dedup();
        Ok(Analysis {
            win,
            winning,
            remoteness: None,
        })
    }

    /// The oracle's verdict (misère play).
    fn search(&self, position: &[u64]) -> Result<Analysis<PartsMove>, SearchError> {
        Solver::new(self.oracle.clone()).analyze(&Piles(position.to_vec()))
    }

    /// Verdict and every winning move of a position (see [`HeapRules::covers`]).
    /// A heap without a value (past the bound, or the table cut by a deadline in
    /// force) or a misère search that fails is an error, never an answer.
    pub fn analyze(&self, position: &[u64]) -> Result<Analysis<PartsMove>, String> {
        if self.misere {
            if self.tame_for(position).is_ok() {
                return self.analyze_tame(position);
            }
            return self.search(position).map_err(|e| e.to_string());
        }
        let mut t = self.lock();
        let values = position
            .iter()
            .map(|&n| {
                self.lookup(&mut t, n)
                    .ok_or_else(|| self.no_value(n, t.g.len()))
            })
            .collect::<Result<Vec<u64>, String>>()?;
        // Every heap's value is known now, so is every smaller heap's: the table
        // holds them, or the period does.
        let t = &*t;
        // Heaps past the table, answered by the period: the table extended by it to
        // the largest heap (when that is not huge), so that splits are walked as
        // slices rather than looked up one remainder at a time.
        let top = position.iter().copied().max().unwrap_or(0);
        let extended = match t.period {
            Some(p) if top >= t.g.len() as u64 && top < EXTEND_BELOW => {
                let mut v = Vec::with_capacity(top as usize + 1);
                v.extend_from_slice(&t.g);
                while v.len() as u64 <= top {
                    v.push(v[v.len() - p.period]);
                }
                Some(v)
            }
            _ => None,
        };
        let g: &[u32] = extended.as_deref().unwrap_or(&t.g);
        let m = &self.moves;
        Ok(analyze_sum(&values, |heap, need, out| {
            let n = position[heap];
            let mut push = |take: u64, parts: [u64; 3]| out.push(PartsMove { heap, take, parts });
            if m.d0 & 4 != 0 || m.unequal {
                winning_pairs(t, g, 0, n, need, m.unequal, &mut push);
            }
            if m.d0 & 8 != 0 {
                winning_triples(t, 0, n, need, &mut push);
            }
            let mut each = |k: u64, d: u8| {
                let rest = n - k;
                if rest == 0 && d & 1 != 0 && need == 0 {
                    push(k, [0, 0, 0]);
                }
                if rest >= 1 && d & 2 != 0 && t.known(rest) == need {
                    push(k, [0, 0, rest]);
                }
                if rest >= 2 && d & 4 != 0 {
                    winning_pairs(t, g, k, rest, need, false, &mut push);
                }
                if rest >= 3 && d & 8 != 0 {
                    winning_triples(t, k, rest, need, &mut push);
                }
            };
            match &self.listed {
                Some(list) => list
                    .iter()
                    .take_while(|&&(k, _)| k <= n)
                    .for_each(|&(k, d)| each(k, d)),
                None => m.amounts(n, each),
            }
        }))
    }

    /// The verdict alone (an error as [`HeapRules::analyze`]'s).
    pub fn first_wins(&self, position: &[u64]) -> Result<bool, String> {
        if self.misere {
            if self.tame_for(position).is_ok() {
                let values = position
                    .iter()
                    .map(|&n| {
                        self.grundy(n)
                            .ok_or_else(|| self.no_value(n, self.table_len()))
                    })
                    .collect::<Result<Vec<u64>, String>>()?;
                return Ok(misere::misere_nim_wins(&values));
            }
            return Ok(self.analyze(position)?.win);
        }
        let mut t = self.lock();
        let mut x = 0;
        for &n in position {
            x ^= self
                .lookup(&mut t, n)
                .ok_or_else(|| self.no_value(n, t.g.len()))?;
        }
        Ok(x != 0)
    }

    /// Why heap `n` has no value, the table holding `len` values.
    fn no_value(&self, n: u64, len: usize) -> String {
        format!(
            "heap {n} has no value under the rules {}: the Grundy table holds {len} values \
             and no period was proven within them",
            self.text
        )
    }
}

/// The moves leaving two heaps a + (rest - a) of value `need` (a <= rest - a; unequal:
/// a < rest - a), after removing `take`; every value below `rest` is known to `t`, and
/// `g` is its table or the table extended by the period.
fn winning_pairs(
    t: &Table,
    g: &[u32],
    take: u64,
    rest: u64,
    need: u64,
    unequal: bool,
    push: &mut impl FnMut(u64, [u64; 3]),
) {
    let amax = if unequal {
        rest.saturating_sub(1) / 2
    } else {
        rest / 2
    };
    match usize::try_from(rest).ok().filter(|&r| r <= g.len()) {
        Some(r) if amax > 0 => {
            // Within the table: the two slices walked in opposite directions.
            let amax = amax as usize;
            let need = need as u32;
            let (left, right) = (&g[1..=amax], &g[r - amax..r]);
            // Hits are rare: test blocks of 16 pairs without branching (the compiler
            // vectorises this), and look at the pairs one by one only in a block with
            // a hit.
            const BLOCK: usize = 16;
            let mut from = 0;
            while from < amax {
                let to = (from + BLOCK).min(amax);
                let hit = left[from..to]
                    .iter()
                    .zip(right[amax - to..amax - from].iter().rev())
                    .fold(false, |h, (&x, &y)| h | (x ^ y == need));
                if hit {
                    for i in from..to {
                        if left[i] ^ right[amax - 1 - i] == need {
                            let a = i as u64 + 1;
                            push(take, [0, a, rest - a]);
                        }
                    }
                }
                from = to;
            }
        }
        _ => {
            for a in 1..=amax {
                if t.known(a) ^ t.known(rest - a) == need {
                    push(take, [0, a, rest - a]);
                }
            }
        }
    }
}

/// The moves leaving three heaps a <= b <= c totalling `rest` of value `need`.
fn winning_triples(
    t: &Table,
    take: u64,
    rest: u64,
    need: u64,
    push: &mut impl FnMut(u64, [u64; 3]),
) {
    for a in 1..=rest / 3 {
        let ga = t.known(a);
        for b in a..=(rest - a) / 2 {
            if ga ^ t.known(b) ^ t.known(rest - a - b) == need {
                push(take, [a, b, rest - a - b]);
            }
        }
    }
}

fn brief(s: &str) -> String {
    match s.char_indices().nth(32) {
        None => s.to_string(),
        Some((cut, _)) => format!("{}...", &s[..cut]),
    }
}

/// The rules text of parameter values: `rules` (the text, or `subtract`/`range` to
/// complete), `set` (a subtraction set from a field), `p` and `q` (a range's bounds).
fn rules_text(params: &[ParamValue<'_>]) -> Result<String, String> {
    let text = match params.first() {
        Some(ParamValue::Name(s)) => *s,
        _ => return Err("parameter rules must be a rules text (e.g. 0.137)".into()),
    };
    let (body, misere) = match text.trim().strip_suffix(" misere") {
        Some(b) => (b.trim_end(), " misere"),
        None => (text.trim(), ""),
    };
    Ok(match body {
        "subtract" => {
            let set = match params.get(1) {
                Some(ParamValue::List(v)) => *v,
                Some(ParamValue::Name(n)) => {
                    return Err(format!(
                        "{:?} is not a list field; a subtraction set is a list ([1, 3, 4]), \
                         \"powers-of-two\", \"fibonacci\" or the name of a list field",
                        brief(n)
                    ))
                }
                _ => return Err("parameter set must be a list".into()),
            };
            if set.is_empty() {
                return Err("the subtraction set is empty".into());
            }
            let list: Vec<String> = set.iter().map(u64::to_string).collect();
            format!("subtract {}{misere}", list.join(","))
        }
        "range" => {
            let p = declared::number(params, 2, "p")?;
            let q = declared::number(params, 3, "q")?;
            format!("range {p}..{q}{misere}")
        }
        _ => text.trim().to_string(),
    })
}

/// How declarations use heap games declared by their rules (`[game]` in a format-2
/// declaration, or `game = "heap-code"` with `[rules]`).
pub struct HeapCodeGame;

impl Declare for HeapCodeGame {
    type Oracle = HeapCode;
    type Fast = HeapRules;
    const ID: &'static str = "heap-code";
    const PARAMETERS: &'static [ParamSpec] = &[
        ParamSpec {
            name: "rules",
            kind: ParamKind::Number,
            about: "the rules text: a code (0.137, 4.[3]), `subtract` (amounts from `set`), \
                    `subtract 1,3,4`, `subtract fibonacci`, `range` (from `p`, `q`), \
                    `split-unequal`; then ` misere` for misère play",
        },
        ParamSpec {
            name: "set",
            kind: ParamKind::List,
            about: "the subtraction set when rules is `subtract` ([] otherwise)",
        },
        ParamSpec {
            name: "p",
            kind: ParamKind::Number,
            about: "the smallest amount when rules is `range` (0 otherwise)",
        },
        ParamSpec {
            name: "q",
            kind: ParamKind::Number,
            about: "the largest amount when rules is `range` (0 otherwise)",
        },
    ];
    const POSITION: &'static str = "heap sizes";
    /// `size` is the heap before the move, `rest` what the move leaves in all.
    const MOVE_FIELDS: &'static [&'static str] = &["heap", "take", "size", "rest"];
    const REACH: Reach = Reach {
        max_value: u64::MAX,
        max_len: u64::MAX,
        max_moves_work: declared::SPLIT_ENUMERATION_WORK,
    };

    fn build(params: &[ParamValue<'_>]) -> Result<HeapRules, String> {
        HeapRules::parse(&rules_text(params)?)
    }
    fn oracle_reads(params: &[ParamValue<'_>]) -> Option<Result<(), String>> {
        Some(rules_text(params).and_then(|t| {
            t.trim()
                .parse::<HeapCode>()
                .map(drop)
                .map_err(|e: sgcheck_oracles::NotationError| e.reason)
        }))
    }
    fn check(fast: &HeapRules, position: &[u64]) -> Result<(), String> {
        fast.covers(position)
    }
    fn first_wins(fast: &HeapRules, position: &[u64]) -> Result<bool, String> {
        fast.first_wins(position)
    }
    fn analyze(fast: &HeapRules, position: &[u64]) -> Result<Analysis<PartsMove>, String> {
        fast.analyze(position)
    }
    fn move_fields(m: &PartsMove, position: &[u64]) -> [u64; 4] {
        let size = position.get(m.heap).copied().unwrap_or(0);
        [m.heap as u64, m.take, size, size.saturating_sub(m.take)]
    }
    fn oracle(
        fast: &HeapRules,
        position: &[u64],
        _: usize,
    ) -> Result<(HeapCode, Piles), SearchError> {
        Ok((fast.oracle.clone(), Piles(position.to_vec())))
    }
    /// Misère rules proven to play like misère Nim on the heaps the oracle reaches
    /// (up to [`MISERE_MAX_TOKENS`]) have a fast side of their own; others are
    /// answered by the oracle's search.
    fn fast_is_oracle(fast: &HeapRules) -> Option<String> {
        if fast.misere && fast.tame_for(&[MISERE_MAX_TOKENS]).is_ok() {
            return None;
        }
        crate::games::declared::misere_by_search(fast.misere, &fast.text)
    }
    fn tier1(fast: &HeapRules) -> Result<crate::verify::Tier1Report, String> {
        fast.tier1()
    }
    fn rules_text(fast: &HeapRules) -> Option<String> {
        Some(fast.text.clone())
    }
    fn make_losing(
        fast: &HeapRules,
        p: &mut [u64],
        b: &[(u64, u64)],
        rng: &mut ChaCha8Rng,
    ) -> bool {
        if fast.misere {
            return false;
        }
        let value = |n: u64| fast.grundy(n).unwrap_or(u64::MAX);
        declared::losing_sum(p, b, rng, value, |need, lo, hi, rng| {
            declared::scan_for_value(need, lo, hi, rng, value)
        }) && fast.covers(p).is_ok()
    }
}

/// `sgcheck check heap-code <position> --rules <text>`: the fast side and the oracle
/// on one position (for misère rules both answers come from the exhaustive search).
pub fn check_text(
    rules: Option<&str>,
    position: &str,
    budget: usize,
) -> Result<crate::verify::CheckOutcome, String> {
    let text = rules.ok_or("heap-code needs --rules, the rules text (e.g. 0.137, 4.[3])")?;
    let r = HeapRules::parse(text).map_err(|e| format!("--rules {:?}: {e}", brief(text)))?;
    let pos: Piles = position
        .parse()
        .map_err(|e| format!("position {:?}: {e}", brief(position)))?;
    r.covers(&pos.0)?;
    let oracle = Solver::new(r.oracle.clone())
        .with_budget(budget)
        .analyze(&pos)
        .map_err(|e| e.to_string())?;
    let mut fast = r.analyze(&pos.0)?;
    fast.winning.sort();
    Ok(crate::verify::CheckOutcome::compare(&fast, &oracle))
}

/// Tier 1 of `verify --problem` on heap rules: heaps with more moves than this (about
/// 25 MB of them) end the plain mex table (the moves of one heap are held at once).
pub const TIER1_MOVES: u64 = 1 << 18;

impl HeapRules {
    /// Tier 1 of `verify --problem`: the values the fast side answers with (its table,
    /// then the proven period past it) against a plain mex table whose options are the
    /// oracle's moves of one heap (its own reading of the rules), for heaps up to four
    /// times the fast side's table (at least 4096, at most [`MAX_TABLE`]) while a heap
    /// has at most [`TIER1_MOVES`] moves; then the winning moves of heaps past the
    /// fast side's table in positions with a heap of at least [`EXTEND_BELOW`], where
    /// [`HeapRules::analyze`] values splits through the period, against the oracle's
    /// moves of each such heap. Misère play has no values, and without a proven
    /// period the fast side answers from its mex table alone: `Err` says so.
    pub fn tier1(&self) -> Result<crate::verify::Tier1Report, String> {
        self.tier1_with(|position| self.analyze(position))
    }

    /// [`HeapRules::tier1`] with the fast side's analysis given (its own, or a planted
    /// wrong one in the tests).
    fn tier1_with(
        &self,
        analyze: impl Fn(&[u64]) -> Result<Analysis<PartsMove>, String>,
    ) -> Result<crate::verify::Tier1Report, String> {
        use sgcheck_oracles::Rules as _;
        if self.misere {
            return Err(format!(
                "misère play ({}) has no Grundy values to compare",
                self.text
            ));
        }
        if self.theorem().is_none() {
            return Err(format!(
                "no periodicity theorem applies to {}: the fast side answers from its mex \
                 table alone",
                self.text
            ));
        }
        let Some(p) = self.period(self.bound()) else {
            return Err(format!(
                "no period is proven for {}: the fast side answers from its mex table alone",
                self.text
            ));
        };
        let len = self.table_len();
        let upto = len.saturating_mul(4).clamp(4096, MAX_TABLE) as u64;
        let mut report = crate::verify::Tier1Report::default();
        let mut plain: Vec<u64> = Vec::new();
        let mut moves = Vec::new();
        for n in 0..upto {
            // Past this many moves of one heap (the fast side's count of its amounts
            // times the splits of each), the table ends: the oracle lists them at once.
            let mut amounts = 1u64;
            self.moves.amounts(n, |_, _| amounts += 1);
            let per = match self.moves.parts() {
                3 => 2 + n / 2 + n * n / 12,
                2 => 2 + n / 2,
                _ => 2,
            };
            if amounts.saturating_mul(per) > TIER1_MOVES {
                break;
            }
            let heap = Piles(vec![n]);
            moves.clear();
            self.oracle.moves(&heap, &mut moves);
            let options = moves
                .iter()
                .map(|(m, _)| m.left().fold(0, |a, k| a ^ plain[k as usize]));
            plain.push(crate::games::mex(options));
            if n % 64 == 0 {
                report.progress();
            }
            if let Some(g) = self.grundy(n) {
                report.compare(format_args!("g({n})"), g, plain[n as usize]);
            }
        }
        let far = self.tier1_far(&mut report, &plain, p, analyze);
        report.note = Some(format!(
            "g(0..{}) against a mex table over the oracle's moves; the fast side's table holds \
             {len} values, its period {} from {} answers past it; {far}",
            plain.len(),
            p.period,
            p.preperiod
        ));
        Ok(report)
    }

    /// Part of [`HeapRules::tier1`]: the winning moves that [`HeapRules::analyze`]
    /// finds in positions with a heap of at least [`EXTEND_BELOW`] (its table then not
    /// extended, each split of a heap past the table valued through the period), on
    /// the heaps past the table but within `plain`, against the oracle's moves of each
    /// such heap valued by `plain` (and the huge heap by `plain` and the period `p`,
    /// which the values compared before stand for). The huge heap's own moves are
    /// left out (the oracle would list millions of them). Says what was compared.
    fn tier1_far(
        &self,
        report: &mut crate::verify::Tier1Report,
        plain: &[u64],
        p: Period,
        analyze: impl Fn(&[u64]) -> Result<Analysis<PartsMove>, String>,
    ) -> String {
        use sgcheck_oracles::Rules as _;
        /// At most this many pairs walked for the huge heaps (about 0.3 s).
        const WORK: u64 = 1 << 25;
        let (e, q) = (p.preperiod as u64, p.period as u64);
        let value = |n: u64| -> Option<u64> {
            let n = if n < plain.len() as u64 {
                n
            } else if e + q <= plain.len() as u64 {
                e + (n - e) % q
            } else {
                return None;
            };
            Some(plain[n as usize])
        };
        let lo = self.table_len() as u64 + self.moves.max_take().unwrap_or(0) + 1;
        let hi = plain.len() as u64;
        let mut splits = u64::from(self.moves.d0 & 4 != 0);
        self.moves
            .amounts(EXTEND_BELOW, |_, d| splits += u64::from(d & 4 != 0));
        let per_position = splits.max(1) * (EXTEND_BELOW / 2);
        let positions = (WORK / per_position).min(4);
        if self.moves.parts() == 3 || lo >= hi || positions == 0 || value(EXTEND_BELOW).is_none() {
            return "no heap past 2^22 compared (splits in three, too many split amounts, or \
                    no heap past the table within the mex table)"
                .into();
        }
        let mut heaps = 0;
        let mut moves = Vec::new();
        for j in 0..positions {
            // One huge heap and eight heaps past the table, spread by a fixed hash.
            let mut position = vec![EXTEND_BELOW + j * 7919 + 1];
            position
                .extend((0..8u64).map(|i| lo + (j * 8 + i).wrapping_mul(2654435761) % (hi - lo)));
            let total = position.iter().fold(0, |x, &n| x ^ value(n).unwrap());
            let fast = match analyze(&position) {
                Ok(a) => a,
                Err(err) => {
                    report.compare(format_args!("analysis of {position:?}"), Some(err), None);
                    continue;
                }
            };
            report.compare(
                format_args!("verdict of {position:?}"),
                fast.win,
                total != 0,
            );
            for (i, &m) in position.iter().enumerate().skip(1) {
                let need = total ^ value(m).unwrap();
                moves.clear();
                self.oracle.moves(&Piles(vec![m]), &mut moves);
                let mut want: Vec<(u64, [u64; 3])> = moves
                    .iter()
                    .filter(|(mv, _)| mv.left().fold(0, |x, k| x ^ value(k).unwrap()) == need)
                    .map(|(mv, _)| (mv.take, mv.parts))
                    .collect();
                want.sort_unstable();
                let mut got: Vec<(u64, [u64; 3])> = fast
                    .winning
                    .iter()
                    .filter(|mv| mv.heap == i)
                    .map(|mv| (mv.take, mv.parts))
                    .collect();
                got.sort_unstable();
                report.compare(
                    format_args!("winning moves of heap {m} in {position:?}"),
                    got,
                    want,
                );
                heaps += 1;
            }
            report.progress();
        }
        // Heaps past 2^32, whose remainder by the period is taken in 64 bits: the
        // verdict of each beside heaps past the table (no move listed: a heap that
        // big has too many).
        let mut verdicts = 0;
        for j in 0..8u64 {
            let mut position = vec![(1u64 << 40) + j * 104_729 + 3];
            position
                .extend((0..3u64).map(|i| lo + (j * 3 + i).wrapping_mul(2654435761) % (hi - lo)));
            let Some(total) = position.iter().try_fold(0, |x, &n| Some(x ^ value(n)?)) else {
                continue;
            };
            match self.first_wins(&position) {
                Ok(win) => report.compare(format_args!("verdict of {position:?}"), win, total != 0),
                Err(err) => {
                    report.compare(format_args!("verdict of {position:?}"), Some(err), None)
                }
            }
            verdicts += 1;
        }
        format!(
            "the winning moves of {heaps} heaps past the table beside a heap past 2^22, \
             against the oracle's moves, and {verdicts} verdicts with a heap past 2^40"
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rules(s: &str) -> HeapRules {
        HeapRules::parse(s).unwrap()
    }

    #[test]
    fn kayles_and_dawson_from_the_code() {
        let k = rules("0.77");
        let table: Vec<u32> = (0..100).map(|n| k.grundy(n).unwrap() as u32).collect();
        assert_eq!(table, crate::games::octal::A002186);
        let p = k.period(1 << 12).unwrap();
        assert_eq!((p.preperiod, p.period), (71, 12));
        let d = rules("0.137");
        let table: Vec<u32> = (0..102).map(|n| d.grundy(n).unwrap() as u32).collect();
        assert_eq!(table, crate::games::octal::A002187);
        let p = d.period(1 << 12).unwrap();
        assert_eq!((p.period, p.last_exception()), (34, Some(51)));
        assert_eq!(k.grundy(1_000_000_000_071), Some(8));
    }

    #[test]
    fn the_sequence_is_built_as_octal_builds_it() {
        use take_break::{compute, Method};
        // As `sequence octal`: to the count and no further, a period only where the
        // values computed prove it (0.137 needs 2e + 2p + t = 175 values), the rest
        // extended by it.
        let d = rules("0.137");
        let short = d.sequence(150).unwrap();
        assert_eq!((short.period, short.by_mex), (None, 150));
        let d = rules("0.137");
        let long = d.sequence(5000).unwrap();
        assert_eq!(long.period.map(|p| p.period), Some(34));
        assert_eq!(long.by_mex, 256);
        assert_eq!(long.values[..150], short.values[..]);
        let octal = compute(&Breaks::Octal(vec![1, 3, 7]), 5000, Method::Sparse, true);
        let octal: Vec<u64> = octal.values.iter().map(|&v| u64::from(v)).collect();
        assert_eq!(long.values, octal);
        // Rules whose moves leave at most two heaps go past their bound (the command's
        // --time bounds the work), with the engine's rare/common method: 0.16 has no
        // period within 30,000 values, and its bound is below that.
        let r = rules("0.16");
        assert!(r.bound() < 30_000, "{}", r.bound());
        assert_eq!(rules("0.16").grundy(30_000), None);
        let s = r.sequence(30_000).unwrap();
        assert!(s.sparse && s.period.is_none() && s.by_mex == 30_000);
        let octal = compute(&Breaks::Octal(vec![1, 6]), 30_000, Method::Plain, false);
        assert!(s.values.iter().map(|&v| v as u32).eq(octal.values));
        // Three heaps a move: the bound holds, and the refusal says why.
        let e = rules("0.8").sequence(200_000).unwrap_err();
        assert!(e.contains("stops at") && e.contains("three heaps"), "{e}");
    }

    #[test]
    fn no_period_claimed_without_the_theorem() {
        // Lasker's Nim repeats nothing (its values grow), and Grundy's game has no
        // theorem: heaps past the bound are refused, never guessed.
        let l = rules("4.[3]");
        assert_eq!(l.period(1000), None);
        assert!(l.covers(&[(l.bound() as u64) + 5]).is_err());
        let g = rules("split-unequal");
        assert!(g.theorem().is_none());
        // subtract 1,2 (period 3) is proven by the theorem with r = 1.
        let s = rules("subtract 1,2");
        let p = s.period(1000).unwrap();
        assert_eq!((p.preperiod, p.period), (0, 3));
    }

    #[test]
    fn a_table_cut_by_a_deadline_refuses_and_later_answers_in_full() {
        // Grundy's game has no period: its values up to 5,000 need the table to 5,001.
        let heap = [5_000, 3];
        let past = std::time::Instant::now();
        let cut = rules("split-unequal");
        let refused = sgcheck_oracles::with_deadline(past, || cut.covers(&heap));
        assert!(
            refused.as_ref().is_err_and(|e| e.contains("cut")),
            "{refused:?}"
        );
        let no_answer = sgcheck_oracles::with_deadline(past, || cut.first_wins(&heap));
        assert!(no_answer.is_err(), "{no_answer:?}");
        assert!(cut.table_len() < 5_001);
        // Without the deadline the same rules go on, and agree with a fresh table.
        assert_eq!(cut.covers(&heap), Ok(()));
        let fresh = rules("split-unequal");
        assert_eq!(cut.first_wins(&heap), fresh.first_wins(&heap));
        assert_eq!(
            cut.analyze(&heap).unwrap().winning,
            fresh.analyze(&heap).unwrap().winning
        );
    }

    #[test]
    fn a_misere_search_that_fails_is_no_answer() {
        // Misère rules are answered by the search alone: cut, it answers nothing.
        let r = rules("0.77 misere");
        let past = std::time::Instant::now();
        let cut = sgcheck_oracles::with_deadline(past, || r.first_wins(&[9, 9, 9, 9]));
        assert!(cut.is_err(), "{cut:?}");
        assert!(r.first_wins(&[1]).is_ok());
    }

    #[test]
    fn frozen_lookups_take_the_remainder_right() {
        // The multiplication remainder against `%`, for every period up to 40, heaps
        // in and past the table, and past 32 bits (the plain remainder then).
        for period in 1..=40usize {
            let preperiod = period % 7;
            let g: Vec<u32> = (0..preperiod + 2 * period).map(|i| i as u32).collect();
            let f = Frozen::new(g.clone(), Period { preperiod, period });
            let mut n = 0u64;
            while n < 1 << 40 {
                let want = if (n as usize) < g.len() {
                    n
                } else {
                    (preperiod as u64) + (n - preperiod as u64) % period as u64
                };
                assert_eq!(f.value(n), want, "period {period}, n {n}");
                n = n * 3 + 1;
            }
            for n in [u32::MAX as u64 - 1, u32::MAX as u64, u32::MAX as u64 + 7] {
                let want = (preperiod as u64) + (n - preperiod as u64) % period as u64;
                assert_eq!(f.value(n), want, "period {period}, n {n}");
            }
        }
    }

    #[test]
    fn tier1_compares_the_period_past_the_table() {
        let d = rules("0.137");
        let t = d.tier1().unwrap();
        assert!(t.checked >= 4096 && t.disagreements == 0, "{t:?}");
        assert!(t.note.as_deref().unwrap().contains("period 34"), "{t:?}");
        // Most of those values came from the period: the table stopped at 256.
        assert_eq!(d.table_len(), 256);
        assert!(rules("4.[3]")
            .tier1()
            .unwrap_err()
            .contains("no periodicity theorem"));
        assert!(rules("0.77 misere").tier1().unwrap_err().contains("misère"));
        // A wrong period planted in the table: the first heap past the table it
        // answers wrongly is a disagreement.
        let mut planted = rules("0.137");
        planted.period(1 << 12);
        let wrong = Period {
            preperiod: 52,
            period: 17,
        };
        planted.lock().period = Some(wrong);
        // Lookups past a proven period read a frozen copy of the table: plant there too.
        planted.frozen.take();
        let table = planted.lock().g.clone();
        let _ = planted.frozen.set(Frozen::new(table, wrong));
        let t = planted.tier1().unwrap();
        assert!(t.disagreements > 0, "{t:?}");
        let (what, _, _) = t.first.unwrap();
        let n: usize = what[2..what.len() - 1].parse().unwrap();
        assert!(n >= 256, "{what}");
    }

    #[test]
    fn tier1_compares_winning_moves_beside_a_heap_past_the_extension() {
        // Beside a heap of 2^22 or more, the heaps past the table are valued through
        // the period one remainder at a time: tier 1 compares their winning moves.
        for code in ["0.137", "4.6"] {
            let t = rules(code).tier1().unwrap();
            assert_eq!(t.disagreements, 0, "{code}: {t:?}");
            let note = t.note.as_deref().unwrap();
            assert!(
                note.contains("heaps past the table beside a heap past 2^22"),
                "{note}"
            );
            assert!(!note.contains("of 0 heaps"), "{note}");
        }
        // A planted bug on that path only: a winning move of a heap past the table
        // dropped when the position holds a heap of 2^22 or more.
        let d = rules("0.137");
        let planted = |position: &[u64]| {
            let mut a = d.analyze(position)?;
            if position.iter().any(|&n| n >= EXTEND_BELOW) {
                if let Some(i) = a.winning.iter().rposition(|m| m.heap == 1) {
                    a.winning.remove(i);
                }
            }
            Ok(a)
        };
        let t = d.tier1_with(planted).unwrap();
        assert!(t.disagreements > 0, "{t:?}");
        let (what, _, _) = t.first.unwrap();
        assert!(what.starts_with("winning moves of heap"), "{what}");
    }

    /// Rules texts that both readers refuse.
    const BAD_RULES: [&str; 12] = [
        "0.8x",
        "0.[3",
        "0.[]",
        "0.[33]",
        "00.7",
        "0.",
        "subtract 0",
        "range 2..1",
        "x",
        "0.0",
        "subtract",
        "range 0..3",
    ];

    #[test]
    fn bad_rules_are_refused() {
        for s in BAD_RULES {
            assert!(HeapRules::parse(s).is_err(), "{s}");
        }
        let long = format!("0.{}", "7".repeat(MAX_DIGITS + 3));
        assert!(HeapRules::parse(&long).unwrap_err().contains("at most"));
    }

    #[test]
    fn the_fast_side_refuses_only_rules_the_oracle_refuses() {
        // verify reports rules that the fast side refuses and the oracle's reader
        // accepts as a disagreement: no text may be refused by the fast side alone.
        let long = format!("0.{}", "7".repeat(MAX_DIGITS + 3));
        for s in BAD_RULES.into_iter().chain([long.as_str()]) {
            let fast = HeapRules::parse(s);
            let oracle = s.trim().parse::<HeapCode>();
            assert!(
                fast.is_err() && oracle.is_err(),
                "{s}: {fast:?} / {oracle:?}"
            );
        }
        for s in [
            "0.137",
            "4.6",
            "subtract 1,3,4",
            "range 2..5",
            "8.[3] misere",
        ] {
            assert!(
                HeapRules::parse(s).is_ok() && s.parse::<HeapCode>().is_ok(),
                "{s}"
            );
        }
    }
}
