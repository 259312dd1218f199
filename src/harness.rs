//! Your own fast solver against the exhaustive oracle, in one call.
//!
//! A fast solver here is any function `fn(&R, &R::Position) -> Analysis<R::Move>` for
//! a game `R` implementing [`Game`]: one of sgcheck's games
//! ([`crate::oracles::games`]) or a game of your own. It says whether the player to move
//! wins and lists every winning move, in any order (they are sorted into the canonical
//! order, the `Ord` of the move type, before the comparison); its `remoteness` is not
//! compared. The oracle plays every line to the end, so the two sides agree exactly
//! when the solver is right on that position.
//!
//! | job | call |
//! |---|---|
//! | one position | [`check`], [`assert_agrees`] |
//! | every small instance, smallest first, then random ones | [`sweep`], [`sweep_with`], [`assert_sweep`] |
//! | a quickcheck property | `quickcheck()`, or `arbitrary::agrees` in your own property (feature `quickcheck`) |
//! | a cargo-fuzz target | [`crate::fuzzing::check_case`] |
//!
//! Every failure is a [`Disagreement`]: the position, the rules, both answers (verdict,
//! best move, count, winning moves) and a Rust snippet that re-runs the check for your
//! solver ([`Game::reproduce`]).

use crate::verify::{verify_subject, Disagreement, Rng, Subject, Sweep, TierReport};
use crate::Game;
use sgcheck_oracles::{Analysis, SearchError};
use std::fmt;
use std::marker::PhantomData;
use std::time::Duration;

/// A fast solver of a game, as a [`Subject`] of the sweep: the game's instances
/// ([`Game`]) with your function as the fast side and no tier-1 checks.
pub struct FastSolver<R, F> {
    fast: F,
    game: PhantomData<fn() -> R>,
}

impl<R: Game, F> FastSolver<R, F>
where
    F: Fn(&R, &R::Position) -> Analysis<R::Move> + Sync,
{
    /// Wraps `fast`.
    pub fn new(fast: F) -> Self {
        FastSolver {
            fast,
            game: PhantomData,
        }
    }
}

impl<R: Game, F> Subject for FastSolver<R, F>
where
    F: Fn(&R, &R::Position) -> Analysis<R::Move> + Sync,
{
    type Rules = R;

    fn id(&self) -> &'static str {
        std::any::type_name::<R>()
    }

    fn instances(&self, size: u32) -> Vec<(R, R::Position)> {
        R::instances(size)
    }

    fn random_instance(&self, rng: &mut Rng) -> (R, R::Position) {
        R::random(rng)
    }

    fn fast(&self, rules: &R, pos: &R::Position) -> Analysis<R::Move> {
        (self.fast)(rules, pos)
    }

    fn reproduce(&self, rules: &R, pos: &R::Position) -> String {
        rules.reproduce(pos)
    }
}

/// Compares `fast` with the oracle on one position: `Ok(None)` when they agree,
/// `Ok(Some(_))` with what differs, `Err` when the position is too large for the
/// oracle's default budget or takes it longer than [`CHECK_TIME`] ([`check_within`]
/// sets another time).
///
/// ```
/// use sgcheck::oracles::games::nim::{Nim, Piles, Take};
/// use sgcheck::oracles::Analysis;
///
/// /// A Nim solver that only ever looks at the first pile.
/// fn first_pile_only(_: &Nim, pos: &Piles) -> Analysis<Take> {
///     let first = pos.0.first().copied().unwrap_or(0);
///     let winning = if first > 0 { vec![Take { pile: 0, amount: first }] } else { vec![] };
///     Analysis { win: first > 0, winning, remoteness: None }
/// }
///
/// assert_eq!(sgcheck::check(&Nim, &Piles(vec![3]), first_pile_only), Ok(None));
/// let d = sgcheck::check(&Nim, &Piles(vec![1, 1]), first_pile_only).unwrap().unwrap();
/// assert_eq!(d.position, "1,1");
/// assert_eq!(d.fast, "win, best 0:1, 1 winning move [0:1]");
/// assert_eq!(d.oracle, "lose");
/// ```
pub fn check<R: Game, F>(
    rules: &R,
    pos: &R::Position,
    fast: F,
) -> Result<Option<Disagreement>, SearchError>
where
    F: Fn(&R, &R::Position) -> Analysis<R::Move> + Sync,
{
    let mut solver = sgcheck_oracles::Solver::new(rules.clone()).with_time_limit(CHECK_TIME);
    crate::verify::compare(&FastSolver::new(fast), &mut solver, pos)
}

