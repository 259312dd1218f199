//! Exhaustive oracles for the impartial games that `sgcheck` covers.
//!
//! Every game here is written straight from its rule text (see each module under
//! [`games`]) as a stateless [`Rules`] value: its parameters (a subtraction set, the
//! bounds of a take range, the special amounts) live in the rules, the position is a
//! separate type. [`Solver`] answers any small position of any such game by plain
//! memoized minimax over whole positions, with no Sprague–Grundy theory in it.
//!
//! This crate depends on nothing else in the `sgcheck` repository, on purpose: it is
//! the independent side of every differential check. A fast solver that shares a
//! rules bug with the oracle would agree with it; keeping the move generators here and
//! out of the fast solvers means a bug on either side shows up as a disagreement.
#![deny(missing_docs)]

mod cache;
pub mod games;
mod notation;
pub mod pack;
mod search;

pub use cache::{clear_solver_cache, put_back_solver, take_cached_solver, with_cached_solver};
pub use notation::{parse_list, write_list, NotationError};
pub use search::{
    default_memory_limit, query_time_limit, scoped_deadline, set_deadline, set_memory_limit,
    set_query_time_limit, with_deadline, Analysis, Outcome, SearchError, Solver, Speedups,
    DEFAULT_BUDGET,
};

use std::fmt::{Debug, Display};
use std::hash::Hash;

/// The rules of one impartial game: the legal moves from a position.
///
/// Only [`Rules::moves`] is required. A position with no legal move ends the game;
/// by default the player to move there loses (normal play), and a game with another
/// ending overrides [`Rules::stuck_player_wins`].
pub trait Rules {
    /// A whole game state (all piles, bottles, and any forced-pile marker).
    type Position: Clone + Eq + Hash + Debug + Display;
    /// One move. Its `Ord` is the game's canonical move order: the *best move* of a
    /// position is the smallest winning move in this order.
    type Move: Clone + Ord + Eq + Hash + Debug + Display;

    /// Appends every legal move from `pos`, each with the position it leads to.
    /// Order does not matter; duplicates are not allowed.
    fn moves(&self, pos: &Self::Position, out: &mut Vec<(Self::Move, Self::Position)>);

    /// Whether the player to move wins at a position with no legal move.
    /// False (normal play) unless a game says otherwise.
    fn stuck_player_wins(&self, _pos: &Self::Position) -> bool {
        false
    }

    /// An upper bound on the number of moves from `pos`, when it is cheap to compute.
    /// The solver refuses a position whose bound exceeds its budget before generating
    /// a single move, so a pile of two billion stones fails fast instead of filling
    /// memory. `None` (the default) means no bound is known.
    fn move_bound(&self, _pos: &Self::Position) -> Option<u64> {
        None
    }

    /// The key under which a solved position is remembered. Positions with equal keys
    /// must have the same outcome; the default (the position itself) is always safe.
    /// Games whose rules are symmetric under reordering piles return a sorted copy,
    /// which only shrinks the table and never changes a verdict.
    fn key(&self, pos: &Self::Position) -> Self::Position {
        pos.clone()
    }

    /// Calls `f` with each legal move and the position it leads to: the same pairs as
    /// [`Rules::moves`] lists, in any order. The default goes through
    /// [`Rules::moves`]; a game may override it to build each child in one reused
    /// buffer instead of allocating it (a speed-up the solver uses unless
    /// [`Speedups::in_place_children`] is off, and that the tests check against
    /// [`Rules::moves`] on every small position).
    fn for_each_move<F: FnMut(Self::Move, &Self::Position)>(&self, pos: &Self::Position, mut f: F) {
        let mut out = Vec::new();
        self.moves(pos, &mut out);
        for (m, p) in out {
            f(m, &p);
        }
    }

    /// Calls `f` with the moves of [`Rules::for_each_move`] whose child `wanted`
    /// accepts (it is asked about every child, in the order of
    /// [`Rules::for_each_move`]). The default builds every move; a game whose moves
    /// allocate may build only the wanted ones: the solver lists winning moves
    /// through it, wanting the children that are lost or not yet solved.
    fn for_each_move_if<W, F>(&self, pos: &Self::Position, mut wanted: W, mut f: F)
    where
        W: FnMut(&Self::Position) -> bool,
        F: FnMut(Self::Move, &Self::Position),
    {
        self.for_each_move(pos, |m, c| {
            if wanted(c) {
                f(m, c)
            }
        });
    }

    /// Calls `f` with the positions the legal moves lead to, without the moves: what
    /// the search needs to open a position. Every child of [`Rules::for_each_move`]
    /// must be given or have its key ([`Rules::key`]) given by another call: a
    /// child may be left out when an equal-keyed one is given (two heaps of the same
    /// size give the same children up to order; many bids overshoot to the same end),
    /// and `f` is called at least once exactly when there is a move. The default gives
    /// every child of [`Rules::for_each_move`]. A game may override it to skip building
    /// moves that allocate and to leave out repeats (a speed-up the solver uses unless
    /// [`Speedups::in_place_children`] is off; the tests check that the keys given are
    /// exactly the children's keys on every small position).
    fn for_each_child<F: FnMut(&Self::Position)>(&self, pos: &Self::Position, mut f: F) {
        self.for_each_move(pos, |_, c| f(c));
    }

    /// The memo key packed into one `u128` (see [`pack`]), when the position is small
    /// enough; `None` (the default) keeps the key of [`Rules::key`]. It must be a
    /// function of `key(pos)` that is one-to-one: two positions get equal packed keys
    /// exactly when their keys are equal, and either both or neither get one.
    fn packed_key(&self, _pos: &Self::Position) -> Option<u128> {
        None
    }

    /// A key shared by the positions that a symmetry of the rules maps onto each
    /// other, packed into one `u128`, when the game has one and the position is small
    /// enough; `None` (the default) keeps the other keys. Positions with equal
    /// symmetric keys must have the same outcome: the symmetry maps every move of one
    /// onto a move of the other, to positions with equal symmetric keys again (Green
    /// Hackenbush: isomorphic rooted trees). Used unless
    /// [`Speedups::symmetric_keys`] is off; the tests compare the answers with the
    /// plain search on every small position.
    fn symmetric_key(&self, _pos: &Self::Position) -> Option<u128> {
        None
    }

    /// Bytes one position occupies in memory, its heap allocations included; the
    /// solver's memory limit counts stored and pending positions by it. The default is
    /// the inline size, right for positions without heap data; games whose positions
    /// hold a `Vec` add its length.
    fn position_bytes(&self, _pos: &Self::Position) -> usize {
        std::mem::size_of::<Self::Position>()
    }
}
