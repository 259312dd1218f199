//! Memoized minimax over whole positions.
//!
//! A position is won for the player to move exactly when some move leads to a position
//! lost for the player to move there; a position without moves is lost (or won, where
//! [`Rules::stuck_player_wins`] says so). Nothing else is assumed: no Grundy values, no
//! XOR, no decomposition into components.
//!
//! The search is an explicit-stack depth-first traversal, so a long chain of moves
//! (a split game with thousands of beans to push) cannot overflow the thread's stack.
//! Solved positions are kept in FxHash tables of packed 32-bit outcomes. Limits on the
//! positions a query may add, on the bytes the tables and the stack hold, and on the
//! wall time make a too-large position fail with a [`SearchError`] instead of running
//! out of time or memory.
//!
//! # Two searches, one answer
//!
//! [`Speedups::NONE`] runs the plain search: every child position is built by
//! [`Rules::moves`], looked up under [`Rules::key`] when its turn comes, and expanded
//! when it is unknown. The default, [`Speedups::ALL`], answers the same question
//! faster, each speed-up on its own switch:
//!
//! - `packed_keys`: small positions are remembered under [`Rules::packed_key`], one
//!   `u128`, instead of a key built in a `Vec`;
//! - `in_place_children`: children come from [`Rules::for_each_move`], which games
//!   build in one reused buffer; only the children still unknown are copied;
//! - `known_children_first`: when a position is opened, the children already in the
//!   table are folded in at once (in verdict-only mode a lost one ends the position
//!   before anything is copied), and only the unknown ones wait on the stack;
//! - `dedup_children`: children with equal keys wait on the stack once (equal keys have
//!   equal outcomes, and a position's outcome depends only on the set of its children's
//!   outcomes: whether one is lost, the fastest win, the slowest loss);
//! - `symmetric_keys`: positions are remembered under [`Rules::symmetric_key`] where a
//!   game has one, a key shared by positions that a symmetry of the rules maps onto
//!   each other (a relabelling of a tree's vertices maps its moves onto the other
//!   tree's moves, so isomorphic trees have equal outcomes).
//!
//! None of them changes what a position's outcome is computed from, only how often
//! the same thing is computed; the tests run every game's small positions through the
//! plain search and through each speed-up alone and all together and require equal
//! answers. Setting the environment variable `SGCHECK_ORACLE_SPEEDUPS=none` makes
//! every solver built by [`Solver::new`] plain, so any test or command can be rerun on
//! the plain search.

use crate::Rules;
use rustc_hash::{FxHashMap, FxHashSet};
use std::fmt;
use std::mem::size_of;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, OnceLock};
use std::time::{Duration, Instant};

/// The default budget: positions one query may add to the table or hold on its search
/// stack. Memory is bounded separately, in bytes ([`default_memory_limit`]).
pub const DEFAULT_BUDGET: usize = 2_000_000;

/// The result of a search for one position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Outcome {
    /// True when the player to move wins under optimal play.
    pub win: bool,
    /// Plies to the end under optimal play, the winner hurrying and the loser delaying;
    /// `None` when the solver was built with [`Solver::verdict_only`].
    pub remoteness: Option<u32>,
}

/// Everything the oracle says of one position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Analysis<M> {
    /// True when the player to move wins.
    pub win: bool,
    /// Every winning move, in the game's canonical move order, without repeats.
    pub winning: Vec<M>,
    /// Plies to the end under optimal play, when the engine computes it.
    pub remoteness: Option<u32>,
}

impl<M> Analysis<M> {
    /// The best move: the smallest winning move in canonical order.
    pub fn best(&self) -> Option<&M> {
        self.winning.first()
    }

    /// The number of distinct winning moves.
    pub fn count(&self) -> usize {
        self.winning.len()
    }
}

/// Why a search gave no answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SearchError {
    /// The position needs more distinct positions than the budget allows.
    Budget {
        /// The budget that was exceeded.
        budget: usize,
    },
    /// The tables and the search stack would need more memory than allowed.
    Memory {
        /// The limit in bytes.
        limit: usize,
    },
    /// The search ran past its deadline.
    Time {
        /// The time the search was given, from the query's start (or from when the
        /// deadline was set, for a deadline shared by several queries).
        limit: Duration,
    },
}

