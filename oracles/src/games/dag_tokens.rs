//! Tokens on a directed acyclic graph: a move slides one token along one edge.
//!
//! Rules (game `dag-tokens`; the classic "game on a graph" of Sprague–Grundy theory):
//! the rules are a directed graph on the vertices 1..=n without cycles; a position is a
//! multiset of tokens, each on a vertex (several tokens may share one). A move chooses
//! one token and slides it from its vertex u to a vertex v along an edge u -> v.
//! Normal play: the player who cannot move (every token on a vertex without
//! successors) loses.
//!
//! Notation: the rules are `n;u>v,u>v,...` (`4;1>2,2>3,1>3`; `3;` for no edge); a
//! position is the tokens' vertices, comma-separated (`1,3,3`). A move is `i:u>v`:
//! token i (from 0) slides from u to v. Canonical move order: by token, then by v.

use crate::games::nim::Piles;
use crate::{NotationError, Rules};
use std::fmt;
use std::str::FromStr;

/// Most vertices a graph may have.
pub const MAX_VERTICES: usize = 1 << 20;
/// Most edges a graph may have.
pub const MAX_EDGES: usize = 1 << 22;

/// The rules: a directed acyclic graph on 1..=n.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct DagTokens {
    n: usize,
    /// `succ[u]`: the successors of vertex u (index 0 unused), ascending, distinct.
    succ: Vec<Vec<u64>>,
    /// The edges as given, for the notation.
    edges: Vec<(u64, u64)>,
}

impl DagTokens {
    /// The graph on 1..=n with these edges. Fails on a vertex out of 1..=n, or on a
    /// cycle, naming a vertex on it.
    pub fn new(n: usize, edges: Vec<(u64, u64)>) -> Result<Self, String> {
        if n > MAX_VERTICES {
            return Err(format!("at most {MAX_VERTICES} vertices"));
        }
        if edges.len() > MAX_EDGES {
            return Err(format!("at most {MAX_EDGES} edges"));
        }
        let mut succ = vec![Vec::new(); n + 1];
        for (i, &(u, v)) in edges.iter().enumerate() {
            for w in [u, v] {
                if w == 0 || w > n as u64 {
                    return Err(format!(
                        "edge {} ({u} {v}): vertex {w} is not in 1..={n}",
                        i + 1
                    ));
                }
            }
            succ[u as usize].push(v);
        }
        for s in &mut succ {
            s.sort_unstable();
            s.dedup();
        }
        // A cycle: depth-first search with colours (0 new, 1 on the path, 2 done).
        let mut colour = vec![0u8; n + 1];
        for start in 1..=n {
            if colour[start] != 0 {
                continue;
            }
            let mut stack: Vec<(usize, usize)> = vec![(start, 0)];
            colour[start] = 1;
            while let Some(top) = stack.last_mut() {
                let u = top.0;
                match succ[u].get(top.1) {
                    Some(&v) => {
                        top.1 += 1;
                        let v = v as usize;
                        match colour[v] {
                            0 => {
                                colour[v] = 1;
                                stack.push((v, 0));
                            }
                            1 => return Err(format!("the edges have a cycle through vertex {v}")),
                            _ => {}
                        }
                    }
                    None => {
                        colour[u] = 2;
                        stack.pop();
                    }
                }
            }
        }
        Ok(DagTokens { n, succ, edges })
    }

    /// The number of vertices.
    pub fn vertices(&self) -> usize {
        self.n
    }

    /// The edges, as given.
    pub fn edges(&self) -> &[(u64, u64)] {
        &self.edges
    }
}

/// Token `token` slides from `from` to `to`. Derived order: token, then `to`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Slide {
    /// Index of the token, from 0.
    pub token: usize,
    /// The vertex it ends on.
    pub to: u64,
    /// The vertex it leaves.
    pub from: u64,
}

impl Rules for DagTokens {
    type Position = Piles;
    type Move = Slide;

    fn moves(&self, pos: &Piles, out: &mut Vec<(Slide, Piles)>) {
        for (token, &u) in pos.0.iter().enumerate() {
            let Some(succ) = usize::try_from(u).ok().and_then(|u| self.succ.get(u)) else {
                continue;
            };
            for &v in succ {
                let mut next = pos.clone();
                next.0[token] = v;
                out.push((
                    Slide {
                        token,
                        to: v,
                        from: u,
                    },
                    next,
                ));
            }
        }
    }

    fn move_bound(&self, pos: &Piles) -> Option<u64> {
        Some(pos.0.len() as u64 * self.n as u64)
    }

    /// Tokens are interchangeable: positions are remembered sorted.
    fn key(&self, pos: &Piles) -> Piles {
        let mut k = pos.clone();
        k.0.sort_unstable();
        k
    }
}

impl fmt::Display for DagTokens {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{};", self.n)?;
        for (i, (u, v)) in self.edges.iter().enumerate() {
            if i > 0 {
                f.write_str(",")?;
            }
            write!(f, "{u}>{v}")?;
        }
        Ok(())
    }
}

impl FromStr for DagTokens {
    type Err = NotationError;
    /// Reads `n;u>v,u>v,...`.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        const WHAT: &str = "graph";
        let bad = |m: String| NotationError::new(WHAT, s, m);
        let (n, rest) = s
            .split_once(';')
            .ok_or_else(|| bad("expected n;u>v,u>v,...".into()))?;
        let n: usize = n
            .trim()
            .parse()
            .map_err(|_| bad("n is not a number".into()))?;
        if n > MAX_VERTICES {
            return Err(bad(format!("at most {MAX_VERTICES} vertices")));
        }
        let mut edges = Vec::new();
        for e in rest.split(',').map(str::trim).filter(|e| !e.is_empty()) {
            if edges.len() >= MAX_EDGES {
                return Err(bad(format!("at most {MAX_EDGES} edges")));
            }
            let (u, v) = e
                .split_once('>')
                .ok_or_else(|| bad(format!("edge {e:?}: expected u>v")))?;
            let u: u64 = u.trim().parse().map_err(|_| bad(format!("edge {e:?}")))?;
            let v: u64 = v.trim().parse().map_err(|_| bad(format!("edge {e:?}")))?;
            edges.push((u, v));
        }
        DagTokens::new(n, edges).map_err(bad)
    }
}

impl fmt::Display for Slide {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}>{}", self.token, self.from, self.to)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Solver;

    #[test]
    fn moves_cycles_and_notation() {
        let g: DagTokens = "4;1>2,2>3,1>3".parse().unwrap();
        assert_eq!(g.to_string(), "4;1>2,2>3,1>3");
        let mut out = Vec::new();
        g.moves(&Piles(vec![1, 3]), &mut out);
        let text: Vec<String> = out.iter().map(|(m, p)| format!("{m}>{p}")).collect();
        assert_eq!(text, ["0:1>2>2,3", "0:1>3>3,3"]);
        // Token on 1: moves to 2 (then 3) or to 3: a path of odd length exists, and
        // 1 -> 3 ends the game: won.
        assert!(Solver::new(g.clone()).analyze(&Piles(vec![1])).unwrap().win);
        assert!(!Solver::new(g).analyze(&Piles(vec![2, 2])).unwrap().win);
        let e = "3;1>2,2>3,3>2".parse::<DagTokens>().unwrap_err();
        assert!(e.reason.contains("cycle through vertex 2"), "{e}");
        assert!("3;1>4".parse::<DagTokens>().is_err());
        assert!("3;1>1".parse::<DagTokens>().is_err());
        assert!("3;0>1".parse::<DagTokens>().is_err());
        assert!("3;".parse::<DagTokens>().is_ok());
    }
}
