//! Game-aware shrinking and the minimality check, on C++ programs written here whose
//! smallest failing input is known from the mistake planted in them. Each is given one
//! large failing case (`--input`) and must come down to its minimum, with the report
//! saying how minimal that is:
//!
//! - a value cap (Lasker's Nim, Grundy values capped at 5): two piles worth 5 and 6,
//!   no smaller one-case input fails (every one checked; inputs of several cases up
//!   to the size the report states);
//! - a bug only above a value threshold (Lasker's Nim, piles above 10^5 taken at face
//!   value): three piles, one just above 10^5, whose values XOR to 0;
//! - a bug only above a pile count (a ring buffer of 65,536 piles): 65,537 piles of
//!   one stone;
//! - a period-8 table with two entries swapped (Bash's game, m = 7, declared in a
//!   file here): three piles, no smaller one-case input fails (every one checked);
//! - a value cap on E&D pairs (p2148, pair values capped at 30): two pairs worth 30
//!   and 31, each the pair of fewest stones of its value, no smaller input failing up
//!   to the bound the report states;
//! - a correct program passes.
//!
//! The smallest failing inputs the tests expect come from a model of each program,
//! searched by brute force here, not from sgcheck.

use serde_json::Value;
use std::path::Path;
use std::process::{Command, Stdio};

mod workshop;
use workshop::game_programs::*;
use workshop::Workshop;

const SGCHECK: &str = env!("CARGO_BIN_EXE_sgcheck");

/// Every list of at least one value, each at least `lo`, whose size (how far the
/// values are above `lo`, plus one per value past the first) is `size`.
fn lists_of_size(size: u64, lo: u64) -> Vec<Vec<u64>> {
    fn go(left: usize, spend: u64, lo: u64, cur: &mut Vec<u64>, out: &mut Vec<Vec<u64>>) {
        if left == 1 {
            cur.push(lo + spend);
            out.push(cur.clone());
            cur.pop();
            return;
        }
        for v in 0..=spend {
            cur.push(lo + v);
            go(left - 1, spend - v, lo, cur, out);
            cur.pop();
        }
    }
    let mut out = Vec::new();
    for len in 1..=size + 1 {
        go(len as usize, size + 1 - len, lo, &mut Vec::new(), &mut out);
    }
    out
}

/// The smallest size on which `fails` holds for some list, and every such list.
fn smallest_failing(lo: u64, fails: impl Fn(&[u64]) -> bool) -> (u64, Vec<Vec<u64>>) {
    for size in 0..24 {
        let found: Vec<Vec<u64>> = lists_of_size(size, lo)
            .into_iter()
            .filter(|l| fails(l))
            .collect();
        if !found.is_empty() {
            return (size, found);
        }
    }
    panic!("no failing input up to size 24");
}

/// `sgcheck audit <problem> --input <file> --json -- <exe>` on one case of `piles`
/// (`problem` is an id, or `--problem FILE`); the report, after checking the exit
/// status and that nothing of the workshop is left running.
fn audit(w: &Workshop, problem: &[&str], exe: &Path, piles: &[u64]) -> Value {
    let text: Vec<String> = piles.iter().map(u64::to_string).collect();
    let input = w.path().join("big.in");
    std::fs::write(&input, format!("1\n{}\n{}\n", piles.len(), text.join(" "))).unwrap();
    let mut args: Vec<&str> = vec!["audit"];
    args.extend_from_slice(problem);
    args.extend_from_slice(&["--time", "60", "--json", "--input"]);
    args.push(input.to_str().unwrap());
    args.push("--");
    args.push(exe.to_str().unwrap());
    let out = Command::new(SGCHECK)
        .args(&args)
        .stdin(Stdio::null())
        .output()
        .expect("runs sgcheck");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let report: Value = serde_json::from_str(&stdout)
        .unwrap_or_else(|e| panic!("{e}: {stdout}\n{}", String::from_utf8_lossy(&out.stderr)));
    let want = if report["verdict"] == "ok" { 0 } else { 1 };
    assert_eq!(out.status.code(), Some(want), "{stdout}");
    workshop::assert_nothing_left(w.path());
    report
}

