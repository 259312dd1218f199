//! A game as the library's users see it: its instances, and one small instance with its
//! rules ([`Case`]).
//!
//! The rules of a game implement [`sgcheck_oracles::Rules`] (the legal moves; that crate
//! alone is enough to write them). [`Game`], implemented for the same rules type,
//! says which instances to check: every instance of a given size, smallest sizes first.
//! Everything else has a provided default built on that enumeration: random instances,
//! shrinking, decoding fuzzer bytes and the reproduction of a failure. With it, a game
//! of your own gets, through sgcheck's types and without any orphan-rule trouble:
//!
//! - quickcheck `Arbitrary` for [`Case<R>`] (feature `quickcheck`), with shrinking;
//! - `arbitrary::Arbitrary` for [`Case<R>`], for `cargo fuzz` targets;
//! - the sweep, the one-position check and the property of [`crate::harness`].
//!
//! sgcheck's own games implement [`Game`] too, so your own solver of one of them
//! is checked on the same instances `sgcheck verify` uses.

use crate::verify::Rng;
use rand::Rng as _;
use sgcheck_oracles::Rules;
use std::fmt::{self, Debug, Display};
use std::hash::Hash;

/// The default of [`Game::MAX_SIZE`]: random instances, fuzz inputs and the provided
/// shrinker reach sizes up to 40.
pub const MAX_SIZE: u32 = 40;

/// The environment variable that sets the largest size for a run, over every game's
/// [`Game::MAX_SIZE`] (`SGCHECK_MAX_SIZE=64 cargo test`).
pub const MAX_SIZE_ENV: &str = "SGCHECK_MAX_SIZE";

/// Most candidates the provided [`Game::shrink`] offers in one step.
pub const SHRINK_CANDIDATES: usize = 20_000;

/// Instance lists longer than this are not kept between calls (they are enumerated
/// again when asked for), so the cache of a thread stays within tens of megabytes.
const CACHE_LIST_MAX: usize = 200_000;

/// The largest size of `G` in this run: [`MAX_SIZE_ENV`] when set (a number), else
/// [`Game::MAX_SIZE`].
pub fn max_size<G: Game>() -> u32 {
    std::env::var(MAX_SIZE_ENV)
        .ok()
        .and_then(|v| v.trim().parse().ok())
        .unwrap_or(G::MAX_SIZE)
}

/// One of [`Game::instances`] of a random size up to `max`: a size drawn in
/// `0..=max`, then as [`random_of_size`].
///
/// # Panics
/// When no size up to `max` has an instance: a game without small instances cannot be
/// checked.
pub fn random_up_to<G: Game>(rng: &mut Rng, max: u32) -> (G, G::Position) {
    let size = rng.gen_range(0..=max);
    random_of_size::<G>(rng, size, max)
}

/// One of [`Game::instances`] of `size`, chosen at random; while that size has no
/// instance, one of the sizes below it, then of those above it up to `max`.
///
/// # Panics
/// When no size up to `max` has an instance.
pub fn random_of_size<G: Game>(rng: &mut Rng, size: u32, max: u32) -> (G, G::Position) {
    let size = size.min(max);
    for s in (0..=size).rev().chain(size + 1..=max) {
        let all = cached_instances::<G>(s);
        if !all.is_empty() {
            return all[rng.gen_range(0..all.len())].clone();
        }
    }
    panic!("the game has no instance of size up to {max}: nothing to check")
}

