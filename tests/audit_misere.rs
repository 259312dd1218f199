//! `sgcheck audit` catches the part-2 mistakes of the misère Nim (p4279) and staircase
//! (poj1704) problems in real contest programs: C++ solutions written here, compiled
//! with `g++ -O2` into a temporary directory, and audited through the built binary.
//!
//! For each problem a correct solution must pass the audit (`ok`); each mistake is the
//! same program with that one change (made by `variant`, or one line rewritten), and
//! must be caught and shrunk to a minimal input; each test says why that input is
//! minimal:
//!
//! - misère Nim: "every pile is 1" tested as `sum == n`, or as "the count of 1s is n":
//!   an empty pile fools both (`0 1` is `Brother`);
//! - staircase: not sorting the cells; no virtual piece at cell 0 for an odd N;
//!   pairing the pieces from the left end.
//!
//! Every audit has a fixed seed; the workshop checks that no process of the test's
//! directory is left running. Without g++ the tests say so and pass.

use serde_json::Value;

/// Cases of an audit that should find nothing (it stops at the count, however
/// loaded the machine).
const OK_CASES: u64 = 5000;
/// Budget of an audit that should find a failure (it stops there, long before).
const BUG_TIME: &str = "20";

/// A correct p4279 solution: with a pile of 2 or more, John wins iff the XOR is
/// non-zero; otherwise iff the number of 1-piles is even.
const MISERE: &str = r#"#include <cstdio>
int main() {
    int t;
    if (scanf("%d", &t) != 1) return 1;
    while (t--) {
        int n;
        if (scanf("%d", &n) != 1) return 1;
        int x = 0, ones = 0, sum = 0;
        bool big = false;
        for (int i = 0; i < n; i++) {
            int a;
            scanf("%d", &a);
            x ^= a;
            sum += a;
            if (a == 1) ones++;
            if (a > 1) big = true;
        }
        bool small = !big;
        bool john = small ? ones % 2 == 0 : x != 0;
        puts(john ? "John" : "Brother");
    }
}
"#;

