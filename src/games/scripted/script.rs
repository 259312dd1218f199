//! The sandbox a scripted game's rules run in: a Rhai engine with every limit set, and
//! the conversions between its values and component states.
//!
//! A declaration is untrusted input, so the engine has no I/O (no modules, no `print`
//! output, no clock, no `eval`) and each call is bounded: [`MAX_OPERATIONS`]
//! operations, [`CALL_TIME`] of the calling thread's CPU time (so a call's answer does
//! not change with the load of the machine), with [`CALL_WALL_TIME`] of wall time as a
//! backstop for a thread that stalls (both checked every 256 operations, so an
//! operation that is cheap to count but slow to run, such as concatenating large
//! arrays, cannot stretch them), [`MAX_CALL_LEVELS`] nested calls (recursion),
//! [`MAX_ARRAY`] items in any array (nested arrays count their items), [`MAX_STRING`]
//! bytes in any string, [`MAX_VARIABLES`] live variables, and [`MAX_CALL_MEMORY`]
//! bytes held, counted by the global allocator ([`super::memory`]) on every path to
//! memory. A script longer than [`MAX_SCRIPT_BYTES`] is refused before it is compiled.
//! An error of any kind becomes a message naming the function and the state it was
//! called with; nothing panics.
//!
//! Values cannot nest without bound: anonymous functions capture nothing (`no_closure`)
//! and `curry` is disabled, so no function value holds another value, and arrays and
//! maps count the items of those they hold. A call runs with at least
//! [`SCRIPT_STACK`] bytes of stack, which the deepest value these limits allow needs
//! to be compared, printed or dropped.

use super::memory;
use rhai::{Array, CallFnOptions, Dynamic, Engine, Scope, AST};
use std::cell::Cell;
use std::time::{Duration, Instant};

/// Most operations (Rhai's coarse count: one expression node, operator, loop turn or
/// call) one call of a script function may run.
pub const MAX_OPERATIONS: u64 = 5_000_000;
/// Most CPU time (of the calling thread) one call of a script function may take.
pub const CALL_TIME: Duration = Duration::from_secs(2);
/// Most wall time one call may take, whatever its CPU time: a backstop, four times
/// [`CALL_TIME`], that ends a call whose thread stalls.
pub const CALL_WALL_TIME: Duration = Duration::from_secs(8);
/// Most nested function calls (the recursion depth of a script).
pub const MAX_CALL_LEVELS: usize = 48;
/// Most items of one array (nested arrays add up).
pub const MAX_ARRAY: usize = 1 << 16;
/// Most entries of one map (nested maps add up).
pub const MAX_MAP: usize = 1 << 10;
/// Most bytes of one string.
pub const MAX_STRING: usize = 1 << 12;
/// Most live variables.
pub const MAX_VARIABLES: usize = 1 << 10;
/// Most bytes of a script.
pub const MAX_SCRIPT_BYTES: usize = 1 << 16;
/// Most bytes one call may hold (allocated during the call and not freed).
pub const MAX_CALL_MEMORY: usize = 32 << 20;
/// The stack a call runs with at least: an array nested [`MAX_ARRAY`] deep takes up
/// to about 2 KB of stack per level to compare with `==` (measured), less to print or
/// drop.
pub const SCRIPT_STACK: usize = if cfg!(debug_assertions) {
    1 << 30
} else {
    256 << 20
};
/// Most integers in one component state.
pub const MAX_STATE_LEN: usize = 8;
/// Most components one move leaves in place of one.
pub const MAX_PARTS: usize = 1024;

/// A component's state: a tuple of integers.
pub type State = Box<[i64]>;

