//! Labelled trees on vertices 1..=n, as contest inputs give them: n - 1 undirected
//! edges `u v`, in any order and direction. Shared by the games whose positions are
//! trees and by the problem engine's `tree` field: checking, enumerating, drawing at
//! random and shrinking. Vertex 1 is the root wherever a root matters (shrinking keeps
//! it, the path shapes start there).
//!
//! Edges are flat lists of endpoints, `[u1, v1, u2, v2, ...]`, the layout a problem
//! declaration hands to a game (see [`crate::games::declared`]); n is the number of
//! edges plus one.

use rand::Rng;
use rand_chacha::ChaCha8Rng;
use std::fmt;

/// Why a list of edges is not a tree on 1..=n.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TreeError {
    /// Edge `edge` (from 0) has an end outside 1..=n.
    OutOfRange {
        /// Index of the edge.
        edge: usize,
        /// The offending end.
        vertex: u64,
        /// The number of vertices.
        n: u64,
    },
    /// Edge `edge` joins a vertex to itself.
    SelfLoop {
        /// Index of the edge.
        edge: usize,
    },
    /// Edge `edge` repeats edge `first`.
    Repeated {
        /// Index of the edge.
        edge: usize,
        /// Index of its first occurrence.
        first: usize,
    },
    /// Edge `edge` closes a cycle (so the edges cannot connect all n vertices).
    Cycle {
        /// Index of the edge.
        edge: usize,
    },
    /// The list does not hold n - 1 whole edges.
    Count {
        /// Numbers in the list.
        values: usize,
    },
}

impl TreeError {
    /// The index of the edge the error is about (`None` for a wrong count).
    pub fn edge(&self) -> Option<usize> {
        match *self {
            TreeError::OutOfRange { edge, .. }
            | TreeError::SelfLoop { edge }
            | TreeError::Repeated { edge, .. }
            | TreeError::Cycle { edge } => Some(edge),
            TreeError::Count { .. } => None,
        }
    }
}

impl fmt::Display for TreeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TreeError::OutOfRange { vertex, n, .. } => {
                write!(f, "vertex {vertex} is outside 1..={n}")
            }
            TreeError::SelfLoop { .. } => write!(f, "a self-loop (both ends the same vertex)"),
            TreeError::Repeated { first, .. } => {
                write!(
                    f,
                    "repeats edge {} (a tree has no repeated edge)",
                    first + 1
                )
            }
            TreeError::Cycle { .. } => write!(
                f,
                "closes a cycle (the edges do not form a tree: not every vertex is connected)"
            ),
            TreeError::Count { values } => {
                write!(f, "{values} numbers are not a whole number of edges")
            }
        }
    }
}

impl std::error::Error for TreeError {}

/// Union-find over 1..=n, by size with path halving.
struct Dsu(Vec<u32>, Vec<u32>);

impl Dsu {
    fn new(n: usize) -> Dsu {
        Dsu((0..=n as u32).collect(), vec![1; n + 1])
    }
    fn find(&mut self, mut x: u32) -> u32 {
        while self.0[x as usize] != x {
            let p = self.0[self.0[x as usize] as usize];
            self.0[x as usize] = p;
            x = p;
        }
        x
    }
    fn union(&mut self, a: u32, b: u32) -> bool {
        let (mut a, mut b) = (self.find(a), self.find(b));
        if a == b {
            return false;
        }
        if self.1[a as usize] < self.1[b as usize] {
            std::mem::swap(&mut a, &mut b);
        }
        self.0[b as usize] = a;
        self.1[a as usize] += self.1[b as usize];
        true
    }
}

/// Incremental check of the edges of a tree on 1..=n, one edge at a time (so a parser
/// names the line of the first bad edge).
pub struct TreeChecker {
    n: u64,
    dsu: Dsu,
    edges: usize,
}

impl TreeChecker {
    /// A checker for a tree of `n` vertices.
    pub fn new(n: u64) -> TreeChecker {
        TreeChecker {
            n,
            dsu: Dsu::new(n as usize),
            edges: 0,
        }
    }

