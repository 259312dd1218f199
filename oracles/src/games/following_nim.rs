//! Following Nim (TopCoder "FollowingNim").
//!
//! Rules (game `following-nim`, whose reading is the definition here; no
//! public statement was found): Nim with a set of *special* amounts. A move takes any
//! positive number of stones from one pile. A player who is *forced* must take from
//! the forced pile; if that pile is empty the forced player has no move and loses.
//! After a move taking `t` stones from pile `i`, the next player is forced to pile `i`
//! when `t` is special and is free otherwise; a special move made while forced forces
//! again. A free player facing only empty piles has no move and loses (normal play).
//!
//! Source: TopCoder FollowingNim (problem `followingnim`), with the rules as stated
//! above.
//!
//! Notation: the rules are the special amounts, comma-separated (`1,7`; `-` for none).
//! A position is its piles, comma-separated, with `@i` appended when the player to
//! move is forced to pile `i`: `3,4,5` (free) or `3,4,5@1`. A move is the Nim move
//! `pile:amount` ([`Take`]).
//! Canonical move order: by pile index, then by amount taken.

use crate::games::nim::Take;
use crate::{parse_list, write_list, NotationError, Rules};
use std::fmt;
use std::str::FromStr;

/// The rules of Following Nim: the special amounts, positive, sorted and distinct.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct FollowingNim {
    specials: Vec<u64>,
}

impl FollowingNim {
    /// Rules with the given special amounts, in any order; repeats are dropped.
    /// Fails if an amount is zero (a move always takes at least one stone).
    pub fn new(mut specials: Vec<u64>) -> Result<Self, NotationError> {
        if specials.contains(&0) {
            let text = specials
                .iter()
                .map(u64::to_string)
                .collect::<Vec<_>>()
                .join(",");
            return Err(NotationError::new(
                "following-nim rules",
                &text,
                "special amounts must be positive",
            ));
        }
        specials.sort_unstable();
        specials.dedup();
        Ok(FollowingNim { specials })
    }

    /// The special amounts, sorted and distinct.
    pub fn specials(&self) -> &[u64] {
        &self.specials
    }

    /// Whether taking `amount` stones is a special move.
    fn is_special(&self, amount: u64) -> bool {
        self.specials.binary_search(&amount).is_ok()
    }
}

/// A Following Nim position: the piles and, when the player to move is forced, the
/// pile they must take from.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct FnPosition {
    /// The pile sizes, in order.
    pub piles: Vec<u64>,
    /// The pile the player to move must take from, or `None` when they are free.
    /// An index past the last pile leaves the player no move; [`FromStr`] rejects it.
    pub forced: Option<usize>,
}

impl Rules for FollowingNim {
    type Position = FnPosition;
    type Move = Take;

    /// One move per stone at most.
    fn move_bound(&self, pos: &FnPosition) -> Option<u64> {
        Some(pos.piles.iter().fold(0u64, |a, &p| a.saturating_add(p)))
    }

    fn moves(&self, pos: &FnPosition, out: &mut Vec<(Take, FnPosition)>) {
        let mut take_from = |pile: usize, size: u64| {
            for amount in 1..=size {
                let mut next = pos.clone();
                next.piles[pile] -= amount;
                next.forced = self.is_special(amount).then_some(pile);
                out.push((Take { pile, amount }, next));
            }
        };
        match pos.forced {
            // Forced: only the forced pile; an empty (or missing) one gives no move.
            Some(pile) => {
                if let Some(&size) = pos.piles.get(pile) {
                    take_from(pile, size);
                }
            }
            None => {
                for (pile, &size) in pos.piles.iter().enumerate() {
                    take_from(pile, size);
                }
            }
        }
    }

    /// Reordering piles changes nothing in the rules as long as the forced marker moves
    /// with its pile. So positions are remembered with the forced pile (if any) moved
    /// to slot 0 and marked `@0`, and the other piles sorted after it; a free position
    /// just has all its piles sorted. A forced index past the last pile is kept as it is.
    fn key(&self, pos: &FnPosition) -> FnPosition {
        match pos.forced {
            None => {
                let mut piles = pos.piles.clone();
                piles.sort_unstable();
                FnPosition {
                    piles,
                    forced: None,
                }
            }
            Some(f) if f < pos.piles.len() => {
                let mut rest = pos.piles.clone();
                let forced_pile = rest.remove(f);
                rest.sort_unstable();
                let mut piles = Vec::with_capacity(pos.piles.len());
                piles.push(forced_pile);
                piles.extend(rest);
                FnPosition {
                    piles,
                    forced: Some(0),
                }
            }
            Some(_) => pos.clone(),
        }
    }

