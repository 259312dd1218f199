//! Two game shapes declared with the format features they need, each against a
//! brute force written here, through `verify`, and through `audit` with a right and a
//! wrong C++ program:
//!
//! - tokens on a graph given in the input (`examples/problems/tokens.toml`): `n m k`,
//!   then m edges (a graph field whose length is the field m, not written before it),
//!   then k tokens bounded by n (`max = "n"`); the game is `dag-tokens` with the graph
//!   as its rules;
//! - the same game with the graph as adjacency lists
//!   (`examples/problems/tokens_adjacency.toml`): `n k`, then a line `c w1 .. wc` per
//!   vertex (a graph field of `form = "adjacency"`), then the tokens;
//! - piles ended by a zero (`examples/problems/piles_until.toml`): a list whose end is
//!   a terminator value (`length = { until = 0 }`), not a length before it;
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
// The same game with the graph given as adjacency lists
// (`examples/problems/tokens_adjacency.toml`: `n k`, then a line `c w1 .. wc` per
// vertex, then the tokens).

/// Random graphs without a cycle (no edge twice) and their tokens, as the inputs of
/// tokens.toml and of tokens_adjacency.toml.
fn dag_inputs(rng: &mut Rand, cases: usize) -> (String, String, Vec<(Dag, Vec<u64>)>) {
    let mut edges_form = format!("{cases}\n");
    let mut lists_form = format!("{cases}\n");
    let mut games = Vec::new();
    for _ in 0..cases {
        let n = 1 + rng.below(7);
        let mut order: Vec<u64> = (1..=n).collect();
        for i in (1..order.len()).rev() {
            order.swap(i, rng.below(i as u64 + 1) as usize);
        }
        let mut succ = vec![Vec::new(); n as usize + 1];
        for a in 0..n as usize {
            for b in a + 1..n as usize {
                if rng.below(2) == 0 {
                    succ[order[a] as usize].push(order[b]);
                }
            }
        }
        // Each vertex's successors in a random order.
        for line in &mut succ {
            for i in (1..line.len()).rev() {
                line.swap(i, rng.below(i as u64 + 1) as usize);
            }
        }
        let k = 1 + rng.below(4);
        let tokens: Vec<u64> = (0..k).map(|_| 1 + rng.below(n)).collect();
        let m: usize = succ.iter().map(Vec::len).sum();
        let t: Vec<String> = tokens.iter().map(u64::to_string).collect();
        edges_form.push_str(&format!("{n} {m} {k}\n"));
        lists_form.push_str(&format!("{n} {k}\n"));
        // The edge list in a random order.
        let mut edges: Vec<(usize, u64)> = (1..=n as usize)
            .flat_map(|u| succ[u].iter().map(move |&v| (u, v)))
            .collect();
        for i in (1..edges.len()).rev() {
            edges.swap(i, rng.below(i as u64 + 1) as usize);
        }
        for (u, v) in &edges {
            edges_form.push_str(&format!("{u} {v}\n"));
        }
        for line in &succ[1..] {
            let w: Vec<String> = line.iter().map(u64::to_string).collect();
            lists_form.push_str(&format!("{} {}\n", line.len(), w.join(" ")).replace(" \n", "\n"));
        }
        edges_form.push_str(&format!("{}\n", t.join(" ")));
        lists_form.push_str(&format!("{}\n", t.join(" ")));
        games.push((Dag { succ }, tokens));
    }
    (edges_form, lists_form, games)
}

#[test]
fn adjacency_lists_answer_as_minimax_and_as_the_edge_list_does() {
    let mut rng = Rand(0x2545_f491_4f6c_dd1d);
    let (edges_form, lists_form, games) = dag_inputs(&mut rng, 10);
    let mut expected = Vec::new();
    for (dag, tokens) in &games {
        let mut memo = HashMap::new();
        match dag.best(tokens, &mut memo) {
            Some((i, v)) => {
                expected.push("WIN".to_string());
                expected.push(format!("{i} {v}"));
            }
            None => {
                expected.push("LOSE".to_string());
                expected.push("-".to_string());
            }
        }
    }
    assert!(expected.contains(&"WIN".to_string()) && expected.contains(&"LOSE".to_string()));
    assert_eq!(
        solve(&data("tokens_adjacency.toml"), &lists_form),
        expected,
        "{lists_form}"
    );
    assert_eq!(
        solve(&data("tokens.toml"), &edges_form),
        expected,
        "{edges_form}"
    );
}

