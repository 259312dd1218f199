//! The registry: every built-in game, once, and what finds a game by its id.
//!
//! `sgcheck list`, `check`, `verify --game`, the `<game>_agree` fuzz targets and
//! problem declarations all find a game through [`GAMES`]; nothing else names one.
//! A game's line here is [`Entry::game`] of the type that implements
//! [`BuiltIn`] in its fast file, or [`Entry::declarable_only`] for a game that only
//! problem declarations use. A program built on the library adds its own games with
//! [`register`].

use crate::fuzzing::{self, Checked};
use crate::games::declared::{DeclarableGame, Declare, Declared};
use crate::games::{self, BuiltIn};
use crate::verify::{verify_subject, CheckOutcome, GameReport, Progress, Sweep};
use std::sync::RwLock;

/// One registered game.
pub struct Entry {
    id: &'static str,
    summary: &'static str,
    subject: Option<SubjectFns>,
    declarable: Option<&'static dyn DeclarableGame>,
}

/// What a game with a [`crate::verify::Subject`] answers.
struct SubjectFns {
    #[cfg_attr(not(test), allow(dead_code))]
    subject_id: fn() -> &'static str,
    verify: fn(&Sweep, &dyn Progress) -> GameReport,
    check: fn(Option<&str>, &str, usize) -> Result<CheckOutcome, String>,
    fuzz: fn(&[u8]) -> Option<Checked>,
    #[cfg(feature = "quickcheck")]
    property: fn(u64, u64),
}

fn verify_with<S: BuiltIn>(sweep: &Sweep, progress: &dyn Progress) -> GameReport {
    verify_subject(&S::default(), sweep, &progress)
}

#[cfg(feature = "quickcheck")]
fn property_with<S: BuiltIn>(min_passed: u64, max_tests: u64) {
    let fast = |rules: &S::Rules, pos: &_| S::default().fast(rules, pos);
    crate::arbitrary::check_property(
        crate::arbitrary::Property::<S::Rules, _>::new(fast),
        min_passed,
        max_tests,
    );
}

fn subject_id<S: BuiltIn>() -> &'static str {
    S::default().id()
}

fn check_with<S: BuiltIn>(
    rules: Option<&str>,
    position: &str,
    budget: usize,
) -> Result<CheckOutcome, String> {
    S::default().check_text(rules, position, budget)
}

impl Entry {
    /// The line of a built-in game: `verify`, `check`, `list`, its fuzz target and,
    /// when it has one, its declaration.
    pub const fn game<S: BuiltIn>() -> Entry {
        Entry {
            id: S::ID,
            summary: S::SUMMARY,
            subject: Some(SubjectFns {
                subject_id: subject_id::<S>,
                verify: verify_with::<S>,
                check: check_with::<S>,
                fuzz: fuzzing::replay_agree::<S>,
                #[cfg(feature = "quickcheck")]
                property: property_with::<S>,
            }),
            declarable: S::DECLARABLE,
        }
    }

    /// The line of a game only problem declarations use (no `verify` subject).
    pub const fn declarable_only<D: Declare>() -> Entry {
        Entry {
            id: D::ID,
            summary: "",
            subject: None,
            declarable: Some(Declared::<D>::GAME),
        }
    }

