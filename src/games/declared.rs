//! Games as problem declarations see them: [`DeclarableGame`], and [`Declare`], the
//! one adapter every game goes through.
//!
//! A problem declaration (see `sgcheck::problems`) names a game by id and says which
//! fields of a case give the rules' parameters and which give the position. This
//! module is the games layer's side of that contract: for every declarable game, how
//! to build its rules from parameter values, and then, for a position given as a list
//! of numbers, the verdict and the winning moves from the fast solver, the same from
//! the exhaustive oracle, and a way to turn a position into a losing one (for the
//! generators of losing cases).
//!
//! **Making a game declarable**: implement [`Declare`] in the game's fast file (its
//! parameters, what the position numbers are, the fast solver on numbers, and the
//! oracle's rules and position for them); [`Declared::GAME`] is then its
//! [`DeclarableGame`], which the game's line in the registry hands to declarations.
//! The oracle side (verdict and winning moves by exhaustive search) is derived here,
//! once for every game.

use rand::Rng;
use rand_chacha::ChaCha8Rng;
use sgcheck_oracles::{Analysis, Rules, SearchError, Solver};
use std::marker::PhantomData;
use std::sync::Arc;
use std::time::Instant;

/// What a rules parameter is made of.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ParamKind {
    /// One number (`m` of Bash's game).
    Number,
    /// A list of numbers (a subtraction set, the special amounts of Following Nim).
    List,
    /// A graph field: directed edges on the vertices 1..=n, without a cycle.
    Graph,
}

/// One parameter of a game's rules.
#[derive(Clone, Copy, Debug)]
pub struct ParamSpec {
    /// Its name, the key of the declaration's `[rules]` table.
    pub name: &'static str,
    /// A number or a list.
    pub kind: ParamKind,
    /// What it means, for error messages and `sgcheck list`.
    pub about: &'static str,
}

/// The value of one parameter: from a field of the case, or a constant of the
/// declaration (a number, a list, or a name the game knows, like `fibonacci`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ParamValue<'a> {
    /// One number.
    Number(u64),
    /// A list of numbers.
    List(&'a [u64]),
    /// A named constant (e.g. the subtraction set `fibonacci`).
    Name(&'a str),
    /// A graph: its vertex count n and its edges `u v`, flat, each end in 1..=n.
    Graph {
        /// n: the vertices are 1..=n.
        vertices: u64,
        /// The edges, `u1 v1 u2 v2 ...`, as read.
        edges: &'a [u64],
    },
}

/// A winning move as a declaration prints it: the game's move fields (named by
/// [`DeclarableGame::move_fields`], at most four) and, when asked for, the compact
/// notation of `sgcheck check`.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct MoveView {
    /// The values of the move fields, in the order of [`DeclarableGame::move_fields`]
    /// (unused places are 0).
    pub fields: [u64; 4],
    /// The compact notation (`0:3`, `0=1+4`, `0 2 3`, ...); empty unless the analysis
    /// was asked for it.
    pub text: String,
}

impl MoveView {
    /// A move view of `fields` (at most four), with its notation `text()` when
    /// `notation`.
    pub fn new(fields: &[u64], text: impl FnOnce() -> String, notation: bool) -> MoveView {
        let mut f = [0; 4];
        f[..fields.len()].copy_from_slice(fields);
        MoveView {
            fields: f,
            text: if notation { text() } else { String::new() },
        }
    }
}

/// Largest values the fast solver of a game handles in a position: declarations may
/// not accept larger ones, not even with `--lenient`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Reach {
    /// Largest value of one position number.
    pub max_value: u64,
    /// Most numbers in one position.
    pub max_len: u64,
    /// When an output prints moves (`{best}`, `{count}`, `{moves}`): the most a
    /// position's numbers times its largest value may be. Games whose winning-move
    /// analysis enumerates every split of a number (Lasker's Nim, E&D) cost that much
    /// per position; `u64::MAX` for games whose analysis does not grow with the values.
    pub max_moves_work: u64,
}

