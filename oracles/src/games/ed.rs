//! E&D (SDOI2009, Luogu P2148).
//!
//! Rules (game `ed`): a position is 2n piles grouped in pairs: piles 0 and 1
//! form pair 0, piles 2 and 3 pair 1, and so on; every pile holds at least one stone.
//! A move picks one pair, removes one of its two piles, and splits the other pile into
//! two non-empty piles that take the two places of the pair. Normal play: the player
//! with no move (every pile holds one stone, so nothing can be split) loses.
//!
//! Source: SDOI2009 "E&D", Luogu P2148 (problem `p2148`).
//!
//! Notation: a position is its piles, comma-separated, pairs in order (`1,2,3,1` is the
//! pairs (1,2) and (3,1); `-` for no pairs). A move is `pair:split:first`: in pair
//! `pair`, pile `split` of the pair (0 for the pair's first place, 1 for its second) is
//! split, the other is removed, and `first` stones go to the pair's first place, the
//! rest to its second. `0:1:1` on `1,2` splits the 2 into (1,1).
//! Canonical move order: by pair, then by which pile is split, then by `first`.
//! Placing (x, y) and (y, x) are distinct moves, and so are splitting either pile of a
//! pair with equal piles, even though they reach the same position.

use crate::{parse_list, write_list, NotationError, Rules};
use std::fmt;
use std::str::FromStr;

/// The rules of E&D. E&D has no parameters.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Ed;

/// An E&D position: 2n pile sizes, each at least 1; piles `2p` and `2p+1` form pair `p`.
///
/// [`FromStr`] enforces the even length and the positive sizes; the rules assume them.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct EdPiles(pub Vec<u64>);

/// One E&D move. The derived order (pair, split, first) is the canonical move order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct EdMove {
    /// Index of the pair, from 0 (pair `p` is piles `2p` and `2p+1`).
    pub pair: usize,
    /// Which pile of the pair is split: 0 (the pair's first place) or 1 (its second).
    /// The other pile is removed.
    pub split: u8,
    /// Stones placed at the pair's first place, from 1 to the split pile's size minus
    /// one; the pair's second place gets the rest.
    pub first: u64,
}

impl Rules for Ed {
    type Position = EdPiles;
    type Move = EdMove;

    /// Each pile of size s of a pair can be split s-1 ways.
    fn move_bound(&self, pos: &EdPiles) -> Option<u64> {
        Some(
            pos.0
                .iter()
                .fold(0u64, |a, &s| a.saturating_add(s.saturating_sub(1))),
        )
    }

    fn moves(&self, pos: &EdPiles, out: &mut Vec<(EdMove, EdPiles)>) {
        for (pair, piles) in pos.0.chunks_exact(2).enumerate() {
            for split in 0..2u8 {
                let size = piles[split as usize];
                // A pile of one stone cannot be split into two non-empty piles.
                for first in 1..size {
                    let mut next = pos.clone();
                    next.0[2 * pair] = first;
                    next.0[2 * pair + 1] = size - first;
                    out.push((EdMove { pair, split, first }, next));
                }
            }
        }
    }

    /// The two places of a pair play the same role (a move may split either pile and
    /// place the halves either way round), and pairs never interact, so positions are
    /// remembered with each pair sorted and the pairs sorted. This only relabels piles;
    /// it never changes a verdict.
    fn key(&self, pos: &EdPiles) -> EdPiles {
        let mut pairs: Vec<[u64; 2]> = pos
            .0
            .chunks_exact(2)
            .map(|p| [p[0].min(p[1]), p[0].max(p[1])])
            .collect();
        pairs.sort_unstable();
        EdPiles(pairs.into_iter().flatten().collect())
    }

    /// The moves of [`Rules::moves`], their children built in one buffer.
    fn for_each_move<F: FnMut(Self::Move, &EdPiles)>(&self, pos: &EdPiles, mut f: F) {
        let mut next = pos.clone();
        for (pair, piles) in pos.0.chunks_exact(2).enumerate() {
            for split in 0..2u8 {
                let size = piles[split as usize];
                for first in 1..size {
                    next.0[2 * pair] = first;
                    next.0[2 * pair + 1] = size - first;
                    f(EdMove { pair, split, first }, &next);
                }
            }
            next.0[2 * pair] = piles[0];
            next.0[2 * pair + 1] = piles[1];
        }
    }