/// How long [`check`] and [`assert_agrees`] let the oracle search one position before
/// they give up with [`SearchError::Time`] (besides its default position budget).
pub const CHECK_TIME: Duration = Duration::from_secs(10);

/// [`check`] with a wall-time limit on the oracle instead of a position budget: the
/// oracle explores as many positions as `limit` (and its memory limit) allow, and a
/// position it cannot answer within `limit` gives [`SearchError::Time`], whose message
/// names the limit.
///
/// ```
/// use sgcheck::oracles::games::lasker::Lasker;
/// use sgcheck::oracles::games::nim::Piles;
/// use sgcheck::oracles::SearchError;
/// use std::time::Duration;
///
/// // Far too large for the exhaustive search: stopped at the limit.
/// let big = Piles(vec![40, 41, 42, 43, 44, 45]);
/// let fast = |_: &Lasker, p: &Piles| sgcheck::games::lasker::analyze(p);
/// let e = sgcheck::check_within(&Lasker, &big, fast, Duration::from_millis(200)).unwrap_err();
/// assert_eq!(e, SearchError::Time { limit: Duration::from_millis(200) });
/// assert!(e.to_string().contains("no answer within 0.2 s"));
/// ```
pub fn check_within<R: Game, F>(
    rules: &R,
    pos: &R::Position,
    fast: F,
    limit: Duration,
) -> Result<Option<Disagreement>, SearchError>
where
    F: Fn(&R, &R::Position) -> Analysis<R::Move> + Sync,
{
    let mut solver = sgcheck_oracles::Solver::new(rules.clone())
        .with_budget(usize::MAX)
        .with_time_limit(limit);
    crate::verify::compare(&FastSolver::new(fast), &mut solver, pos)
}

/// [`check`], panicking with the whole report when `fast` is wrong on `pos` (or when
/// the oracle cannot answer it).
///
/// ```
/// use sgcheck::oracles::games::lasker::{Lasker, LaskerMove};
/// use sgcheck::oracles::games::nim::Piles;
/// use sgcheck::oracles::Analysis;
///
/// // A hand-made answer for the single pile of 2: it wins by taking both stones or
/// // by splitting it into 1 + 1 (two equal piles, which cancel).
/// let answer = |_: &Lasker, _: &Piles| Analysis {
///     win: true,
///     winning: vec![
///         LaskerMove::Split { pile: 0, smaller: 1, larger: 1 },
///         LaskerMove::Take { pile: 0, amount: 2 },
///     ],
///     remoteness: None,
/// };
/// sgcheck::assert_agrees(&Lasker, &Piles(vec![2]), answer);
/// ```
///
/// # Panics
/// When the two sides disagree, with the [`Disagreement`] as the message.
#[track_caller]
pub fn assert_agrees<R: Game, F>(rules: &R, pos: &R::Position, fast: F)
where
    F: Fn(&R, &R::Position) -> Analysis<R::Move> + Sync,
{
    match check(rules, pos, fast) {
        Ok(None) => {}
        Ok(Some(d)) => panic!("{d}"),
        Err(e) => panic!("cannot check position {pos} (rules {rules}): {e}"),
    }
}

/// Why a sweep did not pass.
#[derive(Clone, Debug, PartialEq)]
pub enum SweepError {
    /// The smallest disagreement found.
    Disagreement(Box<Disagreement>),
    /// Fewer instances than [`Sweep::min_checked`] could be compared (the game gave
    /// too few, or they were too large for the oracle): a run that checked little or
    /// nothing does not pass.
    NothingChecked {
        /// Instances skipped because the oracle could not answer them.
        skipped: u64,
        /// Instances compared.
        checked: u64,
        /// The least number of instances the sweep had to compare.
        min: u64,
    },
}

impl fmt::Display for SweepError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SweepError::Disagreement(d) => d.fmt(f),
            SweepError::NothingChecked {
                skipped,
                checked,
                min,
            } => write!(
                f,
                "the sweep checked too little: {checked} instances compared of the {min} \
                 required ({skipped} skipped, too large for the oracle)"
            ),
        }
    }
}

