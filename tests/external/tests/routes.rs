//! Every route of sgcheck's public API, from outside: one position, the sweep,
//! quickcheck and the fuzz body, each passing the correct solver and catching the
//! planted bug, for a solver of one of sgcheck's games and for a game of our own.

use quickcheck::{QuickCheck, TestResult};
use sgcheck::arbitrary::{agrees, Property};
use sgcheck::fuzzing::{check_bytes, check_case, Checked};
use sgcheck::oracles::games::lasker::Lasker;
use sgcheck::oracles::games::nim::Piles;
use sgcheck::{Case, SweepError};
use sgcheck_external::{buggy_lasker, buggy_take_two, my_lasker, take_two, Rows, TakeTwo};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::time::Duration;

fn panic_message(f: impl FnOnce()) -> String {
    let err = catch_unwind(AssertUnwindSafe(f)).expect_err("expected a panic");
    err.downcast_ref::<String>().cloned().unwrap_or_default()
}

#[test]
fn one_position() {
    sgcheck::assert_agrees(&Lasker, &Piles(vec![2, 3, 6]), my_lasker);
    let d = sgcheck::check(&Lasker, &Piles(vec![2]), buggy_lasker)
        .expect("small enough")
        .expect("the bug shows on the pile 2");
    assert_eq!(d.position, "2");
    assert_eq!(d.fast, "win, best 0:2, 1 winning move [0:2]");
    assert_eq!(d.oracle, "win, best 0:2, 2 winning moves [0:2 0=1+1]");
    assert!(d.reproduce.contains("\"2\".parse()"), "{}", d.reproduce);

    sgcheck::assert_agrees(&TakeTwo, &Rows(vec![5, 3]), take_two);
    let msg = panic_message(|| sgcheck::assert_agrees(&TakeTwo, &Rows(vec![5]), buggy_take_two));
    assert!(msg.contains("position:  5\n"), "{msg}");
    // The default reproduction writes the instance with Debug.
    assert!(
        msg.contains("sgcheck::assert_agrees(&TakeTwo, &Rows([5])"),
        "{msg}"
    );
}

#[test]
fn sweep() {
    let ok = sgcheck::sweep(my_lasker, Duration::from_millis(300)).unwrap();
    assert!(ok.checked > 1000 && ok.disagreements == 0);
    match sgcheck::sweep(buggy_lasker, Duration::from_millis(300)) {
        Err(SweepError::Disagreement(d)) => assert_eq!(d.position, "2"),
        other => panic!("planted Lasker bug not found: {other:?}"),
    }

    let ok = sgcheck::sweep(take_two, Duration::from_millis(300)).unwrap();
    assert!(ok.checked > 50);
    match sgcheck::sweep(buggy_take_two, Duration::from_millis(300)) {
        // Smallest first: rows of 5 coins in all come before 6; the bug needs a row
        // whose true value differs from the row of 4's, so the first is a single
        // row (the compositions list one row before two).
        Err(SweepError::Disagreement(d)) => {
            let rows: Rows = Rows(d.position.split(',').map(|x| x.parse().unwrap()).collect());
            assert!(rows.0.iter().any(|&n| n >= 5), "{d}");
        }
        other => panic!("planted take-two bug not found: {other:?}"),
    }
}

#[test]
fn quickcheck_routes() {
    sgcheck::quickcheck(my_lasker);
    sgcheck::quickcheck(take_two);
    fn prop(c: Case<TakeTwo>) -> TestResult {
        agrees(&c, take_two)
    }
    QuickCheck::new()
        .tests(200)
        .quickcheck(prop as fn(Case<TakeTwo>) -> TestResult);

    // Planted bugs: caught and shrunk to the smallest positions.
    let f = QuickCheck::new()
        .tests(500)
        .quicktest(Property::new(buggy_lasker))
        .expect_err("planted Lasker bug not caught");
    assert!(format!("{f:?}").contains("position:  2\\n"), "{f:?}");
    let f = QuickCheck::new()
        .tests(500)
        .quicktest(Property::new(buggy_take_two))
        .expect_err("planted take-two bug not caught");
    let text = format!("{f:?}");
    assert!(text.contains("position:  "), "{text}");
}

#[test]
fn fuzz_body() {
    // Every byte string of length 0..=2 decodes to a small case; correct solvers pass.
    let mut kept = 0;
    for a in 0..=255u8 {
        for b in [0u8, 1, 7, 100, 255] {
            if check_bytes::<Lasker, _>(&[a, b], my_lasker) == Checked::Kept {
                kept += 1;
            }
            check_bytes::<TakeTwo, _>(&[a, b], take_two);
        }
    }
    assert!(kept > 1000);
    let case: Case<Lasker> = Case::new(Lasker, Piles(vec![1, 2, 1]));
    let msg = panic_message(|| {
        check_case(&case, buggy_lasker);
    });
    // The failing case is shrunk in process before the panic: 1,2,1 comes down to
    // the pile of 2 whose split the buggy solver misses.
    assert!(msg.contains("position:  2\n"), "{msg}");
    assert!(msg.contains("shrunk in process"), "{msg}");
    let msg = panic_message(|| {
        check_case(&Case::new(TakeTwo, Rows(vec![5])), buggy_take_two);
    });
    assert!(msg.contains("fast:"), "{msg}");
}
