//! HDU 1524, "A Chess Game", declared as it is (`examples/problems/chess_game.toml`):
//! vertices numbered from 0 (`base = 0`) and each case's queries ended by a line `0`
//! (`group.until`).
//!
//! - `solve` answers the declaration's sample as worked out by hand; an input with a
//!   token on vertex n, or without its terminator, exits 2 naming the line.
//! - The package's validator (`validate.py`) accepts the sample, refuses the same
//!   malformed inputs, and agrees with the strict parser on inputs mutated from small
//!   and random cases.
//! - The audit judges a correct C++ solution (`tests/data/programs/chess_game.cpp`)
//!   ok; the same program reading the vertex lines as numbered from 1, and the same
//!   program reading one query per case, are caught at small inputs.
//!
//! Every audit has a fixed seed and a bound on its cases or its time; after each no
//! process of the test's directory is left running. Without g++ or python3 the tests
//! that need them say so and pass (and fail under CI).

use rand::{Rng, SeedableRng};
use sgcheck::package::{export, validator, Source};
use sgcheck::problems::{self, Problem};
use std::path::{Path, PathBuf};
use std::time::Duration;

mod workshop;
use workshop::*;

const PROGRAM: &str = include_str!("data/programs/chess_game.cpp");
/// The declaration's sample, and its answers worked out by hand: case 1 has the
/// values 0, 1, 1, 0 on vertices 0..3, case 2 the values 1, 0.
const SAMPLE: &str = "4\n2 1 2\n1 3\n1 3\n0\n1 0\n1 1\n2 1 2\n2 0 1\n3 1 2 3\n0\n\
                      2\n1 1\n0\n1 0\n2 0 0\n0\n";
const ANSWERS: &str = "LOSE\nWIN\nLOSE\nWIN\nLOSE\nWIN\nLOSE\n";

fn declaration() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/problems/chess_game.toml")
}

fn solve(input: &str) -> std::process::Output {
    let decl = declaration();
    sgcheck(&["solve", "--problem", decl.to_str().unwrap()], input)
}

#[test]
fn solve_answers_the_sample_and_names_malformed_lines() {
    let out = solve(SAMPLE);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout), ANSWERS);
    // A token on vertex n = 2 (the vertices are 0..=1).
    let out = solve("2\n1 1\n0\n1 2\n0\n");
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("line 4: token 1 of query 1 of case 1: expected 0..=1, found 2"),
        "{}",
        text(&out.stderr)
    );
    // The queries' terminator missing.
    let out = solve("2\n1 1\n0\n1 0\n");
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains(
            "line 4: token count M of query 2 of case 1 (or the terminator 0): expected a \
             number, found end of input"
        ),
        "{}",
        text(&out.stderr)
    );
}

/// One random change to an input: a number changed (by one, to 0, doubled), removed
/// or repeated.
fn mutate(input: &str, rng: &mut impl Rng) -> String {
    let mut tokens: Vec<String> = Vec::new();
    let mut lines: Vec<usize> = Vec::new();
    for (l, line) in input.lines().enumerate() {
        for t in line.split_whitespace() {
            tokens.push(t.to_string());
            lines.push(l);
        }
    }
    let k = rng.gen_range(0..tokens.len());
    let n: u64 = tokens[k].parse().unwrap_or(0);
    match rng.gen_range(0..6) {
        0 => tokens[k] = (n + 1).to_string(),
        1 => tokens[k] = n.saturating_sub(1).to_string(),
        2 => tokens[k] = "0".into(),
        3 => tokens[k] = (2 * n + 1).to_string(),
        4 => tokens[k] = String::new(),
        _ => tokens[k] = format!("{0} {0}", tokens[k]),
    }
    // The same lines, the changed token in place.
    let mut out = String::new();
    for l in 0..input.lines().count() {
        let line: Vec<&str> = (0..tokens.len())
            .filter(|&i| lines[i] == l && !tokens[i].is_empty())
            .map(|i| tokens[i].as_str())
            .collect();
        out.push_str(&line.join(" "));
        out.push('\n');
    }
    out
}

