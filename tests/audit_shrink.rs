//! Shrinking real programs, and auditing from source: C++ programs written here, given
//! to `sgcheck audit` as source files (built with judge flags, or with `--sanitize`).
//!
//! - two culprits far apart in a case of 10^5 piles (`--input`): shrunk to exactly them;
//! - a bug above a size threshold, found by the search: shrunk to the threshold plus
//!   one, every value at its lower bound; the text report abbreviates it, `--save`
//!   keeps it whole;
//! - a parity bug: shrunk to a pile of 2, from the search and from a large input;
//! - a slow program with one wrong table entry (0.5 ms of work per case): the wrong
//!   answer, minimal, not a time-out of a batch;
//! - undefined behaviour that `-O2` hides (signed overflow at 2^31 - 1): `ok` without
//!   `--sanitize`, a runtime error naming the overflow with it, at one pile of
//!   2147483647;
//! - compile errors exit 2 with the compiler's message; C, Rust, Python and Java
//!   sources are built and audited too;
//! - "minimal" means no smaller valid input fails, whatever its order or its cases:
//!   poj1704 with the cells taken in input order comes down to `2 1` (the order the
//!   sorted enumeration never tried), and a sum not reset between cases, met first on
//!   one case of four cells, to two cases of one cell each.
//!
//! A test whose compiler is missing says so and passes.

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;

const SGCHECK: &str = env!("CARGO_BIN_EXE_sgcheck");

mod workshop;

/// Whether `tool` is there: a loud skip line without it, a failure under CI or
/// `SGCHECK_REQUIRE_TOOLS=1` ([`workshop::require_tool`]).
fn have(tool: &str, _arg: &str) -> bool {
    workshop::require_tool(tool)
}

fn write(dir: &Path, name: &str, body: &str) -> PathBuf {
    let p = dir.join(name);
    std::fs::write(&p, body).unwrap();
    p
}

struct Run {
    code: i32,
    stdout: String,
    stderr: String,
}

impl Run {
    fn json(&self) -> Value {
        serde_json::from_str(&self.stdout)
            .unwrap_or_else(|e| panic!("{e}: {}\n{}", self.stdout, self.stderr))
    }
}

fn sgcheck(args: &[&str]) -> Run {
    let out = Command::new(SGCHECK).args(args).output().unwrap();
    Run {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

/// hdu3032 in C++: Lasker's Nim, `HOOK` marks where a variant changes the answer.
fn lasker(hook: &str) -> String {
    r#"#include <cstdio>
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
        bool a = false, b = false, even = false;
        for (int i = 0; i < n; i++) {
            long long s;
            if (scanf("%lld", &s) != 1) return 1;
            x ^= sg(s);
            a |= s == 1000003;
            b |= s == 2000003;
            even |= s % 2 == 0;
        }
        bool win = x != 0;
        HOOK
        puts(win ? "Alice" : "Bob");
    }
}
"#
    .replace("HOOK", hook)
}

fn minimal(r: &Run) -> (String, Value) {
    assert_eq!(r.code, 1, "{}\n{}", r.stdout, r.stderr);
    let j = r.json();
    let c = j["counterexample"].clone();
    assert_eq!(c["minimal"], true, "{c}");
    (c["input"].as_str().unwrap().to_string(), j)
}

