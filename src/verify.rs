//! The differential engine: the tiered sweep behind `sgcheck verify`, and the comparison
//! of one position that every other route (quickcheck, fuzzing, [`crate::harness`])
//! goes through.
//!
//! Tier 1 compares each game's closed form with its Sprague–Grundy table (mex over one
//! component's moves) over large ranges; the checks are game-specific and live in the
//! game's module ([`Subject::tier1`]). Tier 2 compares the whole-position analysis of
//! the fast solver (XOR of component values, winning moves found by value) with the
//! exhaustive oracle (minimax, no theory at all): verdict, best move, count and the full
//! set of winning moves. Small positions come first, smallest total size first, so the
//! first disagreement found is already small; then random positions from a seeded
//! generator, so a run is reproducible from its seed.

use rand::{Rng as _, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;
#[cfg(feature = "serde")]
use serde::Serialize;
use sgcheck_oracles::{put_back_solver, take_cached_solver, Analysis, Rules, SearchError, Solver};
use std::fmt::{self, Display};
use std::hash::Hash;
use std::str::FromStr;
use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::guard::{Describe, Watch};

/// How many positions one oracle query may explore during a sweep. Instances that
/// need more are counted as skipped, never as agreements.
pub const SWEEP_BUDGET: usize = 400_000;

/// The random number generator of every random phase: ChaCha8 (re-exported as
/// [`crate::rand_chacha`]), seeded from the sweep's seed so a run is reproducible.
pub type Rng = ChaCha8Rng;

/// Where a sweep reports what it is doing: `()` says nothing; with the `cli` feature an
/// `indicatif::ProgressBar` shows it on a terminal.
pub trait Progress: Sync {
    /// What is being checked now.
    fn message(&self, _msg: String) {}
    /// One game is done.
    fn game_done(&self) {}
}

impl Progress for () {}

impl<P: Progress + ?Sized> Progress for &P {
    fn message(&self, msg: String) {
        (**self).message(msg);
    }
    fn game_done(&self) {
        (**self).game_done();
    }
}

#[cfg(feature = "cli")]
impl Progress for indicatif::ProgressBar {
    fn message(&self, msg: String) {
        self.set_message(msg);
    }
    fn game_done(&self) {
        self.inc(1);
    }
}

/// Sizes the provided [`Subject::random_instance`] draws from (then it falls back to
/// smaller sizes until [`Subject::instances`] gives something).
pub const RANDOM_SIZES: u32 = 8;

/// One game with a fast solver, as the sweep drives it.
///
/// Only [`Subject::instances`] and [`Subject::fast`] are required. The provided methods
/// name the subject after its type, run no tier-1 checks, draw random instances from
/// [`Subject::instances`], and reproduce a failure with a Rust snippet. For a game of
/// your own, implementing [`crate::Game`] for its rules and passing a plain function to
/// the functions of [`crate::harness`] is usually shorter.
pub trait Subject: Sync {
    /// The oracle's rules for this game; they carry the parameters and name the shared
    /// position and move types.
    type Rules: Rules<Position: Send + Sync + 'static, Move: Send + Sync>
        + Clone
        + Eq
        + Hash
        + Display
        + Send
        + Sync
        + 'static;

    /// The game's name in reports (`nim`, `split`, ...); by default the type's name.
    fn id(&self) -> &'static str {
        std::any::type_name::<Self>()
    }

    /// Tier 1: the closed form against the SG table over large ranges. None by default.
    fn tier1(&self) -> Tier1Report {
        Tier1Report::default()
    }

    /// Every instance of total size `size`, in a fixed order; empty when the game has
    /// no instances of that size small enough for the oracle (ends the sweep).
    fn instances(&self, size: u32) -> Vec<(Self::Rules, <Self::Rules as Rules>::Position)>;

    /// One random instance small enough for the oracle. By default one of
    /// [`Subject::instances`] of a random size below [`RANDOM_SIZES`].
    fn random_instance(
        &self,
        rng: &mut ChaCha8Rng,
    ) -> (Self::Rules, <Self::Rules as Rules>::Position) {
        random_from(rng, |size| self.instances(size))
    }

    /// The fast solver's analysis of a position. The winning moves may come in any
    /// order: they are sorted into the canonical order before the comparison.
    fn fast(
        &self,
        rules: &Self::Rules,
        pos: &<Self::Rules as Rules>::Position,
    ) -> Analysis<<Self::Rules as Rules>::Move>;

    /// How a report says to re-check one disagreeing instance: by default a Rust
    /// snippet that re-runs this subject on it.
    fn reproduce(&self, rules: &Self::Rules, pos: &<Self::Rules as Rules>::Position) -> String {
        format!(
            "sgcheck::verify::check_instance(&{}, &rules, &position) with rules `{rules}` and \
             position `{pos}`",
            std::any::type_name::<Self>()
        )
    }
}

/// A random instance from an enumeration by size: a random size below
/// [`RANDOM_SIZES`], falling back to smaller sizes while the enumeration is empty.
///
/// # Panics
/// When `instances` gives nothing for every size below [`RANDOM_SIZES`]: a game
/// without small instances cannot be checked.
pub fn random_from<T>(rng: &mut ChaCha8Rng, instances: impl Fn(u32) -> Vec<T>) -> T {
    let top = rng.gen_range(0..RANDOM_SIZES);
    for size in (0..=top).rev() {
        let mut all = instances(size);
        if !all.is_empty() {
            let i = rng.gen_range(0..all.len());
            return all.swap_remove(i);
        }
    }
    for size in top + 1..RANDOM_SIZES {
        let mut all = instances(size);
        if !all.is_empty() {
            let i = rng.gen_range(0..all.len());
            return all.swap_remove(i);
        }
    }
    panic!("the game has no instance of size below {RANDOM_SIZES}: nothing to check")
}

/// The result of a game's tier-1 checks.
///
/// Inside `verify` (see [`verify_subject`]) a report made with `default()` also keeps
/// the run's watch up to date and stops tier 1 when the game's time budget is spent:
/// then [`Tier1Report::compare`] unwinds out of the game's checks, and the report
/// counts what was compared until then and says that tier 1 stopped.
#[derive(Clone, Debug)]
pub struct Tier1Report {
    /// Values compared.
    pub checked: u64,
    /// Values that differed.
    pub disagreements: u64,
    /// The first value that differed: what was compared, closed form, table.
    pub first: Option<(String, String, String)>,
    /// Values (or items) left out because nothing independent was there to compare
    /// them with; they are not counted in `checked`.
    pub skipped: u64,
    /// What the counts mean when it is not obvious (what was left out, and why).
    pub note: Option<String>,
    guard: Tier1Guard,
}

/// The watch and the deadline of the tier 1 that runs on this thread (see
/// [`verify_subject`]).
#[derive(Clone, Debug, Default)]
struct Tier1Guard {
    watch: Option<std::sync::Arc<crate::guard::Watch>>,
    deadline: Option<Instant>,
}

thread_local! {
    static TIER1_GUARD: std::cell::RefCell<Tier1Guard> = std::cell::RefCell::new(Tier1Guard::default());
}

/// The payload with which [`Tier1Report::compare`] unwinds when the time budget is spent.
struct Tier1Stop;

impl Default for Tier1Report {
    fn default() -> Self {
        Tier1Report {
            checked: 0,
            disagreements: 0,
            first: None,
            skipped: 0,
            note: None,
            guard: TIER1_GUARD.with(|g| g.borrow().clone()),
        }
    }
}

