//! Answers that are sets: a declaration printing `{any}` accepts any winning move. A
//! right program that prints another winning move than sgcheck's is ok; one that
//! prints a legal losing move, or an illegal one, is caught at a minimal input.

mod workshop;

use serde_json::Value;
use std::path::{Path, PathBuf};
use workshop::{sgcheck, text};

fn declaration() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/problems/nim_any_move.toml")
}

/// Nim, printing the winning move on the last pile that has one (sgcheck prints the
/// first); `{BUG}` is replaced by a variant's extra code, run before the answer.
const LAST_PILE: &str = r#"
#include <cstdio>
#include <vector>
int main() {
    int t;
    if (scanf("%d", &t) != 1) return 0;
    while (t--) {
        int n;
        scanf("%d", &n);
        std::vector<long long> a(n);
        long long x = 0;
        for (auto &v : a) { scanf("%lld", &v); x ^= v; }
        if (x == 0) { puts("Second"); continue; }
        int j = -1;
        for (int k = 0; k < n; k++) if ((a[k] ^ x) < a[k]) j = k;
        long long left = a[j] ^ x;
        {BUG}
        printf("First %d %lld\n", j + 1, left);
    }
}
"#;

fn program(w: &workshop::Workshop, name: &str, bug: &str) -> PathBuf {
    w.compile(name, &LAST_PILE.replace("{BUG}", bug), &[])
}

fn audit(w: &workshop::Workshop, exe: &Path) -> Value {
    w.audit_of(
        &["--problem", declaration().to_str().unwrap()],
        5,
        &["--cases", "3000", "--time", "300"],
        &[exe.to_str().unwrap()],
    )
}

#[test]
fn solve_prints_the_first_winning_move() {
    // Three winning moves (5 6 7: XOR 4): sgcheck prints the first.
    let out = sgcheck(
        &["solve", "--problem", declaration().to_str().unwrap()],
        "2\n3 5 6 7\n2 4 4\n",
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout), "First 1 1\nSecond\n");
}

#[test]
fn another_winning_move_is_right_and_a_losing_or_illegal_one_is_not() {
    let Some(w) = workshop::Workshop::new() else {
        return;
    };
    let right = program(&w, "last", "");
    // It answers 5 6 7 with another move than sgcheck's, and is right.
    assert_eq!(workshop::run(&right, "1\n3 5 6 7\n"), "First 3 3\n");
    let r = audit(&w, &right);
    assert_eq!(r["verdict"], "ok", "{r}");
    assert!(r["oracle_checks"].as_u64().unwrap() > 100, "{r}");

    // With three piles, one stone off the first nonempty pile: legal, mostly losing.
    let losing = program(
        &w,
        "losing",
        "if (n == 3) { j = 0; while (a[j] == 0) j++; left = a[j] - 1; }",
    );
    let r = audit(&w, &losing);
    assert_eq!(r["verdict"], "wrong-answer", "{r}");
    let c = workshop::counterexample(&r);
    assert_eq!(c["minimal"], true, "{r}");
    // The smallest such input: one case of three piles where the move loses.
    let input = c["input"].as_str().unwrap();
    let nums: Vec<u64> = input
        .split_whitespace()
        .map(|t| t.parse().unwrap())
        .collect();
    assert_eq!(nums[..2], [1, 3], "{input}");
    assert_eq!(nums[2..].iter().sum::<u64>(), 2, "{input}");

    // With two piles, the new size is one more than the pile: not a move at all.
    let illegal = program(&w, "illegal", "if (n == 2) left = a[j] + 1;");
    let r = audit(&w, &illegal);
    assert_eq!(r["verdict"], "wrong-answer", "{r}");
    let c = workshop::counterexample(&r);
    assert_eq!(c["minimal"], true, "{r}");
    let input = c["input"].as_str().unwrap();
    assert!(["1\n2 1 0\n", "1\n2 0 1\n"].contains(&input), "{input}");
}

