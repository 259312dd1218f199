//! A declaration's failure is never the program's: a script that throws, loops past
//! its limit, grows past a limit or returns a value of the wrong type makes the
//! positions it fails on unanswerable. `audit` of a right program never reports a
//! wrong answer for them (it leaves them out and counts them), and `verify --problem`
//! names the failing position instead of saying "all agree".

mod workshop;

use std::path::{Path, PathBuf};
use workshop::{sgcheck, text};

/// Take 1 or 2 from a heap (Grundy value n mod 3), with `bad` planted in the function
/// `at` (`moves`, `value` or `position`) for heaps of 7.
fn declaration(dir: &Path, name: &str, at: &str, bad: &str) -> PathBuf {
    let guard = |f: &str| {
        if f == at {
            format!("if s[0] == 7 {{ {bad} }}")
        } else {
            String::new()
        }
    };
    let value = if at == "value" {
        format!("fn value(s) {{ {} s[0] % 3 }}", guard("value"))
    } else {
        String::new()
    };
    let check = if at == "value" {
        "check_states = [[0], [5]]"
    } else {
        ""
    };
    let position = if at == "position" {
        "fn position(p) { let s = p; if p.contains(7) { BAD } p.map(|n| [n]) }".replace("BAD", bad)
    } else {
        String::new()
    };
    let text = format!(
        r#"format = 2
id = "{name}"
title = "take one or two, planted failure"
position = ["heaps"]

[game]
script = """
fn moves(s) {{
    {}
    let o = [];
    for k in 1..=2 {{ if k <= s[0] {{ o.push([s[0] - k]); }} }}
    o
}}
{value}
{position}
"""
{check}

[input]
cases = "count"
count = {{ what = "case count T", min = 1, max = 10 }}

[[field]]
name = "heaps"
what = "heap {{i}} of case {{case}}"
min = 0
max = 9
inline = true
length = {{ what = "heap count n of case {{case}}", min = 1, max = 2 }}

[output]
lines = ["{{verdict}}"]
win = "First"
lose = "Second"
"#,
        guard("moves")
    );
    let path = dir.join(format!("{name}.toml"));
    std::fs::write(&path, text).unwrap();
    path
}

/// The failures planted: a throw, an endless loop (ended by the operations limit), a
/// limit of the sandbox (a string grown past its size) and a value of the wrong type.
const BAD: &[(&str, &str)] = &[
    ("throw", "throw \"planted\";"),
    ("loop", "loop { }"),
    ("limit", "let t = \"x\"; loop { t += t; }"),
    ("type", "return \"not a number\";"),
];

/// The right answer: the XOR of the heaps mod 3.
const RIGHT_CPP: &str = r#"
#include <cstdio>
int main() {
    int t; if (scanf("%d", &t) != 1) return 0;
    while (t--) {
        int n; scanf("%d", &n);
        int x = 0;
        for (int i = 0; i < n; i++) { int h; scanf("%d", &h); x ^= h % 3; }
        puts(x ? "First" : "Second");
    }
}
"#;

#[test]
fn verify_names_the_position_where_a_script_fails() {
    let dir = tempfile::tempdir().unwrap();
    for at in ["moves", "value", "position"] {
        for (kind, bad) in BAD {
            let name = format!("{at}_{kind}");
            let path = declaration(dir.path(), &name, at, bad);
            let out = sgcheck(
                &["verify", "--problem", path.to_str().unwrap(), "--time", "6"],
                "",
            );
            let all = format!("{}{}", text(&out.stdout), text(&out.stderr));
            assert_ne!(out.status.code(), Some(0), "{name}: {all}");
            assert!(!all.contains("all agree"), "{name}: {all}");
            assert!(!all.contains("panicked"), "{name}: {all}");
            assert!(all.contains("DECLARATION FAILED"), "{name}: {all}");
            assert!(all.contains(&format!("{at}(")), "{name}: {all}");
            assert!(all.contains('7'), "{name}: {all}");
        }
    }
}

#[test]
fn audit_of_a_right_program_leaves_unanswerable_inputs_out() {
    let Some(w) = workshop::Workshop::new() else {
        return;
    };
    let exe = w.compile("right", RIGHT_CPP, &[]);
    let dir = tempfile::tempdir().unwrap();
    for at in ["moves", "value", "position"] {
        for (kind, bad) in BAD {
            let name = format!("{at}_{kind}");
            let path = declaration(dir.path(), &name, at, bad);
            let out = sgcheck(
                &[
                    "audit",
                    "--problem",
                    path.to_str().unwrap(),
                    "--seed",
                    "1",
                    "--time",
                    "4",
                    "--json",
                    "--",
                    exe.to_str().unwrap(),
                ],
                "",
            );
            let stdout = text(&out.stdout);
            let r: serde_json::Value = serde_json::from_str(&stdout)
                .unwrap_or_else(|e| panic!("{name}: {e}: {stdout} {}", text(&out.stderr)));
            assert_eq!(r["verdict"], "ok", "{name}: {r}");
            assert_eq!(out.status.code(), Some(0), "{name}: {r}");
            assert!(r["unanswerable"].as_u64().unwrap() > 0, "{name}: {r}");
            let first = r["first_unanswerable"].as_str().unwrap();
            assert!(first.contains(&format!("{at}(")), "{name}: {first}");
        }
    }
}

#[test]
fn solve_refuses_a_case_the_script_fails_on() {
    let dir = tempfile::tempdir().unwrap();
    let path = declaration(dir.path(), "solve_throw", "moves", BAD[0].1);
    let out = sgcheck(
        &["solve", "--problem", path.to_str().unwrap()],
        "2\n1 3\n1 7\n",
    );
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stdout));
    assert!(text(&out.stdout).is_empty());
    assert!(
        text(&out.stderr).contains("planted"),
        "{}",
        text(&out.stderr)
    );
}