thread_local! {
    /// When the running call must stop (wall time: the backstop, or the task's end).
    static DEADLINE: Cell<Option<Instant>> = const { Cell::new(None) };
    /// The CPU time of this thread at which the running call must stop.
    static CPU_DEADLINE: Cell<Option<Duration>> = const { Cell::new(None) };
    /// The bytes held (by [`memory::held`]'s count) past which the running call stops.
    static MEMORY_LIMIT: Cell<Option<isize>> = const { Cell::new(None) };
    /// A deadline of the whole task the calls belong to (an oracle query): no call
    /// runs past it, whatever [`CALL_TIME`] allows.
    static OUTER: Cell<Option<Instant>> = const { Cell::new(None) };
}

/// A compiled script: the sandboxed engine and the functions the author defined.
pub struct Script {
    engine: Engine,
    ast: AST,
    /// Whether the script defines `value(state)`.
    pub has_value: bool,
    /// Whether the script defines `wins(state)`.
    pub has_wins: bool,
    /// Whether the script defines `position(numbers)`.
    pub has_position: bool,
    /// The moves as templates of the move language instead of a script's `moves`
    /// (then there is no other function).
    lang: Option<super::lang::MoveRules>,
}

impl std::fmt::Debug for Script {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Script")
            .field("has_value", &self.has_value)
            .field("has_wins", &self.has_wins)
            .field("has_position", &self.has_position)
            .finish()
    }
}

/// A state as the author would write it: `(3, 1)`.
pub fn show(s: &[i64]) -> String {
    let parts: Vec<String> = s.iter().map(i64::to_string).collect();
    format!("({})", parts.join(", "))
}

/// When the task the calls on this thread belong to must end: the earlier of
/// [`within`]'s deadline and [`sgcheck_oracles::with_deadline`]'s.
fn outer() -> Option<Instant> {
    match (OUTER.with(Cell::get), sgcheck_oracles::scoped_deadline()) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    }
}

/// Runs `f` with every script call on this thread ending by `until` at the latest.
pub fn within<R>(until: Instant, f: impl FnOnce() -> R) -> R {
    let before = OUTER.with(|o| o.replace(Some(until)));
    let r = f();
    OUTER.with(|o| o.set(before));
    r
}

fn sandbox() -> Engine {
    let mut e = Engine::new();
    e.set_max_operations(MAX_OPERATIONS)
        .set_max_call_levels(MAX_CALL_LEVELS)
        .set_max_expr_depths(64, 64)
        .set_max_array_size(MAX_ARRAY)
        .set_max_string_size(MAX_STRING)
        .set_max_map_size(MAX_MAP)
        .set_max_variables(MAX_VARIABLES)
        .set_max_functions(256)
        .set_max_strings_interned(256);
    e.on_print(|_| {});
    e.on_debug(|_, _, _| {});
    e.disable_symbol("eval");
    // A curried function value holds values, and `f.curry(f)` doubles them: without
    // it (and without closures) no function value holds another value.
    e.disable_symbol("curry");
    e.on_progress(|ops| {
        if MEMORY_LIMIT.with(|m| m.get().is_some_and(|m| memory::held() > m)) {
            return Some(Dynamic::from(MEMORY));
        }
        if ops & 255 != 0 {
            return None;
        }
        if CPU_DEADLINE.with(|d| d.get().is_some_and(|t| thread_cpu() >= t)) {
            return Some(Dynamic::from(CPU));
        }
        let late = DEADLINE.with(|d| d.get().is_some_and(|t| Instant::now() >= t));
        late.then(|| Dynamic::from("time"))
    });
    e
}

/// What the progress check answers when a call ran past its CPU time.
const CPU: &str = "cpu";
/// What the progress check answers when a call held more than its memory.
const MEMORY: &str = "memory";

/// The CPU time this thread has used.
pub(crate) fn thread_cpu() -> Duration {
    let t = rustix::time::clock_gettime(rustix::time::ClockId::ThreadCPUTime);
    Duration::new(
        t.tv_sec.max(0) as u64,
        t.tv_nsec.clamp(0, 999_999_999) as u32,
    )
}

/// Why a call stopped when the task it belongs to ran out of time (not the script's
/// failure: the call was cut).
const TASK_TIME_OUT: &str = "the query's time ran out during the call";

