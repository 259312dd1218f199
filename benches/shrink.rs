//! Shrinking at scale: a C++ hdu3032 solution that is wrong only when a case holds
//! both piles 1000003 and 2000003 is given one case of 10^6 piles with those two far
//! apart (`audit_input`, no search); the shrinker must come down to exactly them.
//! Prints the runs and the seconds it took, for 10^4, 10^5 and 10^6 piles.
//!
//! Then game-aware shrinking side by side with the format-only shrinker: four C++
//! programs whose smallest failing input is known (a value cap that needs two
//! components, a bug above a value threshold that needs three components XORing to 0,
//! a bug above a pile count, a period table with two entries swapped), each given one
//! failing case of 10^5 piles: the runs and seconds to the result, and whether it is
//! the known minimum.
//!
//! `cargo bench --bench shrink` (needs g++; says so and exits without it).

use sgcheck::audit::{self, AuditOptions, Contestant, ProcessContestant};
use sgcheck::problems::{Declared, Problem};
use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

const PROGRAM: &str = r#"#include <cstdio>
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
        bool a = false, b = false;
        for (int i = 0; i < n; i++) {
            long long s;
            if (scanf("%lld", &s) != 1) return 1;
            x ^= sg(s);
            a |= s == 1000003;
            b |= s == 2000003;
        }
        if (a && b) x = !x;
        puts(x > 0 ? "Alice" : "Bob");
    }
}
"#;

/// Lasker's Nim: the Grundy value of one pile.
fn lasker(s: u64) -> u64 {
    match s % 4 {
        0 if s == 0 => 0,
        0 => s - 1,
        3 => s + 1,
        _ => s,
    }
}

/// hdu3032 in C++ with `SG` the Grundy function's body and `READ` the XOR loop.
const HDU3032: &str = r#"#include <cstdio>
#include <vector>
long long sg(long long s) { SG }
int main() {
    int t;
    if (scanf("%d", &t) != 1) return 1;
    while (t--) {
        int n;
        if (scanf("%d", &n) != 1) return 1;
        std::vector<long long> a(n);
        for (int i = 0; i < n; i++)
            if (scanf("%lld", &a[i]) != 1) return 1;
        long long x = 0;
        READ
        puts(x != 0 ? "Alice" : "Bob");
    }
}
"#;
const LASKER_SG: &str = "if (s % 4 == 0) return s - 1; if (s % 4 == 3) return s + 1; return s;";
const ALL: &str = "for (int i = 0; i < n; i++) x ^= sg(a[i]);";

const PERIOD: &str = r#"#include <cstdio>
int main() {
    const long long table[8] = {0, 1, 2, 5, 4, 3, 6, 7};
    int t;
    if (scanf("%d", &t) != 1) return 1;
    while (t--) {
        int n;
        if (scanf("%d", &n) != 1) return 1;
        long long x = 0;
        for (int i = 0; i < n; i++) {
            long long s;
            if (scanf("%lld", &s) != 1) return 1;
            x ^= table[s % 8];
        }
        puts(x != 0 ? "First" : "Second");
    }
}
"#;

const BASH7: &str = r#"format = 1
id = "bash7"
title = "Bash's game (take 1 to 7) on many piles"
game = "bash"
position = ["piles"]
[rules]
m = 7
[describe]
input = "T; then per case: N, then N pile sizes"
output = "First or Second"
limits = "T <= 100, 1 <= N <= 10^5, 0 <= pile <= 10^9"
[input]
cases = "count"
count = { what = "case count T", min = 1, max = 100 }
[[field]]
name = "piles"
what = "pile {i} of case {case}"
min = 0
max = 1000000000
length = { what = "pile count N of case {case}", min = 1, max = 100000 }
[output]
lines = ["{verdict}"]
win = "First"
lose = "Second"
"#;

fn compile(dir: &Path, name: &str, src: &str) -> Option<ProcessContestant> {
    let source = dir.join(format!("{name}.cpp"));
    std::fs::write(&source, src).ok()?;
    let exe = dir.join(name);
    let ok = Command::new("g++")
        .args(["-O2", "-o"])
        .arg(&exe)
        .arg(&source)
        .status()
        .is_ok_and(|s| s.success());
    ok.then(|| ProcessContestant::new(&exe.display().to_string(), Vec::new()).expect("built"))
}

/// `n` piles in 1..=`top` from a fixed sequence, the first changed (to the pile that
/// cancels the rest, then to 1, 2, ...) until `fails`.
fn failing_piles(
    n: usize,
    top: u64,
    cancel: impl Fn(&[u64]) -> u64,
    fails: impl Fn(&[u64]) -> bool,
) -> Vec<u64> {
    let p: Vec<u64> = (0..n as u64)
        .map(|i| 1 + (i.wrapping_mul(2_654_435_761) ^ (i >> 3)) % top)
        .collect();
    make_fail(p, cancel, fails)
}