    /// Adds edge `u v`; `earlier` gives the edges added before (flat), to tell a
    /// repeated edge from another cycle.
    pub fn add(&mut self, u: u64, v: u64, earlier: &[u64]) -> Result<(), TreeError> {
        let edge = self.edges;
        self.edges += 1;
        for x in [u, v] {
            if x < 1 || x > self.n {
                return Err(TreeError::OutOfRange {
                    edge,
                    vertex: x,
                    n: self.n,
                });
            }
        }
        if u == v {
            return Err(TreeError::SelfLoop { edge });
        }
        if !self.dsu.union(u as u32, v as u32) {
            let first = earlier
                .chunks_exact(2)
                .position(|e| (e[0] == u && e[1] == v) || (e[0] == v && e[1] == u));
            return Err(match first {
                Some(first) => TreeError::Repeated { edge, first },
                None => TreeError::Cycle { edge },
            });
        }
        Ok(())
    }
}

/// Whether `flat` (n - 1 edges, endpoints in 1..=n) is a tree.
pub fn check(flat: &[u64]) -> Result<(), TreeError> {
    if !flat.len().is_multiple_of(2) {
        return Err(TreeError::Count { values: flat.len() });
    }
    let n = flat.len() as u64 / 2 + 1;
    let mut c = TreeChecker::new(n);
    for (i, e) in flat.chunks_exact(2).enumerate() {
        c.add(e[0], e[1], &flat[..2 * i])?;
    }
    Ok(())
}

/// The number of vertices of the tree with these flat edges.
pub fn vertices(flat: &[u64]) -> usize {
    flat.len() / 2 + 1
}

/// Parent of every vertex (0 for the root 1) and the vertices in breadth-first order
/// from vertex 1, without recursion. `flat` must be a tree.
pub fn bfs(flat: &[u64]) -> (Vec<u32>, Vec<u32>) {
    let n = vertices(flat);
    let mut start = vec![0u32; n + 2];
    for &x in flat {
        start[x as usize] += 1;
    }
    let mut acc = 0;
    for s in start.iter_mut() {
        let d = *s;
        *s = acc;
        acc += d;
    }
    let mut fill = start.clone();
    let mut adj = vec![0u32; flat.len()];
    for e in flat.chunks_exact(2) {
        for (a, b) in [(e[0], e[1]), (e[1], e[0])] {
            adj[fill[a as usize] as usize] = b as u32;
            fill[a as usize] += 1;
        }
    }
    let mut parent = vec![0u32; n + 1];
    let mut seen = vec![false; n + 1];
    let mut order = vec![1u32];
    seen[1] = true;
    let mut head = 0;
    while head < order.len() {
        let v = order[head] as usize;
        head += 1;
        for &w in &adj[start[v] as usize..start[v + 1] as usize] {
            if !seen[w as usize] {
                seen[w as usize] = true;
                parent[w as usize] = v as u32;
                order.push(w);
            }
        }
    }
    (parent, order)
}

/// The tree of a Prüfer sequence over 1..=n (n >= 2; entries in 1..=n), flat.
pub fn prufer(n: usize, seq: &[u64]) -> Vec<u64> {
    if n < 2 {
        return Vec::new();
    }
    let mut degree = vec![1u32; n + 1];
    for &x in seq {
        degree[x as usize] += 1;
    }
    let mut flat = Vec::with_capacity(2 * (n - 1));
    for &x in seq {
        let leaf = (1..=n).find(|&v| degree[v] == 1).expect("a leaf");
        flat.extend([leaf as u64, x]);
        degree[leaf] -= 1;
        degree[x as usize] -= 1;
    }
    let rest: Vec<u64> = (1..=n as u64)
        .filter(|&v| degree[v as usize] == 1)
        .collect();
    flat.extend([rest[0], rest[1]]);
    flat
}

/// Labelled trees on 1..=n in Prüfer order, at most `cap` of them (there are
/// n^(n-2); for n <= 4 each comes a second time with every edge turned around). Tree number k is written in a way of its own: the edge list rotated by
/// k and edge i flipped when bit i of k / (n - 1) is set, so that small enumerations
/// meet edges in both directions and in unsorted order.
pub fn enumerate(n: usize, cap: usize) -> Vec<Vec<u64>> {
    if n <= 1 {
        return vec![Vec::new()];
    }
    let len = n - 2;
    let count = (n as u64).checked_pow(len as u32).unwrap_or(u64::MAX);
    let mut out = Vec::new();
    for k in 0..count.min(cap as u64) {
        let mut rest = k;
        let seq: Vec<u64> = (0..len)
            .map(|_| {
                let d = rest % n as u64;
                rest /= n as u64;
                d + 1
            })
            .collect();
        let flat = prufer(n, &seq);
        let m = n - 1;
        let rot = (k as usize) % m;
        let flips = k / m as u64;
        let mut w = Vec::with_capacity(flat.len());
        for i in 0..m {
            let e = &flat[2 * ((i + rot) % m)..2 * ((i + rot) % m) + 2];
            if i < 64 && (flips >> i) & 1 == 1 {
                w.extend([e[1], e[0]]);
            } else {
                w.extend([e[0], e[1]]);
            }
        }
        out.push(w);
    }
    // Small trees once more with every edge turned around, so that even a single
    // edge is met written both ways.
    if n <= 4 {
        let turned: Vec<Vec<u64>> = out
            .iter()
            .map(|t| t.chunks_exact(2).flat_map(|e| [e[1], e[0]]).collect())
            .collect();
        for t in turned {
            if out.len() < cap && !out.contains(&t) {
                out.push(t);
            }
        }
    }
    out
}