impl std::error::Error for SweepError {}

/// Sweeps `fast` for about `time`: every instance of the game, smallest first
/// ([`Game::instances`]), then random ones ([`Game::random`], seed 0), in parallel.
/// Returns the counts, or the smallest disagreement found.
///
/// ```
/// use sgcheck::oracles::games::nim::{Nim, Piles, Take};
/// use sgcheck::oracles::Analysis;
/// use std::time::Duration;
///
/// /// Bouton's theorem: the player to move wins iff the XOR of the piles is not zero;
/// /// a winning move brings one pile down to the XOR of all the others.
/// fn bouton(_: &Nim, pos: &Piles) -> Analysis<Take> {
///     let x = pos.0.iter().fold(0, |a, &p| a ^ p);
///     let winning = pos.0.iter().enumerate()
///         .filter(|&(_, &p)| p ^ x < p)
///         .map(|(pile, &p)| Take { pile, amount: p - (p ^ x) })
///         .collect();
///     Analysis { win: x != 0, winning, remoteness: None }
/// }
///
/// let report = sgcheck::sweep(bouton, Duration::from_millis(200)).unwrap();
/// assert!(report.checked > 1000);
///
/// // Summing instead of XOR-ing is caught at the smallest position where it matters.
/// fn sum(rules: &Nim, pos: &Piles) -> Analysis<Take> {
///     let mut a = bouton(rules, pos);
///     a.win = pos.0.iter().sum::<u64>() != 0;
///     a
/// }
/// let err = sgcheck::sweep(sum, Duration::from_millis(200)).unwrap_err();
/// assert!(err.to_string().contains("position:  1,1"), "{err}");
/// ```
pub fn sweep<R: Game, F>(fast: F, time: Duration) -> Result<TierReport, SweepError>
where
    F: Fn(&R, &R::Position) -> Analysis<R::Move> + Sync,
{
    sweep_with(
        fast,
        &Sweep {
            time,
            ..Sweep::default()
        },
    )
}

/// [`sweep`] with every setting of [`Sweep`]: time, seed of the random phase, share of
/// the enumeration, oracle budget per instance.
pub fn sweep_with<R: Game, F>(fast: F, settings: &Sweep) -> Result<TierReport, SweepError>
where
    F: Fn(&R, &R::Position) -> Analysis<R::Move> + Sync,
{
    let report = verify_subject(&FastSolver::new(fast), settings, &());
    let tier2 = report
        .tiers
        .into_iter()
        .find(|t| t.tier == 2)
        .expect("verify_subject reports tier 2");
    if let Some(d) = tier2.first_disagreement {
        return Err(SweepError::Disagreement(Box::new(d)));
    }
    if tier2.checked == 0 || tier2.checked < settings.min_checked {
        return Err(SweepError::NothingChecked {
            skipped: tier2.skipped,
            checked: tier2.checked,
            min: settings.min_checked,
        });
    }
    Ok(tier2)
}

/// [`sweep`], panicking with the smallest disagreement.
///
/// # Panics
/// When the sweep finds a disagreement or checks nothing.
#[track_caller]
pub fn assert_sweep<R: Game, F>(fast: F, time: Duration) -> TierReport
where
    F: Fn(&R, &R::Position) -> Analysis<R::Move> + Sync,
{
    sweep(fast, time).unwrap_or_else(|e| panic!("{e}"))
}

/// Settings of [`quickcheck_with`].
#[cfg(feature = "quickcheck")]
#[cfg_attr(docsrs, doc(cfg(feature = "quickcheck")))]
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct QuickCheck {
    /// Seed of the cases; `None`: the `SGCHECK_SEED` environment variable when set,
    /// else a fresh one. The seed is printed on standard error, and a failure names it.
    pub seed: Option<u64>,
    /// Passing cases required.
    pub tests: u64,
    /// Cases tried at most (those too large for the oracle are discarded).
    pub max_tests: u64,
    /// Largest size (see [`Game::MAX_SIZE`]); `None`: the run's
    /// [`crate::game::max_size`].
    pub max_size: Option<u32>,
}

#[cfg(feature = "quickcheck")]
impl Default for QuickCheck {
    fn default() -> Self {
        QuickCheck {
            seed: None,
            tests: 300,
            max_tests: 3000,
            max_size: None,
        }
    }
}

