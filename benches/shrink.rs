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
//! the known minimum. Two more of the same kind: a value cap on E&D pairs (p2148,
//! from 10^4 pairs: two pairs worth 30 and 31), and a recursive DFS that overflows an
//! 8 MiB stack (hdu3094, from a tree of 10^5 vertices as deep as 90% of them: a path
//! just past the depth that crashes). The programs and models are those of
//! `tests/audit_game_shrink.rs` and `tests/audit_tree.rs` (`tests/workshop/`).
//!
//! `cargo bench --bench shrink` (needs g++; says so and exits without it).
//! `SHRINK_BENCH_ONLY=<words>` runs only the side-by-side scenarios whose name holds
//! them (`SHRINK_BENCH_ONLY=stack`).

#[path = "../tests/workshop/game_programs.rs"]
mod game_programs;
#[allow(dead_code)]
#[path = "../tests/workshop/programs.rs"]
mod programs;

use game_programs::*;
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

/// Whether a result's numbers (its first field) are the known minimum.
type Predicate = Box<dyn Fn(&[u64]) -> bool>;

struct Scenario {
    name: &'static str,
    problem: &'static Declared,
    program: ProcessContestant,
    /// The fields of the one failing case the shrinker starts from.
    fields: Vec<Vec<u64>>,
    /// The stack limit of the runs, when not the inherited one.
    stack: Option<u64>,
    /// What the size column counts of the result's first field.
    unit: &'static str,
    /// Whether a result's numbers are the known minimum.
    is_minimum: Predicate,
}

/// A tree of `n` vertices rooted at 1 around a spine about 0.9 n deep: nine vertices
/// in ten continue the spine, the tenth hangs from an earlier vertex from a fixed
/// sequence.
fn deep_tree(n: u64) -> Vec<u64> {
    (2..=n)
        .flat_map(|v| {
            let parent = if v % 10 == 0 {
                1 + (v * 7919) % (v - 1)
            } else if (v - 1) % 10 == 0 {
                v - 2
            } else {
                v - 1
            };
            [parent, v]
        })
        .collect()
}

/// Whether a tree given flat is the path `1 2, 2 3, ...` (what the tree steps write).
fn is_path(flat: &[u64]) -> bool {
    flat.chunks(2)
        .enumerate()
        .all(|(i, e)| e[0] == i as u64 + 1 && e[1] == i as u64 + 2)
}

