//! Games declared by a script: the escape hatch of a declaration's `[game]` table
//! (`script = """..."""`), for games no code or set describes.
//!
//! A component's state is a tuple of integers (it may hold history, such as the last
//! amount taken). The author writes, in Rhai (see [`script`] for the sandbox):
//!
//! - `moves(state)`: the moves of one component, each the list of components that
//!   replace it: `[]` (the component is gone), `[[a, b]]` (one component), or several
//!   (a cut into two pieces is `[[a], [b]]`); a component of one integer may be
//!   written as the integer;
//! - optionally `value(state)`: the closed form of the component's Grundy value;
//! - optionally `wins(state)`: the closed form of the component's outcome (whether
//!   the player to move wins it alone), for positions of one component;
//! - optionally `position(numbers)`: the components of a case, from the numbers of its
//!   `position` fields (without it, each number is the component `(n)`).
//!
//! **The oracle** ([`oracle`]) is plain minimax over the multiset of components, its
//! moves straight from `moves`. **The fast side** ([`ScriptRules`]) gives each
//! component its Grundy value, by memoised mex over `moves` (a table of at most
//! [`MAX_STATES`] states) or, when the author gave it, by `value`; a position's value
//! is the XOR. A `value` must come with `check_states`, a box of states on which it is
//! checked against the mex table when the declaration is read (tier 1 of the closed
//! form); `verify --problem` then checks whole answers against the oracle. Misère play
//! has no such theory: both sides search, for positions within [`MISERE_BUDGET`].

pub mod lang;
pub mod memory;
pub mod oracle;
pub mod script;

use crate::games::declared::{self, Declare, ParamKind, ParamSpec, ParamValue, Reach};
use crate::games::{analyze_sum, mex};
use oracle::{Components, ScriptMove, ScriptOracle, Table};
use rand_chacha::ChaCha8Rng;
use script::{show, with_stack, Script, State};
use sgcheck_oracles::{Analysis, SearchError, Solver};
use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

/// The most component states the mex table (and the cache of moves) holds.
pub const MAX_STATES: usize = 1 << 20;
/// The most states `check_states` may hold.
pub const MAX_CHECK_STATES: u64 = 1 << 16;
/// The most script calls one losing case of the generators may cost.
pub const MAKE_LOSING_CALLS: u32 = 4096;
/// The most CPU time (of the calling thread) one query of the fast side may spend
/// building the mex table for it: the same answer or refusal whatever the machine's
/// load. Wall time is a backstop at four times as much.
pub const QUERY_TIME: Duration = Duration::from_secs(20);
/// The most positions a misère search may visit.
pub const MISERE_BUDGET: usize = 1 << 20;
/// The most components the cache of moves holds in all (past it, moves are asked of
/// the script again), and the most one query may hold at once (the moves of the states
/// on its path, or an oracle's table): with their states, about 100 MB.
pub const MAX_HELD: usize = 1 << 22;
/// The most time reading `check_states` may take.
pub const CHECK_TIME: Duration = Duration::from_secs(30);

/// The components a list of moves holds.
fn held(m: &[Vec<State>]) -> usize {
    m.iter().map(|parts| parts.len().max(1)).sum()
}

type Moves = Arc<Vec<Vec<State>>>;

/// Most failed calls [`ScriptRules`] keeps.
const MAX_FAILED: usize = 4096;

/// A function of the script, as the key of a failed call.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
enum Call {
    Moves,
    Value,
    Wins,
    Position,
}

/// A failed call: the function and its argument.
type FailedCall = (Call, Box<[i64]>);

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// The fast side of a scripted game: the compiled script, its play, the memo of
/// Grundy values and the cache of moves.
pub struct ScriptRules {
    script: Script,
    misere: bool,
    moves: Mutex<(HashMap<State, Moves>, usize)>,
    grundy: Mutex<HashMap<State, u64>>,
    /// The calls that failed (threw, ran past a limit, returned a wrong type), by
    /// function and argument, with why: a failing call is made once, so a state that
    /// takes a call's whole time to fail costs that time once, and every later answer
    /// that needs it fails the same way. A call cut by its task's deadline is not kept.
    failed: Mutex<HashMap<FailedCall, String>>,
    checked: u64,
    /// Rules in the move language: the dense table of the smallest box holding every
    /// state asked about so far (see [`lang::Dense`]), and why none can be built
    /// when a build met a move it cannot handle (then the general table serves).
    dense: Mutex<Option<Arc<lang::Dense>>>,
    not_dense: std::sync::OnceLock<String>,
    /// The `check_states` box (lowest and highest state), when given.
    check_box: Option<(State, State)>,
}

impl std::fmt::Debug for ScriptRules {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "ScriptRules({})", self.source())
    }
}

impl ScriptRules {
    /// Compiles `text`; `misere` for misère play; `check` a box of states (lowest and
    /// highest, inclusive) computed now: the mex table on it and, when the script has
    /// `value`, the closed form checked on each state.
    pub fn new(text: &str, misere: bool, check: Option<(&[i64], &[i64])>) -> Result<Self, String> {
        let script = match lang::MoveRules::parse_text(text) {
            Some(rules) => Script::of_moves(rules?),
            None => Script::compile(text)?,
        };
        if misere && (script.has_value || script.has_wins) {
            return Err(
                "value(state) and wins(state) are checked against the normal-play mex \
                 table; misère play has none (leave them out)"
                    .into(),
            );
        }
        if (script.has_value || script.has_wins) && check.is_none() {
            return Err(format!(
                "a closed form {}(state) is checked against the mex table: \
                 give check_states = [[lowest state], [highest state]]",
                if script.has_value { "value" } else { "wins" }
            ));
        }
        let mut r = ScriptRules {
            script,
            misere,
            moves: Mutex::new((HashMap::new(), 0)),
            grundy: Mutex::new(HashMap::new()),
            failed: Mutex::new(HashMap::new()),
            checked: 0,
            dense: Mutex::new(None),
            not_dense: std::sync::OnceLock::new(),
            check_box: None,
        };
        if let Some((lo, hi)) = check {
            r.checked = r.check_box(lo, hi)?;
            r.check_box = Some((lo.into(), hi.into()));
        }
        Ok(r)
    }

