//! A user's crate: a solver of its own for one of sgcheck's games (Nim in misère play
//! is not one of them, so: Lasker's Nim) and a game of its own (Dawson's Kayles style
//! "take-two": a row of coins, a move removes two adjacent coins), each with a planted
//! bug that the tests show every route of sgcheck catches.

use sgcheck::oracles::games::lasker::{Lasker, LaskerMove};
use sgcheck::oracles::games::nim::Piles;
use sgcheck::oracles::{write_list, Analysis, Rules};
use sgcheck::Game;
use std::fmt;

/// Lasker's Nim: SG(4k+3) = 4k+4, SG(4k+4) = 4k+3, every other pile its own size.
/// `equal_splits` false plants a bug: the split into two equal halves is forgotten.
pub fn lasker(pos: &Piles, equal_splits: bool) -> Analysis<LaskerMove> {
    fn sg(n: u64) -> u64 {
        match n % 4 {
            3 => n + 1,
            0 if n > 0 => n - 1,
            _ => n,
        }
    }
    let x = pos.0.iter().fold(0, |a, &p| a ^ sg(p));
    let mut winning = Vec::new();
    if x != 0 {
        // Listed in an order of our own (splits first, piles from the right).
        for (pile, &n) in pos.0.iter().enumerate().rev() {
            let need = x ^ sg(n);
            for smaller in 1..=n / 2 {
                let equal = smaller * 2 == n;
                if (equal_splits || !equal) && sg(smaller) ^ sg(n - smaller) == need {
                    winning.push(LaskerMove::Split {
                        pile,
                        smaller,
                        larger: n - smaller,
                    });
                }
            }
            for amount in 1..=n {
                if sg(n - amount) == need {
                    winning.push(LaskerMove::Take { pile, amount });
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

/// The correct Lasker solver.
pub fn my_lasker(_: &Lasker, pos: &Piles) -> Analysis<LaskerMove> {
    lasker(pos, true)
}

/// The planted bug.
pub fn buggy_lasker(_: &Lasker, pos: &Piles) -> Analysis<LaskerMove> {
    lasker(pos, false)
}

/// Take-two: rows of coins; a move removes two adjacent coins of one row, leaving
/// `left` coins on their left and the rest on their right. Whoever cannot move loses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TakeTwo;

/// Coins per row.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Rows(pub Vec<u64>);

/// Remove two coins of `row`, leaving `left` coins on their left.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Pair {
    /// The row.
    pub row: usize,
    /// Coins left on the left.
    pub left: u64,
}

impl fmt::Display for TakeTwo {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("-")
    }
}

impl fmt::Display for Rows {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_list(f, &self.0)
    }
}

impl fmt::Display for Pair {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}@{}", self.row, self.left)
    }
}

impl Rules for TakeTwo {
    type Position = Rows;
    type Move = Pair;
    fn moves(&self, pos: &Rows, out: &mut Vec<(Pair, Rows)>) {
        for (row, &n) in pos.0.iter().enumerate() {
            for left in 0..=n.saturating_sub(2) {
                if n >= 2 {
                    let mut next = pos.0.clone();
                    next[row] = left;
                    next.push(n - 2 - left);
                    out.push((Pair { row, left }, Rows(next)));
                }
            }
        }
    }
}

impl Game for TakeTwo {
    fn instances(size: u32) -> Vec<(TakeTwo, Rows)> {
        if size > 12 {
            return Vec::new();
        }
        sgcheck::verify::compositions(u64::from(size), 2)
            .into_iter()
            .map(|r| (TakeTwo, Rows(r)))
            .collect()
    }
}

/// Grundy values of rows 0..len: mex of g(a) xor g(n-2-a). `cap` plants a bug when
/// below `len`: rows from `cap` on are given the value of the row `cap - 1`.
pub fn take_two_table(len: usize, cap: usize) -> Vec<u64> {
    let mut g = vec![0u64; len];
    for n in 2..len {
        if n >= cap {
            g[n] = g[cap - 1];
            continue;
        }
        let mut seen = vec![false; len + 2];
        for a in 0..=n - 2 {
            seen[(g[a] ^ g[n - 2 - a]) as usize] = true;
        }
        g[n] = seen.iter().position(|&s| !s).unwrap() as u64;
    }
    g
}

/// The fast side of take-two with the table `g` (long enough for every row).
pub fn take_two_with(pos: &Rows, cap: usize) -> Analysis<Pair> {
    let len = pos.0.iter().copied().max().unwrap_or(0) as usize + 1;
    let g = take_two_table(len, cap);
    let x = pos.0.iter().fold(0, |a, &n| a ^ g[n as usize]);
    let mut winning = Vec::new();
    if x != 0 {
        for (row, &n) in pos.0.iter().enumerate() {
            let need = x ^ g[n as usize];
            for left in 0..=n.saturating_sub(2) {
                if n >= 2 && g[left as usize] ^ g[(n - 2 - left) as usize] == need {
                    winning.push(Pair { row, left });
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

/// The correct take-two solver.
pub fn take_two(_: &TakeTwo, pos: &Rows) -> Analysis<Pair> {
    take_two_with(pos, usize::MAX)
}

/// The planted bug: values from row 5 on are copied from row 4.
pub fn buggy_take_two(_: &TakeTwo, pos: &Rows) -> Analysis<Pair> {
    take_two_with(pos, 5)
}
