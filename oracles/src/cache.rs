//! Solvers kept per thread and reused across queries for the same rules.
//!
//! A fuzz process or a verify worker asks about the same small positions again and
//! again; a solver that keeps its table answers them with one lookup each. The cache
//! holds, per thread, one solver per rules value, mode and budget, at most
//! [`MAX_SOLVERS`] of them, keeping at most [`RETAIN_BYTES`] of tables in all between
//! queries (past either it starts afresh), so what it keeps stays bounded.

use crate::{Rules, Solver};
use rustc_hash::FxHashMap;
use std::any::{Any, TypeId};
use std::cell::RefCell;
use std::hash::Hash;

/// Most solvers the cache keeps per thread; past that it starts afresh.
pub const MAX_SOLVERS: usize = 1024;
/// Most table bytes the cached solvers of a thread keep between queries, in all; past
/// that the cache starts afresh.
pub const RETAIN_BYTES: usize = 128 << 20;

#[derive(Default)]
struct Cache {
    by_type: FxHashMap<TypeId, Box<dyn Any>>,
    /// Solvers held, and the table bytes they held when put back.
    solvers: usize,
    bytes: usize,
}

thread_local! {
    static CACHE: RefCell<Cache> = RefCell::new(Cache::default());
}

type Solvers<R> = FxHashMap<(R, bool, usize), Solver<R>>;

/// Runs `f` with this thread's cached solver for `rules` (verdict-only or with
/// remoteness, with the given position budget), building it when there is none. The
/// solver's table persists to the next call with the same rules, mode and budget.
///
/// ```
/// use sgcheck_oracles::{games::nim::{Nim, Piles}, with_cached_solver};
/// let win = with_cached_solver(&Nim, true, 1000, |s| s.outcome(&Piles(vec![1, 2])));
/// assert!(win.unwrap().win);
/// ```
pub fn with_cached_solver<R, T>(
    rules: &R,
    verdict_only: bool,
    budget: usize,
    f: impl FnOnce(&mut Solver<R>) -> T,
) -> T
where
    R: Rules + Clone + Eq + Hash + 'static,
{
    let mut solver = take_cached_solver(rules, verdict_only, budget);
    let out = f(&mut solver);
    put_back_solver(solver);
    out
}

/// Takes this thread's cached solver for `rules` out of the cache (building it when
/// there is none), for a caller that runs many queries with it; hand it back with
/// [`put_back_solver`]. While it is out, [`with_cached_solver`] for the same rules
/// builds another.
pub fn take_cached_solver<R>(rules: &R, verdict_only: bool, budget: usize) -> Solver<R>
where
    R: Rules + Clone + Eq + Hash + 'static,
{
    let key = (rules.clone(), verdict_only, budget.max(1));
    let taken = CACHE.with(|c| {
        let mut c = c.borrow_mut();
        let s = c
            .by_type
            .get_mut(&TypeId::of::<R>())
            .and_then(|b| b.downcast_mut::<Solvers<R>>())
            .and_then(|m| m.remove(&key))?;
        c.solvers -= 1;
        c.bytes = c.bytes.saturating_sub(s.table_bytes());
        Some(s)
    });
    taken.unwrap_or_else(|| {
        let s = if verdict_only {
            Solver::verdict_only(rules.clone())
        } else {
            Solver::new(rules.clone())
        };
        s.with_budget(budget)
    })
}

/// Hands a solver from [`take_cached_solver`] back to this thread's cache.
pub fn put_back_solver<R>(mut solver: Solver<R>)
where
    R: Rules + Clone + Eq + Hash + 'static,
{
    if solver.table_bytes() > RETAIN_BYTES {
        solver.clear();
    }
    let key = (
        solver.rules().clone(),
        !solver.computes_remoteness(),
        solver.budget(),
    );
    CACHE.with(|c| {
        let mut c = c.borrow_mut();
        let bytes = solver.table_bytes();
        if c.solvers >= MAX_SOLVERS || c.bytes + bytes > RETAIN_BYTES {
            *c = Cache::default();
        }
        let entry = c
            .by_type
            .entry(TypeId::of::<R>())
            .or_insert_with(|| Box::new(Solvers::<R>::default()));
        if let Some(m) = entry.downcast_mut::<Solvers<R>>() {
            m.insert(key, solver);
            c.solvers += 1;
            c.bytes += bytes;
        }
    });
}

/// Drops every solver this thread's cache holds.
pub fn clear_solver_cache() {
    CACHE.with(|c| *c.borrow_mut() = Cache::default());
}