    /// Every state of the box: the mex value, and `value` against it.
    fn check_box(&self, lo: &[i64], hi: &[i64]) -> Result<u64, String> {
        if lo.is_empty() || lo.len() != hi.len() || lo.len() > script::MAX_STATE_LEN {
            return Err(format!(
                "check_states: the lowest and highest states have the same 1 to {} integers",
                script::MAX_STATE_LEN
            ));
        }
        let mut count: u64 = 1;
        for (a, b) in lo.iter().zip(hi) {
            let w = b
                .checked_sub(*a)
                .filter(|&w| w >= 0)
                .ok_or_else(|| format!("check_states: {} is not below {}", show(lo), show(hi)))?;
            count = count.saturating_mul(w as u64 + 1);
        }
        if count > MAX_CHECK_STATES {
            return Err(format!(
                "check_states holds {count} states; at most {MAX_CHECK_STATES}"
            ));
        }
        let mut s: Vec<i64> = lo.to_vec();
        let deadline = Instant::now() + CHECK_TIME;
        loop {
            if Instant::now() >= deadline {
                return Err(format!(
                    "check_states: the box took more than {} s (stopped at {})",
                    CHECK_TIME.as_secs(),
                    show(&s)
                ));
            }
            if !self.misere {
                let g = self.mex_grundy(&s)?;
                if self.script.has_value {
                    let v = self.value(&s)?;
                    if v != g {
                        return Err(format!(
                            "value{} = {v}, but the mex of its moves is {g}",
                            show(&s)
                        ));
                    }
                }
                if self.script.has_wins {
                    let w = self.wins(&s)?;
                    if w != (g != 0) {
                        return Err(format!(
                            "wins{} = {w}, but the mex of its moves is {g}",
                            show(&s)
                        ));
                    }
                }
            } else {
                self.moves_of(&s)?;
            }
            // The next state of the box, the last integer fastest.
            let mut k = s.len();
            loop {
                if k == 0 {
                    return Ok(count);
                }
                k -= 1;
                if s[k] < hi[k] {
                    s[k] += 1;
                    break;
                }
                s[k] = lo[k];
            }
        }
    }

    /// Where the fast side's values come from, in words.
    pub fn source(&self) -> String {
        if self.misere {
            format!(
                "misère play: both sides search the game tree (at most {MISERE_BUDGET} positions)"
            )
        } else if self.script.has_value || self.script.has_wins {
            let forms = match (self.script.has_value, self.script.has_wins) {
                (true, true) => "the closed forms value(state) and wins(state) (a position of one component)",
                (true, false) => "the closed form value(state)",
                _ => "the closed form wins(state) for a position of one component, the mex table otherwise",
            };
            format!(
                "{forms}, checked against the mex table on {} states",
                self.checked
            )
        } else {
            format!("the mex table of the moves (at most {MAX_STATES} component states)")
        }
    }

    /// Whether the script gives a closed form `value(state)`.
    pub fn has_value(&self) -> bool {
        self.script.has_value
    }

    /// Whether the script gives a closed form `wins(state)` of a component's outcome.
    pub fn has_wins(&self) -> bool {
        self.script.has_wins
    }

    /// Whether the script makes a case's components itself (`fn position`).
    pub fn has_position(&self) -> bool {
        self.script.has_position
    }

    /// Whether the play is misère.
    pub fn misere(&self) -> bool {
        self.misere
    }

    /// The script's moves of `s` (cached).
    pub fn moves_of(&self, s: &[i64]) -> Result<Moves, String> {
        if let Some(m) = lock(&self.moves).0.get(s) {
            return Ok(Arc::clone(m));
        }
        let m = Arc::new(self.remembered(Call::Moves, s, || self.script.moves(s))?);
        let size = held(&m);
        let mut cache = lock(&self.moves);
        if cache.0.len() < MAX_STATES && cache.1 + size <= MAX_HELD {
            cache.0.insert(s.into(), Arc::clone(&m));
            cache.1 += size;
        }
        Ok(m)
    }

    /// The Grundy value of `s` by mex over its moves, memoised (iterative, so a long
    /// chain of states needs no deep stack). A cycle of states is an error naming one.
    /// A deadline of [`sgcheck_oracles::with_deadline`] in force cuts it too (the
    /// generators draw cases under one, never the answers).
    pub fn mex_grundy(&self, s: &[i64]) -> Result<u64, String> {
        let mut deadline = Instant::now() + QUERY_TIME * 4;
        if let Some(d) = sgcheck_oracles::scoped_deadline() {
            deadline = deadline.min(d);
        }
        let cpu_deadline = script::thread_cpu() + QUERY_TIME;
        // What is computed by the deadline stays in the table.
        let mut memo = lock(&self.grundy);
        if let Some(&g) = memo.get(s) {
            return Ok(g);
        }
        if Instant::now() >= deadline {
            return Err(format!(
                "the mex table for {} ran past the caller's deadline",
                show(s)
            ));
        }
        let mut path: HashSet<State> = HashSet::new();
        let first = self.moves_of(s)?;
        let mut holding = held(&first);
        let mut stack: Vec<(State, Moves, usize)> = vec![(s.into(), first, 0)];
        path.insert(s.into());
        while let Some(top) = stack.last_mut() {
            let mut missing = None;
            while top.2 < top.1.len() {
                match top.1[top.2].iter().find(|p| !memo.contains_key(&***p)) {
                    Some(p) => {
                        missing = Some(p.clone());
                        break;
                    }
                    None => top.2 += 1,
                }
            }
            if let Some(p) = missing {
                if path.contains(&p) {
                    return Err(format!(
                        "moves{} lead back to {} (a game must end: no state may be reached from itself)",
                        show(&top.0),
                        show(&p)
                    ));
                }
                if memo.len() + stack.len() >= MAX_STATES {
                    return Err(format!(
                        "the mex table holds at most {MAX_STATES} component states and {} needs more \
                         (give value(state), a closed form)",
                        show(s)
                    ));
                }
                if script::thread_cpu() >= cpu_deadline {
                    return Err(format!(
                        "the mex table for {} took more than {} s of CPU time",
                        show(s),
                        QUERY_TIME.as_secs()
                    ));
                }
                if Instant::now() >= deadline {
                    return Err(format!(
                        "the mex table for {} ran past the caller's deadline (or {} s of \
                         wall time)",
                        show(s),
                        (QUERY_TIME * 4).as_secs()
                    ));
                }
                let m = self.moves_of(&p)?;
                holding += held(&m);
                if holding > MAX_HELD {
                    return Err(format!(
                        "the mex table for {} holds more than {MAX_HELD} components of moves \
                         at once (give value(state), a closed form)",
                        show(s)
                    ));
                }
                path.insert(p.clone());
                stack.push((p, m, 0));
                continue;
            }
            let (state, opts, _) = stack.pop().expect("the stack is not empty");
            holding -= held(&opts);
            let g = mex(opts
                .iter()
                .map(|parts| parts.iter().fold(0, |a, p| a ^ memo[&**p])));
            path.remove(&state);
            memo.insert(state, g);
        }
        Ok(memo[s])
    }

