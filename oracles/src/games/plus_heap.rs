//! A game played next to one extra Nim heap, for measuring Grundy values by search.
//!
//! Rules: a position of [`PlusHeap<R>`] is a position of the game `R` together with a
//! Nim heap ([`WithHeap`]). A move is either a move of `R` (the heap unchanged) or
//! taking any positive number of stones from the heap. Normal play: the player with no
//! move in either part loses. `R` must itself be a normal-play game; its
//! [`Rules::stuck_player_wins`] is ignored (the combined game always ends by normal
//! play), so `PlusHeap` of a game like take-range is a different game, not that game
//! plus a heap.
//!
//! Why it exists: by the Sprague–Grundy theorem, the Grundy value of a normal-play
//! position `p` is the unique `v` for which `p` plus a Nim heap of `v` is lost for the
//! player to move. [`grundy_by_search`] asks the plain minimax [`Solver`] about
//! `p + 0`, `p + 1`, ... and reports the first lost one, so tests can reproduce a
//! published Grundy table (OEIS) through verdicts alone. This is an experiment
//! *on* the oracle, not theory *inside* it: the solver still knows nothing but "a
//! position is won iff some move leads to a lost position"; reading the answer as a
//! Grundy value is the test's interpretation, and a wrong move generator shows up as a
//! wrong number.
//!
//! Notation: a position is `game+heap` (`3,4+2`: the piles `3,4` and a heap of 2;
//! `-+0` for no piles and an empty heap). A move is the game's own move (`0:3`), or
//! `heap:k` for taking `k` from the heap. The rules are written as `R`'s rules.
//! Canonical move order: every game move (in `R`'s order) before every heap move
//! (ascending amount).

use crate::{NotationError, Rules, SearchError, Solver};
use std::fmt;
use std::str::FromStr;

/// The game `R` played next to one Nim heap. See the module documentation.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct PlusHeap<R> {
    /// The rules of the game beside the heap.
    pub rules: R,
}

impl<R> PlusHeap<R> {
    /// The game `rules` played next to a Nim heap.
    pub fn new(rules: R) -> Self {
        PlusHeap { rules }
    }
}

/// A position of `P`'s game together with a Nim heap.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct WithHeap<P> {
    /// The position of the game beside the heap.
    pub game: P,
    /// Stones in the Nim heap.
    pub heap: u64,
}

/// A move of [`PlusHeap`]: a move of the game, or a take from the heap. Every `Game`
/// move orders before every `Heap` move (the derived order, by variant first).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum HeapMove<M> {
    /// A move of the game; the heap is unchanged.
    Game(M),
    /// Take this many stones (at least one) from the heap.
    Heap(u64),
}

impl<R: Rules> Rules for PlusHeap<R> {
    type Position = WithHeap<R::Position>;
    type Move = HeapMove<R::Move>;

    fn moves(&self, pos: &Self::Position, out: &mut Vec<(Self::Move, Self::Position)>) {
        let mut inner = Vec::new();
        self.rules.moves(&pos.game, &mut inner);
        out.extend(inner.into_iter().map(|(m, game)| {
            (
                HeapMove::Game(m),
                WithHeap {
                    game,
                    heap: pos.heap,
                },
            )
        }));
        for k in 1..=pos.heap {
            out.push((
                HeapMove::Heap(k),
                WithHeap {
                    game: pos.game.clone(),
                    heap: pos.heap - k,
                },
            ));
        }
    }

    /// The game's own key, with the heap alongside.
    fn key(&self, pos: &Self::Position) -> Self::Position {
        WithHeap {
            game: self.rules.key(&pos.game),
            heap: pos.heap,
        }
    }
}

/// The Grundy value of the normal-play position `pos`, measured by search: the
/// smallest `v <= max` for which `pos` plus a Nim heap of `v` is lost for the player to
/// move, or `None` if there is none up to `max`. See the module documentation for why
/// this is the Grundy value and why it is not game theory inside the oracle.
///
/// All `max + 1` queries share one verdict-only [`Solver`] with the default budget;
/// fails with [`SearchError::Budget`] when a query is too large.
pub fn grundy_by_search<R: Rules + Clone>(
    rules: &R,
    pos: &R::Position,
    max: u64,
) -> Result<Option<u64>, SearchError> {
    let mut solver = Solver::verdict_only(PlusHeap::new(rules.clone()));
    for heap in 0..=max {
        let with = WithHeap {
            game: pos.clone(),
            heap,
        };
        if !solver.outcome(&with)?.win {
            return Ok(Some(heap));
        }
    }
    Ok(None)
}

impl<R: fmt::Display> fmt::Display for PlusHeap<R> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.rules.fmt(f)
    }
}

impl<R: FromStr> FromStr for PlusHeap<R> {
    type Err = R::Err;
    /// Reads the rules of the game beside the heap (the heap has no parameters).
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        s.parse().map(PlusHeap::new)
    }
}

impl<P: fmt::Display> fmt::Display for WithHeap<P> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}+{}", self.game, self.heap)
    }
}

