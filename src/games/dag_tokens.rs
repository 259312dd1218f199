//! Tokens on a directed acyclic graph: the fast side.
//!
//! Rules: the oracle's [`sgcheck_oracles::games::dag_tokens`] (a move slides one token
//! along one edge; normal play). One token is a component, so a position's value is the
//! XOR of its tokens' vertex values, and the value of a vertex is the mex of its
//! successors' values (Sprague–Grundy). This side reads the graph's edges itself and
//! computes the values in one pass over the vertices in reverse topological order
//! (Kahn's algorithm on the reversed edges); the oracle's move generator is never used.
//! A winning move slides a token from u to a successor v whose value is the one the
//! rest of the position needs.

use crate::games::analyze_sum;
use sgcheck_oracles::games::dag_tokens::{DagTokens, Slide};
use sgcheck_oracles::games::nim::Piles;
use sgcheck_oracles::{Analysis, Solver};

/// Grundy values of the vertices of a graph (index 0 unused).
pub struct DagValues {
    succ: Vec<Vec<u64>>,
    g: Vec<u64>,
}

impl DagValues {
    /// The values of `n` vertices with these edges (each `u -> v` in 1..=n, no cycle;
    /// `None` if some vertex is left unvalued, i.e. on or behind a cycle).
    pub fn new(n: usize, edges: &[(u64, u64)]) -> Option<DagValues> {
        let mut succ = vec![Vec::new(); n + 1];
        let mut pred = vec![Vec::new(); n + 1];
        let mut out_left = vec![0usize; n + 1];
        for &(u, v) in edges {
            succ[u as usize].push(v);
            pred[v as usize].push(u as usize);
            out_left[u as usize] += 1;
        }
        let mut g = vec![u64::MAX; n + 1];
        let mut ready: Vec<usize> = (1..=n).filter(|&u| out_left[u] == 0).collect();
        let mut done = 0;
        while let Some(u) = ready.pop() {
            let mut seen: Vec<u64> = succ[u].iter().map(|&v| g[v as usize]).collect();
            seen.sort_unstable();
            seen.dedup();
            g[u] = seen
                .iter()
                .enumerate()
                .find(|&(i, &x)| i as u64 != x)
                .map_or(seen.len() as u64, |(i, _)| i as u64);
            done += 1;
            for &p in &pred[u] {
                out_left[p] -= 1;
                if out_left[p] == 0 {
                    ready.push(p);
                }
            }
        }
        (done == n).then_some(DagValues { succ, g })
    }

    /// The value of vertex u.
    pub fn value(&self, u: u64) -> u64 {
        self.g[u as usize]
    }

    /// Verdict and every winning move of the tokens `pos`.
    pub fn analyze(&self, pos: &[u64]) -> Analysis<Slide> {
        let values: Vec<u64> = pos.iter().map(|&u| self.value(u)).collect();
        analyze_sum(&values, |token, need, out| {
            let u = pos[token];
            let mut succ = self.succ[u as usize].clone();
            succ.sort_unstable();
            succ.dedup();
            for v in succ {
                if self.value(v) == need {
                    out.push(Slide {
                        token,
                        to: v,
                        from: u,
                    });
                }
            }
        })
    }
}

/// `sgcheck check dag-tokens <tokens> --rules 'n;u>v,...'`: the fast side and the
/// oracle on one position.
pub fn check_text(
    rules: Option<&str>,
    position: &str,
    budget: usize,
) -> Result<crate::verify::CheckOutcome, String> {
    let text = rules.ok_or("dag-tokens needs --rules, the graph (e.g. 4;1>2,2>3,1>3)")?;
    let graph: DagTokens = text.parse().map_err(|e| format!("--rules: {e}"))?;
    let pos: Piles = position.parse().map_err(|e| format!("position: {e}"))?;
    let n = graph.vertices() as u64;
    if let Some(&bad) = pos.0.iter().find(|&&u| u == 0 || u > n) {
        return Err(format!("token on vertex {bad}, not in 1..={n}"));
    }
    let values = DagValues::new(graph.vertices(), graph.edges())
        .ok_or("the graph has a cycle (the oracle's reader let it through)")?;
    let oracle = Solver::new(graph)
        .with_budget(budget)
        .analyze(&pos)
        .map_err(|e| e.to_string())?;
    let fast = values.analyze(&pos.0);
    Ok(crate::verify::CheckOutcome {
        agree: fast.win == oracle.win && fast.winning == oracle.winning,
        fast: crate::verify::describe(&fast),
        oracle: crate::verify::describe(&oracle),
        remoteness: oracle.remoteness,
    })
}
