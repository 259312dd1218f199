//! `sgcheck audit` catches the part-2 mistakes of the take-and-break problems in real
//! contest programs: C++ solutions written here, compiled with `g++ -O2` into a
//! temporary directory, and audited through the built binary.
//!
//! For each mistake there is a correct solution, which must pass the audit (`ok`), and
//! the same program with that one mistake (made by `variant`), which must be caught
//! and shrunk to the minimal input; each test says why that input is minimal:
//!
//! - simple-nim (hdu5795): reusing Lasker's Nim's period-4 table (two-way splits)
//!   instead of the three-way one;
//! - Paint Chain (hdu3980): not handling n < m (the first player has no move); a table
//!   computed for one m and reused for another (shows only with two cases).
//!
//! Every audit has a fixed seed. After every audit no process of the test's directory
//! may be left running. Without g++ the tests say so and pass.

use serde_json::Value;

/// Cases of an audit that should find nothing (it stops at the count, however
/// loaded the machine).
const OK_CASES: u64 = 5000;
/// Budget of an audit that should find a failure (it stops there, long before).
const BUG_TIME: &str = "20";

/// A correct hdu5795 solution: the closed form g(8k) = 8k - 1, g(8k + 7) = 8k + 8,
/// otherwise g(x) = x, in 64 bits.
const SIMPLE_NIM: &str = r#"#include <cstdio>
long long sg(long long x) {
    if (x == 0) return 0;
    if (x % 8 == 0) return x - 1;
    if (x % 8 == 7) return x + 1;
    return x;
}
int main() {
    int t;
    if (scanf("%d", &t) != 1) return 1;
    while (t--) {
        int n;
        if (scanf("%d", &n) != 1) return 1;
        long long x = 0;
        for (int i = 0; i < n; i++) {
            long long s;
            scanf("%lld", &s);
            x ^= sg(s);
        }
        puts(x != 0 ? "First player wins." : "Second player wins.");
    }
}
"#;

/// A correct hdu3980 solution: no move when n < m; otherwise the row of n - m left by
/// the first move, valued by mex over painting m beads of a row (memoized per case).
const PAINT_CHAIN: &str = r#"#include <cstdio>
#include <cstring>
int sg[1005], m;
int grundy(int len) {
    if (len < m) return 0;
    if (sg[len] != -1) return sg[len];
    bool seen[2048] = {};
    for (int i = 0; i + m <= len; i++) seen[grundy(i) ^ grundy(len - m - i)] = true;
    int v = 0;
    while (seen[v]) v++;
    return sg[len] = v;
}
int main() {
    int t;
    if (scanf("%d", &t) != 1) return 1;
    for (int c = 1; c <= t; c++) {
        int n;
        if (scanf("%d %d", &n, &m) != 2) return 1;
        memset(sg, -1, sizeof sg);  // a fresh table for this m
        bool first = n >= m && grundy(n - m) == 0;
        printf("Case #%d: %s\n", c, first ? "aekdycoin" : "abcdxyzk");
    }
}
"#;

mod workshop;
use workshop::*;

fn assert_ok(report: &Value) {
    assert_eq!(report["verdict"], "ok", "{report}");
    assert!(report["counterexample"].is_null());
    assert!(report["cases"].as_u64().unwrap() > 1000, "{report}");
}

#[test]
fn simple_nim_correct_solution_passes() {
    let Some(w) = Workshop::new() else { return };
    let exe = w.compile("simple_nim", SIMPLE_NIM, &[]);
    assert_eq!(
        run(&exe, "2\n2\n4 4\n3\n1 2 4\n"),
        "Second player wins.\nFirst player wins.\n"
    );
    assert_ok(&w.audit_cases("hdu5795", 5, OK_CASES, &exe));
}