impl Tier1Report {
    /// Records one comparison of the closed form (`closed`) with the table (`table`).
    pub fn compare<T: PartialEq + fmt::Debug>(&mut self, what: impl Display, closed: T, table: T) {
        self.checked += 1;
        let differ = closed != table;
        if differ {
            self.disagreements += 1;
            if self.first.is_none() {
                self.first = Some((
                    what.to_string(),
                    format!("{closed:?}"),
                    format!("{table:?}"),
                ));
            }
        }
        if differ || self.checked.is_multiple_of(1024) {
            self.beat();
        }
    }

    /// Records `n` values left out of the comparison, with the reason (`note`).
    pub fn skip(&mut self, n: u64, note: impl Display) {
        self.skipped += n;
        let note = note.to_string();
        self.note = Some(match self.note.take() {
            Some(old) => format!("{old}; {note}"),
            None => note,
        });
    }

    /// Tells the watch that tier 1 is making progress, and stops at the deadline.
    fn beat(&self) {
        if let Some(w) = &self.guard.watch {
            w.begin(self.checked);
            let mut t = w.tier1.lock().unwrap_or_else(|e| e.into_inner());
            *t = (self.checked, self.disagreements, self.first.clone());
        }
        if self.guard.deadline.is_some_and(|d| Instant::now() > d) {
            std::panic::resume_unwind(Box::new(Tier1Stop));
        }
    }
}

/// The smallest preperiod and period of a table `g`, found directly from its values:
/// for each period p from 1 up, the preperiod e is one past the last n with
/// g(n) != g(n + p) inside the table, and the first p for which `proves(e, p)` holds (the
/// game's theorem: the table is long enough for the repetition from e to prove the
/// period) is returned. Tier 1 compares a solver's claimed period with this; it shares
/// no code with any solver's period finder.
///
/// ```
/// // 0 1 2 0 1 0 1 0 1 ...: period 2 from 3, proven once 3 + 2 + 1 values repeat.
/// let g = [0, 1, 2, 0, 1, 0, 1, 0, 1, 0, 1];
/// assert_eq!(sgcheck::verify::smallest_period(&g, |e, p| e + p + 1 <= g.len()), Some((3, 2)));
/// ```
pub fn smallest_period<T: PartialEq>(
    g: &[T],
    proves: impl Fn(usize, usize) -> bool,
) -> Option<(usize, usize)> {
    (1..g.len()).find_map(|p| {
        let last_mismatch = (0..g.len() - p).rev().find(|&n| g[n] != g[n + p]);
        let e = last_mismatch.map_or(0, |n| n + 1);
        proves(e, p).then_some((e, p))
    })
}

/// A fast solver as a plain function of the rules and the position.
pub type FastFn<R> = fn(&R, &<R as Rules>::Position) -> Analysis<<R as Rules>::Move>;

/// `subject` with its fast side replaced by `fast` and no tier-1 checks: the sweep of
/// another fast solver (a planted bug in sgcheck's tests) on the same instances the
/// real subject is swept with. For your own solver of a game, prefer
/// [`crate::harness::sweep`].
pub struct Planted<'a, S: Subject> {
    /// The real subject, for the instances.
    pub subject: &'a S,
    /// The planted (wrong) fast side.
    pub fast: FastFn<S::Rules>,
}

impl<S: Subject> Planted<'_, S> {
    /// Sweeps the planted subject for at most `time` and returns the smallest tier-2
    /// disagreement found, or `None` when the planted bug went unnoticed.
    pub fn first_disagreement(&self, time: Duration) -> Option<Disagreement> {
        let sweep = Sweep {
            time,
            ..Sweep::default()
        };
        let report = verify_subject(self, &sweep, &());
        report.tiers[1].first_disagreement.clone()
    }
}

impl<S: Subject> Subject for Planted<'_, S> {
    type Rules = S::Rules;

    fn id(&self) -> &'static str {
        self.subject.id()
    }

    fn tier1(&self) -> Tier1Report {
        Tier1Report::default()
    }

    fn instances(&self, size: u32) -> Vec<(Self::Rules, <Self::Rules as Rules>::Position)> {
        self.subject.instances(size)
    }

    fn random_instance(
        &self,
        rng: &mut ChaCha8Rng,
    ) -> (Self::Rules, <Self::Rules as Rules>::Position) {
        self.subject.random_instance(rng)
    }

    fn fast(
        &self,
        rules: &Self::Rules,
        pos: &<Self::Rules as Rules>::Position,
    ) -> Analysis<<Self::Rules as Rules>::Move> {
        (self.fast)(rules, pos)
    }

    fn reproduce(&self, rules: &Self::Rules, pos: &<Self::Rules as Rules>::Position) -> String {
        format!(
            "sgcheck::verify::check_instance(&planted, &rules, &position) with rules `{rules}` \
             and position `{pos}`"
        )
    }
}

/// `subject` with its tier 1 replaced by `tier1` (a planted bug in sgcheck's tests: a
/// wrong closed form or table given to the game's own tier-1 checks), and its tier 2 as
/// it is. [`PlantedTier1::run`] takes it through [`verify_subject`] and the display and
/// exit code of `verify`.
pub struct PlantedTier1<'a, S: Subject> {
    /// The real subject, for tier 2.
    pub subject: &'a S,
    /// The planted tier 1.
    pub tier1: &'a (dyn Fn() -> Tier1Report + Sync),
}

impl<S: Subject> PlantedTier1<'_, S> {
    /// Verifies the planted subject (tier 1 whole, tier 2 on its smallest sizes) and
    /// returns the report, its text table and its exit code.
    pub fn run(&self) -> (Report, String, i32) {
        let sweep = Sweep {
            time: Duration::from_secs(20),
            max_size: Some(1),
            random_batches: Some(0),
            ..Sweep::default()
        };
        report_of_game(verify_subject(self, &sweep, &()), sweep.seed)
    }

    /// [`PlantedTier1::run`], asserting that the planted bug reaches the report's
    /// `first_disagreement` of tier 1 at a position containing `what`, the text table
    /// and exit code 1. Returns tier 1's disagreement.
    ///
    /// # Panics
    /// When the planted bug does not reach all three.
    #[track_caller]
    pub fn assert_caught(&self, what: &str) -> Disagreement {
        let (report, text, code) = self.run();
        let t1 = &report.games[0].tiers[0];
        let d = t1
            .first_disagreement
            .clone()
            .unwrap_or_else(|| panic!("planted tier-1 bug not found:\n{text}"));
        assert!(t1.disagreements > 0, "{text}");
        assert!(d.position.contains(what), "{d:?}");
        let id = self.subject.id();
        assert!(
            text.contains(&format!("DISAGREEMENT in {id} tier 1:"))
                && text.contains(&format!("position: {}", d.position)),
            "{text}"
        );
        assert!(!text.contains("all agree"), "{text}");
        assert_eq!(code, 1, "{text}");
        d
    }
}

