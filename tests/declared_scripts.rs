//! Games declared by a script (`[game] script = ...`): the declarations under
//! `tests/data/scripts/` answer positions as brute force written here does, `verify`
//! agrees, `audit` passes a right C++ solution and catches a planted bug in a wrong
//! one, Kayles as a script reproduces `octal 0.77`, and hostile scripts exit 2 quickly
//! with an error naming the key.

mod workshop;

use workshop::{sgcheck, text};

use serde_json::Value;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

fn data(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/scripts")
        .join(name)
}

/// `solve --problem` on `cases` (each a line of numbers after the count T).
fn solve(decl: &Path, cases: &[String]) -> Vec<String> {
    let input = format!("{}\n{}\n", cases.len(), cases.join("\n"));
    let out = sgcheck(&["solve", "--problem", decl.to_str().unwrap()], &input);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    text(&out.stdout).lines().map(str::to_string).collect()
}

/// A case line of a list field: `n x1 .. xn`.
fn list_case(xs: &[u64]) -> String {
    let v: Vec<String> = xs.iter().map(u64::to_string).collect();
    format!("{} {}", xs.len(), v.join(" "))
}

// -------------------------------------------------------------------------------------
// Brute force, from the rules, written here: whole positions by minimax.

/// Mock Turtles on the real coins: `heads` a bit set; a move turns one, two or three
/// coins, the rightmost from heads to tails.
fn turtles_win(heads: u64, memo: &mut HashMap<u64, bool>) -> bool {
    if let Some(&w) = memo.get(&heads) {
        return w;
    }
    let mut win = false;
    'm: for t in 0..64u64 {
        if heads >> t & 1 == 0 {
            continue;
        }
        let base = heads ^ (1 << t);
        let mut next = vec![base];
        for a in 0..t {
            next.push(base ^ (1 << a));
            for b in a + 1..t {
                next.push(base ^ (1 << a) ^ (1 << b));
            }
        }
        for n in next {
            if !turtles_win(n, memo) {
                win = true;
                break 'm;
            }
        }
    }
    memo.insert(heads, win);
    win
}

/// Ruler on the real coins: `heads` a bit set of coins 1, 2, ...; a move turns over a
/// run of consecutive coins whose rightmost goes from heads to tails.
fn ruler_win(heads: u64, memo: &mut HashMap<u64, bool>) -> bool {
    if let Some(&w) = memo.get(&heads) {
        return w;
    }
    let mut win = false;
    'm: for t in 1..64u64 {
        if heads >> t & 1 == 0 {
            continue;
        }
        let mut next = heads;
        for a in (1..=t).rev() {
            next ^= 1 << a;
            if !ruler_win(next, memo) {
                win = true;
                break 'm;
            }
        }
    }
    memo.insert(heads, win);
    win
}

/// Two-row Chomp with the poisoned square: rows (a, b), b <= a; taking the poisoned
/// square (column 0 of the bottom row) loses at once.
fn chomp_win(a: u64, b: u64, memo: &mut HashMap<(u64, u64), bool>) -> bool {
    if let Some(&w) = memo.get(&(a, b)) {
        return w;
    }
    let mut win = false;
    // Top row squares (1, c), c < b: leaves (a, c).
    for c in 0..b {
        if !chomp_win(a, c, memo) {
            win = true;
        }
    }
    // Bottom row squares (0, c), 1 <= c < a: leaves (c, min(b, c)). Column 0 is the
    // poison: the player who takes it loses, so it is never a winning move.
    for c in 1..a {
        if !chomp_win(c, b.min(c), memo) {
            win = true;
        }
    }
    memo.insert((a, b), win);
    win
}

/// `sgcheck sequence scripted --rules DECL ARGS`.
fn sequence_scripted(decl: &Path, args: &[&str]) -> std::process::Output {
    let mut all = vec!["sequence", "scripted", "--rules", decl.to_str().unwrap()];
    all.extend_from_slice(args);
    sgcheck(&all, "")
}

