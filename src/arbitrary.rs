//! quickcheck `Arbitrary` for [`Case<R>`] of every [`Game`] (feature `quickcheck`), and
//! the property that compares a fast solver with the oracle on it.
//!
//! Half of the generated cases are small instances drawn from [`Game::instances`], half
//! come from [`Game::random`]; both are small enough for the exhaustive oracle. Shrinking
//! uses [`Game::shrink_keeping_value`] (components whose values XOR to 0 dropped), then
//! [`Game::shrink`]. In your own quickcheck suite:
//!
//! ```
//! use quickcheck::{QuickCheck, TestResult};
//! use sgcheck::oracles::games::lasker::{Lasker, LaskerMove};
//! use sgcheck::oracles::games::nim::Piles;
//! use sgcheck::oracles::Analysis;
//! use sgcheck::Case;
//!
//! /// Lasker's Nim, as a contest solution would write it: SG(4k+3) = 4k+4,
//! /// SG(4k+4) = 4k+3, every other pile is its own value.
//! fn sg(n: u64) -> u64 {
//!     match n % 4 { 3 => n + 1, 0 if n > 0 => n - 1, _ => n }
//! }
//! fn my_lasker(_: &Lasker, pos: &Piles) -> Analysis<LaskerMove> {
//!     let x = pos.0.iter().fold(0, |a, &p| a ^ sg(p));
//!     let mut winning = Vec::new();
//!     for (pile, &n) in pos.0.iter().enumerate() {
//!         let need = x ^ sg(n);
//!         for amount in 1..=n {
//!             if x != 0 && sg(n - amount) == need {
//!                 winning.push(LaskerMove::Take { pile, amount });
//!             }
//!         }
//!         for smaller in 1..=n / 2 {
//!             if x != 0 && sg(smaller) ^ sg(n - smaller) == need {
//!                 winning.push(LaskerMove::Split { pile, smaller, larger: n - smaller });
//!             }
//!         }
//!     }
//!     Analysis { win: x != 0, winning, remoteness: None }
//! }
//!
//! fn prop(case: Case<Lasker>) -> TestResult {
//!     sgcheck::arbitrary::agrees(&case, my_lasker)
//! }
//! QuickCheck::new().tests(100).quickcheck(prop as fn(Case<Lasker>) -> TestResult);
//! ```
//!
//! A failing property reports the minimal case's [`Disagreement`] (position, rules,
//! both answers and the snippet that reproduces it for your solver), not only the
//! case's `Debug`.

pub use crate::game::Case;
use crate::game::Game;
use crate::harness::FastSolver;
use crate::verify::{compare, Disagreement, Rng};
use quickcheck::{Arbitrary, Gen, QuickCheck, TestResult, Testable};
use rand::SeedableRng;
use sgcheck_oracles::{Analysis, Solver};
use std::marker::PhantomData;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

/// Oracle budget for one quickcheck case; larger cases are discarded.
pub const QUICKCHECK_BUDGET: usize = 200_000;

/// Shrink steps [`Property`] takes at most before it reports the case it reached.
pub const SHRINK_STEPS: usize = 1_000;

impl<R: Game> Arbitrary for Case<R> {
    /// An instance of size at most the smaller of quickcheck's size (`g.size()`,
    /// `QUICKCHECK_GENERATOR_SIZE`) and the run's [`crate::game::max_size`]: half the
    /// time [`Game::random_up_to`], half the time one of [`Game::instances`].
    fn arbitrary(g: &mut Gen) -> Self {
        let mut rng = Rng::seed_from_u64(u64::arbitrary(g));
        let max = crate::game::max_size::<R>().min(u32::try_from(g.size()).unwrap_or(u32::MAX));
        let (rules, position) = if bool::arbitrary(g) {
            R::random_up_to(&mut rng, max)
        } else {
            crate::game::random_up_to::<R>(&mut rng, max)
        };
        Case { rules, position }
    }

    /// The candidates that keep the true answer first
    /// ([`Game::shrink_keeping_value`]), then [`Game::shrink`]'s.
    fn shrink(&self) -> Box<dyn Iterator<Item = Self>> {
        let smaller: Vec<Case<R>> = self
            .rules
            .shrink_keeping_value(&self.position)
            .into_iter()
            .chain(self.rules.shrink(&self.position))
            .map(|(rules, position)| Case { rules, position })
            .collect();
        Box::new(smaller.into_iter())
    }
}

/// Compares `fast` with the oracle on one case: `Ok(None)` agree, `Ok(Some)` disagree,
/// `Err(())` too large for the oracle.
fn disagreement<R: Game, F>(case: &Case<R>, fast: &F) -> Result<Option<Disagreement>, ()>
where
    F: Fn(&R, &R::Position) -> Analysis<R::Move> + Sync,
{
    let mut solver = Solver::verdict_only(case.rules.clone()).with_budget(QUICKCHECK_BUDGET);
    compare(&FastSolver::new(fast), &mut solver, &case.position).map_err(|_| ())
}

/// A [`Testable`] that counts the cases it was asked for (quickcheck asks once per
/// try; shrinking happens inside the inner property).
struct Counted<A> {
    inner: A,
    tries: Arc<AtomicU64>,
}

impl<A: Testable> Testable for Counted<A> {
    fn result(&self, g: &mut Gen) -> TestResult {
        self.tries.fetch_add(1, Ordering::Relaxed);
        self.inner.result(g)
    }
}