impl fmt::Display for SearchError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SearchError::Budget { budget } => write!(
                f,
                "position too large for the exhaustive oracle: it needs more than {budget} \
                 distinct positions"
            ),
            SearchError::Memory { limit } => write!(
                f,
                "position too large for the exhaustive oracle: it needs more than {} MiB \
                 of memory",
                limit / (1 << 20)
            ),
            SearchError::Time { limit } => write!(
                f,
                "position too large for the exhaustive oracle: no answer within {:.1} s",
                limit.as_secs_f64()
            ),
        }
    }
}

impl std::error::Error for SearchError {}

/// Which speed-ups a [`Solver`] uses; see the module documentation. Each only changes
/// how often the same thing is computed, never what an outcome is computed from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Speedups {
    /// Remember small positions under [`Rules::packed_key`].
    pub packed_keys: bool,
    /// Generate children with [`Rules::for_each_move`] and copy only unknown ones.
    pub in_place_children: bool,
    /// Fold in children already solved when a position is opened.
    pub known_children_first: bool,
    /// Keep children with equal keys on the stack once.
    pub dedup_children: bool,
    /// Remember positions under [`Rules::symmetric_key`], shared by positions that a
    /// symmetry of the rules maps onto each other (isomorphic trees).
    pub symmetric_keys: bool,
}

impl Speedups {
    /// The plain search.
    pub const NONE: Speedups = Speedups {
        packed_keys: false,
        in_place_children: false,
        known_children_first: false,
        dedup_children: false,
        symmetric_keys: false,
    };
    /// Every speed-up.
    pub const ALL: Speedups = Speedups {
        packed_keys: true,
        in_place_children: true,
        known_children_first: true,
        dedup_children: true,
        symmetric_keys: true,
    };

    /// [`Speedups::ALL`], or [`Speedups::NONE`] when the environment variable
    /// `SGCHECK_ORACLE_SPEEDUPS` is `none` (read once per process).
    pub fn from_env() -> Speedups {
        static FROM_ENV: OnceLock<Speedups> = OnceLock::new();
        *FROM_ENV.get_or_init(|| match std::env::var("SGCHECK_ORACLE_SPEEDUPS") {
            Ok(v) if v.trim().eq_ignore_ascii_case("none") => Speedups::NONE,
            _ => Speedups::ALL,
        })
    }

    /// Every combination of the five switches, for tests.
    pub fn every_combination() -> Vec<Speedups> {
        (0..32u8)
            .map(|b| Speedups {
                packed_keys: b & 1 != 0,
                in_place_children: b & 2 != 0,
                known_children_first: b & 4 != 0,
                dedup_children: b & 8 != 0,
                symmetric_keys: b & 16 != 0,
            })
            .collect()
    }
}

static MEMORY_OVERRIDE: AtomicUsize = AtomicUsize::new(0);

/// Sets the memory limit of every solver built from now on (`None` restores the
/// machine's default). Commands use it for their `--memory` option.
pub fn set_memory_limit(bytes: Option<usize>) {
    MEMORY_OVERRIDE.store(bytes.map_or(0, |b| b.max(1)), Ordering::Relaxed);
}

/// The memory limit a new solver gets: the one of [`set_memory_limit`], or else a
/// sixteenth of the machine's physical memory, at least 256 MiB and at most 1 GiB
/// (1 GiB where the memory size cannot be read). It counts the bytes the tables and
/// the search hold; the process's resident size adds the allocator's overhead.
pub fn default_memory_limit() -> usize {
    match MEMORY_OVERRIDE.load(Ordering::Relaxed) {
        0 => machine_memory_limit(),
        set => set,
    }
}

fn machine_memory_limit() -> usize {
    static LIMIT: OnceLock<usize> = OnceLock::new();
    *LIMIT.get_or_init(|| {
        const MIB: usize = 1 << 20;
        let total = std::fs::read_to_string("/proc/meminfo").ok().and_then(|m| {
            let line = m.lines().find(|l| l.starts_with("MemTotal:"))?;
            let kib: usize = line.split_whitespace().nth(1)?.parse().ok()?;
            Some(kib.saturating_mul(1024))
        });
        match total {
            Some(bytes) => (bytes / 16).clamp(256 * MIB, 1024 * MIB),
            None => 1024 * MIB,
        }
    })
}

static DEADLINE: Mutex<Option<(Instant, Duration)>> = Mutex::new(None);

