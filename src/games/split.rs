//! The bean-splitting game (HNOI2007 "分裂游戏", bzoj1188 / Luogu P3185; UVa 1378
//! "A Funny Stone Game"): every bean is a game of its own, and a bean at distance d
//! from the last bottle is worth the d-th odious number.
//!
//! Rules (game `split`; the oracle's [`SplitGame`]): bottles 0..n-1 hold beans.
//! A move picks i < j <= k < n with bottle i non-empty, takes one bean out of bottle i
//! and puts one bean into bottle j and one into bottle k (two into j when j == k).
//! Normal play.
//!
//! Why beans are independent: a move touches exactly one bean (the one taken out) and
//! replaces it by two new beans; what the other beans can do does not depend on it.
//! So a position is the sum of its beans, and a bean is fully described by its
//! distance d = n-1-i from the last bottle. A bean at distance d can turn into two
//! beans at distances a and b with 0 <= b <= a < d, so its Grundy value is
//!
//! g(0) = 0, g(d) = mex{ g(a) xor g(b) : 0 <= b <= a < d }.
//!
//! Two beans in one bottle have the same value and cancel in the XOR, so the value of
//! the whole row is the XOR of g(d) over the bottles holding an **odd** number of beans
//! (not over the non-empty ones: a classic bug).
//!
//! Why g(d) is the d-th odious number (OEIS A000069: 1, 2, 4, 7, 8, 11, ..., the
//! numbers with an odd count of one bits): this is Mock Turtles (Berlekamp, Conway,
//! Guy, *Winning Ways*, ch. 14) shifted by one place, a bean at distance 0 playing the
//! part of "no coin". Write o(m) for the m-th odious number counted from 0, so
//! o(m) is the odious one of the pair {2m, 2m+1} (the two differ in the last bit only,
//! so exactly one of them is odious). Suppose g(1..d-1) = o(0..d-2), the odious
//! numbers below 2(d-1). The options of a bean at distance d are then 0 (a == b), the
//! values o(0..d-2) themselves (b == 0) and the XOR of two of them. Every number
//! v < 2(d-1) is reached: an odious v is some o(m) with m < d-1; an evil v > 0 is
//! (v xor 1) xor 1, two distinct odious numbers below 2(d-1). If o(d-1) = 2(d-1) + 1,
//! the evil 2(d-1) is reached too: for d = 1 it is 0, and otherwise it is
//! lowbit xor (2(d-1) - lowbit), two odious numbers below it, distinct because an
//! evil number has at least two one bits. And o(d-1) itself is not
//! reached: an XOR of two odious numbers is evil, and the single values are all below
//! it. So the mex is o(d-1), which is the closed form [`bean_value`].
//!
//! Winning moves: a move (i, j, k) flips the parity of bottle i and of bottles j and k
//! (j == k flips bottle j twice, which changes nothing: g(d_j) xor g(d_j) = 0), so it
//! changes the row's value by g(d_i) xor g(d_j) xor g(d_k) and wins exactly when that
//! equals the value of the row. Only a non-empty bottle i can move (counting moves from
//! empty bottles is the other classic bug). For a given i and j, at most one bottle k
//! fits, because g is one-to-one: [`distance_of_value`] inverts it, so the analysis
//! costs O(n^2) rather than O(n^3).
//!
//! Sources: HNOI2007 / bzoj1188 (problem `bzoj1188`), UVa 1378 (`uva1378`),
//! OEIS A000069 (the odious numbers).

use crate::games::declared;
use crate::games::{analyze_sum, mex};
use crate::verify::{Subject, Tier1Report};
use rand::Rng;
use rand_chacha::ChaCha8Rng;
use sgcheck_oracles::games::split::{Bottles, SplitGame, SplitMove};
use sgcheck_oracles::Analysis;
use sgcheck_oracles::SearchError;
use std::ops::RangeInclusive;