/// Why a call failed, in words (the limit that stopped it, or the script's error).
fn why(e: &rhai::EvalAltResult) -> String {
    use rhai::EvalAltResult as E;
    match e {
        E::ErrorTooManyOperations(_) => {
            format!("it ran more than {MAX_OPERATIONS} operations (an endless loop?)")
        }
        E::ErrorTerminated(..) if outer().is_some_and(|o| Instant::now() >= o) => {
            TASK_TIME_OUT.to_string()
        }
        E::ErrorTerminated(why, _) if why.clone().into_string().is_ok_and(|w| w == CPU) => {
            format!("it ran longer than {} s of CPU time", CALL_TIME.as_secs())
        }
        E::ErrorTerminated(why, pos) if why.clone().into_string().is_ok_and(|w| w == MEMORY) => {
            format!(
                "it held more than {} MB of memory{}",
                MAX_CALL_MEMORY >> 20,
                at_line(*pos)
            )
        }
        E::ErrorTerminated(..) => format!(
            "it ran longer than {} s of wall time (its thread stalled?)",
            CALL_WALL_TIME.as_secs()
        ),
        E::ErrorStackOverflow(_) => {
            format!("it nested more than {MAX_CALL_LEVELS} calls (endless recursion?)")
        }
        E::ErrorDataTooLarge(what, pos) => {
            format!(
                "{what} grew past its limit ({MAX_ARRAY} array items, {MAX_MAP} map \
                 entries, {MAX_STRING} string bytes; nested ones count){}",
                at_line(*pos)
            )
        }
        E::ErrorTooManyVariables(_) => format!("it held more than {MAX_VARIABLES} variables"),
        other => other.to_string(),
    }
}

/// " (line N)" when the engine knows where, else nothing.
fn at_line(pos: rhai::Position) -> String {
    pos.line()
        .map_or_else(String::new, |l| format!(" (line {l})"))
}

impl Script {
    /// Compiles `text`, which must define `moves(state)`; `value(state)`,
    /// `wins(state)` and `position(numbers)` are optional.
    pub fn compile(text: &str) -> Result<Script, String> {
        if text.len() > MAX_SCRIPT_BYTES {
            return Err(format!(
                "the script has {} bytes; a script has at most {MAX_SCRIPT_BYTES}",
                text.len()
            ));
        }
        let engine = sandbox();
        let ast = engine
            .compile(text)
            .map_err(|e| format!("the script does not compile: {e}"))?;
        let arity = |name: &str| {
            ast.iter_functions()
                .find(|f| f.name == name)
                .map(|f| f.params.len())
        };
        match arity("moves") {
            Some(1) => {}
            Some(n) => return Err(format!("moves takes one argument (the state), not {n}")),
            None => return Err("the script defines no `fn moves(state)`".into()),
        }
        for f in ["value", "wins", "position"] {
            if let Some(n) = arity(f).filter(|&n| n != 1) {
                return Err(format!("{f} takes one argument, not {n}"));
            }
        }
        let has_value = arity("value").is_some();
        let has_wins = arity("wins").is_some();
        let has_position = arity("position").is_some();
        Ok(Script {
            engine,
            ast,
            has_value,
            has_wins,
            has_position,
            lang: None,
        })
    }

    /// Rules whose moves are templates of the move language ([`super::lang`]): no
    /// script function is called; a case's numbers make components of the state's
    /// arity, in order.
    pub fn of_moves(rules: super::lang::MoveRules) -> Script {
        Script {
            engine: sandbox(),
            ast: AST::empty(),
            has_value: false,
            has_wins: false,
            has_position: false,
            lang: Some(rules),
        }
    }

    /// The move templates, when the rules are written in the move language.
    pub fn lang(&self) -> Option<&super::lang::MoveRules> {
        self.lang.as_ref()
    }