/// The values `sequence scripted` prints for a game of one number, `n g(n)` a line,
/// for n in 0..count (the command must succeed).
fn sequence_values(decl: &Path, count: usize) -> Vec<u64> {
    let out = sequence_scripted(decl, &["--count", &count.to_string()]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    text(&out.stdout)
        .lines()
        .filter(|l| !l.starts_with('#'))
        .map(|l| l.split_whitespace().nth(1).unwrap().parse().unwrap())
        .collect()
}

/// The Grundy value of two-row Chomp's (a, b), b <= a, by mex over the moves of
/// [`chomp_win`] (the poisoned square is no move).
fn chomp_grundy(a: u64, b: u64, memo: &mut HashMap<(u64, u64), u64>) -> u64 {
    if let Some(&g) = memo.get(&(a, b)) {
        return g;
    }
    let mut seen = std::collections::BTreeSet::new();
    for c in 0..b {
        seen.insert(chomp_grundy(a, c, memo));
    }
    for c in 1..a {
        seen.insert(chomp_grundy(c, b.min(c), memo));
    }
    let g = (0..).find(|v| !seen.contains(v)).unwrap();
    memo.insert((a, b), g);
    g
}

/// The no-repeat take-away on whole positions: heaps with the amount last taken
/// from each.
fn no_repeat_win(pos: &[(u64, u64)], memo: &mut HashMap<Vec<(u64, u64)>, bool>) -> bool {
    let mut key: Vec<(u64, u64)> = pos.to_vec();
    key.sort_unstable();
    if let Some(&w) = memo.get(&key) {
        return w;
    }
    let mut win = false;
    'm: for i in 0..key.len() {
        let (n, last) = key[i];
        for k in 1..=3 {
            if k <= n && k != last {
                let mut next = key.clone();
                next[i] = (n - k, k);
                if !no_repeat_win(&next, memo) {
                    win = true;
                    break 'm;
                }
            }
        }
    }
    memo.insert(key, win);
    win
}

/// Strips cut into two strips whose lengths differ by at most 2, whole positions.
fn strips_win(pos: &[u64], memo: &mut HashMap<Vec<u64>, bool>) -> bool {
    let mut key: Vec<u64> = pos.iter().copied().filter(|&n| n > 1).collect();
    key.sort_unstable();
    if let Some(&w) = memo.get(&key) {
        return w;
    }
    let mut win = false;
    'm: for i in 0..key.len() {
        let n = key[i];
        for a in 1..=n / 2 {
            let b = n - a;
            if b - a <= 2 {
                let mut next = key.clone();
                next[i] = a;
                next.push(b);
                if !strips_win(&next, memo) {
                    win = true;
                    break 'm;
                }
            }
        }
    }
    memo.insert(key, win);
    win
}

fn verdict(w: bool) -> &'static str {
    if w {
        "First"
    } else {
        "Second"
    }
}

#[test]
fn mock_turtles_script_against_the_coins_and_the_built_in_game() {
    let decl = data("mock_turtles.toml");
    let mut cases = Vec::new();
    let mut sets = Vec::new();
    for mask in 1u64..(1 << 9) {
        let heads: Vec<u64> = (0..9).filter(|&i| mask >> i & 1 == 1).collect();
        if heads.len() <= 8 {
            cases.push(list_case(&heads));
            sets.push((mask, heads));
        }
    }
    // And some far heads, answered by the closed form (checked on 0..=40).
    for h in [vec![50u64, 60], vec![3, 41, 59], vec![33, 44, 55, 58]] {
        let mask = h.iter().fold(0u64, |m, &x| m | 1 << x);
        cases.push(list_case(&h));
        sets.push((mask, h));
    }
    let answers = solve(&decl, &cases);
    let mut memo = HashMap::new();
    let (mut won, mut lost) = (0, 0);
    for ((mask, heads), ans) in sets.iter().zip(&answers) {
        let built_in = sgcheck::games::mock_turtles::first_wins(heads);
        assert_eq!(ans, verdict(built_in), "{heads:?}");
        if *mask < 1 << 12 {
            assert_eq!(ans, verdict(turtles_win(*mask, &mut memo)), "{heads:?}");
        }
        if built_in {
            won += 1
        } else {
            lost += 1
        }
    }
    assert!(won > 0 && lost > 0);
}