/// `p` with its first pile changed until `fails`.
fn make_fail(
    mut p: Vec<u64>,
    cancel: impl Fn(&[u64]) -> u64,
    fails: impl Fn(&[u64]) -> bool,
) -> Vec<u64> {
    for k in 0..1_000 {
        p[1] += k;
        p[0] = cancel(&p[1..]);
        if fails(&p) {
            return p;
        }
    }
    for v in 1..=100_000 {
        p[0] = v;
        if fails(&p) {
            return p;
        }
    }
    panic!("no failing case");
}

/// Whether a result's piles are the known minimum.
type Predicate = Box<dyn Fn(&[u64]) -> bool>;

struct Scenario {
    name: &'static str,
    problem: &'static Declared,
    program: ProcessContestant,
    piles: Vec<u64>,
    /// Whether a result's piles are the known minimum.
    is_minimum: Predicate,
}

/// Game-aware shrinking side by side with the format-only shrinker.
fn side_by_side(dir: &Path) {
    let hdu3032 = sgcheck::problems::builtin("hdu3032").expect("built-in hdu3032");
    let bash7: &'static Declared = Box::leak(Box::new(
        Declared::from_toml(BASH7, "bench").expect("declaration"),
    ));
    let lasker_cancel = |rest: &[u64]| lasker(rest.iter().fold(0, |a, &s| a ^ lasker(s)));
    let build = |name: &str, sg: &str, read: &str| {
        compile(dir, name, &HDU3032.replace("SG", sg).replace("READ", read))
    };
    let mut scenarios = Vec::new();
    // A value cap at 5: two piles worth 5 and 6 at the least.
    let Some(cap) = build(
        "cap",
        "long long v = s % 4 == 0 ? s - 1 : s % 4 == 3 ? s + 1 : s; return v < 5 ? v : 5;",
        ALL,
    ) else {
        return;
    };
    let capped = |p: &[u64]| {
        let t = p.iter().fold(0, |a, &s| a ^ lasker(s));
        let c = p.iter().fold(0, |a, &s| a ^ lasker(s).min(5));
        (t != 0) != (c != 0)
    };
    scenarios.push(Scenario {
        name: "value cap (2 components)",
        problem: hdu3032,
        program: cap,
        piles: failing_piles(100_000, 1_000_000_000, lasker_cancel, capped),
        // No failing input is smaller than {5, 6} (size 4 + 5 + 1); others tie.
        is_minimum: Box::new(move |p: &[u64]| {
            let size = p.iter().map(|&s| s - 1).sum::<u64>() + p.len() as u64 - 1;
            capped(p) && size <= 10
        }),
    });
    // Piles above 10^5 at face value: three piles XORing to 0, one just above 10^5.
    let threshold = |p: &[u64]| {
        let t = p.iter().fold(0, |a, &s| a ^ lasker(s));
        let w = p
            .iter()
            .fold(0, |a, &s| a ^ if s > 100_000 { s } else { lasker(s) });
        (t != 0) != (w != 0)
    };
    let mut piles = failing_piles(100_000, 100_000, lasker_cancel, |_| true);
    piles[50_000] = 123_456;
    let piles = make_fail(piles, lasker_cancel, |p| {
        p[0] <= 100_000 && p.iter().fold(0, |a, &s| a ^ lasker(s)) == 0 && threshold(p)
    });
    if let Some(program) = build(
        "threshold",
        &format!("if (s > 100000) return s; {LASKER_SG}"),
        ALL,
    ) {
        scenarios.push(Scenario {
            name: "value threshold (3 components)",
            problem: hdu3032,
            program,
            piles,
            is_minimum: Box::new(move |p: &[u64]| {
                p.len() == 3
                    && threshold(p)
                    && p.iter().filter(|&&s| s > 100_000).all(|&s| s <= 100_004)
            }),
        });
    }
    // A ring buffer of 65,536 piles: 65,537 piles of one stone.
    let ring = |p: &[u64]| {
        let t = p.iter().fold(0, |a, &s| a ^ lasker(s));
        let mut r = vec![0u64; p.len().min(65_536)];
        for (i, &s) in p.iter().enumerate() {
            r[i % 65_536] = s;
        }
        let w = r.iter().fold(0, |a, &s| a ^ lasker(s));
        (t != 0) != (w != 0)
    };
    if let Some(program) = build(
        "ring",
        LASKER_SG,
        "static long long ring[65536]; for (int i = 0; i < n; i++) ring[i % 65536] = a[i];          for (int i = 0; i < n && i < 65536; i++) x ^= sg(ring[i]);",
    ) {
        scenarios.push(Scenario {
            name: "pile count (65,537 piles)",
            problem: hdu3032,
            program,
            piles: failing_piles(100_000, 1_000_000_000, lasker_cancel, ring),
            is_minimum: Box::new(|p: &[u64]| p.len() == 65_537 && p.iter().all(|&s| s == 1)),
        });
    }
    // A period-8 table with entries 3 and 5 swapped: three piles {1, 2, 3}.
    let swapped = |p: &[u64]| {
        let table = [0u64, 1, 2, 5, 4, 3, 6, 7];
        let t = p.iter().fold(0, |a, &s| a ^ (s % 8));
        let w = p.iter().fold(0, |a, &s| a ^ table[(s % 8) as usize]);
        (t != 0) != (w != 0)
    };
    if let Some(program) = compile(dir, "period", PERIOD) {
        scenarios.push(Scenario {
            name: "period table (3 components)",
            problem: bash7,
            program,
            piles: failing_piles(
                100_000,
                1_000_000_000,
                |rest| rest.iter().fold(0, |a, &s| a ^ (s % 8)),
                swapped,
            ),
            is_minimum: Box::new(|p: &[u64]| {
                let mut q = p.to_vec();
                q.sort();
                q == [1, 2, 3]
            }),
        });
    }
    println!();
    println!(
        "| bug (from 10^5 piles) | shrinker | runs | seconds | piles | the minimum | minimality |"
    );
    println!("|---|---|---:|---:|---:|---|---|");
    for s in &scenarios {
        for game_aware in [true, false] {
            let opts = AuditOptions {
                seed: 1,
                time: Duration::from_secs(60),
                game_aware,
                ..AuditOptions::default()
            };
            let t = Instant::now();
            let r = audit::audit_input(
                s.problem,
                &s.program as &dyn Contestant,
                &opts,
                vec![s.problem.case(vec![s.piles.clone()])],
                &sgcheck::indicatif::ProgressBar::hidden(),
            )
            .expect("audit runs");
            let secs = t.elapsed().as_secs_f64();
            let c = r.counterexample.expect("a failure");
            let cases = s.problem.parse(&c.input, true).expect("parses");
            let piles = s.problem.fields(&cases[0]).swap_remove(0);
            let m = c.minimality;
            let bound = match (m.kind, m.complete, m.checked_up_to) {
                (audit::MinimalityKind::Minimal, true, _) => "minimal (complete)".to_string(),
                (audit::MinimalityKind::Minimal, false, Some(b)) => {
                    format!("minimal up to size {b}")
                }
                (k, _, _) => k.name().to_string(),
            };
            println!(
                "| {} | {} | {} | {secs:.2} | {} | {} | {bound} |",
                s.name,
                if game_aware {
                    "game-aware"
                } else {
                    "format only"
                },
                r.shrink_runs,
                piles.len(),
                if (s.is_minimum)(&piles) { "yes" } else { "no" },
            );
        }
    }
}

