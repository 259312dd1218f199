//! Problem packages: `sgcheck export` and `sgcheck audit --package`.
//!
//! - Every built-in problem exports, and the export itself runs the package's input
//!   validator (`python3 validate.py`, exit 42/43) on every test it wrote and on every
//!   malformed input (the problem's known ones and those derived from its
//!   declaration): all accepted, all rejected, or the export fails.
//! - The validator agrees with sgcheck's strict parser (plus the canonical layout) on
//!   inputs mutated at random from the exported tests, for every built-in problem.
//! - A user's declaration (the README's "Stones") exports, and its package is audited
//!   without naming the problem (the package holds its declaration).
//! - The planted mistakes of the audit tests of two problems (bzoj1188 from
//!   `audit_bugs.rs`, hdu3094 from `audit_tree.rs`), put in `submissions/wrong_answer`
//!   (and the deep recursion in `run_time_error`, judged with a 1 MiB stack), are all
//!   caught by the exported tests, as sgcheck's own search catches them.
//! - A package whose tests miss a mistake: the wrong submission is reported as not
//!   caught, an accepted submission that is wrong is reported with its minimal input,
//!   `--add-tests` writes both inputs into `data/secret/sgcheck/`, and the package then
//!   catches them.
//! - Writes are safe: a non-empty target needs `--force`, which keeps the submissions.
//!
//! Without g++ or python3 the tests that need them say so and pass (and fail under CI).

use rand::{Rng, SeedableRng};
use serde_json::Value;
use sgcheck::package::{export, validator, Source};
use sgcheck::problems::{self, Problem};
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::Duration;

mod workshop;
use workshop::*;

const SGCHECK: &str = env!("CARGO_BIN_EXE_sgcheck");

fn sgcheck(args: &[&str]) -> Output {
    Command::new(SGCHECK)
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("runs sgcheck")
}

fn text(o: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

/// `sgcheck export <args> --to <dir>`, which must succeed.
fn export_to(dir: &Path, args: &[&str]) -> String {
    let mut all = vec!["export"];
    all.extend_from_slice(args);
    all.extend_from_slice(&["--to", dir.to_str().unwrap()]);
    let o = sgcheck(&all);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    text(&o)
}

/// `sgcheck audit --package <dir> <extra> --json`: the exit code and the report.
fn audit_package(dir: &Path, extra: &[&str]) -> (i32, Value) {
    let mut args = vec![
        "audit",
        "--package",
        dir.to_str().unwrap(),
        "--seed",
        "1",
        "--json",
    ];
    args.extend_from_slice(extra);
    let o = sgcheck(&args);
    let report: Value = serde_json::from_slice(&o.stdout)
        .unwrap_or_else(|e| panic!("bad JSON ({e}): {}", text(&o)));
    (o.status.code().unwrap_or(-1), report)
}

fn submission<'a>(report: &'a Value, name: &str) -> &'a Value {
    report["submissions"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["name"] == name)
        .unwrap_or_else(|| panic!("no submission {name}: {report}"))
}

fn add_submission(pkg: &Path, dir: &str, name: &str, src: &str) {
    let d = pkg.join("submissions").join(dir);
    std::fs::create_dir_all(&d).unwrap();
    std::fs::write(d.join(name), src).unwrap();
}

/// The `.in` files of a package group, sorted.
fn inputs(dir: &Path) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|rd| {
            rd.filter_map(|e| e.ok())
                .map(|e| e.path())
                .filter(|p| p.extension().is_some_and(|x| x == "in"))
                .collect()
        })
        .unwrap_or_default();
    v.sort();
    v
}

