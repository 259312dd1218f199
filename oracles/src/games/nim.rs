//! Nim.
//!
//! Rules (game `nim`): a position is a row of piles; a move takes any
//! positive number of stones from one pile. Normal play: the player with no move
//! (all piles empty) loses.
//!
//! Notation: a position is its piles, comma-separated (`3,4,5`; `-` for no piles).
//! A move is `pile:amount` (`0:3` takes three stones from pile 0).
//! Canonical move order: by pile index, then by amount taken.

use crate::{parse_list, write_list, NotationError, Rules};
use std::fmt;
use std::str::FromStr;

/// The rules of Nim. Nim has no parameters.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Nim;

/// A Nim position: the pile sizes, in order.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Piles(pub Vec<u64>);

/// Taking `amount` stones (at least one) from pile `pile`. Ordered by pile, then amount.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Take {
    /// Index of the pile, from 0.
    pub pile: usize,
    /// Number of stones taken.
    pub amount: u64,
}

impl Rules for Nim {
    type Position = Piles;
    type Move = Take;

    fn moves(&self, pos: &Piles, out: &mut Vec<(Take, Piles)>) {
        for (pile, &size) in pos.0.iter().enumerate() {
            for amount in 1..=size {
                let mut next = pos.clone();
                next.0[pile] -= amount;
                out.push((Take { pile, amount }, next));
            }
        }
    }

    /// One move per stone: the sum of the piles.
    fn move_bound(&self, pos: &Piles) -> Option<u64> {
        Some(pos.0.iter().fold(0u64, |a, &p| a.saturating_add(p)))
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
            for amount in 1..=size {
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

/// Nim has no parameters: its rules are written `-`.
impl fmt::Display for Nim {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("-")
    }
}

impl FromStr for Nim {
    type Err = NotationError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.trim() {
            "" | "-" => Ok(Nim),
            _ => Err(NotationError::new(
                "nim rules",
                s,
                "nim has no parameters; write -",
            )),
        }
    }
}

impl fmt::Display for Piles {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_list(f, &self.0)
    }
}

impl FromStr for Piles {
    type Err = NotationError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        parse_list("pile position", s).map(Piles)
    }
}

impl fmt::Display for Take {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.pile, self.amount)
    }
}

impl FromStr for Take {
    type Err = NotationError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let (p, a) = s
            .split_once(':')
            .ok_or_else(|| NotationError::new("take move", s, "expected pile:amount"))?;
        let pile = p
            .trim()
            .parse()
            .map_err(|e| NotationError::new("take move", s, format!("pile: {e}")))?;
        let amount: u64 = a
            .trim()
            .parse()
            .map_err(|e| NotationError::new("take move", s, format!("amount: {e}")))?;
        if amount == 0 {
            return Err(NotationError::new(
                "take move",
                s,
                "a move takes at least one stone",
            ));
        }
        Ok(Take { pile, amount })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{SearchError, Solver};

    fn analyze(s: &str) -> crate::Analysis<Take> {
        Solver::new(Nim).analyze(&s.parse().unwrap()).unwrap()
    }

    #[test]
    fn spec_samples_p2197() {
        // p2197 statement sample: piles 1 1 lose, piles 1 0 win.
        assert!(!analyze("1,1").win);
        let a = analyze("1,0");
        assert!(a.win);
        assert_eq!(a.winning, vec![Take { pile: 0, amount: 1 }]);
    }

    #[test]
    fn edges() {
        // No piles, or all piles empty: no move, the player to move loses at once.
        for s in ["-", "0", "0,0,0"] {
            let a = analyze(s);
            assert!(!a.win, "{s}");
            assert_eq!(a.remoteness, Some(0));
        }
        // One pile: take it all, the only winning move, one ply.
        let a = analyze("7");
        assert_eq!(a.winning, vec![Take { pile: 0, amount: 7 }]);
        assert_eq!(a.remoteness, Some(1));
    }

    #[test]
    fn classic_positions() {
        // 1,2,3 is the smallest three-pile loss (1 xor 2 xor 3 = 0), a textbook case.
        assert!(!analyze("1,2,3").win);
        // 3,4,5: the classic example has exactly one winning move, 2 from pile 0.
        let a = analyze("3,4,5");
        assert_eq!(a.winning, vec![Take { pile: 0, amount: 2 }]);
        // 2,2: the loser delays as long as possible, taking one stone at a time;
        // the winner mirrors: 4 plies.
        assert_eq!(analyze("2,2").remoteness, Some(4));
    }

    #[test]
    fn budget_error() {
        let mut s = Solver::new(Nim).with_budget(10);
        let err = s.analyze(&"5,6,7,8".parse().unwrap()).unwrap_err();
        assert_eq!(err, SearchError::Budget { budget: 10 });
    }

    #[test]
    fn huge_pile_fails_fast() {
        // Two billion moves from the root: refused before any move is generated.
        let mut s = Solver::new(Nim).with_budget(1000);
        let err = s.analyze(&"2000000000,1".parse().unwrap()).unwrap_err();
        assert_eq!(err, SearchError::Budget { budget: 1000 });
    }

    #[test]
    fn notation_round_trip() {
        for s in ["-", "0", "3,4,5"] {
            assert_eq!(s.parse::<Piles>().unwrap().to_string(), s);
        }
        assert_eq!("2:5".parse::<Take>().unwrap(), Take { pile: 2, amount: 5 });
        assert!("2:0".parse::<Take>().is_err());
        assert!("x".parse::<Piles>().is_err());
    }
}
