//! quickcheck properties: every game's fast solver against the exhaustive oracle on
//! small random instances (with shrinking to a minimal failing position), and the
//! metamorphic properties Sprague–Grundy theory promises, checked on the oracle alone.

use quickcheck::{QuickCheck, TestResult};
use sgcheck::arbitrary::Case;
use sgcheck::fuzzing;
use sgcheck::games::{auction::AuctionSubject, nim_k::NimKSubject, wythoff::WythoffSubject};
use sgcheck::games::{
    bash::BashSubject, ed::EdSubject, following_nim::FollowingNimSubject, grundy::GrundySubject,
    lasker::LaskerSubject, misere_nim::MisereNimSubject, nim::NimSubject, octal::OctalSubject,
    simple_nim::SimpleNimSubject, split::SplitSubject, staircase::StaircaseSubject,
    subtraction::SubtractionSubject, take_range::TakeRangeSubject,
};
use sgcheck::oracles::games::{auction::Auction, nim_k::NimK, wythoff::Wythoff};
use sgcheck::oracles::games::{
    bash::Bash,
    ed::{Ed, EdPiles},
    following_nim::FollowingNim,
    grundy::GrundyGame,
    lasker::Lasker,
    misere_nim::MisereNim,
    nim::{Nim, Piles},
    octal::Octal,
    plus_heap::grundy_by_search,
    simple_nim::SimpleNim,
    split::SplitGame,
    staircase::Staircase,
    subtraction::Subtraction,
    take_range::TakeRange,
};
use sgcheck::oracles::{Analysis, Rules, Solver};
use sgcheck::verify::{compare, Planted, Subject};
use std::cell::RefCell;

const BUDGET: usize = 200_000;

/// The property behind every `qc_<game>_fast_agrees_with_oracle`: verdict, best move,
/// count and the whole set of winning moves agree. Instances too large for the oracle
/// are discarded (the generators keep them rare).
fn agrees<S: Subject>(subject: &S, case: &Case<S::Rules>) -> TestResult {
    let mut solver = Solver::verdict_only(case.rules.clone()).with_budget(BUDGET);
    match compare(subject, &mut solver, &case.position) {
        Ok(None) => TestResult::passed(),
        Ok(Some(d)) => TestResult::error(format!(
            "fast: {}; oracle: {}; {}",
            d.fast, d.oracle, d.reproduce
        )),
        Err(_) => TestResult::discard(),
    }
}

/// The suite's properties: at least 300 passing cases in at most 3000 tries, or the
/// property fails naming how many were discarded (a property that checked too little
/// does not pass).
struct Qc;

impl Qc {
    fn quickcheck<A: quickcheck::Testable>(&self, prop: A) {
        sgcheck::arbitrary::check_property(prop, 300, 3000);
    }
}

fn qc() -> Qc {
    Qc
}

#[test]
fn qc_nim_fast_agrees_with_oracle() {
    qc().quickcheck((|c: Case<Nim>| agrees(&NimSubject, &c)) as fn(Case<Nim>) -> TestResult);
}

#[test]
fn qc_bash_fast_agrees_with_oracle() {
    qc().quickcheck((|c: Case<Bash>| agrees(&BashSubject, &c)) as fn(Case<Bash>) -> TestResult);
}

#[test]
fn qc_take_range_fast_agrees_with_oracle() {
    qc().quickcheck(
        (|c: Case<TakeRange>| agrees(&TakeRangeSubject, &c)) as fn(Case<TakeRange>) -> TestResult,
    );
}

#[test]
fn qc_subtraction_fast_agrees_with_oracle() {
    qc().quickcheck(
        (|c: Case<Subtraction>| agrees(&SubtractionSubject::default(), &c))
            as fn(Case<Subtraction>) -> TestResult,
    );
}

#[test]
fn qc_lasker_fast_agrees_with_oracle() {
    qc().quickcheck(
        (|c: Case<Lasker>| agrees(&LaskerSubject, &c)) as fn(Case<Lasker>) -> TestResult,
    );
}

#[test]
fn qc_ed_fast_agrees_with_oracle() {
    qc().quickcheck((|c: Case<Ed>| agrees(&EdSubject, &c)) as fn(Case<Ed>) -> TestResult);
}

#[test]
fn qc_split_fast_agrees_with_oracle() {
    qc().quickcheck(
        (|c: Case<SplitGame>| agrees(&SplitSubject, &c)) as fn(Case<SplitGame>) -> TestResult,
    );
}

