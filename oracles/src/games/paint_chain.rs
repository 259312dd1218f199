//! Paint Chain (hdu3980): paint m consecutive beads of a circle.
//!
//! Rules (contest problem hdu3980): n beads lie on a circle, all unpainted at the
//! start. A move paints m consecutive beads of the circle, all of which must still be
//! unpainted. Normal play: the player with no move loses. When n < m there is no move
//! at all.
//!
//! The position is the circle itself (which beads are painted), not a row of heaps: the
//! fast side's reduction to a line game after the first move is exactly what this
//! oracle does not assume.
//!
//! Notation: a position is the beads in circle order, `.` for unpainted and `x` for
//! painted (`.....` is a fresh circle of five; `x..x.`). A move is the index of the
//! first bead it paints (`3`): it paints beads 3, 4, ..., 3 + m - 1, counted around the
//! circle modulo n. When m = n every start paints the whole circle, and that one move
//! is written `0`. The rules are `m=3`.
//! Canonical move order: by start index, ascending.

use crate::{NotationError, Rules};
use std::fmt;
use std::str::FromStr;

/// Most beads a position may have (the oracle is exhaustive: it is for small circles).
pub const MAX_BEADS: usize = 64;

/// The rules of Paint Chain: how many consecutive beads a move paints.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PaintChain {
    /// Beads painted per move, at least 1.
    pub m: usize,
}

/// A circle of beads; `true` is painted. Bead `n - 1` is next to bead 0.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Circle(pub Vec<bool>);

impl Circle {
    /// A fresh circle of `n` unpainted beads.
    pub fn fresh(n: usize) -> Self {
        Circle(vec![false; n])
    }
}

/// Painting the m beads from `start` on, around the circle.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Paint {
    /// Index of the first bead painted.
    pub start: usize,
}

impl Rules for PaintChain {
    type Position = Circle;
    type Move = Paint;

    fn move_bound(&self, pos: &Circle) -> Option<u64> {
        Some(pos.0.len() as u64)
    }

    fn moves(&self, pos: &Circle, out: &mut Vec<(Paint, Circle)>) {
        let n = pos.0.len();
        if self.m > n {
            return;
        }
        // With m = n every start paints the same beads: one move.
        let starts = if self.m == n { 1 } else { n };
        for start in 0..starts {
            let free = (0..self.m).all(|i| !pos.0[(start + i) % n]);
            if free {
                let mut next = pos.clone();
                for i in 0..self.m {
                    next.0[(start + i) % n] = true;
                }
                out.push((Paint { start }, next));
            }
        }
    }

    /// Turning or flipping the circle changes nothing in the rules, so a position is
    /// remembered as the smallest of its rotations and reflections.
    fn key(&self, pos: &Circle) -> Circle {
        let n = pos.0.len();
        let mut best = pos.0.clone();
        let mut cand = vec![false; n];
        for r in 0..n {
            for flip in [false, true] {
                for (i, c) in cand.iter_mut().enumerate() {
                    let j = if flip { (r + n - i) % n } else { (r + i) % n };
                    *c = pos.0[j];
                }
                if cand < best {
                    best.clone_from(&cand);
                }
            }
        }
        Circle(best)
    }
}

impl fmt::Display for PaintChain {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "m={}", self.m)
    }
}

impl FromStr for PaintChain {
    type Err = NotationError;
    /// Reads `m=3` (or just `3`), m at least 1.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let t = s.trim();
        let v = t.strip_prefix("m=").unwrap_or(t);
        let m: usize = v
            .trim()
            .parse()
            .map_err(|e| NotationError::new("paint-chain rules", s, format!("m: {e}")))?;
        if m == 0 {
            return Err(NotationError::new(
                "paint-chain rules",
                s,
                "a move paints at least one bead",
            ));
        }
        Ok(PaintChain { m })
    }
}

impl fmt::Display for Circle {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for &b in &self.0 {
            f.write_str(if b { "x" } else { "." })?;
        }
        Ok(())
    }
}