#[test]
fn two_culprits_in_10_5_piles_shrink_to_exactly_them() {
    if !have("g++", "--version") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let src = write(dir.path(), "two.cpp", &lasker("if (a && b) win = !win;"));
    // 10^5 piles, none of them a culprit but two, 86,420 places apart.
    let mut piles: Vec<u64> = (0..100_000u64)
        .map(|i| 3 + (i * 2_654_435_761) % 999_999_937)
        .map(|x| {
            if x == 1_000_003 || x == 2_000_003 {
                5
            } else {
                x
            }
        })
        .collect();
    piles[1_234] = 1_000_003;
    piles[87_654] = 2_000_003;
    let text: Vec<String> = piles.iter().map(u64::to_string).collect();
    let input = write(
        dir.path(),
        "big.in",
        &format!("1\n{}\n{}\n", piles.len(), text.join(" ")),
    );
    let r = sgcheck(&[
        "audit",
        "hdu3032",
        "--json",
        "--time",
        "60",
        "--input",
        input.to_str().unwrap(),
        "--",
        src.to_str().unwrap(),
    ]);
    let (min, j) = minimal(&r);
    assert_eq!(min, "1\n2\n1000003 2000003\n");
    assert_eq!(j["verdict"], "wrong-answer");
    // The check of smaller inputs comes on top of the shrink, with its own runs.
    let checked = j["counterexample"]["minimality"]["checked_runs"]
        .as_u64()
        .unwrap();
    let runs = j["shrink_runs"].as_u64().unwrap() - checked;
    assert!(runs < 300, "{runs} shrink runs");
    assert!(j["reproduce"].as_str().unwrap().contains("--input"), "{j}");
}

#[test]
fn size_threshold_shrinks_to_the_threshold_abbreviated_and_saved_whole() {
    if !have("g++", "--version") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let src = write(dir.path(), "big.cpp", &lasker("if (n > 5000) win = !win;"));
    let save = dir.path().join("found");
    let r = sgcheck(&[
        "audit",
        "hdu3032",
        "--seed",
        "3",
        "--time",
        "60",
        "--save",
        save.to_str().unwrap(),
        "--",
        src.to_str().unwrap(),
    ]);
    assert_eq!(r.code, 1, "{}\n{}", r.stdout, r.stderr);
    assert!(r.stdout.contains("minimal input (1 case"), "{}", r.stdout);
    // 5001 piles of one stone: 10 KB on one line, abbreviated in the text report.
    assert!(r.stdout.contains("--save keeps it whole"), "{}", r.stdout);
    assert!(r.stdout.len() < 4000, "{} bytes of report", r.stdout.len());
    let saved = std::fs::read_to_string(save.join("hdu3032.in")).unwrap();
    assert_eq!(saved, format!("1\n5001\n{}1\n", "1 ".repeat(5000)));
}

/// poj1704 in C: the staircase, pieces paired from the last one given; `SORT` sorts
/// the cells first, `RESET` clears the sum between cases, `FLIP` is a condition on
/// the case's `n` and sum `x` that turns the answer.
fn staircase(sort: bool, reset: bool, flip: &str) -> String {
    format!(
        r#"#include <stdio.h>
int main(void) {{
    int t, c[1000];
    long x = 0;
    if (scanf("%d", &t) != 1) return 1;
    while (t--) {{
        int n;
        if (scanf("%d", &n) != 1) return 1;
        for (int i = 0; i < n; i++) if (scanf("%d", &c[i]) != 1) return 1;
        if ({sort})
            for (int i = 1; i < n; i++)
                for (int j = i; j > 0 && c[j - 1] > c[j]; j--) {{
                    int s = c[j]; c[j] = c[j - 1]; c[j - 1] = s;
                }}
        if ({reset}) x = 0;
        for (int i = n - 1; i >= 0; i -= 2) x ^= c[i] - (i > 0 ? c[i - 1] : 0) - 1;
        puts((x != 0) != ({flip}) ? "Georgia will win" : "Bob will win");
    }}
    return 0;
}}
"#,
        sort = i32::from(sort),
        reset = i32::from(reset),
    )
}

/// The minimality claim of a report, checked against its JSON: the heading says
/// `minimal` only when `kind` is `minimal` and `complete`, and a claim that no smaller
/// input fails covers inputs of several cases whenever the format allows them.
fn claim_is_honest(text: &str, json: &Value) {
    let m = &json["counterexample"]["minimality"];
    let proved = m["kind"] == "minimal" && m["complete"] == true;
    let heading = text
        .lines()
        .find(|l| l.contains(" input ("))
        .expect("a heading");
    assert_eq!(heading.starts_with("minimal input"), proved, "{text}\n{m}");
    if text.contains("no smaller input fails") {
        assert!(proved, "{text}\n{m}");
        assert_eq!(m["several_cases"], true, "{text}\n{m}");
    }
}