#[test]
fn qc_octal_fast_agrees_with_oracle() {
    qc().quickcheck(
        (|c: Case<Octal>| agrees(&OctalSubject::default(), &c)) as fn(Case<Octal>) -> TestResult,
    );
}

#[test]
fn qc_grundy_fast_agrees_with_oracle() {
    qc().quickcheck(
        (|c: Case<GrundyGame>| agrees(&GrundySubject, &c)) as fn(Case<GrundyGame>) -> TestResult,
    );
}

#[test]
fn qc_simple_nim_fast_agrees_with_oracle() {
    qc().quickcheck(
        (|c: Case<SimpleNim>| agrees(&SimpleNimSubject, &c)) as fn(Case<SimpleNim>) -> TestResult,
    );
}

#[test]
fn qc_misere_nim_fast_agrees_with_oracle() {
    qc().quickcheck(
        (|c: Case<MisereNim>| agrees(&MisereNimSubject, &c)) as fn(Case<MisereNim>) -> TestResult,
    );
}

#[test]
fn qc_wythoff_fast_agrees_with_oracle() {
    qc().quickcheck(
        (|c: Case<Wythoff>| agrees(&WythoffSubject, &c)) as fn(Case<Wythoff>) -> TestResult,
    );
}

#[test]
fn qc_staircase_fast_agrees_with_oracle() {
    qc().quickcheck(
        (|c: Case<Staircase>| agrees(&StaircaseSubject, &c)) as fn(Case<Staircase>) -> TestResult,
    );
}

#[test]
fn qc_auction_fast_agrees_with_oracle() {
    qc().quickcheck(
        (|c: Case<Auction>| agrees(&AuctionSubject, &c)) as fn(Case<Auction>) -> TestResult,
    );
}

#[test]
fn qc_nim_k_fast_agrees_with_oracle() {
    qc().quickcheck((|c: Case<NimK>| agrees(&NimKSubject, &c)) as fn(Case<NimK>) -> TestResult);
}

#[test]
fn qc_following_nim_fast_agrees_with_oracle() {
    qc().quickcheck(
        (|c: Case<FollowingNim>| agrees(&FollowingNimSubject, &c))
            as fn(Case<FollowingNim>) -> TestResult,
    );
}

// ---------------------------------------------------------------------------------
// Metamorphic properties, on the oracle alone (no theory on either side of the check).

fn oracle<R: Rules + Clone>(rules: &R, pos: &R::Position) -> Option<Analysis<R::Move>> {
    Solver::verdict_only(rules.clone())
        .with_budget(BUDGET)
        .analyze(pos)
        .ok()
}

/// Reversing the piles of a pile game changes neither the verdict nor the number of
/// winning moves (the rules do not look at pile order).
fn permuting_changes_nothing<R: Rules<Position = Piles> + Clone>(c: Case<R>) -> TestResult {
    let mut rev = c.position.0.clone();
    rev.reverse();
    match (oracle(&c.rules, &c.position), oracle(&c.rules, &Piles(rev))) {
        (Some(a), Some(b)) => TestResult::from_bool(a.win == b.win && a.count() == b.count()),
        _ => TestResult::discard(),
    }
}

#[test]
fn qc_permuting_piles_changes_nothing() {
    qc().quickcheck(permuting_changes_nothing::<Nim> as fn(Case<Nim>) -> TestResult);
    qc().quickcheck(permuting_changes_nothing::<Lasker> as fn(Case<Lasker>) -> TestResult);
    qc().quickcheck(
        permuting_changes_nothing::<Subtraction> as fn(Case<Subtraction>) -> TestResult,
    );
    qc().quickcheck(permuting_changes_nothing::<Bash> as fn(Case<Bash>) -> TestResult);
}

/// In a normal-play sum, two equal components cancel: whoever wins G also wins G + H +
/// H (mirror the opponent's moves in the copies).
fn equal_components_cancel<R: Rules<Position = Piles> + Clone>(
    c: Case<R>,
    extra: u8,
) -> TestResult {
    let h = (extra % 5) as u64;
    let mut more = c.position.0.clone();
    more.extend([h, h]);
    if more.len() > 5 {
        return TestResult::discard();
    }
    match (
        oracle(&c.rules, &c.position),
        oracle(&c.rules, &Piles(more)),
    ) {
        (Some(a), Some(b)) => TestResult::from_bool(a.win == b.win),
        _ => TestResult::discard(),
    }
}

