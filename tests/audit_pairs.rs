//! `sgcheck audit` catches the part-2 mistakes of the Wythoff and auction problems in
//! real contest programs: C++ solutions written here, compiled with `g++ -O2` into a
//! temporary directory, and audited through the built binary.
//!
//! For each mistake there is a correct solution, which must pass the audit (`ok`), and
//! the same program with that one mistake (made by `variant`), which must be caught
//! and reported on a small input; each test says why that input is minimal:
//!
//! - Wythoff (hdu1527): floor(k phi) in double precision (wrong only near Fibonacci
//!   numbers and their sums, where the generators go on purpose); `5 * k * k` in 32
//!   bits; forgetting to order the piles;
//! - the auction (hdu2149): forgetting the bids above M when N >= M.
//!
//! Every audit has a fixed seed. After every audit no process of the test's directory
//! may be left running. Without g++ the tests say so and pass.

use serde_json::Value;
use sgcheck::games::wythoff;

/// Cases of an audit that should find nothing (it stops at the count, however
/// loaded the machine).
const OK_CASES: u64 = 5000;
/// Budget of an audit that should find a failure (it stops there, long before).
const BUG_TIME: &str = "30";

/// A correct hdu1527 solution: with a <= b and k = b - a, lost iff
/// a == (k + isqrt(5 k^2)) / 2, the square root corrected to the exact integer one.
const WYTHOFF: &str = r#"#include <cmath>
#include <cstdio>
int main() {
    long long a, b;
    while (scanf("%lld %lld", &a, &b) == 2) {
        if (a > b) { long long t = a; a = b; b = t; }
        long long k = b - a;
        long long n = 5 * k * k;
        long long s = (long long)sqrt((double)n);
        while (s * s > n) s--;
        while ((s + 1) * (s + 1) <= n) s++;
        puts(a == (k + s) / 2 ? "0" : "1");
    }
}
"#;