#[test]
fn the_validator_reads_vertices_from_zero_and_queries_until_zero() {
    if !require_tool("python3") {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let src = Source::choose(None, Some(&declaration())).unwrap();
    let p = &src.problem;
    let script = tmp.path().join("validate.py");
    std::fs::write(&script, validator::script(&src).unwrap()).unwrap();
    let verdict =
        |input: &str| validator::run(&script, input.as_bytes(), Duration::from_secs(30)).unwrap();
    assert_eq!(verdict(SAMPLE), validator::Verdict::Accepted);
    for (bad, why) in [
        ("2\n1 1\n0\n1 2\n0\n", "expected 0..=1, found 2"),
        ("2\n1 2\n0\n1 0\n0\n", "expected 0..=1, found 2"),
        ("2\n1 1\n0\n1 0\n", "before the terminator 0"),
        ("2\n1 1\n1 0\n1 0\n0\n", "cycle"),
        ("2\n1 1\n0\n0\n", "at least 1 expected"),
    ] {
        match verdict(bad) {
            validator::Verdict::Rejected(m) => assert!(m.contains(why), "{bad:?}: {m}"),
            v => panic!("{bad:?}: {v:?}"),
        }
    }
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
    let mut bases = Vec::new();
    for size in 0..4 {
        let cs: Vec<_> = p.small_cases(size).into_iter().take(3).collect();
        bases.push(p.write_input(&cs));
    }
    for k in 0..4 {
        let c = p.generate(&mut rng, 0.05 * k as f64, problems::Shape::Any);
        bases.push(p.write_input(&[c]));
    }
    let (mut checked, mut rejected) = (0, 0);
    for base in &bases {
        assert_eq!(verdict(base), validator::Verdict::Accepted, "{base:?}");
        for _ in 0..8 {
            let input = mutate(base, &mut rng);
            let want = export::canonical(p, &input);
            let got = verdict(&input) == validator::Verdict::Accepted;
            assert_eq!(
                got, want,
                "the validator and the parser differ on {input:?}"
            );
            checked += 1;
            rejected += usize::from(!want);
        }
    }
    assert!(
        rejected > 10 && checked - rejected > 3,
        "{checked} / {rejected}"
    );
}

#[test]
fn a_correct_solution_passes_the_audit() {
    let Some(w) = Workshop::new() else { return };
    let exe = w.compile("chess", PROGRAM, &[]);
    assert_eq!(run(&exe, SAMPLE), ANSWERS);
    let decl = declaration();
    let r = w.audit_of(
        &["--problem", decl.to_str().unwrap()],
        1,
        &["--cases", "1000", "--time", "300"],
        &[exe.to_str().unwrap()],
    );
    assert_eq!(r["verdict"], "ok", "{r}");
    assert!(r["cases"].as_u64().unwrap() >= 1000, "{r}");
}

/// The failing input of an audit, with what the correct program prints on it.
fn caught(w: &Workshop, name: &str, src: &str) -> (String, String, String) {
    let exe = w.compile(name, src, &[]);
    let r = w.audit_declared(&declaration(), 1, "30", &exe);
    assert_ne!(r["verdict"], "ok", "{r}");
    let c = counterexample(&r);
    let input = c["input"].as_str().unwrap().to_string();
    let correct = w.compile(&format!("{name}_ref"), PROGRAM, &[]);
    (input.clone(), run(&correct, &input), run(&exe, &input))
}

/// The vertex lines read as vertices 1..=n (the successors and tokens as written):
/// wrong as soon as a token stands on a vertex with a successor.
#[test]
fn vertices_read_from_one_are_caught_at_a_small_input() {
    let Some(w) = Workshop::new() else { return };
    let src = variant(
        PROGRAM,
        "for (int i = 0; i < n; i++) {",
        "for (int i = 1; i <= n; i++) {",
    );
    let (input, right, got) = caught(&w, "chess_from_one", &src);
    assert!(input.len() <= 16, "a small input: {input:?}");
    assert_ne!(right, got, "{input:?}");
}

/// One query read per case, the next query's count taken for the next case's N: right
/// on inputs of one case of one query, caught on the smallest input with two queries
/// or two cases.
#[test]
fn one_query_per_case_is_caught_at_a_small_input() {
    let Some(w) = Workshop::new() else { return };
    let src = variant(
        PROGRAM,
        "while (scanf(\"%d\", &m) == 1 && m != 0) {",
        "if (scanf(\"%d\", &m) == 1 && m != 0) {",
    );
    let (input, right, got) = caught(&w, "chess_one_query", &src);
    assert!(input.len() <= 24, "a small input: {input:?}");
    assert_ne!(right, got, "{input:?}");
    // More than one query in all: one query of one case is read right.
    assert!(right.lines().count() >= 2, "{input:?}");
}
