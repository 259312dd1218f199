//! The staircase game (Georgia and Bob): sort the cells, add a virtual piece at cell 0
//! when the number of pieces is odd, pair the pieces from the right end; the player to
//! move loses iff the XOR of the gaps inside the pairs is 0.
//!
//! Rules (game `staircase`; contest POJ 1704; the oracle's [`Staircase`]): pieces on
//! distinct cells 1, 2, 3, ...; a move shifts one piece left by at least one cell,
//! never onto or past another piece, never past cell 1. Normal play.
//!
//! **Why.** Write the sorted cells, with the virtual piece at 0 for an odd count, as
//! v0 < v1 < ... < v(2m-1) and pair them (v0, v1), (v2, v3), ...: pairing from the
//! right end. Pair k has the gap g_k = v(2k+1) - v(2k) - 1 (free cells inside it); the
//! free cells between pairs do not count. Every legal move changes exactly one pair
//! gap and no other:
//! - moving the right piece of pair k (v(2k+1)) to a cell t in (v(2k), v(2k+1)) makes
//!   g_k any smaller value t - v(2k) - 1 in 0..g_k (and widens the space between pairs
//!   to its right, which is not a gap);
//! - moving the left piece of pair k (v(2k), a real piece) to t in (L, v(2k)), where L
//!   is the right piece of pair k - 1 (or 0 for the first pair), makes g_k *larger*
//!   by d = v(2k) - t, any d in 1..=v(2k) - L - 1 (and shrinks the space between pairs
//!   to its left, again not a gap);
//! - the virtual piece never moves, and the order of the pieces never changes.
//!
//! So the position is Nim on the gaps, where a heap may also grow. The positions with
//! XOR 0 are lost: every move changes one heap, so the XOR becomes non-zero; from XOR
//! != 0 Bouton's move (the right piece of a pair with g_k ^ X < g_k) brings it back to
//! 0; the final position (all pieces packed against cell 1) has every gap 0. The game
//! is finite (the sum of the cells falls with every move), so induction on that sum
//! proves it.
//!
//! **Winning moves** are the moves to XOR 0. With X the XOR of all gaps and
//! need = X ^ g_k, a move of pair k wins iff it sets g_k to need:
//! - the right piece wins iff need < g_k, by moving to v(2k) + 1 + need;
//! - the left piece wins iff need > g_k and the room to its left allows d = need -
//!   g_k, i.e. need - g_k <= v(2k) - L - 1, by moving to v(2k) - d.
//!
//! Each piece has at most one winning target: O(n log n) for the sort, O(n) after.

use crate::games::declared;
use crate::verify::{Subject, Tier1Report};
use rand::seq::SliceRandom;
use rand::Rng;
use rand_chacha::ChaCha8Rng;
use sgcheck_oracles::games::staircase::{Cells, Shift, Staircase};
use sgcheck_oracles::Analysis;
use sgcheck_oracles::SearchError;

/// The cells in increasing order after `pad` zeros, or the first repeated cell. When
/// the cells are dense enough (the largest below 2^16 or 16 times the count) a bit set
/// sorts them in O(n + max / 64); otherwise a sort.
pub fn sorted_cells(cells: &[u64], pad: usize) -> Result<Vec<u64>, u64> {
    let mut v = Vec::with_capacity(cells.len() + pad);
    v.resize(pad, 0);
    let max = cells.iter().copied().max().unwrap_or(0);
    if max < (1 << 16).max(16 * cells.len() as u64) {
        let mut bits = vec![0u64; (max / 64 + 1) as usize];
        for &c in cells {
            let (w, b) = ((c / 64) as usize, c % 64);
            if bits[w] >> b & 1 == 1 {
                return Err(c);
            }
            bits[w] |= 1 << b;
        }
        for (w, &word) in bits.iter().enumerate() {
            let mut word = word;
            while word != 0 {
                v.push(w as u64 * 64 + u64::from(word.trailing_zeros()));
                word &= word - 1;
            }
        }
    } else {
        v.extend_from_slice(cells);
        v[pad..].sort_unstable();
        if let Some(w) = v[pad..].windows(2).find(|w| w[0] == w[1]) {
            return Err(w[0]);
        }
    }
    Ok(v)
}