    fn call(&self, f: &str, arg: Array) -> Result<Dynamic, Box<rhai::EvalAltResult>> {
        let now = Instant::now();
        let own = now + CALL_WALL_TIME;
        let until = match outer() {
            // The task's time is over: no call starts (a short call would never reach
            // the engine's check of the time).
            Some(o) if now >= o => {
                return Err(Box::new(rhai::EvalAltResult::ErrorTerminated(
                    Dynamic::from("time"),
                    rhai::Position::NONE,
                )))
            }
            Some(o) => o.min(own),
            None => own,
        };
        DEADLINE.with(|d| d.set(Some(until)));
        CPU_DEADLINE.with(|d| d.set(Some(thread_cpu() + CALL_TIME)));
        MEMORY_LIMIT.with(|m| m.set(Some(memory::held() + MAX_CALL_MEMORY as isize)));
        let r = with_stack(|| {
            let mut scope = Scope::new();
            self.engine.call_fn_with_options::<Dynamic>(
                CallFnOptions::new().eval_ast(false).rewind_scope(true),
                &mut scope,
                &self.ast,
                f,
                (arg,),
            )
        });
        DEADLINE.with(|d| d.set(None));
        CPU_DEADLINE.with(|d| d.set(None));
        MEMORY_LIMIT.with(|m| m.set(None));
        r
    }

    /// The moves of a component: each the list of components that replace it.
    pub fn moves(&self, s: &[i64]) -> Result<Vec<Vec<State>>, String> {
        if let Some(l) = &self.lang {
            let k = l.arity();
            let mut out = Vec::new();
            l.each_move(s, &mut |m| {
                out.push(m.chunks(k).map(State::from).collect());
            })?;
            return Ok(out);
        }
        let arg: Array = s.iter().map(|&x| Dynamic::from_int(x)).collect();
        let at = || format!("moves{}", show(s));
        let r = self
            .call("moves", arg)
            .map_err(|e| format!("{}: {}", at(), why(&e)))?;
        let list = r.into_array().map_err(|t| {
            format!(
                "{}: returned {t}, not a list of moves (each a list of components)",
                at()
            )
        })?;
        let mut out = Vec::with_capacity(list.len());
        for (j, m) in list.into_iter().enumerate() {
            let parts = m.into_array().map_err(|t| {
                format!(
                    "{}: move {j} is {t}, not a list of components ([] for none, [[a, b]] for one)",
                    at()
                )
            })?;
            if parts.len() > MAX_PARTS {
                return Err(format!(
                    "{}: move {j} leaves {} components; a move leaves at most {MAX_PARTS}",
                    at(),
                    parts.len()
                ));
            }
            let mut move_parts = Vec::with_capacity(parts.len());
            for p in parts {
                move_parts.push(state_of(p).map_err(|e| format!("{}: move {j}: {e}", at()))?);
            }
            out.push(move_parts);
        }
        Ok(out)
    }

    /// The author's closed form of a component's Grundy value.
    pub fn value(&self, s: &[i64]) -> Result<u64, String> {
        let arg: Array = s.iter().map(|&x| Dynamic::from_int(x)).collect();
        let at = || format!("value{}", show(s));
        let r = self
            .call("value", arg)
            .map_err(|e| format!("{}: {}", at(), why(&e)))?;
        match r.as_int() {
            Ok(v) if v >= 0 => Ok(v as u64),
            Ok(v) => Err(format!(
                "{}: returned {v}; a Grundy value is at least 0",
                at()
            )),
            Err(t) => Err(format!("{}: returned {t}, not an integer", at())),
        }
    }

    /// The author's closed form of a component's outcome: whether the player to move
    /// wins the component played alone.
    pub fn wins(&self, s: &[i64]) -> Result<bool, String> {
        let arg: Array = s.iter().map(|&x| Dynamic::from_int(x)).collect();
        let at = || format!("wins{}", show(s));
        let r = self
            .call("wins", arg)
            .map_err(|e| format!("{}: {}", at(), why(&e)))?;
        r.as_bool()
            .map_err(|t| format!("{}: returned {t}, not true or false", at()))
    }