/// Closed form: the Grundy value g(d) of one bean at distance `d` from the last bottle.
///
/// g(0) = 0 (a bean in the last bottle never moves); for d >= 1, g(d) is the d-th
/// odious number: with m = d - 1, the odious one of 2m and 2m+1, which is 2m when m
/// itself is odious (2m has the same one bits) and 2m+1 otherwise. Exact for every
/// distance a row in memory can have (d < 2^63).
pub fn bean_value(d: usize) -> u64 {
    if d == 0 {
        return 0;
    }
    let m = (d - 1) as u64;
    2 * m + u64::from(m.count_ones().is_multiple_of(2))
}

/// The inverse of [`bean_value`]: the distance whose bean is worth `v`, if any.
///
/// 0 is the value of distance 0 only; an odious v is o(v / 2), so its distance is
/// v / 2 + 1; an evil v > 0 is no bean's value.
pub fn distance_of_value(v: u64) -> Option<u64> {
    if v == 0 {
        Some(0)
    } else if v.count_ones() % 2 == 1 {
        Some((v >> 1) + 1)
    } else {
        None
    }
}

/// g(0..len) by mex over the options of one bean, computed incrementally.
///
/// The options of distance d are { g(a) xor g(b) : b <= a < d }, which are those of
/// d - 1 plus { g(d-1) xor g(b) : b <= d-1 }; the set only grows, so its mex never
/// goes down and the scan for it resumes where it stopped. O(len^2) in all, which is
/// what makes tier 1 over thousands of distances cheap. Independent of the closed form.
pub fn table(len: usize) -> Vec<u64> {
    let mut g: Vec<u64> = Vec::with_capacity(len);
    let mut seen: Vec<bool> = Vec::new();
    let mut m = 0usize;
    for d in 0..len {
        if d > 0 {
            let top = g[d - 1];
            for &gb in &g[..d] {
                let v = (top ^ gb) as usize;
                if v >= seen.len() {
                    seen.resize((v + 1).next_power_of_two(), false);
                }
                seen[v] = true;
            }
            while m < seen.len() && seen[m] {
                m += 1;
            }
        }
        g.push(m as u64);
    }
    g
}

/// g(0..len) straight from the definition: for each distance, list every option
/// g(a) xor g(b) (b <= a < d) and take the [`mex`]. O(len^3); tier 1 uses it to check
/// the incremental [`table`] on the first distances.
pub fn table_by_definition(len: usize) -> Vec<u64> {
    let mut g: Vec<u64> = Vec::with_capacity(len);
    for d in 0..len {
        let options = (0..d).flat_map(|a| (0..=a).map(move |b| (a, b)));
        let v = mex(options.map(|(a, b)| g[a] ^ g[b]).collect::<Vec<_>>());
        g.push(v);
    }
    g
}

/// The value of a row of bottles: the XOR of g(n-1-i) over the bottles i that hold an
/// odd number of beans (an even number of equal beans cancels).
pub fn row_value<T: Copy + Into<u64>>(counts: &[T]) -> u64 {
    let n = counts.len();
    counts
        .iter()
        .enumerate()
        .filter(|(_, &c)| c.into() % 2 == 1)
        .fold(0, |acc, (i, _)| acc ^ bean_value(n - 1 - i))
}