#[test]
fn an_order_bug_of_a_distinct_list_shrinks_to_the_unsorted_pair() {
    if !have("gcc", "--version") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let src = write(dir.path(), "order.c", &staircase(false, true, "0"));
    let src = src.to_str().unwrap();
    let args = ["audit", "poj1704", "--seed", "5", "--time", "30"];
    let r = sgcheck(&[&args[..], &["--json", "--", src]].concat());
    let (min, j) = minimal(&r);
    // `3 2` is 1-minimal (no one step fails); `2 1` is smaller and fails too.
    assert_eq!(min, "1\n2\n2 1\n", "{j}");
    let m = &j["counterexample"]["minimality"];
    assert_eq!(m["kind"], "minimal", "{m}");
    assert_eq!(m["complete"], true, "{m}");
    assert_eq!(m["size"], 2, "{m}");
    let text = sgcheck(&[&args[..], &["--", src]].concat());
    claim_is_honest(&text.stdout, &j);
    assert!(
        text.stdout.contains("minimal input (1 case"),
        "{}",
        text.stdout
    );
}

#[test]
fn a_sum_kept_between_cases_is_found_below_a_one_case_failure() {
    if !have("gcc", "--version") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    // Sorted, but the sum is kept from case to case; and any case of four cells or
    // more is answered the wrong way round, so one case fails as well.
    let src = write(dir.path(), "stale.c", &staircase(true, false, "n >= 4"));
    let src = src.to_str().unwrap();
    let input = write(dir.path(), "four.in", "1\n4\n1 2 3 4\n");
    let input = input.to_str().unwrap();
    let args = ["audit", "poj1704", "--time", "30", "--input", input];
    let r = sgcheck(&[&args[..], &["--json", "--", src]].concat());
    let (min, j) = minimal(&r);
    // Four cells are the fewest one case fails with (size 9); two cases `2` and `1`
    // (size 2: the second case is one more) fail too: the second answer keeps the
    // first case's sum.
    assert_eq!(min, "2\n1\n2\n1\n1\n", "{j}");
    let text = sgcheck(&[&args[..], &["--", src]].concat());
    claim_is_honest(&text.stdout, &j);
    assert_eq!(j["counterexample"]["minimality"]["size"], 2, "{j}");
}

#[test]
fn parity_bug_shrinks_to_2() {
    if !have("g++", "--version") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let src = write(dir.path(), "even.cpp", &lasker("if (even) win = !win;"));
    let src = src.to_str().unwrap();
    // A generous --time: shrinking has up to half of it, and a loaded machine must
    // not turn the answer into "not minimal".
    let r = sgcheck(&[
        "audit", "hdu3032", "--json", "--seed", "1", "--time", "60", "--", src,
    ]);
    assert_eq!(minimal(&r).0, "1\n1\n2\n");
    let input = write(dir.path(), "odd.in", "1\n3\n999999999 1000000000 77777\n");
    let r = sgcheck(&[
        "audit",
        "hdu3032",
        "--json",
        "--time",
        "60",
        "--input",
        input.to_str().unwrap(),
        "--",
        src,
    ]);
    assert_eq!(minimal(&r).0, "1\n1\n2\n");
}

