//! The rules of every game in the specification, one module per game.
//!
//! Each module has the same skeleton: the rule text and its source, the rules value
//! (holding the game's parameters), the position and move types with the canonical
//! move order, the compact notation (`FromStr`/`Display`), and tests whose expected
//! values say where they come from.

pub mod auction;
pub mod bash;
pub mod dag_tokens;
pub mod ed;
pub mod following_nim;
pub mod grundy;
pub mod hackenbush_tree;
pub mod heap_code;
pub mod heap_ranges;
pub mod lasker;
pub mod misere_nim;
pub mod mock_turtles;
pub mod nim;
pub mod nim_k;
pub mod octal;
pub mod paint_chain;
pub mod plus_heap;
pub mod simple_nim;
pub mod split;
pub mod staircase;
pub mod subtraction;
pub mod take_range;
pub mod wythoff;
