//! Bash's game, generalized to several piles.
//!
//! Rules (game `bash`; contest problem hdu1846 "Brave Game"): a pile of `n`
//! stones; a move takes at least 1 and at most `m` stones from it. Normal play: the
//! player with no move (the pile is empty) loses. The contest has a single pile; here a
//! position is a row of piles and a move takes 1 to `m` stones from any one of them, so
//! that sums of Bash games can be searched too. One pile is the contest game.
//!
//! Notation: a position is its piles, comma-separated (`23`, `3,4,5`; `-` for no piles),
//! exactly as in Nim ([`Piles`]). A move is `pile:amount` ([`Take`]; `0:2` takes two
//! stones from pile 0). The rules are written `m=3`.
//! Canonical move order: by pile index, then by amount taken.

use crate::games::nim::{Piles, Take};
use crate::{NotationError, Rules};
use std::fmt;
use std::str::FromStr;

/// The rules of Bash's game: take 1 to `m` stones from one pile.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Bash {
    /// The most stones one move may take; at least 1 (a parsed `m=0` is rejected; a
    /// hand-built `m == 0` is a game without moves).
    pub m: u64,
}

impl Rules for Bash {
    type Position = Piles;
    type Move = Take;

    /// At most `m` moves per pile.
    fn move_bound(&self, pos: &Piles) -> Option<u64> {
        Some((pos.0.len() as u64).saturating_mul(self.m))
    }

    fn moves(&self, pos: &Piles, out: &mut Vec<(Take, Piles)>) {
        for (pile, &size) in pos.0.iter().enumerate() {
            for amount in 1..=size.min(self.m) {
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
            for amount in 1..=size.min(self.m) {
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

impl fmt::Display for Bash {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "m={}", self.m)
    }
}

impl FromStr for Bash {
    type Err = NotationError;
    /// Reads `m=3` (spaces around the parts allowed); `m` must be at least 1.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        const WHAT: &str = "bash rules";
        let (key, value) = s
            .split_once('=')
            .ok_or_else(|| NotationError::new(WHAT, s, "expected m=<number>"))?;
        if key.trim() != "m" {
            return Err(NotationError::new(WHAT, s, "expected m=<number>"));
        }
        let m: u64 = value
            .trim()
            .parse()
            .map_err(|e| NotationError::new(WHAT, s, format!("m: {e}")))?;
        if m == 0 {
            return Err(NotationError::new(WHAT, s, "m must be at least 1"));
        }
        Ok(Bash { m })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::plus_heap::grundy_by_search;
    use crate::Solver;

    fn analyze(m: u64, s: &str) -> crate::Analysis<Take> {
        Solver::new(Bash { m })
            .analyze(&s.parse().unwrap())
            .unwrap()
    }

    #[test]
    fn spec_samples_hdu1846() {
        // hdu1846 statement sample: `23 2` => first, `4 3` => second.
        let a = analyze(2, "23");
        assert!(a.win);
        // Only one amount leaves the opponent a loss; the oracle finds it by search.
        assert_eq!(a.count(), 1);
        assert!(!analyze(3, "4").win);
    }

    #[test]
    fn losses_match_spec_fact() {
        // Game `bash`: one pile n loses iff n % (m+1) == 0. Asserting that
        // fact against the plain search is the test.
        for m in 1..=8 {
            let mut solver = Solver::new(Bash { m });
            for n in 0..=60 {
                let win = solver.outcome(&Piles(vec![n])).unwrap().win;
                assert_eq!(!win, n % (m + 1) == 0, "m={m} n={n}");
            }
        }
    }

    #[test]
    fn grundy_matches_spec() {
        // Game `bash`: SG = n % (m+1), measured by minimax over pile + heap.
        for m in 1..=5 {
            for n in 0..=20 {
                let got = grundy_by_search(&Bash { m }, &Piles(vec![n]), 8).unwrap();
                assert_eq!(got, Some(n % (m + 1)), "m={m} n={n}");
            }
        }
    }

    #[test]
    fn edges() {
        // No piles or empty piles: no move, the player to move loses at once.
        for s in ["-", "0", "0,0"] {
            let a = analyze(3, s);
            assert!(!a.win, "{s}");
            assert_eq!(a.remoteness, Some(0));
        }
        // n = 1: take the stone and win, whatever m is.
        for m in [1, 5] {
            let a = analyze(m, "1");
            assert_eq!(a.winning, vec![Take { pile: 0, amount: 1 }]);
            assert_eq!(a.remoteness, Some(1));
        }
        // m = 1: every move takes one stone, so the parity of the total decides.
        assert!(!analyze(1, "2,2").win);
        assert!(analyze(1, "2,3").win);
    }

    #[test]
    fn moves_respect_m() {
        // A pile of 5 with m = 3 allows taking 1, 2, 3 but not 4 or 5.
        let mut out = Vec::new();
        Bash { m: 3 }.moves(&Piles(vec![5, 2]), &mut out);
        let moves: Vec<String> = out.iter().map(|(m, p)| format!("{m}>{p}")).collect();
        assert_eq!(
            moves,
            ["0:1>4,2", "0:2>3,2", "0:3>2,2", "1:1>5,1", "1:2>5,0"]
        );
    }

    #[test]
    fn notation_round_trip() {
        assert_eq!("m=3".parse::<Bash>().unwrap(), Bash { m: 3 });
        assert_eq!(" m = 7 ".parse::<Bash>().unwrap(), Bash { m: 7 });
        assert_eq!(Bash { m: 1000 }.to_string(), "m=1000");
        for s in ["m=0", "3", "n=3", "m=", "m=x", "m=-1"] {
            assert!(s.parse::<Bash>().is_err(), "{s}");
        }
        for s in ["-", "23", "3,4,5"] {
            assert_eq!(s.parse::<Piles>().unwrap().to_string(), s);
        }
    }
}