/// Sets a deadline for every search in the process (`None` removes it): a query still
/// running `limit` from now fails with [`SearchError::Time`]. Commands use it to bound
/// the whole of their work, however many solvers they build.
pub fn set_deadline(limit: Option<Duration>) {
    let value = limit.map(|d| (Instant::now() + d, d));
    *DEADLINE.lock().unwrap_or_else(|e| e.into_inner()) = value;
}

fn process_deadline() -> Option<(Instant, Duration)> {
    *DEADLINE.lock().unwrap_or_else(|e| e.into_inner())
}

thread_local! {
    /// The deadline of [`with_deadline`] on this thread, if any.
    static SCOPED_DEADLINE: std::cell::Cell<Option<Instant>> = const { std::cell::Cell::new(None) };
}

/// Runs `f` with a deadline for every query it makes on this thread (the earlier of
/// `deadline` and one already in force): a query still running at `deadline` fails
/// with [`SearchError::Time`]. A sweep uses it so that no check runs far past the
/// sweep's own time, whatever the per-query limit.
pub fn with_deadline<T>(deadline: Instant, f: impl FnOnce() -> T) -> T {
    struct Restore(Option<Instant>);
    impl Drop for Restore {
        fn drop(&mut self) {
            SCOPED_DEADLINE.with(|c| c.set(self.0));
        }
    }
    let previous = SCOPED_DEADLINE.with(|c| c.get());
    let _restore = Restore(previous);
    SCOPED_DEADLINE.with(|c| c.set(Some(previous.map_or(deadline, |p| p.min(deadline)))));
    f()
}

/// The deadline of [`with_deadline`] in force on this thread, if any.
pub fn scoped_deadline() -> Option<Instant> {
    SCOPED_DEADLINE.with(|c| c.get())
}

/// Nanoseconds of [`set_query_time_limit`]; 0 for none.
static QUERY_TIME_NANOS: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

/// Sets the most wall time any one query may take, in every solver of the process
/// that has no limit of its own ([`Solver::with_time_limit`]); `None` removes it. A
/// query past it fails with [`SearchError::Time`]. A differential check uses it so
/// that an oracle query too slow to finish is counted as skipped, never taken for a
/// fast solver that does not return.
pub fn set_query_time_limit(limit: Option<Duration>) {
    let nanos = limit.map_or(0, |d| {
        u64::try_from(d.as_nanos()).unwrap_or(u64::MAX).max(1)
    });
    QUERY_TIME_NANOS.store(nanos, std::sync::atomic::Ordering::Relaxed);
}

/// The time limit of one query set by [`set_query_time_limit`], if any.
pub fn query_time_limit() -> Option<Duration> {
    match QUERY_TIME_NANOS.load(std::sync::atomic::Ordering::Relaxed) {
        0 => None,
        n => Some(Duration::from_nanos(n)),
    }
}

/// Packs an outcome into 32 bits: bit 0 is the verdict, the rest the remoteness
/// (saturating; all-ones means "not computed").
#[derive(Clone, Copy)]
struct Packed(u32);

const NO_REMOTENESS: u32 = u32::MAX >> 1;

impl Packed {
    fn new(win: bool, remoteness: u32) -> Self {
        Packed((remoteness.min(NO_REMOTENESS) << 1) | win as u32)
    }
    fn win(self) -> bool {
        self.0 & 1 == 1
    }
    fn remoteness(self) -> u32 {
        self.0 >> 1
    }
    fn outcome(self) -> Outcome {
        let r = self.remoteness();
        Outcome {
            win: self.win(),
            remoteness: (r != NO_REMOTENESS).then_some(r),
        }
    }
}

/// A memo key: packed, or the rules' own key.
#[derive(Clone, PartialEq, Eq, Hash)]
enum Key<P> {
    Packed(u128),
    Symmetric(u128),
    Plain(P),
}

/// What a position's outcome is folded from: its children's outcomes.
#[derive(Clone, Copy)]
struct Fold {
    has_moves: bool,
    stuck_wins: bool,
    /// Some child is lost for the player to move there.
    win: bool,
    /// Smallest remoteness among lost children.
    fastest_win: u32,
    /// Largest remoteness among won children.
    slowest_loss: u32,
}

impl Fold {
    const EMPTY: Fold = Fold {
        has_moves: false,
        stuck_wins: false,
        win: false,
        fastest_win: u32::MAX,
        slowest_loss: 0,
    };