/// The padded sorted cells: a virtual piece at 0 first when the count is odd. (Cells
/// are distinct in a position; a repeat, which no position has, is kept.)
fn padded(cells: &[u64]) -> Vec<u64> {
    let pad = cells.len() % 2;
    sorted_cells(cells, pad).unwrap_or_else(|_| {
        let mut v = vec![0; pad];
        v.extend_from_slice(cells);
        v[pad..].sort_unstable();
        v
    })
}

/// XOR of the pair gaps of padded sorted cells.
fn gaps_xor(v: &[u64]) -> u64 {
    v.chunks_exact(2).fold(0, |x, p| x ^ (p[1] - p[0] - 1))
}

/// Closed form: whether the player to move wins (cells distinct, in any order).
pub fn first_wins(cells: &[u64]) -> bool {
    gaps_xor(&padded(cells)) != 0
}

/// Verdict and every winning move, in canonical order (cell ascending, then target).
pub fn analyze(pos: &Cells) -> Analysis<Shift> {
    let v = padded(&pos.0);
    let x = gaps_xor(&v);
    let mut winning = Vec::new();
    if x != 0 {
        let real_from = pos.0.len() % 2;
        for (k, pair) in v.chunks_exact(2).enumerate() {
            let (a, b) = (pair[0], pair[1]);
            let g = b - a - 1;
            let need = x ^ g;
            if need < g {
                winning.push(Shift {
                    from: b,
                    to: a + 1 + need,
                });
            } else if 2 * k >= real_from {
                // The left piece is real: room down to the previous pair's right piece.
                let left = if k == 0 { 0 } else { v[2 * k - 1] };
                let d = need - g;
                if d < a - left {
                    winning.push(Shift { from: a, to: a - d });
                }
            }
        }
        winning.sort();
    }
    Analysis {
        win: x != 0,
        winning,
        remoteness: None,
    }
}

/// Direct win/lose table over sets of cells in 1..=`top` with at most `max` pieces,
/// indexed by the bit mask of occupied cells (bit c - 1 for cell c). Every move lowers
/// the mask, so one pass in increasing order fills it. Masks with more pieces stay
/// false and are never read.
pub fn table(top: u32, max: u32) -> Vec<bool> {
    let mut win = vec![false; 1 << top];
    for mask in 0u32..1 << top {
        if mask.count_ones() > max {
            continue;
        }
        win[mask as usize] = moves_of_mask(mask).any(|m| !win[m as usize]);
    }
    win
}

/// The masks reachable in one move from `mask`, with the move.
fn moves_of_mask(mask: u32) -> impl Iterator<Item = u32> {
    (0..32u32)
        .filter(move |&c| mask >> c & 1 == 1)
        .flat_map(move |c| {
            let below = mask & ((1u32 << c) - 1);
            let lowest = if below == 0 {
                0
            } else {
                32 - below.leading_zeros()
            };
            (lowest..c).map(move |t| mask & !(1 << c) | 1 << t)
        })
}

/// `verify`'s view of the staircase game.
#[derive(Default)]
pub struct StaircaseSubject;

/// Tier 1 with the fast side given (the closed form the game's solver uses, or a
/// planted wrong one in the tests): the same comparisons, the same tables.
fn tier1_with(analyze: impl Fn(&Cells) -> Analysis<Shift>) -> Tier1Report {
    const TOP: u32 = 18;
    let mut report = Tier1Report::default();
    let win = table(TOP, 6);
    for mask in 1u32..1 << TOP {
        if mask.count_ones() > 6 {
            continue;
        }
        let cells: Vec<u64> = (0..TOP)
            .filter(|c| mask >> c & 1 == 1)
            .map(|c| u64::from(c) + 1)
            .collect();
        let a = analyze(&Cells(cells.clone()));
        report.compare(format!("cells {cells:?}"), a.win, win[mask as usize]);
        let mut want: Vec<(u64, u64)> = moves_of_mask(mask)
            .filter(|&m| !win[m as usize])
            .map(|m| {
                let from = (mask & !m).trailing_zeros() as u64 + 1;
                let to = (m & !mask).trailing_zeros() as u64 + 1;
                (from, to)
            })
            .collect();
        want.sort_unstable();
        let fast: Vec<(u64, u64)> = a.winning.iter().map(|m| (m.from, m.to)).collect();
        report.compare(format!("winning moves of {cells:?}"), fast, want);
    }
    report
}

