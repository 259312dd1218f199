//! Mock Turtles, a coin-turning game.
//!
//! Rules (game `mock-turtles`; Berlekamp, Conway and Guy, *Winning Ways*, "Mock
//! Turtles"; Ferguson, *Game Theory*, part I, "Coin-turning games"): a row of coins
//! at positions 0, 1, 2, ...; some show heads, the rest tails. A move turns over one,
//! two or three coins; the rightmost (highest-numbered) coin turned must go from heads
//! to tails, the others may go either way (a head becomes a tail and a tail a head).
//! Normal play: the player with no move (every coin shows tails) loses.
//!
//! Notation: a position is the positions of its heads, comma-separated (`0,3,5`; `-`
//! for none). They may be written in any order and are kept sorted ascending; a
//! position written twice is rejected. A move is the coins it turns, ascending, joined
//! by `+`: `5` turns coin 5 alone, `1+5` turns coins 1 and 5, `0+2+5` turns 0, 2
//! and 5; the last one is the rightmost coin, which goes from heads to tails.
//! Canonical move order: by the rightmost coin, then by the lower coins as a list
//! (fewer first when one list starts the other): `5`, `0+5`, `0+1+5`, `0+2+5`,
//! `1+5`, ..., `6`, ...

use crate::{parse_list, write_list, NotationError, Rules};
use std::fmt;
use std::str::FromStr;

/// The rules of Mock Turtles. It has no parameters.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct MockTurtles;

/// A Mock Turtles position: the positions of the heads, distinct and sorted ascending
/// (what [`FromStr`] gives; a hand-built position must keep to that).
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Heads(pub Vec<u64>);

/// Turning over the coin `top`, which shows heads, and up to two coins below it,
/// `lower` (strictly ascending, each below `top`). Ordered by `top`, then `lower`.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Turn {
    /// The rightmost coin turned; it goes from heads to tails.
    pub top: u64,
    /// The other coins turned (none, one or two), ascending, each below `top`.
    pub lower: Vec<u64>,
}

impl Heads {
    /// The position after turning over the coins `coins` (distinct): each head among
    /// them becomes a tail and each tail a head.
    fn turned(&self, coins: &[u64]) -> Heads {
        let mut next: Vec<u64> = self
            .0
            .iter()
            .copied()
            .filter(|c| !coins.contains(c))
            .collect();
        next.extend(coins.iter().copied().filter(|c| !self.0.contains(c)));
        next.sort_unstable();
        Heads(next)
    }
}

impl Rules for MockTurtles {
    type Position = Heads;
    type Move = Turn;

    /// For every head `top`: turn it alone, with one coin `a < top`, or with two coins
    /// `a < b < top`, whatever those lower coins show.
    fn moves(&self, pos: &Heads, out: &mut Vec<(Turn, Heads)>) {
        for &top in &pos.0 {
            out.push((Turn { top, lower: vec![] }, pos.turned(&[top])));
            for a in 0..top {
                out.push((
                    Turn {
                        top,
                        lower: vec![a],
                    },
                    pos.turned(&[a, top]),
                ));
                for b in a + 1..top {
                    out.push((
                        Turn {
                            top,
                            lower: vec![a, b],
                        },
                        pos.turned(&[a, b, top]),
                    ));
                }
            }
        }
    }

    /// 1 + t + t(t-1)/2 moves for the head at t.
    fn move_bound(&self, pos: &Heads) -> Option<u64> {
        pos.0.iter().try_fold(0u64, |sum, &t| {
            let pairs = (t as u128) * (t as u128).saturating_sub(1) / 2;
            let n = u64::try_from(1 + t as u128 + pairs).ok()?;
            sum.checked_add(n)
        })
    }

    fn position_bytes(&self, pos: &Heads) -> usize {
        std::mem::size_of::<Heads>() + pos.0.len() * std::mem::size_of::<u64>()
    }
}

/// Mock Turtles has no parameters: its rules are written `-`.
impl fmt::Display for MockTurtles {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("-")
    }
}

impl FromStr for MockTurtles {
    type Err = NotationError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.trim() {
            "" | "-" => Ok(MockTurtles),
            _ => Err(NotationError::new(
                "mock-turtles rules",
                s,
                "mock-turtles has no parameters; write -",
            )),
        }
    }
}

impl fmt::Display for Heads {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_list(f, &self.0)
    }
}

impl FromStr for Heads {
    type Err = NotationError;
    /// Reads `0,3,5`: distinct coin positions in any order, kept sorted.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        const WHAT: &str = "mock-turtles position";
        let mut heads: Vec<u64> = parse_list(WHAT, s)?;
        heads.sort_unstable();
        if let Some(w) = heads.windows(2).find(|w| w[0] == w[1]) {
            return Err(NotationError::new(
                WHAT,
                s,
                format!("coin {} is listed twice", w[0]),
            ));
        }
        Ok(Heads(heads))
    }
}

impl fmt::Display for Turn {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for a in &self.lower {
            write!(f, "{a}+")?;
        }
        write!(f, "{}", self.top)
    }
}

