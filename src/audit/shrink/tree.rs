//! The shrinker's steps for a case whose position is one rooted tree
//! ([`Problem::tree`]): along the tree's shape, then keeping its Grundy value.
//!
//! 1. **The deepest path alone**: the path from the root to a deepest vertex, written
//!    as the path `1 2, 2 3, ...`. A failure of depth (a recursive search that
//!    overflows the stack) keeps it; so do many others.
//! 2. **Depth, bisected**: the tree cut at depth `k` (every vertex deeper dropped),
//!    the smallest `k` that still fails by binary search. On a path this is its
//!    length: a stack overflow comes down to the shortest path that still crashes, in
//!    about log2(n) runs.
//! 3. **Size, bisected**: the first `k` vertices in breadth-first order, the smallest
//!    `k` that still fails (arrays sized too small).
//! 4. **Keeping the value** ([`Problem::position_value`], for trees of at most
//!    [`TREE_VALUE_MAX`] vertices): the whole tree replaced by the shortest path of
//!    the same value; each branch (an edge and the subtree below it) cut when the
//!    tree's value stays (for Green Hackenbush: two branches of equal value at one
//!    vertex, or a branch whose removal the rest compensates); each branch replaced
//!    by the shortest stalk that keeps the value (a path of length L is worth L in
//!    Green Hackenbush, so a bushy branch of value 2 becomes two edges).
//!
//! Each bisection keeps its upper end failing (only failing candidates are taken), so
//! its result fails even where failing is not monotone; where it is (a stack limit),
//! the result is the threshold.

use super::*;
use crate::tree;

/// Most vertices of a tree whose value-keeping candidates are computed (each costs a
/// value of the whole tree, so a round costs about this many squared operations).
pub const TREE_VALUE_MAX: usize = 4096;

/// Most value computations one round of the value-keeping tree steps spends.
pub const TREE_VALUE_WORK: usize = 1 << 24;

/// Most candidates of the value-keeping tree steps run in one round.
pub const TREE_VALUE_RUNS: usize = 64;

impl<P: Problem, C: Contestant + ?Sized> Shrinker<'_, '_, P, C> {
    /// Every tree step on case `ci`, when its position is a tree.
    pub(super) fn tree_steps(&mut self, ci: usize) -> R<()> {
        // Off with the game-aware steps (`AuditOptions::game_aware`), so the format-only
        // shrinker can be measured side by side.
        if !self.ctx.opts.game_aware || self.ctx.p.tree(&self.cur[ci]).is_none() {
            return Ok(());
        }
        self.deepest_path(ci)?;
        self.bisect_tree(ci, Cut::Depth)?;
        self.bisect_tree(ci, Cut::Size)?;
        self.tree_values(ci)
    }

    /// The current tree of case `ci`.
    fn tree_now(&self, ci: usize) -> Option<Vec<u64>> {
        self.ctx.p.tree(&self.cur[ci])
    }

    /// Tests case `ci` with the tree `flat`, taken when it fails.
    fn try_tree(&mut self, ci: usize, flat: Vec<u64>) -> R<bool> {
        match self.ctx.p.with_tree(&self.cur[ci], flat) {
            Some(case) => {
                let mut cases = self.cur.clone();
                cases[ci] = case;
                self.try_take(cases)
            }
            None => Ok(false),
        }
    }

    fn deepest_path(&mut self, ci: usize) -> R<()> {
        let Some(flat) = self.tree_now(ci) else {
            return Ok(());
        };
        let depth = Shape::of(&flat).max_depth();
        let p = path(depth);
        if p != flat {
            self.try_tree(ci, p)?;
        }
        Ok(())
    }

    /// Binary search for the smallest `k` whose cut of the current tree still fails.
    fn bisect_tree(&mut self, ci: usize, cut: Cut) -> R<()> {
        let Some(flat) = self.tree_now(ci) else {
            return Ok(());
        };
        let shape = Shape::of(&flat);
        // `hi` fails (the whole tree); `lo` is not known to fail.
        let (mut lo, mut hi) = match cut {
            Cut::Depth => (None, shape.max_depth()),
            Cut::Size => (Some(0), shape.order.len()),
        };
        loop {
            let low = lo.map_or(0, |l| l + 1);
            if low >= hi {
                break;
            }
            let mid = low + (hi - low) / 2;
            let candidate = match cut {
                Cut::Depth => shape.keep(&flat, |v| shape.depth[v] as usize <= mid),
                Cut::Size => shape.keep_first(&flat, mid),
            };
            if candidate != flat && self.try_tree(ci, candidate)? {
                hi = mid;
            } else {
                lo = Some(mid);
            }
        }
        Ok(())
    }