    /// The fast side's Grundy value of `s`: the author's `value` when there is one,
    /// the mex table otherwise.
    pub fn grundy(&self, s: &[i64]) -> Result<u64, String> {
        if self.script.has_value {
            self.value(s)
        } else if let Some(v) = self.dense_value(s) {
            Ok(v)
        } else {
            self.mex_grundy(s)
        }
    }

    /// The value of `s` from the dense table of rules in the move language (normal
    /// play), grown to hold `s` when it does not: `None` when the rules have no
    /// dense table or this box cannot have one.
    fn dense_value(&self, s: &[i64]) -> Option<u64> {
        let lang = self.script.lang()?;
        if self.misere || self.not_dense.get().is_some() || s.iter().any(|&x| x < 0) {
            return None;
        }
        let mut held = lock(&self.dense);
        if let Some(v) = held.as_ref().and_then(|d| d.value(s)) {
            return Some(v);
        }
        let mut deadline = Instant::now() + QUERY_TIME * 4;
        if let Some(d) = sgcheck_oracles::scoped_deadline() {
            deadline = deadline.min(d);
        }
        // Only the first integer past the box: the table grows in place.
        if let Some(d) = held.as_mut().and_then(Arc::get_mut) {
            if d.top().len() == s.len() && s[1..].iter().zip(&d.top()[1..]).all(|(a, b)| a <= b) {
                match lang.extend_dense(d, s[0], Some(deadline)) {
                    Ok(()) => return d.value(s),
                    Err(lang::NotDense(why)) if why.starts_with("moves") => {
                        let _ = self.not_dense.set(why);
                        return None;
                    }
                    Err(_) => {}
                }
            }
        }
        // The box grows to hold `s`: the first integer exactly (the table is in its
        // order, so the box's size follows it), the others to at least twice their
        // bound, so that a run of growing cases rebuilds the table a few times only.
        let old = held.as_ref().map(|d| d.top().to_vec());
        let exact: Vec<i64> = match &old {
            Some(o) => o.iter().zip(s).map(|(a, b)| *a.max(b)).collect(),
            None => s.to_vec(),
        };
        let mut wide = exact.clone();
        if let Some(o) = &old {
            for i in 1..wide.len() {
                if s[i] > o[i] {
                    wide[i] = s[i].max(o[i].saturating_mul(2));
                }
            }
        }
        // The widest box that can be built, then the exact one, then `s`'s own: a
        // case's answer never depends on the cases before it.
        let mut tried = Vec::new();
        for hi in [wide, exact, s.to_vec()] {
            if tried.contains(&hi) {
                continue;
            }
            match lang.dense(&hi, Some(deadline)) {
                Ok(d) => {
                    let v = d.value(s);
                    *held = Some(Arc::new(d));
                    return v;
                }
                Err(lang::NotDense(why)) if why.starts_with("moves") => {
                    // A move the dense table cannot hold: the rules' own, not the box's.
                    let _ = self.not_dense.set(why);
                    return None;
                }
                Err(_) => tried.push(hi),
            }
        }
        None
    }

    /// Whether `s` is in the `check_states` box (whose values were checked against
    /// the mex table when the declaration was read).
    fn in_box(&self, s: &[i64]) -> bool {
        self.check_box.as_ref().is_some_and(|(lo, hi)| {
            lo.len() == s.len()
                && s.iter()
                    .zip(lo.iter().zip(hi.iter()))
                    .all(|(x, (a, b))| a <= x && x <= b)
        })
    }

    /// Checks the closed form `value` on each component of `numbers` outside the
    /// `check_states` box against the mex table, by `until` at the latest (see
    /// [`declared::Declare::confirm_claims`]). Without `value`, the answers are the mex
    /// table's own: nothing to confirm.
    pub fn confirm_claims(&self, numbers: &[u64], until: Instant) -> Result<(), declared::Claim> {
        use declared::Claim;
        if self.misere || !(self.script.has_value || self.script.has_wins) {
            return Ok(());
        }
        let comps = self.components(numbers).map_err(Claim::Unchecked)?;
        if let [s] = &comps[..] {
            if self.script.has_wins && !self.in_box(s) {
                let w = self.wins(s).map_err(Claim::Unchecked)?;
                return match sgcheck_oracles::with_deadline(until, || self.mex_grundy(s)) {
                    Ok(g) if w == (g != 0) => Ok(()),
                    Ok(g) => Err(Claim::Wrong(format!(
                        "wins{} = {w} (the declared closed form), but the mex of its moves is {g}",
                        show(s)
                    ))),
                    Err(e) => Err(Claim::Unchecked(format!(
                        "wins{} = {w} (the declared closed form) was not checked against the \
                         mex table: {e}",
                        show(s)
                    ))),
                };
            }
        }
        if !self.script.has_value {
            return Ok(());
        }
        for s in comps {
            if self.in_box(&s) {
                continue;
            }
            let v = self.value(&s).map_err(Claim::Unchecked)?;
            match sgcheck_oracles::with_deadline(until, || self.mex_grundy(&s)) {
                Ok(g) if g == v => {}
                Ok(g) => {
                    return Err(Claim::Wrong(format!(
                        "value{} = {v} (the declared closed form), but the mex of its moves is {g}",
                        show(&s)
                    )))
                }
                Err(e) => {
                    return Err(Claim::Unchecked(format!(
                        "value{} = {v} (the declared closed form) was not checked against the \
                         mex table: {e}",
                        show(&s)
                    )))
                }
            }
        }
        Ok(())
    }

    /// The components of a case's position numbers.
    pub fn components(&self, numbers: &[u64]) -> Result<Vec<State>, String> {
        if !self.script.has_position {
            return self.script.components(numbers);
        }
        // The key of a failure: the numbers as the script sees them (a number past
        // i64 fails before any call, the same way each time).
        let key: Box<[i64]> = numbers.iter().map(|&n| n as i64).collect();
        self.remembered(Call::Position, &key, || self.script.components(numbers))
    }

    /// The closed form `value(s)` of the script.
    fn value(&self, s: &[i64]) -> Result<u64, String> {
        self.remembered(Call::Value, s, || self.script.value(s))
    }

    /// The closed form `wins(s)` of the script.
    fn wins(&self, s: &[i64]) -> Result<bool, String> {
        self.remembered(Call::Wins, s, || self.script.wins(s))
    }

    /// A position of one component, when the script's `wins` answers it: the component.
    fn by_wins(&self, comps: &[State]) -> Option<State> {
        match comps {
            [s] if self.script.has_wins && !self.misere => Some(s.clone()),
            _ => None,
        }
    }