/// A correct poj1704 solution: sort, pair from the right end, a virtual piece at 0
/// for an odd N.
const STAIRCASE: &str = r#"#include <cstdio>
#include <algorithm>
int a[1005];
int main() {
    int t;
    if (scanf("%d", &t) != 1) return 1;
    while (t--) {
        int n;
        if (scanf("%d", &n) != 1) return 1;
        for (int i = 0; i < n; i++) scanf("%d", &a[i]);
        std::sort(a, a + n);
        int x = 0;
        for (int i = n - 1; i > 0; i -= 2) x ^= a[i] - a[i - 1] - 1;
        if (n % 2 == 1) x ^= a[0] - 1;
        puts(x ? "Georgia will win" : "Bob will win");
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

/// The counterexample's input, after checking it is a wrong answer.
fn wrong_input(r: &Value) -> String {
    assert_eq!(r["verdict"], "wrong-answer", "{r}");
    let c = counterexample(r);
    assert_eq!(c["minimal"], true, "{r}");
    c["input"].as_str().unwrap().to_string()
}

#[test]
fn misere_correct_solution_passes() {
    let Some(w) = Workshop::new() else { return };
    let exe = w.compile("misere", MISERE, &[]);
    assert_eq!(run(&exe, "2\n3\n3 5 1\n1\n1\n"), "John\nBrother\n");
    assert_eq!(run(&exe, "2\n2\n0 1\n2\n0 0\n"), "Brother\nJohn\n");
    assert_ok(&w.audit_cases("p4279", 5, OK_CASES, &exe));
}

/// "Every pile is 1" tested as `sum == n` (and the count of 1-piles taken as n). The
/// statement's trap `0 1` is wrong (John instead of Brother), but the smallest input is
/// smaller still: one empty pile (sum 0 != n = 1, so the XOR rule says Brother, while
/// the first player, who never takes a stone, wins). Nothing is below one case of one
/// pile of 0.
#[test]
fn misere_all_ones_as_sum_equals_n() {
    let Some(w) = Workshop::new() else { return };
    let src = variant(MISERE, "bool small = !big;", "bool small = sum == n;");
    let src = variant(&src, "ones % 2 == 0 :", "n % 2 == 0 :");
    let exe = w.compile("misere_sum", &src, &[]);
    assert_eq!(run(&exe, "1\n2\n0 1\n"), "John\n");
    let r = w.audit_exe("p4279", 5, BUG_TIME, &exe);
    assert_eq!(wrong_input(&r), "1\n1\n0\n");
    let c = counterexample(&r);
    assert_eq!(c["expected"], "John\n");
    assert_eq!(c["actual"], "Brother\n");
}

/// "Every pile is 1" tested as "the count of 1-piles is n": the same trap, the same
/// minimal input (one empty pile: no 1-pile, so the XOR rule).
#[test]
fn misere_all_ones_as_count_of_ones() {
    let Some(w) = Workshop::new() else { return };
    let src = variant(MISERE, "bool small = !big;", "bool small = ones == n;");
    let exe = w.compile("misere_ones", &src, &[]);
    assert_eq!(run(&exe, "1\n2\n0 1\n"), "John\n");
    let r = w.audit_exe("p4279", 5, BUG_TIME, &exe);
    assert_eq!(wrong_input(&r), "1\n1\n0\n");
}

#[test]
fn staircase_correct_solution_passes() {
    let Some(w) = Workshop::new() else { return };
    let exe = w.compile("staircase", STAIRCASE, &[]);
    assert_eq!(
        run(&exe, "2\n3\n1 2 3\n8\n1 5 6 7 9 12 14 17\n"),
        "Bob will win\nGeorgia will win\n"
    );
    assert_ok(&w.audit_cases("poj1704", 5, OK_CASES, &exe));
}

/// Not sorting. One piece cannot be out of order, so two are needed, in decreasing
/// order (increasing is right). The smallest such input is `2 1` (sorted: gap 0, Bob;
/// unsorted: 1 - 2 - 1 != 0, Georgia): the minimality check tries every order of the
/// cells, so it is found below the `3 2` the shrinker first reaches (no value of `3 2`
/// can be lowered without the pair becoming sorted or equal).
#[test]
fn staircase_unsorted() {
    let Some(w) = Workshop::new() else { return };
    let src = variant(STAIRCASE, "std::sort(a, a + n);", "");
    let exe = w.compile("staircase_unsorted", &src, &[]);
    let r = w.audit_exe("poj1704", 5, BUG_TIME, &exe);
    assert_eq!(wrong_input(&r), "1\n2\n2 1\n");
}

/// No virtual piece at 0 for an odd N: the lowest piece's gap to cell 0 is dropped.
/// One piece on cell 1 has no move either way; on cell 2 the first player wins by
/// moving it to 1, while the bug sees an XOR of 0.
#[test]
fn staircase_no_virtual_piece() {
    let Some(w) = Workshop::new() else { return };
    let src = variant(STAIRCASE, "if (n % 2 == 1) x ^= a[0] - 1;", "");
    let exe = w.compile("staircase_no_virtual", &src, &[]);
    let r = w.audit_exe("poj1704", 5, BUG_TIME, &exe);
    assert_eq!(wrong_input(&r), "1\n1\n2\n");
}

/// Pairing from the left end: (a0, a1), (a2, a3), ..., the top piece of an odd N left
/// over. Even N pairs the same from both ends; the smallest odd case is one piece on
/// cell 2 (won by moving it to 1; the bug has no pair at all and sees XOR 0).
#[test]
fn staircase_pairs_from_the_left() {
    let Some(w) = Workshop::new() else { return };
    let src = variant(
        STAIRCASE,
        "for (int i = n - 1; i > 0; i -= 2) x ^= a[i] - a[i - 1] - 1;",
        "for (int i = 1; i < n; i += 2) x ^= a[i] - a[i - 1] - 1;",
    );
    let src = variant(&src, "if (n % 2 == 1) x ^= a[0] - 1;", "");
    let exe = w.compile("staircase_from_left", &src, &[]);
    // The bug itself: 1 2 4 is won (move 4 to 3), the bug pairs (1, 2) and 4 alone.
    assert_eq!(run(&exe, "1\n3\n1 2 4\n"), "Bob will win\n");
    let r = w.audit_exe("poj1704", 5, BUG_TIME, &exe);
    assert_eq!(wrong_input(&r), "1\n1\n2\n");
}