impl Subject for StaircaseSubject {
    type Rules = Staircase;

    fn id(&self) -> &'static str {
        "staircase"
    }

    fn reproduce(&self, rules: &Staircase, pos: &Cells) -> String {
        crate::verify::check_command(self.id(), &rules.to_string(), &pos.to_string())
    }

    /// The closed form (verdict and winning moves) against the direct table, on every
    /// set of 1 to 6 pieces on cells 1..=18.
    fn tier1(&self) -> Tier1Report {
        tier1_with(analyze)
    }

    /// Every set of at most 5 cells whose largest cell is `size`, sorted and also
    /// reversed (the contest gives the cells unsorted); size 0 is the empty row.
    fn instances(&self, size: u32) -> Vec<(Staircase, Cells)> {
        if size == 0 {
            return vec![(Staircase, Cells(Vec::new()))];
        }
        if size > 40 {
            return Vec::new();
        }
        let top = u64::from(size);
        let mut out = Vec::new();
        let mut sets: Vec<Vec<u64>> = vec![vec![]];
        for c in 1..top {
            let grown: Vec<Vec<u64>> = sets
                .iter()
                .filter(|s| s.len() < 4)
                .map(|s| {
                    let mut t = s.clone();
                    t.push(c);
                    t
                })
                .collect();
            sets.extend(grown);
        }
        for mut s in sets {
            s.push(top);
            if s.len() > 1 {
                out.push((Staircase, Cells(s.iter().rev().copied().collect())));
            }
            out.push((Staircase, Cells(s)));
        }
        out
    }

    /// 1 to 6 pieces on distinct cells of 1..=16, shuffled.
    fn random_instance(&self, rng: &mut ChaCha8Rng) -> (Staircase, Cells) {
        let n = rng.gen_range(1..=6);
        let mut cells: Vec<u64> = rand::seq::index::sample(rng, 16, n)
            .into_iter()
            .map(|i| i as u64 + 1)
            .collect();
        cells.shuffle(rng);
        (Staircase, Cells(cells))
    }

    fn fast(&self, _rules: &Staircase, pos: &Cells) -> Analysis<Shift> {
        analyze(pos)
    }
}

// ---------------------------------------------------------------------------------
// How declarations use the staircase game (Georgia and Bob): pieces on distinct
// cells, in the order given.

impl declared::Declare for StaircaseSubject {
    type Oracle = Staircase;
    type Fast = ();
    const ID: &'static str = "staircase";
    const POSITION: &'static str = "the pieces' cells: distinct, each at least 1, in any order";
    const MOVE_FIELDS: &'static [&'static str] = &["from", "to"];

    fn build(_: &[declared::ParamValue<'_>]) -> Result<(), String> {
        Ok(())
    }
    fn check(_: &(), position: &[u64]) -> Result<(), String> {
        if position.contains(&0) {
            return Err("cells are numbered from 1".into());
        }
        match sorted_cells(position, 0) {
            Err(c) => Err(format!("two pieces on cell {c}")),
            Ok(_) => Ok(()),
        }
    }
    fn first_wins(_: &(), position: &[u64]) -> Result<bool, String> {
        Ok(first_wins(position))
    }
    fn analyze(_: &(), position: &[u64]) -> Result<Analysis<Shift>, String> {
        Ok(analyze(&Cells(position.to_vec())))
    }
    fn move_fields(m: &Shift, _: &[u64]) -> [u64; 4] {
        [m.from, m.to, 0, 0]
    }
    fn oracle(_: &(), position: &[u64], _: usize) -> Result<(Staircase, Cells), SearchError> {
        Ok((Staircase, Cells(position.to_vec())))
    }
    /// One pair's gap set to the XOR of the others: its right piece moved (left or
    /// right, staying between its pair's left piece and the next pair), or else its
    /// left piece; pairs tried from a random one. Cells stay distinct and in order.
    fn make_losing(_: &(), p: &mut [u64], b: &[(u64, u64)], rng: &mut ChaCha8Rng) -> bool {
        let n = p.len();
        if n == 0 {
            return true;
        }
        // Sorted (cell, index), with the virtual piece at 0 (index n) for odd n.
        let mut v: Vec<(u64, usize)> = p.iter().copied().zip(0..).collect();
        v.sort_unstable();
        if v.windows(2).any(|w| w[0].0 == w[1].0) || v[0].0 == 0 {
            return false;
        }
        if n % 2 == 1 {
            v.insert(0, (0, n));
        }
        let pairs = v.len() / 2;
        let gap = |v: &[(u64, usize)], k: usize| v[2 * k + 1].0 - v[2 * k].0 - 1;
        let x = (0..pairs).fold(0, |x, k| x ^ gap(&v, k));
        if x == 0 {
            return true;
        }
        let first = rng.gen_range(0..pairs);
        for t in 0..pairs {
            let k = (first + t) % pairs;
            let need = x ^ gap(&v, k);
            let (a, ia) = v[2 * k];
            let (_, ib) = v[2 * k + 1];
            // The right piece goes to a + 1 + need, below the next pair's left piece.
            let to = a.checked_add(1 + need);
            let next = v.get(2 * k + 2).map_or(u64::MAX, |e| e.0);
            if let Some(to) = to.filter(|&c| c < next && (b[ib].0..=b[ib].1).contains(&c)) {
                p[ib] = to;
                return true;
            }
            // Or the left piece (a real one) to b - 1 - need, above the previous pair.
            let (bcell, _) = v[2 * k + 1];
            let prev = if k == 0 { 0 } else { v[2 * k - 1].0 };
            if ia < n {
                if let Some(to) = bcell.checked_sub(1 + need) {
                    if to > prev && (b[ia].0..=b[ia].1).contains(&to) {
                        p[ia] = to;
                        return true;
                    }
                }
            }
        }
        false
    }
}