    /// Whether the sum `parts` (what a move leaves) is lost by the player to move:
    /// nothing left, one component `wins` says is lost, or several whose values XOR
    /// to 0.
    fn parts_lose(&self, parts: &[State]) -> Result<bool, String> {
        match parts {
            [] => Ok(true),
            [p] if self.script.has_wins => Ok(!self.wins(p)?),
            _ => {
                let mut x = 0;
                for p in parts {
                    x ^= self.grundy(p)?;
                }
                Ok(x == 0)
            }
        }
    }

    /// The verdict and winning moves of a position of the one component `s` by the
    /// closed form `wins`: a winning move leaves a lost sum. `wins(s)` must agree with
    /// the moves found: a winning state with no such move (or a losing one with one)
    /// is the closed form's error, never an answer.
    fn analyze_by_wins(&self, s: &[i64]) -> Result<Analysis<ScriptMove>, String> {
        let win = self.wins(s)?;
        let mut winning = Vec::new();
        for (j, parts) in self.moves_of(s)?.iter().enumerate() {
            if self.parts_lose(parts)? {
                winning.push(ScriptMove {
                    component: 0,
                    option: j as u32,
                });
            }
        }
        if win == winning.is_empty() {
            return Err(format!(
                "wins{} = {win}, but {} of its moves leaves a lost position",
                show(s),
                if win { "none" } else { "one" }
            ));
        }
        Ok(Analysis {
            win,
            winning,
            remoteness: None,
        })
    }

    /// `call()`, the call of `f` on `arg`, unless it failed before: then the same
    /// failure. A failure is kept unless the call was cut by its task's deadline.
    fn remembered<T>(
        &self,
        f: Call,
        arg: &[i64],
        call: impl FnOnce() -> Result<T, String>,
    ) -> Result<T, String> {
        let key = (f, Box::<[i64]>::from(arg));
        if let Some(why) = lock(&self.failed).get(&key) {
            return Err(why.clone());
        }
        let r = call();
        if let Err(why) = &r {
            if !script::was_cut(why) {
                let mut failed = lock(&self.failed);
                if failed.len() < MAX_FAILED {
                    failed.insert(key, why.clone());
                }
            }
        }
        r
    }

    fn values(&self, numbers: &[u64]) -> Result<(Vec<State>, Vec<u64>), String> {
        let comps = self.components(numbers)?;
        let values = comps
            .iter()
            .map(|c| self.grundy(c))
            .collect::<Result<_, _>>()?;
        Ok((comps, values))
    }

    /// The oracle's rules and starting position for `numbers` (at most `limit`
    /// reachable component states).
    pub fn oracle(
        &self,
        numbers: &[u64],
        limit: usize,
    ) -> Result<(ScriptOracle, Components), String> {
        let comps = self.components(numbers)?;
        let (table, roots) = Table::build(&comps, limit.min(MAX_STATES), &|s| self.moves_of(s))?;
        Ok((
            ScriptOracle {
                table: Arc::new(table),
                misere: self.misere,
            },
            Components(roots),
        ))
    }

    fn search(&self, numbers: &[u64]) -> Result<Analysis<ScriptMove>, String> {
        let why = |e: String| {
            format!("misère play has no Sprague-Grundy solver: positions are answered by exhaustive search, and this one could not be: {e}")
        };
        let (rules, pos) = self.oracle(numbers, MISERE_BUDGET).map_err(why)?;
        Solver::new(rules)
            .with_budget(MISERE_BUDGET)
            .analyze(&pos)
            .map_err(|e| why(e.to_string()))
    }

    /// Whether the fast side answers `numbers`, or why not (the message names the
    /// script, `[game] script`).
    ///
    /// The mex table is built here, under the deadline of
    /// [`sgcheck_oracles::with_deadline`] when one is in force (a generator that must
    /// keep to a time limit drops a case the table cannot reach in time); the answers
    /// that follow read it, and are never cut.
    pub fn check(&self, numbers: &[u64]) -> Result<(), String> {
        let r = if self.misere {
            self.search(numbers).map(|_| ())
        } else {
            match self.components(numbers) {
                Ok(comps) => match self.by_wins(&comps) {
                    Some(s) => self.wins(&s).map(|_| ()),
                    None => self.values(numbers).map(|_| ()),
                },
                Err(e) => Err(e),
            }
        };
        r.map_err(|e| format!("[game] script: {e}"))
    }

    /// The verdict and every winning move (`i:j`: option j of component i).
    pub fn analyze(&self, numbers: &[u64]) -> Result<Analysis<ScriptMove>, String> {
        if self.misere {
            return self.search(numbers);
        }
        let comps = self.components(numbers)?;
        if let Some(s) = self.by_wins(&comps) {
            return self.analyze_by_wins(&s);
        }
        let (comps, values) = self.values(numbers)?;
        let mut err = None;
        let a = analyze_sum(&values, |i, need, out| {
            let opts = match self.moves_of(&comps[i]) {
                Ok(o) => o,
                Err(e) => {
                    err = Some(e);
                    return;
                }
            };
            for (j, parts) in opts.iter().enumerate() {
                let mut x = 0;
                for p in parts {
                    match self.grundy(p) {
                        Ok(g) => x ^= g,
                        Err(e) => {
                            err = Some(e);
                            return;
                        }
                    }
                }
                if x == need {
                    out.push(ScriptMove {
                        component: i as u32,
                        option: j as u32,
                    });
                }
            }
        });
        match err {
            Some(e) => Err(e),
            None => Ok(a),
        }
    }

    /// The verdict of the fast side.
    pub fn first_wins(&self, numbers: &[u64]) -> Result<bool, String> {
        if self.misere {
            return Ok(self.search(numbers)?.win);
        }
        if let Some(s) = self.by_wins(&self.components(numbers)?) {
            return self.wins(&s);
        }
        Ok(self.values(numbers)?.1.iter().fold(0, |a, v| a ^ v) != 0)
    }
}

/// The most states tier 1 of `verify --problem` compares a closed form on.
pub const TIER1_STATES: u64 = 1 << 18;

/// Calls `f` on every state of the box `ranges` (inclusive; none when a range is
/// empty), the last integer fastest, until `f` answers false; false when it did.
pub(crate) fn each_state(ranges: &[(i64, i64)], f: &mut impl FnMut(&[i64]) -> bool) -> bool {
    if ranges.iter().any(|(a, b)| a > b) {
        return true;
    }
    let mut s: Vec<i64> = ranges.iter().map(|r| r.0).collect();
    loop {
        if !f(&s) {
            return false;
        }
        let mut k = s.len();
        loop {
            if k == 0 {
                return true;
            }
            k -= 1;
            if s[k] < ranges[k].1 {
                s[k] += 1;
                break;
            }
            s[k] = ranges[k].0;
        }
    }
}