/// The piles of the counterexample (one case: `1`, `N`, the piles).
fn piles_of(report: &Value) -> Vec<u64> {
    let c = &report["counterexample"];
    let input = c["input"].as_str().unwrap_or_else(|| panic!("{report}"));
    let nums: Vec<u64> = input
        .split_whitespace()
        .map(|t| t.parse().unwrap())
        .collect();
    assert_eq!(nums[0], 1, "{input}");
    assert_eq!(nums[1] as usize, nums.len() - 2, "{input}");
    nums[2..].to_vec()
}

fn minimality(report: &Value) -> &Value {
    &report["counterexample"]["minimality"]
}

#[test]
fn a_value_cap_needs_two_components_proved_minimal() {
    let Some(w) = Workshop::new() else { return };
    let cap = 5;
    let exe = w.compile("cap", &hdu3032(&lasker_capped(cap), ALL_PILES), &[]);
    let model = |p: &[u64]| {
        let truth = p.iter().fold(0, |a, &s| a ^ lasker(s));
        let capped = p.iter().fold(0, |a, &s| a ^ lasker(s).min(cap));
        (truth != 0) != (capped != 0)
    };
    let (size, failing) = smallest_failing(1, model);
    let big = make_fail(piles(100_000, 1_000_000_000), lasker_cancel, model);
    let r = audit(&w, &["hdu3032"], &exe, &big);
    assert_eq!(r["verdict"], "wrong-answer");
    let got = piles_of(&r);
    assert!(
        failing.contains(&got),
        "{} piles: not one of {failing:?}",
        got.len()
    );
    let m = minimality(&r);
    assert_one_case_minimal(m, size);
    let runs = r["shrink_runs"].as_u64().unwrap();
    println!("value cap: {got:?} after {runs} shrink runs");
}

#[test]
fn a_bug_above_a_value_threshold_needs_three_components_xoring_to_0() {
    let Some(w) = Workshop::new() else { return };
    let threshold = 100_000;
    let exe = w.compile(
        "threshold",
        &hdu3032(&lasker_above(threshold), ALL_PILES),
        &[],
    );
    let model = |p: &[u64]| {
        let truth = p.iter().fold(0, |a, &s| a ^ lasker(s));
        let wrong = p
            .iter()
            .fold(0, |a, &s| a ^ if s > threshold { s } else { lasker(s) });
        (truth != 0) != (wrong != 0)
    };
    // 10^5 piles up to 10^5 and one of 123456 (worth 123455), all XORing to 0.
    let mut big = piles(100_000, threshold);
    big[50_000] = 123_456;
    let big = make_fail(big, lasker_cancel, |p| {
        let x = p.iter().fold(0, |a, &s| a ^ lasker(s));
        x == 0 && p[0] <= threshold && model(p)
    });
    let r = audit(&w, &["hdu3032"], &exe, &big);
    assert_eq!(r["verdict"], "wrong-answer");
    let got = piles_of(&r);
    assert_eq!(got.len(), 3, "{} piles", got.len());
    assert!(model(&got), "{got:?}");
    assert_eq!(got.iter().fold(0, |a, &s| a ^ lasker(s)), 0, "{got:?}");
    let big_ones: Vec<u64> = got.iter().copied().filter(|&s| s > threshold).collect();
    assert_eq!(big_ones.len(), 1, "{got:?}");
    // The smallest pile above the threshold whose value differs from its size.
    let first = (threshold + 1..).find(|&s| lasker(s) != s).unwrap();
    assert!(big_ones[0] <= first + 1, "{got:?}");
    // Fewer piles never fail: one pile is never wrong, two are wrong only when
    // their values are equal, which the face value keeps.
    let m = minimality(&r);
    assert_eq!(m["kind"], "minimal", "{m}");
    let runs = r["shrink_runs"].as_u64().unwrap();
    println!("value threshold: {got:?} after {runs} shrink runs");
}