#[test]
fn ruler_script_against_the_coins_and_oeis() {
    let decl = data("ruler.toml");
    // Every set of heads among coins 1..=9, against the minimax on the coins.
    let mut cases = Vec::new();
    let mut masks = Vec::new();
    for mask in 1u64..(1 << 9) {
        let heads: Vec<u64> = (1..=9).filter(|&i| mask >> (i - 1) & 1 == 1).collect();
        if heads.len() <= 8 {
            cases.push(list_case(&heads));
            masks.push(mask << 1);
        }
    }
    let answers = solve(&decl, &cases);
    let mut memo = HashMap::new();
    let (mut won, mut lost) = (0, 0);
    for (mask, ans) in masks.iter().zip(&answers) {
        let w = ruler_win(*mask, &mut memo);
        assert_eq!(ans, verdict(w), "heads {mask:b}");
        if w {
            won += 1
        } else {
            lost += 1
        }
    }
    assert!(won > 0 && lost > 0, "{won} {lost}");
    // Far heads, through the closed form: the largest powers of 2 dividing them XOR.
    let far = [
        (vec![1u64, 2, 3], false),                   // 1 ^ 2 ^ 1 = 2: a win
        (vec![1, 2, 3, 4, 5, 6, 7], false),          // 1^2^1^4^1^2^1 = 4
        (vec![999_999_999, 1_000_000_000], false),   // 1 ^ 512
        (vec![268_435_456, 805_306_368], true),      // 2^28 ^ 2^28 = 0
        (vec![6, 10, 12, 1_000_000_000 - 8], false), // 2 ^ 2 ^ 4 ^ 8
    ];
    let cases: Vec<String> = far.iter().map(|(h, _)| list_case(h)).collect();
    let answers = solve(&decl, &cases);
    for ((h, second), ans) in far.iter().zip(&answers) {
        assert_eq!(ans, verdict(!second), "{h:?}");
    }
    // `sequence` gives the values of single heads: A006519 from n = 1, and 0 for no coin.
    let values = sequence_values(&decl, 17);
    let a006519 = [1u64, 2, 1, 4, 1, 2, 1, 8, 1, 2, 1, 4, 1, 2, 1, 16];
    assert_eq!(values[0], 0);
    assert_eq!(&values[1..], &a006519);
}

#[test]
fn chomp_two_rows_against_brute_force() {
    let decl = data("chomp2.toml");
    let mut cases = Vec::new();
    let mut boards = Vec::new();
    for x in 1..=14u64 {
        for y in 1..=14u64 {
            cases.push(format!("{x} {y}"));
            boards.push((x.max(y), x.min(y)));
        }
    }
    let answers = solve(&decl, &cases);
    let mut memo = HashMap::new();
    for ((a, b), ans) in boards.iter().zip(&answers) {
        let w = chomp_win(*a, *b, &mut memo);
        assert_eq!(ans, if w { "WIN" } else { "LOSE" }, "({a}, {b})");
        // The known answer: the second player wins exactly when a = b + 1.
        assert_eq!(!w, *a == *b + 1, "({a}, {b})");
    }
}

