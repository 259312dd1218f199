//! Green Hackenbush on a rooted tree.
//!
//! Rules (game `hackenbush-tree`; contest problem hdu3094 "A tree game"): a tree whose
//! root is vertex 1. A move removes one edge; every edge that is then no longer
//! connected to the root disappears with it. Normal play: the player with no move (no
//! edge left) loses.
//!
//! The position is the set of edges still attached to the root, each written from the
//! parent (the end nearer the root) to the child. A move is applied exactly as the rule
//! says: the edge is removed, then every edge no longer reachable from vertex 1 is
//! dropped. Nothing about Grundy values of trees is assumed here.
//!
//! Notation: a position is its edges, comma-separated, each `parent-child`
//! (`1-2,2-3`), `-` for no edge. Reading also accepts edges in either direction
//! (`2-1`): they are oriented away from vertex 1, and the edges must form a tree
//! containing vertex 1 (no self-loop, no repeated edge, no cycle, none detached). A move
//! is the edge it removes, `parent-child` ([`Cut`]).
//! Canonical move order: edges by (parent, child) vertex numbers.

use crate::{NotationError, Rules};
use std::collections::{HashMap, HashSet, VecDeque};
use std::fmt;
use std::str::FromStr;

/// The rules of Green Hackenbush on a tree rooted at vertex 1 (no parameters).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct HackenbushTree;

/// The edges still attached to the root, each `(parent, child)`, sorted.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Tree(pub Vec<(u32, u32)>);

/// Removing the edge from `parent` to `child`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Cut {
    /// The end of the edge nearer the root.
    pub parent: u32,
    /// The other end.
    pub child: u32,
}

/// The root of every tree.
pub const ROOT: u32 = 1;

impl Tree {
    /// The tree of undirected edges `u v` (any order, any direction), oriented away
    /// from vertex 1; an error says why the edges are not a tree containing vertex 1.
    pub fn from_undirected(edges: &[(u32, u32)]) -> Result<Tree, String> {
        let mut adj: HashMap<u32, Vec<u32>> = HashMap::new();
        let mut seen = HashSet::new();
        for &(u, v) in edges {
            if u == v {
                return Err(format!("edge {u}-{v} is a self-loop"));
            }
            if !seen.insert((u.min(v), u.max(v))) {
                return Err(format!("edge {u}-{v} is repeated"));
            }
            adj.entry(u).or_default().push(v);
            adj.entry(v).or_default().push(u);
        }
        let mut out = Vec::with_capacity(edges.len());
        let mut visited = HashSet::from([ROOT]);
        let mut queue = VecDeque::from([ROOT]);
        while let Some(p) = queue.pop_front() {
            for &c in adj.get(&p).map_or(&[][..], Vec::as_slice) {
                if visited.insert(c) {
                    out.push((p, c));
                    queue.push_back(c);
                }
            }
        }
        if out.len() != edges.len() {
            return Err(if adj.keys().all(|v| visited.contains(v)) {
                "the edges contain a cycle".to_string()
            } else {
                "some edges are not connected to vertex 1".to_string()
            });
        }
        out.sort_unstable();
        Ok(Tree(out))
    }
}

impl Rules for HackenbushTree {
    type Position = Tree;
    type Move = Cut;

    fn move_bound(&self, pos: &Tree) -> Option<u64> {
        Some(pos.0.len() as u64)
    }

    /// Every edge may be removed; what hangs below it goes with it.
    fn moves(&self, pos: &Tree, out: &mut Vec<(Cut, Tree)>) {
        for (i, &(parent, child)) in pos.0.iter().enumerate() {
            // Remove the edge, then keep only the edges still reachable from the root,
            // found by a search from vertex 1 over the remaining edges.
            let rest: Vec<(u32, u32)> = pos
                .0
                .iter()
                .enumerate()
                .filter(|&(j, _)| j != i)
                .map(|(_, &e)| e)
                .collect();
            let mut reached = HashSet::from([ROOT]);
            let mut kept = Vec::with_capacity(rest.len());
            let mut grew = true;
            while grew {
                grew = false;
                for &(a, b) in &rest {
                    if !kept.contains(&(a, b)) && (reached.contains(&a) || reached.contains(&b)) {
                        reached.insert(a);
                        reached.insert(b);
                        kept.push((a, b));
                        grew = true;
                    }
                }
            }
            kept.sort_unstable();
            out.push((Cut { parent, child }, Tree(kept)));
        }
    }

