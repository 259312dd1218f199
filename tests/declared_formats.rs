//! Two game shapes declared with the format features they need, each against a
//! brute force written here, through `verify`, and through `audit` with a right and a
//! wrong C++ program:
//!
//! - tokens on a graph given in the input (`examples/problems/tokens.toml`): `n m k`,
//!   then m edges (a graph field whose length is the field m, not written before it),
//!   then k tokens bounded by n (`max = "n"`); the game is `dag-tokens` with the graph
//!   as its rules;
//! - piles that each carry their own limit (`examples/problems/bounded_piles.toml`):
//!   a record list of `size limit` per line, the game a script whose component state
//!   is the pair, so the rules parameter is per pile.

mod workshop;

use serde_json::Value;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use workshop::{sgcheck, text};

fn data(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("examples/problems")
        .join(name)
}

/// A small deterministic generator (xorshift), so the cases are the same every run.
struct Rand(u64);

impl Rand {
    fn below(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0 % n
    }
}

fn solve(decl: &Path, input: &str) -> Vec<String> {
    let out = sgcheck(&["solve", "--problem", decl.to_str().unwrap()], input);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    text(&out.stdout).lines().map(str::to_string).collect()
}

// -------------------------------------------------------------------------------------
// Tokens on a graph: minimax over the multiset of tokens, straight from the rules.

struct Dag {
    succ: Vec<Vec<u64>>,
}

impl Dag {
    /// Whether the player to move wins with the tokens `pos` (sorted).
    fn wins(&self, pos: &[u64], memo: &mut HashMap<Vec<u64>, bool>) -> bool {
        if let Some(&w) = memo.get(pos) {
            return w;
        }
        let mut win = false;
        'all: for i in 0..pos.len() {
            for &v in &self.succ[pos[i] as usize] {
                let mut next = pos.to_vec();
                next[i] = v;
                next.sort_unstable();
                if !self.wins(&next, memo) {
                    win = true;
                    break 'all;
                }
            }
        }
        memo.insert(pos.to_vec(), win);
        win
    }

    /// The first winning move (token from 1, vertex it goes to), tokens in input
    /// order and the targets ascending, or `None`.
    fn best(&self, tokens: &[u64], memo: &mut HashMap<Vec<u64>, bool>) -> Option<(usize, u64)> {
        for i in 0..tokens.len() {
            let mut targets = self.succ[tokens[i] as usize].clone();
            targets.sort_unstable();
            targets.dedup();
            for v in targets {
                let mut next = tokens.to_vec();
                next[i] = v;
                next.sort_unstable();
                if !self.wins(&next, memo) {
                    return Some((i + 1, v));
                }
            }
        }
        None
    }
}

#[test]
fn tokens_on_a_graph_answer_as_minimax_does() {
    let mut rng = Rand(0x9e37_79b9_7f4a_7c15);
    let mut input = String::new();
    let mut expected = Vec::new();
    let cases = 10;
    input.push_str(&format!("{cases}\n"));
    for _ in 0..cases {
        let n = 1 + rng.below(7);
        // Forward edges of a random order of the vertices (so no cycle), some twice.
        let mut order: Vec<u64> = (1..=n).collect();
        for i in (1..order.len()).rev() {
            order.swap(i, rng.below(i as u64 + 1) as usize);
        }
        let mut edges = Vec::new();
        for a in 0..n as usize {
            for b in a + 1..n as usize {
                if rng.below(2) == 0 {
                    edges.push((order[a], order[b]));
                }
            }
        }
        if let Some(&e) = edges.first() {
            edges.push(e);
        }
        let k = 1 + rng.below(4);
        let tokens: Vec<u64> = (0..k).map(|_| 1 + rng.below(n)).collect();
        input.push_str(&format!("{n} {} {k}\n", edges.len()));
        for (u, v) in &edges {
            input.push_str(&format!("{u} {v}\n"));
        }
        let t: Vec<String> = tokens.iter().map(u64::to_string).collect();
        input.push_str(&format!("{}\n", t.join(" ")));
        let mut succ = vec![Vec::new(); n as usize + 1];
        for &(u, v) in &edges {
            succ[u as usize].push(v);
        }
        let dag = Dag { succ };
        let mut memo = HashMap::new();
        let mut sorted = tokens.clone();
        sorted.sort_unstable();
        match dag.best(&tokens, &mut memo) {
            Some((i, v)) => {
                assert!(dag.wins(&sorted, &mut memo));
                expected.push("WIN".to_string());
                expected.push(format!("{i} {v}"));
            }
            None => {
                assert!(!dag.wins(&sorted, &mut memo));
                expected.push("LOSE".to_string());
                expected.push("-".to_string());
            }
        }
    }
    assert_eq!(solve(&data("tokens.toml"), &input), expected, "{input}");
    // Both answers occur.
    assert!(expected.contains(&"WIN".to_string()) && expected.contains(&"LOSE".to_string()));
}