    /// The game id.
    pub fn id(&self) -> &'static str {
        self.id
    }
    /// One line on its rules (empty for a game only declarations use).
    pub fn summary(&self) -> &'static str {
        self.summary
    }
    /// Whether `verify`, `check` and a fuzz target know the game.
    pub fn has_subject(&self) -> bool {
        self.subject.is_some()
    }
    /// How problem declarations use it, when they can.
    pub fn declarable(&self) -> Option<&'static dyn DeclarableGame> {
        self.declarable
    }
    /// Runs `verify` on the game; `None` for a game without a subject.
    pub fn verify(&self, sweep: &Sweep, progress: &dyn Progress) -> Option<GameReport> {
        Some((self.subject.as_ref()?.verify)(sweep, progress))
    }
    /// Runs `check` on one position; `None` for a game without a subject.
    pub fn check(
        &self,
        rules: Option<&str>,
        position: &str,
        budget: usize,
    ) -> Option<Result<CheckOutcome, String>> {
        Some((self.subject.as_ref()?.check)(rules, position, budget))
    }
    /// The name of its `<game>_agree` fuzz target; `None` without a subject.
    pub fn fuzz_target(&self) -> Option<String> {
        self.subject
            .as_ref()
            .map(|_| fuzzing::agree_target_name(self.id))
    }
    /// The quickcheck property of its fast solver against the oracle on random
    /// [`crate::Case`]s: at least `min_passed` cases checked in at most `max_tests`
    /// tries (see [`crate::arbitrary::check_property`]); `false` for a game without a
    /// subject.
    ///
    /// # Panics
    /// When the fast solver and the oracle disagree, or too few cases were checked.
    #[cfg(feature = "quickcheck")]
    pub fn property(&self, min_passed: u64, max_tests: u64) -> bool {
        match &self.subject {
            Some(s) => {
                (s.property)(min_passed, max_tests);
                true
            }
            None => false,
        }
    }
    /// Runs its fuzz target on raw bytes; `None` without a subject or when the bytes
    /// do not decode.
    pub fn fuzz(&self, data: &[u8]) -> Option<Checked> {
        (self.subject.as_ref()?.fuzz)(data)
    }
}

/// Every built-in game, in the order `sgcheck list` shows them. A game is added to
/// sgcheck by its line here (and its oracle and fast files).
pub static GAMES: &[Entry] = &[
    Entry::game::<games::nim::NimSubject>(),
    Entry::game::<games::bash::BashSubject>(),
    Entry::game::<games::take_range::TakeRangeSubject>(),
    Entry::game::<games::lasker::LaskerSubject>(),
    Entry::game::<games::subtraction::SubtractionSubject>(),
    Entry::game::<games::ed::EdSubject>(),
    Entry::game::<games::split::SplitSubject>(),
    Entry::game::<games::following_nim::FollowingNimSubject>(),
    Entry::game::<games::octal::OctalSubject>(),
    Entry::game::<games::grundy::GrundySubject>(),
    Entry::game::<games::simple_nim::SimpleNimSubject>(),
    Entry::game::<games::misere_nim::MisereNimSubject>(),
    Entry::game::<games::staircase::StaircaseSubject>(),
    Entry::game::<games::wythoff::WythoffSubject>(),
    Entry::game::<games::auction::AuctionSubject>(),
    Entry::game::<games::nim_k::NimKSubject>(),
    Entry::game::<games::hackenbush_tree::HackenbushTreeSubject>(),
    Entry::game::<games::mock_turtles::MockTurtlesSubject>(),
    Entry::declarable_only::<games::paint_chain::PaintChainGame>(),
    Entry::declarable_only::<games::heap_code::HeapCodeGame>(),
    Entry::declarable_only::<games::heap_ranges::HeapRangesGame>(),
    Entry::declarable_only::<games::scripted::ScriptedGame>(),
    Entry::declarable_only::<games::dag_tokens::DagTokensGame>(),
];

/// Games registered while the program runs ([`register`]), after [`GAMES`].
static REGISTERED: RwLock<Vec<&'static Entry>> = RwLock::new(Vec::new());

/// Adds a game of your own to the registry of this process, so that everything that
/// finds a game by its id finds it too: `game = "<id>"` in a problem declaration
/// (`solve`, `verify --problem`, `audit --problem`, `export`), and, for an
/// [`Entry::game`], `verify --game` and `check`. Call it at the start of `main`, then
/// hand the command line to [`crate::cli::main`]: that binary is sgcheck with your
/// game (see `examples/own_game_cli.rs`).
///
/// An error when the id is already taken (by a built-in game or an earlier call).
pub fn register(entry: Entry) -> Result<(), String> {
    let mut extra = REGISTERED.write().unwrap_or_else(|e| e.into_inner());
    if GAMES
        .iter()
        .chain(extra.iter().copied())
        .any(|g| g.id == entry.id)
    {
        return Err(format!(
            "a game with id {:?} is already registered",
            entry.id
        ));
    }
    extra.push(Box::leak(Box::new(entry)));
    Ok(())
}