    /// The moves of [`Rules::moves`], each child built in one buffer: on a tree (every
    /// edge reached once from the root, away from it) the edges below a cut edge
    /// are a contiguous run of a depth-first order, dropped by one pass over the
    /// edges; anything else goes through [`Rules::moves`].
    fn for_each_move<F: FnMut(Self::Move, &Tree)>(&self, pos: &Tree, mut f: F) {
        let Some(span) = subtree_spans(pos) else {
            let mut out = Vec::new();
            self.moves(pos, &mut out);
            for (m, c) in out {
                f(m, &c);
            }
            return;
        };
        let mut next = Tree(Vec::with_capacity(pos.0.len()));
        for (i, &(parent, child)) in pos.0.iter().enumerate() {
            let (from, to) = span[i];
            next.0.clear();
            next.0.extend(
                pos.0
                    .iter()
                    .zip(&span)
                    .filter(|(_, s)| s.0 < from || s.0 >= to)
                    .map(|(e, _)| *e),
            );
            f(Cut { parent, child }, &next);
        }
    }

    /// The tree up to isomorphism, for trees of up to 63 edges hanging from the root:
    /// each edge written as 1, the subtree below it (its child edges in a fixed order
    /// of their own codes), then 0, the root's edges in the same order, read as a
    /// binary number. Renaming vertices changes nothing in the rules, and two rooted
    /// trees are isomorphic exactly when these codes are equal.
    fn symmetric_key(&self, pos: &Tree) -> Option<u128> {
        const MAX: usize = 63;
        let e = &pos.0;
        let m = e.len();
        if m > MAX || !e.windows(2).all(|w| w[0] < w[1]) {
            return None;
        }
        // Sorted edges (each vertex's edges a run) of a tree hanging from the root,
        // away from it: no vertex is the child of two
        // edges, nor is the root a child; then every edge is reached at most once.
        let mut kids = [0u32; MAX];
        for (k, &(_, c)) in kids.iter_mut().zip(e) {
            *k = c;
        }
        let kids = &mut kids[..m];
        kids.sort_unstable();
        if kids.windows(2).any(|w| w[0] == w[1]) || kids.binary_search(&ROOT).is_ok() {
            return None;
        }
        // Edges in depth-first order (no allocation: at most 63 of them).
        let mut order = [0u8; MAX];
        let mut stack = [0u8; MAX];
        let mut top = 0;
        let mut reached = 0;
        let push = |stack: &mut [u8; MAX], top: &mut usize, v: u32| {
            for j in children_of(e, v).rev() {
                stack[*top] = j as u8;
                *top += 1;
            }
        };
        push(&mut stack, &mut top, ROOT);
        while top > 0 {
            top -= 1;
            let i = stack[top];
            order[reached] = i;
            reached += 1;
            push(&mut stack, &mut top, e[i as usize].1);
        }
        if reached != m {
            return None;
        }
        // Each edge's code (length, bits) after those of the edges below it.
        let mut code = [(0u32, 0u128); MAX];
        let mut parts = [(0u32, 0u128); MAX];
        let join = |v: u32, code: &[(u32, u128)], parts: &mut [(u32, u128)]| {
            let below = children_of(e, v);
            let n = below.len();
            for (p, j) in parts.iter_mut().zip(below) {
                *p = code[j];
            }
            let parts = &mut parts[..n];
            parts.sort_unstable();
            parts.iter().fold((0u32, 0u128), |(len, bits), &(l, b)| {
                (len + l, bits << l | b)
            })
        };
        for &i in order[..m].iter().rev() {
            let (len, bits) = join(e[i as usize].1, &code[..m], &mut parts);
            code[i as usize] = (len + 2, (1u128 << (len + 1)) | bits << 1);
        }
        Some(join(ROOT, &code[..m], &mut parts).1)
    }

