//! Scripted games answered at their limits by a closed form: Euclid's game by its
//! Grundy value (`value`) and Fibonacci Nim by its outcome (`wins`, no formula of its
//! Grundy values being known) answer cases at 2^31 as rules written here say; a `wins`
//! wrong on the checked box is refused when the declaration is read, one wrong past it
//! is a tier-1 disagreement of `verify`, and one that contradicts its own moves is an
//! error, never an answer.

mod workshop;

use std::path::{Path, PathBuf};
use workshop::{sgcheck, text, Draw};

fn slow(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/slow")
        .join(name)
}

/// Euclid's game from the rules: whoever may subtract two or more multiples, or make
/// a zero, wins; with a single multiple the move is forced.
fn euclid_first_wins(a: u64, b: u64) -> bool {
    let (mut a, mut b) = (a.max(b), a.min(b));
    let mut first = true;
    loop {
        if a / b >= 2 || a % b == 0 {
            return first;
        }
        (a, b) = (b, a - b);
        first = !first;
    }
}

fn fibonacci(n: u64) -> bool {
    let (mut a, mut b) = (1u64, 2u64);
    while a < n {
        (a, b) = (b, a + b);
    }
    a == n
}

fn solve(decl: &Path, input: &str) -> Vec<String> {
    let out = sgcheck(&["solve", "--problem", decl.to_str().unwrap()], input);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    text(&out.stdout).lines().map(str::to_string).collect()
}

#[test]
fn euclid_by_its_value_answers_a_thousand_cases_at_2_pow_31() {
    let mut d = Draw(0x9E37_79B9_7F4A_7C15);
    let cases: Vec<(u64, u64)> = (0..1000)
        .map(|i| match i {
            0 => ((1 << 31) - 1, 1),
            1 => ((1 << 31) - 1, (1 << 31) - 2),
            _ => (d.within(1 << 30, (1 << 31) - 1), d.within(1, (1 << 31) - 1)),
        })
        .collect();
    let input = std::iter::once("1000".to_string())
        .chain(cases.iter().map(|(a, b)| format!("{a} {b}")))
        .collect::<Vec<_>>()
        .join("\n");
    let got = solve(&slow("euclid_value.toml"), &input);
    assert_eq!(got.len(), 1000);
    for ((a, b), line) in cases.iter().zip(&got) {
        let want = if euclid_first_wins(*a, *b) {
            "Stan wins"
        } else {
            "Ollie wins"
        };
        assert_eq!(line, want, "case {a} {b}");
    }
}

#[test]
fn fibonacci_nim_by_its_outcome_answers_a_thousand_cases_at_2_pow_31() {
    let mut d = Draw(12345);
    let mut fibs = vec![1u64, 2];
    while fibs[fibs.len() - 1] < 1 << 31 {
        let n = fibs.len();
        fibs.push(fibs[n - 1] + fibs[n - 2]);
    }
    let big: Vec<u64> = fibs
        .iter()
        .copied()
        .filter(|&f| (1 << 20..1 << 31).contains(&f))
        .collect();
    let cases: Vec<u64> = (0..1000u64)
        .map(|i| match i % 3 {
            0 => big[(d.next() % big.len() as u64) as usize],
            1 => big[(d.next() % big.len() as u64) as usize] + d.within(1, 3) - 2,
            _ => d.within(1 << 30, (1 << 31) - 1),
        })
        .collect();
    let input = std::iter::once("1000".to_string())
        .chain(cases.iter().map(u64::to_string))
        .collect::<Vec<_>>()
        .join("\n");
    let got = solve(&slow("fibonacci_nim_wins.toml"), &input);
    assert_eq!(got.len(), 1000);
    for (n, line) in cases.iter().zip(&got) {
        let want = if fibonacci(*n) { "Second" } else { "First" };
        assert_eq!(line, want, "case {n}");
    }
}

