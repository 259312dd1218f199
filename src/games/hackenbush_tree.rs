//! Green Hackenbush on a rooted tree: the colon principle.
//!
//! Rules (game `hackenbush-tree`; contest problem hdu3094 "A tree game"): a tree rooted
//! at vertex 1; a move removes one edge, and every edge no longer connected to the root
//! disappears. Normal play.
//!
//! **Colon principle** (Berlekamp, Conway and Guy, *Winning Ways*, chapter 7): the
//! branches at a vertex are independent games, and a branch made of the edge to a
//! child c followed by c's subtree is worth SG(c) + 1 (cutting the stalk edge gives 0,
//! any move above it is a move of the subtree, so by induction the options are 0 and
//! the options of SG(c) shifted by one). Hence SG(v) = XOR over the children c of
//! (SG(c) + 1), and the player to move wins iff SG(root) != 0. A useful consequence:
//! SG of a tree has the parity of its number of edges (each branch adds one edge and
//! flips the parity of its value once), so a tree with an odd number of edges is
//! always a first-player win.
//!
//! **Winning moves in O(N)**: cutting the edge (p, c) changes SG(p) to
//! SG(p) ^ (SG(c) + 1), and then the values on the path from p up to the root only.
//! The map "value of v -> value of the root" is injective (x -> x + 1 and XOR with a
//! constant are), so at most one value `need(v)` of v makes the root 0: need(root) = 0,
//! and for a child v of u, need(v) + 1 = need(u) ^ SG(u) ^ (SG(v) + 1) when that is
//! non-zero (none otherwise). The cut (p, c) wins iff need(p) = SG(p) ^ (SG(c) + 1).
//! Both passes are iterative (breadth-first order), so a path of 10^5 vertices is no
//! deeper than a star.
//!
//! The fast side reads the edges itself (compressed adjacency arrays) and never calls
//! the oracle's move generator.

use crate::games::declared;
use crate::verify::{Subject, Tier1Report};
use rand::Rng;
use rand_chacha::ChaCha8Rng;
use sgcheck_oracles::games::hackenbush_tree::{Cut, HackenbushTree, Tree, ROOT};
use sgcheck_oracles::Analysis;
use sgcheck_oracles::SearchError;
use std::collections::HashMap;

/// A tree as the fast solver sees it: vertices 1..=n, breadth-first order from the
/// root, each vertex's parent and its Grundy value.
pub struct Rooted {
    /// Vertices in breadth-first order from the root (the root first).
    pub order: Vec<u32>,
    /// `parent[v]` (0 for the root and for vertices not reached).
    pub parent: Vec<u32>,
    /// `sg[v]`: the Grundy value of the subtree hanging from v.
    pub sg: Vec<u64>,
}

/// Roots the tree of `n` vertices and undirected `edges` (endpoints in 1..=n) at
/// vertex 1 and computes every subtree's Grundy value by the colon principle, without
/// recursion. Vertices not connected to the root are left out of `order`.
pub fn root(n: usize, edges: impl Iterator<Item = (u32, u32)> + Clone) -> Rooted {
    // Compressed adjacency: degree counts, prefix sums, then the neighbours.
    let mut start = vec![0u32; n + 2];
    for (u, v) in edges.clone() {
        start[u as usize] += 1;
        start[v as usize] += 1;
    }
    let mut acc = 0u32;
    for s in start.iter_mut() {
        let d = *s;
        *s = acc;
        acc += d;
    }
    let mut fill = start.clone();
    let mut adj = vec![0u32; acc as usize];
    for (u, v) in edges {
        adj[fill[u as usize] as usize] = v;
        fill[u as usize] += 1;
        adj[fill[v as usize] as usize] = u;
        fill[v as usize] += 1;
    }
    let mut parent = vec![0u32; n + 1];
    let mut order = Vec::with_capacity(n);
    let mut seen = vec![false; n + 1];
    if n >= 1 {
        order.push(ROOT);
        seen[ROOT as usize] = true;
    }
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
    let mut sg = vec![0u64; n + 1];
    for &v in order.iter().skip(1).rev() {
        let p = parent[v as usize] as usize;
        sg[p] ^= sg[v as usize] + 1;
    }
    Rooted { order, parent, sg }
}