    /// Folds in one child's outcome.
    fn add(&mut self, child: Packed) {
        if child.win() {
            self.slowest_loss = self.slowest_loss.max(child.remoteness());
        } else {
            self.win = true;
            self.fastest_win = self.fastest_win.min(child.remoteness());
        }
    }

    fn finish(&self, remoteness: bool) -> Packed {
        let plus_one = |r: u32| {
            if remoteness {
                r.saturating_add(1)
            } else {
                NO_REMOTENESS
            }
        };
        if !self.has_moves {
            Packed::new(self.stuck_wins, if remoteness { 0 } else { NO_REMOTENESS })
        } else if self.win {
            Packed::new(true, plus_one(self.fastest_win))
        } else {
            Packed::new(false, plus_one(self.slowest_loss))
        }
    }
}

/// One position on the search stack. Its children are `pending[start..end]`, those
/// still to look at `pending[next..end]`.
struct Frame<P> {
    key: Key<P>,
    start: usize,
    next: usize,
    end: usize,
    fold: Fold,
}

/// The mutable part of a solver: its tables and search scratch.
struct State<R: Rules> {
    table: FxHashMap<R::Position, Packed>,
    packed: FxHashMap<u128, Packed>,
    symmetric: FxHashMap<u128, Packed>,
    /// Heap bytes of the keys in `table`.
    table_heap: usize,
    speedups: Speedups,
    scratch: Vec<(R::Move, R::Position)>,
    pending: Vec<(R::Position, Key<R::Position>)>,
    /// Heap bytes of the positions in `pending`.
    pending_heap: usize,
    seen_packed: FxHashSet<u128>,
    seen_symmetric: FxHashSet<u128>,
    seen_plain: FxHashSet<R::Position>,
    /// Children filed since the clock was last read.
    work: usize,
}

impl<R: Rules> State<R> {
    fn len(&self) -> usize {
        self.table.len() + self.packed.len() + self.symmetric.len()
    }

    fn table_bytes(&self) -> usize {
        let plain = self.table.capacity() * (size_of::<(R::Position, Packed)>() + 1);
        let packed = (self.packed.capacity() + self.symmetric.capacity())
            * (size_of::<(u128, Packed)>() + 1);
        plain + packed + self.table_heap
    }

    /// Bytes held now: the tables, the pending children, the move buffer and a stack
    /// of `depth` frames.
    fn bytes_held(&self, depth: usize) -> usize {
        self.table_bytes()
            + self.pending.capacity() * size_of::<(R::Position, Key<R::Position>)>()
            + self.pending_heap
            + self.scratch.capacity() * size_of::<(R::Move, R::Position)>()
            + depth * size_of::<Frame<R::Position>>()
    }

    fn clear(&mut self) {
        self.table = FxHashMap::default();
        self.packed = FxHashMap::default();
        self.symmetric = FxHashMap::default();
        self.table_heap = 0;
    }

    fn key_of(&self, rules: &R, pos: &R::Position) -> Key<R::Position> {
        if self.speedups.symmetric_keys {
            if let Some(k) = rules.symmetric_key(pos) {
                return Key::Symmetric(k);
            }
        }
        if self.speedups.packed_keys {
            if let Some(k) = rules.packed_key(pos) {
                return Key::Packed(k);
            }
        }
        Key::Plain(rules.key(pos))
    }

    fn get(&self, key: &Key<R::Position>) -> Option<Packed> {
        match key {
            Key::Packed(k) => self.packed.get(k).copied(),
            Key::Symmetric(k) => self.symmetric.get(k).copied(),
            Key::Plain(p) => self.table.get(p).copied(),
        }
    }

    fn insert(&mut self, rules: &R, key: Key<R::Position>, value: Packed) {
        match key {
            Key::Packed(k) => {
                self.packed.insert(k, value);
            }
            Key::Symmetric(k) => {
                self.symmetric.insert(k, value);
            }
            Key::Plain(p) => {
                let heap = heap_bytes(rules, &p);
                if self.table.insert(p, value).is_none() {
                    self.table_heap += heap;
                }
            }
        }
    }

    /// Files one child of the frame being opened: folded in when it is known (and that
    /// speed-up is on), dropped when a child with its key already waits (likewise),
    /// kept in `pending` otherwise.
    fn file(&mut self, rules: &R, child: &R::Position, fold: &mut Fold, verdict_only: bool) {
        if let Some(k) = self.classify(rules, child, fold, verdict_only) {
            self.keep(rules, child.clone(), k);
        }
    }