impl<S: Subject> Subject for PlantedTier1<'_, S> {
    type Rules = S::Rules;

    fn id(&self) -> &'static str {
        self.subject.id()
    }

    fn tier1(&self) -> Tier1Report {
        (self.tier1)()
    }

    fn instances(&self, size: u32) -> Vec<(Self::Rules, <Self::Rules as Rules>::Position)> {
        self.subject.instances(size)
    }

    fn random_instance(
        &self,
        rng: &mut ChaCha8Rng,
    ) -> (Self::Rules, <Self::Rules as Rules>::Position) {
        self.subject.random_instance(rng)
    }

    fn fast(
        &self,
        rules: &Self::Rules,
        pos: &<Self::Rules as Rules>::Position,
    ) -> Analysis<<Self::Rules as Rules>::Move> {
        self.subject.fast(rules, pos)
    }

    fn reproduce(&self, rules: &Self::Rules, pos: &<Self::Rules as Rules>::Position) -> String {
        self.subject.reproduce(rules, pos)
    }
}

/// One position on which the two sides disagree.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize))]
pub struct Disagreement {
    /// The rules (parameters) in compact notation.
    pub rules: String,
    /// The position in compact notation.
    pub position: String,
    /// What the fast side (or the closed form, in tier 1) said.
    pub fast: String,
    /// What the oracle (or the SG table, in tier 1) said.
    pub oracle: String,
    /// How to reproduce the disagreement: a command line for sgcheck's own games, a
    /// Rust snippet for a solver of yours.
    pub reproduce: String,
}

impl fmt::Display for Disagreement {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "the fast solver and the oracle disagree")?;
        writeln!(f, "  position:  {}", self.position)?;
        writeln!(f, "  rules:     {}", self.rules)?;
        writeln!(f, "  fast:      {}", self.fast)?;
        writeln!(f, "  oracle:    {}", self.oracle)?;
        write!(f, "  reproduce: {}", self.reproduce)
    }
}

impl std::error::Error for Disagreement {}

/// The counts of one tier of one game.
#[derive(Clone, Debug)]
#[cfg_attr(feature = "serde", derive(Serialize))]
pub struct TierReport {
    /// 1 or 2.
    pub tier: u8,
    /// Positions (tier 2) or values (tier 1) compared.
    pub checked: u64,
    /// Comparisons that agreed.
    pub agreements: u64,
    /// Comparisons that disagreed.
    pub disagreements: u64,
    /// Instances the oracle could not finish within its budget (not compared).
    pub skipped: u64,
    /// Wall time spent on this tier.
    pub seconds: f64,
    /// Comparisons per second of wall time.
    pub per_second: f64,
    /// The smallest disagreement found, if any.
    pub first_disagreement: Option<Disagreement>,
    /// Tier 2: the largest total size up to which every position (of this shard, when
    /// sharded) was compared: none skipped, none left out. `None` when not even size 0
    /// was, and for the other tiers.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub exhaustive_size: Option<u32>,
    /// Tier 2: the largest total size whose instances were all enumerated, each
    /// compared or skipped (at least `exhaustive_size`).
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub enumerated_size: Option<u32>,
    /// Tier 2: how many positions of size `<= enumerated_size` were skipped.
    pub enumerated_skipped: u64,
    /// What the counts leave out, when something was (tier 1 stopped at the time
    /// budget, values with nothing independent to compare with, ...).
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub note: Option<String>,
    /// Tier 3: generated cases whose rules were invalid (a failure of the case
    /// generator, not a skip); a run with any does not pass.
    pub generator_failures: u64,
}

impl TierReport {
    /// The report of a tier that did nothing yet.
    pub fn empty(tier: u8) -> Self {
        TierReport {
            tier,
            checked: 0,
            agreements: 0,
            disagreements: 0,
            skipped: 0,
            seconds: 0.0,
            per_second: 0.0,
            first_disagreement: None,
            exhaustive_size: None,
            enumerated_size: None,
            enumerated_skipped: 0,
            note: None,
            generator_failures: 0,
        }
    }

    /// The label of the enumeration: `size <= N` when every position up to N was
    /// compared, `size <= N (k skipped)` when k of them were skipped, `none` when not
    /// even size 0 was enumerated; empty for the tiers without an enumeration.
    pub fn exhaustive_label(&self) -> String {
        if self.tier != 2 {
            return String::new();
        }
        match (self.enumerated_size, self.enumerated_skipped) {
            (None, _) => "none".to_string(),
            (Some(n), 0) => format!("size <= {n}"),
            (Some(n), k) => format!("size <= {n} ({k} skipped)"),
        }
    }
}

/// The result of verifying one game.
#[derive(Clone, Debug)]
#[cfg_attr(feature = "serde", derive(Serialize))]
pub struct GameReport {
    /// The game id.
    pub game: String,
    /// Tier 1 and tier 2, in that order.
    pub tiers: Vec<TierReport>,
    /// Wall time spent on this game.
    pub seconds: f64,
}

/// The result of a whole `verify` run: the JSON document of `verify --json`.
#[derive(Clone, Debug)]
#[cfg_attr(feature = "serde", derive(Serialize))]
pub struct Report {
    /// The seed of the random phase.
    pub seed: u64,
    /// One entry per game, in the order they ran.
    pub games: Vec<GameReport>,
    /// Total disagreements over all games and tiers.
    pub disagreements: u64,
}

/// How a sweep of one game runs.
#[derive(Clone, Debug)]
pub struct Sweep {
    /// Seed of the random phase.
    pub seed: u64,
    /// Wall-time budget for the game (both tiers).
    pub time: Duration,
    /// Share of tier 2's time spent on the smallest-first enumeration (the rest on
    /// random positions).
    pub enumerate_share: f64,
    /// Oracle budget per instance.
    pub budget: usize,
    /// Which part of the work this run does: every tier's instances are numbered in
    /// one fixed order, and shard `index` of `count` checks those whose number is
    /// `index` modulo `count` (tier 1 runs whole in one shard, see
    /// [`Sweep::tier1`]). The default, 0 of 1, is everything.
    pub shard: Shard,
    /// Whether this run does the game's tier 1 (the CLI gives each game's tier 1 to
    /// one shard, the game's position in the list modulo the shard count).
    pub tier1: bool,
    /// Stop the smallest-first enumerations (tiers 2 and 3) after this size.
    pub max_size: Option<u32>,
    /// Stop the random phases (tiers 2 and 3) after this many batches.
    pub random_batches: Option<u64>,
    /// The watchdog that records every check as it runs (see [`crate::guard`]); one
    /// of its own when `None`.
    pub watch: Option<std::sync::Arc<crate::guard::Watch>>,
    /// A check running longer than this is a hang ([`crate::guard::run_guarded`]).
    pub hang_after: Duration,
    /// [`crate::harness::sweep_with`]: fewer positions compared than this fail the
    /// sweep (300 by default, the number of passing cases of a quickcheck property).
    pub min_checked: u64,
}

/// One part of a sweep split over several runs (`verify --shard K/N`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    /// This part, from 0.
    pub index: u64,
    /// How many parts; at least 1.
    pub count: u64,
}

impl Shard {
    /// The whole sweep.
    pub const ALL: Shard = Shard { index: 0, count: 1 };

    /// Whether instance number `order` belongs to this shard.
    pub fn owns(&self, order: u64) -> bool {
        order % self.count.max(1) == self.index
    }
}

impl FromStr for Shard {
    type Err = String;
    /// Reads `K/N` with `0 <= K < N`.
    fn from_str(s: &str) -> Result<Self, String> {
        let (k, n) = s
            .split_once('/')
            .ok_or_else(|| format!("expected K/N (e.g. 0/4), got {s:?}"))?;
        let index: u64 = k
            .trim()
            .parse()
            .map_err(|_| format!("shard index {k:?} is not a non-negative integer"))?;
        let count: u64 = n
            .trim()
            .parse()
            .map_err(|_| format!("shard count {n:?} is not a positive integer"))?;
        if count == 0 || index >= count {
            return Err(format!("shard {index}/{count}: need 0 <= K < N"));
        }
        Ok(Shard { index, count })
    }
}