#[test]
fn a_state_with_history_against_brute_force() {
    let decl = data("no_repeat.toml");
    let mut cases = Vec::new();
    let mut positions = Vec::new();
    for a in 0..=12u64 {
        for b in a..=12u64 {
            for c in [0u64, 3, 7] {
                cases.push(list_case(&[a, b, c]));
                positions.push(vec![(a, 0), (b, 0), (c, 0)]);
            }
        }
    }
    let answers = solve(&decl, &cases);
    let mut memo = HashMap::new();
    let (mut won, mut lost) = (0, 0);
    for (p, ans) in positions.iter().zip(&answers) {
        let w = no_repeat_win(p, &mut memo);
        assert_eq!(ans, verdict(w), "{p:?}");
        if w {
            won += 1
        } else {
            lost += 1
        }
    }
    assert!(won > 0 && lost > 0);
    // The history matters: it is not plain subtraction of {1, 2, 3} (value n mod 4).
    let differs = positions.iter().zip(&answers).any(|(p, a)| {
        let x = p.iter().fold(0, |x, (n, _)| x ^ (n % 4));
        (a == "First") != (x != 0)
    });
    assert!(differs);
}

#[test]
fn a_cutting_game_against_brute_force() {
    let decl = data("strips.toml");
    let mut cases = Vec::new();
    let mut positions = Vec::new();
    for a in 1..=24u64 {
        for b in a..=24u64 {
            cases.push(list_case(&[a, b]));
            positions.push(vec![a, b]);
        }
    }
    for a in 1..=30u64 {
        cases.push(list_case(&[a]));
        positions.push(vec![a]);
    }
    let answers = solve(&decl, &cases);
    let mut memo = HashMap::new();
    for (p, ans) in positions.iter().zip(&answers) {
        assert_eq!(ans, verdict(strips_win(p, &mut memo)), "{p:?}");
    }
    // Large strips: the mex table reaches them through their halves.
    let big = solve(&decl, &[list_case(&[100000, 99999])]);
    assert_eq!(big.len(), 1);
}

