//! Subtraction games: take an amount from a fixed finite set.
//!
//! Rules (game `subtraction`; contest problem hdu1848 "Fibonacci again and
//! again" uses the Fibonacci set on three piles): a position is a row of piles; a move
//! takes `s` stones from one pile, for some `s` in a finite set `S` of positive amounts
//! (and `s` no larger than the pile). Normal play: the player with no move loses.
//!
//! Notation: a position is its piles, comma-separated (`1,4,1`; `-` for no piles), as
//! in Nim ([`Piles`]). A move is `pile:amount` ([`Take`]). The rules are the set,
//! comma-separated (`1,2,3,5,8`), written sorted and without repeats.
//! Canonical move order: by pile index, then by amount taken.

use crate::games::nim::{Piles, Take};
use crate::{parse_list, NotationError, Rules};
use std::fmt;
use std::str::FromStr;

/// The rules of a subtraction game: the set of amounts a move may take.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Subtraction {
    /// Sorted, without repeats, non-empty, every amount at least 1.
    set: Vec<u64>,
}

impl Subtraction {
    /// The game with subtraction set `set`, given in any order, repeats allowed.
    /// Rejects an empty set and the amount 0 (a move must take something).
    pub fn new(set: Vec<u64>) -> Result<Self, NotationError> {
        let mut set = set;
        set.sort_unstable();
        set.dedup();
        let text = || set.iter().map(u64::to_string).collect::<Vec<_>>().join(",");
        if set.is_empty() {
            return Err(NotationError::new(
                "subtraction set",
                "",
                "the set must not be empty",
            ));
        }
        if set[0] == 0 {
            return Err(NotationError::new(
                "subtraction set",
                &text(),
                "every amount must be at least 1",
            ));
        }
        Ok(Subtraction { set })
    }

    /// The Fibonacci game of hdu1848: the Fibonacci numbers `1, 2, 3, 5, 8, 13, ...`
    /// (F1 = 1, F2 = 2, so 1 appears once) up to and including `limit`.
    /// For piles no larger than `limit` this is the whole infinite Fibonacci game.
    /// Fails when `limit` is 0 (the set would be empty).
    pub fn fibonacci(limit: u64) -> Result<Self, NotationError> {
        let mut set = Vec::new();
        let (mut a, mut b) = (1u64, 2u64);
        while a <= limit {
            set.push(a);
            let Some(c) = a.checked_add(b) else {
                // b is the last Fibonacci number below 2^64.
                if b <= limit {
                    set.push(b);
                }
                break;
            };
            (a, b) = (b, c);
        }
        Subtraction::new(set)
    }

    /// The amounts a move may take, ascending.
    pub fn set(&self) -> &[u64] {
        &self.set
    }
}

impl Rules for Subtraction {
    type Position = Piles;
    type Move = Take;

    /// At most one move per pile and element of the set.
    fn move_bound(&self, pos: &Piles) -> Option<u64> {
        Some((pos.0.len() as u64).saturating_mul(self.set().len() as u64))
    }

    fn moves(&self, pos: &Piles, out: &mut Vec<(Take, Piles)>) {
        for (pile, &size) in pos.0.iter().enumerate() {
            for &amount in self.set.iter().take_while(|&&s| s <= size) {
                let mut next = pos.clone();
                next.0[pile] -= amount;
                out.push((Take { pile, amount }, next));
            }
        }
    }

    /// Reordering piles changes nothing in the rules, so positions are remembered
    /// with their piles sorted.
    fn key(&self, pos: &Piles) -> Piles {
        let mut k = pos.clone();
        k.0.sort_unstable();
        k
    }

    /// The moves of [`Rules::moves`], their children built in one buffer.
    fn for_each_move<F: FnMut(Self::Move, &Piles)>(&self, pos: &Piles, mut f: F) {
        let mut next = pos.clone();
        for (pile, &size) in pos.0.iter().enumerate() {
            for &amount in self.set.iter().take_while(|&&s| s <= size) {
                next.0[pile] = size - amount;
                f(Take { pile, amount }, &next);
            }
            next.0[pile] = size;
        }
    }

    /// The sorted piles (the key), packed when they fit: by count when every pile is
    /// below 16 (no sort needed), sorted otherwise.
    fn packed_key(&self, pos: &Piles) -> Option<u128> {
        crate::pack::pack_multiset(0, None, pos.0.iter().copied())
            .or_else(|| crate::pack::pack_sorted(0, &pos.0))
    }

    fn position_bytes(&self, pos: &Piles) -> usize {
        std::mem::size_of::<Piles>() + pos.0.len() * std::mem::size_of::<u64>()
    }
}

impl fmt::Display for Subtraction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        crate::write_list(f, &self.set)
    }
}

impl FromStr for Subtraction {
    type Err = NotationError;
    /// Reads the set comma-separated (`1,2,3,5,8`), in any order, repeats allowed.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let set = parse_list("subtraction set", s)?;
        Subtraction::new(set).map_err(|e| NotationError::new(e.what, s, e.reason))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::plus_heap::grundy_by_search;
    use crate::Solver;

    fn fib() -> Subtraction {
        Subtraction::fibonacci(1000).unwrap()
    }