impl Default for Sweep {
    fn default() -> Self {
        Sweep {
            seed: 0,
            time: Duration::from_secs(5),
            enumerate_share: 0.5,
            budget: SWEEP_BUDGET,
            shard: Shard::ALL,
            tier1: true,
            max_size: None,
            random_batches: None,
            watch: None,
            hang_after: Duration::from_secs(10),
            min_checked: 300,
        }
    }
}

/// Describes an analysis for a report: verdict, best move (the smallest winning move in
/// the canonical order), count, and the winning moves (the first eight).
///
/// ```
/// use sgcheck::oracles::games::lasker::LaskerMove;
/// use sgcheck::oracles::Analysis;
/// let a = Analysis {
///     win: true,
///     winning: vec![
///         LaskerMove::Take { pile: 0, amount: 2 },
///         LaskerMove::Split { pile: 0, smaller: 1, larger: 1 },
///     ],
///     remoteness: None,
/// };
/// assert_eq!(sgcheck::verify::describe(&a), "win, best 0:2, 2 winning moves [0:2 0=1+1]");
/// ```
pub fn describe<M: Display>(a: &Analysis<M>) -> String {
    if !a.win {
        if a.winning.is_empty() {
            return "lose".to_string();
        }
        return format!("lose, yet {} winning moves?", a.winning.len());
    }
    let moves: Vec<String> = a.winning.iter().take(8).map(|m| m.to_string()).collect();
    let more = if a.winning.len() > 8 { ", ..." } else { "" };
    format!(
        "win, best {}, {} winning move{} [{}{}]",
        a.winning
            .first()
            .map_or("none".to_string(), |m| m.to_string()),
        a.winning.len(),
        if a.winning.len() == 1 { "" } else { "s" },
        moves.join(" "),
        more
    )
}

/// Whether two analyses agree on the verdict and the whole set of winning moves (and
/// so on the best move and the count).
fn same_answer<M: PartialEq>(fast: &Analysis<M>, oracle: &Analysis<M>) -> bool {
    fast.win == oracle.win && fast.winning == oracle.winning
}

/// The command that re-checks one position of a game.
pub fn check_command(game: &str, rules: &str, position: &str) -> String {
    if rules == "-" {
        format!("sgcheck check {game} '{position}'")
    } else {
        format!("sgcheck check {game} '{position}' --rules '{rules}'")
    }
}

/// Compares the fast side with the oracle on one instance.
/// `Ok(None)` is agreement, `Ok(Some(_))` a disagreement, `Err` a skipped instance.
///
/// The fast side's winning moves are sorted into the canonical order (the `Ord` of the
/// move type) first, so a solver may list them in any order; repeats are kept, so a
/// move listed twice is a wrong count.
pub fn compare<S: Subject + ?Sized>(
    subject: &S,
    solver: &mut Solver<S::Rules>,
    pos: &<S::Rules as Rules>::Position,
) -> Result<Option<Disagreement>, SearchError> {
    let oracle = solver.analyze(pos)?;
    let rules = solver.rules();
    let mut fast = match crate::guard::catch_quiet(|| subject.fast(rules, pos)) {
        Ok(fast) => fast,
        Err(p) => {
            return Ok(Some(Disagreement {
                reproduce: subject.reproduce(rules, pos),
                rules: rules.to_string(),
                position: pos.to_string(),
                fast: format!("panicked: {}", p.message),
                oracle: describe(&oracle),
            }))
        }
    };
    fast.winning.sort();
    if same_answer(&fast, &oracle) {
        return Ok(None);
    }
    Ok(Some(Disagreement {
        reproduce: subject.reproduce(rules, pos),
        rules: rules.to_string(),
        position: pos.to_string(),
        fast: describe(&fast),
        oracle: describe(&oracle),
    }))
}

/// Compares a subject's fast side with the oracle on one given instance (with the
/// oracle's default budget): what the snippet of [`Subject::reproduce`] calls.
///
/// ```
/// use sgcheck::games::nim::NimSubject;
/// use sgcheck::oracles::games::nim::{Nim, Piles};
/// // Nim 1,2,3 is lost for the player to move (1 xor 2 xor 3 = 0): both sides agree.
/// assert_eq!(sgcheck::verify::check_instance(&NimSubject, &Nim, &Piles(vec![1, 2, 3])), Ok(None));
/// ```
pub fn check_instance<S: Subject>(
    subject: &S,
    rules: &S::Rules,
    pos: &<S::Rules as Rules>::Position,
) -> Result<Option<Disagreement>, SearchError> {
    compare(subject, &mut Solver::new(rules.clone()), pos)
}

/// What `sgcheck check` found for one position.
#[derive(Clone, Debug)]
#[cfg_attr(feature = "serde", derive(Serialize))]
pub struct CheckOutcome {
    /// The fast solver's answer.
    pub fast: String,
    /// The oracle's answer.
    pub oracle: String,
    /// Remoteness from the oracle (plies to the end under optimal play).
    pub remoteness: Option<u32>,
    /// Whether the two agree on verdict and the whole set of winning moves.
    pub agree: bool,
}

/// Parses rules and a position in compact notation and compares both sides on it.
/// `rules` of `None` reads as `-`, the notation of a game without parameters.
pub fn check_one<S: Subject>(
    subject: &S,
    rules: Option<&str>,
    position: &str,
    budget: usize,
) -> Result<CheckOutcome, String>
where
    S::Rules: FromStr<Err: Display>,
    <S::Rules as Rules>::Position: FromStr<Err: Display>,
{
    let r = rules.unwrap_or("-");
    let rules: S::Rules = r.parse().map_err(|e| format!("--rules {r:?}: {e}"))?;
    let pos: <S::Rules as Rules>::Position = position
        .parse()
        .map_err(|e| format!("position {position:?}: {e}"))?;
    let mut solver = Solver::new(rules.clone()).with_budget(budget);
    let oracle = solver.analyze(&pos).map_err(|e| e.to_string())?;
    let mut fast = match crate::guard::catch_quiet(|| subject.fast(&rules, &pos)) {
        Ok(fast) => fast,
        Err(p) => {
            return Ok(CheckOutcome {
                agree: false,
                fast: format!("panicked: {}", p.message),
                oracle: describe(&oracle),
                remoteness: oracle.remoteness,
            })
        }
    };
    fast.winning.sort();
    Ok(CheckOutcome {
        agree: same_answer(&fast, &oracle),
        fast: describe(&fast),
        oracle: describe(&oracle),
        remoteness: oracle.remoteness,
    })
}

/// What a batch of checks found (tier 3, in `problems`, counts the same way).
#[derive(Default)]
pub(crate) struct Tally {
    pub(crate) checked: u64,
    pub(crate) skipped: u64,
    /// Tier 3: generated cases whose rules are invalid (a generator failure).
    pub(crate) invalid: u64,
    /// The first such case and why.
    pub(crate) first_invalid: Option<String>,
    /// (order key, disagreement) of the smallest disagreement seen.
    pub(crate) first: Option<(u64, Disagreement)>,
    pub(crate) disagreements: u64,
}