#[test]
fn every_builtin_exports_and_its_validator_accepts_its_tests_and_rejects_malformed_inputs() {
    if !require_tool("python3") {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let ids: Vec<&str> = problems::PROBLEM_IDS.to_vec();
    // Two at a time: each export runs the validator some fifty times.
    let chunks: Vec<Vec<&str>> = ids
        .chunks(ids.len().div_ceil(2))
        .map(|c| c.to_vec())
        .collect();
    std::thread::scope(|s| {
        for chunk in &chunks {
            let tmp = tmp.path();
            s.spawn(move || {
                for id in chunk {
                    let dir = tmp.join(id);
                    let out = export_to(&dir, &[id, "--oracle-budget", "1000"]);
                    let line = out
                        .lines()
                        .find(|l| l.contains("validate.py"))
                        .unwrap_or_else(|| panic!("{id}: {out}"));
                    let accepted = inputs(&dir.join("data/sample")).len()
                        + ["smallest", "random", "limits", "traps"]
                            .iter()
                            .map(|g| inputs(&dir.join("data/secret").join(g)).len())
                            .sum::<usize>();
                    let rejected = inputs(&dir.join("data/invalid_input")).len();
                    assert!(
                        line.contains(&format!("accepts all {accepted} test inputs"))
                            && line.contains(&format!("rejects all {rejected} in")),
                        "{id}: {line}"
                    );
                    // The known malformed inputs are among them, and more.
                    let known = sgcheck::package::samples::builtin(id).malformed.len();
                    assert!(rejected > known && known > 0, "{id}: {rejected} / {known}");
                    assert!(accepted >= 15, "{id}: {accepted} tests");
                    // No hand-written answer: every .ans is the solver's.
                    let p = problems::builtin(id).unwrap();
                    for f in inputs(&dir.join("data/secret/traps")) {
                        let input = std::fs::read_to_string(&f).unwrap();
                        let ans = std::fs::read_to_string(f.with_extension("ans")).unwrap();
                        let cases = p.parse(&input, false).unwrap();
                        assert_eq!(ans, problems::solve_fast(p, &cases).unwrap(), "{f:?}");
                    }
                }
            });
        }
    });
}

/// One random change to an input: a number changed (by one, to 0, past 2^64, to a
/// letter), removed, doubled, or the whitespace around it changed.
fn mutate(input: &str, rng: &mut impl Rng) -> String {
    let tokens: Vec<(usize, usize)> = {
        let mut v = Vec::new();
        let b = input.as_bytes();
        let mut i = 0;
        while i < b.len() {
            if b[i].is_ascii_whitespace() {
                i += 1;
                continue;
            }
            let s = i;
            while i < b.len() && !b[i].is_ascii_whitespace() {
                i += 1;
            }
            v.push((s, i));
        }
        v
    };
    if tokens.is_empty() {
        return "1\n".into();
    }
    let (s, e) = tokens[rng.gen_range(0..tokens.len())];
    let tok = &input[s..e];
    let n: u128 = tok.parse().unwrap_or(0);
    let new = match rng.gen_range(0..9) {
        0 => (n + 1).to_string(),
        1 => n.saturating_sub(1).to_string(),
        2 => "0".into(),
        3 => "18446744073709551616".into(),
        4 => String::new(),
        5 => format!("{tok} {tok}"),
        6 => format!("{tok}\n"),
        7 => format!("0{tok}"),
        _ => (n * 2 + 1).to_string(),
    };
    format!("{}{}{}", &input[..s], new, &input[e..])
}

#[test]
fn the_validator_agrees_with_the_strict_parser_on_mutated_inputs() {
    if !require_tool("python3") {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
    let mut checked = 0;
    let mut rejected = 0;
    for id in problems::PROBLEM_IDS {
        let src = Source::choose(Some(id), None).unwrap();
        let p = &src.problem;
        let script = tmp.path().join(format!("{id}.py"));
        std::fs::write(&script, validator::script(&src).unwrap()).unwrap();
        // Small inputs: the first tiny cases and a few random ones.
        let mut bases = Vec::new();
        for size in 0..4 {
            let cs: Vec<_> = p.small_cases(size).into_iter().take(3).collect();
            if !cs.is_empty() {
                bases.push(p.write_input(&cs));
            }
        }
        for k in 0..3 {
            let c = p.generate(&mut rng, 0.05 * k as f64, problems::Shape::Any);
            bases.push(p.write_input(&[c]));
        }
        for base in &bases {
            for _ in 0..4 {
                let input = mutate(base, &mut rng);
                if input.is_empty() {
                    continue; // an empty test: see `empty_input` below
                }
                let want = export::canonical(p, &input);
                let got =
                    validator::run(&script, input.as_bytes(), Duration::from_secs(30)).unwrap();
                assert_eq!(
                    got == validator::Verdict::Accepted,
                    want,
                    "{id}: the validator says {got:?} on {input:?}, the parser {}",
                    if want { "accepts it" } else { "rejects it" }
                );
                checked += 1;
                rejected += usize::from(!want);
            }
        }
    }
    // Both answers occur often.
    assert!(
        checked > 300 && rejected > 100 && checked - rejected > 50,
        "{checked} / {rejected}"
    );
    eprintln!("{checked} mutated inputs, {rejected} rejected by both");
}

/// The example declarations of the input-format features (a graph as edges and as
/// adjacency lists, records with bounds per column, a list ended by a terminator):
/// each exports (the export runs its validator on every test, all accepted, and on
/// every malformed input, all rejected), and the validator agrees with the strict
/// parser on inputs mutated from small and random cases.
#[test]
fn the_format_examples_export_and_their_validators_agree_with_the_parser() {
    if !require_tool("python3") {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(11);
    for &(name, export) in FORMAT_EXAMPLES {
        let file = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("examples/problems")
            .join(name);
        if export {
            let dir = tmp.path().join(name);
            let out = export_to(
                &dir,
                &[
                    "--problem",
                    file.to_str().unwrap(),
                    "--oracle-budget",
                    "1000",
                ],
            );
            let line = out
                .lines()
                .find(|l| l.contains("validate.py"))
                .unwrap_or_else(|| panic!("{name}: {out}"));
            assert!(
                line.contains("accepts all") && line.contains("rejects all"),
                "{name}: {line}"
            );
        }
        let src = Source::choose(None, Some(&file)).unwrap();
        let p = &src.problem;
        let script = tmp.path().join(format!("{name}.py"));
        std::fs::write(&script, validator::script(&src).unwrap()).unwrap();
        let mut bases = Vec::new();
        for size in 0..5 {
            let cs: Vec<_> = p.small_cases(size).into_iter().take(3).collect();
            if !cs.is_empty() {
                bases.push(p.write_input(&cs));
            }
        }
        for k in 0..4 {
            let c = p.generate(&mut rng, 0.1 * k as f64, problems::Shape::Any);
            bases.push(p.write_input(&[c]));
        }
        let (mut checked, mut rejected) = (0, 0);
        for base in &bases {
            assert_eq!(
                validator::run(&script, base.as_bytes(), Duration::from_secs(30)).unwrap(),
                validator::Verdict::Accepted,
                "{name}: {base:?}"
            );
            for _ in 0..8 {
                let input = mutate(base, &mut rng);
                if input.is_empty() {
                    continue;
                }
                let want = export::canonical(p, &input);
                let got =
                    validator::run(&script, input.as_bytes(), Duration::from_secs(30)).unwrap();
                assert_eq!(
                    got == validator::Verdict::Accepted,
                    want,
                    "{name}: the validator says {got:?} on {input:?}, the parser {}",
                    if want { "accepts it" } else { "rejects it" }
                );
                checked += 1;
                rejected += usize::from(!want);
            }
        }
        assert!(
            rejected > 10 && checked - rejected > 3,
            "{name}: {checked} / {rejected}"
        );
    }
}

/// The declarations of `the_format_examples_export_and_their_validators_agree_with_the_parser`,
/// and whether the test exports them (all of them: a scripted game's export, which
/// cuts each oracle query at half a second, takes about 20 s).
const FORMAT_EXAMPLES: &[(&str, bool)] = &[
    ("tokens.toml", true),
    ("tokens_adjacency.toml", true),
    ("bounded_piles.toml", true),
    ("piles_until.toml", true),
];

/// A planted mistake in the validator's data is caught: a bound one too wide makes the
/// validator accept an input the parser rejects.
#[test]
fn a_wrong_bound_in_the_validator_is_caught() {
    if !require_tool("python3") {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let src = Source::choose(Some("hdu1527"), None).unwrap();
    let script = validator::script(&src).unwrap();
    let planted = script.replacen("\"max\":1000000000", "\"max\":1000000001", 1);
    assert_ne!(planted, script);
    let path = tmp.path().join("planted.py");
    std::fs::write(&path, planted).unwrap();
    let input = "1000000001 4\n";
    assert!(!export::canonical(&src.problem, input));
    assert_eq!(
        validator::run(&path, input.as_bytes(), Duration::from_secs(30)).unwrap(),
        validator::Verdict::Accepted
    );
    let good = tmp.path().join("good.py");
    std::fs::write(&good, script).unwrap();
    assert!(matches!(
        validator::run(&good, input.as_bytes(), Duration::from_secs(30)).unwrap(),
        validator::Verdict::Rejected(m) if m.contains("a of case 1")
    ));
}

/// A record's relation (`require = ["c <= s"]`) is in the validator: it rejects an item
/// that breaks it, accepts the same input with the item fixed, and agrees with the
/// parser on mutated inputs; with the relation taken out of its data (planted), it
/// accepts the bad input.
#[test]
fn the_validator_checks_a_records_relation() {
    if !require_tool("python3") {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let file = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/formats/capacity_boxes.toml");
    let src = Source::choose(None, Some(&file)).unwrap();
    let script = validator::script(&src).unwrap();
    let good = tmp.path().join("good.py");
    std::fs::write(&good, &script).unwrap();
    let run = |path: &Path, input: &str| {
        validator::run(path, input.as_bytes(), Duration::from_secs(30)).unwrap()
    };
    let bad = "1\n2\n5 3\n2 4\n";
    assert!(!export::canonical(&src.problem, bad));
    assert!(matches!(
        run(&good, bad),
        validator::Verdict::Rejected(m) if m.contains("item 2") && m.contains("c <= s")
    ));
    assert_eq!(run(&good, "1\n2\n5 3\n4 2\n"), validator::Verdict::Accepted);
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(5);
    let p = &src.problem;
    let mut rejected = 0;
    for k in 0..6 {
        let base = p.write_input(&[p.generate(&mut rng, 0.2 * k as f64, problems::Shape::Any)]);
        assert_eq!(run(&good, &base), validator::Verdict::Accepted, "{base:?}");
        for _ in 0..6 {
            let input = mutate(&base, &mut rng);
            let want = export::canonical(p, &input);
            let got = run(&good, &input);
            assert_eq!(
                got == validator::Verdict::Accepted,
                want,
                "{input:?}: {got:?}"
            );
            rejected += usize::from(!want);
        }
    }
    assert!(rejected > 5, "{rejected}");
    let planted = script.replacen("\"require\":[[", "\"require\":[], \"unused\":[[", 1);
    assert_ne!(planted, script);
    let path = tmp.path().join("planted.py");
    std::fs::write(&path, planted).unwrap();
    assert_eq!(run(&path, bad), validator::Verdict::Accepted);
}

/// The README's example declaration.
const STONES: &str = r#"format = 1
id = "stones"
title = "Stones (example)"
game = "bash"
position = ["piles"]

[rules]
m = "m"

[input]
cases = "count"
count = { what = "case count T", min = 1, max = 100 }

[[field]]
name = "m"
min = 1
max = 1000000000

[[field]]
name = "piles"
what = "pile {i} of case {case}"
min = 0
max = 1000000000
inline = true
length = { what = "n of case {case}", min = 1, max = 1000 }

[output]
lines = ["Case #{case}: {best}"]
move = "Alice {pile+1} {amount}"
none = "Bob"
"#;

const STONES_OK: &str = r#"#include <cstdio>
int main() {
    int t;
    scanf("%d", &t);
    for (int c = 1; c <= t; c++) {
        long long m; int n;
        scanf("%lld %d", &m, &n);
        static long long a[1000];
        long long x = 0;
        for (int i = 0; i < n; i++) { scanf("%lld", &a[i]); x ^= a[i] % (m + 1); }
        if (!x) { printf("Case #%d: Bob\n", c); continue; }
        for (int i = 0; i < n; i++) {
            long long g = a[i] % (m + 1), want = x ^ g;
            if (want > m) continue;
            long long k = ((g - want) % (m + 1) + (m + 1)) % (m + 1);
            if (k >= 1 && k <= a[i]) { printf("Case #%d: Alice %d %lld\n", c, i + 1, k); break; }
        }
    }
}
"#;

#[test]
fn a_users_declaration_exports_and_its_package_is_audited() {
    let Some(w) = Workshop::new() else { return };
    if !require_tool("python3") {
        return;
    }
    let decl = w.path().join("stones.toml");
    std::fs::write(&decl, STONES).unwrap();
    let pkg = w.path().join("pkg");
    let out = export_to(&pkg, &["--problem", decl.to_str().unwrap()]);
    assert!(out.contains("export stones"), "{out}");
    // Without known samples, the smallest cases show the format.
    let sample = std::fs::read_to_string(pkg.join("data/sample/01.in")).unwrap();
    assert!(sample.starts_with("3\n1 1 0\n"), "{sample:?}");
    assert_eq!(
        std::fs::read_to_string(pkg.join("sgcheck/problem.toml")).unwrap(),
        STONES
    );
    add_submission(&pkg, "accepted", "ok.cpp", STONES_OK);
    // Taking `a % m` for the pile's value: wrong as soon as a pile reaches m.
    add_submission(
        &pkg,
        "wrong_answer",
        "mod_m.cpp",
        &variant(STONES_OK, "x ^= a[i] % (m + 1);", "x ^= a[i] % m;"),
    );
    // The package holds its declaration: no problem named.
    let (code, r) = audit_package(&pkg, &["--time", "3"]);
    assert_eq!(code, 0, "{r}");
    assert_eq!(r["problem"], "stones");
    assert_eq!(submission(&r, "accepted/ok.cpp")["tests_verdict"], "ok");
    assert_eq!(
        submission(&r, "wrong_answer/mod_m.cpp")["tests_verdict"],
        "wrong-answer"
    );
    assert_nothing_left(w.path());
}

/// bzoj1188's correct solution of the audit tests.
const SPLIT: &str = programs::BZOJ1188_CORRECT;

/// The three planted mistakes of `audit_bugs.rs` for bzoj1188.
fn split_mistakes() -> Vec<(&'static str, String)> {
    let state = variant(SPLIT, "    int t;\n", "    int t, count = 0;\n");
    vec![
        (
            "xor_non_empty.cpp",
            variant(SPLIT, "if (p[i] % 2 == 1) x ^=", "if (p[i] > 0) x ^="),
        ),
        (
            "no_j_equal_k.cpp",
            variant(
                SPLIT,
                "for (int k = j; k < n; k++)",
                "for (int k = j + 1; k < n; k++)",
            ),
        ),
        (
            "state_kept.cpp",
            variant(&state, "int count = 0, bi = -1", "int bi = -1"),
        ),
    ]
}

/// hdu3094's correct solution of the audit tests.
const TREE: &str = programs::HDU3094_CORRECT;

/// The planted mistakes of `audit_tree.rs` that give wrong answers.
fn tree_mistakes() -> Vec<(&'static str, String)> {
    vec![
        (
            "not_cleared.cpp",
            variant(
                TREE,
                "        for (int i = 1; i <= n; i++) adj[i].clear();\n",
                "",
            ),
        ),
        (
            "directed.cpp",
            variant(TREE, "            adj[v].push_back(u);\n", ""),
        ),
    ]
}

#[test]
fn the_exported_tests_catch_the_planted_mistakes_of_bzoj1188_and_hdu3094() {
    let Some(w) = Workshop::new() else { return };
    if !require_tool("python3") {
        return;
    }
    for (id, correct, mistakes) in [
        ("bzoj1188", SPLIT, split_mistakes()),
        ("hdu3094", TREE, tree_mistakes()),
    ] {
        let pkg = w.path().join(id);
        export_to(&pkg, &[id]);
        add_submission(&pkg, "accepted", "correct.cpp", correct);
        for (name, src) in &mistakes {
            add_submission(&pkg, "wrong_answer", name, src);
        }
        let mut extra = vec!["--time", "5"];
        if id == "hdu3094" {
            add_submission(
                &pkg,
                "run_time_error",
                "recursive.cpp",
                &programs::hdu3094_recursive(16),
            );
            extra.extend_from_slice(&["--stack-limit", "1M"]);
        }
        let (code, r) = audit_package(&pkg, &extra);
        assert_eq!(code, 0, "{id}: {r:#}");
        assert_eq!(
            submission(&r, "accepted/correct.cpp")["tests_verdict"],
            "ok"
        );
        assert_eq!(
            submission(&r, "accepted/correct.cpp")["search_verdict"],
            "ok"
        );
        for (name, _) in &mistakes {
            let s = submission(&r, &format!("wrong_answer/{name}"));
            // sgcheck's search catches it, and so do the exported tests.
            assert_eq!(s["search_verdict"], "wrong-answer", "{id} {name}: {s}");
            assert_eq!(s["tests_verdict"], "wrong-answer", "{id} {name}: {s}");
            assert!(s["finding"].is_null(), "{s}");
            eprintln!(
                "{id}: wrong_answer/{name} caught by the package's {}",
                s["failed_test"]
            );
        }
        if id == "hdu3094" {
            let s = submission(&r, "run_time_error/recursive.cpp");
            assert_eq!(s["tests_verdict"], "runtime-error", "{s}");
            eprintln!(
                "{id}: run_time_error/recursive.cpp caught by the package's {}",
                s["failed_test"]
            );
        }
    }
    assert_nothing_left(w.path());
}

#[test]
fn mistakes_the_tests_miss_are_reported_and_add_tests_makes_the_package_catch_them() {
    let Some(w) = Workshop::new() else { return };
    if !require_tool("python3") {
        return;
    }
    let pkg = w.path().join("pkg");
    export_to(&pkg, &["bzoj1188"]);
    // A package with its samples only: they catch none of these.
    std::fs::remove_dir_all(pkg.join("data/secret")).unwrap();
    let mistakes = split_mistakes();
    add_submission(&pkg, "wrong_answer", "xor.cpp", &mistakes[0].1);
    // An "accepted" submission that is wrong.
    add_submission(&pkg, "accepted", "jk.cpp", &mistakes[1].1);
    let (code, r) = audit_package(&pkg, &["--time", "5"]);
    assert_eq!(code, 1, "{r:#}");
    let s = submission(&r, "wrong_answer/xor.cpp");
    assert_eq!(s["tests_verdict"], "ok");
    assert!(
        s["finding"]
            .as_str()
            .unwrap()
            .starts_with("not caught by the package's tests"),
        "{s}"
    );
    assert_eq!(s["minimal_input"], "1\n2\n2 0\n");
    let a = submission(&r, "accepted/jk.cpp");
    assert_eq!(
        a["finding"], "wrong-answer found by sgcheck's search",
        "{a}"
    );
    assert_eq!(a["minimal_input"], "1\n2\n1 0\n");
    assert!(r["added"].as_array().unwrap().is_empty());

    let (code, r) = audit_package(&pkg, &["--time", "5", "--add-tests"]);
    assert_eq!(code, 1, "{r:#}");
    assert_eq!(r["added"].as_array().unwrap().len(), 2, "{r:#}");
    let found = pkg.join("data/secret/sgcheck");
    let added: Vec<String> = inputs(&found)
        .iter()
        .map(|f| std::fs::read_to_string(f).unwrap())
        .collect();
    assert!(added.contains(&"1\n2\n2 0\n".to_string()), "{added:?}");
    assert!(added.contains(&"1\n2\n1 0\n".to_string()), "{added:?}");
    // The answers are the solver's.
    let p = problems::builtin("bzoj1188").unwrap();
    for f in inputs(&found) {
        let input = std::fs::read_to_string(&f).unwrap();
        let cases = p.parse(&input, false).unwrap();
        assert_eq!(
            std::fs::read_to_string(f.with_extension("ans")).unwrap(),
            problems::solve_fast(p, &cases).unwrap()
        );
    }
    // Now the package's tests catch the wrong submission, and reject the wrong
    // "accepted" one (still a finding: it is in accepted/).
    let (code, r) = audit_package(&pkg, &["--time", "2"]);
    assert_eq!(code, 1);
    let s = submission(&r, "wrong_answer/xor.cpp");
    assert_eq!(s["tests_verdict"], "wrong-answer", "{s}");
    assert!(s["finding"].is_null(), "{s}");
    let a = submission(&r, "accepted/jk.cpp");
    assert_eq!(a["tests_verdict"], "wrong-answer", "{a}");
    assert!(
        a["failed_test"]
            .as_str()
            .unwrap()
            .starts_with("secret/sgcheck/"),
        "{a}"
    );
    // A second --add-tests adds nothing new.
    std::fs::remove_file(pkg.join("submissions/accepted/jk.cpp")).unwrap();
    let (code, r) = audit_package(&pkg, &["--time", "2", "--add-tests"]);
    assert_eq!(code, 0, "{r:#}");
    assert!(r["added"].as_array().unwrap().is_empty());
    assert_nothing_left(w.path());
}

#[test]
fn export_writes_safely_and_refuses_bad_arguments() {
    if !require_tool("python3") {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let pkg = tmp.path().join("pkg");
    export_to(&pkg, &["p2197", "--oracle-budget", "0"]);
    add_submission(&pkg, "accepted", "keep.py", "print()\n");
    // A non-empty directory needs --force.
    let o = sgcheck(&["export", "p2197", "--to", pkg.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(text(&o).contains("is not empty"), "{}", text(&o));
    // --force replaces the exported files and keeps the submissions.
    std::fs::write(pkg.join("data/secret/random/99.in"), "stale").unwrap();
    export_to(&pkg, &["p2197", "--force", "--oracle-budget", "0"]);
    assert!(!pkg.join("data/secret/random/99.in").exists());
    assert!(pkg.join("submissions/accepted/keep.py").exists());
    // The same seed writes the same tests.
    let again = tmp.path().join("again");
    export_to(&again, &["p2197", "--oracle-budget", "0"]);
    for g in ["random", "limits"] {
        for f in inputs(&pkg.join("data/secret").join(g)) {
            let twin = again
                .join("data/secret")
                .join(g)
                .join(f.file_name().unwrap());
            assert_eq!(std::fs::read(&f).unwrap(), std::fs::read(&twin).unwrap());
        }
    }
    // A symbolic link where a file goes is refused, never followed.
    let target = tmp.path().join("target.txt");
    std::fs::write(&target, "mine").unwrap();
    std::fs::remove_file(pkg.join("problem.yaml")).unwrap();
    std::os::unix::fs::symlink(&target, pkg.join("problem.yaml")).unwrap();
    let o = sgcheck(&["export", "p2197", "--force", "--to", pkg.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(text(&o).contains("symbolic link"), "{}", text(&o));
    assert_eq!(std::fs::read_to_string(&target).unwrap(), "mine");
    // Usage errors.
    for args in [
        vec!["export", "nosuch", "--to", "x"],
        vec!["export", "--to", "x"],
        vec!["audit", "--package", "/nonexistent/pkg"],
        vec!["audit", "p2197", "--add-tests", "--", "true"],
    ] {
        let o = sgcheck(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", text(&o));
        assert!(!text(&o).contains("panicked"), "{}", text(&o));
    }
    // A package sgcheck did not write needs the problem named.
    let bare = tmp.path().join("bare");
    std::fs::create_dir_all(bare.join("data/sample")).unwrap();
    let o = sgcheck(&["audit", "--package", bare.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(text(&o).contains("name the problem"), "{}", text(&o));
}

/// The correct bzoj1188 program of the audit tests, made to answer wrong whenever it
/// can see `marker`.
fn correct_unless_it_sees(marker: &Path) -> String {
    let src = SPLIT;
    assert!(src.contains("int main"));
    let marker = marker.display().to_string();
    // Before main: if the marker is visible, every answer printed is garbage.
    src.replacen(
        "int main",
        &format!(
            "#include <unistd.h>\nstatic int seen_marker() {{ return access(\"{marker}\", F_OK) == 0; }}\nint main_real();\nint main() {{ if (seen_marker()) {{ puts(\"-1 -1 -1\"); return 0; }} main_real(); return 0; }}\nint main_real"
        ),
        1,
    )
}

#[test]
fn symlinked_tests_are_audited_links_out_and_fifos_are_refused_and_the_package_is_hidden() {
    let Some(w) = Workshop::new() else { return };
    if !require_tool("python3") {
        return;
    }
    let pkg = w.path().join("pkg");
    export_to(&pkg, &["bzoj1188"]);
    std::fs::remove_dir_all(pkg.join("data/secret")).unwrap();
    std::fs::create_dir_all(pkg.join("data/secret")).unwrap();
    // The one test that catches the xor mistake lives in extra/, linked from
    // data/secret (as BAPCtools packages link shared tests).
    let extra = pkg.join("extra");
    std::fs::create_dir_all(&extra).unwrap();
    let input = "1\n2\n2 0\n";
    let p = problems::builtin("bzoj1188").unwrap();
    std::fs::write(extra.join("t1.in"), input).unwrap();
    std::fs::write(
        extra.join("t1.ans"),
        problems::solve_fast(p, &p.parse(input, false).unwrap()).unwrap(),
    )
    .unwrap();
    let secret = pkg.join("data/secret");
    std::os::unix::fs::symlink("../../extra/t1.in", secret.join("linked.in")).unwrap();
    std::os::unix::fs::symlink("../../extra/t1.ans", secret.join("linked.ans")).unwrap();
    let mistakes = split_mistakes();
    add_submission(&pkg, "wrong_answer", "xor.cpp", &mistakes[0].1);
    let (code, r) = audit_package(&pkg, &["--time", "1"]);
    let s = submission(&r, "wrong_answer/xor.cpp");
    assert_eq!(s["tests_verdict"], "wrong-answer", "{r:#}");
    assert_eq!(s["failed_test"], "secret/linked", "{s}");
    assert!(s["finding"].is_null(), "{s}");
    assert_eq!(code, 0, "{r:#}");
    assert!(r["refused"].as_array().unwrap().is_empty(), "{r:#}");

    // A link that leaves the package and a FIFO: refused by name, a finding each.
    let outside = w.path().join("outside.in");
    std::fs::write(&outside, input).unwrap();
    std::os::unix::fs::symlink(&outside, secret.join("out.in")).unwrap();
    let fifo = secret.join("pipe.in");
    let c = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
    // SAFETY: mkfifo with a valid NUL-terminated path.
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o644) }, 0);
    let (code, r) = audit_package(&pkg, &["--time", "1"]);
    assert_eq!(code, 1, "{r:#}");
    let refused: Vec<(String, String)> = r["refused"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| {
            (
                t["name"].as_str().unwrap().to_string(),
                t["why"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    assert_eq!(refused.len(), 2, "{refused:?}");
    assert_eq!(refused[0].0, "secret/out", "{refused:?}");
    assert!(refused[0].1.contains("leaves the package"), "{refused:?}");
    assert_eq!(refused[1].0, "secret/pipe", "{refused:?}");
    assert!(refused[1].1.contains("FIFO"), "{refused:?}");
    // The readable tests are still judged.
    let s = submission(&r, "wrong_answer/xor.cpp");
    assert_eq!(s["failed_test"], "secret/linked", "{s}");
    let o = sgcheck(&["audit", "--package", pkg.to_str().unwrap(), "--time", "1"]);
    let shown = text(&o);
    assert!(
        shown.contains("2 test(s) read and judged, 2 refused")
            && shown.contains("test secret/pipe refused"),
        "{shown}"
    );
    std::fs::remove_file(&fifo).unwrap();
    std::fs::remove_file(secret.join("out.in")).unwrap();

    // The submission does not see the package (namespaces; the fallback cannot hide
    // it, and says so).
    std::fs::remove_dir_all(pkg.join("submissions/wrong_answer")).unwrap();
    add_submission(
        &pkg,
        "accepted",
        "peek.cpp",
        &correct_unless_it_sees(&extra.join("t1.ans")),
    );
    let (code, r) = audit_package(&pkg, &["--time", "1"]);
    let s = submission(&r, "accepted/peek.cpp");
    if namespaces() {
        assert_eq!(code, 0, "{r:#}");
        assert!(s["finding"].is_null(), "{s}");
    } else {
        assert_eq!(s["tests_verdict"], "wrong-answer", "{s}");
    }
    assert_nothing_left(w.path());
}

/// Whether sgcheck contains its runs with namespaces here (root, kernel support, not
/// forced to the fallback).
fn namespaces() -> bool {
    let o = sgcheck(&["audit", "p2197", "--cases", "1", "--json", "--", "true"]);
    let r: Value = serde_json::from_slice(&o.stdout).unwrap_or(Value::Null);
    r["containment"] == "namespaces"
}