/// Whether the player to move wins on the tree of `n` vertices and these undirected
/// edges, rooted at vertex 1.
pub fn first_wins(n: usize, edges: impl Iterator<Item = (u32, u32)> + Clone) -> bool {
    let r = root(n, edges);
    n >= 1 && r.sg[ROOT as usize] != 0
}

/// Every winning cut, as `(parent, child)`, sorted by (parent, child).
pub fn winning_cuts(r: &Rooted) -> Vec<(u32, u32)> {
    let Some(&root) = r.order.first() else {
        return Vec::new();
    };
    let mut need: Vec<Option<u64>> = vec![None; r.sg.len()];
    need[root as usize] = Some(0);
    for &v in r.order.iter().skip(1) {
        let u = r.parent[v as usize] as usize;
        need[v as usize] = need[u].and_then(|nu| {
            let plus_one = nu ^ r.sg[u] ^ (r.sg[v as usize] + 1);
            plus_one.checked_sub(1)
        });
    }
    let mut cuts: Vec<(u32, u32)> = r
        .order
        .iter()
        .skip(1)
        .filter(|&&c| {
            let p = r.parent[c as usize] as usize;
            need[p] == Some(r.sg[p] ^ (r.sg[c as usize] + 1))
        })
        .map(|&c| (r.parent[c as usize], c))
        .collect();
    cuts.sort_unstable();
    cuts
}

/// The whole analysis of an oracle position: verdict and every winning cut.
pub fn analyze(pos: &Tree) -> Analysis<Cut> {
    let n = pos.0.iter().map(|&(a, b)| a.max(b)).max().unwrap_or(ROOT) as usize;
    let r = root(n, pos.0.iter().copied());
    let win = r.sg[ROOT as usize] != 0;
    let winning = if win {
        winning_cuts(&r)
            .into_iter()
            .map(|(parent, child)| Cut { parent, child })
            .collect()
    } else {
        Vec::new()
    };
    Analysis {
        win,
        winning,
        remoteness: None,
    }
}

/// The oracle's position for flat undirected edges `[u1, v1, u2, v2, ...]` (see
/// [`crate::tree`]); an error when they are not a tree containing vertex 1.
pub fn tree_of(flat: &[u64]) -> Result<Tree, String> {
    let edges: Vec<(u32, u32)> = flat
        .chunks_exact(2)
        .map(|e| {
            let v = |x: u64| u32::try_from(x).map_err(|_| format!("vertex {x} is too large"));
            Ok((v(e[0])?, v(e[1])?))
        })
        .collect::<Result<_, String>>()?;
    Tree::from_undirected(&edges)
}

// -------------------------------------------------------------------------------
// Tier 1: the colon principle against a mex table over unlabelled rooted trees.

/// The canonical form of a rooted unlabelled tree: `(` + the sorted forms of the
/// children's subtrees + `)`.
fn canonical(children: &[Vec<usize>], v: usize) -> String {
    let mut parts: Vec<String> = children[v]
        .iter()
        .map(|&c| canonical(children, c))
        .collect();
    parts.sort();
    format!("({})", parts.concat())
}

/// The subtrees (canonical forms) of a canonical form's root.
fn split_children(form: &str) -> Vec<&str> {
    let inner = &form[1..form.len() - 1];
    let mut out = Vec::new();
    let (mut depth, mut start) = (0, 0);
    for (i, ch) in inner.char_indices() {
        match ch {
            '(' => depth += 1,
            _ => {
                depth -= 1;
                if depth == 0 {
                    out.push(&inner[start..=i]);
                    start = i + 1;
                }
            }
        }
    }
    out
}

/// Every canonical form reachable by one cut: the subtree at one child removed
/// whole, or one cut inside a child's subtree.
fn cut_options(form: &str) -> Vec<String> {
    let kids = split_children(form);
    let mut out = Vec::new();
    for i in 0..kids.len() {
        let others: Vec<&str> = kids
            .iter()
            .enumerate()
            .filter(|&(j, _)| j != i)
            .map(|(_, k)| *k)
            .collect();
        let mut rebuild = |sub: Option<String>| {
            let mut parts: Vec<String> = others.iter().map(|s| s.to_string()).collect();
            parts.extend(sub);
            parts.sort();
            out.push(format!("({})", parts.concat()));
        };
        rebuild(None);
        for inner in cut_options(kids[i]) {
            rebuild(Some(inner));
        }
    }
    out
}