// ---------------------------------------------------------------------------------
// The `staircase_agree` fuzz target.

/// `staircase_agree`: up to 5 pieces, one byte per cell (1..=16, distinct, in the
/// order given).
impl crate::fuzzing::AgreeTarget for StaircaseSubject {
    fn fuzz_instance(
        &self,
        _: &[u8],
        rest: &[u8],
    ) -> Option<(Staircase, <Staircase as sgcheck_oracles::Rules>::Position)> {
        let cells = crate::fuzzing::small_piles(rest, 5, 16)?;
        let mut sorted = cells.clone();
        sorted.sort_unstable();
        if sorted.first() == Some(&0) || sorted.windows(2).any(|w| w[0] == w[1]) {
            return None;
        }
        Some((Staircase, Cells(cells)))
    }
}

// ---------------------------------------------------------------------------------
// Its line in the registry.

impl crate::games::BuiltIn for StaircaseSubject {
    const ID: &'static str = "staircase";
    const SUMMARY: &'static str =
        "pieces on distinct cells 1, 2, 3, ...; move one piece left by at least one \
         cell, never onto or past another piece; normal play. Rules: -";
    const DECLARABLE: Option<&'static dyn declared::DeclarableGame> =
        Some(declared::Declared::<Self>::GAME);
}

// ---------------------------------------------------------------------------------
// Checking users' own solvers of it ([`crate::Game`]).