#[test]
fn a_cycle_in_the_input_exits_2_naming_it() {
    let out = sgcheck(
        &["solve", "--problem", data("tokens.toml").to_str().unwrap()],
        "1\n3 3 1\n1 2\n2 3\n3 2\n1\n",
    );
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        text(&out.stderr).trim(),
        "error: line 5: edges of case 1: the edges make a cycle 3 -> 2 -> 3 (a token could move forever)"
    );
}

// -------------------------------------------------------------------------------------
// Piles with a limit each: minimax over whole positions.

fn piles_win(pos: &[(u64, u64)], memo: &mut HashMap<Vec<(u64, u64)>, bool>) -> bool {
    if let Some(&w) = memo.get(pos) {
        return w;
    }
    let mut win = false;
    'all: for i in 0..pos.len() {
        let (a, l) = pos[i];
        for k in 1..=a.min(l) {
            let mut next = pos.to_vec();
            next[i] = (a - k, l);
            next.sort_unstable();
            if !piles_win(&next, memo) {
                win = true;
                break 'all;
            }
        }
    }
    memo.insert(pos.to_vec(), win);
    win
}

#[test]
fn piles_with_their_own_limits_answer_as_minimax_does() {
    let mut rng = Rand(12345);
    let mut memo = HashMap::new();
    let mut input = String::new();
    let mut expected = Vec::new();
    let cases = 100;
    input.push_str(&format!("{cases}\n"));
    for _ in 0..cases {
        let n = 1 + rng.below(3);
        let piles: Vec<(u64, u64)> = (0..n)
            .map(|_| (1 + rng.below(9), 1 + rng.below(4)))
            .collect();
        input.push_str(&format!("{n}\n"));
        for (a, l) in &piles {
            input.push_str(&format!("{a} {l}\n"));
        }
        let mut sorted = piles.clone();
        sorted.sort_unstable();
        expected.push(
            if piles_win(&sorted, &mut memo) {
                "Alice"
            } else {
                "Bob"
            }
            .to_string(),
        );
    }
    assert_eq!(solve(&data("bounded_piles.toml"), &input), expected);
    assert!(expected.contains(&"Alice".to_string()) && expected.contains(&"Bob".to_string()));
    // Far past the oracle: answered by the closed form (checked on its box).
    assert_eq!(
        solve(
            &data("bounded_piles.toml"),
            "1\n2\n1000000000 999999999\n7 3\n"
        ),
        vec!["Alice"]
    );
}

// -------------------------------------------------------------------------------------
// verify and audit.

#[test]
fn verify_agrees_on_both() {
    for name in ["tokens.toml", "bounded_piles.toml"] {
        let out = sgcheck(
            &[
                "verify",
                "--problem",
                data(name).to_str().unwrap(),
                "--time",
                "6",
                "--seed",
                "1",
                "--json",
            ],
            "",
        );
        assert_eq!(out.status.code(), Some(0), "{name}: {}", text(&out.stderr));
        let r: Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(r["disagreements"], 0, "{name}: {r}");
        let tier3 = r["games"][0]["tiers"]
            .as_array()
            .unwrap()
            .iter()
            .find(|t| t["tier"] == 3)
            .cloned()
            .unwrap_or_else(|| panic!("{name}: no tier 3 in {r}"));
        assert!(
            tier3["agreements"].as_u64().unwrap() > 100,
            "{name}: {tier3}"
        );
    }
}