/// Runs a quickcheck property that must pass on at least `min_passed` cases within
/// `max_tests` tries: a property whose cases are mostly discarded (too large for the
/// oracle, or outside what it is about) fails, naming how many passed and how many
/// were discarded, instead of passing having checked little or nothing. A failing case
/// fails with quickcheck's own message.
///
/// ```
/// use quickcheck::TestResult;
/// // Every case discarded: the property checked nothing, so it fails.
/// let all_discarded = std::panic::catch_unwind(|| {
///     sgcheck::arbitrary::check_property((|_: u8| TestResult::discard()) as fn(u8) -> TestResult, 300, 1000)
/// });
/// let msg = all_discarded.unwrap_err().downcast::<String>().unwrap();
/// assert!(msg.contains("0 cases passed") && msg.contains("1000 discarded"), "{msg}");
/// sgcheck::arbitrary::check_property((|x: u8| x == x) as fn(u8) -> bool, 300, 1000);
/// ```
///
/// # Panics
/// When a case fails, or fewer than `min_passed` cases passed.
pub fn check_property<A: Testable>(prop: A, min_passed: u64, max_tests: u64) {
    let tries = Arc::new(AtomicU64::new(0));
    let counted = Counted {
        inner: prop,
        tries: Arc::clone(&tries),
    };
    let run = crate::guard::catch_quiet(|| {
        QuickCheck::new()
            .tests(min_passed)
            .max_tests(max_tests)
            .min_tests_passed(0)
            .quicktest(counted)
    });
    match run {
        Ok(Ok(passed)) if passed >= min_passed => {}
        Ok(Ok(passed)) => {
            let d = tries.load(Ordering::Relaxed).saturating_sub(passed);
            panic!(
                "quickcheck: {passed} cases passed of the {min_passed} required; {d} discarded \
             (of {max_tests} tries): the property checked too little"
            )
        }
        Ok(Err(failure)) => panic!("[quickcheck] TEST FAILED: {failure:?}"),
        Err(p) => panic!("{}", p.message),
    }
}

/// The property "`fast` agrees with the oracle on `case`", for your own quickcheck
/// properties: passed, an error carrying the whole [`Disagreement`] (so quickcheck
/// prints the position, both answers and the reproduction), or discarded when the case
/// is too large for the oracle.
pub fn agrees<R: Game, F>(case: &Case<R>, fast: F) -> TestResult
where
    F: Fn(&R, &R::Position) -> Analysis<R::Move> + Sync,
{
    match disagreement(case, &fast) {
        Ok(None) => TestResult::passed(),
        Ok(Some(d)) => TestResult::error(d.to_string()),
        Err(()) => TestResult::discard(),
    }
}

/// A quickcheck [`Testable`]: `fast` against the oracle on a random [`Case<R>`]. On a
/// failure it shrinks the case itself (first failing candidate of
/// [`Game::shrink_keeping_value`] and [`Game::shrink`], again and again) and fails with the [`Disagreement`] of the smallest case it
/// reached, so the report never lacks the position. [`crate::quickcheck`] runs it.
pub struct Property<R, F> {
    fast: F,
    game: PhantomData<fn() -> R>,
}

impl<R: Game, F> Property<R, F>
where
    F: Fn(&R, &R::Position) -> Analysis<R::Move> + Sync + 'static,
{
    /// The property for `fast`.
    pub fn new(fast: F) -> Self {
        Property {
            fast,
            game: PhantomData,
        }
    }

    /// The smallest failing case reachable from `case` by
    /// [`Game::shrink_keeping_value`] and [`Game::shrink`], with its disagreement.
    pub fn shrink_failure(&self, case: Case<R>, d: Disagreement) -> (Case<R>, Disagreement) {
        let (case, d, _) = self.shrink_failure_counted(case, d);
        (case, d)
    }

    /// [`Property::shrink_failure`], with the number of steps taken.
    pub fn shrink_failure_counted(
        &self,
        mut case: Case<R>,
        mut d: Disagreement,
    ) -> (Case<R>, Disagreement, usize) {
        let mut steps = 0;
        'steps: while steps < SHRINK_STEPS {
            for smaller in Arbitrary::shrink(&case) {
                if let Ok(Some(e)) = disagreement(&smaller, &self.fast) {
                    case = smaller;
                    d = e;
                    steps += 1;
                    continue 'steps;
                }
            }
            break;
        }
        (case, d, steps)
    }

    /// `fast` against the oracle on one case: `Ok(None)` when they agree, the
    /// disagreement, or `Err(())` when the case is too large for the oracle.
    pub(crate) fn check(&self, case: &Case<R>) -> Result<Option<Disagreement>, ()> {
        disagreement(case, &self.fast)
    }
}

impl<R: Game, F> Testable for Property<R, F>
where
    F: Fn(&R, &R::Position) -> Analysis<R::Move> + Sync + 'static,
{
    fn result(&self, g: &mut Gen) -> TestResult {
        let case = Case::<R>::arbitrary(g);
        match disagreement(&case, &self.fast) {
            Ok(None) => TestResult::passed(),
            Err(()) => TestResult::discard(),
            Ok(Some(d)) => {
                let (_, d) = self.shrink_failure(case, d);
                TestResult::error(d.to_string())
            }
        }
    }
}
