//! Games declared as data: a format-2 declaration's `[game]` table defines a heap game
//! by its rules (a take-and-break code, a subtraction set, a range, Grundy's unequal
//! split; normal or misère play), and sgcheck derives the oracle, the solver, `verify`,
//! `audit` and `sequence` from it. Values are checked against published sequences
//! (OEIS), sgcheck's built-in games, and brute force written here.

mod workshop;

use workshop::{sgcheck, text};

use serde_json::Value;
use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// A declaration of a heap game: T cases, each `n h1 .. hn` (heaps `0..=max`, at most
/// `len` of them), printing `First` or `Second`. `[game]` holds `game`.
fn declaration(dir: &Path, name: &str, game: &str, max: u64, len: u64) -> PathBuf {
    let decl = r#"format = 2
id = "NAME"
title = "NAME (declared by its rules)"
position = ["heaps"]

[game]
GAME

[input]
cases = "count"
count = { what = "case count T", min = 1, max = 5000 }

[[field]]
name = "heaps"
what = "heap {i} of case {case}"
min = 0
max = MAX
lenient_max = MAX
inline = true
length = { what = "heap count n of case {case}", min = 1, max = LEN, lenient_max = LEN }

[output]
lines = ["{verdict}"]
win = "First"
lose = "Second"
"#
    .replace("NAME", name)
    .replace("GAME", game)
    .replace("MAX", &max.to_string())
    .replace("LEN", &len.to_string());
    let path = dir.join(format!("{name}.toml"));
    std::fs::write(&path, decl).unwrap();
    path
}

/// `sgcheck sequence <game> --rules <rules> --count <count> --json`.
fn sequence(game: &str, rules: Option<&str>, count: usize) -> Value {
    let count = count.to_string();
    let mut args = vec!["sequence", game, "--count", &count, "--json"];
    if let Some(r) = rules {
        args.extend(["--rules", r]);
    }
    let out = sgcheck(&args, "");
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    serde_json::from_slice(&out.stdout).expect("sequence --json prints JSON")
}

fn values(v: &Value) -> Vec<u64> {
    v["values"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_u64().unwrap())
        .collect()
}

/// Solves `cases` (each a list of heaps) with the declaration: one answer per case.
fn solve(decl: &Path, cases: &[Vec<u64>]) -> Vec<String> {
    let mut input = format!("{}\n", cases.len());
    for c in cases {
        let heaps: Vec<String> = c.iter().map(u64::to_string).collect();
        input.push_str(&format!("{} {}\n", c.len(), heaps.join(" ")));
    }
    let out = sgcheck(&["solve", "--problem", decl.to_str().unwrap()], &input);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    text(&out.stdout).lines().map(str::to_string).collect()
}

/// Every multiset of `1..=len` heaps of `0..=max`, heaps ascending.
fn multisets(max: u64, len: usize) -> Vec<Vec<u64>> {
    let mut out: Vec<Vec<u64>> = Vec::new();
    let mut level: Vec<Vec<u64>> = vec![vec![]];
    for _ in 0..len {
        let mut next = Vec::new();
        for p in &level {
            let from = p.last().copied().unwrap_or(0);
            for h in from..=max {
                let mut q = p.clone();
                q.push(h);
                next.push(q);
            }
        }
        out.extend(next.iter().cloned());
        level = next;
    }
    out
}

// -------------------------------------------------------------------------------------
// Brute force, written here from the rules of SPEC Part 3 (no sgcheck code): the heaps
// one move may leave of a heap of n.

/// The rules of a code: d0, and d_k for k >= 1 (0 past the digits unless `repeat`).
struct Code {
    d0: u8,
    digits: Vec<u8>,
    repeat: Option<u8>,
}

impl Code {
    fn digit(&self, k: u64) -> u8 {
        match self.digits.get(k as usize - 1) {
            Some(&d) => d,
            None => self.repeat.unwrap_or(0),
        }
    }