    /// [`State::file`] for a child the caller owns: kept by moving it.
    fn file_owned(&mut self, rules: &R, child: R::Position, fold: &mut Fold, verdict_only: bool) {
        if let Some(k) = self.classify(rules, &child, fold, verdict_only) {
            self.keep(rules, child, k);
        }
    }

    /// The key of a child to keep, or `None` when it was folded in or dropped.
    fn classify(
        &mut self,
        rules: &R,
        child: &R::Position,
        fold: &mut Fold,
        verdict_only: bool,
    ) -> Option<Key<R::Position>> {
        fold.has_moves = true;
        self.work += 1;
        let sp = self.speedups;
        if verdict_only && fold.win && sp.known_children_first {
            return None;
        }
        let k = self.key_of(rules, child);
        if sp.known_children_first {
            if let Some(p) = self.get(&k) {
                fold.add(p);
                return None;
            }
        }
        if sp.dedup_children {
            let fresh = match &k {
                Key::Packed(x) => self.seen_packed.insert(*x),
                Key::Symmetric(x) => self.seen_symmetric.insert(*x),
                Key::Plain(x) => self.seen_plain.insert(x.clone()),
            };
            if !fresh {
                return None;
            }
        }
        Some(k)
    }

    fn keep(&mut self, rules: &R, child: R::Position, key: Key<R::Position>) {
        self.pending_heap += entry_heap(rules, &child, &key);
        self.pending.push((child, key));
    }
}

/// Heap bytes of a pending child and its key.
fn entry_heap<R: Rules>(rules: &R, child: &R::Position, key: &Key<R::Position>) -> usize {
    heap_bytes(rules, child)
        + match key {
            Key::Plain(k) => heap_bytes(rules, k),
            Key::Packed(_) | Key::Symmetric(_) => 0,
        }
}

/// Heap bytes of a position: its size beyond the inline part.
fn heap_bytes<R: Rules>(rules: &R, pos: &R::Position) -> usize {
    rules
        .position_bytes(pos)
        .saturating_sub(size_of::<R::Position>())
}

/// Exhaustive solver for one game's rules, remembering every position it solved.
///
/// ```
/// use sgcheck_oracles::{games::nim::{Nim, Piles}, Solver};
/// let mut s = Solver::new(Nim);
/// let a = s.analyze(&Piles(vec![3, 4, 5])).unwrap();
/// assert!(a.win);
/// assert_eq!(a.best().unwrap().to_string(), "0:2");
/// ```
pub struct Solver<R: Rules> {
    rules: R,
    st: State<R>,
    budget: usize,
    memory: usize,
    time: Option<Duration>,
    remoteness: bool,
}

impl<R: Rules> Solver<R> {
    /// A solver that also computes remoteness, with the [`DEFAULT_BUDGET`], the
    /// [`default_memory_limit`] and [`Speedups::from_env`].
    pub fn new(rules: R) -> Self {
        Solver {
            rules,
            st: State {
                table: FxHashMap::default(),
                packed: FxHashMap::default(),
                symmetric: FxHashMap::default(),
                table_heap: 0,
                speedups: Speedups::from_env(),
                scratch: Vec::new(),
                pending: Vec::new(),
                pending_heap: 0,
                seen_packed: FxHashSet::default(),
                seen_symmetric: FxHashSet::default(),
                seen_plain: FxHashSet::default(),
                work: 0,
            },
            budget: DEFAULT_BUDGET,
            memory: default_memory_limit(),
            time: None,
            remoteness: true,
        }
    }

    /// A solver that computes verdicts and winning moves but not remoteness. It stops
    /// at the first losing child of a position, so it explores far fewer positions.
    pub fn verdict_only(rules: R) -> Self {
        Solver {
            remoteness: false,
            ..Solver::new(rules)
        }
    }

    /// Sets how many new positions one query may solve before giving up.
    pub fn with_budget(mut self, budget: usize) -> Self {
        self.budget = budget.max(1);
        self
    }

    /// Sets the most bytes the solver's tables and search stack may hold.
    pub fn with_memory_limit(mut self, bytes: usize) -> Self {
        self.memory = bytes.max(1);
        self
    }