#[test]
fn a_bug_above_a_pile_count_comes_down_to_the_count() {
    let Some(w) = Workshop::new() else { return };
    let ring = 65_536usize;
    let exe = w.compile("ring", &hdu3032(LASKER_SG, &ring_read(ring)), &[]);
    let model = |p: &[u64]| {
        let truth = p.iter().fold(0, |a, &s| a ^ lasker(s));
        let mut r = vec![0u64; ring.min(p.len())];
        for (i, &s) in p.iter().enumerate() {
            r[i % ring] = s;
        }
        let wrong = r.iter().fold(0, |a, &s| a ^ lasker(s));
        (truth != 0) != (wrong != 0)
    };
    let big = make_fail(piles(100_000, 1_000_000_000), lasker_cancel, model);
    let r = audit(&w, &["hdu3032"], &exe, &big);
    assert_eq!(r["verdict"], "wrong-answer");
    let got = piles_of(&r);
    // One more pile than the ring holds, each of the fewest stones.
    assert_eq!(got.len(), ring + 1, "{} piles", got.len());
    let mut counts = std::collections::BTreeMap::new();
    for &s in &got {
        *counts.entry(s).or_insert(0) += 1;
    }
    assert!(
        got.iter().all(|&s| s == 1),
        "not all piles of one stone: {counts:?}, {}, {} shrink runs",
        minimality(&r),
        r["shrink_runs"]
    );
    assert!(model(&got));
    let runs = r["shrink_runs"].as_u64().unwrap();
    println!(
        "pile count: {} piles after {runs} shrink runs, {}",
        got.len(),
        minimality(&r)
    );
    assert_ne!(minimality(&r)["kind"], "not-minimal", "{}", minimality(&r));
}

#[test]
fn a_period_table_with_two_entries_swapped_proved_minimal() {
    let Some(w) = Workshop::new() else { return };
    let decl = w.path().join("bash7.toml");
    std::fs::write(&decl, BASH7).unwrap();
    // The period-8 table of Bash's game with m = 7 is n % 8; entries 3 and 5 swapped.
    let table = PERIOD8_TABLE;
    let exe = w.compile("period", PERIOD8_SWAPPED, &[]);
    let model = |p: &[u64]| {
        let truth = p.iter().fold(0, |a, &s| a ^ (s % 8));
        let wrong = p.iter().fold(0, |a, &s| a ^ table[(s % 8) as usize]);
        (truth != 0) != (wrong != 0)
    };
    let (size, failing) = smallest_failing(0, model);
    let cancel = |rest: &[u64]| rest.iter().fold(0, |a, &s| a ^ (s % 8));
    let big = make_fail(piles(100_000, 1_000_000_000), cancel, model);
    let r = audit(&w, &["--problem", decl.to_str().unwrap()], &exe, &big);
    assert_eq!(r["verdict"], "wrong-answer");
    let got = piles_of(&r);
    assert!(
        failing.contains(&got),
        "{} piles: not one of {failing:?}",
        got.len()
    );
    let m = minimality(&r);
    assert_one_case_minimal(m, size);
    let runs = r["shrink_runs"].as_u64().unwrap();
    println!("period table: {got:?} after {runs} shrink runs");
}

/// A minimal claim for a result of size `size`: every smaller one-case input passes,
/// and the claim is complete exactly when inputs of several cases were checked as far.
fn assert_one_case_minimal(m: &serde_json::Value, size: u64) {
    assert_eq!(m["kind"], "minimal", "{m}");
    assert_eq!(m["size"], size, "{m}");
    assert_eq!(m["one_case_checked_up_to"], size - 1, "{m}");
    assert_eq!(m["several_cases"], true, "{m}");
    let all = m["checked_up_to"].as_u64().expect("a bound");
    assert_eq!(m["complete"], all + 1 == size, "{m}");
}

#[test]
fn a_correct_program_passes() {
    let Some(w) = Workshop::new() else { return };
    let exe = w.compile("right", &hdu3032(LASKER_SG, ALL_PILES), &[]);
    let r = audit(&w, &["hdu3032"], &exe, &piles(100_000, 1_000_000_000));
    assert_eq!(r["verdict"], "ok", "{r}");
}

