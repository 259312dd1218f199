//! The Grundy-value engine shared by the take-and-break games of one heap: octal codes
//! ([`crate::games::octal`]) and Grundy's game ([`crate::games::grundy`]).
//!
//! A heap of n has two kinds of options: leaving at most one heap (a heap of `rest`,
//! where 0 stands for nothing left; its value is g(rest)), and leaving two non-empty
//! heaps a + (s - a) for a in 1..=amax (value g(a) xor g(s - a)). [`Breaks`] lists
//! them, as the fast side reads the rules (the oracle's move generator is never used).
//!
//! Three things are computed here:
//!
//! - [`plain_table`]: g(n) = mex of all options, O(n) per value for the splits, so
//!   O(N^2) for a table of N values;
//! - [`sparse_table`]: the same values by the rare/common ("sparse space") method of
//!   Berlekamp, Conway and Guy (*Winning Ways*, chapter 4): fix a bit mask m and call a
//!   value *rare* when `popcount(v & m)` is even and *common* when it is odd. The
//!   parity is linear under xor, so a common value xor-ed from two heaps needs exactly
//!   one rare heap. When few positions have rare values, every option value that is
//!   common is found by pairing each rare position with its partner (O(R) per split, R
//!   = rare positions so far); the mex is then the first value not found that is
//!   common, unless a smaller rare value is missing too, which a scan of the splits
//!   settles (it usually stops after a few pairs, since common + common pairs are
//!   plentiful). This is exact for *any* mask: the mask only decides the speed.
//!   The mask is chosen on a plain-table prefix as the one with fewest rare positions.
//! - [`find_period`]: the octal periodicity theorem (Guy and Smith). For a code whose
//!   longest removal is t: if g(n + p) = g(n) for all e <= n < 2e + p + t, with e >= 1,
//!   then g(n + p) = g(n) for every n >= e. Why: for n >= 2e + p + t, an option of
//!   n + p removes k <= t and leaves parts a <= b with a + b >= 2e + 2p, so b >= e + p
//!   and g(b) = g(b - p) (induction: b < n + p); that maps it to the option of n
//!   leaving a and b - p (still non-empty: b - p >= e >= 1), with the same value; and
//!   every option of n leaving a <= c has c >= e, so adding p to c gives an option of
//!   n + p with the same value. Both option sets have the same values, so the same mex.
//!   (With e = 0 a split into two heaps of p could map to "one heap", whose legality
//!   is another bit of the digit: that is why e >= 1 is required, and a sequence found
//!   periodic from 1 is then checked at 0 directly.)
//!   Checking the range needs the table up to 2e + 2p + t. The smallest p that passes
//!   is the smallest period of the sequence (a smaller true period would pass first),
//!   and the e found is the smallest preperiod.

/// One family of options of a heap.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Opt {
    /// Leave at most one heap, of this size (0: nothing left).
    Single(usize),
    /// Leave two non-empty heaps `a + (s - a)`, for every `a` in `1..=amax`.
    Split {
        /// The total of the two heaps left.
        s: usize,
        /// The largest smaller part (at least 1).
        amax: usize,
    },
}

/// The options of one heap, as the fast side reads the rules.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Breaks {
    /// An octal code: `digits[k - 1]` is d_k.
    Octal(Vec<u8>),
    /// Grundy's game: split a heap into two unequal non-empty heaps, nothing removed.
    Grundy,
}

impl Breaks {
    /// Calls `f` with every option family of a heap of `n`.
    pub fn options(&self, n: usize, f: impl FnMut(Opt)) {
        self.families().options(n, f);
    }

    /// The option families in the form the table loops use: an octal code's non-zero
    /// digits only (a code like hdu3980's `0.0...07` has one among a thousand).
    fn families(&self) -> Families {
        match self {
            Breaks::Octal(digits) => Families::Octal(
                digits
                    .iter()
                    .enumerate()
                    .filter(|&(_, &d)| d != 0)
                    .map(|(i, &d)| (i + 1, d))
                    .collect(),
            ),
            Breaks::Grundy => Families::Grundy,
        }
    }

    /// Whether some option leaves two heaps (the sparse method only helps then).
    pub fn splits(&self) -> bool {
        match self {
            Breaks::Octal(d) => d.iter().any(|&d| d & 4 != 0),
            Breaks::Grundy => true,
        }
    }

    /// The longest removal t of an octal code (`None` for Grundy's game, where the
    /// periodicity theorem does not apply).
    pub fn max_take(&self) -> Option<usize> {
        match self {
            Breaks::Octal(d) => Some(d.len()),
            Breaks::Grundy => None,
        }
    }
}

