//! Games declared in the move language (`[game] state = [...]`, `moves = [...]`):
//! the declarations under `tests/data/lang/` answer at their limits as tables written
//! here from the rules do, `verify` agrees on each (tier 1: the dense table against
//! the plain mex; tier 2: whole positions against the oracle), and a bad declaration
//! is refused naming its key.

mod workshop;

use std::path::{Path, PathBuf};
use workshop::{sgcheck, text, Draw};

fn data(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/lang")
        .join(name)
}

fn mex(seen: &[bool]) -> usize {
    seen.iter().position(|&s| !s).unwrap_or(seen.len())
}

fn solve(decl: &Path, input: &str) -> Vec<String> {
    let out = sgcheck(&["solve", "--problem", decl.to_str().unwrap()], input);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    text(&out.stdout).lines().map(str::to_string).collect()
}

#[test]
fn the_cutting_game_at_its_limits() {
    // The table from the rules: cuts leaving both pieces at least 2 wide (or high).
    let mut g = vec![[0usize; 201]; 201];
    for w in 2..=200usize {
        for h in 2..=200usize {
            let mut seen = vec![false; 512];
            for i in 2..=w.saturating_sub(2) {
                seen[g[i][h] ^ g[w - i][h]] = true;
            }
            for j in 2..=h.saturating_sub(2) {
                seen[g[w][j] ^ g[w][h - j]] = true;
            }
            g[w][h] = mex(&seen);
        }
    }
    let mut d = Draw(7);
    let cases: Vec<(usize, usize)> = (0..1000)
        .map(|i| match i {
            0 => (200, 200),
            1 => (2, 2),
            _ => (2 + (d.next() % 199) as usize, 2 + (d.next() % 199) as usize),
        })
        .collect();
    let mut input = String::from("1000\n");
    for (w, h) in &cases {
        input.push_str(&format!("{w} {h}\n"));
    }
    let got = solve(&data("cutting_game.toml"), &input);
    assert_eq!(got.len(), 1000);
    for ((w, h), line) in cases.iter().zip(&got) {
        let want = if g[*w][*h] != 0 { "WIN" } else { "LOSE" };
        assert_eq!(line, want, "{w} {h}");
    }
}

#[test]
fn the_divisor_game_and_kayles_at_their_limits() {
    const N: usize = 100_000;
    let mut div = vec![0usize; N + 1];
    for a in 2..=N {
        let mut seen = vec![false; 64];
        for d in 1..a {
            if d * d > a {
                break;
            }
            if a % d == 0 {
                seen[div[d]] = true;
                if d != 1 && d * d != a {
                    seen[div[a / d]] = true;
                }
            }
        }
        div[a] = mex(&seen);
    }
    let mut kay = vec![0usize; 1001];
    for n in 1..=1000 {
        let mut seen = vec![false; 256];
        for k in 1..=2.min(n) {
            for a in 0..=(n - k) / 2 {
                seen[kay[a] ^ kay[n - k - a]] = true;
            }
        }
        kay[n] = mex(&seen);
    }
    let mut d = Draw(11);
    let nums: Vec<usize> = (0..N).map(|_| 1 + (d.next() % N as u64) as usize).collect();
    let rows: Vec<usize> = (0..N).map(|_| (d.next() % 1001) as usize).collect();
    for (decl, values, table, win, lose) in [
        ("divisor_game.toml", &nums, &div, "Anna", "Bruno"),
        ("kayles.toml", &rows, &kay, "First", "Second"),
    ] {
        // One case of 10^5 numbers, and nine of one number each.
        let mut input = format!("10\n{N} ");
        input.push_str(
            &values
                .iter()
                .map(usize::to_string)
                .collect::<Vec<_>>()
                .join(" "),
        );
        input.push('\n');
        for v in &values[..9] {
            input.push_str(&format!("1 {v}\n"));
        }
        let got = solve(&data(decl), &input);
        let x = values.iter().fold(0, |a, &v| a ^ table[v]);
        let mut want = vec![if x != 0 { win } else { lose }];
        want.extend(
            values[..9]
                .iter()
                .map(|&v| if table[v] != 0 { win } else { lose }),
        );
        assert_eq!(got, want, "{decl}");
    }
}

#[test]
fn verify_agrees_on_each_declaration_in_the_move_language() {
    for name in ["cutting_game", "divisor_game", "kayles", "chomp2", "keep_longer"] {
        let path = data(&format!("{name}.toml"));
        let out = sgcheck(
            &[
                "verify",
                "--problem",
                path.to_str().unwrap(),
                "--time",
                "4",
                "--seed",
                "1",
            ],
            "",
        );
        let stdout = text(&out.stdout);
        assert_eq!(
            out.status.code(),
            Some(0),
            "{name}: {stdout}{}",
            text(&out.stderr)
        );
        assert!(stdout.contains("all agree"), "{name}: {stdout}");
        assert!(
            stdout.contains("the dense table against the plain mex of the moves"),
            "{name}: {stdout}"
        );
    }
}

#[test]
fn a_bad_declaration_names_its_key() {
    let dir = tempfile::tempdir().unwrap();
    let base = std::fs::read_to_string(data("kayles.toml")).unwrap();
    for (from, to, want) in [
        (
            "state = [\"n\"]\n",
            "",
            "key `game.moves`: moves needs `state`",
        ),
        (
            "moves = [\"for k in 1..=min(2, n), for a in 0..=(n - k) / 2: (a) + (n - k - a)\"]",
            "moves = [\"for k in 1..=2: (n - k, 0)\"]",
            "key `game.moves`: a component has 1 integers",
        ),
        (
            "moves = [\"for k in 1..=min(2, n), for a in 0..=(n - k) / 2: (a) + (n - k - a)\"]",
            "moves = [\"for k in 1..=2: (m)\"]",
            "`m` is not a name of the state (n)",
        ),
    ] {
        assert!(base.contains(from), "{from}");
        let path = dir.path().join("bad.toml");
        std::fs::write(&path, base.replace(from, to)).unwrap();
        let out = sgcheck(&["solve", "--problem", path.to_str().unwrap()], "1\n1 3\n");
        assert_eq!(out.status.code(), Some(2));
        let err = text(&out.stderr);
        assert!(err.contains(want), "{want}: {err}");
    }
}