impl FromStr for Turn {
    type Err = NotationError;
    /// Reads `0+2+5`: one to three coins, strictly ascending.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        const WHAT: &str = "mock-turtles move";
        let coins = s
            .split('+')
            .map(|c| {
                c.trim()
                    .parse::<u64>()
                    .map_err(|e| NotationError::new(WHAT, s, format!("{:?}: {e}", c.trim())))
            })
            .collect::<Result<Vec<u64>, _>>()?;
        if coins.len() > 3 {
            return Err(NotationError::new(WHAT, s, "a move turns at most 3 coins"));
        }
        if coins.windows(2).any(|w| w[0] >= w[1]) {
            return Err(NotationError::new(
                WHAT,
                s,
                "the coins are distinct and written ascending",
            ));
        }
        let (&top, lower) = coins.split_last().expect("split gives at least one part");
        Ok(Turn {
            top,
            lower: lower.to_vec(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::plus_heap::grundy_by_search;
    use crate::Solver;

    fn analyze(s: &str) -> crate::Analysis<Turn> {
        Solver::new(MockTurtles)
            .analyze(&s.parse().unwrap())
            .unwrap()
    }

    fn turns(a: &crate::Analysis<Turn>) -> Vec<String> {
        a.winning.iter().map(|m| m.to_string()).collect()
    }

    #[test]
    fn small_positions_by_hand() {
        // All tails: no move, the player to move loses at once.
        let a = analyze("-");
        assert!(!a.win);
        assert_eq!(a.remoteness, Some(0));
        // A head at 0: the only move turns it, and the opponent has no move.
        let a = analyze("0");
        assert_eq!(turns(&a), ["0"]);
        assert_eq!(a.remoteness, Some(1));
        // Heads at 0 and 1: turning 0 and 1 ends the game. Turning 1 alone leaves the
        // head at 0 (a win for the opponent), and turning 0 alone leaves the head at 1
        // (a win for the opponent, who turns it). The one winning move is 0+1.
        assert_eq!(turns(&analyze("0,1")), ["0+1"]);
        // A head at 1: turn it alone, or with coin 0 (leaves a head at 0: the
        // opponent turns it and wins). Only 1 wins.
        assert_eq!(turns(&analyze("1")), ["1"]);
    }

    #[test]
    fn moves_follow_the_rule_text() {
        // Heads at 0 and 2: the head at 0 may only be turned alone; the head at 2
        // alone, with 0 or 1, or with both. Turning the head at 0 as a lower coin makes
        // it a tail, turning the tail at 1 makes it a head.
        let mut out = Vec::new();
        MockTurtles.moves(&"2,0".parse().unwrap(), &mut out);
        let mv: Vec<String> = out.iter().map(|(m, p)| format!("{m} {p}")).collect();
        assert_eq!(mv, ["0 2", "2 0", "0+2 -", "0+1+2 1", "1+2 0,1"]);
        assert_eq!(MockTurtles.move_bound(&"2,0".parse().unwrap()), Some(5));
    }

    #[test]
    fn single_heads_are_odious_numbers() {
        // Winning Ways, "Mock Turtles": one head at n is worth the n-th odious number
        // (OEIS A000069: 1, 2, 4, 7, 8, 11, 13, 14, ...), measured by minimax over
        // position + heap.
        let odious = [1, 2, 4, 7, 8, 11, 13, 14];
        for (n, &v) in odious.iter().enumerate() {
            let got = grundy_by_search(&MockTurtles, &Heads(vec![n as u64]), 16).unwrap();
            assert_eq!(got, Some(v), "head at {n}");
        }
    }

    #[test]
    fn losses_from_winning_ways() {
        // Lost positions: the XOR of the heads' odious numbers (OEIS A000069) is 0.
        // 1^2^4^7 = 0: heads 0,1,2,3. 8^11^13^14 = 0: heads 4,5,6,7.
        // 1^2^8^11 = 0: heads 0,1,4,5. 4^7^13^14 = 0: heads 2,3,6,7.
        let mut solver = Solver::verdict_only(MockTurtles);
        for s in ["0,1,2,3", "4,5,6,7", "0,1,4,5", "2,3,6,7"] {
            assert!(!solver.outcome(&s.parse().unwrap()).unwrap().win, "{s}");
        }
        // And won ones: 1^2^4 = 7 (heads 0,1,2); 1^2^7 = 4 (heads 0,1,3).
        for s in ["0,1,2", "0,1,3", "3", "0,1,2,4"] {
            assert!(solver.outcome(&s.parse().unwrap()).unwrap().win, "{s}");
        }
    }

    #[test]
    fn notation() {
        assert_eq!("5,0,3".parse::<Heads>().unwrap(), Heads(vec![0, 3, 5]));
        assert_eq!("5,0,3".parse::<Heads>().unwrap().to_string(), "0,3,5");
        assert_eq!("-".parse::<Heads>().unwrap(), Heads(vec![]));
        assert_eq!(Heads(vec![]).to_string(), "-");
        let e = "1,4,1".parse::<Heads>().unwrap_err();
        assert!(e.reason.contains("coin 1 is listed twice"), "{e}");
        assert!("1,x".parse::<Heads>().is_err());
        for s in ["5", "1+5", "0+2+5"] {
            assert_eq!(s.parse::<Turn>().unwrap().to_string(), s);
        }
        for s in ["", "5+1", "1+1", "0+1+2+3", "a+2", "-1"] {
            assert!(s.parse::<Turn>().is_err(), "{s}");
        }
        assert_eq!("-".parse::<MockTurtles>().unwrap(), MockTurtles);
        assert!("m=3".parse::<MockTurtles>().is_err());
        // Canonical order: by the top coin, then the lower coins as a list.
        let order: Vec<Turn> = ["5", "0+5", "0+1+5", "0+2+5", "1+5", "6"]
            .iter()
            .map(|s| s.parse().unwrap())
            .collect();
        assert!(order.windows(2).all(|w| w[0] < w[1]));
    }
}
