//! `sgcheck audit` catches the mistakes real solutions make (the book's
//! table of bug classes, `docs/src/audit.md`), in real contest programs: C++ solutions written here, compiled with
//! `g++ -O2` into a temporary directory, and audited through the built binary.
//!
//! For each mistake there is a correct solution, which must pass the audit (`ok`), and
//! the same program with that one mistake (made by `variant`, which rewrites text that
//! must occur exactly once), which must be caught with the expected verdict and shrunk
//! to the minimal input; each test says why that input is minimal. The mistakes:
//!
//! - split (bzoj1188): XOR over non-empty bottles instead of odd ones; dropping the
//!   j == k moves; an accumulator kept between test cases (shows only with two cases).
//!   Counting moves from empty bottles is `spec_mistake_empty_bottle_is_found_minimal`
//!   in `audit_cli.rs` (a Python solution); here it is in uva1378's format instead
//!   (`Game t:` lines, the `0` terminator), with the time it takes to find and shrink.
//! - lasker (hdu3032): 32-bit overflow at 2^31 - 1, which only inputs at the limits show.
//! - following-nim: a dangling `else` that attaches the special-move branch to the
//!   wrong `if`.
//! - nim (p2197): an array of 1000 piles where n reaches 10^4, a crash only on the
//!   largest n.
//!
//! Every audit has a fixed seed; a correct program gets a short budget, a wrong one a
//! long one that it never uses up (the audit stops at the first failure). After every
//! audit no process of the test's directory may be left running. Without g++ the tests
//! say so and pass.

use serde_json::Value;

/// Cases of an audit that should find nothing (it stops at the count, however
/// loaded the machine).
const OK_CASES: u64 = 5000;
/// Budget of an audit that should find a failure (it stops there, long before).
const BUG_TIME: &str = "20";

/// A correct bzoj1188 solution (see `workshop::programs`).
const SPLIT: &str = programs::BZOJ1188_CORRECT;

/// The same game in uva1378's format: games until a line `0`, `Game t: i j k`.
const UVA: &str = r#"#include <cstdio>
int g[32];
int main() {
    for (int d = 1; d < 32; d++) {
        bool seen[64] = {};
        for (int a = 0; a < d; a++)
            for (int b = 0; b <= a; b++) seen[g[a] ^ g[b]] = true;
        while (seen[g[d]]) g[d]++;
    }
    int n, p[32];
    for (int game = 1; scanf("%d", &n) == 1 && n != 0; game++) {
        for (int i = 0; i < n; i++) scanf("%d", &p[i]);
        int x = 0;
        for (int i = 0; i < n; i++)
            if (p[i] % 2 == 1) x ^= g[n - 1 - i];
        int bi = -1, bj = -1, bk = -1;
        for (int i = 0; i < n && bi < 0; i++)
            for (int j = i + 1; j < n && bi < 0; j++)
                for (int k = j; k < n && bi < 0; k++)
                    if (p[i] > 0 && (x ^ g[n - 1 - i] ^ g[n - 1 - j] ^ g[n - 1 - k]) == 0)
                        bi = i, bj = j, bk = k;
        printf("Game %d: %d %d %d\n", game, bi, bj, bk);
    }
}
"#;

/// A correct hdu3032 solution: Lasker's Nim values in 64 bits.
const LASKER: &str = r#"#include <cstdio>
// 4k+1 -> 4k+1, 4k+2 -> 4k+2, 4k+3 -> 4k+4, 4k+4 -> 4k+3.
long long sg(long long s) {
    if (s % 4 == 0) return s - 1;
    if (s % 4 == 3) return s + 1;
    return s;
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
        puts(x > 0 ? "Alice" : "Bob");
    }
}
"#;

