//! Take-range: take between `p` and `q` coins; whoever takes the last coin loses.
//!
//! Rules (game `take-range`; contest problem hdu2897 "邂逅明下"): one pile of
//! `n` coins. A move takes at least `p` and at most `q` coins; if fewer than `p` coins
//! remain, the player must take all of them (so with `0 < n < p` the only move takes
//! `n`). **The player who takes the last coin loses.**
//!
//! That ending is modelled with [`Rules::stuck_player_wins`]: the only position without
//! a move is the empty pile, and reaching it means the previous player took the last
//! coin, so the player to move there has won. (An empty pile as a *starting* position
//! is outside the contest, whose `n` is at least 1; the oracle reads it the same way.)
//!
//! Notation: a position is the number of coins (`7`). A move is the number of coins
//! taken (`3`). The rules are written `p=2,q=4` (either order, `1 <= p <= q`).
//! Canonical move order: ascending amount taken.

use crate::{NotationError, Rules};
use std::fmt;
use std::str::FromStr;

/// The rules of take-range: take `p..=q` coins (or all of them when fewer than `p`
/// remain); taking the last coin loses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TakeRange {
    /// The fewest coins a move takes while at least that many remain; at least 1.
    pub p: u64,
    /// The most coins a move may take; at least `p`.
    pub q: u64,
}

/// A take-range position: the number of coins left in the pile.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Coins(pub u64);

/// A take-range move: the number of coins taken (at least one). Ordered by amount.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct TakeCoins(pub u64);

impl Rules for TakeRange {
    type Position = Coins;
    type Move = TakeCoins;

    /// At most q - p + 1 amounts (or the single forced one).
    fn move_bound(&self, _pos: &Coins) -> Option<u64> {
        Some(self.q.saturating_sub(self.p).saturating_add(1))
    }

    /// With `n >= p`: every amount in `p..=min(q, n)` (taking all `n` is allowed when
    /// `n <= q`, and loses on the spot). With `0 < n < p`: only taking all `n`.
    /// Rules outside `1 <= p <= q` (which [`FromStr`] rejects) still never produce a
    /// move of zero coins, so the game always ends.
    fn moves(&self, pos: &Coins, out: &mut Vec<(TakeCoins, Coins)>) {
        let n = pos.0;
        if n == 0 {
            return;
        }
        let p = self.p.max(1);
        if n < p {
            out.push((TakeCoins(n), Coins(0)));
            return;
        }
        for amount in p..=self.q.min(n) {
            out.push((TakeCoins(amount), Coins(n - amount)));
        }
    }

    /// At an empty pile the previous player took the last coin, and so lost.
    fn stuck_player_wins(&self, pos: &Coins) -> bool {
        pos.0 == 0
    }

    /// The moves of [`Rules::moves`], without a vector.
    fn for_each_move<F: FnMut(Self::Move, &Coins)>(&self, pos: &Coins, mut f: F) {
        let n = pos.0;
        if n == 0 {
            return;
        }
        let p = self.p.max(1);
        if n < p {
            f(TakeCoins(n), &Coins(0));
            return;
        }
        for amount in p..=self.q.min(n) {
            f(TakeCoins(amount), &Coins(n - amount));
        }
    }

    /// The coin count, packed.
    fn packed_key(&self, pos: &Coins) -> Option<u128> {
        crate::pack::pack_values(0, &[pos.0])
    }
}

impl fmt::Display for TakeRange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "p={},q={}", self.p, self.q)
    }
}

impl FromStr for TakeRange {
    type Err = NotationError;
    /// Reads `p=2,q=4` (either order, spaces allowed); requires `1 <= p <= q`.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        const WHAT: &str = "take-range rules";
        let (mut p, mut q) = (None, None);
        for part in s.split(',') {
            let (key, value) = part
                .split_once('=')
                .ok_or_else(|| NotationError::new(WHAT, s, "expected p=<number>,q=<number>"))?;
            let slot = match key.trim() {
                "p" => &mut p,
                "q" => &mut q,
                other => {
                    return Err(NotationError::new(
                        WHAT,
                        s,
                        format!("unknown parameter {other:?}; expected p and q"),
                    ))
                }
            };
            if slot.is_some() {
                return Err(NotationError::new(
                    WHAT,
                    s,
                    format!("{} given twice", key.trim()),
                ));
            }
            let v: u64 = value
                .trim()
                .parse()
                .map_err(|e| NotationError::new(WHAT, s, format!("{}: {e}", key.trim())))?;
            *slot = Some(v);
        }
        let (Some(p), Some(q)) = (p, q) else {
            return Err(NotationError::new(WHAT, s, "both p and q are required"));
        };
        if p == 0 {
            return Err(NotationError::new(WHAT, s, "p must be at least 1"));
        }
        if p > q {
            return Err(NotationError::new(WHAT, s, "p must not exceed q"));
        }
        Ok(TakeRange { p, q })
    }
}