/// Verdict and every winning move of a row given by its bean counts, by value.
///
/// The components handed to [`analyze_sum`] are, for each non-empty bottle i, one bean
/// of it (value g(d_i)) and the other c_i - 1 beans together (value g(d_i) when c_i is
/// even, else 0), so their XOR is the row's value. The moves of the single bean are
/// listed: those leaving it as two beans at j, k with g(d_j) xor g(d_k) equal to the
/// value it needs. The other beans of the bottle have exactly the same moves with the
/// same condition (both say g(d_i) xor g(d_j) xor g(d_k) = row value), so they list
/// nothing new and report none. Counts may be any size (only parity and emptiness
/// matter), which keeps the answer exact at and beyond the contest limits.
pub fn analyze_counts<T: Copy + Into<u64>>(counts: &[T]) -> Analysis<SplitMove> {
    let n = counts.len();
    let g: Vec<u64> = (0..n).map(|i| bean_value(n - 1 - i)).collect();
    let nonempty: Vec<usize> = (0..n).filter(|&i| counts[i].into() > 0).collect();
    let mut values: Vec<u64> = nonempty.iter().map(|&i| g[i]).collect();
    values.extend(nonempty.iter().map(|&i| {
        if counts[i].into().is_multiple_of(2) {
            g[i]
        } else {
            0
        }
    }));
    analyze_sum(&values, |component, need, out| {
        let Some(&i) = nonempty.get(component) else {
            return; // the other beans of a bottle: same moves as its single bean
        };
        for (j, &gj) in g.iter().enumerate().skip(i + 1) {
            // The bean needs g(d_j) xor g(d_k) == need: g(d_k) is determined.
            let Some(dk) = distance_of_value(need ^ gj) else {
                continue;
            };
            let dj = (n - 1 - j) as u64;
            if dk <= dj {
                let k = n - 1 - dk as usize; // dk <= dj means k >= j
                out.push(SplitMove { i, j, k });
            }
        }
    })
}

/// Verdict and every winning move of a position (see [`analyze_counts`]).
pub fn analyze(pos: &Bottles) -> Analysis<SplitMove> {
    analyze_counts(&pos.0)
}

/// The weight of one bean at distance `d` in [`row_size`]: 1 in the last two bottles,
/// then doubling with each step back (2^(d-1)), saturating for far bottles.
///
/// A move replaces a bean of weight 2^(d-1) by two of weight at most 2^(d-2) each, so
/// the weight of a row never grows, and the number of rows the oracle can reach from a
/// row grows with its weight: this is what keeps the enumeration cheap.
pub fn bean_weight(d: usize) -> u64 {
    if d == 0 {
        1
    } else {
        1u64 << (d - 1).min(62)
    }
}

/// The size of a row for smallest-first enumeration: extra bottles beyond `min_n`
/// plus the weight of every bean (see [`bean_weight`]).
pub fn row_size(counts: &[u64], min_n: usize) -> u64 {
    let n = counts.len();
    let beans = counts.iter().enumerate().fold(0u64, |acc, (i, &c)| {
        acc.saturating_add(c.saturating_mul(bean_weight(n - 1 - i)))
    });
    (n.saturating_sub(min_n) as u64).saturating_add(beans)
}

/// Every row with a number of bottles in `bottles` whose [`row_size`] (relative to the
/// range's start) is exactly `size`: by number of bottles, then lexicographically.
pub fn rows_of_size(size: u64, bottles: RangeInclusive<usize>) -> Vec<Vec<u64>> {
    fn fill(i: usize, rest: u64, row: &mut Vec<u64>, out: &mut Vec<Vec<u64>>) {
        let n = row.len();
        if i + 1 == n {
            // The last bottle has weight 1: it takes what is left.
            row[i] = rest;
            out.push(row.clone());
            return;
        }
        let w = bean_weight(n - 1 - i);
        for c in 0..=rest / w {
            row[i] = c;
            fill(i + 1, rest - c * w, row, out);
        }
        row[i] = 0;
    }
    let min_n = *bottles.start();
    let mut out = Vec::new();
    for n in bottles {
        let extra = (n - min_n) as u64;
        if extra > size {
            break;
        }
        if n == 0 {
            if size == 0 {
                out.push(Vec::new());
            }
            continue;
        }
        fill(0, size - extra, &mut vec![0; n], &mut out);
    }
    out
}

