//! Staircase (Georgia and Bob).
//!
//! Rules (game `staircase`; contest problem POJ 1704 "Georgia and Bob"): pieces stand on
//! distinct cells 1, 2, 3, ... of a row. A move shifts one piece to the left by at
//! least one cell; it may not land on or jump over another piece, nor go past cell 1.
//! Normal play: the player with no move (every piece packed against the left end)
//! loses.
//!
//! Notation: a position is the pieces' cells, comma-separated, in any order
//! (`1,5,6`; the order is kept, as a contest input gives it; `-` for no pieces). A move
//! is `from>to`: the piece on cell `from` goes to cell `to`. Canonical move order: by
//! the piece's cell ascending, then by the target cell ascending.

use crate::{parse_list, write_list, NotationError, Rules};
use std::fmt;
use std::str::FromStr;

/// The rules of the staircase game. It has no parameters.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Staircase;

/// A staircase position: the cells of the pieces (distinct, each at least 1), in the
/// order given.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Cells(pub Vec<u64>);

/// Moving the piece on cell `from` to cell `to` (`1 <= to < from`). Ordered by `from`,
/// then `to`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Shift {
    /// The cell of the piece moved.
    pub from: u64,
    /// The cell it moves to.
    pub to: u64,
}

impl Staircase {
    /// The lowest cell the piece at index `i` may reach: one right of the nearest piece
    /// to its left, or cell 1 when no piece is to its left.
    fn lowest_target(pos: &Cells, i: usize) -> u64 {
        let c = pos.0[i];
        pos.0
            .iter()
            .filter(|&&o| o < c)
            .max()
            .map_or(1, |&left| left + 1)
    }
}

impl Rules for Staircase {
    type Position = Cells;
    type Move = Shift;

    /// Each piece to every free cell between its left neighbour (or the start of the
    /// row) and itself.
    fn moves(&self, pos: &Cells, out: &mut Vec<(Shift, Cells)>) {
        for i in 0..pos.0.len() {
            let from = pos.0[i];
            for to in Self::lowest_target(pos, i)..from {
                let mut next = pos.clone();
                next.0[i] = to;
                out.push((Shift { from, to }, next));
            }
        }
    }

    /// One move per free cell left of some piece: at most the largest cell per piece.
    fn move_bound(&self, pos: &Cells) -> Option<u64> {
        let top = pos.0.iter().copied().max().unwrap_or(0);
        Some(top.saturating_mul(pos.0.len() as u64))
    }

    /// Only the set of occupied cells matters: the cells sorted.
    fn key(&self, pos: &Cells) -> Cells {
        let mut k = pos.clone();
        k.0.sort_unstable();
        k
    }

    /// The moves of [`Rules::moves`], their children built in one buffer.
    fn for_each_move<F: FnMut(Shift, &Cells)>(&self, pos: &Cells, mut f: F) {
        let mut next = pos.clone();
        for i in 0..pos.0.len() {
            let from = pos.0[i];
            for to in Self::lowest_target(pos, i)..from {
                next.0[i] = to;
                f(Shift { from, to }, &next);
            }
            next.0[i] = from;
        }
    }

    /// The sorted cells, packed when they fit.
    fn packed_key(&self, pos: &Cells) -> Option<u128> {
        crate::pack::pack_sorted(0, &pos.0)
    }

    fn position_bytes(&self, pos: &Cells) -> usize {
        std::mem::size_of::<Cells>() + pos.0.len() * std::mem::size_of::<u64>()
    }
}

/// The staircase game has no parameters: its rules are written `-`.
impl fmt::Display for Staircase {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("-")
    }
}

impl FromStr for Staircase {
    type Err = NotationError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.trim() {
            "" | "-" => Ok(Staircase),
            _ => Err(NotationError::new(
                "staircase rules",
                s,
                "staircase has no parameters; write -",
            )),
        }
    }
}

impl fmt::Display for Cells {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_list(f, &self.0)
    }
}

impl FromStr for Cells {
    type Err = NotationError;
    /// Reads `1,5,6`: distinct cells, each at least 1.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        const WHAT: &str = "staircase position";
        let cells: Vec<u64> = parse_list(WHAT, s)?;
        if cells.contains(&0) {
            return Err(NotationError::new(WHAT, s, "cells are numbered from 1"));
        }
        let mut sorted = cells.clone();
        sorted.sort_unstable();
        if let Some(w) = sorted.windows(2).find(|w| w[0] == w[1]) {
            return Err(NotationError::new(
                WHAT,
                s,
                format!("two pieces on cell {}", w[0]),
            ));
        }
        Ok(Cells(cells))
    }
}