/// The environment variable that gives [`quickcheck()`] its seed.
pub const SEED_ENV: &str = "SGCHECK_SEED";

/// Sizes of the first cases of [`quickcheck_with`]; the cap grows from here to the
/// largest size.
#[cfg(feature = "quickcheck")]
const FIRST_SIZES: u32 = 8;

/// Runs a quickcheck property (feature `quickcheck`): `fast` agrees with the oracle on
/// random [`crate::Case`]s of the game, 300 passing cases out of at most 3000 tries;
/// see [`quickcheck_with`].
///
/// ```
/// use sgcheck::oracles::games::take_range::{Coins, TakeCoins, TakeRange};
/// use sgcheck::oracles::Analysis;
///
/// /// Misère take p..q from one pile: the player to move loses iff 1 <= n mod (p+q) <= p.
/// fn take_range(r: &TakeRange, c: &Coins) -> Analysis<TakeCoins> {
///     let (n, p, q) = (c.0, r.p, r.q);
///     // Taking the last coin loses; a move must leave a losing count for the opponent.
///     let loses = |m: u64| (1..=p).contains(&(m % (p + q)));
///     let amounts = if n < p { n..=n } else { p..=q.min(n) };
///     let winning: Vec<_> = amounts
///         .filter(|&a| a < n && loses(n - a))
///         .map(TakeCoins)
///         .collect();
///     // With no coin left, the opponent took the last one: the player to move has won.
///     Analysis { win: !loses(n), winning, remoteness: None }
/// }
///
/// sgcheck::quickcheck(take_range);
/// ```
#[cfg(feature = "quickcheck")]
#[cfg_attr(docsrs, doc(cfg(feature = "quickcheck")))]
pub fn quickcheck<R: Game, F>(fast: F)
where
    F: Fn(&R, &R::Position) -> Analysis<R::Move> + Sync + 'static,
{
    quickcheck_with(fast, &QuickCheck::default());
}