/// Flips the parity of bottles until the row's value is 0 (a lost row): one bottle
/// worth the value if there is one, else two whose values XOR to it, else the odd
/// bottle worth the most (which removes one odd bottle, so this ends). A flip adds a
/// bean, or removes one from a bottle already at `max_count` (which must be >= 1).
pub fn make_losing(counts: &mut [u64], max_count: u64) {
    let n = counts.len();
    let flip = |c: &mut u64| {
        if *c < max_count {
            *c += 1
        } else {
            *c -= 1
        }
    };
    loop {
        let total = row_value(counts);
        if total == 0 {
            return;
        }
        if let Some(d) = distance_of_value(total).filter(|&d| (d as usize) < n) {
            flip(&mut counts[n - 1 - d as usize]);
            continue;
        }
        let pair = (0..n).find_map(|j| {
            (j + 1..n)
                .find(|&k| bean_value(n - 1 - j) ^ bean_value(n - 1 - k) == total)
                .map(|k| (j, k))
        });
        if let Some((j, k)) = pair {
            flip(&mut counts[j]);
            flip(&mut counts[k]);
            continue;
        }
        // The first odd bottle is the one farthest from the end: the largest value.
        // It is not the last bottle, since the total is not 0.
        let i = (0..n).find(|&i| counts[i] % 2 == 1).expect("total != 0");
        flip(&mut counts[i]);
    }
}

/// Bottles at most this many in the smallest-first enumeration of `verify`: a bean in
/// bottle 0 of 7 bottles already costs the oracle about 17000 positions.
pub const ENUM_MAX_BOTTLES: usize = 7;

/// `verify`'s view of the bean-splitting game.
#[derive(Default)]
pub struct SplitSubject;

/// Tier 1 with the fast side given (the closed form the game's solver uses, or a
/// planted wrong one in the tests): the same comparisons, the same tables.
fn tier1_with(bean_value: impl Fn(usize) -> u64) -> Tier1Report {
    let mut report = Tier1Report::default();
    // The closed form against the mex table, over 4096 distances (the specification asks for
    // 64; the incremental table makes many more cheap).
    const LEN: usize = 4096;
    let t = table(LEN);
    report.compare("table length", t.len(), LEN);
    for (d, &v) in t.iter().enumerate() {
        report.compare(format!("g({d})"), bean_value(d), v);
    }
    // The incremental table against the plain definition with `mex`.
    for (d, (&slow, &fast)) in table_by_definition(128).iter().zip(&t).enumerate() {
        report.compare(format!("g({d}) by definition"), fast, slow);
    }
    // The inverse used by the analysis, against the table: every value below the
    // largest one is either some bean's value (at its distance) or none.
    let top = t[LEN - 1] as usize;
    let mut at: Vec<Option<u64>> = vec![None; top + 1];
    for (d, &v) in t.iter().enumerate() {
        at[v as usize] = Some(d as u64);
    }
    for (v, &d) in at.iter().enumerate() {
        report.compare(
            format!("distance of value {v}"),
            distance_of_value(v as u64),
            d,
        );
    }
    report
}

impl Subject for SplitSubject {
    type Rules = SplitGame;

    fn id(&self) -> &'static str {
        "split"
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
        tier1_with(bean_value)
    }

    fn instances(&self, size: u32) -> Vec<(SplitGame, Bottles)> {
        rows_of_size(size as u64, 0..=ENUM_MAX_BOTTLES)
            .into_iter()
            .map(|row| (SplitGame, to_bottles(&row)))
            .collect()
    }

    fn random_instance(&self, rng: &mut ChaCha8Rng) -> (SplitGame, Bottles) {
        (SplitGame, Bottles(random_row(rng)))
    }

    fn fast(&self, _rules: &SplitGame, pos: &Bottles) -> Analysis<SplitMove> {
        analyze(pos)
    }
}

fn to_bottles(row: &[u64]) -> Bottles {
    Bottles(
        row.iter()
            .map(|&c| u32::try_from(c).expect("enumerated counts are small"))
            .collect(),
    )
}