#[test]
fn qc_adding_two_equal_components_keeps_the_verdict() {
    qc().quickcheck(equal_components_cancel::<Nim> as fn(Case<Nim>, u8) -> TestResult);
    qc().quickcheck(equal_components_cancel::<Lasker> as fn(Case<Lasker>, u8) -> TestResult);
    qc().quickcheck(
        equal_components_cancel::<Subtraction> as fn(Case<Subtraction>, u8) -> TestResult,
    );
    qc().quickcheck(equal_components_cancel::<Bash> as fn(Case<Bash>, u8) -> TestResult);
    // E&D: the components are pairs; a repeated pair cancels too.
    qc().quickcheck(
        (|c: Case<Ed>, a: u8, b: u8| {
            let mut more = c.position.0.clone();
            let (a, b) = (1 + (a % 5) as u64, 1 + (b % 5) as u64);
            more.extend([a, b, a, b]);
            match (oracle(&Ed, &c.position), oracle(&Ed, &EdPiles(more))) {
                (Some(x), Some(y)) => TestResult::from_bool(x.win == y.win),
                _ => TestResult::discard(),
            }
        }) as fn(Case<Ed>, u8, u8) -> TestResult,
    );
}

/// The Grundy value of a sum is the XOR of the parts' values, each value found by
/// search alone (the v for which the position plus a nim heap of v is lost).
fn sum_is_xor<R: Rules<Position = Piles> + Clone>(a: Case<R>, b: Case<R>) -> TestResult {
    // Each part cut to its first two piles of at most 7 (small enough for the search,
    // instead of discarding almost every generated pair).
    let cut = |p: &Piles| Piles(p.0.iter().take(2).map(|&n| n % 8).collect::<Vec<u64>>());
    let (x, y) = (cut(&a.position), cut(&b.position));
    let whole = Piles(x.0.iter().chain(&y.0).copied().collect());
    let g = |p: &Piles| grundy_by_search(&a.rules, p, 32).ok().flatten();
    match (g(&x), g(&y), g(&whole)) {
        (Some(ga), Some(gb), Some(gw)) => TestResult::from_bool(gw == ga ^ gb),
        _ => TestResult::discard(),
    }
}

#[test]
fn qc_value_of_a_sum_is_the_xor_of_the_parts() {
    qc().quickcheck(sum_is_xor::<Nim> as fn(Case<Nim>, Case<Nim>) -> TestResult);
    qc().quickcheck(sum_is_xor::<Lasker> as fn(Case<Lasker>, Case<Lasker>) -> TestResult);
    qc().quickcheck(
        (|a: Case<Subtraction>, b: Case<Subtraction>| {
            // Both parts must be played under the same set.
            let b = Case {
                rules: a.rules.clone(),
                position: b.position,
            };
            sum_is_xor(a, b)
        }) as fn(Case<Subtraction>, Case<Subtraction>) -> TestResult,
    );
}

// ---------------------------------------------------------------------------------
// The checkers catch a planted bug.

/// A Nim solver with a planted bug: it forgets the last pile of positions with three
/// piles or more (as a solution that reads one pile too few would).
fn forgets_last_pile(rules: &Nim, pos: &Piles) -> Analysis<sgcheck::oracles::games::nim::Take> {
    let mut p = pos.0.clone();
    if p.len() >= 3 {
        p.pop();
    }
    NimSubject.fast(rules, &Piles(p))
}

const FORGETS_LAST_PILE: Planted<'static, NimSubject> = Planted {
    subject: &NimSubject,
    fast: forgets_last_pile,
};

thread_local! {
    static LAST_FAILURE: RefCell<Option<Case<Nim>>> = const { RefCell::new(None) };
}

#[test]
fn planted_bug_is_caught_by_quickcheck_and_shrunk() {
    fn prop(c: Case<Nim>) -> TestResult {
        let r = agrees(&FORGETS_LAST_PILE, &c);
        if r.is_failure() {
            LAST_FAILURE.with(|f| *f.borrow_mut() = Some(c));
        }
        r
    }
    let result = QuickCheck::new()
        .tests(2000)
        .max_tests(20000)
        .quicktest(prop as fn(Case<Nim>) -> TestResult);
    assert!(result.is_err(), "quickcheck did not catch the planted bug");
    // quickcheck shrinks before reporting: the last failing case it tried is minimal,
    // three piles with a single stone in the last one.
    let minimal = LAST_FAILURE
        .with(|f| f.borrow().clone())
        .expect("a failure was recorded");
    assert_eq!(minimal.position.0, vec![0, 0, 1], "shrunk to {minimal:?}");
}

