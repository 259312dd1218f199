//! `verify --problem` on games declared as data (a `[game]` table): tier 1 (a closed
//! form or a proven period against a plain mex table) and tier 2 (whole positions, the
//! fast side against the oracle) run beside tier 3, a planted closed form that is right
//! on its checked box and wrong past it is a tier-1 disagreement (exit 1), and rules
//! that come with each case make tiers 1 and 2 "not applicable" without failing the run,
//! as misère play makes tier 2 (its fast side is the oracle's own search). Heap codes
//! of every kind (a code, a listed set, a range) reach all three tiers, and a problem
//! that prints only the verdict checks the game's verdict.

mod workshop;

use serde_json::Value;
use std::path::{Path, PathBuf};
use workshop::{sgcheck, text};

fn repo(path: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(path)
}

/// `verify --problem FILE --json` with `extra` options: the exit code and the report.
fn verify(decl: &Path, extra: &[&str]) -> (i32, Value) {
    let mut args = vec!["verify", "--problem", decl.to_str().unwrap(), "--json"];
    args.extend_from_slice(extra);
    let out = sgcheck(&args, "");
    let code = out.status.code().unwrap_or(-1);
    let v: Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "{}: no JSON report ({e}): {}{}",
            decl.display(),
            text(&out.stdout),
            text(&out.stderr)
        )
    });
    (code, v)
}

fn tier(v: &Value, n: u64) -> &Value {
    v["games"][0]["tiers"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["tier"] == n)
        .unwrap_or_else(|| panic!("no tier {n}: {v}"))
}

/// A tier that compared something and found nothing wrong.
fn assert_agrees(v: &Value, n: u64, name: &str) {
    let t = tier(v, n);
    assert!(t["not_applicable"].is_null(), "{name} tier {n}: {t}");
    assert!(
        t["agreements"].as_u64().unwrap() > 0,
        "{name} tier {n}: {t}"
    );
    assert_eq!(t["disagreements"], 0, "{name} tier {n}: {t}");
}

#[test]
fn tiers_1_and_2_run_on_dawson_by_its_code() {
    let (code, v) = verify(
        &repo("examples/problems/dawson.toml"),
        &["--time", "6", "--seed", "3"],
    );
    assert_eq!(code, 0, "{v}");
    assert_eq!(v["games"][0]["game"], "heap-code");
    assert_agrees(&v, 1, "dawson");
    assert_agrees(&v, 2, "dawson");
    assert_agrees(&v, 3, "dawson");
    // Tier 1 goes past the fast side's table, where the period answers.
    let t1 = tier(&v, 1);
    assert!(t1["checked"].as_u64().unwrap() >= 1000, "{t1}");
    assert!(t1["note"].as_str().unwrap().contains("period 34"), "{t1}");
    // Tier 2 enumerated the smallest positions completely.
    let t2 = tier(&v, 2);
    assert!(t2["exhaustive_size"].as_u64().unwrap() >= 4, "{t2}");
}

#[test]
fn tiers_1_and_2_run_on_each_scripted_declaration() {
    for (name, closed_form) in [
        ("mock_turtles.toml", true),
        ("chomp2.toml", false),
        ("no_repeat.toml", false),
        ("strips.toml", false),
        ("kayles.toml", false),
    ] {
        let decl = repo("tests/data/scripts").join(name);
        let (code, v) = verify(&decl, &["--time", "4", "--seed", "5"]);
        assert_eq!(code, 0, "{name}: {v}");
        assert_eq!(v["games"][0]["game"], "scripted", "{v}");
        if closed_form {
            assert_agrees(&v, 1, name);
            // The box is heads 0..=40; tier 1 goes past it.
            let t1 = tier(&v, 1);
            assert!(t1["checked"].as_u64().unwrap() > 41, "{name}: {t1}");
        } else {
            let t1 = tier(&v, 1);
            let why = t1["not_applicable"].as_str().unwrap_or_default();
            assert!(why.contains("no closed form"), "{name}: {t1}");
        }
        assert_agrees(&v, 2, name);
        assert_agrees(&v, 3, name);
    }
}