#[test]
fn export_writes_an_output_validator_that_accepts_any_winning_move() {
    let dir = tempfile::tempdir().unwrap();
    let pkg = dir.path().join("pkg");
    let out = sgcheck(
        &[
            "export",
            "--problem",
            declaration().to_str().unwrap(),
            "--to",
            pkg.to_str().unwrap(),
        ],
        "",
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let yaml = std::fs::read_to_string(pkg.join("problem.yaml")).unwrap();
    assert!(yaml.contains("ans_is_output: false"), "{yaml}");
    // A test whose answer file holds a set: `@any K`, then its K moves.
    let mut tests: Vec<PathBuf> = walk(&pkg.join("data/secret"));
    tests.sort();
    let (input, ans) = tests
        .iter()
        .filter(|p| p.extension().is_some_and(|e| e == "ans"))
        .map(|p| (p.with_extension("in"), std::fs::read_to_string(p).unwrap()))
        .find(|(_, a)| a.contains("@any "))
        .expect("some answer file holds a set");
    let lines: Vec<&str> = ans.lines().collect();
    let at = lines.iter().position(|l| l.starts_with("@any ")).unwrap();
    let k: usize = lines[at][5..].parse().unwrap();
    let (first, last) = (lines[at + 1], lines[at + k]);
    // The solver's output prints the first move of each set.
    let solved = sgcheck(
        &["solve", "--problem", declaration().to_str().unwrap()],
        &std::fs::read_to_string(&input).unwrap(),
    );
    assert_eq!(solved.status.code(), Some(0));
    let solved = text(&solved.stdout);
    let judge = |output: &str| -> (i32, String) {
        let feedback = tempfile::tempdir().unwrap();
        let mut child = std::process::Command::new("python3")
            .arg(pkg.join("output_validator/validate.py"))
            .arg(&input)
            .arg(input.with_extension("ans"))
            .arg(feedback.path())
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .unwrap();
        use std::io::Write as _;
        child
            .stdin
            .take()
            .unwrap()
            .write_all(output.as_bytes())
            .unwrap();
        let code = child.wait().unwrap().code().unwrap();
        let msg =
            std::fs::read_to_string(feedback.path().join("judgemessage.txt")).unwrap_or_default();
        (code, msg)
    };
    assert_eq!(judge(&solved).0, 42, "the solver's own output");
    // The case of that set: each case prints one line; in the answer file a set takes
    // its `First` line, the `@any K` line and K moves.
    let (mut case, mut i) = (0, 0);
    while i < at - 1 {
        i += match lines[i + 1..].first() {
            Some(l) if l.starts_with("@any ") => 2 + l[5..].parse::<usize>().unwrap(),
            _ => 1,
        };
        case += 1;
    }
    let with = |mv: &str| -> String {
        let mut out: Vec<String> = solved.lines().map(str::to_string).collect();
        assert_eq!(out[case], format!("First {first}"), "case {case}");
        out[case] = format!("First {mv}");
        out.join("\n") + "\n"
    };
    // The set's last move instead of its first: another winning move, accepted.
    assert_eq!(judge(&with(last)).0, 42, "{last} instead of {first}");
    // A move that is not in the set (the first one's new size made larger): rejected,
    // naming the set.
    let (code, msg) = judge(&with(&format!("{first}9")));
    assert_eq!(code, 43, "{first}9 accepted");
    assert!(
        msg.contains("expected {any of: ") && msg.contains(&format!("{first}9")),
        "{msg}"
    );
}

/// Every file under `dir`.
fn walk(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            out.extend(walk(&p));
        } else {
            out.push(p);
        }
    }
    out
}

#[test]
fn any_must_stand_apart_from_the_text_around_it() {
    let dir = tempfile::tempdir().unwrap();
    let text_of = std::fs::read_to_string(declaration()).unwrap();
    let bad = dir.path().join("bad.toml");
    std::fs::write(&bad, text_of.replace("\"First {any}\"", "\"First:{any}\"")).unwrap();
    let out = sgcheck(&["solve", "--problem", bad.to_str().unwrap()], "1\n1 1\n");
    assert_eq!(out.status.code(), Some(2));
    let err = text(&out.stderr);
    assert!(
        err.contains("{any}") && err.contains("stand apart"),
        "{err}"
    );
}