/// [`Breaks`] prepared for the table loops (see [`Breaks::families`]).
enum Families {
    /// The non-zero digits of an octal code: (k, d_k), k ascending.
    Octal(Vec<(usize, u8)>),
    /// Grundy's game.
    Grundy,
}

impl Families {
    fn options(&self, n: usize, mut f: impl FnMut(Opt)) {
        match self {
            Families::Octal(digits) => {
                for &(k, d) in digits.iter().take_while(|&&(k, _)| k <= n) {
                    let rest = n - k;
                    if rest == 0 && d & 1 != 0 {
                        f(Opt::Single(0));
                    }
                    if rest >= 1 && d & 2 != 0 {
                        f(Opt::Single(rest));
                    }
                    if rest >= 2 && d & 4 != 0 {
                        f(Opt::Split {
                            s: rest,
                            amax: rest / 2,
                        });
                    }
                }
            }
            Families::Grundy => {
                if n >= 3 {
                    f(Opt::Split {
                        s: n,
                        amax: (n - 1) / 2,
                    });
                }
            }
        }
    }
}

/// Marks of the values seen among one heap's options, reset in O(1) by a generation.
struct Seen {
    stamp: Vec<u32>,
    generation: u32,
}

impl Seen {
    fn new() -> Self {
        Seen {
            stamp: vec![0; 64],
            generation: 0,
        }
    }
    fn next(&mut self) {
        self.generation = self.generation.wrapping_add(1);
        if self.generation == 0 {
            self.stamp.fill(0);
            self.generation = 1;
        }
    }
    fn mark(&mut self, v: u32) {
        let v = v as usize;
        if v >= self.stamp.len() {
            self.stamp.resize((v + 1).next_power_of_two(), 0);
        }
        self.stamp[v] = self.generation;
    }
    /// The marks and the current generation, with room for every XOR of two values up
    /// to `max` (below the next power of two above it). The length is a power of two,
    /// so masking such a value with `len - 1` keeps it as it is.
    fn covering(&mut self, max: u32) -> (&mut [u32], u32) {
        let need = (max as usize + 1).next_power_of_two();
        if self.stamp.len() < need {
            self.stamp.resize(need, 0);
        }
        (&mut self.stamp, self.generation)
    }
    fn has(&self, v: u32) -> bool {
        self.stamp.get(v as usize) == Some(&self.generation)
    }
}

/// g(0..len) by mex over every option of every heap: the plain O(len^2) table.
pub fn plain_table(breaks: &Breaks, len: usize) -> Vec<u32> {
    let mut g = Vec::with_capacity(len);
    extend_plain(breaks, &mut g, len);
    g
}

fn extend_plain(breaks: &Breaks, g: &mut Vec<u32>, len: usize) {
    let families = breaks.families();
    let mut seen = Seen::new();
    let mut max = g.iter().copied().max().unwrap_or(0);
    while g.len() < len {
        let n = g.len();
        seen.next();
        families.options(n, |o| match o {
            Opt::Single(rest) => seen.mark(g[rest]),
            Opt::Split { s, amax } => {
                // The pairs (a, s - a) for a in 1..=amax, as two slices walked in
                // opposite directions (no index checked per pair).
                let left = &g[1..=amax];
                let right = &g[s - amax..s];
                let (stamp, generation) = seen.covering(max);
                let last = stamp.len() - 1;
                let stamp = &mut stamp[..=last];
                for (&x, &y) in left.iter().zip(right.iter().rev()) {
                    stamp[(x ^ y) as usize & last] = generation;
                }
            }
        });
        let mut v = 0;
        while seen.has(v) {
            v += 1;
        }
        g.push(v);
        max = max.max(v);
    }
}

/// Whether `v` is rare under `mask` (an even number of mask bits set).
fn rare(v: u32, mask: u32) -> bool {
    (v & mask).count_ones().is_multiple_of(2)
}

/// Length of the plain prefix on which [`sparse_table`] chooses its mask.
pub const MASK_PREFIX: usize = 4096;

/// The mask with the fewest rare positions in the second half of `g` (ties: fewest in
/// all of `g`), among the masks of the bits the values of `g` use (at most 10 bits).
pub fn choose_mask(g: &[u32]) -> u32 {
    let max = g.iter().copied().max().unwrap_or(0);
    let bits = (32 - max.leading_zeros()).clamp(1, 10);
    let half = g.len() / 2;
    (1..(1u32 << bits))
        .min_by_key(|&m| {
            let late = g[half..].iter().filter(|&&v| rare(v, m)).count();
            let all = g.iter().skip(1).filter(|&&v| rare(v, m)).count();
            (late, all)
        })
        .unwrap_or(1)
}