/// Every game: the built-in ones in registry order, then those [`register`]ed.
pub fn all() -> Vec<&'static Entry> {
    let extra = REGISTERED.read().unwrap_or_else(|e| e.into_inner());
    GAMES.iter().chain(extra.iter().copied()).collect()
}

/// The game `id`.
pub fn game(id: &str) -> Option<&'static Entry> {
    GAMES.iter().find(|g| g.id == id).or_else(|| {
        let extra = REGISTERED.read().unwrap_or_else(|e| e.into_inner());
        extra.iter().copied().find(|g| g.id == id)
    })
}

/// Every game `verify` and `check` know (those with a subject), in registry order.
pub fn verify_ids() -> impl Iterator<Item = &'static str> {
    all().into_iter().filter(|g| g.has_subject()).map(|g| g.id)
}

/// The declarable game `id`.
pub fn declarable(id: &str) -> Option<&'static dyn DeclarableGame> {
    game(id)?.declarable
}

/// Every declarable game, in registry order.
pub fn declarables() -> impl Iterator<Item = &'static dyn DeclarableGame> {
    all().into_iter().filter_map(|g| g.declarable)
}

/// Runs `verify` on the game `id`; `None` when no such game exists.
pub fn verify_game(id: &str, sweep: &Sweep, progress: &dyn Progress) -> Option<GameReport> {
    game(id)?.verify(sweep, progress)
}

/// Runs `check` on one position of the game `id`; `None` when no such game exists.
pub fn check_game(
    id: &str,
    rules: Option<&str>,
    position: &str,
    budget: usize,
) -> Option<Result<CheckOutcome, String>> {
    game(id)?.check(rules, position, budget)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_unique_and_match_their_subjects_and_declarations() {
        let mut seen = std::collections::HashSet::new();
        for g in GAMES {
            assert!(seen.insert(g.id()), "{} registered twice", g.id());
            if let Some(d) = g.declarable() {
                assert_eq!(d.id(), g.id());
            }
            assert!(g.has_subject() || g.declarable().is_some(), "{}", g.id());
            if let Some(s) = &g.subject {
                assert_eq!((s.subject_id)(), g.id());
                assert_eq!(
                    g.fuzz_target(),
                    Some(format!("{}_agree", g.id().replace('-', "_")))
                );
            }
        }
    }
}

#[cfg(test)]
mod declared_tests {
    use super::*;
    use crate::games::declared::{bounds_hold, ParamValue};
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    #[test]
    fn every_game_of_verify_is_declarable_once() {
        // Octal and Grundy games take their rules as a code or a rule text, which no
        // declaration parameter carries yet.
        // Nim_k has no problem.
        let not_yet = ["octal", "grundy", "nim-k"];
        for id in verify_ids().filter(|id| !not_yet.contains(id)) {
            assert!(declarable(id).is_some(), "game {id}");
        }
    }