impl Tally {
    pub(crate) fn merge(mut self, other: Tally) -> Tally {
        self.checked += other.checked;
        self.skipped += other.skipped;
        self.invalid += other.invalid;
        self.first_invalid = self.first_invalid.or(other.first_invalid);
        self.disagreements += other.disagreements;
        self.first = match (self.first, other.first) {
            (Some(a), Some(b)) => Some(if b.0 < a.0 { b } else { a }),
            (a, b) => a.or(b),
        };
        self
    }
}

/// Checks a batch of instances in parallel; `order` numbers them for "smallest first".
/// Every check is recorded on `watch` while it runs, under its number.
fn check_batch<S: Subject>(
    subject: &S,
    batch: &[(S::Rules, <S::Rules as Rules>::Position)],
    order: u64,
    sweep: &Sweep,
    watch: &Watch,
) -> Tally {
    let budget = sweep.budget;
    batch
        .par_chunks(64)
        .enumerate()
        .map(|(c, chunk)| {
            let mut tally = Tally::default();
            // Each worker thread keeps its solver (and table) per rules across chunks
            // and batches: small positions recur in every size. One is held while
            // consecutive instances share their rules.
            let mut held: Option<Solver<S::Rules>> = None;
            for (i, (rules, pos)) in chunk.iter().enumerate() {
                let key = order + (c * 64 + i) as u64;
                if !sweep.shard.owns(key) {
                    continue;
                }
                let solver = match held.take() {
                    Some(s) if s.rules() == rules => s,
                    other => {
                        if let Some(s) = other {
                            put_back_solver(s);
                        }
                        take_cached_solver(rules, true, budget)
                    }
                };
                let solver = held.insert(solver);
                watch.begin(key);
                let result = compare(subject, solver, pos);
                watch.end();
                match result {
                    Ok(None) => tally.checked += 1,
                    Ok(Some(d)) => {
                        tally.checked += 1;
                        tally.disagreements += 1;
                        if tally.first.as_ref().is_none_or(|f| key < f.0) {
                            tally.first = Some((key, d));
                        }
                    }
                    Err(_) => tally.skipped += 1,
                }
            }
            if let Some(s) = held {
                put_back_solver(s);
            }
            tally
        })
        .reduce(Tally::default, Tally::merge)
}

/// How a hung check of a batch is described: the rules and position of instance
/// `key - base`.
fn describer<R: Rules + Display + Send + Sync + 'static>(
    batch: &Arc<Vec<(R, R::Position)>>,
    base: u64,
) -> Describe
where
    R::Position: Send + Sync + 'static,
{
    let batch = Arc::clone(batch);
    Arc::new(move |key| {
        let i = key.saturating_sub(base) as usize;
        match batch.get(i) {
            Some((r, p)) => (r.to_string(), p.to_string()),
            None => ("-".to_string(), format!("instance {key}")),
        }
    })
}

pub(crate) fn per_second(n: u64, d: Duration) -> f64 {
    let s = d.as_secs_f64();
    if s > 0.0 {
        n as f64 / s
    } else {
        0.0
    }
}

/// The largest share of a game's time (`Sweep::time`) tier 1 may use before it is
/// stopped, so that tier 2 always has time left.
pub const TIER1_SHARE: f64 = 0.6;

/// Runs a subject's tier 1 under the watch and the time budget: a panic is a
/// disagreement (with its message), the budget stops it (the report says so).
fn run_tier1<S: Subject>(subject: &S, sweep: &Sweep, watch: &Arc<Watch>) -> TierReport {
    let start = Instant::now();
    let id = subject.id();
    watch.enter_tier(1, None);
    *watch.tier1.lock().unwrap_or_else(|e| e.into_inner()) = (0, 0, None);
    // Tier 1 may use at most this share of the game's time: tier 2 always gets the rest.
    let budget = sweep.time.mul_f64(TIER1_SHARE);
    let guard = Tier1Guard {
        watch: Some(Arc::clone(watch)),
        deadline: Some(start + budget),
    };
    let previous = TIER1_GUARD.with(|g| std::mem::replace(&mut *g.borrow_mut(), guard));
    watch.begin(0);
    let result = crate::guard::catch_quiet(|| subject.tier1());
    watch.end();
    TIER1_GUARD.with(|g| *g.borrow_mut() = previous);
    let elapsed = start.elapsed();
    let reproduce = format!("sgcheck verify --game {id}");
    let to_disagreement = |(what, closed, table): (String, String, String)| Disagreement {
        rules: "-".into(),
        position: what,
        fast: format!("closed form {closed}"),
        oracle: format!("SG table {table}"),
        reproduce: reproduce.clone(),
    };
    let (checked, disagreements, first, skipped, note) = match result {
        Ok(t1) => (
            t1.checked,
            t1.disagreements,
            t1.first.map(to_disagreement),
            t1.skipped,
            t1.note,
        ),
        Err(p) => {
            let (checked, dis, first) = watch
                .tier1
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .clone();
            if p.payload.is::<Tier1Stop>() {
                (
                    checked,
                    dis,
                    first.map(to_disagreement),
                    0,
                    Some(format!(
                        "stopped at the time budget ({:.1} s) after {checked} comparisons",
                        budget.as_secs_f64()
                    )),
                )
            } else {
                let panic = Disagreement {
                    rules: "-".into(),
                    position: format!("tier 1, after comparison {checked}"),
                    fast: format!("panicked: {}", p.message),
                    oracle: "-".into(),
                    reproduce: reproduce.clone(),
                };
                (
                    checked,
                    dis + 1,
                    Some(first.map_or(panic, to_disagreement)),
                    0,
                    Some("tier 1 panicked; the comparisons after it did not run".into()),
                )
            }
        }
    };
    TierReport {
        tier: 1,
        checked,
        agreements: checked.saturating_sub(disagreements),
        disagreements,
        skipped,
        seconds: elapsed.as_secs_f64(),
        per_second: per_second(checked, elapsed),
        first_disagreement: first,
        exhaustive_size: None,
        enumerated_size: None,
        enumerated_skipped: 0,
        note,
        generator_failures: 0,
    }
}