/// A correct FollowingNim solution by the two tables of
/// `sgcheck::games::following_nim`: `hot[x]` (the special-only chain is won from
/// x), `g[x] = mex A(x)` for a cold x, `A(x)` (`esc`) the values of the cold sizes an
/// ordinary move from x reaches; then a move wins iff it lands on a cold size and,
/// when special, the forced opponent cannot escape, or, when ordinary, leaves a free
/// all-cold position of XOR 0.
const FOLLOWING_NIM: &str = r#"#include <cstdio>
#include <cstring>
const int P = 101, V = 128;
bool special[P], hot[P], esc[P][V];
int g[P];
int main() {
    int T;
    if (scanf("%d", &T) != 1) return 1;
    while (T--) {
        int n, m, p[64];
        if (scanf("%d", &n) != 1) return 1;
        for (int i = 0; i < n; i++) scanf("%d", &p[i]);
        scanf("%d", &m);
        memset(special, 0, sizeof special);
        for (int i = 0; i < m; i++) {
            int s;
            scanf("%d", &s);
            special[s] = true;
        }
        memset(esc, 0, sizeof esc);
        for (int x = 0; x < P; x++) {
            hot[x] = false;
            for (int s = 1; s <= x; s++)
                if (special[s] && !hot[x - s]) hot[x] = true;
            for (int t = 1; t <= x; t++)
                if (!special[t] && !hot[x - t]) esc[x][g[x - t]] = true;
            g[x] = 0;
            if (!hot[x])
                while (esc[x][g[x]]) g[x]++;
        }
        int count = 0;
        for (int i = 0; i < n; i++) {
            bool rest_hot = false;
            int rest = 0;
            for (int j = 0; j < n; j++)
                if (j != i) {
                    if (hot[p[j]]) rest_hot = true;
                    else rest ^= g[p[j]];
                }
            for (int t = 1; t <= p[i]; t++) {
                int z = p[i] - t;
                if (hot[z]) continue;
                if (!special[t]) {
                    if (!rest_hot && g[z] == rest) count++;
                } else {
                    if (rest_hot || !esc[z][rest]) count++;
                }
            }
        }
        printf("%d\n", count);
    }
}
"#;

/// A correct p2197 solution with room for 10^4 piles.
const NIM: &str = r#"#include <cstdio>
#include <vector>
const int MAXN = 10000;
int main() {
    int t;
    if (scanf("%d", &t) != 1) return 1;
    std::vector<int> a(MAXN);
    while (t--) {
        int n;
        if (scanf("%d", &n) != 1) return 1;
        for (int i = 0; i < n; i++) scanf("%d", &a[i]);
        int x = 0;
        for (int i = 0; i < n; i++) x ^= a[i];
        puts(x != 0 ? "Yes" : "No");
    }
}
"#;

mod workshop;
use workshop::*;

fn seconds(report: &Value) -> f64 {
    report["seconds"].as_f64().expect("seconds")
}

fn assert_ok(report: &Value) {
    assert_eq!(report["verdict"], "ok", "{report}");
    assert!(report["counterexample"].is_null());
    assert!(report["cases"].as_u64().unwrap() > 1000, "{report}");
}

#[test]
fn split_correct_solution_passes() {
    let Some(w) = Workshop::new() else { return };
    let exe = w.compile("split", SPLIT, &[]);
    // The statement's sample and the known answers first.
    assert_eq!(
        run(&exe, "2\n4\n1 0 1 5000\n3\n0 0 1\n"),
        "0 2 3\n1\n-1 -1 -1\n0\n"
    );
    assert_eq!(
        run(&exe, "3\n5\n0 0 0 1 0\n3\n1 0 5\n6\n3 2 1 0 4 5\n"),
        "3 4 4\n1\n0 1 1\n2\n0 2 5\n1\n"
    );
    assert_ok(&w.audit_cases("bzoj1188", 1, OK_CASES, &exe));
}

/// XOR over the non-empty bottles instead of the odd ones: two beans in one bottle do
/// not cancel. A failing input needs a non-last bottle (the last one is worth 0) with
/// an even count of at least 2, so at least two beans and two bottles: `2 0` is the
/// smallest (value 0, lost; the bug sees g(1) = 1 and plays `0 1 1`), found by the
/// smallest-first enumeration.
#[test]
fn split_xor_over_non_empty_bottles() {
    let Some(w) = Workshop::new() else { return };
    let src = variant(SPLIT, "if (p[i] % 2 == 1) x ^=", "if (p[i] > 0) x ^=");
    let exe = w.compile("split_xor", &src, &[]);
    let r = w.audit_exe("bzoj1188", 1, BUG_TIME, &exe);
    assert_eq!(r["verdict"], "wrong-answer", "{r}");
    let c = counterexample(&r);
    assert_eq!(c["input"], "1\n2\n2 0\n");
    assert_eq!(c["expected"], "-1 -1 -1\n0\n");
    assert_eq!(c["actual"], "0 1 1\n1\n");
}