impl fmt::Display for Coins {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

impl FromStr for Coins {
    type Err = NotationError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        s.trim()
            .parse()
            .map(Coins)
            .map_err(|e| NotationError::new("take-range position", s, format!("{e}")))
    }
}

impl fmt::Display for TakeCoins {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

impl FromStr for TakeCoins {
    type Err = NotationError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        const WHAT: &str = "take-range move";
        let amount: u64 = s
            .trim()
            .parse()
            .map_err(|e| NotationError::new(WHAT, s, format!("{e}")))?;
        if amount == 0 {
            return Err(NotationError::new(
                WHAT,
                s,
                "a move takes at least one coin",
            ));
        }
        Ok(TakeCoins(amount))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Solver;

    fn analyze(p: u64, q: u64, n: u64) -> crate::Analysis<TakeCoins> {
        Solver::new(TakeRange { p, q }).analyze(&Coins(n)).unwrap()
    }

    #[test]
    fn spec_samples_hdu2897() {
        // hdu2897 statement sample: `7 2 4` => LOST, `6 2 4` => WIN.
        assert!(!analyze(2, 4, 7).win);
        let a = analyze(2, 4, 6);
        assert!(a.win);
        // Taking 5 is not allowed (q = 4); the search finds the winning amounts itself.
        assert!(a.winning.iter().all(|t| (2..=4).contains(&t.0)));
    }

    #[test]
    fn losses_match_spec_fact() {
        // Game `take-range` (checked by exhaustive search): lose iff 1 <= n % (p+q) <= p.
        for q in 1..=8 {
            for p in 1..=q {
                let mut solver = Solver::new(TakeRange { p, q });
                for n in 1..=60 {
                    let win = solver.outcome(&Coins(n)).unwrap().win;
                    let r = n % (p + q);
                    assert_eq!(!win, (1..=p).contains(&r), "p={p} q={q} n={n}");
                }
            }
        }
    }

    #[test]
    fn edges() {
        // n = 1: the only move takes the last coin, which loses; whatever p and q are.
        for (p, q) in [(1, 1), (1, 5), (3, 4)] {
            let a = analyze(p, q, 1);
            assert!(!a.win, "p={p} q={q}");
            assert_eq!(a.remoteness, Some(1));
        }
        // n < p: the only move takes every coin.
        let mut out = Vec::new();
        TakeRange { p: 5, q: 9 }.moves(&Coins(3), &mut out);
        assert_eq!(out, vec![(TakeCoins(3), Coins(0))]);
        assert!(!analyze(5, 9, 3).win);
        // Empty pile: the previous player took the last coin; no move, and a win.
        let a = analyze(2, 4, 0);
        assert!(a.win);
        assert!(a.winning.is_empty());
        assert_eq!(a.remoteness, Some(0));
    }

    #[test]
    fn moves_in_range() {
        // n = 6, p = 2, q = 4: take 2, 3 or 4, ascending.
        let mut out = Vec::new();
        TakeRange { p: 2, q: 4 }.moves(&Coins(6), &mut out);
        let amounts: Vec<u64> = out.iter().map(|(t, _)| t.0).collect();
        assert_eq!(amounts, [2, 3, 4]);
        // n = 3, p = 2, q = 4: take 2 or all 3 (taking all is legal, and loses).
        out.clear();
        TakeRange { p: 2, q: 4 }.moves(&Coins(3), &mut out);
        assert_eq!(
            out,
            vec![(TakeCoins(2), Coins(1)), (TakeCoins(3), Coins(0))]
        );
    }

    #[test]
    fn notation_round_trip() {
        let r = TakeRange { p: 2, q: 4 };
        assert_eq!(r.to_string(), "p=2,q=4");
        assert_eq!("p=2,q=4".parse::<TakeRange>().unwrap(), r);
        assert_eq!(" q = 4 , p = 2 ".parse::<TakeRange>().unwrap(), r);
        assert_eq!(
            "p=3,q=3".parse::<TakeRange>().unwrap(),
            TakeRange { p: 3, q: 3 }
        );
        for s in [
            "p=0,q=4",
            "p=5,q=4",
            "p=2",
            "p=2,q=4,p=2",
            "p=2,r=4",
            "2,4",
            "",
        ] {
            assert!(s.parse::<TakeRange>().is_err(), "{s}");
        }
        assert_eq!("7".parse::<Coins>().unwrap(), Coins(7));
        assert_eq!(Coins(0).to_string(), "0");
        assert_eq!("3".parse::<TakeCoins>().unwrap().to_string(), "3");
        assert!("0".parse::<TakeCoins>().is_err());
        assert!("x".parse::<Coins>().is_err());
    }
}