/// The Fibonacci Nim declaration with its `wins` replaced by `wrong` (a Rhai
/// expression in `n` and `cap`, true when the player to move wins), and a `{best}`
/// output when `best`.
fn planted(dir: &Path, name: &str, wrong: &str, best: bool) -> PathBuf {
    let text = std::fs::read_to_string(slow("fibonacci_nim_wins.toml")).unwrap();
    let start = text.find("fn wins(s) {").unwrap();
    let end = start + text[start..].find("\n}\n").unwrap() + 3;
    let mut text = format!(
        "{}fn wins(s) {{\n    let n = s[0]; let cap = if s[1] == 0 {{ n - 1 }} else {{ 2 * s[1] }};\n    \
         if s[1] == 0 && n == 1 {{ cap = 1; }}\n    {wrong}\n}}\n{}",
        &text[..start],
        &text[end..]
    );
    if best {
        text = text.replace(
            "lines = [\"{verdict}\"]",
            "lines = [\"{verdict} {best}\"]\nnone = \"-\"",
        );
    }
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

/// The right rule as a Rhai expression: the smallest Zeckendorf term of n is at most cap.
const RIGHT: &str = "if n == 0 { return false; } let f = [1, 2]; \
    while f[f.len() - 1] <= n { f.push(f[f.len() - 1] + f[f.len() - 2]); } \
    let small = n; let i = f.len() - 1; \
    while n > 0 { if f[i] <= n { n -= f[i]; small = f[i]; } i -= 1; } small <= cap";

#[test]
fn a_wrong_outcome_is_refused_on_the_box_and_found_past_it() {
    let dir = tempfile::tempdir().unwrap();
    // The right rule, planted the same way: solved as the file is (the planting
    // itself is not what the failures below catch).
    let right = planted(dir.path(), "right.toml", RIGHT, false);
    assert_eq!(
        solve(&right, "3\n5\n7\n100\n"),
        ["Second", "First", "First"]
    );

    // Wrong on the box (it says 13 stones win for the player to move).
    let on_box = planted(
        dir.path(),
        "on_box.toml",
        &format!("if n == 13 {{ return true; }} {RIGHT}"),
        false,
    );
    let out = sgcheck(&["solve", "--problem", on_box.to_str().unwrap()], "1\n13\n");
    assert_eq!(out.status.code(), Some(2));
    let err = text(&out.stderr);
    assert!(
        err.contains("wins(13, 0) = true, but the mex of its moves is 0"),
        "{err}"
    );
    // To verify it is a disagreement of the closed form with the table (exit 1).
    let out = sgcheck(
        &[
            "verify",
            "--problem",
            on_box.to_str().unwrap(),
            "--time",
            "2",
        ],
        "",
    );
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}{}", text(&out.stderr));
    assert!(
        stdout.contains("DISAGREEMENT") && stdout.contains("wins(13, 0) = true"),
        "{stdout}"
    );

    // Wrong past the box (60 stones at most there): 89 is a Fibonacci number, lost
    // for the player to move, claimed won. Tier 1 finds it, past the box.
    let past = planted(
        dir.path(),
        "past.toml",
        &format!("if n == 89 && s[1] == 0 {{ return true; }} {RIGHT}"),
        false,
    );
    let out = sgcheck(
        &[
            "verify",
            "--problem",
            past.to_str().unwrap(),
            "--time",
            "20",
            "--seed",
            "1",
        ],
        "",
    );
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}{}", text(&out.stderr));
    assert!(
        stdout.contains("DISAGREEMENT in scripted tier 1"),
        "{stdout}"
    );
    assert!(stdout.contains("wins(89, 0)"), "{stdout}");
}

#[test]
fn an_outcome_that_contradicts_its_moves_is_an_error_never_an_answer() {
    let dir = tempfile::tempdir().unwrap();
    // Right on the box, wrong from 1000 stones: every pile there is claimed lost, but
    // a pile of 1000 has a move to a lost one (taking its smallest Zeckendorf term).
    // Listing the winning moves sees the contradiction.
    let wrong = planted(
        dir.path(),
        "contradiction.toml",
        &format!("if n >= 1000 {{ return false; }} {RIGHT}"),
        true,
    );
    let right = planted(dir.path(), "right.toml", RIGHT, true);
    // 1000 = 987 + 13: the only winning first move takes 13.
    assert_eq!(solve(&right, "1\n1000\n"), ["First 0:12"]);
    let out = sgcheck(
        &["solve", "--problem", wrong.to_str().unwrap()],
        "1\n1000\n",
    );
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stdout));
    let err = text(&out.stderr);
    assert!(
        err.contains("wins(1000, 0) = false, but one of its moves leaves a lost position"),
        "{err}"
    );
    assert!(text(&out.stdout).is_empty(), "{}", text(&out.stdout));
}
