//! A game sgcheck does not know: Kayles (octal game .77), with its rules, a fast solver
//! and a sweep against the exhaustive oracle.
//!
//! Kayles: rows of pins; a move knocks down one pin or two adjacent pins of one row,
//! which may leave two rows where there was one. Whoever cannot move loses.
//!
//! 1. The rules implement `sgcheck::oracles::Rules` (only the moves).
//! 2. `sgcheck::Game` lists the instances by size; everything else has a default.
//! 3. The fast solver: Grundy values by mex over one row's moves, XOR over the rows,
//!    winning moves found by value.
//! 4. `sgcheck::sweep` compares the two on every instance smallest first; a planted bug
//!    (a solver that forgets the two-pin knocks) is caught on the smallest position.
//!
//! Run: `cargo run --example new_game`

use sgcheck::oracles::{write_list, Analysis, Rules};
use sgcheck::Game;
use std::fmt;
use std::time::Duration;

/// The rules (no parameters).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct Kayles;

/// The pins of each row.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
struct Rows(Vec<u64>);

/// Knock `count` (1 or 2) pins of row `row`, leaving `left` pins to their left. The
/// derived order (row, count, left) is the canonical move order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
struct Knock {
    row: usize,
    count: u64,
    left: u64,
}

impl fmt::Display for Kayles {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("-")
    }
}

impl fmt::Display for Rows {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_list(f, &self.0)
    }
}

impl fmt::Display for Knock {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}@{}", self.row, self.count, self.left)
    }
}

/// The oracle's side: the legal moves, straight from the rule text.
impl Rules for Kayles {
    type Position = Rows;
    type Move = Knock;

    fn moves(&self, pos: &Rows, out: &mut Vec<(Knock, Rows)>) {
        for (row, &n) in pos.0.iter().enumerate() {
            for count in 1..=n.min(2) {
                for left in 0..=n - count {
                    let mut next = pos.0.clone();
                    next[row] = left;
                    next.push(n - count - left);
                    out.push((Knock { row, count, left }, Rows(next)));
                }
            }
        }
    }

    /// Rows in any order are the same game.
    fn key(&self, pos: &Rows) -> Rows {
        let mut rows: Vec<u64> = pos.0.iter().copied().filter(|&n| n > 0).collect();
        rows.sort_unstable();
        Rows(rows)
    }
}

/// The instances: up to three rows, `size` pins in all, up to 14 pins.
impl Game for Kayles {
    fn instances(size: u32) -> Vec<(Kayles, Rows)> {
        if size > 14 {
            return Vec::new();
        }
        sgcheck::verify::compositions(u64::from(size), 3)
            .into_iter()
            .map(|rows| (Kayles, Rows(rows)))
            .collect()
    }

    /// `Debug` of `Rows` is not Rust syntax (`Rows([1, 2])`), so say it in full.
    fn reproduce(&self, pos: &Rows) -> String {
        format!(
            "sgcheck::assert_agrees(&Kayles, &Rows(vec!{:?}), kayles)",
            pos.0
        )
    }
}

/// Grundy values of single rows 0..len: the mex of g(a) xor g(b) over the rows a, b
/// a knock leaves (a + b = n - 1 or n - 2). `two` false plants the bug.
fn table(len: usize, two: bool) -> Vec<u64> {
    let mut g = vec![0u64; len];
    for n in 1..len {
        let mut seen = vec![false; 2 * len + 2];
        for count in 1..=n.min(if two { 2 } else { 1 }) {
            for a in 0..=n - count {
                seen[(g[a] ^ g[n - count - a]) as usize] = true;
            }
        }
        g[n] = seen.iter().position(|&s| !s).unwrap() as u64;
    }
    g
}

/// The fast solver: XOR of the rows' values; a knock wins when the row it leaves has
/// the value that makes the XOR zero.
fn solve(pos: &Rows, two: bool) -> Analysis<Knock> {
    let longest = pos.0.iter().copied().max().unwrap_or(0) as usize;
    let g = table(longest + 1, two);
    let x = pos.0.iter().fold(0, |a, &n| a ^ g[n as usize]);
    let mut winning = Vec::new();
    if x != 0 {
        for (row, &n) in pos.0.iter().enumerate() {
            let need = x ^ g[n as usize];
            for count in 1..=n.min(if two { 2 } else { 1 }) {
                for left in 0..=n - count {
                    if g[left as usize] ^ g[(n - count - left) as usize] == need {
                        winning.push(Knock { row, count, left });
                    }
                }
            }
        }
    }
    Analysis {
        win: x != 0,
        winning,
        remoteness: None,
    }
}

fn kayles(_: &Kayles, pos: &Rows) -> Analysis<Knock> {
    solve(pos, true)
}

fn forgets_two_pin_knocks(_: &Kayles, pos: &Rows) -> Analysis<Knock> {
    solve(pos, false)
}

fn main() {
    // The first values of Kayles, OEIS A002186: 0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6.
    assert_eq!(table(12, true), [0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6]);

    let report = sgcheck::sweep(kayles, Duration::from_secs(2)).unwrap_or_else(|e| panic!("{e}"));
    println!(
        "kayles agrees with the oracle on {} positions ({} too large, skipped)",
        report.checked, report.skipped
    );

    let err = sgcheck::sweep(forgets_two_pin_knocks, Duration::from_secs(2))
        .expect_err("the planted bug went unnoticed");
    println!("forgets_two_pin_knocks caught:\n{err}");
    // The smallest position that needs a two-pin knock: one row of 2 (knock both).
    assert!(
        err.to_string().contains("position:  2\n"),
        "not the smallest position"
    );
}
