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

use crate::verify::{random_from, Rng};
use sgcheck_oracles::Rules;
use std::fmt::{self, Debug, Display};
use std::hash::Hash;

/// Sizes the provided [`Game::shrink`] looks through to find the instance it shrinks.
pub const SHRINK_SIZES: u32 = 16;

/// Most candidates the provided [`Game::shrink`] offers.
pub const SHRINK_CANDIDATES: usize = 20_000;

/// Sizes the provided [`Game::from_bytes`] chooses from (`0..BYTE_SIZES`).
pub const BYTE_SIZES: u32 = 12;

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
    /// Every instance (rules and position) of size `size`, in a fixed order; empty when
    /// the instances of that size are too large for the exhaustive oracle.
    fn instances(size: u32) -> Vec<(Self, Self::Position)>;

    /// One random instance small enough for the oracle. By default one of
    /// [`Game::instances`] of a random size below [`crate::verify::RANDOM_SIZES`];
    /// override it to reach instances the enumeration stops before.
    fn random(rng: &mut Rng) -> (Self, Self::Position) {
        random_from(rng, Self::instances)
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
    /// By default: every instance of a smaller size, smallest first, once this one is
    /// found among the instances of the first [`SHRINK_SIZES`] sizes (at most
    /// [`SHRINK_CANDIDATES`]); none when it is not found. So the first failing
    /// candidate is the smallest failing instance the sweep would find. Games with
    /// many instances per size shrink faster with the helpers of [`crate::shrink`].
    fn shrink(&self, pos: &Self::Position) -> Vec<(Self, Self::Position)> {
        let mut smaller = Vec::new();
        for size in 0..SHRINK_SIZES {
            let all = Self::instances(size);
            if all.iter().any(|(r, p)| r == self && p == pos) {
                smaller.truncate(SHRINK_CANDIDATES);
                return smaller;
            }
            if smaller.len() < SHRINK_CANDIDATES {
                smaller.extend(all);
            }
        }
        Vec::new()
    }

    /// Decodes fuzzer bytes into an instance (what `arbitrary::Arbitrary` for
    /// [`Case<R>`] calls). By default: a size below [`BYTE_SIZES`] from the first
    /// byte, then an index into [`Game::instances`] of that size, so small bytes give
    /// small instances.
    fn from_bytes(
        u: &mut arbitrary::Unstructured<'_>,
    ) -> arbitrary::Result<(Self, Self::Position)> {
        let size = u.int_in_range(0..=BYTE_SIZES - 1)?;
        let all = cached_instances::<Self>(size);
        if all.is_empty() {
            return Err(arbitrary::Error::IncorrectFormat);
        }
        let i = u.choose_index(all.len())?;
        Ok(all[i].clone())
    }

    /// The Rust snippet that re-checks your fast solver on this instance, printed
    /// with every failure. By default it writes the rules and the position with
    /// `Debug`; override it when that is not Rust syntax (a `Vec` field prints as
    /// `[1, 2]`), e.g. to parse them from your notation.
    fn reproduce(&self, pos: &Self::Position) -> String {
        format!("sgcheck::assert_agrees(&{self:?}, &{pos:?}, your_fast_solver)")
    }
}

/// [`Game::instances`] of `size`, computed once per thread and game type: a fuzzer
/// decodes every input through them, and building the list of a size costs far more
/// than checking one instance. At most [`BYTE_SIZES`] lists per game are kept (the
/// sizes `from_bytes` chooses from).
fn cached_instances<G: Game>(size: u32) -> std::rc::Rc<Vec<(G, G::Position)>> {
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
    if size < BYTE_SIZES {
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
