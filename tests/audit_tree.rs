//! `sgcheck audit` catches the mistakes of hdu3094 (Green Hackenbush on a tree) in
//! real contest programs: C++ solutions written here, compiled with `g++ -O2` into a
//! temporary directory, and audited through the built binary.
//!
//! - adjacency lists not cleared between cases (shows only with two cases);
//! - edges treated as directed (u taken as the parent of v);
//! - recursion as deep as the tree: a recursive DFS on a path of 10^5 vertices from
//!   the root overflows a 1 MiB stack (`--stack-limit 1M`, judges running Windows),
//!   and with a larger frame the usual 8 MiB of Linux too.
//!
//! Every audit has a fixed seed. After every audit no process of the test's directory
//! may be left running. Without g++ the tests say so and pass.

use serde_json::Value;
use std::process::{Command, Stdio};

mod workshop;
use workshop::*;

/// Cases of an audit that should find nothing (it stops at the count, however
/// loaded the machine).
const OK_CASES: u64 = 5000;
/// Budget of an audit that should find a failure (it stops there, long before).
const BUG_TIME: &str = "20";

/// A correct hdu3094 solution (see `workshop::programs`).
const CORRECT: &str = programs::HDU3094_CORRECT;

const SAMPLE_IN: &str =
    "3\n3\n1 2\n2 3\n3\n1 2\n1 3\n10\n6 2\n4 3\n8 4\n9 5\n8 6\n2 7\n5 8\n1 9\n6 10\n";
const SAMPLE_OUT: &str = "Alice\nBob\nAlice\n";

/// `sgcheck audit hdu3094 --seed <seed> --time <time> <extra> --json -- <exe>`, with
/// the same checks as [`Workshop::audit`] (exit status, nothing left running).
fn audit_with(w: &Workshop, seed: u64, time: &str, extra: &[&str], exe: &std::path::Path) -> Value {
    let seed = seed.to_string();
    let mut args = vec![
        "audit", "hdu3094", "--seed", &seed, "--time", time, "--json",
    ];
    args.extend_from_slice(extra);
    args.push("--");
    args.push(exe.to_str().unwrap());
    let out = Command::new(env!("CARGO_BIN_EXE_sgcheck"))
        .args(&args)
        .stdin(Stdio::null())
        .output()
        .expect("runs sgcheck");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let report: Value = serde_json::from_str(&stdout).unwrap_or_else(|e| {
        panic!(
            "bad JSON ({e}):\n{stdout}\n{}",
            String::from_utf8_lossy(&out.stderr)
        )
    });
    let want = if report["verdict"] == "ok" { 0 } else { 1 };
    assert_eq!(out.status.code(), Some(want), "{stdout}");
    assert_nothing_left(w.path());
    report
}

/// The cases of an hdu3094 input: per case its vertex count and edges.
fn cases_of(input: &str) -> Vec<(usize, Vec<(u64, u64)>)> {
    let mut it = input
        .split_ascii_whitespace()
        .map(|x| x.parse::<u64>().unwrap());
    let t = it.next().unwrap();
    (0..t)
        .map(|_| {
            let n = it.next().unwrap() as usize;
            let edges = (1..n)
                .map(|_| (it.next().unwrap(), it.next().unwrap()))
                .collect();
            (n, edges)
        })
        .collect()
}

/// The depth of the deepest vertex below vertex 1.
fn depth(n: usize, edges: &[(u64, u64)]) -> usize {
    let mut adj = vec![Vec::new(); n + 1];
    for &(u, v) in edges {
        adj[u as usize].push(v as usize);
        adj[v as usize].push(u as usize);
    }
    let mut d = vec![usize::MAX; n + 1];
    d[1] = 0;
    let mut queue = std::collections::VecDeque::from([1]);
    let mut deepest = 0;
    while let Some(v) = queue.pop_front() {
        deepest = deepest.max(d[v]);
        for &w in &adj[v] {
            if d[w] == usize::MAX {
                d[w] = d[v] + 1;
                queue.push_back(w);
            }
        }
    }
    deepest
}

#[test]
fn correct_solution_passes() {
    let Some(w) = Workshop::new() else { return };
    let exe = w.compile("tree_ok", CORRECT, &[]);
    assert_eq!(run(&exe, SAMPLE_IN), SAMPLE_OUT);
    let r = w.audit_cases("hdu3094", 5, OK_CASES, &exe);
    assert_eq!(r["verdict"], "ok", "{r}");
    assert!(r["cases"].as_u64().unwrap() > 1000, "{r}");
}

/// Adjacency lists kept from the previous case: every case alone is answered right,
/// so the minimal input has two cases.
#[test]
fn adjacency_not_cleared_between_cases() {
    let Some(w) = Workshop::new() else { return };
    let src = variant(
        CORRECT,
        "        for (int i = 1; i <= n; i++) adj[i].clear();\n",
        "",
    );
    let exe = w.compile("tree_stale", &src, &[]);
    let r = w.audit_exe("hdu3094", 5, BUG_TIME, &exe);
    assert_eq!(r["verdict"], "wrong-answer", "{r}");
    let c = counterexample(&r);
    assert_eq!(c["cases"], 2, "{r}");
    let input = c["input"].as_str().unwrap();
    let cases = cases_of(input);
    assert!(cases.iter().all(|(n, _)| *n <= 4), "{input}");
    // Alone, each case is answered right by the same program.
    let correct = w.compile("tree_ref", CORRECT, &[]);
    for (n, edges) in &cases {
        let mut one = format!("1\n{n}\n");
        for (u, v) in edges {
            one.push_str(&format!("{u} {v}\n"));
        }
        assert_eq!(run(&exe, &one), run(&correct, &one), "{one}");
    }
}

