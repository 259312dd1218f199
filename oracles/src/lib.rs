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

pub mod games;
mod notation;
mod search;

pub use notation::{parse_list, write_list, NotationError};
pub use search::{Analysis, Outcome, SearchError, Solver, DEFAULT_BUDGET};

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
}
