//! `sgcheck audit` catches the mistakes of the problems with several positions per case
//! or with more than a verdict per case (hdu1536, hdu1850, hdu2176) in real contest
//! programs: C++ solutions written here, compiled with `g++ -O2` into a temporary
//! directory, and audited through the built binary.
//!
//! For each mistake there is a correct solution, which must pass the audit (`ok`), and
//! the same program with that one mistake (made by `variant`), which must be caught
//! and shrunk to a small input; each test says what that input must show:
//!
//! - S-Nim (hdu1536): breaking out of the loop over the set at the first amount above
//!   the heap (right only for a sorted set); a table kept from the previous test case;
//! - hdu1850: counting the piles larger than the xor instead of the piles p with
//!   p ^ x < p;
//! - hdu2176: printing each distinct move once; printing the moves in sorted instead
//!   of input order.
//!
//! Every audit has a fixed seed. After every audit no process of the test's directory
//! may be left running. Without g++ the tests say so and pass.

use serde_json::Value;

/// Cases of an audit that should find nothing (it stops at the count, however
/// loaded the machine).
const OK_CASES: u64 = 1000;
/// Budget of an audit that should find a failure (it stops there, long before).
const BUG_TIME: &str = "20";

/// A correct hdu1536 solution: per test case, the Grundy table of its set up to the
/// largest heap of the limits, by mex over every amount of the set.
const S_NIM: &str = r#"#include <cstdio>
#include <cstring>
int s[105], g[10005];
bool seen[105];
int main() {
    int k;
    while (scanf("%d", &k) == 1 && k != 0) {
        for (int i = 0; i < k; i++) scanf("%d", &s[i]);
        // A fresh table for this set.
        for (int n = 0; n <= 10000; n++) {
            memset(seen, 0, sizeof seen);
            for (int j = 0; j < k; j++) {
                if (s[j] > n) continue;
                seen[g[n - s[j]]] = true;
            }
            int v = 0;
            while (seen[v]) v++;
            g[n] = v;
        }
        int m;
        scanf("%d", &m);
        for (int i = 0; i < m; i++) {
            int l, x = 0;
            scanf("%d", &l);
            for (int j = 0; j < l; j++) {
                int h;
                scanf("%d", &h);
                x ^= g[h];
            }
            putchar(x ? 'W' : 'L');
        }
        putchar('\n');
    }
}
"#;

/// A correct hdu1850 solution: the piles p with p ^ x < p, x the xor of all.
const COUNT_MOVES: &str = r#"#include <cstdio>
int a[105];
int main() {
    int n;
    while (scanf("%d", &n) == 1 && n != 0) {
        int x = 0;
        for (int i = 0; i < n; i++) {
            scanf("%d", &a[i]);
            x ^= a[i];
        }
        int count = 0;
        for (int i = 0; i < n; i++)
            if ((a[i] ^ x) < a[i]) count++;
        printf("%d\n", count);
    }
}
"#;

/// A correct hdu2176 solution: `No`, or `Yes` and `p p^x` for every pile p with
/// p ^ x < p, in input order.
const EVERY_MOVE: &str = r#"#include <cstdio>
#include <vector>
#include <set>
#include <algorithm>
int main() {
    int n;
    while (scanf("%d", &n) == 1 && n != 0) {
        std::vector<long long> a(n);
        long long x = 0;
        for (int i = 0; i < n; i++) {
            scanf("%lld", &a[i]);
            x ^= a[i];
        }
        if (x == 0) {
            puts("No");
            continue;
        }
        puts("Yes");
        std::set<long long> printed;
        std::vector<long long> order(a);
        for (int i = 0; i < n; i++) {
            long long p = order[i];
            if ((p ^ x) < p) {
                printf("%lld %lld\n", p, p ^ x);
                printed.insert(p);
            }
        }
    }
}
"#;

mod workshop;
use workshop::*;

fn assert_ok(report: &Value) {
    assert_eq!(report["verdict"], "ok", "{report}");
    assert!(report["counterexample"].is_null());
    assert!(report["cases"].as_u64().unwrap() > 200, "{report}");
}

fn numbers(line: &str) -> Vec<u64> {
    line.split_whitespace()
        .map(|v| v.parse().unwrap())
        .collect()
}

