//! sgcheck: proves impartial-game solvers right, or finds the smallest input on which
//! they are wrong.
//!
//! Impartial games (Nim and its contest variants) are solved by Sprague–Grundy theory:
//! closed forms and tables that answer in microseconds. sgcheck compares such a *fast*
//! solver with an *exhaustive oracle* (crate [`sgcheck_oracles`], re-exported as
//! [`oracles`]): plain minimax over whole positions, written straight from the rules
//! with no theory in it. They must agree on the verdict, the best move (the smallest
//! winning move in the game's canonical move order), the number of winning moves and
//! the whole set of them.
//!
//! # Checking your own solver
//!
//! A fast solver is a function of the rules and the position that returns an
//! [`oracles::Analysis`]. One call each:
//!
//! - [`check`] / [`assert_agrees`]: one position;
//! - [`sweep`] / [`assert_sweep`]: every small instance, smallest first, then random
//!   ones, in parallel, for a given time;
//! - `quickcheck()` (feature `quickcheck`): a quickcheck property with shrinking, or
//!   `arbitrary::agrees` inside a property of your own;
//! - [`fuzzing::check_case`]: the body of a `cargo fuzz` target.
//!
//! ```
//! use sgcheck::oracles::games::nim::{Nim, Piles, Take};
//! use sgcheck::oracles::Analysis;
//!
//! fn bouton(_: &Nim, pos: &Piles) -> Analysis<Take> {
//!     let x = pos.0.iter().fold(0, |a, &p| a ^ p);
//!     let winning = pos.0.iter().enumerate()
//!         .filter(|&(_, &p)| p ^ x < p)
//!         .map(|(pile, &p)| Take { pile, amount: p - (p ^ x) })
//!         .collect();
//!     Analysis { win: x != 0, winning, remoteness: None }
//! }
//!
//! sgcheck::assert_agrees(&Nim, &Piles(vec![3, 4, 5]), bouton);
//! sgcheck::assert_sweep(bouton, std::time::Duration::from_millis(100));
//! ```
//!
//! # A game of your own
//!
//! Implement [`oracles::Rules`] (the legal moves) and [`Game`] (its instances by size)
//! for your rules type; every route above then works for it, and [`Case<R>`] is a
//! quickcheck and `arbitrary` input. See [`Game`] for a complete example.
//!
//! # Features
//!
//! - `cli` (default): the `sgcheck` command line and the contest-program audit
//!   (modules `cli` and `audit`), with their dependencies. Library users can turn it off:
//!   `sgcheck = { version = "0.1", default-features = false }`.
//! - `quickcheck`: quickcheck `Arbitrary` for [`Case<R>`] and `quickcheck()`.
//! - `serde` (enabled by `cli`): `Serialize` for the reports of [`verify`].
#![deny(missing_docs)]
#![cfg_attr(docsrs, feature(doc_cfg))]

pub use sgcheck_oracles as oracles;

/// The `arbitrary` crate, whose `Arbitrary` [`Case<R>`] implements (for fuzz targets).
pub use ::arbitrary as arbitrary_crate;
/// The `quickcheck` crate whose `Arbitrary` [`Case<R>`] implements.
#[cfg(feature = "quickcheck")]
#[cfg_attr(docsrs, doc(cfg(feature = "quickcheck")))]
pub use ::quickcheck as quickcheck_crate;
/// The `rand` crate of [`verify::Rng`]'s traits (`rand::Rng` for `gen_range`).
pub use rand;
/// The `rand_chacha` crate of [`verify::Rng`].
pub use rand_chacha;

/// The `anyhow` crate of the subcommands' results ([`cli`]).
#[cfg(feature = "cli")]
#[cfg_attr(docsrs, doc(cfg(feature = "cli")))]
pub use anyhow;
/// The `clap` crate of [`cli::Cli`] (its `Parser` trait parses the arguments).
#[cfg(feature = "cli")]
#[cfg_attr(docsrs, doc(cfg(feature = "cli")))]
pub use clap;
/// The `indicatif` crate of the progress bars the CLI and the audit take.
#[cfg(feature = "cli")]
#[cfg_attr(docsrs, doc(cfg(feature = "cli")))]
pub use indicatif;

#[cfg(feature = "quickcheck")]
#[cfg_attr(docsrs, doc(cfg(feature = "quickcheck")))]
pub mod arbitrary;
#[cfg(feature = "cli")]
#[cfg_attr(docsrs, doc(cfg(feature = "cli")))]
pub mod audit;
#[cfg(feature = "cli")]
#[cfg_attr(docsrs, doc(cfg(feature = "cli")))]
pub mod cli;
pub mod fuzzing;
pub mod game;
pub mod games;
pub mod guard;
pub mod harness;
#[cfg(feature = "cli")]
#[cfg_attr(docsrs, doc(cfg(feature = "cli")))]
pub mod package;
pub mod problems;
pub mod registry;
pub mod shell;
pub mod shrink;
pub mod tree;
pub mod verify;

pub use game::{Case, Game};
pub use games::scripted::memory::CountingAllocator;
pub use harness::{
    assert_agrees, assert_sweep, check, check_within, sweep, sweep_with, SweepError,
};
#[cfg(feature = "quickcheck")]
pub use harness::{quickcheck, quickcheck_with};
pub use verify::{Disagreement, Sweep};

/// The Rust code blocks of the README and of the book (`docs/`), compiled and run as
/// doc tests by `cargo test` (`tests/book.rs` runs the command lines).
#[cfg(doctest)]
pub mod book {
    #[doc = include_str!("../README.md")]
    pub struct Readme;

    #[doc = include_str!("../docs/src/library.md")]
    pub struct Library;
}
