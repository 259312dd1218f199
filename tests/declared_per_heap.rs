//! Rules parameters per heap, from the input: `[game] range = [1, "limit"]` naming a
//! column of the record field in `position`, so every pile has its own take range
//! (the game `heap-ranges`; `examples/problems/limited_piles.toml`).
//!
//! Everything here is checked against a minimax over whole positions written in this
//! file (no Sprague–Grundy theory): verdicts, best moves, misère play, bounds from two
//! columns and from a case field; a pile of 10^9 with limit 10^9 through the closed
//! form; `verify --problem`, `check heap-ranges`, the `declared_check` fuzz body;
//! `audit` with a right and a planted-wrong C++ program; bad declarations.

mod workshop;

use serde_json::Value;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};
use workshop::{sgcheck, text};

fn example() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/problems/limited_piles.toml")
}

/// A declaration written to a fresh temporary file (removed when dropped).
struct TempDecl(PathBuf);

impl TempDecl {
    fn new(name: &str, body: &str) -> TempDecl {
        let dir =
            std::env::temp_dir().join(format!("sgcheck-per-heap-{}-{name}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let p = dir.join(format!("{name}.toml"));
        std::fs::write(&p, body).unwrap();
        TempDecl(p)
    }
    fn path(&self) -> &Path {
        &self.0
    }
}

impl Drop for TempDecl {
    fn drop(&mut self) {
        if let Some(d) = self.0.parent() {
            let _ = std::fs::remove_dir_all(d);
        }
    }
}

/// A small deterministic generator (xorshift), so the cases are the same every run.
struct Rand(u64);

impl Rand {
    fn below(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0 % n
    }
}

fn solve(decl: &Path, input: &str) -> Vec<String> {
    let out = sgcheck(&["solve", "--problem", decl.to_str().unwrap()], input);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    text(&out.stdout).lines().map(str::to_string).collect()
}

/// A pile: its size and the amounts a move may take from it, lo..=hi.
type Pile = (u64, u64, u64);

/// Minimax over whole positions, straight from the rules: a move takes k tokens from
/// one pile, lo <= k <= hi, 1 <= k <= size. `misere`: who cannot move wins.
struct Minimax {
    misere: bool,
    memo: HashMap<Vec<Pile>, bool>,
}

impl Minimax {
    fn new(misere: bool) -> Minimax {
        Minimax {
            misere,
            memo: HashMap::new(),
        }
    }

    fn moves(pos: &[Pile]) -> Vec<(usize, u64, Vec<Pile>)> {
        let mut out = Vec::new();
        for (i, &(n, lo, hi)) in pos.iter().enumerate() {
            for k in lo.max(1)..=hi.min(n) {
                let mut next = pos.to_vec();
                next[i].0 = n - k;
                out.push((i, k, next));
            }
        }
        out
    }

    fn wins(&mut self, pos: &[Pile]) -> bool {
        let mut key = pos.to_vec();
        key.sort_unstable();
        if let Some(&w) = self.memo.get(&key) {
            return w;
        }
        let moves = Self::moves(&key);
        let win = if moves.is_empty() {
            self.misere
        } else {
            moves.iter().any(|(_, _, next)| !self.wins(next))
        };
        self.memo.insert(key, win);
        win
    }

    /// The first winning move (pile from 1, amount), piles in input order, amounts
    /// ascending.
    fn best(&mut self, pos: &[Pile]) -> Option<(usize, u64)> {
        Self::moves(pos)
            .into_iter()
            .find(|(_, _, next)| !self.wins(next))
            .map(|(i, k, _)| (i + 1, k))
    }
}

#[test]
fn limited_piles_answer_as_minimax_does() {
    let mut rng = Rand(0x2545_f491_4f6c_dd1d);
    let mut mm = Minimax::new(false);
    let mut input = String::new();
    let mut expected = Vec::new();
    for _ in 0..150 {
        let n = 1 + rng.below(3);
        let piles: Vec<Pile> = (0..n)
            .map(|_| (1 + rng.below(10), 1, 1 + rng.below(5)))
            .collect();
        input.push_str(&format!("{n}\n"));
        for (a, _, l) in &piles {
            input.push_str(&format!("{a} {l}\n"));
        }
        expected.push(if mm.wins(&piles) { "First" } else { "Second" }.to_string());
    }
    assert_eq!(solve(&example(), &input), expected, "{input}");
    assert!(expected.contains(&"First".into()) && expected.contains(&"Second".into()));
    // The column named with its field reads the same.
    let base = std::fs::read_to_string(example()).unwrap();
    let dotted = TempDecl::new(
        "dotted",
        &base.replace("[1, \"limit\"]", "[1, \"piles.limit\"]"),
    );
    assert_eq!(solve(dotted.path(), &input), expected);
}

#[test]
fn a_pile_of_a_billion_is_answered_by_the_closed_form_fast() {
    // 10^9 with limit 10^9 is worth 10^9 mod (10^9 + 1) = 10^9: won; two of them
    // cancel; 10^9 with limit 10^9 - 1 is worth 0 and 10^9 - 1 with limit 10^9 - 1 is
    // worth 10^9 - 1: won; 999999999 with limit 2 is worth 999999999 mod 3 = 0.
    let start = Instant::now();
    let got = solve(
        &example(),
        "1\n1000000000 1000000000\n\
         2\n1000000000 1000000000\n1000000000 1000000000\n\
         2\n1000000000 999999999\n999999999 999999999\n\
         1\n999999999 2\n",
    );
    assert_eq!(got, ["First", "Second", "First", "Second"]);
    assert!(
        start.elapsed() < Duration::from_secs(5),
        "{:?}",
        start.elapsed()
    );
    // 1000 piles of 10^9 with their own limits, answered in one go.
    let mut input = String::from("1000\n");
    let mut x = 0u64;
    for i in 0..1000u64 {
        let (a, l) = (1_000_000_000 - i * 7, 1 + i * 999_983 % 1_000_000_000);
        input.push_str(&format!("{a} {l}\n"));
        x ^= a % (l + 1);
    }
    let start = Instant::now();
    let want = if x != 0 { "First" } else { "Second" };
    assert_eq!(solve(&example(), &input), [want]);
    assert!(
        start.elapsed() < Duration::from_secs(5),
        "{:?}",
        start.elapsed()
    );
}

/// Piles of `size least most`, a move taking least..=most; prints the best move.
const LEAST_MOST: &str = r#"
format = 2
id = "least-most"
title = "Each pile with its own least and most take"
position = ["piles"]

[game]
range = ["least", "most"]
PLAY

[input]
cases = "count"
count = { min = 1, max = 200 }

[[field]]
name = "piles"
record = ["size", "least", "most"]
min = 1
max = 12
lenient_max = 12
length = { min = 1, max = 3, lenient_max = 3 }

[output]
lines = ["{verdict}", "{best}"]
win = "WIN"
lose = "LOSE"
move = "{heap+1} {take}"
none = "-"
"#;

fn least_most_cases(
    rng: &mut Rand,
    mm: &mut Minimax,
    count: usize,
    max: u64,
) -> (String, Vec<String>) {
    let mut input = format!("{count}\n");
    let mut expected = Vec::new();
    for _ in 0..count {
        let n = 1 + rng.below(3);
        let piles: Vec<Pile> = (0..n)
            .map(|_| (1 + rng.below(max), 1 + rng.below(4), 1 + rng.below(5)))
            .collect();
        input.push_str(&format!("{n}\n"));
        for (a, lo, hi) in &piles {
            input.push_str(&format!("{a} {lo} {hi}\n"));
        }
        // In misère play a position without a move is won, and has no best move.
        let win = mm.wins(&piles);
        let best = mm.best(&piles);
        assert_eq!(best.is_some(), win && !Minimax::moves(&piles).is_empty());
        expected.push(if win { "WIN" } else { "LOSE" }.into());
        expected.push(best.map_or("-".into(), |(i, k)| format!("{i} {k}")));
    }
    (input, expected)
}

#[test]
fn two_column_bounds_and_best_moves_answer_as_minimax_does() {
    let d = TempDecl::new("least_most", &LEAST_MOST.replace("PLAY", ""));
    let mut rng = Rand(77);
    let mut mm = Minimax::new(false);
    let (input, expected) = least_most_cases(&mut rng, &mut mm, 200, 12);
    assert_eq!(solve(d.path(), &input), expected, "{input}");
    assert!(expected.contains(&"WIN".into()) && expected.contains(&"LOSE".into()));
    // Some pile has least > most (an empty range, no move) among them.
    assert!(input
        .lines()
        .filter_map(|l| {
            let v: Vec<u64> = l.split(' ').map(|x| x.parse().unwrap()).collect();
            (v.len() == 3).then(|| v[1] > v[2])
        })
        .any(|b| b));
}

#[test]
fn misere_play_answers_as_minimax_does() {
    let d = TempDecl::new(
        "least_most_misere",
        &LEAST_MOST.replace("PLAY", "play = \"misere\""),
    );
    let mut rng = Rand(4242);
    let mut mm = Minimax::new(true);
    let (input, expected) = least_most_cases(&mut rng, &mut mm, 120, 12);
    assert_eq!(solve(d.path(), &input), expected, "{input}");
    assert!(expected.contains(&"WIN".into()) && expected.contains(&"LOSE".into()));
    assert!(expected.contains(&"WIN".into()));
    // Past what the search holds (heaps totalling more than 40): refused, saying why.
    let out = sgcheck(
        &[
            "check",
            "heap-ranges",
            "30/5,20/5",
            "--rules",
            "record size,limit: range 1..limit misere",
        ],
        "",
    );
    assert_eq!(out.status.code(), Some(2));
    let e = text(&out.stderr);
    assert!(
        e.contains("exhaustive search") && e.contains("totals 50"),
        "{e}"
    );
}

/// A bound from a number field of the case and one from a column.
const CASE_AND_COLUMN: &str = r#"
format = 2
id = "case-and-column"
title = "A least take per case, a most take per pile"
position = ["piles"]

[game]
range = ["p", "limit"]

[input]
cases = "count"
count = { min = 1, max = 200 }

[[field]]
name = "p"
min = 1
max = 3

[[field]]
name = "piles"
record = ["size", "limit"]
min = 1
max = 10
lenient_max = 10
length = { min = 1, max = 3, lenient_max = 3 }

[output]
lines = ["{verdict} {count}"]
win = "W"
lose = "L"
"#;

#[test]
fn a_bound_from_the_case_and_one_from_a_column() {
    let d = TempDecl::new("case_and_column", CASE_AND_COLUMN);
    let mut rng = Rand(99);
    let mut mm = Minimax::new(false);
    let mut input = String::from("100\n");
    let mut expected = Vec::new();
    for _ in 0..100 {
        let p = 1 + rng.below(3);
        let n = 1 + rng.below(3);
        let piles: Vec<Pile> = (0..n)
            .map(|_| (1 + rng.below(10), p, 1 + rng.below(6)))
            .collect();
        input.push_str(&format!("{p}\n{n}\n"));
        for (a, _, l) in &piles {
            input.push_str(&format!("{a} {l}\n"));
        }
        let count = Minimax::moves(&piles)
            .into_iter()
            .filter(|(_, _, next)| !mm.wins(next))
            .count();
        let w = if mm.wins(&piles) { "W" } else { "L" };
        expected.push(format!("{w} {count}"));
    }
    assert_eq!(solve(d.path(), &input), expected, "{input}");
    // The rules come from each case: tiers 1 and 2 say why they do not apply.
    let r = verify_json(d.path(), "3");
    let tiers = r["games"][0]["tiers"].as_array().unwrap().clone();
    for t in &tiers[..2] {
        assert!(
            t["not_applicable"]
                .as_str()
                .is_some_and(|s| s.contains("each case")),
            "{t}"
        );
    }
}

fn verify_json(decl: &Path, time: &str) -> Value {
    let out = sgcheck(
        &[
            "verify",
            "--problem",
            decl.to_str().unwrap(),
            "--time",
            time,
            "--seed",
            "1",
            "--json",
        ],
        "",
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    serde_json::from_slice(&out.stdout).unwrap()
}

fn tier(r: &Value, n: u64) -> Value {
    r["games"][0]["tiers"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["tier"] == n)
        .cloned()
        .unwrap_or_else(|| panic!("no tier {n} in {r}"))
}

#[test]
fn verify_agrees_on_every_tier() {
    let r = verify_json(&example(), "6");
    assert_eq!(r["disagreements"], 0, "{r}");
    let t1 = tier(&r, 1);
    assert!(t1["agreements"].as_u64().unwrap() > 10_000, "{t1}");
    assert!(t1.to_string().contains("closed form"), "{t1}");
    assert!(tier(&r, 2)["agreements"].as_u64().unwrap() > 1000, "{r}");
    assert!(tier(&r, 3)["agreements"].as_u64().unwrap() > 100, "{r}");
    // Misère: no values to compare in tier 1, which says so; the rest agree.
    let d = TempDecl::new(
        "verify_misere",
        &LEAST_MOST.replace("PLAY", "play = \"misere\""),
    );
    let r = verify_json(d.path(), "4");
    assert_eq!(r["disagreements"], 0, "{r}");
    assert!(
        tier(&r, 1)["not_applicable"]
            .as_str()
            .is_some_and(|s| s.contains("misère")),
        "{r}"
    );
}

#[test]
fn check_compares_both_sides_on_one_position() {
    let out = sgcheck(
        &[
            "check",
            "heap-ranges",
            "5/3,4/2,7/7",
            "--rules",
            "record size,limit: range 1..limit",
        ],
        "",
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let t = text(&out.stdout);
    assert!(
        t.contains("fast:   win, best 2:7=0, 1 winning move [2:7=0]"),
        "{t}"
    );
    assert!(t.contains("oracle: win, best 2:7=0"), "{t}");
    assert!(t.trim_end().ends_with("agree"), "{t}");
    // The numbers in a row, as verify's reproduce commands print them, read the same.
    let flat = sgcheck(
        &[
            "check",
            "heap-ranges",
            "5,3,4,2,7,7",
            "--rules",
            "record size,limit: heap size, range 1..limit",
        ],
        "",
    );
    assert_eq!(text(&flat.stdout), t);
    // A misère position past the search is refused, exit 2.
    let out = sgcheck(
        &[
            "check",
            "heap-ranges",
            "30/5,20/5",
            "--rules",
            "record size,limit: range 1..limit misere",
        ],
        "",
    );
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn the_declared_check_fuzz_body_takes_the_declaration() {
    use sgcheck::fuzzing::Checked;
    let p = sgcheck::problems::Declared::from_file(&example()).unwrap();
    let mut kept = 0;
    for size in 0..=12u8 {
        for i in 0..8u8 {
            if sgcheck::problems::fuzz::check_declared_case(&p, &[size, i, 0, 0, 0])
                == Checked::Kept
            {
                kept += 1;
            }
        }
    }
    assert!(kept > 50, "{kept}");
}

const PILES_CPP: &str = r#"
#include <cstdio>
int main() {
    int n;
    while (scanf("%d", &n) == 1) {
        long long x = 0;
        for (int i = 0; i < n; i++) { long long a, l; scanf("%lld %lld", &a, &l); x ^= a % BUG; }
        puts(x ? "First" : "Second");
    }
}
"#;

fn audit(w: &workshop::Workshop, decl: &Path, exe: &Path, options: &[&str]) -> Value {
    let mut args = vec!["audit", "--problem", decl.to_str().unwrap(), "--seed", "1"];
    args.extend_from_slice(options);
    args.extend_from_slice(&["--json", "--", exe.to_str().unwrap()]);
    let out = sgcheck(&args, "");
    assert!(
        matches!(out.status.code(), Some(0 | 1)),
        "{}",
        text(&out.stderr)
    );
    workshop::assert_nothing_left(w.path());
    serde_json::from_slice(&out.stdout).expect("audit --json prints JSON")
}

#[test]
fn audit_passes_a_right_program_and_finds_the_planted_bug() {
    let Some(w) = workshop::Workshop::new() else {
        return;
    };
    let decl = example();
    let right = w.compile(
        "limited_right",
        &workshop::variant(PILES_CPP, "BUG", "(l + 1)"),
        &[],
    );
    let r = audit(&w, &decl, &right, &["--cases", "3000", "--time", "300"]);
    assert_eq!(r["verdict"], "ok", "{r}");
    // Reduced by the limit instead of the limit plus one: wrong at one pile of one
    // stone with limit 1 (1 mod 1 = 0, but the pile is won).
    let wrong = w.compile(
        "limited_wrong",
        &workshop::variant(PILES_CPP, "BUG", "l"),
        &[],
    );
    let r = audit(&w, &decl, &wrong, &["--time", "60"]);
    assert_eq!(r["verdict"], "wrong-answer", "{r}");
    let c = workshop::counterexample(&r);
    assert_eq!(c["input"], "1\n1 1\n", "{r}");
}

fn refused(name: &str, body: &str) -> String {
    let d = TempDecl::new(name, body);
    let out = sgcheck(
        &["solve", "--problem", d.path().to_str().unwrap()],
        "1\n1 1\n",
    );
    assert_eq!(out.status.code(), Some(2), "{name}: {}", text(&out.stderr));
    let e = text(&out.stderr);
    assert!(!e.contains("panick"), "{e}");
    e
}

#[test]
fn bad_declarations_exit_2_naming_the_key() {
    let base = std::fs::read_to_string(example()).unwrap();
    let e = refused("no_column", &base.replace("[1, \"limit\"]", "[1, \"lim\"]"));
    assert!(
        e.contains("key `game.range`") && e.contains("\"lim\""),
        "{e}"
    );
    assert!(e.contains("line 8"), "{e}");
    let e = refused(
        "no_column_dotted",
        &base.replace("[1, \"limit\"]", "[1, \"piles.cap\"]"),
    );
    assert!(
        e.contains("key `game.range`") && e.contains("no column \"cap\""),
        "{e}"
    );
    // A column of a record field that is not the position.
    let other = base.replace("position = [\"piles\"]", "position = [\"heaps\"]").replace(
        "[output]",
        "[[field]]\nname = \"heaps\"\nmin = 1\nmax = 9\nlength = { min = 1, max = 4 }\n\n[output]",
    );
    let e = refused("not_in_position", &other);
    assert!(
        e.contains("key `game.range`") && e.contains("not in `position`"),
        "{e}"
    );
    // A name that is a field and a column at once is ambiguous.
    let both = base.replace(
        "[[field]]\nname = \"piles\"",
        "[[field]]\nname = \"limit\"\nmin = 1\nmax = 9\n\n[[field]]\nname = \"piles\"",
    );
    let e = refused("ambiguous", &both);
    assert!(
        e.contains("key `game.range`") && e.contains("\"piles.limit\""),
        "{e}"
    );
    // Three columns, one a bound: which is the heap?
    let three = base.replace("[\"size\", \"limit\"]", "[\"size\", \"limit\", \"colour\"]");
    let e = refused("which_heap", &three);
    assert!(
        e.contains("key `game.range`") && e.contains("heap ="),
        "{e}"
    );
    let e = refused(
        "bad_heap",
        &three.replace(
            "range = [1, \"limit\"]",
            "range = [1, \"limit\"]\nheap = \"weight\"",
        ),
    );
    assert!(
        e.contains("key `game.heap`") && e.contains("\"weight\""),
        "{e}"
    );
    // The lower bound from a column that may be 0.
    let e = refused(
        "min_zero",
        &base
            .replace("min = 1\nmax = 1000000000", "min = 0\nmax = 1000000000")
            .replace("[1, \"limit\"]", "[\"limit\", 5]"),
    );
    assert!(
        e.contains("key `game.range`") && e.contains("min = 1"),
        "{e}"
    );
    // `heap` without a column bound.
    let e = refused(
        "heap_alone",
        &base.replace("range = [1, \"limit\"]", "range = [1, 3]\nheap = \"size\""),
    );
    assert!(e.contains("key `game.heap`"), "{e}");
}
