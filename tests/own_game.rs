//! A library user's own game in declarations and audits: `examples/own_game_cli.rs`
//! registers the game `prime-take` (take a prime number of stones from one pile) and
//! runs sgcheck's command line. Its declaration `examples/problems/prime_take.toml`
//! is answered as a brute force written here answers it, `verify --problem` agrees,
//! `audit --problem` passes a right C++ program and shrinks a planted bug to its
//! smallest input, and the plain `sgcheck`, which does not know the game, refuses the
//! declaration naming the key.

mod workshop;

use std::path::{Path, PathBuf};
use workshop::{command as run, text, variant, Workshop};

const DECLARATION: &str = "examples/problems/prime_take.toml";

/// The example's binary, built by `cargo test` beside the test binaries.
fn own_cli() -> PathBuf {
    let bin = Path::new(env!("CARGO_BIN_EXE_sgcheck"));
    let exe = bin.parent().unwrap().join("examples/own_game_cli");
    assert!(exe.is_file(), "{} not built", exe.display());
    exe
}

/// Whether the player to move wins, by plain recursion over whole positions (sorted
/// piles, memoised): no Grundy values.
fn first_wins(piles: &[u64], memo: &mut std::collections::HashMap<Vec<u64>, bool>) -> bool {
    let mut key = piles.to_vec();
    key.sort_unstable();
    if let Some(&w) = memo.get(&key) {
        return w;
    }
    let prime = |n: u64| n >= 2 && (2..n).all(|d| !n.is_multiple_of(d));
    let mut win = false;
    'all: for i in 0..key.len() {
        for p in (2..=key[i]).filter(|&p| prime(p)) {
            let mut next = key.clone();
            next[i] -= p;
            if !first_wins(&next, memo) {
                win = true;
                break 'all;
            }
        }
    }
    memo.insert(key, win);
    win
}

#[test]
fn solve_answers_as_a_brute_force_does() {
    let exe = own_cli();
    let cases: Vec<Vec<u64>> = vec![
        vec![0],
        vec![1],
        vec![4],
        vec![2, 3],
        vec![1, 1, 1],
        vec![7, 9, 12],
        vec![10, 11, 5, 6],
        vec![20, 3],
    ];
    let mut input = format!("{}\n", cases.len());
    let mut want = String::new();
    let mut memo = Default::default();
    for c in &cases {
        let line: Vec<String> = c.iter().map(u64::to_string).collect();
        input += &format!("{} {}\n", c.len(), line.join(" "));
        want += if first_wins(c, &mut memo) {
            "First\n"
        } else {
            "Second\n"
        };
    }
    let out = run(&exe, &["solve", "--problem", DECLARATION], &input);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout), want);
}

#[test]
fn verify_agrees_and_plain_sgcheck_does_not_know_the_game() {
    let exe = own_cli();
    let out = run(
        &exe,
        &[
            "verify",
            "--problem",
            DECLARATION,
            "--time",
            "3",
            "--seed",
            "1",
            "--no-progress",
        ],
        "",
    );
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}{}", text(&out.stderr));
    assert!(stdout.contains("all agree"), "{stdout}");
    let plain = workshop::sgcheck(&["solve", "--problem", DECLARATION], "1\n1 4\n");
    assert_eq!(plain.status.code(), Some(2));
    let err = text(&plain.stderr);
    assert!(
        err.contains("key `game`") && err.contains("unknown game \"prime-take\""),
        "{err}"
    );
}