    /// The value-keeping steps (see the module's documentation), within
    /// [`TREE_VALUE_WORK`] value computations and [`TREE_VALUE_RUNS`] runs a round.
    fn tree_values(&mut self, ci: usize) -> R<()> {
        let p = self.ctx.p;
        let Some(flat) = self.tree_now(ci) else {
            return Ok(());
        };
        if tree::vertices(&flat) > TREE_VALUE_MAX {
            return Ok(());
        }
        let Some(value) = p.position_value(&self.cur[ci]) else {
            return Ok(());
        };
        let mut budget = Budget {
            work: TREE_VALUE_WORK,
            runs: TREE_VALUE_RUNS,
        };
        // The value of case `ci` with the tree `t`.
        let value_of = |s: &Self, t: &[u64], budget: &mut Budget| -> Option<u64> {
            budget.work = budget.work.checked_sub(t.len() / 2 + 1)?;
            let case = p.with_tree(&s.cur[ci], t.to_vec())?;
            p.position_value(&case)
        };
        // The whole tree as the shortest path of its value.
        let edges = flat.len() / 2;
        for len in 0..edges {
            let cand = path(len);
            match value_of(self, &cand, &mut budget) {
                Some(v) if v == value => {
                    budget.runs -= 1;
                    self.try_tree(ci, cand)?;
                    break;
                }
                Some(_) => {}
                None => break,
            }
        }
        // Branches cut, then branches as stalks, top first; after a change the tree
        // is looked at again from the same place in breadth-first order.
        let mut i = 1;
        let mut stalks = false;
        while budget.runs > 0 {
            let Some(flat) = self.tree_now(ci) else {
                return Ok(());
            };
            let shape = Shape::of(&flat);
            if i >= shape.order.len() {
                if stalks {
                    break;
                }
                stalks = true;
                i = 1;
                continue;
            }
            let c = shape.order[i] as usize;
            i += 1;
            let below = shape.subtree(c);
            let mut found = None;
            if stalks {
                // A branch of `below.len()` edges as a shorter stalk.
                for len in 1..below.len() {
                    let cand = shape.with_stalk(&flat, c, &below, len);
                    match value_of(self, &cand, &mut budget) {
                        Some(v) if v == value => {
                            found = Some(cand);
                            break;
                        }
                        Some(_) => {}
                        None => return Ok(()),
                    }
                }
            } else {
                let cand = shape.keep(&flat, |v| !below.contains(&(v as u32)));
                match value_of(self, &cand, &mut budget) {
                    Some(v) if v == value => found = Some(cand),
                    Some(_) => {}
                    None => return Ok(()),
                }
            }
            if let Some(cand) = found {
                budget.runs -= 1;
                if self.try_tree(ci, cand)? {
                    i -= 1;
                }
            }
        }
        Ok(())
    }
}

/// What a tree bisection keeps.
#[derive(Clone, Copy)]
enum Cut {
    /// The vertices of depth at most `k`.
    Depth,
    /// The first `k` vertices in breadth-first order.
    Size,
}

struct Budget {
    work: usize,
    runs: usize,
}

/// A tree rooted at vertex 1: parents, breadth-first order, depths.
struct Shape {
    parent: Vec<u32>,
    order: Vec<u32>,
    depth: Vec<u32>,
}

impl Shape {
    fn of(flat: &[u64]) -> Shape {
        let (parent, order) = tree::bfs(flat);
        let mut depth = vec![0u32; parent.len()];
        for &v in order.iter().skip(1) {
            depth[v as usize] = depth[parent[v as usize] as usize] + 1;
        }
        Shape {
            parent,
            order,
            depth,
        }
    }

    fn max_depth(&self) -> usize {
        self.order
            .iter()
            .map(|&v| self.depth[v as usize] as usize)
            .max()
            .unwrap_or(0)
    }

    /// The vertices of the subtree of `c` (`c` included), sorted.
    fn subtree(&self, c: usize) -> Vec<u32> {
        let mut inside = vec![false; self.parent.len()];
        inside[c] = true;
        let mut out = vec![c as u32];
        let start = self
            .order
            .iter()
            .position(|&v| v as usize == c)
            .unwrap_or(0);
        for &v in &self.order[start + 1..] {
            if inside[self.parent[v as usize] as usize] {
                inside[v as usize] = true;
                out.push(v);
            }
        }
        out.sort_unstable();
        out
    }