#[test]
fn slow_program_with_a_wrong_entry_is_a_wrong_answer_not_a_batch_time_out() {
    if !have("g++", "--version") {
        return;
    }
    // hdu2897 reads cases to the end of input; sgcheck may put 10,000 in one input,
    // 5 s of work at 0.5 ms each, far past a 1 s limit. The wrong entry (n = 45) comes
    // only after some 2000 tiny cases, when batches of growing size would be past the
    // limit unless sized from the time measured (without that the audit reports a
    // time-out of a batch of hundreds of cases).
    let dir = tempfile::tempdir().unwrap();
    let src = write(
        dir.path(),
        "slow.cpp",
        r#"#include <cstdio>
int main() {
    long long n, p, q;
    while (scanf("%lld %lld %lld", &n, &p, &q) == 3) {
        volatile long long work = 0;
        for (int i = 0; i < 500000; i++) work += i;  // a table rebuilt per case
        long long r = n % (p + q);
        bool lose = r >= 1 && r <= p;
        if (n == 45) lose = !lose;  // one wrong entry
        puts(lose ? "LOST" : "WIN");
    }
}
"#,
    );
    let r = sgcheck(&[
        "audit",
        "hdu2897",
        "--json",
        "--seed",
        "1",
        "--time",
        "60",
        "--timeout",
        "1",
        "--",
        src.to_str().unwrap(),
    ]);
    let (min, j) = minimal(&r);
    assert_eq!(j["verdict"], "wrong-answer", "{j}");
    assert_eq!(min, "45 1 1\n");
    assert!(
        j["failures"]
            .as_array()
            .unwrap()
            .iter()
            .all(|f| f["verdict"] != "time-limit"),
        "{j}"
    );
}

/// hdu3032 with the values in `int`: `s + 1` overflows at 2^31 - 1. The bits come out
/// right at -O2 (the XOR is taken in `unsigned`), so only a sanitizer sees it.
const UB: &str = r#"#include <cstdio>
int sg(int s) {
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
        unsigned x = 0;
        for (int i = 0; i < n; i++) {
            int s;
            if (scanf("%d", &s) != 1) return 1;
            x ^= (unsigned)sg(s);
        }
        puts(x ? "Alice" : "Bob");
    }
}
"#;