/// A random row small enough for the oracle, aimed at what the smallest-first
/// enumeration (at most [`ENUM_MAX_BOTTLES`] bottles, small sizes) does not reach:
/// up to 23 bottles (the largest contest row) with only the last few in play, so that
/// far empty bottles (the classic bug) and large distances are exercised; many beans
/// close to the end; and huge counts in the last bottle, whose beans never move. The
/// beans of the live bottles are a small weight budget (see [`bean_weight`]) spent on
/// random bottles, which bounds the oracle's work.
fn random_row(rng: &mut ChaCha8Rng) -> Vec<u32> {
    let n: usize = rng.gen_range(1..=23);
    let live = rng.gen_range(1..=n.min(6));
    let kind = rng.gen_range(0..8);
    let mut row = vec![0u32; n];
    // Many beans close to the end (kind 0) are costly enough on their own.
    let mut budget: u64 = rng.gen_range(0..=if kind == 0 { 3 } else { RANDOM_WEIGHT });
    while budget > 0 {
        let i = rng.gen_range(n - live..n);
        let w = bean_weight(n - 1 - i);
        if w <= budget {
            row[i] += 1;
            budget -= w;
        } else {
            budget -= 1; // spend it anyway, so that the loop ends
        }
    }
    match kind {
        0 if n >= 2 => {
            row[n - 2] += rng.gen_range(0..=100);
            if n >= 3 {
                row[n - 3] += rng.gen_range(0..=3);
            }
        }
        // The largest count the notation allows in the last bottle.
        1 => row[n - 1] = Bottles::MAX_COUNT - rng.gen_range(0..2),
        2 => row[n - 1] += rng.gen_range(0..=10_000),
        _ => {}
    }
    row
}

/// The largest weight budget of a random row (see [`random_row`]).
const RANDOM_WEIGHT: u64 = 12;

// ---------------------------------------------------------------------------------
// How declarations use the bean-splitting game: bottles in a row.

impl declared::Declare for SplitSubject {
    type Oracle = SplitGame;
    type Fast = ();
    const ID: &'static str = "split";
    const POSITION: &'static str = "bean counts of bottles 0..n-1";
    const MOVE_FIELDS: &'static [&'static str] = &["i", "j", "k"];
    // The analysis is quadratic in the number of bottles.
    const REACH: declared::Reach = declared::Reach {
        max_value: u64::MAX,
        max_len: 10_000,
        max_moves_work: u64::MAX,
    };

    fn build(_: &[declared::ParamValue<'_>]) -> Result<(), String> {
        Ok(())
    }
    fn first_wins(_: &(), position: &[u64]) -> Result<bool, String> {
        Ok(row_value(position) != 0)
    }
    fn analyze(_: &(), position: &[u64]) -> Result<Analysis<SplitMove>, String> {
        Ok(analyze_counts(position))
    }
    fn move_fields(m: &SplitMove, _: &[u64]) -> [u64; 4] {
        [m.i as u64, m.j as u64, m.k as u64, 0]
    }
    /// A count beyond [`Bottles::MAX_COUNT`] cannot be represented in the oracle's
    /// positions and counts as too large.
    fn oracle(_: &(), p: &[u64], budget: usize) -> Result<(SplitGame, Bottles), SearchError> {
        let row = p
            .iter()
            .map(|&c| {
                u32::try_from(c)
                    .ok()
                    .filter(|&c| c <= Bottles::MAX_COUNT)
                    .ok_or(SearchError::Budget { budget })
            })
            .collect::<Result<Vec<u32>, _>>()?;
        Ok((SplitGame, Bottles(row)))
    }
    fn make_losing(_: &(), p: &mut [u64], b: &[(u64, u64)], _: &mut ChaCha8Rng) -> bool {
        let top = b.iter().map(|&(_, hi)| hi).min().unwrap_or(0);
        if p.is_empty() || top == 0 || b.iter().any(|&(lo, _)| lo > 0) {
            return p.is_empty();
        }
        make_losing(p, top);
        true
    }
}

