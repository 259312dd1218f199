//! Wythoff's game.
//!
//! Rules (game `wythoff`; contest problem hdu1527, also POJ 1067 and Luogu P2252): two
//! piles of stones; a move takes any positive number t of stones from one pile, or
//! the same positive number t from both piles. Normal play: the player with no move
//! (both piles empty) loses.
//!
//! Notation: a position is its two piles, `a,b` ([`Pair`]; `8,4`). A move is `0:t`
//! (take t from pile 0), `1:t` (from pile 1) or `01:t` (t from both), see
//! [`WythoffMove`]. The rules have no parameters and are written `-`.
//! Canonical move order: every pile-0 move (t ascending), then every pile-1 move,
//! then every both-piles move.

use crate::{NotationError, Rules};
use std::fmt;
use std::str::FromStr;

/// The rules of Wythoff's game. No parameters.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Wythoff;

/// A Wythoff position: the two piles, pile 0 first.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Pair(pub u64, pub u64);

/// One move. The variant order is the canonical order: pile 0, pile 1, both.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum WythoffMove {
    /// Take t (at least 1) from pile 0.
    Pile0(u64),
    /// Take t (at least 1) from pile 1.
    Pile1(u64),
    /// Take t (at least 1) from both piles.
    Both(u64),
}

impl Rules for Wythoff {
    type Position = Pair;
    type Move = WythoffMove;

    fn moves(&self, pos: &Pair, out: &mut Vec<(WythoffMove, Pair)>) {
        let Pair(a, b) = *pos;
        for t in 1..=a {
            out.push((WythoffMove::Pile0(t), Pair(a - t, b)));
        }
        for t in 1..=b {
            out.push((WythoffMove::Pile1(t), Pair(a, b - t)));
        }
        for t in 1..=a.min(b) {
            out.push((WythoffMove::Both(t), Pair(a - t, b - t)));
        }
    }

    /// One move per stone of each pile, and one per stone of the smaller pile.
    fn move_bound(&self, pos: &Pair) -> Option<u64> {
        Some(pos.0.saturating_add(pos.1).saturating_add(pos.0.min(pos.1)))
    }

    /// Swapping the piles changes nothing in the rules: positions are remembered with
    /// the smaller pile first.
    fn key(&self, pos: &Pair) -> Pair {
        Pair(pos.0.min(pos.1), pos.0.max(pos.1))
    }
}

impl fmt::Display for Wythoff {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("-")
    }
}

impl FromStr for Wythoff {
    type Err = NotationError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.trim() {
            "" | "-" => Ok(Wythoff),
            _ => Err(NotationError::new(
                "wythoff rules",
                s,
                "wythoff has no parameters; write -",
            )),
        }
    }
}

impl fmt::Display for Pair {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{},{}", self.0, self.1)
    }
}

impl FromStr for Pair {
    type Err = NotationError;
    /// Reads `a,b`: exactly two piles.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let v: Vec<u64> = crate::parse_list("wythoff position", s)?;
        match v[..] {
            [a, b] => Ok(Pair(a, b)),
            _ => Err(NotationError::new(
                "wythoff position",
                s,
                format!("expected two piles a,b, found {}", v.len()),
            )),
        }
    }
}

impl fmt::Display for WythoffMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            WythoffMove::Pile0(t) => write!(f, "0:{t}"),
            WythoffMove::Pile1(t) => write!(f, "1:{t}"),
            WythoffMove::Both(t) => write!(f, "01:{t}"),
        }
    }
}

