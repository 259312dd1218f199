//! The library routes shrink a failure in process before they report it, with the
//! steps that keep the true answer: a game of the user's own (written here, through
//! the public API only) that gives its components' Grundy values, a solver of it with
//! a planted bug that needs four components, and a first failure of seven.
//!
//! - `fuzzing::check_case` (and `check_bytes`, which calls it) panics with the
//!   shrunk case, four rows of one coin;
//! - the quickcheck route (`arbitrary::Property`, feature `quickcheck`) reports the
//!   same;
//! - without the component values, the same first failure is not shrunk at all (it is
//!   beyond the sizes the game enumerates, so the provided enumeration shrinker cannot
//!   place it): the steps that keep the value are what reach the minimum.

use sgcheck::fuzzing::check_case;
use sgcheck::oracles::{write_list, Analysis, Rules};
use sgcheck::{Case, Game};
use std::fmt;

/// Rows of coins; a move takes one or two coins from one row. A row of `n` coins is
/// worth `n % 3`. `COMPONENTS` says whether the game tells its component values.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct TakeTwo<const COMPONENTS: bool>;

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
struct Rows(Vec<u64>);

/// Take `count` coins from row `row`.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
struct Take {
    row: usize,
    count: u64,
}

impl<const C: bool> fmt::Display for TakeTwo<C> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("-")
    }
}
impl fmt::Display for Rows {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_list(f, &self.0)
    }
}
impl fmt::Display for Take {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.row, self.count)
    }
}

impl<const C: bool> Rules for TakeTwo<C> {
    type Position = Rows;
    type Move = Take;
    fn moves(&self, pos: &Rows, out: &mut Vec<(Take, Rows)>) {
        for (row, &n) in pos.0.iter().enumerate() {
            for count in 1..=2.min(n) {
                let mut next = pos.0.clone();
                next[row] = n - count;
                out.push((Take { row, count }, Rows(next)));
            }
        }
    }
}

/// Every list of rows of at least one coin with `total` coins.
fn compositions(total: u64) -> Vec<Vec<u64>> {
    if total == 0 {
        return vec![vec![]];
    }
    let mut out = Vec::new();
    for first in 1..=total {
        for mut rest in compositions(total - first) {
            rest.insert(0, first);
            out.push(rest);
        }
    }
    out
}

impl<const C: bool> Game for TakeTwo<C> {
    /// Size: the number of coins (rows of at least one coin), up to 12.
    fn instances(size: u32) -> Vec<(Self, Rows)> {
        if size > 12 {
            return Vec::new();
        }
        compositions(u64::from(size))
            .into_iter()
            .map(|r| (TakeTwo, Rows(r)))
            .collect()
    }
    fn component_values(&self, pos: &Rows) -> Option<Vec<u64>> {
        C.then(|| pos.0.iter().map(|n| n % 3).collect())
    }
    fn keep_components(&self, pos: &Rows, keep: &[usize]) -> Option<Rows> {
        C.then(|| Rows(keep.iter().map(|&i| pos.0[i]).collect()))
    }
}

/// The right analysis: the XOR of `n % 3`, and every move that makes it 0.
fn right<const C: bool>(_: &TakeTwo<C>, pos: &Rows) -> Analysis<Take> {
    let x = pos.0.iter().fold(0, |a, n| a ^ (n % 3));
    let mut winning = Vec::new();
    for (row, &n) in pos.0.iter().enumerate() {
        for count in 1..=2.min(n) {
            if x != 0 && x ^ (n % 3) ^ ((n - count) % 3) == 0 {
                winning.push(Take { row, count });
            }
        }
    }
    Analysis {
        win: x != 0,
        winning,
        remoteness: None,
    }
}

/// The planted bug: a losing position of four rows or more is called a win.
fn wrong_from_four<const C: bool>(r: &TakeTwo<C>, pos: &Rows) -> Analysis<Take> {
    let mut a = right(r, pos);
    if pos.0.len() >= 4 && !a.win {
        a.win = true;
    }
    a
}

/// The first failure a fuzzer met: seven rows, 30 coins, values 1 2 0 1 2 0 0.
fn first_failure() -> Rows {
    Rows(vec![1, 2, 3, 4, 5, 6, 9])
}