/// Every rooted unlabelled tree with `n` vertices, as canonical forms (from the
/// labelled trees of `n` vertices, rooted at 1, deduplicated).
pub fn rooted_shapes(n: usize) -> Vec<String> {
    let mut forms: Vec<String> = Vec::new();
    let mut seen = std::collections::HashSet::new();
    // Rooted shapes of n vertices come from those of n - 1 with one leaf added.
    let mut frontier = vec![vec![Vec::<usize>::new()]];
    for _ in 1..n {
        let mut next = Vec::new();
        let mut next_seen = std::collections::HashSet::new();
        for children in &frontier {
            for v in 0..children.len() {
                let mut c = children.clone();
                let new = c.len();
                c.push(Vec::new());
                c[v].push(new);
                if next_seen.insert(canonical(&c, 0)) {
                    next.push(c);
                }
            }
        }
        frontier = next;
    }
    for c in &frontier {
        let f = canonical(c, 0);
        if seen.insert(f.clone()) {
            forms.push(f);
        }
    }
    forms
}

/// Edges (parent, child) of a canonical form, vertices numbered in preorder from 1.
fn form_edges(form: &str) -> Vec<(u32, u32)> {
    let mut edges = Vec::new();
    let mut stack: Vec<u32> = Vec::new();
    let mut next = 0u32;
    for ch in form.chars() {
        if ch == '(' {
            next += 1;
            if let Some(&p) = stack.last() {
                edges.push((p, next));
            }
            stack.push(next);
        } else {
            stack.pop();
        }
    }
    edges
}

/// Largest number of vertices of tier 1's rooted trees.
const TIER1_MAX_VERTICES: usize = 10;

/// The verify subject of `hackenbush-tree`.
#[derive(Default)]
pub struct HackenbushTreeSubject;

/// Largest tree (vertices) of the smallest-first enumeration: every labelled tree.
const ENUM_MAX_VERTICES: usize = 7;
/// Largest random tree of tier 2.
const RANDOM_MAX_VERTICES: usize = 12;

/// Tier 1 with the fast side given (the closed form the game's solver uses, or a
/// planted wrong one in the tests): the same comparisons, the same tables.
fn tier1_with(colon_value: impl Fn(usize, &[(u32, u32)]) -> u64) -> Tier1Report {
    let mut report = Tier1Report::default();
    let mut table: HashMap<String, u64> = HashMap::new();
    for n in 1..=TIER1_MAX_VERTICES {
        for form in rooted_shapes(n) {
            let g = super::mex(cut_options(&form).iter().map(|o| table[o]));
            let edges = form_edges(&form);
            let colon = colon_value(n, &edges);
            report.compare(format!("rooted tree {form}"), colon, g);
            table.insert(form, g);
        }
    }
    report
}

impl Subject for HackenbushTreeSubject {
    type Rules = HackenbushTree;

    fn id(&self) -> &'static str {
        "hackenbush-tree"
    }

    fn reproduce(&self, rules: &HackenbushTree, pos: &Tree) -> String {
        crate::verify::check_command(self.id(), &rules.to_string(), &pos.to_string())
    }

    /// The colon principle against the mex of the options, over every rooted
    /// unlabelled tree of up to `TIER1_MAX_VERTICES` vertices (canonical forms).
    fn tier1(&self) -> Tier1Report {
        tier1_with(|n, edges| root(n, edges.iter().copied()).sg[ROOT as usize])
    }

    /// Size = number of edges: every labelled tree of size + 1 vertices, while there
    /// are at most `ENUM_MAX_VERTICES` (16,807 trees of 7 vertices).
    fn instances(&self, size: u32) -> Vec<(HackenbushTree, Tree)> {
        let n = size as usize + 1;
        if n > ENUM_MAX_VERTICES {
            return Vec::new();
        }
        // Oracle positions are oriented from the root, so turned copies coincide.
        let mut trees: Vec<Tree> = crate::tree::enumerate(n, usize::MAX)
            .iter()
            .map(|e| tree_of(e).expect("a Prüfer tree"))
            .collect();
        trees.sort_unstable();
        trees.dedup();
        trees.into_iter().map(|t| (HackenbushTree, t)).collect()
    }

    fn random_instance(&self, rng: &mut ChaCha8Rng) -> (HackenbushTree, Tree) {
        let n = rng.gen_range(1..=RANDOM_MAX_VERTICES);
        let shape = crate::tree::SHAPES[rng.gen_range(0..crate::tree::SHAPES.len())];
        let edges = crate::tree::random(rng, n, shape);
        (HackenbushTree, tree_of(&edges).expect("a random tree"))
    }

    fn fast(&self, _rules: &HackenbushTree, pos: &Tree) -> Analysis<Cut> {
        analyze(pos)
    }
}