/// The shapes [`random`] draws.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shape {
    /// A random recursive tree (each vertex's parent uniform among earlier ones).
    Recursive,
    /// One centre joined to every other vertex.
    Star,
    /// A path with leaves hanging from it.
    Caterpillar,
    /// A complete binary tree (heap order).
    Binary,
    /// A path with vertex 1 at one end: as deep as a tree of n vertices can be.
    PathFromRoot,
    /// A path, vertex 1 anywhere on it.
    Path,
}

/// Every shape, for drawing one at random.
pub const SHAPES: [Shape; 6] = [
    Shape::Recursive,
    Shape::Star,
    Shape::Caterpillar,
    Shape::Binary,
    Shape::PathFromRoot,
    Shape::Path,
];

/// A random tree of `n` vertices of the given shape, flat: random labels (vertex 1 at
/// an end for [`Shape::PathFromRoot`]), edges in random order and direction.
pub fn random(rng: &mut ChaCha8Rng, n: usize, shape: Shape) -> Vec<u64> {
    if n <= 1 {
        return Vec::new();
    }
    // Parents of positions 1..n in an unlabelled layout where position 0 is first.
    let parent = |i: usize, rng: &mut ChaCha8Rng| -> usize {
        match shape {
            Shape::Recursive => rng.gen_range(0..i),
            Shape::Star => 0,
            Shape::Caterpillar => {
                // Positions below about a third form the spine.
                let spine = (n / 3).max(1);
                if i < spine {
                    i - 1
                } else {
                    rng.gen_range(0..spine)
                }
            }
            Shape::Binary => (i - 1) / 2,
            Shape::PathFromRoot | Shape::Path => i - 1,
        }
    };
    let mut label: Vec<u64> = (1..=n as u64).collect();
    for i in (1..n).rev() {
        let j = rng.gen_range(0..=i);
        label.swap(i, j);
    }
    if shape == Shape::PathFromRoot {
        let at = label.iter().position(|&l| l == 1).expect("vertex 1");
        label.swap(0, at);
    }
    let mut edges: Vec<(u64, u64)> = (1..n)
        .map(|i| {
            let (a, b) = (label[parent(i, rng)], label[i]);
            if rng.gen_bool(0.5) {
                (a, b)
            } else {
                (b, a)
            }
        })
        .collect();
    for i in (1..edges.len()).rev() {
        let j = rng.gen_range(0..=i);
        edges.swap(i, j);
    }
    edges.into_iter().flat_map(|(a, b)| [a, b]).collect()
}

/// The flat edges without the vertices in `removed` (given as a mask), the rest
/// renumbered in order (vertex 1 stays 1 unless removed, which callers never do),
/// with each edge end `x` first mapped through `merge` (a removed vertex merged into
/// its parent).
fn renumber(flat: &[u64], removed: &[bool], merge: impl Fn(u64) -> u64) -> Vec<u64> {
    let mut new_label = vec![0u64; removed.len()];
    let mut next = 0;
    for (v, slot) in new_label.iter_mut().enumerate().skip(1) {
        if !removed[v] {
            next += 1;
            *slot = next;
        }
    }
    let mut out = Vec::with_capacity(flat.len());
    for e in flat.chunks_exact(2) {
        let (a, b) = (merge(e[0]), merge(e[1]));
        if a == b || removed[a as usize] || removed[b as usize] {
            continue;
        }
        out.extend([new_label[a as usize], new_label[b as usize]]);
    }
    out
}

/// Most leaves or edges a shrink round tries one at a time.
const FINE: usize = 32;