#[test]
fn a_closed_form_wrong_past_its_box_is_a_tier_1_disagreement() {
    let decl = repo("tests/data/verify/wrong_turtles.toml");
    // The declaration reads: the closed form is right on the box.
    let out = sgcheck(
        &["solve", "--problem", decl.to_str().unwrap()],
        "1\n2 3 5\n",
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let (code, v) = verify(&decl, &["--time", "4", "--seed", "5"]);
    assert_eq!(code, 1, "{v}");
    let t1 = tier(&v, 1);
    assert!(t1["disagreements"].as_u64().unwrap() >= 1, "{t1}");
    let d = &t1["first_disagreement"];
    assert_eq!(d["position"], "value(41)", "{d}");
    assert!(
        d["reproduce"].as_str().unwrap().contains("--problem"),
        "{d}"
    );
    // The same run in text: the disagreement, not `all agree`.
    let out = sgcheck(
        &[
            "verify",
            "--problem",
            decl.to_str().unwrap(),
            "--time",
            "4",
            "--seed",
            "5",
        ],
        "",
    );
    assert_eq!(out.status.code(), Some(1));
    let table = text(&out.stdout);
    assert!(table.contains("DISAGREEMENT in scripted tier 1"), "{table}");
    assert!(!table.contains("all agree"), "{table}");
}

#[test]
fn rules_from_each_case_leave_tiers_1_and_2_not_applicable() {
    let decl = repo("tests/data/verify/subtract_per_case.toml");
    // Tier 3 builds the rules of every case: a few small cases are enough here.
    let bounded = [
        "--time",
        "20",
        "--seed",
        "2",
        "--max-size",
        "3",
        "--random-batches",
        "0",
    ];
    let (code, v) = verify(&decl, &bounded);
    assert_eq!(code, 0, "{v}");
    for n in [1, 2] {
        let t = tier(&v, n);
        let why = t["not_applicable"].as_str().unwrap_or_default();
        assert!(why.contains("each case"), "tier {n}: {t}");
        assert_eq!(t["checked"], 0, "tier {n}: {t}");
    }
    assert_agrees(&v, 3, "subtract_per_case");
    let mut args = vec!["verify", "--problem", decl.to_str().unwrap()];
    args.extend(bounded);
    let out = sgcheck(&args, "");
    assert_eq!(out.status.code(), Some(0));
    let table = text(&out.stdout);
    assert!(
        table.contains("not applicable: the rules come from each case"),
        "{table}"
    );
    assert!(table.contains("all agree"), "{table}");
}

#[test]
fn a_misere_game_compares_no_position_with_itself() {
    // The fast side of misère play is the oracle's own search: tier 2 would compare
    // the search with itself, so it counts nothing and says why; tier 3 (the format
    // engine against the oracle's answers) still runs.
    let decl = repo("tests/data/verify/misere_code.toml");
    let bounded = ["--time", "20", "--seed", "2", "--max-size", "4"];
    let (code, v) = verify(&decl, &[&bounded[..], &["--random-batches", "0"]].concat());
    assert_eq!(code, 0, "{v}");
    for n in [1, 2] {
        let t = tier(&v, n);
        let why = t["not_applicable"].as_str().unwrap_or_default();
        assert!(why.contains("misère"), "tier {n}: {t}");
        assert_eq!(t["checked"], 0, "tier {n}: {t}");
        assert_eq!(t["agreements"], 0, "tier {n}: {t}");
    }
    assert!(tier(&v, 2)["not_applicable"]
        .as_str()
        .unwrap()
        .contains("with itself"));
    assert_agrees(&v, 3, "misere_code");
    let mut args = vec!["verify", "--problem", decl.to_str().unwrap()];
    args.extend(bounded);
    let out = sgcheck(&args, "");
    let table = text(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{table}");
    let row = table
        .lines()
        .find(|l| l.split_whitespace().nth(1) == Some("2"))
        .unwrap_or_else(|| panic!("no tier-2 row: {table}"));
    assert!(row.contains("not applicable"), "{table}");
}

#[test]
fn shards_split_tier_2_of_a_declared_game() {
    // The same bounded work in one run and in two shards: tier 2 counts add up.
    let decl = repo("tests/data/scripts/kayles.toml");
    let bounded = [
        "--time",
        "60",
        "--seed",
        "9",
        "--max-size",
        "6",
        "--random-batches",
        "1",
    ];
    let (code, whole) = verify(&decl, &bounded);
    assert_eq!(code, 0, "{whole}");
    let mut sum = 0;
    for k in 0..2 {
        let shard = format!("{k}/2");
        let mut args = bounded.to_vec();
        args.extend(["--shard", &shard]);
        let (code, part) = verify(&decl, &args);
        assert_eq!(code, 0, "{part}");
        sum += tier(&part, 2)["checked"].as_u64().unwrap();
    }
    let t2 = tier(&whole, 2);
    assert_eq!(sum, t2["checked"].as_u64().unwrap(), "{t2}");
    assert_eq!(t2["exhaustive_size"], 6, "{t2}");
}

#[test]
fn moves_that_leave_three_heaps_are_checked_against_the_oracle() {
    // 8.[3]: take any number from a heap, or split a heap into three (the paths of the
    // heap-code game that no other declaration reaches); no periodicity theorem, so
    // tier 1 is not applicable and tier 2 compares whole positions.
    let decl = repo("tests/data/verify/three_heaps.toml");
    let (code, v) = verify(&decl, &["--time", "4", "--seed", "5"]);
    assert_eq!(code, 0, "{v}");
    let t1 = tier(&v, 1);
    assert!(
        t1["not_applicable"]
            .as_str()
            .is_some_and(|w| w.contains("no periodicity theorem")),
        "{t1}"
    );
    assert_agrees(&v, 2, "three_heaps");
    assert_agrees(&v, 3, "three_heaps");
    // `check` on heaps a split in three reaches: both sides give the same analysis.
    let out = sgcheck(&["check", "heap-code", "4,5", "--rules", "8.[3]"], "");
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let shown = text(&out.stdout);
    assert!(shown.starts_with("fast:   "), "{shown}");
    let lines: Vec<&str> = shown.lines().collect();
    assert_eq!(
        lines[0].replace("fast:  ", ""),
        lines[1].replace("oracle:", ""),
        "{shown}"
    );
}

#[test]
fn each_kind_of_heap_rules_reaches_all_three_tiers() {
    // A code whose splits take nothing (4.6), a listed subtraction set and a fixed
    // range: paths of the heap-code game that Dawson's chess does not reach. Each has a
    // proven period, so tier 1 also compares the winning moves of heaps past the fast
    // side's table beside a heap of 2^22 or more (where splits are valued through the
    // period one remainder at a time) with the oracle's moves.
    for (name, period) in [
        ("split_heaps.toml", "period 12 from 72"),
        ("subtract_code.toml", "period 7 from 0"),
        ("range_code.toml", "period 7 from 0"),
    ] {
        let decl = repo("tests/data/verify").join(name);
        let (code, v) = verify(&decl, &["--time", "4", "--seed", "5"]);
        assert_eq!(code, 0, "{name}: {v}");
        assert_eq!(v["games"][0]["game"], "heap-code", "{v}");
        for n in [1, 2, 3] {
            assert_agrees(&v, n, name);
        }
        let note = tier(&v, 1)["note"].as_str().unwrap().to_string();
        assert!(note.contains(period), "{name}: {note}");
        assert!(
            note.contains("32 heaps past the table beside a heap past 2^22"),
            "{name}: {note}"
        );
    }
}

#[test]
fn a_verdict_only_problem_checks_the_games_verdict() {
    // Mock Turtles by name, printing only who wins: tier 3 answers each case with the
    // game's verdict alone (not its analysis) and compares it with the oracle's.
    let decl = repo("tests/data/verify/mock_turtles_verdict.toml");
    let (code, v) = verify(&decl, &["--time", "4", "--seed", "5"]);
    assert_eq!(code, 0, "{v}");
    assert_eq!(v["games"][0]["game"], "mock-turtles", "{v}");
    assert_agrees(&v, 3, "mock_turtles_verdict");
    // Both verdicts occur among the cases compared: the smallest losing position with
    // heads is 0, 1, 2, 3 (values 1, 2, 4, 7).
    let out = sgcheck(
        &["solve", "--problem", decl.to_str().unwrap()],
        "2\n4\n0 1 2 3\n3\n0 1 2\n",
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout), "Second\nFirst\n");
}