/// The numbers on the `position:` line of a disagreement's message.
fn position_numbers(message: &str) -> Vec<u64> {
    let line = message
        .lines()
        .find(|l| l.trim_start().starts_with("position:"))
        .unwrap_or_else(|| panic!("no position line: {message}"));
    line.split(|c: char| !c.is_ascii_digit())
        .filter(|t| !t.is_empty())
        .map(|t| t.parse().unwrap())
        .collect()
}

fn panic_message<C>(case: &Case<C>, fast: fn(&C, &Rows) -> Analysis<Take>) -> String
where
    C: Game + Rules<Position = Rows, Move = Take>,
{
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| check_case(case, fast)))
        .expect_err("the planted bug panics")
        .downcast::<String>()
        .map(|s| *s)
        .unwrap_or_default()
}

#[test]
fn right_solver_passes_the_first_failure() {
    let case = Case::new(TakeTwo::<true>, first_failure());
    assert_eq!(
        check_case(&case, right::<true>),
        sgcheck::fuzzing::Checked::Kept
    );
}

#[test]
fn a_fuzz_target_of_a_users_game_panics_on_four_rows() {
    let pos = first_failure();
    assert_eq!(
        pos.0.iter().fold(0, |a, n| a ^ (n % 3)),
        0,
        "a losing position"
    );
    let case = Case::new(TakeTwo::<true>, pos);
    let message = panic_message(&case, wrong_from_four::<true>);
    assert!(message.contains("shrunk in process"), "{message}");
    // Four rows of one coin: the fewest coins of four rows whose values XOR to 0.
    assert_eq!(position_numbers(&message), [1, 1, 1, 1], "{message}");
}

#[test]
fn without_component_values_the_first_failure_stays() {
    // The same game without its values: the enumeration shrinker looks through sizes
    // below 16 only, and the first failure has 30 coins.
    let case = Case::new(TakeTwo::<false>, first_failure());
    let message = panic_message(&case, wrong_from_four::<false>);
    assert!(!message.contains("shrunk in process"), "{message}");
    assert_eq!(
        position_numbers(&message),
        [1, 2, 3, 4, 5, 6, 9],
        "{message}"
    );
}

#[test]
fn check_bytes_shrinks_too() {
    // Bytes that decode to a failing case (four rows or more, XOR 0) of the sizes
    // `from_bytes` chooses from: the first found, then checked as a fuzzer would.
    let found = (0..=255u8)
        .flat_map(|s| (0..=255u8).map(move |a| (s, a)))
        .flat_map(|(s, a)| (0..=255u8).map(move |b| [s, a, b]))
        .find(|bytes| {
            sgcheck::fuzzing::decode::<Case<TakeTwo<true>>>(bytes).is_some_and(|c| {
                let r = &c.position.0;
                r.len() > 4 && r.iter().fold(0, |a, n| a ^ (n % 3)) == 0
            })
        })
        .expect("some bytes decode to a failing case of more than four rows");
    let message =
        std::panic::catch_unwind(|| sgcheck::fuzzing::check_bytes(&found, wrong_from_four::<true>))
            .expect_err("panics")
            .downcast::<String>()
            .map(|s| *s)
            .unwrap_or_default();
    assert_eq!(position_numbers(&message), [1, 1, 1, 1], "{message}");
}

#[cfg(feature = "quickcheck")]
#[test]
fn the_quickcheck_route_reports_four_rows() {
    use sgcheck::arbitrary::Property;
    let case = Case::new(TakeTwo::<true>, first_failure());
    let mut solver = sgcheck::oracles::Solver::verdict_only(TakeTwo::<true>);
    let oracle = solver.analyze(&case.position).unwrap();
    assert!(!oracle.win);
    let first = sgcheck::Disagreement {
        rules: "-".into(),
        position: case.position.to_string(),
        fast: "win".into(),
        oracle: "loss".into(),
        reproduce: String::new(),
    };
    let (smallest, _) = Property::new(wrong_from_four::<true>).shrink_failure(case, first);
    assert_eq!(smallest.position, Rows(vec![1, 1, 1, 1]));
}