    /// Sets the most wall time one query may take (the process-wide deadline of
    /// [`set_deadline`] applies too).
    pub fn with_time_limit(mut self, limit: Duration) -> Self {
        self.time = Some(limit);
        self
    }

    /// Chooses the speed-ups (see [`Speedups`]); the answers never change.
    pub fn with_speedups(mut self, speedups: Speedups) -> Self {
        self.st.speedups = speedups;
        self
    }

    /// The speed-ups in use.
    pub fn speedups(&self) -> Speedups {
        self.st.speedups
    }

    /// The position budget of one query.
    pub fn budget(&self) -> usize {
        self.budget
    }

    /// Whether the solver computes remoteness (false for [`Solver::verdict_only`]).
    pub fn computes_remoteness(&self) -> bool {
        self.remoteness
    }

    /// The rules this solver plays.
    pub fn rules(&self) -> &R {
        &self.rules
    }

    /// Number of positions currently remembered.
    pub fn table_len(&self) -> usize {
        self.st.len()
    }

    /// Bytes the tables hold now: entries, the hash tables' overhead and the keys'
    /// heap data.
    pub fn table_bytes(&self) -> usize {
        self.st.table_bytes()
    }

    /// Forgets every solved position.
    pub fn clear(&mut self) {
        self.st.clear();
    }

    fn over_budget(&self) -> SearchError {
        SearchError::Budget {
            budget: self.budget,
        }
    }

    fn over_memory(&self) -> SearchError {
        SearchError::Memory { limit: self.memory }
    }

    /// Fails before generating the moves of a position whose announced move count
    /// alone would exceed what is left of the budget (a pile of 2*10^9 stones), or
    /// whose children, all built at once, would not fit in the memory left.
    fn check_bound(&self, pos: &R::Position, used: usize, bytes: usize) -> Result<(), SearchError> {
        match self.rules.move_bound(pos) {
            Some(b) if b > self.budget.saturating_sub(used) as u64 => Err(self.over_budget()),
            Some(b)
                if b.saturating_mul(self.rules.position_bytes(pos) as u64)
                    > self.memory.saturating_sub(bytes) as u64 =>
            {
                Err(self.over_memory())
            }
            _ => Ok(()),
        }
    }

    /// The deadline of the query starting now.
    fn deadline(&self) -> Option<(Instant, Duration)> {
        let own = self
            .time
            .or_else(query_time_limit)
            .map(|d| (Instant::now() + d, d));
        let now = Instant::now();
        let scoped = scoped_deadline().map(|d| (d, d.saturating_duration_since(now)));
        [own, process_deadline(), scoped]
            .into_iter()
            .flatten()
            .min_by_key(|d| d.0)
    }

    /// Solves one position: who wins, and in how many plies.
    pub fn outcome(&mut self, pos: &R::Position) -> Result<Outcome, SearchError> {
        self.solve(pos).map(Packed::outcome)
    }

    fn solve(&mut self, root: &R::Position) -> Result<Packed, SearchError> {
        let root_key = self.st.key_of(&self.rules, root);
        if let Some(p) = self.st.get(&root_key) {
            return Ok(p);
        }
        // Keep memory bounded across many queries: start the next one afresh when the
        // table holds half the memory limit. (The budget bounds what one query adds,
        // not what earlier queries left: a kept table is what makes reuse pay.)
        if self.st.table_bytes() > self.memory / 2 {
            self.st.clear();
        }
        let deadline = self.deadline();
        let result = self.search(root, root_key, deadline);
        self.st.pending.clear();
        self.st.pending_heap = 0;
        self.st.seen_packed.clear();
        self.st.seen_symmetric.clear();
        self.st.seen_plain.clear();
        if result.is_err() && self.st.table_bytes() > self.memory / 2 {
            self.st.clear();
        }
        result
    }