/// Dropping the j == k moves (two beans into one bottle). With at most one bean and
/// two bottles only `1 0` has a move, and its only move is `0 1 1`, with j == k: the
/// smallest failing input (`0 0` and `0 1` have no move at all).
#[test]
fn split_without_j_equal_k_moves() {
    let Some(w) = Workshop::new() else { return };
    let src = variant(
        SPLIT,
        "for (int k = j; k < n; k++)",
        "for (int k = j + 1; k < n; k++)",
    );
    let exe = w.compile("split_jk", &src, &[]);
    let r = w.audit_exe("bzoj1188", 1, BUG_TIME, &exe);
    assert_eq!(r["verdict"], "wrong-answer", "{r}");
    let c = counterexample(&r);
    assert_eq!(c["input"], "1\n2\n1 0\n");
    assert_eq!(c["expected"], "0 1 1\n1\n");
    assert_eq!(c["actual"], "-1 -1 -1\n0\n");
}

/// The move counter declared once for all cases: every single-case input is answered
/// right, so the failure needs two cases. The first must leave a non-zero count, so it
/// needs a winning move: `1 0` is the smallest case with one (one bean, two bottles);
/// after it any second case is wrong, and `0 0` is the smallest.
#[test]
fn split_state_kept_between_cases() {
    let Some(w) = Workshop::new() else { return };
    let src = variant(SPLIT, "    int t;\n", "    int t, count = 0;\n");
    let src = variant(&src, "int count = 0, bi = -1", "int bi = -1");
    let exe = w.compile("split_state", &src, &[]);
    let r = w.audit_exe("bzoj1188", 1, BUG_TIME, &exe);
    assert_eq!(r["verdict"], "wrong-answer", "{r}");
    let c = counterexample(&r);
    assert_eq!(c["cases"], 2);
    assert_eq!(c["input"], "2\n2\n1 0\n2\n0 0\n");
    assert_eq!(c["expected"], "0 1 1\n1\n-1 -1 -1\n0\n");
    assert_eq!(c["actual"], "0 1 1\n1\n-1 -1 -1\n1\n");
    assert_eq!(c["mismatch"]["case"], 1, "the second case differs");
}

#[test]
fn uva1378_correct_solution_passes() {
    let Some(w) = Workshop::new() else { return };
    let exe = w.compile("uva", UVA, &[]);
    assert_eq!(
        run(&exe, "4\n1 0 1 100\n3\n1 0 5\n2\n2 1\n0\n"),
        "Game 1: 0 2 3\nGame 2: 0 1 1\nGame 3: -1 -1 -1\n"
    );
    assert_ok(&w.audit_cases("uva1378", 1, OK_CASES, &exe));
}

/// Counting moves from empty bottles, in uva1378's format. The smallest
/// failing case is n = 5, `0 0 0 1 0` (for bzoj1188, which prints the count too: every
/// uva1378 failure is one there, and this one fails here as well, the move `0 1 2`
/// from the empty bottle 0 coming before the real best move `3 4 4`). The failing game
/// is isolated from a batch of up to a thousand and numbered `Game 1`. The
/// performance goal: well under a second to find and shrink.
#[test]
fn uva1378_moves_from_empty_bottles() {
    let Some(w) = Workshop::new() else { return };
    let src = variant(UVA, "if (p[i] > 0 && (x", "if ((x");
    let exe = w.compile("uva_empty", &src, &[]);
    let r = w.audit_exe("uva1378", 1, BUG_TIME, &exe);
    assert_eq!(r["verdict"], "wrong-answer", "{r}");
    let c = counterexample(&r);
    assert_eq!(c["input"], "5\n0 0 0 1 0\n0\n");
    assert_eq!(c["expected"], "Game 1: 3 4 4\n");
    assert_eq!(c["actual"], "Game 1: 0 1 2\n");
    // About 0.03 s on two quiet cores (the figure is a benchmark's to measure); this
    // only catches a search that lost its way, whatever the machine's load.
    assert!(seconds(&r) < 10.0, "took {} s", seconds(&r));
}

#[test]
fn lasker_correct_solution_passes() {
    let Some(w) = Workshop::new() else { return };
    let exe = w.compile("lasker", LASKER, &[]);
    assert_eq!(run(&exe, "2\n3\n2 2 3\n2\n3 3\n"), "Alice\nBob\n");
    assert_ok(&w.audit_cases("hdu3032", 5, OK_CASES, &exe));
}