// ---------------------------------------------------------------------------------
// How declarations use Green Hackenbush on a tree rooted at vertex 1. The position is
// the tree's edges as the input gives them, flat: `[u1, v1, u2, v2, ...]`
// (undirected, any order; n - 1 edges on vertices 1..=n), which is what a
// declaration's `tree` field hands over.

/// Most vertices of a hackenbush-tree position.
pub const HACKENBUSH_MAX_VERTICES: u64 = 1 << 22;

fn edge_pairs(p: &[u64]) -> impl Iterator<Item = (u32, u32)> + Clone + '_ {
    p.chunks_exact(2).map(|e| (e[0] as u32, e[1] as u32))
}

impl declared::Declare for HackenbushTreeSubject {
    type Oracle = HackenbushTree;
    type Fast = ();
    const ID: &'static str = "hackenbush-tree";
    const POSITION: &'static str =
        "a tree on vertices 1..=n rooted at 1: its n - 1 edges `u v`, flat (a `tree` field)";
    const MOVE_FIELDS: &'static [&'static str] = &["parent", "child"];
    const REACH: declared::Reach = declared::Reach {
        max_value: HACKENBUSH_MAX_VERTICES,
        max_len: 2 * (HACKENBUSH_MAX_VERTICES - 1),
        max_moves_work: u64::MAX,
    };

    fn build(_: &[declared::ParamValue<'_>]) -> Result<(), String> {
        Ok(())
    }
    fn check(_: &(), position: &[u64]) -> Result<(), String> {
        if crate::tree::vertices(position) as u64 > HACKENBUSH_MAX_VERTICES {
            return Err(format!("more than {HACKENBUSH_MAX_VERTICES} vertices"));
        }
        crate::tree::check(position).map_err(|e| match e.edge() {
            Some(i) => format!("edge {}: {e}", i + 1),
            None => e.to_string(),
        })
    }
    fn first_wins(_: &(), position: &[u64]) -> Result<bool, String> {
        Ok(first_wins(
            crate::tree::vertices(position),
            edge_pairs(position),
        ))
    }
    fn analyze(_: &(), position: &[u64]) -> Result<Analysis<Cut>, String> {
        let r = root(crate::tree::vertices(position), edge_pairs(position));
        let win = r.sg[1] != 0;
        let winning = if win {
            winning_cuts(&r)
                .into_iter()
                .map(|(parent, child)| Cut { parent, child })
                .collect()
        } else {
            Vec::new()
        };
        Ok(Analysis {
            win,
            winning,
            remoteness: None,
        })
    }
    /// The colon principle's value of the whole tree (what the audit's shrinker keeps
    /// while it cuts branches and shortens paths).
    fn position_value(_: &(), position: &[u64]) -> Option<u64> {
        crate::tree::check(position).ok()?;
        let r = root(crate::tree::vertices(position), edge_pairs(position));
        Some(r.sg[ROOT as usize])
    }
    fn move_fields(m: &Cut, _: &[u64]) -> [u64; 4] {
        [u64::from(m.parent), u64::from(m.child), 0, 0]
    }
    fn oracle(_: &(), p: &[u64], budget: usize) -> Result<(HackenbushTree, Tree), SearchError> {
        let t = tree_of(p).map_err(|_| SearchError::Budget { budget })?;
        Ok((HackenbushTree, t))
    }
    /// A tree's value has the parity of its edge count, so only an even number of
    /// edges can lose. Then: two copies of one random tree (a random recursive tree,
    /// or a path: the deepest losing tree) hang from vertex 1, worth x ^ x = 0, under
    /// a random labelling, edges in random order and direction.
    fn make_losing(_: &(), p: &mut [u64], _: &[(u64, u64)], rng: &mut ChaCha8Rng) -> bool {
        let edges = p.len() / 2;
        if !p.len().is_multiple_of(2) || !edges.is_multiple_of(2) {
            return false;
        }
        let half = edges / 2;
        let n = edges + 1;
        let path = rng.gen_bool(0.3);
        // Positions 1..=half form one copy, half+1..=edges the other; 0 is the root.
        let parent_of = |i: usize, rng: &mut ChaCha8Rng| -> usize {
            if path {
                i - 1
            } else {
                rng.gen_range(0..i)
            }
        };
        let shape: Vec<usize> = (1..=half).map(|i| parent_of(i, rng)).collect();
        let mut label: Vec<u64> = (2..=n as u64).collect();
        for i in (1..label.len()).rev() {
            let j = rng.gen_range(0..=i);
            label.swap(i, j);
        }
        let name = |pos: usize, copy: usize| -> u64 {
            if pos == 0 {
                1
            } else {
                label[copy * half + pos - 1]
            }
        };
        let mut list: Vec<(u64, u64)> = Vec::with_capacity(edges);
        for copy in 0..2 {
            for (i, &par) in shape.iter().enumerate() {
                let (a, b) = (name(par, copy), name(i + 1, copy));
                list.push(if rng.gen_bool(0.5) { (a, b) } else { (b, a) });
            }
        }
        for i in (1..list.len()).rev() {
            let j = rng.gen_range(0..=i);
            list.swap(i, j);
        }
        for (slot, (a, b)) in p.chunks_exact_mut(2).zip(list) {
            slot[0] = a;
            slot[1] = b;
        }
        true
    }
}