    /// The key (pairs sorted within and among themselves), packed when it fits.
    fn packed_key(&self, pos: &EdPiles) -> Option<u128> {
        const MAX_PAIRS: usize = crate::pack::MAX_PACKED_VALUES / 2;
        let pairs = pos.0.len() / 2;
        if pairs > MAX_PAIRS {
            return None;
        }
        let mut buf = [[0u64; 2]; MAX_PAIRS];
        for (b, p) in buf.iter_mut().zip(pos.0.chunks_exact(2)) {
            *b = [p[0].min(p[1]), p[0].max(p[1])];
        }
        buf[..pairs].sort_unstable();
        crate::pack::pack_values(0, buf[..pairs].as_flattened())
    }

    fn position_bytes(&self, pos: &EdPiles) -> usize {
        std::mem::size_of::<EdPiles>() + pos.0.len() * std::mem::size_of::<u64>()
    }
}

/// E&D has no parameters: its rules are written `-`.
impl fmt::Display for Ed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("-")
    }
}

impl FromStr for Ed {
    type Err = NotationError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.trim() {
            "" | "-" => Ok(Ed),
            _ => Err(NotationError::new(
                "ed rules",
                s,
                "ed has no parameters; write -",
            )),
        }
    }
}

impl fmt::Display for EdPiles {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_list(f, &self.0)
    }
}

impl FromStr for EdPiles {
    type Err = NotationError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let piles: Vec<u64> = parse_list("ed position", s)?;
        if !piles.len().is_multiple_of(2) {
            return Err(NotationError::new(
                "ed position",
                s,
                format!("{} piles: piles come in pairs", piles.len()),
            ));
        }
        if let Some(i) = piles.iter().position(|&x| x == 0) {
            return Err(NotationError::new(
                "ed position",
                s,
                format!("pile {i} is empty: every pile holds at least one stone"),
            ));
        }
        Ok(EdPiles(piles))
    }
}

impl fmt::Display for EdMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}:{}", self.pair, self.split, self.first)
    }
}

impl FromStr for EdMove {
    type Err = NotationError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        const WHAT: &str = "ed move";
        let parts: Vec<&str> = s.split(':').map(str::trim).collect();
        let [pair, split, first] = parts[..] else {
            return Err(NotationError::new(WHAT, s, "expected pair:split:first"));
        };
        let pair = pair
            .parse()
            .map_err(|e| NotationError::new(WHAT, s, format!("pair: {e}")))?;
        let split = match split {
            "0" => 0,
            "1" => 1,
            _ => return Err(NotationError::new(WHAT, s, "split must be 0 or 1")),
        };
        let first: u64 = first
            .parse()
            .map_err(|e| NotationError::new(WHAT, s, format!("first: {e}")))?;
        if first == 0 {
            return Err(NotationError::new(
                WHAT,
                s,
                "both new piles must be non-empty: first is at least 1",
            ));
        }
        Ok(EdMove { pair, split, first })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{SearchError, Solver};

    fn analyze(s: &str) -> crate::Analysis<EdMove> {
        Solver::new(Ed).analyze(&s.parse().unwrap()).unwrap()
    }

    fn mv(pair: usize, split: u8, first: u64) -> EdMove {
        EdMove { pair, split, first }
    }

    #[test]
    fn spec_samples_p2148() {
        // p2148 statement sample: `1 2 3 1` => YES, `1 1 1 1 1 1` => NO.
        assert!(analyze("1,2,3,1").win);
        let a = analyze("1,1,1,1,1,1");
        assert!(!a.win);
        assert!(a.winning.is_empty());
    }

    #[test]
    fn all_ones_has_no_move() {
        // The rules: "all piles 1 = no move"; the player to move loses at once.
        for s in ["-", "1,1", "1,1,1,1,1,1"] {
            let mut out = Vec::new();
            Ed.moves(&s.parse().unwrap(), &mut out);
            assert!(out.is_empty(), "{s}");
            let a = analyze(s);
            assert!(!a.win, "{s}");
            assert_eq!(a.remoteness, Some(0), "{s}");
        }
    }

