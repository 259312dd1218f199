//! The auction: bids raise a price until it reaches the reserve.
//!
//! Rules (game `auction`; contest problem hdu2149 "Public Sale"): an amount r is still
//! missing before the price reaches the reserve. The players bid in turn; a bid is a
//! whole number t with 1 <= t <= N. A bid t >= r reaches the reserve: the bidder has
//! won and the game ends. A bid t < r leaves r - t missing for the other player.
//!
//! Modelled as normal play: a winning bid leads to the position "nothing missing"
//! (r = 0), where the game is over and the player to move, who did not make the last
//! bid, has lost. So a position r >= 1 has exactly the N moves t = 1..=N, and r = 0
//! has none.
//!
//! Notation: a position is the missing amount r ([`Missing`]; `4`). A move is the bid
//! t ([`Bid`]; `3`). The rules are written `n=2` (the largest bid N, at least 1).
//! Canonical move order: bid ascending.

use crate::{NotationError, Rules};
use std::fmt;
use std::str::FromStr;

/// The rules of the auction: bids of 1 to `n`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Auction {
    /// The largest bid; at least 1 (a parsed `n=0` is rejected).
    pub n: u64,
}

/// An auction position: the amount still missing (0: the reserve was reached by the
/// last bid, the game is over).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Missing(pub u64);

/// A bid of `t` (at least 1). Ordered by the amount.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Bid(pub u64);

impl Rules for Auction {
    type Position = Missing;
    type Move = Bid;

    fn moves(&self, pos: &Missing, out: &mut Vec<(Bid, Missing)>) {
        let r = pos.0;
        if r == 0 {
            return; // the reserve was reached: the game is over
        }
        for t in 1..=self.n {
            // A bid t >= r reaches the reserve and wins at once: nothing is missing
            // after it (r - t, floored at 0).
            let next = r.saturating_sub(t);
            out.push((Bid(t), Missing(next)));
        }
    }

    /// N bids from every position where something is missing.
    fn move_bound(&self, pos: &Missing) -> Option<u64> {
        Some(if pos.0 == 0 { 0 } else { self.n })
    }

    /// The moves of [`Rules::moves`], without a list.
    fn for_each_move<F: FnMut(Self::Move, &Missing)>(&self, pos: &Missing, mut f: F) {
        if pos.0 == 0 {
            return;
        }
        for t in 1..=self.n {
            f(Bid(t), &Missing(pos.0.saturating_sub(t)));
        }
    }

    /// The missing amount itself.
    fn packed_key(&self, pos: &Missing) -> Option<u128> {
        Some(u128::from(pos.0))
    }

    /// Each child of [`Rules::for_each_move`] once: every bid of at least r leaves
    /// nothing missing, so the children are r - 1 down to r - min(N, r).
    fn for_each_child<F: FnMut(&Missing)>(&self, pos: &Missing, mut f: F) {
        for t in 1..=self.n.min(pos.0) {
            f(&Missing(pos.0 - t));
        }
    }
}

impl fmt::Display for Auction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "n={}", self.n)
    }
}

impl FromStr for Auction {
    type Err = NotationError;
    /// Reads `n=2`; `n` must be at least 1.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        const WHAT: &str = "auction rules";
        let (key, value) = s
            .split_once('=')
            .ok_or_else(|| NotationError::new(WHAT, s, "expected n=<largest bid>"))?;
        if key.trim() != "n" {
            return Err(NotationError::new(WHAT, s, "expected n=<largest bid>"));
        }
        let n: u64 = value
            .trim()
            .parse()
            .map_err(|e| NotationError::new(WHAT, s, format!("n: {e}")))?;
        if n == 0 {
            return Err(NotationError::new(WHAT, s, "n must be at least 1"));
        }
        Ok(Auction { n })
    }
}

impl fmt::Display for Missing {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

impl FromStr for Missing {
    type Err = NotationError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        s.trim()
            .parse()
            .map(Missing)
            .map_err(|e| NotationError::new("auction position", s, format!("{e}")))
    }
}

impl fmt::Display for Bid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

impl FromStr for Bid {
    type Err = NotationError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let t: u64 = s
            .trim()
            .parse()
            .map_err(|e| NotationError::new("bid", s, format!("{e}")))?;
        if t == 0 {
            return Err(NotationError::new("bid", s, "a bid is at least 1"));
        }
        Ok(Bid(t))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Solver;

    fn bids(n: u64, r: u64) -> Vec<u64> {
        let a = Solver::new(Auction { n }).analyze(&Missing(r)).unwrap();
        a.winning.iter().map(|b| b.0).collect()
    }

    #[test]
    fn spec_samples_hdu2149() {
        // hdu2149 statement sample: `4 2` => `1`, `3 2` => `none`, `3 5` => `3 4 5`.
        assert_eq!(bids(2, 4), vec![1]);
        assert_eq!(bids(2, 3), Vec::<u64>::new());
        assert_eq!(bids(5, 3), vec![3, 4, 5]);
    }

    #[test]
    fn reaching_the_reserve_ends_the_game() {
        // r = 0: no move, the player to move lost (the opponent's bid reached it).
        let a = Solver::new(Auction { n: 3 }).analyze(&Missing(0)).unwrap();
        assert!(!a.win);
        assert_eq!(a.remoteness, Some(0));
        // r = 1: every bid reaches it, so every bid wins at once.
        assert_eq!(bids(4, 1), vec![1, 2, 3, 4]);
        let mut out = Vec::new();
        Auction { n: 3 }.moves(&Missing(2), &mut out);
        let moves: Vec<String> = out.iter().map(|(m, p)| format!("{m}>{p}")).collect();
        assert_eq!(moves, ["1>1", "2>0", "3>0"]);
    }

    #[test]
    fn losses_are_multiples_of_n_plus_one() {
        // Bash's classic fact, asserted against the search: with 1 <= r, the mover
        // loses iff r is a multiple of N + 1.
        for n in 1..=7 {
            let mut s = Solver::verdict_only(Auction { n });
            for r in 1..=60 {
                let win = s.outcome(&Missing(r)).unwrap().win;
                assert_eq!(!win, r % (n + 1) == 0, "n={n} r={r}");
            }
        }
    }

    #[test]
    fn notation_round_trip() {
        assert_eq!("n=5".parse::<Auction>().unwrap(), Auction { n: 5 });
        assert_eq!(Auction { n: 1099 }.to_string(), "n=1099");
        for s in ["n=0", "m=3", "5", "n=x"] {
            assert!(s.parse::<Auction>().is_err(), "{s}");
        }
        assert_eq!("17".parse::<Missing>().unwrap(), Missing(17));
        assert!("0".parse::<Bid>().is_err());
        assert_eq!("4".parse::<Bid>().unwrap().to_string(), "4");
    }
}