#[test]
fn a_cycle_in_adjacency_lists_exits_2_naming_it() {
    let out = sgcheck(
        &[
            "solve",
            "--problem",
            data("tokens_adjacency.toml").to_str().unwrap(),
        ],
        "1\n3 1\n1 2\n1 3\n1 2\n1\n",
    );
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        text(&out.stderr).trim(),
        "error: line 5: succ of case 1: the edges make a cycle 3 -> 2 -> 3 (a token could move forever)"
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
// Piles ended by a zero (`examples/problems/piles_until.toml`): a line with m, then the
// pile sizes on a line ended by 0; take 1 to m stones from one pile.

fn bash_wins(m: u64, piles: &[u64], memo: &mut HashMap<Vec<u64>, bool>) -> bool {
    if let Some(&w) = memo.get(piles) {
        return w;
    }
    let mut win = false;
    'all: for i in 0..piles.len() {
        for k in 1..=piles[i].min(m) {
            let mut next = piles.to_vec();
            next[i] -= k;
            next.sort_unstable();
            if !bash_wins(m, &next, memo) {
                win = true;
                break 'all;
            }
        }
    }
    memo.insert(piles.to_vec(), win);
    win
}

#[test]
fn piles_ended_by_a_zero_answer_as_minimax_does() {
    let mut rng = Rand(777);
    let cases = 60;
    let mut input = format!("{cases}\n");
    let mut expected = Vec::new();
    for _ in 0..cases {
        let m = 1 + rng.below(3);
        let n = 1 + rng.below(3);
        let mut piles: Vec<u64> = (0..n).map(|_| 1 + rng.below(7)).collect();
        let p: Vec<String> = piles.iter().map(u64::to_string).collect();
        input.push_str(&format!("{m}\n{} 0\n", p.join(" ")));
        piles.sort_unstable();
        let mut memo = HashMap::new();
        expected.push(
            if bash_wins(m, &piles, &mut memo) {
                "Alice"
            } else {
                "Bob"
            }
            .to_string(),
        );
    }
    assert_eq!(
        solve(&data("piles_until.toml"), &input),
        expected,
        "{input}"
    );
    assert!(expected.contains(&"Alice".to_string()) && expected.contains(&"Bob".to_string()));
    // A missing terminator exits 2 naming the line.
    let out = sgcheck(
        &[
            "solve",
            "--problem",
            data("piles_until.toml").to_str().unwrap(),
        ],
        "1\n3\n4 4\n",
    );
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        text(&out.stderr).trim(),
        "error: line 3: pile 3 of case 1 (or the terminator 0): expected a number, found end of input"
    );
}

// -------------------------------------------------------------------------------------
// verify and audit.