    #[test]
    fn move_generation_by_hand() {
        // Worked from the rule text: in (1,3) only the 3 splits, into (1,2) or (2,1).
        let mut out = Vec::new();
        Ed.moves(&"1,3".parse().unwrap(), &mut out);
        let got: Vec<String> = out.iter().map(|(m, p)| format!("{m}->{p}")).collect();
        assert_eq!(got, ["0:1:1->1,2", "0:1:2->2,1"]);
        // In (2,2) either 2 may split, into (1,1): two distinct moves, one position.
        out.clear();
        Ed.moves(&"2,2".parse().unwrap(), &mut out);
        assert_eq!(out.len(), 2);
        // (1,2): splitting the 2 leaves (1,1), which has no move, so it wins, and it is
        // the only move.
        let a = analyze("1,2");
        assert_eq!(a.winning, vec![mv(0, 1, 1)]);
        assert_eq!(a.remoteness, Some(1));
        // (2,2): both moves reach (1,1), so both win.
        assert_eq!(analyze("2,2").winning, vec![mv(0, 0, 1), mv(0, 1, 1)]);
    }

    #[test]
    fn single_pair_matches_lowest_zero_bit() {
        // Checked to 60 by exhaustive search (OEIS A053398): SG(a,b) is the index of the lowest
        // zero bit of (a-1)|(b-1), so a single pair is lost exactly when that index is
        // 0, i.e. when (a-1)|(b-1) is even. Checked here for a, b <= 16 against the
        // plain search, which knows nothing of this.
        let mut solver = Solver::verdict_only(Ed);
        for a in 1..=16u64 {
            for b in 1..=16u64 {
                let lost = ((a - 1) | (b - 1)).is_multiple_of(2);
                let o = solver.outcome(&EdPiles(vec![a, b])).unwrap();
                assert_eq!(o.win, !lost, "pair ({a},{b})");
            }
        }
    }

    /// E&D with the default key (the position itself), to check the real key against.
    struct NoKey;
    impl Rules for NoKey {
        type Position = EdPiles;
        type Move = EdMove;
        fn moves(&self, pos: &EdPiles, out: &mut Vec<(EdMove, EdPiles)>) {
            Ed.moves(pos, out)
        }
    }

    #[test]
    fn key_is_a_symmetry() {
        // The key sorts within pairs and sorts the pairs; it keeps the pairing.
        let k = Ed.key(&"5,2,1,3,2,4".parse().unwrap());
        assert_eq!(k.to_string(), "1,3,2,4,2,5");
        // Remembering positions by key changes no outcome: compare with a search that
        // keys positions by themselves, on every two-pair position with piles <= 6.
        let mut keyed = Solver::new(Ed);
        let mut plain = Solver::new(NoKey);
        for a in 1..=6 {
            for b in 1..=6 {
                for c in 1..=6 {
                    for d in 1..=6 {
                        let p = EdPiles(vec![a, b, c, d]);
                        assert_eq!(keyed.analyze(&p), plain.analyze(&p), "{p}");
                    }
                }
            }
        }
    }

    #[test]
    fn budget_error() {
        let mut s = Solver::new(Ed).with_budget(10);
        let err = s.analyze(&"20,20,20,20".parse().unwrap()).unwrap_err();
        assert_eq!(err, SearchError::Budget { budget: 10 });
    }

    #[test]
    fn notation_round_trip() {
        for s in ["-", "1,1", "1,2,3,1"] {
            assert_eq!(s.parse::<EdPiles>().unwrap().to_string(), s);
        }
        for s in ["0:1:1", "3:0:17"] {
            assert_eq!(s.parse::<EdMove>().unwrap().to_string(), s);
        }
        assert_eq!("2:1:5".parse::<EdMove>().unwrap(), mv(2, 1, 5));
        assert_eq!("-".parse::<Ed>().unwrap(), Ed);
        assert_eq!("".parse::<Ed>().unwrap(), Ed);
        assert_eq!(Ed.to_string(), "-");
        assert!("3".parse::<Ed>().is_err());
        // Odd length, empty piles, junk.
        assert!("1,2,3".parse::<EdPiles>().is_err());
        assert!("1,0".parse::<EdPiles>().is_err());
        assert!("x,1".parse::<EdPiles>().is_err());
        // split must be 0 or 1; first at least 1; three fields.
        assert!("0:2:1".parse::<EdMove>().is_err());
        assert!("0:1:0".parse::<EdMove>().is_err());
        assert!("0:1".parse::<EdMove>().is_err());
        assert!("0:1:1:1".parse::<EdMove>().is_err());
    }
}