    /// Every option of a heap of n: the heaps left (possibly none).
    fn options(&self, n: u64) -> Vec<Vec<u64>> {
        let mut out = Vec::new();
        let mut leave = |rest: u64, d: u8, take: bool| {
            if take && rest == 0 && d & 1 != 0 {
                out.push(vec![]);
            }
            if take && rest >= 1 && d & 2 != 0 {
                out.push(vec![rest]);
            }
            if d & 4 != 0 {
                for a in 1..rest {
                    out.push(vec![a, rest - a]);
                }
            }
            if d & 8 != 0 {
                for a in 1..rest {
                    for b in 1..rest - a {
                        out.push(vec![a, b, rest - a - b]);
                    }
                }
            }
        };
        leave(n, self.d0, false);
        for k in 1..=n {
            leave(n - k, self.digit(k), true);
        }
        out
    }
}

/// Whether the player to move wins `heaps` (plain minimax over multisets of heaps).
fn wins(code: &Code, misere: bool, heaps: &[u64], memo: &mut HashMap<Vec<u64>, bool>) -> bool {
    let mut key: Vec<u64> = heaps.iter().copied().filter(|&h| h > 0).collect();
    key.sort_unstable();
    if let Some(&w) = memo.get(&key) {
        return w;
    }
    let mut any_move = false;
    let mut win = false;
    'all: for i in 0..key.len() {
        for left in code.options(key[i]) {
            any_move = true;
            let mut next = key.clone();
            next.remove(i);
            next.extend(left);
            if !wins(code, misere, &next, memo) {
                win = true;
                break 'all;
            }
        }
    }
    let w = if any_move { win } else { misere };
    memo.insert(key, w);
    w
}

/// g(0..len) of one heap by mex over its options (the XOR of the heaps each leaves).
fn brute_grundy(code: &Code, len: usize) -> Vec<u64> {
    let mut g: Vec<u64> = Vec::new();
    for n in 0..len as u64 {
        let seen: std::collections::HashSet<u64> = code
            .options(n)
            .iter()
            .map(|left| left.iter().fold(0, |a, &h| a ^ g[h as usize]))
            .collect();
        g.push((0..).find(|v| !seen.contains(v)).unwrap());
    }
    g
}

// -------------------------------------------------------------------------------------

/// OEIS A002186 (Kayles) and A002187 (Dawson's chess), the prefixes SPEC Part 3 gives.
const KAYLES: [u64; 36] = [
    0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6, 4, 1, 2, 7, 1, 4, 3, 2, 1, 4, 6, 7, 4, 1, 2, 8, 5, 4, 7, 2,
    1, 8, 6, 7,
];
const DAWSON: [u64; 34] = [
    0, 1, 1, 2, 0, 3, 1, 1, 0, 3, 3, 2, 2, 4, 0, 5, 2, 2, 3, 3, 0, 1, 1, 3, 0, 2, 1, 1, 0, 4, 5, 2,
    7, 4,
];

#[test]
fn kayles_and_dawson_by_code_reproduce_oeis_and_the_octal_game() {
    for (code, oeis, period) in [
        ("0.77", &KAYLES[..], (71, 12)),
        ("0.137", &DAWSON[..], (52, 34)),
    ] {
        let declared = sequence("heap-code", Some(code), 3000);
        let built_in = sequence("octal", Some(code), 3000);
        let v = values(&declared);
        assert_eq!(&v[..oeis.len()], oeis, "{code}");
        assert_eq!(v, values(&built_in), "{code}");
        let p = &declared["period"];
        assert_eq!(
            (p["preperiod"].as_u64(), p["period"].as_u64()),
            (Some(period.0), Some(period.1)),
            "{code}: {declared}"
        );
        assert!(
            p["proof"].as_str().unwrap().contains("periodicity theorem"),
            "{p}"
        );
    }
    // Dawson's Kayles 0.07 is A002187 shifted by one place.
    let dk = values(&sequence("heap-code", Some("0.07"), 35));
    assert_eq!(&dk[1..], &DAWSON[..]);
}