#[test]
fn s_nim_correct_solution_passes() {
    let Some(w) = Workshop::new() else { return };
    let exe = w.compile("s_nim", S_NIM, &[]);
    let sample =
        "2 2 5\n3\n2 5 12\n3 2 4 7\n4 2 3 7 12\n5 1 2 3 4 5\n3\n2 5 12\n3 2 4 7\n4 2 3 7 12\n0\n";
    assert_eq!(run(&exe, sample), "LWW\nWWL\n");
    assert_ok(&w.audit_cases("hdu1536", 5, OK_CASES, &exe));
}

/// `break` at the first amount above the heap is right for a sorted set only: with an
/// amount before a smaller one, the smaller one is never seen for small heaps. The
/// shrunk input has one test case, one position, and a set that is not sorted.
#[test]
fn s_nim_breaking_out_of_an_unsorted_set() {
    let Some(w) = Workshop::new() else { return };
    let src = variant(S_NIM, "if (s[j] > n) continue;", "if (s[j] > n) break;");
    let exe = w.compile("s_nim_break", &src, &[]);
    let r = w.audit_exe("hdu1536", 5, BUG_TIME, &exe);
    assert_eq!(r["verdict"], "wrong-answer", "{r}");
    let c = counterexample(&r);
    assert_eq!(c["minimal"], true, "{r}");
    let input = c["input"].as_str().unwrap();
    let lines: Vec<&str> = input.lines().collect();
    assert_eq!(lines.len(), 4, "one set, m = 1, one position, `0`: {input}");
    assert_eq!(lines[1], "1", "{input}");
    let set = &numbers(lines[0])[1..];
    assert!(set.windows(2).any(|p| p[0] > p[1]), "a sorted set: {input}");
    // The same input with the set sorted is answered right.
    let mut sorted = set.to_vec();
    sorted.sort();
    let fixed = input.replacen(
        lines[0],
        &format!(
            "{} {}",
            sorted.len(),
            sorted
                .iter()
                .map(u64::to_string)
                .collect::<Vec<_>>()
                .join(" ")
        ),
        1,
    );
    let correct = w.compile("s_nim_ref", S_NIM, &[]);
    assert_eq!(run(&exe, &fixed), run(&correct, &fixed), "{fixed}");
}

/// The table computed for the first test case only: later test cases read the first
/// set's values. Each test case alone is answered right, so the shrunk input has two
/// test cases (with different sets).
#[test]
fn s_nim_table_kept_from_the_previous_case() {
    let Some(w) = Workshop::new() else { return };
    let src = variant(
        S_NIM,
        "        // A fresh table for this set.\n        for (int n = 0; n <= 10000; n++) {",
        "        static bool done = false;\n        for (int n = 0; n <= 10000 && !done; n++) {",
    );
    let src = variant(
        &src,
        "        int m;\n",
        "        done = true;\n        int m;\n",
    );
    let exe = w.compile("s_nim_stale", &src, &[]);
    let r = w.audit_exe("hdu1536", 5, BUG_TIME, &exe);
    assert_eq!(r["verdict"], "wrong-answer", "{r}");
    let c = counterexample(&r);
    assert_eq!(c["cases"], 2, "{r}");
    // Alone, each test case is answered right by the same program.
    let correct = w.compile("s_nim_ref2", S_NIM, &[]);
    let input = c["input"].as_str().unwrap();
    let mut cases: Vec<String> = Vec::new();
    let mut lines = input.lines();
    while let Some(set) = lines.next() {
        if set == "0" {
            break;
        }
        let m: usize = lines.next().unwrap().parse().unwrap();
        let mut case = format!("{set}\n{m}\n");
        for _ in 0..m {
            case.push_str(lines.next().unwrap());
            case.push('\n');
        }
        cases.push(case);
    }
    assert_eq!(cases.len(), 2, "{input}");
    assert_ne!(cases[0].lines().next(), cases[1].lines().next(), "{input}");
    for case in &cases {
        let one = format!("{case}0\n");
        assert_eq!(run(&exe, &one), run(&correct, &one), "{one}");
    }
}