#[test]
fn the_text_report_says_how_minimal() {
    let Some(w) = Workshop::new() else { return };
    let exe = w.compile(
        "even",
        &hdu3032(&format!("if (s == 6) return 0; {LASKER_SG}"), ALL_PILES),
        &[],
    );
    let out = Command::new(SGCHECK)
        .args(["audit", "hdu3032", "--seed", "1", "--"])
        .arg(&exe)
        .stdin(Stdio::null())
        .output()
        .expect("runs sgcheck");
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert!(
        text.contains("1\n    1\n    6\n") || text.contains("6\n"),
        "{text}"
    );
    // Every smaller one-case input passes; inputs of several cases (one a run) are
    // checked as far as their budget goes, and the line says how far.
    assert!(
        text.contains("(minimal: no smaller input fails")
            || text.contains("(minimal up to size ")
                && text.contains("and every one-case input of size <= 5"),
        "{text}"
    );
    assert!(!text.contains("\nminimal input") || text.contains("no smaller input fails"));
    workshop::assert_nothing_left(w.path());
}

#[test]
fn an_ed_value_cap_needs_two_pairs() {
    let Some(w) = Workshop::new() else { return };
    let cap = 30;
    let exe = w.compile("ed_cap", &p2148_capped(cap), &[]);
    let model = |p: &[u64]| ed_cap_fails(p, u64::from(cap));
    // 10^4 pairs of piles up to 2 * 10^9: one worth 31, one worth 30, the last one
    // making the true XOR 0 (the program, which reads 31 as 30, answers YES).
    let big = ed_cap_case(10_000);
    assert_eq!(ed_pair(big[0], big[1]), 31);
    assert_eq!(ed_pair(big[2], big[3]), 30);
    assert!(model(&big));
    let r = audit(&w, &["p2148"], &exe, &big);
    assert_eq!(r["verdict"], "wrong-answer", "{r}");
    let got = piles_of(&r);
    assert!(model(&got), "{got:?}");
    // Two pairs (one pair is never wrong: a cap keeps a value nonzero), worth 30 and
    // 31 (the only two values whose caps agree while they differ, 31 being the
    // largest value piles up to 2 * 10^9 have), each of the fewest stones.
    assert_eq!(got.len(), 4, "{got:?}");
    let mut values: Vec<u64> = got.chunks(2).map(|c| ed_pair(c[0], c[1])).collect();
    values.sort_unstable();
    assert_eq!(values, [30, 31], "{got:?}");
    for c in got.chunks(2) {
        let v = ed_pair(c[0], c[1]);
        // Fewest stones of that value: the 2^v - 1 low bits split, 2 more.
        assert_eq!(c[0] + c[1], (1u64 << v) + 1, "{got:?}");
    }
    let m = minimality(&r);
    assert_eq!(m["kind"], "minimal", "{m}");
    assert!(m["checked_up_to"].as_u64().is_some(), "{m}");
    let runs = r["shrink_runs"].as_u64().unwrap();
    println!("E&D value cap: {got:?} after {runs} shrink runs; {m}");
}

/// The search aims at boundaries: a program wrong only on exactly 65,537 piles (an
/// array of 65,536 one too small, say) is found by a default-length audit (no
/// `--time`), on the limits batches that try lengths just past powers of two.
#[test]
fn the_search_finds_a_bug_only_at_65537_piles() {
    let Some(w) = Workshop::new() else { return };
    let exe = w.compile(
        "exactly",
        &hdu3032(
            LASKER_SG,
            &format!("{ALL_PILES}\n        if (n == 65537) x = !x;"),
        ),
        &[],
    );
    let out = Command::new(SGCHECK)
        .args(["audit", "hdu3032", "--seed", "1", "--json", "--"])
        .arg(&exe)
        .stdin(Stdio::null())
        .output()
        .expect("runs sgcheck");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let r: Value = serde_json::from_str(&stdout).unwrap_or_else(|e| panic!("{e}: {stdout}"));
    workshop::assert_nothing_left(w.path());
    assert_eq!(r["verdict"], "wrong-answer", "{r}");
    let got = piles_of(&r);
    assert_eq!(got.len(), 65_537, "{} piles", got.len());
    println!(
        "65,537 piles: found after {} cases, shrunk in {} runs to piles of at most {}",
        r["cases"],
        r["shrink_runs"],
        got.iter().max().unwrap()
    );
}