/// Only `u -> v` stored: u is taken as the parent. The smallest tree it gets wrong is
/// one edge written child first, `2 1` (the root seems to have no child).
#[test]
fn edges_treated_as_directed() {
    let Some(w) = Workshop::new() else { return };
    let src = variant(CORRECT, "            adj[v].push_back(u);\n", "");
    let exe = w.compile("tree_directed", &src, &[]);
    let r = w.audit_exe("hdu3094", 5, BUG_TIME, &exe);
    assert_eq!(r["verdict"], "wrong-answer", "{r}");
    let c = counterexample(&r);
    assert_eq!(c["input"], "1\n2\n2 1\n", "{r}");
    assert_eq!(c["expected"], "Alice\n");
    assert_eq!(c["actual"], "Bob\n");
}

/// A recursive DFS with a small frame: right on every input it can finish, and on a
/// deep path it needs more than 1 MiB of stack. With `--stack-limit 1M` (how a judge
/// running Windows, such as HDU's, runs it) the audit finds the crash on the deep
/// trees of the largest inputs and shrinks it to a single path whose length is what
/// the crash needs, far below the 10^5 vertices it started from.
#[test]
fn deep_recursion_overflows_a_one_mib_stack() {
    let Some(w) = Workshop::new() else { return };
    let src = programs::hdu3094_recursive(16);
    let exe = w.compile("tree_recursive", &src, &[]);
    assert_eq!(run(&exe, SAMPLE_IN), SAMPLE_OUT);
    let r = audit_with(&w, 5, "60", &["--stack-limit", "1M"], &exe);
    assert_eq!(r["verdict"], "runtime-error", "{r}");
    let c = &r["counterexample"];
    assert_eq!(c["cases"], 1, "{r}");
    let cases = cases_of(c["input"].as_str().unwrap());
    let (n, edges) = &cases[0];
    let d = depth(*n, edges);
    // The program is right otherwise: only depth makes it fail. The shrinker keeps
    // the deepest path alone and bisects its length.
    assert!(d >= 1000, "depth {d} of {n} vertices");
    assert_eq!(
        d + 1,
        *n,
        "not a path from the root: {n} vertices, depth {d}"
    );
    assert!(*n < 100_000, "not shrunk: {n} vertices");
    eprintln!(
        "1 MiB stack: crash shrunk to {n} vertices of depth {d} in {} shrink runs",
        r["shrink_runs"]
    );
    // The shrunk input runs fine on a stack large enough.
    let input = c["input"].as_str().unwrap();
    let out = run(&exe, input);
    assert!(out == "Alice\n" || out == "Bob\n", "{out}");
}

/// The path `1 2, 2 3, ...` of `n` vertices as one hdu3094 case.
fn path_input(n: usize) -> String {
    let mut s = format!("1\n{n}\n");
    for v in 1..n {
        s.push_str(&format!("{v} {}\n", v + 1));
    }
    s
}

/// Whether `exe` crashes on `input` with its stack limited to `kib` KiB (through the
/// shell's `ulimit -s`, the environment cleared as the audit clears it).
fn crashes_with_stack(exe: &std::path::Path, input: &str, kib: u64) -> bool {
    use std::io::Write;
    let mut child = Command::new("/bin/sh")
        .arg("-c")
        .arg(format!("ulimit -s {kib} && exec \"$0\""))
        .arg(exe)
        .env_clear()
        .env("PATH", "/usr/bin:/bin")
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("runs the program under sh");
    // A crash may close the pipe before the whole input is written.
    let _ = child.stdin.take().unwrap().write_all(input.as_bytes());
    !child.wait().unwrap().success()
}

/// The same DFS with a frame of a few hundred bytes overflows even 8 MiB, the usual
/// Linux default (given explicitly here, since the audit's default is the stack limit
/// of the machine it runs on). The audit shrinks the crash along the shape that
/// failed: the deepest path alone, then its length bisected, down to a path within 1%
/// of the shortest path that crashes at 8 MiB, which the test measures by bisecting
/// the path length with the same program run directly.
#[test]
fn deep_recursion_with_a_large_frame_overflows_eight_mib() {
    let Some(w) = Workshop::new() else { return };
    let src = programs::hdu3094_recursive(256);
    let exe = w.compile("tree_recursive_fat", &src, &[]);
    let r = audit_with(&w, 5, "60", &["--stack-limit", "8M"], &exe);
    assert_eq!(r["verdict"], "runtime-error", "{r}");
    let c = &r["counterexample"];
    assert_eq!(c["cases"], 1, "{r}");
    let input = c["input"].as_str().unwrap();
    let cases = cases_of(input);
    let (n, edges) = &cases[0];
    let d = depth(*n, edges);
    // A path from the root: as deep as it has edges.
    assert_eq!(
        d + 1,
        *n,
        "not a path from the root: {n} vertices, depth {d}"
    );
    // The true threshold: the fewest vertices of a path that crash at 8 MiB.
    let (mut lo, mut hi) = (1usize, 100_000usize);
    assert!(crashes_with_stack(&exe, &path_input(hi), 8192));
    assert!(!crashes_with_stack(&exe, &path_input(lo), 8192));
    while hi - lo > 1 {
        let mid = lo + (hi - lo) / 2;
        if crashes_with_stack(&exe, &path_input(mid), 8192) {
            hi = mid;
        } else {
            lo = mid;
        }
    }
    let gap = (*n as f64 - hi as f64).abs() / hi as f64;
    eprintln!(
        "8 MiB stack: crash shrunk to a path of {n} vertices in {} shrink runs; \
         the shortest crashing path has {hi} ({:.3}% apart)",
        r["shrink_runs"],
        100.0 * gap
    );
    assert!(gap <= 0.01, "{n} vertices, threshold {hi}");
    assert_nothing_left(w.path());
}