/// Smaller trees than `flat` (a tree on 1..=n with root 1), most aggressive first:
/// fewer vertices (every leaf but the root dropped, half of them, then one leaf at a
/// time when few), shorter paths (every edge to an odd-depth vertex contracted, then
/// one edge at a time when few), and last the same tree written canonically (edges
/// from parent to child, sorted). Dropped vertices are removed from the numbering (the
/// others keep their order); the kept edges keep their order and direction.
pub fn shrink(flat: &[u64]) -> Vec<Vec<u64>> {
    let n = vertices(flat);
    if n <= 1 {
        return Vec::new();
    }
    let (parent, order) = bfs(flat);
    let mut depth = vec![0u32; n + 1];
    let mut kids = vec![0u32; n + 1];
    for &v in order.iter().skip(1) {
        depth[v as usize] = depth[parent[v as usize] as usize] + 1;
        kids[parent[v as usize] as usize] += 1;
    }
    let leaves: Vec<u64> = (2..=n as u64).filter(|&v| kids[v as usize] == 0).collect();
    let mut out: Vec<Vec<u64>> = Vec::new();
    let drop = |set: &[u64]| {
        let mut removed = vec![false; n + 1];
        for &v in set {
            removed[v as usize] = true;
        }
        renumber(flat, &removed, |x| x)
    };
    // Fewer vertices: all leaves, halves and quarters of them, then each alone.
    let l = leaves.len();
    for chunk in [l, l.div_ceil(2), l.div_ceil(4)] {
        if chunk == 0 || (chunk < l && chunk < 2) {
            continue;
        }
        for part in leaves.chunks(chunk) {
            let c = drop(part);
            if !out.contains(&c) {
                out.push(c);
            }
        }
    }
    if l <= FINE {
        for &v in &leaves {
            let c = drop(&[v]);
            if !out.contains(&c) {
                out.push(c);
            }
        }
    }
    // Shorter paths: merge a child into its parent.
    let contract = |set: &[u64]| {
        let mut removed = vec![false; n + 1];
        for &v in set {
            removed[v as usize] = true;
        }
        let p = &parent;
        let r = &removed;
        renumber(flat, &removed, move |x| {
            if r[x as usize] {
                p[x as usize] as u64
            } else {
                x
            }
        })
    };
    let odd: Vec<u64> = (2..=n as u64)
        .filter(|&v| depth[v as usize] % 2 == 1)
        .collect();
    if odd.len() > 1 {
        out.push(contract(&odd));
    }
    let inner: Vec<u64> = (2..=n as u64).filter(|&v| kids[v as usize] > 0).collect();
    if inner.len() <= FINE {
        for &v in &inner {
            out.push(contract(&[v]));
        }
    }
    // The same tree, written canonically.
    let mut canon: Vec<(u64, u64)> = order
        .iter()
        .skip(1)
        .map(|&v| (u64::from(parent[v as usize]), u64::from(v)))
        .collect();
    canon.sort_unstable();
    let canon: Vec<u64> = canon.into_iter().flat_map(|(a, b)| [a, b]).collect();
    if canon != flat {
        out.push(canon);
    }
    out.retain(|c| c.len() < flat.len() || c != flat);
    out
}

