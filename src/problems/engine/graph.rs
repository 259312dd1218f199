//! Graph fields: directed acyclic graphs on the vertices 1..=n, their edges flat
//! (`u1 v1 u2 v2 ...`): the check that names a cycle, random graphs for the generators
//! and every small graph for the smallest-first enumeration.

use rand::Rng;
use rand_chacha::ChaCha8Rng;

/// Whether the edges `flat` (pairs `u v`) form a graph on 1..=n without a cycle; the
/// error names an end out of range, or one cycle, vertex by vertex.
pub(crate) fn check_dag(n: u64, flat: &[u64]) -> Result<(), String> {
    check_dag_written(n, flat, 0)
}

/// [`check_dag`], the error naming the vertices as the input writes them: `shift`
/// lower than held (1 for vertices numbered from 0).
pub(crate) fn check_dag_written(n: u64, flat: &[u64], shift: u64) -> Result<(), String> {
    let shown = |x: u64| i128::from(x) - i128::from(shift);
    if !flat.len().is_multiple_of(2) {
        return Err("an edge has one end".into());
    }
    if let Some((i, e)) = flat
        .chunks_exact(2)
        .enumerate()
        .find(|(_, e)| e.iter().any(|&x| x == 0 || x > n))
    {
        return Err(format!(
            "edge {} {} {}: the vertices are {}..={}",
            i + 1,
            shown(e[0]),
            shown(e[1]),
            shown(1),
            shown(n)
        ));
    }
    let n = n as usize;
    // Kahn's algorithm on the out-degrees: what is left is on or behind a cycle.
    let mut succ_start = vec![0usize; n + 2];
    for e in flat.chunks_exact(2) {
        succ_start[e[0] as usize + 1] += 1;
    }
    for u in 1..=n + 1 {
        succ_start[u] += succ_start[u - 1];
    }
    let mut succ = vec![0u64; flat.len() / 2];
    let mut fill = succ_start.clone();
    let mut pred_count = vec![0usize; n + 1];
    for e in flat.chunks_exact(2) {
        succ[fill[e[0] as usize]] = e[1];
        fill[e[0] as usize] += 1;
        pred_count[e[1] as usize] += 1;
    }
    let mut ready: Vec<usize> = (1..=n).filter(|&u| pred_count[u] == 0).collect();
    let mut done = vec![false; n + 1];
    while let Some(u) = ready.pop() {
        done[u] = true;
        for &v in &succ[succ_start[u]..succ_start[u + 1]] {
            let v = v as usize;
            pred_count[v] -= 1;
            if pred_count[v] == 0 {
                ready.push(v);
            }
        }
    }
    let Some(start) = (1..=n).find(|&u| !done[u]) else {
        return Ok(());
    };
    // Every vertex left has a predecessor left: walk backwards until a vertex
    // repeats, then that stretch is a cycle.
    let mut pred_left = vec![0u64; n + 1];
    for e in flat.chunks_exact(2) {
        if !done[e[0] as usize] && !done[e[1] as usize] {
            pred_left[e[1] as usize] = e[0];
        }
    }
    let mut seen_at = vec![usize::MAX; n + 1];
    let mut walk = Vec::new();
    let mut u = start;
    while seen_at[u] == usize::MAX {
        seen_at[u] = walk.len();
        walk.push(u);
        u = pred_left[u] as usize;
    }
    let mut cycle: Vec<usize> = walk[seen_at[u]..].to_vec();
    cycle.reverse();
    cycle.push(cycle[0]);
    let text: Vec<String> = cycle.iter().map(|&u| shown(u as u64).to_string()).collect();
    Err(format!(
        "the edges make a cycle {} (a token could move forever)",
        text.join(" -> ")
    ))
}

/// A random graph on 1..=n with `m` distinct edges (at most n(n - 1)/2) and no
/// cycle: the edges go forward in a random order of the vertices, listed in a random
/// order.
pub(crate) fn random_dag(rng: &mut ChaCha8Rng, n: u64, m: u64) -> Vec<u64> {
    let most = n.saturating_mul(n.saturating_sub(1)) / 2;
    let m = m.min(most);
    let mut order: Vec<u64> = (1..=n).collect();
    for i in (1..order.len()).rev() {
        let j = rng.gen_range(0..=i);
        order.swap(i, j);
    }
    let mut pairs: Vec<(u64, u64)> = Vec::with_capacity(m as usize);
    if m.saturating_mul(3) >= most {
        // Dense: every pair, then a sample of them.
        for a in 0..n {
            for b in a + 1..n {
                pairs.push((a, b));
            }
        }
        for i in 0..m as usize {
            let j = rng.gen_range(i..pairs.len());
            pairs.swap(i, j);
        }
        pairs.truncate(m as usize);
    } else {
        let mut seen = rustc_hash::FxHashSet::default();
        while (pairs.len() as u64) < m {
            let a = rng.gen_range(0..n);
            let b = rng.gen_range(0..n);
            if a != b && seen.insert((a.min(b), a.max(b))) {
                pairs.push((a.min(b), a.max(b)));
            }
        }
    }
    pairs
        .into_iter()
        .flat_map(|(a, b)| [order[a as usize], order[b as usize]])
        .collect()
}