/// The instances of a game, for the sweep, quickcheck and fuzzing.
///
/// Only [`Game::instances`] is required. Sizes are yours to define (usually the total
/// number of stones, beans or coins, plus something for the parameters); what matters
/// is that small sizes hold small instances, the sweep checks them in that order, so
/// the first failure it finds is already small. Return an empty list for a size whose
/// instances are too large for the exhaustive oracle: that ends the sweep.
///
/// The rules type also needs `Display` (reports print the rules with it; a game
/// without parameters writes `-`) and `Debug` (the default reproduction).
///
/// # Example
///
/// Kayles: a row of pins; a move knocks down one pin or two adjacent pins, which may
/// split a row in two. The player who cannot move loses.
///
/// ```
/// use sgcheck::oracles::{write_list, Rules};
/// use sgcheck::Game;
/// use std::fmt;
///
/// #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
/// struct Kayles;
///
/// #[derive(Clone, Debug, PartialEq, Eq, Hash)]
/// struct Rows(Vec<u64>);
///
/// /// Knock `count` pins (1 or 2) from row `row`, leaving `left` pins on the left.
/// #[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
/// struct Knock { row: usize, count: u64, left: u64 }
///
/// impl fmt::Display for Kayles {
///     fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result { f.write_str("-") }
/// }
/// impl fmt::Display for Rows {
///     fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result { write_list(f, &self.0) }
/// }
/// impl fmt::Display for Knock {
///     fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
///         write!(f, "{}:{}@{}", self.row, self.count, self.left)
///     }
/// }
///
/// impl Rules for Kayles {
///     type Position = Rows;
///     type Move = Knock;
///     fn moves(&self, pos: &Rows, out: &mut Vec<(Knock, Rows)>) {
///         for (row, &n) in pos.0.iter().enumerate() {
///             for count in 1..=2.min(n) {
///                 for left in 0..=n - count {
///                     let mut next = pos.0.clone();
///                     next[row] = left;
///                     next.push(n - count - left);
///                     out.push((Knock { row, count, left }, Rows(next)));
///                 }
///             }
///         }
///     }
/// }
///
/// impl Game for Kayles {
///     fn instances(size: u32) -> Vec<(Kayles, Rows)> {
///         // One row of `size` pins, up to 12.
///         if size > 12 { vec![] } else { vec![(Kayles, Rows(vec![u64::from(size)]))] }
///     }
/// }
///
/// assert_eq!(Kayles::instances(3), vec![(Kayles, Rows(vec![3]))]);
/// // The provided shrinker offers every smaller instance, smallest first.
/// assert_eq!(Kayles.shrink(&Rows(vec![2])), vec![(Kayles, Rows(vec![0])), (Kayles, Rows(vec![1]))]);
/// ```
pub trait Game:
    Rules<Position: Send + Sync + 'static, Move: Send + Sync + 'static>
    + Clone
    + Eq
    + Hash
    + Debug
    + Display
    + Send
    + Sync
    + 'static
{
    /// The largest size the provided random instances ([`Game::random`]), fuzz
    /// decoding ([`Game::from_bytes`]) and shrinker ([`Game::shrink`]) reach; a run
    /// may set another with [`MAX_SIZE_ENV`]. Sizes whose instances are too large for
    /// the oracle should have none ([`Game::instances`] returns an empty list), and
    /// are then skipped.
    const MAX_SIZE: u32 = MAX_SIZE;

    /// Every instance (rules and position) of size `size`, in a fixed order; empty when
    /// the instances of that size are too large for the exhaustive oracle.
    fn instances(size: u32) -> Vec<(Self, Self::Position)>;

    /// One random instance small enough for the oracle. By default
    /// [`Game::random_up_to`] the run's [`max_size`]; override it to reach instances
    /// the enumeration stops before.
    fn random(rng: &mut Rng) -> (Self, Self::Position) {
        Self::random_up_to(rng, max_size::<Self>())
    }

    /// One random instance of size at most `max`, for runs whose sizes grow (the
    /// property of [`crate::quickcheck`] starts small and reaches [`max_size`] at its
    /// last case). By default one of [`Game::instances`] ([`random_up_to`]).
    fn random_up_to(rng: &mut Rng, max: u32) -> (Self, Self::Position) {
        random_up_to::<Self>(rng, max)
    }

    /// The Grundy value of each component of a position that is a sum of independent
    /// games (its piles, its rows, its pairs), in a fixed order: the player to move
    /// wins exactly when their XOR is nonzero. `None` (the default) when the position
    /// is no such sum or the values are not known. With [`Game::keep_components`] it
    /// gives the provided [`Game::shrink_keeping_value`].
    fn component_values(&self, _pos: &Self::Position) -> Option<Vec<u64>> {
        None
    }

    /// The position with only the components at the indices `keep` (ascending, into
    /// the list of [`Game::component_values`]), or `None` when that is no position.
    /// `None` by default.
    fn keep_components(&self, _pos: &Self::Position, _keep: &[usize]) -> Option<Self::Position> {
        None
    }

    /// Smaller instances that keep the true answer, derived from the game's values,
    /// tried before [`Game::shrink`]'s when a check fails (by
    /// [`crate::fuzzing::check_case`], [`crate::fuzzing::check_agree`] and the
    /// quickcheck route alike): a bug behind a XOR survives them where every single
    /// removal would hide it.
    ///
    /// By default, when the game gives [`Game::component_values`] and
    /// [`Game::keep_components`]: the position without sets of components whose values
    /// XOR to 0 (every zero-valued one, every equal-valued pair, then each pair and
    /// each triple XORing to 0: [`crate::shrink::xor_zero_drops`]); none otherwise.
    fn shrink_keeping_value(&self, pos: &Self::Position) -> Vec<(Self, Self::Position)> {
        let Some(values) = self.component_values(pos) else {
            return Vec::new();
        };
        let index: Vec<u64> = (0..values.len() as u64).collect();
        crate::shrink::xor_zero_drops(&index, &values, 1)
            .into_iter()
            .filter_map(|keep| {
                let keep: Vec<usize> = keep.iter().map(|&i| i as usize).collect();
                Some((self.clone(), self.keep_components(pos, &keep)?))
            })
            .collect()
    }

    /// Smaller instances to try when a check fails on this one, most promising first.
    ///
    /// By default: once this instance is found among [`Game::instances`] of some size
    /// `s` up to [`max_size`], the instances of every smaller size, smallest size
    /// first. When they are more than [`SHRINK_CANDIDATES`], each size gives an even
    /// share of its instances (every k-th), so every size below `s` is still tried and
    /// the next step starts from a smaller failing instance; while they are fewer, the
    /// first failing candidate is the smallest failing instance the sweep would find.
    /// None when the instance is not found (a game whose positions are not all among
    /// its instances shrinks with the helpers of [`crate::shrink`] instead).
    fn shrink(&self, pos: &Self::Position) -> Vec<(Self, Self::Position)> {
        let max = max_size::<Self>();
        let mut lists = Vec::new();
        for size in 0..=max {
            let all = cached_instances::<Self>(size);
            if all.iter().any(|(r, p)| r == self && p == pos) {
                return spread(&lists, SHRINK_CANDIDATES);
            }
            lists.push(all);
        }
        Vec::new()
    }

    /// Decodes fuzzer bytes into an instance (what `arbitrary::Arbitrary` for
    /// [`Case<R>`] calls). By default: a size up to [`max_size`] from the first
    /// bytes, then an index into [`Game::instances`] of that size (a smaller size when
    /// that one has none), so small bytes give small instances.
    fn from_bytes(
        u: &mut arbitrary::Unstructured<'_>,
    ) -> arbitrary::Result<(Self, Self::Position)> {
        let max = max_size::<Self>();
        let top = u.int_in_range(0..=max)?;
        for size in (0..=top).rev() {
            let all = cached_instances::<Self>(size);
            if !all.is_empty() {
                let i = u.choose_index(all.len())?;
                return Ok(all[i].clone());
            }
        }
        Err(arbitrary::Error::IncorrectFormat)
    }

    /// The Rust snippet that re-checks your fast solver on this instance, printed
    /// with every failure. By default it writes the rules and the position with
    /// `Debug`; override it when that is not Rust syntax (a `Vec` field prints as
    /// `[1, 2]`), e.g. to parse them from your notation.
    fn reproduce(&self, pos: &Self::Position) -> String {
        format!("sgcheck::assert_agrees(&{self:?}, &{pos:?}, your_fast_solver)")
    }
}

