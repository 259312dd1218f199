//! Lasker's Nim: take from a pile, or split a pile in two.
//!
//! Rules (game `lasker`; contest problem hdu3032 "Nim or not Nim?"): a position
//! is a row of piles; a move either takes any positive number of stones from one pile,
//! or splits one pile into two non-empty piles. Normal play: the player with no move
//! (every pile empty) loses.
//!
//! Splitting pile `i` of size `s` into `a + b` (`1 <= a <= b`, `a + b = s`) leaves the
//! smaller part `a` at index `i` and inserts the larger part `b` right after it, at
//! `i + 1`; later piles move one place right. Splitting into `a + b` and `b + a` is one
//! move, written with the smaller part first.
//!
//! Notation: a position is its piles, comma-separated (`2,2,3`; `-` for no piles), as in
//! Nim ([`Piles`]). A take is `pile:amount` (`0:3`); a split is `pile=smaller+larger`
//! (`0=1+4`). The rules have no parameters and are written `-`.
//! Canonical move order: by pile index; within one pile every take (by amount) comes
//! before every split (by smaller part). See [`LaskerMove`]'s `Ord`.

use crate::games::nim::Piles;
use crate::{NotationError, Rules};
use std::cmp::Ordering;
use std::fmt;
use std::str::FromStr;

/// The rules of Lasker's Nim. It has no parameters.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Lasker;

/// One move of Lasker's Nim.
///
/// Ordered by pile index first; for the same pile, takes come before splits; takes are
/// ordered by amount, splits by their smaller part (then larger part, which for a
/// legal move is fixed by the pile size). This is not the derived order (which would
/// put every take before every split, whatever the pile), so `Ord` is written by hand.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum LaskerMove {
    /// Take `amount` stones (at least one) from pile `pile`.
    Take {
        /// Index of the pile, from 0.
        pile: usize,
        /// Number of stones taken.
        amount: u64,
    },
    /// Split pile `pile` into `smaller + larger` (`1 <= smaller <= larger`, summing to
    /// the pile's size): `smaller` stays at index `pile`, `larger` is inserted at
    /// `pile + 1`.
    Split {
        /// Index of the pile, from 0.
        pile: usize,
        /// The smaller part, which stays at index `pile`.
        smaller: u64,
        /// The larger part (`pile size - smaller`), inserted at index `pile + 1`.
        /// Redundant given the position, but it makes the move readable on its own.
        larger: u64,
    },
}

impl LaskerMove {
    /// The pile this move acts on.
    pub fn pile(&self) -> usize {
        match *self {
            LaskerMove::Take { pile, .. } | LaskerMove::Split { pile, .. } => pile,
        }
    }

    /// The canonical order as a tuple: (pile, 0 for take / 1 for split, sizes).
    fn order_key(&self) -> (usize, u8, u64, u64) {
        match *self {
            LaskerMove::Take { pile, amount } => (pile, 0, amount, 0),
            LaskerMove::Split {
                pile,
                smaller,
                larger,
            } => (pile, 1, smaller, larger),
        }
    }
}

impl Ord for LaskerMove {
    fn cmp(&self, other: &Self) -> Ordering {
        self.order_key().cmp(&other.order_key())
    }
}

impl PartialOrd for LaskerMove {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Rules for Lasker {
    type Position = Piles;
    type Move = LaskerMove;

    /// A pile of size s has s takes and s/2 splits.
    fn move_bound(&self, pos: &Piles) -> Option<u64> {
        Some(
            pos.0
                .iter()
                .fold(0u64, |a, &s| a.saturating_add(s).saturating_add(s / 2)),
        )
    }