/// Lasker's table (g(4k + 3) = 4k + 4, g(4k + 4) = 4k + 3) instead of the three-way
/// one. Single heaps always win and two heaps lose exactly when equal under both
/// tables (both are one-to-one), so the smallest difference needs three heaps: 1, 2, 3
/// are worth 1, 2, 3 here (xor 0: the second player wins) and 1, 2, 4 under Lasker's
/// table. Any order of the three heaps is minimal (none shrinks to another).
#[test]
fn simple_nim_with_laskers_table() {
    let Some(w) = Workshop::new() else { return };
    let src = variant(SIMPLE_NIM, "x % 8 == 0", "x % 4 == 0");
    let src = variant(&src, "x % 8 == 7", "x % 4 == 3");
    let exe = w.compile("simple_nim_lasker", &src, &[]);
    let r = w.audit_exe("hdu5795", 5, BUG_TIME, &exe);
    assert_eq!(r["verdict"], "wrong-answer", "{r}");
    let c = counterexample(&r);
    let input = c["input"].as_str().unwrap();
    let lines: Vec<&str> = input.lines().collect();
    assert_eq!(&lines[..2], ["1", "3"], "{input}");
    let mut heaps: Vec<u64> = lines[2].split(' ').map(|h| h.parse().unwrap()).collect();
    heaps.sort();
    assert_eq!(heaps, [1, 2, 3], "{input}");
    assert_eq!(c["expected"], "Second player wins.\n");
    assert_eq!(c["actual"], "First player wins.\n");
}

#[test]
fn paint_chain_correct_solution_passes() {
    let Some(w) = Workshop::new() else { return };
    let exe = w.compile("paint_chain", PAINT_CHAIN, &[]);
    assert_eq!(
        run(&exe, "2\n3 1\n4 2\n"),
        "Case #1: aekdycoin\nCase #2: abcdxyzk\n"
    );
    assert_ok(&w.audit_cases("hdu3980", 5, OK_CASES, &exe));
}

/// Forgetting that n < m leaves the first player without a move: the row "of n - m
/// beads" is then negative, which the table treats as a lost row, so the program says
/// the first player wins. The smallest such case is n = 1, m = 2 (size 1; the other
/// case of that size, n = 2, m = 1, is answered right).
#[test]
fn paint_chain_without_n_below_m() {
    let Some(w) = Workshop::new() else { return };
    let src = variant(PAINT_CHAIN, "n >= m && grundy", "grundy");
    let exe = w.compile("paint_chain_no_check", &src, &[]);
    let r = w.audit_exe("hdu3980", 5, BUG_TIME, &exe);
    assert_eq!(r["verdict"], "wrong-answer", "{r}");
    let c = counterexample(&r);
    assert_eq!(c["input"], "1\n1 2\n");
    assert_eq!(c["expected"], "Case #1: abcdxyzk\n");
    assert_eq!(c["actual"], "Case #1: aekdycoin\n");
}

/// The table cleared once, not per case: the second case reads values computed for
/// the first case's m. Each case alone is answered right, so the minimal input has two
/// cases (with different m), and running them one by one passes.
#[test]
fn paint_chain_table_reused_across_m() {
    let Some(w) = Workshop::new() else { return };
    let src = variant(
        PAINT_CHAIN,
        "        memset(sg, -1, sizeof sg);  // a fresh table for this m\n",
        "",
    );
    let src = variant(
        &src,
        "    int t;\n",
        "    int t;\n    memset(sg, -1, sizeof sg);\n",
    );
    let exe = w.compile("paint_chain_stale", &src, &[]);
    let r = w.audit_exe("hdu3980", 5, BUG_TIME, &exe);
    assert_eq!(r["verdict"], "wrong-answer", "{r}");
    let c = counterexample(&r);
    assert_eq!(c["cases"], 2, "{r}");
    let input = c["input"].as_str().unwrap();
    let cases: Vec<&str> = input.lines().skip(1).collect();
    assert_eq!(cases.len(), 2, "{input}");
    let m: Vec<&str> = cases.iter().map(|l| l.split(' ').nth(1).unwrap()).collect();
    assert_ne!(m[0], m[1], "{input}");
    // Alone, each case is answered right by the same program.
    let correct = w.compile("paint_chain_ref", PAINT_CHAIN, &[]);
    for case in &cases {
        let one = format!("1\n{case}\n");
        assert_eq!(run(&exe, &one), run(&correct, &one), "{one}");
    }
}
