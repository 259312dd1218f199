//! The bean-splitting game (HNOI2007 "分裂游戏", bzoj1188 / Luogu P3185; UVa 1378
//! "A Funny Stone Game").
//!
//! Rules (game `split`): a position is a row of bottles 0..n-1, each holding
//! some number of beans. A move chooses indices i < j <= k < n with bottle i
//! non-empty, takes one bean out of bottle i, and puts one bean into bottle j and one
//! into bottle k (two into bottle j when j == k). Normal play: the player with no move
//! loses. Beans in the last bottle can never move (no j lies beyond it), so however
//! many there are they add no moves.
//!
//! The game always ends: give a bean in bottle i the weight 3^(n-1-i); a move replaces
//! one bean of weight 3^d by two of weight at most 3^(d-1) each, so the total weight
//! strictly falls.
//!
//! Sources: HNOI2007 / bzoj1188 (problem `bzoj1188`), UVa 1378 (`uva1378`).
//!
//! Notation: a position is its bean counts, comma-separated (`1,0,1,5000`; `-` for no
//! bottles). A move is `i:j:k` (`0:2:3`).
//! Canonical move order: lexicographic in (i, j, k), which is the "lexicographically
//! smallest winning move" of both contest problems.

use crate::{parse_list, write_list, NotationError, Rules};
use std::fmt;
use std::str::FromStr;

/// The rules of the bean-splitting game. It has no parameters.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct SplitGame;

/// A position of the bean-splitting game: the number of beans in bottles 0..n-1.
///
/// [`FromStr`] accepts counts up to [`Bottles::MAX_COUNT`], which keeps every count
/// the search could ever reach inside `u32`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Bottles(pub Vec<u32>);

impl Bottles {
    /// The largest bean count the notation accepts in one bottle: 2^31 - 1. A move adds
    /// at most two beans to a bottle, so reaching `u32::MAX` from here takes over 2^30
    /// moves in a row, far beyond any search budget (and the contest limits are 10^4).
    pub const MAX_COUNT: u32 = i32::MAX as u32;
}

/// One move: take a bean from bottle `i`, add one to bottle `j` and one to bottle `k`.
/// The derived order (i, j, k) is the canonical move order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct SplitMove {
    /// The bottle a bean is taken from; it must be non-empty.
    pub i: usize,
    /// The first bottle that receives a bean; `i < j`.
    pub j: usize,
    /// The second bottle that receives a bean; `j <= k < n` (j == k adds two to j).
    pub k: usize,
}

impl Rules for SplitGame {
    type Position = Bottles;
    type Move = SplitMove;

    /// Every (i, j, k) with i < j <= k < n and bottle i non-empty.
    ///
    /// # Panics
    ///
    /// If a bottle would exceed `u32::MAX` beans; positions read with [`FromStr`] cannot
    /// get there (see [`Bottles::MAX_COUNT`]).
    fn moves(&self, pos: &Bottles, out: &mut Vec<(SplitMove, Bottles)>) {
        let n = pos.0.len();
        for i in 0..n {
            if pos.0[i] == 0 {
                continue;
            }
            for j in i + 1..n {
                for k in j..n {
                    let mut next = pos.clone();
                    next.0[i] -= 1;
                    for b in [j, k] {
                        next.0[b] = next.0[b]
                            .checked_add(1)
                            .expect("bottle count overflows u32");
                    }
                    out.push((SplitMove { i, j, k }, next));
                }
            }
        }
    }

    /// The moves of [`Rules::moves`], their children built in one buffer.
    fn for_each_move<F: FnMut(Self::Move, &Bottles)>(&self, pos: &Bottles, mut f: F) {
        let n = pos.0.len();
        let mut next = pos.clone();
        for i in 0..n {
            if pos.0[i] == 0 {
                continue;
            }
            next.0[i] -= 1;
            for j in i + 1..n {
                for k in j..n {
                    for b in [j, k] {
                        next.0[b] = next.0[b]
                            .checked_add(1)
                            .expect("bottle count overflows u32");
                    }
                    f(SplitMove { i, j, k }, &next);
                    next.0[j] -= 1;
                    next.0[k] -= 1;
                }
            }
            next.0[i] += 1;
        }
    }