// ---------------------------------------------------------------------------------
// The `hackenbush_tree_agree` fuzz target.

/// `hackenbush_tree_agree`: a tree of up to 11 vertices, one byte per vertex after
/// the root: vertex k + 2 hangs from vertex (byte mod (k + 1)) + 1.
impl crate::fuzzing::AgreeTarget for HackenbushTreeSubject {
    fn fuzz_instance(
        &self,
        _: &[u8],
        rest: &[u8],
    ) -> Option<(
        HackenbushTree,
        <HackenbushTree as sgcheck_oracles::Rules>::Position,
    )> {
        if rest.len() > 10 {
            return None;
        }
        let flat: Vec<u64> = rest
            .iter()
            .enumerate()
            .flat_map(|(k, &b)| [u64::from(b) % (k as u64 + 1) + 1, k as u64 + 2])
            .collect();
        Some((HackenbushTree, tree_of(&flat).ok()?))
    }
}

// ---------------------------------------------------------------------------------
// Its line in the registry.

impl crate::games::BuiltIn for HackenbushTreeSubject {
    const ID: &'static str = "hackenbush-tree";
    const SUMMARY: &'static str =
        "a tree rooted at vertex 1; remove one edge, and every edge no longer connected \
         to the root disappears (Green Hackenbush); normal play. Rules: -";
    const DECLARABLE: Option<&'static dyn declared::DeclarableGame> =
        Some(declared::Declared::<Self>::GAME);
}

// ---------------------------------------------------------------------------------
// Checking users' own solvers of it ([`crate::Game`]).

/// An oracle position's edges, flat, its labels numbered 1..=n (oracle positions may
/// skip labels after cuts).
fn flat_of(pos: &Tree) -> Vec<u64> {
    let mut labels: Vec<u32> = pos.0.iter().flat_map(|&(a, b)| [a, b]).collect();
    labels.push(1);
    labels.sort_unstable();
    labels.dedup();
    pos.0
        .iter()
        .flat_map(|&(a, b)| [a, b])
        .map(|x| labels.binary_search(&x).map_or(0, |i| i as u64 + 1))
        .collect()
}