/// `sequence octal --rules 0.77 --count n --json` values.
fn octal_values(n: usize) -> Vec<u64> {
    let count = n.to_string();
    let out = sgcheck(
        &[
            "sequence", "octal", "--rules", "0.77", "--count", &count, "--json",
        ],
        "",
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    v["values"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_u64().unwrap())
        .collect()
}

#[test]
fn kayles_as_a_script_reproduces_octal_077() {
    let decl = std::fs::read_to_string(data("kayles.toml")).unwrap();
    let script = decl
        .split("script = \"\"\"")
        .nth(1)
        .and_then(|s| s.split("\"\"\"").next())
        .unwrap();
    let rules = sgcheck::games::scripted::ScriptRules::new(script, false, None).unwrap();
    let want = octal_values(300);
    let got: Vec<u64> = (0..300).map(|n| rules.grundy(&[n]).unwrap()).collect();
    assert_eq!(got, want);
    // Whole positions through the declaration: second player wins iff the XOR is 0.
    let cases: Vec<Vec<u64>> = (0..40u64)
        .flat_map(|a| [vec![a, 7], vec![a, 100, 250]])
        .collect();
    let lines: Vec<String> = cases.iter().map(|c| list_case(c)).collect();
    let answers = solve(&data("kayles.toml"), &lines);
    for (c, ans) in cases.iter().zip(&answers) {
        let x = c.iter().fold(0, |x, &n| x ^ want[n as usize]);
        assert_eq!(ans, verdict(x != 0), "{c:?}");
    }
}

#[test]
fn verify_agrees_on_each_scripted_game() {
    for name in [
        "mock_turtles.toml",
        "ruler.toml",
        "chomp2.toml",
        "no_repeat.toml",
        "strips.toml",
        "kayles.toml",
    ] {
        let decl = data(name);
        let out = sgcheck(
            &[
                "verify",
                "--problem",
                decl.to_str().unwrap(),
                "--time",
                "2",
                "--seed",
                "1",
                "--json",
            ],
            "",
        );
        assert_eq!(out.status.code(), Some(0), "{name}: {}", text(&out.stderr));
        let v: Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(v["games"][0]["game"], "scripted", "{v}");
        let tiers = v["games"][0]["tiers"].as_array().unwrap();
        let t3 = tiers.iter().find(|t| t["tier"] == 3).expect("tier 3");
        assert!(t3["checked"].as_u64().unwrap() > 50, "{name}: {v}");
        assert_eq!(v["disagreements"], 0, "{name}");
    }
}

/// Solutions of the five problems: `BUG` marks the line a planted bug replaces.
const TURTLES_CPP: &str = r#"#include <cstdio>
int main() {
    int T; if (scanf("%d", &T) != 1) return 0;
    while (T--) {
        int n, x = 0; scanf("%d", &n);
        for (int i = 0; i < n; i++) {
            int h; scanf("%d", &h);
            int v = 2 * h;
            if (BUG) v++;
            x ^= v;
        }
        puts(x ? "First" : "Second");
    }
}
"#;

const RULER_CPP: &str = r#"#include <cstdio>
int main() {
    int T; if (scanf("%d", &T) != 1) return 0;
    while (T--) {
        int n; long long x = 0; scanf("%d", &n);
        for (int i = 0; i < n; i++) {
            long long h; scanf("%lld", &h);
            x ^= BUG;
        }
        puts(x ? "First" : "Second");
    }
}
"#;

const CHOMP_CPP: &str = r#"#include <cstdio>
#include <algorithm>
int main() {
    int T; if (scanf("%d", &T) != 1) return 0;
    while (T--) {
        int x, y; scanf("%d %d", &x, &y);
        int a = BUG_A, b = BUG_B;
        puts(a == b + 1 ? "LOSE" : "WIN");
    }
}
"#;

const NO_REPEAT_CPP: &str = r#"#include <cstdio>
int g[1001][4];
int main() {
    for (int n = 0; n <= 1000; n++)
        for (int last = 0; last <= 3; last++) {
            bool seen[8] = {false};
            for (int k = 1; k <= 3 && k <= n; k++)
                if (BUG) seen[g[n - k][k]] = true;
            int m = 0; while (seen[m]) m++;
            g[n][last] = m;
        }
    int T; if (scanf("%d", &T) != 1) return 0;
    while (T--) {
        int n, x = 0; scanf("%d", &n);
        for (int i = 0; i < n; i++) { int h; scanf("%d", &h); x ^= g[h][0]; }
        puts(x ? "First" : "Second");
    }
}
"#;

const STRIPS_CPP: &str = r#"#include <cstdio>
#include <map>
std::map<int, int> memo;
int g(int n) {
    auto it = memo.find(n);
    if (it != memo.end()) return it->second;
    bool seen[64] = {false};
    for (int a = 1; a BUG n / 2; a++) {
        int b = n - a;
        if (b - a <= 2) seen[g(a) ^ g(b)] = true;
    }
    int m = 0; while (seen[m]) m++;
    return memo[n] = m;
}
int main() {
    int T; if (scanf("%d", &T) != 1) return 0;
    while (T--) {
        int n, x = 0; scanf("%d", &n);
        for (int i = 0; i < n; i++) { int h; scanf("%d", &h); x ^= g(h); }
        puts(x ? "First" : "Second");
    }
}
"#;

#[test]
fn audit_passes_right_solutions_and_catches_planted_bugs() {
    let Some(w) = workshop::Workshop::new() else {
        return;
    };
    let pop = "__builtin_popcount(v) % 2 == 0";
    let cases: Vec<(&str, String, String)> = vec![
        (
            "mock_turtles.toml",
            workshop::variant(TURTLES_CPP, "BUG", pop),
            // The odious test inverted.
            workshop::variant(TURTLES_CPP, "BUG", "__builtin_popcount(v) % 2 == 1"),
        ),
        (
            "ruler.toml",
            workshop::variant(RULER_CPP, "BUG", "h & -h"),
            // The ruler function itself (1, 2, 1, 3, ...) taken for the power of 2.
            workshop::variant(RULER_CPP, "BUG", "__builtin_ctzll(h) + 1"),
        ),
        (
            "chomp2.toml",
            workshop::variant(
                &workshop::variant(CHOMP_CPP, "BUG_A", "std::max(x, y)"),
                "BUG_B",
                "std::min(x, y)",
            ),
            // The rows taken in the order given, as if the first were the longer.
            workshop::variant(&workshop::variant(CHOMP_CPP, "BUG_A", "x"), "BUG_B", "y"),
        ),
        (
            "no_repeat.toml",
            workshop::variant(NO_REPEAT_CPP, "BUG", "k != last"),
            // The history forgotten: plain subtraction of 1, 2, 3.
            workshop::variant(NO_REPEAT_CPP, "BUG", "true"),
        ),
        (
            "strips.toml",
            workshop::variant(STRIPS_CPP, "BUG", "<="),
            // The even cut a = b missed.
            workshop::variant(STRIPS_CPP, "BUG", "<"),
        ),
    ];
    for (name, right, wrong) in cases {
        let decl = data(name);
        let audit = |exe: &Path, time: &str| w.audit_declared(&decl, 1, time, exe);
        let stem = name.trim_end_matches(".toml");
        let r = audit(&w.compile(&format!("{stem}_right"), &right, &[]), "4");
        assert_eq!(r["verdict"], "ok", "{name}: {r}");
        let r = audit(&w.compile(&format!("{stem}_wrong"), &wrong, &[]), "20");
        assert_eq!(r["verdict"], "wrong-answer", "{name}: {r}");
    }
}

/// A declaration of `script` over heaps 0..=20 (with `extra` lines in `[game]`).
fn hostile(dir: &Path, name: &str, script: &str, extra: &str) -> PathBuf {
    let decl = format!(
        r#"format = 2
id = "{name}"
title = "hostile"
position = ["heaps"]

[game]
script = """
{script}
"""
{extra}

[input]
cases = "count"
count = {{ what = "case count T", min = 1, max = 10 }}

[[field]]
name = "heaps"
what = "heap {{i}} of case {{case}}"
min = 0
max = 20
inline = true
length = {{ what = "heap count n of case {{case}}", min = 1, max = 3 }}

[output]
lines = ["{{verdict}}"]
win = "First"
lose = "Second"
"#
    );
    let path = dir.join(format!("{name}.toml"));
    std::fs::write(&path, decl).unwrap();
    path
}

#[test]
fn hostile_scripts_exit_2_quickly_with_a_clear_error() {
    let dir = tempfile::tempdir().unwrap();
    let cases = [
        ("endless", "fn moves(s) { loop { } }", "operations"),
        (
            "recursion",
            "fn down(n) { down(n + 1) + 1 }\nfn moves(s) { down(0) }",
            "nested more than",
        ),
        (
            "huge",
            "fn moves(s) { let a = [1]; loop { a += a; } }",
            "limit",
        ),
        (
            "string",
            "fn moves(s) { let t = \"x\"; loop { t += t; } }",
            "limit",
        ),
        ("cycle", "fn moves(s) { [[(s[0] + 1) % 3]] }", "lead back"),
        ("syntax", "fn moves(s) { [ }", "does not compile"),
        ("nomoves", "fn other(s) { [] }", "no `fn moves"),
        ("notalist", "fn moves(s) { \"moves\" }", "not a list"),
        // A chain of a million function values: nothing captures (no closures), so
        // the chain never forms; the loop ends at the operations limit, not in a
        // crash when the chain is dropped.
        (
            "closures",
            "fn moves(s) { let f = || 0; for i in 0..1000000 { let g = f; f = || g.call() + 1; } [] }",
            "operations",
        ),
        // `f.curry(f)` doubles a function value at each turn: refused when read.
        (
            "curry",
            "fn moves(s) { let f = Fn(\"abs\"); for i in 0..64 { f = f.curry(f); } [] }",
            "does not compile",
        ),
        // Arrays kept in a map by index assignment: each within the array limit,
        // together past the memory budget of a call.
        (
            "map_memory",
            "fn moves(s) { let a = []; a.pad(60000, 1); let m = #{}; \
             for i in 0..1000 { m[\"k\" + i] = a; } [] }",
            "more than 32 MB of memory",
        ),
        // Arrays nested ever deeper, compared whole at each turn: the time limit, no
        // crash on the stack.
        (
            "deep",
            "fn moves(s) { let a = []; loop { a = [a]; if a != a { break; } } [] }",
            "CPU time",
        ),
    ];
    for (name, script, want) in cases {
        // Read with a checked box: refused when the declaration is read.
        let path = hostile(dir.path(), name, script, "check_states = [[0], [3]]");
        let start = Instant::now();
        let out = sgcheck(&["solve", "--problem", path.to_str().unwrap()], "1\n1 3\n");
        let took = start.elapsed();
        assert_eq!(out.status.code(), Some(2), "{name}: {}", text(&out.stdout));
        let err = text(&out.stderr);
        assert!(
            err.contains("game.script") && err.contains(want),
            "{name}: {err}"
        );
        assert!(err.contains(&format!("{name}.toml")), "{name}: {err}");
        assert!(took < Duration::from_secs(15), "{name}: {took:?}");
        assert!(!err.contains("panicked"), "{name}: {err}");
        // Without a box: refused on the first case that reaches the bad code.
        let path = hostile(dir.path(), name, script, "");
        let out = sgcheck(&["solve", "--problem", path.to_str().unwrap()], "1\n1 3\n");
        assert_eq!(out.status.code(), Some(2), "{name} (no box)");
        assert!(!text(&out.stderr).contains("panicked"), "{name}");
    }
    // A wrong closed form is caught by the box, naming the state.
    let path = hostile(
        dir.path(),
        "wrong_value",
        "fn moves(s) { let o = []; for k in 1..=2 { if k <= s[0] { o.push([s[0] - k]); } } o }\n\
         fn value(s) { s[0] % 3 + if s[0] == 7 { 1 } else { 0 } }",
        "check_states = [[0], [20]]",
    );
    let out = sgcheck(&["solve", "--problem", path.to_str().unwrap()], "1\n1 3\n");
    assert_eq!(out.status.code(), Some(2));
    let err = text(&out.stderr);
    assert!(
        err.contains("value(7) = 2, but the mex of its moves is 1"),
        "{err}"
    );
    // The right closed form passes, and answers past the box.
    let path = hostile(
        dir.path(),
        "right_value",
        "fn moves(s) { let o = []; for k in 1..=2 { if k <= s[0] { o.push([s[0] - k]); } } o }\n\
         fn value(s) { s[0] % 3 }",
        "check_states = [[0], [20]]",
    );
    let out = sgcheck(
        &["solve", "--problem", path.to_str().unwrap()],
        "2\n1 3\n2 4 8\n",
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout), "Second\nFirst\n");
    // A value without a box is refused.
    let path = hostile(
        dir.path(),
        "unchecked_value",
        "fn moves(s) { [] }\nfn value(s) { 0 }",
        "",
    );
    let out = sgcheck(&["solve", "--problem", path.to_str().unwrap()], "1\n1 3\n");
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("check_states"));
}