impl ScriptRules {
    /// Tier 1 of `verify --problem`: the closed form `value(state)` against the mex of
    /// the moves, on the `check_states` box and then past it, layer by layer (each
    /// layer a box one step wider in each integer, scaled to the box's shape), on
    /// every state the mex table reaches: until [`TIER1_STATES`] states, the time
    /// budget, or a whole layer on which the table gives no value (past its size or
    /// time); the report says how far it got and why it stopped. A state where the
    /// script gives no value or no mex (an error) is left out and counted: the fast
    /// side refuses positions with it, it never answers them wrongly. Without
    /// `value`, or in misère play, there is nothing to compare: `Err` says so.
    pub fn tier1(&self) -> Result<crate::verify::Tier1Report, String> {
        self.tier1_up_to(TIER1_STATES)
    }

    /// [`ScriptRules::tier1`] on at most `most` states.
    fn tier1_up_to(&self, most: u64) -> Result<crate::verify::Tier1Report, String> {
        if self.misere {
            return Err("misère play has no Grundy values to compare".into());
        }
        if let Some(lang) = self.script.lang() {
            return self.tier1_dense(lang, most);
        }
        let Some((lo, hi)) = self
            .check_box
            .as_ref()
            .filter(|_| self.script.has_value || self.script.has_wins)
        else {
            return Err(
                "the script has no closed form value(state) or wins(state): the fast side's \
                 values are the mex table of its moves"
                    .into(),
            );
        };
        let width: Vec<i64> = lo.iter().zip(hi.iter()).map(|(a, b)| b - a + 1).collect();
        let layers = width.iter().copied().max().unwrap_or(1).max(1);
        let upper = |k: i64| -> Vec<i64> {
            hi.iter()
                .zip(&width)
                .map(|(h, w)| {
                    h.saturating_add(k.saturating_mul(*w).saturating_add(layers - 1) / layers)
                })
                .collect()
        };
        let mut report = crate::verify::Tier1Report::default();
        let (mut states, mut skipped, mut first_error) = (0u64, 0u64, None);
        let mut stop = None;
        let mut visit = |s: &[i64],
                         report: &mut crate::verify::Tier1Report,
                         stop: &mut Option<String>|
         -> bool {
            if states >= most {
                *stop = Some(format!("{most} states, tier 1's most"));
                return false;
            }
            if report.time_is_up(Duration::from_millis(100)) {
                *stop = Some("the time budget".into());
                return false;
            }
            // Each state runs the script: the watch hears of progress before each.
            report.progress();
            let mex = match report.deadline() {
                Some(d) => sgcheck_oracles::with_deadline(d, || self.mex_grundy(s)),
                None => self.mex_grundy(s),
            };
            if mex.is_err() && report.time_is_up(Duration::ZERO) {
                // Cut by the time budget: not the state's failure.
                *stop = Some("the time budget".into());
                return false;
            }
            states += 1;
            // The closed forms the script gives, each against the mex: `value` as the
            // value, `wins` as whether it is not 0.
            let value = self.script.has_value.then(|| self.value(s));
            let wins = self.script.has_wins.then(|| self.wins(s));
            let failed = [
                value.as_ref().and_then(|r| r.as_ref().err()),
                wins.as_ref().and_then(|r| r.as_ref().err()),
                mex.as_ref().err(),
            ]
            .into_iter()
            .flatten()
            .next()
            .cloned();
            match (failed, mex) {
                (None, Ok(g)) => {
                    if let Some(Ok(v)) = value {
                        report.compare(format_args!("value{}", show(s)), v, g);
                    }
                    if let Some(Ok(w)) = wins {
                        report.compare(format_args!("wins{}", show(s)), w, g != 0);
                    }
                }
                // The script failed: a finding, with the state.
                (Some(e), _) if script::is_call_failure(&e) => report.fail(e),
                // Past what the table answers (its size, its time): left out.
                (Some(e), _) | (None, Err(e)) => {
                    skipped += 1;
                    first_error.get_or_insert(e);
                }
            }
            true
        };
        // The box itself (checked when the declaration was read), then each layer: the
        // states of the next box not in the previous one, as disjoint boxes.
        let box_ranges: Vec<(i64, i64)> = lo.iter().copied().zip(hi.iter().copied()).collect();
        let mut reached = hi.to_vec();
        let mut going = each_state(&box_ranges, &mut |s| visit(s, &mut report, &mut stop));
        let mut k = 0i64;
        while going {
            k += 1;
            let (old, new) = (upper(k - 1), upper(k));
            if new == old {
                stop = Some("the largest integers".into());
                break;
            }
            let before = (report.checked, report.failed);
            for i in 0..lo.len() {
                let ranges: Vec<(i64, i64)> = (0..lo.len())
                    .map(|j| match j.cmp(&i) {
                        std::cmp::Ordering::Less => (lo[j], old[j]),
                        std::cmp::Ordering::Equal => (old[j].saturating_add(1), new[j]),
                        std::cmp::Ordering::Greater => (lo[j], new[j]),
                    })
                    .collect();
                going = going && each_state(&ranges, &mut |s| visit(s, &mut report, &mut stop));
            }
            if going {
                reached = new;
                if (report.checked, report.failed) == before {
                    stop = Some("a layer on which the mex table answered no state".into());
                    break;
                }
            }
        }
        let box_states = self.checked;
        let forms = match (self.script.has_value, self.script.has_wins) {
            (true, true) => "value and wins",
            (true, false) => "value",
            _ => "wins",
        };
        report.note = Some(format!(
            "{forms} against the mex on the box {}..={} ({box_states} states) and past it to {} \
             ({} states in all; stopped by {})",
            show(lo),
            show(hi),
            show(&reached),
            states,
            stop.as_deref().unwrap_or("nothing")
        ));
        if let Some(e) = first_error {
            report.skip(
                skipped,
                format!("{skipped} states gave no value or no mex (the first: {e})"),
            );
        }
        Ok(report)
    }
}

/// The most states tier 1 of rules in the move language compares (a box of about
/// this many).
pub const TIER1_DENSE_STATES: usize = 4096;