    #[test]
    fn spec_samples_hdu1848() {
        // hdu1848 statement sample: `1 1 1` => Fibo (first wins), `1 4 1` => Nacci.
        let mut s = Solver::new(fib());
        let a = s.analyze(&"1,1,1".parse().unwrap()).unwrap();
        assert!(a.win);
        // Any stone taken leaves two piles of one, a loss: three winning moves.
        assert_eq!(a.count(), 3);
        assert!(!s.analyze(&"1,4,1".parse().unwrap()).unwrap().win);
    }

    #[test]
    fn fibonacci_single_pile_losses_a001581() {
        // OEIS A001581 (0,4,...,36 tested here; OEIS continues 40,46,50,...): the
        // single piles of the Fibonacci subtraction game that the player to move loses.
        let zeros = [
            0, 4, 10, 14, 20, 24, 30, 36, 40, 46, 50, 56, 60, 66, 72, 76, 82, 86,
        ];
        let mut s = Solver::new(fib());
        for n in 0..=90 {
            let lost = !s.outcome(&Piles(vec![n])).unwrap().win;
            assert_eq!(lost, zeros.contains(&n), "n={n}");
        }
    }

    #[test]
    fn fibonacci_grundy_a014588() {
        // Golden sequence, OEIS A014588: the first 36 Grundy values of the
        // Fibonacci subtraction game, reproduced by minimax over pile + nim heap.
        let expected = [
            0, 1, 2, 3, 0, 1, 2, 3, 4, 5, 0, 1, 2, 3, 0, 1, 2, 3, 4, 5, 0, 1, 2, 3, 0, 1, 2, 3, 4,
            5, 0, 1, 2, 3, 4, 5,
        ];
        let rules = Subtraction::fibonacci(40).unwrap();
        for (n, &g) in expected.iter().enumerate() {
            let got = grundy_by_search(&rules, &Piles(vec![n as u64]), 10).unwrap();
            assert_eq!(got, Some(g), "n={n}");
        }
    }

    fn has_period<T: PartialEq>(seq: &[T], p: usize) -> bool {
        (0..seq.len() - p).all(|i| seq[i] == seq[i + p])
    }

    fn assert_period_7<T: PartialEq>(seq: &[T]) {
        assert!(has_period(seq, 7));
        for p in 1..7 {
            assert!(!has_period(seq, p), "period {p}");
        }
    }

    #[test]
    fn set_235_has_period_7() {
        // Known period ("subtraction {2,3,5} has period 7"): the single piles lost, and the
        // Grundy values found by search, repeat with period 7 and no shorter period.
        let rules = Subtraction::new(vec![2, 3, 5]).unwrap();
        let mut s = Solver::new(rules.clone());
        let lost: Vec<bool> = (0..=120)
            .map(|n| !s.outcome(&Piles(vec![n])).unwrap().win)
            .collect();
        let grundy: Vec<u64> = (0..=60)
            .map(|n| {
                grundy_by_search(&rules, &Piles(vec![n]), 10)
                    .unwrap()
                    .unwrap()
            })
            .collect();
        assert_period_7(&lost);
        assert_period_7(&grundy);
    }

    #[test]
    fn edges() {
        let mut s = Solver::new(Subtraction::new(vec![2, 3, 5]).unwrap());
        // No piles, empty piles, and a pile of 1 below the smallest amount: no move.
        for p in ["-", "0", "1", "0,1,1"] {
            let a = s.analyze(&p.parse().unwrap()).unwrap();
            assert!(!a.win, "{p}");
            assert_eq!(a.remoteness, Some(0));
        }
        // Pile 4 with {2,3,5}: take 3 to leave 1 (stuck), or 2 to leave 2 (one more
        // move for the opponent). Only 3 wins.
        let a = s.analyze(&"4".parse().unwrap()).unwrap();
        assert_eq!(a.winning, vec![Take { pile: 0, amount: 3 }]);
    }

    #[test]
    fn fibonacci_set() {
        assert_eq!(
            Subtraction::fibonacci(100).unwrap().set(),
            [1, 2, 3, 5, 8, 13, 21, 34, 55, 89]
        );
        assert_eq!(Subtraction::fibonacci(1).unwrap().set(), [1]);
        assert_eq!(Subtraction::fibonacci(4).unwrap().set(), [1, 2, 3]);
        assert!(Subtraction::fibonacci(0).is_err());
        // The whole sequence below 2^64 fits: F1..F92 with F1 = 1, F2 = 2.
        let all = Subtraction::fibonacci(u64::MAX).unwrap();
        assert_eq!(all.set().len(), 92);
        assert!(all.set().windows(3).all(|w| w[0] + w[1] == w[2]));
    }

    #[test]
    fn notation_round_trip() {
        let r: Subtraction = "8,1,2,3,5,3".parse().unwrap();
        assert_eq!(r.set(), [1, 2, 3, 5, 8]);
        assert_eq!(r.to_string(), "1,2,3,5,8");
        assert_eq!(r, Subtraction::fibonacci(8).unwrap());
        assert_eq!(
            " 2, 3 ,5".parse::<Subtraction>().unwrap().to_string(),
            "2,3,5"
        );
        for s in ["", "-", "0", "1,0,2", "x", "1,,2"] {
            assert!(s.parse::<Subtraction>().is_err(), "{s}");
        }
        assert!(Subtraction::new(vec![]).is_err());
        assert!(Subtraction::new(vec![3, 0]).is_err());
        for s in ["-", "1", "1,4,1"] {
            assert_eq!(s.parse::<Piles>().unwrap().to_string(), s);
        }
    }
}
