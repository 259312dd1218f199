//! Moore's Nim_k.
//!
//! Rules (game `nim-k`): a row of heaps; a move chooses between 1 and k heaps (k is the
//! game's parameter) and takes a positive number of tokens from each chosen heap, the
//! amounts chosen freely per heap. Normal play: the player with no move (every heap
//! empty) loses. With k = 1 this is Nim.
//!
//! Notation: a position is its heaps, comma-separated, as in Nim ([`Piles`]). A move is
//! its `heap:amount` parts joined by `+`, heaps ascending ([`NimKMove`]; `0:3+2:1` takes
//! 3 from heap 0 and 1 from heap 2). The rules are written `k=2`.
//! Canonical move order: the sorted tuple of heap indices, then the amounts, both
//! compared lexicographically.

use crate::games::nim::Piles;
use crate::{NotationError, Rules};
use std::fmt;
use std::str::FromStr;

/// The rules of Nim_k: take from 1 to `k` heaps at once.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct NimK {
    /// The most heaps one move takes from; at least 1.
    pub k: u64,
}

/// One move: the heaps (ascending, distinct, 1 to k of them) and the amount taken from
/// each (at least 1, at most the heap). The derived order compares `heaps` first, then
/// `amounts`: the canonical order.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct NimKMove {
    /// The chosen heaps, ascending.
    pub heaps: Vec<usize>,
    /// The amount taken from each chosen heap, in the order of `heaps`.
    pub amounts: Vec<u64>,
}

impl NimK {
    /// Every non-empty set of at most `k` heaps among the non-empty ones, ascending.
    fn heap_sets(&self, pos: &Piles) -> Vec<Vec<usize>> {
        let live: Vec<usize> = (0..pos.0.len()).filter(|&i| pos.0[i] > 0).collect();
        let mut sets = Vec::new();
        let mut cur = Vec::new();
        fn rec(
            live: &[usize],
            from: usize,
            k: u64,
            cur: &mut Vec<usize>,
            sets: &mut Vec<Vec<usize>>,
        ) {
            for j in from..live.len() {
                cur.push(live[j]);
                sets.push(cur.clone());
                if (cur.len() as u64) < k {
                    rec(live, j + 1, k, cur, sets);
                }
                cur.pop();
            }
        }
        if self.k > 0 {
            rec(&live, 0, self.k, &mut cur, &mut sets);
        }
        sets
    }
}

impl Rules for NimK {
    type Position = Piles;
    type Move = NimKMove;

    fn moves(&self, pos: &Piles, out: &mut Vec<(NimKMove, Piles)>) {
        for heaps in self.heap_sets(pos) {
            // Every vector of amounts, 1..=heap for each chosen heap (an odometer).
            let mut amounts = vec![1u64; heaps.len()];
            loop {
                let mut next = pos.clone();
                for (&h, &a) in heaps.iter().zip(&amounts) {
                    next.0[h] -= a;
                }
                out.push((
                    NimKMove {
                        heaps: heaps.clone(),
                        amounts: amounts.clone(),
                    },
                    next,
                ));
                // Advance the odometer; when every amount wrapped, this set is done.
                let mut i = amounts.len();
                let advanced = loop {
                    if i == 0 {
                        break false;
                    }
                    i -= 1;
                    if amounts[i] < pos.0[heaps[i]] {
                        amounts[i] += 1;
                        break true;
                    }
                    amounts[i] = 1;
                };
                if !advanced {
                    break;
                }
            }
        }
    }

    /// At most the product of (heap + 1) over all heaps: every heap either untouched
    /// or lowered to a smaller size.
    fn move_bound(&self, pos: &Piles) -> Option<u64> {
        Some(
            pos.0
                .iter()
                .fold(1u64, |a, &p| a.saturating_mul(p.saturating_add(1))),
        )
    }

    /// Reordering heaps changes nothing in the rules: positions are remembered with
    /// their heaps sorted.
    fn key(&self, pos: &Piles) -> Piles {
        let mut k = pos.clone();
        k.0.sort_unstable();
        k
    }

    fn position_bytes(&self, pos: &Piles) -> usize {
        std::mem::size_of::<Piles>() + pos.0.len() * std::mem::size_of::<u64>()
    }

    /// The moves of [`Rules::moves`], their children built in one buffer.
    fn for_each_move<F: FnMut(Self::Move, &Piles)>(&self, pos: &Piles, mut f: F) {
        for heaps in self.heap_sets(pos) {
            let mut amounts = vec![1u64; heaps.len()];
            lower_each(pos, &heaps, &mut amounts, &mut |amounts, c| {
                f(
                    NimKMove {
                        heaps: heaps.clone(),
                        amounts: amounts.to_vec(),
                    },
                    c,
                )
            });
        }
    }