    #[test]
    fn make_losing_gives_losing_positions_within_bounds() {
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        let cases: Vec<(&str, Vec<ParamValue>, u64, u64, usize)> = vec![
            ("nim", vec![], 0, 100, 5),
            ("bash", vec![ParamValue::Number(3)], 1, 100, 3),
            ("lasker", vec![], 1, 1 << 31, 6),
            (
                "subtraction",
                vec![ParamValue::Name("fibonacci")],
                1,
                1000,
                3,
            ),
            ("subtraction", vec![ParamValue::List(&[2, 3, 5])], 0, 60, 4),
            ("ed", vec![], 1, 2_000_000_000, 8),
            ("split", vec![], 0, 50, 7),
            ("following-nim", vec![ParamValue::List(&[1, 3])], 0, 40, 4),
            (
                "take-range",
                vec![ParamValue::Number(2), ParamValue::Number(5)],
                1,
                500,
                1,
            ),
            ("simple-nim", vec![], 1, 1_000_000_000, 5),
            ("paint-chain", vec![ParamValue::Number(3)], 1, 1000, 1),
            ("hackenbush-tree", vec![], 1, 9, 8),
            ("hackenbush-tree", vec![], 1, 101, 200),
            ("wythoff", vec![], 0, 1_000_000_000, 2),
            ("auction", vec![ParamValue::Number(7)], 1, 1099, 1),
        ];
        for (id, params, lo, hi, len) in cases {
            let rules = declarable(id).unwrap().rules(&params).unwrap();
            let bounds = vec![(lo, hi); len];
            let mut made = 0;
            for _ in 0..50 {
                let mut p: Vec<u64> = (0..len).map(|_| rng.gen_range(lo..=hi)).collect();
                if rules.make_losing(&mut p, &bounds, &mut rng) {
                    made += 1;
                    assert!(!rules.first_wins(&p).unwrap(), "{id} {p:?}");
                    assert!(bounds_hold(&p, &bounds), "{id} {p:?}");
                }
            }
            assert!(made >= 45, "{id}: only {made} losing positions made");
        }
    }

    #[test]
    fn rules_are_validated() {
        assert!(declarable("bash")
            .unwrap()
            .rules(&[ParamValue::Number(0)])
            .is_err());
        let tr = declarable("take-range").unwrap();
        assert!(tr
            .rules(&[ParamValue::Number(3), ParamValue::Number(2)])
            .is_err());
        let sub = declarable("subtraction").unwrap();
        assert!(sub.rules(&[ParamValue::Name("primes")]).is_err());
        assert!(sub.rules(&[ParamValue::List(&[0, 1])]).is_err());
        assert!(declarable("ed")
            .unwrap()
            .rules(&[])
            .unwrap()
            .check(&[1, 2, 3])
            .is_err());
    }
}

#[cfg(test)]
mod misere_staircase_tests {
    use super::*;
    use crate::games::declared::bounds_hold;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    #[test]
    fn make_losing_of_misere_nim_and_staircase() {
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        for (lo, hi, len) in [(0, 1, 3), (0, 2, 2), (0, 5000, 5), (0, 1, 1)] {
            let rules = declarable("misere-nim").unwrap().rules(&[]).unwrap();
            let bounds = vec![(lo, hi); len];
            let mut made = 0;
            for _ in 0..50 {
                let mut p: Vec<u64> = (0..len).map(|_| rng.gen_range(lo..=hi)).collect();
                if rules.make_losing(&mut p, &bounds, &mut rng) {
                    made += 1;
                    assert!(!rules.first_wins(&p).unwrap(), "{p:?}");
                    assert!(bounds_hold(&p, &bounds), "{p:?}");
                }
            }
            assert!(made >= 45, "misere-nim {lo}..={hi} x{len}: only {made}");
        }
        let rules = declarable("staircase").unwrap().rules(&[]).unwrap();
        for (hi, len) in [(10_000u64, 7usize), (12, 4), (30, 1), (10_000, 1000)] {
            let bounds = vec![(1, hi); len];
            let mut made = 0;
            for _ in 0..50 {
                let mut p: Vec<u64> = rand::seq::index::sample(&mut rng, hi as usize, len)
                    .into_iter()
                    .map(|i| i as u64 + 1)
                    .collect();
                if rules.make_losing(&mut p, &bounds, &mut rng) {
                    made += 1;
                    assert!(!rules.first_wins(&p).unwrap(), "{p:?}");
                    assert!(rules.check(&p).is_ok(), "{p:?}");
                    assert!(bounds_hold(&p, &bounds), "{p:?}");
                }
            }
            assert!(made >= 40, "staircase 1..={hi} x{len}: only {made}");
        }
    }
}