#[test]
fn count_moves_correct_solution_passes() {
    let Some(w) = Workshop::new() else { return };
    let exe = w.compile("count_moves", COUNT_MOVES, &[]);
    assert_eq!(run(&exe, "3\n5 7 9\n0\n"), "1\n");
    assert_ok(&w.audit_cases("hdu1850", 5, OK_CASES, &exe));
}

/// Counting the piles above the xor: a pile p <= x can still be reduced to p ^ x (when
/// x's highest bit is set in p), and a pile above x may not be. Caught on one case.
#[test]
fn count_moves_piles_above_the_xor() {
    let Some(w) = Workshop::new() else { return };
    let src = variant(COUNT_MOVES, "if ((a[i] ^ x) < a[i])", "if (a[i] > x)");
    let exe = w.compile("count_moves_above", &src, &[]);
    let r = w.audit_exe("hdu1850", 5, BUG_TIME, &exe);
    assert_eq!(r["verdict"], "wrong-answer", "{r}");
    let c = counterexample(&r);
    assert_eq!(c["cases"], 1, "{r}");
    assert_eq!(c["minimal"], true, "{r}");
    let input = c["input"].as_str().unwrap();
    let piles = numbers(input.lines().nth(1).unwrap());
    let x = piles.iter().fold(0, |a, p| a ^ p);
    let right = piles.iter().filter(|&&p| p ^ x < p).count();
    let wrong = piles.iter().filter(|&&p| p > x).count();
    assert_ne!(right, wrong, "{input}");
    assert_eq!(c["expected"], format!("{right}\n"));
    assert_eq!(c["actual"], format!("{wrong}\n"));
}

#[test]
fn every_move_correct_solution_passes() {
    let Some(w) = Workshop::new() else { return };
    let exe = w.compile("every_move", EVERY_MOVE, &[]);
    assert_eq!(
        run(&exe, "2\n45 45\n3\n3 6 9\n5\n5 7 8 9 10\n0\n"),
        "No\nYes\n9 5\nYes\n8 1\n9 0\n10 3\n"
    );
    assert_ok(&w.audit_cases("hdu2176", 5, OK_CASES, &exe));
}

/// Each distinct move once: equal winning piles print one line instead of one each.
/// The shrunk case has two equal winning piles at least.
#[test]
fn every_move_distinct_moves_once() {
    let Some(w) = Workshop::new() else { return };
    let src = variant(
        EVERY_MOVE,
        "if ((p ^ x) < p) {",
        "if ((p ^ x) < p && !printed.count(p)) {",
    );
    let exe = w.compile("every_move_once", &src, &[]);
    let r = w.audit_exe("hdu2176", 5, BUG_TIME, &exe);
    assert_eq!(r["verdict"], "wrong-answer", "{r}");
    let c = counterexample(&r);
    assert_eq!(c["cases"], 1, "{r}");
    assert_eq!(c["minimal"], true, "{r}");
    let expected = c["expected"].as_str().unwrap();
    let moves: Vec<&str> = expected.lines().skip(1).collect();
    assert!(
        (1..moves.len()).any(|i| moves[..i].contains(&moves[i])),
        "no repeated move in {expected}"
    );
}

/// The moves sorted by pile size instead of in input order: the shrunk case has two
/// winning piles, the larger first.
#[test]
fn every_move_sorted_instead_of_input_order() {
    let Some(w) = Workshop::new() else { return };
    let src = variant(
        EVERY_MOVE,
        "std::vector<long long> order(a);",
        "std::vector<long long> order(a);\n        std::sort(order.begin(), order.end());",
    );
    let exe = w.compile("every_move_sorted", &src, &[]);
    let r = w.audit_exe("hdu2176", 5, BUG_TIME, &exe);
    assert_eq!(r["verdict"], "wrong-answer", "{r}");
    let c = counterexample(&r);
    assert_eq!(c["cases"], 1, "{r}");
    assert_eq!(c["minimal"], true, "{r}");
    let expected = c["expected"].as_str().unwrap();
    let actual = c["actual"].as_str().unwrap();
    let mut e: Vec<&str> = expected.lines().collect();
    let mut a: Vec<&str> = actual.lines().collect();
    assert_ne!(e, a);
    e.sort();
    a.sort();
    assert_eq!(e, a, "the same moves in another order");
}