    /// The moves of [`Rules::moves`], their children built in one buffer.
    fn for_each_move<F: FnMut(Self::Move, &FnPosition)>(&self, pos: &FnPosition, mut f: F) {
        let mut next = pos.clone();
        let mut take_from = |pile: usize, size: u64| {
            for amount in 1..=size {
                next.piles[pile] = size - amount;
                next.forced = self.is_special(amount).then_some(pile);
                f(Take { pile, amount }, &next);
            }
            next.piles[pile] = size;
        };
        match pos.forced {
            Some(pile) => {
                if let Some(&size) = pos.piles.get(pile) {
                    take_from(pile, size);
                }
            }
            None => {
                for (pile, &size) in pos.piles.iter().enumerate() {
                    take_from(pile, size);
                }
            }
        }
    }

    /// The key packed when it fits: piles below 16 by count (the forced pile apart as
    /// the head), otherwise tag 0 and the sorted piles for a free position, tag 1 and
    /// the forced pile followed by the others sorted for a forced one (a forced index
    /// past the last pile gets no packed key).
    fn packed_key(&self, pos: &FnPosition) -> Option<u128> {
        const MAX: usize = crate::pack::MAX_PACKED_VALUES;
        let small = |head: Option<u64>, skip: Option<usize>| {
            let rest = pos.piles.iter().enumerate();
            let rest = rest.filter(move |&(i, _)| Some(i) != skip).map(|(_, &p)| p);
            crate::pack::pack_multiset(2, head, rest)
        };
        match pos.forced {
            None => small(None, None).or_else(|| crate::pack::pack_sorted(0, &pos.piles)),
            Some(f) if f < pos.piles.len() && small(Some(pos.piles[f]), Some(f)).is_some() => {
                small(Some(pos.piles[f]), Some(f))
            }
            Some(f) if f < pos.piles.len() && pos.piles.len() <= MAX => {
                let mut buf = [0u64; MAX];
                let buf = &mut buf[..pos.piles.len()];
                buf.copy_from_slice(&pos.piles);
                buf.swap(0, f);
                buf[1..].sort_unstable();
                crate::pack::pack_values(1, buf)
            }
            Some(_) => None,
        }
    }

    fn position_bytes(&self, pos: &FnPosition) -> usize {
        std::mem::size_of::<FnPosition>() + pos.piles.len() * std::mem::size_of::<u64>()
    }
}

/// The rules are written as the special amounts, comma-separated (`-` for none).
impl fmt::Display for FollowingNim {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_list(f, &self.specials)
    }
}

impl FromStr for FollowingNim {
    type Err = NotationError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let specials = parse_list("following-nim rules", s)?;
        FollowingNim::new(specials)
            .map_err(|e| NotationError::new("following-nim rules", s, e.reason))
    }
}

impl fmt::Display for FnPosition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_list(f, &self.piles)?;
        if let Some(i) = self.forced {
            write!(f, "@{i}")?;
        }
        Ok(())
    }
}

impl FromStr for FnPosition {
    type Err = NotationError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        const WHAT: &str = "following-nim position";
        let (piles, forced) = match s.split_once('@') {
            None => (s, None),
            Some((p, f)) => (p, Some(f)),
        };
        let piles: Vec<u64> = parse_list(WHAT, piles)?;
        let forced = match forced {
            None => None,
            Some(f) => {
                let i: usize = f
                    .trim()
                    .parse()
                    .map_err(|e| NotationError::new(WHAT, s, format!("forced pile: {e}")))?;
                if i >= piles.len() {
                    return Err(NotationError::new(
                        WHAT,
                        s,
                        format!("forced pile {i} does not exist ({} piles)", piles.len()),
                    ));
                }
                Some(i)
            }
        };
        Ok(FnPosition { piles, forced })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{SearchError, Solver};

    fn rules(specials: &[u64]) -> FollowingNim {
        FollowingNim::new(specials.to_vec()).unwrap()
    }

    fn analyze(specials: &[u64], s: &str) -> crate::Analysis<Take> {
        Solver::new(rules(specials))
            .analyze(&s.parse().unwrap())
            .unwrap()
    }

    fn take(pile: usize, amount: u64) -> Take {
        Take { pile, amount }
    }

    #[test]
    fn spec_samples_followingnim() {
        // followingnim statement sample: piles `7`, specials `7` => 1 winning move
        // (taking all 7 is special and leaves the forced opponent an empty pile).
        let a = analyze(&[7], "7");
        assert_eq!(a.winning, vec![take(0, 7)]);
        // Piles `1 1`, specials `1` => 2: either move forces the opponent to an empty
        // pile.
        let a = analyze(&[1], "1,1");
        assert_eq!(a.winning, vec![take(0, 1), take(1, 1)]);
    }

    #[test]
    fn forced_on_empty_pile_loses() {
        // The rules: "a forced player whose pile is empty has no move and loses", even
        // with stones elsewhere.
        for specials in [&[][..], &[1], &[3]] {
            let a = analyze(specials, "0,3@0");
            assert!(!a.win);
            assert_eq!(a.remoteness, Some(0));
        }
        // Free with all piles empty: no move, lose.
        for s in ["-", "0", "0,0"] {
            assert!(!analyze(&[1], s).win, "{s}");
        }
    }