    /// The components of a position given as the numbers of a case (each number one
    /// component `(n)` without `position`).
    pub fn components(&self, numbers: &[u64]) -> Result<Vec<State>, String> {
        let mut ints = Vec::with_capacity(numbers.len());
        for &n in numbers {
            ints.push(
                i64::try_from(n).map_err(|_| format!("{n} is past the script's integers (i64)"))?,
            );
        }
        if let Some(l) = &self.lang {
            let k = l.arity();
            if ints.len() % k != 0 {
                return Err(format!(
                    "a case's {} position numbers do not make components of {k} integers",
                    ints.len()
                ));
            }
            return Ok(ints.chunks(k).map(State::from).collect());
        }
        if !self.has_position {
            return Ok(ints.into_iter().map(|n| Box::from([n])).collect());
        }
        let arg: Array = ints.iter().map(|&x| Dynamic::from_int(x)).collect();
        let at = || format!("position{}", show(&ints));
        let r = self
            .call("position", arg)
            .map_err(|e| format!("{}: {}", at(), why(&e)))?;
        let list = r
            .into_array()
            .map_err(|t| format!("{}: returned {t}, not a list of components", at()))?;
        list.into_iter()
            .map(|c| state_of(c).map_err(|e| format!("{}: {e}", at())))
            .collect()
    }
}

/// Runs `f` with at least [`SCRIPT_STACK`] bytes of stack: on the thread's own stack
/// when it has that much left, on a new one otherwise. Every script call runs inside
/// it; code that makes many calls wraps them all in it, so that the new stack (when one
/// is needed) is made once.
pub fn with_stack<R>(f: impl FnOnce() -> R) -> R {
    stacker::maybe_grow(SCRIPT_STACK, SCRIPT_STACK + (SCRIPT_STACK >> 2), f)
}

/// Whether `error` (a message of a script call) says the call was cut by the deadline
/// of the task it belongs to, not failed by the script: the same call may answer
/// when given its time.
pub fn was_cut(error: &str) -> bool {
    error.contains(TASK_TIME_OUT)
}

/// Whether `error` (a message of a scripted game, maybe inside a longer one) says that
/// a call of the script failed: `moves`, `value` or `position` threw, ran past a limit
/// of the sandbox or returned a value of the wrong type, or the moves lead back to a
/// state (a game that never ends). Such an error is the declaration's failure, which
/// `verify` reports; every other error (a number past i64, a table past its size, a
/// task whose time ran out) is a refusal by design.
pub fn is_call_failure(error: &str) -> bool {
    if was_cut(error) {
        return false;
    }
    ["moves(", "value(", "position("].iter().any(|f| {
        error.match_indices(f).any(|(at, _)| {
            let rest = &error[at + f.len()..];
            let Some(end) = rest.find(')') else {
                return false;
            };
            let inside = rest[..end]
                .chars()
                .all(|c| c.is_ascii_digit() || ", -".contains(c));
            let starts = at == 0 || error[..at].ends_with(": ") || error[..at].ends_with("in ");
            let after = &rest[end + 1..];
            inside && starts && (after.starts_with(": ") || after.starts_with(" lead back"))
        })
    })
}

/// A component from a script value: a list of at most [`MAX_STATE_LEN`] integers, or
/// one integer for a state of one number.
fn state_of(d: Dynamic) -> Result<State, String> {
    if let Ok(n) = d.as_int() {
        return Ok(Box::from([n]));
    }
    let t = d.type_name();
    let items = d
        .into_array()
        .map_err(|_| format!("a component is {t}, not a list of integers"))?;
    if items.is_empty() || items.len() > MAX_STATE_LEN {
        return Err(format!(
            "a component has {} integers; a state has 1 to {MAX_STATE_LEN}",
            items.len()
        ));
    }
    items
        .into_iter()
        .map(|x| {
            x.as_int()
                .map_err(|t| format!("a component holds {t}, not an integer"))
        })
        .collect()
}