impl crate::Game for Staircase {
    from_subject!(StaircaseSubject);
    /// Fewer pieces, lower cells; candidates with two pieces on one cell are dropped.
    fn shrink(&self, pos: &Cells) -> Vec<(Staircase, Cells)> {
        crate::shrink::list(&pos.0, 0, 1)
            .into_iter()
            .filter(|v| {
                let mut s = v.clone();
                s.sort_unstable();
                s.windows(2).all(|w| w[0] != w[1])
            })
            .map(|v| (Staircase, Cells(v)))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::verify::PlantedTier1;
    #[test]
    fn planted_tier1_bug_reaches_the_report() {
        // The verdict of the pieces on cells 1 and 3 flipped.
        let planted = || {
            tier1_with(|c| {
                let mut a = analyze(c);
                a.win ^= c.0 == [1, 3];
                a
            })
        };
        PlantedTier1 {
            subject: &StaircaseSubject,
            tier1: &planted,
        }
        .assert_caught("cells [1, 3]");
    }

    use crate::verify::Planted;
    use std::time::Duration;

    #[test]
    fn statement_samples() {
        // POJ 1704 sample: 1 2 3 => Bob; 1 5 6 7 9 12 14 17 => Georgia.
        assert!(!first_wins(&[1, 2, 3]));
        assert!(first_wins(&[1, 5, 6, 7, 9, 12, 14, 17]));
        assert!(first_wins(&[17, 5, 1, 14, 6, 12, 7, 9]));
    }

    #[test]
    fn left_piece_moves_can_win() {
        // 1,3,4,6 (pairs (1,3), (4,6), gaps 1 and 1): lost. 2,3,4,6: pairs (2,3), (4,6),
        // gaps 0 and 1, X = 1; winning: 6 -> 5 (right piece), or 2 -> 1 (left piece,
        // gap 0 -> 1).
        assert!(!first_wins(&[1, 3, 4, 6]));
        let a = analyze(&Cells(vec![6, 4, 3, 2]));
        let w: Vec<String> = a.winning.iter().map(|m| m.to_string()).collect();
        assert_eq!(w, ["2>1", "6>5"]);
    }

    #[test]
    fn sorted_cells_both_ways() {
        assert_eq!(sorted_cells(&[9, 3, 70, 1], 1), Ok(vec![0, 1, 3, 9, 70]));
        assert_eq!(sorted_cells(&[9, 3, 9], 0), Err(9));
        // Sparse: the sort.
        let big = [1u64 << 40, 5, 1 << 33];
        assert_eq!(sorted_cells(&big, 0), Ok(vec![5, 1 << 33, 1 << 40]));
        assert_eq!(sorted_cells(&[1 << 40, 1 << 40], 0), Err(1 << 40));
        assert_eq!(sorted_cells(&[], 0), Ok(vec![]));
    }

    #[test]
    fn tier1_agrees() {
        let r = StaircaseSubject.tier1();
        assert!(r.checked > 10_000);
        assert_eq!(r.disagreements, 0, "{:?}", r.first);
    }

    /// Planted bugs of contest solutions, each found by the sweep on a small position.
    #[test]
    fn planted_mistakes_are_caught() {
        fn verdict_only(win: bool) -> Analysis<Shift> {
            Analysis {
                win,
                winning: Vec::new(),
                remoteness: None,
            }
        }
        fn with_verdict(pos: &Cells, win: bool) -> Analysis<Shift> {
            let a = analyze(pos);
            if a.win == win {
                a
            } else {
                verdict_only(win)
            }
        }
        // Not sorting: the cells paired in input order.
        fn unsorted(_: &Staircase, pos: &Cells) -> Analysis<Shift> {
            let mut v = pos.0.clone();
            if v.len() % 2 == 1 {
                v.insert(0, 0);
            }
            let x = v
                .chunks_exact(2)
                .fold(0, |x, p| x ^ p[1].abs_diff(p[0]).saturating_sub(1));
            with_verdict(pos, x != 0)
        }
        // No virtual piece for an odd count: pairs from the left, the last piece alone.
        fn no_virtual(_: &Staircase, pos: &Cells) -> Analysis<Shift> {
            let mut v = pos.0.clone();
            v.sort_unstable();
            let x = v.chunks_exact(2).fold(0, |x, p| x ^ (p[1] - p[0] - 1));
            with_verdict(pos, x != 0)
        }
        // Pairing from the left: for an odd count the top piece is left over.
        fn from_left(_: &Staircase, pos: &Cells) -> Analysis<Shift> {
            let mut v = pos.0.clone();
            v.sort_unstable();
            let x = v
                .chunks(2)
                .fold(0, |x, p| x ^ if p.len() == 2 { p[1] - p[0] - 1 } else { 0 });
            with_verdict(pos, x != 0)
        }
        for (name, f) in [
            ("unsorted", unsorted as crate::verify::FastFn<Staircase>),
            ("no virtual piece", no_virtual),
            ("pairs from the left", from_left),
        ] {
            let d = Planted {
                subject: &StaircaseSubject,
                fast: f,
            }
            .first_disagreement(Duration::from_secs(5));
            let d = d.unwrap_or_else(|| panic!("{name}: planted bug not found"));
            assert!(d.position.split(',').count() <= 3, "{name}: {}", d.position);
        }
    }
}