/// A correct hdu2149 solution: with N >= M every bid M..N wins; otherwise the one bid
/// M mod (N + 1), none when that is 0.
const AUCTION: &str = r#"#include <cstdio>
int main() {
    int m, n;
    while (scanf("%d %d", &m, &n) == 2) {
        if (n >= m) {
            for (int t = m; t <= n; t++) printf(t == m ? "%d" : " %d", t);
            printf("\n");
        } else if (m % (n + 1) != 0) {
            printf("%d\n", m % (n + 1));
        } else {
            printf("none\n");
        }
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

/// The piles of a one-line hdu1527 input.
fn one_pair(input: &str) -> (u64, u64) {
    let lines: Vec<&str> = input.lines().collect();
    assert_eq!(lines.len(), 1, "{input}");
    let v: Vec<u64> = lines[0].split(' ').map(|x| x.parse().unwrap()).collect();
    assert_eq!(v.len(), 2, "{input}");
    (v[0], v[1])
}

#[test]
fn wythoff_correct_solution_passes() {
    let Some(w) = Workshop::new() else { return };
    let exe = w.compile("wythoff", WYTHOFF, &[]);
    assert_eq!(run(&exe, "2 1\n8 4\n4 7\n"), "0\n1\n0\n");
    // Exact on the positions where double precision fails, too.
    assert_eq!(
        run(&exe, "165580140 267914295\n165580141 267914296\n"),
        "0\n1\n"
    );
    assert_ok(&w.audit_cases("hdu1527", 5, OK_CASES, &exe));
}

/// floor(k phi) as `(long long)(k * (1 + sqrt(5.0)) / 2)`: right for every k below
/// F_40 = 102334155, wrong at a few dozen k within the limits, where k phi lies
/// within 10^-8 of an integer. Random pairs never go there; the generators play the
/// lost pairs at those k and their neighbours on purpose. The report is one line: a
/// pair at such a k (lowering either pile moves off it, and every other line is
/// answered right).
#[test]
fn wythoff_in_double_precision() {
    let Some(w) = Workshop::new() else { return };
    let src = variant(
        WYTHOFF,
        "a == (k + s) / 2",
        "a == (long long)(k * (1 + sqrt(5.0)) / 2)",
    );
    let exe = w.compile("wythoff_double", &src, &[]);
    // The bug is real: on the sample it is right, on a trap it is wrong.
    assert_eq!(run(&exe, "2 1\n8 4\n4 7\n"), "0\n1\n0\n");
    assert_eq!(run(&exe, "165580140 267914295\n"), "1\n");
    let r = w.audit_exe("hdu1527", 5, BUG_TIME, &exe);
    assert_eq!(r["verdict"], "wrong-answer", "{r}");
    let c = counterexample(&r);
    let (a, b) = one_pair(c["input"].as_str().unwrap());
    let (x, y) = (a.min(b), a.max(b));
    // The reported k is one where double precision differs from the exact floor.
    let k = y - x;
    assert!(wythoff::double_misses(k).contains(&k), "k = {k}");
    assert_ne!(c["expected"], c["actual"]);
}

/// `5 * k * k` in 32 bits: it overflows once 5 k^2 > 2^31 - 1, k >= 20725, and then
/// the test compares `a` with garbage. The smallest lost pair with such a k is
/// (33533, 54258); the report is one line with a difference of at least 20725 (below
/// that the program is exact).
#[test]
fn wythoff_square_in_32_bits() {
    let Some(w) = Workshop::new() else { return };
    // The usual shape of it: `int k`, `(int)sqrt(5 * k * k)` without a correction
    // (exact while the product fits: below 2^31 the double square root is exact).
    let src = variant(WYTHOFF, "long long k = b - a;", "int k = b - a;");
    let src = variant(
        &src,
        "        long long n = 5 * k * k;
        long long s = (long long)sqrt((double)n);
        while (s * s > n) s--;
        while ((s + 1) * (s + 1) <= n) s++;
",
        "        int n = 5 * k * k;
        int s = (int)sqrt((double)n);
",
    );
    // -fwrapv: the overflow wraps (what the judges' builds do in practice) instead of
    // being undefined.
    let exe = w.compile("wythoff_int", &src, &["-fwrapv"]);
    assert_eq!(run(&exe, "2 1\n8 4\n4 7\n"), "0\n1\n0\n");
    let r = w.audit_exe("hdu1527", 5, BUG_TIME, &exe);
    assert_eq!(r["verdict"], "wrong-answer", "{r}");
    let c = counterexample(&r);
    let (a, b) = one_pair(c["input"].as_str().unwrap());
    assert!(a.abs_diff(b) >= 20725, "{a} {b}");
    assert_ne!(c["expected"], c["actual"]);
}

/// Forgetting to order the piles: with a > b the difference is negative. The smallest
/// input it gets wrong is the sample's `2 1` (size 3: the pile sum; (1, 0), (2, 0) and
/// (3, 0) happen to come out right), found by the smallest-first enumeration.
#[test]
fn wythoff_piles_not_ordered() {
    let Some(w) = Workshop::new() else { return };
    let src = variant(
        WYTHOFF,
        "        if (a > b) { long long t = a; a = b; b = t; }\n",
        "",
    );
    let exe = w.compile("wythoff_unordered", &src, &[]);
    let r = w.audit_exe("hdu1527", 5, BUG_TIME, &exe);
    assert_eq!(r["verdict"], "wrong-answer", "{r}");
    let c = counterexample(&r);
    assert_eq!(c["input"], "2 1\n");
    assert_eq!(c["expected"], "0\n");
    assert_eq!(c["actual"], "1\n");
}

#[test]
fn auction_correct_solution_passes() {
    let Some(w) = Workshop::new() else { return };
    let exe = w.compile("auction", AUCTION, &[]);
    assert_eq!(run(&exe, "4 2\n3 2\n3 5\n"), "1\nnone\n3 4 5\n");
    assert_ok(&w.audit_cases("hdu2149", 5, OK_CASES, &exe));
}

/// Bash's rule alone, M mod (N + 1), also when N >= M: it prints M and forgets the
/// bids above it. The smallest input is M = 1, N = 2 (size 1; the other case of that
/// size, M = 2, N = 1, has no winning bid either way).
#[test]
fn auction_forgets_bids_above_m() {
    let Some(w) = Workshop::new() else { return };
    let src = variant(AUCTION, "if (n >= m) {", "if (false) {");
    let exe = w.compile("auction_mod_only", &src, &[]);
    assert_eq!(run(&exe, "4 2\n3 2\n"), "1\nnone\n");
    let r = w.audit_exe("hdu2149", 5, BUG_TIME, &exe);
    assert_eq!(r["verdict"], "wrong-answer", "{r}");
    let c = counterexample(&r);
    assert_eq!(c["input"], "1 2\n");
    assert_eq!(c["expected"], "1 2\n");
    assert_eq!(c["actual"], "1\n");
}