// ---------------------------------------------------------------------------------
// The `split_agree` fuzz target.

/// `split_agree`: 1..=6 bottles of at most 3 beans each.
impl crate::fuzzing::AgreeTarget for SplitSubject {
    fn fuzz_instance(
        &self,
        _: &[u8],
        rest: &[u8],
    ) -> Option<(SplitGame, <SplitGame as sgcheck_oracles::Rules>::Position)> {
        let b = crate::fuzzing::small_piles(rest, 6, 3)?;
        if b.is_empty() {
            return None;
        }
        Some((
            SplitGame,
            Bottles(b.into_iter().map(|c| c as u32).collect()),
        ))
    }
}

// ---------------------------------------------------------------------------------
// Its line in the registry.

impl crate::games::BuiltIn for SplitSubject {
    const ID: &'static str = "split";
    const SUMMARY: &'static str =
        "bottles 0..n-1; take a bean from a non-empty bottle i and put one into j and \
         one into k, i < j <= k < n (two into j when j == k); normal play. Rules: -";
    const DECLARABLE: Option<&'static dyn declared::DeclarableGame> =
        Some(declared::Declared::<Self>::GAME);
}

// ---------------------------------------------------------------------------------
// Checking users' own solvers of it ([`crate::Game`]).

impl crate::Game for SplitGame {
    from_subject!(SplitSubject);
    fn shrink(&self, pos: &Bottles) -> Vec<(SplitGame, Bottles)> {
        // Bottles count beans in u32; the shrunk values never exceed the original ones.
        let v: Vec<u64> = pos.0.iter().map(|&c| u64::from(c)).collect();
        crate::shrink::list(&v, 1, 0)
            .into_iter()
            .map(|w| {
                let b = w.into_iter().map(|c| c as u32).collect();
                (SplitGame, Bottles(b))
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::verify::PlantedTier1;
    #[test]
    fn planted_tier1_bug_reaches_the_report() {
        // The value of a bean at distance 10 taken from distance 9.
        let planted = || tier1_with(|d| bean_value(if d == 10 { 9 } else { d }));
        PlantedTier1 {
            subject: &SplitSubject,
            tier1: &planted,
        }
        .assert_caught("g(10)");
    }

    use crate::verify::{FastFn, Planted};
    use std::time::Duration;

    #[test]
    fn golden_values() {
        // Split game g(d): OEIS A000069 (odious numbers) after g(0) = 0.
        let spec = [
            0, 1, 2, 4, 7, 8, 11, 13, 14, 16, 19, 21, 22, 25, 26, 28, 31, 32, 35, 37, 38,
        ];
        for (d, &v) in spec.iter().enumerate() {
            assert_eq!(bean_value(d), v, "closed form g({d})");
        }
        assert_eq!(table(spec.len()), spec);
        assert_eq!(table_by_definition(spec.len()), spec);
    }

    #[test]
    fn closed_form_matches_tables() {
        let t = table(300);
        assert_eq!(table_by_definition(64), t[..64]);
        for (d, &v) in t.iter().enumerate() {
            assert_eq!(bean_value(d), v, "g({d})");
            assert_eq!(distance_of_value(v), Some(d as u64));
        }
        // Evil numbers are no bean's value.
        for v in [3u64, 5, 6, 9, 10, 12, 15, u64::MAX] {
            assert_eq!(distance_of_value(v), None, "{v}");
        }
    }

    #[test]
    fn tier1_is_clean() {
        let r = SplitSubject.tier1();
        assert!(r.checked > 4096, "{r:?}");
        assert_eq!(r.disagreements, 0, "{r:?}");
    }

    fn best_and_count(counts: &[u64]) -> (Option<SplitMove>, usize) {
        let a = analyze_counts(counts);
        assert_eq!(a.win, !a.winning.is_empty(), "{counts:?}");
        (a.best().copied(), a.count())
    }

    fn mv(i: usize, j: usize, k: usize) -> Option<SplitMove> {
        Some(SplitMove { i, j, k })
    }

    #[test]
    fn spec_known_answers() {
        // bzoj1188 statement sample and known answers checked by exhaustive search.
        assert_eq!(best_and_count(&[1, 0, 1, 5000]), (mv(0, 2, 3), 1));
        assert_eq!(best_and_count(&[0, 0, 1]), (None, 0));
        assert_eq!(best_and_count(&[0, 0, 0, 1, 0]), (mv(3, 4, 4), 1));
        assert_eq!(best_and_count(&[1, 0, 5]), (mv(0, 1, 1), 2));
        assert_eq!(best_and_count(&[2, 1]), (None, 0));
        assert_eq!(best_and_count(&[3, 2, 1, 0, 4, 5]), (mv(0, 2, 5), 1));
        let one_to_21: Vec<u64> = (1..=21).collect();
        assert_eq!(best_and_count(&one_to_21), (mv(0, 2, 20), 10));
        // uva1378 statement sample: best moves only.
        assert_eq!(best_and_count(&[1, 0, 1, 100]).0, mv(0, 2, 3));
    }

    #[test]
    fn analysis_matches_every_triple() {
        // The O(n^2) search by inverse value against the plain O(n^3) rule of the
        // module doc, on rows with empty, odd and even bottles.
        let rows: [&[u64]; 5] = [
            &[1, 2, 3, 0, 5, 6, 7, 0, 9],
            &[0, 1, 0, 1, 0, 1, 0, 1],
            &[2, 2, 2, 1, 0],
            &[
                7, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 3,
            ],
            &[1; 23],
        ];
        for row in rows {
            let n = row.len();
            let total = row_value(row);
            let mut want = Vec::new();
            for i in (0..n).filter(|&i| row[i] > 0) {
                for j in i + 1..n {
                    for k in j..n {
                        let g = |x: usize| bean_value(n - 1 - x);
                        if g(i) ^ g(j) ^ g(k) == total {
                            want.push(SplitMove { i, j, k });
                        }
                    }
                }
            }
            let a = analyze_counts(row);
            assert_eq!(a.winning, want, "{row:?}");
            assert_eq!(a.win, total != 0, "{row:?}");
        }
    }

    #[test]
    fn parity_not_emptiness() {
        // `2,0`: two beans of value g(1) = 1 cancel, so the row is lost; XOR over
        // non-empty bottles would call it won.
        assert_eq!(row_value(&[2u64, 0]), 0);
        assert!(!analyze_counts(&[2u64, 0]).win);
        // u32 and u64 counts give the same answer, at the limits too.
        let a = analyze(&Bottles(vec![Bottles::MAX_COUNT, 0, 10_000, 1]));
        assert_eq!(
            a,
            analyze_counts(&[Bottles::MAX_COUNT as u64, 0, 10_000, 1])
        );
        assert_eq!(
            analyze_counts(&[u64::MAX, 1]).winning,
            vec![SplitMove { i: 0, j: 1, k: 1 }]
        );
    }

    #[test]
    fn rows_by_size() {
        // By hand: a bottle adds 1, a bean in the last two bottles adds 1.
        assert_eq!(rows_of_size(0, 0..=3), vec![Vec::<u64>::new()]);
        assert_eq!(rows_of_size(1, 0..=3), vec![vec![0]]);
        assert_eq!(rows_of_size(2, 0..=3), vec![vec![1], vec![0, 0]]);
        assert_eq!(
            rows_of_size(3, 0..=3),
            vec![vec![2], vec![0, 1], vec![1, 0], vec![0, 0, 0]]
        );
        // Relative to the smallest number of bottles: size 0 is every empty row of 2.
        assert_eq!(rows_of_size(0, 2..=21), vec![vec![0, 0]]);
        for size in 0..12 {
            for row in rows_of_size(size, 2..=5) {
                assert_eq!(row_size(&row, 2), size, "{row:?}");
                assert!((2..=5).contains(&row.len()));
            }
        }
        // `0,0,0,1,0` (n = 5) has size 5 + 1 = 6.
        assert!(rows_of_size(6, 0..=7).contains(&vec![0, 0, 0, 1, 0]));
    }

    #[test]
    fn make_losing_zeroes_the_value() {
        let mut rng = <ChaCha8Rng as rand::SeedableRng>::seed_from_u64(7);
        for _ in 0..500 {
            let n = rng.gen_range(1..=23);
            let max = rng.gen_range(1..=1000);
            let mut row: Vec<u64> = (0..n).map(|_| rng.gen_range(0..=max)).collect();
            make_losing(&mut row, max);
            assert_eq!(row_value(&row), 0, "{row:?}");
            assert!(row.iter().all(|&c| c <= max));
            assert!(!analyze_counts(&row).win);
        }
    }

    /// Runs `verify` on a planted bug; returns the position of the first disagreement.
    fn caught(bug: FastFn<SplitGame>) -> String {
        Planted {
            subject: &SplitSubject,
            fast: bug,
        }
        .first_disagreement(Duration::from_secs(20))
        .expect("planted bug not caught")
        .position
    }

    /// Every (i, j, k) with g(d_i) ^ g(d_j) ^ g(d_k) == `total`, empty bottles included
    /// unless `nonempty_only`.
    fn triples(counts: &[u32], total: u64, nonempty_only: bool) -> Vec<SplitMove> {
        let n = counts.len();
        let g = |x: usize| bean_value(n - 1 - x);
        let mut out = Vec::new();
        for (i, &c) in counts.iter().enumerate() {
            if nonempty_only && c == 0 {
                continue;
            }
            for j in i + 1..n {
                for k in j..n {
                    if g(i) ^ g(j) ^ g(k) == total {
                        out.push(SplitMove { i, j, k });
                    }
                }
            }
        }
        out
    }

    #[test]
    fn planted_moves_from_empty_bottles() {
        // A mistake real solutions make: counting moves from an empty bottle
        // passes both official samples; the smallest failing case is n=5, `0 0 0 1 0`
        // (the bogus move 0:1:2 takes a bean from the empty bottle 0: 7^4^2 = 1).
        let pos = caught(|_, pos| {
            let total = row_value(&pos.0);
            let winning = if total == 0 {
                Vec::new()
            } else {
                triples(&pos.0, total, false)
            };
            Analysis {
                win: total != 0,
                winning,
                remoteness: None,
            }
        });
        assert_eq!(pos, "0,0,0,1,0");
    }

    #[test]
    fn planted_xor_over_nonempty_bottles() {
        // XOR over non-empty instead of odd bottles: `2,0` is lost (the two beans
        // cancel) but the bug sees value g(1) = 1 and plays 0:1:1.
        let pos = caught(|_, pos| {
            let n = pos.0.len();
            let total = (0..n)
                .filter(|&i| pos.0[i] > 0)
                .fold(0, |a, i| a ^ bean_value(n - 1 - i));
            let winning = if total == 0 {
                Vec::new()
            } else {
                triples(&pos.0, total, true)
            };
            Analysis {
                win: total != 0,
                winning,
                remoteness: None,
            }
        });
        assert_eq!(pos, "2,0");
    }

    #[test]
    fn planted_dropping_double_moves() {
        // Dropping j == k moves: `1,0` has the single move 0:1:1, which wins.
        let pos = caught(|_, pos| {
            let mut a = analyze(pos);
            a.winning.retain(|m| m.j != m.k);
            a
        });
        assert_eq!(pos, "1,0");
    }
}
