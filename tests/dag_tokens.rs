//! Tokens on a directed acyclic graph (`dag-tokens`): the fast side (vertex values by
//! mex over successors, XOR over tokens) and the oracle (minimax over token
//! multisets) through `sgcheck check`, both against a brute force written here; a
//! cycle is refused naming a vertex on it; `sgcheck sequence dag-tokens` prints the
//! vertex values.

use serde_json::Value;
use sgcheck::games::dag_tokens::DagValues;
use std::collections::HashMap;
use std::process::Command;

/// A small deterministic generator (no shared code with sgcheck's).
struct Lcg(u64);

impl Lcg {
    fn next(&mut self, below: u64) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (self.0 >> 33) % below
    }
}

/// A random DAG on 1..=n: edges go from earlier to later in a random order of the
/// vertices, so any labelling and any edge direction shows up.
fn random_dag(rng: &mut Lcg, n: usize) -> Vec<(u64, u64)> {
    let mut order: Vec<u64> = (1..=n as u64).collect();
    for i in (1..n).rev() {
        order.swap(i, rng.next(i as u64 + 1) as usize);
    }
    let mut edges = Vec::new();
    for i in 0..n {
        for j in i + 1..n {
            if rng.next(3) == 0 {
                edges.push((order[i], order[j]));
            }
        }
    }
    edges
}

/// Whether the player to move wins: plain minimax over sorted token lists.
fn wins(edges: &[(u64, u64)], tokens: &[u64], memo: &mut HashMap<Vec<u64>, bool>) -> bool {
    let mut key = tokens.to_vec();
    key.sort_unstable();
    if let Some(&w) = memo.get(&key) {
        return w;
    }
    let mut w = false;
    'all: for i in 0..key.len() {
        for &(u, v) in edges {
            if u == key[i] {
                let mut next = key.clone();
                next[i] = v;
                if !wins(edges, &next, memo) {
                    w = true;
                    break 'all;
                }
            }
        }
    }
    memo.insert(key, w);
    w
}

fn rules_text(n: usize, edges: &[(u64, u64)]) -> String {
    let e: Vec<String> = edges.iter().map(|(u, v)| format!("{u}>{v}")).collect();
    format!("{n};{}", e.join(","))
}

#[test]
fn check_agrees_with_brute_force_on_random_dags() {
    let mut rng = Lcg(7);
    let (mut won, mut lost) = (0, 0);
    for round in 0..60 {
        let n = 1 + rng.next(7) as usize;
        let edges = random_dag(&mut rng, n);
        let k = 1 + rng.next(3) as usize;
        let tokens: Vec<u64> = (0..k).map(|_| 1 + rng.next(n as u64)).collect();
        let pos: Vec<String> = tokens.iter().map(u64::to_string).collect();
        let out = Command::new(env!("CARGO_BIN_EXE_sgcheck"))
            .args(["check", "dag-tokens", &pos.join(","), "--rules"])
            .arg(rules_text(n, &edges))
            .arg("--json")
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(0), "round {round}: {stderr}");
        let v: Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(v["agree"], true, "round {round}: {v}");
        let w = wins(&edges, &tokens, &mut HashMap::new());
        let fast = v["fast"].as_str().unwrap();
        assert_eq!(fast.starts_with("win"), w, "round {round}: {v}");
        if w {
            won += 1
        } else {
            lost += 1
        }
    }
    assert!(won > 5 && lost > 5, "{won} won, {lost} lost");
}

#[test]
fn vertex_values_against_brute_force_and_a_planted_bug() {
    // The library's values decide single tokens as the brute force does; a planted
    // wrong value (a vertex's out-degree instead of the mex) is caught.
    let mut rng = Lcg(11);
    let mut planted_caught = false;
    for _ in 0..100 {
        let n = 1 + rng.next(8) as usize;
        let edges = random_dag(&mut rng, n);
        let values = DagValues::new(n, &edges).expect("acyclic");
        let mut memo = HashMap::new();
        for a in 1..=n as u64 {
            for b in 1..=n as u64 {
                let lost = !wins(&edges, &[a, b], &mut memo);
                assert_eq!(
                    values.value(a) == values.value(b),
                    lost,
                    "{edges:?} {a} {b}"
                );
                let degree = |u: u64| edges.iter().filter(|e| e.0 == u).count();
                if (degree(a) == degree(b)) != lost {
                    planted_caught = true;
                }
            }
        }
    }
    assert!(
        planted_caught,
        "the planted out-degree values were never caught"
    );
}