/// Runs both tiers for one game: tier 1 (the subject's own checks), then tier 2, the
/// fast side against the oracle on every instance smallest first, then on random ones.
///
/// Both tiers run under the time budget (`sweep.time`), every check recorded on the
/// sweep's watch (see [`crate::guard`]), and a panic of the fast side is reported as a
/// disagreement with its message.
pub fn verify_subject<S: Subject, P: Progress + ?Sized>(
    subject: &S,
    sweep: &Sweep,
    progress: &P,
) -> GameReport {
    let start = Instant::now();
    let id = subject.id();
    let watch = sweep.watch.clone().unwrap_or_default();
    progress.message(format!("{id}: tier 1"));
    let tier1 = if sweep.tier1 {
        run_tier1(subject, sweep, &watch)
    } else {
        TierReport::empty(1)
    };
    watch.finish_tier(tier1.clone());
    let t1_time = start.elapsed();

    let t2_start = Instant::now();
    let remaining = sweep.time.saturating_sub(t1_time);
    let enumerate_until = t2_start + remaining.mul_f64(sweep.enumerate_share);
    let random_until = t2_start + remaining;
    let mut tally = Tally::default();
    let mut order = 0u64;
    // Smallest first: stop at the first size with a disagreement, it holds the smallest.
    let mut size = 0u32;
    let mut exhaustive_size = None;
    let mut enumerated_size = None;
    let mut enumerated_skipped = 0;
    while Instant::now() < enumerate_until
        && tally.disagreements == 0
        && sweep.max_size.is_none_or(|m| size <= m)
    {
        let batch = Arc::new(subject.instances(size));
        if batch.is_empty() {
            break;
        }
        watch.enter_tier(2, Some(describer(&batch, order)));
        let n = batch.len() as u64;
        let t = check_batch(subject, &batch, order, sweep, &watch);
        let found = t.disagreements > 0;
        let skipped = t.skipped;
        tally = tally.merge(t);
        if !found {
            enumerated_size = Some(size);
            enumerated_skipped += skipped;
            if enumerated_skipped == 0 {
                exhaustive_size = Some(size);
            }
        }
        order += n;
        progress.message(format!(
            "{id}: tier 2, size {size}, {} positions",
            tally.checked
        ));
        size += 1;
    }
    let mut round = 0u64;
    while Instant::now() < random_until
        && tally.disagreements == 0
        && sweep.random_batches.is_none_or(|m| round < m)
    {
        let mut rng =
            ChaCha8Rng::seed_from_u64(sweep.seed ^ round.wrapping_mul(0x9E37_79B9_7F4A_7C15));
        let batch: Arc<Vec<_>> = Arc::new(
            (0..2048)
                .map(|_| subject.random_instance(&mut rng))
                .collect(),
        );
        watch.enter_tier(2, Some(describer(&batch, order)));
        tally = tally.merge(check_batch(subject, &batch, order, sweep, &watch));
        order += batch.len() as u64;
        round += 1;
        progress.message(format!("{id}: tier 2, random, {} positions", tally.checked));
    }
    let t2_time = t2_start.elapsed();
    let tier2 = TierReport {
        tier: 2,
        checked: tally.checked,
        agreements: tally.checked - tally.disagreements,
        disagreements: tally.disagreements,
        skipped: tally.skipped,
        seconds: t2_time.as_secs_f64(),
        per_second: per_second(tally.checked, t2_time),
        first_disagreement: tally.first.map(|(_, d)| d),
        exhaustive_size,
        enumerated_size,
        enumerated_skipped,
        note: None,
        generator_failures: 0,
    };
    watch.finish_tier(tier2.clone());
    watch.enter_tier(0, None);
    // The solvers this game's workers kept are of no use to the next game.
    rayon::broadcast(|_| sgcheck_oracles::clear_solver_cache());
    sgcheck_oracles::clear_solver_cache();
    progress.game_done();
    GameReport {
        game: id.to_string(),
        tiers: vec![tier1, tier2],
        seconds: start.elapsed().as_secs_f64(),
    }
}

/// Runs one game's verification (`work`, given the sweep with a fresh watch) on a
/// thread of its own with [`crate::guard::run_guarded`]: a check that runs longer than
/// `sweep.hang_after` is reported as a hang (a disagreement of its tier, at the
/// position it was checking), and the tiers finished before it are kept. A panic that
/// escapes every check is reported the same way, as a crash. `reproduce` is the
/// command that re-runs the game.
///
/// ```
/// use sgcheck::games::nim::NimSubject;
/// use sgcheck::verify::{verify_guarded, verify_subject, Planted, Sweep};
/// use sgcheck::oracles::games::nim::{Nim, Piles, Take};
/// use sgcheck::oracles::Analysis;
/// use std::time::Duration;
///
/// // A fast solver that never returns on a pile of 3.
/// fn stuck(_: &Nim, pos: &Piles) -> Analysis<Take> {
///     while pos.0.contains(&3) {
///         std::thread::sleep(Duration::from_millis(10));
///     }
///     sgcheck::games::nim::analyze(pos)
/// }
/// let sweep = Sweep { time: Duration::from_secs(2), hang_after: Duration::from_millis(300), ..Sweep::default() };
/// let r = verify_guarded("nim", &sweep, "sgcheck verify --game nim".into(), |sweep| {
///     verify_subject(&Planted { subject: &NimSubject, fast: stuck }, &sweep, &())
/// });
/// let d = r.tiers[1].first_disagreement.as_ref().unwrap();
/// assert!(d.position.contains('3') && d.fast.contains("hang"), "{d:?}");
/// ```
pub fn verify_guarded<F>(id: &str, sweep: &Sweep, reproduce: String, work: F) -> GameReport
where
    F: FnOnce(Sweep) -> GameReport + Send + 'static,
{
    let start = Instant::now();
    let watch = Arc::new(Watch::new());
    let guarded = Sweep {
        watch: Some(Arc::clone(&watch)),
        ..sweep.clone()
    };
    let bound = sweep.hang_after;
    let (tier, position, rules, fast) =
        match crate::guard::run_guarded(&watch, bound, move || work(guarded)) {
            crate::guard::Guarded::Done(r) => return r,
            crate::guard::Guarded::Hang { tier, key, at } => {
                let (rules, position) = match (tier, at) {
                    (1, _) => ("-".to_string(), format!("tier 1, after comparison {key}")),
                    (_, Some((r, p))) => (r, p),
                    (_, None) => ("-".to_string(), format!("check {key} of tier {tier}")),
                };
                let fast = format!(
                    "no answer within {:.1} s: the check did not return (a hang)",
                    bound.as_secs_f64()
                );
                (tier, position, rules, fast)
            }
            crate::guard::Guarded::Crashed(msg) => {
                let tier = watch.tier();
                (
                    tier,
                    format!("tier {tier}, outside any single check"),
                    "-".to_string(),
                    format!("panicked: {msg}"),
                )
            }
        };
    let tier = tier.max(1);
    let mut tiers = watch.finished();
    tiers.retain(|t| t.tier < tier);
    let mut hung = TierReport::empty(tier);
    hung.disagreements = 1;
    hung.checked = 1;
    hung.first_disagreement = Some(Disagreement {
        rules,
        position,
        fast,
        oracle: "-".into(),
        reproduce,
    });
    hung.seconds = start.elapsed().as_secs_f64();
    tiers.push(hung);
    GameReport {
        game: id.to_string(),
        tiers,
        seconds: start.elapsed().as_secs_f64(),
    }
}

/// The tiers of a run that compared nothing, as `game tier N` (a game's tier 1 that
/// another shard runs is not this run's to check). A run with any of them does not
/// pass.
pub fn not_checked(report: &Report, shard: Shard) -> Vec<String> {
    report
        .games
        .iter()
        .enumerate()
        .flat_map(|(i, g)| {
            let mut empty: Vec<String> = g
                .tiers
                .iter()
                .filter(move |t| t.tier != 1 || shard.owns(i as u64))
                .filter(|t| t.agreements + t.disagreements == 0)
                .map(|t| format!("{} tier {}", g.game, t.tier))
                .collect();
            if g.tiers.is_empty() {
                empty.push(format!("{} (no tier ran)", g.game));
            }
            empty
        })
        .collect()
}

/// The exit code of a run: 1 when some comparison disagreed (or tier 3's generator
/// made a case with invalid rules), 2 when some tier checked
/// nothing (see [`not_checked`]), 0 when everything agreed.
pub fn exit_code(report: &Report, shard: Shard) -> i32 {
    let generator_failures: u64 = report
        .games
        .iter()
        .flat_map(|g| &g.tiers)
        .map(|t| t.generator_failures)
        .sum();
    if report.disagreements > 0 || generator_failures > 0 {
        1
    } else if !not_checked(report, shard).is_empty() {
        2
    } else {
        0
    }
}