    /// The moves of [`Rules::for_each_move`] whose child is wanted, the others not
    /// built.
    fn for_each_move_if<W, F>(&self, pos: &Piles, mut wanted: W, mut f: F)
    where
        W: FnMut(&Piles) -> bool,
        F: FnMut(Self::Move, &Piles),
    {
        for heaps in self.heap_sets(pos) {
            let mut amounts = vec![1u64; heaps.len()];
            lower_each(pos, &heaps, &mut amounts, &mut |amounts, c| {
                if wanted(c) {
                    f(
                        NimKMove {
                            heaps: heaps.clone(),
                            amounts: amounts.to_vec(),
                        },
                        c,
                    )
                }
            });
        }
    }

    /// The children of [`Rules::for_each_move`], without building the moves, from
    /// fewer heap sets: among heaps of equal size only the first ones are chosen
    /// (choosing others of the same size gives the same children up to order, so the
    /// same keys).
    fn for_each_child<F: FnMut(&Piles)>(&self, pos: &Piles, mut f: F) {
        let mut amounts = Vec::new();
        for heaps in self.heap_sets(pos) {
            let first_of_equals = heaps.iter().all(|&h| {
                let size = pos.0[h];
                let before = pos.0[..h].iter().filter(|&&s| s == size).count();
                let chosen = heaps.iter().filter(|&&g| g < h && pos.0[g] == size).count();
                before == chosen
            });
            if first_of_equals {
                amounts.clear();
                amounts.resize(heaps.len(), 1);
                lower_each(pos, &heaps, &mut amounts, &mut |_, c| f(c));
            }
        }
    }

    /// The non-empty heaps, packed like [`Rules::packed_key`]: an empty heap is never
    /// chosen, so positions that differ only in empty heaps have the same moves, to
    /// positions that again differ only in them.
    fn symmetric_key(&self, pos: &Piles) -> Option<u128> {
        crate::games::grundy::live_key(pos.0.iter().copied().filter(|&n| n > 0))
    }

    /// The sorted heaps (the key), packed when they fit: by count when every heap is
    /// below 16 (no sort needed), sorted otherwise.
    fn packed_key(&self, pos: &Piles) -> Option<u128> {
        crate::pack::pack_multiset(0, None, pos.0.iter().copied())
            .or_else(|| crate::pack::pack_sorted(0, &pos.0))
    }
}

/// Calls `f` with every vector of amounts (1..=heap for each of `heaps`, an odometer
/// starting from `amounts`, all ones) and the position they leave, built in one buffer.
fn lower_each(
    pos: &Piles,
    heaps: &[usize],
    amounts: &mut [u64],
    f: &mut impl FnMut(&[u64], &Piles),
) {
    let mut next = pos.clone();
    for &h in heaps {
        next.0[h] -= 1;
    }
    loop {
        f(amounts, &next);
        let mut i = amounts.len();
        let advanced = loop {
            if i == 0 {
                break false;
            }
            i -= 1;
            let h = heaps[i];
            if amounts[i] < pos.0[h] {
                amounts[i] += 1;
                next.0[h] -= 1;
                break true;
            }
            amounts[i] = 1;
            next.0[h] = pos.0[h] - 1;
        };
        if !advanced {
            break;
        }
    }
}

impl fmt::Display for NimK {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "k={}", self.k)
    }
}

impl FromStr for NimK {
    type Err = NotationError;
    /// Reads `k=2`; `k` must be at least 1.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        const WHAT: &str = "nim-k rules";
        let (key, value) = s
            .split_once('=')
            .ok_or_else(|| NotationError::new(WHAT, s, "expected k=<number>"))?;
        if key.trim() != "k" {
            return Err(NotationError::new(WHAT, s, "expected k=<number>"));
        }
        let k: u64 = value
            .trim()
            .parse()
            .map_err(|e| NotationError::new(WHAT, s, format!("k: {e}")))?;
        if k == 0 {
            return Err(NotationError::new(WHAT, s, "k must be at least 1"));
        }
        Ok(NimK { k })
    }
}

impl fmt::Display for NimKMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, (h, a)) in self.heaps.iter().zip(&self.amounts).enumerate() {
            if i > 0 {
                f.write_str("+")?;
            }
            write!(f, "{h}:{a}")?;
        }
        Ok(())
    }
}