#[test]
fn the_registered_game_is_swept_by_verify_game_without_a_tier_1() {
    // The example registers prime-take with a verify subject (no tier 1 of its own):
    // `verify --game` shows tier 1 as not applicable and sweeps tier 2, `check` answers
    // one position; the plain sgcheck knows neither.
    let exe = own_cli();
    let out = run(
        &exe,
        &[
            "verify",
            "--game",
            "prime-take",
            "--time",
            "3",
            "--seed",
            "1",
            "--json",
        ],
        "",
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let tiers = v["games"][0]["tiers"].as_array().unwrap();
    assert_eq!(v["games"][0]["game"], "prime-take", "{v}");
    assert!(tiers[0]["not_applicable"].is_string(), "{v}");
    assert_eq!(tiers[1]["tier"], 2, "{v}");
    assert!(tiers[1]["checked"].as_u64().unwrap() > 1000, "{v}");
    assert_eq!(v["disagreements"], 0, "{v}");
    // 5 and 7: the values are g(5) = 2 and g(7) = 3 (the mex over the prime takes),
    // so the player to move wins; the two winning moves take 2 or 3 from the 7 (to 5 or
    // 4, whose values are 2 and 2).
    let out = run(&exe, &["check", "prime-take", "5 7"], "");
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let shown = text(&out.stdout);
    assert!(
        shown.contains("fast:   win, best 1-2, 2 winning moves [1-2 1-3]"),
        "{shown}"
    );
    assert!(shown.contains("agree"), "{shown}");
    for args in [
        &["verify", "--game", "prime-take"][..],
        &["check", "prime-take", "5 7"][..],
    ] {
        let plain = workshop::sgcheck(args, "");
        assert_eq!(plain.status.code(), Some(2), "{args:?}");
    }
}

/// A right solution: primes by a sieve, g(n) = mex of g(n - p) over primes p <= n,
/// XOR over the piles.
const CORRECT: &str = r#"#include <cstdio>
int g[5001];
bool composite[5001];
int main() {
    composite[0] = composite[1] = true;
    for (int i = 2; i * i <= 5000; i++)
        if (!composite[i])
            for (int j = i * i; j <= 5000; j += i) composite[j] = true;
    static bool seen[5002];
    for (int n = 0; n <= 5000; n++) {
        for (int v = 0; v <= 5001; v++) seen[v] = false;
        for (int p = 1; p <= n; p++) if (!composite[p]) seen[g[n - p]] = true;
        while (seen[g[n]]) g[n]++;
    }
    int t;
    if (scanf("%d", &t) != 1) return 1;
    while (t--) {
        int n, x = 0;
        scanf("%d", &n);
        for (int i = 0; i < n; i++) { int a; scanf("%d", &a); x ^= g[a]; }
        puts(x ? "First" : "Second");
    }
}
"#;

#[test]
fn audit_passes_a_right_program_and_shrinks_a_planted_bug() {
    let Some(w) = Workshop::new() else { return };
    let exe = own_cli();
    let right = w.compile("prime_right", CORRECT, &[]);
    // The mistake: the sieve leaves 1 a prime, so a pile of 1 has a move.
    let wrong = w.compile(
        "prime_wrong",
        &variant(
            CORRECT,
            "composite[0] = composite[1] = true;",
            "composite[0] = true;",
        ),
        &[],
    );
    let audit = |prog: &Path| {
        let out = run(
            &exe,
            &[
                "audit",
                "--problem",
                DECLARATION,
                "--seed",
                "1",
                "--cases",
                "3000",
                "--time",
                "120",
                "--json",
                "--",
                prog.to_str().unwrap(),
            ],
            "",
        );
        let report: serde_json::Value = serde_json::from_slice(&out.stdout)
            .unwrap_or_else(|e| panic!("{e}: {}{}", text(&out.stdout), text(&out.stderr)));
        workshop::assert_nothing_left(w.path());
        (out.status.code(), report)
    };
    let (code, report) = audit(&right);
    assert_eq!(
        (code, &report["verdict"]),
        (Some(0), &"ok".into()),
        "{report}"
    );
    let (code, report) = audit(&wrong);
    assert_eq!(code, Some(1), "{report}");
    assert_eq!(report["verdict"], "wrong-answer", "{report}");
    // The smallest input: one case, one pile of 1 (the bug takes "1" and says First).
    let c = workshop::counterexample(&report);
    assert_eq!(c["input"], "1\n1 1\n", "{report}");
    // The command that repeats the audit runs the program that knows prime-take, not
    // the plain sgcheck (which refuses the declaration).
    let again = report["reproduce"].as_str().unwrap();
    assert!(
        again.starts_with(&format!("{} audit --problem {DECLARATION} ", exe.display())),
        "{again}"
    );
}