/// Lasker's Nim values in `int`: a pile of 2^31 - 1 = 4k + 3 is worth 2^31, which
/// overflows to a negative value, so the XOR looks negative and `x > 0` says Bob. Only
/// that size has a value with bit 31, so only inputs at the limits show the bug (a
/// huge one at first); the minimal input is that one pile alone: halving it or taking
/// one off gives a value below 2^31, answered right.
#[test]
fn lasker_overflow_at_the_limits() {
    let Some(w) = Workshop::new() else { return };
    let src = variant(LASKER, "long long sg(long long s)", "int sg(int s)");
    let src = variant(&src, "long long x = 0;", "int x = 0;");
    let src = variant(&src, "long long s;\n", "int s;\n");
    let src = variant(&src, "scanf(\"%lld\", &s)", "scanf(\"%d\", &s)");
    let exe = w.compile("lasker_int", &src, &[]);
    let r = w.audit_exe("hdu3032", 5, BUG_TIME, &exe);
    assert_eq!(r["verdict"], "wrong-answer", "{r}");
    let c = counterexample(&r);
    assert_eq!(c["input"], "1\n1\n2147483647\n");
    assert_eq!(c["expected"], "Alice\n");
    assert_eq!(c["actual"], "Bob\n");
}

#[test]
fn following_nim_correct_solution_passes() {
    let Some(w) = Workshop::new() else { return };
    let exe = w.compile("fnim", FOLLOWING_NIM, &[]);
    assert_eq!(run(&exe, "2\n1 7\n1 7\n2 1 1\n1 1\n"), "1\n2\n");
    assert_ok(&w.audit_cases("followingnim", 1, OK_CASES, &exe));
}

/// The braces dropped: the `else` meant for `if (!special[t])` attaches to the inner
/// `if`, so special moves are never counted (and some ordinary ones are counted by the
/// special test). The smallest input with a special move: one pile of 1, special
/// amount 1; taking the stone wins (the forced opponent faces an empty pile). The only
/// smaller input, an empty pile, has no move at all.
#[test]
fn following_nim_dangling_else() {
    let Some(w) = Workshop::new() else { return };
    let src = variant(
        FOLLOWING_NIM,
        "                if (!special[t]) {
                    if (!rest_hot && g[z] == rest) count++;
                } else {
                    if (rest_hot || !esc[z][rest]) count++;
                }",
        "                if (!special[t])
                    if (!rest_hot && g[z] == rest) count++;
                else
                    if (rest_hot || !esc[z][rest]) count++;",
    );
    let exe = w.compile("fnim_else", &src, &[]);
    let r = w.audit_exe("followingnim", 1, BUG_TIME, &exe);
    assert_eq!(r["verdict"], "wrong-answer", "{r}");
    let c = counterexample(&r);
    assert_eq!(c["input"], "1\n1 1\n1 1\n");
    assert_eq!(c["expected"], "1\n");
    assert_eq!(c["actual"], "0\n");
}

#[test]
fn nim_correct_solution_passes() {
    let Some(w) = Workshop::new() else { return };
    let exe = w.compile("nim", NIM, &["-D_GLIBCXX_ASSERTIONS"]);
    assert_eq!(run(&exe, "2\n2\n1 1\n2\n1 0\n"), "No\nYes\n");
    assert_ok(&w.audit_cases("p2197", 1, OK_CASES, &exe));
}

/// Room for 1000 piles where n reaches 10^4: only the largest inputs break it. The
/// program is built with `-D_GLIBCXX_ASSERTIONS`, so the first write past the end
/// aborts (SIGABRT) as a bounds-checking judge would; without it the write is undefined
/// behaviour that may or may not crash. Minimal: 1001 piles (one fewer fits), all 0.
/// Every run is started through `sh -c 'echo $$ >> pids; exec prog'`, and each of the
/// recorded processes must be gone when the audit ends.
#[test]
fn nim_array_too_small_for_the_largest_n() {
    let Some(w) = Workshop::new() else { return };
    let src = variant(NIM, "MAXN = 10000;", "MAXN = 1000;");
    let exe = w.compile("nim_1000", &src, &["-D_GLIBCXX_ASSERTIONS"]);
    let pidfile = w.path().join("pids");
    let r = w.audit(
        "p2197",
        1,
        BUG_TIME,
        &[
            "sh",
            "-c",
            r#"echo $$ >> "$0"; exec "$1""#,
            pidfile.to_str().unwrap(),
            exe.to_str().unwrap(),
        ],
    );
    // Every run recorded its pid; none may be left. With namespaces a run cannot
    // write the test's file (everything but its own /tmp and working directory is
    // read-only) and its pids are its namespace's: then all of /proc is looked at.
    let pids: Option<Vec<String>> = std::fs::read_to_string(&pidfile)
        .ok()
        .map(|s| s.split_whitespace().map(String::from).collect());
    if let Some(p) = &pids {
        assert!(p.len() >= 2, "{} runs recorded", p.len());
    } else {
        assert_eq!(r["containment"], "namespaces", "{r}");
    }
    let left = left_running(exe.to_str().unwrap(), pids);
    assert!(left.is_empty(), "processes left running: {left:?}");
    assert_eq!(r["verdict"], "runtime-error", "{r}");
    let c = counterexample(&r);
    let detail = c["detail"].as_str().unwrap();
    assert!(detail.contains("SIGABRT"), "{detail}");
    let input = c["input"].as_str().unwrap();
    let lines: Vec<&str> = input.lines().collect();
    assert_eq!(lines.len(), 3, "one case");
    assert_eq!(
        (lines[0], lines[1]),
        ("1", "1001"),
        "shrunk to {} piles",
        lines[1]
    );
    let piles: Vec<&str> = lines[2].split(' ').collect();
    assert_eq!(piles.len(), 1001);
    assert!(
        piles.iter().all(|&p| p == "0"),
        "not all piles 0: {}",
        lines[2]
    );
}