/// Every list of `m` edges on 1..=n without a cycle, in every order (an input may
/// list its edges in any order, and twice); at most `cap`. With `adjacency`, as
/// adjacency lists read them: grouped by tail in vertex order, no edge twice (each
/// vertex's successors still in every order).
pub(crate) fn enumerate_dags(n: u64, m: u64, cap: usize, adjacency: bool) -> Vec<Vec<u64>> {
    let pairs: Vec<[u64; 2]> = (1..=n)
        .flat_map(|u| (1..=n).filter(move |&v| v != u).map(move |v| [u, v]))
        .collect();
    let mut out = Vec::new();
    let mut cur: Vec<u64> = Vec::new();
    fn go(
        pairs: &[[u64; 2]],
        (m, n, adjacency): (u64, u64, bool),
        cur: &mut Vec<u64>,
        out: &mut Vec<Vec<u64>>,
        cap: usize,
    ) {
        if out.len() >= cap {
            return;
        }
        if cur.len() as u64 == 2 * m {
            out.push(cur.clone());
            return;
        }
        for p in pairs {
            if adjacency
                && (cur.len() >= 2 && p[0] < cur[cur.len() - 2]
                    || cur.chunks_exact(2).any(|e| e == p))
            {
                continue;
            }
            cur.extend_from_slice(p);
            // A cycle stays a cycle with more edges: cut the branch here.
            if check_dag(n, cur).is_ok() {
                go(pairs, (m, n, adjacency), cur, out, cap);
            }
            cur.truncate(cur.len() - 2);
            if out.len() >= cap {
                return;
            }
        }
    }
    go(&pairs, (m, n, adjacency), &mut cur, &mut out, cap);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    #[test]
    fn a_cycle_is_named() {
        assert_eq!(check_dag(3, &[1, 2, 2, 3]), Ok(()));
        assert_eq!(
            check_dag(4, &[1, 2, 2, 3, 3, 4, 4, 2]),
            Err("the edges make a cycle 3 -> 4 -> 2 -> 3 (a token could move forever)".into())
        );
        assert_eq!(
            check_dag(2, &[1, 1]),
            Err("the edges make a cycle 1 -> 1 (a token could move forever)".into())
        );
        assert!(check_dag(2, &[1, 3]).unwrap_err().contains("1..=2"));
    }

    #[test]
    fn random_graphs_have_no_cycle_and_the_edges_asked_for() {
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        for (n, m) in [(1, 0), (2, 1), (5, 10), (30, 20), (100, 4000)] {
            let g = random_dag(&mut rng, n, m);
            assert_eq!(g.len() as u64, 2 * m);
            assert_eq!(check_dag(n, &g), Ok(()));
            let mut e: Vec<_> = g
                .chunks(2)
                .map(|e| (e[0].min(e[1]), e[0].max(e[1])))
                .collect();
            e.sort_unstable();
            e.dedup();
            assert_eq!(e.len() as u64, m, "distinct edges");
        }
    }

    #[test]
    fn small_graphs_are_counted() {
        // Labelled acyclic digraphs: 1, 1, 3, 25 on 0..=3 vertices (OEIS A003024).
        // The edge lists in increasing order are the graphs, once each.
        let increasing = |g: &Vec<u64>| g.chunks(2).zip(g.chunks(2).skip(1)).all(|(a, b)| a < b);
        let all = |n: u64| {
            (0..=n * (n - 1) / 2)
                .map(|m| {
                    enumerate_dags(n, m, 1 << 20, false)
                        .iter()
                        .filter(|g| increasing(g))
                        .count()
                })
                .sum::<usize>()
        };
        assert_eq!(all(1), 1);
        assert_eq!(all(2), 3);
        assert_eq!(all(3), 25);
        assert_eq!(all(4), 543);
        // Every order and repeat: two edges on two vertices, 1 2 or 2 1, twice over
        // the same direction only (two directions make a cycle).
        assert_eq!(
            enumerate_dags(2, 2, 100, false),
            vec![vec![1, 2, 1, 2], vec![2, 1, 2, 1]]
        );
        // As adjacency lists: each graph once per order of each vertex's successors,
        // so 1, 3, 25, 543 again when the successors are in increasing order, and no
        // edge twice.
        let lines_increasing = |g: &Vec<u64>| {
            g.chunks(2)
                .zip(g.chunks(2).skip(1))
                .all(|(a, b)| a[0] < b[0] || a[1] < b[1])
        };
        let grouped = |n: u64| {
            (0..=n * (n - 1) / 2)
                .map(|m| {
                    let all = enumerate_dags(n, m, 1 << 20, true);
                    for g in &all {
                        assert!(g
                            .chunks(2)
                            .zip(g.chunks(2).skip(1))
                            .all(|(a, b)| a[0] <= b[0]));
                    }
                    all.iter().filter(|g| lines_increasing(g)).count()
                })
                .sum::<usize>()
        };
        assert_eq!(grouped(3), 25);
        assert_eq!(grouped(4), 543);
        assert!(enumerate_dags(2, 2, 100, true).is_empty());
        assert_eq!(enumerate_dags(3, 2, 100, true).len(), 15);
    }
}