/// Misère no-repeat take-away on whole positions (who cannot move wins).
fn misere_no_repeat_win(pos: &[(u64, u64)], memo: &mut HashMap<Vec<(u64, u64)>, bool>) -> bool {
    let mut key: Vec<(u64, u64)> = pos.to_vec();
    key.sort_unstable();
    if let Some(&w) = memo.get(&key) {
        return w;
    }
    let mut any = false;
    let mut win = false;
    for i in 0..key.len() {
        let (n, last) = key[i];
        for k in 1..=3 {
            if k <= n && k != last {
                any = true;
                let mut next = key.clone();
                next[i] = (n - k, k);
                if !misere_no_repeat_win(&next, memo) {
                    win = true;
                }
            }
        }
    }
    let w = if any { win } else { true };
    memo.insert(key, w);
    w
}

#[test]
fn misere_play_of_a_script_is_searched() {
    let dir = tempfile::tempdir().unwrap();
    let text = std::fs::read_to_string(data("no_repeat.toml"))
        .unwrap()
        .replace("[input]", "play = \"misere\"\n\n[input]")
        .replace("max = 1000\n", "max = 9\n");
    let decl = dir.path().join("misere.toml");
    std::fs::write(&decl, text).unwrap();
    let mut cases = Vec::new();
    let mut positions = Vec::new();
    for a in 0..=6u64 {
        for b in a..=6u64 {
            cases.push(list_case(&[a, b]));
            positions.push(vec![(a, 0), (b, 0)]);
        }
    }
    let answers = solve(&decl, &cases);
    let mut memo = HashMap::new();
    let mut normal = HashMap::new();
    let mut differs = false;
    for (p, ans) in positions.iter().zip(&answers) {
        let w = misere_no_repeat_win(p, &mut memo);
        assert_eq!(ans, verdict(w), "{p:?}");
        differs |= w != no_repeat_win(p, &mut normal);
    }
    assert!(differs, "misère play changes some verdict");
}