impl ScriptRules {
    /// Tier 1 of rules in the move language: the dense table (its strided loops, the
    /// fast side's values) against the plain mex table of the moves (each move listed
    /// one by one, components looked up by hash), state by state on a box of about
    /// [`TIER1_DENSE_STATES`] states from 0, until the time budget.
    fn tier1_dense(
        &self,
        lang: &lang::MoveRules,
        most: u64,
    ) -> Result<crate::verify::Tier1Report, String> {
        let k = lang.arity();
        let mut side = 1i64;
        while (side + 1)
            .checked_pow(k as u32)
            .is_some_and(|n| n <= TIER1_DENSE_STATES as i64)
        {
            side += 1;
        }
        let hi = vec![side - 1; k];
        let mut report = crate::verify::Tier1Report::default();
        let dense = match lang.dense(&hi, report.deadline()) {
            Ok(d) => d,
            Err(lang::NotDense(why)) => {
                return Err(format!(
                    "the dense table does not hold the box up to {} ({why}): the fast side's \
                     values are the plain mex table",
                    show(&hi)
                ))
            }
        };
        let (mut states, mut skipped, mut first_error, mut stop) = (0u64, 0u64, None, None);
        let ranges: Vec<(i64, i64)> = hi.iter().map(|&h| (0, h)).collect();
        each_state(&ranges, &mut |s| {
            if states >= most {
                stop = Some("tier 1's most states");
                return false;
            }
            if report.time_is_up(Duration::from_millis(100)) {
                stop = Some("the time budget");
                return false;
            }
            report.progress();
            let mex = match report.deadline() {
                Some(d) => sgcheck_oracles::with_deadline(d, || self.mex_grundy(s)),
                None => self.mex_grundy(s),
            };
            states += 1;
            match (dense.value(s), mex) {
                (Some(v), Ok(g)) => report.compare(format_args!("dense{}", show(s)), v, g),
                (_, Err(e)) => {
                    skipped += 1;
                    first_error.get_or_insert(e);
                }
                // The box holds every state it walks: not met.
                (None, Ok(_)) => skipped += 1,
            }
            true
        });
        report.note = Some(format!(
            "the dense table against the plain mex of the moves on the box {}..={} ({} \
             states{})",
            show(&vec![0; k]),
            show(&hi),
            states,
            stop.map(|s| format!("; stopped by {s}"))
                .unwrap_or_default()
        ));
        if let Some(e) = first_error {
            report.skip(
                skipped,
                format!("{skipped} states gave no mex (the first: {e})"),
            );
        }
        Ok(report)
    }
}

/// Compiled scripts by their parameters, so that rules built per case reuse one
/// script and its tables.
static BUILT: Mutex<Vec<(String, Arc<ScriptRules>)>> = Mutex::new(Vec::new());

fn build(params: &[ParamValue<'_>]) -> Result<Arc<ScriptRules>, String> {
    let text = match params.first() {
        Some(ParamValue::Name(t)) => *t,
        _ => return Err("parameter script must be the script's text".into()),
    };
    let misere = match params.get(1) {
        Some(ParamValue::Name("misere")) => true,
        Some(ParamValue::Name("normal")) | None => false,
        _ => return Err("parameter play is `normal` or `misere`".into()),
    };
    let list = |i: usize| match params.get(i) {
        Some(ParamValue::List(v)) => v
            .iter()
            .map(|&x| i64::try_from(x).map_err(|_| format!("{x} is past i64")))
            .collect::<Result<Vec<i64>, String>>(),
        _ => Ok(Vec::new()),
    };
    let (lo, hi) = (list(2)?, list(3)?);
    let key = format!("{misere} {lo:?} {hi:?} {text}");
    if let Some((_, r)) = lock(&BUILT).iter().find(|(k, _)| *k == key) {
        return Ok(Arc::clone(r));
    }
    let check = (!lo.is_empty() || !hi.is_empty()).then_some((&lo[..], &hi[..]));
    let r = Arc::new(ScriptRules::new(text, misere, check)?);
    let mut built = lock(&BUILT);
    if built.len() >= 16 {
        built.remove(0);
    }
    built.push((key, Arc::clone(&r)));
    Ok(r)
}

/// `f()`, on a stack deep enough for script calls when the rules are a script (rules
/// in the move language call none, and need no more than the thread has).
fn stacked<R>(fast: &ScriptRules, f: impl FnOnce() -> R) -> R {
    if fast.script.lang().is_some() {
        f()
    } else {
        with_stack(f)
    }
}

/// How declarations use scripted games (`[game] script = ...` in a format-2
/// declaration).
pub struct ScriptedGame;

impl Declare for ScriptedGame {
    type Oracle = ScriptOracle;
    type Fast = Arc<ScriptRules>;
    const ID: &'static str = "scripted";
    const PARAMETERS: &'static [ParamSpec] = &[
        ParamSpec {
            name: "script",
            kind: ParamKind::Number,
            about: "the script's text (moves, value, position)",
        },
        ParamSpec {
            name: "play",
            kind: ParamKind::Number,
            about: "`normal` or `misere`",
        },
        ParamSpec {
            name: "check_from",
            kind: ParamKind::List,
            about: "the lowest state of the box checked when the rules are read ([] for none)",
        },
        ParamSpec {
            name: "check_to",
            kind: ParamKind::List,
            about: "the highest state of that box",
        },
    ];
    const POSITION: &'static str = "numbers that make the components";
    /// `component` is the place of the component in the position (as `position`
    /// lists them), `option` the place of the move in what `moves` returned.
    const MOVE_FIELDS: &'static [&'static str] = &["component", "option"];
    /// Numbers past i64 are refused case by case (the script's integers are i64).
    const REACH: Reach = Reach::ANY;

    fn build(params: &[ParamValue<'_>]) -> Result<Arc<ScriptRules>, String> {
        with_stack(|| build(params))
    }
    fn check(fast: &Arc<ScriptRules>, position: &[u64]) -> Result<(), String> {
        stacked(fast, || fast.check(position))
    }
    /// An error of the script (a throw, a limit, a value of the wrong type) is the
    /// declaration's, never a verdict: the position is unanswerable.
    fn first_wins(fast: &Arc<ScriptRules>, position: &[u64]) -> Result<bool, String> {
        stacked(fast, || fast.first_wins(position)).map_err(|e| format!("[game] script: {e}"))
    }
    fn analyze(fast: &Arc<ScriptRules>, position: &[u64]) -> Result<Analysis<ScriptMove>, String> {
        stacked(fast, || fast.analyze(position)).map_err(|e| format!("[game] script: {e}"))
    }
    fn move_fields(m: &ScriptMove, _position: &[u64]) -> [u64; 4] {
        [u64::from(m.component), u64::from(m.option), 0, 0]
    }
    fn oracle(
        fast: &Arc<ScriptRules>,
        position: &[u64],
        budget: usize,
    ) -> Result<(ScriptOracle, Components), SearchError> {
        stacked(fast, || fast.oracle(position, budget)).map_err(|_| SearchError::Budget { budget })
    }
    fn make_losing(
        fast: &Arc<ScriptRules>,
        p: &mut [u64],
        b: &[(u64, u64)],
        rng: &mut ChaCha8Rng,
    ) -> bool {
        if fast.misere || fast.script.has_position {
            return false;
        }
        // Each value is a script call: a losing case costs at most MAKE_LOSING_CALLS of
        // them (values that few sizes take, as Ruler's powers of 2, would otherwise
        // cost 64 scans of 4096 sizes), and past them no size is found.
        let calls = std::cell::Cell::new(0u32);
        let cut = sgcheck_oracles::scoped_deadline();
        let value = |n: u64| {
            calls.set(calls.get().saturating_add(1));
            if cut.is_some_and(|d| Instant::now() >= d) {
                // The generators' deadline has passed: stop here.
                calls.set(u32::MAX);
            }
            if calls.get() > MAKE_LOSING_CALLS {
                return u64::MAX;
            }
            let g = i64::try_from(n).ok().and_then(|n| fast.grundy(&[n]).ok());
            if g.is_none() {
                // Past the table's reach or its deadline: the next sizes would be too.
                calls.set(u32::MAX);
            }
            g.unwrap_or(u64::MAX)
        };
        stacked(fast, || {
            declared::losing_sum(p, b, rng, value, |need, lo, hi, rng| {
                if calls.get() > MAKE_LOSING_CALLS {
                    return None;
                }
                declared::scan_for_value(need, lo, hi, rng, value)
            }) && calls.get() <= MAKE_LOSING_CALLS
                && fast.check(p).is_ok()
        })
    }
    fn fast_is_oracle(fast: &Arc<ScriptRules>) -> Option<String> {
        declared::misere_by_search(fast.misere, "the script's moves")
    }
    fn tier1(fast: &Arc<ScriptRules>) -> Result<crate::verify::Tier1Report, String> {
        stacked(fast, || fast.tier1())
    }
    fn confirm_claims(
        fast: &Arc<ScriptRules>,
        position: &[u64],
        until: Instant,
    ) -> Result<(), declared::Claim> {
        stacked(fast, || fast.confirm_claims(position, until))
    }
    fn component_values(fast: &Arc<ScriptRules>, position: &[u64]) -> Option<Vec<u64>> {
        if fast.misere || fast.script.has_position {
            return None;
        }
        stacked(fast, || fast.values(position)).ok().map(|(_, v)| v)
    }
}