/// [`quickcheck()`] with its [`QuickCheck`] settings. The cases come from the seed alone
/// (the same seed gives the same cases), and their sizes grow: the first cases have
/// sizes below 8, the cap reaches the largest size at a third of the run, and from
/// there sizes are drawn towards the cap (half of them in its top quarter), where the
/// instances are most numerous and a bug that needs a large one shows. Half the cases
/// come from [`Game::random_up_to`] the cap, half are one of [`Game::instances`] of
/// the size drawn. Cases too large for the oracle are discarded. A failing case is shrunk ([`Game::shrink_keeping_value`], then
/// [`Game::shrink`], taking the first failing candidate until none fails), and the
/// panic message is the [`Disagreement`] of the smallest case reached, with the seed.
///
/// ```
/// use sgcheck::harness::{quickcheck_with, QuickCheck};
/// use sgcheck::oracles::games::nim::{Nim, Piles, Take};
/// use sgcheck::oracles::Analysis;
///
/// fn bouton(_: &Nim, pos: &Piles) -> Analysis<Take> {
///     let x = pos.0.iter().fold(0, |a, &p| a ^ p);
///     let winning = pos.0.iter().enumerate()
///         .filter(|&(_, &p)| p ^ x < p)
///         .map(|(pile, &p)| Take { pile, amount: p - (p ^ x) })
///         .collect();
///     Analysis { win: x != 0, winning, remoteness: None }
/// }
/// quickcheck_with(bouton, &QuickCheck { seed: Some(7), tests: 100, ..QuickCheck::default() });
///
/// // Wrong wherever a pile holds 3 stones: the message is the disagreement.
/// fn three(rules: &Nim, pos: &Piles) -> Analysis<Take> {
///     let mut a = bouton(rules, pos);
///     if pos.0.contains(&3) {
///         a.win = !a.win;
///     }
///     a
/// }
/// let failed = std::panic::catch_unwind(|| {
///     quickcheck_with(three, &QuickCheck { seed: Some(7), ..QuickCheck::default() })
/// });
/// let msg = failed.unwrap_err().downcast::<String>().unwrap();
/// assert!(msg.starts_with("sgcheck::quickcheck: the fast solver disagrees"), "{msg}");
/// assert!(msg.contains("seed 7"), "{msg}");
/// ```
///
/// # Panics
/// When a case fails, or fewer than `tests` cases passed within `max_tests` tries.
#[cfg(feature = "quickcheck")]
#[cfg_attr(docsrs, doc(cfg(feature = "quickcheck")))]
pub fn quickcheck_with<R: Game, F>(fast: F, settings: &QuickCheck)
where
    F: Fn(&R, &R::Position) -> Analysis<R::Move> + Sync + 'static,
{
    use rand::SeedableRng;
    let seed = settings
        .seed
        .or_else(|| std::env::var(SEED_ENV).ok()?.trim().parse().ok())
        .unwrap_or_else(rand::random);
    let max = settings.max_size.unwrap_or_else(crate::game::max_size::<R>);
    eprintln!("sgcheck::quickcheck: seed {seed} ({SEED_ENV}={seed} repeats this run)");
    let property = crate::arbitrary::Property::<R, F>::new(fast);
    let tests = settings.tests.max(1);
    let (mut passed, mut discarded) = (0u64, 0u64);
    for i in 0..settings.max_tests {
        if passed >= tests {
            break;
        }
        let mut rng = crate::verify::Rng::seed_from_u64(seed);
        rng.set_stream(i);
        // The cap grows with the passing cases, from FIRST_SIZES to `max` at a third
        // of the run; the size is drawn towards it: cap - u² cap, u uniform in [0, 1).
        let first = FIRST_SIZES.min(max);
        let cap = first + ((u64::from(max - first) * (3 * passed).min(tests)) / tests) as u32;
        let u: f64 = rand::Rng::gen(&mut rng);
        let size = cap - ((u * u * f64::from(cap)) as u32).min(cap);
        let (rules, position) = if i % 2 == 0 {
            R::random_up_to(&mut rng, cap)
        } else {
            crate::game::random_of_size::<R>(&mut rng, size, max)
        };
        let case = crate::Case::new(rules, position);
        match property.check(&case) {
            Ok(None) => passed += 1,
            Err(()) => discarded += 1,
            Ok(Some(d)) => {
                let (_, d, steps) = property.shrink_failure_counted(case, d);
                panic!(
                    "sgcheck::quickcheck: the fast solver disagrees with the oracle (case {} \
                     of seed {seed}, shrunk in {steps} steps):\n{d}\nseed {seed}: \
                     {SEED_ENV}={seed} repeats this run",
                    i + 1
                );
            }
        }
    }
    if passed < tests {
        panic!(
            "sgcheck::quickcheck: {passed} cases passed of the {tests} required; {discarded} \
             discarded as too large for the oracle (of {} tries, seed {seed}): the property \
             checked too little",
            passed + discarded
        );
    }
}

#[cfg(test)]
mod min_tests {
    use super::*;
    use sgcheck_oracles::games::nim::{Nim, Piles, Take};

    fn nim(_: &Nim, pos: &Piles) -> Analysis<Take> {
        crate::verify::tests::bouton(pos)
    }

    #[test]
    fn a_sweep_that_compared_too_little_fails() {
        // Sizes 0 to 2 only: far fewer than 300 positions.
        let settings = Sweep {
            max_size: Some(2),
            random_batches: Some(0),
            ..Sweep::default()
        };
        match sweep_with(nim, &settings) {
            Err(SweepError::NothingChecked { checked, min, .. }) => {
                assert!(checked > 0 && checked < 300, "{checked}");
                assert_eq!(min, 300);
            }
            other => panic!("{other:?}"),
        }
        // The same sweep asking for no more than it does passes.
        let fewer = Sweep {
            min_checked: 1,
            ..settings
        };
        assert!(sweep_with(nim, &fewer).is_ok());
    }

    #[test]
    fn a_panicking_solver_is_a_disagreement_in_check_and_sweep() {
        fn panics(_: &Nim, pos: &Piles) -> Analysis<Take> {
            assert!(pos.0.len() < 2, "two piles not supported");
            nim(&Nim, pos)
        }
        let d = check(&Nim, &Piles(vec![1, 2]), panics).unwrap().unwrap();
        assert!(d.fast.contains("panicked: two piles not supported"), "{d}");
        match sweep(panics, Duration::from_secs(2)) {
            Err(SweepError::Disagreement(d)) => {
                assert_eq!(d.position, "0,0");
                assert!(d.fast.contains("panicked"), "{d}");
            }
            other => panic!("{other:?}"),
        }
    }
}