#[test]
fn sequence_of_a_script_with_position_is_of_the_positions_its_numbers_make() {
    // The no-repeat take-away: position(n) is the heap (n, 0), no move made yet; its
    // value is 0 exactly when the heap alone loses, by the minimax written here.
    let decl = data("no_repeat.toml");
    let values = sequence_values(&decl, 40);
    assert_eq!(values.len(), 40);
    let mut memo = HashMap::new();
    let mut zeros = 0;
    for (n, &g) in values.iter().enumerate() {
        let lost = !no_repeat_win(&[(n as u64, 0)], &mut memo);
        assert_eq!(g == 0, lost, "heap {n}: g = {g}");
        zeros += usize::from(lost);
    }
    assert!(zeros > 2 && zeros < 38, "{zeros}");
    // Two-row Chomp's positions come from two numbers x and y: `x y g` for x, y in
    // 0..12, each g the mex of a Grundy table written here.
    let decl = data("chomp2.toml");
    let out = sequence_scripted(&decl, &["--count", "12"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    assert!(stdout.starts_with("# game scripted rules "), "{stdout}");
    assert!(stdout.contains("g(x, y) for x, y in 0..12"), "{stdout}");
    let rows: Vec<Vec<u64>> = stdout
        .lines()
        .filter(|l| !l.starts_with('#'))
        .map(|l| l.split_whitespace().map(|w| w.parse().unwrap()).collect())
        .collect();
    assert_eq!(rows.len(), 144);
    let mut memo = HashMap::new();
    let mut distinct = std::collections::BTreeSet::new();
    for (i, row) in rows.iter().enumerate() {
        let (x, y) = ((i / 12) as u64, (i % 12) as u64);
        assert_eq!(row[..2], [x, y]);
        let want = chomp_grundy(x.max(y), x.min(y), &mut memo);
        assert_eq!(row[2], want, "g({x}, {y})");
        distinct.insert(want);
    }
    assert!(distinct.len() > 5, "{distinct:?}");
    // The JSON gives the same values, x major, with their column count.
    let out = sequence_scripted(&decl, &["--count", "12", "--json"]);
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json["columns"], 12);
    let values: Vec<u64> = serde_json::from_value(json["values"].clone()).unwrap();
    assert_eq!(values, rows.iter().map(|r| r[2]).collect::<Vec<_>>());
    // A position made from three fields has no table: refused, saying so.
    let dir = tempfile::tempdir().unwrap();
    let three = dir.path().join("three.toml");
    let src = std::fs::read_to_string(&decl).unwrap();
    std::fs::write(
        &three,
        src.replace(r#"position = ["x", "y"]"#, r#"position = ["x", "y", "x"]"#),
    )
    .unwrap();
    let out = sequence_scripted(&three, &[]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stdout));
    assert!(
        text(&out.stderr).contains("made from 3 fields"),
        "{}",
        text(&out.stderr)
    );
}