/// The text report of `verify`: one row per game and tier, the disagreements, and the
/// verdict, decided once every tier is in: `all agree` only when every tier compared
/// something and nothing disagreed; a tier that compared nothing says NOT CHECKED.
///
/// ```
/// use sgcheck::verify::{render_table, GameReport, Report, Shard, TierReport};
/// let report = Report { seed: 7, games: vec![GameReport { game: "nim".into(), tiers: vec![TierReport::empty(2)], seconds: 0.0 }], disagreements: 0 };
/// let text = render_table(&report, Shard::ALL);
/// assert!(text.contains("NOT CHECKED") && !text.contains("all agree"), "{text}");
/// ```
pub fn render_table(report: &Report, shard: Shard) -> String {
    use std::fmt::Write as _;
    let mut out = String::new();
    let empty = not_checked(report, shard);
    let _ = writeln!(
        out,
        "{:<14} {:>4} {:>12} {:>12} {:>8} {:>8} {:>12}  exhaustive",
        "game", "tier", "checked", "agree", "disagree", "skipped", "per second"
    );
    for (i, g) in report.games.iter().enumerate() {
        for t in &g.tiers {
            let mut label = t.exhaustive_label();
            let owned = t.tier != 1 || shard.owns(i as u64);
            if owned && t.agreements + t.disagreements == 0 {
                label = "NOT CHECKED".to_string();
            }
            if let Some(note) = &t.note {
                if !label.is_empty() {
                    label.push_str("; ");
                }
                label.push_str(note);
            }
            let _ = writeln!(
                out,
                "{:<14} {:>4} {:>12} {:>12} {:>8} {:>8} {:>12.0}  {}",
                g.game,
                t.tier,
                t.checked,
                t.agreements,
                t.disagreements,
                t.skipped,
                t.per_second,
                label
            );
        }
        if g.tiers.is_empty() {
            let _ = writeln!(out, "{:<14}    -  NOT CHECKED (no tier ran)", g.game);
        }
    }
    for g in &report.games {
        for t in &g.tiers {
            if let Some(d) = &t.first_disagreement {
                let _ = writeln!(out);
                let _ = writeln!(out, "DISAGREEMENT in {} tier {}:", g.game, t.tier);
                if d.rules != "-" {
                    let _ = writeln!(out, "  rules:    {}", d.rules);
                }
                let _ = writeln!(out, "  position: {}", d.position);
                let _ = writeln!(out, "  fast:     {}", d.fast);
                let _ = writeln!(out, "  oracle:   {}", d.oracle);
                let _ = writeln!(out, "  reproduce: {}", d.reproduce);
            }
        }
    }
    if report.disagreements > 0 {
        let _ = writeln!(
            out,
            "\n{} disagreement(s) (seed {})",
            report.disagreements, report.seed
        );
    }
    let generator_failures: u64 = report
        .games
        .iter()
        .flat_map(|g| &g.tiers)
        .map(|t| t.generator_failures)
        .sum();
    if generator_failures > 0 {
        let _ = writeln!(
            out,
            "\n{generator_failures} generated case(s) with invalid rules: the generator failed \
             (seed {})",
            report.seed
        );
    }
    if !empty.is_empty() {
        let _ = writeln!(
            out,
            "\nNOT CHECKED: nothing was compared in {} (seed {})",
            empty.join(", "),
            report.seed
        );
    } else if report.disagreements == 0 && generator_failures == 0 {
        let _ = writeln!(out, "\nall agree (seed {})", report.seed);
    }
    out
}

/// The whole report of one game's run through the display and the exit code of
/// `verify`, as the command line shows them: the report, its text table and its exit
/// code. Tests of planted bugs go through this to show a finding reaches all three.
pub fn report_of_game(game: GameReport, seed: u64) -> (Report, String, i32) {
    let disagreements = game.tiers.iter().map(|t| t.disagreements).sum();
    let report = Report {
        seed,
        games: vec![game],
        disagreements,
    };
    let text = render_table(&report, Shard::ALL);
    let code = exit_code(&report, Shard::ALL);
    (report, text, code)
}

/// Every sequence of 1..=`max_len` non-negative parts summing to `total`, shortest first.
pub fn compositions(total: u64, max_len: usize) -> Vec<Vec<u64>> {
    fn rec(total: u64, len: usize, cur: &mut Vec<u64>, out: &mut Vec<Vec<u64>>) {
        if cur.len() + 1 == len {
            cur.push(total);
            out.push(cur.clone());
            cur.pop();
            return;
        }
        for first in 0..=total {
            cur.push(first);
            rec(total - first, len, cur, out);
            cur.pop();
        }
    }
    let mut out = Vec::new();
    for len in 1..=max_len {
        rec(total, len, &mut Vec::with_capacity(len), &mut out);
    }
    out
}

/// A progress bar on stderr when it is a terminal, hidden otherwise.
#[cfg(feature = "cli")]
pub fn progress_bar(len: u64, enabled: bool) -> indicatif::ProgressBar {
    use indicatif::{ProgressBar, ProgressStyle};
    use std::io::IsTerminal;
    if !enabled || !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let pb = ProgressBar::new(len);
    pb.set_style(
        ProgressStyle::with_template("{spinner} [{elapsed_precise}] {pos}/{len} games  {msg}")
            .expect("static template"),
    );
    pb.enable_steady_tick(Duration::from_millis(120));
    pb
}

#[cfg(test)]
mod tests {
    use super::*;
    use sgcheck_oracles::games::nim::{Nim, Piles, Take};

    /// Nim as the engine's tests drive it, with Bouton's solution written here: the
    /// engine's tests use no game of sgcheck's.
    #[derive(Default)]
    struct NimSubject;

    mod nim {
        use super::*;
        pub fn analyze(pos: &Piles) -> Analysis<Take> {
            let x = pos.0.iter().fold(0, |a, &p| a ^ p);
            let winning = pos
                .0
                .iter()
                .enumerate()
                .filter(|&(_, &p)| p ^ x < p)
                .map(|(pile, &p)| Take {
                    pile,
                    amount: p - (p ^ x),
                })
                .collect();
            Analysis {
                win: x != 0,
                winning,
                remoteness: None,
            }
        }
    }