impl FromStr for NimKMove {
    type Err = NotationError;
    /// Reads `0:3+2:1`: heaps strictly ascending, amounts at least 1.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        const WHAT: &str = "nim-k move";
        let mut m = NimKMove {
            heaps: Vec::new(),
            amounts: Vec::new(),
        };
        for part in s.split('+') {
            let (h, a) = part
                .split_once(':')
                .ok_or_else(|| NotationError::new(WHAT, s, "expected heap:amount+..."))?;
            let h: usize = h
                .trim()
                .parse()
                .map_err(|e| NotationError::new(WHAT, s, format!("heap: {e}")))?;
            let a: u64 = a
                .trim()
                .parse()
                .map_err(|e| NotationError::new(WHAT, s, format!("amount: {e}")))?;
            if a == 0 {
                return Err(NotationError::new(WHAT, s, "amounts are at least 1"));
            }
            if m.heaps.last().is_some_and(|&last| last >= h) {
                return Err(NotationError::new(WHAT, s, "heaps must be ascending"));
            }
            m.heaps.push(h);
            m.amounts.push(a);
        }
        Ok(m)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::nim::Nim;
    use crate::Solver;

    #[test]
    fn k1_is_nim() {
        // With k = 1 the moves are Nim's: the search gives Nim's verdicts.
        let mut a = Solver::verdict_only(NimK { k: 1 });
        let mut b = Solver::verdict_only(Nim);
        for x in 0..=5 {
            for y in 0..=5 {
                for z in 0..=3 {
                    let p = Piles(vec![x, y, z]);
                    assert_eq!(a.outcome(&p).unwrap().win, b.outcome(&p).unwrap().win);
                }
            }
        }
    }

    #[test]
    fn moore_losses_match_search() {
        // Moore's theorem (the game `nim-k` fact): lost iff for every bit the number of
        // heaps with that bit set is a multiple of k + 1. Asserted against the search
        // on 1-3 heaps of 0..=6, k = 2 and 3.
        for k in 2..=3u64 {
            let mut s = Solver::verdict_only(NimK { k });
            for x in 0..=6u64 {
                for y in 0..=6u64 {
                    for z in 0..=6u64 {
                        let p = Piles(vec![x, y, z]);
                        let moore = (0..3).all(|bit| {
                            let set = [x, y, z].into_iter().filter(|&v| v >> bit & 1 == 1);
                            (set.count() as u64).is_multiple_of(k + 1)
                        });
                        assert_eq!(!s.outcome(&p).unwrap().win, moore, "k={k} {p}");
                    }
                }
            }
        }
    }

    #[test]
    fn moves_and_order() {
        let mut out = Vec::new();
        NimK { k: 2 }.moves(&Piles(vec![1, 0, 2]), &mut out);
        let mut moves: Vec<NimKMove> = out.iter().map(|(m, _)| m.clone()).collect();
        moves.sort();
        let text: Vec<String> = moves.iter().map(|m| m.to_string()).collect();
        // Heap 1 is empty; heap sets [0], [0,2], [2] in that order.
        assert_eq!(text, ["0:1", "0:1+2:1", "0:1+2:2", "2:1", "2:2"]);
        // Three heaps of 1 with k = 2: no move takes all three at once.
        let mut out = Vec::new();
        NimK { k: 2 }.moves(&Piles(vec![1, 1, 1]), &mut out);
        assert_eq!(out.len(), 6);
        assert!(out.iter().all(|(m, _)| m.heaps.len() <= 2));
        // (1,1,1) with k = 2: bit 0 is set in 3 heaps, 3 % 3 = 0, so it is lost.
        assert!(
            !Solver::new(NimK { k: 2 })
                .analyze(&Piles(vec![1, 1, 1]))
                .unwrap()
                .win
        );
    }

    #[test]
    fn notation_round_trip() {
        assert_eq!("k=2".parse::<NimK>().unwrap(), NimK { k: 2 });
        assert_eq!(NimK { k: 3 }.to_string(), "k=3");
        for s in ["k=0", "2", "m=2"] {
            assert!(s.parse::<NimK>().is_err(), "{s}");
        }
        for m in ["0:3", "0:3+2:1", "1:1+2:2+5:7"] {
            assert_eq!(m.parse::<NimKMove>().unwrap().to_string(), m);
        }
        for m in ["2:1+0:3", "0:0", "0:1+0:2", "x"] {
            assert!(m.parse::<NimKMove>().is_err(), "{m}");
        }
    }
}