fn main() {
    let dir = tempfile::tempdir().expect("temporary directory");
    let src = dir.path().join("two.cpp");
    std::fs::write(&src, PROGRAM).expect("write the program");
    let exe = dir.path().join("two");
    let built = Command::new("g++")
        .args(["-O2", "-o"])
        .arg(&exe)
        .arg(&src)
        .status();
    if !matches!(built, Ok(s) if s.success()) {
        println!("g++ not available: benchmark skipped");
        return;
    }
    let program =
        ProcessContestant::new(&exe.display().to_string(), Vec::new()).expect("the built program");
    let hdu3032 = sgcheck::problems::builtin("hdu3032").expect("built-in hdu3032");
    println!("| piles | culprits at | shrink runs | seconds | result |");
    println!("|---:|---|---:|---:|---|");
    for n in [10_000usize, 100_000, 1_000_000] {
        // Piles in 3..10^9 from a fixed sequence, none of them a culprit but two.
        let mut piles: Vec<u64> = (0..n as u64)
            .map(|i| 3 + (i * 2_654_435_761) % 999_999_937)
            .map(|x| {
                if x == 1_000_003 || x == 2_000_003 {
                    5
                } else {
                    x
                }
            })
            .collect();
        let (a, b) = (n / 80, n - n / 7);
        piles[a] = 1_000_003;
        piles[b] = 2_000_003;
        let opts = AuditOptions {
            seed: 1,
            time: Duration::from_secs(600),
            ..AuditOptions::default()
        };
        let t = Instant::now();
        let r = audit::audit_input(
            hdu3032,
            &program as &dyn Contestant,
            &opts,
            vec![hdu3032.case(vec![piles])],
            &sgcheck::indicatif::ProgressBar::hidden(),
        )
        .expect("audit runs");
        let secs = t.elapsed().as_secs_f64();
        let c = r.counterexample.expect("a failure");
        assert_eq!(
            c.input, "1\n2\n1000003 2000003\n",
            "not shrunk to the culprits"
        );
        assert!(c.minimal);
        println!(
            "| {n} | {a}, {b} | {} | {secs:.2} | `{}` |",
            r.shrink_runs,
            c.input.trim_end().replace('\n', " / ")
        );
    }
    side_by_side(dir.path());
}