    fn moves(&self, pos: &Piles, out: &mut Vec<(LaskerMove, Piles)>) {
        for (pile, &size) in pos.0.iter().enumerate() {
            for amount in 1..=size {
                let mut next = pos.clone();
                next.0[pile] -= amount;
                out.push((LaskerMove::Take { pile, amount }, next));
            }
            for smaller in 1..=size / 2 {
                let larger = size - smaller;
                let mut next = pos.clone();
                next.0[pile] = smaller;
                next.0.insert(pile + 1, larger);
                out.push((
                    LaskerMove::Split {
                        pile,
                        smaller,
                        larger,
                    },
                    next,
                ));
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

    /// The moves of [`Rules::moves`], their children built in one buffer: a take changes one pile,
    /// a split changes it and inserts the larger part after it (removed again after).
    fn for_each_move<F: FnMut(Self::Move, &Piles)>(&self, pos: &Piles, mut f: F) {
        let mut next = pos.clone();
        for (pile, &size) in pos.0.iter().enumerate() {
            for amount in 1..=size {
                next.0[pile] = size - amount;
                f(LaskerMove::Take { pile, amount }, &next);
            }
            for smaller in 1..=size / 2 {
                next.0[pile] = smaller;
                let larger = size - smaller;
                next.0.insert(pile + 1, larger);
                let mv = LaskerMove::Split {
                    pile,
                    smaller,
                    larger,
                };
                f(mv, &next);
                next.0.remove(pile + 1);
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

impl fmt::Display for Lasker {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("-")
    }
}

impl FromStr for Lasker {
    type Err = NotationError;
    /// Lasker's Nim has no parameters: accepts `-` or nothing.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.trim() {
            "" | "-" => Ok(Lasker),
            _ => Err(NotationError::new(
                "lasker rules",
                s,
                "Lasker's Nim has no parameters; write -",
            )),
        }
    }
}

impl fmt::Display for LaskerMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            LaskerMove::Take { pile, amount } => write!(f, "{pile}:{amount}"),
            LaskerMove::Split {
                pile,
                smaller,
                larger,
            } => write!(f, "{pile}={smaller}+{larger}"),
        }
    }
}

impl FromStr for LaskerMove {
    type Err = NotationError;
    /// Reads `pile:amount` (a take, amount at least 1) or `pile=smaller+larger` (a
    /// split, `1 <= smaller <= larger`).
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        const WHAT: &str = "lasker move";
        let num = |field: &str, t: &str| -> Result<u64, NotationError> {
            t.trim()
                .parse()
                .map_err(|e| NotationError::new(WHAT, s, format!("{field}: {e}")))
        };
        let pile_index = |t: &str| -> Result<usize, NotationError> {
            t.trim()
                .parse()
                .map_err(|e| NotationError::new(WHAT, s, format!("pile: {e}")))
        };
        if let Some((p, parts)) = s.split_once('=') {
            let (a, b) = parts.split_once('+').ok_or_else(|| {
                NotationError::new(WHAT, s, "expected pile=smaller+larger for a split")
            })?;
            let (smaller, larger) = (num("smaller", a)?, num("larger", b)?);
            if smaller == 0 {
                return Err(NotationError::new(WHAT, s, "both parts must be non-empty"));
            }
            if smaller > larger {
                return Err(NotationError::new(WHAT, s, "write the smaller part first"));
            }
            return Ok(LaskerMove::Split {
                pile: pile_index(p)?,
                smaller,
                larger,
            });
        }
        let (p, a) = s.split_once(':').ok_or_else(|| {
            NotationError::new(WHAT, s, "expected pile:amount or pile=smaller+larger")
        })?;
        let amount = num("amount", a)?;
        if amount == 0 {
            return Err(NotationError::new(
                WHAT,
                s,
                "a move takes at least one stone",
            ));
        }
        Ok(LaskerMove::Take {
            pile: pile_index(p)?,
            amount,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::plus_heap::grundy_by_search;
    use crate::Solver;

    fn analyze(s: &str) -> crate::Analysis<LaskerMove> {
        Solver::new(Lasker).analyze(&s.parse().unwrap()).unwrap()
    }

    fn mv(s: &str) -> LaskerMove {
        s.parse().unwrap()
    }

    #[test]
    fn spec_samples_hdu3032() {
        // hdu3032 statement sample: `2 2 3` => Alice (first player wins), `3 3` => Bob.
        assert!(analyze("2,2,3").win);
        assert!(!analyze("3,3").win);
    }

    #[test]
    fn grundy_sequence_spec() {
        // Golden sequence "Lasker's Nim: 0,1,2,4,3,5,6,8,7,9,10,12,11", one pile
        // of n = 0..=12, reproduced by minimax over pile + nim heap.
        let expected = [0, 1, 2, 4, 3, 5, 6, 8, 7, 9, 10, 12, 11];
        for (n, &g) in expected.iter().enumerate() {
            let got = grundy_by_search(&Lasker, &Piles(vec![n as u64]), 16).unwrap();
            assert_eq!(got, Some(g), "n={n}");
        }
    }

    #[test]
    fn grundy_matches_spec_closed_form() {
        // Game `lasker` (checked to 199 by exhaustive search): SG(4k+1)=4k+1, SG(4k+2)=4k+2,
        // SG(4k+3)=4k+4, SG(4k+4)=4k+3; asserted against the search for small piles.
        for n in 1..=16 {
            let spec = match n % 4 {
                1 | 2 => n,
                3 => n + 1,
                _ => n - 1,
            };
            let got = grundy_by_search(&Lasker, &Piles(vec![n]), n + 1).unwrap();
            assert_eq!(got, Some(spec), "n={n}");
        }
    }

    #[test]
    fn edges() {
        // No piles or empty piles: no move, the player to move loses at once.
        for s in ["-", "0", "0,0"] {
            let a = analyze(s);
            assert!(!a.win, "{s}");
            assert_eq!(a.remoteness, Some(0));
        }
        // n = 1: one move (take it), which wins.
        let a = analyze("1");
        assert_eq!(a.winning, vec![mv("0:1")]);
        assert_eq!(a.remoteness, Some(1));
        // 1,1 loses: each player can only take a single stone.
        assert!(!analyze("1,1").win);
    }

    #[test]
    fn moves_and_order() {
        // Pile 0 of 4: takes 1..=4, then splits 1+3 and 2+2; pile 1 of 2 afterwards.
        let mut out = Vec::new();
        Lasker.moves(&"4,2".parse().unwrap(), &mut out);
        let text: Vec<String> = out.iter().map(|(m, p)| format!("{m}>{p}")).collect();
        assert_eq!(
            text,
            [
                "0:1>3,2",
                "0:2>2,2",
                "0:3>1,2",
                "0:4>0,2",
                "0=1+3>1,3,2",
                "0=2+2>2,2,2",
                "1:1>4,1",
                "1:2>4,0",
                "1=1+1>4,1,1"
            ]
        );
        // The generated order is the canonical order.
        let moves: Vec<LaskerMove> = out.iter().map(|(m, _)| *m).collect();
        let mut sorted = moves.clone();
        sorted.sort();
        assert_eq!(moves, sorted);
        // A split of pile 0 comes before a take from pile 1; a take before a split.
        assert!(mv("0=1+9") < mv("1:1"));
        assert!(mv("0:9") < mv("0=1+1"));
        assert!(mv("0=1+4") < mv("0=2+3"));
    }

    #[test]
    fn notation_round_trip() {
        for s in ["0:3", "0=1+4", "12=5+5"] {
            assert_eq!(mv(s).to_string(), s);
        }
        assert_eq!(
            mv("2 = 1 + 4"),
            LaskerMove::Split {
                pile: 2,
                smaller: 1,
                larger: 4
            }
        );
        for s in ["0:0", "0=0+4", "0=4+1", "0=1", "0", "x:1", "0=1+x"] {
            assert!(s.parse::<LaskerMove>().is_err(), "{s}");
        }
        assert_eq!(Lasker.to_string(), "-");
        assert_eq!("-".parse::<Lasker>().unwrap(), Lasker);
        assert_eq!("".parse::<Lasker>().unwrap(), Lasker);
        assert!("m=3".parse::<Lasker>().is_err());
        for s in ["-", "1", "2,2,3"] {
            assert_eq!(s.parse::<Piles>().unwrap().to_string(), s);
        }
    }
}