impl FromStr for Circle {
    type Err = NotationError;
    /// Reads the beads: `.` unpainted, `x` painted; 1 to [`MAX_BEADS`] of them.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        const WHAT: &str = "circle";
        let t = s.trim();
        if t.is_empty() {
            return Err(NotationError::new(
                WHAT,
                s,
                "a circle has at least one bead",
            ));
        }
        if t.len() > MAX_BEADS {
            return Err(NotationError::new(
                WHAT,
                s,
                format!("more than {MAX_BEADS} beads"),
            ));
        }
        t.chars()
            .map(|c| match c {
                '.' => Ok(false),
                'x' => Ok(true),
                _ => Err(NotationError::new(
                    WHAT,
                    s,
                    format!("{c:?}: write . for unpainted, x for painted"),
                )),
            })
            .collect::<Result<Vec<bool>, _>>()
            .map(Circle)
    }
}

impl fmt::Display for Paint {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.start)
    }
}

impl FromStr for Paint {
    type Err = NotationError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        s.trim()
            .parse()
            .map(|start| Paint { start })
            .map_err(|e| NotationError::new("paint move", s, format!("start: {e}")))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Solver;

    fn win(n: usize, m: usize) -> bool {
        Solver::new(PaintChain { m })
            .analyze(&Circle::fresh(n))
            .unwrap()
            .win
    }

    #[test]
    fn spec_sample_hdu3980() {
        // hdu3980 sample (no official sample; checked by search): `3 1` => the first
        // player wins, `4 2` => the second.
        assert!(win(3, 1));
        assert!(!win(4, 2));
    }

    #[test]
    fn small_circles_by_hand() {
        // n < m: no move, lost. n = m: paint everything, won.
        assert!(!win(2, 3));
        assert!(win(5, 5));
        // m = 1: every move paints one bead, the game lasts n moves: won iff n odd.
        for n in 1..=9 {
            assert_eq!(win(n, 1), n % 2 == 1, "n={n}");
        }
        // n = 5, m = 2: any first move leaves a row of 3, where one more pair fits
        // and then nothing: the second player paints last, so the first loses.
        assert!(!win(5, 2));
    }

    #[test]
    fn moves_wrap_around() {
        let mut out = Vec::new();
        PaintChain { m: 2 }.moves(&"x...".parse().unwrap(), &mut out);
        let text: Vec<String> = out.iter().map(|(m, p)| format!("{m}>{p}")).collect();
        assert_eq!(text, ["1>xxx.", "2>x.xx"]);
        let mut out = Vec::new();
        PaintChain { m: 2 }.moves(&"...x".parse().unwrap(), &mut out);
        let text: Vec<String> = out.iter().map(|(m, _)| m.to_string()).collect();
        assert_eq!(text, ["0", "1"]);
        // Wrapping: bead 3 and bead 0 are neighbours.
        let mut out = Vec::new();
        PaintChain { m: 2 }.moves(&".xx.".parse().unwrap(), &mut out);
        assert_eq!(out.len(), 1);
        assert_eq!(out[0].1.to_string(), "xxxx");
        // m = n: one move, not n.
        let mut out = Vec::new();
        PaintChain { m: 3 }.moves(&"...".parse().unwrap(), &mut out);
        assert_eq!(out.len(), 1);
    }

    #[test]
    fn key_is_rotation_and_reflection_invariant() {
        let r = PaintChain { m: 1 };
        let a = r.key(&"xx.x..".parse().unwrap());
        for s in ["x.xx..", ".xx.x.", "..x.xx", "x..xx."] {
            assert_eq!(r.key(&s.parse().unwrap()), a, "{s}");
        }
        assert_ne!(r.key(&"xxx...".parse().unwrap()), a);
    }

    #[test]
    fn notation_round_trip() {
        for s in ["....", "x.x", "x"] {
            assert_eq!(s.parse::<Circle>().unwrap().to_string(), s);
        }
        for s in ["", "x-x", "ab"] {
            assert!(s.parse::<Circle>().is_err(), "{s}");
        }
        assert_eq!("m=3".parse::<PaintChain>().unwrap(), PaintChain { m: 3 });
        assert_eq!("3".parse::<PaintChain>().unwrap().to_string(), "m=3");
        assert!("m=0".parse::<PaintChain>().is_err());
        assert!("m=x".parse::<PaintChain>().is_err());
    }
}