/// What the next test runs in a child process: a workshop, which needs g++.
#[test]
#[ignore = "run by a_missing_compiler_fails_under_ci, in a child without g++"]
fn workshop_probe() {
    let _ = workshop::Workshop::new();
}

#[test]
fn a_missing_compiler_fails_under_ci() {
    // The probe, with no g++ on the PATH: under CI=1 it fails, outside CI it passes
    // after a loud skip line.
    let probe = |ci: Option<&str>| {
        let mut cmd = std::process::Command::new(std::env::current_exe().unwrap());
        cmd.args(["workshop_probe", "--exact", "--ignored", "--nocapture"])
            .env("PATH", "")
            .env_remove("CI")
            .env_remove("SGCHECK_REQUIRE_TOOLS");
        if let Some(v) = ci {
            cmd.env("CI", v);
        }
        cmd.output().unwrap()
    };
    let under_ci = probe(Some("1"));
    assert!(
        !under_ci.status.success(),
        "the probe passed without g++ under CI=1"
    );
    let text = |o: &std::process::Output| {
        format!(
            "{}{}",
            String::from_utf8_lossy(&o.stdout),
            String::from_utf8_lossy(&o.stderr)
        )
    };
    assert!(
        text(&under_ci).contains("g++ is required"),
        "{}",
        text(&under_ci)
    );
    let outside = probe(None);
    assert!(outside.status.success());
    assert!(
        text(&outside).contains("SKIPPED: g++ is not available"),
        "{}",
        text(&outside)
    );
    // The environment decides as documented.
    let env = |pairs: &'static [(&'static str, &'static str)]| {
        move |k: &str| {
            pairs
                .iter()
                .find(|(n, _)| *n == k)
                .map(|(_, v)| v.to_string())
        }
    };
    assert!(workshop::required_by(env(&[("CI", "true")])));
    assert!(workshop::required_by(env(&[(
        "SGCHECK_REQUIRE_TOOLS",
        "1"
    )])));
    assert!(!workshop::required_by(env(&[("CI", "false")])));
    assert!(!workshop::required_by(env(&[])));
}

/// A memoised recursion over the pile (`win(x)` calls `win(x - a_i)`), whose frames
/// hold 96 bytes of padding: with the set {1} it recurses as deep as K, and the
/// machine's 8 MB stack runs out past K = 58,000 or so. Random inputs almost never
/// hold the set {1} with K that large; the audit's deepest corner (K at its highest,
/// the shortest set of the smallest amounts) is tried among its first inputs.
const STONES_RECURSIVE: &str = r#"
#include <cstdio>
int n, k, a[105];
signed char memo[100005];
bool win(int x) {
    volatile char pad[96];
    pad[x % 96] = 1;
    if (memo[x]) return memo[x] > 0;
    bool w = false;
    for (int i = 0; i < n; i++)
        if (a[i] <= x && !win(x - a[i])) { w = true; break; }
    memo[x] = w ? 1 : -1;
    return w + pad[0] * 0;
}
int main() {
    scanf("%d %d", &n, &k);
    for (int i = 0; i < n; i++) scanf("%d", &a[i]);
    puts(win(k) ? "First" : "Second");
}
"#;