#[test]
fn undefined_behaviour_hidden_by_o2_is_found_with_sanitize() {
    if !have("g++", "--version") {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let src = write(dir.path(), "ub.cpp", UB);
    let src = src.to_str().unwrap();
    let r = sgcheck(&[
        "audit", "hdu3032", "--json", "--seed", "5", "--time", "4", "--", src,
    ]);
    assert_eq!(r.code, 0, "{}\n{}", r.stdout, r.stderr);
    let j = r.json();
    assert_eq!(j["verdict"], "ok");
    assert_eq!(j["build"]["sanitized"], false);
    assert!(j["build"]["compile"]
        .as_str()
        .unwrap()
        .starts_with("g++ -O2 -std=gnu++17 -DONLINE_JUDGE"));

    let r = sgcheck(&[
        "audit",
        "hdu3032",
        "--json",
        "--seed",
        "5",
        "--time",
        "30",
        "--sanitize",
        "--",
        src,
    ]);
    let (min, j) = minimal(&r);
    assert_eq!(j["verdict"], "runtime-error");
    assert_eq!(min, "1\n1\n2147483647\n");
    let detail = j["counterexample"]["detail"].as_str().unwrap();
    assert!(
        detail.contains(
            "signed integer overflow: 2147483647 + 1 cannot be represented in type 'int'"
        ),
        "{detail}"
    );
    assert_eq!(j["build"]["sanitized"], true);
    let reproduce = j["reproduce"].as_str().unwrap();
    assert!(reproduce.contains("--sanitize -- "), "{reproduce}");
    assert!(!reproduce.contains("--timeout"), "{reproduce}");
}

#[test]
fn compile_errors_and_misused_sanitize_exit_2() {
    let dir = tempfile::tempdir().unwrap();
    if have("g++", "--version") {
        let src = write(dir.path(), "bad.cpp", "int main() { return x; }\n");
        let r = sgcheck(&["audit", "p2197", "--", src.to_str().unwrap()]);
        assert_eq!(r.code, 2, "{}", r.stderr);
        assert!(r.stderr.contains("does not compile"), "{}", r.stderr);
        assert!(r.stderr.contains("was not declared"), "{}", r.stderr);
        assert!(
            r.stderr
                .contains("$ g++ -O2 -std=gnu++17 -DONLINE_JUDGE -o bad "),
            "{}",
            r.stderr
        );
    }
    let py = write(dir.path(), "sol.py", "print('Yes')\n");
    let r = sgcheck(&["audit", "p2197", "--sanitize", "--", py.to_str().unwrap()]);
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(
        r.stderr.contains("--sanitize works for C, C++ and Rust"),
        "{}",
        r.stderr
    );
    let r = sgcheck(&["audit", "p2197", "--sanitize", "--", "true"]);
    assert_eq!(r.code, 2, "{}", r.stderr);
    let r = sgcheck(&["audit", "p2197", "--", "missing.cpp"]);
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(r.stderr.contains("no such source file"), "{}", r.stderr);
    if have("python3", "--version") {
        let bad = write(dir.path(), "bad.py", "def f(:\n");
        let r = sgcheck(&["audit", "p2197", "--", bad.to_str().unwrap()]);
        assert_eq!(r.code, 2, "{}", r.stderr);
        assert!(r.stderr.contains("SyntaxError"), "{}", r.stderr);
    }
}

/// A correct p2197 (Nim) solution in each language, audited on 100 cases.
#[test]
fn c_rust_python_and_java_sources_are_built_and_audited() {
    let dir = tempfile::tempdir().unwrap();
    let sources = [
        (
            "gcc",
            "nim.c",
            r#"#include <stdio.h>
int main(void) {
    int t, n, x, p;
    if (scanf("%d", &t) != 1) return 1;
    while (t--) {
        scanf("%d", &n);
        x = 0;
        while (n--) { scanf("%d", &p); x ^= p; }
        puts(x ? "Yes" : "No");
    }
    return 0;
}
"#,
        ),
        (
            "rustc",
            "nim.rs",
            r#"use std::io::Read;
fn main() {
    let mut s = String::new();
    std::io::stdin().read_to_string(&mut s).unwrap();
    let mut it = s.split_ascii_whitespace().map(|t| t.parse::<u64>().unwrap());
    let t = it.next().unwrap();
    for _ in 0..t {
        let n = it.next().unwrap();
        let x = (0..n).fold(0, |a, _| a ^ it.next().unwrap());
        println!("{}", if x != 0 { "Yes" } else { "No" });
    }
}
"#,
        ),
        (
            "python3",
            "nim.py",
            r#"import sys
data = sys.stdin.read().split()
t, i = int(data[0]), 1
for _ in range(t):
    n = int(data[i]); i += 1
    x = 0
    for v in data[i:i + n]:
        x ^= int(v)
    i += n
    print("Yes" if x else "No")
"#,
        ),
        (
            "javac",
            "Main.java",
            r#"import java.io.*;
import java.util.*;
public class Main {
    public static void main(String[] args) throws IOException {
        StreamTokenizer in = new StreamTokenizer(new BufferedInputStream(System.in));
        in.nextToken();
        int t = (int) in.nval;
        StringBuilder out = new StringBuilder();
        while (t-- > 0) {
            in.nextToken();
            int n = (int) in.nval, x = 0;
            for (int i = 0; i < n; i++) { in.nextToken(); x ^= (int) in.nval; }
            out.append(x != 0 ? "Yes" : "No").append('\n');
        }
        System.out.print(out);
    }
}
"#,
        ),
    ];
    for (tool, name, body) in sources {
        if !have(tool, "--version") {
            continue;
        }
        let src = write(dir.path(), name, body);
        let r = sgcheck(&[
            "audit",
            "p2197",
            "--json",
            "--seed",
            "2",
            "--cases",
            "100",
            "--time",
            "120",
            "--",
            src.to_str().unwrap(),
        ]);
        assert_eq!(r.code, 0, "{name}: {}\n{}", r.stdout, r.stderr);
        let j = r.json();
        assert_eq!(j["verdict"], "ok", "{name}");
        assert_eq!(j["search_cases"], 100, "{name}");
        assert_eq!(j["command"], src.to_str().unwrap(), "{name}");
    }
}
