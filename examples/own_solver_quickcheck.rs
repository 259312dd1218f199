//! Your own solver of one of sgcheck's games, checked by quickcheck.
//!
//! Lasker's Nim (take from a pile, or split a pile in two) solved the way a contest
//! solution would: the closed form of the Grundy values and the winning moves found by
//! value. quickcheck compares it with the exhaustive oracle on random small positions;
//! then the same property catches a planted bug (the split into two equal halves
//! forgotten) and shrinks it to the smallest position that shows it, one pile of 2.
//!
//! Run: `cargo run --example own_solver_quickcheck --features quickcheck`

use quickcheck::{QuickCheck, TestResult};
use sgcheck::arbitrary::{agrees, Property};
use sgcheck::oracles::games::lasker::{Lasker, LaskerMove};
use sgcheck::oracles::games::nim::Piles;
use sgcheck::oracles::Analysis;
use sgcheck::Case;

/// Grundy value of a pile of `n`: SG(4k+3) = 4k+4, SG(4k+4) = 4k+3, else n.
fn sg(n: u64) -> u64 {
    match n % 4 {
        3 => n + 1,
        0 if n > 0 => n - 1,
        _ => n,
    }
}

/// Every winning move: those that bring the XOR of all values to zero. `equal_splits`
/// false plants the bug (a loop `smaller < n / 2` instead of `<=`).
fn lasker(pos: &Piles, equal_splits: bool) -> Analysis<LaskerMove> {
    let x = pos.0.iter().fold(0, |a, &p| a ^ sg(p));
    let mut winning = Vec::new();
    if x != 0 {
        for (pile, &n) in pos.0.iter().enumerate() {
            let need = x ^ sg(n);
            for amount in 1..=n {
                if sg(n - amount) == need {
                    winning.push(LaskerMove::Take { pile, amount });
                }
            }
            for smaller in 1..=n / 2 {
                if smaller * 2 == n && !equal_splits {
                    continue;
                }
                if sg(smaller) ^ sg(n - smaller) == need {
                    let larger = n - smaller;
                    winning.push(LaskerMove::Split {
                        pile,
                        smaller,
                        larger,
                    });
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

fn my_lasker(_: &Lasker, pos: &Piles) -> Analysis<LaskerMove> {
    lasker(pos, true)
}

fn buggy_lasker(_: &Lasker, pos: &Piles) -> Analysis<LaskerMove> {
    lasker(pos, false)
}

/// The property in your own quickcheck suite (a `#[quickcheck]` function works too).
fn prop_my_lasker(case: Case<Lasker>) -> TestResult {
    agrees(&case, my_lasker)
}

fn main() {
    // 1. One call: sgcheck's property (panics with the disagreement if any, and when
    //    fewer than 300 cases passed).
    sgcheck::quickcheck(my_lasker);
    println!("sgcheck::quickcheck(my_lasker) passed (300 passing cases required)");
    // 2. The same check as a property of your own; quicktest counts the cases that
    //    passed (discarded ones, too large for the oracle, are not counted).
    let passed = QuickCheck::new()
        .tests(300)
        .max_tests(3000)
        .quicktest(prop_my_lasker as fn(Case<Lasker>) -> TestResult)
        .unwrap_or_else(|failure| panic!("{failure:?}"));
    assert!(passed >= 300, "only {passed} cases passed");
    println!("my_lasker agrees with the oracle on {passed} random positions of its own property");

    // 3. The planted bug: quicktest returns the failure instead of panicking.
    let failure = QuickCheck::new()
        .tests(300)
        .quicktest(Property::new(buggy_lasker))
        .expect_err("the planted bug went unnoticed");
    let report = format!("{failure:?}");
    println!("buggy_lasker caught:\n{report}");
    assert!(
        report.contains("position:  2\\n"),
        "not shrunk to the pile 2"
    );
    println!("shrunk to the single pile 2, as expected");
}