#[test]
fn kayles_declared_by_code_answers_positions() {
    // Two Kayles heaps a, b: the second player wins exactly when g(a) == g(b).
    let dir = tempfile::tempdir().unwrap();
    let decl = declaration(dir.path(), "kayles", "code = \"0.77\"", 1000, 10);
    let cases: Vec<Vec<u64>> = (0..36u64)
        .flat_map(|a| (0..36u64).map(move |b| vec![a, b]))
        .collect();
    let answers = solve(&decl, &cases);
    for (c, ans) in cases.iter().zip(&answers) {
        let lose = KAYLES[c[0] as usize] == KAYLES[c[1] as usize];
        assert_eq!(ans, if lose { "Second" } else { "First" }, "{c:?}");
    }
}

#[test]
fn lasker_and_hdu5795_codes_equal_the_built_in_games() {
    assert_eq!(
        values(&sequence("heap-code", Some("4.[3]"), 2000)),
        values(&sequence("lasker", None, 2000))
    );
    assert_eq!(
        values(&sequence("heap-code", Some("8.[3]"), 1000)),
        values(&sequence("simple-nim", None, 1000))
    );
    // Neither is claimed periodic: the bracketed digit leaves no longest removal.
    assert!(sequence("heap-code", Some("4.[3]"), 100)["period"].is_null());
}

#[test]
fn hexadecimal_codes_against_brute_force() {
    for (text, code) in [
        (
            "0.F",
            Code {
                d0: 0,
                digits: vec![15],
                repeat: None,
            },
        ),
        (
            "0.9",
            Code {
                d0: 0,
                digits: vec![9],
                repeat: None,
            },
        ),
        (
            "0.48",
            Code {
                d0: 0,
                digits: vec![4, 8],
                repeat: None,
            },
        ),
        (
            "C.37",
            Code {
                d0: 12,
                digits: vec![3, 7],
                repeat: None,
            },
        ),
        (
            "8.0[1]",
            Code {
                d0: 8,
                digits: vec![0],
                repeat: Some(1),
            },
        ),
    ] {
        let want = brute_grundy(&code, 60);
        let got = values(&sequence("heap-code", Some(text), 60));
        assert_eq!(got, want, "{text}");
    }
    // Whole positions of 0.9C through a declaration, against minimax.
    let dir = tempfile::tempdir().unwrap();
    let decl = declaration(dir.path(), "hex", "code = \"0.9C\"", 12, 3);
    let code = Code {
        d0: 0,
        digits: vec![9, 12],
        repeat: None,
    };
    let cases = multisets(8, 3);
    let answers = solve(&decl, &cases);
    let mut memo = HashMap::new();
    for (c, ans) in cases.iter().zip(&answers) {
        let w = wins(&code, false, c, &mut memo);
        assert_eq!(ans, if w { "First" } else { "Second" }, "0.9C {c:?}");
    }
}

