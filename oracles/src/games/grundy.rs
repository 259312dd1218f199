//! Grundy's game: split one heap into two unequal heaps.
//!
//! Rules (game `grundy`; Berlekamp, Conway and Guy, *Winning Ways*, chapter 4): a
//! position is a row of heaps; a move splits one heap into two non-empty heaps of
//! **different** sizes. Heaps of 1 and 2 can never be split. Normal play: the player
//! with no move loses.
//!
//! Splitting heap `h` of n into `a + b` (`1 <= a < b`, `a + b = n`) keeps the smaller
//! part `a` at index `h` and inserts `b` right after it; `a + b` and `b + a` are one
//! move.
//!
//! Notation: a position is its heaps, comma-separated (`7,3`; `-` for none), as in Nim
//! ([`Piles`]). A move is `heap=a+b` with `a < b` (`0=1+6`). The rules have no
//! parameters and are written `-`.
//! Canonical move order: by heap, then by the smaller part ascending: the derived
//! order of [`GrundySplit`].

use crate::games::nim::Piles;
use crate::{NotationError, Rules};
use std::fmt;
use std::str::FromStr;

/// The rules of Grundy's game. It has no parameters.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct GrundyGame;

/// Splitting heap `heap` into `smaller + larger`, `1 <= smaller < larger`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct GrundySplit {
    /// Index of the heap, from 0.
    pub heap: usize,
    /// The smaller part, which stays at index `heap`.
    pub smaller: u64,
    /// The larger part, inserted at index `heap + 1`.
    pub larger: u64,
}

impl Rules for GrundyGame {
    type Position = Piles;
    type Move = GrundySplit;

    /// A heap of n has (n - 1) / 2 splits.
    fn move_bound(&self, pos: &Piles) -> Option<u64> {
        Some(
            pos.0
                .iter()
                .fold(0u64, |a, &n| a.saturating_add(n.saturating_sub(1) / 2)),
        )
    }

    fn moves(&self, pos: &Piles, out: &mut Vec<(GrundySplit, Piles)>) {
        for (heap, &n) in pos.0.iter().enumerate() {
            // smaller < larger = n - smaller, i.e. 2 * smaller < n.
            let mut smaller = 1;
            while 2 * smaller < n {
                let larger = n - smaller;
                let mut next = pos.clone();
                next.0[heap] = smaller;
                next.0.insert(heap + 1, larger);
                out.push((
                    GrundySplit {
                        heap,
                        smaller,
                        larger,
                    },
                    next,
                ));
                smaller += 1;
            }
        }
    }

    /// Reordering heaps changes nothing in the rules, so positions are remembered with
    /// their heaps sorted.
    fn key(&self, pos: &Piles) -> Piles {
        let mut k = pos.clone();
        k.0.sort_unstable();
        k
    }

    /// The moves of [`Rules::moves`], their children built in one buffer: the smaller
    /// part replaces the heap and the larger one is inserted after it (removed again
    /// after).
    fn for_each_move<F: FnMut(Self::Move, &Piles)>(&self, pos: &Piles, mut f: F) {
        let mut next = pos.clone();
        for (heap, &n) in pos.0.iter().enumerate() {
            split_heap(&mut next, heap, n, &mut |smaller, larger, c| {
                f(
                    GrundySplit {
                        heap,
                        smaller,
                        larger,
                    },
                    c,
                )
            });
        }
    }

    /// The children of [`Rules::for_each_move`], a heap's only when no earlier heap
    /// has its size (equal heaps give the same children up to order, so the same
    /// keys).
    fn for_each_child<F: FnMut(&Piles)>(&self, pos: &Piles, mut f: F) {
        let mut next = pos.clone();
        for (heap, &n) in pos.0.iter().enumerate() {
            if !pos.0[..heap].contains(&n) {
                split_heap(&mut next, heap, n, &mut |_, _, c| f(c));
            }
        }
    }

    /// The sorted heaps (the key), packed when they fit: by count when every heap is
    /// below 16 (no sort needed), sorted otherwise.
    fn packed_key(&self, pos: &Piles) -> Option<u128> {
        crate::pack::pack_multiset(0, None, pos.0.iter().copied())
            .or_else(|| crate::pack::pack_sorted(0, &pos.0))
    }

    /// The heaps that can still be split (3 and more), packed like
    /// [`Rules::packed_key`]: heaps of 1 and 2 have no move and never get one, so two
    /// positions that differ only in them have the same moves on the other heaps, to
    /// positions that again differ only in them.
    fn symmetric_key(&self, pos: &Piles) -> Option<u128> {
        live_key(pos.0.iter().copied().filter(|&n| n >= 3))
    }

    fn position_bytes(&self, pos: &Piles) -> usize {
        std::mem::size_of::<Piles>() + pos.0.len() * std::mem::size_of::<u64>()
    }
}

/// The multiset of `heaps` packed as [`Rules::packed_key`] packs a position, under
/// tag 1 so that it never meets a packed key.
pub(crate) fn live_key(heaps: impl Iterator<Item = u64> + Clone) -> Option<u128> {
    crate::pack::pack_multiset(1, None, heaps.clone()).or_else(|| {
        let v: Vec<u64> = heaps.collect();
        crate::pack::pack_sorted(1, &v)
    })
}