/// Smaller trees of the same value (the colon principle's): the stalk (a path from
/// the root) of that value, then the tree with one branch (an edge and the subtree
/// below it) cut, wherever that keeps the value. Each cut is checked by computing the
/// value again, O(n) a cut.
pub fn value_keeping_cuts(flat: &[u64]) -> Vec<Vec<u64>> {
    let n = crate::tree::vertices(flat);
    let value = |f: &[u64]| root(crate::tree::vertices(f), edge_pairs(f)).sg[ROOT as usize];
    let v0 = value(flat);
    let mut out = Vec::new();
    // A stalk of L edges is worth L.
    if (v0 as usize) < n - 1 {
        out.push((1..=v0).flat_map(|v| [v, v + 1]).collect());
    }
    let (parent, order) = crate::tree::bfs(flat);
    for (k, &c) in order.iter().enumerate().skip(1) {
        let mut inside = vec![false; n + 1];
        inside[c as usize] = true;
        for &v in &order[k + 1..] {
            if inside[parent[v as usize] as usize] {
                inside[v as usize] = true;
            }
        }
        let mut label = vec![0u64; n + 1];
        let mut next = 0;
        for v in 1..=n {
            if !inside[v] {
                next += 1;
                label[v] = next;
            }
        }
        let cut: Vec<u64> = flat
            .chunks_exact(2)
            .filter(|e| label[e[0] as usize] != 0 && label[e[1] as usize] != 0)
            .flat_map(|e| [label[e[0] as usize], label[e[1] as usize]])
            .collect();
        if value(&cut) == v0 && !out.contains(&cut) {
            out.push(cut);
        }
    }
    out
}

impl crate::Game for HackenbushTree {
    from_subject!(HackenbushTreeSubject);
    /// Smaller trees of the same value ([`value_keeping_cuts`]): what the library's
    /// fuzz bodies and quickcheck route try first.
    fn shrink_keeping_value(&self, pos: &Tree) -> Vec<(Self, Tree)> {
        value_keeping_cuts(&flat_of(pos))
            .iter()
            .filter_map(|t| tree_of(t).ok())
            .filter(|t| t != pos)
            .map(|t| (HackenbushTree, t))
            .collect()
    }
    /// Fewer vertices (a leaf dropped, the rest renumbered) and shorter paths (an
    /// edge contracted), through [`crate::tree::shrink`].
    fn shrink(&self, pos: &Tree) -> Vec<(Self, Tree)> {
        let flat = flat_of(pos);
        crate::tree::shrink(&flat)
            .iter()
            .filter_map(|t| tree_of(t).ok())
            .filter(|t| t != pos)
            .map(|t| (HackenbushTree, t))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::verify::PlantedTier1;
    #[test]
    fn planted_tier1_bug_reaches_the_report() {
        // The colon principle adding instead of xor-ing the values of the branches
        // at the root: wrong first on the root with two single edges (1 + 1 != 0).
        let planted = || {
            tier1_with(|n, edges| {
                let r = root(n, edges.iter().copied());
                let branches: Vec<u64> = edges
                    .iter()
                    .filter(|&&(a, b)| a == ROOT || b == ROOT)
                    .map(|&(a, b)| {
                        let child = if a == ROOT { b } else { a };
                        r.sg[child as usize] + 1
                    })
                    .collect();
                branches.iter().sum::<u64>()
            })
        };
        PlantedTier1 {
            subject: &HackenbushTreeSubject,
            tier1: &planted,
        }
        .assert_caught("rooted tree");
    }

    use crate::verify::Planted;
    use sgcheck_oracles::Solver;
    use std::time::Duration;

    fn edges(s: &[(u32, u32)]) -> impl Iterator<Item = (u32, u32)> + Clone + '_ {
        s.iter().copied()
    }

    #[test]
    fn spec_samples_hdu3094() {
        // hdu3094 statement sample: Alice / Bob / Alice.
        assert!(first_wins(3, edges(&[(1, 2), (2, 3)])));
        assert!(!first_wins(3, edges(&[(1, 2), (1, 3)])));
        let ten = [
            (6, 2),
            (4, 3),
            (8, 4),
            (9, 5),
            (8, 6),
            (2, 7),
            (5, 8),
            (1, 9),
            (6, 10),
        ];
        assert!(first_wins(10, edges(&ten)));
        assert!(!first_wins(1, edges(&[])));
    }