#[test]
fn planted_bug_is_caught_by_the_fuzz_check() {
    // The same body the nim_agree fuzz target runs, with the planted solver: it must
    // panic (libFuzzer reports a panic as a crash), name the position and say how to
    // re-check the planted solver (not sgcheck's own, which is right there).
    let caught = std::panic::catch_unwind(|| {
        fuzzing::agree(&FORGETS_LAST_PILE, &Nim, &Piles(vec![0, 0, 1]))
    });
    let err = caught.expect_err("the fuzz check accepted a wrong answer");
    let msg = err.downcast_ref::<String>().cloned().unwrap_or_default();
    assert!(msg.contains("position:  0,0,1"), "{msg}");
    assert!(msg.contains("fast:      lose"), "{msg}");
    assert!(msg.contains("oracle:    win, best 2:1"), "{msg}");
    assert!(msg.contains("check_instance(&planted"), "{msg}");
    // And the correct solver passes the same input.
    assert_eq!(
        fuzzing::agree(&NimSubject, &Nim, &Piles(vec![0, 0, 1])),
        fuzzing::Checked::Kept
    );
}

/// Lasker's Nim with the split into two equal halves forgotten (a parity bug: it shows
/// only on even piles).
fn drops_equal_splits(
    _: &Lasker,
    pos: &Piles,
) -> Analysis<sgcheck::oracles::games::lasker::LaskerMove> {
    use sgcheck::oracles::games::lasker::LaskerMove;
    let mut a = sgcheck::games::lasker::analyze(pos);
    a.winning
        .retain(|m| !matches!(m, LaskerMove::Split { smaller, larger, .. } if smaller == larger));
    a
}

#[test]
fn parity_bug_shrinks_to_the_pile_2() {
    // From failing cases a shrinker that only tries 0, half and one less gets stuck on
    // (6 fails, 0, 3 and 5 pass; in 1,2,1,1,1 every one-pile-fewer list passes), the
    // offered shrinkers reach the single pile 2.
    let property = sgcheck::arbitrary::Property::new(drops_equal_splits);
    for start in [vec![6], vec![1, 2, 1, 1, 1], vec![4, 2, 2], vec![10, 1, 1]] {
        let case = Case::new(Lasker, Piles(start.clone()));
        let d = sgcheck::harness::check(&Lasker, &case.position, drops_equal_splits)
            .unwrap()
            .unwrap_or_else(|| panic!("{start:?} does not show the bug"));
        let (minimal, d) = property.shrink_failure(case, d);
        assert_eq!(minimal.position.0, vec![2], "from {start:?}: {d}");
    }
    // And the quickcheck route finds it and reports the pile 2 with both answers.
    let failure = QuickCheck::new()
        .tests(500)
        .quicktest(sgcheck::arbitrary::Property::new(drops_equal_splits))
        .expect_err("parity bug not caught");
    let text = format!("{failure:?}");
    assert!(text.contains("position:  2\\n"), "{text}");
    assert!(
        text.contains("oracle:    win, best 0:2, 2 winning moves [0:2 0=1+1]"),
        "{text}"
    );
}

#[test]
fn an_all_discarded_property_fails_naming_the_discards() {
    fn discard_all(_: Case<Nim>) -> TestResult {
        TestResult::discard()
    }
    let caught = std::panic::catch_unwind(|| {
        qc().quickcheck(discard_all as fn(Case<Nim>) -> TestResult);
    });
    let err = caught.expect_err("a property that checked nothing passed");
    let msg = err.downcast_ref::<String>().cloned().unwrap_or_default();
    assert!(msg.contains("0 cases passed of the 300 required"), "{msg}");
    assert!(msg.contains("3000 discarded"), "{msg}");
}

#[test]
fn a_mostly_discarded_property_fails_too() {
    // One case in twenty is kept: about 150 pass in 3000 tries, fewer than 300.
    fn keep_few(c: Case<Nim>, k: u8) -> TestResult {
        if !k.is_multiple_of(20) {
            return TestResult::discard();
        }
        agrees(&NimSubject, &c)
    }
    let caught = std::panic::catch_unwind(|| {
        qc().quickcheck(keep_few as fn(Case<Nim>, u8) -> TestResult);
    });
    let msg = caught
        .expect_err("a property short of 300 passing cases passed")
        .downcast_ref::<String>()
        .cloned()
        .unwrap_or_default();
    assert!(msg.contains("discarded (of 3000 tries)"), "{msg}");
}

#[test]
fn qc_every_registered_game_fast_agrees_with_oracle() {
    // The registry's own property for every game it lists: a game added by its
    // registry line is checked here with no line of its own.
    let mut checked = 0;
    for g in sgcheck::registry::GAMES {
        if g.property(300, 3000) {
            checked += 1;
        }
    }
    assert_eq!(checked, sgcheck::registry::verify_ids().count());
}
