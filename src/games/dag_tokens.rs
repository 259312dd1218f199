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
use crate::games::declared::{self, Declare, ParamKind, ParamSpec, ParamValue};
use rand_chacha::ChaCha8Rng;
use sgcheck_oracles::games::dag_tokens::{DagTokens, Slide};
use sgcheck_oracles::games::nim::Piles;
use sgcheck_oracles::SearchError;
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

    /// The value of vertex u (0 for a vertex not in 1..=n).
    pub fn value(&self, u: u64) -> u64 {
        usize::try_from(u)
            .ok()
            .and_then(|u| self.g.get(u))
            .copied()
            .filter(|&g| g != u64::MAX)
            .unwrap_or(0)
    }

    /// The number of vertices.
    pub fn vertices(&self) -> u64 {
        self.g.len() as u64 - 1
    }

    /// Verdict and every winning move of the tokens `pos`.
    pub fn analyze(&self, pos: &[u64]) -> Analysis<Slide> {
        let values: Vec<u64> = pos.iter().map(|&u| self.value(u)).collect();
        analyze_sum(&values, |token, need, out| {
            let u = pos[token];
            let mut succ = usize::try_from(u)
                .ok()
                .and_then(|u| self.succ.get(u))
                .cloned()
                .unwrap_or_default();
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
    Ok(crate::verify::CheckOutcome::compare(&fast, &oracle))
}

/// Tokens on a graph from the input, as problem declarations use it: the rules
/// parameter `graph` is a graph field (see the book, "Declaring a problem").
pub struct DagTokensGame;

/// The fast side of one graph: the vertex values, and the graph for the oracle.
pub struct DagRules {
    values: DagValues,
    graph: DagTokens,
}

impl Declare for DagTokensGame {
    type Oracle = DagTokens;
    type Fast = DagRules;
    const ID: &'static str = "dag-tokens";
    const PARAMETERS: &'static [ParamSpec] = &[ParamSpec {
        name: "graph",
        kind: ParamKind::Graph,
        about: "a graph field: the edges tokens slide along",
    }];
    const POSITION: &'static str = "the vertices the tokens stand on (1..=n, repeats allowed)";
    const MOVE_FIELDS: &'static [&'static str] = &["token", "from", "to"];

    fn build(params: &[ParamValue<'_>]) -> Result<DagRules, String> {
        let Some(ParamValue::Graph { vertices, edges }) = params.first() else {
            return Err("parameter graph must be a graph field".into());
        };
        let n = usize::try_from(*vertices)
            .ok()
            .filter(|&n| n <= sgcheck_oracles::games::dag_tokens::MAX_VERTICES)
            .ok_or_else(|| format!("{vertices} vertices: too many"))?;
        let pairs: Vec<(u64, u64)> = edges.chunks_exact(2).map(|e| (e[0], e[1])).collect();
        let graph = DagTokens::new(n, pairs)?;
        let values = DagValues::new(n, graph.edges()).ok_or("the graph has a cycle")?;
        Ok(DagRules { values, graph })
    }
    fn check(r: &DagRules, position: &[u64]) -> Result<(), String> {
        let n = r.values.vertices();
        match position.iter().find(|&&u| u == 0 || u > n) {
            Some(u) => Err(format!("a token on vertex {u}, not in 1..={n}")),
            None => Ok(()),
        }
    }
    fn first_wins(r: &DagRules, position: &[u64]) -> Result<bool, String> {
        Ok(position.iter().fold(0, |a, &u| a ^ r.values.value(u)) != 0)
    }
    fn analyze(r: &DagRules, position: &[u64]) -> Result<Analysis<Slide>, String> {
        Ok(r.values.analyze(position))
    }
    fn move_fields(m: &Slide, _: &[u64]) -> [u64; 4] {
        [m.token as u64, m.from, m.to, 0]
    }
    fn oracle(
        r: &DagRules,
        position: &[u64],
        _budget: usize,
    ) -> Result<(DagTokens, Piles), SearchError> {
        Ok((r.graph.clone(), Piles(position.to_vec())))
    }
    fn make_losing(r: &DagRules, p: &mut [u64], b: &[(u64, u64)], rng: &mut ChaCha8Rng) -> bool {
        let n = r.values.vertices();
        let b: Vec<(u64, u64)> = b.iter().map(|&(lo, hi)| (lo.max(1), hi.min(n))).collect();
        if b.iter().any(|&(lo, hi)| lo > hi) {
            return false;
        }
        declared::losing_sum(
            p,
            &b,
            rng,
            |u| r.values.value(u),
            |need, lo, hi, rng| declared::scan_for_value(need, lo, hi, rng, |u| r.values.value(u)),
        )
    }
    fn component_values(r: &DagRules, position: &[u64]) -> Option<Vec<u64>> {
        Self::check(r, position).ok()?;
        Some(position.iter().map(|&u| r.values.value(u)).collect())
    }
}