/// Smaller trees for a tree too large for [`shrink`], each containing vertex 1: the
/// first half of the vertices in breadth-first order, the tree with every edge to an
/// odd-depth vertex contracted (half as deep), and the first three quarters of the
/// vertices (for failures that need most of the depth, such as a stack overflow).
pub fn halves(flat: &[u64]) -> Vec<Vec<u64>> {
    let n = vertices(flat);
    if n <= 2 {
        return Vec::new();
    }
    let (parent, order) = bfs(flat);
    let mut removed = vec![false; n + 1];
    for &v in &order[n.div_ceil(2)..] {
        removed[v as usize] = true;
    }
    let first = renumber(flat, &removed, |x| x);
    let mut removed = vec![false; n + 1];
    for &v in &order[(3 * n).div_ceil(4).max(2)..] {
        removed[v as usize] = true;
    }
    let three_quarters = renumber(flat, &removed, |x| x);
    let mut depth = vec![0u32; n + 1];
    for &v in order.iter().skip(1) {
        depth[v as usize] = depth[parent[v as usize] as usize] + 1;
    }
    let odd: Vec<bool> = (0..=n).map(|v| v >= 2 && depth[v] % 2 == 1).collect();
    let second = renumber(flat, &odd, |x| {
        if odd[x as usize] {
            u64::from(parent[x as usize])
        } else {
            x
        }
    });
    let mut out = vec![first];
    for t in [second, three_quarters] {
        if t.len() < flat.len() && !out.contains(&t) {
            out.push(t);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    #[test]
    fn check_names_the_edge() {
        assert_eq!(check(&[1, 2, 2, 3]), Ok(()));
        assert_eq!(check(&[]), Ok(()));
        assert_eq!(
            check(&[1, 2, 2, 4]),
            Err(TreeError::OutOfRange {
                edge: 1,
                vertex: 4,
                n: 3
            })
        );
        assert_eq!(check(&[1, 2, 3, 3]), Err(TreeError::SelfLoop { edge: 1 }));
        assert_eq!(
            check(&[1, 2, 2, 1]),
            Err(TreeError::Repeated { edge: 1, first: 0 })
        );
        assert_eq!(
            check(&[1, 2, 2, 3, 3, 1]),
            Err(TreeError::Cycle { edge: 2 })
        );
        assert_eq!(check(&[1, 0]).unwrap_err().edge(), Some(0));
    }

    #[test]
    fn enumeration_is_every_tree_once() {
        for n in 1..=6 {
            let trees = enumerate(n, usize::MAX);
            let turned = if (2..=4).contains(&n) { 2 } else { 1 };
            assert_eq!(
                trees.len(),
                turned * n.pow(n.saturating_sub(2) as u32).max(1)
            );
            let mut canon: Vec<Vec<u64>> = trees
                .iter()
                .map(|t| {
                    assert_eq!(check(t), Ok(()), "{t:?}");
                    let mut e: Vec<(u64, u64)> = t
                        .chunks(2)
                        .map(|e| (e[0].min(e[1]), e[0].max(e[1])))
                        .collect();
                    e.sort_unstable();
                    e.into_iter().flat_map(|(a, b)| [a, b]).collect()
                })
                .collect();
            canon.sort();
            canon.dedup();
            assert_eq!(canon.len() * turned, trees.len(), "n={n}");
        }
        // Both directions occur among the trees of 3 vertices.
        let three = enumerate(3, usize::MAX);
        assert!(three.iter().any(|t| t[0] > t[1]) && three.iter().any(|t| t[0] < t[1]));
    }

    #[test]
    fn random_shapes_are_trees() {
        let mut rng = ChaCha8Rng::seed_from_u64(5);
        for shape in SHAPES {
            for n in [1, 2, 3, 7, 50] {
                let t = random(&mut rng, n, shape);
                assert_eq!(t.len(), 2 * (n - 1));
                assert_eq!(check(&t), Ok(()), "{shape:?} {t:?}");
            }
        }
        // A path from the root: depth n - 1.
        let t = random(&mut rng, 1000, Shape::PathFromRoot);
        let (parent, order) = bfs(&t);
        let mut depth = 0;
        let mut v = *order.last().unwrap();
        while v != 1 {
            v = parent[v as usize];
            depth += 1;
        }
        assert_eq!(depth, 999);
    }

    #[test]
    fn shrink_candidates_are_smaller_trees() {
        let mut rng = ChaCha8Rng::seed_from_u64(9);
        for shape in SHAPES {
            for n in [2, 3, 9, 40, 300] {
                let t = random(&mut rng, n, shape);
                let c = shrink(&t);
                assert!(!c.is_empty(), "{shape:?} n={n}");
                for s in c {
                    assert_eq!(check(&s), Ok(()), "{shape:?} {t:?} -> {s:?}");
                    assert!(s.len() < t.len() || s != t);
                }
                for h in halves(&t) {
                    assert_eq!(check(&h), Ok(()));
                    assert!(h.len() < t.len());
                }
            }
        }
        // Path 1-2-3 written 2 1 / 3 2: drop leaf 3, contract 2, canonical form.
        let c = shrink(&[2, 1, 3, 2]);
        assert!(c.contains(&vec![2, 1]));
        assert!(c.contains(&vec![1, 2, 2, 3]));
        let path: Vec<u64> = (1..1000u64).flat_map(|v| [v, v + 1]).collect();
        // A long path halves its depth (both halves are the same path of 500), or
        // keeps three quarters of it.
        let h = halves(&path);
        let path_of = |n: u64| (1..n).flat_map(|v| [v, v + 1]).collect::<Vec<_>>();
        assert_eq!(h, vec![path_of(500), path_of(750)]);
    }
}