/// Extends `g` (which must hold at least g(0)) to `len` values by the rare/common
/// method with `mask` (module docs). Exact for any mask.
pub fn extend_sparse(breaks: &Breaks, g: &mut Vec<u32>, len: usize, mask: u32) {
    if g.is_empty() {
        extend_plain(breaks, g, 1);
    }
    let families = breaks.families();
    let mut rare_pos: Vec<usize> = (1..g.len()).filter(|&i| rare(g[i], mask)).collect();
    let mut seen = Seen::new();
    let mut splits: Vec<(usize, usize)> = Vec::new();
    while g.len() < len {
        let n = g.len();
        seen.next();
        splits.clear();
        families.options(n, |o| match o {
            Opt::Single(rest) => seen.mark(g[rest]),
            Opt::Split { s, amax } => splits.push((s, amax)),
        });
        // Every pair with a rare part: all options of common value are among these.
        for &(s, amax) in &splits {
            for &r in &rare_pos {
                if r >= s {
                    break;
                }
                let b = s - r;
                if r.min(b) <= amax {
                    seen.mark(g[r] ^ g[b]);
                }
            }
        }
        let mut v = 0u32;
        loop {
            if seen.has(v) {
                v += 1;
                continue;
            }
            if !rare(v, mask) {
                // Common and not found among the pairs with a rare part: no option.
                break;
            }
            // A rare value may come from two common heaps: look for one such pair.
            let hit = splits
                .iter()
                .any(|&(s, amax)| (1..=amax).any(|a| g[a] ^ g[s - a] == v));
            if !hit {
                break;
            }
            seen.mark(v);
            v += 1;
        }
        g.push(v);
        if rare(v, mask) {
            rare_pos.push(n);
        }
    }
}

/// g(0..len) by the rare/common method: a plain prefix of [`MASK_PREFIX`] values, the
/// mask chosen on it, then [`extend_sparse`]. Returns the values and the mask.
pub fn sparse_table(breaks: &Breaks, len: usize) -> (Vec<u32>, u32) {
    let mut g = plain_table(breaks, len.min(MASK_PREFIX));
    let mask = choose_mask(&g);
    extend_sparse(breaks, &mut g, len, mask);
    (g, mask)
}

/// A proven period: g(n + period) = g(n) for every n >= preperiod.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Period {
    /// The smallest n from which the values repeat.
    pub preperiod: usize,
    /// The smallest period.
    pub period: usize,
}

impl Period {
    /// The last exception: the largest n below the preperiod (where g(n) differs from
    /// g(n + period)), if any.
    pub fn last_exception(&self) -> Option<usize> {
        self.preperiod.checked_sub(1)
    }
}

/// The period the octal periodicity theorem proves from the values `g` of a code whose
/// longest removal is `t` (module docs), or `None` when `g` is too short to prove one.
pub fn find_period(g: &[u32], t: usize) -> Option<Period> {
    let len = g.len();
    // 2e + 2p + t <= len with e >= 1.
    let max_p = len.checked_sub(t + 2)? / 2;
    for p in 1..=max_p {
        // e: one past the last n with g(n) != g(n + p), scanning back from the end.
        let mut n = len - p;
        while n > 0 && g[n - 1] == g[n - 1 + p] {
            n -= 1;
        }
        let e = n;
        if 2 * e.max(1) + 2 * p + t <= len {
            return Some(Period {
                preperiod: e,
                period: p,
            });
        }
    }
    None
}

/// How [`compute`] builds the table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Method {
    /// Mex over every option.
    Plain,
    /// The rare/common method (for rules without splits it is the plain table).
    Sparse,
}

/// A computed sequence: the values, and the period when one was proven.
#[derive(Clone, Debug)]
pub struct Computed {
    /// g(0), g(1), ...: computed by mex up to the proof of the period (or the length
    /// asked for), then extended by the period when one was proven.
    pub values: Vec<u32>,
    /// How many values were computed by mex (the rest follow from the period).
    pub by_mex: usize,
    /// The proven period, for octal codes.
    pub period: Option<Period>,
    /// The mask of the rare/common method, when it was used.
    pub mask: Option<u32>,
}