#[test]
fn cycles_and_bad_vertices_are_refused() {
    for (rules, pos, what) in [
        ("3;1>2,2>3,3>2", "1", "cycle through vertex 2"),
        ("2;1>1", "1", "cycle through vertex 1"),
        ("3;1>4", "1", "vertex 4 is not in 1..=3"),
        ("3;1>2", "5", "not in 1..=3"),
        ("3;1-2", "1", "expected u>v"),
    ] {
        let out = Command::new(env!("CARGO_BIN_EXE_sgcheck"))
            .args(["check", "dag-tokens", pos, "--rules", rules])
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{rules}: {err}");
        assert!(err.contains(what), "{rules}: {err}");
        assert!(!err.contains("panicked"), "{rules}: {err}");
    }
}

/// The value of one token on `u`, by mex over successors, written here.
fn mex_value(edges: &[(u64, u64)], u: u64, memo: &mut HashMap<u64, u64>) -> u64 {
    if let Some(&g) = memo.get(&u) {
        return g;
    }
    let seen: Vec<u64> = edges
        .iter()
        .filter(|e| e.0 == u)
        .map(|e| mex_value(edges, e.1, memo))
        .collect();
    let g = (0..).find(|x| !seen.contains(x)).unwrap();
    memo.insert(u, g);
    g
}

/// `sgcheck sequence dag-tokens --rules GRAPH`: the values of vertices 1..=n.
fn sequence(rules: &str) -> (Option<i32>, Vec<(u64, u64)>, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_sgcheck"))
        .args(["sequence", "dag-tokens", "--rules", rules])
        .output()
        .unwrap();
    let rows = String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter(|l| !l.starts_with('#'))
        .map(|l| {
            let (v, g) = l.split_once(' ').unwrap();
            (v.parse().unwrap(), g.parse().unwrap())
        })
        .collect();
    (
        out.status.code(),
        rows,
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn sequence_prints_every_vertex_value() {
    let mut rng = Lcg(23);
    let mut nonzero_above_one = 0;
    for round in 0..40 {
        let n = 1 + rng.next(9) as usize;
        let edges = random_dag(&mut rng, n);
        let (code, rows, err) = sequence(&rules_text(n, &edges));
        assert_eq!(code, Some(0), "round {round}: {err}");
        let mut memo = HashMap::new();
        let expected: Vec<(u64, u64)> = (1..=n as u64)
            .map(|u| (u, mex_value(&edges, u, &mut memo)))
            .collect();
        assert_eq!(rows, expected, "round {round}: {edges:?}");
        // One token on a vertex of value 0 loses, by minimax.
        for &(u, g) in &rows {
            assert_eq!(g == 0, !wins(&edges, &[u], &mut HashMap::new()));
            if g > 1 {
                nonzero_above_one += 1;
            }
        }
    }
    assert!(nonzero_above_one > 5, "{nonzero_above_one}");
    // The graph may come from a file (a large one does not fit a command line).
    let n = 3000u64;
    let edges: Vec<(u64, u64)> = (1..n).map(|u| (u, u + 1)).collect();
    let dir = std::env::temp_dir().join(format!("sgcheck-dag-seq-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("path.txt");
    std::fs::write(&file, rules_text(n as usize, &edges)).unwrap();
    let (code, rows, err) = sequence(file.to_str().unwrap());
    std::fs::remove_dir_all(&dir).unwrap();
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(rows.len(), n as usize);
    // A path: the vertex k steps from the end has value k mod 2.
    assert!(
        rows.iter().all(|&(u, g)| g == (n - u) % 2),
        "{:?}",
        &rows[..5]
    );
    // A cycle is refused.
    let (code, _, err) = sequence("3;1>2,2>3,3>1");
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("cycle"), "{err}");
}