    /// The tree on the vertices `keep` holds (the root always, and with every vertex
    /// its parent, so still a tree), renumbered in label order; edges keep their
    /// order and direction.
    fn keep(&self, flat: &[u64], keep: impl Fn(usize) -> bool) -> Vec<u64> {
        let n = self.parent.len();
        let mut label = vec![0u64; n];
        let mut next = 0;
        for (v, slot) in label.iter_mut().enumerate().skip(1) {
            if v == 1 || keep(v) {
                next += 1;
                *slot = next;
            }
        }
        let mut out = Vec::with_capacity(2 * (next as usize).saturating_sub(1));
        for e in flat.chunks_exact(2) {
            let (a, b) = (label[e[0] as usize], label[e[1] as usize]);
            if a != 0 && b != 0 {
                out.extend([a, b]);
            }
        }
        out
    }

    /// The first `k` vertices in breadth-first order (at least the root).
    fn keep_first(&self, flat: &[u64], k: usize) -> Vec<u64> {
        let mut kept = vec![false; self.parent.len()];
        for &v in self.order.iter().take(k.max(1)) {
            kept[v as usize] = true;
        }
        self.keep(flat, |v| kept[v])
    }

    /// The branch at `c` (its subtree `below`) replaced by a stalk of `len` edges
    /// hanging from `c`'s parent.
    fn with_stalk(&self, flat: &[u64], c: usize, below: &[u32], len: usize) -> Vec<u64> {
        let mut out = self.keep(flat, |v| below.binary_search(&(v as u32)).is_err());
        let n = out.len() as u64 / 2 + 1;
        // The parent's new label: vertices before it that are kept, plus one.
        let p = self.parent[c] as u64;
        let removed_before = below.iter().filter(|&&v| u64::from(v) < p).count() as u64;
        let mut last = p - removed_before;
        for j in 0..len as u64 {
            out.extend([last, n + 1 + j]);
            last = n + 1 + j;
        }
        out
    }
}

/// The path `1 2, 2 3, ...` of `len` edges, rooted at its end.
fn path(len: usize) -> Vec<u64> {
    (1..=len as u64).flat_map(|v| [v, v + 1]).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn value(flat: &[u64]) -> u64 {
        // Green Hackenbush by the colon principle, from the parents in BFS order.
        let s = Shape::of(flat);
        let mut g = vec![0u64; s.parent.len()];
        for &v in s.order.iter().skip(1).rev() {
            g[s.parent[v as usize] as usize] ^= g[v as usize] + 1;
        }
        g[1]
    }

    #[test]
    fn cuts_stay_trees_rooted_at_one() {
        // 1-2, 2-3, 3-4 and 1-5, 5-6, written child first in places.
        let flat = [2, 1, 3, 2, 4, 3, 1, 5, 6, 5];
        let s = Shape::of(&flat);
        assert_eq!(s.max_depth(), 3);
        let d1 = s.keep(&flat, |v| s.depth[v] <= 1);
        assert_eq!(d1, vec![2, 1, 1, 3]);
        assert_eq!(tree::check(&d1), Ok(()));
        let first3 = s.keep_first(&flat, 3);
        assert_eq!(tree::check(&first3), Ok(()));
        assert_eq!(tree::vertices(&first3), 3);
        assert_eq!(s.subtree(2), vec![2, 3, 4]);
        let stalk = s.with_stalk(&flat, 2, &s.subtree(2), 1);
        assert_eq!(tree::check(&stalk), Ok(()));
        assert_eq!(tree::vertices(&stalk), 4);
        assert_eq!(path(3), vec![1, 2, 2, 3, 3, 4]);
        assert_eq!(value(&path(5)), 5);
    }

    #[test]
    fn stalk_keeps_a_branch_value() {
        // Root 1 with a branch at 2 holding a star of three leaves: value
        // (1 ^ 1 ^ 1) + 1 = 2, as a stalk of two edges.
        let flat = [1, 2, 2, 3, 2, 4, 2, 5, 1, 6];
        let s = Shape::of(&flat);
        let below = s.subtree(2);
        let two = s.with_stalk(&flat, 2, &below, 2);
        assert_eq!(tree::check(&two), Ok(()));
        assert_eq!(value(&two), value(&flat));
        assert_eq!(tree::vertices(&two), 4);
    }
}