    /// The bean counts in order (the key is the position), packed when they fit.
    fn packed_key(&self, pos: &Bottles) -> Option<u128> {
        const MAX: usize = crate::pack::MAX_PACKED_VALUES;
        if pos.0.len() > MAX {
            return None;
        }
        let mut buf = [0u64; MAX];
        for (b, &c) in buf.iter_mut().zip(&pos.0) {
            *b = c as u64;
        }
        crate::pack::pack_values(0, &buf[..pos.0.len()])
    }

    fn position_bytes(&self, pos: &Bottles) -> usize {
        std::mem::size_of::<Bottles>() + pos.0.len() * std::mem::size_of::<u32>()
    }
}

/// The bean-splitting game has no parameters: its rules are written `-`.
impl fmt::Display for SplitGame {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("-")
    }
}

impl FromStr for SplitGame {
    type Err = NotationError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.trim() {
            "" | "-" => Ok(SplitGame),
            _ => Err(NotationError::new(
                "split rules",
                s,
                "split has no parameters; write -",
            )),
        }
    }
}

impl fmt::Display for Bottles {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_list(f, &self.0)
    }
}

impl FromStr for Bottles {
    type Err = NotationError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let counts: Vec<u32> = parse_list("split position", s)?;
        if let Some(i) = counts.iter().position(|&c| c > Bottles::MAX_COUNT) {
            return Err(NotationError::new(
                "split position",
                s,
                format!(
                    "bottle {i} holds {} beans; at most {} are supported",
                    counts[i],
                    Bottles::MAX_COUNT
                ),
            ));
        }
        Ok(Bottles(counts))
    }
}

impl fmt::Display for SplitMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}:{}", self.i, self.j, self.k)
    }
}

impl FromStr for SplitMove {
    type Err = NotationError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        const WHAT: &str = "split move";
        let parts: Vec<&str> = s.split(':').map(str::trim).collect();
        let [i, j, k] = parts[..] else {
            return Err(NotationError::new(WHAT, s, "expected i:j:k"));
        };
        let field = |name: &str, t: &str| {
            t.parse::<usize>()
                .map_err(|e| NotationError::new(WHAT, s, format!("{name}: {e}")))
        };
        let (i, j, k) = (field("i", i)?, field("j", j)?, field("k", k)?);
        if !(i < j && j <= k) {
            return Err(NotationError::new(WHAT, s, "a move needs i < j <= k"));
        }
        Ok(SplitMove { i, j, k })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{SearchError, Solver};

    fn analyze(s: &str) -> crate::Analysis<SplitMove> {
        Solver::new(SplitGame).analyze(&s.parse().unwrap()).unwrap()
    }

    /// Best move as `i:j:k` (or `-1` when the position is lost) and the count. Uses a
    /// verdict-only solver, which still lists every winning move but explores fewer
    /// positions (`3,2,1,0,4,5`: about 900000 instead of 1.1 million).
    fn answer(s: &str) -> (String, usize) {
        let a = Solver::verdict_only(SplitGame)
            .analyze(&s.parse().unwrap())
            .unwrap();
        assert_eq!(a.win, a.count() > 0, "{s}");
        let best = a.best().map_or("-1".to_string(), |m| m.to_string());
        (best, a.count())
    }

    #[test]
    fn spec_samples_bzoj1188() {
        // bzoj1188 statement sample: `1 0 1 5000` => `0 2 3 / 1`; `0 0 1` => `-1 -1 -1 / 0`.
        // The 5000 beans in the last bottle never move, so this stays small.
        assert_eq!(answer("1,0,1,5000"), ("0:2:3".into(), 1));
        assert_eq!(answer("0,0,1"), ("-1".into(), 0));
    }

    #[test]
    fn spec_samples_uva1378() {
        // uva1378 statement sample: `1 0 1 100` => 0 2 3; `1 0 5` => 0 1 1; `2 1` => -1.
        assert_eq!(answer("1,0,1,100").0, "0:2:3");
        assert_eq!(answer("1,0,5").0, "0:1:1");
        assert_eq!(answer("2,1").0, "-1");
    }

    #[test]
    fn spec_known_answers() {
        // Known answers, checked by exhaustive search, bzoj1188 format.
        // `0 0 0 1 0` is the smallest case that catches moves from an empty bottle.
        assert_eq!(answer("0,0,0,1,0"), ("3:4:4".into(), 1));
        assert_eq!(answer("1,0,5"), ("0:1:1".into(), 2));
        assert_eq!(answer("2,1"), ("-1".into(), 0));
        assert_eq!(answer("3,2,1,0,4,5"), ("0:2:5".into(), 1));
        // `1 2 ... 21` => `0 2 20 / 10` is far beyond the exhaustive search.
    }