impl FromStr for WythoffMove {
    type Err = NotationError;
    /// Reads `0:t`, `1:t` or `01:t` with t at least 1.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        const WHAT: &str = "wythoff move";
        let (p, t) = s
            .split_once(':')
            .ok_or_else(|| NotationError::new(WHAT, s, "expected 0:t, 1:t or 01:t"))?;
        let t: u64 = t
            .trim()
            .parse()
            .map_err(|e| NotationError::new(WHAT, s, format!("t: {e}")))?;
        if t == 0 {
            return Err(NotationError::new(WHAT, s, "t must be at least 1"));
        }
        match p.trim() {
            "0" => Ok(WythoffMove::Pile0(t)),
            "1" => Ok(WythoffMove::Pile1(t)),
            "01" => Ok(WythoffMove::Both(t)),
            _ => Err(NotationError::new(WHAT, s, "expected 0:t, 1:t or 01:t")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Solver;

    fn analyze(a: u64, b: u64) -> crate::Analysis<WythoffMove> {
        Solver::new(Wythoff).analyze(&Pair(a, b)).unwrap()
    }

    #[test]
    fn spec_samples_hdu1527() {
        // hdu1527 statement sample: `2 1` => 0, `8 4` => 1, `4 7` => 0.
        assert!(!analyze(2, 1).win);
        assert!(analyze(8, 4).win);
        assert!(!analyze(4, 7).win);
    }

    #[test]
    fn losing_positions_are_wythoff_pairs() {
        // The P-positions with a <= b, measured here by search, are (0,0) and the
        // pairs (floor(k phi), floor(k phi^2)): OEIS A000201 and A001950 begin
        // 1, 3, 4, 6, 8, 9, 11, 12 and 2, 5, 7, 10, 13, 15, 18, 20.
        let lower = [1u64, 3, 4, 6, 8, 9, 11, 12];
        let upper = [2u64, 5, 7, 10, 13, 15, 18, 20];
        let mut solver = Solver::verdict_only(Wythoff);
        let mut found = Vec::new();
        for b in 0..=20 {
            for a in 0..=b {
                if !solver.outcome(&Pair(a, b)).unwrap().win {
                    found.push((a, b));
                }
            }
        }
        let mut want = vec![(0, 0)];
        want.extend(lower.iter().copied().zip(upper.iter().copied()));
        assert_eq!(found, want);
    }

    #[test]
    fn up_to_three_winning_moves_in_canonical_order() {
        // (5,5): (3,5) and (5,3) are P-positions (the pair (3,5) of the list above)
        // and so is (0,0): taking 2 from either pile or 5 from both wins, in the
        // order pile 0, pile 1, both.
        use WythoffMove::*;
        assert_eq!(analyze(5, 5).winning, vec![Pile0(2), Pile1(2), Both(5)]);
        // (3,3): only the diagonal move to (0,0) (the partner of 3 is 5).
        assert_eq!(analyze(3, 3).winning, vec![Both(3)]);
        // Every winning move the search finds leads to a lost position.
        for (x, y) in [(4, 4), (5, 9), (10, 2), (7, 7)] {
            let an = analyze(x, y);
            assert!(an.count() <= 3, "({x},{y}) has {:?}", an.winning);
            let mut moves = Vec::new();
            Wythoff.moves(&Pair(x, y), &mut moves);
            let mut s = Solver::verdict_only(Wythoff);
            for m in &an.winning {
                let (_, next) = moves.iter().find(|(mm, _)| mm == m).unwrap();
                assert!(!s.outcome(next).unwrap().win, "({x},{y}) {m}");
            }
        }
    }

    #[test]
    fn moves_follow_the_rules() {
        let mut out = Vec::new();
        Wythoff.moves(&Pair(2, 1), &mut out);
        let moves: Vec<String> = out.iter().map(|(m, p)| format!("{m}>{p}")).collect();
        assert_eq!(moves, ["0:1>1,1", "0:2>0,1", "1:1>2,0", "01:1>1,0"]);
        let a = analyze(0, 0);
        assert!(!a.win);
        assert_eq!(a.remoteness, Some(0));
    }

    #[test]
    fn notation_round_trip() {
        assert_eq!("8,4".parse::<Pair>().unwrap(), Pair(8, 4));
        assert_eq!(Pair(0, 7).to_string(), "0,7");
        for s in ["3", "1,2,3", "-", "x,1"] {
            assert!(s.parse::<Pair>().is_err(), "{s}");
        }
        for m in ["0:3", "1:1", "01:7"] {
            assert_eq!(m.parse::<WythoffMove>().unwrap().to_string(), m);
        }
        for m in ["0:0", "2:1", "01", "10:2"] {
            assert!(m.parse::<WythoffMove>().is_err(), "{m}");
        }
        assert!(WythoffMove::Pile0(9) < WythoffMove::Pile1(1));
        assert!(WythoffMove::Pile1(9) < WythoffMove::Both(1));
        assert_eq!("-".parse::<Wythoff>().unwrap(), Wythoff);
        assert!("k=2".parse::<Wythoff>().is_err());
    }
}