impl fmt::Display for Shift {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}>{}", self.from, self.to)
    }
}

impl FromStr for Shift {
    type Err = NotationError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        const WHAT: &str = "staircase move";
        let (a, b) = s
            .split_once('>')
            .ok_or_else(|| NotationError::new(WHAT, s, "expected from>to"))?;
        let from: u64 = a
            .trim()
            .parse()
            .map_err(|e| NotationError::new(WHAT, s, format!("from: {e}")))?;
        let to: u64 = b
            .trim()
            .parse()
            .map_err(|e| NotationError::new(WHAT, s, format!("to: {e}")))?;
        if to == 0 || to >= from {
            return Err(NotationError::new(
                WHAT,
                s,
                "a piece moves left, to a cell from 1 on",
            ));
        }
        Ok(Shift { from, to })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Solver;

    fn analyze(s: &str) -> crate::Analysis<Shift> {
        Solver::new(Staircase).analyze(&s.parse().unwrap()).unwrap()
    }

    #[test]
    fn spec_samples_poj1704() {
        // POJ 1704 statement sample: `1 2 3` => Bob will win (no move at all);
        // `1 5 6 7 9 12 14 17` => Georgia will win.
        let a = analyze("1,2,3");
        assert!(!a.win);
        assert_eq!(a.remoteness, Some(0));
        assert!(analyze("1,5,6,7,9,12,14,17").win);
        // The order of the input does not change the game.
        assert!(analyze("17,14,12,9,7,6,5,1").win);
    }

    #[test]
    fn moves_stop_at_the_neighbour() {
        // Pieces on 2 and 5: the first goes to 1; the second to 3 or 4 (not onto 2).
        let mut out = Vec::new();
        Staircase.moves(&"5,2".parse().unwrap(), &mut out);
        let mv: Vec<String> = out.iter().map(|(m, p)| format!("{m} {p}")).collect();
        assert_eq!(mv, ["5>3 3,2", "5>4 4,2", "2>1 5,1"]);
    }

    #[test]
    fn small_positions_by_hand() {
        // One piece on cell c: move it to 1 and the opponent is stuck.
        let a = analyze("4");
        assert_eq!(a.winning, vec![Shift { from: 4, to: 1 }]);
        // 2,3: moving 2 to 1 leaves 1,3 (the opponent moves 3 to 2 and wins);
        // moving 3 is impossible: the only move loses.
        assert!(!analyze("2,3").win);
        // 1,3: move 3 to 2 and the opponent is stuck.
        assert_eq!(analyze("1,3").winning, vec![Shift { from: 3, to: 2 }]);
    }

    #[test]
    fn losses_match_spec_fact() {
        // Game `staircase` (checked by exhaustive search): sorted, a virtual piece at 0
        // for an odd count, pairs from the right end; lost iff the XOR of the gaps
        // inside the pairs is 0. Every set of 1 to 4 cells in 1..=9.
        let mut solver = Solver::verdict_only(Staircase);
        for mask in 1u32..(1 << 9) {
            if mask.count_ones() > 4 {
                continue;
            }
            let cells: Vec<u64> = (1..=9).filter(|c| mask >> (c - 1) & 1 == 1).collect();
            let mut v = cells.clone();
            if v.len() % 2 == 1 {
                v.insert(0, 0);
            }
            let x = v.chunks(2).fold(0, |x, p| x ^ (p[1] - p[0] - 1));
            let win = solver.outcome(&Cells(cells.clone())).unwrap().win;
            assert_eq!(win, x != 0, "{cells:?}");
        }
    }

    #[test]
    fn notation() {
        assert_eq!("3,1".parse::<Cells>().unwrap(), Cells(vec![3, 1]));
        assert!("0,1".parse::<Cells>().is_err());
        assert!("2,2".parse::<Cells>().is_err());
        assert_eq!("5>3".parse::<Shift>().unwrap().to_string(), "5>3");
        assert!("3>3".parse::<Shift>().is_err());
        assert!("3>0".parse::<Shift>().is_err());
        assert!(Shift { from: 2, to: 9 } < Shift { from: 3, to: 1 });
    }
}