    #[test]
    fn edges() {
        // No bottles, one bottle (whatever it holds), all empty, one bean in the last
        // bottle: no move, the player to move loses at once.
        for s in ["-", "0", "7", "0,0,0", "0,0,1", "0,0,0,0,9"] {
            let a = analyze(s);
            assert!(!a.win, "{s}");
            assert_eq!(a.remoteness, Some(0), "{s}");
        }
        // One bean next to the last bottle: its only move j == k == n-1 wins.
        let a = analyze("0,1,0");
        assert_eq!(a.winning, vec![SplitMove { i: 1, j: 2, k: 2 }]);
        assert_eq!(a.remoteness, Some(1));
    }

    #[test]
    fn move_generation_by_hand() {
        // From the rule text: one bean in bottle 0 of three gives (0,1,1), (0,1,2),
        // (0,2,2); j == k puts two beans in one bottle. The empty bottle 1 gives none.
        let mut out = Vec::new();
        SplitGame.moves(&"1,0,0".parse().unwrap(), &mut out);
        let got: Vec<String> = out.iter().map(|(m, p)| format!("{m}->{p}")).collect();
        assert_eq!(got, ["0:1:1->0,2,0", "0:1:2->0,1,1", "0:2:2->0,0,2"]);
    }

    #[test]
    fn long_chain_does_not_overflow_the_stack() {
        // 100000 beans in bottle 0 of two: each move pushes one bean into the last
        // bottle, so the game is a single chain 100000 plies long (counted by the
        // remoteness), and the search holds all of it on its stack at once. The search
        // keeps an explicit stack, so this must not overflow the thread's stack.
        let a = analyze("100000,0");
        assert!(!a.win);
        assert_eq!(a.remoteness, Some(100_000));
    }

    #[test]
    fn deeper_branching_positions() {
        // Worked by hand from the closed form (g(5) = 8, position value = XOR of g
        // over bottles with an odd count): in `3,0,0,0,0,0` a move (0,j,k) leaves two
        // beans in bottle 0 (even); j == k adds two beans (even) and wins, j != k adds
        // g(5-j) xor g(5-k) != 0 and loses. So the winning moves are 0:j:j, j = 1..5.
        // About 120000 positions; the budget ten bottles would need is far larger
        // (a single bean in bottle 0 of nine already exceeds the default budget).
        let a = Solver::verdict_only(SplitGame)
            .analyze(&"3,0,0,0,0,0".parse().unwrap())
            .unwrap();
        let want: Vec<SplitMove> = (1..=5).map(|j| SplitMove { i: 0, j, k: j }).collect();
        assert_eq!(a.winning, want);
    }

    #[test]
    fn budget_error() {
        let mut s = Solver::new(SplitGame).with_budget(10);
        let err = s.analyze(&"3,0,0,0,0".parse().unwrap()).unwrap_err();
        assert_eq!(err, SearchError::Budget { budget: 10 });
    }

    #[test]
    fn notation_round_trip() {
        for s in ["-", "0", "1,0,1,5000"] {
            assert_eq!(s.parse::<Bottles>().unwrap().to_string(), s);
        }
        for s in ["0:2:3", "3:4:4"] {
            assert_eq!(s.parse::<SplitMove>().unwrap().to_string(), s);
        }
        assert_eq!(
            "0:2:3".parse::<SplitMove>().unwrap(),
            SplitMove { i: 0, j: 2, k: 3 }
        );
        assert_eq!("-".parse::<SplitGame>().unwrap(), SplitGame);
        assert_eq!("".parse::<SplitGame>().unwrap(), SplitGame);
        assert_eq!(SplitGame.to_string(), "-");
        assert!("1".parse::<SplitGame>().is_err());
        assert!("1,x".parse::<Bottles>().is_err());
        assert!("1,-1".parse::<Bottles>().is_err());
        assert!("2147483648".parse::<Bottles>().is_err());
        assert!("2147483647".parse::<Bottles>().is_ok());
        // i < j <= k, three fields.
        assert!("1:1:2".parse::<SplitMove>().is_err());
        assert!("0:2:1".parse::<SplitMove>().is_err());
        assert!("0:1".parse::<SplitMove>().is_err());
        assert!("-1:0:0".parse::<SplitMove>().is_err());
    }
}