/// The most bytes of a file `--rules` names for a scripted game.
pub const MAX_RULES_FILE: u64 = 1 << 20;

/// A declaration's `check_states` box (lowest and highest state).
pub type CheckBox = (Vec<i64>, Vec<i64>);

/// What `--rules FILE` of a scripted game holds.
#[derive(Clone, Debug)]
pub struct RulesFile {
    /// The script.
    pub script: String,
    /// Whether the play is misère.
    pub misere: bool,
    /// The declaration's `check_states` box, when it has one.
    pub check: Option<CheckBox>,
    /// How many fields the declaration's `position` lists (1 for a bare script): the
    /// numbers `position` makes a case's components from.
    pub position_fields: usize,
}

/// The script and play of `path`: a declaration whose `[game]` table has a `script`
/// (with its `play`, its `check_states` box and its number of position fields), or a
/// file that is the script itself (normal play).
pub fn rules_of_file(path: &str) -> Result<RulesFile, String> {
    use std::io::Read;
    let f = std::fs::File::open(path).map_err(|e| format!("--rules {path}: {e}"))?;
    let mut text = String::new();
    f.take(MAX_RULES_FILE + 1)
        .read_to_string(&mut text)
        .map_err(|e| format!("--rules {path}: {e}"))?;
    if text.len() as u64 > MAX_RULES_FILE {
        return Err(format!("--rules {path}: more than {MAX_RULES_FILE} bytes"));
    }
    if let Ok(toml::Value::Table(t)) = text.parse::<toml::Value>() {
        let game = t.get("game").and_then(|g| g.as_table());
        let script = game.and_then(|g| g.get("script")).and_then(|s| s.as_str());
        let Some(script) = script else {
            return Err(format!("--rules {path}: a TOML file without [game] script"));
        };
        let misere = game
            .and_then(|g| g.get("play"))
            .and_then(|p| p.as_str())
            .is_some_and(|p| p == "misere" || p == "misère");
        let check: Option<Vec<Vec<i64>>> = game
            .and_then(|g| g.get("check_states"))
            .and_then(|c| c.clone().try_into().ok());
        let check = match check.as_deref() {
            Some([lo, hi]) => Some((lo.clone(), hi.clone())),
            _ => None,
        };
        let position_fields = t
            .get("position")
            .and_then(|p| p.as_array())
            .map_or(1, |a| a.len().max(1));
        return Ok(RulesFile {
            script: script.to_string(),
            misere,
            check,
            position_fields,
        });
    }
    Ok(RulesFile {
        script: text,
        misere: false,
        check: None,
        position_fields: 1,
    })
}

/// `sgcheck check scripted <numbers> --rules FILE`: the fast side and the oracle on one
/// position (the numbers become components as in a declaration).
pub fn check_text(
    rules: Option<&str>,
    position: &str,
    budget: usize,
) -> Result<crate::verify::CheckOutcome, String> {
    let path = rules
        .ok_or("scripted needs --rules FILE: a declaration with [game] script, or a script")?;
    let file = rules_of_file(path)?;
    let check = file.check.as_ref().map(|(lo, hi)| (&lo[..], &hi[..]));
    let r = ScriptRules::new(&file.script, file.misere, check)
        .map_err(|e| format!("--rules {path}: {e}"))?;
    let numbers = position
        .split(',')
        .map(|w| w.trim().parse::<u64>())
        .collect::<Result<Vec<u64>, _>>()
        .map_err(|_| format!("position {position:?}: numbers separated by commas"))?;
    let mut fast = r.analyze(&numbers)?;
    fast.winning.sort();
    let (rules, pos) = r.oracle(&numbers, budget)?;
    let oracle = Solver::new(rules)
        .with_budget(budget)
        .analyze(&pos)
        .map_err(|e| e.to_string())?;
    Ok(crate::verify::CheckOutcome::compare(&fast, &oracle))
}

#[cfg(test)]
mod tests {
    use super::*;

    const KAYLES: &str = r#"
        fn moves(s) {
            let n = s[0];
            let out = [];
            for k in 1..=2 {
                if k > n { break; }
                let r = n - k;
                for a in 0..=(r / 2) {
                    let m = [];
                    if a > 0 { m.push(a); }
                    if r - a > 0 { m.push(r - a); }
                    out.push(m);
                }
            }
            out
        }
    "#;

    #[test]
    fn kayles_by_script_is_a002186() {
        let r = ScriptRules::new(KAYLES, false, None).unwrap();
        let g: Vec<u32> = (0..100).map(|n| r.grundy(&[n]).unwrap() as u32).collect();
        assert_eq!(g, crate::games::octal::A002186);
    }