impl<P> FromStr for WithHeap<P>
where
    P: FromStr,
    P::Err: fmt::Display,
{
    type Err = NotationError;
    /// Reads `game+heap`; the heap is the number after the last `+`.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        const WHAT: &str = "position plus heap";
        let (g, h) = s
            .rsplit_once('+')
            .ok_or_else(|| NotationError::new(WHAT, s, "expected game+heap"))?;
        let heap = h
            .trim()
            .parse()
            .map_err(|e| NotationError::new(WHAT, s, format!("heap: {e}")))?;
        let game = g
            .parse()
            .map_err(|e| NotationError::new(WHAT, s, format!("game: {e}")))?;
        Ok(WithHeap { game, heap })
    }
}

impl<M: fmt::Display> fmt::Display for HeapMove<M> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            HeapMove::Game(m) => m.fmt(f),
            HeapMove::Heap(k) => write!(f, "heap:{k}"),
        }
    }
}

impl<M> FromStr for HeapMove<M>
where
    M: FromStr,
    M::Err: fmt::Display,
{
    type Err = NotationError;
    /// Reads `heap:k` (k at least 1) as a heap move, anything else as a game move.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        const WHAT: &str = "move with heap";
        if let Some(k) = s.trim().strip_prefix("heap:") {
            let k: u64 = k
                .trim()
                .parse()
                .map_err(|e| NotationError::new(WHAT, s, format!("heap amount: {e}")))?;
            if k == 0 {
                return Err(NotationError::new(
                    WHAT,
                    s,
                    "a move takes at least one stone",
                ));
            }
            return Ok(HeapMove::Heap(k));
        }
        s.parse()
            .map(HeapMove::Game)
            .map_err(|e| NotationError::new(WHAT, s, format!("{e}")))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::nim::{Nim, Piles, Take};

    type Pos = WithHeap<Piles>;

    fn analyze(s: &str) -> crate::Analysis<HeapMove<Take>> {
        Solver::new(PlusHeap::new(Nim))
            .analyze(&s.parse().unwrap())
            .unwrap()
    }

    #[test]
    fn nim_pile_grundy_is_its_size() {
        // A single Nim pile of n *is* a Nim heap of n, so its Grundy value is n by
        // definition: a sanity check of the measurement itself.
        for n in 0..=20 {
            let got = grundy_by_search(&Nim, &Piles(vec![n]), 25).unwrap();
            assert_eq!(got, Some(n), "n={n}");
        }
        // No piles at all: value 0.
        assert_eq!(grundy_by_search(&Nim, &Piles(vec![]), 3).unwrap(), Some(0));
    }

    #[test]
    fn max_too_small_gives_none() {
        assert_eq!(grundy_by_search(&Nim, &Piles(vec![5]), 4).unwrap(), None);
        assert_eq!(grundy_by_search(&Nim, &Piles(vec![5]), 5).unwrap(), Some(5));
    }

    #[test]
    fn edges() {
        // Nothing anywhere: no move, lost.
        for s in ["-+0", "0+0", "0,0+0"] {
            let a = analyze(s);
            assert!(!a.win, "{s}");
            assert_eq!(a.remoteness, Some(0));
        }
        // Only the heap: empty it.
        let a = analyze("-+3");
        assert_eq!(a.winning, vec![HeapMove::Heap(3)]);
        // A pile of 1 next to a heap of 1: whatever is taken, the other is taken.
        assert!(!analyze("1+1").win);
    }

    #[test]
    fn moves_game_first() {
        let mut out = Vec::new();
        PlusHeap::new(Nim).moves(&"2,1+2".parse().unwrap(), &mut out);
        let text: Vec<String> = out.iter().map(|(m, p)| format!("{m}>{p}")).collect();
        assert_eq!(
            text,
            [
                "0:1>1,1+2",
                "0:2>0,1+2",
                "1:1>2,0+2",
                "heap:1>2,1+1",
                "heap:2>2,1+0"
            ]
        );
        let moves: Vec<_> = out.iter().map(|(m, _)| *m).collect();
        let mut sorted = moves.clone();
        sorted.sort();
        assert_eq!(moves, sorted);
    }

    #[test]
    fn notation_round_trip() {
        for s in ["3,4+2", "-+0", "7+0"] {
            assert_eq!(s.parse::<Pos>().unwrap().to_string(), s);
        }
        assert_eq!(
            "3,4+2".parse::<Pos>().unwrap(),
            WithHeap {
                game: Piles(vec![3, 4]),
                heap: 2
            }
        );
        for s in ["3,4", "3,4+", "3,4+x", "x+2"] {
            assert!(s.parse::<Pos>().is_err(), "{s}");
        }
        type Mv = HeapMove<Take>;
        assert_eq!("heap:2".parse::<Mv>().unwrap(), HeapMove::Heap(2));
        assert_eq!(
            "0:3".parse::<Mv>().unwrap(),
            HeapMove::Game(Take { pile: 0, amount: 3 })
        );
        assert_eq!(HeapMove::<Take>::Heap(4).to_string(), "heap:4");
        for s in ["heap:0", "heap:", "0:0", "heap"] {
            assert!(s.parse::<Mv>().is_err(), "{s}");
        }
        // The rules are written as the inner game's rules.
        let r: PlusHeap<crate::games::bash::Bash> = "m=3".parse().unwrap();
        assert_eq!(r.rules.m, 3);
        assert_eq!(r.to_string(), "m=3");
    }
}