#[test]
fn misere_heap_games_against_brute_force() {
    let dir = tempfile::tempdir().unwrap();
    for (name, table, code) in [
        (
            "misere_kayles",
            "code = \"0.77\"\nplay = \"misere\"",
            Code {
                d0: 0,
                digits: vec![7, 7],
                repeat: None,
            },
        ),
        (
            "misere_subtract",
            "subtract = [1, 3, 4]\nplay = \"misere\"",
            Code {
                d0: 0,
                digits: vec![3, 0, 3, 3],
                repeat: None,
            },
        ),
    ] {
        let decl = declaration(dir.path(), name, table, 30, 4);
        let cases = multisets(7, 3);
        let answers = solve(&decl, &cases);
        let mut memo = HashMap::new();
        let (mut won, mut lost) = (0, 0);
        for (c, ans) in cases.iter().zip(&answers) {
            let w = wins(&code, true, c, &mut memo);
            assert_eq!(ans, if w { "First" } else { "Second" }, "{name} {c:?}");
            if w {
                won += 1
            } else {
                lost += 1
            }
        }
        assert!(won > 0 && lost > 0, "{name}");
        // Beyond what the search answers: subtraction of 1, 3, 4 plays like misère
        // Nim (proven from its table), so it answers; misère Kayles does not, and is
        // refused with exit 2, saying why.
        let out = sgcheck(
            &["solve", "--problem", decl.to_str().unwrap()],
            "1\n2 30 30\n",
        );
        let err = text(&out.stderr);
        if name == "misere_subtract" {
            assert_eq!(out.status.code(), Some(0), "{name}: {err}");
            let w = wins(&code, true, &[30, 30], &mut memo);
            assert_eq!(text(&out.stdout).trim(), if w { "First" } else { "Second" });
        } else {
            assert_eq!(out.status.code(), Some(2), "{name}");
            assert!(
                err.contains("misère") && err.contains("exhaustive search"),
                "{err}"
            );
        }
    }
    // Misère play has no Grundy sequence.
    let out = sgcheck(&["sequence", "heap-code", "--rules", "0.77 misere"], "");
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn other_shapes_against_brute_force() {
    // Subtraction sets (explicit and named), a range and Grundy's game: positions
    // through declarations, against minimax on the same rules written as codes.
    let fib: Vec<u8> = (1..=40u64)
        .map(|k| {
            if [1, 2, 3, 5, 8, 13, 21, 34].contains(&k) {
                3
            } else {
                0
            }
        })
        .collect();
    let pow: Vec<u8> = (1..=40u64)
        .map(|k| if k.is_power_of_two() { 3 } else { 0 })
        .collect();
    let dir = tempfile::tempdir().unwrap();
    for (name, table, code) in [
        (
            "fib",
            "subtract = \"fibonacci\"",
            Code {
                d0: 0,
                digits: fib,
                repeat: None,
            },
        ),
        (
            "pow",
            "subtract = \"powers-of-two\"",
            Code {
                d0: 0,
                digits: pow,
                repeat: None,
            },
        ),
        (
            "range",
            "range = [2, 3]",
            Code {
                d0: 0,
                digits: vec![0, 3, 3],
                repeat: None,
            },
        ),
    ] {
        let decl = declaration(dir.path(), name, table, 40, 3);
        let cases = multisets(12, 3);
        let answers = solve(&decl, &cases);
        let mut memo = HashMap::new();
        for (c, ans) in cases.iter().zip(&answers) {
            let w = wins(&code, false, c, &mut memo);
            assert_eq!(ans, if w { "First" } else { "Second" }, "{name} {c:?}");
        }
    }
    // Grundy's game: OEIS A002188, 0,0,0,1,0,2,1,0,2,1,0,2,1,3,2,1,3,2,4,3,0.
    let g = values(&sequence("heap-code", Some("split-unequal"), 21));
    assert_eq!(
        g,
        [0, 0, 0, 1, 0, 2, 1, 0, 2, 1, 0, 2, 1, 3, 2, 1, 3, 2, 4, 3, 0]
    );
}

#[test]
fn verify_agrees_on_each_declared_game() {
    let dir = tempfile::tempdir().unwrap();
    for (name, table, max) in [
        ("kayles", "code = \"0.77\"", 60),
        ("dawson", "code = \"0.137\"", 60),
        ("lasker", "code = \"4.[3]\"", 60),
        ("hex", "code = \"0.9C\"", 20),
        ("misere", "code = \"0.77\"\nplay = \"misere\"", 8),
        ("sub", "subtract = [1, 3, 4]", 60),
        ("grundy", "split_unequal = true", 30),
    ] {
        let decl = declaration(dir.path(), name, table, max, 3);
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
        assert_eq!(v["games"][0]["game"], "heap-code", "{v}");
        let tiers = v["games"][0]["tiers"].as_array().unwrap();
        let t3 = tiers.iter().find(|t| t["tier"] == 3).expect("tier 3");
        assert!(t3["checked"].as_u64().unwrap() > 50, "{name}: {v}");
        assert_eq!(v["disagreements"], 0, "{name}");
    }
}

/// Kayles by mex up to the largest heap, then the XOR; `SPLIT_TO` is where the
/// two-heap splits of the rest stop (`<= r / 2` right, `< r / 2` the planted bug).
const KAYLES_CPP: &str = r#"#include <cstdio>
#include <vector>
int main() {
    int T;
    if (scanf("%d", &T) != 1) return 0;
    const int N = 1001;
    static int g[N];
    for (int n = 0; n < N; n++) {
        std::vector<bool> seen(2 * N + 2, false);
        for (int k = 1; k <= 2 && k <= n; k++) {
            int r = n - k;
            if (r == 0) { seen[0] = true; continue; }
            seen[g[r]] = true;
            for (int a = 1; a SPLIT_TO; a++) seen[g[a] ^ g[r - a]] = true;
        }
        int m = 0;
        while (seen[m]) m++;
        g[n] = m;
    }
    while (T--) {
        int n, x = 0;
        scanf("%d", &n);
        for (int i = 0; i < n; i++) { int h; scanf("%d", &h); x ^= g[h]; }
        puts(x ? "First" : "Second");
    }
}
"#;

/// The hexadecimal code 0.9C by mex, then the XOR: take one token and leave nothing
/// or three heaps (9 = 1 + 8), or take two and leave two or three heaps (C = 4 + 8).
/// `THREE` is the test of the three-heap splits (`true` right; `false`, the planted
/// bug, reads 8 as if it were not there).
const HEX_CPP: &str = r#"#include <cstdio>
int main() {
    const int N = 61;
    const int digit[3] = {0, 9, 12};
    static int g[N];
    for (int n = 1; n < N; n++) {
        bool seen[256] = {false};
        for (int k = 1; k <= 2 && k <= n; k++) {
            int d = digit[k], r = n - k;
            if ((d & 1) && r == 0) seen[0] = true;
            if ((d & 2) && r > 0) seen[g[r]] = true;
            if (d & 4)
                for (int a = 1; 2 * a <= r; a++) seen[g[a] ^ g[r - a]] = true;
            if ((d & 8) && THREE)
                for (int a = 1; 3 * a <= r; a++)
                    for (int b = a; a + 2 * b <= r; b++) seen[g[a] ^ g[b] ^ g[r - a - b]] = true;
        }
        int m = 0;
        while (seen[m]) m++;
        g[n] = m;
    }
    int T;
    if (scanf("%d", &T) != 1) return 0;
    while (T--) {
        int n, x = 0;
        scanf("%d", &n);
        for (int i = 0; i < n; i++) { int h; scanf("%d", &h); x ^= g[h]; }
        puts(x ? "First" : "Second");
    }
}
"#;

/// Misère Kayles by minimax over sorted heap lists; `NO_MOVE` is the answer of a
/// player who cannot move (`true` in misère play; `false`, the planted bug, is normal
/// play).
const MISERE_KAYLES_CPP: &str = r#"#include <cstdio>
#include <map>
#include <vector>
#include <algorithm>
std::map<std::vector<int>, bool> memo;
bool wins(std::vector<int> p) {
    std::sort(p.begin(), p.end());
    p.erase(std::remove(p.begin(), p.end(), 0), p.end());
    if (p.empty()) return NO_MOVE;
    auto it = memo.find(p);
    if (it != memo.end()) return it->second;
    bool w = false;
    for (size_t i = 0; i < p.size() && !w; i++)
        for (int k = 1; k <= 2 && k <= p[i] && !w; k++) {
            int r = p[i] - k;
            for (int a = 0; 2 * a <= r && !w; a++) {
                std::vector<int> q = p;
                q[i] = a;
                q.push_back(r - a);
                if (!wins(q)) w = true;
            }
        }
    return memo[p] = w;
}
int main() {
    int T;
    if (scanf("%d", &T) != 1) return 0;
    while (T--) {
        int n;
        scanf("%d", &n);
        std::vector<int> p(n);
        for (int i = 0; i < n; i++) scanf("%d", &p[i]);
        puts(wins(p) ? "First" : "Second");
    }
}
"#;

#[test]
fn audit_catches_planted_bugs_in_a_hexadecimal_and_a_misere_game() {
    let Some(w) = workshop::Workshop::new() else {
        return;
    };
    for (name, table, max, len, src, right, wrong) in [
        (
            "hex",
            "code = \"0.9C\"",
            60,
            4,
            HEX_CPP,
            ("THREE", "true"),
            ("THREE", "false"),
        ),
        (
            "misere-kayles",
            "code = \"0.77\"\nplay = \"misere\"",
            8,
            3,
            MISERE_KAYLES_CPP,
            ("NO_MOVE", "true"),
            ("NO_MOVE", "false"),
        ),
    ] {
        let decl = declaration(w.path(), name, table, max, len);
        let audit = |exe: &Path, time: &str| w.audit_declared(&decl, 1, time, exe);
        let exe = w.compile(
            &format!("{name}_right"),
            &workshop::variant(src, right.0, right.1),
            &[],
        );
        let r = audit(&exe, "4");
        assert_eq!(r["verdict"], "ok", "{name}: {r}");
        let exe = w.compile(
            &format!("{name}_wrong"),
            &workshop::variant(src, wrong.0, wrong.1),
            &[],
        );
        let r = audit(&exe, "20");
        assert_eq!(r["verdict"], "wrong-answer", "{name}: {r}");
        let input = r["counterexample"]["input"].as_str().unwrap();
        // Small: one case of at most three heaps.
        let lines: Vec<&str> = input.lines().collect();
        assert_eq!(lines.first(), Some(&"1"), "{name}: {r}");
        assert!(
            lines.len() == 2 && lines[1].split(' ').count() <= 4,
            "{name}: {r}"
        );
        eprintln!("{name}: {input:?} {}", r["counterexample"]["minimal"]);
    }
}

#[test]
fn audit_of_a_declared_game_catches_a_planted_bug() {
    let Some(w) = workshop::Workshop::new() else {
        return;
    };
    let decl = declaration(w.path(), "kayles", "code = \"0.77\"", 1000, 10);
    let audit = |exe: &Path| w.audit_declared(&decl, 1, "20", exe);
    let right = w.compile(
        "right",
        &workshop::variant(KAYLES_CPP, "SPLIT_TO", "<= r / 2"),
        &[],
    );
    let r = audit(&right);
    assert_eq!(r["verdict"], "ok", "{r}");
    let wrong = w.compile(
        "wrong",
        &workshop::variant(KAYLES_CPP, "SPLIT_TO", "< r / 2"),
        &[],
    );
    let r = audit(&wrong);
    assert_eq!(r["verdict"], "wrong-answer", "{r}");
    // The first heap the missing 1 + 1 split changes is 3 (g = 3, not 0).
    let c = &r["counterexample"];
    assert_eq!(c["input"], "1\n1 3\n", "{r}");
    assert_eq!(c["expected"], "First\n");
}

#[test]
fn absurd_declarations_exit_2_with_file_line_and_key() {
    let dir = tempfile::tempdir().unwrap();
    let huge = format!("code = \"0.{}\"", "7".repeat(1_000_000));
    let cases: Vec<(&str, String, &str, &str)> = vec![
        ("huge", huge, "game.code", "at most 4096 digits"),
        (
            "digit",
            "code = \"0.7G\"".into(),
            "game.code",
            "'G' cannot be in a code",
        ),
        ("open", "code = \"0.[3\"".into(), "game.code", "bracket"),
        ("two", "code = \"0.[33]\"".into(), "game.code", "one digit"),
        ("inner", "code = \"0.[3]7\"".into(), "game.code", "bracket"),
        ("close", "code = \"0.3]\"".into(), "game.code", ""),
        (
            "nomove",
            "code = \"0.000\"".into(),
            "game.code",
            "allows no move",
        ),
        ("d0", "code = \"12.7\"".into(), "game.code", "d0"),
        (
            "kinds",
            "code = \"0.7\"\nrange = [1, 2]".into(),
            "game.range",
            "one kind",
        ),
        ("none", "play = \"misere\"".into(), "game", "one of `code`"),
        (
            "play",
            "code = \"0.7\"\nplay = \"sideways\"".into(),
            "game.play",
            "normal",
        ),
        (
            "unknown",
            "code = \"0.7\"\nrules = 3".into(),
            "game.rules",
            "unknown field",
        ),
        (
            "zero",
            "subtract = [0, 2]".into(),
            "game.subtract",
            "at least 1",
        ),
        (
            "range",
            "range = [3, 2]".into(),
            "game.range",
            "1 <= p <= q",
        ),
        ("shape", "range = [3]".into(), "game.range", "[p, q]"),
        (
            "unequal",
            "split_unequal = false".into(),
            "game.split_unequal",
            "true",
        ),
    ];
    for (name, table, key, what) in cases {
        let path = declaration(dir.path(), name, &table, 10, 3);
        let out = sgcheck(&["solve", "--problem", path.to_str().unwrap()], "1\n1 1\n");
        let err = text(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{name}: {err}");
        assert!(out.stdout.is_empty(), "{name}");
        assert!(!err.contains("panicked"), "{name}: {err}");
        assert!(err.len() < 2000, "{name}: a message of {} bytes", err.len());
        let line = if name == "none" { 6 } else { 7 };
        assert!(
            err.contains(&format!("{}: line {line}", path.display()))
                || err.contains(&format!("{}: line {}", path.display(), line + 1)),
            "{name}: {err}"
        );
        assert!(err.contains(&format!("key `{key}`")), "{name}: {err}");
        assert!(err.contains(what), "{name}: {err}");
    }
    // A [game] table needs format 2; format 1 files keep `game = "<id>"`.
    let path = declaration(dir.path(), "v1", "code = \"0.7\"", 10, 3);
    let v1 = std::fs::read_to_string(&path)
        .unwrap()
        .replace("format = 2", "format = 1");
    std::fs::write(&path, v1).unwrap();
    let out = sgcheck(&["solve", "--problem", path.to_str().unwrap()], "1\n1 1\n");
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("needs `format = 2`"));
}

#[test]
fn heaps_beyond_the_table_are_refused_not_guessed() {
    // Lasker's Nim by its code has no periodicity theorem: a heap past the table's
    // bound is an error saying so (exit 2), not an extrapolated value.
    let dir = tempfile::tempdir().unwrap();
    let decl = declaration(dir.path(), "lasker", "code = \"4.[3]\"", 1_000_000_000, 3);
    let out = sgcheck(
        &["solve", "--problem", decl.to_str().unwrap()],
        "2\n1 7\n1 999999999\n",
    );
    assert_eq!(out.status.code(), Some(2));
    let err = text(&out.stderr);
    assert!(err.contains("no periodicity theorem applies"), "{err}");
    // Kayles has its period proven: any heap is answered.
    let decl = declaration(dir.path(), "kayles", "code = \"0.77\"", 1_000_000_000, 3);
    let answers = solve(&decl, &[vec![1_000_000_000_u64 - 1, 75]]);
    // 10^9 - 1 = 71 + 4 (mod 12), so g = g(75) = A002186(75) = 8 = g(75): lost.
    assert_eq!(answers, ["Second"]);
}

#[test]
fn check_compares_both_sides_on_one_position() {
    let out = sgcheck(&["check", "heap-code", "5,3", "--rules", "0.137"], "");
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let t = text(&out.stdout);
    // Dawson's chess: g(5) = 3, g(3) = 2; the one winning move takes 2 from the heap
    // of 5, leaving 3 (g = 2).
    assert!(
        t.contains("fast:   win, best 0:2=3, 1 winning move [0:2=3]"),
        "{t}"
    );
    assert!(
        t.contains("oracle: win, best 0:2=3, 1 winning move [0:2=3]"),
        "{t}"
    );
    assert!(t.ends_with("agree\n"), "{t}");
    let out = sgcheck(&["check", "heap-code", "5", "--rules", "0.[33]"], "");
    assert_eq!(out.status.code(), Some(2));
}