/// [`Reach::max_moves_work`] of the games whose winning moves are found by enumerating
/// every split of a number (Lasker's Nim, E&D): 10^7 splits. A position at that bound
/// may have half as many winning moves, each held while the answer is written: about
/// 0.5 s and 300 MB at worst.
pub const SPLIT_ENUMERATION_WORK: u64 = 10_000_000;

/// A game that problem declarations can name.
pub trait DeclarableGame: Sync + Send {
    /// The game id (`nim`, `bash`, ...), as in `sgcheck list`.
    fn id(&self) -> &'static str;
    /// The rules' parameters, in the order [`DeclarableGame::rules`] receives them.
    fn parameters(&self) -> &'static [ParamSpec] {
        &[]
    }
    /// What the position numbers are, in words (`pile sizes`, `bean counts`).
    fn position(&self) -> &'static str;
    /// The names of a winning move's fields, for output templates.
    fn move_fields(&self) -> &'static [&'static str];
    /// What the fast solver handles (see [`Reach`]).
    fn reach(&self) -> Reach {
        Reach {
            max_value: u64::MAX,
            max_len: u64::MAX,
            max_moves_work: u64::MAX,
        }
    }
    /// Builds the rules from parameter values (in the order of
    /// [`DeclarableGame::parameters`]); an error says what is wrong with them.
    fn rules(&self, params: &[ParamValue<'_>]) -> Result<Arc<dyn DeclaredRules>, String>;
    /// Whether the oracle's own reader accepts the rules of `params` (see
    /// [`Declare::oracle_reads`]); `None` when the game's rules are not a text.
    fn oracle_reads(&self, _params: &[ParamValue<'_>]) -> Option<Result<(), String>> {
        None
    }

    /// [`DeclaredRules::check`] for the rules of `params`, or why they are invalid.
    /// Called for every case whose rules come from its fields: games whose rules are
    /// a few numbers answer without building them.
    fn check_with(&self, params: &[ParamValue<'_>], position: &[u64]) -> Result<(), String> {
        self.rules(params)?.check(position)
    }

    /// [`DeclaredRules::first_wins`] for the rules of `params` (see
    /// [`DeclarableGame::check_with`]).
    fn first_wins_with(&self, params: &[ParamValue<'_>], position: &[u64]) -> Result<bool, String> {
        self.rules(params)?.first_wins(position)
    }
}

/// The rules of one declared game instance, answering positions given as numbers.
pub trait DeclaredRules: Sync + Send {
    /// Whether `position` is a position of the game (an E&D position has an even
    /// number of piles, say), and within what the fast solver handles.
    fn check(&self, _position: &[u64]) -> Result<(), String> {
        Ok(())
    }
    /// The fast solver's verdict: whether the player to move wins; `Err` says why
    /// the rules could not answer (a declared script that failed or hit a limit).
    /// An error is never a verdict: the position is unanswerable.
    fn first_wins(&self, position: &[u64]) -> Result<bool, String>;
    /// The fast solver's verdict and every winning move, in canonical order (with
    /// their notation when `notation`); `Err` as for [`DeclaredRules::first_wins`].
    fn analyze(&self, position: &[u64], notation: bool) -> Result<Analysis<MoveView>, String>;
    /// The oracle's verdict.
    fn oracle_first_wins(&self, position: &[u64], budget: usize) -> Result<bool, SearchError>;
    /// The oracle's verdict and every winning move (with their notation).
    fn oracle_analyze(
        &self,
        position: &[u64],
        budget: usize,
        notation: bool,
    ) -> Result<Analysis<MoveView>, SearchError>;
    /// Changes `position` into a losing one, each number `i` staying within
    /// `bounds[i]` (inclusive); false when this did not succeed (the position may
    /// then have changed, within the bounds).
    fn make_losing(
        &self,
        _position: &mut [u64],
        _bounds: &[(u64, u64)],
        _rng: &mut ChaCha8Rng,
    ) -> bool {
        false
    }
    /// A position the generators should play instead of a random one, each number
    /// `i` within `bounds[i]` (inclusive): where common mistakes show and random
    /// draws would not go (double-precision Wythoff pairs, say). Called for every
    /// random case; the game decides how often to answer (`None`: keep the random
    /// case). The default answers `None` without drawing from `rng`.
    fn interesting(&self, _bounds: &[(u64, u64)], _rng: &mut ChaCha8Rng) -> Option<Vec<u64>> {
        None
    }
    /// One Grundy value per position number, when the numbers are independent
    /// components of a sum (see [`Declare::component_values`]); `None` by default.
    fn component_values(&self, _position: &[u64]) -> Option<Vec<u64>> {
        None
    }
    /// The smallest number in `lo..=hi` worth `value` as a component (see
    /// [`Declare::smallest_with_value`]); `None` by default.
    fn smallest_with_value(&self, _value: u64, _lo: u64, _hi: u64) -> Option<u64> {
        None
    }
    /// Numbers per component of [`DeclaredRules::component_values`] (see
    /// [`Declare::COMPONENT_LEN`]).
    fn component_len(&self) -> usize {
        1
    }
    /// The smallest component worth `value`, its numbers in `lo..=hi` (see
    /// [`Declare::smallest_component`]); `None` by default.
    fn smallest_component(&self, _value: u64, _lo: u64, _hi: u64) -> Option<Vec<u64>> {
        None
    }
    /// The Grundy value of a whole position, when the game knows it (a sum of
    /// components: the XOR of their values; a tree: its value by the colon
    /// principle); `None` (the default) otherwise. The audit's shrinker keeps it
    /// while it cuts trees down.
    fn position_value(&self, _position: &[u64]) -> Option<u64> {
        None
    }
    /// Tier 1 of `verify --problem` (see [`Declare::tier1`]); not applicable by default.
    fn tier1(&self) -> Result<crate::verify::Tier1Report, String> {
        Err(NO_TIER1.into())
    }
    /// Why tier 2 would compare the oracle with itself (see
    /// [`Declare::fast_is_oracle`]); `None` by default.
    fn fast_is_oracle(&self) -> Option<String> {
        None
    }
    /// The `--rules` of `sgcheck check` for these rules (see [`Declare::rules_text`]).
    fn rules_text(&self) -> Option<String> {
        None
    }
    /// Checks the claims of the declaration that the fast side's answer to `position`
    /// rests on (see [`Declare::confirm_claims`]); `Ok` by default.
    fn confirm_claims(&self, _position: &[u64], _until: Instant) -> Result<(), Claim> {
        Ok(())
    }
}

/// A claim of a declaration that an answer rests on (a closed form `value(state)` at a
/// state past those checked when the declaration was read), when it is not confirmed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Claim {
    /// Not checked: the independent computation (the mex table) did not finish within
    /// its budget or time. Says which claim, and why it was not checked.
    Unchecked(String),
    /// Checked and wrong: says where, with both values.
    Wrong(String),
}

impl std::fmt::Display for Claim {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Claim::Unchecked(w) | Claim::Wrong(w) => f.write_str(w),
        }
    }
}

/// Why a declared game has no tier 1 by default.
const NO_TIER1: &str = "the game gives no closed form or period to compare with a mex table";

/// Most numbers [`Declare::smallest_with_value`] scans by default.
pub const SMALLEST_SCAN: u64 = 1 << 16;

/// Parameter `i` as a number, or an error naming it.
pub fn number(params: &[ParamValue<'_>], i: usize, name: &str) -> Result<u64, String> {
    match params.get(i) {
        Some(ParamValue::Number(v)) => Ok(*v),
        _ => Err(format!("parameter {name} must be a number")),
    }
}

/// Sum-of-piles games: the last pile (or, failing that, another one redrawn) takes
/// the value that makes the XOR of the piles' values zero. `value` is one pile's
/// Grundy value, `with_value(need, lo, hi, rng)` a pile size in `lo..=hi` worth `need`.
pub fn losing_sum(
    position: &mut [u64],
    bounds: &[(u64, u64)],
    rng: &mut ChaCha8Rng,
    value: impl Fn(u64) -> u64,
    with_value: impl Fn(u64, u64, u64, &mut ChaCha8Rng) -> Option<u64>,
) -> bool {
    let n = position.len();
    if n == 0 {
        return true;
    }
    let mut x = position[..n - 1].iter().fold(0, |a, &p| a ^ value(p));
    for _ in 0..64 {
        let (lo, hi) = bounds[n - 1];
        if let Some(v) = with_value(x, lo, hi, rng) {
            position[n - 1] = v;
            return true;
        }
        if n == 1 {
            return false;
        }
        let i = rng.gen_range(0..n - 1);
        let (lo, hi) = bounds[i];
        let new = rng.gen_range(lo..=hi);
        x ^= value(position[i]) ^ value(new);
        position[i] = new;
    }
    false
}

/// A pile size in `lo..=hi` worth `need`, by a scan from a random start (for games
/// whose values have no inverse formula); at most 4096 sizes are tried.
pub fn scan_for_value(
    need: u64,
    lo: u64,
    hi: u64,
    rng: &mut ChaCha8Rng,
    value: impl Fn(u64) -> u64,
) -> Option<u64> {
    let width = hi - lo;
    let start = rng.gen_range(lo..=hi);
    (0..=width.min(4095))
        .map(|k| lo + (start - lo + k) % (width + 1))
        .find(|&v| value(v) == need)
}

/// [`losing_sum`] for games whose value of one number is an involution (the one
/// number worth `v` is `value(v)`: Lasker's Nim, Simple Nim); failing that, with an
/// even number of numbers, the second half a copy of the first (equal numbers
/// cancel). Nothing is built where a bound reaches 2^64 - 1, whose value 2^64 is past
/// u64.
pub fn losing_by_involution(
    p: &mut [u64],
    b: &[(u64, u64)],
    rng: &mut ChaCha8Rng,
    value: fn(u64) -> u64,
) -> bool {
    if b.iter().any(|&(_, hi)| hi == u64::MAX) {
        return false;
    }
    let done = losing_sum(p, b, rng, value, |need, lo, hi, _| {
        let v = value(need);
        (lo..=hi).contains(&v).then_some(v)
    });
    let n = p.len();
    if done || n < 2 || n % 2 == 1 {
        return done;
    }
    let half = n / 2;
    for i in 0..half {
        p[half + i] = p[i];
    }
    bounds_hold(p, b)
}

/// Whether every number `p[i]` is within `b[i]` (inclusive).
pub fn bounds_hold(p: &[u64], b: &[(u64, u64)]) -> bool {
    p.iter().zip(b).all(|(v, (lo, hi))| (lo..=hi).contains(&v))
}

impl Reach {
    /// No limit: any value, any length, any analysis.
    pub const ANY: Reach = Reach {
        max_value: u64::MAX,
        max_len: u64::MAX,
        max_moves_work: u64::MAX,
    };
}

/// The oracle's move type of a [`Declare`] game.
pub type MoveOf<D> = <<D as Declare>::Oracle as Rules>::Move;
/// The oracle's position type of a [`Declare`] game.
pub type PositionOf<D> = <<D as Declare>::Oracle as Rules>::Position;

/// How problem declarations use one game: implemented once per game, in its fast
/// file. [`Declared<D>`] derives the rest: the [`DeclarableGame`] and, for the oracle
/// side, the verdict and winning moves by exhaustive search over
/// [`Declare::oracle`]'s rules and position.
pub trait Declare: Send + Sync + 'static {
    /// The oracle's rules (parameters and the position and move types).
    type Oracle: Rules;
    /// The fast side's rules, built from parameter values (they may hold tables).
    type Fast: Send + Sync + 'static;

    /// The game id (`nim`, `bash`, ...), as in `sgcheck list`.
    const ID: &'static str;
    /// The rules' parameters, in the order [`Declare::build`] receives them.
    const PARAMETERS: &'static [ParamSpec] = &[];
    /// What the position numbers are, in words (`pile sizes`, `bean counts`).
    const POSITION: &'static str;
    /// The names of a winning move's fields (at most four), for output templates.
    const MOVE_FIELDS: &'static [&'static str];
    /// What the fast solver handles (see [`Reach`]).
    const REACH: Reach = Reach::ANY;

    /// Builds the fast side's rules from parameter values; an error says what is
    /// wrong with them.
    fn build(params: &[ParamValue<'_>]) -> Result<Self::Fast, String>;
    /// Whether the oracle's own reader accepts the rules of `params`, for games whose
    /// rules are a text that each side reads by itself (`None`: the rules are numbers,
    /// read once). Rules that [`Declare::build`] refuses and the oracle reads are a
    /// disagreement of the two sides, which `verify` reports (exit 1).
    fn oracle_reads(_params: &[ParamValue<'_>]) -> Option<Result<(), String>> {
        None
    }
    /// Whether `position` is a position of the game within what the fast solver
    /// handles (see [`DeclaredRules::check`]).
    fn check(_fast: &Self::Fast, _position: &[u64]) -> Result<(), String> {
        Ok(())
    }
    /// The fast solver's verdict, or why it could not be given (a script that threw
    /// or hit a limit): the position is then unanswerable, never lost or won.
    fn first_wins(fast: &Self::Fast, position: &[u64]) -> Result<bool, String>;
    /// The fast solver's verdict and every winning move, or why they could not be
    /// given (as for [`Declare::first_wins`]).
    fn analyze(fast: &Self::Fast, position: &[u64]) -> Result<Analysis<MoveOf<Self>>, String>;
    /// The values of a move's fields, in the order of [`Declare::MOVE_FIELDS`];
    /// `position` is the position the move is made in.
    fn move_fields(m: &MoveOf<Self>, position: &[u64]) -> [u64; 4];
    /// The oracle's rules and position for `position`, or
    /// [`SearchError::Budget`] when the oracle cannot hold it (or, known before any
    /// search, it is beyond `budget`).
    fn oracle(
        fast: &Self::Fast,
        position: &[u64],
        budget: usize,
    ) -> Result<(Self::Oracle, PositionOf<Self>), SearchError>;
    /// See [`DeclaredRules::make_losing`].
    fn make_losing(
        _fast: &Self::Fast,
        _position: &mut [u64],
        _bounds: &[(u64, u64)],
        _rng: &mut ChaCha8Rng,
    ) -> bool {
        false
    }
    /// See [`DeclaredRules::interesting`].
    fn interesting(
        _fast: &Self::Fast,
        _bounds: &[(u64, u64)],
        _rng: &mut ChaCha8Rng,
    ) -> Option<Vec<u64>> {
        None
    }
    /// One Grundy value per component ([`Declare::COMPONENT_LEN`] position numbers:
    /// a pile, an E&D pair), for games whose components are independent parts of a
    /// sum (the player to move wins exactly when the XOR of the values
    /// is nonzero); `None` (the default) for every other game (misère play, Following
    /// Nim, numbers that are not components). The audit's shrinker uses these to
    /// change a failing input without changing its true answer.
    fn component_values(_fast: &Self::Fast, _position: &[u64]) -> Option<Vec<u64>> {
        None
    }
    /// The smallest number in `lo..=hi` worth `value` as a component. The default
    /// scans upwards from `lo` (at most [`SMALLEST_SCAN`] numbers) with
    /// [`Declare::component_values`]; games with a formula answer directly.
    fn smallest_with_value(fast: &Self::Fast, value: u64, lo: u64, hi: u64) -> Option<u64> {
        let top = hi.min(lo.saturating_add(SMALLEST_SCAN - 1));
        (lo..=top).find(|&x| {
            Self::component_values(fast, &[x]).and_then(|v| v.first().copied()) == Some(value)
        })
    }
    /// The Grundy value of a whole position, when known: by default the XOR of
    /// [`Declare::component_values`]; a game whose position is not a list of
    /// components (a tree) answers with its own rule.
    fn position_value(fast: &Self::Fast, position: &[u64]) -> Option<u64> {
        Self::component_values(fast, position).map(|g| g.iter().fold(0, |a, &b| a ^ b))
    }
    /// How many position numbers make one component of
    /// [`Declare::component_values`]: 1 (a pile) by default; 2 for a game of pairs
    /// (E&D).
    const COMPONENT_LEN: usize = 1;
    /// [`Declare::COMPONENT_LEN`] for these rules: games whose components are records
    /// of a width the rules set (a heap and its own parameters) answer it here.
    fn component_len(_fast: &Self::Fast) -> usize {
        Self::COMPONENT_LEN
    }
    /// The smallest component worth `value` as a component, its
    /// [`Declare::COMPONENT_LEN`] numbers each in `lo..=hi` (fewest stones first).
    /// By default [`Declare::smallest_with_value`] for components of one number,
    /// `None` for longer ones.
    fn smallest_component(fast: &Self::Fast, value: u64, lo: u64, hi: u64) -> Option<Vec<u64>> {
        if Self::COMPONENT_LEN != 1 {
            return None;
        }
        Self::smallest_with_value(fast, value, lo, hi).map(|x| vec![x])
    }
    /// Tier 1 of `verify --problem` for these rules: the values the fast side answers
    /// with (a closed form, a proven period) against a plain mex table computed from
    /// the rules' moves; `Err` says why there is nothing to compare (the default).
    fn tier1(_fast: &Self::Fast) -> Result<crate::verify::Tier1Report, String> {
        Err(NO_TIER1.into())
    }
    /// Why the fast side of these rules answers whole positions with the oracle's own
    /// search (misère play, which has no Sprague-Grundy solver), so that tier 2 would
    /// compare one computation with itself; `None` (the default) when it computes
    /// them its own way.
    fn fast_is_oracle(_fast: &Self::Fast) -> Option<String> {
        None
    }
    /// The `--rules` of `sgcheck check <id>` that reproduces these rules, when they have
    /// a text of their own; `None` (the default) otherwise.
    fn rules_text(_fast: &Self::Fast) -> Option<String> {
        None
    }
    /// Checks, by a computation independent of it, each claim of the declaration that
    /// [`Declare::first_wins`] and [`Declare::analyze`] rest on for `position` (a
    /// scripted game's closed form `value(state)` at states past its checked box), by
    /// `until` at the latest. `Ok` when the answer rests on no such claim (the
    /// default: the fast side computes from the rules) or each one checks out. The
    /// audit asks before it blames a program on an expected answer the oracle could
    /// not confirm.
    fn confirm_claims(_fast: &Self::Fast, _position: &[u64], _until: Instant) -> Result<(), Claim> {
        Ok(())
    }
}

/// The [`DeclarableGame`] of a [`Declare`] game.
pub struct Declared<D: Declare>(PhantomData<fn() -> D>);

impl<D: Declare> Declared<D> {
    /// The game as declarations see it.
    pub const GAME: &'static dyn DeclarableGame = &Declared::<D>(PhantomData);
}

/// The [`DeclaredRules`] of one instance of a [`Declare`] game: its fast side's rules.
struct Built<D: Declare>(D::Fast);

impl<D: Declare> Built<D> {
    fn fast(&self) -> &D::Fast {
        &self.0
    }

    fn view(position: &[u64], a: Analysis<MoveOf<D>>, notation: bool) -> Analysis<MoveView> {
        Analysis {
            win: a.win,
            winning: a
                .winning
                .iter()
                .map(|m| {
                    let fields = D::move_fields(m, position);
                    MoveView::new(&fields[..D::MOVE_FIELDS.len()], || m.to_string(), notation)
                })
                .collect(),
            remoteness: a.remoteness,
        }
    }

    fn solver(
        &self,
        position: &[u64],
        budget: usize,
    ) -> Result<(Solver<D::Oracle>, PositionOf<D>), SearchError> {
        let (rules, pos) = D::oracle(self.fast(), position, budget)?;
        Ok((Solver::verdict_only(rules).with_budget(budget), pos))
    }
}

impl<D: Declare> DeclarableGame for Declared<D> {
    fn id(&self) -> &'static str {
        D::ID
    }
    fn parameters(&self) -> &'static [ParamSpec] {
        D::PARAMETERS
    }
    fn position(&self) -> &'static str {
        D::POSITION
    }
    fn move_fields(&self) -> &'static [&'static str] {
        D::MOVE_FIELDS
    }
    fn reach(&self) -> Reach {
        D::REACH
    }
    fn rules(&self, params: &[ParamValue<'_>]) -> Result<Arc<dyn DeclaredRules>, String> {
        Ok(Arc::new(Built::<D>(D::build(params)?)))
    }
    fn oracle_reads(&self, params: &[ParamValue<'_>]) -> Option<Result<(), String>> {
        D::oracle_reads(params)
    }
    fn check_with(&self, params: &[ParamValue<'_>], position: &[u64]) -> Result<(), String> {
        D::check(&D::build(params)?, position)
    }
    fn first_wins_with(&self, params: &[ParamValue<'_>], position: &[u64]) -> Result<bool, String> {
        D::first_wins(&D::build(params)?, position)
    }
}

impl<D: Declare> DeclaredRules for Built<D> {
    fn check(&self, position: &[u64]) -> Result<(), String> {
        D::check(self.fast(), position)
    }
    fn first_wins(&self, position: &[u64]) -> Result<bool, String> {
        D::first_wins(self.fast(), position)
    }
    fn analyze(&self, position: &[u64], notation: bool) -> Result<Analysis<MoveView>, String> {
        Ok(Self::view(
            position,
            D::analyze(self.fast(), position)?,
            notation,
        ))
    }
    fn oracle_first_wins(&self, position: &[u64], budget: usize) -> Result<bool, SearchError> {
        let (mut solver, pos) = self.solver(position, budget)?;
        Ok(solver.outcome(&pos)?.win)
    }
    fn oracle_analyze(
        &self,
        position: &[u64],
        budget: usize,
        notation: bool,
    ) -> Result<Analysis<MoveView>, SearchError> {
        let (mut solver, pos) = self.solver(position, budget)?;
        Ok(Self::view(position, solver.analyze(&pos)?, notation))
    }
    fn make_losing(&self, p: &mut [u64], b: &[(u64, u64)], rng: &mut ChaCha8Rng) -> bool {
        D::make_losing(self.fast(), p, b, rng)
    }
    fn interesting(&self, b: &[(u64, u64)], rng: &mut ChaCha8Rng) -> Option<Vec<u64>> {
        D::interesting(self.fast(), b, rng)
    }
    fn component_values(&self, position: &[u64]) -> Option<Vec<u64>> {
        D::component_values(self.fast(), position)
    }
    fn smallest_with_value(&self, value: u64, lo: u64, hi: u64) -> Option<u64> {
        if lo > hi {
            return None;
        }
        D::smallest_with_value(self.fast(), value, lo, hi)
    }
    fn position_value(&self, position: &[u64]) -> Option<u64> {
        D::position_value(self.fast(), position)
    }
    fn component_len(&self) -> usize {
        D::component_len(self.fast())
    }
    fn smallest_component(&self, value: u64, lo: u64, hi: u64) -> Option<Vec<u64>> {
        if lo > hi {
            return None;
        }
        D::smallest_component(self.fast(), value, lo, hi)
    }
    fn tier1(&self) -> Result<crate::verify::Tier1Report, String> {
        D::tier1(self.fast())
    }
    fn fast_is_oracle(&self) -> Option<String> {
        D::fast_is_oracle(self.fast())
    }
    fn rules_text(&self) -> Option<String> {
        D::rules_text(self.fast())
    }
    fn confirm_claims(&self, position: &[u64], until: Instant) -> Result<(), Claim> {
        D::confirm_claims(self.fast(), position, until)
    }
}

/// The reason [`Declare::fast_is_oracle`] gives for a game whose misère play the fast
/// side answers by the oracle's own exhaustive search (`rules`: how the report names
/// the rules); `None` in normal play.
pub fn misere_by_search(misere: bool, rules: &str) -> Option<String> {
    misere.then(|| {
        format!(
            "misère play ({rules}): the fast side answers whole positions by the oracle's \
             own exhaustive search, so tier 2 would compare the search with itself"
        )
    })
}

/// Whether `error`, an error of a declared game's `check`, `first_wins` or `analyze`,
/// is a failure of the declaration itself (its script threw, ran past a limit of the
/// sandbox or returned a value of the wrong type: see
/// [`crate::games::scripted::script::is_call_failure`]) rather than a refusal by
/// design (a position past the game's stated reach). A failure is a finding of
/// `verify`; a refusal is a skip.
pub fn is_declaration_failure(error: &str) -> bool {
    crate::games::scripted::script::is_call_failure(error)
}
