//! Misère Nim.
//!
//! Rules (game `misere-nim`; contest problem Luogu P4279 / BZOJ 1022, SHOI2008 "小约翰的
//! 游戏"): a position is a row of piles; a move takes any positive number of stones from
//! one pile. **The player who takes the last stone loses.**
//!
//! That ending is modelled with [`Rules::stuck_player_wins`]: the only positions without
//! a move are those whose piles are all empty, and reaching one means the previous
//! player took the last stone, so the player to move there has won. A position that
//! *starts* with every pile empty (the contest allows zero piles) reads the same way:
//! the player to move never takes a stone, so does not lose (P4279: `John`).
//!
//! Notation: as Nim (`3,4,5`; `-` for no piles; a move `pile:amount`), the same position
//! and move types. Canonical move order: by pile index, then by amount taken.

use crate::games::nim::{Piles, Take};
use crate::{NotationError, Rules};
use std::fmt;
use std::str::FromStr;

/// The rules of misère Nim. It has no parameters.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct MisereNim;

impl Rules for MisereNim {
    type Position = Piles;
    type Move = Take;

    /// Every amount from 1 to the pile's size, from every pile.
    fn moves(&self, pos: &Piles, out: &mut Vec<(Take, Piles)>) {
        for (pile, &size) in pos.0.iter().enumerate() {
            for amount in 1..=size {
                let mut next = pos.clone();
                next.0[pile] -= amount;
                out.push((Take { pile, amount }, next));
            }
        }
    }

    /// No move is left only when every pile is empty: the previous player took the
    /// last stone and lost, so the player to move has won.
    fn stuck_player_wins(&self, _pos: &Piles) -> bool {
        true
    }

    /// One move per stone: the sum of the piles.
    fn move_bound(&self, pos: &Piles) -> Option<u64> {
        Some(pos.0.iter().fold(0u64, |a, &p| a.saturating_add(p)))
    }

    /// Reordering piles changes nothing in the rules: the piles sorted.
    fn key(&self, pos: &Piles) -> Piles {
        let mut k = pos.clone();
        k.0.sort_unstable();
        k
    }

    /// The moves of [`Rules::moves`], their children built in one buffer.
    fn for_each_move<F: FnMut(Take, &Piles)>(&self, pos: &Piles, mut f: F) {
        let mut next = pos.clone();
        for (pile, &size) in pos.0.iter().enumerate() {
            for amount in 1..=size {
                next.0[pile] = size - amount;
                f(Take { pile, amount }, &next);
            }
            next.0[pile] = size;
        }
    }

    /// The sorted piles (the key), packed when they fit.
    fn packed_key(&self, pos: &Piles) -> Option<u128> {
        crate::pack::pack_multiset(0, None, pos.0.iter().copied())
            .or_else(|| crate::pack::pack_sorted(0, &pos.0))
    }

    fn position_bytes(&self, pos: &Piles) -> usize {
        std::mem::size_of::<Piles>() + pos.0.len() * std::mem::size_of::<u64>()
    }
}

/// Misère Nim has no parameters: its rules are written `-`.
impl fmt::Display for MisereNim {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("-")
    }
}

impl FromStr for MisereNim {
    type Err = NotationError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.trim() {
            "" | "-" => Ok(MisereNim),
            _ => Err(NotationError::new(
                "misere-nim rules",
                s,
                "misere-nim has no parameters; write -",
            )),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Solver;

    fn analyze(s: &str) -> crate::Analysis<Take> {
        Solver::new(MisereNim).analyze(&s.parse().unwrap()).unwrap()
    }

    #[test]
    fn spec_samples_p4279() {
        // P4279 statement sample: piles 3 5 1 => John (first player wins);
        // one pile of 1 => Brother (the only move takes the last stone).
        assert!(analyze("3,5,1").win);
        let a = analyze("1");
        assert!(!a.win);
        assert_eq!(a.remoteness, Some(1));
    }

    #[test]
    fn empty_piles() {
        // No stone at all: the player to move never takes the last one, and wins.
        for s in ["-", "0", "0,0,0"] {
            let a = analyze(s);
            assert!(a.win, "{s}");
            assert!(a.winning.is_empty());
            assert_eq!(a.remoteness, Some(0));
        }
        // `0 1`: the empty pile changes nothing, the one stone must be taken: a loss.
        // (A solution testing "all piles are 1" as `sum == n` reads it as a Nim
        // position of XOR 1 and says the first player wins.)
        assert!(!analyze("0,1").win);
    }

    #[test]
    fn small_positions_by_hand() {
        // 1,1: take one, the opponent must take the last: a win by the only move kind.
        let a = analyze("1,1");
        assert!(a.win);
        assert_eq!(a.winning.len(), 2);
        // 2: take one stone and leave the single 1 to the opponent.
        assert_eq!(analyze("2").winning, vec![Take { pile: 0, amount: 1 }]);
        // 2,2: the second player mirrors until the end, then leaves the last stone.
        assert!(!analyze("2,2").win);
        // 1,1,1: whatever is taken, two 1s remain for the opponent... who wins 1,1.
        assert!(!analyze("1,1,1").win);
    }

    #[test]
    fn losses_match_spec_fact() {
        // Game `misere-nim` (checked by exhaustive search): with every pile <= 1 the
        // mover wins iff the number of 1-piles is even; otherwise iff XOR != 0.
        let mut solver = Solver::verdict_only(MisereNim);
        for a in 0..=6u64 {
            for b in 0..=6 {
                for c in 0..=6 {
                    let piles = [a, b, c];
                    let win = solver.outcome(&Piles(piles.to_vec())).unwrap().win;
                    let fact = if piles.iter().all(|&p| p <= 1) {
                        piles.iter().filter(|&&p| p == 1).count().is_multiple_of(2)
                    } else {
                        a ^ b ^ c != 0
                    };
                    assert_eq!(win, fact, "{piles:?}");
                }
            }
        }
    }

    #[test]
    fn notation() {
        assert_eq!(MisereNim.to_string(), "-");
        assert_eq!("-".parse::<MisereNim>().unwrap(), MisereNim);
        assert!("3".parse::<MisereNim>().is_err());
    }
}