    #[test]
    fn no_script_call_starts_past_a_scoped_deadline() {
        // A short call never reaches the engine's check of the time: past the deadline
        // of the task (an audit drawing a batch) it is refused before it starts, and
        // the error says why; outside the scope the same call runs.
        let r = ScriptRules::new(
            &format!("{KAYLES}\nfn position(p) {{ p.map(|n| [n]) }}"),
            false,
            None,
        )
        .unwrap();
        let past = Instant::now();
        let cut = sgcheck_oracles::with_deadline(past, || r.components(&[3, 4]));
        let e = cut.unwrap_err();
        assert!(e.contains("time ran out"), "{e}");
        assert_eq!(r.components(&[3, 4]).unwrap().len(), 2);
    }

    /// Mock Turtles, one head a component, with its closed form; `PAST` replaces the
    /// value of heads past 20 (`g` is right).
    const TURTLES: &str = r#"
        fn moves(s) {
            let x = s[0];
            let out = [[]];
            for a in 0..x {
                out.push([a]);
                for b in (a + 1)..x { out.push([a, b]); }
            }
            out
        }
        fn value(s) {
            let v = 2 * s[0];
            let bits = 0;
            let y = v;
            while y > 0 { bits += y % 2; y /= 2; }
            let g = if bits % 2 == 0 { v + 1 } else { v };
            if s[0] > 20 { PAST } else { g }
        }
    "#;

    #[test]
    fn tier1_checks_the_closed_form_past_its_box() {
        let right = TURTLES.replace("PAST", "g");
        let r = ScriptRules::new(&right, false, Some((&[0], &[20]))).unwrap();
        let t = r.tier1_up_to(42).unwrap();
        // The box 0..=20, then past it, one state per layer, to 20 + 21.
        assert_eq!((t.checked, t.disagreements), (42, 0), "{t:?}");
        assert!(t.note.as_deref().unwrap().contains("to (41)"), "{t:?}");
        assert!(
            t.note.as_deref().unwrap().contains("stopped by 42 states"),
            "{t:?}"
        );
        let wrong = TURTLES.replace("PAST", "g + 1");
        let r = ScriptRules::new(&wrong, false, Some((&[0], &[20]))).unwrap();
        let t = r.tier1_up_to(42).unwrap();
        assert_eq!(t.disagreements, 21, "{t:?}");
        assert_eq!(t.first.unwrap().0, "value(21)");
        let e = ScriptRules::new(KAYLES, false, None).unwrap().tier1();
        assert!(e.unwrap_err().contains("no closed form"));
    }

    #[test]
    fn tier1_grows_a_box_of_two_integers_once_each() {
        // Two Nim heaps as one component: value a xor b. The box 0..=3 x 0..=1 grows to
        // 0..=7 x 0..=3, each state once; a state that throws is a failure, with why.
        let nim2 = r#"
            fn moves(s) {
                let out = [];
                for x in 0..s[0] { out.push([[x, s[1]]]); }
                for y in 0..s[1] { out.push([[s[0], y]]); }
                out
            }
            fn value(s) {
                if s[0] == 7 && s[1] == 3 { throw "no value"; }
                s[0] ^ s[1]
            }
        "#;
        let r = ScriptRules::new(nim2, false, Some((&[0, 0], &[3, 1]))).unwrap();
        let t = r.tier1_up_to(32).unwrap();
        assert_eq!(
            (t.checked, t.disagreements, t.skipped, t.failed),
            (31, 0, 0, 1),
            "{t:?}"
        );
        let why = t.first_failed.as_deref().unwrap();
        assert!(
            why.contains("value(7, 3)") && why.contains("no value"),
            "{t:?}"
        );
    }

    #[test]
    fn a_failed_call_is_kept_and_a_cut_one_is_not() {
        let r = ScriptRules::new(
            "fn moves(s) { if s[0] == 7 { throw \"planted\"; } [] }",
            false,
            None,
        )
        .unwrap();
        let first = r.moves_of(&[7]).unwrap_err();
        assert!(first.contains("planted"), "{first}");
        assert_eq!(
            lock(&r.failed).get(&(Call::Moves, Box::from([7]))),
            Some(&first)
        );
        assert_eq!(r.moves_of(&[7]).unwrap_err(), first);
        // Cut by its task's deadline: not the script's failure, not kept.
        let cut = script::within(Instant::now(), || r.moves_of(&[3])).unwrap_err();
        assert!(script::was_cut(&cut), "{cut}");
        assert_eq!(lock(&r.failed).len(), 1);
        assert!(r.moves_of(&[3]).unwrap().is_empty());
    }

    #[test]
    fn hostile_scripts_are_errors() {
        for (s, want) in [
            ("fn moves(s) { loop {} }", "operations"),
            ("fn f(x) { f(x + 1) } fn moves(s) { f(0) }", "nested"),
            ("fn moves(s) { let a = [0]; loop { a += a; } }", "limit"),
            ("fn moves(s) { [[[s[0]]]] }", "lead back"),
            ("fn moves(s) { 3 }", "not a list"),
            ("fn nothing(s) { 3 }", "no `fn moves"),
            // Each state holds 30000 components of moves, on a path that never ends.
            (
                "fn moves(s) { let o = []; o.pad(30000, [s[0] + 1]); o }",
                "holds more than",
            ),
        ] {
            let e = ScriptRules::new(s, false, None)
                .and_then(|r| r.grundy(&[1]))
                .unwrap_err();
            assert!(e.contains(want), "{s}: {e}");
        }
    }

    /// A call compares an array nested 3,000 deep (about 6 MB of stack in a test
    /// build) from a thread of 256 KB of stack: [`script::with_stack`] gives the call
    /// the stack it needs, where the thread's own would overflow.
    #[test]
    fn a_call_gets_its_stack_on_a_thread_with_little() {
        let rules = ScriptRules::new(
            "fn moves(s) { let a = []; for i in 0..3000 { a = [a]; } \
             if a == a && s[0] > 0 { [[s[0] - 1]] } else { [] } }",
            false,
            None,
        )
        .unwrap();
        let g = std::thread::Builder::new()
            .stack_size(256 << 10)
            .spawn(move || rules.grundy(&[2]))
            .unwrap()
            .join()
            .unwrap();
        assert_eq!(g, Ok(0));
    }

    /// Anonymous functions capture nothing: a function value that names a variable of
    /// its caller fails with a message that says so.
    #[test]
    fn an_anonymous_function_captures_nothing() {
        let e = ScriptRules::new(
            "fn moves(s) { let k = 1; [s[0]].map(|n| n - k); [] }",
            false,
            None,
        )
        .and_then(|r| r.grundy(&[1]))
        .unwrap_err();
        assert!(e.contains("Variable not found: k"), "{e}");
    }
}