/// Game-aware shrinking side by side with the format-only shrinker.
fn side_by_side(dir: &Path) {
    let hdu3032 = sgcheck::problems::builtin("hdu3032").expect("built-in hdu3032");
    let p2148 = sgcheck::problems::builtin("p2148").expect("built-in p2148");
    let hdu3094 = sgcheck::problems::builtin("hdu3094").expect("built-in hdu3094");
    let bash7: &'static Declared = Box::leak(Box::new(
        Declared::from_toml(BASH7, "bench").expect("declaration"),
    ));
    let build =
        |name: &str, sg: &str, read: &str| compile(dir, name, &game_programs::hdu3032(sg, read));
    let mut scenarios = Vec::new();
    let piles_case = |problem: &'static Declared,
                      name: &'static str,
                      program: ProcessContestant,
                      piles: Vec<u64>,
                      is_minimum: Predicate| Scenario {
        name,
        problem,
        program,
        fields: vec![piles],
        stack: None,
        unit: "piles",
        is_minimum,
    };
    // A value cap at 5: two piles worth 5 and 6 at the least.
    let Some(cap) = build("cap", &lasker_capped(5), ALL_PILES) else {
        return;
    };
    let capped = |p: &[u64]| {
        let t = p.iter().fold(0, |a, &s| a ^ lasker(s));
        let c = p.iter().fold(0, |a, &s| a ^ lasker(s).min(5));
        (t != 0) != (c != 0)
    };
    scenarios.push(piles_case(
        hdu3032,
        "value cap (2 components)",
        cap,
        failing_piles(100_000, 1_000_000_000, lasker_cancel, capped),
        // No failing input is smaller than {5, 6} (size 4 + 5 + 1); others tie.
        Box::new(move |p: &[u64]| {
            let size = p.iter().map(|&s| s - 1).sum::<u64>() + p.len() as u64 - 1;
            capped(p) && size <= 10
        }),
    ));
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
    if let Some(program) = build("threshold", &lasker_above(100_000), ALL_PILES) {
        scenarios.push(piles_case(
            hdu3032,
            "value threshold (3 components)",
            program,
            piles,
            Box::new(move |p: &[u64]| {
                p.len() == 3
                    && threshold(p)
                    && p.iter().filter(|&&s| s > 100_000).all(|&s| s <= 100_004)
            }),
        ));
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
    if let Some(program) = build("ring", LASKER_SG, &ring_read(65_536)) {
        scenarios.push(piles_case(
            hdu3032,
            "pile count (65,537 piles)",
            program,
            failing_piles(100_000, 1_000_000_000, lasker_cancel, ring),
            Box::new(|p: &[u64]| p.len() == 65_537 && p.iter().all(|&s| s == 1)),
        ));
    }
    // A period-8 table with entries 3 and 5 swapped: three piles {1, 2, 3}.
    let swapped = |p: &[u64]| {
        let t = p.iter().fold(0, |a, &s| a ^ (s % 8));
        let w = p
            .iter()
            .fold(0, |a, &s| a ^ PERIOD8_TABLE[(s % 8) as usize]);
        (t != 0) != (w != 0)
    };
    if let Some(program) = compile(dir, "period", PERIOD8_SWAPPED) {
        scenarios.push(piles_case(
            bash7,
            "period table (3 components)",
            program,
            failing_piles(
                100_000,
                1_000_000_000,
                |rest| rest.iter().fold(0, |a, &s| a ^ (s % 8)),
                swapped,
            ),
            Box::new(|p: &[u64]| {
                let mut q = p.to_vec();
                q.sort();
                q == [1, 2, 3]
            }),
        ));
    }
    // E&D values capped at 30: two pairs worth 30 and 31, of the fewest stones.
    if let Some(program) = compile(dir, "ed_cap", &p2148_capped(30)) {
        scenarios.push(piles_case(
            p2148,
            "E&D value cap (2 pairs)",
            program,
            ed_cap_case(10_000),
            Box::new(|p: &[u64]| {
                let mut v: Vec<u64> = p.chunks(2).map(|c| ed_pair(c[0], c[1])).collect();
                v.sort_unstable();
                v == [30, 31]
                    && p.chunks(2)
                        .all(|c| c[0] + c[1] == (1 << ed_pair(c[0], c[1])) + 1)
            }),
        ));
    }
    // A recursive DFS with 256 bytes a frame overflows 8 MiB: a path just past the
    // depth that crashes (about 29,100 vertices here; the test measures it).
    let recursive = programs::hdu3094_recursive(256);
    if let Some(program) = compile(dir, "recursive", &recursive) {
        scenarios.push(Scenario {
            name: "stack overflow (path)",
            problem: hdu3094,
            program,
            fields: vec![deep_tree(100_000)],
            stack: Some(8 << 20),
            unit: "edges",
            is_minimum: Box::new(is_path),
        });
    }
    // `SHRINK_BENCH_ONLY=<words>`: only the scenarios whose name holds them.
    if let Ok(only) = std::env::var("SHRINK_BENCH_ONLY") {
        scenarios.retain(|s| s.name.contains(only.as_str()));
    }
    println!();
    println!(
        "| bug (from 10^5 numbers) | shrinker | runs | seconds | size | the minimum | minimality |"
    );
    println!("|---|---|---:|---:|---:|---|---|");
    for s in &scenarios {
        for game_aware in [true, false] {
            let mut opts = AuditOptions {
                seed: 1,
                time: Duration::from_secs(60),
                game_aware,
                ..AuditOptions::default()
            };
            if s.stack.is_some() {
                opts.limits.stack_limit = s.stack;
            }
            let t = Instant::now();
            let r = audit::audit_input(
                s.problem,
                &s.program as &dyn Contestant,
                &opts,
                vec![s.problem.case(s.fields.clone())],
                &sgcheck::indicatif::ProgressBar::hidden(),
            )
            .expect("audit runs");
            let secs = t.elapsed().as_secs_f64();
            let c = r.counterexample.expect("a failure");
            let cases = s.problem.parse(&c.input, true).expect("parses");
            let numbers = s.problem.fields(&cases[0]).swap_remove(0);
            let size = if s.unit == "edges" {
                numbers.len() / 2
            } else {
                numbers.len()
            };
            let m = c.minimality;
            let bound = match (m.kind, m.complete, m.checked_up_to) {
                (audit::MinimalityKind::Minimal, true, _) => "minimal (complete)".to_string(),
                (audit::MinimalityKind::Minimal, false, Some(b)) => {
                    format!("minimal up to size {b}")
                }
                (k, _, _) => k.name().to_string(),
            };
            println!(
                "| {} | {} | {} | {secs:.2} | {size} {} | {} | {bound} |",
                s.name,
                if game_aware {
                    "game-aware"
                } else {
                    "format only"
                },
                r.shrink_runs,
                s.unit,
                if (s.is_minimum)(&numbers) {
                    "yes"
                } else {
                    "no"
                },
            );
        }
    }
}
fn main() {
    let dir = tempfile::tempdir().expect("temporary directory");
    if std::env::var("SHRINK_BENCH_ONLY").is_ok() {
        side_by_side(dir.path());
        return;
    }
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