    #[test]
    fn shapes_are_counted_right() {
        // Rooted unlabelled trees by vertices: OEIS A000081 (1, 1, 2, 4, 9, 20, 48,
        // 115, 286, 719). Labelled trees: Cayley's n^(n-2).
        let counts: Vec<usize> = (1..=10).map(|n| rooted_shapes(n).len()).collect();
        assert_eq!(counts, [1, 1, 2, 4, 9, 20, 48, 115, 286, 719]);
        for n in 1..=6 {
            let trees = HackenbushTreeSubject.instances(n - 1);
            assert_eq!(trees.len(), n.pow(n.saturating_sub(2)).max(1) as usize);
            let distinct: std::collections::HashSet<_> = trees.iter().map(|t| &t.1).collect();
            assert_eq!(distinct.len(), trees.len(), "n={n}");
        }
    }

    #[test]
    fn tier1_agrees() {
        let r = HackenbushTreeSubject.tier1();
        assert_eq!(r.disagreements, 0, "{:?}", r.first);
        assert_eq!(r.checked, 1 + 1 + 2 + 4 + 9 + 20 + 48 + 115 + 286 + 719);
    }

    #[test]
    fn agrees_with_oracle_on_all_trees_of_six_vertices() {
        let mut solver = Solver::new(HackenbushTree);
        for n in 1..=6 {
            for (_, t) in HackenbushTreeSubject.instances(n as u32 - 1) {
                let o = solver.analyze(&t).unwrap();
                let f = analyze(&t);
                assert_eq!((f.win, f.winning), (o.win, o.winning), "{t}");
            }
        }
    }

    #[test]
    fn deep_path_is_iterative() {
        // A path of 10^5 vertices from vertex 1 (edges written child first): SG is
        // its length, 10^5 - 1; cutting (p, p + 1) leaves p - 1 edges, so the one
        // winning cut is the first edge.
        let n = 100_000u32;
        let path: Vec<(u32, u32)> = (1..n).map(|v| (v + 1, v)).collect();
        let r = root(n as usize, path.iter().copied());
        assert_eq!(r.sg[1], u64::from(n - 1));
        assert_eq!(winning_cuts(&r), vec![(1, 2)]);
    }

    /// A planted bug: edges treated as directed (the first end taken as the parent).
    fn directed(_: &HackenbushTree, pos: &Tree) -> Analysis<Cut> {
        let flipped = Tree(pos.0.iter().map(|&(p, c)| (c, p)).collect());
        let n = pos.0.iter().map(|&(a, b)| a.max(b)).max().unwrap_or(1) as usize;
        let mut sg = vec![0u64; n + 1];
        // Children of u = every v with an edge written (u, v): here flipped.
        for _ in 0..n {
            let mut next = vec![0u64; n + 1];
            for &(u, v) in &flipped.0 {
                next[u as usize] ^= sg[v as usize] + 1;
            }
            sg = next;
        }
        Analysis {
            win: sg[1] != 0,
            winning: Vec::new(),
            remoteness: None,
        }
    }

    #[test]
    fn planted_directed_edges_are_caught_small() {
        let d = Planted {
            subject: &HackenbushTreeSubject,
            fast: directed,
        }
        .first_disagreement(Duration::from_secs(3))
        .expect("planted bug not found");
        // The smallest tree: one edge 1-2.
        assert_eq!(d.position, "1-2", "{d:?}");
    }

    #[test]
    fn value_keeping_cuts_keep_the_value() {
        // Root 1 with two equal branches (1-2-3 and 1-4-5) and a leaf 6: value
        // 2 ^ 2 ^ 1 = 1, a stalk of one edge.
        let flat = [1, 2, 2, 3, 1, 4, 4, 5, 1, 6];
        let value = |f: &[u64]| root(crate::tree::vertices(f), edge_pairs(f)).sg[1];
        let cuts = value_keeping_cuts(&flat);
        assert_eq!(cuts[0], [1, 2]);
        for c in &cuts {
            assert_eq!(crate::tree::check(c), Ok(()));
            assert_eq!(value(c), 1, "{c:?}");
            assert!(c.len() < flat.len());
        }
    }
}