const DAG_CPP: &str = r#"
#include <cstdio>
#include <vector>
using namespace std;
int n;
vector<vector<int>> succ;
vector<int> g;
int value(int u) {
    if (g[u] >= 0) return g[u];
    vector<bool> seen(succ[u].size() + 2, false);
    for (int v : succ[u]) { int x = value(v); if (x < (int)seen.size()) seen[x] = true; }
    int m = 0; while (seen[m]) m++;
    return g[u] = BUG;
}
int main() {
    int T; if (scanf("%d", &T) != 1) return 0;
    while (T--) {
        int m, k; scanf("%d %d %d", &n, &m, &k);
        succ.assign(n + 1, vector<int>());
        g.assign(n + 1, -1);
        for (int i = 0; i < m; i++) { int u, v; scanf("%d %d", &u, &v); succ[u].push_back(v); }
        vector<int> t(k);
        int x = 0;
        for (int i = 0; i < k; i++) { scanf("%d", &t[i]); x ^= value(t[i]); }
        if (!x) { puts("LOSE\n-"); continue; }
        int bi = -1, bv = 0;
        for (int i = 0; i < k && bi < 0; i++) {
            int need = x ^ value(t[i]);
            for (int v : succ[t[i]])
                if (value(v) == need && (bi < 0 || v < bv)) { bi = i; bv = v; }
        }
        printf("WIN\n%d %d\n", bi + 1, bv);
    }
}
"#;

const PILES_CPP: &str = r#"
#include <cstdio>
int main() {
    int T; if (scanf("%d", &T) != 1) return 0;
    while (T--) {
        int n; scanf("%d", &n);
        long long x = 0;
        for (int i = 0; i < n; i++) { long long a, l; scanf("%lld %lld", &a, &l); x ^= a % BUG; }
        puts(x ? "Alice" : "Bob");
    }
}
"#;

fn audit(w: &workshop::Workshop, decl: &Path, exe: &Path, options: &[&str]) -> Value {
    let mut args = vec!["audit", "--problem", decl.to_str().unwrap(), "--seed", "1"];
    args.extend_from_slice(options);
    args.extend_from_slice(&["--json", "--", exe.to_str().unwrap()]);
    let out = sgcheck(&args, "");
    assert!(
        matches!(out.status.code(), Some(0 | 1)),
        "{}",
        text(&out.stderr)
    );
    workshop::assert_nothing_left(w.path());
    serde_json::from_slice(&out.stdout).expect("audit --json prints JSON")
}

#[test]
fn audit_passes_right_programs_and_finds_the_smallest_failures() {
    let Some(w) = workshop::Workshop::new() else {
        return;
    };
    let cases = ["--cases", "3000", "--time", "300"];
    // Tokens on a graph: the right program, and one that plays each vertex as won or
    // lost (values 0 and 1 only), right for one token and wrong for a sum.
    let decl = data("tokens.toml");
    let right = w.compile("dag_right", &workshop::variant(DAG_CPP, "BUG", "m"), &[]);
    let r = audit(&w, &decl, &right, &cases);
    assert_eq!(r["verdict"], "ok", "{r}");
    let wrong = w.compile(
        "dag_wrong",
        &workshop::variant(DAG_CPP, "BUG", "m ? 1 : 0"),
        &[],
    );
    let r = audit(&w, &decl, &wrong, &["--time", "60"]);
    assert_eq!(r["verdict"], "wrong-answer", "{r}");
    let c = workshop::counterexample(&r);
    // The smallest sum where a value 2 matters: three vertices, three edges, two
    // tokens (1 -> 2 -> 3 and 1 -> 3, tokens on the values 2 and 1).
    let input = c["input"].as_str().unwrap();
    let head: Vec<u64> = input
        .lines()
        .nth(1)
        .unwrap()
        .split(' ')
        .map(|x| x.parse().unwrap())
        .collect();
    assert_eq!(head, vec![3, 3, 2], "{r}");

    // Piles with their own limits: the right program, and one that reduces by the
    // limit instead of the limit plus one.
    let decl = data("bounded_piles.toml");
    let right = w.compile(
        "piles_right",
        &workshop::variant(PILES_CPP, "BUG", "(l + 1)"),
        &[],
    );
    let r = audit(&w, &decl, &right, &cases);
    assert_eq!(r["verdict"], "ok", "{r}");
    let wrong = w.compile(
        "piles_wrong",
        &workshop::variant(PILES_CPP, "BUG", "l"),
        &[],
    );
    let r = audit(&w, &decl, &wrong, &["--time", "60"]);
    assert_eq!(r["verdict"], "wrong-answer", "{r}");
    let c = workshop::counterexample(&r);
    assert_eq!(c["input"], "1\n1\n1 1\n", "{r}");
}