    /// Up to 16 edges between vertices below 16: one byte per edge (4 bits each
    /// end), in the position's sorted order. No edge packs to a zero byte (a child is
    /// never vertex 0), so the length is implied and the packing is one-to-one.
    fn packed_key(&self, pos: &Tree) -> Option<u128> {
        if pos.0.len() > 16 || pos.0.iter().any(|&(p, c)| p > 15 || c > 15) {
            return None;
        }
        Some(
            pos.0
                .iter()
                .fold(0u128, |k, &(p, c)| (k << 8) | u128::from(p << 4 | c)),
        )
    }

    fn position_bytes(&self, pos: &Tree) -> usize {
        std::mem::size_of::<Tree>() + pos.0.len() * std::mem::size_of::<(u32, u32)>()
    }
}

/// The edges leaving vertex `v`: a run of the sorted edges.
fn children_of(e: &[(u32, u32)], v: u32) -> std::ops::Range<usize> {
    let lo = e.partition_point(|&(p, _)| p < v);
    let hi = e.partition_point(|&(p, _)| p <= v);
    lo..hi
}

/// For each edge, where it and the edges below it lie in a depth-first order from
/// the root: `(start, end)`, the edge at `start`, those below it up to `end`. `None`
/// when the edges are not a tree hanging from the root, oriented away from it (some
/// edge unreached, a vertex with two parents, or an edge into the root) or not sorted.
fn subtree_spans(pos: &Tree) -> Option<Vec<(u32, u32)>> {
    let e = &pos.0;
    if !e.windows(2).all(|w| w[0] < w[1]) {
        return None;
    }
    let mut children: Vec<u32> = e.iter().map(|&(_, c)| c).collect();
    children.sort_unstable();
    if children.windows(2).any(|w| w[0] == w[1]) || children.binary_search(&ROOT).is_ok() {
        return None;
    }
    let below = |v: u32| children_of(e, v);
    let mut span = vec![(u32::MAX, 0u32); e.len()];
    let mut visited = 0u32;
    // (edge, opened): an edge is pushed to be opened, then again to be closed.
    let mut stack: Vec<(usize, bool)> = below(ROOT).rev().map(|i| (i, false)).collect();
    while let Some((i, closing)) = stack.pop() {
        if closing {
            span[i].1 = visited;
            continue;
        }
        if span[i].0 != u32::MAX || visited as usize >= e.len() {
            return None;
        }
        span[i].0 = visited;
        visited += 1;
        stack.push((i, true));
        stack.extend(below(e[i].1).rev().map(|j| (j, false)));
    }
    (visited as usize == e.len()).then_some(span)
}

impl fmt::Display for HackenbushTree {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("-")
    }
}

impl FromStr for HackenbushTree {
    type Err = NotationError;
    /// The game has no parameters: `-` (or nothing).
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.trim() {
            "" | "-" => Ok(HackenbushTree),
            _ => Err(NotationError::new(
                "hackenbush-tree rules",
                s,
                "the game has no parameters: write -",
            )),
        }
    }
}

impl fmt::Display for Tree {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0.is_empty() {
            return f.write_str("-");
        }
        for (i, (p, c)) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_str(",")?;
            }
            write!(f, "{p}-{c}")?;
        }
        Ok(())
    }
}

fn parse_edge(what: &'static str, whole: &str, e: &str) -> Result<(u32, u32), NotationError> {
    let (a, b) = e
        .split_once('-')
        .ok_or_else(|| NotationError::new(what, whole, format!("{e:?}: expected u-v")))?;
    let num = |x: &str| {
        x.trim()
            .parse::<u32>()
            .map_err(|err| NotationError::new(what, whole, format!("{e:?}: {err}")))
    };
    Ok((num(a)?, num(b)?))
}