/// g(0..len): by `method`, looking for a period (octal codes only) whenever the table
/// doubles from 64 on; once one is proven the rest follows from it. With
/// `extend` false the values stop where the period was proven.
pub fn compute(breaks: &Breaks, len: usize, method: Method, extend: bool) -> Computed {
    let sparse = method == Method::Sparse && breaks.splits();
    let mut g: Vec<u32> = Vec::new();
    let mut mask = None;
    let mut checkpoint = 64usize;
    let mut period = None;
    loop {
        let target = checkpoint.min(len);
        if sparse && target > MASK_PREFIX {
            let m = *mask.get_or_insert_with(|| {
                extend_plain(breaks, &mut g, MASK_PREFIX);
                choose_mask(&g)
            });
            extend_sparse(breaks, &mut g, target, m);
        } else {
            extend_plain(breaks, &mut g, target);
        }
        if let Some(t) = breaks.max_take() {
            period = find_period(&g, t);
        }
        if period.is_some() || target == len {
            break;
        }
        checkpoint *= 2;
    }
    let by_mex = g.len();
    if let (Some(p), true) = (period, extend) {
        while g.len() < len {
            let n = g.len();
            g.push(g[n - p.period]);
        }
    }
    Computed {
        values: g,
        by_mex,
        period,
        mask,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn octal(s: &str) -> Breaks {
        Breaks::Octal(s.bytes().map(|b| b - b'0').collect())
    }

    #[test]
    fn sparse_equals_plain() {
        // Codes with splits (Kayles, Dawson's chess, 0.007 (Treblecross), 0.6, 0.16)
        // and Grundy's game: the rare/common method from a short prefix, with every
        // mask of 1..=15 and the chosen one, gives the plain table exactly.
        for b in [
            octal("77"),
            octal("137"),
            octal("007"),
            octal("6"),
            octal("16"),
            octal("4"),
            Breaks::Grundy,
        ] {
            let plain = plain_table(&b, 1500);
            for mask in 1..16 {
                let mut g = plain[..20].to_vec();
                extend_sparse(&b, &mut g, 1500, mask);
                assert_eq!(g, plain, "{b:?} mask {mask}");
            }
            let mut g = plain[..300].to_vec();
            extend_sparse(&b, &mut g, 1500, choose_mask(&plain[..300]));
            assert_eq!(g, plain, "{b:?} chosen mask");
        }
    }

    #[test]
    fn periods_of_known_games() {
        // Kayles: period 12 from 71 (last exception 70); Dawson's chess 0.137: period 34,
        // last exception 51. Both are proven by the theorem from the values alone.
        let k = compute(&octal("77"), 1000, Method::Plain, false);
        assert_eq!(
            k.period,
            Some(Period {
                preperiod: 71,
                period: 12
            })
        );
        let d = compute(&octal("137"), 1000, Method::Plain, false);
        let p = d.period.unwrap();
        assert_eq!((p.period, p.last_exception()), (34, Some(51)));
        // The extension agrees with the plain table far beyond the proof.
        for b in [octal("77"), octal("137"), octal("07"), octal("33")] {
            let c = compute(&b, 5000, Method::Plain, true);
            assert!(c.by_mex < 1000, "{b:?}");
            assert_eq!(c.values, plain_table(&b, 5000), "{b:?}");
        }
    }

    #[test]
    fn period_needs_the_whole_range() {
        // A sequence that repeats with period 2 for a while, then breaks: no period is
        // claimed from the short stretch (t = 1, e = 1: needs 2 + 4 + 1 = 7 values).
        let g = [0, 1, 0, 1, 0, 1];
        assert_eq!(find_period(&g, 1), None);
        let g = [0, 1, 0, 1, 0, 1, 0];
        assert_eq!(
            find_period(&g, 1),
            Some(Period {
                preperiod: 0,
                period: 2
            })
        );
        // A longer code needs more values for the same pattern.
        assert_eq!(find_period(&g, 3), None);
        // The last value breaks the pattern: e moves to the end, nothing is proven.
        let g = [0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 5];
        assert_eq!(find_period(&g, 1), None);
    }

    #[test]
    fn grundy_has_no_theorem() {
        let c = compute(&Breaks::Grundy, 300, Method::Sparse, true);
        assert_eq!(c.period, None);
        assert_eq!(c.values, plain_table(&Breaks::Grundy, 300));
    }

    #[test]
    fn smallest_period_from_the_table() {
        // Kayles (0.77): period 12 from 71, proven once 2e + 2p + t values are there.
        let g = plain_table(&Breaks::Octal(vec![7, 7]), 400);
        assert_eq!(
            crate::verify::smallest_period(&g, |e, p| 2 * e.max(1) + 2 * p + 2 <= 400),
            Some((71, 12))
        );
        // Too short a table proves nothing.
        assert_eq!(
            crate::verify::smallest_period(&g[..150], |e, p| 2 * e.max(1) + 2 * p + 2 <= 150),
            None
        );
    }
}
