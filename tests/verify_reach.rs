//! Parts of the fast solvers that only a declaration reaches, each compared by `verify
//! --problem` on a declaration under `tests/data/verify/`: the winning moves of the
//! built-in games whose built-in problems print verdicts only (`moves_*.toml`), a heap
//! code's Fibonacci subtraction set, misère play of ranges and scripts (whose fast side
//! is the oracle's own search), and hdu3980, whose game (`paint-chain`) has no sweep of
//! its own, so that a run of `verify` over all games does not check it. The book's
//! "Coverage of the fast solvers" (docs/src/verify.md) says how they were found.

mod workshop;

use serde_json::Value;
use std::path::{Path, PathBuf};
use workshop::{sgcheck, text};

fn repo(path: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(path)
}

/// `verify --problem FILE --json --time 2 --seed 5`: the exit code and the report.
fn verify(decl: &Path) -> (i32, Value) {
    let args = [
        "verify",
        "--problem",
        decl.to_str().unwrap(),
        "--json",
        "--time",
        "2",
        "--seed",
        "5",
    ];
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

/// Runs verify on `file` and checks that it passed and that each tier of `compared`
/// compared something and agreed, and each of `not_applicable` says why it has nothing.
fn assert_compared(file: &str, game: &str, compared: &[u64], not_applicable: &[u64]) {
    let (code, v) = verify(&repo(file));
    assert_eq!(code, 0, "{file}: {v}");
    assert_eq!(v["games"][0]["game"], game, "{file}: {v}");
    for &n in compared {
        let t = tier(&v, n);
        assert!(t["not_applicable"].is_null(), "{file} tier {n}: {t}");
        assert!(
            t["agreements"].as_u64().unwrap() > 0,
            "{file} tier {n}: {t}"
        );
        assert_eq!(t["disagreements"], 0, "{file} tier {n}: {t}");
    }
    for &n in not_applicable {
        let t = tier(&v, n);
        assert!(t["not_applicable"].is_string(), "{file} tier {n}: {t}");
    }
}

#[test]
fn the_winning_moves_of_every_built_in_game_are_compared_in_a_problem() {
    // Games of the registry: tiers 1 and 2 are the game's own sweep, tier 3 the
    // declaration's answers, winning moves and their fields included.
    for (file, game) in [
        ("moves_ed.toml", "ed"),
        ("moves_lasker.toml", "lasker"),
        ("moves_hackenbush_tree.toml", "hackenbush-tree"),
        ("moves_misere_nim.toml", "misere-nim"),
        ("moves_simple_nim.toml", "simple-nim"),
        ("moves_staircase.toml", "staircase"),
        ("moves_subtraction.toml", "subtraction"),
        ("moves_take_range.toml", "take-range"),
        ("moves_wythoff.toml", "wythoff"),
        ("moves_mock_turtles.toml", "mock-turtles"),
    ] {
        let file = format!("tests/data/verify/{file}");
        let decl = std::fs::read_to_string(repo(&file)).unwrap();
        assert!(decl.contains("{moves}"), "{file} prints no moves");
        assert_compared(&file, game, &[1, 2, 3], &[]);
    }
}

#[test]
fn a_subtraction_set_above_64_is_answered_from_its_plain_table() {
    // Amounts above 64 take the plain table (no period search): the set {70} with
    // piles 70 and 65 is won by taking the 70, the set {61, 89} loses a pile of 200;
    // the oracle's engine answers the same.
    let decl = repo("tests/data/verify/moves_subtraction.toml");
    let input = "2\n1 70\n2 70 65\n2 61 89\n1 200\n";
    for engine in ["fast", "oracle"] {
        let out = sgcheck(
            &[
                "solve",
                "--problem",
                decl.to_str().unwrap(),
                "--engine",
                engine,
            ],
            input,
        );
        assert!(out.status.success(), "{engine}: {}", text(&out.stderr));
        assert_eq!(
            text(&out.stdout),
            "First 1\n0:70\nSecond 0\n-\n",
            "{engine}"
        );
    }
}

#[test]
fn declarable_only_games_are_compared_where_no_other_declaration_goes() {
    // The Fibonacci set of a heap code: tier 2 compares whole positions, tier 1 has no
    // period to check (no periodicity theorem for an infinite set).
    assert_compared(
        "tests/data/verify/fibonacci_code.toml",
        "heap-code",
        &[2, 3],
        &[1],
    );
    // Misère play: the fast side is the oracle's own search, tier 3 compares the
    // formatted answers.
    assert_compared(
        "tests/data/verify/misere_ranges.toml",
        "heap-ranges",
        &[3],
        &[1, 2],
    );
    assert_compared(
        "tests/data/verify/misere_script.toml",
        "scripted",
        &[3],
        &[1, 2],
    );
    // hdu3980: the paint chain's fast side (an octal row after the first move) against
    // the oracle's circle, in tier 3.
    let (code, v) = verify(&repo("corpus/problems/hdu3980.toml"));
    assert_eq!(code, 0, "{v}");
    let games = v["games"].as_array().unwrap();
    let paint = games
        .iter()
        .find(|g| g["game"] == "paint-chain")
        .unwrap_or_else(|| panic!("no paint-chain row: {v}"));
    let t3 = paint["tiers"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["tier"] == 3)
        .unwrap_or_else(|| panic!("no tier 3: {v}"));
    assert!(t3["agreements"].as_u64().unwrap() > 0, "{t3}");
    assert_eq!(t3["disagreements"], 0, "{t3}");
}