impl FromStr for Tree {
    type Err = NotationError;
    /// Reads `1-2,2-3` (edges in either direction), or `-` for no edge.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        const WHAT: &str = "hackenbush tree";
        let t = s.trim();
        if t.is_empty() || t == "-" {
            return Ok(Tree::default());
        }
        let edges = t
            .split(',')
            .map(|e| parse_edge(WHAT, s, e))
            .collect::<Result<Vec<_>, _>>()?;
        Tree::from_undirected(&edges).map_err(|m| NotationError::new(WHAT, s, m))
    }
}

impl fmt::Display for Cut {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}-{}", self.parent, self.child)
    }
}

impl FromStr for Cut {
    type Err = NotationError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let (parent, child) = parse_edge("hackenbush cut", s, s)?;
        Ok(Cut { parent, child })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::plus_heap::grundy_by_search;
    use crate::Solver;

    fn analyze(s: &str) -> crate::Analysis<Cut> {
        Solver::new(HackenbushTree)
            .analyze(&s.parse().unwrap())
            .unwrap()
    }

    #[test]
    fn spec_samples_hdu3094() {
        // hdu3094 statement sample: a path 1-2-3 => Alice (first player wins);
        // 1 with two leaves => Bob; the ten-vertex tree => Alice.
        assert!(analyze("1-2,2-3").win);
        assert!(!analyze("1-2,1-3").win);
        assert!(analyze("6-2,4-3,8-4,9-5,8-6,2-7,5-8,1-9,6-10").win);
    }

    #[test]
    fn cutting_drops_what_hangs_below() {
        let mut out = Vec::new();
        HackenbushTree.moves(&"1-2,2-3,2-4,1-5".parse().unwrap(), &mut out);
        let text: Vec<String> = out.iter().map(|(m, p)| format!("{m}>{p}")).collect();
        assert_eq!(
            text,
            [
                "1-2>1-5",
                "1-5>1-2,2-3,2-4",
                "2-3>1-2,1-5,2-4",
                "2-4>1-2,1-5,2-3"
            ]
        );
    }

    #[test]
    fn grundy_values_by_search() {
        // Paths hanging from the root are Nim heaps of their length; a root with k
        // leaves is worth k mod 2 (facts of Green Hackenbush, here measured by
        // minimax over the tree plus a Nim heap).
        let path = |l: u32| Tree((1..=l).map(|v| (v, v + 1)).collect());
        for l in 0..=5 {
            let g = grundy_by_search(&HackenbushTree, &path(l), 8).unwrap();
            assert_eq!(g, Some(u64::from(l)), "path of {l} edges");
        }
        for k in 0..=5u32 {
            let star = Tree((2..2 + k).map(|c| (1, c)).collect());
            let g = grundy_by_search(&HackenbushTree, &star, 8).unwrap();
            assert_eq!(g, Some(u64::from(k % 2)), "star of {k} leaves");
        }
    }

    #[test]
    fn reading_orients_and_rejects() {
        let t: Tree = "2-1,3-2,4-1".parse().unwrap();
        assert_eq!(t.to_string(), "1-2,1-4,2-3");
        for bad in [
            "1-1",
            "1-2,2-1",
            "1-2,2-3,3-1",
            "2-3",
            "1-2,3-4",
            "1-x",
            "12",
        ] {
            assert!(bad.parse::<Tree>().is_err(), "{bad}");
        }
        assert_eq!("-".parse::<Tree>().unwrap(), Tree::default());
        assert_eq!("3-7".parse::<Cut>().unwrap().to_string(), "3-7");
        assert!("-".parse::<HackenbushTree>().is_ok());
        assert!("x".parse::<HackenbushTree>().is_err());
        assert!(!analyze("-").win);
    }
}