/// The same game as a table filled bottom-up: no recursion.
const STONES_TABLE: &str = r#"
#include <cstdio>
int n, k, a[105];
bool w[100005];
int main() {
    scanf("%d %d", &n, &k);
    for (int i = 0; i < n; i++) scanf("%d", &a[i]);
    for (int x = 0; x <= k; x++)
        for (int i = 0; i < n; i++)
            if (a[i] <= x && !w[x - a[i]]) { w[x] = true; break; }
    puts(w[k] ? "First" : "Second");
}
"#;

#[test]
fn a_recursion_too_deep_for_the_stack_is_found_at_the_deepest_corner() {
    let Some(w) = Workshop::new() else { return };
    let decl =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/corners/stones_dp.toml");
    let table = w.compile("stones_table", STONES_TABLE, &[]);
    let r = w.audit_declared(&decl, 1, "3", &table);
    assert_eq!(r["verdict"], "ok", "{r}");
    let rec = w.compile("stones_rec", STONES_RECURSIVE, &[]);
    // The stack of a common judge, whatever this machine's default.
    let r = w.audit_of(
        &["--problem", decl.to_str().unwrap()],
        1,
        &["--time", "5", "--stack-limit", "8M"],
        &[rec.to_str().unwrap()],
    );
    assert_eq!(r["verdict"], "runtime-error", "{r}");
    let c = counterexample(&r);
    // Shrunk to one amount, 1, and a K past what the stack holds (the shrinker lowers
    // K until the crash stops; where exactly depends on the environment's size).
    let input = c["input"].as_str().unwrap();
    let nums: Vec<u64> = input
        .split_whitespace()
        .map(|t| t.parse().unwrap())
        .collect();
    assert_eq!((nums.len(), nums[0], nums[2]), (3, 1, 1), "{input}");
    assert!((30_000..=100_000).contains(&nums[1]), "{input}");
    assert!(c["detail"].as_str().unwrap().contains("SIGSEGV"), "{c}");
}

/// The stones declaration with the statement's samples (the answers for the sets
/// {2, 3} and {1, 2, 3}, and K = 10^5 with the set {1}); `last` is the output given
/// for the last one.
fn stones_with_samples(dir: &std::path::Path, last: &str) -> std::path::PathBuf {
    let base =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/corners/stones_dp.toml");
    let mut text = std::fs::read_to_string(base).unwrap();
    for (input, output) in [
        ("2 4\n2 3\n", "First\n"),
        ("2 5\n2 3\n", "Second\n"),
        ("3 20\n1 2 3\n", "Second\n"),
        ("1 100000\n1\n", last),
    ] {
        text.push_str(&format!(
            "\n[[sample]]\ninput = \"\"\"\n{input}\"\"\"\noutput = \"\"\"\n{output}\"\"\"\n"
        ));
    }
    let path = dir.join("stones_samples.toml");
    std::fs::write(&path, text).unwrap();
    path
}

/// The samples run first (right after the first batch of tiny inputs): the recursive
/// solution fails the statement's last sample. A sample whose output the
/// declaration does not give is the declaration's error: the audit judges no program
/// (exit 2), and `verify` reports the disagreement with the statement.
#[test]
fn samples_run_first_and_a_wrong_one_is_the_declarations_error() {
    let Some(w) = Workshop::new() else { return };
    let decl = stones_with_samples(w.path(), "Second\n");
    let rec = w.compile("stones_rec", STONES_RECURSIVE, &[]);
    let r = w.audit_of(
        &["--problem", decl.to_str().unwrap()],
        1,
        &["--time", "5", "--stack-limit", "8M"],
        &[rec.to_str().unwrap()],
    );
    assert_eq!(r["verdict"], "runtime-error", "{r}");
    // The four samples ran, one input each, right after the first tiny input.
    assert!(r["samples"].as_u64().unwrap() >= 4, "{r}");

    let wrong = stones_with_samples(w.path(), "First\n");
    let table = w.compile("stones_table", STONES_TABLE, &[]);
    let out = sgcheck(
        &[
            "audit",
            "--problem",
            wrong.to_str().unwrap(),
            "--time",
            "3",
            "--json",
            "--",
            table.to_str().unwrap(),
        ],
        "",
    );
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    let r: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(r["verdict"], "declaration-error", "{r}");
    assert!(
        err.contains("sample 4") && err.contains("the statement's output"),
        "{err}"
    );

    let out = sgcheck(
        &[
            "verify",
            "--problem",
            wrong.to_str().unwrap(),
            "--time",
            "2",
        ],
        "",
    );
    let all = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(out.status.code(), Some(1), "{all}");
    assert!(
        all.contains("sample 4") && all.contains("the statement: First"),
        "{all}"
    );
}