    #[test]
    fn forced_player_takes_only_from_the_forced_pile() {
        // From the rule text: forced to pile 1 of `3,4`, the moves are 1:1..1:4 only;
        // a special amount (2) forces the next player to pile 1 again.
        let mut out = Vec::new();
        rules(&[2]).moves(&"3,4@1".parse().unwrap(), &mut out);
        let got: Vec<String> = out.iter().map(|(m, p)| format!("{m}->{p}")).collect();
        assert_eq!(got, ["1:1->3,3", "1:2->3,2@1", "1:3->3,1", "1:4->3,0"]);
    }

    #[test]
    fn special_move_while_forced_forces_again() {
        // Worked by hand, specials {1}. `1,5@0`: the only move takes the 1 (special),
        // leaving `0,5@0`, where the forced opponent has no move: a win. Were the
        // forcing dropped after a forced move, `0,5` would let the opponent take the 5
        // and win instead.
        let a = analyze(&[1], "1,5@0");
        assert_eq!(a.winning, vec![take(0, 1)]);
        assert_eq!(a.remoteness, Some(1));
        // `2,5@0`: taking 1 leaves `1,5@0` (won for the opponent, above); taking 2 (not
        // special) frees the opponent at `0,5`, who takes all 5. Lost.
        assert!(!analyze(&[1], "2,5@0").win);
    }

    #[test]
    fn plain_nim_when_specials_are_out_of_reach() {
        // With special amount 100 on piles below 100 no move is special, so this is
        // Nim; the values are the classic Nim ones (see nim.rs).
        assert!(!analyze(&[100], "1,2,3").win);
        assert_eq!(analyze(&[100], "3,4,5").winning, vec![take(0, 2)]);
        // And with no specials at all.
        assert_eq!(analyze(&[], "3,4,5").winning, vec![take(0, 2)]);
    }

    /// Following Nim with the default key (the position itself).
    struct NoKey(FollowingNim);
    impl Rules for NoKey {
        type Position = FnPosition;
        type Move = Take;
        fn moves(&self, pos: &FnPosition, out: &mut Vec<(Take, FnPosition)>) {
            self.0.moves(pos, out)
        }
    }

    #[test]
    fn key_is_a_symmetry() {
        let k = rules(&[1]).key(&"4,1,3,2@2".parse().unwrap());
        assert_eq!(k.to_string(), "3,1,2,4@0");
        // Remembering positions by key changes no outcome: compare with a search that
        // keys positions by themselves, on every three-pile position with piles <= 4,
        // free or forced anywhere.
        for specials in [&[1][..], &[2, 3], &[1, 4]] {
            let mut keyed = Solver::new(rules(specials));
            let mut plain = Solver::new(NoKey(rules(specials)));
            for a in 0..=4 {
                for b in 0..=4 {
                    for c in 0..=4 {
                        for forced in [None, Some(0), Some(1), Some(2)] {
                            let p = FnPosition {
                                piles: vec![a, b, c],
                                forced,
                            };
                            assert_eq!(keyed.analyze(&p), plain.analyze(&p), "{p}");
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn budget_error() {
        let mut s = Solver::new(rules(&[1, 3])).with_budget(10);
        let err = s.analyze(&"5,6,7,8".parse().unwrap()).unwrap_err();
        assert_eq!(err, SearchError::Budget { budget: 10 });
    }

    #[test]
    fn notation_round_trip() {
        for s in ["-", "0", "3,4,5", "3,4,5@1", "0,3@0"] {
            assert_eq!(s.parse::<FnPosition>().unwrap().to_string(), s);
        }
        assert_eq!(
            "3,4,5@1".parse::<FnPosition>().unwrap(),
            FnPosition {
                piles: vec![3, 4, 5],
                forced: Some(1)
            }
        );
        assert!("3,4@2".parse::<FnPosition>().is_err());
        assert!("-@0".parse::<FnPosition>().is_err());
        assert!("3,4@x".parse::<FnPosition>().is_err());
        assert!("3,x".parse::<FnPosition>().is_err());
        // Rules: specials normalized to sorted and distinct; zero rejected.
        for s in ["-", "7", "1,2,3"] {
            assert_eq!(s.parse::<FollowingNim>().unwrap().to_string(), s);
        }
        assert_eq!("".parse::<FollowingNim>().unwrap(), rules(&[]));
        let r: FollowingNim = "5,1,5".parse().unwrap();
        assert_eq!(r.specials(), &[1, 5]);
        assert_eq!(r.to_string(), "1,5");
        assert!("0,1".parse::<FollowingNim>().is_err());
        assert!(FollowingNim::new(vec![3, 0]).is_err());
        assert!("a".parse::<FollowingNim>().is_err());
    }
}