/// Up to `cap` instances from `lists` (one list per size, smallest first): all of them
/// when they fit, else an even share of each list.
fn spread<T: Clone>(lists: &[std::rc::Rc<Vec<T>>], cap: usize) -> Vec<T> {
    let total: usize = lists.iter().map(|l| l.len()).sum();
    if total <= cap {
        return lists.iter().flat_map(|l| l.iter().cloned()).collect();
    }
    let share = (cap / lists.len().max(1)).max(1);
    let mut out = Vec::with_capacity(cap);
    for l in lists {
        let step = l.len().div_ceil(share).max(1);
        out.extend(l.iter().step_by(step).cloned());
    }
    out
}

/// [`Game::instances`] of `size`, computed once per thread and game type: a fuzzer
/// decodes every input through them, and building the list of a size costs far more
/// than checking one instance. Lists longer than [`CACHE_LIST_MAX`] are not kept.
pub(crate) fn cached_instances<G: Game>(size: u32) -> std::rc::Rc<Vec<(G, G::Position)>> {
    use std::any::{Any, TypeId};
    use std::cell::RefCell;
    use std::collections::HashMap;
    use std::rc::Rc;
    thread_local! {
        static CACHE: RefCell<HashMap<(TypeId, u32), Rc<dyn Any>>> = RefCell::new(HashMap::new());
    }
    let key = (TypeId::of::<G>(), size);
    if let Some(hit) = CACHE.with(|c| c.borrow().get(&key).cloned()) {
        if let Ok(v) = hit.downcast::<Vec<(G, G::Position)>>() {
            return v;
        }
    }
    let v = Rc::new(G::instances(size));
    if v.len() <= CACHE_LIST_MAX {
        CACHE.with(|c| c.borrow_mut().insert(key, v.clone() as Rc<dyn Any>));
    }
    v
}

/// One instance of a game: its rules and a position.
///
/// `Debug` prints the position and the rules in the game's notation, which is what
/// quickcheck and libFuzzer show of a failing input.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Case<R: Rules> {
    /// The rules (parameters).
    pub rules: R,
    /// The position.
    pub position: R::Position,
}

impl<R: Rules> Case<R> {
    /// The instance of `position` under `rules`.
    pub fn new(rules: R, position: R::Position) -> Self {
        Case { rules, position }
    }
}

impl<R: Rules + Display> Debug for Case<R> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "position {} (rules {})", self.position, self.rules)
    }
}

impl<'a, R: Game> arbitrary::Arbitrary<'a> for Case<R> {
    fn arbitrary(u: &mut arbitrary::Unstructured<'a>) -> arbitrary::Result<Self> {
        let (rules, position) = R::from_bytes(u)?;
        Ok(Case { rules, position })
    }
}
