//! Misère heap games that play like misère Nim are answered at their limits: eating a
//! run of a row (`0.[7] misere`) answers 100 rows of 100 tokens, agreeing with a
//! misère minimax written here on small positions; misère Kayles (`0.77 misere`), which
//! does not, is refused past the search's reach, naming the heap that breaks the rule.

mod workshop;

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use workshop::{sgcheck, text, Draw};

fn data(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/misere")
        .join(name)
}

/// Misère "eat a run" from the rules: a move removes one or more adjacent tokens of
/// one row (leaving up to two rows); whoever cannot move wins.
fn eat_a_run_first_wins(rows: &[u64], memo: &mut HashMap<Vec<u64>, bool>) -> bool {
    let mut key: Vec<u64> = rows.iter().copied().filter(|&r| r > 0).collect();
    key.sort_unstable();
    if key.is_empty() {
        return true;
    }
    if let Some(&w) = memo.get(&key) {
        return w;
    }
    let mut win = false;
    'all: for i in 0..key.len() {
        let n = key[i];
        for start in 0..n {
            for end in start + 1..=n {
                let mut next = key.clone();
                next[i] = start;
                next.push(n - end);
                if !eat_a_run_first_wins(&next, memo) {
                    win = true;
                    break 'all;
                }
            }
        }
    }
    memo.insert(key, win);
    win
}

fn case_line(rows: &[u64]) -> String {
    let v: Vec<String> = rows.iter().map(u64::to_string).collect();
    format!("{} {}", rows.len(), v.join(" "))
}

fn solve(decl: &Path, cases: &[Vec<u64>]) -> std::process::Output {
    let mut input = format!("{}\n", cases.len());
    for c in cases {
        input.push_str(&case_line(c));
        input.push('\n');
    }
    sgcheck(&["solve", "--problem", decl.to_str().unwrap()], &input)
}

#[test]
fn eating_a_run_agrees_with_minimax_on_small_positions() {
    let mut cases = Vec::new();
    for a in 1..=7u64 {
        for b in 0..=a {
            for c in 0..=b {
                let rows: Vec<u64> = [a, b, c].into_iter().filter(|&r| r > 0).collect();
                cases.push(rows);
            }
        }
    }
    let out = solve(&data("eat_a_run.toml"), &cases);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let mut memo = HashMap::new();
    let got = text(&out.stdout);
    let lines: Vec<&str> = got.lines().collect();
    assert_eq!(lines.len(), cases.len());
    for (rows, line) in cases.iter().zip(lines) {
        let want = if eat_a_run_first_wins(rows, &mut memo) {
            "First"
        } else {
            "Second"
        };
        assert_eq!(line, want, "rows {rows:?}");
    }
}

#[test]
fn eating_a_run_answers_a_hundred_rows_of_a_hundred() {
    // Rows of every length 1..=100, shuffled into 100 cases of 100 rows, and cases
    // built to be lost: misère Nim on the lengths (the minimax above agrees with it on
    // every small position: each length's normal-play value is the length).
    let mut d = Draw(0x2545_F491_4F6C_DD1D);
    let mut cases: Vec<Vec<u64>> = (0..100)
        .map(|_| (0..100).map(|_| d.within(1, 100)).collect())
        .collect();
    // Lost ones: two equal halves (XOR 0 with rows past 1), and 99 rows of 1 and a 1.
    for c in cases.iter_mut().take(30) {
        let half: Vec<u64> = c[..50].to_vec();
        c[50..].copy_from_slice(&half);
    }
    cases[30] = vec![1; 99];
    let out = solve(&data("eat_a_run.toml"), &cases);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let got = text(&out.stdout);
    let lines: Vec<&str> = got.lines().collect();
    assert_eq!(lines.len(), 100);
    for (rows, line) in cases.iter().zip(lines) {
        let xor = rows.iter().fold(0, |a, r| a ^ r);
        let big = rows.iter().any(|&r| r >= 2);
        let first = if big { xor != 0 } else { xor == 0 };
        assert_eq!(line, if first { "First" } else { "Second" }, "{rows:?}");
    }
}

#[test]
fn misere_kayles_is_searched_and_refused_past_the_search_by_name() {
    let decl = data("kayles_misere.toml");
    // Within the search: Kayles rows of 1, 1 1 and 4 4 (brute force in
    // tests/declared_games.rs agrees on misère Kayles).
    let out = solve(&decl, &[vec![1], vec![1, 1], vec![4, 4]]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout), "Second\nFirst\nFirst\n");
    let out = solve(&decl, &[vec![30, 30]]);
    assert_eq!(out.status.code(), Some(2));
    let err = text(&out.stderr);
    assert!(
        err.contains("not tame like misère Nim: heap 5 (g = 4)") && err.contains("totals 60"),
        "{err}"
    );
}