#[test]
fn verify_agrees_on_both() {
    for name in [
        "tokens.toml",
        "tokens_adjacency.toml",
        "bounded_piles.toml",
        "piles_until.toml",
    ] {
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

/// The tokens program reading adjacency lists instead of the edges.
fn adjacency_cpp(bug: &str) -> String {
    let src = workshop::variant(
        DAG_CPP,
        "int m, k; scanf(\"%d %d %d\", &n, &m, &k);",
        "int k; scanf(\"%d %d\", &n, &k);",
    );
    let src = workshop::variant(
        &src,
        "for (int i = 0; i < m; i++) { int u, v; scanf(\"%d %d\", &u, &v); succ[u].push_back(v); }",
        "for (int u = 1; u <= n; u++) { int c; scanf(\"%d\", &c); \
         while (c--) { int v; scanf(\"%d\", &v); succ[u].push_back(v); } }",
    );
    workshop::variant(&src, "BUG", bug)
}

const UNTIL_CPP: &str = r#"
#include <cstdio>
int main() {
    int T; if (scanf("%d", &T) != 1) return 0;
    while (T--) {
        long long m, a, x = 0; scanf("%lld", &m);
        while (scanf("%lld", &a) == 1 && a != 0) x ^= a % BUG;
        puts(x ? "Alice" : "Bob");
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

    // The same with adjacency lists.
    let decl = data("tokens_adjacency.toml");
    let right = w.compile("adj_right", &adjacency_cpp("m"), &[]);
    let r = audit(&w, &decl, &right, &cases);
    assert_eq!(r["verdict"], "ok", "{r}");
    let wrong = w.compile("adj_wrong", &adjacency_cpp("m ? 1 : 0"), &[]);
    let r = audit(&w, &decl, &wrong, &["--time", "60"]);
    assert_eq!(r["verdict"], "wrong-answer", "{r}");
    let c = workshop::counterexample(&r);
    // Three vertices, three edges, two tokens again: `3 2`, then three lines of
    // successors holding three edges in all.
    let input = c["input"].as_str().unwrap();
    let lines: Vec<&str> = input.lines().collect();
    assert_eq!(lines[1], "3 2", "{r}");
    let edges: usize = lines[2..5]
        .iter()
        .map(|l| l.split(' ').next().unwrap().parse::<usize>().unwrap())
        .sum();
    assert_eq!((lines.len(), edges), (6, 3), "{r}");

    // Piles ended by a zero: the right program, and one that reduces by m instead of
    // m + 1, found at m = 1 and one pile of 1.
    let decl = data("piles_until.toml");
    let right = w.compile(
        "until_right",
        &workshop::variant(UNTIL_CPP, "BUG", "(m + 1)"),
        &[],
    );
    let r = audit(&w, &decl, &right, &cases);
    assert_eq!(r["verdict"], "ok", "{r}");
    let wrong = w.compile(
        "until_wrong",
        &workshop::variant(UNTIL_CPP, "BUG", "m"),
        &[],
    );
    let r = audit(&w, &decl, &wrong, &["--time", "60"]);
    assert_eq!(r["verdict"], "wrong-answer", "{r}");
    assert_eq!(workshop::counterexample(&r)["input"], "1\n1\n1 0\n", "{r}");

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

// -------------------------------------------------------------------------------------
// A relation between a record's columns (`require = ["c <= s"]`).

/// Right under the statement's c <= s: the room left in a box is computed unsigned,
/// so a box with c > s (which the statement excludes) would wrap to a huge room.
const BOXES_CPP: &str = r#"
#include <cstdio>
#include <cstring>
int g[41][41];
int grundy(unsigned s, unsigned c) {
    if (g[s][c] >= 0) return g[s][c];
    unsigned room = s - c, most = c * c < room ? c * c : room;
    bool seen[64] = {false};
    for (unsigned k = 1; k <= most && c + k <= 40; k++) seen[grundy(s, c + k)] = true;
    int m = 0;
    while (seen[m]) m++;
    return g[s][c] = m;
}
int main() {
    memset(g, -1, sizeof g);
    int t; scanf("%d", &t);
    while (t--) {
        int n; scanf("%d", &n);
        int x = 0;
        for (int i = 0; i < n; i++) { unsigned s, c; scanf("%u %u", &s, &c); x ^= grundy(s, c); }
        puts(x ? "Yes" : "No");
    }
}
"#;

#[test]
fn a_relation_between_columns_is_kept_by_every_input() {
    let decl = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/formats/capacity_boxes.toml");
    // Read: an item that breaks it is refused, naming the item and the relation.
    let out = sgcheck(
        &["solve", "--problem", decl.to_str().unwrap()],
        "1\n2\n5 3\n2 4\n",
    );
    assert_eq!(out.status.code(), Some(2));
    let err = text(&out.stderr);
    assert!(
        err.contains("box 2 of case 1: c <= s does not hold"),
        "{err}"
    );
    assert_eq!(solve(&decl, "2\n1\n5 2\n1\n3 3\n"), ["Yes", "No"]);
    let out = sgcheck(
        &["verify", "--problem", decl.to_str().unwrap(), "--time", "3"],
        "",
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stdout));

    let Some(w) = workshop::Workshop::new() else {
        return;
    };
    let exe = w.compile("boxes", BOXES_CPP, &[]);
    // Within the relation the program is right: no input the audit draws, lists,
    // tries at a corner or shrinks to breaks it.
    let r = w.audit_declared(&decl, 1, "4", &exe);
    assert_eq!(r["verdict"], "ok", "{r}");
    assert!(r["search_cases"].as_u64().unwrap() > 100, "{r}");
    // Without it, inputs with c > s are drawn, and the same program is blamed.
    let loose = w.path().join("loose.toml");
    let text_of = std::fs::read_to_string(&decl).unwrap();
    std::fs::write(&loose, text_of.replace("require = [\"c <= s\"]\n", "")).unwrap();
    let r = w.audit_declared(&loose, 1, "4", &exe);
    assert_eq!(r["verdict"], "wrong-answer", "{r}");
    let input = r["counterexample"]["input"].as_str().unwrap().to_string();
    let nums: Vec<u64> = input
        .split_whitespace()
        .map(|t| t.parse().unwrap())
        .collect();
    assert!(nums[2..].chunks(2).any(|b| b[1] > b[0]), "{input}");
}