    /// Opens a frame for `pos`: its children go to `pending` (the known ones, with
    /// that speed-up, into the frame's fold at once).
    fn open(
        &mut self,
        pos: &R::Position,
        key: Key<R::Position>,
        used: usize,
        depth: usize,
    ) -> Result<Frame<R::Position>, SearchError> {
        self.check_bound(pos, used, self.st.bytes_held(depth))?;
        let start = self.st.pending.len();
        let mut fold = Fold::EMPTY;
        let verdict_only = !self.remoteness;
        let Solver { rules, st, .. } = self;
        if st.speedups.in_place_children {
            rules.for_each_child(pos, |c| st.file(rules, c, &mut fold, verdict_only));
        } else {
            let mut moves = std::mem::take(&mut st.scratch);
            moves.clear();
            rules.moves(pos, &mut moves);
            // Each kept child is moved, not copied, out of the move list.
            for (_, child) in moves.drain(..) {
                st.file_owned(rules, child, &mut fold, verdict_only);
            }
            st.scratch = moves;
        }
        if st.speedups.dedup_children {
            st.seen_packed.clear();
            st.seen_symmetric.clear();
            st.seen_plain.clear();
        }
        fold.stuck_wins = !fold.has_moves && rules.stuck_player_wins(pos);
        Ok(Frame {
            key,
            start,
            next: start,
            end: st.pending.len(),
            fold,
        })
    }

    fn search(
        &mut self,
        root: &R::Position,
        root_key: Key<R::Position>,
        deadline: Option<(Instant, Duration)>,
    ) -> Result<Packed, SearchError> {
        let start = self.st.len();
        let root_frame = self.open(root, root_key, 0, 1)?;
        let mut stack = vec![root_frame];
        loop {
            let top = stack.last_mut().expect("stack is never empty here");
            let done = top.next >= top.end || (!self.remoteness && top.fold.win);
            if !done {
                let idx = top.next;
                // A child may have been solved since its frame was opened (by a
                // sibling's subtree); the plain search looks every child up here.
                if let Some(p) = self.st.get(&self.st.pending[idx].1) {
                    top.fold.add(p);
                    top.next += 1;
                    continue;
                }
                let used = self.st.len() - start + self.st.pending.len();
                if used >= self.budget {
                    return Err(self.over_budget());
                }
                // Read the clock every few thousand children filed (a large position
                // files thousands at once).
                if self.st.work >= 4096 {
                    self.st.work = 0;
                    if let Some((at, limit)) = deadline {
                        if Instant::now() >= at {
                            return Err(SearchError::Time { limit });
                        }
                    }
                }
                if self.st.bytes_held(stack.len()) > self.memory {
                    return Err(self.over_memory());
                }
                let (child, key) = self.st.pending[idx].clone();
                let depth = stack.len() + 1;
                let frame = self.open(&child, key, used, depth)?;
                stack.push(frame);
                continue;
            }
            let frame = stack.pop().expect("stack is never empty here");
            let Solver { rules, st, .. } = self;
            for (p, k) in st.pending.drain(frame.start..) {
                st.pending_heap -= entry_heap(rules, &p, &k);
            }
            let packed = frame.fold.finish(self.remoteness);
            self.st.insert(&self.rules, frame.key, packed);
            match stack.last_mut() {
                Some(parent) => {
                    parent.fold.add(packed);
                    parent.next += 1;
                }
                None => return Ok(packed),
            }
        }
    }

    /// Solves a position and lists every winning move in canonical order.
    pub fn analyze(&mut self, pos: &R::Position) -> Result<Analysis<R::Move>, SearchError> {
        let root = self.solve(pos)?;
        self.check_bound(pos, 0, self.st.table_bytes())?;
        let mut winning = Vec::new();
        if self.st.speedups.in_place_children {
            // Each child is one lookup now (the root's search solved them all, unless
            // the verdict-only search stopped early); `solve` only runs on a miss.
            // Only the moves to lost or unknown children are built.
            let mut missed = Vec::new();
            let Solver { rules, st, .. } = self;
            let last = std::cell::Cell::new(None);
            rules.for_each_move_if(
                pos,
                |child| {
                    let p = st.get(&st.key_of(rules, child));
                    last.set(p);
                    !p.is_some_and(|p| p.win())
                },
                |mv, child| match last.get() {
                    Some(_) => winning.push(mv),
                    None => missed.push((mv, child.clone())),
                },
            );
            for (mv, child) in missed {
                if !self.solve(&child)?.win() {
                    winning.push(mv);
                }
            }
        } else {
            let mut moves = Vec::new();
            self.rules.moves(pos, &mut moves);
            for (mv, child) in moves {
                if !self.solve(&child)?.win() {
                    winning.push(mv);
                }
            }
        }
        winning.sort();
        winning.dedup();
        Ok(Analysis {
            win: root.win(),
            winning,
            remoteness: root.outcome().remoteness,
        })
    }
}
