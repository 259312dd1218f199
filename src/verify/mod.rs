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

    /// Tier 1: the closed form against the SG table over large ranges. None by default
    /// ([`Tier1Report::none`]: `verify` shows tier 1 as not applicable, and tiers 2
    /// and 3 decide the run).
    fn tier1(&self) -> Tier1Report {
        Tier1Report::none()
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
    /// Positions or cases where a declaration failed (its script threw, looped past a
    /// limit or returned a value of the wrong type): a finding, never a skip; a run
    /// with any does not pass.
    pub declaration_failures: u64,
    /// The first such failure: the position or case, and why.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub first_declaration_failure: Option<String>,
    /// Why the tier has nothing to compare for this game, when it has not (a declared
    /// game without a closed form or a proven period has no tier 1; one whose rules
    /// come from each case has no tier 2). Such a tier neither passes nor fails a run.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub not_applicable: Option<String>,
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
            declaration_failures: 0,
            first_declaration_failure: None,
            not_applicable: None,
        }
    }

    /// The report of a tier that has nothing to compare for a game, and why.
    pub fn not_applicable(tier: u8, why: impl Into<String>) -> Self {
        TierReport {
            not_applicable: Some(why.into()),
            ..TierReport::empty(tier)
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
        format!("{} check {game} '{position}'", crate::shell::program())
    } else {
        format!(
            "{} check {game} '{position}' --rules '{rules}'",
            crate::shell::program()
        )
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

impl CheckOutcome {
    /// Both sides' answers on one position (winning moves in the same order on both).
    pub fn compare<M: PartialEq + Display>(fast: &Analysis<M>, oracle: &Analysis<M>) -> Self {
        CheckOutcome {
            agree: same_answer(fast, oracle),
            fast: describe(fast),
            oracle: describe(oracle),
            remoteness: oracle.remoteness,
        }
    }
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
    Ok(CheckOutcome::compare(&fast, &oracle))
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

mod planted;
mod report;
mod run;
#[cfg(test)]
pub(crate) mod tests;
mod tier1;

pub use planted::*;
pub use report::*;
pub use run::*;
pub use tier1::*;