/// Every split of heap `heap` (of `n`) of `next` into smaller + larger, as (smaller,
/// larger, the child in `next`); `next` holds the position on entry and on return.
fn split_heap(next: &mut Piles, heap: usize, n: u64, f: &mut impl FnMut(u64, u64, &Piles)) {
    let mut smaller = 1;
    while 2 * smaller < n {
        let larger = n - smaller;
        next.0[heap] = smaller;
        next.0.insert(heap + 1, larger);
        f(smaller, larger, next);
        next.0.remove(heap + 1);
        smaller += 1;
    }
    next.0[heap] = n;
}

impl fmt::Display for GrundyGame {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("-")
    }
}

impl FromStr for GrundyGame {
    type Err = NotationError;
    /// Grundy's game has no parameters: accepts `-` or nothing.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.trim() {
            "" | "-" => Ok(GrundyGame),
            _ => Err(NotationError::new(
                "grundy rules",
                s,
                "Grundy's game has no parameters; write -",
            )),
        }
    }
}

impl fmt::Display for GrundySplit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}={}+{}", self.heap, self.smaller, self.larger)
    }
}

impl FromStr for GrundySplit {
    type Err = NotationError;
    /// Reads `heap=a+b` with `1 <= a < b`.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        const WHAT: &str = "grundy move";
        let num = |field: &str, t: &str| -> Result<u64, NotationError> {
            t.trim()
                .parse()
                .map_err(|e| NotationError::new(WHAT, s, format!("{field}: {e}")))
        };
        let (h, parts) = s
            .split_once('=')
            .ok_or_else(|| NotationError::new(WHAT, s, "expected heap=smaller+larger"))?;
        let (a, b) = parts
            .split_once('+')
            .ok_or_else(|| NotationError::new(WHAT, s, "expected heap=smaller+larger"))?;
        let heap = h
            .trim()
            .parse()
            .map_err(|e| NotationError::new(WHAT, s, format!("heap: {e}")))?;
        let (smaller, larger) = (num("smaller", a)?, num("larger", b)?);
        if smaller == 0 {
            return Err(NotationError::new(WHAT, s, "both heaps must be non-empty"));
        }
        if smaller >= larger {
            return Err(NotationError::new(
                WHAT,
                s,
                "the two heaps must differ, the smaller first",
            ));
        }
        Ok(GrundySplit {
            heap,
            smaller,
            larger,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::plus_heap::grundy_by_search;
    use crate::Solver;

    #[test]
    fn values_oeis_a002188() {
        // OEIS A002188 (Grundy's game), n = 0..=24, measured through verdicts alone.
        let want = [
            0, 0, 0, 1, 0, 2, 1, 0, 2, 1, 0, 2, 1, 3, 2, 1, 3, 2, 4, 3, 0, 4, 3, 0, 4,
        ];
        for (n, &g) in want.iter().enumerate() {
            let got = grundy_by_search(&GrundyGame, &Piles(vec![n as u64]), 8).unwrap();
            assert_eq!(got, Some(g), "n={n}");
        }
    }

    #[test]
    fn moves_and_order() {
        let mut out = Vec::new();
        GrundyGame.moves(&"6,2,3".parse().unwrap(), &mut out);
        let text: Vec<String> = out.iter().map(|(m, p)| format!("{m}>{p}")).collect();
        // 6 = 1+5 = 2+4 (3+3 is not allowed); 2 cannot be split; 3 = 1+2.
        assert_eq!(text, ["0=1+5>1,5,2,3", "0=2+4>2,4,2,3", "2=1+2>6,2,1,2"]);
        let moves: Vec<GrundySplit> = out.iter().map(|(m, _)| *m).collect();
        let mut sorted = moves.clone();
        sorted.sort();
        assert_eq!(moves, sorted);
    }

    #[test]
    fn edges() {
        // Heaps of 0, 1 and 2 have no move.
        for s in ["-", "0", "1,2,2,1"] {
            let a = Solver::new(GrundyGame)
                .analyze(&s.parse().unwrap())
                .unwrap();
            assert!(!a.win, "{s}");
            assert_eq!(a.remoteness, Some(0));
        }
        // 3 = 1+2 and then no move: won in one.
        let a = Solver::new(GrundyGame)
            .analyze(&"3".parse().unwrap())
            .unwrap();
        assert_eq!(a.winning, vec!["0=1+2".parse().unwrap()]);
    }

    #[test]
    fn notation_round_trip() {
        for s in ["0=1+5", "12=3+4"] {
            assert_eq!(s.parse::<GrundySplit>().unwrap().to_string(), s);
        }
        for s in ["0=3+3", "0=4+2", "0=0+4", "0:1", "0=1", "x=1+2"] {
            assert!(s.parse::<GrundySplit>().is_err(), "{s}");
        }
        assert_eq!("-".parse::<GrundyGame>().unwrap(), GrundyGame);
        assert!("1".parse::<GrundyGame>().is_err());
        assert_eq!(GrundyGame.to_string(), "-");
    }
}