    impl Subject for NimSubject {
        type Rules = Nim;
        fn id(&self) -> &'static str {
            "nim"
        }
        /// Pile values (n) against a mex table of single piles.
        fn tier1(&self) -> Tier1Report {
            let mut r = Tier1Report::default();
            let mut g: Vec<u64> = Vec::new();
            for n in 0..256u64 {
                let mut seen: Vec<u64> = g.clone();
                seen.sort_unstable();
                let mex = seen
                    .iter()
                    .enumerate()
                    .find(|&(i, &v)| i as u64 != v)
                    .map_or(seen.len() as u64, |(i, _)| i as u64);
                g.push(mex);
                r.compare(format_args!("pile {n}"), n, mex);
            }
            r
        }
        fn instances(&self, size: u32) -> Vec<(Nim, Piles)> {
            compositions(size as u64, 4)
                .into_iter()
                .map(|p| (Nim, Piles(p)))
                .collect()
        }
        fn fast(&self, _: &Nim, pos: &Piles) -> Analysis<Take> {
            nim::analyze(pos)
        }
    }

    fn quick() -> Sweep {
        Sweep {
            time: Duration::from_secs(3),
            max_size: Some(6),
            random_batches: Some(0),
            hang_after: Duration::from_millis(400),
            ..Sweep::default()
        }
    }

    /// A Nim solver that panics on any position with a pile of 3.
    fn panics_on_3(_: &Nim, pos: &Piles) -> Analysis<Take> {
        assert!(!pos.0.contains(&3), "pile of 3 not supported");
        nim::analyze(pos)
    }

    /// A Nim solver that never returns on a position with a pile of 3.
    fn loops_on_3(_: &Nim, pos: &Piles) -> Analysis<Take> {
        while pos.0.contains(&3) {
            std::thread::sleep(Duration::from_millis(20));
        }
        nim::analyze(pos)
    }

    #[test]
    fn a_panicking_fast_solver_is_a_disagreement_at_its_position() {
        let planted = Planted {
            subject: &NimSubject,
            fast: panics_on_3,
        };
        let (report, text, code) = report_of_game(verify_subject(&planted, &quick(), &()), 0);
        let d = report.games[0].tiers[1].first_disagreement.clone().unwrap();
        assert_eq!(d.position, "3", "{d:?}");
        assert!(
            d.fast.contains("panicked: pile of 3 not supported"),
            "{d:?}"
        );
        assert!(text.contains("DISAGREEMENT in nim tier 2:"), "{text}");
        assert_eq!(code, 1);
    }

    #[test]
    fn a_looping_fast_solver_is_a_hang_at_its_position() {
        let started = Instant::now();
        let r = verify_guarded("nim", &quick(), "sgcheck verify --game nim".into(), |s| {
            verify_subject(
                &Planted {
                    subject: &NimSubject,
                    fast: loops_on_3,
                },
                &s,
                &(),
            )
        });
        assert!(started.elapsed() < Duration::from_secs(10));
        // Tier 1 (none for a planted subject) was kept, tier 2 is the hang.
        assert_eq!(r.tiers.len(), 2, "{r:?}");
        let d = r.tiers[1].first_disagreement.clone().unwrap();
        assert!(d.position.split(',').any(|p| p == "3"), "{d:?}");
        assert!(d.fast.contains("a hang"), "{d:?}");
        let (_, text, code) = report_of_game(r, 0);
        assert!(text.contains("DISAGREEMENT in nim tier 2:"), "{text}");
        assert_eq!(code, 1);
    }

    #[test]
    fn a_panicking_tier1_is_a_disagreement_and_tier2_still_runs() {
        let tier1 = || {
            let mut r = Tier1Report::default();
            for n in 0..5000u64 {
                assert!(n != 2500, "table index {n} out of range");
                r.compare(format_args!("pile {n}"), n, n);
            }
            r
        };
        let planted = PlantedTier1 {
            subject: &NimSubject,
            tier1: &tier1,
        };
        let (report, text, code) = planted.run();
        let t1 = &report.games[0].tiers[0];
        let d = t1.first_disagreement.clone().unwrap();
        assert!(
            d.fast.contains("panicked: table index 2500 out of range"),
            "{d:?}"
        );
        // The last checkpoint before the panic (every 1024 comparisons).
        assert_eq!(d.position, "tier 1, after comparison 2048");
        assert!(report.games[0].tiers[1].checked > 0);
        assert_eq!(code, 1, "{text}");
    }

    #[test]
    fn a_looping_tier1_is_a_hang() {
        let r = verify_guarded("nim", &quick(), "sgcheck verify --game nim".into(), |s| {
            let tier1 = || {
                let mut r = Tier1Report::default();
                r.compare("pile 0", 0, 0);
                loop {
                    std::thread::sleep(Duration::from_millis(20));
                }
            };
            let planted = PlantedTier1 {
                subject: &NimSubject,
                tier1: &tier1,
            };
            verify_subject(
                &planted,
                &Sweep {
                    time: Duration::from_secs(60),
                    ..s
                },
                &(),
            )
        });
        assert_eq!(r.tiers.len(), 1, "{r:?}");
        let d = r.tiers[0].first_disagreement.clone().unwrap();
        assert_eq!(d.position, "tier 1, after comparison 0");
        assert!(d.fast.contains("a hang"), "{d:?}");
        assert_eq!(report_of_game(r, 0).2, 1);
    }

    #[test]
    fn tier1_stops_at_the_time_budget_and_says_so() {
        let tier1 = || {
            let mut r = Tier1Report::default();
            for n in 0.. {
                r.compare(format_args!("pile {n}"), n, n);
            }
            r
        };
        let planted = PlantedTier1 {
            subject: &NimSubject,
            tier1: &tier1,
        };
        let sweep = Sweep {
            time: Duration::from_millis(300),
            max_size: Some(2),
            ..Sweep::default()
        };
        let r = verify_subject(&planted, &sweep, &());
        let note = r.tiers[0].note.clone().unwrap();
        assert!(note.starts_with("stopped at the time budget"), "{note}");
        assert!(r.tiers[0].checked > 0);
    }

    #[test]
    fn a_run_with_skips_does_not_claim_to_be_exhaustive() {
        // An oracle budget of 30 positions: the larger Nim positions are too large,
        // and are skipped.
        let sweep = Sweep {
            budget: 30,
            max_size: Some(30),
            random_batches: Some(0),
            time: Duration::from_secs(10),
            ..Sweep::default()
        };
        let r = verify_subject(&NimSubject, &sweep, &());
        let t2 = &r.tiers[1];
        assert!(t2.skipped > 0);
        assert_eq!(t2.enumerated_size, Some(30));
        assert_eq!(t2.enumerated_skipped, t2.skipped);
        let exhaustive = t2.exhaustive_size.unwrap();
        assert!(exhaustive < 30, "{exhaustive}");
        assert_eq!(
            t2.exhaustive_label(),
            format!("size <= 30 ({} skipped)", t2.skipped)
        );
        // The label follows the skips of the sizes it names (the oracle's cached
        // tables, shared with tests running alongside, can make a rerun skip less).
        let again = verify_subject(
            &NimSubject,
            &Sweep {
                max_size: Some(exhaustive),
                ..sweep
            },
            &(),
        );
        let t = &again.tiers[1];
        let want = match t.enumerated_skipped {
            0 => format!("size <= {exhaustive}"),
            k => format!("size <= {exhaustive} ({k} skipped)"),
        };
        assert_eq!(t.exhaustive_label(), want);
    }

    #[test]
    fn a_tier_that_checked_nothing_is_not_checked_before_any_verdict() {
        let mut empty = TierReport::empty(2);
        empty.skipped = 12;
        let game = GameReport {
            game: "nim".into(),
            tiers: vec![TierReport::empty(1), empty],
            seconds: 0.0,
        };
        let (_, text, code) = report_of_game(game, 0);
        assert!(!text.contains("all agree"), "{text}");
        assert!(
            text.contains("NOT CHECKED: nothing was compared in nim tier 1, nim tier 2"),
            "{text}"
        );
        assert_eq!(code, 2);
    }

    #[test]
    fn compositions_cover_each_sequence_once() {
        // Sequences of length 1..=3 summing to 2: [2]; [0,2],[1,1],[2,0]; 6 of length 3.
        let c = compositions(2, 3);
        assert_eq!(c.len(), 1 + 3 + 6);
        assert_eq!(c[0], vec![2]);
        assert!(c.iter().all(|v| v.iter().sum::<u64>() == 2));
    }
}
