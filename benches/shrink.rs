//! Shrinking at scale: a C++ hdu3032 solution that is wrong only when a case holds
//! both piles 1000003 and 2000003 is given one case of 10^6 piles with those two far
//! apart (`audit_input`, no search); the shrinker must come down to exactly them.
//! Prints the runs and the seconds it took, for 10^4, 10^5 and 10^6 piles.
//!
//! `cargo bench --bench shrink` (needs g++; says so and exits without it).

use sgcheck::audit::{self, AuditOptions, Contestant, ProcessContestant};
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
}
